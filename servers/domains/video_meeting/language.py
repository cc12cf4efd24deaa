"""How the people of a video meeting service speak, and what their assistant tells them.

The user is the signed-in host and account admin. She names a meeting by its title ('the "Design
review" meeting'), a person in a meeting or on a registration list by their name ("Dana Lee"), a
recording by its title (which carries the day it was made: 'the "Juniper demo (Apr 8)"
recording'), an account by its organisation's name ("the Harvey Co account"), and a colleague
she schedules for by name. Meeting, participant, registrant, recording and account ids are the
service's own and never come up; a join link and its passcode are what people share. States are
said as a host says them: people "waiting to be let in", a recording "still processing", a
registration "still waiting for approval". Times are said in words, never as stored.
"""

from __future__ import annotations

from servers.domains.video_meeting.model import (
    Account,
    Meeting,
    Participant,
    Recording,
    Registrant,
    Transcript,
    User,
    video_meeting,
)
from servers.kit import Language

say = Language(video_meeting)

# -- naming things ------------------------------------------------------------------------------
# every title is the meeting's own (no two meetings share one), and the title is what a meeting
# search finds it by; its stored start is the series' first for a recurring meeting, so no form
# names a meeting by its time
say.names(Meeting, '"{title}"', 'the "{title}" meeting', 'the "{title}" call')
say.names(Participant, "{name}", within="{row} at {owner}")  # "Jon Reese at the "Design review" meeting"
say.names(Registrant, "{name}", within="{row} for {owner}")
say.names(Recording, 'the "{title}" recording', 'the recording "{title}"', 'my recording of "{title}"')
say.names(Account, "the {name} account", 'the "{name}" account')
say.names(User, "{name}")

say.state(
    Meeting,
    "status",
    waiting="still to come",
    started="live right now",
    finished="over",
    deleted="deleted",
)
say.state(
    Meeting,
    "kind",
    instant="an instant meeting",
    scheduled="a one-time meeting",
    recurring_fixed="a recurring meeting",
    recurring_floating="a recurring meeting with no fixed time",
)
say.state(
    Meeting,
    "rrule",
    **{
        "FREQ=DAILY": "every day",
        "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR": "every weekday",
        "FREQ=WEEKLY": "every week",
        "FREQ=WEEKLY;INTERVAL=2": "every other week",
        "FREQ=MONTHLY": "every month",
    },
)
say.state(Meeting, "waiting_room", **{"True": "on", "False": "off"})
say.state(
    Meeting,
    "mute_on_entry",
    **{"True": "muted as they join", "False": "no longer muted as they join"},
)
say.state(
    Meeting,
    "join_before_host",
    **{"True": "can join before the host", "False": "have to wait for the host"},
)
say.state(
    Meeting,
    "auto_recording",
    none="no longer records by itself",
    local="records by itself to the host's computer",
    cloud="records by itself to the cloud",
)
say.state(
    Participant,
    "state",
    waiting_room="waiting to be let in",
    in_meeting="in the meeting",
    left="left",
)
say.state(Participant, "role", host="host", co_host="co-host", attendee="attendee")
say.state(Participant, "muted", **{"True": "muted", "False": "unmuted"})
say.state(
    Registrant,
    "status",
    pending="still waiting for approval",
    approved="approved",
    denied="denied",
    cancelled="cancelled",
)
say.state(
    Recording,
    "status",
    recording="still recording",
    processing="still processing",
    available="ready",
    trashed="in the trash",
    deleted="deleted for good",
)
say.state(Recording, "kind", cloud="to the cloud", local="on the host's computer")
say.state(Transcript, "status", processing="still being made", ready="ready")
LANGUAGES = {
    "en-US": "English",
    "es-ES": "Spanish",
    "de-DE": "German",
    "fr-FR": "French",
    "ja-JP": "Japanese",
}
say.state(Transcript, "language", **LANGUAGES)
say.state(Account, "plan", basic="Basic", pro="Pro", business="Business")

LENGTH = {
    15: "15 minutes",
    30: "half an hour",
    45: "45 minutes",
    60: "an hour",
    90: "an hour and a half",
    120: "two hours",
}
TITLES = (
    "Weekly sync",
    "Q3 roadmap review",
    "Design crit",
    "Budget check-in",
    "Hiring debrief",
    "Launch go/no-go",
    "Team retro",
    "Customer kickoff",
    "Office hours",
    "Book club",
)

# -- the clock and the account -------------------------------------------------------------------
say.tool(
    "get_current_time",
    asks=["What time is it for me right now?", "What's today's date, and which time zone am I in?"],
    tells=["It's {local:when} where you are ({timezone} time)."],
)
say.tool(
    "get_account",
    asks=[
        "What plan am I on?",
        "How much cloud storage do I have left?",
        "What plan is {account} on?",
        "How much cloud storage is left on {account}? I want to record a long session.",
        "How long does {account} keep cloud recordings?",
        "Can you pull up the plan and storage of {account}?",
    ],
    tells=[
        "{name} is on the {plan:state} plan: {free_storage_mb} MB of its {cloud_storage_mb} MB of cloud "
        "storage is free, and cloud recordings are kept {recording_retention_days} days.",
    ],
)
say.tool(
    "set_recording_retention",
    asks=[
        "Keep cloud recordings on {account} for {days} days.",
        "Set the recording retention of {account} to {days} days.",
        "We're running out of space; make {account} delete cloud recordings after {days} days.",
        "Legal wants recordings kept longer: set {account} to keep them {days} days.",
        "Change how long {account} keeps recordings to {days} days, please.",
    ],
    tells=[
        "Cloud recordings on {name} are now kept {recording_retention_days} days; that moves the deletion "
        "date of {recordings_affected:count(recording)}."
    ],
    values={"days": (30, 60, 90, 180, 365)},
)

# -- finding and scheduling meetings -----------------------------------------------------------------
WHICH = {"upcoming": "coming up", "live": "going on right now", "previous": "already over"}
say.tool(
    "list_meetings",
    asks=[
        "What meetings can I see?",
        "Which meetings are {which}?",
        "Show me the meetings that are {which}.",
        'Find the meetings with "{query}" in the title.',
        'Which "{query}" meetings are {which}?',
        "What meetings is {host} hosting?",
        "Which of {host}'s meetings are {which}?",
        "I'm covering for {host} this week. Which meetings does {host} host?",
    ],
    tells=[
        "{@host} hosts {meetings:count(meeting)} {@which}: {meetings:list(title)}.",
        "{@host} hosts {meetings:count(meeting)}: {meetings:list(title)}.",
        'There\'s nothing with "{query}" in the title {@which}.',
        'I found {meetings:count(meeting)} with "{query}" in the title {@which}: {meetings:list(title)}.',
        'I found {meetings:count(meeting)} with "{query}" in the title: {meetings:list(title)}.',
        "I found {meetings:count(meeting)} {@which}: {meetings:list(title)}.",
        "You can see {meetings:count(meeting)}, starting with {meetings:list(title)}.",
        "{@host} has no meetings {@which}.",
        "{@host} doesn't host any meetings.",
        'Nothing has "{query}" in the title.',
        "There are no meetings {@which}.",
        "You have no meetings.",
    ],
    words={"which": WHICH},
    values={"query": ("planning", "standup", "roadmap review", "retro", "demo", "design review", "kickoff")},
)
say.tool(
    "get_meeting",
    asks=[
        "Show me the details of {meeting}.",
        "What's the join link for {meeting}?",
        "When is {meeting}, and who's invited?",
        "Can you pull up {meeting}? I need to send someone the link.",
        "Tell me about {meeting}.",
    ],
    tells=[
        '"{title}" repeats {rrule:state}, from {start_local:when} ({timezone} time), hosted by {host_name}. '
        "Invited: {invitees:list(name)}. Join link: {join_url}; the passcode is {passcode}.",
        '"{title}" repeats {rrule:state}, from {start_local:when} ({timezone} time), hosted by {host_name}. '
        "Join link: {join_url}; the passcode is {passcode}.",
        '"{title}" on {start_local:when} ({timezone} time) is {status:state}; {host_name} hosts it. '
        "Invited: {invitees:list(name)}. Join link: {join_url}; the passcode is {passcode}.",
        '"{title}" on {start_local:when} ({timezone} time) is {status:state}; {host_name} hosts it. '
        "Join link: {join_url}; the passcode is {passcode}.",
        '"{title}" has no fixed time; {host_name} hosts it. Invited: {invitees:list(name)}. '
        "Join link: {join_url}; the passcode is {passcode}.",
        '"{title}" has no fixed time; {host_name} hosts it. Join link: {join_url}; the passcode is {passcode}.',
        '"{title}" is hosted by {host_name}. Join link: {join_url}.',
    ],
)
SCHEDULE_WORDS = {
    "duration_min": LENGTH,
    "recurrence": {
        "none": "just once",
        "daily": "every day",
        "weekdays": "every weekday",
        "weekly": "every week",
        "biweekly": "every other week",
        "monthly": "every month",
        "no_fixed_time": "with no fixed time",
    },
    "waiting_room": {True: "with a waiting room", False: "with no waiting room"},
    "join_before_host": {
        True: "and let people join before I do",
        False: "and keep people out until I start it",
    },
    "mute_on_entry": {True: "with everyone muted as they join", False: "without muting people as they join"},
    "auto_recording": {
        "none": "without recording it",
        "local": "recording it automatically to my computer",
        "cloud": "recording it automatically to the cloud",
    },
    "registration": {True: "with registration required", False: "with no registration"},
    "approval": {
        "automatic": "approving registrations automatically",
        "manual": "with me approving each registration",
    },
}
say.tool(
    "schedule_meeting",
    asks=[
        'Schedule "{title}" for {start}.',
        'Set up "{title}" on {start} for {duration_min}.',
        'Book "{title}" on {start} and invite {invitees}.',
        'Schedule a meeting called "{title}" starting {start}, {recurrence}.',
        'Please set up "{title}" for {host} on {start}; I\'m scheduling it for them.',
        'Schedule "{title}" on {start} {waiting_room}.',
        'Set up "{title}" for {start}, {auto_recording}.',
        'I need "{title}" on {start} {mute_on_entry}; it\'s a big group.',
        'Schedule "{title}" for {start} {join_before_host}.',
        'Set up "{title}" on {start} {registration}, {approval}.',
    ],
    tells=[
        '"{title}" is scheduled {rrule:state} from {start_local:when}. Join link: {join_url}; the passcode is {passcode}.',
        '"{title}" is scheduled for {@host} on {start_local:when} ({timezone} time). Join link: {join_url}; '
        "the passcode is {passcode}.",
        '"{title}" is scheduled for {start_local:when}, and I invited {invitees:list(email)}. '
        "Join link: {join_url}; the passcode is {passcode}.",
        '"{title}" is scheduled for {start_local:when}. Join link: {join_url}; the passcode is {passcode}.',
        '"{title}" is set up with no fixed time. Join link: {join_url}; the passcode is {passcode}.',
    ],
    words=SCHEDULE_WORDS,
    values={"title": TITLES, "duration_min": tuple(LENGTH)},
)
say.tool(
    "update_meeting",
    asks=[
        "Move {meeting} to {start}.",
        "Something came up; push {meeting} to {start}.",
        'Rename {meeting} to "{title}".',
        "Make {meeting} {duration_min} long.",
        "Please {waiting_room} for {meeting}.",
        "For {meeting}, {mute_on_entry}; it gets noisy.",
        "Can you {join_before_host} for {meeting}?",
        "Set {meeting} to {auto_recording}.",
        "Invite {add_invitees} to {meeting} too.",
    ],
    tells=[
        '"{title}" now starts {@start:when}.',
        'Done, that meeting is now called "{@title}".',
        '"{title}" now lasts {@duration_min}.',
        'The waiting room of "{title}" is {@waiting_room:state} now.',
        'People in "{title}" are {@mute_on_entry:state} now.',
        'People invited to "{title}" {@join_before_host:state} now.',
        '"{title}" {@auto_recording:state} now.',
        'I invited {add_invitees:list(email)} to "{title}".',
    ],
    words={
        "duration_min": LENGTH,
        "waiting_room": {True: "turn on the waiting room", False: "turn off the waiting room"},
        "mute_on_entry": {True: "mute people as they join", False: "stop muting people as they join"},
        "join_before_host": {
            True: "let people join before the host",
            False: "make people wait until the host starts it",
        },
        "auto_recording": {
            "none": "stop recording automatically",
            "local": "record automatically to the host's computer",
            "cloud": "record automatically to the cloud",
        },
    },
    values={"title": TITLES, "duration_min": tuple(LENGTH)},
)
say.tool(
    "delete_meeting",
    asks=[
        "Delete {meeting}.",
        "We don't need {meeting} anymore; delete it.",
        "Cancel {meeting} altogether, every occurrence.",
        "Please delete {meeting}, the project wrapped up.",
        "Get rid of {meeting} for good.",
    ],
    tells=['"{title}" is deleted; {registrations_cancelled:count(registration)} cancelled with it.'],
)
say.tool(
    "cancel_occurrence",
    asks=[
        "Cancel {meeting} on {day}.",
        "Skip {meeting} on {day}; half the team is out.",
        "We won't meet on {day}, so please cancel {meeting} that day.",
        "Please drop just the {day} occurrence of {meeting}.",
        "Can you cancel {meeting} on {day} only? Keep the rest of the series.",
    ],
    tells=['"{title}" on {cancelled_day:day} is cancelled; the rest of the series stays.'],
)

# -- running meetings ------------------------------------------------------------------------------
say.tool(
    "start_instant_meeting",
    asks=[
        "Start an instant meeting.",
        'Start an instant meeting called "{title}".',
        'Open a quick meeting room, "{title}", right now.',
        'I need to talk to the team now; start a meeting called "{title}".',
        "Spin up a quick call for me.",
    ],
    tells=['"{title}" is live. People can join at {join_url} with the passcode {passcode}.'],
    values={"title": ("Quick sync", "Fire drill", "Hotfix huddle", "Quick question", "Office hours")},
)
say.tool(
    "start_meeting",
    asks=[
        "Start {meeting}.",
        "I'm ready, start {meeting}.",
        "Kick off {meeting} now.",
        "Everyone's waiting; start {meeting}.",
        "Please open {meeting}, it's time.",
    ],
    tells=['"{title}" is live, with {waiting_room:count(participant)} waiting to be let in.'],
)
say.tool(
    "end_meeting",
    asks=[
        "End {meeting} for everyone.",
        "We're done; end {meeting}.",
        "Wrap up {meeting}, end it now.",
        "Please end {meeting}, we ran over.",
        "Close {meeting} for all participants.",
    ],
    tells=['"{title}" has ended for everyone.'],
)
say.tool(
    "join_meeting",
    asks=[
        "Join {meeting} with passcode {passcode}.",
        "Get me into {meeting}; the passcode is {passcode}.",
        "I was invited to {meeting}. Join it for me, passcode {passcode}.",
        "Please join {meeting}, the invitation says the passcode is {passcode}.",
        "Can you put me in {meeting}? Passcode {passcode}.",
    ],
    tells=['You joined "{title}"; you are {detail}.'],
)
say.tool(
    "leave_meeting",
    asks=[
        "Leave {meeting}.",
        "Take me out of {meeting}.",
        "I have to drop off; leave {meeting} for me.",
        "Get me out of {meeting}, I'm double-booked.",
        "Please leave {meeting}, I'm not needed there.",
    ],
    tells=['You left "{title}".'],
)

# -- people in a meeting -----------------------------------------------------------------------------
STATE = {
    "waiting_room": "waiting to be let in",
    "in_meeting": "in the meeting right now",
    "left": "already left",
}
say.tool(
    "list_participants",
    asks=[
        "Who's {state} at {meeting}?",
        "For {meeting}, who's {state}?",
        "Can you check who's {state} at {meeting}?",
        "Before I start talking: who's {state} at {meeting}?",
        "Who's at {meeting}, in the room or waiting?",
        "Show me everyone at {meeting}, waiting or in it.",
    ],
    tells=[
        "At {@meeting}, {participants:count(participant)} {@state}: {participants:list(name)}.",
        "Nobody's {@state} at {@meeting}.",
        "At {@meeting}: {participants:list(name, state)}.",
        "Nobody is at {@meeting} or waiting for it.",
    ],
    words={"state": STATE},
)
say.tool(
    "admit_participant",
    asks=[
        "Let {participant} in.",
        "Admit {participant} from the waiting room.",
        "Please let {participant} in, they're waiting.",
        "Let {participant} in, they're presenting next.",
        "Please let {participant} into the meeting.",
    ],
    tells=["I let {name} in."],
)
say.tool(
    "admit_all",
    asks=[
        "Let everyone waiting at {meeting} in.",
        "Admit everyone from the waiting room of {meeting}.",
        "We're starting {meeting}; let all the waiting people in.",
        "Let the whole waiting room of {meeting} in.",
        "Please admit everybody who's waiting for {meeting}.",
    ],
    tells=['I let {participants:count(participant)} into "{title}": {participants:list(name)}.'],
)
say.tool(
    "remove_participant",
    asks=[
        "Remove {participant} from the meeting.",
        "Please remove {participant}, they aren't supposed to be here.",
        "Kick {participant} out, please.",
        "Please take {participant} out of the meeting, they joined by mistake.",
        "Remove {participant}; they shouldn't be able to come back.",
    ],
    tells=["{name} is out of the meeting and can't rejoin it."],
)
say.tool(
    "mute_participant",
    asks=[
        "Mute {participant}.",
        "There's a lot of background noise from {participant}; mute them.",
        "Please {mute} {participant}.",
        "Could you {mute} {participant}? It's their turn to talk.",
        "Can you {mute} {participant}?",
    ],
    tells=["{name} is {muted:state} now."],
    words={"mute": {True: "mute", False: "unmute"}},
)
say.tool(
    "mute_all",
    asks=[
        "Mute everyone at {meeting}.",
        "It's too noisy at {meeting}; mute all the attendees.",
        "Please {mute} all the attendees of {meeting}.",
        "It's Q&A time at {meeting}; please {mute} everybody.",
        "Can you {mute} the whole room at {meeting}?",
    ],
    tells=[
        'All attendees of "{title}" are {muted:state} now ({participants_changed:count(attendee)} changed); '
        "the host and co-hosts keep their microphones."
    ],
    words={"mute": {True: "mute", False: "unmute"}},
)
say.tool(
    "make_co_host",
    asks=[
        "Make {participant} a co-host.",
        "Give {participant} co-host rights.",
        "Make {participant} a co-host, they're running the breakout part.",
        "Please make {participant} co-host so they can help with the waiting room.",
        "I need a hand: make {participant} co-host.",
    ],
    tells=["{name} is a co-host now."],
)

# -- recordings ------------------------------------------------------------------------------------
say.tool(
    "start_recording",
    asks=[
        "Start recording {meeting}.",
        "Record {meeting}, please; some people couldn't make it.",
        "Start recording {meeting} {kind}.",
        "Please record {meeting} {kind}.",
        "Hit record on {meeting} {kind}.",
    ],
    tells=["I'm recording {@meeting} {kind:state}."],
    words={"kind": {"cloud": "to the cloud", "local": "on the host's computer"}},
)
say.tool(
    "stop_recording",
    asks=[
        "Stop recording {meeting}.",
        "Stop the recording of {meeting}, we're off the record now.",
        "Please stop recording {meeting}.",
        "That's enough, stop recording {meeting}.",
        "Turn off the recording in {meeting}.",
    ],
    tells=[
        "The recording has stopped; it's {status:state} and will be kept until {expires_on:day}.",
        "The recording has stopped and is saved on the host's computer.",
    ],
)
say.tool(
    "list_recordings",
    asks=[
        "What recordings do I have?",
        "Which recordings are there of {meeting}?",
        "Show me the recordings of {meeting}, I missed it.",
        "What was recorded between {from_day} and {to_day}?",
        "List the recordings from {from_day} on.",
        "Show me my recordings, {include_trash}.",
        "Which recordings of {meeting} are there, {include_trash}?",
    ],
    tells=[
        "{@meeting} has {recordings:count(recording)}: {recordings:list(title)}.",
        "From {from_day:day} to {to_day:day} there are {recordings:count(recording)}: {recordings:list(title)}.",
        "Since {from_day:day} there are {recordings:count(recording)}: {recordings:list(title)}.",
        "You have {recordings:count(recording)} {@include_trash}, newest first: {recordings:list(title)}.",
        "You have {recordings:count(recording)}, newest first: {recordings:list(title)}.",
        "{@meeting} has no recordings.",
        "Nothing was recorded then.",
        "You have no recordings.",
    ],
    words={
        "include_trash": {True: "including the ones in the trash", False: "leaving out the trash"},
    },
)
say.tool(
    "get_recording",
    asks=[
        "Show me {recording}.",
        "Is the transcript of {recording} ready?",
        "How long is {recording}, and until when is it kept?",
        "I need to share {recording}. What's its link?",
        "What's the status of {recording}?",
    ],
    tells=[
        '"{title}" is in the trash; it can be restored until {restorable_until:day}.',
        '"{title}" was recorded on {started_at:day} ({duration_min} minutes) and is kept until {expires_on:day}; '
        "its {transcript.language:state} transcript is {transcript.status:state}. Share link: {share_url}",
        '"{title}" was recorded on {started_at:day} ({duration_min} minutes) and is kept until {expires_on:day}; '
        "it has no transcript yet. Share link: {share_url}",
        '"{title}" was recorded on {started_at:day} ({duration_min} minutes); it\'s {status:state} and kept until '
        "{expires_on:day}.",
        '"{title}" was recorded on {ended_at:day} ({duration_min} minutes) on the host\'s computer.',
        '"{title}" is {status:state}.',
    ],
)
say.tool(
    "delete_recording",
    asks=[
        "Move {recording} to the trash.",
        "Please {action} {recording}.",
        "We don't need {recording} anymore; {action} it.",
        "{recording} is taking up space; please {action} it.",
        "Trash {recording}, please.",
    ],
    tells=['"{title}" is {status:state} now.'],
    words={"action": {"trash": "trash", "delete": "permanently delete"}},
)
say.tool(
    "restore_recording",
    asks=[
        "Restore {recording} from the trash.",
        "Bring back {recording}, I trashed it by mistake.",
        "Please get {recording} out of the trash.",
        "I still need {recording}; restore it.",
        "Undelete {recording}, please.",
    ],
    tells=['"{title}" is out of the trash and ready again.'],
)
say.tool(
    "request_transcript",
    asks=[
        "Transcribe {recording}.",
        "Get me a transcript of {recording} in {language}.",
        "I need a transcript of {recording} for the notes.",
        "The meeting in {recording} was in {language}; please transcribe it.",
        "Can you order a transcript of {recording} in {language}?",
    ],
    tells=["I asked for a transcript of {@recording} in {language:state}; it's {status:state}."],
    words={"language": LANGUAGES},
)

# -- registration ----------------------------------------------------------------------------------
say.tool(
    "list_registrants",
    asks=[
        "Who registered for {meeting}?",
        "Which registrations for {meeting} are {status}?",
        "Show me who's {status} for {meeting}.",
        "Before the session: who's signed up for {meeting}?",
        "Which registrants of {meeting} are {status}?",
    ],
    tells=[
        "{@meeting} has {registrants:count(registrant)} {@status}: {registrants:list(name)}.",
        "No registrations for {@meeting} are {@status}.",
        "{@meeting} has {registrants:count(registrant)}: {registrants:list(name, status)}.",
        "Nobody has registered for {@meeting} yet.",
    ],
    words={
        "status": {
            "pending": "still waiting for approval",
            "approved": "approved",
            "denied": "denied",
            "cancelled": "cancelled",
        }
    },
)
say.tool(
    "update_registrant_status",
    asks=[
        "Please {action} the registration of {registrant}.",
        "I'd like to {action} the registration of {registrant}.",
        "Please {action} the sign-up from {registrant}.",
        "Can you {action} the registration from {registrant}?",
        "For {registrant}, please {action} the registration.",
    ],
    tells=['{name}\'s registration for "{meeting_title}" is {status:state}.'],
    words={"action": {"approve": "approve", "deny": "deny", "cancel": "cancel"}},
)
