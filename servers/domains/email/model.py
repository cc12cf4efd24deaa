"""The mail service's tables, fixed facts and parameter types."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, Field
from sqlalchemy import ForeignKey, Index, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from servers.kit import Domain, Email, LongText, RefInfo, Sensitive, ShortText

email = Domain(
    "email",
    "Mailbox: inbox, threads, drafts, replies and forwards, labels, trash, search, contacts and filters.",
)

SYSTEM_LABELS: tuple[str, ...] = ("INBOX", "SENT", "DRAFT", "TRASH", "SPAM", "STARRED", "IMPORTANT", "UNREAD")
NOT_BY_HAND: tuple[str, ...] = ("SENT", "DRAFT")  # only sending and drafting set these
MAX_RECIPIENTS = 100
SUBJECT_MAX = 250
BODY_MAX = 20_000
ATTACH_LIMIT_KB = 25 * 1024  # what a sent or forwarded message may carry: 25 MB
ADDRESS = r"^[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9.-]{1,190}\.[A-Za-z]{2,24}$"
MAILER_DAEMON = "mailer-daemon@mail.example"
MAIL_HOST = "mail.example"
COLORS = ("gray", "red", "orange", "yellow", "green", "teal", "blue", "purple", "pink", "brown")
Color = Literal["gray", "red", "orange", "yellow", "green", "teal", "blue", "purple", "pink", "brown"]
FilterAction = Literal["label", "archive", "mark_read", "trash", "star"]

# -- parameter types --------------------------------------------------------------------------------

# Sampler conditions: the acting mailbox, and people of it who have a mailbox on this server.
MINE = "mailbox_id = (SELECT mailbox_id FROM sessions)"
KNOWN_LOCAL = (
    "status = 'active' AND used_mb < quota_mb - 1 AND id != (SELECT mailbox_id FROM sessions) "
    "AND id IN (SELECT email FROM contacts WHERE mailbox_id = (SELECT mailbox_id FROM sessions))"
)


def _distinct(values: list[Any]) -> list[Any]:
    seen: set[str] = set()
    for v in values:
        key = str(v).casefold()
        if key in seen:
            raise ValueError(f"{v!r} is listed twice")
        seen.add(key)
    return values


def recipients(where: str, *, required: bool) -> Any:
    """A JSON array of addresses. The sampler draws people with a mailbox here (so a send is
    delivered and can be checked), but any valid address is accepted: others go out unstored."""
    desc = 'Email addresses, e.g. ["dana.whitfield@corvid.example"].'
    return Annotated[
        list[Email],
        RefInfo(Mailbox, where, many=True),
        Field(min_length=1 if required else 0, max_length=MAX_RECIPIENTS, description=desc),
        AfterValidator(_distinct),
    ]


def address(where: str, desc: str) -> Any:
    """One address that usually names a mailbox of this server (see ``recipients``)."""
    return Annotated[str, RefInfo(Mailbox, where), Field(pattern=ADDRESS, max_length=254, description=desc)]


Subject = Annotated[
    str,
    Field(
        min_length=1,
        max_length=SUBJECT_MAX,
        examples=["Quick question", "Lunch on Thursday?", "Q3 planning notes", "Invoice for May"],
    ),
]
Body = Annotated[
    str,
    Field(
        min_length=1,
        max_length=BODY_MAX,
        examples=[
            "Thanks, that works for me. See you then.",
            "Could you send me the latest numbers before Friday?",
            "Sounds good, let's go with the second option.",
            "I'm out of the office until Wednesday; I'll reply properly then.",
        ],
    ),
]
Note = Annotated[
    LongText,
    Field(examples=["FYI, see below.", "Can you take a look at this?", "Forwarding for your records."]),
]
LabelName = Annotated[
    ShortText,
    Field(
        max_length=50,
        description="A label name (INBOX, STARRED, IMPORTANT, SPAM, UNREAD or one of your own) or its id.",
        examples=["STARRED", "IMPORTANT", "Travel", "Receipts", "Projects", "Follow up"],
    ),
]
LabelNames = Annotated[
    list[LabelName],
    Field(max_length=10, examples=[["STARRED"], ["IMPORTANT"], ["Follow up"], ["Travel", "IMPORTANT"]]),
]
NewLabel = Annotated[
    ShortText,
    Field(max_length=50, examples=["Conferences", "Kids school", "Side project", "Insurance", "Tax 2026"]),
]
SearchQuery = Annotated[
    str,
    Field(
        min_length=1,
        max_length=500,
        description=(
            "Search words and operators: from: to: subject: label: in: is:unread is:read is:starred "
            "is:important has:attachment before:YYYY-MM-DD after:YYYY-MM-DD newer_than:7d older_than:1m; "
            'quote phrases ("budget review").'
        ),
        examples=[
            "is:unread",
            "has:attachment",
            "invoice",
            "subject:offsite",
            "is:starred newer_than:30d",
            "has:attachment after:2026-05-01",
            "label:Receipts",
            '"status update"',
            "from:noreply newer_than:14d",
            "itinerary",
        ],
    ),
]
ContactQuery = Annotated[ShortText, Field(examples=["Sanchez", "corvid", "Mar", "Lee", ".example"])]
Password = Annotated[str, Sensitive(), Field(min_length=1, max_length=128, description="The password.")]
FromContains = Annotated[
    ShortText, Field(examples=["newsletter", "digest@", "billing", "alerts@", "updates@", "promo"])
]
SubjectContains = Annotated[
    ShortText, Field(examples=["invoice", "receipt", "weekly digest", "offsite", "password reset", "webinar"])
]
Company = Annotated[ShortText, Field(examples=["Corvid Labs", "Northwind Group", "Freelance"])]
Phone = Annotated[
    str, Field(pattern=r"^\+?[0-9][0-9 ()-]{6,20}$", max_length=22, examples=["+1-503-555-0142"])
]


# -- tables ---------------------------------------------------------------------------------------


class Mailbox(
    email.Table,
    example="dana.whitfield@corvid.example",
    noun="mailbox",
    hidden=("password",),
    people={"email": "id", "name": "display_name"},
):
    """A mailbox on this server, keyed by its address: one world person each (the persona's first)."""

    __tablename__ = "mailboxes"
    id: Mapped[str] = mapped_column(primary_key=True)  # the address
    person_id: Mapped[int] = mapped_column(unique=True)
    display_name: Mapped[str]
    signature: Mapped[str]
    password: Mapped[str]
    quota_mb: Mapped[float]
    used_mb: Mapped[float]
    status: Mapped[str]  # active / suspended


# Whose mailbox this episode acts on (mailbox_id NULL = nobody is signed in).
Session = email.acting(
    Mailbox, "mailbox_id", login="login", signed_out=True, columns={"logged_in_at": str | None}
)


class Label(email.Table, prefix="LBL"):
    """A system label (INBOX, SENT, ... one set per mailbox) or a user's own label."""

    __tablename__ = "labels"
    __table_args__ = (Index("ix_labels_mailbox_name", "mailbox_id", "name"),)
    id: Mapped[str] = mapped_column(primary_key=True)
    mailbox_id: Mapped[str] = mapped_column(ForeignKey("mailboxes.id"))
    name: Mapped[str]
    kind: Mapped[str]  # system / user
    color: Mapped[str | None]


class Thread(email.Table, prefix="THR", noun="thread"):
    """A conversation in one mailbox: the messages that reply to one another."""

    __tablename__ = "threads"
    id: Mapped[str] = mapped_column(primary_key=True)
    mailbox_id: Mapped[str] = mapped_column(ForeignKey("mailboxes.id"), index=True)
    subject: Mapped[str]
    last_at: Mapped[str]
    message_count: Mapped[int]


class Message(
    email.Table,
    prefix="MSG",
    noun="email",
    append_only=True,
    search=("subject", "body", "from_name", "from_addr", "to_addrs"),
):
    """One stored copy of a sent or received message. Append-only: headers and body never change;
    labels (read, starred, trash ...) live in ``message_labels``."""

    __tablename__ = "messages"
    __table_args__ = (
        Index("ix_messages_mailbox_sent", "mailbox_id", "sent_at"),
        Index("ix_messages_mailbox_rfc", "mailbox_id", "rfc_id"),
        # a page's total ("messages of this mailbox with that label") is counted from the index
        # alone, one lookup per labelled message, without reading a message row
        Index("ix_messages_mailbox_id", "mailbox_id", "id"),
        # "people who have written to me": one lookup per person instead of reading every message
        Index("ix_messages_mailbox_from", "mailbox_id", "from_addr"),
    )
    id: Mapped[str] = mapped_column(primary_key=True)
    mailbox_id: Mapped[str] = mapped_column(ForeignKey("mailboxes.id"))
    thread_id: Mapped[str] = mapped_column(ForeignKey("threads.id"), index=True)
    rfc_id: Mapped[str]  # the Message-ID header: the same on the sender's and recipients' copies
    in_reply_to: Mapped[str | None]
    from_addr: Mapped[str]
    from_name: Mapped[str]
    to_addrs: Mapped[str]  # comma-separated
    cc_addrs: Mapped[str]
    bcc_addrs: Mapped[str]  # only on the sender's copy
    subject: Mapped[str] = mapped_column(index=True)  # lookups name an email by its subject
    body: Mapped[str]
    sent_at: Mapped[str]
    size_kb: Mapped[float]
    received: Mapped[bool]  # False for the sender's own copy


class MessageLabel(email.Table, prefix="MLB", noun="message label"):
    __tablename__ = "message_labels"
    __table_args__ = (
        UniqueConstraint("message_id", "label_id"),
        # the messages of a label, without reading the link rows themselves
        Index("ix_message_labels_label", "label_id", "message_id"),
    )
    id: Mapped[str] = mapped_column(primary_key=True)
    message_id: Mapped[str] = mapped_column(ForeignKey("messages.id"))
    label_id: Mapped[str] = mapped_column(ForeignKey("labels.id"))


class Attachment(email.Table, prefix="ATC", append_only=True):
    """A file attached to one message copy: metadata and a text preview only. Append-only."""

    __tablename__ = "attachments"
    id: Mapped[str] = mapped_column(primary_key=True)
    message_id: Mapped[str] = mapped_column(ForeignKey("messages.id"), index=True)
    name: Mapped[str]  # the file name
    mime: Mapped[str]
    size_kb: Mapped[float]
    text_preview: Mapped[str | None]


class Draft(email.Table, prefix="DRF"):
    """An unsent message: the only kind that can still be edited. Sending turns it into messages."""

    __tablename__ = "drafts"
    id: Mapped[str] = mapped_column(primary_key=True)
    mailbox_id: Mapped[str] = mapped_column(ForeignKey("mailboxes.id"), index=True)
    thread_id: Mapped[str | None] = mapped_column(ForeignKey("threads.id"))
    reply_to_id: Mapped[str | None] = mapped_column(ForeignKey("messages.id"))
    to_addrs: Mapped[str]
    cc_addrs: Mapped[str]
    bcc_addrs: Mapped[str]
    subject: Mapped[str]
    body: Mapped[str]
    created_at: Mapped[str]
    updated_at: Mapped[str]


class Contact(email.Table, prefix="CON", people={"name": "name", "email": "email", "phone": "phone"}):
    """A saved contact of one mailbox."""

    __tablename__ = "contacts"
    id: Mapped[str] = mapped_column(primary_key=True)
    mailbox_id: Mapped[str] = mapped_column(ForeignKey("mailboxes.id"), index=True)
    name: Mapped[str]
    email: Mapped[str]
    company: Mapped[str | None]
    phone: Mapped[str | None]
    starred: Mapped[bool]


class Filter(email.Table, prefix="FLT"):
    """A rule run on mail arriving in one mailbox: criteria and exactly one action."""

    __tablename__ = "filters"
    id: Mapped[str] = mapped_column(primary_key=True)
    mailbox_id: Mapped[str] = mapped_column(ForeignKey("mailboxes.id"), index=True)
    from_contains: Mapped[str | None]
    subject_contains: Mapped[str | None]
    action: Mapped[str]
    label_id: Mapped[str | None] = mapped_column(ForeignKey("labels.id"))
    created_at: Mapped[str]
