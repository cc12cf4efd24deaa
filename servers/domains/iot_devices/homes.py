"""Homes, rooms and devices as the app shows them, the home mode, and the clock."""

from __future__ import annotations

from servers.domains.iot_devices.model import (
    CAPABILITIES,
    Device,
    DeviceKind,
    EventLog,
    Home,
    HomeMode,
    Room,
    iot_devices,
)
from servers.domains.iot_devices.rules import (
    ME_SQL,
    ActingHome,
    AnyDevice,
    MyHome,
    home_for,
    label,
    local_now,
    log,
    role_in,
)
from servers.kit import Db, Offset, PageSize, Ref, ToolError

HIDDEN = ("owner_code",)


def show_device(db: Db, device: dict) -> dict:
    """A device with only the fields its kind uses, what it supports, and whether it can act now."""
    out = {k: v for k, v in device.items() if v is not None and k not in HIDDEN}
    for flag in ("online", "supports_color", "oscillating", "lock_code_required"):
        if flag in out:
            out[flag] = bool(out[flag])
    for csv in ("hvac_modes", "sources"):
        if csv in out:
            out[csv] = out[csv].split(",")
    out["room"] = db.scalar("SELECT name FROM rooms WHERE id = ?", device["room_id"])
    out["supports"] = list(CAPABILITIES[device["kind"]])
    out["available"] = bool(device["online"]) and device["battery_pct"] != 0
    if device["battery_pct"] is not None:
        out["battery_low"] = device["battery_pct"] < 20
    return out


@iot_devices.tool(
    returns=Home,
    says=["which homes do I have in the app?", "list my homes with their alarm status"],
)
def list_homes(db: Db, limit: PageSize = 20, offset: Offset = 0) -> dict:
    """Homes you belong to, with your role in each, the home mode and the alarm state."""
    return db.page(
        "SELECT h.id, h.name, h.address, h.city, h.timezone, r.role, h.mode, h.alarm_state FROM homes h "
        f"JOIN residents r ON r.home_id = h.id WHERE r.user_id = {ME_SQL} ORDER BY h.id",
        limit=limit,
        offset=offset,
        key="homes",
    )


@iot_devices.tool(
    returns=Home,
    says=["give me a summary of {home}", "is anything open or left on at {home}?"],
)
def get_home(db: Db, home: MyHome) -> dict:
    """A home at a glance: mode, alarm, local time, open doors and windows, lights on, unlocked
    locks, offline devices and low batteries."""
    h = home_for(db, home)
    devices = db.all("SELECT * FROM devices WHERE home_id = ? ORDER BY id", home)

    def names(cond) -> list[str]:
        return [d["name"] for d in devices if cond(d)]

    return {
        "id": h["id"],
        "name": h["name"],
        "address": h["address"],
        "timezone": h["timezone"],
        "local_time": local_now(db, h).isoformat(timespec="minutes"),
        "your_role": role_in(db, home),
        "mode": h["mode"],
        "alarm_state": h["alarm_state"],
        "open": names(
            lambda d: d["kind"] in ("contact_sensor", "blinds", "garage_door") and d["state"] == "open"
        ),
        "lights_on": names(lambda d: d["kind"] in ("light", "switch") and d["state"] == "on"),
        "unlocked": names(lambda d: d["kind"] == "lock" and d["state"] != "locked"),
        "offline": names(lambda d: not d["online"]),
        "low_battery": names(lambda d: d["battery_pct"] is not None and d["battery_pct"] < 20),
        "alerts": names(lambda d: d["state"] in ("wet", "smoke", "jammed", "error")),
        "devices": len(devices),
    }


@iot_devices.tool(returns=Room, says=["what rooms are set up in {home}?", "list the rooms of {home}"])
def list_rooms(db: Db, home: MyHome, limit: PageSize = 20, offset: Offset = 0) -> dict:
    """Rooms of a home with their floor and how many devices each has."""
    home_for(db, home)
    return db.page(
        "SELECT r.id, r.name, r.floor, (SELECT count(*) FROM devices d WHERE d.room_id = r.id) AS devices "
        "FROM rooms r WHERE r.home_id = ? ORDER BY r.id",
        home,
        limit=limit,
        offset=offset,
        key="rooms",
    )


@iot_devices.tool(
    returns=Device,
    says=[
        "list the devices in {home}",
        "show every {kind} in {home}",
        "which devices are in {room} at {home}?",
    ],
)
def list_devices(
    db: Db,
    home: MyHome,
    room: Ref[Room] | None = None,
    kind: DeviceKind | None = None,
    online: bool | None = None,
    limit: PageSize = 60,
    offset: Offset = 0,
) -> dict:
    """Devices of a home with their state (60 a page, so a whole home fits on one), optionally only
    one room, one kind or online/offline ones.

    Args:
        home: The home.
        room: Only devices in this room.
        kind: Only devices of this kind.
        online: true for reachable devices only, false for offline ones only.
    """
    home_for(db, home)
    where, params = ["d.home_id = ?"], [home]
    if room is not None:
        r = db.get(Room, room)
        if r["home_id"] != home:
            raise ToolError(f"room {label(r)} is not in home {home}; list_rooms shows its rooms")
        where.append("d.room_id = ?")
        params.append(room)
    if kind is not None:
        where.append("d.kind = ?")
        params.append(kind)
    if online is not None:
        where.append("d.online = ?")
        params.append(int(online))
    return db.page(
        "SELECT d.id, d.name, d.kind, r.name AS room, d.state, d.online, d.battery_pct FROM devices d "
        f"JOIN rooms r ON r.id = d.room_id WHERE {' AND '.join(where)} ORDER BY d.id",
        *params,
        limit=limit,
        offset=offset,
        key="devices",
    )


@iot_devices.tool(
    returns=Device,
    says=["what is the status of {device}?", "show me everything about {device}"],
)
def get_device(db: Db, device: AnyDevice) -> dict:
    """A device's full state, the actions its kind supports and whether it is available now."""
    d = db.get(Device, device)
    home_for(db, d["home_id"])
    return show_device(db, d)


@iot_devices.tool(
    writes=[Home, EventLog],
    returns=Home,
    says=[
        "switch {home} to {mode} mode",
        "set {home} to {mode}",
        "we are leaving, put {home} in {mode} mode",
    ],
)
def set_home_mode(db: Db, home: ActingHome, mode: HomeMode) -> dict:
    """Set the home mode: home, away, night or vacation. Away and vacation make every unlock need a
    code; vacation limits thermostats to eco targets until the mode changes. Guests may not.

    Args:
        home: The home.
        mode: home, away, night or vacation.
    """
    h = home_for(db, home, member="change the home mode")
    if h["mode"] == mode:
        raise ToolError(f"home {label(h)} is already in {mode} mode")
    db.update(Home, home, mode=mode)
    log(db, h, "mode", f"mode changed from {h['mode']} to {mode}")
    notes = []
    if mode == "vacation":
        notes.append("thermostats now accept only eco targets (heat at most 18 °C, cool at least 27 °C)")
    if mode in ("away", "vacation"):
        notes.append("unlocking any lock now needs a code")
    if h["alarm_state"] == "disarmed" and mode in ("away", "vacation"):
        notes.append("the alarm is still disarmed; arm it with arm_alarm")
    return {"home": home, "mode": mode, "previous_mode": h["mode"], "notes": notes}


@iot_devices.tool(
    says=["what time is it at {home}?", "what's the local date and time at {home}?"],
)
def get_current_time(db: Db, home: MyHome) -> dict:
    """The current date, time and weekday on a home's clock, and its time zone."""
    h = home_for(db, home)
    t = local_now(db, h)
    return {
        "home": home,
        "local_time": t.isoformat(timespec="minutes"),
        "weekday": t.strftime("%A"),
        "timezone": h["timezone"],
        "utc": db.now.isoformat(timespec="minutes") + "Z",
    }
