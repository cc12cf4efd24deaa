"""Moving stock between stores: request (reserves at the source), ship, receive (maybe short), cancel."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from servers.domains.retail_chain.model import (
    Adjustment,
    Inventory,
    Product,
    Store,
    Transfer,
    retail_chain,
)
from servers.domains.retail_chain.rules import (
    ActiveEmployee,
    InTransitTransfer,
    NotClosedStore,
    RequestedTransfer,
    StockedStore,
    TransfersStore,
    available,
    ensure_level,
    label,
    ledger,
    staff,
    stocked,
)
from servers.kit import Db, Offset, PageSize, Quantity, Ref, ToolError

AnyTransfer = Ref[Transfer]
TransferProduct = Ref[Product, "active = 1"]


def _transfer(db: Db, transfer_id: str, status: str, action: str) -> dict:
    t = db.get(Transfer, transfer_id)
    if t["status"] != status:
        raise ToolError(
            f"cannot {action} transfer {transfer_id}: it is {t['status']}; only {status} transfers can"
        )
    return t


def _check_route(src: dict, dest: dict, prod: dict) -> None:
    if src["id"] == dest["id"]:
        raise ToolError(f"a transfer needs two different stores; both are {label(src)}")
    for side, st in (("source", src), ("destination", dest)):
        if st["status"] == "closed":
            raise ToolError(
                f"the {side} store {label(st)} is closed; transfers need stores that are not closed"
            )
    if not prod["active"] and dest["kind"] != "warehouse":
        raise ToolError(
            f"{label(prod)} is discontinued: it can only be sent back to a warehouse, not to {label(dest)}"
        )


@retail_chain.tool(
    writes=[Transfer, Inventory],
    returns=Transfer,
    says=[
        "request {quantity} units of {product} from {from_store} for {to_store}",
        "{employee} wants {quantity} units of {product} moved from {from_store} to {to_store}",
    ],
)
def create_transfer(
    db: Db,
    from_store: StockedStore,
    product: TransferProduct,
    to_store: NotClosedStore,
    quantity: Quantity,
    employee: ActiveEmployee | None = None,
) -> dict:
    """Request stock from another store (or a warehouse). The units are committed at the source at
    once, so they can no longer be sold or held there; ship_transfer sends them.

    Args:
        from_store: The store that sends the stock.
        product: The product.
        to_store: The store that receives it.
        quantity: Units to move.
        employee: Who requests it (works at either store, or is their regional manager). Omit: the store's manager.
    """
    src, dest, prod = db.get(Store, from_store), db.get(Store, to_store), db.get(Product, product)
    _check_route(src, dest, prod)
    emp = staff(db, employee, dest, src)
    row = stocked(db, src, prod)
    if available(row) < quantity:
        raise ToolError(
            f"{label(src)} has only {available(row)} {prod['name']} available (on hand {row['on_hand']}, "
            f"committed {row['committed']}, unavailable {row['unavailable']}); cannot transfer {quantity}"
        )
    db.update(Inventory, row["id"], committed=row["committed"] + quantity)
    return db.insert(
        Transfer,
        from_store_id=from_store,
        to_store_id=to_store,
        product_id=product,
        quantity=quantity,
        quantity_received=None,
        status="requested",
        requested_by=emp["id"],
        created_at=db.stamp(),
        shipped_at=None,
        received_at=None,
    )


@retail_chain.tool(
    writes=[Transfer, Inventory, Adjustment],
    returns=Transfer,
    says=[
        "ship {transfer}",
        "{employee} has packed {transfer}; mark it shipped",
    ],
)
def ship_transfer(db: Db, transfer: RequestedTransfer, employee: ActiveEmployee | None = None) -> dict:
    """The source store ships a requested transfer: its committed units leave on-hand (a
    transfer_out ledger entry) and the transfer is in transit.

    Args:
        transfer: The requested transfer.
        employee: Who ships it (works at the source store, or is its regional manager). Omit: the store's manager.
    """
    t = _transfer(db, transfer, "requested", "ship")
    src = db.get(Store, t["from_store_id"])
    emp = staff(db, employee, src)
    if src["status"] == "closed":
        raise ToolError(
            f"the source store {label(src)} is closed and cannot ship; cancel the transfer instead"
        )
    row = stocked(db, src, db.get(Product, t["product_id"]))
    row = db.update(Inventory, row["id"], committed=row["committed"] - t["quantity"])
    ledger(db, row, -t["quantity"], "transfer_out", emp["id"], transfer)
    return db.update(Transfer, transfer, status="in_transit", shipped_at=db.stamp())


@retail_chain.tool(
    writes=[Transfer, Inventory, Adjustment],
    returns=Transfer,
    says=[
        "{employee} received {transfer}; {quantity_received} units arrived",
        "check in {transfer} at the destination store",
    ],
)
def receive_transfer(
    db: Db,
    transfer: InTransitTransfer,
    quantity_received: Annotated[int, Field(ge=0, le=1000)] | None = None,
    employee: ActiveEmployee | None = None,
) -> dict:
    """The destination receives an in-transit transfer; fewer units than shipped may arrive (the
    shortfall is recorded). Adds a transfer_in ledger entry.

    Args:
        transfer: The in-transit transfer.
        employee: Who receives it (works at the destination store, or is its regional manager). Omit: the store's manager.
        quantity_received: Units that arrived (default: all that were shipped); at most the shipped quantity.
    """
    t = _transfer(db, transfer, "in_transit", "receive")
    dest = db.get(Store, t["to_store_id"])
    emp = staff(db, employee, dest)
    got = t["quantity"] if quantity_received is None else quantity_received
    if got > t["quantity"]:
        raise ToolError(
            f"transfer {transfer} shipped {t['quantity']} units; cannot receive {got} (at most {t['quantity']})"
        )
    row = ensure_level(db, dest, db.get(Product, t["product_id"]))
    after = ledger(db, row, got, "transfer_in", emp["id"], transfer)
    done = db.update(Transfer, transfer, status="received", quantity_received=got, received_at=db.stamp())
    return {**done, "shortfall": t["quantity"] - got, "on_hand_at_destination": after["on_hand"]}


@retail_chain.tool(
    writes=[Transfer, Inventory],
    returns=Transfer,
    destructive=True,
    says=[
        "cancel {transfer}, it is not needed any more",
        "{employee} wants to call off {transfer}",
    ],
)
def cancel_transfer(db: Db, transfer: RequestedTransfer, employee: ActiveEmployee | None = None) -> dict:
    """Cancel a transfer that has not shipped yet; its units are released at the source.

    Args:
        transfer: The requested transfer.
        employee: Who cancels it (works at either store, or is their regional manager). Omit: the store's manager.
    """
    t = _transfer(db, transfer, "requested", "cancel")
    src, dest = db.get(Store, t["from_store_id"]), db.get(Store, t["to_store_id"])
    staff(db, employee, src, dest)
    row = stocked(db, src, db.get(Product, t["product_id"]))
    db.update(Inventory, row["id"], committed=row["committed"] - t["quantity"])
    return db.update(Transfer, transfer, status="cancelled")


@retail_chain.tool(
    returns=Transfer,
    says=["which transfers involve {store}?", "show {direction} transfers with status {status} for {store}"],
)
def list_transfers(
    db: Db,
    store: TransfersStore,
    direction: Literal["inbound", "outbound", "any"] = "any",
    status: Literal["requested", "in_transit", "received", "cancelled"] | None = None,
    limit: PageSize = 20,
    offset: Offset = 0,
) -> dict:
    """Transfers into and/or out of a store, newest first.

    Args:
        store: The store.
        direction: inbound (to the store), outbound (from it) or any.
        status: Only transfers in this status.
        limit: Maximum number of transfers.
        offset: Transfers to skip, for paging.
    """
    db.get(Store, store)
    side = {
        "inbound": "to_store_id = ?",
        "outbound": "from_store_id = ?",
        "any": "(to_store_id = ? OR from_store_id = ?)",
    }[direction]
    args: list = [store] * side.count("?")
    sql = f"SELECT * FROM transfers WHERE {side}"
    if status:
        sql += " AND status = ?"
        args.append(status)
    page = db.page(sql + " ORDER BY id DESC", *args, limit=limit, offset=offset, key="transfers")
    return page


__all__ = ["AnyTransfer"]
