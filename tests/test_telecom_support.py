"""Telecom support: what the phone shows is computed from the phone AND the account (a fix on one
side does not restore service when the other is faulty too), the service's own rules (refused
calls name their values and change nothing), and each rule of the written policy caught in
both modes (enforced: refused naming the rule; written: runs and leaves a policy_breach row)."""

from __future__ import annotations

import pytest

from servers.domains.telecom_support import faults
from servers.domains.telecom_support import rules as R
from servers.domains.telecom_support.model import APN, GOODWILL_CAP, PIN_TRIES, REFUEL_CAP_GB
from servers.kit import Db, Near, world
from servers.registry import get_domain
from tests.domain_helpers import DomainCalls, changes

DOMAIN = "telecom_support"
calls = DomainCalls(DOMAIN)
call, fails, rows, one = calls.call, calls.fails, calls.rows, calls.one
KIT = {"list_records", "search_records", "get_unique_values", "get_policy"}
TODAY = "2026-06-01"
PAST_DUE = R.PAST_DUE.format(today=TODAY)
HEALTHY = (
    "status = 'active' AND roaming_enabled = 1 AND plan_id IN (SELECT id FROM plans WHERE data_gb IS NULL) "
    "AND id IN (SELECT line_number FROM devices WHERE airplane_mode = 0 AND mobile_data = 1 AND sim_status = "
    f"'ready' AND sim_seated = 1 AND network_mode IN ('4g', '5g') AND apn = '{APN}' AND restart_pending = 0 "
    "AND country = 'US' AND data_saver = 0 AND pin_enabled = 0)"
)


@pytest.fixture(scope="module")
def env(snapshot_cache):
    from servers.runtime import Environment

    return Environment(DOMAIN, scale="medium", cache=snapshot_cache)


@pytest.fixture
def ep(env):
    return env.open()


def dob(ep, customer: str) -> str:
    return one(ep, "SELECT date_of_birth FROM customers WHERE id = ?", customer)["date_of_birth"]


def verify(env, ep, customer: str) -> None:
    call(env, ep, "verify_customer", customer=customer, date_of_birth=dob(ep, customer))


def patch(ep, sql: str, *params) -> None:
    """Set up a composed fault the seed may not hold in this exact combination."""
    with ep.fork(DOMAIN).writing() as conn:
        conn.execute(sql, params)


def tables(ep) -> set[str]:
    return {c["table"] for c in ep.diff()}


def breaches(ep) -> list[str]:
    return [r["slug"] for r in rows(ep, "SELECT slug FROM policy_breach ORDER BY id")]


# -- catalogue, seed, persona ----------------------------------------------------------------------


def test_tools_two_sides_and_hints():
    domain = get_domain(DOMAIN)
    own = {n: t for n, t in domain.tools.items() if n not in KIT and not t.hidden}
    device = [n for n in own if n.startswith("device_")]
    assert len(own) - len(device) >= 20 and len(device) >= 14
    assert all(len(t.says) >= 2 for t in own.values()), [n for n, t in own.items() if len(t.says) < 2]
    for n in (
        "device_check_status_bar",
        "device_check_network",
        "device_run_speed_test",
        "get_line",
        "get_bills",
    ):
        assert own[n].read_only
    for n in ("device_set_airplane_mode", "device_set_mobile_data", "enable_roaming", "verify_customer"):
        assert own[n].annotations()["idempotentHint"]
    assert not own["device_enter_sim_pin"].annotations()["idempotentHint"]  # a wrong PIN uses a try
    assert domain.append_only().keys() >= {"payments", "credits", "refuels"}
    assert "sessions" not in domain.tools["list_records"].input_schema()["properties"]["table"]["enum"]


def test_sampler_pools_at_medium(medium):
    def count(sql: str) -> int:
        return medium.execute(sql).fetchone()[0]

    assert [count(f"SELECT count(*) FROM {t}") for t in ("customers", "lines", "devices")] == [
        1000,
        1800,
        1200,
    ]
    assert count("SELECT count(*) FROM bills") == 1800 * 12
    statuses = {r[0] for r in medium.execute("SELECT DISTINCT status FROM bills")}
    assert statuses == {"draft", "issued", "paid", "overdue", "awaiting_payment", "disputed"}
    assert count(f"SELECT count(*) FROM lines WHERE {R.HAS_PHONE}") >= 1000
    assert count(f"SELECT count(*) FROM lines WHERE {R.PIN_PROMPT}") >= 50
    assert count(f"SELECT count(*) FROM lines WHERE {R.PUK_PROMPT}") >= 40
    assert count(f"SELECT count(*) FROM lines WHERE {R.LOOSE_SIM}") >= 30
    assert count(f"SELECT count(*) FROM lines WHERE {R.RESTART_PENDING}") >= 30
    assert count("SELECT count(*) FROM devices WHERE country != 'US'") >= 100
    assert count(f"SELECT count(*) FROM devices WHERE {R.SPARE_ESIM_PHONE}") >= 50
    suspended = "SELECT customer_id FROM lines WHERE suspension_reason = 'overdue_bill'"
    unpaid = f"SELECT customer_id FROM bills WHERE {PAST_DUE}"
    assert count(f"SELECT count(*) FROM ({suspended} INTERSECT {unpaid})") >= 60  # resume breaches
    assert count(f"SELECT count(*) FROM ({suspended} EXCEPT {unpaid})") >= 20  # resume complies
    assert count(f"SELECT count(DISTINCT customer_id) FROM bills WHERE {PAST_DUE}") >= 100
    assert count("SELECT count(*) FROM lines WHERE plan_changed_on >= cycle_start") >= 200
    near = "plan_changed_on < cycle_start AND plan_changed_on >= date(cycle_start, '-3 days')"
    assert count(f"SELECT count(*) FROM lines WHERE {near}") >= 100
    assert count(f"SELECT count(*) FROM lines WHERE refueled_gb >= {REFUEL_CAP_GB - 1}") >= 100
    ytd = "SELECT customer_id, sum(amount) AS s FROM credits WHERE issued_on >= '2026-01-01' GROUP BY 1"
    assert count(f"SELECT count(*) FROM ({ytd}) WHERE s >= {GOODWILL_CAP - 15}") >= 100
    assert count(f"SELECT count(*) FROM bills WHERE {R.REQUESTABLE}") >= 300


def test_customers_are_world_people_and_the_persona_has_a_line(ep):
    persona = world(0, "medium").persona
    c = one(ep, "SELECT * FROM customers WHERE id = 'CUS-000001'")
    assert (c["name"], c["email"], c["phone"], c["city"]) == (
        persona.name,
        persona.email,
        persona.phone,
        persona.city,
    )
    assert one(ep, "SELECT customer_id FROM lines WHERE id = ?", persona.phone)["customer_id"] == "CUS-000001"


# -- derived status: both sides -------------------------------------------------------------------


def test_abroad_data_needs_roaming_on_the_phone_and_on_the_account(env, ep):
    line = one(
        ep,
        f"SELECT * FROM lines WHERE {HEALTHY} AND customer_id NOT IN (SELECT customer_id FROM bills "
        f"WHERE {PAST_DUE}) ORDER BY id",
    )
    assert call(env, ep, "device_run_speed_test", line=line["id"])["download_mbps"] > 0
    patch(ep, "UPDATE devices SET country = 'MX', data_roaming = 0 WHERE line_number = ?", line["id"])
    patch(ep, "UPDATE lines SET roaming_enabled = 0 WHERE id = ?", line["id"])
    bar = call(env, ep, "device_check_status_bar", line=line["id"])
    assert bar["signal"] == "Emergency calls only" and not bar["mobile_data_icon"]
    call(env, ep, "device_set_data_roaming", line=line["id"], mode="on")  # the phone side alone
    assert call(env, ep, "device_run_speed_test", line=line["id"])["result"] == "no connection"
    verify(env, ep, line["customer_id"])
    out = call(env, ep, "enable_roaming", line=line["id"])  # now the account side too
    assert out["device"]["registered_on_network"]
    speed = call(env, ep, "device_run_speed_test", line=line["id"])
    assert (
        speed["download_mbps"] > 0
        and call(env, ep, "device_check_status_bar", line=line["id"])["roaming_icon"]
    )
    assert breaches(ep) == []


def test_a_suspended_line_has_no_data_whatever_the_phone_does(env, ep):
    line = one(ep, f"SELECT * FROM lines WHERE {HEALTHY} ORDER BY id")
    verify(env, ep, line["customer_id"])
    call(env, ep, "suspend_line", line=line["id"], reason="customer_request")
    for tool in ("device_set_mobile_data", "device_set_data_roaming", "device_set_wifi_calling"):
        call(env, ep, tool, line=line["id"], mode="on")
    assert call(env, ep, "device_check_status_bar", line=line["id"])["signal"] == "Emergency calls only"
    assert call(env, ep, "device_run_speed_test", line=line["id"])["result"] == "no connection"
    call(env, ep, "resume_line", line=line["id"])
    assert call(env, ep, "device_run_speed_test", line=line["id"])["download_mbps"] > 0


def test_a_reset_apn_takes_effect_only_after_a_restart(env, ep):
    line = one(ep, f"SELECT * FROM lines WHERE {HEALTHY} ORDER BY id DESC")
    patch(ep, "UPDATE devices SET apn = 'internet' WHERE line_number = ?", line["id"])
    assert call(env, ep, "device_run_speed_test", line=line["id"])["result"] == "no connection"
    out = call(env, ep, "device_reset_apn", line=line["id"])
    assert out["restart_needed"] and not out["status_bar"]["mobile_data_icon"]
    assert call(env, ep, "device_restart", line=line["id"])["status_bar"]["mobile_data_icon"]


ORDER = (
    "line_suspended",
    "data_limit",
    "roaming_barred",
    "apn_broken",
    "restart_pending",
    "sim_unseated",
    "sim_puk",
    "sim_pin",
    "legacy_network",
    "airplane_mode",
    "mobile_data_off",
    "data_roaming_off",
    "data_saver",
)


def _fix(env, ep, line: dict, kind: str) -> None:
    """Run the registry's fix chain for one fault, with the arguments a caller would give."""
    n = line["id"]
    steps = {
        "airplane_mode": [("device_set_airplane_mode", {"mode": "off"})],
        "mobile_data_off": [("device_set_mobile_data", {"mode": "on"})],
        "data_roaming_off": [("device_set_data_roaming", {"mode": "on"})],
        "roaming_barred": [("enable_roaming", {})],
        "apn_broken": [("device_reset_apn", {}), ("device_restart", {})],
        "restart_pending": [("device_restart", {})],
        "sim_pin": [("device_enter_sim_pin", {"sim_pin": line["sim_pin"]})],
        "sim_puk": [("device_enter_puk", {"sim_puk": line["sim_puk"], "new_sim_pin": line["sim_pin"]})],
        "sim_unseated": [("device_reseat_sim", {})],
        "legacy_network": [("device_set_network_mode", {"mode": "4g"})],
        "data_saver": [("device_set_data_saver", {"mode": "off"})],
    }
    if kind == "line_suspended":
        method = one(
            ep,
            "SELECT id FROM payment_methods WHERE customer_id = ? AND status = 'active'",
            line["customer_id"],
        )
        bills = rows(ep, f"SELECT id FROM bills WHERE customer_id = ? AND {PAST_DUE}", line["customer_id"])
        steps[kind] = [("record_payment", {"bill": b["id"], "method": method["id"]}) for b in bills]
        steps[kind].append(("resume_line", {}))
    if kind == "data_limit":
        state = call(env, ep, "get_line", line=n)
        steps[kind] = [("refuel_data", {"gb": int(-state["data_left_gb"]) + 1})]
    assert [t for t, _ in steps[kind]][-1] == faults.FAULTS[kind].fix[-1]  # the registry's chain
    if kind == "sim_pin" and _state(ep, n)[1]["sim_status"] == "ready":
        return  # an earlier restart or reseat already asked for the PIN and got it
    for tool, args in steps[kind]:
        args = args if "bill" in args else {"line": n, **args}
        out = call(env, ep, tool, **args)
        if isinstance(out, dict) and out.get("sim_status") == "pin_required":  # a reseated PIN SIM asks
            call(env, ep, "device_enter_sim_pin", line=n, sim_pin=line["sim_pin"])


def _state(ep, number: str) -> tuple[dict, dict, dict]:
    line = one(ep, "SELECT * FROM lines WHERE id = ?", number)
    dev = one(ep, "SELECT * FROM devices WHERE line_number = ?", number)
    return line, dev, one(ep, "SELECT * FROM plans WHERE id = ?", line["plan_id"])


def test_composed_faults_need_every_fix_and_one_side_is_not_enough(env):
    paying = "customer_id IN (SELECT customer_id FROM payment_methods WHERE status = 'active')"
    ep = env.open()
    both, seen = 0, {True: 0, False: 0}
    candidates = rows(
        ep,
        f"SELECT id FROM lines WHERE {R.HAS_PHONE} AND {paying} AND (status = 'active' OR "
        "suspension_reason = 'overdue_bill') ORDER BY id LIMIT 400",
    )
    for number in [c["id"] for c in candidates]:
        kinds = faults.present(*_state(ep, number))
        sides = {faults.FAULTS[k].side for k in kinds}
        mixed = sides == {"device", "account"}
        if len(kinds) < 2 or seen[mixed] >= 6:
            continue
        seen[mixed] += 1
        ep = env.open()
        line = _state(ep, number)[0]
        verify(env, ep, line["customer_id"])
        device_side = [k for k in ORDER if k in kinds and faults.FAULTS[k].side == "device"]
        account_side = [k for k in ORDER if k in kinds and faults.FAULTS[k].side == "account"]
        for k in device_side:
            _fix(env, ep, line, k)
        if account_side:  # the phone is fine now, the account is not: still no data
            both += 1
            assert R.data_path(*_state(ep, number)) != "ok", (number, kinds)
            assert call(env, ep, "device_run_speed_test", line=number)["result"] == "no connection"
        for k in account_side:
            _fix(env, ep, line, k)
        assert faults.present(*_state(ep, number)) == [], (number, kinds)
        assert R.data_path(*_state(ep, number)) == "ok", (number, kinds)
        assert call(env, ep, "device_run_speed_test", line=number)["download_mbps"] > 0
        if min(seen.values()) >= 6:
            break
    assert both >= 6 and seen[False] >= 6


# -- service rules -------------------------------------------------------------------------------


def test_three_wrong_pins_lock_the_sim_and_the_puk_unlocks_it(env, ep):
    line = one(ep, f"SELECT * FROM lines WHERE {R.PIN_PROMPT} ORDER BY id")
    wrong = "0000" if line["sim_pin"] != "0000" else "1111"
    for left in range(PIN_TRIES - 1, -1, -1):
        out = call(env, ep, "device_enter_sim_pin", line=line["id"], sim_pin=wrong)
        assert not out["accepted"] and out["attempts_left"] == left
    assert out["sim_status"] == "puk_locked" and out["status_bar"]["signal"] == "SIM locked"
    err = fails(env, ep, "device_enter_sim_pin", "PUK-locked", line=line["id"], sim_pin=line["sim_pin"])
    assert line["id"] in err and "3 wrong PINs" in err
    bad = "00000000" if line["sim_puk"] != "00000000" else "11111111"
    assert (
        call(env, ep, "device_enter_puk", line=line["id"], sim_puk=bad, new_sim_pin="4821")["attempts_left"]
        == 9
    )
    ok = call(env, ep, "device_enter_puk", line=line["id"], sim_puk=line["sim_puk"], new_sim_pin="4821")
    assert ok["accepted"] and ok["status_bar"]["signal"] != "SIM locked"
    assert one(ep, "SELECT sim_pin FROM lines WHERE id = ?", line["id"])["sim_pin"] == "4821"
    assert call(env, ep, "device_restart", line=line["id"])["sim_status"] == "pin_required"  # PIN still on
    assert call(env, ep, "device_enter_sim_pin", line=line["id"], sim_pin="4821")["accepted"]


def test_refused_calls_name_their_values_and_change_nothing(env, ep):
    disputed = one(ep, "SELECT * FROM bills WHERE status = 'disputed' ORDER BY id")
    method = one(ep, "SELECT id FROM payment_methods WHERE customer_id = ? ", disputed["customer_id"])["id"]
    assert disputed["id"] in fails(env, ep, "record_payment", "disputed", bill=disputed["id"], method=method)
    expired = one(ep, "SELECT * FROM payment_methods WHERE status = 'expired' ORDER BY id")
    bill = one(ep, f"SELECT id FROM bills WHERE customer_id = ? AND {R.PAYABLE}", expired["customer_id"])
    err = fails(env, ep, "record_payment", "expired", bill=bill["id"], method=expired["id"])
    assert expired["id"] in err and expired["expires"] in err
    paid = one(ep, "SELECT * FROM bills WHERE status = 'paid' ORDER BY id")
    fails(env, ep, "send_payment_request", "is paid", bill=paid["id"], method=method)
    unlimited = one(ep, "SELECT * FROM lines WHERE plan_id = 'PLN-000005' AND status = 'active' ORDER BY id")
    assert "Unlimited" in fails(env, ep, "refuel_data", "nothing to refuel", line=unlimited["id"], gb=1)
    assert "Classic 1 GB" in fails(env, ep, "change_plan", "retired", line=unlimited["id"], plan="PLN-000007")
    fails(env, ep, "change_plan", "already on PLN-000005", line=unlimited["id"], plan="PLN-000005")
    old = one(
        ep,
        f"SELECT d.* FROM devices d WHERE max_network = '4g' AND {R.HAS_PHONE.replace('id IN', 'line_number IN')}",
    )
    err = fails(
        env, ep, "device_set_network_mode", "supports networks up to 4g", line=old["line_number"], mode="5g"
    )
    assert old["model"] in err
    esim = one(ep, "SELECT line_number FROM devices WHERE sim_kind = 'esim' ORDER BY id")["line_number"]
    fails(env, ep, "device_reseat_sim", "no card to reseat", line=esim)
    no_esim = one(
        ep,
        "SELECT * FROM devices WHERE esim_capable = 0 AND line_number IS NOT NULL AND line_number "
        "NOT IN (SELECT line_number FROM sim_orders) ORDER BY id",
    )
    fails(env, ep, "order_sim", "has no eSIM", line=no_esim["line_number"], kind="esim")
    shipping = one(ep, "SELECT * FROM sim_orders WHERE status = 'shipping' ORDER BY id")
    assert shipping["id"] in fails(
        env, ep, "order_sim", "already has SIM order", line=shipping["line_number"], kind="physical"
    )
    spare = one(ep, f"SELECT * FROM devices WHERE {R.SPARE_ESIM_PHONE} ORDER BY id")
    stranger = one(ep, "SELECT id FROM lines WHERE customer_id != ? ORDER BY id", spare["customer_id"])["id"]
    fails(env, ep, "transfer_esim", f"belongs to {spare['customer_id']}", line=stranger, device=spare["id"])
    fails(env, ep, "reset_voicemail_pin", "too easy to guess", line=stranger, new_pin="1234")
    draft = one(ep, "SELECT * FROM bills WHERE status = 'draft' AND amount < 90 ORDER BY id")
    err = fails(
        env, ep, "apply_goodwill_credit", "more than the", bill=draft["id"], amount=99.0, reason="outage"
    )
    assert f"{draft['amount'] - draft['credited']:.2f}" in err
    fails(
        env,
        ep,
        "verify_customer",
        "does not match the records of CUS-000001",
        customer="CUS-000001",
        date_of_birth="1900-01-01",
    )
    assert ep.diff() == []


def test_a_payment_changes_exactly_the_bill_the_payment_and_its_request(env, ep):
    bill = one(ep, "SELECT * FROM bills WHERE status = 'awaiting_payment' ORDER BY id")
    method = one(ep, "SELECT method_id FROM payment_requests WHERE bill_id = ?", bill["id"])["method_id"]
    verify(env, ep, bill["customer_id"])
    out = call(env, ep, "record_payment", bill=bill["id"], method=method)
    assert out["amount"] == round(bill["amount"] - bill["credited"], 2) and out["bill_status"] == "paid"
    assert tables(ep) == {"sessions", "payments", "bills", "payment_requests"}
    diff = changes(ep)
    assert {k[2] for k in diff if k[0] == "bills"} == {"status", "paid_on"}


def test_a_refuel_is_charged_on_this_cycles_bill(env, ep):
    line = one(
        ep, f"SELECT * FROM lines WHERE status = 'active' AND refueled_gb = 0 AND {R.LIMITED} ORDER BY id"
    )
    plan = one(ep, "SELECT * FROM plans WHERE id = ?", line["plan_id"])
    draft = one(ep, "SELECT * FROM bills WHERE line_number = ? AND status = 'draft'", line["id"])
    verify(env, ep, line["customer_id"])
    call(env, ep, "refuel_data", line=line["id"], gb=2)
    after = one(ep, "SELECT amount FROM bills WHERE id = ?", draft["id"])["amount"]
    assert after == pytest.approx(draft["amount"] + 2 * plan["refuel_price_per_gb"])
    assert tables(ep) == {"sessions", "lines", "refuels", "bills"}


def test_an_esim_transfer_moves_the_line_and_empties_the_old_phone(env, ep):
    spare = one(
        ep,
        f"SELECT * FROM devices WHERE {R.SPARE_ESIM_PHONE} AND customer_id IN "
        f"(SELECT customer_id FROM lines WHERE {R.HAS_PHONE}) ORDER BY id",
    )
    line = one(ep, f"SELECT id FROM lines WHERE customer_id = ? AND {R.HAS_PHONE}", spare["customer_id"])[
        "id"
    ]
    old = one(ep, "SELECT id FROM devices WHERE line_number = ?", line)["id"]
    verify(env, ep, spare["customer_id"])
    assert call(env, ep, "transfer_esim", line=line, device=spare["id"])["device"]["id"] == spare["id"]
    assert one(ep, "SELECT line_number, sim_status FROM devices WHERE id = ?", old) == {
        "line_number": None,
        "sim_status": "absent",
    }


# -- the written policy, both modes ---------------------------------------------------------------


def _cases(ep) -> dict[str, tuple]:
    """slug -> (tool, violating args, compliant args, customer of each), all from the medium seed."""
    unpaid = f"customer_id IN (SELECT customer_id FROM bills WHERE {PAST_DUE})"
    changed = one(
        ep, "SELECT * FROM lines WHERE plan_changed_on >= cycle_start AND status = 'active' ORDER BY id"
    )
    fresh = one(
        ep,
        "SELECT * FROM lines WHERE plan_changed_on IS NULL AND status = 'active' AND plan_id != "
        "'PLN-000003' ORDER BY id",
    )
    ytd = (
        "SELECT b.id AS bill, b.customer_id FROM bills b WHERE b.status = 'draft' AND b.amount > 30 AND "
        "(SELECT coalesce(sum(amount), 0) FROM credits c WHERE c.customer_id = b.customer_id AND "
        "c.issued_on >= '2026-01-01') {} ORDER BY b.id"
    )
    capped, clear = one(ep, ytd.format(">= 50")), one(ep, ytd.format("= 0"))
    full = one(
        ep, f"SELECT * FROM lines WHERE refueled_gb >= 4 AND status = 'active' AND {R.LIMITED} ORDER BY id"
    )
    empty = one(
        ep, f"SELECT * FROM lines WHERE refueled_gb = 0 AND status = 'active' AND {R.LIMITED} ORDER BY id"
    )
    owing = one(
        ep, f"SELECT * FROM lines WHERE roaming_enabled = 0 AND status = 'active' AND {unpaid} ORDER BY id"
    )
    good = one(
        ep,
        f"SELECT * FROM lines WHERE roaming_enabled = 0 AND status = 'active' AND NOT {unpaid} ORDER BY id",
    )
    still = one(ep, f"SELECT * FROM lines WHERE suspension_reason = 'overdue_bill' AND {unpaid} ORDER BY id")
    settled = one(
        ep, f"SELECT * FROM lines WHERE suspension_reason = 'overdue_bill' AND NOT {unpaid} ORDER BY id"
    )
    return {
        "plan-change-once-per-cycle": (
            "change_plan",
            ({"line": changed["id"], "plan": "PLN-000003"}, changed["customer_id"]),
            ({"line": fresh["id"], "plan": "PLN-000003"}, fresh["customer_id"]),
        ),
        "goodwill-cap": (
            "apply_goodwill_credit",
            ({"bill": capped["bill"], "amount": 20.0, "reason": "outage"}, capped["customer_id"]),
            ({"bill": clear["bill"], "amount": 5.0, "reason": "outage"}, clear["customer_id"]),
        ),
        "refuel-cap": (
            "refuel_data",
            ({"line": full["id"], "gb": 3}, full["customer_id"]),
            ({"line": empty["id"], "gb": 1}, empty["customer_id"]),
        ),
        "roaming-good-standing": (
            "enable_roaming",
            ({"line": owing["id"]}, owing["customer_id"]),
            ({"line": good["id"]}, good["customer_id"]),
        ),
        "resume-after-payment": (
            "resume_line",
            ({"line": still["id"]}, still["customer_id"]),
            ({"line": settled["id"]}, settled["customer_id"]),
        ),
        "human-last-resort": (
            "transfer_to_human",
            ({"customer": "CUS-000002", "reason": "no_data", "summary": "no data"}, "CUS-000002"),
            (
                {"customer": "CUS-000002", "reason": "billing_dispute", "summary": "disputes May bill"},
                "CUS-000002",
            ),
        ),
    }


SLUGS = [
    "verify-first",
    "resume-after-payment",
    "plan-change-once-per-cycle",
    "goodwill-cap",
    "refuel-cap",
    "roaming-good-standing",
    "human-last-resort",
]


def test_the_policy_document_has_the_rules_in_order():
    policy = get_domain(DOMAIN).policy
    assert [r.slug for r in policy.rules] == [*SLUGS, "confirm-account-changes"]
    assert policy.mode == "written" and policy.rule("confirm-account-changes").confirm
    text = policy.markdown()
    assert "4. Goodwill credits to one customer add up to at most $60.00" in text
    assert f"5. Add at most {REFUEL_CAP_GB} GB" in text and GOODWILL_CAP == 60.0


def _expect(env, ep, mode: str, tool: str, args: dict, slug: str, violating: bool) -> None:
    before = ep.state_hash()
    out = env.call(ep, f"{DOMAIN}_{tool}", args)
    if violating and mode == "enforced":
        assert not out.ok and f"({slug})" in out.error and "Refused by policy rule" in out.error
        assert ep.state_hash() == before and breaches(ep) == []
    elif violating:
        assert out.ok, out.error
        assert breaches(ep) == [slug]
    else:
        assert out.ok, out.error
        assert breaches(ep) == []


@pytest.mark.parametrize("mode", ["written", "enforced"])
@pytest.mark.parametrize("slug", SLUGS[1:])
def test_each_checked_rule_catches_a_breach_and_passes_a_compliant_call(env, mode, slug):
    variants = {DOMAIN: "enforced"} if mode == "enforced" else None
    probe = env.open(variants)
    tool, bad, good = _cases(probe)[slug]
    for (args, customer), violating in ((bad, True), (good, False)):
        ep = env.open(variants)
        verify(env, ep, customer)
        _expect(env, ep, mode, tool, args, slug, violating)


@pytest.mark.parametrize("mode", ["written", "enforced"])
def test_verify_first_and_its_remedy(env, mode):
    variants = {DOMAIN: "enforced"} if mode == "enforced" else None
    probe = env.open(variants)
    tool, _, (args, customer) = _cases(probe)["plan-change-once-per-cycle"]
    ep = env.open(variants)
    _expect(env, ep, mode, tool, args, "verify-first", True)
    ep = env.open(variants)
    verify(env, ep, "CUS-000003" if customer != "CUS-000003" else "CUS-000004")  # someone else
    _expect(env, ep, mode, tool, args, "verify-first", True)
    ep = env.open(variants)
    rule = get_domain(DOMAIN).policy.rule("verify-first")
    with ep.fork(DOMAIN).reading() as conn:
        fix = rule.remedy(Db(conn), tool, args)
    assert fix == ("verify_customer", {"customer": customer, "date_of_birth": dob(ep, customer)})
    call(env, ep, fix[0], **fix[1])
    _expect(env, ep, mode, tool, args, "verify-first", False)


def test_near_edge_verdicts_are_allowed(env, ep):
    policy = get_domain(DOMAIN).policy
    near = one(
        ep,
        "SELECT * FROM lines WHERE plan_changed_on < cycle_start AND plan_changed_on >= "
        "date(cycle_start, '-3 days') AND status = 'active' ORDER BY id",
    )
    verify(env, ep, near["customer_id"])
    args = {"line": near["id"], "plan": "PLN-000006" if near["plan_id"] != "PLN-000006" else "PLN-000004"}
    with ep.fork(DOMAIN).reading() as conn:
        verdicts = policy.verdicts(Db(conn), "change_plan", args)
    assert [(r.slug, isinstance(why, Near)) for r, why in verdicts] == [("plan-change-once-per-cycle", True)]
    call(env, ep, "change_plan", **args)
    assert breaches(ep) == []
