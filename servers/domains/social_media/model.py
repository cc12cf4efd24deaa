"""The social network's tables, its fixed limits and the parameter types its tools share."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field
from sqlalchemy import ForeignKey, Index, UniqueConstraint, text
from sqlalchemy.orm import Mapped, mapped_column

from servers.kit import Domain, IdList, Sensitive

social_media = Domain(
    "social_media",
    "Social network: a logged-in account posts, replies, reposts and likes, follows, blocks and mutes "
    "others, and reads a home timeline, profiles, statistics and notifications.",
)

MAX_CHARS = 280
MAX_TAGS = 10
MAX_MENTIONS = 10
MAX_FOLLOWING = 5_000
TAG_RE = r"^#[A-Za-z0-9_]{1,50}$"

Visibility = Literal["public", "followers", "mentioned"]
AccountStatus = Literal["active", "suspended", "deactivated"]
FollowStatus = Literal["active", "pending"]
NotificationKind = Literal["like", "repost", "reply", "mention", "follow", "follow_request"]


# -- tables ---------------------------------------------------------------------------------------


class Account(
    social_media.Table, example="@dwhitfield", noun="account", people={"handle": "id", "name": "display_name"}
):
    """An account, keyed by its handle (``@dwhitfield``). World people have the world's handle and
    name; ``person_id`` is their index in the shared world (0 is the persona)."""

    __tablename__ = "accounts"
    # The visibility rule lists the gone and the private accounts (rules.GONE, rules.PRIVATE) in
    # every post query, twice; these partial indexes hold just those few, so a list is not a scan
    # of every account.
    __table_args__ = (
        Index("ix_accounts_gone", "id", sqlite_where=text("status != 'active'")),
        Index("ix_accounts_private", "id", sqlite_where=text("is_private = 1")),
    )
    id: Mapped[str] = mapped_column(primary_key=True)  # the handle, with its @
    person_id: Mapped[int | None] = mapped_column(index=True)
    display_name: Mapped[str]
    bio: Mapped[str]
    verified: Mapped[bool]
    is_private: Mapped[bool]
    status: Mapped[str]
    created_on: Mapped[str]


class Login(
    social_media.Table,
    example="dana.whitfield@corvid.example",
    noun="login",
    hidden=("password",),
    people={"email": "id"},
):
    """Credentials: an account logs in with its owner's email. Passwords never leave this table."""

    __tablename__ = "logins"
    id: Mapped[str] = mapped_column(primary_key=True)  # the email
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"), unique=True)
    password: Mapped[str]


# Who is logged in for this episode (account_id NULL = nobody).
Session = social_media.acting(
    Account, "account_id", login="login", signed_out=True, columns={"logged_in_at": str | None}
)


class Follow(social_media.Table, prefix="FOL"):
    """follower follows followee; ``pending`` until a private followee approves."""

    __tablename__ = "follows"
    __table_args__ = (
        UniqueConstraint("follower_id", "followee_id"),
        Index("ix_follows_followee", "followee_id"),
    )
    id: Mapped[str] = mapped_column(primary_key=True)
    follower_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"))
    followee_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"))
    status: Mapped[str]
    at: Mapped[str]


class Block(social_media.Table, prefix="BLK"):
    __tablename__ = "blocks"
    __table_args__ = (UniqueConstraint("user_id", "target_id"), Index("ix_blocks_target", "target_id"))
    id: Mapped[str] = mapped_column(primary_key=True)
    user_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"))
    target_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"))
    at: Mapped[str]


class Mute(social_media.Table, prefix="MUT"):
    __tablename__ = "mutes"
    __table_args__ = (UniqueConstraint("user_id", "target_id"),)
    id: Mapped[str] = mapped_column(primary_key=True)
    user_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"))
    target_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"))
    at: Mapped[str]


class Post(social_media.Table, prefix="PST", append_only=True, mutable=("deleted", "deleted_at")):
    """A post, a reply (``reply_to_id``) or a repost (``repost_of_id``, empty content). Append-only:
    deleting a post or undoing a repost sets the ``deleted`` tombstone."""

    __tablename__ = "posts"
    __table_args__ = (
        Index("ix_posts_author", "author_id", "created_at"),
        Index("ix_posts_created", "created_at"),
    )
    id: Mapped[str] = mapped_column(primary_key=True)
    author_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"))
    content: Mapped[str]
    reply_to_id: Mapped[str | None] = mapped_column(ForeignKey("posts.id"), index=True)
    repost_of_id: Mapped[str | None] = mapped_column(ForeignKey("posts.id"), index=True)
    visibility: Mapped[str]
    created_at: Mapped[str]
    deleted: Mapped[bool]
    deleted_at: Mapped[str | None]


class PostTag(social_media.Table, prefix="PTG", noun="post tag", append_only=True):
    __tablename__ = "post_tags"
    id: Mapped[str] = mapped_column(primary_key=True)
    post_id: Mapped[str] = mapped_column(ForeignKey("posts.id"), index=True)
    tag: Mapped[str] = mapped_column(index=True)  # lowercase, with its #


class PostMention(social_media.Table, prefix="PMN", noun="post mention", append_only=True):
    __tablename__ = "post_mentions"
    id: Mapped[str] = mapped_column(primary_key=True)
    post_id: Mapped[str] = mapped_column(ForeignKey("posts.id"), index=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"), index=True)


class Like(social_media.Table, prefix="LIK"):
    __tablename__ = "likes"
    __table_args__ = (UniqueConstraint("account_id", "post_id"), Index("ix_likes_post", "post_id"))
    id: Mapped[str] = mapped_column(primary_key=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"))
    post_id: Mapped[str] = mapped_column(ForeignKey("posts.id"))
    at: Mapped[str]


class Notification(social_media.Table, prefix="NTF", append_only=True, mutable=("read",)):
    """Something that happened to an account. Append-only; only ``read`` changes later."""

    __tablename__ = "notifications"
    __table_args__ = (Index("ix_notifications_account", "account_id", "read"),)
    id: Mapped[str] = mapped_column(primary_key=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"))
    kind: Mapped[str]
    actor_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"))
    post_id: Mapped[str | None] = mapped_column(ForeignKey("posts.id"))
    read: Mapped[bool]
    at: Mapped[str]


# -- parameter types --------------------------------------------------------------------------------

Password = Annotated[str, Sensitive(), Field(min_length=1, max_length=128, description="The password.")]
PostText = Annotated[
    str,
    Field(
        min_length=1,
        max_length=4000,
        description="The text of the post, 1-280 characters.",
        examples=[
            "Just finished a 10k along the river, legs are jelly but worth it",
            "Anyone have a good ramen place near downtown? Asking for a hungry friend",
            "Shipped the new release today. Huge thanks to the whole team!",
            "Rainy Sunday, fresh coffee and a long book. Perfect.",
            "The sunset over the bay tonight was unreal",
            "First attempt at sourdough: dense, flat, delicious anyway",
            "Reminder that the community garden cleanup is this Saturday at 10",
            "Three meetings before lunch. Send snacks.",
            "Finally saw the new sci-fi movie everyone is talking about. No spoilers, but wow",
            "Our team is hiring a data analyst, DM me if you are interested",
            "Started learning the guitar again after ten years. My fingers hate me",
            "Farmers market haul: peaches, tomatoes and way too much basil",
            "Trail was muddy but the view from the ridge made up for it",
            "Can recommend the new podcast about city planning, surprisingly gripping",
            "Moving day is done. Never buying another bookshelf again",
            "Great turnout at the meetup tonight, thanks everyone who came",
        ],
    ),
]
ReplyText = Annotated[
    str,
    Field(
        min_length=1,
        max_length=4000,
        description="The text of the reply, 1-280 characters.",
        examples=[
            "Congrats, well deserved!",
            "Totally agree with this",
            "Where is this? Looks amazing",
            "Count me in for Saturday",
            "Ha, same thing happened to me last week",
            "Thanks for sharing, really useful",
            "Sending good vibes your way",
            "Can you share the recipe?",
            "This made my day",
            "Not sure I agree, but good point about the costs",
        ],
    ),
]
TagList = Annotated[
    list[Annotated[str, Field(min_length=1, max_length=60)]],
    Field(
        max_length=MAX_TAGS,
        description='Hashtags, each # followed by letters, digits or underscores, e.g. ["#hiking"]; up to 10.',
        examples=[
            ["#hiking"],
            ["#coffee", "#mondaymotivation"],
            ["#foodie"],
            ["#tech", "#release"],
            ["#running"],
        ],
    ),
]
SearchText = Annotated[
    str,
    Field(
        min_length=1,
        max_length=100,
        description="Words to look for, or a #hashtag.",
        examples=["#hiking", "ramen", "coffee", "#running", "sunset", "release", "#gardening", "podcast"],
    ),
]
AccountQuery = Annotated[
    str,
    Field(
        min_length=1,
        max_length=100,
        description="Part of a name, a handle or words of a bio.",
        examples=["photographer", "runner", "coffee", "teacher", "designer"],
    ),
]

Mentions = Annotated[
    IdList[Account, "status = 'active' AND id != (SELECT account_id FROM sessions)"],
    Field(
        max_length=MAX_MENTIONS,
        description='Handles to mention, each with its @, e.g. ["@dwhitfield"]; up to 10.',
    ),
]
