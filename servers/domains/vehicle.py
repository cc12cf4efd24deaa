"""Connected cars: a car maker's cloud API that a signed-in driver uses to control cars remotely
(the shape of Tesla Fleet / Smartcar commands, with BFCL VehicleControlAPI's interlocks).

Acting model: the ``sessions`` row names the acting driver (the persona, world person 0). Every
tool takes an explicit ``vehicle`` id; ``list_vehicles`` resolves "my car". The persona owns two
cars (an EV asleep at home on the charger, an ICE car with two rear doors unlocked and a low rear
tire), drives a partner's plug-in hybrid with a shared key, and is the fleet manager of their
employer's car fleet, which is why the account reaches hundreds of cars. Owners and fleet
managers are account holders; drivers may drive and use comfort features only.

Reference moment: Monday 2026-06-01 09:00. Nothing moves by itself: a car reports what the
snapshot says until a command changes it.

Rules the service enforces, each with an error that names every blocking condition:
- Connectivity: an ``asleep`` car must be woken (``wake_vehicle``) before any command; an
  ``offline`` car is unreachable. Cloud-side reads (status with stale values, alerts, trips,
  keys, command history, service centers) still answer from the last report.
- Access: you need a key for the car; only account holders share or revoke keys, toggle valet
  mode or set a charge limit above 90%.
- Engine start: all four doors locked, brake pedal pressed fully (100%), gear P, fuel (ICE),
  battery (EV) or either (plug-in hybrid) above zero. Stop: speed 0 in P.
- Gear: brake at least 50%; D/R need the engine running and the parking brake released; P/R
  need speed 0. Doors: no unlocking while moving; an open door cannot be locked.
- Cruise: engine running, gear D, speed a multiple of 5 within 20-120 in the car's unit (mph or
  km/h), following distance 20-200 m.
- Climate 16-30 °C (60-86 °F), fan 0-100; ICE climate needs the engine running, EV climate needs
  10% battery. Seat heaters need the climate on.
- Refuel: ICE/hybrid, engine off, gear P, never above the tank capacity. Charging: EV/hybrid,
  plugged in to start, charging to stop, never at or above the charge limit (50-100%).
- Navigation and trip estimates geocode through the shared geography and need a road route.
- Valet PIN 4 digits, and the same PIN turns it off. At most 5 drivers per car.

Units: each car displays ``metric`` or ``imperial``; every reading and every speed, distance,
temperature and fuel amount a tool takes or returns is in that car's unit unless a ``unit`` is
given. Stored values are km, litres, °C and psi, except ``speed``/``cruise_speed``, which are kept
in the car's own unit because cruise speeds are whole multiples of 5 of it.

Every successful command appends a row to the append-only ``command_log``; a refused command
changes nothing, so the log is a faithful history of what was actually done.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated, Literal

from pydantic import Field
from sqlalchemy import ForeignKey, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from servers.kit import Db, Domain, Email, Offset, PageSize, Pin, Ref, Seeder, ShortText, ToolError, geo
from servers.kit.db import format_id

vehicle = Domain("vehicle", "Connected cars: remote lock, engine, climate, charging, navigation and keys.")

Powertrain = Literal["ice", "ev", "hybrid"]
Door = Literal["driver", "passenger", "rear_left", "rear_right"]
DOORS: tuple[str, ...] = ("driver", "passenger", "rear_left", "rear_right")
TIRES: tuple[str, ...] = ("fl", "fr", "rl", "rr")
ADMIN = ("owner", "fleet_manager")
KM_PER_MI = 1.609344
L_PER_GAL = 3.785411784
KPA_PER_PSI = 6.894757
MAX_DRIVERS = 5
LOW_TIRE = 0.9  # a tire below 90% of its recommended pressure is low


class Driver(vehicle.Table):
    """A person with an account on the car service (a world person)."""

    __tablename__ = "drivers"
    __prefix__ = "DRV"
    __people__ = {"name": "name", "email": "email", "phone": "phone", "city": "city"}
    id: Mapped[str] = mapped_column(primary_key=True)
    person_id: Mapped[int] = mapped_column(unique=True)
    name: Mapped[str]
    email: Mapped[str] = mapped_column(unique=True)
    phone: Mapped[str]
    city: Mapped[str]
    home_address: Mapped[str]


class Session(vehicle.Table):
    __tablename__ = "sessions"
    __prefix__ = "SES"
    id: Mapped[str] = mapped_column(primary_key=True)
    driver_id: Mapped[str] = mapped_column(ForeignKey("drivers.id"))


class Vehicle(vehicle.Table):
    __tablename__ = "vehicles"
    __prefix__ = "VEH"
    __hidden__ = ("valet_pin",)
    id: Mapped[str] = mapped_column(primary_key=True)
    vin: Mapped[str] = mapped_column(unique=True)
    make: Mapped[str]
    model: Mapped[str]
    year: Mapped[int]
    nickname: Mapped[str]
    color: Mapped[str]
    fleet: Mapped[str | None]
    powertrain: Mapped[str]
    units: Mapped[str]  # metric | imperial
    connectivity: Mapped[str] = mapped_column(index=True)  # online | asleep | offline
    last_seen: Mapped[str]
    ignition: Mapped[str]  # off | accessory | running
    gear: Mapped[str]  # P | R | N | D
    speed: Mapped[int]  # in the car's unit: mph (imperial) or km/h (metric)
    odometer_km: Mapped[float]
    fuel_l: Mapped[float | None]
    tank_l: Mapped[float | None]
    fuel_per_100km: Mapped[float | None]  # litres per 100 km
    battery_pct: Mapped[float | None]
    battery_kwh: Mapped[float | None]
    kwh_per_100km: Mapped[float | None]
    charging: Mapped[str | None]  # disconnected | plugged | charging | complete
    charge_limit_pct: Mapped[int | None]
    charge_port_open: Mapped[bool | None]
    door_driver: Mapped[str]  # locked | unlocked | open
    door_passenger: Mapped[str]
    door_rear_left: Mapped[str]
    door_rear_right: Mapped[str]
    trunk_open: Mapped[bool]
    climate_on: Mapped[bool]
    cabin_temp_c: Mapped[float]
    target_temp_c: Mapped[float]
    fan_pct: Mapped[int]
    ac_mode: Mapped[str]  # auto | cool | heat | defrost
    seat_heat_driver: Mapped[int]
    seat_heat_passenger: Mapped[int]
    defrost: Mapped[bool]
    headlights: Mapped[str]  # off | on | auto
    parking_brake: Mapped[bool]
    brake_pedal_pct: Mapped[int]
    cruise_on: Mapped[bool]
    cruise_speed: Mapped[int | None]  # in the car's unit
    follow_distance_m: Mapped[int]
    valet_mode: Mapped[bool]
    valet_pin: Mapped[str | None]
    lat: Mapped[float]
    lon: Mapped[float]
    city: Mapped[str]
    address: Mapped[str]
    nav_destination: Mapped[str | None]
    nav_lat: Mapped[float | None]
    nav_lon: Mapped[float | None]
    tire_fl: Mapped[float]  # psi
    tire_fr: Mapped[float]
    tire_rl: Mapped[float]
    tire_rr: Mapped[float]
    tire_recommended: Mapped[float]


class VehicleAccess(vehicle.Table):
    """A key: who may use which car, as owner, fleet manager or driver."""

    __tablename__ = "vehicle_access"
    __prefix__ = "VAC"
    __noun__ = "digital key"
    __table_args__ = (UniqueConstraint("vehicle_id", "driver_id"),)
    id: Mapped[str] = mapped_column(primary_key=True)
    vehicle_id: Mapped[str] = mapped_column(ForeignKey("vehicles.id"), index=True)
    driver_id: Mapped[str] = mapped_column(ForeignKey("drivers.id"), index=True)
    role: Mapped[str]  # owner | fleet_manager | driver
    granted_at: Mapped[str]


class Trip(vehicle.Table):
    __tablename__ = "trips"
    __prefix__ = "TRP"
    id: Mapped[str] = mapped_column(primary_key=True)
    vehicle_id: Mapped[str] = mapped_column(ForeignKey("vehicles.id"), index=True)
    driver_id: Mapped[str] = mapped_column(ForeignKey("drivers.id"))
    started_at: Mapped[str]
    ended_at: Mapped[str]
    from_address: Mapped[str]
    to_address: Mapped[str]
    distance_km: Mapped[float]
    energy_used: Mapped[float]
    energy_unit: Mapped[str]  # kWh | L


class ServiceCenter(vehicle.Table):
    __tablename__ = "service_centers"
    __prefix__ = "SVC"
    id: Mapped[str] = mapped_column(primary_key=True)
    name: Mapped[str]
    city: Mapped[str]
    address: Mapped[str]
    lat: Mapped[float]
    lon: Mapped[float]
    services: Mapped[str]  # comma list of tires, battery, general, glass
    phone: Mapped[str]


class Alert(vehicle.Table):
    __tablename__ = "alerts"
    __prefix__ = "ALR"
    __append_only__ = True
    __mutable__ = ("cleared", "cleared_at")
    id: Mapped[str] = mapped_column(primary_key=True)
    vehicle_id: Mapped[str] = mapped_column(ForeignKey("vehicles.id"), index=True)
    code: Mapped[str]
    message: Mapped[str]
    at: Mapped[str]
    cleared: Mapped[bool]
    cleared_at: Mapped[str | None]


class CommandLog(vehicle.Table):
    """One command the service carried out on a car (refused commands leave no row)."""

    __tablename__ = "command_log"
    __prefix__ = "CMD"
    __noun__ = "command"
    __append_only__ = True
    id: Mapped[str] = mapped_column(primary_key=True)
    vehicle_id: Mapped[str] = mapped_column(ForeignKey("vehicles.id"), index=True)
    driver_id: Mapped[str] = mapped_column(ForeignKey("drivers.id"))
    command: Mapped[str]
    detail: Mapped[str]
    at: Mapped[str]


# -- seed data ----------------------------------------------------------------------------------

# (make, model, tank litres, litres/100 km, battery kWh, kWh/100 km, recommended psi, VIN maker code)
MODELS: dict[str, list[tuple]] = {
    "ev": [
        ("Tesla", "Model 3", None, None, 57.5, 14.5, 42, "5YJ"),
        ("Tesla", "Model Y", None, None, 75.0, 16.0, 42, "7SA"),
        ("Ford", "Mustang Mach-E", None, None, 88.0, 18.5, 38, "3FM"),
        ("Hyundai", "Ioniq 5", None, None, 77.4, 17.5, 36, "KM8"),
        ("Chevrolet", "Bolt EV", None, None, 65.0, 16.0, 38, "1G1"),
        ("Nissan", "Leaf", None, None, 40.0, 17.0, 36, "1N4"),
        ("Kia", "EV6", None, None, 77.4, 17.2, 36, "KND"),
        ("Volkswagen", "ID.4", None, None, 77.0, 18.0, 38, "1V2"),
    ],
    "ice": [
        ("Toyota", "Camry", 60.0, 7.0, None, None, 35, "4T1"),
        ("Honda", "Civic", 47.0, 6.5, None, None, 32, "2HG"),
        ("Ford", "F-150", 98.0, 12.5, None, None, 35, "1FT"),
        ("Subaru", "Outback", 70.0, 8.7, None, None, 35, "4S4"),
        ("Mazda", "CX-5", 56.0, 8.2, None, None, 36, "JM3"),
        ("Chevrolet", "Silverado", 91.0, 13.0, None, None, 40, "1GC"),
        ("Volkswagen", "Golf", 50.0, 6.4, None, None, 36, "3VW"),
        ("BMW", "330i", 59.0, 7.4, None, None, 35, "WBA"),
    ],
    "hybrid": [
        ("Toyota", "RAV4 Prime", 55.0, 6.0, 18.1, 20.0, 35, "JTM"),
        ("Toyota", "Prius Prime", 43.0, 4.4, 13.6, 16.0, 36, "JTD"),
        ("Ford", "Escape PHEV", 42.0, 5.9, 14.4, 19.0, 35, "1FM"),
        ("Mitsubishi", "Outlander PHEV", 56.0, 7.0, 20.0, 21.0, 36, "JA4"),
    ],
}
COLORS = ["white", "black", "silver", "gray", "blue", "red", "green"]
VIN_CHARS = "ABCDEFGHJKLMNPRSTUVWXYZ0123456789"
SERVICE_KINDS = {
    "tires": "Tire & Wheel",
    "battery": "EV Battery Care",
    "general": "Auto Service",
    "glass": "Auto Glass",
}
ALERT_TEXT = {
    "LOW_TIRE": "{tire} tire pressure is low",
    "LOW_FUEL": "fuel is low",
    "LOW_BATTERY": "battery is low",
    "DOOR_AJAR": "a door or the trunk is open",
    "SERVICE_DUE": "scheduled maintenance is due",
    "SOFTWARE_UPDATE": "a software update is ready to install",
    "WASHER_FLUID_LOW": "washer fluid is low",
    "TIRE_ROTATION_DUE": "tire rotation is due",
}
TIRE_NAMES = {"fl": "front left", "fr": "front right", "rl": "rear left", "rr": "rear right"}


@vehicle.seed
def fill(s: Seeder) -> None:
    people = s.world.pick_people(s.count(small=40, medium=400, large=10_000))
    drivers = s.add(
        Driver,
        (
            {
                "id": format_id("DRV", i + 1),
                "person_id": p.index,
                "name": p.name,
                "email": p.email,
                "phone": p.phone,
                "city": p.city,
                "home_address": p.home.line,
            }
            for i, p in enumerate(people)
        ),
    )
    s.add(Session, [{"id": "SES-000001", "driver_id": drivers[0]["id"]}])
    cars, keys = _seed_vehicles(s, people, drivers)
    s.add(Vehicle, cars)
    s.add(VehicleAccess, keys)
    s.add(ServiceCenter, _seed_centers(s))
    _seed_history(s, cars, keys)


def _vin(s: Seeder, code: str, n: int) -> str:
    return code + "".join(s.pick(VIN_CHARS) for _ in range(8)) + f"{n:06d}"


def _base_car(s: Seeder, n: int, powertrain: str, city: str, units: str, home: geo.Address | None) -> dict:
    make, model, tank, lp100, kwh, kwhp100, psi, code = s.pick(MODELS[powertrain])
    where = home or geo.address(city, s.rng.randrange(len(geo.STREET_NAMES)), s.rng.randint(1, 400))
    car = {
        "id": format_id("VEH", n),
        "vin": _vin(s, code, n),
        "make": make,
        "model": model,
        "year": s.rng.randint(2017, 2026),
        "nickname": model,
        "color": s.pick(COLORS),
        "fleet": None,
        "powertrain": powertrain,
        "units": units,
        "connectivity": "online",
        "last_seen": s.now.isoformat(timespec="seconds"),
        "ignition": "off",
        "gear": "P",
        "speed": 0,
        "odometer_km": round(s.rng.uniform(800, 140_000), 1),
        "fuel_l": round(tank * s.rng.uniform(0.2, 0.9), 1) if tank else None,
        "tank_l": tank,
        "fuel_per_100km": lp100,
        "battery_pct": float(s.rng.randint(20, 95)) if kwh else None,
        "battery_kwh": kwh,
        "kwh_per_100km": kwhp100,
        "charging": "disconnected" if kwh else None,
        "charge_limit_pct": s.pick([80, 80, 80, 90, 100]) if kwh else None,
        "charge_port_open": False if kwh else None,
        "door_driver": "locked",
        "door_passenger": "locked",
        "door_rear_left": "locked",
        "door_rear_right": "locked",
        "trunk_open": False,
        "climate_on": False,
        "cabin_temp_c": round(s.rng.uniform(12, 30), 1),
        "target_temp_c": float(s.pick([20, 21, 21, 22, 22.5])),
        "fan_pct": s.pick([0, 30, 50]),
        "ac_mode": "auto",
        "seat_heat_driver": 0,
        "seat_heat_passenger": 0,
        "defrost": False,
        "headlights": s.pick(["auto"] * 6 + ["off"] * 3 + ["on"]),
        "parking_brake": s.chance(0.7),
        # one car in ten (past the pinned scenario cars) has the driver in the seat, foot on the brake
        "brake_pedal_pct": 100 if n > 40 and n % 10 == 7 else 0,
        "cruise_on": False,
        "cruise_speed": None,
        "follow_distance_m": 50,
        "valet_mode": False,
        "valet_pin": None,
        "lat": where.lat,
        "lon": where.lon,
        "city": where.city,
        "address": where.line,
        "nav_destination": None,
        "nav_lat": None,
        "nav_lon": None,
        "tire_recommended": float(psi),
    }
    for t in TIRES:
        car[f"tire_{t}"] = float(psi + s.rng.randint(-2, 1))
    return car


def _set_state(s: Seeder, car: dict, state: str) -> None:
    """Put a car in one of the situations the sampler pools need."""
    imperial = car["units"] == "imperial"
    if state in ("asleep", "offline"):
        car["connectivity"] = state
        hours = s.rng.randint(1, 12) if state == "asleep" else s.rng.randint(30, 480)
        car["last_seen"] = (s.now - timedelta(hours=hours, minutes=s.rng.randint(0, 59))).isoformat()
    elif state in ("running", "moving", "cruising"):
        car["ignition"] = "running"
        car["parking_brake"] = state == "running" and s.chance(0.5)
        car["climate_on"] = s.chance(0.6)
        if state != "running":
            car["gear"] = "D"
            car["parking_brake"] = False
            car["speed"] = s.rng.randrange(25, 70, 5) if imperial else s.rng.randrange(40, 115, 5)
        if state == "cruising":
            car["cruise_on"] = True
            car["cruise_speed"] = car["speed"]
            car["follow_distance_m"] = s.pick([40, 50, 60, 80])
    elif state == "accessory":
        car["ignition"] = "accessory"
    elif state == "unlocked":
        for d in s.rng.sample(DOORS, s.rng.randint(1, 2)):
            car[f"door_{d}"] = "unlocked"
    elif state == "door_open":
        car[f"door_{s.pick(list(DOORS))}"] = "open"
    elif state == "low_tire":
        car[f"tire_{s.pick(list(TIRES))}"] = car["tire_recommended"] - s.rng.randint(6, 12)
    elif state == "low_energy":
        if car["tank_l"]:
            car["fuel_l"] = round(car["tank_l"] * s.rng.uniform(0.02, 0.08), 1)
        if car["battery_kwh"]:
            car["battery_pct"] = float(s.rng.randint(3, 12))
    elif state == "empty":
        if car["tank_l"]:
            car["fuel_l"] = 0.0
        if car["battery_kwh"]:
            car["battery_pct"] = 0.0
    elif state in ("plugged", "charging", "complete") and car["battery_kwh"]:
        car["charging"] = state
        car["charge_port_open"] = True
        limit = car["charge_limit_pct"]
        if state == "complete":
            car["battery_pct"] = float(limit)
        else:
            car["battery_pct"] = float(min(car["battery_pct"], limit - 5))
    elif state == "valet":
        car["valet_mode"] = True
        car["valet_pin"] = s.fake.numerify("####")
    elif state == "navigating":
        dest = geo.address(car["city"], s.rng.randrange(len(geo.STREET_NAMES)), s.rng.randint(1, 400))
        car.update(nav_destination=dest.line, nav_lat=dest.lat, nav_lon=dest.lon)
    elif state == "climate":
        car["climate_on"] = True


def _seed_vehicles(s: Seeder, people: list, drivers: list[dict]) -> tuple[list[dict], list[dict]]:
    persona, partner = people[0], people[1]
    me, partner_id = drivers[0]["id"], drivers[1]["id"]
    home = persona.home
    granted = s.day_offset(-900, -30)
    employer = s.world.employer(persona).name
    fleet_name = f"{employer} fleet"
    cars: list[dict] = []
    keys: list[dict] = []

    def key(car: dict, driver: str, role: str) -> None:
        keys.append(
            {
                "id": format_id("VAC", len(keys) + 1),
                "vehicle_id": car["id"],
                "driver_id": driver,
                "role": role,
                "granted_at": s.day_offset(-900, -1),
            }
        )

    # The persona's own cars: an EV asleep at home on the charger, and an ICE car that needs care.
    ev = _base_car(s, 1, "ev", persona.city, "imperial", home)
    ev.update(make="Tesla", model="Model Y", battery_kwh=75.0, kwh_per_100km=16.0, tire_recommended=42.0)
    ev.update(
        nickname=f"{persona.first_name}'s Model Y", connectivity="asleep", last_seen="2026-05-31T23:10:00"
    )
    ev.update(
        charging="plugged", charge_port_open=True, battery_pct=60.0, charge_limit_pct=80, parking_brake=True
    )
    ev.update({f"tire_{t}": 42.0 for t in TIRES})
    ice = _base_car(s, 2, "ice", persona.city, "imperial", home)
    ice.update(
        make="Subaru", model="Outback", tank_l=70.0, fuel_per_100km=8.7, fuel_l=28.0, tire_recommended=35.0
    )
    ice.update(
        nickname=f"{persona.first_name}'s Outback", door_rear_left="unlocked", door_rear_right="unlocked"
    )
    ice.update(tire_fl=35.0, tire_fr=35.0, tire_rl=27.0, tire_rr=34.0, parking_brake=True)
    hybrid = _base_car(s, 3, "hybrid", persona.city, "imperial", home)
    hybrid.update(make="Toyota", model="RAV4 Prime", tank_l=55.0, fuel_per_100km=6.0, battery_kwh=18.1)
    hybrid.update(
        kwh_per_100km=20.0, fuel_l=41.0, battery_pct=35.0, charge_limit_pct=90, tire_recommended=35.0
    )
    hybrid.update(nickname=f"{partner.first_name}'s RAV4", parking_brake=False)
    hybrid.update({f"tire_{t}": 35.0 for t in TIRES})
    for car in (ev, ice, hybrid):
        car["year"] = {1: 2024, 2: 2021, 3: 2023}[int(car["id"][-1])]
        cars.append(car)
    key(ev, me, "owner")
    key(ice, me, "owner")
    key(hybrid, partner_id, "owner")
    key(hybrid, me, "driver")
    keys[-1]["granted_at"] = granted

    # Everyone else's cars. The first few are pinned to the situations tests and the sampler need,
    # so even the small scale has a moving car, a car on cruise, a full key list...
    pinned = [
        "running", "cruising", "moving", "asleep", "offline", "plugged", "charging", "complete",
        "low_tire", "low_energy", "unlocked", "door_open", "valet", "navigating", "accessory", "empty",
        "climate", "full_keys",
    ]  # fmt: skip
    n_total = s.count(small=60, medium=1000, large=15_000)
    others = drivers[2:]
    for n in range(4, n_total + 1):
        pt = s.pick(["ev"] * 40 + ["ice"] * 48 + ["hybrid"] * 12)
        if n - 4 < len(pinned) and pinned[n - 4] in ("plugged", "charging", "complete", "low_energy"):
            pt = "ev"
        elif n - 4 < len(pinned) and pinned[n - 4] == "empty":
            pt = "ice"
        is_fleet = n - 4 < len(pinned) or s.chance(0.85)
        owner = others[s.rng.randrange(len(others))]
        city = geo.city(s.pick([c.name for c in geo.CITIES])) if is_fleet else geo.city(owner["city"])
        units = "metric" if city.country != "US" else ("metric" if s.chance(0.35) else "imperial")
        car = _base_car(s, n, pt, city.name, units, None)
        states: list[str] = []
        if n - 4 < len(pinned):
            states.append(pinned[n - 4])
        else:
            roll = s.rng.random()
            states.append("asleep" if roll < 0.33 else "offline" if roll < 0.42 else "online")
            if states[0] == "online":
                r = s.rng.random()
                states.append(
                    "running" if r < 0.03 else "moving" if r < 0.04 else "cruising" if r < 0.05
                    else "accessory" if r < 0.07 else "parked"
                )  # fmt: skip
                if states[-1] == "parked" and s.chance(0.1):
                    states.append("climate")
            if car["battery_kwh"] and "running" not in states and s.chance(0.75):
                states.append(s.pick(["plugged"] * 14 + ["charging"] * 4 + ["complete"] * 2))
            for state, p in (("unlocked", 0.08), ("door_open", 0.015), ("low_tire", 0.07)):
                if s.chance(p) and not any(x in states for x in ("moving", "cruising")):
                    states.append(state)
            for state, p in (("low_energy", 0.1), ("valet", 0.02), ("navigating", 0.1)):
                if s.chance(p):
                    states.append(state)
        for state in states:
            _set_state(s, car, state)
        if is_fleet:
            car["fleet"] = fleet_name
            car["nickname"] = f"{employer.split()[0]} #{n:04d}"
            key(car, me, "fleet_manager")
            assigned = s.rng.sample(others, 5 if "full_keys" in states else s.rng.randint(1, 2))
            for d in assigned:
                key(car, d["id"], "driver")
        else:
            car["nickname"] = f"{owner['name'].split()[0]}'s {car['model']}"
            key(car, owner["id"], "owner")
            extra = [d for d in s.rng.sample(others, 2) if d["id"] != owner["id"]][: s.rng.randint(0, 1)]
            for d in extra:
                key(car, d["id"], "driver")
        cars.append(car)
    return cars, keys


def _seed_centers(s: Seeder) -> list[dict]:
    n = s.count(small=30, medium=80, large=400)
    rows = []
    kinds = list(SERVICE_KINDS)
    for i in range(n):
        city = geo.CITIES[i % len(geo.CITIES)]
        main = kinds[(i // len(geo.CITIES)) % len(kinds)]
        services = sorted({main, *(k for k in kinds if s.chance(0.3))})
        where = geo.address(city.name, s.rng.randrange(len(geo.STREET_NAMES)), s.rng.randint(1, 400))
        brand = s.pick(["Precision", "Summit", "Harbor", "Northside", "Evergreen", "Metro", "Keystone"])
        rows.append(
            {
                "id": format_id("SVC", i + 1),
                "name": f"{brand} {SERVICE_KINDS[main]} {city.name}",
                "city": city.name,
                "address": where.line,
                "lat": where.lat,
                "lon": where.lon,
                "services": ",".join(services),
                "phone": s.fake.numerify("+1-###-###-####"),
            }
        )
    return rows


def _seed_history(s: Seeder, cars: list[dict], keys: list[dict]) -> None:
    """Past trips, alerts that match each car's state, and past commands."""
    holders: dict[str, list[str]] = {}
    for k in keys:
        holders.setdefault(k["vehicle_id"], []).append(k["driver_id"])
    low, high = s.count(small=(3, 9), medium=(6, 18), large=(4, 10))
    trips, alerts, log = [], [], []
    streets = len(geo.STREET_NAMES)
    for car in cars:
        for _ in range(s.rng.randint(low, high)):
            a = geo.address(car["city"], s.rng.randrange(streets), s.rng.randint(1, 400))
            b = geo.address(car["city"], s.rng.randrange(streets), s.rng.randint(1, 400))
            leg = geo.route(a.lat, a.lon, b.lat, b.lon)
            km = max(0.5, leg["distance_km"] + round(s.rng.uniform(0, 20), 1))
            start = s.now - timedelta(days=s.rng.randint(1, 60), minutes=s.rng.randint(0, 1439))
            end = start + timedelta(minutes=int(km / 35 * 60) + 3)
            ev = car["powertrain"] == "ev" or (car["powertrain"] == "hybrid" and km < 40)
            used = km * (car["kwh_per_100km"] if ev else car["fuel_per_100km"]) / 100
            trips.append(
                {
                    "id": format_id("TRP", len(trips) + 1),
                    "vehicle_id": car["id"],
                    "driver_id": s.pick(holders[car["id"]]),
                    "started_at": start.isoformat(),
                    "ended_at": end.isoformat(),
                    "from_address": a.line,
                    "to_address": b.line,
                    "distance_km": round(km, 1),
                    "energy_used": round(used, 2),
                    "energy_unit": "kWh" if ev else "L",
                }
            )

        def alert(code: str, message: str, cleared: bool, car: dict = car) -> None:
            at = s.moment_offset(-20, -1) if cleared else s.moment_offset(-3, 0)
            alerts.append(
                {
                    "id": format_id("ALR", len(alerts) + 1),
                    "vehicle_id": car["id"],
                    "code": code,
                    "message": message,
                    "at": at if at <= s.now.isoformat() else s.now.isoformat(timespec="seconds"),
                    "cleared": cleared,
                    "cleared_at": at if cleared else None,
                }
            )

        for code, message in _active_conditions(car):
            alert(code, message, False)
        if s.chance(0.12):
            code = s.pick(["SERVICE_DUE", "SOFTWARE_UPDATE", "WASHER_FLUID_LOW", "TIRE_ROTATION_DUE"])
            alert(code, ALERT_TEXT[code], False)
        if s.chance(0.6):
            code = s.pick(sorted(ALERT_TEXT))
            alert(code, ALERT_TEXT[code].format(tire="front left"), True)
        for _ in range(s.rng.randint(1, 3)):
            log.append(
                {
                    "vehicle_id": car["id"],
                    "driver_id": s.pick(holders[car["id"]]),
                    "command": s.pick(["lock_doors", "set_climate", "wake_vehicle", "set_headlights"]),
                    "detail": "sent from the mobile app",
                    "at": s.moment_offset(-30, -1),
                }
            )
    s.add(Trip, trips)
    s.add(Alert, alerts)
    # ids in time order, so the newest command has the highest id (as the tools' new rows will)
    log.sort(key=lambda r: r["at"])
    s.add(CommandLog, ({"id": format_id("CMD", i + 1), **r} for i, r in enumerate(log)))


def _active_conditions(car: dict) -> list[tuple[str, str]]:
    """The alerts a car's current readings call for (they cannot be cleared while true)."""
    out = []
    for t in TIRES:
        if car[f"tire_{t}"] < car["tire_recommended"] * LOW_TIRE:
            out.append((f"LOW_TIRE_{t.upper()}", ALERT_TEXT["LOW_TIRE"].format(tire=TIRE_NAMES[t])))
    if car["tank_l"] and car["fuel_l"] < car["tank_l"] * 0.1:
        out.append(("LOW_FUEL", ALERT_TEXT["LOW_FUEL"]))
    if car["battery_kwh"] and car["battery_pct"] < 15 and car["powertrain"] == "ev":
        out.append(("LOW_BATTERY", ALERT_TEXT["LOW_BATTERY"]))
    if car["trunk_open"] or any(car[f"door_{d}"] == "open" for d in DOORS):
        out.append(("DOOR_AJAR", ALERT_TEXT["DOOR_AJAR"]))
    return out


# -- units ---------------------------------------------------------------------------------------


def _imperial(car: dict) -> bool:
    return car["units"] == "imperial"


def _dist(car: dict, km: float) -> float:
    return round(km / KM_PER_MI, 1) if _imperial(car) else round(km, 1)


def _dist_unit(car: dict) -> str:
    return "mi" if _imperial(car) else "km"


def _speed_unit(car: dict) -> str:
    return "mph" if _imperial(car) else "km/h"


def _temp(car: dict, c: float) -> float:
    return round(c * 9 / 5 + 32) if _imperial(car) else round(c, 1)


def _temp_unit(car: dict) -> str:
    return "°F" if _imperial(car) else "°C"


def _vol(car: dict, litres: float) -> float:
    return round(litres / L_PER_GAL, 2) if _imperial(car) else round(litres, 1)


def _vol_unit(car: dict) -> str:
    return "gal" if _imperial(car) else "L"


def _pressure(car: dict, psi: float) -> float:
    return round(psi, 1) if _imperial(car) else round(psi * KPA_PER_PSI)


def _pressure_unit(car: dict) -> str:
    return "psi" if _imperial(car) else "kPa"


def _range_km(car: dict) -> float:
    km = 0.0
    if car["tank_l"]:
        km += car["fuel_l"] / car["fuel_per_100km"] * 100
    if car["battery_kwh"]:
        km += car["battery_pct"] / 100 * car["battery_kwh"] / car["kwh_per_100km"] * 100
    return km


# -- rules shared by several tools ----------------------------------------------------------------


def _me(db: Db) -> str:
    driver = db.session()["driver_id"]
    if driver is None:
        raise ToolError("nobody is signed in to the car service")
    return driver


def _role(db: Db, car_id: str) -> str | None:
    return db.scalar(
        "SELECT role FROM vehicle_access WHERE vehicle_id = ? AND driver_id = ?", car_id, _me(db)
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
    db.add(CommandLog, vehicle_id=car["id"], driver_id=_me(db), command=command, detail=detail, at=db.stamp())


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


def _region(lat: float, lon: float) -> str:
    return REGIONS[geo.city(geo.reverse_geocode(lat, lon).city).country]


def _destination(db: Db, car: dict, text: str) -> tuple[str, float, float]:
    """A destination an agent can say: a street address, a city, 'home' or a service center id."""
    raw = text.strip()
    if raw.casefold() == "home":
        home = db.scalar("SELECT home_address FROM drivers WHERE id = ?", _me(db))
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

MINE = "id IN (SELECT vehicle_id FROM vehicle_access WHERE driver_id = (SELECT driver_id FROM sessions))"
HELD = (
    "id IN (SELECT vehicle_id FROM vehicle_access WHERE driver_id = (SELECT driver_id FROM sessions) "
    "AND role IN ('owner', 'fleet_manager'))"
)
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
SharedCar = Ref[Vehicle, f"{HELD} AND id IN (SELECT vehicle_id FROM vehicle_access WHERE role = 'driver')"]
MyAlert = Ref[
    Alert,
    "cleared = 0 AND code NOT LIKE 'LOW_%' AND code != 'DOOR_AJAR' AND vehicle_id IN "
    "(SELECT vehicle_id FROM vehicle_access WHERE driver_id = (SELECT driver_id FROM sessions))",
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
    params: list = [_me(db), *roles]
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
    db.update(Vehicle, vehicle, **{f"door_{d}": "locked" for d in names})
    _log(db, car, "lock_doors", "locked " + ", ".join(names))
    return {"vehicle": vehicle, "locked": names, **_doors(db.get(Vehicle, vehicle))}


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
    if locked:
        db.update(Vehicle, vehicle, **locked)
    _log(db, car, "unlock_doors", "unlocked " + ", ".join(names))
    return {"vehicle": vehicle, "unlocked": names, **_doors(db.get(Vehicle, vehicle))}


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
def shift_gear(db: Db, vehicle: RunningCar, gear: Literal["P", "R", "N", "D"]) -> dict:
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
    db.update(Vehicle, vehicle, **changes)
    after = db.get(Vehicle, vehicle)
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
    db.update(Vehicle, vehicle, fuel_l=fuel)
    _log(db, car, "refuel", f"added {litres / per:.2f} {unit}")
    after = db.get(Vehicle, vehicle)
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
    db.update(Vehicle, vehicle, **changes)
    _log(db, car, "set_charge_limit", f"limit {percent}%")
    return {"vehicle": vehicle, **_energy(db.get(Vehicle, vehicle))}


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
