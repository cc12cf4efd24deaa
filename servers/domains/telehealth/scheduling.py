"""Scheduling: finding providers and free slots, booking, rescheduling, confirming and
cancelling appointments. Slots are 20 minutes; a new patient's visit takes two in a row. A slot
holds at most one appointment; the service refuses anything else."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from servers.domains.telehealth.model import (
    LATE_CANCEL_FEE,
    NOW,
    OPEN_STATUSES,
    Appointment,
    Invoice,
    Kind,
    Patient,
    Provider,
    Slot,
    Specialty,
    State,
    Status,
    telehealth,
)
from servers.domains.telehealth.rules import (
    FREE_RUN,
    FUTURE_OPEN,
    at,
    is_new_patient,
    is_specialist,
    move,
    slot_run,
    stamp,
    valid_referral,
    visit_minutes,
)
from servers.kit import Day, Db, Offset, PageSize, Ref, ToolError

Reason = Annotated[
    str,
    Field(
        min_length=1,
        max_length=200,
        examples=[
            "follow-up on blood pressure",
            "rash on forearm",
            "annual physical",
            "knee pain",
            "medication review",
        ],
    ),
]
CancelReason = Annotated[
    str, Field(min_length=1, max_length=200, examples=["schedule conflict", "feeling better", "travel"])
]
OPEN_FUTURE = Ref[Appointment, FUTURE_OPEN]
SAME_PROVIDER_SLOT = (
    FREE_RUN + " AND provider_id = (SELECT provider_id FROM appointments WHERE id = :appointment)"
)


def appointment_view(db: Db, a: dict) -> dict:
    prov = db.get(Provider, a["provider_id"])
    patient = db.get(Patient, a["patient_id"])
    return {
        **a,
        "patient_name": patient["name"],
        "provider_name": prov["name"],
        "specialty": prov["specialty_id"],
    }


def _release(db: Db, appointment: str) -> None:
    db.execute(
        "UPDATE slots SET status = 'free', appointment_id = NULL WHERE appointment_id = ?", appointment
    )


def _hold(db: Db, run: list[dict], appointment: str) -> None:
    for s in run:
        db.update(Slot, s["id"], status="busy", appointment_id=appointment)


def _late_fee(db: Db, a: dict, doing: str) -> None:
    db.add(
        Invoice,
        patient_id=a["patient_id"],
        appointment_id=a["id"],
        kind="late_cancellation",
        amount=LATE_CANCEL_FEE,
        status="open",
        issued_on=db.today.isoformat(),
        description=f"Late {doing} of visit {a['id']} on {a['start'][:10]}",
    )


@telehealth.tool(
    returns=Provider,
    says=[
        "find me a {specialty} provider licensed in {state}",
        "which {specialty} doctors offer video visits and take new patients?",
    ],
)
def search_providers(
    db: Db,
    specialty: Ref[Specialty] | None = None,
    state: State | None = None,
    telehealth: bool | None = None,
    accepting_new_patients: bool | None = None,
    limit: PageSize = 20,
    offset: Offset = 0,
) -> dict:
    """Providers by specialty, licence state, video visits and whether they take new patients.

    Args:
        specialty: A specialty, e.g. cardiology or family medicine.
        state: A state the provider is licensed in.
        telehealth: Only providers who do (true) or do not (false) offer video visits.
        accepting_new_patients: Only providers who are (or are not) taking new patients.
    """
    where, params = ["1"], []
    if specialty:
        db.get(Specialty, specialty)
        where.append("specialty_id = ?")
        params.append(specialty)
    if state:
        where.append("(',' || licensed_states || ',') LIKE ?")
        params.append(f"%,{state},%")
    for col, value in (("offers_telehealth", telehealth), ("accepts_new_patients", accepting_new_patients)):
        if value is not None:
            where.append(f"{col} = ?")
            params.append(int(value))
    sql = f"SELECT * FROM providers WHERE {' AND '.join(where)} ORDER BY name, id"
    return db.page(sql, *params, limit=limit, offset=offset, key="providers")


@telehealth.tool(
    returns=Slot,
    says=["what openings does {provider} have on {day}?", "show me free times with {provider}"],
)
def get_available_slots(
    db: Db,
    provider: Ref[Provider],
    day: Day | None = None,
    limit: PageSize = 20,
    offset: Offset = 0,
) -> dict:
    """A provider's free 20-minute slots from now on (or on one day). ``fits_new_patient`` says
    whether the next slot is free too, as a 40-minute new-patient visit needs.

    Args:
        provider: The provider.
        day: Only this day.
    """
    db.get(Provider, provider)
    sql = (
        # "+status": the provider's schedule index finds these, not the index of every free slot
        'SELECT s.*, EXISTS (SELECT 1 FROM slots n WHERE n.provider_id = s.provider_id AND n.start = s."end" '
        "AND +n.status = 'free') AS fits_new_patient FROM slots s WHERE s.provider_id = ? AND +s.status = 'free' "
        "AND s.start > ?"
    )
    params: list = [provider, stamp(db.now)]
    if day:
        sql += " AND substr(s.start, 1, 10) = ?"
        params.append(day)
    out = db.page(sql + " ORDER BY s.start", *params, limit=limit, offset=offset, key="slots")
    for s in out["slots"]:
        s["fits_new_patient"] = bool(s["fits_new_patient"])
    return out


@telehealth.tool(
    returns=Appointment,
    says=["what appointments does {patient} have coming up?", "list {patient}'s {status} appointments"],
)
def list_appointments(
    db: Db,
    patient: Ref[Patient],
    status: Status | None = None,
    upcoming: bool = False,
    limit: PageSize = 20,
    offset: Offset = 0,
) -> dict:
    """A patient's appointments, latest first (or, with upcoming, those still ahead, soonest first).

    Args:
        patient: The patient.
        status: Only appointments in this FHIR status.
        upcoming: Only appointments that start after now.
    """
    db.get(Patient, patient)
    sql, params = "SELECT * FROM appointments WHERE patient_id = ?", [patient]
    if status:
        sql += " AND status = ?"
        params.append(status)
    if upcoming:
        sql += " AND start > ?"
        params.append(stamp(db.now))
    sql += " ORDER BY start" if upcoming else " ORDER BY start DESC"
    return db.page(sql, *params, limit=limit, offset=offset, key="appointments")


@telehealth.tool(
    returns=Appointment,
    says=["show me appointment {appointment}", "when is appointment {appointment} and with whom?"],
)
def get_appointment(db: Db, appointment: Ref[Appointment]) -> dict:
    """One appointment with its patient, provider, slots and any referral it uses."""
    a = db.get(Appointment, appointment)
    slots = db.all('SELECT id, start, "end" FROM slots WHERE appointment_id = ? ORDER BY start', appointment)
    return {**appointment_view(db, a), "slots": slots}


@telehealth.tool(
    writes=[Appointment, Slot],
    returns=Appointment,
    says=[
        "book {patient} into slot {slot} for {reason}",
        "schedule a {kind} visit for {patient} at slot {slot}, reason: {reason}",
    ],
)
def book_appointment(
    db: Db,
    patient: Ref[Patient],
    slot: Ref[Slot, FREE_RUN],
    reason: Reason,
    kind: Kind = "in_person",
) -> dict:
    """Book a patient into a provider's free slot. A patient the provider has never seen gets a
    40-minute new-patient visit (the slot and the next one), everyone else 20 minutes. An HMO
    patient's valid referral to the specialty is attached.

    Args:
        patient: The patient.
        slot: The first slot of the visit.
        reason: Why the patient is coming.
        kind: in_person or video (the provider must offer video visits).
    """
    db.get(Patient, patient)
    first = db.get(Slot, slot)
    prov = db.get(Provider, first["provider_id"])
    if kind == "video" and not prov["offers_telehealth"]:
        raise ToolError(
            f"{prov['name']} ({prov['id']}) does not offer video visits; book in_person or pick another provider"
        )
    new = is_new_patient(db, patient, prov["id"])
    run = slot_run(db, first, visit_minutes(new))
    ref = (
        valid_referral(db, patient, prov["specialty_id"], first["start"][:10])
        if is_specialist(db, prov)
        else None
    )
    a = db.insert(
        Appointment,
        patient_id=patient,
        provider_id=prov["id"],
        start=first["start"],
        end=run[-1]["end"],
        minutes=visit_minutes(new),
        visit_type="new_patient" if new else "follow_up",
        kind=kind,
        status="booked",
        reason=reason,
        referral_id=ref["id"] if ref else None,
        booked_at=stamp(db.now),
        checked_in_at=None,
        cancelled_at=None,
        cancel_reason=None,
    )
    _hold(db, run, a["id"])
    return appointment_view(db, a)


@telehealth.tool(
    writes=[Appointment, Slot, Invoice],
    returns=Appointment,
    says=[
        "move appointment {appointment} to slot {slot}",
        "reschedule {appointment} to the opening {slot}",
    ],
)
def reschedule_appointment(
    db: Db,
    appointment: OPEN_FUTURE,
    slot: Ref[Slot, SAME_PROVIDER_SLOT],
    late_fee: bool = False,
) -> dict:
    """Move an upcoming appointment to another free slot of the same provider. It keeps its
    length, its kind and its status.

    Args:
        appointment: The appointment to move.
        slot: The new first slot (same provider).
        late_fee: Charge the late-cancellation fee (see the policy).
    """
    a, first = db.get(Appointment, appointment), db.get(Slot, slot)
    if a["status"] not in OPEN_STATUSES or at(a["start"]) <= db.now:
        raise ToolError(
            f"appointment {appointment} is {a['status']} at {a['start']}; only upcoming proposed, pending "
            "or booked appointments can be rescheduled"
        )
    if first["provider_id"] != a["provider_id"]:
        raise ToolError(
            f"slot {slot} belongs to provider {first['provider_id']}, but appointment {appointment} is with "
            f"{a['provider_id']}; cancel and book anew to change provider"
        )
    if first["start"] == a["start"]:
        raise ToolError(f"appointment {appointment} already starts at {a['start']}")
    run = slot_run(db, first, a["minutes"], appointment)
    _release(db, appointment)
    _hold(db, run, appointment)
    if late_fee:
        _late_fee(db, a, "reschedule")
    return appointment_view(db, db.update(Appointment, appointment, start=first["start"], end=run[-1]["end"]))


@telehealth.tool(
    writes=[Appointment],
    returns=Appointment,
    says=[
        "confirm appointment {appointment}",
        "the patient says yes to appointment {appointment}, please confirm it",
    ],
)
def confirm_appointment(
    db: Db, appointment: Ref[Appointment, f"status IN ('proposed', 'pending') AND start > '{NOW}'"]
) -> dict:
    """Confirm a proposed or pending appointment: it becomes booked."""
    a = db.get(Appointment, appointment)
    move(a, "booked", "confirmed")
    if at(a["start"]) <= db.now:
        raise ToolError(f"appointment {appointment} was due at {a['start']}; it can no longer be confirmed")
    return appointment_view(db, db.update(Appointment, appointment, status="booked"))


@telehealth.tool(
    writes=[Appointment, Slot, Invoice],
    returns=Appointment,
    destructive=True,
    says=["cancel appointment {appointment}", "please cancel {appointment}, the reason is {reason}"],
)
def cancel_appointment(
    db: Db,
    appointment: OPEN_FUTURE,
    reason: CancelReason | None = None,
    late_fee: bool = False,
) -> dict:
    """Cancel an upcoming appointment and free its slots.

    Args:
        appointment: The appointment.
        reason: Why it is cancelled.
        late_fee: Charge the late-cancellation fee (see the policy).
    """
    a = db.get(Appointment, appointment)
    move(a, "cancelled", "cancelled")
    if at(a["start"]) <= db.now:
        raise ToolError(
            f"appointment {appointment} started at {a['start']}; a visit that has started cannot be cancelled "
            "(record a no-show once the check-in window has closed)"
        )
    _release(db, appointment)
    if late_fee:
        _late_fee(db, a, "cancellation")
    out = db.update(
        Appointment, appointment, status="cancelled", cancelled_at=stamp(db.now), cancel_reason=reason
    )
    return appointment_view(db, out)
