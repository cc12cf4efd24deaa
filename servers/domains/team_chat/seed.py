"""The seeded workspace (members, channels, DMs, 60 days of messages) and the logged-out variant."""

from __future__ import annotations

from datetime import datetime, timedelta

from servers.domains.team_chat import seed_text as text
from servers.domains.team_chat.model import (
    Channel,
    Member,
    Membership,
    Message,
    MessageEdit,
    Reaction,
    Session,
    Setting,
    team_chat,
)
from servers.kit import Db, Seeder
from servers.kit.db import format_id

HISTORY_DAYS = 60
EDIT_WINDOW = 1440


@team_chat.seed
def fill(s: Seeder) -> None:
    persona = s.world.persona
    members = _seed_members(s)
    s.add(
        Setting,
        [
            {
                "id": "CFG-000001",
                "workspace_name": s.world.employer(persona).name,
                "edit_window_minutes": EDIT_WINDOW,
                "max_group_dm": 9,
            }
        ],
    )
    s.add(Session, [{"id": "SES-000001", "member_id": members[0]["id"], "signed_in_at": _at(s.now, -3600)}])
    channels, seats = _seed_channels(s, members)
    dms, dm_seats = _seed_dms(s, members, len(channels))
    channels += dms
    seats.update(dm_seats)
    s.add(Channel, channels)
    messages = _seed_messages(s, channels, seats, members)
    _seed_memberships(s, channels, seats, messages, members[0]["id"])
    _seed_reactions(s, messages, seats)


def _at(now: datetime, seconds: int) -> str:
    return (now + timedelta(seconds=seconds)).isoformat(timespec="seconds")


def _seed_members(s: Seeder) -> list[dict]:
    """The persona first, then her circle (colleagues first): the people she also emails."""
    n = s.count(small=40, medium=300, large=3000)
    people = [s.world.persona, *s.world.circle(s.world.persona, n - 1)]
    admins = s.count(small=2, medium=8, large=40)
    deactivated = s.count(small=2, medium=5, large=60)
    rows = []
    for i, p in enumerate(people):
        rows.append(
            {
                "id": p.handle,
                "person_id": p.index,
                "username": p.username,
                "real_name": p.name,
                "email": p.email,
                "title": p.title,
                "timezone": p.timezone,
                # the persona is an ordinary member: admin-only actions are refused to her
                "is_admin": 0 < i <= admins,
                "status": "deactivated" if n - deactivated <= i else "active",
                "password": s.fake.password(length=12, special_chars=False),
                "joined_at": s.moment_offset(-1500, -200),
            }
        )
    return s.add(Member, rows)


def _seed_channels(s: Seeder, members: list[dict]) -> tuple[list[dict], dict[str, list[str]]]:
    """Named channels: #general holds everyone; the persona sits in about a third of the rest."""
    n = s.count(small=20, medium=120, large=600)
    mine = s.count(small=8, medium=40, large=60)
    handles = [m["id"] for m in members]
    me = handles[0]
    rng = s.rng
    order = sorted(rng.sample(range(1, n), mine - 1))
    chosen = set(order)
    channels, seats = [], {}
    for i, (name, purpose) in enumerate(text.channel_names(rng, n)):
        cid = format_id("CHN", i + 1)
        general = i == 0
        # fixed shares, so the pools hold at every seed: 1 in 5 of hers private, 1 in 8 archived;
        # of the others, 1 in 8 private and 1 in 11 archived
        k = order.index(i) if i in chosen else i
        private = not general and (k % 5 == 2 if i in chosen else k % 8 == 3)
        archived = not general and (k % 8 == 4 if i in chosen else k % 11 == 5)
        if general:
            seat = list(handles)
        else:
            size = min(len(handles) - 1, rng.randint(4, s.count(small=15, medium=45, large=70)))
            seat = rng.sample(handles[1:], size)
            if i in chosen:
                seat.insert(0, me)
        others = [h for h in seat if h != me]
        founder = i in chosen and order.index(i) % 3 == 0  # a third of her channels she started
        creator = handles[1] if general else me if founder else rng.choice(others)
        seats[cid] = list(dict.fromkeys([creator, *seat]))
        channels.append(
            {
                "id": cid,
                "name": name,
                "kind": "channel",
                "topic": text.topic(rng, rng.choice(seat)),
                "purpose": purpose,
                "is_private": private,
                "is_archived": archived,
                "is_general": general,
                "creator_id": creator,
                "created_at": s.moment_offset(-900, -HISTORY_DAYS - 10),
            }
        )
    return channels, seats


def _seed_dms(s: Seeder, members: list[dict], start: int) -> tuple[list[dict], dict[str, list[str]]]:
    """DMs and group DMs, many of them the persona's (one with a deactivated member)."""
    rng = s.rng
    handles = [m["id"] for m in members]
    me, gone = handles[0], [m["id"] for m in members if m["status"] != "active"]
    n_dm, n_group = s.count(small=30, medium=400, large=3000), s.count(small=6, medium=60, large=400)
    seen: set[frozenset[str]] = set()
    groups: list[list[str]] = [[me, gone[0]]]
    while len(groups) < n_dm + n_group:
        size = 2 if len(groups) < n_dm else rng.randint(3, 6)
        with_me = rng.random() < (0.15 if size == 2 else 0.3)
        people = rng.sample(handles[1:], size - 1 if with_me else size)
        group = [me, *people] if with_me else people
        if frozenset(group) not in seen:
            groups.append(group)
        seen.add(frozenset(group))
    channels, seats = [], {}
    for k, group in enumerate(groups):
        cid = format_id("CHN", start + k + 1)
        seats[cid] = group
        channels.append(
            {
                "id": cid,
                "name": None,
                "kind": "dm" if len(group) == 2 else "group_dm",
                "topic": "",
                "purpose": "",
                "is_private": True,
                "is_archived": False,
                "is_general": False,
                "creator_id": group[0],
                "created_at": s.moment_offset(-700, -HISTORY_DAYS - 5),
            }
        )
    return channels, seats


def _seed_messages(
    s: Seeder, channels: list[dict], seats: dict[str, list[str]], members: list[dict]
) -> list[dict]:
    """Top-level messages over 60 days, a fifth of them with a thread, and the persona's busy last
    day (her messages inside the 24-hour edit window); ids follow time."""
    rng = s.rng
    total = s.count(small=1500, medium=30_000, large=150_000)
    me = members[0]["id"]
    first = {m["id"]: m["real_name"].split()[0] for m in members}
    gone = {m["id"] for m in members if m["status"] != "active"}
    weights = [3.0 if c["is_general"] else 1.0 if c["kind"] == "channel" else 0.12 for c in channels]
    drafts: list[dict] = []
    for ch in rng.choices(channels, weights, k=int(total * 0.6)):
        seat = seats[ch["id"]]
        author = me if me in seat and rng.random() < 0.015 else rng.choice(seat)
        when = s.moment_offset(-HISTORY_DAYS, 0)
        drafts.append(_draft(ch["id"], author, text.message_text(rng, first[rng.choice(seat)]), when))
    open_mine = [
        c
        for c in channels
        if me in seats[c["id"]]
        and not c["is_archived"]
        and not (c["kind"] != "channel" and gone & set(seats[c["id"]]))
    ]
    for _ in range(s.count(small=60, medium=260, large=400)):  # the persona's last day
        ch = rng.choice(open_mine)
        when = _at(s.now, -rng.randint(60, EDIT_WINDOW * 60 - 600))
        drafts.append(_draft(ch["id"], me, text.message_text(rng, first[rng.choice(seats[ch["id"]])]), when))
    for root in [d for d in drafts if rng.random() < 0.2]:
        seat = seats[root["channel_id"]]
        at = datetime.fromisoformat(root["created_at"])
        for _ in range(rng.randint(1, 6)):
            at += timedelta(minutes=rng.randint(1, 240))
            if at >= s.now:
                break
            reply = _draft(
                root["channel_id"],
                rng.choice(seat),
                text.message_text(rng, first[root["author_id"]], True),
                at.isoformat(),
            )
            reply.update(root=root, broadcast=rng.random() < 0.05)
            drafts.append(reply)
    drafts.sort(key=lambda d: d["created_at"])
    for i, d in enumerate(drafts):
        d["id"] = format_id("MSG", i + 1)
    return _finish_messages(s, drafts)


def _draft(channel: str, author: str, body: str, when: str) -> dict:
    return {
        "channel_id": channel,
        "author_id": author,
        "text": body,
        "created_at": when,
        "root": None,
        "broadcast": False,
    }


def _finish_messages(s: Seeder, drafts: list[dict]) -> list[dict]:
    """Thread links, a few edits (the revision rows hold both texts) and a few tombstones."""
    rng = s.rng
    rows, edits = [], []
    for d in drafts:
        edited = deleted = None
        roll = rng.random()
        if roll < 0.03:
            at = min(datetime.fromisoformat(d["created_at"]) + timedelta(minutes=rng.randint(1, 90)), s.now)
            edited = at.isoformat(timespec="seconds")
            new = rng.choice(text.EDITS).format(text=d["text"].rstrip(".!?"))
            edits.append({"message_id": d["id"], "old_text": d["text"], "new_text": new, "at": edited})
        elif roll < 0.04:
            at = min(datetime.fromisoformat(d["created_at"]) + timedelta(minutes=rng.randint(1, 600)), s.now)
            deleted = at.isoformat(timespec="seconds")
        rows.append(
            {
                "id": d["id"],
                "channel_id": d["channel_id"],
                "author_id": d["author_id"],
                "text": d["text"],
                "thread_root_id": d["root"]["id"] if d["root"] else None,
                "broadcast": d["broadcast"],
                "created_at": d["created_at"],
                "edited_at": edited,
                "deleted": deleted is not None,
                "deleted_at": deleted,
            }
        )
    s.add(Message, rows)
    s.add(MessageEdit, ({"id": format_id("MED", i + 1), **e} for i, e in enumerate(edits)))
    return rows


def _seed_memberships(
    s: Seeder, channels: list[dict], seats: dict[str, list[str]], messages: list[dict], me: str
) -> None:
    """Seats with read markers: the persona has unread messages in about 15 of her channels."""
    rng = s.rng
    latest: dict[str, str] = {}
    by_others: dict[str, str] = {}
    for m in messages:
        if not m["deleted"] and m["thread_root_id"] is None:
            latest[m["channel_id"]] = m["created_at"]
            if m["author_id"] != me:  # the newest message someone else posted: what makes unread
                by_others[m["channel_id"]] = m["created_at"]
    mine = [
        c["id"] for c in channels if c["kind"] == "channel" and me in seats[c["id"]] and c["id"] in by_others
    ]
    unread = set(rng.sample(mine, min(len(mine), s.count(small=5, medium=15, large=20))))
    rows = []
    for ch in channels:
        end = latest.get(ch["id"], ch["created_at"])
        for who in seats[ch["id"]]:
            read = end
            if who == me and ch["id"] in unread:
                read = _at(datetime.fromisoformat(by_others[ch["id"]]), -rng.randint(60, 5 * 86400))
            elif who != me and rng.random() < 0.4:
                read = _at(datetime.fromisoformat(end), -rng.randint(3600, 5 * 86400))
            rows.append(
                {
                    "id": format_id("MBS", len(rows) + 1),
                    "channel_id": ch["id"],
                    "member_id": who,
                    "joined_at": ch["created_at"],
                    "last_read_at": max(read, ch["created_at"]),
                }
            )
    s.add(Membership, rows)


def _seed_reactions(s: Seeder, messages: list[dict], seats: dict[str, list[str]]) -> None:
    rng = s.rng
    target = s.count(small=800, medium=20_000, large=80_000)
    live = [m for m in messages if not m["deleted"]]
    seen: set[tuple[str, str, str]] = set()
    rows = []
    while len(rows) < target:
        m = rng.choice(live)
        for _ in range(rng.randint(1, 4)):
            key = (
                m["id"],
                rng.choice(seats[m["channel_id"]]),
                rng.choice(text.EMOJI[: rng.randint(3, len(text.EMOJI))]),
            )
            if key in seen:
                continue
            seen.add(key)
            at = _at(datetime.fromisoformat(m["created_at"]), rng.randint(30, 7200))
            rows.append(
                {
                    "id": "",
                    "message_id": key[0],
                    "member_id": key[1],
                    "emoji": key[2],
                    "at": min(at, _at(s.now, 0)),
                }
            )
    rows.sort(key=lambda r: (r["at"], r["message_id"], r["member_id"], r["emoji"]))
    for i, r in enumerate(rows):
        r["id"] = format_id("RCT", i + 1)
    s.add(Reaction, rows)


# -- variants ---------------------------------------------------------------------------------


@team_chat.variant("logged_out", first="login")
def logged_out(db: Db) -> None:
    """Nobody is signed in: every tool but login fails until the user signs in."""
    db.set_acting(member_id=None, signed_in_at=None)
