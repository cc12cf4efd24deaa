"""Leads: listing, capturing, qualifying, and converting a qualified lead into an account, a contact
and optionally a deal (once: a converted lead is read-only)."""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated, Literal

from pydantic import Field

from servers.domains.crm.deals import DealAmount, DealName, insert_deal
from servers.domains.crm.model import (
    LEAD_MOVES,
    SOURCE_SCORE,
    TERRITORY_OF_CITY,
    Account,
    Activity,
    Contact,
    Deal,
    DealContact,
    Lead,
    LeadSource,
    LeadStatus,
    Pipeline,
    StageHistory,
    Territory,
    User,
    crm,
)
from servers.domains.crm.rules import (
    EDITABLE,
    QUALIFIED_LEAD,
    AnyUser,
    Assignee,
    check_assign,
    check_edit,
    editable_lead,
    label,
    lifecycle_forward,
    nothing_changes,
    page,
    search_order,
)
from servers.kit import City, Day, Db, Email, Offset, PageSize, Ref, ShortText, ToolError

AnyStatus = Literal["new", "working", "nurturing", "qualified", "unqualified", "converted"]
Score = Annotated[int, Field(ge=0, le=100, description="Lead score, 0-100.", examples=[40, 50, 60, 70, 80])]
LeadQuery = Annotated[
    str, Field(min_length=1, max_length=100, examples=["Garcia", "Kim", "Patel", "Johnson", "Lee"])
]
Company = Annotated[
    str,
    Field(
        min_length=1, max_length=120, examples=["Brightwater Analytics", "Kestrel Foods", "Northwind Freight"]
    ),
]
LeadEmail = Annotated[
    Email,
    Field(
        examples=[
            "info@brightwaterlabs.example",
            "sales@kestrelfoods.example",
            "hello@northwindfreight.example",
            "contact@bluefinhealth.example",
        ]
    ),
]
FirstName = Annotated[str, Field(min_length=1, max_length=60, examples=["Ana", "Li", "Sam", "Noor", "Felix"])]
LastName = Annotated[
    str, Field(min_length=1, max_length=60, examples=["Silva", "Wei", "Ortiz", "Haddad", "Brandt"])
]
Note = Annotated[
    ShortText,
    Field(
        examples=[
            "no budget this year",
            "student project",
            "spoke with them, wants a demo next week",
            "bought from a competitor",
        ]
    ),
]


def _lead_territory(db: Db, city: str, owner: dict) -> None:
    """A lead is worked by the team of its city's territory."""
    territory = TERRITORY_OF_CITY[city]
    if owner["role"] != "admin" and owner["territory_id"] != territory:
        cities = db.get(Territory, territory)["cities"]
        raise ToolError(
            f"a lead in {city} belongs to territory {territory} ({cities}); {owner['name']} ({owner['id']}) "
            f"is on team {owner['territory_id']} and cannot own it"
        )


@crm.tool(
    returns=Lead,
    says=[
        "show me the {status} leads",
        "list the leads of {owner} with a score of at least {min_score}",
        "which leads came in through {source}?",
        "find the lead '{query}'",
    ],
)
def list_leads(
    db: Db,
    status: AnyStatus | None = None,
    source: LeadSource | None = None,
    owner: AnyUser | None = None,
    min_score: Score | None = None,
    query: LeadQuery | None = None,
    limit: PageSize = 20,
    offset: Offset = 0,
) -> dict:
    """Leads by status, source, owner, minimum score or words of their name, email or company,
    best score first.

    Args:
        status: new, working, nurturing, qualified, unqualified or converted.
        source: web, referral, event, outbound or partner.
        owner: Only leads this user owns.
        min_score: Only leads scoring at least this.
        query: Words of the lead's name, email or company.
    """
    conds, params = ["1"], []
    for col, value in (("status", status), ("source", source), ("owner_id", owner)):
        if value:
            conds.append(f"{col} = ?")
            params.append(value)
    if min_score is not None:
        conds.append("score >= ?")
        params.append(min_score)
    if query:
        like = f"%{query.strip()}%"
        conds.append("(name LIKE ? OR email LIKE ? OR company_name LIKE ?)")
        params += [like, like, like]
    select = (
        "SELECT id, name, email, company_name, city, source, status, score, owner_id, converted_contact_id"
    )
    return page(
        db,
        select,
        f"FROM leads WHERE {' AND '.join(conds)}",
        params,
        search_order("score DESC, id", query),
        "leads",
        limit,
        offset,
    )


def _refuse_open_duplicate(db: Db, email: str) -> None:
    """One open lead per email: a converted or unqualified one does not count."""
    dup = db.one(
        "SELECT id, name, status FROM leads WHERE email = ? AND status NOT IN ('converted', 'unqualified')",
        email,
    )
    if dup:
        raise ToolError(
            f"lead {label(dup)} already tracks {email} (status {dup['status']}); update it instead"
        )


def _lead_company_and_city(
    db: Db, email: str, company_name: str | None, city: str | None, owner_row: dict
) -> tuple[str, str]:
    """The given company and city, else the account at the email's domain, else the domain's name
    and the first city of the owner's territory."""
    domain = email.rsplit("@", 1)[1]
    match = db.one("SELECT name, city FROM accounts WHERE domain = ?", domain)
    company_name = company_name or (match["name"] if match else domain.split(".")[0].title())
    if city is None:
        city = (
            match["city"] if match else db.get(Territory, owner_row["territory_id"])["cities"].split(", ")[0]
        )
    return company_name, city


@crm.tool(
    writes=[Lead],
    returns=Lead,
    says=[
        "add a {source} lead: email {email}, first name {first_name}, last name {last_name}",
        "new {source} lead in {city}: {email}, first name {first_name}, last name {last_name}",
        "add a lead from {company_name}, source {source}: {email}, first name {first_name}, last name {last_name}",
    ],
)
def create_lead(
    db: Db,
    first_name: FirstName,
    last_name: LastName,
    email: LeadEmail,
    source: LeadSource,
    company_name: Company | None = None,
    city: Annotated[
        City, Field(examples=["Portland", "Seattle", "San Francisco", "Los Angeles", "Denver", "Chicago"])
    ]
    | None = None,
    title: ShortText | None = None,
    owner: Assignee | None = None,
) -> dict:
    """Capture a new lead (status new, scored by its source). An open lead for the same email is refused.

    Args:
        first_name: Given name.
        last_name: Family name.
        email: Their email address.
        source: web, referral, event, outbound or partner.
        company_name: The company they work for (default: the account at the email's domain, else the
            domain's name).
        city: Where they are; decides the territory (default: the matching account's city, else
            the first city of the owner's territory).
        title: Their job title.
        owner: Who works the lead (default: you); must be on the team of the lead's territory.
    """
    actor = db.actor()
    email = email.lower()  # stored lowercased, like every email in the CRM
    _refuse_open_duplicate(db, email)
    owner_row = check_assign(db, actor, owner) if owner else actor
    company_name, city = _lead_company_and_city(db, email, company_name, city, owner_row)
    _lead_territory(db, city, owner_row)
    return db.insert(
        Lead,
        first_name=first_name,
        last_name=last_name,
        name=f"{first_name} {last_name}",
        email=email,
        phone=None,
        title=title,
        company_name=company_name,
        city=city,
        source=source,
        status="new",
        score=SOURCE_SCORE[source],
        owner_id=owner_row["id"],
        unqualified_reason=None,
        converted_contact_id=None,
        converted_account_id=None,
        converted_deal_id=None,
        converted_at=None,
        created_at=db.stamp(),
    )


@crm.tool(
    writes=[Lead, Activity],
    returns=Lead,
    idempotent=True,
    says=[
        "mark the lead {lead} as {status}",
        "{lead} is not a fit: set them to {status}, note '{note}'",
        "set the score of {lead} to {score}",
        "give the lead {lead} to {owner}",
    ],
)
def update_lead(
    db: Db,
    lead: Ref[Lead, f"status != 'converted' AND {EDITABLE}"],
    status: LeadStatus | None = None,
    score: Score | None = None,
    owner: Assignee | None = None,
    note: Note | None = None,
) -> dict:
    """Change a lead's status, score or owner; a note is logged on the lead. Marking a lead
    unqualified needs the reason as the note. Converted leads are read-only.

    Args:
        lead: The lead.
        status: new leads move on to working, nurturing, qualified or unqualified (never back to new);
            use convert_lead to convert.
        score: The new score.
        owner: Who will work the lead (on the team of its territory).
        note: Why; required when marking it unqualified.
    """
    actor = db.actor()
    x = editable_lead(db, lead)
    check_edit(db, actor, Lead, x)
    changes = nothing_changes(f"lead {label(x)}", x, {"status": status, "score": score, "owner_id": owner})
    if "status" in changes:
        allowed = LEAD_MOVES[x["status"]]
        if status not in allowed:
            raise ToolError(f"lead {label(x)} is {x['status']}; it can move to {', '.join(allowed)}")
        if status == "unqualified" and not note:
            raise ToolError(f"marking lead {label(x)} unqualified needs a reason: give it as the note")
        changes["unqualified_reason"] = note if status == "unqualified" else None
    if "owner_id" in changes:
        _lead_territory(db, x["city"], check_assign(db, actor, owner))
    if note:
        subject = f"Lead marked {status}" if "status" in changes else "Lead update"
        db.add(
            Activity,
            kind="note",
            subject=subject,
            body=note,
            due_on=None,
            done=False,
            completed_at=None,
            owner_id=actor["id"],
            contact_id=None,
            account_id=None,
            deal_id=None,
            lead_id=lead,
            created_at=db.stamp(),
        )
    return db.update(Lead, lead, **changes)


def _account_for(db: Db, lead: dict, owner: dict) -> tuple[dict, bool]:
    """The account whose domain the lead's email is at, or a new prospect account for its company."""
    domain = lead["email"].rsplit("@", 1)[1].lower()
    found = db.one("SELECT * FROM accounts WHERE domain = ?", domain)
    if found:
        if found["type"] == "internal":
            raise ToolError(
                f"lead {label(lead)} is at our own company ({found['name']}); it cannot be converted"
            )
        return found, False
    return db.insert(
        Account,
        name=lead["company_name"],
        domain=domain,
        industry="other",
        employees=None,
        city=lead["city"],
        address="",
        territory_id=TERRITORY_OF_CITY[lead["city"]],
        owner_id=owner["id"],
        tier="smb",
        type="prospect",
        created_at=db.stamp(),
    ), True


def _contact_for(
    db: Db, lead: dict, found: dict | None, account: dict, owner: dict, stage: str
) -> tuple[dict, bool]:
    """The contact with the lead's email (moved forward to ``stage``), or a new one at the account."""
    if found:
        return db.update(Contact, found["id"], lifecycle_stage=lifecycle_forward(found, stage)), False
    return db.insert(
        Contact,
        first_name=lead["first_name"],
        last_name=lead["last_name"],
        name=lead["name"],
        email=lead["email"],
        phone=lead["phone"],
        title=lead["title"],
        account_id=account["id"],
        owner_id=owner["id"],
        lifecycle_stage=stage,
        do_not_contact=False,
        created_at=db.stamp(),
    ), True


def _check_convertible(db: Db, actor: dict, x: dict) -> None:
    """A lead converts once, by someone who may edit it, and only once qualified."""
    if x["status"] == "converted":
        raise ToolError(
            f"lead {label(x)} was already converted on {x['converted_at'][:10]} into contact "
            f"{x['converted_contact_id']} at account {x['converted_account_id']}; a lead converts once"
        )
    check_edit(db, actor, Lead, x)
    if x["status"] != "qualified":
        raise ToolError(
            f"lead {label(x)} is {x['status']}; only qualified leads can be converted (qualify it first)"
        )


def _wants_deal(create_deal: bool | None, deal_fields: bool) -> bool:
    """Whether the conversion opens a deal: asked for, or implied by any deal field (unless refused)."""
    if create_deal is False and deal_fields:
        raise ToolError(
            "deal_name, amount, close_date and pipeline only apply when a deal is created; drop create_deal=false"
        )
    return bool(create_deal or deal_fields)


def _account_and_contact(db: Db, x: dict, owner: dict, create_deal: bool) -> tuple[dict, bool, dict, bool]:
    """The account and contact a lead converts into, each with whether it was created.

    A contact with the lead's email brings its account (never our own company); otherwise the
    account at the email's domain is reused or created."""
    found = db.one("SELECT * FROM contacts WHERE email = ?", x["email"])
    if found and found["account_id"]:
        account, new_account = db.get(Account, found["account_id"]), False
        if account["type"] == "internal":
            raise ToolError(
                f"lead {label(x)} is at our own company ({account['name']}); it cannot be converted"
            )
    else:
        account, new_account = _account_for(db, x, owner)
    contact, new_contact = _contact_for(db, x, found, account, owner, "opportunity" if create_deal else "sql")
    return account, new_account, contact, new_contact


@crm.tool(
    writes=[Lead, Account, Contact, Deal, DealContact, StageHistory],
    returns=Lead,
    destructive=True,
    says=[
        "convert the lead {lead}",
        "convert {lead} and open a deal '{deal_name}' for {amount}",
        "{lead} is qualified; convert them with a deal expected to close on {close_date}",
    ],
)
def convert_lead(
    db: Db,
    lead: Ref[Lead, QUALIFIED_LEAD],
    create_deal: bool | None = None,
    deal_name: DealName | None = None,
    amount: DealAmount | None = None,
    close_date: Day | None = None,
    pipeline: Ref[Pipeline] | None = None,
) -> dict:
    """Convert a qualified lead: reuse the account at its email's domain and the contact with its
    email, or create them, and optionally open a deal. A lead converts once and is read-only after.

    Args:
        lead: The qualified lead.
        create_deal: Also open a deal with the contact as its primary contact (implied when any
            deal field is given).
        deal_name: The deal's name (default "<company> - New Business").
        amount: The deal's expected value (a deal may start without one).
        close_date: The deal's expected close day (default 30 days from today).
        pipeline: The deal's pipeline (default sales).
    """
    actor = db.actor()
    x = db.get(Lead, lead)
    _check_convertible(db, actor, x)
    create_deal = _wants_deal(create_deal, bool(deal_name or amount or close_date or pipeline))
    owner = db.get(User, x["owner_id"])
    account, new_account, contact, new_contact = _account_and_contact(db, x, owner, create_deal)
    deal = None
    if create_deal:
        close = close_date or (db.today + timedelta(days=30)).isoformat()
        deal = insert_deal(
            db,
            actor,
            name=deal_name or f"{x['company_name']} - New Business",
            account=account,
            amount=amount or 0.0,
            close_date=close,
            pipeline=pipeline,
            stage=None,
            contact=contact,
            owner=owner,
        )
    done = db.update(
        Lead,
        lead,
        status="converted",
        converted_contact_id=contact["id"],
        converted_account_id=account["id"],
        converted_deal_id=deal["id"] if deal else None,
        converted_at=db.stamp(),
    )
    return {
        **done,
        "account": {"id": account["id"], "name": account["name"], "created": new_account},
        "contact": {"id": contact["id"], "name": contact["name"], "created": new_contact},
        "deal": {"id": deal["id"], "name": deal["name"], "stage_id": deal["stage_id"]} if deal else None,
    }
