"""The watchlist, price alerts, and the hidden operator audit."""

from __future__ import annotations

from typing import Literal

from servers.domains.trading.market import _quote
from servers.domains.trading.model import (
    ALERTS_MAX,
    WATCHLIST_MAX,
    Instrument,
    PriceAlert,
    Session,
    WatchlistItem,
    trading,
)
from servers.domains.trading.orders import MINE
from servers.domains.trading.rules import _instrument, _m
from servers.kit import (
    Db,
    Money,
    Offset,
    PageSize,
    Ref,
    ToolError,
)

# -- watchlist and alerts ------------------------------------------------------------------


@trading.tool(
    writes=[WatchlistItem],
    needs=[Session],
    returns=WatchlistItem,
    says=["add {symbol} to my watchlist", "watch {symbol} for me"],
)
def add_to_watchlist(
    db: Db, symbol: Ref[Instrument, f"id NOT IN (SELECT symbol FROM watchlist_items WHERE {MINE})"]
) -> dict:
    """Add a symbol to the logged-in account's watchlist (at most 50 symbols)."""
    a = db.actor()
    ins = _instrument(db, symbol)
    dup = db.one("SELECT * FROM watchlist_items WHERE account_id = ? AND symbol = ?", a["id"], ins["id"])
    if dup:
        raise ToolError(f"{ins['id']} is already on your watchlist (added {dup['added_at'][:10]})")
    n = db.scalar("SELECT count(*) FROM watchlist_items WHERE account_id = ?", a["id"])
    if n >= WATCHLIST_MAX:
        raise ToolError(f"your watchlist is full: it holds {n} symbols, the most allowed; remove one first")
    return db.insert(WatchlistItem, account_id=a["id"], symbol=ins["id"], added_at=db.stamp())


@trading.tool(
    writes=[WatchlistItem],
    destructive=True,
    needs=[Session],
    says=["remove {symbol} from my watchlist", "stop watching {symbol}"],
)
def remove_from_watchlist(
    db: Db, symbol: Ref[Instrument, f"id IN (SELECT symbol FROM watchlist_items WHERE {MINE})"]
) -> dict:
    """Remove a symbol from the logged-in account's watchlist."""
    a = db.actor()
    ins = _instrument(db, symbol)
    row = db.one("SELECT * FROM watchlist_items WHERE account_id = ? AND symbol = ?", a["id"], ins["id"])
    if row is None:
        raise ToolError(f"{ins['id']} is not on your watchlist")
    db.delete(WatchlistItem, row["id"])
    left = db.scalar("SELECT count(*) FROM watchlist_items WHERE account_id = ?", a["id"])
    return {"removed": ins["id"], "symbols_left": left}


@trading.tool(
    needs=[Session],
    returns=Instrument,
    says=["show my watchlist", "how are the stocks on my watchlist doing?"],
)
def get_watchlist(db: Db, limit: PageSize = 50, offset: Offset = 0) -> dict:
    """The watchlist's symbols with current quotes, and the account's price alerts on each."""
    a = db.actor()
    page = db.page(
        "SELECT i.* FROM watchlist_items w JOIN instruments i ON i.id = w.symbol WHERE w.account_id = ? "
        "ORDER BY w.added_at, w.id",
        a["id"],
        limit=limit,
        offset=offset,
        key="symbols",
    )
    venues: dict[str, dict] = {}
    alerts = db.all("SELECT * FROM price_alerts WHERE account_id = ? AND active ORDER BY id", a["id"])
    for i, ins in enumerate(page["symbols"]):
        q = _quote(db, ins, venues)
        q["alerts"] = [
            {"alert": al["id"], "direction": al["direction"], "price": al["price"]}
            for al in alerts
            if al["symbol"] == ins["id"]
        ]
        page["symbols"][i] = q
    page["other_alerts"] = [al for al in alerts if al["symbol"] not in {q["symbol"] for q in page["symbols"]}]
    return page


@trading.tool(
    writes=[PriceAlert],
    needs=[Session],
    returns=PriceAlert,
    says=[
        "alert me when {symbol} goes {direction} {price}",
        "set a price alert on {symbol} {direction} {price}",
    ],
)
def set_price_alert(
    db: Db, symbol: Ref[Instrument], direction: Literal["above", "below"], price: Money
) -> dict:
    """Alert when the price crosses a level: above a price over the last price, or below one under it.

    Args:
        symbol: The ticker symbol.
        direction: above or below.
        price: The level to watch.
    """
    a = db.actor()
    ins = _instrument(db, symbol)
    last = ins["last"]
    if direction == "above" and price <= last:
        raise ToolError(
            f"{ins['id']} is already at {_m(last)}, not below {_m(price)}; an 'above' alert needs a price over {_m(last)}"
        )
    if direction == "below" and price >= last:
        raise ToolError(
            f"{ins['id']} is already at {_m(last)}, not above {_m(price)}; a 'below' alert needs a price under {_m(last)}"
        )
    dup = db.one(
        "SELECT id FROM price_alerts WHERE account_id = ? AND symbol = ? AND direction = ? AND price = ? AND active",
        a["id"],
        ins["id"],
        direction,
        price,
    )
    if dup:
        raise ToolError(f"you already have this alert as {dup['id']}")
    n = db.scalar("SELECT count(*) FROM price_alerts WHERE account_id = ? AND active", a["id"])
    if n >= ALERTS_MAX:
        raise ToolError(f"you have {n} active price alerts, the most allowed; delete one first")
    return db.insert(
        PriceAlert,
        account_id=a["id"],
        symbol=ins["id"],
        direction=direction,
        price=price,
        active=True,
        created_at=db.stamp(),
    )


@trading.tool(
    writes=[PriceAlert],
    needs=[Session],
    returns=PriceAlert,
    destructive=True,
    idempotent=True,
    says=["delete price alert {alert}", "I don't need alert {alert} any more"],
)
def delete_price_alert(db: Db, alert: Ref[PriceAlert, f"{MINE} AND active = 1"]) -> dict:
    """Switch off one of the logged-in account's price alerts."""
    a = db.actor()
    row = db.find(PriceAlert, alert)
    if row is None or row["account_id"] != a["id"]:
        raise ToolError(f"price alert {alert!r} does not exist in account {a['id']}")
    if not row["active"]:
        raise ToolError(f"price alert {alert} is already off")
    return db.update(PriceAlert, alert, active=False)


# -- operator helpers (hidden from agents) -------------------------------------------------


@trading.tool(hidden=True)
def audit(db: Db) -> dict:
    """Invariants that must always hold: no negative cash or buying power, no empty book level,
    fills that add up to every order's filled quantity."""
    problems = []
    for a in db.all("SELECT * FROM accounts WHERE cash < 0"):
        problems.append(f"{a['id']} has negative cash {a['cash']}")
    for lvl in db.all("SELECT id FROM book_levels WHERE size <= 0"):
        problems.append(f"book level {lvl['id']} is empty")
    for o in db.all(
        "SELECT o.id, o.filled_qty, coalesce((SELECT sum(qty) FROM fills f WHERE f.order_id = o.id), 0) AS f "
        "FROM orders o WHERE abs(o.filled_qty - coalesce((SELECT sum(qty) FROM fills f WHERE f.order_id = o.id), 0)) "
        "> 1e-6 OR o.filled_qty > o.qty + 1e-6"
    ):
        problems.append(f"order {o['id']} says {o['filled_qty']} filled, fills sum to {o['f']}")
    return {"problems": problems}
