"""Likes (once per post) and notifications."""

from __future__ import annotations

from servers.domains.social_media.model import (
    Like,
    Notification,
    NotificationKind,
    Post,
    Session,
    social_media,
)
from servers.domains.social_media.rules import LIKEABLE, ME, MY_LIKES, notify, posting_account, visible_post
from servers.kit import Db, IdList, Offset, PageSize, Ref, ToolError


@social_media.tool(
    needs=[Session],
    writes=[Like, Notification],
    returns=Post,
    idempotent=True,
    says=["like post {post}", "give post {post} a like"],
)
def like_post(db: Db, post: Ref[Post, LIKEABLE]) -> dict:
    """Like a post you can see, once; its author is notified. Deleted posts, reposts (like the
    original) and posts of accounts that block you or that you block cannot be liked.

    Args:
        post: The post to like.
    """
    mine = posting_account(db)
    row = visible_post(db, post, original=True)
    done = db.one("SELECT * FROM likes WHERE account_id = ? AND post_id = ?", mine["id"], post)
    if done:
        raise ToolError(f"you already liked post {post} (at {done['at']}); a post can be liked once")
    db.add(Like, account_id=mine["id"], post_id=post, at=db.stamp())
    notify(db, row["author_id"], "like", mine["id"], post)
    likes = db.scalar("SELECT count(*) FROM likes WHERE post_id = ?", post)
    return {"liked": post, "author": row["author_id"], "likes": likes}


@social_media.tool(
    needs=[Session],
    writes=[Like],
    returns=Post,
    idempotent=True,
    says=["unlike post {post}", "remove my like from post {post}"],
)
def unlike_post(db: Db, post: Ref[Post, MY_LIKES]) -> dict:
    """Take back your like of a post.

    Args:
        post: The post you liked.
    """
    mine = posting_account(db)
    db.get(Post, post)
    done = db.one("SELECT id FROM likes WHERE account_id = ? AND post_id = ?", mine["id"], post)
    if done is None:
        raise ToolError(f"you have not liked post {post}")
    db.delete(Like, done["id"])
    likes = db.scalar("SELECT count(*) FROM likes WHERE post_id = ?", post)
    return {"unliked": post, "likes": likes}


@social_media.tool(
    needs=[Session],
    returns=Notification,
    says=[
        "show my notifications",
        "any unread notifications?",
        "show my {kind} notifications",
    ],
)
def get_notifications(
    db: Db,
    unread_only: bool = False,
    kind: NotificationKind | None = None,
    limit: PageSize = 20,
    offset: Offset = 0,
) -> dict:
    """Your notifications, newest first, with the unread count. Reading them marks nothing; use
    mark_notifications_read.

    Args:
        unread_only: Only notifications not yet read.
        kind: Only one kind: like, repost, reply, mention, follow or follow_request.
    """
    mine = db.actor()
    where, params = ["account_id = ?"], [mine["id"]]
    if unread_only:
        where.append("read = 0")
    if kind is not None:
        where.append("kind = ?")
        params.append(kind)
    page = db.page(
        f"SELECT * FROM notifications WHERE {' AND '.join(where)} ORDER BY at DESC, id DESC",
        *params,
        limit=limit,
        offset=offset,
        key="notifications",
    )
    unread = db.scalar("SELECT count(*) FROM notifications WHERE account_id = ? AND read = 0", mine["id"])
    return {**page, "unread": unread}


@social_media.tool(
    needs=[Session],
    writes=[Notification],
    returns=Notification,
    idempotent=True,
    says=["mark notifications {notifications} as read", "mark all my notifications as read"],
)
def mark_notifications_read(
    db: Db, notifications: IdList[Notification, f"account_id = {ME} AND read = 0"] | None = None
) -> dict:
    """Mark notifications as read: the ones given, or every unread one when none are given.

    Args:
        notifications: Ids of your unread notifications; omit to mark all of them.
    """
    mine = db.actor()
    if notifications is None:
        n = db.execute("UPDATE notifications SET read = 1 WHERE account_id = ? AND read = 0", mine["id"])
        if n == 0:
            raise ToolError("you have no unread notifications")
        return {"marked_read": n, "unread": 0}
    for nid in notifications:
        row = db.get(Notification, nid)
        if row["account_id"] != mine["id"]:
            raise ToolError(
                f"notification {nid} is not yours; only {mine['id']}'s notifications can be marked"
            )
        if row["read"]:
            raise ToolError(f"notification {nid} is already read")
    marks = ",".join("?" * len(notifications))
    db.execute(f"UPDATE notifications SET read = 1 WHERE id IN ({marks})", *notifications)
    unread = db.scalar("SELECT count(*) FROM notifications WHERE account_id = ? AND read = 0", mine["id"])
    return {"marked_read": len(notifications), "unread": unread}
