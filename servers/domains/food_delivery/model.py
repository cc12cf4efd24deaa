"""The delivery platform's tables and fixed rules: restaurants, menus, carts, orders, couriers."""

from __future__ import annotations

from typing import Literal

from sqlalchemy import ForeignKey, Index
from sqlalchemy.orm import Mapped, mapped_column

from servers.kit import Domain

food_delivery = Domain(
    "food_delivery",
    "Food delivery platform: restaurants and menus, carts, checkout with fees and promos, the order "
    "lifecycle from kitchen to courier, tracking, cancellations, refunds and ratings.",
)

OrderStatus = Literal["placed", "accepted", "ready", "picked_up", "delivered", "cancelled", "rejected"]
IN_FLIGHT = ("placed", "accepted", "ready", "picked_up")
TERMINAL = ("delivered", "cancelled", "rejected")
Cuisine = Literal[
    "american",
    "breakfast",
    "cafe",
    "chinese",
    "indian",
    "italian",
    "japanese",
    "mediterranean",
    "mexican",
    "thai",
]
CancelReason = Literal[
    "customer_request",
    "ordered_by_mistake",
    "taking_too_long",
    "wrong_address",
    "restaurant_request",
    "other",
]
RejectReason = Literal["out_of_items", "kitchen_closed", "too_busy", "other"]
RefundReason = Literal["missing_item", "wrong_item", "late", "quality", "cancelled"]
RefundMethod = Literal["original", "credit"]
CourierVehicle = Literal["bike", "scooter", "car"]
CourierStatus = Literal["offline", "available", "busy"]
ROUTE_MODE = {"bike": "cycling", "scooter": "driving", "car": "driving"}  # geo.route mode per vehicle

MAX_LINE_QUANTITY = 30
MAX_TIP_SHARE = 0.5  # a tip may be at most half the subtotal
SERVICE_RATE, SERVICE_MIN, SERVICE_MAX = 0.08, 1.00, 8.00
CANCEL_SHARE = 0.5  # accepted or ready, no courier yet: half the subtotal is kept
MAX_PAUSE_DAYS = 7
MAX_SCHEDULE_DAYS = 7
MIN_SCHEDULE_MINUTES = 30
HANDOFF_MINUTES = 5  # courier parks, climbs the stairs, hands over the bag


class Customer(
    food_delivery.Table,
    prefix="CUS",
    people={"name": "name", "email": "email", "phone": "phone", "city": "city"},
):
    """A customer account: one person of the shared world, delivering to their home address
    (CUS-000001 is the persona)."""

    __tablename__ = "customers"
    id: Mapped[str] = mapped_column(primary_key=True)
    person_id: Mapped[int] = mapped_column(unique=True)
    name: Mapped[str]
    email: Mapped[str] = mapped_column(unique=True)
    phone: Mapped[str] = mapped_column(index=True)
    city: Mapped[str]
    address: Mapped[str]  # the home address, "14 Elm St, Portland"
    postal_code: Mapped[str]
    lat: Mapped[float]
    lon: Mapped[float]
    membership: Mapped[str]  # none / plus (free delivery)
    credit: Mapped[float]  # platform credit, spent automatically at checkout
    card_last4: Mapped[str]  # the card on file every order is charged to
    joined_on: Mapped[str]


class Restaurant(food_delivery.Table, prefix="RST"):
    """A restaurant of the shared world (same name, address, hours and phone as maps and bank
    statements show), with the platform's own delivery settings."""

    __tablename__ = "restaurants"
    __table_args__ = (Index("ix_restaurants_city_cuisine", "city", "cuisine"),)
    id: Mapped[str] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(index=True)
    label: Mapped[str] = mapped_column(unique=True)  # "Blue Door Cafe, Portland": names repeat across cities
    cuisine: Mapped[str]
    city: Mapped[str]
    address: Mapped[str]
    postal_code: Mapped[str]
    lat: Mapped[float]
    lon: Mapped[float]
    phone: Mapped[str]
    rating: Mapped[float]
    review_count: Mapped[int]
    price_level: Mapped[int]  # 1 ($) .. 4 ($$$$)
    timezone: Mapped[str]
    status: Mapped[str]  # online / paused / closed
    paused_until: Mapped[str | None]  # local time of the restaurant
    prep_minutes: Mapped[int]
    radius_km: Mapped[float]  # road distance it delivers within
    min_order: Mapped[float]
    delivery_fee: Mapped[float]


class OpeningHours(food_delivery.Table, prefix="HRS", noun="opening hours"):
    """One weekday's opening hours, local time (no row: closed that day)."""

    __tablename__ = "opening_hours"
    __table_args__ = (Index("ix_opening_hours_day", "restaurant_id", "weekday"),)
    id: Mapped[str] = mapped_column(primary_key=True)
    restaurant_id: Mapped[str] = mapped_column(ForeignKey("restaurants.id"))
    weekday: Mapped[int]  # 0 = Monday
    day: Mapped[str]  # monday .. sunday
    opens: Mapped[str]  # HH:MM
    closes: Mapped[str]


class MenuItem(food_delivery.Table, prefix="ITM", noun="menu item"):
    __tablename__ = "menu_items"
    id: Mapped[str] = mapped_column(primary_key=True)
    restaurant_id: Mapped[str] = mapped_column(ForeignKey("restaurants.id"), index=True)
    name: Mapped[str]
    section: Mapped[str]
    description: Mapped[str]
    price: Mapped[float]
    available: Mapped[bool]  # false: sold out ("86'd") until the restaurant brings it back
    vegetarian: Mapped[bool]
    vegan: Mapped[bool]
    gluten_free: Mapped[bool]
    spicy: Mapped[bool]


class ItemOption(food_delivery.Table, prefix="OPT", noun="item option"):
    """A choice on a menu item: a size (pick one of the group) or an add-on (any of the group)."""

    __tablename__ = "item_options"
    id: Mapped[str] = mapped_column(primary_key=True)
    item_id: Mapped[str] = mapped_column(ForeignKey("menu_items.id"), index=True)
    group_name: Mapped[str]  # "size", "add-ons", "spice level"
    choice: Mapped[str]  # one / many
    name: Mapped[str]
    price_delta: Mapped[float]


class CartItem(food_delivery.Table, prefix="CRT", noun="cart line"):
    """A line of a customer's cart; every line of one cart is from the same restaurant."""

    __tablename__ = "cart_items"
    id: Mapped[str] = mapped_column(primary_key=True)
    customer_id: Mapped[str] = mapped_column(ForeignKey("customers.id"), index=True)
    restaurant_id: Mapped[str] = mapped_column(ForeignKey("restaurants.id"), index=True)
    item_id: Mapped[str] = mapped_column(ForeignKey("menu_items.id"), index=True)
    name: Mapped[str]
    options: Mapped[str]  # chosen option names, "Large, Extra cheese" ("" for none)
    unit_price: Mapped[float]  # item price plus chosen options
    quantity: Mapped[int]
    note: Mapped[str]
    added_at: Mapped[str]


class Promo(food_delivery.Table, example="WELCOME5", noun="promo code"):
    """A promo code, keyed by the code customers type."""

    __tablename__ = "promos"
    id: Mapped[str] = mapped_column(primary_key=True)
    description: Mapped[str]
    kind: Mapped[str]  # percent / amount / free_delivery
    value: Mapped[float]  # percent off, or dollars off (0 for free delivery)
    min_subtotal: Mapped[float]
    expires_on: Mapped[str]  # last valid day
    first_order_only: Mapped[bool]
    max_uses: Mapped[int | None]  # across all customers; None = unlimited
    uses: Mapped[int]


class Courier(food_delivery.Table, prefix="CUR"):
    """A courier (a person of the shared world) who delivers in their home city."""

    __tablename__ = "couriers"
    __table_args__ = (Index("ix_couriers_city_status", "city", "status"),)
    id: Mapped[str] = mapped_column(primary_key=True)
    name: Mapped[str]
    phone: Mapped[str]
    vehicle: Mapped[str]  # bike / scooter / car
    city: Mapped[str]
    status: Mapped[str]  # offline / available / busy
    lat: Mapped[float]
    lon: Mapped[float]
    rating: Mapped[float]
    deliveries: Mapped[int]


class Order(food_delivery.Table, prefix="ORD"):
    """An order and its money: ``total`` = subtotal + delivery + service + tip - discount, paid by
    ``credit_applied`` (platform credit) and ``card_charged`` (the card on file). Times are local
    to the restaurant."""

    __tablename__ = "orders"
    # (owner, status) pairs, so "a refundable order of this customer" probes the owner's orders;
    # (status, id, money) covers the sampler's status conditions without reading the rows
    __table_args__ = (
        Index("ix_orders_customer", "customer_id", "status", "placed_at"),
        Index("ix_orders_restaurant", "restaurant_id", "status"),
        Index("ix_orders_courier", "courier_id", "status"),
        Index("ix_orders_status", "status", "id", "total", "refunded", "cancel_fee"),
        # orders named the way people say them ("Saffron Curry House, May 28 19:05"): an agent
        # resolves one with list_records(orders, label, ...), which read all 8,000 orders
        Index("ix_orders_label", "label", "id"),
    )
    id: Mapped[str] = mapped_column(primary_key=True)
    label: Mapped[str]  # how people name it: "Saffron Curry House, May 28 19:05"
    customer_id: Mapped[str] = mapped_column(ForeignKey("customers.id"))
    restaurant_id: Mapped[str] = mapped_column(ForeignKey("restaurants.id"))
    courier_id: Mapped[str | None] = mapped_column(ForeignKey("couriers.id"))
    status: Mapped[str]
    subtotal: Mapped[float]
    delivery_fee: Mapped[float]
    service_fee: Mapped[float]
    tip: Mapped[float]
    discount: Mapped[float]
    promo_code: Mapped[str | None]  # no foreign key: a code is what was typed, kept as text
    total: Mapped[float]
    credit_applied: Mapped[float]
    card_charged: Mapped[float]
    refunded: Mapped[float]
    address: Mapped[str]
    lat: Mapped[float]
    lon: Mapped[float]
    distance_km: Mapped[float]  # geo.route driving distance, restaurant to address
    placed_at: Mapped[str]
    scheduled_for: Mapped[str | None]
    prep_minutes: Mapped[int]
    accepted_at: Mapped[str | None]
    ready_at: Mapped[str | None]
    picked_up_at: Mapped[str | None]
    delivered_at: Mapped[str | None]
    cancelled_at: Mapped[str | None]
    eta: Mapped[str]
    cancel_reason: Mapped[str | None]
    cancel_fee: Mapped[float]
    reject_reason: Mapped[str | None]


class OrderItem(food_delivery.Table, prefix="OIT", noun="order item"):
    __tablename__ = "order_items"
    id: Mapped[str] = mapped_column(primary_key=True)
    order_id: Mapped[str] = mapped_column(ForeignKey("orders.id"), index=True)
    item_id: Mapped[str] = mapped_column(ForeignKey("menu_items.id"), index=True)
    name: Mapped[str]
    options: Mapped[str]
    unit_price: Mapped[float]
    quantity: Mapped[int]
    note: Mapped[str]


class OrderEvent(food_delivery.Table, prefix="OEV", noun="order event", append_only=True):
    """The tracking history of an order: one row per step it took. Append-only."""

    __tablename__ = "order_events"
    id: Mapped[str] = mapped_column(primary_key=True)
    order_id: Mapped[str] = mapped_column(ForeignKey("orders.id"), index=True)
    status: Mapped[str]  # placed / accepted / courier_assigned / ready / picked_up / delivered / ...
    note: Mapped[str]
    at: Mapped[str]


class Refund(food_delivery.Table, prefix="RFN", append_only=True):
    """Money given back on an order, to the card (``original``) or as platform credit. Append-only."""

    __tablename__ = "refunds"
    id: Mapped[str] = mapped_column(primary_key=True)
    order_id: Mapped[str] = mapped_column(ForeignKey("orders.id"), index=True)
    amount: Mapped[float]
    reason: Mapped[str]  # missing_item / wrong_item / late / quality / cancelled / rejected
    method: Mapped[str]  # original / credit
    at: Mapped[str]


class Rating(food_delivery.Table, prefix="RAT"):
    """A customer's rating of a delivered order (one per order)."""

    __tablename__ = "ratings"
    id: Mapped[str] = mapped_column(primary_key=True)
    order_id: Mapped[str] = mapped_column(ForeignKey("orders.id"), unique=True)
    stars: Mapped[int]
    comment: Mapped[str]
    at: Mapped[str]
