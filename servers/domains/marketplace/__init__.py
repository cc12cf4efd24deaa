"""Marketplace: an online market where one signed-in account both buys and sells (the shape of
eBay's Trading API: proxy bids, Buy It Now, best offers with counter-offers, ending items early).

Acting model: the one-row ``sessions`` table names the signed-in user; there is no login, and every
rule about "who" uses that user. The snapshot is signed in as the persona (USR-000001, world
person 0), who runs a small second-hand shop on the side: hundreds of listings in every state,
buyers' offers waiting for an answer and paid orders to ship, besides bidding, offering and
buying from others. The other users are people of the shared world (the persona's circle:
colleagues first), with their home addresses as shipping addresses and their cities as item
locations.

Reference moment: Monday 2026-06-01 16:00 UTC (09:00 in Portland, where the persona lives).
Times are stored and compared in UTC; tools also show them on the signed-in user's clock, and a
date-time parameter (``ending_before``) is read on that clock unless it carries an offset.
Nothing happens by itself: auctions stay live until their end time is reached by the frozen
clock (never, within an episode), and only tools change state.

Rules the service enforces, each refused with an error naming the values involved:

* Bidding: only on live auctions (active, end time not reached), never your own, not while your
  account is suspended. The first maximum must reach the starting price, later ones the current
  price plus the increment of its price band (0.05 under 1.00, 0.25 to 5, 0.50 to 25, 1.00 to
  100, 2.50 to 250, 5.00 to 500, 10.00 to 1,000, 25.00 to 2,500, 50.00 to 5,000, then 100.00);
  the refusal names the minimum. Proxy bidding: the price is the lower of the top maximum and the
  runner-up's maximum plus one increment (the starting price with one bidder), raised to the
  reserve once the top maximum meets it; equal maxima go to the earlier bid; a maximum under the
  leader's is accepted and outbid at once. The high bidder may only raise their own maximum.
* Reserve prices are hidden from everyone but the seller: buyers see whether there is one and
  whether it is met. Bid maxima are private to their bidder.
* Retracting: only your latest bid on a listing, only while it still counts and more than 12
  hours remain, for one of three reasons; it withdraws all your bids there and reprices.
* Buy It Now: fixed-price listings up to the quantity left; on an auction only until its first
  bid. Never your own listing. A purchase is an order awaiting payment.
* Offers: only on live fixed-price listings that accept best offers, below the Buy It Now price,
  at most 3 per buyer and listing and one open at a time; an offer under the seller's hidden
  floor is declined at once. Offers and counter-offers expire 48 hours after they were made. The
  seller accepts, declines or counters a pending offer once (between the offer and the Buy It
  Now price); the buyer accepts or declines a counter, or withdraws a pending offer. Accepting
  needs the quantity to still be there and creates an order; a listing that sells out declines
  its remaining open offers.
* Listing: an auction has a start price, an optional reserve above it and an optional Buy It Now
  price at least 30% above the start, and sells one item; a fixed-price listing has a price and
  a quantity and may take best offers (auctions never do), with an optional automatic-decline
  floor below the price. Listings go in subcategories and last 1, 3, 5, 7 or 10 days.
* Revising: only your live listings; once an auction has bids its prices are fixed (title,
  description and shipping can still change).
* Ending early: an auction with bids needs an outcome: ``sell_to_high_bidder`` (only if the
  reserve is met; the high bidder gets an order at the current price) or ``cancel`` (all bids are
  cancelled, the listing is cancelled). Without bids the listing just ends, declining open offers.
* Relisting: your ended or cancelled listings that did not sell out, each once.
* Orders: only the buyer pays, and only an order awaiting payment; only the seller ships, only a
  paid order, with a carrier and a tracking number no other order has.
* Feedback: by the buyer and by the seller of an order, once each, after payment and within 60
  days of the order; sellers may leave buyers only positive feedback. It updates the rated
  user's feedback score (positives minus negatives) and positive percentage.

Bids and feedback are append-only (a bid's status changes, the row stays).
"""

from servers.domains.marketplace import bidding, browsing, offers, orders, seed, selling, shop
from servers.domains.marketplace.model import marketplace

# the modules that declare the domain; its tools are shown to agents in this order
marketplace.include(seed, browsing, bidding, offers, selling, shop, orders)

__all__ = ["marketplace"]

# the words its users speak and its assistant answers with (read by the task generator)
from servers.domains.marketplace import language as _language  # noqa: E402,F401
