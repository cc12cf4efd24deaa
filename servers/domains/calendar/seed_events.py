"""Months of ordinary calendar life around the reference moment (60 days back, 60 ahead): each
member organises meetings with the people near them in the directory, some of them recurring
(stand-ups, 1:1s, reviews) with an occurrence moved or cancelled, rooms booked without
conflicts, answers mostly given in the past and often still pending in the future."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta

from servers.domains.calendar import recurrence
from servers.domains.calendar.book import Book
from servers.domains.calendar.clock import to_local, to_utc
from servers.domains.calendar.recurrence import DAYS
from servers.kit import Seeder, geo

TOPICS = (
    "Design review", "Roadmap sync", "Sprint planning", "Sprint retro", "Budget check-in", "Hiring debrief",
    "Customer call", "Architecture review", "Launch readiness", "Incident review", "Pricing workshop",
    "Data review", "Content planning", "Partner sync", "Quarterly goals", "Onboarding session",
    "Vendor demo", "Brainstorm", "Interview", "Project kickoff",
)  # fmt: skip
AREAS = (
    "checkout flow", "mobile app", "search ranking", "billing", "onboarding", "analytics pipeline",
    "support tooling", "pricing page", "data warehouse", "notifications", "API gateway", "security audit",
    "partner portal", "release train", "design system", "growth experiments", "Q3 launch", "hiring plan",
    "customer portal", "cost review",
)  # fmt: skip
ALL_DAY = ("Out of office", "Conference", "Team offsite", "Working from home", "Training day")
DESCRIPTIONS = (
    "Agenda in the shared doc.",
    "Please review the notes beforehand.",
    "Bring your open questions.",
    "Decisions and owners at the end.",
    "",
    "",
)
SERIES = (
    ("Standup", 15, "FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR"),
    ("1:1", 30, "FREQ=WEEKLY;BYDAY={DAY}"),
    ("Weekly sync", 45, "FREQ=WEEKLY;BYDAY={DAY}"),
    ("Biweekly review", 60, "FREQ=WEEKLY;INTERVAL=2;BYDAY={DAY}"),
    ("Office hours", 60, "FREQ=WEEKLY;BYDAY=TU,TH"),
    ("Monthly review", 60, "FREQ=MONTHLY;BYMONTHDAY={MDAY}"),
    ("Monthly all hands", 60, "FREQ=MONTHLY;BYDAY=1{DAY}"),
)
LENGTHS = (30, 30, 30, 45, 60, 60, 60, 90, 120)
PERSONA_WEEK = (date(2026, 6, 1), date(2026, 6, 7))


class Life:
    """The random part of the seed, bound to one build."""

    def __init__(self, s: Seeder, book: Book, users: list[dict], cals: dict[str, list[dict]]) -> None:
        self.s, self.book = s, book
        self.members = [u for u in users if not u["is_external"]]
        self.outside = [u for u in users if u["is_external"]]
        self.persona = users[0]
        self.primary = {c["owner_id"]: c["id"] for c in cals["primary"]}
        self.personal = cals["secondary"][0]["id"]
        extra = s.world.circle(s.world.persona, len(users) + 40)[len(users) - 1 :]
        self.strangers = [p.email for p in extra]

    def team(self, i: int) -> list[dict]:
        lo = max(0, i - 12)
        return [u for u in self.members[lo : i + 13] if u is not self.members[i]]

    def day(self, u: dict, offset: int) -> date:
        return to_local(self.s.now, u["timezone"]).date() + timedelta(days=offset)

    def slot(self, u: dict, minutes: int) -> time:
        start = int(u["work_start"][:2]) * 60 + int(u["work_start"][3:])
        end = int(u["work_end"][:2]) * 60 + int(u["work_end"][3:]) - minutes
        m = start + 30 * self.s.rng.randint(0, max(0, (end - start) // 30))
        return time(m // 60, m % 60)

    def touches_week(self, u: dict, start: datetime) -> bool:
        seen = to_local(to_utc(start, u["timezone"]), self.persona["timezone"]).date()
        return PERSONA_WEEK[0] <= seen <= PERSONA_WEEK[1]

    def answer(self, future: bool) -> str:
        weights = (35, 45, 10, 10) if future else (5, 75, 10, 10)
        return self.s.rng.choices(("needs_action", "accepted", "tentative", "declined"), weights)[0]

    def title(self, guests: list[dict]) -> str:
        rng = self.s.rng
        topic = TOPICS[rng.randrange(len(TOPICS))]
        if topic in ("Customer call", "Vendor demo", "Partner sync"):
            companies = self.s.world.companies
            return f"{topic}: {companies[rng.randrange(len(companies))].name}"
        if topic == "Interview":
            return f"Interview: {self.s.world.people[rng.randrange(len(self.s.world.people))].title}"
        if len(guests) == 1 and rng.random() < 0.4:
            return f"{topic} with {guests[0]['name'].split()[0]}"
        return f"{topic}: {AREAS[rng.randrange(len(AREAS))]}"


def seed_events(s: Seeder, book: Book, users: list[dict], cals: dict[str, list[dict]]) -> None:
    life = Life(s, book, users, cals)
    for i, u in enumerate(life.members):
        mine = i == 0
        n = s.count(small=40, medium=360, large=360) if mine else s.count(small=25, medium=46, large=12)
        for _ in range(n):
            if not mine and s.chance(0.15):
                _series(life, i, u)
            else:
                _single(life, i, u)


def _guests(life: Life, i: int, u: dict) -> list[dict]:
    rng = life.s.rng
    team = life.team(i) if i else life.members[1:30]
    k = min(len(team), rng.choice((0, 1, 1, 1, 2, 2, 3, 3, 4, 5, 6, 8)))
    out = rng.sample(team, k)
    if i and i <= 25 and life.persona not in out and rng.random() < 0.4:
        out.append(life.persona)
    if life.outside and rng.random() < 0.08:
        out.append(life.outside[rng.randrange(len(life.outside))])
    return out


def _single(life: Life, i: int, u: dict) -> None:
    s, rng = life.s, life.s.rng
    guests = _guests(life, i, u)
    offset = rng.randint(-60, 60)
    if rng.random() < 0.03:
        _all_day(life, u, guests, offset)
        return
    minutes = rng.choice(LENGTHS)
    day = life.day(u, offset)
    if day.weekday() >= 5:
        day -= timedelta(days=day.weekday() - 4)
    start = datetime.combine(day, life.slot(u, minutes))
    involved = i == 0 or life.persona in guests
    if involved and life.touches_week(u, start):
        start += timedelta(days=7 if rng.random() < 0.5 else -7)
    cal = life.personal if i == 0 and not guests and rng.random() < 0.3 else life.primary[u["id"]]
    title = (
        life.title(guests)
        if cal != life.personal
        else rng.choice(("Dentist", "Haircut", "Pick up kids", "Car service", "Yoga"))
    )
    row = life.book.event(
        u["id"], cal, title, start, start + timedelta(minutes=minutes), u["timezone"],
        description=rng.choice(DESCRIPTIONS),
        status=rng.choices(("confirmed", "cancelled", "tentative"), (93, 4, 3))[0],
        visibility="private" if cal == life.personal or rng.random() < 0.05 else "default",
        transparency="free" if rng.random() < 0.04 else "busy",
        meeting_link=f"https://meet.example/{row_code(rng)}" if rng.random() < 0.5 else None,
    )  # fmt: skip
    future = start > to_local(s.now, u["timezone"])
    for g in guests:
        life.book.guest(row["id"], g["id"], "needs_action" if g["is_external"] else life.answer(future))
    if rng.random() < 0.03:
        life.book.guest(row["id"], life.strangers[rng.randrange(len(life.strangers))], "needs_action")
    if guests and rng.random() < 0.25:
        life.book.take_room(row, len(guests) + 1)
    elif not row["location"] and rng.random() < 0.15:
        row["location"] = geo.address(u["city"], rng.randrange(12), rng.randint(1, 400)).line
    _reminders(life, row, u, guests, future)


def _reminders(life: Life, row: dict, u: dict, guests: list[dict], future: bool) -> None:
    rng = life.s.rng
    if life.persona in guests or u is life.persona:
        if future and rng.random() < 0.3:
            life.book.remind(row["id"], life.persona["id"], rng.choice((5, 10, 15, 30, 60)))
    elif rng.random() < 0.1:
        life.book.remind(row["id"], u["id"], rng.choice((10, 15, 30)), rng.choice(("popup", "email")))


def _all_day(life: Life, u: dict, guests: list[dict], offset: int) -> None:
    rng = life.s.rng
    day = life.day(u, offset)
    if u is life.persona and PERSONA_WEEK[0] <= day <= PERSONA_WEEK[1]:
        day += timedelta(days=7)
    start = datetime.combine(day, time(0, 0))
    row = life.book.event(
        u["id"], life.primary[u["id"]], rng.choice(ALL_DAY), start, start + timedelta(days=rng.randint(1, 3)),
        u["timezone"], all_day=True,
    )  # fmt: skip
    future = day > life.day(u, 0)
    for g in guests[:3]:
        if g is not life.persona:
            life.book.guest(row["id"], g["id"], life.answer(future))


def _series(life: Life, i: int, u: dict) -> None:
    rng = life.s.rng
    name, minutes, rule = SERIES[rng.randrange(len(SERIES))]
    guests = [g for g in _guests(life, i, u) if g is not life.persona][: 2 if name == "1:1" else 8]
    if not guests:
        guests = [g for g in life.team(i) if g is not life.persona][:1]
    day = life.day(u, rng.randint(-60, 20))
    if day.weekday() >= 5:
        day += timedelta(days=7 - day.weekday())
    if "TU,TH" in rule and day.weekday() not in (1, 3):
        day += timedelta(days=(1 - day.weekday()) % 7)
    start = datetime.combine(day, life.slot(u, minutes))
    nth = (day.day - 1) // 7 + 1
    if "BYDAY=1{DAY}" in rule and nth != 1:
        day = day - timedelta(days=7 * (nth - 1))
        start = datetime.combine(day, start.time())
    rule = rule.replace("{DAY}", DAYS[start.weekday()]).replace("{MDAY}", str(start.day))
    rule += rng.choice(
        (
            "",
            "",
            f";COUNT={rng.randint(6, 40)}",
            f";UNTIL={(day + timedelta(days=rng.randint(30, 200))).strftime('%Y%m%d')}",
        )
    )
    later = to_local(to_utc(start, u["timezone"]), life.persona["timezone"]).date() > PERSONA_WEEK[1]
    if later and 0 < i <= 25 and name != "1:1" and rng.random() < 0.5:
        guests.append(life.persona)  # series she joins start after her fixed week
    title = (
        f"{name}: {guests[0]['name'].split()[0]} / {u['name'].split()[0]}"
        if name == "1:1"
        else f"{name}: {AREAS[rng.randrange(len(AREAS))]}"
    )
    row = life.book.event(
        u["id"], life.primary[u["id"]], title, start, start + timedelta(minutes=minutes), u["timezone"], rule=rule,
        meeting_link=f"https://meet.example/{row_code(rng)}", description=rng.choice(DESCRIPTIONS),
    )  # fmt: skip
    for g in guests:
        life.book.guest(row["id"], g["id"], "needs_action" if g["is_external"] else life.answer(True))
    if rng.random() < 0.3:
        _exception(life, row)


def _exception(life: Life, row: dict) -> None:
    rng = life.s.rng
    rule = recurrence.parse(row["rrule"])
    tz = row["timezone"]
    picks = list(recurrence.expand(rule, datetime.fromisoformat(row["start_local"]), tz, cap=20))
    original = picks[rng.randrange(len(picks))]
    if rng.random() < 0.5:
        life.book.exception(row, original, status="cancelled")
    else:
        life.book.exception(
            row, original, start=original + timedelta(minutes=rng.choice((60, -60, 30, 1440)))
        )


def row_code(rng) -> str:
    letters = "abcdefghijkmnpqrstuvwxyz"
    return "-".join("".join(rng.choice(letters) for _ in range(n)) for n in (3, 4, 3))
