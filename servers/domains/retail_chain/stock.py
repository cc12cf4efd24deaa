"""Changing stock at one store: adjustments with a reason, physical counts, the ledger, markdowns."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from servers.domains.retail_chain.model import (
    WRITE_OFF,
    WRITE_OFF_LIMIT,
    Adjustment,
    AdjustReason,
    Inventory,
    Product,
    Store,
    StorePrice,
    retail_chain,
)
from servers.domains.retail_chain.rules import (
    ActiveEmployee,
    AnyProduct,
    LedgerStore,
    PricedStore,
    SellingManager,
    StockedStore,
    available,
    ensure_level,
    label,
    ledger,
    staff,
    stock_view,
    stocked,
)
from servers.kit import Day, Db, Money, Offset, PageSize, ToolError

_SIGN = {"damaged": -1, "theft": -1, "customer_return": 1, "received": 1}


def _refuse_negative(st: dict, prod: dict, row: dict, delta: int, what: str) -> None:
    """No change may leave on-hand or available below zero; the message gives the numbers."""
    after = row["on_hand"] + delta
    held = row["committed"] + row["unavailable"]
    if after < 0 or after - held < 0:
        raise ToolError(
            f"cannot {what} {prod['name']} at {label(st)}: on hand is {row['on_hand']} with "
            f"{row['committed']} committed and {row['unavailable']} unavailable (available {available(row)}), "
            f"so on hand can go down by at most {max(0, row['on_hand'] - held)}"
        )


@retail_chain.tool(
    writes=[Inventory, Adjustment],
    returns=Adjustment,
    says=[
        "record {delta} units of {product} at {store} as {reason}, logged by {employee}",
        "log a {reason} adjustment of {delta} units for {product} at {store}",
    ],
)
def adjust_inventory(
    db: Db,
    store: StockedStore,
    product: AnyProduct,
    delta: Annotated[int, Field(ge=-500, le=500, examples=[-1, -2, -3, -12, 2, 4, 6])],
    reason: AdjustReason,
    employee: ActiveEmployee | None = None,
) -> dict:
    """Change a store's on-hand count by ``delta`` with a reason; the ledger records it.

    damaged and theft are write-offs (negative deltas) and above 10 units need a manager;
    customer_return and received add units (positive); count_correction may go either way.
    On hand and available can never go below zero.

    Args:
        store: The store.
        product: The product.
        delta: Units to add (positive) or remove (negative), not zero.
        reason: damaged, theft, count_correction, customer_return or received.
        employee: The employee recording it (must work at the store, or be its regional manager). Omit: the store's manager.
    """
    st, prod = db.get(Store, store), db.get(Product, product)
    emp = staff(db, employee, st)
    if delta == 0:
        raise ToolError("delta is 0: an adjustment must add or remove at least one unit")
    sign = _SIGN.get(reason)
    if sign is not None and (delta > 0) != (sign > 0):
        need = "negative" if sign < 0 else "positive"
        raise ToolError(f"a {reason} adjustment must be {need}; got delta {delta:+d}")
    if reason in WRITE_OFF and -delta > WRITE_OFF_LIMIT and emp["role"] == "associate":
        raise ToolError(
            f"writing off {-delta} units as {reason} needs a manager: {label(emp)} is an associate and "
            f"may write off at most {WRITE_OFF_LIMIT} units at a time"
        )
    row = ensure_level(db, st, prod) if delta > 0 else stocked(db, st, prod)
    _refuse_negative(st, prod, row, delta, f"remove {-delta} units of")
    after = ledger(db, row, delta, reason, emp["id"])
    entry = db.one("SELECT * FROM adjustments ORDER BY id DESC LIMIT 1")
    return {"adjustment": entry, "store": label(st), "product": label(prod), **stock_view(after)}


@retail_chain.tool(
    writes=[Inventory, Adjustment],
    returns=Adjustment,
    says=[
        "we counted {counted} units of {product} on the shelf at {store}; update the stock",
        "set the on-hand count of {product} at {store} to {counted} after the stock take by {employee}",
    ],
)
def record_stock_count(
    db: Db,
    store: StockedStore,
    product: AnyProduct,
    counted: Annotated[int, Field(ge=0, le=100000, examples=[0, 3, 8, 12, 25, 40])],
    employee: ActiveEmployee | None = None,
) -> dict:
    """Set on-hand to a physically counted number; the difference is booked as a count_correction
    (a zero difference still records the count). The count cannot be below the committed and
    unavailable units, which are physically in the store.

    Args:
        store: The store.
        product: The product counted.
        counted: Units found.
        employee: Who counted (must work at the store, or be its regional manager). Omit: the store's manager.
    """
    st, prod = db.get(Store, store), db.get(Product, product)
    emp = staff(db, employee, st)
    row = stocked(db, st, prod)
    delta = counted - row["on_hand"]
    if counted < row["committed"] + row["unavailable"]:
        raise ToolError(
            f"a count of {counted} for {prod['name']} at {label(st)} is below the {row['committed']} "
            f"committed and {row['unavailable']} unavailable units the store holds; recount, or release "
            "holds first (cancel_pickup, cancel_transfer)"
        )
    after = ledger(db, row, delta, "count_correction", emp["id"])
    entry = db.one("SELECT * FROM adjustments ORDER BY id DESC LIMIT 1")
    return {"adjustment": entry, "previous_on_hand": row["on_hand"], **stock_view(after)}


@retail_chain.tool(
    returns=Adjustment,
    says=["show the stock history of {product} at {store}", "what stock changes were logged at {store}?"],
)
def list_adjustments(
    db: Db,
    store: LedgerStore,
    product: AnyProduct | None = None,
    reason: Literal[
        "received",
        "damaged",
        "theft",
        "count_correction",
        "customer_return",
        "transfer_out",
        "transfer_in",
        "picked_up",
    ]
    | None = None,
    limit: PageSize = 20,
    offset: Offset = 0,
) -> dict:
    """The stock ledger of a store, newest first: every change of on-hand with its reason.

    Args:
        store: The store.
        product: Only this product.
        reason: Only this reason.
        limit: Maximum number of entries.
        offset: Entries to skip, for paging.
    """
    db.get(Store, store)
    sql, args = "SELECT * FROM adjustments WHERE store_id = ?", [store]
    if product:
        sql += " AND product_id = ?"
        args.append(product)
    if reason:
        sql += " AND reason = ?"
        args.append(reason)
    page = db.page(sql + " ORDER BY id DESC", *args, limit=limit, offset=offset, key="adjustments")
    return page


@retail_chain.tool(
    writes=[StorePrice],
    returns=StorePrice,
    idempotent=True,
    says=[
        "take {percent_off}% off {product} at {store} until {until_day}",
        "{employee} wants {product} at {store} priced at {price} through {until_day}",
    ],
)
def set_store_price(
    db: Db,
    store: PricedStore,
    product: AnyProduct,
    until_day: Day,
    price: Money | None = None,
    percent_off: Annotated[int, Field(ge=1, le=50, examples=[10, 15, 20, 25, 30, 40, 50])] | None = None,
    employee: SellingManager | None = None,
) -> dict:
    """Set a store's markdown price for a product, valid through ``until_day`` (replacing any
    earlier markdown), as a price or as a percentage off the base price (give exactly one).
    Managers only; 50% of the base price <= price <= base price; the end day must be after today;
    warehouses do not sell.

    Args:
        employee: The approving manager of the store (or its regional manager). Omit: the store's manager.
        store: The store.
        product: The product (the store must carry it).
        until_day: Last day the price applies (after today).
        price: The new shelf price in dollars.
        percent_off: Or the markdown as a percentage of the base price (1-50).
    """
    st, prod = db.get(Store, store), db.get(Product, product)
    emp = staff(db, employee, st, manager="set store prices")
    if st["kind"] == "warehouse":
        raise ToolError(f"{label(st)} is a warehouse and sells nothing; markdowns apply to stores")
    stocked(db, st, prod)
    base = prod["base_price"]
    if (price is None) == (percent_off is None):
        raise ToolError("give either price or percent_off (exactly one)")
    if price is None:
        price = round(base * (100 - percent_off) / 100, 2)
    floor = round(base / 2, 2)
    if not floor <= price <= base:
        raise ToolError(
            f"price {price:.2f} for {prod['name']} is outside the allowed range {floor:.2f}-{base:.2f} "
            f"(50-100% of the base price {base:.2f})"
        )
    if until_day <= db.today.isoformat():
        raise ToolError(f"until_day {until_day} must be after today ({db.today.isoformat()})")
    old = db.one("SELECT * FROM store_prices WHERE store_id = ? AND product_id = ?", store, product)
    values = dict(price=price, until_day=until_day, set_by=emp["id"], set_at=db.stamp())
    if old is None:
        row = db.insert(StorePrice, store_id=store, product_id=product, **values)
    else:
        row = db.update(StorePrice, old["id"], **values)
    return {**row, "base_price": base, "percent_off": round((1 - price / base) * 100, 1), "store": label(st)}
