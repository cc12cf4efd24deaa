"""Airline desk: the service's own rules (refused calls name their values and change nothing,
successes change exactly the expected rows) and the written policy (every rule catches a
violating call and passes a compliant one, in both the written and the enforced mode)."""

from __future__ import annotations

import pytest

from servers.domains.airline_service import rules as R
from servers.domains.airline_service.model import FREE_BAGS
from servers.kit import Db, Near, world
from servers.registry import get_domain
from tests.domain_helpers import DomainCalls, changes

DOMAIN = "airline_service"
calls = DomainCalls(DOMAIN)
call, fails, rows, one = calls.call, calls.fails, calls.rows, calls.one
KIT = {"list_records", "search_records", "get_unique_values", "get_policy"}
MODES = ["written", "enforced"]
LEG = "SELECT rf.reservation_id FROM reservation_flights rf JOIN flight_dates fd ON fd.id = rf.flight_date_id"
FUTURE = f"{R.CHANGEABLE} AND {R.NOTHING_FLOWN}"


@pytest.fixture
def env(make_env):
    return make_env(DOMAIN)


def open_ep(env, mode: str = "written"):
    return env.open({DOMAIN: "enforced"}) if mode == "enforced" else env.open()


def tables(ep) -> set[str]:
    return {c["table"] for c in ep.diff()}


def breaches(ep) -> list[str]:
    return [r["slug"] for r in rows(ep, "SELECT slug FROM policy_breach ORDER BY id")]


def verify(env, ep, user_id: str) -> None:
    u = one(ep, "SELECT email, dob FROM users WHERE id = ?", user_id)
    call(env, ep, "verify_user", email=u["email"], dob=u["dob"])


def reservation(ep, where: str) -> dict:
    return one(ep, f"SELECT * FROM reservations WHERE {where} ORDER BY id")


def card(ep, user_id: str) -> str:
    return one(ep, "SELECT id FROM payment_methods WHERE user_id = ? AND kind = 'credit_card'", user_id)["id"]


def legs(ep, rid: str) -> list[dict]:
    return rows(
        ep,
        "SELECT fd.*, rf.cabin AS seat_cabin, rf.price FROM reservation_flights rf JOIN flight_dates fd "
        "ON fd.id = rf.flight_date_id WHERE rf.reservation_id = ? ORDER BY rf.position",
        rid,
    )


def open_flight(ep, where: str = "1") -> dict:
    return one(
        ep,
        f"SELECT * FROM flight_dates WHERE status = 'scheduled' AND date >= '2026-06-05' "
        f"AND seats_economy >= 6 AND seats_business >= 6 AND ({where}) ORDER BY id",
    )


# -- catalogue, policy document, seed ---------------------------------------------------------------


def test_enough_tools_each_with_two_ways_to_ask():
    domain = get_domain(DOMAIN)
    own = [t for name, t in domain.tools.items() if name not in KIT and not t.hidden]
    assert len(own) >= 16
    assert all(len(t.says) >= 2 for t in own), [t.name for t in own if len(t.says) < 2]
    assert domain.tools["cancel_reservation"].annotations()["destructiveHint"]
    assert domain.tools["verify_user"].annotations()["idempotentHint"]
    assert all(
        domain.tools[n].read_only for n in ("find_user", "get_reservation", "search_connecting_flights")
    )
    assert domain.append_only().keys() >= {"payments", "certificates", "transfers"}


def test_the_policy_document_lists_nine_rules_and_is_written_by_default(env):
    policy = get_domain(DOMAIN).policy
    assert policy.mode == "written"
    assert [r.slug for r in policy.rules] == [
        "verify-identity",
        "max-passengers",
        "same-cabin",
        "basic-economy-final",
        "bag-allowance",
        "insurance-at-booking",
        "cancel-eligibility",
        "compensation",
        "confirm-first",
    ]
    assert policy.rule("verify-identity").remedy is not None
    assert [r.slug for r in policy.confirmations()] == ["confirm-first"]
    text = policy.markdown()
    assert (
        text.startswith("# Skyward Air customer service policy")
        and "2. A reservation holds at most 5" in text
    )
    out = call(env, open_ep(env, "enforced"), "get_policy")
    assert out["mode"] == "enforced" and out["rules"][3]["slug"] == "basic-economy-final"


def test_sampler_pools_at_medium(medium):
    def count(sql: str) -> int:
        return medium.execute(sql).fetchone()[0]

    assert count("SELECT count(*) FROM users") == 500
    assert count("SELECT count(*) FROM flights") == 300
    assert count("SELECT count(*) FROM flight_dates") == 300 * 60
    assert count("SELECT count(*) FROM reservations") == 2000
    assert count(f"SELECT count(*) FROM reservations WHERE {R.CHANGEABLE}") >= 1000
    assert count(f"SELECT count(*) FROM reservations WHERE {R.CHANGEABLE} AND cabin = 'basic_economy'") >= 250
    ages = "(julianday('2026-06-01T09:00:00') - julianday(created_at)) * 24"
    window = f"SELECT count(*) FROM reservations WHERE {R.ACTIVE} AND {ages}"
    assert count(f"{window} BETWEEN 20 AND 24") >= 80
    assert count(f"{window} BETWEEN 24 AND 28") >= 80
    assert count(f"{window} < 20") >= 80
    partly = f"SELECT count(*) FROM reservations WHERE {R.CHANGEABLE} AND NOT ({R.NOTHING_FLOWN})"
    assert count(partly) >= 150
    disrupted = f"{LEG} WHERE fd.status = 'cancelled' OR fd.delay_min >= 180"
    assert count(f"SELECT count(*) FROM reservations WHERE {R.ACTIVE} AND id IN ({disrupted})") >= 150
    assert count("SELECT count(*) FROM certificates") >= 30
    assert (
        count("SELECT count(*) FROM flight_dates WHERE status = 'delayed' AND delay_min BETWEEN 180 AND 209")
        > 0
    )
    # about 30% of the active reservations sit at no edge: nothing flown, not basic economy, not
    # booked 20-28 h ago, no disrupted flight
    near = f"{LEG} WHERE fd.status = 'cancelled' OR fd.delay_min >= 150"
    calm = (
        f"SELECT count(*) FROM reservations WHERE {FUTURE} AND cabin != 'basic_economy' "
        f"AND ({ages} > 28 OR {ages} < 20) AND id NOT IN ({near})"
    )
    share = count(calm) / count(f"SELECT count(*) FROM reservations WHERE {R.ACTIVE}")
    assert 0.22 <= share <= 0.4, share


def test_members_are_world_people_and_the_persona_comes_first(env):
    ep = env.open()
    persona = world(0, "small").persona
    me = one(ep, "SELECT * FROM users WHERE id = 'USR-000001'")
    assert (me["name"], me["email"], me["city"]) == (persona.name, persona.email, persona.city)
    found = call(env, ep, "find_user", email=persona.email.upper(), name=persona.name)
    assert found["id"] == "USR-000001" and "dob" not in call(env, ep, "get_user", user="USR-000001")
    assert fails(env, ep, "find_user", "not named 'Nobody Here'", email=persona.email, name="Nobody Here")


# -- rules the service enforces ------------------------------------------------------------------------


def test_verification_needs_the_matching_date_of_birth(env):
    ep = env.open()
    u = one(ep, "SELECT * FROM users WHERE id = 'USR-000002'")
    err = fails(env, ep, "verify_user", "does not match", email=u["email"], dob="1900-01-01")
    assert u["email"] in err
    out = call(env, ep, "verify_user", email=u["email"], dob=u["dob"])
    assert out["verified_user_id"] == "USR-000002"
    assert changes(ep)[("sessions", "SES-000001", "verified_user_id")]["new"] == "USR-000002"


def test_booking_takes_connected_flights_and_charges_the_total(env):
    ep = env.open()
    user = "USR-000001"
    out_fd = open_flight(ep, "origin = 'DEN' AND destination = 'ORD'")
    back = one(
        ep,
        "SELECT * FROM flight_dates WHERE origin = 'ORD' AND destination = 'DEN' AND date > ? "
        "AND status = 'scheduled' AND seats_economy >= 2 ORDER BY id",
        out_fd["date"],
    )
    wrong = one(
        ep,
        "SELECT flight_number AS id, date FROM flight_dates WHERE origin = 'ATL' AND destination != 'DEN' "
        "AND status = 'scheduled' AND date > ? ORDER BY id",
        out_fd["date"],
    )
    err = fails(
        env, ep, "book_reservation", "return flight", user=user, flight_number=out_fd["flight_number"],
        date=out_fd["date"], cabin="economy", payment_method=card(ep, user),
        return_flight_number=wrong["id"], return_date=wrong["date"],
    )  # fmt: skip
    assert wrong["id"] in err and "ORD-DEN" in err
    gift = one(ep, "SELECT * FROM payment_methods WHERE kind = 'gift_card' AND balance < 300 ORDER BY id")
    err = fails(
        env, ep, "book_reservation", "not enough", user=gift["user_id"], flight_number=out_fd["flight_number"],
        date=out_fd["date"], cabin="business", payment_method=gift["id"],
    )  # fmt: skip
    assert f"{gift['balance']:.2f} left" in err
    res = call(
        env, ep, "book_reservation", user=user, flight_number=out_fd["flight_number"], date=out_fd["date"],
        cabin="economy", payment_method=card(ep, user), passengers="Ana Lopez 1990-04-12; Ben Lopez 2015-09-30",
        return_flight_number=back["flight_number"], return_date=back["date"], insurance=True,
    )  # fmt: skip
    total = 2 * (out_fd["price_economy"] + back["price_economy"]) + 2 * 30
    assert res["trip_type"] == "round_trip" and res["passenger_count"] == 2 and res["insurance"] == 1
    assert res["payments"][0]["amount"] == pytest.approx(total)
    assert tables(ep) == {
        "reservations",
        "reservation_flights",
        "passengers",
        "flight_dates",
        "payments",
        "policy_breach",
    }
    seats = changes(ep)[("flight_dates", out_fd["id"], "seats_economy")]
    assert seats["old"] - seats["new"] == 2
    assert breaches(ep) == ["verify-identity"]  # written mode: it ran, the unverified booking is logged


def test_cancelling_refunds_every_payment_and_refuses_flown_trips(env):
    ep = env.open()
    flown = reservation(ep, f"{R.ACTIVE} AND NOT ({R.NOTHING_FLOWN})")
    first = legs(ep, flown["id"])[0]
    err = fails(
        env, ep, "cancel_reservation", "cannot be cancelled", reservation=flown["id"], reason="health"
    )
    assert first["flight_number"] in err and first["date"] in err
    gone = reservation(ep, "status = 'cancelled'")
    fails(
        env,
        ep,
        "cancel_reservation",
        f"{gone['id']} is already cancelled",
        reservation=gone["id"],
        reason="other",
    )
    biz = reservation(ep, f"{FUTURE} AND cabin = 'business'")
    verify(env, ep, biz["user_id"])
    out = call(env, ep, "cancel_reservation", reservation=biz["id"], reason="change_of_plans")
    paid = sum(p["amount"] for p in out["payments"] if p["kind"] == "charge")
    assert out["status"] == "cancelled" and [
        p["amount"] for p in out["payments"] if p["kind"] == "refund"
    ] == [paid]
    assert tables(ep) == {"sessions", "reservations", "flight_dates", "payments"}
    assert breaches(ep) == []


def test_changing_a_flight_keeps_the_route_and_settles_the_fare(env):
    ep = env.open()
    res = reservation(ep, f"{FUTURE} AND cabin = 'economy' AND trip_type = 'one_way' AND passenger_count = 1")
    leg = legs(ep, res["id"])[0]
    pm = card(ep, res["user_id"])
    other = one(ep, "SELECT id FROM flights WHERE origin != ? ORDER BY id", leg["origin"])["id"]
    err = fails(
        env, ep, "change_reservation_flights", "the flight it replaces flies", reservation=res["id"],
        flight_number=leg["flight_number"], new_date="2026-06-20", payment_method=pm, new_flight_number=other,
    )  # fmt: skip
    assert other in err and f"{leg['origin']}-{leg['destination']}" in err
    fails(
        env, ep, "change_reservation_flights", "is not on reservation", reservation=res["id"],
        flight_number=other, new_date="2026-06-20", payment_method=pm,
    )  # fmt: skip
    cert = one(
        ep,
        "SELECT id, user_id FROM payment_methods WHERE kind = 'certificate' AND user_id IN "
        f"(SELECT user_id FROM reservations WHERE {FUTURE} AND insurance = 0) ORDER BY id",
    )
    owned = reservation(ep, f"{FUTURE} AND insurance = 0 AND user_id = '{cert['user_id']}'")
    fails(
        env, ep, "add_reservation_insurance", "certificates pay only for new bookings",
        reservation=owned["id"], payment_method=cert["id"],
    )  # fmt: skip
    new = one(
        ep,
        "SELECT * FROM flight_dates WHERE flight_number = ? AND date > '2026-06-02' AND date != ? "
        "AND status = 'scheduled' AND seats_economy > 0 ORDER BY date",
        leg["flight_number"],
        leg["date"],
    )
    day = new["date"]
    verify(env, ep, res["user_id"])
    out = call(
        env, ep, "change_reservation_flights", reservation=res["id"], flight_number=leg["flight_number"],
        new_date=day, payment_method=pm,
    )  # fmt: skip
    assert out["flights"][0]["id"] == new["id"] and out["flights"][0]["price"] == new["price_economy"]
    moved = changes(ep)
    assert moved[("flight_dates", new["id"], "seats_economy")]["new"] == new["seats_economy"] - 1
    assert ("flight_dates", leg["id"], "seats_economy") in moved
    if new["price_economy"] != leg["price"]:
        assert "payments" in tables(ep)


def test_bags_passengers_insurance_and_certificates_have_limits(env):
    ep = env.open()
    res = reservation(ep, f"{FUTURE} AND passenger_count = 1 AND insurance = 1")
    cap = 5 - res["total_bags"]
    err = fails(env, ep, "add_reservation_bags", "over 5", reservation=res["id"], bags=cap + 1)
    assert f"{res['total_bags']} bags" in err
    fails(
        env,
        ep,
        "add_reservation_bags",
        "paid_bags 2 is more than the 1",
        reservation=res["id"],
        bags=1,
        paid_bags=2,
    )
    pm = card(ep, res["user_id"])
    fails(env, ep, "add_reservation_insurance", "already insured", reservation=res["id"], payment_method=pm)
    pax = one(ep, "SELECT * FROM passengers WHERE reservation_id = ?", res["id"])
    fails(
        env, ep, "update_reservation_passengers", "already reads", reservation=res["id"], passenger=pax["id"],
        first_name=pax["first_name"], last_name=pax["last_name"],
    )  # fmt: skip
    leg = legs(ep, res["id"])[0]
    fails(
        env, ep, "issue_compensation_certificate", "at most 500.00", reservation=res["id"],
        flight_number=leg["flight_number"], amount=600.0,
    )  # fmt: skip
    verify(env, ep, res["user_id"])
    fixed = call(
        env, ep, "update_reservation_passengers", reservation=res["id"], passenger=pax["id"],
        first_name="Zora", last_name=pax["last_name"],
    )  # fmt: skip
    assert fixed["name"] == f"Zora {pax['last_name']}"
    assert tables(ep) == {"sessions", "passengers"}


# -- the written policy, rule by rule -------------------------------------------------------------------


def _case(env, ep, slug: str, compliant: bool) -> tuple[str, dict]:
    """(tool, arguments) of a call that breaks only ``slug`` (or, compliant, breaks nothing), after
    whatever verification it needs has run on ``ep``."""
    if slug == "verify-identity":
        res = reservation(ep, f"{FUTURE} AND cabin = 'business'")
        if compliant:
            verify(env, ep, res["user_id"])
        return "cancel_reservation", {"reservation": res["id"], "reason": "health"}
    if slug == "max-passengers":
        fd = open_flight(ep)
        verify(env, ep, "USR-000001")
        people = "; ".join(
            f"Kid{c} Lee 2010-01-0{i + 1}" for i, c in enumerate("ABCDEF"[: 2 if compliant else 6])
        )
        return "book_reservation", {
            "user": "USR-000001", "flight_number": fd["flight_number"], "date": fd["date"], "cabin": "economy",
            "payment_method": card(ep, "USR-000001"), "passengers": people,
        }  # fmt: skip
    if slug in ("same-cabin", "basic-economy-final"):
        cabin = "basic_economy" if slug == "basic-economy-final" and not compliant else "economy"
        two = "id IN (SELECT reservation_id FROM reservation_flights GROUP BY reservation_id HAVING count(*) >= 2)"
        res = reservation(ep, f"{FUTURE} AND cabin = '{cabin}' AND {two}")
        verify(env, ep, res["user_id"])
        args = {"reservation": res["id"], "cabin": "business", "payment_method": card(ep, res["user_id"])}
        if slug == "same-cabin" and not compliant:
            args["flight_number"] = legs(ep, res["id"])[0]["flight_number"]
        return "change_reservation_cabin", args
    if slug == "bag-allowance":
        res = reservation(ep, f"{FUTURE} AND cabin = 'economy' AND passenger_count = 1 AND total_bags = 0")
        free = FREE_BAGS[one(ep, "SELECT membership FROM users WHERE id = ?", res["user_id"])["membership"]][
            "economy"
        ]
        verify(env, ep, res["user_id"])
        paid = 1 if compliant else 0
        args = {
            "reservation": res["id"],
            "bags": free + 1,
            "paid_bags": paid,
            "payment_method": card(ep, res["user_id"]),
        }
        return "add_reservation_bags", args
    if slug == "insurance-at-booking":
        user = "USR-000001"
        verify(env, ep, user)
        if compliant:
            fd = open_flight(ep)
            rid = call(
                env, ep, "book_reservation", user=user, flight_number=fd["flight_number"], date=fd["date"],
                cabin="economy", payment_method=card(ep, user),
            )["id"]  # fmt: skip
        else:
            rid = reservation(ep, f"{FUTURE} AND insurance = 0 AND user_id = '{user}'")["id"]
        return "add_reservation_insurance", {"reservation": rid, "payment_method": card(ep, user)}
    if slug == "cancel-eligibility":
        age = "(julianday('2026-06-01T09:00:00') - julianday(created_at)) * 24"
        when = f"{age} < 20" if compliant else f"{age} BETWEEN 24 AND 28"
        clean = f"id NOT IN ({LEG} WHERE fd.status = 'cancelled')"
        res = reservation(ep, f"{FUTURE} AND cabin != 'business' AND insurance = 0 AND {clean} AND {when}")
        verify(env, ep, res["user_id"])
        return "cancel_reservation", {"reservation": res["id"], "reason": "change_of_plans"}
    assert slug == "compensation"
    tier = "!= 'regular'" if compliant else "= 'regular'"
    res = reservation(
        ep,
        f"{R.ACTIVE} AND cabin = 'economy' AND insurance = 0 AND user_id IN (SELECT id FROM users WHERE membership {tier}) "
        f"AND id IN ({LEG} WHERE fd.status = 'cancelled') AND id NOT IN (SELECT reservation_id FROM certificates)",
    )
    leg = next(x for x in legs(ep, res["id"]) if x["status"] == "cancelled")
    verify(env, ep, res["user_id"])
    amount = 100.0 * res["passenger_count"]
    return "issue_compensation_certificate", {
        "reservation": res["id"],
        "flight_number": leg["flight_number"],
        "amount": amount,
    }


SLUGS = [r.slug for r in get_domain(DOMAIN).policy.rules if r.check is not None]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("slug", SLUGS)
def test_each_rule_catches_a_violation(env, mode, slug):
    ep = open_ep(env, mode)
    tool, args = _case(env, ep, slug, compliant=False)
    if mode == "enforced":
        err = fails(env, ep, tool, rf"Refused by policy rule \d \({slug}\)", **args)
        assert "The rule:" in err and breaches(ep) == []
    else:
        call(env, ep, tool, **args)
        assert breaches(ep) == [slug]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("slug", SLUGS)
def test_each_rule_passes_a_compliant_call(env, mode, slug):
    ep = open_ep(env, mode)
    tool, args = _case(env, ep, slug, compliant=True)
    call(env, ep, tool, **args)
    assert breaches(ep) == []
    assert tables(ep) - {"sessions"}, "the compliant call changed something"


def test_near_edges_are_marked_but_allowed(env):
    ep = env.open()
    policy = get_domain(DOMAIN).policy
    age = "(julianday('2026-06-01T09:00:00') - julianday(created_at)) * 24"
    res = reservation(
        ep, f"{FUTURE} AND cabin != 'business' AND insurance = 0 AND {age} BETWEEN 20.5 AND 23.5"
    )
    verify(env, ep, res["user_id"])
    with ep.fork(DOMAIN).reading() as conn:
        verdicts = policy.verdicts(
            Db(conn), "cancel_reservation", {"reservation": res["id"], "reason": "other"}
        )
        fix = policy.rule("verify-identity").remedy(
            Db(conn), "cancel_reservation", {"reservation": res["id"]}
        )
    assert [(r.slug, isinstance(why, Near)) for r, why in verdicts] == [("cancel-eligibility", True)]
    assert "booked 2" in verdicts[0][1]
    user = one(ep, "SELECT email, dob FROM users WHERE id = ?", res["user_id"])
    assert fix == ("verify_user", {"email": user["email"], "dob": user["dob"]})
    call(env, ep, "cancel_reservation", reservation=res["id"], reason="other")
    assert breaches(ep) == []
