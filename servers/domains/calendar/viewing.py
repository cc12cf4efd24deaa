"""Looking at calendars: the time, the calendars one can see, events in a window (series
expanded), one event or occurrence with its guests, and text search."""

from __future__ import annotations

from datetime import datetime, time, timedelta
from typing import Annotated, Any

from pydantic import Field

from servers.domains.calendar import recurrence
from servers.domains.calendar.clock import offset, parse_stored, show, show_utc, to_local, to_utc
from servers.domains.calendar.model import (
    MAX_WINDOW_DAYS,
    PARTS_OF_DAY,
    Calendar,
    Event,
    PartOfDay,
    calendar,
)
from servers.domains.calendar.recurrence import DAY_NAMES
from servers.domains.calendar.rules import (
    SEEN,
    VISIBLE_CAL,
    day,
    guests,
    master_of,
    my_response,
    resolve,
    role_on,
    visible_event,
)
from servers.domains.calendar.timeline import Occurrence, attended, expand_rows, on_calendar, shown, when
from servers.kit import Day, Db, Offset, PageSize, Ref, ToolError

THIS_WEEK = ["2026-06-01", "2026-06-02", "2026-06-03", "2026-06-04", "2026-06-05", "2026-06-08", "2026-06-09"]
LATER = ["2026-06-05", "2026-06-10", "2026-06-12", "2026-06-15", "2026-06-19"]
StartDay = Annotated[Day, Field(examples=THIS_WEEK)]
EndDay = Annotated[Day, Field(examples=LATER)]
Query = Annotated[
    str,
    Field(
        min_length=2,
        max_length=100,
        examples=["standup", "review", "1:1", "planning", "interview", "customer call", "retro", "lunch"],
    ),
]


def window(tz: str, start_day: str, end_day: str | None) -> tuple[datetime, datetime]:
    """The UTC span of whole local days ``start_day``..``end_day`` (inclusive) in ``tz``."""
    first, last = day(start_day), day(end_day or start_day)
    if last < first:
        raise ToolError(f"end_day {last} is before start_day {first}")
    if (last - first).days + 1 > MAX_WINDOW_DAYS:
        raise ToolError(f"a window covers at most {MAX_WINDOW_DAYS} days (got {(last - first).days + 1})")
    lo = to_utc(datetime.combine(first, time(0)), tz)
    return lo, to_utc(datetime.combine(last + timedelta(days=1), time(0)), tz)


def in_part(o: Occurrence, tz: str, part: str) -> bool:
    """Does the occurrence overlap that part of some day (in the viewer's zone)?"""
    h0, h1 = PARTS_OF_DAY[part]
    start, end = to_local(o.start_utc, tz), to_local(o.end_utc, tz)
    d = start.date()
    while d <= end.date():
        lo, hi = datetime.combine(d, time(h0)), datetime.combine(d, time(h1))
        if start < hi and end > lo:
            return True
        d += timedelta(days=1)
    return False


def page(
    items: list[Any], key: str, limit: int, offset_: int, render: Any = None, **extra: Any
) -> dict[str, Any]:
    """One page of rows; ``extra`` scalars (the window) follow the rows and precede the counts.
    ``render`` words each row of the page (only those: a window can hold hundreds)."""
    chunk = items[offset_ : offset_ + limit]
    if render is not None:
        chunk = [render(x) for x in chunk]
    return {
        key: chunk,
        **extra,
        "total": len(items),
        "offset": offset_,
        "limit": limit,
        "truncated": offset_ + len(chunk) < len(items),
    }


@calendar.tool(says=["what time is it for me right now?", "what's today's date and my time zone?"])
def get_current_time(db: Db) -> dict:
    """The current moment for the signed-in user: local date and time, weekday, time zone and UTC."""
    user = db.actor()
    tz = user["timezone"]
    local = to_local(db.now, tz)
    return {
        "user": user["id"],
        "local_time": show(local),
        "weekday": DAY_NAMES[local.weekday()],
        "timezone": tz,
        "utc_offset": offset(local, tz),
        "utc": show_utc(db.now),
    }


@calendar.tool(
    returns=Calendar,
    says=["which calendars can I see?", "list my calendars and my role on each"],
)
def list_calendars(db: Db, limit: PageSize = 20, offset: Offset = 0) -> dict:
    """Calendars the signed-in user owns or has been given access to, with their role on each."""
    user = db.actor()
    sql = (
        "SELECT c.id, c.name, c.kind, c.timezone, c.owner_id AS owner, "
        "CASE WHEN c.owner_id = ? THEN 'owner' ELSE a.role END AS role FROM calendars c "
        "LEFT JOIN calendar_access a ON a.calendar_id = c.id AND a.user_id = ? "
        "WHERE c.owner_id = ? OR a.id IS NOT NULL ORDER BY c.owner_id != ?, c.kind != 'primary', c.id"
    )
    return db.page(
        sql, user["id"], user["id"], user["id"], user["id"], limit=limit, offset=offset, key="calendars"
    )


@calendar.tool(
    returns=Event,
    says=[
        "what do I have on {start_day}?",
        "what's on my calendar on {start_day} in the {part_of_day}?",
        "list my events from {start_day} to {end_day}",
        "show me what's on calendar {calendar} on {start_day}",
    ],
)
def list_events(
    db: Db,
    start_day: StartDay,
    end_day: EndDay | None = None,
    part_of_day: PartOfDay | None = None,
    calendar: Ref[Calendar, VISIBLE_CAL] | None = None,
    include_declined: bool = False,
    limit: PageSize = 20,
    offset: Offset = 0,
) -> dict:
    """Events in a window of days, recurring series expanded into their occurrences, in time order.
    Times are in your time zone with UTC beside them.

    Args:
        start_day: First day of the window (your local date).
        end_day: Last day of the window, inclusive (default: start_day); at most 62 days.
        part_of_day: Only what overlaps the morning (06-12), afternoon (12-17) or evening (17-22).
        calendar: Another calendar you can see (default: your own calendar, invitations included).
        include_declined: Also list invitations you declined.
    """
    user = db.actor()
    tz = user["timezone"]
    lo, hi = window(tz, start_day, end_day)
    if calendar is None:
        found, detail = attended(db, user["id"], lo, hi, declined=include_declined), "full"
    else:
        cal = db.get(Calendar, calendar)
        detail = role_on(db, cal, user)
        if detail is None:
            raise ToolError(f"calendar {calendar} '{cal['name']}' is not shared with {user['name']}")
        found = on_calendar(db, cal, lo, hi)
    if part_of_day:
        found = [o for o in found if in_part(o, tz, part_of_day)]

    def item(o: Occurrence) -> dict[str, Any]:
        full = detail != "free_busy" and (
            o.row["visibility"] != "private" or detail == "owner" or calendar is None
        )
        answer = my_response(db, o.row["id"], user["id"]) if full else None
        return shown(o, tz, detail=full, response=answer)

    return page(
        found,
        "events",
        limit,
        offset,
        render=item,
        window_start=show(to_local(lo, tz)),
        window_end=show(to_local(hi, tz)),
        timezone=tz,
    )


def _series_info(db: Db, master: dict, tz: str) -> dict[str, Any]:
    rule = recurrence.parse(master["rrule"])
    upcoming = expand_rows(db, [master], db.now, db.now + timedelta(days=400))
    return {
        "rrule": master["rrule"],
        "repeats": recurrence.describe(rule),
        "series_timezone": master["timezone"],
        "next_occurrences": [
            shown(o, tz, detail=False) | {"occurrence": show(to_local(o.start_utc, tz))[:10]}
            for o in upcoming[:5]
        ],
    }


@calendar.tool(
    returns=Event,
    says=["show me the details of {event}", "who is coming to {event} and have they answered?"],
)
def get_event(db: Db, event: Ref[Event, SEEN], occurrence: Day | None = None) -> dict:
    """One event with its guests and their answers, your reminders, and (for a series) its rule and
    next occurrences; with ``occurrence``, that day's occurrence of a series.

    Args:
        event: The event (or series) id.
        occurrence: For a recurring event, the day (your local date) of the occurrence to show.
    """
    user = db.actor()
    tz = user["timezone"]
    row, sight = visible_event(db, event, user)
    master = master_of(db, row)
    if occurrence and not master["rrule"]:
        raise ToolError(f"event {event} '{row['title']}' does not repeat; leave out occurrence")
    if occurrence:
        occ = resolve(db, master, occurrence, tz)
    else:
        series = row["series_id"] or (row["id"] if row["rrule"] else None)
        occ = Occurrence(row, parse_stored(row["start_utc"]), parse_stored(row["end_utc"]), series)
    if sight == "busy":
        return shown(occ, tz, detail=False)
    out = shown(occ, tz, detail=True, response=my_response(db, occ.row["id"], user["id"]))
    out.update(
        description=occ.row["description"],
        meeting_link=occ.row["meeting_link"],
        visibility=occ.row["visibility"],
        transparency=occ.row["transparency"],
        event_timezone=occ.row["timezone"],
        local_in_event_zone=when(occ.start_utc, occ.end_utc, occ.row["timezone"])["start"],
        attendees=guests(db, occ.row["id"]),
        my_reminders=db.all(
            "SELECT id, minutes_before, method FROM reminders WHERE user_id = ? AND event_id IN (?, ?) ORDER BY id",
            user["id"],
            occ.row["id"],
            master["id"],
        ),
    )
    if master["rrule"] and not occurrence:
        out.update(_series_info(db, master, tz))
        out["occurrence"] = None
    return out


def _day_window(start_day: str | None, end_day: str | None, tz: str) -> list[str]:
    """[end, start] in UTC of the local days from start_day through end_day (either may be open)."""
    lo = to_utc(datetime.combine(day(start_day), time(0)), tz) if start_day else datetime(1970, 1, 1)
    hi = (
        to_utc(datetime.combine(day(end_day) + timedelta(days=1), time(0)), tz)
        if end_day
        else datetime(9999, 1, 1)
    )
    if hi <= lo:
        raise ToolError(f"end_day {end_day} is before start_day {start_day}")
    return [hi.isoformat(timespec="seconds"), lo.isoformat(timespec="seconds")]


@calendar.tool(
    returns=Event,
    says=["find my events about {query}", "search my calendar for {query} between {start_day} and {end_day}"],
)
def search_events(
    db: Db,
    query: Query,
    start_day: StartDay | None = None,
    end_day: EndDay | None = None,
    limit: PageSize = 20,
    offset: Offset = 0,
) -> dict:
    """Events whose title, description or location contains the text (case-insensitive), among
    your events and calendars you can read; a series is listed once. Optionally within days.

    Args:
        query: Words to look for.
        start_day: Only events on or after this day (your local date).
        end_day: Only events on or before this day.
    """
    user = db.actor()
    tz = user["timezone"]
    like = "%" + query.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
    where = (
        "status != 'cancelled' AND (title LIKE ?1 ESCAPE '\\' OR description LIKE ?1 ESCAPE '\\' "
        "OR location LIKE ?1 ESCAPE '\\') AND (id IN (SELECT event_id FROM attendees WHERE user_id = ?2) "
        "OR (visibility != 'private' AND calendar_id IN (SELECT calendar_id FROM calendar_access "
        "WHERE user_id = ?2 AND role != 'free_busy')))"
    )
    params: list[Any] = [like, user["id"]]
    if start_day or end_day:
        where += " AND start_utc < ?3 AND last_end_utc > ?4"
        params += _day_window(start_day, end_day, tz)
    # one scan of the events gives the page and, riding along each row, the total; only a page
    # past the end needs counting on its own
    rows = db.all(
        f"SELECT *, count(*) OVER () AS _total FROM events WHERE {where} "
        f"ORDER BY start_utc, id LIMIT {limit} OFFSET {offset}",
        *params,
    )
    total = rows[0]["_total"] if rows else db.scalar(f"SELECT count(*) FROM events WHERE {where}", *params)
    for r in rows:
        del r["_total"]
    out = []
    for r in rows:
        occ = Occurrence(
            r,
            parse_stored(r["start_utc"]),
            parse_stored(r["end_utc"]),
            r["series_id"] or (r["id"] if r["rrule"] else None),
        )
        item = shown(occ, tz, detail=True, response=my_response(db, r["id"], user["id"]))
        if r["rrule"]:
            item.update(repeats=recurrence.describe(recurrence.parse(r["rrule"])), occurrence=None)
        out.append(item)
    return {
        "events": out,
        "total": total,
        "offset": offset,
        "limit": limit,
        "truncated": offset + len(out) < total,
    }
