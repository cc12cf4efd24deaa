"""What several tools share: money formatting, the event log and its deliveries, and the charge
engine (which method pays, whether the issuer approves, what the balance gains). The SQL
conditions here are the same ones the sampler's ``Ref`` conditions use."""

from __future__ import annotations

from datetime import timedelta

from servers.domains.payments.model import (
    MIN_CHARGE,
    Customer,
    Delivery,
    Event,
    Merchant,
    Payment,
    PaymentMethod,
    Refund,
)
from servers.kit import Db, ToolError, marks

# -- sampler conditions (each also enforced by the tools, with an error) ------------------------

# Invoice conditions carry a unary plus on ``status``: a status is shared by a quarter to a half
# of all invoices, and SQLite, without statistics, walked that index even for a pick among one
# customer's few invoices (a related pick: 1.6 ms -> 0.1 ms). Conditions on a row's own parent or
# children are correlated ``EXISTS`` lookups, so checking one row does not rebuild a list of all.
ACTIVE_MERCHANT = "merchant_id IN (SELECT id FROM merchants WHERE status = 'active')"
LIVE_CUSTOMER = "EXISTS (SELECT 1 FROM customers c WHERE c.id = invoices.customer_id AND c.deleted = 0)"
CHARGEABLE = f"deleted = 0 AND default_method_id IS NOT NULL AND {ACTIVE_MERCHANT}"
PAYABLE = (
    "+status IN ('open', 'uncollectible') AND amount_due >= 0.5 "
    "AND EXISTS (SELECT 1 FROM merchants m WHERE m.id = invoices.merchant_id AND m.status = 'active')"
)
CREDITABLE = "+status IN ('open', 'paid') AND credited < total"
VOIDABLE = "+status IN ('open', 'uncollectible')"
REFUNDABLE = "status = 'succeeded' AND amount_refunded < amount_captured"
# a failed delivery to an enabled endpoint since 2026-05-03 (events within the 30 resendable days),
# looked up among the event's own deliveries (the unary plus keeps SQLite on the event_id index
# instead of walking every failed delivery for each event)
RESENDABLE = (
    "EXISTS (SELECT 1 FROM deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id "
    "WHERE d.event_id = events.id AND +d.status = 'failed' AND +d.at >= '2026-05-03' AND w.status = 'enabled')"
)


def _m(x: float) -> str:
    return f"{x:,.2f}"


def _money(x: float, currency: str) -> str:
    return f"{_m(x)} {currency.upper()}"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _public_method(pm: dict) -> dict:
    return {k: v for k, v in pm.items() if k not in marks(PaymentMethod).hidden}


def _live_customer(db: Db, customer_id: str) -> dict:
    c = db.get(Customer, customer_id)
    if c["deleted"]:
        raise ToolError(
            f"customer {customer_id} ({c['name']}) was deleted; deleted customers cannot be billed"
        )
    return c


def _active_merchant(db: Db, merchant_id: str, doing: str) -> dict:
    m = db.get(Merchant, merchant_id)
    if m["status"] != "active":
        raise ToolError(
            f"merchant {merchant_id} ({m['name']}) is {m['status']}; a restricted account cannot {doing} "
            "until its verification is complete (refunds and reads still work)"
        )
    return m


def _min_charge(amount: float, currency: str) -> None:
    low = MIN_CHARGE[currency]
    if amount < low:
        raise ToolError(
            f"amount {_money(amount, currency)} is below the minimum charge of {_money(low, currency)}"
        )


# -- the event log ------------------------------------------------------------------------------


def _subscribed(endpoint: dict, type: str) -> bool:
    events = endpoint["events"].split(",")
    return "*" in events or type in events


def _deliver(db: Db, event_id: str, endpoint: dict, attempt: int) -> str:
    """Post one event to one endpoint: the endpoint's (hidden) health decides the answer."""
    ok = endpoint["health"] == "ok"
    return db.add(
        Delivery,
        event_id=event_id,
        endpoint_id=endpoint["id"],
        status="succeeded" if ok else "failed",
        attempt=attempt,
        response_code=200 if ok else 500,
        at=db.stamp(),
    )


def _emit(db: Db, merchant_id: str, type: str, object_id: str, summary: str) -> str:
    """Append an event and deliver it to every enabled endpoint of the merchant subscribed to it."""
    eid = db.add(
        Event, merchant_id=merchant_id, type=type, object_id=object_id, summary=summary, created_at=db.stamp()
    )
    endpoints = db.all(
        "SELECT * FROM webhook_endpoints WHERE merchant_id = ? AND status = 'enabled' ORDER BY id",
        merchant_id,
    )
    for ep in endpoints:
        if _subscribed(ep, type):
            _deliver(db, eid, ep, 1)
    return eid


# -- charging -----------------------------------------------------------------------------------


def _method_for(db: Db, customer: dict, method_id: str | None) -> dict:
    """The method a charge uses: the one given (it must be this customer's) or the default."""
    if method_id is None:
        method_id = customer["default_method_id"]
        if method_id is None:
            raise ToolError(
                f"customer {customer['id']} ({customer['name']}) has no default payment method; "
                "pass payment_method or attach a card first"
            )
    pm = db.get(PaymentMethod, method_id)
    if pm["customer_id"] != customer["id"]:
        raise ToolError(
            f"payment method {method_id} belongs to customer {pm['customer_id']}, not to {customer['id']}"
        )
    return pm


def _decline(db: Db, pm: dict) -> str | None:
    """Why the issuer refuses this method (None: it approves). Deterministic: status, expiry, issuer."""
    if pm["status"] == "detached":
        return "payment_method_detached"
    month = db.today.year * 12 + db.today.month
    if pm["status"] == "expired" or (
        pm["exp_year"] is not None and pm["exp_year"] * 12 + pm["exp_month"] < month
    ):
        return "expired_card"
    return pm["decline_code"]


def _charge(
    db: Db,
    merchant: dict,
    customer: dict,
    pm: dict,
    amount: float,
    description: str,
    *,
    invoice_id: str | None = None,
    capture: bool = True,
) -> dict:
    """Attempt a charge and record it whatever the outcome: a decline is a committed ``failed``
    payment (with its event), not an error. Captured money lands in the pending balance."""
    failure = _decline(db, pm)
    status = "failed" if failure else ("succeeded" if capture else "requires_capture")
    captured = amount if status == "succeeded" else 0.0
    pay = db.insert(
        Payment,
        merchant_id=merchant["id"],
        customer_id=customer["id"],
        invoice_id=invoice_id,
        method_id=pm["id"],
        amount=amount,
        amount_captured=captured,
        amount_refunded=0.0,
        currency=merchant["currency"],
        status=status,
        failure_code=failure,
        description=description,
        created_at=db.stamp(),
        captured_at=db.stamp() if captured else None,
    )
    what = f"{_money(amount, merchant['currency'])} from {customer['name']} ({pm['brand']} {pm['last4']})"
    if status == "failed":
        _emit(db, merchant["id"], "payment.failed", pay["id"], f"{what} declined: {failure}")
    elif status == "requires_capture":
        _emit(db, merchant["id"], "payment.authorized", pay["id"], f"{what} authorized")
    else:
        _add_pending(db, merchant["id"], amount)
        _emit(db, merchant["id"], "payment.succeeded", pay["id"], f"{what} succeeded")
    return pay


def _add_pending(db: Db, merchant_id: str, amount: float) -> None:
    db.execute(
        "UPDATE merchants SET pending_balance = round(pending_balance + ?, 2) WHERE id = ?",
        amount,
        merchant_id,
    )


def _take_from_balance(db: Db, merchant: dict, amount: float, doing: str) -> None:
    """Refunds come out of the available balance first, then the pending one."""
    available, pending = merchant["available_balance"], merchant["pending_balance"]
    if available + pending < amount:
        raise ToolError(
            f"cannot {doing} {_money(amount, merchant['currency'])}: merchant {merchant['id']} holds "
            f"{_m(available)} available and {_m(pending)} pending"
        )
    from_available = min(max(available, 0.0), amount)
    db.update(
        Merchant,
        merchant["id"],
        available_balance=round(available - from_available, 2),
        pending_balance=round(pending - (amount - from_available), 2),
    )


def _business_days_after(db: Db, days: int) -> str:
    d = db.today
    while days:
        d += timedelta(days=1)
        if d.weekday() < 5:
            days -= 1
    return d.isoformat()


def _refund(db: Db, pay: dict, amount: float | None, reason: str) -> tuple[dict, dict]:
    """Refund part or all of what is left of a captured payment; returns (refund, payment)."""
    pid, cur = pay["id"], pay["currency"]
    if pay["status"] == "disputed":
        raise ToolError(
            f"payment {pid} is disputed; a disputed payment cannot be refunded — respond to the dispute"
        )
    if pay["status"] == "requires_capture":
        raise ToolError(f"payment {pid} was only authorized, never captured; cancel it to release the hold")
    if pay["status"] != "succeeded":
        raise ToolError(f"payment {pid} is {pay['status']}; only succeeded payments can be refunded")
    left = round(pay["amount_captured"] - pay["amount_refunded"], 2)
    if left <= 0:
        raise ToolError(f"payment {pid} was already fully refunded ({_money(pay['amount_refunded'], cur)})")
    amount = left if amount is None else amount
    if amount > left:
        raise ToolError(
            f"refund amount ({_money(amount, cur)}) is greater than the unrefunded amount on payment {pid} "
            f"({_money(left, cur)}: {_m(pay['amount_captured'])} captured, {_m(pay['amount_refunded'])} refunded)"
        )
    merchant = db.get(Merchant, pay["merchant_id"])
    _take_from_balance(db, merchant, amount, "refund")
    refund = db.insert(
        Refund, payment_id=pid, amount=amount, reason=reason, status="succeeded", created_at=db.stamp()
    )
    pay = db.update(Payment, pid, amount_refunded=round(pay["amount_refunded"] + amount, 2))
    _emit(db, merchant["id"], "refund.created", refund["id"], f"{_money(amount, cur)} of {pid} ({reason})")
    return refund, pay
