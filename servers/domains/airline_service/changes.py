"""Changing a reservation: moving one flight, changing the cabin, correcting a passenger, adding
bags or insurance, and issuing a compensation certificate for a disrupted flight."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Annotated

from pydantic import Field

from servers.domains.airline_service.flights import TravelDay
from servers.domains.airline_service.model import (
    BAG_PRICE,
    INSURANCE_PER_PASSENGER,
    MAX_BAGS_PER_PASSENGER,
    MIN_CONNECTION_MIN,
    Cabin,
    Flight,
    FlightDate,
    Passenger,
    Payment,
    PaymentMethod,
    Reservation,
    ReservationFlight,
    airline_service,
)
from servers.domains.airline_service.reservations import detail
from servers.domains.airline_service.rules import (
    ACTIVE,
    CHANGEABLE,
    NOW_SQL,
    bookable,
    charge,
    fare,
    flown,
    legs,
    method_for,
    money,
    take_seats,
)
from servers.kit import Day, Db, Ref, ToolError

_LEGS = (
    "SELECT fd.flight_number FROM reservation_flights rf JOIN flight_dates fd ON fd.id = rf.flight_date_id "
    "WHERE rf.reservation_id = :reservation"
)
ON_RESERVATION = f"id IN ({_LEGS})"
UNFLOWN_LEG = f"id IN ({_LEGS} AND fd.departs_at > {NOW_SQL} AND fd.status NOT IN ('departed', 'landed'))"
SAME_ROUTE = (
    "origin = (SELECT origin FROM flights WHERE id = :flight_number) "
    "AND destination = (SELECT destination FROM flights WHERE id = :flight_number)"
)
PAYS_CHANGES = (
    "user_id = (SELECT user_id FROM reservations WHERE id = :reservation) AND status = 'active' "
    "AND kind != 'certificate'"
)
Changeable = Ref[Reservation, CHANGEABLE]
ChangeMethod = Ref[PaymentMethod, PAYS_CHANGES]
Name = Annotated[str, Field(min_length=1, max_length=60, pattern=r"^[A-Za-z][A-Za-z' .-]*$")]
AddBags = Annotated[int, Field(ge=1, le=10, description="Checked bags to add.")]
PaidBags = Annotated[
    int, Field(ge=0, le=10, description="How many of the added bags are charged 50.00 each.")
]


def _active(db: Db, rid: str) -> dict:
    res = db.get(Reservation, rid)
    if res["status"] != "active":
        raise ToolError(f"reservation {rid} is {res['status']}; only active reservations can be changed")
    return res


def _leg(db: Db, rid: str, number: str) -> tuple[list[dict], int]:
    """The reservation's flights and the index of the one with this flight number (not flown)."""
    trip = legs(db, rid)
    for i, leg in enumerate(trip):
        if leg["flight_number"] == number:
            if flown(leg) or leg["departs_at"] <= db.stamp():
                raise ToolError(
                    f"flight {leg['flight_number']} on {leg['date']} has {leg['status']}; flown flights cannot change"
                )
            return trip, i
    held = ", ".join(f"{leg['flight_number']} on {leg['date']}" for leg in trip)
    raise ToolError(f"flight {number} is not on reservation {rid}; its flights: {held}")


def _settle(db: Db, res: dict, pmid: str, diff: float, memo: str) -> None:
    """Charge a positive difference to the payment method, refund a negative one to it."""
    diff = money(diff)
    if diff > 0:
        charge(db, res["id"], method_for(db, pmid, res["user_id"], diff, booking=False), diff, memo)
    elif diff < 0:
        charge(
            db, res["id"], method_for(db, pmid, res["user_id"], 0, booking=False), -diff, memo, kind="refund"
        )


def _fits(trip: list[dict], i: int, new: dict) -> None:
    """The new flight keeps the trip in order: after the flight before, before the one after."""
    gap = timedelta(minutes=MIN_CONNECTION_MIN)
    if (
        i > 0
        and datetime.fromisoformat(new["departs_at"])
        < datetime.fromisoformat(trip[i - 1]["arrives_at"]) + gap
    ):
        raise ToolError(
            f"flight {new['flight_number']} departs {new['departs_at']}, before the previous flight "
            f"{trip[i - 1]['flight_number']} lands at {trip[i - 1]['arrives_at']} plus {MIN_CONNECTION_MIN} minutes"
        )
    if i + 1 < len(trip) and datetime.fromisoformat(new["arrives_at"]) + gap > datetime.fromisoformat(
        trip[i + 1]["departs_at"]
    ):
        raise ToolError(
            f"flight {new['flight_number']} lands {new['arrives_at']}, too late for the next flight "
            f"{trip[i + 1]['flight_number']} departing {trip[i + 1]['departs_at']}"
        )


@airline_service.tool(
    writes=[ReservationFlight, FlightDate, PaymentMethod, Payment],
    returns=Reservation,
    says=[
        "move flight {flight_number} on reservation {reservation} to {new_date}; settle the fare difference on {payment_method}",
        "on booking {reservation}, switch {flight_number} to flight {new_flight_number} on {new_date}; "
        "use {payment_method} for the difference",
    ],
)
def change_reservation_flights(
    db: Db,
    reservation: Changeable,
    flight_number: Ref[Flight, UNFLOWN_LEG],
    new_date: TravelDay,
    payment_method: ChangeMethod,
    new_flight_number: Ref[Flight, SAME_ROUTE] | None = None,
) -> dict:
    """Move a flight. One not-yet-flown flight of the reservation moves to another date (the same
    flight number, or another flight on the same route), in the same cabin. The fare difference for all passengers
    is charged to, or refunded to, the payment method given (a credit card or gift card).

    Args:
        reservation: The reservation id.
        flight_number: The reservation's flight to move.
        new_date: The date to fly instead.
        payment_method: Pays or receives the fare difference.
        new_flight_number: Another flight on the same route, if not the same flight number.
    """
    res = _active(db, reservation)
    trip, i = _leg(db, reservation, flight_number)
    old = trip[i]
    number = new_flight_number or flight_number
    route = db.get(Flight, number)
    if (route["origin"], route["destination"]) != (old["origin"], old["destination"]):
        raise ToolError(
            f"flight {number} flies {route['origin']}-{route['destination']}; the flight it replaces flies "
            f"{old['origin']}-{old['destination']}"
        )
    new = db.one("SELECT * FROM flight_dates WHERE flight_number = ? AND date = ?", number, new_date)
    if new is None:
        raise ToolError(f"flight {number} does not fly on {new_date}")
    if any(leg["id"] == new["id"] for leg in trip):
        raise ToolError(f"flight {number} on {new_date} is already on reservation {reservation}")
    bookable(db, new)
    _fits(trip, i, new)
    n, cabin = res["passenger_count"], old["cabin"]
    take_seats(db, new, cabin, n)
    if old["status"] != "cancelled":
        take_seats(db, db.get(FlightDate, old["id"]), cabin, -n)
    _settle(
        db,
        res,
        payment_method,
        (fare(new, cabin) - old["price"]) * n,
        f"flight change {old['flight_number']}",
    )
    db.update(ReservationFlight, old["segment_id"], flight_date_id=new["id"], price=fare(new, cabin))
    return detail(db, db.get(Reservation, reservation))


@airline_service.tool(
    writes=[Reservation, ReservationFlight, FlightDate, PaymentMethod, Payment],
    returns=Reservation,
    says=[
        "change reservation {reservation} to {cabin} and use {payment_method} for the difference",
        "switch my booking {reservation} to {cabin}, paying with {payment_method}",
        "put flight {flight_number} of reservation {reservation} in {cabin}; use {payment_method}",
    ],
)
def change_reservation_cabin(
    db: Db,
    reservation: Changeable,
    cabin: Cabin,
    payment_method: ChangeMethod,
    flight_number: Ref[Flight, UNFLOWN_LEG] | None = None,
) -> dict:
    """Change the cabin. The reservation's flights that have not flown (or one of them) move to
    the cabin, each repriced at today's fare; the difference for all passengers is charged to, or refunded
    to, the payment method given.

    Args:
        reservation: The reservation id.
        cabin: The new cabin.
        payment_method: Pays or receives the difference (credit card or gift card).
        flight_number: Change only this flight of the reservation.
    """
    res = _active(db, reservation)
    if flight_number is not None:
        trip, i = _leg(db, reservation, flight_number)
        targets = [trip[i]]
    else:
        trip = legs(db, reservation)
        targets = [leg for leg in trip if not flown(leg) and leg["departs_at"] > db.stamp()]
        if not targets:
            raise ToolError(f"every flight of reservation {reservation} has flown; nothing left to change")
    targets = [leg for leg in targets if leg["cabin"] != cabin]
    if not targets:
        raise ToolError(f"reservation {reservation} is already in {cabin} on those flights")
    n, diff = res["passenger_count"], 0.0
    for leg in targets:
        fd = db.get(FlightDate, leg["id"])
        take_seats(db, fd, cabin, n)
        if leg["status"] != "cancelled":
            take_seats(db, db.get(FlightDate, leg["id"]), leg["cabin"], -n)
        diff += (fare(fd, cabin) - leg["price"]) * n
        db.update(ReservationFlight, leg["segment_id"], cabin=cabin, price=fare(fd, cabin))
    _settle(db, res, payment_method, diff, f"cabin change to {cabin}")
    cabins = {
        r["cabin"]
        for r in db.all("SELECT cabin FROM reservation_flights WHERE reservation_id = ?", reservation)
    }
    db.update(Reservation, reservation, cabin=cabins.pop() if len(cabins) == 1 else "mixed")
    return detail(db, db.get(Reservation, reservation))


@airline_service.tool(
    writes=[Passenger],
    returns=Passenger,
    says=[
        "on reservation {reservation}, correct {passenger} to {first_name} {last_name}",
        "the name of {passenger} on booking {reservation} should be {first_name} {last_name}",
    ],
)
def update_reservation_passengers(
    db: Db,
    reservation: Ref[Reservation, ACTIVE],
    passenger: Ref[Passenger, "reservation_id = :reservation"],
    first_name: Name,
    last_name: Name,
    dob: Day | None = None,
) -> dict:
    """Correct a passenger. One passenger's name (and date of birth) on an active reservation. The number of
    passengers never changes.

    Args:
        reservation: The reservation id.
        passenger: The passenger id (from get_reservation).
        first_name: The corrected first name.
        last_name: The corrected last name.
        dob: The corrected date of birth.
    """
    _active(db, reservation)
    pax = db.get(Passenger, passenger)
    if pax["reservation_id"] != reservation:
        raise ToolError(f"passenger {passenger} is on reservation {pax['reservation_id']}, not {reservation}")
    if dob is not None and dob > db.today.isoformat():
        raise ToolError(f"date of birth {dob} is after today ({db.today.isoformat()})")
    new = {"first_name": first_name, "last_name": last_name, "dob": dob or pax["dob"]}
    if all(pax[k] == v for k, v in new.items()):
        raise ToolError(f"passenger {passenger} already reads {first_name} {last_name}, born {pax['dob']}")
    return db.update(Passenger, passenger, name=f"{first_name} {last_name}", **new)


@airline_service.tool(
    writes=[Reservation, PaymentMethod, Payment],
    returns=Reservation,
    says=[
        "add {bags} checked bags to reservation {reservation}, {paid_bags} of them paid with {payment_method}",
        "I need {bags} more bags on booking {reservation}",
    ],
)
def add_reservation_bags(
    db: Db,
    reservation: Changeable,
    bags: AddBags,
    paid_bags: PaidBags = 0,
    payment_method: ChangeMethod | None = None,
) -> dict:
    """Add checked bags. The reservation must have a flight still to fly; ``paid_bags`` of the
    added bags are charged 50.00 each to the payment method. At most 5 bags per passenger; bags cannot be removed.

    Args:
        reservation: The reservation id.
        bags: Bags to add.
        paid_bags: How many of the added bags are charged (those beyond the free allowance).
        payment_method: Pays for the charged bags (credit card or gift card).
    """
    res = _active(db, reservation)
    total, cap = res["total_bags"] + bags, MAX_BAGS_PER_PASSENGER * res["passenger_count"]
    if total > cap:
        raise ToolError(
            f"reservation {reservation} has {res['total_bags']} bags; {bags} more would make {total}, "
            f"over {cap} ({MAX_BAGS_PER_PASSENGER} per passenger)"
        )
    if paid_bags > bags:
        raise ToolError(f"paid_bags {paid_bags} is more than the {bags} bags being added")
    if paid_bags and payment_method is None:
        raise ToolError(f"{paid_bags} paid bags cost {paid_bags * BAG_PRICE:.2f}: name a payment method")
    if paid_bags:
        cost = paid_bags * BAG_PRICE
        charge(
            db, reservation, method_for(db, payment_method, res["user_id"], cost, booking=False), cost, "bags"
        )
    elif payment_method is not None:
        method_for(db, payment_method, res["user_id"], 0, booking=False)
    return detail(
        db, db.update(Reservation, reservation, total_bags=total, paid_bags=res["paid_bags"] + paid_bags)
    )


@airline_service.tool(
    writes=[Reservation, PaymentMethod, Payment],
    returns=Reservation,
    says=[
        "add travel insurance to reservation {reservation} and charge {payment_method}",
        "I'd like to insure my booking {reservation}, pay with {payment_method}",
    ],
)
def add_reservation_insurance(
    db: Db, reservation: Ref[Reservation, f"{CHANGEABLE} AND insurance = 0"], payment_method: ChangeMethod
) -> dict:
    """Add travel insurance. It costs 30.00 per passenger; the reservation must have a flight still
    to fly.
    Insurance makes a cancellation for health or weather reasons refundable.

    Args:
        reservation: The reservation id.
        payment_method: Pays for the insurance (credit card or gift card).
    """
    res = _active(db, reservation)
    if res["insurance"]:
        raise ToolError(f"reservation {reservation} is already insured")
    if not any(not flown(leg) and leg["departs_at"] > db.stamp() for leg in legs(db, reservation)):
        raise ToolError(f"every flight of reservation {reservation} has flown; it cannot be insured now")
    cost = INSURANCE_PER_PASSENGER * res["passenger_count"]
    charge(
        db,
        reservation,
        method_for(db, payment_method, res["user_id"], cost, booking=False),
        cost,
        "insurance",
    )
    return detail(db, db.update(Reservation, reservation, insurance=True))
