"""Brokerage: a logged-in account trades instruments against a live order book.

Acting model: one session row says which brokerage account is logged in (the snapshot starts
logged in as the persona's account; ``login``/``logout`` switch). Market data tools work while
logged out; account tools fail with "not logged in; call login first".

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

from __future__ import annotations

import math
from datetime import date, datetime, time, timedelta
from typing import Annotated, Literal
from zoneinfo import ZoneInfo

from pydantic import AfterValidator, Field
from sqlalchemy import ForeignKey, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from servers.kit import (
    Day,
    Db,
    Domain,
    IdList,
    Money,
    Offset,
    PageSize,
    Ref,
    Seeder,
    Sensitive,
    ToolError,
)

trading = Domain(
    "trading",
    "Brokerage account: quotes, an order book, orders and fills, positions, cash, watchlist and alerts.",
    now="2026-06-01T10:30:00",
)

MARKET_TZ = ZoneInfo("America/New_York")
OPEN = ("new", "partially_filled")
OPEN_SQL = "('new', 'partially_filled')"
DAILY_LIMIT = 50_000.00
PDT_EQUITY = 25_000.00
WATCHLIST_MAX = 50
ALERTS_MAX = 20
PRICE_AWAY = 0.10  # a limit or stop more than 10% from the last price is refused as a likely typo
MARKET_BUFFER = 1.03  # market buys must fit ask x qty x 1.03

Side = Literal["buy", "sell"]
OrderType = Literal["market", "limit", "stop", "stop_limit"]
TimeInForce = Literal["day", "gtc", "ioc", "fok"]
OrderStatus = Literal["new", "partially_filled", "filled", "canceled", "expired", "rejected", "replaced"]
Sector = Literal[
    "Technology",
    "Health Care",
    "Financials",
    "Energy",
    "Consumer Discretionary",
    "Industrials",
    "Communication Services",
    "Utilities",
    "Materials",
    "Diversified",
    "Fixed Income",
    "Crypto",
]
AssetClass = Literal["equity", "etf", "crypto"]


def _shares(value: float) -> float:
    if abs(round(value, 4) - value) > 1e-9:
        raise ValueError(f"quantity {value} has more than 4 decimal places")
    return round(value, 4)


Shares = Annotated[
    float,
    Field(
        gt=0,
        le=1_000_000,
        description="Number of shares or coins, e.g. 10 or 0.5 (fractions only where the symbol allows).",
    ),
    AfterValidator(_shares),
]
Password = Annotated[str, Sensitive(), Field(min_length=1, max_length=128, description="The password.")]
SearchText = Annotated[
    str, Field(min_length=1, max_length=100, examples=["bio", "energy", "Henson", "coin", "bank"])
]


# -- tables ---------------------------------------------------------------------------------


class Exchange(trading.Table):
    """A trading venue with its regular session hours (local to the venue)."""

    __tablename__ = "exchanges"
    __example__ = "XNYS-SIM"
    __noun__ = "exchange"
    id: Mapped[str] = mapped_column(primary_key=True)
    name: Mapped[str]
    timezone: Mapped[str]
    session_open: Mapped[str]  # HH:MM local
    session_close: Mapped[str]  # HH:MM local; 24:00 = around the clock
    trading_days: Mapped[str]  # "Mon-Fri" or "daily"


class Instrument(trading.Table):
    """A tradable symbol with its current quote (top of the book and today's range)."""

    __tablename__ = "instruments"
    __example__ = "HUGH"
    __noun__ = "instrument"
    id: Mapped[str] = mapped_column(primary_key=True)  # the ticker symbol
    name: Mapped[str]
    exchange_id: Mapped[str] = mapped_column(ForeignKey("exchanges.id"), index=True)
    sector: Mapped[str]
    asset_class: Mapped[str]
    tradable: Mapped[bool]
    fractionable: Mapped[bool]
    shortable: Mapped[bool]
    halted: Mapped[bool]
    last: Mapped[float]
    prev_close: Mapped[float]
    bid: Mapped[float | None]
    ask: Mapped[float | None]
    day_high: Mapped[float]
    day_low: Mapped[float]
    volume: Mapped[float]


class BookLevel(trading.Table):
    """Resting liquidity of other participants at one price (bids to buy, asks to sell)."""

    __tablename__ = "book_levels"
    __prefix__ = "BKL"
    __noun__ = "book level"
    id: Mapped[str] = mapped_column(primary_key=True)
    symbol: Mapped[str] = mapped_column(ForeignKey("instruments.id"), index=True)
    side: Mapped[str]  # bid / ask
    level: Mapped[int]
    price: Mapped[float]
    size: Mapped[float]


class PriceBar(trading.Table):
    __tablename__ = "price_bars"
    __prefix__ = "BAR"
    __noun__ = "price bar"
    id: Mapped[str] = mapped_column(primary_key=True)
    symbol: Mapped[str] = mapped_column(ForeignKey("instruments.id"), index=True)
    day: Mapped[str]
    open: Mapped[float]
    high: Mapped[float]
    low: Mapped[float]
    close: Mapped[float]
    volume: Mapped[float]


class Account(trading.Table):
    """A brokerage account, owned by a person of the shared world (ACT-000001 is the persona's)."""

    __tablename__ = "accounts"
    __prefix__ = "ACT"
    __people__ = {"name": "owner_name", "email": "email", "username": "username"}
    id: Mapped[str] = mapped_column(primary_key=True)
    owner_name: Mapped[str]
    email: Mapped[str]
    username: Mapped[str] = mapped_column(unique=True)
    kind: Mapped[str]  # cash / margin
    status: Mapped[str]  # active / restricted / closed
    cash: Mapped[float]
    day_trade_count: Mapped[int]  # day trades in the last 5 trading days
    pattern_day_trader: Mapped[bool]
    linked_bank_last4: Mapped[str]
    opened_on: Mapped[str]


class Login(trading.Table):
    """Credentials: one login name per account. Passwords never leave this table."""

    __tablename__ = "logins"
    __example__ = "dwhitfield"
    __noun__ = "login"
    __hidden__ = ("password",)
    id: Mapped[str] = mapped_column(primary_key=True)  # the username
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"), unique=True)
    password: Mapped[str]


class Session(trading.Table):
    """Who is logged in for this episode (account_id NULL = nobody)."""

    __tablename__ = "sessions"
    __prefix__ = "SES"
    id: Mapped[str] = mapped_column(primary_key=True)
    account_id: Mapped[str | None] = mapped_column(ForeignKey("accounts.id"))
    logged_in_at: Mapped[str | None]


class Order(trading.Table):
    __tablename__ = "orders"
    __prefix__ = "ORD"
    id: Mapped[str] = mapped_column(primary_key=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"), index=True)
    symbol: Mapped[str] = mapped_column(ForeignKey("instruments.id"), index=True)
    side: Mapped[str]
    type: Mapped[str]
    time_in_force: Mapped[str]
    qty: Mapped[float]
    limit_price: Mapped[float | None]
    stop_price: Mapped[float | None]
    triggered: Mapped[bool]  # stops: has the stop price been reached
    status: Mapped[str] = mapped_column(index=True)
    filled_qty: Mapped[float]
    avg_fill_price: Mapped[float | None]
    status_reason: Mapped[str | None]  # why it was rejected, or why its rest was canceled
    replaces_id: Mapped[str | None] = mapped_column(ForeignKey("orders.id"))
    created_at: Mapped[str]
    updated_at: Mapped[str]


class Fill(trading.Table):
    """One execution of (part of) an order. Append-only."""

    __tablename__ = "fills"
    __prefix__ = "FIL"
    __append_only__ = True
    id: Mapped[str] = mapped_column(primary_key=True)
    order_id: Mapped[str] = mapped_column(ForeignKey("orders.id"), index=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"), index=True)
    symbol: Mapped[str] = mapped_column(ForeignKey("instruments.id"))
    side: Mapped[str]
    qty: Mapped[float]
    price: Mapped[float]
    at: Mapped[str]


class Position(trading.Table):
    """Holdings of one symbol; qty < 0 is a short (margin accounts, shortable symbols only)."""

    __tablename__ = "positions"
    __prefix__ = "POS"
    __table_args__ = (UniqueConstraint("account_id", "symbol"),)
    id: Mapped[str] = mapped_column(primary_key=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"), index=True)
    symbol: Mapped[str] = mapped_column(ForeignKey("instruments.id"))
    qty: Mapped[float]
    avg_cost: Mapped[float]


class CashMovement(trading.Table):
    """Money in or out of an account other than trades (signed amount). Append-only."""

    __tablename__ = "cash_movements"
    __prefix__ = "CSH"
    __noun__ = "cash movement"
    __append_only__ = True
    id: Mapped[str] = mapped_column(primary_key=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"), index=True)
    kind: Mapped[str]  # deposit / withdrawal / dividend / fee
    amount: Mapped[float]
    description: Mapped[str]
    status: Mapped[str]  # completed / pending
    at: Mapped[str]


class WatchlistItem(trading.Table):
    __tablename__ = "watchlist_items"
    __prefix__ = "WLI"
    __noun__ = "watchlist item"
    __table_args__ = (UniqueConstraint("account_id", "symbol"),)
    id: Mapped[str] = mapped_column(primary_key=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"), index=True)
    symbol: Mapped[str] = mapped_column(ForeignKey("instruments.id"))
    added_at: Mapped[str]


class PriceAlert(trading.Table):
    __tablename__ = "price_alerts"
    __prefix__ = "ALR"
    __noun__ = "price alert"
    id: Mapped[str] = mapped_column(primary_key=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"), index=True)
    symbol: Mapped[str] = mapped_column(ForeignKey("instruments.id"))
    direction: Mapped[str]  # above / below
    price: Mapped[float]
    active: Mapped[bool]
    created_at: Mapped[str]


# -- seed data ------------------------------------------------------------------------------

EXCHANGES = [
    ("XNYS-SIM", "New York Stock Exchange (simulated)", "America/New_York", "09:30", "16:00", "Mon-Fri"),
    ("XTKS-SIM", "Tokyo Stock Exchange (simulated)", "Asia/Tokyo", "09:00", "15:00", "Mon-Fri"),
    ("CRYPTO", "Crypto venue (simulated, around the clock)", "UTC", "00:00", "24:00", "daily"),
]
INDUSTRY_SECTOR = {
    "software": "Technology",
    "retail": "Consumer Discretionary",
    "logistics": "Industrials",
    "healthcare": "Health Care",
    "finance": "Financials",
    "media": "Communication Services",
    "manufacturing": "Industrials",
    "education": "Consumer Discretionary",
    "hospitality": "Consumer Discretionary",
    "energy": "Energy",
}
SECTOR_WORDS = {
    "Technology": ("Software", "Semiconductor", "Networks", "Cloud"),
    "Health Care": ("Biotech", "Therapeutics", "Medical", "Health"),
    "Financials": ("Bancorp", "Financial", "Capital", "Insurance"),
    "Energy": ("Energy", "Petroleum", "Solar", "Resources"),
    "Consumer Discretionary": ("Brands", "Retail", "Apparel", "Leisure"),
    "Industrials": ("Industries", "Aerospace", "Freight", "Machinery"),
    "Communication Services": ("Media", "Telecom", "Studios"),
    "Utilities": ("Power", "Utilities", "Water"),
    "Materials": ("Chemicals", "Mining", "Steel", "Materials"),
}
ETF_PROVIDERS = ("Summit", "Harbor", "Cobalt", "Juniper", "Riverbend", "Lantern")
ETF_THEMES = (
    ("Total Market", "Diversified"),
    ("Dividend", "Diversified"),
    ("Technology", "Technology"),
    ("Aggregate Bond", "Fixed Income"),
    ("Small Cap", "Diversified"),
    ("Clean Energy", "Energy"),
    ("Health Care", "Health Care"),
    ("International", "Diversified"),
)
COINS = (
    "Corvid",
    "Heron",
    "Lumen",
    "Basalt",
    "Quill",
    "Tamarack",
    "Orrery",
    "Fennel",
    "Cairn",
    "Zephyr",
    "Marble",
    "Kestrel",
    "Alder",
    "Sable",
    "Vireo",
    "Tansy",
)
REJECT_REASONS = (
    "insufficient buying power",
    "market closed for market orders",
    "symbol halted",
    "limit price more than 10% away from the last price",
    "potential wash trade",
)


def _ticker(name: str, taken: set[str], suffix: str = "") -> str:
    words = [w for w in "".join(c if c.isalpha() or c == " " else " " for c in name).upper().split() if w]
    first, second = words[0], (words[1] if len(words) > 1 else "X")
    candidates = [first[:4], first[:3] + second[0], first[:2] + second[:2], first[0] + first[2:5], first[:5]]
    candidates += [first[:3] + chr(65 + k) for k in range(26)]
    for c in candidates:
        if len(c) >= 2 and c + suffix not in taken:
            taken.add(c + suffix)
            return c + suffix
    k = 2
    while f"{first[:3]}{k}{suffix}" in taken:
        k += 1
    taken.add(f"{first[:3]}{k}{suffix}")
    return f"{first[:3]}{k}{suffix}"


def _weekdays_back(end: date, n: int, daily: bool) -> list[date]:
    out, d = [], end
    while len(out) < n:
        if daily or d.weekday() < 5:
            out.append(d)
        d -= timedelta(days=1)
    return out[::-1]


def _tick(x: float) -> float:
    return max(0.01, round(x, 2))


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


def _seed_instruments(s: Seeder) -> list[dict]:
    """Equities named after world companies (then invented ones), ETFs and fictional coins."""
    n_equity, n_etf, n_crypto = s.count(44, 268, 560), s.count(8, 20, 24), s.count(8, 12, 16)
    n_tokyo = round(n_equity * 0.15)
    taken: set[str] = set()
    names: list[tuple[str, str, bool]] = []  # name, sector, tokyo
    tokyo_left = n_tokyo
    used_names: set[str] = set()
    for c in s.world.companies:
        if len(names) >= n_equity:
            break
        tokyo = c.city == "Tokyo" and tokyo_left > 0
        tokyo_left -= tokyo
        names.append((c.name, INDUSTRY_SECTOR.get(c.industry, "Industrials"), tokyo))
        used_names.add(c.name)
    sectors = sorted(SECTOR_WORDS)
    while len(names) < n_equity:
        sector = sectors[len(names) % len(sectors)]
        name = f"{s.fake.last_name()} {s.pick(list(SECTOR_WORDS[sector]))}"
        if name in used_names:
            continue
        used_names.add(name)
        tokyo = tokyo_left > 0 and s.chance(0.4)
        tokyo_left -= tokyo
        names.append((name, sector, tokyo))
    # whatever Tokyo quota is left goes to the last equities
    for i in range(len(names) - 1, -1, -1):
        if tokyo_left <= 0:
            break
        if not names[i][2]:
            names[i] = (names[i][0], names[i][1], True)
            tokyo_left -= 1
    rows: list[dict] = []
    n_halted = max(2, round(n_equity * 0.03))
    n_untradable = max(1, round(n_equity * 0.015))
    for i, (name, sector, tokyo) in enumerate(names):
        symbol = _ticker(name, taken, ".T" if tokyo else "")
        rows.append(
            _instrument_row(
                s,
                symbol,
                name,
                "XTKS-SIM" if tokyo else "XNYS-SIM",
                sector,
                "equity",
                price=math.exp(s.rng.uniform(math.log(4), math.log(650))),
                halted=(i % (n_equity // n_halted) == 7 % (n_equity // n_halted)) and not tokyo,
                tradable=i % (n_equity // n_untradable) != 3,
            )
        )
    for k in range(n_etf):
        provider = ETF_PROVIDERS[k % len(ETF_PROVIDERS)]
        theme, sector = ETF_THEMES[(k // len(ETF_PROVIDERS) + k) % len(ETF_THEMES)]
        name = f"{provider} {theme} ETF"
        if any(r["name"] == name for r in rows):
            name = f"{provider} {theme} Index ETF"
        symbol = _ticker(f"{provider[:2]}{theme.replace(' ', '')} {theme}", taken)
        rows.append(
            _instrument_row(
                s,
                symbol,
                name,
                "XNYS-SIM",
                sector,
                "etf",
                price=s.rng.uniform(20, 480),
                halted=False,
                tradable=True,
            )
        )
    for k in range(n_crypto):
        coin = COINS[k % len(COINS)]
        symbol = _ticker(f"{coin} Coin", taken, "-USD")
        rows.append(
            _instrument_row(
                s,
                symbol,
                f"{coin} Coin",
                "CRYPTO",
                "Crypto",
                "crypto",
                price=math.exp(s.rng.uniform(math.log(1.5), math.log(40_000))),
                halted=False,
                tradable=True,
            )
        )
    s.add(Instrument, rows)
    return rows


def _instrument_row(
    s: Seeder,
    symbol: str,
    name: str,
    exchange: str,
    sector: str,
    asset_class: str,
    *,
    price: float,
    halted: bool,
    tradable: bool,
) -> dict:
    last = round(price, 2)
    prev = _tick(last / (1 + s.rng.gauss(0, 0.015)))
    half = _tick(last * 0.0004)
    crypto = asset_class == "crypto"
    return {
        "id": symbol,
        "name": name,
        "exchange_id": exchange,
        "sector": sector,
        "asset_class": asset_class,
        "tradable": tradable,
        "fractionable": crypto or (asset_class != "equity") or s.chance(0.6),
        "shortable": (not crypto) and s.chance(0.8),
        "halted": halted,
        "last": last,
        "prev_close": prev,
        "bid": _tick(last - half),
        "ask": round(last + half, 2),
        "day_high": round(max(last, prev) * (1 + s.rng.uniform(0, 0.012)), 2),
        "day_low": _tick(min(last, prev) * (1 - s.rng.uniform(0, 0.012))),
        "volume": float(s.rng.randint(20, 4000) * 100) if not crypto else round(s.rng.uniform(50, 5000), 2),
    }


def _seed_market_data(s: Seeder, instruments: list[dict]) -> None:
    levels, bars = [], []
    today = s.now.date()
    n_bars = 60
    for ins in instruments:
        crypto = ins["asset_class"] == "crypto"
        step = _tick(ins["last"] * 0.0008)
        for side, top, sign in (("bid", ins["bid"], -1), ("ask", ins["ask"], 1)):
            for lvl in range(1, 6):
                price = _tick(top + sign * (lvl - 1) * step)
                if crypto:
                    size = round(s.rng.uniform(3_000, 60_000) / ins["last"], 4)
                else:
                    size = float(s.rng.randint(1, 20) * 100)
                levels.append(
                    {
                        "id": f"BKL-{len(levels) + 1:06d}",
                        "symbol": ins["id"],
                        "side": side,
                        "level": lvl,
                        "price": price,
                        "size": size,
                    }
                )
        end = today - timedelta(days=1)
        days = _weekdays_back(end, n_bars, crypto)
        close = ins["prev_close"]
        closes = []
        for _ in days:
            closes.append(close)
            close = _tick(close / (1 + s.rng.gauss(0.0005, 0.018)))
        closes.reverse()
        prev = closes[0]
        for day, c in zip(days, closes, strict=True):
            o = _tick(prev * (1 + s.rng.gauss(0, 0.006)))
            bars.append(
                {
                    "id": f"BAR-{len(bars) + 1:06d}",
                    "symbol": ins["id"],
                    "day": day.isoformat(),
                    "open": o,
                    "high": round(max(o, c) * (1 + s.rng.uniform(0, 0.01)), 2),
                    "low": _tick(min(o, c) * (1 - s.rng.uniform(0, 0.01))),
                    "close": c,
                    "volume": float(s.rng.randint(50, 6000) * 100)
                    if not crypto
                    else round(s.rng.uniform(50, 9000), 2),
                }
            )
            prev = c
    s.add(BookLevel, levels)
    s.add(PriceBar, bars)


def _seed_accounts(s: Seeder) -> list[dict]:
    """Owners are the first people of the shared world: ACT-000001 is the persona's account."""
    people = s.world.pick_people(min(s.count(30, 400, 3000), len(s.world.people)))
    accounts, logins = [], []
    for i, p in enumerate(people):
        persona = i == 0
        kind = "margin" if persona or i == 3 or s.chance(0.3) else "cash"
        # some margin accounts (ACT-000004 at every scale) are small, active day traders: the PDT path
        day_trader = kind == "margin" and not persona and i % 7 == 3
        if persona:
            cash = 24_350.00
        elif day_trader:
            cash = s.money(2_000, 9_000)
        else:
            cash = round(math.exp(s.rng.uniform(math.log(500), math.log(250_000))), 2)
        roll = s.rng.random()
        status = (
            "active" if persona or day_trader or roll > 0.05 else ("restricted" if roll < 0.03 else "closed")
        )
        if i in (5, 6) and not day_trader:  # every scale has both failure paths
            status = "restricted" if i == 5 else "closed"
        if status == "closed":
            cash = 0.0
        accounts.append(
            {
                "id": f"ACT-{i + 1:06d}",
                "owner_name": p.name,
                "email": p.email,
                "username": p.username,
                "kind": kind,
                "status": status,
                "cash": cash,
                "day_trade_count": 1 if persona else (3 if day_trader else s.pick([0, 0, 0, 0, 1, 2])),
                "pattern_day_trader": day_trader and s.chance(0.3),
                "linked_bank_last4": s.fake.numerify("####"),
                "opened_on": s.day_offset(-2400, -40),
            }
        )
        logins.append(
            {
                "id": p.username,
                "account_id": accounts[-1]["id"],
                "password": s.fake.password(length=12, special_chars=False),
            }
        )
    s.add(Account, accounts)
    s.add(Login, logins)
    s.add(Session, [{"id": "SES-000001", "account_id": "ACT-000001", "logged_in_at": "2026-06-01T09:12:00"}])
    return accounts


def _seed_activity(s: Seeder, accounts: list[dict], instruments: list[dict]) -> None:
    """Positions, orders in every status (open ones within the account's means), fills,
    cash movements, watchlists and alerts."""
    tradable = [i for i in instruments if i["tradable"]]
    liquid = [i for i in tradable if not i["halted"] and i["exchange_id"] != "XTKS-SIM"]
    tokyo = [i for i in tradable if i["exchange_id"] == "XTKS-SIM"]
    by_symbol = {i["id"]: i for i in instruments}
    positions, orders, fills, moves, watch, alerts = [], [], [], [], [], []
    today = s.now.date().isoformat()
    n_order = {"n": 0}

    def qty_for(ins: dict, value: float) -> float:
        if ins["asset_class"] == "crypto":
            return max(0.0001, round(value / ins["last"], 4))
        return float(max(1, int(value / ins["last"])))

    def order(acct: dict, ins: dict, **kw) -> dict:
        n_order["n"] += 1
        row = {
            "id": f"ORD-{n_order['n']:06d}",
            "account_id": acct["id"],
            "symbol": ins["id"],
            "side": "buy",
            "type": "limit",
            "time_in_force": "day",
            "qty": 1.0,
            "limit_price": None,
            "stop_price": None,
            "triggered": False,
            "status": "new",
            "filled_qty": 0.0,
            "avg_fill_price": None,
            "status_reason": None,
            "replaces_id": None,
            "created_at": today + "T09:45:00",
            "updated_at": today + "T09:45:00",
        }
        row.update(kw)
        row["updated_at"] = kw.get("updated_at", row["created_at"])
        orders.append(row)
        return row

    def add_fills(o: dict, qty: float, ref_price: float) -> None:
        parts = 1 if qty < 2 or s.chance(0.6) else 2
        done, cost = 0.0, 0.0
        at = datetime.fromisoformat(o["created_at"])
        for k in range(parts):
            q = (
                round(qty - done, 4)
                if k == parts - 1
                else round(qty / 2, 4)
                if qty % 2 == 0
                else float(int(qty / 2))
            )
            if q <= 0:
                continue
            price = _tick(ref_price * (1 + s.rng.uniform(-0.002, 0.002)))
            if o["limit_price"] is not None:
                price = min(price, o["limit_price"]) if o["side"] == "buy" else max(price, o["limit_price"])
            at += timedelta(seconds=s.rng.randint(1, 90))
            fills.append(
                {
                    "id": f"FIL-{len(fills) + 1:06d}",
                    "order_id": o["id"],
                    "account_id": o["account_id"],
                    "symbol": o["symbol"],
                    "side": o["side"],
                    "qty": q,
                    "price": price,
                    "at": at.isoformat(timespec="seconds"),
                }
            )
            done, cost = round(done + q, 4), cost + q * price
        o["filled_qty"] = done
        o["avg_fill_price"] = round(cost / done, 4) if done else None
        o["updated_at"] = at.isoformat(timespec="seconds")

    for n, acct in enumerate(accounts):
        persona = n == 0
        held: dict[str, float] = {}
        if acct["status"] == "closed":
            continue
        # positions
        n_pos = 15 if persona else s.rng.randint(0, 12)
        pool = liquid[:] if persona else tradable
        picks = s.rng.sample(pool, min(n_pos, len(pool)))
        if persona and tokyo:
            picks[-2:] = s.rng.sample(tokyo, min(2, len(tokyo)))
        for ins in picks:
            value = acct["cash"] * s.rng.uniform(0.03, 0.25) + 200
            q = qty_for(ins, value)
            if ins["asset_class"] == "equity" and ins["fractionable"] and s.chance(0.1):
                q = round(q + 0.5, 4)
            short = acct["kind"] == "margin" and ins["shortable"] and not persona and s.chance(0.08)
            positions.append(
                {
                    "id": f"POS-{len(positions) + 1:06d}",
                    "account_id": acct["id"],
                    "symbol": ins["id"],
                    "qty": -q if short else q,
                    "avg_cost": _tick(ins["last"] * (1 + s.rng.gauss(0, 0.12))),
                }
            )
            if not short:
                held[ins["id"]] = q
        # open orders: buys rest under the bid and fit in 40% of the cash; sells rest over the ask
        n_orders = 30 if persona else s.rng.randint(3, 20)
        n_open = 10 if persona else max(1, round(n_orders * s.rng.uniform(0.25, 0.45)))
        budget = acct["cash"] * 0.4
        for _ in range(n_open):
            ins = s.pick(liquid if persona else tradable)
            gtc = s.chance(0.35)
            created = (
                s.moment_offset(-20, -1)
                if gtc
                else (s.now - timedelta(minutes=s.rng.randint(1, 60))).isoformat(timespec="seconds")
            )
            sellable = [sym for sym, q in held.items() if q >= 1]
            if sellable and s.chance(0.45):
                sym = s.pick(sellable)
                ins = by_symbol[sym]
                q = held[sym] if held[sym] < 2 else float(max(1, int(held[sym] * s.rng.uniform(0.2, 0.6))))
                if ins["asset_class"] != "crypto":
                    q = float(int(q))
                held[sym] = round(held[sym] - q, 4)
                if s.chance(0.3):
                    stop = _tick(ins["last"] * (1 - s.rng.uniform(0.02, 0.08)))
                    kind = s.pick(["stop", "stop_limit"])
                    order(
                        acct,
                        ins,
                        side="sell",
                        type=kind,
                        qty=q,
                        stop_price=stop,
                        limit_price=_tick(stop * 0.99) if kind == "stop_limit" else None,
                        time_in_force="gtc" if gtc else "day",
                        created_at=created,
                    )
                else:
                    order(
                        acct,
                        ins,
                        side="sell",
                        qty=q,
                        limit_price=round(ins["ask"] * (1 + s.rng.uniform(0.01, 0.08)), 2),
                        time_in_force="gtc" if gtc else "day",
                        created_at=created,
                    )
                continue
            limit = _tick(ins["bid"] * (1 - s.rng.uniform(0.01, 0.08)))
            q = qty_for(ins, min(budget * s.rng.uniform(0.1, 0.4), 20_000))
            if q * limit > budget:
                continue
            budget -= q * limit
            o = order(
                acct,
                ins,
                side="buy",
                qty=q,
                limit_price=limit,
                time_in_force="gtc" if gtc else "day",
                created_at=created,
            )
            if s.chance(0.25) and q >= 2:  # partly filled earlier, when the price dipped
                add_fills(o, float(int(q / 2)) if ins["asset_class"] != "crypto" else round(q / 2, 4), limit)
                o["status"] = "partially_filled"
        # history: every other status
        day_trader = acct["kind"] == "margin" and acct["day_trade_count"] >= 3
        for k in range(n_orders - n_open):
            ins = s.pick(tradable)
            status = s.pick(["filled"] * 9 + ["canceled"] * 4 + ["expired"] * 2 + ["rejected", "replaced"])
            side = s.pick(["buy", "sell"])
            kind = s.pick(["market", "market", "limit", "limit", "limit", "stop", "stop_limit"])
            q = qty_for(ins, acct["cash"] * s.rng.uniform(0.01, 0.1) + 100)
            when = s.moment_offset(-60, -1)
            if day_trader and k == 0:  # sold a liquid symbol this morning: buying it back is a day trade
                ins, status, side, kind = s.pick(liquid), "filled", "sell", "market"
                q = qty_for(ins, 300)
            if status == "filled" and (s.chance(0.12) or (day_trader and k == 0)):
                when = f"{today}T09:{s.rng.randint(30, 59):02d}:{s.rng.randint(0, 59):02d}"
            ref = ins["last"] * (1 + s.rng.gauss(0, 0.05))
            limit = (
                _tick(ref * (1.002 if side == "buy" else 0.998)) if kind in ("limit", "stop_limit") else None
            )
            stop = _tick(ref) if kind in ("stop", "stop_limit") else None
            o = order(
                acct,
                ins,
                side=side,
                type=kind,
                qty=q,
                limit_price=limit,
                stop_price=stop,
                triggered=stop is not None and status == "filled",
                status=status,
                time_in_force=s.pick(["day", "day", "gtc", "ioc"]) if kind in ("market", "limit") else "day",
                created_at=when,
            )
            if status == "filled":
                add_fills(o, q, ref)
            elif status == "canceled":
                o["updated_at"] = (datetime.fromisoformat(when) + timedelta(minutes=20)).isoformat()
                if q >= 2 and s.chance(0.3):
                    add_fills(
                        o, float(int(q / 2)) if ins["asset_class"] != "crypto" else round(q / 2, 4), ref
                    )
            elif status == "rejected":
                o["status_reason"] = s.pick(list(REJECT_REASONS))
            elif status == "replaced":
                successor = order(
                    acct,
                    ins,
                    side=side,
                    type=kind,
                    qty=q,
                    limit_price=_tick((limit or ref) * 1.01) if limit else None,
                    stop_price=stop,
                    status=s.pick(["filled", "canceled", "expired"]),
                    replaces_id=o["id"],
                    time_in_force=o["time_in_force"],
                    created_at=(datetime.fromisoformat(when) + timedelta(minutes=5)).isoformat(),
                )
                if successor["status"] == "filled":
                    add_fills(successor, q, ref)
        # cash movements over the last 90 days
        for _ in range(s.rng.randint(1, 6)):
            kind = s.pick(["deposit"] * 5 + ["withdrawal"] * 2 + ["dividend"] * 2 + ["fee"])
            amount = {
                "deposit": s.money(100, 10_000),
                "withdrawal": -s.money(50, 3_000),
                "dividend": s.money(1, 250),
                "fee": -s.money(1, 25),
            }[kind]
            moves.append(
                {
                    "id": f"CSH-{len(moves) + 1:06d}",
                    "account_id": acct["id"],
                    "kind": kind,
                    "amount": amount,
                    "description": {
                        "deposit": f"Transfer from bank ****{acct['linked_bank_last4']}",
                        "withdrawal": f"Transfer to bank ****{acct['linked_bank_last4']}",
                        "dividend": f"Dividend {s.pick(tradable)['id']}",
                        "fee": s.pick(["Wire fee", "Paper statement fee", "ADR fee"]),
                    }[kind],
                    "status": "completed" if s.chance(0.95) else "pending",
                    "at": s.moment_offset(-90, -1),
                }
            )
        # watchlist and alerts
        for ins in s.rng.sample(tradable, 10 if persona else s.rng.randint(0, 10)):
            watch.append(
                {
                    "id": f"WLI-{len(watch) + 1:06d}",
                    "account_id": acct["id"],
                    "symbol": ins["id"],
                    "added_at": s.moment_offset(-200, -1),
                }
            )
        for _ in range(2 if persona else s.rng.randint(0, 3)):
            ins = s.pick(tradable)
            up = s.chance(0.5)
            alerts.append(
                {
                    "id": f"ALR-{len(alerts) + 1:06d}",
                    "account_id": acct["id"],
                    "symbol": ins["id"],
                    "direction": "above" if up else "below",
                    "price": round(ins["last"] * (1.05 if up else 0.95), 2),
                    "active": s.chance(0.85),
                    "created_at": s.moment_offset(-60, -1),
                }
            )
    s.add(Position, positions)
    s.add(Order, sorted(orders, key=lambda o: o["id"]))
    s.add(Fill, fills)
    s.add(CashMovement, sorted(moves, key=lambda m: m["id"]))
    s.add(WatchlistItem, watch)
    s.add(PriceAlert, alerts)


# -- variants ---------------------------------------------------------------------------


@trading.variant("logged_out", first="login")
def logged_out(db: Db) -> None:
    """Nobody is logged in: account tools fail until the user logs in."""
    db.set_session(account_id=None, logged_in_at=None)


@trading.variant("market_closed")
def market_closed(db: Db) -> None:
    """Saturday 2026-06-06 10:30 New York time: only crypto trades; Monday's day orders expired."""
    db.execute("UPDATE _meta SET value = ? WHERE key = 'now'", "2026-06-06T10:30:00")
    db.execute(
        f"UPDATE orders SET status = 'expired', updated_at = '2026-06-01T16:00:00' "
        f"WHERE time_in_force = 'day' AND status IN {OPEN_SQL}"
    )


# -- helpers: money, session, venues -------------------------------------------------------


def _m(x: float) -> str:
    return f"{x:,.2f}"


def _q(x: float) -> str:
    return f"{x:g}" if x == int(x) else f"{x:.4f}".rstrip("0")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _account(db: Db) -> dict:
    """The logged-in account, or the error that tells the agent to log in."""
    session = db.session()
    if session["account_id"] is None:
        raise ToolError("not logged in; call login first")
    return db.get(Account, session["account_id"])


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


# -- the matching engine ------------------------------------------------------------------


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
    ins = _instrument(db, symbol)
    sym = ins["id"]
    exclude = replaces["id"] if replaces else None
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
    # venue state
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
    # what the account can do
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
    asks = "ask" if side == "buy" else "bid"
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
    # wash trades: an own opposite order this one could trade against
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
    # pattern day trader
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
    # plan the fills
    plan: list[tuple[dict, float]] = []
    if executes:
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
    # -- writes from here on ----------------------------------------------------------------
    stamp = db.stamp()
    filled = round(sum(t for _, t in plan), 4)
    cost = sum(t * lvl["price"] for lvl, t in plan)
    if filled >= qty:
        status, reason = "filled", None
    elif effective == "market":
        status = "canceled"
        reason = f"the book ran out after {_q(filled)} {sym}; the unfilled {_q(qty - filled)} was canceled"
    elif tif == "ioc":
        status = "canceled"
        reason = f"immediate-or-cancel: {_q(qty - filled)} could not fill at once and was canceled"
    else:
        status, reason = ("partially_filled" if filled else "new"), None
    order_id = db.add(
        Order,
        account_id=account["id"],
        symbol=sym,
        side=side,
        type=type_,
        time_in_force=tif,
        qty=qty,
        limit_price=limit_price,
        stop_price=stop_price,
        triggered=triggered,
        status=status,
        filled_qty=filled,
        avg_fill_price=round(cost / filled, 4) if filled else None,
        status_reason=reason,
        replaces_id=exclude,
        created_at=stamp,
        updated_at=stamp,
    )
    if replaces:
        db.update(Order, replaces["id"], status="replaced", updated_at=stamp)
    if plan:
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


# -- session -------------------------------------------------------------------------------


@trading.tool(
    writes=[Session],
    returns=Account,
    says=[
        "log in as {username} with password {password}",
        "sign me in to my brokerage: {username}, {password}",
    ],
)
def login(
    db: Db,
    username: Ref[Login, "account_id IN (SELECT id FROM accounts WHERE status != 'closed')"],
    password: Password,
) -> dict:
    """Log in to a brokerage account; later account tools act on it. Switches account if already logged in.

    Args:
        username: The login name.
        password: The account's password.
    """
    row = db.find(Login, username)
    if row is None or row["password"] != password:
        raise ToolError(f"wrong username or password for {username!r}")
    account = db.get(Account, row["account_id"])
    if account["status"] == "closed":
        raise ToolError(f"account {account['id']} of {username} is closed; it can no longer log in")
    db.set_session(account_id=account["id"], logged_in_at=db.stamp())
    return {
        "logged_in": True,
        "username": username,
        "account": account["id"],
        "owner_name": account["owner_name"],
        "status": account["status"],
    }


@trading.tool(writes=[Session], idempotent=True, says=["log me out", "sign out of the brokerage account"])
def logout(db: Db) -> dict:
    """End the session; market data still works, account tools need a new login."""
    account = _account(db)
    db.set_session(account_id=None, logged_in_at=None)
    return {"logged_out": True, "account": account["id"]}


# -- account and cash -------------------------------------------------------------------------


@trading.tool(
    needs=[Session],
    returns=Account,
    says=["what's my buying power?", "show my brokerage account balance", "how much cash can I withdraw?"],
)
def get_account(db: Db) -> dict:
    """The logged-in account: cash, buying power, holds by open orders, equity, withdrawable cash,
    status, day-trade count and pattern-day-trader flag, and what is left of today's limits."""
    a = _account(db)
    funds = _funds(db, a)
    return {
        "account": a["id"],
        "owner_name": a["owner_name"],
        "username": a["username"],
        "kind": a["kind"],
        "status": a["status"],
        "cash": a["cash"],
        "held_by_open_buys": funds["held"],
        "open_buy_orders": funds["open_buys"],
        "short_market_value": funds["short_value"],
        "buying_power": funds["power"],
        "withdrawable_cash": funds["power"],
        "equity": _equity(db, a),
        "day_trade_count": a["day_trade_count"],
        "pattern_day_trader": bool(a["pattern_day_trader"]),
        "deposit_left_today": round(DAILY_LIMIT - _moved_today(db, a["id"], "deposit"), 2),
        "withdrawal_left_today": round(DAILY_LIMIT - _moved_today(db, a["id"], "withdrawal"), 2),
        "linked_bank_last4": a["linked_bank_last4"],
    }


@trading.tool(
    writes=[Account, CashMovement],
    needs=[Session],
    returns=CashMovement,
    says=["deposit {amount} into my brokerage account", "fund my trading account with {amount} from my bank"],
)
def deposit_funds(db: Db, amount: Money) -> dict:
    """Move money in from the linked bank account (up to 50,000.00 a day).

    Args:
        amount: How much to deposit, in dollars.
    """
    a = _account(db)
    done = _moved_today(db, a["id"], "deposit")
    if done + amount > DAILY_LIMIT:
        raise ToolError(
            f"daily deposit limit is {_m(DAILY_LIMIT)}: {_m(done)} was already deposited today, "
            f"{_m(DAILY_LIMIT - done)} is left"
        )
    cash = round(a["cash"] + amount, 2)
    db.update(Account, a["id"], cash=cash)
    mid = db.add(
        CashMovement,
        account_id=a["id"],
        kind="deposit",
        amount=amount,
        description=f"Transfer from bank ****{a['linked_bank_last4']}",
        status="completed",
        at=db.stamp(),
    )
    return {"movement": mid, "deposited": amount, "cash": cash}


@trading.tool(
    writes=[Account, CashMovement],
    needs=[Session, Account],
    returns=CashMovement,
    says=["withdraw {amount} to my bank", "take {amount} out of my brokerage account"],
)
def withdraw_funds(db: Db, amount: Money) -> dict:
    """Move money out to the linked bank account: at most the withdrawable cash (cash not held by
    open buy orders) and 50,000.00 a day.

    Args:
        amount: How much to withdraw, in dollars.
    """
    a = _account(db)
    funds = _funds(db, a)
    if amount > funds["power"]:
        raise ToolError(
            f"cannot withdraw {_m(amount)}: withdrawable cash is {_m(funds['power'])} ({funds['why']}); "
            f"shortfall {_m(amount - funds['power'])}"
        )
    done = _moved_today(db, a["id"], "withdrawal")
    if done + amount > DAILY_LIMIT:
        raise ToolError(
            f"daily withdrawal limit is {_m(DAILY_LIMIT)}: {_m(done)} was already withdrawn today, "
            f"{_m(DAILY_LIMIT - done)} is left"
        )
    cash = round(a["cash"] - amount, 2)
    db.update(Account, a["id"], cash=cash)
    mid = db.add(
        CashMovement,
        account_id=a["id"],
        kind="withdrawal",
        amount=-amount,
        description=f"Transfer to bank ****{a['linked_bank_last4']}",
        status="completed",
        at=db.stamp(),
    )
    return {"movement": mid, "withdrawn": amount, "cash": cash}


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
    account = _account(db)
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
    return _with_fills(db, _own_order(db, _account(db), order))


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
    a = _account(db)
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
    a = _account(db)
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
    a = _account(db)
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
    a = _account(db)
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
    a = _account(db)
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
    a = _account(db)
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
    a = _account(db)
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
    a = _account(db)
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
    a = _account(db)
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
    a = _account(db)
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
    a = _account(db)
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
    a = _account(db)
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
