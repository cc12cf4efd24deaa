"""Seeded webhook endpoints, the last 45 days of the event log with its deliveries, payouts, and
the merchants' balances."""

from __future__ import annotations

import hashlib
from datetime import datetime, timedelta

from servers.domains.payments.model import EVENT_TYPES, Delivery, Event, Payout, WebhookEndpoint
from servers.domains.payments.seed_billing import Billing
from servers.kit import Seeder

LOG_DAYS = 45
HOOK_PATHS = ("/webhooks/payments", "/hooks/stripe-like", "/api/events", "/billing/webhook")
SUBSETS = (
    ("invoice.paid", "invoice.payment_failed", "invoice.finalized"),
    ("payment.succeeded", "payment.failed", "refund.created"),
    ("payout.created", "payout.canceled"),
    ("dispute.updated", "dispute.closed", "payment.failed"),
)


def signing_secret(merchant_id: str, url: str, n: int) -> str:
    return "whsec_" + hashlib.sha256(f"{merchant_id}|{url}|{n}".encode()).hexdigest()[:24]


def _endpoints(s: Seeder, merchants: list[dict]) -> list[dict]:
    out: list[dict] = []
    for m in merchants:
        host = m["email"].split("@")[1].replace(".example", "")
        for k in range(s.rng.randint(1, 3)):
            url = f"https://{host}.example{HOOK_PATHS[k]}"
            n = len(out) + 1
            out.append(
                {
                    "id": f"WHE-{n:06d}",
                    "merchant_id": m["id"],
                    "url": url,
                    "events": "*" if k == 0 or s.chance(0.3) else ",".join(s.pick(list(SUBSETS))),
                    "status": "disabled" if s.chance(0.1) else "enabled",
                    "secret": signing_secret(m["id"], url, n),
                    "health": "failing" if s.chance(0.15) else "ok",
                    "created_at": (s.now - timedelta(days=s.rng.randint(60, 400))).isoformat(
                        timespec="seconds"
                    ),
                }
            )
    return s.add(WebhookEndpoint, out)


def _invoice_happenings(b: Billing, name: dict[str, str]) -> list[tuple[str, str, str, str, str]]:
    """Each invoice's creation, then whichever of written off, finalized, paid and voided happened."""
    out = []
    for i in b.invoices:
        who = name[i["customer_id"]]
        out.append((i["created_at"], i["merchant_id"], "invoice.created", i["id"], f"draft for {who}"))
        if i["status"] == "uncollectible":
            at = datetime.fromisoformat(i["finalized_at"]) + timedelta(days=i["due_days"] + 20)
            out.append(
                (at.isoformat(), i["merchant_id"], "invoice.marked_uncollectible", i["id"], f"for {who}")
            )
        if i["finalized_at"]:
            out.append(
                (i["finalized_at"], i["merchant_id"], "invoice.finalized", i["id"], f"invoice for {who}")
            )
        if i["paid_at"]:
            out.append((i["paid_at"], i["merchant_id"], "invoice.paid", i["id"], f"invoice for {who} paid"))
        if i["voided_at"]:
            out.append(
                (i["voided_at"], i["merchant_id"], "invoice.voided", i["id"], f"invoice for {who} voided")
            )
    return out


def _happenings(b: Billing, name: dict[str, str]) -> list[tuple[str, str, str, str, str]]:
    """(time, merchant, type, object, summary) for every seeded change in the log window."""
    out = []
    for c in b.customers:
        out.append((c["created_at"], c["merchant_id"], "customer.created", c["id"], f"customer {c['name']}"))
    out += _invoice_happenings(b, name)
    for p in b.payments:
        what = f"{p['amount']:.2f} {p['currency'].upper()} from {name[p['customer_id']]}"
        kind = {
            "succeeded": "payment.succeeded",
            "disputed": "payment.succeeded",
            "failed": "payment.failed",
            "requires_capture": "payment.authorized",
            "canceled": "payment.canceled",
        }[p["status"]]
        out.append((p["created_at"], p["merchant_id"], kind, p["id"], what))
        if p["invoice_id"] and p["status"] == "failed":
            out.append((p["created_at"], p["merchant_id"], "invoice.payment_failed", p["invoice_id"], what))
    merchant_of = {p["id"]: p["merchant_id"] for p in b.payments}
    customer_of = {c["id"]: c for c in b.customers}
    for pm in b.method.values():
        c = customer_of[pm["customer_id"]]
        out.append(
            (
                pm["added_at"],
                c["merchant_id"],
                "payment_method.attached",
                pm["id"],
                f"{pm['brand']} {pm['last4']}",
            )
        )
    invoice_of = {i["id"]: i for i in b.invoices}
    for n in b.credit_notes:
        inv = invoice_of[n["invoice_id"]]
        out.append(
            (
                n["created_at"],
                inv["merchant_id"],
                "credit_note.created",
                n["id"],
                f"{n['amount']:.2f} on {inv['number']}",
            )
        )
    for r in b.refunds:
        out.append(
            (r["created_at"], merchant_of[r["payment_id"]], "refund.created", r["id"], f"{r['amount']:.2f}")
        )
    for d in b.disputes:
        out.append((d["created_at"], d["merchant_id"], "dispute.updated", d["id"], f"dispute: {d['reason']}"))
    return out


def _log(s: Seeder, b: Billing, endpoints: list[dict], payouts: list[dict]) -> None:
    name = {c["id"]: c["name"] for c in b.customers}
    items = _happenings(b, name)
    items += [
        (p["created_at"], p["merchant_id"], "payout.created", p["id"], f"{p['amount']:.2f}") for p in payouts
    ]
    start = (s.now - timedelta(days=LOG_DAYS)).isoformat(timespec="seconds")
    now = s.now.isoformat(timespec="seconds")
    items = sorted(i for i in items if start <= i[0] <= now)
    assert {i[2] for i in items} <= set(EVENT_TYPES)
    hooks: dict[str, list[dict]] = {}
    for e in endpoints:
        if e["status"] == "enabled":
            hooks.setdefault(e["merchant_id"], []).append(e)
    events, deliveries = [], []
    for when, merchant, type, obj, summary in items:
        eid = f"EVT-{len(events) + 1:06d}"
        events.append(
            {
                "id": eid,
                "merchant_id": merchant,
                "type": type,
                "object_id": obj,
                "summary": summary,
                "created_at": when,
            }
        )
        for e in hooks.get(merchant, []):
            if e["events"] != "*" and type not in e["events"].split(","):
                continue
            failed = e["health"] == "failing" or s.chance(0.02)
            for attempt in range(1, 3 if failed and s.chance(0.3) else 2):
                at = datetime.fromisoformat(when) + timedelta(minutes=2 + 60 * (attempt - 1))
                deliveries.append(
                    {
                        "id": f"DLV-{len(deliveries) + 1:06d}",
                        "event_id": eid,
                        "endpoint_id": e["id"],
                        "status": "failed" if failed else "succeeded",
                        "attempt": attempt,
                        "response_code": s.pick([500, 502, 504]) if failed else 200,
                        "at": min(at.isoformat(timespec="seconds"), now),
                    }
                )
    s.add(Event, events)
    s.add(Delivery, deliveries)


def _payouts_and_balances(s: Seeder, merchants: list[dict], b: Billing) -> list[dict]:
    """Eight payouts per merchant over two months (the latest ones still on their way); what is
    left of the volume is the available balance, the last two days' captures are pending."""
    volume: dict[str, float] = {}
    recent: dict[str, float] = {}
    two_days = (s.now - timedelta(days=2)).isoformat(timespec="seconds")
    for p in b.payments:
        net = p["amount_captured"] - p["amount_refunded"] if p["status"] == "succeeded" else 0.0
        volume[p["merchant_id"]] = volume.get(p["merchant_id"], 0.0) + net
        if p["created_at"] >= two_days:
            recent[p["merchant_id"]] = recent.get(p["merchant_id"], 0.0) + net
    out: list[dict] = []
    for i, m in enumerate(merchants):
        share = volume.get(m["id"], 0.0) / 12
        for k in range(8):
            created = s.now - timedelta(days=7 * (8 - k), hours=s.rng.randint(1, 6)) + timedelta(days=6)
            status = "paid" if created < s.now - timedelta(days=4) else "pending"
            if status == "paid" and s.chance(0.04):
                status = s.pick(["failed", "canceled"])
            out.append(
                {
                    "id": f"POU-{len(out) + 1:06d}",
                    "merchant_id": m["id"],
                    "amount": round(max(25.0, share * s.rng.uniform(0.6, 1.1)), 2),
                    "currency": m["currency"],
                    "status": status,
                    "arrival_day": (created + timedelta(days=2)).date().isoformat(),
                    "created_at": created.isoformat(timespec="seconds"),
                }
            )
        low = i % 14 == 3  # a few merchants have almost nothing left to pay out
        m["available_balance"] = (
            s.money(0, 60) if low else round(volume.get(m["id"], 0.0) * s.rng.uniform(0.1, 0.3), 2)
        )
        m["pending_balance"] = round(recent.get(m["id"], 0.0), 2)
    s.conn.executemany(
        "UPDATE merchants SET available_balance = ?, pending_balance = ? WHERE id = ?",
        [(m["available_balance"], m["pending_balance"], m["id"]) for m in merchants],
    )
    return s.add(Payout, out)


def seed_events(s: Seeder, merchants: list[dict], customers: list[dict], b: Billing) -> None:
    endpoints = _endpoints(s, merchants)
    payouts = _payouts_and_balances(s, merchants, b)
    _log(s, b, endpoints, payouts)
