"""Merchants and customers: finding them, creating customers, saving and removing their cards."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from servers.domains.payments.model import (
    CardNumber,
    Customer,
    Cvc,
    Delivery,
    Event,
    ExpMonth,
    ExpYear,
    Merchant,
    PaymentMethod,
    payments,
)
from servers.domains.payments.rules import _emit, _live_customer, _public_method
from servers.domains.payments.seed import fingerprint
from servers.kit import Db, Email, Offset, PageSize, Ref, ToolError

CustomerName = Annotated[
    str,
    Field(
        min_length=1,
        max_length=120,
        examples=["Dana Whitfield", "Marcus Lee", "Priya Raman", "Okafor Logistics LLC", "Hannah Schultz"],
    ),
]
NameQuery = Annotated[str, Field(min_length=1, max_length=100, examples=["Whitfield", "Lee", "LLC", "Group"])]


def _luhn(number: str) -> bool:
    total = 0
    for i, c in enumerate(reversed(number)):
        d = int(c) * (2 if i % 2 else 1)
        total += d - 9 if d > 9 else d
    return total % 10 == 0


def _brand(number: str) -> str | None:
    if number.startswith("4") and len(number) == 16:
        return "visa"
    if number[:2] in ("34", "37") and len(number) == 15:
        return "amex"
    if number.startswith("6011") and len(number) == 16:
        return "discover"
    if number[:2] in {str(n) for n in range(51, 56)} and len(number) == 16:
        return "mastercard"
    return None


@payments.tool(
    returns=Merchant,
    says=["which merchant account has the email {email}?", "look up our merchant account, {email}"],
)
def find_merchant(db: Db, email: Email) -> dict:
    """Find a merchant account by its billing email: status, currency and whether payouts are enabled.

    Args:
        email: The merchant's billing email address.
    """
    row = db.one("SELECT * FROM merchants WHERE lower(email) = lower(?)", email)
    if row is None:
        raise ToolError(f"no merchant account has the email {email!r}")
    return row


@payments.tool(
    returns=Customer,
    says=[
        "find the customer with the email {email}",
        "who is {email} among the customers of {merchant}?",
        "look up the customer record for {email}",
    ],
)
def find_customer(db: Db, email: Email, merchant: Ref[Merchant] | None = None) -> dict:
    """Find customers by exact email, across merchants or within one merchant.

    Args:
        email: The customer's email address.
        merchant: Only this merchant's customers.
    """
    sql, params = "SELECT * FROM customers WHERE lower(email) = lower(?)", [email]
    if merchant is not None:
        db.get(Merchant, merchant)
        sql += " AND merchant_id = ?"
        params.append(merchant)
    rows = db.all(sql + " ORDER BY id", *params)
    if not rows:
        where = f" at merchant {merchant}" if merchant else ""
        raise ToolError(f"no customer has the email {email!r}{where}")
    return {"customers": rows}


@payments.tool(
    returns=Customer,
    says=[
        "show me customer {customer}: credit balance, cards and open invoices",
        "what cards does {customer} have on file?",
    ],
)
def get_customer(db: Db, customer: Ref[Customer]) -> dict:
    """A customer's profile: credit balance, delinquency, saved payment methods (last four digits
    only) with the default marked, and their open invoices."""
    c = db.get(Customer, customer)
    methods = db.all("SELECT * FROM payment_methods WHERE customer_id = ? ORDER BY id", customer)
    c["payment_methods"] = [
        {**_public_method(pm), "default": pm["id"] == c["default_method_id"]} for pm in methods
    ]
    c["open_invoices"] = db.all(
        "SELECT id, number, total, amount_due, due_date, status FROM invoices WHERE customer_id = ? "
        "AND status IN ('open', 'uncollectible') ORDER BY due_date, id",
        customer,
    )
    return c


@payments.tool(
    returns=Customer,
    says=[
        "list the customers of {merchant}",
        "find customers named {query}",
        "search the customers of {merchant} for {query}",
    ],
)
def list_customers(
    db: Db,
    merchant: Ref[Merchant] | None = None,
    query: NameQuery | None = None,
    include_deleted: bool = False,
    limit: PageSize = 20,
    offset: Offset = 0,
) -> dict:
    """Customers by name (part of the name or email), optionally of one merchant.

    Args:
        merchant: Only this merchant's customers.
        query: Text the name or email contains.
        include_deleted: Also show deleted customers.
    """
    where, params = ["1"], []
    if merchant is not None:
        db.get(Merchant, merchant)
        where.append("merchant_id = ?")
        params.append(merchant)
    if query is not None:
        where.append("(name LIKE ? ESCAPE '\\' OR email LIKE ? ESCAPE '\\')")
        like = "%" + query.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        params += [like, like]
    if not include_deleted:
        where.append("deleted = 0")
    sql = f"SELECT * FROM customers WHERE {' AND '.join(where)} ORDER BY name, id"
    return db.page(sql, *params, limit=limit, offset=offset, key="customers")


@payments.tool(
    writes=[Customer, Event, Delivery],
    returns=Customer,
    says=[
        "add {name} ({email}) as a new customer of {merchant}",
        "create a customer {name} with email {email} for {merchant}",
    ],
)
def create_customer(db: Db, merchant: Ref[Merchant], name: CustomerName, email: Email) -> dict:
    """Create a customer for a merchant. A merchant cannot have two live customers with one email.

    Args:
        merchant: The merchant the customer buys from.
        name: The person's or company's name.
        email: Where invoices and receipts go.
    """
    db.get(Merchant, merchant)
    dup = db.one("SELECT * FROM customers WHERE merchant_id = ? AND lower(email) = lower(?)", merchant, email)
    if dup is not None:
        state = "a deleted customer" if dup["deleted"] else "customer"
        raise ToolError(f"{email} is already {state} {dup['id']} ({dup['name']}) of merchant {merchant}")
    c = db.insert(
        Customer,
        merchant_id=merchant,
        name=name,
        email=email,
        credit_balance=0.0,
        delinquent=False,
        default_method_id=None,
        deleted=False,
        created_at=db.stamp(),
    )
    _emit(db, merchant, "customer.created", c["id"], f"customer {name}")
    return c


def _check_card(db: Db, customer: str, card_number: str, exp_month: int, exp_year: int, cvc: str) -> str:
    """The card's brand, once its number, expiry and security code pass (and it is not saved yet)."""
    brand = _brand(card_number)
    if not _luhn(card_number) or brand is None:
        raise ToolError(
            f"card number ending {card_number[-4:]} is not a valid card number (checksum or brand)"
        )
    if (exp_year, exp_month) < (db.today.year, db.today.month):
        raise ToolError(f"the card expired in {exp_year}-{exp_month:02d}; it is {db.today:%Y-%m} now")
    if len(cvc) != (4 if brand == "amex" else 3):
        raise ToolError(f"a {brand} security code has {4 if brand == 'amex' else 3} digits, got {len(cvc)}")
    dup = db.one(
        "SELECT id FROM payment_methods WHERE customer_id = ? AND fingerprint = ? AND status = 'active'",
        customer,
        fingerprint(card_number),
    )
    if dup:
        raise ToolError(f"card ending {card_number[-4:]} is already saved to {customer} as {dup['id']}")
    return brand


def _replaced(db: Db, customer: dict, replaces: str | None) -> dict | None:
    if replaces is None:
        return None
    old = db.get(PaymentMethod, replaces)
    if old["customer_id"] != customer["id"]:
        raise ToolError(
            f"payment method {replaces} belongs to customer {old['customer_id']}, not to {customer['id']}"
        )
    if old["status"] == "detached":
        raise ToolError(f"payment method {replaces} was already detached")
    return old


@payments.tool(
    writes=[PaymentMethod, Customer, Event, Delivery],
    returns=PaymentMethod,
    says=[
        "save the card {card_number}, expiring {exp_month}/{exp_year}, CVC {cvc}, for {customer}",
        "{customer} got a new card {card_number}, exp {exp_month}/{exp_year}, CVC {cvc}; "
        "it replaces the expired payment method {replaces}",
        "replace the expired payment method {replaces} of {customer} with the card {card_number}, "
        "expiring {exp_month}/{exp_year}, security code {cvc}",
    ],
)
def attach_card(
    db: Db,
    customer: Ref[
        Customer, "deleted = 0 AND id IN (SELECT customer_id FROM payment_methods WHERE status = 'expired')"
    ],
    card_number: CardNumber,
    exp_month: ExpMonth,
    exp_year: ExpYear,
    cvc: Cvc,
    replaces: Ref[PaymentMethod, "status = 'expired'"] | None = None,
    make_default: bool = False,
) -> dict:
    """Save a card to a customer. The number must pass the card checksum and belong to a known
    brand (Visa, Mastercard, Amex, Discover), the card must not have expired nor be saved to this
    customer already; the security code (4 digits for Amex, else 3) is checked and never stored.
    A reissued card often keeps its number: ``replaces`` detaches the old method it replaces. The
    new card becomes the default if asked, if the customer had none, or if it replaces the default.

    Args:
        customer: Who the card belongs to.
        card_number: The full card number.
        exp_month: Expiry month.
        exp_year: Expiry year.
        cvc: The security code.
        replaces: The customer's old (e.g. expired) payment method this card replaces.
        make_default: Use this card for future invoices and charges.
    """
    c = _live_customer(db, customer)
    old = _replaced(db, c, replaces)
    brand = _check_card(db, customer, card_number, exp_month, exp_year, cvc)
    pm = db.insert(
        PaymentMethod,
        customer_id=customer,
        kind="card",
        brand=brand,
        last4=card_number[-4:],
        exp_month=exp_month,
        exp_year=exp_year,
        status="active",
        number=card_number,
        fingerprint=fingerprint(card_number),
        decline_code=None,
        added_at=db.stamp(),
    )
    if old is not None:
        db.update(PaymentMethod, old["id"], status="detached")
        _emit(db, c["merchant_id"], "payment_method.detached", old["id"], f"replaced by {pm['id']}")
    default = make_default or c["default_method_id"] in (None, replaces)
    if default:
        db.update(Customer, customer, default_method_id=pm["id"])
    _emit(db, c["merchant_id"], "payment_method.attached", pm["id"], f"{brand} {pm['last4']} for {c['name']}")
    return {**_public_method(pm), "default": default, "replaced": replaces}


@payments.tool(
    writes=[PaymentMethod, Customer, Event, Delivery],
    returns=PaymentMethod,
    destructive=True,
    idempotent=True,
    says=[
        "remove payment method {payment_method} from the customer",
        "detach the payment method {payment_method}",
    ],
)
def detach_payment_method(db: Db, payment_method: Ref[PaymentMethod, "status != 'detached'"]) -> dict:
    """Remove a saved card or bank account from its customer; it can no longer be charged. If it
    was the default, the customer's newest other active method becomes the default (or none)."""
    pm = db.get(PaymentMethod, payment_method)
    if pm["status"] == "detached":
        raise ToolError(f"payment method {payment_method} was already detached")
    c = db.get(Customer, pm["customer_id"])
    db.update(PaymentMethod, payment_method, status="detached")
    default = c["default_method_id"]
    if default == payment_method:
        default = db.scalar(
            "SELECT id FROM payment_methods WHERE customer_id = ? AND status = 'active' ORDER BY id DESC LIMIT 1",
            c["id"],
        )
        db.update(Customer, c["id"], default_method_id=default)
    _emit(db, c["merchant_id"], "payment_method.detached", payment_method, f"{pm['brand']} {pm['last4']}")
    return {"detached": payment_method, "customer": c["id"], "default_method_id": default}
