"""The persona's own meetings and the few meetings of others she is part of, made first so their ids
are fixed (MTG-000001 is her 09:00 'Monday planning'); the tests and the docstring name them."""

from __future__ import annotations

from datetime import date, datetime, timedelta

from servers.domains.video_meeting.build import Build, iso, person_entry, utc_of
from servers.domains.video_meeting.model import Participant

PLANNING, WEBINAR, OFFICE_HOURS, ONE_ON_ONE, DESIGN, INTERVIEW = (f"MTG-00000{i}" for i in range(1, 7))


def seed_persona(b: Build, me: dict) -> None:
    w, tz = b.s.world, me["timezone"]
    mates = [u for u in b.members[me["account_id"]] if u is not me][:12]
    today = b.now.date()

    def on(day: date, hour: int, minute: int = 0) -> datetime:
        return utc_of(day, hour, minute, tz)

    def people(users: list[dict]) -> list:
        return [w.people[u["person_id"]] for u in users]

    # MTG-000001: every Monday at 09:00; four colleagues already wait for her to start it
    planning = b.meeting(
        me, "Monday planning", "recurring_fixed", on(date(2026, 3, 2), 9), 45, "waiting",
        recurrence="weekly", waiting_room=True, join_before_host=False, mute_on_entry=True,
        auto_recording="cloud",
    )  # fmt: skip
    b.invite(planning, people(mates[:8]))
    for weeks in (3, 2, 1):
        start = on(today - timedelta(weeks=weeks), 9)
        _held(b, planning, me, mates[:6], start, 45, "cloud", "available", transcript=True)
    for k, u in enumerate(mates[:4]):
        b.add(
            Participant, meeting_id=planning["id"], instance_id=None, user_id=u["id"], name=u["name"],
            email=u["email"], role="attendee", state="waiting_room", muted=True, video_on=False,
            removed=False, joined_at=iso(b.now - timedelta(minutes=6 - k)), left_at=None,
        )  # fmt: skip
    # MTG-000002 / 000003: registration with manual approval and pending registrants
    webinar = b.meeting(
        me, "Customer onboarding webinar", "scheduled", on(date(2026, 6, 4), 10), 60, "waiting",
        waiting_room=False, registration=True, approval="manual",
    )  # fmt: skip
    for k, status in enumerate(("pending",) * 5 + ("approved",) * 3 + ("denied", "cancelled")):
        b.register(webinar, w.people[len(w.people) // 2 + k], status)
    office = b.meeting(
        me, "Partner office hours", "scheduled", on(date(2026, 6, 10), 14), 60, "waiting",
        waiting_room=True, registration=True, approval="manual",
    )  # fmt: skip
    for k, status in enumerate(("pending",) * 3 + ("approved",) * 2):
        b.register(office, w.people[len(w.people) // 3 + k], status)
    _upcoming(b, me, mates, on, people)
    _previous(b, me, mates, on, today)
    _others(b, me, mates)


def _upcoming(b: Build, me: dict, mates: list[dict], on, people) -> None:
    """MTG-000004..000009: her upcoming meetings (a weekly 1:1, reviews, an interview, a standup)."""
    w = b.s.world
    first = mates[0]["name"].split()[0]
    one = b.meeting(
        me, f"1:1 with {first}", "recurring_fixed", on(date(2026, 4, 1), 11), 30, "waiting",
        recurrence="weekly", waiting_room=False,
    )  # fmt: skip
    b.invite(one, people(mates[:1]))
    design = b.meeting(
        me, "Design review: Juniper", "scheduled", on(date(2026, 6, 3), 13), 60, "waiting", waiting_room=False
    )
    b.invite(design, people(mates[2:8]))
    interview = b.meeting(
        me, "Interview: Senior Designer", "scheduled", on(date(2026, 6, 2), 15), 45, "waiting",
        waiting_room=True,
    )  # fmt: skip
    b.invite(interview, [*people(mates[3:4]), w.people[len(w.people) - 1]])
    b.meeting(me, "Quarterly planning prep", "scheduled", on(date(2026, 6, 8), 10), 90, "waiting")
    b.meeting(me, "Coffee chat", "recurring_floating", None, 30, "waiting", waiting_room=False)
    standup = b.meeting(
        me, "Team daily standup", "recurring_fixed", on(date(2026, 4, 6), 9, 30), 15, "waiting",
        recurrence="weekdays", waiting_room=False,
    )  # fmt: skip
    b.invite(standup, people(mates[:6]))


def _previous(b: Build, me: dict, mates: list[dict], on, today: date) -> None:
    """MTG-000010..000015: held meetings whose recordings are in every state."""
    rows = (
        ("Roadmap review", date(2026, 5, 28), 10, 60, "cloud", "available", None, True),
        ("Vendor demo: Lantern Labs", date(2026, 5, 20), 14, 45, "cloud", "trashed", 10.0, True),
        ("Q1 all-hands", date(2026, 4, 2), 11, 60, "cloud", "trashed", 45.0, False),
        ("Early sync with London", today, 7, 50, "cloud", "processing", None, True),
        ("Budget review", date(2026, 5, 26), 15, 30, "cloud", "available", None, False),
    )
    for title, day, hour, minutes, kind, status, trashed, transcript in rows:
        start = on(day, hour, 30 if title.startswith("Early") else 0)
        m = b.meeting(me, title, "scheduled", start, minutes, "finished", waiting_room=False)
        _held(b, m, me, mates[:5], start, minutes, kind, status, transcript=transcript, trashed=trashed)
    start = on(date(2026, 5, 29), 16)
    huddle = b.meeting(me, "Quick huddle", "instant", start, 30, "finished", waiting_room=False)
    _held(b, huddle, me, mates[1:3], start, 20, "local", "available")


def _held(
    b: Build,
    m: dict,
    host: dict,
    users: list[dict],
    start: datetime,
    minutes: int,
    kind: str,
    status: str,
    *,
    transcript: bool = False,
    trashed: float | None = None,
) -> None:
    people = [person_entry(host, "host", "left")] + [person_entry(u, "attendee", "left") for u in users]
    inst = b.run(m, start, start + timedelta(minutes=minutes), people)
    rec = b.recording(m, inst, kind, status, trashed_days=trashed)
    if transcript:
        b.transcript(rec, ready=status != "processing", speakers=len(people))


def _others(b: Build, me: dict, mates: list[dict]) -> None:
    """Meetings of other hosts: an external review the persona waits to be admitted to, an external
    meeting and webinar she may join, a full basic-plan livestream of her choir, a live workshop in
    her studio (whose storage is full) and a colleague's live review."""
    w = b.s.world
    outside = [a for a in b.accounts.values() if a["id"] not in ("ACT-000001", "ACT-000002", "ACT-000003")]
    paid = [a for a in outside if a["plan"] != "basic" and b.members[a["id"]]]
    vendor, partner = b.members[paid[0]["id"]][0], b.members[paid[-1]["id"]][0]
    review = b.meeting(
        vendor, "Vendor quarterly review", "scheduled", b.now - timedelta(minutes=10), 60, "started",
        waiting_room=True, join_before_host=False,
    )  # fmt: skip
    b.invite(review, [w.persona])
    crowd = [person_entry(vendor, "host", "in_meeting")]
    crowd += [person_entry(u, "attendee", "in_meeting") for u in b.members[paid[0]["id"]][1:4]]
    crowd.append(person_entry(me, "attendee", "waiting_room"))
    b.run(review, b.now - timedelta(minutes=10), None, crowd)
    sync = b.meeting(
        partner, "Partner sync", "scheduled", utc_of(date(2026, 6, 5), 11, 0, partner["timezone"]), 30,
        "waiting", waiting_room=True,
    )  # fmt: skip
    b.invite(sync, [w.persona])
    webinar = b.meeting(
        partner, "Industry webinar: Cascade", "scheduled", utc_of(date(2026, 6, 9), 9, 0, partner["timezone"]),
        60, "waiting", waiting_room=False, registration=True, approval="automatic",
    )  # fmt: skip
    b.register(webinar, w.persona, "approved")
    _choir_livestream(b)
    studio = b.members["ACT-000002"]
    workshop = b.meeting(
        studio[0], "Client workshop", "scheduled", b.now - timedelta(minutes=25), 90, "started",
        waiting_room=True,
    )  # fmt: skip
    people = [person_entry(studio[0], "host", "in_meeting")]
    people += [person_entry(u, "attendee", "in_meeting") for u in studio[1:4]]
    people.append(person_entry(w.people[len(w.people) - 2], "attendee", "waiting_room"))
    b.run(workshop, b.now - timedelta(minutes=25), None, people)
    colleague = mates[11]
    arch = b.meeting(
        colleague, "Juniper architecture review", "scheduled", b.now - timedelta(minutes=15), 60, "started",
        waiting_room=True, auto_recording="cloud",
    )  # fmt: skip
    people = [person_entry(colleague, "host", "in_meeting")]
    people += [person_entry(u, "attendee", "in_meeting") for u in mates[4:10]]
    people += [person_entry(u, "attendee", "waiting_room") for u in mates[1:4]]
    inst = b.run(arch, b.now - timedelta(minutes=15), None, people)
    b.recording(arch, inst, "cloud", "recording")


def _choir_livestream(b: Build) -> None:
    """A basic-plan meeting at its 100-person limit, with two more people waiting."""
    w = b.s.world
    choir = [u for u in b.members["ACT-000003"] if u["status"] == "active"]
    host = choir[0]
    m = b.meeting(
        host, "Summer concert livestream", "scheduled", b.now - timedelta(minutes=30), 40, "started",
        waiting_room=True,
    )  # fmt: skip
    people = [person_entry(host, "host", "in_meeting")]
    people += [person_entry(u, "attendee", "in_meeting") for u in choir[1:100]]
    taken = {u["email"] for u in choir}
    guests = [p for p in w.people[::-1] if p.email not in taken and p.index != 0]
    for k in range(99 - (len(people) - 1)):
        if k < len(guests) // 2:
            people.append(person_entry(guests[k], "attendee", "in_meeting"))
        else:
            people.append({"user_id": None, "name": f"Guest {k + 1}", "email": None, "role": "attendee",
                           "state": "in_meeting"})  # fmt: skip
    people += [person_entry(p, "attendee", "waiting_room") for p in guests[-2:]]
    b.run(m, b.now - timedelta(minutes=30), None, people)
