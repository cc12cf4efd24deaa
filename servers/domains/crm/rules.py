"""Who may do what (ownership, reassignment, territories) and the record rules several tools share,
with the SQL conditions the sampler uses to pick inputs the tools will accept."""

from __future__ import annotations

from datetime import date

from servers.domains.crm.model import LIFECYCLE, Account, Contact, Deal, Lead, Stage, Territory, User
from servers.kit import Db, Ref, ToolError
from servers.kit.db import noun

# -- sampler conditions (they follow the tools' own checks) -----------------------------------------

ME = "(SELECT user_id FROM sessions)"
MY_TEAM = f"(SELECT territory_id FROM users WHERE id = {ME})"
TEAM_USERS = f"(SELECT id FROM users WHERE territory_id = {MY_TEAM})"
# the users whose records the signed-in user may edit: themself, their team if a manager, all if an admin
REACH = (
    f"(SELECT u.id FROM users u, users me WHERE me.id = {ME} AND (me.role = 'admin' OR u.id = me.id "
    "OR (me.role = 'manager' AND u.territory_id = me.territory_id)))"
)
EDITABLE = f"owner_id IN {REACH}"  # one list, computed once per query, so the owner index applies
ASSIGNABLE = f"active = 1 AND id IN {REACH}"
OTHER_TEAMS = f"owner_id NOT IN {TEAM_USERS}"
OPEN_DEAL = f"status = 'open' AND {EDITABLE}"
CLOSED_DEAL = f"status != 'open' AND {EDITABLE}"
QUALIFIED_LEAD = f"status = 'qualified' AND {EDITABLE}"
EXTERNAL_ACCOUNT = "type != 'internal'"
INTERNAL_ID = "(SELECT id FROM accounts WHERE type = 'internal')"
EXTERNAL_CONTACT = f"account_id IS NOT NULL AND account_id IS NOT {INTERNAL_ID}"
MY_CONTACT = EDITABLE  # our own (internal) contacts belong to the admin
# contacts with a namesake, the near-duplicate records merge_contacts exists for: the first record of
# such a pair (kept) and a later one (merged away). A namesake with a higher (lower) id is one probe
# of the (name, id) index, and having one already says the name is shared: no count of every name.
ORIGINAL = (
    f"{MY_CONTACT} AND EXISTS (SELECT 1 FROM contacts d WHERE d.name = contacts.name AND d.id > contacts.id)"
)
LATER = (
    f"{MY_CONTACT} AND EXISTS (SELECT 1 FROM contacts d WHERE d.name = contacts.name AND d.id < contacts.id)"
)
OPEN_TASK = f"kind = 'task' AND done = 0 AND {EDITABLE}"

Assignee = Ref[User, ASSIGNABLE]
AnyUser = Ref[User]
MyDeal = Ref[Deal, OPEN_DEAL]
MyContact = Ref[Contact, MY_CONTACT]
AnyTerritory = Ref[Territory]


def _m(x: float) -> str:
    return f"{x:,.2f}"


BOOLS = ("done", "do_not_contact", "active", "is_default", "is_closed", "is_won", "win_ready")


def present(row: dict) -> dict:
    """A row as agents see it: flag columns as true/false rather than SQLite's 1/0."""
    return {k: (bool(v) if k in BOOLS and v is not None else v) for k, v in row.items()}


def label(row: dict) -> str:
    """How errors name a record: ``DEL-000042 ("Harper Inc - expansion")``."""
    return f'{row["id"]} ("{row["name"]}")' if row.get("name") else row["id"]


# -- who is acting ------------------------------------------------------------------------------------


def who(user: dict) -> str:
    return f"{user['name']} ({user['id']}, {user['role']}, team {user['territory_id']})"


def check_edit(db: Db, actor: dict, table: type, row: dict) -> None:
    """Reps edit only what they own; managers what their team owns; admins anything."""
    if actor["role"] == "admin" or row["owner_id"] == actor["id"]:
        return
    owner = db.get(User, row["owner_id"])
    if actor["role"] == "manager" and owner["territory_id"] == actor["territory_id"]:
        return
    scope = f"records of team {actor['territory_id']}" if actor["role"] == "manager" else "records you own"
    raise ToolError(
        f"{noun(table)} {label(row)} is owned by {owner['name']} ({owner['id']}, team {owner['territory_id']}); "
        f"you are {who(actor)} and may only change {scope}"
    )


def check_assign(db: Db, actor: dict, user_id: str) -> dict:
    """The user a record may be given to: active, and within the actor's reach."""
    user = db.get(User, user_id)
    if not user["active"]:
        raise ToolError(
            f"user {user['name']} ({user_id}) is inactive; records can only be assigned to active users"
        )
    if actor["role"] == "admin" or user_id == actor["id"]:
        return user
    if actor["role"] == "manager":
        if user["territory_id"] == actor["territory_id"]:
            return user
        raise ToolError(
            f"{user['name']} ({user_id}) is on team {user['territory_id']}; as manager of team "
            f"{actor['territory_id']} you may assign records only within your team"
        )
    raise ToolError(f"reps cannot assign records to others ({user['name']}, {user_id}); ask your manager")


def check_territory(db: Db, account: dict, owner: dict) -> None:
    """An account is owned by someone on the team that works its territory."""
    if owner["territory_id"] != account["territory_id"] and owner["role"] != "admin":
        cities = db.get(Territory, account["territory_id"])["cities"]
        raise ToolError(
            f"account {label(account)} is in territory {account['territory_id']} ({cities}); "
            f"{owner['name']} ({owner['id']}) is on team {owner['territory_id']} and cannot own it"
        )


def nothing_changes(what: str, row: dict, changes: dict) -> dict:
    """The fields that really change; refuses a call that would change nothing."""
    real = {k: v for k, v in changes.items() if v is not None and row.get(k) != v}
    if not real:
        given = ", ".join(f"{k}={v!r}" for k, v in changes.items() if v is not None)
        if not given:
            raise ToolError(f"nothing to change on {what}: give at least one field to update")
        raise ToolError(f"nothing to change on {what}: it already has {given}")
    return real


# -- records --------------------------------------------------------------------------------------------


def account_for_deal(db: Db, account_id: str) -> dict:
    account = db.get(Account, account_id)
    if account["type"] == "internal":
        raise ToolError(
            f"account {label(account)} is our own company (internal); deals need a customer account"
        )
    return account


def open_deal(db: Db, deal_id: str, doing: str) -> dict:
    deal = db.get(Deal, deal_id)
    if deal["status"] != "open":
        stage = db.get(Stage, deal["stage_id"])
        raise ToolError(
            f"deal {label(deal)} is closed ({stage['name']}, {deal['status']}); it cannot {doing}. "
            "A manager can reopen it with move_deal_stage"
        )
    return deal


def editable_lead(db: Db, lead_id: str) -> dict:
    lead = db.get(Lead, lead_id)
    if lead["status"] == "converted":
        raise ToolError(
            f"lead {label(lead)} was converted on {lead['converted_at'][:10]} into contact "
            f"{lead['converted_contact_id']}; converted leads are read-only, work with the contact instead"
        )
    return lead


def contact_at(db: Db, contact_id: str, account: dict) -> dict:
    contact = db.get(Contact, contact_id)
    if contact["account_id"] != account["id"]:
        raise ToolError(
            f"contact {label(contact)} works at account {contact['account_id']}, not at {label(account)}"
        )
    return contact


def future_day(db: Db, day: str, what: str) -> None:
    if date.fromisoformat(day) < db.today:
        raise ToolError(f"{what} {day} is in the past; today is {db.today.isoformat()}")


def lifecycle_forward(contact: dict, stage: str) -> str:
    """Lifecycle stages only move forward; returns the stage to keep (never an earlier one)."""
    return (
        stage
        if LIFECYCLE.index(stage) > LIFECYCLE.index(contact["lifecycle_stage"])
        else contact["lifecycle_stage"]
    )


def stage_of(db: Db, stage_id: str) -> dict:
    stage = db.find(Stage, stage_id)
    if stage is None:
        known = ", ".join(r["id"] for r in db.all("SELECT id FROM stages ORDER BY pipeline_id, position"))
        raise ToolError(f"no stage {stage_id!r}; stages: {known}")
    return stage


def pipeline_stages(db: Db, pipeline_id: str) -> str:
    rows = db.all("SELECT id FROM stages WHERE pipeline_id = ? ORDER BY position", pipeline_id)
    return ", ".join(r["id"] for r in rows)


def stage_requirements(db: Db, deal: dict, stage: dict, lost_reason: str | None) -> None:
    """What a stage requires of the deal entering it (amount, primary contact, a lost reason)."""
    missing = []
    needs = [r for r in stage["requires"].split(",") if r]
    if "amount" in needs and not deal["amount"] > 0:
        missing.append(f"an amount above 0 (it is {_m(deal['amount'])})")
    if "primary_contact" in needs and not deal["primary_contact_id"]:
        missing.append("a primary contact")
    if "lost_reason" in needs and not lost_reason:
        missing.append("a lost_reason")
    if missing:
        raise ToolError(
            f"stage {stage['id']} ({stage['name']}) needs {' and '.join(missing)} on deal {label(deal)}"
        )


def page(
    db: Db, select: str, where: str, params: list, order: str, key: str, limit: int, offset: int
) -> dict:
    """``Db.page`` with a cheap count: the total is counted without the ORDER BY (and the columns),
    which SQLite would otherwise sort the whole table for, and only when the page cannot tell it."""
    sql = f"{select} {where} ORDER BY {order}"
    return db.page(sql, *params, limit=limit, offset=offset, key=key, count=f"SELECT count(*) {where}")


def search_order(order: str, query: str | None) -> str:
    """``order`` for a list a text ``query`` may filter. A ``LIKE`` search reads every row whatever
    the plan, so with one the first sort key gets a ``+`` (the same values, the same order): SQLite
    then scans the table and sorts the few matches, instead of walking that key's index and
    fetching every row it passes to test the other columns (about twice as fast)."""
    return f"+{order}" if query else order
