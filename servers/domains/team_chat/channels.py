"""Channels: listing and reading them, creating and archiving, membership and the topic."""

from __future__ import annotations

import re
from typing import Literal

from servers.domains.team_chat.model import (
    NAME_MAX,
    PURPOSE_MAX,
    TOPIC_MAX,
    Channel,
    ChannelName,
    Member,
    Membership,
    Purpose,
    Topic,
    team_chat,
)
from servers.domains.team_chat.rules import (
    ARCHIVABLE,
    IN_MY_CHANNELS,
    JOINABLE,
    LEAVABLE,
    MODERATED,
    NAMED_OPEN,
    OTHER_ACTIVE,
    VISIBLE,
    _active,
    _channel,
    _is_in,
    _member,
    _members_of,
    _named,
    _open,
    _seated,
    _show_channel,
    _writable,
)
from servers.kit import Db, IdList, Offset, PageSize, Ref, ShortText, ToolError

_NAME = re.compile(r"^[a-z0-9_-]+$")


def _unread(db: Db, channel_id: str, member_id: str) -> int:
    return db.scalar(
        "SELECT count(*) FROM messages m, memberships s WHERE s.channel_id = ? AND s.member_id = ? "
        "AND m.channel_id = s.channel_id AND m.created_at > s.last_read_at AND m.deleted = 0 "
        "AND m.author_id != s.member_id AND (m.thread_root_id IS NULL OR m.broadcast = 1)",
        channel_id,
        member_id,
    )


@team_chat.tool(
    returns=Channel,
    says=[
        "which channels am I in?",
        "list the channels with {query} in the name",
        "show me my {kind} conversations",
        "what channels can I join?",
    ],
)
def list_channels(
    db: Db,
    query: ShortText | None = None,
    kind: Literal["channel", "dm", "group_dm"] | None = None,
    member_only: bool = False,
    include_archived: bool = False,
    limit: PageSize = 20,
    offset: Offset = 0,
) -> dict:
    """The conversations you can see (public channels, and private channels and DMs you are in),
    by name, with member counts and, where you are a member, your unread count.

    Args:
        query: Part of a channel name.
        kind: Only channels, DMs or group DMs.
        member_only: Only conversations you are a member of.
        include_archived: Also list archived channels.
    """
    me = db.actor()
    where = [VISIBLE.replace("(SELECT member_id FROM sessions)", "?")]
    params: list = [me["id"]]
    if query:
        where.append("name LIKE ?")
        params.append(f"%{query.strip().removeprefix('#').lower()}%")
    if kind:
        where.append("kind = ?")
        params.append(kind)
    if member_only:
        where.append(
            "EXISTS (SELECT 1 FROM memberships s WHERE s.channel_id = channels.id AND s.member_id = ?)"
        )
        params.append(me["id"])
    if not include_archived:
        where.append("is_archived = 0")
    page = db.page(
        f"SELECT * FROM channels WHERE {' AND '.join(where)} ORDER BY kind, name, id",
        *params,
        limit=limit,
        offset=offset,
        key="channels",
    )
    shown = []
    for ch in page["channels"]:
        row = _show_channel(db, ch, me)
        row["unread_count"] = _unread(db, ch["id"], me["id"]) if row["is_member"] else None
        shown.append(row)
    page["channels"] = shown
    return page


@team_chat.tool(
    returns=Channel,
    says=["tell me about {channel}", "who is in {channel} and what is it about?"],
)
def get_channel(db: Db, channel: Ref[Channel, VISIBLE]) -> dict:
    """A conversation's topic, purpose, creator and members (the first 100 handles).

    Args:
        channel: The conversation: its id, or a channel's name such as #design.
    """
    me = db.actor()
    ch = _channel(db, me, channel)
    out = _show_channel(db, ch, me)
    out["members"] = _members_of(db, ch["id"])[:100]
    out["message_count"] = db.scalar(
        "SELECT count(*) FROM messages WHERE channel_id = ? AND deleted = 0", ch["id"]
    )
    if out["is_member"]:
        out["unread_count"] = _unread(db, ch["id"], me["id"])
    return out


@team_chat.tool(
    writes=[Channel, Membership],
    returns=Channel,
    says=[
        "create a channel called {name}",
        "make a new private channel {name} for '{purpose}'",
        "start a {name} channel, its purpose is '{purpose}'",
    ],
)
def create_channel(
    db: Db, name: ChannelName, is_private: bool = False, purpose: Purpose | None = None
) -> dict:
    """Create a channel; you join it as its creator. Names are lowercase letters, digits,
    hyphens and underscores, at most 80 characters, and unique in the workspace (archived
    channels keep theirs).

    Args:
        name: The channel's name, without the #.
        is_private: Only invited members can see a private channel.
        purpose: What the channel is for.
    """
    me = db.actor()
    wanted = name.strip().removeprefix("#")
    if len(wanted) > NAME_MAX:
        raise ToolError(
            f"invalid_name_maxlength: {wanted[:20]!r}... is {len(wanted)} characters; at most {NAME_MAX}"
        )
    if not wanted or not _NAME.match(wanted):
        raise ToolError(
            f"invalid_name_specials: {name!r} is not a valid channel name; use lowercase letters, "
            "digits, hyphens and underscores (no spaces or capitals)"
        )
    taken = db.one("SELECT id, is_archived FROM channels WHERE name = ?", wanted)
    if taken:
        state = " (archived)" if taken["is_archived"] else ""
        raise ToolError(f"name_taken: #{wanted} already exists as {taken['id']}{state}; pick another name")
    if purpose and len(purpose) > PURPOSE_MAX:
        raise ToolError(f"invalid_purpose: the purpose is {len(purpose)} characters; at most {PURPOSE_MAX}")
    ch = db.insert(
        Channel,
        name=wanted,
        kind="channel",
        topic="",
        purpose=purpose or "",
        is_private=is_private,
        is_archived=False,
        is_general=False,
        creator_id=me["id"],
        created_at=db.stamp(),
    )
    db.add(Membership, channel_id=ch["id"], member_id=me["id"], joined_at=db.stamp(), last_read_at=db.stamp())
    return _show_channel(db, ch, me)


@team_chat.tool(
    writes=[Channel],
    returns=Channel,
    destructive=True,
    idempotent=True,
    says=["archive {channel}", "we're done with {channel}, please archive it"],
)
def archive_channel(db: Db, channel: Ref[Channel, ARCHIVABLE]) -> dict:
    """Archive a channel you are in: it stays readable but nobody can post, join or react.
    #general cannot be archived.

    Args:
        channel: The channel: its id, or its name such as #design.
    """
    me = db.actor()
    ch = _channel(db, me, channel)
    _named(ch, "archived")
    if ch["is_general"]:
        raise ToolError(f"cant_archive_general: #{ch['name']} is the workspace's general channel")
    if ch["is_archived"]:
        raise ToolError(f"already_archived: #{ch['name']} is already archived")
    _seated(db, me, ch)
    return _show_channel(db, db.update(Channel, ch["id"], is_archived=True), me)


@team_chat.tool(
    writes=[Membership],
    returns=Channel,
    idempotent=True,
    says=["join {channel}", "add me to {channel}"],
)
def join_channel(db: Db, channel: Ref[Channel, JOINABLE]) -> dict:
    """Join a public channel. Private channels need an invitation from a member.

    Args:
        channel: The channel: its id, or its name such as #design.
    """
    me = db.actor()
    ch = _channel(db, me, channel)
    _named(ch, "joined")
    if ch["is_private"]:
        raise ToolError(f"channel_is_private: #{ch['name']} is private; a member has to invite you")
    _open(db, ch)
    if _is_in(db, ch["id"], me["id"]):
        raise ToolError(f"already_in_channel: {me['id']} is already a member of #{ch['name']}")
    db.add(Membership, channel_id=ch["id"], member_id=me["id"], joined_at=db.stamp(), last_read_at=db.stamp())
    return _show_channel(db, ch, me)


@team_chat.tool(
    writes=[Membership],
    returns=Channel,
    idempotent=True,
    says=["leave {channel}", "take me out of {channel}"],
)
def leave_channel(db: Db, channel: Ref[Channel, LEAVABLE]) -> dict:
    """Leave a channel. Nobody leaves #general, and the last member cannot leave a private channel.

    Args:
        channel: The channel: its id, or its name such as #design.
    """
    me = db.actor()
    ch = _channel(db, me, channel)
    _named(ch, "left")
    if ch["is_general"]:
        raise ToolError(f"cant_leave_general: everyone stays in #{ch['name']}, the general channel")
    _open(db, ch)
    _seated(db, me, ch)
    left = len(_members_of(db, ch["id"]))
    if ch["is_private"] and left == 1:
        raise ToolError(f"last_member: you are the last member of private #{ch['name']}; archive it instead")
    db.execute("DELETE FROM memberships WHERE channel_id = ? AND member_id = ?", ch["id"], me["id"])
    return {"left": True, "channel": ch["id"], "name": ch["name"], "members_left": left - 1}


@team_chat.tool(
    writes=[Membership],
    returns=Channel,
    says=["invite {members} to {channel}", "add {members} to {channel}"],
)
def invite_to_channel(
    db: Db, channel: Ref[Channel, NAMED_OPEN], members: IdList[Member, OTHER_ACTIVE]
) -> dict:
    """Add members to a channel you are in (public or private).

    Args:
        channel: The channel: its id, or its name such as #design.
        members: Handles of the people to add, e.g. ["@dwhitfield", "@amorris"].
    """
    me = db.actor()
    ch = _writable(db, me, channel)
    _named(ch, "invited to")
    people = [_member(db, h) for h in members]
    if any(p["id"] == me["id"] for p in people):
        raise ToolError(f"cant_invite_self: {me['id']} is you; list the other people to add")
    for p in people:
        _active(p, "invited")
    inside = [p["id"] for p in people if _is_in(db, ch["id"], p["id"])]
    if inside:
        raise ToolError(
            f"already_in_channel: {', '.join(inside)} already in #{ch['name']}; nothing was changed"
        )
    for p in people:
        db.add(
            Membership,
            channel_id=ch["id"],
            member_id=p["id"],
            joined_at=db.stamp(),
            last_read_at=ch["created_at"],
        )
    out = _show_channel(db, ch, me)
    out["invited"] = [p["id"] for p in people]
    return out


@team_chat.tool(
    writes=[Membership],
    returns=Channel,
    destructive=True,
    idempotent=True,
    says=["remove {member} from {channel}", "kick {member} out of {channel}"],
)
def remove_from_channel(
    db: Db, channel: Ref[Channel, MODERATED], member: Ref[Member, IN_MY_CHANNELS]
) -> dict:
    """Remove someone from a channel. Only the channel's creator or a workspace admin may, and
    nobody is removed from #general.

    Args:
        channel: The channel: its id, or its name such as #design.
        member: The handle of the person to remove, e.g. @dwhitfield.
    """
    me = db.actor()
    ch = _channel(db, me, channel)
    _named(ch, "managed")
    if ch["is_general"]:
        raise ToolError(f"cant_kick_from_general: nobody can be removed from #{ch['name']}")
    _open(db, ch)
    _seated(db, me, ch)
    if ch["creator_id"] != me["id"] and not me["is_admin"]:
        raise ToolError(
            f"restricted_action: only #{ch['name']}'s creator ({ch['creator_id']}) or a workspace admin "
            f"can remove members; {me['id']} is neither"
        )
    who = _member(db, member)
    if who["id"] == me["id"]:
        raise ToolError("cant_kick_self: use leave_channel to leave a channel yourself")
    if not _is_in(db, ch["id"], who["id"]):
        raise ToolError(f"not_in_channel: {who['id']} is not a member of #{ch['name']}")
    db.execute("DELETE FROM memberships WHERE channel_id = ? AND member_id = ?", ch["id"], who["id"])
    return {"removed": who["id"], "channel": ch["id"], "name": ch["name"]}


@team_chat.tool(
    writes=[Channel],
    returns=Channel,
    idempotent=True,
    says=["set the topic of {channel} to '{topic}'", "change the topic of {channel} to '{topic}'"],
)
def set_channel_topic(db: Db, channel: Ref[Channel, NAMED_OPEN], topic: Topic) -> dict:
    """Change a channel's topic (members only; up to 250 characters).

    Args:
        channel: The channel: its id, or its name such as #design.
        topic: The new topic; an empty string clears it.
    """
    me = db.actor()
    ch = _writable(db, me, channel)
    _named(ch, "given a topic")
    if len(topic) > TOPIC_MAX:
        raise ToolError(f"too_long: the topic is {len(topic)} characters; at most {TOPIC_MAX}")
    return _show_channel(db, db.update(Channel, ch["id"], topic=topic.strip()), me)
