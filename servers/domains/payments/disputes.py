"""Disputes: a cardholder contested a payment with their bank. The merchant answers with evidence
before the deadline, or accepts the loss."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from servers.domains.payments.model import Delivery, Dispute, DisputeStatus, Event, Merchant, payments
from servers.domains.payments.rules import _emit
from servers.kit import Db, Offset, PageSize, Ref, ToolError

Evidence = Annotated[
    str,
    Field(
        min_length=10,
        max_length=4000,
        examples=[
            "Signed delivery receipt attached; the customer collected the order in store.",
            "The customer used the service on three dates; access logs attached.",
            "This charge is not a duplicate: the two orders were for different items.",
            "The customer agreed to the cancellation policy at checkout.",
        ],
    ),
]


def _open(db: Db, dispute_id: str, doing: str) -> dict:
    d = db.get(Dispute, dispute_id)
    if d["status"] != "needs_response":
        raise ToolError(
            f"dispute {dispute_id} is {d['status']}; only disputes that need a response can be {doing}"
        )
    return d


@payments.tool(
    returns=Dispute,
    says=["list the disputes of {merchant}", "show the disputes of {merchant} with status {status}"],
)
def list_disputes(
    db: Db,
    merchant: Ref[Merchant],
    status: DisputeStatus | None = None,
    limit: PageSize = 20,
    offset: Offset = 0,
) -> dict:
    """A merchant's disputes, soonest deadline first, with the disputed payment.

    Args:
        merchant: The merchant.
        status: needs_response, under_review, won or lost.
    """
    db.get(Merchant, merchant)
    sql = "SELECT * FROM disputes WHERE merchant_id = ?" + (" AND status = ?" if status else "")
    params = [merchant, status] if status else [merchant]
    return db.page(sql + " ORDER BY due_by, id", *params, limit=limit, offset=offset, key="disputes")


@payments.tool(
    writes=[Dispute, Event, Delivery],
    returns=Dispute,
    says=[
        "answer dispute {dispute} with this evidence: {evidence}",
        "submit evidence for dispute {dispute}: {evidence}",
    ],
)
def submit_dispute_evidence(
    db: Db, dispute: Ref[Dispute, "status = 'needs_response' AND due_by >= '2026-06-01'"], evidence: Evidence
) -> dict:
    """Send evidence for a dispute that needs a response, before its deadline; the bank then reviews it.

    Args:
        dispute: The dispute.
        evidence: What shows the payment was legitimate.
    """
    d = _open(db, dispute, "answered")
    if d["due_by"] < db.today.isoformat():
        raise ToolError(
            f"the deadline to answer dispute {dispute} was {d['due_by']}; it can no longer be answered"
        )
    out = db.update(Dispute, dispute, status="under_review", evidence=evidence)
    _emit(db, d["merchant_id"], "dispute.updated", dispute, "evidence submitted")
    return out


@payments.tool(
    writes=[Dispute, Event, Delivery],
    returns=Dispute,
    destructive=True,
    idempotent=True,
    says=["accept dispute {dispute}, we won't fight it", "close dispute {dispute} and take the loss"],
)
def accept_dispute(db: Db, dispute: Ref[Dispute, "status = 'needs_response'"]) -> dict:
    """Accept a dispute without contesting it: it closes as lost and the withheld amount is not returned."""
    d = _open(db, dispute, "accepted")
    out = db.update(Dispute, dispute, status="lost")
    _emit(db, d["merchant_id"], "dispute.closed", dispute, f"accepted: {d['amount']:.2f} lost")
    return out
