"""Changing events' times and details in place, the room and conflict checks every change
makes, and splitting a series for this-and-following edits."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from servers.domains.calendar import recurrence
from servers.domains.calendar.clock import parse_stored, show, stored, to_local, to_utc
from servers.domains.calendar.model import CONFLICT_HORIZON_DAYS, Event, Reminder, Room
from servers.domains.calendar.rules import check_duration, copy_guests, moment, not_past, rule_of
from servers.domains.calendar.timeline import (
    Occurrence,
    busy_at,
    overlapping,
    room_bookings,
    timing,
    wall,
    when,
    windows_of,
)
from servers.kit import Db, ToolError


def in_event_zone(db: Db, text: str, user_tz: str, event_tz: str, what: str) -> datetime:
    """A Moment the user wrote (their zone, or with an offset) as wall time in the event's zone."""
    local = moment(db, text, user_tz, what)
    return to_local(to_utc(local, user_tz), event_tz)


def new_times(
    db: Db, row: dict[str, Any], start: str | None, end: str | None, user_tz: str
) -> tuple[datetime, datetime]:
    """The row's wall times after a change of start and/or end (a new start keeps the length)."""
    tz = row["timezone"]
    old_start, old_end = wall(row)
    s = in_event_zone(db, start, user_tz, tz, "start") if start else old_start
    e = in_event_zone(db, end, user_tz, tz, "end") if end else s + (old_end - old_start)
    check_duration(s, e, bool(row["all_day"]))
    if start:
        not_past(db, to_utc(s, tz), user_tz, "the new time")
    return s, e


def apply(
    db: Db, row: dict[str, Any], times: tuple[datetime, datetime] | None, **details: Any
) -> dict[str, Any]:
    """Write new wall times (recomputing UTC and the series' end) and details into one row."""
    values: dict[str, Any] = {k: v for k, v in details.items() if v is not None}
    if times is not None:
        rule = rule_of(row["rrule"])
        values.update(timing(times[0], times[1], row["timezone"], rule))
        if row["series_id"]:
            values["last_end_utc"] = values["end_utc"]
    values["updated_at"] = db.stamp()
    return db.update(Event, row["id"], **values)


def room_of(db: Db, event_id: str) -> dict[str, Any] | None:
    found = db.scalar("SELECT room_id FROM attendees WHERE event_id = ? AND room_id IS NOT NULL", event_id)
    return db.get(Room, found) if found else None


def room_is_free(db: Db, room: dict[str, Any], row: dict[str, Any], skip: set[str], user_tz: str) -> None:
    """Refuse when the room is taken at any of the row's times (the room declines)."""
    spans = windows_of(row, db.now, CONFLICT_HORIZON_DAYS)
    if not spans:
        return
    lo, hi = min(s for s, _ in spans), max(e for _, e in spans)
    for o in overlapping(room_bookings(db, room["id"], lo, hi, skip), spans):
        t = when(o.start_utc, o.end_utc, user_tz)
        raise ToolError(
            f"room {room['id']} ({room['name']}) declined: it is booked {t['start']}-{t['end'][11:]} "
            f"by '{o.row['title']}' ({o.event}); pick another room or time (list_rooms shows free ones)"
        )


def conflicts(db: Db, row: dict[str, Any], viewer: dict[str, Any], skip: set[str]) -> list[dict[str, Any]]:
    """Who among the event's directory guests is already busy at its times (double-booking is
    allowed; this says where). Titles are shown only for the viewer's own events."""
    spans = windows_of(row, db.now, CONFLICT_HORIZON_DAYS)
    if not spans:
        return []
    people = db.all(
        "SELECT u.id FROM attendees a JOIN users u ON u.id = a.user_id WHERE a.event_id = ? "
        "AND u.is_external = 0 AND a.response != 'declined' ORDER BY a.is_organizer DESC, a.id",
        row["id"],
    )
    out: list[dict[str, Any]] = []
    busy = busy_at(db, [p["id"] for p in people], spans)
    for p in people:
        for o in overlapping(busy[p["id"]], spans):
            if o.event in skip or o.row["id"] in skip:
                continue
            mine = p["id"] == viewer["id"]
            item = {
                "email": p["id"],
                "event": o.event if mine else None,
                "title": o.row["title"] if mine else "busy",
            }
            out.append({**item, **when(o.start_utc, o.end_utc, viewer["timezone"])})
            if len(out) >= 20:
                return out
    return out


def split(
    db: Db, master: dict[str, Any], occ: Occurrence, times: tuple[datetime, datetime] | None, **details: Any
) -> dict[str, Any]:
    """This-and-following: the series ends before ``occ`` and a new series (guests and reminders
    copied, later exceptions moved over) continues from it with the changes."""
    tz = master["timezone"]
    rule = recurrence.parse(master["rrule"])
    start0, end0 = wall(master)
    old = recurrence.ending_before(rule, start0, tz, occ.original)
    rest = recurrence.remaining(rule, start0, tz, occ.original)
    s, e = times or (occ.original, occ.original + (end0 - start0))
    try:
        rest = recurrence.rebase(rest, occ.original, s, tz)
    except recurrence.RuleError as exc:
        raise ToolError(f"cannot move the following occurrences of {master['id']}: {exc}") from None
    db.update(Event, master["id"], **timing(start0, end0, tz, old), updated_at=db.stamp())
    values = {k: v for k, v in master.items() if k != "id"}
    values.update({k: v for k, v in details.items() if v is not None})
    values.update(timing(s, e, tz, rest), created_at=db.stamp(), updated_at=db.stamp())
    new = db.insert(Event, **values)
    copy_guests(db, master["id"], new["id"])
    for r in db.all("SELECT * FROM reminders WHERE event_id = ? ORDER BY id", master["id"]):
        db.add(Reminder, **{**{k: v for k, v in r.items() if k != "id"}, "event_id": new["id"]})
    shift = s - occ.original
    for ex in db.all("SELECT id, original_start FROM events WHERE series_id = ? ORDER BY id", master["id"]):
        if parse_stored(ex["original_start"]) >= occ.original:
            moved = stored(parse_stored(ex["original_start"]) + shift)
            db.update(Event, ex["id"], series_id=new["id"], original_start=moved)
    return new


def shift_exceptions(db: Db, master: dict[str, Any], delta: timedelta) -> None:
    """After a whole series moves, its exceptions still name the occurrences they replace."""
    if not delta:
        return
    for ex in db.all("SELECT id, original_start FROM events WHERE series_id = ? ORDER BY id", master["id"]):
        db.update(Event, ex["id"], original_start=stored(parse_stored(ex["original_start"]) + delta))


def move_series(db: Db, master: dict[str, Any], times: tuple[datetime, datetime]) -> dict[str, Any]:
    """The rule after moving a whole series' first occurrence (a single weekday follows)."""
    start0, _ = wall(master)
    try:
        rule = recurrence.rebase(recurrence.parse(master["rrule"]), start0, times[0], master["timezone"])
    except recurrence.RuleError as exc:
        raise ToolError(f"cannot move series {master['id']}: {exc}") from None
    return {**master, "rrule": rule.text}


def series_started(db: Db, master: dict[str, Any], tz: str, action: str) -> None:
    if parse_stored(master["start_utc"]) <= db.now:
        first = show(to_local(parse_stored(master["start_utc"]), tz))[:10]
        raise ToolError(
            f"series {master['id']} '{master['title']}' started on {first}; past occurrences cannot be "
            f"changed, so it cannot {action} as a whole: use scope 'following' (from the next occurrence on)"
        )


def directory(db: Db, emails: list[str]) -> dict[str, dict[str, Any]]:
    marks = ", ".join("?" * len(emails))
    return (
        {u["id"]: u for u in db.all(f"SELECT * FROM users WHERE id IN ({marks})", *emails)} if emails else {}
    )
