"""Patients at the desk: the clock, finding a record, verifying the caller, reading a chart
summary, checking what a plan covers with a provider, the preferred pharmacy and intake forms."""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, Field

from servers.domains.telehealth.model import (
    Appointment,
    Form,
    IntakeForm,
    Patient,
    Pharmacy,
    Provider,
    Session,
    telehealth,
)
from servers.domains.telehealth.rules import (
    age,
    born_on,
    is_new_patient,
    is_specialist,
    licensed_in,
    stamp,
    valid_referral,
    visit_minutes,
)
from servers.kit import Db, Ref, Sensitive, ToolError

PersonName = Annotated[
    str, Field(min_length=1, max_length=120, description="Full name, e.g. Dana Whitfield.")
]


def _real_day(value: str) -> str:
    try:
        born_on(value)
    except ValueError:
        raise ValueError(f"{value} is not a real date (MM/DD/YYYY)") from None
    return value


BirthDate = Annotated[
    str,
    Sensitive(),
    Field(
        pattern=r"^[0-9]{2}/[0-9]{2}/[0-9]{4}$",
        min_length=10,
        max_length=10,
        description="Date of birth as MM/DD/YYYY, as the caller gives it, e.g. 04/17/1985.",
    ),
    AfterValidator(_real_day),
]
OPEN_APPOINTMENT = (
    "patient_id = :patient AND status IN ('proposed', 'pending', 'booked') AND start > '2026-06-01T09:00'"
)


def patient_view(db: Db, p: dict) -> dict:
    """A patient as the desk sees them: no birth date (the caller gives it), but age and minor status."""
    years = age(db, p["date_of_birth"])
    guardian = db.find(Patient, p["guardian_id"]) if p["guardian_id"] else None
    pcp = db.find(Provider, p["primary_provider_id"]) if p["primary_provider_id"] else None
    pharmacy = db.find(Pharmacy, p["pharmacy_id"]) if p["pharmacy_id"] else None
    return {
        **{k: v for k, v in p.items() if k != "date_of_birth"},
        "age": years,
        "minor": years < 18,
        "guardian_name": guardian["name"] if guardian else None,
        "primary_provider_name": pcp["name"] if pcp else None,
        "pharmacy_name": pharmacy["name"] if pharmacy else None,
    }


def _match(db: Db, name: str, date_of_birth: str) -> dict:
    p = db.one(
        "SELECT * FROM patients WHERE lower(trim(name)) = lower(trim(?)) AND date_of_birth = ?",
        name,
        date_of_birth,
    )
    if p is None:
        raise ToolError(
            f"no patient record matches the name {name!r} with date of birth {date_of_birth}; "
            "check the spelling of the full name and the date (MM/DD/YYYY)"
        )
    return p


@telehealth.tool(says=["what time is it at the clinic?", "what's today's date?"])
def get_current_time(db: Db) -> dict:
    """The clinic's current date and time (all appointment times are clinic local time)."""
    return {"now": stamp(db.now), "date": db.today.isoformat(), "weekday": db.now.strftime("%A")}


@telehealth.tool(
    returns=Patient,
    says=[
        "look up the chart of {name}, born {date_of_birth}",
        "find the patient record for {name}, date of birth {date_of_birth}",
    ],
)
def find_patient(db: Db, name: PersonName, date_of_birth: BirthDate) -> dict:
    """Find a patient's record by full name and date of birth. Finding a record does not verify the caller.

    Args:
        name: The patient's full name.
        date_of_birth: The patient's date of birth.
    """
    return patient_view(db, _match(db, name, date_of_birth))


@telehealth.tool(
    writes=[Session],
    returns=Patient,
    idempotent=True,
    says=[
        "I'm {name}, my date of birth is {date_of_birth}",
        "this is {name} calling, born {date_of_birth}; can you pull up my account?",
    ],
)
def verify_patient(db: Db, name: PersonName, date_of_birth: BirthDate) -> dict:
    """Verify the caller's identity for this conversation with the patient's full name and date of
    birth (a guardian verifies with their own or the minor's). Replaces any earlier verification.

    Args:
        name: The full name the caller gives.
        date_of_birth: The date of birth the caller gives.
    """
    p = _match(db, name, date_of_birth)
    db.set_acting(verified_patient_id=p["id"], verified_at=stamp(db.now))
    return {**patient_view(db, p), "verified": True}


@telehealth.tool(
    returns=Patient,
    says=["show me the account of patient {patient}", "what plan and pharmacy does {patient} have?"],
)
def get_patient(db: Db, patient: Ref[Patient]) -> dict:
    """A patient's account: contact details, state of residence, insurance plan (HMO or PPO) and
    copays, preferred pharmacy, primary care provider, guardian, and counts of open items."""
    p = db.get(Patient, patient)
    upcoming = db.scalar(
        "SELECT count(*) FROM appointments WHERE patient_id = ? AND status IN ('proposed','pending','booked') AND start > ?",
        patient,
        stamp(db.now),
    )
    owed = db.scalar(
        "SELECT coalesce(sum(amount), 0) FROM invoices WHERE patient_id = ? AND status = 'open'", patient
    )
    return {**patient_view(db, p), "upcoming_appointments": upcoming, "balance_due": round(owed, 2)}


@telehealth.tool(
    says=[
        "is {patient} covered to see {provider}?",
        "check whether {patient} can book with {provider} and what the copay would be",
    ],
)
def check_eligibility(db: Db, patient: Ref[Patient], provider: Ref[Provider]) -> dict:
    """What a patient's plan and the provider allow: the copay, whether a referral is needed and
    on file, whether a video visit is possible (licence in the patient's state), and whether the
    visit would be a new-patient visit (40 minutes) the provider may not accept."""
    p, prov = db.get(Patient, patient), db.get(Provider, provider)
    specialist = is_specialist(db, prov)
    new = is_new_patient(db, patient, provider)
    ref = valid_referral(db, patient, prov["specialty_id"], db.today.isoformat()) if specialist else None
    return {
        "patient": patient,
        "provider": provider,
        "plan_type": p["plan_type"],
        "specialist": specialist,
        "copay": p["copay_specialist"] if specialist else p["copay_primary"],
        "referral_required": specialist and p["plan_type"] == "HMO",
        "referral": ref and {k: ref[k] for k in ("id", "expires_on", "visits_allowed", "visits_used")},
        "patient_state": p["state"],
        "provider_licensed_states": prov["licensed_states"],
        "video_allowed": bool(prov["offers_telehealth"]) and licensed_in(prov, p["state"]),
        "new_patient": new,
        "visit_minutes": visit_minutes(new),
        "accepts_new_patients": bool(prov["accepts_new_patients"]),
        "minor": age(db, p["date_of_birth"]) < 18,
        "guardian_on_account": p["guardian_id"] is not None,
    }


@telehealth.tool(
    writes=[Patient],
    returns=Patient,
    idempotent=True,
    says=[
        "make {pharmacy} the preferred pharmacy for {patient}",
        "{patient} wants prescriptions sent to {pharmacy} from now on",
    ],
)
def set_preferred_pharmacy(db: Db, patient: Ref[Patient], pharmacy: Ref[Pharmacy]) -> dict:
    """Set the pharmacy new prescriptions and refills go to by default."""
    db.get(Patient, patient)
    db.get(Pharmacy, pharmacy)
    return patient_view(db, db.update(Patient, patient, pharmacy_id=pharmacy))


@telehealth.tool(
    writes=[IntakeForm],
    returns=IntakeForm,
    says=[
        "send {patient} the {form} form",
        "email the {form} form to {patient} before appointment {appointment}",
    ],
)
def send_intake_form(
    db: Db,
    patient: Ref[Patient, "id NOT IN (SELECT patient_id FROM intake_forms WHERE status = 'sent')"],
    form: Form,
    appointment: Ref[Appointment, OPEN_APPOINTMENT] | None = None,
) -> dict:
    """Send an intake form to the patient's email (a minor's goes to the guardian); one outstanding
    form of each kind at a time.

    Args:
        patient: The patient.
        form: registration, medical_history, telehealth_consent, privacy_notice or depression_screening.
        appointment: The upcoming appointment the form is for, if any.
    """
    p = db.get(Patient, patient)
    if appointment:
        a = db.get(Appointment, appointment)
        if a["patient_id"] != patient:
            raise ToolError(f"appointment {appointment} belongs to patient {a['patient_id']}, not {patient}")
    pending = db.one(
        "SELECT * FROM intake_forms WHERE patient_id = ? AND form = ? AND status = 'sent'", patient, form
    )
    if pending:
        raise ToolError(
            f"patient {patient} already has an unfinished {form} form ({pending['id']}, sent {pending['sent_at']} "
            f"to {pending['sent_to']}); it must be completed before another is sent"
        )
    guardian = db.find(Patient, p["guardian_id"]) if p["guardian_id"] else None
    to = p["email"] or (guardian and guardian["email"]) or p["phone"] or (guardian and guardian["phone"])
    if not to:
        raise ToolError(f"patient {patient} has no email or phone on file, nor a guardian with one")
    return db.insert(
        IntakeForm,
        patient_id=patient,
        appointment_id=appointment,
        form=form,
        sent_to=to,
        status="sent",
        sent_at=stamp(db.now),
        completed_at=None,
    )
