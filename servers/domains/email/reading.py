"""Reading mail: lists by label, search, a message, a thread, an attachment, labels, drafts."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from servers.domains.email.model import (
    Attachment,
    Draft,
    Label,
    Message,
    SearchQuery,
    Session,
    Thread,
    address,
    email,
)
from servers.domains.email.rules import (
    MY_ATTACHMENT,
    MY_THREAD,
    OWN_MESSAGE,
    find_label,
    full,
    own_message,
    own_thread,
    split,
    summaries,
)
from servers.domains.email.search import Query
from servers.kit import Day, Db, Offset, PageSize, Ref, ShortText, ToolError

ListLabel = Annotated[
    str,
    Field(
        min_length=1,
        max_length=50,
        description="A label name (INBOX, SENT, STARRED, IMPORTANT, SPAM, TRASH, UNREAD or your own) or id.",
        examples=["INBOX", "INBOX", "STARRED", "SENT", "IMPORTANT", "Travel", "Receipts", "Projects"],
    ),
]
FileWords = Annotated[
    ShortText,
    Field(
        description="Words of the file name, e.g. invoice or .csv.",
        examples=["invoice", "itinerary", ".csv", "receipt", "notes", "resume", ".pdf"],
    ),
]
FileKind = Literal["pdf", "spreadsheet", "text", "image", "calendar", "video"]
KINDS = {
    "pdf": "mime = 'application/pdf'",
    "spreadsheet": "mime = 'text/csv'",
    "text": "mime = 'text/plain'",
    "image": "mime LIKE 'image/%'",
    "calendar": "mime = 'text/calendar'",
    "video": "mime LIKE 'video/%'",
}
Sender = address(
    "EXISTS (SELECT 1 FROM messages m WHERE m.mailbox_id = (SELECT mailbox_id FROM sessions) "
    "AND m.from_addr = mailboxes.id AND m.received = 1)",
    "Only messages whose From contains this address or name.",
)


def _page(db: Db, where: str, params: list, limit: int, offset: int) -> dict:
    page = db.page(
        f"SELECT * FROM messages WHERE {where} ORDER BY sent_at DESC, id DESC",
        *params,
        limit=limit,
        offset=offset,
        key="messages",
    )
    page["messages"] = summaries(db, page["messages"])
    return page


@email.tool(
    needs=[Session],
    returns=Message,
    says=["show me my latest emails", "what's in {label}?", "list the emails labelled {label}"],
)
def list_messages(
    db: Db, label: ListLabel = "INBOX", unread_only: bool = False, limit: PageSize = 20, offset: Offset = 0
) -> dict:
    """Messages carrying one label, newest first: headers, a snippet, labels, unread and attachment
    count. Drafts are not messages: list_drafts shows them.

    Args:
        unread_only: Only unread messages.
    """
    mbx = db.actor()
    row = find_label(db, mbx, label)
    if row["name"] == "DRAFT" and row["kind"] == "system":
        raise ToolError("drafts are not listed here; list_drafts shows the drafts of this mailbox")
    where = "mailbox_id = ? AND id IN (SELECT message_id FROM message_labels WHERE label_id = ?)"
    params: list = [mbx["id"], row["id"]]
    if unread_only:
        where += " AND id IN (SELECT message_id FROM message_labels WHERE label_id = ?)"
        params.append(find_label(db, mbx, "UNREAD")["id"])
    page = _page(db, where, params, limit, offset)
    page["label"] = row["name"]
    return page


@email.tool(
    needs=[Session],
    returns=Message,
    says=[
        "search my email for {query}",
        "find emails from {sender}",
        "find the emails {sender} sent me since {after}",
        "which emails did {sender} send me before {before}?",
    ],
)
def search_messages(
    db: Db,
    query: SearchQuery | None = None,
    sender: Sender | None = None,
    after: Day | None = None,
    before: Day | None = None,
    limit: PageSize = 20,
    offset: Offset = 0,
) -> dict:
    """Search the signed-in mailbox, newest first. Trash and spam are left out unless the query asks
    for them (label:trash, in:spam, in:anywhere). Words match subject, body and sender.

    Args:
        after: Only messages sent on or after this day.
        before: Only messages sent before this day.
    """
    mbx = db.actor()
    q = Query(db, mbx)
    if query:
        q.parse(query)
    if sender:
        q.operator("from", sender, False)
    if after:
        q.operator("after", after, False)
    if before:
        q.operator("before", before, False)
    if after and before and after >= before:
        raise ToolError(f"after {after} is not before {before}: no message can match both")
    where, params = q.sql()
    page = _page(db, where, params, limit, offset)
    page["query"] = query
    return page


@email.tool(
    needs=[Session],
    returns=Message,
    says=["open {message}", "show me the full text of {message}", "what does {message} say?"],
)
def get_message(db: Db, message: Ref[Message, OWN_MESSAGE]) -> dict:
    """One message in full: every header, the body, its labels and its attachments (metadata).
    Reading it does not mark it read; mark_read does."""
    return full(db, own_message(db, db.actor(), message))


@email.tool(
    needs=[Session],
    returns=Thread,
    says=["show me the whole conversation {thread}", "read thread {thread} from the start"],
)
def get_thread(db: Db, thread: Ref[Thread, MY_THREAD]) -> dict:
    """Every message of one thread of the signed-in mailbox, oldest first."""
    mbx = db.actor()
    t = own_thread(db, mbx, thread)
    messages = db.all(
        # "+mailbox_id": by the thread index (a few rows), not the mailbox one (thousands)
        "SELECT * FROM messages WHERE thread_id = ? AND +mailbox_id = ? ORDER BY sent_at, id",
        t["id"],
        mbx["id"],
    )
    shown = [full(db, m) for m in messages]
    for m in shown:
        m.pop("rfc_id"), m.pop("in_reply_to")
    drafts = db.all(
        "SELECT id, subject, to_addrs, updated_at FROM drafts WHERE thread_id = ? ORDER BY id", t["id"]
    )
    return {**t, "messages": shown, "drafts": drafts}


@email.tool(
    needs=[Session],
    returns=Attachment,
    says=["what's in attachment {attachment}?", "show me a preview of {attachment}"],
)
def get_attachment(db: Db, attachment: Ref[Attachment, MY_ATTACHMENT]) -> dict:
    """An attachment's file name, type, size and a text preview (files are not downloaded here)."""
    mbx = db.actor()
    row = db.find(Attachment, attachment.strip())
    owner = db.find(Message, row["message_id"]) if row else None
    if row is None or owner is None or owner["mailbox_id"] != mbx["id"]:
        raise ToolError(f"attachment {attachment!r} does not exist in mailbox {mbx['id']}")
    preview = db.clip(row["text_preview"] or "", hint="only the start of the file is previewed")
    return {
        **{k: row[k] for k in ("id", "message_id", "name", "mime", "size_kb")},
        "size_mb": round(row["size_kb"] / 1024, 2),
        "subject": owner["subject"],
        "from_addr": owner["from_addr"],
        "text_preview": preview["text"] or None,
        "previewable": bool(row["text_preview"]),
    }


@email.tool(
    needs=[Session],
    returns=Attachment,
    says=[
        "list the files attached to my emails",
        "find the attachments named {query}",
        "which {kind} files have I received?",
    ],
)
def list_attachments(
    db: Db,
    query: FileWords | None = None,
    kind: FileKind | None = None,
    limit: PageSize = 20,
    offset: Offset = 0,
) -> dict:
    """Files attached to mail of the signed-in mailbox (not the trash), newest first, with the
    message each came with.

    Args:
        query: Words the file name contains.
        kind: Only files of this type.
    """
    mbx = db.actor()
    trash = find_label(db, mbx, "TRASH")["id"]
    where = [
        "m.mailbox_id = ?",
        "m.id NOT IN (SELECT message_id FROM message_labels WHERE label_id = ?)",
    ]
    params: list = [mbx["id"], trash]
    for word in (query or "").split():
        where.append("a.name LIKE ? ESCAPE '\\'")
        params.append("%" + word.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%")
    if kind is not None:
        where.append(f"a.{KINDS[kind]}")
    return db.page(
        "SELECT a.id, a.name, a.mime, a.size_kb, a.message_id, m.subject, m.from_addr, m.sent_at "
        f"FROM attachments a JOIN messages m ON m.id = a.message_id WHERE {' AND '.join(where)} "
        "ORDER BY m.sent_at DESC, a.id DESC",
        *params,
        limit=limit,
        offset=offset,
        key="attachments",
    )


@email.tool(
    needs=[Session],
    returns=Label,
    says=["what labels do I have?", "how many unread emails are in each of my labels?"],
)
def list_labels(db: Db) -> dict:
    """Every label of the signed-in mailbox with its total and unread message counts (DRAFT counts drafts)."""
    mbx = db.actor()
    unread = find_label(db, mbx, "UNREAD")["id"]
    # totals from the label index; unread counts from the few unread messages' own labels, rather
    # than testing every labelled message of the mailbox for UNREAD (2.5 ms to 0.6 ms)
    rows = db.all(
        "SELECT l.id, l.name, l.kind, l.color, "
        "(SELECT count(*) FROM message_labels ml WHERE ml.label_id = l.id) AS total, "
        "coalesce(u.n, 0) AS unread FROM labels l LEFT JOIN ("
        "SELECT ml.label_id, count(*) AS n FROM message_labels u "
        "JOIN message_labels ml ON ml.message_id = u.message_id WHERE u.label_id = ? GROUP BY ml.label_id"
        ") u ON u.label_id = l.id WHERE l.mailbox_id = ? ORDER BY l.kind, l.name",
        unread,
        mbx["id"],
    )
    drafts = db.scalar("SELECT count(*) FROM drafts WHERE mailbox_id = ?", mbx["id"])
    for r in rows:
        if r["kind"] == "system" and r["name"] == "DRAFT":
            r["total"] = drafts
    return {"mailbox": mbx["id"], "labels": rows}


@email.tool(needs=[Session], returns=Draft, says=["show my drafts", "what drafts have I saved?"])
def list_drafts(db: Db, limit: PageSize = 20, offset: Offset = 0) -> dict:
    """Drafts of the signed-in mailbox, most recently edited first."""
    mbx = db.actor()
    page = db.page(
        "SELECT * FROM drafts WHERE mailbox_id = ? ORDER BY updated_at DESC, id DESC",
        mbx["id"],
        limit=limit,
        offset=offset,
        key="drafts",
    )
    for d in page["drafts"]:
        for k in ("to", "cc", "bcc"):
            d[k] = split(d.pop(f"{k}_addrs"))
    return page
