"""Banking's business rules: the failures really happen and successes change exactly the right rows."""

from __future__ import annotations

import pytest

from servers.kit import ToolError


@pytest.fixture
def bank(make_env):
    env = make_env("banking")
    return env, env.open()


def _open_funded(env, ep, minimum=100.0):
    rows = env.invoke(
        ep, "banking_list_records", {"table": "accounts", "field": "status", "value": "open", "limit": 100}
    )
    return [r for r in rows["rows"] if r["balance"] >= minimum]


def test_transfer_moves_money_and_writes_both_statements(bank):
    env, ep = bank
    src, dst = _open_funded(env, ep)[:2]
    t = env.invoke(ep, "banking_transfer", {"source": src["id"], "target": dst["id"], "amount": 12.34})
    changed = {(c["table"], c["pk"], c["column"]): c for c in ep.diff()}
    assert changed[("accounts", src["id"], "balance")]["new"] == round(src["balance"] - 12.34, 2)
    assert changed[("accounts", dst["id"], "balance")]["new"] == round(dst["balance"] + 12.34, 2)
    assert changed[("transfers", t["id"], "amount")]["new"] == 12.34
    assert {c["table"] for c in ep.diff()} == {"accounts", "transfers", "entries"}
    assert len({c["pk"] for c in ep.diff() if c["table"] == "entries"}) == 2


def test_insufficient_funds_is_explained_and_changes_nothing(bank):
    env, ep = bank
    src, dst = _open_funded(env, ep)[:2]
    before = ep.state_hash()
    with pytest.raises(ToolError, match="insufficient funds"):
        env.invoke(
            ep, "banking_transfer", {"source": src["id"], "target": dst["id"], "amount": src["balance"] + 1}
        )
    assert ep.state_hash() == before and ep.diff() == []


def test_frozen_account_cannot_send(bank):
    env, ep = bank
    src, dst = _open_funded(env, ep)[:2]
    env.invoke(ep, "banking_freeze_account", {"account": src["id"]})
    with pytest.raises(ToolError, match="frozen"):
        env.invoke(ep, "banking_transfer", {"source": src["id"], "target": dst["id"], "amount": 1})


def test_close_requires_zero_balance(bank):
    env, ep = bank
    acc = _open_funded(env, ep)[0]
    with pytest.raises(ToolError, match="still holds"):
        env.invoke(ep, "banking_close_account", {"account": acc["id"]})
    env.invoke(ep, "banking_withdraw", {"account": acc["id"], "amount": min(acc["balance"], 2500)})


def test_unblock_needs_the_right_pin(bank):
    env, ep = bank
    with ep.fork("banking").reading() as conn:
        card_id, pin = conn.execute("SELECT id, pin FROM cards WHERE status = 'blocked' LIMIT 1").fetchone()
    wrong = "0000" if pin != "0000" else "1111"
    with pytest.raises(ToolError, match="PIN"):
        env.invoke(ep, "banking_unblock_card", {"card": card_id, "pin": wrong})
    out = env.invoke(ep, "banking_unblock_card", {"card": card_id, "pin": pin})
    assert out["status"] == "active" and "pin" not in out
    assert [(c["table"], c["column"]) for c in ep.diff()] == [("cards", "status")]


def test_unknown_ids_and_bad_arguments_are_tool_errors(bank):
    env, ep = bank
    with pytest.raises(ToolError, match="does not exist"):
        env.invoke(ep, "banking_get_balance", {"account": "ACC-999999"})
    with pytest.raises(ToolError, match="unexpected argument"):
        env.invoke(ep, "banking_get_balance", {"account": "ACC-000001", "pin": "1"})
    with pytest.raises(ToolError, match="unknown tool"):
        env.invoke(ep, "banking_rob_vault", {})


def test_ledger_stays_consistent_after_money_moves(bank):
    env, ep = bank
    src, dst = _open_funded(env, ep)[:2]
    env.invoke(ep, "banking_transfer", {"source": src["id"], "target": dst["id"], "amount": 5})
    env.invoke(ep, "banking_deposit", {"account": dst["id"], "amount": 7.25})
    assert env.invoke(ep, "banking_audit_ledger", {}, include_hidden=True) == {"mismatches": []}
    with pytest.raises(ToolError, match="unknown tool"):
        env.invoke(ep, "banking_audit_ledger", {})  # hidden from agents
    assert "banking_audit_ledger" not in {t["function"]["name"] for t in env.openai_tools()}


def test_customers_are_world_people_and_the_persona_is_cus_000001(bank):
    from servers.kit.world import world

    env, ep = bank
    w = world(0, "small")
    me = env.invoke(ep, "banking_get_customer", {"customer": "CUS-000001"})
    p = w.persona
    assert (me["name"], me["email"], me["phone"], me["city"], me["verified"]) == (
        p.name,
        p.email,
        p.phone,
        p.city,
        True,
    )
    assert env.invoke(ep, "banking_find_customer_by_email", {"email": p.email.upper()})["id"] == "CUS-000001"
    mine = env.invoke(ep, "banking_list_accounts", {"customer": "CUS-000001"})["accounts"]
    assert {(a["kind"], a["status"]) for a in mine} == {("checking", "open"), ("savings", "open")}
    with ep.fork("banking").reading() as conn:
        customers = conn.execute("SELECT id, name, email FROM customers ORDER BY id").fetchall()
        payees = {r[0] for r in conn.execute("SELECT name FROM payees")}
        spent_at = {r[0] for r in conn.execute("SELECT description FROM entries WHERE kind = 'card'")}
    assert [(n, e) for _, n, e in customers] == [(q.name, q.email) for q in w.pick_people(len(customers))]
    known = {q.name for q in w.people} | {c.name for c in w.companies}
    assert payees <= known and w.persona.name in payees  # friends of the persona saved them as a payee
    assert spent_at and spent_at <= {m.name for m in w.merchants}
