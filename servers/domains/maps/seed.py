"""The seed: cities and road links, the address index, places and reviews, and the users with
their saved places and lists (the persona's home, work, ten saved places and three lists)."""

from __future__ import annotations

import itertools

from servers.domains.maps.model import (
    NETWORKS,
    Address,
    City,
    ListItem,
    Place,
    PlaceList,
    PlaceTerm,
    Review,
    RoadLink,
    SavedPlace,
    Session,
    User,
    maps,
)
from servers.domains.maps.seed_places import (
    PlaceRows,
    review_rows,
    seed_generated_places,
    seed_world_places,
    term_rows,
)
from servers.kit import Person, Seeder, geo

# Road links that are shut: the failure path of routing between cities that normally connect.
CLOSED = {
    ("Denver", "Chicago"): "bridge repairs on the Platte River crossing until 2026-06-15",
    ("Miami", "Toronto"): "flood damage; reopening not yet announced",
}
FERRY = {("London", "Berlin"): "Dover-Calais car ferry and the E40"}
# label a user gives a saved place of a category
LABELS = {
    "gym": "gym",
    "cafe": "coffee spot",
    "pharmacy": "pharmacy",
    "grocery": "grocery store",
    "park": "dog park",
    "museum": "museum",
    "ev_charger": "charger",
    "car_repair": "mechanic",
    "bar": "usual bar",
    "restaurant": "date night spot",
    "hospital": "hospital",
    "bank": "bank",
    "tire_shop": "tire shop",
    "hotel": "hotel for guests",
}
LIST_NAMES = ("Want to go", "Favorites", "Weekend ideas", "Coffee crawl", "Visitors guide", "Date nights")


@maps.seed
def fill(s: Seeder) -> None:
    city_ids = _seed_cities(s)
    index = AddressIndex(city_ids)
    places = PlaceRows(s, city_ids, index.id)
    seed_world_places(places)
    seed_generated_places(places, s.count(small=3, medium=20, large=80))
    users = s.world.pick_people(s.count(small=20, medium=300, large=6000))
    homes = [index.id(p.home) for p in users]
    works = [index.id(_work(s, p)) for p in users]
    index.fill(s, s.count(small=1500, medium=6000, large=40_000))
    s.add(Address, index.rows)
    s.add(Place, places.rows)
    s.add(PlaceTerm, term_rows(places.rows))
    names = {v: k for k, v in city_ids.items()}
    s.add(Review, review_rows(s, places.rows, names, s.count(small=1, medium=3, large=4)))
    _seed_users(s, users, homes, works, places.rows, city_ids)


def _seed_cities(s: Seeder) -> dict[str, str]:
    ids = {c.name: f"CTY-{i + 1:06d}" for i, c in enumerate(geo.CITIES)}
    s.add(
        City,
        [
            {
                "id": ids[c.name],
                "name": c.name,
                "region": c.region,
                "country": c.country,
                "lat": c.lat,
                "lon": c.lon,
                "timezone": c.timezone,
                "airport": c.airport,
                "road_network": NETWORKS[c.country],
            }
            for c in geo.CITIES
        ],
    )
    links = []
    for a, b in itertools.combinations(geo.CITIES, 2):
        if NETWORKS[a.country] != NETWORKS[b.country]:
            continue
        i, j = geo.CITIES.index(a), geo.CITIES.index(b)
        ferry = FERRY.get((a.name, b.name))
        links.append(
            {
                "id": f"RDL-{len(links) + 1:06d}",
                "from_city_id": ids[a.name],
                "to_city_id": ids[b.name],
                "name": ferry or f"Highway {5 + (i * 31 + j * 17) % 95}",
                "kind": "ferry" if ferry else "highway",
                "toll": bool(ferry) or (i + j) % 3 == 0,
                "closed": (a.name, b.name) in CLOSED,
                "closure_note": CLOSED.get((a.name, b.name)),
                "distance_km": geo.route(a.lat, a.lon, b.lat, b.lon, "driving")["distance_km"],
            }
        )
    s.add(RoadLink, links)
    return ids


class AddressIndex:
    """The geocoding index: every address something stands at, then random others of the grid."""

    def __init__(self, city_ids: dict[str, str]) -> None:
        self.city_ids = city_ids
        self.rows: list[dict] = []
        self._by_line: dict[str, str] = {}

    def id(self, a: geo.Address) -> str:
        if a.line not in self._by_line:
            aid = f"ADR-{len(self.rows) + 1:06d}"
            self._by_line[a.line] = aid
            self.rows.append(
                {
                    "id": aid,
                    "line": a.line,
                    "number": a.number,
                    "street": a.street,
                    "city_id": self.city_ids[a.city],
                    "postal_code": a.postal_code,
                    "lat": a.lat,
                    "lon": a.lon,
                }
            )
        return self._by_line[a.line]

    def fill(self, s: Seeder, total: int) -> None:
        while len(self.rows) < total:
            c = s.pick(list(geo.CITIES))
            self.id(geo.address(c.name, s.rng.randrange(len(geo.STREET_NAMES)), s.rng.randint(1, 400)))


def _work(s: Seeder, p: Person) -> geo.Address:
    """Where someone works: the employer's office if it is in their city, else a desk nearby."""
    office = s.world.employer(p).address
    if office.city == p.city:
        return office
    return geo.address(p.city, (p.street_index + 3) % len(geo.STREET_NAMES), 1 + (p.house_number * 7) % 400)


def _seed_users(
    s: Seeder, users: list[Person], homes: list[str], works: list[str], places: list[dict], city_ids: dict
) -> None:
    by_city_cat: dict[tuple[str, str], list[dict]] = {}
    for p in places:
        if p["business_status"] == "operational":
            by_city_cat.setdefault((p["city_id"], p["category"]), []).append(p)
    rows, saved, lists, items = [], [], [], []
    for i, person in enumerate(users):
        uid = f"USR-{i + 1:06d}"
        rows.append({"id": uid, "name": person.name, "email": person.email, "home_city": person.city})
        persona = i == 0
        when = s.moment_offset(-700, -2)
        saved.append(_saved(len(saved), uid, "home", None, homes[i], None, when))
        if persona or s.chance(0.6):
            note = f"{s.world.employer(person).name} office"
            saved.append(_saved(len(saved), uid, "work", None, works[i], note, when))
        cats = list(LABELS) if persona else s.rng.sample(list(LABELS), s.rng.randint(0, 5))
        for cat in cats[:10]:
            pool = by_city_cat.get((city_ids[person.city], cat))
            if pool:
                place = s.pick(pool)
                saved.append(
                    _saved(len(saved), uid, LABELS[cat], place["id"], None, None, s.moment_offset(-600, -1))
                )
        for name, picks in _lists_for(s, person, persona, by_city_cat, city_ids):
            lid = f"LST-{len(lists) + 1:06d}"
            lists.append({"id": lid, "user_id": uid, "name": name, "description": None, "created_at": when})
            for place in picks:
                items.append(
                    {
                        "id": f"LIT-{len(items) + 1:06d}",
                        "list_id": lid,
                        "place_id": place["id"],
                        "note": None,
                        "added_at": s.moment_offset(-300, -1),
                    }
                )
    s.add(User, rows)
    s.add(SavedPlace, saved)
    s.add(PlaceList, lists)
    s.add(ListItem, items)
    s.add(Session, [{"id": "SES-000001", "user_id": "USR-000001"}])


def _saved(
    n: int, uid: str, label: str, place: str | None, address: str | None, note: str | None, when: str
) -> dict:
    return {
        "id": f"SVP-{n + 1:06d}",
        "user_id": uid,
        "label": label,
        "place_id": place,
        "address_id": address,
        "note": note,
        "created_at": when,
    }


def _lists_for(
    s: Seeder, person: Person, persona: bool, by_city_cat: dict, city_ids: dict
) -> list[tuple[str, list[dict]]]:
    """The persona's three lists (brunch at home, a Seattle trip, road-trip stops); 0-2 for others."""
    home = city_ids[person.city]

    def some(city: str, cats: tuple[str, ...], n: int) -> list[dict]:
        pool = [p for c in cats for p in by_city_cat.get((city, c), [])]
        return s.rng.sample(pool, min(n, len(pool)))

    if persona:
        seattle = city_ids["Seattle"]
        return [
            ("Brunch spots", some(home, ("cafe", "restaurant"), 5)),
            ("Seattle trip", some(seattle, ("restaurant", "museum", "hotel", "park"), 6)),
            (
                "Road trip stops",
                some(home, ("ev_charger", "gas_station"), 2) + some(seattle, ("ev_charger",), 2),
            ),
        ]
    names = s.rng.sample(list(LIST_NAMES), s.rng.choice((0, 1, 1, 2)))
    return [
        (n, some(home, ("restaurant", "cafe", "bar", "park", "museum"), s.rng.randint(2, 8))) for n in names
    ]
