"""Running meetings: instant meetings, starting and ending, joining and leaving."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from servers.domains.video_meeting.meetings import Title, view
from servers.domains.video_meeting.model import (
    Account,
    Instance,
    Meeting,
    Participant,
    Recording,
    join_url,
    meeting_number,
    video_meeting,
)
from servers.domains.video_meeting.rules import (
    JoinableMeeting,
    LeavableMeeting,
    LiveMeeting,
    StartableMeeting,
    account_of,
    bump_peak,
    check_room,
    close_instance,
    label,
    managed,
    open_instance,
)
from servers.kit import Db, Sensitive, ToolError

Passcode = Annotated[
    str,
    Sensitive(),
    Field(min_length=1, max_length=10, description="The meeting's passcode, as the invitation gives it."),
]


def _hosting(db: Db, user: dict) -> dict | None:
    return db.one(
        "SELECT * FROM meetings WHERE host_id = ? AND status = 'started' ORDER BY id LIMIT 1", user["id"]
    )


def _one_live(db: Db, user: dict) -> None:
    busy = _hosting(db, user)
    if busy is not None:
        raise ToolError(
            f"you are already hosting {label(busy)}, which is live; end it before starting another"
        )


def _auto_record(db: Db, m: dict, inst: dict) -> str | None:
    """The recording a meeting set to record automatically starts with (cloud only on a paid plan
    with free storage; otherwise it falls back to nothing)."""
    kind = m["auto_recording"]
    account = account_of(db, m)
    if kind == "none" or (
        kind == "cloud"
        and (account["plan"] == "basic" or account["used_storage_mb"] >= account["cloud_storage_mb"])
    ):
        return None
    rec = db.insert(
        Recording, meeting_id=m["id"], account_id=m["account_id"], instance_id=inst["id"], title=f"{m['title']} ({db.now.strftime('%b %-d')})",
        kind=kind, status="recording", started_at=db.stamp(), ended_at=None, duration_min=0, size_mb=0.0,
        trashed_at=None,
    )  # fmt: skip
    return rec["id"]


def _started(db: Db, m: dict, inst: dict, recording: str | None) -> dict:
    counts = dict(
        db.conn.execute(
            "SELECT state, count(*) FROM participants WHERE meeting_id = ? AND state != 'left' GROUP BY state",
            (m["id"],),
        ).fetchall()
    )
    return {
        "id": m["id"],
        "title": m["title"],
        "status": "started",
        "instance_id": inst["id"],
        "join_url": m["join_url"],
        "in_meeting": counts.get("in_meeting", 0),
        "waiting_room": counts.get("waiting_room", 0),
        "recording": recording,
    }


@video_meeting.tool(
    writes=[Meeting, Instance, Participant, Recording],
    returns=Meeting,
    says=["start an instant meeting called '{title}'", "open a quick meeting room '{title}' right now"],
)
def start_instant_meeting(db: Db, title: Title | None = None) -> dict:
    """Start a meeting right now that you host (no waiting room); share its join link to bring people in.

    Args:
        title: The title (default: "<your name>'s instant meeting").
    """
    user = db.actor()
    _one_live(db, user)
    number = meeting_number(db.next_id(Meeting))
    m = db.insert(
        Meeting, number=number, host_id=user["id"], account_id=user["account_id"],
        title=title or f"{user['name']}'s instant meeting", kind="instant", start_utc=db.stamp(), duration_min=60,
        timezone=user["timezone"], rrule=None, skipped_days="", passcode=f"{int(number) % 900_000 + 100_000}",
        waiting_room=False, join_before_host=False, mute_on_entry=False, auto_recording="none",
        registration=False, approval="automatic", status="waiting", join_url=join_url(number),
        calendar_event_ref=None, created_at=db.stamp(),
    )  # fmt: skip
    inst = open_instance(db, m, user)
    out = _started(db, db.get(Meeting, m["id"]), inst, None)
    out.update(number=view(db, m)["number"], passcode=m["passcode"])
    return out


@video_meeting.tool(
    writes=[Meeting, Instance, Participant, Recording],
    returns=Meeting,
    says=["start {meeting}", "I'm ready, start my meeting {meeting}", "kick off {meeting} now"],
)
def start_meeting(db: Db, meeting: StartableMeeting) -> dict:
    """Start a meeting you host. People who joined early wait in the waiting room when it is on
    (admit them), or come straight in when it is off. You can host one live meeting at a time."""
    m = db.get(Meeting, meeting)
    user = db.actor()
    if m["host_id"] != user["id"]:
        host = db.get("users", m["host_id"])
        raise ToolError(f"only the host of {label(m)}, {host['name']}, can start it")
    if m["status"] == "deleted":
        raise ToolError(f"meeting {label(m)} was deleted")
    if m["status"] == "finished":
        raise ToolError(f"meeting {label(m)} already took place and ended; schedule a new meeting")
    if m["status"] == "started":
        raise ToolError(f"meeting {label(m)} is already live")
    _one_live(db, user)
    inst = open_instance(db, m, user)
    return _started(db, m, inst, _auto_record(db, m, inst))


@video_meeting.tool(
    writes=[Meeting, Instance, Participant, Recording, Account],
    returns=Meeting,
    destructive=True,
    says=["end {meeting} for everyone", "wrap up {meeting}, end it now"],
)
def end_meeting(db: Db, meeting: LiveMeeting) -> dict:
    """End a live meeting for everyone: a running recording stops (cloud recordings then process),
    everyone leaves, and a one-off meeting is finished (a recurring one waits for its next time)."""
    m = managed(db, meeting, "end")
    if m["status"] != "started":
        raise ToolError(f"meeting {label(m)} is not live (it is {m['status']}); there is nothing to end")
    done = close_instance(db, m)
    after = db.get(Meeting, meeting)
    return {"id": meeting, "title": m["title"], "status": after["status"], **done}


@video_meeting.tool(
    writes=[Participant, Instance, Meeting],
    returns=Participant,
    says=[
        "join {meeting} with passcode {passcode}",
        "get me into {meeting}, the passcode is {passcode}",
    ],
)
def join_meeting(db: Db, meeting: JoinableMeeting, passcode: Passcode) -> dict:
    """Join someone else's meeting with its passcode. With the waiting room on you wait to be
    admitted; before the host starts it you wait for the host, unless join-before-host is on."""
    m = db.get(Meeting, meeting)
    user = db.actor()
    if m["status"] in ("deleted", "finished"):
        raise ToolError(f"meeting {label(m)} is {m['status']}; it cannot be joined")
    if m["host_id"] == user["id"]:
        raise ToolError(f"you host {label(m)}; start it with start_meeting instead of joining")
    if passcode != m["passcode"]:
        raise ToolError(f"the passcode given for meeting {label(m)} is not correct")
    if m["registration"] and not db.scalar(
        "SELECT 1 FROM registrants WHERE meeting_id = ? AND lower(email) = lower(?) AND status = 'approved'",
        meeting,
        user["email"],
    ):
        raise ToolError(
            f"meeting {label(m)} requires registration, and {user['email']} has no approved registration"
        )
    mine = db.one(
        "SELECT * FROM participants WHERE meeting_id = ? AND user_id = ? AND (state != 'left' OR removed = 1) "
        "ORDER BY id DESC LIMIT 1",
        meeting,
        user["id"],
    )
    if mine is not None and mine["removed"]:
        raise ToolError(f"you were removed from {label(m)} and cannot join it again")
    if mine is not None:
        raise ToolError(f"you are already in {label(m)} ({mine['state'].replace('_', ' ')})")
    inst = db.one("SELECT * FROM instances WHERE meeting_id = ? AND status = 'live'", meeting)
    if inst is None and m["join_before_host"]:
        inst = open_instance(db, m, None)
    if inst is None or m["waiting_room"]:
        state = "waiting_room"
    else:
        check_room(db, m)
        state = "in_meeting"
    p = db.insert(
        Participant, meeting_id=meeting, instance_id=inst["id"] if inst else None, user_id=user["id"],
        name=user["name"], email=user["email"], role="attendee", state=state, muted=m["mute_on_entry"],
        video_on=False, removed=False, joined_at=db.stamp(), left_at=None,
    )  # fmt: skip
    if state == "in_meeting":
        bump_peak(db, m)
    why = (
        "waiting for the host to start it"
        if inst is None
        else "waiting to be admitted"
        if state != "in_meeting"
        else "in the meeting"
    )
    return {"id": p["id"], "meeting_id": meeting, "title": m["title"], "state": state, "detail": why}


@video_meeting.tool(
    writes=[Participant],
    returns=Participant,
    idempotent=True,
    says=["leave {meeting}", "take me out of {meeting}"],
)
def leave_meeting(db: Db, meeting: LeavableMeeting) -> dict:
    """Leave a meeting you joined (or stop waiting to be admitted). The host ends it instead."""
    m = db.get(Meeting, meeting)
    user = db.actor()
    mine = db.one(
        "SELECT * FROM participants WHERE meeting_id = ? AND user_id = ? AND state != 'left' ORDER BY id LIMIT 1",
        meeting,
        user["id"],
    )
    if mine is None:
        raise ToolError(f"you are not in {label(m)}")
    if mine["role"] == "host":
        raise ToolError(f"you host {label(m)}; end it for everyone with end_meeting")
    db.update(Participant, mine["id"], state="left", left_at=db.stamp())
    return {
        "id": mine["id"],
        "meeting_id": meeting,
        "title": m["title"],
        "state": "left",
        "was": mine["state"],
    }
