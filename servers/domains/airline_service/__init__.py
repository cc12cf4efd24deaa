"""Airline customer-service desk (Skyward Air) with a written policy, the shape of tau2-bench's
airline domain: the agent serves members by explicit member id, looks up flights and
reservations, and books, changes and cancels for them.

Acting model: a service agent at the desk; tools take member and reservation ids explicitly.
Who the caller is must be established first: ``find_user`` (email and full name) finds a
member's id, and ``verify_user`` (email and date of birth) records in the one-row
``sessions`` table that this conversation's caller is that member (nobody at the start).

Reference moment: Monday 2026-06-01 09:00 in the airline's network time (one clock for every
airport). Flights exist on every date from 20 days back to 39 days ahead (medium); statuses are
as of the reference moment and nothing departs by itself.

The policy (``get_policy``, ``policy://airline_service``, :mod:`.policy`) is *written*: the
service does what it is asked and logs each broken rule in ``policy_breach``; the ``enforced``
variant refuses such calls instead. Its rules: verify the member first; at most 5 passengers; one
cabin across a reservation; basic economy cannot change; free bags by tier and cabin, the rest
paid; insurance only at booking; cancellation only within 24 h of booking, after an airline
cancellation, in business, or insured for health or weather; compensation only for eligible
members and disrupted flights, once per reservation; an explicit yes before any change.

Rules the service itself enforces, each refused with an error naming the values involved:

* Booking: 1-9 passengers ('First Last YYYY-MM-DD; ...', default the member alone); flights
  scheduled or delayed, departing after now, in departure order, each leaving where the last
  landed at least 45 minutes later; seats left in the cabin for everyone; at most 5 bags per
  passenger, paid bags no more than bags; the payment method is the member's, active, and a
  gift card or certificate must hold the total.
* Changes need an active reservation and touch only flights not yet flown: a flight moves to
  another flight on the same route that keeps the trip in order; a cabin change reprices at
  today's fare; the fare difference is charged or refunded to a credit card or gift card
  (certificates pay only for bookings). Passenger corrections never change the count.
* Bags are added, never removed (at most 5 per passenger); insurance is 30.00 per passenger,
  once.
* Cancelling needs an active reservation none of whose flights has flown; seats are released and
  every payment is refunded to its method.
* A compensation certificate is for a flight of the reservation, worth at most 500.00, and is
  saved as a payment method of the member.
"""

from servers.domains.airline_service import (
    changes,
    compensation,
    flights,
    members,
    policy,
    reservations,
    seed,
)
from servers.domains.airline_service.model import airline_service

# the modules that declare the domain; its tools are shown to agents in this order
airline_service.include(policy, seed, members, flights, reservations, changes, compensation)

__all__ = ["airline_service"]

# the words its callers use and its agent answers with (read by the task generator)
from servers.domains.airline_service import language as _language  # noqa: E402,F401
