"""Maps: the geography agrees with the shared world and with the vehicle domain, every rule's
refusal names its values and changes nothing, and saved places and lists change exactly their rows."""

from __future__ import annotations

import itertools

import pytest

from servers.domains.maps.model import CATEGORIES, WEEKDAYS
from servers.domains.maps.routing import KM_PER_MI, best_order
from servers.domains.maps.rules import MY_SAVED, OPEN_SQL, open_now
from servers.kit import geo, world
from servers.registry import get_domain
from tests.domain_helpers import DomainCalls

DOMAIN = "maps"
calls = DomainCalls(DOMAIN)
call, fails, rows, one = calls.call, calls.fails, calls.rows, calls.one
DISCOVERY = {"list_records", "search_records", "get_unique_values"}
HOME = "337 Harbor St, Portland"  # the persona's home (world person 0)


@pytest.fixture
def app(make_env):
    env = make_env(DOMAIN)
    return env, env.open()


def touched(ep) -> set[tuple[str, str, str]]:
    return {(c["table"], c["pk"], c["op"]) for c in ep.diff()}


def portland_place(ep, where: str = "1") -> dict:
    return one(
        ep,
        "SELECT p.* FROM places p JOIN cities c ON c.id = p.city_id WHERE c.name = 'Portland' "
        f"AND p.business_status = 'operational' AND {where} ORDER BY p.id",
    )


# -- the catalogue ---------------------------------------------------------------------------------


def test_the_spec_tools_each_with_two_ways_to_ask():
    domain = get_domain(DOMAIN)
    own = {n: t for n, t in domain.tools.items() if n not in DISCOVERY}
    spec = {
        "geocode",
        "reverse_geocode",
        "search_places",
        "get_place",
        "get_place_reviews",
        "get_route",
        "optimize_trip",
        "distance_matrix",
        "find_along_route",
        "get_timezone",
        "list_saved_places",
        "save_place",
        "remove_saved_place",
        "create_list",
        "add_to_list",
        "remove_from_list",
        "get_list",
    }
    assert spec <= set(own) and len(own) >= 17
    assert all(len(t.says) >= 2 for t in own.values()), [n for n, t in own.items() if len(t.says) < 2]
    writers = {n for n, t in own.items() if t.writes}
    assert writers == {"save_place", "remove_saved_place", "create_list", "add_to_list", "remove_from_list"}
    assert own["remove_saved_place"].annotations()["destructiveHint"]
    assert own["remove_from_list"].annotations()["destructiveHint"]
    assert not own["save_place"].annotations()["destructiveHint"]
    assert domain.append_only() == {"reviews": frozenset()}


def test_sampler_pools_at_medium(medium):
    def count(sql: str) -> int:
        return medium.execute(sql).fetchone()[0]

    assert count("SELECT count(*) FROM places WHERE business_status = 'operational'") >= 4000
    pools = count(
        "SELECT count(*) FROM (SELECT city_id, category FROM places WHERE business_status = 'operational' "
        "GROUP BY city_id, category HAVING count(*) >= 20)"
    )
    assert pools >= 60
    assert count("SELECT count(*) FROM road_links WHERE closed = 0") >= 60  # city pairs with a road
    cities = count("SELECT count(*) FROM cities")
    linked = count("SELECT count(*) FROM road_links WHERE closed = 0")
    assert cities * (cities - 1) // 2 - linked >= 15  # city pairs without a route: the failure path
    assert count("SELECT count(*) FROM reviews") >= 10_000
    assert count("SELECT count(*) FROM addresses") >= 6000
    assert count(f"SELECT count(*) FROM places WHERE {OPEN_SQL}") >= 2000
    mine = medium.execute(f"SELECT label FROM saved_places WHERE {MY_SAVED}").fetchall()
    assert {"home", "work"} <= {r[0] for r in mine} and len(mine) == 12
    assert count("SELECT count(*) FROM lists WHERE user_id = 'USR-000001'") == 3


def test_large_reaches_100k_rows(snapshot_cache):
    conn = get_domain(DOMAIN).snapshot(0, "large", snapshot_cache).connect()
    try:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        total = sum(conn.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0] for t in tables)
    finally:
        conn.close()
    assert total >= 100_000


# -- one world: restaurants, merchants, addresses ---------------------------------------------------


def test_every_world_restaurant_and_merchant_is_a_place(app):
    env, ep = app
    w = world(0, "small")
    by_restaurant = {
        r["restaurant_index"]: r for r in rows(ep, "SELECT * FROM places WHERE restaurant_index IS NOT NULL")
    }
    assert len(by_restaurant) == len(w.restaurants)
    for r in w.restaurants:
        p = by_restaurant[r.index]
        assert (p["name"], p["address"], p["rating"], p["price_level"], p["phone"]) == (
            r.name,
            r.address.line,
            r.rating,
            r.price_level,
            r.phone,
        )
        assert (p["lat"], p["lon"]) == (r.address.lat, r.address.lon)
        for day, shift in zip(WEEKDAYS, r.hours, strict=True):
            assert p[f"hours_{day}"] == ("closed" if shift is None else f"{shift[0]}-{shift[1]}")
        assert open_now(p) == r.open_at(0, "09:00")  # the same "open now" as food delivery's
    merchants = {
        p["merchant_index"]: p for p in rows(ep, "SELECT * FROM places WHERE merchant_index IS NOT NULL")
    }
    assert sorted(merchants) == [m.index for m in w.merchants]
    for m in w.merchants:
        assert (merchants[m.index]["name"], merchants[m.index]["address"]) == (m.name, m.address.line)
    got = call(env, ep, "get_place", place=by_restaurant[0]["id"])
    assert (
        got["hours"]["monday"] == by_restaurant[0]["hours_mon"]
        and got["address"] == w.restaurants[0].address.line
    )


def test_every_place_and_indexed_address_geocodes_to_its_point(app):
    env, ep = app
    for p in rows(ep, "SELECT address, lat, lon FROM places"):
        a = geo.geocode(p["address"])
        assert (a.lat, a.lon) == (p["lat"], p["lon"])
    for a in rows(ep, "SELECT * FROM addresses ORDER BY id LIMIT 300"):
        g = geo.geocode(a["line"])
        assert (g.lat, g.lon, g.postal_code) == (a["lat"], a["lon"], a["postal_code"])
    got = call(env, ep, "geocode", query=HOME)
    assert got["status"] == "OK"
    home = world(0, "small").persona.home
    assert (got["results"][0]["lat"], got["results"][0]["lon"]) == (home.lat, home.lon)
    back = call(env, ep, "reverse_geocode", location=f"{home.lat},{home.lon}")
    assert back["address"] == HOME


# -- the geography consistency test -----------------------------------------------------------------


ORDINARY = [
    ("14 Elm St, Portland", "driving"),
    ("250 Maple Dr, Portland", "walking"),
    ("120 Oak Ave, Portland", "cycling"),
    ("77 Pine St, Seattle", "driving"),
    ("230 Oak Ave, Denver", "driving"),
    ("19 Cedar Ln, Boston", "driving"),
]


@pytest.mark.parametrize(("destination", "mode"), ORDINARY)
def test_routes_equal_geo_route_and_the_vehicle_estimate(make_env, destination, mode):
    """For ordinary pairs maps' get_route is geo.route, and the car parked at the persona's home
    estimates the same drive to the same address."""
    env = make_env("maps,vehicle")
    ep = env.open()
    route = env.invoke(ep, "maps_get_route", {"origin": HOME, "destination": destination, "mode": mode})
    a, b = geo.geocode(HOME), geo.geocode(destination)
    assert {k: route[k] for k in ("distance_km", "duration_min")} == geo.route(
        a.lat, a.lon, b.lat, b.lon, mode
    )
    assert round(sum(s["distance_km"] for s in route["steps"]), 2) == route["distance_km"]
    assert route["steps"][-1]["instruction"] == f"Arrive at {destination}"
    if mode != "driving":
        return
    car = env.invoke(ep, "vehicle_list_vehicles", {})["vehicles"][1]  # the persona's Outback, at home
    assert car["connectivity"] == "online" and car["units"] == "imperial"
    estimate = env.invoke(ep, "vehicle_estimate_trip", {"vehicle": car["id"], "destination": destination})
    assert estimate["duration_min"] == route["duration_min"]
    assert estimate["distance"] == round(route["distance_km"] / KM_PER_MI, 1)
    saved = call(env, ep, "get_route", origin="home", destination=destination)  # the saved label
    assert saved["distance_km"] == route["distance_km"]


def test_places_route_between_their_own_points(app):
    env, ep = app
    a = portland_place(ep, "category = 'cafe'")
    b = portland_place(ep, "category = 'park'")
    got = call(env, ep, "get_route", origin=a["id"], destination=b["id"], mode="walking")
    assert got["origin"]["place_id"] == a["id"] and got["destination"]["resolved_as"] == "place"
    assert got["distance_km"] == geo.route(a["lat"], a["lon"], b["lat"], b["lon"], "walking")["distance_km"]
    assert any("Turn" in s["instruction"] or "Head" in s["instruction"] for s in got["steps"])


# -- coordinates and geocoding ----------------------------------------------------------------------


def test_coordinates_in_range_and_swapped_lon_lat_hint(app):
    env, ep = app
    msg = fails(env, ep, "reverse_geocode", "looks like lon,lat", location="-122.6702,45.5232")
    assert "-122.67" in msg and "'45.5232,-122.67'" in msg
    fails(
        env,
        ep,
        "reverse_geocode",
        r"\(95, 200\) is not a point: latitude must be -90 to 90",
        location="95,200",
    )
    fails(env, ep, "reverse_geocode", "no map data at \\(10, 10\\).*London", location="10,10")
    fails(env, ep, "get_timezone", "looks like lon,lat", location="139.65,35.67")
    fails(env, ep, "reverse_geocode", "is not 'lat,lon'", location="Portland")


def test_geocoding_never_guesses(app):
    env, ep = app
    fails(
        env, ep, "geocode", "ZERO_RESULTS: no address or place matches 'Nowhere Plaza'", query="Nowhere Plaza"
    )
    many = call(env, ep, "geocode", query="14 Elm St")
    assert many["status"] == "AMBIGUOUS" and len(many["results"]) == len(geo.CITIES)
    assert {r["city"] for r in many["results"]} == {c.name for c in geo.CITIES}
    one_city = call(env, ep, "geocode", query="14 Elm St", city="Denver")
    assert one_city["status"] == "OK" and one_city["results"][0]["address"] == "14 Elm St, Denver"
    fails(env, ep, "geocode", "unknown city 'Paris'", query="14 Elm St", city="Paris")
    fails(env, ep, "geocode", "is in Portland, not in Denver", query="14 Elm St, Portland", city="Denver")
    assert call(env, ep, "geocode", query="Tokyo")["results"][0]["timezone"] == "Asia/Tokyo"
    # a name two places share is listed, not guessed, where a location is resolved
    twin = one(ep, "SELECT name FROM places GROUP BY lower(name) HAVING count(*) > 1 ORDER BY name")["name"]
    fails(env, ep, "get_route", f"several places are called '{twin}'", origin=twin, destination="home")


def test_timezones_at_the_reference_moment(app):
    env, ep = app
    for where, zone, offset in (
        ("Tokyo", "Asia/Tokyo", "+09:00"),
        ("London", "Europe/London", "+01:00"),
        ("home", "America/Los_Angeles", "-07:00"),
        ("40.7128,-74.006", "America/New_York", "-04:00"),
    ):
        got = call(env, ep, "get_timezone", location=where)
        assert (got["timezone"], got["utc_offset"]) == (zone, offset)
        assert got["local_time"] == f"2026-06-01T09:00{offset}"


# -- search ---------------------------------------------------------------------------------------------


def test_search_radius_cap_and_sort_by_distance_rules(app):
    env, ep = app
    fails(
        env,
        ep,
        "search_places",
        "radius_m 60,000 is over the limit of 50,000",
        category="park",
        near="home",
        radius_m=60_000,
    )
    fails(env, ep, "search_places", "radius_m 800 needs a centre", category="park", radius_m=800)
    fails(env, ep, "search_places", "needs a query or a category", near="home", sort="distance")
    fails(env, ep, "search_places", "needs near", category="park", sort="distance")
    fails(env, ep, "search_places", "nothing to search for")
    near = call(
        env, ep, "search_places", category="pharmacy", near="home", sort="distance", radius_m=100, limit=50
    )
    dists = [p["distance_m"] for p in near["places"]]
    assert dists == sorted(dists) and dists[-1] > 100 and "ignored" in near["note"]
    around = call(env, ep, "search_places", category="pharmacy", near="home", radius_m=2000, limit=50)
    assert all(p["distance_m"] <= 2000 for p in around["places"]) and around["radius_m"] == 2000


def test_search_filters_open_now_rating_price_and_closed(app):
    env, ep = app
    got = call(env, ep, "search_places", category="restaurant", city="Portland", open_now=True, limit=100)
    ids = [p["id"] for p in got["places"]]
    assert ids and all(p["open_now"] for p in got["places"])
    every = rows(ep, "SELECT * FROM places WHERE category = 'restaurant' AND city_id = 'CTY-000001'")
    assert sorted(ids) == sorted(p["id"] for p in every if open_now(p))
    assert len(ids) < len(every)
    good = call(env, ep, "search_places", query="sushi", min_rating=4.5, max_price_level=2, limit=100)
    assert all(p["rating"] >= 4.5 and p["price_level"] <= 2 for p in good["places"])
    gone = one(ep, "SELECT * FROM places WHERE business_status = 'closed_permanently' ORDER BY id")
    plain = call(env, ep, "search_places", query=gone["name"], limit=100)
    assert gone["id"] not in {p["id"] for p in plain["places"]}
    withclosed = call(env, ep, "search_places", query=gone["name"], include_closed=True, limit=100)
    assert withclosed["places"][0]["id"] == gone["id"]  # the exact name ranks first
    coffee = call(env, ep, "search_places", query="coffee", city="Portland", limit=100)
    assert coffee["total"] > 0 and all(
        "coffee" in p["name"].lower() or p["category"] == "cafe" for p in coffee["places"]
    )


def test_place_details_reviews_and_status_now(app):
    env, ep = app
    museum = portland_place(ep, "category = 'museum' AND hours_mon = 'closed'")
    got = call(env, ep, "get_place", place=museum["id"])
    assert got["open_now"] is False and got["status_now"] == "closed all day Monday"
    bank = one(
        ep,
        "SELECT * FROM places WHERE category = 'bank' AND hours_mon = '09:30-17:00' AND business_status = 'operational'",
    )
    assert call(env, ep, "get_place", place=bank["id"])["status_now"] == "closed, opens at 09:30"
    reviewed = one(
        ep, "SELECT place_id, count(*) AS n FROM reviews GROUP BY place_id ORDER BY n DESC, place_id"
    )
    revs = call(env, ep, "get_place_reviews", place=reviewed["place_id"], limit=2)
    assert revs["total"] == reviewed["n"] and len(revs["reviews"]) == 2
    assert revs["reviews"][0]["at"] >= revs["reviews"][1]["at"]
    mine = one(ep, "SELECT place_id FROM saved_places WHERE user_id = 'USR-000001' AND label = 'gym'")
    assert call(env, ep, "get_place", place=mine["place_id"])["saved_as"] == ["gym"]


# -- routing rules ------------------------------------------------------------------------------------


def test_routes_that_do_not_exist_are_refused(app):
    env, ep = app
    fails(
        env,
        ep,
        "get_route",
        "over the 100 km limit for walking",
        origin="home",
        destination="Seattle",
        mode="walking",
    )
    fails(
        env,
        ep,
        "get_route",
        "North America road network and Tokyo on the Japan one",
        origin="home",
        destination="Tokyo",
    )
    fails(
        env,
        ep,
        "get_route",
        "is closed \\(bridge repairs",
        origin="Denver",
        destination="230 Oak Ave, Chicago",
    )
    fails(
        env,
        ep,
        "get_route",
        "is a car ferry; only driving",
        origin="London",
        destination="Berlin",
        mode="cycling",
    )
    fails(env, ep, "get_route", "same point", origin="home", destination=HOME)
    toll = one(
        ep,
        "SELECT a.name AS a, b.name AS b, l.name FROM road_links l JOIN cities a ON a.id = l.from_city_id "
        "JOIN cities b ON b.id = l.to_city_id WHERE l.toll = 1 AND l.kind = 'highway' AND l.closed = 0 ORDER BY l.id",
    )
    fails(
        env,
        ep,
        "get_route",
        f"the only road, {toll['name']}, is a toll road",
        origin=toll["a"],
        destination=toll["b"],
        avoid_tolls=True,
    )
    assert call(env, ep, "get_route", origin=toll["a"], destination=toll["b"])["toll"] is True
    by_ferry = call(env, ep, "get_route", origin="London", destination="Berlin")
    assert by_ferry["ferry"] is True
    fast = call(env, ep, "get_route", origin="home", destination="Seattle")
    slow = call(env, ep, "get_route", origin="home", destination="Seattle", avoid_highways=True)
    assert slow["distance_km"] == fast["distance_km"] and slow["duration_min"] == round(
        fast["distance_km"] / 40 * 60, 1
    )


def test_matrix_and_trip_limits(app):
    env, ep = app
    addresses = [f"{n} Elm St, Portland" for n in range(10, 120, 10)]  # 11
    fails(
        env,
        ep,
        "distance_matrix",
        "11 origins x 10 destinations = 110 cells, over the limit of 100",
        origins=addresses,
        destinations=addresses[:10],
    )
    fails(env, ep, "optimize_trip", "11 stops is over the limit of 10", origin="home", stops=addresses)
    grid = call(env, ep, "distance_matrix", origins=["home", "work"], destinations=[addresses[0], "Tokyo"])
    cells = {(c["origin"].split(" (")[0], c["destination"]): c for c in grid["cells"]}
    assert len(cells) == 4 and cells[("home", addresses[0])]["status"] == "OK"
    tokyo = cells[("home", "Tokyo city centre")]
    assert tokyo["status"] == "NO_ROUTE" and "Japan" in tokyo["reason"]


def test_optimize_trip_finds_the_quickest_order(app):
    env, ep = app
    stops = [
        p["id"]
        for p in rows(
            ep,
            "SELECT id FROM places WHERE city_id = 'CTY-000001' AND business_status = 'operational' ORDER BY id LIMIT 5",
        )
    ]
    got = call(env, ep, "optimize_trip", origin="home", stops=stops, return_to_origin=True)
    assert sorted(got["order"]) == sorted(stops) and len(got["legs"]) == 6
    home = geo.geocode(HOME)
    pts = {
        p["id"]: (p["lat"], p["lon"])
        for p in rows(ep, f"SELECT id, lat, lon FROM places WHERE id IN ({','.join('?' * 5)})", *stops)
    }

    def minutes(x, y):
        return geo.route(*x, *y, "driving")["duration_min"]

    best = min(
        sum(
            minutes(a, b)
            for a, b in itertools.pairwise(
                [(home.lat, home.lon), *[pts[s] for s in perm], (home.lat, home.lon)]
            )
        )
        for perm in itertools.permutations(stops)
    )
    assert got["total_duration_min"] == pytest.approx(best, abs=0.05)
    costs = [[0, 5, 9, 4], [5, 0, 2, 6], [9, 2, 0, 3], [4, 6, 3, 0]]
    assert best_order(costs, True)[1] == 14  # Held-Karp agrees with brute force on a known case


def test_find_along_route_respects_the_detour(app):
    env, ep = app
    got = call(
        env, ep, "find_along_route", origin="home", destination="work", category="cafe", max_detour_m=1500
    )
    assert got["places"] and all(p["detour_m"] <= 1500 and p["category"] == "cafe" for p in got["places"])
    detours = [p["detour_m"] for p in got["places"]]
    assert detours == sorted(detours)
    fails(
        env,
        ep,
        "find_along_route",
        "over the 100 km limit",
        origin="home",
        destination="Seattle",
        category="park",
        mode="walking",
    )


# -- saved places and lists -----------------------------------------------------------------------


def test_home_and_work_are_unique_until_removed(app):
    env, ep = app
    home = one(ep, "SELECT * FROM saved_places WHERE user_id = 'USR-000001' AND label = 'home'")
    msg = fails(
        env, ep, "save_place", "you already have a home saved", label="Home", address="14 Elm St, Portland"
    )
    assert home["id"] in msg and HOME in msg
    fails(env, ep, "save_place", "you already have a work saved", label="work", address="14 Elm St, Portland")
    call(env, ep, "remove_saved_place", saved_place=home["id"])
    assert touched(ep) == {("saved_places", home["id"], "delete")}
    new = call(env, ep, "save_place", label="home", address="14 Elm St, Portland")
    added = {(t, pk) for t, pk, op in touched(ep) if op == "insert"}
    address = one(ep, "SELECT id FROM addresses WHERE line = '14 Elm St, Portland'")["id"]
    assert added == {("saved_places", new["id"]), ("addresses", address)}  # the address joins the index
    assert (
        call(env, ep, "get_route", origin="home", destination=HOME)["origin"]["name"]
        == "home (14 Elm St, Portland)"
    )


def test_save_place_rules(app):
    env, ep = app
    gym = one(ep, "SELECT * FROM saved_places WHERE user_id = 'USR-000001' AND label = 'gym'")
    fails(
        env,
        ep,
        "save_place",
        f"the label 'Gym' is already used by {gym['id']}",
        label="Gym",
        address="14 Elm St, Portland",
    )
    fails(
        env,
        ep,
        "save_place",
        f"is already saved as 'gym' \\({gym['id']}\\)",
        label="my gym",
        place=gym["place_id"],
    )
    fails(env, ep, "save_place", "either place or address", label="vet")
    fails(env, ep, "save_place", "either place or address", label="vet", place=gym["place_id"], address=HOME)
    fails(
        env,
        ep,
        "save_place",
        "cannot find the address '999 Elm St, Portland'",
        label="vet",
        address="999 Elm St, Portland",
    )
    vet = portland_place(
        ep, "category = 'park' AND p.id NOT IN (SELECT place_id FROM saved_places WHERE place_id IS NOT NULL)"
    )
    got = call(env, ep, "save_place", label="dog park 2", place=vet["id"], note="open late")
    assert touched(ep) == {("saved_places", got["id"], "insert")} and got["place_name"] == vet["name"]
    other = one(ep, "SELECT id FROM saved_places WHERE user_id != 'USR-000001' ORDER BY id")["id"]
    fails(env, ep, "remove_saved_place", "belongs to another user", saved_place=other)


def test_at_most_500_saved_places(app):
    env, ep = app
    with ep.fork(DOMAIN).writing() as conn:
        conn.executemany(
            "INSERT INTO saved_places (id, user_id, label, place_id, address_id, note, created_at) "
            "VALUES (?, 'USR-000001', ?, NULL, 'ADR-000001', NULL, '2026-05-01T10:00:00')",
            [(f"SVP-9{i:05d}", f"spot {i}") for i in range(488)],
        )
    fails(
        env,
        ep,
        "save_place",
        "you have 500 saved places, the limit is 500",
        label="vet",
        address="14 Elm St, Portland",
    )


def test_lists_names_unique_duplicates_refused(app):
    env, ep = app
    mine = call(env, ep, "list_lists")["lists"]
    assert [x["name"] for x in mine] == ["Brunch spots", "Seattle trip", "Road trip stops"]
    fails(
        env,
        ep,
        "create_list",
        "already have a list called 'brunch spots' \\(LST-000001\\)",
        name="brunch spots",
    )
    new = call(env, ep, "create_list", name="Best tacos", description="for Friday")
    assert touched(ep) == {("lists", new["id"], "insert")}
    brunch = call(env, ep, "get_list", list="LST-000001")
    first = brunch["places"][0]
    fails(
        env,
        ep,
        "add_to_list",
        f"{first['name']} \\({first['id']}\\) is already on the list 'Brunch spots'",
        list="LST-000001",
        place=first["id"],
    )
    taco = portland_place(ep, "cuisine = 'mexican'")
    item = call(env, ep, "add_to_list", list=new["id"], place=taco["id"], note="the al pastor")
    assert ("list_items", item["id"], "insert") in touched(ep)
    assert [p["id"] for p in call(env, ep, "get_list", list=new["id"])["places"]] == [taco["id"]]
    call(env, ep, "remove_from_list", list=new["id"], place=taco["id"])
    assert ("list_items", item["id"], "insert") not in touched(ep)
    fails(
        env,
        ep,
        "remove_from_list",
        f"is not on the list 'Best tacos' \\({new['id']}\\)",
        list=new["id"],
        place=taco["id"],
    )
    other = one(ep, "SELECT id FROM lists WHERE user_id != 'USR-000001' ORDER BY id")["id"]
    fails(env, ep, "get_list", f"list {other} belongs to another user", list=other)
    fails(env, ep, "add_to_list", "belongs to another user", list=other, place=taco["id"])


def test_categories_cover_every_city(app):
    env, ep = app
    seen = {(r["city_id"], r["category"]) for r in rows(ep, "SELECT DISTINCT city_id, category FROM places")}
    generated = set(CATEGORIES) - {
        "book_store",
        "clothing_store",
        "electronics_store",
        "transit_station",
        "utility_office",
    }
    for c in rows(ep, "SELECT id FROM cities"):
        assert {cat for city, cat in seen if city == c["id"]} >= generated - {"cafe"}


def test_the_search_index_is_not_a_record_kind_discovery_offers():
    spec = get_domain("maps").tools["list_records"]
    tables = next(p for p in spec.params if p.name == "table").enum
    assert "place_terms" not in tables and "places" in tables
