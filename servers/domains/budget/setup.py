"""Shaping the plan: new categories, goals, and the spending report."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from servers.domains.budget.model import Category, CategoryGroup, GroupBy, budget
from servers.domains.budget.plan import GoalMonth, OpenGroup, goal_progress
from servers.domains.budget.rules import (
    CategoryName,
    GoalCategory,
    MyBudget,
    MyCategory,
    budget_of,
    category_ledger,
    label,
    shift,
    this_month,
)
from servers.kit import Db, Money, Month, Offset, PageSize, ToolError


@budget.tool(
    writes=[Category],
    returns=Category,
    says=[
        "add a {name} category to {group}",
        "create a new category called {name} under {group}",
    ],
)
def create_category(db: Db, group: OpenGroup, name: CategoryName) -> dict:
    """Create a category in a category group (of the group's budget); names are unique within a budget."""
    g = db.get(CategoryGroup, group)
    b = budget_of(db, g["budget_id"])
    if g["internal"]:
        raise ToolError(f"the {g['name']} group is internal (it holds Ready to Assign); pick another group")
    if g["hidden"]:
        raise ToolError(f"the {g['name']} group is hidden; unhide it or pick another group")
    clash = db.one(
        "SELECT id, name FROM categories WHERE budget_id = ? AND lower(name) = lower(?)",
        b["id"],
        name.strip(),
    )
    if clash:
        raise ToolError(f"budget {b['name']} already has a category named {clash['name']} ({clash['id']})")
    row = db.insert(
        Category,
        budget_id=b["id"],
        group_id=g["id"],
        name=name.strip(),
        hidden=False,
        internal=False,
        goal_kind="none",
        goal_amount=None,
        goal_month=None,
        assigned=0.0,
        activity=0.0,
        available=0.0,
    )
    return {"category": row["id"], "name": row["name"], "group": g["name"], "budget": b["id"]}


def _goal(db: Db, category: str) -> dict:
    c = db.get(Category, category)
    budget_of(db, c["budget_id"])
    if c["internal"]:
        raise ToolError(f"{c['name']} holds unassigned money and cannot have a goal")
    return c


def _set_goal(db: Db, c: dict, kind: str, amount: float, due: str | None) -> dict:
    row = db.update(Category, c["id"], goal_kind=kind, goal_amount=amount, goal_month=due)
    now = this_month(db)
    before = None if c["goal_kind"] == "none" else {"kind": c["goal_kind"], "target": c["goal_amount"]}
    progress = goal_progress(row, category_ledger(db, c, now), now)
    return {"category": c["id"], "name": c["name"], "goal": progress, "replaced": before}


@budget.tool(
    writes=[Category],
    returns=Category,
    idempotent=True,
    says=[
        "set a {goal_kind} goal of {amount} on {category}",
        "I want {category} to have a {goal_kind} goal of {amount}",
    ],
)
def set_category_goal(
    db: Db, category: MyCategory, goal_kind: Literal["monthly", "target_balance"], amount: Money
) -> dict:
    """Set a category's goal (replacing any other): 'monthly' means assign the amount every month,
    'target_balance' means save up until the category holds the amount. For a target due by a
    month use set_category_target_date; clear_category_goal removes a goal."""
    c = _goal(db, category)
    return _set_goal(db, c, goal_kind, amount, None)


@budget.tool(
    writes=[Category],
    returns=Category,
    idempotent=True,
    says=[
        "I want to have {amount} saved in {category} by {goal_month}",
        "set a goal for {category}: {amount} by {goal_month}",
    ],
)
def set_category_target_date(db: Db, category: MyCategory, amount: Money, goal_month: GoalMonth) -> dict:
    """Set a 'target_by_month' goal: reach the amount in the category by a future month; progress
    says what is needed this month (what is still missing, spread over the months left)."""
    c = _goal(db, category)
    now = this_month(db)
    if goal_month <= now:
        raise ToolError(
            f"goal_month {label(goal_month)} is not in the future: it is {label(now)} now, so the "
            f"earliest due month is {label(shift(now, 1))}"
        )
    return _set_goal(db, c, "target_by_month", amount, goal_month)


@budget.tool(
    writes=[Category],
    destructive=True,
    says=["remove the goal from {category}", "I don't need a goal on {category} anymore"],
)
def clear_category_goal(db: Db, category: GoalCategory) -> dict:
    """Remove a category's goal."""
    c = _goal(db, category)
    if c["goal_kind"] == "none":
        raise ToolError(f"{c['name']} has no goal to remove")
    db.update(Category, c["id"], goal_kind="none", goal_amount=None, goal_month=None)
    return {
        "category": c["id"],
        "name": c["name"],
        "removed": {"kind": c["goal_kind"], "target": c["goal_amount"]},
    }


@budget.tool(
    says=[
        "how much did I spend by {group_by} in {budget} {month}?",
        "show the spending of {budget} by {group_by} over the last {months} months",
        "what did I spend in {budget} over the {months} months up to {month}?",
    ],
)
def get_spending_report(
    db: Db,
    budget: MyBudget,
    month: Month,
    months: Annotated[int, Field(ge=1, le=12, description="How many months, ending with month.")] = 1,
    group_by: GroupBy = "category",
    limit: PageSize = 20,
    offset: Offset = 0,
) -> dict:
    """Outflows (as positive totals) over the ``months`` months ending with ``month``, by category
    or by payee, largest first. Transfers between accounts are not spending; split parts count
    under their own categories."""
    b = budget_of(db, budget)
    start = shift(month, 1 - months)
    key = "t.category_id" if group_by == "category" else "t.payee_id"
    table = "categories" if group_by == "category" else "payees"
    where = (
        "t.budget_id = ? AND t.amount < 0 AND t.transfer_txn_id IS NULL AND t.is_split = 0 "
        "AND t.day >= ? AND t.day < ?"
    )
    span = (b["id"], f"{start}-01", f"{month}-32")
    sql = (
        f"SELECT {key} AS id, coalesce(x.name, 'Uncategorized') AS name, round(-sum(t.amount), 2) AS spent, "
        f"count(*) AS transactions FROM transactions t LEFT JOIN {table} x ON x.id = {key} "
        f"WHERE {where} GROUP BY 1, 2 ORDER BY spent DESC, name"
    )
    # a split parent is left out: its parts carry the categories and repeat its payee
    page = db.page(sql, *span, limit=limit, offset=offset, key="rows")
    total = db.scalar(
        f"SELECT round(-coalesce(sum(t.amount), 0), 2) FROM transactions t WHERE {where}", *span
    )
    page.update(budget=b["id"], start_month=start, end_month=month, group_by=group_by, total_spent=total)
    return page
