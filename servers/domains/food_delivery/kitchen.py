"""The restaurant side of an order: accept it with a prep time, reject it, mark the food ready."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from servers.domains.food_delivery.model import (
    Courier,
    Customer,
    MenuItem,
    Order,
    OrderEvent,
    Refund,
    RejectReason,
    food_delivery,
)
from servers.domains.food_delivery.orders import _give_back
from servers.domains.food_delivery.rules import (
    AcceptedOrder,
    NewOrder,
    delivery_eta,
    log_event,
    order_in,
    restaurant_of,
)
from servers.kit import Db, IdList, ToolError

PrepMinutes = Annotated[int, Field(ge=1, le=240, description="Minutes the kitchen needs, 5-90.")]
MIN_PREP, MAX_PREP = 5, 90
OrderedItems = IdList[
    MenuItem,
    "id IN (SELECT i.item_id FROM order_items i JOIN orders o ON o.id = i.order_id WHERE o.status = 'placed')",
]


@food_delivery.tool(
    writes=[Order, OrderEvent],
    returns=Order,
    says=[
        "accept order {order} with a prep time of {prep_minutes} minutes",
        "the kitchen takes order {order}, it needs {prep_minutes} minutes",
    ],
)
def accept_order(db: Db, order: NewOrder, prep_minutes: PrepMinutes | None = None) -> dict:
    """The restaurant accepts a new order and says how long the food takes (its usual prep time
    if not given); the ETA is recomputed.

    Args:
        order: The order.
        prep_minutes: Minutes until the food is ready, 5-90.
    """
    o = order_in(db, order, ("placed",), "accept")
    r = restaurant_of(db, o)
    prep = r["prep_minutes"] if prep_minutes is None else prep_minutes
    if not MIN_PREP <= prep <= MAX_PREP:
        raise ToolError(f"prep time must be {MIN_PREP}-{MAX_PREP} minutes, got {prep}")
    o = db.update(Order, order, status="accepted", accepted_at=db.stamp(), prep_minutes=prep)
    o = db.update(Order, order, eta=delivery_eta(db, o, r, None))
    log_event(db, order, "accepted", f"accepted by {r['name']}, ready in about {prep} minutes")
    return o


@food_delivery.tool(
    writes=[Order, OrderEvent, Refund, Customer, MenuItem],
    returns=Order,
    destructive=True,
    says=[
        "reject order {order}, reason {reason}",
        "{order} can't be made, we ran out of {out_of_stock_items}: reject it as {reason}",
    ],
)
def reject_order(
    db: Db, order: NewOrder, reason: RejectReason, out_of_stock_items: OrderedItems | None = None
) -> dict:
    """The restaurant turns down a new order; the customer gets everything back. With reason
    out_of_items, name the items of the order that ran out: they are marked sold out.

    Args:
        order: The order.
        reason: out_of_items, kitchen_closed, too_busy or other.
        out_of_stock_items: The order's items that ran out (reason out_of_items only).
    """
    o = order_in(db, order, ("placed",), "reject")
    gone = out_of_stock_items or []
    if reason == "out_of_items" and not gone:
        raise ToolError("reason out_of_items needs out_of_stock_items: the items of the order that ran out")
    if gone and reason != "out_of_items":
        raise ToolError(f"out_of_stock_items only go with reason out_of_items, not {reason}")
    ordered = {
        i["item_id"]: i["name"]
        for i in db.all("SELECT item_id, name FROM order_items WHERE order_id = ?", order)
    }
    stray = [i for i in gone if i not in ordered]
    if stray:
        listed = ", ".join(f"{k} ({v})" for k, v in ordered.items())
        raise ToolError(f"{', '.join(stray)} not in order {order}; its items: {listed}")
    for item in gone:
        db.update(MenuItem, item, available=False)
    db.update(Order, order, status="rejected", reject_reason=reason, cancelled_at=db.stamp())
    refunds = _give_back(db, db.get(Order, order), o["total"], "rejected", None)
    note = f"rejected by the restaurant: {reason}" + (
        f" ({', '.join(ordered[i] for i in gone)})" if gone else ""
    )
    log_event(db, order, "rejected", note)
    return {**db.get(Order, order), "refunds": refunds, "sold_out": gone}


@food_delivery.tool(
    writes=[Order, OrderEvent],
    returns=Order,
    says=["order {order} is ready for pickup", "mark {order} as ready"],
)
def mark_order_ready(db: Db, order: AcceptedOrder) -> dict:
    """The kitchen has finished an accepted order: it waits for its courier."""
    o = order_in(db, order, ("accepted",), "mark ready")
    r = restaurant_of(db, o)
    o = db.update(Order, order, status="ready", ready_at=db.stamp())
    courier = db.find(Courier, o["courier_id"]) if o["courier_id"] else None
    o = db.update(Order, order, eta=delivery_eta(db, o, r, courier))
    waiting = f"courier {courier['name']} is on the way" if courier else "no courier assigned yet"
    log_event(db, order, "ready", f"food is ready for pickup; {waiting}")
    return o
