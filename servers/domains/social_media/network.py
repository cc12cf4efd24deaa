"""Who follows whom: follows and follow requests, blocks and mutes."""

from __future__ import annotations

from typing import Literal

from servers.domains.social_media.model import (
    MAX_FOLLOWING,
    Account,
    Block,
    Follow,
    Mute,
    Notification,
    Session,
    social_media,
)
from servers.domains.social_media.rules import (
    FOLLOWABLE,
    FOLLOWED,
    I_BLOCKED,
    ME,
    MUTED,
    OTHERS,
    READABLE,
    REQUESTED_ME,
    account,
    blocked,
    can_read,
    follows,
    notify,
    posting_account,
)
from servers.kit import Db, Offset, PageSize, Ref, ToolError

LIMIT = MAX_FOLLOWING  # a module global, so tests can lower it


def _other(db: Db, mine: dict, handle: str, what: str, *, live: bool = True) -> dict:
    row = account(db, handle, live=live)
    if row["id"] == mine["id"]:
        raise ToolError(f"you cannot {what} yourself")
    return row


@social_media.tool(
    needs=[Session],
    writes=[Follow, Notification],
    returns=Follow,
    idempotent=True,
    says=["follow {handle}", "start following {handle} for me"],
)
def follow_account(db: Db, handle: Ref[Account, FOLLOWABLE]) -> dict:
    """Follow an account. A private account gets a follow request that it must approve (the follow
    is pending until then); either way the account is notified. At most 5,000 follows.

    Args:
        handle: The account to follow.
    """
    mine = posting_account(db)
    other = _other(db, mine, handle, "follow")
    why = blocked(db, mine["id"], other["id"])
    if why:
        raise ToolError(f"cannot follow {other['id']}: {why}")
    done = follows(db, mine["id"], other["id"])
    if done:
        state = (
            "your follow request is still pending"
            if done["status"] == "pending"
            else "you already follow them"
        )
        raise ToolError(f"cannot follow {other['id']} again: {state} (since {done['at'][:10]})")
    n = db.scalar("SELECT count(*) FROM follows WHERE follower_id = ?", mine["id"])
    if n >= LIMIT:
        raise ToolError(f"you follow {n:,} accounts, the most allowed is {LIMIT:,}; unfollow some first")
    status = "pending" if other["is_private"] else "active"
    row = db.insert(Follow, follower_id=mine["id"], followee_id=other["id"], status=status, at=db.stamp())
    notify(db, other["id"], "follow_request" if status == "pending" else "follow", mine["id"])
    return {**row, "private_account": bool(other["is_private"])}


@social_media.tool(
    needs=[Session],
    writes=[Follow],
    returns=Account,
    idempotent=True,
    says=["unfollow {handle}", "stop following {handle}", "withdraw my follow request to {handle}"],
)
def unfollow_account(db: Db, handle: Ref[Account, FOLLOWED]) -> dict:
    """Stop following an account, or withdraw a pending follow request.

    Args:
        handle: The account to unfollow.
    """
    mine = db.actor()
    other = _other(db, mine, handle, "unfollow", live=False)
    done = follows(db, mine["id"], other["id"])
    if done is None:
        raise ToolError(f"you do not follow {other['id']} and have no pending request to them")
    db.delete(Follow, done["id"])
    return {"unfollowed": other["id"], "was": done["status"]}


@social_media.tool(
    needs=[Session],
    returns=Account,
    says=["who follows {handle}?", "list the accounts {handle} is {direction}", "who am I following?"],
)
def list_follows(
    db: Db,
    handle: Ref[Account, READABLE] | None = None,
    direction: Literal["followers", "following"] = "followers",
    limit: PageSize = 20,
    offset: Offset = 0,
) -> dict:
    """An account's followers or the accounts it follows (approved follows only), newest first.
    A private account's lists need an approved follow.

    Args:
        handle: The account; omit for your own.
        direction: followers (who follows the account) or following (whom it follows).
    """
    viewer = db.actor()
    row = account(db, handle, live=False) if handle else viewer
    can_read(db, viewer, row)
    mine, theirs = (
        ("follower_id", "followee_id") if direction == "following" else ("followee_id", "follower_id")
    )
    page = db.page(
        f"SELECT f.{theirs} AS id, a.display_name, f.at FROM follows f JOIN accounts a ON a.id = f.{theirs} "
        f"WHERE f.{mine} = ? AND f.status = 'active' ORDER BY f.at DESC, f.id DESC",
        row["id"],
        limit=limit,
        offset=offset,
        key="accounts",
    )
    return {"handle": row["id"], "direction": direction, **page}


@social_media.tool(
    needs=[Session],
    returns=Account,
    says=["show my pending follow requests", "who is waiting for me to approve their follow request?"],
)
def list_follow_requests(db: Db, limit: PageSize = 20, offset: Offset = 0) -> dict:
    """The pending requests to follow you (on a private account), oldest first."""
    mine = db.actor()
    return db.page(
        "SELECT f.follower_id AS id, a.display_name, a.bio, f.at FROM follows f JOIN accounts a "
        "ON a.id = f.follower_id WHERE f.followee_id = ? AND f.status = 'pending' ORDER BY f.at, f.id",
        mine["id"],
        limit=limit,
        offset=offset,
        key="requests",
    )


@social_media.tool(
    needs=[Session],
    writes=[Follow, Notification],
    returns=Follow,
    idempotent=True,
    says=[
        "{action} the follow request from {handle}",
        "{handle} asked to follow me; please {action} it",
    ],
)
def respond_to_follow_request(
    db: Db, handle: Ref[Account, REQUESTED_ME], action: Literal["approve", "deny"]
) -> dict:
    """Approve (they become a follower, and are told) or deny (the request is dropped) a pending
    request to follow you.

    Args:
        handle: Who asked to follow you.
        action: approve or deny.
    """
    mine = posting_account(db)
    other = _other(db, mine, handle, "answer a follow request from", live=False)
    req = follows(db, other["id"], mine["id"])
    if req is None or req["status"] != "pending":
        state = "already follows you" if req else "has not asked to follow you"
        raise ToolError(f"no pending follow request from {other['id']}: {other['id']} {state}")
    if action == "deny":
        db.delete(Follow, req["id"])
        return {"denied": other["id"]}
    row = db.update(Follow, req["id"], status="active")
    notify(db, other["id"], "follow", mine["id"])
    return {"approved": other["id"], "follow": row}


@social_media.tool(
    needs=[Session],
    writes=[Block, Follow],
    returns=Block,
    destructive=True,
    idempotent=True,
    says=["block {handle}", "I never want to hear from {handle} again, block them"],
)
def block_account(
    db: Db, handle: Ref[Account, f"id != {ME} AND status != 'deactivated' AND id NOT IN {I_BLOCKED}"]
) -> dict:
    """Block an account: follows between you are removed both ways (for good), and neither of you
    can follow, reply to, like or repost the other or see the other's posts.

    Args:
        handle: The account to block.
    """
    mine = db.actor()
    other = _other(db, mine, handle, "block", live=False)
    if db.scalar("SELECT 1 FROM blocks WHERE user_id = ? AND target_id = ?", mine["id"], other["id"]):
        raise ToolError(f"you have already blocked {other['id']}")
    removed = db.execute(
        "DELETE FROM follows WHERE (follower_id = ?1 AND followee_id = ?2) OR (follower_id = ?2 AND followee_id = ?1)",
        mine["id"],
        other["id"],
    )
    row = db.insert(Block, user_id=mine["id"], target_id=other["id"], at=db.stamp())
    return {**row, "follows_removed": removed}


@social_media.tool(
    needs=[Session],
    writes=[Block],
    returns=Account,
    idempotent=True,
    says=["unblock {handle}", "lift my block on {handle}"],
)
def unblock_account(db: Db, handle: Ref[Account, f"id IN {I_BLOCKED}"]) -> dict:
    """Lift a block you set (earlier follows are not restored).

    Args:
        handle: The account to unblock.
    """
    mine = db.actor()
    other = _other(db, mine, handle, "unblock", live=False)
    row = db.one("SELECT id FROM blocks WHERE user_id = ? AND target_id = ?", mine["id"], other["id"])
    if row is None:
        raise ToolError(f"you have not blocked {other['id']}")
    db.delete(Block, row["id"])
    return {"unblocked": other["id"]}


@social_media.tool(
    needs=[Session],
    writes=[Mute],
    returns=Mute,
    idempotent=True,
    says=["mute {handle}", "mute {handle}, I don't want to see their posts in my feed anymore"],
)
def mute_account(db: Db, handle: Ref[Account, f"{OTHERS} AND id NOT IN {MUTED}"]) -> dict:
    """Mute an account: its posts and reposts of its posts leave your home timeline; you still follow it.

    Args:
        handle: The account to mute.
    """
    mine = db.actor()
    other = _other(db, mine, handle, "mute", live=False)
    if db.scalar("SELECT 1 FROM mutes WHERE user_id = ? AND target_id = ?", mine["id"], other["id"]):
        raise ToolError(f"you have already muted {other['id']}")
    return db.insert(Mute, user_id=mine["id"], target_id=other["id"], at=db.stamp())


@social_media.tool(
    needs=[Session],
    writes=[Mute],
    returns=Account,
    idempotent=True,
    says=["unmute {handle}", "I want to see posts from {handle} in my feed again, unmute them"],
)
def unmute_account(db: Db, handle: Ref[Account, f"id IN {MUTED}"]) -> dict:
    """Unmute an account, so its posts show in your home timeline again.

    Args:
        handle: The account to unmute.
    """
    mine = db.actor()
    other = _other(db, mine, handle, "unmute", live=False)
    row = db.one("SELECT id FROM mutes WHERE user_id = ? AND target_id = ?", mine["id"], other["id"])
    if row is None:
        raise ToolError(f"you have not muted {other['id']}")
    db.delete(Mute, row["id"])
    return {"unmuted": other["id"]}
