"""Rules several tools share (who may act on a meeting, plan limits, times, starting and ending a
run, stopping a recording) and the SQL conditions the sampler uses to pick good inputs, which the
tools enforce in turn."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

from servers.domains.video_meeting.model import (
    BASIC_GROUP,
    BASIC_LIMIT_MIN,
    CAPACITY,
    CLOUD_MB_PER_MIN,
    MAX_DURATION,
    MIN_DURATION,
    TRASH_DAYS,
    Account,
    Instance,
    Meeting,
    Participant,
    Recording,
    Registrant,
    User,
)
from servers.kit import Db, Ref, ToolError

# -- SQL: who is acting and what they reach --------------------------------------------------------

ME = "(SELECT user_id FROM sessions)"
MY_EMAIL = f"(SELECT email FROM users WHERE id = {ME})"
ADMINISTERED = f"(SELECT account_id FROM account_admins WHERE user_id = {ME})"
# Over meetings: the accounts the signed-in user administers. The tools also let a host manage her
# own meetings; the sampler's conditions use the account alone (the persona's own account is one
# she administers), which an index answers without an OR.
MANAGED = f"account_id IN {ADMINISTERED}"
PAID_ACCOUNT = "account_id IN (SELECT id FROM accounts WHERE plan != 'basic')"
LIVE = f"status = 'started' AND {MANAGED}"
LIVE_IDS = f"(SELECT id FROM meetings WHERE {LIVE})"
# a live meeting below its plan's capacity (people in it, host included)
NOT_FULL = (
    "(SELECT count(*) FROM participants p WHERE p.meeting_id = meetings.id AND p.state = 'in_meeting') < "
    "(SELECT CASE a.plan WHEN 'business' THEN 300 ELSE 100 END FROM accounts a WHERE a.id = meetings.account_id)"
)
RECORDING_NOW = "id IN (SELECT meeting_id FROM recordings WHERE status = 'recording')"
MY_ACTIVE = f"id IN (SELECT meeting_id FROM participants WHERE user_id = {ME} AND state != 'left')"
INVITED = f"id IN (SELECT meeting_id FROM invitees WHERE email = {MY_EMAIL})"
APPROVED = f"id IN (SELECT meeting_id FROM registrants WHERE email = {MY_EMAIL} AND status = 'approved')"
REMOVED = f"id IN (SELECT meeting_id FROM participants WHERE user_id = {ME} AND removed = 1)"
# every meeting the signed-in user can see, as one id set (a UNION of index lookups, not an OR)
VISIBLE_IDS = (
    f"(SELECT id FROM meetings WHERE host_id = {ME} UNION SELECT id FROM meetings WHERE {MANAGED} "
    f"UNION SELECT meeting_id FROM invitees WHERE email = {MY_EMAIL} "
    f"UNION SELECT meeting_id FROM registrants WHERE email = {MY_EMAIL} AND status = 'approved')"
)
VISIBLE = f"id IN {VISIBLE_IDS}"

MyMeeting = Ref[Meeting, f"{MANAGED} AND status != 'deleted'"]
ManagedMeeting = Ref[Meeting, f"status != 'deleted' AND {MANAGED}"]
EditableMeeting = Ref[Meeting, f"status = 'waiting' AND {MANAGED}"]
DailyMeeting = Ref[
    Meeting,
    f"status = 'waiting' AND {MANAGED} AND kind = 'recurring_fixed' AND rrule IN ('FREQ=DAILY', "
    "'FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR')",
]
StartableMeeting = Ref[
    Meeting,
    f"host_id = {ME} AND status = 'waiting' AND NOT EXISTS (SELECT 1 FROM meetings m2 "
    f"WHERE m2.host_id = {ME} AND m2.status = 'started')",
]
LiveMeeting = Ref[Meeting, LIVE]
# meetings the persona is invited to and may join now (one index lookup by her email drives it)
JoinableMeeting = Ref[
    Meeting,
    f"{INVITED} AND status IN ('waiting', 'started') AND host_id != {ME} AND registration = 0 "
    f"AND id NOT IN (SELECT meeting_id FROM participants WHERE user_id = {ME} AND (state != 'left' OR removed = 1))",
]
LeavableMeeting = Ref[
    Meeting,
    f"id IN (SELECT meeting_id FROM participants WHERE user_id = {ME} AND state != 'left' AND role != 'host')",
]
RecordableMeeting = Ref[Meeting, f"{LIVE} AND {PAID_ACCOUNT} AND NOT {RECORDING_NOW}"]
RecordingMeeting = Ref[Meeting, f"{LIVE} AND {RECORDING_NOW}"]
RegistrationMeeting = Ref[Meeting, f"registration = 1 AND status != 'deleted' AND {MANAGED}"]

WaitingPerson = Ref[
    Participant,
    f"state = 'waiting_room' AND removed = 0 AND instance_id IS NOT NULL AND meeting_id IN "
    f"(SELECT id FROM meetings WHERE {LIVE} AND {NOT_FULL})",
]
RemovablePerson = Ref[
    Participant,
    f"state != 'left' AND role != 'host' AND instance_id IS NOT NULL AND meeting_id IN {LIVE_IDS}",
]
PresentPerson = Ref[Participant, f"state = 'in_meeting' AND role != 'host' AND meeting_id IN {LIVE_IDS}"]
PromotablePerson = Ref[
    Participant,
    f"state = 'in_meeting' AND role = 'attendee' AND meeting_id IN "
    f"(SELECT id FROM meetings WHERE {LIVE} AND {PAID_ACCOUNT})",
]
OPEN_REGISTRATION = (
    f"(SELECT id FROM meetings WHERE registration = 1 AND status IN ('waiting', 'started') AND {MANAGED})"
)
PendingRegistrant = Ref[Registrant, f"status = 'pending' AND meeting_id IN {OPEN_REGISTRATION}"]
MINE_RECORDED = f"account_id IN {ADMINISTERED}"  # over recordings (their meeting's account)
AnyRecording = Ref[Recording, f"status != 'deleted' AND {MINE_RECORDED}"]
TrashableRecording = Ref[Recording, f"status = 'available' AND kind = 'cloud' AND {MINE_RECORDED}"]
RestorableRecording = Ref[
    Recording,
    f"status = 'trashed' AND trashed_at >= strftime('%Y-%m-%dT%H:%M:%S', "
    f"(SELECT value FROM _meta WHERE key = 'now'), '-{TRASH_DAYS} days') AND {MINE_RECORDED}",
]
TRANSCRIBABLE = (
    f"{MINE_RECORDED} AND status = 'available' AND kind = 'cloud' "
    "AND NOT EXISTS (SELECT 1 FROM transcripts t WHERE t.recording_id = recordings.id) "
    "AND account_id IN (SELECT id FROM accounts WHERE plan != 'basic')"
)
UntranscribedRecording = Ref[Recording, TRANSCRIBABLE]
AdminAccount = Ref[Account, f"id IN {ADMINISTERED}"]
PaidAdminAccount = Ref[Account, f"id IN {ADMINISTERED} AND plan != 'basic'"]
MANAGED_USERS = f"(account_id IN {ADMINISTERED} OR id = {ME})"
ManagedUser = Ref[User, f"status = 'active' AND {MANAGED_USERS}"]


def _fmt(x: float) -> str:
    return f"{x:,.0f}" if x == int(x) else f"{x:,.1f}"


# -- time ------------------------------------------------------------------------------------------


def iso(moment: datetime) -> str:
    return moment.isoformat(timespec="seconds")


def to_utc(text: str, tz: str) -> datetime:
    """A Moment as the acting user wrote it (local wall-clock time in ``tz`` unless it carries an
    offset) as a naive UTC datetime."""
    moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=ZoneInfo(tz))
    return moment.astimezone(UTC).replace(tzinfo=None)


def to_local(utc: str | None, tz: str) -> str | None:
    if utc is None:
        return None
    moment = datetime.fromisoformat(utc).replace(tzinfo=UTC).astimezone(ZoneInfo(tz))
    return moment.replace(tzinfo=None).isoformat(timespec="minutes")


def minutes_between(start: str, end: datetime) -> int:
    return max(0, int((end - datetime.fromisoformat(start)).total_seconds() // 60))


def local_day(utc: str, tz: str) -> date:
    return datetime.fromisoformat(to_local(utc, tz) or utc).date()


# -- who is acting -----------------------------------------------------------------------------------


def administers(db: Db, account_id: str) -> bool:
    return bool(
        db.scalar(
            "SELECT 1 FROM account_admins WHERE account_id = ? AND user_id = ?", account_id, db.actor()["id"]
        )
    )


def visible_sql(db: Db, alias: str = "") -> tuple[str, list]:
    """SQL (and its parameters) over meetings: those the signed-in user hosts, administers, is
    invited to or registered for. The user's id, email and accounts are bound as values (nested
    session subqueries inside an OR were rebuilt for every row), and ``+`` keeps SQLite from a
    multi-index OR, which costs ten times a plain scan of one account's few thousand meetings."""
    user = db.actor()
    accounts = [
        r["account_id"] for r in db.all("SELECT account_id FROM account_admins WHERE user_id = ?", user["id"])
    ]
    a = f"{alias}." if alias else ""
    marks = ", ".join("?" for _ in accounts) or "NULL"
    sql = (
        f"(+{a}account_id IN ({marks}) OR +{a}host_id = ? OR +{a}id IN (SELECT meeting_id FROM invitees "
        f"WHERE email = ?) OR +{a}id IN (SELECT meeting_id FROM registrants WHERE email = ? AND status = 'approved'))"
    )
    return sql, [*accounts, user["id"], user["email"], user["email"]]


def managed_recordings_sql(db: Db) -> tuple[str, list]:
    """SQL over recordings ``r``: those of meetings the signed-in user hosts or administers."""
    user = db.actor()
    accounts = [
        r["account_id"] for r in db.all("SELECT account_id FROM account_admins WHERE user_id = ?", user["id"])
    ]
    marks = ", ".join("?" for _ in accounts) or "NULL"
    sql = f"(+r.account_id IN ({marks}) OR +r.meeting_id IN (SELECT id FROM meetings WHERE host_id = ?))"
    return sql, [*accounts, user["id"]]


def label(meeting: dict) -> str:
    return f"{meeting['id']} ('{meeting['title']}')"


def may_manage(db: Db, m: dict, action: str) -> dict:
    """``m`` if the signed-in user hosts it or administers its account, else a refusal that says
    who may ``action``."""
    if m["host_id"] != db.actor()["id"] and not administers(db, m["account_id"]):
        host = db.get(User, m["host_id"])
        account = db.get(Account, m["account_id"])
        raise ToolError(
            f"only the host ({host['name']}) or an admin of account {account['id']} ('{account['name']}') "
            f"may {action} meeting {label(m)}; you are neither"
        )
    return m


def managed(db: Db, meeting_id: str, action: str) -> dict:
    """A meeting the signed-in user may ``action`` that was not deleted."""
    m = may_manage(db, db.get(Meeting, meeting_id), action)
    if m["status"] == "deleted":
        raise ToolError(f"meeting {label(m)} was deleted")
    return m


def account_of(db: Db, meeting: dict) -> dict:
    return db.get(Account, meeting["account_id"])


def check_duration(db: Db, account: dict, duration: int, people: int) -> None:
    """15-1,440 minutes; a basic-plan meeting of 3 or more people lasts at most 40 minutes."""
    if not MIN_DURATION <= duration <= MAX_DURATION:
        raise ToolError(
            f"duration {duration} minutes is out of range: meetings last {MIN_DURATION}-{MAX_DURATION} minutes"
        )
    if account["plan"] == "basic" and people >= BASIC_GROUP and duration > BASIC_LIMIT_MIN:
        raise ToolError(
            f"account {account['id']} ('{account['name']}') is on the basic plan: a meeting of {people} "
            f"people (the host and {people - 1} invitees) may last at most {BASIC_LIMIT_MIN} minutes, "
            f"not {duration}; upgrade to pro or business, or invite fewer people"
        )


def check_paid(account: dict, feature: str) -> None:
    if account["plan"] not in ("pro", "business"):
        raise ToolError(
            f"{feature} needs a pro or business plan; account {account['id']} ('{account['name']}') "
            "is on the basic plan"
        )


def capacity(db: Db, meeting: dict) -> tuple[int, int]:
    """(people in the meeting now, the plan's limit)."""
    present = db.scalar(
        "SELECT count(*) FROM participants WHERE meeting_id = ? AND state = 'in_meeting'", meeting["id"]
    )
    return present, CAPACITY[account_of(db, meeting)["plan"]]


def check_room(db: Db, meeting: dict, adding: int = 1) -> None:
    present, limit = capacity(db, meeting)
    if present + adding > limit:
        plan = account_of(db, meeting)["plan"]
        raise ToolError(
            f"meeting {label(meeting)} is full: {present} of {limit} people are in it (the {plan} plan's "
            f"limit); {adding} more cannot be admitted"
        )


def live(db: Db, meeting: dict) -> dict:
    """The meeting's live instance, or a refusal saying the meeting is not running."""
    if meeting["status"] != "started":
        raise ToolError(f"meeting {label(meeting)} is not live (it is {meeting['status']}); start it first")
    return db.one("SELECT * FROM instances WHERE meeting_id = ? AND status = 'live'", meeting["id"])


def participant_in(db: Db, participant_id: str, action: str) -> tuple[dict, dict]:
    """A participant of a live meeting the signed-in user manages, with that meeting."""
    p = db.get(Participant, participant_id)
    m = managed(db, p["meeting_id"], action)
    live(db, m)
    return p, m


# -- starting and ending a run -----------------------------------------------------------------------


def open_instance(db: Db, meeting: dict, host: dict | None) -> dict:
    """Start a run: a live instance; people waiting for the host join it (into the meeting when the
    waiting room is off, else they keep waiting to be admitted); the host joins as host."""
    now = db.stamp()
    inst = db.insert(
        Instance, meeting_id=meeting["id"], started_at=now, ended_at=None, status="live", peak_participants=0
    )
    waiting = db.all(
        "SELECT id FROM participants WHERE meeting_id = ? AND state = 'waiting_room' AND instance_id IS NULL "
        "ORDER BY id",
        meeting["id"],
    )
    into = "waiting_room" if meeting["waiting_room"] else "in_meeting"
    limit = CAPACITY[account_of(db, meeting)["plan"]]
    for i, row in enumerate(waiting):
        state = into if into == "waiting_room" or i + (host is not None) < limit else "waiting_room"
        db.update(Participant, row["id"], instance_id=inst["id"], state=state, muted=meeting["mute_on_entry"])
    if host is not None:
        db.add(
            Participant,
            meeting_id=meeting["id"],
            instance_id=inst["id"],
            user_id=host["id"],
            name=host["name"],
            email=host["email"],
            role="host",
            state="in_meeting",
            muted=False,
            video_on=True,
            removed=False,
            joined_at=now,
            left_at=None,
        )
    db.update(Meeting, meeting["id"], status="started")
    present, _ = capacity(db, meeting)
    return db.update(Instance, inst["id"], peak_participants=present)


def finish_recording(db: Db, rec: dict) -> dict:
    """Stop a recording now: a cloud one goes to processing (its size counts against the account's
    storage at once), a local one is saved on the host's computer."""
    minutes = minutes_between(rec["started_at"], db.now)
    meeting = db.get(Meeting, rec["meeting_id"])
    account = account_of(db, meeting)
    if rec["kind"] == "local":
        done = db.update(
            Recording, rec["id"], status="available", ended_at=db.stamp(), duration_min=minutes, size_mb=0.0
        )
        return {**done, "expires_on": None}
    size = round(max(1.0, minutes * CLOUD_MB_PER_MIN), 1)
    db.update(Account, account["id"], used_storage_mb=round(account["used_storage_mb"] + size, 1))
    done = db.update(
        Recording, rec["id"], status="processing", ended_at=db.stamp(), duration_min=minutes, size_mb=size
    )
    return {**done, "expires_on": expires_on(db, done)}


def close_instance(db: Db, meeting: dict) -> dict:
    """End a run for everyone: the recording stops, everyone leaves, the meeting is finished (a
    recurring one waits for its next occurrence)."""
    inst = live(db, meeting)
    rec = db.one("SELECT * FROM recordings WHERE meeting_id = ? AND status = 'recording'", meeting["id"])
    if rec is not None:
        finish_recording(db, rec)
    now = db.stamp()
    db.execute(
        "UPDATE participants SET state = 'left', left_at = ? WHERE meeting_id = ? AND state != 'left'",
        now,
        meeting["id"],
    )
    peak = max(inst["peak_participants"], 0)
    db.update(Instance, inst["id"], status="ended", ended_at=now, peak_participants=peak)
    recurring = meeting["kind"].startswith("recurring")
    db.update(Meeting, meeting["id"], status="waiting" if recurring else "finished")
    return {"instance_id": inst["id"], "recording_id": rec["id"] if rec else None}


def public(meeting: dict) -> dict:
    """A meeting as lists show it: no passcode."""
    return {k: v for k, v in meeting.items() if k not in ("passcode", "skipped_days")}


# -- recurrence ----------------------------------------------------------------------------------------


def occurs_on(meeting: dict, day: date) -> bool:
    """Whether a fixed-time recurring meeting has an occurrence on ``day`` (its local calendar)."""
    if meeting["kind"] != "recurring_fixed" or not meeting["start_utc"]:
        return False
    first = local_day(meeting["start_utc"], meeting["timezone"])
    if day < first:
        return False
    rule = meeting["rrule"] or ""
    if rule == "FREQ=DAILY":
        return True
    if "BYDAY=MO,TU,WE,TH,FR" in rule:
        return day.weekday() < 5
    if rule.startswith("FREQ=WEEKLY"):
        weeks = (day - first).days / 7
        return day.weekday() == first.weekday() and weeks % (2 if "INTERVAL=2" in rule else 1) == 0
    if rule == "FREQ=MONTHLY":
        return day.day == first.day
    return False


def skipped(meeting: dict) -> list[str]:
    return [d for d in (meeting["skipped_days"] or "").split(",") if d]


def next_occurrence(db: Db, meeting: dict) -> str | None:
    """The next start (UTC) of a fixed-time recurring meeting, skipping deleted occurrences and
    today's if it was already held."""
    if meeting["kind"] != "recurring_fixed" or not meeting["start_utc"]:
        return meeting["start_utc"] if meeting["kind"] == "scheduled" else None
    tz = meeting["timezone"]
    at = datetime.fromisoformat(to_local(meeting["start_utc"], tz) or "")
    today = datetime.fromisoformat(to_local(db.stamp(), tz) or "").date()
    held = {
        local_day(r["started_at"], tz).isoformat()
        for r in db.all("SELECT started_at FROM instances WHERE meeting_id = ? AND started_at >= ?", meeting["id"],
                        iso(db.now - timedelta(days=1)))
    }  # fmt: skip
    for k in range(0, 400):
        day = today + timedelta(days=k)
        if (
            occurs_on(meeting, day)
            and day.isoformat() not in skipped(meeting)
            and day.isoformat() not in held
        ):
            start = to_utc(f"{day.isoformat()}T{at.strftime('%H:%M')}", tz)
            if start > db.now - timedelta(minutes=meeting["duration_min"]):
                return iso(start)
    return None


def bump_peak(db: Db, meeting: dict) -> None:
    """Keep the live instance's peak head count up to date after people come in."""
    present, _ = capacity(db, meeting)
    db.execute(
        "UPDATE instances SET peak_participants = ? WHERE meeting_id = ? AND status = 'live' AND peak_participants < ?",
        present,
        meeting["id"],
        present,
    )


def expires_on(db: Db, rec: dict) -> str | None:
    """The day a cloud recording's account deletes it: its end plus the retention policy. Derived,
    not stored, so changing the policy moves every recording's date by changing one row."""
    if rec["kind"] != "cloud" or not rec["ended_at"]:
        return None
    days = db.scalar("SELECT recording_retention_days FROM accounts WHERE id = ?", rec["account_id"])
    return (datetime.fromisoformat(rec["ended_at"]).date() + timedelta(days=days)).isoformat()


def page(
    db: Db, sql: str, *params: object, limit: int, offset: int, key: str, count: str | None = None
) -> dict:
    """``db.page``, or with ``count`` (a cheaper query with the same parameters counting the same
    rows) for a ``sql`` that takes the page's LIMIT and OFFSET itself, as its last two parameters."""
    if count is None:
        return db.page(sql, *params, limit=limit, offset=offset, key=key)
    rows = db.all(sql, *params, limit + 1, offset)
    return db.paged(rows, limit=limit, offset=offset, key=key, count=lambda: db.scalar(count, *params))
