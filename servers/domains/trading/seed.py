"""The seed and the initial-state variants (logged out, market closed)."""

from __future__ import annotations

from servers.domains.trading.activity import _seed_activity
from servers.domains.trading.listings import EXCHANGES, _seed_accounts, _seed_instruments, _seed_market_data
from servers.domains.trading.model import OPEN_SQL, Exchange, trading
from servers.kit import (
    Db,
    Seeder,
)


@trading.seed
def fill(s: Seeder) -> None:
    s.add(
        Exchange,
        (
            dict(
                zip(
                    ("id", "name", "timezone", "session_open", "session_close", "trading_days"),
                    e,
                    strict=True,
                )
            )
            for e in EXCHANGES
        ),
    )
    instruments = _seed_instruments(s)
    _seed_market_data(s, instruments)
    accounts = _seed_accounts(s)
    _seed_activity(s, accounts, instruments)


# -- variants ---------------------------------------------------------------------------


@trading.variant("logged_out", first="login")
def logged_out(db: Db) -> None:
    """Nobody is logged in: account tools fail until the user logs in."""
    db.set_acting(account_id=None, logged_in_at=None)


@trading.variant("market_closed")
def market_closed(db: Db) -> None:
    """Saturday 2026-06-06 10:30 New York time: only crypto trades; Monday's day orders expired."""
    db.execute("UPDATE _meta SET value = ? WHERE key = 'now'", "2026-06-06T10:30:00")
    db.execute(
        f"UPDATE orders SET status = 'expired', updated_at = '2026-06-01T16:00:00' "
        f"WHERE time_in_force = 'day' AND status IN {OPEN_SQL}"
    )
