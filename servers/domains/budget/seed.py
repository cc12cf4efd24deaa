"""The seed: the persona's budgets and the budgets of her circle, some shared with her, each with
accounts, a category plan with assignments from December 2025, payees that are world merchants
and restaurants, six months of register lines, scheduled bills and reconciled history."""

from __future__ import annotations

from collections import defaultdict
from datetime import date, timedelta

from servers.domains.budget.model import (
    Account,
    Assignment,
    Budget,
    Category,
    CategoryGroup,
    Member,
    Payee,
    Reconciliation,
    Scheduled,
    Session,
    Transaction,
    budget,
)
from servers.domains.budget.rules import compute, months, shift
from servers.domains.budget.seed_plan import (
    ACCOUNTS,
    BUDGET_NAMES,
    FIRST_MONTH,
    Ids,
    _payees,
    _plan,
)
from servers.kit import Person, Seeder


@budget.seed
def fill(s: Seeder) -> None:
    w = s.world
    persona = w.persona
    owners = [persona, *w.circle(persona, s.count(small=11, medium=149, large=399))]
    s.add(Session, [{"id": "SES-000001", "person_id": persona.index}])
    ids, rows = Ids(), defaultdict(list)
    for i, owner in enumerate(owners):
        kinds = [BUDGET_NAMES[i % len(BUDGET_NAMES)]]
        if i % 3 == 0:
            kinds.append(BUDGET_NAMES[(i + 2) % len(BUDGET_NAMES)])
        # names people tell apart: whose budget it is, and what for
        names = ["Household", "Freelance Studio"] if i == 0 else [f"{owner.name}'s {k}" for k in kinds]
        for j, name in enumerate(names):
            shared = i == 0 or i % 5 in (1, 2)
            _budget(s, ids, rows, owner, persona, name, shared, persona_main=(i == 0 and j == 0))
    for table in (Budget, Member, Account, CategoryGroup, Category, Payee, Assignment, Transaction):
        s.add(table, rows[table.__tablename__])
    s.add(Scheduled, rows["scheduled"])
    s.add(Reconciliation, rows["reconciliations"])


def _budget(
    s: Seeder,
    ids: Ids,
    rows: dict,
    owner: Person,
    persona: Person,
    name: str,
    shared: bool,
    persona_main: bool,
) -> None:
    bid = ids("BUD")
    rows["budgets"].append(
        {
            "id": bid,
            "owner_id": owner.index,
            "owner_name": owner.name,
            "name": name,
            "currency": "USD",
            "first_month": FIRST_MONTH,
        }
    )
    for who, role in (
        (owner, "owner"),
        *(((persona, "collaborator"),) if shared and owner != persona else ()),
    ):
        rows["budget_members"].append(
            {
                "id": ids("MBR"),
                "budget_id": bid,
                "person_id": who.index,
                "name": who.name,
                "email": who.email,
                "role": role,
            }
        )
    accounts = _accounts(s, ids, rows, bid, persona_main)
    cats, ready = _plan(s, ids, rows, bid, persona_main)
    payees = _payees(s, ids, rows, bid, owner, cats)
    _register(s, ids, rows, bid, accounts, cats, ready, payees, persona_main)


def _accounts(s: Seeder, ids: Ids, rows: dict, bid: str, persona_main: bool) -> list[dict]:
    n = 5 if persona_main else s.rng.randint(3, 6)
    out = []
    for name, kind, on in ACCOUNTS[:n]:
        a = {
            "id": ids("ACC"),
            "budget_id": bid,
            "name": name,
            "kind": kind,
            "on_budget": on,
            "closed": name == "Old Checking",
            "cleared_balance": 0.0,
            "uncleared_balance": 0.0,
            "last_reconciled": None,
        }
        out.append(a)
    rows["accounts"].extend(out)
    return out


def _register(
    s: Seeder,
    ids: Ids,
    rows: dict,
    bid: str,
    accounts: list[dict],
    cats: list[dict],
    ready: str,
    payees: dict[str, list[dict]],
    persona_main: bool,
) -> None:
    """Six months of lines: paychecks, starting balances, spending, transfers and a few splits."""
    today = s.now.date()
    checking, card = accounts[0], accounts[1]
    spend_in = [a for a in accounts if a["on_budget"] and not a["closed"] and a["kind"] != "savings"]
    lines: list[dict] = []

    def line(
        acc: dict,
        day: date,
        amount: float,
        cat: str | None,
        payee: dict | None,
        memo: str | None = None,
        **extra,
    ) -> dict:
        t = {
            "id": ids("TXN"),
            "budget_id": bid,
            "account_id": acc["id"],
            "day": day.isoformat(),
            "payee_id": payee["id"] if payee else None,
            "category_id": cat,
            "memo": memo,
            "amount": round(amount, 2),
            "cleared": "cleared",
            "approved": True,
            "transfer_txn_id": None,
            "parent_id": None,
            "is_split": False,
        }
        t.update(extra)
        lines.append(t)
        return t

    pay = _income(s, line, accounts, cats, ready, payees["income"][0], today)
    for m in months(FIRST_MONTH, "2026-05"):
        _spend_month(s, m, cats, payees, spend_in, line, overspend=(m == "2026-05") if persona_main else None)
        d = date.fromisoformat(f"{m}-20")
        if len(accounts) > 2 and accounts[2]["kind"] == "savings":
            _transfer(ids, line, checking, accounts[2], d, s.money(50, 300))
        _transfer(ids, line, checking, card, d + timedelta(days=5), s.money(200, 700))
    _first_of_june(s, line, checking, cats, payees, today)
    _statuses(s, lines, checking, today, persona_main)
    _splits(s, ids, lines, cats)
    _balances(accounts, lines)
    _reconciled(ids, rows, checking, lines, today)
    _scheduled(s, ids, rows, bid, checking, cats, payees, pay, today)
    _cache(rows, cats, ready, lines)
    rows["transactions"].extend(lines)


def _income(
    s: Seeder, line, accounts: list[dict], cats: list[dict], ready: str, payroll: dict, today: date
) -> float:
    """Starting balances (to Ready to Assign on budget) and a paycheck on the 1st and 15th; returns
    the usual paycheck, a bit more than half of what the plan assigns a month."""
    start = date(2025, 12, 1)
    for a in accounts:
        if a["kind"] in ("checking", "savings", "cash"):
            amt = s.money(50, 250) if a["kind"] == "cash" else s.money(300, 1200)
            line(a, start, amt, ready if a["on_budget"] else None, None, "Starting balance")
    pay = round(sum(c["_target"] for c in cats) * 0.52, -1)
    day = start
    while day <= today:
        line(accounts[0], day, pay + s.money(-40, 40), ready, payroll, "Paycheck")
        day = (
            day.replace(day=15) if day.day == 1 else (day.replace(day=28) + timedelta(days=4)).replace(day=1)
        )
    return pay


def _first_of_june(s: Seeder, line, checking: dict, cats: list[dict], payees: dict, today: date) -> None:
    """Today's lines: rent and gym paid, and three big purchases that overspend their envelopes."""
    for c in cats:
        if c["_bill"] and c["name"] in ("Rent", "Gym"):
            line(checking, today, -c["_target"], c["id"], (payees.get(c["name"]) or [None])[0])
    envelopes = [c for c in cats if not c["_bill"] and _shops(c, payees)]
    for c in s.rng.sample(envelopes, min(len(envelopes), 3)):
        amount = -round(c["_target"] * s.rng.uniform(1.6, 2.4), 2)
        line(checking, today, amount, c["id"], s.pick(_shops(c, payees)))


def _spend_month(
    s: Seeder, m: str, cats: list[dict], payees: dict, spend_in: list[dict], line, overspend: bool | None
) -> None:
    """A month of spending: bills once at their amount, envelopes at 40-100% of the target (the
    persona's dining, groceries and clothing near 100%, and well over it in May)."""
    hot = {"Dining Out", "Groceries", "Clothing", "Coffee"} if overspend is not None else set()
    cash = [a for a in spend_in if a["kind"] == "cash"]
    cards = [a for a in spend_in if a["kind"] != "cash"]
    for c in cats:
        shops = _shops(c, payees)
        if not shops:
            continue
        if c["_bill"]:
            line(
                cards[0], date.fromisoformat(f"{m}-0{s.rng.randint(1, 9)}"), -c["_target"], c["id"], shops[0]
            )
            continue
        if c["name"] in hot and overspend:
            total = c["_target"] * s.rng.uniform(1.4, 1.7)
        elif c["name"] in hot and overspend is False:
            total = c["_target"] * s.rng.uniform(0.97, 1.0)
        else:
            total = c["_target"] * s.rng.uniform(0.4, 1.0)
        n = 1 + (s.rng.random() < 0.5) + (c["_target"] > 300)
        for _ in range(n):
            d = date.fromisoformat(f"{m}-{s.rng.randint(1, 28):02d}")
            acc = cash[0] if cash and c["name"] == "Coffee" else s.pick(cards)
            line(acc, d, -round(total / n, 2), c["id"], s.pick(shops))


BILLERS = {"Electric": "Power & Light", "Water": "Water Utility", "Internet": "Telecom", "Phone": "Telecom"}


def _shops(c: dict, payees: dict) -> list[dict]:
    """Where a category's money goes: its own biller, else the shops of its merchant kind."""
    shops = payees.get(c["name"]) or payees.get(c["_kind"] or "") or []
    suffix = BILLERS.get(c["name"])
    if suffix:
        shops = [p for p in shops if p["name"].endswith(suffix)] or shops
    return shops


def _transfer(ids: Ids, line, src: dict, dst: dict, d: date, amount: float) -> None:
    out = line(src, d, -amount, None, None, f"Transfer to {dst['name']}")
    back = line(dst, d, amount, None, None, f"Transfer from {src['name']}")
    out["transfer_txn_id"], back["transfer_txn_id"] = back["id"], out["id"]


def _statuses(s: Seeder, lines: list[dict], checking: dict, today: date, persona_main: bool) -> None:
    """Recent lines uncleared or waiting for approval, a few uncategorized, older checking reconciled."""
    recent = today - timedelta(days=30)
    unapproved = 0
    for t in lines:
        d = date.fromisoformat(t["day"])
        plain = t["transfer_txn_id"] is None and t["amount"] < 0
        if d >= today - timedelta(days=12) and s.chance(0.6):
            t["cleared"] = "uncleared"
        if plain and d >= recent and (s.chance(0.2) or (persona_main and unapproved < 12)):
            t["approved"], unapproved = False, unapproved + 1
        if plain and d >= recent and s.chance(0.08):
            t["category_id"] = None
        if t["account_id"] == checking["id"] and d < recent and t["cleared"] == "cleared":
            t["cleared"] = "reconciled"


def _splits(s: Seeder, ids: Ids, lines: list[dict], cats: list[dict]) -> None:
    by_name = {c["name"]: c["id"] for c in cats}
    other = by_name.get("Household Supplies")
    for t in list(lines):
        if other and t["category_id"] == by_name.get("Groceries") and t["amount"] <= -40 and s.chance(0.15):
            part = round(t["amount"] * 0.3, 2)
            for amount, cat in ((round(t["amount"] - part, 2), t["category_id"]), (part, other)):
                lines.append(
                    {**t, "id": ids("TXN"), "amount": amount, "category_id": cat, "parent_id": t["id"]}
                )
            t["category_id"], t["is_split"] = None, True


def _balances(accounts: list[dict], lines: list[dict]) -> None:
    by_id = {a["id"]: a for a in accounts}
    for t in lines:
        if t["parent_id"] is None:
            col = "uncleared_balance" if t["cleared"] == "uncleared" else "cleared_balance"
            a = by_id[t["account_id"]]
            a[col] = round(a[col] + t["amount"], 2)


def _reconciled(ids: Ids, rows: dict, checking: dict, lines: list[dict], today: date) -> None:
    locked = [
        t
        for t in lines
        if t["account_id"] == checking["id"] and t["cleared"] == "reconciled" and t["parent_id"] is None
    ]
    if not locked:
        return
    day = (today - timedelta(days=31)).isoformat()
    checking["last_reconciled"] = day
    rows["reconciliations"].append(
        {
            "id": ids("REC"),
            "account_id": checking["id"],
            "day": day,
            "statement_balance": round(sum(t["amount"] for t in locked), 2),
            "adjustment_txn_id": None,
            "transactions_locked": len(locked),
        }
    )


def _scheduled(
    s: Seeder,
    ids: Ids,
    rows: dict,
    bid: str,
    checking: dict,
    cats: list[dict],
    payees: dict,
    pay: float,
    today: date,
) -> None:
    rows["scheduled"].append(
        {
            "id": ids("SCH"),
            "budget_id": bid,
            "account_id": checking["id"],
            "payee_id": payees["income"][0]["id"],
            "category_id": None,
            "amount": pay,
            "frequency": "every_other_week",
            "next_day": (today + timedelta(days=14)).isoformat(),
            "memo": "Paycheck",
        }
    )
    for c in [c for c in cats if c["_bill"] and _shops(c, payees)][:9]:
        p = _shops(c, payees)[0]
        rows["scheduled"].append(
            {
                "id": ids("SCH"),
                "budget_id": bid,
                "account_id": checking["id"],
                "payee_id": p["id"],
                "category_id": c["id"],
                "amount": -c["_target"],
                "frequency": "monthly",
                "next_day": (today + timedelta(days=s.rng.randint(1, 27))).isoformat(),
                "memo": None,
            }
        )


def _cache(rows: dict, cats: list[dict], ready: str, lines: list[dict]) -> None:
    """The categories' June figures, computed the way the tools compute them."""
    ids_ = [c["id"] for c in cats]
    own = set(ids_)
    assigned = {
        (a["category_id"], a["month"]): a["assigned"] for a in rows["assignments"] if a["category_id"] in own
    }
    activity: dict[tuple[str, str], float] = defaultdict(float)
    for t in lines:
        if t["category_id"] and not t["is_split"]:
            activity[(t["category_id"], t["day"][:7])] += t["amount"]
    led = compute(months(FIRST_MONTH, shift("2026-06", 11)), ready, ids_, assigned, dict(activity))
    by_id = {c["id"]: c for c in rows["categories"][-len(cats) - 1 :]}
    for cid in ids_:
        by_id[cid].update(led.figures(cid, "2026-06"))
    by_id[ready].update(assigned=0.0, activity=led.income["2026-06"], available=led.ready["2026-06"])
