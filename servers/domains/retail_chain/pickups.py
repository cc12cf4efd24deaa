"""Holding stock for a customer to collect: reserve (48 h), complete, cancel, list."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from servers.domains.retail_chain.model import (
    HOLD_HOURS,
    Adjustment,
    Inventory,
    Pickup,
    Product,
    Store,
    retail_chain,
)
from servers.domains.retail_chain.rules import (
    NOW_SQL,
    ActiveEmployee,
    ActiveProduct,
    HeldPickup,
    LivePickup,
    PickupsStore,
    PickupStore,
    available,
    hold_until,
    label,
    ledger,
    staff,
    stocked,
)
from servers.kit import Db, Offset, PageSize, Quantity, ToolError

CustomerName = Annotated[
    str, Field(min_length=2, max_length=80, examples=["Maria Lopez", "James Okafor", "Priya Raman"])
]
Phone = Annotated[
    str,
    Field(
        pattern=r"^\+?[0-9][0-9 -]{6,18}[0-9]$",
        max_length=20,
        examples=["+1-503-555-0142", "+1-206-555-0199", "+1-415-555-0123"],
        description="The customer's phone number, e.g. +1-503-555-0142.",
    ),
]


def _pickup(db: Db, pickup_id: str, action: str) -> dict:
    """An active hold; a hold past its expiry counts as expired at the reference moment."""
    p = db.get(Pickup, pickup_id)
    if p["status"] != "active":
        raise ToolError(
            f"cannot {action} pickup hold {pickup_id}: it is {p['status']}; only active holds can"
        )
    return p


def _expired(db: Db, p: dict) -> bool:
    return p["expires_at"] <= db.stamp()


@retail_chain.tool(
    writes=[Pickup, Inventory],
    returns=Pickup,
    says=[
        "hold {quantity} units of {product} at {store} for {customer_name} ({customer_phone})",
        "a customer, {customer_name}, will pick up {quantity} units of {product} at {store}; phone {customer_phone}",
    ],
)
def reserve_for_pickup(
    db: Db,
    store: PickupStore,
    product: ActiveProduct,
    quantity: Quantity,
    customer_name: CustomerName,
    customer_phone: Phone,
) -> dict:
    """Hold stock at a store for a customer to collect. The hold commits the units and expires
    48 hours after it is made. The store must be open with pickup enabled (warehouses never are),
    the product not discontinued, and enough units available.

    Args:
        store: The store.
        product: The product.
        quantity: Units to hold.
        customer_name: The customer's name.
        customer_phone: The customer's phone number.
    """
    st, prod = db.get(Store, store), db.get(Product, product)
    if st["kind"] == "warehouse" or st["status"] != "open" or not st["pickup_enabled"]:
        why = (
            "is a warehouse"
            if st["kind"] == "warehouse"
            else f"is {st['status']}"
            if st["status"] != "open"
            else "has in-store pickup turned off"
        )
        raise ToolError(f"{label(st)} {why}; pickups need an open store with pickup enabled")
    if not prod["active"]:
        raise ToolError(f"{label(prod)} is discontinued and cannot be reserved")
    row = stocked(db, st, prod)
    if available(row) < quantity:
        raise ToolError(
            f"only {available(row)} {prod['name']} available at {label(st)} (on hand {row['on_hand']}, "
            f"committed {row['committed']}, unavailable {row['unavailable']}); cannot hold {quantity}"
        )
    db.update(Inventory, row["id"], committed=row["committed"] + quantity)
    return db.insert(
        Pickup,
        store_id=store,
        product_id=product,
        quantity=quantity,
        customer_name=customer_name.strip(),
        customer_phone=customer_phone,
        status="active",
        created_at=db.stamp(),
        expires_at=hold_until(db, HOLD_HOURS),
        closed_at=None,
    )


@retail_chain.tool(
    writes=[Pickup, Inventory, Adjustment],
    returns=Pickup,
    says=[
        "the customer collected {pickup}",
        "{employee} handed over {pickup} at the counter",
    ],
)
def complete_pickup(db: Db, pickup: LivePickup, employee: ActiveEmployee | None = None) -> dict:
    """The customer collected a hold: its units leave on-hand (a picked_up ledger entry). Only
    active holds that have not expired.

    Args:
        pickup: The pickup hold.
        employee: Who handed it over (works at the store, or is its regional manager). Omit: the store's manager.
    """
    p = _pickup(db, pickup, "complete")
    st = db.get(Store, p["store_id"])
    emp = staff(db, employee, st)
    if _expired(db, p):
        raise ToolError(
            f"pickup hold {pickup} expired at {p['expires_at']} (it is now {db.stamp()}); "
            "cancel it and make a new reservation if the stock is still available"
        )
    row = stocked(db, st, db.get(Product, p["product_id"]))
    row = db.update(Inventory, row["id"], committed=row["committed"] - p["quantity"])
    ledger(db, row, -p["quantity"], "picked_up", emp["id"], pickup)
    return db.update(Pickup, pickup, status="picked_up", closed_at=db.stamp())


@retail_chain.tool(
    writes=[Pickup, Inventory],
    returns=Pickup,
    destructive=True,
    says=["cancel {pickup}, the customer is not coming", "release {pickup}"],
)
def cancel_pickup(db: Db, pickup: HeldPickup) -> dict:
    """Release an active hold; its units become available again. A hold already past its expiry
    is closed as expired rather than cancelled."""
    p = _pickup(db, pickup, "cancel")
    st = db.get(Store, p["store_id"])
    row = stocked(db, st, db.get(Product, p["product_id"]))
    db.update(Inventory, row["id"], committed=row["committed"] - p["quantity"])
    status = "expired" if _expired(db, p) else "cancelled"
    return {**db.update(Pickup, pickup, status=status, closed_at=db.stamp()), "released": p["quantity"]}


@retail_chain.tool(
    returns=Pickup,
    says=["which pickups are waiting at {store}?", "list the {status} pickup holds at {store}"],
)
def list_pickups(
    db: Db,
    store: PickupsStore,
    status: Literal["active", "picked_up", "cancelled", "expired"] | None = None,
    limit: PageSize = 20,
    offset: Offset = 0,
) -> dict:
    """Pickup holds at a store, newest first. An active hold past its expiry is shown as expired
    (and ``status='expired'`` finds it).

    Args:
        store: The store.
        status: Only holds in this (effective) status.
        limit: Maximum number of holds.
        offset: Holds to skip, for paging.
    """
    db.get(Store, store)
    effective = f"CASE WHEN status = 'active' AND expires_at <= {NOW_SQL} THEN 'expired' ELSE status END"
    sql = (
        "SELECT id, store_id, product_id, quantity, customer_name, customer_phone, "
        f"{effective} AS status, created_at, expires_at, closed_at FROM pickups WHERE store_id = ?"
    )
    args: list = [store]
    if status:
        sql = f"SELECT * FROM ({sql}) WHERE status = ?"
        args.append(status)
    page = db.page(sql + " ORDER BY id DESC", *args, limit=limit, offset=offset, key="pickups")
    return page
