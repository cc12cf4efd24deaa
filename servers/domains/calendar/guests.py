"""Guests: inviting and uninviting people (organizer side) and answering an invitation, for a
whole series or one occurrence (guest side)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from servers.domains.calendar.changes import conflicts
from servers.domains.calendar.clock import parse_stored, show, to_local
from servers.domains.calendar.model import MAX_ATTENDEES, Attendee, Event, Response, User, calendar
from servers.domains.calendar.rules import (
    ME_SQL,
    MINE_TO_EDIT,
    PENDING,
    WITH_GUESTS,
    Invitees,
    detach,
    editable,
    master_of,
    not_past,
    resolve,
)
from servers.domains.calendar.scheduling import _guest_list, add_guests
from servers.domains.calendar.timeline import Occurrence
from servers.kit import Day, Db, Ref, ToolError

Comment = Annotated[
    str,
    Field(
        min_length=1,
        max_length=500,
        examples=[
            "Running 5 minutes late",
            "Can we move it to the afternoon?",
            "I'll join by video",
            "Sorry, I'm out that day",
        ],
    ),
]


def _upcoming(db: Db, row: dict, tz: str, action: str) -> None:
    """A one-off event that has not started, or a series with occurrences still to come."""
    if row["rrule"]:
        if parse_stored(row["last_end_utc"]) <= db.now:
            raise ToolError(
                f"series {row['id']} '{row['title']}' is over; past events cannot be changed ({action})"
            )
        return
    not_past(db, parse_stored(row["start_utc"]), tz, f"event {row['id']} '{row['title']}'")


def _family(db: Db, row: dict) -> list[str]:
    """The row and, for a series, its exceptions that have not started (guest changes reach them)."""
    if not row["rrule"]:
        return [row["id"]]
    later = db.all(
        "SELECT id FROM events WHERE series_id = ? AND start_utc > ? AND status != 'cancelled' ORDER BY id",
        row["id"],
        db.stamp(),
    )
    return [row["id"], *(r["id"] for r in later)]


@calendar.tool(
    writes=[Attendee],
    returns=Event,
    says=["invite {attendees} to {event}", "add {attendees} to {event} as optional guests: {optional}"],
)
def add_attendees(
    db: Db, event: Ref[Event, MINE_TO_EDIT], attendees: Invitees, optional: bool = False
) -> dict:
    """Invite more people to an event you organise or can edit (for a series: every occurrence to
    come). New guests start as needs_action; the answer lists who is busy at that time.

    Args:
        event: The event or series.
        attendees: Email addresses to invite (people outside the directory are allowed).
        optional: Invite them as optional guests.
    """
    user = db.actor()
    row = editable(db, event, user, "invite people to")
    _upcoming(db, row, user["timezone"], "invite people")
    emails = _guest_list(db, user, attendees)
    present = {
        a["email"].casefold() for a in db.all("SELECT email FROM attendees WHERE event_id = ?", row["id"])
    }
    again = [e for e in emails if e.casefold() in present]
    if again:
        raise ToolError(f"already invited to {row['id']} '{row['title']}': {', '.join(again)}")
    if len(present) + len(emails) > MAX_ATTENDEES:
        raise ToolError(
            f"event {row['id']} has {len(present)} attendees; adding {len(emails)} would pass the limit of {MAX_ATTENDEES}"
        )
    for key in _family(db, row):
        add_guests(db, key, emails, optional)
    busy = [c for c in conflicts(db, row, user, {row["id"]}) if c["email"] in emails]
    return {
        "event": row["id"],
        "title": row["title"],
        "added": emails,
        "attendees": len(present) + len(emails),
        "conflicts": busy,
    }


@calendar.tool(
    writes=[Attendee],
    returns=Event,
    destructive=True,
    says=["remove {email} from {event}", "uninvite {email} from {event}"],
)
def remove_attendee(
    db: Db, event: Ref[Event, f"{MINE_TO_EDIT} AND {WITH_GUESTS}"], email: Ref[User, f"id != {ME_SQL}"]
) -> dict:
    """Take a guest (or a booked room, by its address) off an event you organise or can edit; for a
    series, off every occurrence to come. The organizer cannot be removed.

    Args:
        event: The event or series.
        email: The guest's email address (or the room's address).
    """
    user = db.actor()
    row = editable(db, event, user, "remove guests from")
    _upcoming(db, row, user["timezone"], "remove guests")
    guest = db.one("SELECT * FROM attendees WHERE event_id = ? AND lower(email) = lower(?)", row["id"], email)
    if guest is None:
        others = [
            a["email"]
            for a in db.all("SELECT email FROM attendees WHERE event_id = ? ORDER BY id LIMIT 10", row["id"])
        ]
        raise ToolError(f"{email} is not on {row['id']} '{row['title']}'; its attendees: {', '.join(others)}")
    if guest["is_organizer"]:
        raise ToolError(f"{email} organises {row['id']} '{row['title']}'; the organizer cannot be removed")
    for key in _family(db, row):
        db.execute("DELETE FROM attendees WHERE event_id = ? AND lower(email) = lower(?)", key, email)
    left = db.scalar("SELECT count(*) FROM attendees WHERE event_id = ?", row["id"])
    return {"event": row["id"], "title": row["title"], "removed": guest["email"], "attendees": left}


@calendar.tool(
    writes=[Event, Attendee],
    returns=Event,
    says=[
        "{response} the invitation to {event}",
        "reply {response} to {event} with the note {comment}",
        "RSVP {response} to {event}",
    ],
)
def respond_to_invitation(
    db: Db,
    event: Ref[Event, PENDING],
    response: Response,
    occurrence: Day | None = None,
    comment: Comment | None = None,
) -> dict:
    """Answer an invitation as the signed-in user: accepted, declined or tentative. For a series,
    the answer covers every occurrence unless ``occurrence`` names one day. Ended events and the
    organizer's own events cannot be answered.

    Args:
        event: The event or series you were invited to.
        response: accepted, declined or tentative.
        occurrence: For a series, the day (your local date) of the one occurrence to answer.
        comment: A note for the organizer.
    """
    user = db.actor()
    tz = user["timezone"]
    row = db.get(Event, event)
    mine = db.one("SELECT * FROM attendees WHERE event_id = ? AND user_id = ?", event, user["id"])
    if mine is None:
        raise ToolError(f"{user['id']} is not invited to {event} '{row['title']}'")
    if mine["is_organizer"]:
        raise ToolError(f"you organise {event} '{row['title']}'; the organizer's answer is always accepted")
    if row["status"] == "cancelled":
        raise ToolError(
            f"event {event} '{row['title']}' was cancelled by its organizer; there is nothing to answer"
        )
    target, when_ = _answer_target(db, row, occurrence, tz)
    current = db.scalar(
        "SELECT response FROM attendees WHERE event_id = ? AND user_id = ?", target["id"], user["id"]
    )
    if current == response and comment is None:
        raise ToolError(f"you have already {response} {target['id']} '{target['title']}'{when_}")
    keys = [target["id"]] if target["id"] != row["id"] or not row["rrule"] else _family(db, row)
    for key in keys:
        db.execute(
            "UPDATE attendees SET response = ?, comment = ?, responded_at = ? WHERE event_id = ? AND user_id = ?",
            response, comment, db.stamp(), key, user["id"],
        )  # fmt: skip
    busy = conflicts(db, target, user, {target["id"], row["id"]}) if response != "declined" else []
    return {
        "event": target["id"],
        "series": row["id"] if row["rrule"] else row["series_id"],
        "title": target["title"],
        "response": response,
        "occurrence": occurrence,
        "comment": comment,
        "conflicts": [c for c in busy if c["email"] == user["id"]],
    }


def _answer_target(db: Db, row: dict, occurrence: str | None, tz: str) -> tuple[dict, str]:
    """The row an answer is written to: one occurrence split off as an exception, or the event."""
    if occurrence is not None:
        master = master_of(db, row)
        if not master["rrule"]:
            raise ToolError(f"event {row['id']} '{row['title']}' does not repeat; leave out occurrence")
        occ: Occurrence = resolve(db, master, occurrence, tz)
        if occ.end_utc <= db.now:
            raise ToolError(
                f"the occurrence of {master['id']} on {occurrence} has ended; it cannot be answered"
            )
        return detach(db, master, occ), f" for {occurrence}"
    if parse_stored(row["last_end_utc"]) <= db.now:
        ended = show(to_local(parse_stored(row["last_end_utc"]), tz))
        raise ToolError(
            f"event {row['id']} '{row['title']}' ended at {ended}; ended events cannot be answered"
        )
    return row, ""
