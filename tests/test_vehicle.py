"""Vehicle's interlocks and rules: refused commands name every blocking condition and change
nothing; successful ones change exactly the right rows and append one command_log row each."""

from __future__ import annotations

import pytest

from servers.domains.vehicle.rules import MINE
from servers.kit import geo, world
from servers.registry import get_domain
from tests.domain_helpers import DomainCalls, changes

DOMAIN = "vehicle"
calls = DomainCalls(DOMAIN)
call, fails, rows, one = calls.call, calls.fails, calls.rows, calls.one
DISCOVERY = {"list_records", "search_records", "get_unique_values"}
EV, ICE, SHARED = "VEH-000001", "VEH-000002", "VEH-000003"  # the persona's cars


@pytest.fixture
def car(make_env):
    env = make_env("vehicle")
    return env, env.open()


def pick(ep, where: str) -> dict:
    """One of the persona's cars (not her three personal ones) matching a condition."""
    return one(ep, f"SELECT * FROM vehicles WHERE {MINE} AND id > '{SHARED}' AND {where} ORDER BY id")


def logged(ep) -> list[dict]:
    """command_log rows this episode added (the log only ever grows)."""
    pks = sorted({c["pk"] for c in ep.diff() if c["table"] == "command_log"})
    return [one(ep, "SELECT * FROM command_log WHERE id = ?", pk) for pk in pks]


# -- the catalogue ---------------------------------------------------------------------------------


def test_enough_tools_each_with_two_ways_to_ask():
    domain = get_domain("vehicle")
    own = [t for name, t in domain.tools.items() if name not in DISCOVERY]
    assert len(own) >= 25
    assert all(len(spec.says) >= 2 for spec in own), [s.name for s in own if len(s.says) < 2]
    doors = domain.tools["lock_doors"].input_schema()["properties"]["doors"]
    assert (
        doors["type"] == "array" and "all" in doors["items"]["enum"] and "rear_left" in doors["items"]["enum"]
    )
    assert domain.append_only() == {
        "command_log": frozenset(),
        "alerts": frozenset({"cleared", "cleared_at"}),
    }
    assert domain.tools["revoke_digital_key"].annotations()["destructiveHint"]
    assert domain.tools["set_valet_mode"].params[-1].sensitive


def test_sampler_pools_at_medium(medium):
    def count(where: str) -> int:
        return medium.execute(f"SELECT count(*) FROM vehicles WHERE {MINE} AND {where}").fetchone()[0]

    assert count("connectivity = 'online'") >= 300
    assert count("connectivity = 'asleep'") >= 200
    assert (
        count(
            "connectivity = 'online' AND powertrain IN ('ice', 'hybrid') AND ignition != 'running' "
            "AND gear = 'P' AND fuel_l < tank_l - 5"
        )
        >= 250
    )
    assert count("connectivity = 'online' AND charging = 'plugged' AND battery_pct < charge_limit_pct") >= 120
    low = " OR ".join(f"tire_{t} < tire_recommended * 0.9" for t in ("fl", "fr", "rl", "rr"))
    assert count(f"({low})") >= 40
    assert count("connectivity = 'offline'") > 0
    assert count("connectivity = 'online' AND ignition = 'running' AND gear = 'D' AND cruise_on = 1") > 0
    assert medium.execute("SELECT count(*) FROM trips").fetchone()[0] >= 10_000
    assert medium.execute("SELECT count(*) FROM service_centers").fetchone()[0] == 80
    no_key = f"SELECT count(*) FROM vehicles WHERE NOT ({MINE})"
    assert medium.execute(no_key).fetchone()[0] > 0


def test_key_conditions_are_the_keys_the_signed_in_driver_holds(medium):
    """MINE / HELD / MyAlert pick exactly the cars (and open alerts) the driver's keys open."""
    from servers.domains.vehicle.rules import HELD, MyAlert

    def ids(sql: str) -> set[str]:
        return {r[0] for r in medium.execute(sql)}

    keys = "SELECT vehicle_id FROM vehicle_access WHERE driver_id = (SELECT driver_id FROM sessions)"
    assert ids(f"SELECT id FROM vehicles WHERE {MINE}") == ids(keys)
    held = ids(f"{keys} AND role IN ('owner', 'fleet_manager')")
    assert ids(f"SELECT id FROM vehicles WHERE {HELD}") == held and held < ids(keys)
    alert_rule = "cleared = 0 AND code NOT LIKE 'LOW_%' AND code != 'DOOR_AJAR'"
    mine = ids(f"SELECT id FROM alerts WHERE {alert_rule} AND vehicle_id IN ({keys})")
    assert mine and ids(f"SELECT id FROM alerts WHERE {MyAlert.__metadata__[0].where}") == mine


def test_persona_is_the_world_persona_with_two_cars_and_a_shared_one(car):
    env, ep = car
    me = world(0, "small").persona
    d = one(ep, "SELECT * FROM drivers WHERE id = (SELECT driver_id FROM sessions)")
    assert (d["name"], d["email"], d["phone"], d["city"]) == (me.name, me.email, me.phone, me.city)
    assert geo.geocode(d["home_address"]) is not None
    mine = call(env, ep, "list_vehicles")
    assert [(v["id"], v["role"]) for v in mine["vehicles"]] == [
        (EV, "owner"),
        (ICE, "owner"),
        (SHARED, "driver"),
    ]
    assert {"nickname", "make", "model", "connectivity", "powertrain"} <= set(mine["vehicles"][0])
    fleet = call(env, ep, "list_vehicles", scope="fleet", connectivity="online", limit=5)
    assert fleet["total"] > 5 and fleet["truncated"]
    assert all(v["role"] == "fleet_manager" and v["connectivity"] == "online" for v in fleet["vehicles"])


# -- the start chain and its interlock ----------------------------------------------------------


def test_list_lock_brake_start_chain(car):
    env, ep = car
    err = fails(env, ep, "start_engine", "cannot start", vehicle=ICE)
    assert "doors rear_left, rear_right are unlocked" in err and "brake pedal at 0%" in err
    call(env, ep, "lock_doors", vehicle=ICE, doors=["all"])
    err = fails(env, ep, "start_engine", "brake pedal at 0%", vehicle=ICE)
    assert "unlocked" not in err
    call(env, ep, "press_brake_pedal", vehicle=ICE, position_pct=100)
    out = call(env, ep, "start_engine", vehicle=ICE)
    assert out["ignition"] == "running"
    c = changes(ep)
    assert c[("vehicles", ICE, "door_rear_left")]["new"] == "locked"
    assert c[("vehicles", ICE, "door_rear_right")]["new"] == "locked"
    assert c[("vehicles", ICE, "brake_pedal_pct")]["new"] == 100
    assert c[("vehicles", ICE, "ignition")]["new"] == "running"
    assert {k for k in c if k[0] == "vehicles"} == {
        ("vehicles", ICE, col) for col in ("door_rear_left", "door_rear_right", "brake_pedal_pct", "ignition")
    }
    assert [r["command"] for r in logged(ep)] == ["lock_doors", "press_brake_pedal", "start_engine"]
    assert all(r["driver_id"] == "DRV-000001" and r["vehicle_id"] == ICE for r in logged(ep))
    fails(env, ep, "start_engine", "already running", vehicle=ICE)


def test_start_names_every_blocking_condition(car):
    env, ep = car
    v = pick(
        ep,
        "connectivity = 'online' AND ignition = 'off' AND gear = 'P' AND speed = 0 "
        "AND door_driver = 'locked'",
    )
    call(env, ep, "unlock_doors", vehicle=v["id"], doors=["driver"])
    call(env, ep, "press_brake_pedal", vehicle=v["id"], position_pct=60)
    call(env, ep, "shift_gear", vehicle=v["id"], gear="N")
    err = fails(env, ep, "start_engine", "cannot start", vehicle=v["id"])
    assert "doors driver is unlocked" in err and "brake pedal at 60%" in err and "gear is N, not P" in err
    empty = pick(ep, "connectivity = 'online' AND powertrain = 'ice' AND fuel_l = 0")
    call(env, ep, "press_brake_pedal", vehicle=empty["id"])
    call(env, ep, "lock_doors", vehicle=empty["id"], doors=["all"])
    fails(env, ep, "start_engine", "fuel tank is empty", vehicle=empty["id"])


def test_open_door_cannot_be_locked_and_blocks_start(car):
    env, ep = car
    v = pick(
        ep,
        "connectivity = 'online' AND 'open' IN "
        "(door_driver, door_passenger, door_rear_left, door_rear_right)",
    )
    door = next(d for d in ("driver", "passenger", "rear_left", "rear_right") if v[f"door_{d}"] == "open")
    fails(env, ep, "lock_doors", f"door {door} is open", vehicle=v["id"], doors=["all"])
    fails(env, ep, "start_engine", f"doors {door} is open", vehicle=v["id"])


def test_moving_car_cannot_unlock_park_or_stop(car):
    env, ep = car
    v = pick(ep, "connectivity = 'online' AND speed > 0 AND gear = 'D'")
    unit = "mph" if v["units"] == "imperial" else "km/h"
    fails(env, ep, "unlock_doors", f"moving at {v['speed']} {unit}", vehicle=v["id"], doors=["all"])
    call(env, ep, "press_brake_pedal", vehicle=v["id"])
    fails(env, ep, "shift_gear", f"moving at {v['speed']} {unit}", vehicle=v["id"], gear="P")
    err = fails(env, ep, "stop_engine", "cannot stop", vehicle=v["id"])
    assert f"moving at {v['speed']} {unit}" in err and "gear is D, not P" in err
    fails(env, ep, "set_parking_brake", "stop the car first", vehicle=v["id"], engage=True)


def test_shift_gear_needs_brake_engine_and_released_parking_brake(car):
    env, ep = car
    err = fails(env, ep, "shift_gear", "cannot shift", vehicle=ICE, gear="D")
    assert "brake pedal at 0%" in err and "engine is not running" in err and "parking brake is engaged" in err
    for step in (("lock_doors", {"doors": ["all"]}), ("press_brake_pedal", {}), ("start_engine", {})):
        call(env, ep, step[0], vehicle=ICE, **step[1])
    fails(env, ep, "shift_gear", "parking brake is engaged", vehicle=ICE, gear="D")
    call(env, ep, "set_parking_brake", vehicle=ICE, engage=False)
    assert call(env, ep, "shift_gear", vehicle=ICE, gear="D")["gear"] == "D"
    fails(env, ep, "stop_engine", "gear is D, not P", vehicle=ICE)


# -- connectivity and access ---------------------------------------------------------------------


def test_asleep_car_must_be_woken_and_status_is_stale(car):
    env, ep = car
    fails(env, ep, "lock_doors", "asleep; wake it first", vehicle=EV, doors=["all"])
    fails(env, ep, "check_tire_pressure", "asleep", vehicle=EV)
    status = call(env, ep, "get_vehicle_status", vehicle=EV, section="energy")
    assert (
        status["stale"]
        and status["energy"]["battery_pct"] == 60
        and status["energy"]["charging"] == "plugged"
    )
    assert set(status) >= {"energy"} and "doors" not in status
    out = call(env, ep, "wake_vehicle", vehicle=EV)
    assert out["was"] == "asleep" and out["connectivity"] == "online"
    assert changes(ep)[("vehicles", EV, "connectivity")]["new"] == "online"
    assert not call(env, ep, "get_vehicle_status", vehicle=EV)["stale"]
    call(env, ep, "start_charging", vehicle=EV)
    assert [r["command"] for r in logged(ep)] == ["wake_vehicle", "start_charging"]


def test_offline_car_is_unreachable(car):
    env, ep = car
    v = pick(ep, "connectivity = 'offline'")
    fails(env, ep, "wake_vehicle", "unreachable", vehicle=v["id"])
    fails(
        env,
        ep,
        "press_brake_pedal",
        f"unreachable \\(no connectivity since {v['last_seen']}",
        vehicle=v["id"],
    )
    assert call(env, ep, "get_vehicle_status", vehicle=v["id"])["stale"]


def test_no_key_no_commands(car):
    env, ep = car
    v = one(ep, f"SELECT * FROM vehicles WHERE NOT ({MINE}) AND connectivity = 'online' ORDER BY id")
    fails(env, ep, "lock_doors", "you have no key", vehicle=v["id"], doors=["all"])
    fails(env, ep, "get_vehicle_status", "you have no key", vehicle=v["id"])
    fails(env, ep, "get_vehicle_status", "does not exist", vehicle="VEH-999999")


def test_drivers_cannot_do_owner_actions(car):
    env, ep = car
    fails(env, ep, "set_valet_mode", "only the owner or fleet manager", vehicle=SHARED, on=True, pin="4821")
    fails(env, ep, "set_charge_limit", "above 90%", vehicle=SHARED, percent=95)
    fails(env, ep, "share_digital_key", "only the owner", vehicle=SHARED, email="someone@x.example")
    fails(env, ep, "revoke_digital_key", "only the owner", vehicle=SHARED, email="someone@x.example")
    call(env, ep, "set_charge_limit", vehicle=SHARED, percent=85)  # drivers may set 50-90
    assert changes(ep)[("vehicles", SHARED, "charge_limit_pct")]["new"] == 85
    call(env, ep, "set_climate", vehicle=SHARED, on=True)  # comfort features are fine


# -- cruise, climate, lights -----------------------------------------------------------------------


def test_cruise_control_rules(car):
    env, ep = car
    parked = pick(ep, "connectivity = 'online' AND ignition = 'off'")
    err = fails(
        env, ep, "set_cruise_control", "cannot set cruise", vehicle=parked["id"], activate=True, speed=63
    )
    assert "engine is not running" in err and "gear is P, not D" in err and "multiple of 5" in err
    v = pick(ep, "connectivity = 'online' AND ignition = 'running' AND gear = 'D' AND cruise_on = 0")
    unit = "mph" if v["units"] == "imperial" else "km/h"
    fails(env, ep, "set_cruise_control", f"speed 130 {unit} must be a multiple of 5 from 20 to 120 {unit}",
          vehicle=v["id"], activate=True, speed=130)  # fmt: skip
    fails(env, ep, "set_cruise_control", "following distance 10 m must be 20-200 m",
          vehicle=v["id"], activate=True, speed=60, follow_distance_m=10)  # fmt: skip
    fails(env, ep, "set_cruise_control", "no speed given", vehicle=v["id"], activate=True)
    out = call(env, ep, "set_cruise_control", vehicle=v["id"], activate=True, speed=55, follow_distance_m=80)
    assert out["speed_unit"] == unit
    c = changes(ep)
    assert (
        c[("vehicles", v["id"], "cruise_on")]["new"] == 1
        and c[("vehicles", v["id"], "cruise_speed")]["new"] == 55
    )
    call(env, ep, "set_cruise_control", vehicle=v["id"], activate=False)
    assert ("vehicles", v["id"], "cruise_on") not in changes(ep)  # back to how it was


def test_climate_units_and_energy_rules(car):
    env, ep = car
    fails(env, ep, "set_climate", "needs the engine running", vehicle=ICE, on=True)
    fails(env, ep, "set_climate", "90 °F is out of range: the target must be 60-86 °F \\(16-30 °C\\)",
          vehicle=SHARED, temperature=90)  # fmt: skip
    fails(env, ep, "set_climate", "nothing to change", vehicle=SHARED)
    out = call(env, ep, "set_climate", vehicle=SHARED, on=True, temperature=72)  # imperial: °F
    assert out["target_temperature"] == 72 and out["temperature_unit"] == "°F"
    assert changes(ep)[("vehicles", SHARED, "target_temp_c")]["new"] == 22.2
    metric = pick(
        ep, "connectivity = 'online' AND units = 'metric' AND powertrain = 'ev' AND battery_pct >= 10"
    )
    out = call(env, ep, "set_climate", vehicle=metric["id"], on=True, temperature=70, unit="fahrenheit")
    assert out["temperature_unit"] == "°C" and out["target_temperature"] == 21.1
    low = pick(
        ep, "connectivity = 'online' AND powertrain = 'ev' AND battery_pct < 10 AND ignition != 'running'"
    )
    fails(env, ep, "set_climate", "climate needs at least 10%", vehicle=low["id"], on=True)


def test_seat_heater_needs_climate(car):
    env, ep = car
    fails(env, ep, "set_seat_heater", "need the climate on", vehicle=SHARED, seat="driver", level=2)
    call(env, ep, "set_climate", vehicle=SHARED, on=True)
    call(env, ep, "set_seat_heater", vehicle=SHARED, seat="driver", level=2)
    assert changes(ep)[("vehicles", SHARED, "seat_heat_driver")]["new"] == 2
    call(env, ep, "set_headlights", vehicle=SHARED, mode="on")
    assert changes(ep)[("vehicles", SHARED, "headlights")]["new"] == "on"


# -- fuel and charging --------------------------------------------------------------------------------


def test_refuel_rules_and_units(car):
    env, ep = car
    fails(
        env,
        ep,
        "refuel",
        "electric and has no fuel tank",
        vehicle=pick(ep, "connectivity = 'online' AND powertrain = 'ev'")["id"],
    )
    # the persona's Outback: 70 L tank with 28 L in it, imperial (gallons)
    err = fails(env, ep, "refuel", "would overfill the tank", vehicle=ICE, amount=12)
    assert "holds 18.49 gallons" in err and "7.40 in it" in err and "at most 11.10 gallons" in err
    out = call(env, ep, "refuel", vehicle=ICE, amount=2)
    assert out["added"] == 2 and out["fuel_unit"] == "gal"
    assert changes(ep)[("vehicles", ICE, "fuel_l")]["new"] == round(28 + 2 * 3.785411784, 2)
    call(env, ep, "refuel", vehicle=ICE)  # fill up
    assert changes(ep)[("vehicles", ICE, "fuel_l")]["new"] == 70
    fails(env, ep, "refuel", "already full", vehicle=ICE)
    running = pick(
        ep, "connectivity = 'online' AND powertrain = 'ice' AND ignition = 'running' AND gear = 'D'"
    )
    err = fails(env, ep, "refuel", "cannot refuel", vehicle=running["id"], amount=1, unit="liters")
    assert "engine is running" in err and "gear is D, not P" in err


def test_charging_rules(car):
    env, ep = car
    call(env, ep, "wake_vehicle", vehicle=EV)
    fails(env, ep, "set_charge_limit", "greater than or equal to 50", vehicle=EV, percent=40)
    fails(env, ep, "start_charging", "combustion engine", vehicle=ICE)
    fails(env, ep, "stop_charging", "is not charging", vehicle=EV)
    call(env, ep, "set_charge_limit", vehicle=EV, percent=55)  # owners may set any limit
    fails(env, ep, "start_charging", "already at its charge limit: battery 60%, limit 55%", vehicle=EV)
    call(env, ep, "set_charge_limit", vehicle=EV, percent=95)
    assert call(env, ep, "start_charging", vehicle=EV)["charging"] == "charging"
    fails(env, ep, "start_charging", "already charging", vehicle=EV)
    call(env, ep, "stop_charging", vehicle=EV)
    assert ("vehicles", EV, "charging") not in changes(ep)  # plugged -> charging -> plugged
    unplugged = pick(ep, "connectivity = 'online' AND powertrain = 'ev' AND charging = 'disconnected'")
    fails(env, ep, "start_charging", "not plugged in", vehicle=unplugged["id"])


# -- tires, service, navigation --------------------------------------------------------------------


def test_tire_pressure_in_the_cars_unit(car):
    env, ep = car
    out = call(env, ep, "check_tire_pressure", vehicle=ICE)
    assert out["pressure_unit"] == "psi" and out["pressures"]["rear_left"] == 27 and out["recommended"] == 35
    assert out["low_tires"] == ["rear_left"] and not out["healthy"] and "find_service_center" in out["hint"]
    metric = pick(ep, "connectivity = 'online' AND units = 'metric'")
    m = call(env, ep, "check_tire_pressure", vehicle=metric["id"])
    assert m["pressure_unit"] == "kPa" and m["recommended"] == round(metric["tire_recommended"] * 6.894757)
    shops = call(env, ep, "find_service_center", vehicle=ICE, service="tires")
    assert shops["centers"] and all("tires" in c["services"].split(",") for c in shops["centers"])
    distances = [c["distance"] for c in shops["centers"]]
    assert distances == sorted(distances) and shops["distance_unit"] == "mi"
    assert ep.diff() == []


def test_navigation_geocodes_shared_addresses(car):
    env, ep = car
    out = call(env, ep, "set_navigation", vehicle=ICE, destination="14 Elm St, Portland")
    where = geo.geocode("14 Elm St, Portland")
    c = changes(ep)
    assert c[("vehicles", ICE, "nav_destination")]["new"] == "14 Elm St, Portland"
    assert c[("vehicles", ICE, "nav_lat")]["new"] == where.lat
    assert out["distance_unit"] == "mi" and out["feasible"]
    fails(
        env,
        ep,
        "set_navigation",
        "cannot find '1 Nowhere Rd, Atlantis'",
        vehicle=ICE,
        destination="1 Nowhere Rd, Atlantis",
    )
    fails(env, ep, "set_navigation", "no road route from Portland", vehicle=ICE, destination="Tokyo")
    shop = call(env, ep, "find_service_center", vehicle=ICE, service="tires", limit=1)["centers"][0]
    out = call(env, ep, "set_navigation", vehicle=ICE, destination=shop["id"])
    assert out["destination"].startswith(shop["name"])
    assert call(env, ep, "set_navigation", vehicle=ICE, destination="home")["distance"] < 1


def test_estimate_trip_feasibility(car):
    env, ep = car
    # Outback: 28 L at 8.7 L/100 km = 321.8 km = 200.0 miles of range
    short = call(env, ep, "estimate_trip", vehicle=ICE, distance=150)
    assert short["feasible"] and short["range"] == 200.0 and short["margin"] == 50.0
    far = call(env, ep, "estimate_trip", vehicle=ICE, distance=400, unit="km")
    assert not far["feasible"] and far["distance"] == round(400 / 1.609344, 1)
    seattle = call(env, ep, "estimate_trip", vehicle=ICE, destination="Seattle")
    assert seattle["feasible"] and 150 < seattle["distance"] < 200 and seattle["duration_min"] > 60
    denver = call(env, ep, "estimate_trip", vehicle=ICE, destination="Denver")
    assert not denver["feasible"] and denver["margin"] < 0
    fails(env, ep, "estimate_trip", "either a destination or a distance", vehicle=ICE)
    assert ep.diff() == []


# -- valet, keys, alerts, history --------------------------------------------------------------------


def test_valet_mode_pin(car):
    env, ep = car
    fails(env, ep, "set_valet_mode", "valet mode is not on", vehicle=ICE, on=False, pin="1234")
    call(env, ep, "set_valet_mode", vehicle=ICE, on=True, pin="4821")
    fails(env, ep, "set_valet_mode", "already on", vehicle=ICE, on=True, pin="4821")
    fails(env, ep, "set_valet_mode", "PIN given .* is not correct", vehicle=ICE, on=False, pin="1111")
    call(env, ep, "set_valet_mode", vehicle=ICE, on=False, pin="4821")
    assert ("vehicles", ICE, "valet_mode") not in changes(ep)
    assert "valet_pin" not in call(env, ep, "get_vehicle_status", vehicle=ICE)["engine"]


def test_digital_keys(car):
    env, ep = car
    stranger = one(
        ep,
        "SELECT * FROM drivers WHERE id NOT IN (SELECT driver_id FROM vehicle_access WHERE vehicle_id = ?) "
        "ORDER BY id",
        ICE,
    )
    fails(
        env,
        ep,
        "share_digital_key",
        "no driver account has the email",
        vehicle=ICE,
        email="nobody@nowhere.example",
    )
    key = call(env, ep, "share_digital_key", vehicle=ICE, email=stranger["email"])
    assert key["role"] == "driver" and key["driver_id"] == stranger["id"]
    fails(env, ep, "share_digital_key", "already holds a key", vehicle=ICE, email=stranger["email"])
    me = one(ep, "SELECT email FROM drivers WHERE id = 'DRV-000001'")["email"]
    fails(env, ep, "revoke_digital_key", "is the owner", vehicle=ICE, email=me)
    call(env, ep, "revoke_digital_key", vehicle=ICE, email=stranger["email"])
    assert [r["command"] for r in logged(ep)] == ["share_digital_key", "revoke_digital_key"]
    assert not [c for c in ep.diff() if c["table"] == "vehicle_access"]  # inserted then deleted
    full = one(
        ep,
        "SELECT vehicle_id AS id FROM vehicle_access WHERE role = 'driver' AND vehicle_id IN "
        f"(SELECT id FROM vehicles WHERE {MINE}) GROUP BY vehicle_id HAVING count(*) = 5",
    )
    fails(
        env,
        ep,
        "share_digital_key",
        "already has 5 drivers, the most allowed is 5",
        vehicle=full["id"],
        email=stranger["email"],
    )
    keys = call(env, ep, "list_digital_keys", vehicle=full["id"])
    assert keys["drivers"] == 5 and {k["role"] for k in keys["keys"]} == {"driver", "fleet_manager"}


def test_alerts_clear_only_when_fixed(car):
    env, ep = car
    alerts = call(env, ep, "list_alerts", vehicle=ICE)["alerts"]
    tire = next(a for a in alerts if a["code"] == "LOW_TIRE_RL")
    fails(
        env, ep, "clear_alert", "LOW_TIRE_RL.*cannot be cleared: the condition still holds", alert=tire["id"]
    )
    ok = one(
        ep,
        "SELECT * FROM alerts WHERE cleared = 0 AND code = 'SERVICE_DUE' AND vehicle_id IN "
        f"(SELECT id FROM vehicles WHERE {MINE}) ORDER BY id",
    )
    call(env, ep, "clear_alert", alert=ok["id"])
    assert {(c["table"], c["column"]) for c in ep.diff()} == {("alerts", "cleared"), ("alerts", "cleared_at")}
    fails(env, ep, "clear_alert", "already cleared", alert=ok["id"])


def test_refused_commands_leave_no_log_and_history_reads(car):
    env, ep = car
    before = call(env, ep, "list_commands", vehicle=ICE)["total"]
    fails(env, ep, "start_engine", "cannot start", vehicle=ICE)
    call(env, ep, "set_headlights", vehicle=ICE, mode="auto")
    history = call(env, ep, "list_commands", vehicle=ICE)
    assert history["total"] == before + 1 and history["commands"][0]["command"] == "set_headlights"
    trips = call(env, ep, "list_trips", vehicle=ICE, limit=3)
    assert (
        trips["distance_unit"] == "mi" and len(trips["trips"]) <= 3 and trips["total"] >= len(trips["trips"])
    )


def test_metric_status_uses_metric_units(car):
    env, ep = car
    v = pick(ep, "connectivity = 'online' AND units = 'metric' AND powertrain = 'ice'")
    s = call(env, ep, "get_vehicle_status", vehicle=v["id"])
    assert s["energy"]["fuel_unit"] == "L" and s["energy"]["fuel"] == round(v["fuel_l"], 1)
    assert s["engine"]["speed_unit"] == "km/h" and s["engine"]["odometer_unit"] == "km"
    assert s["climate"]["temperature_unit"] == "°C" and s["tires"]["pressure_unit"] == "kPa"
