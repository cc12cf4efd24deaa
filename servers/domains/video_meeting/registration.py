"""Registration: who registered for a meeting, and approving, denying or cancelling them."""

from __future__ import annotations

from typing import Literal

from servers.domains.video_meeting.model import Meeting, Registrant, video_meeting
from servers.domains.video_meeting.rules import PendingRegistrant, RegistrationMeeting, label, managed, page
from servers.kit import Db, Offset, PageSize, ToolError

RegistrantStatus = Literal["pending", "approved", "denied", "cancelled"]
Action = Literal["approve", "deny", "cancel"]
# what each action needs the registrant to be now, and what it makes them
ALLOWED = {"approve": ("pending",), "deny": ("pending", "approved"), "cancel": ("pending", "approved")}
RESULT = {"approve": "approved", "deny": "denied", "cancel": "cancelled"}


@video_meeting.tool(
    returns=Registrant,
    says=["who registered for {meeting}?", "show the {status} registrants of {meeting}"],
)
def list_registrants(
    db: Db,
    meeting: RegistrationMeeting,
    status: RegistrantStatus | None = None,
    limit: PageSize = 20,
    offset: Offset = 0,
) -> dict:
    """The registrants of a meeting that requires registration, optionally by status.

    Args:
        meeting: The meeting.
        status: pending, approved, denied or cancelled.
        limit: Page size.
        offset: Rows to skip.
    """
    m = managed(db, meeting, "see the registrants of")
    if not m["registration"]:
        raise ToolError(f"meeting {label(m)} does not require registration, so it has no registrants")
    cond, args = ("AND status = ?", [status]) if status else ("", [])
    sql = f"SELECT * FROM registrants WHERE meeting_id = ? {cond} ORDER BY id"
    found = page(db, sql, meeting, *args, limit=limit, offset=offset, key="registrants")
    return {"meeting": meeting, "title": m["title"], "approval": m["approval"], **found}


@video_meeting.tool(
    writes=[Registrant],
    returns=Registrant,
    idempotent=True,
    says=["{action} the registration of {registrant}", "please {action} {registrant}'s registration"],
)
def update_registrant_status(db: Db, registrant: PendingRegistrant, action: Action) -> dict:
    """Approve a pending registrant, deny a pending or approved one, or cancel a registration.
    Only for meetings that are not over.

    Args:
        registrant: The registrant.
        action: approve, deny or cancel.
    """
    r = db.get(Registrant, registrant)
    m = managed(db, r["meeting_id"], "manage the registrants of")
    if not m["registration"]:
        raise ToolError(f"meeting {label(m)} does not require registration")
    if m["status"] == "finished":
        raise ToolError(f"meeting {label(m)} is over; its registrations can no longer change")
    if r["status"] not in ALLOWED[action]:
        allowed = " or ".join(ALLOWED[action])
        raise ToolError(
            f"registrant {r['name']} ({registrant}) is {r['status']}; only {allowed} registrants can be "
            f"{RESULT[action]}"
        )
    after = db.update(Registrant, registrant, status=RESULT[action], updated_at=db.stamp())
    return {**after, "meeting_title": db.get(Meeting, m["id"])["title"]}
