"""Seeded orders in every stage (delivered, cancelled, rejected, and in flight right now), their
items, tracking events, refunds and ratings, and the carts customers are filling.

Orders are only ever from a restaurant that delivers to the customer's home (geo.route road
distance within its radius), placed within its opening hours; in-flight orders come from places
open at the reference moment and were placed in the last hour. Busy couriers are exactly the
couriers of the orders in flight."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from servers.domains.food_delivery.model import (
    CANCEL_SHARE,
    HANDOFF_MINUTES,
    ROUTE_MODE,
    CartItem,
    Courier,
    Order,
    OrderEvent,
    OrderItem,
    Rating,
    Refund,
)
from servers.domains.food_delivery.rules import fees, fmt, is_open, leg
from servers.kit import Seeder
from servers.kit.db import format_id

STAGES = ("placed", "accepted", "ready", "picked_up")
COMMENTS = {
    5: ("Hot and fast, thank you!", "Perfect as always", "Great food, friendly courier"),
    4: ("Tasty, a little late", "Good portions", "Solid, will order again"),
    3: ("Okay, food was lukewarm", "Fine but nothing special"),
    2: ("Order arrived cold", "Missing the sauce I asked for"),
    1: ("Very late and cold", "Wrong order delivered"),
}
CANCEL_REASONS = ("customer_request", "ordered_by_mistake", "taking_too_long", "wrong_address")
REJECT_REASONS = ("out_of_items", "kitchen_closed", "too_busy", "other")


@dataclass
class _Orders:
    """What the order seeding accumulates, in insertion order."""

    orders: list[dict] = field(default_factory=list)
    items: list[dict] = field(default_factory=list)
    events: list[dict] = field(default_factory=list)
    refunds: list[dict] = field(default_factory=list)
    ratings: list[dict] = field(default_factory=list)
    promo_uses: dict[str, int] = field(default_factory=dict)

    def event(self, order_id: str, status: str, note: str, at: datetime) -> None:
        self.events.append(
            {
                "id": format_id("OEV", len(self.events) + 1),
                "order_id": order_id,
                "status": status,
                "note": note,
                "at": fmt(at),
            }
        )

    def refund(self, order: dict, amount: float, reason: str, method: str, at: datetime) -> None:
        self.refunds.append(
            {
                "id": format_id("RFN", len(self.refunds) + 1),
                "order_id": order["id"],
                "amount": round(amount, 2),
                "reason": reason,
                "method": method,
                "at": fmt(at),
            }
        )
        order["refunded"] = round(order["refunded"] + amount, 2)


def seed_orders(
    s: Seeder,
    restaurants: list[dict],
    items: dict[str, list[dict]],
    customers: list[dict],
    couriers: list[dict],
    promos: list[dict],
) -> None:
    reach = _reach(restaurants, customers)
    acc = _Orders()
    total = s.count(small=500, medium=8000, large=25_000)
    live = s.count(small=48, medium=1200, large=3000)
    drafts = [_past_draft(s, customers, reach) for _ in range(total - live)]
    drafts = sorted((d for d in drafts if d is not None), key=lambda d: d[2])
    couriers_in: dict[str, list[dict]] = {}
    for c in couriers:
        couriers_in.setdefault(c["city"], []).append(c)
    for customer, r, placed in drafts:
        _past_order(s, acc, customer, r, placed, items[r["id"]], couriers_in[r["city"]], promos)
    _live_orders(s, acc, customers, reach, items, couriers_in, live)
    for p in promos:
        used = acc.promo_uses.get(p["id"], 0)
        p["uses"] = p["max_uses"] if p["id"] == "FLASH50" else used + s.rng.randint(0, 40) * (used > 0)
    s.add(Courier, couriers)  # after the orders in flight made some of them busy
    s.add(Order, acc.orders)
    s.add(OrderItem, acc.items)
    s.add(OrderEvent, acc.events)
    s.add(Refund, acc.refunds)
    s.add(Rating, acc.ratings)
    s.add(CartItem, _carts(s, customers, reach, items))


def _reach(restaurants: list[dict], customers: list[dict]) -> dict[str, list[tuple[dict, float]]]:
    """Per customer: the restaurants that deliver to their home, with the road distance."""
    by_city: dict[str, list[dict]] = {}
    for r in restaurants:
        by_city.setdefault(r["city"], []).append(r)
    out = {}
    for c in customers:
        near = []
        for r in by_city.get(c["city"], []):
            km = leg(r["lat"], r["lon"], c["lat"], c["lon"])["distance_km"]
            if km <= r["radius_km"]:
                near.append((r, km))
        out[c["id"]] = near
    return out


def _taking_orders(r: dict, now: datetime) -> bool:
    return r["status"] == "online" and is_open(r["hours"], now)


def _past_draft(s: Seeder, customers: list[dict], reach: dict) -> tuple[dict, dict, datetime] | None:
    """Who ordered where and when: a day in the last 60, a time the restaurant was open."""
    customer = customers[0] if s.chance(0.002) else s.pick(customers)
    near = reach[customer["id"]]
    if not near:
        return None
    r, _ = s.pick(near)
    for _ in range(4):
        day = (s.now - timedelta(days=s.rng.randint(1, 60))).date()
        shift = r["hours"].get(day.weekday())
        if shift is None:
            continue
        opens = datetime.fromisoformat(f"{day.isoformat()}T{shift[0]}")
        closes = datetime.fromisoformat(f"{day.isoformat()}T{shift[1]}")
        span = int((closes - opens).total_seconds() // 60) - 30
        return customer, r, opens + timedelta(minutes=s.rng.randint(0, max(span, 1)))
    return None


def _basket(s: Seeder, menu: list[dict], r: dict) -> list[dict]:
    """One to four dishes, enough to reach the minimum order."""
    lines: list[dict] = []
    pool = [i for i in menu if i["available"]] or menu
    while not lines or (
        sum(x["unit_price"] * x["quantity"] for x in lines) < r["min_order"] and len(lines) < 6
    ):
        item = s.pick(pool)
        option = next((o for o in item["options"] if o["choice"] == "one" and o["price_delta"] > 0), None)
        chosen = option if option is not None and s.chance(0.3) else None
        lines.append(
            {
                "item_id": item["id"],
                "name": item["name"],
                "options": chosen["name"] if chosen else "",
                "unit_price": round(item["price"] + (chosen["price_delta"] if chosen else 0.0), 2),
                "quantity": s.pick([1, 1, 1, 2, 2, 3]),
                "note": s.pick(["", "", "", "no onions", "extra napkins", "sauce on the side"]),
            }
        )
        if (
            len(lines) >= s.rng.randint(1, 4)
            and sum(x["unit_price"] * x["quantity"] for x in lines) >= r["min_order"]
        ):
            break
    return lines


def _seeded_promo(
    s: Seeder, acc: _Orders, promos: list[dict], placed: datetime, subtotal: float, delivery_fee: float
) -> tuple[dict | None, float]:
    """A promo some orders used, if it was valid for them then, and its discount."""
    promo = s.pick(promos) if promos and s.chance(0.08) else None
    if promo is None or promo["expires_on"] < placed.date().isoformat() or subtotal < promo["min_subtotal"]:
        return None, 0.0
    acc.promo_uses[promo["id"]] = acc.promo_uses.get(promo["id"], 0) + 1
    discount = {
        "percent": round(subtotal * promo["value"] / 100, 2),
        "amount": min(promo["value"], subtotal),
        "free_delivery": delivery_fee,
    }[promo["kind"]]
    return promo, discount


def _new_order(
    s: Seeder, acc: _Orders, customer: dict, r: dict, placed: datetime, menu: list[dict], promos: list[dict]
) -> dict:
    """The order row and its items, priced as checkout prices them."""
    oid = format_id("ORD", len(acc.orders) + 1)
    lines = _basket(s, menu, r)
    subtotal = round(sum(x["unit_price"] * x["quantity"] for x in lines), 2)
    f = fees(customer, r, subtotal)
    promo, discount = _seeded_promo(s, acc, promos, placed, subtotal, f["delivery_fee"])
    tip = s.pick([0.0, 2.0, 3.0, 3.0, 4.0, 5.0, round(subtotal * 0.15, 2)])
    total = round(subtotal + f["delivery_fee"] + f["service_fee"] + tip - discount, 2)
    ride = leg(r["lat"], r["lon"], customer["lat"], customer["lon"])
    prep = r["prep_minutes"] + s.rng.randint(-3, 8)
    order = {
        "id": oid,
        "label": f"{r['name']}, {placed.strftime('%b')} {placed.day} {placed.strftime('%H:%M')}",
        "customer_id": customer["id"],
        "restaurant_id": r["id"],
        "courier_id": None,
        "status": "placed",
        "subtotal": subtotal,
        **f,
        "tip": tip,
        "discount": discount,
        "promo_code": promo["id"] if promo else None,
        "total": total,
        "credit_applied": 0.0,
        "card_charged": total,
        "refunded": 0.0,
        "address": customer["address"],
        "lat": customer["lat"],
        "lon": customer["lon"],
        "distance_km": ride["distance_km"],
        "placed_at": fmt(placed),
        "scheduled_for": None,
        "prep_minutes": prep,
        "accepted_at": None,
        "ready_at": None,
        "picked_up_at": None,
        "delivered_at": None,
        "cancelled_at": None,
        "eta": fmt(placed + timedelta(minutes=2 + prep + int(ride["duration_min"]) + HANDOFF_MINUTES)),
        "cancel_reason": None,
        "cancel_fee": 0.0,
        "reject_reason": None,
    }
    for x in lines:
        acc.items.append({"id": format_id("OIT", len(acc.items) + 1), "order_id": oid, **x})
    acc.orders.append(order)
    acc.event(oid, "placed", f"placed with {r['name']}", placed)
    return order


def _past_order(
    s: Seeder,
    acc: _Orders,
    customer: dict,
    r: dict,
    placed: datetime,
    menu: list[dict],
    couriers: list[dict],
    promos: list[dict],
) -> None:
    """A finished order: delivered (some late, refunded or rated), cancelled or rejected."""
    o = _new_order(s, acc, customer, r, placed, menu, promos)
    roll = s.rng.random()
    if roll < 0.03:
        reason = s.pick(REJECT_REASONS)
        at = placed + timedelta(minutes=s.rng.randint(1, 6))
        o.update(status="rejected", reject_reason=reason, cancelled_at=fmt(at))
        acc.event(o["id"], "rejected", f"rejected by the restaurant: {reason}", at)
        acc.refund(o, o["total"], "rejected", "original", at)
        return
    accepted = placed + timedelta(minutes=s.rng.randint(1, 4))
    courier = s.pick(couriers)
    if roll < 0.13:
        _past_cancel(s, acc, o, placed, accepted, courier)
        return
    ready = accepted + timedelta(minutes=o["prep_minutes"])
    picked = ready + timedelta(minutes=s.rng.randint(1, 8))
    ride = leg(r["lat"], r["lon"], o["lat"], o["lon"], ROUTE_MODE[courier["vehicle"]])["duration_min"]
    late = s.chance(0.15)
    # the ETA as last updated at pickup; late orders arrive well after it, the rest by it
    eta = picked + timedelta(minutes=int(ride) + 1 + HANDOFF_MINUTES)
    delivered = eta + timedelta(minutes=s.rng.randint(12, 35) if late else -s.rng.randint(0, 3))
    o.update(
        eta=fmt(eta),
        status="delivered",
        courier_id=courier["id"],
        accepted_at=fmt(accepted),
        ready_at=fmt(ready),
        picked_up_at=fmt(picked),
        delivered_at=fmt(delivered),
    )
    acc.event(o["id"], "accepted", f"accepted, ready in about {o['prep_minutes']} minutes", accepted)
    acc.event(o["id"], "courier_assigned", f"courier {courier['name']} ({courier['vehicle']})", accepted)
    acc.event(o["id"], "ready", "food is ready for pickup", ready)
    acc.event(o["id"], "picked_up", f"picked up by {courier['name']}", picked)
    acc.event(o["id"], "delivered", f"delivered to {o['address']}", delivered)
    _aftermath(s, acc, o, late, delivered)


def _aftermath(s: Seeder, acc: _Orders, o: dict, late: bool, delivered: datetime) -> None:
    """Some delivered orders got a refund (late ones for lateness), half of them a rating."""
    if s.chance(0.06):
        reason = "late" if late else s.pick(["missing_item", "wrong_item", "quality"])
        share = s.pick([0.2, 0.25, 0.3, 0.5])
        acc.refund(
            o,
            round(o["total"] * share, 2),
            reason,
            s.pick(["original", "credit"]),
            delivered + timedelta(hours=1),
        )
    if s.chance(0.5):
        stars = s.pick([5, 5, 5, 4, 4, 3, 2, 1]) if not late else s.pick([4, 3, 2, 2, 1])
        acc.ratings.append(
            {
                "id": format_id("RAT", len(acc.ratings) + 1),
                "order_id": o["id"],
                "stars": stars,
                "comment": s.pick(list(COMMENTS[stars])) if s.chance(0.7) else "",
                "at": fmt(delivered + timedelta(minutes=s.rng.randint(10, 600))),
            }
        )


def _past_cancel(
    s: Seeder, acc: _Orders, o: dict, placed: datetime, accepted: datetime, courier: dict
) -> None:
    """Cancelled while placed (free), accepted (half the subtotal) or with a courier on it (all)."""
    stage = s.pick(["placed", "placed", "accepted", "accepted", "courier"])
    at = (placed if stage == "placed" else accepted) + timedelta(minutes=s.rng.randint(1, 9))
    fee = {"placed": 0.0, "accepted": round(o["subtotal"] * CANCEL_SHARE, 2), "courier": o["subtotal"]}[stage]
    if stage != "placed":
        o["accepted_at"] = fmt(accepted)
        acc.event(o["id"], "accepted", f"accepted, ready in about {o['prep_minutes']} minutes", accepted)
    if stage == "courier":
        o["courier_id"] = courier["id"]
        acc.event(o["id"], "courier_assigned", f"courier {courier['name']} ({courier['vehicle']})", accepted)
    reason = s.pick(CANCEL_REASONS)
    o.update(status="cancelled", cancel_reason=reason, cancel_fee=min(fee, o["total"]), cancelled_at=fmt(at))
    acc.event(o["id"], "cancelled", f"cancelled ({reason}); fee {o['cancel_fee']:.2f}", at)
    back = round(o["total"] - o["cancel_fee"], 2)
    if back > 0:
        acc.refund(o, back, "cancelled", "original", at)


def _live_orders(
    s: Seeder,
    acc: _Orders,
    customers: list[dict],
    reach: dict,
    items: dict[str, list[dict]],
    couriers_in: dict[str, list[dict]],
    n: int,
) -> None:
    """Orders in flight at the reference moment, an equal share in each stage, from places open
    now; the couriers on them are busy."""
    free = {city: [c for c in cs if c["status"] == "available"] for city, cs in couriers_in.items()}
    made, tries = 0, 0
    while made < n and tries < n * 20:
        tries += 1
        customer = customers[0] if made == 0 else s.pick(customers)
        open_near = [r for r, _ in reach[customer["id"]] if _taking_orders(r, s.now)]
        if not open_near:
            continue
        r = s.pick(open_near)
        opens = datetime.fromisoformat(f"{s.now.date().isoformat()}T{r['hours'][s.now.weekday()][0]}")
        stage = STAGES[made % len(STAGES)] if made else "accepted"
        back = s.rng.randint(25, 55) if stage in ("ready", "picked_up") else s.rng.randint(2, 20)
        placed = max(opens, s.now - timedelta(minutes=back))
        if placed >= s.now - timedelta(minutes=1):
            continue
        o = _new_order(s, acc, customer, r, placed, items[r["id"]], [])
        _advance(s, acc, o, r, stage, free[r["city"]])
        made += 1


def _advance(s: Seeder, acc: _Orders, o: dict, r: dict, stage: str, free: list[dict]) -> None:
    """Move a fresh order along to ``stage`` at times before the reference moment."""
    placed = datetime.fromisoformat(o["placed_at"])
    if stage == "placed":  # still waiting for the kitchen: due a prep time and a ride from now on
        soonest = s.now + timedelta(
            minutes=o["prep_minutes"] + int(o["distance_km"] / 40 * 60) + 1 + HANDOFF_MINUTES
        )
        o["eta"] = max(o["eta"], fmt(soonest))
        return
    span = (s.now - placed).total_seconds() / 60
    accepted = _minute(placed + timedelta(minutes=min(3, span / 4)))
    o.update(status="accepted", accepted_at=fmt(accepted))
    acc.event(o["id"], "accepted", f"accepted, ready in about {o['prep_minutes']} minutes", accepted)
    wants = {"accepted": 0.5, "ready": 0.6, "picked_up": 1.0}[stage]
    courier = free.pop() if free and s.chance(wants) else None
    if courier is not None:
        courier["status"] = "busy"
        courier["lat"], courier["lon"] = _between(courier, r, s.rng.uniform(0.3, 0.9))
        o["courier_id"] = courier["id"]
        acc.event(o["id"], "courier_assigned", f"courier {courier['name']} ({courier['vehicle']})", accepted)
    elif stage == "picked_up":
        stage = "ready"
    if stage in ("ready", "picked_up"):
        ready = _minute(accepted + timedelta(minutes=min(o["prep_minutes"], span / 2)))
        o.update(status="ready", ready_at=fmt(ready))
        acc.event(o["id"], "ready", "food is ready for pickup", ready)
    mode = ROUTE_MODE[courier["vehicle"]] if courier else "driving"
    ride = leg(r["lat"], r["lon"], o["lat"], o["lon"], mode)["duration_min"]
    if stage == "picked_up":
        since_ready = (s.now - datetime.fromisoformat(o["ready_at"])).total_seconds() / 60
        picked = _minute(s.now - timedelta(minutes=min(ride * 0.5, since_ready)))
        o.update(status="picked_up", picked_up_at=fmt(picked))
        acc.event(o["id"], "picked_up", f"picked up by {courier['name']}", picked)
        courier["lat"], courier["lon"] = _between(r, o, s.rng.uniform(0.1, 0.5))
        o["eta"] = fmt(picked + timedelta(minutes=int(ride) + 1 + HANDOFF_MINUTES))
    else:
        ready_by = accepted + timedelta(minutes=o["prep_minutes"])
        o["eta"] = fmt(max(ready_by, s.now) + timedelta(minutes=int(ride) + 1 + HANDOFF_MINUTES))


def _minute(at: datetime) -> datetime:
    """Seeded times are whole minutes, as a kitchen screen shows them."""
    return at.replace(second=0, microsecond=0)


def _between(a: dict, b: dict, share: float) -> tuple[float, float]:
    """A point ``share`` of the way from ``a`` to ``b`` (a courier on the road)."""
    return (
        round(a["lat"] + (b["lat"] - a["lat"]) * share, 6),
        round(a["lon"] + (b["lon"] - a["lon"]) * share, 6),
    )


def _carts(s: Seeder, customers: list[dict], reach: dict, items: dict[str, list[dict]]) -> list[dict]:
    """Carts being filled: most from a place taking orders now, some from one that is closed."""
    n = s.count(small=30, medium=300, large=1500)
    rows: list[dict] = []
    for customer in [customers[0], *s.rng.sample(customers[1:], min(n, len(customers) - 1))]:
        near = [r for r, _ in reach[customer["id"]] if r["status"] != "closed"]
        open_near = [r for r in near if _taking_orders(r, s.now)]
        pool = open_near if open_near and (customer is customers[0] or s.chance(0.7)) else near
        if not pool:
            continue
        r = s.pick(pool)
        added = s.now - timedelta(minutes=s.rng.randint(3, 600))
        seen: set[tuple[str, str]] = set()
        for line in _basket(s, items[r["id"]], r):
            if (line["item_id"], line["options"]) in seen:
                continue
            seen.add((line["item_id"], line["options"]))
            rows.append(
                {
                    "id": format_id("CRT", len(rows) + 1),
                    "customer_id": customer["id"],
                    "restaurant_id": r["id"],
                    **line,
                    "added_at": fmt(added),
                }
            )
    return rows
