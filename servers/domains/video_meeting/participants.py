"""In-meeting controls over a live meeting you host or administer: the waiting room, removing,
muting and co-hosts."""

from __future__ import annotations

from typing import Literal

from servers.domains.video_meeting.model import Instance, Meeting, Participant, video_meeting
from servers.domains.video_meeting.rules import (
    LIVE,
    MANAGED,
    NOT_FULL,
    LiveMeeting,
    PresentPerson,
    PromotablePerson,
    RemovablePerson,
    WaitingPerson,
    account_of,
    bump_peak,
    check_paid,
    check_room,
    label,
    live,
    managed,
    page,
    participant_in,
)
from servers.kit import Db, Offset, PageSize, Ref, ToolError

State = Literal["waiting_room", "in_meeting", "left"]
PeopleMeeting = Ref[
    Meeting,
    f"({LIVE}) OR (status = 'waiting' AND {MANAGED} AND EXISTS (SELECT 1 FROM participants p "
    "WHERE p.meeting_id = meetings.id AND p.state = 'waiting_room'))",
]
WaitingMeeting = Ref[
    Meeting,
    f"{LIVE} AND EXISTS (SELECT 1 FROM participants p WHERE p.meeting_id = meetings.id "
    f"AND p.state = 'waiting_room' AND p.removed = 0 AND p.instance_id IS NOT NULL) AND {NOT_FULL}",
]
# "Someone is waiting" is asked of the meeting's own participants (EXISTS, one index seek on
# meeting and state): as ``id IN (SELECT meeting_id ... WHERE state = 'waiting_room')`` SQLite
# rebuilt the list from a scan of every participant on each pick, even to check one meeting.
SHOWN = "id, name, email, user_id, role, state, muted, video_on, removed, joined_at, left_at"


def _who(p: dict) -> str:
    return f"{p['name']} ({p['id']})"


@video_meeting.tool(
    returns=Participant,
    says=["who is in {meeting} right now?", "who's waiting in the waiting room of {meeting}?"],
)
def list_participants(
    db: Db, meeting: PeopleMeeting, state: State | None = None, limit: PageSize = 20, offset: Offset = 0
) -> dict:
    """The people of a meeting's current run: in the meeting, in the waiting room, or gone (the
    default shows everyone not gone).

    Args:
        meeting: The meeting.
        state: waiting_room, in_meeting or left.
        limit: Page size.
        offset: Rows to skip.
    """
    m = managed(db, meeting, "see the participants of")
    if m["status"] != "started" and not db.scalar(
        "SELECT 1 FROM participants WHERE meeting_id = ? AND state != 'left'", meeting
    ):
        raise ToolError(f"meeting {label(m)} is not live (it is {m['status']}) and nobody is waiting for it")
    cond = "state = ?" if state else "state != 'left'"
    args = [state] if state else []
    sql = f"SELECT {SHOWN} FROM participants WHERE meeting_id = ? AND {cond} ORDER BY id"
    found = page(db, sql, meeting, *args, limit=limit, offset=offset, key="participants")
    return {"meeting": meeting, "title": m["title"], "status": m["status"], **found}


def _admit(db: Db, p: dict, m: dict) -> None:
    if p["removed"]:
        raise ToolError(f"{_who(p)} was removed from {label(m)} and cannot be admitted again")
    if p["state"] != "waiting_room":
        raise ToolError(f"{_who(p)} is not in the waiting room of {label(m)} (state: {p['state']})")


@video_meeting.tool(
    writes=[Participant, Instance],
    returns=Participant,
    idempotent=True,
    says=["let {participant} into the meeting", "admit {participant} from the waiting room"],
)
def admit_participant(db: Db, participant: WaitingPerson) -> dict:
    """Admit one person from the waiting room of a live meeting (up to the plan's capacity)."""
    p, m = participant_in(db, participant, "admit people to")
    _admit(db, p, m)
    check_room(db, m)
    db.update(Participant, participant, state="in_meeting", muted=m["mute_on_entry"] or p["muted"])
    bump_peak(db, m)
    return {"id": participant, "name": p["name"], "meeting_id": m["id"], "state": "in_meeting"}


@video_meeting.tool(
    writes=[Participant, Instance],
    returns=Participant,
    idempotent=True,
    says=["admit everyone waiting in {meeting}", "let all the people in the waiting room of {meeting} in"],
)
def admit_all(db: Db, meeting: WaitingMeeting) -> dict:
    """Admit everyone in the waiting room of a live meeting, if they all fit in the plan's capacity."""
    m = managed(db, meeting, "admit people to")
    live(db, m)
    waiting = db.all(
        "SELECT * FROM participants WHERE meeting_id = ? AND state = 'waiting_room' AND removed = 0 ORDER BY id",
        meeting,
    )
    if not waiting:
        raise ToolError(f"nobody is waiting in the waiting room of {label(m)}")
    check_room(db, m, len(waiting))
    for p in waiting:
        db.update(Participant, p["id"], state="in_meeting")
    bump_peak(db, m)
    return {
        "meeting_id": meeting,
        "title": m["title"],
        "participants": [{"id": p["id"], "name": p["name"], "state": "in_meeting"} for p in waiting],
    }


@video_meeting.tool(
    writes=[Participant],
    returns=Participant,
    destructive=True,
    says=["remove {participant} from the meeting", "kick {participant} out; they can't come back"],
)
def remove_participant(db: Db, participant: RemovablePerson) -> dict:
    """Remove someone from a live meeting (or its waiting room); they cannot rejoin this meeting.
    The host cannot be removed."""
    p, m = participant_in(db, participant, "remove people from")
    if p["role"] == "host":
        raise ToolError(f"{_who(p)} is the host of {label(m)} and cannot be removed; end the meeting instead")
    if p["state"] == "left":
        raise ToolError(f"{_who(p)} already left {label(m)}")
    db.update(Participant, participant, state="left", removed=True, left_at=db.stamp())
    return {"id": participant, "name": p["name"], "meeting_id": m["id"], "state": "left", "removed": True}


@video_meeting.tool(
    writes=[Participant],
    returns=Participant,
    idempotent=True,
    says=[
        "mute {participant}",
        "unmute {participant} so they can talk",
        "set {participant}'s mute to {mute}",
    ],
)
def mute_participant(db: Db, participant: PresentPerson, mute: bool = True) -> dict:
    """Mute (or unmute, ``mute=false``) someone who is in a live meeting.

    Args:
        participant: The participant.
        mute: true to mute, false to unmute.
    """
    p, m = participant_in(db, participant, "mute people in")
    if p["state"] != "in_meeting":
        raise ToolError(
            f"{_who(p)} is not in {label(m)} (state: {p['state']}); only people in it can be muted"
        )
    db.update(Participant, participant, muted=mute)
    return {"id": participant, "name": p["name"], "meeting_id": m["id"], "muted": mute}


@video_meeting.tool(
    writes=[Participant],
    returns=Participant,
    idempotent=True,
    says=["mute everyone in {meeting}", "silence all the attendees of {meeting}"],
)
def mute_all(db: Db, meeting: LiveMeeting, mute: bool = True) -> dict:
    """Mute (or unmute) every attendee in a live meeting; the host and co-hosts keep their microphones.

    Args:
        meeting: The live meeting.
        mute: true to mute, false to unmute.
    """
    m = managed(db, meeting, "mute people in")
    live(db, m)
    changed = db.execute(
        "UPDATE participants SET muted = ? WHERE meeting_id = ? AND state = 'in_meeting' AND role = 'attendee' "
        "AND muted != ?",
        mute,
        meeting,
        mute,
    )
    return {"meeting_id": meeting, "title": m["title"], "muted": mute, "participants_changed": changed}


@video_meeting.tool(
    writes=[Participant],
    returns=Participant,
    idempotent=True,
    says=["make {participant} a co-host", "give {participant} co-host rights"],
)
def make_co_host(db: Db, participant: PromotablePerson) -> dict:
    """Make someone in a live meeting a co-host (pro and business plans). The host stays the host."""
    p, m = participant_in(db, participant, "assign co-hosts in")
    check_paid(account_of(db, m), "co-hosts")
    if p["role"] == "host":
        raise ToolError(f"{_who(p)} is the host of {label(m)}; the host cannot be made a co-host")
    if p["role"] == "co_host":
        raise ToolError(f"{_who(p)} is already a co-host of {label(m)}")
    if p["state"] != "in_meeting":
        raise ToolError(
            f"{_who(p)} is not in {label(m)} (state: {p['state']}); only people in it can be co-hosts"
        )
    db.update(Participant, participant, role="co_host")
    return {"id": participant, "name": p["name"], "meeting_id": m["id"], "role": "co_host"}
