"""Facts about reservations that both the tools and the written policy read: which flights have
flown, what a reservation's bag allowance is, whether a flight was disrupted, how old a booking
is. Pure reads; nothing here writes."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from servers.domains.airline_service.model import (
    COVERED_REASONS,
    DISRUPTION_DELAY_MIN,
    FLOWN,
    FREE_BAGS,
    FlightDate,
    Payment,
    PaymentMethod,
    Reservation,
    User,
)
from servers.kit import Db, ToolError

NOW_SQL = "(SELECT value FROM _meta WHERE key = 'now')"
OPEN_FLIGHT = f"status IN ('scheduled', 'delayed') AND departs_at > {NOW_SQL}"
ACTIVE = "status = 'active'"
# Conditions on a reservation's own legs are correlated EXISTS over its reservation_flights rows
# (an index lookup per reservation tried), not ``id IN (...)``, which SQLite would materialize by
# joining every booked leg to its flight date each time a sampler query runs.
UNFLOWN = (
    "EXISTS (SELECT 1 FROM reservation_flights rf JOIN flight_dates fd ON fd.id = rf.flight_date_id "
    f"WHERE rf.reservation_id = reservations.id AND fd.departs_at > {NOW_SQL} AND fd.status NOT IN "
    "('departed', 'landed', 'cancelled'))"
)
NOTHING_FLOWN = (
    "NOT EXISTS (SELECT 1 FROM reservation_flights rf JOIN flight_dates fd ON fd.id = rf.flight_date_id "
    "WHERE rf.reservation_id = reservations.id AND fd.status IN ('departed', 'landed'))"
)
CHANGEABLE = f"{ACTIVE} AND {UNFLOWN}"
OWN_METHOD = "user_id = (SELECT user_id FROM reservations WHERE id = :reservation) AND status = 'active'"


def money(x: float) -> float:
    return round(x + 0.0, 2)


def reservation(db: Db, rid: str) -> dict[str, Any]:
    return db.get(Reservation, rid)


def legs(db: Db, rid: str) -> list[dict[str, Any]]:
    """The reservation's flights in travel order, each with its flight-date row's facts."""
    return db.all(
        "SELECT rf.id AS segment_id, rf.position, rf.cabin, rf.price, fd.* FROM reservation_flights rf "
        "JOIN flight_dates fd ON fd.id = rf.flight_date_id WHERE rf.reservation_id = ? ORDER BY rf.position",
        rid,
    )


def flown(leg: dict[str, Any]) -> bool:
    return leg["status"] in FLOWN


def hours_since_booking(db: Db, res: dict[str, Any]) -> float:
    return (db.now - datetime.fromisoformat(res["created_at"])).total_seconds() / 3600


def free_bags(db: Db, res: dict[str, Any], cabin: str | None = None) -> int:
    """The free checked bags of the whole reservation: per passenger by tier and cabin."""
    tier = db.get(User, res["user_id"])["membership"]
    cabin = cabin or res["cabin"]
    # a reservation whose flights are in different cabins gets the lowest cabin's allowance
    per = FREE_BAGS[tier]["basic_economy" if cabin == "mixed" else cabin]
    return per * res["passenger_count"]


def disruption(fd: dict[str, Any]) -> str | None:
    """``cancelled``, ``delayed`` (by the disruption threshold or more) or None."""
    if fd["status"] == "cancelled":
        return "cancelled"
    if fd["delay_min"] >= DISRUPTION_DELAY_MIN:
        return "delayed"
    return None


def airline_cancelled(db: Db, rid: str) -> list[dict[str, Any]]:
    return [leg for leg in legs(db, rid) if leg["status"] == "cancelled"]


def cancellation_grounds(db: Db, res: dict[str, Any], reason: str) -> str | None:
    """The ground that makes a cancellation eligible, or None (the 24-hour window is apart)."""
    if airline_cancelled(db, res["id"]):
        return "a flight was cancelled by the airline"
    if res["cabin"] == "business":
        return "business cabin"
    if res["insurance"] and reason in COVERED_REASONS:
        return f"insured, reason {reason}"
    return None


def method_for(db: Db, pmid: str, user_id: str, amount: float, *, booking: bool) -> dict[str, Any]:
    """A payment method of this user that can pay ``amount`` (certificates only for bookings)."""
    pm = db.get(PaymentMethod, pmid)
    if pm["user_id"] != user_id:
        raise ToolError(f"payment method {pmid} belongs to {pm['user_id']}, not {user_id}")
    if pm["status"] != "active":
        raise ToolError(f"payment method {pmid} ({pm['label']}) is {pm['status']}")
    if pm["kind"] == "certificate" and not booking:
        raise ToolError(
            f"payment method {pmid} is a travel certificate: certificates pay only for new bookings; "
            "use a credit card or gift card"
        )
    if pm["balance"] is not None and pm["balance"] + 1e-9 < amount:
        raise ToolError(
            f"payment method {pmid} ({pm['label']}) has {pm['balance']:.2f} left, not enough for {amount:.2f}"
        )
    return pm


def charge(db: Db, rid: str, pm: dict[str, Any], amount: float, memo: str, kind: str = "charge") -> None:
    """Record a charge (or refund) and move a gift card's or certificate's balance."""
    amount = money(amount)
    if amount <= 0:
        return
    if pm["balance"] is not None:
        left = money(pm["balance"] - amount if kind == "charge" else pm["balance"] + amount)
        db.update(PaymentMethod, pm["id"], balance=left, status="used" if left <= 0 else "active")
    db.add(
        Payment,
        reservation_id=rid,
        payment_method_id=pm["id"],
        kind=kind,
        amount=amount,
        memo=memo,
        created_at=db.stamp(),
    )


def fare(fd: dict[str, Any], cabin: str) -> float:
    return float(fd[f"price_{cabin}"])


def seats_left(fd: dict[str, Any], cabin: str) -> int:
    return int(fd[f"seats_{cabin}"])


def take_seats(db: Db, fd: dict[str, Any], cabin: str, n: int) -> None:
    """Hold ``n`` seats (negative: give them back); refuses when the cabin is short."""
    left = seats_left(fd, cabin)
    if n > left:
        raise ToolError(
            f"flight {fd['flight_number']} on {fd['date']} has {left} {cabin} seats left, {n} needed"
        )
    db.update(FlightDate, fd["id"], **{f"seats_{cabin}": left - n})


def bookable(db: Db, fd: dict[str, Any]) -> None:
    if fd["status"] not in ("scheduled", "delayed"):
        raise ToolError(
            f"flight {fd['flight_number']} on {fd['date']} is {fd['status']}: it cannot be booked"
        )
    if fd["departs_at"] <= db.stamp():
        raise ToolError(
            f"flight {fd['flight_number']} on {fd['date']} departed at {fd['departs_at']}; "
            f"only flights after {db.stamp()} can be booked"
        )


def public_user(u: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in u.items() if k != "dob"}


def parse_passengers(text: str | None, lead: dict[str, Any]) -> list[tuple[str, str, str]]:
    """``"Ana Lopez 1990-04-12; Ben Lopez 2015-09-30"`` as (first, last, dob); None: the user alone."""
    if text is None:
        return [(lead["first_name"], lead["last_name"], lead["dob"])]
    out = []
    for part in (p.strip() for p in text.split(";")):
        if not part:
            continue
        words = part.split()
        if len(words) < 3:
            raise ToolError(f"passenger {part!r}: write 'First Last YYYY-MM-DD'")
        try:
            datetime.strptime(words[-1], "%Y-%m-%d")
        except ValueError:
            raise ToolError(f"passenger {part!r}: {words[-1]!r} is not a date of birth YYYY-MM-DD") from None
        out.append((words[0], " ".join(words[1:-1]), words[-1]))
    if not out:
        raise ToolError("passengers: name at least one, as 'First Last YYYY-MM-DD; ...'")
    return out
