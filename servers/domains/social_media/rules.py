"""Who is acting, who may see what, and the checks several tools share.

The visibility rule is written once, as SQL over the session row, so the tools that read posts and
the sampler conditions that pick good posts for the generator agree by construction.
"""

from __future__ import annotations

import re
from typing import Any

from servers.domains.social_media.model import MAX_CHARS, TAG_RE, Account, Notification, Post
from servers.kit import Db, ToolError

ME = "(SELECT account_id FROM sessions)"
FOLLOWING = f"(SELECT followee_id FROM follows WHERE follower_id = {ME} AND status = 'active')"
BLOCKED_ME = f"(SELECT user_id FROM blocks WHERE target_id = {ME})"
I_BLOCKED = f"(SELECT target_id FROM blocks WHERE user_id = {ME})"
MUTED = f"(SELECT target_id FROM mutes WHERE user_id = {ME})"
PRIVATE = "(SELECT id FROM accounts WHERE is_private = 1)"
GONE = "(SELECT id FROM accounts WHERE status != 'active')"


def _core(p: str) -> str:
    """SQL: the session account may see post row ``p`` itself (not looking through a repost)."""
    return (
        f"{p}.deleted = 0 AND {p}.author_id NOT IN {GONE} AND {p}.author_id NOT IN {I_BLOCKED} "
        f"AND {p}.author_id NOT IN {BLOCKED_ME} AND ({p}.author_id = {ME} "
        f"OR ({p}.visibility = 'public' AND ({p}.author_id NOT IN {PRIVATE} OR {p}.author_id IN {FOLLOWING})) "
        f"OR ({p}.visibility = 'followers' AND {p}.author_id IN {FOLLOWING}) "
        f"OR ({p}.visibility = 'mentioned' AND {p}.id IN "
        f"(SELECT post_id FROM post_mentions WHERE account_id = {ME})))"
    )


def visible(p: str = "posts") -> str:
    """SQL: the session account may see post row ``p``; a repost also needs its original visible."""
    return (
        f"{_core(p)} AND ({p}.repost_of_id IS NULL OR EXISTS "
        f"(SELECT 1 FROM posts o WHERE o.id = {p}.repost_of_id AND {_core('o')}))"
    )


# Sampler conditions (over the table named in the Ref), shared with the tools' own checks.
# "+repost_of_id IS NULL": the unary plus keeps SQLite from answering the test with the
# repost_of_id index, which without table statistics it takes for selective although nearly every
# post is an original; it then walked all 15,000 posts (15 ms) even when a related author or reply
# named a handful. The test itself is the same.
ORIGINAL_VISIBLE = f"+repost_of_id IS NULL AND {_core('posts')}"
LIKEABLE = f"{ORIGINAL_VISIBLE} AND id NOT IN (SELECT post_id FROM likes WHERE account_id = {ME})"
MY_LIKES = f"id IN (SELECT post_id FROM likes WHERE account_id = {ME})"
MY_REPOSTS = (
    f"id IN (SELECT r.repost_of_id FROM posts r WHERE r.author_id = {ME} AND r.deleted = 0 "
    "AND r.repost_of_id IS NOT NULL)"
)
REPOSTABLE = (
    f"{ORIGINAL_VISIBLE} AND visibility = 'public' AND author_id NOT IN {PRIVATE} AND NOT ({MY_REPOSTS})"
)
MY_POSTS = (
    f"author_id = {ME} AND deleted = 0 AND +repost_of_id IS NULL"  # the author index, not the repost one
)
OTHERS = f"id != {ME} AND status = 'active' AND id NOT IN {I_BLOCKED} AND id NOT IN {BLOCKED_ME}"
READABLE = f"{OTHERS} AND (is_private = 0 OR id IN {FOLLOWING})"
FOLLOWABLE = f"{OTHERS} AND id NOT IN (SELECT followee_id FROM follows WHERE follower_id = {ME})"
FOLLOWED = f"id IN (SELECT followee_id FROM follows WHERE follower_id = {ME})"
REQUESTED_ME = f"id IN (SELECT follower_id FROM follows WHERE followee_id = {ME} AND status = 'pending')"


# -- the acting account -------------------------------------------------------------------------------


def posting_account(db: Db) -> dict:
    """The logged-in account, for a call that posts or interacts, which a suspended account may
    not do (it can still read)."""
    account = db.actor()
    if account["status"] != "active":
        raise ToolError(
            f"your account {account['id']} is {account['status']}; it can read but not post or interact"
        )
    return account


def handle_of(text: str) -> str:
    """A handle as stored: with its @, lowercase ("DWhitfield" -> "@dwhitfield")."""
    text = text.strip()
    return ("@" + text.lstrip("@")).casefold()


def account(db: Db, handle: str, *, live: bool = True) -> dict:
    """The account with this handle; ``live``: it must not be deactivated or suspended."""
    row = db.find(Account, handle_of(handle))
    if row is None:
        raise ToolError(f"no account has the handle {handle!r}; search_accounts finds accounts by name")
    if live and row["status"] != "active":
        raise ToolError(f"account {row['id']} is {row['status']}; it cannot be followed or interacted with")
    return row


def blocked(db: Db, mine: str, other: str) -> str | None:
    """Why ``mine`` and ``other`` cannot interact (a block either way), or None."""
    if db.scalar("SELECT 1 FROM blocks WHERE user_id = ? AND target_id = ?", mine, other):
        return f"you have blocked {other}; unblock them first"
    if db.scalar("SELECT 1 FROM blocks WHERE user_id = ? AND target_id = ?", other, mine):
        return f"{other} has blocked you"
    return None


def follows(db: Db, follower: str, followee: str) -> dict | None:
    return db.one("SELECT * FROM follows WHERE follower_id = ? AND followee_id = ?", follower, followee)


def can_read(db: Db, viewer: dict, target: dict) -> None:
    """A private account's posts and lists need an approved follow; blocks hide both ways."""
    if viewer["id"] == target["id"]:
        return
    why = blocked(db, viewer["id"], target["id"])
    if why:
        raise ToolError(f"cannot see the posts of {target['id']}: {why}")
    if target["is_private"]:
        f = follows(db, viewer["id"], target["id"])
        if f is None or f["status"] != "active":
            state = "your follow request is pending" if f else "follow them and wait for approval"
            raise ToolError(f"{target['id']} is a private account; {state}")


def visible_post(db: Db, post_id: str, *, original: bool = False) -> dict:
    """A post the session account may see, with the reason when it may not. ``original``: the call
    acts on the post itself (like, reply, repost), so a repost row is refused with its original."""
    post = db.get(Post, post_id)
    viewer = db.actor()
    if post["deleted"]:
        raise ToolError(f"post {post_id} was deleted")
    author = db.get(Account, post["author_id"])
    if author["status"] != "active":
        raise ToolError(f"post {post_id} is unavailable: its author {author['id']} is {author['status']}")
    why = blocked(db, viewer["id"], author["id"])
    if why:
        raise ToolError(f"post {post_id} is by {author['id']}, and {why}")
    if not db.scalar(f"SELECT 1 FROM posts WHERE id = ? AND {visible()}", post_id):
        raise ToolError(f"post {post_id} is not visible to you: {_hidden_why(db, post, author)}")
    if original and post["repost_of_id"]:
        raise ToolError(
            f"post {post_id} is a repost by {author['id']} of {post['repost_of_id']}; act on the original "
            f"post {post['repost_of_id']}"
        )
    return post


def _hidden_why(db: Db, post: dict, author: dict) -> str:
    if post["repost_of_id"]:
        return f"it reposts {post['repost_of_id']}, which you cannot see"
    if post["visibility"] == "mentioned":
        return "it is visible only to the accounts it mentions"
    if post["visibility"] == "followers":
        return f"it is for approved followers of {author['id']} only"
    return f"{author['id']} is a private account and you are not an approved follower"


# -- writing posts ---------------------------------------------------------------------------------


def check_text(text: str, what: str = "a post") -> str:
    body = text.strip()
    if not body:
        raise ToolError(f"{what} needs some text; it cannot be empty or only spaces")
    if len(body) > MAX_CHARS:
        raise ToolError(f"{what} may have at most {MAX_CHARS} characters; this one has {len(body)}")
    return body


def check_tags(tags: list[str] | None) -> list[str]:
    out: list[str] = []
    for tag in tags or []:
        if not re.fullmatch(TAG_RE, tag):
            raise ToolError(
                f"tag {tag!r} is not valid: a tag is # followed by letters, digits or underscores (e.g. #hiking)"
            )
        if tag.casefold() in out:
            raise ToolError(f"tag {tag} is given twice")
        out.append(tag.casefold())
    return out


def check_mentions(db: Db, author: str, mentions: list[str] | None) -> list[str]:
    out: list[str] = []
    for m in mentions or []:
        if not m.startswith("@"):
            raise ToolError(f"mention {m!r} must start with @ (e.g. @{m.strip().lstrip('@') or 'handle'})")
        row = db.find(Account, m.casefold())
        if row is None:
            raise ToolError(f"cannot mention {m}: no account has that handle")
        if row["status"] != "active":
            raise ToolError(f"cannot mention {row['id']}: the account is {row['status']}")
        if row["id"] == author:
            raise ToolError("you cannot mention yourself")
        if row["id"] in out:
            raise ToolError(f"{row['id']} is mentioned twice")
        out.append(row["id"])
    return out


def notify(db: Db, account_id: str, kind: str, actor: str, post: str | None = None) -> None:
    """Tell ``account_id`` what ``actor`` did (nobody is told about their own actions)."""
    if account_id != actor:
        db.add(
            Notification,
            account_id=account_id,
            kind=kind,
            actor_id=actor,
            post_id=post,
            read=False,
            at=db.stamp(),
        )


# -- showing posts ---------------------------------------------------------------------------------


def views(db: Db, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Posts as the app shows them: tags, mentions, counts, and whether you liked or reposted
    them; a repost shows who reposted it and the original post."""
    originals = {r["repost_of_id"] for r in rows if r["repost_of_id"]}
    extra = {}
    if originals:
        marks = ",".join("?" * len(originals))
        extra = {r["id"]: r for r in db.all(f"SELECT * FROM posts WHERE id IN ({marks})", *sorted(originals))}
    shown = {r["id"]: r for r in [*rows, *extra.values()] if not r["repost_of_id"]}
    info = _details(db, list(shown))
    out = []
    for r in rows:
        if r["repost_of_id"]:
            o = extra[r["repost_of_id"]]
            out.append(
                {
                    "id": r["id"],
                    "kind": "repost",
                    "reposted_by": r["author_id"],
                    "at": r["created_at"],
                    "post": _view(o, info),
                }
            )
        else:
            out.append(_view(r, info))
    return out


def _view(r: dict, info: dict[str, dict]) -> dict:
    view = {
        "id": r["id"],
        "kind": "reply" if r["reply_to_id"] else "post",
        "author": r["author_id"],
        "content": r["content"],
        "created_at": r["created_at"],
        "visibility": r["visibility"],
        "reply_to": r["reply_to_id"],
    }
    if r["deleted"]:
        return {**view, "content": "", "deleted": True}
    return {**view, **info.get(r["id"], {})}


def _details(db: Db, ids: list[str]) -> dict[str, dict]:
    if not ids:
        return {}
    marks = ",".join("?" * len(ids))
    viewer = db.acting()["account_id"]
    out: dict[str, dict] = {
        i: {
            "tags": [],
            "mentions": [],
            "like_count": 0,
            "repost_count": 0,
            "reply_count": 0,
            "liked_by_me": False,
            "reposted_by_me": False,
        }
        for i in ids
    }
    for r in db.all(f"SELECT post_id, tag FROM post_tags WHERE post_id IN ({marks}) ORDER BY id", *ids):
        out[r["post_id"]]["tags"].append(r["tag"])
    for r in db.all(
        f"SELECT post_id, account_id FROM post_mentions WHERE post_id IN ({marks}) ORDER BY id", *ids
    ):
        out[r["post_id"]]["mentions"].append(r["account_id"])
    for r in db.all(
        f"SELECT post_id, count(*) AS n, max(account_id = ?) AS mine FROM likes WHERE post_id IN ({marks}) "
        "GROUP BY post_id",
        viewer,
        *ids,
    ):
        out[r["post_id"]].update(like_count=r["n"], liked_by_me=bool(r["mine"]))
    for r in db.all(
        f"SELECT repost_of_id AS id, count(*) AS n, max(author_id = ?) AS mine FROM posts WHERE repost_of_id "
        f"IN ({marks}) AND deleted = 0 GROUP BY repost_of_id",
        viewer,
        *ids,
    ):
        out[r["id"]].update(repost_count=r["n"], reposted_by_me=bool(r["mine"]))
    for r in db.all(
        f"SELECT reply_to_id AS id, count(*) AS n FROM posts WHERE reply_to_id IN ({marks}) AND deleted = 0 "
        "GROUP BY reply_to_id",
        *ids,
    ):
        out[r["id"]]["reply_count"] = r["n"]
    return out
