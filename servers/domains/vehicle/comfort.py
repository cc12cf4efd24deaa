"""Climate, seats, lights, cruise control, navigation and trips."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from servers.domains.vehicle.model import (
    KM_PER_MI,
    CommandLog,
    Trip,
    Vehicle,
    _dist,
    _dist_unit,
    _imperial,
    _speed_unit,
    vehicle,
)
from servers.domains.vehicle.rules import (
    AnyCar,
    ClimateCar,
    Destination,
    DrivingCar,
    HeatedCar,
    OnlineCar,
    Percent,
    _car,
    _climate,
    _destination,
    _feasibility,
    _label,
    _log,
    _trip,
)
from servers.kit import Db, Offset, PageSize, ToolError

# -- comfort ------------------------------------------------------------------------------------


@vehicle.tool(
    writes=[Vehicle, CommandLog],
    returns=Vehicle,
    idempotent=True,
    says=[
        "set the temperature in {vehicle} to {temperature} degrees",
        "turn on the climate in {vehicle} at {temperature} {unit}",
        "turn off the AC in {vehicle}",
    ],
)
def set_climate(
    db: Db,
    vehicle: ClimateCar,
    on: bool | None = None,
    temperature: Annotated[float, Field(ge=-100, le=200)] | None = None,
    unit: Literal["celsius", "fahrenheit"] | None = None,
    fan_pct: Percent | None = None,
    mode: Literal["auto", "cool", "heat", "defrost"] | None = None,
) -> dict:
    """Turn the climate system on or off and set its target temperature, fan and mode.

    Target 16-30 °C (60-86 °F). With the climate on, an ICE car needs its engine running and an EV
    needs at least 10% battery.

    Args:
        vehicle: The car.
        on: true to turn on, false to turn off; omit to keep it as it is.
        temperature: Target temperature, in unit (default: the car's own unit, °F for imperial cars).
        unit: celsius or fahrenheit.
        fan_pct: Fan speed 0-100.
        mode: auto, cool, heat or defrost.
    """
    car = _car(db, vehicle)
    if on is None and temperature is None and fan_pct is None and mode is None:
        raise ToolError("nothing to change: give on, temperature, fan_pct or mode")
    changes: dict = {}
    if temperature is not None:
        unit = unit or ("fahrenheit" if _imperial(car) else "celsius")
        low, high, sym = (60, 86, "°F") if unit == "fahrenheit" else (16, 30, "°C")
        if not low <= temperature <= high:
            raise ToolError(
                f"temperature {temperature:g} {sym} is out of range: the target must be 60-86 °F (16-30 °C)"
            )
        celsius = (temperature - 32) * 5 / 9 if unit == "fahrenheit" else temperature
        changes["target_temp_c"] = round(celsius, 1)
    turning_on = on is True or (on is None and car["climate_on"])
    if turning_on:
        running = car["ignition"] == "running"
        if car["powertrain"] == "ice" and not running:
            raise ToolError(
                f"the climate of {_label(car)} (a combustion car) needs the engine running; start it first"
            )
        if car["powertrain"] != "ice" and not running and (car["battery_pct"] or 0) < 10:
            raise ToolError(
                f"the battery of {_label(car)} is at {car['battery_pct']:g}%; climate needs at least 10% "
                "(or the engine running)"
            )
    if on is not None:
        changes["climate_on"] = on
        if not on:
            changes.update(seat_heat_driver=0, seat_heat_passenger=0, defrost=False)
    if fan_pct is not None:
        changes["fan_pct"] = fan_pct
    if mode is not None:
        changes.update(ac_mode=mode, defrost=mode == "defrost")
    after = db.update(Vehicle, vehicle, **changes)
    _log(db, car, "set_climate", ", ".join(f"{k}={v}" for k, v in changes.items()))
    return {"vehicle": vehicle, **_climate(after)}


@vehicle.tool(
    writes=[Vehicle, CommandLog],
    returns=Vehicle,
    idempotent=True,
    says=[
        "turn the {seat} seat heater of {vehicle} to level {level}",
        "warm up the {seat} seat in {vehicle}",
    ],
)
def set_seat_heater(
    db: Db, vehicle: HeatedCar, seat: Literal["driver", "passenger"], level: Annotated[int, Field(ge=0, le=3)]
) -> dict:
    """Set a front seat heater to level 0 (off) to 3. The climate system must be on.

    Args:
        vehicle: The car.
        seat: driver or passenger.
        level: 0 (off), 1, 2 or 3.
    """
    car = _car(db, vehicle)
    if level > 0 and not car["climate_on"]:
        raise ToolError(f"seat heaters of {_label(car)} need the climate on; turn it on with set_climate")
    db.update(Vehicle, vehicle, **{f"seat_heat_{seat}": level})
    _log(db, car, "set_seat_heater", f"{seat} seat at level {level}")
    return {"vehicle": vehicle, "seat": seat, "level": level}


@vehicle.tool(
    writes=[Vehicle, CommandLog],
    returns=Vehicle,
    idempotent=True,
    says=["turn the headlights of {vehicle} {mode}", "set {vehicle}'s headlights to {mode}"],
)
def set_headlights(db: Db, vehicle: OnlineCar, mode: Literal["off", "on", "auto"]) -> dict:
    """Set the headlights to off, on or auto.

    Args:
        vehicle: The car.
        mode: off, on or auto.
    """
    car = _car(db, vehicle)
    db.update(Vehicle, vehicle, headlights=mode)
    _log(db, car, "set_headlights", f"headlights {mode}")
    return {"vehicle": vehicle, "headlights": mode}


@vehicle.tool(
    writes=[Vehicle, CommandLog],
    returns=Vehicle,
    idempotent=True,
    says=[
        "set cruise control on {vehicle} to {speed}",
        "turn on cruise at {speed} with {follow_distance_m} meters distance on {vehicle}",
        "turn off cruise control on {vehicle}",
    ],
)
def set_cruise_control(
    db: Db,
    vehicle: DrivingCar,
    activate: bool,
    speed: Annotated[int, Field(ge=0, le=300)] | None = None,
    follow_distance_m: Annotated[int, Field(ge=0, le=1000)] | None = None,
) -> dict:
    """Turn cruise control on at a speed, or off.

    Needs the engine running and gear D; the speed is in the car's unit (mph for imperial cars,
    km/h for metric ones), a multiple of 5 within 20-120; following distance 20-200 m.

    Args:
        vehicle: The car.
        activate: true to turn cruise on, false to turn it off.
        speed: Cruise speed in the car's unit (needed to turn it on).
        follow_distance_m: Distance to keep to the car ahead, in metres (default 50).
    """
    car = _car(db, vehicle)
    if not activate:
        db.update(Vehicle, vehicle, cruise_on=False, cruise_speed=None)
        _log(db, car, "set_cruise_control", "cruise off")
        return {"vehicle": vehicle, "cruise_on": False}
    unit = _speed_unit(car)
    problems = []
    if car["ignition"] != "running":
        problems.append(f"the engine is not running (ignition is {car['ignition']})")
    if car["gear"] != "D":
        problems.append(f"gear is {car['gear']}, not D")
    if speed is None:
        problems.append(f"no speed given (a multiple of 5 from 20 to 120 {unit})")
    elif speed % 5 or not 20 <= speed <= 120:
        problems.append(f"speed {speed} {unit} must be a multiple of 5 from 20 to 120 {unit}")
    distance = follow_distance_m if follow_distance_m is not None else car["follow_distance_m"]
    if not 20 <= distance <= 200:
        problems.append(f"following distance {distance} m must be 20-200 m")
    if problems:
        raise ToolError(f"cannot set cruise control on {_label(car)}: " + "; ".join(problems))
    db.update(Vehicle, vehicle, cruise_on=True, cruise_speed=speed, follow_distance_m=distance)
    _log(db, car, "set_cruise_control", f"cruise at {speed} {unit}, {distance} m")
    return {
        "vehicle": vehicle,
        "cruise_on": True,
        "cruise_speed": speed,
        "speed_unit": unit,
        "follow_distance_m": distance,
    }


# -- navigation and trips ----------------------------------------------------------------------------


@vehicle.tool(
    writes=[Vehicle, CommandLog],
    returns=Vehicle,
    idempotent=True,
    says=["navigate {vehicle} to {destination}", "set the destination of {vehicle} to {destination}"],
)
def set_navigation(db: Db, vehicle: OnlineCar, destination: Destination) -> dict:
    """Send a destination to the car's navigation and get the route.

    Args:
        vehicle: The car.
        destination: A street address ('14 Elm St, Portland'), a city ('Seattle'), 'home' (your home
            address) or a service center id (SVC-000001).
    """
    car = _car(db, vehicle)
    label, lat, lon = _destination(db, car, destination)
    leg = _trip(car, lat, lon, label)
    db.update(Vehicle, vehicle, nav_destination=label, nav_lat=lat, nav_lon=lon)
    _log(db, car, "set_navigation", f"navigating to {label}")
    out = {"vehicle": vehicle, "destination": label, "duration_min": leg["duration_min"]}
    out.update(_feasibility(car, leg["km"]))
    return out


@vehicle.tool(
    says=[
        "can {vehicle} make it to {destination} on its current fuel?",
        "is there enough charge in {vehicle} to drive {distance} {unit}?",
    ],
)
def estimate_trip(
    db: Db,
    vehicle: OnlineCar,
    destination: Destination | None = None,
    distance: Annotated[float, Field(gt=0, le=20000)] | None = None,
    unit: Literal["km", "miles"] | None = None,
) -> dict:
    """Distance, duration and whether the car's fuel or charge is enough, for a destination or a distance.

    Args:
        vehicle: The car.
        destination: Where to (street address, city, 'home' or a service center id); or give distance.
        distance: A trip length instead of a destination, in unit (default: the car's unit).
        unit: km or miles, for distance.
    """
    car = _car(db, vehicle)
    if (destination is None) == (distance is None):
        raise ToolError("give either a destination or a distance, not both and not neither")
    if destination is not None:
        label, lat, lon = _destination(db, car, destination)
        leg = _trip(car, lat, lon, label)
        km, minutes = leg["km"], leg["duration_min"]
    else:
        miles = unit == "miles" or (unit is None and _imperial(car))
        km = distance * KM_PER_MI if miles else distance
        label, minutes = None, round(km / (90 if km >= 60 else 40) * 60, 1)
    return {"vehicle": vehicle, "destination": label, "duration_min": minutes, **_feasibility(car, km)}


@vehicle.tool(
    returns=Trip,
    says=["show the recent trips of {vehicle}", "where has {vehicle} been driven lately?"],
)
def list_trips(db: Db, vehicle: AnyCar, limit: PageSize = 20, offset: Offset = 0) -> dict:
    """Past trips of a car, newest first, with distances in the car's unit."""
    car = _car(db, vehicle, awake=False)
    page = db.page(
        "SELECT id, driver_id, started_at, ended_at, from_address, to_address, distance_km, energy_used, "
        "energy_unit FROM trips WHERE vehicle_id = ? ORDER BY started_at DESC, id DESC",
        vehicle,
        limit=limit,
        offset=offset,
        key="trips",
    )
    for t in page["trips"]:
        t["distance"] = _dist(car, t.pop("distance_km"))
    return {"vehicle": vehicle, "distance_unit": _dist_unit(car), **page}
