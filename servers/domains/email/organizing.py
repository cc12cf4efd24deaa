"""Organising mail: labels on messages, read/unread, archive, trash, and the labels themselves."""

from __future__ import annotations

from servers.domains.email.model import (
    Color,
    Filter,
    Label,
    LabelNames,
    Message,
    MessageLabel,
    NewLabel,
    Session,
    email,
)
from servers.domains.email.rules import (
    IN_INBOX,
    IN_TRASH,
    MINE,
    MY_USER_LABEL,
    NOT_TRASHED,
    add_label,
    has_label,
    in_trash,
    is_system_name,
    label_names,
    manual_label,
    own_message,
    plural,
    remove_label,
    scope,
    system_label,
    user_label,
)
from servers.kit import Db, Ref, ToolError

UNREAD = f"{MINE} AND {has_label('UNREAD')}"


def _outcome(db: Db, message: dict, targets: list[dict], changed: int) -> dict:
    return {
        "message": message["id"],
        "thread": message["thread_id"],
        "messages": len(targets),
        "changed": changed,
        "labels": label_names(db, message["id"]),
    }


@email.tool(
    writes=[MessageLabel],
    needs=[Session],
    returns=Message,
    idempotent=True,
    says=[
        "label {message} as {add}",
        "take the {remove} label off {message}",
        "add {add} to the whole thread of {message}",
    ],
)
def modify_labels(
    db: Db,
    message: Ref[Message, NOT_TRASHED],
    add: LabelNames | None = None,
    remove: LabelNames | None = None,
    whole_thread: bool = False,
) -> dict:
    """Add and remove labels (your own, or STARRED, IMPORTANT, INBOX, SPAM, UNREAD) on a message or
    on every message of its thread. SENT and DRAFT are set by sending and drafting only; trash
    has its own tools; a message in the trash must be untrashed first.

    Args:
        add: Labels to put on, by name or id.
        remove: Labels to take off, by name or id.
        whole_thread: Apply to every message of the thread that is not in the trash.
    """
    mbx = db.actor()
    m = own_message(db, mbx, message)
    if not add and not remove:
        raise ToolError("nothing to change: give labels to add or to remove")
    if in_trash(db, mbx, m["id"]):
        raise ToolError(
            f"email {m['id']} is in the trash; untrash it with untrash_message before relabelling it"
        )
    adding = [manual_label(db, mbx, name, "applied") for name in add or []]
    removing = [manual_label(db, mbx, name, "removed") for name in remove or []]
    both = {r["id"] for r in adding} & {r["id"] for r in removing}
    if both:
        names = sorted(r["name"] for r in adding if r["id"] in both)
        raise ToolError(f"{', '.join(names)} cannot be both added and removed in one call")
    targets = [t for t in scope(db, mbx, m, whole_thread) if not in_trash(db, mbx, t["id"])]
    changed = 0
    for t in targets:
        touched = [add_label(db, t["id"], r["id"]) for r in adding]
        touched += [remove_label(db, t["id"], r["id"]) for r in removing]
        changed += any(touched)
    return _outcome(db, m, targets, changed)


@email.tool(
    writes=[MessageLabel],
    needs=[Session],
    returns=Message,
    idempotent=True,
    says=[
        "mark {message} as read",
        "I've read {message}, mark it read",
        "mark the whole thread of {message} read",
    ],
)
def mark_read(db: Db, message: Ref[Message, UNREAD], read: bool = True, whole_thread: bool = False) -> dict:
    """Mark a message (or its whole thread) read, or unread again with read=false.

    Args:
        read: true = read, false = unread.
        whole_thread: Every message of the thread.
    """
    mbx = db.actor()
    m = own_message(db, mbx, message)
    unread = system_label(db, mbx["id"], "UNREAD")
    targets = scope(db, mbx, m, whole_thread)
    change = remove_label if read else add_label
    changed = sum(change(db, t["id"], unread) for t in targets)
    return {**_outcome(db, m, targets, changed), "read": read}


@email.tool(
    writes=[MessageLabel],
    needs=[Session],
    returns=Message,
    idempotent=True,
    says=[
        "archive {message}",
        "get {message} out of my inbox but keep it",
        "archive the whole thread of {message}",
    ],
)
def archive_message(db: Db, message: Ref[Message, IN_INBOX], whole_thread: bool = False) -> dict:
    """Take a message (or its thread) out of the inbox; it stays findable under its other labels
    and in search.

    Args:
        whole_thread: Archive every inbox message of the thread.
    """
    mbx = db.actor()
    m = own_message(db, mbx, message)
    inbox = system_label(db, mbx["id"], "INBOX")
    targets = scope(db, mbx, m, whole_thread)
    changed = sum(remove_label(db, t["id"], inbox) for t in targets)
    if not changed:
        where = "its thread is" if whole_thread else "it is"
        raise ToolError(
            f"email {m['id']} is not in the inbox ({where} labelled {', '.join(label_names(db, m['id'])) or 'nothing'});"
            " there is nothing to archive"
        )
    return _outcome(db, m, targets, changed)


@email.tool(
    writes=[MessageLabel],
    needs=[Session],
    returns=Message,
    says=["move {message} to the trash", "delete {message}", "trash the whole thread of {message}"],
)
def trash_message(db: Db, message: Ref[Message, NOT_TRASHED], whole_thread: bool = False) -> dict:
    """Move a message (or its whole thread) to the trash: TRASH on, INBOX off. untrash_message
    takes it back out.

    Args:
        whole_thread: Trash every message of the thread.
    """
    mbx = db.actor()
    m = own_message(db, mbx, message)
    if not whole_thread and in_trash(db, mbx, m["id"]):
        raise ToolError(f"email {m['id']} is already in the trash")
    trash, inbox = system_label(db, mbx["id"], "TRASH"), system_label(db, mbx["id"], "INBOX")
    targets = scope(db, mbx, m, whole_thread)
    changed = 0
    for t in targets:
        if add_label(db, t["id"], trash):
            remove_label(db, t["id"], inbox)
            changed += 1
    if not changed:
        raise ToolError(f"every message of thread {m['thread_id']} is already in the trash")
    return _outcome(db, m, targets, changed)


@email.tool(
    writes=[MessageLabel],
    needs=[Session],
    returns=Message,
    says=["restore {message} from the trash", "take {message} back out of the trash"],
)
def untrash_message(db: Db, message: Ref[Message, IN_TRASH]) -> dict:
    """Take a message out of the trash; mail you received goes back to the inbox, your own sent
    copies do not."""
    mbx = db.actor()
    m = own_message(db, mbx, message)
    if not in_trash(db, mbx, m["id"]):
        raise ToolError(
            f"email {m['id']} is not in the trash (labels: {', '.join(label_names(db, m['id']))})"
        )
    remove_label(db, m["id"], system_label(db, mbx["id"], "TRASH"))
    if m["received"]:
        add_label(db, m["id"], system_label(db, mbx["id"], "INBOX"))
    return _outcome(db, m, [m], 1)


@email.tool(
    writes=[Label],
    needs=[Session],
    returns=Label,
    says=["create a label called {name}", "make a new {color} label {name}"],
)
def create_label(db: Db, name: NewLabel, color: Color | None = None) -> dict:
    """Create one of your own labels. Names are unique ignoring case and may not be a system
    label's (INBOX, SENT, DRAFT, TRASH, SPAM, STARRED, IMPORTANT, UNREAD).

    Args:
        name: The label's name, up to 50 characters.
        color: Its colour.
    """
    mbx = db.actor()
    name = " ".join(name.split())
    if not name:
        raise ToolError("a label needs a name")
    system = is_system_name(name)
    if system:
        raise ToolError(f"{name!r} is the system label {system}; system labels cannot be created")
    dup = db.one("SELECT * FROM labels WHERE mailbox_id = ? AND lower(name) = lower(?)", mbx["id"], name)
    if dup:
        raise ToolError(
            f"a label named {dup['name']!r} already exists ({dup['id']}); label names ignore case"
        )
    return db.insert(Label, mailbox_id=mbx["id"], name=name, kind="user", color=color)


@email.tool(
    writes=[Label, MessageLabel, Filter],
    needs=[Session],
    destructive=True,
    says=["delete my label {label}", "get rid of the label {label}; keep the emails"],
)
def delete_label(db: Db, label: Ref[Label, MY_USER_LABEL]) -> dict:
    """Delete one of your own labels. Its messages stay where they are, without it; filters that
    applied it are deleted too. System labels cannot be deleted."""
    mbx = db.actor()
    row = user_label(db, mbx, label)
    unlabelled = db.execute("DELETE FROM message_labels WHERE label_id = ?", row["id"])
    filters = db.execute("DELETE FROM filters WHERE label_id = ?", row["id"])
    db.delete(Label, row["id"])
    return {
        "deleted": row["id"],
        "name": row["name"],
        "messages_unlabelled": unlabelled,
        "filters_deleted": filters,
        "note": f"{plural(unlabelled, 'message')} kept without the label",
    }
