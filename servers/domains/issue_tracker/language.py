"""How the people of a team tracker speak, and what its assistant tells them.

A user of the tracker is a member of some projects: they file issues, move them across the
board, plan sprints, comment and watch. They name things the way the board shows them: issue
keys they copy from the tracker ("ISS-000839") or titles ('the "Checkout flow is very slow on
Android" bug'), projects by name or key, sprints by name ("LUMDA Sprint 4"), teammates by name.
They never know a user's, project's or sprint's internal id. The speaker is whoever files,
comments or watches (``reporter``, ``author``, ``user``: the tracker acts for the person asking).
The assistant answers with the issue key and title, the status as the board says it, and names.
"""

from __future__ import annotations

from servers.domains.issue_tracker import Issue, IssueLink, Project, Sprint, User, issue_tracker
from servers.kit import Language

say = Language(issue_tracker, speaker=("reporter", "author", "user"))

# -- naming things ------------------------------------------------------------------------------
say.names(User, "{name}")
say.names(Project, "{name}", "the {name} project", "the {key} project")
say.names(Sprint, "{name}")
say.names(
    Issue,
    'the "{title}" issue',
    '"{title}"',
    'the "{title}" ticket',
    held="{id}",
)
say.names(
    IssueLink,
    "the link saying {blocker_id} blocks {blocked_id}",
    '"{title}" blocking {blocked_id}',
    shown=("title",),
    found_in={"get_issue": ("blocked_by", "link_id", "blocked_id")},
)

say.state(
    Issue,
    "status",
    backlog="in the backlog",
    todo="in To Do",
    in_progress="in progress",
    in_review="in review",
    done="done",
    reopened="reopened",
    cancelled="cancelled",
)
say.state(Issue, "kind", bug="bug", feature="feature request", task="task")
say.state(
    Issue, "priority", low="low-priority", medium="medium-priority", high="high-priority", urgent="urgent"
)
say.state(Sprint, "status", planned="planned", active="running", completed="completed")
say.state(Project, "status", active="active", archived="archived")

TITLES = (
    "Export button does nothing on Firefox",
    "Password reset link expires too quickly",
    "Search ignores accented characters",
    "Invoice totals are off by a cent",
    "Add SAML login for enterprise customers",
    "Flaky test in the payments suite",
    "Onboarding emails go out twice",
    "Profile photo upload fails over 5 MB",
    "Upgrade the Node runtime to 22",
    "Add a dark theme to the settings page",
)
DESCRIPTIONS = (
    "Steps: open the settings page and press Save twice. Expected one save, got two requests.",
    "Three customers reported this since Monday's release.",
    "Happens only with accounts that have more than 500 projects.",
    "Sales promised this to two enterprise customers for next quarter.",
    "Repro: log in on Firefox 126, open Reports, click Export. Nothing downloads.",
)

# -- people and projects ------------------------------------------------------------------------
say.tool(
    "get_user",
    asks=[
        "Which projects am I on?",
        "What projects am I a member of?",
        "Remind me which teams I'm on in the tracker.",
        "Which projects do I belong to?",
        "I lost track, which projects have I been added to?",
    ],
    tells=[
        "You're on {projects:count(project)}: {projects:list(name)}.",
        "You aren't a member of any project right now.",
    ],
)
say.tool(
    "get_project",
    asks=[
        "Who's on {project}?",
        "Who works on {project}?",
        "Give me an overview of {project}: who's on it and which sprints it has.",
        "Show me {project}.",
        "I'm new to {project}, who's on the team?",
    ],
    tells=[
        "{@project} has {members:count(member)} ({members:list(name)}) and {sprints:count(sprint)}: "
        "{sprints:list(name)}.",
        "{@project} has {members:count(member)}: {members:list(name)}. It has no sprints yet.",
    ],
)
say.tool(
    "create_project",
    asks=[
        "Create a project called {name} with the key {key}, led by {lead}.",
        "Set up a new project, {name}, key {key}; {lead} will lead it.",
        "We're starting a new workstream. Make a project {name} ({key}) with {lead} as the lead.",
        "New project please: {name}, key {key}, with {lead} leading it.",
        "Can you create the {name} project? Use the key {key} and make {lead} the lead.",
    ],
    tells=[
        "Created the project {name} ({key}), led by {@lead}.",
        "Created the project {name} ({key}); you're its lead.",
    ],
    values={
        "name": ("Checkout Revamp", "Onboarding", "Developer Portal", "Data Warehouse", "Mobile Redesign"),
        "key": ("CORE", "NEXT", "LAB", "PILOT", "NOVA"),
    },
)
say.tool(
    "archive_project",
    asks=[
        "Archive {project}.",
        "We're done with {project}, please archive it.",
        "Archive {project}, it has shipped and nobody should file anything new there.",
        "Please archive {project}; the team moved on.",
        "Can you archive {project}? It's finished.",
    ],
    tells=["{@project} is archived; it's read-only now."],
)
say.tool(
    "add_project_member",
    asks=[
        "Add {user} to {project}.",
        "Give {user} access to {project}, they're joining the team.",
        "Please add {user} to {project}, they're helping out this quarter.",
        "Please make {user} a member of {project}.",
        "Add me to {project}.",
        "I'm joining {project}, can you add me?",
    ],
    tells=["Added {@user} to {@project}.", "Added you to {@project}."],
)
say.tool(
    "remove_project_member",
    asks=[
        "Remove {user} from {project}.",
        "Take {user} off {project}, they moved to another team.",
        "Please remove {user} from {project}, they left the team.",
        "Please take {user} out of {project}.",
        "Take me off {project}, I'm not working on it anymore.",
    ],
    tells=["Removed {@user} from {@project}.", "Took you off {@project}."],
)

# -- issues -------------------------------------------------------------------------------------
say.tool(
    "create_issue",
    asks=[
        "File a {kind} in {project}: {title}.",
        'Please open a {kind} in {project} called "{title}".',
        'New issue for {project}: "{title}".',
        'Log a {kind} in {project}: "{title}". Mark it {priority}.',
        'Create a {kind} in {project}, "{title}", and assign it to {assignee}.',
        'Add "{title}" to {project} as a {kind}. Details: {description}',
        'I found a problem, can you file "{title}" in {project}? It\'s {priority}.',
    ],
    tells=[
        'Filed {id}, "{title}", in {@project}, assigned to {@assignee}.',
        'Filed {id}, "{title}", in {@project}; it\'s in the backlog.',
    ],
    values={"title": TITLES, "description": DESCRIPTIONS},
)
say.tool(
    "get_issue",
    asks=[
        "What's the status of {issue}?",
        "Where is {issue} at?",
        "Can you pull up {issue}?",
        "Is {issue} blocked by anything?",
        "Give me the details on {issue}.",
    ],
    tells=[
        '{id} ("{title}") is {status} and {priority}; it\'s blocked by {blocked_by:list(id)}.',
        '{id} ("{title}") is {status} and {priority}, and nothing is blocking it.',
    ],
)
say.tool(
    "update_issue",
    asks=[
        'Rename {issue} to "{title}".',
        'Change the title of {issue} to "{title}", the old one was vague.',
        "Make {issue} {priority}, customers are complaining.",
        "Mark {issue} as {priority}.",
        "Update the description of {issue}: {description}",
        "Mark {issue} as {priority}; we talked it over in triage.",
    ],
    tells=['{id} now reads "{title}" and is {priority}.'],
    values={"title": TITLES, "description": DESCRIPTIONS},
)
say.tool(
    "assign_issue",
    asks=[
        "Assign {issue} to {assignee}.",
        "Have {assignee} take over {issue}.",
        "Hand {issue} over to {assignee}, there's room in their week.",
        "Please put {assignee} on {issue}.",
        "Can you make {assignee} the assignee of {issue}?",
    ],
    tells=['Assigned {id} ("{title}") to {@assignee}.', 'Assigned {id} ("{title}") to you.'],
)
say.tool(
    "unassign_issue",
    asks=[
        "Unassign {issue}.",
        "Nobody is working on {issue} anymore, clear the assignee.",
        "Take the assignee off {issue}, it needs a new owner.",
        "Remove whoever is assigned to {issue}.",
        "Please unassign {issue}, it's going back to the pool.",
    ],
    tells=['{id} ("{title}") has no assignee now.'],
)
say.tool(
    "set_labels",
    asks=[
        "Label {issue} with {labels}.",
        "Set the labels on {issue} to {labels}.",
        "Tag {issue} as {labels} so the right people see it.",
        "Replace the labels on {issue} with {labels}.",
        "Put the labels {labels} on {issue}.",
    ],
    tells=["{id} is labelled {labels} now."],
    values={
        "labels": (
            "frontend",
            "backend, performance",
            "mobile, regression",
            "security",
            "tech-debt",
            "ux, customer-request",
        )
    },
)
say.tool(
    "transition_issue",
    asks=[
        "Move {issue} to {to_status}.",
        "Can you set {issue} to {to_status}?",
        "Drag {issue} to the {to_status} column for me.",
        "Change the status of {issue} to {to_status}.",
        "Move {issue} to {to_status}, we went over it in standup.",
    ],
    tells=['{id} ("{title}") is {status} now.'],
)
say.tool(
    "search_issues",
    asks=[
        "What's assigned to {assignee}?",
        "Which issues are assigned to {assignee} right now?",
        "Which issues in {project} are {status}?",
        "What's {status} in {project} right now?",
        "Find issues about {text} in {project}.",
        "Are there any issues in {project} mentioning {text}?",
        "Which {priority} issues are there in {project}?",
        "Which issues in {sprint} are {status}?",
        "Show me the issues labelled {label} in {project}.",
        "Which of {assignee}'s issues are {status}?",
    ],
    tells=[
        "{@assignee} has {issues:count(issue)}: {issues:list(title)}.",
        "I found {issues:count(issue)}: {issues:list(title)}.",
        "{@assignee} has no issues like that.",
        "Nothing in {@project} matches that.",
        "Nothing in {@sprint} matches that.",
        "No issues match that.",
    ],
    values={
        "text": ("checkout", "Safari", "login page", "dark mode", "CSV export", "Postgres", "dashboard"),
        "label": ("frontend", "backend", "security", "performance", "mobile", "tech-debt"),
    },
)

# -- sprints ------------------------------------------------------------------------------------
say.tool(
    "get_sprint",
    asks=[
        "How is {sprint} going?",
        "What's in {sprint}?",
        "Show me {sprint}.",
        "Give me a rundown of {sprint}.",
        "Which issues are in {sprint}?",
    ],
    tells=[
        "{name} was completed on {completed_on:day}, with {issues:count(issue)}: {issues:list(title)}.",
        "{name} was completed on {completed_on:day} and had no issues in it.",
        "{name} is running until {end_date:day}, with {issues:count(issue)}: {issues:list(title)}.",
        "{name} is running until {end_date:day} but has no issues in it.",
        "{name} is planned, with {issues:count(issue)}: {issues:list(title)}.",
        "{name} is planned and has no issues in it yet.",
    ],
)
say.tool(
    "create_sprint",
    asks=[
        'Plan a new sprint "{name}" in {project}.',
        'Create a sprint called "{name}" for {project} with the goal "{goal}".',
        'Set up "{name}" in {project}; the goal is to {goal}.',
        'We need a sprint "{name}" in {project}.',
        'Add a sprint to {project}, call it "{name}".',
    ],
    tells=[
        'Planned "{name}" in {@project}, with the goal "{goal}".',
        'Planned "{name}" in {@project}; add issues to it before you start it.',
    ],
    values={
        "name": ("Sprint 14", "Q3 release", "Hardening week", "Launch prep", "Bug bash"),
        "goal": (
            "ship the new onboarding",
            "fix the top crash reports",
            "clear the bug backlog",
            "cut page load time",
        ),
    },
)
say.tool(
    "start_sprint",
    asks=[
        "Start {sprint}.",
        "Kick off {sprint}, everything's planned.",
        "Start {sprint} for {days} days.",
        "Let's begin {sprint} today.",
        "Please start {sprint}; run it for {days} days.",
    ],
    tells=["{name} has started and runs until {end_date:day}."],
)
say.tool(
    "complete_sprint",
    asks=[
        "Complete {sprint}.",
        "Close out {sprint}, we're done with it.",
        "The sprint is over: please mark {sprint} complete.",
        "Wrap up {sprint}; anything unfinished can go back to the backlog.",
        "Please complete {sprint}.",
    ],
    tells=[
        "{name} is complete; {returned_to_backlog:count(unfinished issue)} went back to the backlog: "
        "{returned_to_backlog:list(id)}.",
        "{name} is complete, and everything in it was finished.",
    ],
)
say.tool(
    "add_issue_to_sprint",
    asks=[
        "Add {issue} to {sprint}.",
        "Pull {issue} into {sprint}.",
        "We have room in {sprint}, put {issue} in it.",
        "Please plan {issue} into {sprint}.",
        "Can you move {issue} into {sprint}?",
    ],
    tells=['Added {id} ("{title}") to {@sprint}.', 'Added {id} ("{title}") to the sprint.'],
)
say.tool(
    "remove_issue_from_sprint",
    asks=[
        "Take {issue} out of its sprint.",
        "Move {issue} back to the backlog, it won't make this sprint.",
        "Drop {issue} from the sprint.",
        "Pull {issue} out of the sprint, we're over capacity.",
        "Please remove {issue} from its sprint.",
    ],
    tells=['Took {id} ("{title}") out of its sprint; it\'s back in the project backlog.'],
)

# -- comments and watching ----------------------------------------------------------------------
say.tool(
    "add_comment",
    asks=[
        "Comment on {issue}: {body}",
        'Add a comment to {issue} saying "{body}"',
        "Please leave a note on {issue}: {body}",
        'Reply on {issue} with "{body}"',
        "Post this on {issue} for me: {body}",
    ],
    tells=["Posted your comment on {@issue}.", "Posted your comment on {issue_id}."],
    values={
        "body": (
            "Reproduced on staging with a fresh account.",
            "The fix is merged, please verify on staging.",
            "This is blocked on the API change.",
            "Can you attach a screenshot?",
            "Moving this to next sprint, we ran out of time.",
            "The customer escalated this again today.",
            "Looks like a duplicate of the login timeout bug.",
        )
    },
)
say.tool(
    "list_comments",
    asks=[
        "Any comments on {issue}?",
        "Who has commented on {issue}?",
        "Is there any discussion on {issue}?",
        "Show me the comments on {issue}.",
        "Has anyone said anything on {issue} yet?",
    ],
    tells=[
        "{@issue} has {comments:count(comment)}, from {comments:list(author_name)}.",
        "Nobody has commented on {@issue} yet.",
    ],
)
say.tool(
    "watch_issue",
    asks=[
        "Watch {issue} for me.",
        "I want updates on {issue}, subscribe me.",
        "Add me as a watcher on {issue}.",
        "Notify me when {issue} changes.",
        "Please subscribe me to {issue}, I need to know when it ships.",
    ],
    tells=["You're watching {@issue} now.", "You're watching {issue_id} now."],
)
say.tool(
    "unwatch_issue",
    asks=[
        "Stop notifying me about {issue}.",
        "Unsubscribe me from {issue}.",
        "I don't need updates on {issue} anymore, stop watching it for me.",
        "Take me off the watchers of {issue}.",
        "Please unwatch {issue} for me, it's too noisy.",
    ],
    tells=["You won't get updates on {@issue} anymore.", "You won't get updates on {issue} anymore."],
)

# -- blockers -----------------------------------------------------------------------------------
say.tool(
    "link_issues",
    asks=[
        "Please note that {blocker} blocks {blocked}.",
        "Mark {blocked} as blocked by {blocker}.",
        "Link them: {blocked} can't be done until {blocker} is.",
        "Record that {blocker} is blocking {blocked}.",
        "We need {blocker} finished before {blocked}; add the blocker link.",
    ],
    tells=["Linked them: {blocker_id} now blocks {blocked_id}."],
)
say.tool(
    "unlink_issues",
    asks=[
        "Remove {link}.",
        "Delete {link}, it was a mistake.",
        "Delete {link}, they don't depend on each other.",
        "Please take off {link}.",
        "Get rid of {link}.",
    ],
    tells=["{blocker} no longer blocks {blocked}."],
)
