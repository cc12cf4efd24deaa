"""The clinic's tables and fixed facts: specialties, pharmacies, providers, patients, the desk's
session, slots, appointments and what hangs off them (referrals, prescriptions and refills, visit
notes, intake forms, video sessions, invoices, messages)."""

from __future__ import annotations

from typing import Literal

from sqlalchemy import ForeignKey, Index
from sqlalchemy.orm import Mapped, mapped_column

from servers.kit import Domain

telehealth = Domain(
    "telehealth",
    "Clinic front desk and virtual-care coordination: patients, providers and their licences, "
    "appointment slots, bookings through the FHIR appointment lifecycle, check-in and video visits, "
    "referrals, prescriptions and refills, intake forms and copay invoices, under a written policy.",
)

# Times are the clinic's local wall clock, stored as YYYY-MM-DDTHH:MM (the Moment format).
NOW = "2026-06-01T09:00"
TODAY = "2026-06-01"
SLOT_MINUTES = 20
NEW_PATIENT_MINUTES = 40
FOLLOW_UP_MINUTES = 20
EARLY_CHECK_IN = 15  # minutes before the start a patient may check in
LATE_CHECK_IN = 10  # minutes after the start
LATE_CANCEL_HOURS = 24
LATE_CANCEL_FEE = 50.0
NO_SHOW_FEE = 75.0
REFERRAL_DAYS = 90
REFERRAL_VISITS = 3
CONTROLLED_VISIT_DAYS = 90
ADULT_AGE = 18

# the eight states the clinic's providers hold licences in
PROVIDER_STATES: tuple[str, ...] = ("OR", "WA", "CA", "CO", "TX", "IL", "NY", "FL")
State = Literal["OR", "WA", "CA", "CO", "TX", "IL", "NY", "FL"]
PlanType = Literal["HMO", "PPO"]
Kind = Literal["in_person", "video"]
VisitType = Literal["new_patient", "follow_up"]
# FHIR Appointment.status (STU3 value set), the ones a clinic uses
Status = Literal["proposed", "pending", "booked", "arrived", "fulfilled", "cancelled", "noshow"]
# where each status may go next, and by which tool
MOVES: dict[str, tuple[str, ...]] = {
    "proposed": ("pending", "booked", "cancelled"),
    "pending": ("booked", "cancelled"),
    "booked": ("arrived", "cancelled", "noshow"),
    "arrived": ("fulfilled",),
    "fulfilled": (),
    "cancelled": (),
    "noshow": (),
}
OPEN_STATUSES = ("proposed", "pending", "booked")  # hold their slots and may still change
Form = Literal[
    "registration", "medical_history", "telehealth_consent", "privacy_notice", "depression_screening"
]
InvoiceKind = Literal["copay", "late_cancellation", "no_show"]
InvoiceStatus = Literal["open", "paid", "waived"]
RxStatus = Literal["active", "stopped"]

# (id, name, is a specialist): the first three are primary care and need no referral
SPECIALTIES: tuple[tuple[str, str, bool], ...] = (
    ("family medicine", "Family Medicine", False),
    ("internal medicine", "Internal Medicine", False),
    ("pediatrics", "Pediatrics", False),
    ("dermatology", "Dermatology", True),
    ("cardiology", "Cardiology", True),
    ("endocrinology", "Endocrinology", True),
    ("psychiatry", "Psychiatry", True),
    ("gastroenterology", "Gastroenterology", True),
    ("neurology", "Neurology", True),
    ("orthopedics", "Orthopedics", True),
    ("gynecology", "Obstetrics and Gynecology", True),
    ("allergy and immunology", "Allergy and Immunology", True),
    ("pulmonology", "Pulmonology", True),
    ("rheumatology", "Rheumatology", True),
    ("urology", "Urology", True),
)
PRIMARY_CARE = tuple(s for s, _, specialist in SPECIALTIES if not specialist)


class Specialty(telehealth.Table, example="cardiology", noun="specialty"):
    """A medical specialty; specialists (not primary care) need a referral on HMO plans."""

    __tablename__ = "specialties"
    id: Mapped[str] = mapped_column(primary_key=True)
    name: Mapped[str]
    is_specialist: Mapped[bool]


class Pharmacy(telehealth.Table, prefix="PHM", noun="pharmacy"):
    """A pharmacy prescriptions are sent to (a pharmacy merchant of the shared world)."""

    __tablename__ = "pharmacies"
    id: Mapped[str] = mapped_column(primary_key=True)
    name: Mapped[str]
    city: Mapped[str]
    state: Mapped[str]


class Provider(telehealth.Table, prefix="PRV"):
    """A clinician: one specialty, licensed in one or more states, maybe seeing patients by video."""

    __tablename__ = "providers"
    id: Mapped[str] = mapped_column(primary_key=True)
    name: Mapped[str]
    credentials: Mapped[str]  # MD, DO, NP, PA
    specialty_id: Mapped[str] = mapped_column(ForeignKey("specialties.id"), index=True)
    city: Mapped[str]  # where the provider's clinic is
    home_state: Mapped[str]
    licensed_states: Mapped[str]  # comma list, e.g. "OR,WA"
    accepts_new_patients: Mapped[bool]
    offers_telehealth: Mapped[bool]


class Patient(
    telehealth.Table,
    prefix="PAT",
    hidden=("date_of_birth",),
    people={"name": "name", "email": "email", "phone": "phone", "city": "city"},
):
    """A patient: adults are world people; minors are their children, with a guardian (usually)."""

    __tablename__ = "patients"
    # hidden: the patient says it; the desk never reads it off the chart
    id: Mapped[str] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(unique=True)
    date_of_birth: Mapped[str] = mapped_column(index=True)  # a caller is found by it (and the name)
    email: Mapped[str | None]
    phone: Mapped[str | None]
    city: Mapped[str]
    state: Mapped[str]  # state of residence: where a video visit legally happens
    plan_type: Mapped[str]  # HMO / PPO
    insurer: Mapped[str]
    member_number: Mapped[str]
    copay_primary: Mapped[float]
    copay_specialist: Mapped[float]
    pharmacy_id: Mapped[str | None] = mapped_column(ForeignKey("pharmacies.id"))
    primary_provider_id: Mapped[str | None] = mapped_column(ForeignKey("providers.id"), index=True)
    guardian_id: Mapped[str | None] = mapped_column(ForeignKey("patients.id"), index=True)


# The conversation at the desk: whose identity has been verified (name and date of birth).
Session = telehealth.acting(
    Patient,
    "verified_patient_id",
    login="verify_patient",
    signed_out=True,
    columns={"verified_at": str | None},
)


class Appointment(telehealth.Table, prefix="APT"):
    """A visit with one provider; status follows the FHIR lifecycle (see ``MOVES``)."""

    __tablename__ = "appointments"
    __table_args__ = (Index("ix_appointments_provider_start", "provider_id", "start"),)
    id: Mapped[str] = mapped_column(primary_key=True)
    patient_id: Mapped[str] = mapped_column(ForeignKey("patients.id"), index=True)
    provider_id: Mapped[str] = mapped_column(ForeignKey("providers.id"))
    start: Mapped[str]
    end: Mapped[str]
    minutes: Mapped[int]
    visit_type: Mapped[str]  # new_patient (40 min) / follow_up (20 min)
    kind: Mapped[str]  # in_person / video
    status: Mapped[str]
    reason: Mapped[str]
    referral_id: Mapped[str | None] = mapped_column(ForeignKey("referrals.id"))
    booked_at: Mapped[str]
    checked_in_at: Mapped[str | None]
    cancelled_at: Mapped[str | None]
    cancel_reason: Mapped[str | None]


class Slot(telehealth.Table, prefix="SLT"):
    """Twenty minutes of a provider's schedule (FHIR Slot): free, or busy with an appointment."""

    __tablename__ = "slots"
    __table_args__ = (
        Index("ix_slots_provider_start", "provider_id", "start", unique=True),
        # listing or counting the slots of one status (list_records) reads this, in id order
        Index("ix_slots_status", "status", "id"),
    )
    id: Mapped[str] = mapped_column(primary_key=True)
    provider_id: Mapped[str] = mapped_column(ForeignKey("providers.id"))
    start: Mapped[str]
    end: Mapped[str]
    status: Mapped[str]  # free / busy
    appointment_id: Mapped[str | None] = mapped_column(ForeignKey("appointments.id"), index=True)


class Referral(telehealth.Table, prefix="REF"):
    """A primary-care referral to a specialty: valid until it expires or its visits are used."""

    __tablename__ = "referrals"
    id: Mapped[str] = mapped_column(primary_key=True)
    patient_id: Mapped[str] = mapped_column(ForeignKey("patients.id"), index=True)
    specialty_id: Mapped[str] = mapped_column(ForeignKey("specialties.id"))
    referring_provider_id: Mapped[str] = mapped_column(ForeignKey("providers.id"))
    reason: Mapped[str]
    issued_on: Mapped[str]
    expires_on: Mapped[str]
    visits_allowed: Mapped[int]
    visits_used: Mapped[int]
    status: Mapped[str]  # active / expired / closed


class Prescription(telehealth.Table, prefix="RX"):
    """A medication order; controlled substances carry their DEA schedule (II-V)."""

    __tablename__ = "prescriptions"
    id: Mapped[str] = mapped_column(primary_key=True)
    patient_id: Mapped[str] = mapped_column(ForeignKey("patients.id"), index=True)
    prescriber_id: Mapped[str] = mapped_column(ForeignKey("providers.id"))
    drug: Mapped[str]
    dose: Mapped[str]
    schedule: Mapped[str | None]  # None, or II, III, IV, V
    refills_left: Mapped[int]
    last_fill: Mapped[str]
    pharmacy_id: Mapped[str | None] = mapped_column(ForeignKey("pharmacies.id"), index=True)
    status: Mapped[str]  # active / stopped


class RefillRequest(telehealth.Table, prefix="RFL", append_only=True):
    """A refill sent to a pharmacy (append-only)."""

    __tablename__ = "refill_requests"
    id: Mapped[str] = mapped_column(primary_key=True)
    prescription_id: Mapped[str] = mapped_column(ForeignKey("prescriptions.id"), index=True)
    pharmacy_id: Mapped[str] = mapped_column(ForeignKey("pharmacies.id"))
    requested_at: Mapped[str]


class VisitNote(telehealth.Table, prefix="VN", append_only=True):
    """What the provider wrote when a visit was completed (append-only)."""

    __tablename__ = "visit_notes"
    id: Mapped[str] = mapped_column(primary_key=True)
    appointment_id: Mapped[str] = mapped_column(ForeignKey("appointments.id"), index=True)
    provider_id: Mapped[str] = mapped_column(ForeignKey("providers.id"))
    summary: Mapped[str]
    written_at: Mapped[str]


class IntakeForm(telehealth.Table, prefix="FRM"):
    """A form sent to a patient (or a minor's guardian) to fill in before a visit."""

    __tablename__ = "intake_forms"
    id: Mapped[str] = mapped_column(primary_key=True)
    patient_id: Mapped[str] = mapped_column(ForeignKey("patients.id"), index=True)
    appointment_id: Mapped[str | None] = mapped_column(ForeignKey("appointments.id"))
    form: Mapped[str]
    sent_to: Mapped[str]  # an email address or phone number
    status: Mapped[str]  # sent / completed
    sent_at: Mapped[str]
    completed_at: Mapped[str | None]


class VideoSession(telehealth.Table, prefix="VID"):
    """The video room of a video visit: live while the visit runs, ended when it is completed."""

    __tablename__ = "video_sessions"
    id: Mapped[str] = mapped_column(primary_key=True)
    appointment_id: Mapped[str] = mapped_column(ForeignKey("appointments.id"), index=True)
    join_url: Mapped[str]
    started_at: Mapped[str]
    ended_at: Mapped[str | None]
    status: Mapped[str]  # live / ended


class Invoice(telehealth.Table, prefix="INV"):
    """What a patient owes: a visit's copay, a late-cancellation fee or a no-show fee."""

    __tablename__ = "invoices"
    id: Mapped[str] = mapped_column(primary_key=True)
    patient_id: Mapped[str] = mapped_column(ForeignKey("patients.id"), index=True)
    appointment_id: Mapped[str | None] = mapped_column(ForeignKey("appointments.id"))
    kind: Mapped[str]
    amount: Mapped[float]
    status: Mapped[str]
    issued_on: Mapped[str]
    description: Mapped[str]


class Message(telehealth.Table, prefix="MSG", append_only=True):
    """A message the desk passed to a provider for a patient (append-only)."""

    __tablename__ = "messages"
    id: Mapped[str] = mapped_column(primary_key=True)
    patient_id: Mapped[str] = mapped_column(ForeignKey("patients.id"), index=True)
    provider_id: Mapped[str] = mapped_column(ForeignKey("providers.id"))
    subject: Mapped[str]
    body: Mapped[str]
    sent_at: Mapped[str]
