"""Writing mail: new messages, replies and forwards that keep the thread, and drafts."""

from __future__ import annotations

from servers.domains.email.delivery import Outgoing, send
from servers.domains.email.model import (
    BODY_MAX,
    KNOWN_LOCAL,
    Attachment,
    Body,
    Draft,
    Mailbox,
    Message,
    MessageLabel,
    Note,
    Session,
    Subject,
    Thread,
    email,
    recipients,
)
from servers.domains.email.rules import (
    FORWARDABLE,
    REPLYABLE,
    SENDABLE_DRAFT,
    forward_subject,
    join,
    own_draft,
    own_message,
    reply_subject,
    split,
)
from servers.kit import Db, Ref, ToolError

To = recipients(KNOWN_LOCAL, required=True)
Copy = recipients(KNOWN_LOCAL, required=False)
SENDING = [Message, MessageLabel, Thread, Attachment, Mailbox]


@email.tool(
    writes=SENDING,
    needs=[Session],
    returns=Message,
    says=[
        "email {to} with the subject {subject}: {body}",
        "send {to} an email titled {subject} saying {body}",
        "write to {to}, cc {cc}, subject {subject}: {body}",
    ],
)
def send_email(
    db: Db, to: To, subject: Subject, body: Body, cc: Copy | None = None, bcc: Copy | None = None
) -> dict:
    """Send a new message in a new thread. A copy lands in SENT; recipients with a mailbox on this
    server get it in their inbox (a full or suspended mailbox bounces it back to you); other
    addresses are sent out and not stored. At most 100 recipients in all.

    Args:
        subject: Up to 250 characters.
        body: Plain text, up to 20,000 characters.
    """
    mbx = db.actor()
    return send(db, mbx, Outgoing(to, cc or [], bcc or [], subject, body))


def _reply_recipients(db: Db, mbx: dict, original: dict, reply_all: bool) -> tuple[list[str], list[str]]:
    """To: the original's sender (or, replying to your own message, its recipients); reply-all adds
    everyone else on it, never your own address."""
    me = mbx["id"].casefold()
    mine = original["from_addr"].casefold() == me
    to = [a for a in (split(original["to_addrs"]) if mine else [original["from_addr"]]) if a.casefold() != me]
    to = to or [original["from_addr"]]  # a message you sent yourself
    others = [*split(original["to_addrs"]), *split(original["cc_addrs"])] if reply_all else []
    taken = {a.casefold() for a in to} | {me}
    cc = [a for a in dict.fromkeys(others) if a.casefold() not in taken]
    return to, cc


@email.tool(
    writes=SENDING,
    needs=[Session],
    returns=Message,
    says=[
        "reply to {message} saying {body}",
        "answer {message}: {body}",
        "reply all to {message} with {body}",
    ],
)
def reply_to_message(db: Db, message: Ref[Message, REPLYABLE], body: Body, reply_all: bool = False) -> dict:
    """Reply in the same thread: to the sender (reply_all: and everyone else on the message, except
    you), subject prefixed "Re: " once, In-Reply-To set to the original's Message-ID.

    Args:
        body: The reply text, up to 20,000 characters.
        reply_all: Also reply to the other recipients.
    """
    mbx = db.actor()
    original = own_message(db, mbx, message)
    to, cc = _reply_recipients(db, mbx, original, reply_all)
    out = Outgoing(
        to,
        cc,
        [],
        reply_subject(original["subject"]),
        body,
        thread_id=original["thread_id"],
        in_reply_to=original["rfc_id"],
    )
    return send(db, mbx, out)


def _forwarded_body(original: dict, note: str | None) -> str:
    head = (
        "---------- Forwarded message ---------\n"
        f"From: {original['from_name']} <{original['from_addr']}>\n"
        f"Date: {original['sent_at']}\nSubject: {original['subject']}\nTo: {original['to_addrs']}\n\n"
    )
    text = f"{note}\n\n{head}{original['body']}" if note else f"{head}{original['body']}"
    return text[:BODY_MAX]


@email.tool(
    writes=SENDING,
    needs=[Session],
    returns=Message,
    says=[
        "forward {message} to {to}",
        "forward {message} to {to} with a note: {note}",
        "send {message} on to {to}",
    ],
)
def forward_message(db: Db, message: Ref[Message, FORWARDABLE], to: To, note: Note | None = None) -> dict:
    """Forward a message with its attachments (at most 25 MB together) in the same thread; the
    subject gets "Fwd: " once.

    Args:
        note: A few words above the forwarded text.
    """
    mbx = db.actor()
    original = own_message(db, mbx, message)
    files = db.all("SELECT * FROM attachments WHERE message_id = ? ORDER BY id", original["id"])
    out = Outgoing(
        to,
        [],
        [],
        forward_subject(original["subject"]),
        _forwarded_body(original, note),
        thread_id=original["thread_id"],
        in_reply_to=original["rfc_id"],
        attachments=files,
    )
    result = send(db, mbx, out)
    result["attachments_forwarded"] = len(files)
    return result


# -- drafts -----------------------------------------------------------------------------------------


def _draft_view(d: dict) -> dict:
    out = {k: d[k] for k in ("id", "thread_id", "reply_to_id", "subject", "body", "created_at", "updated_at")}
    out.update(to=split(d["to_addrs"]), cc=split(d["cc_addrs"]), bcc=split(d["bcc_addrs"]))
    return out


@email.tool(
    writes=[Draft],
    needs=[Session],
    returns=Draft,
    says=[
        "start a draft to {to} with the subject {subject}",
        "save a draft reply to {reply_to} saying {body}",
        "draft an email to {to} about {subject}: {body}",
    ],
)
def create_draft(
    db: Db,
    to: Copy | None = None,
    subject: Subject | None = None,
    body: Body | None = None,
    cc: Copy | None = None,
    bcc: Copy | None = None,
    reply_to: Ref[Message, REPLYABLE] | None = None,
) -> dict:
    """Save a draft, optionally as a reply to a message (then it joins that thread, is addressed to
    the sender unless to is given, and its subject is "Re: ..."). Nothing is sent.

    Args:
        subject: Up to 250 characters.
        body: Plain text, up to 20,000 characters.
        reply_to: The message this draft answers.
    """
    mbx = db.actor()
    if not any((to, subject, body, cc, bcc, reply_to)):
        raise ToolError("an empty draft: give at least one of to, cc, bcc, subject, body or reply_to")
    thread_id = original = None
    if reply_to is not None:
        original = own_message(db, mbx, reply_to)
        thread_id = original["thread_id"]
        to = to or _reply_recipients(db, mbx, original, False)[0]
        subject = subject or reply_subject(original["subject"])
    d = db.insert(
        Draft,
        mailbox_id=mbx["id"],
        thread_id=thread_id,
        reply_to_id=original["id"] if original else None,
        to_addrs=join(to),
        cc_addrs=join(cc),
        bcc_addrs=join(bcc),
        subject=subject or "",
        body=body or "",
        created_at=db.stamp(),
        updated_at=db.stamp(),
    )
    return _draft_view(d)


@email.tool(
    writes=[Draft],
    needs=[Session],
    returns=Draft,
    idempotent=True,
    says=[
        "change the subject of draft {draft} to {subject}",
        "rewrite the body of {draft} as: {body}",
        "address draft {draft} to {to} instead",
    ],
)
def update_draft(
    db: Db,
    draft: Ref[Draft, "mailbox_id = (SELECT mailbox_id FROM sessions)"],
    to: Copy | None = None,
    cc: Copy | None = None,
    bcc: Copy | None = None,
    subject: Subject | None = None,
    body: Body | None = None,
) -> dict:
    """Edit a draft: each field given replaces the draft's (an empty list clears to, cc or bcc).

    Args:
        subject: Up to 250 characters.
        body: Plain text, up to 20,000 characters.
    """
    mbx = db.actor()
    d = own_draft(db, mbx, draft)
    values = {}
    for name, value in (("to_addrs", to), ("cc_addrs", cc), ("bcc_addrs", bcc)):
        if value is not None:
            values[name] = join(value)
    if subject is not None:
        values["subject"] = subject
    if body is not None:
        values["body"] = body
    if not values:
        raise ToolError("nothing to change: give to, cc, bcc, subject or body")
    return _draft_view(db.update(Draft, d["id"], **values, updated_at=db.stamp()))


@email.tool(
    writes=[*SENDING, Draft],
    needs=[Session],
    returns=Message,
    destructive=True,
    says=["send draft {draft}", "the draft {draft} is ready, send it"],
)
def send_draft(db: Db, draft: Ref[Draft, SENDABLE_DRAFT]) -> dict:
    """Send a draft as it stands. The draft is gone afterwards: the sent message cannot be edited."""
    mbx = db.actor()
    d = own_draft(db, mbx, draft)
    if not (d["to_addrs"] or d["cc_addrs"] or d["bcc_addrs"]):
        raise ToolError(f"draft {d['id']} has no recipients; add them with update_draft first")
    if not d["body"].strip() and not d["subject"].strip():
        raise ToolError(f"draft {d['id']} has neither a subject nor a body; write one with update_draft")
    original = db.find(Message, d["reply_to_id"]) if d["reply_to_id"] else None
    out = Outgoing(
        split(d["to_addrs"]),
        split(d["cc_addrs"]),
        split(d["bcc_addrs"]),
        d["subject"] or "(no subject)",
        d["body"],
        thread_id=d["thread_id"],
        in_reply_to=original["rfc_id"] if original else None,
    )
    result = send(db, mbx, out)
    db.delete(Draft, d["id"])
    result["draft"] = d["id"]
    return result


@email.tool(
    writes=[Draft],
    needs=[Session],
    destructive=True,
    says=["delete draft {draft}", "throw away the draft {draft}"],
)
def delete_draft(db: Db, draft: Ref[Draft, "mailbox_id = (SELECT mailbox_id FROM sessions)"]) -> dict:
    """Discard a draft for good (drafts do not go to the trash)."""
    mbx = db.actor()
    d = own_draft(db, mbx, draft)
    db.delete(Draft, d["id"])
    left = db.scalar("SELECT count(*) FROM drafts WHERE mailbox_id = ?", mbx["id"])
    return {"deleted": d["id"], "subject": d["subject"], "drafts_left": left}
