"""Signing in and out, contacts, and filters for incoming mail."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from servers.domains.email.delivery import apply_action, filter_matches
from servers.domains.email.model import (
    Company,
    Contact,
    Filter,
    FilterAction,
    FromContains,
    Mailbox,
    MessageLabel,
    Password,
    Phone,
    Session,
    ShortText,
    SubjectContains,
    address,
    email,
)
from servers.domains.email.rules import find_label, plural, system_label
from servers.kit import Db, Offset, PageSize, ToolError

Login = address("person_id = 0", "The mailbox address to sign in to.")
NewContact = address(
    "id != (SELECT mailbox_id FROM sessions) AND lower(id) NOT IN (SELECT lower(email) FROM contacts "
    "WHERE mailbox_id = (SELECT mailbox_id FROM sessions))",
    "The contact's email address.",
)
FilterLabel = Annotated[
    ShortText,
    Field(
        max_length=50,
        description="Your own label to apply (name or id); needed when action is label.",
        examples=["Receipts", "Newsletters", "Travel", "Projects", "Finance"],
    ),
]


@email.tool(
    writes=[Session],
    returns=Mailbox,
    says=[
        "sign in to {address} with password {password}",
        "log me in to my email, {address}, password {password}",
    ],
)
def login(db: Db, address: Login, password: Password) -> dict:
    """Sign in to a mailbox; every other tool then acts on it. Switches mailbox if already signed in.

    Args:
        password: The mailbox's password.
    """
    row = db.one("SELECT * FROM mailboxes WHERE lower(id) = lower(?)", address.strip())
    if row is None or row["password"] != password:
        raise ToolError(f"wrong address or password for {address!r}")
    db.set_acting(mailbox_id=row["id"], logged_in_at=db.stamp())
    out = {
        "logged_in": True,
        "mailbox": row["id"],
        "display_name": row["display_name"],
        "status": row["status"],
    }
    if row["status"] != "active":
        out["note"] = f"this mailbox is {row['status']}: it can read and organise mail but not send"
    return out


@email.tool(writes=[Session], idempotent=True, says=["log me out of my email", "sign out of the mailbox"])
def logout(db: Db) -> dict:
    """Sign out; every mailbox tool then needs a new login."""
    mbx = db.actor()
    db.set_acting(mailbox_id=None, logged_in_at=None)
    return {"logged_out": True, "mailbox": mbx["id"]}


# -- contacts -------------------------------------------------------------------------------------


@email.tool(
    needs=[Session],
    returns=Contact,
    says=[
        "find {query} in my contacts",
        "what's the email address of {query}?",
        "look up {query} in my address book",
    ],
)
def search_contacts(db: Db, query: ShortText, limit: PageSize = 20, offset: Offset = 0) -> dict:
    """Contacts of the signed-in mailbox whose name, email or company contains the words (any order).

    Args:
        query: A name, part of an address, or a company.
    """
    mbx = db.actor()
    words = query.split()
    if not words:
        raise ToolError("give a name, address or company to look for")
    where, params = ["mailbox_id = ?"], [mbx["id"]]
    for w in words:
        like = "%" + w.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        where.append(
            "(name LIKE ? ESCAPE '\\' OR email LIKE ? ESCAPE '\\' OR coalesce(company, '') LIKE ? ESCAPE '\\')"
        )
        params += [like, like, like]
    return db.page(
        f"SELECT * FROM contacts WHERE {' AND '.join(where)} ORDER BY starred DESC, name, id",
        *params,
        limit=limit,
        offset=offset,
        key="contacts",
    )


@email.tool(
    writes=[Contact],
    needs=[Session],
    returns=Contact,
    says=[
        "add {email} to my contacts",
        "save {email} as a contact",
        "add {email} to my address book, phone {phone}",
    ],
)
def add_contact(
    db: Db,
    email: NewContact,
    name: ShortText | None = None,
    company: Company | None = None,
    phone: Phone | None = None,
) -> dict:
    """Save a contact. For an address with a mailbox on this server the name defaults to its
    display name; for any other address give the name.

    Args:
        name: The contact's name.
        company: Where they work.
        phone: A phone number.
    """
    mbx = db.actor()
    addr = email.strip()
    if addr.casefold() == mbx["id"].casefold():
        raise ToolError(f"{addr} is your own address; it cannot be one of your contacts")
    dup = db.one("SELECT * FROM contacts WHERE mailbox_id = ? AND lower(email) = lower(?)", mbx["id"], addr)
    if dup:
        raise ToolError(f"{addr} is already a contact: {dup['name']} ({dup['id']})")
    local = db.one("SELECT * FROM mailboxes WHERE lower(id) = lower(?)", addr)
    if name is None and local is None:
        raise ToolError(f"{addr} has no mailbox on this server to take a name from; give the contact's name")
    return db.insert(
        Contact,
        mailbox_id=mbx["id"],
        name=" ".join((name or local["display_name"]).split()),
        email=local["id"] if local else addr,
        company=company,
        phone=phone,
        starred=False,
    )


# -- filters --------------------------------------------------------------------------------------


def _filter_label(db: Db, mbx: dict, action: str, label: str | None) -> str | None:
    if action != "label":
        if label is not None:
            raise ToolError(
                f"a filter has one action: {action} takes no label (use action label to apply one)"
            )
        return None
    if label is None:
        raise ToolError("action label needs the label to apply; give one of your own labels")
    row = find_label(db, mbx, label)
    if row["kind"] == "system":
        hint = {"STARRED": "star", "TRASH": "trash", "INBOX": "archive", "UNREAD": "mark_read"}.get(
            row["name"]
        )
        extra = f"; use action {hint}" if hint else ""
        raise ToolError(f"filters apply your own labels, not the system label {row['name']}{extra}")
    return row["id"]


@email.tool(
    writes=[Filter, MessageLabel],
    needs=[Session],
    returns=Filter,
    says=[
        "file emails from {from_contains} under {label}",
        "create a filter to {action} mail from {from_contains}",
        "whenever the subject contains {subject_contains}, {action} it",
        "label everything from {from_contains} as {label}, including what I already have",
    ],
)
def create_filter(
    db: Db,
    action: FilterAction = "label",
    from_contains: FromContains | None = None,
    subject_contains: SubjectContains | None = None,
    label: FilterLabel | None = None,
    apply_to_existing: bool = False,
) -> dict:
    """A rule for incoming mail of the signed-in mailbox: messages whose From contains from_contains
    and whose subject contains subject_contains (at least one of them) get one action: label
    (with label), archive, mark_read, trash or star. apply_to_existing also runs it on the mail
    already received and says how many messages it changed.

    Args:
        action: What happens to matching mail.
        from_contains: Text the sender's name or address must contain.
        subject_contains: Text the subject must contain.
        apply_to_existing: Also apply it to matching mail already here.
    """
    mbx = db.actor()
    crit = {
        k: (" ".join(v.split()) or None) if v else None
        for k, v in (("f", from_contains), ("s", subject_contains))
    }
    if not crit["f"] and not crit["s"]:
        raise ToolError("a filter needs at least one criterion: from_contains or subject_contains")
    label_id = _filter_label(db, mbx, action, label)
    dup = db.one(
        "SELECT id FROM filters WHERE mailbox_id = ? AND coalesce(lower(from_contains), '') = lower(?) "
        "AND coalesce(lower(subject_contains), '') = lower(?) AND action = ? AND coalesce(label_id, '') = ?",
        mbx["id"],
        crit["f"] or "",
        crit["s"] or "",
        action,
        label_id or "",
    )
    if dup:
        raise ToolError(f"filter {dup['id']} already does exactly this")
    f = db.insert(
        Filter,
        mailbox_id=mbx["id"],
        from_contains=crit["f"],
        subject_contains=crit["s"],
        action=action,
        label_id=label_id,
        created_at=db.stamp(),
    )
    changed = _apply_existing(db, mbx, f) if apply_to_existing else 0
    return {**f, "applied_to_existing": changed, "note": f"{plural(changed, 'message')} changed"}


def _apply_existing(db: Db, mbx: dict, f: dict) -> int:
    """Run a new filter over the mail already received (not the trash): a deterministic bulk write."""
    trash = system_label(db, mbx["id"], "TRASH")
    rows = db.all(
        "SELECT id, from_addr, from_name, subject FROM messages WHERE mailbox_id = ? AND received = 1 "
        "AND id NOT IN (SELECT message_id FROM message_labels WHERE label_id = ?) ORDER BY id",
        mbx["id"],
        trash,
    )
    return sum(
        apply_action(db, mbx["id"], f, r["id"])
        for r in rows
        if filter_matches(f, r["from_addr"], r["from_name"], r["subject"])
    )
