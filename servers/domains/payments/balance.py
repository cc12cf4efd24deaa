"""A merchant's balance and payouts to its bank account."""

from __future__ import annotations

from servers.domains.payments.model import (
    MIN_PAYOUT,
    PAYOUT_DAYS,
    Delivery,
    Event,
    Merchant,
    Payout,
    payments,
)
from servers.domains.payments.rules import _active_merchant, _business_days_after, _emit, _m, _money
from servers.kit import Db, Money, Ref, ToolError


@payments.tool(
    returns=Merchant,
    says=["what is the balance of {merchant}?", "how much can {merchant} pay out right now?"],
)
def get_balance(db: Db, merchant: Ref[Merchant]) -> dict:
    """A merchant's available balance (can be paid out), pending balance (recent captures not yet
    settled), whether payouts are enabled, and the five latest payouts."""
    m = db.get(Merchant, merchant)
    return {
        "merchant": merchant,
        "name": m["name"],
        "status": m["status"],
        "currency": m["currency"],
        "available_balance": m["available_balance"],
        "pending_balance": m["pending_balance"],
        "payouts_enabled": bool(m["payouts_enabled"]),
        "recent_payouts": db.all(
            "SELECT * FROM payouts WHERE merchant_id = ? ORDER BY created_at DESC, id DESC LIMIT 5", merchant
        ),
    }


@payments.tool(
    writes=[Payout, Merchant, Event, Delivery],
    returns=Payout,
    says=[
        "pay out {amount} from the balance of {merchant}",
        "send {amount} of the available balance of {merchant} to the bank",
    ],
)
def create_payout(
    db: Db,
    merchant: Ref[Merchant, "status = 'active' AND payouts_enabled = 1 AND available_balance >= 1"],
    amount: Money,
) -> dict:
    """Send part of a merchant's available balance to its bank (at least 1.00; it arrives in two
    business days). The account must be active with payouts enabled.

    Args:
        merchant: The merchant.
        amount: How much to pay out.
    """
    m = _active_merchant(db, merchant, "pay out")
    cur = m["currency"]
    if not m["payouts_enabled"]:
        raise ToolError(
            f"payouts are disabled for merchant {merchant} ({m['name']}); add a verified bank account first"
        )
    if amount < MIN_PAYOUT:
        raise ToolError(f"payouts start at {_money(MIN_PAYOUT, cur)}; got {_money(amount, cur)}")
    if amount > m["available_balance"]:
        raise ToolError(
            f"cannot pay out {_money(amount, cur)}: the available balance of {merchant} is {_m(m['available_balance'])} "
            f"({_m(m['pending_balance'])} is still pending)"
        )
    db.update(Merchant, merchant, available_balance=round(m["available_balance"] - amount, 2))
    p = db.insert(
        Payout,
        merchant_id=merchant,
        amount=amount,
        currency=cur,
        status="pending",
        arrival_day=_business_days_after(db, PAYOUT_DAYS),
        created_at=db.stamp(),
    )
    _emit(db, merchant, "payout.created", p["id"], f"{_money(amount, cur)} arriving {p['arrival_day']}")
    return {**p, "available_balance": round(m["available_balance"] - amount, 2)}


@payments.tool(
    writes=[Payout, Merchant, Event, Delivery],
    returns=Payout,
    destructive=True,
    idempotent=True,
    says=["cancel payout {payout}", "stop the pending payout {payout} and keep the money in the balance"],
)
def cancel_payout(db: Db, payout: Ref[Payout, "status = 'pending'"]) -> dict:
    """Cancel a pending payout; its amount returns to the available balance."""
    p = db.get(Payout, payout)
    if p["status"] != "pending":
        raise ToolError(f"payout {payout} is {p['status']}; only pending payouts can be canceled")
    m = db.get(Merchant, p["merchant_id"])
    balance = round(m["available_balance"] + p["amount"], 2)
    db.update(Merchant, m["id"], available_balance=balance)
    out = db.update(Payout, payout, status="canceled")
    _emit(db, m["id"], "payout.canceled", payout, f"{_money(p['amount'], p['currency'])} back to balance")
    return {**out, "available_balance": balance}
