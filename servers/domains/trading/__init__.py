"""Brokerage: a logged-in account trades instruments against a live order book.

Acting model: one session row says which brokerage account is logged in (the snapshot starts
logged in as the persona's account; ``login``/``logout`` switch). Market data tools work while
logged out; account tools fail with "nobody is signed in; call login first".

Reference moment: Monday 2026-06-01 10:30 New York time (all times in this service are New York
time, the clock of its main venue). The simulated NYSE (``XNYS-SIM``, 09:30-16:00 ET) is open,
the simulated Tokyo venue (``XTKS-SIM``, 09:00-15:00 Tokyo time) is closed, crypto (``CRYPTO``)
trades around the clock. The ``market_closed`` variant moves the clock to Saturday 2026-06-06
10:30, when only crypto trades (day orders from Monday have expired by then).

Rules the service enforces:

* Matching happens at call time: a marketable order walks the other side of ``book_levels``
  (the resting liquidity of other participants), the levels shrink and ``fills`` rows appear.
  A limit order fills up to its price and the rest rests (``new``/``partially_filled``); ``ioc``
  cancels the unfilled rest; ``fok`` is refused unless it fills in full at once. A market order
  that exhausts the book has its rest canceled. Resting orders never fill later (time is frozen).
* Market and stop orders on a closed venue or a halted symbol are refused with the next open
  time; limit orders there are accepted and rest. A stop whose price the last trade has already
  crossed triggers at once (as a market or a limit order); otherwise it rests untriggered.
* Buying power = cash minus what open buy orders hold (remaining qty x limit, or x stop x 1.03)
  minus the value backing short positions. A buy must fit it (limit x qty, or ask x qty x 1.03
  for market orders). There are no margin loans: margin accounts may sell short and fall under
  the pattern-day-trader rule, nothing more.
* Sells are limited to the position minus shares already held by open sells; shorting needs a
  margin account and a shortable symbol. Restricted accounts may only reduce positions.
* An order that could trade against the same account's opposite open order is refused as a
  potential wash trade. A margin account under 25,000 equity with 3 day trades in the last 5
  trading days is refused a 4th.
* Only ``new``/``partially_filled`` orders can be canceled or replaced. Withdrawals are limited to
  withdrawable cash (= buying power); deposits and withdrawals to 50,000.00 a day each.
* Watchlists hold at most 50 distinct known symbols; price alerts must point away from the
  current price.

Fills and cash movements are append-only ledgers.
"""

from servers.domains.trading import account, market, orders, seed, watchlist
from servers.domains.trading.model import trading

# the modules that declare the domain; its tools are shown to agents in this order
trading.include(seed, account, market, orders, watchlist)

__all__ = ["trading"]

# the words its investors use and its assistant answers with (read by the task generator)
from servers.domains.trading import language as _language  # noqa: E402,F401
