"""A year of bills per line (the current cycle a draft, eleven issued ones), what was paid, payment
requests still open, goodwill credits (near the yearly cap for some customers) and data refuels."""

from __future__ import annotations

from datetime import date, datetime, timedelta

from servers.domains.telecom_support.model import DUE_DAYS, Bill, Credit, Payment, PaymentRequest, Refuel
from servers.kit import Seeder

MONTHS = 12
OTHER_SUSPENSIONS = ("customer_request", "travel", "lost_or_stolen")


def seed_billing(s: Seeder, customers: list[dict], lines: list[dict], plans: dict[str, tuple]) -> None:
    today = s.now.date()
    methods = _active_methods(s)
    bills, pays, requests, refuels = [], [], [], []
    for line in lines:
        mode = _mode(s, line)
        line_bills = _bills_of(s, line, plans[line["plan_id"]], mode, today, len(bills))
        bills += line_bills
        if mode.startswith("suspended"):
            overdue = [b for b in line_bills if b["_late"]]
            first_due = date.fromisoformat(min(b["due_on"] for b in overdue))
            line["suspended_on"] = min(first_due + timedelta(days=14), today - timedelta(days=1)).isoformat()
        refuels += _refuels(s, line, plans[line["plan_id"]], line_bills[0], len(refuels))
    by_customer: dict[str, list[dict]] = {}
    for b in bills:
        by_customer.setdefault(b["customer_id"], []).append(b)
    credits = _credits(s, customers, by_customer)
    for b in bills:
        method = methods.get(b["customer_id"])
        if b["status"] == "paid" and method:
            pays.append(_payment(b, method, len(pays)))
        if b["status"] == "awaiting_payment" and method:
            requests.append(_request(b, method, len(requests)))
    s.conn.executemany(
        "UPDATE lines SET status = ?, suspension_reason = ?, suspended_on = ? WHERE id = ?",
        [(ln["status"], ln["suspension_reason"], ln["suspended_on"], ln["id"]) for ln in lines],
    )
    s.add(Bill, [{k: v for k, v in b.items() if not k.startswith("_")} for b in bills])
    s.add(Credit, credits)
    s.add(Payment, pays)
    s.add(PaymentRequest, requests)
    s.add(Refuel, refuels)


def _active_methods(s: Seeder) -> dict[str, str]:
    rows = s.conn.execute(
        "SELECT customer_id, min(id) FROM payment_methods WHERE status = 'active' GROUP BY customer_id"
    )
    return dict(rows.fetchall())


def _mode(s: Seeder, line: dict) -> str:
    """How this line's bills stand: paid up, late, or suspended for a bill (still unpaid or paid since)."""
    if line["status"] == "suspended":
        return "suspended_unpaid" if s.chance(0.7) else "suspended_paid"
    if s.chance(0.05):
        line.update(status="suspended", suspension_reason=s.pick(list(OTHER_SUSPENSIONS)))
        line["suspended_on"] = s.day_offset(-20, -1)
        return "normal"
    return "late" if s.chance(0.12) else "normal"


def _add_months(d: date, months: int) -> date:
    m = d.month - 1 + months
    return d.replace(year=d.year + m // 12, month=m % 12 + 1)


def _bills_of(s: Seeder, line: dict, plan: tuple, mode: str, today: date, base: int) -> list[dict]:
    start = date.fromisoformat(line["cycle_start"])
    out = []
    late_left = {"late": 1, "suspended_unpaid": 2, "suspended_paid": 2}.get(mode, 0)
    for k in range(MONTHS):
        ps = _add_months(start, -k)
        pe = _add_months(ps, 1) - timedelta(days=1)
        issued = None if k == 0 else pe + timedelta(days=1)
        due = None if issued is None else issued + timedelta(days=DUE_DAYS)
        amount = round(plan[2] * 1.1 + s.rng.choice((0, 0, 0, 4.99, 9.5, 12.0)), 2)
        if k == 0:
            amount = round(plan[2] * 1.1 + line["refueled_gb"] * (plan[4] or 0), 2)
        bill = {
            "id": f"BIL-{base + len(out) + 1:06d}",
            "line_number": line["id"],
            "customer_id": line["customer_id"],
            "period_start": ps.isoformat(),
            "period_end": pe.isoformat(),
            "issued_on": issued and issued.isoformat(),
            "due_on": due and due.isoformat(),
            "amount": amount,
            "credited": 0.0,
            "status": "draft",
            "paid_on": None,
            "_late": False,
        }
        if due is not None:
            _settle(s, bill, due, today, mode, late_left > 0)
            if due < today and bill["_late"]:
                late_left -= 1
        out.append(bill)
    return out


def _settle(s: Seeder, bill: dict, due: date, today: date, mode: str, late: bool) -> None:
    """The status of one issued bill."""
    if due >= today:
        bill["status"] = s.rng.choices(("issued", "paid", "awaiting_payment"), (60, 28, 12))[0]
        if bill["status"] == "paid":
            bill["paid_on"] = (today - timedelta(days=s.rng.randint(0, 9))).isoformat()
        return
    if late and mode != "normal":
        bill["_late"] = True
        if mode == "suspended_paid":  # paid in the last days; the line is still suspended
            bill.update(status="paid", paid_on=(today - timedelta(days=s.rng.randint(0, 4))).isoformat())
        else:
            bill["status"] = "awaiting_payment" if s.chance(0.25) else "overdue"
        return
    if s.chance(0.015):
        bill["status"] = "disputed"
        return
    bill.update(status="paid", paid_on=(due - timedelta(days=s.rng.randint(0, 15))).isoformat())


def _credits(s: Seeder, customers: list[dict], by_customer: dict[str, list[dict]]) -> list[dict]:
    """Goodwill credit used this year: none for most, some well inside the cap, some at its edge."""
    out = []
    for c in customers:
        roll = s.rng.random()
        total = 0.0 if roll < 0.5 else s.money(10, 40) if roll < 0.75 else s.money(45, 60)
        if roll > 0.95:
            total = 60.0
        mine = by_customer.get(c["id"], [])
        this_year = [b for b in mine if b["issued_on"] and b["issued_on"] >= "2026-01-01"]
        last_year = [b for b in mine if b["issued_on"] and "2025-06-01" <= b["issued_on"] < "2025-12-01"]
        parts = [total] if total <= 30 else [round(total / 2, 2), round(total - round(total / 2, 2), 2)]
        for amount in parts if total else []:
            out.append(_credit(s, c, s.pick(this_year), amount, len(out)))
        if last_year and s.chance(0.2):
            out.append(_credit(s, c, s.pick(last_year), s.money(5, 30), len(out)))
    return out


def _credit(s: Seeder, c: dict, bill: dict, amount: float, n: int) -> dict:
    amount = min(amount, round(bill["amount"] - bill["credited"], 2))
    bill["credited"] = round(bill["credited"] + amount, 2)
    return {
        "id": f"CRD-{n + 1:06d}",
        "customer_id": c["id"],
        "bill_id": bill["id"],
        "amount": amount,
        "reason": s.pick(
            [
                "network outage in the area",
                "long wait on a previous call",
                "billing error",
                "roaming charge waived",
            ]
        ),
        "issued_on": bill["issued_on"],
    }


def _payment(bill: dict, method: str, n: int) -> dict:
    return {
        "id": f"PAY-{n + 1:06d}",
        "bill_id": bill["id"],
        "method_id": method,
        "amount": round(bill["amount"] - bill["credited"], 2),
        "paid_at": f"{bill['paid_on']}T12:00:00",
    }


def _request(bill: dict, method: str, n: int) -> dict:
    sent = datetime.fromisoformat(bill["issued_on"]) + timedelta(days=3)
    return {
        "id": f"PRQ-{n + 1:06d}",
        "bill_id": bill["id"],
        "method_id": method,
        "amount": round(bill["amount"] - bill["credited"], 2),
        "status": "sent",
        "sent_at": sent.isoformat(timespec="seconds"),
    }


def _refuels(s: Seeder, line: dict, plan: tuple, draft: dict, base: int) -> list[dict]:
    if not line["refueled_gb"]:
        return []
    start = datetime.fromisoformat(line["cycle_start"])
    gb = int(line["refueled_gb"])
    parts = [gb] if gb < 3 or s.chance(0.5) else [gb - 2, 2]
    return [
        {
            "id": f"RFL-{base + i + 1:06d}",
            "line_number": line["id"],
            "bill_id": draft["id"],
            "gb": float(p),
            "price": round(p * plan[4], 2),
            "at": min(
                start + timedelta(hours=10 + 30 * i), s.now - timedelta(hours=len(parts) - i)
            ).isoformat(timespec="seconds"),
        }
        for i, p in enumerate(parts)
    ]
