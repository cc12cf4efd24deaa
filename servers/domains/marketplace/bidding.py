"""Buying: proxy bids, retracting a bid, Buy It Now, and the buyer's view of their bids."""

from __future__ import annotations

from typing import Literal

from servers.domains.marketplace.model import (
    RETRACT_MIN_HOURS,
    Bid,
    Listing,
    Offer,
    Order,
    RetractReason,
    marketplace,
)
from servers.domains.marketplace.rules import (
    BIDDABLE,
    BUYABLE,
    COUNTING,
    COUNTING_SQL,
    RETRACTABLE,
    _active_me,
    _hours_left,
    _label,
    _leader,
    _listing,
    _live,
    _local,
    _m,
    _next_minimum,
    _not_mine,
    _page,
    _remaining,
    _reprice,
    _reserve_met,
    _sell,
    _time_left,
)
from servers.kit import Db, Money, Offset, PageSize, Quantity, Ref, ToolError


@marketplace.tool(
    writes=[Bid, Listing],
    returns=Bid,
    says=[
        "bid up to {max_amount} on {listing}",
        "place a maximum bid of {max_amount} dollars on {listing}",
        "I'll go as high as {max_amount} for {listing}, put in a bid",
    ],
)
def place_bid(db: Db, listing: Ref[Listing, BIDDABLE], max_amount: Money) -> dict:
    """Place a proxy bid on a live auction: the most you are willing to pay. The marketplace bids
    for you one increment at a time, so the price shown is the lower of the top maximum and the
    runner-up's maximum plus one increment. A maximum below the current leader's is accepted but
    outbid at once; equal maxima go to the earlier bid. The first bid must reach the starting
    price, later ones the current price plus the increment for that price band.

    Args:
        listing: The auction.
        max_amount: Your maximum bid in dollars.
    """
    me = _active_me(db, "bid")
    row = _listing(db, listing)
    lead = _check_bid(db, me, row, max_amount)
    bid = db.insert(
        Bid,
        listing_id=listing,
        bidder_id=me["id"],
        max_amount=max_amount,
        status="active",
        retract_reason=None,
        placed_at=db.stamp(),
    )
    row = _reprice(db, row)
    bid = db.get(Bid, bid["id"])
    winning = bid["status"] == "active"
    reserve = _reserve_met(row)
    note = _bid_note(winning, reserve, lead is not None and max_amount >= lead["max_amount"])
    return {
        "id": bid["id"],
        "listing": listing,
        "title": row["title"],
        "max_amount": max_amount,
        "status": bid["status"],
        "winning": winning,
        "current_price": row["current_price"],
        "bid_count": row["bid_count"],
        "reserve_met": reserve,
        "next_minimum_bid": _next_minimum(row),
        "ends_local": _local(db, row["ends_at"]),
        "message": note,
    }


def _check_bid(db: Db, me: dict, row: dict, max_amount: float) -> dict | None:
    """Refuse a bid the auction cannot take; returns the current leader's bid (None: no bids)."""
    _not_mine(me, row, "bid on")
    if row["format"] != "auction":
        raise ToolError(
            f"listing {_label(row)} is a fixed-price listing, not an auction; buy it with buy_it_now"
            + (" or make an offer" if row["best_offer"] else "")
        )
    _live(db, row, "bid")
    lead = _leader(db, row["id"])
    if lead is not None and lead["bidder_id"] == me["id"]:
        if max_amount <= lead["max_amount"]:
            raise ToolError(
                f"you are already the high bidder on {_label(row)} with a maximum of {_m(lead['max_amount'])}; "
                f"to raise it, bid more than {_m(lead['max_amount'])}"
            )
    else:
        minimum = _next_minimum(row)
        if max_amount < minimum:
            what = (
                "the starting price"
                if row["bid_count"] == 0
                else f"the current price {_m(row['current_price'])} plus the increment"
            )
            raise ToolError(
                f"bid {_m(max_amount)} is too low for {_label(row)}: the minimum bid is {_m(minimum)} ({what})"
            )
    return lead


def _bid_note(winning: bool, reserve_met: bool | None, tied: bool) -> str:
    """What happened to a new bid, in words."""
    if not winning:
        if tied:
            return "your bid was accepted but an earlier bid with the same maximum stays ahead"
        return "your bid was accepted but you were outbid at once: another bidder's maximum is higher"
    if reserve_met is False:
        return "you are the high bidder; the reserve price is not met yet"
    return "you are the high bidder"


@marketplace.tool(
    writes=[Bid, Listing],
    returns=Bid,
    destructive=True,
    says=[
        "retract my bid {bid}, the reason is {reason}",
        "take back bid {bid}, reason: {reason}",
    ],
)
def retract_bid(db: Db, bid: Ref[Bid, RETRACTABLE], reason: RetractReason) -> dict:
    """Retract your latest bid on an auction, which withdraws you from it (all your bids on that
    listing stop counting). Allowed only while more than 12 hours remain, for one of the
    marketplace's reasons: entered_wrong_amount, item_description_changed, cannot_reach_seller.

    Args:
        bid: Your latest bid on the listing.
        reason: Why you retract it.
    """
    me = db.actor()
    b = db.get(Bid, bid)
    if b["bidder_id"] != me["id"]:
        raise ToolError(f"bid {bid} is not yours; you can only retract your own bids")
    row = _listing(db, b["listing_id"])
    if b["status"] not in COUNTING:
        raise ToolError(
            f"bid {bid} on {_label(row)} is {b['status']}; only bids that still count can be retracted"
        )
    latest = db.scalar("SELECT max(id) FROM bids WHERE listing_id = ? AND bidder_id = ?", row["id"], me["id"])
    if latest != bid:
        raise ToolError(
            f"bid {bid} is not your latest bid on {_label(row)}; retract your latest bid {latest}"
        )
    _live(db, row, "retract a bid")
    left = _hours_left(db, row["ends_at"])
    if left <= RETRACT_MIN_HOURS:
        raise ToolError(
            f"cannot retract bid {bid}: {_label(row)} ends in {_time_left(db, row['ends_at'])} "
            f"({_local(db, row['ends_at'])}); bids can only be retracted while more than 12 hours remain"
        )
    mine = db.all(
        f"SELECT id FROM bids WHERE listing_id = ? AND bidder_id = ? AND status IN {COUNTING_SQL}",
        row["id"],
        me["id"],
    )
    for other in mine:
        db.update(Bid, other["id"], status="retracted", retract_reason=reason)
    before = row["current_price"]
    row = _reprice(db, row)
    return {
        "retracted": [r["id"] for r in mine],
        "listing": row["id"],
        "title": row["title"],
        "reason": reason,
        "price_before": before,
        "current_price": row["current_price"],
        "bid_count": row["bid_count"],
    }


@marketplace.tool(
    writes=[Order, Listing, Offer],
    returns=Order,
    says=[
        "buy {listing} now",
        "buy {quantity} of {listing} at the Buy It Now price",
        "I want to purchase {listing} right away",
    ],
)
def buy_it_now(db: Db, listing: Ref[Listing, BUYABLE], quantity: Quantity = 1) -> dict:
    """Buy at the Buy It Now price: a fixed-price listing (up to the quantity still available), or
    an auction that has no bids yet. Creates an order awaiting payment (pay it with pay_order).

    Args:
        listing: The listing.
        quantity: How many (fixed-price listings with several items; auctions sell one).
    """
    me = _active_me(db, "buy")
    row = _listing(db, listing)
    _not_mine(me, row, "buy")
    _live(db, row, "buy it")
    if row["buy_now_price"] is None:
        raise ToolError(
            f"listing {_label(row)} has no Buy It Now price; it sells by auction only, place a bid"
        )
    if row["format"] == "auction" and row["bid_count"] > 0:
        raise ToolError(
            f"Buy It Now is no longer available on {_label(row)}: the auction has {row['bid_count']} bid(s) "
            f"and stands at {_m(row['current_price'])}; place a bid instead"
        )
    left = _remaining(row)
    if quantity > left:
        raise ToolError(f"only {left} of {_label(row)} available; cannot buy {quantity}")
    order = _sell(db, row, me, "buy_it_now", row["buy_now_price"], quantity)
    return {**order, "next_step": "pay the order with pay_order"}


BidState = Literal["winning", "outbid", "won", "lost", "retracted", "cancelled"]
_STATUS = {"winning": "active"}


@marketplace.tool(
    returns=Bid,
    says=["show my {status} bids", "which auctions am I bidding on?", "list my bids with status {status}"],
)
def list_my_bids(db: Db, status: BidState | None = None, limit: PageSize = 20, offset: Offset = 0) -> dict:
    """Your bids, latest per auction first: your maximum, the current price, whether you are
    winning, and when the auction ends (UTC).

    Args:
        status: winning, outbid, won, lost, retracted or cancelled.
    """
    me = db.actor()
    where, params = (
        [
            "b.bidder_id = ?",
            "b.id = (SELECT max(x.id) FROM bids x WHERE x.listing_id = b.listing_id AND x.bidder_id = b.bidder_id)",
        ],
        [me["id"]],
    )
    if status is not None:
        where.append("b.status = ?")
        params.append(_STATUS.get(status, status))
    columns = (
        "b.id, b.listing_id, l.title, b.max_amount, "
        "CASE b.status WHEN 'active' THEN 'winning' ELSE b.status END AS status, l.current_price, "
        "l.bid_count, l.ends_at, l.status AS listing_status, b.placed_at"
    )
    body = f"FROM bids b JOIN listings l ON l.id = b.listing_id WHERE {' AND '.join(where)}"
    order = "l.ends_at DESC, b.id DESC"
    return _page(db, columns, body, params, order, limit=limit, offset=offset, key="bids")
