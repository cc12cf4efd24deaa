"""Checkout: a customer's cart becomes an order, priced with fees, tip, promo and credit."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from servers.domains.food_delivery.model import (
    HANDOFF_MINUTES,
    MAX_SCHEDULE_DAYS,
    MAX_TIP_SHARE,
    MIN_SCHEDULE_MINUTES,
    CartItem,
    Customer,
    Order,
    OrderEvent,
    OrderItem,
    Promo,
    Restaurant,
    food_delivery,
)
from servers.domains.food_delivery.rules import (
    Address,
    CheckoutCustomer,
    Tip,
    UsablePromo,
    cart_lines,
    check_range,
    fees,
    fmt,
    hours_of,
    hours_table,
    is_open,
    leg,
    local_moment,
    log_event,
    minutes_after,
    next_opening,
    paused_now,
    subtotal_of,
    where_to,
)
from servers.kit import WEEKDAYS, Db, Moment, ToolError


def _when(db: Db, r: dict[str, Any], scheduled_for: str | None) -> datetime | None:
    """The local time the order is for (None: as soon as possible), if the restaurant takes it:
    on the platform, not paused then, and open now or at the scheduled time."""
    now, hours = db.now, hours_of(db, r["id"])
    if r["status"] == "closed":
        raise ToolError(f"{r['name']} ({r['id']}) is closed on the platform and takes no orders")
    if scheduled_for is None:
        if paused_now(r, now):
            raise ToolError(
                f"{r['name']} ({r['id']}) has paused new orders until {r['paused_until']}; schedule the "
                "order for after that with scheduled_for, or order elsewhere"
            )
        if not is_open(hours, now):
            today = hours_table(hours)[WEEKDAYS[now.weekday()]]
            raise ToolError(
                f"{r['name']} ({r['id']}) is closed now ({now.strftime('%A %H:%M')} in {r['city']}; hours "
                f"today: {today}; next opening {next_opening(hours, now) or 'not within a week'}); "
                "schedule the order within its hours with scheduled_for, or pick a place that is open"
            )
        return None
    at = local_moment(scheduled_for, r["timezone"])
    if at < now + timedelta(minutes=MIN_SCHEDULE_MINUTES):
        raise ToolError(
            f"scheduled_for {fmt(at)} must be at least {MIN_SCHEDULE_MINUTES} minutes from now ({fmt(now)} "
            f"in {r['city']}); leave it out to order for as soon as possible"
        )
    if at > now + timedelta(days=MAX_SCHEDULE_DAYS):
        raise ToolError(
            f"orders can be scheduled at most {MAX_SCHEDULE_DAYS} days ahead; {fmt(at)} is too far"
        )
    if not is_open(hours, at):
        day = hours_table(hours)[WEEKDAYS[at.weekday()]]
        raise ToolError(
            f"{r['name']} ({r['id']}) is not open at {fmt(at)} ({at.strftime('%A')} hours: {day}); "
            "schedule within its opening hours"
        )
    if paused_now(r, at):
        raise ToolError(f"{r['name']} ({r['id']}) is paused until {r['paused_until']}; schedule after that")
    return at


def _promo(
    db: Db, code: str, customer: dict[str, Any], subtotal: float, delivery_fee: float
) -> tuple[str, float]:
    """The promo's code and its discount, after every condition of the code."""
    p = db.find(Promo, code.strip().upper())
    if p is None:
        raise ToolError(f"promo code {code!r} does not exist")
    today = db.today.isoformat()
    if p["expires_on"] < today:
        raise ToolError(f"promo code {p['id']} expired on {p['expires_on']}")
    if p["max_uses"] is not None and p["uses"] >= p["max_uses"]:
        raise ToolError(f"promo code {p['id']} has been used up ({p['uses']} of {p['max_uses']} uses)")
    past = db.all(
        "SELECT id, promo_code FROM orders WHERE customer_id = ? AND status NOT IN ('cancelled', 'rejected') ORDER BY id",
        customer["id"],
    )
    if p["first_order_only"] and past:
        raise ToolError(
            f"promo code {p['id']} is for a first order only; {customer['id']} already has {len(past)} orders"
        )
    used = next((o["id"] for o in past if o["promo_code"] == p["id"]), None)
    if used is not None:
        raise ToolError(
            f"{customer['id']} already used promo code {p['id']} on order {used}; each code works once"
        )
    if subtotal < p["min_subtotal"]:
        raise ToolError(
            f"promo code {p['id']} needs a subtotal of at least {p['min_subtotal']:.2f}; the cart comes to {subtotal:.2f}"
        )
    if p["kind"] == "free_delivery":
        if delivery_fee == 0:
            raise ToolError(f"promo code {p['id']} gives free delivery, which this order already has")
        return p["id"], delivery_fee
    if p["kind"] == "percent":
        return p["id"], round(subtotal * p["value"] / 100, 2)
    return p["id"], round(min(p["value"], subtotal), 2)


def _checked_cart(db: Db, customer: dict[str, Any]) -> tuple[list[dict], dict[str, Any]]:
    lines = cart_lines(db, customer["id"])
    if not lines:
        raise ToolError(f"the cart of {customer['id']} is empty; add items with add_to_cart first")
    r = db.get(Restaurant, lines[0]["restaurant_id"])
    marks = ", ".join("?" for _ in lines)
    gone = db.all(
        f"SELECT id, name FROM menu_items WHERE available = 0 AND id IN ({marks})",
        *[x["item_id"] for x in lines],
    )
    if gone:
        names = ", ".join(f"{g['name']} ({g['id']})" for g in gone)
        raise ToolError(f"sold out since it was added: {names}; remove it from the cart to order the rest")
    return lines, r


@food_delivery.tool(
    writes=[Order, OrderItem, OrderEvent, CartItem, Promo, Customer],
    returns=Order,
    needs=[CartItem],
    says=[
        "check out {customer}'s cart with a {tip} tip",
        "place the order in the cart of {customer}, tip {tip}, promo code {promo_code}",
        "order what's in {customer}'s cart for {scheduled_for}",
    ],
)
def place_order(
    db: Db,
    customer: CheckoutCustomer,
    tip: Tip = 0.0,
    promo_code: UsablePromo | None = None,
    address: Address | None = None,
    scheduled_for: Moment | None = None,
) -> dict:
    """Check out a customer's cart: the order is charged (platform credit first, then the card on
    file) and sent to the restaurant.

    The restaurant must be online, not paused, and open now, or open at ``scheduled_for`` (local
    time, 30 minutes to 7 days ahead). The address (the customer's home unless given) must be within
    the restaurant's delivery radius by road, the subtotal at least its minimum order, the tip at
    most half the subtotal. Plus members pay no delivery fee. The service fee is 8% of the subtotal
    (1.00 to 8.00).

    Args:
        customer: Whose cart to check out.
        tip: Tip for the courier, in dollars.
        promo_code: A promo code to apply.
        address: Deliver somewhere other than home ("14 Elm St, Portland").
        scheduled_for: Deliver at this local time instead of as soon as possible.
    """
    c = db.get(Customer, customer)
    lines, r = _checked_cart(db, c)
    at = _when(db, r, scheduled_for)
    line, lat, lon = where_to(db, c, address)
    km = check_range(r, line, lat, lon)
    subtotal = subtotal_of(lines)
    if subtotal < r["min_order"]:
        raise ToolError(
            f"{r['name']} has a minimum order of {r['min_order']:.2f}; the cart comes to {subtotal:.2f} "
            f"({r['min_order'] - subtotal:.2f} short)"
        )
    if tip > round(subtotal * MAX_TIP_SHARE, 2):
        raise ToolError(
            f"a tip can be at most half the subtotal: {round(subtotal * MAX_TIP_SHARE, 2):.2f}, not {tip:.2f}"
        )
    f = fees(c, r, subtotal)
    code, discount = _promo(db, promo_code, c, subtotal, f["delivery_fee"]) if promo_code else (None, 0.0)
    total = round(subtotal + f["delivery_fee"] + f["service_fee"] + tip - discount, 2)
    money = {"subtotal": subtotal, **f, "tip": tip, "discount": discount, "promo_code": code, "total": total}
    return _record(db, c, r, lines, money, (line, lat, lon, km), at)


def _record(
    db: Db,
    c: dict[str, Any],
    r: dict[str, Any],
    lines: list[dict],
    money: dict[str, Any],
    where: tuple[str, float, float, float],
    at: datetime | None,
) -> dict:
    """Write the checked order: the order and its items, the emptied cart, the promo's use, the
    credit spent and the first tracking event."""
    line, lat, lon, km = where
    now = db.now
    credit = round(min(c["credit"], money["total"]), 2)
    ride = leg(r["lat"], r["lon"], lat, lon)["duration_min"]
    eta = fmt(at) if at else fmt(minutes_after(now, r["prep_minutes"] + ride + HANDOFF_MINUTES))
    order = db.insert(
        Order,
        label=f"{r['name']}, {now.strftime('%b')} {now.day} {now.strftime('%H:%M')}",
        customer_id=c["id"],
        restaurant_id=r["id"],
        courier_id=None,
        status="placed",
        **money,
        credit_applied=credit,
        card_charged=round(money["total"] - credit, 2),
        refunded=0.0,
        address=line,
        lat=lat,
        lon=lon,
        distance_km=km,
        placed_at=db.stamp(),
        scheduled_for=fmt(at) if at else None,
        prep_minutes=r["prep_minutes"],
        eta=eta,
        cancel_fee=0.0,
    )
    for x in lines:
        keep = ("item_id", "name", "options", "unit_price", "quantity", "note")
        db.add(OrderItem, order_id=order["id"], **{k: x[k] for k in keep})
        db.delete(CartItem, x["id"])
    if money["promo_code"]:
        db.execute("UPDATE promos SET uses = uses + 1 WHERE id = ?", money["promo_code"])
    if credit:
        db.update(Customer, c["id"], credit=round(c["credit"] - credit, 2))
    when = f"scheduled for {fmt(at)}" if at else f"ETA {eta}"
    log_event(db, order["id"], "placed", f"placed with {r['name']}, {when}")
    items = db.all("SELECT * FROM order_items WHERE order_id = ? ORDER BY id", order["id"])
    return {**order, "items": items}
