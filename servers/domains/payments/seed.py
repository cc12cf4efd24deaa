"""The seed: merchants (world merchants), their customers (world people and companies), saved
cards and bank accounts, and catalogues; billing and the event log come from the other seed modules."""

from __future__ import annotations

import hashlib
import re

from servers.domains.payments.model import (
    CURRENCY_OF_COUNTRY,
    Customer,
    Merchant,
    PaymentMethod,
    Product,
    payments,
)
from servers.domains.payments.seed_billing import seed_billing
from servers.domains.payments.seed_events import seed_events
from servers.kit import Seeder, geo

CATALOG = {
    "coffee": (
        "Espresso beans 1 lb",
        "Cold brew case",
        "Coffee subscription",
        "Barista class",
        "Catering box",
    ),
    "grocery": ("Weekly produce box", "Bulk pantry order", "Delivery pass", "Gift basket", "Catering tray"),
    "restaurant": ("Private dining deposit", "Catering package", "Tasting menu", "Gift card", "Event buffet"),
    "fuel": ("Fleet fuel card", "Car wash plan", "Diesel bulk order", "Propane refill", "Service check"),
    "pharmacy": ("Prescription refill", "Wellness kit", "Flu shot", "Vitamin subscription", "First aid kit"),
    "electronics": ("Laptop repair", "Extended warranty", "Monitor 27 in", "Setup service", "Cable bundle"),
    "books": ("Book club membership", "Special order", "Author event ticket", "Gift card", "Textbook bundle"),
    "clothing": ("Tailoring", "Seasonal collection", "Uniform order", "Gift card", "Shoe repair"),
    "transit": ("Monthly pass", "Airport transfer", "Corporate rides", "Event shuttle", "Bike share plan"),
    "utilities": ("Monthly service", "Installation fee", "Equipment rental", "Late fee", "Upgrade plan"),
}
PLANS = ("Consulting hour", "Annual support plan", "Onboarding fee")
BRANDS = (("visa", "4", 16), ("mastercard", "5", 16), ("amex", "37", 15), ("discover", "6011", 16))
MASTERCARD = ("51", "52", "53", "54", "55")
DECLINES = ("insufficient_funds", "do_not_honor")


@payments.seed
def fill(s: Seeder) -> None:
    merchants = _seed_merchants(s)
    customers = _seed_customers(s, merchants)
    methods = _seed_methods(s, customers)
    products = _seed_products(s, merchants)
    billing = seed_billing(s, merchants, customers, methods, products)
    seed_events(s, merchants, customers, billing)


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "", text.casefold())


def _seed_merchants(s: Seeder) -> list[dict]:
    """World merchants outside Tokyo (yen has no cents), one account per distinct name."""
    want = s.count(small=8, medium=40, large=160)
    seen: set[str] = set()
    out: list[dict] = []
    for m in s.world.merchants:
        city = geo.city(m.city)
        if city.country not in CURRENCY_OF_COUNTRY or m.name in seen or len(out) >= want:
            continue
        seen.add(m.name)
        i = len(out) + 1
        restricted = i % 13 == 6
        initials = "".join(w[0] for w in m.name.split() if w[0].isalpha()).upper()[:3] + chr(64 + i % 26 + 1)
        out.append(
            {
                "id": f"MER-{i:06d}",
                "name": m.name,
                "email": f"billing@{_slug(m.name)}.example",
                "category": m.category,
                "city": m.city,
                "country": city.country,
                "currency": CURRENCY_OF_COUNTRY[city.country],
                "status": "restricted" if restricted else "active",
                "payouts_enabled": not restricted and i % 17 != 9,
                "available_balance": 0.0,
                "pending_balance": 0.0,
                "invoice_prefix": initials,
                "created_on": s.day_offset(-1500, -200),
            }
        )
    return s.add(Merchant, out)


def _seed_customers(s: Seeder, merchants: list[dict]) -> list[dict]:
    """About 30 customers per merchant: mostly world people (each usually at one merchant), some
    world companies billed at ``billing@<their domain>``; the persona buys from the first three."""
    world = s.world
    per = s.count(small=15, medium=30, large=50)
    order = list(range(1, len(world.people)))
    s.rng.shuffle(order)
    out: list[dict] = []
    taken = 0
    for mi, m in enumerate(merchants):
        people = [world.persona] if mi < 3 else []
        while len(people) < per:
            people.append(world.people[order[taken % len(order)]])
            taken += 1
        emails: set[str] = set()
        for j, p in enumerate(people):
            if j and s.chance(0.15):
                company = s.pick(world.companies)
                name, email = company.name, f"billing@{company.domain}"
            else:
                name, email = p.name, p.email
            if email in emails:
                continue
            emails.add(email)
            persona = p is world.persona
            out.append(
                {
                    "id": f"CUS-{len(out) + 1:06d}",
                    "merchant_id": m["id"],
                    "name": name,
                    "email": email,
                    "credit_balance": s.money(5, 200) if not persona and s.chance(0.1) else 0.0,
                    "delinquent": False,
                    "default_method_id": None,
                    "deleted": not persona and s.chance(0.02),
                    "created_at": s.moment_offset(-400, -50) if j % 10 else s.moment_offset(-44, -1),
                }
            )
    return s.add(Customer, out)


def luhn_digit(body: str) -> str:
    """The check digit that makes ``body + digit`` pass the Luhn test."""
    total = 0
    for i, c in enumerate(reversed(body)):
        d = int(c) * (2 if i % 2 == 0 else 1)
        total += d - 9 if d > 9 else d
    return str((10 - total % 10) % 10)


def fingerprint(number: str) -> str:
    return hashlib.sha256(f"payments-card:{number}".encode()).hexdigest()[:16]


def _card(s: Seeder, customer: dict, persona: bool) -> dict:
    brand, prefix, length = BRANDS[0] if persona else s.pick(list(BRANDS))
    prefix = s.pick(list(MASTERCARD)) if brand == "mastercard" else prefix
    body = prefix + "".join(str(s.rng.randrange(10)) for _ in range(length - len(prefix) - 1))
    number = body + luhn_digit(body)
    roll = 1.0 if persona else s.rng.random()
    status, decline = "active", None
    year, month = s.rng.randint(2027, 2031), s.rng.randint(1, 12)
    if roll < 0.08:
        status, year = "expired", s.rng.randint(2023, 2025)
    elif roll < 0.12:
        status = "detached"
    elif roll < 0.16:
        decline = s.pick(list(DECLINES))
    return {
        "id": "",
        "customer_id": customer["id"],
        "kind": "card",
        "brand": brand,
        "last4": number[-4:],
        "exp_month": month,
        "exp_year": year,
        "status": status,
        "number": number,
        "fingerprint": fingerprint(number),
        "decline_code": decline,
        "added_at": customer["created_at"],
    }


def _seed_methods(s: Seeder, customers: list[dict]) -> list[dict]:
    """1-2 methods per customer (8% expired, 4% detached, 4% declined by the issuer); the first
    one that is not detached is the default."""
    out: list[dict] = []
    for c in customers:
        persona = c["email"] == s.world.persona.email
        n = 1 if persona else (2 if s.chance(0.33) else 1)
        for _ in range(n):
            if not persona and s.chance(0.1):
                row = {
                    **_card(s, c, False),
                    "kind": "bank_account",
                    "brand": "bank",
                    "exp_month": None,
                    "exp_year": None,
                    "status": "active",
                    "number": None,
                }
            else:
                row = _card(s, c, persona)
            row["id"] = f"PM-{len(out) + 1:06d}"
            out.append(row)
            if c["default_method_id"] is None and row["status"] != "detached":
                c["default_method_id"] = row["id"]
    s.add(PaymentMethod, out)
    s.conn.executemany(
        "UPDATE customers SET default_method_id = ? WHERE id = ?",
        [(c["default_method_id"], c["id"]) for c in customers if c["default_method_id"]],
    )
    return out


def _seed_products(s: Seeder, merchants: list[dict]) -> list[dict]:
    out: list[dict] = []
    for m in merchants:
        names = [*CATALOG[m["category"]], *PLANS]
        for name in names:
            for tier in ("", " (premium)"):
                out.append(
                    {
                        "id": f"PRD-{len(out) + 1:06d}",
                        "merchant_id": m["id"],
                        "name": name + tier,
                        "unit_amount": float(s.pick([15, 25, 40, 60, 90, 120, 180, 250, 400])),
                        "active": s.chance(0.9),
                    }
                )
    return s.add(Product, out)
