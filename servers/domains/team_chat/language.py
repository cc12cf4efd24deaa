"""How the members of a team chat workspace speak, and what their assistant tells them.

The user is the signed-in member (or, logged out, someone about to sign in with their user name
and password). They name channels the way the sidebar shows them ("#design", "the deploys
channel"), people by their handle ("@dwhitfield") or their name ("Dana Whitfield"), and a message
by what it said ('the message "Deploy of checkout is done, all green"'). Conversation and message
ids are the service's own and never come up; a handle is what a person types, so it is held.
The assistant answers with the channel, the people and the words of the messages asked about,
and says what changed ("Posted in #design.").
"""

from __future__ import annotations

from servers.domains.team_chat.model import Channel, Member, Message, team_chat
from servers.kit import Language

say = Language(team_chat)

# -- naming things ------------------------------------------------------------------------
# a member's key is the handle people type ("@dwhitfield"): they hold it, and also use names
say.names(Member, "{real_name}", held="{id}")
say.names(Channel, "#{name}", "the #{name} channel", "the {name} channel")
# a message by its words and where it was said ('the message "Deploy is done" in #deploys'):
# only where the rows show the channel's name (a search), never by words alone, which leave the
# agent to guess the channel
say.names(
    Message,
    'the message "{text}" in #{channel_name}',
    '"{text}" in #{channel_name}',
    'the "{text}" message in #{channel_name}',
    shown=("channel_name",),
)

say.state(Member, "status", active="active", deactivated="deactivated")

KIND = {"channel": "channels (not DMs)", "dm": "one-on-one DMs", "group_dm": "group DMs"}

POSTS = (
    "Running 5 minutes late to standup",
    "Can someone review my PR before lunch?",
    "The deploy is done, all green",
    "Notes from the call are in the doc",
    "Heads up: the staging database restarts at 3pm",
    "Lunch at noon? I'm buying",
    "Standup moved to 10 tomorrow",
    "I'll take this one",
)
REPLIES = (
    "Thanks, that fixed it!",
    "On it, will report back after lunch",
    "Looks good to me, ship it",
    "Can you share the link?",
    "Same here, I can reproduce it",
    "I'll be there",
)
EDITS = (
    "Correction: the meeting moved to 3pm",
    "Running 10 minutes late, sorry",
    "Updated link is in the doc",
    "Never mind, it's fixed",
    "Typo fixed: the deadline is Friday",
)
EMOJI = ("thumbsup", "eyes", "white_check_mark", "tada", "heart", "raised_hands", "rocket")

# -- signing in and people ----------------------------------------------------------------------
say.tool(
    "login",
    asks=[
        "Sign me in to chat as {username}, my password is {password}.",
        "Log me in to the workspace: user name {username}, password {password}.",
        "I need to get into chat. I'm {username} and my password is {password}.",
        "Please sign in to the team chat for me as {username}; the password is {password}.",
        "Log in as {username} with the password {password}, I want to catch up on chat.",
    ],
    tells=["You're signed in as {real_name} ({handle})."],
)
say.tool(
    "find_members",
    asks=[
        'Who in the workspace matches "{query}"?',
        'Search the chat directory for "{query}".',
        'Search the people in chat for "{query}".',
        'Look up "{query}" in the workspace directory, I need their handle.',
        'Find people matching "{query}" in chat, {include_deactivated}.',
    ],
    tells=[
        "Found {members:count(member)}: {members:list(real_name, handle)}.",
        'Nobody in the workspace matches "{query}".',
    ],
    words={"include_deactivated": {True: "including deactivated people", False: "active people only"}},
)

# -- channels -----------------------------------------------------------------------------------
say.tool(
    "list_channels",
    asks=[
        "Which channels can I see?",
        "List the {kind} I can see.",
        "List the channels with {query} in the name.",
        'Are there any channels with "{query}" in the name?',
        "Show me the channels, {member_only}.",
        "List the channels, {include_archived}.",
        "How many {kind} can I see?",
    ],
    tells=[
        "You can see {channels:count(conversation)}: {channels:list(name)}.",
        "You have {channels:count(conversation)} like that.",
        "I don't see any conversations like that.",
    ],
    words={
        "kind": KIND,
        "member_only": {True: "only the ones I'm in", False: "the ones I'm not in too"},
        "include_archived": {True: "archived ones included", False: "leaving out archived ones"},
    },
    values={"query": ("design", "launch", "office", "team", "eng", "ops")},
)
say.tool(
    "get_channel",
    asks=[
        "What's {channel} about?",
        "Who's in {channel}?",
        "Tell me about {channel}: what's it for and how many people are in it?",
        "What's {channel} for? I keep getting pinged there.",
        "What's the topic in {channel} right now?",
    ],
    tells=[
        '{@channel} has {member_count:count(member)}. Its purpose reads "{purpose}", and the topic is "{topic}".',
        '{@channel} has {member_count:count(member)}. Its purpose reads "{purpose}"; there\'s no topic set.',
        "{@channel} has {member_count:count(member)}, and no purpose or topic set.",
    ],
)
say.tool(
    "create_channel",
    asks=[
        "Create a channel called {name}.",
        "Make a new {is_private} channel, {name}.",
        'Start a channel {name}; its purpose is "{purpose}".',
        'Set up a {is_private} channel called {name} for "{purpose}".',
        "We need a place to coordinate, can you create a channel named {name}?",
    ],
    tells=[
        "Created the {@is_private} channel #{name}; you're its first member.",
        "Created #{name}; you're its first member.",
    ],
    words={"is_private": {True: "private", False: "public"}},
    values={
        "name": (
            "launch-planning",
            "design-reviews",
            "q3-budget",
            "oncall-handoff",
            "ux-research",
            "offsite-2026",
        ),
        "purpose": (
            "Planning the June launch",
            "Design feedback and reviews",
            "Questions about the Q3 budget",
            "Handing over oncall each week",
            "Organising the team offsite",
        ),
    },
)
say.tool(
    "archive_channel",
    asks=[
        "Archive {channel}.",
        "We're done with {channel}, please archive it.",
        "The project is over, archive {channel} so nobody posts there anymore.",
        "Can you archive {channel}? It's been quiet for months.",
        "Please archive {channel}.",
    ],
    tells=["{@channel} is archived; people can still read it, but nobody can post there."],
)
say.tool(
    "join_channel",
    asks=[
        "Join {channel} for me.",
        "Add me to {channel}.",
        "I want to follow what's going on in {channel}, join it please.",
        "Can you put me in {channel}?",
        "Join {channel}, I'm helping that team this month.",
    ],
    tells=["You're in {@channel} now, with {member_count:count(member)}.", "You're in #{name} now."],
)
say.tool(
    "leave_channel",
    asks=[
        "Leave {channel}.",
        "Take me out of {channel}, it's too noisy.",
        "I don't need {channel} anymore, leave it for me.",
        "Get me out of {channel}.",
        "Please leave {channel}; I moved to another team.",
    ],
    tells=["You've left {@channel}.", "You've left #{name}."],
)
say.tool(
    "invite_to_channel",
    asks=[
        "Invite {members} to {channel}.",
        "Add {members} to {channel}.",
        "{members} should be in {channel} too, please add them.",
        "Can you bring {members} into {channel}? They're joining the project.",
        "Please invite {members} to {channel}.",
    ],
    tells=["Added {invited:list(handle)} to {@channel}.", "Added {invited:list(handle)} to #{name}."],
)
say.tool(
    "remove_from_channel",
    asks=[
        "Remove {member} from {channel}.",
        "Take {member} out of {channel}, they moved teams.",
        "{member} doesn't need {channel} anymore, please remove them.",
        "Can you remove {member} from {channel}?",
        "Please kick {member} out of {channel}; the project is handed over.",
    ],
    tells=["Removed {@member} from {@channel}.", "Removed {removed} from #{name}."],
)
say.tool(
    "set_channel_topic",
    asks=[
        'Set the topic of {channel} to "{topic}".',
        'Change the topic in {channel} to "{topic}".',
        'Update {channel}\'s topic: "{topic}".',
        'Can you make the topic of {channel} "{topic}"? The old one is stale.',
        'Please put "{topic}" as the topic in {channel}.',
    ],
    tells=['The topic of {@channel} is now "{topic}".', "Cleared the topic of {@channel}."],
    values={
        "topic": (
            "Launch week: status in thread",
            "Sprint 24",
            "Office hours Tue/Thu 2pm",
            "Q3 planning",
            "Oncall this week: ask in thread",
        )
    },
)

# -- conversations ------------------------------------------------------------------------------
say.tool(
    "open_direct_message",
    asks=[
        "Open a DM with {members}.",
        "Start a private conversation with {members}.",
        "I want to message {members} privately.",
        "Set up a direct message with {members}, I need to ask something.",
        "Can you open a conversation with {members}?",
    ],
    tells=["Your conversation with {with:list(handle)} is open."],
)
say.tool(
    "post_message",
    asks=[
        'Post "{text}" in {channel}.',
        'Tell {channel}: "{text}"',
        'Send "{text}" to {channel}.',
        'Can you post in {channel} for me? "{text}"',
        'Let {channel} know: "{text}"',
    ],
    tells=["Posted in {@channel}.", "Posted your message."],
    values={"text": POSTS},
)
say.tool(
    "reply_in_thread",
    asks=[
        'Reply to {message} in its thread: "{text}"',
        'Answer {message} in the thread with "{text}".',
        'Reply "{text}" under {message}.',
        'Reply "{text}" to {message}, {also_send_to_channel}.',
        'Answer {message} with "{text}", {also_send_to_channel}; everyone needs to see it.',
        'Post "{text}" in the thread of {message}.',
    ],
    tells=[
        'Replied "{text}" {@also_send_to_channel}.',
        'Replied "{text}" in the thread.',
    ],
    words={
        "also_send_to_channel": {True: "in the thread and in the channel too", False: "in the thread only"}
    },
    values={"text": REPLIES},
)
say.tool(
    "get_channel_history",
    asks=[
        "What's new in {channel}?",
        "Show me the last {limit} messages in {channel}.",
        "What have people been saying in {channel}?",
        "I've been away, what's going on in {channel}?",
        "What was posted in {channel} before {before}?",
    ],
    tells=[
        "{@channel} has {messages:count(message)}; the latest: {messages:list(author, text)}.",
        "I don't see any messages in {@channel}.",
    ],
)
say.tool(
    "get_thread",
    asks=[
        "Show me the thread on {message}.",
        "What did people reply to {message}?",
        "Did anyone answer {message}?",
        "Pull up the replies to {message}.",
        "What's the discussion under {message}?",
    ],
    tells=[
        "The thread holds {messages:count(message)}, the original included: {messages:list(author, text)}."
    ],
)
say.tool(
    "mark_channel_read",
    asks=[
        "Mark {channel} as read.",
        "I've caught up on {channel}, clear its unread messages.",
        "Clear the unread badge on {channel}.",
        "Mark everything in {channel} as read, I saw it on my phone.",
        "Please mark {channel} read.",
    ],
    tells=["Marked {@channel} as read.", "Marked #{name} as read."],
)

# -- changing what was said ---------------------------------------------------------------------
say.tool(
    "edit_message",
    asks=[
        'Edit {message} to say "{text}".',
        'Change {message} to "{text}".',
        'I made a mistake in {message}, make it read "{text}".',
        'Fix {message}; it should say "{text}".',
        'Update {message} to "{text}", the plan changed.',
    ],
    tells=['Your message now reads "{text}".'],
    values={"text": EDITS},
)
say.tool(
    "delete_message",
    asks=[
        "Delete {message}.",
        "Remove {message}, I posted it by mistake.",
        "Please delete {message}.",
        "Take down {message}, it was meant for another channel.",
        "Can you delete {message}? It's out of date.",
    ],
    tells=['Deleted it; the conversation now shows "This message was deleted." in its place.'],
)
say.tool(
    "add_reaction",
    asks=[
        "React to {message} with :{emoji}:.",
        "Add a :{emoji}: to {message}.",
        "Put a :{emoji}: on {message}.",
        "Add a :{emoji}: to {message} so people know it's handled.",
        "Can you react :{emoji}: to {message}?",
    ],
    tells=['Reacted with :{reacted}: to "{message.text}".', "Added your :{reacted}:."],
    values={"emoji": EMOJI},
)
say.tool(
    "remove_reaction",
    asks=[
        "Remove my :{emoji}: from {message}.",
        "Take back my :{emoji}: on {message}.",
        "I reacted :{emoji}: to {message} by mistake, remove it.",
        "Undo my :{emoji}: reaction on {message}.",
        "Please take my :{emoji}: off {message}.",
    ],
    tells=['Removed your :{removed}: from "{message.text}".', "Removed your :{removed}:."],
)
say.tool(
    "search_messages",
    asks=[
        "Search chat for {query}.",
        "Find the messages about {query}.",
        "Did anyone post about {query}?",
        "What has been said about {query} lately?",
        "Look for the last {limit} messages mentioning {query}.",
    ],
    tells=[
        'The last {@limit} messages mentioning "{query}": {messages:shown(author, text)}.',
        'Found {messages:count(message)} mentioning "{query}"; the latest: {messages:list(author, text)}.',
        'No messages mention "{query}".',
    ],
    values={"query": ("deploy", "offsite", "invoice", "roadmap", "standup", "release notes", "lunch")},
)
