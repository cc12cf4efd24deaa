"""Travel booking's rules: token gating, paying, fares, bags, insurance, hotels and cancellations.
Each refused call names its values and changes nothing; each success changes exactly its rows."""

from __future__ import annotations

import pytest

from servers.registry import get_domain
from tests.domain_helpers import DomainCalls, changes

DOMAIN = "travel_booking"
calls = DomainCalls(DOMAIN)
call, fails, rows, one = calls.call, calls.fails, calls.rows, calls.one
DISCOVERY = {"list_records", "search_records", "get_unique_values"}
PERSONA = "TRV-000001"
# the persona's fixed trips (persona_trips.PERSONA_TRIPS, in order) and cards
DENVER, SFO_BASIC, NEW_YORK, LONDON, AUSTIN, SEATTLE_PAST = (f"ITN-00000{i}" for i in range(1, 7))
VISA, MASTERCARD, GIFT, EXPIRED = "PMT-000001", "PMT-000002", "PMT-000003", "PMT-000004"
BOOKABLE = """
SELECT d.id, d.price_economy, d.seats_left_economy FROM flight_dates d JOIN flights f ON f.id = d.flight_id
WHERE d.status = 'scheduled' AND d.departs_utc > '2026-06-01T17:00:00' AND d.seats_left_economy >= 2
  AND d.price_economy < 600 ORDER BY d.departs_utc, d.id
"""


@pytest.fixture
def trip(make_env):
    env = make_env(DOMAIN)
    return env, env.open()


def token(ep) -> str:
    return one(ep, "SELECT access_token FROM sessions")["access_token"]


def tables(ep) -> set[str]:
    return {c["table"] for c in ep.diff()}


def login(env, ep, traveler: str, scope: str = "read_write") -> str:
    cred = one(ep, "SELECT email, password FROM travelers WHERE id = ?", traveler)
    return call(env, ep, "authenticate", email=cred["email"], password=cred["password"], scope=scope)[
        "access_token"
    ]


# -- catalogue, seed and the persona ----------------------------------------------------------


def test_enough_tools_each_with_two_ways_to_ask():
    domain = get_domain(DOMAIN)
    own = [t for name, t in domain.tools.items() if name not in DISCOVERY and not t.hidden]
    assert len(own) >= 25
    assert all(len(t.says) >= 2 for t in own if t.params)
    assert {"charges", "support_tickets"} <= set(domain.append_only())
    assert domain.variants["token_expired"].first == "authenticate"
    token_params = [p for t in own for p in t.params if p.name == "access_token"]
    assert token_params and all(p.sensitive and p.ref.table_name == "access_tokens" for p in token_params)
    assert domain.tools["authenticate"].returns == "access_tokens"


def test_sampler_pools_at_medium(medium):
    def count(sql: str) -> int:
        return medium.execute(sql).fetchone()[0]

    bookable = (
        "SELECT count(*) FROM flight_dates, (SELECT 1 UNION SELECT 2 UNION SELECT 3) WHERE status = 'scheduled' "
        "AND departs_utc > '2026-06-01T17:00:00'"
    )
    assert count(bookable) >= 2000
    assert count("SELECT count(*) FROM airports") == 60
    assert count("SELECT count(*) FROM itineraries WHERE status = 'active'") >= 1200
    assert count("SELECT count(*) FROM segments WHERE cabin = 'basic_economy' AND status = 'booked'") >= 150
    full = "(cabin = 'business' OR created_at >= '2026-05-31T16:00:00' OR insurance = 1)"
    active = "status = 'active' AND trip_type != 'hotel_only'"
    assert count(f"SELECT count(*) FROM itineraries WHERE {active} AND {full}") >= 300
    assert count(f"SELECT count(*) FROM itineraries WHERE {active} AND NOT {full}") >= 300
    assert count("SELECT count(*) FROM stays WHERE status = 'booked'") >= 500
    assert count("SELECT count(*) FROM stays") >= 1500
    assert count("SELECT count(*) FROM access_tokens WHERE status = 'unissued'") >= 3000
    assert count("SELECT count(*) FROM payment_methods WHERE status = 'expired'") > 0
    assert count("SELECT count(*) FROM travelers WHERE status = 'locked'") > 0
    assert count("SELECT count(*) FROM flight_dates WHERE status = 'cancelled' AND day > '2026-06-01'") > 0


def test_persona_is_signed_in_with_a_live_token_and_owns_the_fixed_trips(medium):
    from servers.kit import world

    p = world(0, "medium").persona
    assert medium.execute("SELECT name, email FROM travelers WHERE id = ?", (PERSONA,)).fetchone() == (
        p.name,
        p.email,
    )
    session = medium.execute("SELECT traveler_id, access_token FROM sessions").fetchone()
    assert session[0] == PERSONA and session[1].startswith("tk_")
    status = medium.execute("SELECT status, scope FROM access_tokens WHERE id = ?", (session[1],)).fetchone()
    assert status == ("active", "read_write")
    mine = medium.execute(
        "SELECT count(*) FROM itineraries WHERE traveler_id = ? AND status = 'active'", (PERSONA,)
    ).fetchone()[0]
    assert mine == 6


def test_discovery_never_shows_tokens_or_card_numbers(trip):
    env, ep = trip
    tok = token(ep)
    shown = call(env, ep, "list_records", table="access_tokens", limit=100)
    assert shown["rows"] and tok not in str(shown) and "id" not in shown["rows"][0]
    cards = call(env, ep, "list_records", table="payment_methods", limit=5)
    assert "pan" not in cards["rows"][0]
    assert tok not in str(call(env, ep, "get_login_status"))


# -- the access token ----------------------------------------------------------------------------


def test_unknown_old_and_expired_tokens_are_refused(trip, make_env):
    env, ep = trip
    fails(env, ep, "list_payment_methods", r"never issued; authenticate first", access_token="tk_nope")
    old = token(ep)
    new = login(env, ep, "TRV-000002")
    assert new != old and call(env, ep, "list_payment_methods", access_token=new)["payment_methods"]
    fails(env, ep, "list_itineraries", r"not the token of this session", access_token=old)
    ep2 = make_env(DOMAIN).open({DOMAIN: "token_expired"})
    msg = fails(
        env,
        ep2,
        "get_itinerary",
        r"expired at 2026-06-01T15:00:00 UTC; authenticate again",
        access_token=old,
        itinerary=DENVER,
    )
    assert "authenticate" in msg
    assert call(env, ep2, "get_login_status")["logged_in"] is False


def test_authenticate_then_retry_in_the_expired_variant(make_env):
    env = make_env(DOMAIN)
    ep = env.open({DOMAIN: "token_expired"})
    fresh = login(env, ep, PERSONA)
    got = call(env, ep, "get_itinerary", access_token=fresh, itinerary=DENVER)
    assert got["id"] == DENVER
    changed = changes(ep)
    assert ("access_tokens", fresh, "status") in changed and (
        "sessions",
        "SES-000001",
        "access_token",
    ) in changed
    assert tables(ep) == {"access_tokens", "sessions"}


def test_read_scope_cannot_write(trip):
    env, ep = trip
    tok = login(env, ep, PERSONA, scope="read")
    assert call(env, ep, "list_itineraries", access_token=tok)["total"] >= 6
    fails(
        env,
        ep,
        "set_budget_limit",
        r"scope 'read', which cannot set the budget; authenticate with scope read_write",
        access_token=tok,
        budget=5000,
    )


def test_authenticate_rules(trip):
    env, ep = trip
    email = one(ep, "SELECT email FROM travelers WHERE id = ?", PERSONA)["email"]
    fails(env, ep, "authenticate", rf"wrong email or password for {email}", email=email, password="wrong-one")
    locked = one(ep, "SELECT email, password FROM travelers WHERE status = 'locked' LIMIT 1")
    fails(env, ep, "authenticate", r"locked", email=locked["email"], password=locked["password"])
    login(env, ep, PERSONA)
    login(env, ep, PERSONA)  # 15:30 + two more: the daily limit of three sign-ins
    fails(
        env,
        ep,
        "authenticate",
        r"signed in 3 times today, the daily limit is 3",
        email=email,
        password=one(ep, "SELECT password FROM travelers WHERE id = ?", PERSONA)["password"],
    )


# -- booking flights -----------------------------------------------------------------------------


def _flight(ep, k: int = 0) -> dict:
    return rows(ep, BOOKABLE)[k]


def test_book_flight_charges_the_card_and_takes_seats(trip):
    env, ep = trip
    fd = _flight(ep)
    before = one(ep, "SELECT balance FROM payment_methods WHERE id = ?", VISA)["balance"]
    got = call(
        env,
        ep,
        "book_flight",
        access_token=token(ep),
        flight_dates=[fd["id"]],
        cabin="economy",
        payment_method=VISA,
        bags=4,
        insurance=True,
    )
    total = round(fd["price_economy"] + 50 + 30, 2)  # gold economy: 3 free bags, 1 paid; insurance
    assert got["total_charged"] == total and got["bags"] == {"count": 4, "free": 3, "paid": 1}
    assert one(ep, "SELECT balance FROM payment_methods WHERE id = ?", VISA)["balance"] == round(
        before + total, 2
    )
    left = one(ep, "SELECT seats_left_economy FROM flight_dates WHERE id = ?", fd["id"])["seats_left_economy"]
    assert left == fd["seats_left_economy"] - 1
    assert tables(ep) == {
        "itineraries",
        "segments",
        "passengers",
        "bags",
        "charges",
        "flight_dates",
        "payment_methods",
    }
    assert one(ep, "SELECT total_paid FROM itineraries WHERE id = ?", got["itinerary"])["total_paid"] == total


def test_book_flight_refusals(trip):
    env, ep = trip
    tok, fd = token(ep), _flight(ep)
    fails(
        env,
        ep,
        "book_flight",
        r"lead passenger Kid Lee is \d+ on .*must be 18 or older",
        access_token=tok,
        flight_dates=[fd["id"]],
        cabin="economy",
        payment_method=VISA,
        passengers=["Kid Lee 2015-01-01"],
    )
    fails(
        env,
        ep,
        "book_flight",
        rf"card {EXPIRED} .*expired in",
        access_token=tok,
        flight_dates=[fd["id"]],
        cabin="economy",
        payment_method=EXPIRED,
    )
    gone = one(ep, "SELECT id FROM flight_dates WHERE status = 'landed' LIMIT 1")["id"]
    fails(
        env,
        ep,
        "book_flight",
        r"is landed; only scheduled flights can be booked",
        access_token=tok,
        flight_dates=[gone],
        cabin="economy",
        payment_method=VISA,
    )
    full = one(
        ep,
        "SELECT id FROM flight_dates WHERE status = 'scheduled' AND seats_left_business = 0 "
        "AND departs_utc > '2026-06-02' LIMIT 1",
    )["id"]
    fails(
        env,
        ep,
        "book_flight",
        r"has 0 business seats left; 1 needed",
        access_token=tok,
        flight_dates=[full],
        cabin="business",
        payment_method=VISA,
    )
    a = one(
        ep,
        f"SELECT id, flight_id, departs_utc, arrives_utc FROM ({BOOKABLE}) JOIN flight_dates USING (id) LIMIT 1",
    )
    clash = one(
        ep,
        "SELECT id FROM flight_dates WHERE status = 'scheduled' AND departs_utc > ? AND departs_utc < ? "
        "AND seats_left_economy > 0 AND id != ? LIMIT 1",
        a["departs_utc"],
        a["arrives_utc"],
        a["id"],
    )
    fails(
        env,
        ep,
        "book_flight",
        r"may not overlap",
        access_token=tok,
        flight_dates=[a["id"], clash["id"]],
        cabin="economy",
        payment_method=VISA,
    )
    fails(
        env,
        ep,
        "book_flight",
        rf"card {GIFT} \(Gift card ending \d+\) cannot pay .*remaining balance is 400.00",
        access_token=tok,
        flight_dates=[fd["id"]],
        cabin="economy",
        payment_method=GIFT,
        passengers=["Ann Lee 1980-01-01", "Bo Lee 1981-01-01", "Cy Lee 1982-01-01", "Di Lee 1983-01-01"],
    )


def test_budget_limit_caps_a_booking(trip):
    env, ep = trip
    tok, fd = token(ep), _flight(ep)
    call(env, ep, "set_budget_limit", access_token=tok, budget=100)
    fails(
        env,
        ep,
        "book_flight",
        r"over your per-trip budget limit of 100.00",
        access_token=tok,
        flight_dates=[fd["id"]],
        cabin="business",
        payment_method=VISA,
    )
    fails(env, ep, "set_budget_limit", r"already 100.00", access_token=tok, budget=100)


# -- after booking -------------------------------------------------------------------------------


def test_insurance_only_within_24_hours(trip):
    env, ep = trip
    tok = token(ep)
    fails(
        env,
        ep,
        "purchase_insurance",
        r"booked at .* within 24 hours of booking",
        access_token=tok,
        itinerary=DENVER,
        payment_method=VISA,
    )
    fails(
        env,
        ep,
        "purchase_insurance",
        r"already insured",
        access_token=tok,
        itinerary=LONDON,
        payment_method=VISA,
    )
    got = call(env, ep, "purchase_insurance", access_token=tok, itinerary=NEW_YORK, payment_method=VISA)
    assert got["charged"] == 60.0  # two passengers
    assert one(ep, "SELECT insurance FROM itineraries WHERE id = ?", NEW_YORK)["insurance"] == 1


def test_bags_allowance_and_cap(trip):
    env, ep = trip
    tok = token(ep)
    bag = one(ep, "SELECT * FROM bags WHERE itinerary_id = ?", DENVER)  # gold economy: 3 free
    got = call(env, ep, "add_bags", access_token=tok, itinerary=DENVER, bags=3, payment_method=VISA)
    assert got["paid_bags"] == max(0, bag["count"] + 3 - 3) and got["charged"] == 50.0 * got["paid_bags"]
    fails(
        env,
        ep,
        "add_bags",
        r"would pass the 5 allowed \(5 per passenger\)",
        access_token=tok,
        itinerary=DENVER,
        bags=5,
        payment_method=VISA,
    )
    fails(
        env,
        ep,
        "add_bags",
        r"has already flown a segment|only active ones change",
        access_token=tok,
        itinerary=SEATTLE_PAST,
        bags=1,
        payment_method=VISA,
    )


def test_changes_follow_the_fare_rules(trip):
    env, ep = trip
    tok = token(ep)
    basic = one(ep, "SELECT id FROM segments WHERE itinerary_id = ?", SFO_BASIC)["id"]
    fails(
        env,
        ep,
        "change_flight",
        r"basic economy fares cannot be changed",
        access_token=tok,
        segment=basic,
        day="2026-06-09",
        payment_method=VISA,
    )
    seg = one(
        ep,
        "SELECT s.id, d.flight_id FROM segments s JOIN flight_dates d ON d.id = s.flight_date_id "
        "WHERE s.itinerary_id = ? ORDER BY position",
        DENVER,
    )
    other = one(ep, "SELECT id FROM flights WHERE origin != 'PDX' LIMIT 1")["id"]
    fails(
        env,
        ep,
        "change_flight",
        rf"flight {other} flies .*a change keeps the route PDX-DEN",
        access_token=tok,
        segment=seg["id"],
        day="2026-06-20",
        payment_method=VISA,
        flight_number=other,
    )
    day = one(
        ep,
        "SELECT day FROM flight_dates WHERE flight_id = ? AND status = 'scheduled' AND day > '2026-06-20' "
        "AND seats_left_economy > 0 ORDER BY day LIMIT 1",
        seg["flight_id"],
    )["day"]
    got = call(env, ep, "change_flight", access_token=tok, segment=seg["id"], day=day, payment_method=VISA)
    assert got["change_fee"] == 75.0  # economy, more than 7 days out


def test_cancellation_refunds(trip):
    env, ep = trip
    tok = token(ep)
    fails(
        env,
        ep,
        "cancel_itinerary",
        r"refunds nothing \(basic economy fare\); call again with accept_no_refund=true",
        access_token=tok,
        itinerary=SFO_BASIC,
        reason="change_of_plans",
    )
    fails(
        env,
        ep,
        "cancel_itinerary",
        r"no flight on itinerary .* was cancelled by the airline",
        access_token=tok,
        itinerary=DENVER,
        reason="airline_cancelled",
    )
    recent = call(env, ep, "cancel_itinerary", access_token=tok, itinerary=NEW_YORK, reason="personal")
    paid = one(
        ep, "SELECT sum(amount) AS s FROM charges WHERE itinerary_id = ? AND kind = 'charge'", NEW_YORK
    )["s"]
    assert recent["refund"] == round(paid, 2) and recent["refund_rule"] == "booked within the last 24 hours"
    denver = one(ep, "SELECT fare_paid FROM itineraries WHERE id = ?", DENVER)["fare_paid"]
    got = call(env, ep, "cancel_itinerary", access_token=tok, itinerary=DENVER, reason="change_of_plans")
    stay = one(ep, "SELECT total_paid, refundable FROM stays WHERE itinerary_id = ?", DENVER)
    assert got["refund"] == round(denver - 100 + (stay["total_paid"] if stay["refundable"] else 0), 2)
    fails(
        env,
        ep,
        "cancel_itinerary",
        r"is cancelled; only active ones change",
        access_token=tok,
        itinerary=DENVER,
        reason="personal",
    )
    stranger = one(
        ep, "SELECT id FROM itineraries WHERE traveler_id != ? AND status = 'active' LIMIT 1", PERSONA
    )
    fails(
        env,
        ep,
        "cancel_itinerary",
        rf"itinerary {stranger['id']} does not belong to .*\({PERSONA}\)",
        access_token=tok,
        itinerary=stranger["id"],
        reason="personal",
    )


def test_passenger_names_are_corrected_not_transferred(trip):
    env, ep = trip
    tok = token(ep)
    pax = one(ep, "SELECT * FROM passengers WHERE itinerary_id = ? ORDER BY id", DENVER)
    fails(
        env,
        ep,
        "update_passenger",
        r"would give the ticket to someone else",
        access_token=tok,
        passenger=pax["id"],
        first_name="Zed",
        last_name="Other",
    )
    call(env, ep, "update_passenger", access_token=tok, passenger=pax["id"], last_name=pax["last_name"] + "e")
    assert set(changes(ep)) == {("passengers", pax["id"], "last_name")}


def test_hotel_rules(trip):
    env, ep = trip
    tok = token(ep)
    room = one(ep, "SELECT * FROM room_types WHERE capacity = 2 ORDER BY id LIMIT 1")
    fails(
        env,
        ep,
        "book_hotel",
        r"sleeps 2; 3 guests asked",
        access_token=tok,
        room_type=room["id"],
        check_in="2026-06-12",
        nights=2,
        payment_method=VISA,
        guests=3,
    )
    fails(
        env,
        ep,
        "book_hotel",
        r"check-in 2026-05-20 is in the past",
        access_token=tok,
        room_type=room["id"],
        check_in="2026-05-20",
        nights=2,
        payment_method=VISA,
    )
    got = call(
        env,
        ep,
        "book_hotel",
        access_token=tok,
        room_type=room["id"],
        check_in="2026-06-12",
        nights=2,
        payment_method=VISA,
    )
    assert got["total_charged"] == round(room["nightly_price"] * 2, 2)
    assert tables(ep) == {"itineraries", "stays", "charges", "payment_methods"}
    refund = call(env, ep, "cancel_stay", access_token=tok, stay=got["stay"])["refund"]
    assert refund == (got["total_charged"] if room["refundable"] else 0.0)


def test_new_cards_are_checked(trip):
    env, ep = trip
    tok = token(ep)
    fails(
        env,
        ep,
        "add_payment_method",
        r"ending 1112 is not a valid card number",
        access_token=tok,
        card_number="4111111111111112",
        expiry="2028-09",
        cvv="123",
    )
    fails(
        env,
        ep,
        "add_payment_method",
        r"expired in 2025-01",
        access_token=tok,
        card_number="4111111111111111",
        expiry="2025-01",
        cvv="123",
    )
    fails(
        env,
        ep,
        "add_payment_method",
        r"Amex security code has 4 digits, got 3",
        access_token=tok,
        card_number="378282246310005",
        expiry="2028-09",
        cvv="123",
    )
    card = call(
        env,
        ep,
        "add_payment_method",
        access_token=tok,
        card_number="4111111111111111",
        expiry="2028-09",
        cvv="123",
    )
    assert card["nickname"] == "Visa ending 1111" and "pan" not in card
    fails(
        env,
        ep,
        "add_payment_method",
        rf"already saved as {card['id']}",
        access_token=tok,
        card_number="4111111111111111",
        expiry="2029-09",
        cvv="321",
    )


def test_catalogue_lookups(trip):
    env, ep = trip
    assert call(env, ep, "find_nearest_airport", city="Boulder")["airports"][0]["id"] == "DEN"
    fails(env, ep, "find_nearest_airport", r"unknown place 'Atlantis'", city="Atlantis")
    fails(
        env,
        ep,
        "search_flights",
        r"2026-05-20 is in the past",
        origin="PDX",
        destination="DEN",
        day="2026-05-20",
    )
    found = call(env, ep, "search_flights", origin="PDX", destination="DEN", day="2026-06-12", max_stops=1)
    assert found["options"] and all(
        o["route"][0] == "PDX" and o["route"][-1] == "DEN" for o in found["options"]
    )
    euros = call(env, ep, "convert_currency", amount=100, from_currency="USD", to_currency="EUR")
    assert euros["converted"] == 92.0
    assert not ep.diff()
