"""One-off charges: charging (or only authorizing) a card, capturing or releasing an authorization,
reading a payment, refunding it."""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated

from pydantic import Field

from servers.domains.payments.model import (
    CancelReason,
    Customer,
    Delivery,
    Event,
    IdempotencyKey,
    Merchant,
    Payment,
    PaymentMethod,
    Refund,
    RefundReason,
    payments,
)
from servers.domains.payments.rules import (
    CHARGEABLE,
    REFUNDABLE,
    _active_merchant,
    _add_pending,
    _charge,
    _emit,
    _live_customer,
    _method_for,
    _min_charge,
    _money,
    _refund,
)
from servers.kit import Db, Money, Ref, ToolError

AUTH_DAYS = 7  # an uncaptured authorization lapses after this many days
KEY_HOURS = 24  # idempotency keys are remembered this long

Description = Annotated[
    str,
    Field(
        min_length=1,
        max_length=200,
        examples=[
            "Annual membership",
            "Catering deposit",
            "Repair invoice balance",
            "Event tickets",
            "Late fee",
        ],
    ),
]
IdemKey = Annotated[
    str,
    Field(
        min_length=1,
        max_length=64,
        pattern=r"^[A-Za-z0-9_-]+$",
        description="A key of your choice; retrying with the same key never charges twice.",
        examples=["order-4471", "retry-2026-06-01-a", "booking-88123"],
    ),
]


def _replay(db: Db, merchant_id: str, key: str, request: str) -> dict | None:
    """The payment an earlier request with this key made, if it is the same request."""
    row = db.one("SELECT * FROM idempotency_keys WHERE merchant_id = ? AND key = ?", merchant_id, key)
    if row is None or row["created_at"] < (db.now - timedelta(hours=KEY_HOURS)).isoformat(timespec="seconds"):
        return None
    if row["request"] != request:
        raise ToolError(
            f"idempotency key {key!r} was already used at {row['created_at']} for a different request "
            f"(payment {row['payment_id']}); use a new key for a new charge"
        )
    return db.get(Payment, row["payment_id"])


def _remember(db: Db, merchant_id: str, key: str, request: str, payment_id: str) -> None:
    row = db.one("SELECT id FROM idempotency_keys WHERE merchant_id = ? AND key = ?", merchant_id, key)
    values = {"request": request, "payment_id": payment_id, "created_at": db.stamp()}
    if row is None:
        db.add(IdempotencyKey, merchant_id=merchant_id, key=key, **values)
    else:  # an expired key starts over
        db.update(IdempotencyKey, row["id"], **values)


@payments.tool(
    writes=[Payment, Merchant, IdempotencyKey, Event, Delivery],
    returns=Payment,
    says=[
        "charge {customer} {amount} for {description}",
        "put a hold of {amount} on the card of {customer} for {description}, don't capture it yet",
        "bill {customer} {amount} on payment method {payment_method} for {description}, idempotency key {idempotency_key}",
    ],
)
def charge_customer(
    db: Db,
    customer: Ref[Customer, CHARGEABLE],
    amount: Money,
    description: Description,
    payment_method: Ref[PaymentMethod, "status = 'active'"] | None = None,
    capture: bool = True,
    idempotency_key: IdemKey | None = None,
) -> dict:
    """Charge a customer once, in the merchant's currency (minimum 0.50; 0.30 in GBP). With
    capture=false the amount is only authorized (held on the card) until captured or canceled. A
    declined card is recorded as a failed payment and reported, not raised. Reusing an idempotency
    key with the same request returns the original payment without charging again.

    Args:
        customer: Who pays.
        amount: How much.
        description: What the charge is for (shown on the receipt).
        payment_method: The customer's card or bank account (default: their default method).
        capture: false to authorize only.
        idempotency_key: Makes a retried request safe.
    """
    c = _live_customer(db, customer)
    merchant = _active_merchant(db, c["merchant_id"], "take payments")
    _min_charge(amount, merchant["currency"])
    pm = _method_for(db, c, payment_method)
    request = f"{customer}|{amount:.2f}|{pm['id']}|{capture}"
    if idempotency_key is not None:
        original = _replay(db, merchant["id"], idempotency_key, request)
        if original is not None:
            return {**original, "idempotent_replay": True}
    pay = _charge(db, merchant, c, pm, amount, description, capture=capture)
    if idempotency_key is not None:
        _remember(db, merchant["id"], idempotency_key, request, pay["id"])
    return {**pay, "idempotent_replay": False}


def _authorized(db: Db, payment_id: str, doing: str) -> dict:
    pay = db.get(Payment, payment_id)
    if pay["status"] != "requires_capture":
        hint = " (refund it instead)" if pay["status"] == "succeeded" else ""
        raise ToolError(
            f"payment {payment_id} is {pay['status']}; only authorized (requires_capture) payments can be {doing}{hint}"
        )
    return pay


@payments.tool(
    writes=[Payment, Merchant, Event, Delivery],
    returns=Payment,
    idempotent=True,
    says=[
        "capture the authorized payment {payment}",
        "capture {amount} of payment {payment} and release the rest of the hold",
    ],
)
def capture_payment(
    db: Db, payment: Ref[Payment, "status = 'requires_capture'"], amount: Money | None = None
) -> dict:
    """Capture an authorized payment, in full or in part (the rest of the hold is released).
    Authorizations lapse after 7 days.

    Args:
        payment: An authorized payment.
        amount: How much to capture (default: all of it).
    """
    pay = _authorized(db, payment, "captured")
    cur = pay["currency"]
    merchant = _active_merchant(db, pay["merchant_id"], "capture payments")
    lapse = (db.now - timedelta(days=AUTH_DAYS)).isoformat(timespec="seconds")
    if pay["created_at"] < lapse:
        raise ToolError(f"the authorization {payment} from {pay['created_at']} lapsed after {AUTH_DAYS} days")
    amount = pay["amount"] if amount is None else amount
    if amount > pay["amount"]:
        raise ToolError(
            f"cannot capture {_money(amount, cur)}: payment {payment} authorized only {_money(pay['amount'], cur)}"
        )
    _min_charge(amount, cur)
    out = db.update(Payment, payment, status="succeeded", amount_captured=amount, captured_at=db.stamp())
    _add_pending(db, merchant["id"], amount)
    _emit(
        db,
        merchant["id"],
        "payment.captured",
        payment,
        f"{_money(amount, cur)} of {_money(pay['amount'], cur)}",
    )
    return out


@payments.tool(
    writes=[Payment, Event, Delivery],
    returns=Payment,
    destructive=True,
    idempotent=True,
    says=[
        "cancel the authorized payment {payment}",
        "release the hold on payment {payment}, reason: {reason}",
    ],
)
def cancel_payment(
    db: Db,
    payment: Ref[Payment, "status = 'requires_capture'"],
    reason: CancelReason = "requested_by_customer",
) -> dict:
    """Cancel an authorized, uncaptured payment: the hold on the card is released. Captured payments
    are refunded instead.

    Args:
        payment: An authorized payment.
        reason: duplicate, fraudulent, requested_by_customer or abandoned.
    """
    pay = _authorized(db, payment, "canceled")
    out = db.update(Payment, payment, status="canceled", failure_code=None)
    _emit(db, pay["merchant_id"], "payment.canceled", payment, f"hold released ({reason})")
    return out


@payments.tool(
    returns=Payment,
    says=["show me payment {payment} and its refunds", "how much of payment {payment} has been refunded?"],
)
def get_payment(db: Db, payment: Ref[Payment]) -> dict:
    """One payment with its refunds, what is still refundable, and its dispute if any."""
    pay = db.get(Payment, payment)
    pay["refunds"] = db.all("SELECT * FROM refunds WHERE payment_id = ? ORDER BY id", payment)
    refundable = pay["amount_captured"] - pay["amount_refunded"] if pay["status"] == "succeeded" else 0.0
    pay["refundable"] = round(refundable, 2)
    pay["dispute"] = db.one("SELECT * FROM disputes WHERE payment_id = ? ORDER BY id DESC LIMIT 1", payment)
    return pay


@payments.tool(
    writes=[Refund, Payment, Merchant, Event, Delivery],
    returns=Refund,
    says=[
        "refund {amount} of payment {payment}, reason {reason}",
        "give the customer their money back for payment {payment}, reason: {reason}",
        "refund payment {payment} in full",
    ],
)
def refund_payment(
    db: Db,
    payment: Ref[Payment, REFUNDABLE],
    reason: RefundReason = "requested_by_customer",
    amount: Money | None = None,
) -> dict:
    """Refund a captured payment in full or in part; partial refunds add up to at most what was
    captured. Disputed payments cannot be refunded. The money comes out of the merchant's balance.

    Args:
        payment: A succeeded payment.
        reason: duplicate, fraudulent or requested_by_customer.
        amount: How much to refund (default: everything not yet refunded).
    """
    refund, pay = _refund(db, db.get(Payment, payment), amount, reason)
    return {**refund, "payment": pay, "refundable": round(pay["amount_captured"] - pay["amount_refunded"], 2)}
