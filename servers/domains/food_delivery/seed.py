"""The seeded platform: the world's restaurants with menus and delivery settings, customers at
their homes, couriers and promo codes (orders and carts: ``seed_orders``)."""

from __future__ import annotations

from datetime import timedelta

from servers.domains.food_delivery.model import (
    Customer,
    ItemOption,
    MenuItem,
    OpeningHours,
    Promo,
    Restaurant,
    food_delivery,
)
from servers.domains.food_delivery.seed_menu import DESCRIPTIONS, MENUS, PRICE_SCALE
from servers.domains.food_delivery.seed_orders import seed_orders
from servers.kit import WEEKDAYS, Seeder, geo
from servers.kit.db import format_id

RADII = (3.0, 4.0, 5.0, 5.0, 6.0, 6.0, 8.0)
MIN_ORDERS = (0.0, 10.0, 10.0, 12.0, 15.0, 15.0, 20.0)
FEES = (0.99, 1.49, 1.99, 2.49, 2.99, 3.49, 3.99, 4.99, 5.99)
# (code, description, kind, value, min subtotal, expires on, first order only, max uses)
PROMOS = (
    ("WELCOME5", "$5 off your first order", "amount", 5.0, 15.0, "2026-12-31", True, None),
    ("FIRSTBITE", "20% off your first order", "percent", 20.0, 20.0, "2026-09-30", True, None),
    ("FREEDEL", "Free delivery on orders over $20", "free_delivery", 0.0, 20.0, "2026-07-31", False, None),
    ("SAVE10", "10% off orders over $25", "percent", 10.0, 25.0, "2026-08-31", False, None),
    ("LUNCH15", "15% off orders over $30", "percent", 15.0, 30.0, "2026-06-30", False, 20_000),
    ("TAKE3", "$3 off any order", "amount", 3.0, 12.0, "2026-06-15", False, None),
    ("BIGORDER", "$10 off orders over $60", "amount", 10.0, 60.0, "2026-10-31", False, None),
    ("JUNE20", "20% off in June", "percent", 20.0, 25.0, "2026-06-30", False, 5000),
    ("SUMMER5", "$5 off orders over $30", "amount", 5.0, 30.0, "2026-08-31", False, None),
    ("COFFEE2", "$2 off orders over $8", "amount", 2.0, 8.0, "2026-07-15", False, None),
    ("BRUNCH10", "10% off orders over $20", "percent", 10.0, 20.0, "2026-07-31", False, None),
    ("DELIVERFREE", "Free delivery, no minimum", "free_delivery", 0.0, 0.0, "2026-06-07", False, 3000),
    ("FAMILY8", "$8 off orders over $50", "amount", 8.0, 50.0, "2026-09-30", False, None),
    ("MIDWEEK", "12% off orders over $18", "percent", 12.0, 18.0, "2026-07-31", False, None),
    ("STUDENT15", "15% off orders over $15", "percent", 15.0, 15.0, "2026-12-31", False, 10_000),
    ("TREAT4", "$4 off orders over $20", "amount", 4.0, 20.0, "2026-06-30", False, None),
    ("NEWCITY", "Free delivery on orders over $15", "free_delivery", 0.0, 15.0, "2026-08-15", False, None),
    ("DINNER12", "$12 off orders over $70", "amount", 12.0, 70.0, "2026-11-30", False, None),
    ("HELLO25", "25% off your first order", "percent", 25.0, 25.0, "2026-12-31", True, None),
    ("TEAMLUNCH", "10% off orders over $40", "percent", 10.0, 40.0, "2026-09-30", False, None),
    ("FLASH50", "50% off, first 200 orders", "percent", 50.0, 20.0, "2026-06-30", False, 200),
    ("TWOFREE", "Free delivery on orders over $25", "free_delivery", 0.0, 25.0, "2026-06-20", False, None),
    ("SPRING10", "10% off orders over $20", "percent", 10.0, 20.0, "2026-05-31", False, None),
    ("MAYDAY5", "$5 off orders over $25", "amount", 5.0, 25.0, "2026-05-15", False, None),
    ("EASTER15", "15% off orders over $30", "percent", 15.0, 30.0, "2026-04-06", False, None),
    ("WINTER20", "20% off orders over $35", "percent", 20.0, 35.0, "2026-02-28", False, None),
    ("NEWYEAR", "$6 off orders over $30", "amount", 6.0, 30.0, "2026-01-15", False, None),
    ("SNOWDAY", "Free delivery on orders over $15", "free_delivery", 0.0, 15.0, "2026-03-01", False, None),
    ("MARCH12", "12% off orders over $20", "percent", 12.0, 20.0, "2026-03-31", False, None),
    ("APRIL3", "$3 off orders over $15", "amount", 3.0, 15.0, "2026-04-30", False, None),
)


@food_delivery.seed
def fill(s: Seeder) -> None:
    restaurants = _seed_restaurants(s)
    items = _seed_menus(s, restaurants)
    customers = _seed_customers(s)
    couriers = _seed_couriers(s)
    promos = [
        dict(zip(("id", "description", "kind", "value", "min_subtotal", "expires_on"), p[:6], strict=True))
        | {"first_order_only": p[6], "max_uses": p[7], "uses": 0}
        for p in PROMOS
    ]
    seed_orders(s, restaurants, items, customers, couriers, promos)
    s.add(Promo, promos)


def _seed_restaurants(s: Seeder) -> list[dict]:
    """Every world restaurant, with the same name, address, rating, hours and phone, plus the
    platform's settings. The world's list is the same at every scale, and so are these."""
    rows, hours = [], []
    for r in s.world.restaurants:
        rid = format_id("RST", r.index + 1)
        roll = s.rng.random()
        status = "online" if roll < 0.8 else "paused" if roll < 0.88 else "closed"
        paused_until = None
        if status == "paused":
            later = s.now + timedelta(hours=s.rng.randint(1, 5)) if s.chance(0.6) else None
            later = later or s.now + timedelta(days=s.rng.randint(1, 3), hours=s.rng.randint(0, 6))
            paused_until = later.replace(minute=0).isoformat(timespec="seconds")
        rows.append(
            {
                "id": rid,
                "name": r.name,
                "label": f"{r.name}, {r.city}",
                "cuisine": r.cuisine,
                "city": r.city,
                "address": r.address.line,
                "postal_code": r.address.postal_code,
                "lat": r.address.lat,
                "lon": r.address.lon,
                "phone": r.phone,
                "rating": r.rating,
                "review_count": r.review_count,
                "price_level": r.price_level,
                "timezone": geo.city(r.city).timezone,
                "status": status,
                "paused_until": paused_until,
                "prep_minutes": s.rng.choice((10, 12, 15, 15, 20, 20, 25, 30)),
                "radius_km": s.pick(RADII),
                "min_order": s.pick(MIN_ORDERS),
                "delivery_fee": s.pick(FEES),
            }
        )
        rows[-1]["hours"] = {day: shift for day, shift in enumerate(r.hours) if shift is not None}
        for day, shift in enumerate(r.hours):
            if shift is not None:
                hours.append(
                    {
                        "id": format_id("HRS", len(hours) + 1),
                        "restaurant_id": rid,
                        "weekday": day,
                        "day": WEEKDAYS[day],
                        "opens": shift[0],
                        "closes": shift[1],
                    }
                )
    s.add(Restaurant, [{k: v for k, v in r.items() if k != "hours"} for r in rows])
    s.add(OpeningHours, hours)
    return rows


def _seed_menus(s: Seeder, restaurants: list[dict]) -> dict[str, list[dict]]:
    """Most of the cuisine's dishes at each restaurant, priced by its price level; 6% sold out."""
    items, options, by_restaurant = [], [], {}
    for r in restaurants:
        scale = PRICE_SCALE[r["price_level"]]
        mine = by_restaurant.setdefault(r["id"], [])
        for section, (dishes, groups) in MENUS[r["cuisine"]].items():
            chosen = [d for d in dishes if s.chance(0.85)] or [dishes[0]]
            for name, base, flags in chosen:
                marks = flags.split()
                item = {
                    "id": format_id("ITM", len(items) + 1),
                    "restaurant_id": r["id"],
                    "name": name,
                    "section": section,
                    "description": ", ".join(DESCRIPTIONS[m] for m in marks).capitalize() or "House recipe",
                    "price": round(round(base * scale * s.rng.uniform(0.95, 1.1) * 4) / 4, 2),
                    "available": not s.chance(0.06),
                    "vegetarian": "v" in marks or "vg" in marks,
                    "vegan": "vg" in marks,
                    "gluten_free": "gf" in marks,
                    "spicy": "s" in marks,
                }
                item["options"] = [
                    {"group_name": group, "choice": choice, "name": opt, "price_delta": delta}
                    for group, choice, picks in groups
                    for opt, delta in picks
                ]
                items.append(item)
                mine.append(item)
                for o in item["options"]:
                    options.append({"id": format_id("OPT", len(options) + 1), "item_id": item["id"], **o})
    s.add(MenuItem, [{k: v for k, v in i.items() if k != "options"} for i in items])
    s.add(ItemOption, options)
    return by_restaurant


def _seed_customers(s: Seeder) -> list[dict]:
    """The first people of the world, at their home addresses (the persona is CUS-000001)."""
    people = s.world.pick_people(min(s.count(small=80, medium=2000, large=10_000), len(s.world.people)))
    rows = []
    for i, p in enumerate(people):
        home = p.home
        rows.append(
            {
                "id": format_id("CUS", i + 1),
                "person_id": p.index,
                "name": p.name,
                "email": p.email,
                "phone": p.phone,
                "city": p.city,
                "address": home.line,
                "postal_code": home.postal_code,
                "lat": home.lat,
                "lon": home.lon,
                "membership": "none" if i == 0 else ("plus" if s.chance(0.25) else "none"),
                "credit": 0.0 if i == 0 or not s.chance(0.2) else float(s.pick([5, 10, 10, 15, 20, 25])),
                "card_last4": f"{s.rng.randint(0, 9999):04d}",
                "joined_on": s.day_offset(-1500, -30),
            }
        )
    s.add(Customer, rows)
    return rows


def _seed_couriers(s: Seeder) -> list[dict]:
    """Couriers are world people from the back half of the world, each working in their home city;
    which of them are busy is decided by the orders in flight."""
    people = s.world.people
    n = s.count(small=60, medium=1500, large=6000)
    start = len(people) - n
    rows = []
    for i, p in enumerate(people[start:]):
        spot = geo.address(
            p.city, s.rng.randrange(len(geo.STREET_NAMES)), s.rng.randint(1, geo.HOUSES_PER_STREET)
        )
        rows.append(
            {
                "id": format_id("CUR", i + 1),
                "name": p.name,
                "phone": p.phone,
                "vehicle": s.pick(["bike", "bike", "scooter", "car", "car"]),
                "city": p.city,
                "status": "offline" if s.chance(0.25) else "available",
                "lat": spot.lat,
                "lon": spot.lon,
                "rating": round(s.rng.uniform(4.3, 5.0), 2),
                "deliveries": s.rng.randint(5, 3000),
            }
        )
    return rows
