"""Rules several tools share (the token check, paying and refunding, the trip budget, fare rules)
and the SQL conditions the sampler uses to pick good inputs, which the tools enforce in turn."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Annotated

from pydantic import Field

from servers.domains.travel_booking.model import (
    CHANGE_FEE,
    CLOSE_DAYS,
    AccessToken,
    Charge,
    FlightDate,
    Itinerary,
    PaymentMethod,
    Traveler,
)
from servers.kit import Db, Ref, Sensitive, ToolError
from servers.kit.db import noun

NOW_SQL = "(SELECT value FROM _meta WHERE key = 'now')"
ME_SQL = "(SELECT traveler_id FROM sessions)"
LIVE_TOKEN = f"id = (SELECT access_token FROM sessions) AND status = 'active' AND expires_at > {NOW_SQL}"
BOOKABLE_SQL = (
    "status = 'scheduled' AND departs_utc > "
    f"strftime('%Y-%m-%dT%H:%M:%S', {NOW_SQL}, '+60 minutes') "
    "AND seats_left_basic + seats_left_economy + seats_left_business > 0"
)
MY_CARD = f"traveler_id = {ME_SQL} AND status = 'active'"
MY_TRIP = f"traveler_id = {ME_SQL} AND status = 'active'"
# each trip asks its own segments (segments' itinerary index) instead of every pick listing the
# 1,300 flown segments first
UNFLOWN = "NOT EXISTS (SELECT 1 FROM segments s WHERE s.itinerary_id = itineraries.id AND s.status = 'flown')"
FLIGHT_TRIP = f"{MY_TRIP} AND trip_type != 'hotel_only' AND {UNFLOWN}"
INSURABLE = (
    f"{FLIGHT_TRIP} AND insurance = 0 AND created_at >= strftime('%Y-%m-%dT%H:%M:%S', {NOW_SQL}, '-24 hours')"
)
CHANGEABLE_SEGMENT = (
    f"status = 'booked' AND cabin != 'basic_economy' AND itinerary_id IN (SELECT id FROM itineraries "
    f"WHERE {MY_TRIP})"
)
MY_PASSENGER = f"itinerary_id IN (SELECT id FROM itineraries WHERE {FLIGHT_TRIP})"
MY_STAY = f"status = 'booked' AND itinerary_id IN (SELECT id FROM itineraries WHERE {MY_TRIP})"

Token = Annotated[Ref[AccessToken, LIVE_TOKEN], Sensitive()]
WriteToken = Annotated[Ref[AccessToken, f"{LIVE_TOKEN} AND scope = 'read_write'"], Sensitive()]
MyCard = Ref[PaymentMethod, MY_CARD]
MyTrip = Ref[Itinerary, MY_TRIP]
FlightTrip = Ref[Itinerary, FLIGHT_TRIP]
AnyTrip = Ref[Itinerary, f"traveler_id = {ME_SQL}"]
Bookable = Ref[FlightDate, BOOKABLE_SQL]
Password = Annotated[
    str, Sensitive(), Field(min_length=1, max_length=128, description="The account password.")
]


def _m(x: float) -> str:
    return f"{x:,.2f}"


def _iso(moment: datetime) -> str:
    return moment.isoformat(timespec="seconds")


def _hours_until(db: Db, utc: str) -> float:
    return (datetime.fromisoformat(utc) - db.now).total_seconds() / 3600


def _age(dob: str, on: date) -> int:
    born = date.fromisoformat(dob)
    return on.year - born.year - ((on.month, on.day) < (born.month, born.day))


def ticket_number(passenger_id: str) -> str:
    """The e-ticket number of a passenger row: the carrier prefix 016 and the row number."""
    return f"016{int(passenger_id.rsplit('-', 1)[1]):010d}"


def segment_label(flight: str, day: str, code: str) -> str:
    return f"{flight} on {date.fromisoformat(day).strftime('%b %-d')} ({code})"


# -- the access token ----------------------------------------------------------------------------


def _auth(db: Db, access_token: str, *, write: str | None = None) -> dict:
    """The traveler the token was issued to, after every check a token-gated call makes.

    ``write`` names the action when the call changes something (a read-only token may not)."""
    row = db.find(AccessToken, access_token)
    session = db.acting()
    if row is None or row["status"] == "unissued":
        raise ToolError("invalid access token: it was never issued; authenticate first")
    if row["id"] != session["access_token"]:
        raise ToolError(
            "invalid access token: it is not the token of this session (it may be an older one); "
            "authenticate first"
        )
    if row["status"] != "active" or row["expires_at"] <= db.stamp():
        raise ToolError(f"access token expired at {row['expires_at']} UTC; authenticate again")
    if write and row["scope"] != "read_write":
        raise ToolError(
            f"access token has scope '{row['scope']}', which cannot {write}; "
            "authenticate with scope read_write"
        )
    return db.get(Traveler, row["traveler_id"])


def _mine(db: Db, table: type, key: str, me: dict) -> dict:
    """A row of ``table`` that belongs to the token's traveler (directly or through its itinerary)."""
    row = db.get(table, key)
    owner = row.get("traveler_id")
    if owner is None and row.get("itinerary_id"):
        owner = db.get(Itinerary, row["itinerary_id"])["traveler_id"]
    if owner != me["id"]:
        raise ToolError(
            f"{noun(table)} {key} does not belong to {me['name']} ({me['id']}), the signed-in traveler"
        )
    return row


def _trip(db: Db, itinerary: str, me: dict, *, active: bool = True) -> dict:
    trip = _mine(db, Itinerary, itinerary, me)
    if active and trip["status"] != "active":
        raise ToolError(
            f"itinerary {itinerary} ({trip['code']}) is {trip['status']}; only active ones change"
        )
    return trip


def _flown(db: Db, itinerary: str) -> int:
    return db.scalar("SELECT count(*) FROM segments WHERE itinerary_id = ? AND status = 'flown'", itinerary)


# -- paying ------------------------------------------------------------------------------------


def _available(card: dict) -> float:
    if card["kind"] == "credit_card":
        return round((card["credit_limit"] or 0) - card["balance"], 2)
    return round(card["balance"], 2)


def _card(db: Db, payment_method: str, me: dict, *, change: bool = False) -> dict:
    """A card of the traveler that may pay now; ``change``: paying for a change (no certificates)."""
    card = _mine(db, PaymentMethod, payment_method, me)
    month = db.today.isoformat()[:7]
    if card["status"] != "active" or card["expiry"] < month:
        raise ToolError(
            f"card {payment_method} ({card['nickname']}) expired in {card['expiry']}; use another card"
        )
    if change and card["kind"] == "travel_certificate":
        raise ToolError(
            f"card {payment_method} is a travel certificate, which pays only for new bookings, "
            "not for changes, bags or insurance; use a credit or gift card"
        )
    return card


def _pay(db: Db, card: dict, itinerary: str, amount: float, description: str) -> dict | None:
    """Charge ``amount`` (> 0) or refund ``-amount`` (< 0) to the card; the charge ledger row."""
    amount = round(amount, 2)
    if amount == 0:
        return None
    if amount > 0 and _available(card) < amount:
        what = "available credit" if card["kind"] == "credit_card" else "remaining balance"
        raise ToolError(
            f"card {card['id']} ({card['nickname']}) cannot pay {_m(amount)}: its {what} is "
            f"{_m(_available(card))} (short by {_m(amount - _available(card))})"
        )
    sign = 1 if card["kind"] == "credit_card" else -1
    db.update(PaymentMethod, card["id"], balance=round(card["balance"] + sign * amount, 2))
    card["balance"] = round(card["balance"] + sign * amount, 2)
    return db.insert(
        Charge,
        itinerary_id=itinerary,
        payment_method_id=card["id"],
        kind="charge" if amount > 0 else "refund",
        amount=amount,
        description=description,
        at=db.stamp(),
    )


def _refund_card(db: Db, itinerary: str) -> dict:
    """Refunds go back to the card that paid the booking (its first charge)."""
    pm = db.scalar(
        "SELECT payment_method_id FROM charges WHERE itinerary_id = ? AND kind = 'charge' ORDER BY id LIMIT 1",
        itinerary,
    )
    return db.get(PaymentMethod, pm)


def _within_budget(db: Db, me: dict, trip_total: float, what: str) -> None:
    """The per-trip budget limit: no itinerary may cost more than it in total."""
    limit = db.scalar("SELECT trip_limit FROM budgets WHERE traveler_id = ?", me["id"])
    if limit is not None and trip_total > limit + 1e-9:
        raise ToolError(
            f"{what} would bring the trip to {_m(trip_total)}, over your per-trip budget limit of "
            f"{_m(limit)} (by {_m(trip_total - limit)}); raise it with set_budget_limit or choose a cheaper option"
        )


def _budget_row(db: Db, me: dict) -> dict | None:
    return db.one("SELECT * FROM budgets WHERE traveler_id = ?", me["id"])


def _totals(db: Db, itinerary: str, *, fare: float = 0.0, extras: float = 0.0) -> dict:
    """Add to an itinerary's fare / extras and recompute its net total from the ledger."""
    trip = db.get(Itinerary, itinerary)
    net = db.scalar("SELECT coalesce(sum(amount), 0) FROM charges WHERE itinerary_id = ?", itinerary)
    return db.update(
        Itinerary,
        itinerary,
        fare_paid=round(trip["fare_paid"] + fare, 2),
        extras_paid=round(trip["extras_paid"] + extras, 2),
        total_paid=round(net, 2),
    )


# -- fares -----------------------------------------------------------------------------------


def _price_col(cabin: str) -> str:
    return {"basic_economy": "price_basic", "economy": "price_economy", "business": "price_business"}[cabin]


def _seats_col(cabin: str) -> str:
    return {
        "basic_economy": "seats_left_basic",
        "economy": "seats_left_economy",
        "business": "seats_left_business",
    }[cabin]


def _bookable(db: Db, fd: dict, cabin: str, passengers: int) -> None:
    """A flight date that can still be sold: scheduled, departing in more than an hour, seats left."""
    label = f"{fd['flight_id']} on {fd['day']} ({fd['id']})"
    if fd["status"] != "scheduled":
        raise ToolError(f"flight {label} is {fd['status']}; only scheduled flights can be booked")
    cutoff = _iso(db.now + timedelta(minutes=60))
    if fd["departs_utc"] <= cutoff:
        raise ToolError(
            f"flight {label} departs at {fd['departs_utc']} UTC, within the hour or already gone; "
            "bookings close 60 minutes before departure"
        )
    left = fd[_seats_col(cabin)]
    if left < passengers:
        raise ToolError(f"flight {label} has {left} {cabin} seats left; {passengers} needed")


def _change_fee(db: Db, cabin: str, departs_utc: str, passengers: int) -> float:
    fees = CHANGE_FEE[cabin]
    if fees is None:
        raise ToolError(
            "basic economy fares cannot be changed; cancel under the fare rules or contact support"
        )
    close = _hours_until(db, departs_utc) < CLOSE_DAYS * 24
    return round((fees[1] if close else fees[0]) * passengers, 2)


def _budget_or_none(db: Db, me: dict) -> float | None:
    row = db.one("SELECT trip_limit FROM budgets WHERE traveler_id = ?", me["id"])
    return None if row is None else row["trip_limit"]


def _public_card(card: dict) -> dict:
    out = {k: v for k, v in card.items() if k not in ("pan", "traveler_id")}
    out["available"] = _available(card)
    return out


# -- hotels ---------------------------------------------------------------------------------------


def _nights(check_in: str, nights: int) -> list[str]:
    start = datetime.fromisoformat(check_in).date()
    return [(start + timedelta(days=k)).isoformat() for k in range(nights)]


def _rooms_free(db: Db, room: dict, check_in: str, nights: int) -> int:
    """Rooms of this type free on every night of the stay: total minus the busiest night's bookings."""
    days = _nights(check_in, nights)
    check_out = (datetime.fromisoformat(days[-1]) + timedelta(days=1)).date().isoformat()
    stays = db.all(
        "SELECT check_in, check_out FROM stays WHERE room_type_id = ? AND status = 'booked' "
        "AND check_in < ? AND check_out > ?",
        room["id"],
        check_out,
        check_in,
    )
    busiest = max((sum(1 for s in stays if s["check_in"] <= d < s["check_out"]) for d in days), default=0)
    return room["total_rooms"] - busiest


def _stay_dates(db: Db, check_in: str, nights: int) -> str:
    """The check-out day, after the date rules every hotel call shares."""
    today = db.today.isoformat()
    if check_in < today:
        raise ToolError(f"check-in {check_in} is in the past (today is {today})")
    if not 1 <= nights <= 30:
        raise ToolError(f"a stay is 1-30 nights, got {nights}")
    return (datetime.fromisoformat(check_in) + timedelta(days=nights)).date().isoformat()
