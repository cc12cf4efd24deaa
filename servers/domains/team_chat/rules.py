"""Who is acting, what a member may see and write, and how conversations and messages are shown.

The SQL conditions at the bottom are the same rules written for the query generator's sampler
(``Ref[Channel, POSTABLE]``): a good input is one the checks above would accept."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from servers.domains.team_chat.model import DELETED_TEXT, Channel, Member, Message, Setting
from servers.kit import Db, ToolError

_HANDLE = re.compile(r"^@?[a-z0-9][a-z0-9._-]{0,40}$")

# -- the acting member -------------------------------------------------------------------------


def _settings(db: Db) -> dict:
    return db.one("SELECT * FROM settings ORDER BY id LIMIT 1") or db.get(Setting, "CFG-000001")


def _handle(value: str) -> str:
    """'@dana', 'dana' and ' @Dana ' all name the member @dana."""
    text = value.strip().lower()
    return text if text.startswith("@") else f"@{text}"


def _member(db: Db, value: str) -> dict:
    row = db.find(Member, _handle(value)) if _HANDLE.match(value.strip().lower()) else None
    if row is None:
        raise ToolError(
            f"user_not_found: no member has the handle {value!r}; find_members looks people up by name"
        )
    return row


def _active(member: dict, doing: str) -> None:
    if member["status"] != "active":
        raise ToolError(
            f"user_is_deactivated: {member['id']} ({member['real_name']}) is deactivated and cannot be {doing}"
        )


# -- conversations -----------------------------------------------------------------------------


def _is_in(db: Db, channel_id: str, member_id: str) -> bool:
    return bool(
        db.scalar("SELECT 1 FROM memberships WHERE channel_id = ? AND member_id = ?", channel_id, member_id)
    )


def _members_of(db: Db, channel_id: str) -> list[str]:
    return [
        r["member_id"]
        for r in db.all(
            "SELECT member_id FROM memberships WHERE channel_id = ? ORDER BY member_id", channel_id
        )
    ]


def _label(db: Db, ch: dict, me: str | None = None) -> str:
    """How a person names a conversation: '#design', 'your DM with @dana'."""
    if ch["kind"] == "channel":
        return f"#{ch['name']}"
    others = [m for m in _members_of(db, ch["id"]) if m != me]
    what = "DM" if ch["kind"] == "dm" else "group DM"
    return f"{what} {ch['id']} with {', '.join(others) or 'nobody'}"


def _find_channel(db: Db, value: str) -> dict | None:
    """A conversation by id (CHN-000012) or, for named channels, by name (#design or design)."""
    key = value.strip()
    row = db.find(Channel, key) or db.find(Channel, key.upper())
    if row is None:
        name = key.removeprefix("#").lower()
        row = db.one("SELECT * FROM channels WHERE name = ?", name) if name else None
    return row


def _channel(db: Db, me: dict, value: str) -> dict:
    """A conversation the acting member may see: public channels, and private ones and DMs they
    are in. Others answer as if they did not exist, as a private channel should."""
    ch = _find_channel(db, value)
    if ch is None or (_private(ch) and not _is_in(db, ch["id"], me["id"])):
        raise ToolError(
            f"channel_not_found: no conversation {value!r} is visible to {me['id']}; "
            "list_channels shows the channels you can see"
        )
    return ch


def _private(ch: dict) -> bool:
    return ch["kind"] != "channel" or bool(ch["is_private"])


def _named(ch: dict, doing: str) -> None:
    """Channel-only operations (join, archive, invite, topic) refuse DMs."""
    if ch["kind"] != "channel":
        raise ToolError(
            f"method_not_supported_for_channel_type: {ch['id']} is a {ch['kind'].replace('_', ' ')}; "
            f"only channels can be {doing}"
        )


def _open(db: Db, ch: dict) -> None:
    if ch["is_archived"]:
        raise ToolError(f"is_archived: {_label(db, ch)} is archived and read-only")


def _seated(db: Db, me: dict, ch: dict) -> None:
    """Writing in a conversation needs a seat in it."""
    if not _is_in(db, ch["id"], me["id"]):
        how = "join_channel first" if not _private(ch) else "ask a member to invite you"
        raise ToolError(f"not_in_channel: {me['id']} is not a member of {_label(db, ch)}; {how}")


def _writable(db: Db, me: dict, value: str) -> dict:
    ch = _channel(db, me, value)
    _open(db, ch)
    _seated(db, me, ch)
    return ch


def _show_channel(db: Db, ch: dict, me: dict) -> dict:
    count = db.scalar("SELECT count(*) FROM memberships WHERE channel_id = ?", ch["id"])
    out = {
        "id": ch["id"],
        "name": ch["name"],
        "kind": ch["kind"],
        "is_private": bool(ch["is_private"]),
        "is_archived": bool(ch["is_archived"]),
        "is_general": bool(ch["is_general"]),
        "topic": ch["topic"],
        "purpose": ch["purpose"],
        "creator": ch["creator_id"],
        "created_at": ch["created_at"],
        "member_count": count,
        "is_member": _is_in(db, ch["id"], me["id"]),
    }
    if ch["kind"] != "channel":
        out["with"] = [m for m in _members_of(db, ch["id"]) if m != me["id"]]
    return out


# -- messages ----------------------------------------------------------------------------------

CURRENT_TEXT = (
    "coalesce((SELECT e.new_text FROM message_edits e WHERE e.message_id = {m}.id "
    "ORDER BY e.id DESC LIMIT 1), {m}.text)"
)


def _message(db: Db, me: dict, message_id: str) -> tuple[dict, dict]:
    """A message in a conversation the member can see, and that conversation; deleted ones are gone."""
    msg = db.find(Message, message_id.strip().upper())
    ch = db.get(Channel, msg["channel_id"]) if msg else None
    if msg is None or ch is None or (_private(ch) and not _is_in(db, ch["id"], me["id"])):
        raise ToolError(f"message_not_found: no message {message_id!r} is visible to {me['id']}")
    if msg["deleted"]:
        raise ToolError(f"message_not_found: message {msg['id']} was deleted on {msg['deleted_at']}")
    return msg, ch


def _text_now(db: Db, msg: dict) -> str:
    if msg["deleted"]:
        return DELETED_TEXT
    latest = db.scalar(
        "SELECT new_text FROM message_edits WHERE message_id = ? ORDER BY id DESC LIMIT 1", msg["id"]
    )
    return latest if latest is not None else msg["text"]


def _check_text(text: str, what: str = "text") -> str:
    body = text.strip()
    if not body:
        raise ToolError(f"no_text: the {what} is empty; a message needs 1 to 4,000 characters")
    if len(text) > 4000:
        raise ToolError(f"msg_too_long: the {what} is {len(text):,} characters; the limit is 4,000")
    return text


def _show_messages(db: Db, rows: list[dict]) -> list[dict]:
    """Messages as a reader sees them: current text, author, thread size and reactions."""
    if not rows:
        return []
    ids = [r["id"] for r in rows]
    marks = ", ".join("?" for _ in ids)
    replies = {
        r["root"]: r
        for r in db.all(
            "SELECT thread_root_id AS root, count(*) AS n, max(created_at) AS last FROM messages "
            f"WHERE thread_root_id IN ({marks}) AND deleted = 0 GROUP BY thread_root_id",
            *ids,
        )
    }
    edits = {
        r["message_id"]: r["new_text"]
        for r in db.all(
            f"SELECT message_id, new_text FROM message_edits WHERE id IN (SELECT max(id) FROM message_edits "
            f"WHERE message_id IN ({marks}) GROUP BY message_id)",
            *ids,
        )
    }
    reactions: dict[str, list[dict]] = {}
    for r in db.all(
        f"SELECT message_id, emoji, count(*) AS n FROM reactions WHERE message_id IN ({marks}) "
        "GROUP BY message_id, emoji ORDER BY message_id, min(id)",
        *ids,
    ):
        reactions.setdefault(r["message_id"], []).append({"emoji": r["emoji"], "count": r["n"]})
    out = []
    for r in rows:
        text = DELETED_TEXT if r["deleted"] else edits.get(r["id"], r["text"])
        item = {
            "id": r["id"],
            "channel": r["channel_id"],
            "author": r["author_id"],
            "text": text,
            "created_at": r["created_at"],
            "edited_at": r["edited_at"],
            "deleted": bool(r["deleted"]),
            "thread_root": r["thread_root_id"],
        }
        if r["thread_root_id"] is None:
            thread = replies.get(r["id"])
            item["reply_count"] = thread["n"] if thread else 0
            item["last_reply_at"] = thread["last"] if thread else None
        else:
            item["also_sent_to_channel"] = bool(r["broadcast"])
        item["reactions"] = reactions.get(r["id"], [])
        out.append(item)
    return out


def _minutes_since(db: Db, moment: str) -> int:
    return int((db.now - datetime.fromisoformat(moment)).total_seconds() // 60)


# -- sampler conditions (the checks above, in SQL) ---------------------------------------------

ME = "(SELECT member_id FROM sessions)"
NOW = "(SELECT value FROM _meta WHERE key = 'now')"
WINDOW_START = (
    f"strftime('%Y-%m-%dT%H:%M:%S', {NOW}, '-' || (SELECT edit_window_minutes FROM settings) || ' minutes')"
)


def seated(channel_col: str) -> str:
    """The acting member holds a seat in the conversation ``channel_col``."""
    return f"EXISTS (SELECT 1 FROM memberships s WHERE s.channel_id = {channel_col} AND s.member_id = {ME})"


def _channel_open(message_col: str) -> str:
    """The conversation is not archived and the acting member sits in it.

    Written as one uncorrelated IN so SQLite lists the member's open channels once instead of
    testing two subqueries against every message. The ``+`` keeps SQLite from walking the channel
    index with it: thousands of messages sit in those channels, and a pick narrowed to an author, a
    thread or a few ids reaches its handful by their own index; a pick from all of them scans the
    table in rowid order, which needs no sort."""
    return (
        f"+{message_col} IN (SELECT s.channel_id FROM memberships s JOIN channels c ON c.id = s.channel_id "
        f"WHERE s.member_id = {ME} AND c.is_archived = 0)"
    )


def _seats(channel_col: str) -> str:
    return f"(SELECT count(*) FROM memberships n WHERE n.channel_id = {channel_col})"


VISIBLE = f"((kind = 'channel' AND is_private = 0) OR {seated('channels.id')})"
POSTABLE = f"is_archived = 0 AND {seated('channels.id')}"
NAMED_OPEN = f"kind = 'channel' AND is_archived = 0 AND {seated('channels.id')}"
JOINABLE = f"kind = 'channel' AND is_private = 0 AND is_archived = 0 AND NOT {seated('channels.id')}"
LEAVABLE = f"{NAMED_OPEN} AND is_general = 0 AND {_seats('channels.id')} > 1"
ARCHIVABLE = f"{NAMED_OPEN} AND is_general = 0"
MODERATED = (
    f"{NAMED_OPEN} AND is_general = 0 AND {_seats('channels.id')} > 1 AND (creator_id = {ME} "
    f"OR (SELECT is_admin FROM members WHERE id = {ME}) = 1)"
)
UNREAD = (
    "EXISTS (SELECT 1 FROM memberships s JOIN messages m ON m.channel_id = s.channel_id "
    f"WHERE s.channel_id = channels.id AND s.member_id = {ME} AND m.created_at > s.last_read_at "
    "AND m.deleted = 0 AND m.author_id != s.member_id AND (m.thread_root_id IS NULL OR m.broadcast = 1))"
)
READABLE_MESSAGE = (  # ``+``: as in _channel_open, most messages are readable
    "deleted = 0 AND +channel_id IN (SELECT c.id FROM channels c WHERE (c.kind = 'channel' AND c.is_private = 0) "
    f"OR c.id IN (SELECT channel_id FROM memberships WHERE member_id = {ME}))"
)
OPEN_MESSAGE = f"deleted = 0 AND {_channel_open('messages.channel_id')}"
MY_MESSAGE = f"author_id = {ME} AND {OPEN_MESSAGE}"
# The member's own reactions are a few hundred of 20,000, so they are listed once (by the member's
# reaction index) and their messages reached by key, instead of asking each of the thousands of
# messages in the member's channels whether the member reacted to it.
REACTED_MESSAGE = (
    f"{OPEN_MESSAGE} AND messages.id IN (SELECT r.message_id FROM reactions r WHERE r.member_id = {ME})"
)
MY_EDITABLE = f"{MY_MESSAGE} AND created_at >= {WINDOW_START}"
OTHER_ACTIVE = f"status = 'active' AND id != {ME}"
IN_MY_CHANNELS = (
    f"{OTHER_ACTIVE} AND EXISTS (SELECT 1 FROM memberships m JOIN channels c ON c.id = m.channel_id "
    f"WHERE m.member_id = members.id AND c.creator_id = {ME} AND c.kind = 'channel' AND c.is_general = 0 "
    "AND c.is_archived = 0)"
)


def _parse_day(value: str, what: str) -> str:
    try:
        return datetime.fromisoformat(value).date().isoformat()
    except ValueError:
        raise ToolError(f"invalid_search: {what}{value} is not a date; write it as YYYY-MM-DD") from None


def _public(row: dict[str, Any]) -> dict[str, Any]:
    """A member as others see them (never the password)."""
    return {
        "handle": row["id"],
        "real_name": row["real_name"],
        "title": row["title"],
        "email": row["email"],
        "timezone": row["timezone"],
        "is_admin": bool(row["is_admin"]),
        "status": row["status"],
    }
