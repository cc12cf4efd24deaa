"""When people are free: busy blocks across invitees, the first slots that suit everyone's
working hours in their own zones, rooms free in a window, and booking a room for an event."""

from __future__ import annotations

from datetime import datetime, time, timedelta
from typing import Annotated, Any, Literal

from pydantic import Field

from servers.domains.calendar.changes import room_of
from servers.domains.calendar.clock import show, to_local, to_utc
from servers.domains.calendar.model import MAX_WINDOW_DAYS, SLOT_MIN, Attendee, Event, Room, calendar
from servers.domains.calendar.rules import MINE_TO_EDIT, WITHOUT_ROOM, Colleagues, editable, moment
from servers.domains.calendar.scheduling import attach_room
from servers.domains.calendar.timeline import attended, booked_rooms, when
from servers.domains.calendar.viewing import EndDay, StartDay, window
from servers.kit import Db, Moment, Offset, PageSize, Ref, ToolError

Building = Literal["Harbor Building", "Cedar Hall", "Foundry"]
Capacity = Annotated[int, Field(ge=1, le=100, description="Seats needed.", examples=[4, 6, 8, 10, 12])]
Meeting = Annotated[
    int, Field(ge=15, le=480, description="Meeting length in minutes.", examples=[30, 45, 60])
]
From = Annotated[
    Moment,
    Field(
        examples=[
            "2026-06-02T10:00",
            "2026-06-02T14:00",
            "2026-06-03T09:00",
            "2026-06-03T15:30",
            "2026-06-04T11:00",
        ]
    ),
]
Until = Annotated[Moment, Field(examples=["2026-06-05T17:00", "2026-06-05T12:00", "2026-06-08T17:00"])]


def _people(db: Db, emails: list[str], user: dict) -> list[dict]:
    """Directory members, in the order asked; outsiders are refused by name."""
    found = {u["id"].casefold(): u for u in db.all(
        f"SELECT * FROM users WHERE lower(id) IN ({', '.join('?' * len(emails))})", *[e.casefold() for e in emails]
    )}  # fmt: skip
    missing = [e for e in emails if e.casefold() not in found]
    outside = [e for e in emails if e.casefold() in found and found[e.casefold()]["is_external"]]
    if missing or outside:
        parts = []
        if missing:
            parts.append(f"not in the directory: {', '.join(missing)}")
        if outside:
            parts.append(f"external (their calendars are elsewhere): {', '.join(outside)}")
        raise ToolError("free/busy is only known for members of this organisation; " + "; ".join(parts))
    return [found[e.casefold()] for e in emails]


def merged(db: Db, user: str, lo: datetime, hi: datetime) -> list[tuple[datetime, datetime]]:
    """A person's busy time in a UTC window as merged blocks (free and declined events do not count)."""
    spans = sorted(
        (max(o.start_utc, lo), min(o.end_utc, hi)) for o in attended(db, user, lo, hi, busy_only=True)
    )
    out: list[tuple[datetime, datetime]] = []
    for s, e in spans:
        if out and s <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], e))
        else:
            out.append((s, e))
    return out


def hours(person: dict, viewer_tz: str, on: datetime) -> str:
    """Working hours in the person's zone, and the same hours in the viewer's zone that day."""
    tz = person["timezone"]
    d = to_local(on, tz).date()
    s = to_utc(datetime.combine(d, time.fromisoformat(person["work_start"])), tz)
    e = to_utc(datetime.combine(d, time.fromisoformat(person["work_end"])), tz)
    mine = when(s, e, viewer_tz)
    return f"{person['work_start']}-{person['work_end']} {tz} ({mine['start'][11:]}-{mine['end'][11:]} yours)"


@calendar.tool(
    says=[
        "when are {emails} busy from {start}?",
        "check the free/busy of {emails} between {start} and {end}",
    ],
)
def get_free_busy(db: Db, emails: Colleagues, start: From, end: Until | None = None) -> dict:
    """Busy blocks of up to 20 people of the organisation in a window (no titles), in your time
    zone with UTC, plus each person's zone and working hours. Events marked free and declined
    invitations do not count as busy.

    Args:
        emails: Who to look at.
        start: Start of the window, in your time zone.
        end: End of the window (default: the end of start's day); at most 62 days after start.
    """
    user = db.actor()
    tz = user["timezone"]
    s = moment(db, start, tz, "start")
    e = moment(db, end, tz, "end") if end else datetime.combine(s.date() + timedelta(days=1), time(0))
    if e <= s:
        raise ToolError(f"end {show(e)} must be after start {show(s)}")
    if e - s > timedelta(days=MAX_WINDOW_DAYS):
        raise ToolError(f"a free/busy window is at most {MAX_WINDOW_DAYS} days")
    lo, hi = to_utc(s, tz), to_utc(e, tz)
    out = []
    for p in _people(db, emails, user):
        blocks = [when(a, b, tz) for a, b in merged(db, p["id"], lo, hi)]
        out.append({"email": p["id"], "name": p["name"], "timezone": p["timezone"],
                    "working_hours": hours(p, tz, lo), "busy": blocks})  # fmt: skip
    span = when(lo, hi, tz)
    return {"timezone": tz, "from_utc": span["start_utc"], "to_utc": span["end_utc"], "people": out}


def _fits_hours(p: dict, s: datetime, e: datetime) -> bool:
    """Inside the person's working hours on a weekday, in their own zone."""
    local_s, local_e = to_local(s, p["timezone"]), to_local(e, p["timezone"])
    if local_s.weekday() >= 5 or local_s.date() != local_e.date():
        return False
    return time.fromisoformat(p["work_start"]) <= local_s.time() and local_e.time() <= time.fromisoformat(
        p["work_end"]
    )


@calendar.tool(
    says=[
        "find a {duration_min}-minute slot for me and {emails} between {start_day} and {end_day}",
        "when can I meet {emails} for {duration_min} minutes, starting {start_day}?",
    ],
)
def find_meeting_time(
    db: Db,
    emails: Colleagues,
    duration_min: Meeting,
    start_day: StartDay,
    end_day: EndDay | None = None,
    within_working_hours: bool = True,
) -> dict:
    """The first (up to 5) slots, on a 30-minute grid, when you and everyone listed are free,
    from now on within the days given; by default only inside everyone's working hours (weekdays,
    each in their own time zone). Each slot shows every participant's local time.

    Args:
        emails: Who must attend besides you.
        duration_min: Meeting length in minutes.
        start_day: First day to look at (your local date).
        end_day: Last day, inclusive (default: a week after start_day).
        within_working_hours: Only slots inside everyone's working hours.
    """
    user = db.actor()
    tz = user["timezone"]
    last = end_day or (datetime.fromisoformat(start_day) + timedelta(days=6)).date().isoformat()
    lo, hi = window(tz, start_day, last)
    people = [user, *[p for p in _people(db, emails, user) if p["id"] != user["id"]]]
    busy = {p["id"]: merged(db, p["id"], lo, hi) for p in people}
    step = timedelta(minutes=SLOT_MIN)
    t = max(lo, db.now)
    t = t + (-(t - datetime(2000, 1, 1)) % step)
    length = timedelta(minutes=duration_min)
    slots: list[dict[str, Any]] = []
    while t + length <= hi and len(slots) < 5:
        free = all(all(b <= t or a >= t + length for a, b in busy[p["id"]]) for p in people)
        if free and (not within_working_hours or all(_fits_hours(p, t, t + length) for p in people)):
            local = [f"{p['id']}: {show(to_local(t, p['timezone']))} {p['timezone']}" for p in people]
            slots.append({**when(t, t + length, tz), "local_times": local})
        t += step
    searched = when(lo, hi, tz)
    return {
        "found": len(slots),
        "first_start": slots[0]["start"] if slots else None,
        "first_start_utc": slots[0]["start_utc"] if slots else None,
        "slots": slots,
        "timezone": tz,
        "searched_from": searched["start"],
        "searched_to": searched["end"],
        "note": None
        if slots
        else "no common free slot in that window; try more days or outside working hours",
    }


@calendar.tool(
    returns=Room,
    says=[
        "which rooms are free at {free_from}?",
        "find a room for {min_capacity} people in {building}",
        "list rooms with video that are free at {free_from}: {has_video}",
    ],
)
def list_rooms(
    db: Db,
    min_capacity: Capacity | None = None,
    building: Building | None = None,
    has_video: bool | None = None,
    free_from: From | None = None,
    free_to: Until | None = None,
    limit: PageSize = 20,
    offset: Offset = 0,
) -> dict:
    """Meeting rooms by size, building and video, and (given a time) only those free then.

    Args:
        min_capacity: At least this many seats.
        building: Harbor Building, Cedar Hall or Foundry.
        has_video: Only rooms with (true) or without (false) video equipment.
        free_from: Only rooms free from this time (your time zone)...
        free_to: ...until this time (default: an hour after free_from).
    """
    user = db.actor()
    tz = user["timezone"]
    sql, params = (
        "SELECT id, name, building, floor, capacity, has_video, resource_address FROM rooms WHERE 1",
        [],
    )
    for cond, value in (
        ("capacity >= ?", min_capacity),
        ("building = ?", building),
        ("has_video = ?", has_video),
    ):
        if value is not None:
            sql, params = f"{sql} AND {cond}", [*params, value]
    rooms = db.all(sql + " ORDER BY capacity, id", *params)
    span = None
    if free_to and not free_from:
        raise ToolError("free_to needs free_from")
    if free_from:
        s = moment(db, free_from, tz, "free_from")
        e = moment(db, free_to, tz, "free_to") if free_to else s + timedelta(hours=1)
        if e <= s or e - s > timedelta(days=1):
            raise ToolError(f"free_to {show(e)} must be after free_from {show(s)} and within a day of it")
        lo, hi = to_utc(s, tz), to_utc(e, tz)
        taken = booked_rooms(db, lo, hi)
        rooms = [r for r in rooms if r["id"] not in taken]
        span = when(lo, hi, tz)
    chunk = rooms[offset : offset + limit]
    return {"rooms": chunk, "free_from": span["start"] if span else None, "free_to": span["end"] if span else None,
            "total": len(rooms), "offset": offset, "limit": limit, "truncated": offset + len(chunk) < len(rooms)}  # fmt: skip


@calendar.tool(
    writes=[Attendee, Event],
    returns=Event,
    says=["book room {room} for {event}", "get {room} for my {event}"],
)
def book_room(db: Db, event: Ref[Event, f"{MINE_TO_EDIT} AND {WITHOUT_ROOM}"], room: Ref[Room]) -> dict:
    """Book a room for an event you organise or can edit (a series books it for every occurrence
    to come). The room declines when it is taken at any of those times or is too small.

    Args:
        event: The event or series.
        room: The room to book.
    """
    user = db.actor()
    row = editable(db, event, user, "book a room for")
    if row["rrule"] is None:
        from servers.domains.calendar.rules import not_past

        not_past(
            db, datetime.fromisoformat(row["start_utc"]), user["timezone"], f"event {event} '{row['title']}'"
        )
    held = room_of(db, event)
    if held is not None:
        raise ToolError(
            f"event {event} already has room {held['id']} ({held['name']}); remove it first with remove_attendee"
        )
    r = db.get(Room, room)
    people = db.scalar(
        "SELECT count(*) FROM attendees WHERE event_id = ? AND room_id IS NULL AND response != 'declined'",
        event,
    )
    attach_room(db, r, row, people, user["timezone"])
    if not row["location"]:
        db.update(Event, event, location=f"{r['name']} ({r['building']})", updated_at=db.stamp())
    else:
        db.update(Event, event, updated_at=db.stamp())
    return {"event": event, "title": row["title"], "room": r["id"], "name": r["name"], "building": r["building"],
            "capacity": r["capacity"], "attendees": people}  # fmt: skip
