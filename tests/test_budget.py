"""Budget's envelope rules: refused calls name the values involved and change nothing; successful
ones change exactly the rows they should (assignments, register lines, balances, the category
figures of this month, the append-only reconciliation log)."""

from __future__ import annotations

import pytest

from servers.domains.budget.rules import ledger
from servers.kit import Db
from servers.registry import get_domain
from tests.domain_helpers import DomainCalls, changes

DOMAIN = "budget"
calls = DomainCalls(DOMAIN)
call, fails, rows, one = calls.call, calls.fails, calls.rows, calls.one
DISCOVERY = {"list_records", "search_records", "get_unique_values"}
HOME = "BUD-000001"  # the persona's Household budget
CHECKING, CARD, SAVINGS, TRACKING = "ACC-000001", "ACC-000002", "ACC-000003", "ACC-000005"
MINE = "budget_id IN (SELECT budget_id FROM budget_members WHERE person_id = 0)"


@pytest.fixture
def bud(make_env):
    env = make_env("budget")
    return env, env.open()


def cat(ep, name: str, budget: str = HOME) -> dict:
    return one(ep, "SELECT * FROM categories WHERE budget_id = ? AND name = ?", budget, name)


def figures(ep, category: str, month: str) -> dict:
    c = one(ep, "SELECT budget_id FROM categories WHERE id = ?", category)
    with ep.fork(DOMAIN).reading() as conn:
        return ledger(Db(conn), c["budget_id"]).figures(category, month)


def room(ep, month: str) -> float:
    """What can still be assigned in ``month``: the lowest Ready to Assign from then on."""
    with ep.fork(DOMAIN).reading() as conn:
        led = ledger(Db(conn), HOME)
    return min(led.ready[m] for m in led.months if m >= month)


def tables(ep) -> set[str]:
    return {c["table"] for c in ep.diff()}


# -- the catalogue -------------------------------------------------------------------------------


def test_tools_have_two_ways_to_ask_and_true_annotations():
    domain = get_domain(DOMAIN)
    own = [t for name, t in domain.tools.items() if name not in DISCOVERY]
    assert len(own) >= 18
    assert all(len(spec.says) >= 2 for spec in own), [s.name for s in own if len(s.says) < 2]
    assert domain.append_only() == {"reconciliations": frozenset()}
    assert domain.tools["delete_transaction"].annotations()["destructiveHint"]
    assert domain.tools["assign_to_category"].annotations()["idempotentHint"]
    assert not domain.tools["move_money"].annotations()["idempotentHint"]
    split = domain.tools["split_transaction"].input_schema()["properties"]["categories"]
    assert split["type"] == "array" and split["minItems"] == 2


def test_sampler_pools_at_medium(medium):
    def count(sql: str) -> int:
        return medium.execute(sql).fetchone()[0]

    cats = f"SELECT count(*) FROM categories WHERE {MINE} AND internal = 0 AND hidden = 0"
    assert count(f"{cats} AND available >= 25") >= 1000
    assert count(f"{cats} AND available < 0") >= 100
    txns = f"SELECT count(*) FROM transactions WHERE {MINE} AND parent_id IS NULL"
    assert (
        count(
            f"{txns} AND (approved = 0 OR (category_id IS NULL AND is_split = 0 AND transfer_txn_id IS NULL))"
        )
        >= 600
    )
    assert count(f"{txns} AND cleared = 'reconciled'") >= 300
    assert count(f"SELECT count(*) FROM accounts WHERE {MINE} AND closed = 0") >= 150
    assert count("SELECT count(*) FROM budgets") >= 150
    assert count("SELECT count(*) FROM transactions") >= 30_000
    assert count("SELECT count(*) FROM assignments") >= 25_000
    assert count(f"SELECT count(*) FROM budgets WHERE NOT ({MINE.replace('budget_id', 'id', 1)})") > 0


def test_the_persona_budget_has_the_promised_problems(bud):
    env, ep = bud
    assert [b["id"] for b in call(env, ep, "list_budgets")["budgets"]][:2] == [HOME, "BUD-000002"]
    may = call(env, ep, "get_month_summary", budget=HOME, month="2026-05")
    assert len(may["overspent_categories"]) >= 3
    june = call(env, ep, "get_month_summary", budget=HOME, month="2026-06")
    assert june["underfunded_goals"] and june["overspent_last_month"] > 0
    assert june["ready_to_assign"] > 0
    unapproved = call(env, ep, "list_transactions", budget=HOME, unapproved=True, limit=100)
    assert unapproved["total"] >= 12
    # the seeded month figures are the ones the tools compute
    for c in rows(ep, "SELECT * FROM categories WHERE budget_id = ? AND internal = 0", HOME):
        assert figures(ep, c["id"], "2026-06") == {k: c[k] for k in ("assigned", "activity", "available")}


def test_payees_are_world_merchants(bud):
    from servers.kit import world

    env, ep = bud
    names = {m.name for m in world(0, "small").merchants} | {r.name for r in world(0, "small").restaurants}
    payees = [p["name"] for p in rows(ep, "SELECT name FROM payees WHERE budget_id = ?", HOME)]
    assert sum(p in names for p in payees) >= len(payees) * 0.8


def test_a_budget_not_shared_with_you_is_refused(bud):
    env, ep = bud
    other = one(ep, f"SELECT * FROM budgets WHERE NOT ({MINE.replace('budget_id', 'id', 1)}) ORDER BY id")
    msg = fails(env, ep, "list_accounts", "not shared with you", budget=other["id"])
    assert other["name"] in msg


# -- assigning and moving money --------------------------------------------------------------------


def test_assigning_sets_the_month_and_updates_this_months_figures(bud):
    env, ep = bud
    c = cat(ep, "Electric")
    before = figures(ep, c["id"], "2026-06")
    out = call(
        env, ep, "assign_to_category", category=c["id"], month="2026-06", amount=before["assigned"] + 40
    )
    assert out["available"] == round(before["available"] + 40, 2)
    ch = changes(ep)
    assert tables(ep) == {"assignments", "categories"}
    assert ch[("categories", c["id"], "available")]["new"] == out["available"]
    ready = cat(ep, "Ready to Assign")
    assert ch[("categories", ready["id"], "available")]["new"] == out["ready_to_assign"]


def test_assigning_more_than_ready_to_assign_is_refused_with_what_is_left(bud):
    env, ep = bud
    c = cat(ep, "Electric")
    ready = call(env, ep, "get_month_summary", budget=HOME, month="2026-06")["ready_to_assign"]
    left = room(ep, "2026-06")  # June's overspending comes out of July: it cannot be assigned too
    assert 0 < left < ready
    msg = fails(
        env,
        ep,
        "assign_to_category",
        "left to assign in June 2026",
        category=c["id"],
        month="2026-06",
        amount=c["assigned"] + left + 0.01,
    )
    assert f"only {left:,.2f} left" in msg and f"{ready:,.2f} is Ready to Assign" in msg
    out = call(env, ep, "assign_to_category", category=c["id"], month="2026-06", amount=c["assigned"] + left)
    assert room(ep, "2026-06") == 0 and out["ready_to_assign"] == round(ready - left, 2)


def test_assigning_outside_the_budgets_months_is_refused(bud):
    env, ep = bud
    c = cat(ep, "Electric")
    fails(
        env,
        ep,
        "assign_to_category",
        "from December 2025 to May 2027",
        category=c["id"],
        month="2027-06",
        amount=5,
    )
    fails(env, ep, "assign_to_category", "outside", category=c["id"], month="2025-11", amount=5)


def test_a_future_assignment_counts_against_this_months_ready_to_assign(bud):
    env, ep = bud
    c, books = cat(ep, "Vacation"), cat(ep, "Books")
    call(env, ep, "assign_to_category", category=c["id"], month="2026-09", amount=room(ep, "2026-06"))
    fails(
        env,
        ep,
        "assign_to_category",
        "only 0.00 left",
        category=books["id"],
        month="2026-06",
        amount=books["assigned"] + 1,
    )


def test_move_money_moves_between_envelopes(bud):
    env, ep = bud
    src, dst = cat(ep, "Electric"), cat(ep, "Internet")
    out = call(
        env, ep, "move_money", from_category=src["id"], to_category=dst["id"], month="2026-06", amount=20
    )
    assert out["from"]["available"] == round(src["available"] - 20, 2)
    assert out["to"]["available"] == round(dst["available"] + 20, 2)
    assert (
        one(ep, "SELECT available FROM categories WHERE id = ?", src["id"])["available"]
        == out["from"]["available"]
    )


def test_move_money_refusals(bud):
    env, ep = bud
    src, dst = cat(ep, "Electric"), cat(ep, "Internet")
    msg = fails(
        env,
        ep,
        "move_money",
        "only",
        from_category=src["id"],
        to_category=dst["id"],
        month="2026-06",
        amount=src["available"] + 1,
    )
    assert f"{src['available']:,.2f}" in msg
    other = one(ep, "SELECT * FROM categories WHERE budget_id = 'BUD-000002' AND internal = 0 ORDER BY id")
    fails(
        env,
        ep,
        "move_money",
        "within one budget",
        from_category=src["id"],
        to_category=other["id"],
        month="2026-06",
        amount=1,
    )
    fails(
        env,
        ep,
        "move_money",
        "pick two",
        from_category=src["id"],
        to_category=src["id"],
        month="2026-06",
        amount=1,
    )
    with ep.fork(DOMAIN).writing() as conn:
        conn.execute("UPDATE categories SET hidden = 1 WHERE id = ?", (dst["id"],))
    fails(
        env,
        ep,
        "move_money",
        "hidden and cannot receive",
        from_category=src["id"],
        to_category=dst["id"],
        month="2026-06",
        amount=1,
    )


def test_cover_overspending_moves_exactly_the_shortfall_from_ready_to_assign(bud):
    env, ep = bud
    over = one(ep, "SELECT * FROM categories WHERE budget_id = ? AND available < 0 ORDER BY id", HOME)
    ready = cat(ep, "Ready to Assign")
    out = call(env, ep, "cover_overspending", category=over["id"])
    assert out["amount"] == -over["available"] and out["to"]["available"] == 0
    assert out["ready_to_assign"] == round(ready["available"] + over["available"], 2)
    fails(env, ep, "cover_overspending", "not overspent", category=over["id"])


def test_last_months_overspending_comes_out_of_this_months_ready_to_assign(bud):
    env, ep = bud
    may = call(env, ep, "get_month_summary", budget=HOME, month="2026-05")
    june = call(env, ep, "get_month_summary", budget=HOME, month="2026-06")
    short = -sum(c["available"] for c in may["overspent_categories"])
    assert june["overspent_last_month"] == round(short, 2)
    c = may["overspent_categories"][0]
    call(env, ep, "cover_overspending", category=c["category"], month="2026-05")
    after = call(env, ep, "get_month_summary", budget=HOME, month="2026-06")
    assert after["overspent_last_month"] == round(short + c["available"], 2)
    assert after["ready_to_assign"] == june["ready_to_assign"]  # covered in May instead of June


# -- categories and goals --------------------------------------------------------------------------


def test_create_category_and_duplicate_names(bud):
    env, ep = bud
    group = one(ep, "SELECT * FROM category_groups WHERE budget_id = ? AND name = 'Bills'", HOME)
    out = call(env, ep, "create_category", group=group["id"], name="Pet Care")
    assert tables(ep) == {"categories"} and out["budget"] == HOME
    fails(
        env,
        ep,
        "create_category",
        "already has a category named Pet Care",
        group=group["id"],
        name="pet care",
    )
    inflow = one(ep, "SELECT * FROM category_groups WHERE budget_id = ? AND internal = 1", HOME)
    fails(env, ep, "create_category", "internal", group=inflow["id"], name="Bonus")


def test_goals_set_replace_clear(bud):
    env, ep = bud
    c = cat(ep, "Books")
    out = call(env, ep, "set_category_goal", category=c["id"], goal_kind="monthly", amount=50)
    assert out["goal"]["needed"] == 50 and out["goal"]["funded"] == c["assigned"]
    msg = fails(
        env,
        ep,
        "set_category_target_date",
        "not in the future",
        category=c["id"],
        amount=300,
        goal_month="2026-06",
    )
    assert "July 2026" in msg
    out = call(env, ep, "set_category_target_date", category=c["id"], amount=300, goal_month="2026-12")
    assert out["goal"]["kind"] == "target_by_month" and out["replaced"]["kind"] == "monthly"
    start = c["available"] - c["assigned"]
    assert out["goal"]["needed"] == round((300 - start) / 7, 2)
    call(env, ep, "clear_category_goal", category=c["id"])
    assert one(ep, "SELECT goal_kind FROM categories WHERE id = ?", c["id"])["goal_kind"] == "none"
    fails(env, ep, "clear_category_goal", "no goal", category=c["id"])


# -- the register ------------------------------------------------------------------------------


def test_add_transaction_uses_the_payees_usual_category_and_moves_balances(bud):
    env, ep = bud
    payee = one(
        ep, "SELECT * FROM payees WHERE budget_id = ? AND default_category_id IS NOT NULL ORDER BY id", HOME
    )
    acc = one(ep, "SELECT * FROM accounts WHERE id = ?", CHECKING)
    out = call(env, ep, "add_transaction", account=CHECKING, day="2026-06-01", payee=payee["id"], amount=12.5)
    t = out["transaction"]
    assert (
        t["amount"] == -12.5
        and t["category_id"] == payee["default_category_id"]
        and t["cleared"] == "uncleared"
    )
    assert out["account"]["uncleared_balance"] == round(acc["uncleared_balance"] - 12.5, 2)
    assert tables(ep) == {"transactions", "accounts", "categories"}
    assert changes(ep)[("categories", payee["default_category_id"], "activity")]["new"] == round(
        cat(ep, t["category"])["activity"], 2
    )


def test_inflows_go_to_ready_to_assign(bud):
    env, ep = bud
    payee = one(ep, "SELECT * FROM payees WHERE budget_id = ? ORDER BY id", HOME)  # the employer
    ready = cat(ep, "Ready to Assign")
    out = call(
        env,
        ep,
        "add_transaction",
        account=CHECKING,
        day="2026-06-01",
        payee=payee["id"],
        amount=100,
        direction="inflow",
        cleared="cleared",
    )
    assert out["transaction"]["category_id"] == ready["id"]
    assert cat(ep, "Ready to Assign")["available"] == round(ready["available"] + 100, 2)


def test_transaction_refusals(bud):
    env, ep = bud
    payee = one(
        ep, "SELECT * FROM payees WHERE budget_id = ? AND default_category_id IS NULL ORDER BY id", HOME
    )
    fails(
        env,
        ep,
        "add_transaction",
        "needs a category",
        account=CHECKING,
        day="2026-05-31",
        payee=payee["id"],
        amount=5,
    )
    fails(
        env,
        ep,
        "add_transaction",
        "use create_scheduled_transaction",
        account=CHECKING,
        day="2026-06-02",
        payee=payee["id"],
        amount=5,
        category=cat(ep, "Books")["id"],
    )
    fails(
        env,
        ep,
        "add_transaction",
        "tracking",
        account=TRACKING,
        day="2026-05-31",
        payee=payee["id"],
        amount=5,
        category=cat(ep, "Books")["id"],
    )
    other = one(ep, "SELECT * FROM payees WHERE budget_id = 'BUD-000002' ORDER BY id")
    fails(
        env,
        ep,
        "add_transaction",
        "payees are per budget",
        account=CHECKING,
        day="2026-05-31",
        payee=other["id"],
        amount=5,
    )
    with ep.fork(DOMAIN).writing() as conn:
        conn.execute("UPDATE accounts SET closed = 1 WHERE id = ?", (CARD,))
    fails(
        env, ep, "add_transaction", "is closed", account=CARD, day="2026-05-31", payee=payee["id"], amount=5
    )


def locked(ep) -> dict:
    return one(
        ep,
        "SELECT * FROM transactions WHERE account_id = ? AND cleared = 'reconciled' AND parent_id IS NULL "
        "AND transfer_txn_id IS NULL AND is_split = 0 ORDER BY id",
        CHECKING,
    )


def test_reconciled_transactions_are_locked(bud):
    env, ep = bud
    t = locked(ep)
    fails(env, ep, "update_transaction", "reconciled and locked: its amount", transaction=t["id"], amount=1)
    fails(
        env,
        ep,
        "update_transaction",
        "reconciled and locked: its cleared",
        transaction=t["id"],
        cleared="uncleared",
    )
    fails(env, ep, "delete_transaction", "cannot be deleted", transaction=t["id"])
    # a reconciled line may still be recategorized and annotated
    call(env, ep, "update_transaction", transaction=t["id"], memo="checked", category=cat(ep, "Books")["id"])
    assert tables(ep) == {"transactions", "categories"}


def fresh(env, ep, amount: float = 30.0) -> dict:
    payee = one(
        ep, "SELECT * FROM payees WHERE budget_id = ? AND default_category_id IS NOT NULL ORDER BY id", HOME
    )
    return call(
        env, ep, "add_transaction", account=CHECKING, day="2026-05-31", payee=payee["id"], amount=amount
    )["transaction"]


def test_update_amount_and_cleared_moves_the_balances(bud):
    env, ep = bud
    t = fresh(env, ep)
    acc = one(ep, "SELECT * FROM accounts WHERE id = ?", CHECKING)
    call(env, ep, "update_transaction", transaction=t["id"], amount=45, cleared="cleared")
    after = one(ep, "SELECT * FROM accounts WHERE id = ?", CHECKING)
    assert after["uncleared_balance"] == round(acc["uncleared_balance"] + 30, 2)
    assert after["cleared_balance"] == round(acc["cleared_balance"] - 45, 2)
    fails(env, ep, "update_transaction", "already has those values", transaction=t["id"], amount=45)
    fails(env, ep, "update_transaction", "nothing to change", transaction=t["id"])


def test_split_parts_add_up_exactly(bud):
    env, ep = bud
    t = fresh(env, ep, 12.5)
    a, b = cat(ep, "Books")["id"], cat(ep, "Hobbies")["id"]
    msg = fails(
        env,
        ep,
        "split_transaction",
        "add up to 12.49",
        transaction=t["id"],
        categories=[a, b],
        amounts=[6.0, 6.49],
    )
    assert "12.50" in msg and "0.01" in msg
    fails(
        env,
        ep,
        "split_transaction",
        "2 categories but 3 amounts",
        transaction=t["id"],
        categories=[a, b],
        amounts=[6.0, 6.0, 0.5],
    )
    other = one(ep, "SELECT id FROM categories WHERE budget_id = 'BUD-000002' AND internal = 0 ORDER BY id")[
        "id"
    ]
    fails(env, ep, "split_transaction", "same budget", transaction=t["id"], categories=[a, other])
    out = call(env, ep, "split_transaction", transaction=t["id"], categories=[a, b, cat(ep, "Gym")["id"]])
    parts = out["transaction"]["parts"]
    assert [p["amount"] for p in parts] == [-4.17, -4.17, -4.16] and out["transaction"]["category_id"] is None
    assert round(sum(p["amount"] for p in parts), 2) == -12.5
    fails(env, ep, "update_transaction", "is split", transaction=t["id"], category=a)
    call(env, ep, "split_transaction", transaction=t["id"], categories=[a, b], amounts=[10, 2.5])
    assert [
        r["amount"]
        for r in rows(ep, "SELECT amount FROM transactions WHERE parent_id = ? ORDER BY id", t["id"])
    ] == [-10, -2.5]
    part = one(ep, "SELECT id FROM transactions WHERE parent_id = ? ORDER BY id", t["id"])["id"]
    fails(env, ep, "delete_transaction", "one part of split", transaction=part)
    call(env, ep, "delete_transaction", transaction=t["id"])
    assert not rows(ep, "SELECT id FROM transactions WHERE id = ? OR parent_id = ?", t["id"], t["id"])


def test_transfers_pair_two_lines_and_only_leaving_the_budget_takes_a_category(bud):
    env, ep = bud
    out = call(
        env,
        ep,
        "transfer_between_accounts",
        from_account=CHECKING,
        to_account=SAVINGS,
        amount=100,
        day="2026-06-01",
    )
    o, i = out["outflow"], out["inflow"]
    assert o["transfer_txn_id"] == i["id"] and i["transfer_txn_id"] == o["id"] and o["category_id"] is None
    assert tables(ep) == {"transactions", "accounts"}
    fails(
        env,
        ep,
        "transfer_between_accounts",
        "takes no category",
        from_account=CHECKING,
        to_account=SAVINGS,
        amount=5,
        day="2026-06-01",
        category=cat(ep, "Books")["id"],
    )
    fails(
        env,
        ep,
        "transfer_between_accounts",
        "needs a category",
        from_account=CHECKING,
        to_account=TRACKING,
        amount=5,
        day="2026-06-01",
    )
    out = call(
        env,
        ep,
        "transfer_between_accounts",
        from_account=CHECKING,
        to_account=TRACKING,
        amount=5,
        day="2026-06-01",
        category=cat(ep, "Vacation")["id"],
    )
    assert out["outflow"]["category_id"] == cat(ep, "Vacation")["id"] and out["inflow"]["category_id"] is None
    call(env, ep, "delete_transaction", transaction=o["id"])
    assert not rows(ep, "SELECT id FROM transactions WHERE id IN (?, ?)", o["id"], i["id"])


def test_approve_transactions(bud):
    env, ep = bud
    waiting = [
        r["id"]
        for r in rows(
            ep,
            "SELECT id FROM transactions WHERE budget_id = ? AND approved = 0 "
            "AND parent_id IS NULL ORDER BY id LIMIT 3",
            HOME,
        )
    ]
    out = call(env, ep, "approve_transactions", transactions=waiting)
    assert out["count"] == 3 and {c["column"] for c in ep.diff()} == {"approved"}
    msg = fails(env, ep, "approve_transactions", "already approved", transactions=waiting[:1])
    assert waiting[0] in msg


# -- reconciling -------------------------------------------------------------------------------


def test_reconcile_refuses_a_mismatch_with_the_difference(bud):
    env, ep = bud
    acc = one(ep, "SELECT * FROM accounts WHERE id = ?", CARD)
    msg = fails(
        env,
        ep,
        "reconcile_account",
        "does not match",
        account=CARD,
        statement_balance=round(acc["cleared_balance"] - 23.17, 2),
    )
    assert "difference -23.17" in msg and f"{acc['cleared_balance']:,.2f}" in msg


def test_reconcile_locks_cleared_lines_and_appends_a_record(bud):
    env, ep = bud
    acc = one(ep, "SELECT * FROM accounts WHERE id = ?", CARD)
    cleared = rows(
        ep,
        "SELECT id FROM transactions WHERE account_id = ? AND cleared = 'cleared' AND parent_id IS NULL",
        CARD,
    )
    out = call(env, ep, "reconcile_account", account=CARD, statement_balance=acc["cleared_balance"])
    assert out["locked"] == len(cleared) > 0 and out["adjustment"] is None
    rec = one(ep, "SELECT * FROM reconciliations WHERE id = ?", out["reconciliation"])
    assert rec["statement_balance"] == acc["cleared_balance"]
    assert not rows(ep, "SELECT id FROM transactions WHERE account_id = ? AND cleared = 'cleared'", CARD)
    fails(env, ep, "update_transaction", "locked", transaction=cleared[0]["id"], amount=1)


def test_reconcile_with_an_adjustment(bud):
    env, ep = bud
    acc = one(ep, "SELECT * FROM accounts WHERE id = ?", SAVINGS)
    target = round(acc["cleared_balance"] + 23.17, 2)
    ready = cat(ep, "Ready to Assign")
    out = call(
        env, ep, "reconcile_account", account=SAVINGS, statement_balance=target, create_adjustment=True
    )
    adj = one(ep, "SELECT * FROM transactions WHERE id = ?", out["adjustment"]["transaction"])
    assert adj["amount"] == 23.17 and adj["cleared"] == "reconciled" and adj["category_id"] == ready["id"]
    assert out["balances"]["cleared_balance"] == target
    assert cat(ep, "Ready to Assign")["available"] == round(ready["available"] + 23.17, 2)


# -- scheduled and reports -----------------------------------------------------------------------


def test_scheduled_transactions_must_be_in_the_future(bud):
    env, ep = bud
    payee = one(
        ep, "SELECT * FROM payees WHERE budget_id = ? AND default_category_id IS NOT NULL ORDER BY id", HOME
    )
    fails(
        env,
        ep,
        "create_scheduled_transaction",
        "not in the future",
        account=CHECKING,
        payee=payee["id"],
        amount=20,
        frequency="monthly",
        first_day="2026-06-01",
    )
    out = call(
        env,
        ep,
        "create_scheduled_transaction",
        account=CHECKING,
        payee=payee["id"],
        amount=20,
        frequency="monthly",
        first_day="2026-06-15",
    )
    assert out["scheduled"]["amount"] == -20 and tables(ep) == {"scheduled"}


def test_spending_report_totals_match_the_register(bud):
    env, ep = bud
    out = call(env, ep, "get_spending_report", budget=HOME, month="2026-05", months=2, limit=100)
    want = one(
        ep,
        "SELECT round(-sum(amount), 2) AS s FROM transactions WHERE budget_id = ? AND amount < 0 "
        "AND transfer_txn_id IS NULL AND is_split = 0 AND day BETWEEN '2026-04-01' AND '2026-05-31'",
        HOME,
    )["s"]
    assert out["total_spent"] == want == round(sum(r["spent"] for r in out["rows"]), 2)
    assert out["start_month"] == "2026-04"
    by_payee = call(
        env, ep, "get_spending_report", budget=HOME, month="2026-05", months=2, group_by="payee", limit=100
    )
    assert by_payee["total_spent"] == want
