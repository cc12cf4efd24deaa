"""What the homes remember: sensor readings, the event log, scenes, automations and lock codes."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from servers.domains.iot_devices import catalog
from servers.domains.iot_devices.model import (
    ENERGY_KINDS,
    SCENE_KINDS,
    Automation,
    EventLog,
    LockCode,
    Scene,
    SceneAction,
)
from servers.kit import Seeder
from servers.kit.db import format_id

UTC = ZoneInfo("UTC")
HOURS = 72


def _local(s: Seeder, tz: str) -> datetime:
    return s.now.replace(tzinfo=UTC).astimezone(ZoneInfo(tz)).replace(tzinfo=None)


def seed_history(
    s: Seeder, homes: list[dict], rooms: list[dict], devices: list[dict], residents: list[dict]
) -> None:
    by_home: dict[str, list[dict]] = {}
    for d in devices:
        by_home.setdefault(d["home_id"], []).append(d)
    people: dict[str, list[str]] = {}
    for r in residents:
        people.setdefault(r["home_id"], []).append(r["user_id"])
    nows = {h["id"]: _local(s, h["timezone"]) for h in homes}
    _readings(s, devices, nows)
    scenes, actions = _scenes(s, homes, by_home, nows)
    s.add(Scene, scenes)
    s.add(SceneAction, actions)
    s.add(Automation, _automations(s, homes, by_home, scenes, nows))
    s.add(LockCode, _lock_codes(s, devices, nows))
    _events(s, homes, by_home, people, nows)


def _stamp(t: datetime) -> str:
    return t.isoformat(timespec="seconds")


def _readings(s: Seeder, devices: list[dict], nows: dict[str, datetime]) -> None:
    """Hourly temperature (and three-hourly humidity) for sensors and thermostats, hourly power for
    meters, a few contact/motion changes a day, a daily battery level; oldest first."""
    rows: list[tuple] = []
    rng = s.rng
    for d in devices:
        kind, now = d["kind"], nows[d["home_id"]].replace(minute=0, second=0)
        series: list[tuple[str, float, datetime]] = []
        if kind in ("temp_sensor", "thermostat"):
            base = d["current_temp"]
            for h in range(HOURS, 0, -1):
                t = now - timedelta(hours=h)
                swing = 1.5 if 6 <= t.hour <= 18 else -1.0
                series.append(("temperature", round(base + swing + rng.uniform(-0.8, 0.8), 1), t))
                if h % 3 == 0 and d["humidity_pct"] is not None:
                    series.append(("humidity", float(d["humidity_pct"] + rng.randint(-6, 6)), t))
        elif kind in ENERGY_KINDS:
            for h in range(HOURS, 0, -1):
                t = now - timedelta(hours=h)
                busy = 7 <= t.hour <= 23
                series.append(
                    ("power_w", round(rng.uniform(30, 420) if busy else rng.uniform(0.3, 15), 1), t)
                )
        elif kind in ("contact_sensor", "motion_sensor"):
            metric = "contact" if kind == "contact_sensor" else "motion"
            for h in sorted(rng.sample(range(1, HOURS), 6), reverse=True):
                series.append((metric, float(h % 2), now - timedelta(hours=h, minutes=rng.randint(0, 59))))
        if d["battery_pct"] is not None:
            for day in (3, 2, 1):
                level = min(100.0, float(d["battery_pct"] + day))
                series.append(("battery", level, now - timedelta(days=day, hours=-2)))
        series.sort(key=lambda x: x[2])
        rows.extend((d["id"], m, v, _stamp(t)) for m, v, t in series)
    s.conn.executemany(
        "INSERT INTO readings (id, device_id, metric, value, at) VALUES (?, ?, ?, ?, ?)",
        ((format_id("RDG", i + 1), *r) for i, r in enumerate(rows)),
    )


def _scenes(
    s: Seeder, homes: list[dict], by_home: dict[str, list[dict]], nows: dict[str, datetime]
) -> tuple[list[dict], list[dict]]:
    scenes: list[dict] = []
    actions: list[dict] = []
    for home in homes:
        usable = [d for d in by_home[home["id"]] if d["kind"] in SCENE_KINDS]
        for name in s.rng.sample(catalog.SCENE_NAMES, s.rng.randint(3, 8)):
            scene = {
                "id": format_id("SCN", len(scenes) + 1),
                "home_id": home["id"],
                "name": name,
                "created_at": _stamp(nows[home["id"]] - timedelta(days=s.rng.randint(20, 400))),
                "last_activated_at": _stamp(nows[home["id"]] - timedelta(hours=s.rng.randint(3, 200)))
                if s.chance(0.7)
                else None,
            }
            scenes.append(scene)
            for d in s.rng.sample(usable, min(len(usable), s.rng.randint(2, 6))):
                actions.append(
                    {"id": format_id("SCA", len(actions) + 1), "scene_id": scene["id"], **_target(s, d)}
                )
    return scenes, actions


def _target(s: Seeder, d: dict) -> dict:
    """What a scene sets one device to, within what the device accepts."""
    out = {"device_id": d["id"], "state": "on", "brightness_pct": None, "target_temp": None}
    out.update(position_pct=None, volume_pct=None)
    kind = d["kind"]
    if kind == "light":
        on = s.chance(0.75)
        out.update(state="on" if on else "off", brightness_pct=s.pick([20, 40, 60, 80, 100]) if on else 0)
    elif kind == "thermostat":
        out.update(state="heat", target_temp=float(s.pick([17, 18, 19, 20, 21])))
    elif kind == "blinds":
        pos = s.pick([0, 50, 100])
        out.update(state="open" if pos else "closed", position_pct=pos)
    elif kind in ("speaker", "tv"):
        out.update(state=s.pick(["on", "off"]), volume_pct=s.pick([10, 20, 30]))
    else:
        out["state"] = s.pick(["on", "off"])
    return out


def _automations(
    s: Seeder,
    homes: list[dict],
    by_home: dict[str, list[dict]],
    scenes: list[dict],
    nows: dict[str, datetime],
) -> list[dict]:
    scenes_of: dict[str, list[dict]] = {}
    for sc in scenes:
        scenes_of.setdefault(sc["home_id"], []).append(sc)
    rows: list[dict] = []
    for home in homes:
        mine = by_home[home["id"]]
        sensors = [d for d in mine if d["kind"] in ("contact_sensor", "motion_sensor")]
        temps = [d for d in mine if d["kind"] == "temp_sensor"] or [
            d for d in mine if d["kind"] == "thermostat"
        ]
        lights = [d for d in mine if d["kind"] in ("light", "switch", "fan", "plug")]
        taken: set[str] = set()
        for _ in range(s.rng.randint(2, 10)):
            row = _automation(s, home, sensors, temps, lights, scenes_of[home["id"]])
            if row["name"] in taken:
                continue
            taken.add(row["name"])
            row.update(id=format_id("AUT", len(rows) + 1), enabled=not s.chance(0.2))
            row["created_at"] = _stamp(nows[home["id"]] - timedelta(days=s.rng.randint(10, 300)))
            ran = nows[home["id"]] - timedelta(hours=s.rng.randint(1, 96))
            row["last_run_at"] = _stamp(ran) if row["enabled"] and s.chance(0.7) else None
            rows.append(row)
    return rows


def _automation(
    s: Seeder, home: dict, sensors: list[dict], temps: list[dict], lights: list[dict], scenes: list[dict]
) -> dict:
    row = dict.fromkeys(
        ("trigger_device_id", "trigger_value", "trigger_time", "condition_mode", "action_scene_id")
    )
    row.update(home_id=home["id"], action_device_id=None, action_state=None)
    kind = s.pick(["time", "time", "device_state", "threshold", "mode_change"])
    scene = s.pick(scenes)
    if kind == "time":
        hh, mm = s.rng.randint(5, 23), s.pick([0, 15, 30, 45])
        row.update(trigger_kind="time", trigger_time=f"{hh:02d}:{mm:02d}", action_scene_id=scene["id"])
        row["name"] = f"{scene['name']} at {hh:02d}:{mm:02d}"
    elif kind == "device_state" and sensors and lights:
        sensor, light = s.pick(sensors), s.pick(lights)
        value = "open" if sensor["kind"] == "contact_sensor" else "detected"
        row.update(trigger_kind="device_state", trigger_device_id=sensor["id"], trigger_value=value)
        row.update(action_device_id=light["id"], action_state="on", condition_mode=s.pick([None, "night"]))
        row["name"] = f"{light['name']} on when {sensor['name'].lower()} is {value}"
    elif kind == "threshold" and temps and lights:
        sensor = s.pick(temps)
        fans = [d for d in lights if d["kind"] == "fan"] or lights
        row.update(trigger_kind="threshold", trigger_device_id=sensor["id"], trigger_value="above 26")
        row.update(action_device_id=s.pick(fans)["id"], action_state="on")
        row["name"] = f"Cool down when {sensor['name'].lower()} is above 26"
    else:
        mode = s.pick(["away", "night", "home"])
        row.update(trigger_kind="mode_change", trigger_value=mode, action_scene_id=scene["id"])
        row["name"] = f"{scene['name']} when the home switches to {mode}"
    return row


def _lock_codes(s: Seeder, devices: list[dict], nows: dict[str, datetime]) -> list[dict]:
    rows: list[dict] = []
    for d in devices:
        if d["kind"] != "lock":
            continue
        now = nows[d["home_id"]].replace(minute=0, second=0)
        taken = {d["owner_code"]}
        for label in s.rng.sample(catalog.CODE_LABELS, 0 if s.chance(0.1) else s.rng.randint(1, 5)):
            code = "".join(str(s.rng.randrange(10)) for _ in range(s.pick([4, 6])))
            if code in taken:
                continue
            taken.add(code)
            expired = s.chance(0.3)
            start = now - timedelta(days=s.rng.randint(30, 90) if expired else s.rng.randint(1, 20))
            end = (
                now - timedelta(days=s.rng.randint(1, 20))
                if expired
                else now + timedelta(days=s.rng.randint(3, 60))
            )
            rows.append(
                {
                    "id": format_id("LKC", len(rows) + 1),
                    "device_id": d["id"],
                    "label": label,
                    "code": code,
                    "valid_from": _stamp(start),
                    "valid_until": _stamp(end),
                    "enabled": not s.chance(0.1),
                    "created_at": _stamp(start - timedelta(hours=2)),
                }
            )
    return rows


EVENT_TEXT = {
    "actuation": ("turned on", "turned off", "brightness 60%", "set to 21.0 °C", "opened to 100%"),
    "lock": ("locked", "unlocked with a code", "locked by auto-lock"),
    "sensor": ("opened", "closed", "motion detected", "battery low"),
    "scene": ("scene activated",),
    "automation": ("automation ran",),
}


def _events(
    s: Seeder,
    homes: list[dict],
    by_home: dict[str, list[dict]],
    people: dict[str, list[str]],
    nows: dict[str, datetime],
) -> None:
    """A fortnight of past events per home, numbered in time order."""
    low, high = s.count(small=(60, 120), medium=(120, 280), large=(40, 90))
    rows: list[tuple] = []
    for home in homes:
        mine = by_home[home["id"]]
        locks = [d for d in mine if d["kind"] == "lock"]
        sensors = [d for d in mine if d["kind"] in ("contact_sensor", "motion_sensor")]
        actuators = [d for d in mine if d["kind"] in SCENE_KINDS]
        batch = []
        for _ in range(s.rng.randint(low, high)):
            at = _stamp(nows[home["id"]] - timedelta(minutes=s.rng.randint(5, 14 * 1440)))
            kind = s.pick(["actuation"] * 5 + ["lock"] * 2 + ["sensor"] * 3 + ["scene", "automation"])
            pool = {"lock": locks, "sensor": sensors}.get(kind, actuators) or actuators
            d = s.pick(pool)
            user = s.pick(people[home["id"]]) if kind in ("actuation", "lock", "scene") else None
            batch.append((at, home["id"], d["id"], user, kind, f"{d['name']}: {s.pick(EVENT_TEXT[kind])}"))
        batch.sort(key=lambda r: r[0])
        rows.extend(batch)
    rows.sort(key=lambda r: r[0])
    s.add(
        EventLog,
        (
            {"id": format_id("EVL", i + 1), "home_id": h, "device_id": d, "user_id": u, "kind": k,
             "message": m, "at": at}
            for i, (at, h, d, u, k, m) in enumerate(rows)
        ),
    )  # fmt: skip
