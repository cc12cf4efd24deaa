"""The retail chain's tables and fixed facts (regions, enums, limits)."""

from __future__ import annotations

from typing import Literal

from sqlalchemy import ForeignKey, Index, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from servers.kit import Domain

retail_chain = Domain(
    "retail_chain",
    "Store operations for a retail chain: stock per store, transfers, supplier reorders, pickups, markdowns.",
)

# The chain's regions: which cities each regional manager covers.
REGIONS: dict[str, tuple[str, ...]] = {
    "West": ("Portland", "Seattle", "San Francisco", "Los Angeles"),
    "Central": ("Denver", "Austin", "Chicago"),
    "East": ("Atlanta", "Boston", "New York", "Miami", "Toronto"),
    "International": ("London", "Berlin", "Tokyo"),
}
REGION_OF = {c: r for r, cities in REGIONS.items() for c in cities}
HQ_TIMEZONE = "America/Los_Angeles"  # the reference moment is head-office (Portland) time

StoreKind = Literal["flagship", "standard", "outlet", "warehouse"]
StoreStatus = Literal["open", "temporarily_closed", "closed"]
Role = Literal["associate", "manager", "regional_manager"]
AdjustReason = Literal["damaged", "theft", "count_correction", "customer_return", "received"]
REASONS = (
    "received",
    "damaged",
    "theft",
    "count_correction",
    "customer_return",
    "transfer_out",
    "transfer_in",
    "picked_up",
)
WRITE_OFF = ("damaged", "theft")
WRITE_OFF_LIMIT = 10  # write-offs above this many units need a manager
MANAGERS = ("manager", "regional_manager")
HOLD_HOURS = 48
MAX_REORDER = 500


class Store(retail_chain.Table, prefix="STO"):
    __tablename__ = "stores"
    __table_args__ = (Index("ix_stores_city_status", "city", "status"),)
    id: Mapped[str] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(unique=True)  # "Portland Flagship"
    city: Mapped[str]
    region: Mapped[str]
    address: Mapped[str]
    postal_code: Mapped[str]
    lat: Mapped[float]
    lon: Mapped[float]
    kind: Mapped[str]
    status: Mapped[str]
    opens: Mapped[str]  # local time HH:MM
    closes: Mapped[str]
    timezone: Mapped[str]
    pickup_enabled: Mapped[bool]
    phone: Mapped[str]


class Employee(retail_chain.Table, prefix="EMP", people={"name": "name", "email": "email", "phone": "phone"}):
    """A member of staff (a world person) working at one store."""

    __tablename__ = "employees"
    id: Mapped[str] = mapped_column(primary_key=True)
    store_id: Mapped[str] = mapped_column(ForeignKey("stores.id"), index=True)
    person_id: Mapped[int] = mapped_column(unique=True)
    name: Mapped[str] = mapped_column(index=True)
    email: Mapped[str] = mapped_column(unique=True)
    phone: Mapped[str]
    role: Mapped[str]
    active: Mapped[bool]


class Product(retail_chain.Table, prefix="PRD"):
    __tablename__ = "products"
    id: Mapped[str] = mapped_column(primary_key=True)
    sku: Mapped[str] = mapped_column(unique=True)
    name: Mapped[str] = mapped_column(index=True)
    category: Mapped[str]
    brand: Mapped[str]
    base_price: Mapped[float]
    active: Mapped[bool]  # false: discontinued


class Inventory(retail_chain.Table, prefix="INV", noun="inventory level"):
    """Stock of one product at one store. available = on_hand - committed - unavailable."""

    __tablename__ = "inventory"
    __table_args__ = (
        UniqueConstraint("store_id", "product_id"),
        Index("ix_inventory_product", "product_id", "store_id"),
    )
    id: Mapped[str] = mapped_column(primary_key=True)
    store_id: Mapped[str] = mapped_column(ForeignKey("stores.id"))
    product_id: Mapped[str] = mapped_column(ForeignKey("products.id"))
    on_hand: Mapped[int]
    committed: Mapped[int]  # held by active pickups and requested outbound transfers
    unavailable: Mapped[int]  # damaged / quarantined units still on the shelf count
    incoming: Mapped[int]  # on open supplier reorders
    reorder_point: Mapped[int]
    aisle: Mapped[str]


class Supplier(retail_chain.Table, prefix="SUP"):
    """A vendor the chain reorders from (a world company)."""

    __tablename__ = "suppliers"
    id: Mapped[str] = mapped_column(primary_key=True)
    company_index: Mapped[int]
    name: Mapped[str] = mapped_column(unique=True)
    city: Mapped[str]
    orders_email: Mapped[str]
    lead_days: Mapped[int]
    status: Mapped[str]  # active | suspended


class Transfer(retail_chain.Table, prefix="TRN"):
    __tablename__ = "transfers"
    id: Mapped[str] = mapped_column(primary_key=True)
    from_store_id: Mapped[str] = mapped_column(ForeignKey("stores.id"), index=True)
    to_store_id: Mapped[str] = mapped_column(ForeignKey("stores.id"), index=True)
    product_id: Mapped[str] = mapped_column(ForeignKey("products.id"))
    quantity: Mapped[int]
    quantity_received: Mapped[int | None]
    status: Mapped[str]  # requested | in_transit | received | cancelled
    requested_by: Mapped[str]  # employee id
    created_at: Mapped[str]
    shipped_at: Mapped[str | None]
    received_at: Mapped[str | None]


class Reorder(retail_chain.Table, prefix="ROR", noun="reorder"):
    """A purchase order to a supplier for one product, delivered to one store."""

    __tablename__ = "reorders"
    id: Mapped[str] = mapped_column(primary_key=True)
    store_id: Mapped[str] = mapped_column(ForeignKey("stores.id"), index=True)
    product_id: Mapped[str] = mapped_column(ForeignKey("products.id"))
    supplier_id: Mapped[str] = mapped_column(ForeignKey("suppliers.id"), index=True)
    quantity: Mapped[int]
    quantity_received: Mapped[int | None]
    status: Mapped[str]  # ordered | received | cancelled
    ordered_by: Mapped[str]  # employee id
    created_at: Mapped[str]
    expected_day: Mapped[str]
    received_at: Mapped[str | None]


class Pickup(retail_chain.Table, prefix="PKP", noun="pickup hold"):
    """Units held at a store for a customer to collect."""

    __tablename__ = "pickups"
    __table_args__ = (Index("ix_pickups_store_status", "store_id", "status"),)
    id: Mapped[str] = mapped_column(primary_key=True)
    store_id: Mapped[str] = mapped_column(ForeignKey("stores.id"))
    product_id: Mapped[str] = mapped_column(ForeignKey("products.id"))
    quantity: Mapped[int]
    customer_name: Mapped[str]
    customer_phone: Mapped[str]
    status: Mapped[str]  # active | picked_up | cancelled | expired
    created_at: Mapped[str]
    expires_at: Mapped[str]
    closed_at: Mapped[str | None]


class StorePrice(retail_chain.Table, prefix="SPR", noun="store price"):
    """A store's markdown of a product, valid through ``until_day``."""

    __tablename__ = "store_prices"
    __table_args__ = (UniqueConstraint("store_id", "product_id"),)
    id: Mapped[str] = mapped_column(primary_key=True)
    store_id: Mapped[str] = mapped_column(ForeignKey("stores.id"))
    product_id: Mapped[str] = mapped_column(ForeignKey("products.id"))
    price: Mapped[float]
    until_day: Mapped[str]
    set_by: Mapped[str]
    set_at: Mapped[str]


class Adjustment(retail_chain.Table, prefix="ADJ", noun="stock adjustment", append_only=True):
    """One change of a store's on-hand count, with its reason (the stock ledger)."""

    __tablename__ = "adjustments"
    __table_args__ = (
        Index("ix_adjustments_store_product", "store_id", "product_id"),
        # the stores that moved a product (the sampler relates a store to a product through its
        # ledger): without it every such pick read the whole ledger
        Index("ix_adjustments_product_store", "product_id", "store_id"),
    )
    id: Mapped[str] = mapped_column(primary_key=True)
    store_id: Mapped[str] = mapped_column(ForeignKey("stores.id"))
    product_id: Mapped[str] = mapped_column(ForeignKey("products.id"))
    delta: Mapped[int]
    on_hand_after: Mapped[int]
    reason: Mapped[str]
    reference: Mapped[str | None]  # the transfer or reorder behind it
    employee_id: Mapped[str]
    at: Mapped[str]
