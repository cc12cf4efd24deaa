"""Stock levels and everything that moved them: transfers in every state, supplier reorders,
pickup holds and markdowns, then the ledger, built last so that for every inventory level that
has one, the adjustments sum to its on-hand count (and ``committed`` is exactly the units held
by active pickups and requested transfers)."""

from __future__ import annotations

from collections import defaultdict
from datetime import timedelta

from servers.domains.retail_chain.model import (
    HOLD_HOURS,
    Adjustment,
    Inventory,
    Pickup,
    Reorder,
    StorePrice,
    Transfer,
)
from servers.kit import Seeder

Event = tuple[str, int, str, str | None, str | None]  # at, delta, reason, reference, employee


class Stock:
    """The inventory levels being built, indexed by (store, product), and their ledger events."""

    def __init__(self, s: Seeder, stores: list[dict], staff: list[dict], products: list[dict]) -> None:
        self.s = s
        self.stores = {st["id"]: st for st in stores}
        self.products = {p["id"]: p for p in products}
        self.rows: list[dict] = []
        self.at: dict[tuple[str, str], dict] = {}
        self.events: dict[str, list[Event]] = defaultdict(list)
        self.staff: dict[str, list[str]] = defaultdict(list)
        for e in staff:
            if e["active"]:
                self.staff[e["store_id"]].append(e["id"])

    def add(self, store_id: str, product_id: str, on_hand: int, reorder_point: int, aisle: str) -> dict:
        row = dict(
            id=f"INV-{len(self.rows) + 1:06d}",
            store_id=store_id,
            product_id=product_id,
            on_hand=on_hand,
            committed=0,
            unavailable=0,
            incoming=0,
            reorder_point=reorder_point,
            aisle=aisle,
        )
        self.rows.append(row)
        self.at[(store_id, product_id)] = row
        return row

    def employee(self, store_id: str) -> str:
        return self.s.pick(self.staff[store_id]) if self.staff[store_id] else "EMP-000001"

    def when(self, low_h: float, high_h: float) -> str:
        """A moment ``low_h``..``high_h`` hours before the reference moment."""
        minutes = self.s.rng.randint(int(low_h * 60), int(high_h * 60))
        return (self.s.now - timedelta(minutes=minutes)).isoformat(timespec="seconds")

    def pick(self, pool: list[dict], need: int) -> dict | None:
        for _ in range(30):
            row = self.s.pick(pool)
            if row["on_hand"] - row["committed"] - row["unavailable"] >= need:
                return row
        return None


def seed_stock(
    s: Seeder, stores: list[dict], staff: list[dict], products: list[dict], suppliers: list[dict]
) -> None:
    stock = Stock(s, stores, staff, products)
    _levels(stock)
    _transfers(stock)
    _reorders(stock, suppliers)
    _pickups(stock, len(staff))
    _prices(stock)
    adjustments = _ledger(stock)
    s.add(Inventory, stock.rows)
    s.add(Adjustment, adjustments)


def _levels(stock: Stock) -> None:
    s = stock.s
    for st in stock.stores.values():
        big = st["kind"] == "warehouse"
        share = 0.9 if big else s.rng.uniform(0.4, 0.7)
        for pid in stock.products:
            if s.rng.random() >= share:
                continue
            rp = s.rng.randint(3, 15) * (4 if big else 1)
            r = s.rng.random()
            on = 0 if r < 0.05 else s.rng.randint(1, rp) if r < 0.13 else s.rng.randint(rp + 1, rp + 60)
            aisle = f"Bay {s.rng.randint(1, 40)}" if big else f"Aisle {s.rng.randint(1, 24)}"
            row = stock.add(st["id"], pid, on, rp, aisle)
            if on >= 6 and s.chance(0.03):
                row["unavailable"] = s.rng.randint(1, 3)


def _transfer_plan(i: int) -> str:
    """Status by position: 30% requested, 25% in transit, 35% received, 10% cancelled."""
    k = i % 20
    return "requested" if k < 6 else "in_transit" if k < 11 else "received" if k < 18 else "cancelled"


def _transfers(stock: Stock) -> None:
    s = stock.s
    sources = [
        r
        for r in stock.rows
        if stock.stores[r["store_id"]]["status"] != "closed" and stock.products[r["product_id"]]["active"]
    ]
    dests = [st for st in stock.stores.values() if st["status"] != "closed" and st["kind"] != "warehouse"]
    rows = []
    for i, tid in enumerate(s.ids(Transfer, s.count(40, 600, 3000))):
        src = stock.pick(sources, 3)
        dest = s.pick(dests)
        if src is None or dest["id"] == src["store_id"]:
            continue
        status, q = _transfer_plan(i), s.rng.randint(1, min(8, max(1, src["on_hand"] // 3)))
        t = dict(id=tid, from_store_id=src["store_id"], to_store_id=dest["id"], product_id=src["product_id"])
        t.update(quantity=q, quantity_received=None, status=status, requested_by=stock.employee(dest["id"]))
        t.update(created_at=stock.when(2, 120), shipped_at=None, received_at=None)
        if status == "requested":
            src["committed"] += q
        elif status in ("in_transit", "received"):
            created = stock.when(48, 900) if status == "received" else stock.when(30, 140)
            shipped = created[:11] + "17:00:00" if created[11:] < "17:00:00" else created
            t.update(created_at=created, shipped_at=shipped)
            stock.events[src["id"]].append(
                (shipped, -q, "transfer_out", tid, stock.employee(src["store_id"]))
            )
            if status == "received":
                _receive(stock, t, dest, q - (1 if s.chance(0.1) and q > 1 else 0))
        rows.append(t)
    s.add(Transfer, rows)


def _receive(stock: Stock, t: dict, dest: dict, got: int) -> None:
    row = stock.at.get((dest["id"], t["product_id"])) or stock.add(
        dest["id"], t["product_id"], got, 5, "Aisle 1"
    )
    row["on_hand"] = max(row["on_hand"], got)
    at = t["shipped_at"][:10] + "T11:00:00"
    t.update(quantity_received=got, received_at=at if at > t["shipped_at"] else t["shipped_at"])
    stock.events[row["id"]].append(
        (t["received_at"], got, "transfer_in", t["id"], stock.employee(dest["id"]))
    )


def _reorders(stock: Stock, suppliers: list[dict]) -> None:
    s = stock.s
    active = [sup for sup in suppliers if sup["status"] == "active"]
    pool = [r for r in stock.rows if stock.stores[r["store_id"]]["status"] != "closed"]
    low = [r for r in pool if r["on_hand"] <= r["reorder_point"]] or pool
    rows = []
    for i, rid in enumerate(s.ids(Reorder, s.count(20, 300, 1500))):
        k = i % 20
        status = "ordered" if k < 10 else "received" if k < 17 else "cancelled"
        row, sup = s.pick(low if status == "ordered" else pool), s.pick(active)
        q = s.pick([12, 20, 24, 36, 48, 50, 100])
        created = stock.when(4, 120) if status == "ordered" else stock.when(300, 1200)
        expected = (s.now.fromisoformat(created) + timedelta(days=sup["lead_days"])).date().isoformat()
        r = dict(id=rid, store_id=row["store_id"], product_id=row["product_id"], supplier_id=sup["id"])
        r.update(
            quantity=q, quantity_received=None, status=status, ordered_by=stock.employee(row["store_id"])
        )
        r.update(created_at=created, expected_day=expected, received_at=None)
        if status == "ordered":
            row["incoming"] += q
        elif status == "received":
            r.update(quantity_received=q, received_at=expected + "T10:00:00")
            row["on_hand"] = max(row["on_hand"], q)
            stock.events[row["id"]].append((r["received_at"], q, "received", rid, r["ordered_by"]))
        rows.append(r)
    s.add(Reorder, rows)


def _pickup_times(stock: Stock, status: str, late: bool) -> tuple[str, str, str | None]:
    """created, expires and closed moments for a hold in ``status`` (``late``: an active hold
    already past its expiry at the reference moment)."""
    if status == "active":
        created = stock.when(50, 120) if late else stock.when(0.5, HOLD_HOURS - 2)
    else:
        created = stock.when(72, 700)
    start = stock.s.now.fromisoformat(created)
    expires = (start + timedelta(hours=HOLD_HOURS)).isoformat(timespec="seconds")
    hours = {"picked_up": stock.s.rng.randint(1, 40), "cancelled": stock.s.rng.randint(1, 30)}
    closed = None
    if status == "expired":
        closed = expires
    elif status in hours:
        closed = (start + timedelta(hours=hours[status])).isoformat(timespec="seconds")
    return created, expires, closed


def _pickups(stock: Stock, n_staff: int) -> None:
    s = stock.s
    ok = {sid for sid, st in stock.stores.items() if st["status"] == "open" and st["pickup_enabled"]}
    pool = [r for r in stock.rows if r["store_id"] in ok and stock.products[r["product_id"]]["active"]]
    n = s.count(40, 700, 3000)
    people = s.world.pick_people(n, offset=n_staff)
    rows = []
    for i, (pid, person) in enumerate(zip(s.ids(Pickup, n), people, strict=True)):
        k = i % 20
        status = "active" if k < 8 else "picked_up" if k < 15 else "cancelled" if k < 18 else "expired"
        q = s.rng.randint(1, 3)
        row = stock.pick(pool, q) if status == "active" else s.pick(pool)
        if row is None:
            continue
        if status == "active":
            row["committed"] += q
        created, expires, closed = _pickup_times(stock, status, late=status == "active" and k % 4 == 3)
        rows.append(
            dict(
                id=pid,
                store_id=row["store_id"],
                product_id=row["product_id"],
                quantity=q,
                customer_name=person.name,
                customer_phone=person.phone,
                status=status,
                created_at=created,
                expires_at=expires,
                closed_at=closed,
            )
        )
    s.add(Pickup, rows)


def _prices(stock: Stock) -> None:
    s = stock.s
    pool = [r for r in stock.rows if stock.stores[r["store_id"]]["kind"] != "warehouse"]
    managers = {sid: ids[0] for sid, ids in stock.staff.items()}
    seen: set[str] = set()
    rows = []
    for _ in range(s.count(20, 300, 1500)):
        row = s.pick(pool)
        if row["id"] in seen:
            continue
        seen.add(row["id"])
        base = stock.products[row["product_id"]]["base_price"]
        until = s.day_offset(-5, -1) if s.chance(0.1) else s.day_offset(1, 30)
        rows.append(
            dict(
                id=f"SPR-{len(rows) + 1:06d}",
                store_id=row["store_id"],
                product_id=row["product_id"],
                price=round(base * s.rng.uniform(0.6, 0.95), 2),
                until_day=until,
                set_by=managers.get(row["store_id"], "EMP-000001"),
                set_at=stock.when(24, 480),
            )
        )
    s.add(StorePrice, rows)


_NOISE = (("damaged", -2, -1), ("customer_return", 1, 2), ("count_correction", -2, 2), ("theft", -1, -1))


def _history(stock: Stock, row: dict) -> list[Event]:
    """A level's ledger: an opening receipt, some noise, the real moves, summing to on-hand."""
    s = stock.s
    events = list(stock.events.get(row["id"], []))
    for _ in range(s.rng.randint(0, 2)):
        reason, lo, hi = s.pick(list(_NOISE))
        delta = s.rng.randint(lo, hi) or 1
        events.append((stock.when(2, 1000), delta, reason, None, stock.employee(row["store_id"])))
    events.sort()
    opening = row["on_hand"] - sum(e[1] for e in events)
    low = min([0, *_running(opening, events)])
    if opening < 0 or low < 0:  # noise drew the count below zero: a later count corrects it
        lift = max(-opening, -low)
        opening += lift
        events.append(
            (stock.when(0.5, 1.5), -lift, "count_correction", None, stock.employee(row["store_id"]))
        )
    if opening:
        events.insert(0, (stock.when(1100, 1400), opening, "received", None, stock.employee(row["store_id"])))
    return events


def _running(opening: int, events: list[Event]) -> list[int]:
    out, total = [], opening
    for e in events:
        total += e[1]
        out.append(total)
    return out


def _ledger(stock: Stock) -> list[dict]:
    s = stock.s
    share = 0.25 if s.scale != "large" else 0.12
    entries = []
    for row in stock.rows:
        if row["id"] not in stock.events and not s.chance(share):
            continue
        total = 0
        for at, delta, reason, ref, emp in _history(stock, row):
            total += delta
            entries.append((at, row["store_id"], row["product_id"], delta, total, reason, ref, emp))
    entries.sort()
    keys = ("at", "store_id", "product_id", "delta", "on_hand_after", "reason", "reference", "employee_id")
    return [{"id": f"ADJ-{i:06d}", **dict(zip(keys, e, strict=True))} for i, e in enumerate(entries, start=1)]
