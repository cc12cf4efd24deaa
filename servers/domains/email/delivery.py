"""Sending: the checks before a message leaves, the sender's SENT copy, local delivery into other
mailboxes of this server (with their filters), and bounces. One function used by send, reply,
forward and send_draft, so every way of sending obeys the same rules."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from servers.domains.email.model import (
    ATTACH_LIMIT_KB,
    MAIL_HOST,
    MAILER_DAEMON,
    MAX_RECIPIENTS,
    Attachment,
    Mailbox,
    Message,
    Thread,
)
from servers.domains.email.rules import add_label, join, plural, remove_label, system_label
from servers.kit import Db, ToolError


@dataclass
class Outgoing:
    """A message about to be sent from the signed-in mailbox."""

    to: list[str]
    cc: list[str]
    bcc: list[str]
    subject: str
    body: str
    thread_id: str | None = None  # the sender's thread it continues (reply, forward)
    in_reply_to: str | None = None
    attachments: list[dict[str, Any]] = field(default_factory=list)

    def everyone(self) -> list[str]:
        """Each recipient once (addresses compare case-insensitively), in to, cc, bcc order."""
        seen: dict[str, str] = {}
        for a in [*self.to, *self.cc, *self.bcc]:
            seen.setdefault(a.casefold(), a)
        return list(seen.values())


def size_kb(subject: str, body: str, attachments: list[dict[str, Any]]) -> float:
    text = (len(subject.encode()) + len(body.encode()) + 600) / 1024  # headers ~600 bytes
    return round(text + sum(a["size_kb"] for a in attachments), 1)


def check(sender: dict, out: Outgoing, size: float) -> None:
    """The rules a message must pass before anything is stored."""
    if sender["status"] != "active":
        raise ToolError(
            f"mailbox {sender['id']} is {sender['status']} and cannot send mail; it can still read, "
            "label and search"
        )
    n = len(out.everyone())
    listed = [a.casefold() for a in [*out.to, *out.cc, *out.bcc]]
    twice = sorted({a for a in listed if listed.count(a) > 1})
    if twice:
        raise ToolError(
            f"{', '.join(twice)} is listed more than once across to, cc and bcc; list each recipient once"
        )
    if n == 0:
        raise ToolError("a message needs at least one recipient in to, cc or bcc")
    if n > MAX_RECIPIENTS:
        raise ToolError(f"{n} recipients in to, cc and bcc together; at most {MAX_RECIPIENTS} are allowed")
    carried = round(sum(a["size_kb"] for a in out.attachments), 1)
    if carried > ATTACH_LIMIT_KB:
        raise ToolError(
            f"attachments total {carried / 1024:.1f} MB ({plural(len(out.attachments), 'file')}); "
            f"a message may carry at most {ATTACH_LIMIT_KB // 1024} MB"
        )
    if sender["used_mb"] + size / 1024 > sender["quota_mb"]:
        raise ToolError(
            f"your mailbox is full: {sender['used_mb']:.1f} of {sender['quota_mb']:.0f} MB used, and this "
            f"message needs {size / 1024:.2f} MB; nothing can be sent until space is freed"
        )


def send(db: Db, sender: dict, out: Outgoing) -> dict[str, Any]:
    """Store the SENT copy, deliver local copies, bounce what cannot be delivered."""
    size = size_kb(out.subject, out.body, out.attachments)
    check(sender, out, size)
    mine = db.next_id(Message)
    rfc = f"{mine.lower()}.{sender['id'].split('@')[0]}@{MAIL_HOST}"
    thread = _thread(db, sender["id"], out.thread_id, out.subject)
    row = _store(db, sender["id"], thread, out, rfc, sender, received=False, size=size, bcc=join(out.bcc))
    add_label(db, row, system_label(db, sender["id"], "SENT"))
    _use_space(db, sender, size)
    delivered, external, bounced = [], [], []
    for addr in out.everyone():
        target = db.one("SELECT * FROM mailboxes WHERE lower(id) = lower(?)", addr)
        if target is None:
            external.append(addr)
            continue
        if target["id"] == sender["id"]:  # to yourself: the sent copy is in the inbox as well
            add_label(db, row, system_label(db, sender["id"], "INBOX"))
            delivered.append(addr)
            continue
        reason = _refusal(target, size)
        if reason:
            bounced.append({"address": target["id"], "reason": reason})
            continue
        _deliver(db, target, out, rfc, sender, size)
        delivered.append(target["id"])
    for b in bounced:
        _bounce(db, sender, thread, out, rfc, b)
    return {
        "message": row,
        "thread": thread,
        "rfc_id": rfc,
        "subject": out.subject,
        "delivered": delivered,
        "external": external,
        "bounced": bounced,
        "size_kb": size,
    }


def _refusal(target: dict, size: float) -> str | None:
    if target["status"] != "active":
        return f"the mailbox {target['id']} is {target['status']}"
    if target["used_mb"] + size / 1024 > target["quota_mb"]:
        return (
            f"the mailbox {target['id']} is full ({target['used_mb']:.1f} of {target['quota_mb']:.0f} MB used; "
            f"this message needs {size / 1024:.2f} MB)"
        )
    return None


def _use_space(db: Db, mbx: dict, size: float) -> None:
    db.update(Mailbox, mbx["id"], used_mb=round(mbx["used_mb"] + size / 1024, 3))


def _thread(db: Db, mbx_id: str, thread_id: str | None, subject: str) -> str:
    """Continue ``thread_id`` (moving its last activity to now) or start a new thread."""
    if thread_id is not None:
        t = db.get(Thread, thread_id)
        db.update(Thread, thread_id, last_at=db.stamp(), message_count=t["message_count"] + 1)
        return thread_id
    return db.add(Thread, mailbox_id=mbx_id, subject=subject, last_at=db.stamp(), message_count=1)


def _store(
    db: Db,
    mbx_id: str,
    thread: str,
    out: Outgoing,
    rfc: str,
    sender: dict,
    *,
    received: bool,
    size: float,
    bcc: str,
) -> str:
    mid = db.add(
        Message,
        mailbox_id=mbx_id,
        thread_id=thread,
        rfc_id=rfc,
        in_reply_to=out.in_reply_to,
        from_addr=sender["id"],
        from_name=sender["display_name"],
        to_addrs=join(out.to),
        cc_addrs=join(out.cc),
        bcc_addrs=bcc,
        subject=out.subject,
        body=out.body,
        sent_at=db.stamp(),
        size_kb=size,
        received=received,
    )
    for a in out.attachments:
        db.add(
            Attachment,
            message_id=mid,
            name=a["name"],
            mime=a["mime"],
            size_kb=a["size_kb"],
            text_preview=a["text_preview"],
        )
    return mid


def _deliver(db: Db, target: dict, out: Outgoing, rfc: str, sender: dict, size: float) -> str:
    """The recipient's copy: joins their thread of the message it answers, arrives in INBOX unread,
    then their filters run on it. Bcc stays on the sender's copy only."""
    thread_id = None
    if out.in_reply_to:
        # "+id": found by the (mailbox, Message-ID) index; ordered by plain id, SQLite would walk
        # the whole mailbox in id order to skip the sort of one or two rows
        thread_id = db.scalar(
            "SELECT thread_id FROM messages WHERE mailbox_id = ? AND rfc_id = ? ORDER BY +id LIMIT 1",
            target["id"],
            out.in_reply_to,
        )
    thread = _thread(db, target["id"], thread_id, out.subject)
    mid = _store(db, target["id"], thread, out, rfc, sender, received=True, size=size, bcc="")
    add_label(db, mid, system_label(db, target["id"], "INBOX"))
    add_label(db, mid, system_label(db, target["id"], "UNREAD"))
    run_filters(db, target["id"], mid, sender["id"], sender["display_name"], out.subject)
    _use_space(db, target, size)
    return mid


def filter_matches(f: dict, from_addr: str, from_name: str, subject: str) -> bool:
    if f["from_contains"] and f["from_contains"].casefold() not in f"{from_name} <{from_addr}>".casefold():
        return False
    return not (f["subject_contains"] and f["subject_contains"].casefold() not in subject.casefold())


def apply_action(db: Db, mbx_id: str, f: dict, message_id: str) -> bool:
    """One filter's action on one message; True if it changed the message's labels."""
    action = f["action"]
    if action == "label":
        return add_label(db, message_id, f["label_id"])
    if action == "star":
        return add_label(db, message_id, system_label(db, mbx_id, "STARRED"))
    if action == "mark_read":
        return remove_label(db, message_id, system_label(db, mbx_id, "UNREAD"))
    if action == "archive":
        return remove_label(db, message_id, system_label(db, mbx_id, "INBOX"))
    # trash
    moved = remove_label(db, message_id, system_label(db, mbx_id, "INBOX"))
    return add_label(db, message_id, system_label(db, mbx_id, "TRASH")) or moved


def run_filters(db: Db, mbx_id: str, message_id: str, from_addr: str, from_name: str, subject: str) -> None:
    for f in db.all("SELECT * FROM filters WHERE mailbox_id = ? ORDER BY id", mbx_id):
        if filter_matches(f, from_addr, from_name, subject):
            apply_action(db, mbx_id, f, message_id)


def _bounce(db: Db, sender: dict, thread: str, out: Outgoing, rfc: str, b: dict) -> None:
    """A failure notice from the mail system, in the sender's inbox and in the same thread."""
    body = (
        f"Your message to {b['address']} could not be delivered: {b['reason']}.\n\n"
        f"Subject: {out.subject}\nMessage-ID: {rfc}"
    )
    note = Outgoing([sender["id"]], [], [], "Delivery Status Notification (Failure)", body, in_reply_to=rfc)
    daemon = {"id": MAILER_DAEMON, "display_name": "Mail Delivery Subsystem"}
    size = size_kb(note.subject, body, [])
    bounce_rfc = f"bounce.{db.next_id(Message).lower()}@{MAIL_HOST}"
    thread = _thread(db, sender["id"], thread, note.subject)
    mid = _store(db, sender["id"], thread, note, bounce_rfc, daemon, received=True, size=size, bcc="")
    add_label(db, mid, system_label(db, sender["id"], "INBOX"))
    add_label(db, mid, system_label(db, sender["id"], "UNREAD"))
