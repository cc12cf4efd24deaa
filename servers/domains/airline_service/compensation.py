"""Compensation: a travel certificate for a member whose flight the airline cancelled or delayed."""

from __future__ import annotations

from servers.domains.airline_service.changes import ON_RESERVATION
from servers.domains.airline_service.model import (
    Certificate,
    Flight,
    PaymentMethod,
    Reservation,
    airline_service,
)
from servers.domains.airline_service.rules import legs
from servers.kit import Db, Money, Ref, ToolError

DISRUPTED = (  # correlated, like the leg conditions of ``rules``
    "EXISTS (SELECT 1 FROM reservation_flights rf JOIN flight_dates fd ON fd.id = rf.flight_date_id "
    "WHERE rf.reservation_id = reservations.id AND (fd.status = 'cancelled' OR fd.delay_min >= 150))"
)


@airline_service.tool(
    writes=[Certificate, PaymentMethod],
    returns=Certificate,
    says=[
        "my flight {flight_number} on reservation {reservation} was disrupted; can I get a {amount} certificate?",
        "issue a compensation certificate of {amount} for flight {flight_number} on booking {reservation}",
    ],
)
def issue_compensation_certificate(
    db: Db,
    reservation: Ref[Reservation, DISRUPTED],
    flight_number: Ref[Flight, ON_RESERVATION],
    amount: Money,
) -> dict:
    """Issue compensation. A travel certificate goes to the reservation's member for one of its
    flights; it is saved as a payment method with the amount as its balance (at most 500.00).

    Args:
        reservation: The reservation id.
        flight_number: The reservation's disrupted flight.
        amount: The certificate's value.
    """
    res = db.get(Reservation, reservation)
    leg = next((x for x in legs(db, reservation) if x["flight_number"] == flight_number), None)
    if leg is None:
        raise ToolError(f"flight {flight_number} is not on reservation {reservation}")
    if amount > 500:
        raise ToolError(f"a certificate is worth at most 500.00, not {amount:.2f}")
    number = db.scalar("SELECT count(*) FROM payment_methods WHERE kind = 'certificate'") + 1
    pm = db.insert(
        PaymentMethod,
        user_id=res["user_id"],
        kind="certificate",
        label=f"Certificate C{number:05d}",
        balance=amount,
        status="active",
        added_at=db.today.isoformat(),
    )
    return db.insert(
        Certificate,
        user_id=res["user_id"],
        reservation_id=reservation,
        flight_date_id=leg["id"],
        payment_method_id=pm["id"],
        amount=amount,
        issued_at=db.stamp(),
    )
