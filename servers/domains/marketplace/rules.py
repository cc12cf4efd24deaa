"""Rules several tools share (who is acting, live listings, proxy bidding, money and time) and the
SQL conditions the sampler uses to pick good inputs, which the tools enforce in turn."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Annotated
from zoneinfo import ZoneInfo

from pydantic import AfterValidator, Field

from servers.domains.marketplace.model import (
    BUY_NOW_MARKUP,
    Bid,
    Category,
    Listing,
    Offer,
    Order,
    increment,
    proxy_price,
    rank_bids,
)
from servers.kit import Db, Ref, ToolError, whole_cents

NOW_SQL = "(SELECT value FROM _meta WHERE key = 'now')"
ME_SQL = "(SELECT user_id FROM sessions)"
LIVE_SQL = f"status = 'active' AND ends_at > {NOW_SQL}"
# LIVE_SQL as the sampler conditions below say it. likely() changes no result: it tells SQLite's
# planner, which has no statistics, that most listings are live, so checking a few given ids (or
# the listings of one category) looks them up by key instead of walking every live listing.
LIVE_PICK = f"likely(status = 'active') AND ends_at > {NOW_SQL}"
COUNTING = ("active", "outbid")  # bids that still take part in the auction
COUNTING_SQL = "('active', 'outbid')"
OPEN_OFFER_SQL = "('pending', 'countered')"

# -- sampler conditions (the tools check the same things and explain a failure) ----------------
BIDDABLE = f"{LIVE_PICK} AND format = 'auction' AND seller_id != {ME_SQL}"
BUYABLE = (
    f"{LIVE_PICK} AND seller_id != {ME_SQL} AND buy_now_price IS NOT NULL AND quantity > quantity_sold "
    "AND (format = 'fixed_price' OR bid_count = 0)"
)
OFFERABLE = (
    f"{LIVE_PICK} AND format = 'fixed_price' AND best_offer = 1 AND seller_id != {ME_SQL} "
    "AND quantity > quantity_sold AND id NOT IN (SELECT listing_id FROM offers WHERE buyer_id = "
    f"{ME_SQL} AND status IN {OPEN_OFFER_SQL})"
)
WATCHABLE = f"{LIVE_PICK} AND seller_id != {ME_SQL}"
MY_LIVE = f"seller_id = {ME_SQL} AND {LIVE_PICK}"
MY_REVISABLE = f"{MY_LIVE} AND (format = 'fixed_price' OR bid_count = 0)"
MY_WITH_OFFERS = f"{MY_LIVE} AND EXISTS (SELECT 1 FROM offers o WHERE o.listing_id = listings.id)"
RELISTABLE = (
    f"seller_id = {ME_SQL} AND status IN ('ended', 'cancelled') AND quantity > quantity_sold "
    "AND id NOT IN (SELECT relisted_from FROM listings WHERE relisted_from IS NOT NULL)"
)
RETRACTABLE = (
    f"bidder_id = {ME_SQL} AND status IN {COUNTING_SQL} AND EXISTS (SELECT 1 FROM listings l WHERE "
    f"l.id = bids.listing_id AND l.status = 'active' AND l.ends_at > "
    f"strftime('%Y-%m-%dT%H:%M:%S', {NOW_SQL}, '+12 hours')) "
    "AND id = (SELECT max(b.id) FROM bids b WHERE b.listing_id = bids.listing_id AND b.bidder_id = bids.bidder_id)"
)
OFFER_TO_ANSWER = (
    f"status = 'pending' AND expires_at > {NOW_SQL} AND listing_id IN (SELECT id FROM listings "
    f"WHERE {MY_LIVE})"
)
MY_OPEN_OFFER = f"buyer_id = {ME_SQL} AND status IN {OPEN_OFFER_SQL} AND expires_at > {NOW_SQL}"
PAYABLE = f"buyer_id = {ME_SQL} AND status = 'awaiting_payment'"
SHIPPABLE = f"seller_id = {ME_SQL} AND status = 'paid'"
RATEABLE = (
    f"(buyer_id = {ME_SQL} OR seller_id = {ME_SQL}) AND status IN ('paid', 'shipped', 'delivered') "
    f"AND created_at >= strftime('%Y-%m-%dT%H:%M:%S', {NOW_SQL}, '-60 days') AND id NOT IN "
    f"(SELECT order_id FROM feedback WHERE from_id = {ME_SQL})"
)
MY_ORDER = f"buyer_id = {ME_SQL} OR seller_id = {ME_SQL}"

LeafCategory = Ref[Category, "parent_id IS NOT NULL"]
ShippingCost = Annotated[
    float,
    Field(ge=0, le=1000, description="Flat shipping charge in dollars per order, 0 for free shipping."),
    AfterValidator(whole_cents),
]
Title = Annotated[
    str,
    Field(
        min_length=3,
        max_length=80,
        description="The listing title buyers search for (3-80 characters).",
        examples=[
            "Canon AE-1 Program 35mm film camera with 50mm lens",
            "Vintage Pyrex mixing bowl set, 4 pieces",
            "Nintendo Switch OLED, white, boxed",
            "Trek FX 2 hybrid bike, medium frame",
            "LEGO Millennium Falcon 75257, complete",
        ],
    ),
]


# -- money, time, who is acting ------------------------------------------------------------------


def _m(x: float | None) -> str:
    return "none" if x is None else f"{x:,.2f}"


def _iso(moment: datetime) -> str:
    return moment.isoformat(timespec="seconds")


def _active_me(db: Db, doing: str) -> dict:
    """The signed-in user, refused if the account may not trade."""
    me = db.actor()
    if me["status"] != "active":
        raise ToolError(
            f"your account {me['username']} is {me['status']}: it can browse but cannot {doing}; "
            "contact marketplace support"
        )
    return me


def _tz(db: Db) -> ZoneInfo:
    return ZoneInfo(db.scalar("SELECT timezone FROM users WHERE id = (SELECT user_id FROM sessions)"))


def _local(db: Db, utc: str | None, tz: ZoneInfo | None = None) -> str | None:
    """A stored UTC time as the signed-in user's wall clock, e.g. ``Tue 2026-06-02 14:30 PDT``
    (``tz``: the user's zone, when a caller converts many times)."""
    if utc is None:
        return None
    at = datetime.fromisoformat(utc).replace(tzinfo=ZoneInfo("UTC")).astimezone(tz or _tz(db))
    return at.strftime("%a %Y-%m-%d %H:%M %Z")


def _to_utc(db: Db, moment: str) -> str:
    """A ``Moment`` parameter (the user's local time unless it carries an offset) in UTC."""
    at = datetime.fromisoformat(moment.replace("Z", "+00:00"))
    if at.tzinfo is None:
        at = at.replace(tzinfo=_tz(db))
    return _iso(at.astimezone(ZoneInfo("UTC")).replace(tzinfo=None))


def _time_left(db: Db, utc: str) -> str:
    seconds = int((datetime.fromisoformat(utc) - db.now).total_seconds())
    if seconds <= 0:
        return "ended"
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    if days:
        return f"{days}d {hours}h"
    return f"{hours}h {minutes}m" if hours else f"{minutes}m"


def _hours_to_go(db: Db, listing: dict) -> float:
    """Hours until a live listing ends (0 once it has ended), for list views."""
    if listing["status"] != "active":
        return 0.0
    return max(0.0, round(_hours_left(db, listing["ends_at"]), 1))


def _hours_left(db: Db, utc: str) -> float:
    return (datetime.fromisoformat(utc) - db.now).total_seconds() / 3600


def _later(db: Db, hours: float) -> str:
    return _iso(db.now + timedelta(hours=hours))


# -- listings ------------------------------------------------------------------------------------


def _label(listing: dict) -> str:
    return f'{listing["id"]} ("{listing["title"]}")'


def _listing(db: Db, listing_id: str) -> dict:
    return db.get(Listing, listing_id)


def _live(db: Db, listing: dict, doing: str) -> None:
    """Refuse unless the listing is active and has not reached its end time."""
    if listing["status"] != "active":
        raise ToolError(f"cannot {doing}: listing {_label(listing)} is {listing['status']}")
    if listing["ends_at"] <= db.stamp():
        raise ToolError(f"cannot {doing}: listing {_label(listing)} ended at {listing['ends_at']} UTC")


def _mine(db: Db, listing: dict, doing: str) -> dict:
    me = db.actor()
    if listing["seller_id"] != me["id"]:
        raise ToolError(f"cannot {doing}: listing {_label(listing)} belongs to another seller")
    return me


def _not_mine(me: dict, listing: dict, doing: str) -> None:
    if listing["seller_id"] == me["id"]:
        raise ToolError(f"you cannot {doing} your own listing {_label(listing)}")


def _remaining(listing: dict) -> int:
    return listing["quantity"] - listing["quantity_sold"]


def _next_minimum(listing: dict) -> float | None:
    """The lowest maximum a new bidder may enter (auctions only)."""
    if listing["format"] != "auction":
        return None
    if listing["bid_count"] == 0:
        return listing["start_price"]
    return round(listing["current_price"] + increment(listing["current_price"]), 2)


def _reserve_met(listing: dict) -> bool | None:
    if listing["reserve_price"] is None:
        return None
    return listing["bid_count"] > 0 and listing["current_price"] >= listing["reserve_price"]


def _check_buy_now(start: float | None, buy_now: float | None) -> None:
    if buy_now is not None and start is not None and buy_now < round(start * BUY_NOW_MARKUP, 2):
        raise ToolError(
            f"a Buy It Now price on an auction must be at least 30% above the starting price: starting "
            f"price {_m(start)} needs Buy It Now {_m(round(start * BUY_NOW_MARKUP, 2))} or more, got {_m(buy_now)}"
        )


def _public(db: Db, listing: dict, me_id: str) -> dict:
    """What a user sees of a listing: secrets only for its seller, plus the derived facts."""
    out = dict(listing)
    own = listing["seller_id"] == me_id
    if not own:
        out.pop("reserve_price")
        out.pop("auto_decline_below")
    live = listing["status"] == "active" and listing["ends_at"] > db.stamp()
    out["ends_local"] = _local(db, listing["ends_at"])
    out["time_left"] = _time_left(db, listing["ends_at"]) if live else "ended"
    out["quantity_available"] = _remaining(listing)
    if listing["format"] == "auction":
        out["has_reserve"] = listing["reserve_price"] is not None
        out["reserve_met"] = _reserve_met(listing)
        out["next_minimum_bid"] = _next_minimum(listing) if live else None
        out["buy_now_available"] = live and listing["buy_now_price"] is not None and listing["bid_count"] == 0
        out["offers_allowed"] = False
    else:
        out["buy_now_available"] = live and _remaining(listing) > 0
        out["offers_allowed"] = live and bool(listing["best_offer"])
    return out


# -- proxy bidding -------------------------------------------------------------------------------


def _reprice(db: Db, listing: dict) -> dict:
    """Recompute an auction from its counting bids: the leader, the price and the bid statuses."""
    bids = db.all(
        f"SELECT * FROM bids WHERE listing_id = ? AND status IN {COUNTING_SQL} ORDER BY placed_at, id",
        listing["id"],
    )
    ranking = rank_bids(bids)
    leader = ranking[0]["id"] if ranking else None
    price = proxy_price(ranking, listing["start_price"], listing["reserve_price"])
    for b in bids:
        want = "active" if b["id"] == leader else "outbid"
        if b["status"] != want:
            db.update(Bid, b["id"], status=want)
    if (price, len(bids)) != (listing["current_price"], listing["bid_count"]):
        listing = db.update(Listing, listing["id"], current_price=price, bid_count=len(bids))
    return listing


def _leader(db: Db, listing_id: str) -> dict | None:
    return db.one("SELECT * FROM bids WHERE listing_id = ? AND status = 'active'", listing_id)


# -- selling -----------------------------------------------------------------------------------


def _sell(db: Db, listing: dict, buyer: dict, source: str, unit_price: float, quantity: int) -> dict:
    """Record a sale: the order (awaiting payment), the quantity sold and, once sold out, the end."""
    order = db.insert(
        Order,
        listing_id=listing["id"],
        buyer_id=buyer["id"],
        seller_id=listing["seller_id"],
        title=listing["title"],
        source=source,
        unit_price=round(unit_price, 2),
        quantity=quantity,
        shipping_cost=listing["shipping_cost"],
        total=round(unit_price * quantity + listing["shipping_cost"], 2),
        status="awaiting_payment",
        ship_to=buyer["ship_to"],
        carrier=None,
        tracking=None,
        created_at=db.stamp(),
        paid_at=None,
        shipped_at=None,
    )
    sold = listing["quantity_sold"] + quantity
    changes: dict = {"quantity_sold": sold}
    if sold >= listing["quantity"]:
        changes.update(status="sold", ended_at=db.stamp(), end_reason="sold")
    db.update(Listing, listing["id"], **changes)
    if sold >= listing["quantity"]:
        _close_offers(db, listing["id"])
    return order


def _close_offers(db: Db, listing_id: str) -> int:
    """Decline the open offers of a listing that can no longer sell."""
    return db.execute(
        f"UPDATE offers SET status = 'declined', responded_at = ? WHERE listing_id = ? AND status IN {OPEN_OFFER_SQL}",
        db.stamp(),
        listing_id,
    )


def _offer(db: Db, offer_id: str) -> tuple[dict, dict]:
    offer = db.get(Offer, offer_id)
    return offer, _listing(db, offer["listing_id"])


def _offer_open(db: Db, offer: dict, doing: str) -> None:
    if offer["expires_at"] <= db.stamp():
        raise ToolError(
            f"cannot {doing}: offer {offer['id']} expired at {offer['expires_at']} UTC "
            f"({_local(db, offer['expires_at'])}); offers last 48 hours"
        )


def _page(
    db: Db, columns: str, body: str, params: list, order: str, *, limit: int, offset: int, key: str
) -> dict:
    """``db.page`` for wide rows: the same result, but a needed total is counted over ``body`` alone
    (``FROM ... WHERE ...``), so the count reads an index instead of every listed column."""
    sql = f"SELECT {columns} {body} ORDER BY {order}"
    return db.page(sql, *params, limit=limit, offset=offset, key=key, count=f"SELECT count(*) {body}")
