"""Telehealth: the service's own rules (double-booking, visit lengths, the FHIR lifecycle, the
check-in window, refills, referrals) through the diff, and every written-policy rule caught on a
violating call and passed on a compliant one, in both the enforced and the written mode."""

from __future__ import annotations

import pytest

from servers.domains.telehealth import rules as R
from servers.domains.telehealth.model import NOW
from servers.kit import PolicyRefusal, world
from servers.registry import get_domain
from tests.domain_helpers import DomainCalls, changes

DOMAIN = "telehealth"
calls = DomainCalls(DOMAIN)
call, fails, rows, one = calls.call, calls.fails, calls.rows, calls.one
KIT = {"list_records", "search_records", "get_unique_values", "get_policy"}
ADULT = f"{R.ISO_DOB} < '2008-01-01'"
MINOR = f"{R.ISO_DOB} > '2008-07-01'"
LATER = "start >= '2026-06-03'"  # well past the 24-hour line


@pytest.fixture
def th(make_env):
    env = make_env(DOMAIN, scale="medium")
    return env, env.open()


def tables(ep) -> set[str]:
    return {c["table"] for c in ep.diff()}


def verify(env, ep, patient_id: str) -> dict:
    p = one(ep, "SELECT name, date_of_birth FROM patients WHERE id = ?", patient_id)
    return call(env, ep, "verify_patient", name=p["name"], date_of_birth=p["date_of_birth"])


def free_slot(ep, provider: str, where: str = LATER) -> dict:
    return one(
        ep, f"SELECT * FROM slots WHERE {R.FREE_RUN} AND provider_id = ? AND {where} ORDER BY start", provider
    )


def breaches(ep) -> list[str]:
    return [r["slug"] for r in rows(ep, "SELECT slug FROM policy_breach ORDER BY id")]


# -- catalogue, seed and the persona ------------------------------------------------------------


def test_enough_tools_each_with_two_ways_to_ask():
    domain = get_domain(DOMAIN)
    own = [t for name, t in domain.tools.items() if name not in KIT and not t.hidden]
    assert len(own) >= 16
    assert all(len(t.says) >= 2 for t in own), [t.name for t in own if len(t.says) < 2]
    assert domain.tools["cancel_appointment"].annotations()["destructiveHint"]
    assert domain.tools["verify_patient"].annotations()["idempotentHint"]
    assert domain.tools["find_patient"].read_only and domain.tools["check_eligibility"].read_only
    assert [r.slug for r in domain.policy.rules] == [
        "verify-identity",
        "telehealth-license",
        "hmo-referral",
        "late-cancel-fee",
        "controlled-refill",
        "minor-guardian",
        "new-patients",
        "confirm-first",
    ]
    assert domain.policy.mode == "written" and "enforced" in domain.variants


def test_persona_is_patient_one_as_the_world_has_her(medium):
    p = world(0, "medium").persona
    row = medium.execute(
        "SELECT name, email, phone, city, date_of_birth FROM patients WHERE id = 'PAT-000001'"
    ).fetchone()
    assert row == (p.name, p.email, p.phone, p.city, R.us_date(p.birthday))
    assert medium.execute("SELECT verified_patient_id FROM sessions").fetchone() == (None,)


def test_sampler_pools_at_medium(medium):
    def count(sql: str) -> int:
        return medium.execute(sql).fetchone()[0]

    assert count("SELECT count(*) FROM patients") == 2000
    assert count("SELECT count(*) FROM providers") == 120
    assert count("SELECT count(DISTINCT specialty_id) FROM providers") == 15
    assert count("SELECT count(DISTINCT home_state) FROM providers") == 8
    assert count("SELECT count(*) FROM appointments") == 6000
    assert count(f"SELECT count(*) FROM slots WHERE {R.FREE_RUN}") >= 20_000
    assert count(f"SELECT count(*) FROM appointments WHERE {R.FUTURE_OPEN}") >= 1500
    assert (
        count(
            f"SELECT count(*) FROM appointments WHERE status = 'booked' AND kind = 'in_person' AND {R.IN_WINDOW}"
        )
        >= 20
    )
    assert (
        count(
            f"SELECT count(*) FROM appointments WHERE status = 'booked' AND kind = 'video' AND {R.IN_WINDOW}"
        )
        >= 8
    )
    assert (
        count(f"SELECT count(*) FROM appointments WHERE status = 'booked' AND start < '{R.WINDOW_OPEN}'")
        >= 30
    )
    assert count("SELECT count(*) FROM appointments WHERE status = 'arrived'") >= 20
    # near every policy edge, on both sides
    within = "status = 'booked' AND start > '2026-06-01T09:00' AND start < '2026-06-02T09:00'"
    assert count(f"SELECT count(*) FROM appointments WHERE {within}") >= 100
    near = "status = 'booked' AND start >= '2026-06-02T05:00' AND start < '2026-06-02T13:00'"
    assert count(f"SELECT count(*) FROM appointments WHERE {near}") >= 30
    assert count(f"SELECT count(*) FROM patients WHERE {MINOR} AND guardian_id IS NULL") >= 40
    assert count("SELECT count(*) FROM providers WHERE accepts_new_patients = 0") >= 15
    controlled = (
        "SELECT count(*) FROM prescriptions rx WHERE schedule IS NOT NULL AND status = 'active' AND "
        "(SELECT max(start) FROM appointments a WHERE a.patient_id = rx.patient_id AND a.provider_id = rx.prescriber_id "
        "AND a.status = 'fulfilled') {}"
    )
    assert count(controlled.format("< '2026-03-03'")) >= 100  # more than 90 days ago
    assert count(controlled.format("BETWEEN '2026-03-03' AND '2026-03-13'")) >= 40  # 80-90 days
    assert count(controlled.format(">= '2026-03-14'")) >= 100
    assert (
        count(
            "SELECT count(*) FROM referrals WHERE status = 'active' AND expires_on BETWEEN '2026-06-01' AND '2026-06-08'"
        )
        >= 10
    )
    assert count("SELECT count(*) FROM patients WHERE plan_type = 'HMO'") >= 600


def _video_licence(conn, where: str) -> tuple[int, int]:
    """(video visits, those whose provider is not licensed where the patient lives) matching ``where``."""
    rows = conn.execute(
        "SELECT p.state, v.licensed_states FROM appointments a JOIN patients p ON p.id = a.patient_id "
        f"JOIN providers v ON v.id = a.provider_id WHERE a.kind = 'video' AND {where}"
    ).fetchall()
    return len(rows), sum(state not in licensed.split(",") for state, licensed in rows)


def test_video_visits_were_booked_within_the_licence_but_for_patients_who_moved(medium):
    videos, unlicensed = _video_licence(medium, "1")
    assert videos >= 500
    assert 0 < unlicensed <= videos // 8  # one in ten, booked before the move; the rule refuses those


def test_even_the_small_clinic_has_video_visits_due_now_that_can_start(snapshot_cache):
    conn = get_domain(DOMAIN).snapshot(0, "small", snapshot_cache).connect()
    try:
        videos, unlicensed = _video_licence(conn, f"a.status = 'booked' AND {R.IN_WINDOW}")
    finally:
        conn.close()
    assert videos >= 2 and unlicensed < videos


# -- the service's own rules -------------------------------------------------------------------------


def test_a_taken_slot_cannot_be_booked_and_a_new_patient_takes_two(th):
    env, ep = th
    taken = one(
        ep,
        f"SELECT * FROM slots WHERE status = 'busy' AND appointment_id IS NOT NULL AND {LATER} ORDER BY id",
    )
    patient = one(ep, f"SELECT id FROM patients WHERE {ADULT} ORDER BY id")["id"]
    msg = fails(
        env, ep, "book_appointment", "already taken", patient=patient, slot=taken["id"], reason="checkup"
    )
    assert taken["id"] in msg and taken["appointment_id"] in msg
    prov = one(
        ep,
        "SELECT id FROM providers WHERE id NOT IN (SELECT provider_id FROM appointments WHERE patient_id = ? AND status = 'fulfilled') ORDER BY id",
        patient,
    )["id"]
    slot = free_slot(ep, prov)
    got = call(env, ep, "book_appointment", patient=patient, slot=slot["id"], reason="checkup")
    assert got["minutes"] == 40 and got["visit_type"] == "new_patient" and got["status"] == "booked"
    held = rows(ep, "SELECT id FROM slots WHERE appointment_id = ? ORDER BY start", got["id"])
    assert len(held) == 2 and held[0]["id"] == slot["id"]
    assert tables(ep) <= {"appointments", "slots", "policy_breach"}
    assert {k for k in changes(ep) if k[0] == "slots"} == {
        ("slots", h["id"], col) for h in held for col in ("status", "appointment_id")
    }


def test_a_follow_up_is_twenty_minutes_and_video_needs_a_provider_who_offers_it(th):
    env, ep = th
    seen = one(
        ep,
        "SELECT a.patient_id, a.provider_id FROM appointments a JOIN providers p ON p.id = a.provider_id "
        "WHERE a.status = 'fulfilled' AND p.offers_telehealth = 0 ORDER BY a.id",
    )
    slot = free_slot(ep, seen["provider_id"])
    msg = fails(
        env,
        ep,
        "book_appointment",
        "does not offer video",
        patient=seen["patient_id"],
        slot=slot["id"],
        reason="x",
        kind="video",
    )
    assert seen["provider_id"] in msg
    got = call(env, ep, "book_appointment", patient=seen["patient_id"], slot=slot["id"], reason="follow-up")
    assert got["minutes"] == 20 and got["visit_type"] == "follow_up" and got["end"] == slot["end"]


def test_status_moves_only_along_the_fhir_lifecycle(th):
    env, ep = th
    booked = one(ep, f"SELECT id FROM appointments WHERE status = 'booked' AND {LATER} ORDER BY id")["id"]
    msg = fails(env, ep, "confirm_appointment", "cannot be confirmed", appointment=booked)
    assert booked in msg and "arrived, cancelled, noshow" in msg
    fails(env, ep, "complete_visit", "is booked; it cannot be completed", appointment=booked, summary="done")
    done = one(ep, "SELECT id FROM appointments WHERE status = 'fulfilled' ORDER BY id")["id"]
    msg = fails(env, ep, "cancel_appointment", "fulfilled", appointment=done)
    assert "final" in msg
    pending = one(
        ep, f"SELECT id FROM appointments WHERE status IN ('pending', 'proposed') AND {LATER} ORDER BY id"
    )["id"]
    call(env, ep, "confirm_appointment", appointment=pending)
    assert {k for k in changes(ep) if k[0] == "appointments"} == {("appointments", pending, "status")}


def test_check_in_window_and_no_show_after_it(th):
    env, ep = th
    early = one(
        ep,
        "SELECT * FROM appointments WHERE status = 'booked' AND kind = 'in_person' AND start >= '2026-06-01T09:20' ORDER BY start, id",
    )
    msg = fails(env, ep, "check_in", "15 minutes before", appointment=early["id"])
    assert early["start"] in msg and "2026-06-01T09:00" in msg
    due = one(
        ep,
        f"SELECT * FROM appointments WHERE status = 'booked' AND kind = 'in_person' AND {R.IN_WINDOW} ORDER BY id",
    )
    msg = fails(env, ep, "record_no_show", "may still check in", appointment=due["id"])
    assert due["id"] in msg
    verify(env, ep, due["patient_id"])
    got = call(env, ep, "check_in", appointment=due["id"])
    assert got["status"] == "arrived" and got["checked_in_at"] == NOW
    missed = one(
        ep, f"SELECT id FROM appointments WHERE status = 'booked' AND start < '{R.WINDOW_OPEN}' ORDER BY id"
    )["id"]
    call(env, ep, "record_no_show", appointment=missed)
    fee = one(ep, "SELECT * FROM invoices WHERE appointment_id = ? AND kind = 'no_show'", missed)
    assert fee["amount"] == 75.0 and breaches(ep) == []


def test_completing_a_visit_files_the_note_and_the_copay(th):
    env, ep = th
    a = one(ep, "SELECT * FROM appointments WHERE status = 'arrived' ORDER BY id")
    call(env, ep, "complete_visit", appointment=a["id"], summary="All well.")
    assert one(ep, "SELECT status FROM appointments WHERE id = ?", a["id"])["status"] == "fulfilled"
    assert (
        one(ep, "SELECT summary FROM visit_notes WHERE appointment_id = ?", a["id"])["summary"] == "All well."
    )
    inv = one(
        ep, "SELECT * FROM invoices WHERE appointment_id = ? AND kind = 'copay' AND status = 'open'", a["id"]
    )
    p = one(ep, "SELECT * FROM patients WHERE id = ?", a["patient_id"])
    assert inv["amount"] in (p["copay_primary"], p["copay_specialist"])


def test_refills_need_refills_left_and_referrals_are_one_per_specialty(th):
    env, ep = th
    empty = one(ep, "SELECT * FROM prescriptions WHERE status = 'active' AND refills_left = 0 ORDER BY id")
    msg = fails(env, ep, "request_refill", "no refills left", prescription=empty["id"])
    assert empty["drug"] in msg and empty["prescriber_id"] in msg
    ref = one(
        ep,
        "SELECT r.* FROM referrals r JOIN patients p ON p.id = r.patient_id WHERE r.status = 'active' AND r.expires_on >= '2026-06-01' AND p.primary_provider_id IS NOT NULL ORDER BY r.id",
    )
    msg = fails(
        env,
        ep,
        "create_referral",
        "already has an active referral",
        patient=ref["patient_id"],
        specialty=ref["specialty_id"],
        reason="x",
    )
    assert ref["id"] in msg and ref["expires_on"] in msg
    fails(
        env,
        ep,
        "create_referral",
        "primary care",
        patient=ref["patient_id"],
        specialty="pediatrics",
        reason="x",
    )


def test_reschedule_keeps_the_provider_and_frees_the_old_slots(th):
    env, ep = th
    a = one(
        ep, f"SELECT * FROM appointments WHERE status = 'booked' AND minutes = 20 AND {LATER} ORDER BY id"
    )
    other = one(
        ep,
        f"SELECT * FROM slots WHERE {R.FREE_RUN} AND provider_id != ? AND {LATER} ORDER BY id",
        a["provider_id"],
    )
    msg = fails(
        env,
        ep,
        "reschedule_appointment",
        "same provider|cancel and book",
        appointment=a["id"],
        slot=other["id"],
    )
    assert other["provider_id"] in msg
    old = one(ep, "SELECT id FROM slots WHERE appointment_id = ?", a["id"])["id"]
    new = free_slot(ep, a["provider_id"])
    got = call(env, ep, "reschedule_appointment", appointment=a["id"], slot=new["id"])
    assert got["start"] == new["start"] and got["status"] == "booked"
    assert one(ep, "SELECT status, appointment_id FROM slots WHERE id = ?", old) == {
        "status": "free",
        "appointment_id": None,
    }


def test_verification_needs_the_exact_name_and_birth_date_which_no_tool_shows(th):
    env, ep = th
    p = one(ep, "SELECT * FROM patients WHERE id = 'PAT-000001'")
    fails(env, ep, "verify_patient", "no patient record matches", name=p["name"], date_of_birth="01/01/1999")
    got = call(env, ep, "verify_patient", name=p["name"].upper(), date_of_birth=p["date_of_birth"])
    assert got["verified"] and "date_of_birth" not in got
    assert one(ep, "SELECT verified_patient_id FROM sessions")["verified_patient_id"] == p["id"]
    assert "date_of_birth" not in call(env, ep, "get_patient", patient=p["id"])
    listed = call(env, ep, "list_records", table="patients", limit=3)
    assert all("date_of_birth" not in r for r in listed["rows"])


# -- the written policy: each rule, violated and kept, in both modes -------------------------------


def _no_other_rule_patient(ep, extra: str = "1") -> str:
    return one(ep, f"SELECT id FROM patients WHERE {ADULT} AND plan_type = 'PPO' AND ({extra}) ORDER BY id")[
        "id"
    ]


def _primary_provider(ep, where: str) -> str:
    return one(
        ep,
        f"SELECT id FROM providers WHERE specialty_id IN ('family medicine', 'internal medicine') AND ({where}) ORDER BY id",
    )["id"]


def case_verify(ep):
    a = one(ep, f"SELECT id, patient_id FROM appointments WHERE status = 'booked' AND {LATER} ORDER BY id")
    return ("cancel_appointment", {"appointment": a["id"]}, None, a["patient_id"])


def case_license(ep, compliant: bool):
    p = one(
        ep,
        f"SELECT id, state FROM patients WHERE plan_type = 'PPO' AND {ADULT} AND state = 'OR' ORDER BY id",
    )
    like = "LIKE" if compliant else "NOT LIKE"
    prov = _primary_provider(
        ep,
        f"offers_telehealth = 1 AND accepts_new_patients = 1 AND (',' || licensed_states || ',') {like} '%,OR,%'",
    )
    args = {"patient": p["id"], "slot": free_slot(ep, prov)["id"], "reason": "rash", "kind": "video"}
    return ("book_appointment", args, None, p["id"])


def case_referral(ep, compliant: bool):
    p = one(
        ep,
        f"SELECT id FROM patients WHERE plan_type = 'HMO' AND {ADULT} AND primary_provider_id IS NOT NULL AND id NOT IN (SELECT patient_id FROM referrals WHERE specialty_id = 'dermatology') ORDER BY id",
    )["id"]
    prov = one(
        ep,
        "SELECT id FROM providers WHERE specialty_id = 'dermatology' AND accepts_new_patients = 1 ORDER BY id",
    )["id"]
    first = (
        ("create_referral", {"patient": p, "specialty": "dermatology", "reason": "mole"})
        if compliant
        else None
    )
    return (
        "book_appointment",
        {"patient": p, "slot": free_slot(ep, prov)["id"], "reason": "mole check"},
        first,
        p,
    )


def case_late_fee(ep, compliant: bool, far: bool = False):
    when = LATER if far else "start > '2026-06-01T09:00' AND start < '2026-06-02T05:00'"
    a = one(ep, f"SELECT id, patient_id FROM appointments WHERE status = 'booked' AND {when} ORDER BY id")
    fee = compliant != far  # inside the window the fee is owed; far out it must not be charged
    return ("cancel_appointment", {"appointment": a["id"], "late_fee": fee}, None, a["patient_id"])


def case_controlled(ep, compliant: bool):
    last = "(SELECT max(start) FROM appointments a WHERE a.patient_id = rx.patient_id AND a.provider_id = rx.prescriber_id AND a.status = 'fulfilled')"
    cond = f"{last} >= '2026-04-01'" if compliant else f"({last} < '2026-03-01' OR {last} IS NULL)"
    rx = one(
        ep,
        f"SELECT id, patient_id FROM prescriptions rx WHERE schedule IS NOT NULL AND status = 'active' AND refills_left > 0 AND last_fill < '2026-06-01' AND {cond} ORDER BY id",
    )
    return ("request_refill", {"prescription": rx["id"]}, None, rx["patient_id"])


def case_minor(ep, compliant: bool):
    guardian = "IS NOT NULL" if compliant else "IS NULL"
    p = one(ep, f"SELECT id, guardian_id FROM patients WHERE {MINOR} AND guardian_id {guardian} ORDER BY id")
    prov = one(
        ep,
        "SELECT id FROM providers WHERE specialty_id = 'pediatrics' AND accepts_new_patients = 1 ORDER BY id",
    )["id"]
    args = {"patient": p["id"], "slot": free_slot(ep, prov)["id"], "reason": "ear infection"}
    return ("book_appointment", args, None, p["guardian_id"] or p["id"])


def case_new_patient(ep, compliant: bool):
    prov = _primary_provider(ep, "accepts_new_patients = 0")
    seen = f"id {'IN' if compliant else 'NOT IN'} (SELECT patient_id FROM appointments WHERE provider_id = '{prov}' AND status = 'fulfilled')"
    p = _no_other_rule_patient(ep, seen)
    return (
        "book_appointment",
        {"patient": p, "slot": free_slot(ep, prov)["id"], "reason": "checkup"},
        None,
        p,
    )


CASES = {
    "telehealth-license": case_license,
    "hmo-referral": case_referral,
    "late-cancel-fee": case_late_fee,
    "controlled-refill": case_controlled,
    "minor-guardian": case_minor,
    "new-patients": case_new_patient,
}


def _open(env, mode: str):
    return env.open({DOMAIN: "enforced"} if mode == "enforced" else None)


def _expect_breach(env, ep, mode: str, tool: str, args: dict, slug: str) -> None:
    if mode == "enforced":
        before = ep.state_hash()
        with pytest.raises(PolicyRefusal) as caught:
            call(env, ep, tool, **args)
        assert caught.value.rule.slug == slug and f"({slug})" in str(caught.value)
        assert ep.state_hash() == before and breaches(ep) == []
    else:
        call(env, ep, tool, **args)
        assert breaches(ep) == [slug]
        assert one(ep, "SELECT tool FROM policy_breach")["tool"] == tool


@pytest.mark.parametrize("mode", ["written", "enforced"])
@pytest.mark.parametrize("slug", sorted(CASES))
def test_each_rule_catches_a_violation_and_passes_a_compliant_call(make_env, mode, slug):
    env = make_env(DOMAIN, scale="medium")
    ep = _open(env, mode)
    tool, args, first, who = CASES[slug](ep, False)
    verify(env, ep, who)
    if first:
        call(env, ep, first[0], **first[1])
    _expect_breach(env, ep, mode, tool, args, slug)
    ep = _open(env, mode)
    tool, args, first, who = CASES[slug](ep, True)
    verify(env, ep, who)
    if first:
        call(env, ep, first[0], **first[1])
    call(env, ep, tool, **args)
    assert breaches(ep) == []


@pytest.mark.parametrize("mode", ["written", "enforced"])
def test_identity_must_be_verified_and_the_remedy_is_the_patients_own_details(make_env, mode):
    env = make_env(DOMAIN, scale="medium")
    ep = _open(env, mode)
    tool, args, _, patient = case_verify(ep)
    other = one(ep, "SELECT id FROM patients WHERE id != ? AND guardian_id IS NULL ORDER BY id", patient)[
        "id"
    ]
    verify(env, ep, other)  # someone else is verified: still a breach
    _expect_breach(env, ep, mode, tool, args, "verify-identity")
    ep = _open(env, mode)
    rule = get_domain(DOMAIN).policy.rule("verify-identity")
    with ep.fork(DOMAIN).reading() as conn:
        from servers.kit import Db

        fix = rule.remedy(Db(conn, "2026-06-01T09:00:00"), tool, args)
    p = one(ep, "SELECT name, date_of_birth FROM patients WHERE id = ?", patient)
    assert fix == ("verify_patient", {"name": p["name"], "date_of_birth": p["date_of_birth"]})
    call(env, ep, fix[0], **fix[1])
    call(env, ep, tool, **args)
    assert breaches(ep) == []


@pytest.mark.parametrize("mode", ["written", "enforced"])
def test_charging_a_late_fee_far_ahead_is_a_breach_too(make_env, mode):
    env = make_env(DOMAIN, scale="medium")
    ep = _open(env, mode)
    tool, args, _, who = case_late_fee(ep, False, far=True)
    assert args["late_fee"] is True
    verify(env, ep, who)
    _expect_breach(env, ep, mode, tool, args, "late-cancel-fee")


def test_near_edges_are_marked_but_allowed(th):
    env, ep = th
    from servers.kit import Db, Near

    policy = get_domain(DOMAIN).policy
    a = one(
        ep,
        "SELECT id FROM appointments WHERE status = 'booked' AND start >= '2026-06-02T10:00' AND start < '2026-06-02T13:00' ORDER BY id",
    )
    with ep.fork(DOMAIN).reading() as conn:
        verdicts = policy.verdicts(
            Db(conn, "2026-06-01T09:00:00"), "cancel_appointment", {"appointment": a["id"], "late_fee": False}
        )
    near = {r.slug: why for r, why in verdicts if isinstance(why, Near)}
    assert "late-cancel-fee" in near and "h" in near["late-cancel-fee"]
    last = "(SELECT max(start) FROM appointments a WHERE a.patient_id = rx.patient_id AND a.provider_id = rx.prescriber_id AND a.status = 'fulfilled')"
    rx = rows(
        ep,
        f"SELECT id FROM prescriptions rx WHERE schedule IS NOT NULL AND {last} BETWEEN '2026-03-04' AND '2026-03-12' ORDER BY id",
    )
    assert rx
    with ep.fork(DOMAIN).reading() as conn:
        verdicts = policy.verdicts(
            Db(conn, "2026-06-01T09:00:00"), "request_refill", {"prescription": rx[0]["id"]}
        )
    assert any(r.slug == "controlled-refill" and isinstance(why, Near) for r, why in verdicts)


def test_the_policy_document_reads_as_numbered_rules(th):
    env, ep = th
    out = call(env, ep, "get_policy")
    assert out["mode"] == "written" and out["title"] == "Clinic front desk policy"
    assert "1. Before booking, changing or cancelling anything" in out["policy"]
    assert "8. Before booking, rescheduling or cancelling" in out["policy"]
