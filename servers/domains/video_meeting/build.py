"""The seed's workbench: rows of every table collected in memory with their ids, and the moves that
make a meeting, a run of it (instance, participants, recording, transcript) and an invitation."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from servers.domains.video_meeting.model import (
    CLOUD_MB_PER_MIN,
    RRULES,
    Account,
    AccountAdmin,
    Instance,
    Invitee,
    Meeting,
    Participant,
    Recording,
    Registrant,
    Session,
    Transcript,
    User,
    join_url,
    meeting_number,
)
from servers.kit import Seeder, marks
from servers.kit.db import format_id

TABLES = (Account, User, AccountAdmin, Session, Meeting, Invitee, Registrant, Instance, Participant)
TABLES += (Recording, Transcript)
LANGUAGES = ("en-US",) * 8 + ("es-ES", "de-DE", "fr-FR", "ja-JP")


def iso(moment: datetime) -> str:
    return moment.isoformat(timespec="seconds")


def utc_of(day: date, hour: int, minute: int, tz: str) -> datetime:
    """A local wall-clock time in ``tz`` as naive UTC."""
    local = datetime(day.year, day.month, day.day, hour, minute, tzinfo=ZoneInfo(tz))
    return local.astimezone(UTC).replace(tzinfo=None)


class Build:
    """Collects rows; ids are numbered in the order rows are made."""

    def __init__(self, s: Seeder) -> None:
        self.s, self.rng, self.now = s, s.rng, s.now
        self.rows: dict[Any, list[dict]] = {t: [] for t in TABLES}
        self.n: Counter[str] = Counter()
        self.accounts: dict[str, dict] = {}
        self.users: dict[str, dict] = {}
        self.members: dict[str, list[dict]] = {}  # account id -> its users
        self.passcodes: set[str] = set()
        self.by_email: dict[str, dict] = {}
        self.titles: set[str] = set()
        self._active: dict[str, list[dict]] = {}

    def add(self, table: Any, **row: Any) -> dict:
        self.n[marks(table).prefix] += 1
        row = {"id": format_id(marks(table).prefix, self.n[marks(table).prefix]), **row}
        self.rows[table].append(row)
        return row

    def ago(self, days: float = 0, minutes: float = 0) -> datetime:
        return self.now - timedelta(days=days, minutes=minutes)

    # -- accounts and users ---------------------------------------------------------------------------
    def account(self, name: str, plan: str, storage_mb: float, retention: int, age_days: int) -> dict:
        a = self.add(
            Account,
            name=name,
            plan=plan,
            cloud_storage_mb=float(storage_mb),
            used_storage_mb=0.0,
            recording_retention_days=retention,
            created_at=iso(self.ago(days=age_days)),
        )
        self.accounts[a["id"]], self.members[a["id"]] = a, []
        return a

    def user(self, person: Any, account: dict, active: bool = True) -> dict:
        u = self.add(
            User,
            person_id=person.index,
            account_id=account["id"],
            name=person.name,
            email=person.email,
            timezone=person.timezone,
            status="active" if active else "deactivated",
        )
        self.users[u["id"]] = u
        self.by_email[u["email"]] = u
        self.members[account["id"]].append(u)
        return u

    def sample_mates(self, account_id: str, k: int, besides: str) -> list[dict]:
        """``k`` active users of an account other than ``besides`` (the active lists are made once:
        the seed asks for them for every meeting)."""
        if account_id not in self._active:
            self._active[account_id] = [u for u in self.members[account_id] if u["status"] == "active"]
        pool = self._active[account_id]
        picked = self.rng.sample(pool, min(len(pool), k + 1))
        return [u for u in picked if u["id"] != besides][:k]

    # -- meetings -------------------------------------------------------------------------------------
    def passcode(self) -> str:
        while True:
            code = f"{self.rng.randint(100000, 999999)}"
            if len(set(code)) > 2 and code not in self.passcodes:
                self.passcodes.add(code)
                return code

    def meeting(
        self,
        host: dict,
        title: str,
        kind: str,
        start: datetime | None,
        duration: int,
        status: str,
        *,
        recurrence: str | None = None,
        **settings: Any,
    ) -> dict:
        self.titles.add(title)
        n = self.n[marks(Meeting).prefix] + 1
        number = meeting_number(format_id(marks(Meeting).prefix, n))
        row = {
            "number": number,
            "host_id": host["id"],
            "account_id": host["account_id"],
            "title": title,
            "kind": kind,
            "start_utc": iso(start) if start else None,
            "duration_min": duration,
            "timezone": host["timezone"],
            "rrule": RRULES[recurrence] if recurrence else None,
            "skipped_days": "",
            "passcode": self.passcode(),
            "waiting_room": settings.get("waiting_room", self.rng.random() < 0.45),
            "join_before_host": settings.get("join_before_host", self.rng.random() < 0.2),
            "mute_on_entry": settings.get("mute_on_entry", self.rng.random() < 0.3),
            "auto_recording": settings.get("auto_recording", "none"),
            "registration": settings.get("registration", False),
            "approval": settings.get("approval", "automatic"),
            "status": status,
            "join_url": join_url(number),
            "calendar_event_ref": None,
            "created_at": iso(min(self.now, (start or self.now)) - timedelta(days=self.rng.randint(2, 40))),
        }
        return self.add(Meeting, **row)

    def invite(self, meeting: dict, people: list[Any]) -> None:
        for p in people:
            self.add(Invitee, meeting_id=meeting["id"], name=p.name, email=p.email)

    def register(self, meeting: dict, person: Any, status: str) -> None:
        at = iso(self.ago(days=self.rng.randint(1, 12), minutes=self.rng.randint(0, 600)))
        self.add(
            Registrant,
            meeting_id=meeting["id"],
            name=person.name,
            email=person.email,
            status=status,
            registered_at=at,
            updated_at=at,
        )

    # -- runs -----------------------------------------------------------------------------------------
    def run(self, meeting: dict, started: datetime, ended: datetime | None, people: list[dict]) -> dict:
        """An instance with its people: ``people`` are participant dicts (user_id, name, email, role,
        state); the host is among them for a run the host started."""
        inst = self.add(
            Instance,
            meeting_id=meeting["id"],
            started_at=iso(started),
            ended_at=iso(ended) if ended else None,
            status="ended" if ended else "live",
            peak_participants=sum(1 for p in people if p["state"] != "waiting_room"),
        )
        span = max(1, int(((ended or self.now) - started).total_seconds() // 60))
        for p in people:
            joined = started + timedelta(minutes=self.rng.randint(0, max(0, min(span - 1, 10))))
            left = None
            if ended is not None or p["state"] == "left":
                left = iso(ended or joined + timedelta(minutes=self.rng.randint(1, span)))
            self.add(
                Participant,
                meeting_id=meeting["id"],
                instance_id=inst["id"],
                user_id=p["user_id"],
                name=p["name"],
                email=p["email"],
                role=p["role"],
                state=p["state"] if ended is None else "left",
                muted=p.get("muted", self.rng.random() < 0.5),
                video_on=self.rng.random() < 0.6,
                removed=p.get("removed", False),
                joined_at=iso(joined),
                left_at=left,
            )
        return inst

    def recording(
        self, meeting: dict, inst: dict, kind: str, status: str, *, trashed_days: float | None = None
    ) -> dict:
        started = datetime.fromisoformat(inst["started_at"]) + timedelta(minutes=self.rng.randint(0, 3))
        ended = datetime.fromisoformat(inst["ended_at"]) if inst["ended_at"] else None
        minutes = int((ended - started).total_seconds() // 60) if ended else 0
        size = 0.0 if kind == "local" or ended is None else round(max(1.0, minutes * CLOUD_MB_PER_MIN), 1)
        account = self.accounts[meeting["account_id"]]
        if kind == "cloud" and status != "deleted":
            account["used_storage_mb"] = round(account["used_storage_mb"] + size, 1)
        day = datetime.fromisoformat(inst["started_at"]).strftime("%b %-d")
        return self.add(
            Recording,
            meeting_id=meeting["id"],
            account_id=meeting["account_id"],
            instance_id=inst["id"],
            title=f"{meeting['title']} ({day})",
            kind=kind,
            status=status,
            started_at=iso(started),
            ended_at=iso(ended) if ended else None,
            duration_min=minutes,
            size_mb=size,
            trashed_at=iso(self.ago(days=trashed_days)) if trashed_days is not None else None,
        )

    def transcript(self, rec: dict, ready: bool, speakers: int) -> None:
        words = rec["duration_min"] * self.rng.randint(90, 150)
        self.add(
            Transcript,
            recording_id=rec["id"],
            language=self.rng.choice(LANGUAGES),
            status="ready" if ready else "processing",
            word_count=words if ready else 0,
            speaker_count=max(1, speakers) if ready else 0,
            created_at=rec["ended_at"],
        )


def person_entry(u: Any, role: str, state: str) -> dict:
    """A participant dict from a user row (or a world person joining as a guest)."""
    if isinstance(u, dict):
        return {"user_id": u["id"], "name": u["name"], "email": u["email"], "role": role, "state": state}
    return {"user_id": None, "name": u.name, "email": u.email, "role": role, "state": state}
