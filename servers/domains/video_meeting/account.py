"""The account: plan and its limits, storage, the recording retention policy, and the clock."""

from __future__ import annotations

from datetime import UTC
from typing import Annotated
from zoneinfo import ZoneInfo

from pydantic import Field

from servers.domains.video_meeting.model import (
    BASIC_LIMIT_MIN,
    CAPACITY,
    MAX_RETENTION_DAYS,
    Account,
    Session,
    video_meeting,
)
from servers.domains.video_meeting.rules import AdminAccount, PaidAdminAccount, administers
from servers.kit import Db, ToolError

RetentionDays = Annotated[
    int,
    Field(
        ge=1,
        le=3650,
        description="Days to keep cloud recordings (30-3,650).",
        examples=[30, 60, 90, 180, 365],
    ),
]


def _limits(plan: str) -> dict:
    paid = plan != "basic"
    return {
        "max_participants": CAPACITY[plan],
        "max_duration_min": 1440 if paid else BASIC_LIMIT_MIN,
        "duration_limit_applies": "always" if paid else "meetings of 3 or more people",
        "co_hosts": paid,
        "cloud_recording": paid,
        "registration": paid,
        "transcripts": paid,
    }


@video_meeting.tool(
    returns=Account,
    needs=[Session],
    says=["what plan am I on?", "how much cloud storage is left on {account}?", "show me account {account}"],
)
def get_account(db: Db, account: AdminAccount | None = None) -> dict:
    """An account's plan and what it allows, cloud storage used and free, the recording retention
    policy and its size (default: your own account). You see the accounts you belong to or administer.

    Args:
        account: The account (default: yours).
    """
    user = db.actor()
    key = account or user["account_id"]
    a = db.get(Account, key)
    if key != user["account_id"] and not administers(db, key):
        raise ToolError(f"you neither belong to nor administer account {key} ('{a['name']}')")
    role = db.scalar("SELECT role FROM account_admins WHERE account_id = ? AND user_id = ?", key, user["id"])
    users = db.scalar("SELECT count(*) FROM users WHERE account_id = ? AND status = 'active'", key)
    live = db.scalar("SELECT count(*) FROM meetings WHERE account_id = ? AND status = 'started'", key)
    return {
        **a,
        "free_storage_mb": round(max(0.0, a["cloud_storage_mb"] - a["used_storage_mb"]), 1),
        "limits": _limits(a["plan"]),
        "your_role": role or "member",
        "active_users": users,
        "live_meetings": live,
    }


@video_meeting.tool(
    writes=[Account],
    returns=Account,
    idempotent=True,
    says=[
        "keep cloud recordings on {account} for {days} days",
        "set the recording retention of {account} to {days} days",
    ],
)
def set_recording_retention(db: Db, account: PaidAdminAccount, days: RetentionDays) -> dict:
    """Set how long an account keeps cloud recordings (30 days up to the plan's maximum: pro 365,
    business 3,650); every kept cloud recording's deletion date (its end plus the policy) moves
    with it. Admins only.

    Args:
        account: The account.
        days: Days to keep a recording after its meeting.
    """
    a = db.get(Account, account)
    if not administers(db, account):
        raise ToolError(f"only an admin of account {account} ('{a['name']}') may change its retention")
    most = MAX_RETENTION_DAYS[a["plan"]]
    if a["plan"] == "basic":
        raise ToolError(
            f"account {account} ('{a['name']}') is on the basic plan, which has no cloud recordings"
        )
    if not 30 <= days <= most:
        raise ToolError(
            f"retention of {days} days is not allowed on the {a['plan']} plan: choose 30-{most:,} days"
        )
    kept = db.scalar(
        "SELECT count(*) FROM recordings WHERE account_id = ? AND kind = 'cloud' AND status IN ('processing', 'available')",
        account,
    )
    db.update(Account, account, recording_retention_days=days)
    return {
        "id": account,
        "name": a["name"],
        "recording_retention_days": days,
        "recordings_affected": kept,
    }


@video_meeting.tool(says=["what time is it?", "what's today's date?"])
def get_current_time(db: Db) -> dict:
    """The current date and time, in UTC and in your time zone, with the weekday."""
    tz = db.actor()["timezone"]
    local = db.now.replace(tzinfo=UTC).astimezone(ZoneInfo(tz))
    return {
        "utc": db.stamp(),
        "local": local.replace(tzinfo=None).isoformat(timespec="minutes"),
        "timezone": tz,
        "weekday": local.strftime("%A"),
    }
