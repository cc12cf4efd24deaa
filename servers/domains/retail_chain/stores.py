"""Reading the chain: stores and their hours, the catalogue, stock at one store or nearby."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from servers.domains.retail_chain.model import (
    HQ_TIMEZONE,
    REGIONS,
    Employee,
    Inventory,
    Product,
    Store,
    retail_chain,
)
from servers.domains.retail_chain.rules import (
    AnyProduct,
    AnyStore,
    LowStore,
    label,
    local_now,
    open_now,
    stock_view,
    stocked,
)
from servers.kit import City, Db, Offset, PageSize, ToolError, geo

RegionName = Literal["West", "Central", "East", "International"]
assert set(RegionName.__args__) == set(REGIONS)

_STORE_COLS = "id, name, city, region, address, kind, status, opens, closes, timezone, pickup_enabled"


@retail_chain.tool(
    returns=Store,
    says=["which of our stores are in {city}?", "list the {status} stores in the {region} region"],
)
def list_stores(
    db: Db,
    city: City | None = None,
    region: RegionName | None = None,
    status: Literal["open", "temporarily_closed", "closed"] | None = None,
    kind: Literal["flagship", "standard", "outlet", "warehouse"] | None = None,
    open_now_only: bool = False,
    limit: PageSize = 20,
    offset: Offset = 0,
) -> dict:
    """Stores of the chain by city, region, status or kind, each saying whether it is open right now
    (its local time within its hours and status open).

    Args:
        city: Only stores in this city.
        region: Only stores in this region (West, Central, East, International).
        status: open, temporarily_closed or closed.
        kind: flagship, standard, outlet or warehouse.
        open_now_only: Only stores open at this moment.
        limit: Maximum number of stores.
        offset: Stores to skip, for paging.
    """
    conds, args = [], []
    for col, value in (("city", city), ("region", region), ("status", status), ("kind", kind)):
        if value is not None:
            conds.append(f"{col} = ?")
            args.append(value)
    where = " WHERE " + " AND ".join(conds) if conds else ""
    rows = db.all(f"SELECT {_STORE_COLS} FROM stores{where} ORDER BY id", *args)
    for r in rows:
        r["open_now"] = open_now(db, r)
    if open_now_only:
        rows = [r for r in rows if r["open_now"]]
    page = rows[offset : offset + limit]
    return {
        "stores": page,
        "total": len(rows),
        "offset": offset,
        "limit": limit,
        "truncated": offset + len(page) < len(rows),
    }


@retail_chain.tool(
    returns=Store,
    says=["what are the hours of {store}?", "is {store} open right now and who manages it?"],
)
def get_store(db: Db, store: AnyStore) -> dict:
    """A store's address, hours, status, whether it is open now (local time), pickup and its managers."""
    st = db.get(Store, store)
    managers = db.all(
        "SELECT id, name, role, phone FROM employees WHERE store_id = ? AND active = 1 "
        "AND role IN ('manager', 'regional_manager') ORDER BY id",
        store,
    )
    staff = db.scalar("SELECT count(*) FROM employees WHERE store_id = ? AND active = 1", store)
    local = local_now(db, st["timezone"])
    return {
        **st,
        "pickup_enabled": bool(st["pickup_enabled"]),
        "local_time": local.isoformat(timespec="minutes"),
        "open_now": open_now(db, st),
        "managers": managers,
        "active_staff": staff,
    }


@retail_chain.tool(
    returns=Product,
    says=["find the product {query}", "look up {query} in our catalogue"],
)
def find_product(
    db: Db,
    query: Annotated[
        str,
        Field(
            min_length=2,
            max_length=80,
            examples=[
                "Voltline",
                "Trailhead",
                "ELE10000",
                "KIT10014",
                "cordless drill",
                "headphones",
                "tent",
            ],
        ),
    ],
    category: Literal["electronics", "home", "kitchen", "outdoor", "tools", "toys"] | None = None,
    include_discontinued: bool = True,
    limit: PageSize = 20,
    offset: Offset = 0,
) -> dict:
    """Products whose SKU is exactly ``query`` or whose name or brand contains it.

    Args:
        query: A SKU (ELE10000) or words of the name or brand.
        category: Only this category.
        include_discontinued: Also show discontinued products (active = false).
        limit: Maximum number of products.
        offset: Products to skip, for paging.
    """
    like = f"%{query.strip()}%"
    sql = "SELECT * FROM products WHERE (sku = ? COLLATE NOCASE OR name LIKE ? OR brand LIKE ?)"
    args: list = [query.strip(), like, like]
    if category:
        sql += " AND category = ?"
        args.append(category)
    if not include_discontinued:
        sql += " AND active = 1"
    return db.page(sql + " ORDER BY id", *args, limit=limit, offset=offset, key="products")


@retail_chain.tool(
    returns=Inventory,
    says=["do we have {product} at {store}?", "how many units of {product} are available at {store}?"],
)
def check_stock(db: Db, store: AnyStore, product: AnyProduct) -> dict:
    """Stock of one product at one store: on hand, committed (held for pickups and outbound transfers),
    unavailable (damaged, quarantined), incoming (on reorder) and available to sell."""
    st, prod = db.get(Store, store), db.get(Product, product)
    row = stocked(db, st, prod)
    price = db.one(
        "SELECT price, until_day FROM store_prices WHERE store_id = ? AND product_id = ? AND until_day >= ?",
        store,
        product,
        db.today.isoformat(),
    )
    return {
        "inventory_id": row["id"],
        "store": label(st),
        "product": label(prod),
        "sku": prod["sku"],
        "discontinued": not prod["active"],
        **stock_view(row),
        "price": price["price"] if price else prod["base_price"],
        "markdown_until": price["until_day"] if price else None,
        "below_reorder_point": row["on_hand"] <= row["reorder_point"],
    }


@retail_chain.tool(
    returns=Store,
    says=[
        "which store near {near_store} has at least {min_quantity} units of {product}?",
        "where can a customer get {product} in or near {city}?",
    ],
)
def find_stock_nearby(
    db: Db,
    product: AnyProduct,
    near_store: AnyStore | None = None,
    city: City | None = None,
    min_quantity: Annotated[int, Field(ge=1, le=500)] = 1,
    limit: Annotated[int, Field(ge=1, le=20)] = 5,
) -> dict:
    """Stores (not closed) with at least ``min_quantity`` available, nearest first by road from a
    store or from a city centre. Give ``near_store`` or ``city``.

    Args:
        product: The product.
        near_store: Measure distances from this store (it is left out of the results).
        city: Or measure from this city's centre.
        min_quantity: Units that must be available.
        limit: How many stores, nearest first (1-20).
    """
    prod = db.get(Product, product)
    if near_store is None and city is None:
        raise ToolError("say where to search from: give near_store (a store id) or city")
    if near_store is not None:
        origin = db.get(Store, near_store)
        lat, lon, where = origin["lat"], origin["lon"], label(origin)
    else:
        c = geo.city(city)
        lat, lon, where = c.lat, c.lon, f"{c.name} city centre"
    rows = db.all(
        "SELECT s.id, s.name, s.city, s.address, s.kind, s.status, s.lat, s.lon, s.pickup_enabled, "
        "i.on_hand - i.committed - i.unavailable AS available "
        "FROM inventory i JOIN stores s ON s.id = i.store_id WHERE i.product_id = ? AND s.status != 'closed' "
        "AND s.id != ? ORDER BY s.id",
        product,
        near_store or "",
    )
    found = []
    for r in rows:
        if r["available"] < min_quantity:
            continue
        leg = geo.route(lat, lon, r.pop("lat"), r.pop("lon"), "driving")
        found.append({**r, "pickup_enabled": bool(r["pickup_enabled"]), **leg})
    found.sort(key=lambda r: (r["distance_km"], r["id"]))
    return {
        "product": label(prod),
        "from": where,
        "min_quantity": min_quantity,
        "stores": found[:limit],
        "total": len(found),
    }


@retail_chain.tool(
    returns=Inventory,
    says=["what is running low at {store}?", "give me the low-stock report for {store}"],
)
def get_low_stock_report(db: Db, store: LowStore, limit: PageSize = 20, offset: Offset = 0) -> dict:
    """Items at a store whose on-hand count is at or below their reorder point, emptiest first,
    with what is already on order (incoming).

    Args:
        store: The store.
        limit: Maximum number of items.
        offset: Items to skip, for paging.
    """
    db.get(Store, store)
    sql = (
        "SELECT i.id, i.product_id, p.sku, p.name, i.on_hand, i.committed, i.unavailable, i.incoming, "
        "i.reorder_point, i.aisle FROM inventory i JOIN products p ON p.id = i.product_id "
        "WHERE i.store_id = ? AND i.on_hand <= i.reorder_point ORDER BY i.on_hand, i.id"
    )
    return db.page(sql, store, limit=limit, offset=offset, key="items")


@retail_chain.tool(
    returns=Employee,
    says=["who works at {store}?", "list the {role}s at {store}"],
)
def list_staff(
    db: Db,
    store: AnyStore,
    role: Literal["associate", "manager", "regional_manager"] | None = None,
    include_inactive: bool = False,
    limit: PageSize = 20,
    offset: Offset = 0,
) -> dict:
    """Employees of a store, managers first.

    Args:
        store: The store.
        role: Only this role.
        include_inactive: Also list inactive employees.
        limit: Maximum number of employees.
        offset: Employees to skip, for paging.
    """
    db.get(Store, store)
    sql = "SELECT id, name, email, phone, role, active, store_id FROM employees WHERE store_id = ?"
    args: list = [store]
    if role:
        sql += " AND role = ?"
        args.append(role)
    if not include_inactive:
        sql += " AND active = 1"
    sql += " ORDER BY role = 'associate', id"
    return db.page(sql, *args, limit=limit, offset=offset, key="employees")


@retail_chain.tool(
    returns=Store,
    says=["what time is it at {store} right now?", "what is the local date and time at {store}?"],
)
def get_current_time(db: Db, store: AnyStore | None = None) -> dict:
    """The reference moment at head office (Portland), its weekday, and, for a store, the store's
    local time and whether it is open now.

    Args:
        store: Also give this store's local time.
    """
    out: dict = {
        "now": db.now.isoformat(timespec="minutes"),
        "weekday": db.now.strftime("%A"),
        "timezone": HQ_TIMEZONE,
    }
    if store is not None:
        st = db.get(Store, store)
        local = local_now(db, st["timezone"])
        out.update(
            store=store,
            store_local_time=local.isoformat(timespec="minutes"),
            store_weekday=local.strftime("%A"),
            store_timezone=st["timezone"],
            open_now=open_now(db, st),
        )
    return out
