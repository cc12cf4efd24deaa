"""Market data: instrument search, quotes, the order book, price history, market status."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from servers.domains.trading.model import (
    AssetClass,
    BookLevel,
    Exchange,
    Instrument,
    PriceBar,
    SearchText,
    Sector,
    trading,
)
from servers.domains.trading.rules import _instrument, _m, _venue, _venue_of
from servers.kit import (
    Db,
    IdList,
    Money,
    Offset,
    PageSize,
    Ref,
    ToolError,
)

# -- market data ------------------------------------------------------------------------------


def _quote(db: Db, ins: dict, venues: dict[str, dict]) -> dict:
    if ins["exchange_id"] not in venues:
        venues[ins["exchange_id"]] = _venue(db, db.get(Exchange, ins["exchange_id"]))
    change = round(ins["last"] - ins["prev_close"], 2)
    return {
        "symbol": ins["id"],
        "name": ins["name"],
        "exchange": ins["exchange_id"],
        "asset_class": ins["asset_class"],
        "sector": ins["sector"],
        "bid": ins["bid"],
        "ask": ins["ask"],
        "last": ins["last"],
        "prev_close": ins["prev_close"],
        "change": change,
        "change_pct": round(100 * change / ins["prev_close"], 2),
        "day_high": ins["day_high"],
        "day_low": ins["day_low"],
        "volume": ins["volume"],
        "halted": bool(ins["halted"]),
        "tradable": bool(ins["tradable"]),
        "venue_open": venues[ins["exchange_id"]]["open"],
    }


@trading.tool(
    returns=Instrument,
    says=[
        "find stocks matching '{query}'",
        "which {sector} stocks trade between {min_price} and {max_price}?",
        "look up the ticker for {query}",
    ],
)
def search_instruments(
    db: Db,
    query: SearchText | None = None,
    sector: Sector | None = None,
    asset_class: AssetClass | None = None,
    exchange: Ref[Exchange] | None = None,
    min_price: Money | None = None,
    max_price: Money | None = None,
    limit: PageSize = 20,
    offset: Offset = 0,
) -> dict:
    """Find instruments by company name or symbol, sector, asset class, venue and last price.

    Args:
        query: Part of the company name or symbol, e.g. "bio".
        sector: Only this sector.
        asset_class: equity, etf or crypto.
        exchange: Only this venue, e.g. XNYS-SIM.
        min_price: Lowest last price.
        max_price: Highest last price.
    """
    if min_price is not None and max_price is not None and min_price > max_price:
        raise ToolError(f"min_price {_m(min_price)} is above max_price {_m(max_price)}")
    if exchange is not None:
        db.get(Exchange, exchange)
    where, params = ["1 = 1"], []
    if query:
        where.append("(instr(lower(name), lower(?)) > 0 OR instr(lower(id), lower(?)) > 0)")
        params += [query.strip(), query.strip()]
    for col, value in (("sector", sector), ("asset_class", asset_class), ("exchange_id", exchange)):
        if value is not None:
            where.append(f"{col} = ?")
            params.append(value)
    if min_price is not None:
        where.append("last >= ?")
        params.append(min_price)
    if max_price is not None:
        where.append("last <= ?")
        params.append(max_price)
    sql = (
        "SELECT id AS symbol, name, exchange_id AS exchange, sector, asset_class, last, bid, ask, "
        "round(100 * (last - prev_close) / prev_close, 2) AS change_pct, tradable, halted, fractionable, shortable "
        f"FROM instruments WHERE {' AND '.join(where)} ORDER BY id"
    )
    return db.page(sql, *params, limit=limit, offset=offset, key="instruments")


@trading.tool(
    returns=Instrument,
    says=["what are {symbols} trading at?", "get me quotes for {symbols}", "what's the price of {symbols}?"],
)
def get_quotes(db: Db, symbols: IdList[Instrument]) -> dict:
    """Current quotes: bid, ask, last, change since yesterday's close, volume, halted, venue open.

    Args:
        symbols: Ticker symbols, e.g. ["HUGH", "CORV-USD"].
    """
    rows, missing = [], []
    for s in symbols:
        row = db.find(Instrument, s) or db.find(Instrument, s.strip().upper())
        (rows if row else missing).append(row or s)
    if missing:
        raise ToolError(
            f"unknown symbol{'s' if len(missing) > 1 else ''}: {', '.join(repr(m) for m in missing)}; "
            "search_instruments finds symbols by company name"
        )
    venues: dict[str, dict] = {}
    return {"quotes": [_quote(db, r, venues) for r in rows]}


@trading.tool(
    returns=BookLevel,
    says=["show the order book for {symbol}", "what's the depth on {symbol}, top {depth} levels?"],
)
def get_order_book(db: Db, symbol: Ref[Instrument], depth: Annotated[int, Field(ge=1, le=5)] = 5) -> dict:
    """The best bid and ask levels (price and size) resting in the book, and the spread.

    Args:
        symbol: The ticker symbol.
        depth: Levels per side, 1-5.
    """
    ins = _instrument(db, symbol)

    def side(name: str, order: str) -> list[dict]:
        rows = db.all(
            f"SELECT price, size FROM book_levels WHERE symbol = ? AND side = ? ORDER BY price {order}, id LIMIT ?",
            ins["id"],
            name,
            depth,
        )
        return [{"level": i + 1, **r} for i, r in enumerate(rows)]

    bids, asks = side("bid", "DESC"), side("ask", "ASC")
    _, venue = _venue_of(db, ins)
    return {
        "symbol": ins["id"],
        "bids": bids,
        "asks": asks,
        "spread": round(asks[0]["price"] - bids[0]["price"], 2) if bids and asks else None,
        "halted": bool(ins["halted"]),
        "venue_open": venue["open"],
    }


@trading.tool(
    returns=PriceBar,
    says=[
        "show {symbol}'s price history for the last {days} days",
        "what's the 20-day moving average of {symbol}?",
    ],
)
def get_price_history(db: Db, symbol: Ref[Instrument], days: Annotated[int, Field(ge=1, le=60)] = 20) -> dict:
    """Daily bars (open, high, low, close, volume) with 5- and 20-day moving averages of the close.

    Args:
        symbol: The ticker symbol.
        days: How many recent trading days, 1-60.
    """
    ins = _instrument(db, symbol)
    bars = db.all(
        "SELECT day, open, high, low, close, volume FROM price_bars WHERE symbol = ? ORDER BY day", ins["id"]
    )
    closes = [b["close"] for b in bars]
    for i, b in enumerate(bars):
        b["ma5"] = round(sum(closes[i - 4 : i + 1]) / 5, 4) if i >= 4 else None
        b["ma20"] = round(sum(closes[i - 19 : i + 1]) / 20, 4) if i >= 19 else None
    shown = bars[-days:]
    return {
        "symbol": ins["id"],
        "days": len(shown),
        "bars": shown,
        "ma5": shown[-1]["ma5"] if shown else None,
        "ma20": shown[-1]["ma20"] if shown else None,
    }


@trading.tool(
    returns=Exchange,
    says=[
        "is the market open right now?",
        "when does {exchange} open next?",
        "what time is it on the exchanges?",
    ],
)
def get_market_status(db: Db, exchange: Ref[Exchange] | None = None) -> dict:
    """The current time (New York), and for each venue whether it is open, its hours and the next open/close.

    Args:
        exchange: Only this venue, e.g. XTKS-SIM.
    """
    rows = [db.get(Exchange, exchange)] if exchange else db.all("SELECT * FROM exchanges ORDER BY id")
    venues = []
    for ex in rows:
        v = _venue(db, ex)
        venues.append(
            {
                "exchange": ex["id"],
                "name": ex["name"],
                "timezone": ex["timezone"],
                "hours": f"{ex['session_open']}-{ex['session_close']} local, {ex['trading_days']}",
                **v,
            }
        )
    return {
        "current_time": db.now.strftime("%Y-%m-%dT%H:%M"),
        "weekday": db.now.strftime("%A"),
        "timezone": "America/New_York",
        "exchanges": venues,
    }
