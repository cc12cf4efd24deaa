"""The airline desk's tables and fixed facts: airports, the flight schedule and its dated
instances, members and their saved payment methods, reservations with their flights,
passengers, payments and bags, compensation certificates, transfers and the desk session."""

from __future__ import annotations

from typing import Literal

from sqlalchemy import ForeignKey, Index, UniqueConstraint, func
from sqlalchemy.orm import Mapped, mapped_column

from servers.kit import Domain

airline_service = Domain(
    "airline_service",
    "Airline customer-service desk: members, flight search and status, reservations (booking, "
    "flight and cabin changes, passengers, bags, insurance, cancellation), compensation "
    "certificates and hand-off to a human agent, under a written policy.",
    now="2026-06-01T09:00:00",
)

AIRLINE = "Skyward Air"
Cabin = Literal["basic_economy", "economy", "business"]
CABINS: tuple[str, ...] = ("basic_economy", "economy", "business")
Membership = Literal["regular", "silver", "gold"]
CancelReason = Literal["change_of_plans", "airline_cancelled", "health", "weather", "other"]
ReservationStatus = Literal["active", "cancelled"]

MAX_SEATS_PER_BOOKING = 9  # what the reservation system accepts (the policy allows fewer)
MAX_BAGS_PER_PASSENGER = 5
BAG_PRICE = 50.0
INSURANCE_PER_PASSENGER = 30.0
MIN_CONNECTION_MIN = 45
MAX_CONNECTION_MIN = 360
# free checked bags per passenger, by membership tier and cabin
FREE_BAGS: dict[str, dict[str, int]] = {
    "regular": {"basic_economy": 0, "economy": 1, "business": 2},
    "silver": {"basic_economy": 1, "economy": 2, "business": 3},
    "gold": {"basic_economy": 2, "economy": 3, "business": 4},
}
FREE_CANCEL_HOURS = 24
COVERED_REASONS = ("health", "weather")  # what travel insurance covers
DISRUPTION_DELAY_MIN = 180  # a delay this long counts as a disruption
COMPENSATION_PER_PASSENGER = {"cancelled": 100.0, "delayed": 50.0}
FLOWN = ("departed", "landed")


class Airport(airline_service.Table, example="PDX", noun="airport"):
    """An airport the airline serves, keyed by its IATA code."""

    __tablename__ = "airports"
    id: Mapped[str] = mapped_column(primary_key=True)  # IATA code
    city: Mapped[str]
    country: Mapped[str]
    timezone: Mapped[str]


class Flight(airline_service.Table, example="SW0142", noun="flight number"):
    """A scheduled flight number: the same route at the same time every day."""

    __tablename__ = "flights"
    id: Mapped[str] = mapped_column(primary_key=True)  # the flight number
    origin: Mapped[str] = mapped_column(ForeignKey("airports.id"))
    destination: Mapped[str] = mapped_column(ForeignKey("airports.id"))
    departs: Mapped[str]  # HH:MM
    duration_min: Mapped[int]
    aircraft: Mapped[str]


class FlightDate(airline_service.Table, prefix="FLD", noun="flight"):
    """One flight on one date: its status, seats left and fares per cabin (per passenger)."""

    __tablename__ = "flight_dates"
    __table_args__ = (
        UniqueConstraint("flight_number", "date"),
        Index("ix_flight_dates_route", "origin", "destination", "date"),
        Index("ix_flight_dates_from", "origin", "date"),
    )
    id: Mapped[str] = mapped_column(primary_key=True)
    flight_number: Mapped[str] = mapped_column(ForeignKey("flights.id"))
    date: Mapped[str]
    origin: Mapped[str] = mapped_column(ForeignKey("airports.id"))
    destination: Mapped[str] = mapped_column(ForeignKey("airports.id"))
    departs_at: Mapped[str]  # scheduled, YYYY-MM-DDTHH:MM:SS
    arrives_at: Mapped[str]
    status: Mapped[str]  # scheduled / delayed / cancelled / departed / landed
    delay_min: Mapped[int]
    seats_basic_economy: Mapped[int]
    seats_economy: Mapped[int]
    seats_business: Mapped[int]
    price_basic_economy: Mapped[float]
    price_economy: Mapped[float]
    price_business: Mapped[float]


class User(
    airline_service.Table,
    prefix="USR",
    hidden=("dob",),
    people={
        "name": "name",
        "first_name": "first_name",
        "last_name": "last_name",
        "email": "email",
        "phone": "phone",
        "city": "city",
    },
):
    """A member of the airline's loyalty programme (a person of the shared world)."""

    __tablename__ = "users"
    id: Mapped[str] = mapped_column(primary_key=True)
    name: Mapped[str]
    first_name: Mapped[str]
    last_name: Mapped[str]
    email: Mapped[str] = mapped_column(unique=True)
    phone: Mapped[str]
    city: Mapped[str]
    dob: Mapped[str]  # what callers confirm their identity with
    membership: Mapped[str]
    member_since: Mapped[str]


# find_user and verify_user match the email the way a caller types it, in any case
Index("ix_users_email_lower", func.lower(User.email))


class PaymentMethod(airline_service.Table, prefix="PMT", noun="payment method"):
    """A saved way to pay: a credit card, a gift card or a travel certificate (the last two
    carry a balance; a certificate is used up once its balance reaches zero)."""

    __tablename__ = "payment_methods"
    id: Mapped[str] = mapped_column(primary_key=True)
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"), index=True)
    kind: Mapped[str]  # credit_card / gift_card / certificate
    label: Mapped[str]  # "Visa ending 4242", "Gift card 7731", "Certificate 0012"
    balance: Mapped[float | None]  # None for credit cards
    status: Mapped[str]  # active / used
    added_at: Mapped[str]


class Reservation(airline_service.Table, prefix="RES"):
    """A booking: one or more flights in one cabin for up to a handful of passengers."""

    __tablename__ = "reservations"
    id: Mapped[str] = mapped_column(primary_key=True)
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"), index=True)
    origin: Mapped[str] = mapped_column(ForeignKey("airports.id"))
    destination: Mapped[str] = mapped_column(ForeignKey("airports.id"))
    trip_type: Mapped[str]  # one_way / round_trip
    cabin: Mapped[str]  # the cabin of its flights, "mixed" if they differ
    passenger_count: Mapped[int]
    total_bags: Mapped[int]
    paid_bags: Mapped[int]
    insurance: Mapped[bool]
    status: Mapped[str]  # active / cancelled
    created_at: Mapped[str]
    cancelled_at: Mapped[str | None]
    cancel_reason: Mapped[str | None]


class ReservationFlight(airline_service.Table, prefix="RSF", noun="reservation flight"):
    """One flight of a reservation, in travel order, with the fare paid per passenger."""

    __tablename__ = "reservation_flights"
    id: Mapped[str] = mapped_column(primary_key=True)
    reservation_id: Mapped[str] = mapped_column(ForeignKey("reservations.id"), index=True)
    flight_date_id: Mapped[str] = mapped_column(ForeignKey("flight_dates.id"), index=True)
    position: Mapped[int]
    cabin: Mapped[str]
    price: Mapped[float]


class Passenger(airline_service.Table, prefix="PAX"):
    """A traveller on a reservation."""

    __tablename__ = "passengers"
    id: Mapped[str] = mapped_column(primary_key=True)
    reservation_id: Mapped[str] = mapped_column(ForeignKey("reservations.id"), index=True)
    name: Mapped[str]  # first and last name, as on the ticket
    first_name: Mapped[str]
    last_name: Mapped[str]
    dob: Mapped[str]


class Payment(airline_service.Table, prefix="PAY", append_only=True):
    """Money taken for (charge) or returned to (refund) a reservation, one payment method each."""

    __tablename__ = "payments"
    id: Mapped[str] = mapped_column(primary_key=True)
    reservation_id: Mapped[str] = mapped_column(ForeignKey("reservations.id"), index=True)
    payment_method_id: Mapped[str] = mapped_column(ForeignKey("payment_methods.id"), index=True)
    kind: Mapped[str]  # charge / refund
    amount: Mapped[float]
    memo: Mapped[str]
    created_at: Mapped[str]


class Certificate(airline_service.Table, prefix="CRT", append_only=True):
    """A compensation certificate issued for a disrupted flight (it becomes a payment method)."""

    __tablename__ = "certificates"
    id: Mapped[str] = mapped_column(primary_key=True)
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"), index=True)
    reservation_id: Mapped[str] = mapped_column(ForeignKey("reservations.id"), index=True)
    flight_date_id: Mapped[str] = mapped_column(ForeignKey("flight_dates.id"))
    payment_method_id: Mapped[str] = mapped_column(ForeignKey("payment_methods.id"))
    amount: Mapped[float]
    issued_at: Mapped[str]


class Transfer(airline_service.Table, prefix="TRF", append_only=True):
    """A conversation handed to a human agent, with the summary the agent wrote."""

    __tablename__ = "transfers"
    id: Mapped[str] = mapped_column(primary_key=True)
    user_id: Mapped[str | None] = mapped_column(ForeignKey("users.id"))
    summary: Mapped[str]
    created_at: Mapped[str]


# This conversation: whose identity the desk has verified (none at the start).
Session = airline_service.acting(
    User,
    "verified_user_id",
    login="verify_user",
    signed_out=True,
    foreign_key=False,
    columns={"verified_at": str | None},
    internal=True,
)
