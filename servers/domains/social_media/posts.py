"""Writing: posts (with tags and mentions), replies, deleting, reposting and undoing a repost.

Posts are append-only: a delete or an undone repost sets the row's ``deleted`` tombstone.
"""

from __future__ import annotations

from servers.domains.social_media.model import (
    Mentions,
    Notification,
    Post,
    PostMention,
    PostTag,
    PostText,
    ReplyText,
    Session,
    TagList,
    Visibility,
    social_media,
)
from servers.domains.social_media.rules import (
    MY_POSTS,
    MY_REPOSTS,
    ORIGINAL_VISIBLE,
    REPOSTABLE,
    check_mentions,
    check_tags,
    check_text,
    notify,
    posting_account,
    views,
    visible_post,
)
from servers.kit import Db, Ref, ToolError


def _publish(
    db: Db,
    author: str,
    content: str,
    visibility: str,
    tags: list[str],
    mentions: list[str],
    reply_to: str | None = None,
) -> dict:
    """Insert a post with its tags and mentions; mentioned accounts are notified (a reply's author
    hears of it as a reply instead)."""
    post = db.insert(
        Post,
        author_id=author,
        content=content,
        reply_to_id=reply_to,
        repost_of_id=None,
        visibility=visibility,
        created_at=db.stamp(),
        deleted=False,
        deleted_at=None,
    )
    for tag in tags:
        db.add(PostTag, post_id=post["id"], tag=tag)
    for m in mentions:
        db.add(PostMention, post_id=post["id"], account_id=m)
        if reply_to is None:
            notify(db, m, "mention", author, post["id"])
    return post


@social_media.tool(
    needs=[Session],
    writes=[Post, PostTag, PostMention, Notification],
    returns=Post,
    says=[
        "post '{content}'",
        "share '{content}' with the tags {tags}",
        "post '{content}' and mention {mentions}",
        "post '{content}' with visibility set to {visibility}",
    ],
)
def create_post(
    db: Db,
    content: PostText,
    tags: TagList | None = None,
    mentions: Mentions | None = None,
    visibility: Visibility = "public",
) -> dict:
    """Publish a post of 1-280 characters, with up to 10 #tags and up to 10 @mentions (each
    mentioned account is notified).

    Args:
        content: The text.
        tags: Hashtags, each # followed by letters, digits or underscores.
        mentions: Handles of active accounts to mention, each with its @.
        visibility: public (everyone; on a private account only approved followers), followers
            (approved followers only) or mentioned (only the mentioned accounts).
    """
    mine = posting_account(db)
    body = check_text(content)
    tag_list = check_tags(tags)
    mentioned = check_mentions(db, mine["id"], mentions)
    if visibility == "mentioned" and not mentioned:
        raise ToolError("a post with visibility 'mentioned' needs at least one mention")
    post = _publish(db, mine["id"], body, visibility, tag_list, mentioned)
    return views(db, [post])[0]


@social_media.tool(
    needs=[Session],
    writes=[Post, PostMention, Notification],
    returns=Post,
    says=["reply '{content}' to post {post}", "answer post {post} with '{content}'"],
)
def reply_to_post(
    db: Db,
    post: Ref[Post, ORIGINAL_VISIBLE],
    content: ReplyText,
    visibility: Visibility = "public",
) -> dict:
    """Reply to a post you can see (1-280 characters); its author is notified. Deleted posts,
    reposts (reply to the original) and accounts that block you or that you block take no replies.

    Args:
        post: The post to reply to.
        content: The reply's text.
        visibility: public, followers, or mentioned (only the author of the post replied to).
    """
    mine = posting_account(db)
    parent = visible_post(db, post, original=True)
    body = check_text(content, "a reply")
    mentioned = (
        [parent["author_id"]] if visibility == "mentioned" and parent["author_id"] != mine["id"] else []
    )
    if visibility == "mentioned" and not mentioned:
        raise ToolError("a reply to your own post cannot be 'mentioned'-only; nobody else would see it")
    reply = _publish(db, mine["id"], body, visibility, [], mentioned, reply_to=parent["id"])
    notify(db, parent["author_id"], "reply", mine["id"], reply["id"])
    return views(db, [reply])[0]


@social_media.tool(
    needs=[Session],
    writes=[Post],
    returns=Post,
    destructive=True,
    idempotent=True,
    says=["delete my post {post}", "remove post {post} from my profile"],
)
def delete_post(db: Db, post: Ref[Post, MY_POSTS]) -> dict:
    """Delete one of your posts or replies. It disappears for everyone, with its likes and the
    reposts of it; the replies to it stay. To remove a repost, use undo_repost.

    Args:
        post: The post to delete.
    """
    mine = db.actor()
    row = db.get(Post, post)
    if row["author_id"] != mine["id"]:
        raise ToolError(f"post {post} is by {row['author_id']}; only its author can delete it")
    if row["deleted"]:
        raise ToolError(f"post {post} is already deleted (since {row['deleted_at']})")
    if row["repost_of_id"]:
        raise ToolError(f"post {post} is your repost of {row['repost_of_id']}; undo_repost removes it")
    db.update(Post, post, deleted=True, deleted_at=db.stamp())
    return {"deleted": post, "at": db.stamp()}


@social_media.tool(
    needs=[Session],
    writes=[Post, Notification],
    returns=Post,
    idempotent=True,
    says=["repost post {post}", "share post {post} with my followers"],
)
def repost(db: Db, post: Ref[Post, REPOSTABLE]) -> dict:
    """Repost a public post to your followers, once per post; its author is notified. Posts of
    private accounts, followers-only and mentioned-only posts cannot be reposted.

    Args:
        post: The post to repost (the original, not someone's repost of it).
    """
    mine = posting_account(db)
    original = visible_post(db, post, original=True)
    if original["visibility"] != "public":
        raise ToolError(f"post {post} is {original['visibility']}-only; only public posts can be reposted")
    if db.scalar("SELECT is_private FROM accounts WHERE id = ?", original["author_id"]):
        raise ToolError(
            f"post {post} is by {original['author_id']}, a private account; it cannot be reposted"
        )
    done = db.one(
        "SELECT id FROM posts WHERE author_id = ? AND repost_of_id = ? AND deleted = 0", mine["id"], post
    )
    if done:
        raise ToolError(f"you already reposted post {post} (as {done['id']}); a post can be reposted once")
    row = db.insert(
        Post,
        author_id=mine["id"],
        content="",
        reply_to_id=None,
        repost_of_id=post,
        visibility="public",
        created_at=db.stamp(),
        deleted=False,
        deleted_at=None,
    )
    notify(db, original["author_id"], "repost", mine["id"], post)
    return views(db, [row])[0]


@social_media.tool(
    needs=[Session],
    writes=[Post],
    returns=Post,
    idempotent=True,
    says=["undo my repost of post {post}", "take back my repost of {post}"],
)
def undo_repost(db: Db, post: Ref[Post, MY_REPOSTS]) -> dict:
    """Remove your repost of a post (the original stays).

    Args:
        post: The original post you reposted.
    """
    mine = db.actor()
    row = db.one(
        "SELECT * FROM posts WHERE author_id = ? AND repost_of_id = ? AND deleted = 0", mine["id"], post
    )
    if row is None:
        target = db.get(Post, post)
        hint = (
            f"; post {post} is itself a repost of {target['repost_of_id']}" if target["repost_of_id"] else ""
        )
        raise ToolError(f"you have not reposted post {post}{hint}")
    db.update(Post, row["id"], deleted=True, deleted_at=db.stamp())
    return {"undone": row["id"], "post": post}
