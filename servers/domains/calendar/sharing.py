"""Personal reminders, and calendars: making one, sharing it with a role, taking access away."""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated

from pydantic import Field

from servers.domains.calendar.clock import show, to_local
from servers.domains.calendar.model import (
    MAX_OWNED_CALENDARS,
    MAX_REMINDER_MIN,
    MAX_REMINDERS,
    Calendar,
    CalendarAccess,
    Event,
    Method,
    Reminder,
    Role,
    User,
    calendar,
)
from servers.domains.calendar.rules import (
    ME_SQL,
    OWN_CAL,
    REMINDABLE,
    SHARED_CAL,
    SHARED_WITH,
    my_response,
    resolve,
    role_on,
)
from servers.domains.calendar.timeline import when
from servers.kit import Db, Ref, TimeZone, ToolError

Before = Annotated[
    int,
    Field(
        ge=0,
        le=MAX_REMINDER_MIN,
        description="Minutes before the start (up to 4 weeks).",
        examples=[5, 10, 15, 30, 60, 1440],
    ),
]
CalendarName = Annotated[
    str,
    Field(
        min_length=1,
        max_length=100,
        examples=["Side project", "Kids' activities", "Travel", "Gym", "Book club"],
    ),
]
CalendarNote = Annotated[
    str, Field(min_length=1, max_length=500, examples=["Shared with family", "Only for planning"])
]


@calendar.tool(
    writes=[Reminder],
    returns=Reminder,
    says=[
        "remind me {minutes_before} minutes before {event}",
        "remind me by {method} {minutes_before} minutes before {event}",
    ],
)
def set_reminder(
    db: Db, event: Ref[Event, REMINDABLE], minutes_before: Before, method: Method = "popup"
) -> dict:
    """Add a personal reminder before an event you are on (for a series, before every occurrence).
    At most 5 per event; only for events still to come.

    Args:
        event: The event or series.
        minutes_before: How long before the start to remind you.
        method: popup or email.
    """
    user = db.actor()
    row = db.get(Event, event)
    answer = my_response(db, event, user["id"])
    if answer is None and role_on(db, db.get(Calendar, row["calendar_id"]), user) not in ("owner", "writer"):
        raise ToolError(f"{user['id']} is not on {event} '{row['title']}'; reminders are for your own events")
    if row["status"] == "cancelled" or answer == "declined":
        why = "is cancelled" if row["status"] == "cancelled" else "was declined by you"
        raise ToolError(f"event {event} '{row['title']}' {why}; it needs no reminder")
    start = _next_start(db, row, user["timezone"])
    have = db.all(
        "SELECT minutes_before, method FROM reminders WHERE event_id = ? AND user_id = ?", event, user["id"]
    )
    if any(h["minutes_before"] == minutes_before and h["method"] == method for h in have):
        raise ToolError(f"you already have a {method} reminder {minutes_before} minutes before {event}")
    if len(have) >= MAX_REMINDERS:
        raise ToolError(
            f"event {event} already has {len(have)} of your reminders; the limit is {MAX_REMINDERS}"
        )
    rem = db.insert(
        Reminder,
        event_id=event,
        user_id=user["id"],
        minutes_before=minutes_before,
        method=method,
        created_at=db.stamp(),
    )
    fires = start - timedelta(minutes=minutes_before)
    return {**rem, "event_title": row["title"], "next_fires_at": when(fires, fires, user["timezone"])["start"],
            "next_fires_at_utc": when(fires, fires, user["timezone"])["start_utc"]}  # fmt: skip


def _next_start(db: Db, row: dict, tz: str):
    from servers.domains.calendar.clock import parse_stored

    if row["rrule"]:
        return resolve(db, row, None, tz).start_utc
    start = parse_stored(row["start_utc"])
    if start <= db.now:
        raise ToolError(
            f"event {row['id']} '{row['title']}' started {show(to_local(start, tz))}; reminders are for events still to come"
        )
    return start


@calendar.tool(
    writes=[Reminder],
    destructive=True,
    idempotent=True,
    says=["delete reminder {reminder}", "turn off my reminder {reminder}"],
)
def remove_reminder(db: Db, reminder: Ref[Reminder, f"user_id = {ME_SQL}"]) -> dict:
    """Delete one of your reminders."""
    user = db.actor()
    rem = db.get(Reminder, reminder)
    if rem["user_id"] != user["id"]:
        raise ToolError(f"reminder {reminder} belongs to {rem['user_id']}; you can only remove your own")
    db.delete(Reminder, reminder)
    return {"removed": reminder, "event": rem["event_id"], "minutes_before": rem["minutes_before"]}


@calendar.tool(
    writes=[Calendar, CalendarAccess],
    returns=Calendar,
    says=["create a new calendar called {name}", "make a calendar named {name} in the {timezone} time zone"],
)
def create_calendar(
    db: Db, name: CalendarName, timezone: TimeZone | None = None, description: CalendarNote | None = None
) -> dict:
    """Create a secondary calendar that you own (at most 25 calendars each).

    Args:
        name: Its name; must differ from your other calendars' names.
        timezone: Its time zone (default: yours).
        description: What it is for.
    """
    user = db.actor()
    owned = db.all("SELECT name FROM calendars WHERE owner_id = ?", user["id"])
    if any(c["name"].casefold() == name.strip().casefold() for c in owned):
        raise ToolError(f"you already have a calendar named {name!r}; pick another name")
    if len(owned) >= MAX_OWNED_CALENDARS:
        raise ToolError(f"you own {len(owned)} calendars, the most allowed is {MAX_OWNED_CALENDARS}")
    cal = db.insert(
        Calendar, owner_id=user["id"], name=name.strip(), description=description or "",
        timezone=timezone or user["timezone"], kind="secondary", created_at=db.stamp(),
    )  # fmt: skip
    db.add(CalendarAccess, calendar_id=cal["id"], user_id=user["id"], role="owner", granted_at=db.stamp())
    return {**cal, "role": "owner"}


def _owned(db: Db, key: str, user: dict) -> dict:
    cal = db.get(Calendar, key)
    role = role_on(db, cal, user)
    if role != "owner":
        raise ToolError(
            f"calendar {key} '{cal['name']}' belongs to {cal['owner_id'] or 'a room'}; only an owner can change "
            f"who it is shared with (your role: {role or 'none'})"
        )
    return cal


@calendar.tool(
    writes=[CalendarAccess],
    returns=Calendar,
    idempotent=True,
    says=[
        "share my calendar {calendar} with {email} as {role}",
        "give {email} {role} access to {calendar}",
    ],
)
def share_calendar(
    db: Db, calendar: Ref[Calendar, OWN_CAL], email: Ref[User, f"id != {ME_SQL}"], role: Role
) -> dict:
    """Give a directory person a role on a calendar you own, or change the role they have:
    owner, writer (edit events), reader (see details) or free_busy (see only when it is busy).

    Args:
        calendar: One of your calendars.
        email: The person's email address.
        role: owner, writer, reader or free_busy.
    """
    user = db.actor()
    cal = _owned(db, calendar, user)
    if email.casefold() == user["id"].casefold():
        raise ToolError("you cannot give yourself a role; you already own this calendar")
    person = db.one("SELECT * FROM users WHERE lower(id) = lower(?)", email)
    if person is None:
        raise ToolError(f"{email} is not in the directory; calendars are shared with people in it")
    held = db.one(
        "SELECT * FROM calendar_access WHERE calendar_id = ? AND user_id = ?", calendar, person["id"]
    )
    if held and held["role"] == role:
        raise ToolError(f"{person['id']} already has role {role} on {calendar} '{cal['name']}'")
    if held:
        row = db.update(CalendarAccess, held["id"], role=role, granted_at=db.stamp())
    else:
        row = db.insert(
            CalendarAccess, calendar_id=calendar, user_id=person["id"], role=role, granted_at=db.stamp()
        )
    return {"calendar": calendar, "name": cal["name"], "email": person["id"], "role": role,
            "previous_role": held["role"] if held else None, "access": row["id"]}  # fmt: skip


@calendar.tool(
    writes=[CalendarAccess],
    returns=Calendar,
    destructive=True,
    says=["stop sharing {calendar} with {email}", "remove {email}'s access to my calendar {calendar}"],
)
def unshare_calendar(db: Db, calendar: Ref[Calendar, SHARED_CAL], email: Ref[User, SHARED_WITH]) -> dict:
    """Take away someone's access to a calendar you own.

    Args:
        calendar: One of your calendars.
        email: The person to remove.
    """
    user = db.actor()
    cal = _owned(db, calendar, user)
    if email.casefold() == user["id"].casefold():
        raise ToolError("you cannot remove your own access to a calendar you own")
    held = db.one(
        "SELECT * FROM calendar_access WHERE calendar_id = ? AND lower(user_id) = lower(?)", calendar, email
    )
    if held is None:
        shared = [r["user_id"] for r in db.all(
            "SELECT user_id FROM calendar_access WHERE calendar_id = ? AND role != 'owner' ORDER BY id LIMIT 10", calendar
        )]  # fmt: skip
        raise ToolError(
            f"{email} has no access to {calendar} '{cal['name']}'; shared with: {', '.join(shared) or 'nobody'}"
        )
    db.delete(CalendarAccess, held["id"])
    return {"calendar": calendar, "name": cal["name"], "email": held["user_id"], "removed_role": held["role"]}
