"""Rules several car commands share (access, connectivity, interlocks) and the sampler's conditions."""

from __future__ import annotations

import functools
from typing import Annotated, Literal

from pydantic import Field

from servers.domains.vehicle.model import (
    ADMIN,
    DOORS,
    LOW_TIRE,
    MAX_DRIVERS,
    TIRE_NAMES,
    TIRES,
    Alert,
    CommandLog,
    ServiceCenter,
    Vehicle,
    _dist,
    _dist_unit,
    _pressure,
    _pressure_unit,
    _range_km,
    _speed_unit,
    _temp,
    _temp_unit,
    _vol,
    _vol_unit,
)
from servers.kit import Db, Ref, ShortText, ToolError, geo

# -- rules shared by several tools ----------------------------------------------------------------


def _role(db: Db, car_id: str) -> str | None:
    return db.scalar(
        "SELECT role FROM vehicle_access WHERE vehicle_id = ? AND driver_id = ?", car_id, db.actor_id()
    )


def _label(car: dict) -> str:
    return f"{car['id']} ({car['nickname']})"


def _car(db: Db, vehicle_id: str, *, awake: bool = True, admin: str | None = None) -> dict:
    """The car, after the access, permission and connectivity checks every command makes.

    ``admin`` names the action when only an account holder (owner or fleet manager) may do it."""
    car = db.get(Vehicle, vehicle_id)
    role = _role(db, vehicle_id)
    if role is None:
        raise ToolError(
            f"you have no key for vehicle {_label(car)}; list_vehicles shows the cars you can use"
        )
    if admin and role not in ADMIN:
        raise ToolError(
            f"only the owner or fleet manager of {_label(car)} may {admin}; you are a driver of this car"
        )
    if awake:
        if car["connectivity"] == "offline":
            raise ToolError(
                f"vehicle {_label(car)} is unreachable (no connectivity since {car['last_seen']}); "
                "commands cannot reach it until it comes back online"
            )
        if car["connectivity"] == "asleep":
            raise ToolError(f"vehicle {_label(car)} is asleep; wake it first with wake_vehicle")
    return car


def _log(db: Db, car: dict, command: str, detail: str) -> None:
    db.add(
        CommandLog,
        vehicle_id=car["id"],
        driver_id=db.actor_id(),
        command=command,
        detail=detail,
        at=db.stamp(),
    )


def _doors(car: dict) -> dict:
    return {
        "doors": {d: car[f"door_{d}"] for d in DOORS},
        "all_locked": all(car[f"door_{d}"] == "locked" for d in DOORS),
        "trunk_open": bool(car["trunk_open"]),
    }


def _energy(car: dict) -> dict:
    out: dict = {"powertrain": car["powertrain"]}
    if car["tank_l"]:
        out.update(
            fuel=_vol(car, car["fuel_l"]),
            tank_capacity=_vol(car, car["tank_l"]),
            fuel_unit=_vol_unit(car),
            fuel_pct=round(car["fuel_l"] / car["tank_l"] * 100),
        )
    if car["battery_kwh"]:
        out.update(
            battery_pct=car["battery_pct"],
            charging=car["charging"],
            charge_limit_pct=car["charge_limit_pct"],
            charge_port_open=bool(car["charge_port_open"]),
        )
    out.update(range=_dist(car, _range_km(car)), range_unit=_dist_unit(car))
    return out


def _climate(car: dict) -> dict:
    return {
        "climate_on": bool(car["climate_on"]),
        "cabin_temperature": _temp(car, car["cabin_temp_c"]),
        "target_temperature": _temp(car, car["target_temp_c"]),
        "temperature_unit": _temp_unit(car),
        "fan_pct": car["fan_pct"],
        "ac_mode": car["ac_mode"],
        "defrost": bool(car["defrost"]),
        "seat_heater": {"driver": car["seat_heat_driver"], "passenger": car["seat_heat_passenger"]},
    }


def _tires(car: dict) -> dict:
    floor = car["tire_recommended"] * LOW_TIRE
    low = [t for t in TIRES if car[f"tire_{t}"] < floor]
    return {
        "pressures": {TIRE_NAMES[t].replace(" ", "_"): _pressure(car, car[f"tire_{t}"]) for t in TIRES},
        "recommended": _pressure(car, car["tire_recommended"]),
        "low_below": _pressure(car, floor),
        "pressure_unit": _pressure_unit(car),
        "low_tires": [TIRE_NAMES[t].replace(" ", "_") for t in low],
        "healthy": not low,
    }


def _engine(car: dict) -> dict:
    return {
        "ignition": car["ignition"],
        "gear": car["gear"],
        "speed": car["speed"],
        "speed_unit": _speed_unit(car),
        "cruise_on": bool(car["cruise_on"]),
        "cruise_speed": car["cruise_speed"],
        "follow_distance_m": car["follow_distance_m"],
        "odometer": _dist(car, car["odometer_km"]),
        "odometer_unit": _dist_unit(car),
        "valet_mode": bool(car["valet_mode"]),
    }


SECTIONS = {
    "doors": _doors,
    "energy": _energy,
    "climate": _climate,
    "tires": _tires,
    "engine": _engine,
    "brakes": lambda c: {"brake_pedal_pct": c["brake_pedal_pct"], "parking_brake": bool(c["parking_brake"])},
    "lights": lambda c: {"headlights": c["headlights"]},
    "location": lambda c: {"address": c["address"], "city": c["city"], "lat": c["lat"], "lon": c["lon"]},
    "navigation": lambda c: {"destination": c["nav_destination"], "lat": c["nav_lat"], "lon": c["nav_lon"]},
}
Section = Literal[
    "all", "doors", "energy", "climate", "tires", "engine", "brakes", "lights", "location", "navigation"
]


REGIONS = {"US": "North America", "CA": "North America", "GB": "Europe", "DE": "Europe", "JP": "Japan"}


@functools.lru_cache(maxsize=4096)
def _region(lat: float, lon: float) -> str:
    """The road network a point is on (a pure function of the point: service centers and parked cars
    ask it again and again, and the nearest-city search costs 15 great-circle distances)."""
    return REGIONS[geo.city(geo.reverse_geocode(lat, lon).city).country]


def _destination(db: Db, car: dict, text: str) -> tuple[str, float, float]:
    """A destination an agent can say: a street address, a city, 'home' or a service center id."""
    raw = text.strip()
    if raw.casefold() == "home":
        home = db.scalar("SELECT home_address FROM drivers WHERE id = ?", db.actor_id())
        where = geo.geocode(home)
        return where.line, where.lat, where.lon
    if raw.upper().startswith("SVC-"):
        center = db.find(ServiceCenter, raw.upper())
        if center is None:
            raise ToolError(f"service center {raw!r} does not exist; find_service_center lists real ones")
        return f"{center['name']}, {center['address']}", center["lat"], center["lon"]
    where = geo.geocode(raw)
    if where is not None:
        return where.line, where.lat, where.lon
    try:
        c = geo.city(raw)
    except KeyError:
        raise ToolError(
            f"cannot find {raw!r} on the map: give a street address like '14 Elm St, Portland' "
            f"(house numbers 1-{geo.HOUSES_PER_STREET}; streets: {', '.join(geo.STREET_NAMES)}), a city "
            f"({', '.join(c.name for c in geo.CITIES)}), 'home' or a service center id (SVC-...)"
        ) from None
    return f"{c.name} city centre", c.lat, c.lon


def _trip(car: dict, lat: float, lon: float, label: str) -> dict:
    if _region(car["lat"], car["lon"]) != _region(lat, lon):
        raise ToolError(
            f"no road route from {car['city']} ({_region(car['lat'], car['lon'])}) to {label} "
            f"({_region(lat, lon)}): pick a destination on the same continent"
        )
    leg = geo.route(car["lat"], car["lon"], lat, lon, "driving")
    return {"km": leg["distance_km"], "duration_min": leg["duration_min"]}


def _feasibility(car: dict, km: float) -> dict:
    range_km = _range_km(car)
    return {
        "distance": _dist(car, km),
        "range": _dist(car, range_km),
        "distance_unit": _dist_unit(car),
        "feasible": range_km >= km,
        "margin": _dist(car, range_km - km),
    }


# -- Ref conditions: the sampler's picks ----------------------------------------------------------


def _key(car_id: str, roles: str = "") -> str:
    """SQL: the signed-in driver holds a key for the car ``car_id`` names (in one of ``roles``).

    One probe of the (vehicle, driver) key index per candidate car, instead of listing every car a
    fleet manager's keys open (hundreds) on each sampler query."""
    extra = f" AND k.role IN ({roles})" if roles else ""
    return (
        "EXISTS (SELECT 1 FROM vehicle_access k WHERE k.vehicle_id = "
        f"{car_id} AND k.driver_id = (SELECT driver_id FROM sessions){extra})"
    )


MINE = _key("vehicles.id")
HELD = _key("vehicles.id", "'owner', 'fleet_manager'")
ONLINE = f"{MINE} AND connectivity = 'online'"
PARKED = f"{ONLINE} AND speed = 0"
ANY_LOCKED = "'locked' IN (door_driver, door_passenger, door_rear_left, door_rear_right)"
ANY_UNLOCKED = "'unlocked' IN (door_driver, door_passenger, door_rear_left, door_rear_right)"

AnyCar = Ref[Vehicle, MINE]
OnlineCar = Ref[Vehicle, ONLINE]
AsleepCar = Ref[Vehicle, f"{MINE} AND connectivity = 'asleep'"]
ALL_LOCKED = "door_driver = 'locked' AND door_passenger = 'locked' AND door_rear_left = 'locked' AND door_rear_right = 'locked'"
# Ready to start: the generator only picks a car once earlier calls locked it and pressed the brake.
StartableCar = Ref[
    Vehicle, f"{PARKED} AND ignition != 'running' AND gear = 'P' AND {ALL_LOCKED} AND brake_pedal_pct >= 100"
]
StoppableCar = Ref[Vehicle, f"{PARKED} AND ignition = 'running' AND gear = 'P'"]
RunningCar = Ref[Vehicle, f"{ONLINE} AND ignition = 'running'"]
# every gear change needs the foot on the brake: the generator picks a car once that holds
ShiftableCar = Ref[Vehicle, f"{ONLINE} AND ignition = 'running' AND brake_pedal_pct >= 50"]
DrivingCar = Ref[Vehicle, f"{ONLINE} AND ignition = 'running' AND gear = 'D'"]
LockableCar = Ref[Vehicle, f"{ONLINE} AND {ANY_UNLOCKED}"]
UnlockableCar = Ref[Vehicle, f"{PARKED} AND {ANY_LOCKED}"]
ClimateCar = Ref[
    Vehicle, f"{ONLINE} AND (ignition = 'running' OR (powertrain != 'ice' AND battery_pct >= 10))"
]
HeatedCar = Ref[Vehicle, f"{ONLINE} AND climate_on = 1"]
RefuelCar = Ref[
    Vehicle,
    f"{PARKED} AND powertrain IN ('ice', 'hybrid') AND ignition != 'running' AND gear = 'P' "
    "AND fuel_l < tank_l - 5",
]
PluggedCar = Ref[Vehicle, f"{ONLINE} AND charging = 'plugged' AND battery_pct < charge_limit_pct"]
ChargingCar = Ref[Vehicle, f"{ONLINE} AND charging = 'charging'"]
ChargeableCar = Ref[Vehicle, f"{ONLINE} AND {HELD} AND powertrain IN ('ev', 'hybrid')"]
HeldCar = Ref[Vehicle, f"{ONLINE} AND {HELD}"]
KeyCar = Ref[
    Vehicle,
    f"{HELD} AND (SELECT count(*) FROM vehicle_access k WHERE k.vehicle_id = vehicles.id "
    f"AND k.role = 'driver') < {MAX_DRIVERS}",
]
SharedCar = Ref[
    Vehicle,
    f"{HELD} AND EXISTS (SELECT 1 FROM vehicle_access d WHERE d.vehicle_id = vehicles.id AND d.role = 'driver')",
]
MyAlert = Ref[
    Alert,
    f"cleared = 0 AND code NOT LIKE 'LOW_%' AND code != 'DOOR_AJAR' AND {_key('alerts.vehicle_id')}",
]

Destination = Annotated[
    ShortText,
    Field(examples=["14 Elm St, Portland", "home", "Seattle", "230 Oak Ave, Denver", "SVC-000001"]),
]
DoorChoice = Literal["driver", "passenger", "rear_left", "rear_right", "all"]
DoorList = Annotated[
    list[DoorChoice],
    Field(
        min_length=1,
        max_length=5,
        description='Doors, e.g. ["driver", "passenger"]; ["all"] means all four doors.',
        examples=[["all"], ["all"], ["driver"], ["driver", "passenger"], ["rear_left", "rear_right"]],
    ),
]
Percent = Annotated[int, Field(ge=0, le=100)]


def _door_names(doors: list[str]) -> list[str]:
    return list(DOORS) if "all" in doors else [d for d in DOORS if d in doors]
