"""The seed (accounts of the shared world, a power-law follow graph, 90 days of posts and what
people did with them) and the ``logged_out`` variant."""

from __future__ import annotations

import bisect
import itertools
from datetime import datetime, timedelta

from servers.domains.social_media.content import TOPICS, bio
from servers.domains.social_media.model import (
    Account,
    Block,
    Follow,
    Like,
    Login,
    Mute,
    Notification,
    Post,
    PostMention,
    PostTag,
    Session,
    social_media,
)
from servers.domains.social_media.seed_posts import seed_posts
from servers.kit import Db, Seeder

TOPIC_NAMES = sorted(TOPICS)


@social_media.seed
def fill(s: Seeder) -> None:
    accounts = _accounts(s)
    graph = _graph(s, accounts)
    posts, tags, mentions = seed_posts(s, accounts, graph)
    likes = _likes(s, accounts, graph, posts)
    s.add(Post, posts)
    s.add(PostTag, tags)
    s.add(PostMention, mentions)
    s.add(Like, likes)
    _notifications(s, accounts[0]["id"], graph["follows"], posts, mentions, likes)
    s.add(
        Session,
        [
            {
                "id": "SES-000001",
                "account_id": accounts[0]["id"],
                "logged_in_at": _at(s.now - timedelta(hours=2)),
            }
        ],
    )


# -- variants ---------------------------------------------------------------------------------------


@social_media.variant("logged_out", first="login")
def logged_out(db: Db) -> None:
    """Nobody is logged in: every tool but login fails until the user logs in."""
    db.set_acting(account_id=None, logged_in_at=None)


# -- accounts ---------------------------------------------------------------------------------------


def _at(t: datetime) -> str:
    return t.isoformat(timespec="seconds")


def _accounts(s: Seeder) -> list[dict]:
    """The persona first, then the persona's circle of the shared world (colleagues first), so the
    people she follows here are the people she emails and chats with."""
    world = s.world
    n = s.count(small=60, medium=1200, large=8000)
    people = [world.persona, *world.circle(world.persona, n - 1)]
    popular = set(s.rng.sample(range(40, n), s.count(small=3, medium=20, large=60)))
    rows = []
    for i, p in enumerate(people):
        status = {n - 10: "suspended", n - 11: "deactivated"}.get(i, "active")
        if i > s.count(small=35, medium=300, large=300) and i not in popular:
            roll = s.rng.random()
            status = "suspended" if roll < 0.01 else "deactivated" if roll < 0.015 else status
        rows.append(
            {
                "id": p.handle,
                "person_id": p.index,
                "display_name": p.name,
                "bio": bio(s.rng, p.title, p.city),
                "verified": i in popular or s.chance(0.02),
                "is_private": i == 0 or (i not in popular and s.chance(0.08)),
                "status": status,
                "_email": p.email,
                "created_on": s.day_offset(-2500, -100),
                "_popular": i in popular,
                "_topics": s.rng.sample(TOPIC_NAMES, 2),
                "_activity": 40.0 if i in popular else min(s.rng.paretovariate(1.4), 30.0),
            }
        )
    s.add(Account, ({k: v for k, v in r.items() if not k.startswith("_")} for r in rows))
    s.add(
        Login,
        (
            {
                "id": r["_email"],
                "account_id": r["id"],
                "password": s.fake.password(length=12, special_chars=False),
            }
            for r in rows
        ),
    )
    return rows


def _graph(s: Seeder, accounts: list[dict]) -> dict:
    """Follows (popular accounts collect hundreds of followers), then blocks and mutes; no follow
    crosses a block. The persona follows the start of her circle and is followed by a longer start
    of it, with a few requests waiting for her approval (her account is private)."""
    n = len(accounts)
    ids = [a["id"] for a in accounts]
    private = {a["id"] for a in accounts if a["is_private"]}
    live = [i for i, a in enumerate(accounts) if a["status"] == "active"]
    weights = [110.0 if accounts[i]["_popular"] else s.rng.paretovariate(1.5) for i in live]
    cum = list(itertools.accumulate(weights))
    pairs: dict[tuple[str, str], str] = {}

    def follow(a: str, b: str, status: str | None = None) -> None:
        if a != b and (a, b) not in pairs:
            pairs[(a, b)] = status or ("pending" if b in private and s.chance(0.15) else "active")

    n_follow, n_followers = s.count(small=25, medium=150, large=150), s.count(small=30, medium=220, large=220)
    n_pending = s.count(small=4, medium=12, large=12)
    me = ids[0]
    for i in range(1, n_follow + 1):
        if accounts[i]["status"] == "active":
            follow(me, ids[i], "active")
    for i in range(1, n_followers + 1):
        follow(ids[i], me, "active")
    for i in range(n_followers + 1, n_followers + 1 + n_pending):
        follow(ids[i], me, "pending")
    cap = max(5, n // 3)
    for i in range(1, n):
        k = min(int(3 + s.rng.paretovariate(1.6) * 8), cap)
        for _ in range(k):
            j = live[bisect.bisect_left(cum, s.rng.random() * cum[-1])]
            follow(ids[i], ids[j])
    blocks = _pairs(s, ids, n // 12, avoid=set())
    blocks |= {(me, ids[-1 - k]) for k in range(s.count(small=3, medium=8, large=8))}
    blocks |= {(ids[-20 - k], me) for k in range(2)}
    for a, b in blocks:
        pairs.pop((a, b), None)
        pairs.pop((b, a), None)
    mutes = _pairs(s, ids, n // 12, avoid=blocks)
    mutes |= {(me, ids[n_follow - k]) for k in range(s.count(small=3, medium=8, large=8))}
    follows = [
        {"follower_id": a, "followee_id": b, "status": st, "at": s.moment_offset(-700, -1)}
        for (a, b), st in pairs.items()
    ]
    follows.sort(key=lambda f: (f["at"], f["follower_id"], f["followee_id"]))
    s.add(Follow, ({"id": f"FOL-{k:06d}", **f} for k, f in enumerate(follows, 1)))
    for table, prefix, rows in ((Block, "BLK", blocks), (Mute, "MUT", mutes)):
        s.add(
            table,
            (
                {"id": f"{prefix}-{k:06d}", "user_id": a, "target_id": b, "at": s.moment_offset(-300, -1)}
                for k, (a, b) in enumerate(sorted(rows), 1)
            ),
        )
    following: dict[str, list[str]] = {}
    for f in follows:
        if f["status"] == "active":
            following.setdefault(f["follower_id"], []).append(f["followee_id"])
    return {"follows": follows, "following": following, "blocks": blocks, "private": private}


def _pairs(s: Seeder, ids: list[str], k: int, avoid: set) -> set[tuple[str, str]]:
    out: set[tuple[str, str]] = set()
    while len(out) < k:
        a, b = s.rng.sample(ids[1:], 2)
        if (a, b) not in avoid and (b, a) not in avoid:
            out.add((a, b))
    return out


# -- likes and notifications -----------------------------------------------------------------------------


def _likes(s: Seeder, accounts: list[dict], graph: dict, posts: list[dict]) -> list[dict]:
    """Likes by followers of the author (most) and by anyone on open public posts; the persona
    likes a few hundred posts of the people she follows."""
    total = s.count(small=2800, medium=46_000, large=140_000)
    by_author: dict[str, list[dict]] = {}
    open_posts = []
    for p in posts:
        if p["deleted"] or p["repost_of_id"] or p["visibility"] == "mentioned":
            continue
        by_author.setdefault(p["author_id"], []).append(p)
        if p["visibility"] == "public" and p["author_id"] not in graph["private"]:
            open_posts.append(p)
    ids = [a["id"] for a in accounts]
    cum = list(itertools.accumulate(a["_activity"] for a in accounts))
    blocks, seen, out = graph["blocks"], set(), []
    persona_likes = s.count(small=40, medium=400, large=400)
    for k in range(total):
        liker = ids[0] if k < persona_likes else ids[bisect.bisect_left(cum, s.rng.random() * cum[-1])]
        followees = graph["following"].get(liker, [])
        if followees and s.chance(0.65 if k >= persona_likes else 0.95):
            mine = by_author.get(s.pick(followees))
            if not mine:
                continue
            post = s.pick(mine)
        elif open_posts:
            post = s.pick(open_posts)
        else:
            continue
        key = (liker, post["id"])
        if key in seen or (liker, post["author_id"]) in blocks or (post["author_id"], liker) in blocks:
            continue
        seen.add(key)
        out.append({"account_id": liker, "post_id": post["id"], "at": _between(s, post["created_at"])})
    out.sort(key=lambda r: (r["at"], r["account_id"], r["post_id"]))
    return [{"id": f"LIK-{k:06d}", **r} for k, r in enumerate(out, 1)]


def _between(s: Seeder, start: str) -> str:
    t0 = datetime.fromisoformat(start)
    span = max(60, int((s.now - t0).total_seconds()))
    return _at(t0 + timedelta(seconds=s.rng.randint(1, min(span, 5 * 86400))))


def _notifications(
    s: Seeder, persona: str, follows: list[dict], posts: list[dict], mentions: list[dict], likes: list[dict]
) -> None:
    """What each event told its target: everything for the persona, the last 30 days for others.
    The persona's newest 120 are unread; others have read all but the last few days'."""
    author = {p["id"]: p["author_id"] for p in posts}
    at = {p["id"]: p["created_at"] for p in posts}
    events = []
    for f in follows:
        kind = "follow" if f["status"] == "active" else "follow_request"
        events.append((f["at"], f["followee_id"], kind, f["follower_id"], None))
    for p in posts:
        if p["repost_of_id"]:
            events.append(
                (p["created_at"], author[p["repost_of_id"]], "repost", p["author_id"], p["repost_of_id"])
            )
        elif p["reply_to_id"]:
            events.append((p["created_at"], author[p["reply_to_id"]], "reply", p["author_id"], p["id"]))
    for m in mentions:
        events.append((at[m["post_id"]], m["account_id"], "mention", author[m["post_id"]], m["post_id"]))
    for lk in likes:
        events.append((lk["at"], author[lk["post_id"]], "like", lk["account_id"], lk["post_id"]))
    cutoff, recent = _at(s.now - timedelta(days=30)), _at(s.now - timedelta(days=3))
    events = sorted(
        e for e in events if e[1] != e[3] and e[0] <= _at(s.now) and (e[1] == persona or e[0] >= cutoff)
    )
    unread = {id(e) for e in [e for e in events if e[1] == persona][-120:]}
    rows = []
    for e in events:
        read = id(e) not in unread if e[1] == persona else (e[0] < recent or s.chance(0.5))
        rows.append(
            {
                "id": f"NTF-{len(rows) + 1:06d}",
                "account_id": e[1],
                "kind": e[2],
                "actor_id": e[3],
                "post_id": e[4],
                "read": read,
                "at": e[0],
            }
        )
    s.add(Notification, rows)
