"""The payment platform's tables and fixed facts: merchants, customers, methods, invoices, payments,
refunds, credit notes, disputes, webhooks, the event log and payouts."""

from __future__ import annotations

from typing import Annotated, Literal, get_args

from pydantic import Field
from sqlalchemy import ForeignKey, Index, UniqueConstraint, func, text
from sqlalchemy.orm import Mapped, mapped_column

from servers.kit import Domain, Sensitive

payments = Domain(
    "payments",
    "Merchant payments platform: customers, cards, invoices, charges, refunds, disputes, webhooks and payouts.",
)

# Smallest amount a card network accepts in each currency (Stripe's minimums for these currencies).
MIN_CHARGE = {"usd": 0.50, "cad": 0.50, "eur": 0.50, "gbp": 0.30}
CURRENCY_OF_COUNTRY = {"US": "usd", "CA": "cad", "GB": "gbp", "DE": "eur"}
MIN_PAYOUT = 1.00
MAX_ENDPOINTS = 16
RESEND_DAYS = 30  # events older than this are no longer resendable (our retention rule)
PAYOUT_DAYS = 2  # a payout arrives this many business days after it is created
DUE_DAYS = (1, 90)

EventType = Literal[
    "customer.created",
    "payment_method.attached",
    "payment_method.detached",
    "invoice.created",
    "invoice.updated",
    "invoice.finalized",
    "invoice.paid",
    "invoice.payment_failed",
    "invoice.voided",
    "invoice.marked_uncollectible",
    "credit_note.created",
    "payment.succeeded",
    "payment.failed",
    "payment.authorized",
    "payment.captured",
    "payment.canceled",
    "refund.created",
    "dispute.updated",
    "dispute.closed",
    "payout.created",
    "payout.canceled",
    "webhook_endpoint.created",
    "webhook_endpoint.updated",
]
EVENT_TYPES: tuple[str, ...] = get_args(EventType)
Subscription = Literal[("*", *EVENT_TYPES)]  # an endpoint listens to some types, or to all ("*")
InvoiceStatus = Literal["draft", "open", "paid", "uncollectible", "void"]
PaymentStatus = Literal["succeeded", "requires_capture", "failed", "canceled", "disputed"]
RefundReason = Literal["duplicate", "fraudulent", "requested_by_customer"]
CreditReason = Literal["duplicate", "fraudulent", "order_change", "product_unsatisfactory"]
CancelReason = Literal["duplicate", "fraudulent", "requested_by_customer", "abandoned"]
DisputeStatus = Literal["needs_response", "under_review", "won", "lost"]

CardNumber = Annotated[
    str,
    Sensitive(),
    Field(pattern=r"^[0-9]{15,16}$", description="The full card number, digits only.", max_length=16),
]
Cvc = Annotated[
    str, Sensitive(), Field(pattern=r"^[0-9]{3,4}$", description="The 3- or 4-digit security code.")
]
ExpMonth = Annotated[int, Field(ge=1, le=12, description="Expiry month on the card, 1-12.")]
ExpYear = Annotated[
    int,
    Field(
        ge=2000, le=2100, description="Expiry year on the card, e.g. 2028.", examples=[2027, 2028, 2029, 2030]
    ),
]


# -- tables ---------------------------------------------------------------------------------


class Merchant(payments.Table, prefix="MER", people={}):
    """A business that takes payments on the platform: a merchant of the shared world."""

    __tablename__ = "merchants"
    # people: businesses, not people: the email is the account's billing contact
    id: Mapped[str] = mapped_column(primary_key=True)
    name: Mapped[str]
    email: Mapped[str] = mapped_column(unique=True)
    category: Mapped[str]
    city: Mapped[str]
    country: Mapped[str]
    currency: Mapped[str]
    status: Mapped[str]  # active / restricted
    payouts_enabled: Mapped[bool]
    available_balance: Mapped[float]
    pending_balance: Mapped[float]
    invoice_prefix: Mapped[str]
    created_on: Mapped[str]


class Customer(payments.Table, prefix="CUS", people={"name": "name", "email": "email"}):
    """A merchant's customer: a world person, or a world company billed at its billing address."""

    __tablename__ = "customers"
    __table_args__ = (
        UniqueConstraint("merchant_id", "email"),
        # find_customer matches the email in any case: lower(email) = lower(?) read every customer
        Index("ix_customers_email_lower", func.lower(text("email"))),
    )
    id: Mapped[str] = mapped_column(primary_key=True)
    merchant_id: Mapped[str] = mapped_column(ForeignKey("merchants.id"), index=True)
    name: Mapped[str]
    email: Mapped[str] = mapped_column(index=True)
    credit_balance: Mapped[float]  # credit applied to the next invoices before any card is charged
    delinquent: Mapped[bool]  # an open invoice's last payment attempt failed
    default_method_id: Mapped[str | None]
    deleted: Mapped[bool]
    created_at: Mapped[str]


class PaymentMethod(
    payments.Table, prefix="PM", noun="payment method", hidden=("number", "fingerprint", "decline_code")
):
    """A card or bank account saved to a customer. The full number never leaves the platform."""

    __tablename__ = "payment_methods"
    # the few expired methods, for the sampler's "customer with an expired card" (attach_card):
    # its list was built by reading every method on each probe
    __table_args__ = (
        Index("ix_payment_methods_expired", "customer_id", sqlite_where=text("status = 'expired'")),
    )
    id: Mapped[str] = mapped_column(primary_key=True)
    customer_id: Mapped[str] = mapped_column(ForeignKey("customers.id"), index=True)
    kind: Mapped[str]  # card / bank_account
    brand: Mapped[str]
    last4: Mapped[str]
    exp_month: Mapped[int | None]
    exp_year: Mapped[int | None]
    status: Mapped[str]  # active / expired / detached
    number: Mapped[str | None]  # the full card number, kept in the vault (None for bank accounts)
    fingerprint: Mapped[str]  # a hash of the full number: the same card saved twice has the same one
    decline_code: Mapped[str | None]  # what the issuer answers to every charge (None = approves)
    added_at: Mapped[str]


class Product(payments.Table, prefix="PRD"):
    __tablename__ = "products"
    id: Mapped[str] = mapped_column(primary_key=True)
    merchant_id: Mapped[str] = mapped_column(ForeignKey("merchants.id"), index=True)
    name: Mapped[str]
    unit_amount: Mapped[float]
    active: Mapped[bool]


class Invoice(payments.Table, prefix="INV"):
    """A bill to one customer. Amounts: total = sum of lines; amount_due = total - credited - amount_paid."""

    __tablename__ = "invoices"
    __table_args__ = (  # list_invoices pages newest first, per merchant or customer
        Index("ix_invoices_merchant_created", "merchant_id", "created_at"),
        Index("ix_invoices_customer_created", "customer_id", "created_at"),
        # invoices of one status in id order: list_records pages them without sorting them all
        Index("ix_invoices_status", "status", "id"),
    )
    id: Mapped[str] = mapped_column(primary_key=True)
    merchant_id: Mapped[str] = mapped_column(ForeignKey("merchants.id"), index=True)
    customer_id: Mapped[str] = mapped_column(ForeignKey("customers.id"), index=True)
    number: Mapped[str | None]  # assigned when finalized
    status: Mapped[str]
    currency: Mapped[str]
    memo: Mapped[str | None]
    subtotal: Mapped[float]
    total: Mapped[float]
    amount_paid: Mapped[float]
    amount_due: Mapped[float]
    credited: Mapped[float]
    attempt_count: Mapped[int]
    due_days: Mapped[int]
    due_date: Mapped[str | None]
    created_at: Mapped[str]
    finalized_at: Mapped[str | None]
    paid_at: Mapped[str | None]
    voided_at: Mapped[str | None]


class InvoiceLine(payments.Table, prefix="ILN", noun="invoice line"):
    __tablename__ = "invoice_lines"
    id: Mapped[str] = mapped_column(primary_key=True)
    invoice_id: Mapped[str] = mapped_column(ForeignKey("invoices.id"), index=True)
    product_id: Mapped[str | None] = mapped_column(ForeignKey("products.id"))
    description: Mapped[str]
    quantity: Mapped[int]
    unit_amount: Mapped[float]
    amount: Mapped[float]


class Payment(payments.Table, prefix="PAY"):
    """One charge attempt. Authorized-only payments (``requires_capture``) hold funds until captured."""

    __tablename__ = "payments"
    id: Mapped[str] = mapped_column(primary_key=True)
    merchant_id: Mapped[str] = mapped_column(ForeignKey("merchants.id"), index=True)
    customer_id: Mapped[str] = mapped_column(ForeignKey("customers.id"), index=True)
    invoice_id: Mapped[str | None] = mapped_column(ForeignKey("invoices.id"), index=True)
    method_id: Mapped[str | None] = mapped_column(ForeignKey("payment_methods.id"))
    amount: Mapped[float]
    amount_captured: Mapped[float]
    amount_refunded: Mapped[float]
    currency: Mapped[str]
    status: Mapped[str] = mapped_column(index=True)
    failure_code: Mapped[str | None]
    description: Mapped[str]
    created_at: Mapped[str]
    captured_at: Mapped[str | None]


class Refund(payments.Table, prefix="REF", append_only=True):
    """Money given back on a captured payment. Append-only: a refund is never edited."""

    __tablename__ = "refunds"
    id: Mapped[str] = mapped_column(primary_key=True)
    payment_id: Mapped[str] = mapped_column(ForeignKey("payments.id"), index=True)
    amount: Mapped[float]
    reason: Mapped[str]
    status: Mapped[str]
    created_at: Mapped[str]


class CreditNote(payments.Table, prefix="CRN", noun="credit note", append_only=True):
    """An adjustment of a finalized invoice. Append-only."""

    __tablename__ = "credit_notes"
    id: Mapped[str] = mapped_column(primary_key=True)
    invoice_id: Mapped[str] = mapped_column(ForeignKey("invoices.id"), index=True)
    amount: Mapped[float]
    reason: Mapped[str]
    kind: Mapped[str]  # pre_payment (lowers amount due) / post_payment (refund or customer credit)
    refund_id: Mapped[str | None] = mapped_column(ForeignKey("refunds.id"))
    created_at: Mapped[str]


class Dispute(payments.Table, prefix="DSP"):
    """A cardholder contesting a payment with their bank; the amount is withheld while it lasts."""

    __tablename__ = "disputes"
    id: Mapped[str] = mapped_column(primary_key=True)
    payment_id: Mapped[str] = mapped_column(ForeignKey("payments.id"), index=True)
    merchant_id: Mapped[str] = mapped_column(ForeignKey("merchants.id"), index=True)
    amount: Mapped[float]
    reason: Mapped[str]
    status: Mapped[str] = mapped_column(index=True)
    evidence: Mapped[str | None]
    due_by: Mapped[str]
    created_at: Mapped[str]


class IdempotencyKey(payments.Table, prefix="IDK", noun="idempotency key"):
    """A client key remembered for a charge, so a retried request does not charge twice."""

    __tablename__ = "idempotency_keys"
    __table_args__ = (UniqueConstraint("merchant_id", "key"),)
    id: Mapped[str] = mapped_column(primary_key=True)
    merchant_id: Mapped[str] = mapped_column(ForeignKey("merchants.id"), index=True)
    key: Mapped[str]
    request: Mapped[str]  # what was asked: customer, amount, method, capture
    payment_id: Mapped[str] = mapped_column(ForeignKey("payments.id"))
    created_at: Mapped[str]


class WebhookEndpoint(payments.Table, prefix="WHE", noun="webhook endpoint", hidden=("secret", "health")):
    """A URL the platform posts events to. The signing secret and the URL's health are hidden."""

    __tablename__ = "webhook_endpoints"
    id: Mapped[str] = mapped_column(primary_key=True)
    merchant_id: Mapped[str] = mapped_column(ForeignKey("merchants.id"), index=True)
    url: Mapped[str]
    events: Mapped[str]  # comma-separated event types, or "*"
    status: Mapped[str]  # enabled / disabled
    secret: Mapped[str]
    health: Mapped[str]  # ok / failing: whether the URL answers 2xx
    created_at: Mapped[str]


class Event(payments.Table, prefix="EVT", append_only=True):
    """The append-only log of everything that happened to a merchant's objects."""

    __tablename__ = "events"
    __table_args__ = (
        Index("ix_events_merchant_created", "merchant_id", "created_at"),
        # events of one type in id order: list_records pages them without sorting them all
        Index("ix_events_type", "type", "id"),
    )
    id: Mapped[str] = mapped_column(primary_key=True)
    merchant_id: Mapped[str] = mapped_column(ForeignKey("merchants.id"), index=True)
    type: Mapped[str]
    object_id: Mapped[str] = mapped_column(index=True)
    summary: Mapped[str]
    created_at: Mapped[str] = mapped_column(index=True)


class Delivery(payments.Table, prefix="DLV", append_only=True):
    """One attempt to post an event to an endpoint. Append-only."""

    __tablename__ = "deliveries"
    __table_args__ = (  # failed deliveries to resend; per-endpoint success counts
        Index("ix_deliveries_failed", "status", "at", "endpoint_id", "event_id"),
        Index("ix_deliveries_endpoint", "endpoint_id", "status", "at"),
    )
    id: Mapped[str] = mapped_column(primary_key=True)
    event_id: Mapped[str] = mapped_column(ForeignKey("events.id"), index=True)
    endpoint_id: Mapped[str] = mapped_column(ForeignKey("webhook_endpoints.id"), index=True)
    status: Mapped[str]  # succeeded / failed
    attempt: Mapped[int]
    response_code: Mapped[int]
    at: Mapped[str]


class Payout(payments.Table, prefix="POU"):
    """Money sent from a merchant's available balance to its bank account."""

    __tablename__ = "payouts"
    id: Mapped[str] = mapped_column(primary_key=True)
    merchant_id: Mapped[str] = mapped_column(ForeignKey("merchants.id"), index=True)
    amount: Mapped[float]
    currency: Mapped[str]
    status: Mapped[str]  # pending / paid / failed / canceled
    arrival_day: Mapped[str]
    created_at: Mapped[str]
