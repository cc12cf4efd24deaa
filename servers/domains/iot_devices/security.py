"""Locks, guest codes and the alarm."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal
from zoneinfo import ZoneInfo

from pydantic import Field

from servers.domains.iot_devices.model import (
    MAX_CODES_PER_LOCK,
    Device,
    EventLog,
    Home,
    LockCode,
    iot_devices,
)
from servers.domains.iot_devices.rules import (
    ArmableHome,
    ArmedHome,
    Code,
    LiveLockCode,
    LockableDoor,
    LockedDoor,
    ManagedLock,
    change,
    device_for,
    home_for,
    local_now,
    local_stamp,
    log,
    motor_battery,
)
from servers.domains.iot_devices.rules import (
    label as _lbl,
)
from servers.kit import Db, Moment, ShortText, ToolError

Label = Annotated[ShortText, Field(examples=["Cleaner", "Dog walker", "Weekend guest", "Plumber", "Mom"])]


def _wall(moment: str, home: dict) -> datetime:
    """A Moment on the home's wall clock (one with an offset is converted), to the minute."""
    t = datetime.fromisoformat(moment)
    if t.tzinfo is not None:
        t = t.astimezone(ZoneInfo(home["timezone"])).replace(tzinfo=None)
    return t.replace(second=0, microsecond=0)


def _jammed(d: dict) -> None:
    if d["state"] == "jammed":
        raise ToolError(
            f"{_lbl(d)} is jammed: it cannot be locked or unlocked remotely until the bolt is freed"
        )


@iot_devices.tool(
    writes=[Device, EventLog],
    returns=Device,
    says=["lock {device}", "make sure {device} is locked", "please lock the door: {device}"],
)
def lock_door(db: Db, device: LockableDoor) -> dict:
    """Lock a door lock. An open door (its door sensor reports open) cannot be locked, and a lock
    needs 10% battery to drive its bolt.

    Args:
        device: The lock.
    """
    d, home = device_for(db, device, "lock_door")
    _jammed(d)
    if d["state"] == "locked":
        raise ToolError(f"{_lbl(d)} is already locked")
    if d["door_sensor_id"]:
        sensor = db.get(Device, d["door_sensor_id"])
        if sensor["state"] == "open":
            raise ToolError(
                f"cannot lock {_lbl(d)}: its door is open (sensor {_lbl(sensor)} reports open); "
                "close the door first"
            )
    motor_battery(d)
    change(db, home, d, "locked", state="locked")
    return {"device": device, "name": d["name"], "state": "locked"}


def _code_ok(db: Db, d: dict, home: dict, code: str) -> str:
    """Who the code belongs to ('owner' or a guest code's label), or a ToolError that never says
    what the right code is."""
    if code == d["owner_code"]:
        return "owner code"
    row = db.one("SELECT * FROM lock_codes WHERE device_id = ? AND code = ?", d["id"], code)
    if row is None:
        raise ToolError(f"the code was rejected by {_lbl(d)}; check it and try again")
    if not row["enabled"]:
        raise ToolError(f"the code '{row['label']}' on {_lbl(d)} was revoked")
    now = local_stamp(db, home)
    if now < row["valid_from"]:
        raise ToolError(f"the code '{row['label']}' on {_lbl(d)} is valid only from {row['valid_from']}")
    if now > row["valid_until"]:
        raise ToolError(f"the code '{row['label']}' on {_lbl(d)} expired at {row['valid_until']}")
    return f"code '{row['label']}'"


@iot_devices.tool(
    writes=[Device, EventLog],
    returns=Device,
    says=[
        "unlock {device}",
        "unlock {device} with code {code}",
        "let me in: unlock {device}, the code is {code}",
    ],
)
def unlock_door(db: Db, device: LockedDoor, code: Code | None = None) -> dict:
    """Unlock a door lock. A code is needed when the lock requires one or the home is in away or
    vacation mode; a code given is always checked (the lock's owner code or a live guest code).

    Args:
        device: The lock.
        code: The lock's owner code or a guest code, 4-8 digits.
    """
    d, home = device_for(db, device, "unlock_door")
    _jammed(d)
    if d["state"] == "unlocked":
        raise ToolError(f"{_lbl(d)} is already unlocked")
    if code is None:
        if d["lock_code_required"]:
            raise ToolError(f"{_lbl(d)} requires a code to unlock (lock_code_required is on); give the code")
        if home["mode"] in ("away", "vacation"):
            raise ToolError(
                f"home {_lbl(home)} is in {home['mode']} mode, so unlocking {_lbl(d)} needs a code; give the code"
            )
    motor_battery(d)
    who = _code_ok(db, d, home, code) if code is not None else "the app"
    change(db, home, d, f"unlocked with {who}", state="unlocked")
    return {"device": device, "name": d["name"], "state": "unlocked", "unlocked_with": who}


@iot_devices.tool(
    writes=[LockCode, EventLog],
    returns=LockCode,
    says=[
        "add a guest code {new_code} called {label} to {device}, valid until {valid_until}",
        "give {label} the code {new_code} for {device} from {valid_from} to {valid_until}",
    ],
)
def add_lock_code(
    db: Db,
    device: ManagedLock,
    label: Label,
    new_code: Code,
    valid_until: Moment,
    valid_from: Moment | None = None,
) -> dict:
    """Add a time-limited guest code to a lock (owners and admins). Codes are 4-8 digits, unique on
    the lock, at most 20 per lock; times are the home's local time and the window must end in the
    future, after it starts.

    Args:
        device: The lock.
        label: Who the code is for, e.g. "Cleaner".
        new_code: The new 4-8 digit code.
        valid_until: When the code stops working (local time of the home).
        valid_from: When the code starts working (default: now).
    """
    d, home = device_for(db, device, "add_lock_code", online=False)
    home_for(db, home["id"], manage="manage lock codes")
    now = local_now(db, home)
    start = _wall(valid_from, home) if valid_from else now.replace(second=0)
    end = _wall(valid_until, home)
    if end <= now:
        raise ToolError(
            f"valid_until {end:%Y-%m-%dT%H:%M} is already past (it is {now:%Y-%m-%dT%H:%M} at {home['name']})"
        )
    if end <= start:
        raise ToolError(f"valid_until {end:%Y-%m-%dT%H:%M} must be after valid_from {start:%Y-%m-%dT%H:%M}")
    taken = db.scalar("SELECT count(*) FROM lock_codes WHERE device_id = ? AND code = ?", device, new_code)
    if taken or new_code == d["owner_code"]:
        raise ToolError(f"{_lbl(d)} already has that code; choose a different one")
    count = db.scalar("SELECT count(*) FROM lock_codes WHERE device_id = ?", device)
    if count >= MAX_CODES_PER_LOCK:
        raise ToolError(
            f"{_lbl(d)} already holds {count} codes, the most a lock stores ({MAX_CODES_PER_LOCK})"
        )
    row = db.insert(
        LockCode,
        device_id=device,
        label=label,
        code=new_code,
        valid_from=start.isoformat(timespec="seconds"),
        valid_until=end.isoformat(timespec="seconds"),
        enabled=True,
        created_at=local_stamp(db, home),
    )
    log(db, home, "code", f"{d['name']}: code '{label}' added", d)
    return {k: v for k, v in row.items() if k != "code"} | {"lock": d["name"]}


@iot_devices.tool(
    writes=[LockCode, EventLog],
    returns=LockCode,
    destructive=True,
    says=["revoke the lock code {lock_code}", "delete the guest code {lock_code} right now"],
)
def revoke_lock_code(db: Db, lock_code: LiveLockCode) -> dict:
    """Disable a guest code at once (owners and admins). A revoked code cannot be turned back on.

    Args:
        lock_code: The code.
    """
    row = db.get(LockCode, lock_code)
    d = db.get(Device, row["device_id"])
    home = home_for(db, d["home_id"], manage="manage lock codes")
    if not row["enabled"]:
        raise ToolError(f"lock code '{row['label']}' ({lock_code}) on {_lbl(d)} is already revoked")
    db.update(LockCode, lock_code, enabled=False)
    log(db, home, "code", f"{d['name']}: code '{row['label']}' revoked", d)
    return {"lock_code": lock_code, "label": row["label"], "lock": d["name"], "enabled": False}


# -- the alarm ------------------------------------------------------------------------------------


def _panel(db: Db, home: dict) -> dict:
    panel = db.one("SELECT * FROM devices WHERE home_id = ? AND kind = 'alarm_panel' ORDER BY id", home["id"])
    if panel is None:
        raise ToolError(f"home {_lbl(home)} has no alarm panel")
    if not panel["online"]:
        raise ToolError(f"the alarm panel {_lbl(panel)} of {_lbl(home)} is offline; the alarm cannot change")
    return panel


def _check_code(home: dict, code: str) -> None:
    if code != home["alarm_code"]:
        raise ToolError(f"wrong alarm code for {_lbl(home)}; nothing was changed")


def _set_alarm(db: Db, home: dict, panel: dict, state: str, message: str) -> None:
    stamp = local_stamp(db, home)
    db.update(Home, home["id"], alarm_state=state, alarm_changed_at=stamp)
    db.update(Device, panel["id"], state=state if state != "disarmed" else "ready", last_changed_at=stamp)
    log(db, home, "alarm", message, panel)


@iot_devices.tool(
    writes=[Home, Device, EventLog],
    returns=Home,
    says=[
        "arm the alarm at {home} in {mode} mode, code {code}",
        "set the alarm of {home} to {mode}; my code is {code}",
        "arm {home} for {mode} with code {code} and ignore the open windows",
    ],
)
def arm_alarm(
    db: Db,
    home: ArmableHome,
    mode: Literal["home", "away", "night", "vacation"],
    code: Code,
    bypass_open_sensors: bool = False,
) -> dict:
    """Arm a home's alarm in a mode with the alarm code. Away and vacation need every door and
    window closed unless bypass_open_sensors is true; a triggered alarm must be disarmed first.

    Args:
        home: The home.
        mode: home, away, night or vacation.
        code: The home's alarm code.
        bypass_open_sensors: Arm away/vacation even with doors or windows open (they are ignored).
    """
    h = home_for(db, home, member="arm the alarm")
    panel = _panel(db, h)
    if h["alarm_state"] == "triggered":
        raise ToolError(f"the alarm of {_lbl(h)} is triggered; it can only be disarmed (disarm_alarm)")
    _check_code(h, code)
    state = f"armed_{mode}"
    if h["alarm_state"] == state:
        raise ToolError(f"the alarm of {_lbl(h)} is already armed ({mode})")
    open_ = [
        r["name"]
        for r in db.all(
            "SELECT name FROM devices WHERE home_id = ? AND kind = 'contact_sensor' AND state = 'open' "
            "ORDER BY id",
            home,
        )
    ]
    if open_ and mode in ("away", "vacation") and not bypass_open_sensors:
        raise ToolError(
            f"cannot arm {_lbl(h)} ({mode}): {len(open_)} open: {', '.join(open_)}; close them or arm with "
            "bypass_open_sensors=true"
        )
    bypassed = open_ if mode in ("away", "vacation") else []
    _set_alarm(
        db,
        h,
        panel,
        state,
        f"alarm armed ({mode})" + (f", bypassing {', '.join(bypassed)}" if bypassed else ""),
    )
    return {"home": home, "alarm_state": state, "bypassed": bypassed}


@iot_devices.tool(
    writes=[Home, Device, EventLog],
    returns=Home,
    says=["disarm the alarm at {home}, the code is {code}", "turn off the alarm of {home} with code {code}"],
)
def disarm_alarm(db: Db, home: ArmedHome, code: Code) -> dict:
    """Disarm a home's alarm (also silences a triggered one) with the alarm code.

    Args:
        home: The home.
        code: The home's alarm code.
    """
    h = home_for(db, home, member="disarm the alarm")
    panel = _panel(db, h)
    if h["alarm_state"] == "disarmed":
        raise ToolError(f"the alarm of {_lbl(h)} is already disarmed")
    _check_code(h, code)
    _set_alarm(db, h, panel, "disarmed", f"alarm disarmed (was {h['alarm_state']})")
    return {"home": home, "alarm_state": "disarmed", "previous": h["alarm_state"]}
