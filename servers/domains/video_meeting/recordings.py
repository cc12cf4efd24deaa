"""Recording a live meeting, and the cloud recordings afterwards: listing, transcripts, trash,
restore and permanent deletion."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Literal

from servers.domains.video_meeting.model import (
    SERVICE_HOST,
    TRASH_DAYS,
    Account,
    Meeting,
    Recording,
    Transcript,
    video_meeting,
)
from servers.domains.video_meeting.rules import (
    AnyRecording,
    ManagedMeeting,
    RecordableMeeting,
    RecordingMeeting,
    RestorableRecording,
    TrashableRecording,
    UntranscribedRecording,
    account_of,
    check_paid,
    expires_on,
    finish_recording,
    label,
    live,
    managed,
    managed_recordings_sql,
    may_manage,
    page,
)
from servers.kit import Day, Db, Offset, PageSize, ToolError

Language = Literal["en-US", "es-ES", "de-DE", "fr-FR", "ja-JP"]
RECORDING_COLUMNS = (
    "r.id, r.title, r.meeting_id, r.account_id, r.kind, r.status, r.started_at, r.ended_at, r.duration_min, "
    "r.size_mb, r.trashed_at"
)


def _mine(db: Db, recording: str, action: str) -> tuple[dict, dict]:
    """The recording and its meeting, if the signed-in user hosts or administers the meeting (a
    deleted meeting's recordings stay and are still theirs to manage)."""
    rec = db.get(Recording, recording)
    return rec, may_manage(db, db.get(Meeting, rec["meeting_id"]), f"{action} the recordings of")


def _settled(rec: dict, what: str) -> None:
    """A recording that exists as a file in the cloud: not running, not still processing, not local."""
    if rec["status"] == "deleted":
        raise ToolError(f"recording {rec['id']} was permanently deleted")
    if rec["status"] in ("recording", "processing"):
        raise ToolError(
            f"recording {rec['id']} is still {rec['status']}; it can be {what} once it is available"
        )
    if rec["kind"] == "local":
        raise ToolError(
            f"recording {rec['id']} is a local recording on the host's computer; it cannot be {what} here"
        )


@video_meeting.tool(
    writes=[Recording],
    returns=Recording,
    says=["start recording {meeting}", "start a {kind} recording of {meeting}"],
)
def start_recording(db: Db, meeting: RecordableMeeting, kind: Literal["cloud", "local"] = "cloud") -> dict:
    """Start recording a live meeting, to the cloud (pro or business plan, with free storage) or
    to the host's computer. One recording at a time.

    Args:
        meeting: The live meeting.
        kind: cloud or local.
    """
    m = managed(db, meeting, "record")
    inst = live(db, m)
    running = db.one("SELECT * FROM recordings WHERE meeting_id = ? AND status = 'recording'", meeting)
    if running is not None:
        raise ToolError(f"meeting {label(m)} is already being recorded ({running['id']}, {running['kind']})")
    if kind == "cloud":
        account = account_of(db, m)
        check_paid(account, "cloud recording")
        if account["used_storage_mb"] >= account["cloud_storage_mb"]:
            raise ToolError(
                f"cloud storage of account {account['id']} ('{account['name']}') is full: "
                f"{account['used_storage_mb']:,.1f} of {account['cloud_storage_mb']:,.0f} MB used; delete "
                "recordings or record locally"
            )
    rec = db.insert(
        Recording, meeting_id=meeting, account_id=m["account_id"], instance_id=inst["id"], title=f"{m['title']} ({db.now.strftime('%b %-d')})",
        kind=kind, status="recording", started_at=db.stamp(), ended_at=None, duration_min=0, size_mb=0.0,
        trashed_at=None,
    )  # fmt: skip
    return rec


@video_meeting.tool(
    writes=[Recording, Account],
    returns=Recording,
    says=["stop recording {meeting}", "stop the recording in {meeting}"],
)
def stop_recording(db: Db, meeting: RecordingMeeting) -> dict:
    """Stop the recording of a live meeting: a cloud recording then processes before it can be
    shared (and counts against storage); a local one is saved on the host's computer."""
    m = managed(db, meeting, "record")
    live(db, m)
    rec = db.one("SELECT * FROM recordings WHERE meeting_id = ? AND status = 'recording'", meeting)
    if rec is None:
        raise ToolError(f"meeting {label(m)} is not being recorded")
    return finish_recording(db, rec)


@video_meeting.tool(
    returns=Recording,
    says=[
        "list my recordings from {from_day} to {to_day}",
        "which recordings are in the trash?",
        "recordings of {meeting}",
    ],
)
def list_recordings(
    db: Db,
    from_day: Day | None = None,
    to_day: Day | None = None,
    include_trash: bool = False,
    meeting: ManagedMeeting | None = None,
    limit: PageSize = 20,
    offset: Offset = 0,
) -> dict:
    """Recordings of the meetings you host or administer, newest first (deleted ones never show).

    Args:
        from_day: Recorded on or after this day (UTC).
        to_day: Recorded on or before this day.
        include_trash: Also show trashed recordings.
        meeting: Only this meeting's recordings.
        limit: Page size.
        offset: Rows to skip.
    """
    if from_day and to_day and from_day > to_day:
        raise ToolError(f"from_day {from_day} is after to_day {to_day}")
    mine, args = managed_recordings_sql(db)
    where = [mine, "r.status != 'deleted'"]
    if not include_trash:
        where.append("r.status != 'trashed'")
    for cond, value in (
        ("substr(r.started_at, 1, 10) >= ?", from_day),
        ("substr(r.started_at, 1, 10) <= ?", to_day),
    ):
        if value:
            where.append(cond)
            args.append(value)
    if meeting:
        where.append("r.meeting_id = ?")
        args.append(meeting)
    # The page is cut from the recordings alone and only its rows get their transcript (a
    # recording has at most one), and the total counts recordings without joining or sorting:
    # the same rows as joining every match first, at a third of the work.
    matches = f"FROM recordings r WHERE {' AND '.join(where)}"
    order = "ORDER BY +r.started_at DESC, +r.id DESC"
    sql = (
        f"SELECT r.*, t.status AS transcript FROM (SELECT {RECORDING_COLUMNS} {matches} {order} "
        f"LIMIT ? OFFSET ?) r LEFT JOIN transcripts t ON t.recording_id = r.id {order}"
    )
    count = f"SELECT count(*) {matches}"
    found = page(db, sql, *args, limit=limit, offset=offset, key="recordings", count=count)
    for row in found["recordings"]:
        row["expires_on"] = expires_on(db, row)
    return found


@video_meeting.tool(
    returns=Recording,
    says=["show me recording {recording}", "is the transcript of {recording} ready?"],
)
def get_recording(db: Db, recording: AnyRecording) -> dict:
    """One recording: status, length, size, retention date, the transcript's metadata and, for an
    available cloud recording, its share link; a trashed one says until when it can be restored."""
    rec, m = _mine(db, recording, "see")
    out = {**rec, "meeting_title": m["title"], "expires_on": expires_on(db, rec)}
    out["transcript"] = db.one(
        "SELECT id, language, status, word_count, speaker_count, created_at FROM transcripts WHERE recording_id = ?",
        recording,
    )
    if rec["status"] == "available" and rec["kind"] == "cloud":
        out["share_url"] = f"https://{SERVICE_HOST}/rec/share/{rec['id'].lower()}"
    if rec["status"] == "trashed":
        until = datetime.fromisoformat(rec["trashed_at"]) + timedelta(days=TRASH_DAYS)
        out["restorable_until"] = until.isoformat(timespec="seconds")
        out["restorable"] = until > db.now
    return out


@video_meeting.tool(
    writes=[Recording, Account],
    returns=Recording,
    destructive=True,
    says=[
        "delete recording {recording}",
        "move {recording} to the trash",
        "permanently {action} {recording}",
    ],
)
def delete_recording(
    db: Db, recording: TrashableRecording, action: Literal["trash", "delete"] = "trash"
) -> dict:
    """Move a cloud recording to the trash (restorable for 30 days), or delete it for good, which
    frees its storage at once.

    Args:
        recording: The recording.
        action: trash (default) or delete (permanent; also works on a trashed recording).
    """
    rec, m = _mine(db, recording, "delete")
    _settled(rec, "deleted")
    if action == "trash":
        if rec["status"] == "trashed":
            raise ToolError(f"recording {recording} is already in the trash (since {rec['trashed_at']})")
        return db.update(Recording, recording, status="trashed", trashed_at=db.stamp())
    account = account_of(db, m)
    db.update(
        Account,
        account["id"],
        used_storage_mb=round(max(0.0, account["used_storage_mb"] - rec["size_mb"]), 1),
    )
    return db.update(Recording, recording, status="deleted")


@video_meeting.tool(
    writes=[Recording],
    returns=Recording,
    idempotent=True,
    says=["restore {recording} from the trash", "bring back the recording {recording}"],
)
def restore_recording(db: Db, recording: RestorableRecording) -> dict:
    """Restore a trashed cloud recording, within 30 days of trashing it."""
    rec, _ = _mine(db, recording, "restore")
    if rec["status"] != "trashed":
        raise ToolError(f"recording {recording} is {rec['status']}, not in the trash")
    until = datetime.fromisoformat(rec["trashed_at"]) + timedelta(days=TRASH_DAYS)
    if until <= db.now:
        raise ToolError(
            f"recording {recording} was trashed on {rec['trashed_at'][:10]}, more than {TRASH_DAYS} days ago; "
            "it can no longer be restored"
        )
    return db.update(Recording, recording, status="available", trashed_at=None)


@video_meeting.tool(
    writes=[Transcript],
    returns=Transcript,
    says=["transcribe {recording}", "get me a {language} transcript of {recording}"],
)
def request_transcript(db: Db, recording: UntranscribedRecording, language: Language = "en-US") -> dict:
    """Ask for an audio transcript of an available cloud recording (pro or business plan); it is
    processing until the service finishes it.

    Args:
        recording: The recording.
        language: The spoken language.
    """
    rec, m = _mine(db, recording, "transcribe")
    _settled(rec, "transcribed")
    if rec["status"] == "trashed":
        raise ToolError(f"recording {recording} is in the trash; restore it first")
    check_paid(account_of(db, m), "transcripts")
    have = db.one("SELECT id, status FROM transcripts WHERE recording_id = ?", recording)
    if have is not None:
        raise ToolError(f"recording {recording} already has a transcript ({have['id']}, {have['status']})")
    return db.insert(
        Transcript, recording_id=recording, language=language, status="processing", word_count=0,
        speaker_count=0, created_at=db.stamp(),
    )  # fmt: skip
