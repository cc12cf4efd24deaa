"""Activities (calls, emails, meetings, notes) and follow-up tasks with due days."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from servers.domains.crm.model import (
    OUTBOUND,
    Account,
    Activity,
    ActivityKind,
    Contact,
    Deal,
    Lead,
    User,
    crm,
)
from servers.domains.crm.rules import (
    EXTERNAL_CONTACT,
    OPEN_TASK,
    AnyUser,
    Assignee,
    check_assign,
    editable_lead,
    future_day,
    label,
    page,
    present,
)
from servers.kit import Day, Db, LongText, Offset, PageSize, Ref, ShortText, ToolError

Subject = Annotated[
    ShortText,
    Field(
        examples=[
            "Discovery call",
            "Sent the revised quote",
            "Quarterly business review",
            "Demo of the reporting module",
            "Pricing questions",
        ]
    ),
]
Body = Annotated[
    LongText,
    Field(
        examples=[
            "They want a trial for the finance team before committing.",
            "Budget approved for Q3; legal review next.",
            "Asked for two customer references in logistics.",
        ]
    ),
]
TaskSubject = Annotated[
    ShortText,
    Field(
        examples=[
            "Send the contract draft",
            "Follow up on the proposal",
            "Book a demo",
            "Call about the renewal",
        ]
    ),
]
TaskState = Literal["open", "done", "all"]
LiveLead = Ref[Lead, "status != 'converted'"]
Reachable = Ref[Contact, f"do_not_contact = 0 AND {EXTERNAL_CONTACT}"]


def _targets(db: Db, contact: str | None, deal: str | None, account: str | None, lead: str | None) -> dict:
    """The records an activity is about; the account follows from the contact or the deal, and
    they must agree with each other."""
    if not (contact or deal or account or lead):
        raise ToolError("say what the activity is about: give a contact, deal, account or lead")
    c = db.get(Contact, contact) if contact else None
    d = db.get(Deal, deal) if deal else None
    if lead:
        editable_lead(db, lead)
    if account:
        db.get(Account, account)
    accounts = {x for x in (account, c and c["account_id"], d and d["account_id"]) if x}
    if len(accounts) > 1:
        raise ToolError(
            f"the records do not belong together: contact, deal and account point at accounts {', '.join(sorted(accounts))}"
        )
    return {"contact_id": contact, "deal_id": deal, "lead_id": lead, "account_id": next(iter(accounts), None)}


@crm.tool(
    writes=[Activity, Deal],
    returns=Activity,
    says=[
        "log a {kind} with {contact}: {subject}",
        "log a {kind} on {deal}: {subject}",
        "record a {kind} on the lead {lead} about '{subject}'",
        "log a {kind} about {deal} titled '{subject}': {body}",
    ],
)
def log_activity(
    db: Db,
    kind: ActivityKind,
    subject: Subject,
    body: Body | None = None,
    contact: Reachable | None = None,
    deal: Ref[Deal] | None = None,
    account: Ref[Account] | None = None,
    lead: LiveLead | None = None,
) -> dict:
    """Record a call, email, meeting or note on a contact, deal, account or lead (at least one).
    Calls and emails cannot be logged with a contact who asked not to be contacted.

    Args:
        kind: call, email, meeting or note.
        subject: A short title.
        body: What happened.
        contact: The person it was with.
        deal: The deal it was about.
        account: The account it was about.
        lead: The lead it was with (not a converted one).
    """
    actor = db.actor()
    where = _targets(db, contact, deal, account, lead)
    if contact and kind in OUTBOUND:
        c = db.get(Contact, contact)
        if c["do_not_contact"]:
            raise ToolError(
                f"contact {label(c)} asked not to be contacted; a {kind} cannot be logged with them "
                "(a note or a meeting they asked for can)"
            )
    row = db.insert(
        Activity,
        kind=kind,
        subject=subject,
        body=body or "",
        due_on=None,
        done=False,
        completed_at=None,
        owner_id=actor["id"],
        **where,
        created_at=db.stamp(),
    )
    if deal:
        db.update(Deal, deal, last_activity_at=db.stamp())
    return present(row)


@crm.tool(
    writes=[Activity],
    returns=Activity,
    says=[
        "remind me to '{subject}' on {due_day} for {deal}",
        "create a task '{subject}' due {due_day} for {owner}",
        "add a follow-up task '{subject}' about {contact}, due {due_day}",
    ],
)
def create_task(
    db: Db,
    subject: TaskSubject,
    due_day: Day,
    contact: Ref[Contact] | None = None,
    deal: Ref[Deal] | None = None,
    account: Ref[Account] | None = None,
    lead: LiveLead | None = None,
    owner: Assignee | None = None,
) -> dict:
    """Create a follow-up task due on a day (today or later), for you or someone you may assign to.

    Args:
        subject: What has to be done.
        due_day: The day it is due.
        contact: The contact it concerns.
        deal: The deal it concerns.
        account: The account it concerns.
        lead: The lead it concerns.
        owner: Who does it (default: you).
    """
    actor = db.actor()
    future_day(db, due_day, "due day")
    owner_row = check_assign(db, actor, owner) if owner else actor
    where = (
        _targets(db, contact, deal, account, lead)
        if contact or deal or account or lead
        else {"contact_id": None, "deal_id": None, "lead_id": None, "account_id": None}
    )
    row = db.insert(
        Activity,
        kind="task",
        subject=subject,
        body="",
        due_on=due_day,
        done=False,
        completed_at=None,
        owner_id=owner_row["id"],
        **where,
        created_at=db.stamp(),
    )
    return present(row)


@crm.tool(
    writes=[Activity],
    returns=Activity,
    idempotent=True,
    says=["mark the task {task} as done", "I finished {task}, tick it off"],
)
def complete_task(db: Db, task: Ref[Activity, OPEN_TASK]) -> dict:
    """Mark an open task done. Only its owner, the owner's manager or an admin may complete it."""
    actor = db.actor()
    t = db.get(Activity, task)
    if t["kind"] != "task":
        raise ToolError(f"activity {task} is a {t['kind']}, not a task; only tasks are completed")
    if t["done"]:
        raise ToolError(f"task {task} ('{t['subject']}') was already completed at {t['completed_at']}")
    owner = db.get(User, t["owner_id"])
    if actor["role"] != "admin" and actor["id"] != owner["id"] and owner["manager_id"] != actor["id"]:
        raise ToolError(
            f"task {task} belongs to {owner['name']} ({owner['id']}); only they, their manager or an admin "
            "may complete it"
        )
    return present(db.update(Activity, task, done=True, completed_at=db.stamp()))


@crm.tool(
    returns=Activity,
    says=[
        "what tasks do I have due before {due_before}?",
        "show the overdue tasks of {owner}",
        "list the {status} tasks on {deal}",
    ],
)
def list_tasks(
    db: Db,
    owner: AnyUser | None = None,
    status: TaskState = "open",
    overdue_only: bool = False,
    due_before: Day | None = None,
    deal: Ref[Deal] | None = None,
    limit: PageSize = 20,
    offset: Offset = 0,
) -> dict:
    """Tasks by owner (default: you, unless a deal is given), state and due day, soonest due first.

    Args:
        owner: Whose tasks.
        status: open (default), done or all.
        overdue_only: Only open tasks whose due day has passed.
        due_before: Only tasks due before this day.
        deal: Only tasks on this deal.
    """
    conds, params = ["kind = 'task'"], []
    if owner or not deal:
        conds.append("owner_id = ?")
        params.append(owner or db.actor()["id"])
    if deal:
        conds.append("deal_id = ?")
        params.append(deal)
    if status != "all":
        conds.append("done = ?")
        params.append(int(status == "done"))
    if overdue_only:
        conds.append("done = 0 AND due_on < ?")
        params.append(db.today.isoformat())
    if due_before:
        conds.append("due_on < ?")
        params.append(due_before)
    select = (
        "SELECT id, subject, due_on, done, completed_at, owner_id, contact_id, account_id, deal_id, lead_id"
    )
    where = f"FROM activities WHERE {' AND '.join(conds)}"
    out = page(db, select, where, params, "due_on, id", "tasks", limit, offset)
    today = db.today.isoformat()
    out["tasks"] = [
        {**t, "done": bool(t["done"]), "overdue": not t["done"] and t["due_on"] < today} for t in out["tasks"]
    ]
    return out
