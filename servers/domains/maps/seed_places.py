"""Places and reviews: the world's restaurants and merchants, then generated places of every other
category at grid addresses, so each city has a full set of pharmacies, chargers, parks..."""

from __future__ import annotations

import math
import re
from collections.abc import Callable

from servers.domains.maps.model import MERCHANT_CATEGORY, SEARCH_WORDS, WEEKDAYS
from servers.kit import Seeder, geo

# generated categories -> name endings; a name is "<word> <ending>"
GENERATED: dict[str, tuple[str, ...]] = {
    "bar": ("Tavern", "Taproom", "Pub", "Lounge"),
    "grocery": ("Market", "Grocery", "Fresh Foods", "Co-op"),
    "pharmacy": ("Pharmacy", "Drug", "Apothecary"),
    "hospital": ("Medical Center", "General Hospital", "Community Hospital", "Urgent Care"),
    "gas_station": ("Fuel", "Gas", "Service Station", "Petro"),
    "ev_charger": ("EV Charging", "Charge Hub", "Fast Charge", "Supercharger"),
    "parking": ("Parking Garage", "Park & Ride", "Parking Lot", "Garage"),
    "hotel": ("Hotel", "Inn", "Suites", "Lodge"),
    "museum": ("Museum of Art", "History Museum", "Science Center", "Gallery"),
    "park": ("Park", "Gardens", "Commons", "Nature Reserve"),
    "gym": ("Fitness", "Athletic Club", "Gym", "Climbing Gym"),
    "bank": ("Bank", "Credit Union", "Savings Bank", "Trust"),
    "tire_shop": ("Tire & Wheel", "Tires", "Tire Center", "Tire Pros"),
    "car_repair": ("Auto Repair", "Auto Care", "Motors Service", "Car Clinic"),
}
WORDS = (
    "Riverside",
    "Summit",
    "Northgate",
    "Lakeside",
    "Greenway",
    "Ironwood",
    "Beacon",
    "Hillcrest",
    "Cascade",
    "Meridian",
    "Pioneer",
    "Union",
    "Liberty",
    "Heritage",
    "Oakridge",
    "Brookside",
    "Evergreen",
    "Westgate",
    "Eastside",
    "Central",
    "Sunset",
    "Highland",
    "Crescent",
    "Orchard",
    "Fairview",
    "Granite",
    "Redwood",
    "Bayside",
    "Foxglove",
    "Kingfisher",
)
ALL_DAY = "00:00-24:00"
# category -> weekday hours, weekend hours, and the share of places closed on Mondays
HOURS: dict[str, tuple[tuple[str, ...], tuple[str, ...], float]] = {
    "bar": (("16:00-02:00", "17:00-01:00"), ("12:00-02:00",), 0.3),
    "grocery": (("07:00-22:00", "06:00-23:00", "08:00-21:00"), ("08:00-21:00",), 0.0),
    "pharmacy": (("08:00-21:00", "09:00-19:00", ALL_DAY), ("10:00-18:00",), 0.0),
    "hospital": ((ALL_DAY,), (ALL_DAY,), 0.0),
    "gas_station": (("05:00-23:00", ALL_DAY), ("06:00-23:00",), 0.0),
    "ev_charger": ((ALL_DAY,), (ALL_DAY,), 0.0),
    "parking": ((ALL_DAY, "06:00-23:00"), (ALL_DAY,), 0.0),
    "hotel": ((ALL_DAY,), (ALL_DAY,), 0.0),
    "museum": (("10:00-17:00", "09:00-18:00"), ("10:00-18:00",), 0.5),
    "park": (("06:00-22:00", "05:00-23:00"), ("06:00-22:00",), 0.0),
    "gym": (("05:00-23:00", "06:00-22:00"), ("07:00-21:00",), 0.0),
    "bank": (("09:30-17:00", "09:00-17:00", "10:00-16:00"), ("09:00-13:00", "closed"), 0.0),
    "tire_shop": (("08:00-18:00", "07:30-17:30"), ("09:00-15:00", "closed"), 0.1),
    "car_repair": (("08:00-18:00", "07:00-17:00"), ("09:00-14:00", "closed"), 0.1),
    "book_store": (("10:00-20:00",), ("10:00-18:00",), 0.0),
    "clothing_store": (("10:00-21:00",), ("10:00-19:00",), 0.0),
    "electronics_store": (("10:00-20:00",), ("10:00-19:00",), 0.0),
    "transit_station": (("04:30-01:00",), ("05:30-01:00",), 0.0),
    "utility_office": (("08:30-17:00",), ("closed",), 0.0),
}
PRICED = {
    "bar": (1, 2, 2, 3),
    "hotel": (1, 2, 3, 3, 4),
    "gym": (1, 2, 2, 3),
    "museum": (1, 2),
    "grocery": (1, 2, 2, 3),
}
REVIEW_TEXT = {
    5: (
        "Wonderful, will be back.",
        "Best {what} in {city}.",
        "Friendly staff and spotless.",
        "Could not ask for more.",
    ),
    4: ("Very good overall.", "Solid {what}, a little busy at peak times.", "Nice place, fair prices."),
    3: ("It was fine.", "Average {what}; nothing special.", "Okay, but the wait was long."),
    2: ("Disappointing visit.", "Not the {what} it used to be.", "Slow service and a bit run down."),
    1: ("Would not go again.", "Closed when it said open.", "Rude staff, avoid."),
}


def _hours_row(s: Seeder, category: str) -> dict[str, str]:
    weekday, weekend, monday_off = HOURS[category]
    week, end = s.pick(list(weekday)), s.pick(list(weekend))
    rows = {f"hours_{d}": (week if i < 5 else end) for i, d in enumerate(WEEKDAYS)}
    if s.chance(monday_off):
        rows["hours_mon"] = "closed"
    return rows


def _shift_text(shift: tuple[str, str] | None) -> str:
    return "closed" if shift is None else f"{shift[0]}-{shift[1]}"


class PlaceRows:
    """Collects place rows and the addresses they stand at (the address index is built from them)."""

    def __init__(self, s: Seeder, city_ids: dict[str, str], address_id: Callable[[geo.Address], str]) -> None:
        self.s, self.city_ids, self.address_id = s, city_ids, address_id
        self.rows: list[dict] = []
        self.names: set[str] = set()

    def add(self, name: str, category: str, where: geo.Address, **extra: object) -> dict:
        s = self.s
        row = {
            "id": f"PLC-{len(self.rows) + 1:06d}",
            "name": name,
            "category": category,
            "cuisine": None,
            "city_id": self.city_ids[where.city],
            "address_id": self.address_id(where),
            "address": where.line,
            "lat": where.lat,
            "lon": where.lon,
            "rating": round(s.rng.triangular(2.5, 5.0, 4.2), 1),
            "review_count": s.rng.randint(3, 1800),
            "price_level": s.pick(list(PRICED[category])) if category in PRICED else None,
            "phone": f"+1-{s.rng.randint(201, 989)}-555-{s.rng.randint(0, 9999):04d}",
            "accessible": s.chance(0.8),
            "business_status": "operational",
            "merchant_index": None,
            "restaurant_index": None,
        }
        if category in HOURS:
            row.update(_hours_row(s, category))
        row.update(extra)
        row["prominence"] = round(row["rating"] * math.log10(row["review_count"] + 10), 4)
        self.rows.append(row)
        self.names.add(name.casefold())
        return row


def seed_world_places(places: PlaceRows) -> None:
    """The world's restaurants (with their own ratings and hours), then its other merchants."""
    world = places.s.world
    for r in world.restaurants:
        places.add(
            r.name,
            "cafe" if r.cuisine == "cafe" else "restaurant",
            r.address,
            cuisine=r.cuisine,
            rating=r.rating,
            review_count=r.review_count,
            price_level=r.price_level,
            phone=r.phone,
            merchant_index=r.merchant,
            restaurant_index=r.index,
            **{f"hours_{d}": _shift_text(r.hours[i]) for i, d in enumerate(WEEKDAYS)},
        )
    for m in world.merchants:
        if m.category in ("restaurant", "coffee"):
            continue  # already there as a restaurant, at the same address
        places.add(m.name, MERCHANT_CATEGORY[m.category], m.address, merchant_index=m.index)


def seed_generated_places(places: PlaceRows, per_city: int) -> None:
    """``per_city`` places of each generated category in every city; a few closed for good or for
    now. Names are unique on the whole map (a branch takes its street's name)."""
    s = places.s
    for c in geo.CITIES:
        for category, endings in GENERATED.items():
            for _ in range(per_city):
                where = geo.address(c.name, s.rng.randrange(len(geo.STREET_NAMES)), s.rng.randint(1, 400))
                name = f"{s.pick(list(WORDS))} {s.pick(list(endings))}"
                for candidate in (name, f"{name} {where.street}", f"{name} {where.street} {where.number}"):
                    if candidate.casefold() not in places.names:
                        name = candidate
                        break
                else:
                    continue
                roll = s.rng.random()
                status = (
                    "closed_permanently"
                    if roll < 0.02
                    else "closed_temporarily"
                    if roll < 0.05
                    else "operational"
                )
                places.add(name, category, where, business_status=status)


def review_rows(s: Seeder, places: list[dict], city_names: dict[str, str], per_place: int) -> list[dict]:
    """Recent reviews by world people (at least one a place); the persona wrote a few about places
    in her city."""
    people = s.world.people
    persona = s.world.persona
    out: list[dict] = []
    home_city = next(k for k, v in city_names.items() if v == persona.city)
    mine = [p for p in places if p["city_id"] == home_city and p["business_status"] == "operational"][::97][
        :6
    ]
    mine_ids = {p["id"] for p in mine}
    for p in places:
        n = s.rng.randint(1, 2 * per_place - 1)  # every place on the map has been reviewed
        authors = [persona] if p["id"] in mine_ids else []
        authors += [people[s.rng.randrange(1, len(people))] for _ in range(n)]
        what = p["cuisine"] or p["category"].replace("_", " ")
        for author in authors:
            stars = max(1, min(5, round(s.rng.gauss(p["rating"], 0.8))))
            text = s.pick(list(REVIEW_TEXT[stars])).format(what=what, city=city_names[p["city_id"]])
            out.append(
                {
                    "place_id": p["id"],
                    "author": author.name,
                    "rating": stars,
                    "text": text,
                    "at": s.moment_offset(-400, -1),
                }
            )
    out.sort(key=lambda r: (r["at"], r["place_id"]))
    for i, r in enumerate(out, 1):
        r["id"] = f"REV-{i:06d}"
    return out


def terms_of(place: dict) -> list[str]:
    """The words a place is found by, sorted: its name's, its category's and cuisine's, and theirs."""
    words = set(re.findall(r"[a-z0-9']+", place["name"].casefold()))
    for kind in (place["category"], place["cuisine"]):
        if kind:
            words.add(kind)
            words.update(kind.split("_"))
            words.update(SEARCH_WORDS.get(kind, ()))
    return sorted(w for w in words if len(w) >= 2)


def term_rows(places: list[dict]) -> list[dict]:
    out = []
    for p in places:
        for term in terms_of(p):
            out.append({"id": f"PTM-{len(out) + 1:06d}", "term": term, "place_id": p["id"]})
    return out
