"""Calendar: an organisation's calendars, used by one signed-in member (the shape of Google
Calendar's events, instances, attendees and free/busy, with the ARE calendar app's windows).

Acting model: the one-row ``sessions`` table names the signed-in user, the persona (world person
0, in Portland). The directory (``users``, keyed by email) is the persona's circle from the shared
world: her colleagues first, then others; the last sixth are external contacts, whose calendars
live elsewhere (they can be invited, never looked at). Every member has a primary calendar in
their own time zone (from the world's cities); the persona also has two secondary calendars,
writer or reader access to six team calendars and reader or free/busy access to twenty
colleagues' calendars. Each room has a resource calendar.

Reference moment: Monday 2026-06-01 09:00 in Portland (America/Los_Angeles), stored as
16:00 UTC. A ``Moment`` argument is the user's wall time unless it carries an offset (``Z``,
``+01:00``); a ``Day`` is the user's local date. Every answer gives local times in the user's
zone with UTC beside them; an event keeps its own zone (``event_timezone``), so a weekly 10:00
London meeting stays at 10:00 London time across daylight-saving changes while its UTC time and
its time for the persona move.

Recurrence: a series is one event row with an RFC 5545 ``rrule`` (FREQ DAILY/WEEKLY/MONTHLY/
YEARLY, INTERVAL, BYDAY with ordinals for MONTHLY, BYMONTHDAY, COUNT or UNTIL, never both; at
most 730 occurrences), expanded in the event's own zone; months without the day (the 31st) are
skipped. An occurrence is named by the series id and its day. Changing or answering one
occurrence writes an exception row (``series_id`` + ``original_start``) with a copy of the guests;
``following`` ends the series the day before and starts a new one with the change; ``all``
changes the series itself.

Rules the service enforces, each refused with an error naming the values involved (nothing
changes on a refusal):

* Times: the end is after the start; timed events last at most 24 hours, all-day ones at most
  14 days; a wall time skipped by a spring-forward change does not exist.
* The past is read-only: nothing that started before now is created, moved or cancelled, and an
  ended event cannot be answered. A series that has started cannot be changed or cancelled as a
  whole (``all``); use ``following`` from the next occurrence.
* Permissions: only the organizer or an owner/writer of the event's calendar changes details,
  guests or rooms and cancels; guests answer and set their own reminders. Creating needs owner or
  writer on the calendar; a reader sees details (private events only as busy), free_busy only
  busy blocks. The organizer's answer is always accepted; answering the same way again is refused.
* Rules must fit their start (the start is the first occurrence); moving a series to another day
  follows a single BYDAY/BYMONTHDAY and refuses rules that no longer fit.
* Guests: valid addresses, no repeats, at most 100 per event with the organizer; addresses
  outside the directory are allowed and stay needs_action. The organizer cannot be removed.
* Rooms: a room is booked only if free at every time of the event (otherwise it declines, naming
  the booking) and big enough for the guests; rooms are not attendees to type in and never
  organise events (their resource calendars take no events). One room per event.
* Double-booking people is allowed: creating, moving, inviting and accepting return a
  ``conflicts`` list of who is already busy then.
* Free/busy: at most 20 members per question, windows up to 62 days; events marked free and
  declined invitations are not busy. ``find_meeting_time`` adds the user and keeps to everyone's
  working hours on weekdays, each in their own zone.
* Reminders: only for events still to come that you are on, at most 5 per event, 0 minutes to 4
  weeks before, no duplicates. Sharing: only an owner shares or unshares, never with themself;
  roles owner, writer, reader, free_busy; calendars only with directory people.
"""

from servers.domains.calendar import availability, guests, scheduling, seed, sharing, viewing
from servers.domains.calendar.model import calendar

# the modules that declare the domain; its tools are shown to agents in this order
calendar.include(seed, viewing, scheduling, guests, availability, sharing)

__all__ = ["calendar"]

# the words its users use and its assistant answers with (read by the task generator)
from servers.domains.calendar import language as _language  # noqa: E402,F401
