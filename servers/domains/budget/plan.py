"""The plan: budgets, month summaries, categories and their goals, assigning and moving money,
covering overspending, and the spending report."""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, Field

from servers.domains.budget.model import (
    READY,
    Assignment,
    Budget,
    Category,
    CategoryGroup,
    budget,
)
from servers.domains.budget.rules import (
    SPEND,
    FundedCategory,
    Ledger,
    MyBudget,
    MyCategory,
    budget_of,
    category_of,
    check_month,
    label,
    ledger,
    m2,
    mine,
    months,
    paged,
    refresh,
    shift,
    this_month,
)
from servers.kit import Db, Money, Month, Offset, PageSize, Ref, ToolError, whole_cents

Assigned = Annotated[
    float,
    Field(ge=0, le=1_000_000, description="Amount in dollars, 0 or more, e.g. 250.00."),
    AfterValidator(whole_cents),
]
ThisMonth = Annotated[Month, Field(examples=["2026-06", "2026-06", "2026-06", "2026-07"])]
GoalMonth = Annotated[
    Month,
    Field(description="The month the target is due, YYYY-MM.", examples=["2026-09", "2026-12", "2027-03"]),
]
CoverMonth = Annotated[Month, Field(examples=["2026-06"])]
OverspentCategory = Ref[Category, f"{SPEND} AND available < 0"]
OpenGroup = Ref[CategoryGroup, f"{mine('budget_id')} AND internal = 0 AND hidden = 0"]


def goal_progress(c: dict, led: Ledger, month: str) -> dict | None:
    """Funded / needed this month for a category's goal (None without a goal)."""
    kind, target = c["goal_kind"], c["goal_amount"]
    if kind == "none" or target is None:
        return None
    f = led.figures(c["id"], month)
    if kind == "monthly":
        funded, needed = f["assigned"], target
    elif kind == "target_balance":
        funded, needed = f["available"], target
    else:
        left = max(len(months(month, c["goal_month"])), 1)
        start = f["available"] - f["assigned"]
        funded, needed = f["assigned"], max(round((target - start) / left, 2), 0.0)
        if month > c["goal_month"]:
            needed = 0.0
    short = round(max(needed - funded, 0.0), 2)
    out = {"kind": kind, "target": target, "funded": round(funded, 2), "needed": round(needed, 2)}
    out.update(underfunded=short, complete=short == 0)
    if kind == "target_by_month":
        out["due"] = c["goal_month"]
    return out


def _row(c: dict, led: Ledger, month: str) -> dict:
    out = {"id": c["id"], "name": c["name"], "group": c["group_name"]}
    out.update(led.figures(c["id"], month))
    if c["hidden"]:
        out["hidden"] = True
    goal = goal_progress(c, led, month)
    if goal:
        out["goal"] = goal
    return out


CATS_COLUMNS = "c.*, g.name AS group_name"
CATS_BODY = (
    "FROM categories c JOIN category_groups g ON g.id = c.group_id WHERE c.budget_id = ? AND c.internal = 0"
)
CATS_SQL = f"SELECT {CATS_COLUMNS} {CATS_BODY}"


@budget.tool(returns=Budget, says=["which budgets do I have?", "show me my budgets"])
def list_budgets(db: Db) -> dict:
    """The budgets you own or that were shared with you, with your role in each (owner or
    collaborator); all budgets are in USD and start in December 2025."""
    rows = db.all(
        "SELECT b.id, b.name, m.role FROM budgets b "
        "JOIN budget_members m ON m.budget_id = b.id AND m.person_id = (SELECT person_id FROM sessions) "
        "ORDER BY m.role DESC, b.id"
    )
    return {"budgets": rows, "total": len(rows)}


@budget.tool(
    returns=Budget,
    says=[
        "how is {budget} doing in {month}?",
        "give me the {month} summary for {budget}",
        "how much is left to assign in {budget} for {month}?",
    ],
)
def get_month_summary(db: Db, budget: MyBudget, month: Month) -> dict:
    """A month of a budget: income, assigned, activity, Ready to Assign, overspending (this month's
    and what last month's took from Ready to Assign) and goals still underfunded."""
    b = budget_of(db, budget)
    check_month(db, b, month)
    led = ledger(db, budget, month)
    cats = db.all(CATS_SQL + " ORDER BY c.id", budget)
    over = [
        {"category": c["id"], "name": c["name"], "available": led.figures(c["id"], month)["available"]}
        for c in cats
        if led.figures(c["id"], month)["available"] < 0
    ]
    short = [
        {"category": c["id"], "name": c["name"], "underfunded": g["underfunded"]}
        for c in cats
        if (g := goal_progress(c, led, month)) and g["underfunded"] > 0
    ]
    prev = shift(month, -1)
    return {
        "id": b["id"],
        "name": b["name"],
        "month": month,
        "income": led.income.get(month, 0.0),
        "assigned": round(sum(led.assigned.get((c["id"], month), 0.0) for c in cats), 2),
        "activity": round(sum(led.activity.get((c["id"], month), 0.0) for c in cats), 2),
        "ready_to_assign": led.ready[month],
        "overspent_last_month": led.overspent.get(prev, 0.0) if prev >= b["first_month"] else 0.0,
        "overspent_categories": over,
        "underfunded_goals": short,
    }


@budget.tool(
    returns=Category,
    says=[
        "list the categories of {budget} for {month}",
        "what's available in each category of {budget} in {month}?",
    ],
)
def list_categories(
    db: Db, budget: MyBudget, month: Month | None = None, limit: PageSize = 20, offset: Offset = 0
) -> dict:
    """Categories of a budget for a month (default: this month): assigned, activity, available and
    goal progress."""
    month = month or this_month(db)
    b = budget_of(db, budget)
    check_month(db, b, month)
    led = ledger(db, budget, month)
    page = paged(
        db,
        CATS_COLUMNS,
        CATS_BODY,
        (budget,),
        "c.group_id, c.id",
        limit=limit,
        offset=offset,
        key="categories",
    )
    page["categories"] = [_row(c, led, month) for c in page["categories"]]
    page.update(month=month, ready_to_assign=led.ready[month])
    return page


def _set_assigned(db: Db, category_id: str, month: str, amount: float) -> None:
    row = db.one("SELECT id FROM assignments WHERE category_id = ? AND month = ?", category_id, month)
    if row:
        db.update(Assignment, row["id"], assigned=round(amount, 2))
    else:
        db.add(Assignment, category_id=category_id, month=month, assigned=round(amount, 2))


def _room(led: Ledger, month: str) -> float:
    """What can still be assigned in ``month`` without any later month's Ready to Assign going negative."""
    return round(min(led.ready[m] for m in led.months if m >= month), 2)


@budget.tool(
    returns=CategoryGroup,
    says=["what category groups does {budget} have?", "list the category groups in {budget}"],
)
def list_category_groups(db: Db, budget: MyBudget) -> dict:
    """A budget's category groups with how many categories each holds (Inflow is internal)."""
    budget_of(db, budget)
    rows = db.all(
        "SELECT g.id, g.name, g.hidden, g.internal, (SELECT count(*) FROM categories c WHERE c.group_id = g.id) "
        "AS categories FROM category_groups g WHERE g.budget_id = ? ORDER BY g.id",
        budget,
    )
    return {"groups": rows, "total": len(rows)}


@budget.tool(
    writes=[Assignment, Category],
    returns=Category,
    idempotent=True,
    says=[
        "assign {amount} to {category} for {month}",
        "budget {amount} for {category} in {month}",
        "set the envelope {category} to {amount} for {month}",
    ],
)
def assign_to_category(db: Db, category: MyCategory, month: ThisMonth, amount: Assigned) -> dict:
    """Set the amount assigned to a category in a month (from the budget's first month to 11 months
    ahead). Raising it takes money from Ready to Assign, which may not go below zero."""
    c = category_of(db, category)
    b = budget_of(db, c["budget_id"])
    if c["internal"]:
        raise ToolError(f"{READY} is where unassigned money waits; assign from it to a spending category")
    check_month(db, b, month)
    led = ledger(db, b["id"])
    old = led.assigned.get((c["id"], month), 0.0)
    if amount > old and c["hidden"]:
        raise ToolError(
            f"category {c['id']} ({c['name']}) is hidden and cannot receive money; unhide it first"
        )
    room = _room(led, month)
    if amount - old > room + 0.004:
        why = ""
        if room < led.ready[month] - 0.004:
            why = (
                f" ({m2(led.ready[month])} is Ready to Assign, but {m2(led.ready[month] - room)} of it must stay "
                "to cover this month's overspending or later months' assignments)"
            )
        raise ToolError(
            f"cannot assign {m2(amount)} to {c['name']} in {label(month)}: it has {m2(old)} assigned and "
            f"only {m2(max(room, 0))} left to assign in {label(month)}{why}, so at most {m2(old + max(room, 0))}"
        )
    _set_assigned(db, c["id"], month, amount)
    led = refresh(db, b["id"], full=True)
    out = {"category": c["id"], "name": c["name"], "month": month, "previously_assigned": round(old, 2)}
    out.update(led.figures(c["id"], month))
    out["ready_to_assign"] = led.ready[month]
    return out


def _move(db: Db, led: Ledger, src: dict, dst: dict, month: str, amount: float) -> dict:
    """Take ``amount`` of src's assignment in ``month`` and give it to dst (checks done by callers)."""
    for c, delta in ((src, -amount), (dst, amount)):
        if not c["internal"]:
            _set_assigned(db, c["id"], month, led.assigned.get((c["id"], month), 0.0) + delta)
    led = refresh(db, src["budget_id"], full=True)
    return {
        "month": month,
        "amount": amount,
        "from": {"category": src["id"], "name": src["name"], **_avail(led, src, month)},
        "to": {"category": dst["id"], "name": dst["name"], **_avail(led, dst, month)},
        "ready_to_assign": led.ready[month],
    }


def _avail(led: Ledger, c: dict, month: str) -> dict:
    if c["internal"]:
        return {"available": led.ready[month]}
    return {"available": led.figures(c["id"], month)["available"]}


def _available(led: Ledger, c: dict, month: str) -> float:
    return _room(led, month) if c["internal"] else led.figures(c["id"], month)["available"]


@budget.tool(
    writes=[Assignment, Category],
    returns=Category,
    says=[
        "move {amount} from {from_category} to {to_category} in {month}",
        "take {amount} out of {from_category} and put it in {to_category} for {month}",
    ],
)
def move_money(
    db: Db, from_category: FundedCategory, to_category: MyCategory, month: ThisMonth, amount: Money
) -> dict:
    """Move available money from one category to another in the same budget and month. Either side
    may be Ready to Assign; a hidden category cannot receive money."""
    src, dst = category_of(db, from_category), category_of(db, to_category)
    if src["id"] == dst["id"]:
        raise ToolError(f"from_category and to_category are both {src['id']} ({src['name']}); pick two")
    if dst["budget_id"] != src["budget_id"]:
        raise ToolError(
            f"{src['name']} ({src['id']}) is in budget {src['budget_id']} but {dst['name']} ({dst['id']}) is "
            f"in {dst['budget_id']}: money moves only within one budget"
        )
    check_month(db, budget_of(db, src["budget_id"]), month)
    if dst["hidden"]:
        raise ToolError(
            f"category {dst['id']} ({dst['name']}) is hidden and cannot receive money; unhide it first"
        )
    led = ledger(db, src["budget_id"])
    have = _available(led, src, month)
    if amount > have + 0.004:
        raise ToolError(
            f"cannot move {m2(amount)} from {src['name']}: only {m2(max(have, 0))} is available there in "
            f"{label(month)}"
        )
    return _move(db, led, src, dst, month, amount)


@budget.tool(
    writes=[Assignment, Category],
    returns=Category,
    says=[
        "cover the overspending in {category} for {month}",
        "I overspent on {category} in {month}, cover it from {from_category}",
        "fix the overspending in {category}",
    ],
)
def cover_overspending(
    db: Db,
    category: OverspentCategory,
    month: ThisMonth | None = None,
    from_category: MyCategory | None = None,
) -> dict:
    """Move exactly the overspent amount into a category whose available is negative, from another
    category or (by default) from Ready to Assign. Uncovered overspending is taken from next
    month's Ready to Assign. The month defaults to the current one."""
    month = month or this_month(db)
    c = category_of(db, category)
    check_month(db, budget_of(db, c["budget_id"]), month)
    led = ledger(db, c["budget_id"])
    short = -led.figures(c["id"], month)["available"]
    if short <= 0:
        raise ToolError(
            f"{c['name']} is not overspent in {label(month)}: it has {m2(-short)} available; nothing to cover"
        )
    src = category_of(db, from_category, c["budget_id"]) if from_category else None
    if src is None:
        src = db.get(
            Category,
            db.scalar("SELECT id FROM categories WHERE budget_id = ? AND internal = 1", c["budget_id"]),
        )
    if src["id"] == c["id"]:
        raise ToolError(f"cannot cover {c['name']} from itself; pick another category or Ready to Assign")
    have = _available(led, src, month)
    if short > have + 0.004:
        raise ToolError(
            f"cannot cover {m2(short)} of overspending in {c['name']} from {src['name']}: only "
            f"{m2(max(have, 0))} is available there in {label(month)}"
        )
    return _move(db, led, src, c, month, round(short, 2))
