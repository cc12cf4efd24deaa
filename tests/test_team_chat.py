"""Team chat's rules: every refusal names what was wrong and changes nothing; every success changes
exactly the rows it should (and append-only messages only ever gain rows or tombstone flags)."""

from __future__ import annotations

import pytest

from servers.domains.team_chat import rules
from servers.registry import get_domain
from tests.domain_helpers import DomainCalls, changes

DOMAIN = "team_chat"
calls = DomainCalls(DOMAIN)
call, fails, rows, one = calls.call, calls.fails, calls.rows, calls.one
DISCOVERY = {"list_records", "search_records", "get_unique_values"}
ME = "@sgould"  # the persona at seed 0


@pytest.fixture
def chat(make_env):
    env = make_env(DOMAIN)
    return env, env.open()


def tables(ep) -> set[str]:
    return {c["table"] for c in ep.diff()}


def channel(ep, condition: str, extra: str = "") -> dict:
    return one(ep, f"SELECT * FROM channels WHERE {condition} {extra} ORDER BY id")


def stranger(ep, channel_id: str) -> dict:
    """An active member who is not in the channel."""
    return one(
        ep,
        "SELECT * FROM members WHERE status = 'active' AND id != ? AND id NOT IN "
        "(SELECT member_id FROM memberships WHERE channel_id = ?) ORDER BY id",
        ME,
        channel_id,
    )


def login_as(env, ep, handle: str) -> None:
    pw = one(ep, "SELECT password FROM members WHERE id = ?", handle)["password"]
    call(env, ep, "login", username=handle, password=pw)


# -- catalogue and seed ---------------------------------------------------------------------------


def test_enough_tools_each_with_two_ways_to_ask():
    domain = get_domain(DOMAIN)
    own = {name: t for name, t in domain.tools.items() if name not in DISCOVERY and not t.hidden}
    assert len(own) >= 20
    assert all(len(t.says) >= 2 for t in own.values())
    assert domain.append_only() == {
        "messages": frozenset({"edited_at", "deleted", "deleted_at"}),
        "message_edits": frozenset(),
    }
    assert domain.variants["logged_out"].first == "login"
    assert own["delete_message"].destructive and own["delete_message"].idempotent
    assert own["open_direct_message"].idempotent and not own["post_message"].idempotent
    assert all(t.read_only for n, t in own.items() if n.startswith(("get_", "list_", "find_", "search_")))


def test_medium_snapshot_has_the_sampler_pools(medium):
    def count(sql: str) -> int:
        return medium.execute(sql).fetchone()[0]

    assert count("SELECT count(*) FROM members") == 300
    assert count("SELECT count(*) FROM members WHERE status = 'deactivated'") == 5
    assert count("SELECT count(*) FROM members WHERE is_admin") == 8
    assert count("SELECT count(*) FROM channels WHERE kind = 'channel'") == 120
    assert count("SELECT count(*) FROM channels WHERE kind = 'dm'") == 400
    assert count("SELECT count(*) FROM channels WHERE kind = 'group_dm'") == 60
    assert count("SELECT count(*) FROM channels WHERE is_general") == 1
    assert 25_000 <= count("SELECT count(*) FROM messages") <= 40_000
    assert count("SELECT count(*) FROM reactions") == 20_000
    assert count("SELECT count(*) FROM message_edits") > 500
    assert (
        count(f"SELECT count(*) FROM channels WHERE kind = 'channel' AND {rules.seated('channels.id')}") == 40
    )
    assert count(f"SELECT count(*) FROM channels WHERE kind = 'channel' AND {rules.UNREAD}") >= 15
    # the pools the generator samples from
    assert count(f"SELECT count(*) FROM channels WHERE {rules.JOINABLE}") >= 60
    assert count("SELECT count(*) FROM channels WHERE is_archived") >= 12
    assert count(f"SELECT count(*) FROM messages WHERE {rules.MY_EDITABLE}") >= 250
    assert (
        count(f"SELECT count(*) FROM messages WHERE {rules.MY_MESSAGE} AND created_at < {rules.WINDOW_START}")
        >= 100
    )
    assert count(f"SELECT count(*) FROM messages WHERE {rules.OPEN_MESSAGE}") >= 2000
    assert count(f"SELECT count(*) FROM members WHERE {rules.OTHER_ACTIVE}") >= 250
    assert count(f"SELECT count(*) FROM channels WHERE {rules.MODERATED}") >= 5
    assert 400 <= count(f"SELECT count(*) FROM messages WHERE author_id = '{ME}'") <= 2000


def test_members_are_the_persona_and_her_circle(medium):
    from servers.kit import world

    w = world(0, "medium")
    p = w.persona
    handles = [r[0] for r in medium.execute("SELECT id FROM members ORDER BY person_id = 0 DESC, rowid")]
    assert handles[0] == p.handle == ME
    assert handles[1 : 1 + len(w.colleagues(p))] == [c.handle for c in w.colleagues(p)]
    assert handles[1:] == [c.handle for c in w.circle(p, 299)]
    row = medium.execute(
        "SELECT real_name, email, is_admin, status FROM members WHERE id = ?", (ME,)
    ).fetchone()
    assert row == (p.name, p.email, 0, "active")
    assert medium.execute("SELECT member_id FROM sessions").fetchone() == (ME,)


# -- signing in -----------------------------------------------------------------------------------


def test_logged_out_everything_but_login_is_refused(make_env):
    env = make_env(DOMAIN)
    ep = env.open({DOMAIN: "logged_out"})
    for tool, args in [
        ("list_channels", {}),
        ("find_members", {"query": "a"}),
        ("post_message", {"channel": "#general", "text": "hi"}),
        ("search_messages", {"query": "deploy"}),
    ]:
        fails(env, ep, tool, r"^nobody is signed in; call login first$", **args)
    pw = one(ep, "SELECT password FROM members WHERE id = ?", ME)["password"]
    fails(
        env,
        ep,
        "login",
        r"invalid_auth: wrong user name or password for '@sgould'",
        username=ME,
        password=pw + "x",
    )
    out = call(env, ep, "login", username="sgould", password=pw)
    assert out["handle"] == ME
    assert tables(ep) == {"sessions"}
    assert changes(ep)[("sessions", "SES-000001", "member_id")]["new"] == ME


def test_deactivated_members_cannot_sign_in_and_login_switches_member(chat):
    env, ep = chat
    gone = one(ep, "SELECT id, password FROM members WHERE status = 'deactivated' ORDER BY id")
    fails(
        env,
        ep,
        "login",
        f"account_inactive: {gone['id']} is deactivated",
        username=gone["id"],
        password=gone["password"],
    )
    other = one(ep, "SELECT id FROM members WHERE status = 'active' AND id != ? ORDER BY id", ME)["id"]
    login_as(env, ep, other)
    assert changes(ep)[("sessions", "SES-000001", "member_id")]["new"] == other
    assert call(env, ep, "list_channels", member_only=True, limit=100)["channels"]


# -- channels -------------------------------------------------------------------------------------


def test_channel_names_follow_the_rules(chat):
    env, ep = chat
    fails(env, ep, "create_channel", r"invalid_name_specials: 'Launch Plans'", name="Launch Plans")
    fails(
        env, ep, "create_channel", r"invalid_name_maxlength: .* is 81 characters; at most 80", name="a" * 81
    )
    archived = channel(ep, "is_archived = 1 AND kind = 'channel'")
    fails(
        env,
        ep,
        "create_channel",
        rf"name_taken: #{archived['name']} already exists as {archived['id']} \(archived\)",
        name=archived["name"],
    )
    out = call(env, ep, "create_channel", name="launch-plans", is_private=True, purpose="Plans")
    assert out["is_private"] and out["member_count"] == 1 and out["creator"] == ME
    assert tables(ep) == {"channels", "memberships"}
    seat = one(ep, "SELECT * FROM memberships WHERE channel_id = ?", out["id"])
    assert seat["member_id"] == ME


def test_archived_channels_are_read_only_and_general_stays(chat):
    env, ep = chat
    archived = channel(ep, f"is_archived = 1 AND kind = 'channel' AND {rules.seated('channels.id')}")
    label = f"#{archived['name']}"
    fails(
        env,
        ep,
        "post_message",
        f"is_archived: {label} is archived and read-only",
        channel=archived["id"],
        text="hi",
    )
    fails(env, ep, "leave_channel", "is_archived", channel=archived["id"])
    msg = one(ep, "SELECT id FROM messages WHERE channel_id = ? AND deleted = 0", archived["id"])
    fails(env, ep, "add_reaction", "is_archived", message=msg["id"], emoji="eyes")
    other = channel(ep, "is_archived = 1 AND kind = 'channel' AND is_private = 0")
    fails(env, ep, "join_channel", "is_archived", channel=other["id"])
    fails(env, ep, "archive_channel", "cant_archive_general: #general", channel="#general")
    fails(env, ep, "leave_channel", "cant_leave_general: everyone stays in #general", channel="general")
    target = channel(ep, rules.ARCHIVABLE)
    out = call(env, ep, "archive_channel", channel=target["id"])
    assert out["is_archived"]
    assert list(changes(ep)) == [("channels", target["id"], "is_archived")]
    fails(
        env, ep, "archive_channel", f"is_archived|already_archived: #{target['name']}", channel=target["id"]
    )


def test_membership_rules_for_posting_and_joining(chat):
    env, ep = chat
    public = channel(ep, rules.JOINABLE)
    fails(
        env,
        ep,
        "post_message",
        f"not_in_channel: {ME} is not a member of #{public['name']}; join_channel first",
        channel=public["id"],
        text="hello",
    )
    hidden = channel(ep, f"kind = 'channel' AND is_private = 1 AND NOT {rules.seated('channels.id')}")
    fails(
        env, ep, "join_channel", f"channel_not_found: no conversation '{hidden['id']}'", channel=hidden["id"]
    )
    fails(env, ep, "get_channel_history", "channel_not_found", channel=f"#{hidden['name']}")
    call(env, ep, "join_channel", channel=f"#{public['name']}")
    assert tables(ep) == {"memberships"}
    fails(env, ep, "join_channel", f"already_in_channel: {ME} is already a member", channel=public["id"])
    posted = call(env, ep, "post_message", channel=public["name"], text="hello")
    assert posted["author"] == ME and posted["channel"] == public["id"]
    assert tables(ep) == {"memberships", "messages"}


def test_invites(chat):
    env, ep = chat
    ch = channel(ep, rules.NAMED_OPEN, "AND is_general = 0")
    inside = one(
        ep, "SELECT member_id FROM memberships WHERE channel_id = ? AND member_id != ?", ch["id"], ME
    )
    fails(
        env,
        ep,
        "invite_to_channel",
        f"already_in_channel: {inside['member_id']} already in #{ch['name']}",
        channel=ch["id"],
        members=[inside["member_id"]],
    )
    fails(env, ep, "invite_to_channel", f"cant_invite_self: {ME} is you", channel=ch["id"], members=[ME])
    gone = one(ep, "SELECT id FROM members WHERE status = 'deactivated' ORDER BY id")["id"]
    fails(env, ep, "invite_to_channel", f"user_is_deactivated: {gone}", channel=ch["id"], members=[gone])
    fails(
        env,
        ep,
        "invite_to_channel",
        "user_not_found: no member has the handle '@nobody'",
        channel=ch["id"],
        members=["@nobody"],
    )
    new = stranger(ep, ch["id"])
    out = call(env, ep, "invite_to_channel", channel=ch["id"], members=[new["id"]])
    assert out["invited"] == [new["id"]]
    assert tables(ep) == {"memberships"} and len({c["pk"] for c in ep.diff()}) == 1


def test_only_creators_and_admins_remove_members(chat):
    env, ep = chat
    theirs = channel(ep, f"{rules.NAMED_OPEN} AND is_general = 0 AND creator_id != '{ME}'")
    victim = one(
        ep, "SELECT member_id FROM memberships WHERE channel_id = ? AND member_id != ?", theirs["id"], ME
    )
    fails(
        env,
        ep,
        "remove_from_channel",
        rf"restricted_action: only #{theirs['name']}'s creator \({theirs['creator_id']}\) or a workspace admin",
        channel=theirs["id"],
        member=victim["member_id"],
    )
    fails(
        env,
        ep,
        "remove_from_channel",
        "cant_kick_from_general",
        channel="#general",
        member=victim["member_id"],
    )
    mine = channel(ep, rules.MODERATED)
    seat = one(
        ep, "SELECT id, member_id FROM memberships WHERE channel_id = ? AND member_id != ?", mine["id"], ME
    )
    fails(env, ep, "remove_from_channel", "cant_kick_self", channel=mine["id"], member=ME)
    out = call(env, ep, "remove_from_channel", channel=mine["id"], member=seat["member_id"])
    assert out["removed"] == seat["member_id"]
    assert {(c["table"], c["pk"], c["op"]) for c in ep.diff()} == {("memberships", seat["id"], "delete")}


def test_the_last_member_cannot_leave_a_private_channel(chat):
    env, ep = chat
    made = call(env, ep, "create_channel", name="solo-room", is_private=True)
    fails(
        env,
        ep,
        "leave_channel",
        "last_member: you are the last member of private #solo-room",
        channel=made["id"],
    )
    ch = channel(ep, rules.LEAVABLE)
    call(env, ep, "leave_channel", channel=ch["id"])
    assert rows(ep, "SELECT 1 FROM memberships WHERE channel_id = ? AND member_id = ?", ch["id"], ME) == []


def test_topic_and_read_marker(chat):
    env, ep = chat
    ch = channel(ep, rules.NAMED_OPEN)
    fails(
        env,
        ep,
        "set_channel_topic",
        "too_long: the topic is 251 characters; at most 250",
        channel=ch["id"],
        topic="x" * 251,
    )
    call(env, ep, "set_channel_topic", channel=ch["id"], topic="Sprint 24")
    assert list(changes(ep)) == [("channels", ch["id"], "topic")]
    unread = channel(ep, rules.UNREAD)
    listed = call(env, ep, "get_channel", channel=unread["id"])
    assert listed["unread_count"] > 0
    call(env, ep, "mark_channel_read", channel=unread["id"])
    assert call(env, ep, "get_channel", channel=unread["id"])["unread_count"] == 0


# -- messages -------------------------------------------------------------------------------------


def test_text_limits(chat):
    env, ep = chat
    fails(env, ep, "post_message", "no_text: the text is empty", channel="#general", text="   ")
    fails(
        env,
        ep,
        "post_message",
        "msg_too_long: the text is 4,001 characters; the limit is 4,000",
        channel="#general",
        text="x" * 4001,
    )


def test_threads_are_one_level_and_can_be_broadcast(chat):
    env, ep = chat
    reply = one(
        ep,
        f"SELECT * FROM messages WHERE thread_root_id IS NOT NULL AND {rules.OPEN_MESSAGE} "
        "AND thread_root_id IN (SELECT id FROM messages WHERE deleted = 0) ORDER BY id",
    )
    out = call(env, ep, "reply_in_thread", message=reply["id"], text="Same here", also_send_to_channel=True)
    assert out["thread_root"] == reply["thread_root_id"] and out["also_sent_to_channel"]
    thread = call(env, ep, "get_thread", message=reply["id"])
    assert (
        thread["messages"][0]["id"] == reply["thread_root_id"] and thread["messages"][-1]["id"] == out["id"]
    )
    history = call(env, ep, "get_channel_history", channel=reply["channel_id"], limit=1)
    assert history["messages"][0]["id"] == out["id"]
    assert tables(ep) == {"messages"}


def test_only_your_own_messages_within_the_window_can_be_edited(chat):
    env, ep = chat
    theirs = one(ep, f"SELECT * FROM messages WHERE author_id != '{ME}' AND {rules.OPEN_MESSAGE} ORDER BY id")
    fails(
        env,
        ep,
        "edit_message",
        f"cant_update_message: {theirs['id']} was posted by {theirs['author_id']}; you can edit only your own",
        message=theirs["id"],
        text="mine now",
    )
    old = one(
        ep,
        f"SELECT * FROM messages WHERE {rules.MY_MESSAGE} AND created_at < {rules.WINDOW_START} ORDER BY id",
    )
    fails(
        env,
        ep,
        "edit_message",
        rf"edit_window_closed: {old['id']} was posted at {old['created_at']}, [0-9,]+ minutes ago; "
        "messages can be edited for 1,440 minutes",
        message=old["id"],
        text="too late",
    )
    mine = one(ep, f"SELECT * FROM messages WHERE {rules.MY_EDITABLE} AND edited_at IS NULL ORDER BY id")
    out = call(env, ep, "edit_message", message=mine["id"], text="Correction: at 3pm")
    assert out["text"] == "Correction: at 3pm" and out["edited_at"] == "2026-06-01T09:00:00"
    ch = changes(ep)
    assert {k for k in ch if k[0] == "messages"} == {("messages", mine["id"], "edited_at")}
    edit = one(ep, "SELECT * FROM message_edits WHERE message_id = ?", mine["id"])
    assert (edit["old_text"], edit["new_text"]) == (mine["text"], "Correction: at 3pm")
    assert one(ep, "SELECT text FROM messages WHERE id = ?", mine["id"])["text"] == mine["text"]
    fails(
        env,
        ep,
        "edit_message",
        f"edit_no_change: {mine['id']} already says exactly that",
        message=mine["id"],
        text="Correction: at 3pm",
    )
    found = call(env, ep, "search_messages", query="correction at 3pm")
    assert [m["id"] for m in found["messages"]] == [mine["id"]]


def test_deletes_leave_tombstones(chat):
    env, ep = chat
    theirs = one(ep, f"SELECT * FROM messages WHERE author_id != '{ME}' AND {rules.OPEN_MESSAGE} ORDER BY id")
    fails(
        env,
        ep,
        "delete_message",
        f"cant_delete_message: {theirs['id']} was posted by {theirs['author_id']}; only its author or a workspace admin",
        message=theirs["id"],
    )
    mine = one(ep, f"SELECT * FROM messages WHERE {rules.MY_MESSAGE} ORDER BY id DESC")
    out = call(env, ep, "delete_message", message=mine["id"])
    assert out["text"] == "This message was deleted."
    assert set(changes(ep)) == {("messages", mine["id"], "deleted"), ("messages", mine["id"], "deleted_at")}
    fails(
        env, ep, "delete_message", f"message_not_found: message {mine['id']} was deleted", message=mine["id"]
    )
    fails(env, ep, "add_reaction", "message_not_found", message=mine["id"], emoji="eyes")


def test_admins_delete_anyone_s_message(chat):
    env, ep = chat
    admin = one(ep, "SELECT id FROM members WHERE is_admin AND status = 'active' ORDER BY id")["id"]
    login_as(env, ep, admin)
    msg = one(
        ep,
        "SELECT m.id FROM messages m JOIN channels c ON c.id = m.channel_id WHERE m.deleted = 0 AND "
        "c.is_archived = 0 AND m.author_id != ? AND EXISTS (SELECT 1 FROM memberships s WHERE "
        "s.channel_id = c.id AND s.member_id = ?) ORDER BY m.id",
        admin,
        admin,
    )
    call(env, ep, "delete_message", message=msg["id"])
    assert ("messages", msg["id"], "deleted") in changes(ep)


def test_reactions(chat):
    env, ep = chat
    msg = one(ep, f"SELECT * FROM messages WHERE {rules.OPEN_MESSAGE} ORDER BY id")
    fails(
        env,
        ep,
        "add_reaction",
        "invalid_name: 'thumbs up' is not an emoji name",
        message=msg["id"],
        emoji="thumbs up",
    )
    call(env, ep, "add_reaction", message=msg["id"], emoji=":Rocket:")
    assert tables(ep) == {"reactions"}
    fails(
        env,
        ep,
        "add_reaction",
        f"already_reacted: {ME} already reacted to {msg['id']} with :rocket:",
        message=msg["id"],
        emoji="rocket",
    )
    distinct = len(rows(ep, "SELECT DISTINCT emoji FROM reactions WHERE message_id = ?", msg["id"]))
    for k in range(50 - distinct):
        call(env, ep, "add_reaction", message=msg["id"], emoji=f"custom_{k}")
    fails(
        env,
        ep,
        "add_reaction",
        f"too_many_emoji: {msg['id']} already has 50 different emoji",
        message=msg["id"],
        emoji="one_more",
    )
    call(env, ep, "remove_reaction", message=msg["id"], emoji="rocket")
    fails(
        env,
        ep,
        "remove_reaction",
        f"no_reaction: {ME} has no :rocket: reaction on {msg['id']}",
        message=msg["id"],
        emoji="rocket",
    )


# -- direct messages ------------------------------------------------------------------------------


def test_direct_messages(chat):
    env, ep = chat
    dm = one(
        ep,
        "SELECT c.id, m.member_id FROM channels c JOIN memberships m ON m.channel_id = c.id "
        f"JOIN members p ON p.id = m.member_id WHERE c.kind = 'dm' AND {rules.seated('c.id')} "
        f"AND m.member_id != '{ME}' AND p.status = 'active' ORDER BY c.id",
    )
    again = call(env, ep, "open_direct_message", members=[dm["member_id"].removeprefix("@")])
    assert again["id"] == dm["id"] and again["already_open"] and ep.diff() == []
    fails(env, ep, "open_direct_message", f"cant_dm_self: {ME} is you", members=[ME])
    others = [
        r["id"]
        for r in rows(
            ep, "SELECT id FROM members WHERE status = 'active' AND id != ? ORDER BY id LIMIT 9", ME
        )
    ]
    fails(
        env,
        ep,
        "open_direct_message",
        "too_many_users: a group DM holds at most 9 people including you; 10",
        members=others,
    )
    gone = one(ep, "SELECT id FROM members WHERE status = 'deactivated' ORDER BY id")["id"]
    fails(env, ep, "open_direct_message", f"user_is_deactivated: {gone}", members=[gone])
    old = one(
        ep,
        "SELECT c.id FROM channels c JOIN memberships m ON m.channel_id = c.id WHERE c.kind = 'dm' "
        f"AND m.member_id = '{gone}' AND {rules.seated('c.id')}",
    )
    fails(env, ep, "post_message", f"user_is_deactivated: {gone}", channel=old["id"], text="are you there?")
    group = call(env, ep, "open_direct_message", members=others[:3])
    assert (
        group["kind"] == "group_dm"
        and not group["already_open"]
        and sorted(group["with"]) == sorted(others[:3])
    )
    assert tables(ep) == {"channels", "memberships"}
    assert len(rows(ep, "SELECT 1 FROM memberships WHERE channel_id = ?", group["id"])) == 4
    posted = call(env, ep, "post_message", channel=group["id"], text="Lunch at noon?")
    assert posted["channel"] == group["id"]


# -- search ---------------------------------------------------------------------------------------


def test_search_filters_and_visibility(chat):
    env, ep = chat
    msg = one(
        ep,
        "SELECT m.*, c.name FROM messages m JOIN channels c ON c.id = m.channel_id WHERE c.kind = 'channel' "
        "AND c.is_private = 0 AND m.deleted = 0 AND m.edited_at IS NULL AND m.text LIKE '%deploy%' ORDER BY m.id",
    )
    day = msg["created_at"][:10]
    q = f"deploy in:#{msg['name']} from:{msg['author_id']} after:2026-01-01 before:2026-12-31"
    found = call(env, ep, "search_messages", query=q, limit=100)
    assert msg["id"] in [m["id"] for m in found["messages"]]
    assert all(
        m["author"] == msg["author_id"] and m["channel"] == msg["channel_id"] for m in found["messages"]
    )
    later = call(env, ep, "search_messages", query=f"in:#{msg['name']} after:{day}", limit=100)
    assert all(m["created_at"][:10] > day for m in later["messages"])
    hidden = one(
        ep,
        f"SELECT c.id FROM channels c WHERE c.is_private = 1 AND NOT {rules.seated('c.id')} "
        "AND EXISTS (SELECT 1 FROM messages WHERE channel_id = c.id) ORDER BY c.id",
    )
    words = one(ep, "SELECT text FROM messages WHERE channel_id = ? AND deleted = 0", hidden["id"])[
        "text"
    ].split()[:3]
    found = call(env, ep, "search_messages", query=" ".join(words), limit=100)
    assert hidden["id"] not in {m["channel"] for m in found["messages"]}
    fails(
        env, ep, "search_messages", "invalid_search: before:yesterday is not a date", query="before:yesterday"
    )
    fails(env, ep, "search_messages", "user_not_found", query="from:@nobody deploy")
    assert ep.diff() == []
