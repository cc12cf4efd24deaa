"""Signing in, the login status, saved cards, the trip budget and support tickets."""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated

from pydantic import AfterValidator, Field

from servers.domains.travel_booking.model import (
    SIGNINS_PER_DAY,
    TOKEN_HOURS,
    AccessToken,
    Budget,
    Itinerary,
    PaymentMethod,
    Scope,
    Session,
    SupportTicket,
    Traveler,
    travel_booking,
)
from servers.domains.travel_booking.rules import (
    AnyTrip,
    Password,
    Token,
    WriteToken,
    _auth,
    _iso,
    _m,
    _mine,
    _public_card,
)
from servers.kit import Db, Email, Offset, PageSize, Sensitive, ShortText, ToolError, whole_cents

CardNumber = Annotated[
    str,
    Sensitive(),
    Field(pattern=r"^[0-9]{13,19}$", description="The full card number, digits only.", max_length=19),
]
Cvv = Annotated[
    str, Sensitive(), Field(pattern=r"^[0-9]{3,4}$", description="The 3- or 4-digit security code.")
]
Expiry = Annotated[
    str,
    Field(
        pattern=r"^[0-9]{4}-(0[1-9]|1[0-2])$",
        description="Expiry month, YYYY-MM.",
        max_length=7,
        examples=["2027-03", "2027-11", "2028-06", "2028-09", "2029-01", "2030-04"],
    ),
]
Nickname = Annotated[
    str, Field(min_length=1, max_length=60, examples=["Work card", "Travel Visa", "Backup card"])
]
Message = Annotated[
    str,
    Field(
        min_length=5,
        max_length=2000,
        examples=[
            "My connection was missed because the first flight was late; please rebook me.",
            "I was charged twice for my bags.",
            "I need a wheelchair at the airport.",
            "Please send an itemised invoice to my email.",
            "A flight on my trip has already been flown and I need to change the rest.",
        ],
    ),
]
Budget_ = Annotated[
    float,
    Field(
        ge=100,
        le=50_000,
        description="US dollars.",
        examples=[1500.0, 2000.0, 2500.0, 3500.0, 5000.0, 8000.0],
    ),
    AfterValidator(whole_cents),
]
Subject = Annotated[
    str,
    Field(min_length=3, max_length=80, examples=["Missed connection", "Double charge", "Special assistance"]),
]


def _luhn(number: str) -> bool:
    total = 0
    for i, c in enumerate(reversed(number)):
        d = int(c) * (2 if i % 2 else 1)
        total += d - 9 if d > 9 else d
    return total % 10 == 0


def _brand(number: str) -> str:
    if number.startswith("4"):
        return "Visa"
    if number[:2] in ("34", "37"):
        return "Amex"
    if number.startswith("6"):
        return "Discover"
    return "Mastercard" if number[:1] in ("2", "5") else "Card"


# -- signing in --------------------------------------------------------------------------------


@travel_booking.tool(
    writes=[AccessToken, Session],
    returns=AccessToken,
    says=[
        "log me in as {email} with password {password}",
        "sign in to my travel account: {email}, password {password}",
        "authenticate {email} with password {password} for {scope} access",
    ],
)
def authenticate(db: Db, email: Email, password: Password, scope: Scope = "read_write") -> dict:
    """Sign in with the account's email and password; returns the access token every account
    tool takes. A new sign-in replaces this session's token (at most 3 sign-ins a day).

    Args:
        email: The email the travel account was opened with.
        password: The account password.
        scope: read (look only) or read_write (book, change, cancel, pay).
    """
    t = db.one("SELECT * FROM travelers WHERE lower(email) = lower(?)", email)
    if t is None or t["password"] != password:
        raise ToolError(f"wrong email or password for {email}")
    if t["status"] == "locked":
        raise ToolError(
            f"the account of {email} is locked after repeated failed sign-ins; a support agent can unlock it"
        )
    today = db.today.isoformat()
    issued = db.scalar(
        "SELECT count(*) FROM access_tokens WHERE traveler_id = ? AND issued_at >= ?", t["id"], today
    )
    token = db.one(
        "SELECT * FROM access_tokens WHERE traveler_id = ? AND status = 'unissued' ORDER BY seq LIMIT 1",
        t["id"],
    )
    if issued >= SIGNINS_PER_DAY or token is None:
        raise ToolError(
            f"{email} has signed in {issued} times today, the daily limit is {SIGNINS_PER_DAY}; "
            "use the token you already have or try again tomorrow"
        )
    expires = _iso(db.now + timedelta(hours=TOKEN_HOURS))
    db.update(
        AccessToken, token["id"], status="active", scope=scope, issued_at=db.stamp(), expires_at=expires
    )
    db.set_acting(traveler_id=t["id"], access_token=token["id"], logged_in_at=db.stamp())
    return {
        "access_token": token["id"],
        "token_type": "bearer",
        "scope": scope,
        "expires_at": expires,
        "traveler": t["id"],
        "name": t["name"],
    }


@travel_booking.tool(
    needs=[Session],
    says=["am I still logged in to the travel site?", "check my login status", "who is signed in right now?"],
)
def get_login_status(db: Db) -> dict:
    """Whether this session holds a valid access token, for whom, its scope and when it expires
    (the token itself is never shown again)."""
    session = db.acting()
    token = db.find(AccessToken, session["access_token"]) if session["access_token"] else None
    if token is None or session["traveler_id"] is None:
        return {"logged_in": False, "reason": "nobody has signed in; call authenticate"}
    t = db.get(Traveler, session["traveler_id"])
    valid = token["status"] == "active" and token["expires_at"] > db.stamp()
    return {
        "logged_in": valid,
        "traveler": t["id"],
        "name": t["name"],
        "email": t["email"],
        "membership": t["membership"],
        "scope": token["scope"],
        "expires_at": token["expires_at"],
        **(
            {} if valid else {"reason": f"the token expired at {token['expires_at']} UTC; authenticate again"}
        ),
    }


# -- cards ---------------------------------------------------------------------------------------


@travel_booking.tool(
    returns=PaymentMethod,
    says=[
        "list my saved payment cards with my access token {access_token}",
        "what cards do I have on file and how much is left on each? Use my access token {access_token}",
    ],
)
def list_payment_methods(db: Db, access_token: Token, limit: PageSize = 20, offset: Offset = 0) -> dict:
    """The signed-in traveler's saved cards with kind, status, expiry, credit limit, balance and
    what is available to spend (credit limit minus balance for credit cards, balance otherwise).

    Args:
        access_token: The token authenticate returned.
        limit: Maximum number of cards.
        offset: Cards to skip, for paging.
    """
    me = _auth(db, access_token)
    page = db.page(
        "SELECT * FROM payment_methods WHERE traveler_id = ? ORDER BY id",
        me["id"],
        limit=limit,
        offset=offset,
        key="payment_methods",
    )
    page["payment_methods"] = [_public_card(c) for c in page["payment_methods"]]
    return page


@travel_booking.tool(
    writes=[PaymentMethod],
    returns=PaymentMethod,
    says=[
        "add my card {card_number}, expiring {expiry}, security code {cvv}, using my access token {access_token}",
        "save a new credit card {card_number}, exp {expiry}, cvv {cvv}, to my account with my access token {access_token}",
    ],
)
def add_payment_method(
    db: Db,
    access_token: WriteToken,
    card_number: CardNumber,
    expiry: Expiry,
    cvv: Cvv,
    holder_name: ShortText | None = None,
    nickname: Nickname | None = None,
) -> dict:
    """Save a credit card to the account. The number must pass the card checksum, the card must
    not have expired and must not be saved already; the security code is checked, never stored.

    Args:
        access_token: The token authenticate returned (scope read_write).
        card_number: The full card number.
        expiry: The expiry month on the card.
        cvv: The security code on the back.
        holder_name: The name on the card (default: the traveler's name).
        nickname: What to call the card (default: brand and last four digits).
    """
    me = _auth(db, access_token, write="add a card")
    if not _luhn(card_number):
        raise ToolError(f"card number ending {card_number[-4:]} is not a valid card number (checksum fails)")
    month = db.today.isoformat()[:7]
    if expiry < month:
        raise ToolError(f"the card expired in {expiry}; it is {month} now")
    cvv_len = 4 if _brand(card_number) == "Amex" else 3
    if len(cvv) != cvv_len:
        raise ToolError(f"a {_brand(card_number)} security code has {cvv_len} digits, got {len(cvv)}")
    dup = db.one("SELECT id FROM payment_methods WHERE traveler_id = ? AND pan = ?", me["id"], card_number)
    if dup:
        raise ToolError(f"card ending {card_number[-4:]} is already saved as {dup['id']}")
    brand = _brand(card_number)
    card = db.insert(
        PaymentMethod,
        traveler_id=me["id"],
        kind="credit_card",
        nickname=nickname or f"{brand} ending {card_number[-4:]}",
        brand=brand,
        last4=card_number[-4:],
        holder_name=holder_name or me["name"],
        expiry=expiry,
        credit_limit=5000.0,
        balance=0.0,
        status="active",
        pan=card_number,
        added_at=db.stamp(),
    )
    return _public_card(card)


# -- budget and support -----------------------------------------------------------------------------


@travel_booking.tool(
    writes=[Budget],
    returns=Budget,
    idempotent=True,
    says=[
        "set my per-trip budget limit to {budget}, using my access token {access_token}",
        "cap what any one trip can cost me at {budget} with my access token {access_token}",
    ],
)
def set_budget_limit(db: Db, access_token: WriteToken, budget: Budget_) -> dict:
    """Set the per-trip budget limit, 100.00-50,000.00: from now on no booking, change, bag or
    insurance purchase may bring an itinerary's total above it (trips already over it stay).

    Args:
        access_token: The token authenticate returned (scope read_write).
        budget: The most one trip may cost, in US dollars.
    """
    me = _auth(db, access_token, write="set the budget")
    limit = round(budget, 2)
    row = db.one("SELECT * FROM budgets WHERE traveler_id = ?", me["id"])
    if row is not None and row["trip_limit"] == limit:
        raise ToolError(f"your per-trip budget limit is already {_m(limit)}")
    if row is None:
        row = db.insert(Budget, traveler_id=me["id"], trip_limit=limit, updated_at=db.stamp())
        previous = None
    else:
        previous = row["trip_limit"]
        row = db.update(Budget, row["id"], trip_limit=limit, updated_at=db.stamp())
    return {"budget": row["id"], "trip_limit": limit, "previous_limit": previous}


@travel_booking.tool(
    writes=[SupportTicket],
    returns=SupportTicket,
    says=[
        "tell support this, using my access token {access_token}: {message}",
        "open a support ticket about itinerary {itinerary} with my access token {access_token}: {message}",
    ],
)
def contact_support(
    db: Db,
    access_token: Token,
    message: Message,
    itinerary: AnyTrip | None = None,
    subject: Subject | None = None,
) -> dict:
    """Open a ticket with the service's human agents, for what no tool can do (a flown trip, a
    locked account, a complaint). Any valid token may write to support.

    Args:
        access_token: The token authenticate returned.
        message: What the traveler needs.
        itinerary: The itinerary it is about, if any.
        subject: A short subject line.
    """
    me = _auth(db, access_token)
    if itinerary is not None:
        _mine(db, Itinerary, itinerary, me)
    open_now = db.scalar(
        "SELECT count(*) FROM support_tickets WHERE traveler_id = ? AND status = 'open'", me["id"]
    )
    if open_now >= 5:
        raise ToolError(
            f"{me['name']} already has {open_now} open tickets (at most 5); add to one of them instead"
        )
    ticket = db.insert(
        SupportTicket,
        traveler_id=me["id"],
        itinerary_id=itinerary,
        subject=subject or message[:60],
        message=message,
        status="open",
        created_at=db.stamp(),
    )
    return {
        "ticket": ticket["id"],
        "status": "open",
        "itinerary": itinerary,
        "created_at": ticket["created_at"],
        "reply_within": "24 hours",
    }


@travel_booking.tool(
    returns=SupportTicket,
    says=[
        "show my support tickets with my access token {access_token}",
        "which support requests do I have open? Use my access token {access_token}",
    ],
)
def list_support_tickets(db: Db, access_token: Token, limit: PageSize = 20, offset: Offset = 0) -> dict:
    """The signed-in traveler's support tickets, newest first.

    Args:
        access_token: The token authenticate returned.
        limit: Maximum number of tickets.
        offset: Tickets to skip, for paging.
    """
    me = _auth(db, access_token)
    return db.page(
        "SELECT id, itinerary_id, subject, status, created_at FROM support_tickets WHERE traveler_id = ? "
        "ORDER BY created_at DESC, id DESC",
        me["id"],
        limit=limit,
        offset=offset,
        key="tickets",
    )
