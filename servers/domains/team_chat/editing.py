"""Changing what was said: edits (a revision row each), deletes (a tombstone) and reactions."""

from __future__ import annotations

import re

from servers.domains.team_chat.model import (
    EMOJI_MAX,
    EditText,
    Emoji,
    Message,
    MessageEdit,
    Reaction,
    ReactionName,
    team_chat,
)
from servers.domains.team_chat.rules import (
    MY_EDITABLE,
    MY_MESSAGE,
    OPEN_MESSAGE,
    REACTED_MESSAGE,
    _check_text,
    _label,
    _message,
    _minutes_since,
    _open,
    _seated,
    _settings,
    _show_messages,
    _text_now,
)
from servers.kit import Db, Ref, ToolError

_EMOJI = re.compile(r"^[a-z0-9_+-]{1,32}$")


@team_chat.tool(
    writes=[Message, MessageEdit],
    returns=Message,
    says=[
        "edit my message {message} to say '{text}'",
        "change {message} to '{text}'",
        "fix my message {message}, it should read: {text}",
    ],
)
def edit_message(db: Db, message: Ref[Message, MY_EDITABLE], text: EditText) -> dict:
    """Edit one of your own messages, within the workspace's edit window (24 hours after
    posting). The previous text is kept in the message's revision history.

    Args:
        message: Your message.
        text: The new text, 1-4,000 characters.
    """
    me = db.actor()
    msg, ch = _message(db, me, message)
    if msg["author_id"] != me["id"]:
        raise ToolError(
            f"cant_update_message: {msg['id']} was posted by {msg['author_id']}; "
            "you can edit only your own messages"
        )
    _open(db, ch)
    window = _settings(db)["edit_window_minutes"]
    age = _minutes_since(db, msg["created_at"])
    if age > window:
        raise ToolError(
            f"edit_window_closed: {msg['id']} was posted at {msg['created_at']}, {age:,} minutes ago; "
            f"messages can be edited for {window:,} minutes after posting"
        )
    _check_text(text)
    old = _text_now(db, msg)
    if old == text:
        raise ToolError(f"edit_no_change: {msg['id']} already says exactly that")
    db.add(MessageEdit, message_id=msg["id"], old_text=old, new_text=text, at=db.stamp())
    return _show_messages(db, [db.update(Message, msg["id"], edited_at=db.stamp())])[0]


@team_chat.tool(
    writes=[Message],
    returns=Message,
    destructive=True,
    idempotent=True,
    says=["delete my message {message}", "remove the message {message} I posted"],
)
def delete_message(db: Db, message: Ref[Message, MY_MESSAGE]) -> dict:
    """Delete a message: yours, or anyone's if you are a workspace admin. It leaves a tombstone
    ("This message was deleted."); replies in its thread stay.

    Args:
        message: The message to delete.
    """
    me = db.actor()
    msg, ch = _message(db, me, message)
    if msg["author_id"] != me["id"] and not me["is_admin"]:
        raise ToolError(
            f"cant_delete_message: {msg['id']} was posted by {msg['author_id']}; only its author "
            "or a workspace admin can delete it"
        )
    _open(db, ch)
    row = db.update(Message, msg["id"], deleted=True, deleted_at=db.stamp())
    return {"deleted": True, **_show_messages(db, [row])[0]}


def _emoji(value: str) -> str:
    name = value.strip().strip(":").lower()
    if not _EMOJI.match(name):
        raise ToolError(
            f"invalid_name: {value!r} is not an emoji name; use 1-32 lowercase letters, digits, "
            "_, + or -, e.g. thumbsup"
        )
    return name


def _reactable(db: Db, me: dict, message: str) -> tuple[dict, dict]:
    msg, ch = _message(db, me, message)
    _open(db, ch)
    _seated(db, me, ch)
    return msg, ch


@team_chat.tool(
    writes=[Reaction],
    returns=Message,
    says=["react to {message} with {emoji}", "add a :{emoji}: reaction to message {message}"],
)
def add_reaction(db: Db, message: Ref[Message, OPEN_MESSAGE], emoji: Emoji) -> dict:
    """React to a message with an emoji (once per emoji; at most 50 different emoji per message).

    Args:
        message: The message to react to.
        emoji: The emoji's name without colons, e.g. thumbsup, eyes, tada.
    """
    me = db.actor()
    msg, ch = _reactable(db, me, message)
    name = _emoji(emoji)
    mine = db.scalar(
        "SELECT 1 FROM reactions WHERE message_id = ? AND member_id = ? AND emoji = ?",
        msg["id"],
        me["id"],
        name,
    )
    if mine:
        raise ToolError(f"already_reacted: {me['id']} already reacted to {msg['id']} with :{name}:")
    distinct = {
        r["emoji"] for r in db.all("SELECT DISTINCT emoji FROM reactions WHERE message_id = ?", msg["id"])
    }
    if name not in distinct and len(distinct) >= EMOJI_MAX:
        raise ToolError(
            f"too_many_emoji: {msg['id']} already has {len(distinct)} different emoji; the limit is {EMOJI_MAX}"
        )
    db.add(Reaction, message_id=msg["id"], member_id=me["id"], emoji=name, at=db.stamp())
    shown = _show_messages(db, [msg])[0]
    return {"reacted": name, "message": shown, "channel": _label(db, ch, me["id"])}


@team_chat.tool(
    writes=[Reaction],
    returns=Message,
    destructive=True,
    idempotent=True,
    says=["remove my {emoji} reaction from {message}", "take back my :{emoji}: on message {message}"],
)
def remove_reaction(
    db: Db,
    message: Ref[Message, REACTED_MESSAGE],
    emoji: ReactionName,
) -> dict:
    """Take back one of your reactions.

    Args:
        message: The message you reacted to.
        emoji: The emoji's name without colons.
    """
    me = db.actor()
    msg, _ = _reactable(db, me, message)
    name = _emoji(emoji)
    gone = db.execute(
        "DELETE FROM reactions WHERE message_id = ? AND member_id = ? AND emoji = ?",
        msg["id"],
        me["id"],
        name,
    )
    if not gone:
        yours = [
            r["emoji"]
            for r in db.all(
                "SELECT emoji FROM reactions WHERE message_id = ? AND member_id = ? ORDER BY id",
                msg["id"],
                me["id"],
            )
        ]
        raise ToolError(
            f"no_reaction: {me['id']} has no :{name}: reaction on {msg['id']}; "
            f"your reactions there: {', '.join(yours) or 'none'}"
        )
    return {"removed": name, "message": _show_messages(db, [msg])[0]}
