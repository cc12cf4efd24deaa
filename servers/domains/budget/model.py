"""The budgeting service's tables and fixed facts: budgets and who may use them, accounts, the
category plan with its monthly assignments, payees, the register, scheduled bills and the
append-only reconciliation log."""

from __future__ import annotations

from typing import Literal

from sqlalchemy import ForeignKey, Index, UniqueConstraint, text
from sqlalchemy.orm import Mapped, mapped_column

from servers.kit import Domain

budget = Domain(
    "budget",
    "Envelope budgeting: accounts, categories with monthly assignments, transactions, splits, "
    "scheduled bills, moving money between categories and reconciling accounts.",
)

AccountKind = Literal["checking", "savings", "cash", "credit_card"]
GoalKind = Literal["none", "monthly", "target_balance", "target_by_month"]
Frequency = Literal["weekly", "every_other_week", "monthly", "yearly"]
Cleared = Literal["uncleared", "cleared"]
Direction = Literal["outflow", "inflow"]
GroupBy = Literal["category", "payee"]
READY = "Ready to Assign"  # the internal category inflows go to
INFLOW_GROUP = "Inflow"
AHEAD_MONTHS = 11  # assignments may be made up to this many months after the current one
ADJUSTMENT_PAYEE = "Reconciliation Balance Adjustment"


# Who is signed in to the budgeting app (the persona).
Session = budget.acting(None, "person_id", key=int, foreign_key=False)


class Budget(budget.Table, prefix="BUD", people={"name": "owner_name"}):
    __tablename__ = "budgets"
    id: Mapped[str] = mapped_column(primary_key=True)
    owner_id: Mapped[int] = mapped_column(index=True)  # a world person's index
    owner_name: Mapped[str]
    name: Mapped[str]
    currency: Mapped[str]
    first_month: Mapped[str]  # YYYY-MM, the first month money can be assigned in


class Member(budget.Table, prefix="MBR", noun="budget member", people={"name": "name", "email": "email"}):
    """A person who may open a budget: its owner, or someone it is shared with (YNAB Together)."""

    __tablename__ = "budget_members"
    __table_args__ = (
        UniqueConstraint("budget_id", "person_id"),
        Index("ix_budget_members_person", "person_id", "budget_id"),
    )
    id: Mapped[str] = mapped_column(primary_key=True)
    budget_id: Mapped[str] = mapped_column(ForeignKey("budgets.id"))
    person_id: Mapped[int]
    name: Mapped[str]
    email: Mapped[str]
    role: Mapped[str]  # owner | collaborator


class Account(budget.Table, prefix="ACC"):
    __tablename__ = "accounts"
    id: Mapped[str] = mapped_column(primary_key=True)
    budget_id: Mapped[str] = mapped_column(ForeignKey("budgets.id"), index=True)
    name: Mapped[str]
    kind: Mapped[str]  # checking | savings | cash | credit_card
    on_budget: Mapped[bool]
    closed: Mapped[bool]
    cleared_balance: Mapped[float]  # cleared and reconciled transactions
    uncleared_balance: Mapped[float]
    last_reconciled: Mapped[str | None]


class CategoryGroup(budget.Table, prefix="GRP", noun="category group"):
    __tablename__ = "category_groups"
    id: Mapped[str] = mapped_column(primary_key=True)
    budget_id: Mapped[str] = mapped_column(ForeignKey("budgets.id"), index=True)
    name: Mapped[str]
    hidden: Mapped[bool]
    internal: Mapped[bool]  # the Inflow group holding Ready to Assign


class Category(budget.Table, prefix="CAT"):
    """An envelope. ``assigned``/``activity``/``available`` are this month's figures (the current
    month of the reference date), kept up to date by every tool, as YNAB's category object has them."""

    __tablename__ = "categories"
    id: Mapped[str] = mapped_column(primary_key=True)
    budget_id: Mapped[str] = mapped_column(ForeignKey("budgets.id"), index=True)
    group_id: Mapped[str] = mapped_column(ForeignKey("category_groups.id"), index=True)
    name: Mapped[str]
    hidden: Mapped[bool]
    internal: Mapped[bool]  # Ready to Assign
    goal_kind: Mapped[str]  # none | monthly | target_balance | target_by_month
    goal_amount: Mapped[float | None]
    goal_month: Mapped[str | None]
    assigned: Mapped[float]
    activity: Mapped[float]
    available: Mapped[float]


class Assignment(budget.Table, prefix="ASG"):
    """Money assigned to a category in one month (activity and available are computed)."""

    __tablename__ = "assignments"
    __table_args__ = (UniqueConstraint("category_id", "month"),)
    id: Mapped[str] = mapped_column(primary_key=True)
    category_id: Mapped[str] = mapped_column(ForeignKey("categories.id"))
    month: Mapped[str]
    assigned: Mapped[float]


class Payee(budget.Table, prefix="PYE"):
    __tablename__ = "payees"
    # a payee named by what users call it ("the payee Trader Joe's") is looked up by name
    __table_args__ = (Index("ix_payees_name", "name", "id"),)
    id: Mapped[str] = mapped_column(primary_key=True)
    budget_id: Mapped[str] = mapped_column(ForeignKey("budgets.id"), index=True)
    name: Mapped[str]
    # indexed: the sampler picks a payee that usually goes to a category the story mentions
    default_category_id: Mapped[str | None] = mapped_column(ForeignKey("categories.id"), index=True)


class Transaction(budget.Table, prefix="TXN"):
    """One register line. A split parent has ``is_split`` and no category; its parts have
    ``parent_id`` and carry the categories (balances count parents, activity counts parts)."""

    __tablename__ = "transactions"
    __table_args__ = (
        Index("ix_transactions_account", "account_id", "day"),
        Index("ix_transactions_category", "category_id", "day"),
        Index("ix_transactions_budget", "budget_id", "day"),
        # parts only: "parent_id IS NULL" (most rows) must not look like a good index to the planner
        Index("ix_transactions_parts", "parent_id", sqlite_where=text("parent_id IS NOT NULL")),
        Index("ix_transactions_day", "day"),
        # the envelope arithmetic's activity sums, read from the index alone
        Index("ix_transactions_activity", "budget_id", "category_id", "day", "amount", "is_split"),
        # the sampler's recent top-level lines (rules.RECENT), counted and checked from the index alone;
        # no tool query says this literal condition, so only the sampler's picks can use it
        Index(
            "ix_transactions_recent",
            "budget_id",
            "day",
            "parent_id",
            "cleared",
            "transfer_txn_id",
            "is_split",
            "approved",
            "amount",
            "category_id",
            "id",
            sqlite_where=text("day >= '2026-05-01' AND parent_id IS NULL"),
        ),
    )
    id: Mapped[str] = mapped_column(primary_key=True)
    budget_id: Mapped[str] = mapped_column(ForeignKey("budgets.id"))
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"))
    day: Mapped[str]
    payee_id: Mapped[str | None] = mapped_column(ForeignKey("payees.id"))
    category_id: Mapped[str | None] = mapped_column(ForeignKey("categories.id"))
    memo: Mapped[str | None]
    amount: Mapped[float]  # < 0 is an outflow
    cleared: Mapped[str]  # uncleared | cleared | reconciled
    approved: Mapped[bool]
    transfer_txn_id: Mapped[str | None]
    parent_id: Mapped[str | None]
    is_split: Mapped[bool]


class Scheduled(budget.Table, prefix="SCH", noun="scheduled transaction"):
    __tablename__ = "scheduled"
    id: Mapped[str] = mapped_column(primary_key=True)
    budget_id: Mapped[str] = mapped_column(ForeignKey("budgets.id"), index=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"))
    payee_id: Mapped[str] = mapped_column(ForeignKey("payees.id"))
    category_id: Mapped[str | None] = mapped_column(ForeignKey("categories.id"))
    amount: Mapped[float]
    frequency: Mapped[str]
    next_day: Mapped[str]
    memo: Mapped[str | None]


class Reconciliation(budget.Table, prefix="REC", append_only=True):
    __tablename__ = "reconciliations"
    id: Mapped[str] = mapped_column(primary_key=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"), index=True)
    day: Mapped[str]
    statement_balance: Mapped[float]
    adjustment_txn_id: Mapped[str | None]
    transactions_locked: Mapped[int]
