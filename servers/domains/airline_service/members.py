"""Members: finding a caller's record, verifying who they are, reading their profile and saved
payment methods, and handing the conversation to a human agent."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from servers.domains.airline_service.model import (
    Session,
    Transfer,
    User,
    airline_service,
)
from servers.domains.airline_service.rules import public_user
from servers.kit import Db, Email, Ref, Sensitive, ToolError

# no date pattern: a secret is quoted exactly as the caller says it, never reworded as a date
BirthDate = Annotated[
    str,
    Sensitive(),
    Field(min_length=8, max_length=10, description="The member's date of birth, YYYY-MM-DD."),
]
PersonName = Annotated[str, Field(min_length=1, max_length=120, description="Full name, e.g. Ana Lopez.")]
Summary = Annotated[
    str,
    Field(
        min_length=1,
        max_length=1000,
        description="What the member wants and what was done so far, for the human agent.",
        examples=[
            "I want my money back for a basic economy ticket",
            "my flight already left and I need a new one",
            "I dispute a charge on my booking",
            "I want to complain about how my last trip went",
            "I need help with a group booking for eight people",
        ],
    ),
]


@airline_service.tool(
    returns=User,
    says=[
        "find my member record, my email is {email}",
        "look me up by my email {email}",
    ],
)
def find_user(db: Db, email: Email, name: PersonName | None = None) -> dict:
    """Find a member by the email address on their profile (and full name, if given: it must match).

    Args:
        email: The email address on the member's profile.
        name: The member's full name.
    """
    user = db.one("SELECT * FROM users WHERE lower(email) = lower(?)", email)
    if user is None:
        raise ToolError(f"no member has the email {email}")
    if name is not None and user["name"].casefold() != " ".join(name.split()).casefold():
        raise ToolError(f"the member with email {email} is not named {name!r}")
    return {k: user[k] for k in ("id", "name", "email", "membership")}


@airline_service.tool(
    writes=[Session],
    says=[
        "please verify my identity: my email is {email} and my date of birth is {dob}",
        "verify me, I'm {email}, born {dob}",
    ],
    idempotent=True,
)
def verify_user(db: Db, email: Email, dob: BirthDate) -> dict:
    """Verify a caller's identity for this conversation: the email on their profile and their
    date of birth must match. Verifying another member replaces the earlier verification.

    Args:
        email: The email address the caller gives.
        dob: The date of birth the caller gives (YYYY-MM-DD).
    """
    row = db.one("SELECT * FROM users WHERE lower(email) = lower(?)", email)
    if row is None:
        raise ToolError(f"no member has the email {email}; identity not verified")
    if row["dob"] != dob.strip():
        raise ToolError(f"the date of birth does not match the profile of {email}; identity not verified")
    if db.acting()["verified_user_id"] != row["id"]:
        db.set_acting(verified_user_id=row["id"], verified_at=db.stamp())
    return {"verified_user_id": row["id"], "name": row["name"], "membership": row["membership"]}


@airline_service.tool(
    returns=User,
    says=[
        "show the member profile of {user}",
        "what payment methods does {user} have saved?",
        "what's the membership tier of {user}?",
    ],
)
def get_user(db: Db, user: Ref[User]) -> dict:
    """A member's profile: tier, contact details, saved payment methods with balances, the ids of
    their reservations and the certificates they were issued.

    Args:
        user: The member id.
    """
    row = public_user(db.get(User, user))
    row["payment_methods"] = db.all(
        "SELECT id, kind, label, balance, status FROM payment_methods WHERE user_id = ? ORDER BY id", user
    )
    row["reservations"] = [
        r["id"] for r in db.all("SELECT id FROM reservations WHERE user_id = ? ORDER BY id", user)
    ]
    row["certificates"] = db.all(
        "SELECT id, reservation_id, amount, issued_at FROM certificates WHERE user_id = ? ORDER BY id",
        user,
    )
    return row


@airline_service.tool(
    writes=[Transfer],
    returns=Transfer,
    says=[
        "I'd like to speak to a human agent: {summary}",
        "please put me through to a person, {summary}",
    ],
)
def transfer_to_human(db: Db, summary: Summary, user: Ref[User] | None = None) -> dict:
    """Hand the conversation to a human agent, with a summary of the request. Use it when the
    member asks for a person or the request is beyond what the policy lets you do.

    Args:
        summary: What the member wants and what has been done.
        user: The member, when known.
    """
    if user is not None:
        db.get(User, user)
    return db.insert(Transfer, user_id=user, summary=summary, created_at=db.stamp())
