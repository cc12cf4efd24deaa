"""The category plan of a seeded budget: the groups and categories people use, goals, monthly
assignments from December 2025, and payees drawn from the shared world's merchants and restaurants."""

from __future__ import annotations

from collections import defaultdict

from servers.domains.budget.model import INFLOW_GROUP, READY
from servers.domains.budget.rules import months
from servers.kit import Person, Seeder

FIRST_MONTH = "2025-12"
# group -> (category, merchant kind it is spent at or None, monthly target range, is a bill)
PLAN: dict[str, list[tuple[str, str | None, tuple[int, int], bool]]] = {
    "Bills": [
        ("Rent", None, (900, 2200), True),
        ("Electric", "utilities", (60, 160), True),
        ("Internet", "utilities", (50, 90), True),
        ("Phone", "utilities", (40, 110), True),
        ("Water", "utilities", (30, 80), True),
    ],
    "Everyday Spending": [
        ("Groceries", "grocery", (350, 800), False),
        ("Dining Out", "restaurant", (120, 400), False),
        ("Coffee", "coffee", (30, 90), False),
        ("Household Supplies", "grocery", (40, 120), False),
        ("Pharmacy", "pharmacy", (20, 80), False),
    ],
    "Transportation": [
        ("Gas", "fuel", (80, 220), False),
        ("Transit", "transit", (40, 130), False),
        ("Car Maintenance", None, (30, 100), False),
    ],
    "Fun Money": [
        ("Books", "books", (20, 60), False),
        ("Clothing", "clothing", (40, 150), False),
        ("Electronics", "electronics", (30, 150), False),
        ("Hobbies", None, (30, 90), False),
    ],
    "Savings Goals": [
        ("Emergency Fund", None, (100, 400), False),
        ("Vacation", None, (80, 300), False),
        ("New Laptop", None, (50, 150), False),
        ("Holiday Gifts", None, (30, 100), False),
    ],
    "Health": [
        ("Gym", None, (30, 70), True),
        ("Doctor Visits", "pharmacy", (30, 100), False),
    ],
    "Debt Payments": [
        ("Student Loan", None, (150, 350), True),
        ("Car Loan", None, (200, 420), True),
    ],
    "Giving": [
        ("Charity", None, (20, 80), False),
        ("Birthdays", None, (20, 80), False),
    ],
}
BUDGET_NAMES = ("Household", "Family Budget", "Wedding Fund", "Home", "Shared Expenses", "Travel Fund 2026")
ACCOUNTS = (
    ("Checking", "checking", True),
    ("Credit Card", "credit_card", True),
    ("Savings", "savings", True),
    ("Cash", "cash", True),
    ("Emergency Savings", "savings", False),
    ("Old Checking", "checking", True),
)


class Ids:
    """Running id counters: the seed writes ids itself so rows can point at each other."""

    def __init__(self) -> None:
        self.n: dict[str, int] = defaultdict(int)

    def __call__(self, prefix: str) -> str:
        self.n[prefix] += 1
        return f"{prefix}-{self.n[prefix]:06d}"


def _plan(s: Seeder, ids: Ids, rows: dict, bid: str, persona_main: bool) -> tuple[list[dict], str]:
    """Groups and categories with goals and their monthly assignments (December to June)."""
    inflow = ids("GRP")
    rows["category_groups"].append(
        {"id": inflow, "budget_id": bid, "name": INFLOW_GROUP, "hidden": False, "internal": True}
    )
    ready = ids("CAT")
    rows["categories"].append(_cat(ready, bid, inflow, READY, internal=True))
    groups = list(PLAN)
    keep = groups if persona_main else s.rng.sample(groups, s.rng.randint(5, 8))
    cats = []
    for g in groups:
        if g not in keep:
            continue
        gid = ids("GRP")
        rows["category_groups"].append(
            {"id": gid, "budget_id": bid, "name": g, "hidden": False, "internal": False}
        )
        for name, kind, (lo, hi), bill in PLAN[g]:
            c = _cat(ids("CAT"), bid, gid, name, hidden=not persona_main and s.chance(0.04))
            c.update(_goal(s, name, lo, hi))
            c["_kind"], c["_target"], c["_bill"] = kind, round(s.rng.uniform(lo, hi), -1), bill
            cats.append(c)
    for c in cats:
        rows["categories"].append({k: v for k, v in c.items() if not k.startswith("_")})
        for m in months(FIRST_MONTH, "2026-06"):
            if not c["_bill"] and s.chance(0.4 if m == "2026-06" else 0.08):
                continue  # a month the envelope got nothing (yet: June is being budgeted today)
            rows["assignments"].append(
                {"id": ids("ASG"), "category_id": c["id"], "month": m, "assigned": c["_target"]}
            )
    return cats, ready


def _cat(cid: str, bid: str, gid: str, name: str, *, hidden: bool = False, internal: bool = False) -> dict:
    return {
        "id": cid,
        "budget_id": bid,
        "group_id": gid,
        "name": name,
        "hidden": hidden,
        "internal": internal,
        "goal_kind": "none",
        "goal_amount": None,
        "goal_month": None,
        "assigned": 0.0,
        "activity": 0.0,
        "available": 0.0,
    }


def _goal(s: Seeder, name: str, lo: int, hi: int) -> dict:
    if name in ("Emergency Fund", "New Laptop") or s.chance(0.12):
        return {"goal_kind": "target_balance", "goal_amount": float(round(s.rng.uniform(8, 20) * hi, -2))}
    if name in ("Vacation", "Holiday Gifts"):
        return {
            "goal_kind": "target_by_month",
            "goal_amount": float(round(s.rng.uniform(6, 14) * hi, -2)),
            "goal_month": s.pick(["2026-08", "2026-09", "2026-12", "2027-03"]),
        }
    if s.chance(0.25):
        return {"goal_kind": "monthly", "goal_amount": float(round(hi * 1.1, -1))}
    return {}


def _payees(
    s: Seeder, ids: Ids, rows: dict, bid: str, owner: Person, cats: list[dict]
) -> dict[str, list[dict]]:
    """About 60 payees: world merchants (the owner's city first), restaurants, the employer and
    the landlord and lenders; returns them by merchant kind (None: the bills without a shop)."""
    w = s.world
    by_kind = {c["_kind"]: c["id"] for c in cats if c["_kind"]}
    by_name = {c["name"]: c["id"] for c in cats}
    local = [m for m in w.merchants if m.city == owner.city]
    others = [m for m in w.merchants if m.city != owner.city]
    picked = local + [others[(owner.index * 7 + k * 13) % len(others)] for k in range(60)]
    out: dict[str, list[dict]] = defaultdict(list)
    seen: set[str] = set()

    def add(name: str, kind: str, category: str | None) -> None:
        if name in seen or len(seen) >= 60:
            return
        seen.add(name)
        p = {"id": ids("PYE"), "budget_id": bid, "name": name, "default_category_id": category}
        rows["payees"].append(p)
        out[kind].append(p)

    add(w.employer(owner).name, "income", None)
    for bill in (
        "Rent",
        "Gym",
        "Student Loan",
        "Car Loan",
        "Car Maintenance",
        "Hobbies",
        "Charity",
        "Birthdays",
    ):
        if bill in by_name:
            add(
                {
                    "Rent": "Parkside Property Management",
                    "Gym": "Iron Works Gym",
                    "Student Loan": "Federal Student Aid",
                    "Car Loan": "Summit Auto Finance",
                    "Car Maintenance": "Quick Lube Auto Care",
                    "Hobbies": "Crafty Corner",
                    "Charity": "Food Bank Donation",
                    "Birthdays": "Gift Shop",
                }[bill],
                bill,
                by_name[bill],
            )
    for r in [r for r in w.restaurants if r.city == owner.city][:8]:
        add(r.name, "restaurant", by_kind.get("restaurant"))
    for m in picked:
        add(m.name, m.category, by_kind.get(m.category))
    return out
