"""Pure rule helpers the tools and the policy share: time arithmetic against the frozen reference
moment, ages, the FHIR status moves, who is a new patient, licences, referrals, slot runs."""

from __future__ import annotations

from datetime import date, datetime, timedelta

from servers.domains.telehealth.model import (
    ADULT_AGE,
    EARLY_CHECK_IN,
    FOLLOW_UP_MINUTES,
    LATE_CHECK_IN,
    MOVES,
    NEW_PATIENT_MINUTES,
    NOW,
    SLOT_MINUTES,
    Appointment,
    Patient,
    Prescription,
    Provider,
)
from servers.kit import Db, ToolError

FMT = "%Y-%m-%dT%H:%M"
# a patient's birth date as YYYY-MM-DD in SQL (stored MM/DD/YYYY)
ISO_DOB = "(substr(date_of_birth, 7, 4) || '-' || substr(date_of_birth, 1, 2) || '-' || substr(date_of_birth, 4, 2))"
# sampler conditions (SQL over one table) for the tools' id parameters
WINDOW_OPEN = (datetime.fromisoformat(NOW) - timedelta(minutes=LATE_CHECK_IN)).strftime(FMT)
WINDOW_CLOSE = (datetime.fromisoformat(NOW) + timedelta(minutes=EARLY_CHECK_IN)).strftime(FMT)
FUTURE_OPEN = f"status IN ('proposed', 'pending', 'booked') AND start > '{NOW}'"
IN_WINDOW = f"start >= '{WINDOW_OPEN}' AND start <= '{WINDOW_CLOSE}'"
# a free future slot whose next slot is free too (fits a 40-minute new-patient visit). Most slots
# are free: "+status" leaves the status index to counting them, and the lookups to the provider's
# schedule (the same rows either way).
FREE_RUN = (
    f"+status = 'free' AND start > '{NOW}' AND EXISTS (SELECT 1 FROM slots n WHERE "
    "n.provider_id = slots.provider_id AND n.start = slots.\"end\" AND +n.status = 'free')"
)


def stamp(moment: datetime) -> str:
    return moment.strftime(FMT)


def at(text: str) -> datetime:
    return datetime.fromisoformat(text)


def hours_until(db: Db, start: str) -> float:
    return (at(start) - db.now).total_seconds() / 3600


def born_on(dob: str) -> date:
    """A stored birth date (MM/DD/YYYY, as US clinics write it) as a date."""
    return datetime.strptime(dob, "%m/%d/%Y").date()


def us_date(iso: str) -> str:
    """YYYY-MM-DD -> MM/DD/YYYY."""
    return date.fromisoformat(iso).strftime("%m/%d/%Y")


def age(db: Db, dob: str) -> int:
    born, today = born_on(dob), db.today
    return today.year - born.year - ((today.month, today.day) < (born.month, born.day))


def is_minor(db: Db, patient: dict) -> bool:
    return age(db, patient["date_of_birth"]) < ADULT_AGE


def move(appt: dict, to: str, doing: str) -> None:
    """Refuse a status change the FHIR lifecycle does not allow, naming what would be allowed."""
    allowed = MOVES[appt["status"]]
    if to not in allowed:
        nxt = ", ".join(allowed) or "nothing (it is final)"
        raise ToolError(
            f"appointment {appt['id']} is {appt['status']}; it cannot be {doing} "
            f"(a {appt['status']} appointment can become: {nxt})"
        )


def patient_of(db: Db, args: dict) -> dict | None:
    """The patient a call acts for: named directly, or through its appointment or prescription."""
    if args.get("patient"):
        return db.find(Patient, args["patient"])
    for key, table in (("appointment", Appointment), ("prescription", Prescription)):
        if args.get(key):
            row = db.find(table, args[key])
            return db.find(Patient, row["patient_id"]) if row else None
    return None


def is_new_patient(db: Db, patient_id: str, provider_id: str) -> bool:
    """New to this provider: no fulfilled visit with them on record."""
    seen = db.scalar(
        "SELECT 1 FROM appointments WHERE patient_id = ? AND provider_id = ? AND status = 'fulfilled' LIMIT 1",
        patient_id,
        provider_id,
    )
    return seen is None


def visit_minutes(new_patient: bool) -> int:
    return NEW_PATIENT_MINUTES if new_patient else FOLLOW_UP_MINUTES


def licensed_in(provider: dict, state: str) -> bool:
    return state in provider["licensed_states"].split(",")


def is_specialist(db: Db, provider: dict) -> bool:
    return bool(db.scalar("SELECT is_specialist FROM specialties WHERE id = ?", provider["specialty_id"]))


def valid_referral(db: Db, patient_id: str, specialty: str, day: str) -> dict | None:
    """The patient's active referral to ``specialty`` still good on ``day`` (latest expiry first)."""
    return db.one(
        "SELECT * FROM referrals WHERE patient_id = ? AND specialty_id = ? AND status = 'active' "
        "AND expires_on >= ? AND visits_used < visits_allowed ORDER BY expires_on DESC, id LIMIT 1",
        patient_id,
        specialty,
        day,
    )


def last_visit_with(db: Db, patient_id: str, provider_id: str) -> str | None:
    """The start of the patient's latest fulfilled visit with the provider, if any."""
    return db.scalar(
        "SELECT max(start) FROM appointments WHERE patient_id = ? AND provider_id = ? AND status = 'fulfilled'",
        patient_id,
        provider_id,
    )


def slot_run(db: Db, slot: dict, minutes: int, appointment: str | None = None) -> list[dict]:
    """The consecutive slots a visit of ``minutes`` starting at ``slot`` needs, all free (or held by
    ``appointment`` itself, when it is being moved); a ToolError names the one in the way."""
    if at(slot["start"]) <= db.now:
        raise ToolError(f"slot {slot['id']} started at {slot['start']}; pick a slot after {stamp(db.now)}")
    run, current = [slot], slot
    while len(run) * SLOT_MINUTES < minutes:
        nxt = db.one(
            "SELECT * FROM slots WHERE provider_id = ? AND start = ?", current["provider_id"], current["end"]
        )
        if nxt is None:
            raise ToolError(
                f"a {minutes}-minute visit does not fit at {slot['start']}: the provider's schedule "
                f"ends at {current['end']}; pick a slot whose next slot is free too"
            )
        run.append(nxt)
        current = nxt
    for s in run:
        if s["status"] != "free" and not (appointment and s["appointment_id"] == appointment):
            held = f" by appointment {s['appointment_id']}" if s["appointment_id"] else " (blocked)"
            raise ToolError(
                f"slot {s['id']} at {s['start']} is already taken{held}; a {minutes}-minute visit "
                f"needs {len(run)} free slot(s) in a row from {slot['start']}"
            )
    return run


def in_check_in_window(db: Db, appt: dict, doing: str) -> None:
    start = at(appt["start"])
    opens, closes = start - timedelta(minutes=EARLY_CHECK_IN), start + timedelta(minutes=LATE_CHECK_IN)
    if not opens <= db.now <= closes:
        raise ToolError(
            f"appointment {appt['id']} starts at {appt['start']}: it can be {doing} from {stamp(opens)} "
            f"to {stamp(closes)} (15 minutes before to 10 minutes after the start); it is now {stamp(db.now)}"
        )


def provider_brief(db: Db, provider_id: str) -> dict:
    p = db.get(Provider, provider_id)
    return {"id": p["id"], "name": p["name"], "specialty": p["specialty_id"]}
