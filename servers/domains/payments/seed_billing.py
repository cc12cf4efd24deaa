"""Seeded billing history: invoices in every status with their lines, the payments that paid (or
failed to pay) them, one-off charges and authorizations, refunds, credit notes and disputes."""

from __future__ import annotations

from datetime import datetime, timedelta

from servers.domains.payments.model import (
    CreditNote,
    Dispute,
    IdempotencyKey,
    Invoice,
    InvoiceLine,
    Payment,
    Refund,
)
from servers.kit import Seeder

INVOICE_MIX = (("draft", 0.12), ("open", 0.25), ("paid", 0.48), ("uncollectible", 0.05), ("void", 0.10))
DESCRIPTIONS = (
    "Online order",
    "In-store purchase",
    "Subscription renewal",
    "Deposit",
    "Catering order",
    "Gift card",
    "Service call",
    "Repair",
    "Annual membership",
    "Event tickets",
)
DISPUTE_REASONS = ("fraudulent", "product_not_received", "duplicate", "subscription_canceled", "general")


def _iso(t: datetime) -> str:
    return t.isoformat(timespec="seconds")


class Billing:
    """Builds the rows in memory (ids in creation order), then inserts them in one go."""

    def __init__(self, s: Seeder, merchants: list[dict], customers: list[dict], methods: list[dict]) -> None:
        self.s = s
        self.merchant = {m["id"]: m for m in merchants}
        self.customers = customers
        self.method = {pm["id"]: pm for pm in methods}
        self.invoices: list[dict] = []
        self.lines: list[dict] = []
        self.payments: list[dict] = []
        self.refunds: list[dict] = []
        self.credit_notes: list[dict] = []
        self.disputes: list[dict] = []
        self.keys: list[dict] = []
        self.credit: dict[str, float] = {}

    def ago(self, low_days: float, high_days: float) -> datetime:
        seconds = self.s.rng.randint(int(low_days * 86400), int(high_days * 86400))
        return self.s.now - timedelta(seconds=seconds)

    # -- payments ---------------------------------------------------------------------------------
    def payment(
        self, c: dict, amount: float, when: datetime, status: str, description: str, invoice: str | None
    ) -> dict:
        pm = self.method.get(c["default_method_id"] or "")
        failure = None
        if status == "failed":
            failure = (pm and pm["decline_code"]) or self.s.pick(["insufficient_funds", "do_not_honor"])
            if pm and pm["status"] == "expired":
                failure = "expired_card"
        captured = amount if status in ("succeeded", "disputed") else 0.0
        row = {
            "id": f"PAY-{len(self.payments) + 1:06d}",
            "merchant_id": c["merchant_id"],
            "customer_id": c["id"],
            "invoice_id": invoice,
            "method_id": pm["id"] if pm else None,
            "amount": amount,
            "amount_captured": captured,
            "amount_refunded": 0.0,
            "currency": self.merchant[c["merchant_id"]]["currency"],
            "status": status,
            "failure_code": failure,
            "description": description,
            "created_at": _iso(when),
            "captured_at": _iso(when) if captured else None,
        }
        self.payments.append(row)
        return row

    def refund(self, pay: dict, amount: float, when: datetime, reason: str | None = None) -> dict:
        row = {
            "id": f"REF-{len(self.refunds) + 1:06d}",
            "payment_id": pay["id"],
            "amount": amount,
            "reason": reason or self.s.pick(["requested_by_customer"] * 4 + ["duplicate", "fraudulent"]),
            "status": "succeeded",
            "created_at": _iso(when),
        }
        pay["amount_refunded"] = round(pay["amount_refunded"] + amount, 2)
        self.refunds.append(row)
        return row

    # -- invoices -----------------------------------------------------------------------------------
    def invoice(self, c: dict, products: list[dict]) -> None:
        s = self.s
        status = s.pick([k for k, w in INVOICE_MIX for _ in range(int(w * 100))])
        iid = f"INV-{len(self.invoices) + 1:06d}"
        total = self._lines(iid, products)
        due_days = s.pick([7, 14, 30])
        finalized = self._finalized(status, due_days)
        created = (finalized or self.ago(0.1, 10)) - timedelta(hours=s.rng.randint(1, 30))
        inv = {
            "id": iid,
            "merchant_id": c["merchant_id"],
            "customer_id": c["id"],
            "number": None,
            "status": status,
            "currency": self.merchant[c["merchant_id"]]["currency"],
            "memo": s.pick([None, None, "Thank you for your business", "Net terms as agreed", "PO attached"]),
            "subtotal": total,
            "total": total,
            "amount_paid": 0.0,
            "amount_due": total,
            "credited": 0.0,
            "attempt_count": 0,
            "due_days": due_days,
            "due_date": (finalized + timedelta(days=due_days)).date().isoformat() if finalized else None,
            "created_at": _iso(created),
            "finalized_at": _iso(finalized) if finalized else None,
            "paid_at": None,
            "voided_at": None,
        }
        self.invoices.append(inv)
        self._settle(inv, c, finalized)

    def _lines(self, iid: str, products: list[dict]) -> float:
        total = 0.0
        for _ in range(self.s.rng.randint(1, 6)):
            p = self.s.pick(products)
            qty = self.s.rng.randint(1, 4)
            amount = round(qty * p["unit_amount"], 2)
            total += amount
            self.lines.append(
                {
                    "id": f"ILN-{len(self.lines) + 1:06d}",
                    "invoice_id": iid,
                    "product_id": p["id"],
                    "description": p["name"],
                    "quantity": qty,
                    "unit_amount": p["unit_amount"],
                    "amount": amount,
                }
            )
        return round(total, 2)

    def _finalized(self, status: str, due_days: int) -> datetime | None:
        if status == "draft":
            return None
        if status == "open":
            if self.s.chance(1 / 3):  # past due
                return self.s.now - timedelta(days=due_days + self.s.rng.randint(1, 30), hours=3)
            return self.s.now - timedelta(days=self.s.rng.randint(0, due_days - 1), hours=5)
        if status == "uncollectible":
            return self.ago(due_days + 30, due_days + 60)
        return self.ago(2, 60)

    def _settle(self, inv: dict, c: dict, finalized: datetime | None) -> None:
        """What happened after finalizing: payment, failed attempts, voiding, credit notes."""
        s, status = self.s, inv["status"]
        if status == "paid":
            paid = min(self.s.now - timedelta(hours=1), finalized + timedelta(days=s.rng.randint(0, 10)))
            pay = self.payment(c, inv["total"], paid, "succeeded", f"Invoice {inv['id']}", inv["id"])
            inv.update(amount_paid=inv["total"], amount_due=0.0, paid_at=_iso(paid))
            if s.chance(0.06):
                self._post_payment_note(inv, pay, paid)
        elif status == "void":
            inv["voided_at"] = _iso(finalized + timedelta(days=s.rng.randint(1, 4)))
        elif status in ("open", "uncollectible"):
            past_due = inv["due_date"] < s.now.date().isoformat()
            if status == "uncollectible" or (past_due and s.chance(0.4)):
                inv["attempt_count"] = s.rng.randint(1, 3)
                for k in range(inv["attempt_count"]):
                    when = finalized + timedelta(days=k * 3 + 1)
                    self.payment(c, inv["amount_due"], when, "failed", f"Invoice {inv['id']}", inv["id"])
            if status == "open" and s.chance(0.1):
                amount = round(inv["total"] * s.pick([0.1, 0.2, 0.25]), 2)
                self._note(inv, amount, "pre_payment", None, finalized + timedelta(hours=2))
                inv.update(credited=amount, amount_due=round(inv["total"] - amount, 2))

    def _post_payment_note(self, inv: dict, pay: dict, paid: datetime) -> None:
        amount = round(inv["total"] * self.s.pick([0.1, 0.25, 0.5]), 2)
        when = paid + timedelta(hours=self.s.rng.randint(1, 20))
        refund = None
        if self.s.chance(0.5):
            refund = self.refund(pay, amount, when, "requested_by_customer")["id"]
        else:
            self.credit[inv["customer_id"]] = round(self.credit.get(inv["customer_id"], 0.0) + amount, 2)
        self._note(inv, amount, "post_payment", refund, when)
        inv["credited"] = amount

    def _note(self, inv: dict, amount: float, kind: str, refund: str | None, when: datetime) -> None:
        self.credit_notes.append(
            {
                "id": f"CRN-{len(self.credit_notes) + 1:06d}",
                "invoice_id": inv["id"],
                "amount": amount,
                "reason": self.s.pick(["order_change", "product_unsatisfactory", "duplicate"]),
                "kind": kind,
                "refund_id": refund,
                "created_at": _iso(when),
            }
        )

    # -- one-off charges --------------------------------------------------------------------------------
    def one_off(self, c: dict) -> None:
        s = self.s
        roll = s.rng.random()
        status = (
            "failed"
            if roll < 0.09
            else "requires_capture"
            if roll < 0.12
            else "canceled"
            if roll < 0.14
            else "disputed"
            if roll < 0.16
            else "succeeded"
        )
        when = self.ago(0.05, 6) if status == "requires_capture" else self.ago(0.05, 90)
        amount = s.money(5, 600)
        pay = self.payment(c, amount, when, status, s.pick(list(DESCRIPTIONS)), None)
        if status == "succeeded" and s.chance(0.03):
            pay["amount_captured"] = round(amount * s.pick([0.5, 0.8, 0.9]), 2)  # partially captured
        if status == "disputed":
            self._dispute(pay, when)
        elif status == "succeeded" and roll > 0.94:
            self._refunds(pay, when, full=roll > 0.98)
        if when > s.now - timedelta(hours=20) and status != "disputed" and s.chance(0.3):
            self.keys.append(
                {
                    "id": f"IDK-{len(self.keys) + 1:06d}",
                    "merchant_id": c["merchant_id"],
                    "key": f"order-{pay['id'][4:]}-{s.rng.randint(100, 999)}",
                    "request": f"{c['id']}|{amount:.2f}|{pay['method_id']}|{pay['status'] != 'requires_capture'}",
                    "payment_id": pay["id"],
                    "created_at": pay["created_at"],
                }
            )

    def _refunds(self, pay: dict, when: datetime, full: bool) -> None:
        left = pay["amount_captured"]
        later = min(self.s.now - timedelta(minutes=30), when + timedelta(days=self.s.rng.randint(1, 5)))
        if full:
            self.refund(pay, left, later)
            return
        for share in [0.2, 0.3][: self.s.rng.randint(1, 2)]:
            self.refund(pay, round(left * share, 2), later)

    def _dispute(self, pay: dict, when: datetime) -> None:
        s = self.s
        opened = min(s.now - timedelta(hours=2), when + timedelta(days=s.rng.randint(3, 20)))
        status = s.pick(["needs_response"] * 4 + ["under_review"] * 2 + ["won", "lost"])
        due = opened + timedelta(days=21) if status == "needs_response" else opened + timedelta(days=7)
        if status == "needs_response" and due.date() < s.now.date():
            due = s.now + timedelta(days=s.rng.randint(1, 14))
        self.disputes.append(
            {
                "id": f"DSP-{len(self.disputes) + 1:06d}",
                "payment_id": pay["id"],
                "merchant_id": pay["merchant_id"],
                "amount": pay["amount"],
                "reason": s.pick(list(DISPUTE_REASONS)),
                "status": status,
                "evidence": "Receipt and delivery confirmation sent" if status != "needs_response" else None,
                "due_by": due.date().isoformat(),
                "created_at": _iso(opened),
            }
        )


def _numbers(invoices: list[dict], merchants: dict[str, dict]) -> None:
    """Finalized invoices are numbered per merchant in the order they were finalized."""
    count: dict[str, int] = {}
    for inv in sorted((i for i in invoices if i["finalized_at"]), key=lambda i: (i["finalized_at"], i["id"])):
        n = count[inv["merchant_id"]] = count.get(inv["merchant_id"], 0) + 1
        inv["number"] = f"{merchants[inv['merchant_id']]['invoice_prefix']}{n:05d}"


def seed_billing(
    s: Seeder, merchants: list[dict], customers: list[dict], methods: list[dict], products: list[dict]
) -> Billing:
    b = Billing(s, merchants, customers, methods)
    catalog: dict[str, list[dict]] = {}
    for p in products:
        catalog.setdefault(p["merchant_id"], []).append(p)
    live = [c for c in customers if not c["deleted"]]
    for i in range(round(len(customers) * 2.5)):
        c = customers[i % len(customers)]
        b.invoice(c, catalog[c["merchant_id"]])
    target = round(len(customers) * 3.33)
    while len(b.payments) < target:
        b.one_off(s.pick(live))
    _numbers(b.invoices, b.merchant)
    number = {i["id"]: i["number"] for i in b.invoices}
    for p in b.payments:  # a payment names its invoice by number, as pay_invoice writes it
        if p["invoice_id"]:
            p["description"] = f"Invoice {number[p['invoice_id']]}"
    for table, rows in (
        (Invoice, b.invoices),
        (InvoiceLine, b.lines),
        (Payment, b.payments),
        (Refund, b.refunds),
        (CreditNote, b.credit_notes),
        (Dispute, b.disputes),
        (IdempotencyKey, b.keys),
    ):
        s.add(table, rows)
    delinquent = {i["customer_id"] for i in b.invoices if i["status"] == "open" and i["attempt_count"]}
    s.conn.executemany("UPDATE customers SET delinquent = 1 WHERE id = ?", [(c,) for c in sorted(delinquent)])
    s.conn.executemany(
        "UPDATE customers SET credit_balance = round(credit_balance + ?, 2) WHERE id = ?",
        [(v, k) for k, v in sorted(b.credit.items())],
    )
    return b
