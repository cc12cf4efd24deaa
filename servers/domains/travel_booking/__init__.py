"""Travel booking: flights, hotels and itineraries of a traveler account behind an access token
(the shape of BFCL's TravelAPI and tau2-bench's airline desk).

Acting model: ``authenticate`` (email, password, scope ``read`` or ``read_write``) issues an
access token and stores it in the one-row ``sessions`` table; every account tool takes that token
as its ``access_token`` argument and acts for the traveler it was issued to. Only the session's
current token is valid: an older one, an expired one or one never issued is refused with
"invalid access token ...; authenticate first", and a ``read`` token cannot change anything.
The snapshot starts signed in as the persona (TRV-000001, world person 0) with a live
``read_write`` token issued at 15:30 UTC; the ``token_expired`` variant expires it, so every
account tool refuses until the traveler authenticates again. Tokens are secrets: discovery tools
never show them and ``get_login_status`` says who is signed in without repeating the token. Each
traveler has a short series of tokens the service hands out in order, at most 3 sign-ins a day.
Airports, flights, flight status, hotels and exchange rates need no token.

Reference moment: Monday 2026-06-01 16:00 UTC (09:00 in Portland, where the persona lives). Rules
compare UTC times; flight times are also shown local to their airports. Flight dates exist from
two weeks back to 75 days ahead; nothing departs or lands by itself.

Rules the service enforces, each refused with an error naming the values involved:

* Booking flights: up to 4 flights in one cabin for 1-5 passengers (default: the traveler alone),
  each ``scheduled``, departing more than 60 minutes from now, with seats left in that cabin for
  everyone; flights are taken in departure order and may not overlap (a connection needs 45
  minutes). The lead passenger must be 18 or older.
* Paying: the card belongs to the traveler, is active and unexpired; a credit card needs
  ``credit_limit - balance`` to cover the amount, gift cards and travel certificates their balance.
  Travel certificates pay only for new bookings, never for changes, bags or insurance. No
  itinerary may cost more in total than the traveler's per-trip budget limit, if one is set.
* Bags: free checked bags per passenger by membership and cabin (regular 0/1/2, silver 1/2/3,
  gold 2/3/4 for basic economy/economy/business), extra bags 50.00 each, at most 5 per passenger;
  bags can be added, never removed, and not after a segment has flown.
* Insurance: 30.00 per passenger, at booking or within 24 hours after it.
* Changes: basic economy cannot change flights; economy pays 75.00 per passenger (150.00 within
  7 days of departure), business nothing; the new flight keeps the route, and the fare
  difference is charged or refunded. Cabin changes (basic economy may upgrade) reprice every
  unflown segment. Passenger names may be corrected, not transferred (first and last name never
  both change); nothing changes once a segment has flown.
* Cancelling: everything is refunded if booked within the last 24 hours, if the airline cancelled
  a flight, for business fares, or when insured and the reason is health or weather; an economy
  fare 7 or more days out refunds all but 100.00 per passenger; anything else refunds nothing and
  needs ``accept_no_refund=true``. A trip with a flown segment goes to ``contact_support``.
  Refunds go to the card that paid the booking.
* Hotels: 1-30 nights from today on, guests within the room's capacity, a room free every night
  (availability = rooms of the type minus booked stays). Refundable stays cancel free until 24
  hours before check-in (15:00), later the first night is kept; non-refundable stays refund nothing.
* Cards: a new card must pass the Luhn checksum, not be expired or saved already, and come with
  a 3-digit (Amex: 4-digit) security code, which is checked and never stored.
* Support: at most 5 open tickets per traveler.

Charges and support tickets are append-only ledgers; ``get_invoice`` reads the charges.
"""

from servers.domains.travel_booking import account, booking, cancelling, catalog, documents, seed, trips
from servers.domains.travel_booking.model import travel_booking

# the modules that declare the domain; its tools are shown to agents in this order
travel_booking.include(seed, account, catalog, booking, trips, cancelling, documents)

__all__ = ["travel_booking"]

# the words its travelers use and its assistant answers with (read by the task generator)
from servers.domains.travel_booking import language as _language  # noqa: E402,F401
