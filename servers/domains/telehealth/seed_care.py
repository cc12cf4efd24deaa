"""The seed's care half: six months of visit history, today's clinic morning (visits done, in
progress, due now and later), the next 30 days of bookings on real slots, referrals,
prescriptions (controlled ones with their last visit spread around the 90-day line), visit notes,
invoices, intake forms, video rooms, refills and messages."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from servers.domains.telehealth.model import (
    FOLLOW_UP_MINUTES,
    LATE_CANCEL_FEE,
    NEW_PATIENT_MINUTES,
    NO_SHOW_FEE,
    REFERRAL_DAYS,
    REFERRAL_VISITS,
    Appointment,
    IntakeForm,
    Invoice,
    Message,
    Prescription,
    Referral,
    RefillRequest,
    Slot,
    VideoSession,
    VisitNote,
)
from servers.domains.telehealth.rules import licensed_in
from servers.domains.telehealth.seed_text import CANCEL_REASONS, CONTROLLED, DRUGS, PLANS, REASONS, SUBJECTS
from servers.kit import Seeder

if TYPE_CHECKING:
    from servers.domains.telehealth.seed import Clinic

FMT = "%Y-%m-%dT%H:%M"
WINDOW = ("08:50", "09:10")  # today's starts inside the check-in window at 09:00
VIDEOS_DUE = 3  # visits due now that are pinned as video ones, whatever the scale


class Book:
    """Appointments and referrals being built, with what later rows depend on."""

    def __init__(self, s: Seeder, clinic: Clinic) -> None:
        self.s, self.clinic = s, clinic
        self.now = s.now.replace(second=0)
        self.appts: list[dict] = []
        self.referrals: list[dict] = []
        self.used: set[tuple[str, str]] = set()
        self.seen: set[tuple[str, str]] = set()  # (patient, provider) with a fulfilled visit
        self.by_id = {p["id"]: p for p in clinic.providers}
        self.patients = {p["id"]: p for p in clinic.patients}
        self.panel: dict[str, list[dict]] = {}  # primary care provider -> their patients
        for p in clinic.patients:
            self.panel.setdefault(p["primary_provider_id"] or "", []).append(p)

    def provider_for(self, patient: dict) -> dict:
        s, own = self.s, patient["primary_provider_id"]
        if own and s.chance(0.45):
            return self.by_id[own]
        local = [p for p in self.clinic.providers if p["home_state"] == patient["state"]]
        return s.pick(local if local and s.chance(0.7) else self.clinic.providers)

    def kind(self, provider: dict, patient: dict) -> str:
        """Video only with a provider licensed where the patient lives, as booking requires; one
        in ten of the visits the licence forbids stays video, booked before the patient moved
        away (6% of video visits at medium), so the licence rule has rows to refuse in."""
        if not (provider["offers_telehealth"] and self.s.chance(0.38)):
            return "in_person"
        moved = len(self.appts) % 10 == 0
        return "video" if moved or licensed_in(provider, patient["state"]) else "in_person"

    def add(self, patient: dict, provider: dict, start: str, status: str, **extra) -> dict:
        new = (patient["id"], provider["id"]) not in self.seen
        minutes = NEW_PATIENT_MINUTES if new else FOLLOW_UP_MINUTES
        begin = datetime.strptime(start, FMT)
        booked = min(
            begin - timedelta(days=self.s.rng.randint(1, 40)),
            self.now - timedelta(hours=self.s.rng.randint(1, 300)),
        )
        row = {
            "id": f"APT-{len(self.appts) + 1:06d}",
            "patient_id": patient["id"],
            "provider_id": provider["id"],
            "start": start,
            "end": (begin + timedelta(minutes=minutes)).strftime(FMT),
            "minutes": minutes,
            "visit_type": "new_patient" if new else "follow_up",
            "kind": extra.get("kind") or self.kind(provider, patient),
            "status": status,
            "reason": self.s.pick(REASONS[provider["specialty_id"]]),
            "referral_id": None,
            "booked_at": booked.strftime(FMT),
            "checked_in_at": None,
            "cancelled_at": None,
            "cancel_reason": None,
        }
        if status == "cancelled":
            row["cancelled_at"] = (booked + (min(begin, self.now) - booked) * self.s.rng.random()).strftime(
                FMT
            )
            row["cancel_reason"] = self.s.pick(CANCEL_REASONS)
        if status in ("arrived", "fulfilled"):
            early = begin - timedelta(minutes=self.s.rng.randint(0, 12))
            row["checked_in_at"] = min(early, self.now).strftime(FMT)
        if status == "fulfilled":
            self.seen.add((patient["id"], provider["id"]))
        self.appts.append(row)
        return row

    def referral(self, patient: dict, specialty: str, issued: datetime, used: int = 0) -> dict:
        expires = issued + timedelta(days=REFERRAL_DAYS)
        status = "closed" if used >= REFERRAL_VISITS else "active"
        if expires.date() < self.now.date():
            status = "expired"
        row = {
            "id": f"REF-{len(self.referrals) + 1:06d}",
            "patient_id": patient["id"],
            "specialty_id": specialty,
            "referring_provider_id": patient["primary_provider_id"] or self.clinic.providers[0]["id"],
            "reason": self.s.pick(REASONS[specialty]),
            "issued_on": issued.date().isoformat(),
            "expires_on": expires.date().isoformat(),
            "visits_allowed": REFERRAL_VISITS,
            "visits_used": min(used, REFERRAL_VISITS),
            "status": status,
        }
        self.referrals.append(row)
        return row


def seed_care(s: Seeder, clinic: Clinic) -> None:
    book = Book(s, clinic)
    total = s.count(300, 6000, 150_000)
    rx_plan = _plan_prescriptions(s, clinic, s.count(100, 3000, 75_000))
    _history(s, book, int(total * 0.5), rx_plan)
    _today(s, book, int(total * 0.18))
    _future(s, book, total - len(book.appts))
    _standalone_referrals(s, book)
    s.add(Referral, book.referrals)
    s.add(Appointment, book.appts)
    s.add(
        Slot, _blocked([slot for days in clinic.slots.values() for day in days.values() for slot in day], s)
    )
    rxs = _prescriptions(s, book, rx_plan)
    _afterwards(s, book, rxs)


def _weekday(day: datetime) -> datetime:
    while day.weekday() >= 5:
        day -= timedelta(days=1)
    return day


def _grid_start(s: Seeder, provider: dict, day: datetime) -> str:
    shift = 10 if int(provider["id"][-6:]) % 2 == 0 else 0  # providers 2, 4, ... start at 08:10
    minutes = s.pick(
        [m for lo, hi in ((480, 720), (780, 1020)) for m in range(lo + shift, hi + shift - 19, 20)]
    )
    return day.replace(hour=minutes // 60, minute=minutes % 60, second=0).strftime(FMT)


def _history(s: Seeder, book: Book, n: int, rx_plan: list[dict]) -> None:
    """Past visits in time order (so a patient is new to a provider only on the first one); the
    last visit behind each controlled prescription sits 5-200 days back, a fifth of them 80-90."""
    drafts = []
    for rx in rx_plan:
        if rx["schedule"]:
            days = s.rng.choice((s.rng.randint(5, 79), s.rng.randint(80, 90), s.rng.randint(91, 200)))
            drafts.append(
                (book.patients[rx["patient_id"]], book.by_id[rx["prescriber_id"]], days, "fulfilled")
            )
    while len(drafts) < n:
        patient = s.pick(book.clinic.patients)
        status = s.rng.choices(("fulfilled", "cancelled", "noshow", "booked"), (80, 11, 8, 1))[0]
        days = (
            s.rng.randint(3, 4) if status == "booked" else s.rng.randint(1, 180)
        )  # booked: a stale Thursday/Friday
        drafts.append((patient, book.provider_for(patient), days, status))
    slots = []
    for patient, provider, days, status in drafts:
        start = _grid_start(s, provider, _weekday(book.now - timedelta(days=days)))
        if (provider["id"], start) not in book.used:
            book.used.add((provider["id"], start))
            slots.append((start, patient, provider, status))
    for start, patient, provider, status in sorted(slots, key=lambda x: (x[0], x[2]["id"])):
        book.add(patient, provider, start, status)


def _occupy(book: Book, appt: dict, run: list[dict]) -> None:
    for slot in run:
        slot["status"], slot["appointment_id"] = "busy", appt["id"]


def _run(book: Book, provider: dict, day: str, index: int, patient: dict) -> list[dict] | None:
    """The free slots a visit starting at slot ``index`` of ``day`` would take, or None."""
    row = book.clinic.slots[provider["id"]].get(day, [])
    k = 2 if (patient["id"], provider["id"]) not in book.seen else 1
    run = row[index : index + k]
    ok = (
        len(run) == k
        and all(x["status"] == "free" for x in run)
        and all(a["end"] == b["start"] for a, b in zip(run, run[1:], strict=False))
    )
    return run if ok else None


def _today(s: Seeder, book: Book, budget: int) -> None:
    """This morning: visits before 08:50 are done, running, missed or unrecorded; 08:50-09:10
    are due for check-in now; the rest of the day is booked."""
    day = book.now.date().isoformat()
    start = len(book.appts)
    providers = list(book.clinic.providers)
    s.rng.shuffle(providers)
    videos_due = 0
    for provider in providers:
        if len(book.appts) - start >= budget:
            break
        for index, slot in enumerate(book.clinic.slots[provider["id"]][day]):
            hhmm = slot["start"][11:]
            if hhmm < WINDOW[0]:
                chance, statuses = 0.75, (("fulfilled", 35), ("arrived", 25), ("booked", 25), ("noshow", 15))
            elif hhmm <= WINDOW[1]:
                chance, statuses = 0.85, (("booked", 80), ("arrived", 20))
            else:
                chance, statuses = 0.35, (("booked", 86), ("pending", 7), ("proposed", 7))
            if slot["status"] != "free" or not s.chance(chance):
                continue
            # the first few visits due now with a telehealth provider are video visits with a
            # patient in a state the provider is licensed in, so even the small clinic has a
            # video room to open
            video = (
                videos_due < VIDEOS_DUE and WINDOW[0] <= hhmm <= WINDOW[1] and provider["offers_telehealth"]
            )
            patient = _patient_for(s, book, provider)
            if video and not licensed_in(provider, patient["state"]):
                local = [p for p in book.clinic.patients if licensed_in(provider, p["state"])]
                patient = s.pick(local) if local else patient
            run = _run(book, provider, day, index, patient)
            if run:
                status = s.rng.choices([a for a, _ in statuses], [w for _, w in statuses])[0]
                video = video and status == "booked" and licensed_in(provider, patient["state"])
                videos_due += video
                appt = book.add(
                    patient, provider, slot["start"], status, **({"kind": "video"} if video else {})
                )
                _occupy(book, appt, run)
                _maybe_referral(s, book, appt, provider, patient)


def _patient_for(s: Seeder, book: Book, provider: dict) -> dict:
    """A patient for a provider's slot: often one of theirs (primary care), else anyone nearby."""
    if provider["specialty_id"] in ("family medicine", "internal medicine", "pediatrics") and s.chance(0.5):
        mine = book.panel.get(provider["id"])
        if mine:
            return s.pick(mine)
    return s.pick(book.clinic.patients)


def _future(s: Seeder, book: Book, n: int) -> None:
    days = sorted(next(iter(book.clinic.slots.values())))[1:]
    made = 0
    while made < n:
        patient = s.pick(book.clinic.patients)
        provider = book.provider_for(patient)
        day = days[0] if s.chance(0.08) else s.pick(days)  # tomorrow: near the 24-hour line
        index = s.rng.randrange(len(book.clinic.slots[provider["id"]][day]))
        run = _run(book, provider, day, index, patient)
        if run is None:
            continue
        status = s.rng.choices(("booked", "pending", "proposed", "cancelled"), (82, 7, 7, 4))[0]
        appt = book.add(patient, provider, run[0]["start"], status)
        if status != "cancelled":
            _occupy(book, appt, run)
        _maybe_referral(s, book, appt, provider, patient)
        made += 1


def _maybe_referral(s: Seeder, book: Book, appt: dict, provider: dict, patient: dict) -> None:
    """Most HMO specialist bookings carry a referral good on the visit's day."""
    if (
        patient["plan_type"] != "HMO"
        or not book.clinic.specialist[provider["specialty_id"]]
        or not s.chance(0.75)
    ):
        return
    issued = datetime.strptime(appt["start"][:10], "%Y-%m-%d") - timedelta(days=s.rng.randint(1, 80))
    appt["referral_id"] = book.referral(
        patient, provider["specialty_id"], min(issued, book.now), s.rng.randint(0, 1)
    )["id"]


def _standalone_referrals(s: Seeder, book: Book) -> None:
    """Referrals HMO patients hold for visits not booked yet: some expired, used up or about to expire."""
    specialists = [sid for sid, sp in book.clinic.specialist.items() if sp]
    for patient in book.clinic.patients:
        if patient["plan_type"] == "HMO" and s.chance(0.3):
            issued = book.now - timedelta(days=s.rng.randint(0, 120))
            book.referral(
                patient, s.pick(specialists), issued, s.rng.choices((0, 1, 2, 3), (50, 25, 15, 10))[0]
            )


def _blocked(slots: list[dict], s: Seeder) -> list[dict]:
    for slot in slots:
        if slot["status"] == "free" and s.chance(0.04):
            slot["status"] = "busy"  # the provider blocked the time (meeting, procedure)
    return slots


def _plan_prescriptions(s: Seeder, clinic: Clinic, n: int) -> list[dict]:
    psychiatrists = [p["id"] for p in clinic.providers if p["specialty_id"] == "psychiatry"]
    out = []
    for i in range(n):
        patient = s.pick(clinic.patients)
        controlled = s.chance(0.24)
        drug, dose, schedule = s.pick(CONTROLLED) if controlled else (*s.pick(DRUGS),)
        prescriber = patient["primary_provider_id"] or s.pick(clinic.providers)["id"]
        if controlled and psychiatrists and s.chance(0.4):
            prescriber = s.pick(psychiatrists)
        out.append(
            {
                "id": f"RX-{i + 1:06d}",
                "patient_id": patient["id"],
                "prescriber_id": prescriber,
                "drug": drug,
                "dose": dose,
                "schedule": schedule,
            }
        )
    return out


def _prescriptions(s: Seeder, book: Book, plan: list[dict]) -> list[dict]:
    rows = []
    for rx in plan:
        patient = book.patients[rx["patient_id"]]
        last = book.now.date() - timedelta(days=0 if s.chance(0.03) else s.rng.randint(5, 60))
        rows.append(
            {
                **rx,
                "refills_left": 0 if s.chance(0.15) else s.rng.randint(1, 5),
                "last_fill": last.isoformat(),
                "pharmacy_id": patient["pharmacy_id"] or s.pick(book.clinic.pharmacies)["id"],
                "status": "stopped" if s.chance(0.08) else "active",
            }
        )
    s.add(Prescription, rows)
    return rows


def _note_and_bill(
    s: Seeder,
    book: Book,
    a: dict,
    patient: dict,
    specialist: bool,
    day: str,
    notes: list[dict],
    invoices: list[dict],
) -> None:
    """A fulfilled visit gets its note and copay invoice (recent ones often still open); a no-show
    is charged its fee, and some cancellations the late-cancellation fee."""
    if a["status"] == "fulfilled":
        notes.append(
            {
                "id": f"VN-{len(notes) + 1:06d}",
                "appointment_id": a["id"],
                "provider_id": a["provider_id"],
                "summary": f"Seen for {a['reason']}. {s.pick(PLANS)}",
                "written_at": a["end"],
            }
        )
        amount = patient["copay_specialist" if specialist else "copay_primary"]
        recent = day >= (book.now - timedelta(days=14)).date().isoformat()
        _invoice(
            invoices,
            a,
            "copay",
            amount,
            "open" if recent and s.chance(0.5) or s.chance(0.08) else "paid",
            f"Copay for visit {a['id']} on {day}",
        )
    elif a["status"] == "noshow":
        _invoice(
            invoices,
            a,
            "no_show",
            NO_SHOW_FEE,
            s.pick(("open", "paid", "waived")),
            f"Missed visit {a['id']} on {day}",
        )
    elif a["status"] == "cancelled" and s.chance(0.25):
        _invoice(
            invoices,
            a,
            "late_cancellation",
            LATE_CANCEL_FEE,
            s.pick(("open", "paid")),
            f"Late cancellation of visit {a['id']} on {day}",
        )


def _afterwards(s: Seeder, book: Book, rxs: list[dict]) -> None:
    """Rows that follow from the appointments: notes, invoices, forms, video rooms, refills, messages."""
    notes, invoices, forms, videos = [], [], [], []
    for a in book.appts:
        patient = book.patients[a["patient_id"]]
        specialist = book.clinic.specialist[book.by_id[a["provider_id"]]["specialty_id"]]
        day = a["start"][:10]
        _note_and_bill(s, book, a, patient, specialist, day, notes, invoices)
        if a["kind"] == "video" and a["status"] in ("fulfilled", "arrived"):
            live = a["status"] == "arrived"
            videos.append(
                {
                    "id": f"VID-{len(videos) + 1:06d}",
                    "appointment_id": a["id"],
                    "join_url": f"https://visit.clinic.example/room/{a['id'].lower()}",
                    "started_at": a["checked_in_at"],
                    "ended_at": None if live else a["end"],
                    "status": "live" if live else "ended",
                }
            )
        if a["status"] in ("booked", "pending") and a["start"] > book.now.strftime(FMT) and s.chance(0.5):
            form = (
                "registration"
                if a["visit_type"] == "new_patient"
                else ("telehealth_consent" if a["kind"] == "video" else "medical_history")
            )
            _form(forms, book, patient, a, form, "completed" if s.chance(0.4) else "sent")
    s.add(VisitNote, notes)
    s.add(Invoice, invoices)
    s.add(IntakeForm, forms)
    s.add(VideoSession, videos)
    _refills_and_messages(s, book, rxs)


def _invoice(out: list[dict], a: dict, kind: str, amount: float, status: str, text: str) -> None:
    out.append(
        {
            "id": f"INV-{len(out) + 1:06d}",
            "patient_id": a["patient_id"],
            "appointment_id": a["id"],
            "kind": kind,
            "amount": amount,
            "status": status,
            "issued_on": min(a["start"][:10], "2026-06-01"),
            "description": text,
        }
    )


def _form(out: list[dict], book: Book, patient: dict, a: dict, form: str, status: str) -> None:
    guardian = book.patients.get(patient["guardian_id"] or "")
    to = patient["email"] or (guardian and guardian["email"]) or patient["phone"]
    if not to:
        return
    sent = a["booked_at"]
    out.append(
        {
            "id": f"FRM-{len(out) + 1:06d}",
            "patient_id": patient["id"],
            "appointment_id": a["id"],
            "form": form,
            "sent_to": to,
            "status": status,
            "sent_at": sent,
            "completed_at": sent if status == "completed" else None,
        }
    )


def _refills_and_messages(s: Seeder, book: Book, rxs: list[dict]) -> None:
    refills = [
        {
            "id": f"RFL-{i + 1:06d}",
            "prescription_id": rx["id"],
            "pharmacy_id": rx["pharmacy_id"],
            "requested_at": f"{rx['last_fill']}T08:00",
        }
        for i, rx in enumerate(r for r in rxs if s.chance(0.4))
    ]
    s.add(RefillRequest, refills)
    messages = []
    for i in range(s.count(40, 800, 20_000)):
        a = s.pick(book.appts)
        subject, body = s.pick(SUBJECTS)
        sent = book.now - timedelta(days=s.rng.randint(1, 60), hours=s.rng.randint(0, 8))
        messages.append(
            {
                "id": f"MSG-{i + 1:06d}",
                "patient_id": a["patient_id"],
                "provider_id": a["provider_id"],
                "subject": subject,
                "body": body,
                "sent_at": sent.strftime(FMT),
            }
        )
    s.add(Message, messages)
