"""Reshaping the register: splits, deletes, transfers between accounts and approvals."""

from __future__ import annotations

from servers.domains.budget.model import Account, Category, Transaction, budget
from servers.domains.budget.register import Parts, PastDay, SplitCategories, UnapprovedTxns, _shown
from servers.domains.budget.rules import (
    DeletableTxn,
    Memo,
    MyCategory,
    OpenAccount,
    SplittableTxn,
    account_of,
    balances,
    category_of,
    check_day,
    m2,
    post,
    ready_category,
    refresh,
    txn_of,
)
from servers.kit import Db, Money, ToolError


def _parts(t: dict, n: int, amounts: list[float] | None) -> list[float]:
    """Signed part amounts that add up to the transaction exactly, to the cent."""
    cents = round(abs(t["amount"]) * 100)
    if amounts is None:
        base, extra = divmod(cents, n)
        parts = [base + (1 if i < extra else 0) for i in range(n)]
    else:
        if len(amounts) != n:
            raise ToolError(f"{n} categories but {len(amounts)} amounts: give one amount per category")
        parts = [round(x * 100) for x in amounts]
        if sum(parts) != cents:
            raise ToolError(
                f"the parts add up to {m2(sum(parts) / 100)} but transaction {t['id']} is {m2(cents / 100)} "
                f"(off by {m2(abs(sum(parts) - cents) / 100)}); the parts must add up exactly"
            )
    sign = -1 if t["amount"] < 0 else 1
    return [sign * p / 100 for p in parts]


@budget.tool(
    writes=[Transaction, Category],
    returns=Transaction,
    says=[
        "split {transaction} between {categories}",
        "divide {transaction} evenly across {categories}",
    ],
)
def split_transaction(
    db: Db, transaction: SplittableTxn, categories: SplitCategories, amounts: Parts | None = None
) -> dict:
    """Split a transaction into parts, one per category (at least two). Give the part amounts in
    the order of the categories (they must add up to the transaction exactly), or omit them to
    split evenly (leftover cents go to the first parts). A split's categories can be re-split."""
    t = txn_of(db, transaction)
    if t["parent_id"]:
        raise ToolError(
            f"transaction {t['id']} is already a part of split {t['parent_id']}; split the parent"
        )
    if t["transfer_txn_id"]:
        raise ToolError(f"transaction {t['id']} is a transfer between accounts; transfers cannot be split")
    a = db.get(Account, t["account_id"])
    if not a["on_budget"]:
        raise ToolError(
            f"{a['name']} is a tracking account: its transactions take no categories to split into"
        )
    if len(categories) < 2:
        raise ToolError(f"a split needs at least 2 categories, got {len(categories)}")
    cats = [category_of(db, c, t["budget_id"]) for c in categories]
    parts = _parts(t, len(cats), amounts)
    db.execute("DELETE FROM transactions WHERE parent_id = ?", t["id"])
    for c, amount in zip(cats, parts, strict=True):
        db.add(
            Transaction,
            budget_id=t["budget_id"],
            account_id=t["account_id"],
            day=t["day"],
            payee_id=t["payee_id"],
            category_id=c["id"],
            memo=t["memo"],
            amount=amount,
            cleared=t["cleared"],
            approved=t["approved"],
            transfer_txn_id=None,
            parent_id=t["id"],
            is_split=False,
        )
    new = db.update(Transaction, t["id"], category_id=None, is_split=True)
    refresh(db, t["budget_id"])
    return {"transaction": _shown(db, new)}


@budget.tool(
    writes=[Transaction, Account, Category],
    destructive=True,
    says=["delete {transaction}", "remove {transaction}, it was a duplicate"],
)
def delete_transaction(db: Db, transaction: DeletableTxn) -> dict:
    """Delete a transaction that is not reconciled (a split with its parts, a transfer with its
    other side)."""
    t = txn_of(db, transaction)
    if t["parent_id"]:
        raise ToolError(
            f"transaction {t['id']} is one part of split {t['parent_id']}; delete the whole split or re-split it"
        )
    gone = [t]
    if t["transfer_txn_id"]:
        gone.append(db.get(Transaction, t["transfer_txn_id"]))
    for g in gone:
        if g["cleared"] == "reconciled":
            raise ToolError(
                f"transaction {g['id']} is reconciled and locked; reconciled transactions cannot be deleted"
            )
    for g in gone:
        post(db, db.get(Account, g["account_id"]), -g["amount"], g["cleared"])
        db.execute("DELETE FROM transactions WHERE parent_id = ?", g["id"])
        db.delete(Transaction, g["id"])
    refresh(db, t["budget_id"])
    return {"deleted": [g["id"] for g in gone], "amount": t["amount"], "day": t["day"]}


def _transfer_categories(db: Db, src: dict, dst: dict, category: str | None) -> tuple[str | None, str | None]:
    """(outflow's, inflow's) categories: money leaving the budget for a tracking account needs one;
    money coming into the budget from a tracking account goes to Ready to Assign; else none."""
    out_cat = in_cat = None
    if src["on_budget"] and not dst["on_budget"]:
        if category is None:
            raise ToolError(f"money leaving the budget for tracking account {dst['name']} needs a category")
        out_cat = category_of(db, category, src["budget_id"])["id"]
    elif category is not None:
        raise ToolError(
            f"a transfer from {src['name']} to {dst['name']} takes no category: only transfers from an on-budget "
            "to a tracking account do"
        )
    if dst["on_budget"] and not src["on_budget"]:
        in_cat = ready_category(db, dst["budget_id"])
    return out_cat, in_cat


@budget.tool(
    writes=[Transaction, Account, Category],
    returns=Transaction,
    says=[
        "transfer {amount} from {from_account} to {to_account} on {day}",
        "move {amount} from {from_account} into {to_account} on {day}",
    ],
)
def transfer_between_accounts(
    db: Db,
    from_account: OpenAccount,
    to_account: OpenAccount,
    amount: Money,
    day: PastDay,
    category: MyCategory | None = None,
    memo: Memo | None = None,
) -> dict:
    """A transfer between two accounts of one budget: an outflow and an inflow paired together.
    Between two on-budget (or two tracking) accounts it takes no category; from an on-budget to a
    tracking account it leaves the budget and needs one; into the budget it goes to Ready to Assign."""
    src, dst = account_of(db, from_account), account_of(db, to_account)
    if src["id"] == dst["id"]:
        raise ToolError(f"from_account and to_account are both {src['id']} ({src['name']})")
    if src["budget_id"] != dst["budget_id"]:
        raise ToolError(
            f"{src['name']} ({src['id']}) and {dst['name']} ({dst['id']}) are in different budgets; "
            "transfers stay within one budget"
        )
    check_day(db, day)
    out_cat, in_cat = _transfer_categories(db, src, dst, category)
    common = dict(
        budget_id=src["budget_id"],
        day=day,
        payee_id=None,
        cleared="uncleared",
        approved=True,
        parent_id=None,
        is_split=False,
    )
    out_id = db.add(
        Transaction,
        account_id=src["id"],
        amount=-amount,
        category_id=out_cat,
        memo=memo or f"Transfer to {dst['name']}",
        transfer_txn_id=None,
        **common,
    )
    in_id = db.add(
        Transaction,
        account_id=dst["id"],
        amount=amount,
        category_id=in_cat,
        memo=memo or f"Transfer from {src['name']}",
        transfer_txn_id=out_id,
        **common,
    )
    db.execute("UPDATE transactions SET transfer_txn_id = ? WHERE id = ?", in_id, out_id)
    post(db, src, -amount, "uncleared")
    post(db, dst, amount, "uncleared")
    refresh(db, src["budget_id"])
    return {
        "outflow": _shown(db, db.get(Transaction, out_id)),
        "inflow": _shown(db, db.get(Transaction, in_id)),
        "from_balance": balances(db.get(Account, src["id"])),
        "to_balance": balances(db.get(Account, dst["id"])),
    }


@budget.tool(
    writes=[Transaction],
    says=["approve {transactions}", "those imported transactions look right, approve {transactions}"],
)
def approve_transactions(db: Db, transactions: UnapprovedTxns) -> dict:
    """Approve imported or scheduled transactions waiting for review (a split's parts with it)."""
    rows = [txn_of(db, t) for t in transactions]
    done = [r["id"] for r in rows if r["approved"]]
    if done:
        raise ToolError(f"already approved: {', '.join(done)}; list only transactions waiting for approval")
    parts = [r["id"] for r in rows if r["parent_id"]]
    if parts:
        raise ToolError(f"{', '.join(parts)} are parts of a split; approve the split's parent instead")
    for r in rows:
        db.execute("UPDATE transactions SET approved = 1 WHERE id = ? OR parent_id = ?", r["id"], r["id"])
    return {"approved": [r["id"] for r in rows], "count": len(rows)}
