"""Finding, scheduling, changing and deleting meetings."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Literal

from pydantic import Field

from servers.domains.video_meeting.model import (
    RRULES,
    Approval,
    AutoRecording,
    Invitee,
    Meeting,
    Participant,
    Recurrence,
    Registrant,
    User,
    join_url,
    meeting_number,
    spaced,
    video_meeting,
)
from servers.domains.video_meeting.rules import (
    DailyMeeting,
    EditableMeeting,
    ManagedUser,
    MyMeeting,
    account_of,
    administers,
    check_duration,
    check_paid,
    iso,
    label,
    managed,
    next_occurrence,
    occurs_on,
    page,
    public,
    skipped,
    to_local,
    to_utc,
    visible_sql,
)
from servers.kit import Day, Db, EmailList, Moment, Offset, PageSize, ShortText, ToolError, world

Title = Annotated[
    ShortText,
    Field(
        examples=[
            "Weekly sync", "Q3 roadmap review", "Design crit", "Budget check-in", "Hiring debrief",
            "Launch go/no-go", "Team retro", "Customer kickoff", "Office hours", "Book club",
        ]
    ),
]  # fmt: skip
_EXAMPLE_PEOPLE = world(0, "small").people[1:7]
Invitees = Annotated[
    EmailList,
    Field(
        examples=[
            [p.email for p in _EXAMPLE_PEOPLE[:2]],
            [_EXAMPLE_PEOPLE[2].email],
            [p.email for p in _EXAMPLE_PEOPLE[3:6]],
            [_EXAMPLE_PEOPLE[1].email],
        ]
    ),
]
Duration = Annotated[int, Field(ge=1, le=10_000, description="Length in minutes (15-1,440).")]
Which = Literal["upcoming", "live", "previous"]
STATUS_OF = {"upcoming": "waiting", "live": "started", "previous": "finished"}


def view(db: Db, m: dict, *, secret: bool = False) -> dict:
    """A meeting as its detail shows it; the passcode only for its host or an account admin."""
    host = db.get(User, m["host_id"])
    out = public(m)
    out.update(
        number=spaced(m["number"]),
        host_name=host["name"],
        host_email=host["email"],
        start_local=to_local(m["start_utc"], m["timezone"]),
        next_start_utc=next_occurrence(db, m) if m["status"] == "waiting" else None,
    )
    if skipped(m):
        out["skipped_days"] = skipped(m)
    if secret:
        out["passcode"] = m["passcode"]
    return out


def _may_see_secret(db: Db, m: dict) -> bool:
    return m["host_id"] == db.actor()["id"] or administers(db, m["account_id"])


@video_meeting.tool(
    returns=Meeting,
    says=[
        "what meetings do I have coming up?",
        "show my {which} meetings",
        "find the meeting called {query}",
        "which meetings is {host} hosting?",
    ],
)
def list_meetings(
    db: Db,
    which: Which | None = None,
    query: Annotated[
        ShortText,
        Field(examples=["planning", "standup", "roadmap review", "webinar", "retro", "1:1", "demo"]),
    ]
    | None = None,
    host: ManagedUser | None = None,
    limit: PageSize = 20,
    offset: Offset = 0,
) -> dict:
    """Meetings you can see: those you host, those of the accounts you administer, and those you
    are invited to or registered for; by start (previous ones newest first), those with no fixed
    time first.

    Args:
        which: upcoming (not running yet), live (running now) or previous (one-off meetings that ended).
        query: Words in the title.
        host: Only meetings of this host.
        limit: Page size.
        offset: Rows to skip.
    """
    where, params = ["status != 'deleted'"], []
    if query:  # the selective filters first: SQLite tests them in this order, row by row
        # LIKE ignores ASCII case by itself; lower() on every title cost three times the scan. The
        # titles are matched in their index (title and rowid only), a sixth cheaper than the rows.
        where.insert(0, "rowid IN (SELECT rowid FROM meetings WHERE title LIKE ? ESCAPE '\\')")
        words = query.strip().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        params.insert(0, f"%{words}%")
    if which:
        where.append("status = ?")
        params.append(STATUS_OF[which])
    if host:
        db.get(User, host)
        where.append("host_id = ?")
        params.append(host)
    seen, more = visible_sql(db)
    where.append(seen)
    params.extend(more)
    order = "DESC" if which == "previous" else ""
    matches = f"FROM meetings WHERE {' AND '.join(where)}"
    sql = (
        "SELECT id, title, kind, status, start_utc, duration_min, timezone, join_url, registration, host_id "
        # "+": sort the few matches rather than walk the start index over every meeting
        f"{matches} ORDER BY +start_utc {order}, +id {order} LIMIT ? OFFSET ?"
    )
    # the total counts the matches without sorting them first, as a count of the page query would
    count = f"SELECT count(*) {matches}"
    found = page(db, sql, *params, limit=limit, offset=offset, key="meetings", count=count)
    hosts = {r["host_id"] for r in found["meetings"]}
    names = dict(
        db.conn.execute(
            f"SELECT id, name FROM users WHERE id IN ({', '.join('?' for _ in hosts)})", tuple(sorted(hosts))
        ).fetchall()
    )  # the page's hosts only, not one lookup for every row the sort reads
    for row in found["meetings"]:
        row["host_name"] = names.get(row.pop("host_id"))
        row["start_local"] = to_local(row["start_utc"], row["timezone"])
    return found


@video_meeting.tool(
    returns=Meeting,
    says=["show me the details of {meeting}", "what's the join link for {meeting}?", "when is {meeting}?"],
)
def get_meeting(db: Db, meeting: MyMeeting) -> dict:
    """A meeting's settings, join link and number, next start, invitees, registrant counts, the
    live run (people in it and waiting) and recordings. Its host and account admins also see the
    passcode."""
    m = db.get(Meeting, meeting)
    out = view(db, m, secret=_may_see_secret(db, m))
    out["invitees"] = db.all("SELECT name, email FROM invitees WHERE meeting_id = ? ORDER BY id", meeting)
    if m["registration"]:
        counts = db.all(
            "SELECT status, count(*) AS n FROM registrants WHERE meeting_id = ? GROUP BY status", meeting
        )
        out["registrants"] = {r["status"]: r["n"] for r in counts}
    inst = db.one("SELECT * FROM instances WHERE meeting_id = ? AND status = 'live'", meeting)
    people = db.all(
        "SELECT state, count(*) AS n FROM participants WHERE meeting_id = ? AND state != 'left' GROUP BY state",
        meeting,
    )
    out["live"] = {"instance": inst["id"] if inst else None, **{r["state"]: r["n"] for r in people}}
    out["recordings"] = db.scalar(
        "SELECT count(*) FROM recordings WHERE meeting_id = ? AND status NOT IN ('deleted')", meeting
    )
    return out


def _start(db: Db, start: str | None, recurrence: str) -> str | None:
    if recurrence == "no_fixed_time":
        if start is not None:
            raise ToolError("a meeting with no fixed time takes no start; leave start out")
        return None
    if start is None:
        raise ToolError(
            "start is required (a date and time, e.g. 2026-06-02T14:30), unless recurrence is no_fixed_time"
        )
    at = to_utc(start, db.actor()["timezone"])
    if at <= db.now:
        raise ToolError(
            f"start {start} is not in the future (it is now {to_local(db.stamp(), db.actor()['timezone'])} "
            "your time); pick a later time"
        )
    return iso(at)


def _host(db: Db, host: str | None) -> dict:
    user = db.actor()
    if host is None or host == user["id"]:
        return user
    h = db.get(User, host)
    if not administers(db, h["account_id"]):
        raise ToolError(
            f"you can only schedule for users of accounts you administer; {h['name']} ({h['id']}) is in "
            f"account {h['account_id']}"
        )
    if h["status"] != "active":
        raise ToolError(f"user {h['name']} ({h['id']}) is deactivated and cannot host meetings")
    return h


@video_meeting.tool(
    writes=[Meeting, Invitee],
    returns=Meeting,
    says=[
        "schedule a meeting '{title}' at {start} for {duration_min} minutes",
        "set up '{title}' on {start} and invite {invitees}",
        "book a {recurrence} meeting called {title} starting {start}",
        "schedule '{title}' for {host} at {start}",
    ],
)
def schedule_meeting(
    db: Db,
    title: Title,
    start: Moment | None = None,
    duration_min: Duration = 60,
    recurrence: Recurrence = "none",
    invitees: Invitees | None = None,
    waiting_room: bool = True,
    join_before_host: bool = False,
    mute_on_entry: bool = False,
    auto_recording: AutoRecording = "none",
    registration: bool = False,
    approval: Approval = "automatic",
    host: ManagedUser | None = None,
) -> dict:
    """Schedule a meeting; you host it unless you name a user of an account you administer. The
    service sets a passcode and a join link.

    Args:
        title: The meeting's title.
        start: When it starts, your local time (or with an offset); in the future. Not for no_fixed_time.
        duration_min: Length in minutes, 15-1,440 (basic plan: 40 with 2 or more invitees).
        recurrence: none, daily, weekdays, weekly, biweekly, monthly, or no_fixed_time.
        invitees: Email addresses to invite.
        waiting_room: People wait to be admitted.
        join_before_host: People may join before the host starts it.
        mute_on_entry: People join muted.
        auto_recording: none, local or cloud (cloud needs a pro or business plan).
        registration: People must register first (pro or business).
        approval: automatic or manual approval of registrants.
        host: The user who hosts it (default: you).
    """
    h = _host(db, host)
    account = db.get("accounts", h["account_id"])
    check_duration(db, account, duration_min, 1 + len(invitees or []))
    if auto_recording == "cloud":
        check_paid(account, "cloud recording")
    if registration:
        check_paid(account, "registration")
        if recurrence == "no_fixed_time":
            raise ToolError(
                "registration needs a fixed time; recurring meetings with no fixed time cannot require it"
            )
    if h["email"] in (invitees or []):
        raise ToolError(f"{h['email']} hosts the meeting and cannot also be invited")
    start_utc = _start(db, start, recurrence)
    kind = {"none": "scheduled", "no_fixed_time": "recurring_floating"}.get(recurrence, "recurring_fixed")
    number = meeting_number(db.next_id(Meeting))
    code = f"{(int(number) * 7 + 104_729) % 900_000 + 100_000}"
    m = db.insert(
        Meeting, number=number, host_id=h["id"], account_id=h["account_id"], title=title, kind=kind,
        start_utc=start_utc, duration_min=duration_min, timezone=h["timezone"], rrule=RRULES.get(recurrence),
        skipped_days="", passcode=code, waiting_room=waiting_room, join_before_host=join_before_host,
        mute_on_entry=mute_on_entry, auto_recording=auto_recording, registration=registration,
        approval=approval, status="waiting", join_url=join_url(number), calendar_event_ref=None,
        created_at=db.stamp(),
    )  # fmt: skip
    for email in invitees or []:
        person = world_person(db, email)
        db.add(Invitee, meeting_id=m["id"], name=person, email=email)
    out = view(db, m, secret=True)
    out["invitees"] = list(invitees or [])
    return out


def world_person(db: Db, email: str) -> str:
    """The name shown for an invitee: the user's name if they have an account, else the address."""
    name = db.scalar("SELECT name FROM users WHERE lower(email) = lower(?)", email)
    return name or email.split("@", 1)[0]


@video_meeting.tool(
    writes=[Meeting, Invitee],
    returns=Meeting,
    says=[
        "move {meeting} to {start}",
        "change the title of {meeting} to '{title}'",
        "make {meeting} {duration_min} minutes long",
        "turn the waiting room of {meeting} off",
    ],
)
def update_meeting(
    db: Db,
    meeting: EditableMeeting,
    title: Title | None = None,
    start: Moment | None = None,
    duration_min: Duration | None = None,
    waiting_room: bool | None = None,
    join_before_host: bool | None = None,
    mute_on_entry: bool | None = None,
    auto_recording: AutoRecording | None = None,
    add_invitees: Invitees | None = None,
) -> dict:
    """Change a meeting you host or administer. A live meeting keeps its time and length; a finished
    one cannot change.

    Args:
        meeting: The meeting.
        title: New title.
        start: New start, your local time; in the future (for recurring meetings, the series' first start).
        duration_min: New length in minutes.
        waiting_room: Turn the waiting room on or off.
        join_before_host: Let people join before the host.
        mute_on_entry: Mute people as they join.
        auto_recording: none, local or cloud.
        add_invitees: More email addresses to invite.
    """
    m = managed(db, meeting, "change")
    given = {
        "title": title, "duration_min": duration_min, "waiting_room": waiting_room,
        "join_before_host": join_before_host, "mute_on_entry": mute_on_entry, "auto_recording": auto_recording,
    }  # fmt: skip
    changes = {k: v for k, v in given.items() if v is not None}
    if not changes and start is None and not add_invitees:
        raise ToolError("nothing to change: give a title, start, duration_min, a setting or add_invitees")
    if m["status"] == "finished":
        raise ToolError(f"meeting {label(m)} already took place; schedule a new meeting instead")
    if m["status"] == "started" and (start is not None or duration_min is not None):
        raise ToolError(f"meeting {label(m)} is live: its start and length cannot change until it ends")
    account = account_of(db, m)
    invited = db.scalar("SELECT count(*) FROM invitees WHERE meeting_id = ?", meeting)
    check_duration(db, account, duration_min or m["duration_min"], 1 + invited + len(add_invitees or []))
    if auto_recording == "cloud":
        check_paid(account, "cloud recording")
    if start is not None:
        if m["kind"] == "recurring_floating":
            raise ToolError(f"meeting {label(m)} is recurring with no fixed time; it takes no start")
        changes["start_utc"] = _start(db, start, "none")
    for email in add_invitees or []:
        if db.scalar(
            "SELECT 1 FROM invitees WHERE meeting_id = ? AND lower(email) = lower(?)", meeting, email
        ):
            raise ToolError(f"{email} is already invited to {label(m)}")
        db.add(Invitee, meeting_id=meeting, name=world_person(db, email), email=email)
    after = db.update(Meeting, meeting, **changes) if changes else m
    return view(db, after, secret=True)


@video_meeting.tool(
    writes=[Meeting, Registrant, Participant],
    returns=Meeting,
    destructive=True,
    says=["delete {meeting}", "cancel the meeting {meeting} altogether"],
)
def delete_meeting(db: Db, meeting: EditableMeeting) -> dict:
    """Delete a meeting (every occurrence of a recurring one). Registrations are cancelled and anyone
    waiting for the host is turned away. A live meeting must be ended first."""
    m = managed(db, meeting, "delete")
    if m["status"] == "started":
        raise ToolError(f"meeting {label(m)} is live; end it with end_meeting before deleting it")
    cancelled = db.execute(
        "UPDATE registrants SET status = 'cancelled', updated_at = ? WHERE meeting_id = ? "
        "AND status IN ('pending', 'approved')",
        db.stamp(),
        meeting,
    )
    turned_away = db.execute(
        "UPDATE participants SET state = 'left', left_at = ? WHERE meeting_id = ? AND state != 'left'",
        db.stamp(),
        meeting,
    )
    db.update(Meeting, meeting, status="deleted")
    return {
        "id": meeting,
        "title": m["title"],
        "status": "deleted",
        "registrations_cancelled": cancelled,
        "turned_away": turned_away,
    }


@video_meeting.tool(
    writes=[Meeting],
    returns=Meeting,
    destructive=True,
    says=["cancel {meeting} on {day}", "skip the {day} occurrence of {meeting}"],
)
def cancel_occurrence(db: Db, meeting: DailyMeeting, day: Day) -> dict:
    """Delete one occurrence of a fixed-time recurring meeting; the rest of the series stays.

    Args:
        meeting: The recurring meeting.
        day: The date of the occurrence (the meeting's local calendar), today or later.
    """
    m = managed(db, meeting, "change")
    if m["kind"] != "recurring_fixed":
        raise ToolError(
            f"meeting {label(m)} is {m['kind'].replace('_', ' ')}, not a fixed-time recurring meeting"
        )
    wanted = date.fromisoformat(day)
    today = date.fromisoformat((to_local(db.stamp(), m["timezone"]) or "")[:10])
    if wanted < today:
        raise ToolError(
            f"{day} is in the past (today is {today.isoformat()}); only coming occurrences can be cancelled"
        )
    if not occurs_on(m, wanted):
        raise ToolError(
            f"meeting {label(m)} ({m['rrule']}, from {to_local(m['start_utc'], m['timezone'])}) has no occurrence on {day}"
        )
    if day in skipped(m):
        raise ToolError(f"the {day} occurrence of {label(m)} was already cancelled")
    if m["status"] == "started" and wanted == today:
        raise ToolError(f"today's occurrence of {label(m)} is live; end it instead")
    after = db.update(Meeting, meeting, skipped_days=",".join(sorted([*skipped(m), day])))
    return {
        "id": meeting,
        "title": m["title"],
        "cancelled_day": day,
        "next_start_utc": next_occurrence(db, after),
    }
