"""The customer's side: the phone in their hand (``device_*`` tools).

In τ²-style dual control these are the user's tools; in solo mode the agent works them on the
user's behalf ("tap Settings > ..."). Each takes the phone number of the line whose SIM the phone
holds, so one conversation can cover a family's phones and the generator can name any of them;
the phone is the device row whose ``line_number`` is that line. What the phone shows (signal,
data, speed) is computed from the phone's settings AND the account (see ``rules``): turning
mobile data on does not help a suspended line.
"""

from __future__ import annotations

from servers.domains.telecom_support import rules as R
from servers.domains.telecom_support.model import (
    APN,
    PIN_TRIES,
    PUK_TRIES,
    Device,
    Line,
    NetworkMode,
    OnOff,
    SimPin,
    SimPuk,
    telecom_support,
)
from servers.kit import Db, Ref, ToolError

Phone = Ref[Line, R.HAS_PHONE]


def _after(db: Db, number: str, **shown) -> dict:
    line, dev, plan = R.state_of(db, number)
    return {**shown, "status_bar": R.status_bar(line, dev, plan)}


def _toggle(db: Db, number: str, column: str, mode: str) -> dict:
    dev = R.phone_of(db, number)
    db.update(Device, dev["id"], **{column: mode == "on"})
    return _after(db, number, **{column: mode})


@telecom_support.tool(
    returns=Device,
    says=["what does the top of my screen show on {line}?", "check the status bar of the phone with {line}"],
)
def device_check_status_bar(db: Db, line: Phone) -> dict:
    """What the phone's status bar shows: signal bars or "No service"/"SIM locked"/"No SIM", the
    network (5G/LTE), and icons for mobile data, roaming, airplane mode, Wi-Fi, Wi-Fi calling and data
    saver.

    Args:
        line: The phone number of the line in the phone.
    """
    line_row, dev, plan = R.state_of(db, line)
    return R.status_bar(line_row, dev, plan)


@telecom_support.tool(
    returns=Device,
    says=["open the mobile network settings for {line}", "what are the network settings on {line}?"],
)
def device_check_network(db: Db, line: Phone) -> dict:
    """The phone's mobile network settings screen: airplane mode, mobile data, data roaming, network
    mode, access point name (APN), SIM card state and tries left, Wi-Fi calling, data saver, and the
    country the phone is in."""
    dev = R.phone_of(db, line)
    keys = (
        "model",
        "airplane_mode",
        "mobile_data",
        "data_roaming",
        "network_mode",
        "max_network",
        "apn",
        "restart_pending",
        "sim_kind",
        "sim_status",
        "pin_attempts_left",
        "puk_attempts_left",
        "wifi_calling",
        "wifi_connected",
        "data_saver",
        "country",
    )
    flags = {k for k, c in Device.__table__.columns.items() if c.type.python_type is bool}
    shown = {k: bool(dev[k]) if k in flags else dev[k] for k in keys}
    return {"line": line, "device": dev["id"], **shown, "expected_apn": APN}


@telecom_support.tool(
    returns=Device,
    says=["run a speed test on {line}", "how fast is mobile data on {line} right now?"],
)
def device_run_speed_test(db: Db, line: Phone) -> dict:
    """Test mobile data speed (Wi-Fi off for the test): "no connection", or download/upload Mbps."""
    line_row, dev, plan = R.state_of(db, line)
    return R.speed(line_row, dev, plan)


@telecom_support.tool(
    writes=[Device],
    returns=Device,
    idempotent=True,
    says=["turn {mode} airplane mode on {line}", "switch airplane mode {mode} for {line}"],
)
def device_set_airplane_mode(db: Db, line: Phone, mode: OnOff) -> dict:
    """Turn airplane mode on or off. With it on, all radios are off.

    Args:
        line: The phone number of the line in the phone.
        mode: on or off.
    """
    return _toggle(db, line, "airplane_mode", mode)


@telecom_support.tool(
    writes=[Device],
    returns=Device,
    idempotent=True,
    says=["turn {mode} mobile data on {line}", "switch cellular data {mode} for {line}"],
)
def device_set_mobile_data(db: Db, line: Phone, mode: OnOff) -> dict:
    """Turn mobile data on or off on the phone.

    Args:
        line: The phone number of the line in the phone.
        mode: on or off.
    """
    return _toggle(db, line, "mobile_data", mode)


@telecom_support.tool(
    writes=[Device],
    returns=Device,
    idempotent=True,
    says=[
        "turn {mode} data roaming in the phone settings for {line}",
        "switch the phone's data roaming {mode} for {line}",
    ],
)
def device_set_data_roaming(db: Db, line: Phone, mode: OnOff) -> dict:
    """Turn the phone's data roaming switch on or off. Abroad, data also needs roaming on the account.

    Args:
        line: The phone number of the line in the phone.
        mode: on or off.
    """
    return _toggle(db, line, "data_roaming", mode)


@telecom_support.tool(
    writes=[Device],
    returns=Device,
    idempotent=True,
    says=["turn {mode} wifi calling on {line}", "switch wifi calling {mode} for {line}"],
)
def device_set_wifi_calling(db: Db, line: Phone, mode: OnOff) -> dict:
    """Turn Wi-Fi calling on or off. With it on, calls go over Wi-Fi where there is no cellular signal.

    Args:
        line: The phone number of the line in the phone.
        mode: on or off.
    """
    return _toggle(db, line, "wifi_calling", mode)


@telecom_support.tool(
    writes=[Device],
    returns=Device,
    idempotent=True,
    says=["turn {mode} the data saver on {line}", "switch the data saver {mode} for {line}"],
)
def device_set_data_saver(db: Db, line: Phone, mode: OnOff) -> dict:
    """Turn data saver on or off. With it on, mobile data is capped to about 1.5 Mbps.

    Args:
        line: The phone number of the line in the phone.
        mode: on or off.
    """
    return _toggle(db, line, "data_saver", mode)


@telecom_support.tool(
    writes=[Device],
    returns=Device,
    idempotent=True,
    says=[
        "set the preferred network type for {line} to {mode}",
        "change the network mode of {line} to {mode}",
    ],
)
def device_set_network_mode(db: Db, line: Phone, mode: NetworkMode) -> dict:
    """Set the newest network generation the phone may use. The modes are 5g, 4g, 3g and 2g; the carrier has
    switched its 3G and 2G networks off, so those modes find no service.

    Args:
        line: The phone number of the line in the phone.
        mode: 5g, 4g, 3g or 2g.
    """
    dev = R.phone_of(db, line)
    if R.GENERATION[mode] > R.GENERATION[dev["max_network"]]:
        raise ToolError(
            f"the {dev['model']} supports networks up to {dev['max_network']}; choose 4g or lower"
        )
    db.update(Device, dev["id"], network_mode=mode)
    return _after(db, line, network_mode=mode)


@telecom_support.tool(
    writes=[Device],
    returns=Device,
    idempotent=True,
    says=["reset the APN settings for {line}", "restore the default access point for {line}"],
)
def device_reset_apn(db: Db, line: Phone) -> dict:
    """Restore the carrier's default access point name on the phone. The phone must restart for it to
    take effect."""
    dev = R.phone_of(db, line)
    db.update(Device, dev["id"], apn=APN, restart_pending=True)
    return _after(db, line, apn=APN, restart_needed=True)


@telecom_support.tool(
    writes=[Device],
    returns=Device,
    says=[
        "I'll take the SIM card out of the phone with {line} and put it back in",
        "reseat the SIM card for {line}",
    ],
)
def device_reseat_sim(db: Db, line: Ref[Line, R.LOOSE_SIM]) -> dict:
    """Take the physical SIM card out and push it back in firmly. A SIM with its PIN enabled then
    asks for the PIN; a PUK-locked or blocked SIM stays so."""
    dev = R.phone_of(db, line)
    if dev["sim_kind"] != "physical":
        raise ToolError(f"line {line} is an eSIM in the {dev['model']}; there is no card to reseat")
    status = dev["sim_status"]
    if status in ("ready", "absent", "pin_required"):
        status = "pin_required" if dev["pin_enabled"] else "ready"
    db.update(Device, dev["id"], sim_seated=True, sim_status=status)
    return _after(db, line, sim_status=status)


@telecom_support.tool(
    writes=[Device],
    returns=Device,
    says=[
        "the phone with {line} asks for the SIM PIN, it's {sim_pin}",
        "unlock the SIM of {line} with PIN {sim_pin}",
    ],
)
def device_enter_sim_pin(db: Db, line: Ref[Line, R.PIN_PROMPT], sim_pin: SimPin) -> dict:
    """Enter the SIM PIN the phone asks for. After 3 wrong PINs the SIM locks and needs its PUK.

    Args:
        line: The phone number of the line in the phone.
        sim_pin: The PIN.
    """
    dev = R.phone_of(db, line)
    if dev["sim_status"] == "puk_locked":
        raise ToolError(
            f"the SIM of {line} is PUK-locked after {PIN_TRIES} wrong PINs; enter the PUK instead"
        )
    if dev["sim_status"] != "pin_required":
        raise ToolError(f"the SIM of {line} is not asking for a PIN (it is {dev['sim_status']})")
    if sim_pin == db.get(Line, line)["sim_pin"]:
        db.update(Device, dev["id"], sim_status="ready", pin_attempts_left=PIN_TRIES)
        return _after(db, line, accepted=True, sim_status="ready")
    left = dev["pin_attempts_left"] - 1
    status = "pin_required" if left > 0 else "puk_locked"
    db.update(Device, dev["id"], pin_attempts_left=left, sim_status=status)
    return _after(db, line, accepted=False, attempts_left=left, sim_status=status)


@telecom_support.tool(
    writes=[Device, Line],
    returns=Device,
    says=[
        "the SIM of {line} wants a PUK, it's {sim_puk}; please set the new PIN to {new_sim_pin}",
        "unblock the SIM in {line} with PUK {sim_puk} and new PIN {new_sim_pin}",
    ],
)
def device_enter_puk(db: Db, line: Ref[Line, R.PUK_PROMPT], sim_puk: SimPuk, new_sim_pin: SimPin) -> dict:
    """Unlock a PUK-locked SIM with its PUK and choose a new SIM PIN. The carrier has the PUK; after 10
    wrong PUKs the SIM is blocked for good and must be replaced (order_sim).

    Args:
        line: The phone number of the line in the phone.
        sim_puk: The 8-digit PUK.
        new_sim_pin: The new SIM PIN, 4-8 digits.
    """
    dev = R.phone_of(db, line)
    if dev["sim_status"] == "blocked":
        raise ToolError(f"the SIM of {line} is blocked after {PUK_TRIES} wrong PUKs; order a new SIM")
    if dev["sim_status"] != "puk_locked":
        raise ToolError(f"the SIM of {line} is not asking for a PUK (it is {dev['sim_status']})")
    if sim_puk == db.get(Line, line)["sim_puk"]:
        db.update(Line, line, sim_pin=new_sim_pin)
        db.update(
            Device, dev["id"], sim_status="ready", pin_attempts_left=PIN_TRIES, puk_attempts_left=PUK_TRIES
        )
        return _after(db, line, accepted=True, sim_status="ready")
    left = dev["puk_attempts_left"] - 1
    status = "puk_locked" if left > 0 else "blocked"
    db.update(Device, dev["id"], puk_attempts_left=left, sim_status=status)
    return _after(db, line, accepted=False, attempts_left=left, sim_status=status)


@telecom_support.tool(
    writes=[Device],
    returns=Device,
    says=["restart the phone with {line}", "I'll turn the phone with {line} off and on again"],
)
def device_restart(db: Db, line: Ref[Line, R.RESTART_PENDING]) -> dict:
    """Turn the phone off and on again. Pending network settings (a reset APN) take effect, and a SIM
    with its PIN enabled asks for the PIN again."""
    dev = R.phone_of(db, line)
    status = "pin_required" if dev["pin_enabled"] and dev["sim_status"] == "ready" else dev["sim_status"]
    db.update(Device, dev["id"], restart_pending=False, sim_status=status)
    return _after(db, line, restarted=True, sim_status=status)
