"""Email's rules: refused calls name the values involved and change nothing; sends, replies,
forwards, drafts, labels, trash and filters change exactly the rows they should."""

from __future__ import annotations

import pytest

from servers.domains.email.model import KNOWN_LOCAL, MINE
from servers.domains.email.rules import IN_INBOX, IN_TRASH, NOT_TRASHED, UNREAD_INBOX, has_label
from servers.kit import world
from servers.registry import get_domain
from tests.domain_helpers import DomainCalls, changes

DOMAIN = "email"
calls = DomainCalls(DOMAIN)
call, fails, rows, one = calls.call, calls.fails, calls.rows, calls.one
DISCOVERY = {"list_records", "search_records", "get_unique_values"}
PERSONA = world(0, "small").persona
ME = PERSONA.email
SENDING = {"messages", "message_labels", "threads", "mailboxes"}


@pytest.fixture
def mail(make_env):
    env = make_env("email")
    return env, env.open()


def tables(ep) -> set[str]:
    return {c["table"] for c in ep.diff()}


def new_ids(ep, table: str) -> list[str]:
    return sorted({c["pk"] for c in ep.diff() if c["table"] == table and c.get("op") == "insert"})


def labels_of(ep, message_id: str) -> set[str]:
    found = rows(
        ep,
        "SELECT l.name FROM message_labels ml JOIN labels l ON l.id = ml.label_id WHERE ml.message_id = ?",
        message_id,
    )
    return {r["name"] for r in found}


def peer(ep) -> dict:
    """A colleague-or-friend mailbox on this server that the persona has saved as a contact."""
    return one(ep, f"SELECT * FROM mailboxes WHERE {KNOWN_LOCAL} ORDER BY id")


def copy_in(ep, mailbox: str, rfc: str) -> dict:
    return one(ep, "SELECT * FROM messages WHERE mailbox_id = ? AND rfc_id = ?", mailbox, rfc)


def login_as(env, ep, address: str) -> None:
    pw = one(ep, "SELECT password FROM mailboxes WHERE id = ?", address)["password"]
    call(env, ep, "login", address=address, password=pw)


# -- catalogue and seed ----------------------------------------------------------------------------


def test_tools_each_with_two_ways_to_ask_and_true_hints():
    domain = get_domain(DOMAIN)
    own = [t for name, t in domain.tools.items() if name not in DISCOVERY and not t.hidden]
    assert len(own) >= 22
    assert all(len(t.says) >= 2 for t in own), [t.name for t in own if len(t.says) < 2]
    assert domain.append_only() == {"messages": frozenset(), "attachments": frozenset()}
    assert set(domain.variants) == {"logged_out"} and domain.variants["logged_out"].first == "login"
    for name in ("delete_draft", "delete_label", "send_draft"):
        assert domain.tools[name].annotations()["destructiveHint"], name
    for name in ("mark_read", "modify_labels", "archive_message", "update_draft"):
        assert domain.tools[name].annotations()["idempotentHint"], name
    to = domain.tools["send_email"].input_schema()["properties"]["to"]
    assert to["type"] == "array" and to["maxItems"] == 100 and "pattern" in to["items"]


def test_sampler_pools_at_medium(medium):
    def count(sql: str) -> int:
        return medium.execute(sql).fetchone()[0]

    assert count(f"SELECT count(*) FROM messages WHERE {UNREAD_INBOX}") >= 400
    assert count(f"SELECT count(*) FROM drafts WHERE {MINE}") >= 25
    assert count(f"SELECT count(*) FROM threads WHERE {MINE} AND message_count >= 3") >= 300
    mine_with_files = (
        f"SELECT count(*) FROM messages WHERE {MINE} AND id IN (SELECT message_id FROM attachments)"
    )
    assert count(mine_with_files) >= 100
    assert count(f"SELECT count(*) FROM mailboxes WHERE {KNOWN_LOCAL}") >= 60
    assert count("SELECT count(*) FROM mailboxes") == 120
    assert count("SELECT count(*) FROM mailboxes WHERE status = 'suspended'") == 2
    assert count("SELECT count(*) FROM mailboxes WHERE used_mb > quota_mb - 1") == 3
    assert count(f"SELECT count(*) FROM messages WHERE {MINE}") >= 3000
    assert count(f"SELECT count(*) FROM messages WHERE {IN_TRASH}") >= 50
    assert count(f"SELECT count(*) FROM messages WHERE {MINE} AND {has_label('SPAM')}") >= 50
    assert count(f"SELECT count(*) FROM labels WHERE {MINE} AND kind = 'user'") == 12
    assert count(f"SELECT count(*) FROM contacts WHERE {MINE}") == 150
    assert count(f"SELECT count(*) FROM filters WHERE {MINE}") == 6
    big = "(SELECT sum(size_kb) FROM attachments a WHERE a.message_id = messages.id) > 25600"
    assert count(f"SELECT count(*) FROM messages WHERE {MINE} AND {big}") >= 3
    # every message copy of the persona is threaded in her mailbox, and counts agree
    assert (
        count(
            "SELECT count(*) FROM threads t WHERE message_count != "
            "(SELECT count(*) FROM messages m WHERE m.thread_id = t.id)"
        )
        == 0
    )


def test_persona_and_her_circle_have_the_mailboxes(medium):
    w = world(0, "medium")
    persona = w.persona
    assert medium.execute("SELECT mailbox_id FROM sessions").fetchone() == (persona.email,)
    row = medium.execute("SELECT display_name, person_id FROM mailboxes WHERE id = ?", (persona.email,))
    assert row.fetchone() == (persona.name, 0)
    circle = [p.email for p in w.circle(persona, 119)]
    hosted = [
        r[0] for r in medium.execute("SELECT id FROM mailboxes WHERE person_id != 0 ORDER BY person_id")
    ]
    assert sorted(hosted) == sorted(circle)  # colleagues first, then the fixed order of others
    mates = {p.email for p in w.colleagues(persona)}
    assert mates and mates <= set(hosted)
    writers = {r[0] for r in medium.execute(f"SELECT from_addr FROM messages WHERE {MINE} AND received")}
    assert len(writers & set(hosted)) >= 100  # the people she deals with are the ones who write


# -- signing in -----------------------------------------------------------------------------------


def test_logged_out_tools_need_login_and_a_right_password(make_env):
    env = make_env("email")
    ep = env.open({"email": "logged_out"})
    for tool, args in [
        ("list_messages", {}),
        ("list_labels", {}),
        ("send_email", {"to": [ME], "subject": "x", "body": "y"}),
    ]:
        fails(env, ep, tool, r"^nobody is signed in; call login first$", **args)
    pw = one(ep, "SELECT password FROM mailboxes WHERE id = ?", ME)["password"]
    fails(env, ep, "login", f"wrong address or password for '{ME}'", address=ME, password=pw + "x")
    out = call(env, ep, "login", address=ME, password=pw)
    assert out["mailbox"] == ME and tables(ep) == {"sessions"}
    assert call(env, ep, "list_messages", limit=1)["total"] > 0
    call(env, ep, "logout")
    fails(env, ep, "logout", "nobody is signed in")


# -- sending ----------------------------------------------------------------------------------------


def test_send_delivers_locally_keeps_bcc_private_and_skips_external(mail):
    env, ep = mail
    a, b = (r["id"] for r in rows(ep, f"SELECT id FROM mailboxes WHERE {KNOWN_LOCAL} ORDER BY id LIMIT 2"))
    used = {r["id"]: r["used_mb"] for r in rows(ep, "SELECT id, used_mb FROM mailboxes")}
    out = call(
        env,
        ep,
        "send_email",
        to=[a, "someone@elsewhere.example"],
        subject="Plans",
        body="See you at 10.",
        bcc=[b],
    )
    assert (
        out["delivered"] == [a, b]
        and out["external"] == ["someone@elsewhere.example"]
        and out["bounced"] == []
    )
    assert tables(ep) == SENDING
    sent = one(ep, "SELECT * FROM messages WHERE id = ?", out["message"])
    assert sent["mailbox_id"] == ME and not sent["received"] and sent["bcc_addrs"] == b
    assert labels_of(ep, sent["id"]) == {"SENT"}
    for addr in (a, b):
        got = copy_in(ep, addr, out["rfc_id"])
        assert got["received"] and got["bcc_addrs"] == "" and got["from_addr"] == ME
        assert labels_of(ep, got["id"]) == {"INBOX", "UNREAD"}
        assert (
            one(ep, "SELECT message_count FROM threads WHERE id = ?", got["thread_id"])["message_count"] == 1
        )
        assert one(ep, "SELECT used_mb FROM mailboxes WHERE id = ?", addr)["used_mb"] > used[addr]
    assert len(new_ids(ep, "messages")) == 3  # nothing stored for the external address


def test_a_full_or_suspended_recipient_bounces_back_to_the_sender(mail):
    env, ep = mail
    full = one(ep, "SELECT id, used_mb, quota_mb FROM mailboxes WHERE used_mb >= quota_mb ORDER BY id")
    gone = one(ep, "SELECT id FROM mailboxes WHERE status = 'suspended' ORDER BY id")["id"]
    out = call(env, ep, "send_email", to=[full["id"], gone], subject="Hello", body="Are you there?")
    assert out["delivered"] == [] and [b["address"] for b in out["bounced"]] == [full["id"], gone]
    assert "is full (1024.0 of 1024 MB used" in out["bounced"][0]["reason"]
    assert "is suspended" in out["bounced"][1]["reason"]
    notes = rows(ep, "SELECT * FROM messages WHERE mailbox_id = ? AND from_addr = 'mailer-daemon@mail.example' "
                 "AND in_reply_to = ?", ME, out["rfc_id"])  # fmt: skip
    assert len(notes) == 2 and all(n["thread_id"] == out["thread"] for n in notes)
    assert all(labels_of(ep, n["id"]) == {"INBOX", "UNREAD"} for n in notes)
    assert f"to {full['id']} could not be delivered" in notes[0]["body"]
    assert rows(ep, "SELECT id FROM messages WHERE mailbox_id IN (?, ?)", full["id"], gone) == rows(
        ep, "SELECT id FROM messages WHERE mailbox_id IN (?, ?) AND id < ?", full["id"], gone, out["message"]
    )


def test_suspended_or_full_senders_and_too_many_recipients_are_refused(mail):
    env, ep = mail
    many = [f"guest{i}@party.example" for i in range(60)]
    more = [f"friend{i}@party.example" for i in range(45)]
    fails(env, ep, "send_email", r"105 recipients in to, cc and bcc together; at most 100", to=many, cc=more,
          subject="Party", body="Come!")  # fmt: skip
    gone = one(ep, "SELECT id FROM mailboxes WHERE status = 'suspended' ORDER BY id")["id"]
    login_as(env, ep, gone)
    fails(
        env, ep, "send_email", f"mailbox {gone} is suspended and cannot send", to=[ME], subject="x", body="y"
    )
    full = one(ep, "SELECT id FROM mailboxes WHERE used_mb >= quota_mb AND status = 'active' ORDER BY id")[
        "id"
    ]
    login_as(env, ep, full)
    fails(
        env, ep, "send_email", r"your mailbox is full: 1024.0 of 1024 MB used", to=[ME], subject="x", body="y"
    )


def test_reply_keeps_the_thread_in_both_mailboxes(mail):
    env, ep = mail
    hosted = "SELECT id FROM mailboxes WHERE status = 'active' AND used_mb < quota_mb - 1"
    orig = one(ep, f"SELECT * FROM messages WHERE {MINE} AND received AND cc_addrs = '' AND subject NOT LIKE 'Re:%' "
               f"AND from_addr IN ({hosted}) ORDER BY id")  # fmt: skip
    theirs = copy_in(ep, orig["from_addr"], orig["rfc_id"])
    out = call(env, ep, "reply_to_message", message=orig["id"], body="Thanks, will do.")
    sent = one(ep, "SELECT * FROM messages WHERE id = ?", out["message"])
    assert sent["thread_id"] == orig["thread_id"] and sent["in_reply_to"] == orig["rfc_id"]
    assert sent["subject"] == f"Re: {orig['subject']}" and sent["to_addrs"] == orig["from_addr"]
    assert copy_in(ep, orig["from_addr"], out["rfc_id"])["thread_id"] == theirs["thread_id"]
    again = call(
        env, ep, "reply_to_message", message=copy_in(ep, ME, out["rfc_id"])["id"], body="And another thing."
    )
    assert again["subject"] == f"Re: {orig['subject']}"  # "Re: " only once
    assert again["delivered"] == [orig["from_addr"]]  # replying to your own message goes to its recipients


def test_reply_all_leaves_out_your_own_address_and_drafts_cannot_be_replied_to(mail):
    env, ep = mail
    orig = one(ep, f"SELECT * FROM messages WHERE {MINE} AND received AND cc_addrs != '' ORDER BY id")
    out = call(env, ep, "reply_to_message", message=orig["id"], body="Agreed.", reply_all=True)
    sent = one(ep, "SELECT * FROM messages WHERE id = ?", out["message"])
    everyone = f"{sent['to_addrs']}, {sent['cc_addrs']}".split(", ")
    assert ME not in everyone and orig["from_addr"] in everyone
    assert set(orig["cc_addrs"].split(", ")) - {ME} <= set(everyone)
    draft = one(ep, f"SELECT id FROM drafts WHERE {MINE} ORDER BY id")["id"]
    fails(env, ep, "reply_to_message", f"{draft} is a draft", message=draft, body="x")
    other = one(ep, "SELECT id FROM messages WHERE mailbox_id != ? ORDER BY id", ME)["id"]
    fails(
        env,
        ep,
        "reply_to_message",
        f"email '{other}' does not exist in mailbox {ME}",
        message=other,
        body="x",
    )


def test_forward_keeps_attachments_and_refuses_over_25_mb(mail):
    env, ep = mail
    small = "(SELECT sum(size_kb) FROM attachments a WHERE a.message_id = messages.id)"
    orig = one(ep, f"SELECT * FROM messages WHERE {MINE} AND {small} < 25600 ORDER BY id")
    to = peer(ep)["id"]
    out = call(env, ep, "forward_message", message=orig["id"], to=[to], note="FYI")
    files = rows(ep, "SELECT name, size_kb FROM attachments WHERE message_id = ? ORDER BY id", orig["id"])
    for mid in (out["message"], copy_in(ep, to, out["rfc_id"])["id"]):
        assert (
            rows(ep, "SELECT name, size_kb FROM attachments WHERE message_id = ? ORDER BY id", mid) == files
        )
    sent = one(ep, "SELECT * FROM messages WHERE id = ?", out["message"])
    assert sent["subject"] == f"Fwd: {orig['subject']}" and sent["thread_id"] == orig["thread_id"]
    assert sent["body"].startswith("FYI\n\n---------- Forwarded message") and orig["body"] in sent["body"]
    big = one(ep, f"SELECT id, {small} AS kb FROM messages WHERE {MINE} AND {small} > 25600 ORDER BY id")
    mb = f"{round(big['kb'], 1) / 1024:.1f}"
    fails(env, ep, "forward_message", rf"attachments total {mb} MB \(\d+ files?\); a message may carry at most 25 MB",
          message=big["id"], to=[to])  # fmt: skip


# -- drafts ---------------------------------------------------------------------------------------


def test_drafts_are_created_edited_sent_and_discarded(mail):
    env, ep = mail
    fails(env, ep, "create_draft", "an empty draft")
    orig = one(
        ep, f"SELECT * FROM messages WHERE {MINE} AND received AND subject NOT LIKE 'Re:%' ORDER BY id"
    )
    d = call(env, ep, "create_draft", reply_to=orig["id"], body="Draft reply")
    assert (
        d["thread_id"] == orig["thread_id"]
        and d["to"] == [orig["from_addr"]]
        and d["subject"] == f"Re: {orig['subject']}"
    )
    assert tables(ep) == {"drafts"}
    ep.reset()
    blank = one(ep, f"SELECT * FROM drafts WHERE {MINE} AND to_addrs = '' ORDER BY id")
    fails(
        env,
        ep,
        "send_draft",
        f"draft {blank['id']} has no recipients; add them with update_draft",
        draft=blank["id"],
    )
    fails(env, ep, "update_draft", "nothing to change", draft=blank["id"])
    to = peer(ep)["id"]
    call(env, ep, "update_draft", draft=blank["id"], to=[to], subject="Updated subject")
    assert tables(ep) == {"drafts"}
    row = one(ep, "SELECT * FROM drafts WHERE id = ?", blank["id"])
    assert (row["to_addrs"], row["subject"], row["body"]) == (to, "Updated subject", blank["body"])
    out = call(env, ep, "send_draft", draft=blank["id"])
    assert rows(ep, "SELECT id FROM drafts WHERE id = ?", blank["id"]) == []
    assert copy_in(ep, to, out["rfc_id"])["subject"] == "Updated subject"
    fails(
        env, ep, "update_draft", f"draft '{blank['id']}' does not exist", draft=blank["id"], body="too late"
    )
    other = one(ep, f"SELECT id FROM drafts WHERE {MINE} ORDER BY id")["id"]
    call(env, ep, "delete_draft", draft=other)
    assert rows(ep, "SELECT id FROM drafts WHERE id = ?", other) == []


# -- labels, read, archive, trash -----------------------------------------------------------------


def test_label_rules(mail):
    env, ep = mail
    m = one(ep, f"SELECT id FROM messages WHERE {NOT_TRASHED} AND received ORDER BY id")["id"]
    fails(env, ep, "modify_labels", "SENT cannot be applied by hand", message=m, add=["SENT"])
    fails(env, ep, "modify_labels", "DRAFT cannot be removed by hand", message=m, remove=["draft"])
    fails(env, ep, "modify_labels", "use trash_message or untrash_message", message=m, add=["TRASH"])
    fails(
        env,
        ep,
        "modify_labels",
        "Travel cannot be both added and removed",
        message=m,
        add=["Travel"],
        remove=["travel"],
    )
    fails(
        env, ep, "modify_labels", r"no label 'Nope' in .*; its labels are: .*Travel", message=m, add=["Nope"]
    )
    fails(env, ep, "modify_labels", "nothing to change", message=m)
    trashed = one(ep, f"SELECT id FROM messages WHERE {IN_TRASH} ORDER BY id")["id"]
    fails(
        env,
        ep,
        "modify_labels",
        f"email {trashed} is in the trash; untrash it",
        message=trashed,
        add=["STARRED"],
    )
    before = labels_of(ep, m)
    out = call(env, ep, "modify_labels", message=m, add=["travel", "STARRED"])
    assert labels_of(ep, m) == before | {"Travel", "STARRED"} and out["changed"] == 1
    assert tables(ep) == {"message_labels"}


def test_read_archive_trash_and_untrash(mail):
    env, ep = mail
    m = one(ep, f"SELECT id FROM messages WHERE {UNREAD_INBOX} ORDER BY id")["id"]
    call(env, ep, "mark_read", message=m)
    assert "UNREAD" not in labels_of(ep, m)
    call(env, ep, "mark_read", message=m, read=False)
    assert "UNREAD" in labels_of(ep, m)
    call(env, ep, "archive_message", message=m)
    assert "INBOX" not in labels_of(ep, m)
    fails(env, ep, "archive_message", f"email {m} is not in the inbox", message=m)
    call(env, ep, "trash_message", message=m)
    assert {"TRASH"} <= labels_of(ep, m)
    fails(env, ep, "trash_message", f"email {m} is already in the trash", message=m)
    call(env, ep, "untrash_message", message=m)
    assert "TRASH" not in labels_of(ep, m) and "INBOX" in labels_of(ep, m)  # received: back to the inbox
    fails(env, ep, "untrash_message", f"email {m} is not in the trash", message=m)
    assert tables(ep) == {"message_labels"}
    sent = one(ep, f"SELECT id FROM messages WHERE {NOT_TRASHED} AND NOT received ORDER BY id")["id"]
    call(env, ep, "trash_message", message=sent)
    call(env, ep, "untrash_message", message=sent)
    assert "INBOX" not in labels_of(ep, sent) and "SENT" in labels_of(ep, sent)  # sent copies do not


def test_whole_thread_changes_every_message_of_it(mail):
    env, ep = mail
    t = one(ep, f"SELECT id FROM threads WHERE {MINE} AND message_count >= 3 AND id NOT IN (SELECT thread_id FROM "
            f"messages WHERE {IN_TRASH}) ORDER BY id")["id"]  # fmt: skip
    ids = [r["id"] for r in rows(ep, "SELECT id FROM messages WHERE thread_id = ?", t)]
    call(env, ep, "trash_message", message=ids[0], whole_thread=True)
    assert all("TRASH" in labels_of(ep, i) and "INBOX" not in labels_of(ep, i) for i in ids)


def test_labels_are_created_and_deleted_with_their_rules(mail):
    env, ep = mail
    fails(
        env,
        ep,
        "create_label",
        "'inbox' is the system label INBOX; system labels cannot be created",
        name="inbox",
    )
    fails(
        env,
        ep,
        "create_label",
        r"a label named 'Travel' already exists \(LBL-\d+\); label names ignore case",
        name="TRAVEL",
    )
    out = call(env, ep, "create_label", name="Conferences", color="teal")
    assert out["kind"] == "user" and tables(ep) == {"labels"}
    ep.reset()
    sys_label = one(ep, f"SELECT id FROM labels WHERE {MINE} AND name = 'INBOX'")["id"]
    fails(env, ep, "delete_label", "INBOX is a system label", label=sys_label)
    finance = one(ep, f"SELECT * FROM labels WHERE {MINE} AND name = 'Finance'")
    tagged = [
        r["message_id"]
        for r in rows(ep, "SELECT message_id FROM message_labels WHERE label_id = ?", finance["id"])
    ]
    out = call(env, ep, "delete_label", label="finance")
    assert out["messages_unlabelled"] == len(tagged) > 0 and out["filters_deleted"] == 1
    assert rows(ep, "SELECT id FROM filters WHERE label_id = ?", finance["id"]) == []
    assert all(one(ep, "SELECT id FROM messages WHERE id = ?", m) for m in tagged)  # the mail stays
    assert tables(ep) == {"labels", "message_labels", "filters"}


# -- filters, contacts, search ----------------------------------------------------------------------


def test_filter_rules_and_apply_to_existing(mail):
    env, ep = mail
    fails(env, ep, "create_filter", "at least one criterion", action="archive")
    fails(env, ep, "create_filter", "action label needs the label", from_contains="x")
    fails(
        env,
        ep,
        "create_filter",
        "archive takes no label",
        action="archive",
        from_contains="x",
        label="Travel",
    )
    fails(
        env,
        ep,
        "create_filter",
        "not the system label STARRED; use action star",
        from_contains="x",
        label="STARRED",
    )
    fails(
        env,
        ep,
        "create_filter",
        r"filter FLT-\d+ already does exactly this",
        from_contains="Receipts@",
        label="receipts",
    )
    hits = rows(ep, f"SELECT id FROM messages WHERE {MINE} AND received AND {NOT_TRASHED} AND subject LIKE '%digest%' "
                f"AND {has_label('INBOX')}")  # fmt: skip
    out = call(
        env, ep, "create_filter", action="archive", subject_contains="weekly digest", apply_to_existing=True
    )
    assert out["applied_to_existing"] == len(hits) > 0
    assert all("INBOX" not in labels_of(ep, h["id"]) for h in hits)
    assert tables(ep) == {"filters", "message_labels"}


def test_filters_run_on_local_delivery(mail):
    env, ep = mail
    friend = peer(ep)["id"]
    login_as(env, ep, friend)
    call(env, ep, "create_label", name="From boss")
    call(env, ep, "create_filter", from_contains=PERSONA.last_name, label="From boss")
    login_as(env, ep, ME)
    out = call(env, ep, "send_email", to=[friend], subject="Status", body="All good.")
    assert labels_of(ep, copy_in(ep, friend, out["rfc_id"])["id"]) == {"INBOX", "UNREAD", "From boss"}


def test_contacts(mail):
    env, ep = mail
    fresh = one(ep, "SELECT * FROM mailboxes WHERE id != ? AND id NOT IN (SELECT email FROM contacts "
                "WHERE mailbox_id = ?) ORDER BY id", ME, ME)  # fmt: skip
    out = call(env, ep, "add_contact", email=fresh["id"].upper())
    assert (out["name"], out["email"]) == (fresh["display_name"], fresh["id"]) and tables(ep) == {"contacts"}
    fails(env, ep, "add_contact", f"{fresh['id']} is already a contact", email=fresh["id"])
    fails(
        env,
        ep,
        "add_contact",
        "no mailbox on this server to take a name from",
        email="new.person@far.example",
    )
    fails(env, ep, "add_contact", "is your own address", email=ME)
    found = call(
        env, ep, "search_contacts", query=f"{fresh['display_name'].split()[0]} {fresh['id'].split('@')[1]}"
    )
    assert out["id"] in [c["id"] for c in found["contacts"]]


def test_search_language(mail):
    env, ep = mail
    total = one(ep, f"SELECT count(*) AS n FROM messages WHERE {MINE} AND {has_label('TRASH', negate=True)} "
                f"AND {has_label('SPAM', negate=True)}")["n"]  # fmt: skip
    assert call(env, ep, "search_messages", limit=1)["total"] == total
    unread_files = call(env, ep, "search_messages", query="is:unread has:attachment", limit=100)
    assert unread_files["messages"] and all(
        m["unread"] and m["attachments"] for m in unread_files["messages"]
    )
    trash = call(env, ep, "search_messages", query="in:trash", limit=100)
    assert trash["total"] == one(ep, f"SELECT count(*) AS n FROM messages WHERE {IN_TRASH}")["n"]
    sender = one(
        ep,
        f"SELECT from_addr FROM messages WHERE {IN_INBOX} AND received AND sent_at > '2026-02' ORDER BY id",
    )["from_addr"]
    got = call(env, ep, "search_messages", sender=sender, after="2026-01-01", limit=100)
    assert got["messages"] and all(m["from_addr"] == sender for m in got["messages"])
    fails(env, ep, "search_messages", r"unknown search operator size:; supported: from:", query="size:10")
    fails(env, ep, "search_messages", "before:2026-13-01 is not a date", query="before:2026-13-01")
    fails(env, ep, "search_messages", "newer_than:soon is not an age", query="newer_than:soon")
    fails(
        env,
        ep,
        "search_messages",
        "after 2026-05-01 is not before 2026-04-01",
        after="2026-05-01",
        before="2026-04-01",
    )
    recent = call(env, ep, "search_messages", query="newer_than:7d", limit=100)
    assert all(m["sent_at"] >= "2026-05-25" for m in recent["messages"])


def test_mark_read_changes_exactly_one_label_row(mail):
    env, ep = mail
    m = one(ep, f"SELECT id FROM messages WHERE {UNREAD_INBOX} ORDER BY id")["id"]
    unread = one(ep, f"SELECT id FROM labels WHERE {MINE} AND name = 'UNREAD'")["id"]
    link = one(ep, "SELECT id FROM message_labels WHERE message_id = ? AND label_id = ?", m, unread)["id"]
    call(env, ep, "mark_read", message=m)
    got = changes(ep)
    assert {k[:2] for k in got} == {("message_labels", link)}
    assert all(c["op"] == "delete" for c in got.values())
    call(env, ep, "mark_read", message=m)  # idempotent: nothing more changes
    assert changes(ep) == got


def test_create_label_adds_one_row_with_its_values(mail):
    env, ep = mail
    out = call(env, ep, "create_label", name="  Side   project ", color="green")
    got = changes(ep)
    assert {k[:2] for k in got} == {("labels", out["id"])}
    assert {k[2]: c["new"] for k, c in got.items()} == {
        "id": out["id"], "mailbox_id": ME, "name": "Side project", "kind": "user", "color": "green"
    }  # fmt: skip


def test_list_attachments_by_name_and_kind(mail):
    env, ep = mail
    pdfs = call(env, ep, "list_attachments", kind="pdf", limit=100)
    assert pdfs["attachments"] and all(a["mime"] == "application/pdf" for a in pdfs["attachments"])
    first = pdfs["attachments"][0]
    named = call(env, ep, "list_attachments", query=first["name"])
    assert first["id"] in [a["id"] for a in named["attachments"]]
    got = call(env, ep, "get_attachment", attachment=first["id"])
    assert got["name"] == first["name"] and got["subject"] == first["subject"]
    other = one(ep, "SELECT a.id FROM attachments a JOIN messages m ON m.id = a.message_id WHERE m.mailbox_id != ? "
                "ORDER BY a.id", ME)["id"]  # fmt: skip
    fails(env, ep, "get_attachment", f"attachment '{other}' does not exist in mailbox {ME}", attachment=other)


def test_a_recipient_listed_twice_is_refused(mail):
    env, ep = mail
    to = peer(ep)["id"]
    fails(env, ep, "send_email", f"{to} is listed more than once across to, cc and bcc", to=[to], cc=[to.upper()],
          subject="Hi", body="Twice?")  # fmt: skip
