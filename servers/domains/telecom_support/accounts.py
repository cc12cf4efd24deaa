"""The agent's console, account side: finding and verifying the caller, lines, plans and bills,
payment requests, payments and goodwill credits."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, Field

from servers.domains.telecom_support import rules as R
from servers.domains.telecom_support.model import (
    Bill,
    Credit,
    Customer,
    DateOfBirth,
    Device,
    Line,
    Payment,
    PaymentMethod,
    PaymentRequest,
    PhoneNumber,
    Plan,
    Session,
    telecom_support,
)
from servers.kit import Db, Offset, PageSize, Ref, ShortText, ToolError, marks, whole_cents

CustomerName = Annotated[str, Field(min_length=1, max_length=120, description="The customer's full name.")]
CreditAmount = Annotated[
    float,
    Field(gt=0, le=100, description="Credit in dollars, at most 100.00 per credit, e.g. 15.00."),
    AfterValidator(whole_cents),
]
BillStatus = Literal["draft", "issued", "paid", "overdue", "awaiting_payment", "disputed"]
OWN_METHOD = "customer_id = (SELECT customer_id FROM bills WHERE id = :bill) AND status = 'active'"


def _public(c: dict) -> dict:
    return {k: v for k, v in c.items() if k not in marks(Customer).hidden}


def _outstanding(bill: dict) -> float:
    return round(bill["amount"] - bill["credited"], 2)


@telecom_support.tool(
    returns=Customer,
    says=["I'm calling about my phone, my number is {phone}", "look up the account for the number {phone}"],
)
def find_customer_by_phone(db: Db, phone: PhoneNumber) -> dict:
    """Find the account a phone number belongs to: a customer's contact number or any of their lines.

    Args:
        phone: The phone number, e.g. +1-507-935-7466.
    """
    row = db.one(
        "SELECT * FROM customers WHERE phone = ? OR id = (SELECT customer_id FROM lines WHERE id = ?)",
        phone,
        phone,
    )
    if row is None:
        raise ToolError(f"no customer has the phone number {phone!r}; numbers look like +1-507-935-7466")
    lines = db.all("SELECT id, status, plan_id FROM lines WHERE customer_id = ? ORDER BY id", row["id"])
    return {**_public(row), "lines": lines}


@telecom_support.tool(
    returns=Customer,
    says=[
        "my name is {name}, born {date_of_birth}; can you find my account?",
        "find the account of {name}, date of birth {date_of_birth}",
    ],
)
def find_customer_by_name(db: Db, name: CustomerName, date_of_birth: DateOfBirth) -> dict:
    """Find a customer by full name and date of birth (both must match).

    Args:
        name: Full name, e.g. Dana Whitfield.
        date_of_birth: Date of birth, YYYY-MM-DD.
    """
    rows = db.all(
        "SELECT * FROM customers WHERE lower(name) = lower(?) AND date_of_birth = ? ORDER BY id",
        name,
        date_of_birth,
    )
    if not rows:
        raise ToolError(f"no customer named {name!r} was born on {date_of_birth}")
    return {"customers": [_public(r) for r in rows]}


@telecom_support.tool(
    returns=Customer,
    says=["show me the account {customer}", "what lines and payment methods does {customer} have?"],
)
def get_customer(db: Db, customer: Ref[Customer]) -> dict:
    """A customer's account: lines, payment methods, past-due bills and goodwill credit used this year."""
    c = _public(db.get(Customer, customer))
    c["lines"] = db.all(
        "SELECT id, status, suspension_reason, plan_id, roaming_enabled FROM lines WHERE customer_id = ? "
        "ORDER BY id",
        customer,
    )
    c["payment_methods"] = db.all("SELECT * FROM payment_methods WHERE customer_id = ? ORDER BY id", customer)
    due = R.past_due(db, customer)
    c["past_due_bills"] = due
    c["good_standing"] = not due
    year = f"{db.today.year}-01-01"
    used = db.scalar(
        "SELECT coalesce(sum(amount), 0) FROM credits WHERE customer_id = ? AND issued_on >= ?",
        customer,
        year,
    )
    c["goodwill_credit_this_year"] = round(used, 2)
    c["verified_in_this_conversation"] = db.acting()["verified_customer_id"] == customer
    return c


@telecom_support.tool(
    writes=[Session],
    returns=Customer,
    idempotent=True,
    says=[
        "I'm {customer}, my date of birth is {date_of_birth}",
        "verify me: account {customer}, born {date_of_birth}",
    ],
)
def verify_customer(db: Db, customer: Ref[Customer], date_of_birth: DateOfBirth) -> dict:
    """Verify the caller's identity for this conversation. The date of birth they give must match
    the account's; verification is needed before any change to their account.

    Args:
        customer: The customer the caller says they are.
        date_of_birth: The date of birth the caller gives, YYYY-MM-DD.
    """
    c = db.get(Customer, customer)
    if c["date_of_birth"] != date_of_birth:
        raise ToolError(
            f"the date of birth {date_of_birth} does not match the records of {customer}; not verified"
        )
    db.set_acting(verified_customer_id=customer, verified_at=db.stamp())
    return {"customer": customer, "name": c["name"], "verified": True}


@telecom_support.tool(
    returns=Line,
    says=["what's the status of my line {line}?", "how much data is left on {line}?", "show me line {line}"],
)
def get_line(db: Db, line: Ref[Line]) -> dict:
    """A line: status (and why it is suspended), plan and data left this cycle, roaming, billing cycle,
    contract end, and the phone it is in (whether the network currently sees it)."""
    return R.public_line(db, R.line_of(db, line))


@telecom_support.tool(
    returns=Device,
    says=[
        "which phones do I have registered, account {customer}?",
        "list the devices on the account {customer}",
    ],
)
def list_devices(db: Db, customer: Ref[Customer]) -> dict:
    """The phones registered to a customer's account and the line each holds (none for a spare)."""
    db.get(Customer, customer)
    rows = db.all(
        "SELECT id, model, max_network, esim_capable, line_number, sim_kind FROM devices WHERE customer_id = ? "
        "ORDER BY id",
        customer,
    )
    return {"customer": customer, "devices": [{**r, "esim_capable": bool(r["esim_capable"])} for r in rows]}


@telecom_support.tool(returns=Plan, says=["what plans do you offer?", "list the plans and their prices"])
def list_plans(db: Db, include_retired: bool = False) -> dict:
    """The carrier's plans: monthly price, data allowance and refuel price per GB.

    Args:
        include_retired: Also list plans no longer offered.
    """
    where = "1" if include_retired else "available = 1"
    return {"plans": db.all(f"SELECT * FROM plans WHERE {where} ORDER BY monthly_price, id")}


@telecom_support.tool(
    returns=Bill,
    says=["show me the bills for {line}", "which {status} bills are there on {line}?"],
)
def get_bills(
    db: Db, line: Ref[Line], status: BillStatus | None = None, limit: PageSize = 12, offset: Offset = 0
) -> dict:
    """A line's bills, newest first, with what is still outstanding on each.

    Args:
        line: The line's phone number.
        status: Only bills in this status.
    """
    R.line_of(db, line)
    sql = "SELECT *, round(amount - credited, 2) AS outstanding FROM bills WHERE line_number = ?"
    params: list = [line]
    if status is not None:
        sql += " AND status = ?"
        params.append(status)
    return db.page(sql + " ORDER BY period_start DESC", *params, limit=limit, offset=offset, key="bills")


def _method(db: Db, bill: dict, method: str) -> dict:
    m = db.get(PaymentMethod, method)
    if m["customer_id"] != bill["customer_id"]:
        raise ToolError(
            f"payment method {method} belongs to {m['customer_id']}, not to {bill['customer_id']}"
        )
    if m["status"] != "active":
        raise ToolError(
            f"payment method {method} ({m['label']}) expired in {m['expires']}; use an active one"
        )
    return m


@telecom_support.tool(
    writes=[PaymentRequest, Bill],
    returns=PaymentRequest,
    says=[
        "send me a payment request for bill {bill} to {method}",
        "I want to pay {bill}, send the request to {method}",
    ],
)
def send_payment_request(
    db: Db, bill: Ref[Bill, R.REQUESTABLE], method: Ref[PaymentMethod, OWN_METHOD]
) -> dict:
    """Send the customer a request to pay an issued or overdue bill. It goes to one of their payment
    methods, and the bill then awaits payment (one open request per bill).

    Args:
        bill: The bill to pay.
        method: The customer's payment method the request goes to.
    """
    b = db.get(Bill, bill)
    if b["status"] not in ("issued", "overdue"):
        raise ToolError(
            f"bill {bill} is {b['status']}; payment requests go out for issued or overdue bills only"
        )
    _method(db, b, method)
    req = db.insert(
        PaymentRequest,
        bill_id=bill,
        method_id=method,
        amount=_outstanding(b),
        status="sent",
        sent_at=db.stamp(),
    )
    db.update(Bill, bill, status="awaiting_payment")
    return req


@telecom_support.tool(
    writes=[Payment, Bill, PaymentRequest],
    returns=Payment,
    says=["pay bill {bill} with {method}", "I'd like to settle {bill} now using {method}"],
)
def record_payment(db: Db, bill: Ref[Bill, R.PAYABLE], method: Ref[PaymentMethod, OWN_METHOD]) -> dict:
    """Take payment of a bill with one of the customer's payment methods. The whole outstanding
    amount is paid.

    Args:
        bill: The bill (issued, overdue or awaiting payment).
        method: The customer's payment method.
    """
    b = db.get(Bill, bill)
    if b["status"] == "disputed":
        raise ToolError(
            f"bill {bill} is disputed; it cannot be paid until a human agent resolves the dispute"
        )
    if b["status"] not in ("issued", "overdue", "awaiting_payment"):
        raise ToolError(
            f"bill {bill} is {b['status']}; only issued, overdue or awaiting-payment bills can be paid"
        )
    _method(db, b, method)
    pay = db.insert(Payment, bill_id=bill, method_id=method, amount=_outstanding(b), paid_at=db.stamp())
    db.update(Bill, bill, status="paid", paid_on=db.today.isoformat())
    db.execute("UPDATE payment_requests SET status = 'paid' WHERE bill_id = ? AND status = 'sent'", bill)
    return {**pay, "bill_status": "paid", "past_due_left": R.past_due(db, b["customer_id"])}


@telecom_support.tool(
    writes=[Credit, Bill],
    returns=Credit,
    says=[
        "please credit {amount} to bill {bill}, the reason is {reason}",
        "I'd like a credit of {amount} on {bill} because of {reason}",
    ],
)
def apply_goodwill_credit(
    db: Db, bill: Ref[Bill, R.CREDITABLE], amount: CreditAmount, reason: ShortText
) -> dict:
    """Take a goodwill credit off an unpaid bill. At most the bill's outstanding amount.

    Args:
        bill: The bill to credit.
        amount: Dollars to take off.
        reason: Why, in a few words.
    """
    b = db.get(Bill, bill)
    if b["status"] in ("paid", "disputed"):
        raise ToolError(
            f"bill {bill} is {b['status']}; credits go on draft, issued, overdue or awaiting bills"
        )
    if abs(round(amount, 2) - amount) > 1e-9:
        raise ToolError(f"amount {amount} has more than two decimal places")
    left = _outstanding(b)
    if amount > left:
        raise ToolError(f"a credit of {amount:.2f} is more than the {left:.2f} outstanding on bill {bill}")
    credit = db.insert(
        Credit,
        customer_id=b["customer_id"],
        bill_id=bill,
        amount=amount,
        reason=reason,
        issued_on=db.today.isoformat(),
    )
    done = round(b["credited"] + amount, 2)
    paid = done >= b["amount"] and b["status"] != "draft"
    db.update(
        Bill, bill, credited=done, **({"status": "paid", "paid_on": db.today.isoformat()} if paid else {})
    )
    return {**credit, "bill_outstanding": round(b["amount"] - done, 2)}
