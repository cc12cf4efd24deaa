"""Care between visits: referrals from primary care to a specialty, prescriptions and refills,
messages to a provider, and what the patient owes."""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated

from pydantic import Field

from servers.domains.telehealth.model import (
    REFERRAL_DAYS,
    REFERRAL_VISITS,
    Invoice,
    InvoiceStatus,
    Message,
    Patient,
    Pharmacy,
    Prescription,
    Provider,
    Referral,
    RefillRequest,
    RxStatus,
    Specialty,
    telehealth,
)
from servers.domains.telehealth.rules import stamp
from servers.kit import Db, Offset, PageSize, Ref, ToolError

ReferralReason = Annotated[
    str,
    Field(
        min_length=1,
        max_length=200,
        examples=["persistent knee pain", "abnormal ECG", "mole that changed shape", "recurring migraines"],
    ),
]
Subject = Annotated[
    str,
    Field(
        min_length=1, max_length=200, examples=["Question about my medication", "Lab results", "Side effects"]
    ),
]
Body = Annotated[
    str,
    Field(
        min_length=1,
        max_length=4000,
        examples=[
            "Is it okay to take this with ibuprofen?",
            "Could you explain my latest lab results?",
            "I have been feeling dizzy since the new dose.",
        ],
    ),
]
NO_OPEN_REFERRAL = (
    "is_specialist = 1 AND id NOT IN (SELECT specialty_id FROM referrals WHERE patient_id = :patient "
    "AND status = 'active' AND expires_on >= '2026-06-01')"
)
CARE_TEAM = "id IN (SELECT provider_id FROM appointments WHERE patient_id = :patient)"


@telehealth.tool(
    writes=[Referral],
    returns=Referral,
    says=[
        "{patient} needs a referral to {specialty} for {reason}",
        "ask {patient}'s primary care doctor for a {specialty} referral, reason: {reason}",
    ],
)
def create_referral(
    db: Db,
    patient: Ref[Patient, "primary_provider_id IS NOT NULL"],
    specialty: Ref[Specialty, NO_OPEN_REFERRAL],
    reason: ReferralReason,
) -> dict:
    """Issue a referral from the patient's primary care provider to a specialist specialty. It is
    good for 3 visits within 90 days.

    Args:
        patient: The patient.
        specialty: The specialty referred to (not primary care).
        reason: What the specialist should look at.
    """
    p, spec = db.get(Patient, patient), db.get(Specialty, specialty)
    if not spec["is_specialist"]:
        raise ToolError(f"{specialty} is primary care; it needs no referral (specialist specialties only)")
    if not p["primary_provider_id"]:
        raise ToolError(f"patient {patient} has no primary care provider on file to issue a referral")
    active = db.one(
        "SELECT * FROM referrals WHERE patient_id = ? AND specialty_id = ? AND status = 'active' AND expires_on >= ?",
        patient,
        specialty,
        db.today.isoformat(),
    )
    if active:
        raise ToolError(
            f"patient {patient} already has an active referral to {specialty} ({active['id']}, valid until "
            f"{active['expires_on']}, {active['visits_allowed'] - active['visits_used']} visit(s) left)"
        )
    return db.insert(
        Referral,
        patient_id=patient,
        specialty_id=specialty,
        referring_provider_id=p["primary_provider_id"],
        reason=reason,
        issued_on=db.today.isoformat(),
        expires_on=(db.today + timedelta(days=REFERRAL_DAYS)).isoformat(),
        visits_allowed=REFERRAL_VISITS,
        visits_used=0,
        status="active",
    )


@telehealth.tool(
    returns=Referral,
    says=["what referrals does {patient} have?", "does {patient} have a referral on file?"],
)
def list_referrals(db: Db, patient: Ref[Patient], limit: PageSize = 20, offset: Offset = 0) -> dict:
    """A patient's referrals, newest first, with expiry and visits used."""
    db.get(Patient, patient)
    sql = "SELECT * FROM referrals WHERE patient_id = ? ORDER BY issued_on DESC, id DESC"
    return db.page(sql, patient, limit=limit, offset=offset, key="referrals")


@telehealth.tool(
    returns=Prescription,
    says=["what medications is {patient} on?", "list {patient}'s {status} prescriptions"],
)
def list_prescriptions(
    db: Db, patient: Ref[Patient], status: RxStatus | None = None, limit: PageSize = 20, offset: Offset = 0
) -> dict:
    """A patient's prescriptions: drug, dose, controlled schedule, refills left, last fill, pharmacy.

    Args:
        patient: The patient.
        status: active or stopped.
    """
    db.get(Patient, patient)
    sql, params = "SELECT * FROM prescriptions WHERE patient_id = ?", [patient]
    if status:
        sql += " AND status = ?"
        params.append(status)
    return db.page(
        sql + " ORDER BY status, drug, id", *params, limit=limit, offset=offset, key="prescriptions"
    )


@telehealth.tool(
    writes=[Prescription, RefillRequest],
    returns=RefillRequest,
    says=["refill prescription {prescription}", "please send a refill of {prescription} to {pharmacy}"],
)
def request_refill(
    db: Db,
    prescription: Ref[Prescription, "status = 'active' AND refills_left > 0 AND last_fill < '2026-06-01'"],
    pharmacy: Ref[Pharmacy] | None = None,
) -> dict:
    """Send a refill of an active prescription to a pharmacy. It goes to the prescription's own
    pharmacy unless another is named, and uses one of the refills left.

    Args:
        prescription: The prescription.
        pharmacy: Another pharmacy to send it to.
    """
    rx = db.get(Prescription, prescription)
    if rx["status"] != "active":
        raise ToolError(
            f"prescription {prescription} ({rx['drug']}) is {rx['status']}; only active ones can be refilled"
        )
    if rx["refills_left"] <= 0:
        raise ToolError(
            f"prescription {prescription} ({rx['drug']}) has no refills left; message prescriber "
            f"{rx['prescriber_id']} for a renewal"
        )
    if rx["last_fill"] >= db.today.isoformat():
        raise ToolError(f"prescription {prescription} ({rx['drug']}) was already filled on {rx['last_fill']}")
    to = pharmacy or rx["pharmacy_id"]
    if to is None:
        raise ToolError(f"prescription {prescription} has no pharmacy on file; name one")
    db.get(Pharmacy, to)
    db.update(
        Prescription,
        prescription,
        refills_left=rx["refills_left"] - 1,
        last_fill=db.today.isoformat(),
        pharmacy_id=to,
    )
    out = db.insert(RefillRequest, prescription_id=prescription, pharmacy_id=to, requested_at=stamp(db.now))
    return {**out, "drug": rx["drug"], "refills_left": rx["refills_left"] - 1}


@telehealth.tool(
    writes=[Message],
    returns=Message,
    says=[
        "send {provider} a message from {patient}: {body}",
        "let {provider} know, for {patient}, about '{subject}': {body}",
    ],
)
def message_provider(
    db: Db, patient: Ref[Patient], provider: Ref[Provider, CARE_TEAM], subject: Subject, body: Body
) -> dict:
    """Pass a message from a patient to one of their providers (someone they have an appointment with).

    Args:
        patient: The patient the message is from.
        provider: The provider.
        subject: A short subject.
        body: The message.
    """
    db.get(Patient, patient)
    prov = db.get(Provider, provider)
    if not db.scalar(
        "SELECT 1 FROM appointments WHERE patient_id = ? AND provider_id = ? LIMIT 1", patient, provider
    ):
        raise ToolError(
            f"{prov['name']} ({provider}) is not on patient {patient}'s care team (no appointment with them); "
            "messages go to providers the patient has seen or is booked with"
        )
    return db.insert(
        Message, patient_id=patient, provider_id=provider, subject=subject, body=body, sent_at=stamp(db.now)
    )


@telehealth.tool(
    returns=Invoice,
    says=["what is invoice {invoice} for?", "how much is invoice {invoice} and is it paid?"],
)
def get_invoice(db: Db, invoice: Ref[Invoice]) -> dict:
    """One invoice: a copay, late-cancellation or no-show fee, its amount and status."""
    return db.get(Invoice, invoice)


@telehealth.tool(
    returns=Invoice,
    says=["what does {patient} owe?", "list {patient}'s {status} invoices"],
)
def list_invoices(
    db: Db,
    patient: Ref[Patient],
    status: InvoiceStatus | None = None,
    limit: PageSize = 20,
    offset: Offset = 0,
) -> dict:
    """A patient's invoices, newest first, and the total still open.

    Args:
        patient: The patient.
        status: open, paid or waived.
    """
    db.get(Patient, patient)
    sql, params = "SELECT * FROM invoices WHERE patient_id = ?", [patient]
    if status:
        sql += " AND status = ?"
        params.append(status)
    out = db.page(
        sql + " ORDER BY issued_on DESC, id DESC", *params, limit=limit, offset=offset, key="invoices"
    )
    owed = db.scalar(
        "SELECT coalesce(sum(amount), 0) FROM invoices WHERE patient_id = ? AND status = 'open'", patient
    )
    return {**out, "balance_due": round(owed, 2)}
