"""Direct messages, posting and replying, reading history and threads, read markers."""

from __future__ import annotations

from datetime import datetime

from servers.domains.team_chat.model import (
    Channel,
    Member,
    Membership,
    Message,
    MessageText,
    team_chat,
)
from servers.domains.team_chat.rules import (
    OPEN_MESSAGE,
    OTHER_ACTIVE,
    POSTABLE,
    READABLE_MESSAGE,
    UNREAD,
    VISIBLE,
    _active,
    _channel,
    _check_text,
    _member,
    _members_of,
    _message,
    _seated,
    _settings,
    _show_channel,
    _show_messages,
    _writable,
)
from servers.kit import Db, IdList, Moment, Offset, PageSize, Ref, ToolError

TOP_LEVEL = "(thread_root_id IS NULL OR broadcast = 1)"


def _existing_dm(db: Db, people: list[str]) -> dict | None:
    """The DM or group DM whose members are exactly ``people``."""
    marks = ", ".join("?" for _ in people)
    row = db.one(
        "SELECT c.* FROM channels c WHERE c.kind IN ('dm', 'group_dm') AND c.id IN "
        "(SELECT channel_id FROM memberships WHERE member_id = ?) AND "
        f"(SELECT count(*) FROM memberships m WHERE m.channel_id = c.id) = ? AND "
        f"(SELECT count(*) FROM memberships m WHERE m.channel_id = c.id AND m.member_id IN ({marks})) = ? "
        "ORDER BY c.id LIMIT 1",
        people[0],
        len(people),
        *people,
        len(people),
    )
    return row


@team_chat.tool(
    writes=[Channel, Membership],
    returns=Channel,
    idempotent=True,
    says=[
        "open a direct message with {members}",
        "start a private conversation with {members}",
        "I want to message {members} privately",
    ],
)
def open_direct_message(db: Db, members: IdList[Member, OTHER_ACTIVE]) -> dict:
    """Open the DM with one person, or a group DM with 2-8 others (9 people at most, you
    included). An existing conversation with exactly these people is returned, not duplicated.

    Args:
        members: Handles of the other people, e.g. ["@dwhitfield"]; find_members finds handles.
    """
    me = db.actor()
    people = [_member(db, h) for h in members]
    if any(p["id"] == me["id"] for p in people):
        raise ToolError(f"cant_dm_self: {me['id']} is you; list only the other people")
    limit = _settings(db)["max_group_dm"]
    if len(people) + 1 > limit:
        raise ToolError(
            f"too_many_users: a group DM holds at most {limit} people including you; "
            f"{len(people) + 1} were asked for"
        )
    for p in people:
        _active(p, "messaged")
    everyone = sorted({me["id"], *(p["id"] for p in people)})
    found = _existing_dm(db, everyone)
    if found is not None:
        return {**_show_channel(db, found, me), "already_open": True}
    ch = db.insert(
        Channel,
        name=None,
        kind="dm" if len(everyone) == 2 else "group_dm",
        topic="",
        purpose="",
        is_private=True,
        is_archived=False,
        is_general=False,
        creator_id=me["id"],
        created_at=db.stamp(),
    )
    for who in everyone:
        db.add(Membership, channel_id=ch["id"], member_id=who, joined_at=db.stamp(), last_read_at=db.stamp())
    return {**_show_channel(db, ch, me), "already_open": False}


def _dm_reachable(db: Db, ch: dict, me: dict) -> None:
    """Nobody writes to a deactivated person."""
    if ch["kind"] == "channel":
        return
    for who in _members_of(db, ch["id"]):
        if who != me["id"]:
            _active(db.get(Member, who), "messaged")


def _post(db: Db, ch: dict, me: dict, text: str, root: str | None, broadcast: bool) -> dict:
    mid = db.add(
        Message,
        channel_id=ch["id"],
        author_id=me["id"],
        text=text,
        thread_root_id=root,
        broadcast=broadcast,
        created_at=db.stamp(),
        edited_at=None,
        deleted=False,
        deleted_at=None,
    )
    return _show_messages(db, [db.get(Message, mid)])[0]


@team_chat.tool(
    writes=[Message],
    returns=Message,
    says=[
        "post '{text}' in {channel}",
        "send '{text}' to {channel}",
        "tell {channel}: {text}",
    ],
)
def post_message(db: Db, channel: Ref[Channel, POSTABLE], text: MessageText) -> dict:
    """Post a message in a channel, DM or group DM you are a member of (not in archived channels).

    Args:
        channel: The conversation: its id, or a channel's name such as #design.
        text: The message, 1-4,000 characters.
    """
    me = db.actor()
    ch = _writable(db, me, channel)
    _dm_reachable(db, ch, me)
    return _post(db, ch, me, _check_text(text), None, False)


@team_chat.tool(
    writes=[Message],
    returns=Message,
    says=[
        "reply '{text}' in the thread of message {message}",
        "answer {message} in its thread: {text}",
        "reply to {message} with '{text}' and also send it to the channel",
    ],
)
def reply_in_thread(
    db: Db, message: Ref[Message, OPEN_MESSAGE], text: MessageText, also_send_to_channel: bool = False
) -> dict:
    """Reply in a message's thread. Threads are one level deep: replying to a reply adds to the
    same thread. ``also_send_to_channel`` shows the reply in the channel too.

    Args:
        message: The message to reply to (its thread's root or any reply in it).
        text: The reply, 1-4,000 characters.
        also_send_to_channel: Also show the reply in the channel.
    """
    me = db.actor()
    msg, ch = _message(db, me, message)
    root_id = msg["thread_root_id"] or msg["id"]
    if root_id != msg["id"]:
        _message(db, me, root_id)  # the thread's root must still be there
    ch = _writable(db, me, ch["id"])
    _dm_reachable(db, ch, me)
    return _post(db, ch, me, _check_text(text), root_id, also_send_to_channel)


def _before(value: str | None) -> str:
    if value is None:
        return "9999"
    return datetime.fromisoformat(value).replace(tzinfo=None).isoformat(timespec="seconds")


@team_chat.tool(
    returns=Message,
    says=[
        "what's new in {channel}?",
        "show me the last {limit} messages in {channel}",
        "show me what was posted in {channel} before {before}",
    ],
)
def get_channel_history(
    db: Db,
    channel: Ref[Channel, VISIBLE],
    limit: PageSize = 20,
    offset: Offset = 0,
    before: Moment | None = None,
) -> dict:
    """A conversation's messages, newest first, without thread replies (``get_thread`` has
    them) unless they were also sent to the channel. Deleted messages are gone.

    Args:
        channel: The conversation: its id, or a channel's name such as #design.
        before: Only messages posted before this moment.
    """
    me = db.actor()
    ch = _channel(db, me, channel)
    page = db.page(
        f"SELECT * FROM messages WHERE channel_id = ? AND deleted = 0 AND {TOP_LEVEL} AND created_at < ? "
        "ORDER BY created_at DESC, id DESC",
        ch["id"],
        _before(before),
        limit=limit,
        offset=offset,
        key="messages",
    )
    page["messages"] = _show_messages(db, page["messages"])
    page["channel"] = {"id": ch["id"], "name": ch["name"], "kind": ch["kind"]}
    return page


@team_chat.tool(
    returns=Message,
    says=["show me the thread of message {message}", "what did people reply to {message}?"],
)
def get_thread(
    db: Db, message: Ref[Message, READABLE_MESSAGE], limit: PageSize = 50, offset: Offset = 0
) -> dict:
    """A thread as one list, oldest first: its root message, then the replies.

    Args:
        message: The root message or any reply in the thread.
    """
    me = db.actor()
    msg, _ = _message(db, me, message)
    root, _ = _message(db, me, msg["thread_root_id"] or msg["id"])
    page = db.page(
        "SELECT * FROM messages WHERE (id = ? OR thread_root_id = ?) AND deleted = 0 ORDER BY created_at, id",
        root["id"],
        root["id"],
        limit=limit,
        offset=offset,
        key="messages",
    )
    page["messages"] = _show_messages(db, page["messages"])
    page["thread_root"] = root["id"]
    return page


@team_chat.tool(
    writes=[Membership],
    returns=Channel,
    idempotent=True,
    says=["mark {channel} as read", "I've caught up on {channel}, clear its unread messages"],
)
def mark_channel_read(db: Db, channel: Ref[Channel, UNREAD]) -> dict:
    """Mark everything in a conversation you are in as read (the unread count drops to 0).

    Args:
        channel: The conversation: its id, or a channel's name such as #design.
    """
    me = db.actor()
    ch = _channel(db, me, channel)
    _seated(db, me, ch)
    db.execute(
        "UPDATE memberships SET last_read_at = ? WHERE channel_id = ? AND member_id = ?",
        db.stamp(),
        ch["id"],
        me["id"],
    )
    return {"channel": ch["id"], "name": ch["name"], "last_read_at": db.stamp(), "unread_count": 0}
