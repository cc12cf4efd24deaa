"""Reading: the home timeline, an account's posts, one post with its replies, and post search.

Every read applies the same visibility rule (:func:`rules.visible`), so what a tool shows is what
the logged-in account may see: follows, private accounts, blocks and mutes all count.
"""

from __future__ import annotations

from servers.domains.social_media.model import (
    Account,
    Post,
    SearchText,
    Session,
    social_media,
)
from servers.domains.social_media.rules import (
    FOLLOWING,
    ME,
    MUTED,
    READABLE,
    account,
    can_read,
    views,
    visible,
    visible_post,
)
from servers.kit import Day, Db, Offset, PageSize, Ref, ToolError


@social_media.tool(
    needs=[Session],
    returns=Post,
    says=[
        "what's new on my timeline?",
        "show me the latest {limit} posts in my feed",
        "show my feed from before post {before_post}",
    ],
)
def get_home_timeline(db: Db, limit: PageSize = 20, before_post: Ref[Post, visible()] | None = None) -> dict:
    """Your home timeline, newest first: posts, replies and reposts of the accounts you follow
    (approved follows only) and your own. Muted accounts, blocked accounts and posts you may not
    see are left out.

    Args:
        limit: How many entries to return.
        before_post: Continue below this post (the next_before_post of the previous page).
    """
    db.actor()
    # "+p.author_id" keeps SQLite off the author index: walking posts newest first and stopping at
    # the page is ~8x faster than collecting every followed account's posts and sorting them.
    where = (
        f"(+p.author_id = {ME} OR +p.author_id IN {FOLLOWING}) AND p.author_id NOT IN {MUTED} "
        f"AND (p.repost_of_id IS NULL OR (SELECT o.author_id FROM posts o WHERE o.id = p.repost_of_id) "
        f"NOT IN {MUTED}) AND {visible('p')}"
    )
    params: list = []
    if before_post is not None:
        anchor = db.get(Post, before_post)
        where += " AND (p.created_at < ? OR (p.created_at = ? AND p.id < ?))"
        params += [anchor["created_at"], anchor["created_at"], anchor["id"]]
    rows = db.all(
        f"SELECT p.* FROM posts p WHERE {where} ORDER BY p.created_at DESC, p.id DESC LIMIT ?",
        *params,
        limit + 1,
    )
    more = len(rows) > limit
    rows = rows[:limit]
    return {
        "posts": views(db, rows),
        "count": len(rows),
        "next_before_post": rows[-1]["id"] if more and rows else None,
    }


@social_media.tool(
    needs=[Session],
    returns=Post,
    says=[
        "show me the posts of {handle}",
        "what has {handle} been posting lately?",
        "list my own posts, replies included",
    ],
)
def get_account_posts(
    db: Db,
    handle: Ref[Account, f"{READABLE} AND id IN (SELECT author_id FROM posts)"] | None = None,
    include_replies: bool = False,
    include_reposts: bool = True,
    limit: PageSize = 20,
    offset: Offset = 0,
) -> dict:
    """An account's posts that you may see, newest first. A private account's posts need an approved
    follow; blocks hide them both ways.

    Args:
        handle: The account; omit for your own posts.
        include_replies: Also list its replies to other posts.
        include_reposts: Also list what it reposted.
    """
    viewer = db.actor()
    row = account(db, handle, live=False) if handle else viewer
    if row["status"] != "active" and row["id"] != viewer["id"]:
        raise ToolError(f"account {row['id']} is {row['status']}; its posts are not shown")
    can_read(db, viewer, row)
    where = f"p.author_id = ? AND {visible('p')}"
    if not include_replies:
        where += " AND p.reply_to_id IS NULL"
    if not include_reposts:
        where += " AND p.repost_of_id IS NULL"
    page = db.page(
        f"SELECT p.* FROM posts p WHERE {where} ORDER BY p.created_at DESC, p.id DESC",
        row["id"],
        limit=limit,
        offset=offset,
        key="posts",
    )
    return {"handle": row["id"], **page, "posts": views(db, page["posts"])}


@social_media.tool(
    needs=[Session],
    returns=Post,
    says=["show me post {post} and its replies", "open post {post}", "who replied to post {post}?"],
)
def get_post(db: Db, post: Ref[Post, visible()], limit: PageSize = 20, offset: Offset = 0) -> dict:
    """One post with its tags, mentions, like/repost/reply counts, and its replies you may see
    (one level, oldest first).

    Args:
        post: The post id.
        limit: How many replies to show.
        offset: Replies to skip, for paging.
    """
    row = visible_post(db, post)
    view = views(db, [row])[0]
    target = row["repost_of_id"] or row["id"]
    page = db.page(
        f"SELECT p.* FROM posts p WHERE p.reply_to_id = ? AND {visible('p')} ORDER BY p.created_at, p.id",
        target,
        limit=limit,
        offset=offset,
        key="replies",
    )
    return {**view, "replies_page": {**page, "replies": views(db, page["replies"])}}


@social_media.tool(
    needs=[Session],
    returns=Post,
    says=[
        "search posts for {query}",
        "find posts about {query} by {author}",
        "what are people saying about {query} since {since_day}?",
    ],
)
def search_posts(
    db: Db,
    query: SearchText,
    author: Ref[Account, READABLE] | None = None,
    since_day: Day | None = None,
    limit: PageSize = 20,
    offset: Offset = 0,
) -> dict:
    """Posts you may see that contain every word of the query, or carry the #hashtag, newest first.

    Args:
        query: Words to look for (all must appear), or one #hashtag.
        author: Only posts by this account.
        since_day: Only posts from this day on.
    """
    viewer = db.actor()
    words = query.split()
    if not words:
        raise ToolError("the query is empty; give words or a #hashtag")
    # the cheap filters first: SQLite checks the terms in order, and the visibility rule is six
    # membership tests a row, so it should only run on rows that already match the words
    # (+: not by the repost_of_id index, which would walk every original post; see ORIGINAL_VISIBLE)
    where, params = ["+p.repost_of_id IS NULL"], []
    if len(words) == 1 and words[0].startswith("#"):
        where.append("p.id IN (SELECT post_id FROM post_tags WHERE tag = ?)")
        params.append(words[0].casefold())
    else:
        for w in words:
            where.append("p.content LIKE ? ESCAPE '\\'")
            params.append("%" + w.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%")
    if author is not None:
        who = account(db, author, live=False)
        can_read(db, viewer, who)
        where.append("p.author_id = ?")
        params.append(who["id"])
    if since_day is not None:
        where.append("p.created_at >= ?")
        params.append(since_day)
    where.append(visible("p"))
    page = db.page(
        f"SELECT p.* FROM posts p WHERE {' AND '.join(where)} ORDER BY p.created_at DESC, p.id DESC",
        *params,
        limit=limit,
        offset=offset,
        key="posts",
    )
    return {"query": query, **page, "posts": views(db, page["posts"])}
