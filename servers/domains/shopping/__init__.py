"""Online store: a product catalog in categories, customers with saved addresses and
payment methods, a cart per customer, checkout with coupons, orders that ship and
get delivered, returns, and product reviews.

Rules the store enforces: discontinued products cannot be bought, nobody can buy
more than is in stock or more than a product's per-order limit, checkout needs a
non-empty cart, an address and an unexpired payment method of the same customer,
coupons must be active, unexpired and reached by the cart's subtotal (and are used
once per customer), orders can be cancelled or re-addressed only before they ship,
returns are accepted per order line within 30 days of delivery, and only customers
who received a product may review it, once. Shipping is free from 50.00 after
discounts, otherwise 5.99. Dates compare against the snapshot's reference day.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Annotated, Literal

from pydantic import Field
from sqlalchemy import ForeignKey, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from servers.kit import Day, Db, Domain, Limit, Money, Quantity, Ref, Seeder, ShortText, ToolError, geo, marks

shopping = Domain(
    "shopping", "Online store: catalog, carts, checkout with coupons, orders, shipping, returns and reviews."
)

OrderStatus = Literal["placed", "processing", "shipped", "delivered", "cancelled"]
RETURN_DAYS = 30
FREE_SHIPPING_FROM = 50.0
SHIPPING_FEE = 5.99
MAX_CART_LINES = 20


class Category(shopping.Table, prefix="CAT", noun="category"):
    __tablename__ = "categories"
    id: Mapped[str] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(unique=True)
    description: Mapped[str]


class Product(shopping.Table, prefix="PRD"):
    __tablename__ = "products"
    id: Mapped[str] = mapped_column(primary_key=True)
    category_id: Mapped[str] = mapped_column(ForeignKey("categories.id"), index=True)
    name: Mapped[str]
    brand: Mapped[str]
    description: Mapped[str]
    price: Mapped[float]
    stock: Mapped[int]
    max_per_order: Mapped[int]
    active: Mapped[bool]
    rating: Mapped[float | None]
    review_count: Mapped[int]


class Customer(shopping.Table, prefix="CUS", people={"name": "name", "email": "email", "phone": "phone"}):
    """A shopper: one person of the shared world (CUS-000001 is the persona, whose default
    address is their home)."""

    __tablename__ = "customers"
    id: Mapped[str] = mapped_column(primary_key=True)
    name: Mapped[str]
    email: Mapped[str] = mapped_column(unique=True)
    phone: Mapped[str]
    joined_on: Mapped[str]


class Address(shopping.Table, prefix="ADR", noun="address"):
    __tablename__ = "addresses"
    id: Mapped[str] = mapped_column(primary_key=True)
    customer_id: Mapped[str] = mapped_column(ForeignKey("customers.id"), index=True)
    label: Mapped[str]
    street: Mapped[str]
    city: Mapped[str]
    state: Mapped[str]
    zip: Mapped[str]
    is_default: Mapped[bool]


class PaymentMethod(shopping.Table, prefix="PMT", noun="payment method"):
    __tablename__ = "payment_methods"
    id: Mapped[str] = mapped_column(primary_key=True)
    customer_id: Mapped[str] = mapped_column(ForeignKey("customers.id"), index=True)
    kind: Mapped[str]
    label: Mapped[str]
    expires: Mapped[str | None]


class CartItem(shopping.Table, prefix="CIT", noun="cart item"):
    __tablename__ = "cart_items"
    __table_args__ = (UniqueConstraint("customer_id", "product_id"),)
    id: Mapped[str] = mapped_column(primary_key=True)
    customer_id: Mapped[str] = mapped_column(ForeignKey("customers.id"), index=True)
    product_id: Mapped[str] = mapped_column(ForeignKey("products.id"), index=True)
    quantity: Mapped[int]
    added_at: Mapped[str]


class Coupon(shopping.Table, prefix="CPN"):
    __tablename__ = "coupons"
    id: Mapped[str] = mapped_column(primary_key=True)
    code: Mapped[str] = mapped_column(unique=True)
    kind: Mapped[str]  # percent | fixed
    value: Mapped[float]
    min_order: Mapped[float]
    expires_on: Mapped[str]
    active: Mapped[bool]


class Order(shopping.Table, prefix="ORD"):
    __tablename__ = "orders"
    id: Mapped[str] = mapped_column(primary_key=True)
    customer_id: Mapped[str] = mapped_column(ForeignKey("customers.id"), index=True)
    address_id: Mapped[str] = mapped_column(ForeignKey("addresses.id"))
    payment_id: Mapped[str] = mapped_column(ForeignKey("payment_methods.id"))
    coupon_id: Mapped[str | None] = mapped_column(ForeignKey("coupons.id"))
    status: Mapped[str] = mapped_column(index=True)
    subtotal: Mapped[float]
    discount: Mapped[float]
    shipping_fee: Mapped[float]
    total: Mapped[float]
    placed_at: Mapped[str]
    shipped_on: Mapped[str | None]
    delivered_on: Mapped[str | None]
    carrier: Mapped[str | None]
    tracking_number: Mapped[str | None]
    cancel_reason: Mapped[str | None]


class OrderItem(shopping.Table, prefix="OIT", noun="order item"):
    __tablename__ = "order_items"
    id: Mapped[str] = mapped_column(primary_key=True)
    order_id: Mapped[str] = mapped_column(ForeignKey("orders.id"), index=True)
    product_id: Mapped[str] = mapped_column(ForeignKey("products.id"), index=True)
    quantity: Mapped[int]
    unit_price: Mapped[float]
    returned_qty: Mapped[int]


class Return(shopping.Table, prefix="RET", noun="return"):
    __tablename__ = "returns"
    id: Mapped[str] = mapped_column(primary_key=True)
    order_id: Mapped[str] = mapped_column(ForeignKey("orders.id"), index=True)
    order_item_id: Mapped[str] = mapped_column(ForeignKey("order_items.id"), index=True)
    quantity: Mapped[int]
    reason: Mapped[str]
    refund_amount: Mapped[float]
    status: Mapped[str]  # requested | approved | refunded
    requested_at: Mapped[str]


class Review(shopping.Table, prefix="REV"):
    __tablename__ = "reviews"
    __table_args__ = (UniqueConstraint("customer_id", "product_id"),)
    id: Mapped[str] = mapped_column(primary_key=True)
    product_id: Mapped[str] = mapped_column(ForeignKey("products.id"), index=True)
    customer_id: Mapped[str] = mapped_column(ForeignKey("customers.id"), index=True)
    rating: Mapped[int]
    title: Mapped[str]
    body: Mapped[str]
    created_at: Mapped[str]


# -- what a good argument looks like (conditions for the sampler) ---------------------------

_TODAY = "(SELECT substr(value, 1, 10) FROM _meta WHERE key = 'now')"
Buyable = Ref[Product, "active = 1 AND stock > 0"]
WithCart = Ref[Customer, "id IN (SELECT customer_id FROM cart_items)"]
UsablePayment = Ref[PaymentMethod, f"expires IS NULL OR expires >= substr({_TODAY}, 1, 7)"]
Unshipped = Ref[Order, "status IN ('placed', 'processing')"]
Returnable = Ref[
    OrderItem,
    "returned_qty < quantity AND order_id IN (SELECT id FROM orders WHERE status = 'delivered' "
    f"AND delivered_on >= date({_TODAY}, '-{RETURN_DAYS} days'))",
]
# a customer with a delivered product they have not reviewed yet, and such a product of theirs
Buyer = Ref[
    Customer,
    "id IN (SELECT o.customer_id FROM orders o JOIN order_items i ON i.order_id = o.id "
    "WHERE o.status = 'delivered' AND NOT EXISTS (SELECT 1 FROM reviews r "
    "WHERE r.customer_id = o.customer_id AND r.product_id = i.product_id))",
]
Bought = Ref[
    Product,
    "id IN (SELECT i.product_id FROM order_items i JOIN orders o ON o.id = i.order_id "
    "WHERE o.customer_id = :customer AND o.status = 'delivered') "
    "AND id NOT IN (SELECT product_id FROM reviews WHERE customer_id = :customer)",
]
CouponCode = Annotated[ShortText, Field(examples=["SAVE10", "WELCOME5", "BIG30", "SPRING15"])]
Rating = Annotated[int, Field(ge=1, le=5, description="Stars from 1 (worst) to 5 (best).")]

# -- seed data ---------------------------------------------------------------------------------

# category -> (lowest price, highest price, kinds of product)
CATALOG = {
    "Electronics": (15, 400, "Wireless Headphones, USB-C Charger, Bluetooth Speaker, Smartwatch, Webcam"),
    "Home & Kitchen": (8, 250, "Chef's Knife, Coffee Grinder, Nonstick Skillet, Blender, Table Lamp"),
    "Clothing": (10, 180, "Running Shoes, Rain Jacket, Wool Sweater, Denim Jeans, Baseball Cap"),
    "Sports & Outdoors": (9, 350, "Yoga Mat, Camping Tent, Water Bottle, Dumbbell Set, Bike Helmet"),
    "Books": (6, 45, "Cookbook, Mystery Novel, Travel Guide, Science Fiction Novel, Biography"),
    "Beauty": (5, 90, "Face Moisturizer, Shampoo, Sunscreen SPF 50, Lip Balm, Hair Dryer"),
    "Toys & Games": (7, 120, "Board Game, Jigsaw Puzzle, Building Blocks, Plush Bear, RC Car"),
    "Grocery": (3, 40, "Ground Coffee, Green Tea, Dark Chocolate, Olive Oil, Granola"),
}
BRANDS = ["Acme", "Northwind", "Bluepeak", "Everline", "Kestrel", "Ohana", "Lumen", "Vela", "Zenith"]
STYLES = ["Classic", "Pro", "Ultra", "Eco", "Compact", "Deluxe", "Everyday", "Premium", "Lite", "Max"]
# Coupons present at every scale, so tasks and tests can name them: code, kind, value, minimum
# order, days until expiry (negative: already expired), active.
FIXED_COUPONS = [
    ("SAVE10", "percent", 10.0, 30.0, 90, True),
    ("WELCOME5", "fixed", 5.0, 20.0, 365, True),
    ("BIG30", "fixed", 30.0, 200.0, 60, True),
    ("SPRING15", "percent", 15.0, 0.0, -20, True),
    ("VIP25", "percent", 25.0, 100.0, 120, False),
]
RETURN_REASONS = ["Damaged on arrival", "Wrong size", "Not as described", "No longer needed"]
REVIEW_TITLES = ["Disappointed", "Broke quickly", "Does the job", "Great value", "Would buy again"]


def _id(table: type, n: int) -> str:
    return f"{marks(table).prefix}-{n:06d}"


def _products(s: Seeder, categories: list[dict]) -> list[dict]:
    """Products dealt round the categories, priced in each category's range; some out of stock or inactive."""
    products = []
    for i in range(s.count(small=60, medium=400, large=5_000)):
        cat = categories[i % len(categories)]
        low, high, kinds = CATALOG[cat["name"]]
        noun, brand, style = s.pick(kinds.split(", ")), s.pick(BRANDS), s.pick(STYLES)
        roll = s.rng.random()
        products.append(
            {
                "id": _id(Product, i + 1),
                "category_id": cat["id"],
                "name": f"{brand} {style} {noun}",
                "brand": brand,
                "description": f"{style} {noun.lower()} by {brand}, {s.pick(['black', 'white', 'blue', 'grey'])}",
                "price": s.money(low, high),
                "stock": 0 if roll < 0.1 else s.rng.randint(1, 3) if roll < 0.2 else s.rng.randint(5, 250),
                "max_per_order": s.pick([3, 5, 10, 10, 20]),
                "active": s.chance(0.93),
                "rating": None,
                "review_count": 0,
            }
        )
    return products


def _coupons(s: Seeder) -> list[dict]:
    """The fixed coupons the tasks name, then random ones (none at small scale)."""
    coupons = [
        {
            "id": _id(Coupon, i + 1),
            "code": code,
            "kind": kind,
            "value": value,
            "min_order": min_order,
            "expires_on": (s.now + timedelta(days=days)).date().isoformat(),
            "active": active,
        }
        for i, (code, kind, value, min_order, days, active) in enumerate(FIXED_COUPONS)
    ]
    for i in range(s.count(small=0, medium=25, large=300)):
        kind = s.pick(["percent", "fixed"])
        value = float(s.pick([5, 10, 15, 20])) if kind == "percent" else float(s.pick([5, 10, 15, 25]))
        coupons.append(
            {
                "id": _id(Coupon, len(coupons) + 1),
                "code": f"{s.pick(['DEAL', 'TAKE', 'SHOP', 'HELLO', 'FLASH'])}{int(value)}X{i + 1}",
                "kind": kind,
                "value": value,
                "min_order": float(s.pick([0, 25, 50, 75, 150])),
                "expires_on": s.day_offset(-120, 180),
                "active": s.chance(0.85),
            }
        )
    return coupons


def _carts(s: Seeder, customers: list[dict], products: list[dict]) -> list[dict]:
    """Almost half the customers have a few products in their cart."""
    carts = []
    for c in customers:
        if s.chance(0.45):
            for p in {s.pick(products)["id"]: None for _ in range(s.rng.randint(1, 4))}:
                carts.append(
                    {
                        "id": _id(CartItem, len(carts) + 1),
                        "customer_id": c["id"],
                        "product_id": p,
                        "quantity": s.pick([1, 1, 1, 2, 3]),
                        "added_at": s.moment_offset(-20, 0),
                    }
                )
    return carts


def _rate(products: list[dict], reviews: list[dict]) -> None:
    """Each product's rating and review count, from its reviews."""
    by_product: dict[str, list[int]] = {}
    for r in reviews:
        by_product.setdefault(r["product_id"], []).append(r["rating"])
    for p in products:
        stars = by_product.get(p["id"], [])
        p["rating"], p["review_count"] = (round(sum(stars) / len(stars), 2) if stars else None), len(stars)


@shopping.seed
def fill(s: Seeder) -> None:
    categories = [
        {"id": _id(Category, i + 1), "name": name, "description": f"{name}: {kinds.lower()}"}
        for i, (name, (_, _, kinds)) in enumerate(CATALOG.items())
    ]
    products = _products(s, categories)
    coupons = _coupons(s)
    customers, addresses, payments = _seed_people(s)
    orders, items, returns, reviews = _seed_orders(s, customers, addresses, payments, products, coupons)
    carts = _carts(s, customers, products)
    _rate(products, reviews)
    for table, rows in [
        (Category, categories),
        (Product, products),
        (Customer, customers),
        (Address, addresses),
        (PaymentMethod, payments),
        (Coupon, coupons),
        (CartItem, carts),
        (Order, orders),
        (OrderItem, items),
        (Return, returns),
        (Review, reviews),
    ]:
        s.add(table, rows)


def _seed_people(s: Seeder) -> tuple[list[dict], list[dict], list[dict]]:
    """Customers (the first people of the shared world: customer 1 is the persona) with one to
    three addresses and one to three payment methods.

    Addresses are points of the world's street grid, so they geocode the same everywhere: the
    home address is the person's own home, work is a street in their employer's city, and the
    parents live somewhere else on the map.
    """
    world = s.world
    people = world.pick_people(min(s.count(small=30, medium=400, large=12_000), len(world.people)))
    customers, addresses, payments = [], [], []
    for i, person in enumerate(people):
        cid = _id(Customer, i + 1)
        customers.append(
            {
                "id": cid,
                "name": person.name,
                "email": person.email,
                "phone": person.phone,
                "joined_on": s.day_offset(-1500, -40),
            }
        )
        places = {
            "home": person.home,
            "work": _house_in(s, world.employer(person).city),
            "parents": _house_in(s, s.pick(geo.CITIES).name),
        }
        for k, label in enumerate(list(places)[: s.pick([1, 1, 2, 3])]):
            place = places[label]
            addresses.append(
                {
                    "id": _id(Address, len(addresses) + 1),
                    "customer_id": cid,
                    "label": label,
                    "street": f"{place.number} {place.street}",
                    "city": place.city,
                    "state": geo.city(place.city).region,
                    "zip": place.postal_code,
                    "is_default": k == 0,
                }
            )
        for _ in range(s.pick([1, 1, 2, 3])):
            kind = s.pick(["card", "card", "card", "paypal", "gift_card"])
            expires = f"{s.rng.randint(2025, 2030)}-{s.rng.randint(1, 12):02d}" if kind == "card" else None
            label = {"card": f"{s.pick(['Visa', 'Mastercard', 'Amex'])} ending {s.rng.randint(0, 9999):04d}"}
            payments.append(
                {
                    "id": _id(PaymentMethod, len(payments) + 1),
                    "customer_id": cid,
                    "kind": kind,
                    "label": label.get(kind, "PayPal" if kind == "paypal" else "Store gift card"),
                    "expires": expires,
                }
            )
    return customers, addresses, payments


def _house_in(s: Seeder, city: str) -> geo.Address:
    """A random house on the city's street grid."""
    return geo.address(city, s.rng.randrange(len(geo.STREET_NAMES)), s.rng.randint(1, geo.HOUSES_PER_STREET))


def _seed_orders(s: Seeder, customers: list, addresses: list, payments: list, products: list, coupons: list):
    """Order history over the last ~200 days (more of it recent), with its returns and reviews.

    Long because each order draws its lines, coupon, dates, status and carrier, then each delivered line's
    return or review, in one fixed order that the snapshot bytes depend on, and those steps share most of
    the order's values.
    """
    addr_of: dict[str, list[str]] = {}
    for a in addresses:
        addr_of.setdefault(a["customer_id"], []).append(a["id"])
    pay_of: dict[str, list[str]] = {}
    for p in payments:
        pay_of.setdefault(p["customer_id"], []).append(p["id"])
    price_of = {p["id"]: p["price"] for p in products}
    orders, items, returns, reviews, reviewed = [], [], [], [], set()
    for c in customers:
        for _ in range(s.pick([0, 1, 1, 2, 2, 3, 4, 5])):
            placed = s.now - timedelta(seconds=int(200 * 86400 * s.rng.random() ** 2) + 600)
            age = (s.now - placed).total_seconds() / 86400
            oid = _id(Order, len(orders) + 1)
            lines = {s.pick(products)["id"]: s.pick([1, 1, 1, 2, 3]) for _ in range(s.rng.randint(1, 4))}
            subtotal = 0.0
            for pid, qty in lines.items():
                unit = price_of[pid]
                subtotal = round(subtotal + unit * qty, 2)
                items.append(
                    {
                        "id": _id(OrderItem, len(items) + 1),
                        "order_id": oid,
                        "product_id": pid,
                        "quantity": qty,
                        "unit_price": unit,
                        "returned_qty": 0,
                    }
                )
            coupon = s.pick(coupons) if s.chance(0.2) else None
            if coupon and subtotal < coupon["min_order"]:
                coupon = None
            discount = _discount(coupon, subtotal) if coupon else 0.0
            ship_after, deliver_after = s.rng.randint(1, 3), s.rng.randint(4, 8)
            stage = sum(age >= days for days in (0.5, ship_after, deliver_after))
            status = (
                "cancelled" if s.chance(0.06) else ("placed", "processing", "shipped", "delivered")[stage]
            )
            shipped = (placed + timedelta(days=ship_after)).date().isoformat()
            delivered = (placed + timedelta(days=deliver_after)).date().isoformat()
            after_delivery = (placed + timedelta(days=deliver_after + 2)).isoformat(timespec="seconds")
            fee = 0.0 if subtotal - discount >= FREE_SHIPPING_FROM else SHIPPING_FEE
            sent = status in ("shipped", "delivered")
            orders.append(
                {
                    "id": oid,
                    "customer_id": c["id"],
                    "address_id": s.pick(addr_of[c["id"]]),
                    "payment_id": s.pick(pay_of[c["id"]]),
                    "coupon_id": coupon["id"] if coupon else None,
                    "status": status,
                    "subtotal": subtotal,
                    "discount": discount,
                    "shipping_fee": fee,
                    "total": round(subtotal - discount + fee, 2),
                    "placed_at": placed.isoformat(timespec="seconds"),
                    "shipped_on": shipped if sent else None,
                    "delivered_on": delivered if status == "delivered" else None,
                    "carrier": s.pick(["UPS", "FedEx", "USPS"]) if sent else None,
                    "tracking_number": f"1Z{s.rng.randint(10**9, 10**10 - 1)}" if sent else None,
                    "cancel_reason": "Changed my mind" if status == "cancelled" else None,
                }
            )
            if status != "delivered":
                continue
            for line in items[len(items) - len(lines) :]:
                if s.chance(0.06):
                    line["returned_qty"] = line["quantity"]
                    share = line["unit_price"] * line["quantity"]
                    returns.append(
                        {
                            "id": _id(Return, len(returns) + 1),
                            "order_id": oid,
                            "order_item_id": line["id"],
                            "quantity": line["quantity"],
                            "reason": s.pick(RETURN_REASONS),
                            "refund_amount": round(share - discount * share / subtotal, 2),
                            "status": "refunded" if age > deliver_after + 10 else "requested",
                            "requested_at": after_delivery,
                        }
                    )
                elif s.chance(0.15) and (c["id"], line["product_id"]) not in reviewed:
                    reviewed.add((c["id"], line["product_id"]))
                    stars = s.pick([1, 2, 3, 4, 4, 5, 5, 5])
                    reviews.append(
                        {
                            "id": _id(Review, len(reviews) + 1),
                            "product_id": line["product_id"],
                            "customer_id": c["id"],
                            "rating": stars,
                            "title": s.pick(REVIEW_TITLES[:2] if stars < 3 else REVIEW_TITLES[2:]),
                            "body": "Works as expected." if stars >= 3 else "Not what I hoped for.",
                            "created_at": after_delivery,
                        }
                    )
    return orders, items, returns, reviews


# -- rules shared by several tools -------------------------------------------------------------


def _discount(coupon: dict, subtotal: float) -> float:
    off = subtotal * coupon["value"] / 100 if coupon["kind"] == "percent" else coupon["value"]
    return round(min(off, subtotal), 2)


def _owned(db: Db, table: type, id: str, customer: str) -> dict:
    """A row that must belong to the given customer."""
    row = db.get(table, id)
    if row["customer_id"] != customer:
        raise ToolError(f"{marks(table).noun or 'record'} {id} belongs to another customer, not {customer}")
    return row


def _check_quantity(product: dict, quantity: int) -> None:
    """Can this many units of the product be bought right now?"""
    pid = product["id"]
    if not product["active"]:
        raise ToolError(f"product {pid} ({product['name']}) is discontinued and can no longer be bought")
    if product["stock"] == 0:
        raise ToolError(
            f"product {pid} ({product['name']}) is out of stock; it can be ordered once restocked"
        )
    if quantity > product["stock"]:
        raise ToolError(
            f"not enough stock: only {product['stock']} of {pid} ({product['name']}) left, {quantity} requested"
        )
    if quantity > product["max_per_order"]:
        raise ToolError(
            f"product {pid} is limited to {product['max_per_order']} per order, {quantity} requested"
        )


def _usable_payment(db: Db, payment: str, customer: str) -> dict:
    pm = _owned(db, PaymentMethod, payment, customer)
    if pm["expires"] and pm["expires"] < db.today.isoformat()[:7]:
        raise ToolError(
            f"payment method {payment} ({pm['label']}) expired in {pm['expires']}; use another one"
        )
    return pm


def _coupon_for(db: Db, code: str, customer: str, subtotal: float) -> dict:
    """The coupon with this code if it can apply to this customer's order of ``subtotal``."""
    c = db.one("SELECT * FROM coupons WHERE upper(code) = upper(?)", code.strip())
    if c is None:
        raise ToolError(f"there is no coupon with the code {code!r}")
    if not c["active"]:
        raise ToolError(f"coupon {c['code']} has been deactivated and cannot be used")
    if c["expires_on"] < db.today.isoformat():
        raise ToolError(f"coupon {c['code']} expired on {c['expires_on']}")
    if subtotal < c["min_order"]:
        raise ToolError(
            f"coupon {c['code']} needs an order of at least {c['min_order']:.2f}; this one comes to {subtotal:.2f}"
        )
    used = db.scalar(
        "SELECT id FROM orders WHERE customer_id = ? AND coupon_id = ? AND status != 'cancelled'",
        customer,
        c["id"],
    )
    if used:
        raise ToolError(
            f"customer {customer} already used coupon {c['code']} on order {used}; it is once per customer"
        )
    return c


def _cart(db: Db, customer: str) -> list[dict]:
    return db.all(
        "SELECT c.id, c.product_id, p.name, p.price, c.quantity, round(p.price * c.quantity, 2) AS line_total, "
        "p.stock, p.active, p.max_per_order FROM cart_items c JOIN products p ON p.id = c.product_id "
        "WHERE c.customer_id = ? ORDER BY c.id",
        customer,
    )


def _order_with_items(db: Db, order: dict) -> dict:
    items = db.all(
        "SELECT i.*, p.name FROM order_items i JOIN products p ON p.id = i.product_id WHERE order_id = ? ORDER BY i.id",
        order["id"],
    )
    return {**order, "items": items}


# -- catalog -------------------------------------------------------------------------------------


@shopping.tool(returns=Category, says=["what categories do you sell?", "list the product categories"])
def list_categories(db: Db) -> dict:
    """All product categories with how many products each holds."""
    rows = db.all(
        "SELECT c.*, count(p.id) AS products FROM categories c LEFT JOIN products p ON p.category_id = c.id "
        "GROUP BY c.id ORDER BY c.id"
    )
    return {"categories": rows}


@shopping.tool(
    returns=Product,
    says=[
        "show me products in category {category}",
        "what can I buy in {category} right now?",
    ],
)
def browse_category(db: Db, category: Ref[Category], in_stock_only: bool = False, limit: Limit = 20) -> dict:
    """List the products of one category, cheapest first.

    Args:
        category: The category to browse.
        in_stock_only: Only products that can be bought right now.
        limit: Maximum number of products.
    """
    db.get(Category, category)
    cond = "AND active = 1 AND stock > 0" if in_stock_only else ""
    rows = db.all(
        f"SELECT * FROM products WHERE category_id = ? {cond} ORDER BY price, id LIMIT ?", category, limit
    )
    return {"category": category, "products": rows}


@shopping.tool(
    returns=Product,
    says=[
        "search for {query}",
        "find {query} between {min_price} and {max_price} dollars",
        "any {query} under {max_price}?",
    ],
)
def search_products(
    db: Db,
    query: Annotated[ShortText, Field(examples=["headphones", "coffee", "yoga mat", "Kestrel", "jacket"])],
    min_price: Money | None = None,
    max_price: Money | None = None,
    category: Ref[Category] | None = None,
    in_stock_only: bool = False,
    limit: Limit = 10,
) -> dict:
    """Search the catalog by words in a product's name, brand or description, with optional price range.

    Args:
        query: Words to look for, e.g. "headphones" or a brand.
        min_price: Lowest price to include.
        max_price: Highest price to include.
        category: Only search this category.
        in_stock_only: Only products that can be bought right now.
        limit: Maximum number of products.
    """
    if min_price is not None and max_price is not None and min_price > max_price:
        raise ToolError(f"min_price {min_price:.2f} is above max_price {max_price:.2f}")
    if not query.split():
        raise ToolError("query needs at least one word to look for, e.g. 'headphones'")
    conds, params = [], []
    for word in query.lower().split():
        conds.append("(lower(name) LIKE ? OR lower(brand) LIKE ? OR lower(description) LIKE ?)")
        params += [f"%{word}%"] * 3
    for cond, value in [("price >= ?", min_price), ("price <= ?", max_price), ("category_id = ?", category)]:
        if value is not None:
            conds.append(cond)
            params.append(value)
    if in_stock_only:
        conds.append("active = 1 AND stock > 0")
    rows = db.all(
        f"SELECT * FROM products WHERE {' AND '.join(conds)} ORDER BY price, id LIMIT ?", *params, limit
    )
    return {"query": query, "products": rows}


@shopping.tool(
    returns=Product, says=["tell me about product {product}", "how many units of {product} are in stock?"]
)
def get_product(db: Db, product: Ref[Product]) -> dict:
    """One product's details: price, stock, per-order limit, whether it is still sold, and its rating."""
    p = db.get(Product, product)
    return {**p, "category": db.get(Category, p["category_id"])["name"]}


# -- customers -------------------------------------------------------------------------------------


@shopping.tool(returns=Customer, says=["show me customer {customer}", "who is {customer}?"])
def get_customer(db: Db, customer: Ref[Customer]) -> dict:
    """A customer's profile and contact details."""
    return db.get(Customer, customer)


@shopping.tool(
    returns=Customer, says=["find the customer with email {email}", "look up the account for {email}"]
)
def find_customer_by_email(db: Db, email: ShortText) -> dict:
    """Find a customer by their exact email address."""
    row = db.one("SELECT * FROM customers WHERE lower(email) = lower(?)", email.strip())
    if row is None:
        raise ToolError(f"no customer has the email {email!r}")
    return row


@shopping.tool(
    returns=Address, says=["list the addresses of {customer}", "where can we ship for {customer}?"]
)
def list_addresses(db: Db, customer: Ref[Customer]) -> dict:
    """A customer's saved shipping addresses; the default one first."""
    db.get(Customer, customer)
    rows = db.all("SELECT * FROM addresses WHERE customer_id = ? ORDER BY is_default DESC, id", customer)
    return {"customer": customer, "addresses": rows}


@shopping.tool(
    writes=[Address],
    returns=Address,
    says=[
        "add {street}, {city} {state} {zip_code} as {label} address for {customer}",
        "save a new address for {customer}: {street}, {city}, {state} {zip_code}",
    ],
)
def add_address(
    db: Db,
    customer: Ref[Customer],
    street: Annotated[ShortText, Field(examples=["12 Elm Street", "400 Market St Apt 5"])],
    city: Annotated[ShortText, Field(examples=["Springfield", "Portland", "Austin"])],
    state: Annotated[str, Field(pattern=r"^[A-Z]{2}$", examples=["CA", "NY", "TX"])],
    zip_code: Annotated[str, Field(pattern=r"^\d{5}$", examples=["94110", "10001"])],
    label: Annotated[ShortText, Field(examples=["home", "work", "cabin"])] = "home",
    make_default: bool = False,
) -> dict:
    """Save a new shipping address for a customer (at most 5).

    Args:
        customer: Whose address it is.
        street: Street and number.
        city: City.
        state: Two-letter state code, e.g. CA.
        zip_code: Five-digit ZIP code.
        label: A name for the address, e.g. home or work.
        make_default: Use it as the default shipping address from now on.
    """
    db.get(Customer, customer)
    n = db.scalar("SELECT count(*) FROM addresses WHERE customer_id = ?", customer)
    if n >= 5:
        raise ToolError(f"customer {customer} already has {n} addresses; the limit is 5")
    if make_default:
        db.execute("UPDATE addresses SET is_default = 0 WHERE customer_id = ? AND is_default", customer)
    return db.insert(
        Address,
        customer_id=customer,
        label=label,
        street=street,
        city=city,
        state=state,
        zip=zip_code,
        is_default=make_default or n == 0,
    )


@shopping.tool(
    returns=PaymentMethod, says=["how can {customer} pay?", "list the payment methods saved for {customer}"]
)
def list_payment_methods(db: Db, customer: Ref[Customer]) -> dict:
    """A customer's saved payment methods, each marked usable or expired."""
    db.get(Customer, customer)
    month = db.today.isoformat()[:7]
    rows = db.all("SELECT * FROM payment_methods WHERE customer_id = ? ORDER BY id", customer)
    return {
        "customer": customer,
        "payment_methods": [{**r, "expired": bool(r["expires"] and r["expires"] < month)} for r in rows],
    }


# -- cart ------------------------------------------------------------------------------------------


@shopping.tool(
    returns=CartItem, says=["what's in {customer}'s cart?", "show the shopping cart of {customer}"]
)
def view_cart(db: Db, customer: Ref[Customer]) -> dict:
    """The items in a customer's cart with line totals and the subtotal."""
    db.get(Customer, customer)
    lines = _cart(db, customer)
    return {"customer": customer, "items": lines, "subtotal": round(sum(x["line_total"] for x in lines), 2)}


@shopping.tool(
    writes=[CartItem],
    returns=CartItem,
    says=[
        "add {quantity} of {product} to {customer}'s cart",
        "put product {product} in the cart for {customer}",
    ],
)
def add_to_cart(db: Db, customer: Ref[Customer], product: Buyable, quantity: Quantity = 1) -> dict:
    """Add units of a product to a customer's cart (adds to the quantity already there).

    Args:
        customer: Whose cart.
        product: The product to add.
        quantity: How many units to add.
    """
    db.get(Customer, customer)
    p = db.get(Product, product)
    line = db.one("SELECT * FROM cart_items WHERE customer_id = ? AND product_id = ?", customer, product)
    _check_quantity(p, quantity + (line["quantity"] if line else 0))
    if line:
        return db.update(CartItem, line["id"], quantity=line["quantity"] + quantity)
    if db.scalar("SELECT count(*) FROM cart_items WHERE customer_id = ?", customer) >= MAX_CART_LINES:
        raise ToolError(
            f"the cart of {customer} already holds {MAX_CART_LINES} different products, the maximum"
        )
    return db.insert(
        CartItem, customer_id=customer, product_id=product, quantity=quantity, added_at=db.stamp()
    )


@shopping.tool(
    writes=[CartItem],
    returns=CartItem,
    idempotent=True,
    says=[
        "change the quantity of cart item {item} to {quantity}",
        "I want {quantity} of cart line {item} instead",
    ],
)
def update_cart_quantity(db: Db, item: Ref[CartItem], quantity: Quantity) -> dict:
    """Set how many units a cart line holds (use remove_from_cart to drop it)."""
    line = db.get(CartItem, item)
    _check_quantity(db.get(Product, line["product_id"]), quantity)
    return db.update(CartItem, item, quantity=quantity)


@shopping.tool(
    writes=[CartItem],
    destructive=True,
    idempotent=True,
    says=["remove cart item {item}", "take {item} out of the cart"],
)
def remove_from_cart(db: Db, item: Ref[CartItem]) -> dict:
    """Remove one line from a cart."""
    line = db.get(CartItem, item)
    db.delete(CartItem, item)
    return {"removed": item, "product_id": line["product_id"], "customer": line["customer_id"]}


@shopping.tool(
    writes=[CartItem],
    destructive=True,
    idempotent=True,
    says=["empty the cart of {customer}", "clear everything out of {customer}'s cart"],
)
def empty_cart(db: Db, customer: WithCart) -> dict:
    """Remove every item from a customer's cart."""
    db.get(Customer, customer)
    n = db.execute("DELETE FROM cart_items WHERE customer_id = ?", customer)
    return {"customer": customer, "removed_items": n}


# -- coupons and checkout ----------------------------------------------------------------------------


@shopping.tool(
    returns=Coupon,
    says=["can {customer} use coupon {code}?", "how much would code {code} save on {customer}'s cart?"],
)
def validate_coupon(db: Db, customer: Ref[Customer], code: CouponCode) -> dict:
    """Check a coupon code against a customer's current cart and say what it would take off.

    Args:
        customer: Whose cart the coupon is meant for.
        code: The coupon code, e.g. SAVE10.
    """
    db.get(Customer, customer)
    subtotal = round(sum(x["line_total"] for x in _cart(db, customer)), 2)
    c = _coupon_for(db, code, customer, subtotal)
    return {**c, "valid": True, "cart_subtotal": subtotal, "discount": _discount(c, subtotal)}


@shopping.tool(
    writes=[Order, OrderItem, Product, CartItem],
    returns=Order,
    needs=[CartItem],
    says=[
        "check out {customer}'s cart, ship to {address} and pay with {payment}",
        "place the order for {customer} to {address} using {payment} with coupon {coupon_code}",
    ],
)
def checkout(
    db: Db,
    customer: WithCart,
    address: Ref[Address],
    payment: UsablePayment,
    coupon_code: CouponCode | None = None,
) -> dict:
    """Turn a customer's cart into an order: checks stock, applies a coupon, takes the stock, empties the cart.

    Args:
        customer: Whose cart to check out.
        address: One of the customer's addresses to ship to.
        payment: One of the customer's unexpired payment methods.
        coupon_code: Optional coupon code to apply.
    """
    db.get(Customer, customer)
    lines = _cart(db, customer)
    if not lines:
        raise ToolError(f"the cart of {customer} is empty; add products with add_to_cart before checking out")
    _owned(db, Address, address, customer)
    _usable_payment(db, payment, customer)
    for line in lines:
        try:
            _check_quantity(db.get(Product, line["product_id"]), line["quantity"])
        except ToolError as exc:
            raise ToolError(
                f"cannot check out: {exc}; change or remove cart item {line['id']} first"
            ) from None
    subtotal = round(sum(x["line_total"] for x in lines), 2)
    coupon = _coupon_for(db, coupon_code, customer, subtotal) if coupon_code else None
    discount = _discount(coupon, subtotal) if coupon else 0.0
    fee = 0.0 if subtotal - discount >= FREE_SHIPPING_FROM else SHIPPING_FEE
    order = db.insert(
        Order,
        customer_id=customer,
        address_id=address,
        payment_id=payment,
        coupon_id=coupon["id"] if coupon else None,
        status="placed",
        subtotal=subtotal,
        discount=discount,
        shipping_fee=fee,
        total=round(subtotal - discount + fee, 2),
        placed_at=db.stamp(),
    )
    for line in lines:
        db.insert(
            OrderItem,
            order_id=order["id"],
            product_id=line["product_id"],
            quantity=line["quantity"],
            unit_price=line["price"],
            returned_qty=0,
        )
        db.execute("UPDATE products SET stock = stock - ? WHERE id = ?", line["quantity"], line["product_id"])
    db.execute("DELETE FROM cart_items WHERE customer_id = ?", customer)
    return _order_with_items(db, order)


# -- orders ----------------------------------------------------------------------------------------------


@shopping.tool(
    returns=Order,
    says=["show the orders of {customer}", "list {customer}'s {status} orders since {placed_since}"],
)
def list_orders(
    db: Db,
    customer: Ref[Customer],
    status: OrderStatus | None = None,
    placed_since: Day | None = None,
    limit: Limit = 10,
) -> dict:
    """A customer's orders, newest first.

    Args:
        customer: Whose orders.
        status: Only orders in this status.
        placed_since: Only orders placed on or after this day.
        limit: Maximum number of orders.
    """
    db.get(Customer, customer)
    rows = db.all(
        "SELECT * FROM orders WHERE customer_id = ? AND (? IS NULL OR status = ?) AND (? IS NULL OR placed_at >= ?) "
        "ORDER BY placed_at DESC, id DESC LIMIT ?",
        customer,
        status,
        status,
        placed_since,
        placed_since,
        limit,
    )
    return {"customer": customer, "orders": rows}


@shopping.tool(returns=Order, says=["show me order {order}", "what was in order {order}?"])
def get_order(db: Db, order: Ref[Order]) -> dict:
    """An order with its items, amounts, status and any returns."""
    o = _order_with_items(db, db.get(Order, order))
    o["returns"] = db.all("SELECT * FROM returns WHERE order_id = ? ORDER BY id", order)
    return o


@shopping.tool(returns=Order, says=["where is my order {order}?", "track order {order}"])
def track_order(db: Db, order: Ref[Order]) -> dict:
    """Where an order is: status, carrier, tracking number and (expected) delivery date."""
    o = db.get(Order, order)
    out = {k: o[k] for k in ("id", "status", "carrier", "tracking_number", "shipped_on", "delivered_on")}
    if o["status"] == "shipped":
        out["expected_delivery"] = (date.fromisoformat(o["shipped_on"]) + timedelta(days=5)).isoformat()
    elif o["status"] in ("placed", "processing"):
        out["expected_ship_by"] = (date.fromisoformat(o["placed_at"][:10]) + timedelta(days=3)).isoformat()
    return out


@shopping.tool(
    writes=[Order, Product],
    returns=Order,
    destructive=True,
    idempotent=True,
    says=["cancel order {order}", "please cancel my order {order}, {reason}"],
)
def cancel_order(
    db: Db,
    order: Unshipped,
    reason: Annotated[
        ShortText, Field(examples=["Ordered by mistake", "Found it cheaper", "Changed my mind"])
    ],
) -> dict:
    """Cancel an order that has not shipped yet; its items go back in stock and the total is refunded.

    Args:
        order: The order to cancel.
        reason: Why the customer cancels.
    """
    o = db.get(Order, order)
    if o["status"] == "cancelled":
        raise ToolError(f"order {order} is already cancelled")
    if o["status"] in ("shipped", "delivered"):
        raise ToolError(
            f"order {order} is already {o['status']} (shipped on {o['shipped_on']}) and can no longer be cancelled; "
            + (
                "request a return instead"
                if o["status"] == "delivered"
                else "it can be returned once delivered"
            )
        )
    db.execute(
        "UPDATE products SET stock = stock + (SELECT sum(quantity) FROM order_items i "
        "WHERE i.order_id = ? AND i.product_id = products.id) "
        "WHERE id IN (SELECT product_id FROM order_items WHERE order_id = ?)",
        order,
        order,
    )
    updated = db.update(Order, order, status="cancelled", cancel_reason=reason)
    return {**updated, "refund_amount": o["total"]}


@shopping.tool(
    writes=[Order],
    returns=Order,
    idempotent=True,
    says=[
        "ship order {order} to address {address} instead",
        "change the delivery address of {order} to {address}",
    ],
)
def change_shipping_address(db: Db, order: Unshipped, address: Ref[Address]) -> dict:
    """Send an order that has not shipped yet to another of the customer's saved addresses."""
    o = db.get(Order, order)
    if o["status"] not in ("placed", "processing"):
        raise ToolError(
            f"order {order} is {o['status']}; the address can only change while an order is placed or processing"
        )
    _owned(db, Address, address, o["customer_id"])
    return db.update(Order, order, address_id=address)


# -- returns ---------------------------------------------------------------------------------------------


@shopping.tool(
    writes=[Return, OrderItem],
    returns=Return,
    says=["return order item {item} because {reason}", "I want to send back {quantity} of {item}: {reason}"],
)
def request_return(
    db: Db,
    item: Returnable,
    reason: Annotated[ShortText, Field(examples=RETURN_REASONS)],
    quantity: Quantity | None = None,
) -> dict:
    """Return units of one line of a delivered order, within 30 days of delivery; refunds what was paid for them.

    Args:
        item: The order item (line) to return.
        reason: Why it goes back.
        quantity: How many units; defaults to all not yet returned.
    """
    line = db.get(OrderItem, item)
    o = db.get(Order, line["order_id"])
    if o["status"] != "delivered":
        raise ToolError(f"order {o['id']} is {o['status']}; only delivered orders can be returned")
    last_day = date.fromisoformat(o["delivered_on"]) + timedelta(days=RETURN_DAYS)
    if db.today > last_day:
        raise ToolError(
            f"the return window is closed: order {o['id']} was delivered on {o['delivered_on']} and returns "
            f"were accepted for {RETURN_DAYS} days, until {last_day.isoformat()}"
        )
    left = line["quantity"] - line["returned_qty"]
    if left == 0:
        raise ToolError(f"order item {item} was already returned in full ({line['quantity']} units)")
    quantity = quantity or left
    if quantity > left:
        raise ToolError(
            f"only {left} unit(s) of order item {item} can still be returned, {quantity} requested"
        )
    share = line["unit_price"] * quantity
    refund = round(share - o["discount"] * share / o["subtotal"], 2)
    db.update(OrderItem, item, returned_qty=line["returned_qty"] + quantity)
    return db.insert(
        Return,
        order_id=o["id"],
        order_item_id=item,
        quantity=quantity,
        reason=reason,
        refund_amount=refund,
        status="requested",
        requested_at=db.stamp(),
    )


@shopping.tool(
    returns=Return, says=["what's the status of return {return_id}?", "has return {return_id} been refunded?"]
)
def get_return(db: Db, return_id: Ref[Return]) -> dict:
    """A return's status, quantity and refund amount."""
    r = db.get(Return, return_id)
    product = db.one(
        "SELECT p.id, p.name FROM order_items i JOIN products p ON p.id = i.product_id WHERE i.id = ?",
        r["order_item_id"],
    )
    return {**r, "product": product}


# -- reviews -----------------------------------------------------------------------------------------------


@shopping.tool(
    returns=Review,
    says=["what do people say about {product}?", "show the latest {limit} reviews of {product}"],
)
def list_reviews(db: Db, product: Ref[Product], limit: Limit = 10) -> dict:
    """A product's reviews, newest first, with its average rating."""
    p = db.get(Product, product)
    rows = db.all(
        "SELECT * FROM reviews WHERE product_id = ? ORDER BY created_at DESC, id DESC LIMIT ?", product, limit
    )
    return {"product": product, "rating": p["rating"], "review_count": p["review_count"], "reviews": rows}


@shopping.tool(
    writes=[Review, Product],
    returns=Review,
    says=[
        "{customer} gives {product} {rating} stars: {title}",
        "post a review of {product} for {customer}, {rating} out of 5, titled '{title}': {body}",
    ],
)
def write_review(
    db: Db,
    customer: Buyer,
    product: Bought,
    rating: Rating,
    title: Annotated[ShortText, Field(examples=REVIEW_TITLES)],
    body: Annotated[ShortText, Field(examples=["Sturdy and well made.", "Stopped working after a week."])]
    | None = None,
) -> dict:
    """Review a product the customer has received; one review per customer and product.

    Args:
        customer: Who writes the review.
        product: The product reviewed.
        rating: Stars from 1 to 5.
        title: A one-line summary.
        body: The review text.
    """
    db.get(Customer, customer)
    db.get(Product, product)
    received = db.scalar(
        "SELECT count(*) FROM order_items i JOIN orders o ON o.id = i.order_id "
        "WHERE o.customer_id = ? AND i.product_id = ? AND o.status = 'delivered'",
        customer,
        product,
    )
    if not received:
        raise ToolError(
            f"customer {customer} has no delivered order containing {product}; only buyers can review it"
        )
    dup = db.scalar("SELECT id FROM reviews WHERE customer_id = ? AND product_id = ?", customer, product)
    if dup:
        raise ToolError(f"customer {customer} already reviewed {product} in {dup}; one review per product")
    review = db.insert(
        Review,
        product_id=product,
        customer_id=customer,
        rating=rating,
        title=title,
        body=body or "",
        created_at=db.stamp(),
    )
    avg, n = db.one(
        "SELECT avg(rating) AS a, count(*) AS n FROM reviews WHERE product_id = ?", product
    ).values()
    db.update(Product, product, rating=round(avg, 2), review_count=n)
    return review


# the words its customers use and its assistant answers with (read by the task generator)
from servers.domains.shopping import language as _language  # noqa: E402,F401
