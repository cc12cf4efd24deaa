"""Retail chain rules: refused changes name the values involved and change nothing; successful ones
change exactly the right rows, and every change of on-hand appends one ledger row."""

from __future__ import annotations

import pytest

from servers.domains.retail_chain.rules import AVAILABLE_SQL
from servers.kit import geo, world
from servers.registry import get_domain
from tests.domain_helpers import DomainCalls, changes

DOMAIN = "retail_chain"
calls = DomainCalls(DOMAIN)
call, fails, rows, one = calls.call, calls.fails, calls.rows, calls.one
DISCOVERY = {"list_records", "search_records", "get_unique_values"}
PORTLAND = "STO-000001"
PERSONA = "EMP-000001"


@pytest.fixture
def chain(make_env):
    env = make_env(DOMAIN)
    return env, env.open()


def level(ep, where: str = "1") -> dict:
    """An inventory level at an open, sellable store with at least 5 units available."""
    return one(
        ep,
        f"SELECT i.*, {AVAILABLE_SQL} AS available FROM inventory i JOIN stores s ON s.id = i.store_id "
        f"JOIN products p ON p.id = i.product_id WHERE s.status = 'open' AND s.kind != 'warehouse' "
        f"AND s.pickup_enabled = 1 AND p.active = 1 AND {AVAILABLE_SQL} >= 5 AND {where} "
        "AND EXISTS (SELECT 1 FROM employees e WHERE e.store_id = s.id AND e.role = 'associate' AND e.active = 1) "
        "AND EXISTS (SELECT 1 FROM employees e WHERE e.store_id = s.id AND e.role = 'manager' AND e.active = 1) "
        "ORDER BY i.id",
    )


def worker(ep, store: str, role: str = "associate") -> dict:
    return one(
        ep, "SELECT * FROM employees WHERE store_id = ? AND role = ? AND active = 1 ORDER BY id", store, role
    )


def stock(ep, store: str, product: str) -> dict:
    return one(ep, "SELECT * FROM inventory WHERE store_id = ? AND product_id = ?", store, product)


def added(ep, table: str) -> list[dict]:
    pks = sorted({c["pk"] for c in ep.diff() if c["table"] == table and c["op"] == "insert"})
    return [one(ep, f"SELECT * FROM {table} WHERE id = ?", pk) for pk in pks]


# -- the catalogue ---------------------------------------------------------------------------------


def test_tools_each_with_two_ways_to_ask_and_true_hints():
    domain = get_domain(DOMAIN)
    own = [t for name, t in domain.tools.items() if name not in DISCOVERY]
    assert len(own) >= 25
    assert all(len(spec.says) >= 2 for spec in own), [s.name for s in own if len(s.says) < 2]
    assert domain.append_only() == {"adjustments": frozenset()}
    for name in ("cancel_transfer", "cancel_pickup", "cancel_reorder"):
        assert domain.tools[name].annotations()["destructiveHint"], name
    assert domain.tools["set_store_price"].annotations()["idempotentHint"]
    assert not any(t.writes for n, t in domain.tools.items() if n.startswith(("list_", "get_", "find_")))


def test_sampler_pools_at_medium(medium):
    def count(sql: str) -> int:
        return medium.execute(sql).fetchone()[0]

    assert count(f"SELECT count(*) FROM inventory WHERE {AVAILABLE_SQL} >= 5") >= 2000
    assert count("SELECT count(*) FROM transfers WHERE status = 'requested'") >= 150
    assert count("SELECT count(*) FROM transfers WHERE status = 'in_transit'") >= 100
    live = "status = 'active' AND expires_at > (SELECT value FROM _meta WHERE key = 'now')"
    assert count(f"SELECT count(*) FROM pickups WHERE {live}") >= 200
    assert count("SELECT count(*) FROM pickups WHERE status = 'active'") > count(
        f"SELECT count(*) FROM pickups WHERE {live}"
    )  # some active holds are already past their expiry
    assert count("SELECT count(*) FROM inventory WHERE on_hand <= reorder_point") >= 1000
    assert count("SELECT count(*) FROM employees WHERE active = 1 AND role != 'associate'") >= 50
    assert count("SELECT count(*) FROM reorders WHERE status = 'ordered'") >= 100
    assert count("SELECT count(*) FROM stores") == 60
    assert count("SELECT count(*) FROM stores WHERE kind = 'warehouse'") == 3
    assert count("SELECT count(*) FROM stores WHERE status = 'closed'") == 2
    assert count("SELECT count(*) FROM stores WHERE status = 'temporarily_closed'") == 4
    assert count("SELECT count(*) FROM products WHERE active = 0") > 0


def test_seeded_stock_is_consistent_with_the_ledger_and_holds(chain):
    _, ep = chain
    assert not rows(
        ep,
        "SELECT i.id FROM inventory i JOIN (SELECT store_id, product_id, sum(delta) s FROM adjustments "
        "GROUP BY 1, 2) a USING (store_id, product_id) WHERE a.s != i.on_hand",
    )
    assert not rows(ep, f"SELECT id FROM inventory WHERE {AVAILABLE_SQL} < 0 OR on_hand < 0")
    held = rows(
        ep,
        "SELECT i.id FROM inventory i WHERE committed != "
        "coalesce((SELECT sum(quantity) FROM pickups p WHERE p.store_id = i.store_id "
        "AND p.product_id = i.product_id AND status = 'active'), 0) + "
        "coalesce((SELECT sum(quantity) FROM transfers t WHERE t.from_store_id = i.store_id "
        "AND t.product_id = i.product_id AND status = 'requested'), 0)",
    )
    assert not held
    assert rows(ep, "SELECT id FROM adjustments")


def test_persona_manages_the_portland_flagship_on_the_shared_map(chain):
    _, ep = chain
    me = world(0, "small").persona
    emp = one(ep, "SELECT * FROM employees WHERE id = ?", PERSONA)
    assert (emp["name"], emp["email"], emp["role"], emp["store_id"]) == (
        me.name,
        me.email,
        "manager",
        PORTLAND,
    )
    st = one(ep, "SELECT * FROM stores WHERE id = ?", PORTLAND)
    assert st["name"] == "Portland Flagship" and st["city"] == me.city
    spot = geo.geocode(st["address"])
    assert spot is not None and (spot.lat, spot.lon) == (st["lat"], st["lon"])
    suppliers = {c.name for c in world(0, "small").companies}
    assert {r["name"] for r in rows(ep, "SELECT name FROM suppliers")} <= suppliers


# -- reading ---------------------------------------------------------------------------------------


def test_open_now_uses_each_stores_local_time(chain):
    env, ep = chain
    out = call(env, ep, "list_stores", open_now_only=True, limit=100)
    names = {s["name"] for s in out["stores"]}
    assert "Portland Flagship" in names  # 09:00 in Portland, opens 09:00
    assert "Tokyo Flagship" not in names  # 01:00 the next day in Tokyo
    store = call(env, ep, "get_store", store=PORTLAND)
    assert store["open_now"] and store["local_time"] == "2026-06-01T09:00"
    assert [m["id"] for m in store["managers"]][0] == PERSONA
    tokyo = one(ep, "SELECT id FROM stores WHERE name = 'Tokyo Flagship'")["id"]
    clock = call(env, ep, "get_current_time", store=tokyo)
    assert (clock["now"], clock["weekday"]) == ("2026-06-01T09:00", "Monday")
    assert (clock["store_local_time"], clock["store_weekday"], clock["open_now"]) == (
        "2026-06-02T01:00",
        "Tuesday",
        False,
    )
    west = call(env, ep, "list_stores", region="West", limit=100)
    assert west["total"] == len(west["stores"]) and {s["region"] for s in west["stores"]} == {"West"}


def test_check_stock_and_nearest_store_with_stock(chain):
    env, ep = chain
    lv = level(ep)
    got = call(env, ep, "check_stock", store=lv["store_id"], product=lv["product_id"])
    assert got["available"] == lv["available"] and got["on_hand"] == lv["on_hand"]
    near = call(env, ep, "find_stock_nearby", product=lv["product_id"], near_store=lv["store_id"], limit=20)
    dists = [s["distance_km"] for s in near["stores"]]
    assert dists == sorted(dists) and all(s["available"] >= 1 for s in near["stores"])
    assert lv["store_id"] not in {s["id"] for s in near["stores"]}
    fails(env, ep, "find_stock_nearby", "give near_store", product=lv["product_id"])
    by_city = call(env, ep, "find_stock_nearby", product=lv["product_id"], city="Portland", min_quantity=3)
    assert all(s["available"] >= 3 for s in by_city["stores"])
    missing = one(
        ep,
        "SELECT s.id AS store, p.id AS product FROM stores s, products p WHERE NOT EXISTS "
        "(SELECT 1 FROM inventory i WHERE i.store_id = s.id AND i.product_id = p.id) ORDER BY s.id, p.id",
    )
    fails(env, ep, "check_stock", "does not carry", **missing)


def test_low_stock_report_is_at_or_below_reorder_point(chain):
    env, ep = chain
    out = call(env, ep, "get_low_stock_report", store=PORTLAND, limit=100)
    assert out["items"] and all(i["on_hand"] <= i["reorder_point"] for i in out["items"])
    assert [i["on_hand"] for i in out["items"]] == sorted(i["on_hand"] for i in out["items"])


# -- adjustments and counts ------------------------------------------------------------------------


def test_adjustment_changes_on_hand_and_appends_one_ledger_row(chain):
    env, ep = chain
    lv = level(ep)
    emp = worker(ep, lv["store_id"], "manager")
    out = call(
        env, ep, "adjust_inventory", store=lv["store_id"], product=lv["product_id"], delta=-2,
        reason="damaged", employee=emp["id"],
    )  # fmt: skip
    assert out["on_hand"] == lv["on_hand"] - 2
    diff = changes(ep)
    assert diff[("inventory", lv["id"], "on_hand")]["new"] == lv["on_hand"] - 2
    [entry] = added(ep, "adjustments")
    assert (entry["delta"], entry["reason"], entry["employee_id"], entry["on_hand_after"]) == (
        -2,
        "damaged",
        emp["id"],
        lv["on_hand"] - 2,
    )
    assert {c["table"] for c in ep.diff()} == {"inventory", "adjustments"}


def test_adjustment_rules(chain):
    env, ep = chain
    lv = level(ep)
    store, product = lv["store_id"], lv["product_id"]
    assoc = worker(ep, store)["id"]
    args = dict(store=store, product=product, employee=assoc)
    fails(env, ep, "adjust_inventory", r"damaged adjustment must be negative; got delta \+3", delta=3,
          reason="damaged", **args)  # fmt: skip
    fails(env, ep, "adjust_inventory", "customer_return adjustment must be positive", delta=-1,
          reason="customer_return", **args)  # fmt: skip
    msg = fails(env, ep, "adjust_inventory", "needs a manager", delta=-11, reason="theft", **args)
    assert "at most 10" in msg and assoc in msg
    too_many = -(lv["on_hand"] + 1)
    msg = fails(
        env, ep, "adjust_inventory", "cannot remove", delta=too_many, reason="count_correction", **args
    )
    assert f"on hand is {lv['on_hand']}" in msg
    other = one(
        ep, "SELECT * FROM employees WHERE active = 1 AND role = 'associate' AND store_id != ?", store
    )
    msg = fails(env, ep, "adjust_inventory", "cannot act for", delta=-1, reason="damaged", store=store,
                product=product, employee=other["id"])  # fmt: skip
    assert other["store_id"] in msg and store in msg
    gone = one(ep, "SELECT * FROM employees WHERE active = 0")
    fails(env, ep, "adjust_inventory", "is inactive", delta=-1, reason="damaged", store=gone["store_id"],
          product=product, employee=gone["id"])  # fmt: skip


def test_regional_manager_acts_in_region_and_default_is_the_store_manager(chain):
    env, ep = chain
    regional = one(ep, "SELECT * FROM employees WHERE role = 'regional_manager' AND active = 1 ORDER BY id")
    region = one(ep, "SELECT region FROM stores WHERE id = ?", regional["store_id"])["region"]
    lv = level(ep, f"s.region = '{region}' AND s.id != '{regional['store_id']}'")
    call(env, ep, "adjust_inventory", store=lv["store_id"], product=lv["product_id"], delta=-12,
         reason="damaged", employee=regional["id"])  # fmt: skip
    call(env, ep, "adjust_inventory", store=lv["store_id"], product=lv["product_id"], delta=1,
         reason="customer_return")  # fmt: skip
    manager = worker(ep, lv["store_id"], "manager")["id"]
    assert [e["employee_id"] for e in added(ep, "adjustments")] == [regional["id"], manager]


def test_stock_count_books_the_difference(chain):
    env, ep = chain
    lv = level(ep, "i.committed = 0 AND i.unavailable = 0")
    out = call(env, ep, "record_stock_count", store=lv["store_id"], product=lv["product_id"], counted=3)
    assert out["on_hand"] == 3 and out["previous_on_hand"] == lv["on_hand"]
    [entry] = added(ep, "adjustments")
    assert (entry["reason"], entry["delta"]) == ("count_correction", 3 - lv["on_hand"])
    held = level(ep, "i.committed > 0")
    msg = fails(env, ep, "record_stock_count", "below the", store=held["store_id"],
                product=held["product_id"], counted=held["committed"] - 1)  # fmt: skip
    assert f"{held['committed']} committed" in msg


# -- transfers -------------------------------------------------------------------------------------


def _other_store(ep, not_id: str) -> str:
    return one(
        ep,
        "SELECT id FROM stores WHERE status = 'open' AND kind != 'warehouse' AND id != ? ORDER BY id",
        not_id,
    )["id"]


def test_transfer_lifecycle_with_a_short_receipt(chain):
    env, ep = chain
    lv = level(ep)
    src, product = lv["store_id"], lv["product_id"]
    dest = _other_store(ep, src)
    t = call(env, ep, "create_transfer", from_store=src, to_store=dest, product=product, quantity=4)
    assert t["status"] == "requested" and t["requested_by"] == worker(ep, dest, "manager")["id"]
    assert stock(ep, src, product)["committed"] == lv["committed"] + 4
    assert not added(ep, "adjustments")  # a request moves nothing yet
    shipped = call(env, ep, "ship_transfer", transfer=t["id"])
    assert shipped["status"] == "in_transit"
    after = stock(ep, src, product)
    assert (after["on_hand"], after["committed"]) == (lv["on_hand"] - 4, lv["committed"])
    before_dest = rows(
        ep, "SELECT on_hand FROM inventory WHERE store_id = ? AND product_id = ?", dest, product
    )
    got = call(env, ep, "receive_transfer", transfer=t["id"], quantity_received=3)
    assert (got["status"], got["quantity_received"], got["shortfall"]) == ("received", 3, 1)
    assert stock(ep, dest, product)["on_hand"] == (before_dest[0]["on_hand"] if before_dest else 0) + 3
    assert [(a["reason"], a["delta"], a["reference"]) for a in added(ep, "adjustments")] == [
        ("transfer_out", -4, t["id"]),
        ("transfer_in", 3, t["id"]),
    ]
    fails(env, ep, "cancel_transfer", "it is received; only requested", transfer=t["id"])


def test_transfer_rules(chain):
    env, ep = chain
    lv = level(ep)
    src, product = lv["store_id"], lv["product_id"]
    fails(env, ep, "create_transfer", "two different stores", from_store=src, to_store=src, product=product,
          quantity=1)  # fmt: skip
    closed = one(ep, "SELECT id FROM stores WHERE status = 'closed'")["id"]
    fails(
        env, ep, "create_transfer", "is closed", from_store=src, to_store=closed, product=product, quantity=1
    )
    dest = _other_store(ep, src)
    msg = fails(env, ep, "create_transfer", "cannot transfer", from_store=src, to_store=dest, product=product,
                quantity=lv["available"] + 1)  # fmt: skip
    assert f"only {lv['available']}" in msg
    old = one(
        ep,
        f"SELECT i.* FROM inventory i JOIN products p ON p.id = i.product_id JOIN stores s ON s.id = i.store_id "
        f"WHERE p.active = 0 AND s.status != 'closed' AND {AVAILABLE_SQL} >= 1 ORDER BY i.id",
    )
    fails(env, ep, "create_transfer", "discontinued", from_store=old["store_id"],
          to_store=_other_store(ep, old["store_id"]), product=old["product_id"], quantity=1)  # fmt: skip
    moving = one(ep, "SELECT * FROM transfers WHERE status = 'in_transit' ORDER BY id")
    fails(env, ep, "ship_transfer", "it is in_transit; only requested", transfer=moving["id"])
    fails(env, ep, "receive_transfer", f"shipped {moving['quantity']} units", transfer=moving["id"],
          quantity_received=moving["quantity"] + 1)  # fmt: skip
    asked = one(ep, "SELECT * FROM transfers WHERE status = 'requested' ORDER BY id")
    outsider = one(
        ep, "SELECT * FROM employees WHERE active = 1 AND role = 'associate' AND store_id NOT IN (?, ?)",
        asked["from_store_id"], asked["to_store_id"],
    )  # fmt: skip
    fails(env, ep, "ship_transfer", "cannot act for", transfer=asked["id"], employee=outsider["id"])


def test_cancel_transfer_releases_the_commitment(chain):
    env, ep = chain
    asked = one(ep, "SELECT * FROM transfers WHERE status = 'requested' ORDER BY id")
    before = stock(ep, asked["from_store_id"], asked["product_id"])
    out = call(env, ep, "cancel_transfer", transfer=asked["id"])
    assert out["status"] == "cancelled"
    assert stock(ep, asked["from_store_id"], asked["product_id"])["committed"] == (
        before["committed"] - asked["quantity"]
    )
    assert {(c["table"], c["column"]) for c in ep.diff()} == {
        ("transfers", "status"),
        ("inventory", "committed"),
    }


# -- pickups ---------------------------------------------------------------------------------------


def test_reserve_and_complete_a_pickup(chain):
    env, ep = chain
    lv = level(ep)
    hold = call(env, ep, "reserve_for_pickup", store=lv["store_id"], product=lv["product_id"], quantity=2,
                customer_name="Maria Lopez", customer_phone="+1-503-555-0142")  # fmt: skip
    assert (hold["status"], hold["expires_at"]) == ("active", "2026-06-03T09:00:00")
    assert stock(ep, lv["store_id"], lv["product_id"])["committed"] == lv["committed"] + 2
    done = call(env, ep, "complete_pickup", pickup=hold["id"])
    assert done["status"] == "picked_up"
    after = stock(ep, lv["store_id"], lv["product_id"])
    assert (after["on_hand"], after["committed"]) == (lv["on_hand"] - 2, lv["committed"])
    [entry] = added(ep, "adjustments")
    assert (entry["reason"], entry["delta"], entry["reference"]) == ("picked_up", -2, hold["id"])


def test_pickup_rules(chain):
    env, ep = chain
    lv = level(ep)
    who = dict(customer_name="Maria Lopez", customer_phone="+1-503-555-0142")
    msg = fails(env, ep, "reserve_for_pickup", "cannot hold", store=lv["store_id"], product=lv["product_id"],
                quantity=lv["available"] + 1, **who)  # fmt: skip
    assert f"only {lv['available']}" in msg
    wh = one(ep, "SELECT i.* FROM inventory i JOIN stores s ON s.id = i.store_id WHERE s.kind = 'warehouse'")
    fails(env, ep, "reserve_for_pickup", "is a warehouse", store=wh["store_id"], product=wh["product_id"],
          quantity=1, **who)  # fmt: skip
    shut = one(ep, "SELECT i.* FROM inventory i JOIN stores s ON s.id = i.store_id WHERE s.status != 'open'")
    fails(env, ep, "reserve_for_pickup", "pickups need an open store", store=shut["store_id"],
          product=shut["product_id"], quantity=1, **who)  # fmt: skip
    old = one(ep, "SELECT i.* FROM inventory i JOIN products p ON p.id = i.product_id JOIN stores s "
              "ON s.id = i.store_id WHERE p.active = 0 AND s.status = 'open' AND s.kind != 'warehouse' "
              "AND s.pickup_enabled = 1")  # fmt: skip
    fails(env, ep, "reserve_for_pickup", "discontinued", store=old["store_id"], product=old["product_id"],
          quantity=1, **who)  # fmt: skip
    late = one(ep, "SELECT * FROM pickups WHERE status = 'active' AND expires_at <= '2026-06-01T09:00:00'")
    fails(env, ep, "complete_pickup", f"expired at {late['expires_at']}", pickup=late["id"])
    done = one(ep, "SELECT * FROM pickups WHERE status = 'picked_up'")
    fails(env, ep, "cancel_pickup", "it is picked_up; only active", pickup=done["id"])


def test_cancelling_an_expired_hold_closes_it_as_expired(chain):
    env, ep = chain
    late = one(ep, "SELECT * FROM pickups WHERE status = 'active' AND expires_at <= '2026-06-01T09:00:00'")
    before = stock(ep, late["store_id"], late["product_id"])
    out = call(env, ep, "cancel_pickup", pickup=late["id"])
    assert (out["status"], out["released"]) == ("expired", late["quantity"])
    assert (
        stock(ep, late["store_id"], late["product_id"])["committed"] == before["committed"] - late["quantity"]
    )
    listed = call(env, ep, "list_pickups", store=late["store_id"], status="expired", limit=100)
    assert late["id"] in {p["id"] for p in listed["pickups"]}


# -- reorders --------------------------------------------------------------------------------------


def test_reorder_lifecycle(chain):
    env, ep = chain
    lv = level(ep)
    sup = one(ep, "SELECT * FROM suppliers WHERE status = 'active' ORDER BY id")
    r = call(env, ep, "create_reorder", store=lv["store_id"], product=lv["product_id"], supplier=sup["id"],
             quantity=24)  # fmt: skip
    assert r["status"] == "ordered" and r["expected_day"] > "2026-06-01"
    assert stock(ep, lv["store_id"], lv["product_id"])["incoming"] == lv["incoming"] + 24
    got = call(env, ep, "receive_reorder", reorder=r["id"], quantity_received=20)
    assert (got["status"], got["shortfall"]) == ("received", 4)
    after = stock(ep, lv["store_id"], lv["product_id"])
    assert (after["on_hand"], after["incoming"]) == (lv["on_hand"] + 20, lv["incoming"])
    [entry] = added(ep, "adjustments")
    assert (entry["reason"], entry["delta"], entry["reference"]) == ("received", 20, r["id"])
    fails(env, ep, "cancel_reorder", "it is received; only ordered", reorder=r["id"])


def test_reorder_rules(chain):
    env, ep = chain
    lv = level(ep)
    args = dict(store=lv["store_id"], product=lv["product_id"])
    bad = one(ep, "SELECT * FROM suppliers WHERE status = 'suspended'")
    fails(env, ep, "create_reorder", "is suspended", supplier=bad["id"], quantity=5, **args)
    sup = one(ep, "SELECT * FROM suppliers WHERE status = 'active' ORDER BY id")
    fails(env, ep, "create_reorder", "at most 500 units; 501", supplier=sup["id"], quantity=501, **args)
    open_order = one(ep, "SELECT * FROM reorders WHERE status = 'ordered' ORDER BY id")
    before = stock(ep, open_order["store_id"], open_order["product_id"])
    call(env, ep, "cancel_reorder", reorder=open_order["id"])
    assert stock(ep, open_order["store_id"], open_order["product_id"])["incoming"] == (
        before["incoming"] - open_order["quantity"]
    )


# -- prices ----------------------------------------------------------------------------------------


def test_store_price_rules_and_upsert(chain):
    env, ep = chain
    lv = level(ep)
    store, product = lv["store_id"], lv["product_id"]
    base = one(ep, "SELECT base_price FROM products WHERE id = ?", product)["base_price"]
    assoc = worker(ep, store)["id"]
    args = dict(store=store, product=product, until_day="2026-06-15")
    fails(env, ep, "set_store_price", "only a store manager", percent_off=10, employee=assoc, **args)
    msg = fails(
        env, ep, "set_store_price", "outside the allowed range", price=round(base / 2 - 0.5, 2), **args
    )
    assert f"{base:.2f}" in msg
    fails(env, ep, "set_store_price", "must be after today", store=store, product=product,
          until_day="2026-06-01", percent_off=10)  # fmt: skip
    fails(env, ep, "set_store_price", "exactly one", price=base, percent_off=10, **args)
    out = call(env, ep, "set_store_price", percent_off=20, **args)
    assert out["price"] == round(base * 0.8, 2) and out["set_by"] == worker(ep, store, "manager")["id"]
    again = call(env, ep, "set_store_price", price=round(base * 0.7, 2), **args)
    assert again["id"] == out["id"]  # one markdown per store and product
    seen = call(env, ep, "check_stock", store=store, product=product)
    assert seen["price"] == round(base * 0.7, 2) and seen["markdown_until"] == "2026-06-15"
