"""The travel service's tables and fixed rules: travelers, tokens, cards, flights, hotels, trips."""

from __future__ import annotations

from typing import Literal

from sqlalchemy import ForeignKey, Index, UniqueConstraint, func
from sqlalchemy.orm import Mapped, mapped_column

from servers.kit import Domain

travel_booking = Domain(
    "travel_booking",
    "Travel booking service: flights, hotels, itineraries, saved payment cards, a trip budget, "
    "insurance and support.",
    now="2026-06-01T16:00:00",  # UTC: Monday 09:00 in Portland, where the persona lives
)

Cabin = Literal["basic_economy", "economy", "business"]
CABINS: tuple[str, ...] = ("basic_economy", "economy", "business")
Scope = Literal["read", "read_write"]
CancelReason = Literal["change_of_plans", "health", "weather", "airline_cancelled", "personal"]

MAX_PASSENGERS = 5
MAX_SEGMENTS = 4
MIN_CONNECTION_MIN = 45
BOOKING_CUTOFF_MIN = 60  # a flight departing within the hour can no longer be booked
TOKEN_HOURS = 24
SIGNINS_PER_DAY = 3
BAG_PRICE = 50.0
MAX_BAGS_PER_PASSENGER = 5
INSURANCE_PER_PASSENGER = 30.0
INSURANCE_WINDOW_H = 24
FREE_CANCEL_H = 24  # anything booked within the last 24 hours cancels with a full refund
MAX_NIGHTS = 30
PASSPORT_MARGIN_DAYS = 183  # a passport must be valid six months past the last flight abroad
# free checked bags per passenger, by membership and cabin (the tau2 airline table)
FREE_BAGS = {
    "regular": {"basic_economy": 0, "economy": 1, "business": 2},
    "silver": {"basic_economy": 1, "economy": 2, "business": 3},
    "gold": {"basic_economy": 2, "economy": 3, "business": 4},
}
# fare rules by cabin: may the flight be changed, the change fee far from / close to departure
# (CLOSE_DAYS), and what a voluntary cancellation refunds far from departure (fee per passenger)
CLOSE_DAYS = 7
CHANGE_FEE = {"basic_economy": None, "economy": (75.0, 150.0), "business": (0.0, 0.0)}
CANCEL_FEE_FAR = {"basic_economy": None, "economy": 100.0, "business": 0.0}


# -- people and access --------------------------------------------------------------------------


class Traveler(
    travel_booking.Table,
    prefix="TRV",
    hidden=("password", "passport_number"),
    people={"name": "name", "first_name": "first_name", "last_name": "last_name", "email": "email"},
):
    """A traveler account, a person of the shared world (TRV-000001 is the persona)."""

    __tablename__ = "travelers"
    id: Mapped[str] = mapped_column(primary_key=True)
    name: Mapped[str]
    first_name: Mapped[str]
    last_name: Mapped[str]
    email: Mapped[str] = mapped_column(unique=True)
    dob: Mapped[str]
    home_city: Mapped[str]
    membership: Mapped[str]  # regular / silver / gold
    status: Mapped[str]  # active / locked
    passport_number: Mapped[str]
    passport_country: Mapped[str]
    passport_expiry: Mapped[str]
    password: Mapped[str]


# signing in finds the account by its email in any case (lower(email) = lower(?))
Index("ix_travelers_email_lower", func.lower(Traveler.email))


class AccessToken(
    travel_booking.Table,
    example="tk_4f1c9a7e2b6d80351ac2",
    noun="access token",
    hidden=("id", "refresh_token"),
):
    """Access tokens, keyed by the token itself. Each traveler has a short series of tokens the
    service hands out in order (``unissued`` until an authenticate issues one); tokens are secrets,
    so discovery tools never show the key."""

    __tablename__ = "access_tokens"
    id: Mapped[str] = mapped_column(primary_key=True)
    traveler_id: Mapped[str] = mapped_column(ForeignKey("travelers.id"), index=True)
    seq: Mapped[int]
    scope: Mapped[str | None]  # read / read_write once issued
    status: Mapped[str]  # unissued / active / expired / revoked
    issued_at: Mapped[str | None]
    expires_at: Mapped[str | None]
    refresh_token: Mapped[str]


# This episode's sign-in: who is signed in and the token issued to them.
Session = travel_booking.acting(
    Traveler,
    "traveler_id",
    login="authenticate",
    signed_out=True,
    columns={"access_token": str | None, "logged_in_at": str | None},
    hidden=("access_token",),
)


class PaymentMethod(travel_booking.Table, prefix="PMT", noun="card", hidden=("pan",)):
    """A saved card: credit cards carry a limit and an owed balance, gift cards and travel
    certificates a remaining balance."""

    __tablename__ = "payment_methods"
    id: Mapped[str] = mapped_column(primary_key=True)
    traveler_id: Mapped[str] = mapped_column(ForeignKey("travelers.id"), index=True)
    kind: Mapped[str]  # credit_card / gift_card / travel_certificate
    nickname: Mapped[str]
    brand: Mapped[str]
    last4: Mapped[str]
    holder_name: Mapped[str]
    expiry: Mapped[str]  # YYYY-MM
    credit_limit: Mapped[float | None]
    balance: Mapped[float]
    status: Mapped[str]  # active / expired
    pan: Mapped[str]
    added_at: Mapped[str]


class Budget(travel_booking.Table, prefix="BGT"):
    """The traveler's per-trip budget limit: no itinerary may cost more in total."""

    __tablename__ = "budgets"
    id: Mapped[str] = mapped_column(primary_key=True)
    traveler_id: Mapped[str] = mapped_column(ForeignKey("travelers.id"), unique=True)
    trip_limit: Mapped[float]
    updated_at: Mapped[str]


# -- catalogue ----------------------------------------------------------------------------------


class Airport(travel_booking.Table, example="PDX", noun="airport"):
    __tablename__ = "airports"
    id: Mapped[str] = mapped_column(primary_key=True)  # IATA code
    name: Mapped[str]
    city: Mapped[str]
    country: Mapped[str]
    timezone: Mapped[str]
    lat: Mapped[float]
    lon: Mapped[float]


class Flight(travel_booking.Table, example="CV212", noun="flight"):
    """A scheduled route, keyed by its flight number; departure time is local to the origin."""

    __tablename__ = "flights"
    id: Mapped[str] = mapped_column(primary_key=True)  # flight number
    airline: Mapped[str]
    origin: Mapped[str] = mapped_column(ForeignKey("airports.id"), index=True)
    destination: Mapped[str] = mapped_column(ForeignKey("airports.id"), index=True)
    departs_local: Mapped[str]  # HH:MM
    duration_min: Mapped[int]
    days_of_week: Mapped[str]  # ISO weekdays flown, "1234567" = daily
    seats_basic: Mapped[int]
    seats_economy: Mapped[int]
    seats_business: Mapped[int]


class FlightDate(travel_booking.Table, prefix="FDT", noun="flight date"):
    """One flight on one day: status, seats left and prices per cabin (per passenger, USD)."""

    __tablename__ = "flight_dates"
    __table_args__ = (UniqueConstraint("flight_id", "day"),)
    id: Mapped[str] = mapped_column(primary_key=True)
    flight_id: Mapped[str] = mapped_column(ForeignKey("flights.id"), index=True)
    day: Mapped[str] = mapped_column(index=True)
    departs_at: Mapped[str]  # local to the origin
    arrives_at: Mapped[str]  # local to the destination
    departs_utc: Mapped[str] = mapped_column(index=True)
    arrives_utc: Mapped[str]
    status: Mapped[str]  # scheduled / delayed / cancelled / departed / landed
    seats_left_basic: Mapped[int]
    seats_left_economy: Mapped[int]
    seats_left_business: Mapped[int]
    price_basic: Mapped[float]
    price_economy: Mapped[float]
    price_business: Mapped[float]


class Hotel(travel_booking.Table, prefix="HTL"):
    __tablename__ = "hotels"
    id: Mapped[str] = mapped_column(primary_key=True)
    name: Mapped[str]
    city: Mapped[str] = mapped_column(index=True)
    address: Mapped[str]
    stars: Mapped[int]
    rating: Mapped[float]


class RoomType(travel_booking.Table, prefix="RTY", noun="room type"):
    """A kind of room in a hotel; availability on a night = total rooms minus booked stays."""

    __tablename__ = "room_types"
    id: Mapped[str] = mapped_column(primary_key=True)
    hotel_id: Mapped[str] = mapped_column(ForeignKey("hotels.id"), index=True)
    name: Mapped[str]
    capacity: Mapped[int]
    total_rooms: Mapped[int]
    nightly_price: Mapped[float]
    refundable: Mapped[bool]


class Currency(travel_booking.Table, example="EUR", noun="currency"):
    __tablename__ = "currencies"
    id: Mapped[str] = mapped_column(primary_key=True)  # ISO 4217 code
    name: Mapped[str]
    per_usd: Mapped[float]


# -- trips --------------------------------------------------------------------------------------


class Itinerary(travel_booking.Table, prefix="ITN", noun="itinerary"):
    """A booking: flights (segments) for passengers, optional hotel stays, bags and insurance.

    ``fare_paid`` is what the flights cost, ``extras_paid`` bags and insurance; stays keep their
    own price. ``total_paid`` is everything net of refunds (the invoice total)."""

    __tablename__ = "itineraries"
    id: Mapped[str] = mapped_column(primary_key=True)
    traveler_id: Mapped[str] = mapped_column(ForeignKey("travelers.id"), index=True)
    code: Mapped[str] = mapped_column(unique=True)  # the confirmation code travelers quote
    title: Mapped[str]
    status: Mapped[str] = mapped_column(index=True)  # active / completed / cancelled
    trip_type: Mapped[str]  # one_way / round_trip / multi_city / hotel_only
    cabin: Mapped[str | None]
    passengers: Mapped[int]
    insurance: Mapped[bool]
    fare_paid: Mapped[float]
    extras_paid: Mapped[float]
    total_paid: Mapped[float]
    created_at: Mapped[str]
    cancelled_at: Mapped[str | None]
    cancel_reason: Mapped[str | None]


class Segment(travel_booking.Table, prefix="SEG"):
    """One flight of an itinerary; ``label`` is how travelers name it ("CV212 on Jun 12 (HWY29G)")."""

    __tablename__ = "segments"
    id: Mapped[str] = mapped_column(primary_key=True)
    itinerary_id: Mapped[str] = mapped_column(ForeignKey("itineraries.id"), index=True)
    label: Mapped[str]
    flight_date_id: Mapped[str] = mapped_column(ForeignKey("flight_dates.id"), index=True)
    position: Mapped[int]
    cabin: Mapped[str]
    price: Mapped[float]  # paid for all passengers on this segment
    status: Mapped[str]  # booked / flown / cancelled


class Passenger(travel_booking.Table, prefix="PAX", noun="ticket"):
    """A passenger's ticket on an itinerary; ``code`` is the 13-digit e-ticket number."""

    __tablename__ = "passengers"
    id: Mapped[str] = mapped_column(primary_key=True)
    itinerary_id: Mapped[str] = mapped_column(ForeignKey("itineraries.id"), index=True)
    code: Mapped[str] = mapped_column(unique=True)
    first_name: Mapped[str]
    last_name: Mapped[str]
    dob: Mapped[str]


class Stay(travel_booking.Table, prefix="STY"):
    __tablename__ = "stays"
    id: Mapped[str] = mapped_column(primary_key=True)
    itinerary_id: Mapped[str] = mapped_column(ForeignKey("itineraries.id"), index=True)
    hotel_id: Mapped[str] = mapped_column(ForeignKey("hotels.id"), index=True)
    room_type_id: Mapped[str] = mapped_column(ForeignKey("room_types.id"), index=True)
    check_in: Mapped[str]
    check_out: Mapped[str]
    guests: Mapped[int]
    nightly_price: Mapped[float]
    total_paid: Mapped[float]
    refundable: Mapped[bool]
    status: Mapped[str]  # booked / cancelled / completed


class Bag(travel_booking.Table, prefix="BAG"):
    """Checked bags of an itinerary (one row per itinerary with flights)."""

    __tablename__ = "bags"
    id: Mapped[str] = mapped_column(primary_key=True)
    itinerary_id: Mapped[str] = mapped_column(ForeignKey("itineraries.id"), unique=True)
    count: Mapped[int]
    free_count: Mapped[int]
    paid_count: Mapped[int]


class Charge(travel_booking.Table, prefix="CHG", append_only=True):
    """Money moved for an itinerary: charges positive, refunds negative. Append-only."""

    __tablename__ = "charges"
    id: Mapped[str] = mapped_column(primary_key=True)
    itinerary_id: Mapped[str] = mapped_column(ForeignKey("itineraries.id"), index=True)
    payment_method_id: Mapped[str] = mapped_column(ForeignKey("payment_methods.id"), index=True)
    kind: Mapped[str]  # charge / refund
    amount: Mapped[float]
    description: Mapped[str]
    at: Mapped[str]


class SupportTicket(travel_booking.Table, prefix="SUP", noun="support ticket", append_only=True):
    """A message to the service's human agents. Append-only."""

    __tablename__ = "support_tickets"
    id: Mapped[str] = mapped_column(primary_key=True)
    traveler_id: Mapped[str] = mapped_column(ForeignKey("travelers.id"), index=True)
    itinerary_id: Mapped[str | None] = mapped_column(ForeignKey("itineraries.id"))
    subject: Mapped[str]
    message: Mapped[str]
    status: Mapped[str]  # open / closed
    created_at: Mapped[str]
