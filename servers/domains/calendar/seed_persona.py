"""The persona's own calendar, written out by hand so tasks and tests can rely on it: her
recurring series (a weekday stand-up, a weekly 1:1 moved on 2026-06-03, a biweekly sync in the
organizer's zone, a monthly review, series that start later) and the week of 2026-06-01 with
double-bookings, pending invitations, a tentative and a declined one."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta

from servers.domains.calendar import recurrence
from servers.domains.calendar.book import Book
from servers.domains.calendar.clock import to_local, to_utc
from servers.domains.calendar.recurrence import DAYS
from servers.kit import Seeder, geo

WEEK = date(2026, 6, 1)
# (day of the week, persona-local start, minutes, title, organizer, persona's answer, guests, room)
SINGLES = (
    (0, "10:00", 60, "Q3 roadmap review", 3, "needs_action", (1, 2, 4, 5), True),
    (0, "10:30", 30, "Vendor call: {company}", 0, None, (), False),
    (0, "12:00", 60, "Lunch with {first}", 0, None, (5,), False),
    (0, "15:00", 30, "Hiring sync", 4, "needs_action", (1, 6), False),
    (1, "10:00", 60, "Design review: onboarding flow", 6, "needs_action", (3, 7), True),
    (1, "10:00", 30, "Customer call: {company}", 7, "needs_action", (2,), False),
    (1, "13:00", 90, "Budget planning", 2, "tentative", (1, 3), False),
    (1, "14:00", 60, "Interview: Senior Engineer", 9, "needs_action", (10,), False),
    (2, "09:00", 60, "Architecture deep dive", 10, "needs_action", (3, 6, 11), False),
    (2, "11:00", 60, "Sprint retro", 0, None, (1, 2, 3, 4, 5, 6), True),
    (2, "13:00", 45, "Security training", 11, "declined", (12, 13), False),
    (2, "15:00", 60, "Partner sync: {company}", 0, None, (-1,), False),
    (3, "10:00", 30, "Launch go/no-go", 12, "needs_action", (2, 13), False),
    (3, "15:00", 60, "Marketing sync", 13, "needs_action", (14,), False),
    (4, "09:00", 30, "Weekly metrics", 14, "needs_action", (1, 15), False),
    (4, "14:00", 60, "Offsite prep", 15, "needs_action", (1, 2), False),
)


class Persona:
    """Helpers bound to the persona's directory and calendars."""

    def __init__(self, s: Seeder, book: Book, users: list[dict], cals: dict[str, list[dict]]) -> None:
        self.s, self.book, self.users = s, book, users
        self.me = users[0]
        self.tz = self.me["timezone"]
        self.primary = {c["owner_id"]: c["id"] for c in cals["primary"]}
        self.personal, self.running = cals["secondary"][0]["id"], cals["secondary"][1]["id"]
        self.externals = [u for u in users if u["is_external"]]

    def local(self, who: int, day: date, hhmm: str) -> datetime:
        """The persona's wall time ``hhmm`` on ``day`` as wall time in the organizer's zone."""
        h, m = (int(x) for x in hhmm.split(":"))
        here = datetime.combine(day, time(h, m))
        return to_local(to_utc(here, self.tz), self.users[who]["timezone"])

    def series(self, who: int, first: date, hhmm: str, minutes: int, title: str, rule: str, **kw) -> dict:
        """A series organised by ``who``; ``{DAY}`` in the rule is the start's weekday there."""
        start = self.local(who, first, hhmm)
        org = self.users[who]
        cal = kw.pop("calendar", self.primary[org["id"]])
        rule = rule.replace("{DAY}", DAYS[start.weekday()])
        return self.book.event(
            org["id"], cal, title, start, start + timedelta(minutes=minutes), org["timezone"], rule=rule, **kw
        )

    def occurrence(self, series: dict, day: date) -> datetime:
        """The series' occurrence (wall time in its zone) that falls on ``day`` for the persona."""
        tz = series["timezone"]
        start = datetime.fromisoformat(series["start_local"])
        for local in recurrence.expand(recurrence.parse(series["rrule"]), start, tz):
            if to_local(to_utc(local, tz), self.tz).date() == day:
                return local
        raise ValueError(f"{series['title']} has no occurrence on {day}")

    def invite(self, event: dict, guests: tuple[int, ...], mine: str | None) -> None:
        for k in guests:
            u = self.externals[0] if k < 0 else self.users[k]
            answer = (
                "needs_action" if u["is_external"] else self.s.pick(["accepted", "accepted", "tentative"])
            )
            self.book.guest(event["id"], u["id"], answer)
        if mine is not None:
            self.book.guest(event["id"], self.me["id"], mine)


def seed_persona(s: Seeder, book: Book, users: list[dict], cals: dict[str, list[dict]]) -> None:
    p = Persona(s, book, users, cals)
    _series(p)
    _week(p)


def _series(p: Persona) -> None:
    first = p.users[1]["name"].split()[0]
    me_first = p.me["name"].split()[0]
    link = "https://meet.example/std-{}".format
    standup = p.series(0, date(2026, 3, 2), "09:30", 15, "Team standup", "FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR",
                       meeting_link=link("team"))  # fmt: skip
    p.invite(standup, (1, 2, 3, 4, 5, 6), None)
    p.book.remind(standup["id"], p.me["id"], 10)
    one = p.series(1, date(2026, 1, 7), "14:00", 30, f"1:1 {me_first} / {first}", "FREQ=WEEKLY;BYDAY={DAY}",
                   meeting_link=link("one"))  # fmt: skip
    p.invite(one, (), "accepted")
    p.book.exception(one, p.occurrence(one, date(2026, 6, 3)), start=p.local(1, date(2026, 6, 4), "15:00"))
    sync = p.series(2, date(2026, 1, 15), "11:00", 60, "Product sync", "FREQ=WEEKLY;INTERVAL=2;BYDAY={DAY}")
    p.invite(sync, (3, 4, 5, 6, 7, 8, 9), "accepted")
    review = p.series(0, date(2026, 1, 5), "13:00", 60, "Monthly business review",
                      "FREQ=MONTHLY;BYDAY=1MO;UNTIL=20261231")  # fmt: skip
    p.invite(review, (1, 2, 3, 4, 5), None)
    mentor = p.series(0, date(2026, 4, 17), "16:00", 30, f"Mentoring with {p.users[8]['name'].split()[0]}",
                      "FREQ=WEEKLY;BYDAY=FR;COUNT=12")  # fmt: skip
    p.invite(mentor, (8,), None)
    crit = p.series(0, date(2026, 6, 16), "10:00", 60, "Design crit", "FREQ=WEEKLY;BYDAY=TU;UNTIL=20260929")
    p.invite(crit, (3, 4, 5, 6), None)
    planning = p.series(0, date(2026, 1, 15), "10:00", 120, "Quarterly planning",
                        "FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=15")  # fmt: skip
    p.invite(planning, (1, 2, 3, 4, 5, 6, 7, 8), None)
    p.series(0, date(2026, 7, 31), "19:00", 90, "Book club", "FREQ=MONTHLY;BYMONTHDAY=31;COUNT=6",
             calendar=p.personal, location="Reading Room, 212 Oak Ave, Portland")  # fmt: skip
    p.series(0, date(2026, 6, 13), "08:00", 90, "Long run", "FREQ=WEEKLY;BYDAY=SA", calendar=p.running)
    start = datetime(2026, 8, 14)
    p.book.event(p.me["id"], p.personal, "Wedding anniversary", start, start + timedelta(days=1), p.tz,
                 rule="FREQ=YEARLY", all_day=True)  # fmt: skip


def _week(p: Persona) -> None:
    companies = p.s.world.companies
    for k, (wd, hhmm, minutes, title, who, mine, guests, room) in enumerate(SINGLES):
        day = WEEK + timedelta(days=wd)
        org = p.users[who]
        start = p.local(who, day, hhmm)
        title = title.format(
            company=companies[(k * 3 + 1) % len(companies)].name, first=p.users[5]["name"].split()[0]
        )
        location = geo.address(p.me["city"], k, 100 + k * 7).line if title.startswith("Lunch") else ""
        event = p.book.event(
            org["id"], p.primary[org["id"]], title, start, start + timedelta(minutes=minutes), org["timezone"],
            location=location, meeting_link=None if location else f"https://meet.example/wk-{k:03d}",
        )  # fmt: skip
        p.invite(event, guests, mine)
        if room:
            p.book.take_room(event, len(guests) + 2)
        if who == 0 or mine in ("accepted", "tentative") or k % 3 == 0:
            p.book.remind(event["id"], p.me["id"], (10, 15, 30)[k % 3])
