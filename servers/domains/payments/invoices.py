"""Invoices: listing, drafting, adding lines, finalizing, voiding and writing off."""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated, Literal

from pydantic import AfterValidator, Field

from servers.domains.payments.model import (
    DUE_DAYS,
    Customer,
    Delivery,
    Event,
    Invoice,
    InvoiceLine,
    Merchant,
    Product,
    payments,
)
from servers.domains.payments.rules import LIVE_CUSTOMER, VOIDABLE, _emit, _live_customer, _m, _money
from servers.kit import Db, Offset, PageSize, Quantity, Ref, ToolError, whole_cents

DueDays = Annotated[
    int,
    Field(ge=DUE_DAYS[0], le=DUE_DAYS[1], description="Days after finalizing that payment is due (1-90)."),
]
Memo = Annotated[
    str,
    Field(
        min_length=1,
        max_length=500,
        examples=["Thank you for your business", "Net 30 as agreed", "PO 4471", "May services"],
    ),
]
LineText = Annotated[
    str,
    Field(
        min_length=1,
        max_length=200,
        examples=[
            "Consulting, 3 hours",
            "Setup fee",
            "Monthly plan - June",
            "Rush delivery",
            "Replacement part",
        ],
    ),
]
UnitAmount = Annotated[
    float,
    Field(ge=0.01, le=100_000, description="Price of one unit in the merchant's currency, e.g. 49.99."),
    AfterValidator(whole_cents),
]
ListStatus = Literal["draft", "open", "paid", "uncollectible", "void"]


def _invoice(db: Db, invoice_id: str) -> dict:
    return db.get(Invoice, invoice_id)


def _refuse(inv: dict, doing: str, allowed: str, hint: str = "") -> None:
    raise ToolError(
        f"invoice {inv['id']} is {inv['status']}; only {allowed} invoices can be {doing}"
        + (f" — {hint}" if hint else "")
    )


@payments.tool(
    returns=Invoice,
    says=[
        "list the {status} invoices of {merchant}",
        "list the invoices for {customer} from {merchant}",
        "show the overdue invoices of {merchant}",
    ],
)
def list_invoices(
    db: Db,
    merchant: Ref[Merchant],
    customer: Ref[Customer] | None = None,
    status: ListStatus | None = None,
    overdue_only: bool = False,
    limit: PageSize = 20,
    offset: Offset = 0,
) -> dict:
    """A merchant's invoices, newest first, by customer and status. Overdue = open and past its due date.

    Args:
        merchant: The merchant whose invoices to list.
        customer: Only this customer's invoices (a customer of the merchant).
        status: draft, open, paid, uncollectible or void.
        overdue_only: Only open invoices whose due date has passed.
    """
    db.get(Merchant, merchant)
    where, params = ["merchant_id = ?"], [merchant]
    if customer is not None:
        c = db.get(Customer, customer)
        if c["merchant_id"] != merchant:
            raise ToolError(
                f"customer {customer} is a customer of merchant {c['merchant_id']}, not of {merchant}"
            )
        where.append("customer_id = ?")
        params.append(customer)
    if status is not None:
        where.append("status = ?")
        params.append(status)
    if overdue_only:
        where.append("status = 'open' AND due_date < ?")
        params.append(db.today.isoformat())
    sql = (
        "SELECT id, merchant_id, customer_id, number, status, currency, total, amount_paid, amount_due, "
        f"credited, due_date, created_at FROM invoices WHERE {' AND '.join(where)} ORDER BY created_at DESC, id DESC"
    )
    return db.page(sql, *params, limit=limit, offset=offset, key="invoices")


@payments.tool(
    returns=Invoice,
    says=["show me invoice {invoice} with its lines and payments", "what's on invoice {invoice}?"],
)
def get_invoice(db: Db, invoice: Ref[Invoice]) -> dict:
    """One invoice with its lines, the payments made against it (failed attempts too) and its credit notes."""
    inv = _invoice(db, invoice)
    inv["lines"] = db.all("SELECT * FROM invoice_lines WHERE invoice_id = ? ORDER BY id", invoice)
    inv["payments"] = db.all(
        "SELECT id, amount, amount_refunded, status, failure_code, method_id, created_at FROM payments "
        "WHERE invoice_id = ? ORDER BY id",
        invoice,
    )
    inv["credit_notes"] = db.all("SELECT * FROM credit_notes WHERE invoice_id = ? ORDER BY id", invoice)
    inv["overdue"] = inv["status"] == "open" and (inv["due_date"] or "9999") < db.today.isoformat()
    return inv


@payments.tool(
    writes=[Invoice, Event, Delivery],
    returns=Invoice,
    says=[
        "start a draft invoice for {customer}, due in {due_days} days",
        "create an invoice for {customer} payable within {due_days} days with the memo '{memo}'",
    ],
)
def create_invoice(
    db: Db, customer: Ref[Customer, "deleted = 0"], due_days: DueDays = 30, memo: Memo | None = None
) -> dict:
    """Create an empty draft invoice for a customer, in the merchant's currency. Add lines, then finalize.

    Args:
        customer: Who is billed.
        due_days: Days after finalizing that payment is due (1-90).
        memo: A note printed on the invoice.
    """
    c = _live_customer(db, customer)
    m = db.get(Merchant, c["merchant_id"])
    inv = db.insert(
        Invoice,
        merchant_id=m["id"],
        customer_id=customer,
        number=None,
        status="draft",
        currency=m["currency"],
        memo=memo,
        subtotal=0.0,
        total=0.0,
        amount_paid=0.0,
        amount_due=0.0,
        credited=0.0,
        attempt_count=0,
        due_days=due_days,
        due_date=None,
        created_at=db.stamp(),
        finalized_at=None,
        paid_at=None,
        voided_at=None,
    )
    _emit(db, m["id"], "invoice.created", inv["id"], f"draft for {c['name']}")
    return inv


@payments.tool(
    writes=[InvoiceLine, Invoice, Event, Delivery],
    returns=InvoiceLine,
    says=[
        "add {quantity} x '{description}' at {unit_amount} each to invoice {invoice}",
        "put a line '{description}' for {unit_amount} on invoice {invoice}",
    ],
)
def add_invoice_line(
    db: Db,
    invoice: Ref[Invoice, "status = 'draft'"],
    description: LineText,
    unit_amount: UnitAmount,
    quantity: Quantity = 1,
    product: Ref[Product, "active = 1"] | None = None,
) -> dict:
    """Add a line to a draft invoice; finalized invoices never change (adjust them with a credit note).

    Args:
        invoice: A draft invoice.
        description: What the line is for.
        unit_amount: Price of one unit.
        quantity: How many units.
        product: The catalogue product the line sells, if any (it must be the merchant's and active).
    """
    inv = _invoice(db, invoice)
    if inv["status"] != "draft":
        _refuse(inv, "edited", "draft", "finalized invoices are adjusted with a credit note")
    if product is not None:
        p = db.get(Product, product)
        if p["merchant_id"] != inv["merchant_id"] or not p["active"]:
            raise ToolError(f"product {product} is not an active product of merchant {inv['merchant_id']}")
    amount = round(quantity * unit_amount, 2)
    line = db.insert(
        InvoiceLine,
        invoice_id=invoice,
        product_id=product,
        description=description,
        quantity=quantity,
        unit_amount=unit_amount,
        amount=amount,
    )
    total = round(inv["subtotal"] + amount, 2)
    db.update(Invoice, invoice, subtotal=total, total=total, amount_due=total)
    _emit(db, inv["merchant_id"], "invoice.updated", invoice, f"line {description}: {_m(amount)}")
    return {**line, "invoice_total": total}


@payments.tool(
    writes=[Invoice, Event, Delivery],
    returns=Invoice,
    idempotent=True,
    says=["finalize invoice {invoice} so it can be sent", "invoice {invoice} is ready — finalize it"],
)
def finalize_invoice(
    db: Db, invoice: Ref[Invoice, f"+status = 'draft' AND total > 0 AND {LIVE_CUSTOMER}"]
) -> dict:
    """Finalize a draft: it becomes open, gets the merchant's next invoice number and a due date.
    Needs at least one line, a total above zero and a customer that was not deleted."""
    inv = _invoice(db, invoice)
    if inv["status"] != "draft":
        _refuse(inv, "finalized", "draft")
    lines = db.scalar("SELECT count(*) FROM invoice_lines WHERE invoice_id = ?", invoice)
    if not lines or inv["total"] <= 0:
        raise ToolError(
            f"invoice {invoice} has {lines} lines and a total of {_m(inv['total'])}; add a line first"
        )
    _live_customer(db, inv["customer_id"])
    m = db.get(Merchant, inv["merchant_id"])
    n = 1 + db.scalar("SELECT count(*) FROM invoices WHERE merchant_id = ? AND number IS NOT NULL", m["id"])
    due = (db.today + timedelta(days=inv["due_days"])).isoformat()
    out = db.update(
        Invoice,
        invoice,
        status="open",
        number=f"{m['invoice_prefix']}{n:05d}",
        finalized_at=db.stamp(),
        due_date=due,
        amount_due=inv["total"],
    )
    _emit(
        db,
        m["id"],
        "invoice.finalized",
        invoice,
        f"{out['number']} for {_money(inv['total'], inv['currency'])}",
    )
    return out


@payments.tool(
    writes=[Invoice, Event, Delivery],
    returns=Invoice,
    destructive=True,
    idempotent=True,
    says=["void invoice {invoice}, it was sent by mistake", "cancel invoice {invoice} — void it"],
)
def void_invoice(db: Db, invoice: Ref[Invoice, VOIDABLE]) -> dict:
    """Void an open or uncollectible invoice: nothing more is owed on it. Paid and void invoices are
    final (a paid one is adjusted with a credit note); a draft is simply never finalized."""
    inv = _invoice(db, invoice)
    if inv["status"] not in ("open", "uncollectible"):
        hint = "issue a credit note instead" if inv["status"] == "paid" else ""
        _refuse(inv, "voided", "open or uncollectible", hint)
    if inv["amount_paid"] > 0:
        raise ToolError(
            f"invoice {invoice} already has {_m(inv['amount_paid'])} paid on it; issue a credit note instead"
        )
    out = db.update(Invoice, invoice, status="void", voided_at=db.stamp(), amount_due=0.0)
    _emit(db, inv["merchant_id"], "invoice.voided", invoice, f"{inv['number']} voided")
    return out


@payments.tool(
    writes=[Invoice, Event, Delivery],
    returns=Invoice,
    idempotent=True,
    says=[
        "write off invoice {invoice} as uncollectible",
        "mark invoice {invoice} uncollectible, they're never paying",
    ],
)
def mark_invoice_uncollectible(db: Db, invoice: Ref[Invoice, "status = 'open'"]) -> dict:
    """Mark an open invoice uncollectible (a bad debt). It can still be paid or voided later."""
    inv = _invoice(db, invoice)
    if inv["status"] != "open":
        _refuse(inv, "marked uncollectible", "open")
    out = db.update(Invoice, invoice, status="uncollectible")
    _emit(db, inv["merchant_id"], "invoice.marked_uncollectible", invoice, f"{inv['number']} written off")
    return out
