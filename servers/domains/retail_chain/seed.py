"""The chain: stores on the shared city grids, staff from the persona's circle, the catalogue and
suppliers from the world's companies. Stock, transfers, reorders, pickups and the ledger come
from :mod:`seed_stock`."""

from __future__ import annotations

from servers.domains.retail_chain.model import (
    REGION_OF,
    REGIONS,
    Employee,
    Product,
    Store,
    Supplier,
    retail_chain,
)
from servers.domains.retail_chain.seed_stock import seed_stock
from servers.kit import Seeder, geo

LABELS = (
    "Downtown",
    "Northside",
    "Riverside",
    "Eastgate",
    "Westfield",
    "Midtown",
    "Harbor",
    "Uptown",
    "Southpoint",
    "Lakeside",
    "Old Town",
    "Parkway",
)
HOURS = {
    "flagship": ("09:00", "21:00"),
    "standard": ("10:00", "20:00"),
    "outlet": ("10:00", "19:00"),
    "warehouse": ("06:00", "18:00"),
}
CATEGORIES = {
    "tools": (("Ridgeline", "Bolt & Co", "Forgeworks"), ("Cordless Drill", 60, 180), ("Socket Set", 25, 90),
              ("Stud Finder", 15, 45), ("Laser Level", 40, 130), ("Work Light", 20, 70)),
    "kitchen": (("Hearthstone", "Copperleaf", "Mesa"), ("Chef Knife", 25, 120), ("Dutch Oven", 50, 220),
                ("Blender", 40, 160), ("Coffee Grinder", 25, 110), ("Nonstick Skillet", 20, 80)),
    "electronics": (("Voltline", "Aurora", "Northwave"), ("Bluetooth Speaker", 30, 150),
                    ("Noise-Cancelling Headphones", 80, 300), ("USB-C Charger", 15, 60),
                    ("Smart Plug", 12, 40), ("Webcam", 35, 120)),
    "outdoor": (("Trailhead", "Summit Gear", "Cascade"), ("Camping Tent", 90, 350), ("Sleeping Bag", 40, 180),
                ("Headlamp", 15, 60), ("Water Filter", 25, 90), ("Folding Chair", 20, 70)),
    "home": (("Linden", "Harbor Home", "Oakhurst"), ("Table Lamp", 25, 120), ("Throw Blanket", 20, 80),
             ("Storage Bin", 8, 30), ("Wall Clock", 15, 60), ("Bath Towel Set", 20, 70)),
    "toys": (("Brightbox", "Playwell", "Kitewind"), ("Building Blocks", 15, 80), ("Puzzle 1000pc", 12, 35),
             ("Remote Car", 25, 90), ("Board Game", 15, 60), ("Plush Bear", 10, 40)),
}  # fmt: skip
VARIANTS = ("", " Pro", " Mini", " Max", " II", " Lite", " XL", " Plus", " Sport", " Classic")


@retail_chain.seed
def fill(s: Seeder) -> None:
    stores = _stores(s)
    staff = _staff(s, stores)
    products = _products(s)
    suppliers = _suppliers(s)
    seed_stock(s, stores, staff, products, suppliers)


def _kinds(s: Seeder, n: int) -> tuple[dict[int, str], dict[int, str]]:
    """Which stores are warehouses and outlets, and which are closed: fixed by index, never store 0."""
    warehouses = s.count(1, 3, 6)
    kinds = {i: "warehouse" for i in range(n - warehouses, n)}
    for i in range(len(geo.CITIES), n - warehouses, 7):
        kinds[i] = "outlet"
    middle = list(range(len(geo.CITIES), n - warehouses))
    shut = s.rng.sample(middle, min(len(middle), s.count(2, 6, 12)))
    closed = s.count(1, 2, 4)
    status = {i: "closed" if k < closed else "temporarily_closed" for k, i in enumerate(shut)}
    return kinds, status


def _stores(s: Seeder) -> list[dict]:
    n = s.count(20, 60, 150)
    kinds, status = _kinds(s, n)
    rows = []
    for i, sid in enumerate(s.ids(Store, n)):
        c = geo.CITIES[i % len(geo.CITIES)]
        k = i // len(geo.CITIES)
        kind = kinds.get(i, "flagship" if k == 0 else "standard")
        base = "Flagship" if k == 0 else LABELS[(k - 1) % len(LABELS)] + ("" if k <= len(LABELS) else f" {k}")
        name = {"warehouse": f"{c.name} Distribution Center", "outlet": f"{c.name} {base} Outlet"}.get(
            kind, f"{c.name} {base}"
        )
        addr = geo.address(c.name, (i * 5 + k) % len(geo.STREET_NAMES), 20 + (i * 37) % 360)
        opens, closes = HOURS[kind]
        rows.append(
            dict(
                id=sid,
                name=name,
                city=c.name,
                region=REGION_OF[c.name],
                address=addr.line,
                postal_code=addr.postal_code,
                lat=addr.lat,
                lon=addr.lon,
                kind=kind,
                status=status.get(i, "open"),
                opens=opens,
                closes=closes,
                timezone=c.timezone,
                pickup_enabled=kind != "warehouse" and (i == 0 or not s.chance(0.1)),
                phone=f"+1-555-{100 + i % 900:03d}-{1000 + (i * 7919) % 9000:04d}",
            )
        )
    return s.add(Store, rows)


def _staff(s: Seeder, stores: list[dict]) -> list[dict]:
    """The persona manages store 0 (Portland Flagship); every store has a manager, every region a
    regional manager at its first store, and the rest are associates."""
    persona = s.world.persona
    people = [persona, *s.world.circle(persona, s.count(60, 600, 2500) - 1)]
    first_of = {}
    for st in stores:
        first_of.setdefault(st["region"], st)
    regional = [first_of[r] for r in REGIONS if r in first_of]
    rows = []
    for i, (eid, p) in enumerate(zip(s.ids(Employee, len(people)), people, strict=True)):
        if i < len(stores):
            st, role = stores[i], "manager"
        elif i < len(stores) + len(regional):
            st, role = regional[i - len(stores)], "regional_manager"
        else:
            st = stores[s.rng.randrange(len(stores))]
            role = "manager" if s.chance(0.05) else "associate"
        active = i == 0 or not s.chance(0.05 if i >= len(stores) else 0.02)
        rows.append(
            dict(
                id=eid,
                store_id=st["id"],
                person_id=p.index,
                name=p.name,
                email=p.email,
                phone=p.phone,
                role=role,
                active=active,
            )
        )
    return s.add(Employee, rows)


def _products(s: Seeder) -> list[dict]:
    n = s.count(100, 800, 1500)
    cats = sorted(CATEGORIES)
    seen: set[str] = set()
    rows = []
    for i, pid in enumerate(s.ids(Product, n)):
        cat = cats[i % len(cats)]
        brands, *items = CATEGORIES[cat]
        item, low, high = s.pick(items)
        brand = s.pick(list(brands))
        name = f"{brand} {item}"
        for v in VARIANTS:
            if name + v not in seen:
                name += v
                break
        else:
            name = f"{name} {i}"
        seen.add(name)
        price = round(s.rng.uniform(low, high)) - 0.01
        rows.append(
            dict(
                id=pid,
                sku=f"{cat[:3].upper()}{10000 + i * 7}",
                name=name,
                category=cat,
                brand=brand,
                base_price=round(price, 2),
                active=not s.chance(0.05),
            )
        )
    return s.add(Product, rows)


def _suppliers(s: Seeder) -> list[dict]:
    n = s.count(10, 40, 120)
    rows: list[dict] = []
    names: set[str] = set()
    for c in s.world.companies:
        if len(rows) == n:
            break
        if c.name in names:
            continue
        names.add(c.name)
        rows.append(
            dict(
                id=f"SUP-{len(rows) + 1:06d}",
                company_index=c.index,
                name=c.name,
                city=c.city,
                orders_email=f"orders@{c.domain}",
                lead_days=s.rng.randint(2, 10),
                status="suspended" if len(rows) % 8 == 3 else "active",
            )
        )
    return s.add(Supplier, rows)
