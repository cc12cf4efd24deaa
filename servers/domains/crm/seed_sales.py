"""The seeded sales history: deals in every stage (with their contacts and stage history), leads in
every status (converted ones linked to what they became) and a year of activities and tasks."""

from __future__ import annotations

import math
import re
from datetime import datetime, timedelta

from faker.providers.person.en_US import Provider as _Names

from servers.domains.crm.model import (
    SOURCE_SCORE,
    STAGES,
    TERRITORY_OF_CITY,
    Activity,
    Deal,
    DealContact,
    Lead,
    StageHistory,
)
from servers.domains.crm.seed_text import (
    LOST_REASONS,
    NEW_COMPANY_KINDS,
    NEW_COMPANY_WORDS,
    PRODUCTS,
    UNQUALIFIED_REASONS,
    activity_text,
    task_text,
)
from servers.kit import Person, Seeder, geo

FIRST_NAMES, LAST_NAMES = tuple(_Names.first_names), tuple(_Names.last_names)

OPEN_STAGES = {p: [s[0] for s in STAGES if s[1] == p and not s[4]] for p in ("sales", "renewals")}
WON = {"sales": "won", "renewals": "renewed"}
LOST = {"sales": "lost", "renewals": "churned"}
READY = {s[0] for s in STAGES if s[6]}
NEEDS_CONTACT = {s[0] for s in STAGES if "primary_contact" in s[7]}
ROLES = ("decision_maker", "champion", "influencer", "user")


def seed_sales(
    s: Seeder, users: list[dict], accounts: list[dict], contacts: list[dict], lead_only: list[Person]
) -> None:
    by_account: dict[str, list[dict]] = {}
    for c in contacts:
        by_account.setdefault(c["account_id"], []).append(c)
    deals, links, history = _deals(s, users, accounts, by_account)
    leads = _leads(s, users, accounts, contacts, lead_only, deals)
    activities = _activities(s, deals, contacts, leads, accounts)
    last: dict[str, str] = {}
    for a in activities:
        if a["deal_id"] and a["kind"] != "task":
            last[a["deal_id"]] = max(last.get(a["deal_id"], ""), a["created_at"])
    for d in deals:
        d["last_activity_at"] = max(d["last_activity_at"], last.get(d["id"], ""))
    s.add(Deal, deals)
    s.add(DealContact, links)
    s.add(StageHistory, history)
    s.add(Lead, leads)
    s.add(Activity, activities)


def _amount(s: Seeder) -> float:
    return float(round(math.exp(s.rng.uniform(math.log(2000), math.log(250_000))), -2))


def _deals(
    s: Seeder, users: list[dict], accounts: list[dict], by_account: dict[str, list[dict]]
) -> tuple[list[dict], list[dict], list[dict]]:
    """Deals on external accounts with contacts: 55% open (15% of those overdue), 25% won, 20% lost."""
    pool: dict[str, list[str]] = {}
    for u in users:
        if u["active"] and u["role"] != "admin":
            pool.setdefault(u["territory_id"], []).append(u["id"])
    eligible = [a for a in accounts if a["type"] != "internal" and by_account.get(a["id"])]
    deals: list[dict] = []
    links: list[dict] = []
    history: list[dict] = []
    names: set[str] = set()
    for _ in range(s.count(small=150, medium=1800, large=20_000)):
        account = s.pick(eligible)
        roll = s.rng.random()
        status = "open" if roll < 0.55 else ("won" if roll < 0.8 else "lost")
        renewal = account["type"] == "customer" and s.chance(0.5)
        pipeline = "renewals" if renewal else "sales"
        deal = _deal(s, f"DEL-{len(deals) + 1:06d}", account, pipeline, status, names)
        owner = account["owner_id"] if s.chance(0.8) else s.pick(pool[account["territory_id"]])
        deal["owner_id"] = owner
        if status == "won":
            account["type"] = "customer" if account["type"] == "prospect" else account["type"]
        people = by_account[account["id"]]
        cast = s.rng.sample(people, min(len(people), s.rng.randint(1, 3)))
        needs = deal["stage_id"] in NEEDS_CONTACT or status == "won"
        if needs or s.chance(0.75):
            deal["primary_contact_id"] = cast[0]["id"]
        else:
            cast = cast[1:]
        for i, c in enumerate(cast):
            role = "decision_maker" if i == 0 and deal["primary_contact_id"] else s.pick(list(ROLES[1:]))
            links.append(
                {
                    "id": f"DLC-{len(links) + 1:06d}",
                    "deal_id": deal["id"],
                    "contact_id": c["id"],
                    "role": role,
                }
            )
        history += _history(s, deal, owner, len(history))
        deals.append(deal)
    return deals, links, history


def _deal(s: Seeder, did: str, account: dict, pipeline: str, status: str, names: set[str]) -> dict:
    stages = OPEN_STAGES[pipeline]
    stage = {"open": s.pick(stages + stages[:2]), "won": WON[pipeline], "lost": LOST[pipeline]}[status]
    short = account["name"].split()[0]
    product = s.pick(PRODUCTS[pipeline])
    name = f"{short} - {product}"
    k = 2
    while name in names:
        name, k = f"{short} - {product} {k}", k + 1
    names.add(name)
    created = s.now - timedelta(days=s.rng.randint(20, 400))
    amount = _amount(s)
    if status == "open":
        late = s.chance(0.15)
        close = s.now + timedelta(days=s.rng.randint(-60, -1) if late else s.rng.randint(1, 150))
        if stage in stages[:3] and s.chance(0.12):
            amount = 0.0  # not sized yet
        closed_at = None
    else:
        close = created + timedelta(days=s.rng.randint(10, max(11, (s.now - created).days - 1)))
        closed_at = close.replace(hour=17).isoformat(timespec="seconds")
    return {
        "id": did,
        "name": name,
        "account_id": account["id"],
        "primary_contact_id": None,
        "pipeline_id": pipeline,
        "stage_id": stage,
        "status": status,
        "amount": amount,
        "close_date": close.date().isoformat(),
        "owner_id": "",
        "lost_reason": s.pick(LOST_REASONS) if status == "lost" else None,
        "created_at": created.isoformat(timespec="seconds"),
        "closed_at": closed_at,
        "last_activity_at": created.isoformat(timespec="seconds"),
    }


def _history(s: Seeder, deal: dict, owner: str, start: int) -> list[dict]:
    """The stages the deal went through, from its pipeline's first stage to where it is now."""
    stages = OPEN_STAGES[deal["pipeline_id"]]
    if deal["status"] == "open":
        path = stages[: stages.index(deal["stage_id"]) + 1]
    else:
        reach = [x for x in stages if x in READY] if deal["status"] == "won" else stages
        upto = stages.index(s.pick(reach)) + 1
        path = [*stages[:upto], deal["stage_id"]]
    if len(path) > 4:  # deals often skip a stage or two
        path = [path[0], *sorted(s.rng.sample(path[1:-1], 2), key=path.index), path[-1]]
    begin = deal["created_at"]
    end = deal["closed_at"] or s.now.isoformat(timespec="seconds")
    out = []
    for i, stage in enumerate(path):
        at = begin if i == 0 else _between(s, begin, end, i, len(path))
        out.append(
            {
                "id": f"STH-{start + i + 1:06d}",
                "deal_id": deal["id"],
                "from_stage_id": path[i - 1] if i else None,
                "to_stage_id": stage,
                "by_id": owner,
                "at": at if i < len(path) - 1 or deal["status"] == "open" else end,
            }
        )
    return out


def _between(s: Seeder, begin: str, end: str, i: int, n: int) -> str:
    a, b = _parse(begin), _parse(end)
    return (a + (b - a) * (i / n)).replace(microsecond=0).isoformat(timespec="seconds")


def _lead_row(s: Seeder, lid: str, first: str, last: str, email: str, company: str, city: str) -> dict:
    return {
        "id": lid,
        "first_name": first,
        "last_name": last,
        "name": f"{first} {last}",
        "email": email,
        "phone": None,
        "title": None,
        "company_name": company,
        "city": city,
        "source": "web",
        "status": "new",
        "score": 0,
        "owner_id": "",
        "unqualified_reason": None,
        "converted_contact_id": None,
        "converted_account_id": None,
        "converted_deal_id": None,
        "converted_at": None,
        "created_at": s.moment_offset(-200, -1),
    }


STATUSES = ["new"] * 25 + ["working"] * 25 + ["nurturing"] * 15 + ["qualified"] * 15 + ["unqualified"] * 10


def _known_people_leads(
    s: Seeder, accounts: list[dict], known: list[dict], n: int, deals: list[dict], out: list[dict]
) -> None:
    """Append leads for up to ``n`` existing contacts; most were converted (into a sales deal, often)."""
    deal_of = {d["account_id"]: d for d in deals if d["pipeline_id"] == "sales"}
    for c in s.rng.sample(known, min(n, len(known))):
        row = _lead_row(
            s,
            f"LED-{len(out) + 1:06d}",
            c["first_name"],
            c["last_name"],
            c["email"],
            accounts[int(c["account_id"][4:]) - 1]["name"],
            accounts[int(c["account_id"][4:]) - 1]["city"],
        )
        if s.chance(0.75):  # most known people came in as leads and were converted
            deal = deal_of.get(c["account_id"]) if s.chance(0.6) else None
            row.update(
                status="converted",
                converted_contact_id=c["id"],
                converted_account_id=c["account_id"],
                converted_deal_id=deal["id"] if deal else None,
                converted_at=s.moment_offset(-300, -2),
            )
        out.append(row)


def _leads(
    s: Seeder,
    users: list[dict],
    accounts: list[dict],
    contacts: list[dict],
    lead_only: list[Person],
    deals: list[dict],
) -> list[dict]:
    """Form fills and referrals: world people (some already contacts, whose conversion reuses them),
    people at companies the CRM has never seen, and the persona's own test submission."""
    persona = s.world.persona
    total = s.count(small=120, medium=1500, large=20_000)
    out = [
        _lead_row(
            s,
            "LED-000001",
            persona.first_name,
            persona.last_name,
            persona.email,
            accounts[persona.employer]["name"],
            persona.city,
        )
    ]
    out[0].update(status="unqualified", unqualified_reason="internal test submission", owner_id="USR-000001")
    internal = accounts[persona.employer]["id"]
    known = [c for c in contacts if c["account_id"] != internal and "." in c["email"].split("@")[0]]
    people = [p for p in lead_only if accounts[p.employer]["id"] != internal]
    s.rng.shuffle(people)
    rest = total - 1 - total // 4  # a quarter are strangers
    used = min(len(people), rest * 2 // 3)
    n_known = rest - used
    for p in people[:used]:
        out.append(
            _lead_row(
                s,
                f"LED-{len(out) + 1:06d}",
                p.first_name,
                p.last_name,
                p.email,
                accounts[p.employer]["name"],
                p.city,
            )
        )
    _known_people_leads(s, accounts, known, n_known, deals, out)
    world_domains = {a["domain"] for a in accounts}
    while len(out) < total:
        out.append(_stranger(s, f"LED-{len(out) + 1:06d}", world_domains))
    _qualify(s, users, out)
    return out


def _stranger(s: Seeder, lid: str, taken: set[str]) -> dict:
    """Someone at a company the CRM has never seen: conversion will create its account."""
    word, kind = s.pick(NEW_COMPANY_WORDS), s.pick(NEW_COMPANY_KINDS)
    company = f"{word} {kind}"
    slug = re.sub(r"[^a-z0-9]", "", company.lower())
    domain = f"{slug}.example" if f"{slug}.example" not in taken else f"{slug}hq.example"
    first, last = s.pick(FIRST_NAMES), s.pick(LAST_NAMES)
    local = re.sub(r"[^a-z.]", "", f"{first}.{last}".lower())
    return _lead_row(s, lid, first, last, f"{local}@{domain}", company, s.pick(geo.CITIES).name)


def _qualify(s: Seeder, users: list[dict], leads: list[dict]) -> None:
    """Source, status, score, title, phone and an owner on the team working the lead's city."""
    pool: dict[str, list[str]] = {}
    for u in users:
        if u["active"] and u["role"] != "admin":
            pool.setdefault(u["territory_id"], []).append(u["id"])
    for lead in leads[1:]:
        lead["source"] = s.pick(["web"] * 4 + ["referral"] * 2 + ["event"] * 2 + ["outbound", "partner"])
        if lead["status"] != "converted":
            lead["status"] = s.pick(STATUSES)
        base = SOURCE_SCORE[lead["source"]]
        bump = {"qualified": 40, "working": 15, "nurturing": 5, "converted": 45}.get(lead["status"], 0)
        lead["score"] = min(100, base + bump + s.rng.randint(0, 20))
        if lead["status"] == "unqualified":
            lead["unqualified_reason"] = s.pick(UNQUALIFIED_REASONS)
        lead["title"] = s.pick(
            ["Director of Operations", "VP Sales", "IT Manager", "Head of Finance", "CTO", None]
        )
        if s.chance(0.6):
            lead["phone"] = f"+1-{s.rng.randint(201, 989)}-555-{s.rng.randint(0, 9999):04d}"
        lead["owner_id"] = s.pick(pool[TERRITORY_OF_CITY[lead["city"]]])


def _activities(
    s: Seeder, deals: list[dict], contacts: list[dict], leads: list[dict], accounts: list[dict]
) -> list[dict]:
    """Calls, emails, meetings, notes and tasks on deals, contacts, leads and accounts."""
    external = [c for c in contacts if accounts[int(c["account_id"][4:]) - 1]["type"] != "internal"]
    live_leads = [x for x in leads if x["status"] != "converted"]
    out = []
    for _ in range(s.count(small=1500, medium=20_000, large=80_000)):
        roll = s.rng.random()
        row = {"contact_id": None, "account_id": None, "deal_id": None, "lead_id": None}
        if roll < 0.5:
            d = s.pick(deals)
            row.update(deal_id=d["id"], account_id=d["account_id"], contact_id=d["primary_contact_id"])
            owner, since, name = d["owner_id"], d["created_at"], d["name"]
        elif roll < 0.8:
            c = s.pick(external)
            row.update(contact_id=c["id"], account_id=c["account_id"])
            owner, since, name = c["owner_id"], c["created_at"], c["first_name"]
        elif roll < 0.9:
            x = s.pick(live_leads)
            row.update(lead_id=x["id"])
            owner, since, name = x["owner_id"], x["created_at"], x["first_name"]
        else:
            a = s.pick(accounts)
            row.update(account_id=a["id"])
            owner, since, name = a["owner_id"], a["created_at"], a["name"].split()[0]
        out.append(_activity(s, f"ACT-{len(out) + 1:06d}", row, owner, since, name))
    return out


def _activity(s: Seeder, aid: str, row: dict, owner: str, since: str, name: str) -> dict:
    kind = s.pick(["call"] * 5 + ["email"] * 6 + ["meeting"] * 3 + ["note"] * 3 + ["task"] * 3)
    start = max(since, (s.now - timedelta(days=180)).isoformat(timespec="seconds"))
    span = max(1, int((s.now - _parse(start)).total_seconds()))
    at = (_parse(start) + timedelta(seconds=s.rng.randrange(span))).isoformat(timespec="seconds")
    due, done, completed = None, False, None
    if kind == "task":
        subject, body = task_text(s, name)
        done = s.chance(0.5)
        due = s.now + timedelta(
            days=s.rng.randint(-40, -1) if done or s.chance(0.4) else s.rng.randint(0, 30)
        )
        due = due.date().isoformat()
        completed = at if done else None
    else:
        subject, body = activity_text(s, kind, name)
    return {
        "id": aid,
        "kind": kind,
        "subject": subject,
        "body": body,
        "due_on": due,
        "done": done,
        "completed_at": completed,
        "owner_id": owner,
        **row,
        "created_at": at,
    }


def _parse(text: str) -> datetime:
    return datetime.fromisoformat(text)
