"""Logging in and out, profiles, finding accounts, and per-account statistics."""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated

from pydantic import Field

from servers.domains.social_media.model import (
    Account,
    AccountQuery,
    Login,
    Password,
    Session,
    social_media,
)
from servers.domains.social_media.rules import READABLE, account, blocked, can_read, follows
from servers.kit import Db, Offset, PageSize, Ref, ToolError

# -- session ----------------------------------------------------------------------------------------


@social_media.tool(
    writes=[Session],
    returns=Session,
    idempotent=True,
    says=[
        "log me in as {email}, my password is {password}",
        "sign in to my social account with {email} and password {password}",
    ],
)
def login(
    db: Db,
    email: Ref[
        Login, "account_id IN (SELECT id FROM accounts WHERE person_id = 0 AND status != 'deactivated')"
    ],
    password: Password,
) -> dict:
    """Log in with the account's email and password; every other tool then acts as that account.
    Switches account if already logged in.

    Args:
        email: The email the account signs in with.
        password: The account's password.
    """
    cred = db.find(Login, email.strip().casefold())
    if cred is None or cred["password"] != password:
        raise ToolError(f"wrong email or password for {email!r}")
    row = db.get(Account, cred["account_id"])
    if row["status"] == "deactivated":
        raise ToolError(f"account {row['id']} is deactivated; it can no longer log in")
    db.set_acting(account_id=row["id"], logged_in_at=db.stamp())
    return {
        "logged_in": True,
        "handle": row["id"],
        "display_name": row["display_name"],
        "status": row["status"],
    }


# -- profiles ---------------------------------------------------------------------------------------


def _counts(db: Db, handle: str) -> dict:
    return {
        "posts": db.scalar(
            "SELECT count(*) FROM posts WHERE author_id = ? AND deleted = 0 AND repost_of_id IS NULL", handle
        ),
        "followers": db.scalar(
            "SELECT count(*) FROM follows WHERE followee_id = ? AND status = 'active'", handle
        ),
        "following": db.scalar(
            "SELECT count(*) FROM follows WHERE follower_id = ? AND status = 'active'", handle
        ),
    }


def _relationship(db: Db, viewer: str, other: str) -> dict:
    out_f, in_f = follows(db, viewer, other), follows(db, other, viewer)
    return {
        "you_follow": out_f["status"] if out_f else None,
        "follows_you": in_f["status"] if in_f else None,
        "blocked": blocked(db, viewer, other),
        "muted": bool(db.scalar("SELECT 1 FROM mutes WHERE user_id = ? AND target_id = ?", viewer, other)),
    }


@social_media.tool(
    needs=[Session],
    returns=Account,
    says=[
        "show me the profile of {handle}",
        "how many followers does {handle} have?",
        "what does my own profile look like?",
    ],
)
def get_profile(db: Db, handle: Ref[Account, "status != 'deactivated'"] | None = None) -> dict:
    """An account's profile: name, bio, verified and private flags, status, post/follower/following
    counts, and how it relates to you (follows, blocks, mutes).

    Args:
        handle: The account's handle; omit for your own profile.
    """
    viewer = db.actor()
    row = account(db, handle, live=False) if handle else viewer
    if row["status"] == "deactivated":
        raise ToolError(f"account {row['id']} is deactivated")
    out = {k: v for k, v in row.items() if k != "id"}
    out = {"handle": row["id"], **out, **_counts(db, row["id"])}
    if row["id"] == viewer["id"]:
        out["pending_requests"] = db.scalar(
            "SELECT count(*) FROM follows WHERE followee_id = ? AND status = 'pending'", row["id"]
        )
    else:
        out["relationship"] = _relationship(db, viewer["id"], row["id"])
    return out


@social_media.tool(
    needs=[Session],
    returns=Account,
    says=["find accounts matching {query}", "search for people with {query} in their profile"],
)
def search_accounts(db: Db, query: AccountQuery, limit: PageSize = 20, offset: Offset = 0) -> dict:
    """Accounts whose handle, name or bio contains the query (case-insensitive); deactivated
    accounts are left out.

    Args:
        query: Part of a handle, a name, or words of a bio.
    """
    db.actor()
    pattern = "%" + query.strip().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
    return db.page(
        "SELECT id, display_name, bio, verified, is_private, status FROM accounts "
        "WHERE status != 'deactivated' AND (id LIKE ? ESCAPE '\\' OR display_name LIKE ? ESCAPE '\\' "
        "OR bio LIKE ? ESCAPE '\\') ORDER BY verified DESC, id",
        pattern,
        pattern,
        pattern,
        limit=limit,
        offset=offset,
        key="accounts",
    )


Days = Annotated[int, Field(ge=1, le=90, description="How many days back, 1-90 (default 30).")]


@social_media.tool(
    needs=[Session],
    returns=Account,
    says=[
        "how did {handle} do over the last {days} days?",
        "give me the stats of {handle}",
        "show my account statistics for the past {days} days",
    ],
)
def get_account_stats(db: Db, handle: Ref[Account, READABLE] | None = None, days: Days = 30) -> dict:
    """Statistics of an account: followers, following, posts in total, and over the last ``days``
    days its posts, replies and reposts and the likes, reposts and replies its posts received.
    A private account's statistics need an approved follow.

    Args:
        handle: The account; omit for your own.
        days: The window, in days back from now.
    """
    viewer = db.actor()
    row = account(db, handle, live=False) if handle else viewer
    can_read(db, viewer, row)
    since = (db.now - timedelta(days=days)).isoformat(timespec="seconds")
    mine = "SELECT id FROM posts WHERE author_id = ?1 AND repost_of_id IS NULL"
    made = db.one(
        "SELECT coalesce(sum(reply_to_id IS NULL AND repost_of_id IS NULL), 0) AS posts, "
        "coalesce(sum(reply_to_id IS NOT NULL), 0) AS replies, coalesce(sum(repost_of_id IS NOT NULL), 0) "
        "AS reposts FROM posts WHERE author_id = ?1 AND deleted = 0 AND created_at >= ?2",
        row["id"],
        since,
    )
    got = db.one(
        f"SELECT (SELECT count(*) FROM likes WHERE post_id IN ({mine}) AND at >= ?2) AS likes, "
        f"(SELECT count(*) FROM posts WHERE repost_of_id IN ({mine}) AND deleted = 0 AND created_at >= ?2) "
        f"AS reposts, (SELECT count(*) FROM posts WHERE reply_to_id IN ({mine}) AND deleted = 0 "
        "AND created_at >= ?2) AS replies",
        row["id"],
        since,
    )
    totals = _counts(db, row["id"])
    return {
        "handle": row["id"],
        "followers": totals["followers"],
        "following": totals["following"],
        "posts_total": totals["posts"],
        "days": days,
        "since": since,
        "posts": made["posts"],
        "replies": made["replies"],
        "reposts": made["reposts"],
        "likes_received": got["likes"],
        "reposts_received": got["reposts"],
        "replies_received": got["replies"],
    }
