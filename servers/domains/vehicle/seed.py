"""The seeded fleet: drivers, cars in every situation, keys, trips, alerts and service centers."""

from __future__ import annotations

from datetime import timedelta

from servers.domains.vehicle.model import (
    DOORS,
    LOW_TIRE,
    TIRE_NAMES,
    TIRES,
    Alert,
    CommandLog,
    Driver,
    ServiceCenter,
    Session,
    Trip,
    Vehicle,
    VehicleAccess,
    vehicle,
)
from servers.kit import Person, Seeder, geo
from servers.kit.db import format_id

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
    """Long because it is one row literal, and each column's random value is drawn in the order the columns are
    listed, which fixes the snapshot bytes."""
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
        if state == "running" and not car["parking_brake"]:
            car["brake_pedal_pct"] = 100  # idling in P on the footbrake, about to pull away
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


def _random_states(s: Seeder, car: dict) -> list[str]:
    """The situations of an unpinned car: connectivity, then what it is doing, charging, doors,
    tires and extras (a moving car has no open door or low tire)."""
    states: list[str] = []
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
    return states


def _household_cars(
    s: Seeder, persona: Person, partner: Person, home: geo.Address
) -> tuple[dict, dict, dict]:
    """The persona's own cars (an EV asleep at home on the charger, an ICE car that needs care) and
    the partner's plug-in hybrid, all parked at home."""
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
    return ev, ice, hybrid


def _grant(s: Seeder, keys: list[dict], car: dict, driver: str, role: str) -> None:
    """Give a driver a key to a car, granted some day in the last two and a half years."""
    keys.append(
        {
            "id": format_id("VAC", len(keys) + 1),
            "vehicle_id": car["id"],
            "driver_id": driver,
            "role": role,
            "granted_at": s.day_offset(-900, -1),
        }
    )


def _other_car(s: Seeder, n: int, pin: str | None, others: list[dict]) -> tuple[dict, bool, dict]:
    """Car ``n`` of someone else, its powertrain fitting its pinned situation if it has one; pinned
    cars are all in the employer's fleet, others mostly. Returns the car, whether it is a fleet car,
    and the driver who would own it otherwise."""
    pt = s.pick(["ev"] * 40 + ["ice"] * 48 + ["hybrid"] * 12)
    if pin in ("plugged", "charging", "complete", "low_energy"):
        pt = "ev"
    elif pin == "empty":
        pt = "ice"
    is_fleet = pin is not None or s.chance(0.85)
    owner = others[s.rng.randrange(len(others))]
    city = geo.city(s.pick([c.name for c in geo.CITIES])) if is_fleet else geo.city(owner["city"])
    units = "metric" if city.country != "US" else ("metric" if s.chance(0.35) else "imperial")
    return _base_car(s, n, pt, city.name, units, None), is_fleet, owner


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
        _grant(s, keys, car, driver, role)

    ev, ice, hybrid = _household_cars(s, persona, partner, home)
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
        pin = pinned[n - 4] if n - 4 < len(pinned) else None
        car, is_fleet, owner = _other_car(s, n, pin, others)
        states = [pin] if pin else _random_states(s, car)
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


def _car_trips(s: Seeder, car: dict, drivers: list[str], low: int, high: int, trips: list[dict]) -> None:
    """Past trips between random addresses of the car's city, by its key holders."""
    streets = len(geo.STREET_NAMES)
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
                "driver_id": s.pick(drivers),
                "started_at": start.isoformat(),
                "ended_at": end.isoformat(),
                "from_address": a.line,
                "to_address": b.line,
                "distance_km": round(km, 1),
                "energy_used": round(used, 2),
                "energy_unit": "kWh" if ev else "L",
            }
        )


def _car_alerts(s: Seeder, car: dict, alerts: list[dict]) -> None:
    """Alerts for what is wrong with the car now, sometimes a reminder, and often a cleared one."""

    def alert(code: str, message: str, cleared: bool) -> None:
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


def _car_commands(s: Seeder, car: dict, drivers: list[str], log: list[dict]) -> None:
    """One to three commands sent to the car from the app in the past month."""
    for _ in range(s.rng.randint(1, 3)):
        log.append(
            {
                "vehicle_id": car["id"],
                "driver_id": s.pick(drivers),
                "command": s.pick(["lock_doors", "set_climate", "wake_vehicle", "set_headlights"]),
                "detail": "sent from the mobile app",
                "at": s.moment_offset(-30, -1),
            }
        )


def _seed_history(s: Seeder, cars: list[dict], keys: list[dict]) -> None:
    """Past trips, alerts that match each car's state, and past commands."""
    holders: dict[str, list[str]] = {}
    for k in keys:
        holders.setdefault(k["vehicle_id"], []).append(k["driver_id"])
    low, high = s.count(small=(3, 9), medium=(6, 18), large=(4, 10))
    trips, alerts, log = [], [], []
    for car in cars:
        _car_trips(s, car, holders[car["id"]], low, high, trips)
        _car_alerts(s, car, alerts)
        _car_commands(s, car, holders[car["id"]], log)
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
