"""Selling: list an item, revise it, end it early, relist it, and the seller's view of listings."""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated, Literal

from pydantic import Field

from servers.domains.marketplace.model import (
    Bid,
    Category,
    Condition,
    Duration,
    EndReason,
    Format,
    Listing,
    Offer,
    Order,
    User,
    marketplace,
)
from servers.domains.marketplace.rules import (
    COUNTING_SQL,
    MY_LIVE,
    MY_REVISABLE,
    RELISTABLE,
    LeafCategory,
    ShippingCost,
    Title,
    _active_me,
    _check_buy_now,
    _close_offers,
    _iso,
    _label,
    _leader,
    _listing,
    _live,
    _m,
    _mine,
    _public,
    _reserve_met,
    _sell,
)
from servers.kit import Db, LongText, Money, Quantity, Ref, ToolError

Description = Annotated[
    LongText,
    Field(
        examples=[
            "Works perfectly, light scratches on the back. Ships within one business day.",
            "Brand new in the sealed box.",
            "Sold as is for parts; it powers on but the screen is cracked.",
        ]
    ),
]


def _prices(
    fmt: str, start: float | None, buy_now: float | None, reserve: float | None, quantity: int
) -> None:
    """The price fields a format takes, and how they must relate."""
    if fmt == "auction":
        if start is None:
            raise ToolError("an auction needs a start_price (the opening bid)")
        if quantity != 1:
            raise ToolError(f"an auction sells exactly one item; got quantity {quantity} (use fixed_price)")
        if reserve is not None and reserve <= start:
            raise ToolError(f"the reserve price {_m(reserve)} must be above the starting price {_m(start)}")
        _check_buy_now(start, buy_now)
        return
    if buy_now is None:
        raise ToolError("a fixed-price listing needs a buy_now_price")
    if start is not None or reserve is not None:
        raise ToolError(
            "start_price and reserve_price are for auctions; a fixed-price listing has only buy_now_price"
        )


def _insert_listing(db: Db, me: dict, days: int, **values: object) -> dict:
    """A new live listing of the signed-in seller, starting now and ending ``days`` later."""
    return db.insert(
        Listing,
        **values,
        seller_id=me["id"],
        quantity_sold=0,
        bid_count=0,
        status="active",
        starts_at=db.stamp(),
        ends_at=_iso(db.now + timedelta(days=days)),
        ended_at=None,
        end_reason=None,
        location_city=me["city"],
    )


def _check_new(
    db: Db,
    category: str,
    format: str,
    start_price: float | None,
    buy_now_price: float | None,
    reserve_price: float | None,
    quantity: int,
    best_offer: bool,
    auto_decline_below: float | None,
) -> None:
    """Refuse a new listing whose category, format and price fields do not fit together."""
    cat = db.get(Category, category)
    if cat["parent_id"] is None:
        subs = [
            r["name"] for r in db.all("SELECT name FROM categories WHERE parent_id = ? ORDER BY id", category)
        ]
        raise ToolError(
            f"{cat['name']} is a top-level category; list the item in one of its subcategories: {', '.join(subs)}"
        )
    _prices(format, start_price, buy_now_price, reserve_price, quantity)
    if best_offer and format == "auction":
        raise ToolError("best offers are only for fixed-price listings; an auction takes bids")
    if auto_decline_below is not None:
        if not best_offer:
            raise ToolError("auto_decline_below needs best_offer=true")
        if auto_decline_below >= buy_now_price:
            raise ToolError(
                f"auto_decline_below {_m(auto_decline_below)} must be below the Buy It Now price {_m(buy_now_price)}"
            )


@marketplace.tool(
    writes=[Listing, User],
    returns=Listing,
    says=[
        "list my {title} in {category}, format {format}, condition {condition}, starting at {start_price}",
        "sell {title} for {buy_now_price} in {category}, condition {condition}",
        "put up an auction for {title} in {category} for {duration_days} days at {start_price} with a reserve of {reserve_price}",
    ],
)
def create_listing(
    db: Db,
    title: Title,
    category: LeafCategory,
    format: Format,
    condition: Condition,
    start_price: Money | None = None,
    buy_now_price: Money | None = None,
    reserve_price: Money | None = None,
    quantity: Quantity = 1,
    duration_days: Duration = 7,
    best_offer: bool = False,
    auto_decline_below: Money | None = None,
    shipping_cost: ShippingCost = 0.0,
    description: Description | None = None,
) -> dict:
    """List an item for sale, starting now. An auction takes a start_price, optionally a hidden
    reserve_price above it and a Buy It Now price at least 30% above the start; it sells one item.
    A fixed-price listing takes a buy_now_price and a quantity, and may accept best offers, with an
    optional floor under which offers are declined automatically. Auctions cannot take offers.

    Args:
        title: The title buyers search for.
        category: A subcategory (not a top-level category).
        format: auction or fixed_price.
        condition: new, used, refurbished or for_parts.
        start_price: Auctions: the opening bid.
        buy_now_price: Fixed price, or an auction's optional Buy It Now price.
        reserve_price: Auctions: the hidden lowest price you will sell for.
        quantity: Fixed-price listings: how many items.
        duration_days: 1, 3, 5, 7 or 10 days.
        best_offer: Fixed-price listings: accept offers from buyers.
        auto_decline_below: With best_offer: decline offers under this amount automatically.
        shipping_cost: Flat shipping charge per order (0 = free shipping).
        description: The item description.
    """
    me = _active_me(db, "sell")
    _check_new(
        db,
        category,
        format,
        start_price,
        buy_now_price,
        reserve_price,
        quantity,
        best_offer,
        auto_decline_below,
    )
    start = start_price if format == "auction" else None
    row = _insert_listing(
        db,
        me,
        duration_days,
        category_id=category,
        title=title.strip(),
        description=description or title.strip(),
        condition=condition,
        format=format,
        start_price=start,
        current_price=start if start is not None else buy_now_price,
        reserve_price=reserve_price,
        buy_now_price=buy_now_price,
        quantity=quantity,
        best_offer=best_offer,
        auto_decline_below=auto_decline_below,
        shipping_cost=shipping_cost,
        relisted_from=None,
    )
    if not me["is_seller"]:
        db.update(User, me["id"], is_seller=True)
    return _public(db, row, me["id"])


@marketplace.tool(
    writes=[Listing],
    returns=Listing,
    says=[
        "change the title of {listing} to {title}",
        "lower the Buy It Now price of {listing} to {buy_now_price}",
        "set shipping on {listing} to {shipping_cost}",
    ],
)
def revise_listing(
    db: Db,
    listing: Ref[Listing, MY_REVISABLE],
    title: Title | None = None,
    description: Description | None = None,
    buy_now_price: Money | None = None,
    shipping_cost: ShippingCost | None = None,
) -> dict:
    """Edit one of your live listings. Title, description and shipping can always change; once an
    auction has bids its prices cannot. An auction's Buy It Now price stays 30% above its start,
    and a fixed price stays above your automatic-decline floor.

    Args:
        listing: Your live listing.
        title: New title.
        description: New description.
        buy_now_price: New Buy It Now (or fixed) price.
        shipping_cost: New flat shipping charge.
    """
    row = _listing(db, listing)
    _mine(db, row, "revise it")
    _live(db, row, "revise it")
    changes = {
        k: v
        for k, v in (
            ("title", title),
            ("description", description),
            ("buy_now_price", buy_now_price),
            ("shipping_cost", shipping_cost),
        )
        if v is not None and v != row[k]
    }
    if not changes:
        raise ToolError(
            f"nothing to change on {_label(row)}: give a title, description, buy_now_price or shipping_cost that differs"
        )
    if "buy_now_price" in changes:
        if row["format"] == "auction":
            if row["bid_count"] > 0:
                raise ToolError(
                    f"cannot change the price of {_label(row)}: the auction has {row['bid_count']} bid(s); "
                    "only title, description and shipping can change now"
                )
            _check_buy_now(row["start_price"], buy_now_price)
        else:
            floor = row["auto_decline_below"]
            if floor is not None and buy_now_price <= floor:
                raise ToolError(
                    f"the new price {_m(buy_now_price)} is not above your automatic-decline floor {_m(floor)}"
                )
            changes["current_price"] = buy_now_price
    me = db.actor()
    return {**_public(db, db.update(Listing, listing, **changes), me["id"]), "changed": sorted(changes)}


@marketplace.tool(
    writes=[Listing, Bid, Order, Offer],
    returns=Listing,
    destructive=True,
    says=[
        "end my listing {listing} early, the reason is {reason}",
        "end {listing} now with outcome {outcome}, reason: {reason}",
    ],
)
def end_listing(
    db: Db,
    listing: Ref[Listing, MY_LIVE],
    reason: EndReason,
    outcome: Literal["sell_to_high_bidder", "cancel"] | None = None,
) -> dict:
    """End one of your live listings early. An auction with bids needs an outcome:
    sell_to_high_bidder (an order for the high bidder at the current price; only when the reserve
    is met) or cancel (every bid is cancelled). Without bids the listing simply ends; open offers
    are declined.

    Args:
        listing: Your live listing.
        reason: item_lost_or_broken, no_longer_available, error_in_listing or sold_elsewhere.
        outcome: With bids: sell_to_high_bidder or cancel.
    """
    row = _listing(db, listing)
    _mine(db, row, "end it")
    _live(db, row, "end it")
    bids = row["format"] == "auction" and row["bid_count"] > 0
    if not bids:
        if outcome == "sell_to_high_bidder":
            raise ToolError(
                f"{_label(row)} has no bids, so there is no high bidder to sell to; end it without outcome"
            )
        _close_offers(db, listing)
        done = db.update(Listing, listing, status="ended", ended_at=db.stamp(), end_reason=reason)
        return {**_public(db, done, row["seller_id"]), "result": "ended without a sale"}
    if outcome is None:
        raise ToolError(
            f"{_label(row)} has {row['bid_count']} bid(s) at {_m(row['current_price'])}: say outcome "
            "sell_to_high_bidder or cancel"
        )
    if outcome == "cancel":
        n = db.execute(
            f"UPDATE bids SET status = 'cancelled' WHERE listing_id = ? AND status IN {COUNTING_SQL}", listing
        )
        done = db.update(Listing, listing, status="cancelled", ended_at=db.stamp(), end_reason=reason)
        return {**_public(db, done, row["seller_id"]), "result": f"cancelled; {n} bid(s) cancelled"}
    if _reserve_met(row) is False:
        raise ToolError(
            f"cannot sell {_label(row)} to the high bidder: the high bid {_m(row['current_price'])} is below your "
            f"reserve price {_m(row['reserve_price'])}; cancel instead or let the auction run"
        )
    lead = _leader(db, listing)
    db.update(Bid, lead["id"], status="won")
    db.execute(f"UPDATE bids SET status = 'lost' WHERE listing_id = ? AND status IN {COUNTING_SQL}", listing)
    buyer = db.get(User, lead["bidder_id"])
    order = _sell(db, row, buyer, "auction", row["current_price"], 1)
    done = db.update(Listing, listing, end_reason=reason)
    return {
        **_public(db, done, row["seller_id"]),
        "result": f"sold to {buyer['username']}",
        "order": order["id"],
    }


def _relist_terms(
    db: Db, row: dict, start_price: float | None, buy_now_price: float | None
) -> tuple[float | None, float | None]:
    """The prices a relisted copy of ``row`` gets, after the checks that it may be relisted."""
    if row["status"] not in ("ended", "cancelled"):
        raise ToolError(f"only ended or cancelled listings can be relisted; {_label(row)} is {row['status']}")
    if row["quantity_sold"] >= row["quantity"]:
        raise ToolError(f"{_label(row)} sold out; there is nothing left to relist")
    again = db.scalar("SELECT id FROM listings WHERE relisted_from = ?", row["id"])
    if again is not None:
        raise ToolError(f"{_label(row)} was already relisted as {again}")
    if start_price is not None and row["format"] != "auction":
        raise ToolError(
            f"{_label(row)} is a fixed-price listing; start_price is for auctions (use buy_now_price)"
        )
    start = start_price or row["start_price"]
    buy_now = buy_now_price or row["buy_now_price"]
    reserve = row["reserve_price"]
    if row["format"] == "auction":
        if reserve is not None and reserve <= start:
            raise ToolError(f"the start price {_m(start)} must stay below your reserve price {_m(reserve)}")
        _check_buy_now(start, buy_now)
    elif row["auto_decline_below"] is not None and buy_now <= row["auto_decline_below"]:
        raise ToolError(
            f"the price {_m(buy_now)} is not above your automatic-decline floor {_m(row['auto_decline_below'])}"
        )
    return start, buy_now


@marketplace.tool(
    writes=[Listing],
    returns=Listing,
    says=["relist {listing}", "relist {listing} for {duration_days} days starting at {start_price}"],
)
def relist_item(
    db: Db,
    listing: Ref[Listing, RELISTABLE],
    start_price: Money | None = None,
    buy_now_price: Money | None = None,
    duration_days: Duration = 7,
) -> dict:
    """Create a new live listing from one of yours that ended or was cancelled without selling
    out, with the same item, format and settings (the unsold quantity). Each listing is relisted
    once. start_price is for auctions; buy_now_price may change for either format.

    Args:
        listing: Your ended, unsold listing.
        start_price: New opening bid (auctions).
        buy_now_price: New Buy It Now or fixed price.
        duration_days: 1, 3, 5, 7 or 10 days.
    """
    me = _active_me(db, "sell")
    row = _listing(db, listing)
    _mine(db, row, "relist it")
    start, buy_now = _relist_terms(db, row, start_price, buy_now_price)
    reserve = row["reserve_price"]
    fields = {
        k: row[k]
        for k in (
            "category_id",
            "title",
            "description",
            "condition",
            "format",
            "best_offer",
            "auto_decline_below",
            "shipping_cost",
        )
    }
    new = _insert_listing(
        db,
        me,
        duration_days,
        **fields,
        start_price=start,
        current_price=start if start else buy_now,
        reserve_price=reserve,
        buy_now_price=buy_now,
        quantity=row["quantity"] - row["quantity_sold"],
        relisted_from=listing,
    )
    return {**_public(db, new, me["id"]), "relisted_from": listing}
