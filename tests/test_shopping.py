"""Shopping's business rules: failures really happen and change nothing, successes change exactly the right rows."""

from __future__ import annotations

import pytest

from servers.registry import get_domain
from tests.domain_helpers import DomainCalls, changes

DOMAIN = "shopping"
calls = DomainCalls(DOMAIN)
call, fails, rows, one = calls.call, calls.fails, calls.rows, calls.one
DISCOVERY = {"list_records", "search_records", "get_unique_values"}
TODAY, MONTH = "2026-06-01", "2026-06"

# Customers whose whole cart can be bought as it is, with an address and a usable payment method.
CLEAN_CARTS = f"""
SELECT c.customer_id AS customer, round(sum(p.price * c.quantity), 2) AS subtotal,
       (SELECT id FROM addresses a WHERE a.customer_id = c.customer_id ORDER BY id LIMIT 1) AS address,
       (SELECT id FROM payment_methods m WHERE m.customer_id = c.customer_id
          AND (m.expires IS NULL OR m.expires >= '{MONTH}') ORDER BY id LIMIT 1) AS payment
FROM cart_items c JOIN products p ON p.id = c.product_id
GROUP BY c.customer_id
HAVING min(p.active = 1 AND p.stock >= c.quantity AND p.max_per_order >= c.quantity) = 1
   AND payment IS NOT NULL
ORDER BY c.customer_id
"""


@pytest.fixture
def shop(make_env):
    env = make_env("shopping")
    return env, env.open()


def fresh_customer_with_payment(ep) -> dict:
    """A customer with an empty cart, an address and an unexpired payment method."""
    return one(
        ep,
        "SELECT c.id AS customer, (SELECT id FROM addresses WHERE customer_id = c.id LIMIT 1) AS address, "
        "(SELECT id FROM payment_methods WHERE customer_id = c.id AND (expires IS NULL OR expires >= ?) "
        "LIMIT 1) AS payment FROM customers c WHERE payment IS NOT NULL "
        "AND c.id NOT IN (SELECT customer_id FROM cart_items) "
        "AND c.id NOT IN (SELECT customer_id FROM orders WHERE coupon_id IS NOT NULL) ORDER BY c.id",
        MONTH,
    )


def buyable(ep, minimum: int = 1) -> dict:
    return one(
        ep,
        "SELECT * FROM products WHERE active = 1 AND stock >= ? AND max_per_order >= ? ORDER BY id",
        minimum,
        minimum,
    )


# -- the catalogue of tools ---------------------------------------------------------------------


def test_enough_tools_each_with_a_way_to_ask():
    domain = get_domain("shopping")
    own = [t for name, t in domain.tools.items() if name not in DISCOVERY]
    assert len(own) >= 23
    assert all(t.says for t in own)


def test_medium_snapshot_covers_every_situation(medium):
    def count(sql: str) -> int:
        return medium.execute(sql).fetchone()[0]

    assert count("SELECT count(*) FROM products WHERE stock = 0") > 0
    assert count("SELECT count(*) FROM products WHERE active = 0") > 0
    assert count(f"SELECT count(*) FROM coupons WHERE expires_on < '{TODAY}'") > 0
    assert count(f"SELECT count(*) FROM coupons WHERE expires_on >= '{TODAY}' AND active") > 0
    assert count(f"SELECT count(*) FROM payment_methods WHERE expires < '{MONTH}'") > 0
    for status in ("placed", "processing", "shipped", "delivered", "cancelled"):
        assert count(f"SELECT count(*) FROM orders WHERE status = '{status}'") > 0
    assert count(f"SELECT count(*) FROM orders WHERE delivered_on < date('{TODAY}', '-30 days')") > 0
    assert count("SELECT count(*) FROM order_items WHERE returned_qty = quantity") > 0


# -- catalog --------------------------------------------------------------------------------------


def test_search_respects_price_range(shop):
    env, ep = shop
    out = call(env, ep, "search_products", query="a", min_price=20, max_price=60)
    assert out["products"] and all(20 <= p["price"] <= 60 for p in out["products"])
    fails(env, ep, "search_products", "above max_price", query="a", min_price=60, max_price=20)
    assert ep.diff() == []


def test_unknown_ids_are_explained(shop):
    env, ep = shop
    fails(env, ep, "get_product", "does not exist", product="PRD-999999")
    fails(env, ep, "track_order", "does not exist", order="ORD-999999")


# -- cart ---------------------------------------------------------------------------------------------


def test_add_to_cart_inserts_one_line(shop):
    env, ep = shop
    c, p = fresh_customer_with_payment(ep), buyable(ep, 2)
    line = call(env, ep, "add_to_cart", customer=c["customer"], product=p["id"], quantity=2)
    assert {(d["table"], d["op"]) for d in ep.diff()} == {("cart_items", "insert")}
    assert changes(ep)[("cart_items", line["id"], "quantity")]["new"] == 2
    call(env, ep, "add_to_cart", customer=c["customer"], product=p["id"], quantity=1)
    assert changes(ep)[("cart_items", line["id"], "quantity")]["new"] == 3


def test_out_of_stock_product_cannot_be_added(shop):
    env, ep = shop
    c = fresh_customer_with_payment(ep)
    p = one(ep, "SELECT id FROM products WHERE active = 1 AND stock = 0")
    fails(env, ep, "add_to_cart", "out of stock", customer=c["customer"], product=p["id"])
    assert ep.diff() == []


def test_not_more_than_in_stock(shop):
    env, ep = shop
    c = fresh_customer_with_payment(ep)
    p = one(ep, "SELECT * FROM products WHERE active = 1 AND stock > 0 AND stock < max_per_order")
    fails(
        env,
        ep,
        "add_to_cart",
        "not enough stock",
        customer=c["customer"],
        product=p["id"],
        quantity=p["stock"] + 1,
    )
    assert ep.diff() == []


def test_discontinued_product_cannot_be_added(shop):
    env, ep = shop
    c = fresh_customer_with_payment(ep)
    p = one(ep, "SELECT id FROM products WHERE active = 0")
    fails(env, ep, "add_to_cart", "discontinued", customer=c["customer"], product=p["id"])
    assert ep.diff() == []


def test_per_order_limit(shop):
    env, ep = shop
    c = fresh_customer_with_payment(ep)
    p = one(ep, "SELECT * FROM products WHERE active = 1 AND stock > max_per_order")
    fails(
        env,
        ep,
        "add_to_cart",
        f"limited to {p['max_per_order']} per order",
        customer=c["customer"],
        product=p["id"],
        quantity=p["max_per_order"] + 1,
    )
    assert ep.diff() == []


def test_change_remove_and_empty_cart(shop):
    env, ep = shop
    owner = one(ep, "SELECT customer_id FROM cart_items GROUP BY customer_id HAVING count(*) >= 2")[
        "customer_id"
    ]
    lines = rows(ep, "SELECT id FROM cart_items WHERE customer_id = ? ORDER BY id", owner)
    gone = lines[1]["id"]
    call(env, ep, "remove_from_cart", item=gone)
    assert {(d["table"], d["pk"], d["op"]) for d in ep.diff()} == {("cart_items", gone, "delete")}
    fails(env, ep, "update_cart_quantity", "does not exist", item=gone, quantity=1)
    out = call(env, ep, "empty_cart", customer=owner)
    assert out["removed_items"] == len(lines) - 1
    assert {(d["table"], d["op"]) for d in ep.diff()} == {("cart_items", "delete")}
    assert rows(ep, "SELECT id FROM cart_items WHERE customer_id = ?", owner) == []


def test_update_quantity_checks_stock(shop):
    env, ep = shop
    c, p = fresh_customer_with_payment(ep), buyable(ep, 2)
    line = call(env, ep, "add_to_cart", customer=c["customer"], product=p["id"])
    fails(env, ep, "update_cart_quantity", "per order|not enough stock", item=line["id"], quantity=1000)
    call(env, ep, "update_cart_quantity", item=line["id"], quantity=2)
    assert changes(ep)[("cart_items", line["id"], "quantity")]["new"] == 2


# -- checkout ----------------------------------------------------------------------------------------


def test_checkout_takes_stock_and_empties_cart(shop):
    env, ep = shop
    c, p = fresh_customer_with_payment(ep), buyable(ep, 2)
    call(env, ep, "add_to_cart", customer=c["customer"], product=p["id"], quantity=2)
    order = call(env, ep, "checkout", customer=c["customer"], address=c["address"], payment=c["payment"])
    diff = changes(ep)
    assert {d["table"] for d in ep.diff()} == {"orders", "order_items", "products"}  # cart line came and went
    assert diff[("products", p["id"], "stock")]["new"] == p["stock"] - 2
    assert diff[("orders", order["id"], "status")]["new"] == "placed"
    subtotal = round(p["price"] * 2, 2)
    fee = 0.0 if subtotal >= 50 else 5.99
    assert order["subtotal"] == subtotal and order["total"] == round(subtotal + fee, 2)
    assert [i["quantity"] for i in order["items"]] == [2]
    assert rows(ep, "SELECT id FROM cart_items WHERE customer_id = ?", c["customer"]) == []


def test_checkout_needs_items(shop):
    env, ep = shop
    c = fresh_customer_with_payment(ep)
    fails(env, ep, "checkout", "is empty", customer=c["customer"], address=c["address"], payment=c["payment"])
    assert ep.diff() == []


def test_checkout_rejects_expired_payment_and_foreign_address(shop):
    env, ep = shop
    card = one(ep, "SELECT id, customer_id FROM payment_methods WHERE expires < ? ORDER BY id", MONTH)
    customer = card["customer_id"]
    address = one(ep, "SELECT id FROM addresses WHERE customer_id = ?", customer)["id"]
    call(env, ep, "empty_cart", customer=customer)
    call(env, ep, "add_to_cart", customer=customer, product=buyable(ep)["id"])
    fails(env, ep, "checkout", "expired in", customer=customer, address=address, payment=card["id"])
    foreign_card = one(ep, "SELECT id FROM payment_methods WHERE customer_id != ?", customer)["id"]
    fails(env, ep, "checkout", "another customer", customer=customer, address=address, payment=foreign_card)
    cart = one(ep, CLEAN_CARTS)
    other = one(ep, "SELECT id FROM addresses WHERE customer_id != ?", cart["customer"])
    fails(env, ep, "checkout", "another customer", **{**cart_args(cart), "address": other["id"]})


def test_checkout_with_problem_cart_line_is_refused(shop):
    env, ep = shop
    c, p = fresh_customer_with_payment(ep), buyable(ep, 1)
    call(env, ep, "add_to_cart", customer=c["customer"], product=p["id"])
    with ep.fork("shopping").writing() as conn:  # the product sells out meanwhile
        conn.execute("UPDATE products SET stock = 0 WHERE id = ?", (p["id"],))
    fails(env, ep, "checkout", "cannot check out.*out of stock", **c)


def test_expired_coupon_is_refused(shop):
    env, ep = shop
    cart = one(ep, CLEAN_CARTS)
    fails(env, ep, "checkout", "SPRING15 expired on", coupon_code="SPRING15", **cart_args(cart))
    fails(env, ep, "validate_coupon", "expired", customer=cart["customer"], code="spring15")
    fails(env, ep, "checkout", "deactivated", coupon_code="VIP25", **cart_args(cart))
    fails(env, ep, "checkout", "no coupon", coupon_code="NOPE", **cart_args(cart))
    assert ep.diff() == []


def test_coupon_minimum_order(shop):
    env, ep = shop
    cart = next(c for c in rows(ep, CLEAN_CARTS) if c["subtotal"] < 200)
    fails(env, ep, "checkout", "at least 200.00", coupon_code="BIG30", **cart_args(cart))
    assert ep.diff() == []


def test_coupon_discount_is_applied_once_per_customer(shop):
    env, ep = shop
    c, p = (
        fresh_customer_with_payment(ep),
        one(ep, "SELECT * FROM products WHERE active AND stock >= 1 AND price >= 40"),
    )
    call(env, ep, "add_to_cart", customer=c["customer"], product=p["id"])
    check = call(env, ep, "validate_coupon", customer=c["customer"], code="SAVE10")
    assert check["discount"] == round(p["price"] * 0.10, 2)
    order = call(env, ep, "checkout", coupon_code="save10", **c)
    assert order["discount"] == check["discount"] and order["coupon_id"] == "CPN-000001"
    assert order["total"] == round(p["price"] - order["discount"] + order["shipping_fee"], 2)
    call(env, ep, "add_to_cart", customer=c["customer"], product=p["id"])
    fails(env, ep, "checkout", "already used coupon SAVE10", coupon_code="SAVE10", **c)


def cart_args(cart: dict) -> dict:
    return {"customer": cart["customer"], "address": cart["address"], "payment": cart["payment"]}


# -- orders --------------------------------------------------------------------------------------------


def test_shipped_order_cannot_be_cancelled(shop):
    env, ep = shop
    shipped = one(ep, "SELECT id FROM orders WHERE status IN ('shipped', 'delivered')")
    fails(
        env, ep, "cancel_order", "can no longer be cancelled", order=shipped["id"], reason="Changed my mind"
    )
    cancelled = one(ep, "SELECT id FROM orders WHERE status = 'cancelled'")
    fails(env, ep, "cancel_order", "already cancelled", order=cancelled["id"], reason="Changed my mind")
    assert ep.diff() == []


def test_cancel_restocks_items(shop):
    env, ep = shop
    order = one(ep, "SELECT * FROM orders WHERE status IN ('placed', 'processing')")
    items = rows(
        ep,
        "SELECT product_id, sum(quantity) AS q FROM order_items WHERE order_id = ? GROUP BY 1",
        order["id"],
    )
    stock = {r["id"]: r["stock"] for r in rows(ep, "SELECT id, stock FROM products")}
    out = call(env, ep, "cancel_order", order=order["id"], reason="Found it cheaper")
    assert out["status"] == "cancelled" and out["refund_amount"] == order["total"]
    diff = changes(ep)
    for it in items:
        assert diff[("products", it["product_id"], "stock")]["new"] == stock[it["product_id"]] + it["q"]
    assert {d["table"] for d in ep.diff()} == {"orders", "products"}
    assert diff[("orders", order["id"], "cancel_reason")]["new"] == "Found it cheaper"


def test_shipping_address_changes_only_before_shipping(shop):
    env, ep = shop
    shipped = one(ep, "SELECT * FROM orders WHERE status = 'shipped'")
    fails(
        env,
        ep,
        "change_shipping_address",
        "only change while",
        order=shipped["id"],
        address=shipped["address_id"],
    )
    order = one(ep, "SELECT * FROM orders WHERE status IN ('placed', 'processing')")
    foreign = one(ep, "SELECT id FROM addresses WHERE customer_id != ?", order["customer_id"])
    fails(env, ep, "change_shipping_address", "another customer", order=order["id"], address=foreign["id"])
    assert ep.diff() == []
    new = call(
        env,
        ep,
        "add_address",
        customer=order["customer_id"],
        street="9 Oak Lane",
        city="Austin",
        state="TX",
        zip_code="73301",
    )
    call(env, ep, "change_shipping_address", order=order["id"], address=new["id"])
    assert changes(ep)[("orders", order["id"], "address_id")]["new"] == new["id"]
    assert {d["table"] for d in ep.diff()} == {"orders", "addresses"}


def test_track_order(shop):
    env, ep = shop
    shipped = one(ep, "SELECT * FROM orders WHERE status = 'shipped'")
    out = call(env, ep, "track_order", order=shipped["id"])
    assert out["tracking_number"] == shipped["tracking_number"] and "expected_delivery" in out


# -- returns ------------------------------------------------------------------------------------------


def test_return_inside_window_refunds_and_only_once(shop):
    env, ep = shop
    line = one(
        ep,
        "SELECT i.*, o.subtotal, o.discount FROM order_items i JOIN orders o ON o.id = i.order_id "
        "WHERE o.status = 'delivered' AND o.delivered_on >= date(?, '-30 days') AND i.returned_qty = 0",
        TODAY,
    )
    ret = call(env, ep, "request_return", item=line["id"], reason="Wrong size")
    share = line["unit_price"] * line["quantity"]
    assert ret["refund_amount"] == round(share - line["discount"] * share / line["subtotal"], 2)
    assert ret["quantity"] == line["quantity"] and ret["status"] == "requested"
    assert changes(ep)[("order_items", line["id"], "returned_qty")]["new"] == line["quantity"]
    assert {d["table"] for d in ep.diff()} == {"returns", "order_items"}
    fails(env, ep, "request_return", "already returned", item=line["id"], reason="Wrong size")
    assert call(env, ep, "get_return", return_id=ret["id"])["status"] == "requested"


def test_return_window_closes_after_30_days(shop):
    env, ep = shop
    line = one(
        ep,
        "SELECT i.id FROM order_items i JOIN orders o ON o.id = i.order_id "
        "WHERE o.status = 'delivered' AND o.delivered_on < date(?, '-30 days') AND i.returned_qty = 0",
        TODAY,
    )
    fails(env, ep, "request_return", "return window is closed", item=line["id"], reason="Damaged on arrival")
    assert ep.diff() == []


def test_only_delivered_orders_are_returned(shop):
    env, ep = shop
    line = one(
        ep, "SELECT i.id FROM order_items i JOIN orders o ON o.id = i.order_id WHERE o.status = 'shipped'"
    )
    fails(env, ep, "request_return", "only delivered orders", item=line["id"], reason="No longer needed")
    line = one(
        ep,
        "SELECT i.id, i.quantity FROM order_items i JOIN orders o ON o.id = i.order_id "
        "WHERE o.status = 'delivered' AND o.delivered_on >= date(?, '-30 days') AND i.returned_qty = 0",
        TODAY,
    )
    fails(
        env,
        ep,
        "request_return",
        "can still be returned",
        item=line["id"],
        reason="Wrong size",
        quantity=line["quantity"] + 1,
    )
    assert ep.diff() == []


# -- reviews --------------------------------------------------------------------------------------------


def test_only_buyers_review_and_only_once(shop):
    env, ep = shop
    bought = one(
        ep,
        "SELECT o.customer_id, i.product_id FROM order_items i JOIN orders o ON o.id = i.order_id "
        "WHERE o.status = 'delivered' AND NOT EXISTS (SELECT 1 FROM reviews r "
        "WHERE r.customer_id = o.customer_id AND r.product_id = i.product_id)",
    )
    stranger = one(
        ep,
        "SELECT id FROM products WHERE id NOT IN (SELECT i.product_id FROM order_items i "
        "JOIN orders o ON o.id = i.order_id WHERE o.customer_id = ? AND o.status = 'delivered')",
        bought["customer_id"],
    )
    fails(
        env,
        ep,
        "write_review",
        "only buyers",
        customer=bought["customer_id"],
        product=stranger["id"],
        rating=5,
        title="Great value",
    )
    product = one(ep, "SELECT * FROM products WHERE id = ?", bought["product_id"])
    review = call(
        env,
        ep,
        "write_review",
        customer=bought["customer_id"],
        product=bought["product_id"],
        rating=1,
        title="Disappointed",
    )
    diff = changes(ep)
    n = product["review_count"] + 1
    assert diff[("products", product["id"], "review_count")]["new"] == n
    expected = round(((product["rating"] or 0) * (n - 1) + 1) / n, 2)
    assert abs(diff[("products", product["id"], "rating")]["new"] - expected) < 0.011
    assert diff[("reviews", review["id"], "rating")]["new"] == 1
    fails(
        env,
        ep,
        "write_review",
        "already reviewed",
        customer=bought["customer_id"],
        product=bought["product_id"],
        rating=4,
        title="Does the job",
    )
    assert call(env, ep, "list_reviews", product=product["id"])["reviews"][0]["id"] == review["id"]


def test_customers_are_world_people_living_on_the_world_map(shop):
    from servers.kit import geo
    from servers.kit.world import world

    env, ep = shop
    w = world(0, "small")
    me = one(ep, "SELECT * FROM customers WHERE id = 'CUS-000001'")
    p = w.persona
    assert (me["name"], me["email"], me["phone"]) == (p.name, p.email, p.phone)
    home = one(ep, "SELECT * FROM addresses WHERE customer_id = 'CUS-000001' AND is_default")
    assert (home["label"], f"{home['street']}, {home['city']}") == ("home", p.home.line)
    assert (home["zip"], home["city"]) == (p.home.postal_code, p.city)
    everyone = rows(ep, "SELECT name, email FROM customers ORDER BY id")
    assert [(c["name"], c["email"]) for c in everyone] == [
        (q.name, q.email) for q in w.pick_people(len(everyone))
    ]
    for a in rows(ep, "SELECT street, city FROM addresses"):  # every address is a point of the map
        assert geo.geocode(f"{a['street']}, {a['city']}") is not None, a
