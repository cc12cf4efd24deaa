"""The carrier's tables: customers, plans, lines (keyed by phone number), the phones that hold
their SIMs, monthly bills and what was paid, credited, refuelled, ordered and escalated."""

from __future__ import annotations

import re
from datetime import date
from typing import Annotated, Literal

from pydantic import AfterValidator, Field
from sqlalchemy import ForeignKey, Index
from sqlalchemy.orm import Mapped, mapped_column

from servers.kit import Domain, Sensitive

telecom_support = Domain(
    "telecom_support",
    "a mobile carrier's support desk: customers, lines, plans, bills and payments, roaming, data "
    "refuels, SIMs and eSIMs, plus the customer's phone (device_* tools) with its radio settings.",
)

CARRIER = "Corvid Mobile"
HOME_COUNTRY = "US"
GOODWILL_CAP = 60.00  # policy: goodwill credits per customer and calendar year
REFUEL_CAP_GB = 5  # policy: refuel data per line and billing cycle
PLAN_CHANGE_NEAR_DAYS = 3  # policy: a change this close before the cycle start is "near"
PIN_TRIES = 3  # wrong SIM PINs before the SIM asks for its PUK
PUK_TRIES = 10  # wrong PUKs before the SIM is blocked for good
DUE_DAYS = 21  # a bill is due this many days after it is issued
APN = "fast.corvid.example"
# Tools a policy rule governs log breaches there in written mode; the kit does not add the table
# to their declared writes, so they declare it themselves.

OnOff = Literal["on", "off"]
NetworkMode = Literal["5g", "4g", "3g", "2g"]
SuspendReason = Literal["lost_or_stolen", "customer_request", "travel"]
SimKind = Literal["physical", "esim"]
TicketCategory = Literal["coverage", "device_hardware", "billing", "number_port", "complaint", "other"]
HandoffReason = Literal[
    "billing_dispute",
    "device_hardware",
    "number_port",
    "complaint_escalation",
    "no_service",
    "no_data",
    "roaming",
    "payment",
    "plan_change",
    "sim_locked",
]
# what only a person can do; everything else the tools handle (policy rule "human-last-resort")
HUMAN_ONLY = ("billing_dispute", "device_hardware", "number_port", "complaint_escalation")


def _iso_day(value: str) -> str:
    try:
        date.fromisoformat(value)
    except ValueError:
        raise ValueError(f"{value!r} is not a date written YYYY-MM-DD") from None
    if not re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", value):
        raise ValueError(f"{value!r} is not a date written YYYY-MM-DD")
    return value


# Checked by a validator, not a schema pattern: the generator speaks pattern-checked dates in words
# ("July 1, 1986"), and a secret must reach the tool exactly as the caller said it.
DateOfBirth = Annotated[
    str,
    Sensitive(),
    Field(
        min_length=10, max_length=10, description="The customer's date of birth as they state it, YYYY-MM-DD."
    ),
    AfterValidator(_iso_day),
]
SimPin = Annotated[
    str,
    Sensitive(),
    Field(pattern=r"^[0-9]{4,8}$", min_length=4, max_length=8, description="The SIM PIN, 4-8 digits."),
]
SimPuk = Annotated[
    str,
    Sensitive(),
    Field(pattern=r"^[0-9]{8}$", min_length=8, max_length=8, description="The SIM's 8-digit PUK code."),
]
VoicemailPin = Annotated[
    str,
    Sensitive(),
    Field(
        pattern=r"^[0-9]{4,6}$", min_length=4, max_length=6, description="A new voicemail PIN, 4-6 digits."
    ),
]
PhoneNumber = Annotated[
    str,
    Field(
        min_length=7,
        max_length=20,
        description="A phone number as the customer says it, e.g. +1-507-935-7466.",
    ),
]


class Customer(
    telecom_support.Table,
    prefix="CUS",
    people={"name": "name", "email": "email", "phone": "phone", "city": "city"},
    hidden=("date_of_birth",),
):
    """An account holder: a person of the shared world living in the carrier's home country."""

    __tablename__ = "customers"
    # hidden: asked for to verify a caller, never shown
    __table_args__ = (Index("ix_customers_name", "name"),)
    id: Mapped[str] = mapped_column(primary_key=True)
    name: Mapped[str]
    email: Mapped[str] = mapped_column(unique=True)
    phone: Mapped[str]  # contact number (the customer's own line)
    city: Mapped[str]
    date_of_birth: Mapped[str]
    customer_since: Mapped[str]


class PaymentMethod(telecom_support.Table, prefix="PM", noun="payment method"):
    __tablename__ = "payment_methods"
    id: Mapped[str] = mapped_column(primary_key=True)
    customer_id: Mapped[str] = mapped_column(ForeignKey("customers.id"), index=True)
    kind: Mapped[str]  # card / bank_account
    label: Mapped[str]  # "Visa ending 4242"
    expires: Mapped[str | None]  # YYYY-MM for cards
    status: Mapped[str]  # active / expired


class Plan(telecom_support.Table, prefix="PLN"):
    """A monthly plan. ``data_gb`` None is unlimited (nothing to refuel)."""

    __tablename__ = "plans"
    id: Mapped[str] = mapped_column(primary_key=True)
    name: Mapped[str]
    monthly_price: Mapped[float]
    data_gb: Mapped[float | None]
    refuel_price_per_gb: Mapped[float | None]
    available: Mapped[bool]  # retired plans keep their lines but take no new ones


class Line(telecom_support.Table, example="+1-507-935-7466", hidden=("sim_pin", "sim_puk", "voicemail_pin")):
    """A phone number on an account. Keyed by the number itself, which is what callers say."""

    __tablename__ = "lines"
    id: Mapped[str] = mapped_column(primary_key=True)  # the phone number
    customer_id: Mapped[str] = mapped_column(ForeignKey("customers.id"), index=True)
    plan_id: Mapped[str] = mapped_column(ForeignKey("plans.id"), index=True)
    status: Mapped[str] = mapped_column(index=True)  # active / suspended
    suspension_reason: Mapped[str | None]  # overdue_bill / lost_or_stolen / customer_request / travel
    suspended_on: Mapped[str | None]
    roaming_enabled: Mapped[bool]  # the account side of roaming; the phone has its own toggle
    cycle_start: Mapped[str]  # first day of the current billing cycle
    cycle_end: Mapped[str]
    data_used_gb: Mapped[float]  # this cycle
    refueled_gb: Mapped[float]  # extra data bought this cycle
    plan_changed_on: Mapped[str | None]
    contract_end: Mapped[str | None]
    sim_pin: Mapped[str]
    sim_puk: Mapped[str]
    voicemail_pin: Mapped[str]
    activated_on: Mapped[str]


class Device(telecom_support.Table, prefix="DEV"):
    """A customer's phone and its settings. ``line_number`` is the line whose SIM it holds (none
    for a spare phone). Where it is (``country``) and how good coverage is there are facts the
    phone reports, not settings."""

    __tablename__ = "devices"
    id: Mapped[str] = mapped_column(primary_key=True)
    customer_id: Mapped[str] = mapped_column(ForeignKey("customers.id"), index=True)
    line_number: Mapped[str | None] = mapped_column(ForeignKey("lines.id"), unique=True)
    model: Mapped[str]
    max_network: Mapped[str]  # 5g / 4g: the best the radio can do
    esim_capable: Mapped[bool]
    sim_kind: Mapped[str | None]  # physical / esim / None (no SIM)
    sim_seated: Mapped[bool]  # a physical SIM sits properly in its tray
    sim_status: Mapped[str]  # ready / pin_required / puk_locked / blocked / absent
    pin_enabled: Mapped[bool]  # the SIM asks for its PIN after every restart
    pin_attempts_left: Mapped[int]
    puk_attempts_left: Mapped[int]
    airplane_mode: Mapped[bool]
    mobile_data: Mapped[bool]
    data_roaming: Mapped[bool]
    wifi_calling: Mapped[bool]
    wifi_connected: Mapped[bool]
    data_saver: Mapped[bool]
    network_mode: Mapped[str]  # 5g / 4g / 3g / 2g: the newest generation the phone may use
    apn: Mapped[str]
    restart_pending: Mapped[bool]  # a network setting changed and waits for a restart
    country: Mapped[str]  # where the phone is now (ISO code)
    coverage_bars: Mapped[int]  # 0-4 where the phone is; 0 = no cellular coverage


class Bill(telecom_support.Table, prefix="BIL"):
    """One billing cycle of one line. Outstanding = amount - credited (until paid)."""

    __tablename__ = "bills"
    # a line's bills by period (its history) and by status (its draft: what a plan change or a
    # refuel charges; without this index SQLite reads all 1,800 drafts to find one line's)
    __table_args__ = (
        Index("ix_bills_line_period", "line_number", "period_start"),
        Index("ix_bills_line_status", "line_number", "status"),
    )
    id: Mapped[str] = mapped_column(primary_key=True)
    line_number: Mapped[str] = mapped_column(ForeignKey("lines.id"))
    customer_id: Mapped[str] = mapped_column(ForeignKey("customers.id"), index=True)
    period_start: Mapped[str]
    period_end: Mapped[str]
    issued_on: Mapped[str | None]
    due_on: Mapped[str | None]
    amount: Mapped[float]
    credited: Mapped[float]
    status: Mapped[str] = mapped_column(index=True)  # draft/issued/paid/overdue/awaiting_payment/disputed
    paid_on: Mapped[str | None]


class PaymentRequest(telecom_support.Table, prefix="PRQ", noun="payment request"):
    """A request to pay a bill, sent to the customer's payment method (the bill then awaits payment)."""

    __tablename__ = "payment_requests"
    id: Mapped[str] = mapped_column(primary_key=True)
    bill_id: Mapped[str] = mapped_column(ForeignKey("bills.id"), index=True)
    method_id: Mapped[str] = mapped_column(ForeignKey("payment_methods.id"))
    amount: Mapped[float]
    status: Mapped[str]  # sent / paid
    sent_at: Mapped[str]


class Payment(telecom_support.Table, prefix="PAY", append_only=True):
    __tablename__ = "payments"
    id: Mapped[str] = mapped_column(primary_key=True)
    bill_id: Mapped[str] = mapped_column(ForeignKey("bills.id"), index=True)
    method_id: Mapped[str] = mapped_column(ForeignKey("payment_methods.id"))
    amount: Mapped[float]
    paid_at: Mapped[str]


class Credit(telecom_support.Table, prefix="CRD", append_only=True):
    """A goodwill credit taken off a bill."""

    __tablename__ = "credits"
    id: Mapped[str] = mapped_column(primary_key=True)
    customer_id: Mapped[str] = mapped_column(ForeignKey("customers.id"), index=True)
    bill_id: Mapped[str] = mapped_column(ForeignKey("bills.id"))
    amount: Mapped[float]
    reason: Mapped[str]
    issued_on: Mapped[str]


class Refuel(telecom_support.Table, prefix="RFL", append_only=True):
    """Extra data bought for one cycle, charged on that cycle's bill."""

    __tablename__ = "refuels"
    id: Mapped[str] = mapped_column(primary_key=True)
    line_number: Mapped[str] = mapped_column(ForeignKey("lines.id"), index=True)
    bill_id: Mapped[str] = mapped_column(ForeignKey("bills.id"))
    gb: Mapped[float]
    price: Mapped[float]
    at: Mapped[str]


class SimOrder(telecom_support.Table, prefix="SIM", noun="SIM order"):
    __tablename__ = "sim_orders"
    id: Mapped[str] = mapped_column(primary_key=True)
    line_number: Mapped[str] = mapped_column(ForeignKey("lines.id"), index=True)
    kind: Mapped[str]  # physical / esim
    status: Mapped[str]  # shipping / activated
    ship_to: Mapped[str | None]
    created_at: Mapped[str]


class Ticket(telecom_support.Table, prefix="TKT"):
    __tablename__ = "tickets"
    id: Mapped[str] = mapped_column(primary_key=True)
    customer_id: Mapped[str] = mapped_column(ForeignKey("customers.id"), index=True)
    line_number: Mapped[str | None] = mapped_column(ForeignKey("lines.id"))
    category: Mapped[str]
    summary: Mapped[str]
    status: Mapped[str]  # open / closed
    created_at: Mapped[str]


class Handoff(telecom_support.Table, prefix="HND"):
    """A conversation handed to a human agent."""

    __tablename__ = "handoffs"
    id: Mapped[str] = mapped_column(primary_key=True)
    customer_id: Mapped[str] = mapped_column(ForeignKey("customers.id"), index=True)
    reason: Mapped[str]
    summary: Mapped[str]
    at: Mapped[str]


# This conversation: which customer's identity the agent has verified (none at the start).
# internal: the conversation's own state, not a record anyone asks about
Session = telecom_support.acting(
    Customer,
    "verified_customer_id",
    login="verify_customer",
    signed_out=True,
    columns={"verified_at": str | None},
    internal=True,
)
