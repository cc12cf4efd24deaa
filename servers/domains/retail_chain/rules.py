"""Rules several tools share (who may act where, stock arithmetic, the ledger) and the sampler's
conditions, written once so a tool and its ``Ref`` condition cannot disagree."""

from __future__ import annotations

import functools
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from servers.domains.retail_chain.model import (
    HQ_TIMEZONE,
    MANAGERS,
    Adjustment,
    Employee,
    Inventory,
    Pickup,
    Product,
    Reorder,
    Store,
    Supplier,
    Transfer,
)
from servers.kit import Db, Ref, ToolError

NOW_SQL = "(SELECT value FROM _meta WHERE key = 'now')"
AVAILABLE_SQL = "on_hand - committed - unavailable"

# -- sampler conditions ---------------------------------------------------------------------------

# correlated on the store's own row: the (store_id, product_id) index stops at the first match
_HAS_STOCK = (
    "EXISTS (SELECT 1 FROM inventory i WHERE i.store_id = stores.id "
    "AND i.on_hand - i.committed - i.unavailable >= 5)"
)
AnyStore = Ref[Store]
NotClosedStore = Ref[Store, "status != 'closed'"]
StockedStore = Ref[Store, f"status != 'closed' AND {_HAS_STOCK}"]
PickupStore = Ref[
    Store,
    f"status = 'open' AND pickup_enabled = 1 AND kind != 'warehouse' AND {_HAS_STOCK}",
]
PricedStore = Ref[Store, "kind != 'warehouse' AND status != 'closed'"]
LowStore = Ref[
    Store, "EXISTS (SELECT 1 FROM inventory i WHERE i.store_id = stores.id AND i.on_hand <= i.reorder_point)"
]
PickupsStore = Ref[Store, "EXISTS (SELECT 1 FROM pickups p WHERE p.store_id = stores.id)"]
ReordersStore = Ref[Store, "EXISTS (SELECT 1 FROM reorders r WHERE r.store_id = stores.id)"]
TransfersStore = Ref[
    Store,
    "EXISTS (SELECT 1 FROM transfers t WHERE t.from_store_id = stores.id) "
    "OR EXISTS (SELECT 1 FROM transfers t WHERE t.to_store_id = stores.id)",
]
LedgerStore = Ref[
    Store, "EXISTS (SELECT 1 FROM adjustments a WHERE a.store_id = stores.id AND a.at >= '2026-05-01')"
]
AnyProduct = Ref[Product]
ActiveProduct = Ref[Product, "active = 1"]
# staff of stores that can still act (a closed store's staff have nothing to record), checked on
# the employee's own store row rather than a list of every open store rebuilt on each probe
ActiveEmployee = Ref[
    Employee,
    "active = 1 AND EXISTS (SELECT 1 FROM stores s WHERE s.id = employees.store_id AND s.status != 'closed')",
]
SellingManager = Ref[
    Employee,
    "active = 1 AND role IN ('manager', 'regional_manager') "
    "AND EXISTS (SELECT 1 FROM stores s WHERE s.id = employees.store_id "
    "AND s.status != 'closed' AND s.kind != 'warehouse')",
]
RequestedTransfer = Ref[Transfer, "status = 'requested'"]
InTransitTransfer = Ref[Transfer, "status = 'in_transit'"]
OpenReorder = Ref[Reorder, "status = 'ordered'"]
ActiveSupplier = Ref[Supplier, "status = 'active'"]
LivePickup = Ref[Pickup, f"status = 'active' AND expires_at > {NOW_SQL}"]
HeldPickup = Ref[Pickup, "status = 'active'"]

# -- naming ---------------------------------------------------------------------------------------


def label(row: dict) -> str:
    """``STO-000001 (Portland Flagship)``: how errors name a store, product or employee."""
    return f"{row['id']} ({row['name']})"


# -- who may act where ----------------------------------------------------------------------------


def store(db: Db, store_id: str) -> dict:
    return db.get(Store, store_id)


def covers(db: Db, emp: dict, st: dict) -> bool:
    """An employee acts at their own store; a regional manager at every store of their region."""
    if emp["store_id"] == st["id"]:
        return True
    if emp["role"] != "regional_manager":
        return False
    return db.scalar("SELECT region FROM stores WHERE id = ?", emp["store_id"]) == st["region"]


def on_duty(db: Db, st: dict) -> dict:
    """The manager a change is recorded under when no employee is named: the store's first
    active manager, else its region's regional manager."""
    emp = db.one(
        "SELECT * FROM employees WHERE store_id = ? AND active = 1 AND role = 'manager' ORDER BY id LIMIT 1",
        st["id"],
    ) or db.one(
        "SELECT e.* FROM employees e JOIN stores s ON s.id = e.store_id WHERE s.region = ? "
        "AND e.active = 1 AND e.role = 'regional_manager' ORDER BY e.id LIMIT 1",
        st["region"],
    )
    if emp is None:
        raise ToolError(f"{label(st)} has no active manager on duty; name the employee who makes the change")
    return emp


def staff(db: Db, employee_id: str | None, *stores: dict, manager: str | None = None) -> dict:
    """The acting employee, after the checks every write makes: active, works at (one of) the
    store(s) or is their regional manager, and (``manager`` names the action) holds a manager role.
    No employee named: the first store's manager on duty."""
    emp = on_duty(db, stores[0]) if employee_id is None else db.get(Employee, employee_id)
    if not emp["active"]:
        raise ToolError(f"employee {label(emp)} is inactive and cannot record changes")
    if not any(covers(db, emp, st) for st in stores):
        home = db.get(Store, emp["store_id"])
        where = " or ".join(label(st) for st in stores)
        raise ToolError(
            f"employee {label(emp)} works at {label(home)} ({home['region']} region, {emp['role']}) "
            f"and cannot act for {where}; only that store's staff or its regional manager can"
        )
    if manager and emp["role"] not in MANAGERS:
        raise ToolError(
            f"only a store manager or regional manager may {manager}; {label(emp)} is an {emp['role']}"
        )
    return emp


# -- stock ---------------------------------------------------------------------------------------


def available(level: dict) -> int:
    return level["on_hand"] - level["committed"] - level["unavailable"]


def level(db: Db, store_id: str, product_id: str) -> dict | None:
    return db.one("SELECT * FROM inventory WHERE store_id = ? AND product_id = ?", store_id, product_id)


def stocked(db: Db, st: dict, prod: dict) -> dict:
    """The inventory level of a product the store carries, or an error saying it does not."""
    row = level(db, st["id"], prod["id"])
    if row is None:
        raise ToolError(f"store {label(st)} does not carry product {label(prod)} (no inventory record)")
    return row


def ensure_level(db: Db, st: dict, prod: dict) -> dict:
    """The store's inventory level for a product, created empty when the store has never carried it."""
    row = level(db, st["id"], prod["id"])
    if row is not None:
        return row
    return db.insert(
        Inventory,
        store_id=st["id"],
        product_id=prod["id"],
        on_hand=0,
        committed=0,
        unavailable=0,
        incoming=0,
        reorder_point=5,
        aisle="receiving",
    )


def stock_view(row: dict) -> dict:
    """An inventory level as agents see it, with the derived ``available``."""
    keys = ("on_hand", "committed", "unavailable", "incoming", "reorder_point", "aisle")
    return {k: row[k] for k in keys} | {"available": available(row)}


def ledger(
    db: Db, row: dict, delta: int, reason: str, employee_id: str, reference: str | None = None
) -> dict:
    """Change on-hand by ``delta`` and append the ledger row that explains it: every stock change
    goes through here, so the ledger always sums to on-hand."""
    after = row["on_hand"] + delta
    db.add(
        Adjustment,
        store_id=row["store_id"],
        product_id=row["product_id"],
        delta=delta,
        on_hand_after=after,
        reason=reason,
        reference=reference,
        employee_id=employee_id,
        at=db.stamp(),
    )
    return db.update(Inventory, row["id"], on_hand=after)


# -- time -------------------------------------------------------------------------------------------


def local_now(db: Db, timezone: str) -> datetime:
    """The reference moment (head-office time) on a store's wall clock."""
    return _local(db.now, timezone)


@functools.lru_cache(maxsize=256)
def _local(now: datetime, timezone: str) -> datetime:
    hq = now.replace(tzinfo=ZoneInfo(HQ_TIMEZONE))
    return hq.astimezone(ZoneInfo(timezone)).replace(tzinfo=None)


def open_now(db: Db, st: dict) -> bool:
    if st["status"] != "open":
        return False
    clock = _clock(db.now, st["timezone"])
    return st["opens"] <= clock < st["closes"]


@functools.lru_cache(maxsize=256)
def _clock(now: datetime, timezone: str) -> str:
    return _local(now, timezone).strftime("%H:%M")


def hold_until(db: Db, hours: int) -> str:
    return (db.now + timedelta(hours=hours)).isoformat(timespec="seconds")
