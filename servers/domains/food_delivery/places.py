"""Restaurants: the clock, search, details, menus, and the restaurant-side switches (pause, 86)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, Field

from servers.domains.food_delivery.model import (
    MAX_PAUSE_DAYS,
    Cuisine,
    Customer,
    MenuItem,
    Restaurant,
    food_delivery,
)
from servers.domains.food_delivery.rules import (
    Address,
    AnyCustomer,
    AnyItem,
    AnyRestaurant,
    OpenRestaurant,
    availability,
    fmt,
    hours_of,
    hours_table,
    leg,
    local_moment,
    utc_offset,
)
from servers.kit import City, Db, Moment, Offset, PageSize, ShortText, ToolError, geo, whole_cents

SortBy = Literal["rating", "distance", "delivery_fee", "name"]
Availability = Literal["available", "sold_out"]
Query = Annotated[
    ShortText, Field(examples=["Blue Heron Taqueria", "Saffron", "Pancake House", "Sushi", "Coffee"])
]


@food_delivery.tool(
    says=["what time is it in {city}?", "what's the date and time right now in {city}?"],
)
def get_current_time(db: Db, city: City = "Portland") -> dict:
    """The reference moment as local time in a city, with its time zone and UTC offset.

    The platform runs on each city's local time: opening hours, order times and ETAs are local
    to the restaurant.

    Args:
        city: The city whose local time to show.
    """
    now = db.now
    tz = geo.city(city).timezone
    return {
        "city": city,
        "local_time": now.isoformat(timespec="minutes"),
        "weekday": now.strftime("%A"),
        "timezone": tz,
        "utc_offset": utc_offset(tz, now),
    }


def _origin(db: Db, customer: str | None, near: str | None) -> tuple[str | None, tuple | None]:
    """(city filter, delivery point): from the customer's home, an address, or a city name."""
    if customer is not None:
        c = db.get(Customer, customer)
        return c["city"], (c["address"], c["lat"], c["lon"], c["membership"])
    if near is None:
        return None, None
    found = geo.geocode(near)
    if found is not None:
        return found.city, (found.line, found.lat, found.lon, "none")
    try:
        return geo.city(near.strip()).name, None
    except KeyError:
        raise ToolError(
            f"cannot place {near!r}: give a city ({', '.join(c.name for c in geo.CITIES)}) or a street "
            f"address like '14 Elm St, Portland' (streets: {', '.join(geo.STREET_NAMES)})"
        ) from None


def _card(db: Db, r: dict, hours: dict, point: tuple | None) -> dict:
    """A restaurant as a search result: where, how good, whether it takes orders, what it costs."""
    out = {
        "id": r["id"],
        "name": r["name"],
        "cuisine": r["cuisine"],
        "city": r["city"],
        "address": r["address"],
        "rating": r["rating"],
        "price_level": "$" * r["price_level"],
        "status": r["status"],
        **availability(db, r, hours, week=False),
        "delivery_fee": r["delivery_fee"],
        "min_order": r["min_order"],
        "prep_minutes": r["prep_minutes"],
    }
    if point is not None:
        ride = leg(r["lat"], r["lon"], point[1], point[2])
        out.update(
            distance_km=ride["distance_km"],
            delivers=ride["distance_km"] <= r["radius_km"],
            delivery_fee=0.0 if point[3] == "plus" else r["delivery_fee"],
            estimated_minutes=round(r["prep_minutes"] + ride["duration_min"]),
        )
    return out


@food_delivery.tool(
    returns=Restaurant,
    says=[
        "find {cuisine} restaurants that deliver to {customer}",
        "which {cuisine} places near {near} are open right now?",
        "search for a restaurant called {query}",
        "show {customer} the places that can deliver now, cheapest delivery first",
    ],
)
def search_restaurants(
    db: Db,
    query: Query | None = None,
    near: Address | None = None,
    customer: AnyCustomer | None = None,
    cuisine: Cuisine | None = None,
    open_now: bool = False,
    max_delivery_fee: Annotated[float, Field(ge=0, le=100), AfterValidator(whole_cents)] | None = None,
    sort: SortBy = "rating",
    limit: PageSize = 20,
    offset: Offset = 0,
) -> dict:
    """Find restaurants by name, place, cuisine and whether they take orders right now.

    With ``customer`` (their home) or ``near`` as a street address, only restaurants that deliver
    there are listed, with the road distance and that customer's delivery fee; ``near`` as a
    city lists that city's restaurants. Each result says whether it is open and taking orders
    now; get_restaurant has the week's hours and the next opening.

    Args:
        query: Words of the restaurant's name.
        near: A city or a street address ("14 Elm St, Portland").
        customer: List places that deliver to this customer's home.
        cuisine: Only this cuisine.
        open_now: Only places taking orders at this moment (online and within opening hours).
        max_delivery_fee: Highest delivery fee to allow.
        sort: rating (best first), distance, delivery_fee or name.
        limit: Maximum number of restaurants to return.
        offset: Restaurants to skip, for paging.
    """
    city, point = _origin(db, customer, near)
    sql, params = "SELECT * FROM restaurants WHERE 1", []
    for cond, value in (("city = ?", city), ("cuisine = ?", cuisine)):
        if value is not None:
            sql, params = f"{sql} AND {cond}", [*params, value]
    if query:
        sql, params = f"{sql} AND name LIKE ? ESCAPE '\\'", [*params, f"%{_like(query)}%"]
    rows = db.all(sql + " ORDER BY id", *params)
    hours = _hours_for(db, [r["id"] for r in rows])
    cards = [_card(db, r, hours.get(r["id"], {}), point) for r in rows]
    cards = [
        c
        for c in cards
        if (point is None or c["delivers"])
        and (not open_now or c["taking_orders"])
        and (max_delivery_fee is None or c["delivery_fee"] <= max_delivery_fee)
    ]
    if sort == "distance" and point is None:
        raise ToolError(
            "sorting by distance needs a place to measure from: give customer or a street address"
        )
    key = {
        "rating": lambda c: (-c["rating"], c["id"]),
        "distance": lambda c: (c.get("distance_km", 0), c["id"]),
        "delivery_fee": lambda c: (c["delivery_fee"], -c["rating"], c["id"]),
        "name": lambda c: (c["name"], c["id"]),
    }[sort]
    cards.sort(key=key)
    page = cards[offset : offset + limit]
    out: dict[str, Any] = {"restaurants": page, "total": len(cards), "offset": offset, "limit": limit}
    out["truncated"] = offset + len(page) < len(cards)
    if point is not None:
        out["delivering_to"] = point[0]
    return out


def _like(text: str) -> str:
    return text.strip().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _hours_for(db: Db, ids: list[str]) -> dict[str, dict[int, tuple[str, str]]]:
    """Today's opening hours of many restaurants at once (plain tuples: a search reads hundreds)."""
    out: dict[str, dict[int, tuple[str, str]]] = {i: {} for i in ids}
    day = db.now.weekday()
    for chunk in range(0, len(ids), 500):
        part = ids[chunk : chunk + 500]
        marks = ", ".join("?" for _ in part)
        sql = f"SELECT restaurant_id, opens, closes FROM opening_hours WHERE weekday = ? AND restaurant_id IN ({marks})"
        for rid, opens, closes in db.conn.execute(sql, (day, *part)):
            out[rid][day] = (opens, closes)
    return out


@food_delivery.tool(
    returns=Restaurant,
    says=[
        "what are the opening hours of {restaurant}?",
        "is {restaurant} open right now, and does it deliver to {customer}?",
        "tell me about {restaurant}",
    ],
)
def get_restaurant(db: Db, restaurant: AnyRestaurant, customer: AnyCustomer | None = None) -> dict:
    """A restaurant's address, phone, rating, opening hours (local time, Monday first), delivery
    settings and whether it takes orders now; with ``customer``, the distance to their home, whether
    it delivers there and their delivery fee.

    Args:
        restaurant: The restaurant.
        customer: A customer to measure the delivery to.
    """
    r = db.get(Restaurant, restaurant)
    hours = hours_of(db, restaurant)
    out = {
        **r,
        "price_level": "$" * r["price_level"],
        "hours": hours_table(hours),
        **availability(db, r, hours),
    }
    if customer is not None:
        c = db.get(Customer, customer)
        ride = leg(r["lat"], r["lon"], c["lat"], c["lon"])
        out["delivery_to_customer"] = {
            "customer": c["id"],
            "address": c["address"],
            "distance_km": ride["distance_km"],
            "duration_min": ride["duration_min"],
            "delivers": ride["distance_km"] <= r["radius_km"],
            "delivery_fee": 0.0 if c["membership"] == "plus" else r["delivery_fee"],
        }
    return out


@food_delivery.tool(
    returns=MenuItem,
    says=["show me the menu of {restaurant}", "what can I order from {restaurant}?"],
)
def get_restaurant_menu(
    db: Db, restaurant: AnyRestaurant, section: ShortText | None = None, available_only: bool = False
) -> dict:
    """A restaurant's menu: every item with its section, price, dietary flags, whether it is sold
    out, and its options (sizes: pick one; add-ons: any), plus whether the place takes orders now.

    Args:
        restaurant: The restaurant.
        section: Only this section of the menu (e.g. "Pizza", "Coffee").
        available_only: Leave out sold-out items.
    """
    r = db.get(Restaurant, restaurant)
    items = db.all("SELECT * FROM menu_items WHERE restaurant_id = ? ORDER BY id", restaurant)
    sections = list(dict.fromkeys(i["section"] for i in items))
    if section is not None:
        match = [s for s in sections if s.casefold() == section.strip().casefold()]
        if not match:
            raise ToolError(
                f"{r['name']} ({restaurant}) has no menu section {section!r}; its sections: {', '.join(sections)}"
            )
        items = [i for i in items if i["section"] == match[0]]
    if available_only:
        items = [i for i in items if i["available"]]
    options: dict[str, list[dict]] = {}
    ids = [i["id"] for i in items]
    for chunk in range(0, len(ids), 500):
        part = ids[chunk : chunk + 500]
        marks = ", ".join("?" for _ in part)
        for o in db.all(f"SELECT * FROM item_options WHERE item_id IN ({marks}) ORDER BY id", *part):
            options.setdefault(o["item_id"], []).append(
                {
                    "group": o["group_name"],
                    "choice": o["choice"],
                    "name": o["name"],
                    "price_delta": o["price_delta"],
                }
            )
    # flat: the restaurant's facts first, then one list of items (what answers and lookups read)
    return {
        "restaurant_id": r["id"],
        "restaurant": r["name"],
        "city": r["city"],
        **availability(db, r),
        "sections": ", ".join(sections),
        "items": [{**i, "sold_out": not i["available"], "options": options.get(i["id"], [])} for i in items],
    }


@food_delivery.tool(
    writes=[Restaurant],
    returns=Restaurant,
    idempotent=True,
    says=[
        "set {restaurant} to {status}",
        "switch {restaurant} to {status} until {paused_until}",
        "the kitchen at {restaurant} is swamped, set it to {status}",
    ],
)
def set_restaurant_status(
    db: Db,
    restaurant: OpenRestaurant,
    status: Literal["online", "paused"],
    paused_until: Moment | None = None,
) -> dict:
    """Take a restaurant off the platform for a while (paused) or back online.

    A pause lasts until ``paused_until`` (local time of the restaurant, in the future and at most
    7 days ahead), or to the end of today without one. A paused restaurant takes no orders. A
    restaurant that is closed on the platform cannot be changed here.

    Args:
        restaurant: The restaurant.
        status: online or paused.
        paused_until: When the pause ends, local time.
    """
    r = db.get(Restaurant, restaurant)
    if r["status"] == "closed":
        raise ToolError(
            f"{r['name']} ({restaurant}) is closed on the platform; partner support must reactivate it, "
            "it cannot be set online or paused here"
        )
    if status == "online":
        if paused_until is not None:
            raise ToolError(
                "paused_until only goes with status paused; leave it out to set the restaurant online"
            )
        return _status(db.update(Restaurant, restaurant, status="online", paused_until=None), db)
    now = db.now
    if paused_until is None:
        until = datetime.combine(now.date() + timedelta(days=1), datetime.min.time())
    else:
        until = local_moment(paused_until, r["timezone"])
    if until <= now:
        raise ToolError(f"paused_until {fmt(until)} is not in the future (it is {fmt(now)} in {r['city']})")
    if until > now + timedelta(days=MAX_PAUSE_DAYS):
        raise ToolError(
            f"paused_until {fmt(until)} is more than {MAX_PAUSE_DAYS} days away; pause until "
            f"{fmt(now + timedelta(days=MAX_PAUSE_DAYS))} at the latest"
        )
    return _status(db.update(Restaurant, restaurant, status="paused", paused_until=fmt(until)), db)


def _status(r: dict, db: Db) -> dict:
    return {
        "id": r["id"],
        "name": r["name"],
        "status": r["status"],
        "paused_until": r["paused_until"],
        **availability(db, r),
    }


@food_delivery.tool(
    writes=[MenuItem],
    returns=MenuItem,
    idempotent=True,
    says=["mark {item} as {availability}", "{item} is {availability} now, update the menu"],
)
def set_item_availability(db: Db, item: AnyItem, availability: Availability) -> dict:
    """Mark a menu item sold out (it can no longer be added or ordered) or available again.

    Args:
        item: The menu item.
        availability: available or sold_out.
    """
    row = db.get(MenuItem, item)
    after = db.update(MenuItem, item, available=availability == "available")
    carts = db.scalar("SELECT count(*) FROM cart_items WHERE item_id = ?", item)
    return {
        **after,
        "sold_out": not after["available"],
        "was_available": bool(row["available"]),
        "in_carts": carts,
    }
