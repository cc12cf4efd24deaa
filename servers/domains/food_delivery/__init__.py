"""Food delivery: a platform's support console over restaurants, menus, carts, orders and couriers
(order lifecycle in the shape of the Uber Eats merchant APIs and tau2-bench's retail desk).

Acting model: a support and operations console with explicit ids, like a bank's service desk.
The agent acts for customers (cart, checkout, cancel, refund, rate), for restaurants (accept,
reject, mark ready, pause, mark items sold out) and for dispatch (assign a courier, confirm
pickup and delivery), so an order's whole life can be driven while time stands still. Customers
are people of the shared world at their home addresses (CUS-000001 is the persona, in Portland);
``find_customer`` finds one by email. Couriers are world people too, working in their home city.

Restaurants are exactly the shared world's restaurants (``world.restaurants``): same names,
cuisines, addresses, phones, ratings and opening hours (local time, Monday first) as maps and
bank statements show. The platform adds its own delivery settings per restaurant: status
``online`` / ``paused`` (until a time) / ``closed`` (off the platform), prep minutes, delivery
radius (road km), minimum order and delivery fee.

Reference moment: Monday 2026-06-01 09:00, local time in every city (``get_current_time`` gives
a city's zone and UTC offset). Opening hours, order times and ETAs are the restaurant's local
time; a ``Moment`` with a UTC offset is converted with the city's time zone. At 09:00 breakfast
places and cafés are open and dinner places are not, so "open now" is a real filter. Nothing
advances by itself: every lifecycle step is a tool call stamped with the reference moment.

Distances are ``geo.route`` road distances, the same numbers maps gives: restaurant to delivery
address by driving for the delivery radius, courier legs by the courier's vehicle (bikes cycle,
scooters and cars drive).

Rules the platform enforces, each refused with an error naming the values involved:

* Cart: one restaurant at a time; the item not sold out; the restaurant on the platform (not
  ``closed``) and delivering to the customer's home; 1-30 of one line; options must be the item's
  own, one per pick-one group (size, milk, spice level).
* Checkout: the cart's items still available; the restaurant online, not paused, and open now, or
  open at ``scheduled_for`` (30 minutes to 7 days ahead, within that day's hours and after any
  pause); the address (home, or another on the map) within the radius by road; subtotal at least
  the minimum order; tip 0 to half the subtotal. Fees: delivery fee (free for Plus members),
  service fee 8% of the subtotal (1.00-8.00). A promo must exist, not be expired (expiry day
  included) or used up, be the customer's first order if it says so, be used once per customer,
  and meet its minimum subtotal; free-delivery promos need a delivery fee to waive. Platform
  credit pays first, the card on file the rest.
* Lifecycle: placed -> accepted (restaurant, with a prep time 5-90 min) -> ready -> picked_up ->
  delivered; placed -> rejected (out_of_items, kitchen_closed, too_busy, other; the ran-out items
  become sold out). A courier is assigned to accepted or ready orders only: available, in the
  restaurant's city (named, or the one who reaches the restaurant soonest); they become busy.
  Pickup needs a ready order with a courier; delivery needs a picked-up one and frees the
  courier at the delivery address. Each step appends an ``order_events`` row and recomputes the ETA.
* Cancelling: free while placed; half the subtotal once accepted or ready; the whole subtotal once
  a courier is assigned; refused once picked up ("already on its way") or finished. What is not
  kept is refunded at once, to the card as far as the card paid, the rest as credit.
* Refunds: delivered orders (missing_item, wrong_item, quality, late; late only if delivered after
  the ETA) and cancelled ones (their fee, reason cancelled); all refunds of an order never exceed
  what was paid; ``original`` goes back to the card, at most what the card paid; ``credit`` adds to
  the customer's platform credit.
* Restaurants: a pause ends in the future, at most 7 days ahead (the end of today if not given);
  a paused restaurant takes no orders; a ``closed`` one cannot be set online or paused here.
* Ratings: delivered orders only, once.

Order events and refunds are append-only.
"""

from servers.domains.food_delivery import carts, checkout, dispatch, kitchen, orders, places, seed
from servers.domains.food_delivery.model import food_delivery

# the modules that declare the domain; its tools are shown to agents in this order
food_delivery.include(seed, places, carts, checkout, orders, kitchen, dispatch)

__all__ = ["food_delivery"]

# the words its customers, staff and dispatchers use and its assistant answers with (read by the task generator)
from servers.domains.food_delivery import language as _language  # noqa: E402,F401
