"""Booking: flights (with passengers, bags and insurance), hotel stays, extras, document checks."""

from __future__ import annotations

import hashlib
from datetime import date, datetime, timedelta
from typing import Annotated

from pydantic import Field

from servers.domains.travel_booking.catalog import Guests, Nights, TravelDay
from servers.domains.travel_booking.model import (
    BAG_PRICE,
    FREE_BAGS,
    INSURANCE_PER_PASSENGER,
    MAX_BAGS_PER_PASSENGER,
    MAX_PASSENGERS,
    MAX_SEGMENTS,
    MIN_CONNECTION_MIN,
    Bag,
    Cabin,
    Charge,
    FlightDate,
    Itinerary,
    Passenger,
    PaymentMethod,
    RoomType,
    Segment,
    Stay,
    travel_booking,
)
from servers.domains.travel_booking.rules import (
    BOOKABLE_SQL,
    FLIGHT_TRIP,
    INSURABLE,
    MyCard,
    MyTrip,
    WriteToken,
    _age,
    _auth,
    _bookable,
    _card,
    _flown,
    _pay,
    _price_col,
    _rooms_free,
    _seats_col,
    _stay_dates,
    _totals,
    _trip,
    _within_budget,
    segment_label,
    ticket_number,
)
from servers.kit import Db, IdList, Ref, ToolError

CODE_CHARS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
PassengerText = Annotated[
    str,
    Field(
        pattern=r"^[A-Za-z][A-Za-z'-]{0,40}( [A-Za-z][A-Za-z'-]{0,40})+ [0-9]{4}-[0-9]{2}-[0-9]{2}$",
        max_length=100,
    ),
]
PassengerList = Annotated[
    list[PassengerText],
    Field(
        min_length=1,
        max_length=MAX_PASSENGERS,
        description='Everyone flying, lead passenger first, as "First Last YYYY-MM-DD" (date of birth).',
        examples=[
            ["Maya Ortiz 1988-04-12", "Leo Ortiz 2015-09-30"],
            ["Sam Reyes 1979-02-03", "Ana Reyes 1981-07-19"],
            ["Jordan Lee 1992-11-05"],
        ],
    ),
]
BagCount = Annotated[int, Field(ge=0, le=25, description="Checked bags for the whole booking.")]
AddBags = Annotated[int, Field(ge=1, le=5, description="How many checked bags to add (1-5).")]


def _parse_people(passengers: list[str] | None, me: dict) -> list[tuple[str, str, str]]:
    if not passengers:
        return [(me["first_name"], me["last_name"], me["dob"])]
    out = []
    for text in passengers:
        *names, dob = text.split(" ")
        try:
            date.fromisoformat(dob)
        except ValueError:
            raise ToolError(f"passenger {text!r}: {dob} is not a real date of birth") from None
        out.append((" ".join(names[:-1]), names[-1], dob))
    return out


def _code(db: Db, seed: str) -> str:
    """A confirmation code derived from the new itinerary's id (deterministic, unique)."""
    for salt in range(100):
        digest = hashlib.sha256(f"{seed}:{salt}".encode()).digest()
        code = "".join(CODE_CHARS[b % len(CODE_CHARS)] for b in digest[:6])
        if db.scalar("SELECT 1 FROM itineraries WHERE code = ?", code) is None:
            return code
    raise ToolError("could not allocate a confirmation code; try again")


def _legs(db: Db, flight_dates: list[str], cabin: str, n: int) -> list[dict]:
    """The flight dates with their routes, checked bookable, in departure order, none overlapping.

    A flight leaving from the airport the previous one landed at is a connection (or the way
    back); one leaving from elsewhere starts another leg of a multi-city trip."""
    if len(flight_dates) > MAX_SEGMENTS:
        raise ToolError(f"a booking has at most {MAX_SEGMENTS} flights, got {len(flight_dates)}")
    legs = []
    for key in flight_dates:
        fd = db.get(FlightDate, key)
        f = db.one("SELECT origin, destination FROM flights WHERE id = ?", fd["flight_id"])
        _bookable(db, fd, cabin, n)
        legs.append({**fd, **f})
    legs.sort(key=lambda leg: (leg["departs_utc"], leg["id"]))
    for a, b in zip(legs, legs[1:], strict=False):
        gap = datetime.fromisoformat(b["departs_utc"]) - datetime.fromisoformat(a["arrives_utc"])
        if gap < timedelta(minutes=MIN_CONNECTION_MIN):
            minutes = int(gap.total_seconds() // 60)
            when = f"{minutes} minutes after" if minutes >= 0 else f"{-minutes} minutes before"
            raise ToolError(
                f"{b['flight_id']} ({b['id']}) departs {when} {a['flight_id']} ({a['id']}) lands; flights on one "
                f"booking may not overlap and a connection needs at least {MIN_CONNECTION_MIN} minutes"
            )
    return legs


def _check_party(people: list[tuple[str, str, str]], first_day: date, bags: int) -> None:
    """The lead passenger is an adult on the first flight day, and the bags are within the
    per-passenger limit."""
    if _age(people[0][2], first_day) < 18:
        raise ToolError(
            f"the lead passenger {people[0][0]} {people[0][1]} is {_age(people[0][2], first_day)} on {first_day}; "
            "the lead passenger must be 18 or older"
        )
    n = len(people)
    if bags > MAX_BAGS_PER_PASSENGER * n:
        raise ToolError(
            f"at most {MAX_BAGS_PER_PASSENGER} checked bags per passenger ({MAX_BAGS_PER_PASSENGER * n} for {n})"
        )


@travel_booking.tool(
    writes=[Itinerary, Segment, Passenger, Bag, Charge, FlightDate, PaymentMethod],
    returns=Itinerary,
    says=[
        "book flights {flight_dates} in {cabin} and pay with card {payment_method}, using my access token {access_token}",
        "book {cabin} seats on flights {flight_dates} for {passengers} and charge card {payment_method} with my access token {access_token}",
        "reserve flights {flight_dates} in {cabin} with {bags} checked bags, insurance: {insurance}, on card {payment_method}, using my access token {access_token}",
    ],
)
def book_flight(
    db: Db,
    access_token: WriteToken,
    flight_dates: IdList[FlightDate, BOOKABLE_SQL],
    cabin: Cabin,
    payment_method: MyCard,
    passengers: PassengerList | None = None,
    bags: BagCount = 0,
    insurance: bool = False,
) -> dict:
    """Book flights (up to 4, one cabin for all, none overlapping) for up to 5 passengers, with checked bags
    and optional insurance (30.00 per passenger), paid in one charge to a saved card. The lead
    passenger must be 18 or older; the total must fit the per-trip budget limit.

    Args:
        access_token: The token authenticate returned (scope read_write).
        flight_dates: The flight dates (ids from search_flights); a multi-city trip may list separate legs.
        cabin: basic_economy, economy or business.
        payment_method: The saved card to charge.
        passengers: Everyone flying, lead first (default: the signed-in traveler alone).
        bags: Checked bags in total; the free allowance depends on membership and cabin, extra bags are 50.00 each.
        insurance: Add travel insurance.
    """
    me = _auth_write(db, access_token, "book flights")
    card = _card(db, payment_method, me)
    people = _parse_people(passengers, me)
    legs = _legs(db, flight_dates, cabin, len(people))
    _check_party(people, date.fromisoformat(legs[0]["day"]), bags)
    n = len(people)
    fare = round(sum(leg[_price_col(cabin)] * n for leg in legs), 2)
    free = FREE_BAGS[me["membership"]][cabin] * n
    paid_bags = max(0, bags - free)
    extras = round(paid_bags * BAG_PRICE + (INSURANCE_PER_PASSENGER * n if insurance else 0), 2)
    _within_budget(db, me, fare + extras, "this booking")
    trip = _new_trip(db, me, legs, cabin, n, insurance)
    _seat(db, trip, legs, cabin, people)
    db.add(Bag, itinerary_id=trip["id"], count=bags, free_count=free, paid_count=paid_bags)
    _pay(db, card, trip["id"], fare + extras, f"Booking {trip['code']}")
    trip = _totals(db, trip["id"], fare=fare, extras=extras)
    return {
        "itinerary": trip["id"],
        "code": trip["code"],
        "title": trip["title"],
        "status": "active",
        "segments": [leg["id"] for leg in legs],
        "cabin": cabin,
        "passengers": n,
        "fare": fare,
        "bags": {"count": bags, "free": free, "paid": paid_bags},
        "insurance": insurance,
        "total_charged": round(fare + extras, 2),
        "payment_method": card["id"],
    }


def _seat(db: Db, trip: dict, legs: list[dict], cabin: str, people: list[tuple[str, str, str]]) -> None:
    """The booking's segments and passengers (with their ticket numbers), and the seats they take."""
    n = len(people)
    for i, leg in enumerate(legs):
        price = round(leg[_price_col(cabin)] * n, 2)
        label = segment_label(leg["flight_id"], leg["day"], trip["code"])
        db.add(
            Segment,
            itinerary_id=trip["id"],
            label=label,
            flight_date_id=leg["id"],
            position=i + 1,
            cabin=cabin,
            price=price,
            status="booked",
        )
        db.update(FlightDate, leg["id"], **{_seats_col(cabin): leg[_seats_col(cabin)] - n})
    for first, last, dob in people:
        pid = db.next_id(Passenger)
        db.add(
            Passenger,
            id=pid,
            itinerary_id=trip["id"],
            code=ticket_number(pid),
            first_name=first,
            last_name=last,
            dob=dob,
        )


def _auth_write(db: Db, token: str, action: str) -> dict:
    return _auth(db, token, write=action)


def _new_trip(db: Db, me: dict, legs: list[dict], cabin: str | None, n: int, insurance: bool) -> dict:
    seed = db.next_id(Itinerary)
    if legs:
        o = db.scalar("SELECT city FROM airports WHERE id = ?", legs[0]["origin"])
        d = db.scalar("SELECT city FROM airports WHERE id = ?", legs[0]["destination"])
        back = " and back" if len(legs) > 1 and legs[-1]["destination"] == legs[0]["origin"] else ""
        chained = all(a["destination"] == b["origin"] for a, b in zip(legs, legs[1:], strict=False))
        more = "" if chained else " and more"
        title = f"{o} to {d}{back}{more}, {date.fromisoformat(legs[0]['day']).strftime('%b %-d')}"
        kind = "multi_city" if not chained else "round_trip" if back else "one_way"
    else:
        title, kind = "", "hotel_only"
    return db.insert(
        Itinerary,
        id=seed,
        traveler_id=me["id"],
        code=_code(db, seed),
        title=title,
        status="active",
        trip_type=kind,
        cabin=cabin,
        passengers=n,
        insurance=insurance,
        fare_paid=0.0,
        extras_paid=0.0,
        total_paid=0.0,
        created_at=db.stamp(),
        cancelled_at=None,
        cancel_reason=None,
    )


def _room_fits(db: Db, room: dict, guests: int, check_in: str, nights: int, check_out: str) -> None:
    """The room type sleeps the party and one room of it is free on every night of the stay."""
    room_type = room["id"]
    if guests > room["capacity"]:
        raise ToolError(
            f"room type {room_type} ({room['name']}) sleeps {room['capacity']}; {guests} guests asked"
        )
    if _rooms_free(db, room, check_in, nights) <= 0:
        raise ToolError(f"no {room['name']} ({room_type}) is free every night from {check_in} to {check_out}")


def _stay_trip(db: Db, me: dict, guests: int, hotel: dict, check_in: str) -> dict:
    """A new itinerary for a stay booked on its own, titled after the city and the first night."""
    trip = _new_trip(db, me, [], None, guests, False)
    db.update(
        Itinerary,
        trip["id"],
        title=f"{hotel['city']} stay, {date.fromisoformat(check_in).strftime('%b %-d')}",
    )
    return trip


@travel_booking.tool(
    writes=[Itinerary, Stay, Charge, PaymentMethod],
    returns=Stay,
    says=[
        "book room type {room_type} from {check_in} for {nights} nights on card {payment_method}, using my access token {access_token}",
        "reserve room type {room_type} for {guests} guests from {check_in}, {nights} nights, as part of itinerary {itinerary}; pay with card {payment_method} with my access token {access_token}",
    ],
)
def book_hotel(
    db: Db,
    access_token: WriteToken,
    room_type: Ref[RoomType],
    check_in: TravelDay,
    nights: Nights,
    payment_method: MyCard,
    guests: Guests = 1,
    itinerary: MyTrip | None = None,
) -> dict:
    """Book a hotel room for some nights, paid at once; into an existing itinerary or as a new
    hotel-only one. The room type must hold the guests and have a room free every night.

    Args:
        access_token: The token authenticate returned (scope read_write).
        room_type: The room type (from search_hotels or get_hotel).
        check_in: Arrival day.
        nights: Number of nights (1-30).
        payment_method: The saved card to charge.
        guests: People in the room.
        itinerary: Add the stay to this itinerary (default: a new one).
    """
    me = _auth_write(db, access_token, "book hotels")
    card = _card(db, payment_method, me)
    room = db.get(RoomType, room_type)
    check_out = _stay_dates(db, check_in, nights)
    _room_fits(db, room, guests, check_in, nights, check_out)
    total = round(room["nightly_price"] * nights, 2)
    trip = _trip(db, itinerary, me) if itinerary else None
    _within_budget(db, me, (trip["total_paid"] if trip else 0) + total, "this stay")
    hotel = db.one("SELECT name, city FROM hotels WHERE id = ?", room["hotel_id"])
    if trip is None:
        trip = _stay_trip(db, me, guests, hotel, check_in)
    stay = db.insert(
        Stay,
        itinerary_id=trip["id"],
        hotel_id=room["hotel_id"],
        room_type_id=room_type,
        check_in=check_in,
        check_out=check_out,
        guests=guests,
        nightly_price=room["nightly_price"],
        total_paid=total,
        refundable=room["refundable"],
        status="booked",
    )
    _pay(db, card, trip["id"], total, f"Hotel {hotel['name']}, {nights} nights")
    trip = _totals(db, trip["id"])
    return {
        "stay": stay["id"],
        "itinerary": trip["id"],
        "code": trip["code"],
        "hotel": hotel["name"],
        "room": room["name"],
        "check_in": check_in,
        "check_out": check_out,
        "total_charged": total,
        "refundable": bool(room["refundable"]),
        "payment_method": card["id"],
    }


@travel_booking.tool(
    writes=[Itinerary, Charge, PaymentMethod],
    returns=Itinerary,
    says=[
        "add travel insurance to itinerary {itinerary} and charge card {payment_method}, using my access token {access_token}",
        "insure itinerary {itinerary}, paying with card {payment_method} with my access token {access_token}",
    ],
)
def purchase_insurance(
    db: Db, access_token: WriteToken, itinerary: Ref[Itinerary, INSURABLE], payment_method: MyCard
) -> dict:
    """Add travel insurance (30.00 per passenger) to an itinerary with flights, at most 24 hours
    after it was booked. Insurance makes a cancellation for health or weather fully refundable.

    Args:
        access_token: The token authenticate returned (scope read_write).
        itinerary: The itinerary to insure.
        payment_method: The saved card to charge (not a travel certificate).
    """
    me = _auth_write(db, access_token, "buy insurance")
    trip = _trip(db, itinerary, me)
    card = _card(db, payment_method, me, change=True)
    if trip["trip_type"] == "hotel_only":
        raise ToolError(f"itinerary {itinerary} has no flights; insurance covers flights only")
    if trip["insurance"]:
        raise ToolError(f"itinerary {itinerary} ({trip['code']}) is already insured")
    booked = datetime.fromisoformat(trip["created_at"])
    if db.now - booked > timedelta(hours=24):
        raise ToolError(
            f"itinerary {itinerary} was booked at {trip['created_at']} UTC; insurance can be added only within "
            "24 hours of booking"
        )
    if _flown(db, itinerary):
        raise ToolError(f"itinerary {itinerary} has a flown segment; insurance can no longer be added")
    price = round(INSURANCE_PER_PASSENGER * trip["passengers"], 2)
    _within_budget(db, me, trip["total_paid"] + price, "insurance")
    db.update(Itinerary, itinerary, insurance=True)
    _pay(db, card, itinerary, price, f"Travel insurance for {trip['passengers']} passenger(s)")
    trip = _totals(db, itinerary, extras=price)
    return {"itinerary": itinerary, "insurance": True, "charged": price, "total_paid": trip["total_paid"]}


@travel_booking.tool(
    writes=[Bag, Itinerary, Charge, PaymentMethod],
    returns=Bag,
    says=[
        "add {bags} checked bags to itinerary {itinerary} and pay with card {payment_method}, using my access token {access_token}",
        "I need {bags} more bags on itinerary {itinerary}; charge card {payment_method} with my access token {access_token}",
    ],
)
def add_bags(
    db: Db,
    access_token: WriteToken,
    itinerary: Ref[Itinerary, FLIGHT_TRIP],
    bags: AddBags,
    payment_method: MyCard,
) -> dict:
    """Add checked bags to an itinerary before it flies: bags within the free allowance cost
    nothing, the rest 50.00 each; at most 5 per passenger. Bags cannot be removed.

    Args:
        access_token: The token authenticate returned (scope read_write).
        itinerary: The itinerary.
        bags: Bags to add.
        payment_method: The saved card to charge for bags over the allowance (not a travel certificate).
    """
    me = _auth_write(db, access_token, "add bags")
    trip = _trip(db, itinerary, me)
    card = _card(db, payment_method, me, change=True)
    bag = db.one("SELECT * FROM bags WHERE itinerary_id = ?", itinerary)
    if bag is None:
        raise ToolError(f"itinerary {itinerary} has no flights; bags go with flights")
    if _flown(db, itinerary):
        raise ToolError(f"itinerary {itinerary} has already flown a segment; add bags at the airport")
    total = bag["count"] + bags
    cap = MAX_BAGS_PER_PASSENGER * trip["passengers"]
    if total > cap:
        raise ToolError(
            f"itinerary {itinerary} has {bag['count']} bags; adding {bags} would pass the {cap} allowed "
            f"({MAX_BAGS_PER_PASSENGER} per passenger)"
        )
    paid = max(0, total - bag["free_count"])
    price = round((paid - bag["paid_count"]) * BAG_PRICE, 2)
    _within_budget(db, me, trip["total_paid"] + price, "these bags")
    db.update(Bag, bag["id"], count=total, paid_count=paid)
    _pay(db, card, itinerary, price, f"{bags} checked bag(s)")
    _totals(db, itinerary, extras=price)
    return {
        "itinerary": itinerary,
        "bags": total,
        "free": bag["free_count"],
        "paid_bags": paid,
        "charged": price,
        "payment_method": card["id"] if price else None,
    }
