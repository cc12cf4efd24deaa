"""Cancelling itineraries and hotel stays, with the refunds the fare and room rules allow."""

from __future__ import annotations

from datetime import datetime, timedelta

from servers.domains.travel_booking.model import (
    CANCEL_FEE_FAR,
    CLOSE_DAYS,
    FREE_CANCEL_H,
    CancelReason,
    Charge,
    FlightDate,
    Itinerary,
    PaymentMethod,
    Segment,
    Stay,
    travel_booking,
)
from servers.domains.travel_booking.rules import (
    FLIGHT_TRIP,
    MY_STAY,
    WriteToken,
    _auth,
    _flown,
    _hours_until,
    _m,
    _mine,
    _pay,
    _refund_card,
    _seats_col,
    _totals,
    _trip,
)
from servers.domains.travel_booking.trips import _segments
from servers.kit import Db, Ref, ToolError

# -- cancelling --------------------------------------------------------------------------------


def _flight_refund(db: Db, trip: dict, segs: list[dict], reason: str) -> tuple[float, str]:
    """What cancelling the flights refunds under the fare rules, and why."""
    paid = round(trip["fare_paid"] + trip["extras_paid"], 2)
    booked = datetime.fromisoformat(trip["created_at"])
    if db.now - booked <= timedelta(hours=FREE_CANCEL_H):
        return paid, "booked within the last 24 hours"
    if any(s["flight_status"] == "cancelled" for s in segs):
        return paid, "the airline cancelled a flight"
    if trip["cabin"] == "business":
        return paid, "business fares are fully refundable"
    if trip["insurance"] and reason in ("health", "weather"):
        return paid, f"insured, and the reason is {reason}"
    fee = CANCEL_FEE_FAR.get(trip["cabin"])
    first = min((s["departs_utc"] for s in segs if s["status"] == "booked"), default=None)
    if fee is not None and first and _hours_until(db, first) >= CLOSE_DAYS * 24:
        fee_total = round(fee * trip["passengers"], 2)
        return max(0.0, round(trip["fare_paid"] - fee_total, 2)), f"economy fare minus a {_m(fee_total)} fee"
    return (
        0.0,
        f"{trip['cabin']} fare within {CLOSE_DAYS} days of departure"
        if fee is not None
        else "basic economy fare",
    )


def _stay_refund(db: Db, stay: dict) -> float:
    if not stay["refundable"]:
        return 0.0
    hours = (datetime.fromisoformat(stay["check_in"] + "T15:00:00") - db.now).total_seconds() / 3600
    return stay["total_paid"] if hours >= 24 else round(stay["total_paid"] - stay["nightly_price"], 2)


def _release(db: Db, trip: dict, segs: list[dict], stays: list[dict]) -> None:
    """Cancel the booked segments, giving their seats back to the flights, and the stays."""
    for s in segs:
        if s["status"] == "booked":
            fd = db.get(FlightDate, s["flight_date_id"])
            db.update(
                FlightDate,
                fd["id"],
                **{_seats_col(s["cabin"]): fd[_seats_col(s["cabin"])] + trip["passengers"]},
            )
            db.update(Segment, s["id"], status="cancelled")
    for st in stays:
        db.update(Stay, st["id"], status="cancelled")


@travel_booking.tool(
    writes=[Itinerary, Segment, Stay, FlightDate, Charge, PaymentMethod],
    returns=Itinerary,
    destructive=True,
    says=[
        "cancel itinerary {itinerary} with my access token {access_token}; the reason is {reason}",
        "cancel itinerary {itinerary} ({reason}), even if I get no refund: {accept_no_refund}, using my access token {access_token}",
    ],
)
def cancel_itinerary(
    db: Db,
    access_token: WriteToken,
    itinerary: Ref[Itinerary, FLIGHT_TRIP],
    reason: CancelReason,
    accept_no_refund: bool = False,
) -> dict:
    """Cancel an itinerary's flights and stays, refunding what the rules allow to the card that
    paid: everything if booked within 24 hours, if the airline cancelled a flight, for business
    fares, or when insured and the reason is health or weather; an economy fare 7+ days out loses
    100.00 per passenger; otherwise nothing, which must be accepted with accept_no_refund. Trips
    with a flown segment go to contact_support.

    Args:
        access_token: The token authenticate returned (scope read_write).
        itinerary: The itinerary to cancel.
        reason: change_of_plans, health, weather, airline_cancelled or personal.
        accept_no_refund: Cancel even when the rules refund nothing.
    """
    me = _auth(db, access_token, write="cancel trips")
    trip = _trip(db, itinerary, me)
    if _flown(db, itinerary):
        raise ToolError(
            f"itinerary {itinerary} ({trip['code']}) has a flown segment; contact_support can help"
        )
    segs = _segments(db, itinerary)
    if reason == "airline_cancelled" and not any(s["flight_status"] == "cancelled" for s in segs):
        raise ToolError(
            f"no flight on itinerary {itinerary} was cancelled by the airline; choose another reason"
        )
    refund, why = _flight_refund(db, trip, segs, reason) if segs else (0.0, "no flights")
    stays = db.all("SELECT * FROM stays WHERE itinerary_id = ? AND status = 'booked'", itinerary)
    refund = round(refund + sum(_stay_refund(db, s) for s in stays), 2)
    if refund == 0 and not accept_no_refund:
        raise ToolError(
            f"cancelling itinerary {itinerary} ({trip['code']}) refunds nothing ({why}); "
            "call again with accept_no_refund=true to cancel anyway"
        )
    _release(db, trip, segs, stays)
    db.update(Itinerary, itinerary, status="cancelled", cancelled_at=db.stamp(), cancel_reason=reason)
    if refund:
        _pay(db, _refund_card(db, itinerary), itinerary, -refund, f"Refund on cancellation ({why})")
    trip = _totals(db, itinerary)
    return {
        "itinerary": itinerary,
        "code": trip["code"],
        "status": "cancelled",
        "refund": refund,
        "refund_rule": why,
        "total_paid": trip["total_paid"],
    }


@travel_booking.tool(
    writes=[Stay, Itinerary, Charge, PaymentMethod],
    returns=Stay,
    destructive=True,
    says=[
        "cancel stay {stay}, using my access token {access_token}",
        "I no longer need the room, please cancel stay {stay} with my access token {access_token}",
    ],
)
def cancel_stay(db: Db, access_token: WriteToken, stay: Ref[Stay, MY_STAY]) -> dict:
    """Cancel one hotel stay: refundable rooms are free to cancel until 24 hours before check-in
    (15:00), later the first night is kept; non-refundable rooms refund nothing.

    Args:
        access_token: The token authenticate returned (scope read_write).
        stay: The stay to cancel.
    """
    me = _auth(db, access_token, write="cancel stays")
    st = _mine(db, Stay, stay, me)
    trip = _trip(db, st["itinerary_id"], me)
    if st["status"] != "booked":
        raise ToolError(f"stay {stay} is {st['status']}; only booked stays can be cancelled")
    refund = _stay_refund(db, st)
    db.update(Stay, stay, status="cancelled")
    if refund:
        _pay(db, _refund_card(db, trip["id"]), trip["id"], -refund, f"Refund for stay {stay}")
    others = db.scalar("SELECT count(*) FROM stays WHERE itinerary_id = ? AND status = 'booked'", trip["id"])
    if trip["trip_type"] == "hotel_only" and not others:
        db.update(
            Itinerary, trip["id"], status="cancelled", cancelled_at=db.stamp(), cancel_reason="personal"
        )
    trip = _totals(db, trip["id"])
    return {
        "stay": stay,
        "status": "cancelled",
        "refund": refund,
        "refundable": bool(st["refundable"]),
        "itinerary": trip["id"],
        "itinerary_status": trip["status"],
    }
