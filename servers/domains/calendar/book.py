"""The seed's event book: builds event, attendee and reminder rows in memory (ids in order,
times computed once, rooms never double-booked) and writes them in one go."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from servers.domains.calendar import recurrence
from servers.domains.calendar.clock import stored, to_utc
from servers.domains.calendar.model import Attendee, Event, Reminder
from servers.domains.calendar.timeline import timing
from servers.kit import Seeder

SEEDED_AT = "2026-05-01T16:00:00"


class Book:
    """Rows of events and their guests, for one snapshot build."""

    def __init__(self, s: Seeder, users: dict[str, dict], rooms: list[dict]) -> None:
        self.s = s
        self.users = users
        self.rooms = rooms
        self.events: list[dict[str, Any]] = []
        self.attendees: list[dict[str, Any]] = []
        self.reminders: list[dict[str, Any]] = []
        self.by_event: dict[str, list[dict[str, Any]]] = {}
        self.room_busy: dict[tuple[str, str], list[tuple[datetime, datetime]]] = {}

    def event(
        self,
        organizer: str,
        calendar: str,
        title: str,
        start: datetime,
        end: datetime,
        tz: str,
        *,
        rule: str | None = None,
        all_day: bool = False,
        **extra: Any,
    ) -> dict[str, Any]:
        """Add an event (wall times in ``tz``); returns its row, which later calls may amend."""
        parsed = recurrence.parse(rule) if rule else None
        row = {
            "id": f"EVT-{len(self.events) + 1:06d}",
            "calendar_id": calendar,
            "organizer_id": organizer,
            "title": title,
            "description": extra.pop("description", ""),
            "location": extra.pop("location", ""),
            **timing(start, end, tz, parsed),
            "all_day": all_day,
            "status": extra.pop("status", "confirmed"),
            "visibility": extra.pop("visibility", "default"),
            "transparency": extra.pop("transparency", "free" if all_day else "busy"),
            "series_id": extra.pop("series_id", None),
            "original_start": extra.pop("original_start", None),
            "meeting_link": extra.pop("meeting_link", None),
            "created_at": SEEDED_AT,
            "updated_at": SEEDED_AT,
        }
        assert not extra, extra
        self.events.append(row)
        self.guest(row["id"], organizer, "accepted", organizer=True)
        return row

    def guest(
        self,
        event: str,
        email: str,
        response: str,
        *,
        organizer: bool = False,
        optional: bool = False,
        room: str | None = None,
    ) -> None:
        user = email if email in self.users else None
        self._attend(
            {
                "id": f"ATT-{len(self.attendees) + 1:06d}",
                "event_id": event,
                "email": email,
                "user_id": user,
                "room_id": room,
                "response": response,
                "optional": optional,
                "is_organizer": organizer,
                "comment": None,
                "responded_at": None if response == "needs_action" else SEEDED_AT,
            }
        )

    def _attend(self, row: dict[str, Any]) -> None:
        self.attendees.append(row)
        self.by_event.setdefault(row["event_id"], []).append(row)

    def invited(self, event: str) -> list[dict[str, Any]]:
        return self.by_event.get(event, [])

    def exception(self, master: dict[str, Any], original: datetime, **change: Any) -> dict[str, Any]:
        """One occurrence of ``master`` changed (new times, or ``status='cancelled'``), with the
        series' guests copied as they are."""
        tz = master["timezone"]
        length = datetime.fromisoformat(master["end_local"]) - datetime.fromisoformat(master["start_local"])
        start = change.pop("start", original)
        row = self.event(
            master["organizer_id"],
            master["calendar_id"],
            master["title"],
            start,
            start + length,
            tz,
            series_id=master["id"],
            original_start=stored(original),
            location=master["location"],
            meeting_link=master["meeting_link"],
            description=master["description"],
            **change,
        )
        self.by_event[row["id"]].pop()
        self.attendees.pop()  # the organizer row comes with the copy below
        for a in list(self.invited(master["id"])):
            self._attend({**a, "id": f"ATT-{len(self.attendees) + 1:06d}", "event_id": row["id"]})
        return row

    def room_free(self, room: str, start_utc: datetime, end_utc: datetime) -> bool:
        """Bookings are kept per room and UTC day (seeded bookings never cross midnight twice)."""
        days = {start_utc.date().isoformat(), (start_utc - timedelta(days=1)).date().isoformat()}
        taken = [b for d in days for b in self.room_busy.get((room, d), [])]
        return all(e <= start_utc or s >= end_utc for s, e in taken)

    def take_room(self, event: dict[str, Any], people: int) -> dict[str, Any] | None:
        """Book a free room big enough for a single event, if one is left."""
        s, e = datetime.fromisoformat(event["start_utc"]), datetime.fromisoformat(event["end_utc"])
        first = self.s.rng.randrange(len(self.rooms))
        rotated = self.rooms[first:] + self.rooms[:first]
        room = next((r for r in rotated if r["capacity"] >= people and self.room_free(r["id"], s, e)), None)
        if room is None:
            return None
        self.room_busy.setdefault((room["id"], s.date().isoformat()), []).append((s, e))
        self.guest(event["id"], room["resource_address"], "accepted", room=room["id"])
        event["location"] = f"{room['name']} ({room['building']})"
        return room

    def remind(self, event: str, user: str, minutes: int, method: str = "popup") -> None:
        self.reminders.append(
            {
                "id": f"RMD-{len(self.reminders) + 1:06d}",
                "event_id": event,
                "user_id": user,
                "minutes_before": minutes,
                "method": method,
                "created_at": SEEDED_AT,
            }
        )

    def write(self) -> None:
        self.s.add(Event, self.events)
        self.s.add(Attendee, self.attendees)
        self.s.add(Reminder, self.reminders)


def at(day: datetime, hhmm: str) -> datetime:
    h, m = hhmm.split(":")
    return day.replace(hour=int(h), minute=int(m), second=0, microsecond=0)


def utc_of(local: datetime, tz: str) -> datetime:
    return to_utc(local, tz)


def plus(local: datetime, minutes: int) -> datetime:
    return local + timedelta(minutes=minutes)
