"""The seeded carrier: plans, customers (world people in the home country), their lines and
phones with 0-3 composed faults each, then a year of bills (see ``seed_billing``).

Edges seeded on purpose, so that policy-gated writes breach and comply in quantity: plan changes
inside the current cycle and just before it, refuels near the per-cycle cap, goodwill credit near
the yearly cap, customers with past-due bills (no roaming for them), lines suspended for an
unpaid bill that is still unpaid or already paid.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from servers.domains.telecom_support import faults
from servers.domains.telecom_support.model import (
    APN,
    HOME_COUNTRY,
    PIN_TRIES,
    PUK_TRIES,
    Customer,
    Device,
    Line,
    PaymentMethod,
    Plan,
    Session,
    SimOrder,
    Ticket,
    telecom_support,
)
from servers.domains.telecom_support.seed_billing import seed_billing
from servers.kit import Seeder, geo

PLANS = [  # id, name, price, data GB (None: unlimited), refuel price per GB, available
    ("PLN-000001", "Basic 2 GB", 25.0, 2.0, 5.0, True),
    ("PLN-000002", "Starter 5 GB", 35.0, 5.0, 4.0, True),
    ("PLN-000003", "Plus 15 GB", 50.0, 15.0, 3.0, True),
    ("PLN-000004", "Max 30 GB", 65.0, 30.0, 3.0, True),
    ("PLN-000005", "Unlimited", 80.0, None, None, True),
    ("PLN-000006", "Unlimited Premium", 95.0, None, None, True),
    ("PLN-000007", "Classic 1 GB", 20.0, 1.0, 6.0, False),
]
PLAN_WEIGHTS = (14, 22, 24, 14, 14, 6, 6)
MODELS = [  # model, best network, eSIM
    ("Pixel 8", "5g", True),
    ("iPhone 15", "5g", True),
    ("iPhone 13", "5g", True),
    ("Galaxy S23", "5g", True),
    ("iPhone 11", "4g", True),
    ("Galaxy A14", "4g", False),
    ("Moto G Play", "4g", False),
    ("Nokia G20", "4g", False),
]
US_CITIES = {c.name for c in geo.CITIES if c.country == HOME_COUNTRY}


@telecom_support.seed
def fill(s: Seeder) -> None:
    s.add(
        Plan,
        [
            dict(
                zip(
                    ("id", "name", "monthly_price", "data_gb", "refuel_price_per_gb", "available"),
                    p,
                    strict=True,
                )
            )
            for p in PLANS
        ],
    )
    customers = _customers(s)
    s.add(Customer, customers)
    s.add(PaymentMethod, _methods(s, customers))
    lines = _lines(s, customers)
    devices = _devices(s, customers, lines)
    kinds = {}
    by_line = {d["line_number"]: d for d in devices if d["line_number"]}
    plans = {p[0]: p for p in PLANS}
    for line in lines:
        dev = by_line.get(line["id"])
        kinds[line["id"]] = faults.compose(s.rng, line, dev, plans[line["plan_id"]][3] is not None)
        _settle_roaming(s, line, dev, kinds[line["id"]])
    s.add(Line, [{k: v for k, v in line.items() if not k.startswith("_")} for line in lines])
    s.add(Device, devices)
    seed_billing(s, customers, lines, plans)
    s.add(Session, [{"id": "SES-000001", "verified_customer_id": None, "verified_at": None}])
    s.add(SimOrder, _sim_orders(s, lines))
    s.add(Ticket, _tickets(s, lines))


def _customers(s: Seeder) -> list[dict[str, Any]]:
    n = s.count(50, 1000, 25_000)
    people = [p for p in s.world.people if p.city in US_CITIES][:n]
    return [
        {
            "id": f"CUS-{i + 1:06d}",
            "name": p.name,
            "email": p.email,
            "phone": p.phone,
            "city": p.city,
            "date_of_birth": p.birthday,
            "customer_since": s.day_offset(-3650, -60),
        }
        for i, p in enumerate(people)
    ]


def _methods(s: Seeder, customers: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for c in customers:
        for _ in range(s.rng.choice((1, 1, 2, 2, 3))):
            card = s.chance(0.8)
            expired = card and s.chance(0.12)
            year = s.rng.randint(2023, 2025) if expired else s.rng.randint(2026, 2031)
            month = s.rng.randint(7, 12) if year == 2026 else s.rng.randint(1, 12)
            brand = s.pick(["Visa", "Mastercard", "Amex"]) if card else "Checking account"
            out.append(
                {
                    "id": f"PM-{len(out) + 1:06d}",
                    "customer_id": c["id"],
                    "kind": "card" if card else "bank_account",
                    "label": f"{brand} ending {s.rng.randint(1000, 9999)}",
                    "expires": f"{year}-{month:02d}" if card else None,
                    "status": "expired" if expired else "active",
                }
            )
    return out


def _number(s: Seeder, taken: set[str]) -> str:
    while True:
        n = f"+1-{s.rng.randint(201, 989)}-{s.rng.randint(200, 999)}-{s.rng.randint(0, 9999):04d}"
        if n not in taken:
            taken.add(n)
            return n


def _lines(s: Seeder, customers: list[dict[str, Any]]) -> list[dict[str, Any]]:
    n = s.count(90, 1800, 45_000)
    owners = [c["id"] for c in customers]
    owners += [s.pick(customers)["id"] for _ in range(n - len(customers))]
    taken = {p.phone for p in s.world.people}
    today = s.now.date()
    out = []
    for i, owner in enumerate(owners):
        number = customers[i]["phone"] if i < len(customers) else _number(s, taken)
        plan = s.rng.choices(PLANS, PLAN_WEIGHTS)[0]
        start = _cycle_start(today, s.rng.randint(1, 28))
        end = _add_months(start, 1) - timedelta(days=1)
        allowance = plan[3] or 0.0
        refueled = float(s.rng.choices((0, 1, 2, 3, 4, 5), (60, 10, 10, 7, 5, 8))[0]) if plan[3] else 0.0
        used = (
            round(s.rng.uniform(0.05, 0.95) * (allowance + refueled), 2)
            if plan[3]
            else round(s.rng.uniform(3, 70), 2)
        )
        out.append(
            {
                "id": number,
                "customer_id": owner,
                "plan_id": plan[0],
                "status": "active",
                "suspension_reason": None,
                "suspended_on": None,
                "roaming_enabled": s.chance(0.55),
                "cycle_start": start.isoformat(),
                "cycle_end": end.isoformat(),
                "data_used_gb": used,
                "refueled_gb": refueled,
                "plan_changed_on": _plan_change(s, start),
                "contract_end": s.day_offset(-200, 700) if s.chance(0.6) else None,
                "sim_pin": f"{s.rng.randint(0, 9999):04d}",
                "sim_puk": f"{s.rng.randint(0, 99_999_999):08d}",
                "voicemail_pin": f"{s.rng.randint(0, 999_999):06d}",
                "activated_on": s.day_offset(-2500, -90),
                "_allowance": allowance,
            }
        )
    return out


def _cycle_start(today: date, day: int) -> date:
    """The latest date on or before ``today`` that falls on day ``day`` of a month."""
    this = today.replace(day=day) if day <= 28 else today
    return this if this <= today else _add_months(this, -1)


def _add_months(d: date, months: int) -> date:
    m = d.month - 1 + months
    return d.replace(year=d.year + m // 12, month=m % 12 + 1)


def _plan_change(s: Seeder, start: date) -> str | None:
    roll = s.rng.random()
    today = s.now.date()
    if roll < 0.45:
        return None
    if roll < 0.65:  # already changed this cycle: a second change breaches
        return (start + timedelta(days=s.rng.randint(0, (today - start).days))).isoformat()
    if roll < 0.78:  # changed just before the cycle began: allowed, near the edge
        return (start - timedelta(days=s.rng.randint(1, 3))).isoformat()
    return (start - timedelta(days=s.rng.randint(10, 300))).isoformat()


def _devices(s: Seeder, customers: list[dict[str, Any]], lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    n = s.count(60, 1200, 30_000)
    spare = max(4, n // 12)
    held = sorted(s.rng.sample(range(len(lines)), min(n - spare, len(lines))))
    out = []
    for i in held:
        out.append(_device(s, len(out) + 1, lines[i]["customer_id"], lines[i]["id"]))
    owners = s.rng.sample([c["id"] for c in customers], spare)
    for owner in owners:
        out.append(_device(s, len(out) + 1, owner, None, spare=True))
    return out


def _device(s: Seeder, n: int, owner: str, number: str | None, spare: bool = False) -> dict[str, Any]:
    model, best, esim = s.pick([m for m in MODELS if m[2]] if spare else MODELS)
    kind = None if number is None else ("esim" if esim and s.chance(0.3) else "physical")
    return {
        "id": f"DEV-{n:06d}",
        "customer_id": owner,
        "line_number": number,
        "model": model,
        "max_network": best,
        "esim_capable": esim,
        "sim_kind": kind,
        "sim_seated": number is not None,
        "sim_status": "ready" if number else "absent",
        "pin_enabled": s.chance(0.2),
        "pin_attempts_left": PIN_TRIES,
        "puk_attempts_left": PUK_TRIES,
        "airplane_mode": False,
        "mobile_data": True,
        "data_roaming": s.chance(0.5),
        "wifi_calling": s.chance(0.4),
        "wifi_connected": s.chance(0.5),
        "data_saver": False,
        "network_mode": "4g" if best == "5g" and s.chance(0.2) else best,
        "apn": APN,
        "restart_pending": False,
        "country": HOME_COUNTRY,
        "coverage_bars": s.rng.choices((1, 2, 3, 4), (5, 20, 35, 40))[0],
    }


def _settle_roaming(s: Seeder, line: dict[str, Any], dev: dict[str, Any] | None, kinds: list[str]) -> None:
    """Abroad, only the roaming faults seeded are off; a few phones travel with both sides on."""
    if dev is None:
        return
    if dev["country"] == HOME_COUNTRY and not kinds and s.chance(0.08):
        dev["country"] = s.pick(faults.TRAVEL_COUNTRIES)
    if dev["country"] != HOME_COUNTRY:
        line["roaming_enabled"] = "roaming_barred" not in kinds
        dev["data_roaming"] = "data_roaming_off" not in kinds
    if "sim_unseated" in kinds:
        dev["sim_kind"] = "physical"


def _sim_orders(s: Seeder, lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    picked = s.rng.sample(lines, max(2, len(lines) // 45))
    return [
        {
            "id": f"SIM-{i + 1:06d}",
            "line_number": line["id"],
            "kind": "physical",
            "status": "shipping",
            "ship_to": None,
            "created_at": s.moment_offset(-6, -1),
        }
        for i, line in enumerate(picked)
    ]


TICKET_TEXT = {
    "coverage": "Weak signal at home, calls drop indoors",
    "device_hardware": "Screen flickers after a drop",
    "billing": "Asked about a roaming charge on last bill",
    "number_port": "Wants to keep number when moving carriers",
    "complaint": "Unhappy with hold times",
    "other": "Asked about contract end date",
}


def _tickets(s: Seeder, lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    picked = s.rng.sample(lines, max(3, len(lines) // 9))
    out = []
    for i, line in enumerate(picked):
        category = s.pick(list(TICKET_TEXT))
        out.append(
            {
                "id": f"TKT-{i + 1:06d}",
                "customer_id": line["customer_id"],
                "line_number": line["id"],
                "category": category,
                "summary": TICKET_TEXT[category],
                "status": "closed" if s.chance(0.7) else "open",
                "created_at": s.moment_offset(-200, -1),
            }
        )
    return out
