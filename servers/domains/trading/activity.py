"""Seeded account activity: positions, orders in every status, fills, cash, watchlists, alerts."""

from __future__ import annotations

from datetime import datetime, timedelta

from servers.domains.trading.listings import REJECT_REASONS, _tick
from servers.domains.trading.model import CashMovement, Fill, Order, Position, PriceAlert, WatchlistItem
from servers.kit import (
    Seeder,
)


def _seed_activity(s: Seeder, accounts: list[dict], instruments: list[dict]) -> None:
    """Positions, orders in every status (open ones within the account's means), fills,
    cash movements, watchlists and alerts, account by account."""
    act = _Activity(s, instruments)
    for n, acct in enumerate(accounts):
        if acct["status"] == "closed":
            continue
        persona = n == 0
        held = act.positions_of(acct, persona)
        n_orders = 30 if persona else s.rng.randint(3, 20)
        n_open = 10 if persona else max(1, round(n_orders * s.rng.uniform(0.25, 0.45)))
        act.open_orders(acct, persona, held, n_open)
        act.history(acct, n_orders - n_open)
        act.cash_movements(acct)
        act.watchlist_and_alerts(acct, persona)
    act.write()


class _Activity:
    """The rows being built, the instrument pools they draw from, and how an order and its fills
    are written. Every draw goes through the one seeder in a fixed order, so the bytes are stable."""

    def __init__(self, s: Seeder, instruments: list[dict]) -> None:
        self.s = s
        self.tradable = [i for i in instruments if i["tradable"]]
        self.liquid = [i for i in self.tradable if not i["halted"] and i["exchange_id"] != "XTKS-SIM"]
        self.tokyo = [i for i in self.tradable if i["exchange_id"] == "XTKS-SIM"]
        self.by_symbol = {i["id"]: i for i in instruments}
        self.positions: list[dict] = []
        self.orders: list[dict] = []
        self.fills: list[dict] = []
        self.moves: list[dict] = []
        self.watch: list[dict] = []
        self.alerts: list[dict] = []
        self.today = s.now.date().isoformat()
        self.n_order = {"n": 0}

    @staticmethod
    def qty_for(ins: dict, value: float) -> float:
        if ins["asset_class"] == "crypto":
            return max(0.0001, round(value / ins["last"], 4))
        return float(max(1, int(value / ins["last"])))

    def order(self, acct: dict, ins: dict, **kw) -> dict:
        n_order, today, orders = self.n_order, self.today, self.orders
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

    def add_fills(self, o: dict, qty: float, ref_price: float) -> None:
        s, fills = self.s, self.fills
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

    def positions_of(self, acct: dict, persona: bool) -> dict[str, float]:
        """Holdings (a few short on margin accounts); returns what each long position can still sell."""
        s, tradable, liquid, tokyo = self.s, self.tradable, self.liquid, self.tokyo
        positions, qty_for = self.positions, self.qty_for
        held: dict[str, float] = {}
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
        return held

    def resting_sell(
        self, acct: dict, held: dict[str, float], sellable: list[str], gtc: bool, created: str
    ) -> None:
        """An open sell of part of a holding: a stop below the price, or a limit over the ask."""
        s, by_symbol, order = self.s, self.by_symbol, self.order
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

    def open_orders(self, acct: dict, persona: bool, held: dict[str, float], n_open: int) -> None:
        """Open orders: buys rest under the bid and fit in 40% of the cash; sells rest over the ask."""
        s, tradable, liquid = self.s, self.tradable, self.liquid
        order, add_fills, qty_for = self.order, self.add_fills, self.qty_for
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
                self.resting_sell(acct, held, sellable, gtc, created)
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

    def history(self, acct: dict, n: int) -> None:
        """Past orders in every other status, with their fills, replacements and reasons."""
        s, tradable, liquid, today = self.s, self.tradable, self.liquid, self.today
        order, qty_for = self.order, self.qty_for
        day_trader = acct["kind"] == "margin" and acct["day_trade_count"] >= 3
        for k in range(n):
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
            self.past_outcome(acct, ins, o, ref, limit)

    def past_outcome(self, acct: dict, ins: dict, o: dict, ref: float, limit: float | None) -> None:
        """What became of a past order: its fills, a cancel time, a reject reason or its successor."""
        s, order, add_fills = self.s, self.order, self.add_fills
        status, side, kind, q = o["status"], o["side"], o["type"], o["qty"]
        stop, when = o["stop_price"], o["created_at"]
        if status == "filled":
            add_fills(o, q, ref)
        elif status == "canceled":
            o["updated_at"] = (datetime.fromisoformat(when) + timedelta(minutes=20)).isoformat()
            if q >= 2 and s.chance(0.3):
                add_fills(o, float(int(q / 2)) if ins["asset_class"] != "crypto" else round(q / 2, 4), ref)
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

    def cash_movements(self, acct: dict) -> None:
        """Deposits, withdrawals, dividends and fees over the last 90 days."""
        s, tradable, moves = self.s, self.tradable, self.moves
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

    def watchlist_and_alerts(self, acct: dict, persona: bool) -> None:
        s, tradable, watch, alerts = self.s, self.tradable, self.watch, self.alerts
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

    def write(self) -> None:
        s, positions, orders, fills = self.s, self.positions, self.orders, self.fills
        moves, watch, alerts = self.moves, self.watch, self.alerts
        s.add(Position, positions)
        s.add(Order, sorted(orders, key=lambda o: o["id"]))
        s.add(Fill, fills)
        s.add(CashMovement, sorted(moves, key=lambda m: m["id"]))
        s.add(WatchlistItem, watch)
        s.add(PriceAlert, alerts)
