"""The CRM's tables and fixed facts: users and territories, accounts, contacts, leads, the two
pipelines with their stages, deals, activities (tasks included) and the stage history."""

from __future__ import annotations

from typing import Literal

from sqlalchemy import ForeignKey, Index, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from servers.kit import Domain

crm = Domain(
    "crm",
    "Sales CRM: accounts, contacts, leads and their conversion, deals in pipelines with stage rules, "
    "activities, tasks, owners and territories.",
)

Role = Literal["rep", "manager", "admin"]
Tier = Literal["smb", "mid_market", "enterprise"]
AccountType = Literal["prospect", "customer", "partner"]
Lifecycle = Literal["subscriber", "lead", "mql", "sql", "opportunity", "customer", "evangelist", "other"]
LIFECYCLE: tuple[str, ...] = (
    "subscriber",
    "lead",
    "mql",
    "sql",
    "opportunity",
    "customer",
    "evangelist",
    "other",
)
LeadSource = Literal["web", "referral", "event", "outbound", "partner"]
LeadStatus = Literal["new", "working", "nurturing", "qualified", "unqualified"]
# where a lead may go next by update_lead ("converted" is reached only through convert_lead)
LEAD_MOVES: dict[str, tuple[str, ...]] = {
    "new": ("working", "nurturing", "qualified", "unqualified"),
    "working": ("nurturing", "qualified", "unqualified"),
    "nurturing": ("working", "qualified", "unqualified"),
    "qualified": ("working", "nurturing", "unqualified"),
    "unqualified": ("working", "nurturing"),
    "converted": (),
}
SOURCE_SCORE = {"referral": 40, "partner": 35, "event": 30, "web": 20, "outbound": 10}
DealRole = Literal["decision_maker", "champion", "influencer", "user"]
LostReason = Literal["competitor", "no_budget", "timing", "no_decision", "product_fit", "other"]
ActivityKind = Literal["call", "email", "meeting", "note"]
OUTBOUND = ("call", "email")  # what do_not_contact forbids logging
DealStatus = Literal["open", "won", "lost"]

# (territory id, name, cities): each territory is worked by the team of the same name
TERRITORIES: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("west", "West", ("Portland", "Seattle", "San Francisco", "Los Angeles", "Denver")),
    ("central", "Central", ("Austin", "Chicago", "Toronto")),
    ("east", "East", ("Atlanta", "Boston", "New York", "Miami")),
    ("international", "International", ("London", "Berlin", "Tokyo")),
)
TERRITORY_OF_CITY = {city: tid for tid, _, cities in TERRITORIES for city in cities}

# (stage id, pipeline, name, probability, closed, won, win_ready, required fields)
STAGES: tuple[tuple[str, str, str, float, bool, bool, bool, str], ...] = (
    ("prospecting", "sales", "Prospecting", 0.10, False, False, False, ""),
    ("qualification", "sales", "Qualification", 0.20, False, False, False, ""),
    ("discovery", "sales", "Discovery", 0.40, False, False, False, ""),
    ("proposal", "sales", "Proposal", 0.60, False, False, True, "amount"),
    ("negotiation", "sales", "Negotiation", 0.80, False, False, True, "amount,primary_contact"),
    ("contracting", "sales", "Contracting", 0.90, False, False, True, "amount,primary_contact"),
    ("won", "sales", "Closed Won", 1.00, True, True, False, "amount,primary_contact"),
    ("lost", "sales", "Closed Lost", 0.00, True, False, False, "lost_reason"),
    ("upcoming", "renewals", "Renewal Upcoming", 0.50, False, False, False, ""),
    ("quoted", "renewals", "Quote Sent", 0.75, False, False, True, "amount"),
    ("committed", "renewals", "Verbal Commit", 0.90, False, False, True, "amount,primary_contact"),
    ("renewed", "renewals", "Renewed", 1.00, True, True, False, "amount,primary_contact"),
    ("churned", "renewals", "Churned", 0.00, True, False, False, "lost_reason"),
)
PIPELINES = (("sales", "Sales Pipeline", True), ("renewals", "Renewals", False))


class Territory(crm.Table, example="west", noun="territory"):
    """A sales territory (a set of cities) and the team of the same name that works it."""

    __tablename__ = "territories"
    id: Mapped[str] = mapped_column(primary_key=True)
    name: Mapped[str]
    cities: Mapped[str]  # comma list of world cities


class User(crm.Table, prefix="USR", noun="user", people={"name": "name", "email": "email", "phone": "phone"}):
    """A CRM user: the persona (USR-000001, manager of team West) and the people she works with."""

    __tablename__ = "users"
    id: Mapped[str] = mapped_column(primary_key=True)
    person_id: Mapped[int] = mapped_column(unique=True)
    name: Mapped[str]
    email: Mapped[str] = mapped_column(unique=True)
    phone: Mapped[str]
    title: Mapped[str]
    role: Mapped[str]  # rep / manager / admin
    territory_id: Mapped[str] = mapped_column(ForeignKey("territories.id"), index=True)  # the team
    manager_id: Mapped[str | None] = mapped_column(ForeignKey("users.id"))
    active: Mapped[bool]


# Who is signed in to the CRM in this episode.
Session = crm.acting(User, "user_id")


class Account(crm.Table, prefix="ACC"):
    """A company the sales team sells to: one company of the shared world."""

    __tablename__ = "accounts"
    __table_args__ = (Index("ix_accounts_name", "name", "id"),)
    id: Mapped[str] = mapped_column(primary_key=True)
    name: Mapped[str]
    domain: Mapped[str] = mapped_column(unique=True)
    industry: Mapped[str]
    employees: Mapped[int | None]
    city: Mapped[str]
    address: Mapped[str]
    territory_id: Mapped[str] = mapped_column(ForeignKey("territories.id"), index=True)
    owner_id: Mapped[str] = mapped_column(ForeignKey("users.id"), index=True)
    tier: Mapped[str]  # smb / mid_market / enterprise
    type: Mapped[str]  # prospect / customer / partner / internal (our own company)
    created_at: Mapped[str]


class Contact(
    crm.Table,
    prefix="CON",
    people={
        "name": "name",
        "first_name": "first_name",
        "last_name": "last_name",
        "email": "email",
        "phone": "phone",
    },
):
    """A person at an account (a person of the shared world, or a near-duplicate record of one)."""

    __tablename__ = "contacts"
    id: Mapped[str] = mapped_column(primary_key=True)
    __table_args__ = (Index("ix_contacts_name", "name", "id"),)
    first_name: Mapped[str]
    last_name: Mapped[str]
    name: Mapped[str]
    email: Mapped[str] = mapped_column(unique=True)
    phone: Mapped[str | None]
    title: Mapped[str | None]
    account_id: Mapped[str | None] = mapped_column(ForeignKey("accounts.id"), index=True)
    owner_id: Mapped[str] = mapped_column(ForeignKey("users.id"), index=True)
    lifecycle_stage: Mapped[str]
    do_not_contact: Mapped[bool]
    created_at: Mapped[str]


class Pipeline(crm.Table, example="sales"):
    __tablename__ = "pipelines"
    id: Mapped[str] = mapped_column(primary_key=True)
    name: Mapped[str]
    is_default: Mapped[bool]


class Stage(crm.Table, example="negotiation"):
    """A pipeline stage: its win probability, whether it closes the deal, and what it requires."""

    __tablename__ = "stages"
    id: Mapped[str] = mapped_column(primary_key=True)
    pipeline_id: Mapped[str] = mapped_column(ForeignKey("pipelines.id"))
    name: Mapped[str]
    position: Mapped[int]
    probability: Mapped[float]
    is_closed: Mapped[bool]
    is_won: Mapped[bool]
    win_ready: Mapped[bool]  # a deal in this stage may be moved straight to won
    requires: Mapped[str]  # comma list: amount, primary_contact, lost_reason


class Deal(crm.Table, prefix="DEL"):
    __tablename__ = "deals"
    __table_args__ = (
        Index("ix_deals_owner_status", "owner_id", "status"),
        Index("ix_deals_close", "close_date", "id"),
    )
    id: Mapped[str] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(index=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"), index=True)
    primary_contact_id: Mapped[str | None] = mapped_column(ForeignKey("contacts.id"), index=True)
    pipeline_id: Mapped[str] = mapped_column(ForeignKey("pipelines.id"))
    stage_id: Mapped[str] = mapped_column(ForeignKey("stages.id"), index=True)
    status: Mapped[str] = mapped_column(index=True)  # open / won / lost: follows the stage
    amount: Mapped[float]
    close_date: Mapped[str]
    owner_id: Mapped[str] = mapped_column(ForeignKey("users.id"))
    lost_reason: Mapped[str | None]
    created_at: Mapped[str]
    closed_at: Mapped[str | None]
    last_activity_at: Mapped[str]


class DealContact(crm.Table, prefix="DLC", noun="deal contact"):
    """A contact's part in a deal."""

    __tablename__ = "deal_contacts"
    __table_args__ = (UniqueConstraint("deal_id", "contact_id"),)
    id: Mapped[str] = mapped_column(primary_key=True)
    deal_id: Mapped[str] = mapped_column(ForeignKey("deals.id"), index=True)
    contact_id: Mapped[str] = mapped_column(ForeignKey("contacts.id"), index=True)
    role: Mapped[str]


class Lead(
    crm.Table,
    prefix="LED",
    people={"name": "name", "first_name": "first_name", "last_name": "last_name", "email": "email"},
):
    """Someone who showed interest and is not yet a customer relationship; converts once."""

    __tablename__ = "leads"
    __table_args__ = (
        Index("ix_leads_owner_status", "owner_id", "status"),
        Index("ix_leads_score", "score", "id"),
    )
    id: Mapped[str] = mapped_column(primary_key=True)
    first_name: Mapped[str]
    last_name: Mapped[str]
    name: Mapped[str] = mapped_column(index=True)
    email: Mapped[str] = mapped_column(index=True)
    phone: Mapped[str | None]
    title: Mapped[str | None]
    company_name: Mapped[str]
    city: Mapped[str]
    source: Mapped[str]
    status: Mapped[str] = mapped_column(index=True)
    score: Mapped[int]
    owner_id: Mapped[str] = mapped_column(ForeignKey("users.id"))
    unqualified_reason: Mapped[str | None]
    converted_contact_id: Mapped[str | None] = mapped_column(ForeignKey("contacts.id"), index=True)
    converted_account_id: Mapped[str | None] = mapped_column(ForeignKey("accounts.id"))
    converted_deal_id: Mapped[str | None] = mapped_column(ForeignKey("deals.id"))
    converted_at: Mapped[str | None]
    created_at: Mapped[str]


class Activity(crm.Table, prefix="ACT"):
    """A logged call, email, meeting or note, or a task (kind ``task``) with a due day."""

    __tablename__ = "activities"
    # tasks by owner and state; activities by subject (how people name a task)
    __table_args__ = (
        Index("ix_activities_tasks", "kind", "done", "owner_id"),
        Index("ix_activities_subject", "subject", "id"),
    )
    id: Mapped[str] = mapped_column(primary_key=True)
    kind: Mapped[str]  # call / email / meeting / note / task
    subject: Mapped[str]
    body: Mapped[str]
    due_on: Mapped[str | None]  # tasks only
    done: Mapped[bool]
    completed_at: Mapped[str | None]
    owner_id: Mapped[str] = mapped_column(ForeignKey("users.id"))
    contact_id: Mapped[str | None] = mapped_column(ForeignKey("contacts.id"), index=True)
    account_id: Mapped[str | None] = mapped_column(ForeignKey("accounts.id"), index=True)
    deal_id: Mapped[str | None] = mapped_column(ForeignKey("deals.id"), index=True)
    lead_id: Mapped[str | None] = mapped_column(ForeignKey("leads.id"), index=True)
    created_at: Mapped[str]


class StageHistory(crm.Table, prefix="STH", noun="stage change", append_only=True):
    """Every stage a deal entered, by whom and when (creation included: from_stage_id is null)."""

    __tablename__ = "stage_history"
    id: Mapped[str] = mapped_column(primary_key=True)
    deal_id: Mapped[str] = mapped_column(ForeignKey("deals.id"), index=True)
    from_stage_id: Mapped[str | None] = mapped_column(ForeignKey("stages.id"))
    to_stage_id: Mapped[str] = mapped_column(ForeignKey("stages.id"))
    by_id: Mapped[str] = mapped_column(ForeignKey("users.id"))
    at: Mapped[str]
