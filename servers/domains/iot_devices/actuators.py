"""Switching, dimming, climate, fans, covers, media and vacuums."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from servers.domains.iot_devices.model import (
    ENERGY_KINDS,
    VACUUM_MIN_BATTERY,
    Color,
    Device,
    EventLog,
    iot_devices,
    kind_label,
)
from servers.domains.iot_devices.rules import (
    CoverDevice,
    FanDevice,
    LightDevice,
    MediaDevice,
    SwitchOff,
    SwitchOn,
    ThermostatDevice,
    VacuumDevice,
    change,
    device_for,
    label,
    motor_battery,
)
from servers.domains.iot_devices.thermostat import check_thermostat
from servers.kit import Db, ShortText, ToolError

Brightness = Annotated[int, Field(ge=0, le=100, examples=[20, 30, 50, 60, 75, 80, 100])]
Kelvin = Annotated[int, Field(ge=1000, le=10000, examples=[2200, 2700, 3000, 4000, 5000, 6500])]
Temp = Annotated[float, Field(ge=-50, le=100, examples=[18.0, 19.0, 20.0, 21.0, 21.5, 22.0, 23.0, 24.0])]
LowTemp = Annotated[float, Field(ge=-50, le=100, examples=[17.0, 18.0, 19.0, 20.0])]
HighTemp = Annotated[float, Field(ge=-50, le=100, examples=[23.0, 24.0, 25.0, 26.0, 27.0])]
Position = Annotated[int, Field(ge=0, le=100, examples=[0, 25, 50, 75, 100])]


def _switch(db: Db, device: str, on: bool) -> dict:
    action = "turn_on" if on else "turn_off"
    d, home = device_for(db, device, action)
    want = "on" if on else "off"
    if d["state"] == want:
        raise ToolError(f"{label(d)} is already {want}")
    values: dict = {"state": want}
    if d["kind"] == "light":
        values["brightness_pct"] = 100 if on else 0
    if d["kind"] == "fan":
        values["fan_pct"] = 33 if on else 0
    if d["kind"] in ENERGY_KINDS:
        values["power_w"] = 60.0 if on else 0.4
    if d["kind"] in ("tv", "speaker"):
        values["playback"] = "stopped" if not on else d["playback"]
    after = change(db, home, d, f"turned {want}", **values)
    return {"device": device, "name": d["name"], "kind": d["kind"], "state": after["state"]}


@iot_devices.tool(
    writes=[Device, EventLog],
    returns=Device,
    says=["turn on {device}", "switch {device} on", "can you power on {device}?"],
)
def turn_on(db: Db, device: SwitchOff) -> dict:
    """Switch a device on: lights, switches, plugs, fans, appliances, cameras, TVs and speakers.

    Args:
        device: The device.
    """
    return _switch(db, device, True)


@iot_devices.tool(
    writes=[Device, EventLog],
    returns=Device,
    says=["turn off {device}", "switch {device} off", "please shut off {device}"],
)
def turn_off(db: Db, device: SwitchOn) -> dict:
    """Switch a device off (a camera off is in privacy mode).

    Args:
        device: The device.
    """
    return _switch(db, device, False)


@iot_devices.tool(
    writes=[Device, EventLog],
    returns=Device,
    idempotent=True,
    says=[
        "dim {device} to {brightness_pct}%",
        "set {device} to {brightness_pct} percent brightness",
        "make {device} {color}",
        "set {device} to a colour temperature of {color_temp_k} K",
    ],
)
def set_light(
    db: Db,
    device: LightDevice,
    brightness_pct: Brightness | None = None,
    color_temp_k: Kelvin | None = None,
    color: Color | None = None,
) -> dict:
    """Set a light's brightness (0 turns it off, more turns it on), colour temperature or colour.

    Colour temperature must be within the bulb's range; colour needs a colour bulb; give colour
    temperature or colour, not both.

    Args:
        device: The light.
        brightness_pct: Brightness 0-100.
        color_temp_k: White colour temperature in kelvin, e.g. 2700 (warm) to 6500 (daylight).
        color: A named colour.
    """
    d, home = device_for(db, device, "set_light")
    if brightness_pct is None and color_temp_k is None and color is None:
        raise ToolError("nothing to change: give brightness_pct, color_temp_k or color")
    if color_temp_k is not None and color is not None:
        raise ToolError("give either color_temp_k or color, not both: a bulb shows one at a time")
    values: dict = {}
    if color_temp_k is not None:
        lo, hi = d["min_color_temp_k"], d["max_color_temp_k"]
        if lo == hi:
            raise ToolError(f"{label(d)} is a fixed {lo} K white bulb; its colour temperature cannot change")
        if not lo <= color_temp_k <= hi:
            raise ToolError(f"{color_temp_k} K is outside the range of {label(d)}: {lo}-{hi} K")
        values.update(color_temp_k=color_temp_k, color=None)
    if color is not None:
        if not d["supports_color"]:
            raise ToolError(
                f"{label(d)} ({d['manufacturer']} {d['model']}) is a white-only bulb and cannot show "
                f"{color}; it supports brightness and colour temperature"
            )
        values["color"] = color
    if brightness_pct is not None:
        values.update(brightness_pct=brightness_pct, state="on" if brightness_pct else "off")
    elif d["state"] == "off":
        values.update(state="on", brightness_pct=100)
    after = change(db, home, d, f"light set to {_said(values) or 'the same'}", **values)
    keys = ("state", "brightness_pct", "color_temp_k", "color")
    return {"device": device, "name": d["name"], **{k: after[k] for k in keys}}


@iot_devices.tool(
    writes=[Device, EventLog],
    returns=Device,
    idempotent=True,
    says=[
        "set {device} to {target_temp} degrees",
        "put {device} in {hvac_mode} mode at {target_temp} °C",
        "keep {device} between {target_low} and {target_high} degrees",
        "switch {device} to {hvac_mode}",
    ],
)
def set_thermostat(
    db: Db,
    device: ThermostatDevice,
    hvac_mode: Literal["off", "heat", "cool", "heat_cool", "auto", "dry", "fan_only"] | None = None,
    target_temp: Temp | None = None,
    target_low: LowTemp | None = None,
    target_high: HighTemp | None = None,
) -> dict:
    """Set a thermostat's HVAC mode and target (°C): one target for heat, cool or auto; a low and a
    high for heat_cool (at least 1.5° apart). Targets stay within the thermostat's range; in
    vacation mode only eco targets are accepted (heat at most 18 °C, cool at least 27 °C).

    Args:
        device: The thermostat.
        hvac_mode: The mode; it must be one the thermostat lists in hvac_modes.
        target_temp: Target in °C (heat, cool, auto).
        target_low: Heat below this, in °C (heat_cool).
        target_high: Cool above this, in °C (heat_cool).
    """
    d, home = device_for(db, device, "set_thermostat")
    values = check_thermostat(d, home, hvac_mode, target_temp, target_low, target_high)
    after = change(db, home, d, f"thermostat set to {_said(values)}", **values)
    keys = ("hvac_mode", "target_temp", "target_low", "target_high", "current_temp")
    return {"device": device, "name": d["name"], **{k: after[k] for k in keys}}


@iot_devices.tool(
    writes=[Device, EventLog],
    returns=Device,
    idempotent=True,
    says=["set {device} to {speed_pct}% speed", "run {device} at {speed_pct} percent"],
)
def set_fan(
    db: Db,
    device: FanDevice,
    speed_pct: Annotated[int, Field(ge=0, le=100, examples=[33, 50, 66, 100])],
    oscillate: bool | None = None,
) -> dict:
    """Set a fan's speed (0 turns it off) and, if it can, whether it oscillates.

    Args:
        device: The fan.
        speed_pct: Speed 0-100.
        oscillate: true to sweep side to side; only fans that can oscillate.
    """
    d, home = device_for(db, device, "set_fan")
    values: dict = {"fan_pct": speed_pct, "state": "on" if speed_pct else "off"}
    if oscillate is not None:
        if d["oscillating"] is None:
            raise ToolError(
                f"{label(d)} ({d['manufacturer']} {d['model']}) cannot oscillate; set only its speed"
            )
        values["oscillating"] = oscillate
    after = change(db, home, d, f"fan at {speed_pct}%", **values)
    return {"device": device, "name": d["name"], "state": after["state"], "fan_pct": after["fan_pct"]}


@iot_devices.tool(
    writes=[Device, EventLog],
    returns=Device,
    idempotent=True,
    says=[
        "open {device} to {position_pct}%",
        "set {device} to {position_pct} percent open",
        "move {device} to {position_pct}%",
    ],
)
def set_cover_position(db: Db, device: CoverDevice, position_pct: Position) -> dict:
    """Move blinds or a garage door: 0 is closed, 100 fully open. A garage door will not open while
    the alarm is armed away or vacation, and battery blinds need 10% battery to move.

    Args:
        device: The blinds or garage door.
        position_pct: 0 (closed) to 100 (open).
    """
    d, home = device_for(db, device, "set_cover_position")
    motor_battery(d)
    if d["position_pct"] == position_pct:
        raise ToolError(f"{label(d)} is already at {position_pct}%")
    if (
        d["kind"] == "garage_door"
        and position_pct > 0
        and home["alarm_state"] in ("armed_away", "armed_vacation")
    ):
        raise ToolError(
            f"the alarm of {label(home)} is {home['alarm_state']}: the garage door stays closed until "
            "the alarm is disarmed (disarm_alarm)"
        )
    state = "open" if position_pct else "closed"
    after = change(db, home, d, f"moved to {position_pct}%", position_pct=position_pct, state=state)
    return {"device": device, "name": d["name"], "state": after["state"], "position_pct": position_pct}


@iot_devices.tool(
    writes=[Device, EventLog],
    returns=Device,
    says=[
        "{action} the music on {device}",
        "set the volume of {device} to {volume_pct}%",
        "switch {device} to {source}",
    ],
)
def control_media(
    db: Db,
    device: MediaDevice,
    action: Literal["play", "pause", "stop"] | None = None,
    volume_pct: Annotated[int, Field(ge=0, le=100, examples=[10, 20, 30, 40, 50])] | None = None,
    source: Annotated[ShortText, Field(examples=["Spotify", "AirPlay", "HDMI 1", "Netflix", "Live TV"])]
    | None = None,
) -> dict:
    """Play, pause or stop a TV or speaker, set its volume, or switch its source. It must be on.

    Args:
        device: The TV or speaker.
        action: play, pause or stop.
        volume_pct: Volume 0-100.
        source: One of the device's sources (see get_device), e.g. Spotify or HDMI 1.
    """
    d, home = device_for(db, device, "control_media")
    if action is None and volume_pct is None and source is None:
        raise ToolError("nothing to change: give action, volume_pct or source")
    if d["state"] != "on":
        raise ToolError(f"{label(d)} is off; turn it on first (turn_on)")
    values: dict = {}
    if source is not None:
        options = d["sources"].split(",")
        match = next((o for o in options if o.casefold() == source.strip().casefold()), None)
        if match is None:
            raise ToolError(f"{label(d)} has no source {source!r}; its sources: {', '.join(options)}")
        values["source"] = match
    if action is not None:
        values["playback"] = {"play": "playing", "pause": "paused", "stop": "stopped"}[action]
        if values["playback"] == d["playback"]:
            raise ToolError(f"{label(d)} is already {d['playback']}")
    if volume_pct is not None:
        values["volume_pct"] = volume_pct
    after = change(db, home, d, f"media: {_said(values)}", **values)
    return {
        "device": device,
        "name": d["name"],
        **{k: after[k] for k in ("playback", "volume_pct", "source")},
    }


@iot_devices.tool(
    writes=[Device, EventLog],
    returns=Device,
    says=["tell {device} to {action}", "have {device} {action}"],
)
def control_vacuum(db: Db, device: VacuumDevice, action: Literal["start", "pause", "return_to_dock"]) -> dict:
    """Start, pause or send home a robot vacuum. Starting needs 20% battery and no fault.

    Args:
        device: The robot vacuum.
        action: start, pause or return_to_dock.
    """
    d, home = device_for(db, device, "control_vacuum")
    state = d["state"]
    if state == "error":
        raise ToolError(
            f"{label(d)} reports a fault ({d['fault']}); clear it on the vacuum, then start again"
        )
    if action == "start":
        if state == "cleaning":
            raise ToolError(f"{label(d)} is already cleaning")
        if (d["battery_pct"] or 0) < VACUUM_MIN_BATTERY:
            raise ToolError(
                f"the battery of {label(d)} is at {d['battery_pct']}%; it needs {VACUUM_MIN_BATTERY}% to start"
            )
        new = "cleaning"
    elif action == "pause":
        if state != "cleaning":
            raise ToolError(f"{label(d)} is {state}, not cleaning; only a cleaning vacuum can pause")
        new = "paused"
    else:
        if state in ("docked", "returning"):
            raise ToolError(f"{label(d)} is already {state}")
        new = "returning"
    after = change(db, home, d, f"vacuum {action.replace('_', ' ')}", state=new)
    return {"device": device, "name": d["name"], "kind": kind_label(d["kind"]), "state": after["state"]}


# how the event log words a change: the app's own sentence, not the columns it wrote
_SAID = {
    "brightness_pct": "{}% brightness",
    "color_temp_k": "{} K white",
    "color": "{}",
    "hvac_mode": "{} mode",
    "target_temp": "{} °C",
    "target_low": "heat below {} °C",
    "target_high": "cool above {} °C",
    "source": "{}",
    "playback": "{}",
    "volume_pct": "volume {}%",
}


def _said(values: dict) -> str:
    """The values a command set, as the event log says them ("green, 60% brightness")."""
    parts = [
        _SAID[k].format(str(v).replace("_", " ")) for k, v in values.items() if k in _SAID and v is not None
    ]
    return ", ".join(parts)
