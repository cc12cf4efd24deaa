"""Reconciling accounts against a statement, and scheduled (recurring) transactions."""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, Field

from servers.domains.budget.model import (
    ADJUSTMENT_PAYEE,
    Account,
    Category,
    Direction,
    Frequency,
    Payee,
    Reconciliation,
    Scheduled,
    Transaction,
    budget,
)
from servers.domains.budget.register import _category_for
from servers.domains.budget.rules import (
    Memo,
    MyBudget,
    MyCategory,
    OpenAccount,
    UsualPayee,
    account_of,
    balances,
    budget_of,
    m2,
    paged,
    payee_of,
    ready_category,
    refresh,
)
from servers.kit import Day, Db, Money, Offset, PageSize, ToolError, whole_cents

Balance = Annotated[
    float,
    Field(
        ge=-1e9, le=1e9, description="The statement's ending balance in dollars (negative for money owed)."
    ),
    AfterValidator(whole_cents),
]


def _adjust(db: Db, a: dict, amount: float) -> str:
    """The adjustment line that makes the cleared balance match the statement."""
    payee = db.scalar(
        "SELECT id FROM payees WHERE budget_id = ? AND name = ?", a["budget_id"], ADJUSTMENT_PAYEE
    )
    if payee is None:
        payee = db.add(Payee, budget_id=a["budget_id"], name=ADJUSTMENT_PAYEE, default_category_id=None)
    return db.add(
        Transaction,
        budget_id=a["budget_id"],
        account_id=a["id"],
        day=db.today.isoformat(),
        payee_id=payee,
        category_id=ready_category(db, a["budget_id"]) if a["on_budget"] else None,
        memo="Entered automatically by reconciliation",
        amount=amount,
        cleared="cleared",
        approved=True,
        transfer_txn_id=None,
        parent_id=None,
        is_split=False,
    )


@budget.tool(
    writes=[Transaction, Account, Reconciliation, Payee, Category],
    returns=Reconciliation,
    says=[
        "reconcile {account}, the cleared balance matches the bank",
        "reconcile {account}: the cleared balance is right",
        "reconcile {account} to my statement balance of {statement_balance}; add an adjustment for any difference? {create_adjustment}",
    ],
)
def reconcile_account(
    db: Db, account: OpenAccount, statement_balance: Balance | None = None, create_adjustment: bool = False
) -> dict:
    """Reconcile an account: the statement's balance must equal the cleared balance (omit it to
    confirm the cleared balance as shown). A mismatch is refused with the difference unless
    create_adjustment adds a balance adjustment line. Every cleared transaction then becomes
    reconciled (locked) and a reconciliation record is appended."""
    a = account_of(db, account)
    cleared = round(a["cleared_balance"], 2)
    target = cleared if statement_balance is None else statement_balance
    diff = round(target - cleared, 2)
    adjustment = None
    if abs(diff) >= 0.005:
        if not create_adjustment:
            raise ToolError(
                f"statement balance {m2(target)} does not match the cleared balance {m2(cleared)} of "
                f"{a['name']} (difference {m2(diff)}); find the missing or wrong transactions, or reconcile "
                "with create_adjustment to add a balance adjustment"
            )
        adjustment = _adjust(db, a, diff)
        db.execute(
            "UPDATE accounts SET cleared_balance = round(cleared_balance + ?, 2) WHERE id = ?", diff, a["id"]
        )
    locked = db.execute(
        "UPDATE transactions SET cleared = 'reconciled' WHERE account_id = ? AND cleared = 'cleared' "
        "AND parent_id IS NULL",
        a["id"],
    )
    db.execute(  # a split's parts follow their parent (looked up by key, not a scan of every line)
        "UPDATE transactions SET cleared = 'reconciled' WHERE account_id = ? AND parent_id IS NOT NULL "
        "AND cleared != 'reconciled' AND EXISTS (SELECT 1 FROM transactions p WHERE p.id = "
        "transactions.parent_id AND p.cleared = 'reconciled')",
        a["id"],
    )
    day = db.today.isoformat()
    db.execute("UPDATE accounts SET last_reconciled = ? WHERE id = ?", day, a["id"])
    rec = db.insert(
        Reconciliation,
        account_id=a["id"],
        day=day,
        statement_balance=target,
        adjustment_txn_id=adjustment,
        transactions_locked=locked,
    )
    if adjustment:
        refresh(db, a["budget_id"])
    out = {"reconciliation": rec["id"], "account": a["id"], "name": a["name"], "statement_balance": target}
    out.update(locked=locked, adjustment=adjustment and {"transaction": adjustment, "amount": diff})
    out["balances"] = balances(db.get(Account, a["id"]))
    return out


@budget.tool(
    writes=[Scheduled],
    returns=Scheduled,
    says=[
        "set up a {frequency} payment of {amount} to {payee} from {account} starting {first_day}",
        "schedule {amount} to {payee} {frequency} from {account}, first one on {first_day}",
        "add a recurring {frequency} {direction} of {amount} with {payee} on {account}, starting {first_day}",
    ],
)
def create_scheduled_transaction(
    db: Db,
    account: OpenAccount,
    payee: UsualPayee,
    amount: Money,
    frequency: Frequency,
    first_day: Day,
    direction: Direction = "outflow",
    category: MyCategory | None = None,
    memo: Memo | None = None,
) -> dict:
    """A recurring bill or income, entered on each due day as an uncleared transaction waiting for
    approval. The first day must be after today (a past one is add_transaction's job)."""
    a = account_of(db, account)
    p = payee_of(db, payee, a["budget_id"])
    if first_day <= db.today.isoformat():
        raise ToolError(
            f"first_day {first_day} is not in the future (today is {db.today.isoformat()}); record a "
            "transaction that already happened with add_transaction"
        )
    signed = -amount if direction == "outflow" else amount
    cat = _category_for(db, a, p, category, signed)
    row = db.insert(
        Scheduled,
        budget_id=a["budget_id"],
        account_id=a["id"],
        payee_id=p["id"],
        category_id=cat,
        amount=signed,
        frequency=frequency,
        next_day=first_day,
        memo=memo,
    )
    return {"scheduled": row, "payee": p["name"], "account": a["name"]}


@budget.tool(
    returns=Scheduled,
    says=["what bills are scheduled in {budget}?", "show my upcoming scheduled transactions in {budget}"],
)
def list_scheduled_transactions(db: Db, budget: MyBudget, limit: PageSize = 20, offset: Offset = 0) -> dict:
    """A budget's scheduled transactions, soonest first."""
    budget_of(db, budget)
    return paged(
        db,
        "s.*, p.name AS payee, a.name AS account",
        "FROM scheduled s JOIN payees p ON p.id = s.payee_id JOIN accounts a ON a.id = s.account_id "
        "WHERE s.budget_id = ?",
        (budget,),
        "s.next_day, s.id",
        limit=limit,
        offset=offset,
        key="scheduled",
    )
