"""How the owner of a mailbox speaks, and what their email assistant tells them.

The user is whoever is signed in: everything is their own mail. They name an email by who sent
it and what it was about ('the email from Dana Lee about "Q3 numbers"'), a conversation by its
subject ('the "Dinner on Friday?" thread'), a label by its name ("my Receipts label"), a draft by
its subject ('the draft "Offsite agenda"') and an attachment by its file name and the email it
came with. People are written to and searched for by the email addresses the user types. Message,
thread, draft, label and attachment ids are the server's own and never come up; nor do stored
timestamps: days are said in words. The assistant answers with who, what and how many, and the
one address a message went to, never with ids or headers.
"""

from __future__ import annotations

from servers.domains.email.model import Attachment, Draft, Filter, Label, Mailbox, Message, Thread, email
from servers.kit import Language

say = Language(email)

# -- naming things ------------------------------------------------------------------------------
# a mailbox is the address people type into To:
say.names(Mailbox, held="{id}")
say.names(
    Message,
    'the email from {from_name} about "{subject}"',
    '{from_name}\'s email "{subject}"',
    'the "{subject}" email',
    'the "{subject}" email from {sent_at:day}',
    "the email {from_name} sent on {sent_at:day}",
)
say.names(
    Thread, 'the "{subject}" thread', 'the conversation about "{subject}"', 'the "{subject}" conversation'
)
say.names(
    Attachment,
    '{name} from the "{subject}" email',
    "the file {name} that {from_addr} sent",
    "the attachment {name}",
    shown=("subject", "from_addr"),
)
say.names(Draft, 'the draft "{subject}"', 'the "{subject}" draft', 'the draft about "{subject}"')
say.names(Label, 'the "{name}" label', "the {name} label")

SYSTEM = {
    "INBOX": "Inbox",
    "SENT": "Sent",
    "DRAFT": "Drafts",
    "TRASH": "Trash",
    "SPAM": "Spam",
    "STARRED": "Starred",
    "IMPORTANT": "Important",
    "UNREAD": "Unread",
}
say.state(Label, "name", **SYSTEM)
say.state(Mailbox, "status", active="active", suspended="suspended")
FILTER_ACTION = {
    "label": "labelled",
    "archive": "archived straight away",
    "mark_read": "marked as read",
    "trash": "sent to the trash",
    "star": "starred",
}
say.state(Filter, "action", **FILTER_ACTION)

# each tool says "the whole thread" its own way, so two requests of one turn never share the words
# (and it is asked for only when it is wanted: ``values``)
ONLY = (True,)
FOLDERS = {
    "INBOX": "my inbox",
    "STARRED": "my starred mail",
    "IMPORTANT": "my Important folder",
    "SENT": "my sent mail",
    "SPAM": "my spam folder",
    "Travel": 'my "Travel" label',
    "Receipts": 'my "Receipts" label',
    "Finance": 'my "Finance" label',
    "Projects": 'my "Projects" label',
    "Follow up": 'my "Follow up" label',
    "Newsletters": 'my "Newsletters" label',
    "Family": 'my "Family" label',
    "Hiring": 'my "Hiring" label',
}
MY_LABELS = (
    "Travel",
    "Receipts",
    "Finance",
    "Projects",
    "Follow up",
    "Family",
    "Hiring",
    "Clients",
    "Reading",
)
SUBJECTS = (
    "Lunch on Thursday?",
    "Quick question",
    "Notes from today's call",
    "Offsite agenda",
    "Invoice for May",
    "Can we move our 1:1?",
    "Slides for the review",
    "Weekend plans",
)
BODIES = (
    "Thanks, that works for me. See you then.",
    "Could you send me the latest numbers before Friday?",
    "Sounds good, let's go with the second option.",
    "I'm out of the office until Wednesday; I'll reply properly then.",
    "Can we push this to next week? Something came up.",
    "Attached notes are in the shared folder. Let me know what you think.",
    "Great, thanks for sorting this out so quickly.",
)

BOUNCED = "It went out, but it bounced for {bounced:list(address)}: that mailbox can't take mail right now."

# -- signing in ---------------------------------------------------------------------------------------
say.tool(
    "login",
    asks=[
        "Sign me in to {address}; the password is {password}.",
        "Log me into my email, {address}, password {password}.",
        "I need to get into {address}. My password is {password}.",
        "Please log in to {address} with the password {password}.",
        "Can you sign in to my mailbox {address}? Password: {password}.",
    ],
    tells=[
        "You're signed in to {mailbox}, but {note}.",
        "You're signed in to {mailbox}.",
    ],
)
say.tool(
    "logout",
    asks=["Log me out of my email.", "Sign out of my mailbox, please.", "I'm done for now, sign me out."],
    tells=["You're signed out of {mailbox}."],
)

# -- contacts --------------------------------------------------------------------------------------------
say.tool(
    "search_contacts",
    asks=[
        "Find {query} in my contacts.",
        "What's {query}'s email address?",
        "Look up {query} in my address book.",
        "Do I have a contact called {query}?",
        "I need to write to {query}; which address do I have for them?",
    ],
    tells=[
        'I found {contacts:count(contact)} for "{query}": {contacts:list(name, email)}.',
        'You have no contact matching "{query}".',
    ],
    values={"query": ("Lee", "Sanchez", "Dana", "Martin", "Chen", "Garcia", "Hahn", "Church")},
)
say.tool(
    "add_contact",
    asks=[
        "Add {email} to my contacts.",
        "Save {email} as a contact.",
        "Please save {email} in my address book as {name}.",
        "Add {email} to my contacts; they work at {company}.",
        "Save {email} as a contact with the phone number {phone}.",
        "I keep writing to {email}, add them to my contacts please.",
    ],
    tells=["{name} ({email}) is in your contacts now."],
    values={
        "name": ("Dana Lee", "Sam Ortiz", "Priya Raman", "Tom Becker", "Alex Kim"),
        "company": ("Corvid Labs", "Northwind Group", "Freelance", "Harbor Design"),
        "phone": ("+1-503-555-0142", "+1-212-555-0187", "+1-415-555-0123"),
    },
)

# -- filters -------------------------------------------------------------------------------------------
APPLY = {True: "including the mail I already have"}
say.tool(
    "create_filter",
    asks=[
        'File everything from "{from_contains}" under {label}.',
        'Set up a filter: mail from "{from_contains}" should get the {label} label, {apply_to_existing}.',
        'Make a filter so that mail from "{from_contains}" is {action}.',
        'Anything with "{subject_contains}" in the subject should be {action}; please set up a filter.',
        'I\'m drowning in mail from "{from_contains}". Have it {action} from now on.',
        'Label emails whose subject mentions "{subject_contains}" as {label}, {apply_to_existing}.',
        'Create a filter for mail from "{from_contains}" about "{subject_contains}": it should be {action}.',
    ],
    tells=[
        'Your filter is on ({@apply_to_existing}): mail from "{from_contains}" gets the {label} label. '
        "It changed {applied_to_existing:count(email)} already in your mailbox.",
        'Your filter is on ({@apply_to_existing}): mail with "{subject_contains}" in the subject gets the '
        "{label} label. It changed {applied_to_existing:count(email)} already in your mailbox.",
        'Your filter is on: mail from "{from_contains}" about "{subject_contains}" will be {action:state}.',
        'Your filter is on: mail from "{from_contains}" gets the {label} label.',
        'Your filter is on: mail from "{from_contains}" will be {action:state}.',
        'Your filter is on: mail with "{subject_contains}" in the subject will be {action:state}.',
    ],
    words={"action": FILTER_ACTION, "apply_to_existing": APPLY},
    values={
        "apply_to_existing": ONLY,
        "from_contains": ("newsletter", "digest@", "billing", "alerts@", "updates@", "promo", "noreply"),
        "subject_contains": ("invoice", "receipt", "weekly digest", "webinar", "password reset", "offsite"),
        "label": ("Receipts", "Newsletters", "Travel", "Projects", "Finance", "Follow up"),
    },
)

# -- writing -------------------------------------------------------------------------------------------
say.tool(
    "send_email",
    asks=[
        'Email {to} with the subject "{subject}": {body}',
        'Send {to} an email titled "{subject}" saying: {body}',
        'Write to {to}, subject "{subject}". Tell them: {body}',
        'Please send an email to {to} and copy {cc}. Subject "{subject}", message: {body}',
        'Can you email {to}? Subject: "{subject}". Text: {body}',
        'Send {to} a note about "{subject}", and blind-copy {bcc}: {body}',
    ],
    tells=[
        'I sent "{subject}". ' + BOUNCED,
        'Sent "{subject}" to {to:list(address)}, with {cc:list(address)} copied.',
        'Sent "{subject}" to {to:list(address)}.',
    ],
    values={"subject": SUBJECTS, "body": BODIES},
)
say.tool(
    "reply_to_message",
    asks=[
        "Reply to {message}: {body}",
        "Answer {message} and say: {body}",
        "Write back to {message}. Tell them: {body}",
        "Reply to {message} and include {reply_all}: {body}",
        "Please answer {message}, copying {reply_all}, saying: {body}",
        "I owe a reply on {message}. Say: {body}",
    ],
    tells=[
        "I sent your reply. " + BOUNCED,
        "Your reply to {@message} went to {delivered:list(address)}.",
        "Your reply to {@message} is sent.",
    ],
    words={"reply_all": {True: "everyone on it"}},
    values={"body": BODIES, "reply_all": ONLY},
)
say.tool(
    "forward_message",
    asks=[
        "Forward {message} to {to}.",
        "Forward {message} to {to} with a note: {note}",
        "Send {message} on to {to}, they need it.",
        "Can you pass {message} along to {to}? Add: {note}",
        "Please forward {message} to {to}.",
    ],
    tells=[
        "I forwarded it. " + BOUNCED,
        "Forwarded {@message} to {to:list(address)}, with {attachments_forwarded:count(attachment)}.",
    ],
    values={
        "note": (
            "FYI, see below.",
            "Can you take a look at this?",
            "Forwarding for your records.",
            "This is the one I mentioned.",
        )
    },
)

# -- drafts ----------------------------------------------------------------------------------------------
say.tool(
    "create_draft",
    asks=[
        'Start a draft to {to} with the subject "{subject}".',
        "Save a draft answering {reply_to}, saying: {body}",
        'Draft an email to {to} about "{subject}": {body}',
        "Draft an answer to {reply_to} but don't send it yet: {body}",
        'Start a draft titled "{subject}" for me; I\'ll finish it later.',
        'Draft a note to {to}, copying {cc}, subject "{subject}".',
    ],
    tells=[
        "Your draft reply to {@reply_to} is saved, addressed to {to:list(address)}; nothing is sent yet.",
        'I saved a draft "{subject}" to {to:list(address)}; it isn\'t sent yet.',
        "I saved a draft to {to:list(address)}; it isn't sent yet.",
        'I saved a draft "{subject}"; it has no recipients yet.',
        "Your draft is saved.",
    ],
    values={"subject": SUBJECTS, "body": BODIES},
)
say.tool(
    "update_draft",
    asks=[
        'Change the subject of {draft} to "{subject}".',
        "Rewrite {draft} to say: {body}",
        "Address {draft} to {to} instead.",
        "Add {cc} on copy to {draft}.",
        'Rename {draft} to "{subject}", that reads better.',
        "Replace the text of {draft} with: {body}",
    ],
    tells=[
        'The draft is now titled "{@subject}".',
        'The draft "{subject}" now says: {@body}',
        'The draft "{subject}" now goes to {to:list(address)}, with {cc:list(address)} copied.',
        'The draft "{subject}" now goes to {to:list(address)}.',
        "The draft is updated.",
    ],
    values={"subject": SUBJECTS, "body": BODIES},
)
say.tool(
    "send_draft",
    asks=[
        "Send {draft}.",
        "{draft} is ready, send it.",
        "Please send {draft} now.",
        "Go ahead and send {draft}.",
        "I'm happy with {draft}; send it off.",
    ],
    tells=[
        'I sent "{subject}". ' + BOUNCED,
        'Sent "{subject}" to {delivered:list(address)}.',
        "Sent {@draft}.",
    ],
)
say.tool(
    "delete_draft",
    asks=[
        "Delete {draft}.",
        "Throw away {draft}, I don't need it.",
        "Get rid of {draft}.",
        "Please discard {draft}.",
        "I won't be sending {draft}; delete it.",
    ],
    tells=[
        'Deleted the draft "{subject}". You have {drafts_left:count(draft)} left.',
        "Deleted {@draft}. You have {drafts_left:count(draft)} left.",
    ],
)

# -- organising ---------------------------------------------------------------------------------------
say.tool(
    "modify_labels",
    asks=[
        "Label {message} as {add}.",
        "Put the {add} label on {message}.",
        "Take the {remove} label off {message}.",
        "Add {add} to {message}, {whole_thread}.",
        "File {message} under {add} and take the {remove} label off.",
        "Remove {remove} from {message}, {whole_thread}.",
    ],
    tells=[
        "Added {add:list(label)} and took off {remove:list(label)} on {@message}.",
        "Added {add:list(label)} to {@message}, {@whole_thread}.",
        "Added {add:list(label)} to {@message}.",
        "Took {remove:list(label)} off {@message}, {@whole_thread}.",
        "Took {remove:list(label)} off {@message}.",
    ],
    words={"whole_thread": {True: "on every email of that thread"}},
    values={
        "add": tuple([name] for name in MY_LABELS),
        "remove": tuple([name] for name in MY_LABELS),
        "whole_thread": ONLY,
    },
)
say.tool(
    "mark_read",
    asks=[
        "Mark {message} as read.",
        "I've read {message}, mark it read.",
        "Mark {message} as {read}.",
        "Mark {message} {read}, {whole_thread}.",
        "Mark {message} as read, {whole_thread}.",
        "Please set {message} to {read}; I want to come back to it.",
    ],
    tells=[
        "Marked {@message} as {@read}, {@whole_thread}.",
        "Marked {@message} as {@read}.",
        "Marked {@message} as read, {@whole_thread}.",
        "Marked {@message} as read.",
    ],
    words={"read": {False: "unread"}, "whole_thread": {True: "along with the rest of its thread"}},
    values={"read": (False,), "whole_thread": ONLY},
)
say.tool(
    "archive_message",
    asks=[
        "Archive {message}.",
        "Get {message} out of the inbox, but keep it.",
        "I'm done with {message}; archive it.",
        "Archive {message}, {whole_thread}.",
        "Please clear {message} out of the inbox.",
    ],
    tells=[
        "Archived {@message} {@whole_thread}; it's out of your inbox but still in search.",
        "Archived {@message}; it's out of your inbox but still in search.",
    ],
    words={"whole_thread": {True: "together with its whole conversation"}},
    values={"whole_thread": ONLY},
)
say.tool(
    "trash_message",
    asks=[
        "Move {message} to the trash.",
        "Delete {message}.",
        "I don't need {message} anymore, trash it.",
        "Trash {message} {whole_thread}.",
        "Please throw {message} in the trash.",
    ],
    tells=[
        "Moved {@message} to the trash, {@whole_thread} ({changed:count(email)} in all).",
        "Moved {@message} to the trash.",
    ],
    words={"whole_thread": {True: "and every other email in that thread"}},
    values={"whole_thread": ONLY},
)
say.tool(
    "untrash_message",
    asks=[
        "Restore {message} from the trash.",
        "Take {message} back out of the trash.",
        "I deleted {message} by mistake, get it back.",
        "Please move {message} out of the trash.",
        "Oops, I still need {message}. Can you restore it?",
    ],
    tells=["{@message} is out of the trash."],
)
say.tool(
    "create_label",
    asks=[
        'Create a label called "{name}".',
        'Make a new {color} label "{name}".',
        'I need a "{name}" label for my mail.',
        'Add a label "{name}" and make it {color}.',
        'Set up a new label, "{name}", so I can file things.',
    ],
    tells=['Your {color} label "{name}" is ready.', 'Your label "{name}" is ready.'],
    values={
        "name": ("Conferences", "Kids school", "Side project", "Insurance", "Tax 2026", "House", "Garden")
    },
)
say.tool(
    "delete_label",
    asks=[
        "Delete {label}.",
        "Get rid of {label}, but keep the emails.",
        "I don't use {label} anymore; remove it.",
        "Please delete {label}.",
        "Remove {label} from my mailbox.",
    ],
    tells=[
        'Deleted the "{name}" label. Your emails stay where they are; it was on '
        "{messages_unlabelled:count(email)}.",
    ],
)

# -- reading --------------------------------------------------------------------------------------------
FOUND = "{messages:list(subject, from_name)}"
say.tool(
    "list_messages",
    asks=[
        "Show me my latest emails.",
        "What's in {label}?",
        "Show me the emails in {label} {unread_only}.",
        "What's new in {label}?",
        "List the emails in {label} {unread_only}, newest first.",
        "Do I have any emails in {label} {unread_only}?",
        "Go through {label} for me: what's there?",
    ],
    tells=[
        "You have {messages:count(email)} in {@label} {@unread_only}, newest first: " + FOUND + ".",
        "You have {messages:count(email)} {@unread_only}, newest first: " + FOUND + ".",
        "{@label} has {messages:count(email)}, newest first: " + FOUND + ".",
        "Your latest emails: " + FOUND + ".",
        "There are no emails in {@label} {@unread_only}.",
        "There are no emails {@unread_only}.",
        "{@label} is empty.",
    ],
    words={"label": FOLDERS, "unread_only": {True: "that I haven't read yet"}},
    values={"label": tuple(FOLDERS), "unread_only": ONLY},
)
say.tool(
    "search_messages",
    asks=[
        'Search my email for "{query}".',
        "Find the emails from {sender}.",
        "What has {sender} sent me since {after}?",
        "Which emails did {sender} send me before {before}?",
        'Find anything from {sender} about "{query}".',
        'I\'m looking for an email about "{query}" from after {after}.',
        'Is there anything in my mail about "{query}"?',
    ],
    tells=[
        'I found {messages:count(email)} from {sender} about "{query}": ' + FOUND + ".",
        'I found {messages:count(email)} about "{query}" since {after:day}: ' + FOUND + ".",
        'I found {messages:count(email)} about "{query}": ' + FOUND + ".",
        "{sender} sent you {messages:count(email)} since {after:day}: " + FOUND + ".",
        "{sender} sent you {messages:count(email)} before {before:day}: " + FOUND + ".",
        "I found {messages:count(email)} from {sender}: " + FOUND + ".",
        "I found {messages:count(email)}: " + FOUND + ".",
        'Nothing from {sender} mentions "{query}".',
        'Nothing in your mail mentions "{query}" since {after:day}.',
        'Nothing in your mail mentions "{query}".',
        "Nothing from {sender} since {after:day}.",
        "Nothing from {sender} before {before:day}.",
        "Nothing from {sender} in your mail.",
        "Nothing matches.",
    ],
    values={
        "query": (
            "invoice",
            "itinerary",
            "receipt",
            "status update",
            "launch checklist",
            "budget review",
            "book club",
            "dinner",
            "security alert",
            "weekly digest",
        )
    },
)
say.tool(
    "get_message",
    asks=[
        "Open {message}.",
        "What does {message} say?",
        "Show me the full text of {message}.",
        "Read me {message}.",
        "I missed {message}; what's in it?",
    ],
    tells=[
        '{from_name} wrote on {sent_at:when}, "{subject}": {body} '
        "It came with {attachments:count(attachment)}: {attachments:list(name)}.",
        '{from_name} wrote on {sent_at:when}, "{subject}": {body}',
    ],
)
say.tool(
    "get_thread",
    asks=[
        "Show me {thread} from the start.",
        "Read me the whole of {thread}.",
        "What's been said in {thread}?",
        "Catch me up on {thread}.",
        "Who said what in {thread}?",
    ],
    tells=[
        '"{subject}" has {messages:count(message)}: {messages:list(from_name, sent_at:when)}. '
        "There's also an unsent draft in it: {drafts:list(subject)}.",
        '"{subject}" has {messages:count(message)}: {messages:list(from_name, sent_at:when)}.',
    ],
)
say.tool(
    "get_attachment",
    asks=[
        "What's in {attachment}?",
        "Show me a preview of {attachment}.",
        "Can you open {attachment} for me?",
        "What does {attachment} say?",
        "Give me a peek at {attachment}.",
    ],
    tells=[
        '{name} came with "{subject}" from {from_addr}. It starts: {text_preview}',
        '{name} ({size_kb} KB) came with "{subject}" from {from_addr}; I can\'t preview that kind of file.',
    ],
)
say.tool(
    "list_attachments",
    asks=[
        "List the files people have sent me.",
        'Find the attachments named like "{query}".',
        "Which {kind} have I received?",
        'Do I have any {kind} with "{query}" in the name?',
        "Show me the {kind} in my email.",
        'Where\'s that "{query}" file someone sent me?',
    ],
    tells=[
        'I found {attachments:count(file)} ({@kind}) named like "{query}": '
        "{attachments:list(name, subject)}.",
        'I found {attachments:count(file)} named like "{query}": {attachments:list(name, subject)}.',
        "I found {attachments:count(file)} ({@kind}), newest first: {attachments:list(name, subject)}.",
        "The newest of your {attachments:count(attached file)}: {attachments:list(name, subject)}.",
        'There are no {@kind} named like "{query}".',
        'No attachment is named like "{query}".',
        "There are no {@kind} in your mail.",
        "There are no attachments in your mail.",
    ],
    words={
        "kind": {
            "pdf": "PDFs",
            "spreadsheet": "spreadsheets",
            "text": "text files",
            "image": "images",
            "calendar": "calendar invites",
            "video": "videos",
        }
    },
    values={"query": ("invoice", "itinerary", "receipt", "notes", "resume", "budget", "invite")},
)
say.tool(
    "list_labels",
    asks=[
        "What labels do I have?",
        "How many new emails are in each of my labels?",
        "Show me my labels.",
    ],
    tells=[
        "You have {labels:count(label)}, with the unread count of each in brackets: {labels:list(name, unread)}.",
        "You have no labels.",
    ],
)
say.tool(
    "list_drafts",
    asks=[
        "Show my drafts.",
        "What drafts have I saved?",
        "Which emails did I start and not send?",
        "Show me the {limit} drafts I worked on most recently.",
        "Do I have any unfinished drafts lying around?",
    ],
    tells=[
        "You have {drafts:count(draft)}, most recently edited first: {drafts:list(subject)}.",
        "You have {drafts:count(draft)}, none with a subject yet.",
        "You have no drafts saved.",
    ],
)
