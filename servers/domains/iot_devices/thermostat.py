"""The thermostat's rules: modes it lists, targets within range, heat_cool gaps, vacation eco caps."""

from __future__ import annotations

from servers.domains.iot_devices.model import ECO_COOL_MIN, ECO_HEAT_MAX, MIN_GAP
from servers.domains.iot_devices.rules import label
from servers.kit import ToolError


def _in_range(d: dict, name: str, value: float) -> None:
    lo, hi = d["min_temp"], d["max_temp"]
    if not lo <= value <= hi:
        raise ToolError(f"{name} {value:g} °C is outside the range of {label(d)}: {lo:g}-{hi:g} °C")


def _eco(home: dict, mode: str, target: float | None, low: float | None, high: float | None) -> None:
    """Vacation mode accepts only eco targets; the error names the blocking setting."""
    if home["mode"] != "vacation":
        return
    bad = []
    if mode == "heat" and target is not None and target > ECO_HEAT_MAX:
        bad.append(f"heating to {target:g} °C (at most {ECO_HEAT_MAX:g})")
    if mode == "cool" and target is not None and target < ECO_COOL_MIN:
        bad.append(f"cooling to {target:g} °C (at least {ECO_COOL_MIN:g})")
    if mode == "auto" and target is not None and ECO_HEAT_MAX < target < ECO_COOL_MIN:
        bad.append(f"auto at {target:g} °C (at most {ECO_HEAT_MAX:g} or at least {ECO_COOL_MIN:g})")
    if (
        mode == "heat_cool"
        and low is not None
        and high is not None
        and (low > ECO_HEAT_MAX or high < ECO_COOL_MIN)
    ):
        bad.append(
            f"heat_cool {low:g}-{high:g} °C (low at most {ECO_HEAT_MAX:g}, high at least {ECO_COOL_MIN:g})"
        )
    if bad:
        raise ToolError(
            f"home {label(home)} is in vacation mode, which allows only eco targets: {'; '.join(bad)} is "
            "refused until the home mode changes (set_home_mode)"
        )


def check_thermostat(
    d: dict,
    home: dict,
    hvac_mode: str | None,
    target_temp: float | None,
    target_low: float | None,
    target_high: float | None,
) -> dict:
    """The device columns a thermostat request sets, or a ToolError saying what is wrong."""
    if hvac_mode is None and target_temp is None and target_low is None and target_high is None:
        raise ToolError("nothing to change: give hvac_mode, target_temp or target_low/target_high")
    modes = d["hvac_modes"].split(",")
    if hvac_mode is not None and hvac_mode not in modes:
        raise ToolError(f"{label(d)} has no {hvac_mode} mode; its modes: {', '.join(modes)}")
    mode = hvac_mode or d["hvac_mode"]
    given = target_temp is not None or target_low is not None or target_high is not None
    if mode in ("off", "dry", "fan_only") and given:
        raise ToolError(
            f"{label(d)} is in {mode} mode, which has no target; give an hvac_mode such as "
            f"{', '.join(m for m in modes if m in ('heat', 'cool', 'heat_cool', 'auto'))} with the target"
        )
    values: dict = {"hvac_mode": mode, "state": mode}
    if mode == "heat_cool":
        if target_temp is not None:
            raise ToolError("heat_cool takes target_low and target_high, not target_temp")
        low = target_low if target_low is not None else d["target_low"]
        high = target_high if target_high is not None else d["target_high"]
        if low is None or high is None:
            raise ToolError(f"heat_cool on {label(d)} needs both target_low and target_high")
        _in_range(d, "target_low", low)
        _in_range(d, "target_high", high)
        if high - low < MIN_GAP:
            raise ToolError(
                f"target_low {low:g} °C and target_high {high:g} °C must be at least {MIN_GAP:g}° apart"
            )
        _eco(home, mode, None, low, high)
        values.update(target_low=low, target_high=high, target_temp=None)
    elif mode in ("heat", "cool", "auto"):
        if target_low is not None or target_high is not None:
            raise ToolError(f"{mode} mode takes one target_temp; target_low/target_high are for heat_cool")
        target = target_temp if target_temp is not None else d["target_temp"]
        if target is None:
            raise ToolError(f"{mode} mode on {label(d)} needs a target_temp")
        _in_range(d, "target_temp", target)
        _eco(home, mode, target, None, None)
        values.update(target_temp=target, target_low=None, target_high=None)
    return values
