"""Accounts, the sales organisation (users and their teams) and territories."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from servers.domains.crm.model import Account, AccountType, Role, Territory, Tier, User, crm
from servers.domains.crm.rules import (
    EDITABLE,
    EXTERNAL_ACCOUNT,
    AnyTerritory,
    AnyUser,
    Assignee,
    check_assign,
    check_edit,
    check_territory,
    label,
    nothing_changes,
    page,
    search_order,
)
from servers.kit import Db, Offset, PageSize, Ref, ToolError
from servers.kit.world import INDUSTRIES

AccountQuery = Annotated[
    str,
    Field(min_length=1, max_length=100, examples=["Harper", "software", "Chicago", "Labs", "Group"]),
]
Industry = Literal[INDUSTRIES]  # the shared world's industries
Employees = Annotated[
    int,
    Field(ge=1, le=1_000_000, description="Number of employees.", examples=[45, 120, 350, 800, 2500, 6000]),
]


@crm.tool(
    returns=Account,
    says=[
        "find accounts matching '{query}'",
        "which {industry} accounts are in {territory}?",
        "list the accounts owned by {owner}",
    ],
)
def search_accounts(
    db: Db,
    query: AccountQuery | None = None,
    industry: Industry | None = None,
    tier: Tier | None = None,
    owner: AnyUser | None = None,
    territory: AnyTerritory | None = None,
    limit: PageSize = 20,
    offset: Offset = 0,
) -> dict:
    """Search accounts by name, email domain or city, optionally by industry, tier, owner or territory.

    Args:
        query: Words of the account's name, domain or city.
        industry: An industry, e.g. software.
        tier: smb, mid_market or enterprise.
        owner: The user who owns the accounts.
        territory: The territory the accounts are in.
    """
    conds, params = ["1"], []
    if query:
        like = f"%{query.strip()}%"
        conds.append("(name LIKE ? OR domain LIKE ? OR city LIKE ?)")
        params += [like, like, like]
    for col, value in (
        ("industry", industry),
        ("tier", tier),
        ("owner_id", owner),
        ("territory_id", territory),
    ):
        if value:
            conds.append(f"{col} = ?")
            params.append(value)
    select = "SELECT id, name, domain, industry, employees, city, territory_id, owner_id, tier, type"
    where = f"FROM accounts WHERE {' AND '.join(conds)}"
    return page(db, select, where, params, search_order("name, id", query), "accounts", limit, offset)


@crm.tool(returns=Account, says=["show me the account {account}", "what's going on with {account}?"])
def get_account(db: Db, account: Ref[Account]) -> dict:
    """One account with its owner, contacts, open deals and totals (open pipeline, won to date)."""
    a = db.get(Account, account)
    owner = db.get(User, a["owner_id"])
    contacts = db.all(
        "SELECT id, name, email, title, lifecycle_stage, do_not_contact FROM contacts WHERE account_id = ? "
        "ORDER BY name, id LIMIT 25",
        account,
    )
    deals = db.all(
        "SELECT id, name, stage_id, amount, close_date, owner_id FROM deals WHERE account_id = ? AND status = 'open' "
        "ORDER BY close_date, id",
        account,
    )
    totals = db.one(
        "SELECT coalesce(sum(CASE WHEN status = 'open' THEN amount END), 0) AS open_pipeline, "
        "coalesce(sum(CASE WHEN status = 'won' THEN amount END), 0) AS won_to_date, "
        "sum(status = 'won') AS won_deals, sum(status = 'lost') AS lost_deals FROM deals WHERE account_id = ?",
        account,
    )
    n_contacts = db.scalar("SELECT count(*) FROM contacts WHERE account_id = ?", account)
    return {
        **a,
        "owner": {"id": owner["id"], "name": owner["name"]},
        "contacts": [{**c, "do_not_contact": bool(c["do_not_contact"])} for c in contacts],
        "contact_count": n_contacts,
        "open_deals": deals,
        "open_pipeline": round(totals["open_pipeline"], 2),
        "won_to_date": round(totals["won_to_date"], 2),
        "won_deals": totals["won_deals"] or 0,
        "lost_deals": totals["lost_deals"] or 0,
    }


@crm.tool(
    writes=[Account],
    returns=Account,
    idempotent=True,
    says=[
        "reassign the account {account} to {owner}",
        "mark {account} as {tier}",
        "change the account type of {account} to {type}",
        "update {account}: they now have {employees} employees",
    ],
)
def update_account(
    db: Db,
    account: Ref[Account, f"{EXTERNAL_ACCOUNT} AND {EDITABLE}"],
    owner: Assignee | None = None,
    tier: Tier | None = None,
    type: AccountType | None = None,
    employees: Employees | None = None,
) -> dict:
    """Change an account's owner, tier, type or head count.

    The new owner must be active, within your reach (managers assign within their team) and on
    the team that works the account's territory. Our own (internal) account cannot be changed.

    Args:
        account: The account.
        owner: The user who will own it.
        tier: smb, mid_market or enterprise.
        type: prospect, customer or partner.
        employees: The new head count.
    """
    actor = db.actor()
    a = db.get(Account, account)
    check_edit(db, actor, Account, a)
    if a["type"] == "internal":
        raise ToolError(
            f"account {label(a)} is our own company (internal) and is managed by sales operations"
        )
    changes = nothing_changes(
        f"account {label(a)}", a, {"owner_id": owner, "tier": tier, "type": type, "employees": employees}
    )
    if "owner_id" in changes:
        check_territory(db, a, check_assign(db, actor, owner))
    return db.update(Account, account, **changes)


@crm.tool(
    returns=User,
    says=[
        "who is on the team of {team}?",
        "list the people on my team",
        "show me the {role}s on the team of {team}",
    ],
)
def list_users(
    db: Db,
    team: Ref[Territory] | None = None,
    role: Role | None = None,
    active_only: bool = True,
    limit: PageSize = 50,
    offset: Offset = 0,
) -> dict:
    """The CRM's users (the people records can be assigned to), by team; your own team if none is given.

    Args:
        team: The team, named like its territory (west, central, east, international).
        role: rep, manager or admin.
        active_only: Leave out deactivated users (default true).
    """
    actor = db.actor()
    conds, params = ["territory_id = ?"], [team or actor["territory_id"]]
    if role:
        conds.append("role = ?")
        params.append(role)
    if active_only:
        conds.append("active = 1")
    select = "SELECT id, name, email, title, role, territory_id AS team, manager_id, active"
    where = f"FROM users WHERE {' AND '.join(conds)}"
    out = page(db, select, where, params, "role != 'manager', name, id", "users", limit, offset)
    out["users"] = [{**u, "active": bool(u["active"])} for u in out["users"]]
    out["you"] = {
        "id": actor["id"],
        "name": actor["name"],
        "role": actor["role"],
        "team": actor["territory_id"],
    }
    return out


@crm.tool(says=["list the sales territories", "which cities does each territory cover?"])
def list_territories(db: Db) -> dict:
    """Every territory: its cities, the team that works it (manager and active reps) and its open pipeline."""
    rows = db.all("SELECT * FROM territories ORDER BY id")
    sums = db.all(
        "SELECT a.territory_id AS t, sum(d.amount) AS amount FROM deals d JOIN accounts a ON a.id = d.account_id "
        "WHERE d.status = 'open' GROUP BY a.territory_id"
    )
    pipeline = {r["t"]: r["amount"] for r in sums}
    for t in rows:
        t["manager"] = db.one(
            "SELECT id, name FROM users WHERE territory_id = ? AND role = 'manager' ORDER BY id LIMIT 1",
            t["id"],
        )
        t["active_reps"] = db.scalar(
            "SELECT count(*) FROM users WHERE territory_id = ? AND role = 'rep' AND active = 1", t["id"]
        )
        t["accounts"] = db.scalar("SELECT count(*) FROM accounts WHERE territory_id = ?", t["id"])
        t["open_pipeline"] = round(pipeline.get(t["id"], 0.0), 2)
    return {"territories": rows}
