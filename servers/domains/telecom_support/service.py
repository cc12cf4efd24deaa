"""The agent's console, line side: suspending and resuming, plans, roaming, data refuels, voicemail,
SIMs and eSIMs, tickets and handing the conversation to a human."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from servers.domains.telecom_support import rules as R
from servers.domains.telecom_support.model import (
    PIN_TRIES,
    PUK_TRIES,
    Bill,
    Customer,
    Device,
    Handoff,
    HandoffReason,
    Line,
    Plan,
    Refuel,
    SimKind,
    SimOrder,
    SuspendReason,
    Ticket,
    TicketCategory,
    VoicemailPin,
    telecom_support,
)
from servers.kit import Db, Ref, ShortText, ToolError

RefuelGb = Annotated[int, Field(ge=1, le=10, description="Whole gigabytes to add, 1-10.")]
OTHER_PLAN = "available = 1 AND id != (SELECT plan_id FROM lines WHERE id = :line)"
SPARE_PHONE = f"{R.SPARE_ESIM_PHONE} AND customer_id = (SELECT customer_id FROM lines WHERE id = :line)"
HAS_SPARE = f"customer_id IN (SELECT customer_id FROM devices WHERE {R.SPARE_ESIM_PHONE})"
NO_ORDER = "id NOT IN (SELECT line_number FROM sim_orders WHERE status = 'shipping')"


@telecom_support.tool(
    writes=[Line],
    returns=Line,
    says=[
        "please suspend my line {line}, reason: {reason}",
        "suspend {line} for now, the reason is {reason}",
    ],
)
def suspend_line(db: Db, line: Ref[Line, "status = 'active'"], reason: SuspendReason) -> dict:
    """Suspend an active line. No calls or data work until it is resumed.

    Args:
        line: The line's phone number.
        reason: lost_or_stolen, customer_request or travel.
    """
    row = R.line_of(db, line)
    if row["status"] != "active":
        raise ToolError(f"line {line} is already {row['status']} ({row['suspension_reason']})")
    db.update(Line, line, status="suspended", suspension_reason=reason, suspended_on=db.today.isoformat())
    return R.public_line(db, db.get(Line, line))


@telecom_support.tool(
    writes=[Line],
    returns=Line,
    says=["please reactivate my line {line}", "resume service on {line}"],
)
def resume_line(db: Db, line: Ref[Line, "status = 'suspended'"]) -> dict:
    """Resume a suspended line."""
    row = R.line_of(db, line)
    if row["status"] != "suspended":
        raise ToolError(f"line {line} is {row['status']}, not suspended; nothing to resume")
    db.update(Line, line, status="active", suspension_reason=None, suspended_on=None)
    return R.public_line(db, db.get(Line, line))


@telecom_support.tool(
    writes=[Line, Bill],
    returns=Line,
    says=["switch {line} to the plan {plan}", "I want to change my plan on {line} to {plan}"],
)
def change_plan(db: Db, line: Ref[Line], plan: Ref[Plan, OTHER_PLAN]) -> dict:
    """Move a line to another plan. It applies from the current cycle on, whose bill takes the new
    price.

    Args:
        line: The line's phone number.
        plan: The new plan.
    """
    row = R.line_of(db, line)
    new = db.get(Plan, plan)
    if not new["available"]:
        raise ToolError(f"plan {plan} ({new['name']}) is retired and takes no new lines")
    if row["plan_id"] == plan:
        raise ToolError(f"line {line} is already on {plan} ({new['name']})")
    old = db.get(Plan, row["plan_id"])
    db.update(Line, line, plan_id=plan, plan_changed_on=db.today.isoformat())
    db.execute(
        "UPDATE bills SET amount = round(amount + ?, 2) WHERE line_number = ? AND status = 'draft'",
        round((new["monthly_price"] - old["monthly_price"]) * 1.1, 2),
        line,
    )
    return R.public_line(db, db.get(Line, line))


def _roaming(db: Db, line: str, on: bool) -> dict:
    R.line_of(db, line)
    db.update(Line, line, roaming_enabled=on)
    return R.public_line(db, db.get(Line, line))


@telecom_support.tool(
    writes=[Line],
    returns=Line,
    idempotent=True,
    says=["I'm travelling, please turn on roaming for {line}", "enable international roaming on {line}"],
)
def enable_roaming(db: Db, line: Ref[Line, "roaming_enabled = 0"]) -> dict:
    """Allow a line to use partner networks abroad. This is the account side; the phone has its own
    data roaming switch."""
    return _roaming(db, line, True)


@telecom_support.tool(
    writes=[Line],
    returns=Line,
    idempotent=True,
    says=["turn off roaming on {line}", "I'm home now, disable roaming for {line}"],
)
def disable_roaming(db: Db, line: Ref[Line, "roaming_enabled = 1"]) -> dict:
    """Stop a line from using partner networks abroad."""
    return _roaming(db, line, False)


@telecom_support.tool(
    writes=[Line, Refuel, Bill],
    returns=Refuel,
    says=["add {gb} GB of data to {line}", "I ran out of data on {line}, can I buy {gb} GB more?"],
)
def refuel_data(db: Db, line: Ref[Line, f"status = 'active' AND {R.LIMITED}"], gb: RefuelGb) -> dict:
    """Buy extra data for the current billing cycle. It is charged on this cycle's bill at the plan's
    refuel price per GB.

    Args:
        line: The line's phone number.
        gb: Gigabytes to add.
    """
    row = R.line_of(db, line)
    plan = db.get(Plan, row["plan_id"])
    if plan["data_gb"] is None:
        raise ToolError(f"line {line} is on {plan['name']} (unlimited data); there is nothing to refuel")
    if row["status"] != "active":
        raise ToolError(f"line {line} is suspended; resume it before adding data")
    price = round(gb * plan["refuel_price_per_gb"], 2)
    draft = db.one("SELECT id FROM bills WHERE line_number = ? AND status = 'draft'", line)
    if draft is None:
        raise ToolError(f"line {line} has no open bill for this cycle to charge the refuel to")
    refuel = db.insert(
        Refuel, line_number=line, bill_id=draft["id"], gb=float(gb), price=price, at=db.stamp()
    )
    db.update(Line, line, refueled_gb=row["refueled_gb"] + gb)
    db.execute("UPDATE bills SET amount = round(amount + ?, 2) WHERE id = ?", price, draft["id"])
    return {**refuel, "data_left_gb": R.data_left(db.get(Line, line), plan)}


WEAK_PINS = {"0000", "1111", "1234", "123456", "000000", "4321"}


@telecom_support.tool(
    writes=[Line],
    returns=Line,
    says=[
        "reset my voicemail PIN on {line} to {new_pin}",
        "I forgot my voicemail PIN for {line}; make it {new_pin}",
    ],
)
def reset_voicemail_pin(db: Db, line: Ref[Line], new_pin: VoicemailPin) -> dict:
    """Set a new voicemail PIN for a line. It has 4-6 digits and may not be one repeated digit or a
    simple run like 1234.

    Args:
        line: The line's phone number.
        new_pin: The new PIN the customer chose.
    """
    R.line_of(db, line)
    if len(set(new_pin)) == 1 or new_pin in WEAK_PINS or new_pin in "0123456789" or new_pin in "9876543210":
        raise ToolError(
            f"voicemail PIN {new_pin} is too easy to guess; choose one that is not a run or one digit"
        )
    db.update(Line, line, voicemail_pin=new_pin)
    return {"line": line, "voicemail_pin_reset": True}


@telecom_support.tool(
    writes=[SimOrder, Device],
    returns=SimOrder,
    says=["I need a new {kind} SIM for {line}", "please send a replacement SIM ({kind}) for {line}"],
)
def order_sim(db: Db, line: Ref[Line, NO_ORDER], kind: SimKind) -> dict:
    """Order a replacement SIM for a line. A physical SIM ships to the customer's city; an eSIM is downloaded at
    once onto the phone holding the line (it must support eSIM), replacing a lost, blocked or
    loose card.

    Args:
        line: The line's phone number.
        kind: physical or esim.
    """
    row = R.line_of(db, line)
    open_order = db.one("SELECT id FROM sim_orders WHERE line_number = ? AND status = 'shipping'", line)
    if open_order is not None:
        raise ToolError(f"line {line} already has SIM order {open_order['id']} on its way")
    if kind == "physical":
        city = db.get(Customer, row["customer_id"])["city"]
        return db.insert(
            SimOrder, line_number=line, kind=kind, status="shipping", ship_to=city, created_at=db.stamp()
        )
    dev = db.one("SELECT * FROM devices WHERE line_number = ?", line)
    if dev is None or not dev["esim_capable"]:
        what = "is in no phone we know of" if dev is None else f"is in a {dev['model']}, which has no eSIM"
        raise ToolError(f"line {line} {what}; order a physical SIM instead")
    db.update(
        Device,
        dev["id"],
        sim_kind="esim",
        sim_seated=True,
        sim_status="ready",
        pin_enabled=False,
        pin_attempts_left=PIN_TRIES,
        puk_attempts_left=PUK_TRIES,
    )
    return db.insert(
        SimOrder, line_number=line, kind=kind, status="activated", ship_to=None, created_at=db.stamp()
    )


@telecom_support.tool(
    writes=[Device],
    returns=Line,
    says=[
        "move my number {line} onto my other phone {device} as an eSIM",
        "transfer the eSIM of {line} to {device}",
    ],
)
def transfer_esim(db: Db, line: Ref[Line, HAS_SPARE], device: Ref[Device, SPARE_PHONE]) -> dict:
    """Move a line as an eSIM onto another phone of the same customer. The phone must support eSIM
    and hold no line; the old phone loses the line.

    Args:
        line: The line's phone number.
        device: The phone to move it to.
    """
    row = R.line_of(db, line)
    dev = db.get(Device, device)
    if dev["customer_id"] != row["customer_id"]:
        raise ToolError(f"phone {device} belongs to {dev['customer_id']}, not to the owner of {line}")
    if dev["line_number"] is not None:
        raise ToolError(f"phone {device} already holds line {dev['line_number']}")
    if not dev["esim_capable"]:
        raise ToolError(f"phone {device} ({dev['model']}) does not support eSIM")
    db.execute(
        "UPDATE devices SET line_number = NULL, sim_kind = NULL, sim_seated = 0, sim_status = 'absent' "
        "WHERE line_number = ?",
        line,
    )
    db.update(
        Device,
        device,
        line_number=line,
        sim_kind="esim",
        sim_seated=True,
        sim_status="ready",
        pin_enabled=False,
        pin_attempts_left=PIN_TRIES,
        puk_attempts_left=PUK_TRIES,
    )
    return R.public_line(db, db.get(Line, line))


@telecom_support.tool(
    writes=[Ticket],
    returns=Ticket,
    says=[
        "please log a problem on {line} under {category}: {summary}",
        "open a ticket for {line}, {summary}",
    ],
)
def open_ticket(db: Db, line: Ref[Line], category: TicketCategory, summary: ShortText) -> dict:
    """Record a problem for follow-up by the carrier's teams.

    Args:
        line: The line it concerns.
        category: coverage, device_hardware, billing, number_port, complaint or other.
        summary: The problem in a sentence.
    """
    row = R.line_of(db, line)
    return db.insert(
        Ticket,
        customer_id=row["customer_id"],
        line_number=line,
        category=category,
        summary=summary,
        status="open",
        created_at=db.stamp(),
    )


@telecom_support.tool(
    writes=[Handoff],
    returns=Handoff,
    says=["I want to talk to a person about {reason}", "transfer me to a human agent, it's about {summary}"],
)
def transfer_to_human(db: Db, customer: Ref[Customer], reason: HandoffReason, summary: ShortText) -> dict:
    """Hand the conversation to a human agent. Give the reason and a summary of what was done.

    Args:
        customer: The customer calling.
        reason: What the customer needs.
        summary: What happened so far, in a sentence.
    """
    db.get(Customer, customer)
    return db.insert(Handoff, customer_id=customer, reason=reason, summary=summary, at=db.stamp())
