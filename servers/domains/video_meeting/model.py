"""The meeting service's tables and fixed facts: accounts and plans, users, meetings, live instances,
participants, registrants, recordings and transcripts."""

from __future__ import annotations

from typing import Literal

from sqlalchemy import ForeignKey, Index
from sqlalchemy.orm import Mapped, mapped_column

from servers.kit import Domain

video_meeting = Domain(
    "video_meeting",
    "Video meetings: scheduled and instant meetings, waiting rooms, live participants, registration, "
    "cloud recordings and transcripts, with per-account plans.",
    now="2026-06-01T16:00:00",  # UTC: Monday 09:00 in Portland, where the persona lives
)

SERVICE_HOST = "huddle.example"  # join links look like https://huddle.example/j/84213377651
Plan = Literal["basic", "pro", "business"]
PLANS: tuple[str, ...] = ("basic", "pro", "business")
# what each plan allows: participants in one meeting, cloud storage, co-hosts and cloud recording
CAPACITY = {"basic": 100, "pro": 100, "business": 300}
STORAGE_MB = {"basic": 0, "pro": 5 * 1024, "business": 10 * 1024}
MAX_RETENTION_DAYS = {"basic": 0, "pro": 365, "business": 3650}
PAID = ("pro", "business")
BASIC_LIMIT_MIN = 40  # a basic meeting of 3 or more people (host + 2 invitees) lasts at most 40 minutes
BASIC_GROUP = 3
MIN_DURATION, MAX_DURATION = 15, 1440
TRASH_DAYS = 30  # trashed recordings can be restored for 30 days
CLOUD_MB_PER_MIN = 4.0  # a cloud recording's size per minute (speaker view, 720p)
Kind = Literal["instant", "scheduled", "recurring_fixed", "recurring_floating"]
Recurrence = Literal["none", "daily", "weekdays", "weekly", "biweekly", "monthly", "no_fixed_time"]
# the RRULE each fixed-time recurrence is stored as (the subset the calendar also speaks)
RRULES = {
    "daily": "FREQ=DAILY",
    "weekdays": "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR",
    "weekly": "FREQ=WEEKLY",
    "biweekly": "FREQ=WEEKLY;INTERVAL=2",
    "monthly": "FREQ=MONTHLY",
}
AutoRecording = Literal["none", "local", "cloud"]
Approval = Literal["automatic", "manual"]


def meeting_number(meeting_id: str) -> str:
    """The 11-digit number people dial or type for a meeting: a fixed bijection of its row number,
    so numbers are unique, look random and are the same on every build."""
    n = int(meeting_id.rsplit("-", 1)[1])
    return str(80_000_000_000 + (n * 4_294_967_291) % 10_000_000_000)


def join_url(number: str) -> str:
    """The meeting's join link (calendar events carry it as ``meeting_link``)."""
    return f"https://{SERVICE_HOST}/j/{number}"


def spaced(number: str) -> str:
    """How people write a meeting number: 842 1337 7651."""
    return f"{number[:3]} {number[3:7]} {number[7:]}"


# -- accounts and people ----------------------------------------------------------------------------


class Account(video_meeting.Table, prefix="ACT"):
    """A subscription: an organisation (or a person) on one plan, with cloud storage and a retention
    policy for cloud recordings."""

    __tablename__ = "accounts"
    id: Mapped[str] = mapped_column(primary_key=True)
    name: Mapped[str]
    plan: Mapped[str]  # basic / pro / business
    cloud_storage_mb: Mapped[float]
    used_storage_mb: Mapped[float]
    recording_retention_days: Mapped[int]  # cloud recordings are deleted this long after the meeting
    created_at: Mapped[str]


class User(video_meeting.Table, prefix="USR", people={"name": "name", "email": "email"}):
    """A person with a login on the service, member of one account (a world person)."""

    __tablename__ = "users"
    id: Mapped[str] = mapped_column(primary_key=True)
    person_id: Mapped[int] = mapped_column(unique=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"), index=True)
    name: Mapped[str]
    email: Mapped[str] = mapped_column(unique=True)
    timezone: Mapped[str]
    status: Mapped[str]  # active / deactivated


class AccountAdmin(video_meeting.Table, prefix="ADM", noun="account admin"):
    """Who administers an account: admins manage every meeting, registrant and recording of its users."""

    __tablename__ = "account_admins"
    id: Mapped[str] = mapped_column(primary_key=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"), index=True)
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"), index=True)
    role: Mapped[str]  # owner / admin


# This episode's signed-in user.
Session = video_meeting.acting(User, "user_id", columns={"signed_in_at": str})


# -- meetings ------------------------------------------------------------------------------------


class Meeting(video_meeting.Table, prefix="MTG", hidden=("passcode",)):
    """A meeting and its settings. ``start_utc`` is the (first) start for scheduled and fixed-time
    recurring meetings; floating recurring meetings and never-started instant ones have a start only
    once they run. ``status``: waiting (not running), started (live), finished (a one-off that
    ended) or deleted. The passcode is a secret: discovery tools never show it."""

    __tablename__ = "meetings"
    __table_args__ = (
        Index("ix_meetings_account_status", "account_id", "status"),
        Index("ix_meetings_host_status", "host_id", "status"),
    )
    id: Mapped[str] = mapped_column(primary_key=True)
    number: Mapped[str] = mapped_column(unique=True)
    host_id: Mapped[str] = mapped_column(ForeignKey("users.id"))
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"))
    title: Mapped[str] = mapped_column(index=True)
    kind: Mapped[str]
    start_utc: Mapped[str | None] = mapped_column(index=True)
    duration_min: Mapped[int]
    timezone: Mapped[str]
    rrule: Mapped[str | None]
    skipped_days: Mapped[str]  # occurrences deleted from a recurring meeting, comma-separated days
    passcode: Mapped[str]
    waiting_room: Mapped[bool]
    join_before_host: Mapped[bool]
    mute_on_entry: Mapped[bool]
    auto_recording: Mapped[str]  # none / local / cloud
    registration: Mapped[bool]
    approval: Mapped[str]  # automatic / manual (registration only)
    status: Mapped[str]
    join_url: Mapped[str]
    calendar_event_ref: Mapped[str | None]
    created_at: Mapped[str]


class Invitee(video_meeting.Table, prefix="INV", people={"name": "name", "email": "email"}):
    """Someone invited to a meeting (by email; they get the join link)."""

    __tablename__ = "invitees"
    id: Mapped[str] = mapped_column(primary_key=True)
    meeting_id: Mapped[str] = mapped_column(ForeignKey("meetings.id"), index=True)
    name: Mapped[str]
    email: Mapped[str] = mapped_column(index=True)


class Registrant(video_meeting.Table, prefix="REG", people={"name": "name", "email": "email"}):
    """A registration for a meeting that requires one: pending, approved, denied or cancelled."""

    __tablename__ = "registrants"
    id: Mapped[str] = mapped_column(primary_key=True)
    meeting_id: Mapped[str] = mapped_column(ForeignKey("meetings.id"), index=True)
    name: Mapped[str] = mapped_column(index=True)
    email: Mapped[str] = mapped_column(index=True)
    status: Mapped[str] = mapped_column(index=True)
    registered_at: Mapped[str]
    updated_at: Mapped[str]


class Instance(video_meeting.Table, prefix="INS", noun="meeting instance"):
    """One run of a meeting, from start to end (a recurring meeting has one per occurrence held)."""

    __tablename__ = "instances"
    id: Mapped[str] = mapped_column(primary_key=True)
    meeting_id: Mapped[str] = mapped_column(ForeignKey("meetings.id"), index=True)
    started_at: Mapped[str]
    ended_at: Mapped[str | None]
    status: Mapped[str]  # live / ended
    peak_participants: Mapped[int]


class Participant(video_meeting.Table, prefix="PRT", people={"name": "name", "email": "email"}):
    """Someone in (or waiting for, or gone from) a meeting. Before a meeting starts, people who join
    wait in the waiting room with no instance yet; starting it attaches them to the new instance."""

    __tablename__ = "participants"
    __table_args__ = (Index("ix_participants_meeting_state", "meeting_id", "state"),)
    id: Mapped[str] = mapped_column(primary_key=True)
    meeting_id: Mapped[str] = mapped_column(ForeignKey("meetings.id"))
    instance_id: Mapped[str | None] = mapped_column(ForeignKey("instances.id"), index=True)
    user_id: Mapped[str | None] = mapped_column(ForeignKey("users.id"), index=True)
    name: Mapped[str] = mapped_column(index=True)
    email: Mapped[str | None] = mapped_column(index=True)
    role: Mapped[str]  # host / co_host / attendee
    state: Mapped[str]  # waiting_room / in_meeting / left
    muted: Mapped[bool]
    video_on: Mapped[bool]
    removed: Mapped[bool]
    joined_at: Mapped[str]
    left_at: Mapped[str | None]


class Recording(video_meeting.Table, prefix="REC"):
    """A recording of one instance. Cloud recordings go recording -> processing -> available and may
    be trashed (restorable for 30 days) or deleted for good; local ones stay on the host's computer.
    A cloud recording's deletion date is its end plus its account's retention (shown, not stored)."""

    __tablename__ = "recordings"
    __table_args__ = (
        Index("ix_recordings_meeting_status", "meeting_id", "status"),
        Index("ix_recordings_account_status", "account_id", "status"),
        Index("ix_recordings_status", "status"),
    )
    id: Mapped[str] = mapped_column(primary_key=True)
    meeting_id: Mapped[str] = mapped_column(ForeignKey("meetings.id"))
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"))  # the meeting's account
    instance_id: Mapped[str] = mapped_column(ForeignKey("instances.id"), index=True)
    title: Mapped[str] = mapped_column(index=True)
    kind: Mapped[str]  # cloud / local
    status: Mapped[str]  # recording / processing / available / trashed / deleted
    started_at: Mapped[str]
    ended_at: Mapped[str | None]
    duration_min: Mapped[int]
    size_mb: Mapped[float]
    trashed_at: Mapped[str | None]


class Transcript(video_meeting.Table, prefix="TRN"):
    """The audio transcript of a cloud recording, as metadata: language, words, speakers, status."""

    __tablename__ = "transcripts"
    id: Mapped[str] = mapped_column(primary_key=True)
    recording_id: Mapped[str] = mapped_column(ForeignKey("recordings.id"), unique=True)
    language: Mapped[str]
    status: Mapped[str]  # processing / ready
    word_count: Mapped[int]
    speaker_count: Mapped[int]
    created_at: Mapped[str]
