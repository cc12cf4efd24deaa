"""The seed: accounts on every plan, their users (the persona's circle), thousands of meetings in
every state with their runs, invitees, registrants, recordings and transcripts; and the variants."""

from __future__ import annotations

from collections import defaultdict
from datetime import date, datetime, timedelta

from servers.domains.video_meeting.build import Build, iso, person_entry, utc_of
from servers.domains.video_meeting.model import (
    PLANS,
    STORAGE_MB,
    AccountAdmin,
    Session,
    video_meeting,
)
from servers.domains.video_meeting.persona import seed_persona
from servers.kit import Db, Seeder

PROJECTS = (
    "Atlas", "Beacon", "Cascade", "Delta", "Ember", "Falcon", "Granite", "Harbor", "Iris", "Juniper",
    "Kestrel", "Lumen", "Meridian", "Nimbus", "Orchid", "Pioneer", "Quartz", "Redwood", "Sierra",
    "Tundra", "Vista", "Willow", "Zephyr",
)  # fmt: skip
TOPICS = (
    "standup", "sprint planning", "design review", "retro", "roadmap review", "launch checklist",
    "budget review", "customer feedback", "hiring sync", "architecture review", "demo", "kickoff",
    "status update", "risk review", "onboarding",
)  # fmt: skip
ONE_OFF = (
    "Interview: {role}", "Vendor demo: {company}", "Customer call with {company}", "Offsite planning",
    "{project} quarterly business review", "Brown bag: {project}", "Board prep", "{project} town hall",
    "Coffee with {first}", "1:1 with {first}", "{project} sync with {company}",
)  # fmt: skip
TEAMS = (
    "platform", "design", "sales", "support", "data", "mobile", "growth", "finance", "legal", "ops",
    "research", "brand", "security", "partner", "hiring", "web",
)  # fmt: skip
ROLES = ("Senior Designer", "Data Analyst", "Support Lead", "Staff Engineer", "Product Manager")
WEBINARS = ("Product webinar: {project}", "Customer training: {project}", "Open house: {project}")
RECURRENCES = ("weekly",) * 5 + ("weekdays", "daily", "biweekly", "monthly")
DURATIONS = (15, 30, 30, 45, 60, 60, 90, 120)
KINDS = {
    "live": (("scheduled", 55), ("recurring_fixed", 25), ("instant", 12), ("recurring_floating", 8)),
    "upcoming": (("scheduled", 60), ("recurring_fixed", 30), ("recurring_floating", 10)),
    "previous": (("scheduled", 55), ("instant", 15), ("recurring_fixed", 22), ("recurring_floating", 8)),
}


@video_meeting.seed
def fill(s: Seeder) -> None:
    b = Build(s)
    me = _accounts(b)
    seed_persona(b, me)
    _meetings(b)
    studio = b.accounts["ACT-000002"]
    studio["used_storage_mb"] = studio["cloud_storage_mb"]  # full: no more cloud recordings
    for table, rows in b.rows.items():
        s.add(table, rows)


# -- accounts and users ---------------------------------------------------------------------------------


def _accounts(b: Build) -> dict:
    """The persona's employer (business; she is one of its admins), her design studio (pro) and the
    choir she runs (basic), with the first of her circle as their users; then one account per
    company for the rest of her circle. Returns the persona's user row."""
    w, s = b.s.world, b.s
    persona = w.persona
    circle = w.circle(persona, s.count(small=70, medium=330, large=4500))
    work = b.account(w.employer(persona).name, "business", 0, 180, 900)
    studio = b.account(f"{persona.last_name} Design Studio", "pro", STORAGE_MB["pro"], 90, 400)
    choir = b.account("Rose City Community Choir", "basic", 0, 0, 700)
    me = b.user(persona, work)
    sizes = (s.count(small=30, medium=200, large=2000), s.count(small=4, medium=8, large=20))
    sizes += (s.count(small=12, medium=30, large=120),)
    start = 0
    for account, size in zip((work, studio, choir), sizes, strict=True):
        for p in circle[start : start + size]:
            b.user(p, account, active=account is not choir or b.rng.random() < 0.95)
        start += size
    by_company: dict[int, list] = defaultdict(list)
    for p in circle[start:]:
        by_company[p.employer].append(p)
    for company in sorted(by_company):
        plan = b.rng.choices(PLANS, weights=(40, 45, 15))[0]
        a = b.account(w.companies[company].name, plan, 0, (0, 120, 365)[PLANS.index(plan)], 300)
        for p in by_company[company]:
            b.user(p, a, active=b.rng.random() < 0.97)
        b.add(AccountAdmin, account_id=a["id"], user_id=b.members[a["id"]][0]["id"], role="owner")
    for a in b.accounts.values():
        if a["plan"] != "basic" and a["cloud_storage_mb"] == 0:
            a["cloud_storage_mb"] = float(STORAGE_MB[a["plan"]] * max(1, len(b.members[a["id"]])))
    b.add(AccountAdmin, account_id=work["id"], user_id=b.members[work["id"]][1]["id"], role="owner")
    for a, role in ((work, "admin"), (studio, "owner"), (choir, "owner")):
        b.add(AccountAdmin, account_id=a["id"], user_id=me["id"], role=role)
    b.add(Session, user_id=me["id"], signed_in_at=iso(b.now - timedelta(minutes=20)))
    return me


# -- meetings ----------------------------------------------------------------------------------------------


def _title(b: Build, host: dict, kind: str, webinar: bool = False) -> str:
    """A title no other meeting has, so people can name a meeting by it."""
    for _ in range(12):
        title = _draft_title(b, host, kind, webinar)
        if title not in b.titles:
            b.titles.add(title)
            return title
    k = 2
    while f"{title} {k}" in b.titles:
        k += 1
    b.titles.add(f"{title} {k}")
    return f"{title} {k}"


def _draft_title(b: Build, host: dict, kind: str, webinar: bool) -> str:
    rng = b.rng
    if webinar:
        return rng.choice(WEBINARS).format(project=rng.choice(PROJECTS))
    if kind.startswith("recurring") or rng.random() < 0.5:
        return f"{rng.choice(PROJECTS)} {rng.choice(TEAMS)} {rng.choice(TOPICS)}"
    mates = b.sample_mates(host["account_id"], 1, host["id"]) or [host]
    return rng.choice(ONE_OFF).format(
        role=rng.choice(ROLES),
        company=rng.choice(b.s.world.companies).name,
        project=rng.choice(PROJECTS),
        first=rng.choice(mates)["name"],
    )


def _slot(b: Build, day: date, tz: str) -> datetime:
    return utc_of(day, b.rng.randint(8, 16), b.rng.choice((0, 30)), tz)


def _workday(day: date, step: int) -> date:
    while day.weekday() >= 5:
        day += timedelta(days=step)
    return day


def _hosts(b: Build) -> tuple[list[dict], list[dict]]:
    """(users of the accounts the persona administers, everyone else), active, without the persona."""
    mine = {r["account_id"] for r in b.rows[AccountAdmin] if r["user_id"] == "USR-000001"}
    users = [u for u in b.users.values() if u["status"] == "active" and u["id"] != "USR-000001"]
    return [u for u in users if u["account_id"] in mine], [u for u in users if u["account_id"] not in mine]


def _meetings(b: Build) -> None:
    s, rng = b.s, b.rng
    managed, outside = _hosts(b)
    hosting_live: set[str] = set()
    for i in range(s.count(small=260, medium=3000, large=16_000)):
        host = rng.choice(managed if rng.random() < 0.8 else outside)
        phase = "upcoming" if rng.random() < 0.42 else "previous"
        if i % 19 == 0:
            free = [u for u in managed if u["id"] not in hosting_live and u["timezone"] != "Asia/Tokyo"]
            if free:
                host, phase = rng.choice(free), "live"
                hosting_live.add(host["id"])
        kind = rng.choices(*zip(*KINDS[phase], strict=True))[0]
        _one(b, host, phase, kind)


def _one(b: Build, host: dict, phase: str, kind: str) -> None:
    """One meeting in ``phase`` with its invitees, registrants, past runs and (live) current run."""
    rng, account = b.rng, b.accounts[host["account_id"]]
    paid = account["plan"] != "basic"
    webinar = phase == "upcoming" and kind == "scheduled" and rng.random() < 0.2
    invitees = _invitees(b, host)
    duration = rng.choice(DURATIONS)
    if not paid and len(invitees) >= 2:
        duration = min(duration, 40)
    today = b.now.date()
    recurrence = rng.choice(RECURRENCES) if kind == "recurring_fixed" else None
    if kind == "recurring_fixed":
        start = _slot(b, _workday(today - timedelta(days=rng.randint(14, 120)), -1), host["timezone"])
    elif kind == "scheduled" and phase == "upcoming":
        start = _slot(b, _workday(today + timedelta(days=rng.randint(1, 45)), 1), host["timezone"])
    elif kind == "scheduled" and phase == "previous":
        start = _slot(b, _workday(today - timedelta(days=rng.randint(1, 60)), -1), host["timezone"])
    elif phase == "live" and kind != "recurring_floating":
        start = b.now - timedelta(minutes=rng.randint(5, 50))
    elif kind == "instant":
        start = b.ago(days=rng.randint(1, 60), minutes=rng.randint(0, 600))
    else:
        start = None
    recorded = "cloud" if paid and rng.random() < 0.25 else "local" if rng.random() < 0.1 else "none"
    status = {"live": "started", "upcoming": "waiting"}.get(phase, "waiting")
    if phase == "previous" and kind in ("scheduled", "instant"):
        status = "finished"
    m = b.meeting(
        host,
        _title(b, host, kind, webinar),
        kind,
        start,
        duration,
        status,
        recurrence=recurrence,
        auto_recording=recorded,
        registration=webinar,
        approval="manual" if webinar and rng.random() < 0.7 else "automatic",
        waiting_room=rng.random() < (0.8 if phase == "live" else 0.45),
    )
    b.invite(m, invitees)
    if webinar:
        _registrants(b, m)
    for when in _past_runs(b, m, phase, kind, start):
        _past_run(b, m, when, invitees)
    if phase == "live":
        _live_run(b, m, host, start or b.now - timedelta(minutes=rng.randint(5, 50)), invitees)


def _invitees(b: Build, host: dict) -> list:
    """Colleagues from the host's account, sometimes the persona and a guest from outside."""
    rng, w = b.rng, b.s.world
    people = [
        w.people[u["person_id"]] for u in b.sample_mates(host["account_id"], rng.randint(0, 5), host["id"])
    ]
    if host["account_id"] == "ACT-000001" and rng.random() < 0.12 or rng.random() < 0.04:
        people.append(w.persona)
    if rng.random() < 0.2:
        people.append(w.people[rng.randrange(1, len(w.people))])
    return list({p.email: p for p in people}.values())


def _registrants(b: Build, m: dict) -> None:
    w, rng = b.s.world, b.rng
    manual = m["approval"] == "manual"
    for _ in range(rng.randint(9, 16)):
        person = w.people[rng.randrange(1, len(w.people))]
        if manual:
            status = rng.choices(("pending", "approved", "denied", "cancelled"), weights=(45, 40, 10, 5))[0]
        else:
            status = "approved" if rng.random() < 0.9 else "cancelled"
        b.register(m, person, status)


def _past_runs(b: Build, m: dict, phase: str, kind: str, start: datetime | None) -> list[datetime]:
    rng = b.rng
    if phase == "previous" and kind in ("scheduled", "instant"):
        return [start] if start else []
    if kind == "recurring_fixed" and start is not None:
        step = 14 if m["rrule"] == "FREQ=WEEKLY;INTERVAL=2" else 28 if m["rrule"] == "FREQ=MONTHLY" else 7
        past = [start + timedelta(days=step * k) for k in range(0, 20)]
        past = [t for t in past if t < b.now - timedelta(hours=3)]
        return sorted(rng.sample(past, min(len(past), rng.randint(1, 3))))
    if kind == "recurring_floating" and phase != "upcoming":
        return sorted(b.ago(days=rng.randint(2, 50), minutes=rng.randint(0, 500)) for _ in range(2))
    return []


def _people(b: Build, m: dict, invitees: list, n: int) -> list[dict]:
    """Who turns up: invitees and colleagues of the host, sometimes a guest."""
    rng, w = b.rng, b.s.world
    pool = [b.by_email.get(p.email, p) for p in invitees]
    pool += b.sample_mates(m["account_id"], max(0, n - len(pool)), m["host_id"])
    out, seen = [], {m["host_id"]}
    for u in pool[:n]:
        key = u["id"] if isinstance(u, dict) else u.email
        if key not in seen:
            seen.add(key)
            out.append(u)
    if rng.random() < 0.15:
        out.append(w.people[rng.randrange(1, len(w.people))])
    return out


def _past_run(b: Build, m: dict, started: datetime, invitees: list) -> None:
    rng = b.rng
    ended = started + timedelta(minutes=max(5, m["duration_min"] + rng.randint(-10, 10)))
    if ended >= b.now:
        return
    host = b.users[m["host_id"]]
    people = [person_entry(host, "host", "left")]
    people += [person_entry(u, "attendee", "left") for u in _people(b, m, invitees, rng.randint(1, 10))]
    inst = b.run(m, started, ended, people)
    kind = m["auto_recording"] if m["auto_recording"] != "none" else None
    paid = b.accounts[m["account_id"]]["plan"] != "basic"
    if kind is None and rng.random() < 0.3:
        kind = "cloud" if paid and rng.random() < 0.75 else "local"
    if kind is None:
        return
    status, trashed = "available", None
    if kind == "cloud" and b.now - ended < timedelta(hours=36):  # a busy day: processing takes a while
        status = "processing"
    elif kind == "cloud" and rng.random() < 0.15:
        status, trashed = "trashed", rng.choice((rng.uniform(1, 28), rng.uniform(32, 80)))
    elif kind == "cloud" and rng.random() < 0.03:
        status = "deleted"
    rec = b.recording(m, inst, kind, status, trashed_days=trashed)
    if kind == "cloud" and status in ("available", "trashed", "processing") and rng.random() < 0.6:
        b.transcript(rec, ready=status != "processing", speakers=min(len(people), 8))


def _live_run(b: Build, m: dict, host: dict, started: datetime, invitees: list) -> None:
    rng = b.rng
    paid = b.accounts[m["account_id"]]["plan"] != "basic"
    crowd = _people(b, m, invitees, rng.randint(2, 30))
    waiting = rng.randint(1, 5) if m["waiting_room"] and rng.random() < 0.85 else 0
    people = [person_entry(host, "host", "in_meeting")]
    for k, u in enumerate(crowd):
        state = (
            "waiting_room" if k >= len(crowd) - waiting else "left" if rng.random() < 0.06 else "in_meeting"
        )
        role = "co_host" if k == 0 and paid and rng.random() < 0.3 and isinstance(u, dict) else "attendee"
        people.append(person_entry(u, role, state))
    inst = b.run(m, started, None, people)
    if paid and (m["auto_recording"] == "cloud" or rng.random() < 0.15):
        b.recording(m, inst, "cloud", "recording")
    elif m["auto_recording"] == "local":
        b.recording(m, inst, "local", "recording")


# -- variants ------------------------------------------------------------------------------------------


@video_meeting.variant("planning_live")
def planning_live(db: Db) -> None:
    """The persona already started her 09:00 'Monday planning': it is live, the four people who were
    waiting for her are in its waiting room and she is in the meeting as host."""
    from servers.domains.video_meeting.rules import open_instance

    meeting = db.get("meetings", "MTG-000001")
    host = db.get("users", meeting["host_id"])
    open_instance(db, meeting, host)
