"""What the network and the phone make of a line: service, data and speed computed from BOTH the
account (line status, roaming flag, data allowance) and the phone (airplane mode, SIM, toggles,
APN, network mode, where it is). Pure functions over rows, plus the lookups the tools share and
the SQL conditions the sampler uses to pick good targets."""

from __future__ import annotations

from typing import Any

from servers.domains.telecom_support.model import (
    APN,
    CARRIER,
    HOME_COUNTRY,
    Bill,
    Customer,
    Device,
    Line,
    Plan,
)
from servers.kit import Db, ToolError, marks

# -- sampler conditions (SQL over one table) ------------------------------------------------------
PAST_DUE = "status IN ('issued', 'overdue', 'awaiting_payment') AND due_on < '{today}'"
HAS_PHONE = "id IN (SELECT line_number FROM devices WHERE line_number IS NOT NULL)"
LOOSE_SIM = "id IN (SELECT line_number FROM devices WHERE sim_kind = 'physical' AND sim_seated = 0)"
RESTART_PENDING = "id IN (SELECT line_number FROM devices WHERE restart_pending = 1)"
PIN_PROMPT = "id IN (SELECT line_number FROM devices WHERE sim_status = 'pin_required')"
PUK_PROMPT = "id IN (SELECT line_number FROM devices WHERE sim_status = 'puk_locked')"
PAYABLE = "status IN ('issued', 'overdue', 'awaiting_payment')"
REQUESTABLE = "status IN ('issued', 'overdue')"
CREDITABLE = "status IN ('draft', 'issued', 'overdue', 'awaiting_payment')"
LIMITED = "plan_id IN (SELECT id FROM plans WHERE data_gb IS NOT NULL)"
SPARE_ESIM_PHONE = "line_number IS NULL AND esim_capable = 1"

GENERATION = {"5g": 5, "4g": 4, "3g": 3, "2g": 2}
NETWORK_NAME = {5: "5G", 4: "LTE"}
BASE_MBPS = {5: 240.0, 4: 42.0}
SAVER_MBPS = 1.5
THROTTLED_MBPS = 0.0


def past_due(db: Db, customer: str) -> list[dict[str, Any]]:
    """The customer's unpaid bills whose due date has passed (status overdue, or issued/awaiting)."""
    return db.all(
        "SELECT id, line_number, due_on, amount - credited AS outstanding, status FROM bills "
        f"WHERE customer_id = ? AND {PAST_DUE.format(today=db.today.isoformat())} ORDER BY due_on, id",
        customer,
    )


def line_of(db: Db, number: str) -> dict[str, Any]:
    row = db.find(Line, number)
    if row is None:
        raise ToolError(f"no line has the number {number!r}; numbers look like +1-507-935-7466")
    return row


def phone_of(db: Db, number: str) -> dict[str, Any]:
    """The phone holding the SIM of line ``number``."""
    line_of(db, number)
    dev = db.one("SELECT * FROM devices WHERE line_number = ?", number)
    if dev is None:
        raise ToolError(
            f"line {number} is not in any phone we know of; its SIM must be put in a phone (or an "
            "eSIM transferred to one with transfer_esim) before the phone can be checked"
        )
    return dev


def owner_of(db: Db, args: dict[str, Any]) -> str | None:
    """The customer a call acts for, from whichever id it names (customer, line or bill)."""
    if args.get("customer"):
        return args["customer"]
    if args.get("line"):
        row = db.find(Line, args["line"])
        return row["customer_id"] if row else None
    if args.get("bill"):
        row = db.find(Bill, args["bill"])
        return row["customer_id"] if row else None
    return None


def abroad(dev: dict[str, Any]) -> bool:
    return dev["country"] != HOME_COUNTRY


def data_left(line: dict[str, Any], plan: dict[str, Any]) -> float | None:
    if plan["data_gb"] is None:
        return None
    return round(plan["data_gb"] + line["refueled_gb"] - line["data_used_gb"], 2)


def radio(line: dict[str, Any], dev: dict[str, Any]) -> str:
    """Whether the phone is registered on a network, or the first reason it is not."""
    if dev["airplane_mode"]:
        return "airplane_mode"
    if dev["sim_kind"] is None or not dev["sim_seated"] or dev["sim_status"] == "absent":
        return "no_sim"
    if dev["sim_status"] != "ready":
        return "sim_locked"
    if GENERATION[dev["network_mode"]] < 4:
        return "legacy_network"  # the carrier switched its 2G and 3G networks off
    if dev["coverage_bars"] == 0:
        return "no_coverage"
    if line["status"] != "active":
        return "line_suspended"
    if abroad(dev) and not line["roaming_enabled"]:
        return "roaming_barred"
    return "ok"


def data_path(line: dict[str, Any], dev: dict[str, Any], plan: dict[str, Any]) -> str:
    """Whether mobile data flows, or the first reason it does not (given the radio is up)."""
    reason = radio(line, dev)
    if reason != "ok":
        return reason
    if not dev["mobile_data"]:
        return "mobile_data_off"
    if abroad(dev) and not dev["data_roaming"]:
        return "data_roaming_off"
    if dev["apn"] != APN or dev["restart_pending"]:
        return "apn"
    left = data_left(line, plan)
    if left is not None and left <= 0:
        return "data_limit"
    return "ok"


def generation(dev: dict[str, Any]) -> int:
    return min(GENERATION[dev["network_mode"]], GENERATION[dev["max_network"]])


def status_bar(line: dict[str, Any], dev: dict[str, Any], plan: dict[str, Any]) -> dict[str, Any]:
    """What the top of the phone's screen shows."""
    up, data = radio(line, dev), data_path(line, dev, plan)
    signal = {
        "airplane_mode": "airplane mode",
        "no_sim": "No SIM",
        "sim_locked": "SIM locked",
        "legacy_network": "No service",
        "no_coverage": "No service",
        "line_suspended": "Emergency calls only",
        "roaming_barred": "Emergency calls only",
    }.get(up, f"{dev['coverage_bars']} of 4 bars")
    calls_over_wifi = (
        dev["wifi_calling"]
        and dev["wifi_connected"]
        and dev["sim_status"] == "ready"
        and line["status"] == "active"
    )
    return {
        "line": line["id"],
        "signal": signal,
        "operator": None
        if up != "ok"
        else (CARRIER if not abroad(dev) else f"{dev['country']} partner network"),
        "network": NETWORK_NAME[generation(dev)] if up == "ok" else None,
        "mobile_data_icon": data == "ok",
        "roaming_icon": up == "ok" and abroad(dev),
        "airplane_icon": bool(dev["airplane_mode"]),
        "wifi_icon": bool(dev["wifi_connected"]),
        "wifi_calling_icon": bool(calls_over_wifi and up != "ok"),
        "data_saver_icon": bool(dev["data_saver"]),
        "can_call": up == "ok" or bool(calls_over_wifi),
    }


def speed(line: dict[str, Any], dev: dict[str, Any], plan: dict[str, Any]) -> dict[str, Any]:
    """A speed test over mobile data (Wi-Fi is ignored: the test is for the cellular link)."""
    if data_path(line, dev, plan) != "ok":
        return {"line": line["id"], "result": "no connection", "download_mbps": 0.0, "upload_mbps": 0.0}
    down = BASE_MBPS[generation(dev)] * dev["coverage_bars"] / 4
    if dev["data_saver"]:
        down = min(down, SAVER_MBPS)
    down = round(down, 1)
    quality = "fast" if down >= 25 else "usable" if down >= 5 else "very slow"
    return {
        "line": line["id"],
        "result": quality,
        "network": NETWORK_NAME[generation(dev)],
        "download_mbps": down,
        "upload_mbps": round(down / 5, 1),
        "latency_ms": 22 if generation(dev) == 5 else 41,
    }


def state_of(db: Db, number: str) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """The line, the phone holding its SIM and the line's plan."""
    dev = phone_of(db, number)
    line = db.get(Line, number)
    return line, dev, db.get(Plan, line["plan_id"])


def public_line(db: Db, line: dict[str, Any]) -> dict[str, Any]:
    """A line as the agent's console shows it (no SIM or voicemail secrets)."""
    plan = db.get(Plan, line["plan_id"])
    out = {k: v for k, v in line.items() if k not in marks(Line).hidden}
    out["plan"] = {"id": plan["id"], "name": plan["name"], "data_gb": plan["data_gb"]}
    out["data_left_gb"] = data_left(line, plan)
    dev = db.one("SELECT * FROM devices WHERE line_number = ?", line["id"])
    if dev is None:
        out["device"] = None
    else:
        out["device"] = {
            "id": dev["id"],
            "model": dev["model"],
            "esim_capable": bool(dev["esim_capable"]),
            "sim_kind": dev["sim_kind"],
            # what the network sees of the phone: attached or not (not why)
            "registered_on_network": radio(line, dev) == "ok",
            "last_seen_country": dev["country"],
        }
    return out


def customer_name(db: Db, customer: str) -> str:
    return db.get(Customer, customer)["name"]


def device_label(dev: dict[str, Any]) -> str:
    return f"{dev['model']} ({dev['id']})"


def check_device(db: Db, device: str) -> dict[str, Any]:
    return db.get(Device, device)
