"""A retail chain's store-operations console: stock per store, transfers between stores, supplier
reorders, pickup holds and markdowns (the shape of Shopify inventory levels per location and
Square's adjustment ledger).

Acting model: an operations console with explicit ids. Every tool names the store, product,
transfer, pickup or reorder it acts on, and every change records the employee who made it.
Staff are world people: the persona (world person 0, employee EMP-000001) manages the Portland
Flagship (STO-000001); colleagues and the rest of the persona's circle staff the other stores.
Stores sit on the shared city grids (their addresses geocode in maps), and suppliers are world
companies.

Reference moment: Monday 2026-06-01 09:00 head-office time (Portland, America/Los_Angeles). A
store is open now when its status is ``open`` and its local time is within its hours. Nothing
moves by itself: transfers ship and arrive, deliveries come in and customers collect only when
a tool says so.

Stock per (store, product): ``on_hand`` (units in the building), ``committed`` (held by active
pickups and by requested outbound transfers), ``unavailable`` (damaged or quarantined),
``incoming`` (on open supplier reorders); ``available = on_hand - committed - unavailable``.

Rules, each refused with an error that names the values and what is allowed, changing nothing:
- Staff: the employee must be active and work at the store the change is for (for a transfer,
  either store to request or cancel it, the source to ship it, the destination to receive it);
  a regional manager may act at any store of their region (West, Central, East, International).
  A change that names no employee is recorded under the store's manager on duty (its first
  active manager, else its regional manager).
- No negative stock: no change may make on-hand or available negative.
- Adjustments: damaged and theft are write-offs (negative) and above 10 units need a manager;
  customer_return and received are positive; count_correction either way. A stock count sets
  on-hand to the counted number and cannot be below the committed plus unavailable units.
- Transfers: two different stores, neither closed; requesting commits the units at the source;
  shipping books a transfer_out and puts it in transit; receiving books a transfer_in of at most
  the shipped quantity (a shortfall is recorded); only requested transfers can be cancelled
  (the commitment is released). Discontinued products may only go to a warehouse.
- Pickups: the store is open with pickup enabled (warehouses never); the product is not
  discontinued; enough is available. A hold expires 48 hours after it is made; an active hold
  past its expiry counts as expired and cannot be completed, and cancelling it closes it as
  expired.
- Reorders: the store is not closed, the product not discontinued, the supplier active, at most
  500 units; expected after the supplier's lead time. Receiving books a ``received`` entry.
- Store prices (markdowns), given as a price or as percent off the base (exactly one): managers
  only; 50% of base <= price <= base; the end day is after today; one markdown per store and
  product (a new one replaces it); warehouses sell nothing.
- Completing a pickup books a ``picked_up`` ledger entry (the units leave the store).

Every change of on-hand appends a row to the append-only ``adjustments`` ledger, so for every
level the ledger covers, its entries sum to on-hand.
"""

from servers.domains.retail_chain import pickups, reorders, seed, stock, stores, transfers
from servers.domains.retail_chain.model import retail_chain

# the modules that declare the domain; its tools are shown to agents in this order
retail_chain.include(seed, stores, stock, transfers, pickups, reorders)

__all__ = ["retail_chain"]

# the words its staff use and its assistant answers with (read by the task generator)
from servers.domains.retail_chain import language as _language  # noqa: E402,F401
