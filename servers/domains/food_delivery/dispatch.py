"""Dispatch: couriers near a restaurant, assignment, pickup and delivery."""

from __future__ import annotations

from servers.domains.food_delivery.model import (
    HANDOFF_MINUTES,
    Courier,
    CourierStatus,
    Order,
    OrderEvent,
    Restaurant,
    food_delivery,
)
from servers.domains.food_delivery.rules import (
    AnyRestaurant,
    DispatchableOrder,
    FreeCourier,
    OnTheWayOrder,
    PickupOrder,
    courier_mode,
    delivery_eta,
    fmt,
    leg,
    log_event,
    minutes_after,
    order_in,
    restaurant_of,
)
from servers.kit import Db, Offset, PageSize, ToolError


def _ranked(db: Db, r: dict, status: str) -> list[dict]:
    """Couriers of the restaurant's city in a status, nearest (by their own way of riding) first."""
    rows = db.all("SELECT * FROM couriers WHERE city = ? AND status = ? ORDER BY id", r["city"], status)
    for c in rows:
        way = leg(c["lat"], c["lon"], r["lat"], r["lon"], courier_mode(c))
        c["distance_km"], c["minutes_to_restaurant"] = way["distance_km"], way["duration_min"]
    rows.sort(key=lambda c: (c["minutes_to_restaurant"], c["id"]))
    return rows


@food_delivery.tool(
    returns=Courier,
    says=["which couriers are {status} near {restaurant}?", "list the free couriers closest to {restaurant}"],
)
def list_couriers(
    db: Db,
    restaurant: AnyRestaurant,
    status: CourierStatus = "available",
    limit: PageSize = 20,
    offset: Offset = 0,
) -> dict:
    """Couriers in the restaurant's city, nearest first, with the road distance and minutes to the
    restaurant by their vehicle (bikes cycle, scooters and cars drive).

    Args:
        restaurant: The restaurant to measure from.
        status: available, busy or offline.
        limit: Maximum number of couriers to return.
        offset: Couriers to skip, for paging.
    """
    r = db.get(Restaurant, restaurant)
    rows = _ranked(db, r, status)
    page = rows[offset : offset + limit]
    return {
        "restaurant": {"name": r["name"], "city": r["city"], "address": r["address"]},
        "couriers": page,
        "total": len(rows),
        "offset": offset,
        "limit": limit,
        "truncated": offset + len(page) < len(rows),
    }


def _pick(db: Db, o: dict, r: dict, courier: str | None) -> dict:
    if courier is None:
        free = _ranked(db, r, "available")
        if not free:
            raise ToolError(f"no courier is available in {r['city']} right now; try again later or name one")
        return free[0]
    c = db.get(Courier, courier)
    if c["status"] == "busy":
        busy = db.scalar(
            "SELECT id FROM orders WHERE courier_id = ? AND status IN ('accepted', 'ready', 'picked_up') LIMIT 1",
            courier,
        )
        raise ToolError(
            f"courier {c['name']} ({courier}) is busy with order {busy}; pick an available courier"
        )
    if c["status"] != "available":
        raise ToolError(f"courier {c['name']} ({courier}) is {c['status']}; pick an available courier")
    if c["city"] != r["city"]:
        raise ToolError(f"courier {c['name']} ({courier}) works in {c['city']}, the order is in {r['city']}")
    return c


@food_delivery.tool(
    writes=[Order, Courier, OrderEvent],
    returns=Order,
    says=["assign a courier to order {order}", "send courier {courier} to pick up {order}"],
)
def assign_courier(db: Db, order: DispatchableOrder, courier: FreeCourier | None = None) -> dict:
    """Give an accepted or ready order a courier: the one named, or the available courier of the
    city who reaches the restaurant soonest. The courier becomes busy and the ETA is recomputed.

    Args:
        order: The order.
        courier: A courier to send; leave out for the nearest available one.
    """
    o = order_in(db, order, ("accepted", "ready"), "assign a courier to")
    if o["courier_id"]:
        c = db.get(Courier, o["courier_id"])
        raise ToolError(f"order {order} already has courier {c['name']} ({c['id']})")
    r = restaurant_of(db, o)
    c = _pick(db, o, r, courier)
    db.update(Courier, c["id"], status="busy")
    o = db.update(Order, order, courier_id=c["id"])
    o = db.update(Order, order, eta=delivery_eta(db, o, r, db.get(Courier, c["id"])))
    log_event(db, order, "courier_assigned", f"courier {c['name']} ({c['vehicle']}) assigned")
    return {**o, "courier": {k: c[k] for k in ("id", "name", "phone", "vehicle")}}


@food_delivery.tool(
    writes=[Order, Courier, OrderEvent],
    returns=Order,
    says=["the courier picked up order {order}", "confirm pickup of {order}"],
)
def confirm_pickup(db: Db, order: PickupOrder) -> dict:
    """The courier has the food: the order is on its way and the ETA is the ride from here."""
    o = db.get(Order, order)
    if o["status"] == "accepted":
        raise ToolError(
            f"order {order} is not ready yet (accepted at {o['accepted_at']}); mark it ready first"
        )
    o = order_in(db, order, ("ready",), "confirm pickup of")
    if not o["courier_id"]:
        raise ToolError(f"order {order} has no courier; assign one before pickup")
    r = restaurant_of(db, o)
    c = db.update(Courier, o["courier_id"], lat=r["lat"], lon=r["lon"])
    ride = leg(r["lat"], r["lon"], o["lat"], o["lon"], courier_mode(c))["duration_min"]
    eta = fmt(minutes_after(db.now, ride + HANDOFF_MINUTES))
    o = db.update(Order, order, status="picked_up", picked_up_at=db.stamp(), eta=eta)
    log_event(db, order, "picked_up", f"picked up by {c['name']}, ETA {eta}")
    return o


@food_delivery.tool(
    writes=[Order, Courier, OrderEvent],
    returns=Order,
    says=["order {order} was delivered", "confirm that {order} arrived"],
)
def confirm_delivery(db: Db, order: OnTheWayOrder) -> dict:
    """The courier handed the order over: it is delivered and the courier is available again,
    at the delivery address."""
    o = order_in(db, order, ("picked_up",), "confirm delivery of")
    c = db.get(Courier, o["courier_id"])
    db.update(
        Courier, c["id"], status="available", lat=o["lat"], lon=o["lon"], deliveries=c["deliveries"] + 1
    )
    o = db.update(Order, order, status="delivered", delivered_at=db.stamp())
    late = o["delivered_at"] > o["eta"]
    log_event(
        db, order, "delivered", f"delivered to {o['address']} by {c['name']}" + (" (late)" if late else "")
    )
    return {**o, "late": late}
