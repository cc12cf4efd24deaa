"""The workspace's tables, its policy constants and the parameter types its tools share."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field
from sqlalchemy import ForeignKey, Index, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from servers.kit import Domain, Sensitive

team_chat = Domain(
    "team_chat",
    "Team chat workspace: channels, direct messages, threads, reactions, edits and search.",
)

KINDS = ("channel", "dm", "group_dm")
NAME_MAX = 80  # channel names, as Slack allows
TEXT_MAX = 4000  # message text
TOPIC_MAX = 250
PURPOSE_MAX = 250
EMOJI_MAX = 50  # distinct emoji on one message (our limit)
GROUP_MAX = 9  # people in a group DM, you included
DELETED_TEXT = "This message was deleted."


# -- tables ---------------------------------------------------------------------------------


class Member(
    team_chat.Table,
    example="@sgould",
    noun="member",
    hidden=("password",),
    people={"name": "real_name", "email": "email", "handle": "id", "username": "username"},
    search=("real_name", "title"),
):
    """A person in the workspace: the persona and the people of her circle, keyed by handle.

    The key is the handle people type (``@sgould``), so "DM @sgould" names the member directly.
    """

    __tablename__ = "members"
    # search: what find_members matches besides handle and email
    id: Mapped[str] = mapped_column(primary_key=True)  # the handle, "@sgould"
    person_id: Mapped[int] = mapped_column(unique=True)
    username: Mapped[str] = mapped_column(unique=True)
    real_name: Mapped[str] = mapped_column(index=True)
    email: Mapped[str] = mapped_column(unique=True)
    title: Mapped[str]
    timezone: Mapped[str]
    is_admin: Mapped[bool]
    status: Mapped[str]  # active / deactivated
    password: Mapped[str]
    joined_at: Mapped[str]


# Who is signed in for this episode (member_id NULL = nobody).
Session = team_chat.acting(
    Member, "member_id", login="login", signed_out=True, columns={"signed_in_at": str | None}
)


class Setting(team_chat.Table, prefix="CFG", noun="workspace setting"):
    """The workspace policy (one row)."""

    __tablename__ = "settings"
    id: Mapped[str] = mapped_column(primary_key=True)
    workspace_name: Mapped[str]
    edit_window_minutes: Mapped[int]
    max_group_dm: Mapped[int]


class Channel(team_chat.Table, prefix="CHN"):
    """A conversation: a named channel (public or private), a DM or a group DM (no name)."""

    __tablename__ = "channels"
    __table_args__ = (Index("ix_channels_kind", "kind", "is_archived"),)
    id: Mapped[str] = mapped_column(primary_key=True)
    name: Mapped[str | None] = mapped_column(unique=True)
    kind: Mapped[str]  # channel / dm / group_dm
    topic: Mapped[str]
    purpose: Mapped[str]
    is_private: Mapped[bool]
    is_archived: Mapped[bool]
    is_general: Mapped[bool]
    creator_id: Mapped[str] = mapped_column(ForeignKey("members.id"), index=True)
    created_at: Mapped[str]


class Membership(team_chat.Table, prefix="MBS"):
    """A member's seat in a conversation, with how far they have read."""

    __tablename__ = "memberships"
    __table_args__ = (UniqueConstraint("member_id", "channel_id"),)
    id: Mapped[str] = mapped_column(primary_key=True)
    channel_id: Mapped[str] = mapped_column(ForeignKey("channels.id"), index=True)
    member_id: Mapped[str] = mapped_column(ForeignKey("members.id"))
    joined_at: Mapped[str]
    last_read_at: Mapped[str]


class Message(
    team_chat.Table, prefix="MSG", append_only=True, mutable=("edited_at", "deleted", "deleted_at")
):
    """A message as posted. Append-only: its text never changes (edits are ``message_edits``
    rows, the latest one is the current text) and a delete only sets the tombstone flags."""

    __tablename__ = "messages"
    __table_args__ = (
        Index("ix_messages_channel", "channel_id", "created_at"),
        Index("ix_messages_author", "author_id", "created_at"),
    )
    id: Mapped[str] = mapped_column(primary_key=True)
    channel_id: Mapped[str] = mapped_column(ForeignKey("channels.id"))
    author_id: Mapped[str] = mapped_column(ForeignKey("members.id"))
    text: Mapped[str]
    thread_root_id: Mapped[str | None] = mapped_column(ForeignKey("messages.id"), index=True)
    broadcast: Mapped[bool]  # a thread reply also sent to the channel
    created_at: Mapped[str]
    edited_at: Mapped[str | None]
    deleted: Mapped[bool]
    deleted_at: Mapped[str | None]


class MessageEdit(team_chat.Table, prefix="MED", noun="message edit", append_only=True):
    """One edit of a message: the text before and after. Append-only revision history."""

    __tablename__ = "message_edits"
    id: Mapped[str] = mapped_column(primary_key=True)
    message_id: Mapped[str] = mapped_column(ForeignKey("messages.id"), index=True)
    old_text: Mapped[str]
    new_text: Mapped[str]
    at: Mapped[str]


class Reaction(team_chat.Table, prefix="RCT"):
    """One member's emoji on one message (each emoji at most once per member)."""

    __tablename__ = "reactions"
    # by member: "the messages I reacted to" (what remove_reaction offers) reads only mine
    __table_args__ = (
        UniqueConstraint("message_id", "member_id", "emoji"),
        Index("ix_reactions_member", "member_id", "message_id"),
    )
    id: Mapped[str] = mapped_column(primary_key=True)
    message_id: Mapped[str] = mapped_column(ForeignKey("messages.id"))
    member_id: Mapped[str] = mapped_column(ForeignKey("members.id"))
    emoji: Mapped[str]
    at: Mapped[str]


# -- parameter types ------------------------------------------------------------------------------

# A plain string, not a Ref: signing in is not something a member lookup leads to (and the
# generator then reads a real user name and its hidden password from the members table).
UserName = Annotated[
    str, Field(min_length=1, max_length=64, description="A user name (sgould) or handle (@sgould).")
]
Password = Annotated[str, Sensitive(), Field(min_length=1, max_length=128, description="The password.")]
ChannelName = Annotated[
    str,
    Field(
        min_length=1,
        max_length=200,
        description="Lowercase letters, digits, hyphens and underscores, up to 80 characters.",
        examples=[
            "launch-planning",
            "design-reviews",
            "q3-budget",
            "book-club",
            "oncall-handoff",
            "ux-research",
        ],
    ),
]
MessageText = Annotated[
    str,
    Field(
        min_length=1,
        max_length=40_000,
        description="The message, 1-4,000 characters.",
        examples=[
            "Running 5 minutes late to standup",
            "Can someone review my PR before lunch?",
            "The deploy is done, all green",
            "Thanks, that fixed it!",
            "Lunch at noon? I'm buying",
            "Notes from the call are in the doc",
            "Heads up: the staging database restarts at 3pm",
            "I'll take this one",
        ],
    ),
]
EditText = Annotated[
    str,
    Field(
        min_length=1,
        max_length=40_000,
        description="The new text, 1-4,000 characters.",
        examples=[
            "Correction: the meeting moved to 3pm",
            "Running 10 minutes late, sorry",
            "Updated link is in the doc",
            "Never mind, it's fixed",
            "Typo fixed: the deadline is Friday",
        ],
    ),
]
Topic = Annotated[
    str,
    Field(
        min_length=0,
        max_length=1000,
        description="The new topic, up to 250 characters (empty clears it).",
        examples=["Launch week: status in thread", "Sprint 24", "Office hours Tue/Thu 2pm", "Q3 planning"],
    ),
]
Purpose = Annotated[
    str,
    Field(
        max_length=1000,
        description="What the channel is for, up to 250 characters.",
        examples=["Planning and status updates", "Questions and answers", "Coordination for the team"],
    ),
]
Emoji = Annotated[
    str,
    Field(
        min_length=1,
        max_length=40,
        description="An emoji name without colons, e.g. thumbsup, eyes, white_check_mark.",
        examples=["thumbsup", "eyes", "white_check_mark", "tada", "heart", "raised_hands", "+1", "rocket"],
    ),
]
# no examples: the generator then takes an emoji someone really put on the message
ReactionName = Annotated[
    str, Field(min_length=1, max_length=40, description="The emoji's name without colons, e.g. thumbsup.")
]
MemberQuery = Annotated[
    str,
    Field(min_length=1, max_length=100, description="Part of a name, handle, email or job title."),
]
SearchQuery = Annotated[
    str,
    Field(
        min_length=1,
        max_length=200,
        description=(
            "Words that must all appear, plus optional filters: in:#channel, from:@handle, "
            "before:YYYY-MM-DD, after:YYYY-MM-DD."
        ),
        examples=[
            "deploy",
            "release notes",
            "offsite",
            "invoice",
            "roadmap",
            "in:#general welcome",
            "standup",
        ],
    ),
]
