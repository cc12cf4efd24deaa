"""The shared world: deterministic, consistent, and shown the same way by every domain.

Cross-domain tasks ("pay Dana back", "message Dana the tire pressure") only work if a person has
the same name, email, handle and city everywhere. The world tests check the world itself; the
cross-domain tests walk every domain present in the checkout (new ones are picked up as they land)
and check that each table declaring ``people=`` shows the persona exactly as the world does.
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
from zoneinfo import ZoneInfo

import pytest

from servers.kit import geo, marks, restaurants
from servers.kit.world import COMPANIES, MERCHANTS, PEOPLE, World, world
from servers.registry import available, get_domain

PERSON_ATTRIBUTES = {"name", "first_name", "last_name", "email", "phone", "handle", "username", "city"}
KEY_ATTRIBUTES = ("email", "username", "handle")  # unique per person: how a person's row is found
# Columns that say "this table shows people": a domain with one of them must declare people=.
PEOPLE_COLUMNS = {"email", "owner_name", "username"}

_DIGEST = """
import hashlib, sys
from servers.kit.world import World
w = World(int(sys.argv[1]), sys.argv[2])
print(hashlib.sha256(repr((w.people, w.companies, w.merchants)).encode()).hexdigest())
"""


def _digest(w: World) -> str:
    return hashlib.sha256(repr((w.people, w.companies, w.merchants)).encode()).hexdigest()


def _digest_in_fresh_process(seed: int, scale: str, hash_seed: str) -> str:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    out = subprocess.run(
        [sys.executable, "-c", _DIGEST, str(seed), scale],
        capture_output=True,
        text=True,
        check=True,
        env=env,
        cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
    )
    return out.stdout.strip()


# -- (a) the world itself ------------------------------------------------------------------------


def test_world_is_the_same_in_two_fresh_processes():
    first = _digest_in_fresh_process(0, "medium", "1")
    second = _digest_in_fresh_process(0, "medium", "2")  # set/dict order must not leak in
    assert first == second == _digest(World(0, "medium"))
    assert _digest(World(1, "medium")) != first  # and the seed does matter


@pytest.mark.parametrize(
    "smaller,larger",
    [
        ("small", "medium"),
        ("small", "large"),
        ("medium", "large"),
    ],
)
def test_a_smaller_scale_is_a_prefix_of_a_larger_one(smaller, larger):
    small, big = world(0, smaller), world(0, larger)
    assert len(small.people) == PEOPLE[smaller] < len(big.people) == PEOPLE[larger]
    assert big.people[: len(small.people)] == small.people
    assert big.companies[: len(small.companies)] == small.companies
    assert small.merchants == big.merchants and len(big.merchants) == MERCHANTS
    assert small.persona == big.persona


def test_restaurants_are_the_same_everywhere_and_include_the_eating_merchants():
    small, big = world(0, "small"), world(0, "large")
    assert small.restaurants == big.restaurants
    by_city = {c.name: sum(r.city == c.name for r in big.restaurants) for c in geo.CITIES}
    assert set(by_city.values()) == {restaurants.PER_CITY}
    assert len({(r.name, r.city) for r in big.restaurants}) == len(big.restaurants)
    eating = [m for m in big.merchants if m.category in ("restaurant", "coffee")]
    as_restaurant = {r.merchant: r for r in big.restaurants if r.merchant is not None}
    assert sorted(as_restaurant) == [m.index for m in eating]
    for m in eating:  # same name, city and address as the merchant banking statements show
        r = as_restaurant[m.index]
        assert (r.name, r.city, r.address) == (m.name, m.city, m.address)
        assert geo.geocode(r.address.line) == r.address


def test_open_now_at_the_reference_moment_is_a_real_filter():
    places = world(0, "medium").restaurants
    open_now = [r for r in places if r.open_at(0, "09:00")]  # Monday 09:00
    assert 0.2 < len(open_now) / len(places) < 0.5
    assert all(
        r.cuisine
        in (
            "breakfast",
            "cafe",
            "american",
            "italian",
            "mexican",
            "chinese",
            "japanese",
            "indian",
            "thai",
            "mediterranean",
        )
        for r in places
    )
    assert {r.cuisine for r in open_now} >= {"breakfast", "cafe"}
    assert not any(r.open_at(0, "09:00") for r in places if r.hours[0] is None)


@pytest.mark.parametrize("scale", ["small", "medium", "large"])
def test_people_have_unique_emails_and_handles(scale):
    w = world(0, scale)
    assert len(w.people) == PEOPLE[scale] and len(w.companies) == COMPANIES[scale]
    emails = [p.email.casefold() for p in w.people]
    handles = [p.handle for p in w.people]
    assert len(set(emails)) == len(emails)
    assert len(set(handles)) == len(handles)
    assert len({p.username for p in w.people}) == len(w.people)
    assert len({c.domain for c in w.companies}) == len(w.companies)
    for p in w.people[:2000]:
        assert p.email.endswith(".example") and p.email.split("@")[1] == w.employer(p).domain
        assert re.fullmatch(r"@[a-z0-9]{1,16}", p.handle) and p.username == p.handle[1:]
        assert p.name == f"{p.first_name} {p.last_name}"
        assert w.by_email(p.email.upper()) == p
    assert [p.index for p in w.pick_people(3, offset=len(w.people) - 1)] == [len(w.people) - 1, 0, 1]


@pytest.mark.parametrize("scale", ["small", "medium"])
def test_every_home_geocodes_back_to_itself(scale):
    for p in world(0, scale).people:
        home = p.home
        assert home.city == p.city and geo.geocode(home.line) == home, p
        assert p.timezone == geo.city(p.city).timezone


def test_city_coordinates_are_sane():
    names = [c.name for c in geo.CITIES]
    assert len(set(names)) == len(names) == 15
    assert len({c.airport for c in geo.CITIES}) == 15
    for c in geo.CITIES:
        assert -90 <= c.lat <= 90 and -180 <= c.lon <= 180
        ZoneInfo(c.timezone)  # a real time zone
        if c.country in ("US", "CA"):
            assert 24 < c.lat < 50 and -125 < c.lon < -66, c
        for other in geo.CITIES:
            if other is not c:
                assert geo.haversine_km(c.lat, c.lon, other.lat, other.lon) > 100, (c.name, other.name)
    assert world(0, "small").persona.city == geo.CITIES[0].name


def test_us_postal_codes_have_five_digits():
    for c in geo.CITIES:
        if c.country == "US":
            for street in range(len(geo.STREET_NAMES)):
                assert re.fullmatch(r"\d{5}", geo.address(c.name, street, 250).postal_code)


# -- (b) every domain shows the persona as the world does -------------------------------------


def _tables_with_people(domain) -> list:
    return [t for t in domain.tables if marks(t).people]


@pytest.mark.parametrize("name", available())
def test_domain_shows_the_persona_exactly_as_the_world_does(name, snapshot_cache):
    domain = get_domain(name)
    # A table with a column such as email/username shows people: it must say which Person
    # attributes its columns hold (or opt out explicitly with ``people={}``).
    undeclared = {
        f"{t.__tablename__}.{c.name}"
        for t in domain.tables
        if marks(t).people is None
        for c in t.__table__.columns
        if c.name in PEOPLE_COLUMNS
    }
    assert not undeclared, f"{name} shows people ({sorted(undeclared)}) but those tables declare no people="
    tables = _tables_with_people(domain)
    if not tables:
        return
    w = world(0, "small")
    persona = w.persona
    by_key = {attr: {getattr(p, attr): p for p in w.people} for attr in KEY_ATTRIBUTES}
    conn = domain.snapshot(0, "small", snapshot_cache).connect()
    try:
        for table in tables:
            mapping = marks(table).people
            columns = {c.name for c in table.__table__.columns}
            where = f"{name}.{table.__tablename__}.people"
            assert set(mapping) <= PERSON_ATTRIBUTES, f"{where} maps unknown attributes"
            assert set(mapping.values()) <= columns, f"{where} maps unknown columns"
            key = next((a for a in KEY_ATTRIBUTES if a in mapping), "name")
            cols = list(mapping.items())
            select = ", ".join(f'"{col}"' for _, col in cols)
            found = conn.execute(
                f'SELECT {select} FROM "{table.__tablename__}" WHERE "{mapping[key]}" = ?',
                (getattr(persona, key),),
            ).fetchall()
            assert found, f"{where}: no row has the persona's {key} {getattr(persona, key)!r}"
            want = tuple(getattr(persona, attr) for attr, _ in cols)
            for row in found:
                assert tuple(row) == want, f"{where}: persona shown as {dict(zip(mapping, row, strict=True))}"
            if key == "name":
                continue
            # Everyone else too: a row naming a world person shows that person's own values, and
            # most rows are world people (a system account such as root may not be).
            rows = conn.execute(f'SELECT {select} FROM "{table.__tablename__}"').fetchall()
            matched = 0
            for row in rows:
                values = dict(zip(mapping, row, strict=True))
                person = by_key[key].get(values[key])
                if person is not None:
                    matched += 1
                    assert values == {a: getattr(person, a) for a in mapping}, f"{where}: {values}"
            assert matched >= len(rows) / 2, f"{where}: only {matched} of {len(rows)} rows are world people"
    finally:
        conn.close()


def test_at_least_three_domains_declare_people():
    declaring = [n for n in available() if _tables_with_people(get_domain(n))]
    assert len(declaring) >= 3, declaring
    assert {"banking", "shopping", "issue_tracker"} <= set(declaring)


# -- (c) geography ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "a,b,km",
    [
        ("Portland", "Seattle", 234),
        ("Los Angeles", "New York", 3936),
        ("London", "New York", 5570),
        ("London", "Tokyo", 9560),
        ("Berlin", "London", 932),
        ("San Francisco", "Los Angeles", 559),
    ],
)
def test_distances_between_real_cities_are_right(a, b, km):
    ca, cb = geo.city(a), geo.city(b)
    got = geo.haversine_km(ca.lat, ca.lon, cb.lat, cb.lon)
    assert abs(got - km) <= 0.02 * km, (a, b, got)
    assert geo.haversine_km(cb.lat, cb.lon, ca.lat, ca.lon) == pytest.approx(got)


def test_route_grows_with_distance():
    home = geo.address("Portland", 0, 1)
    targets = [
        geo.address("Portland", 0, 50),
        geo.address("Portland", 11, 400),
        geo.address("Seattle", 3, 100),
        geo.address("San Francisco", 3, 100),
        geo.address("New York", 3, 100),
    ]
    for mode in geo.SPEED_KMH:
        legs = [geo.route(home.lat, home.lon, t.lat, t.lon, mode) for t in targets]
        assert [r["distance_km"] for r in legs] == sorted(r["distance_km"] for r in legs)
        assert [r["duration_min"] for r in legs] == sorted(r["duration_min"] for r in legs)
        assert legs[0]["distance_km"] > 0
    walk = geo.route(home.lat, home.lon, targets[1].lat, targets[1].lon, "walking")
    drive = geo.route(home.lat, home.lon, targets[1].lat, targets[1].lon, "driving")
    assert walk["distance_km"] == drive["distance_km"] and walk["duration_min"] > drive["duration_min"]
    with pytest.raises(KeyError, match="unknown mode"):
        geo.route(home.lat, home.lon, home.lat, home.lon, "teleport")


def test_reverse_geocode_returns_the_address():
    for c in geo.CITIES:
        for street in range(len(geo.STREET_NAMES)):
            for number in (1, 7, 199, 200, 333, geo.HOUSES_PER_STREET):
                here = geo.address(c.name, street, number)
                assert geo.reverse_geocode(here.lat, here.lon) == here, here.line
                assert geo.geocode(here.line) == here
    assert geo.geocode("14 Nowhere Rd, Portland") is None
    assert geo.geocode("14 Elm St, Atlantis") is None


def test_the_persona_circle_starts_with_colleagues_and_grows_by_extension():
    w = world(0, "medium")
    persona = w.persona
    mates = w.colleagues(persona)
    assert mates and all(p.employer == persona.employer and p.index != 0 for p in mates)
    circle = w.circle(persona, 60)
    assert circle[: len(mates)] == mates
    assert len({p.index for p in circle}) == 60 and persona not in circle
    assert w.circle(persona, 25) == circle[:25]
