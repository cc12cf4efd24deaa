"""The register: accounts and their balances, recording, editing, splitting, deleting and approving
transactions, and transfers between accounts."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from servers.domains.budget.model import (
    Account,
    Category,
    Cleared,
    Direction,
    Payee,
    Transaction,
    budget,
)
from servers.domains.budget.rules import (
    RECENT,
    SPEND,
    EditableTxn,
    Memo,
    MyAccount,
    MyBudget,
    MyCategory,
    MyPayee,
    OpenAccount,
    UsualPayee,
    account_of,
    balances,
    budget_of,
    category_of,
    check_day,
    paged,
    payee_of,
    post,
    ready_category,
    refresh,
    txn_of,
)
from servers.kit import Day, Db, IdList, Money, Month, Offset, PageSize, ToolError

PastDay = Annotated[
    Day, Field(examples=["2026-06-01", "2026-05-31", "2026-05-30", "2026-05-29", "2026-05-28"])
]
Parts = Annotated[
    list[Money],
    Field(min_length=2, max_length=20, description="Amounts of the parts, in the order of the categories."),
]
UnapprovedTxns = IdList[Transaction, f"{RECENT} AND approved = 0"]
SplitCategories = Annotated[
    IdList[Category, SPEND],
    Field(
        min_length=2, max_length=10, description='Categories of the parts, e.g. ["CAT-000002", "CAT-000007"].'
    ),
]


def _shown(db: Db, t: dict) -> dict:
    """A transaction as tools return it: names next to ids, and a split's parts."""
    keep = ("category_id", "memo", "payee", "category")
    out = {k: v for k, v in t.items() if k != "budget_id" and (v is not None or k in keep)}
    if "payee" not in t:  # list_transactions joins the names in already
        out["payee"] = (
            db.scalar("SELECT name FROM payees WHERE id = ?", t["payee_id"]) if t["payee_id"] else None
        )
        out["category"] = (
            db.scalar("SELECT name FROM categories WHERE id = ?", t["category_id"])
            if t["category_id"]
            else None
        )
    out["approved"], out["is_split"] = bool(t["approved"]), bool(t["is_split"])
    if not t["is_split"]:
        del out["is_split"]
    # how a person tells one line from another: where, how much, when
    out["label"] = f"{out['payee'] or t['memo'] or 'transaction'} {t['amount']:.2f} on {t['day']}"
    if t["is_split"]:
        out["parts"] = db.all(
            "SELECT t.id, t.category_id, c.name AS category, t.amount FROM transactions t "
            "LEFT JOIN categories c ON c.id = t.category_id WHERE t.parent_id = ? ORDER BY t.id",
            t["id"],
        )
    return out


@budget.tool(
    returns=Account,
    says=["what are my account balances in {budget}?", "show the accounts in {budget}"],
)
def list_accounts(db: Db, budget: MyBudget, include_closed: bool = False) -> dict:
    """A budget's accounts with cleared, uncleared and working balances (closed ones on request)."""
    budget_of(db, budget)
    rows = db.all(
        "SELECT * FROM accounts WHERE budget_id = ? AND (closed = 0 OR ?) ORDER BY id", budget, include_closed
    )
    out = []
    for a in rows:
        item = {"id": a["id"], "name": a["name"], "kind": a["kind"], "on_budget": bool(a["on_budget"])}
        item.update(balances(a), closed=bool(a["closed"]), last_reconciled=a["last_reconciled"])
        out.append(item)
    return {"accounts": out, "total": len(out)}


@budget.tool(
    returns=Transaction,
    says=[
        "show the transactions of {budget} for {month}",
        "list the transactions at {payee} in {budget}",
        "which transactions in {budget} still need approval?",
        "what did I spend from {category} in {month}?",
    ],
)
def list_transactions(
    db: Db,
    budget: MyBudget,
    account: MyAccount | None = None,
    category: MyCategory | None = None,
    payee: MyPayee | None = None,
    month: Month | None = None,
    uncategorized: bool = False,
    unapproved: bool = False,
    limit: PageSize = 20,
    offset: Offset = 0,
) -> dict:
    """A budget's transactions, newest first, filtered by account, category, payee, month, or those
    still uncategorized or waiting for approval. Split parts are listed under their parent."""
    budget_of(db, budget)
    where, args = ["t.budget_id = ?", "t.parent_id IS NULL"], [budget]
    if category:
        where[-1] = (
            "(t.category_id = ? OR t.id IN (SELECT parent_id FROM transactions WHERE category_id = ?))"
        )
        args += [category, category]
    for col, value in (("account_id", account), ("payee_id", payee)):
        if value:
            where.append(f"t.{col} = ?")
            args.append(value)
    if month:
        where.append("t.day >= ? AND t.day < ?")
        args += [f"{month}-01", f"{month}-32"]
    if uncategorized:
        where.append(
            "t.category_id IS NULL AND t.is_split = 0 AND t.transfer_txn_id IS NULL "
            "AND t.account_id IN (SELECT id FROM accounts WHERE on_budget = 1)"
        )
    if unapproved:
        where.append("t.approved = 0")
    body = (
        "FROM transactions t LEFT JOIN payees p ON p.id = t.payee_id "
        f"LEFT JOIN categories c ON c.id = t.category_id WHERE {' AND '.join(where)}"
    )
    columns = "t.*, p.name AS payee, c.name AS category"
    page = paged(
        db, columns, body, args, "t.day DESC, t.id DESC", limit=limit, offset=offset, key="transactions"
    )
    page["transactions"] = [_shown(db, t) for t in page["transactions"]]
    return page


@budget.tool(returns=Payee, says=["who are the payees in {budget}?", "list the payees of {budget}"])
def list_payees(db: Db, budget: MyBudget, limit: PageSize = 20, offset: Offset = 0) -> dict:
    """A budget's payees (shops, billers, employers) with the category each usually goes to."""
    budget_of(db, budget)
    return paged(
        db,
        "p.id, p.name, p.default_category_id, c.name AS usual_category",
        "FROM payees p LEFT JOIN categories c ON c.id = p.default_category_id WHERE p.budget_id = ?",
        (budget,),
        "p.name, p.id",
        limit=limit,
        offset=offset,
        key="payees",
    )


def _category_for(db: Db, a: dict, payee: dict, category: str | None, amount: float) -> str | None:
    """The category a new line gets: the one given, else the payee's usual one, else (inflows)
    Ready to Assign; tracking accounts take none."""
    if not a["on_budget"]:
        if category:
            raise ToolError(
                f"{a['name']} is a tracking (off-budget) account: its transactions take no category"
            )
        return None
    if category:
        return category_of(db, category, a["budget_id"])["id"]
    if amount > 0:
        return ready_category(db, a["budget_id"])
    if payee["default_category_id"]:
        return payee["default_category_id"]
    raise ToolError(
        f"an outflow from on-budget account {a['name']} needs a category ({payee['name']} has no usual category)"
    )


@budget.tool(
    writes=[Transaction, Account, Category],
    returns=Transaction,
    says=[
        "log {amount} I spent at {payee} on {day} from {account}",
        "add a {amount} transaction at {payee} to {account} on {day} under {category}",
        "record {amount} paid to {payee} on {day} from {account}, memo {memo}",
        "I got {amount} from {payee} on {day} into {account}, record it as an {direction}",
    ],
)
def add_transaction(
    db: Db,
    account: OpenAccount,
    day: PastDay,
    payee: UsualPayee,
    amount: Money,
    direction: Direction = "outflow",
    category: MyCategory | None = None,
    memo: Memo | None = None,
    cleared: Cleared = "uncleared",
) -> dict:
    """Record an outflow (default) or inflow that already happened. Outflows from on-budget accounts
    need a category (the payee's usual one if omitted); inflows go to Ready to Assign by default."""
    a = account_of(db, account)
    check_day(db, day)
    p = payee_of(db, payee, a["budget_id"])
    signed = -amount if direction == "outflow" else amount
    cat = _category_for(db, a, p, category, signed)
    t = db.insert(
        Transaction,
        budget_id=a["budget_id"],
        account_id=a["id"],
        day=day,
        payee_id=p["id"],
        category_id=cat,
        memo=memo,
        amount=signed,
        cleared=cleared,
        approved=True,
        transfer_txn_id=None,
        parent_id=None,
        is_split=False,
    )
    post(db, a, signed, cleared)
    refresh(db, a["budget_id"])
    return {"transaction": _shown(db, t), "account": balances(db.get(Account, a["id"]))}


def _locked(t: dict, what: str) -> None:
    if t["cleared"] == "reconciled":
        raise ToolError(f"transaction {t['id']} is reconciled and locked: its {what} cannot change")


def _edits(db: Db, t: dict, category, memo, payee, amount, cleared) -> dict:
    """The columns an update changes, after every rule for this kind of transaction."""
    changes: dict = {}
    a = db.get(Account, t["account_id"])
    if category is not None:
        if t["is_split"]:
            raise ToolError(f"transaction {t['id']} is split; change its parts with split_transaction")
        changes["category_id"] = _category_for(db, a, {}, category, t["amount"])
    if payee is not None:
        if t["parent_id"]:
            raise ToolError(
                f"transaction {t['id']} is part of split {t['parent_id']}; change the payee there"
            )
        changes["payee_id"] = payee_of(db, payee, t["budget_id"])["id"]
    if amount is not None:
        _locked(t, "amount")
        if t["parent_id"] or t["is_split"]:
            raise ToolError(f"transaction {t['id']} is split; re-split it to change amounts")
        changes["amount"] = -amount if t["amount"] < 0 else amount
    if cleared is not None:
        _locked(t, "cleared status")
        if t["parent_id"]:
            raise ToolError(f"transaction {t['id']} is part of split {t['parent_id']}; clear the parent")
        changes["cleared"] = cleared
    if memo is not None:
        changes["memo"] = memo
    return {k: v for k, v in changes.items() if t[k] != v}


@budget.tool(
    writes=[Transaction, Account, Category],
    returns=Transaction,
    idempotent=True,
    says=[
        "change the category of {transaction} to {category}",
        "add the memo {memo} to {transaction}",
        "mark {transaction} as {cleared}",
        "{transaction} was actually {amount}, fix it",
        "{transaction} was actually at {payee}, not where it says",
    ],
)
def update_transaction(
    db: Db,
    transaction: EditableTxn,
    category: MyCategory | None = None,
    memo: Memo | None = None,
    payee: MyPayee | None = None,
    amount: Money | None = None,
    cleared: Cleared | None = None,
) -> dict:
    """Edit a transaction's category, memo, payee, amount (its direction stays) or cleared status.
    Reconciled transactions are locked: their amount and status cannot change."""
    t = txn_of(db, transaction)
    if all(v is None for v in (category, memo, payee, amount, cleared)):
        raise ToolError("nothing to change: give category, memo, payee, amount or cleared")
    if t["transfer_txn_id"] and (category or payee):
        raise ToolError(f"transaction {t['id']} is a transfer; its category and payee follow the transfer")
    changes = _edits(db, t, category, memo, payee, amount, cleared)
    if not changes:
        raise ToolError(f"transaction {t['id']} already has those values; nothing changed")
    a = db.get(Account, t["account_id"])
    post(db, a, -t["amount"], t["cleared"])
    new = db.update(Transaction, t["id"], **changes)
    post(db, a, new["amount"], new["cleared"])
    if "cleared" in changes and t["is_split"]:
        db.execute("UPDATE transactions SET cleared = ? WHERE parent_id = ?", new["cleared"], t["id"])
    if t["transfer_txn_id"] and "amount" in changes:
        other = db.get(Transaction, t["transfer_txn_id"])
        _locked(other, "amount (the other side of this transfer is reconciled)")
        oa = db.get(Account, other["account_id"])
        post(db, oa, -other["amount"], other["cleared"])
        db.update(Transaction, other["id"], amount=-new["amount"])
        post(db, oa, -new["amount"], other["cleared"])
    refresh(db, t["budget_id"])
    return {"transaction": _shown(db, new), "changed": sorted(changes)}
