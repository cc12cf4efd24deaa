"""Video meetings: a Zoom-like service where the signed-in user hosts meetings, runs them live
(waiting room, participants, co-hosts, recording) and manages registrations and cloud recordings.

Acting model: the one-row ``sessions`` table names the signed-in user, the persona (USR-000001,
world person 0). She hosts her own meetings and is an admin of three accounts: her employer's
(business plan; she is one of its admins), her design studio (pro) and the community choir she
runs (basic). An admin manages every meeting of the account's users as its host would: changing
and deleting them, ending them, the waiting room and participants of a live one, registrants and
recordings. Only a meeting's own host starts it. Meetings of other accounts she is invited to (or
registered for) she can see and join with their passcode. Users of the accounts are her circle
from the shared world (colleagues first), with the same names and emails as in email and calendar.

Reference moment: Monday 2026-06-01 16:00 UTC, 09:00 in Portland where the persona lives. Times
are stored in UTC; a time you give (``start``) is your local wall-clock time unless it carries an
offset, and meetings also show their start in their own time zone. Nothing moves by itself: a live
meeting stays live, a cloud recording stays ``processing``, until a tool changes it.

Meetings: ``kind`` instant / scheduled / recurring_fixed (an RRULE: daily, weekdays, weekly,
biweekly, monthly) / recurring_floating (no fixed time); ``status`` waiting (not running) /
started (live) / finished (a one-off that ended) / deleted. Every meeting has an 11-digit number
and a join link ``https://huddle.example/j/<number>`` (calendar events carry it as
``meeting_link``) and a passcode: a secret that discovery tools never show; get_meeting shows it
to the host and account admins only. The persona's fixed meetings: MTG-000001 'Monday planning'
(weekly at 09:00, four colleagues waiting for her to start it), MTG-000002 and MTG-000003 with
manual registration and pending registrants, upcoming ones to MTG-000009, held ones with
recordings in every state to MTG-000015; then others' meetings she is part of.

Rules the service enforces, each refused with an error that names the values involved:

* Plans (per account): basic allows 100 people, no co-hosts, no cloud recording, registration or
  transcripts, and a meeting of 3 or more people (the host and 2+ invitees) lasts at most 40
  minutes; pro allows 100 people, business 300. Cloud recording needs free cloud storage.
* Scheduling: start in the future (none for no_fixed_time); 15-1,440 minutes; registration needs a
  fixed time. You schedule for yourself, or for an active user of an account you administer.
* Changing: a finished meeting cannot change; a live one keeps its start and length; a floating
  one takes no start. Deleting a live meeting asks to end it first; deleting cancels pending and
  approved registrations. One occurrence of a fixed-time recurring meeting can be cancelled if it
  is a real occurrence, today or later, and not cancelled already.
* Running: only the host starts a meeting, one live meeting per host; a finished one-off cannot
  start again. People who joined before the start stay in the waiting room if it is on (admit
  them) and come in if it is off. Ending stops the recording (a cloud one goes to processing and
  counts against storage), sets everyone ``left`` and finishes a one-off (a recurring meeting
  waits for its next time).
* Joining: the passcode must match; registration meetings need an approved registration; you
  cannot join twice or after being removed, nor a meeting you host. The waiting room (or a host
  who has not started, without join-before-host) makes you wait; otherwise you join if it is
  not full.
* Live controls: admit only people in the waiting room of a live meeting, within the plan's
  capacity (admit_all needs room for all of them); removed people cannot be admitted or rejoin;
  the host cannot be removed or made co-host; mute and co-host only people in the meeting;
  co-hosts need pro or business.
* Recording: only while live, one at a time; stop only while recording.
* Registration: approve only pending registrants; deny pending or approved ones; cancel pending
  or approved ones; not once the meeting is over.
* Recordings: trash keeps a cloud recording 30 days, restore only within them; permanent delete
  is final and frees storage; recording or processing ones, and local ones, cannot be deleted
  here. Transcripts (metadata: language, words, speakers) only for available cloud recordings
  on pro or business, one per recording. Retention: 30 days up to 365 (pro) or 3,650 (business);
  changing it moves every kept recording's deletion date.
"""

from servers.domains.video_meeting import (
    account,
    live,
    meetings,
    participants,
    recordings,
    registration,
    seed,
)
from servers.domains.video_meeting.model import video_meeting

# the modules that declare the domain; its tools are shown to agents in this order
video_meeting.include(seed, meetings, live, participants, registration, recordings, account)

__all__ = ["video_meeting"]

# the words its users use and its assistant answers with (read by the task generator)
from servers.domains.video_meeting import language as _language  # noqa: E402,F401
