"""Rules the tools share (who may do what, availability, capabilities, local time, the event log)
and the SQL conditions the sampler uses to pick good inputs, which the tools enforce in turn."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated
from zoneinfo import ZoneInfo

from pydantic import Field

from servers.domains.iot_devices.model import (
    CAPABILITIES,
    GUEST_KINDS,
    MANAGERS,
    MIN_BATTERY,
    MOTOR_KINDS,
    Automation,
    Device,
    EventLog,
    Home,
    LockCode,
    Scene,
    kind_label,
)
from servers.kit import Db, Ref, Sensitive, ToolError

UTC = ZoneInfo("UTC")

# -- who is acting ------------------------------------------------------------------------------


def role_in(db: Db, home_id: str) -> str | None:
    return db.scalar("SELECT role FROM residents WHERE home_id = ? AND user_id = ?", home_id, db.actor_id())


def label(row: dict) -> str:
    return f"'{row['name']}' ({row['id']})"


def home_for(db: Db, home_id: str, *, manage: str | None = None, member: str | None = None) -> dict:
    """The home, once the signed-in user is a resident of it.

    ``manage`` names an action only owners and admins may take; ``member`` one guests may not."""
    home = db.get(Home, home_id)
    role = role_in(db, home_id)
    if role is None:
        raise ToolError(f"you are not a resident of home {label(home)}; list_homes shows your homes")
    if manage and role not in MANAGERS:
        raise ToolError(f"only an owner or admin of {label(home)} may {manage}; your role there is {role}")
    if member and role == "guest":
        raise ToolError(f"guests of {label(home)} may not {member}; ask an owner, admin or member")
    return home


def supports(device: dict, action: str) -> None:
    """Refuse an action the device's kind does not have, naming the kind and what it supports."""
    allowed = CAPABILITIES[device["kind"]]
    if action in allowed:
        return
    kind = kind_label(device["kind"])
    what = ", ".join(allowed) if allowed else "nothing but reading its state (get_device, get_sensor_history)"
    raise ToolError(f"{label(device)} is a {kind} and does not support {action}; a {kind} supports: {what}")


def available(device: dict) -> None:
    """An offline device, or one whose battery is empty, cannot take commands."""
    if not device["online"]:
        raise ToolError(
            f"device {label(device)} is unavailable: it has been offline since {device['last_changed_at']}"
        )
    if device["battery_pct"] == 0:
        raise ToolError(f"device {label(device)} is unavailable: its battery is empty (0%)")


def motor_battery(device: dict) -> None:
    """A battery-powered motor (lock bolt, blinds, garage opener) needs MIN_BATTERY to move."""
    pct = device["battery_pct"]
    if device["kind"] in MOTOR_KINDS and pct is not None and pct < MIN_BATTERY:
        raise ToolError(
            f"the battery of {label(device)} is low ({pct}%): it needs at least {MIN_BATTERY}% to move; "
            "replace or charge the battery first"
        )


def device_for(db: Db, device_id: str, action: str, *, online: bool = True) -> tuple[dict, dict]:
    """(device, home) after the resident, role, capability and availability checks of a command."""
    device = db.get(Device, device_id)
    home = home_for(db, device["home_id"])
    role = role_in(db, home["id"])
    supports(device, action)
    if role == "guest" and device["kind"] not in GUEST_KINDS:
        raise ToolError(
            f"guests of {label(home)} may operate lights, fans, TVs and speakers only; "
            f"{label(device)} is a {kind_label(device['kind'])}"
        )
    if role == "member" and action == "add_lock_code":
        raise ToolError(f"only an owner or admin of {label(home)} may manage lock codes; you are a member")
    if online:
        available(device)
    return device, home


# -- time -------------------------------------------------------------------------------------


def local_now(db: Db, home: dict) -> datetime:
    """The reference moment on the home's wall clock (db.now is UTC)."""
    return db.now.replace(tzinfo=UTC).astimezone(ZoneInfo(home["timezone"])).replace(tzinfo=None)


def local_stamp(db: Db, home: dict) -> str:
    return local_now(db, home).isoformat(timespec="seconds")


# -- writing ---------------------------------------------------------------------------------


def log(db: Db, home: dict, kind: str, message: str, device: dict | None = None) -> None:
    db.add(
        EventLog,
        home_id=home["id"],
        device_id=device["id"] if device else None,
        user_id=db.actor_id(),
        kind=kind,
        message=message,
        at=local_stamp(db, home),
    )


def change(db: Db, home: dict, device: dict, message: str, **values: object) -> dict:
    """Update a device, stamp it and log the actuation; returns the device as stored."""
    after = db.update(Device, device["id"], **values, last_changed_at=local_stamp(db, home))
    log(db, home, "actuation", f"{device['name']}: {message}", device)
    return after


# -- Ref conditions: the sampler's picks ----------------------------------------------------------

ME_SQL = "(SELECT user_id FROM sessions)"


def _homes(roles: str = "") -> str:
    extra = f" AND role IN ({roles})" if roles else ""
    return f"(SELECT home_id FROM residents WHERE user_id = {ME_SQL}{extra})"


# The persona is a resident of nearly every home, so "in one of my homes" narrows nothing: the
# conditions write it ``+home_id IN ...`` (the same rows; the "+" only keeps SQLite from walking
# the device index home by home), which leaves the index to what the sampler adds, such as "in
# this home" or "in this room". A long list of kinds is ``+kind`` for the same reason.


MY_HOMES = _homes()
MANAGED_HOMES = _homes("'owner', 'admin'")
ACTING_HOMES = _homes("'owner', 'admin', 'member'")
READY = "online = 1 AND (battery_pct IS NULL OR battery_pct > 0)"
MOTOR_OK = f"(battery_pct IS NULL OR battery_pct >= {MIN_BATTERY})"
GUEST_OK = "kind IN ('light', 'fan', 'tv', 'speaker')"
# a device I may command: any kind in a home I act in, guest kinds where I am a guest
COMMANDABLE = f"{READY} AND (+home_id IN {ACTING_HOMES} OR ({GUEST_OK} AND +home_id IN {MY_HOMES}))"
DOOR_CLOSED = (
    "(door_sensor_id IS NULL OR NOT EXISTS (SELECT 1 FROM devices d WHERE d.id = devices.door_sensor_id "
    "AND d.state = 'open'))"
)
MyHome = Ref[Home, f"+id IN {MY_HOMES}"]
ActingHome = Ref[Home, f"+id IN {ACTING_HOMES}"]
ManagedHome = Ref[Home, f"+id IN {MANAGED_HOMES}"]
ARMABLE = (
    f"+id IN {ACTING_HOMES} AND alarm_state = 'disarmed' AND id IN (SELECT p.home_id FROM devices p "
    "WHERE p.kind = 'alarm_panel' AND p.online = 1)"
)
ArmableHome = Ref[Home, ARMABLE]
ArmedHome = Ref[Home, f"+id IN {ACTING_HOMES} AND alarm_state != 'disarmed'"]
AnyDevice = Ref[Device, f"+home_id IN {MY_HOMES}"]
SwitchOff = Ref[
    Device,
    f"{COMMANDABLE} AND +kind IN ('light', 'switch', 'plug', 'fan', 'appliance', 'camera', "
    "'tv', 'speaker') AND state = 'off'",
]
SwitchOn = Ref[
    Device,
    f"{COMMANDABLE} AND +kind IN ('light', 'switch', 'plug', 'fan', 'appliance', 'camera', "
    "'tv', 'speaker') AND state = 'on'",
]
LightDevice = Ref[Device, f"{COMMANDABLE} AND kind = 'light'"]
ThermostatDevice = Ref[Device, f"{READY} AND kind = 'thermostat' AND +home_id IN {ACTING_HOMES}"]
FanDevice = Ref[Device, f"{COMMANDABLE} AND kind = 'fan'"]
CoverDevice = Ref[
    Device,
    f"{READY} AND {MOTOR_OK} AND kind IN ('blinds', 'garage_door') AND +home_id IN {ACTING_HOMES} "
    "AND home_id NOT IN (SELECT id FROM homes WHERE alarm_state IN ('armed_away', 'armed_vacation'))",
]
MediaDevice = Ref[Device, f"{COMMANDABLE} AND kind IN ('tv', 'speaker') AND state = 'on'"]
VacuumDevice = Ref[
    Device,
    f"{READY} AND kind = 'vacuum' AND +home_id IN {ACTING_HOMES} AND state != 'error' AND battery_pct >= 20",
]
LOCK_BASE = f"{READY} AND {MOTOR_OK} AND kind = 'lock' AND +home_id IN {ACTING_HOMES}"
LockableDoor = Ref[Device, f"{LOCK_BASE} AND state = 'unlocked' AND {DOOR_CLOSED}"]
LockedDoor = Ref[Device, f"{LOCK_BASE} AND state = 'locked'"]
ManagedLock = Ref[Device, f"kind = 'lock' AND +home_id IN {MANAGED_HOMES}"]
SensorDevice = Ref[
    Device,
    f"+home_id IN {MY_HOMES} AND +kind IN ('temp_sensor', 'thermostat', 'plug', 'appliance', 'tv', "
    "'contact_sensor', 'motion_sensor', 'leak_sensor', 'smoke_detector')",
]
MyScene = Ref[Scene, f"+home_id IN {ACTING_HOMES}"]
ManagedAutomation = Ref[Automation, f"+home_id IN {MANAGED_HOMES}"]
LiveLockCode = Ref[
    LockCode,
    f"enabled = 1 AND device_id IN (SELECT id FROM devices WHERE kind = 'lock' AND +home_id IN {MANAGED_HOMES})",
]

Code = Annotated[
    str,
    Sensitive(),
    Field(pattern=r"^[0-9]{4,8}$", min_length=4, max_length=8, description="A 4-8 digit code."),
]
Percent = Annotated[int, Field(ge=0, le=100)]
