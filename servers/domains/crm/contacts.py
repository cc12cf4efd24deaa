"""Contacts: finding, creating and editing them, and merging a duplicate into its primary record."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from servers.domains.crm.model import (
    LIFECYCLE,
    Account,
    Activity,
    Contact,
    Deal,
    DealContact,
    Lead,
    Lifecycle,
    crm,
)
from servers.domains.crm.rules import (
    EXTERNAL_ACCOUNT,
    LATER,
    ORIGINAL,
    AnyUser,
    Assignee,
    MyContact,
    check_assign,
    check_edit,
    label,
    nothing_changes,
    page,
    present,
    search_order,
)
from servers.kit import Db, Email, Offset, PageSize, Ref, ToolError
from servers.kit.world import world

ContactQuery = Annotated[
    str, Field(min_length=1, max_length=100, examples=["Garcia", "Maria", "Smith", "Chen", "Nguyen", "David"])
]
FirstName = Annotated[str, Field(min_length=1, max_length=60, examples=["Priya", "Marcus", "Elena", "Tomas"])]
LastName = Annotated[
    str, Field(min_length=1, max_length=60, examples=["Okafor", "Lindqvist", "Reyes", "Chen"])
]
Title = Annotated[
    str,
    Field(min_length=1, max_length=100, examples=["VP Operations", "Head of IT", "CFO", "Procurement Lead"]),
]
Phone = Annotated[
    str,
    Field(
        pattern=r"^\+?[0-9][0-9 ()-]{6,20}$", max_length=22, examples=["+1-503-555-0142", "+1-312-555-0199"]
    ),
]


def _new_emails() -> list[str]:
    """Addresses at companies every scale of the shared world has (so the account can be found)."""
    people = ("procurement", "it.manager", "finance", "operations", "office", "purchasing")
    companies = world(0, "small").companies
    return [f"{p}@{companies[(i * 7 + 3) % len(companies)].domain}" for i, p in enumerate(people)]


NewEmail = Annotated[Email, Field(examples=_new_emails())]


def _email_taken(db: Db, email: str, but: str | None = None) -> None:
    # emails are stored lowercased, so the unique index answers this
    row = db.one("SELECT id, name FROM contacts WHERE email = ? AND id != ?", email.lower(), but or "")
    if row:
        raise ToolError(
            f"contact {label(row)} already uses the email {email}; merge instead of adding a second record"
        )


@crm.tool(
    returns=Contact,
    says=[
        "find contacts named {query}",
        "search the contacts for '{query}'",
        "which contacts are at the {lifecycle_stage} stage?",
        "list the contacts owned by {owner}",
    ],
)
def search_contacts(
    db: Db,
    query: ContactQuery | None = None,
    lifecycle_stage: Lifecycle | None = None,
    owner: AnyUser | None = None,
    account: Ref[Account] | None = None,
    limit: PageSize = 20,
    offset: Offset = 0,
) -> dict:
    """Search contacts by name or email; filter by lifecycle stage, owner or account.

    Args:
        query: Words of the contact's name or email.
        lifecycle_stage: Only contacts at this lifecycle stage.
        owner: Only contacts this user owns.
        account: Only contacts at this account.
    """
    conds, params = ["1"], []
    if query:
        like = f"%{query.strip()}%"
        conds.append("(c.name LIKE ? OR c.email LIKE ?)")
        params += [like, like]
    for col, value in (
        ("c.lifecycle_stage", lifecycle_stage),
        ("c.owner_id", owner),
        ("c.account_id", account),
    ):
        if value:
            conds.append(f"{col} = ?")
            params.append(value)
    select = (
        "SELECT c.id, c.name, c.email, c.title, c.account_id, (SELECT name FROM accounts WHERE id = c.account_id) "
        "AS account, c.owner_id, c.lifecycle_stage, c.do_not_contact"
    )
    where = f"FROM contacts c WHERE {' AND '.join(conds)}"
    out = page(db, select, where, params, search_order("c.name, c.id", query), "contacts", limit, offset)
    out["contacts"] = [{**c, "do_not_contact": bool(c["do_not_contact"])} for c in out["contacts"]]
    return out


@crm.tool(returns=Contact, says=["show me the contact {contact}", "pull up the record of {contact}"])
def get_contact(db: Db, contact: Ref[Contact]) -> dict:
    """One contact with their account, owner, deals and latest activities."""
    c = db.get(Contact, contact)
    account = db.find(Account, c["account_id"]) if c["account_id"] else None
    deals = db.all(
        "SELECT d.id, d.name, d.stage_id, d.status, d.amount, dc.role FROM deal_contacts dc "
        "JOIN deals d ON d.id = dc.deal_id WHERE dc.contact_id = ? ORDER BY d.close_date DESC, d.id",
        contact,
    )
    recent = db.all(
        "SELECT id, kind, subject, created_at, due_on, done FROM activities WHERE contact_id = ? "
        "ORDER BY created_at DESC, id DESC LIMIT 10",
        contact,
    )
    return {
        **c,
        "do_not_contact": bool(c["do_not_contact"]),
        "account": {"id": account["id"], "name": account["name"]} if account else None,
        "owner": db.one("SELECT id, name FROM users WHERE id = ?", c["owner_id"]),
        "deals": deals,
        "recent_activities": [{**r, "done": bool(r["done"])} for r in recent],
    }


@crm.tool(
    writes=[Contact],
    returns=Contact,
    says=[
        "add a contact for {email}: first name {first_name}, last name {last_name}",
        "create a contact at {account} with email {email}, first name {first_name} and last name {last_name}",
        "new contact: email {email}, first name {first_name}, last name {last_name}, title {title}",
    ],
)
def create_contact(
    db: Db,
    first_name: FirstName,
    last_name: LastName,
    email: NewEmail,
    account: Ref[Account, EXTERNAL_ACCOUNT] | None = None,
    title: Title | None = None,
    phone: Phone | None = None,
    owner: Assignee | None = None,
) -> dict:
    """Create a contact. The email must be new to the CRM; the account defaults to the one whose
    domain the email is at, and the owner to you.

    Args:
        first_name: Given name.
        last_name: Family name.
        email: Their email address.
        account: The account they work at.
        title: Their job title.
        phone: Their phone number.
        owner: The user who will own the contact (default: you).
    """
    actor = db.actor()
    email = email.lower()
    _email_taken(db, email)
    domain = email.rsplit("@", 1)[1].lower()
    if account is None:
        match = db.one("SELECT id FROM accounts WHERE domain = ?", domain)
        account = match["id"] if match else None
    if account is not None and db.get(Account, account)["type"] == "internal":
        raise ToolError(
            f"account {account} is our own company (internal); colleagues are added by sales operations"
        )
    owner_row = check_assign(db, actor, owner) if owner else actor
    row = db.insert(
        Contact,
        first_name=first_name.strip(),
        last_name=last_name.strip(),
        name=f"{first_name.strip()} {last_name.strip()}",
        email=email,
        phone=phone,
        title=title,
        account_id=account,
        owner_id=owner_row["id"],
        lifecycle_stage="lead",
        do_not_contact=False,
        created_at=db.stamp(),
    )
    return present(row)


@crm.tool(
    writes=[Contact],
    returns=Contact,
    idempotent=True,
    says=[
        "move {contact} to the {lifecycle_stage} lifecycle stage",
        "{contact} asked not to be contacted any more: set do-not-contact to {do_not_contact}",
        "change the title of {contact} to {title}",
        "give {contact} to {owner}",
        "update the phone number of {contact} to {phone}",
    ],
)
def update_contact(
    db: Db,
    contact: MyContact,
    title: Title | None = None,
    phone: Phone | None = None,
    owner: Assignee | None = None,
    lifecycle_stage: Lifecycle | None = None,
    do_not_contact: bool | None = None,
) -> dict:
    """Edit a contact: title, phone, owner, lifecycle stage (only forward) or the do-not-contact flag.

    Args:
        contact: The contact.
        title: New job title.
        phone: New phone number.
        owner: The user who will own the contact.
        lifecycle_stage: A later lifecycle stage (subscriber, lead, mql, sql, opportunity, customer,
            evangelist, other, in that order).
        do_not_contact: true when they opted out of calls and emails.
    """
    actor = db.actor()
    c = db.get(Contact, contact)
    check_edit(db, actor, Contact, c)
    asked = {"title": title, "phone": phone, "owner_id": owner, "lifecycle_stage": lifecycle_stage}
    asked["do_not_contact"] = do_not_contact
    changes = nothing_changes(
        f"contact {label(c)}", {**c, "do_not_contact": bool(c["do_not_contact"])}, asked
    )
    if "lifecycle_stage" in changes:
        now, want = LIFECYCLE.index(c["lifecycle_stage"]), LIFECYCLE.index(lifecycle_stage)
        if want < now:
            later = ", ".join(LIFECYCLE[now + 1 :]) or "none"
            raise ToolError(
                f"contact {label(c)} is at lifecycle stage {c['lifecycle_stage']}; stages only move forward "
                f"(later stages: {later})"
            )
    if "owner_id" in changes:
        check_assign(db, actor, owner)
    return present(db.update(Contact, contact, **changes))


def _same_person(a: dict, b: dict) -> bool:
    """Loosely the same: the same name, or the same email mailbox name, ignoring dots and case."""

    def box(c: dict) -> str:
        return c["email"].split("@")[0].replace(".", "").casefold()

    return a["name"].casefold() == b["name"].casefold() or box(a) == box(b)


@crm.tool(
    writes=[Contact, Activity, DealContact, Deal, Lead],
    returns=Contact,
    destructive=True,
    says=[
        "merge the duplicate contact {duplicate} into {primary}",
        "{duplicate} is the same person as {primary}; merge them and keep {primary}",
    ],
)
def merge_contacts(db: Db, primary: Ref[Contact, ORIGINAL], duplicate: Ref[Contact, LATER]) -> dict:
    """Merge a duplicate contact into the primary one and delete the duplicate.

    Both records must be the same person (same name or same email mailbox). The duplicate's
    activities, deal roles and lead conversions move to the primary; do-not-contact carries over
    if either had it, and the later lifecycle stage is kept.

    Args:
        primary: The record to keep.
        duplicate: The record to merge away.
    """
    if primary == duplicate:
        raise ToolError(f"cannot merge contact {primary} into itself; pick two different records")
    actor = db.actor()
    keep, drop = db.get(Contact, primary), db.get(Contact, duplicate)
    for row in (keep, drop):
        check_edit(db, actor, Contact, row)
    if not _same_person(keep, drop):
        raise ToolError(
            f"contacts {label(keep)} <{keep['email']}> and {label(drop)} <{drop['email']}> do not look like the "
            "same person (neither the names nor the email mailboxes match); only duplicates can be merged"
        )
    moved = db.execute("UPDATE activities SET contact_id = ? WHERE contact_id = ?", primary, duplicate)
    both = db.all("SELECT deal_id FROM deal_contacts WHERE contact_id = ?", primary)
    for r in both:
        db.execute("DELETE FROM deal_contacts WHERE contact_id = ? AND deal_id = ?", duplicate, r["deal_id"])
    roles = db.execute("UPDATE deal_contacts SET contact_id = ? WHERE contact_id = ?", primary, duplicate)
    db.execute("UPDATE deals SET primary_contact_id = ? WHERE primary_contact_id = ?", primary, duplicate)
    db.execute("UPDATE leads SET converted_contact_id = ? WHERE converted_contact_id = ?", primary, duplicate)
    stage = max(keep["lifecycle_stage"], drop["lifecycle_stage"], key=LIFECYCLE.index)
    fields = {
        "do_not_contact": bool(keep["do_not_contact"] or drop["do_not_contact"]),
        "lifecycle_stage": stage,
    }
    for col in ("phone", "title", "account_id"):
        if not keep[col] and drop[col]:
            fields[col] = drop[col]
    db.delete(Contact, duplicate)
    merged = db.update(Contact, primary, **fields)
    return {**present(merged), "merged_away": duplicate, "activities_moved": moved, "deal_roles_moved": roles}
