"""Fuel and charging, tires and service centers, valet mode and digital keys."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from servers.domains.vehicle.model import (
    ADMIN,
    L_PER_GAL,
    MAX_DRIVERS,
    Alert,
    CommandLog,
    ServiceCenter,
    Vehicle,
    VehicleAccess,
    _dist,
    _dist_unit,
    _imperial,
    vehicle,
)
from servers.domains.vehicle.rules import (
    AnyCar,
    ChargeableCar,
    ChargingCar,
    HeldCar,
    KeyCar,
    MyAlert,
    OnlineCar,
    PluggedCar,
    RefuelCar,
    SharedCar,
    _car,
    _energy,
    _label,
    _log,
    _region,
    _role,
    _tires,
)
from servers.domains.vehicle.seed import _active_conditions
from servers.kit import Db, Email, Offset, PageSize, Pin, ToolError, geo

# -- fuel and charging ---------------------------------------------------------------------------


@vehicle.tool(
    writes=[Vehicle, CommandLog],
    returns=Vehicle,
    says=["add {amount} {unit} of fuel to {vehicle}", "fill up the tank of {vehicle}"],
)
def refuel(
    db: Db,
    vehicle: RefuelCar,
    amount: Annotated[float, Field(gt=0, le=500)] | None = None,
    unit: Literal["liters", "gallons"] | None = None,
) -> dict:
    """Add fuel to a combustion or hybrid car; omit amount to fill the tank.

    The engine must be off and the gear in P, and the tank cannot take more than its capacity.

    Args:
        vehicle: The car.
        amount: How much fuel, in unit; omit to fill up.
        unit: liters or gallons (default: the car's unit, gallons for imperial cars).
    """
    car = _car(db, vehicle)
    if car["powertrain"] == "ev":
        raise ToolError(f"{_label(car)} is electric and has no fuel tank; use start_charging")
    unit = unit or ("gallons" if _imperial(car) else "liters")
    per = L_PER_GAL if unit == "gallons" else 1.0
    room = car["tank_l"] - car["fuel_l"]
    litres = room if amount is None else amount * per
    problems = []
    if car["ignition"] == "running":
        problems.append("the engine is running")
    if car["gear"] != "P":
        problems.append(f"gear is {car['gear']}, not P")
    if litres > room + 1e-6:
        problems.append(
            f"{amount:g} {unit} would overfill the tank: it holds {car['tank_l'] / per:.2f} {unit} and has "
            f"{car['fuel_l'] / per:.2f} in it, so at most {room / per:.2f} {unit} fit"
        )
    if room <= 0.05 and amount is None:
        problems.append("the tank is already full")
    if problems:
        raise ToolError(f"cannot refuel {_label(car)}: " + "; ".join(problems))
    fuel = round(min(car["tank_l"], car["fuel_l"] + litres), 2)
    after = db.update(Vehicle, vehicle, fuel_l=fuel)  # the row as stored, read back once
    _log(db, car, "refuel", f"added {litres / per:.2f} {unit}")
    return {"vehicle": vehicle, "added": round(litres / per, 2), "added_unit": unit, **_energy(after)}


@vehicle.tool(
    writes=[Vehicle, CommandLog],
    returns=Vehicle,
    says=["start charging {vehicle}", "begin charging my car {vehicle}"],
)
def start_charging(db: Db, vehicle: PluggedCar) -> dict:
    """Start charging a plugged-in EV or plug-in hybrid, up to its charge limit."""
    car = _car(db, vehicle)
    if car["powertrain"] == "ice":
        raise ToolError(f"{_label(car)} has a combustion engine and cannot be charged; use refuel")
    state = car["charging"]
    if state == "charging":
        raise ToolError(f"{_label(car)} is already charging ({car['battery_pct']:g}%)")
    if state == "disconnected":
        raise ToolError(f"{_label(car)} is not plugged in; connect the charging cable first")
    if car["battery_pct"] >= car["charge_limit_pct"]:
        raise ToolError(
            f"{_label(car)} is already at its charge limit: battery {car['battery_pct']:g}%, limit "
            f"{car['charge_limit_pct']}%; raise the limit with set_charge_limit to charge more"
        )
    db.update(Vehicle, vehicle, charging="charging")
    _log(db, car, "start_charging", f"charging from {car['battery_pct']:g}% to {car['charge_limit_pct']}%")
    return {
        "vehicle": vehicle,
        "charging": "charging",
        "battery_pct": car["battery_pct"],
        "charge_limit_pct": car["charge_limit_pct"],
    }


@vehicle.tool(
    writes=[Vehicle, CommandLog],
    returns=Vehicle,
    says=["stop charging {vehicle}", "stop the charge session of {vehicle}"],
)
def stop_charging(db: Db, vehicle: ChargingCar) -> dict:
    """Stop a charging session; the car stays plugged in."""
    car = _car(db, vehicle)
    if car["charging"] != "charging":
        raise ToolError(f"{_label(car)} is not charging (charging state: {car['charging'] or 'no battery'})")
    db.update(Vehicle, vehicle, charging="plugged")
    _log(db, car, "stop_charging", f"stopped at {car['battery_pct']:g}%")
    return {"vehicle": vehicle, "charging": "plugged", "battery_pct": car["battery_pct"]}


@vehicle.tool(
    writes=[Vehicle, CommandLog],
    returns=Vehicle,
    idempotent=True,
    says=["set the charge limit of {vehicle} to {percent}%", "charge {vehicle} only up to {percent} percent"],
)
def set_charge_limit(db: Db, vehicle: ChargeableCar, percent: Annotated[int, Field(ge=50, le=100)]) -> dict:
    """Set how full the battery charges, 50-100%. Above 90% only the owner or fleet manager may set it.

    Args:
        vehicle: The car.
        percent: The charge limit, 50-100.
    """
    car = _car(db, vehicle)
    if car["powertrain"] == "ice":
        raise ToolError(f"{_label(car)} has no traction battery; a charge limit does not apply")
    if not 50 <= percent <= 100:
        raise ToolError(f"charge limit {percent}% is out of range: it must be 50-100%")
    if percent > 90 and _role(db, vehicle) not in ADMIN:
        raise ToolError(
            f"only the owner or fleet manager of {_label(car)} may set a charge limit above 90% "
            f"(asked {percent}%); drivers may set 50-90%"
        )
    changes: dict = {"charge_limit_pct": percent}
    if car["charging"] == "charging" and car["battery_pct"] >= percent:
        changes["charging"] = "complete"
    elif car["charging"] == "complete" and car["battery_pct"] < percent:
        changes["charging"] = "plugged"
    after = db.update(Vehicle, vehicle, **changes)
    _log(db, car, "set_charge_limit", f"limit {percent}%")
    return {"vehicle": vehicle, **_energy(after)}


# -- tires and service -----------------------------------------------------------------------------


@vehicle.tool(
    returns=Vehicle,
    says=["check the tire pressure of {vehicle}", "are the tires of {vehicle} OK?"],
)
def check_tire_pressure(db: Db, vehicle: OnlineCar) -> dict:
    """Read all four tire pressures live, with the recommended value and which tires are low."""
    car = _car(db, vehicle)
    out = {"vehicle": vehicle, **_tires(car)}
    if not out["healthy"]:
        out["hint"] = "find_service_center with service 'tires' finds the nearest tire shop"
    return out


@vehicle.tool(
    returns=ServiceCenter,
    says=["find the nearest tire shop for {vehicle}", "where can I get {service} service near {vehicle}?"],
)
def find_service_center(
    db: Db,
    vehicle: AnyCar,
    service: Literal["tires", "battery", "general", "glass"],
    limit: Annotated[int, Field(ge=1, le=10)] = 3,
) -> dict:
    """The service centers nearest to a car (its last reported position) that offer a service.

    Args:
        vehicle: The car.
        service: tires, battery, general or glass.
        limit: How many centers to return, nearest first (1-10).
    """
    car = _car(db, vehicle, awake=False)
    region = _region(car["lat"], car["lon"])
    found = []
    for c in db.all(
        "SELECT * FROM service_centers WHERE ',' || services || ',' LIKE ? ORDER BY id", f"%,{service},%"
    ):
        if _region(c["lat"], c["lon"]) != region:
            continue
        leg = geo.route(car["lat"], car["lon"], c["lat"], c["lon"], "driving")
        c.update(distance=_dist(car, leg["distance_km"]), duration_min=leg["duration_min"])
        found.append(c)
    if not found:
        raise ToolError(f"no service center offering {service} can be reached by road from {car['city']}")
    found.sort(key=lambda c: (c["distance"], c["id"]))
    return {
        "vehicle": vehicle,
        "service": service,
        "distance_unit": _dist_unit(car),
        "centers": found[:limit],
    }


@vehicle.tool(
    returns=Alert,
    says=["what alerts does {vehicle} have?", "show the warnings for {vehicle}"],
)
def list_alerts(
    db: Db, vehicle: AnyCar, include_cleared: bool = False, limit: PageSize = 20, offset: Offset = 0
) -> dict:
    """Warnings a car has raised (low tire, low fuel, door ajar, service due), newest first.

    Args:
        vehicle: The car.
        include_cleared: Also show alerts that were already cleared.
        limit: Maximum number of alerts.
        offset: Alerts to skip, for paging.
    """
    _car(db, vehicle, awake=False)
    sql = "SELECT * FROM alerts WHERE vehicle_id = ?" + ("" if include_cleared else " AND cleared = 0")
    return {
        "vehicle": vehicle,
        **db.page(sql + " ORDER BY at DESC, id DESC", vehicle, limit=limit, offset=offset, key="alerts"),
    }


@vehicle.tool(
    writes=[Alert],
    returns=Alert,
    idempotent=True,
    says=["clear alert {alert}", "dismiss the warning {alert}"],
)
def clear_alert(db: Db, alert: MyAlert) -> dict:
    """Dismiss an alert. Alerts about a condition that still holds (a low tire, low fuel, an open door)
    cannot be cleared until it is fixed."""
    a = db.get(Alert, alert)
    car = _car(db, a["vehicle_id"], awake=False)
    if a["cleared"]:
        raise ToolError(f"alert {alert} ({a['code']}) was already cleared at {a['cleared_at']}")
    still = {code for code, _ in _active_conditions(car)}
    if a["code"] in still:
        raise ToolError(
            f"alert {alert} ({a['code']}: {a['message']}) cannot be cleared: the condition still holds on "
            f"{_label(car)}; fix it first"
        )
    return db.update(Alert, alert, cleared=True, cleared_at=db.stamp())


# -- valet and keys ---------------------------------------------------------------------------------


@vehicle.tool(
    writes=[Vehicle, CommandLog],
    returns=Vehicle,
    says=[
        "turn on valet mode on {vehicle} with PIN {pin}",
        "turn off valet mode on {vehicle}, the PIN is {pin}",
    ],
)
def set_valet_mode(db: Db, vehicle: HeldCar, on: bool, pin: Pin) -> dict:
    """Turn valet mode on with a 4-digit PIN, or off with the same PIN. Owner or fleet manager only.

    Args:
        vehicle: The car.
        on: true to turn valet mode on, false to turn it off.
        pin: The 4-digit valet PIN (set when turning on, checked when turning off).
    """
    car = _car(db, vehicle, admin="toggle valet mode")
    if on:
        if car["valet_mode"]:
            raise ToolError(f"valet mode is already on for {_label(car)}; turn it off with its PIN first")
        db.update(Vehicle, vehicle, valet_mode=True, valet_pin=pin)
    else:
        if not car["valet_mode"]:
            raise ToolError(f"valet mode is not on for {_label(car)}")
        if car["valet_pin"] != pin:
            raise ToolError(f"the valet PIN given for {_label(car)} is not correct; valet mode stays on")
        db.update(Vehicle, vehicle, valet_mode=False, valet_pin=None)
    _log(db, car, "set_valet_mode", "valet on" if on else "valet off")
    return {"vehicle": vehicle, "valet_mode": on}


@vehicle.tool(
    returns=VehicleAccess,
    says=["who has a key to {vehicle}?", "list the drivers of {vehicle}"],
)
def list_digital_keys(db: Db, vehicle: AnyCar) -> dict:
    """Who holds a key to a car, with name, email and role (owner, fleet_manager, driver)."""
    _car(db, vehicle, awake=False)
    rows = db.all(
        "SELECT a.id, a.driver_id, d.name, d.email, a.role, a.granted_at FROM vehicle_access a "
        "JOIN drivers d ON d.id = a.driver_id WHERE a.vehicle_id = ? ORDER BY a.id",
        vehicle,
    )
    return {
        "vehicle": vehicle,
        "keys": rows,
        "drivers": sum(r["role"] == "driver" for r in rows),
        "max_drivers": MAX_DRIVERS,
    }


@vehicle.tool(
    writes=[VehicleAccess, CommandLog],
    returns=VehicleAccess,
    says=["share a key to {vehicle} with {email}", "let {email} drive {vehicle}"],
)
def share_digital_key(db: Db, vehicle: KeyCar, email: Email) -> dict:
    """Give a driver a digital key to a car (at most 5 drivers). Owner or fleet manager only.

    Args:
        vehicle: The car.
        email: The email of the driver's account on the car service.
    """
    car = _car(db, vehicle, awake=False, admin="share digital keys")
    person = db.one("SELECT * FROM drivers WHERE lower(email) = lower(?)", email)
    if person is None:
        raise ToolError(f"no driver account has the email {email!r}; they need an account on the car service")
    held = db.one(
        "SELECT * FROM vehicle_access WHERE vehicle_id = ? AND driver_id = ?", vehicle, person["id"]
    )
    if held:
        raise ToolError(
            f"{person['name']} already holds a key to {_label(car)} as {held['role']} ({held['id']})"
        )
    n = db.scalar("SELECT count(*) FROM vehicle_access WHERE vehicle_id = ? AND role = 'driver'", vehicle)
    if n >= MAX_DRIVERS:
        raise ToolError(
            f"{_label(car)} already has {n} drivers, the most allowed is {MAX_DRIVERS}; revoke a key first"
        )
    row = db.insert(
        VehicleAccess, vehicle_id=vehicle, driver_id=person["id"], role="driver", granted_at=db.stamp()
    )
    _log(db, car, "share_digital_key", f"key for {person['email']}")
    return {**row, "name": person["name"], "email": person["email"]}


@vehicle.tool(
    writes=[VehicleAccess, CommandLog],
    destructive=True,
    says=["revoke {email}'s key to {vehicle}", "remove {email} as a driver of {vehicle}"],
)
def revoke_digital_key(db: Db, vehicle: SharedCar, email: Email) -> dict:
    """Take a driver's key away. Owner or fleet manager only; owners and fleet managers keep theirs.

    Args:
        vehicle: The car.
        email: The email of the driver whose key is revoked.
    """
    car = _car(db, vehicle, awake=False, admin="revoke digital keys")
    held = db.one(
        "SELECT a.*, d.name, d.email FROM vehicle_access a JOIN drivers d ON d.id = a.driver_id "
        "WHERE a.vehicle_id = ? AND lower(d.email) = lower(?)",
        vehicle,
        email,
    )
    if held is None:
        raise ToolError(
            f"nobody with the email {email!r} holds a key to {_label(car)}; list_digital_keys shows who does"
        )
    if held["role"] != "driver":
        raise ToolError(
            f"{held['name']} is the {held['role'].replace('_', ' ')} of {_label(car)}; "
            "that key cannot be revoked"
        )
    db.delete(VehicleAccess, held["id"])
    _log(db, car, "revoke_digital_key", f"key of {held['email']} revoked")
    return {"vehicle": vehicle, "revoked": held["id"], "name": held["name"], "email": held["email"]}


@vehicle.tool(
    returns=CommandLog,
    says=["what commands were sent to {vehicle}?", "show the command history of {vehicle}"],
)
def list_commands(db: Db, vehicle: AnyCar, limit: PageSize = 20, offset: Offset = 0) -> dict:
    """The history of commands carried out on a car, newest first (refused commands are not logged)."""
    _car(db, vehicle, awake=False)
    return {
        "vehicle": vehicle,
        **db.page(
            "SELECT * FROM command_log WHERE vehicle_id = ? ORDER BY id DESC",
            vehicle,
            limit=limit,
            offset=offset,
            key="commands",
        ),
    }
