"""Money, the session, venues and the checks several tools share."""

from __future__ import annotations

from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

from servers.domains.trading.model import (
    MARKET_BUFFER,
    MARKET_TZ,
    OPEN_SQL,
    Exchange,
    Instrument,
    Order,
)
from servers.kit import (
    Db,
    ToolError,
)

# -- helpers: money, session, venues -------------------------------------------------------


def _m(x: float) -> str:
    return f"{x:,.2f}"


def _q(x: float) -> str:
    return f"{x:g}" if x == int(x) else f"{x:.4f}".rstrip("0")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _instrument(db: Db, symbol: str) -> dict:
    row = db.find(Instrument, symbol)
    if row is None:
        row = db.find(Instrument, symbol.strip().upper())
    if row is None:
        raise ToolError(f"no instrument has the symbol {symbol!r}; search_instruments finds symbols by name")
    return row


def _own_order(db: Db, account: dict, order_id: str) -> dict:
    o = db.find(Order, order_id)
    if o is None or o["account_id"] != account["id"]:
        raise ToolError(f"order {order_id!r} does not exist in account {account['id']}")
    return o


def _now_at(db: Db, tz: ZoneInfo) -> datetime:
    return db.now.replace(tzinfo=MARKET_TZ).astimezone(tz)


def _hm(text: str) -> time:
    h, m = (int(x) for x in text.split(":"))
    return time(23, 59, 59) if h == 24 else time(h, m)


def _venue(db: Db, ex: dict) -> dict:
    """Is the venue in its regular session right now, and when does it next open/close."""
    tz = ZoneInfo(ex["timezone"])
    local = _now_at(db, tz)
    daily = ex["trading_days"] == "daily"
    if daily and ex["session_close"] == "24:00":
        return {
            "open": True,
            "next_open": None,
            "next_close": None,
            "local_time": local.strftime("%Y-%m-%d %H:%M"),
        }
    start, end = _hm(ex["session_open"]), _hm(ex["session_close"])
    trading_day = daily or local.weekday() < 5
    is_open = trading_day and start <= local.time() < end
    next_open = next_close = None
    for k in range(0, 8):
        d = local.date() + timedelta(days=k)
        if not (daily or d.weekday() < 5):
            continue
        o = datetime.combine(d, start, tz)
        c = datetime.combine(d, end, tz)
        if next_open is None and o > local:
            next_open = o
        if next_close is None and c > local and (is_open or o > local):
            next_close = c
        if next_open and next_close:
            break

    def show(t: datetime | None) -> str | None:
        if t is None:
            return None
        ny = t.astimezone(MARKET_TZ)
        text = ny.strftime("%a %Y-%m-%d %H:%M") + " New York time"
        if ex["timezone"] != "America/New_York":
            text += f" ({t.strftime('%a %Y-%m-%d %H:%M')} local)"
        return text

    return {
        "open": is_open,
        "next_open": show(next_open),
        "next_close": show(next_close) if is_open else None,
        "local_time": local.strftime("%Y-%m-%d %H:%M"),
    }


def _venue_of(db: Db, ins: dict) -> tuple[dict, dict]:
    ex = db.get(Exchange, ins["exchange_id"])
    return ex, _venue(db, ex)


def _funds(db: Db, account: dict, exclude: str | None = None) -> dict:
    """Cash, what open buys hold, short exposure, and the buying power left."""
    n, held = db.one(
        "SELECT count(*) AS n, coalesce(sum((qty - filled_qty) * coalesce(limit_price, stop_price * ?)), 0) "
        f"AS held FROM orders WHERE account_id = ? AND side = 'buy' AND status IN {OPEN_SQL} AND id != ?",
        MARKET_BUFFER,
        account["id"],
        exclude or "",
    ).values()
    short = db.scalar(
        "SELECT coalesce(sum(-p.qty * i.last), 0) FROM positions p JOIN instruments i ON i.id = p.symbol "
        "WHERE p.account_id = ? AND p.qty < 0",
        account["id"],
    )
    held, short = round(held, 2), round(short, 2)
    power = round(max(0.0, account["cash"] - held - short), 2)
    why = f"cash {_m(account['cash'])} minus {_m(held)} held by {_plural(n, 'open buy order')}"
    if short:
        why += f" minus {_m(short)} backing short positions"
    return {
        "cash": account["cash"],
        "held": held,
        "open_buys": n,
        "short_value": short,
        "power": power,
        "why": why,
    }


def _equity(db: Db, account: dict) -> float:
    value = db.scalar(
        "SELECT coalesce(sum(p.qty * i.last), 0) FROM positions p JOIN instruments i ON i.id = p.symbol "
        "WHERE p.account_id = ?",
        account["id"],
    )
    return round(account["cash"] + value, 2)


def _position_qty(db: Db, account_id: str, symbol: str) -> float:
    return (
        db.scalar("SELECT qty FROM positions WHERE account_id = ? AND symbol = ?", account_id, symbol) or 0.0
    )


def _held(db: Db, account_id: str, symbol: str, side: str, exclude: str | None) -> tuple[float, int]:
    row = db.one(
        "SELECT coalesce(sum(qty - filled_qty), 0) AS q, count(*) AS n FROM orders WHERE account_id = ? "
        f"AND symbol = ? AND side = ? AND status IN {OPEN_SQL} AND id != ?",
        account_id,
        symbol,
        side,
        exclude or "",
    )
    return round(row["q"], 4), row["n"]


def _moved_today(db: Db, account_id: str, kind: str) -> float:
    return abs(
        db.scalar(
            "SELECT coalesce(sum(amount), 0) FROM cash_movements WHERE account_id = ? AND kind = ? "
            "AND substr(at, 1, 10) = ?",
            account_id,
            kind,
            db.today.isoformat(),
        )
    )


def _with_fills(db: Db, order: dict) -> dict:
    order = dict(order)
    order["fills"] = db.all(
        "SELECT id, qty, price, at FROM fills WHERE order_id = ? ORDER BY id", order["id"]
    )
    return order
