"""Flights: direct and one-stop searches on a date, and the status of a flight on a date."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Annotated

from pydantic import Field

from servers.domains.airline_service.model import (
    MAX_CONNECTION_MIN,
    MIN_CONNECTION_MIN,
    Airport,
    Flight,
    FlightDate,
    airline_service,
)
from servers.domains.airline_service.rules import NOW_SQL
from servers.kit import Day, Db, Ref, ToolError

# dates people ask about: trips ahead (searches, changes) and days around today (status)
SEARCH_DAYS = [f"2026-06-{d:02d}" for d in (2, 3, 5, 8, 10, 12, 15, 19, 22, 26, 29)] + [
    f"2026-07-{d:02d}" for d in (1, 3, 6, 8)
]
STATUS_DAYS = [f"2026-05-{d:02d}" for d in (22, 26, 28, 29, 30, 31)] + [
    f"2026-06-{d:02d}" for d in (1, 2, 3, 4)
]
TravelDay = Annotated[Day, Field(examples=SEARCH_DAYS)]
StatusDay = Annotated[Day, Field(examples=STATUS_DAYS)]

SHOWN = (
    "id, flight_number, origin, destination, date, departs_at, arrives_at, status, delay_min, "
    "seats_basic_economy, seats_economy, seats_business, price_basic_economy, price_economy, price_business"
)
OPEN = f"status IN ('scheduled', 'delayed') AND departs_at > {NOW_SQL}"
Origin = Ref[Airport]
DirectTo = Ref[Airport, "id != :origin AND id IN (SELECT destination FROM flights WHERE origin = :origin)"]
AnyTo = Ref[Airport, "id != :origin"]


def _airports(db: Db, origin: str, destination: str) -> None:
    db.get(Airport, origin)
    db.get(Airport, destination)
    if origin == destination:
        raise ToolError(f"origin and destination are both {origin}")


@airline_service.tool(
    returns=FlightDate,
    says=[
        "find direct flights from {origin} to {destination} on {date}",
        "are there nonstop flights {origin} to {destination} on {date}?",
    ],
)
def search_direct_flights(db: Db, origin: Origin, destination: DirectTo, date: TravelDay) -> dict:
    """Nonstop flights on a date that can still be booked, with seats left and fares per
    passenger in each cabin, earliest first.

    Args:
        origin: Departure airport code.
        destination: Arrival airport code.
        date: Departure date.
    """
    _airports(db, origin, destination)
    rows = db.all(
        f"SELECT {SHOWN} FROM flight_dates WHERE origin = ? AND destination = ? AND date = ? AND {OPEN} "
        "ORDER BY departs_at",
        origin,
        destination,
        date,
    )
    return {"origin": origin, "destination": destination, "date": date, "flights": rows}


@airline_service.tool(
    returns=FlightDate,
    says=[
        "find connecting flights from {origin} to {destination} on {date}",
        "I need to get from {origin} to {destination} on {date}, one stop is fine",
    ],
)
def search_connecting_flights(db: Db, origin: Origin, destination: AnyTo, date: TravelDay) -> dict:
    """One-stop itineraries leaving on a date: the second flight leaves the connecting airport
    45 minutes to 6 hours after the first lands. Each option lists its two flights (book them
    together) and the fares per passenger summed over both.

    Args:
        origin: Departure airport code.
        destination: Final arrival airport code.
        date: Departure date of the first flight.
    """
    _airports(db, origin, destination)
    firsts = db.all(
        f"SELECT {SHOWN} FROM flight_dates WHERE origin = ? AND date = ? AND destination != ? AND {OPEN} "
        "ORDER BY departs_at",
        origin,
        date,
        destination,
    )
    options = []
    for a in firsts:
        land = datetime.fromisoformat(a["arrives_at"])
        seconds = db.all(
            f"SELECT {SHOWN} FROM flight_dates WHERE origin = ? AND destination = ? AND date IN (?, ?) "
            f"AND departs_at BETWEEN ? AND ? AND {OPEN} ORDER BY departs_at",
            a["destination"],
            destination,
            land.date().isoformat(),
            (land + timedelta(days=1)).date().isoformat(),
            (land + timedelta(minutes=MIN_CONNECTION_MIN)).isoformat(timespec="seconds"),
            (land + timedelta(minutes=MAX_CONNECTION_MIN)).isoformat(timespec="seconds"),
        )
        for b in seconds:
            options.append(
                {
                    "flights": [a["id"], b["id"]],
                    "via": a["destination"],
                    "departs_at": a["departs_at"],
                    "arrives_at": b["arrives_at"],
                    "price_basic_economy": a["price_basic_economy"] + b["price_basic_economy"],
                    "price_economy": a["price_economy"] + b["price_economy"],
                    "price_business": a["price_business"] + b["price_business"],
                    "legs": [a, b],
                }
            )
    return {"origin": origin, "destination": destination, "date": date, "options": options[:20]}


@airline_service.tool(
    returns=FlightDate,
    says=[
        "what's the status of flight {flight_number} on {date}?",
        "is {flight_number} on {date} on time?",
    ],
)
def get_flight_status(db: Db, flight_number: Ref[Flight], date: StatusDay) -> dict:
    """A flight's status on a date (scheduled, delayed, cancelled, departed, landed), its delay and
    scheduled and expected times.

    Args:
        flight_number: The flight number, e.g. SW0142.
        date: The departure date.
    """
    db.get(Flight, flight_number)
    row = db.one(
        f"SELECT {SHOWN} FROM flight_dates WHERE flight_number = ? AND date = ?", flight_number, date
    )
    if row is None:
        span = db.one("SELECT min(date) AS lo, max(date) AS hi FROM flight_dates")
        raise ToolError(
            f"flight {flight_number} has no departure on {date}; dates on record: {span['lo']} to {span['hi']}"
        )
    expected = datetime.fromisoformat(row["departs_at"]) + timedelta(minutes=row["delay_min"])
    row["expected_departure"] = (
        None if row["status"] == "cancelled" else expected.isoformat(timespec="seconds")
    )
    return row
