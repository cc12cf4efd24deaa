"""What several budgeting tools share: access to a budget, the envelope arithmetic (assigned,
activity, available, Ready to Assign), account balances, and the sampler's SQL conditions."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Annotated

from pydantic import Field

from servers.domains.budget.model import (
    AHEAD_MONTHS,
    Account,
    Budget,
    Category,
    Payee,
    Transaction,
)
from servers.kit import Db, Ref, ToolError

# -- months ------------------------------------------------------------------------------------

MONTH_NAMES = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]


def month_of(day: str) -> str:
    return day[:7]


def shift(month: str, n: int) -> str:
    """The month ``n`` months after ``month`` (before, when negative)."""
    y, m = int(month[:4]), int(month[5:7]) - 1 + n
    return f"{y + m // 12:04d}-{m % 12 + 1:02d}"


def months(first: str, last: str) -> list[str]:
    out, m = [], first
    while m <= last:
        out.append(m)
        m = shift(m, 1)
    return out


def label(month: str) -> str:
    """'2026-06' -> 'June 2026', the way errors and summaries name a month."""
    return f"{MONTH_NAMES[int(month[5:7]) - 1]} {month[:4]}"


def this_month(db: Db) -> str:
    return db.today.isoformat()[:7]


def m2(x: float) -> str:
    return f"{x:,.2f}"


# -- who may see what -----------------------------------------------------------------------------

ME = "(SELECT person_id FROM sessions)"


def mine(column: str) -> str:
    """SQL: the budget ``column`` names is one the signed-in person owns or was given access to.

    likely() changes no result: it tells SQLite's planner, which has no statistics, that this holds
    for most rows, so a pick near the story (the payees of one budget, one account's lines) reads
    that budget's rows instead of the rows of every budget the person may open."""
    return f"likely({column} IN (SELECT budget_id FROM budget_members WHERE person_id = {ME}))"


def budget_of(db: Db, budget_id: str) -> dict:
    """The budget, if the signed-in person may open it."""
    b = db.get(Budget, budget_id)
    ok = db.scalar(
        "SELECT 1 FROM budget_members WHERE budget_id = ? AND person_id = ?", budget_id, db.actor_id()
    )
    if not ok:
        raise ToolError(
            f"budget {budget_id} ({b['name']}, owned by {b['owner_name']}) is not shared with you; "
            "list_budgets shows the budgets you can open"
        )
    return b


def account_of(db: Db, account_id: str, *, open_only: bool = True) -> dict:
    a = db.get(Account, account_id)
    budget_of(db, a["budget_id"])
    if open_only and a["closed"]:
        raise ToolError(f"account {account_id} ({a['name']}) is closed and takes no new transactions")
    return a


def category_of(db: Db, category_id: str, budget_id: str | None = None) -> dict:
    c = db.get(Category, category_id)
    b = budget_of(db, c["budget_id"])
    if budget_id is not None and c["budget_id"] != budget_id:
        raise ToolError(
            f"category {category_id} ({c['name']}) belongs to budget {c['budget_id']} ({b['name']}), "
            f"not to {budget_id}; pick a category of the same budget"
        )
    return c


def payee_of(db: Db, payee_id: str, budget_id: str) -> dict:
    p = db.get(Payee, payee_id)
    if p["budget_id"] != budget_id:
        raise ToolError(
            f"payee {payee_id} ({p['name']}) belongs to budget {p['budget_id']}, not to {budget_id}; "
            "payees are per budget"
        )
    return p


def txn_of(db: Db, txn_id: str) -> dict:
    t = db.get(Transaction, txn_id)
    budget_of(db, t["budget_id"])
    return t


def ready_category(db: Db, budget_id: str) -> str:
    return db.scalar("SELECT id FROM categories WHERE budget_id = ? AND internal = 1", budget_id)


def check_day(db: Db, day: str) -> None:
    if date.fromisoformat(day) > db.today:
        raise ToolError(
            f"{day} is in the future (today is {db.today.isoformat()}); use "
            "create_scheduled_transaction for a transaction that has not happened yet"
        )


# -- balances ----------------------------------------------------------------------------------


def post(db: Db, account: dict, amount: float, cleared: str) -> None:
    """Add ``amount`` to the account's cleared or uncleared balance (negative to take it back)."""
    col = "uncleared_balance" if cleared == "uncleared" else "cleared_balance"
    db.execute(f"UPDATE accounts SET {col} = round({col} + ?, 2) WHERE id = ?", amount, account["id"])


def balances(a: dict) -> dict:
    return {
        "cleared_balance": round(a["cleared_balance"], 2),
        "uncleared_balance": round(a["uncleared_balance"], 2),
        "working_balance": round(a["cleared_balance"] + a["uncleared_balance"], 2),
    }


# -- the envelope arithmetic -------------------------------------------------------------------


@dataclass
class Ledger:
    """One budget's months: per category assigned / activity / available, and Ready to Assign.

    available(c, m) = max(available(c, m-1), 0) + assigned(c, m) + activity(c, m); a month's
    overspending (negative available) is taken from the next month's Ready to Assign."""

    months: list[str]
    ready_id: str
    assigned: dict[tuple[str, str], float] = field(default_factory=dict)
    activity: dict[tuple[str, str], float] = field(default_factory=dict)
    cents: dict[str, list[int]] = field(default_factory=dict)  # category -> available by month, in cents
    income: dict[str, float] = field(default_factory=dict)
    overspent: dict[str, float] = field(default_factory=dict)
    ready: dict[str, float] = field(default_factory=dict)
    categories: list[str] = field(default_factory=list)
    index: dict[str, int] = field(default_factory=dict)

    def figures(self, cat: str, month: str) -> dict:
        k = (cat, month)
        i = self.index.get(month)
        avail = self.cents[cat][i] / 100 if i is not None and cat in self.cents else 0.0
        return {
            "assigned": round(self.assigned.get(k, 0.0), 2),
            "activity": round(self.activity.get(k, 0.0), 2),
            "available": avail,
        }


def compute(
    months_: list[str],
    ready_id: str,
    cats: list[str],
    assigned: dict[tuple[str, str], float],
    activity: dict[tuple[str, str], float],
) -> Ledger:
    """The ledger from raw assignments and activity (shared by the seed and the tools), in whole
    cents so that sums are exact."""
    index = {m: i for i, m in enumerate(months_)}
    n = len(months_)
    grid = {c: [0] * n for c in cats}
    spent, income = [0] * n, [0] * n
    for (c, m), v in assigned.items():
        i = index.get(m)
        if i is not None and c in grid:
            grid[c][i] += round(v * 100)
            spent[i] += round(v * 100)
    for (c, m), v in activity.items():
        i = index.get(m)
        if i is None:
            continue
        if c == ready_id:
            income[i] += round(v * 100)
        elif c in grid:
            grid[c][i] += round(v * 100)
    over = [0] * n
    for c in cats:
        row, prev = grid[c], 0
        for i in range(n):
            prev = row[i] = (prev if prev > 0 else 0) + row[i]
            if prev < 0:
                over[i] += prev
    led = Ledger(months_, ready_id, assigned, activity, grid, categories=cats, index=index)
    ready, carried = 0, 0
    for i, m in enumerate(months_):
        ready += income[i] - spent[i] - carried
        carried = -over[i]
        led.income[m], led.overspent[m], led.ready[m] = income[i] / 100, -over[i] / 100, ready / 100
    return led


def ledger(db: Db, budget_id: str, through: str | None = None) -> Ledger:
    """A budget's ledger from its first month through ``through`` (default: the current month +
    11, the last month money may be assigned in, whose Ready to Assign limits assigning)."""
    return _ledger(db, budget_id, through or shift(this_month(db), AHEAD_MONTHS))


def category_ledger(db: Db, category: dict, through: str) -> Ledger:
    """The ledger of one spending category alone, through month ``through``: its figures are those
    of the whole budget's ledger (a category's available depends on its own months only), read
    without every other category's assignments and activity. Ready to Assign is not the budget's."""
    return _ledger(db, category["budget_id"], through, category["id"])


def _ledger(db: Db, budget_id: str, last: str, only: str | None = None) -> Ledger:
    conn = db.conn
    first = db.scalar("SELECT first_month FROM budgets WHERE id = ?", budget_id)
    one, arg = ("", ()) if only is None else (" AND {} = ?", (only,))
    cats = [
        r[0]
        for r in conn.execute(
            f"SELECT id FROM categories WHERE budget_id = ? AND internal = 0{one.format('id')} ORDER BY id",
            (budget_id, *arg),
        )
    ]
    assigned = {
        (r[0], r[1]): r[2]
        for r in conn.execute(
            "SELECT a.category_id, a.month, a.assigned FROM assignments a "
            f"JOIN categories c ON c.id = a.category_id WHERE c.budget_id = ? AND a.month <= ?{one.format('c.id')}",
            (budget_id, last, *arg),
        )
    }
    activity = {
        (r[0], r[1]): r[2]
        for r in conn.execute(
            "SELECT category_id, substr(day, 1, 7) AS m, sum(amount) AS total FROM transactions "
            f"WHERE budget_id = ? AND category_id IS NOT NULL AND is_split = 0{one.format('category_id')} "
            "GROUP BY 1, 2",
            (budget_id, *arg),
        )
    }
    return compute(months(first, last), ready_category(db, budget_id), cats, assigned, activity)


def refresh(db: Db, budget_id: str, *, full: bool = False) -> Ledger:
    """Bring the categories' current-month figures up to date after a change; returns the ledger
    (through the last month money may be assigned in when ``full``, else through this month)."""
    now = this_month(db)
    led = ledger(db, budget_id, None if full else now)
    rows = db.all(
        "SELECT id, internal, assigned, activity, available FROM categories WHERE budget_id = ?", budget_id
    )
    for r in rows:
        if r["internal"]:
            want = {"assigned": 0.0, "activity": led.income.get(now, 0.0), "available": led.ready[now]}
        else:
            want = led.figures(r["id"], now)
        if any(abs(r[k] - v) > 0.004 for k, v in want.items()):
            db.execute(
                "UPDATE categories SET assigned = ?, activity = ?, available = ? WHERE id = ?",
                want["assigned"],
                want["activity"],
                want["available"],
                r["id"],
            )
    return led


def paged(
    db: Db, columns: str, body: str, params: tuple | list, order: str, *, limit: int, offset: int, key: str
) -> dict:
    """``db.page`` over ``SELECT columns body ORDER BY order``, counted over ``body`` alone when a
    count is needed (most lists of one budget fit one page and need none)."""
    sql = f"SELECT {columns} {body} ORDER BY {order}"
    return db.page(sql, *params, limit=limit, offset=offset, key=key, count=f"SELECT count(*) {body}")


def check_month(db: Db, b: dict, month: str) -> None:
    last = shift(this_month(db), AHEAD_MONTHS)
    if month < b["first_month"] or month > last:
        raise ToolError(
            f"{label(month)} is outside budget {b['id']} ({b['name']}): months run from "
            f"{label(b['first_month'])} to {label(last)}"
        )


# -- Ref conditions: the sampler's picks -------------------------------------------------------

OPEN = f"{mine('budget_id')} AND closed = 0"
ON_BUDGET = f"{OPEN} AND on_budget = 1"
SPEND = f"{mine('budget_id')} AND internal = 0 AND hidden = 0"
# recent top-level lines (May and June): what people correct, read from their own partial index
# (model.Transaction)
RECENT = f"day >= '2026-05-01' AND parent_id IS NULL AND {mine('budget_id')}"
EDITABLE = f"{RECENT} AND cleared != 'reconciled'"

MyBudget = Ref[Budget, mine("budgets.id")]
MyAccount = Ref[Account, mine("budget_id")]
OpenAccount = Ref[Account, OPEN]
OnBudgetAccount = Ref[Account, ON_BUDGET]
MyCategory = Ref[Category, SPEND]
FundedCategory = Ref[Category, f"{SPEND} AND available >= 25"]
GoalCategory = Ref[Category, f"{SPEND} AND goal_kind != 'none'"]
MyPayee = Ref[Payee, mine("budget_id")]
UsualPayee = Ref[Payee, f"{mine('budget_id')} AND default_category_id IS NOT NULL"]
EditableTxn = Ref[Transaction, f"{EDITABLE} AND transfer_txn_id IS NULL AND is_split = 0"]
SplittableTxn = Ref[
    Transaction,
    f"{EDITABLE} AND transfer_txn_id IS NULL AND is_split = 0 AND amount <= -20 AND category_id IS NOT NULL",
]
DeletableTxn = Ref[Transaction, f"{EDITABLE} AND transfer_txn_id IS NULL"]

Memo = Annotated[
    str,
    Field(
        min_length=1,
        max_length=200,
        examples=["birthday dinner", "split with roommate", "work lunch - expense it", "refund pending"],
    ),
]
CategoryName = Annotated[
    str,
    Field(
        min_length=1,
        max_length=60,
        examples=["Pet Care", "Gifts", "Home Repairs", "Vacation Fund", "Kids' Activities", "Car Insurance"],
    ),
]
