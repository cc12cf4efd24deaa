"""The seeded mail itself: conversations (a copy in every hosted participant's mailbox), service
mail and spam, then drafts, contacts and filters. Called by the seed with its row builder."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from servers.domains.email import text
from servers.domains.email.model import MAIL_HOST, Attachment, Contact, Draft, Filter, Message
from servers.kit import Person

if TYPE_CHECKING:
    from servers.domains.email.seed import Build

GAP_HOURS = (0.3, 30.0)
LENGTHS = (1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 5, 6)  # messages per conversation
PERSONA_FILTERS = (  # (from_contains, subject_contains, action, label)
    ("newsletter@", None, "label", "Newsletters"),
    ("receipts@", None, "label", "Receipts"),
    (None, "invoice", "label", "Finance"),
    ("digest@", None, "mark_read", None),
    ("trips@", None, "label", "Travel"),
    ("alerts@", None, "star", None),
)


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "", name.casefold())


def seed_mail(b: Build, persona: Person, circle: list[Person], hosted: list[Person]) -> None:
    s = b.s
    colleagues = {p.email for p in s.world.colleagues(persona)}
    for _ in range(s.count(small=90, medium=1200, large=6000)):
        other = circle[int(len(circle) * b.rng.random() ** 2)]  # the front of the circle writes most
        work = other.email in colleagues or b.rng.random() < 0.4
        cc = [c for c in b.rng.sample(circle[:40], b.rng.choice((0, 0, 0, 1, 2))) if c not in (other,)]
        conversation(b, persona, other, cc if work else [], work)
    for p in hosted[1:]:
        for _ in range(b.rng.randint(*s.count(small=(2, 5), medium=(3, 10), large=(3, 10)))):
            other = b.rng.choice(hosted[1:] if b.rng.random() < 0.6 else circle)
            if other.email != p.email and other.email != persona.email:
                conversation(b, p, other, [], b.rng.random() < 0.6)
    service_mail(
        b,
        persona.email,
        s.count(small=25, medium=500, large=2500),
        spam=s.count(small=3, medium=90, large=400),
    )
    for p in hosted[1:]:
        service_mail(b, p.email, b.rng.randint(1, 5), spam=b.rng.randint(0, 1))
    big_files(b, persona)
    drafts(b, persona, circle, s.count(small=8, medium=25, large=60))
    contacts(b, persona, circle, hosted, s.count(small=20, medium=150, large=1200))
    filters(b, persona)


def conversation(b: Build, owner: Person, other: Person, cc: list[Person], work: bool) -> None:
    """A thread of 1-6 messages between ``owner`` and ``other`` (and cc'd people), stored once in
    every hosted participant's mailbox: SENT for the author, INBOX (maybe unread) for the rest."""
    rng = b.rng
    topic = rng.choice(text.WORK if work else text.PERSONAL)
    company = b.s.world.companies[rng.randrange(len(b.s.world.companies))].name
    slots = text.slots(
        rng,
        company=company,
        city=rng.choice(b.s.world.cities).name,
        names=f"{owner.first_name}, {other.first_name}",
    )
    subject = topic.subject.format(**slots)
    n = rng.choice(LENGTHS)
    at = b.ago(rng.uniform(0.05, 180))
    parties = [owner, other, *cc]
    state = {p.email: _folder(b, p, owner, topic, at) for p in parties if p.email in b.hosted}
    threads: dict[str, str] = {}
    author = other if rng.random() < 0.6 else owner
    prev = None
    for k in range(n):
        if at > b.now - timedelta(minutes=5):
            break
        to_person = owner if author is other else other
        line = rng.choice(topic.opening if k == 0 else topic.replies).format(**slots)
        greet = rng.choice(text.GREETINGS).format(first=to_person.first_name)
        body = f"{greet}\n\n{line}\n\n{rng.choice(text.SIGNOFFS)}\n{author.first_name}"
        b.rfc += 1
        m = {
            "rfc": f"m{b.rfc:07d}.{author.username}@{MAIL_HOST}",
            "in_reply_to": prev,
            "from_addr": author.email,
            "from_name": author.name,
            "to": [to_person.email],
            "cc": [c.email for c in cc],
            "subject": subject if k == 0 else f"Re: {subject}",
            "body": body,
            "at": at.isoformat(timespec="seconds"),
        }
        files = b.files(topic.attachment, slots) if k == 0 and topic.attachment and rng.random() < 0.7 else []
        for p in parties:
            if p.email not in b.hosted:
                continue
            if p.email not in threads:
                threads[p.email] = b.new_thread(p.email, subject)
            b.store(
                p.email,
                threads[p.email],
                m,
                received=p is not author,
                labels=_labels(b, p, author, m, state),
                files=files,
            )
        prev = m["rfc"]
        author = to_person
        at += timedelta(hours=rng.uniform(*GAP_HOURS))


def _folder(b: Build, p: Person, owner: Person, topic: text.Topic, at) -> dict:
    """Where a participant keeps the whole thread: archived, trashed, important, a user label."""
    rng = b.rng
    old = (b.now - at).days > 3
    label = topic.label if topic.label and (p.email, topic.label) in b.label and rng.random() < 0.5 else None
    return {
        "trash": rng.random() < 0.04,
        "archived": old and rng.random() < 0.3,
        "important": rng.random() < 0.1,
        "label": label,
    }


def _labels(b: Build, p: Person, author: Person, m: dict, state: dict) -> set[str]:
    st = state[p.email]
    out: set[str] = set()
    if p is author:
        out.add("SENT")
    else:
        if not st["archived"] and not st["trash"]:
            out.add("INBOX")
        if b.rng.random() < 0.06:
            out.add("STARRED")
        if "INBOX" in out and b.unread(m["at"]):
            out.add("UNREAD")
    if st["trash"]:
        out.add("TRASH")
    if st["important"]:
        out.add("IMPORTANT")
    if st["label"]:
        out.add(st["label"])
    return out


def service_mail(b: Build, mbx: str, n: int, *, spam: int) -> None:
    """Receipts, invoices, shipping notes, newsletters, itineraries and alerts; then spam."""
    rng, w = b.rng, b.s.world
    for _ in range(n):
        svc = rng.choice(text.SERVICES)
        merchant = w.merchants[rng.randrange(len(w.merchants))]
        slots = text.slots(rng, merchant=merchant.name, city=rng.choice(w.cities).name)
        domain = f"{_slug(merchant.name)}.example" if "{merchant}" in svc.name else f"{svc.local}.example"
        at = b.ago(rng.uniform(0.02, 180)).isoformat(timespec="seconds")
        b.rfc += 1
        m = {
            "rfc": f"n{b.rfc:07d}@{domain}",
            "in_reply_to": None,
            "from_addr": f"{svc.local}@{domain}",
            "from_name": svc.name.format(**slots),
            "to": [mbx],
            "cc": [],
            "subject": svc.subject.format(**slots),
            "body": svc.body.format(**slots),
            "at": at,
        }
        labels = _service_labels(b, mbx, svc, m)
        b.store(
            mbx,
            b.new_thread(mbx, m["subject"]),
            m,
            received=True,
            labels=labels,
            files=b.files(svc.attachment, slots),
        )
    for _ in range(spam):
        addr, name, subject, body = rng.choice(text.SPAM)
        b.rfc += 1
        m = {"rfc": f"s{b.rfc:07d}@spam.example", "in_reply_to": None, "from_addr": addr, "from_name": name,
             "to": [mbx], "cc": [], "subject": subject, "body": body,
             "at": b.ago(rng.uniform(0.1, 60)).isoformat(timespec="seconds")}  # fmt: skip
        b.store(mbx, b.new_thread(mbx, subject), m, received=True, labels={"SPAM", "UNREAD"}, files=[])


def _service_labels(b: Build, mbx: str, svc: text.Service, m: dict) -> set[str]:
    """Inbox and unread as for any mail, then the persona's filters, as if they ran on arrival."""
    out = {"INBOX"}
    if b.rng.random() < 0.35 and (b.now - _at(m)).days > 3:
        out.discard("INBOX")
    if "INBOX" in out and b.unread(m["at"]):
        out.add("UNREAD")
    if b.rng.random() < 0.03:
        out = (out - {"INBOX"}) | {"TRASH"}
    for frm, subj, action, label in _filters_of(b, mbx):
        if (frm and frm not in f"{m['from_name']} <{m['from_addr']}>".casefold()) or (
            subj and subj not in m["subject"].casefold()
        ):
            continue
        if action == "label":
            out.add(label)
        elif action == "mark_read":
            out.discard("UNREAD")
        elif action == "star":
            out.add("STARRED")
    return out


def _at(m: dict) -> datetime:
    return datetime.fromisoformat(m["at"])


def _filters_of(b: Build, mbx: str) -> tuple:
    return PERSONA_FILTERS if mbx == next(iter(b.hosted)) else ()


def big_files(b: Build, persona: Person) -> None:
    """A few received messages whose attachments are over the 25 MB a forward may carry."""
    inbox = [r for r in b.rows[Message] if r["mailbox_id"] == persona.email and r["received"]][-200:]
    taken = {r["message_id"] for r in b.rows[Attachment]}
    for r in [r for r in inbox if r["id"] not in taken][:: max(1, len(inbox) // 6)][:6]:
        f = b.files("video", text.slots(b.rng))[0]
        b.add(Attachment, message_id=r["id"], **f)


def drafts(b: Build, persona: Person, circle: list[Person], n: int) -> None:
    """The persona's drafts: replies waiting in threads, new messages, and a few with no recipient yet."""
    rng, me = b.rng, persona.email
    received = [
        r
        for r in b.rows[Message]
        if r["mailbox_id"] == me and r["received"] and "@mail.example" in r["rfc_id"]
    ]
    for i in range(n):
        at = b.ago(rng.uniform(0.1, 20)).isoformat(timespec="seconds")
        kind = i % 5
        if kind in (0, 1) and received:
            r = rng.choice(received)
            subject = r["subject"] if r["subject"].startswith("Re: ") else f"Re: {r['subject']}"
            row = {"thread_id": r["thread_id"], "reply_to_id": r["id"], "to_addrs": r["from_addr"], "subject": subject,
                   "body": rng.choice(("Thanks, I'll get back to you on this by Friday.", "Sounds good. One question:"))}  # fmt: skip
        else:
            other = circle[rng.randrange(min(len(circle), 80))]
            slots = text.slots(rng)
            topic = rng.choice(text.WORK)
            row = {"thread_id": None, "reply_to_id": None, "to_addrs": "" if kind == 4 else other.email,
                   "subject": topic.subject.format(**slots), "body": topic.opening[0].format(**slots)}  # fmt: skip
        b.add(Draft, mailbox_id=me, cc_addrs="", bcc_addrs="", created_at=at, updated_at=at, **row)


def contacts(b: Build, persona: Person, circle: list[Person], hosted: list[Person], n: int) -> None:
    """The persona's address book (her circle, colleagues first), and a few contacts in every
    other mailbox, the persona always among them."""
    w = b.s.world

    def save(mbx: str, p: Person, starred: bool) -> None:
        b.add(
            Contact,
            mailbox_id=mbx,
            name=p.name,
            email=p.email,
            company=w.employer(p).name,
            phone=p.phone,
            starred=starred,
        )

    saved = 0
    for i, p in enumerate(circle):
        if saved >= n:
            break
        if p.email in b.hosted and i >= 4 and i % 4 == 3:
            continue  # people she has mailed but never saved: add_contact finds them
        save(persona.email, p, saved < 10 or b.rng.random() < 0.05)
        saved += 1
    for h in hosted[1:]:
        save(h.email, persona, False)
        for p in b.rng.sample(hosted[1:], min(4, len(hosted) - 1)):
            if p.email != h.email:
                save(h.email, p, False)


def filters(b: Build, persona: Person) -> None:
    at = b.ago(90).isoformat(timespec="seconds")
    for frm, subj, action, label in _filters_of(b, persona.email):
        lid = b.label[(persona.email, label)] if label else None
        b.add(
            Filter,
            mailbox_id=persona.email,
            from_contains=frm,
            subject_contains=subj,
            action=action,
            label_id=lid,
            created_at=at,
        )
