"""The matching engine: marketable orders fill against the book at once, the rest rests."""

from __future__ import annotations

from dataclasses import dataclass

from servers.domains.trading.model import (
    MARKET_BUFFER,
    OPEN,
    OPEN_SQL,
    PDT_EQUITY,
    PRICE_AWAY,
    Account,
    BookLevel,
    Fill,
    Instrument,
    Order,
    Position,
)
from servers.domains.trading.rules import (
    _equity,
    _funds,
    _held,
    _instrument,
    _m,
    _own_order,
    _plural,
    _position_qty,
    _q,
    _venue_of,
    _with_fills,
)
from servers.kit import (
    Db,
    ToolError,
)

# -- the matching engine ------------------------------------------------------------------


@dataclass(frozen=True)
class _Ticket:
    """An order as submitted: who, what, how, and the order it replaces (if any)."""

    account: dict
    ins: dict
    side: str
    qty: float
    type_: str
    tif: str
    limit_price: float | None
    stop_price: float | None
    replaces: dict | None

    @property
    def sym(self) -> str:
        return self.ins["id"]

    @property
    def exclude(self) -> str | None:
        """The replaced order, whose holds no longer count against this one."""
        return self.replaces["id"] if self.replaces else None


@dataclass(frozen=True)
class _Route:
    """Where the order goes now: the venue's state and whether it trades at once."""

    ex: dict
    venue: dict
    triggered: bool
    effective: str  # market | limit | resting_stop
    executes: bool


def _submit(
    db: Db,
    account: dict,
    symbol: str,
    side: str,
    qty: float,
    type_: str,
    tif: str,
    limit_price: float | None,
    stop_price: float | None,
    replaces: dict | None = None,
) -> dict:
    """Check an order against every rule, then match it against the book. Raises before writing."""
    t = _Ticket(account, _instrument(db, symbol), side, qty, type_, tif, limit_price, stop_price, replaces)
    _check_shape(t)
    route = _route(db, t)
    _check_means(db, t)
    _check_wash_trade(db, t, route)
    day_trade = _day_trade(db, t, route)
    plan = _plan_fills(db, t, route) if route.executes else []
    order_id, status = _record(db, t, route, plan, day_trade)
    return _describe(db, t, route, order_id, status)


def _check_shape(t: _Ticket) -> None:
    """The order makes sense on its own: a tradable symbol, prices that fit the type, whole shares
    unless fractionable, no price far from the market."""
    account, ins, sym, qty, type_, tif = t.account, t.ins, t.sym, t.qty, t.type_, t.tif
    limit_price, stop_price = t.limit_price, t.stop_price
    if not ins["tradable"]:
        raise ToolError(f"{sym} ({ins['name']}) is not tradable here; quotes are shown for information only")
    if account["status"] == "closed":
        raise ToolError(f"account {account['id']} is closed and cannot trade")
    # prices fit the type
    if type_ in ("limit", "stop_limit") and limit_price is None:
        raise ToolError(f"a {type_} order needs a limit_price")
    if type_ in ("stop", "stop_limit") and stop_price is None:
        raise ToolError(f"a {type_} order needs a stop_price")
    if type_ in ("market", "stop") and limit_price is not None:
        raise ToolError(f"limit_price is only for limit and stop_limit orders, not {type_} orders")
    if type_ in ("market", "limit") and stop_price is not None:
        raise ToolError(f"stop_price is only for stop and stop_limit orders, not {type_} orders")
    if type_ in ("stop", "stop_limit") and tif in ("ioc", "fok"):
        raise ToolError(f"{tif} applies to market and limit orders; use day or gtc for a {type_} order")
    # whole shares unless fractionable (equities: market day orders only)
    if qty != int(qty):
        if not ins["fractionable"]:
            raise ToolError(f"{sym} trades in whole shares only; {_q(qty)} is a fraction")
        if ins["asset_class"] != "crypto" and (type_ != "market" or tif != "day"):
            raise ToolError(
                f"fractional quantities of {sym} are only accepted for market orders with time_in_force day; "
                f"got a {type_} {tif} order for {_q(qty)}"
            )
    for label, price in (("limit price", limit_price), ("stop price", stop_price)):
        if price is not None and abs(price - ins["last"]) > PRICE_AWAY * ins["last"]:
            raise ToolError(
                f"{label} {_m(price)} is more than 10% away from {sym}'s last price {_m(ins['last'])}; "
                f"this looks like a typo (allowed: {_m(ins['last'] * 0.9)} to {_m(ins['last'] * 1.1)})"
            )


def _route(db: Db, t: _Ticket) -> _Route:
    """Venue state: halted or closed venues refuse orders that must trade now; stops trigger or rest."""
    ins, sym, side, type_, tif, stop_price = t.ins, t.sym, t.side, t.type_, t.tif, t.stop_price
    ex, venue = _venue_of(db, ins)
    if ins["halted"] and (type_ in ("market", "stop") or tif in ("ioc", "fok")):
        raise ToolError(
            f"trading in {sym} is halted: {type_} {tif} orders are refused until it resumes; "
            "a limit order with time_in_force day or gtc would be accepted and rest"
        )
    if not venue["open"] and (type_ in ("market", "stop") or tif in ("ioc", "fok")):
        raise ToolError(
            f"{ex['id']} is closed: {type_} {tif} orders for {sym} are refused until it opens "
            f"{venue['next_open']}; a limit order with time_in_force day or gtc would be accepted and rest"
        )
    live = venue["open"] and not ins["halted"]
    triggered = False
    effective = type_
    if type_ in ("stop", "stop_limit"):
        triggered = live and (ins["last"] >= stop_price if side == "buy" else ins["last"] <= stop_price)
        effective = ("market" if type_ == "stop" else "limit") if triggered else "resting_stop"
    executes = live and effective in ("market", "limit")
    return _Route(ex, venue, triggered, effective, executes)


def _check_means(db: Db, t: _Ticket) -> None:
    """What the account can do: restricted accounts only reduce, buys fit buying power, sells fit the
    position (or a margin account's short-selling power)."""
    account, ins, sym, side, qty, type_ = t.account, t.ins, t.sym, t.side, t.qty, t.type_
    limit_price, stop_price, exclude = t.limit_price, t.stop_price, t.exclude
    pos = _position_qty(db, account["id"], sym)
    funds = _funds(db, account, exclude)
    if account["status"] == "restricted":
        if side == "sell":
            held_sells, _ = _held(db, account["id"], sym, "sell", exclude)
            can = max(0.0, round(pos - held_sells, 4))
        else:
            held_buys, _ = _held(db, account["id"], sym, "buy", exclude)
            can = max(0.0, round(-pos - held_buys, 4))
        if qty > can:
            raise ToolError(
                f"account {account['id']} is restricted: it may only reduce positions; you hold {_q(pos)} {sym}, "
                f"so at most {_q(can)} can be {'sold' if side == 'sell' else 'bought back'}"
            )
    if side == "buy":
        top = ins["ask"] or ins["last"]
        if type_ in ("limit", "stop_limit"):
            needs = limit_price * qty
        elif type_ == "stop":
            needs = max(stop_price, top) * qty * MARKET_BUFFER
        else:
            needs = top * qty * MARKET_BUFFER
        needs = round(needs, 2)
        if needs > funds["power"]:
            raise ToolError(
                f"insufficient buying power: order needs {_m(needs)}, buying power is {_m(funds['power'])} "
                f"({funds['why']}); shortfall {_m(needs - funds['power'])}"
            )
    else:
        held_sells, n_sells = _held(db, account["id"], sym, "sell", exclude)
        available = max(0.0, round(max(pos, 0.0) - held_sells, 4))
        if qty > available:
            short_qty = round(qty - available, 4)
            have = f"you hold {_q(max(pos, 0.0))} {sym}"
            if held_sells:
                have += f" and {_q(held_sells)} are held by {_plural(n_sells, 'open sell order')}"
            have += f", so {_q(available)} can be sold"
            if account["kind"] != "margin":
                raise ToolError(f"cannot sell {_q(qty)} {sym}: {have}; cash accounts cannot sell short")
            if not ins["shortable"]:
                raise ToolError(f"cannot sell {_q(qty)} {sym}: {have}; {sym} cannot be sold short")
            collateral = round(short_qty * (limit_price or stop_price or ins["bid"] or ins["last"]), 2)
            if collateral > funds["power"]:
                raise ToolError(
                    f"insufficient buying power to sell {_q(short_qty)} {sym} short: it needs {_m(collateral)}, "
                    f"buying power is {_m(funds['power'])} ({funds['why']}); "
                    f"shortfall {_m(collateral - funds['power'])}"
                )


def _check_wash_trade(db: Db, t: _Ticket, route: _Route) -> None:
    """An own opposite open order this one could trade against is refused."""
    account, sym, side, type_, limit_price, exclude = (
        t.account,
        t.sym,
        t.side,
        t.type_,
        t.limit_price,
        t.exclude,
    )
    effective = route.effective
    price_mine = limit_price if effective == "limit" or type_ in ("limit", "stop_limit") else None
    for o in db.all(
        f"SELECT * FROM orders WHERE account_id = ? AND symbol = ? AND side != ? AND status IN {OPEN_SQL} "
        "AND id != ? AND limit_price IS NOT NULL AND type IN ('limit', 'stop_limit') ORDER BY id",
        account["id"],
        sym,
        side,
        exclude or "",
    ):
        crosses = price_mine is None or (
            price_mine >= o["limit_price"] if side == "buy" else price_mine <= o["limit_price"]
        )
        if crosses and (o["type"] == "limit" or o["triggered"]):
            raise ToolError(
                f"potential wash trade: your open {o['side']} order {o['id']} ({_q(o['qty'] - o['filled_qty'])} "
                f"{sym} at limit {_m(o['limit_price'])}) could trade against this {side}; cancel or replace it first"
            )


def _day_trade(db: Db, t: _Ticket, route: _Route) -> bool:
    """Whether this order is a day trade; a margin account under the equity floor with three already
    is refused a fourth (pattern day trader)."""
    account, sym, side, executes = t.account, t.sym, t.side, route.executes
    day_trade = executes and bool(
        db.scalar(
            "SELECT count(*) FROM fills WHERE account_id = ? AND symbol = ? AND side != ? AND substr(at, 1, 10) = ?",
            account["id"],
            sym,
            side,
            db.today.isoformat(),
        )
    )
    if day_trade and account["kind"] == "margin":
        equity = _equity(db, account)
        if equity < PDT_EQUITY and (account["day_trade_count"] >= 3 or account["pattern_day_trader"]):
            raise ToolError(
                f"pattern day trader rule: account {account['id']} has made {account['day_trade_count']} day "
                f"trades in the last 5 trading days and its equity is {_m(equity)} (under {_m(PDT_EQUITY)}); "
                f"this {side} of {sym} would be another day trade (it was "
                f"{'sold' if side == 'buy' else 'bought'} today). Trade it tomorrow or bring equity above "
                f"{_m(PDT_EQUITY)}"
            )
    return day_trade


def _plan_fills(db: Db, t: _Ticket, route: _Route) -> list[tuple[dict, float]]:
    """The book levels an executing order takes, best price first; fill-or-kill must fill in full."""
    sym, side, qty, tif, limit_price, effective = t.sym, t.side, t.qty, t.tif, t.limit_price, route.effective
    asks = "ask" if side == "buy" else "bid"
    plan: list[tuple[dict, float]] = []
    order_by = "price ASC" if side == "buy" else "price DESC"
    left = qty
    for lvl in db.all(
        f"SELECT * FROM book_levels WHERE symbol = ? AND side = ? AND size > 0 ORDER BY {order_by}, id",
        sym,
        asks,
    ):
        if left <= 0:
            break
        if effective == "limit" and (
            lvl["price"] > limit_price if side == "buy" else lvl["price"] < limit_price
        ):
            break
        take = round(min(lvl["size"], left), 4)
        if take <= 0:
            continue
        plan.append((lvl, take))
        left = round(left - take, 4)
    filled = round(qty - left, 4)
    if tif == "fok" and filled < qty:
        at = (
            f" at or {'below' if side == 'buy' else 'above'} {_m(limit_price)}"
            if effective == "limit"
            else ""
        )
        raise ToolError(
            f"fill-or-kill order cannot be filled in full: only {_q(filled)} {sym} is offered{at} right now, "
            f"the order is for {_q(qty)}"
        )
    if effective == "market" and not plan:
        raise ToolError(
            f"nobody is {'selling' if side == 'buy' else 'buying'} {sym} right now; the book side is empty"
        )
    return plan


def _outcome(t: _Ticket, route: _Route, filled: float) -> tuple[str, str | None]:
    """The order's status after matching, and why when it was canceled."""
    if filled >= t.qty:
        return "filled", None
    if route.effective == "market":
        reason = (
            f"the book ran out after {_q(filled)} {t.sym}; the unfilled {_q(t.qty - filled)} was canceled"
        )
        return "canceled", reason
    if t.tif == "ioc":
        reason = f"immediate-or-cancel: {_q(t.qty - filled)} could not fill at once and was canceled"
        return "canceled", reason
    return ("partially_filled" if filled else "new"), None


def _record(
    db: Db, t: _Ticket, route: _Route, plan: list[tuple[dict, float]], day_trade: bool
) -> tuple[str, str]:
    """The writes: the order row, the replaced order, then the fills and what they move."""
    account, sym, side, qty, tif = t.account, t.sym, t.side, t.qty, t.tif
    stamp = db.stamp()
    filled = round(sum(take for _, take in plan), 4)
    cost = sum(take * lvl["price"] for lvl, take in plan)
    status, reason = _outcome(t, route, filled)
    order_id = db.add(
        Order,
        account_id=account["id"],
        symbol=sym,
        side=side,
        type=t.type_,
        time_in_force=tif,
        qty=qty,
        limit_price=t.limit_price,
        stop_price=t.stop_price,
        triggered=route.triggered,
        status=status,
        filled_qty=filled,
        avg_fill_price=round(cost / filled, 4) if filled else None,
        status_reason=reason,
        replaces_id=t.exclude,
        created_at=stamp,
        updated_at=stamp,
    )
    if t.replaces:
        db.update(Order, t.replaces["id"], status="replaced", updated_at=stamp)
    if plan:
        _settle(db, t, order_id, plan, filled, cost, day_trade, stamp)
    return order_id, status


def _settle(
    db: Db,
    t: _Ticket,
    order_id: str,
    plan: list[tuple[dict, float]],
    filled: float,
    cost: float,
    day_trade: bool,
    stamp: str,
) -> None:
    """Book levels taken, one fill per level, then cash, the position and the instrument's quote."""
    account, ins, sym, side = t.account, t.ins, t.sym, t.side
    for lvl, take in plan:
        rest = round(lvl["size"] - take, 4)
        if rest <= 0:
            db.delete(BookLevel, lvl["id"])
        else:
            db.execute("UPDATE book_levels SET size = ? WHERE id = ?", rest, lvl["id"])
        db.add(
            Fill,
            order_id=order_id,
            account_id=account["id"],
            symbol=sym,
            side=side,
            qty=take,
            price=lvl["price"],
            at=stamp,
        )
    signed = filled if side == "buy" else -filled
    db.execute(
        "UPDATE accounts SET cash = ?, day_trade_count = day_trade_count + ? WHERE id = ?",
        round(account["cash"] + (-cost if side == "buy" else cost), 2),
        1 if day_trade else 0,
        account["id"],
    )
    _apply_position(db, account["id"], sym, signed, cost / filled)
    prices = [lvl["price"] for lvl, _ in plan]
    best = db.one(
        "SELECT (SELECT max(price) FROM book_levels WHERE symbol = ? AND side = 'bid') AS bid, "
        "(SELECT min(price) FROM book_levels WHERE symbol = ? AND side = 'ask') AS ask",
        sym,
        sym,
    )
    db.update(
        Instrument,
        sym,
        last=prices[-1],
        volume=round(ins["volume"] + filled, 4),
        day_high=max(ins["day_high"], *prices),
        day_low=min(ins["day_low"], *prices),
        bid=best["bid"],
        ask=best["ask"],
    )


def _describe(db: Db, t: _Ticket, route: _Route, order_id: str, status: str) -> dict:
    """The order as the agent sees it, with fills, cash after, and why it rests if it does."""
    account, ins, sym, stop_price = t.account, t.ins, t.sym, t.stop_price
    ex, venue, effective, executes = route.ex, route.venue, route.effective, route.executes
    out = _with_fills(db, db.get(Order, order_id))
    out["cash_after"] = db.get(Account, account["id"])["cash"]
    if status == "new" and not executes:
        if effective == "resting_stop":
            out["note"] = (
                f"stop not reached (last {_m(ins['last'])}); the order rests until {sym} trades at {_m(stop_price)}"
            )
        elif not venue["open"]:
            out["note"] = f"{ex['id']} is closed; the order rests until it opens {venue['next_open']}"
        elif ins["halted"]:
            out["note"] = f"{sym} is halted; the order rests until trading resumes"
    return out


def _apply_position(db: Db, account_id: str, symbol: str, signed: float, price: float) -> None:
    """Add a signed quantity to a position: average cost grows on adds, resets when it flips."""
    row = db.one("SELECT * FROM positions WHERE account_id = ? AND symbol = ?", account_id, symbol)
    if row is None:
        db.add(Position, account_id=account_id, symbol=symbol, qty=signed, avg_cost=round(price, 4))
        return
    old = row["qty"]
    new = round(old + signed, 4)
    if new == 0:
        db.delete(Position, row["id"])
        return
    if old == 0 or (old > 0) == (signed > 0):  # adding to the same direction
        avg = (abs(old) * row["avg_cost"] + abs(signed) * price) / abs(new)
    elif (old > 0) != (new > 0):  # flipped through zero
        avg = price
    else:  # reduced: the cost of what is left does not change
        avg = row["avg_cost"]
    db.execute("UPDATE positions SET qty = ?, avg_cost = ? WHERE id = ?", new, round(avg, 4), row["id"])


def _cancel(db: Db, account: dict, order_id: str, verb: str = "canceled") -> dict:
    """The account's order if it is still open, else why it cannot be canceled (or replaced)."""
    o = _own_order(db, account, order_id)
    if o["status"] not in OPEN:
        why = {
            "filled": "is already filled",
            "canceled": "is already canceled",
            "expired": "has already expired",
            "rejected": "was rejected",
            "replaced": "was replaced",
        }[o["status"]]
        if o["status"] == "replaced":
            new = db.scalar("SELECT id FROM orders WHERE replaces_id = ? ORDER BY id DESC LIMIT 1", o["id"])
            why += f" by {new}; act on that order instead" if new else ""
        raise ToolError(f"order {o['id']} {why}; only new or partially filled orders can be {verb}")
    return o
