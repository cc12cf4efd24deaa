"""Ninety days of posts, written in time order so every reply and repost points at an earlier post
its author could see: originals on each author's two favourite topics (with the topic's tags and
mentions of people they follow), replies mostly to people they follow, reposts of open public
posts only, a few deleted."""

from __future__ import annotations

import bisect
import itertools
from datetime import datetime, timedelta

from servers.domains.social_media.content import REPLIES, TOPICS, post_text
from servers.kit import Seeder

RECENT = 3000  # replies and reposts of strangers pick among this many latest open posts


def seed_posts(s: Seeder, accounts: list[dict], graph: dict) -> tuple[list[dict], list[dict], list[dict]]:
    total = s.count(small=900, medium=15_000, large=60_000)
    own = s.count(small=60, medium=380, large=380)
    ids = [a["id"] for a in accounts]
    cum = list(itertools.accumulate(a["_activity"] for a in accounts[1:]))
    authors = [ids[0]] * own + [
        ids[1 + bisect.bisect_left(cum, s.rng.random() * cum[-1])] for _ in range(total - own)
    ]
    s.rng.shuffle(authors)
    moments = sorted(s.moment_offset(-90, 0) for _ in range(total))
    topics = {a["id"]: a["_topics"] for a in accounts}
    state = _State(graph)
    for author, when in zip(authors, moments, strict=True):
        roll = s.rng.random()
        made = None
        if roll < 0.30:
            made = _reply(s, state, author, when)
        elif roll < 0.45:
            made = _repost(s, state, author, when)
        if made is None:
            _original(s, state, author, when, topics[author])
    return state.posts, state.tags, state.mentions


class _State:
    """The posts so far, and the indexes replies and reposts pick their targets from."""

    def __init__(self, graph: dict) -> None:
        self.graph = graph
        self.posts: list[dict] = []
        self.tags: list[dict] = []
        self.mentions: list[dict] = []
        self.by_author: dict[str, list[dict]] = {}  # live originals and replies (not mentioned-only)
        self.open: list[dict] = []  # public posts of public accounts, not deleted
        self.reposted: set[tuple[str, str]] = set()

    def add(
        self, s: Seeder, author: str, when: str, content: str, visibility: str, **links: str | None
    ) -> dict:
        deleted = not links.get("repost_of_id") and s.chance(0.03)
        post = {
            "id": f"PST-{len(self.posts) + 1:06d}",
            "author_id": author,
            "content": content,
            "reply_to_id": links.get("reply_to_id"),
            "repost_of_id": links.get("repost_of_id"),
            "visibility": visibility,
            "created_at": when,
            "deleted": deleted,
            "deleted_at": _later(s, when) if deleted else None,
        }
        self.posts.append(post)
        if not deleted and not post["repost_of_id"] and visibility != "mentioned":
            self.by_author.setdefault(author, []).append(post)
            if visibility == "public" and author not in self.graph["private"]:
                self.open.append(post)
        return post

    def apart(self, a: str, b: str) -> bool:
        blocks = self.graph["blocks"]
        return (a, b) in blocks or (b, a) in blocks


def _later(s: Seeder, when: str) -> str:
    t = datetime.fromisoformat(when) + timedelta(hours=s.rng.randint(1, 48))
    return min(t, s.now).isoformat(timespec="seconds")


def _target(s: Seeder, state: _State, author: str) -> dict | None:
    """An earlier post ``author`` can see: usually by someone they follow, else an open one."""
    followees = state.graph["following"].get(author, [])
    for _ in range(4):
        if followees and s.chance(0.6):
            theirs = state.by_author.get(s.pick(followees))
            if not theirs:
                continue
            post = theirs[-1 - s.rng.randrange(min(len(theirs), 20))]
        elif state.open:
            post = state.open[-1 - s.rng.randrange(min(len(state.open), RECENT))]
        else:
            return None
        if post["author_id"] != author and not state.apart(author, post["author_id"]):
            return post
    return None


def _reply(s: Seeder, state: _State, author: str, when: str) -> dict | None:
    parent = _target(s, state, author)
    if parent is None:
        return None
    visibility = "followers" if s.chance(0.05) else "public"
    return state.add(s, author, when, s.pick(list(REPLIES)), visibility, reply_to_id=parent["id"])


def _repost(s: Seeder, state: _State, author: str, when: str) -> dict | None:
    for _ in range(3):
        post = _target(s, state, author)
        if post is None:
            return None
        if post["visibility"] != "public" or post["author_id"] in state.graph["private"]:
            continue
        if (author, post["id"]) in state.reposted:
            continue
        state.reposted.add((author, post["id"]))
        return state.add(s, author, when, "", "public", repost_of_id=post["id"])
    return None


def _original(s: Seeder, state: _State, author: str, when: str, topics: list[str]) -> dict:
    topic = s.pick(topics)
    tags = s.rng.sample(TOPICS[topic][0], s.rng.randint(1, 3)) if s.chance(0.5) else []
    followees = [f for f in state.graph["following"].get(author, []) if not state.apart(author, f)]
    mentioned = s.rng.sample(followees, min(len(followees), s.rng.randint(1, 2))) if s.chance(0.15) else []
    roll = s.rng.random()
    visibility = "mentioned" if mentioned and roll < 0.15 else "followers" if roll < 0.27 else "public"
    text = post_text(s.rng, topic)
    if mentioned:
        text = f"{text} {' '.join(mentioned)}"
    post = state.add(s, author, when, text, visibility)
    for tag in tags:
        state.tags.append({"id": f"PTG-{len(state.tags) + 1:06d}", "post_id": post["id"], "tag": tag})
    for m in mentioned:
        state.mentions.append(
            {"id": f"PMN-{len(state.mentions) + 1:06d}", "post_id": post["id"], "account_id": m}
        )
    return post
