"""The shared world's restaurants: one list that food delivery, maps and budgeting all see.

"Order from Blue Heron Taqueria" and "how far is Blue Heron Taqueria" must be about the same place,
at the same address, with the same opening hours, or a cross-domain task contradicts itself. So
the restaurants live here, generated from the world's seed alone: the world's eating merchants
(the names that appear on bank statements) come first, then more places until every city has
``PER_CITY``. The list is the same at every scale, like the merchants.

Hours are local wall-clock times per weekday (Monday first). At the reference moment, Monday
09:00, breakfast places and cafés are open and dinner places are not, which is what makes
"open now" a real filter.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from servers.kit import geo
from servers.kit.geo import CITIES, STREET_NAMES, Address

PER_CITY = 40
# cuisine -> name endings; a name is "<word> <ending>"
CUISINES: dict[str, tuple[str, ...]] = {
    "american": ("Grill", "Diner", "Kitchen", "Burger Bar"),
    "italian": ("Trattoria", "Pizzeria", "Osteria"),
    "mexican": ("Taqueria", "Cantina"),
    "chinese": ("Noodle House", "Dumpling Bar"),
    "japanese": ("Sushi", "Ramen Bar"),
    "indian": ("Curry House", "Tandoor"),
    "thai": ("Thai Kitchen", "Street Kitchen"),
    "mediterranean": ("Mezze", "Falafel"),
    "breakfast": ("Pancake House", "Bakery"),
    "cafe": ("Coffee", "Espresso Bar", "Roasters"),
}
# how the world's merchant names end -> the cuisine that name means
_MERCHANT_CUISINE = {
    "Kitchen": "american",
    "Grill": "american",
    "Bistro": "mediterranean",
    "Noodle House": "chinese",
    "Taqueria": "mexican",
    "Pizzeria": "italian",
}
_WORDS = (
    "Blue Door",
    "Saffron",
    "Lucky Cat",
    "Olive Branch",
    "Little Owl",
    "Brick Oven",
    "Cardamom",
    "Fig Tree",
    "Corner Table",
    "Salt & Pepper",
    "Half Moon",
    "Sesame",
    "Wildflower",
    "Tidewater",
    "Ember",
    "Basil Leaf",
    "Morning Glory",
    "Red Barn",
    "Copper Pot",
    "Crooked Spoon",
)
# opening hours by kind of place: (open, close) local, or None on a closed day
_SHIFTS = {
    "breakfast": ("06:30", "15:00"),
    "all_day": ("08:00", "21:00"),
    "lunch_dinner": ("11:00", "22:00"),
    "dinner": ("17:00", "23:00"),
}
_KIND_BY_CUISINE = {"breakfast": "breakfast", "cafe": "breakfast"}

Hours = tuple[tuple[str, str] | None, ...]


@dataclass(frozen=True)
class Restaurant:
    index: int
    name: str
    cuisine: str
    city: str
    address: Address
    rating: float  # 1.0-5.0, one decimal
    review_count: int
    price_level: int  # 1 ($) .. 4 ($$$$)
    hours: Hours  # seven entries, Monday first
    phone: str
    merchant: int | None  # index in World.merchants when the place is one of them

    def open_at(self, weekday: int, hhmm: str) -> bool:
        """Whether the place is open at a local weekday (0 = Monday) and time ``"HH:MM"``."""
        shift = self.hours[weekday % 7]
        return shift is not None and shift[0] <= hhmm < shift[1]


def merchant_address(index: int, city_name: str) -> Address:
    """Where world merchant ``index`` is: fixed by its index, so no generator order can move it."""
    return geo.address(city_name, (index * 5) % len(STREET_NAMES), 1 + (index * 131) % geo.HOUSES_PER_STREET)


def _hours(rng: random.Random, cuisine: str) -> Hours:
    kind = _KIND_BY_CUISINE.get(cuisine) or rng.choice(("all_day", "lunch_dinner", "lunch_dinner", "dinner"))
    shift = _SHIFTS[kind]
    closed = rng.choice((None, None, 0, 6))  # some close on Mondays or Sundays
    return tuple(None if day == closed else shift for day in range(7))


def _place(
    rng: random.Random, index: int, name: str, cuisine: str, city: str, address: Address
) -> Restaurant:
    return Restaurant(
        index=index,
        name=name,
        cuisine=cuisine,
        city=city,
        address=address,
        rating=round(rng.triangular(2.8, 5.0, 4.4), 1),
        review_count=rng.randint(5, 2500),
        price_level=rng.choice((1, 2, 2, 2, 3, 3, 4)),
        hours=_hours(rng, cuisine),
        phone=f"+1-{rng.randint(201, 989)}-555-{rng.randint(0, 9999):04d}",
        merchant=None,
    )


def build(seed: int, merchants: tuple) -> tuple[Restaurant, ...]:
    """The world's restaurants: its eating merchants, then generated places, ``PER_CITY`` a city."""
    rng = random.Random(f"world:restaurants:{seed}")
    out: list[Restaurant] = []
    taken: set[tuple[str, str]] = set()
    for m in merchants:
        if m.category not in ("restaurant", "coffee"):
            continue
        ending = next((e for e in _MERCHANT_CUISINE if m.name.endswith(e)), None)
        cuisine = "cafe" if m.category == "coffee" else _MERCHANT_CUISINE.get(ending or "", "american")
        place = _place(rng, len(out), m.name, cuisine, m.city, merchant_address(m.index, m.city))
        out.append(_with_merchant(place, m.index))
        taken.add((m.name, m.city))
    per_city = {c.name: sum(r.city == c.name for r in out) for c in CITIES}
    cuisines = sorted(CUISINES)
    for c in CITIES:
        while per_city[c.name] < PER_CITY:
            cuisine = cuisines[per_city[c.name] % len(cuisines)]
            name = f"{rng.choice(_WORDS)} {rng.choice(CUISINES[cuisine])}"
            if (name, c.name) in taken:
                continue
            taken.add((name, c.name))
            addr = geo.address(
                c.name, rng.randrange(len(STREET_NAMES)), rng.randint(1, geo.HOUSES_PER_STREET)
            )
            out.append(_place(rng, len(out), name, cuisine, c.name, addr))
            per_city[c.name] += 1
    return tuple(out)


def _with_merchant(place: Restaurant, merchant: int) -> Restaurant:
    return Restaurant(**{**place.__dict__, "merchant": merchant})
