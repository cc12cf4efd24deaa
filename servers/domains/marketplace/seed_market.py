"""Building the seeded market one listing at a time: its bids (simulated with the same proxy rules
the tools use), offers, the orders it sold in and the feedback on them."""

from __future__ import annotations

from datetime import datetime, timedelta

from servers.domains.marketplace.model import OFFER_HOURS, increment, proxy_price, rank_bids
from servers.domains.marketplace.seed_text import (
    CONDITION_DETAILS,
    COUNTER_MESSAGES,
    DESCRIPTIONS,
    DETAILS,
    FEEDBACK,
    OFFER_MESSAGES,
    SHIPPING_NOTES,
)
from servers.kit import Seeder
from servers.kit.db import format_id

CONDITIONS = ("new", "used", "refurbished", "for_parts")
CONDITION_WEIGHTS = (25, 55, 12, 8)
CONDITION_FACTOR = {"new": 1.0, "used": 0.75, "refurbished": 0.85, "for_parts": 0.3}
SHIPPING = (0.0, 0.0, 0.0, 4.99, 6.99, 8.5, 9.99, 12.0, 15.0, 19.99)
TRACKING_SHAPES = {"usps": ("9400", 18), "ups": ("1Z", 16), "fedex": ("", 12), "dhl": ("", 10)}


def _iso(t: datetime) -> str:
    return t.isoformat(timespec="seconds")


def nice(x: float) -> float:
    """A price people write: x.99 under 20 dollars, whole dollars above."""
    if x < 20:
        return max(0.99, round(round(x) - 0.01, 2))
    return float(round(x))


class Market:
    """Rows of every market table, built together so they agree with each other."""

    def __init__(self, s: Seeder, users: list[dict], leaves: dict[str, list[tuple[str, float]]]) -> None:
        self.s, self.rng, self.now = s, s.rng, s.now
        self.users = users
        self.by_id = {u["id"]: u for u in users}
        self.leaves = sorted(leaves.items())
        self.sellers = [u for u in users[1:] if u["is_seller"] and u["status"] == "active"]
        self.buyers = [u for u in users[1:] if u["status"] == "active"]
        self.circle = self.buyers[:80]  # the persona's usual counterparts: colleagues first
        self.listings: list[dict] = []
        self.bids: list[dict] = []
        self.offers: list[dict] = []
        self.orders: list[dict] = []
        self.feedback: list[dict] = []
        self.watch_rows: list[dict] = []
        self._tracking: set[str] = set()

    # -- helpers -----------------------------------------------------------------------------
    def _id(self, prefix: str, rows: list[dict]) -> str:
        return format_id(prefix, len(rows) + 1)

    def seller(self) -> dict:
        return self.rng.choice(self.sellers)

    def _buyer(self, not_: dict, persona_side: bool = False) -> dict:
        pool = self.circle if persona_side else self.buyers
        while True:
            b = self.rng.choice(pool)
            if b["id"] != not_["id"]:
                return b

    def _hours(self, lo: float, hi: float) -> timedelta:
        return timedelta(hours=self.rng.uniform(lo, hi))

    def _item(self) -> tuple[str, str, str, float, str]:
        cat, items = self.rng.choice(self.leaves)
        item, base = self.rng.choice(items)
        condition = self.rng.choices(CONDITIONS, CONDITION_WEIGHTS)[0]
        detail = self.rng.choice(CONDITION_DETAILS.get(condition, DETAILS))
        title = f"{item}, {detail}"[:80]
        text = f"{DESCRIPTIONS[condition]} {self.rng.choice(SHIPPING_NOTES)}"
        price = base * CONDITION_FACTOR[condition] * self.rng.uniform(0.8, 1.2)
        return cat, title, condition, price, text

    def _listing(self, seller: dict, fmt: str, state: str, recent: bool) -> dict:
        cat, title, condition, price, text = self._item()
        days = self.rng.choice((1, 3, 5, 7, 10) if fmt == "auction" else (3, 5, 7, 10))
        if state == "active":
            ends = self.now + self._hours(1, min(days * 24, 168))
        else:
            ends = self.now - self._hours(3, 240 if recent else 24 * 55)
        starts = ends - timedelta(days=days)
        row = dict(
            id=self._id("LST", self.listings),
            seller_id=seller["id"],
            category_id=cat,
            title=title,
            description=text,
            condition=condition,
            format=fmt,
            start_price=None,
            current_price=0.0,
            reserve_price=None,
            buy_now_price=None,
            quantity=1,
            quantity_sold=0,
            bid_count=0,
            status=state,
            starts_at=_iso(starts),
            ends_at=_iso(ends),
            ended_at=None if state == "active" else _iso(ends),
            end_reason=None,
            best_offer=False,
            auto_decline_below=None,
            shipping_cost=self.rng.choice(SHIPPING),
            location_city=seller["city"],
            relisted_from=None,
            _price=price,
        )
        if state == "cancelled":
            row["ended_at"] = _iso(ends - self._hours(1, days * 12))
            row["end_reason"] = self.rng.choice(
                ("item_lost_or_broken", "no_longer_available", "error_in_listing")
            )
        elif state == "sold":
            row["end_reason"] = "sold"
        self.listings.append(row)
        return row

    # -- auctions ----------------------------------------------------------------------------
    def auction(
        self,
        seller: dict,
        state: str,
        *,
        bids: bool,
        reserve: bool,
        recent: bool = False,
        bidder: dict | None = None,
        leads: bool | None = None,
        met: bool | None = None,
    ) -> dict:
        """An auction; ``bidder`` takes part and ends up leading (``leads``) or outbid; a live
        one's reserve is met or not as ``met`` says (None: either)."""
        row = self._listing(seller, "auction", state, recent)
        price = row.pop("_price")
        start = nice(price * self.rng.uniform(0.3, 0.7))
        row.update(start_price=start, current_price=start)
        if self.rng.random() < 0.2 and state == "active" and bidder is None:
            row["buy_now_price"] = nice(max(price * 1.25, start * 1.3 + 1))
        placed = self._bid_run(row, seller, bidder, leads) if bids or bidder else []
        top = rank_bids(placed)[0]["max_amount"] if placed else None
        sold = state == "sold" and placed
        live_met = self.rng.random() < 0.5 if met is None else met
        if reserve and placed and (sold or (state == "active" and live_met)):
            row["reserve_price"] = min(top, nice(self.rng.uniform(start, top)))
        elif reserve:
            row["reserve_price"] = nice(max(price, (top or 0) * 1.15, start * 1.2))
        if state == "sold" and not placed:
            row["status"], row["end_reason"] = "ended", None
        ranking = rank_bids(placed)
        row["current_price"] = proxy_price(ranking, start, row["reserve_price"])
        row["bid_count"] = len(placed)
        if state == "ended" and placed and row["reserve_price"] is None:
            row["reserve_price"] = nice(top * 1.2)  # an unsold auction with bids missed its reserve
        self._settle(row, placed, ranking)
        return row

    def _bid_run(self, row: dict, seller: dict, bidder: dict | None, leads: bool | None) -> list[dict]:
        start, ends = datetime.fromisoformat(row["starts_at"]), datetime.fromisoformat(row["ends_at"])
        until = min(ends, self.now - timedelta(minutes=5))
        crowd = [self._buyer(seller) for _ in range(self.rng.randint(2, 5))]
        if bidder is not None:
            crowd.append(bidder)
        n = self.rng.randint(1, 12)
        times = sorted(start + (until - start) * self.rng.random() for _ in range(n + 2))
        placed: list[dict] = []
        for t in times[:n]:
            self._one_bid(row, placed, self.rng.choice(crowd), t)
        if bidder is not None:
            ranking = rank_bids(placed)
            lead = ranking[0]["bidder_id"] if ranking else None
            if lead != bidder["id"]:
                self._one_bid(row, placed, bidder, times[n], stretch=1.4 if leads else 1.0)
            ranking = rank_bids(placed)
            if not leads and ranking[0]["bidder_id"] == bidder["id"]:
                self._one_bid(row, placed, self._buyer(seller), times[n + 1], above=ranking[0]["max_amount"])
        return placed

    def _one_bid(
        self, row: dict, placed: list[dict], who: dict, t: datetime, stretch: float = 1.6, above: float = 0
    ) -> None:
        ranking = rank_bids(placed)
        if ranking and ranking[0]["bidder_id"] == who["id"]:
            return
        price = proxy_price(ranking, row["start_price"], None)
        minimum = price + increment(price) if placed else row["start_price"]
        amount = max(minimum * self.rng.uniform(1.0, stretch), above + increment(above) if above else 0)
        placed.append(
            dict(
                id=self._id("BD", self.bids),
                listing_id=row["id"],
                bidder_id=who["id"],
                max_amount=round(amount, 2) if amount < 20 else float(round(amount + 0.5)),
                status="outbid",
                retract_reason=None,
                placed_at=_iso(t),
            )
        )
        self.bids.append(placed[-1])

    def _settle(self, row: dict, placed: list[dict], ranking: list[dict]) -> None:
        """Bid statuses for the listing's state, and the winner's order for a sold auction."""
        leader = ranking[0]["id"] if ranking else None
        for b in placed:
            if row["status"] == "active":
                b["status"] = "active" if b["id"] == leader else "outbid"
            elif row["status"] == "sold":
                b["status"] = "won" if b["id"] == leader else "lost"
            else:
                b["status"] = "cancelled" if row["status"] == "cancelled" else "lost"
        if row["status"] == "sold":
            row["quantity_sold"] = 1
            winner = self.by_id[ranking[0]["bidder_id"]]
            self._order(
                row, winner, "auction", row["current_price"], 1, datetime.fromisoformat(row["ends_at"])
            )

    # -- fixed price -------------------------------------------------------------------------
    def fixed(
        self,
        seller: dict,
        state: str,
        *,
        best_offer: bool,
        offers: tuple[int, int] | None = None,
        recent: bool = False,
        buyer: dict | None = None,
    ) -> dict:
        row = self._listing(seller, "fixed_price", state, recent)
        price = nice(row.pop("_price") * self.rng.uniform(0.95, 1.25))
        qty = 1 if self.rng.random() < 0.8 else self.rng.randint(2, 8)
        row.update(buy_now_price=price, current_price=price, quantity=qty, best_offer=best_offer)
        if best_offer and self.rng.random() < 0.5:
            row["auto_decline_below"] = nice(price * self.rng.uniform(0.55, 0.75))
        persona_side = row["seller_id"] == self.users[0]["id"]
        if state == "sold":
            self._sell_out(row, seller, persona_side, buyer)
        elif state == "active" and qty > 1 and self.rng.random() < 0.4:
            for _ in range(self.rng.randint(1, qty - 1)):
                self._sale(row, self._buyer(seller, persona_side), 1)
        if offers and state == "active":
            self._offers(row, seller, self.rng.randint(*offers), persona_side)
        return row

    def _sell_out(self, row: dict, seller: dict, persona_side: bool, buyer: dict | None) -> None:
        left = row["quantity"]
        while left > 0:
            q = left if buyer is not None else self.rng.randint(1, left)
            who = buyer or self._buyer(seller, persona_side)
            if row["best_offer"] and self.rng.random() < 0.3:
                self._accepted_offer(row, who, q)
            else:
                self._sale(row, who, q)
            left -= q

    def _sale(
        self, row: dict, buyer: dict, q: int, price: float | None = None, source: str = "buy_it_now"
    ) -> None:
        start, end = datetime.fromisoformat(row["starts_at"]), datetime.fromisoformat(row["ends_at"])
        end = min(end, self.now - timedelta(minutes=30))
        at = start + (end - start) * self.rng.uniform(0.2, 1.0)
        row["quantity_sold"] += q
        self._order(row, buyer, source, price or row["buy_now_price"], q, at)

    def _accepted_offer(self, row: dict, buyer: dict, q: int) -> None:
        amount = nice(row["buy_now_price"] * self.rng.uniform(0.8, 0.95))
        start = datetime.fromisoformat(row["starts_at"])
        self.offers.append(
            self._offer_row(row, buyer, amount, q, "accepted", start + self._hours(1, 20), responded=True)
        )
        self._sale(row, buyer, q, amount, "offer")

    # -- offers ------------------------------------------------------------------------------
    def _offer_row(
        self, row: dict, buyer: dict, amount: float, q: int, status: str, created: datetime, responded: bool
    ) -> dict:
        out = dict(
            id=self._id("OFR", self.offers),
            listing_id=row["id"],
            buyer_id=buyer["id"],
            amount=amount,
            quantity=q,
            message=self.rng.choice(OFFER_MESSAGES),
            status=status,
            counter_amount=None,
            counter_message=None,
            expires_at=_iso(created + timedelta(hours=OFFER_HOURS)),
            created_at=_iso(created),
            responded_at=_iso(created + self._hours(0.5, 20)) if responded else None,
        )
        if status == "countered":
            answered = created + self._hours(0.5, 10)
            out["counter_amount"] = nice((amount + row["buy_now_price"]) / 2)
            out["counter_message"] = self.rng.choice(COUNTER_MESSAGES)
            out["responded_at"], out["expires_at"] = (
                _iso(answered),
                _iso(answered + timedelta(hours=OFFER_HOURS)),
            )
        return out

    def _offers(self, row: dict, seller: dict, k: int, persona_side: bool, buyer: dict | None = None) -> None:
        pool = self.circle if persona_side else self.buyers
        people = [u for u in self.rng.sample(pool, min(k + 1, len(pool))) if u["id"] != seller["id"]][:k]
        if buyer is not None:
            people = [buyer]
        weights = (80, 0, 8, 5, 7, 0) if persona_side else (30, 0, 20, 10, 25, 15)
        if buyer is not None:
            weights = (50, 0, 12, 30, 8, 0)
        statuses = ("pending", "accepted", "declined", "countered", "expired", "withdrawn")
        for who in people:
            status = self.rng.choices(statuses, weights)[0]
            amount = nice(row["buy_now_price"] * self.rng.uniform(0.6, 0.95))
            q = 1 if row["quantity"] - row["quantity_sold"] < 2 or self.rng.random() < 0.8 else 2
            floor = row["auto_decline_below"]
            if floor is not None and amount < floor and status in ("pending", "countered"):
                amount = nice(floor * 1.05)
            if amount >= row["buy_now_price"]:
                amount = round(row["buy_now_price"] * 0.9, 2)
            if status == "pending":
                created = self.now - self._hours(1, 47)
            elif status == "countered":
                created = self.now - self._hours(12, 40)
            else:
                created = self.now - self._hours(50, 24 * 9)
            made = self._offer_row(
                row, who, amount, q, status, created, status not in ("pending", "withdrawn")
            )
            if status == "countered" and made["expires_at"] <= _iso(self.now):
                made["expires_at"] = _iso(self.now + self._hours(2, 30))
            self.offers.append(made)

    # -- orders and feedback -----------------------------------------------------------------
    def _order(self, row: dict, buyer: dict, source: str, price: float, q: int, at: datetime) -> None:
        me = self.users[0]["id"]
        age = (self.now - at).total_seconds() / 86400
        if row["seller_id"] == me and age < 12:
            status = self.rng.choices(("awaiting_payment", "paid", "shipped", "delivered"), (8, 72, 12, 8))[0]
        elif buyer["id"] == me and age < 12:
            status = self.rng.choices(("awaiting_payment", "paid", "shipped", "delivered"), (45, 20, 25, 10))[
                0
            ]
        elif age < 2:
            status = self.rng.choices(("awaiting_payment", "paid", "shipped"), (35, 50, 15))[0]
        elif age < 10:
            status = self.rng.choices(("paid", "shipped", "delivered"), (20, 50, 30))[0]
        else:
            status = self.rng.choices(("delivered", "cancelled"), (90, 10))[0]
        paid = min(at + self._hours(0.2, 20), self.now - timedelta(minutes=10))
        shipped = min(paid + self._hours(12, 60), self.now - timedelta(minutes=5))
        order = dict(
            id=self._id("ORD", self.orders),
            listing_id=row["id"],
            buyer_id=buyer["id"],
            seller_id=row["seller_id"],
            title=row["title"],
            source=source,
            unit_price=price,
            quantity=q,
            shipping_cost=row["shipping_cost"],
            total=round(price * q + row["shipping_cost"], 2),
            status=status,
            ship_to=buyer["ship_to"],
            carrier=None,
            tracking=None,
            created_at=_iso(at),
            paid_at=_iso(paid) if status in ("paid", "shipped", "delivered") else None,
            shipped_at=_iso(shipped) if status in ("shipped", "delivered") else None,
        )
        if order["shipped_at"]:
            order["carrier"] = self.rng.choice(sorted(TRACKING_SHAPES))
            order["tracking"] = self._tracking_number(order["carrier"])
        self.orders.append(order)
        if order["paid_at"]:
            self._feedback(order, paid)

    def _tracking_number(self, carrier: str) -> str:
        prefix, n = TRACKING_SHAPES[carrier]
        alphabet = "0123456789ABCDEFGHJKLMNPRSTUVWXYZ" if carrier == "ups" else "0123456789"
        while True:
            number = prefix + "".join(self.rng.choice(alphabet) for _ in range(n))
            if number not in self._tracking:
                self._tracking.add(number)
                return number

    def _feedback(self, order: dict, paid: datetime) -> None:
        me = self.users[0]["id"]
        for role, author, target in (("buyer", "buyer_id", "seller_id"), ("seller", "seller_id", "buyer_id")):
            chance = (
                (0.2 if order[author] == me else 0.5)
                if role == "buyer"
                else (0.15 if order[author] == me else 0.4)
            )
            if self.rng.random() >= chance:
                continue
            at = min(paid + self._hours(6, 24 * 12), self.now - timedelta(minutes=1))
            rating = (
                "positive"
                if role == "seller"
                else self.rng.choices(("positive", "neutral", "negative"), (90, 6, 4))[0]
            )
            self.feedback.append(
                dict(
                    id=self._id("FBK", self.feedback),
                    order_id=order["id"],
                    from_id=order[author],
                    to_id=order[target],
                    role=role,
                    rating=rating,
                    comment=self.rng.choice(FEEDBACK[rating]),
                    at=_iso(at),
                )
            )

    # -- the persona as a buyer, watch lists, ratings ------------------------------------------
    def persona_buys(self, n_bids: int, n_offers: int, n_purchases: int) -> None:
        me = self.users[0]
        for i in range(n_bids):
            self.auction(self.seller(), "active", bids=True, reserve=i % 4 == 0, bidder=me, leads=i % 2 == 0)
        for _ in range(n_offers):
            row = self.fixed(self.seller(), "active", best_offer=True)
            row["auto_decline_below"] = None
            self._offers(row, self.seller(), 1, False, buyer=me)
        for i in range(n_purchases):
            if i % 2:
                self.auction(
                    self.seller(), "sold", bids=True, reserve=False, recent=True, bidder=me, leads=True
                )
            else:
                self.fixed(self.seller(), "sold", best_offer=False, recent=True, buyer=me)

    def watches(self, n: int) -> None:
        live = [r for r in self.listings if r["status"] == "active"]
        seen: set[tuple[str, str]] = set()
        me = self.users[0]
        watchers = [me] * max(5, n // 100) + [self.rng.choice(self.buyers) for _ in range(n)]
        for who in watchers:
            row = self.rng.choice(live)
            if row["seller_id"] == who["id"] or (who["id"], row["id"]) in seen:
                continue
            seen.add((who["id"], row["id"]))
            at = datetime.fromisoformat(row["starts_at"]) + self._hours(0, 20)
            self.watch_rows.append(
                dict(
                    id=self._id("WCH", self.watch_rows),
                    user_id=who["id"],
                    listing_id=row["id"],
                    created_at=_iso(min(at, self.now)),
                )
            )

    def finish_ratings(self) -> None:
        for f in self.feedback:
            self.by_id[f["to_id"]][f"ratings_{f['rating']}"] += 1
        for u in self.users:
            pos, neg = u["ratings_positive"], u["ratings_negative"]
            u["feedback_score"] = pos - neg
            u["positive_pct"] = round(100 * pos / (pos + neg), 1) if pos + neg else None
