"""Customers and their carts: lookups, and the one-restaurant cart with options and notes."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from servers.domains.food_delivery.model import (
    MAX_LINE_QUANTITY,
    CartItem,
    Customer,
    MenuItem,
    Restaurant,
    food_delivery,
)
from servers.domains.food_delivery.rules import (
    AnyCustomer,
    CartCustomer,
    CartedItem,
    OrderableItem,
    availability,
    cart_lines,
    check_range,
    fees,
    leg,
    subtotal_of,
)
from servers.kit import Db, Email, Quantity, ShortText, ToolError

Note = Annotated[ShortText, Field(examples=["no onions", "extra napkins please", "sauce on the side"])]
OptionNames = Annotated[
    list[ShortText],
    Field(max_length=6, description='Option names, e.g. ["Large", "Oat milk"].', examples=[["Large"]]),
]


@food_delivery.tool(
    returns=Customer,
    says=["find the customer with the email {email}", "who is the customer {email}?"],
)
def find_customer(db: Db, email: Email) -> dict:
    """Find a customer account by its exact email address."""
    # emails are stored lowercase, so the unique index answers
    row = db.one("SELECT * FROM customers WHERE email = ?", email.strip().lower())
    if row is None:
        raise ToolError(f"no customer has the email {email!r}")
    return row


@food_delivery.tool(
    returns=Customer,
    says=["find the customer whose phone number is {phone}", "look up the customer calling from {phone}"],
)
def find_customer_by_phone(db: Db, phone: ShortText) -> dict:
    """Find customer accounts by phone number (digits are compared, spaces and dashes ignored)."""
    digits = "".join(ch for ch in phone if ch.isdigit())
    if len(digits) < 7:
        raise ToolError(f"{phone!r} is not a phone number: give at least 7 digits, e.g. +1-503-555-0142")
    rows = db.all("SELECT * FROM customers WHERE phone = ? ORDER BY id", phone.strip()) or db.all(
        "SELECT * FROM customers WHERE replace(replace(replace(phone, '-', ''), '+', ''), ' ', '') LIKE ? ORDER BY id",
        f"%{digits}",
    )
    if not rows:
        raise ToolError(f"no customer has the phone number {phone!r}")
    return {"customers": rows}


def _cart_view(db: Db, customer: dict[str, Any]) -> dict:
    lines = cart_lines(db, customer["id"])
    out: dict[str, Any] = {"customer": customer["id"], "lines": [], "restaurant": None, "subtotal": 0.0}
    if not lines:
        return out
    r = db.get(Restaurant, lines[0]["restaurant_id"])
    subtotal = subtotal_of(lines)
    sold_out = {
        row["id"]
        for row in db.all(
            f"SELECT id FROM menu_items WHERE available = 0 AND id IN ({', '.join('?' for _ in lines)})",
            *[line["item_id"] for line in lines],
        )
    }
    f = fees(customer, r, subtotal)
    ride = leg(r["lat"], r["lon"], customer["lat"], customer["lon"])
    out.update(
        lines=[
            {
                **line,
                "line_total": round(line["unit_price"] * line["quantity"], 2),
                "sold_out": line["item_id"] in sold_out,
            }
            for line in lines
        ],
        restaurant={"id": r["id"], "name": r["name"], "min_order": r["min_order"], **availability(db, r)},
        subtotal=subtotal,
        **f,
        estimated_total_before_tip=round(subtotal + f["delivery_fee"] + f["service_fee"], 2),
        meets_min_order=subtotal >= r["min_order"],
        delivers_home=ride["distance_km"] <= r["radius_km"],
        credit_available=customer["credit"],
    )
    return out


@food_delivery.tool(
    returns=CartItem,
    says=["what's in the cart of {customer}?", "show {customer}'s cart with the fees"],
)
def view_cart(db: Db, customer: CartCustomer) -> dict:
    """A customer's cart: its lines, the restaurant and whether it takes orders now, the subtotal,
    the delivery and service fees checkout will charge, and whether the minimum order is met."""
    return _cart_view(db, db.get(Customer, customer))


def _options(db: Db, item: dict[str, Any], names: list[str]) -> tuple[str, float]:
    """The chosen option names in menu order and their price, after checking each one."""
    offered = db.all("SELECT * FROM item_options WHERE item_id = ? ORDER BY id", item["id"])
    by_name = {o["name"].casefold(): o for o in offered}
    picked, groups = [], {}
    for name in names:
        o = by_name.get(name.strip().casefold())
        if o is None:
            allowed = ", ".join(o["name"] for o in offered) or "none"
            raise ToolError(f"{item['name']} ({item['id']}) has no option {name!r}; its options: {allowed}")
        if o["choice"] == "one" and o["group_name"] in groups:
            raise ToolError(
                f"pick one {o['group_name']} for {item['name']}: {groups[o['group_name']]} and {o['name']} were both given"
            )
        groups.setdefault(o["group_name"], o["name"])
        if o not in picked:
            picked.append(o)
    picked.sort(key=lambda o: o["id"])
    return ", ".join(o["name"] for o in picked), round(sum(o["price_delta"] for o in picked), 2)


def _addable(db: Db, customer: dict[str, Any], item: dict[str, Any]) -> dict[str, Any]:
    """The item's restaurant, if this customer can add from it: one restaurant per cart, the
    item not sold out, the restaurant on the platform and delivering to the customer's home."""
    r = db.get(Restaurant, item["restaurant_id"])
    if not item["available"]:
        raise ToolError(f"{item['name']} ({item['id']}) at {r['name']} is sold out right now")
    if r["status"] == "closed":
        raise ToolError(f"{r['name']} ({r['id']}) is closed on the platform and takes no orders")
    other = db.one(
        "SELECT c.restaurant_id, r.name FROM cart_items c JOIN restaurants r ON r.id = c.restaurant_id "
        "WHERE c.customer_id = ? AND c.restaurant_id != ? LIMIT 1",
        customer["id"],
        r["id"],
    )
    if other is not None:
        raise ToolError(
            f"the cart of {customer['id']} holds items from {other['name']} ({other['restaurant_id']}); "
            f"a cart is from one restaurant at a time: remove those items before adding from {r['name']}"
        )
    check_range(r, customer["address"], customer["lat"], customer["lon"])
    return r


@food_delivery.tool(
    writes=[CartItem],
    returns=CartItem,
    says=[
        "add {quantity} {item} to the cart of {customer}",
        "put {item} in {customer}'s cart",
        "add {quantity} of {item} to {customer}'s cart with the note '{note}'",
    ],
)
def add_to_cart(
    db: Db,
    customer: AnyCustomer,
    item: OrderableItem,
    quantity: Quantity = 1,
    options: OptionNames | None = None,
    note: Note | None = None,
) -> dict:
    """Add a menu item to a customer's cart. The same item with the same options adds to its
    line; at most 30 of one line.

    Args:
        customer: Whose cart.
        item: The menu item.
        quantity: How many.
        options: Option names from the item's menu entry (one size; any add-ons).
        note: A note for the kitchen about this line.
    """
    c, it = db.get(Customer, customer), db.get(MenuItem, item)
    r = _addable(db, c, it)
    chosen, extra = _options(db, it, options or [])
    line = db.one(
        "SELECT * FROM cart_items WHERE customer_id = ? AND item_id = ? AND options = ?",
        customer,
        item,
        chosen,
    )
    have = line["quantity"] if line else 0
    if have + quantity > MAX_LINE_QUANTITY:
        raise ToolError(
            f"at most {MAX_LINE_QUANTITY} of one item per line: the cart already has {have} {it['name']}, "
            f"adding {quantity} would make {have + quantity}"
        )
    if line is not None:
        changes = {"quantity": have + quantity} | ({"note": note} if note else {})
        row = db.update(CartItem, line["id"], **changes)
    else:
        row = db.insert(
            CartItem,
            customer_id=customer,
            restaurant_id=r["id"],
            item_id=item,
            name=it["name"],
            options=chosen,
            unit_price=round(it["price"] + extra, 2),
            quantity=quantity,
            note=note or "",
            added_at=db.stamp(),
        )
    return {"line": row, "cart": _cart_view(db, c)}


def _lines_of(db: Db, customer: str, item: str) -> list[dict[str, Any]]:
    db.get(Customer, customer)
    it = db.get(MenuItem, item)
    lines = db.all(
        "SELECT * FROM cart_items WHERE customer_id = ? AND item_id = ? ORDER BY id", customer, item
    )
    if not lines:
        raise ToolError(f"{it['name']} ({item}) is not in the cart of {customer}")
    return lines


@food_delivery.tool(
    writes=[CartItem],
    returns=CartItem,
    idempotent=True,
    says=[
        "change the quantity of {item} in {customer}'s cart to {quantity}",
        "change {customer}'s cart so it has {quantity} of {item}",
    ],
)
def update_cart_item(db: Db, customer: CartCustomer, item: CartedItem, quantity: Quantity) -> dict:
    """Set how many of an item the customer's cart holds (1-30).

    Args:
        customer: Whose cart.
        item: The menu item in the cart.
        quantity: The new quantity.
    """
    lines = _lines_of(db, customer, item)
    if len(lines) > 1:
        kinds = "; ".join(f"{x['id']}: {x['options'] or 'no options'} x{x['quantity']}" for x in lines)
        raise ToolError(
            f"{lines[0]['name']} is in the cart {len(lines)} times with different options ({kinds}); "
            "remove it and add it again with the quantity wanted"
        )
    if quantity > MAX_LINE_QUANTITY:
        raise ToolError(f"at most {MAX_LINE_QUANTITY} of one item per line, {quantity} were asked for")
    row = db.update(CartItem, lines[0]["id"], quantity=quantity)
    return {"line": row, "cart": _cart_view(db, db.get(Customer, customer))}


@food_delivery.tool(
    writes=[CartItem],
    returns=CartItem,
    destructive=True,
    idempotent=True,
    says=["remove {item} from the cart of {customer}", "take {item} out of {customer}'s cart"],
)
def remove_from_cart(db: Db, customer: CartCustomer, item: CartedItem) -> dict:
    """Remove an item (every line of it) from a customer's cart.

    Args:
        customer: Whose cart.
        item: The menu item to take out.
    """
    lines = _lines_of(db, customer, item)
    for line in lines:
        db.delete(CartItem, line["id"])
    return {"removed": [x["id"] for x in lines], "cart": _cart_view(db, db.get(Customer, customer))}
