"""Scenes (saved device states applied together) and automations (trigger, condition, action)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from servers.domains.iot_devices.model import (
    ECO_HEAT_MAX,
    MAX_SCENES,
    SCENE_KINDS,
    Device,
    EventLog,
    Scene,
    SceneAction,
    iot_devices,
)
from servers.domains.iot_devices.rules import (
    ACTING_HOMES,
    ActingHome,
    MyScene,
    home_for,
    label,
    local_stamp,
    log,
)
from servers.kit import Db, IdList, Offset, PageSize, ShortText, ToolError

SceneName = Annotated[
    ShortText, Field(examples=["Evening calm", "Game night", "Breakfast", "Lights out", "Guest arrival"])
]
SceneDevices = IdList[Device, f"+kind IN {SCENE_KINDS!r} AND +home_id IN {ACTING_HOMES}"]


@iot_devices.tool(
    returns=Scene,
    says=["what scenes do I have in {home}?", "list the scenes of {home} and what they do"],
)
def list_scenes(db: Db, home: ActingHome, limit: PageSize = 20, offset: Offset = 0) -> dict:
    """A home's scenes, each with the device states it applies."""
    home_for(db, home)
    page = db.page(
        "SELECT id, name, created_at, last_activated_at FROM scenes WHERE home_id = ? ORDER BY id",
        home,
        limit=limit,
        offset=offset,
        key="scenes",
    )
    for sc in page["scenes"]:
        actions = db.all(
            "SELECT a.device_id, d.name AS device, a.state, a.brightness_pct, a.target_temp, a.position_pct, "
            "a.volume_pct FROM scene_actions a JOIN devices d ON d.id = a.device_id WHERE a.scene_id = ? "
            "ORDER BY a.id",
            sc["id"],
        )
        sc["actions"] = [{k: v for k, v in a.items() if v is not None} for a in actions]
    return page


def _apply(d: dict, a: dict, home: dict) -> tuple[dict | None, str | None]:
    """(device changes, or None) and the reason a device is skipped."""
    if not d["online"] or d["battery_pct"] == 0:
        return None, "unavailable"
    values: dict = {"state": a["state"]}
    if d["kind"] == "light":
        values["brightness_pct"] = (
            a["brightness_pct"] if a["brightness_pct"] is not None else (100 if a["state"] == "on" else 0)
        )
    elif d["kind"] == "thermostat":
        target = a["target_temp"]
        if home["mode"] == "vacation" and target is not None and target > ECO_HEAT_MAX:
            return None, f"vacation mode allows heating only up to {ECO_HEAT_MAX:g} °C"
        values = {
            "state": "heat",
            "hvac_mode": "heat",
            "target_temp": target,
            "target_low": None,
            "target_high": None,
        }
    elif d["kind"] == "blinds":
        if d["battery_pct"] is not None and d["battery_pct"] < 10:
            return None, f"battery at {d['battery_pct']}% is too low to move"
        values["position_pct"] = a["position_pct"] if a["position_pct"] is not None else 0
    elif d["kind"] in ("speaker", "tv") and a["volume_pct"] is not None:
        values["volume_pct"] = a["volume_pct"]
    if d["kind"] == "fan":
        values["fan_pct"] = 33 if a["state"] == "on" else 0
    same = all(d.get(k) == v for k, v in values.items())
    return (None, None) if same else (values, None)


@iot_devices.tool(
    writes=[Device, Scene, EventLog],
    returns=Scene,
    says=["activate the scene {scene}", "run {scene}", "set the mood: turn on {scene}"],
)
def activate_scene(db: Db, scene: MyScene) -> dict:
    """Apply every action of a scene. Devices that are unavailable or that a setting blocks (a low
    battery, vacation mode) are skipped and listed; the rest are set. Guests may not.

    Args:
        scene: The scene.
    """
    sc = db.get(Scene, scene)
    home = home_for(db, sc["home_id"], member="activate scenes")
    applied, unchanged, skipped = [], [], []
    stamp = local_stamp(db, home)
    for a in db.all("SELECT * FROM scene_actions WHERE scene_id = ? ORDER BY id", scene):
        d = db.get(Device, a["device_id"])
        values, reason = _apply(d, a, home)
        if reason:
            skipped.append({"device": d["id"], "name": d["name"], "reason": reason})
        elif values is None:
            unchanged.append(d["name"])
        else:
            db.update(Device, d["id"], **values, last_changed_at=stamp)
            log(db, home, "actuation", f"{d['name']}: set by scene '{sc['name']}'", d)
            applied.append(d["name"])
    db.update(Scene, scene, last_activated_at=stamp)
    log(db, home, "scene", f"scene '{sc['name']}' activated")
    return {
        "scene": scene,
        "name": sc["name"],
        "applied": applied,
        "unchanged": unchanged,
        "skipped": skipped,
    }


def _snapshot(d: dict) -> dict:
    return {
        "device_id": d["id"],
        "state": d["state"],
        "brightness_pct": d["brightness_pct"] if d["kind"] == "light" else None,
        "target_temp": d["target_temp"] if d["kind"] == "thermostat" else None,
        "position_pct": d["position_pct"] if d["kind"] == "blinds" else None,
        "volume_pct": d["volume_pct"] if d["kind"] in ("speaker", "tv") else None,
    }


@iot_devices.tool(
    writes=[Scene, SceneAction, EventLog],
    returns=Scene,
    says=[
        "save the current state of {devices} as a scene called {name} in {home}",
        "create a scene {name} in {home} from {devices}",
    ],
)
def create_scene(db: Db, home: ActingHome, name: SceneName, devices: SceneDevices) -> dict:
    """Save the current states of some devices of a home as a new scene (names are unique per home,
    at most 50 scenes). Lights, switches, plugs, fans, appliances, thermostats, blinds, speakers and
    TVs can be in a scene. Guests may not.

    Args:
        home: The home.
        name: The scene's name.
        devices: The devices whose current state the scene saves.
    """
    h = home_for(db, home, member="create scenes")
    name = name.strip()
    if db.scalar("SELECT 1 FROM scenes WHERE home_id = ? AND lower(name) = lower(?)", home, name):
        raise ToolError(f"home {label(h)} already has a scene named {name!r}")
    count = db.scalar("SELECT count(*) FROM scenes WHERE home_id = ?", home)
    if count >= MAX_SCENES:
        raise ToolError(f"home {label(h)} already has {count} scenes, the most allowed ({MAX_SCENES})")
    rows = []
    for device in devices:
        d = db.get(Device, device)
        if d["home_id"] != home:
            raise ToolError(f"device {label(d)} is not in home {label(h)}")
        if d["kind"] not in SCENE_KINDS:
            raise ToolError(
                f"{label(d)} is a {d['kind'].replace('_', ' ')} and cannot be in a scene; scenes take "
                f"{', '.join(SCENE_KINDS)}"
            )
        rows.append(_snapshot(d))
    sc = db.insert(Scene, home_id=home, name=name, created_at=local_stamp(db, h), last_activated_at=None)
    for r in rows:
        db.add(SceneAction, scene_id=sc["id"], **r)
    log(db, h, "scene", f"scene '{name}' created with {len(rows)} devices")
    return {**sc, "actions": [{k: v for k, v in r.items() if v is not None} for r in rows]}
