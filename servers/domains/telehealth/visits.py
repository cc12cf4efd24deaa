"""Visits: checking a patient in at the desk, opening a video visit's room, completing a visit
(the provider's note and the copay invoice) and recording a no-show once the window has closed.
Check-in and video start are allowed from 15 minutes before to 10 minutes after the start."""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated

from pydantic import Field

from servers.domains.telehealth.model import (
    LATE_CHECK_IN,
    NO_SHOW_FEE,
    Appointment,
    Invoice,
    Patient,
    Provider,
    Referral,
    VideoSession,
    VisitNote,
    telehealth,
)
from servers.domains.telehealth.rules import (
    IN_WINDOW,
    WINDOW_OPEN,
    at,
    in_check_in_window,
    is_specialist,
    move,
    stamp,
)
from servers.domains.telehealth.scheduling import appointment_view
from servers.kit import Db, Ref, ToolError

Summary = Annotated[
    str,
    Field(
        min_length=1,
        max_length=4000,
        examples=[
            "Blood pressure well controlled; continue current dose and recheck in 3 months.",
            "Rash improving with topical steroid; follow up in 4 weeks if not resolved.",
            "Labs ordered; results will be shared by message.",
            "Discussed sleep hygiene; medication unchanged.",
        ],
    ),
]


@telehealth.tool(
    writes=[Appointment],
    returns=Appointment,
    says=[
        "check in the patient for appointment {appointment}",
        "{appointment}'s patient is here at the desk, check them in",
    ],
)
def check_in(
    db: Db, appointment: Ref[Appointment, f"status = 'booked' AND kind = 'in_person' AND {IN_WINDOW}"]
) -> dict:
    """Check in a patient who has arrived for an in-person visit: the appointment becomes arrived.
    Allowed from 15 minutes before to 10 minutes after its start."""
    a = db.get(Appointment, appointment)
    if a["kind"] == "video":
        raise ToolError(
            f"appointment {appointment} is a video visit; start it with start_video_visit instead"
        )
    move(a, "arrived", "checked in")
    in_check_in_window(db, a, "checked in")
    return appointment_view(
        db, db.update(Appointment, appointment, status="arrived", checked_in_at=stamp(db.now))
    )


@telehealth.tool(
    writes=[Appointment, VideoSession],
    returns=VideoSession,
    says=[
        "start the video visit for appointment {appointment}",
        "open the video room for {appointment}, the patient is waiting",
    ],
)
def start_video_visit(
    db: Db, appointment: Ref[Appointment, f"status = 'booked' AND kind = 'video' AND {IN_WINDOW}"]
) -> dict:
    """Open the video room of a booked video visit and mark the patient arrived. Allowed from 15
    minutes before to 10 minutes after the start."""
    a = db.get(Appointment, appointment)
    if a["kind"] != "video":
        raise ToolError(
            f"appointment {appointment} is an in-person visit; check the patient in at the desk instead"
        )
    move(a, "arrived", "started")
    in_check_in_window(db, a, "started")
    db.update(Appointment, appointment, status="arrived", checked_in_at=stamp(db.now))
    return db.insert(
        VideoSession,
        appointment_id=appointment,
        join_url=f"https://visit.clinic.example/room/{appointment.lower()}",
        started_at=stamp(db.now),
        ended_at=None,
        status="live",
    )


@telehealth.tool(
    writes=[Appointment, VisitNote, Invoice, VideoSession, Referral],
    returns=Appointment,
    says=[
        "the visit {appointment} is done, the note says: {summary}",
        "complete appointment {appointment} with the summary {summary}",
    ],
)
def complete_visit(db: Db, appointment: Ref[Appointment, "status = 'arrived'"], summary: Summary) -> dict:
    """Complete a visit in progress. It becomes fulfilled, the provider's note is filed, the video
    room (if any) closes, a referral it used counts one visit, and the copay is invoiced.

    Args:
        appointment: The visit (arrived).
        summary: The provider's visit note.
    """
    a = db.get(Appointment, appointment)
    move(a, "fulfilled", "completed")
    p, prov = db.get(Patient, a["patient_id"]), db.get(Provider, a["provider_id"])
    db.add(
        VisitNote,
        appointment_id=appointment,
        provider_id=prov["id"],
        summary=summary,
        written_at=stamp(db.now),
    )
    db.execute(
        "UPDATE video_sessions SET status = 'ended', ended_at = ? WHERE appointment_id = ? AND status = 'live'",
        stamp(db.now),
        appointment,
    )
    if a["referral_id"]:
        ref = db.get(Referral, a["referral_id"])
        used = ref["visits_used"] + 1
        db.update(
            Referral,
            ref["id"],
            visits_used=used,
            status="closed" if used >= ref["visits_allowed"] else ref["status"],
        )
    copay = p["copay_specialist"] if is_specialist(db, prov) else p["copay_primary"]
    db.add(
        Invoice,
        patient_id=p["id"],
        appointment_id=appointment,
        kind="copay",
        amount=copay,
        status="open",
        issued_on=db.today.isoformat(),
        description=f"Copay for visit {appointment} on {a['start'][:10]}",
    )
    return appointment_view(db, db.update(Appointment, appointment, status="fulfilled"))


@telehealth.tool(
    writes=[Appointment, Invoice],
    returns=Appointment,
    destructive=True,
    says=[
        "the patient never showed up for {appointment}, mark it a no-show",
        "record {appointment} as a no-show",
    ],
)
def record_no_show(
    db: Db, appointment: Ref[Appointment, f"status = 'booked' AND start < '{WINDOW_OPEN}'"]
) -> dict:
    """Record that a booked patient did not come: allowed once the check-in window (10 minutes
    after the start) has closed. The no-show fee of 75.00 is invoiced."""
    a = db.get(Appointment, appointment)
    move(a, "noshow", "marked a no-show")
    closes = at(a["start"]) + timedelta(minutes=LATE_CHECK_IN)
    if db.now <= closes:
        raise ToolError(
            f"appointment {appointment} starts at {a['start']}; the patient may still check in until {stamp(closes)}, "
            f"so it cannot be a no-show before then (it is now {stamp(db.now)})"
        )
    db.add(
        Invoice,
        patient_id=a["patient_id"],
        appointment_id=appointment,
        kind="no_show",
        amount=NO_SHOW_FEE,
        status="open",
        issued_on=db.today.isoformat(),
        description=f"Missed visit {appointment} on {a['start'][:10]}",
    )
    return appointment_view(db, db.update(Appointment, appointment, status="noshow"))
