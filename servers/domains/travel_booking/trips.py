"""Itineraries after booking: viewing, invoices, changes, passenger corrections, cancellations."""

from __future__ import annotations

from datetime import date
from typing import Annotated

from pydantic import Field

from servers.domains.travel_booking.catalog import TravelDay
from servers.domains.travel_booking.model import (
    Cabin,
    Charge,
    Flight,
    FlightDate,
    Itinerary,
    Passenger,
    PaymentMethod,
    Segment,
    travel_booking,
)
from servers.domains.travel_booking.rules import (
    CHANGEABLE_SEGMENT,
    FLIGHT_TRIP,
    MY_PASSENGER,
    AnyTrip,
    MyCard,
    Token,
    WriteToken,
    _auth,
    _bookable,
    _card,
    _change_fee,
    _flown,
    _m,
    _mine,
    _pay,
    _price_col,
    _seats_col,
    _totals,
    _trip,
    _within_budget,
    segment_label,
)
from servers.kit import Db, Offset, PageSize, Ref, ToolError

Status = Annotated[str, Field(pattern=r"^(active|completed|cancelled)$", max_length=9)]
NameText = Annotated[str, Field(min_length=1, max_length=40, pattern=r"^[A-Za-z][A-Za-z' -]{0,39}$")]
Dob = Annotated[
    str,
    Field(
        pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$",
        max_length=10,
        examples=["1984-03-09", "1991-12-24", "1976-07-02", "2012-05-17"],
    ),
]


def _segments(db: Db, itinerary: str) -> list[dict]:
    return db.all(
        "SELECT s.id, s.label, s.position, s.cabin, s.price, s.status, s.flight_date_id, d.flight_id AS flight, d.day, "
        "f.origin, f.destination, d.departs_at, d.arrives_at, d.departs_utc, d.status AS flight_status "
        "FROM segments s JOIN flight_dates d ON d.id = s.flight_date_id JOIN flights f ON f.id = d.flight_id "
        "WHERE s.itinerary_id = ? ORDER BY s.position",
        itinerary,
    )


@travel_booking.tool(
    returns=Itinerary,
    says=[
        "show me itinerary {itinerary}, using my access token {access_token}",
        "what's booked on itinerary {itinerary}? Use my access token {access_token}",
    ],
)
def get_itinerary(db: Db, access_token: Token, itinerary: AnyTrip) -> dict:
    """One itinerary in full: flights with their current status, passengers, bags, hotel stays,
    insurance and what was paid.

    Args:
        access_token: The token authenticate returned.
        itinerary: The itinerary.
    """
    me = _auth(db, access_token)
    trip = _mine(db, Itinerary, itinerary, me)
    bag = db.one("SELECT count, free_count, paid_count FROM bags WHERE itinerary_id = ?", itinerary)
    stays = db.all(
        "SELECT s.id, h.name AS hotel, r.name AS room, s.check_in, s.check_out, s.guests, s.total_paid, s.refundable, "
        "s.status FROM stays s JOIN hotels h ON h.id = s.hotel_id JOIN room_types r ON r.id = s.room_type_id "
        "WHERE s.itinerary_id = ? ORDER BY s.id",
        itinerary,
    )
    for st in stays:
        st["refundable"] = bool(st["refundable"])
    return {
        **{k: v for k, v in trip.items() if k != "traveler_id"},
        "insurance": bool(trip["insurance"]),
        "segments": [{k: v for k, v in s.items() if k != "departs_utc"} for s in _segments(db, itinerary)],
        "passengers": db.all(
            "SELECT id, code AS ticket, first_name, last_name, dob FROM passengers WHERE itinerary_id = ? ORDER BY id",
            itinerary,
        ),
        "bags": bag,
        "stays": stays,
    }


@travel_booking.tool(
    returns=Itinerary,
    says=[
        "list my trips with my access token {access_token}",
        "show my {status} itineraries, using my access token {access_token}",
    ],
)
def list_itineraries(
    db: Db, access_token: Token, status: Status | None = None, limit: PageSize = 20, offset: Offset = 0
) -> dict:
    """The signed-in traveler's bookings, newest first, optionally only active, completed or cancelled ones.

    Args:
        access_token: The token authenticate returned.
        status: active, completed or cancelled.
        limit: Maximum number of itineraries.
        offset: Itineraries to skip, for paging.
    """
    me = _auth(db, access_token)
    where, params = "traveler_id = ?", [me["id"]]
    if status:
        where += " AND status = ?"
        params.append(status)
    return db.page(
        f"SELECT id, code, title, status, trip_type, cabin, passengers, insurance, total_paid, created_at "
        f"FROM itineraries WHERE {where} ORDER BY created_at DESC, id DESC",
        *params,
        limit=limit,
        offset=offset,
        key="itineraries",
    )


@travel_booking.tool(
    returns=Charge,
    says=[
        "send me the invoice for itinerary {itinerary}, using my access token {access_token}",
        "what did I pay for itinerary {itinerary}? Use my access token {access_token}",
    ],
)
def get_invoice(db: Db, access_token: Token, itinerary: AnyTrip) -> dict:
    """The invoice of an itinerary: every charge and refund with the card it went to, and totals.

    Args:
        access_token: The token authenticate returned.
        itinerary: The itinerary.
    """
    me = _auth(db, access_token)
    trip = _mine(db, Itinerary, itinerary, me)
    lines = db.all(
        "SELECT c.id, c.kind, c.amount, c.description, c.at, c.payment_method_id, p.nickname AS card "
        "FROM charges c JOIN payment_methods p ON p.id = c.payment_method_id WHERE c.itinerary_id = ? ORDER BY c.id",
        itinerary,
    )
    charged = round(sum(x["amount"] for x in lines if x["amount"] > 0), 2)
    refunded = round(-sum(x["amount"] for x in lines if x["amount"] < 0), 2)
    return {
        "itinerary": itinerary,
        "code": trip["code"],
        "billed_to": me["name"],
        "lines": lines,
        "charged": charged,
        "refunded": refunded,
        "net": round(charged - refunded, 2),
    }


# -- changes -----------------------------------------------------------------------------------


def _changed_flight_date(db: Db, segment: str, old: dict, route: dict, number: str, day: str) -> dict:
    """The flight date a segment changes to: same route, flying that day, and not the one it is on."""
    new_flight = db.get(Flight, number)
    if (new_flight["origin"], new_flight["destination"]) != (route["origin"], route["destination"]):
        raise ToolError(
            f"flight {number} flies {new_flight['origin']}-{new_flight['destination']}; a change keeps the route "
            f"{route['origin']}-{route['destination']}"
        )
    new = db.one("SELECT * FROM flight_dates WHERE flight_id = ? AND day = ?", number, day)
    if new is None:
        raise ToolError(f"flight {number} does not fly on {day}")
    if new["id"] == old["id"]:
        raise ToolError(f"segment {segment} is already on {number} on {day}")
    return new


@travel_booking.tool(
    writes=[Segment, FlightDate, Itinerary, Charge, PaymentMethod],
    returns=Segment,
    says=[
        "move segment {segment} to {day} and settle the difference on card {payment_method}, using my access token {access_token}",
        "change segment {segment} to flight {flight_number} on {day} and pay with card {payment_method} with my access token {access_token}",
    ],
)
def change_flight(
    db: Db,
    access_token: WriteToken,
    segment: Ref[Segment, CHANGEABLE_SEGMENT],
    day: TravelDay,
    payment_method: MyCard,
    flight_number: Ref[Flight] | None = None,
) -> dict:
    """Move one booked segment to another day (same flight number, or another flight on the same
    route). Basic economy cannot be changed; economy pays 75.00 per passenger (150.00 within 7 days
    of departure), business nothing; the fare difference is charged or refunded to the card.

    Args:
        access_token: The token authenticate returned (scope read_write).
        segment: The segment to move.
        day: The new departure day.
        payment_method: The saved card for the fee and difference (not a travel certificate).
        flight_number: Another flight on the same route (default: the same flight).
    """
    me = _auth(db, access_token, write="change flights")
    seg = _mine(db, Segment, segment, me)
    trip = _trip(db, seg["itinerary_id"], me)
    card = _card(db, payment_method, me, change=True)
    if seg["status"] != "booked":
        raise ToolError(f"segment {segment} is {seg['status']}; only booked segments can be changed")
    old = db.get(FlightDate, seg["flight_date_id"])
    route = db.get(Flight, old["flight_id"])
    number = flight_number or old["flight_id"]
    new = _changed_flight_date(db, segment, old, route, number, day)
    fee = _change_fee(db, seg["cabin"], old["departs_utc"], trip["passengers"])
    _bookable(db, new, seg["cabin"], trip["passengers"])
    price = round(new[_price_col(seg["cabin"])] * trip["passengers"], 2)
    amount = round(fee + price - seg["price"], 2)
    _within_budget(db, me, trip["total_paid"] + amount, "this change")
    col = _seats_col(seg["cabin"])
    db.update(FlightDate, old["id"], **{col: old[col] + trip["passengers"]})
    db.update(FlightDate, new["id"], **{col: new[col] - trip["passengers"]})
    db.update(
        Segment,
        segment,
        flight_date_id=new["id"],
        price=price,
        label=segment_label(number, day, trip["code"]),
    )
    _pay(db, card, trip["id"], amount, f"Change of {segment} to {number} on {day} (fee {_m(fee)})")
    trip = _totals(db, trip["id"], fare=round(price - seg["price"], 2), extras=fee)
    return {
        "segment": segment,
        "itinerary": trip["id"],
        "flight": number,
        "flight_date": new["id"],
        "departs_at": new["departs_at"],
        "change_fee": fee,
        "fare_difference": round(price - seg["price"], 2),
        "charged": max(amount, 0.0),
        "refunded": max(-amount, 0.0),
        "total_paid": trip["total_paid"],
    }


@travel_booking.tool(
    writes=[Segment, FlightDate, Itinerary, Charge, PaymentMethod],
    returns=Itinerary,
    says=[
        "move itinerary {itinerary} to {cabin} and charge card {payment_method}, using my access token {access_token}",
        "switch every flight on itinerary {itinerary} to {cabin}, settling on card {payment_method} with my access token {access_token}",
    ],
)
def change_cabin(
    db: Db,
    access_token: WriteToken,
    itinerary: Ref[Itinerary, FLIGHT_TRIP],
    cabin: Cabin,
    payment_method: MyCard,
) -> dict:
    """Move every booked segment of an itinerary to another cabin (basic economy may upgrade too),
    charging or refunding today's fare difference; nothing may have flown yet.

    Args:
        access_token: The token authenticate returned (scope read_write).
        itinerary: The itinerary.
        cabin: The new cabin.
        payment_method: The saved card for the difference (not a travel certificate).
    """
    me = _auth(db, access_token, write="change cabins")
    trip = _trip(db, itinerary, me)
    card = _card(db, payment_method, me, change=True)
    if trip["trip_type"] == "hotel_only":
        raise ToolError(f"itinerary {itinerary} has no flights")
    if _flown(db, itinerary):
        raise ToolError(f"itinerary {itinerary} has a flown segment; the cabin can no longer change")
    if trip["cabin"] == cabin:
        raise ToolError(f"itinerary {itinerary} is already in {cabin}")
    segs = db.all(
        "SELECT * FROM segments WHERE itinerary_id = ? AND status = 'booked' ORDER BY position", itinerary
    )
    n, diff = trip["passengers"], 0.0
    for s in segs:
        fd = db.get(FlightDate, s["flight_date_id"])
        _bookable(db, fd, cabin, n)
        price = round(fd[_price_col(cabin)] * n, 2)
        diff += price - s["price"]
        db.update(
            FlightDate,
            fd["id"],
            **{
                _seats_col(cabin): fd[_seats_col(cabin)] - n,
                _seats_col(s["cabin"]): fd[_seats_col(s["cabin"])] + n,
            },
        )
        db.update(Segment, s["id"], cabin=cabin, price=price)
    diff = round(diff, 2)
    _within_budget(db, me, trip["total_paid"] + diff, "this cabin change")
    db.update(Itinerary, itinerary, cabin=cabin)
    _pay(db, card, itinerary, diff, f"Cabin change to {cabin}")
    trip = _totals(db, itinerary, fare=diff)
    return {
        "itinerary": itinerary,
        "cabin": cabin,
        "segments": len(segs),
        "fare_difference": diff,
        "total_paid": trip["total_paid"],
    }


@travel_booking.tool(
    writes=[Passenger],
    returns=Passenger,
    idempotent=True,
    says=[
        "fix the last name on ticket {passenger} to {last_name}, using my access token {access_token}",
        "correct the first name on ticket {passenger} to {first_name} with my access token {access_token}",
        "the date of birth on ticket {passenger} should be {dob}, please fix it with my access token {access_token}",
    ],
)
def update_passenger(
    db: Db,
    access_token: WriteToken,
    passenger: Ref[Passenger, MY_PASSENGER],
    first_name: NameText | None = None,
    last_name: NameText | None = None,
    dob: Dob | None = None,
) -> dict:
    """Correct a passenger's name or date of birth before the trip flies. A ticket is not
    transferable: first and last name may not both change.

    Args:
        access_token: The token authenticate returned (scope read_write).
        passenger: The passenger.
        first_name: The corrected given name.
        last_name: The corrected family name.
        dob: The corrected date of birth.
    """
    me = _auth(db, access_token, write="edit passengers")
    pax = _mine(db, Passenger, passenger, me)
    trip = _trip(db, pax["itinerary_id"], me)
    if first_name is None and last_name is None and dob is None:
        raise ToolError("nothing to change: give first_name, last_name or dob")
    if _flown(db, trip["id"]):
        raise ToolError(f"itinerary {trip['id']} has a flown segment; passenger details are final")
    changes = {k: v.strip() for k, v in (("first_name", first_name), ("last_name", last_name)) if v}
    changes = {k: v for k, v in changes.items() if v != pax[k]}
    if len(changes) == 2:
        raise ToolError(
            f"changing both names ({pax['first_name']} {pax['last_name']} to {changes['first_name']} "
            f"{changes['last_name']}) would give the ticket to someone else; tickets are not transferable"
        )
    if dob is not None:
        try:
            born = date.fromisoformat(dob)
        except ValueError:
            raise ToolError(f"{dob} is not a real date") from None
        if born >= db.today:
            raise ToolError(f"date of birth {dob} is not in the past")
        if dob != pax["dob"]:
            changes["dob"] = dob
    if not changes:
        raise ToolError(f"passenger {passenger} already has those details")
    row = db.update(Passenger, passenger, **changes)
    return {
        "passenger": passenger,
        "itinerary": trip["id"],
        **{k: row[k] for k in ("first_name", "last_name", "dob")},
    }
