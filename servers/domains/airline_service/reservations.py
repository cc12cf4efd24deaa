"""Reservations: reading one, listing a member's, booking a new one and cancelling one."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Annotated

from pydantic import Field

from servers.domains.airline_service.flights import TravelDay
from servers.domains.airline_service.model import (
    BAG_PRICE,
    INSURANCE_PER_PASSENGER,
    MAX_BAGS_PER_PASSENGER,
    MAX_CONNECTION_MIN,
    MAX_SEATS_PER_BOOKING,
    MIN_CONNECTION_MIN,
    Cabin,
    CancelReason,
    Flight,
    FlightDate,
    Passenger,
    Payment,
    PaymentMethod,
    Reservation,
    ReservationFlight,
    ReservationStatus,
    User,
    airline_service,
)
from servers.domains.airline_service.rules import (
    ACTIVE,
    NOTHING_FLOWN,
    bookable,
    charge,
    fare,
    flown,
    legs,
    method_for,
    money,
    parse_passengers,
    take_seats,
)
from servers.kit import Db, Offset, PageSize, Ref, ToolError

PassengerList = Annotated[
    str,
    Field(
        min_length=1,
        max_length=600,
        description="Travellers as 'First Last YYYY-MM-DD', separated by semicolons; omit for the member alone.",
        examples=[
            "Ana Lopez 1990-04-12",
            "Ana Lopez 1990-04-12; Ben Lopez 2015-09-30",
            "Mia Chen 1984-02-11; Leo Chen 1983-07-19; Ivy Chen 2012-05-02",
            "Sam Reed 1979-03-03; Kim Reed 1981-08-14; Al Reed 2008-01-20; Jo Reed 2010-06-06; Bo Reed 2013-09-09",
            "Tom Hale 1975-01-05; Eva Hale 1977-02-06; Max Hale 2001-03-07; Zoe Hale 2003-04-08; "
            "Ian Hale 2005-05-09; Amy Hale 2007-06-10",
        ],
    ),
]
Bags = Annotated[int, Field(ge=0, le=45, description="Checked bags in total.")]
PaidBags = Annotated[int, Field(ge=0, le=45, description="How many of those bags are charged 50.00 each.")]
MyMethod = Ref[PaymentMethod, "user_id = :user AND status = 'active'"]


def detail(db: Db, res: dict) -> dict:
    out = dict(res)
    out["flights"] = [
        {
            k: leg[k]
            for k in (
                "id",
                "flight_number",
                "origin",
                "destination",
                "date",
                "departs_at",
                "arrives_at",
                "status",
                "delay_min",
                "cabin",
                "price",
            )
        }
        for leg in legs(db, res["id"])
    ]
    out["passengers"] = db.all(
        "SELECT id, name, first_name, last_name, dob FROM passengers WHERE reservation_id = ? ORDER BY id",
        res["id"],
    )
    out["payments"] = db.all(
        "SELECT id, payment_method_id, kind, amount, memo, created_at FROM payments "
        "WHERE reservation_id = ? ORDER BY id",
        res["id"],
    )
    out["certificates"] = db.all(
        "SELECT id, flight_date_id, amount, issued_at FROM certificates WHERE reservation_id = ? ORDER BY id",
        res["id"],
    )
    return out


@airline_service.tool(
    returns=Reservation,
    says=[
        "show me reservation {reservation}",
        "what's on my booking {reservation}?",
        "which flights and passengers are on reservation {reservation}?",
    ],
)
def get_reservation(db: Db, reservation: Ref[Reservation]) -> dict:
    """A reservation with its flights (status, cabin, fare), passengers, payments, bags,
    insurance and any compensation certificates.

    Args:
        reservation: The reservation id.
    """
    return detail(db, db.get(Reservation, reservation))


@airline_service.tool(
    returns=Reservation,
    says=[
        "list the reservations of {user}",
        "which {status} bookings does {user} have?",
    ],
)
def list_user_reservations(
    db: Db, user: Ref[User], status: ReservationStatus | None = None, limit: PageSize = 20, offset: Offset = 0
) -> dict:
    """A member's reservations, newest booking first, with route, cabin, status and first departure.

    Args:
        user: The member id.
        status: Only active or only cancelled reservations.
        limit: Page size.
        offset: Rows to skip.
    """
    db.get(User, user)
    sql = (
        "SELECT r.id, r.origin, r.destination, r.trip_type, r.cabin, r.passenger_count, r.status, r.created_at, "
        "(SELECT min(fd.departs_at) FROM reservation_flights rf JOIN flight_dates fd ON fd.id = rf.flight_date_id "
        "WHERE rf.reservation_id = r.id) AS first_departure FROM reservations r WHERE r.user_id = ?"
    )
    params: list = [user]
    if status is not None:
        sql += " AND r.status = ?"
        params.append(status)
    return db.page(
        sql + " ORDER BY r.created_at DESC, r.id", *params, limit=limit, offset=offset, key="reservations"
    )


def _on(db: Db, number: str, day: str) -> dict:
    db.get(Flight, number)
    fd = db.one("SELECT * FROM flight_dates WHERE flight_number = ? AND date = ?", number, day)
    if fd is None:
        raise ToolError(f"flight {number} does not fly on {day}")
    bookable(db, fd)
    return fd


def _connection(db: Db, first: dict, number: str) -> dict:
    """Flight ``number`` leaving where ``first`` lands, 45 minutes to 6 hours after it lands."""
    land = datetime.fromisoformat(first["arrives_at"])
    fd = db.one(
        "SELECT * FROM flight_dates WHERE flight_number = ? AND origin = ? AND departs_at BETWEEN ? AND ? "
        "ORDER BY departs_at LIMIT 1",
        number,
        first["destination"],
        (land + timedelta(minutes=MIN_CONNECTION_MIN)).isoformat(timespec="seconds"),
        (land + timedelta(minutes=MAX_CONNECTION_MIN)).isoformat(timespec="seconds"),
    )
    if fd is None:
        route = db.get(Flight, number)
        raise ToolError(
            f"flight {number} ({route['origin']}-{route['destination']} at {route['departs']}) does not connect "
            f"with {first['flight_number']}, which lands at {first['destination']} at {first['arrives_at']}: "
            f"it must leave {first['destination']} {MIN_CONNECTION_MIN} minutes to {MAX_CONNECTION_MIN // 60} hours later"
        )
    bookable(db, fd)
    return fd


def itinerary(
    db: Db, number: str, day: str, connecting: str | None, back: str | None, back_day: str | None
) -> list[dict]:
    """The flights of a new booking in travel order: outbound (with its connection), then the return."""
    out = [_on(db, number, day)]
    if connecting is not None:
        out.append(_connection(db, out[0], connecting))
    if (back is None) != (back_day is None):
        raise ToolError("a return needs both return_flight_number and return_date")
    if back is not None:
        ret = _on(db, back, back_day)
        if (ret["origin"], ret["destination"]) != (out[-1]["destination"], out[0]["origin"]):
            raise ToolError(
                f"return flight {back} flies {ret['origin']}-{ret['destination']}; a return from this trip flies "
                f"{out[-1]['destination']}-{out[0]['origin']}"
            )
        ready = datetime.fromisoformat(out[-1]["arrives_at"]) + timedelta(minutes=MIN_CONNECTION_MIN)
        if datetime.fromisoformat(ret["departs_at"]) < ready:
            raise ToolError(
                f"return flight {back} departs {ret['departs_at']}, before the outbound lands at "
                f"{out[-1]['arrives_at']} plus {MIN_CONNECTION_MIN} minutes"
            )
        out.append(ret)
    return out


def _store(db: Db, user: str, rows: list[dict], cabin: str, people: list, kept: dict) -> dict:
    """The new reservation's rows: itself, its flights (holding the seats) and its passengers."""
    n = len(people)
    bags, paid_bags, insurance = kept["bags"], kept["paid_bags"], kept["insurance"]
    round_trip = len(rows) > 1 and rows[-1]["destination"] == rows[0]["origin"]
    turn = rows[len(rows) // 2 - 1] if round_trip else rows[-1]
    res = db.insert(
        Reservation,
        user_id=user,
        origin=rows[0]["origin"],
        destination=turn["destination"],
        trip_type="round_trip" if round_trip else "one_way",
        cabin=cabin,
        passenger_count=n,
        total_bags=bags,
        paid_bags=paid_bags,
        insurance=insurance,
        status="active",
        created_at=db.stamp(),
        cancelled_at=None,
        cancel_reason=None,
    )
    for pos, fd in enumerate(rows, 1):
        take_seats(db, fd, cabin, n)
        db.add(
            ReservationFlight,
            reservation_id=res["id"],
            flight_date_id=fd["id"],
            position=pos,
            cabin=cabin,
            price=fare(fd, cabin),
        )
    for first, last, born in people:
        db.add(
            Passenger,
            reservation_id=res["id"],
            name=f"{first} {last}",
            first_name=first,
            last_name=last,
            dob=born,
        )
    return res


@airline_service.tool(
    writes=[Reservation, ReservationFlight, Passenger, FlightDate, PaymentMethod, Payment],
    returns=Reservation,
    says=[
        "book flight {flight_number} on {date} in {cabin} for {user}, paying with {payment_method}",
        "reserve {flight_number} on {date} in {cabin} for {user}; the travellers are {passengers}; "
        "charge {payment_method}",
        "book {flight_number} on {date} connecting to {connecting_flight_number}, {cabin}, for {user}, "
        "on {payment_method}",
        "book {flight_number} on {date}, returning on {return_flight_number} on {return_date}, in {cabin} "
        "for {user}; pay with {payment_method}",
        "book {flight_number} on {date} in {cabin} for {user} with {bags} checked bags, {paid_bags} of them "
        "paid, on {payment_method}",
        "book {flight_number} on {date} in {cabin} for {user} with travel insurance set to {insurance}; "
        "pay with {payment_method}",
    ],
)
def book_reservation(
    db: Db,
    user: Ref[User],
    flight_number: Ref[Flight],
    date: TravelDay,
    cabin: Cabin,
    payment_method: MyMethod,
    passengers: PassengerList | None = None,
    connecting_flight_number: Ref[
        Flight, "origin = (SELECT destination FROM flights WHERE id = :flight_number)"
    ]
    | None = None,
    return_flight_number: Ref[
        Flight,
        "origin = (SELECT destination FROM flights WHERE id = :flight_number) "
        "AND destination = (SELECT origin FROM flights WHERE id = :flight_number)",
    ]
    | None = None,
    return_date: TravelDay | None = None,
    insurance: bool = False,
    bags: Bags = 0,
    paid_bags: PaidBags = 0,
) -> dict:
    """Book a trip. One cabin for the member and their travellers, paid in one charge: a flight
    on a date, optionally a connecting flight (leaving where it lands, 45 minutes to 6 hours
    later) and a return flight on a later date. The fare per passenger per flight, 30.00 per
    passenger for insurance and 50.00 per paid bag make the total.

    Args:
        user: The member booking.
        flight_number: The (first) outbound flight.
        date: Its departure date.
        cabin: basic_economy, economy or business, the same on every flight.
        payment_method: A saved payment method of the member (credit card, gift card or certificate).
        passengers: The travellers; omit for the member alone.
        connecting_flight_number: A connecting flight after the first one.
        return_flight_number: The flight home (back to the first airport).
        return_date: The return flight's date.
        insurance: Add travel insurance.
        bags: Checked bags in total.
        paid_bags: How many of the bags are charged 50.00 (those beyond the free allowance).
    """
    member = db.get(User, user)
    people = parse_passengers(passengers, member)
    n = len(people)
    if n > MAX_SEATS_PER_BOOKING:
        raise ToolError(f"{n} passengers: the reservation system takes at most {MAX_SEATS_PER_BOOKING}")
    if bags > MAX_BAGS_PER_PASSENGER * n:
        raise ToolError(f"{bags} bags for {n} passengers: at most {MAX_BAGS_PER_PASSENGER} per passenger")
    if paid_bags > bags:
        raise ToolError(f"paid_bags {paid_bags} is more than the {bags} bags")
    rows = itinerary(db, flight_number, date, connecting_flight_number, return_flight_number, return_date)
    total = money(sum(fare(fd, cabin) for fd in rows) * n + INSURANCE_PER_PASSENGER * n * insurance)
    total = money(total + BAG_PRICE * paid_bags)
    pm = method_for(db, payment_method, user, total, booking=True)
    kept = {"bags": bags, "paid_bags": paid_bags, "insurance": insurance}
    res = _store(db, user, rows, cabin, people, kept)
    charge(db, res["id"], pm, total, "booking")
    return detail(db, res)


@airline_service.tool(
    writes=[Reservation, FlightDate, PaymentMethod, Payment],
    returns=Reservation,
    says=[
        "cancel my reservation {reservation}, the reason is {reason}",
        "please cancel booking {reservation} ({reason})",
    ],
    destructive=True,
)
def cancel_reservation(
    db: Db, reservation: Ref[Reservation, f"{ACTIVE} AND {NOTHING_FLOWN}"], reason: CancelReason
) -> dict:
    """Cancel a reservation. None of its flights may have flown; its seats are released and every
    payment is refunded to the method it came from.

    Args:
        reservation: The reservation id.
        reason: change_of_plans, airline_cancelled, health, weather or other.
    """
    res = db.get(Reservation, reservation)
    if res["status"] != "active":
        raise ToolError(f"reservation {reservation} is already {res['status']}")
    trip = legs(db, reservation)
    gone = [leg for leg in trip if flown(leg)]
    if gone:
        leg = gone[0]
        raise ToolError(
            f"reservation {reservation} cannot be cancelled: flight {leg['flight_number']} on {leg['date']} "
            f"has {leg['status']}"
        )
    for leg in trip:
        if leg["status"] != "cancelled":
            take_seats(db, db.get(FlightDate, leg["id"]), leg["cabin"], -res["passenger_count"])
    paid = db.all(
        "SELECT payment_method_id AS pm, sum(CASE kind WHEN 'charge' THEN amount ELSE -amount END) AS net "
        "FROM payments WHERE reservation_id = ? GROUP BY payment_method_id ORDER BY payment_method_id",
        reservation,
    )
    for p in paid:
        if p["net"] > 0:
            charge(db, reservation, db.get(PaymentMethod, p["pm"]), p["net"], "cancellation", kind="refund")
    db.update(Reservation, reservation, status="cancelled", cancelled_at=db.stamp(), cancel_reason=reason)
    return detail(db, db.get(Reservation, reservation))
