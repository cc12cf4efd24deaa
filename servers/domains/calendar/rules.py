"""Rules several tools share: who may see and change what, reading times in the user's zone,
finding one occurrence of a series, splitting an occurrence off as an exception, and the SQL
conditions the sampler uses to pick good inputs (the tools enforce the same rules)."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Annotated, Any

from pydantic import AfterValidator, Field

from servers.domains.calendar import recurrence
from servers.domains.calendar.clock import (
    ClockError,
    parse_moment,
    parse_stored,
    show,
    stored,
    to_local,
    to_utc,
)
from servers.domains.calendar.model import MAX_ATTENDEES, MAX_FREE_BUSY, Attendee, Calendar, Event, User
from servers.domains.calendar.timeline import Occurrence, exceptions_of, wall
from servers.kit import Db, Email, Ref, RefInfo, ToolError

NOW_SQL = "(SELECT value FROM _meta WHERE key = 'now')"
ME_SQL = "(SELECT user_id FROM sessions)"
UPCOMING = f"((rrule IS NULL AND start_utc > {NOW_SQL}) OR (rrule IS NOT NULL AND last_end_utc > {NOW_SQL}))"
# (``+column`` keeps SQLite from choosing an index that matches nearly every row)
MINE_TO_EDIT = f"status != 'cancelled' AND +series_id IS NULL AND organizer_id = {ME_SQL} AND {UPCOMING}"
WITH_GUESTS = "EXISTS (SELECT 1 FROM attendees g WHERE g.event_id = events.id AND g.is_organizer = 0 AND g.room_id IS NULL)"
WITHOUT_ROOM = "NOT EXISTS (SELECT 1 FROM attendees g WHERE g.event_id = events.id AND g.room_id IS NOT NULL)"
ON_IT = f"id IN (SELECT event_id FROM attendees WHERE user_id = {ME_SQL} AND response != 'declined')"
SEEN = f"status != 'cancelled' AND id IN (SELECT event_id FROM attendees WHERE user_id = {ME_SQL})"
PENDING = (
    f"status != 'cancelled' AND {UPCOMING} AND id IN (SELECT event_id FROM attendees "
    f"WHERE user_id = {ME_SQL} AND is_organizer = 0 AND response = 'needs_action')"
)
REMINDABLE = f"status != 'cancelled' AND +series_id IS NULL AND {UPCOMING} AND {ON_IT}"
WRITABLE_CAL = (
    f"kind != 'resource' AND (owner_id = {ME_SQL} OR id IN (SELECT calendar_id FROM calendar_access "
    f"WHERE user_id = {ME_SQL} AND role IN ('owner', 'writer')))"
)
VISIBLE_CAL = (
    f"owner_id = {ME_SQL} OR kind = 'resource' OR id IN "
    f"(SELECT calendar_id FROM calendar_access WHERE user_id = {ME_SQL})"
)
OWN_CAL = f"owner_id = {ME_SQL} AND kind IN ('primary', 'secondary')"
SHARED_CAL = f"{OWN_CAL} AND id IN (SELECT calendar_id FROM calendar_access WHERE role != 'owner')"
COLLEAGUE = f"is_external = 0 AND id != {ME_SQL}"
SHARED_WITH = (
    f"id != {ME_SQL} AND id IN (SELECT user_id FROM calendar_access WHERE role != 'owner' AND "
    f"calendar_id IN (SELECT id FROM calendars WHERE {OWN_CAL}))"
)


def people(where: str, *, most: int, desc: str) -> Any:
    """A JSON array of addresses; the sampler draws directory people, any valid address passes."""
    return Annotated[
        list[Email],
        RefInfo(User, where, many=True),
        Field(min_length=1, max_length=most, description=desc),
        AfterValidator(_distinct),
    ]


def _distinct(values: list[str]) -> list[str]:
    seen: set[str] = set()
    for v in values:
        if v.casefold() in seen:
            raise ValueError(f"{v!r} is listed twice")
        seen.add(v.casefold())
    return values


Invitees = people(
    COLLEAGUE,
    most=MAX_ATTENDEES - 1,
    desc='Guests\' email addresses, e.g. ["dana.whitfield@corvid.example"].',
)
Colleagues = people(COLLEAGUE, most=MAX_FREE_BUSY, desc=f"Email addresses of up to {MAX_FREE_BUSY} people.")
MyEvent = Ref[Event, MINE_TO_EDIT]


# -- who is asking -------------------------------------------------------------------------------


def local_now(db: Db, tz: str) -> datetime:
    return to_local(db.now, tz)


def moment(db: Db, text: str, tz: str, what: str) -> datetime:
    """A Moment argument as wall time in ``tz`` (converted if it carries an offset)."""
    try:
        return parse_moment(text, tz)
    except ClockError as exc:
        raise ToolError(f"{what}: {exc}") from None


def day(text: str) -> date:
    return date.fromisoformat(text)


def not_past(db: Db, start_utc: datetime, tz: str, what: str) -> None:
    if start_utc <= db.now:
        now = show(local_now(db, tz))
        raise ToolError(
            f"{what} starts {show(to_local(start_utc, tz))} ({tz}), which is not after now ({now}); "
            "past events cannot be changed"
        )


# -- access --------------------------------------------------------------------------------------


def role_on(db: Db, cal: dict[str, Any], user: dict[str, Any]) -> str | None:
    """The user's role on a calendar: its owner, a shared role, or ``reader`` of rooms' calendars."""
    if cal["owner_id"] == user["id"]:
        return "owner"
    found = db.scalar(
        "SELECT role FROM calendar_access WHERE calendar_id = ? AND user_id = ?", cal["id"], user["id"]
    )
    if found is None and cal["kind"] == "resource" and not user["is_external"]:
        return "reader"
    return found


def my_response(db: Db, event_id: str, user: str) -> str | None:
    return db.scalar("SELECT response FROM attendees WHERE event_id = ? AND user_id = ?", event_id, user)


def sight(db: Db, event: dict[str, Any], user: dict[str, Any]) -> str | None:
    """``full`` (details), ``busy`` (only when) or None (not visible at all)."""
    if my_response(db, event["id"], user["id"]) is not None:
        return "full"
    role = role_on(db, db.get(Calendar, event["calendar_id"]), user)
    if role in ("owner", "writer"):
        return "full"
    if role == "reader":
        return "busy" if event["visibility"] == "private" else "full"
    return "busy" if role == "free_busy" else None


def visible_event(db: Db, key: str, user: dict[str, Any]) -> tuple[dict[str, Any], str]:
    event = db.get(Event, key)
    seen = sight(db, event, user)
    if seen is None:
        raise ToolError(
            f"event {key} is on calendar {event['calendar_id']}, which {user['name']} cannot see; "
            "ask its owner to share it"
        )
    return event, seen


def editable(db: Db, key: str, user: dict[str, Any], action: str) -> dict[str, Any]:
    """An event the user may change: its organizer, or an owner/writer of its calendar."""
    event = db.get(Event, key)
    if event["status"] == "cancelled":
        raise ToolError(f"event {key} '{event['title']}' is cancelled; it cannot {action}")
    if event["organizer_id"] == user["id"]:
        return event
    role = role_on(db, db.get(Calendar, event["calendar_id"]), user)
    if role in ("owner", "writer"):
        return event
    attending = my_response(db, key, user["id"]) is not None
    hint = "; as a guest you can only respond or set your own reminders" if attending else ""
    raise ToolError(
        f"only the organizer ({event['organizer_id']}) or an owner or writer of calendar "
        f"{event['calendar_id']} can {action} event {key} '{event['title']}' (your role: {role or 'none'}){hint}"
    )


def writable_calendar(db: Db, key: str, user: dict[str, Any]) -> dict[str, Any]:
    cal = db.get(Calendar, key)
    if cal["kind"] == "resource":
        raise ToolError(
            f"calendar {key} is the resource calendar of a room; rooms cannot organise events "
            "(book a room with the room argument instead)"
        )
    role = role_on(db, cal, user)
    if role not in ("owner", "writer"):
        raise ToolError(
            f"you have role {role or 'none'} on calendar {key} '{cal['name']}'; creating events needs owner or writer"
        )
    return cal


def primary(db: Db, user: str) -> dict[str, Any]:
    found = db.one("SELECT * FROM calendars WHERE owner_id = ? AND kind = 'primary'", user)
    if found is None:
        raise ToolError(f"{user} has no calendar in this organisation")
    return found


# -- occurrences of a series ---------------------------------------------------------------------


def master_of(db: Db, event: dict[str, Any]) -> dict[str, Any]:
    return db.get(Event, event["series_id"]) if event["series_id"] else event


def resolve(db: Db, master: dict[str, Any], occurrence: str | None, tz: str) -> Occurrence:
    """The occurrence of a series on a day (the viewer's local date) or, with no day, its next
    one still to start. An exception replacing it is returned in its place."""
    rule = recurrence.parse(master["rrule"])
    start, end = wall(master)
    taken = exceptions_of(db, [master["id"]]).get(master["id"], {})
    want = day(occurrence) if occurrence else None
    near: list[str] = []
    for local in recurrence.expand(rule, start, master["timezone"]):
        ex = taken.get(stored(local))
        row = ex or master
        s = parse_stored(ex["start_utc"]) if ex else to_utc(local, master["timezone"])
        e = parse_stored(ex["end_utc"]) if ex else to_utc(local + (end - start), master["timezone"])
        seen = to_local(to_utc(local, master["timezone"]), tz).date()
        if want is None:
            if s > db.now and row["status"] != "cancelled":
                return Occurrence(row, s, e, master["id"], local)
            continue
        if seen == want or (ex and to_local(s, tz).date() == want):
            return Occurrence(row, s, e, master["id"], local)
        if abs((seen - want).days) <= 10:
            near.append(seen)
        if seen > want + timedelta(days=40):
            break
    what = f"event {master['id']} '{master['title']}' ({recurrence.describe(rule)})"
    if want is None:
        raise ToolError(f"{what} has no occurrences left after now; the series is over")
    closest = sorted(sorted(near, key=lambda d: abs((d - want).days))[:4])
    hint = f"; nearby occurrences: {', '.join(d.isoformat() for d in closest)}" if near else ""
    raise ToolError(f"{what} has no occurrence on {want.isoformat()}{hint}")


def detach(db: Db, master: dict[str, Any], occ: Occurrence) -> dict[str, Any]:
    """The exception row for one occurrence, made now (a copy of the series with its guests) if
    the occurrence has none yet: editing or answering one occurrence changes only that copy."""
    if occ.row["id"] != master["id"]:
        return occ.row
    start, end = wall(master)
    local = occ.original
    values = {k: v for k, v in master.items() if k != "id"}
    values.update(
        start_local=stored(local),
        end_local=stored(local + (end - start)),
        start_utc=stored(occ.start_utc),
        end_utc=stored(occ.end_utc),
        last_end_utc=stored(occ.end_utc),
        rrule=None,
        series_id=master["id"],
        original_start=stored(local),
        created_at=db.stamp(),
        updated_at=db.stamp(),
    )
    row = db.insert(Event, **values)
    copy_guests(db, master["id"], row["id"])
    return row


def copy_guests(db: Db, source: str, target: str) -> None:
    for a in db.all("SELECT * FROM attendees WHERE event_id = ? ORDER BY id", source):
        db.add(Attendee, **{**{k: v for k, v in a.items() if k != "id"}, "event_id": target})


def guests(db: Db, event_id: str) -> list[dict[str, Any]]:
    return db.all(
        "SELECT email, user_id, room_id, response, optional, is_organizer, comment FROM attendees "
        "WHERE event_id = ? ORDER BY is_organizer DESC, id",
        event_id,
    )


def check_duration(start: datetime, end: datetime, all_day: bool) -> None:
    from servers.domains.calendar.model import MAX_ALL_DAY_DAYS, MAX_TIMED_HOURS

    if end <= start:
        raise ToolError(f"the end {show(end)} must be after the start {show(start)}")
    if all_day and (end - start).days > MAX_ALL_DAY_DAYS:
        raise ToolError(f"an all-day event lasts at most {MAX_ALL_DAY_DAYS} days (got {(end - start).days})")
    if not all_day and end - start > timedelta(hours=MAX_TIMED_HOURS):
        hours = round((end - start).total_seconds() / 3600, 1)
        raise ToolError(
            f"a timed event lasts at most {MAX_TIMED_HOURS} hours (got {hours}); use all_day for longer ones"
        )


def rule_of(text: str | None) -> recurrence.Rule | None:
    if text is None:
        return None
    try:
        return recurrence.parse(text)
    except recurrence.RuleError as exc:
        raise ToolError(f"recurrence rule {text!r}: {exc}") from None
