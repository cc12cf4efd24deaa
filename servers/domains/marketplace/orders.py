"""After the sale: orders as buyer and seller, paying, shipping with tracking, and feedback."""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated, Literal

from pydantic import Field

from servers.domains.marketplace.model import (
    FEEDBACK_DAYS,
    Carrier,
    Feedback,
    Order,
    Rating,
    User,
    marketplace,
)
from servers.domains.marketplace.rules import (
    PAYABLE,
    RATEABLE,
    SHIPPABLE,
    _active_me,
    _iso,
    _local,
    _m,
)
from servers.kit import Day, Db, Offset, PageSize, Ref, ToolError

Tracking = Annotated[
    str,
    Field(
        pattern=r"^[A-Z0-9]{8,34}$",
        description="The carrier's tracking number: 8-34 capital letters and digits.",
        examples=["1Z999AA10123456784", "9400111899223817459382", "771234567890", "4567891230"],
    ),
]
FeedbackText = Annotated[
    str,
    Field(
        min_length=1,
        max_length=500,
        examples=[
            "Great seller, item exactly as described.",
            "Fast payment, smooth transaction.",
            "Item arrived late but as described.",
            "Well packed and quick to ship. Thanks!",
        ],
    ),
]
OrderStatus = Literal["awaiting_payment", "paid", "shipped", "delivered", "cancelled"]


def _order(db: Db, order_id: str) -> tuple[dict, dict]:
    """The order and the signed-in user, who must be its buyer or seller."""
    me = db.actor()
    o = db.get(Order, order_id)
    if me["id"] not in (o["buyer_id"], o["seller_id"]):
        raise ToolError(f"order {order_id} is not one of yours (you are neither its buyer nor its seller)")
    return o, me


def _label(o: dict) -> str:
    return f'order {o["id"]} ("{o["title"]}")'


@marketplace.tool(
    returns=Order,
    says=[
        "show my orders as a {role}",
        "list my {status} orders",
        "which orders did I get since {since}?",
        "find my order for {query}",
    ],
)
def list_orders(
    db: Db,
    role: Literal["buyer", "seller"] | None = None,
    status: OrderStatus | None = None,
    since: Day | None = None,
    query: Annotated[str, Field(min_length=1, max_length=100, examples=["camera", "LEGO", "boots"])]
    | None = None,
    limit: PageSize = 20,
    offset: Offset = 0,
) -> dict:
    """Your orders, newest first: what you bought (role buyer), what you sold (role seller), or both.

    Args:
        role: buyer or seller; both when omitted.
        status: awaiting_payment, paid, shipped, delivered or cancelled.
        since: Only orders placed on or after this day.
        query: Words the item title must contain.
    """
    me = db.actor()
    where, params = [], []
    if role is None:
        where.append("(o.buyer_id = ? OR o.seller_id = ?)")
        params += [me["id"], me["id"]]
    else:
        where.append(f"o.{role}_id = ?")
        params.append(me["id"])
    if status is not None:
        where.append("o.status = ?")
        params.append(status)
    if since is not None:
        where.append("substr(o.created_at, 1, 10) >= ?")
        params.append(since)
    for word in (query or "").split():
        where.append("o.title LIKE ? ESCAPE '\\'")
        params.append("%" + word.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%")
    columns = (
        "o.id, o.title, o.listing_id, CASE WHEN o.buyer_id = ? THEN 'buyer' ELSE 'seller' END AS role, "
        "(SELECT username FROM users WHERE id = o.buyer_id) AS buyer, "
        "(SELECT username FROM users WHERE id = o.seller_id) AS seller, o.source, o.unit_price, o.quantity, "
        "o.shipping_cost, o.total, o.status, o.carrier, o.tracking, o.ship_to, o.created_at, o.paid_at, o.shipped_at"
    )
    body = f"FROM orders o WHERE {' AND '.join(where)}"
    rows = db.all(
        f"SELECT {columns} {body} ORDER BY o.created_at DESC, o.id DESC LIMIT ? OFFSET ?",
        me["id"],
        *params,
        limit + 1,
        offset,
    )
    return db.paged(
        rows,
        limit=limit,
        offset=offset,
        key="orders",
        count=lambda: db.scalar(f"SELECT count(*) {body}", *params),
    )


@marketplace.tool(
    writes=[Order],
    returns=Order,
    says=["pay for order {order}", "pay my order {order} now"],
)
def pay_order(db: Db, order: Ref[Order, PAYABLE]) -> dict:
    """Pay an order of yours that is awaiting payment (with the payment method on file); the seller
    can then ship it."""
    o, me = _order(db, order)
    _active_me(db, "pay")
    if o["buyer_id"] != me["id"]:
        raise ToolError(f"{_label(o)} is a sale of yours; the buyer pays it, not you")
    if o["status"] != "awaiting_payment":
        raise ToolError(f"{_label(o)} is {o['status']}; only orders awaiting payment can be paid")
    done = db.update(Order, order, status="paid", paid_at=db.stamp())
    return {**done, "charged": _m(done["total"])}


@marketplace.tool(
    writes=[Order],
    returns=Order,
    says=[
        "mark order {order} as shipped with {carrier}, tracking {tracking}",
        "I shipped {order} via {carrier}; the tracking number is {tracking}",
    ],
)
def mark_shipped(db: Db, order: Ref[Order, SHIPPABLE], carrier: Carrier, tracking: Tracking) -> dict:
    """As the seller, mark a paid order shipped and give the carrier and its tracking number (each
    tracking number belongs to one order).

    Args:
        order: Your sale, paid by the buyer.
        carrier: usps, ups, fedex or dhl.
        tracking: The tracking number.
    """
    o, me = _order(db, order)
    if o["seller_id"] != me["id"]:
        raise ToolError(f"{_label(o)} is a purchase of yours; only its seller marks it shipped")
    if o["status"] == "awaiting_payment":
        raise ToolError(f"{_label(o)} is awaiting payment; ship it only after the buyer has paid")
    if o["status"] != "paid":
        extra = f" with {o['carrier']} {o['tracking']}" if o["tracking"] else ""
        raise ToolError(f"{_label(o)} is {o['status']}{extra}; only paid orders can be marked shipped")
    used = db.scalar("SELECT id FROM orders WHERE tracking = ?", tracking)
    if used is not None:
        raise ToolError(
            f"tracking number {tracking} is already on order {used}; each shipment has its own number"
        )
    done = db.update(
        Order, order, status="shipped", carrier=carrier, tracking=tracking, shipped_at=db.stamp()
    )
    return {**done, "ship_to": o["ship_to"]}


@marketplace.tool(
    writes=[Feedback, User],
    returns=Feedback,
    says=[
        "leave {rating} feedback on order {order}: {comment}",
        "rate the other party of {order} {rating} and say {comment}",
    ],
)
def leave_feedback(db: Db, order: Ref[Order, RATEABLE], rating: Rating, comment: FeedbackText) -> dict:
    """Rate the other party of one of your orders: the seller if you bought, the buyer if you sold.
    Once per order and side, after payment and within 60 days of the order. Sellers can leave
    buyers only positive feedback.

    Args:
        order: Your order.
        rating: positive, neutral or negative.
        comment: What you say about them.
    """
    o, me = _order(db, order)
    role = "buyer" if o["buyer_id"] == me["id"] else "seller"
    if o["status"] in ("awaiting_payment", "cancelled"):
        raise ToolError(f"{_label(o)} is {o['status']}; feedback opens once an order is paid")
    opened = o["created_at"]
    deadline = _iso(db.now - timedelta(days=FEEDBACK_DAYS))
    if opened < deadline:
        raise ToolError(
            f"{_label(o)} was placed on {opened[:10]}; feedback is only possible within 60 days of the order"
        )
    prior = db.one("SELECT rating, at FROM feedback WHERE order_id = ? AND from_id = ?", order, me["id"])
    if prior is not None:
        raise ToolError(
            f"you already left {prior['rating']} feedback on {_label(o)} on {prior['at'][:10]}; it is given once"
        )
    if role == "seller" and rating != "positive":
        raise ToolError(f"sellers can only leave positive feedback for buyers; got {rating} for {_label(o)}")
    target = db.get(User, o["seller_id"] if role == "buyer" else o["buyer_id"])
    fb = db.insert(
        Feedback,
        order_id=order,
        from_id=me["id"],
        to_id=target["id"],
        role=role,
        rating=rating,
        comment=comment,
        at=db.stamp(),
    )
    counts = {k: target[f"ratings_{k}"] for k in ("positive", "neutral", "negative")}
    counts[rating] += 1
    pos, neg = counts["positive"], counts["negative"]
    updated = db.update(
        User,
        target["id"],
        **{f"ratings_{rating}": counts[rating]},
        feedback_score=pos - neg,
        positive_pct=round(100 * pos / (pos + neg), 1) if pos + neg else None,
    )
    return {
        **fb,
        "for_user": target["username"],
        "their_feedback_score": updated["feedback_score"],
        "their_positive_pct": updated["positive_pct"],
        "at_local": _local(db, fb["at"]),
    }
