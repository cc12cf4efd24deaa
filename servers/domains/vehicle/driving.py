"""Car status, doors, brakes, engine and gears."""

from __future__ import annotations

from typing import Literal

from servers.domains.vehicle.model import ADMIN, DOORS, CommandLog, Vehicle, _speed_unit, vehicle
from servers.domains.vehicle.rules import (
    SECTIONS,
    AnyCar,
    AsleepCar,
    DoorList,
    LockableCar,
    OnlineCar,
    Percent,
    Section,
    ShiftableCar,
    StartableCar,
    StoppableCar,
    UnlockableCar,
    _car,
    _door_names,
    _doors,
    _label,
    _log,
)
from servers.kit import Db, Offset, PageSize, ToolError

# -- vehicles and status -------------------------------------------------------------------------


@vehicle.tool(
    returns=Vehicle,
    says=["what cars do I have?", "list my vehicles", "show me the fleet cars that are online"],
)
def list_vehicles(
    db: Db,
    scope: Literal["personal", "fleet", "all"] = "personal",
    connectivity: Literal["online", "asleep", "offline"] | None = None,
    limit: PageSize = 20,
    offset: Offset = 0,
) -> dict:
    """The cars you hold a key for, with id, nickname, make, model, connectivity and your role.

    Use the ids in every other tool. Your personal cars (owned or driven with a shared key) come
    first; fleet cars you manage are listed with scope "fleet" or "all".

    Args:
        scope: personal (cars you own or drive), fleet (cars you manage for a fleet) or all.
        connectivity: Only cars that are online, asleep or offline.
        limit: Maximum number of cars to return.
        offset: Cars to skip, for paging.
    """
    roles = {"personal": ("owner", "driver"), "fleet": ("fleet_manager",), "all": (*ADMIN, "driver")}[scope]
    marks = ", ".join("?" for _ in roles)
    sql = (
        "SELECT v.id, v.nickname, v.make, v.model, v.year, v.powertrain, v.connectivity, a.role, v.city, "
        "v.units FROM vehicles v JOIN vehicle_access a ON a.vehicle_id = v.id AND a.driver_id = ? "
        f"WHERE a.role IN ({marks})"
    )
    params: list = [db.actor_id(), *roles]
    if connectivity:
        sql += " AND v.connectivity = ?"
        params.append(connectivity)
    sql += " ORDER BY CASE a.role WHEN 'owner' THEN 0 WHEN 'driver' THEN 1 ELSE 2 END, v.id"
    return db.page(sql, *params, limit=limit, offset=offset, key="vehicles")


@vehicle.tool(
    returns=Vehicle,
    says=[
        "what's the status of {vehicle}?",
        "show me the {section} of {vehicle}",
        "how much charge does {vehicle} have?",
    ],
)
def get_vehicle_status(db: Db, vehicle: AnyCar, section: Section = "all") -> dict:
    """A car's current readings: one section or all of them, in the car's units.

    A sleeping or offline car answers with its last reported values, marked stale.

    Args:
        vehicle: The car.
        section: doors, energy (fuel/battery/range), climate, tires, engine (ignition, gear, speed,
            cruise), brakes, lights, location, navigation, or all.
    """
    car = _car(db, vehicle, awake=False)
    out: dict = {
        "vehicle": car["id"],
        "nickname": car["nickname"],
        "connectivity": car["connectivity"],
        "units": car["units"],
        "stale": car["connectivity"] != "online",
        "as_of": car["last_seen"],
    }
    for name, render in SECTIONS.items():
        if section in ("all", name):
            out[name] = render(car)
    return out


@vehicle.tool(
    writes=[Vehicle, CommandLog],
    returns=Vehicle,
    idempotent=True,
    says=["wake up {vehicle}", "my car {vehicle} is asleep, wake it"],
)
def wake_vehicle(db: Db, vehicle: AsleepCar) -> dict:
    """Wake a sleeping car so it accepts commands. An offline car cannot be reached."""
    car = _car(db, vehicle, awake=False)
    if car["connectivity"] == "offline":
        raise ToolError(
            f"vehicle {_label(car)} is unreachable (no connectivity since {car['last_seen']}); "
            "it cannot be woken remotely"
        )
    was = car["connectivity"]
    if was == "asleep":
        db.update(Vehicle, vehicle, connectivity="online", last_seen=db.stamp())
    _log(db, car, "wake_vehicle", "woke up" if was == "asleep" else "already online")
    return {"vehicle": vehicle, "connectivity": "online", "was": was}


# -- doors ---------------------------------------------------------------------------------------


@vehicle.tool(
    writes=[Vehicle, CommandLog],
    returns=Vehicle,
    idempotent=True,
    says=["lock all the doors of {vehicle}", "lock the {doors} doors of {vehicle}", "lock my car {vehicle}"],
)
def lock_doors(db: Db, vehicle: LockableCar, doors: DoorList) -> dict:
    """Lock some or all doors. An open door cannot be locked until someone closes it.

    Args:
        vehicle: The car.
        doors: Which doors: any of driver, passenger, rear_left, rear_right, or ["all"].
    """
    car = _car(db, vehicle)
    names = _door_names(doors)
    open_ = [d for d in names if car[f"door_{d}"] == "open"]
    if open_:
        raise ToolError(
            f"cannot lock {_label(car)}: door {', '.join(open_)} is open and must be closed first; "
            "nothing was locked"
        )
    after = db.update(Vehicle, vehicle, **{f"door_{d}": "locked" for d in names})
    _log(db, car, "lock_doors", "locked " + ", ".join(names))
    return {"vehicle": vehicle, "locked": names, **_doors(after)}


@vehicle.tool(
    writes=[Vehicle, CommandLog],
    returns=Vehicle,
    idempotent=True,
    says=["unlock the {doors} door of {vehicle}", "unlock all doors of {vehicle}"],
)
def unlock_doors(db: Db, vehicle: UnlockableCar, doors: DoorList) -> dict:
    """Unlock some or all doors. Never while the car is moving.

    Args:
        vehicle: The car.
        doors: Which doors: any of driver, passenger, rear_left, rear_right, or ["all"].
    """
    car = _car(db, vehicle)
    if car["speed"] > 0:
        raise ToolError(
            f"cannot unlock {_label(car)} while it is moving at {car['speed']} {_speed_unit(car)}"
        )
    names = _door_names(doors)
    locked = {f"door_{d}": "unlocked" for d in names if car[f"door_{d}"] == "locked"}
    after = db.update(Vehicle, vehicle, **locked) if locked else car
    _log(db, car, "unlock_doors", "unlocked " + ", ".join(names))
    return {"vehicle": vehicle, "unlocked": names, **_doors(after)}


# -- brakes, engine, gears --------------------------------------------------------------------------


@vehicle.tool(
    writes=[Vehicle, CommandLog],
    returns=Vehicle,
    idempotent=True,
    says=[
        "press the brake pedal of {vehicle} fully",
        "press the brake of {vehicle} to {position_pct} percent",
    ],
)
def press_brake_pedal(db: Db, vehicle: OnlineCar, position_pct: Percent = 100) -> dict:
    """Hold the brake pedal at a position, 0-100% (100 = fully pressed, needed to start the engine).

    Args:
        vehicle: The car.
        position_pct: How far the pedal is pressed, 0-100.
    """
    car = _car(db, vehicle)
    db.update(Vehicle, vehicle, brake_pedal_pct=position_pct)
    _log(db, car, "press_brake_pedal", f"brake pedal at {position_pct}%")
    return {"vehicle": vehicle, "brake_pedal_pct": position_pct}


@vehicle.tool(
    writes=[Vehicle, CommandLog],
    returns=Vehicle,
    idempotent=True,
    says=["release the brake pedal of {vehicle}", "let go of the brake on {vehicle}"],
)
def release_brake_pedal(db: Db, vehicle: OnlineCar) -> dict:
    """Release the brake pedal (position 0%)."""
    car = _car(db, vehicle)
    db.update(Vehicle, vehicle, brake_pedal_pct=0)
    _log(db, car, "release_brake_pedal", "brake pedal released")
    return {"vehicle": vehicle, "brake_pedal_pct": 0}


@vehicle.tool(
    writes=[Vehicle, CommandLog],
    returns=Vehicle,
    idempotent=True,
    says=["engage the parking brake on {vehicle}", "release the parking brake of {vehicle}"],
)
def set_parking_brake(db: Db, vehicle: OnlineCar, engage: bool) -> dict:
    """Engage or release the parking brake. It cannot be engaged while the car is moving.

    Args:
        vehicle: The car.
        engage: true to engage, false to release.
    """
    car = _car(db, vehicle)
    if engage and car["speed"] > 0:
        raise ToolError(
            f"cannot engage the parking brake of {_label(car)} at {car['speed']} {_speed_unit(car)}; "
            "stop the car first"
        )
    db.update(Vehicle, vehicle, parking_brake=engage)
    _log(db, car, "set_parking_brake", "engaged" if engage else "released")
    return {"vehicle": vehicle, "parking_brake": engage}


@vehicle.tool(
    writes=[Vehicle, CommandLog],
    returns=Vehicle,
    says=["start the engine of {vehicle}", "start my car {vehicle}"],
)
def start_engine(db: Db, vehicle: StartableCar) -> dict:
    """Start the engine (or put an EV in drive-ready mode).

    Needs all four doors locked, the brake pedal pressed fully (100%), gear P and fuel or
    charge left; the error lists everything that is missing.
    """
    car = _car(db, vehicle)
    if car["ignition"] == "running":
        raise ToolError(f"the engine of {_label(car)} is already running")
    problems = []
    unlocked = [d for d in DOORS if car[f"door_{d}"] == "unlocked"]
    opened = [d for d in DOORS if car[f"door_{d}"] == "open"]
    if unlocked:
        problems.append(f"doors {', '.join(unlocked)} {'is' if len(unlocked) == 1 else 'are'} unlocked")
    if opened:
        problems.append(f"doors {', '.join(opened)} {'is' if len(opened) == 1 else 'are'} open")
    if car["brake_pedal_pct"] < 100:
        problems.append(f"brake pedal at {car['brake_pedal_pct']}% (press it fully, 100%)")
    if car["gear"] != "P":
        problems.append(f"gear is {car['gear']}, not P")
    fuel = (car["fuel_l"] or 0) > 0
    charge = (car["battery_pct"] or 0) > 0
    if car["powertrain"] == "ice" and not fuel:
        problems.append("the fuel tank is empty")
    elif car["powertrain"] == "ev" and not charge:
        problems.append("the battery is empty (0%)")
    elif car["powertrain"] == "hybrid" and not (fuel or charge):
        problems.append("both the fuel tank and the battery are empty")
    if problems:
        raise ToolError(f"cannot start {_label(car)}: " + "; ".join(problems))
    db.update(Vehicle, vehicle, ignition="running")
    _log(db, car, "start_engine", "engine started")
    return {"vehicle": vehicle, "ignition": "running", "gear": "P"}


@vehicle.tool(
    writes=[Vehicle, CommandLog],
    returns=Vehicle,
    says=["stop the engine of {vehicle}", "turn off {vehicle}"],
)
def stop_engine(db: Db, vehicle: StoppableCar) -> dict:
    """Switch the engine off. Only at standstill in gear P; cruise control and ICE climate turn off."""
    car = _car(db, vehicle)
    if car["ignition"] != "running":
        raise ToolError(f"the engine of {_label(car)} is not running (ignition is {car['ignition']})")
    problems = []
    if car["speed"] > 0:
        problems.append(f"the car is moving at {car['speed']} {_speed_unit(car)}")
    if car["gear"] != "P":
        problems.append(f"gear is {car['gear']}, not P")
    if problems:
        raise ToolError(f"cannot stop the engine of {_label(car)}: " + "; ".join(problems))
    changes: dict = {"ignition": "off", "cruise_on": False, "cruise_speed": None}
    if car["powertrain"] == "ice":
        changes["climate_on"] = False
    db.update(Vehicle, vehicle, **changes)
    _log(db, car, "stop_engine", "engine stopped")
    return {"vehicle": vehicle, "ignition": "off"}


@vehicle.tool(
    writes=[Vehicle, CommandLog],
    returns=Vehicle,
    idempotent=True,
    says=["shift {vehicle} into {gear}", "put {vehicle} in gear {gear}"],
)
def shift_gear(db: Db, vehicle: ShiftableCar, gear: Literal["P", "R", "N", "D"]) -> dict:
    """Shift the gear: P (park), R (reverse), N (neutral) or D (drive).

    Needs the brake pedal at 50% or more; D and R need the engine running and the parking brake
    released; P and R need the car stopped.

    Args:
        vehicle: The car.
        gear: P, R, N or D.
    """
    car = _car(db, vehicle)
    if car["gear"] == gear:
        return {"vehicle": vehicle, "gear": gear, "changed": False}
    problems = []
    if car["brake_pedal_pct"] < 50:
        problems.append(f"brake pedal at {car['brake_pedal_pct']}% (at least 50% is needed)")
    if gear in ("D", "R"):
        if car["ignition"] != "running":
            problems.append(f"the engine is not running (ignition is {car['ignition']})")
        if car["parking_brake"]:
            problems.append("the parking brake is engaged")
    if gear in ("P", "R") and car["speed"] > 0:
        problems.append(f"the car is moving at {car['speed']} {_speed_unit(car)}")
    if problems:
        raise ToolError(f"cannot shift {_label(car)} from {car['gear']} to {gear}: " + "; ".join(problems))
    changes: dict = {"gear": gear}
    if gear != "D":
        changes.update(cruise_on=False, cruise_speed=None)
    db.update(Vehicle, vehicle, **changes)
    _log(db, car, "shift_gear", f"{car['gear']} -> {gear}")
    return {"vehicle": vehicle, "gear": gear, "changed": True}
