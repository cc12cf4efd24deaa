"""What anyone may look up without signing in: airports, flights, hotels and exchange rates."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Annotated

from pydantic import Field

from servers.domains.travel_booking.model import (
    CABINS,
    MAX_PASSENGERS,
    MIN_CONNECTION_MIN,
    Airport,
    Cabin,
    Currency,
    Flight,
    FlightDate,
    Hotel,
    travel_booking,
)
from servers.domains.travel_booking.places import TOWN_EXAMPLES, TOWNS
from servers.domains.travel_booking.rules import _price_col, _rooms_free, _seats_col, _stay_dates
from servers.domains.travel_booking.seed_catalog import LAST_DAY
from servers.kit import Day, Db, Money, Offset, PageSize, Ref, ShortText, ToolError, geo

SEARCH_DAYS = [
    "2026-06-04",
    "2026-06-08",
    "2026-06-12",
    "2026-06-15",
    "2026-06-19",
    "2026-06-26",
    "2026-07-02",
    "2026-07-10",
    "2026-07-17",
    "2026-07-24",
]
STATUS_DAYS = [
    "2026-05-29",
    "2026-05-31",
    "2026-06-01",
    "2026-06-02",
    "2026-06-03",
    "2026-06-05",
    "2026-06-09",
]
TravelDay = Annotated[Day, Field(examples=SEARCH_DAYS)]
StatusDay = Annotated[Day, Field(examples=STATUS_DAYS)]
Passengers = Annotated[int, Field(ge=1, le=MAX_PASSENGERS, description="How many people travel (1-5).")]
Nights = Annotated[int, Field(ge=1, le=30, description="Number of nights (1-30).")]
Guests = Annotated[int, Field(ge=1, le=8, description="Guests in the room.")]
City = Annotated[str, Field(min_length=1, max_length=80, examples=TOWN_EXAMPLES)]
Origin = Ref[Airport, "id IN (SELECT origin FROM flights)"]
Destination = Ref[Airport, "id IN (SELECT destination FROM flights)"]
WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")


def _window(db: Db, day: str) -> None:
    last = (db.today + timedelta(days=LAST_DAY)).isoformat()
    if day > last:
        raise ToolError(f"schedules are published {LAST_DAY} days ahead, up to {last}; {day} is later")


@travel_booking.tool(
    returns=Airport,
    says=[
        "which airports are there in {city}?",
        "list the airports in {country}",
        "show me airports in {city}",
    ],
)
def list_airports(
    db: Db,
    city: ShortText | None = None,
    country: ShortText | None = None,
    limit: PageSize = 20,
    offset: Offset = 0,
) -> dict:
    """Airports the service flies to, optionally only those of a city or a country (ISO code, e.g. US).

    Args:
        city: Only airports of this city.
        country: Only airports of this country, as a two-letter code.
        limit: Maximum number of airports.
        offset: Airports to skip, for paging.
    """
    where, params = ["1"], []
    if city:
        where.append("lower(city) = lower(?)")
        params.append(city)
    if country:
        where.append("upper(country) = upper(?)")
        params.append(country)
    return db.page(
        f"SELECT id, name, city, country, timezone FROM airports WHERE {' AND '.join(where)} ORDER BY id",
        *params,
        limit=limit,
        offset=offset,
        key="airports",
    )


def _point(db: Db, city: str) -> tuple[float, float] | None:
    row = db.one("SELECT avg(lat) AS lat, avg(lon) AS lon FROM airports WHERE lower(city) = lower(?)", city)
    if row and row["lat"] is not None:
        return row["lat"], row["lon"]
    for name, _country, lat, lon in TOWNS:
        if name.casefold() == city.casefold():
            return lat, lon
    try:
        c = geo.city(city)
    except KeyError:
        return None
    return c.lat, c.lon


@travel_booking.tool(
    returns=Airport,
    says=["what's the nearest airport to {city}?", "which airport should I fly into for {city}?"],
)
def find_nearest_airport(db: Db, city: City) -> dict:
    """The three airports closest to a city or town (straight-line distance), nearest first.

    Args:
        city: The city or town, e.g. Boulder.
    """
    point = _point(db, city)
    if point is None:
        towns = ", ".join(t[0] for t in TOWNS[:6])
        raise ToolError(
            f"unknown place {city!r}; give a city with an airport or a nearby town such as {towns}"
        )
    rows = db.all("SELECT id, name, city, country, lat, lon FROM airports")
    for r in rows:
        r["distance_km"] = round(geo.haversine_km(point[0], point[1], r.pop("lat"), r.pop("lon")), 1)
    rows.sort(key=lambda r: (r["distance_km"], r["id"]))
    return {"city": city, "airports": rows[:3]}


# -- flights --------------------------------------------------------------------------------------

# flights first (CROSS JOIN keeps that order): the few flights from the origin, then each one's
# date by the (flight_id, day) key, instead of every flight of the day across the network
_LEG = (
    "SELECT d.*, f.origin, f.destination, f.airline FROM flights f CROSS JOIN flight_dates d ON f.id = d.flight_id "
    "WHERE d.status IN ('scheduled', 'delayed') "
)


def _fits(leg: dict, cabin: str | None, passengers: int) -> bool:
    cabins = [cabin] if cabin else list(CABINS)
    return any(leg[_seats_col(c)] >= passengers for c in cabins)


def _option(legs: list[dict], cabin: str | None, passengers: int, cutoff: str) -> dict:
    cabins = [cabin] if cabin else list(CABINS)
    prices = {c: round(sum(leg[_price_col(c)] for leg in legs), 2) for c in cabins}
    seats = {c: min(leg[_seats_col(c)] for leg in legs) for c in cabins}
    minutes = datetime.fromisoformat(legs[-1]["arrives_utc"]) - datetime.fromisoformat(legs[0]["departs_utc"])
    return {
        "flight_dates": [leg["id"] for leg in legs],
        "flights": [leg["flight_id"] for leg in legs],
        "route": [legs[0]["origin"]] + [leg["destination"] for leg in legs],
        "stops": len(legs) - 1,
        "departs_at": legs[0]["departs_at"],
        "arrives_at": legs[-1]["arrives_at"],
        "duration_min": int(minutes.total_seconds() // 60),
        "price_per_passenger": prices,
        "total_for_passengers": {c: round(p * passengers, 2) for c, p in prices.items()},
        "seats_left": seats,
        "bookable": all(leg["status"] == "scheduled" and leg["departs_utc"] > cutoff for leg in legs)
        and any(v >= passengers for v in seats.values()),
    }


@travel_booking.tool(
    returns=FlightDate,
    says=[
        "find flights from {origin} to {destination} on {day}",
        "search {cabin} flights from {origin} to {destination} on {day} for {passengers} people",
        "show me flights from {origin} to {destination} on {day} (max stops: {max_stops})",
    ],
)
def search_flights(
    db: Db,
    origin: Origin,
    destination: Destination,
    day: TravelDay,
    cabin: Cabin | None = None,
    max_stops: Annotated[int, Field(ge=0, le=1)] = 0,
    passengers: Passengers = 1,
    limit: Annotated[int, Field(ge=1, le=20)] = 3,
) -> dict:
    """Nonstop (and, with max_stops=1, one-stop) flights on a day with prices per passenger for
    each cabin, cheapest first. A connection needs 45 minutes to 8 hours at the connecting airport.

    Args:
        origin: Departure airport code.
        destination: Arrival airport code.
        day: Departure day (local to the origin).
        cabin: Only this cabin: basic_economy, economy or business.
        max_stops: 0 for nonstop flights only (the default), 1 to include one-stop connections.
        passengers: How many people must fit.
        limit: Maximum number of options.
    """
    if origin == destination:
        raise ToolError(f"origin and destination are both {origin}")
    today = db.today.isoformat()
    if day < today:
        raise ToolError(
            f"{day} is in the past (today is {today}); get_flight_status tells how past flights went"
        )
    _window(db, day)
    cutoff = (db.now + timedelta(minutes=60)).isoformat(timespec="seconds")
    direct = db.all(_LEG + "AND f.origin = ? AND f.destination = ? AND d.day = ?", origin, destination, day)
    options = [[leg] for leg in direct if _fits(leg, cabin, passengers)]
    if max_stops:
        options += _connections(db, origin, destination, day, cabin, passengers)
    out = [_option(legs, cabin, passengers, cutoff) for legs in options]
    key = cabin or "economy"
    out.sort(key=lambda o: (o["price_per_passenger"].get(key, 0), o["departs_at"], o["flight_dates"]))
    return {
        "origin": origin,
        "destination": destination,
        "day": day,
        "total": len(out),
        "options": out[:limit],
    }


def _connections(db: Db, origin: str, destination: str, day: str, cabin, passengers: int) -> list[list[dict]]:
    firsts = db.all(_LEG + "AND f.origin = ? AND f.destination != ? AND d.day = ?", origin, destination, day)
    out = []
    for a in firsts:
        if not _fits(a, cabin, passengers):
            continue
        earliest = datetime.fromisoformat(a["arrives_utc"]) + timedelta(minutes=MIN_CONNECTION_MIN)
        latest = datetime.fromisoformat(a["arrives_utc"]) + timedelta(hours=8)
        seconds = db.all(
            _LEG + "AND f.origin = ? AND f.destination = ? AND d.departs_utc BETWEEN ? AND ?",
            a["destination"],
            destination,
            earliest.isoformat(timespec="seconds"),
            latest.isoformat(timespec="seconds"),
        )
        out += [[a, b] for b in seconds if _fits(b, cabin, passengers)]
    return out


@travel_booking.tool(
    returns=FlightDate,
    says=["what's the status of flight {flight_number} on {day}?", "is {flight_number} on time on {day}?"],
)
def get_flight_status(db: Db, flight_number: Ref[Flight], day: StatusDay) -> dict:
    """How one flight is doing on one day: scheduled, delayed, cancelled, departed or landed, with
    its departure and arrival times (local and UTC) and seats left per cabin.

    Args:
        flight_number: The flight number, e.g. CV212.
        day: The departure day (local to the origin).
    """
    f = db.get(Flight, flight_number)
    fd = db.one("SELECT * FROM flight_dates WHERE flight_id = ? AND day = ?", flight_number, day)
    if fd is None:
        first = (db.today - timedelta(days=14)).isoformat()
        if day < first:
            raise ToolError(f"flight history goes back to {first}; {day} is earlier")
        _window(db, day)
        flies = ", ".join(WEEKDAYS[int(d) - 1] for d in f["days_of_week"])
        weekday = WEEKDAYS[date.fromisoformat(day).weekday()]
        raise ToolError(f"flight {flight_number} flies on {flies}; not on {day} ({weekday})")
    return {
        "flight_date": fd["id"],
        "flight_number": flight_number,
        "airline": f["airline"],
        "origin": f["origin"],
        "destination": f["destination"],
        "day": day,
        "status": fd["status"],
        "departs_at": fd["departs_at"],
        "arrives_at": fd["arrives_at"],
        "departs_utc": fd["departs_utc"],
        "arrives_utc": fd["arrives_utc"],
        "seats_left": {c: fd[_seats_col(c)] for c in CABINS},
    }


# -- hotels -----------------------------------------------------------------------------------------


def _cheapest_free_room(
    db: Db, h: dict, guests: int, max_price: float | None, check_in: str, nights: int
) -> dict | None:
    """The hotel's cheapest room type that sleeps the party, fits the price and is free every night."""
    rooms = db.all(
        "SELECT * FROM room_types WHERE hotel_id = ? AND capacity >= ? ORDER BY nightly_price",
        h["id"],
        guests,
    )
    for r in rooms:
        if (max_price is None or r["nightly_price"] <= max_price) and _rooms_free(
            db, r, check_in, nights
        ) > 0:
            return r
    return None


def _hotel_offer(h: dict, r: dict, nights: int) -> dict:
    """A hotel as a search lists it, with the room type offered and the stay's total."""
    return {
        "hotel": h["id"],
        "name": h["name"],
        "stars": h["stars"],
        "rating": h["rating"],
        "address": h["address"],
        "room_type": r["id"],
        "room": r["name"],
        "nightly_price": r["nightly_price"],
        "total": round(r["nightly_price"] * nights, 2),
        "refundable": bool(r["refundable"]),
    }


@travel_booking.tool(
    returns=Hotel,
    says=[
        "find a hotel in {city} from {check_in} for {nights} nights",
        "hotels in {city} checking in {check_in}, {nights} nights, {guests} guests, under {max_price} a night",
        "any {min_stars}-star hotels in {city} from {check_in} for {nights} nights?",
    ],
)
def search_hotels(
    db: Db,
    city: ShortText,
    check_in: TravelDay,
    nights: Nights = 1,
    guests: Guests = 1,
    max_price: Money | None = None,
    min_stars: Annotated[int, Field(ge=1, le=5)] | None = None,
    limit: Annotated[int, Field(ge=1, le=50)] = 10,
) -> dict:
    """Hotels in a city with a room type free for every night of the stay that fits the guests,
    each with its cheapest such room, cheapest first.

    Args:
        city: The city.
        check_in: Arrival day.
        nights: Number of nights.
        guests: People in the room.
        max_price: Highest nightly price, in US dollars.
        min_stars: Only hotels with at least this many stars.
        limit: Maximum number of hotels.
    """
    check_out = _stay_dates(db, check_in, nights)
    hotels = db.all("SELECT * FROM hotels WHERE lower(city) = lower(?) ORDER BY id", city)
    if not hotels:
        known = [r["city"] for r in db.all("SELECT DISTINCT city FROM hotels ORDER BY city LIMIT 8")]
        raise ToolError(f"no hotels in {city!r}; cities with hotels include {', '.join(known)}")
    out = []
    for h in hotels:
        if min_stars and h["stars"] < min_stars:
            continue
        r = _cheapest_free_room(db, h, guests, max_price, check_in, nights)
        if r is not None:
            out.append(_hotel_offer(h, r, nights))
    out.sort(key=lambda o: (o["nightly_price"], o["hotel"]))
    return {
        "city": city,
        "check_in": check_in,
        "check_out": check_out,
        "total": len(out),
        "hotels": out[:limit],
    }


@travel_booking.tool(
    returns=Hotel,
    says=[
        "tell me about hotel {hotel}",
        "what rooms does {hotel} have free from {check_in} for {nights} nights?",
    ],
)
def get_hotel(db: Db, hotel: Ref[Hotel], check_in: TravelDay | None = None, nights: Nights = 1) -> dict:
    """A hotel and its room types (capacity, nightly price, refundable); with a check-in day, how
    many rooms of each type are free for the whole stay.

    Args:
        hotel: The hotel.
        check_in: Arrival day, to see availability.
        nights: Number of nights, with check_in.
    """
    h = db.get(Hotel, hotel)
    rooms = db.all(
        "SELECT id, name, capacity, nightly_price, refundable, total_rooms FROM room_types WHERE hotel_id = ? ORDER BY id",
        hotel,
    )
    if check_in is not None:
        _stay_dates(db, check_in, nights)
    for r in rooms:
        r["refundable"] = bool(r["refundable"])
        if check_in is not None:
            r["rooms_free"] = _rooms_free(db, r, check_in, nights)
        del r["total_rooms"]
    return {**h, "room_types": rooms, **({"check_in": check_in, "nights": nights} if check_in else {})}


@travel_booking.tool(
    returns=Currency,
    says=[
        "convert {amount} from {from_currency} to {to_currency}",
        "how much is {amount} {from_currency} in {to_currency}?",
    ],
)
def convert_currency(db: Db, amount: Money, from_currency: Ref[Currency], to_currency: Ref[Currency]) -> dict:
    """Convert an amount between currencies at today's rate (fixed for the day).

    Args:
        amount: The amount to convert.
        from_currency: Its currency, e.g. USD.
        to_currency: The currency wanted, e.g. EUR.
    """
    a, b = db.get(Currency, from_currency), db.get(Currency, to_currency)
    if a["id"] == b["id"]:
        raise ToolError(f"both currencies are {a['id']}; nothing to convert")
    rate = b["per_usd"] / a["per_usd"]
    return {
        "amount": amount,
        "from": a["id"],
        "to": b["id"],
        "rate": f"1 {a['id']} = {rate:.6g} {b['id']}",
        "converted": round(amount * rate, 2),
    }
