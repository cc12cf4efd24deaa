"""The connected-car service's tables, fixed facts and unit conversions."""

from __future__ import annotations

from typing import Literal

from sqlalchemy import ForeignKey, Index, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from servers.kit import Domain

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


class Driver(
    vehicle.Table, prefix="DRV", people={"name": "name", "email": "email", "phone": "phone", "city": "city"}
):
    """A person with an account on the car service (a world person)."""

    __tablename__ = "drivers"
    id: Mapped[str] = mapped_column(primary_key=True)
    person_id: Mapped[int] = mapped_column(unique=True)
    name: Mapped[str]
    email: Mapped[str] = mapped_column(unique=True)
    phone: Mapped[str]
    city: Mapped[str]
    home_address: Mapped[str]


Session = vehicle.acting(Driver, "driver_id")


class Vehicle(vehicle.Table, prefix="VEH", hidden=("valet_pin",)):
    __tablename__ = "vehicles"
    # online / asleep cars in id order: most commands' cars are "mine and online", and the sampler
    # counts and pages them by id, so neither a sort nor a read of the wide rows to find the id
    __table_args__ = (Index("ix_vehicles_connectivity", "connectivity", "id"),)
    id: Mapped[str] = mapped_column(primary_key=True)
    vin: Mapped[str] = mapped_column(unique=True)
    make: Mapped[str]
    model: Mapped[str]
    year: Mapped[int]
    nickname: Mapped[str] = mapped_column(index=True)  # how people name a car ("Dana's Model 3")
    color: Mapped[str]
    fleet: Mapped[str | None]
    powertrain: Mapped[str]
    units: Mapped[str]  # metric | imperial
    connectivity: Mapped[str]  # online | asleep | offline
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


class VehicleAccess(vehicle.Table, prefix="VAC", noun="digital key"):
    """A key: who may use which car, as owner, fleet manager or driver."""

    __tablename__ = "vehicle_access"
    __table_args__ = (
        UniqueConstraint("vehicle_id", "driver_id"),
        # list_vehicles: the keys a driver holds in some roles, without reading the key rows
        Index("ix_vehicle_access_keys", "driver_id", "role", "vehicle_id"),
    )
    id: Mapped[str] = mapped_column(primary_key=True)
    vehicle_id: Mapped[str] = mapped_column(ForeignKey("vehicles.id"), index=True)
    driver_id: Mapped[str] = mapped_column(ForeignKey("drivers.id"))
    role: Mapped[str]  # owner | fleet_manager | driver
    granted_at: Mapped[str]


class Trip(vehicle.Table, prefix="TRP"):
    __tablename__ = "trips"
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


class ServiceCenter(vehicle.Table, prefix="SVC"):
    __tablename__ = "service_centers"
    id: Mapped[str] = mapped_column(primary_key=True)
    name: Mapped[str]
    city: Mapped[str]
    address: Mapped[str]
    lat: Mapped[float]
    lon: Mapped[float]
    services: Mapped[str]  # comma list of tires, battery, general, glass
    phone: Mapped[str]


class Alert(vehicle.Table, prefix="ALR", append_only=True, mutable=("cleared", "cleared_at")):
    __tablename__ = "alerts"
    id: Mapped[str] = mapped_column(primary_key=True)
    vehicle_id: Mapped[str] = mapped_column(ForeignKey("vehicles.id"), index=True)
    code: Mapped[str]
    message: Mapped[str]
    at: Mapped[str]
    cleared: Mapped[bool]
    cleared_at: Mapped[str | None]


class CommandLog(vehicle.Table, prefix="CMD", noun="command", append_only=True):
    """One command the service carried out on a car (refused commands leave no row)."""

    __tablename__ = "command_log"
    id: Mapped[str] = mapped_column(primary_key=True)
    vehicle_id: Mapped[str] = mapped_column(ForeignKey("vehicles.id"), index=True)
    driver_id: Mapped[str] = mapped_column(ForeignKey("drivers.id"))
    command: Mapped[str]
    detail: Mapped[str]
    at: Mapped[str]


TIRE_NAMES = {"fl": "front left", "fr": "front right", "rl": "rear left", "rr": "rear right"}
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
