"""The seeded CRM: territories, the sales organisation (the persona and the people she works with),
accounts for the shared world's companies and contacts for the people who work there."""

from __future__ import annotations

import math

from servers.domains.crm.model import (
    PIPELINES,
    STAGES,
    TERRITORIES,
    TERRITORY_OF_CITY,
    Account,
    Contact,
    Pipeline,
    Session,
    Stage,
    Territory,
    User,
    crm,
)
from servers.domains.crm.seed_sales import seed_sales
from servers.kit import Person, Seeder, geo

TEAMS = [t[0] for t in TERRITORIES]
DUPLICATE_SHARE = 0.06  # contacts entered twice (another email), the merge_contacts work pool
CONTACT_SHARE = 0.75  # world people the CRM knows as contacts; the others can only be leads


@crm.seed
def fill(s: Seeder) -> None:
    s.add(Territory, ({"id": t, "name": n, "cities": ", ".join(c)} for t, n, c in TERRITORIES))
    s.add(Pipeline, ({"id": p, "name": n, "is_default": d} for p, n, d in PIPELINES))
    s.add(Stage, _stages())
    users = _users(s)
    s.add(User, [{**u, "manager_id": None} for u in users])  # managers are rows of the same table
    s.conn.executemany(
        "UPDATE users SET manager_id = ? WHERE id = ?", [(u["manager_id"], u["id"]) for u in users]
    )
    s.add(Session, [{"id": "SES-000001", "user_id": "USR-000001"}])
    accounts = _accounts(s, users)
    s.add(Account, accounts)
    contacts, lead_only = _contacts(s, users, accounts)
    s.add(Contact, contacts)
    seed_sales(s, users, accounts, contacts, lead_only)


def _stages() -> list[dict]:
    out, position = [], {}
    for sid, pipeline, name, prob, closed, won, ready, requires in STAGES:
        position[pipeline] = position.get(pipeline, 0) + 1
        out.append(
            {
                "id": sid,
                "pipeline_id": pipeline,
                "name": name,
                "position": position[pipeline],
                "probability": prob,
                "is_closed": closed,
                "is_won": won,
                "win_ready": ready,
                "requires": requires,
            }
        )
    return out


def _users(s: Seeder) -> list[dict]:
    """The persona manages team West; three more managers, one admin, and reps (one inactive per team)."""
    persona = s.world.persona
    west_reps = s.count(small=3, medium=8, large=12)
    people = [persona, *s.world.circle(persona, s.count(small=12, medium=40, large=60) - 1)]
    roles = [("manager", "west"), ("manager", "central"), ("manager", "east"), ("manager", "international")]
    roles.append(("admin", "central"))
    roles += [("rep", "west")] * west_reps
    others = TEAMS[1:]
    roles += [("rep", others[i % 3]) for i in range(len(people) - len(roles))]
    managers = {team: f"USR-{i + 1:06d}" for i, (_, team) in enumerate(roles[:4])}
    last_rep = {team: i for i, (role, team) in enumerate(roles) if role == "rep"}
    out = []
    for i, (p, (role, team)) in enumerate(zip(people, roles, strict=True)):
        title = {"manager": f"Sales Manager, {team.title()}", "admin": "Sales Operations Admin"}
        out.append(
            {
                "id": f"USR-{i + 1:06d}",
                "person_id": p.index,
                "name": p.name,
                "email": p.email,
                "phone": p.phone,
                "title": title.get(role, "Account Executive"),
                "role": role,
                "territory_id": team,
                "manager_id": managers[team]
                if role == "rep"
                else ("USR-000005" if role == "manager" else None),
                "active": i not in last_rep.values(),
            }
        )
    return out


def _owner_pool(users: list[dict]) -> dict[str, list[str]]:
    """Who owns a territory's records: its active reps and its manager."""
    pool: dict[str, list[str]] = {t: [] for t in TEAMS}
    for u in users:
        if u["role"] != "admin" and u["active"]:
            pool[u["territory_id"]].append(u["id"])
    return pool


def _accounts(s: Seeder, users: list[dict]) -> list[dict]:
    """Every world company is an account; the persona's own employer is the internal one."""
    pool = _owner_pool(users)
    internal = s.world.employer(s.world.persona).index
    out = []
    for c in s.world.companies:
        employees = int(math.exp(s.rng.uniform(math.log(8), math.log(40_000))))
        tier = "smb" if employees < 200 else ("mid_market" if employees < 2000 else "enterprise")
        kind = (
            "internal"
            if c.index == internal
            else s.pick(["prospect"] * 11 + ["customer"] * 7 + ["partner"] * 2)
        )
        territory = TERRITORY_OF_CITY[c.city]
        owner = "USR-000005" if kind == "internal" else s.pick(pool[territory])
        where = geo.address(c.city, c.index, 40 + (c.index * 37) % 340)
        out.append(
            {
                "id": f"ACC-{c.index + 1:06d}",
                "name": c.name,
                "domain": c.domain,
                "industry": c.industry,
                "employees": employees,
                "city": c.city,
                "address": f"{where.line} {where.postal_code}",
                "territory_id": territory,
                "owner_id": owner,
                "tier": tier,
                "type": kind,
                "created_at": s.moment_offset(-1400, -200),
            }
        )
    return out


_EARLY = ("subscriber", "lead", "mql", "sql", "opportunity")


def _lifecycle(s: Seeder, account_type: str) -> str:
    if account_type == "customer":
        return s.pick(["customer"] * 5 + ["evangelist", "opportunity"])
    if account_type == "internal":
        return "other"
    if account_type == "partner":
        return s.pick(["other", "customer", "lead"])
    return s.pick(list(_EARLY))


def _contact(s: Seeder, cid: str, p: Person, account: dict, owner: str) -> dict:
    return {
        "id": cid,
        "first_name": p.first_name,
        "last_name": p.last_name,
        "name": p.name,
        "email": p.email,
        "phone": p.phone,
        "title": p.title,
        "account_id": account["id"],
        "owner_id": owner,
        "lifecycle_stage": _lifecycle(s, account["type"]),
        "do_not_contact": account["type"] != "internal" and s.chance(0.03),
        "created_at": s.moment_offset(-900, -20),
    }


def _contacts(s: Seeder, users: list[dict], accounts: list[dict]) -> tuple[list[dict], list[Person]]:
    """World people at their employers' accounts (users and the internal company always), plus a
    few entered twice under another email; returns the contacts and the people left for leads."""
    pool = _owner_pool(users)
    user_people = {u["person_id"] for u in users}
    internal = next(a for a in accounts if a["type"] == "internal")
    contacts: list[dict] = []
    lead_only: list[Person] = []
    emails = {p.email for p in s.world.people}
    for p in s.world.people:
        account = accounts[p.employer]
        known = p.index in user_people or account is internal or s.chance(CONTACT_SHARE)
        if not known:
            lead_only.append(p)
            continue
        owner = (
            account["owner_id"]
            if s.chance(0.9) or account is internal
            else s.pick(pool[account["territory_id"]])
        )
        contacts.append(_contact(s, f"CON-{len(contacts) + 1:06d}", p, account, owner))
        if account is not internal and s.chance(DUPLICATE_SHARE):
            dup = _contact(
                s, f"CON-{len(contacts) + 1:06d}", p, account, s.pick(pool[account["territory_id"]])
            )
            local = f"{p.first_name[0]}{p.last_name}".lower().replace("'", "").replace(" ", "")
            email, k = f"{local}@{p.email.split('@')[1]}", 2
            while email in emails:
                email, k = f"{local}{k}@{p.email.split('@')[1]}", k + 1
            emails.add(email)
            dup.update(email=email, phone=None, lifecycle_stage=s.pick(["subscriber", "lead"]))
            contacts.append(dup)
    return contacts, lead_only
