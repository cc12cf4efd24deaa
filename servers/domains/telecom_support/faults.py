"""The registry of faults a line can be seeded with, each with the side it sits on and the chain of
tool calls that fixes it (τ²-style composed problems: a phone abroad with roaming off on the phone
*and* on the account needs both fixed before data flows).

A fault is applied to a line's seed row and its phone's seed row; the seed composes 0-3 of them
per line, skipping kinds that clash (a SIM cannot be PIN- and PUK-locked at once). ``present``
reads the faults back from live state, so tests can check that applying every fix chain leaves a
line with service and data.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from servers.domains.telecom_support.model import APN, HOME_COUNTRY

Row = dict[str, Any]


@dataclass(frozen=True)
class Fault:
    kind: str
    side: str  # "device" or "account"
    symptom: str  # what the customer notices
    fix: tuple[str, ...]  # tool names, in order
    apply: Callable[[Row, Row | None], None]
    needs_phone: bool = True
    clashes: tuple[str, ...] = ()
    abroad: bool = False  # the phone must be outside the home country for this fault to matter
    weight: float = 1.0  # how often the seed picks it, relative to the others


def _set(**values: Any) -> Callable[[Row, Row | None], None]:
    def apply(line: Row, dev: Row | None) -> None:
        assert dev is not None
        dev.update(values)

    return apply


def _suspend(line: Row, dev: Row | None) -> None:
    line.update(status="suspended", suspension_reason="overdue_bill")


def _exhaust(line: Row, dev: Row | None) -> None:
    line["data_used_gb"] = line["_allowance"] + line["refueled_gb"] + 0.4


def _bar_roaming(line: Row, dev: Row | None) -> None:
    line["roaming_enabled"] = False


FAULTS: dict[str, Fault] = {
    f.kind: f
    for f in (
        Fault(
            "airplane_mode",
            "device",
            "no service at all",
            ("device_set_airplane_mode",),
            _set(airplane_mode=True),
        ),
        Fault(
            "mobile_data_off",
            "device",
            "calls work, no internet",
            ("device_set_mobile_data",),
            _set(mobile_data=False),
        ),
        Fault(
            "data_roaming_off",
            "device",
            "no internet abroad",
            ("device_set_data_roaming",),
            _set(data_roaming=False),
            abroad=True,
        ),
        Fault(
            "roaming_barred",
            "account",
            "no service abroad",
            ("verify_customer", "enable_roaming"),
            _bar_roaming,
            needs_phone=False,
            abroad=True,
        ),
        Fault(
            "apn_broken",
            "device",
            "calls work, no internet",
            ("device_reset_apn", "device_restart"),
            _set(apn="internet"),
        ),
        Fault(
            "restart_pending",
            "device",
            "no internet after changing settings",
            ("device_restart",),
            _set(restart_pending=True),
            clashes=("apn_broken",),
        ),
        Fault(
            "sim_pin",
            "device",
            "phone says SIM locked",
            ("device_enter_sim_pin",),
            _set(sim_status="pin_required", pin_enabled=True),
            clashes=("sim_puk", "sim_unseated"),
        ),
        Fault(
            "sim_puk",
            "device",
            "phone asks for a PUK",
            ("device_enter_puk",),
            _set(sim_status="puk_locked", pin_enabled=True, pin_attempts_left=0),
            clashes=("sim_pin", "sim_unseated"),
        ),
        Fault(
            "sim_unseated",
            "device",
            "phone says No SIM",
            ("device_reseat_sim",),
            _set(sim_seated=False),
            clashes=("sim_pin", "sim_puk"),
        ),
        Fault(
            "legacy_network",
            "device",
            "no service since the 3G shutdown",
            ("device_set_network_mode",),
            _set(network_mode="3g"),
        ),
        Fault(
            "data_saver", "device", "internet is very slow", ("device_set_data_saver",), _set(data_saver=True)
        ),
        Fault(
            "line_suspended",
            "account",
            "no service, bill unpaid",
            ("verify_customer", "record_payment", "resume_line"),
            _suspend,
            needs_phone=False,
            weight=0.35,
        ),
        Fault(
            "data_limit",
            "account",
            "internet stopped mid-month",
            ("verify_customer", "refuel_data"),
            _exhaust,
            needs_phone=False,
        ),
    )
}
TRAVEL_COUNTRIES = ("MX", "CA", "GB", "FR", "JP", "DE", "IT")


def compose(rng: Any, line: Row, dev: Row | None, limited: bool) -> list[str]:
    """Seed 0-3 compatible faults on one line (and its phone); returns their kinds."""
    k = rng.choices((0, 1, 2, 3), weights=(40, 32, 18, 10) if dev else (70, 25, 5, 0))[0]
    kinds = [f for f in FAULTS.values() if (dev is not None or not f.needs_phone)]
    kinds = [f for f in kinds if f.kind != "data_limit" or limited]
    if dev is None:
        kinds = [f for f in kinds if not f.abroad]
    chosen: list[Fault] = []
    # a weighted shuffle: each kind's key is u^(1/weight), largest first
    for f in sorted(kinds, key=lambda f: rng.random() ** (1 / f.weight), reverse=True):
        if len(chosen) == k:
            break
        if any(f.kind in c.clashes or c.kind in f.clashes for c in chosen):
            continue
        chosen.append(f)
    if dev is not None and any(f.abroad for f in chosen):
        dev["country"] = rng.choice(TRAVEL_COUNTRIES)
    for f in chosen:
        f.apply(line, dev)
    return [f.kind for f in chosen]


def present(line: Row, dev: Row | None, plan: Row) -> list[str]:
    """The registry's faults visible in live state (what still needs fixing)."""
    found = []
    abroad = dev is not None and dev["country"] != HOME_COUNTRY
    if line["status"] == "suspended" and line["suspension_reason"] == "overdue_bill":
        found.append("line_suspended")
    if plan["data_gb"] is not None and line["data_used_gb"] >= plan["data_gb"] + line["refueled_gb"]:
        found.append("data_limit")
    if abroad and not line["roaming_enabled"]:
        found.append("roaming_barred")
    if dev is None:
        return found
    checks = {
        "airplane_mode": dev["airplane_mode"],
        "mobile_data_off": not dev["mobile_data"],
        "data_roaming_off": abroad and not dev["data_roaming"],
        "apn_broken": dev["apn"] != APN,
        "restart_pending": dev["apn"] == APN and dev["restart_pending"],
        "sim_pin": dev["sim_status"] == "pin_required",
        "sim_puk": dev["sim_status"] == "puk_locked",
        "sim_unseated": not dev["sim_seated"],
        "legacy_network": dev["network_mode"] in ("3g", "2g"),
        "data_saver": dev["data_saver"],
    }
    return found + [k for k, on in checks.items() if on]
