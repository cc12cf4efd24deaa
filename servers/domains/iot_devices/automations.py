"""Automations: one trigger (a time, a device state, a threshold or a mode change), an optional
home-mode condition, and one action (run a scene or set a device)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from servers.domains.iot_devices.model import (
    MAX_AUTOMATIONS,
    THRESHOLD_KINDS,
    TRIGGER_STATES,
    Automation,
    Device,
    EventLog,
    HomeMode,
    Scene,
    iot_devices,
    kind_label,
)
from servers.domains.iot_devices.rules import (
    MANAGED_HOMES,
    ManagedAutomation,
    ManagedHome,
    home_for,
    label,
    local_stamp,
    log,
)
from servers.kit import Db, Offset, PageSize, Ref, ShortText, ToolError

# what an automation may set a device to, by kind
ACTION_STATES: dict[str, tuple[str, ...]] = {
    **{k: ("on", "off") for k in ("light", "switch", "plug", "fan", "appliance", "camera", "tv", "speaker")},
    "lock": ("locked",),
    "blinds": ("open", "closed"),
    "garage_door": ("closed",),
}
AutomationName = Annotated[
    ShortText,
    Field(examples=["Porch light at dusk", "Hall light on motion", "Cool the bedroom", "Away routine"]),
]
TriggerTime = Annotated[
    str,
    Field(pattern=r"^([01][0-9]|2[0-3]):[0-5][0-9]$", description="HH:MM, local time of the home.",
          examples=["06:30", "07:00", "18:45", "21:30", "22:00"]),
]  # fmt: skip
TriggerState = Annotated[ShortText, Field(examples=["open", "closed", "open"])]
ActionState = Annotated[ShortText, Field(examples=["on", "off", "on"])]
Degrees = Annotated[float, Field(ge=-30, le=60, examples=[18.0, 20.0, 24.0, 26.0, 28.0])]
StateTrigger = Ref[Device, f"kind = 'contact_sensor' AND +home_id IN {MANAGED_HOMES}"]
ThresholdTrigger = Ref[Device, f"kind IN {THRESHOLD_KINDS!r} AND +home_id IN {MANAGED_HOMES}"]
ActionDevice = Ref[
    Device, f"+kind IN ('light', 'switch', 'plug', 'fan', 'appliance') AND +home_id IN {MANAGED_HOMES}"
]
ActionScene = Ref[Scene, f"+home_id IN {MANAGED_HOMES}"]


@iot_devices.tool(
    returns=Automation,
    says=["what automations are set up in {home}?", "list the automations of {home} and when they last ran"],
)
def list_automations(db: Db, home: ManagedHome, limit: PageSize = 20, offset: Offset = 0) -> dict:
    """A home's automations with their trigger, condition, action, whether enabled and the last run."""
    home_for(db, home)
    page = db.page(
        "SELECT id, name, trigger_kind, trigger_device_id, trigger_value, trigger_time, condition_mode, "
        "action_scene_id, action_device_id, action_state, enabled, last_run_at FROM automations "
        "WHERE home_id = ? ORDER BY id",
        home,
        limit=limit,
        offset=offset,
        key="automations",
    )
    for a in page["automations"]:
        a["enabled"] = bool(a["enabled"])
        for k in [k for k, v in a.items() if v is None]:
            del a[k]
    return page


def _device_in(db: Db, home: dict, device_id: str, what: str) -> dict:
    d = db.get(Device, device_id)
    if d["home_id"] != home["id"]:
        raise ToolError(f"{what} {label(d)} is not in home {label(home)}")
    return d


def _trigger(db: Db, home: dict, args: dict) -> dict:
    """The trigger columns from exactly one way of saying when, or a ToolError."""
    given = [k for k in ("trigger_time", "trigger_device", "threshold_device", "trigger_mode") if args[k]]
    if len(given) != 1:
        raise ToolError(
            "give exactly one trigger: trigger_time, trigger_device with trigger_state, threshold_device "
            f"with above or below, or trigger_mode (got {', '.join(given) or 'none'})"
        )
    if args["trigger_time"]:
        return {"trigger_kind": "time", "trigger_time": args["trigger_time"]}
    if args["trigger_mode"]:
        return {"trigger_kind": "mode_change", "trigger_value": args["trigger_mode"]}
    if args["trigger_device"]:
        d = _device_in(db, home, args["trigger_device"], "trigger device")
        states = TRIGGER_STATES.get(d["kind"])
        if not states:
            raise ToolError(
                f"{label(d)} is a {kind_label(d['kind'])}, whose state cannot trigger an automation"
            )
        value = (args["trigger_state"] or "").strip().lower()
        if value not in states:
            raise ToolError(
                f"a {kind_label(d['kind'])} trigger waits for one of: {', '.join(states)} (got {value!r})"
            )
        return {"trigger_kind": "device_state", "trigger_device_id": d["id"], "trigger_value": value}
    d = _device_in(db, home, args["threshold_device"], "threshold device")
    if d["kind"] not in THRESHOLD_KINDS:
        raise ToolError(f"{label(d)} is a {kind_label(d['kind'])} and reports no temperature to compare")
    above, below = args["above"], args["below"]
    if (above is None) == (below is None):
        raise ToolError("a threshold trigger needs exactly one of above or below (°C)")
    value = f"above {above:g}" if above is not None else f"below {below:g}"
    return {"trigger_kind": "threshold", "trigger_device_id": d["id"], "trigger_value": value}


def _action(db: Db, home: dict, scene: str | None, device: str | None, state: str | None) -> dict:
    if (scene is None) == (device is None):
        raise ToolError("give exactly one action: action_scene, or action_device with action_state")
    if scene is not None:
        sc = db.get(Scene, scene)
        if sc["home_id"] != home["id"]:
            raise ToolError(f"scene {label(sc)} is not in home {label(home)}")
        return {"action_scene_id": scene}
    d = _device_in(db, home, device, "action device")
    allowed = ACTION_STATES.get(d["kind"], ())
    value = (state or "").strip().lower()
    if not allowed:
        raise ToolError(f"{label(d)} is a {kind_label(d['kind'])}; an automation cannot operate it")
    if value not in allowed:
        raise ToolError(
            f"an automation can set a {kind_label(d['kind'])} to: {', '.join(allowed)} (got {value!r})"
        )
    return {"action_device_id": d["id"], "action_state": value}


def _check_room_for(db: Db, h: dict, home: str, name: str) -> None:
    """A new automation needs a name unused in the home (ignoring case) and room under the limit."""
    if db.scalar("SELECT 1 FROM automations WHERE home_id = ? AND lower(name) = lower(?)", home, name):
        raise ToolError(f"home {label(h)} already has an automation named {name!r}")
    count = db.scalar("SELECT count(*) FROM automations WHERE home_id = ?", home)
    if count >= MAX_AUTOMATIONS:
        raise ToolError(
            f"home {label(h)} already has {count} automations, the most allowed ({MAX_AUTOMATIONS})"
        )


def _trigger_and_action_columns(trigger: dict, action: dict) -> dict:
    """Every trigger and action column, None unless the trigger or action sets it."""
    row = dict.fromkeys(
        (
            "trigger_device_id",
            "trigger_value",
            "trigger_time",
            "action_scene_id",
            "action_device_id",
            "action_state",
        )
    )
    row.update(trigger)
    row.update(action)
    return row


@iot_devices.tool(
    writes=[Automation, EventLog],
    returns=Automation,
    says=[
        "create an automation {name} in {home} that runs {action_scene} every day at {trigger_time}",
        "in {home}, when {trigger_device} is {trigger_state}, turn {action_state} {action_device}; call it {name}",
        "add an automation {name} to {home}: when {threshold_device} goes above {above} degrees, turn {action_state} {action_device}",
        "when {home} switches to {trigger_mode} mode, run {action_scene}; name the automation {name}",
    ],
)  # fmt: skip
def create_automation(
    db: Db,
    home: ManagedHome,
    name: AutomationName,
    trigger_time: TriggerTime | None = None,
    trigger_device: StateTrigger | None = None,
    trigger_state: TriggerState | None = None,
    threshold_device: ThresholdTrigger | None = None,
    above: Degrees | None = None,
    below: Degrees | None = None,
    trigger_mode: HomeMode | None = None,
    condition_mode: HomeMode | None = None,
    action_scene: ActionScene | None = None,
    action_device: ActionDevice | None = None,
    action_state: ActionState | None = None,
) -> dict:
    """Create an enabled automation (owners and admins; names unique per home, at most 50).

    Give one trigger: trigger_time (daily, HH:MM local); trigger_device and trigger_state (a
    contact sensor open/closed, motion detected/clear, a leak wet, a lock locked/unlocked...);
    threshold_device with above or below (°C, a temperature sensor or thermostat); or trigger_mode
    (the home switches to that mode). Optionally condition_mode: run only while the home is in that
    mode. Give one action: action_scene, or action_device with action_state (on/off for switchable
    devices, locked for a lock, open/closed for blinds).

    Args:
        home: The home.
        name: The automation's name.
        trigger_time: Daily trigger time, HH:MM.
        trigger_device: The device whose state triggers it.
        trigger_state: The state trigger_device must reach.
        threshold_device: The temperature sensor or thermostat a threshold watches.
        above: Trigger when the temperature rises above this (°C).
        below: Trigger when the temperature falls below this (°C).
        trigger_mode: Trigger when the home switches to this mode.
        condition_mode: Only run while the home is in this mode.
        action_scene: The scene to run.
        action_device: The device to set.
        action_state: What to set action_device to.
    """
    h = home_for(db, home, manage="manage automations")
    name = name.strip()
    _check_room_for(db, h, home, name)
    args = dict(trigger_time=trigger_time, trigger_device=trigger_device, threshold_device=threshold_device)
    args.update(trigger_mode=trigger_mode, trigger_state=trigger_state, above=above, below=below)
    trigger = _trigger(db, h, args)
    action = _action(db, h, action_scene, action_device, action_state)
    row = _trigger_and_action_columns(trigger, action)
    out = db.insert(
        Automation,
        home_id=home,
        name=name,
        condition_mode=condition_mode,
        enabled=True,
        created_at=local_stamp(db, h),
        last_run_at=None,
        **row,
    )
    log(db, h, "automation", f"automation '{name}' created")
    return {k: v for k, v in out.items() if v is not None} | {"enabled": True}


@iot_devices.tool(
    writes=[Automation, EventLog],
    returns=Automation,
    idempotent=True,
    says=[
        "should {automation} be enabled? {enabled}",
        "change whether {automation} is enabled: {enabled}",
    ],
)
def set_automation_enabled(db: Db, automation: ManagedAutomation, enabled: bool) -> dict:
    """Enable or disable an automation (owners and admins).

    Args:
        automation: The automation.
        enabled: true to enable it, false to disable it.
    """
    a = db.get(Automation, automation)
    h = home_for(db, a["home_id"], manage="manage automations")
    if bool(a["enabled"]) == enabled:
        raise ToolError(f"automation {label(a)} is already {'enabled' if enabled else 'disabled'}")
    db.update(Automation, automation, enabled=enabled)
    log(db, h, "automation", f"automation '{a['name']}' {'enabled' if enabled else 'disabled'}")
    return {"automation": automation, "name": a["name"], "enabled": enabled}
