"""Payments' business rules: failures really happen and change nothing, successes change exactly the right rows."""

from __future__ import annotations

import pytest

from servers.kit import marks
from servers.registry import get_domain
from tests.domain_helpers import DomainCalls, changes

DOMAIN = "payments"
calls = DomainCalls(DOMAIN)
call, fails, rows, one = calls.call, calls.fails, calls.rows, calls.one
DISCOVERY = {"list_records", "search_records", "get_unique_values"}
ACTIVE = "merchant_id IN (SELECT id FROM merchants WHERE status = 'active')"
# a customer of an active merchant whose default card the issuer approves
GOOD_CUSTOMER = f"""
SELECT c.* FROM customers c JOIN payment_methods pm ON pm.id = c.default_method_id
WHERE c.deleted = 0 AND c.credit_balance = 0 AND pm.status = 'active' AND pm.decline_code IS NULL
  AND pm.exp_year >= 2027 AND c.{ACTIVE} ORDER BY c.id
"""
BAD_CUSTOMER = f"""
SELECT c.*, pm.decline_code FROM customers c JOIN payment_methods pm ON pm.id = c.default_method_id
WHERE c.deleted = 0 AND c.credit_balance = 0 AND pm.status = 'active' AND pm.decline_code IS NOT NULL
  AND c.{ACTIVE} ORDER BY c.id
"""


@pytest.fixture
def pay(make_env):
    env = make_env(DOMAIN)
    return env, env.open()


def tables(ep) -> set[str]:
    return {c["table"] for c in ep.diff()}


def inserted(ep, table: str) -> set[str]:
    return {c["pk"] for c in ep.diff() if c["table"] == table and c["op"] == "insert"}


def draft_for(env, ep, customer: str, amount: float = 120.0) -> str:
    inv = call(env, ep, "create_invoice", customer=customer, due_days=14)
    call(env, ep, "add_invoice_line", invoice=inv["id"], description="Setup", unit_amount=amount)
    return inv["id"]


def open_invoice(env, ep, customer: str, amount: float = 120.0) -> dict:
    inv = draft_for(env, ep, customer, amount)
    return call(env, ep, "finalize_invoice", invoice=inv)


# -- catalogue and seed ----------------------------------------------------------------------


def test_enough_tools_each_with_two_ways_to_ask():
    domain = get_domain(DOMAIN)
    own = [t for name, t in domain.tools.items() if name not in DISCOVERY and not t.hidden]
    assert len(own) >= 30
    assert all(len(t.says) >= 2 for t in own), [t.name for t in own if len(t.says) < 2]
    assert {"events", "deliveries", "refunds", "credit_notes"} <= set(domain.append_only())
    attach = domain.tools["attach_card"]
    assert {p.name for p in attach.params if p.sensitive} == {"card_number", "cvc"}
    assert set(marks(domain.table("payment_methods")).hidden) == {"number", "fingerprint", "decline_code"}


def test_sampler_pools_at_medium(medium):
    from servers.domains.payments.rules import CHARGEABLE, PAYABLE, REFUNDABLE, RESENDABLE

    def count(sql: str) -> int:
        return medium.execute(sql).fetchone()[0]

    assert count("SELECT count(*) FROM merchants") == 40
    assert count("SELECT count(*) FROM merchants WHERE status = 'restricted'") == 3
    assert count("SELECT count(*) FROM customers") >= 1150
    assert count("SELECT count(*) FROM payment_methods") >= 1500
    assert count("SELECT count(*) FROM invoices WHERE status = 'draft' AND total > 0") >= 300
    assert count("SELECT count(*) FROM invoices WHERE status = 'open'") >= 600
    assert count(f"SELECT count(*) FROM invoices WHERE {PAYABLE}") >= 500
    assert count("SELECT count(*) FROM invoices WHERE status = 'open' AND due_date < '2026-06-01'") >= 150
    assert count(f"SELECT count(*) FROM payments WHERE {REFUNDABLE}") >= 2500
    assert count(f"SELECT count(*) FROM customers WHERE {CHARGEABLE}") >= 900
    assert count(f"SELECT count(*) FROM events WHERE {RESENDABLE}") >= 500
    assert count("SELECT count(*) FROM merchants WHERE available_balance > 100 AND status = 'active'") >= 30
    assert count("SELECT count(*) FROM payments WHERE status = 'requires_capture'") >= 50
    assert count("SELECT count(*) FROM disputes WHERE status = 'needs_response'") >= 15
    assert count("SELECT count(*) FROM payouts WHERE status = 'pending'") >= 30
    for status in ("succeeded", "failed", "requires_capture", "canceled", "disputed"):
        assert count(f"SELECT count(*) FROM payments WHERE status = '{status}'") > 0, status
    for status in ("draft", "open", "paid", "uncollectible", "void"):
        assert count(f"SELECT count(*) FROM invoices WHERE status = '{status}'") > 0, status
    # refunds never exceed what was captured, and a payment's refunds add up to amount_refunded
    assert count("SELECT count(*) FROM payments WHERE amount_refunded > amount_captured + 0.001") == 0
    assert (
        count(
            "SELECT count(*) FROM payments p WHERE abs(amount_refunded - (SELECT coalesce(sum(amount), 0) "
            "FROM refunds r WHERE r.payment_id = p.id)) > 0.001"
        )
        == 0
    )
    assert (
        count(
            "SELECT count(*) FROM invoices WHERE abs(total - (SELECT sum(amount) FROM invoice_lines l WHERE l.invoice_id = invoices.id)) > 0.001"
        )
        == 0
    )


def test_persona_buys_from_the_first_merchants(medium):
    from servers.kit import world

    p = world(0, "medium").persona
    found = medium.execute(
        "SELECT merchant_id, name FROM customers WHERE email = ? ORDER BY id", (p.email,)
    ).fetchall()
    assert found == [("MER-000001", p.name), ("MER-000002", p.name), ("MER-000003", p.name)]


def test_seeded_cards_pass_the_checksum_shape(medium):
    """Cards show only brand, last four and expiry; expired ones really are past their month."""
    bad = medium.execute(
        "SELECT count(*) FROM payment_methods WHERE status = 'expired' AND exp_year * 12 + exp_month >= 2026 * 12 + 6"
    ).fetchone()[0]
    assert bad == 0
    assert medium.execute("SELECT count(DISTINCT fingerprint) FROM payment_methods").fetchone()[0] > 1500


# -- customers and cards ---------------------------------------------------------------------


def test_attach_card_checks_number_expiry_code_and_duplicates(pay):
    env, ep = pay
    c = one(ep, GOOD_CUSTOMER)
    fails(
        env,
        ep,
        "attach_card",
        "ending 4241 is not a valid card number",
        customer=c["id"],
        card_number="4242424242424241",
        exp_month=1,
        exp_year=2030,
        cvc="123",
    )
    fails(
        env,
        ep,
        "attach_card",
        "expired in 2026-05; it is 2026-06",
        customer=c["id"],
        card_number="4242424242424242",
        exp_month=5,
        exp_year=2026,
        cvc="123",
    )
    fails(
        env,
        ep,
        "attach_card",
        "amex security code has 4 digits, got 3",
        customer=c["id"],
        card_number="378282246310005",
        exp_month=5,
        exp_year=2030,
        cvc="123",
    )
    out = call(
        env,
        ep,
        "attach_card",
        customer=c["id"],
        card_number="4242424242424242",
        exp_month=6,
        exp_year=2026,
        cvc="123",
        make_default=True,
    )
    assert out["last4"] == "4242" and out["default"] and not {"fingerprint", "number"} & set(out)
    assert changes(ep)[("customers", c["id"], "default_method_id")]["new"] == out["id"]
    assert (
        {"payment_methods", "customers", "events"}
        <= tables(ep)
        <= {"payment_methods", "customers", "events", "deliveries"}
    )
    fails(
        env,
        ep,
        "attach_card",
        f"already saved to {c['id']} as {out['id']}",
        customer=c["id"],
        card_number="4242424242424242",
        exp_month=6,
        exp_year=2026,
        cvc="999",
    )


def test_create_customer_refuses_a_second_customer_with_one_email(pay):
    env, ep = pay
    c = one(ep, GOOD_CUSTOMER)
    fails(
        env,
        ep,
        "create_customer",
        f"already customer {c['id']}",
        merchant=c["merchant_id"],
        name="X",
        email=c["email"].upper(),
    )
    new = call(
        env, ep, "create_customer", merchant=c["merchant_id"], name="Ada Park", email="ada@park.example"
    )
    assert inserted(ep, "customers") == {new["id"]}
    assert one(ep, "SELECT type FROM events ORDER BY id DESC LIMIT 1")["type"] == "customer.created"


def test_detaching_the_default_picks_another_active_method(pay):
    env, ep = pay
    c = one(ep, GOOD_CUSTOMER)
    extra = call(
        env,
        ep,
        "attach_card",
        customer=c["id"],
        card_number="5555555555554444",
        exp_month=3,
        exp_year=2029,
        cvc="321",
    )
    out = call(env, ep, "detach_payment_method", payment_method=c["default_method_id"])
    assert out["default_method_id"] == extra["id"]
    fails(env, ep, "detach_payment_method", "already detached", payment_method=c["default_method_id"])


# -- invoices ---------------------------------------------------------------------------------


def test_invoice_workflow_and_numbering(pay):
    env, ep = pay
    c = one(ep, GOOD_CUSTOMER)
    inv = call(env, ep, "create_invoice", customer=c["id"], due_days=10)
    fails(env, ep, "finalize_invoice", "has 0 lines and a total of 0.00", invoice=inv["id"])
    call(
        env, ep, "add_invoice_line", invoice=inv["id"], description="Consulting", unit_amount=45.5, quantity=3
    )
    prefix = one(ep, "SELECT invoice_prefix FROM merchants WHERE id = ?", c["merchant_id"])["invoice_prefix"]
    n = one(
        ep,
        "SELECT count(*) AS n FROM invoices WHERE merchant_id = ? AND number IS NOT NULL",
        c["merchant_id"],
    )["n"]
    out = call(env, ep, "finalize_invoice", invoice=inv["id"])
    assert out["status"] == "open" and out["total"] == 136.5 and out["amount_due"] == 136.5
    assert out["number"] == f"{prefix}{n + 1:05d}" and out["due_date"] == "2026-06-11"
    fails(
        env,
        ep,
        "add_invoice_line",
        "is open; only draft invoices can be edited — finalized invoices are adjusted with a credit note",
        invoice=inv["id"],
        description="More",
        unit_amount=5.0,
    )
    fails(env, ep, "finalize_invoice", "is open; only draft", invoice=inv["id"])


def test_paid_and_void_invoices_are_final(pay):
    env, ep = pay
    paid = one(ep, "SELECT * FROM invoices WHERE status = 'paid'")
    fails(
        env,
        ep,
        "void_invoice",
        "is paid; only open or uncollectible invoices can be voided — issue a credit note",
        invoice=paid["id"],
    )
    fails(
        env, ep, "pay_invoice", "is paid; only open or uncollectible invoices can be paid", invoice=paid["id"]
    )
    fails(env, ep, "mark_invoice_uncollectible", "is paid; only open", invoice=paid["id"])
    void = one(ep, "SELECT * FROM invoices WHERE status = 'void'")
    fails(
        env,
        ep,
        "create_credit_note",
        "is void; credit notes can only adjust open or paid",
        invoice=void["id"],
        amount=1.0,
    )
    draft = one(ep, "SELECT * FROM invoices WHERE status = 'draft'")
    fails(env, ep, "pay_invoice", "is draft; .* finalize it first", invoice=draft["id"])


def test_uncollectible_can_still_be_paid(pay):
    env, ep = pay
    c = one(ep, GOOD_CUSTOMER)
    inv = open_invoice(env, ep, c["id"])
    call(env, ep, "mark_invoice_uncollectible", invoice=inv["id"])
    out = call(env, ep, "pay_invoice", invoice=inv["id"])
    assert out["paid"] and out["status"] == "paid"


def test_pay_invoice_charges_the_default_card(pay):
    env, ep = pay
    c = one(ep, GOOD_CUSTOMER)
    inv = open_invoice(env, ep, c["id"], 80.0)
    m = one(ep, "SELECT * FROM merchants WHERE id = ?", c["merchant_id"])
    out = call(env, ep, "pay_invoice", invoice=inv["id"])
    assert out["paid"] and out["charged"] == 80.0 and out["payment"]["method_id"] == c["default_method_id"]
    ch = changes(ep)
    assert ch[("merchants", m["id"], "pending_balance")]["new"] == round(m["pending_balance"] + 80.0, 2)
    types = [
        r["type"]
        for r in rows(
            ep,
            "SELECT type FROM events WHERE object_id IN (?, ?) ORDER BY id",
            inv["id"],
            out["payment"]["id"],
        )
    ]
    assert types[-2:] == ["payment.succeeded", "invoice.paid"]


def test_declined_card_is_recorded_not_raised(pay):
    env, ep = pay
    c = one(ep, BAD_CUSTOMER)
    inv = open_invoice(env, ep, c["id"], 60.0)
    before = set(tables(ep))
    out = call(env, ep, "pay_invoice", invoice=inv["id"])
    assert out == {**out, "paid": False, "declined": c["decline_code"]}
    assert out["status"] == "open" and out["attempt_count"] == 1
    failed = one(ep, "SELECT * FROM payments WHERE id = ?", out["payment"]["id"])
    assert failed["status"] == "failed" and failed["amount_captured"] == 0
    assert one(ep, "SELECT delinquent FROM customers WHERE id = ?", c["id"])["delinquent"] == 1
    assert "invoice.payment_failed" in {
        r["type"] for r in rows(ep, "SELECT type FROM events WHERE object_id = ?", inv["id"])
    }
    assert tables(ep) - before <= {"payments", "customers", "events", "deliveries", "invoices"}


def test_credit_balance_is_used_before_the_card(pay):
    env, ep = pay
    c = one(
        ep,
        f"SELECT * FROM customers WHERE credit_balance > 10 AND deleted = 0 AND default_method_id IS NOT NULL AND {ACTIVE}",
    )
    inv = open_invoice(env, ep, c["id"], round(c["credit_balance"] + 40.0, 2))
    out = call(env, ep, "pay_invoice", invoice=inv["id"])
    if out["paid"]:
        assert out["credit_applied"] == c["credit_balance"] and out["charged"] == 40.0
        assert changes(ep)[("customers", c["id"], "credit_balance")]["new"] == 0.0
    else:  # a decline leaves the credit untouched
        assert ("customers", c["id"], "credit_balance") not in changes(ep)


def test_credit_notes_lower_the_amount_due_and_never_exceed_the_total(pay):
    env, ep = pay
    c = one(ep, GOOD_CUSTOMER)
    inv = open_invoice(env, ep, c["id"], 100.0)
    fails(
        env,
        ep,
        "create_credit_note",
        "nothing has been paid on open invoice",
        invoice=inv["id"],
        amount=10.0,
        refund=True,
    )
    fails(
        env,
        ep,
        "create_credit_note",
        "would reach 100.01, more than its total 100.00 USD",
        invoice=inv["id"],
        amount=100.01,
    )
    note = call(env, ep, "create_credit_note", invoice=inv["id"], amount=30.0, reason="order_change")
    assert note["kind"] == "pre_payment" and note["invoice"]["amount_due"] == 70.0
    done = call(env, ep, "create_credit_note", invoice=inv["id"], amount=70.0, reason="duplicate")
    assert done["invoice"]["status"] == "paid" and done["invoice"]["amount_due"] == 0.0
    assert not inserted(ep, "payments")


def test_post_payment_credit_note_refunds_or_credits(pay):
    env, ep = pay
    c = one(ep, GOOD_CUSTOMER)
    inv = open_invoice(env, ep, c["id"], 90.0)
    paid = call(env, ep, "pay_invoice", invoice=inv["id"])
    pid = paid["payment"]["id"]
    note = call(env, ep, "create_credit_note", invoice=inv["id"], amount=20.0, refund=True)
    assert note["refund_id"] in inserted(ep, "refunds")
    assert one(ep, "SELECT amount_refunded FROM payments WHERE id = ?", pid)["amount_refunded"] == 20.0
    call(env, ep, "create_credit_note", invoice=inv["id"], amount=30.0)
    assert one(ep, "SELECT credit_balance FROM customers WHERE id = ?", c["id"])["credit_balance"] == 30.0
    fails(
        env,
        ep,
        "create_credit_note",
        r"would reach 90.01, more than its total 90.00 USD \(50.00 credited",
        invoice=inv["id"],
        amount=40.01,
    )


# -- charges and refunds --------------------------------------------------------------------------


def test_authorize_then_capture_part(pay):
    env, ep = pay
    c = one(ep, GOOD_CUSTOMER)
    held = call(
        env, ep, "charge_customer", customer=c["id"], amount=75.0, description="Deposit", capture=False
    )
    pid = held["id"]
    assert held["status"] == "requires_capture"
    fails(env, ep, "refund_payment", "only authorized, never captured; cancel it", payment=pid)
    fails(env, ep, "capture_payment", "authorized only 75.00 USD", payment=pid, amount=75.01)
    out = call(env, ep, "capture_payment", payment=pid, amount=60.0)
    assert out["status"] == "succeeded" and out["amount_captured"] == 60.0
    fails(
        env,
        ep,
        "refund_payment",
        r"greater than the unrefunded amount on payment .* \(60.00 USD",
        payment=pid,
        amount=61.0,
    )
    fails(env, ep, "cancel_payment", "is succeeded; only authorized .* \\(refund it instead\\)", payment=pid)


def test_partial_refunds_add_up_to_what_was_captured(pay):
    env, ep = pay
    p = one(
        ep,
        "SELECT * FROM payments WHERE status = 'succeeded' AND amount_refunded = 0 AND amount_captured > 20 ORDER BY id",
    )
    first = call(env, ep, "refund_payment", payment=p["id"], amount=10.0, reason="requested_by_customer")
    left = round(p["amount_captured"] - 10.0, 2)
    assert first["refundable"] == left
    msg = fails(
        env,
        ep,
        "refund_payment",
        "greater than the unrefunded amount",
        payment=p["id"],
        amount=round(left + 0.01, 2),
    )
    assert f"{left:,.2f}" in msg
    rest = call(env, ep, "refund_payment", payment=p["id"], reason="duplicate")
    assert rest["amount"] == left and rest["refundable"] == 0
    fails(env, ep, "refund_payment", "already fully refunded", payment=p["id"])
    assert len(inserted(ep, "refunds")) == 2


def test_disputed_and_failed_payments_cannot_be_refunded(pay):
    env, ep = pay
    d = one(ep, "SELECT * FROM payments WHERE status = 'disputed'")
    fails(env, ep, "refund_payment", f"payment {d['id']} is disputed", payment=d["id"])
    f = one(ep, "SELECT * FROM payments WHERE status = 'failed'")
    fails(env, ep, "refund_payment", "is failed; only succeeded payments", payment=f["id"])


def test_idempotency_key_replays_or_refuses(pay):
    env, ep = pay
    c = one(ep, GOOD_CUSTOMER)
    first = call(
        env,
        ep,
        "charge_customer",
        customer=c["id"],
        amount=25.0,
        description="Tickets",
        idempotency_key="ord-1",
    )
    after = ep.state_hash()
    again = call(
        env,
        ep,
        "charge_customer",
        customer=c["id"],
        amount=25.0,
        description="Tickets",
        idempotency_key="ord-1",
    )
    assert again["idempotent_replay"] and again["id"] == first["id"]
    assert ep.state_hash() == after
    fails(
        env,
        ep,
        "charge_customer",
        "key 'ord-1' was already used .* for a different request",
        customer=c["id"],
        amount=26.0,
        description="Tickets",
        idempotency_key="ord-1",
    )


def test_restricted_merchants_and_minimum_charges(pay):
    env, ep = pay
    r = one(
        ep,
        "SELECT c.* FROM customers c JOIN merchants m ON m.id = c.merchant_id WHERE m.status = 'restricted' AND c.deleted = 0 AND c.default_method_id IS NOT NULL",
    )
    fails(
        env,
        ep,
        "charge_customer",
        "is restricted; a restricted account cannot take payments",
        customer=r["id"],
        amount=10.0,
        description="X",
    )
    c = one(ep, GOOD_CUSTOMER)
    fails(
        env,
        ep,
        "charge_customer",
        "0.49 USD is below the minimum charge of 0.50 USD",
        customer=c["id"],
        amount=0.49,
        description="X",
    )
    other = one(ep, "SELECT id FROM payment_methods WHERE customer_id != ? AND status = 'active'", c["id"])
    fails(
        env,
        ep,
        "charge_customer",
        f"belongs to customer .*, not to {c['id']}",
        customer=c["id"],
        amount=5.0,
        description="X",
        payment_method=other["id"],
    )


# -- disputes, webhooks, payouts ------------------------------------------------------------------


def test_dispute_evidence_then_no_accepting(pay):
    env, ep = pay
    d = one(ep, "SELECT * FROM disputes WHERE status = 'needs_response'")
    out = call(
        env, ep, "submit_dispute_evidence", dispute=d["id"], evidence="Signed delivery receipt attached."
    )
    assert out["status"] == "under_review"
    fails(env, ep, "accept_dispute", "is under_review; only disputes that need a response", dispute=d["id"])
    d2 = one(ep, "SELECT * FROM disputes WHERE status = 'needs_response' AND id != ?", d["id"])
    assert call(env, ep, "accept_dispute", dispute=d2["id"])["status"] == "lost"


def test_events_reach_only_enabled_subscribed_endpoints(pay):
    env, ep = pay
    c = one(ep, GOOD_CUSTOMER)
    m = c["merchant_id"]
    for e in rows(ep, "SELECT id FROM webhook_endpoints WHERE merchant_id = ? AND status = 'enabled'", m):
        call(env, ep, "update_webhook_endpoint", endpoint=e["id"], enabled=False)
    fails(
        env,
        ep,
        "create_webhook_endpoint",
        "must use https://",
        merchant=m,
        url="http://a.example/h",
        events=["*"],
    )
    fails(
        env,
        ep,
        "create_webhook_endpoint",
        "already means every event type",
        merchant=m,
        url="https://a.example/h",
        events=["*", "invoice.paid"],
    )
    hook = call(
        env,
        ep,
        "create_webhook_endpoint",
        merchant=m,
        url="https://a.example/h",
        events=["payment.succeeded"],
    )
    assert hook["secret"].startswith("whsec_")
    fails(
        env,
        ep,
        "create_webhook_endpoint",
        f"already registered for merchant {m} as {hook['id']}",
        merchant=m,
        url="https://a.example/h",
        events=["*"],
    )
    before = inserted(ep, "deliveries")
    call(env, ep, "create_customer", merchant=m, name="No Hook", email="nohook@x.example")  # not subscribed
    assert inserted(ep, "deliveries") == before
    charge = call(env, ep, "charge_customer", customer=c["id"], amount=12.0, description="X")
    new = rows(
        ep,
        "SELECT d.* FROM deliveries d JOIN events e ON e.id = d.event_id WHERE e.object_id = ?",
        charge["id"],
    )
    assert [(d["endpoint_id"], d["status"], d["attempt"]) for d in new] == [(hook["id"], "succeeded", 1)]
    fails(env, ep, "update_webhook_endpoint", "nothing to change", endpoint=hook["id"])


def test_resend_event_rules(pay):
    env, ep = pay
    from servers.domains.payments.rules import RESENDABLE

    ev = one(ep, f"SELECT * FROM events WHERE {RESENDABLE} ORDER BY id")
    d = one(
        ep,
        "SELECT d.* FROM deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id WHERE d.event_id = ? "
        "AND d.status = 'failed' AND w.status = 'enabled' ORDER BY d.attempt DESC",
        ev["id"],
    )
    out = call(env, ep, "resend_event", event=ev["id"], endpoint=d["endpoint_id"])
    assert out["attempt"] == d["attempt"] + 1
    assert tables(ep) == {"deliveries"} and len(inserted(ep, "deliveries")) == 1
    old = one(
        ep,
        "SELECT * FROM events WHERE merchant_id = ? AND created_at < '2026-05-01' ORDER BY id",
        ev["merchant_id"],
    )
    fails(
        env,
        ep,
        "resend_event",
        "events older than 30 days cannot be resent",
        event=old["id"],
        endpoint=d["endpoint_id"],
    )
    other = one(ep, "SELECT id FROM webhook_endpoints WHERE merchant_id != ?", ev["merchant_id"])
    fails(
        env,
        ep,
        "resend_event",
        f"belongs to merchant {ev['merchant_id']}",
        event=ev["id"],
        endpoint=other["id"],
    )
    call(env, ep, "update_webhook_endpoint", endpoint=d["endpoint_id"], enabled=False)
    fails(env, ep, "resend_event", "is disabled; enable it", event=ev["id"], endpoint=d["endpoint_id"])


def test_payouts_come_from_the_available_balance(pay):
    env, ep = pay
    m = one(
        ep,
        "SELECT * FROM merchants WHERE status = 'active' AND payouts_enabled = 1 AND available_balance > 100",
    )
    too_much = round(m["available_balance"] + 0.01, 2)
    fails(
        env,
        ep,
        "create_payout",
        f"the available balance of {m['id']} is {m['available_balance']:,.2f}",
        merchant=m["id"],
        amount=too_much,
    )
    p = call(env, ep, "create_payout", merchant=m["id"], amount=100.0)
    assert p["status"] == "pending" and p["arrival_day"] == "2026-06-03"
    assert changes(ep)[("merchants", m["id"], "available_balance")]["new"] == round(
        m["available_balance"] - 100, 2
    )
    assert tables(ep) == {"payouts", "merchants", "events", "deliveries"} or tables(ep) == {
        "payouts",
        "merchants",
        "events",
    }
    call(env, ep, "cancel_payout", payout=p["id"])
    assert (
        one(ep, "SELECT available_balance FROM merchants WHERE id = ?", m["id"])["available_balance"]
        == m["available_balance"]
    )
    fails(env, ep, "cancel_payout", "is canceled; only pending payouts", payout=p["id"])
    r = one(ep, "SELECT * FROM merchants WHERE status = 'restricted'")
    fails(
        env,
        ep,
        "create_payout",
        "is restricted; a restricted account cannot pay out",
        merchant=r["id"],
        amount=5.0,
    )


def test_a_reissued_card_replaces_the_expired_one(pay):
    env, ep = pay
    old = one(
        ep,
        "SELECT pm.* FROM payment_methods pm JOIN customers c ON c.id = pm.customer_id WHERE pm.status = 'expired' "
        "AND c.deleted = 0 AND c.default_method_id = pm.id AND pm.brand != 'amex' ORDER BY pm.id",
    )
    other = one(
        ep, "SELECT id FROM payment_methods WHERE status = 'expired' AND customer_id != ?", old["customer_id"]
    )
    args = dict(customer=old["customer_id"], card_number=old["number"], exp_month=9, exp_year=2029, cvc="123")
    fails(
        env,
        ep,
        "attach_card",
        f"belongs to customer .*, not to {old['customer_id']}",
        replaces=other["id"],
        **args,
    )
    out = call(env, ep, "attach_card", replaces=old["id"], **args)
    assert out["default"] and out["replaced"] == old["id"] and out["last4"] == old["last4"]
    ch = changes(ep)
    assert ch[("payment_methods", old["id"], "status")]["new"] == "detached"
    assert ch[("customers", old["customer_id"], "default_method_id")]["new"] == out["id"]


def test_every_seeded_card_number_would_be_accepted(medium):
    from servers.domains.payments.customers import _brand, _luhn

    numbers = [r[0] for r in medium.execute("SELECT number FROM payment_methods WHERE kind = 'card'")]
    assert numbers and all(_luhn(n) and _brand(n) for n in numbers)
