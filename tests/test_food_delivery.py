"""Food delivery's rules: the cart, checkout, the order lifecycle, cancellation fees, refunds, ratings
and restaurant switches. Refused calls name their values and change nothing; successes change
exactly their rows. Restaurants and distances agree with the shared world and geography."""

from __future__ import annotations

import re
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from servers.domains.food_delivery.rules import CHECKOUT_READY, open_now_sql
from servers.kit import geo, world
from servers.registry import get_domain
from tests.domain_helpers import DomainCalls, changes

DOMAIN = "food_delivery"
calls = DomainCalls(DOMAIN)
call, rows, one = calls.call, calls.rows, calls.one


def fails(env, ep, tool: str, text: str, **args) -> str:
    """The call is refused with an error containing ``text`` (literally) and changes nothing."""
    return calls.fails(env, ep, tool, re.escape(text), **args)


DISCOVERY = {"list_records", "search_records", "get_unique_values"}
PERSONA = "CUS-000001"
TAKING = "r.status = 'online' AND " + open_now_sql("r.id")


@pytest.fixture
def fd(make_env):
    env = make_env(DOMAIN)
    return env, env.open()


def tables(ep) -> set[str]:
    return {c["table"] for c in ep.diff()}


def km(a: dict, b: dict) -> float:
    return geo.route(a["lat"], a["lon"], b["lat"], b["lon"])["distance_km"]


def persona_cart(ep) -> tuple[dict, dict]:
    """The persona's cart line and its restaurant (open now in Portland, delivering to her)."""
    line = one(ep, "SELECT * FROM cart_items WHERE customer_id = ? ORDER BY id", PERSONA)
    return line, one(ep, "SELECT * FROM restaurants WHERE id = ?", line["restaurant_id"])


def pair(ep, where: str, *, empty_cart: bool = True, plus: bool | None = None) -> tuple[dict, dict, dict]:
    """(customer, restaurant, available item): the restaurant matches ``where`` (alias r) and
    delivers to the customer's home."""
    places = rows(ep, f"SELECT r.* FROM restaurants r WHERE {where} ORDER BY r.id")
    people = rows(ep, "SELECT * FROM customers ORDER BY id")
    for c in people:
        if plus is not None and (c["membership"] == "plus") != plus:
            continue
        if empty_cart and rows(ep, "SELECT id FROM cart_items WHERE customer_id = ?", c["id"]):
            continue
        for r in places:
            if r["city"] == c["city"] and km(r, c) <= r["radius_km"]:
                item = rows(
                    ep,
                    "SELECT * FROM menu_items WHERE restaurant_id = ? AND available = 1 ORDER BY price DESC",
                    r["id"],
                )
                if item:
                    return c, r, item[0]
    pytest.skip(f"no customer with a restaurant where {where}")


def fill_cart(env, ep, c: dict, r: dict, item: dict) -> None:
    qty = max(1, int(r["min_order"] // item["price"]) + 1)
    call(env, ep, "add_to_cart", customer=c["id"], item=item["id"], quantity=qty)


# -- catalogue, pools, the world ------------------------------------------------------------------


def test_enough_tools_each_with_two_ways_to_ask():
    domain = get_domain(DOMAIN)
    own = [t for name, t in domain.tools.items() if name not in DISCOVERY and not t.hidden]
    assert len(own) >= 20
    assert {t.name for t in own} >= {
        "search_restaurants", "get_restaurant_menu", "find_customer", "view_cart", "add_to_cart",
        "remove_from_cart", "place_order", "get_order", "list_customer_orders", "cancel_order",
        "accept_order", "reject_order", "mark_order_ready", "assign_courier", "confirm_pickup",
        "confirm_delivery", "set_restaurant_status", "set_item_availability", "issue_refund", "rate_order",
    }  # fmt: skip
    assert all(len(t.says) >= 2 for t in own), [t.name for t in own if len(t.says) < 2]
    assert domain.append_only() == {"order_events": frozenset(), "refunds": frozenset()}
    for name in ("cancel_order", "reject_order", "remove_from_cart"):
        assert domain.tools[name].annotations()["destructiveHint"], name
    assert domain.tools["set_restaurant_status"].annotations()["idempotentHint"]
    assert domain.tools["search_restaurants"].annotations()["readOnlyHint"]
    assert domain.tools["place_order"].needs == ("cart_items",)


def test_sampler_pools_at_medium(medium):
    def count(sql: str) -> int:
        return medium.execute(sql).fetchone()[0]

    for status in ("placed", "accepted", "ready", "picked_up"):
        assert count(f"SELECT count(*) FROM orders WHERE status = '{status}'") >= 250, status
    assert count("SELECT count(*) FROM orders WHERE status = 'delivered'") >= 4000
    assert (
        count("SELECT count(*) FROM orders WHERE status IN ('accepted', 'ready') AND courier_id IS NULL")
        >= 250
    )
    assert count("SELECT count(*) FROM orders WHERE status = 'ready' AND courier_id IS NOT NULL") >= 150
    assert count(f"SELECT count(*) FROM customers WHERE {CHECKOUT_READY}") >= 150
    assert count("SELECT count(DISTINCT customer_id) FROM cart_items") >= 300
    assert count(f"SELECT count(*) FROM restaurants r WHERE {TAKING}") >= 150
    per_city = medium.execute("SELECT city, count(*) FROM couriers WHERE status = 'available' GROUP BY city")
    assert all(n >= 15 for _, n in per_city), "every city needs free couriers"
    assert count("SELECT count(*) FROM menu_items WHERE available = 0") > 0
    assert count("SELECT count(*) FROM refunds") >= 400
    assert count("SELECT count(*) FROM order_events") >= 35_000
    # open restaurants with customers they deliver to: the checkout pool, by road distance
    open_places = medium.execute(
        f"SELECT r.id, r.city, r.lat, r.lon, r.radius_km FROM restaurants r WHERE {TAKING}"
    )
    homes = medium.execute("SELECT city, lat, lon FROM customers").fetchall()
    pairs = sum(
        1
        for _, city, lat, lon, radius in open_places
        for c_city, c_lat, c_lon in homes
        if c_city == city and geo.route(lat, lon, c_lat, c_lon)["distance_km"] <= radius
    )
    assert pairs >= 1000


def test_restaurants_are_the_worlds_and_distances_are_geo_routes(fd):
    """Name, address, hours, phone and rating in the tools equal world.restaurants'; the delivery
    distance equals geo.route between the same two points."""
    env, ep = fd
    places = world(0, "small").restaurants
    assert len(rows(ep, "SELECT id FROM restaurants")) == len(places)
    days = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
    persona = world(0, "small").persona
    for place in (places[0], places[7], places[len(places) // 2], places[-1]):
        rid = f"RST-{place.index + 1:06d}"
        got = call(env, ep, "get_restaurant", restaurant=rid, customer=PERSONA)
        assert (got["name"], got["address"], got["city"], got["phone"], got["rating"], got["cuisine"]) == (
            place.name,
            place.address.line,
            place.city,
            place.phone,
            place.rating,
            place.cuisine,
        )
        want = {d: (f"{s[0]}-{s[1]}" if s else "closed") for d, s in zip(days, place.hours, strict=True)}
        assert got["hours"] == want
        assert got["open_now"] == place.open_at(0, "09:00")
        home = persona.home
        road = geo.route(place.address.lat, place.address.lon, home.lat, home.lon)
        assert got["delivery_to_customer"]["distance_km"] == road["distance_km"]
        assert got["delivery_to_customer"]["duration_min"] == road["duration_min"]
    merchant = next(p for p in places if p.merchant is not None)
    found = call(env, ep, "search_restaurants", query=merchant.name, near=merchant.city)["restaurants"]
    assert [(r["name"], r["address"]) for r in found] == [(merchant.name, merchant.address.line)]
    near = call(env, ep, "search_restaurants", customer=PERSONA, limit=100)
    for r in near["restaurants"]:
        place = places[int(r["id"][4:]) - 1]
        assert (
            r["distance_km"]
            == geo.route(place.address.lat, place.address.lon, home.lat, home.lon)["distance_km"]
        )
        assert r["delivers"] and r["city"] == "Portland"


def test_customers_and_couriers_are_world_people(fd):
    env, ep = fd
    w = world(0, "small")
    me = call(env, ep, "find_customer", email=w.persona.email.upper())
    assert me["id"] == PERSONA and me["name"] == w.persona.name and me["address"] == w.persona.home.line
    assert (me["lat"], me["lon"]) == (w.persona.home.lat, w.persona.home.lon)
    by_phone = call(env, ep, "find_customer_by_phone", phone=w.persona.phone)["customers"]
    assert PERSONA in [c["id"] for c in by_phone]
    people = {(p.name, p.phone): p for p in w.people}
    for c in rows(ep, "SELECT * FROM couriers"):
        assert (c["name"], c["phone"]) in people
        assert people[(c["name"], c["phone"])].city == c["city"]
    fails(env, ep, "find_customer", "no customer has the email", email="nobody@nowhere.example")


def test_current_time_is_monday_nine_local_with_the_city_offset(fd):
    env, ep = fd
    got = call(env, ep, "get_current_time", city="Tokyo")
    assert got["local_time"] == "2026-06-01T09:00" and got["weekday"] == "Monday"
    assert (got["timezone"], got["utc_offset"]) == ("Asia/Tokyo", "+09:00")
    assert call(env, ep, "get_current_time")["utc_offset"] == "-07:00"  # Portland, summer time


def test_open_now_search_lists_only_places_taking_orders(fd):
    env, ep = fd
    got = call(env, ep, "search_restaurants", near="Portland", open_now=True, limit=100)
    assert got["total"] > 0
    taking = {
        r["id"] for r in rows(ep, f"SELECT r.id FROM restaurants r WHERE r.city = 'Portland' AND {TAKING}")
    }
    assert {r["id"] for r in got["restaurants"]} == taking
    fails(env, ep, "search_restaurants", "cannot place 'Atlantis'", near="Atlantis")
    fails(env, ep, "search_restaurants", "sorting by distance needs", near="Portland", sort="distance")


# -- the cart ---------------------------------------------------------------------------------------


def test_add_to_cart_merges_lines_and_prices_options(fd):
    env, ep = fd
    c, r, _ = pair(ep, "r.status = 'online' AND r.cuisine = 'cafe'")
    latte = one(ep, "SELECT * FROM menu_items WHERE restaurant_id = ? AND name = 'Latte'", r["id"])
    if not latte["available"]:
        pytest.skip("the latte is sold out here")
    out = call(
        env, ep, "add_to_cart", customer=c["id"], item=latte["id"], quantity=2, options=["large", "Oat milk"]
    )
    line = out["line"]
    assert line["options"] == "Large, Oat milk"
    assert line["unit_price"] == round(latte["price"] + 1.5 + 0.7, 2)
    again = call(env, ep, "add_to_cart", customer=c["id"], item=latte["id"], options=["Oat milk", "Large"])
    assert again["line"]["id"] == line["id"] and again["line"]["quantity"] == 3
    assert {k[2] for k in changes(ep) if k[0] == "cart_items"} >= {"quantity", "options", "unit_price"}
    assert tables(ep) == {"cart_items"}
    fails(env, ep, "add_to_cart", "pick one size for Latte: Small and Large", customer=c["id"], item=latte["id"], options=["Small", "Large"])  # fmt: skip
    fails(
        env,
        ep,
        "add_to_cart",
        "has no option 'Ketchup'",
        customer=c["id"],
        item=latte["id"],
        options=["Ketchup"],
    )
    err = fails(env, ep, "add_to_cart", "at most 30 of one item", customer=c["id"], item=latte["id"], quantity=28, options=["Large", "Oat milk"])  # fmt: skip
    assert "already has 3" in err and "would make 31" in err


def test_cart_is_one_restaurant_and_items_must_be_orderable(fd):
    env, ep = fd
    line, place = persona_cart(ep)
    me = one(ep, "SELECT * FROM customers WHERE id = ?", PERSONA)
    others = rows(
        ep,
        "SELECT m.* FROM menu_items m JOIN restaurants r ON r.id = m.restaurant_id "
        "WHERE r.city = 'Portland' AND r.id != ? AND r.status = 'online' AND m.available = 1 ORDER BY m.id",
        place["id"],
    )
    err = fails(
        env,
        ep,
        "add_to_cart",
        "a cart is from one restaurant at a time",
        customer=PERSONA,
        item=others[0]["id"],
    )
    assert f"{place['name']} ({place['id']})" in err
    sold = rows(ep, "SELECT * FROM menu_items WHERE available = 0 AND restaurant_id = ?", place["id"])
    if sold:
        fails(env, ep, "add_to_cart", "is sold out", customer=PERSONA, item=sold[0]["id"])
    closed = one(
        ep,
        "SELECT m.id FROM menu_items m JOIN restaurants r ON r.id = m.restaurant_id WHERE r.status = 'closed' ORDER BY m.id",
    )
    fails(env, ep, "add_to_cart", "closed on the platform", customer="CUS-000002", item=closed["id"])
    far = next(
        (
            r
            for r in rows(ep, "SELECT * FROM restaurants WHERE city = 'Portland' AND status = 'online'")
            if km(r, me) > r["radius_km"]
        ),
        None,
    )
    call(env, ep, "remove_from_cart", customer=PERSONA, item=line["item_id"])
    assert rows(ep, "SELECT id FROM cart_items WHERE customer_id = ?", PERSONA) == []
    if far is not None:
        item = one(ep, "SELECT id FROM menu_items WHERE restaurant_id = ? AND available = 1", far["id"])
        err = fails(env, ep, "add_to_cart", "does not deliver to", customer=PERSONA, item=item["id"])
        assert f"{km(far, me):.2f} km away" in err and f"within {far['radius_km']:.1f} km" in err
    fails(
        env,
        ep,
        "remove_from_cart",
        "is not in the cart of CUS-000001",
        customer=PERSONA,
        item=line["item_id"],
    )


def test_update_and_remove_cart_lines(fd):
    env, ep = fd
    line, place = persona_cart(ep)
    out = call(env, ep, "update_cart_item", customer=PERSONA, item=line["item_id"], quantity=5)
    sub = round(5 * line["unit_price"], 2)
    assert out["line"]["quantity"] == 5 and out["cart"]["subtotal"] == sub
    assert set(changes(ep)) == {("cart_items", line["id"], "quantity")}
    fails(env, ep, "update_cart_item", "at most 30", customer=PERSONA, item=line["item_id"], quantity=31)
    view = call(env, ep, "view_cart", customer=PERSONA)
    assert view["restaurant"]["id"] == place["id"] and view["meets_min_order"] and view["delivers_home"]
    assert view["service_fee"] == round(min(8.0, max(1.0, sub * 0.08)), 2)
    call(env, ep, "remove_from_cart", customer=PERSONA, item=line["item_id"])
    assert changes(ep)[("cart_items", line["id"], "id")]["op"] == "delete"


# -- checkout ----------------------------------------------------------------------------------------


def test_place_order_charges_fees_and_empties_the_cart(fd):
    env, ep = fd
    line, r = persona_cart(ep)
    qty = int(26 // line["unit_price"]) + 1  # over SAVE10's 25.00 minimum
    call(env, ep, "update_cart_item", customer=PERSONA, item=line["item_id"], quantity=qty)
    order = call(env, ep, "place_order", customer=PERSONA, tip=4.0, promo_code="save10")
    sub = round(qty * line["unit_price"], 2)
    fee = round(min(8.0, max(1.0, sub * 0.08)), 2)
    assert order["status"] == "placed" and order["subtotal"] == sub
    assert order["delivery_fee"] == r["delivery_fee"] and order["service_fee"] == fee
    assert order["discount"] == round(sub * 0.1, 2) and order["promo_code"] == "SAVE10"
    total = round(sub + r["delivery_fee"] + fee + 4.0 - round(sub * 0.1, 2), 2)
    assert order["total"] == total == order["card_charged"]
    assert order["address"] == world(0, "small").persona.home.line
    me = one(ep, "SELECT * FROM customers WHERE id = ?", PERSONA)
    assert order["distance_km"] == km(r, me)
    ride = geo.route(r["lat"], r["lon"], me["lat"], me["lon"])["duration_min"]
    eta = (datetime.fromisoformat(order["eta"]) - datetime(2026, 6, 1, 9)).total_seconds() / 60
    assert eta == -(-(r["prep_minutes"] + ride + 5) // 1)
    assert [i["name"] for i in order["items"]] == [line["name"]]
    assert tables(ep) == {"orders", "order_items", "order_events", "cart_items", "promos"}
    assert rows(ep, "SELECT * FROM cart_items WHERE customer_id = ?", PERSONA) == []
    event = one(ep, "SELECT * FROM order_events WHERE order_id = ?", order["id"])
    assert event["status"] == "placed" and event["at"] == "2026-06-01T09:00:00"
    c = changes(ep)
    assert c[("promos", "SAVE10", "uses")]["new"] == c[("promos", "SAVE10", "uses")]["old"] + 1
    fails(env, ep, "place_order", "the cart of CUS-000001 is empty", customer=PERSONA)


def test_checkout_refuses_min_order_tip_promos_and_far_addresses(fd):
    env, ep = fd
    line, place = persona_cart(ep)
    qty = max(1, -(-place["min_order"] // line["unit_price"]))  # just over the minimum order
    call(env, ep, "update_cart_item", customer=PERSONA, item=line["item_id"], quantity=int(qty))
    sub = round(qty * line["unit_price"], 2)
    assert place["min_order"] <= sub < 25
    tip = round(sub / 2 + 0.5, 2)
    half = round(sub / 2, 2)
    fails(env, ep, "place_order", f"a tip can be at most half the subtotal: {half:.2f}, not {tip:.2f}", customer=PERSONA, tip=tip)  # fmt: skip
    fails(env, ep, "place_order", "promo code 'NOPE' does not exist", customer=PERSONA, promo_code="NOPE")
    fails(
        env,
        ep,
        "place_order",
        "promo code SPRING10 expired on 2026-05-31",
        customer=PERSONA,
        promo_code="SPRING10",
    )
    fails(
        env,
        ep,
        "place_order",
        "FLASH50 has been used up (200 of 200 uses)",
        customer=PERSONA,
        promo_code="FLASH50",
    )
    fails(env, ep, "place_order", "WELCOME5 is for a first order only; CUS-000001 already has", customer=PERSONA, promo_code="WELCOME5")  # fmt: skip
    fails(env, ep, "place_order", f"SAVE10 needs a subtotal of at least 25.00; the cart comes to {sub:.2f}", customer=PERSONA, promo_code="SAVE10")  # fmt: skip
    far = next(
        a
        for a in (geo.address("Portland", st, n) for st in range(12) for n in (1, 400))
        if geo.route(place["lat"], place["lon"], a.lat, a.lon)["distance_km"] > place["radius_km"]
    )
    fails(env, ep, "place_order", f"does not deliver to {far.line}", customer=PERSONA, address=far.line)
    fails(env, ep, "place_order", "cannot find the address", customer=PERSONA, address="Main Street 5")
    call(env, ep, "set_item_availability", item=line["item_id"], availability="sold_out")
    fails(env, ep, "place_order", f"sold out since it was added: {line['name']}", customer=PERSONA)
    call(env, ep, "set_item_availability", item=line["item_id"], availability="available")
    r = one(ep, "SELECT * FROM restaurants WHERE id = ?", place["id"])
    small = one(
        ep,
        "SELECT * FROM menu_items WHERE restaurant_id = ? AND available = 1 AND price < ? ORDER BY price",
        r["id"],
        r["min_order"],
    )
    call(env, ep, "remove_from_cart", customer=PERSONA, item=line["item_id"])
    call(env, ep, "add_to_cart", customer=PERSONA, item=small["id"])
    err = fails(env, ep, "place_order", f"has a minimum order of {r['min_order']:.2f}", customer=PERSONA)
    assert f"the cart comes to {small['price']:.2f}" in err


def test_promo_is_once_per_customer_and_free_delivery_needs_a_fee(fd):
    env, ep = fd
    line, place = persona_cart(ep)
    call(env, ep, "place_order", customer=PERSONA, promo_code="TAKE3")
    call(env, ep, "add_to_cart", customer=PERSONA, item=line["item_id"], quantity=2)
    fails(
        env,
        ep,
        "place_order",
        "already used promo code TAKE3 on order ORD-",
        customer=PERSONA,
        promo_code="TAKE3",
    )
    c, r, item = pair(ep, f"r.delivery_fee > 0 AND {TAKING}", plus=True)
    fill_cart(env, ep, c, r, item)
    fails(
        env,
        ep,
        "place_order",
        "gives free delivery, which this order already has",
        customer=c["id"],
        promo_code="NEWCITY",
    )
    order = call(env, ep, "place_order", customer=c["id"])
    assert order["delivery_fee"] == 0.0  # Plus members pay no delivery fee


def test_closed_restaurant_takes_orders_only_scheduled_within_its_hours(fd):
    env, ep = fd
    c, r, item = pair(ep, "r.status = 'online' AND NOT " + open_now_sql("r.id") + " AND EXISTS (SELECT 1 FROM opening_hours h WHERE h.restaurant_id = r.id AND h.weekday = 0 AND h.opens = '17:00')")  # fmt: skip
    fill_cart(env, ep, c, r, item)
    err = fails(env, ep, "place_order", "is closed now", customer=c["id"])
    assert "hours today: 17:00-23:00" in err and "next opening 2026-06-01T17:00" in err
    fails(
        env,
        ep,
        "place_order",
        "is not open at 2026-06-01T15:00:00",
        customer=c["id"],
        scheduled_for="2026-06-01T15:00",
    )
    fails(
        env,
        ep,
        "place_order",
        "at least 30 minutes from now",
        customer=c["id"],
        scheduled_for="2026-06-01T09:10",
    )
    fails(env, ep, "place_order", "at most 7 days ahead", customer=c["id"], scheduled_for="2026-06-09T18:00")
    # 19:00 local written in UTC: the tool converts it with the city's time zone
    tz = ZoneInfo(geo.city(r["city"]).timezone)
    utc = datetime(2026, 6, 1, 19, tzinfo=tz).astimezone(ZoneInfo("UTC"))
    order = call(env, ep, "place_order", customer=c["id"], scheduled_for=utc.strftime("%Y-%m-%dT%H:%MZ"))
    assert order["scheduled_for"] == "2026-06-01T19:00:00" and order["eta"] == "2026-06-01T19:00:00"


def test_paused_restaurant_takes_no_orders_until_its_pause_ends(fd):
    env, ep = fd
    line, place = persona_cart(ep)
    out = call(
        env,
        ep,
        "set_restaurant_status",
        restaurant=place["id"],
        status="paused",
        paused_until="2026-06-01T12:00",
    )
    assert (
        out["status"] == "paused"
        and out["paused_until"] == "2026-06-01T12:00:00"
        and not out["taking_orders"]
    )
    assert set(changes(ep)) == {
        ("restaurants", place["id"], "status"),
        ("restaurants", place["id"], "paused_until"),
    }
    fails(env, ep, "place_order", "has paused new orders until 2026-06-01T12:00:00", customer=PERSONA)
    fails(env, ep, "place_order", "is paused until", customer=PERSONA, scheduled_for="2026-06-01T11:00")
    assert (
        call(env, ep, "place_order", customer=PERSONA, scheduled_for="2026-06-01T12:30")["status"] == "placed"
    )
    fails(env, ep, "set_restaurant_status", "not in the future", restaurant=place["id"], status="paused", paused_until="2026-06-01T08:00")  # fmt: skip
    fails(env, ep, "set_restaurant_status", "more than 7 days away", restaurant=place["id"], status="paused", paused_until="2026-06-09T08:00")  # fmt: skip
    fails(env, ep, "set_restaurant_status", "paused_until only goes with status paused", restaurant=place["id"], status="online", paused_until="2026-06-01T12:00")  # fmt: skip
    assert (
        call(env, ep, "set_restaurant_status", restaurant=place["id"], status="paused")["paused_until"]
        == "2026-06-02T00:00:00"
    )
    assert (
        call(env, ep, "set_restaurant_status", restaurant=place["id"], status="online")["paused_until"]
        is None
    )
    closed = one(ep, "SELECT * FROM restaurants WHERE status = 'closed' ORDER BY id")
    fails(env, ep, "set_restaurant_status", f"{closed['name']} ({closed['id']}) is closed on the platform", restaurant=closed["id"], status="online")  # fmt: skip


def test_platform_credit_pays_first(fd):
    env, ep = fd
    c, r, item = pair(ep, TAKING)
    with ep.fork(DOMAIN).writing() as conn:  # a customer with 12.50 of platform credit
        conn.execute("UPDATE customers SET credit = 12.5 WHERE id = ?", (c["id"],))
    fill_cart(env, ep, c, r, item)
    order = call(env, ep, "place_order", customer=c["id"])
    assert order["credit_applied"] == 12.5 and order["card_charged"] == round(order["total"] - 12.5, 2)
    assert one(ep, "SELECT credit FROM customers WHERE id = ?", c["id"])["credit"] == 0.0


# -- the lifecycle ----------------------------------------------------------------------------------


def test_lifecycle_in_order_with_events_courier_and_eta(fd):
    env, ep = fd
    line, place = persona_cart(ep)
    o = call(env, ep, "place_order", customer=PERSONA, tip=2.0)
    oid = o["id"]
    fails(env, ep, "mark_order_ready", "it is placed; only accepted orders can", order=oid)
    fails(env, ep, "assign_courier", "only accepted or ready orders can", order=oid)
    fails(env, ep, "accept_order", "prep time must be 5-90 minutes, got 120", order=oid, prep_minutes=120)
    accepted = call(env, ep, "accept_order", order=oid, prep_minutes=20)
    assert accepted["status"] == "accepted" and accepted["prep_minutes"] == 20
    fails(env, ep, "accept_order", "it is accepted; only placed orders can", order=oid)
    fails(env, ep, "confirm_pickup", "is not ready yet", order=oid)
    r = one(ep, "SELECT * FROM restaurants WHERE id = ?", place["id"])
    free = rows(ep, "SELECT * FROM couriers WHERE city = 'Portland' AND status = 'available'")
    ranked = sorted(free, key=lambda k: (geo.route(k["lat"], k["lon"], r["lat"], r["lon"], "cycling" if k["vehicle"] == "bike" else "driving")["duration_min"], k["id"]))  # fmt: skip
    assigned = call(env, ep, "assign_courier", order=oid)
    assert assigned["courier_id"] == ranked[0]["id"]
    assert one(ep, "SELECT status FROM couriers WHERE id = ?", ranked[0]["id"])["status"] == "busy"
    fails(env, ep, "assign_courier", f"already has courier {ranked[0]['name']}", order=oid)
    tracked = call(env, ep, "track_order", order=oid)
    k = ranked[0]
    mode = "cycling" if k["vehicle"] == "bike" else "driving"
    assert tracked["courier"]["heading_to"] == "restaurant"
    assert (
        tracked["courier"]["distance_km"]
        == geo.route(k["lat"], k["lon"], r["lat"], r["lon"], mode)["distance_km"]
    )
    fails(env, ep, "confirm_delivery", "it is accepted; only picked_up orders can", order=oid)
    call(env, ep, "mark_order_ready", order=oid)
    picked = call(env, ep, "confirm_pickup", order=oid)
    me = one(ep, "SELECT * FROM customers WHERE id = ?", PERSONA)
    ride = geo.route(r["lat"], r["lon"], me["lat"], me["lon"], mode)["duration_min"]
    assert picked["status"] == "picked_up"
    assert (datetime.fromisoformat(picked["eta"]) - datetime(2026, 6, 1, 9)).total_seconds() / 60 == -(
        -(ride + 5) // 1
    )
    assert call(env, ep, "track_order", order=oid)["courier"]["heading_to"] == "customer"
    done = call(env, ep, "confirm_delivery", order=oid)
    assert (
        done["status"] == "delivered" and done["delivered_at"] == "2026-06-01T09:00:00" and not done["late"]
    )
    courier = one(ep, "SELECT * FROM couriers WHERE id = ?", k["id"])
    assert courier["status"] == "available" and (courier["lat"], courier["lon"]) == (me["lat"], me["lon"])
    events = [
        e["status"] for e in rows(ep, "SELECT status FROM order_events WHERE order_id = ? ORDER BY id", oid)
    ]
    assert events == ["placed", "accepted", "courier_assigned", "ready", "picked_up", "delivered"]


def test_courier_choice_rules(fd):
    env, ep = fd
    o = one(
        ep,
        "SELECT o.* FROM orders o WHERE o.status IN ('accepted', 'ready') AND o.courier_id IS NULL ORDER BY o.id",
    )
    city = one(ep, "SELECT city FROM restaurants WHERE id = ?", o["restaurant_id"])["city"]
    busy = one(ep, "SELECT * FROM couriers WHERE status = 'busy' ORDER BY id")
    offline = one(ep, "SELECT * FROM couriers WHERE status = 'offline' ORDER BY id")
    elsewhere = one(ep, "SELECT * FROM couriers WHERE status = 'available' AND city != ? ORDER BY id", city)
    fails(
        env,
        ep,
        "assign_courier",
        f"{busy['id']}) is busy with order ORD-",
        order=o["id"],
        courier=busy["id"],
    )
    fails(env, ep, "assign_courier", f"{offline['id']}) is offline", order=o["id"], courier=offline["id"])
    fails(env, ep, "assign_courier", f"works in {elsewhere['city']}, the order is in {city}", order=o["id"], courier=elsewhere["id"])  # fmt: skip
    here = rows(ep, "SELECT * FROM couriers WHERE status = 'available' AND city = ? ORDER BY id", city)
    if here:
        out = call(env, ep, "assign_courier", order=o["id"], courier=here[-1]["id"])
        assert out["courier_id"] == here[-1]["id"]
        assert tables(ep) == {"orders", "couriers", "order_events"}


def test_pickup_needs_a_courier(fd):
    env, ep = fd
    o = one(ep, "SELECT * FROM orders WHERE status = 'ready' AND courier_id IS NULL ORDER BY id")
    fails(
        env, ep, "confirm_pickup", f"order {o['id']} has no courier; assign one before pickup", order=o["id"]
    )


def test_reject_marks_ran_out_items_sold_out_and_refunds_everything(fd):
    env, ep = fd
    o = one(ep, "SELECT * FROM orders WHERE status = 'placed' ORDER BY id")
    items = rows(ep, "SELECT item_id, name FROM order_items WHERE order_id = ? ORDER BY id", o["id"])
    fails(env, ep, "reject_order", "needs out_of_stock_items", order=o["id"], reason="out_of_items")
    fails(env, ep, "reject_order", "only go with reason out_of_items, not too_busy", order=o["id"], reason="too_busy", out_of_stock_items=[items[0]["item_id"]])  # fmt: skip
    fails(env, ep, "reject_order", f"ITM-000001 not in order {o['id']}", order=o["id"], reason="out_of_items", out_of_stock_items=["ITM-000001"])  # fmt: skip
    out = call(
        env,
        ep,
        "reject_order",
        order=o["id"],
        reason="out_of_items",
        out_of_stock_items=[items[0]["item_id"]],
    )
    assert (
        out["status"] == "rejected"
        and out["reject_reason"] == "out_of_items"
        and out["refunded"] == o["total"]
    )
    assert one(ep, "SELECT available FROM menu_items WHERE id = ?", items[0]["item_id"])["available"] == 0
    assert (
        sum(r["amount"] for r in rows(ep, "SELECT amount FROM refunds WHERE order_id = ?", o["id"]))
        == o["total"]
    )
    fails(env, ep, "issue_refund", "already fully refunded", order=o["id"], amount=1.0, reason="cancelled")


# -- cancelling and refunds --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("where", "share"),
    [
        ("status = 'placed'", 0.0),
        ("status IN ('accepted', 'ready') AND courier_id IS NULL", 0.5),
        ("status IN ('accepted', 'ready') AND courier_id IS NOT NULL", 1.0),
    ],
)
def test_cancel_fee_by_stage(fd, where, share):
    env, ep = fd
    o = one(ep, f"SELECT * FROM orders WHERE {where} ORDER BY id")
    out = call(env, ep, "cancel_order", order=o["id"], reason="customer_request")
    fee = round(min(o["subtotal"] * share, o["total"]), 2)
    assert out["status"] == "cancelled" and out["cancel_fee"] == fee
    assert out["refunded"] == round(o["total"] - fee, 2)
    assert sum(r["amount"] for r in out["refunds"]) == round(o["total"] - fee, 2)
    if o["courier_id"]:
        assert one(ep, "SELECT status FROM couriers WHERE id = ?", o["courier_id"])["status"] == "available"
    fails(env, ep, "cancel_order", f"order {o['id']} is already cancelled", order=o["id"], reason="other")
    if fee:
        fails(
            env,
            ep,
            "issue_refund",
            "only its cancellation fee can be refunded",
            order=o["id"],
            amount=1.0,
            reason="quality",
        )
        fails(
            env,
            ep,
            "issue_refund",
            f"at most {fee:.2f} is left",
            order=o["id"],
            amount=round(fee + 1, 2),
            reason="cancelled",
        )
        back = call(env, ep, "issue_refund", order=o["id"], amount=fee, reason="cancelled")
        assert back["refunded_total"] == o["total"]


def test_cancel_refused_once_picked_up_or_finished(fd):
    env, ep = fd
    moving = one(ep, "SELECT * FROM orders WHERE status = 'picked_up' ORDER BY id")
    err = fails(env, ep, "cancel_order", "already on its way", order=moving["id"], reason="taking_too_long")
    assert moving["picked_up_at"] in err
    done = one(ep, "SELECT id FROM orders WHERE status = 'delivered' ORDER BY id")
    fails(env, ep, "cancel_order", "is already delivered", order=done["id"], reason="other")
    fails(
        env,
        ep,
        "issue_refund",
        "refunds are for delivered orders",
        order=moving["id"],
        amount=1.0,
        reason="quality",
    )


def test_refund_rules_on_delivered_orders(fd):
    env, ep = fd
    on_time = one(
        ep,
        "SELECT * FROM orders WHERE status = 'delivered' AND delivered_at <= eta AND refunded = 0 ORDER BY id",
    )
    late = one(
        ep,
        "SELECT * FROM orders WHERE status = 'delivered' AND delivered_at > eta AND refunded = 0 ORDER BY id",
    )
    fails(env, ep, "issue_refund", f"was not late: delivered at {on_time['delivered_at']}, ETA {on_time['eta']}", order=on_time["id"], amount=1.0, reason="late")  # fmt: skip
    fails(env, ep, "issue_refund", "reason cancelled is for cancelled orders", order=on_time["id"], amount=1.0, reason="cancelled")  # fmt: skip
    err = fails(
        env,
        ep,
        "issue_refund",
        "at most",
        order=late["id"],
        amount=round(late["total"] + 0.01, 2),
        reason="late",
    )
    assert f"it was paid {late['total']:.2f}" in err
    part = round(late["total"] / 4, 2)
    out = call(env, ep, "issue_refund", order=late["id"], amount=part, reason="late", method="credit")
    assert out["refunds"][0]["method"] == "credit"
    c = changes(ep)
    customer = late["customer_id"]
    assert c[("customers", customer, "credit")]["new"] == round(
        c[("customers", customer, "credit")]["old"] + part, 2
    )
    assert c[("orders", late["id"], "refunded")]["new"] == part
    assert tables(ep) == {"refunds", "orders", "customers"}
    rest = round(late["total"] - part, 2)
    fails(
        env,
        ep,
        "issue_refund",
        f"at most {rest:.2f} is left",
        order=late["id"],
        amount=round(rest + 0.5, 2),
        reason="quality",
    )
    call(env, ep, "issue_refund", order=late["id"], amount=rest, reason="quality")
    fails(env, ep, "issue_refund", "already fully refunded", order=late["id"], amount=0.5, reason="quality")


def test_card_refunds_never_exceed_what_the_card_paid(fd):
    env, ep = fd
    o = one(ep, "SELECT * FROM orders WHERE status = 'delivered' AND refunded = 0 AND total > 20 ORDER BY id")
    with ep.fork(DOMAIN).writing() as conn:
        conn.execute(
            "UPDATE orders SET credit_applied = 10, card_charged = round(total - 10, 2) WHERE id = ?",
            (o["id"],),
        )
    card = round(o["total"] - 10, 2)
    fails(
        env,
        ep,
        "issue_refund",
        f"only {card:.2f} of order",
        order=o["id"],
        amount=o["total"],
        reason="quality",
    )
    call(env, ep, "issue_refund", order=o["id"], amount=o["total"], reason="quality", method="credit")


def test_rating_is_for_delivered_orders_once(fd):
    env, ep = fd
    o = one(
        ep,
        "SELECT o.id FROM orders o WHERE o.status = 'delivered' AND o.id NOT IN (SELECT order_id FROM ratings) ORDER BY o.id",
    )
    got = call(env, ep, "rate_order", order=o["id"], stars=4, comment="Good portions")
    assert (got["stars"], got["comment"], got["at"]) == (4, "Good portions", "2026-06-01T09:00:00")
    assert tables(ep) == {"ratings"}
    fails(env, ep, "rate_order", "was already rated 4 stars on 2026-06-01T09:00:00", order=o["id"], stars=5)
    live = one(ep, "SELECT id FROM orders WHERE status = 'placed' ORDER BY id")
    fails(env, ep, "rate_order", "only delivered orders can be rated", order=live["id"], stars=5)


def test_item_availability_and_menu(fd):
    env, ep = fd
    line, place = persona_cart(ep)
    menu = call(env, ep, "get_restaurant_menu", restaurant=place["id"])
    assert menu["restaurant"] == place["name"] and menu["taking_orders"]
    assert {i["restaurant_id"] for i in menu["items"]} == {place["id"]}
    item = next(i for i in menu["items"] if i["available"])
    out = call(env, ep, "set_item_availability", item=item["id"], availability="sold_out")
    assert out["sold_out"] and set(changes(ep)) == {("menu_items", item["id"], "available")}
    left = call(env, ep, "get_restaurant_menu", restaurant=place["id"], available_only=True)["items"]
    assert item["id"] not in {i["id"] for i in left}
    err = fails(
        env,
        ep,
        "get_restaurant_menu",
        "has no menu section 'Cakes'",
        restaurant=place["id"],
        section="Cakes",
    )
    assert menu["sections"].split(", ")[0] in err


def test_seeded_history_is_consistent(medium):
    """Times run in lifecycle order, refunds add up and never exceed what was paid, late refunds
    are for late orders, busy couriers are exactly those on orders in flight."""

    def count(sql: str) -> int:
        return medium.execute(sql).fetchone()[0]

    assert not count(
        "SELECT count(*) FROM orders WHERE status = 'delivered' AND (accepted_at < placed_at "
        "OR ready_at < accepted_at OR picked_up_at < ready_at OR delivered_at < picked_up_at)"
    )
    assert not count("SELECT count(*) FROM orders WHERE refunded > total + 0.001")
    assert not count(
        "SELECT count(*) FROM orders o WHERE abs(o.refunded - "
        "(SELECT coalesce(sum(amount), 0) FROM refunds f WHERE f.order_id = o.id)) > 0.001"
    )
    assert not count(
        "SELECT count(*) FROM refunds f JOIN orders o ON o.id = f.order_id "
        "WHERE f.reason = 'late' AND o.delivered_at <= o.eta"
    )
    busy = {r[0] for r in medium.execute("SELECT id FROM couriers WHERE status = 'busy'")}
    on_orders = medium.execute(
        "SELECT courier_id FROM orders WHERE status IN ('accepted', 'ready', 'picked_up') AND courier_id IS NOT NULL"
    ).fetchall()
    assert busy == {r[0] for r in on_orders} and len(on_orders) == len(busy)
    assert not count(
        "SELECT count(*) FROM orders WHERE status IN ('placed', 'accepted', 'ready', 'picked_up') "
        "AND (eta < '2026-06-01T09:00:00' OR placed_at > '2026-06-01T09:00:00')"
    )
    assert not count("SELECT count(*) FROM order_items i JOIN orders o ON o.id = i.order_id JOIN menu_items m ON m.id = i.item_id WHERE m.restaurant_id != o.restaurant_id")  # fmt: skip
    assert count("SELECT count(*) FROM cart_items c WHERE (SELECT count(DISTINCT restaurant_id) FROM cart_items d WHERE d.customer_id = c.customer_id) > 1") == 0  # fmt: skip
