"""Seeded venues, instruments with their order books and price history, and the accounts."""

from __future__ import annotations

import math
from datetime import date, timedelta

from servers.domains.trading.model import Account, BookLevel, Instrument, Login, PriceBar, Session
from servers.kit import (
    Seeder,
)

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


def _equity_names(s: Seeder, n_equity: int) -> list[tuple[str, str, bool]]:
    """(name, sector, on the Tokyo exchange) per equity: world companies first, then invented ones.

    About 15% list in Tokyo: companies based there first, invented ones by chance, the last equities for the rest."""
    n_tokyo = round(n_equity * 0.15)
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
    return names


def _fund_and_coin_rows(
    s: Seeder, taken: set[str], n_etf: int, n_crypto: int, rows: list[dict]
) -> list[dict]:
    """ETFs named after a provider and a theme (unique against ``rows``), then fictional coins."""
    added: list[dict] = []
    for k in range(n_etf):
        provider = ETF_PROVIDERS[k % len(ETF_PROVIDERS)]
        theme, sector = ETF_THEMES[(k // len(ETF_PROVIDERS) + k) % len(ETF_THEMES)]
        name = f"{provider} {theme} ETF"
        if any(r["name"] == name for r in rows + added):
            name = f"{provider} {theme} Index ETF"
        symbol = _ticker(f"{provider[:2]}{theme.replace(' ', '')} {theme}", taken)
        added.append(
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
        added.append(
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
    return added


def _seed_instruments(s: Seeder) -> list[dict]:
    """Equities named after world companies (then invented ones), ETFs and fictional coins."""
    n_equity, n_etf, n_crypto = s.count(44, 268, 560), s.count(8, 20, 24), s.count(8, 12, 16)
    names = _equity_names(s, n_equity)
    taken: set[str] = set()
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
    rows += _fund_and_coin_rows(s, taken, n_etf, n_crypto, rows)
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
