"""Events on a time line: series expanded into occurrences (exceptions in place of the
occurrences they replace), busy blocks, conflicts, and how an occurrence is shown to a viewer in
their own zone with UTC beside it."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from servers.domains.calendar import recurrence
from servers.domains.calendar.clock import parse_stored, show, show_utc, stored, to_local, to_utc
from servers.kit import Db

MAX_CHECKED = 10  # occurrences of a series checked for conflicts and room bookings
OPEN_END = datetime(9999, 12, 31, 23, 59, 59)


@dataclass(frozen=True)
class Occurrence:
    """One occurrence on the time line: ``row`` is the event row that describes it (the series
    master, an exception, or a single event); ``series`` the master's id for recurring ones."""

    row: dict[str, Any]
    start_utc: datetime
    end_utc: datetime
    series: str | None = None
    original: datetime | None = None  # wall time (series zone) this occurrence was scheduled at

    @property
    def event(self) -> str:
        """The id to pass back for this occurrence (the series, or the event itself)."""
        return self.series or self.row["id"]


def timing(start: datetime, end: datetime, tz: str, rule: recurrence.Rule | None) -> dict[str, Any]:
    """The time columns of an event row from its wall times, zone and rule."""
    start_utc, end_utc = to_utc(start, tz), to_utc(end, tz)
    last_end = end_utc
    if rule is not None and (rule.count or rule.until):
        final = recurrence.last(rule, start, tz) or start
        last_end = to_utc(final + (end - start), tz)
    elif rule is not None:
        last_end = OPEN_END  # no COUNT or UNTIL: runs to the cap, far past any window asked about
    return {
        "start_local": stored(start),
        "end_local": stored(end),
        "timezone": tz,
        "start_utc": stored(start_utc),
        "end_utc": stored(end_utc),
        "last_end_utc": stored(last_end),
        "rrule": rule.text if rule is not None else None,
    }


def wall(row: dict[str, Any]) -> tuple[datetime, datetime]:
    return parse_stored(row["start_local"]), parse_stored(row["end_local"])


def exceptions_of(db: Db, series: list[str]) -> dict[str, dict[str, dict[str, Any]]]:
    """Exception rows by series id and original start (any status: a cancelled one hides its
    occurrence)."""
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for k in range(0, len(series), 500):
        chunk = series[k : k + 500]
        marks = ", ".join("?" * len(chunk))
        for r in db.all(f"SELECT * FROM events WHERE series_id IN ({marks})", *chunk):
            out.setdefault(r["series_id"], {})[r["original_start"]] = r
    return out


def replaced_starts(db: Db, series: list[str]) -> dict[str, set[str]]:
    """The original starts each series' exceptions replace (the keys of :func:`exceptions_of`,
    without reading the exception rows)."""
    out: dict[str, set[str]] = {}
    for k in range(0, len(series), 500):
        chunk = series[k : k + 500]
        marks = ", ".join("?" * len(chunk))
        for sid, original in db.conn.execute(
            f"SELECT series_id, original_start FROM events WHERE series_id IN ({marks})", chunk
        ):
            out.setdefault(sid, set()).add(original)
    return out


def expand_rows(db: Db, rows: list[dict[str, Any]], lo: datetime, hi: datetime) -> list[Occurrence]:
    """Occurrences of ``rows`` overlapping the UTC window [lo, hi), in time order. Cancelled
    rows and occurrences replaced by an exception are left out (the exception is its own row)."""
    masters = [r["id"] for r in rows if r["rrule"]]
    replaced = replaced_starts(db, masters) if masters else {}
    out: list[Occurrence] = []
    for r in rows:
        if r["status"] == "cancelled":
            continue
        start, end = wall(r)
        if not r["rrule"]:
            s, e = parse_stored(r["start_utc"]), parse_stored(r["end_utc"])
            if s < hi and e > lo:
                out.append(Occurrence(r, s, e, r["series_id"], _original(r)))
            continue
        rule, tz, taken = recurrence.parse(r["rrule"]), r["timezone"], replaced.get(r["id"], set())
        for local in recurrence.between(rule, start, tz, end - start, lo, hi):
            if stored(local) in taken:
                continue
            out.append(Occurrence(r, to_utc(local, tz), to_utc(local + (end - start), tz), r["id"], local))
    out.sort(key=lambda o: (o.start_utc, o.row["id"]))
    return out


def _original(row: dict[str, Any]) -> datetime | None:
    return parse_stored(row["original_start"]) if row.get("original_start") else None


WINDOW_SQL = "start_utc < ? AND last_end_utc > ? AND status != 'cancelled'"


def attended(
    db: Db, user: str, lo: datetime, hi: datetime, *, declined: bool = False, busy_only: bool = False
) -> list[Occurrence]:
    """Occurrences a person is on (organizer or invitee) in a UTC window; ``busy_only`` drops
    events marked free; declined ones only when asked."""
    answer = "" if declined else " AND a.response != 'declined'"
    free = " AND e.transparency = 'busy'" if busy_only else ""
    # driven from the person's attendee rows (a few hundred), not from the time index
    rows = db.all(
        f"SELECT e.* FROM attendees a CROSS JOIN events e ON e.id = a.event_id WHERE a.user_id = ?{answer} "
        f"AND e.start_utc < ? AND e.last_end_utc > ? AND e.status != 'cancelled'{free}",
        user,
        stored(hi),
        stored(lo),
    )
    return expand_rows(db, rows, lo, hi)


def busy_at(db: Db, users: list[str], spans: list[tuple[datetime, datetime]]) -> dict[str, list[Occurrence]]:
    """Busy occurrences of several people that may overlap the UTC ``spans``: every occurrence
    of theirs in the window the spans cover, except single events that miss every span (each
    event expanded once). The attendee pairs are read from the indexes alone (times, no row),
    single events already narrowed to the spans there (loosely, to the second; the exact test
    follows), and a full row only for the events kept: the people on one invitation share most
    of a window's events."""
    if not users:
        return {}
    lo, hi = min(s for s, _ in spans), max(e for _, e in spans)
    marks = ", ".join("?" * len(users))
    touches = " OR ".join("(e.start_utc <= ? AND e.end_utc > ?)" for _ in spans)
    pairs = db.conn.execute(
        f"SELECT a.user_id, e.id, e.rrule IS NULL, e.start_utc, e.end_utc FROM attendees a "
        f"CROSS JOIN events e ON e.id = a.event_id "
        f"WHERE a.user_id IN ({marks}) AND a.response != 'declined' AND e.start_utc < ? AND e.last_end_utc > ? "
        f"AND e.status != 'cancelled' AND e.transparency = 'busy' AND (e.rrule IS NOT NULL OR {touches})",
        (*users, stored(hi), stored(lo), *(stored(t) for a, b in spans for t in (b, a))),
    ).fetchall()
    wanted: dict[str, bool] = {}
    for _, event, single, start, end in pairs:
        if event not in wanted:
            if single:
                s, e = parse_stored(start), parse_stored(end)
                wanted[event] = any(s < b and e > a for a, b in spans)
            else:
                wanted[event] = True
    ids = [event for event, keep in wanted.items() if keep]
    rows = {
        r["id"]: r
        for r in db.all("SELECT * FROM events WHERE id IN (SELECT value FROM json_each(?))", json.dumps(ids))
    }
    found = expand_rows(db, [rows[i] for i in ids], lo, hi)
    by_row: dict[str, list[Occurrence]] = {}
    for o in found:
        by_row.setdefault(o.row["id"], []).append(o)
    out: dict[str, list[Occurrence]] = {u: [] for u in users}
    for who, event, *_ in pairs:
        out[who].extend(by_row.get(event, []))
    for u in users:
        out[u].sort(key=lambda o: (o.start_utc, o.row["id"]))
    return out


def on_calendar(db: Db, calendar: dict[str, Any], lo: datetime, hi: datetime) -> list[Occurrence]:
    """What a calendar shows: its own events and, for a primary calendar, everything its owner
    attends (invitations land there)."""
    sql = f"SELECT * FROM events WHERE {WINDOW_SQL} AND (calendar_id = ?"
    params: list[Any] = [stored(hi), stored(lo), calendar["id"]]
    if calendar["kind"] == "primary" and calendar["owner_id"]:
        sql += " OR id IN (SELECT event_id FROM attendees WHERE user_id = ? AND response != 'declined')"
        params.append(calendar["owner_id"])
    if calendar["kind"] == "resource":
        sql += " OR id IN (SELECT event_id FROM attendees a JOIN rooms r ON r.id = a.room_id WHERE r.calendar_id = ?)"
        params.append(calendar["id"])
    return expand_rows(db, db.all(sql + ")", *params), lo, hi)


def room_bookings(db: Db, room: str, lo: datetime, hi: datetime, skip: set[str]) -> list[Occurrence]:
    rows = db.all(
        "SELECT e.* FROM attendees a CROSS JOIN events e ON e.id = a.event_id WHERE a.room_id = ? "
        "AND a.response != 'declined' AND e.start_utc < ? AND e.last_end_utc > ? AND e.status != 'cancelled'",
        room,
        stored(hi),
        stored(lo),
    )
    return [o for o in expand_rows(db, rows, lo, hi) if o.event not in skip and o.row["id"] not in skip]


def booked_rooms(db: Db, lo: datetime, hi: datetime) -> set[str]:
    """Rooms taken at some moment of a UTC window."""
    pairs = db.all(
        "SELECT a.room_id AS room, e.* FROM attendees a CROSS JOIN events e ON e.id = a.event_id "
        "WHERE a.room_id IS NOT NULL AND a.response != 'declined' AND e.start_utc < ? AND e.last_end_utc > ? "
        "AND e.status != 'cancelled'",
        stored(hi),
        stored(lo),
    )
    rows = {p["id"]: {k: v for k, v in p.items() if k != "room"} for p in pairs}
    hit = {o.row["id"] for o in expand_rows(db, list(rows.values()), lo, hi)}
    return {p["room"] for p in pairs if p["id"] in hit}


def overlapping(found: list[Occurrence], windows: list[tuple[datetime, datetime]]) -> list[Occurrence]:
    return [o for o in found if any(o.start_utc < e and o.end_utc > s for s, e in windows)]


def windows_of(row: dict[str, Any], now: datetime, horizon_days: int) -> list[tuple[datetime, datetime]]:
    """The UTC spans a new or moved event will take: one, or a series' occurrences from now over
    the next ``horizon_days``."""
    start, end = wall(row)
    if not row["rrule"]:
        return [(parse_stored(row["start_utc"]), parse_stored(row["end_utc"]))]
    rule, tz = recurrence.parse(row["rrule"]), row["timezone"]
    hi = max(now, parse_stored(row["start_utc"])) + timedelta(days=horizon_days)
    found = recurrence.between(rule, start, tz, end - start, now, hi)[:MAX_CHECKED]
    return [(to_utc(x, tz), to_utc(x + (end - start), tz)) for x in found]


# -- showing -------------------------------------------------------------------------------------


def when(start_utc: datetime, end_utc: datetime, tz: str, all_day: bool = False) -> dict[str, Any]:
    """Local times in the viewer's zone with UTC beside them (dates only for all-day events)."""
    if all_day:
        return {
            "start": start_utc.date().isoformat(),
            "end": (end_utc - timedelta(days=1)).date().isoformat(),
        }
    return {
        "start": show(to_local(start_utc, tz)),
        "end": show(to_local(end_utc, tz)),
        "start_utc": show_utc(start_utc),
        "end_utc": show_utc(end_utc),
    }


def all_day_span(o: Occurrence) -> tuple[datetime, datetime]:
    """An all-day occurrence's dates in its own zone (it covers whole days wherever it is seen)."""
    tz = o.row["timezone"]
    return to_local(o.start_utc, tz), to_local(o.end_utc, tz)


def shown(o: Occurrence, tz: str, *, detail: bool, response: str | None = None) -> dict[str, Any]:
    """One occurrence for a viewer in zone ``tz``; without ``detail`` only that it is busy."""
    r = o.row
    span = all_day_span(o) if r["all_day"] else (o.start_utc, o.end_utc)
    times = when(*span, tz, all_day=bool(r["all_day"]))
    if not detail:
        return {**times, "busy": r["transparency"] == "busy", "details": "hidden (free/busy access)"}
    out = {
        "id": r["id"],
        "event": o.event,
        "occurrence": show(to_local(o.start_utc, tz))[:10] if o.series else None,
        "title": r["title"],
        **times,
        "all_day": bool(r["all_day"]),
        "calendar": r["calendar_id"],
        "organizer": r["organizer_id"],
        "location": r["location"],
        "status": r["status"],
        "recurring": o.series is not None,
    }
    if response is not None:
        out["my_response"] = response
    return out
