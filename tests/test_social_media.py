"""Social media's rules: refused calls name the values involved and change nothing; successful ones
change exactly the rows they should, and the timeline really follows follows, mutes and blocks."""

from __future__ import annotations

import pytest

from servers.domains.social_media import network
from servers.domains.social_media.rules import FOLLOWABLE, LIKEABLE, MY_POSTS, REPOSTABLE
from servers.kit import world
from servers.registry import get_domain
from tests.domain_helpers import DomainCalls, changes

DOMAIN = "social_media"
calls = DomainCalls(DOMAIN)
call, fails, rows, one = calls.call, calls.fails, calls.rows, calls.one
DISCOVERY = {"list_records", "search_records", "get_unique_values"}


@pytest.fixture
def sm(make_env):
    env = make_env(DOMAIN)
    return env, env.open()


def me(ep) -> str:
    return one(ep, "SELECT account_id FROM sessions")["account_id"]


def post_where(ep, where: str) -> dict:
    return one(ep, f"SELECT * FROM posts WHERE {where} ORDER BY id")


def tables(ep) -> set[str]:
    return {c["table"] for c in ep.diff()}


def inserted(ep, table: str) -> list[dict]:
    pks = sorted({c["pk"] for c in ep.diff() if c["table"] == table and c["op"] == "insert"})
    return [one(ep, f"SELECT * FROM {table} WHERE id = ?", pk) for pk in pks]


def stranger(ep, extra: str = "") -> str:
    """An active public account the persona has no follow, block or mute with."""
    return one(ep, f"SELECT id FROM accounts WHERE {FOLLOWABLE} AND is_private = 0 {extra} ORDER BY id")["id"]


def login_as(env, ep, handle: str) -> None:
    cred = one(ep, "SELECT id, password FROM logins WHERE account_id = ?", handle)
    call(env, ep, "login", email=cred["id"], password=cred["password"])


# -- catalogue and seed ------------------------------------------------------------------------------


def test_enough_tools_each_with_two_ways_to_ask():
    domain = get_domain(DOMAIN)
    own = [t for name, t in domain.tools.items() if name not in DISCOVERY and not t.hidden]
    assert len(own) >= 15
    assert all(len(t.says) >= 2 for t in own), [t.name for t in own if len(t.says) < 2]
    assert domain.append_only() == {
        "posts": frozenset({"deleted", "deleted_at"}),
        "post_tags": frozenset(),
        "post_mentions": frozenset(),
        "notifications": frozenset({"read"}),
    }
    assert set(domain.variants) == {"logged_out"} and domain.variants["logged_out"].first == "login"
    assert domain.tools["login"].params[1].sensitive
    assert domain.tools["delete_post"].annotations()["destructiveHint"]
    assert domain.tools["block_account"].annotations()["destructiveHint"]
    assert not domain.tools["create_post"].annotations()["idempotentHint"]
    assert domain.tools["get_home_timeline"].annotations()["readOnlyHint"]


def test_sampler_pools_at_medium(medium):
    def count(sql: str) -> int:
        return medium.execute(sql).fetchone()[0]

    persona = count("SELECT count(*) FROM accounts WHERE id = (SELECT account_id FROM sessions)")
    assert persona == 1
    assert count("SELECT count(*) FROM accounts") == 1200
    assert count("SELECT count(*) FROM posts") == 15_000
    assert count(f"SELECT count(*) FROM posts WHERE {LIKEABLE} AND visibility = 'public'") >= 5000
    assert count(f"SELECT count(*) FROM posts WHERE {REPOSTABLE}") >= 3000
    assert count(f"SELECT count(*) FROM accounts WHERE {FOLLOWABLE}") >= 800
    assert count(f"SELECT count(*) FROM posts WHERE {MY_POSTS}") >= 300
    assert count("SELECT count(*) FROM accounts WHERE is_private") >= 50
    assert count("SELECT count(*) FROM follows") >= 20_000
    assert count("SELECT count(*) FROM likes") >= 35_000
    assert (
        count("SELECT count(*) FROM (SELECT 1 FROM follows GROUP BY followee_id HAVING count(*) >= 300)")
        >= 15
    )
    me = "(SELECT account_id FROM sessions)"
    assert count(f"SELECT count(*) FROM follows WHERE follower_id = {me}") == 150
    assert count(f"SELECT count(*) FROM follows WHERE followee_id = {me} AND status = 'active'") >= 220
    assert count(f"SELECT count(*) FROM follows WHERE followee_id = {me} AND status = 'pending'") >= 5
    assert count(f"SELECT count(*) FROM notifications WHERE account_id = {me}") >= 300
    assert count(f"SELECT count(*) FROM notifications WHERE account_id = {me} AND read = 0") == 120
    assert count(f"SELECT count(*) FROM blocks WHERE user_id = {me}") >= 5
    assert count(f"SELECT count(*) FROM mutes WHERE user_id = {me}") >= 5
    assert count("SELECT count(*) FROM posts WHERE reply_to_id IS NOT NULL") >= 3000
    assert count("SELECT count(*) FROM posts WHERE repost_of_id IS NOT NULL") >= 1500
    assert count("SELECT count(DISTINCT tag) FROM post_tags") >= 50
    # every repost is of a public post of a public account, and nobody reposts twice
    assert (
        count(
            "SELECT count(*) FROM posts r JOIN posts o ON o.id = r.repost_of_id JOIN accounts a ON a.id = o.author_id "
            "WHERE o.visibility != 'public' OR a.is_private"
        )
        == 0
    )
    assert (
        count(
            "SELECT count(*) FROM (SELECT 1 FROM posts WHERE repost_of_id IS NOT NULL GROUP BY author_id, repost_of_id "
            "HAVING count(*) > 1)"
        )
        == 0
    )
    assert (
        count(
            "SELECT count(*) FROM follows f JOIN blocks b ON b.user_id = f.follower_id AND b.target_id = f.followee_id"
        )
        == 0
    )


def test_persona_is_the_world_persona_following_her_circle(sm):
    env, ep = sm
    w = world(0, "small")
    persona = one(ep, "SELECT * FROM accounts WHERE id = ?", me(ep))
    assert (persona["id"], persona["display_name"], persona["person_id"]) == (
        w.persona.handle,
        w.persona.name,
        0,
    )
    assert persona["is_private"]
    assert one(ep, "SELECT id FROM logins WHERE account_id = ?", persona["id"])["id"] == w.persona.email
    followees = {
        r["followee_id"] for r in rows(ep, "SELECT followee_id FROM follows WHERE follower_id = ?", me(ep))
    }
    circle = [p.handle for p in w.circle(w.persona, 25)]
    assert followees <= set(circle) and len(followees) >= 20


# -- session -------------------------------------------------------------------------------------------


def test_logged_out_needs_login_then_works(make_env):
    env = make_env(DOMAIN)
    ep = env.open({DOMAIN: "logged_out"})
    for tool, args in [
        ("get_home_timeline", {}),
        ("get_profile", {}),
        ("create_post", {"content": "hello"}),
        ("get_notifications", {}),
    ]:
        fails(env, ep, tool, r"^nobody is signed in; call login first$", **args)
    persona = world(0, "small").persona
    cred = one(ep, "SELECT * FROM logins WHERE id = ?", persona.email)
    fails(
        env,
        ep,
        "login",
        r"wrong email or password for '" + persona.email,
        email=persona.email,
        password="nope",
    )
    out = call(env, ep, "login", email=persona.email.upper(), password=cred["password"])
    assert out["handle"] == persona.handle
    assert set(tables(ep)) == {"sessions"}
    assert call(env, ep, "get_home_timeline", limit=5)["count"] == 5


def test_deactivated_cannot_log_in_and_suspended_cannot_post(sm):
    env, ep = sm
    gone = one(ep, "SELECT * FROM accounts WHERE status = 'deactivated' ORDER BY id")
    cred = one(ep, "SELECT * FROM logins WHERE account_id = ?", gone["id"])
    fails(
        env, ep, "login", f"account {gone['id']} is deactivated", email=cred["id"], password=cred["password"]
    )
    banned = one(ep, "SELECT * FROM accounts WHERE status = 'suspended' ORDER BY id")["id"]
    login_as(env, ep, banned)
    assert call(env, ep, "get_profile")["status"] == "suspended"
    fails(
        env, ep, "create_post", f"your account {banned} is suspended; it can read but not post", content="hi"
    )


# -- posting --------------------------------------------------------------------------------------------


def test_create_post_with_tags_and_mentions(sm):
    env, ep = sm
    friend = one(ep, "SELECT followee_id FROM follows WHERE follower_id = ? ORDER BY id", me(ep))[
        "followee_id"
    ]
    out = call(
        env, ep, "create_post", content="  Summit by noon  ", tags=["#Hiking", "#trails"], mentions=[friend]
    )
    assert (
        out["content"] == "Summit by noon"
        and out["tags"] == ["#hiking", "#trails"]
        and out["mentions"] == [friend]
    )
    assert tables(ep) == {"posts", "post_tags", "post_mentions", "notifications"}
    (post,) = inserted(ep, "posts")
    assert (post["author_id"], post["visibility"], post["deleted"]) == (me(ep), "public", 0)
    assert len(inserted(ep, "post_tags")) == 2
    (note,) = inserted(ep, "notifications")
    assert (note["account_id"], note["kind"], note["actor_id"], note["post_id"]) == (
        friend,
        "mention",
        me(ep),
        post["id"],
    )


def test_post_content_tags_and_mentions_are_checked(sm):
    env, ep = sm
    fails(env, ep, "create_post", "at most 280 characters; this one has 281", content="x" * 281)
    fails(env, ep, "create_post", "cannot be empty or only spaces", content="   ")
    fails(env, ep, "create_post", "tag 'summer-fun' is not valid", content="hi", tags=["summer-fun"])
    fails(env, ep, "create_post", "tag 'hiking' is not valid", content="hi", tags=["hiking"])
    fails(
        env,
        ep,
        "create_post",
        "tags: List should have at most 10 items",
        content="hi",
        tags=[f"#t{i}" for i in range(11)],
    )
    friend = stranger(ep)
    fails(
        env,
        ep,
        "create_post",
        f"mention '{friend[1:]}' must start with @",
        content="hi",
        mentions=[friend[1:]],
    )
    fails(
        env,
        ep,
        "create_post",
        "cannot mention @nobody_here: no account",
        content="hi",
        mentions=["@nobody_here"],
    )
    gone = one(ep, "SELECT id FROM accounts WHERE status != 'active' ORDER BY id")["id"]
    fails(env, ep, "create_post", f"cannot mention {gone}: the account is", content="hi", mentions=[gone])
    fails(env, ep, "create_post", "you cannot mention yourself", content="hi", mentions=[me(ep)])
    fails(
        env,
        ep,
        "create_post",
        "visibility 'mentioned' needs at least one mention",
        content="hi",
        visibility="mentioned",
    )


def test_reply_notifies_the_author_and_refuses_what_it_must(sm):
    env, ep = sm
    target = post_where(ep, f"{LIKEABLE} AND author_id != (SELECT account_id FROM sessions)")
    out = call(env, ep, "reply_to_post", post=target["id"], content="Count me in")
    assert out["kind"] == "reply" and out["reply_to"] == target["id"]
    (note,) = inserted(ep, "notifications")
    assert (note["account_id"], note["kind"], note["post_id"]) == (target["author_id"], "reply", out["id"])
    ep.reset()
    gone = post_where(ep, "deleted = 1")
    fails(env, ep, "reply_to_post", f"post {gone['id']} was deleted", post=gone["id"], content="hi")
    rp = post_where(
        ep,
        "repost_of_id IS NOT NULL AND deleted = 0 AND author_id IN (SELECT followee_id FROM follows "
        "WHERE follower_id = (SELECT account_id FROM sessions) AND status = 'active') AND repost_of_id IN "
        f"(SELECT id FROM posts WHERE {LIKEABLE})",
    )
    fails(
        env,
        ep,
        "reply_to_post",
        f"is a repost by {rp['author_id']} of {rp['repost_of_id']}",
        post=rp["id"],
        content="hi",
    )
    fails(env, ep, "reply_to_post", "at most 280 characters", post=target["id"], content="y" * 300)


def test_visibility_hides_followers_only_mentioned_and_private_posts(sm):
    env, ep = sm
    mine = me(ep)
    not_following = f"author_id NOT IN (SELECT followee_id FROM follows WHERE follower_id = '{mine}' AND status = 'active')"
    fo = post_where(
        ep,
        f"visibility = 'followers' AND deleted = 0 AND {not_following} AND author_id != '{mine}' "
        "AND author_id IN (SELECT id FROM accounts WHERE status = 'active')",
    )
    fails(env, ep, "get_post", f"for approved followers of {fo['author_id']} only", post=fo["id"])
    fails(env, ep, "like_post", "not visible to you", post=fo["id"])
    mo = post_where(
        ep,
        f"visibility = 'mentioned' AND deleted = 0 AND author_id != '{mine}' AND id NOT IN "
        f"(SELECT post_id FROM post_mentions WHERE account_id = '{mine}') AND author_id IN "
        "(SELECT id FROM accounts WHERE status = 'active')",
    )
    fails(env, ep, "get_post", "visible only to the accounts it mentions", post=mo["id"])
    private = one(
        ep,
        f"SELECT id FROM accounts WHERE is_private = 1 AND status = 'active' AND id != '{mine}' AND id NOT IN "
        f"(SELECT followee_id FROM follows WHERE follower_id = '{mine}') ORDER BY id",
    )["id"]
    fails(env, ep, "get_account_posts", f"{private} is a private account; follow them", handle=private)


def test_delete_post_only_by_its_author_and_only_once(sm):
    env, ep = sm
    mine = post_where(ep, MY_POSTS)
    out = call(env, ep, "delete_post", post=mine["id"])
    assert out["deleted"] == mine["id"]
    assert set(changes(ep)) == {("posts", mine["id"], "deleted"), ("posts", mine["id"], "deleted_at")}
    fails(env, ep, "delete_post", f"post {mine['id']} is already deleted", post=mine["id"])
    fails(env, ep, "get_post", f"post {mine['id']} was deleted", post=mine["id"])
    fails(env, ep, "like_post", f"post {mine['id']} was deleted", post=mine["id"])
    theirs = post_where(ep, f"author_id != '{me(ep)}' AND deleted = 0 AND repost_of_id IS NULL")
    fails(
        env,
        ep,
        "delete_post",
        f"post {theirs['id']} is by {theirs['author_id']}; only its author",
        post=theirs["id"],
    )


# -- likes and reposts ---------------------------------------------------------------------------------------


def test_like_once_and_unlike(sm):
    env, ep = sm
    target = post_where(ep, f"{LIKEABLE} AND author_id != (SELECT account_id FROM sessions)")
    before = len(rows(ep, "SELECT id FROM likes WHERE post_id = ?", target["id"]))
    out = call(env, ep, "like_post", post=target["id"])
    assert out["likes"] == before + 1
    assert tables(ep) == {"likes", "notifications"}
    (note,) = inserted(ep, "notifications")
    assert (note["account_id"], note["kind"], note["actor_id"]) == (target["author_id"], "like", me(ep))
    fails(env, ep, "like_post", f"you already liked post {target['id']}", post=target["id"])
    assert call(env, ep, "unlike_post", post=target["id"])["likes"] == before
    assert tables(ep) == {"notifications"}  # the like is gone again; the notification stays (append-only)
    fails(env, ep, "unlike_post", f"you have not liked post {target['id']}", post=target["id"])


def test_repost_once_public_only_and_undo(sm):
    env, ep = sm
    target = post_where(ep, REPOSTABLE)
    out = call(env, ep, "repost", post=target["id"])
    assert out["kind"] == "repost" and out["post"]["id"] == target["id"] and out["post"]["reposted_by_me"]
    (row,) = inserted(ep, "posts")
    assert (row["repost_of_id"], row["author_id"]) == (target["id"], me(ep))
    fails(
        env, ep, "repost", f"you already reposted post {target['id']} \\(as {row['id']}\\)", post=target["id"]
    )
    call(env, ep, "undo_repost", post=target["id"])
    assert one(ep, "SELECT deleted FROM posts WHERE id = ?", row["id"])["deleted"] == 1
    fails(env, ep, "undo_repost", f"you have not reposted post {target['id']}", post=target["id"])
    followers_only = post_where(
        ep, f"repost_of_id IS NULL AND visibility = 'followers' AND author_id = '{me(ep)}' AND deleted = 0"
    )
    fails(
        env, ep, "repost", "is followers-only; only public posts can be reposted", post=followers_only["id"]
    )
    own_public = post_where(ep, f"{MY_POSTS} AND visibility = 'public'")
    fails(env, ep, "repost", f"by {me(ep)}, a private account; it cannot be reposted", post=own_public["id"])


# -- the social graph and the timeline ----------------------------------------------------------------------


def test_follow_public_and_private_accounts(sm):
    env, ep = sm
    public = stranger(ep)
    out = call(env, ep, "follow_account", handle=public[1:].upper())  # handles are forgiving about @ and case
    assert (out["followee_id"], out["status"]) == (public, "active")
    (note,) = inserted(ep, "notifications")
    assert (note["account_id"], note["kind"]) == (public, "follow")
    fails(env, ep, "follow_account", f"cannot follow {public} again: you already follow them", handle=public)
    private = one(ep, f"SELECT id FROM accounts WHERE {FOLLOWABLE} AND is_private = 1 ORDER BY id")["id"]
    assert call(env, ep, "follow_account", handle=private)["status"] == "pending"
    fails(env, ep, "follow_account", "your follow request is still pending", handle=private)
    assert "follow_request" in {n["kind"] for n in inserted(ep, "notifications")}
    fails(env, ep, "follow_account", "you cannot follow yourself", handle=me(ep))
    call(env, ep, "unfollow_account", handle=private)
    fails(env, ep, "unfollow_account", f"you do not follow {private}", handle=private)


def test_follow_limit_and_blocks(sm, monkeypatch):
    env, ep = sm
    n = len(rows(ep, "SELECT id FROM follows WHERE follower_id = ?", me(ep)))
    monkeypatch.setattr(network, "LIMIT", n)
    fails(env, ep, "follow_account", f"you follow {n} accounts, the most allowed is {n}", handle=stranger(ep))
    monkeypatch.undo()
    mine_blocked = one(ep, "SELECT target_id FROM blocks WHERE user_id = ? ORDER BY id", me(ep))["target_id"]
    fails(
        env, ep, "follow_account", f"you have blocked {mine_blocked}; unblock them first", handle=mine_blocked
    )
    blocker = one(ep, "SELECT user_id FROM blocks WHERE target_id = ? ORDER BY id", me(ep))["user_id"]
    fails(env, ep, "follow_account", f"{blocker} has blocked you", handle=blocker)


def test_block_removes_follows_both_ways_and_hides_posts(sm):
    env, ep = sm
    mine = me(ep)
    mutual = one(
        ep,
        "SELECT a.followee_id AS id FROM follows a JOIN follows b ON b.follower_id = a.followee_id "
        "AND b.followee_id = a.follower_id WHERE a.follower_id = ? AND a.status = 'active' ORDER BY a.id",
        mine,
    )["id"]
    theirs = post_where(
        ep, f"author_id = '{mutual}' AND deleted = 0 AND repost_of_id IS NULL AND visibility = 'public'"
    )
    out = call(env, ep, "block_account", handle=mutual)
    assert out["follows_removed"] == 2
    assert not rows(
        ep,
        "SELECT id FROM follows WHERE (follower_id = ?1 AND followee_id = ?2) OR "
        "(follower_id = ?2 AND followee_id = ?1)",
        mine,
        mutual,
    )
    assert tables(ep) == {"blocks", "follows"}
    fails(env, ep, "get_post", f"you have blocked {mutual}", post=theirs["id"])
    fails(env, ep, "block_account", f"you have already blocked {mutual}", handle=mutual)
    call(env, ep, "unblock_account", handle=mutual)
    fails(env, ep, "unblock_account", f"you have not blocked {mutual}", handle=mutual)
    assert not rows(ep, "SELECT id FROM follows WHERE follower_id = ? AND followee_id = ?", mine, mutual)


def test_timeline_follows_follows_and_mutes(sm):
    env, ep = sm

    def authors() -> set[str]:
        feed = call(env, ep, "get_home_timeline", limit=100)["posts"]
        return {p["author"] if p["kind"] != "repost" else p["reposted_by"] for p in feed}

    new = one(
        ep,
        f"SELECT author_id FROM posts WHERE author_id IN (SELECT id FROM accounts WHERE {FOLLOWABLE} AND "
        "is_private = 0) AND deleted = 0 AND created_at >= '2026-05-31' GROUP BY author_id ORDER BY author_id",
    )["author_id"]
    assert new not in authors()
    call(env, ep, "follow_account", handle=new)
    assert new in authors()
    call(env, ep, "mute_account", handle=new)
    assert new not in authors()
    fails(env, ep, "mute_account", f"you have already muted {new}", handle=new)
    call(env, ep, "unmute_account", handle=new)
    assert new in authors()
    call(env, ep, "unfollow_account", handle=new)
    assert new not in authors()


def test_timeline_pages_with_before_post(sm):
    env, ep = sm
    first = call(env, ep, "get_home_timeline", limit=10)
    second = call(env, ep, "get_home_timeline", limit=10, before_post=first["next_before_post"])
    both = call(env, ep, "get_home_timeline", limit=20)
    assert [p["id"] for p in first["posts"] + second["posts"]] == [p["id"] for p in both["posts"]]
    stamps = [(p.get("created_at") or p["at"]) for p in both["posts"]]
    assert stamps == sorted(stamps, reverse=True)


def test_follow_requests_approve_and_deny(sm):
    env, ep = sm
    waiting = [r["id"] for r in call(env, ep, "list_follow_requests")["requests"]]
    assert len(waiting) >= 2
    out = call(env, ep, "respond_to_follow_request", handle=waiting[0], action="approve")
    assert out["follow"]["status"] == "active"
    (note,) = inserted(ep, "notifications")
    assert (note["account_id"], note["kind"], note["actor_id"]) == (waiting[0], "follow", me(ep))
    fails(
        env,
        ep,
        "respond_to_follow_request",
        f"no pending follow request from {waiting[0]}: {waiting[0]} already follows you",
        handle=waiting[0],
        action="deny",
    )
    call(env, ep, "respond_to_follow_request", handle=waiting[1], action="deny")
    assert not rows(
        ep, "SELECT id FROM follows WHERE follower_id = ? AND followee_id = ?", waiting[1], me(ep)
    )
    nobody = stranger(ep)
    fails(
        env,
        ep,
        "respond_to_follow_request",
        f"{nobody} has not asked to follow you",
        handle=nobody,
        action="approve",
    )


# -- notifications, search, stats ------------------------------------------------------------------------------


def test_notifications_read_and_marked(sm):
    env, ep = sm
    page = call(env, ep, "get_notifications", unread_only=True, limit=3)
    assert ep.diff() == [] and page["unread"] == page["total"] > 3
    ids = [n["id"] for n in page["notifications"]]
    assert call(env, ep, "mark_notifications_read", notifications=ids[:2])["unread"] == page["unread"] - 2
    assert set(changes(ep)) == {("notifications", i, "read") for i in ids[:2]}
    fails(env, ep, "mark_notifications_read", f"notification {ids[0]} is already read", notifications=ids[:1])
    other = one(ep, "SELECT id FROM notifications WHERE account_id != ? AND read = 0 ORDER BY id", me(ep))[
        "id"
    ]
    fails(env, ep, "mark_notifications_read", f"notification {other} is not yours", notifications=[other])
    assert call(env, ep, "mark_notifications_read")["unread"] == 0
    fails(env, ep, "mark_notifications_read", "you have no unread notifications")


def test_search_posts_by_tag_and_words(sm):
    env, ep = sm
    tag = one(ep, "SELECT tag FROM post_tags GROUP BY tag ORDER BY count(*) DESC, tag")["tag"]
    found = call(env, ep, "search_posts", query=tag.upper(), limit=50)
    assert found["total"] > 0 and all(tag in p["tags"] for p in found["posts"])
    words = call(env, ep, "search_posts", query="the trail", limit=50)
    assert all("the" in p["content"].lower() and "trail" in p["content"].lower() for p in words["posts"])


def test_stats_count_what_the_account_did(sm):
    env, ep = sm
    mine = me(ep)
    stats = call(env, ep, "get_account_stats", days=90)
    assert stats["followers"] == len(
        rows(ep, "SELECT id FROM follows WHERE followee_id = ? AND status = 'active'", mine)
    )
    posted = rows(
        ep,
        "SELECT id FROM posts WHERE author_id = ? AND deleted = 0 AND reply_to_id IS NULL "
        "AND repost_of_id IS NULL AND created_at >= '2026-03-03T09:00:00'",
        mine,
    )
    assert stats["posts"] == len(posted)
    call(env, ep, "create_post", content="one more")
    assert call(env, ep, "get_account_stats", days=90)["posts"] == len(posted) + 1
