"""Deals: listing, reading, opening, editing, and the contacts who play a part in them."""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated

from pydantic import AfterValidator, Field

from servers.domains.crm.model import (
    Account,
    Contact,
    Deal,
    DealContact,
    DealRole,
    DealStatus,
    Pipeline,
    Stage,
    StageHistory,
    crm,
)
from servers.domains.crm.rules import (
    EDITABLE,
    EXTERNAL_ACCOUNT,
    EXTERNAL_CONTACT,
    AnyUser,
    Assignee,
    MyContact,
    MyDeal,
    account_for_deal,
    check_assign,
    check_edit,
    contact_at,
    future_day,
    label,
    lifecycle_forward,
    nothing_changes,
    open_deal,
    page,
    pipeline_stages,
    stage_of,
    stage_requirements,
)
from servers.kit import Day, Db, Offset, PageSize, Ref, ToolError, whole_cents

DealAmount = Annotated[
    float,
    Field(
        gt=0,
        le=100_000_000,
        description="Deal value in dollars.",
        examples=[4500.0, 12000.0, 25000.0, 48000.0],
    ),
    AfterValidator(whole_cents),
]
DealName = Annotated[
    str,
    Field(
        min_length=1,
        max_length=120,
        examples=[
            "Platform Expansion",
            "Q3 Pilot",
            "Team Licenses 2026",
            "Security Add-on",
            "Data Migration",
        ],
    ),
]
ExternalContact = Ref[Contact, EXTERNAL_CONTACT]


def _opening_stage(db: Db, pipeline: str | None, stage: str | None) -> tuple[dict, dict]:
    """The pipeline (default: the default one) and the stage a new deal starts in (default: its
    first), which must be an open stage of that pipeline."""
    pipe = db.get(Pipeline, pipeline) if pipeline else db.one("SELECT * FROM pipelines WHERE is_default = 1")
    first = db.one("SELECT * FROM stages WHERE pipeline_id = ? ORDER BY position LIMIT 1", pipe["id"])
    st = stage_of(db, stage) if stage else first
    if st["pipeline_id"] != pipe["id"]:
        raise ToolError(
            f"stage {st['id']} belongs to pipeline {st['pipeline_id']}, not {pipe['id']}; "
            f"stages of {pipe['id']}: {pipeline_stages(db, pipe['id'])}"
        )
    if st["is_closed"]:
        open_ids = db.all(
            "SELECT id FROM stages WHERE pipeline_id = ? AND is_closed = 0 ORDER BY position", pipe["id"]
        )
        raise ToolError(
            f"a new deal starts in an open stage, not {st['id']} ({st['name']}); "
            f"open stages of {pipe['id']}: {', '.join(r['id'] for r in open_ids)}"
        )
    return pipe, st


def insert_deal(
    db: Db,
    actor: dict,
    *,
    name: str,
    account: dict,
    amount: float,
    close_date: str,
    pipeline: str | None,
    stage: str | None,
    contact: dict | None,
    owner: dict,
) -> dict:
    """A new open deal with its primary contact's role and its first stage-history row."""
    pipe, st = _opening_stage(db, pipeline, stage)
    future_day(db, close_date, "close date")
    draft = {
        "id": "the new deal",
        "name": name,
        "amount": amount,
        "primary_contact_id": contact and contact["id"],
    }
    stage_requirements(db, draft, st, None)
    deal = db.insert(
        Deal,
        name=name,
        account_id=account["id"],
        primary_contact_id=contact["id"] if contact else None,
        pipeline_id=pipe["id"],
        stage_id=st["id"],
        status="open",
        amount=amount,
        close_date=close_date,
        owner_id=owner["id"],
        lost_reason=None,
        created_at=db.stamp(),
        closed_at=None,
        last_activity_at=db.stamp(),
    )
    if contact:
        db.add(DealContact, deal_id=deal["id"], contact_id=contact["id"], role="decision_maker")
        db.update(Contact, contact["id"], lifecycle_stage=lifecycle_forward(contact, "opportunity"))
    db.add(
        StageHistory,
        deal_id=deal["id"],
        from_stage_id=None,
        to_stage_id=st["id"],
        by_id=actor["id"],
        at=db.stamp(),
    )
    return deal


@crm.tool(
    returns=Deal,
    says=[
        "show me the open deals in stage {stage}",
        "which deals of {owner} are overdue?",
        "list the deals closing before {closing_before}",
        "what deals do we have with {account}?",
    ],
)
def list_deals(
    db: Db,
    pipeline: Ref[Pipeline] | None = None,
    stage: Ref[Stage] | None = None,
    owner: AnyUser | None = None,
    account: Ref[Account] | None = None,
    status: DealStatus | None = None,
    closing_before: Day | None = None,
    overdue_only: bool = False,
    limit: PageSize = 20,
    offset: Offset = 0,
) -> dict:
    """Deals by pipeline, stage, owner, account or status, soonest close first.

    Args:
        pipeline: Only deals in this pipeline (sales or renewals).
        stage: Only deals in this stage.
        owner: Only deals this user owns.
        account: Only deals with this account.
        status: open, won or lost.
        closing_before: Only deals whose close date is before this day.
        overdue_only: Only open deals whose close date has passed.
    """
    conds, params = ["1"], []
    for col, value in (
        ("pipeline_id", pipeline),
        ("stage_id", stage),
        ("owner_id", owner),
        ("account_id", account),
        ("status", status),
    ):
        if value:
            conds.append(f"{col} = ?")
            params.append(value)
    if closing_before:
        conds.append("close_date < ?")
        params.append(closing_before)
    if overdue_only:
        conds.append("status = 'open' AND close_date < ?")
        params.append(db.today.isoformat())
    select = "SELECT id, name, account_id, stage_id, status, amount, close_date, owner_id, primary_contact_id"
    where = f"FROM deals WHERE {' AND '.join(conds)}"
    return page(db, select, where, params, "close_date, id", "deals", limit, offset)


@crm.tool(returns=Deal, says=["show me the deal {deal}", "where does {deal} stand?"])
def get_deal(db: Db, deal: Ref[Deal]) -> dict:
    """One deal with its stage, account, contacts and their roles, stage history and recent activities."""
    d = db.get(Deal, deal)
    stage = db.get(Stage, d["stage_id"])
    return {
        **d,
        "stage": {k: stage[k] for k in ("id", "name", "probability")},
        "account": db.one("SELECT id, name FROM accounts WHERE id = ?", d["account_id"]),
        "owner": db.one("SELECT id, name FROM users WHERE id = ?", d["owner_id"]),
        "contacts": db.all(
            "SELECT c.id, c.name, c.email, dc.role FROM deal_contacts dc JOIN contacts c ON c.id = dc.contact_id "
            "WHERE dc.deal_id = ? ORDER BY dc.id",
            deal,
        ),
        "stage_history": db.all(
            "SELECT from_stage_id, to_stage_id, by_id, at FROM stage_history WHERE deal_id = ? ORDER BY at, id",
            deal,
        ),
        "recent_activities": db.all(
            "SELECT id, kind, subject, created_at, due_on, done FROM activities WHERE deal_id = ? "
            "ORDER BY created_at DESC, id DESC LIMIT 10",
            deal,
        ),
    }


@crm.tool(
    writes=[Deal, DealContact, StageHistory, Contact],
    returns=Deal,
    says=[
        "open a deal '{name}' with {account} for {amount} closing {close_date}",
        "create a {amount} deal called '{name}' on {account}, expected to close on {close_date}, "
        "with {primary_contact} as the main contact",
        "start a deal '{name}' for {account} worth {amount}, close date {close_date}, in stage {stage}",
    ],
)
def create_deal(
    db: Db,
    name: DealName,
    account: Ref[Account, f"{EXTERNAL_ACCOUNT} AND {EDITABLE}"],
    amount: DealAmount,
    close_date: Day,
    pipeline: Ref[Pipeline] | None = None,
    stage: Ref[Stage, "is_closed = 0"] | None = None,
    primary_contact: MyContact | None = None,
    owner: Assignee | None = None,
) -> dict:
    """Open a deal on an account you may edit. It starts in the pipeline's first stage unless a
    stage is given; a stage may require an amount or a primary contact.

    Args:
        name: What the deal is called.
        account: The customer account.
        amount: Expected value in dollars.
        close_date: The day it is expected to close (today or later).
        pipeline: sales (the default) or renewals.
        stage: An open stage of that pipeline.
        primary_contact: The main contact, someone at the account.
        owner: Who owns the deal (default: you).
    """
    actor = db.actor()
    a = account_for_deal(db, account)
    check_edit(db, actor, Account, a)
    contact = contact_at(db, primary_contact, a) if primary_contact else None
    owner_row = check_assign(db, actor, owner) if owner else actor
    if stage and not pipeline:
        pipeline = stage_of(db, stage)["pipeline_id"]
    return insert_deal(
        db,
        actor,
        name=name,
        account=a,
        amount=amount,
        close_date=close_date,
        pipeline=pipeline,
        stage=stage,
        contact=contact,
        owner=owner_row,
    )


@crm.tool(
    writes=[Deal, DealContact, Contact],
    returns=Deal,
    idempotent=True,
    says=[
        "change the amount of {deal} to {amount}",
        "push the close date of {deal} to {close_date}",
        "hand {deal} over to {owner}",
        "make {primary_contact} the primary contact on {deal}",
    ],
)
def update_deal(
    db: Db,
    deal: MyDeal,
    amount: DealAmount | None = None,
    close_date: Day | None = None,
    owner: Assignee | None = None,
    primary_contact: MyContact | None = None,
    name: DealName | None = None,
) -> dict:
    """Edit an open deal's amount, close date (today or later), owner, primary contact or name.

    Args:
        deal: The deal.
        amount: New expected value.
        close_date: New expected close day.
        owner: The user who will own it.
        primary_contact: The new main contact, someone at the deal's account.
        name: A new name.
    """
    actor = db.actor()
    d = open_deal(db, deal, "be edited")
    check_edit(db, actor, Deal, d)
    asked = {
        "amount": amount,
        "close_date": close_date,
        "owner_id": owner,
        "primary_contact_id": primary_contact,
    }
    changes = nothing_changes(f"deal {label(d)}", d, {**asked, "name": name})
    if "close_date" in changes:
        future_day(db, close_date, "close date")
    if "owner_id" in changes:
        check_assign(db, actor, owner)
    if "primary_contact_id" in changes:
        contact = contact_at(db, primary_contact, db.get(Account, d["account_id"]))
        if not db.one(
            "SELECT 1 FROM deal_contacts WHERE deal_id = ? AND contact_id = ?", deal, primary_contact
        ):
            db.add(DealContact, deal_id=deal, contact_id=primary_contact, role="decision_maker")
        db.update(Contact, primary_contact, lifecycle_stage=lifecycle_forward(contact, "opportunity"))
    return db.update(Deal, deal, **changes, last_activity_at=db.stamp())


@crm.tool(
    writes=[DealContact],
    returns=DealContact,
    says=[
        "add {contact} to {deal} as {role}",
        "{contact} is a {role} on {deal}; add them to it",
    ],
)
def add_contact_to_deal(db: Db, deal: MyDeal, contact: ExternalContact, role: DealRole) -> dict:
    """Associate a contact of the deal's account with an open deal, in a role.

    Args:
        deal: The deal.
        contact: Someone at the deal's account.
        role: decision_maker, champion, influencer or user.
    """
    actor = db.actor()
    d = open_deal(db, deal, "take new contacts")
    check_edit(db, actor, Deal, d)
    c = contact_at(db, contact, db.get(Account, d["account_id"]))
    on = db.one("SELECT role FROM deal_contacts WHERE deal_id = ? AND contact_id = ?", deal, contact)
    if on:
        raise ToolError(f"contact {label(c)} is already on deal {label(d)} as {on['role']}")
    return db.insert(DealContact, deal_id=deal, contact_id=contact, role=role)


def reopen_close_date(db: Db, deal: dict) -> str:
    """A reopened deal keeps its close date unless that has passed; then it moves 30 days out."""
    if deal["close_date"] >= db.today.isoformat():
        return deal["close_date"]
    return (db.today + timedelta(days=30)).isoformat()


__all__ = ["insert_deal", "reopen_close_date"]
