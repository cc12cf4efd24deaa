"""Creating, moving and cancelling events: one occurrence of a series, this and the following
ones, or the whole series."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Annotated, Any

from pydantic import Field

from servers.domains.calendar import recurrence
from servers.domains.calendar.changes import (
    apply,
    conflicts,
    directory,
    move_series,
    new_times,
    room_is_free,
    room_of,
    series_started,
    shift_exceptions,
    split,
)
from servers.domains.calendar.clock import parse_stored, stored, to_utc
from servers.domains.calendar.model import (
    MAX_ATTENDEES,
    Attendee,
    Calendar,
    Event,
    Reminder,
    Room,
    Scope,
    calendar,
)
from servers.domains.calendar.rules import (
    WRITABLE_CAL,
    Invitees,
    MyEvent,
    check_duration,
    detach,
    editable,
    master_of,
    moment,
    not_past,
    primary,
    resolve,
    rule_of,
    writable_calendar,
)
from servers.domains.calendar.timeline import Occurrence, timing, wall, when
from servers.kit import Day, Db, Moment, Ref, TimeZone, ToolError

Title = Annotated[
    str,
    Field(
        min_length=1,
        max_length=200,
        examples=[
            "Project kickoff",
            "Coffee chat",
            "Q3 planning",
            "Team lunch",
            "Budget review",
            "Design sync",
        ],
    ),
]
Location = Annotated[
    str,
    Field(
        min_length=1,
        max_length=200,
        examples=["Room Hood (Harbor Building)", "14 Elm St, Portland", "Video call", "Cafeteria", "Lobby"],
    ),
]
Description = Annotated[
    str,
    Field(
        min_length=1,
        max_length=4000,
        examples=["Agenda in the shared doc.", "Let's review the launch checklist.", "Quick catch-up."],
    ),
]
Minutes = Annotated[
    int, Field(ge=5, le=1440, description="Length in minutes.", examples=[15, 30, 45, 60, 90])
]
RRule = Annotated[
    str,
    Field(
        min_length=10,
        max_length=200,
        description="RFC 5545 recurrence rule, e.g. FREQ=WEEKLY;BYDAY=TU;COUNT=10.",
        examples=[
            "FREQ=WEEKLY;COUNT=6",
            "FREQ=DAILY;COUNT=5",
            "FREQ=WEEKLY;INTERVAL=2;COUNT=4",
            "FREQ=MONTHLY;COUNT=3",
        ],
    ),
]


def _span(
    db: Db, start: str, end: str | None, minutes: int | None, all_day: bool, tz: str
) -> tuple[datetime, datetime]:
    s = moment(db, start, tz, "start")
    if all_day:
        if minutes is not None:
            raise ToolError("an all-day event takes an end day, not duration_min")
        s = datetime.combine(s.date(), datetime.min.time())
        last = moment(db, end, tz, "end").date() if end else s.date()
        return s, datetime.combine(last + timedelta(days=1), datetime.min.time())
    if end is not None:
        e = moment(db, end, tz, "end")
        if minutes is not None and e - s != timedelta(minutes=minutes):
            raise ToolError(f"end {end} and duration_min {minutes} disagree; give one of them")
        return s, e
    return s, s + timedelta(minutes=minutes or 60)


def _guest_list(db: Db, user: dict, attendees: list[str] | None) -> list[str]:
    emails = list(attendees or [])
    if any(e.casefold() == user["id"].casefold() for e in emails):
        raise ToolError(f"you ({user['id']}) organise this event; leave yourself out of attendees")
    rooms = [e for e in emails if db.scalar("SELECT id FROM rooms WHERE resource_address = ?", e)]
    if rooms:
        raise ToolError(f"{', '.join(rooms)} is a room; book it with the room argument, not as an attendee")
    if len(emails) + 1 > MAX_ATTENDEES:
        raise ToolError(
            f"an event has at most {MAX_ATTENDEES} attendees, the organizer included (got {len(emails) + 1})"
        )
    return emails


def add_guests(db: Db, event_id: str, emails: list[str], optional: bool = False) -> None:
    known = directory(db, emails)
    for e in emails:
        user = known.get(e) or next((u for k, u in known.items() if k.casefold() == e.casefold()), None)
        db.add(
            Attendee, event_id=event_id, email=user["id"] if user else e, user_id=user["id"] if user else None,
            room_id=None, response="needs_action", optional=optional, is_organizer=False, comment=None,
            responded_at=None,
        )  # fmt: skip


def attach_room(db: Db, room: dict, row: dict, people: int, tz: str) -> None:
    if people > room["capacity"]:
        raise ToolError(
            f"room {room['id']} ({room['name']}) holds {room['capacity']} people; this event has {people}"
        )
    room_is_free(db, room, row, {row["id"]}, tz)
    db.add(
        Attendee, event_id=row["id"], email=room["resource_address"], user_id=None, room_id=room["id"],
        response="accepted", optional=False, is_organizer=False, comment=None, responded_at=db.stamp(),
    )  # fmt: skip


def summary(db: Db, row: dict, user: dict, **extra: Any) -> dict:
    s, e = parse_stored(row["start_utc"]), parse_stored(row["end_utc"])
    out = {
        "event": row["id"],
        "title": row["title"],
        **when(s, e, user["timezone"]),
        "event_timezone": row["timezone"],
    }
    if row["rrule"]:
        out["repeats"] = recurrence.describe(recurrence.parse(row["rrule"]))
    if row["series_id"]:
        out["series"] = row["series_id"]
    return {**out, **extra}


@calendar.tool(
    writes=[Event, Attendee],
    returns=Event,
    says=[
        "schedule {title} on {start} for {duration_min} minutes",
        "set up a meeting called {title} at {start} and invite {attendees}",
        "create {title} at {start} repeating {rrule}",
        "book {title} at {start} in room {room} with {attendees}",
        "put {title} on calendar {calendar} at {start}",
    ],
)
def create_event(
    db: Db,
    title: Title,
    start: Moment,
    end: Moment | None = None,
    duration_min: Minutes | None = None,
    calendar: Ref[Calendar, WRITABLE_CAL] | None = None,
    attendees: Invitees | None = None,
    location: Location | None = None,
    description: Description | None = None,
    rrule: RRule | None = None,
    room: Ref[Room] | None = None,
    all_day: bool = False,
    timezone: TimeZone | None = None,
) -> dict:
    """Create an event (optionally recurring) on one of your calendars, invite people and book a
    room. Double-booking is allowed: the answer lists who is already busy then (conflicts).

    Args:
        title: What the event is called.
        start: When it starts, in your time zone (or in ``timezone`` if given).
        end: When it ends (or give duration_min; default one hour). For all-day events, the last day.
        duration_min: Length in minutes instead of an end.
        calendar: Calendar to put it on (default: your primary calendar); you need owner or writer.
        attendees: People to invite; they start as needs_action.
        location: Where it happens.
        description: Notes for the guests.
        rrule: Recurrence rule (FREQ DAILY/WEEKLY/MONTHLY/YEARLY, INTERVAL, BYDAY, BYMONTHDAY, COUNT or UNTIL).
        room: A room to book; it must be free and big enough for everyone.
        all_day: An all-day event (start's date to end's date, at most 14 days).
        timezone: The zone start and end are written in and the event keeps (default: yours).
    """
    user = db.actor()
    tz = timezone or user["timezone"]
    cal = writable_calendar(db, calendar or primary(db, user["id"])["id"], user)
    s, e = _span(db, start, end, duration_min, all_day, tz)
    check_duration(s, e, all_day)
    rule = rule_of(rrule)
    if rule is not None:
        try:
            recurrence.check_start(rule, s, tz)
        except recurrence.RuleError as exc:
            raise ToolError(f"recurrence rule {rrule!r}: {exc}") from None
    not_past(db, to_utc(s, tz), user["timezone"], "the event")
    guests = _guest_list(db, user, attendees)
    row = db.insert(
        Event, calendar_id=cal["id"], organizer_id=user["id"], title=title, description=description or "",
        location=location or "", **timing(s, e, tz, rule), all_day=all_day, status="confirmed",
        visibility="default", transparency="free" if all_day else "busy", series_id=None, original_start=None,
        meeting_link=None, created_at=db.stamp(), updated_at=db.stamp(),
    )  # fmt: skip
    db.add(
        Attendee, event_id=row["id"], email=user["id"], user_id=user["id"], room_id=None, response="accepted",
        optional=False, is_organizer=True, comment=None, responded_at=db.stamp(),
    )  # fmt: skip
    add_guests(db, row["id"], guests)
    booked = None
    if room is not None:
        booked = db.get(Room, room)
        attach_room(db, booked, row, len(guests) + 1, user["timezone"])
        if not location:
            row = db.update(Event, row["id"], location=f"{booked['name']} ({booked['building']})")
    return summary(
        db, row, user, calendar=cal["id"], attendees=len(guests), room=booked["id"] if booked else None,
        conflicts=conflicts(db, row, user, {row["id"]}),
    )  # fmt: skip


def _target(
    db: Db, event: str, occurrence: str | None, scope: str, user: dict, action: str
) -> tuple[dict, dict, Occurrence | None]:
    """(row, master, occurrence): what the call acts on. A single event has no occurrence; an
    exception passed directly is its own occurrence of its series."""
    row = editable(db, event, user, action)
    master = master_of(db, row)
    if not master["rrule"]:
        if occurrence:
            raise ToolError(f"event {event} '{row['title']}' does not repeat; leave out occurrence")
        return row, master, None
    if row["series_id"] and not occurrence:
        s, e = parse_stored(row["start_utc"]), parse_stored(row["end_utc"])
        occ = Occurrence(row, s, e, master["id"], parse_stored(row["original_start"]))
    else:
        occ = resolve(db, master, occurrence, user["timezone"])
    return row, master, occ


def _change(
    db: Db,
    row: dict,
    master: dict,
    occ: Occurrence | None,
    scope: str,
    moves: tuple[str | None, str | None],
    details: dict[str, Any],
    tz: str,
) -> dict:
    """Apply an update at its scope; returns the row that now describes the change."""
    start, end = moves
    moving = bool(start or end)
    if occ is None or scope == "this":
        target = row if occ is None else detach(db, master, occ)
        not_past(db, parse_stored(target["start_utc"]), tz, f"event {target['id']} '{target['title']}'")
        return apply(db, target, new_times(db, target, start, end, tz) if moving else None, **details)
    first, last = wall(master)
    if scope == "following" and occ.original != first:
        not_past(db, occ.start_utc, tz, f"the occurrence of {master['id']}")
        here = {
            **master,
            "start_local": stored(occ.original),
            "end_local": stored(occ.original + (last - first)),
        }
        return split(db, master, occ, new_times(db, here, start, end, tz) if moving else None, **details)
    series_started(db, master, tz, "change")
    times = new_times(db, master, start, end, tz) if moving else None
    moved = move_series(db, master, times) if times else master
    changed = apply(db, moved, times, **details)
    if times:
        shift_exceptions(db, master, times[0] - first)
    return changed


@calendar.tool(
    writes=[Event, Attendee, Reminder],
    returns=Event,
    says=[
        "move {event} to {start}",
        "rename {event} to {title}",
        "change the location of {event} to {location}",
        "reschedule {event} to {start} (apply to: {scope} occurrences)",
    ],
)
def update_event(
    db: Db,
    event: MyEvent,
    occurrence: Day | None = None,
    scope: Scope = "this",
    start: Moment | None = None,
    end: Moment | None = None,
    title: Title | None = None,
    location: Location | None = None,
    description: Description | None = None,
) -> dict:
    """Change an event's time, title, location or description. For a recurring event choose the
    occurrence (default: the next one) and the scope: ``this`` occurrence only, ``following``
    (this and every later one: the series is split) or ``all`` (a series that has not started).
    A new start keeps the length unless an end is given; rooms must be free at the new time.

    Args:
        event: The event or series to change.
        occurrence: For a series, the day (your local date) of the occurrence the change starts at.
        scope: this, following or all (a one-off event ignores it).
        start: New start, in your time zone.
        end: New end, in your time zone.
        title: New title.
        location: New location.
        description: New description.
    """
    user = db.actor()
    tz = user["timezone"]
    if not any((start, end, title, location, description)):
        raise ToolError("nothing to change: give start, end, title, location or description")
    row, master, occ = _target(db, event, occurrence, scope, user, "change")
    details = {"title": title, "location": location, "description": description}
    changed = _change(db, row, master, occ, scope, (start, end), details, tz)
    room = room_of(db, changed["id"])
    if room is not None and (start or end):
        room_is_free(db, room, changed, {changed["id"], master["id"]}, tz)
    return summary(
        db, changed, user, scope=scope if master["rrule"] else None,
        conflicts=conflicts(db, changed, user, {changed["id"], master["id"]}) if (start or end) else [],
    )  # fmt: skip


@calendar.tool(
    writes=[Event, Attendee],
    returns=Event,
    destructive=True,
    says=[
        "cancel {event}",
        "call off the next {event}",
        "cancel {event} (apply to: {scope} occurrences)",
    ],
)
def cancel_event(db: Db, event: MyEvent, occurrence: Day | None = None, scope: Scope = "this") -> dict:
    """Cancel an event for everyone (organizer or calendar writer only; guests decline instead).
    For a recurring event: one occurrence (``this``, default the next one), it and all later
    ones (``following``: the series ends before it) or the whole series (``all``, only before it
    has started). Started or past events cannot be cancelled.

    Args:
        event: The event or series to cancel.
        occurrence: For a series, the day (your local date) of the occurrence.
        scope: this, following or all (a one-off event ignores it).
    """
    user = db.actor()
    tz = user["timezone"]
    row, master, occ = _target(db, event, occurrence, scope, user, "cancel")
    if occ is None or scope == "this":
        target = row if occ is None else detach(db, master, occ)
        not_past(db, parse_stored(target["start_utc"]), tz, f"event {target['id']} '{target['title']}'")
        done = db.update(Event, target["id"], status="cancelled", updated_at=db.stamp())
        return summary(db, done, user, status="cancelled", scope=scope if occ else None)
    not_past(db, occ.start_utc, tz, f"the occurrence of {master['id']}")
    if scope == "following" and occ.original != wall(master)[0]:
        start0, end0 = wall(master)
        rule = recurrence.ending_before(
            recurrence.parse(master["rrule"]), start0, master["timezone"], occ.original
        )
        done = db.update(
            Event, master["id"], **timing(start0, end0, master["timezone"], rule), updated_at=db.stamp()
        )
        later = [
            r["id"]
            for r in db.all("SELECT id, original_start FROM events WHERE series_id = ?", master["id"])
            if parse_stored(r["original_start"]) >= occ.original
        ]
    else:
        series_started(db, master, tz, "be cancelled")
        done = db.update(Event, master["id"], status="cancelled", updated_at=db.stamp())
        later = [r["id"] for r in db.all("SELECT id FROM events WHERE series_id = ?", master["id"])]
    for key in later:
        db.update(Event, key, status="cancelled", updated_at=db.stamp())
    return summary(
        db,
        done,
        user,
        status=done["status"],
        scope=scope,
        cancelled_from=when(occ.start_utc, occ.end_utc, tz)["start"],
    )
