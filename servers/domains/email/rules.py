"""The session, labels and message access that every tool group shares, and the SQL conditions
the sampler uses to pick good inputs (each one the same rule the tools check)."""

from __future__ import annotations

from servers.domains.email.model import (
    MINE,
    NOT_BY_HAND,
    SYSTEM_LABELS,
    Draft,
    Message,
    MessageLabel,
    Thread,
)
from servers.kit import Db, ToolError

# -- sampler conditions ---------------------------------------------------------------------------


def has_label(name: str, *, negate: bool = False) -> str:
    """SQL over messages: the message carries system label ``name`` (of its own mailbox).

    An IN list, built once per query from the index of the label's messages (``label_id,
    message_id``) and checked against ``mailbox_id, id``; neither step reads a row. A correlated
    EXISTS is cheaper for a single row but 5-40x dearer when the sampler counts a whole mailbox."""
    op = "NOT IN" if negate else "IN"
    return (
        f"id {op} (SELECT ml.message_id FROM message_labels ml JOIN labels l ON l.id = ml.label_id "
        f"WHERE l.name = '{name}' AND l.mailbox_id = (SELECT mailbox_id FROM sessions))"
    )


OWN_MESSAGE = MINE
NOT_TRASHED = f"{MINE} AND {has_label('TRASH', negate=True)}"
IN_TRASH = f"{MINE} AND {has_label('TRASH')}"
IN_INBOX = f"{MINE} AND {has_label('INBOX')}"
UNREAD_INBOX = f"{IN_INBOX} AND {has_label('UNREAD')}"
# people write back; receipts, newsletters and the mail system do not
REPLYABLE = (
    f"{NOT_TRASHED} AND received = 1 AND (from_addr IN (SELECT id FROM mailboxes) OR from_addr IN "
    "(SELECT email FROM contacts WHERE mailbox_id = (SELECT mailbox_id FROM sessions)))"
)
WITH_ATTACHMENTS = f"{NOT_TRASHED} AND id IN (SELECT message_id FROM attachments)"
FORWARDABLE = (
    f"{NOT_TRASHED} AND coalesce((SELECT sum(size_kb) FROM attachments a WHERE a.message_id = messages.id), 0) "
    "<= 25600"
)
# per attachment, its message's mailbox (a key lookup), not the list of all the mailbox's messages
MY_ATTACHMENT = (
    "EXISTS (SELECT 1 FROM messages m WHERE m.id = attachments.message_id "
    "AND m.mailbox_id = (SELECT mailbox_id FROM sessions))"
)
MY_THREAD = f"{MINE} AND message_count >= 2"
MY_USER_LABEL = f"{MINE} AND kind = 'user'"
SENDABLE_DRAFT = f"{MINE} AND (to_addrs != '' OR cc_addrs != '' OR bcc_addrs != '')"


# -- who is acting ----------------------------------------------------------------------------------


def split(addrs: str) -> list[str]:
    return [a for a in (addrs or "").split(", ") if a]


def join(addrs: list[str] | None) -> str:
    return ", ".join(addrs or [])


def plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


# -- labels ---------------------------------------------------------------------------------------


def labels(db: Db, mbx: dict) -> list[dict]:
    return db.all("SELECT * FROM labels WHERE mailbox_id = ? ORDER BY kind, name, id", mbx["id"])


def system_label(db: Db, mbx_id: str, name: str) -> str:
    """The id of one of a mailbox's system labels (every mailbox has all of them)."""
    found = db.scalar(
        "SELECT id FROM labels WHERE mailbox_id = ? AND name = ? AND kind = 'system'", mbx_id, name
    )
    if found is None:
        raise ToolError(f"mailbox {mbx_id} has no {name} label; the snapshot is broken")
    return found


def find_label(db: Db, mbx: dict, text: str) -> dict:
    """A label of the signed-in mailbox by id or by name (case-insensitive), or an error naming
    the labels there are."""
    text = text.strip()
    row = db.one("SELECT * FROM labels WHERE id = ? AND mailbox_id = ?", text, mbx["id"])
    if row is None:
        row = db.one(
            "SELECT * FROM labels WHERE mailbox_id = ? AND lower(name) = lower(?) ORDER BY kind LIMIT 1",
            mbx["id"],
            text,
        )
    if row is None:
        names = ", ".join(r["name"] for r in labels(db, mbx))
        raise ToolError(f"no label {text!r} in {mbx['id']}; its labels are: {names}")
    return row


def label_names(db: Db, message_id: str) -> list[str]:
    return [
        r["name"]
        for r in db.all(
            "SELECT l.name FROM message_labels ml JOIN labels l ON l.id = ml.label_id WHERE ml.message_id = ? "
            "ORDER BY l.kind, l.name",
            message_id,
        )
    ]


def add_label(db: Db, message_id: str, label_id: str) -> bool:
    """Put a label on a message; False if it was already there."""
    if db.scalar("SELECT 1 FROM message_labels WHERE message_id = ? AND label_id = ?", message_id, label_id):
        return False
    db.add(MessageLabel, message_id=message_id, label_id=label_id)
    return True


def remove_label(db: Db, message_id: str, label_id: str) -> bool:
    """Take a label off a message; False if it was not there."""
    return (
        db.execute("DELETE FROM message_labels WHERE message_id = ? AND label_id = ?", message_id, label_id)
        > 0
    )


def manual_label(db: Db, mbx: dict, text: str, verb: str) -> dict:
    """A label a person may put on or take off by hand (not SENT, DRAFT or TRASH)."""
    row = find_label(db, mbx, text)
    if row["kind"] == "system" and row["name"] in NOT_BY_HAND:
        raise ToolError(
            f"{row['name']} cannot be {verb} by hand: only sending a message or saving a draft sets it"
        )
    if row["kind"] == "system" and row["name"] == "TRASH":
        raise ToolError("TRASH is not changed with labels: use trash_message or untrash_message")
    return row


# -- messages -------------------------------------------------------------------------------------


def own_message(db: Db, mbx: dict, message_id: str) -> dict:
    """A message of the signed-in mailbox; a draft id gets the error that says what to do instead."""
    message_id = message_id.strip()
    if message_id.startswith("DRF-") and db.find(Draft, message_id):
        raise ToolError(
            f"{message_id} is a draft, not a sent or received email: edit it with update_draft or send it "
            "with send_draft"
        )
    row = db.find(Message, message_id)
    if row is None or row["mailbox_id"] != mbx["id"]:
        raise ToolError(f"email {message_id!r} does not exist in mailbox {mbx['id']}")
    return row


def own_thread(db: Db, mbx: dict, thread_id: str) -> dict:
    row = db.find(Thread, thread_id.strip())
    if row is None or row["mailbox_id"] != mbx["id"]:
        raise ToolError(f"thread {thread_id!r} does not exist in mailbox {mbx['id']}")
    return row


def own_draft(db: Db, mbx: dict, draft_id: str) -> dict:
    row = db.find(Draft, draft_id.strip())
    if row is None or row["mailbox_id"] != mbx["id"]:
        hint = " (it was sent or discarded)" if draft_id.startswith("DRF-") else ""
        raise ToolError(f"draft {draft_id!r} does not exist in mailbox {mbx['id']}{hint}")
    return row


def in_trash(db: Db, mbx: dict, message_id: str) -> bool:
    trash = system_label(db, mbx["id"], "TRASH")
    return bool(
        db.scalar("SELECT 1 FROM message_labels WHERE message_id = ? AND label_id = ?", message_id, trash)
    )


def scope(db: Db, mbx: dict, message: dict, whole_thread: bool) -> list[dict]:
    """The message alone, or every message of its thread (oldest first)."""
    if not whole_thread:
        return [message]
    return db.all(
        # "+mailbox_id": by the thread index (a few rows), not the mailbox one (thousands)
        "SELECT * FROM messages WHERE thread_id = ? AND +mailbox_id = ? ORDER BY sent_at, id",
        message["thread_id"],
        mbx["id"],
    )


def summaries(db: Db, messages: list[dict]) -> list[dict]:
    """How messages appear in a list: headers, a snippet, labels and attachment count. The labels
    and counts of a whole page come from two queries, not two per message."""
    ids = [m["id"] for m in messages]
    names: dict[str, list[str]] = {i: [] for i in ids}
    files: dict[str, int] = {}
    if ids:
        marks = ", ".join("?" * len(ids))
        for r in db.all(
            "SELECT ml.message_id, l.name FROM message_labels ml JOIN labels l ON l.id = ml.label_id "
            f"WHERE ml.message_id IN ({marks}) ORDER BY ml.message_id, l.kind, l.name",
            *ids,
        ):
            names[r["message_id"]].append(r["name"])
        files = {
            r["message_id"]: r["n"]
            for r in db.all(
                f"SELECT message_id, count(*) AS n FROM attachments WHERE message_id IN ({marks}) "
                "GROUP BY message_id",
                *ids,
            )
        }
    return [
        {
            "id": m["id"],
            "thread_id": m["thread_id"],
            "from_name": m["from_name"],
            "from_addr": m["from_addr"],
            "subject": m["subject"],
            "snippet": m["body"][:120].replace("\n", " "),
            "sent_at": m["sent_at"],
            "labels": names[m["id"]],
            "unread": "UNREAD" in names[m["id"]],
            "starred": "STARRED" in names[m["id"]],
            "attachments": files.get(m["id"], 0),
        }
        for m in messages
    ]


def full(db: Db, m: dict) -> dict:
    """A message with every header, its body (cut at 8,000 characters), labels and attachments."""
    names = label_names(db, m["id"])
    body = db.clip(m["body"], hint="the rest is not shown here")
    return {
        "id": m["id"],
        "thread_id": m["thread_id"],
        "rfc_id": m["rfc_id"],
        "in_reply_to": m["in_reply_to"],
        "from_addr": m["from_addr"],
        "from_name": m["from_name"],
        "to": split(m["to_addrs"]),
        "cc": split(m["cc_addrs"]),
        "bcc": split(m["bcc_addrs"]),
        "subject": m["subject"],
        "sent_at": m["sent_at"],
        "body": body["text"],
        "body_truncated": body["truncated"],
        "size_kb": m["size_kb"],
        "labels": names,
        "unread": "UNREAD" in names,
        "attachments": db.all(
            "SELECT id, name, mime, size_kb FROM attachments WHERE message_id = ? ORDER BY id", m["id"]
        ),
    }


def reply_subject(subject: str) -> str:
    """ "Re: " once, however many times the thread has been replied to."""
    return subject if subject.lower().startswith("re:") else f"Re: {subject}"


def forward_subject(subject: str) -> str:
    return subject if subject.lower().startswith(("fwd:", "fw:")) else f"Fwd: {subject}"


def is_system_name(name: str) -> str | None:
    for s in SYSTEM_LABELS:
        if s.casefold() == name.strip().casefold():
            return s
    return None


def user_label(db: Db, mbx: dict, text: str) -> dict:
    row = find_label(db, mbx, text)
    if row["kind"] == "system":
        raise ToolError(f"{row['name']} is a system label; system labels cannot be deleted or renamed")
    return row
