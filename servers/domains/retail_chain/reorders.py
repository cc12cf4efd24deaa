"""Buying stock: suppliers (world companies), purchase orders to them, receiving and cancelling."""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated, Literal

from pydantic import Field

from servers.domains.retail_chain.model import (
    MAX_REORDER,
    Adjustment,
    Inventory,
    Product,
    Reorder,
    Store,
    Supplier,
    retail_chain,
)
from servers.domains.retail_chain.rules import (
    ActiveEmployee,
    ActiveProduct,
    ActiveSupplier,
    NotClosedStore,
    OpenReorder,
    ReordersStore,
    ensure_level,
    label,
    ledger,
    staff,
    stocked,
)
from servers.kit import Db, Offset, PageSize, Quantity, ToolError


def _open_reorder(db: Db, reorder_id: str, action: str) -> dict:
    r = db.get(Reorder, reorder_id)
    if r["status"] != "ordered":
        raise ToolError(
            f"cannot {action} reorder {reorder_id}: it is {r['status']}; only ordered reorders can"
        )
    return r


@retail_chain.tool(
    returns=Supplier,
    says=["which suppliers can we order from?", "list our {status} suppliers"],
)
def list_suppliers(
    db: Db,
    status: Literal["active", "suspended"] | None = None,
    limit: PageSize = 20,
    offset: Offset = 0,
) -> dict:
    """The chain's suppliers with their lead time in days and order email.

    Args:
        status: active or suspended (suspended suppliers take no orders).
        limit: Maximum number of suppliers.
        offset: Suppliers to skip, for paging.
    """
    sql, args = "SELECT * FROM suppliers", []
    if status:
        sql += " WHERE status = ?"
        args.append(status)
    return db.page(sql + " ORDER BY id", *args, limit=limit, offset=offset, key="suppliers")


@retail_chain.tool(
    writes=[Reorder, Inventory],
    returns=Reorder,
    says=[
        "order {quantity} more units of {product} for {store} from {supplier}",
        "{employee} wants to reorder {quantity} units of {product} from {supplier} for {store}",
    ],
)
def create_reorder(
    db: Db,
    store: NotClosedStore,
    product: ActiveProduct,
    supplier: ActiveSupplier,
    quantity: Quantity,
    employee: ActiveEmployee | None = None,
) -> dict:
    """Order stock from a supplier for delivery to a store. The units show as incoming at the store
    until received; delivery is expected after the supplier's lead time.

    Rules: the store is not closed, the product not discontinued, the supplier active, at most 500
    units per order.

    Args:
        store: The store to deliver to.
        product: The product.
        supplier: The supplier.
        quantity: Units to order (1-500).
        employee: Who orders (works at the store, or is its regional manager). Omit: the store's manager.
    """
    st, prod, sup = db.get(Store, store), db.get(Product, product), db.get(Supplier, supplier)
    emp = staff(db, employee, st)
    if st["status"] == "closed":
        raise ToolError(f"{label(st)} is closed; reorders need a store that is open or temporarily closed")
    if not prod["active"]:
        raise ToolError(f"{label(prod)} is discontinued and cannot be reordered")
    if sup["status"] != "active":
        raise ToolError(
            f"supplier {label(sup)} is {sup['status']} and takes no orders; pick an active supplier"
        )
    if quantity > MAX_REORDER:
        raise ToolError(f"a reorder is at most {MAX_REORDER} units; {quantity} asked")
    row = ensure_level(db, st, prod)
    db.update(Inventory, row["id"], incoming=row["incoming"] + quantity)
    expected = (db.today + timedelta(days=sup["lead_days"])).isoformat()
    return db.insert(
        Reorder,
        store_id=store,
        product_id=product,
        supplier_id=supplier,
        quantity=quantity,
        quantity_received=None,
        status="ordered",
        ordered_by=emp["id"],
        created_at=db.stamp(),
        expected_day=expected,
        received_at=None,
    )


@retail_chain.tool(
    writes=[Reorder, Inventory, Adjustment],
    returns=Reorder,
    says=[
        "the delivery for {reorder} arrived, check it in",
        "{employee} received {quantity_received} units on {reorder}",
    ],
)
def receive_reorder(
    db: Db,
    reorder: OpenReorder,
    quantity_received: Annotated[int, Field(ge=1, le=1000)] | None = None,
    employee: ActiveEmployee | None = None,
) -> dict:
    """Receive a supplier delivery: the units join on-hand (a received ledger entry) and leave
    incoming. A short delivery closes the order with the shortfall recorded.

    Args:
        reorder: The open reorder.
        employee: Who receives it (works at the store, or is its regional manager). Omit: the store's manager.
        quantity_received: Units delivered (default: all ordered); at most the ordered quantity.
    """
    r = _open_reorder(db, reorder, "receive")
    st = db.get(Store, r["store_id"])
    emp = staff(db, employee, st)
    got = r["quantity"] if quantity_received is None else quantity_received
    if got > r["quantity"]:
        raise ToolError(f"reorder {reorder} is for {r['quantity']} units; cannot receive {got}")
    row = stocked(db, st, db.get(Product, r["product_id"]))
    row = db.update(Inventory, row["id"], incoming=max(0, row["incoming"] - r["quantity"]))
    after = ledger(db, row, got, "received", emp["id"], reorder)
    done = db.update(Reorder, reorder, status="received", quantity_received=got, received_at=db.stamp())
    return {**done, "shortfall": r["quantity"] - got, "on_hand": after["on_hand"]}


@retail_chain.tool(
    writes=[Reorder, Inventory],
    returns=Reorder,
    destructive=True,
    says=[
        "cancel {reorder}, we no longer need it",
        "{employee} wants {reorder} called off",
    ],
)
def cancel_reorder(db: Db, reorder: OpenReorder, employee: ActiveEmployee | None = None) -> dict:
    """Cancel a reorder that has not been delivered; its units stop counting as incoming.

    Args:
        reorder: The open reorder.
        employee: Who cancels it (works at the store, or is its regional manager). Omit: the store's manager.
    """
    r = _open_reorder(db, reorder, "cancel")
    st = db.get(Store, r["store_id"])
    staff(db, employee, st)
    row = stocked(db, st, db.get(Product, r["product_id"]))
    db.update(Inventory, row["id"], incoming=max(0, row["incoming"] - r["quantity"]))
    return db.update(Reorder, reorder, status="cancelled")


@retail_chain.tool(
    returns=Reorder,
    says=["what is on order for {store}?", "list the {status} reorders of {store}"],
)
def list_reorders(
    db: Db,
    store: ReordersStore,
    status: Literal["ordered", "received", "cancelled"] | None = None,
    limit: PageSize = 20,
    offset: Offset = 0,
) -> dict:
    """Supplier reorders for a store, newest first, with the expected delivery day.

    Args:
        store: The store.
        status: Only reorders in this status.
        limit: Maximum number of reorders.
        offset: Reorders to skip, for paging.
    """
    db.get(Store, store)
    sql, args = "SELECT * FROM reorders WHERE store_id = ?", [store]
    if status:
        sql += " AND status = ?"
        args.append(status)
    page = db.page(sql + " ORDER BY id DESC", *args, limit=limit, offset=offset, key="reorders")
    return page
