"""Trading's business rules: failures really happen and change nothing, successes change exactly the right rows."""

from __future__ import annotations

import pytest

from servers.registry import get_domain
from tests.domain_helpers import DomainCalls, changes

DOMAIN = "trading"
calls = DomainCalls(DOMAIN)
call, fails, rows, one = calls.call, calls.fails, calls.rows, calls.one
DISCOVERY = {"list_records", "search_records", "get_unique_values"}
PERSONA = "ACT-000001"
TODAY = "2026-06-01"
OPEN = "('new', 'partially_filled')"
# symbols the persona can trade freely right now: live venue, no own open order, no trade today
FREE = f"""
SELECT * FROM instruments WHERE tradable = 1 AND halted = 0 AND exchange_id = 'XNYS-SIM'
  AND id NOT IN (SELECT symbol FROM orders WHERE account_id = '{PERSONA}' AND status IN {OPEN})
  AND id NOT IN (SELECT symbol FROM fills WHERE account_id = '{PERSONA}' AND at >= '{TODAY}')
  AND id NOT IN (SELECT symbol FROM positions WHERE account_id = '{PERSONA}')
  AND last BETWEEN 2 AND 60
ORDER BY (SELECT sum(size * price) FROM book_levels b WHERE b.symbol = instruments.id AND b.side = 'ask'
          AND b.level <= 2), id
"""


@pytest.fixture
def trade(make_env):
    env = make_env("trading")
    return env, env.open()


def tables(ep) -> set[str]:
    return {c["table"] for c in ep.diff()}


def login_as(env, ep, account_id: str) -> None:
    cred = one(ep, "SELECT id, password FROM logins WHERE account_id = ?", account_id)
    call(env, ep, "login", username=cred["id"], password=cred["password"])


def asks(ep, symbol: str) -> list[dict]:
    return rows(ep, "SELECT * FROM book_levels WHERE symbol = ? AND side = 'ask' ORDER BY price", symbol)


# -- catalogue and seed ----------------------------------------------------------------------


def test_enough_tools_each_with_two_ways_to_ask():
    domain = get_domain("trading")
    own = [t for name, t in domain.tools.items() if name not in DISCOVERY and not t.hidden]
    assert len(own) >= 22
    assert all(len(t.says) >= 2 for t in own)
    assert {"fills", "cash_movements"} <= set(domain.append_only())
    assert set(domain.variants) == {"logged_out", "market_closed"}
    assert domain.variants["logged_out"].first == "login"


def test_medium_snapshot_has_the_sampler_pools(medium):
    def count(sql: str) -> int:
        return medium.execute(sql).fetchone()[0]

    assert count("SELECT count(*) FROM instruments") == 300
    assert count("SELECT count(*) FROM accounts") == 400
    assert count(f"SELECT count(*) FROM orders WHERE status IN {OPEN}") >= 250
    assert count("SELECT count(*) FROM positions") >= 1500
    assert count("SELECT count(*) FROM accounts WHERE cash > 1000 AND status = 'active'") >= 200
    assert count("SELECT count(*) FROM instruments WHERE exchange_id = 'XTKS-SIM' AND tradable") >= 30
    assert count("SELECT count(*) FROM instruments WHERE halted") >= 6
    for status in ("new", "partially_filled", "filled", "canceled", "expired", "rejected", "replaced"):
        assert count(f"SELECT count(*) FROM orders WHERE status = '{status}'") > 0, status
    assert count("SELECT count(*) FROM accounts WHERE kind = 'margin' AND day_trade_count >= 3") > 0
    assert count("SELECT count(*) FROM accounts WHERE status = 'restricted'") > 0
    assert count("SELECT count(*) FROM accounts WHERE status = 'closed'") > 0
    assert (
        count(
            "SELECT count(*) FROM orders WHERE status = 'filled' AND id NOT IN (SELECT order_id FROM fills)"
        )
        == 0
    )
    # every open buy fits the account's cash: nobody starts with negative buying power
    assert (
        count(
            "SELECT count(*) FROM accounts a WHERE cash < (SELECT coalesce(sum((qty - filled_qty) * "
            "coalesce(limit_price, stop_price * 1.03)), 0) FROM orders o WHERE o.account_id = a.id "
            f"AND side = 'buy' AND status IN {OPEN})"
        )
        == 0
    )


def test_persona_owns_the_first_account(medium):
    from servers.kit import world

    p = world(0, "medium").persona
    row = medium.execute(
        "SELECT owner_name, email, username, status FROM accounts WHERE id = ?", (PERSONA,)
    ).fetchone()
    assert row == (p.name, p.email, p.username, "active")
    assert medium.execute("SELECT account_id FROM sessions").fetchone() == (PERSONA,)
    assert medium.execute("SELECT account_id FROM logins WHERE id = ?", (p.username,)).fetchone() == (
        PERSONA,
    )


# -- session -------------------------------------------------------------------------------------


def test_logged_out_account_tools_need_login(make_env):
    env = make_env("trading")
    ep = env.open({"trading": "logged_out"})
    for tool, args in [
        ("get_account", {}),
        ("list_orders", {}),
        ("deposit_funds", {"amount": 10}),
        ("place_order", {"symbol": "CORV-USD", "side": "buy", "qty": 0.01}),
    ]:
        fails(env, ep, tool, r"^nobody is signed in; call login first$", **args)
    assert call(env, ep, "get_market_status")["exchanges"]  # market data works logged out
    cred = one(ep, "SELECT l.id, l.password FROM logins l WHERE account_id = ?", PERSONA)
    fails(
        env, ep, "login", "wrong username or password", username=cred["id"], password=cred["password"] + "x"
    )
    out = call(env, ep, "login", username=cred["id"], password=cred["password"])
    assert out["account"] == PERSONA
    assert tables(ep) == {"sessions"}
    assert call(env, ep, "get_account")["account"] == PERSONA


def test_closed_account_cannot_log_in_and_logout_ends_session(trade):
    env, ep = trade
    closed = one(
        ep,
        "SELECT l.id, l.password FROM logins l JOIN accounts a ON a.id = l.account_id WHERE a.status = 'closed'",
    )
    fails(env, ep, "login", "is closed", username=closed["id"], password=closed["password"])
    call(env, ep, "logout")
    assert changes(ep)[("sessions", "SES-000001", "account_id")]["new"] is None
    fails(env, ep, "logout", "nobody is signed in")


# -- matching ------------------------------------------------------------------------------------


def test_market_buy_walks_the_book(trade):
    env, ep = trade
    ins = one(ep, FREE)
    levels = asks(ep, ins["id"])
    qty = levels[0]["size"] + 50
    cash = one(ep, "SELECT cash FROM accounts WHERE id = ?", PERSONA)["cash"]
    order = call(env, ep, "place_order", symbol=ins["id"], side="buy", qty=qty)
    assert order["status"] == "filled" and order["filled_qty"] == qty
    assert [f["price"] for f in order["fills"]] == [levels[0]["price"], levels[1]["price"]]
    cost = levels[0]["size"] * levels[0]["price"] + 50 * levels[1]["price"]
    assert order["avg_fill_price"] == pytest.approx(cost / qty, abs=1e-4)
    ch = changes(ep)
    assert ch[("book_levels", levels[0]["id"], "size")]["op"] == "delete"
    assert ch[("book_levels", levels[1]["id"], "size")]["new"] == levels[1]["size"] - 50
    assert ch[("accounts", PERSONA, "cash")]["new"] == round(cash - cost, 2)
    assert ch[("instruments", ins["id"], "last")]["new"] == levels[1]["price"]
    assert tables(ep) == {"orders", "fills", "book_levels", "accounts", "positions", "instruments"}
    pos = one(ep, "SELECT * FROM positions WHERE account_id = ? AND symbol = ?", PERSONA, ins["id"])
    assert pos["qty"] == qty
    assert env.invoke(ep, "trading_audit", {}, include_hidden=True) == {"problems": []}


def test_limit_buy_fills_up_to_its_price_and_rests(trade):
    env, ep = trade
    ins = one(ep, FREE)
    lv = asks(ep, ins["id"])
    qty = lv[0]["size"] + lv[1]["size"] + 100
    order = call(
        env,
        ep,
        "place_order",
        symbol=ins["id"],
        side="buy",
        qty=qty,
        type="limit",
        limit_price=lv[1]["price"],
    )
    assert order["status"] == "partially_filled"
    assert order["filled_qty"] == lv[0]["size"] + lv[1]["size"]
    acct = call(env, ep, "get_account")
    assert acct["held_by_open_buys"] >= round(100 * lv[1]["price"], 2)
    assert call(env, ep, "get_order_book", symbol=ins["id"])["asks"][0]["price"] == lv[2]["price"]


def test_ioc_cancels_the_rest_and_fok_is_all_or_nothing(trade):
    env, ep = trade
    a, b = rows(ep, FREE)[:2]
    lv = asks(ep, a["id"])
    order = call(
        env,
        ep,
        "place_order",
        symbol=a["id"],
        side="buy",
        qty=lv[0]["size"] + 10,
        type="limit",
        limit_price=lv[0]["price"],
        time_in_force="ioc",
    )
    assert order["status"] == "canceled" and order["filled_qty"] == lv[0]["size"]
    assert "immediate-or-cancel" in order["status_reason"]
    lb = asks(ep, b["id"])
    fails(
        env,
        ep,
        "place_order",
        rf"cannot be filled in full: only {lb[0]['size']:g} {b['id']} is offered at or below",
        symbol=b["id"],
        side="buy",
        qty=lb[0]["size"] + 10,
        type="limit",
        limit_price=lb[0]["price"],
        time_in_force="fok",
    )


def test_closed_venue_refuses_market_orders_and_rests_limits(trade):
    env, ep = trade
    tokyo = one(ep, "SELECT * FROM instruments WHERE exchange_id = 'XTKS-SIM' AND tradable AND last < 100")
    fails(
        env,
        ep,
        "place_order",
        r"XTKS-SIM is closed: .* until it opens Mon 2026-06-01 20:00 New York time "
        r"\(Tue 2026-06-02 09:00 local\)",
        symbol=tokyo["id"],
        side="buy",
        qty=1,
    )
    fails(
        env,
        ep,
        "place_order",
        "XTKS-SIM is closed",
        symbol=tokyo["id"],
        side="buy",
        qty=1,
        type="stop",
        stop_price=tokyo["last"],
    )
    order = call(
        env, ep, "place_order", symbol=tokyo["id"], side="buy", qty=1, type="limit", limit_price=tokyo["ask"]
    )
    assert order["status"] == "new" and order["fills"] == [] and "rests until it opens" in order["note"]
    assert tables(ep) == {"orders"}


def test_halted_symbol_refuses_market_orders(trade):
    env, ep = trade
    halted = one(ep, "SELECT * FROM instruments WHERE halted AND tradable")
    fails(
        env, ep, "place_order", f"trading in {halted['id']} is halted", symbol=halted["id"], side="buy", qty=1
    )


def test_market_closed_variant_only_crypto_trades(make_env):
    env = make_env("trading")
    ep = env.open({"trading": "market_closed"})
    status = {e["exchange"]: e for e in call(env, ep, "get_market_status")["exchanges"]}
    assert not status["XNYS-SIM"]["open"] and not status["XTKS-SIM"]["open"] and status["CRYPTO"]["open"]
    assert rows(ep, f"SELECT id FROM orders WHERE time_in_force = 'day' AND status IN {OPEN}") == []
    nyse = one(
        ep,
        "SELECT * FROM instruments WHERE exchange_id = 'XNYS-SIM' AND tradable AND NOT halted AND last < 60",
    )
    fails(
        env,
        ep,
        "place_order",
        r"XNYS-SIM is closed: .*Mon 2026-06-08 09:30 New York time",
        symbol=nyse["id"],
        side="buy",
        qty=1,
    )
    coin = one(ep, "SELECT * FROM instruments WHERE asset_class = 'crypto' AND last < 3000 ORDER BY last")
    order = call(env, ep, "place_order", symbol=coin["id"], side="buy", qty=0.5)
    assert order["status"] == "filled" and order["fills"][0]["at"].startswith("2026-06-06")


def test_stops_trigger_when_crossed_and_rest_otherwise(trade):
    env, ep = trade
    a, b = rows(ep, FREE)[:2]
    crossed = call(
        env,
        ep,
        "place_order",
        symbol=a["id"],
        side="buy",
        qty=1,
        type="stop",
        stop_price=round(a["last"] * 0.98, 2),
    )
    assert crossed["status"] == "filled" and crossed["triggered"]
    resting = call(
        env,
        ep,
        "place_order",
        symbol=b["id"],
        side="buy",
        qty=1,
        type="stop_limit",
        stop_price=round(b["last"] * 1.05, 2),
        limit_price=round(b["last"] * 1.06, 2),
    )
    assert resting["status"] == "new" and not resting["triggered"] and "stop not reached" in resting["note"]


def test_order_validation(trade):
    env, ep = trade
    ins = one(ep, FREE.replace("ORDER BY (", "AND fractionable = 0 ORDER BY ("))
    fails(env, ep, "place_order", "trades in whole shares only", symbol=ins["id"], side="buy", qty=1.5)
    frac = one(ep, FREE.replace("ORDER BY (", "AND fractionable = 1 AND asset_class = 'equity' ORDER BY ("))
    fails(
        env,
        ep,
        "place_order",
        "only accepted for market orders with time_in_force day",
        symbol=frac["id"],
        side="buy",
        qty=1.5,
        type="limit",
        limit_price=frac["bid"],
    )
    fails(
        env,
        ep,
        "place_order",
        "a limit order needs a limit_price",
        symbol=ins["id"],
        side="buy",
        qty=1,
        type="limit",
    )
    fails(
        env,
        ep,
        "place_order",
        "a stop order needs a stop_price",
        symbol=ins["id"],
        side="buy",
        qty=1,
        type="stop",
    )
    far = round(ins["last"] * 1.2, 2)
    fails(
        env,
        ep,
        "place_order",
        rf"limit price {far:,.2f} is more than 10% away from {ins['id']}'s last price",
        symbol=ins["id"],
        side="buy",
        qty=1,
        type="limit",
        limit_price=far,
    )
    fails(env, ep, "place_order", "invalid arguments", symbol=ins["id"], side="buy", qty=0)
    fails(env, ep, "place_order", "no instrument has the symbol", symbol="NOPE", side="buy", qty=1)


def test_buying_power_names_cash_holds_and_shortfall(trade):
    env, ep = trade
    ins = one(ep, FREE)
    acct = call(env, ep, "get_account")
    qty = int(acct["buying_power"] / ins["ask"]) + 10
    needs = round(ins["ask"] * qty * 1.03, 2)
    msg = fails(env, ep, "place_order", "insufficient buying power", symbol=ins["id"], side="buy", qty=qty)
    assert f"order needs {needs:,.2f}" in msg
    assert f"buying power is {acct['buying_power']:,.2f} (cash {acct['cash']:,.2f} minus " in msg
    assert f"{acct['held_by_open_buys']:,.2f} held by {acct['open_buy_orders']} open buy orders" in msg
    assert f"shortfall {needs - acct['buying_power']:,.2f}" in msg


def test_sells_are_limited_by_position_minus_held_shares(trade):
    env, ep = trade
    held = one(
        ep,
        "SELECT p.account_id, p.symbol, p.qty, sum(o.qty - o.filled_qty) AS held, count(*) AS n, i.ask "
        f"FROM positions p JOIN orders o ON o.account_id = p.account_id AND o.symbol = p.symbol AND o.side = 'sell' "
        f"AND o.status IN {OPEN} JOIN instruments i ON i.id = p.symbol JOIN accounts a ON a.id = p.account_id "
        "WHERE a.kind = 'cash' AND a.status = 'active' AND i.asset_class != 'crypto' GROUP BY p.id ORDER BY p.id",
    )
    login_as(env, ep, held["account_id"])
    free = held["qty"] - held["held"]
    orders = "1 open sell order" if held["n"] == 1 else f"{held['n']} open sell orders"
    fails(
        env,
        ep,
        "place_order",
        rf"cannot sell {held['qty']:g} {held['symbol']}: you hold {held['qty']:g} {held['symbol']} and "
        rf"{held['held']:g} are held by {orders}, so {free:g} can be sold; cash accounts cannot sell short",
        symbol=held["symbol"],
        side="sell",
        qty=held["qty"],
        type="limit",
        limit_price=round(held["ask"] * 1.05, 2),
    )


def test_cash_accounts_cannot_short(trade):
    env, ep = trade
    acct = one(
        ep, "SELECT id FROM accounts WHERE kind = 'cash' AND status = 'active' AND cash > 1000 ORDER BY id"
    )
    login_as(env, ep, acct["id"])
    ins = one(
        ep,
        "SELECT * FROM instruments WHERE tradable AND NOT halted AND exchange_id = 'XNYS-SIM' AND id NOT IN "
        "(SELECT symbol FROM positions WHERE account_id = ?) AND id NOT IN (SELECT symbol FROM orders WHERE "
        f"account_id = ? AND status IN {OPEN}) ORDER BY id",
        acct["id"],
        acct["id"],
    )
    fails(env, ep, "place_order", "cash accounts cannot sell short", symbol=ins["id"], side="sell", qty=1)


def test_restricted_accounts_may_only_reduce(trade):
    env, ep = trade
    acct = one(ep, "SELECT id FROM accounts WHERE status = 'restricted' ORDER BY id")
    login_as(env, ep, acct["id"])
    coin = one(
        ep,
        "SELECT * FROM instruments WHERE asset_class = 'crypto' AND id NOT IN (SELECT symbol FROM positions "
        "WHERE account_id = ?) ORDER BY id",
        acct["id"],
    )
    fails(
        env,
        ep,
        "place_order",
        "is restricted: it may only reduce positions; you hold 0",
        symbol=coin["id"],
        side="buy",
        qty=0.001,
    )


def test_wash_trade_is_refused(trade):
    env, ep = trade
    sell = one(
        ep,
        f"SELECT o.* FROM orders o JOIN instruments i ON i.id = o.symbol WHERE o.account_id = ? AND o.status IN {OPEN} "
        "AND o.side = 'sell' AND o.type = 'limit' AND NOT i.halted AND i.exchange_id = 'XNYS-SIM' ORDER BY o.id",
        PERSONA,
    )
    fails(
        env,
        ep,
        "place_order",
        f"potential wash trade: your open sell order {sell['id']}",
        symbol=sell["symbol"],
        side="buy",
        qty=1,
    )


def test_pattern_day_trader_rule(trade):
    env, ep = trade
    trader = one(
        ep,
        "SELECT a.id, f.symbol FROM accounts a JOIN fills f ON f.account_id = a.id AND f.side = 'sell' AND f.at >= ? "
        "JOIN instruments i ON i.id = f.symbol AND i.exchange_id = 'XNYS-SIM' AND NOT i.halted AND i.last < 300 "
        "WHERE a.kind = 'margin' AND a.day_trade_count >= 3 AND a.status = 'active' AND f.symbol NOT IN "
        f"(SELECT symbol FROM orders WHERE account_id = a.id AND status IN {OPEN}) ORDER BY a.id",
        TODAY,
    )
    login_as(env, ep, trader["id"])
    msg = fails(env, ep, "place_order", "pattern day trader rule", symbol=trader["symbol"], side="buy", qty=1)
    assert "under 25,000.00" in msg and "it was sold today" in msg


# -- cancel and replace ---------------------------------------------------------------------------


def test_cancel_open_order_and_refuse_finished_ones(trade):
    env, ep = trade
    filled = one(ep, "SELECT id FROM orders WHERE account_id = ? AND status = 'filled'", PERSONA)
    fails(env, ep, "cancel_order", rf"order {filled['id']} is already filled", order=filled["id"])
    other = one(ep, f"SELECT id FROM orders WHERE account_id != ? AND status IN {OPEN}", PERSONA)
    fails(env, ep, "cancel_order", "does not exist in account ACT-000001", order=other["id"])
    opened = one(ep, f"SELECT id FROM orders WHERE account_id = ? AND status IN {OPEN}", PERSONA)
    out = call(env, ep, "cancel_order", order=opened["id"])
    assert out["status"] == "canceled"
    assert {(c["table"], c["column"]) for c in ep.diff()} == {("orders", "status"), ("orders", "updated_at")}
    fails(env, ep, "cancel_order", "is already canceled", order=opened["id"])


def test_cancel_orders_is_all_or_nothing(trade):
    env, ep = trade
    a, b = [
        r["id"]
        for r in rows(ep, f"SELECT id FROM orders WHERE account_id = ? AND status IN {OPEN}", PERSONA)[:2]
    ]
    filled = one(ep, "SELECT id FROM orders WHERE account_id = ? AND status = 'filled'", PERSONA)["id"]
    fails(env, ep, "cancel_orders", "is already filled", orders=[a, filled])
    assert call(env, ep, "cancel_orders", orders=[a, b])["count"] == 2


def test_replace_makes_a_new_order_and_marks_the_old_replaced(trade):
    env, ep = trade
    old = one(
        ep,
        "SELECT o.* FROM orders o JOIN instruments i ON i.id = o.symbol WHERE account_id = ? AND status = 'new' "
        "AND side = 'buy' AND type = 'limit' ORDER BY o.id",
        PERSONA,
    )
    new_limit = round(old["limit_price"] - 0.01, 2)
    new = call(env, ep, "replace_order", order=old["id"], limit_price=new_limit)
    assert new["replaces_id"] == old["id"] and new["limit_price"] == new_limit and new["qty"] == old["qty"]
    assert one(ep, "SELECT status FROM orders WHERE id = ?", old["id"])["status"] == "replaced"
    fails(env, ep, "replace_order", f"was replaced by {new['id']}", order=old["id"], qty=1)
    fails(env, ep, "replace_order", "nothing to change", order=new["id"])


# -- cash --------------------------------------------------------------------------------------------


def test_withdraw_is_limited_to_withdrawable_cash(trade):
    env, ep = trade
    acct = call(env, ep, "get_account")
    too_much = round(acct["withdrawable_cash"] + 100, 2)
    msg = fails(
        env, ep, "withdraw_funds", f"cannot withdraw {too_much:,.2f}: withdrawable cash is", amount=too_much
    )
    assert f"{acct['held_by_open_buys']:,.2f} held by {acct['open_buy_orders']} open buy orders" in msg
    out = call(env, ep, "withdraw_funds", amount=100)
    assert out["cash"] == round(acct["cash"] - 100, 2)
    assert tables(ep) == {"accounts", "cash_movements"}


def test_daily_deposit_and_withdrawal_limits(trade):
    env, ep = trade
    call(env, ep, "deposit_funds", amount=40_000)
    fails(
        env,
        ep,
        "deposit_funds",
        "daily deposit limit is 50,000.00: 40,000.00 was already deposited today, 10,000.00 is left",
        amount=10_000.01,
    )
    assert call(env, ep, "get_account")["withdrawable_cash"] > 50_000
    call(env, ep, "withdraw_funds", amount=45_000)
    fails(
        env,
        ep,
        "withdraw_funds",
        "daily withdrawal limit is 50,000.00: 45,000.00 was already withdrawn today, 5,000.00 is left",
        amount=5_000.01,
    )


# -- watchlist and alerts ------------------------------------------------------------------------------


def test_watchlist_rules(trade):
    env, ep = trade
    on = one(ep, "SELECT symbol FROM watchlist_items WHERE account_id = ?", PERSONA)["symbol"]
    fails(env, ep, "add_to_watchlist", f"{on} is already on your watchlist", symbol=on)
    fails(env, ep, "add_to_watchlist", "no instrument has the symbol", symbol="NOPE")
    off = rows(
        ep,
        "SELECT id FROM instruments WHERE id NOT IN (SELECT symbol FROM watchlist_items WHERE account_id = ?) "
        "ORDER BY id",
        PERSONA,
    )
    fails(env, ep, "remove_from_watchlist", f"{off[0]['id']} is not on your watchlist", symbol=off[0]["id"])
    n = len(call(env, ep, "get_watchlist")["symbols"])
    for r in off[: 50 - n]:
        call(env, ep, "add_to_watchlist", symbol=r["id"])
    fails(
        env, ep, "add_to_watchlist", "your watchlist is full: it holds 50 symbols", symbol=off[50 - n]["id"]
    )
    call(env, ep, "remove_from_watchlist", symbol=on)
    assert len(call(env, ep, "get_watchlist")["symbols"]) == 49


def test_price_alerts_point_away_from_the_price(trade):
    env, ep = trade
    ins = one(ep, FREE)
    fails(
        env,
        ep,
        "set_price_alert",
        "an 'above' alert needs a price over",
        symbol=ins["id"],
        direction="above",
        price=round(ins["last"] - 1, 2),
    )
    alert = call(
        env, ep, "set_price_alert", symbol=ins["id"], direction="below", price=round(ins["last"] - 1, 2)
    )
    fails(
        env,
        ep,
        "set_price_alert",
        f"already have this alert as {alert['id']}",
        symbol=ins["id"],
        direction="below",
        price=round(ins["last"] - 1, 2),
    )
    call(env, ep, "delete_price_alert", alert=alert["id"])
    fails(env, ep, "delete_price_alert", "is already off", alert=alert["id"])


def test_transactions_and_positions_page(trade):
    env, ep = trade
    page = call(env, ep, "list_transactions", limit=5)
    assert len(page["transactions"]) <= 5 and page["total"] >= len(page["transactions"])
    fails(env, ep, "list_transactions", "is after end_day", start_day="2026-05-10", end_day="2026-05-01")
    pos = call(env, ep, "list_positions", limit=100)
    assert pos["total"] == 15 and all("unrealized_pl" in p for p in pos["positions"])
    orders = call(env, ep, "list_orders", status="open", limit=100)
    assert orders["total"] == 10 and {o["status"] for o in orders["orders"]} <= {"new", "partially_filled"}
