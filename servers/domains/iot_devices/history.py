"""What happened: sensor history, energy use and the event log (all read-only)."""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated, Literal

from pydantic import Field

from servers.domains.iot_devices.model import Device, EventLog, Metric, Reading, iot_devices
from servers.domains.iot_devices.rules import AnyDevice, MyHome, SensorDevice, home_for, label, local_now
from servers.kit import Db, Offset, PageSize, ToolError

MAIN_METRIC = {
    "temp_sensor": "temperature",
    "thermostat": "temperature",
    "plug": "power_w",
    "appliance": "power_w",
    "tv": "power_w",
    "contact_sensor": "contact",
    "motion_sensor": "motion",
}
Hours = Annotated[int, Field(ge=1, le=72, examples=[3, 6, 12, 24, 48, 72])]
EventKind = Literal["actuation", "mode", "alarm", "lock", "scene", "automation", "code", "sensor"]


@iot_devices.tool(
    returns=Reading,
    says=[
        "what has {device} read over the last {hours} hours?",
        "show the {metric} history of {device} for the past {hours} hours",
    ],
)
def get_sensor_history(db: Db, device: SensorDevice, metric: Metric | None = None, hours: Hours = 24) -> dict:
    """A device's readings of one metric over the last hours (at most 72), oldest first, with the
    minimum, maximum and average.

    Args:
        device: The sensor, thermostat or metering device.
        metric: What to read (default: the device's main metric, e.g. temperature or power_w).
        hours: How far back, 1-72 hours.
    """
    d = db.get(Device, device)
    home = home_for(db, d["home_id"])
    reported = [
        r["metric"] for r in db.all("SELECT DISTINCT metric FROM readings WHERE device_id = ?", device)
    ]
    metric = metric or MAIN_METRIC.get(d["kind"]) or (reported[0] if reported else None)
    if metric not in reported:
        have = ", ".join(sorted(reported)) or "nothing"
        raise ToolError(f"{label(d)} does not report {metric}; it reports: {have}")
    since = (local_now(db, home) - timedelta(hours=hours)).isoformat(timespec="seconds")
    rows = db.all(
        "SELECT value, at FROM readings WHERE device_id = ? AND metric = ? AND at >= ? ORDER BY at, id",
        device,
        metric,
        since,
    )
    values = [r["value"] for r in rows]
    summary = (
        {"min": min(values), "max": max(values), "average": round(sum(values) / len(values), 2)}
        if values
        else {}
    )
    return {
        "device": device,
        "name": d["name"],
        "metric": metric,
        "since": since,
        "readings": rows,
        **summary,
    }


@iot_devices.tool(
    says=[
        "how much energy did {home} use {period}?",
        "show the energy use of {home} by {group_by} for {period}",
    ],
)
def get_energy_usage(
    db: Db,
    home: MyHome,
    period: Literal["today", "yesterday", "last_24_hours", "last_72_hours"] = "today",
    group_by: Literal["device", "room"] = "device",
) -> dict:
    """Energy (kWh) the metering devices of a home used in a period, per device or per room, from
    their hourly power readings; the largest users first.

    Args:
        home: The home.
        period: today, yesterday, last_24_hours or last_72_hours (the home's local time).
        group_by: device or room.
    """
    h = home_for(db, home)
    now = local_now(db, h)
    midnight = now.replace(hour=0, minute=0, second=0)
    start, end = {
        "today": (midnight, now),
        "yesterday": (midnight - timedelta(days=1), midnight),
        "last_24_hours": (now - timedelta(hours=24), now),
        "last_72_hours": (now - timedelta(hours=72), now),
    }[period]
    key = "d.name" if group_by == "device" else "r.name"
    rows = db.all(
        f"SELECT {key} AS name, round(sum(x.value) / 1000.0, 3) AS kwh FROM readings x "
        "JOIN devices d ON d.id = x.device_id JOIN rooms r ON r.id = d.room_id "
        "WHERE d.home_id = ? AND x.metric = 'power_w' AND x.at >= ? AND x.at < ? "
        f"GROUP BY {key} ORDER BY kwh DESC, name",
        home,
        start.isoformat(timespec="seconds"),
        end.isoformat(timespec="seconds"),
    )
    total = round(sum(r["kwh"] for r in rows), 3)
    return {
        "home": home,
        "period": period,
        "from": start.isoformat(timespec="minutes"),
        "to": end.isoformat(timespec="minutes"),
        "group_by": group_by,
        "total_kwh": total,
        "usage": rows,
    }


@iot_devices.tool(
    returns=EventLog,
    says=[
        "what happened at {home} recently?",
        "show the {kind} events of {home}",
        "show the history of {device}",
    ],
)
def get_event_log(
    db: Db,
    home: MyHome,
    device: AnyDevice | None = None,
    kind: EventKind | None = None,
    limit: PageSize = 20,
    offset: Offset = 0,
) -> dict:
    """A home's events, newest first: actuations, mode and alarm changes, locks, scenes, codes.

    Args:
        home: The home.
        device: Only events of this device.
        kind: Only events of this kind.
    """
    home_for(db, home)
    where, params = ["home_id = ?"], [home]
    if device is not None:
        d = db.get(Device, device)
        if d["home_id"] != home:
            raise ToolError(f"device {label(d)} is not in home {home}")
        where.append("device_id = ?")
        params.append(device)
    if kind is not None:
        where.append("kind = ?")
        params.append(kind)
    return db.page(
        f"SELECT id, at, kind, device_id, user_id, message FROM event_log WHERE {' AND '.join(where)} "
        "ORDER BY at DESC, id DESC",
        *params,
        limit=limit,
        offset=offset,
        key="events",
    )
