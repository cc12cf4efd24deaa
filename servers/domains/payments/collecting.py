"""Collecting on invoices: paying one now (credit balance first, then a card) and credit notes."""

from __future__ import annotations

from servers.domains.payments.model import (
    CreditNote,
    CreditReason,
    Customer,
    Delivery,
    Event,
    Invoice,
    Merchant,
    Payment,
    PaymentMethod,
    Refund,
    payments,
)
from servers.domains.payments.rules import (
    CREDITABLE,
    PAYABLE,
    _active_merchant,
    _charge,
    _emit,
    _live_customer,
    _m,
    _method_for,
    _min_charge,
    _money,
    _refund,
)
from servers.kit import Db, Money, Ref, ToolError


def _still_delinquent(db: Db, customer_id: str, paid_invoice: str) -> bool:
    return bool(
        db.scalar(
            "SELECT count(*) FROM invoices WHERE customer_id = ? AND status = 'open' AND attempt_count > 0 "
            "AND id != ?",
            customer_id,
            paid_invoice,
        )
    )


def _mark_paid(db: Db, inv: dict, paid: float) -> dict:
    return db.update(
        Invoice,
        inv["id"],
        status="paid",
        amount_paid=round(inv["amount_paid"] + paid, 2),
        amount_due=0.0,
        paid_at=db.stamp(),
    )


@payments.tool(
    writes=[Invoice, Payment, Customer, Merchant, Event, Delivery],
    returns=Invoice,
    says=[
        "charge invoice {invoice} now",
        "collect payment on invoice {invoice} with payment method {payment_method}",
        "try to pay invoice {invoice} with the customer's saved card",
    ],
)
def pay_invoice(
    db: Db,
    invoice: Ref[Invoice, PAYABLE],
    payment_method: Ref[PaymentMethod, "status = 'active'"] | None = None,
) -> dict:
    """Pay an open (or uncollectible) invoice now. The customer's credit balance is used first, the
    rest is charged to the given method or the customer's default. A declined card is a real
    outcome, not an error: the failed payment is recorded, the invoice stays open and the customer
    is flagged delinquent; the result says why it was declined.

    Args:
        invoice: The invoice to collect.
        payment_method: The customer's card or bank account to charge (default: their default method).
    """
    inv = db.get(Invoice, invoice)
    if inv["status"] not in ("open", "uncollectible"):
        hint = {
            "draft": "finalize it first",
            "paid": "it is already paid",
            "void": "voided invoices are final",
        }
        raise ToolError(
            f"invoice {invoice} is {inv['status']}; only open or uncollectible invoices can be paid — {hint[inv['status']]}"
        )
    merchant = _active_merchant(db, inv["merchant_id"], "collect payments")
    customer = _live_customer(db, inv["customer_id"])
    due = inv["amount_due"]
    credit = round(min(customer["credit_balance"], due), 2)
    rest = round(due - credit, 2)
    pay = None
    if rest > 0:
        _min_charge(rest, inv["currency"])
        pm = _method_for(db, customer, payment_method)
        pay = _charge(db, merchant, customer, pm, rest, f"Invoice {inv['number']}", invoice_id=invoice)
        if pay["status"] == "failed":
            inv = db.update(Invoice, invoice, attempt_count=inv["attempt_count"] + 1)
            db.update(Customer, customer["id"], delinquent=True)
            _emit(
                db,
                merchant["id"],
                "invoice.payment_failed",
                invoice,
                f"{inv['number']}: {pay['failure_code']}",
            )
            return {**inv, "paid": False, "declined": pay["failure_code"], "payment": pay}
    if credit:
        db.update(Customer, customer["id"], credit_balance=round(customer["credit_balance"] - credit, 2))
    db.update(Customer, customer["id"], delinquent=_still_delinquent(db, customer["id"], invoice))
    inv = _mark_paid(db, inv, due)
    _emit(
        db, merchant["id"], "invoice.paid", invoice, f"{inv['number']} paid: {_money(due, inv['currency'])}"
    )
    return {**inv, "paid": True, "credit_applied": credit, "charged": rest, "payment": pay}


def _post_payment_room(db: Db, inv: dict) -> float:
    done = db.scalar(
        "SELECT coalesce(sum(amount), 0) FROM credit_notes WHERE invoice_id = ? AND kind = 'post_payment'",
        inv["id"],
    )
    return round(inv["amount_paid"] - done, 2)


def _refund_for_note(db: Db, inv: dict, amount: float, reason: str) -> str:
    pay = db.one(
        "SELECT * FROM payments WHERE invoice_id = ? AND status = 'succeeded' ORDER BY id DESC LIMIT 1",
        inv["id"],
    )
    if pay is None:
        raise ToolError(
            f"invoice {inv['id']} was paid from the customer's credit balance, not by a payment; "
            "use refund=false to credit the balance again"
        )
    refund, _ = _refund(
        db, pay, amount, reason if reason in ("duplicate", "fraudulent") else "requested_by_customer"
    )
    return refund["id"]


def _note_kind(db: Db, inv: dict, amount: float, refund: bool, reason: str | None) -> tuple[str, str | None]:
    """Before payment a note lowers what is due; after, it refunds the card or credits the customer's
    balance. Returns the note's kind and the refund it made, if any."""
    invoice, cur = inv["id"], inv["currency"]
    refund_id = None
    if inv["status"] == "open":
        if refund:
            raise ToolError(
                f"nothing has been paid on open invoice {invoice}; a credit note lowers its amount due"
            )
        if amount > inv["amount_due"]:
            raise ToolError(
                f"credit {_money(amount, cur)} is more than the {_money(inv['amount_due'], cur)} due on {invoice}"
            )
        kind = "pre_payment"
    else:
        room = _post_payment_room(db, inv)
        if amount > room:
            raise ToolError(f"only {_money(room, cur)} of what was paid on {invoice} is left to credit")
        kind = "post_payment"
        if refund:
            refund_id = _refund_for_note(db, inv, amount, reason)
        else:
            c = db.get(Customer, inv["customer_id"])
            db.update(Customer, c["id"], credit_balance=round(c["credit_balance"] + amount, 2))
    return kind, refund_id


@payments.tool(
    writes=[CreditNote, Invoice, Customer, Refund, Payment, Merchant, Event, Delivery],
    returns=CreditNote,
    says=[
        "issue a credit note of {amount} on invoice {invoice} because of {reason}",
        "credit {amount} on invoice {invoice} and refund it to the card",
        "take {amount} off invoice {invoice} ({reason})",
    ],
)
def create_credit_note(
    db: Db,
    invoice: Ref[Invoice, CREDITABLE],
    amount: Money,
    reason: CreditReason = "order_change",
    refund: bool = False,
) -> dict:
    """Adjust a finalized invoice. On an open invoice the credit lowers the amount due (reaching
    zero marks it paid). On a paid invoice it is refunded to the invoice's payment (refund=true)
    or added to the customer's credit balance for future invoices. Credit notes never add up to
    more than the invoice total.

    Args:
        invoice: An open or paid invoice.
        amount: How much to credit.
        reason: duplicate, fraudulent, order_change or product_unsatisfactory.
        refund: Paid invoices only: send the money back to the card instead of crediting the balance.
    """
    inv = db.get(Invoice, invoice)
    cur = inv["currency"]
    if inv["status"] not in ("open", "paid"):
        raise ToolError(
            f"invoice {invoice} is {inv['status']}; credit notes can only adjust open or paid invoices"
        )
    if round(inv["credited"] + amount, 2) > inv["total"]:
        raise ToolError(
            f"credit notes on invoice {invoice} would reach {_m(inv['credited'] + amount)}, more than its total "
            f"{_money(inv['total'], cur)} ({_m(inv['credited'])} credited already)"
        )
    kind, refund_id = _note_kind(db, inv, amount, refund, reason)
    note = db.insert(
        CreditNote,
        invoice_id=invoice,
        amount=amount,
        reason=reason,
        kind=kind,
        refund_id=refund_id,
        created_at=db.stamp(),
    )
    inv = _apply_note(db, inv, amount, kind)
    _emit(
        db, inv["merchant_id"], "credit_note.created", note["id"], f"{_money(amount, cur)} on {inv['number']}"
    )
    return {**note, "invoice": inv}


def _apply_note(db: Db, inv: dict, amount: float, kind: str) -> dict:
    credited = round(inv["credited"] + amount, 2)
    if kind == "post_payment":
        return db.update(Invoice, inv["id"], credited=credited)
    due = round(inv["amount_due"] - amount, 2)
    if due > 0:
        return db.update(Invoice, inv["id"], credited=credited, amount_due=due)
    out = db.update(Invoice, inv["id"], credited=credited, amount_due=0.0, status="paid", paid_at=db.stamp())
    _emit(db, inv["merchant_id"], "invoice.paid", inv["id"], f"{inv['number']} settled by credit note")
    return out
