"""The seeded mail server: a mailbox for the persona and her circle, months of conversations with
copies in every hosted participant's mailbox, service mail, spam, drafts, contacts and filters;
and the logged-out variant."""

from __future__ import annotations

from collections import Counter
from datetime import datetime, timedelta
from typing import Any

from servers.domains.email import text
from servers.domains.email.mail import seed_mail
from servers.domains.email.model import (
    COLORS,
    SYSTEM_LABELS,
    Attachment,
    Contact,
    Draft,
    Filter,
    Label,
    Mailbox,
    Message,
    MessageLabel,
    Session,
    Thread,
    email,
)
from servers.kit import Db, Person, Seeder, marks
from servers.kit.db import format_id

QUOTA_MB = 15_360.0


class Build:
    """Rows of every table, collected in memory with their ids, then inserted in one pass."""

    def __init__(self, s: Seeder, hosted: list[Person]) -> None:
        self.s, self.rng, self.now = s, s.rng, s.now
        self.hosted = {p.email: p for p in hosted}
        self.rows: dict[Any, list[dict]] = {
            t: [] for t in (Mailbox, Label, Thread, Message, MessageLabel, Attachment, Draft, Contact, Filter)
        }
        self.n: Counter[str] = Counter()
        self.label: dict[tuple[str, str], str] = {}
        self.thread: dict[str, dict] = {}
        self.rfc = 0

    def id(self, table: Any) -> str:
        self.n[marks(table).prefix] += 1
        return format_id(marks(table).prefix, self.n[marks(table).prefix])

    def add(self, table: Any, **row: Any) -> str:
        row = {"id": self.id(table), **row}
        self.rows[table].append(row)
        return row["id"]

    def ago(self, days: float) -> datetime:
        return self.now - timedelta(days=days)

    # -- mailboxes and labels ---------------------------------------------------------------------
    def mailboxes(self, hosted: list[Person]) -> None:
        special = {p.email: i for i, p in enumerate(reversed(hosted[1:]))}  # from the end of the list
        for p in hosted:
            k = special.get(p.email, 99)
            quota, used = QUOTA_MB, round(self.rng.uniform(300, 9000), 1)
            if k in (2, 3):
                quota, used = 1024.0, 1024.0  # full
            elif k == 4:
                quota, used = 1024.0, 1023.5  # half a megabyte left
            self.rows[Mailbox].append(
                {
                    "id": p.email,
                    "person_id": p.index,
                    "display_name": p.name,
                    "signature": f"{p.name}\n{p.title}, {self.s.world.employer(p).name}",
                    "password": self.s.fake.password(length=12, special_chars=False),
                    "quota_mb": quota,
                    "used_mb": used,
                    "status": "suspended" if k in (0, 1) else "active",
                }
            )
            for name in SYSTEM_LABELS:
                self.label[(p.email, name)] = self.add(
                    Label, mailbox_id=p.email, name=name, kind="system", color=None
                )

    def user_labels(self, mbx: str, names: tuple[str, ...]) -> None:
        for name in names:
            lid = self.add(Label, mailbox_id=mbx, name=name, kind="user", color=self.rng.choice(COLORS))
            self.label[(mbx, name)] = lid

    # -- messages ---------------------------------------------------------------------------------
    def new_thread(self, mbx: str, subject: str) -> str:
        tid = self.add(Thread, mailbox_id=mbx, subject=subject, last_at="", message_count=0)
        self.thread[tid] = self.rows[Thread][-1]
        return tid

    def store(
        self, mbx: str, tid: str, m: dict, *, received: bool, labels: set[str], files: list[dict]
    ) -> str:
        size = round((len(m["subject"]) + len(m["body"]) + 600) / 1024 + sum(f["size_kb"] for f in files), 1)
        mid = self.add(
            Message,
            mailbox_id=mbx,
            thread_id=tid,
            rfc_id=m["rfc"],
            in_reply_to=m["in_reply_to"],
            from_addr=m["from_addr"],
            from_name=m["from_name"],
            to_addrs=", ".join(m["to"]),
            cc_addrs=", ".join(m["cc"]),
            bcc_addrs="",
            subject=m["subject"],
            body=m["body"],
            sent_at=m["at"],
            size_kb=size,
            received=received,
        )
        t = self.thread[tid]
        t["last_at"], t["message_count"] = max(t["last_at"], m["at"]), t["message_count"] + 1
        for name in sorted(labels):
            lid = self.label.get((mbx, name))
            if lid is not None:
                self.add(MessageLabel, message_id=mid, label_id=lid)
        for f in files:
            self.add(Attachment, message_id=mid, **f)
        return mid

    def unread(self, at: str) -> bool:
        age = (self.now - datetime.fromisoformat(at)).days
        return self.rng.random() < (0.8 if age < 7 else 0.55 if age < 30 else 0.3)

    def files(self, kind: str | None, slots: dict[str, str]) -> list[dict]:
        if kind is None:
            return []
        fk = text.ATTACHMENTS[kind]
        name = self.rng.choice(fk.names).format(**slots).replace(" ", "_")
        preview = fk.preview.format(**slots) if fk.preview else None
        size = round(self.rng.uniform(fk.low_kb, fk.high_kb), 1)
        return [{"name": name, "mime": fk.mime, "size_kb": size, "text_preview": preview}]


@email.seed
def fill(s: Seeder) -> None:
    w = s.world
    persona = w.persona
    circle = w.circle(persona, s.count(small=30, medium=300, large=2500))
    hosted = [persona, *circle[: s.count(small=11, medium=119, large=999)]]
    b = Build(s, hosted)
    b.mailboxes(hosted)
    b.user_labels(persona.email, text.USER_LABELS)
    for p in hosted[1:]:
        b.user_labels(p.email, tuple(b.rng.sample(text.USER_LABELS, b.rng.randint(0, 3))))
    seed_mail(b, persona, circle, hosted)
    s.add(Mailbox, b.rows[Mailbox])
    s.add(Session, [{"id": "SES-000001", "mailbox_id": persona.email, "logged_in_at": s.now.isoformat()}])
    for table in (Label, Thread, Message, MessageLabel, Attachment, Draft, Contact, Filter):
        s.add(table, b.rows[table])


@email.variant("logged_out", first="login")
def logged_out(db: Db) -> None:
    """Nobody is signed in: every mailbox tool fails until the user logs in."""
    db.set_acting(mailbox_id=None, logged_in_at=None)
