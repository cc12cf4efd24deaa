"""How a calendar's user speaks, and what their assistant tells them.

The user is the signed-in member: everything is "my calendar", "my invitations". They name an
event by its title and, when a title repeats, by its day ('my "Design sync" on Thursday'), a
calendar by its name ("my Personal calendar", "the Hiring calendar"), a room by its name ("the
Hood room") and colleagues by their email addresses. Event, calendar and room ids are the
service's own and never come up. Times are said in words ("Tuesday, June 2 at 3 pm"), never as
stored; the assistant answers with the event, the time and the people the user asked about.
"""

from __future__ import annotations

from servers.domains.calendar.model import (
    Attendee,
    Calendar,
    CalendarAccess,
    Event,
    Reminder,
    Room,
    User,
    calendar,
)
from servers.kit import Language

say = Language(calendar)


# -- naming things ------------------------------------------------------------------------
# colleagues are named by the address the user types into an invite
say.names(User, "{name}", held="{id}")
say.names(Calendar, "my {name} calendar", "the {name} calendar", 'the "{name}" calendar')
say.names(Room, "the {name} room", "the {name} room in {building}", "{name} in {building}")
# a title, and where it repeats, the day or time the user sees it at (``start`` as the event
# lists show it, in the user's zone; ``start_local`` is the event's own zone and would name the
# wrong day for an event set in Tokyo)
say.names(
    Event,
    '"{title}"',
    'the "{title}" meeting',
    'my "{title}" on {start:day}',
    'the "{title}" meeting on {start:when}',
    shown=("start",),
)
say.names(
    Reminder,
    "my {method:state} reminder",
    "the reminder {minutes_before} minutes before",
    found_in={"get_event": ("my_reminders", "id", "event_id")},
    within="{row} for {owner}",
)

say.state(
    Attendee,
    "response",
    needs_action="hasn't answered",
    accepted="accepted",
    declined="declined",
    tentative="said maybe to",
)
say.state(Event, "status", confirmed="confirmed", tentative="tentative", cancelled="cancelled")
say.state(Reminder, "method", popup="pop-up", email="email")
ROLE = {
    "owner": "manage sharing and events as an owner",
    "writer": "add and edit events",
    "reader": "see the event details",
    "free_busy": "see only the busy times",
}
say.state(CalendarAccess, "role", **ROLE)

SCOPE = {"this": "just that one", "following": "that one and every one after it", "all": "the whole series"}
MINUTES = {15: "15 minutes", 30: "half an hour", 45: "45 minutes", 60: "an hour", 90: "an hour and a half"}

# -- the clock and the calendars -------------------------------------------------------------------
say.tool(
    "get_current_time",
    asks=["What time is it for me right now?", "What's today's date, and which time zone am I in?"],
    tells=["It's {local_time:when} where you are ({timezone} time)."],
)
say.tool(
    "list_calendars",
    asks=[
        "Which calendars can I see?",
        "What calendars do I have access to?",
        "List my calendars.",
        "Which calendars are shared with me, and which are mine?",
        "I forgot what the team calendars are called. Which calendars do I have?",
    ],
    tells=[
        "You can see {calendars:count(calendar)}: {calendars:list(name)}.",
        "You don't have any calendars yet.",
    ],
)
say.tool(
    "create_calendar",
    asks=[
        'Make me a new calendar called "{name}".',
        'Create a calendar named "{name}", I want to keep those things separate.',
        'I need a separate "{name}" calendar.',
        'Set up a "{name}" calendar in the {timezone} time zone.',
        'Create a calendar "{name}" for me. Description: {description}.',
    ],
    tells=['Your new calendar "{name}" is ready.'],
    values={
        "name": ("Side project", "Kids' activities", "Travel", "Gym", "Book club", "Volunteering", "Garden"),
        "description": ("Shared with family", "Only for planning", "Weekend plans", "Trips and bookings"),
    },
)
say.tool(
    "share_calendar",
    asks=[
        "Share {calendar} with {email} so they can {role}.",
        "Give {email} access to {calendar}; they should be able to {role}.",
        "Please share {calendar} with {email}; they need to {role}.",
        "Change {email}'s access to {calendar} so they can {role}.",
        "I'd like {email} to be able to {role} on {calendar}; can you share it?",
    ],
    tells=[
        "I shared {@calendar} with {email}; they can now {role:state}.",
        'I shared "{name}" with {email}; they can now {role:state}.',
    ],
    words={"role": ROLE},
)
say.tool(
    "unshare_calendar",
    asks=[
        "Stop sharing {calendar} with {email}.",
        "Take away {email}'s access to {calendar}.",
        "Please remove {email} from {calendar}, they moved to another team.",
        "I don't want {email} seeing {calendar} anymore.",
        "Please unshare {calendar} with {email}.",
    ],
    tells=["I removed {email}'s access to {@calendar}.", 'I removed {email}\'s access to "{name}".'],
)

# -- looking at the calendar ----------------------------------------------------------------------------
say.tool(
    "list_events",
    asks=[
        "What's on my calendar on {start_day}?",
        "What do I have on {start_day} in the {part_of_day}?",
        "Show me everything I have from {start_day} to {end_day}.",
        "What's on {calendar} on {start_day}?",
        "I'm planning my week: what's on my calendar between {start_day} and {end_day}?",
        "Am I busy on {start_day} in the {part_of_day}?",
        "What's coming up from {start_day} to {end_day}, {include_declined}?",
    ],
    tells=[
        "From {start_day:day} to {end_day:day} you have {events:count(event)}, starting with {events:list(title)}.",
        "On {start_day:day}, {@calendar} has {events:count(event)}: {events:list(title)}.",
        "In the {part_of_day} on {start_day:day} you have {events:count(event)}: {events:list(title)}.",
        "On {start_day:day} you have {events:count(event)}: {events:list(title)}.",
        "{@calendar} has nothing on {start_day:day}.",
        "There's nothing on the calendar from {start_day:day} to {end_day:day}.",
        "There's nothing on the calendar in the {part_of_day} on {start_day:day}.",
        "There's nothing on the calendar on {start_day:day}.",
    ],
    words={
        "include_declined": {True: "including invitations I declined", False: "not counting ones I declined"}
    },
)
say.tool(
    "search_events",
    asks=[
        'Find my events about "{query}".',
        'Search my calendar for "{query}".',
        'Do I have anything about "{query}" between {start_day} and {end_day}?',
        'Which of my meetings mention "{query}"?',
        'Is there a "{query}" on my calendar from {start_day} on?',
    ],
    tells=[
        'I found {events:count(event)} matching "{query}": {events:list(title)}.',
        'Nothing on your calendar matches "{query}".',
    ],
)
say.tool(
    "get_event",
    asks=[
        "Show me the details of {event}.",
        "Who's coming to {event}, and have they answered?",
        "When and where is {event}?",
        "Tell me about {event}.",
        "Who's invited to {event}?",
        "Pull up {event} on {occurrence} for me.",
    ],
    tells=[
        '"{title}" repeats {repeats}, at {location}. On the invite: {attendees:list(email)}.',
        '"{title}" repeats {repeats}. On the invite: {attendees:list(email)}.',
        '"{title}" is on {start:when} at {location}. On the invite: {attendees:list(email)}.',
        '"{title}" is on {start:when}. On the invite: {attendees:list(email)}.',
        '"{title}" is on {start:when}.',
        "That time is blocked as busy on {start:when}; you can only see when it's busy.",
    ],
)

# -- scheduling --------------------------------------------------------------------------------------------
say.tool(
    "create_event",
    asks=[
        'Put "{title}" on my calendar on {start}.',
        'Schedule "{title}" on {start} for {duration_min}.',
        'Set up "{title}" on {start} and invite {attendees}.',
        'Book "{title}" on {start} in {room} with {attendees}.',
        'Add "{title}" to {calendar} on {start}.',
        'Create "{title}" on {start}, repeating {rrule}.',
        'I need "{title}" on {start} at {location}.',
        'Schedule "{title}" on {start} with the note "{description}".',
    ],
    tells=[
        '"{title}" is on {@calendar} for {start:when}.',
        '"{title}" is booked for {start:when} in {@room}, and your guests are invited.',
        '"{title}" is on your calendar for {start:when}, {repeats}.',
        '"{title}" is on your calendar for {start:when}. Heads-up: it overlaps with '
        "{conflicts:count(other booking)} on your or your guests' calendars.",
        '"{title}" is on your calendar for {start:when}.',
    ],
    words={
        "duration_min": MINUTES,
        "rrule": {
            "FREQ=WEEKLY;COUNT=6": "every week for six weeks",
            "FREQ=DAILY;COUNT=5": "every day for five days",
            "FREQ=WEEKLY;INTERVAL=2;COUNT=4": "every other week, four times",
            "FREQ=MONTHLY;COUNT=3": "monthly for three months",
        },
    },
    values={
        "location": (
            "the cafeteria",
            "the lobby",
            "a video call",
            "the 4th floor kitchen",
            "14 Elm St, Portland",
        ),
        "description": ("Agenda in the shared doc.", "Let's review the launch checklist.", "Quick catch-up."),
    },
)
say.tool(
    "update_event",
    asks=[
        "Move {event} to {start}.",
        "Something came up, push {event} to {start}.",
        'Rename {event} to "{title}".',
        "Change the location of {event} to {location}.",
        "Can {event} move to {start} instead?",
        "Move {event} on {occurrence} to {start}, {scope}.",
        'Update the description of {event} to "{description}".',
    ],
    tells=[
        '"{title}" is now at {location}.',
        'The description of "{title}" now reads "{description}".',
        '"{title}" is now on {start:when}. Heads-up: it overlaps with {conflicts:count(other booking)} '
        "on your or your guests' calendars.",
        'Done, "{title}" is on {start:when}.',
    ],
    words={"scope": SCOPE},
    values={
        "title": ("Project kickoff", "Q3 planning", "Budget review", "Design sync", "Roadmap review"),
        "location": (
            "the cafeteria",
            "the lobby",
            "a video call",
            "the 4th floor kitchen",
            "14 Elm St, Portland",
        ),
        "description": ("Agenda in the shared doc.", "Let's review the launch checklist.", "Quick catch-up."),
    },
)
say.tool(
    "cancel_event",
    asks=[
        "Cancel {event}.",
        "Call off {event}, we don't need it anymore.",
        "{event} isn't happening, please cancel it.",
        "Please cancel {event} for everyone.",
        "Cancel {event} on {occurrence}, {scope}.",
    ],
    tells=[
        '"{title}" is cancelled from {cancelled_from:when} on.',
        '"{title}" on {start:when} is cancelled.',
    ],
    words={"scope": SCOPE},
)

# -- guests --------------------------------------------------------------------------------------------------
say.tool(
    "add_attendees",
    asks=[
        "Invite {attendees} to {event}.",
        "Add {attendees} to {event}, they should be in the loop.",
        "Can you send {event} to {attendees} too?",
        "Please add {attendees} to the guest list of {event}.",
        "Invite {attendees} to {event}; attendance is {optional} for them.",
    ],
    tells=[
        'I invited {added:list(email)} to "{title}"; heads-up, they have {conflicts:count(other booking)} at that time.',
        'I invited {added:list(email)} to "{title}".',
    ],
    words={"optional": {True: "optional", False: "required"}},
)
say.tool(
    "remove_attendee",
    asks=[
        "Take {email} off {event}.",
        "Remove {email} from {event}, they can't make it.",
        "Please uninvite {email} from {event}.",
        "Remove {email} from the guest list of {event}.",
        "Take {email} off the guest list for {event}, they don't need to be there.",
    ],
    tells=['I took {removed} off "{title}".'],
)
say.tool(
    "respond_to_invitation",
    asks=[
        "Please {response} the invitation to {event}.",
        "Can you {response} {event} for me?",
        "I got invited to {event}; please {response} it.",
        'Please {response} {event} and tell the organizer "{comment}".',
        "For {event} on {occurrence} only, please {response} it.",
    ],
    tells=[
        'You\'ve {response:state} "{title}"; it overlaps with {conflicts:list(title)} on your calendar.',
        'You\'ve {response:state} "{title}" and passed on your note: "{comment}".',
        'You\'ve {response:state} "{title}".',
    ],
    words={"response": {"accepted": "accept", "declined": "decline", "tentative": "tentatively accept"}},
    values={
        "comment": (
            "Thanks for the invite",
            "Let me know if the time changes",
            "Please send the notes afterwards",
            "Could you share the agenda?",
        )
    },
)

# -- finding time, rooms ------------------------------------------------------------------------------------
say.tool(
    "get_free_busy",
    asks=[
        "Show me the busy times of {emails} from {start} on.",
        "Pull up free/busy for {emails} on {start}, I want to grab them.",
        "What does the rest of the day look like for {emails} from {start}?",
        "Check when {emails} can't meet on {start}.",
        "Show me when {emails} are busy between {start} and {end}.",
    ],
    tells=["Between them: {people:list(name, busy:count=busy block)}."],
)
say.tool(
    "find_meeting_time",
    asks=[
        "Find {duration_min} for me and {emails} starting {start_day}.",
        "When can I meet {emails} for {duration_min}, from {start_day}?",
        "I need {duration_min} with {emails} between {start_day} and {end_day}. When are we all free?",
        "Find a time to meet {emails} for {duration_min}, on {start_day} or later.",
        "Find {duration_min} with {emails} from {start_day} on, {within_working_hours}.",
    ],
    tells=[
        "The earliest time that works for everyone is {first_start:when} ({slots:count(option)} in all).",
        "There's no time when everyone is free then; I can look at more days or outside working hours.",
    ],
    words={
        "duration_min": {30: "half an hour", 45: "45 minutes", 60: "an hour"},
        "within_working_hours": {False: "even outside working hours", True: "within working hours"},
    },
)
say.tool(
    "list_rooms",
    asks=[
        "Which rooms are free on {free_from}?",
        "I need a room for {min_capacity} people in {building}.",
        "Find me a room {has_video} for at least {min_capacity} people.",
        "What rooms are there in {building}?",
        "Is there a room {has_video} free on {free_from}?",
    ],
    tells=[
        "I found {rooms:count(free room)} on {free_from:when}: {rooms:list(name)}.",
        "I found {rooms:count(room)}: {rooms:list(name)}.",
        "No room fits that.",
    ],
    words={"has_video": {True: "with video", False: "without video"}},
)
say.tool(
    "book_room",
    asks=[
        "Book {room} for {event}.",
        "Get {room} for {event}.",
        "{event} needs a room, can you book {room}?",
        "Please reserve {room} for {event}.",
        "We'll meet in {room} for {event}, book it.",
    ],
    tells=['The {name} room in {building} is booked for "{title}".'],
)

# -- reminders ------------------------------------------------------------------------------------------------
say.tool(
    "set_reminder",
    asks=[
        "Remind me {minutes_before} before {event}.",
        "Set a reminder {minutes_before} before {event}, I keep forgetting it.",
        "Send me {method} {minutes_before} before {event}.",
        "Remind me with {method} {minutes_before} before {event}, I don't want to miss it.",
        "Can you remind me about {event} {minutes_before} ahead?",
    ],
    tells=['I\'ll remind you on {next_fires_at:when}, ahead of "{event_title}".'],
    words={
        "method": {"popup": "a pop-up", "email": "an email"},
        "minutes_before": {
            5: "5 minutes",
            10: "10 minutes",
            15: "15 minutes",
            30: "half an hour",
            60: "an hour",
            1440: "a day",
        },
    },
)
say.tool(
    "remove_reminder",
    asks=[
        "Delete {reminder}.",
        "Turn off {reminder}, I don't need it.",
        "Remove {reminder}.",
        "I don't want {reminder} anymore.",
        "Get rid of {reminder}.",
    ],
    tells=["{@reminder} is deleted.", "That reminder is deleted."],
)
