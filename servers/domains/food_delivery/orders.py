"""Orders seen from the customer: lookups, tracking, cancelling, refunds and ratings."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from pydantic import Field

from servers.domains.food_delivery.model import (
    CANCEL_SHARE,
    CancelReason,
    Courier,
    Customer,
    Order,
    OrderEvent,
    OrderStatus,
    Rating,
    Refund,
    RefundMethod,
    RefundReason,
    Restaurant,
    food_delivery,
)
from servers.domains.food_delivery.rules import (
    ActiveOrder,
    AnyCustomer,
    AnyOrder,
    AnyRestaurant,
    CancellableOrder,
    RateableOrder,
    RefundableOrder,
    courier_mode,
    leg,
    log_event,
    restaurant_of,
)
from servers.kit import Db, Money, Offset, PageSize, ShortText, ToolError

Comment = Annotated[ShortText, Field(examples=["Arrived hot and fast", "Food was cold", "Great as always"])]
Stars = Annotated[int, Field(ge=1, le=5, description="1 to 5 stars.")]
_SUMMARY = (
    "SELECT o.id, o.label, o.status, o.customer_id, o.restaurant_id, r.name AS restaurant, o.total, "
    "o.placed_at, o.scheduled_for, o.eta, o.delivered_at, o.courier_id FROM orders o "
    "JOIN restaurants r ON r.id = o.restaurant_id"
)


@food_delivery.tool(
    returns=Order,
    says=["show me order {order}", "what's the status of order {order}?"],
)
def get_order(db: Db, order: AnyOrder) -> dict:
    """One order in full: status, money, items, the tracking timeline, its courier, refunds and
    rating."""
    o = db.get(Order, order)
    r = restaurant_of(db, o)
    courier = db.find(Courier, o["courier_id"]) if o["courier_id"] else None
    return {
        **o,
        "restaurant": {"id": r["id"], "name": r["name"], "address": r["address"], "phone": r["phone"]},
        "courier": _courier_card(courier),
        "items": db.all("SELECT * FROM order_items WHERE order_id = ? ORDER BY id", order),
        "timeline": db.all("SELECT status, note, at FROM order_events WHERE order_id = ? ORDER BY id", order),
        "refunds": db.all("SELECT * FROM refunds WHERE order_id = ? ORDER BY id", order),
        "rating": db.one("SELECT stars, comment, at FROM ratings WHERE order_id = ?", order),
    }


def _courier_card(c: dict[str, Any] | None) -> dict[str, Any] | None:
    if c is None:
        return None
    keep = ("id", "name", "phone", "vehicle", "status", "lat", "lon", "rating")
    return {k: c[k] for k in keep}


@food_delivery.tool(
    returns=Order,
    says=["list the orders of {customer}", "show {customer}'s {status} orders"],
)
def list_customer_orders(
    db: Db, customer: AnyCustomer, status: OrderStatus | None = None, limit: PageSize = 20, offset: Offset = 0
) -> dict:
    """A customer's orders, newest first.

    Args:
        customer: The customer.
        status: Only orders in this status.
        limit: Maximum number of orders to return.
        offset: Orders to skip, for paging.
    """
    db.get(Customer, customer)
    sql, params = f"{_SUMMARY} WHERE o.customer_id = ?", [customer]
    if status:
        sql, params = f"{sql} AND o.status = ?", [*params, status]
    return db.page(
        f"{sql} ORDER BY o.placed_at DESC, o.id DESC", *params, limit=limit, offset=offset, key="orders"
    )


@food_delivery.tool(
    returns=Order,
    says=[
        "which orders does {restaurant} have in status {status}?",
        "show the incoming orders at {restaurant}",
    ],
)
def list_restaurant_orders(
    db: Db,
    restaurant: AnyRestaurant,
    status: OrderStatus = "placed",
    limit: PageSize = 20,
    offset: Offset = 0,
) -> dict:
    """A restaurant's orders in one status (new ones by default), oldest first: the kitchen's queue.

    Args:
        restaurant: The restaurant.
        status: Which orders: placed (new), accepted, ready, picked_up, delivered, cancelled or rejected.
        limit: Maximum number of orders to return.
        offset: Orders to skip, for paging.
    """
    db.get(Restaurant, restaurant)
    sql = f"{_SUMMARY} WHERE o.restaurant_id = ? AND o.status = ? ORDER BY o.placed_at, o.id"
    return db.page(sql, restaurant, status, limit=limit, offset=offset, key="orders")


@food_delivery.tool(
    returns=Order,
    says=["where is order {order}?", "track the delivery of {order}, how far away is the courier?"],
)
def track_order(db: Db, order: ActiveOrder) -> dict:
    """Live tracking: status, ETA and minutes left, and the courier's position with the road
    distance and time to the next stop (the restaurant before pickup, then the customer)."""
    o = db.get(Order, order)
    r = restaurant_of(db, o)
    now = db.now
    out: dict[str, Any] = {
        "order": o["id"],
        "status": o["status"],
        "eta": o["eta"],
        "minutes_left": max(0, round((datetime.fromisoformat(o["eta"]) - now).total_seconds() / 60)),
        "restaurant": {"name": r["name"], "address": r["address"], "lat": r["lat"], "lon": r["lon"]},
        "deliver_to": {"address": o["address"], "lat": o["lat"], "lon": o["lon"]},
        "courier": None,
    }
    if o["status"] in ("delivered", "cancelled", "rejected"):
        out["minutes_left"] = 0
        out["finished_at"] = o["delivered_at"] or o["cancelled_at"]
        return out
    if not o["courier_id"]:
        out["waiting_for"] = "restaurant to accept" if o["status"] == "placed" else "a courier to be assigned"
        return out
    c = db.get(Courier, o["courier_id"])
    to_customer = o["status"] == "picked_up"
    stop = (o["lat"], o["lon"]) if to_customer else (r["lat"], r["lon"])
    way = leg(c["lat"], c["lon"], *stop, courier_mode(c))
    out["courier"] = {
        **_courier_card(c),
        "heading_to": "customer" if to_customer else "restaurant",
        "distance_km": way["distance_km"],
        "duration_min": way["duration_min"],
    }
    return out


def _give_back(db: Db, o: dict[str, Any], amount: float, reason: str, method: str | None) -> list[dict]:
    """Refund rows for ``amount``: to the card as far as the card paid (``original``), the rest as
    credit; ``method`` forces one of them. Updates the order and the customer's credit."""
    card_back = db.scalar(
        "SELECT coalesce(sum(amount), 0) FROM refunds WHERE order_id = ? AND method = 'original'", o["id"]
    )
    card_left = round(o["card_charged"] - card_back, 2)
    if method == "original" and amount > card_left:
        raise ToolError(
            f"only {card_left:.2f} of order {o['id']} is left to refund to the card (the card paid "
            f"{o['card_charged']:.2f}, platform credit {o['credit_applied']:.2f}); refund the rest as credit"
        )
    to_card = amount if method == "original" else 0.0 if method == "credit" else min(amount, card_left)
    parts = [("original", round(to_card, 2)), ("credit", round(amount - to_card, 2))]
    rows = []
    for how, value in parts:
        if value > 0:
            rows.append(
                db.insert(Refund, order_id=o["id"], amount=value, reason=reason, method=how, at=db.stamp())
            )
            if how == "credit":
                db.execute(
                    "UPDATE customers SET credit = round(credit + ?, 2) WHERE id = ?", value, o["customer_id"]
                )
    db.update(Order, o["id"], refunded=round(o["refunded"] + amount, 2))
    return rows


@food_delivery.tool(
    writes=[Order, OrderEvent, Refund, Courier, Customer],
    returns=Order,
    destructive=True,
    says=["cancel order {order}", "please cancel {order}, the reason is {reason}"],
)
def cancel_order(db: Db, order: CancellableOrder, reason: CancelReason) -> dict:
    """Cancel an order before pickup, with the fee its stage implies: free while placed; once the
    restaurant accepted it, half the subtotal, or all of it when a courier is already assigned.
    The rest is refunded to the card (and credit, for what credit paid); the courier is freed.

    Args:
        order: The order.
        reason: Why it is cancelled.
    """
    o = db.get(Order, order)
    if o["status"] == "picked_up":
        raise ToolError(
            f"order {order} is already on its way (picked up at {o['picked_up_at']}); it cannot be cancelled "
            "now: once it is delivered, issue a refund if something is wrong"
        )
    if o["status"] in ("delivered", "cancelled", "rejected"):
        raise ToolError(
            f"order {order} is already {o['status']}; only placed, accepted or ready orders can be cancelled"
        )
    if o["status"] == "placed":
        fee, why = 0.0, "free while the restaurant has not accepted it"
    elif o["courier_id"]:
        fee, why = o["subtotal"], "the whole subtotal, a courier is already assigned"
    else:
        fee, why = round(o["subtotal"] * CANCEL_SHARE, 2), "half the subtotal, the kitchen has accepted it"
    fee = round(min(fee, o["total"]), 2)
    if o["courier_id"]:
        db.update(Courier, o["courier_id"], status="available")
    db.update(Order, order, status="cancelled", cancel_reason=reason, cancel_fee=fee, cancelled_at=db.stamp())
    back = round(o["total"] - fee, 2)
    refunds = _give_back(db, db.get(Order, order), back, "cancelled", None) if back > 0 else []
    log_event(db, order, "cancelled", f"cancelled ({reason}); fee {fee:.2f}, {why}")
    return {**db.get(Order, order), "fee_rule": why, "refunds": refunds}


@food_delivery.tool(
    writes=[Refund, Order, Customer],
    returns=Refund,
    says=[
        "refund {amount} on order {order} because of {reason}",
        "give {amount} back for order {order} as {method}, reason {reason}",
    ],
)
def issue_refund(
    db: Db, order: RefundableOrder, amount: Money, reason: RefundReason, method: RefundMethod = "original"
) -> dict:
    """Refund part or all of an order, to the card it was paid with (``original``) or as platform
    credit. Delivered orders take missing_item, wrong_item, quality or late (late only if it arrived
    after its ETA); a cancelled order can only get back its cancellation fee (reason cancelled).
    All refunds of an order together never exceed what was paid for it.

    Args:
        order: The order.
        amount: How much to refund.
        reason: missing_item, wrong_item, late, quality or cancelled.
        method: original (back to the card) or credit (platform credit).
    """
    o = db.get(Order, order)
    if o["status"] not in ("delivered", "cancelled", "rejected"):
        raise ToolError(
            f"order {order} is {o['status']}: refunds are for delivered orders; cancel it instead if it is not "
            "picked up yet"
        )
    left = round(o["total"] - o["refunded"], 2)
    if left <= 0:
        raise ToolError(f"order {order} is already fully refunded ({o['refunded']:.2f} of {o['total']:.2f})")
    if o["status"] != "delivered" and reason != "cancelled":
        raise ToolError(
            f"order {order} is {o['status']}: only its cancellation fee can be refunded, with reason cancelled"
        )
    if o["status"] == "delivered" and reason == "cancelled":
        raise ToolError(f"order {order} was delivered; reason cancelled is for cancelled orders")
    if reason == "late" and o["delivered_at"] <= o["eta"]:
        raise ToolError(f"order {order} was not late: delivered at {o['delivered_at']}, ETA {o['eta']}")
    if amount > left:
        raise ToolError(
            f"cannot refund {amount:.2f} on order {order}: it was paid {o['total']:.2f} and {o['refunded']:.2f} "
            f"is already refunded, so at most {left:.2f} is left"
        )
    rows = _give_back(db, o, amount, reason, method)
    return {
        "refunds": rows,
        "order": order,
        "refunded_total": round(o["refunded"] + amount, 2),
        "paid": o["total"],
    }


@food_delivery.tool(
    writes=[Rating],
    returns=Rating,
    says=["rate order {order} {stars} stars", "give {order} {stars} out of 5 and say '{comment}'"],
)
def rate_order(db: Db, order: RateableOrder, stars: Stars, comment: Comment | None = None) -> dict:
    """Rate a delivered order, once.

    Args:
        order: The order.
        stars: 1 to 5.
        comment: A short comment.
    """
    o = db.get(Order, order)
    if o["status"] != "delivered":
        raise ToolError(f"order {order} is {o['status']}; only delivered orders can be rated")
    before = db.one("SELECT stars, at FROM ratings WHERE order_id = ?", order)
    if before is not None:
        raise ToolError(
            f"order {order} was already rated {before['stars']} stars on {before['at']}; a rating is given once"
        )
    return db.insert(Rating, order_id=order, stars=stars, comment=comment or "", at=db.stamp())
