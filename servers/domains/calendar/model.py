"""The calendar service's tables and fixed limits: people, calendars and who may see them,
rooms, events (series, their exceptions) with attendees, and personal reminders."""

from __future__ import annotations

from typing import Literal

from sqlalchemy import ForeignKey, Index, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from servers.kit import Domain

calendar = Domain(
    "calendar",
    "Calendar: events with invitees and RSVPs, recurring series and their exceptions, free/busy, "
    "meeting times across time zones, rooms, reminders and calendar sharing.",
    now="2026-06-01T16:00:00",  # UTC: Monday 09:00 in Portland (America/Los_Angeles), the persona's zone
)

Role = Literal["owner", "writer", "reader", "free_busy"]
ROLES: tuple[str, ...] = ("owner", "writer", "reader", "free_busy")
Response = Literal["accepted", "declined", "tentative"]
Scope = Literal["this", "following", "all"]
Method = Literal["popup", "email"]
PartOfDay = Literal["morning", "afternoon", "evening"]
PARTS_OF_DAY = {"morning": (6, 12), "afternoon": (12, 17), "evening": (17, 22)}

MAX_ATTENDEES = 100  # per event, the organizer included
MAX_FREE_BUSY = 20  # people per free/busy question
MAX_TIMED_HOURS = 24
MAX_ALL_DAY_DAYS = 14
MAX_WINDOW_DAYS = 62  # the longest window list_events and free/busy look at
MAX_REMINDERS = 5  # per person per event
MAX_REMINDER_MIN = 40_320  # four weeks
MAX_OWNED_CALENDARS = 25
CONFLICT_HORIZON_DAYS = 60  # a new series is checked over its next 10 occurrences within this  # how far ahead a new series' occurrences are checked for conflicts
SLOT_MIN = 30  # find_meeting_time steps


class User(
    calendar.Table,
    example="dana.whitfield@corvid.example",
    noun="person",
    people={"email": "email", "name": "name", "city": "city"},
):
    """A person in the organisation's directory, keyed by email (a person of the shared world).
    External contacts are in the directory but keep their calendars elsewhere."""

    __tablename__ = "users"
    id: Mapped[str] = mapped_column(primary_key=True)  # the email address
    email: Mapped[str] = mapped_column(unique=True)
    name: Mapped[str] = mapped_column(index=True)
    person_id: Mapped[int] = mapped_column(unique=True)
    title: Mapped[str]
    city: Mapped[str]
    timezone: Mapped[str]
    work_start: Mapped[str]  # HH:MM in their zone
    work_end: Mapped[str]
    is_external: Mapped[bool]


# Whose calendar this episode acts on.
Session = calendar.acting(User, "user_id")


class Calendar(calendar.Table, prefix="CAL"):
    """A calendar: each member's ``primary`` one, ``secondary`` ones they made, shared ``team``
    calendars, and the ``resource`` calendar of each room (no owner)."""

    __tablename__ = "calendars"
    id: Mapped[str] = mapped_column(primary_key=True)
    owner_id: Mapped[str | None] = mapped_column(ForeignKey("users.id"), index=True)
    name: Mapped[str]
    description: Mapped[str]
    timezone: Mapped[str]
    kind: Mapped[str]  # primary / secondary / team / resource
    created_at: Mapped[str]


class CalendarAccess(calendar.Table, prefix="ACL", noun="calendar access"):
    """Who may do what with a calendar: ``owner`` and ``writer`` edit, ``reader`` sees the
    details, ``free_busy`` only when it is busy."""

    __tablename__ = "calendar_access"
    __table_args__ = (UniqueConstraint("calendar_id", "user_id"),)
    id: Mapped[str] = mapped_column(primary_key=True)
    calendar_id: Mapped[str] = mapped_column(ForeignKey("calendars.id"), index=True)
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"), index=True)
    role: Mapped[str]
    granted_at: Mapped[str]


class Room(calendar.Table, prefix="ROM"):
    """A bookable meeting room; its bookings are events that list it as an attendee."""

    __tablename__ = "rooms"
    id: Mapped[str] = mapped_column(primary_key=True)
    name: Mapped[str]
    building: Mapped[str] = mapped_column(index=True)
    floor: Mapped[int]
    capacity: Mapped[int]
    has_video: Mapped[bool]
    resource_address: Mapped[str] = mapped_column(unique=True)  # how it appears among attendees
    calendar_id: Mapped[str] = mapped_column(ForeignKey("calendars.id"))


class Event(calendar.Table, prefix="EVT"):
    """A single event, the master row of a recurring series (``rrule`` set), or an exception:
    one occurrence of a series changed or cancelled (``series_id`` and ``original_start`` name
    the occurrence it replaces). ``start_local``/``end_local`` are wall times in ``timezone``
    (for a series, its first occurrence); the ``_utc`` columns are the same moments in UTC, and
    ``last_end_utc`` is when the last occurrence ends."""

    __tablename__ = "events"
    # the span index answers "is this event in the window, and is it busy" without reading the
    # row (a conflict check reads the times of every event its guests attend); the status one
    # counts and pages events by status (list_records) without a scan
    __table_args__ = (
        Index("ix_events_window", "start_utc", "last_end_utc"),
        Index(
            "ix_events_span", "id", "start_utc", "last_end_utc", "status", "transparency", "end_utc", "rrule"
        ),
        Index("ix_events_status", "status", "id"),
    )
    id: Mapped[str] = mapped_column(primary_key=True)
    calendar_id: Mapped[str] = mapped_column(ForeignKey("calendars.id"), index=True)
    organizer_id: Mapped[str] = mapped_column(ForeignKey("users.id"), index=True)
    title: Mapped[str] = mapped_column(index=True)
    description: Mapped[str]
    location: Mapped[str]
    start_local: Mapped[str]
    end_local: Mapped[str]
    timezone: Mapped[str]
    start_utc: Mapped[str]
    end_utc: Mapped[str]
    last_end_utc: Mapped[str]
    all_day: Mapped[bool]
    status: Mapped[str]  # confirmed / tentative / cancelled
    visibility: Mapped[str]  # default / private
    transparency: Mapped[str]  # busy / free
    rrule: Mapped[str | None]
    series_id: Mapped[str | None] = mapped_column(ForeignKey("events.id"), index=True)
    original_start: Mapped[str | None]  # wall time (series zone) of the occurrence replaced
    meeting_link: Mapped[str | None]
    created_at: Mapped[str]
    updated_at: Mapped[str]


class Attendee(calendar.Table, prefix="ATT", people={"email": "email"}):
    """One invitee of an event: a directory person (``user_id``), a room (``room_id``) or an
    outside address (neither), with their response."""

    __tablename__ = "attendees"
    __table_args__ = (
        UniqueConstraint("event_id", "email"),
        Index("ix_attendees_user_event", "user_id", "event_id", "response"),
        Index("ix_attendees_room_event", "room_id", "event_id", "response"),
    )
    id: Mapped[str] = mapped_column(primary_key=True)
    event_id: Mapped[str] = mapped_column(ForeignKey("events.id"), index=True)
    email: Mapped[str]
    user_id: Mapped[str | None] = mapped_column(ForeignKey("users.id"))
    room_id: Mapped[str | None] = mapped_column(ForeignKey("rooms.id"))
    response: Mapped[str]  # needs_action / accepted / declined / tentative
    optional: Mapped[bool]
    is_organizer: Mapped[bool]
    comment: Mapped[str | None]
    responded_at: Mapped[str | None]


class Reminder(calendar.Table, prefix="RMD"):
    """A personal reminder before an event (for a series, before each occurrence)."""

    __tablename__ = "reminders"
    id: Mapped[str] = mapped_column(primary_key=True)
    event_id: Mapped[str] = mapped_column(ForeignKey("events.id"), index=True)
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"), index=True)
    minutes_before: Mapped[int]
    method: Mapped[str]  # popup / email
    created_at: Mapped[str]
