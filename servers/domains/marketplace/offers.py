"""Best offers: a buyer offers, the seller accepts, declines or counters once, the buyer answers."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from servers.domains.marketplace.model import (
    MAX_OFFERS,
    OFFER_HOURS,
    Listing,
    Offer,
    Order,
    marketplace,
)
from servers.domains.marketplace.rules import (
    MY_OPEN_OFFER,
    MY_WITH_OFFERS,
    OFFER_TO_ANSWER,
    OFFERABLE,
    _active_me,
    _label,
    _later,
    _listing,
    _live,
    _local,
    _m,
    _mine,
    _not_mine,
    _offer,
    _offer_open,
    _page,
    _remaining,
    _sell,
)
from servers.kit import Db, Money, Offset, PageSize, Quantity, Ref, ToolError

OfferNote = Annotated[
    str,
    Field(
        min_length=1,
        max_length=500,
        examples=[
            "Would you take this? I can pay today.",
            "Is this the lowest you can go?",
            "I can pick it up this week.",
            "Meet me in the middle?",
        ],
    ),
]
OfferState = Literal["pending", "accepted", "declined", "countered", "expired", "withdrawn"]


def _check_offer(db: Db, me: dict, row: dict, amount: float, quantity: int) -> int:
    """Refuse an offer the listing cannot take; returns how many offers the buyer made on it before."""
    _not_mine(me, row, "make an offer on")
    if row["format"] != "fixed_price":
        raise ToolError(
            f"listing {_label(row)} is an auction; auctions take bids, not offers (use place_bid)"
        )
    _live(db, row, "make an offer")
    if not row["best_offer"]:
        raise ToolError(
            f"the seller of {_label(row)} does not accept offers; it sells at {_m(row['buy_now_price'])} (buy_it_now)"
        )
    if amount >= row["buy_now_price"]:
        raise ToolError(
            f"an offer must be below the Buy It Now price {_m(row['buy_now_price'])} of {_label(row)}, got "
            f"{_m(amount)}; buy it now instead"
        )
    if quantity > _remaining(row):
        raise ToolError(f"only {_remaining(row)} of {_label(row)} available; cannot offer for {quantity}")
    mine = db.all(
        "SELECT id, status FROM offers WHERE listing_id = ? AND buyer_id = ? ORDER BY id", row["id"], me["id"]
    )
    open_ = [o for o in mine if o["status"] in ("pending", "countered")]
    if open_:
        raise ToolError(
            f"you already have offer {open_[0]['id']} ({open_[0]['status']}) on {_label(row)}; "
            "answer or withdraw it before making another"
        )
    if len(mine) >= MAX_OFFERS:
        raise ToolError(
            f"you have made {len(mine)} offers on {_label(row)}, the most allowed is {MAX_OFFERS}"
        )
    return len(mine)


@marketplace.tool(
    writes=[Offer],
    returns=Offer,
    says=[
        "offer {amount} for {listing}",
        "make the seller of {listing} an offer of {amount} for {quantity}",
        "send an offer of {amount} on {listing} saying {message}",
    ],
)
def make_offer(
    db: Db,
    listing: Ref[Listing, OFFERABLE],
    amount: Money,
    quantity: Quantity = 1,
    message: OfferNote | None = None,
) -> dict:
    """Make a best offer on a fixed-price listing that accepts offers: a price per item below the
    Buy It Now price. At most 3 offers per listing and one open at a time; the seller has 48
    hours to answer. An offer under the seller's hidden floor is declined automatically.

    Args:
        listing: The fixed-price listing.
        amount: Your price per item in dollars.
        quantity: How many items.
        message: A note to the seller.
    """
    me = _active_me(db, "make offers")
    row = _listing(db, listing)
    made = _check_offer(db, me, row, amount, quantity)
    floor = row["auto_decline_below"]
    declined = floor is not None and amount < floor
    offer = db.insert(
        Offer,
        listing_id=listing,
        buyer_id=me["id"],
        amount=amount,
        quantity=quantity,
        message=message,
        status="declined" if declined else "pending",
        counter_amount=None,
        counter_message=None,
        expires_at=_later(db, OFFER_HOURS),
        created_at=db.stamp(),
        responded_at=db.stamp() if declined else None,
    )
    note = (
        "the seller's settings declined this offer automatically; you may offer more"
        if declined
        else f"sent; the seller has until {_local(db, offer['expires_at'])} to answer"
    )
    return {**offer, "title": row["title"], "offers_left": MAX_OFFERS - made - 1, "message_to_you": note}


@marketplace.tool(
    returns=Offer,
    says=["show me the offers on {listing}", "what offers came in for {listing}?"],
)
def list_offers(db: Db, listing: Ref[Listing, MY_WITH_OFFERS], status: OfferState | None = None) -> dict:
    """Offers buyers made on one of your listings, newest first, each with a label saying what
    and from whom ("35.00 from dwhitfield").

    Args:
        listing: Your listing.
        status: Only offers in this state.
    """
    row = _listing(db, listing)
    _mine(db, row, "see its offers")
    where, params = ["o.listing_id = ?"], [listing]
    if status is not None:
        where.append("o.status = ?")
        params.append(status)
    offers = db.all(
        "SELECT o.id, printf('%.2f from %s', o.amount, u.username) AS label, u.username AS buyer, o.amount, "
        "o.quantity, o.message, o.status, o.counter_amount, o.expires_at, o.created_at FROM offers o "
        f"JOIN users u ON u.id = o.buyer_id WHERE {' AND '.join(where)} ORDER BY o.created_at DESC, o.id DESC",
        *params,
    )
    return {
        "listing": listing,
        "title": row["title"],
        "buy_now_price": row["buy_now_price"],
        "offers": offers,
    }


@marketplace.tool(
    returns=Offer,
    says=["show my {status} offers", "what happened to the offers I made?"],
)
def list_my_offers(
    db: Db, status: OfferState | None = None, limit: PageSize = 20, offset: Offset = 0
) -> dict:
    """Offers you made as a buyer, newest first, with the seller's counter-offer if any.

    Args:
        status: Only offers in this state.
    """
    me = db.actor()
    where, params = ["o.buyer_id = ?"], [me["id"]]
    if status is not None:
        where.append("o.status = ?")
        params.append(status)
    columns = (
        "o.id, o.listing_id, l.title, o.amount, o.quantity, o.status, o.counter_amount, "
        "o.counter_message, l.buy_now_price, o.expires_at, o.created_at"
    )
    body = f"FROM offers o JOIN listings l ON l.id = o.listing_id WHERE {' AND '.join(where)}"
    order = "o.created_at DESC, o.id DESC"
    return _page(db, columns, body, params, order, limit=limit, offset=offset, key="offers")


@marketplace.tool(
    writes=[Offer, Order, Listing],
    returns=Offer,
    says=[
        "{action} offer {offer}",
        "counter offer {offer} at {counter_amount}",
        "{action} the offer {offer} on my listing",
    ],
)
def respond_to_offer(
    db: Db,
    offer: Ref[Offer, OFFER_TO_ANSWER],
    action: Literal["accept", "decline", "counter"],
    counter_amount: Money | None = None,
    message: OfferNote | None = None,
) -> dict:
    """Answer a pending offer on your listing: accept it (an order at the offered price, awaiting
    the buyer's payment), decline it, or counter once with a price between the offer and your Buy
    It Now price. A counter gives the buyer 48 hours to answer.

    Args:
        offer: The buyer's offer.
        action: accept, decline or counter.
        counter_amount: Your counter price per item (only with counter).
        message: A note to the buyer (with counter).
    """
    o, row = _offer(db, offer)
    _mine(db, row, f"answer offer {offer}")
    if o["status"] != "pending":
        extra = "; the buyer has to answer your counter-offer" if o["status"] == "countered" else ""
        raise ToolError(f"offer {offer} is {o['status']}, not pending{extra}")
    _offer_open(db, o, f"{action} offer {offer}")
    _live(db, row, f"{action} offer {offer}")
    if action != "counter" and counter_amount is not None:
        raise ToolError("counter_amount goes only with action counter")
    if action == "decline":
        return {**db.update(Offer, offer, status="declined", responded_at=db.stamp()), "title": row["title"]}
    if action == "counter":
        if counter_amount is None:
            raise ToolError("action counter needs a counter_amount")
        if not o["amount"] < counter_amount < row["buy_now_price"]:
            raise ToolError(
                f"a counter-offer must be above the offer {_m(o['amount'])} and below your Buy It Now price "
                f"{_m(row['buy_now_price'])}, got {_m(counter_amount)}"
            )
        done = db.update(
            Offer,
            offer,
            status="countered",
            counter_amount=counter_amount,
            counter_message=message,
            responded_at=db.stamp(),
            expires_at=_later(db, OFFER_HOURS),
        )
        return {**done, "title": row["title"]}
    if o["quantity"] > _remaining(row):
        raise ToolError(
            f"cannot accept offer {offer} for {o['quantity']}: only {_remaining(row)} of {_label(row)} left"
        )
    buyer = db.get("users", o["buyer_id"])
    done = db.update(Offer, offer, status="accepted", responded_at=db.stamp())
    order = _sell(db, row, buyer, "offer", o["amount"], o["quantity"])
    return {**done, "title": row["title"], "order": order["id"], "order_total": order["total"]}


@marketplace.tool(
    writes=[Offer, Order, Listing],
    returns=Offer,
    destructive=True,
    says=[
        "answer the counter-offer on {offer}: {action}",
        "{action} my offer {offer}",
    ],
)
def respond_to_counter(
    db: Db, offer: Ref[Offer, MY_OPEN_OFFER], action: Literal["accept", "decline", "withdraw"]
) -> dict:
    """Answer as the buyer: accept or decline the seller's counter-offer (accepting creates an order
    at the counter price), or withdraw an offer of yours that is still pending.

    Args:
        offer: Your offer.
        action: accept or decline a counter-offer, or withdraw a pending offer.
    """
    me = _active_me(db, "answer offers")
    o, row = _offer(db, offer)
    if o["buyer_id"] != me["id"]:
        raise ToolError(f"offer {offer} was made by another buyer; you can only answer your own offers")
    if action == "withdraw":
        if o["status"] != "pending":
            raise ToolError(f"only a pending offer can be withdrawn; offer {offer} is {o['status']}")
        return {**db.update(Offer, offer, status="withdrawn", responded_at=db.stamp()), "title": row["title"]}
    if o["status"] != "countered":
        raise ToolError(
            f"offer {offer} is {o['status']}: there is no counter-offer to {action}"
            + ("; you can withdraw it" if o["status"] == "pending" else "")
        )
    _offer_open(db, o, f"{action} the counter-offer")
    if action == "decline":
        return {**db.update(Offer, offer, status="declined", responded_at=db.stamp()), "title": row["title"]}
    _live(db, row, "accept the counter-offer")
    if o["quantity"] > _remaining(row):
        raise ToolError(
            f"cannot accept: only {_remaining(row)} of {_label(row)} left, the offer is for {o['quantity']}"
        )
    done = db.update(Offer, offer, status="accepted", responded_at=db.stamp())
    order = _sell(db, row, me, "offer", o["counter_amount"], o["quantity"])
    return {**done, "title": row["title"], "order": order["id"], "order_total": order["total"]}
