"""Rules several tools share (local time, opening hours, delivery range, prices, the lifecycle) and
the sampler's conditions, written once so a tool and its ``Ref`` condition cannot disagree."""

from __future__ import annotations

import math
from datetime import datetime, timedelta
from typing import Annotated, Any
from zoneinfo import ZoneInfo

from pydantic import AfterValidator, Field

from servers.domains.food_delivery.model import (
    HANDOFF_MINUTES,
    ROUTE_MODE,
    SERVICE_MAX,
    SERVICE_MIN,
    SERVICE_RATE,
    Courier,
    Customer,
    MenuItem,
    Order,
    OrderEvent,
    Promo,
    Restaurant,
)
from servers.kit import WEEKDAYS, Db, Ref, ShortText, ToolError, geo, whole_cents

# -- SQL conditions (the sampler's picks; the tools check the same rules) --------------------------

NOW_SQL = "(SELECT value FROM _meta WHERE key = 'now')"
# weekday of the reference moment, Monday = 0 (SQLite counts from Sunday), and its HH:MM
_WEEKDAY_SQL = f"((CAST(strftime('%w', {NOW_SQL}) AS INTEGER) + 6) % 7)"
_HHMM_SQL = f"strftime('%H:%M', {NOW_SQL})"


def open_now_sql(restaurant: str) -> str:
    """SQL: the restaurant ``restaurant`` names is open at the reference moment, local time."""
    return (
        f"EXISTS (SELECT 1 FROM opening_hours h WHERE h.restaurant_id = {restaurant} "
        f"AND h.weekday = {_WEEKDAY_SQL} AND h.opens <= {_HHMM_SQL} AND h.closes > {_HHMM_SQL})"
    )


def taking_orders_sql(alias: str) -> str:
    """SQL: the restaurant row ``alias`` is online (or its pause has run out) and open now."""
    return (
        f"({alias}.status = 'online' OR ({alias}.status = 'paused' AND {alias}.paused_until <= {NOW_SQL})) "
        f"AND {open_now_sql(alias + '.id')}"
    )


# A cart is checked line by line on the customer's own rows (the cart_items customer index), so a
# sampler probe of one customer costs a few lookups; the earlier ``id IN (SELECT ... JOIN ...)``
# form rebuilt the whole list of ready carts on every probe (2-3 ms each).
HAS_CART = "id IN (SELECT customer_id FROM cart_items)"
CHECKOUT_READY = (
    f"{HAS_CART} AND EXISTS (SELECT 1 FROM cart_items c JOIN restaurants r ON r.id = c.restaurant_id "
    f"WHERE c.customer_id = customers.id AND {taking_orders_sql('r')} "
    "AND (SELECT sum(x.unit_price * x.quantity) FROM cart_items x WHERE x.customer_id = customers.id) "
    ">= r.min_order) "
    "AND NOT EXISTS (SELECT 1 FROM cart_items c JOIN menu_items m ON m.id = c.item_id "
    "WHERE c.customer_id = customers.id AND m.available = 0)"
)
ORDERABLE_ITEM = (
    "available = 1 AND EXISTS (SELECT 1 FROM restaurants r WHERE r.id = menu_items.restaurant_id "
    "AND r.status != 'closed')"
)
NOT_CLOSED = "status != 'closed'"
HAS_FREE_COURIER = (
    # the order's own restaurant and the couriers of its city (city, status index): a list of
    # every restaurant in such a city was rebuilt on each pick before
    "EXISTS (SELECT 1 FROM restaurants r JOIN couriers k ON k.city = r.city "
    "WHERE r.id = orders.restaurant_id AND k.status = 'available')"
)
RATEABLE = "status = 'delivered' AND id NOT IN (SELECT order_id FROM ratings)"
REFUNDABLE = (
    "status IN ('delivered', 'cancelled') AND refunded < total - 0.005 "
    "AND (status = 'delivered' OR cancel_fee > 0)"
)
USABLE_PROMO = (
    f"expires_on >= date({NOW_SQL}) AND first_order_only = 0 AND (max_uses IS NULL OR uses < max_uses)"
)

AnyCustomer = Ref[Customer]
CartCustomer = Ref[Customer, HAS_CART]
CheckoutCustomer = Ref[Customer, CHECKOUT_READY]
AnyRestaurant = Ref[Restaurant]
OpenRestaurant = Ref[Restaurant, NOT_CLOSED]
OrderableItem = Ref[MenuItem, ORDERABLE_ITEM]
AnyItem = Ref[MenuItem]
CartedItem = Ref[MenuItem, "EXISTS (SELECT 1 FROM cart_items c WHERE c.item_id = menu_items.id)"]
AnyOrder = Ref[Order]
ActiveOrder = Ref[Order, "status IN ('placed', 'accepted', 'ready', 'picked_up')"]
CancellableOrder = Ref[Order, "status IN ('placed', 'accepted', 'ready')"]
NewOrder = Ref[Order, "status = 'placed'"]
AcceptedOrder = Ref[Order, "status = 'accepted'"]
DispatchableOrder = Ref[
    Order, f"status IN ('accepted', 'ready') AND courier_id IS NULL AND {HAS_FREE_COURIER}"
]
PickupOrder = Ref[Order, "status = 'ready' AND courier_id IS NOT NULL"]
OnTheWayOrder = Ref[Order, "status = 'picked_up'"]
RefundableOrder = Ref[Order, REFUNDABLE]
RateableOrder = Ref[Order, RATEABLE]
FreeCourier = Ref[Courier, "status = 'available'"]
UsablePromo = Ref[Promo, USABLE_PROMO]


Tip = Annotated[
    float,
    Field(ge=0, le=1000, description="Tip for the courier in dollars, 0 or more, e.g. 3.50."),
    AfterValidator(whole_cents),
]
Address = Annotated[
    ShortText,
    Field(examples=["14 Elm St, Portland", "230 Oak Ave, Seattle", "118 Maple Dr, Denver", "Portland"]),
]

# -- time ----------------------------------------------------------------------------------------


def fmt(dt: datetime) -> str:
    return dt.isoformat(timespec="seconds")


def local_moment(text: str, timezone: str) -> datetime:
    """A ``Moment`` argument as the restaurant's local wall-clock time: as given, or converted
    from its UTC offset with the city's time zone."""
    dt = datetime.fromisoformat(text)
    if dt.tzinfo is not None:
        dt = dt.astimezone(ZoneInfo(timezone)).replace(tzinfo=None)
    return dt


def utc_offset(timezone: str, local: datetime) -> str:
    """``-07:00``: the city's offset from UTC at a local time."""
    delta = local.replace(tzinfo=ZoneInfo(timezone)).utcoffset() or timedelta(0)
    minutes = int(delta.total_seconds() // 60)
    sign = "-" if minutes < 0 else "+"
    return f"{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


def hours_of(db: Db, restaurant_id: str) -> dict[int, tuple[str, str]]:
    rows = db.all("SELECT weekday, opens, closes FROM opening_hours WHERE restaurant_id = ?", restaurant_id)
    return {r["weekday"]: (r["opens"], r["closes"]) for r in rows}


def hours_table(hours: dict[int, tuple[str, str]]) -> dict[str, str]:
    """{"monday": "06:30-15:00", ..., "sunday": "closed"}"""
    return {
        day: (f"{hours[i][0]}-{hours[i][1]}" if i in hours else "closed") for i, day in enumerate(WEEKDAYS)
    }


def is_open(hours: dict[int, tuple[str, str]], at: datetime) -> bool:
    shift = hours.get(at.weekday())
    return shift is not None and shift[0] <= at.strftime("%H:%M") < shift[1]


def next_opening(hours: dict[int, tuple[str, str]], at: datetime) -> str | None:
    """When the place next opens after ``at`` ("2026-06-01T11:00"), within a week."""
    for days in range(8):
        day = at.date() + timedelta(days=days)
        shift = hours.get(day.weekday())
        if shift is None:
            continue
        opens = datetime.fromisoformat(f"{day.isoformat()}T{shift[0]}")
        if opens > at:
            return opens.isoformat(timespec="minutes")
    return None


def paused_now(r: dict[str, Any], now: datetime) -> bool:
    return r["status"] == "paused" and r["paused_until"] is not None and r["paused_until"] > fmt(now)


def availability(
    db: Db, r: dict[str, Any], hours: dict[int, tuple[str, str]] | None = None, *, week: bool = True
) -> dict:
    """Whether a restaurant takes orders right now, and if not, why and (given the whole ``week``
    of hours) when it next opens; search results carry today's hours only."""
    hours = hours if hours is not None else hours_of(db, r["id"])
    now = db.now
    open_ = is_open(hours, now)
    if r["status"] == "closed":
        state = "closed on the platform"
    elif paused_now(r, now):
        state = f"paused until {r['paused_until']}"
    else:
        state = "open" if open_ else "closed now"
    out = {"open_now": open_, "taking_orders": state == "open", "state": state}
    if week:
        out["next_opening"] = None if open_ else next_opening(hours, now)
    return out


# -- places and distance ---------------------------------------------------------------------------


def leg(a_lat: float, a_lon: float, b_lat: float, b_lon: float, mode: str = "driving") -> dict[str, float]:
    """Road distance and time between two points, exactly as the maps service computes them."""
    return geo.route(a_lat, a_lon, b_lat, b_lon, mode)


def where_to(db: Db, customer: dict[str, Any], address: str | None) -> tuple[str, float, float]:
    """The delivery address: the customer's home, or another address on the map."""
    if address is None or address.strip().casefold() == "home":
        return customer["address"], customer["lat"], customer["lon"]
    found = geo.geocode(address)
    if found is None:
        raise ToolError(
            f"cannot find the address {address!r} on the map: give it like '14 Elm St, Portland' "
            f"(house numbers 1-{geo.HOUSES_PER_STREET}; streets: {', '.join(geo.STREET_NAMES)})"
        )
    return found.line, found.lat, found.lon


def check_range(r: dict[str, Any], line: str, lat: float, lon: float) -> float:
    """The road distance to an address the restaurant delivers to; refused beyond its radius."""
    km = leg(r["lat"], r["lon"], lat, lon)["distance_km"]
    if km > r["radius_km"]:
        raise ToolError(
            f"{r['name']} ({r['id']}, {r['address']}) does not deliver to {line}: it is {km:.2f} km away "
            f"by road and the restaurant delivers within {r['radius_km']:.1f} km"
        )
    return km


# -- money -----------------------------------------------------------------------------------------


def service_fee(subtotal: float) -> float:
    return round(min(SERVICE_MAX, max(SERVICE_MIN, subtotal * SERVICE_RATE)), 2)


def cart_lines(db: Db, customer_id: str) -> list[dict[str, Any]]:
    return db.all("SELECT * FROM cart_items WHERE customer_id = ? ORDER BY id", customer_id)


def subtotal_of(lines: list[dict[str, Any]]) -> float:
    return round(sum(line["unit_price"] * line["quantity"] for line in lines), 2)


def fees(customer: dict[str, Any], r: dict[str, Any], subtotal: float) -> dict[str, float]:
    """Delivery fee (free for Plus members) and service fee for a subtotal."""
    return {
        "delivery_fee": 0.0 if customer["membership"] == "plus" else r["delivery_fee"],
        "service_fee": service_fee(subtotal),
    }


# -- the lifecycle ---------------------------------------------------------------------------------


def log_event(db: Db, order_id: str, status: str, note: str) -> None:
    db.add(OrderEvent, order_id=order_id, status=status, note=note, at=db.stamp())


def order_in(db: Db, order_id: str, allowed: tuple[str, ...], action: str) -> dict[str, Any]:
    """The order, if its status allows ``action``; otherwise an error naming both."""
    o = db.get(Order, order_id)
    if o["status"] not in allowed:
        need = " or ".join(allowed)
        raise ToolError(f"cannot {action} order {order_id}: it is {o['status']}; only {need} orders can")
    return o


def restaurant_of(db: Db, order: dict[str, Any]) -> dict[str, Any]:
    return db.get(Restaurant, order["restaurant_id"])


def minutes_after(start: datetime, minutes: float) -> datetime:
    return start + timedelta(minutes=math.ceil(minutes))


def delivery_eta(db: Db, order: dict[str, Any], r: dict[str, Any], courier: dict[str, Any] | None) -> str:
    """When the food should arrive: ready (prep from acceptance, or now) then the ride, by the
    courier's way of getting there when one is assigned (to the restaurant first if not there)."""
    now = db.now
    mode = "driving" if courier is None else courier_mode(courier)
    if order["status"] in ("ready", "picked_up"):
        ready = now
    else:
        start = datetime.fromisoformat(order["accepted_at"] or fmt(now))
        ready = max(now, minutes_after(start, order["prep_minutes"]))
    pickup = ready
    if courier is not None and order["status"] != "picked_up":
        to_restaurant = leg(courier["lat"], courier["lon"], r["lat"], r["lon"], mode)["duration_min"]
        pickup = max(ready, minutes_after(now, to_restaurant))
    ride = leg(r["lat"], r["lon"], order["lat"], order["lon"], mode)["duration_min"]
    start = now if order["status"] == "picked_up" else pickup
    eta = minutes_after(start, ride + HANDOFF_MINUTES)
    if order["scheduled_for"] and fmt(eta) < order["scheduled_for"]:
        return order["scheduled_for"]
    return fmt(eta)


def courier_mode(courier: dict[str, Any]) -> str:
    """The geo.route mode of a courier's vehicle (bikes cycle, scooters and cars drive)."""
    return ROUTE_MODE[courier["vehicle"]]
