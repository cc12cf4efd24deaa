"""The brokerage's tables and fixed facts: venues, instruments, accounts, orders, fills, positions."""

from __future__ import annotations

from typing import Annotated, Literal
from zoneinfo import ZoneInfo

from pydantic import AfterValidator, Field
from sqlalchemy import ForeignKey, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from servers.kit import (
    Domain,
    Sensitive,
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


class Exchange(trading.Table, example="XNYS-SIM", noun="exchange"):
    """A trading venue with its regular session hours (local to the venue)."""

    __tablename__ = "exchanges"
    id: Mapped[str] = mapped_column(primary_key=True)
    name: Mapped[str]
    timezone: Mapped[str]
    session_open: Mapped[str]  # HH:MM local
    session_close: Mapped[str]  # HH:MM local; 24:00 = around the clock
    trading_days: Mapped[str]  # "Mon-Fri" or "daily"


class Instrument(trading.Table, example="HUGH", noun="instrument"):
    """A tradable symbol with its current quote (top of the book and today's range)."""

    __tablename__ = "instruments"
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


class BookLevel(trading.Table, prefix="BKL", noun="book level"):
    """Resting liquidity of other participants at one price (bids to buy, asks to sell)."""

    __tablename__ = "book_levels"
    id: Mapped[str] = mapped_column(primary_key=True)
    symbol: Mapped[str] = mapped_column(ForeignKey("instruments.id"), index=True)
    side: Mapped[str]  # bid / ask
    level: Mapped[int]
    price: Mapped[float]
    size: Mapped[float]


class PriceBar(trading.Table, prefix="BAR", noun="price bar"):
    __tablename__ = "price_bars"
    id: Mapped[str] = mapped_column(primary_key=True)
    symbol: Mapped[str] = mapped_column(ForeignKey("instruments.id"), index=True)
    day: Mapped[str]
    open: Mapped[float]
    high: Mapped[float]
    low: Mapped[float]
    close: Mapped[float]
    volume: Mapped[float]


class Account(
    trading.Table, prefix="ACT", people={"name": "owner_name", "email": "email", "username": "username"}
):
    """A brokerage account, owned by a person of the shared world (ACT-000001 is the persona's)."""

    __tablename__ = "accounts"
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


class Login(trading.Table, example="dwhitfield", noun="login", hidden=("password",)):
    """Credentials: one login name per account. Passwords never leave this table."""

    __tablename__ = "logins"
    id: Mapped[str] = mapped_column(primary_key=True)  # the username
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"), unique=True)
    password: Mapped[str]


# Who is logged in for this episode (account_id NULL = nobody).
Session = trading.acting(
    Account, "account_id", login="login", signed_out=True, columns={"logged_in_at": str | None}
)


class Order(trading.Table, prefix="ORD"):
    __tablename__ = "orders"
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


class Fill(trading.Table, prefix="FIL", append_only=True):
    """One execution of (part of) an order. Append-only."""

    __tablename__ = "fills"
    id: Mapped[str] = mapped_column(primary_key=True)
    order_id: Mapped[str] = mapped_column(ForeignKey("orders.id"), index=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"), index=True)
    symbol: Mapped[str] = mapped_column(ForeignKey("instruments.id"))
    side: Mapped[str]
    qty: Mapped[float]
    price: Mapped[float]
    at: Mapped[str]


class Position(trading.Table, prefix="POS"):
    """Holdings of one symbol; qty < 0 is a short (margin accounts, shortable symbols only)."""

    __tablename__ = "positions"
    __table_args__ = (UniqueConstraint("account_id", "symbol"),)
    id: Mapped[str] = mapped_column(primary_key=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"), index=True)
    symbol: Mapped[str] = mapped_column(ForeignKey("instruments.id"))
    qty: Mapped[float]
    avg_cost: Mapped[float]


class CashMovement(trading.Table, prefix="CSH", noun="cash movement", append_only=True):
    """Money in or out of an account other than trades (signed amount). Append-only."""

    __tablename__ = "cash_movements"
    id: Mapped[str] = mapped_column(primary_key=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"), index=True)
    kind: Mapped[str]  # deposit / withdrawal / dividend / fee
    amount: Mapped[float]
    description: Mapped[str]
    status: Mapped[str]  # completed / pending
    at: Mapped[str]


class WatchlistItem(trading.Table, prefix="WLI", noun="watchlist item"):
    __tablename__ = "watchlist_items"
    __table_args__ = (UniqueConstraint("account_id", "symbol"),)
    id: Mapped[str] = mapped_column(primary_key=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"), index=True)
    symbol: Mapped[str] = mapped_column(ForeignKey("instruments.id"))
    added_at: Mapped[str]


class PriceAlert(trading.Table, prefix="ALR", noun="price alert"):
    __tablename__ = "price_alerts"
    id: Mapped[str] = mapped_column(primary_key=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"), index=True)
    symbol: Mapped[str] = mapped_column(ForeignKey("instruments.id"))
    direction: Mapped[str]  # above / below
    price: Mapped[float]
    active: Mapped[bool]
    created_at: Mapped[str]
