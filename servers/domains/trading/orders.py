"""Placing, inspecting, cancelling and replacing orders; positions and history."""

from __future__ import annotations

from typing import Literal

from servers.domains.trading.matching import _cancel, _submit
from servers.domains.trading.model import (
    OPEN_SQL,
    Account,
    BookLevel,
    Fill,
    Instrument,
    Order,
    OrderType,
    Position,
    Session,
    Shares,
    Side,
    TimeInForce,
    trading,
)
from servers.domains.trading.rules import _instrument, _own_order, _position_qty, _q, _with_fills
from servers.kit import (
    Day,
    Db,
    IdList,
    Money,
    Offset,
    PageSize,
    Ref,
    ToolError,
)

# -- orders -------------------------------------------------------------------------------


@trading.tool(
    writes=[Order, Fill, BookLevel, Account, Position, Instrument],
    needs=[Session, Account],
    returns=Order,
    says=[
        "buy {qty} shares of {symbol} at market",
        "place a {type} {side} order for {qty} {symbol} at {limit_price}",
        "{side} {qty} {symbol} with a stop at {stop_price}, good till canceled",
    ],
)
def place_order(
    db: Db,
    symbol: Ref[Instrument, "tradable = 1 AND halted = 0 AND exchange_id != 'XTKS-SIM'"],
    side: Side,
    qty: Shares,
    type: OrderType = "market",
    time_in_force: TimeInForce = "day",
    limit_price: Money | None = None,
    stop_price: Money | None = None,
) -> dict:
    """Submit an order. Marketable parts fill at once against the book; the rest rests or is canceled
    (ioc), fok fills in full or is refused. Returns the order with its status, filled_qty,
    avg_fill_price and fills.

    Args:
        symbol: The ticker symbol.
        side: buy or sell (selling more than you hold is a short sale: margin accounts only).
        qty: Shares or coins; fractions only for fractionable symbols (stocks: market day orders).
        type: market, limit, stop or stop_limit.
        time_in_force: day, gtc (good till canceled), ioc (immediate or cancel) or fok (fill or kill).
        limit_price: Required for limit and stop_limit orders; within 10% of the last price.
        stop_price: Required for stop and stop_limit orders; within 10% of the last price.
    """
    account = db.actor()
    return _submit(db, account, symbol, side, qty, type, time_in_force, limit_price, stop_price)


MINE = "account_id = (SELECT account_id FROM sessions)"
MINE_OPEN = f"{MINE} AND status IN {OPEN_SQL}"


@trading.tool(
    needs=[Session],
    returns=Order,
    says=["what's the status of order {order}?", "show me order {order} and its fills"],
)
def get_order(db: Db, order: Ref[Order, MINE]) -> dict:
    """One order of the logged-in account with its fills."""
    return _with_fills(db, _own_order(db, db.actor(), order))


@trading.tool(
    needs=[Session],
    returns=Order,
    says=["list my {status} orders", "show my orders for {symbol}", "what orders do I have open?"],
)
def list_orders(
    db: Db,
    status: Literal[
        "open", "new", "partially_filled", "filled", "canceled", "expired", "rejected", "replaced"
    ]
    | None = None,
    symbol: Ref[Instrument] | None = None,
    side: Side | None = None,
    limit: PageSize = 20,
    offset: Offset = 0,
) -> dict:
    """Orders of the logged-in account, newest first.

    Args:
        status: open (new or partially filled) or one exact status.
        symbol: Only orders for this symbol.
        side: Only buys or only sells.
    """
    a = db.actor()
    where, params = ["account_id = ?"], [a["id"]]
    if status == "open":
        where.append(f"status IN {OPEN_SQL}")
    elif status is not None:
        where.append("status = ?")
        params.append(status)
    if symbol is not None:
        where.append("symbol = ?")
        params.append(_instrument(db, symbol)["id"])
    if side is not None:
        where.append("side = ?")
        params.append(side)
    sql = f"SELECT * FROM orders WHERE {' AND '.join(where)} ORDER BY created_at DESC, id DESC"
    return db.page(sql, *params, limit=limit, offset=offset, key="orders")


@trading.tool(
    writes=[Order],
    needs=[Session],
    returns=Order,
    destructive=True,
    says=["cancel order {order}", "kill my open order {order}"],
)
def cancel_order(db: Db, order: Ref[Order, MINE_OPEN]) -> dict:
    """Cancel an open (new or partially filled) order; what already filled stays filled."""
    a = db.actor()
    o = _cancel(db, a, order)
    return _with_fills(db, db.update(Order, o["id"], status="canceled", updated_at=db.stamp()))


@trading.tool(
    writes=[Order],
    needs=[Session],
    returns=Order,
    destructive=True,
    says=["cancel orders {orders}", "cancel all of these orders: {orders}"],
)
def cancel_orders(db: Db, orders: IdList[Order, MINE_OPEN]) -> dict:
    """Cancel several open orders at once; if any cannot be canceled, none is.

    Args:
        orders: Order ids, e.g. ["ORD-000012", "ORD-000031"].
    """
    a = db.actor()
    checked = [_cancel(db, a, o) for o in orders]
    for o in checked:
        db.update(Order, o["id"], status="canceled", updated_at=db.stamp())
    return {"canceled": [o["id"] for o in checked], "count": len(checked)}


@trading.tool(
    writes=[Order, Fill, BookLevel, Account, Position, Instrument],
    needs=[Session],
    returns=Order,
    says=["change order {order} to {qty} shares", "move the limit on {order} to {limit_price}"],
)
def replace_order(
    db: Db,
    order: Ref[Order, MINE_OPEN],
    qty: Shares | None = None,
    limit_price: Money | None = None,
    stop_price: Money | None = None,
) -> dict:
    """Change the quantity or prices of an open order. A new order replaces it (the old one becomes
    replaced, its fills stay) and is matched at once if it is now marketable.

    Args:
        order: The open order.
        qty: New quantity of the new order (default: what is still unfilled).
        limit_price: New limit price (limit and stop_limit orders).
        stop_price: New stop price (stop and stop_limit orders).
    """
    a = db.actor()
    o = _cancel(db, a, order, "replaced")
    if qty is None and limit_price is None and stop_price is None:
        raise ToolError("nothing to change: give qty, limit_price or stop_price")
    if limit_price is not None and o["type"] not in ("limit", "stop_limit"):
        raise ToolError(f"order {o['id']} is a {o['type']} order; it has no limit price to change")
    if stop_price is not None and o["type"] not in ("stop", "stop_limit"):
        raise ToolError(f"order {o['id']} is a {o['type']} order; it has no stop price to change")
    new_qty = qty if qty is not None else round(o["qty"] - o["filled_qty"], 4)
    return _submit(
        db,
        a,
        o["symbol"],
        o["side"],
        new_qty,
        o["type"],
        o["time_in_force"],
        limit_price if limit_price is not None else o["limit_price"],
        stop_price if stop_price is not None else o["stop_price"],
        replaces=o,
    )


# -- positions and history ---------------------------------------------------------------


@trading.tool(
    needs=[Session], returns=Instrument, says=["what do I own?", "show my positions and their profit"]
)
def list_positions(db: Db, limit: PageSize = 20, offset: Offset = 0) -> dict:
    """Holdings of the logged-in account with last price, market value and unrealized profit/loss."""
    a = db.actor()
    sql = (
        "SELECT p.id, p.symbol, i.name, p.qty, p.avg_cost, i.last, round(p.qty * i.last, 2) AS market_value, "
        "round(p.qty * p.avg_cost, 2) AS cost_basis, round(p.qty * (i.last - p.avg_cost), 2) AS unrealized_pl, "
        "round(100 * (i.last - p.avg_cost) / p.avg_cost * (CASE WHEN p.qty < 0 THEN -1 ELSE 1 END), 2) "
        "AS unrealized_pl_pct FROM positions p JOIN instruments i ON i.id = p.symbol WHERE p.account_id = ? "
        "ORDER BY p.symbol"
    )
    page = db.page(sql, a["id"], limit=limit, offset=offset, key="positions")
    page["account"] = a["id"]
    return page


@trading.tool(
    writes=[Order, Fill, BookLevel, Account, Position, Instrument],
    needs=[Session],
    returns=Order,
    says=["sell all my {symbol}", "close {qty} of my {symbol} position"],
)
def close_position(
    db: Db,
    symbol: Ref[
        Instrument,
        f"id IN (SELECT symbol FROM positions WHERE {MINE}) AND halted = 0 AND exchange_id != 'XTKS-SIM'",
    ],
    qty: Shares | None = None,
) -> dict:
    """Close all or part of a position at market: sell a long, buy back a short.

    Args:
        symbol: The symbol held.
        qty: How much to close (default: all of it).
    """
    a = db.actor()
    ins = _instrument(db, symbol)
    pos = _position_qty(db, a["id"], ins["id"])
    if pos == 0:
        raise ToolError(f"you hold no {ins['id']}; list_positions shows what you hold")
    size = abs(pos)
    if qty is not None and qty > size:
        raise ToolError(f"you hold only {_q(size)} {ins['id']}; cannot close {_q(qty)}")
    return _submit(db, a, ins["id"], "sell" if pos > 0 else "buy", qty or size, "market", "day", None, None)


@trading.tool(
    needs=[Session],
    returns=Fill,
    says=["show my transactions from {start_day} to {end_day}", "list my {kind} history"],
)
def list_transactions(
    db: Db,
    start_day: Day | None = None,
    end_day: Day | None = None,
    kind: Literal["trade", "deposit", "withdrawal", "dividend", "fee"] | None = None,
    limit: PageSize = 20,
    offset: Offset = 0,
) -> dict:
    """Fills and cash movements of the logged-in account, newest first (amount is signed cash).

    Args:
        start_day: First day included, YYYY-MM-DD.
        end_day: Last day included, YYYY-MM-DD.
        kind: trade, deposit, withdrawal, dividend or fee.
    """
    a = db.actor()
    if start_day and end_day and start_day > end_day:
        raise ToolError(f"start_day {start_day} is after end_day {end_day}")
    where, params = ["1 = 1"], [a["id"], a["id"]]
    if start_day:
        where.append("substr(at, 1, 10) >= ?")
        params.append(start_day)
    if end_day:
        where.append("substr(at, 1, 10) <= ?")
        params.append(end_day)
    if kind:
        where.append("kind = ?")
        params.append(kind)
    sql = (
        "SELECT * FROM (SELECT id, 'trade' AS kind, at, symbol, side, qty, price, "
        "round(CASE WHEN side = 'buy' THEN -qty * price ELSE qty * price END, 2) AS amount, order_id, "
        "'completed' AS status, printf('%s %g %s at %.2f', side, qty, symbol, price) AS description "
        "FROM fills WHERE account_id = ? UNION ALL SELECT id, kind, at, NULL, NULL, NULL, NULL, amount, NULL, "
        f"status, description FROM cash_movements WHERE account_id = ?) WHERE {' AND '.join(where)} "
        "ORDER BY at DESC, id DESC"
    )
    return db.page(sql, *params, limit=limit, offset=offset, key="transactions")
