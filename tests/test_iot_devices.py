"""iot_devices' rules: refused commands name the kind, setting or values that block them and change
nothing; successful ones change exactly the right rows and append one event each."""

from __future__ import annotations

import pytest

from servers.domains.iot_devices.rules import ACTING_HOMES, MY_HOMES
from servers.kit import marks, world
from servers.registry import get_domain
from tests.domain_helpers import DomainCalls, changes

DOMAIN = "iot_devices"
calls = DomainCalls(DOMAIN)
call, fails, rows, one = calls.call, calls.fails, calls.rows, calls.one
DISCOVERY = {"list_records", "search_records", "get_unique_values"}
MINE, FRIEND, CABIN = "HOM-000001", "HOM-000002", "HOM-000003"  # owner, member, guest
TRIGGERED = "HOM-000005"


@pytest.fixture
def home(make_env):
    env = make_env(DOMAIN)
    return env, env.open()


def dev(ep, name: str, home: str = MINE) -> dict:
    return one(ep, "SELECT * FROM devices WHERE home_id = ? AND name = ?", home, name)


def events(ep) -> list[dict]:
    """event_log rows this episode added (the log only ever grows)."""
    pks = sorted({c["pk"] for c in ep.diff() if c["table"] == "event_log"})
    return [one(ep, "SELECT * FROM event_log WHERE id = ?", pk) for pk in pks]


def alarm_code(ep, home: str) -> str:
    return one(ep, "SELECT alarm_code FROM homes WHERE id = ?", home)["alarm_code"]


def changed_rows(ep, table: str) -> set[str]:
    return {k[1] for k in changes(ep) if k[0] == table}


# -- the catalogue ---------------------------------------------------------------------------------


def test_tools_templates_markers_and_secrets():
    domain = get_domain(DOMAIN)
    own = [t for name, t in domain.tools.items() if name not in DISCOVERY]
    assert len(own) >= 29
    assert all(len(spec.says) >= 2 for spec in own), [s.name for s in own if len(s.says) < 2]
    assert domain.append_only() == {"readings": frozenset(), "event_log": frozenset()}
    assert domain.tools["revoke_lock_code"].annotations()["destructiveHint"]
    assert domain.tools["set_light"].annotations()["idempotentHint"]
    for tool, param in [("unlock_door", "code"), ("arm_alarm", "code"), ("disarm_alarm", "code"),
                        ("add_lock_code", "new_code")]:  # fmt: skip
        assert next(p for p in domain.tools[tool].params if p.name == param).sensitive, tool
    assert marks(domain.table("homes")).hidden == ("alarm_code",)
    assert marks(domain.table("lock_codes")).hidden == ("code",)
    assert marks(domain.table("devices")).hidden == ("owner_code",)


def test_discovery_never_shows_codes(home):
    env, ep = home
    homes = call(env, ep, "list_records", table="homes", limit=5)
    codes = call(env, ep, "list_records", table="lock_codes", limit=5)
    locks = call(env, ep, "list_records", table="devices", limit=50)
    assert "alarm_code" not in str(homes) and "'code'" not in str(codes) and "owner_code" not in str(locks)
    out = call(env, ep, "get_device", device=dev(ep, "Front door lock")["id"])
    assert "owner_code" not in out and out["supports"] == ["lock_door", "unlock_door", "add_lock_code"]


def test_sampler_pools_at_medium(medium):
    def count(sql: str) -> int:
        return medium.execute(sql).fetchone()[0]

    controllable = (
        "kind NOT IN ('contact_sensor', 'motion_sensor', 'temp_sensor', 'leak_sensor', 'smoke_detector')"
    )
    assert count(f"SELECT count(*) FROM devices WHERE online = 1 AND {controllable}") >= 3000
    assert (
        count(f"SELECT count(*) FROM devices WHERE online = 1 AND {controllable} AND home_id IN {MY_HOMES}")
        >= 2500
    )
    assert count("SELECT count(*) FROM devices WHERE online = 1 AND kind = 'thermostat'") >= 300
    with_codes = "SELECT count(DISTINCT device_id) FROM lock_codes"
    assert count(with_codes) >= 200
    armable = (
        f"SELECT count(*) FROM homes WHERE alarm_state = 'disarmed' AND id IN {ACTING_HOMES} AND EXISTS "
        "(SELECT 1 FROM devices p WHERE p.home_id = homes.id AND p.kind = 'alarm_panel' AND p.online = 1)"
    )
    assert count(armable) >= 100
    open_homes = (
        "SELECT count(DISTINCT home_id) FROM devices WHERE kind = 'contact_sensor' AND state = 'open'"
    )
    assert count(open_homes) >= 40
    assert count("SELECT count(*) FROM devices WHERE kind = 'lock' AND state = 'jammed'") == 2
    assert count("SELECT count(*) FROM homes WHERE alarm_state = 'triggered'") == 1
    assert count("SELECT count(*) FROM readings") >= 80_000
    assert count("SELECT count(*) FROM event_log") >= 25_000
    expired = count("SELECT count(*) FROM lock_codes WHERE valid_until < '2026-06-01'")
    assert 0.2 < expired / count("SELECT count(*) FROM lock_codes") < 0.4
    assert count("SELECT count(*) FROM automations WHERE enabled = 0") > 0


def test_persona_is_the_world_persona_with_her_homes(home):
    env, ep = home
    me = world(0, "small").persona
    u = one(ep, "SELECT * FROM users WHERE id = (SELECT user_id FROM sessions)")
    assert (u["name"], u["email"], u["city"]) == (me.name, me.email, me.city)
    mine = one(ep, "SELECT * FROM homes WHERE id = ?", MINE)
    assert mine["address"] == me.home.line and mine["timezone"] == "America/Los_Angeles"
    listed = call(env, ep, "list_homes", limit=3)["homes"]
    assert [(h["id"], h["role"]) for h in listed] == [(MINE, "owner"), (FRIEND, "member"), (CABIN, "guest")]
    assert call(env, ep, "get_current_time", home=MINE)["local_time"] == "2026-06-01T09:00"
    stranger = one(ep, f"SELECT id FROM homes WHERE id NOT IN {MY_HOMES}")["id"]
    fails(env, ep, "get_home", "not a resident", home=stranger)


# -- capabilities and availability ----------------------------------------------------------------


def test_an_action_the_kind_lacks_names_the_kind_and_what_it_supports(home):
    env, ep = home
    sensor = dev(ep, "Hallway motion sensor")
    err = fails(env, ep, "turn_on", "motion sensor", device=sensor["id"])
    assert "does not support turn_on" in err and "nothing but reading its state" in err
    lock = dev(ep, "Front door lock")
    err = fails(env, ep, "set_light", "is a lock", device=lock["id"], brightness_pct=50)
    assert "lock_door, unlock_door, add_lock_code" in err
    white = dev(ep, "Kitchen ceiling light")
    fails(env, ep, "set_light", "white-only bulb and cannot show blue", device=white["id"], color="blue")
    fails(env, ep, "set_light", "fixed 2700 K", device=white["id"], color_temp_k=4000)
    lamp = dev(ep, "Living room floor lamp")
    fails(
        env, ep, "set_light", "7000 K is outside the range.*2000-6500 K", device=lamp["id"], color_temp_k=7000
    )


def test_offline_devices_are_unavailable(home):
    env, ep = home
    porch = dev(ep, "Porch light")
    fails(env, ep, "turn_on", "'Porch light' .* is unavailable: it has been offline", device=porch["id"])


def test_turn_on_changes_the_device_and_logs_one_event(home):
    env, ep = home
    light = dev(ep, "Living room ceiling light")
    out = call(env, ep, "turn_on", device=light["id"])
    assert out["state"] == "on"
    c = changes(ep)
    assert {k for k in c if k[0] == "devices"} == {
        ("devices", light["id"], col) for col in ("state", "brightness_pct", "last_changed_at")
    }
    assert c[("devices", light["id"], "brightness_pct")]["new"] == 100
    assert c[("devices", light["id"], "last_changed_at")]["new"] == "2026-06-01T09:00:00"
    [e] = events(ep)
    assert (e["device_id"], e["user_id"], e["kind"], e["at"]) == (
        light["id"],
        "USR-000001",
        "actuation",
        "2026-06-01T09:00:00",
    )
    fails(env, ep, "turn_on", "already on", device=light["id"])
    call(env, ep, "set_light", device=light["id"], brightness_pct=0)
    assert dev(ep, "Living room ceiling light")["state"] == "off"


# -- thermostats ------------------------------------------------------------------------------------


def test_thermostat_ranges_modes_and_gaps(home):
    env, ep = home
    t = dev(ep, "Hallway thermostat")["id"]
    fails(
        env,
        ep,
        "set_thermostat",
        "has no dry mode; its modes: off, heat, cool, heat_cool, auto",
        device=t,
        hvac_mode="dry",
    )
    fails(env, ep, "set_thermostat", "target_temp 40 °C is outside the range.*7-35", device=t, target_temp=40)
    err = fails(
        env,
        ep,
        "set_thermostat",
        "at least 1.5° apart",
        device=t,
        hvac_mode="heat_cool",
        target_low=21,
        target_high=22,
    )
    assert "21" in err and "22" in err
    fails(
        env,
        ep,
        "set_thermostat",
        "heat_cool takes target_low and target_high",
        device=t,
        hvac_mode="heat_cool",
        target_temp=21,
    )
    fails(
        env, ep, "set_thermostat", "off mode, which has no target", device=t, hvac_mode="off", target_temp=21
    )
    out = call(env, ep, "set_thermostat", device=t, hvac_mode="heat_cool", target_low=19, target_high=24)
    assert (out["hvac_mode"], out["target_low"], out["target_high"], out["target_temp"]) == (
        "heat_cool",
        19,
        24,
        None,
    )
    assert len(events(ep)) == 1


def test_vacation_mode_blocks_comfort_targets_naming_the_setting(home):
    env, ep = home
    t = one(ep, "SELECT id FROM devices WHERE home_id = ? AND kind = 'thermostat' AND online = 1", FRIEND)[
        "id"
    ]
    err = fails(
        env,
        ep,
        "set_thermostat",
        "vacation mode, which allows only eco targets",
        device=t,
        hvac_mode="heat",
        target_temp=21,
    )
    assert "heating to 21 °C (at most 18)" in err and "set_home_mode" in err
    call(env, ep, "set_thermostat", device=t, hvac_mode="heat", target_temp=17)
    call(env, ep, "set_home_mode", home=FRIEND, mode="home")
    call(env, ep, "set_thermostat", device=t, target_temp=21)
    assert one(ep, "SELECT target_temp FROM devices WHERE id = ?", t)["target_temp"] == 21


# -- locks and codes ----------------------------------------------------------------------------------


def test_open_door_jam_and_low_battery_block_locking(home):
    env, ep = home
    garage = dev(ep, "Garage entry lock")
    fails(env, ep, "lock_door", "its door is open \\(sensor 'Garage entry sensor'", device=garage["id"])
    back = dev(ep, "Back door lock")
    fails(
        env,
        ep,
        "lock_door",
        "battery of 'Back door lock' .* is low \\(6%\\).*at least 10%",
        device=back["id"],
    )
    jammed = one(ep, "SELECT id FROM devices WHERE kind = 'lock' AND state = 'jammed'")["id"]
    fails(env, ep, "unlock_door", "is jammed", device=jammed)


def test_away_mode_makes_unlocking_need_a_code(home):
    env, ep = home
    front = dev(ep, "Front door lock")
    call(env, ep, "lock_door", device=front["id"])
    call(env, ep, "set_home_mode", home=MINE, mode="away")
    fails(
        env,
        ep,
        "unlock_door",
        "is in away mode, so unlocking 'Front door lock' .* needs a code",
        device=front["id"],
    )
    err = fails(env, ep, "unlock_door", "the code was rejected", device=front["id"], code="90817")
    assert front["owner_code"] not in err
    out = call(env, ep, "unlock_door", device=front["id"], code=front["owner_code"])
    assert out["state"] == "unlocked" and out["unlocked_with"] == "owner code"
    assert [e["kind"] for e in events(ep)] == ["actuation", "mode", "actuation"]
    assert changed_rows(ep, "homes") == {MINE}


def test_guest_codes_work_in_their_window_and_not_after(home):
    env, ep = home
    lock = one(
        ep,
        f"SELECT d.* FROM devices d WHERE d.kind = 'lock' AND d.state = 'locked' AND d.online = 1 "
        f"AND d.lock_code_required = 1 AND (d.battery_pct >= 10) AND d.home_id IN {ACTING_HOMES} "
        "AND d.home_id NOT IN (SELECT id FROM homes WHERE mode IN ('away', 'vacation')) ORDER BY d.id",
    )
    fails(
        env, ep, "unlock_door", "requires a code to unlock \\(lock_code_required is on\\)", device=lock["id"]
    )
    out = call(env, ep, "add_lock_code", device=lock["id"], label="Cleaner", new_code="480713",
               valid_until="2026-06-03T17:00")  # fmt: skip
    assert out["valid_until"] == "2026-06-03T17:00:00" and out["valid_from"].startswith("2026-06-01T")
    assert "code" not in out
    code_id = out["id"]
    fails(env, ep, "add_lock_code", "already has that code", device=lock["id"], label="Dup", new_code="480713",
          valid_until="2026-06-04T17:00")  # fmt: skip
    fails(env, ep, "add_lock_code", "must be after valid_from", device=lock["id"], label="X", new_code="551903",
          valid_from="2026-06-05T10:00", valid_until="2026-06-04T10:00")  # fmt: skip
    fails(env, ep, "add_lock_code", "already past", device=lock["id"], label="X", new_code="551903",
          valid_until="2026-05-30T10:00")  # fmt: skip
    out = call(env, ep, "unlock_door", device=lock["id"], code="480713")
    assert out["unlocked_with"] == "code 'Cleaner'"
    call(env, ep, "revoke_lock_code", lock_code=code_id)
    fails(env, ep, "revoke_lock_code", "already revoked", lock_code=code_id)
    assert one(ep, "SELECT enabled FROM lock_codes WHERE id = ?", code_id)["enabled"] == 0


def test_expired_codes_fail_and_members_cannot_manage_codes(home):
    env, ep = home
    expired = one(
        ep,
        "SELECT c.*, d.name FROM lock_codes c JOIN devices d ON d.id = c.device_id WHERE c.enabled = 1 "
        f"AND c.valid_until < '2026-05-31' AND d.state = 'locked' AND d.online = 1 AND d.battery_pct >= 10 "
        f"AND d.home_id IN {ACTING_HOMES} ORDER BY c.id",
    )
    err = fails(
        env,
        ep,
        "unlock_door",
        f"code '{expired['label']}' .* expired at",
        device=expired["device_id"],
        code=expired["code"],
    )
    assert expired["code"] not in err
    friend_lock = dev(ep, "Front door lock", FRIEND)
    fails(env, ep, "add_lock_code", "only an owner or admin .* manage lock codes", device=friend_lock["id"],
          label="Me", new_code="739104", valid_until="2026-06-05T12:00")  # fmt: skip
    cabin_lock = dev(ep, "Front door lock", CABIN)
    fails(
        env,
        ep,
        "unlock_door",
        "guests of .* may operate lights, fans, TVs and speakers only",
        device=cabin_lock["id"],
    )


# -- the alarm ----------------------------------------------------------------------------------------


def test_arming_away_lists_open_sensors_and_bypass_arms(home):
    env, ep = home
    code = alarm_code(ep, MINE)
    err = fails(env, ep, "arm_alarm", "cannot arm .* \\(away\\): 2 open", home=MINE, mode="away", code=code)
    assert "Living room window" in err and "Garage entry sensor" in err
    fails(
        env,
        ep,
        "arm_alarm",
        "wrong alarm code",
        home=MINE,
        mode="away",
        code="000000" if code != "000000" else "111111",
    )
    out = call(env, ep, "arm_alarm", home=MINE, mode="away", code=code, bypass_open_sensors=True)
    assert out["alarm_state"] == "armed_away" and out["bypassed"] == [
        "Living room window",
        "Garage entry sensor",
    ]
    fails(
        env,
        ep,
        "arm_alarm",
        "already armed \\(away\\)",
        home=MINE,
        mode="away",
        code=code,
        bypass_open_sensors=True,
    )
    garage = dev(ep, "Garage door")
    fails(
        env,
        ep,
        "set_cover_position",
        "is armed_away: the garage door stays closed",
        device=garage["id"],
        position_pct=100,
    )
    call(env, ep, "disarm_alarm", home=MINE, code=code)
    call(env, ep, "set_cover_position", device=garage["id"], position_pct=100)
    assert one(ep, "SELECT alarm_state FROM homes WHERE id = ?", MINE)["alarm_state"] == "disarmed"
    assert [e["kind"] for e in events(ep)] == ["alarm", "alarm", "actuation"]


def test_a_triggered_alarm_can_only_be_disarmed(home):
    env, ep = home
    code = alarm_code(ep, TRIGGERED)
    fails(
        env, ep, "arm_alarm", "is triggered; it can only be disarmed", home=TRIGGERED, mode="home", code=code
    )
    err = fails(
        env,
        ep,
        "disarm_alarm",
        "wrong alarm code",
        home=TRIGGERED,
        code="24680" if code != "24680" else "13579",
    )
    assert code not in err
    out = call(env, ep, "disarm_alarm", home=TRIGGERED, code=code)
    assert out["previous"] == "triggered"
    assert changed_rows(ep, "homes") == {TRIGGERED} and len(changed_rows(ep, "devices")) == 1
    fails(env, ep, "disarm_alarm", "already disarmed", home=TRIGGERED, code=code)


def test_guests_cannot_change_modes_but_may_switch_lights(home):
    env, ep = home
    fails(env, ep, "set_home_mode", "guests of .* may not change the home mode", home=CABIN, mode="away")
    fails(env, ep, "arm_alarm", "guests of .* may not arm the alarm", home=CABIN, mode="home", code="135790")
    light = one(
        ep,
        "SELECT id FROM devices WHERE home_id = ? AND kind = 'light' AND online = 1 AND state = 'off'",
        CABIN,
    )
    call(env, ep, "turn_on", device=light["id"])
    fails(env, ep, "set_home_mode", "already in home mode", home=MINE, mode="home")


# -- scenes and automations -----------------------------------------------------------------------


def test_a_scene_skips_what_a_setting_blocks_and_sets_the_rest(home):
    env, ep = home
    ids = [dev(ep, n)["id"] for n in ("Living room ceiling light", "Living room blinds", "Porch light")]
    fails(env, ep, "create_scene", "is a lock and cannot be in a scene", home=MINE, name="Evening",
          devices=[*ids, dev(ep, "Front door lock")["id"]])  # fmt: skip
    scene = call(env, ep, "create_scene", home=MINE, name="Evening", devices=ids)["id"]
    fails(
        env, ep, "create_scene", "already has a scene named 'evening'", home=MINE, name="evening", devices=ids
    )
    saved = rows(ep, "SELECT * FROM scene_actions WHERE scene_id = ? ORDER BY id", scene)
    assert [(a["device_id"], a["state"]) for a in saved] == [
        (ids[0], "off"),
        (ids[1], "closed"),
        (ids[2], "off"),
    ]
    # change the scene's targets so applying it has something to do
    call(env, ep, "turn_on", device=ids[0])
    out = call(env, ep, "activate_scene", scene=scene)
    assert out["applied"] == ["Living room ceiling light"]
    assert {s["name"]: s["reason"] for s in out["skipped"]} == {
        "Living room blinds": "battery at 5% is too low to move",
        "Porch light": "unavailable",
    }
    assert dev(ep, "Living room ceiling light")["state"] == "off"


def test_automations_need_one_trigger_and_a_matching_state(home):
    env, ep = home
    scene = one(ep, "SELECT id FROM scenes WHERE home_id = ? ORDER BY id", MINE)["id"]
    window = dev(ep, "Living room window")["id"]
    light = dev(ep, "Hallway light")["id"]
    fails(env, ep, "create_automation", "exactly one trigger.*got trigger_time, trigger_mode", home=MINE,
          name="Two", trigger_time="07:00", trigger_mode="away", action_scene=scene)  # fmt: skip
    fails(env, ep, "create_automation", "contact sensor trigger waits for one of: open, closed \\(got 'wet'\\)",
          home=MINE, name="Bad", trigger_device=window, trigger_state="wet", action_device=light,
          action_state="on")  # fmt: skip
    other_scene = one(ep, "SELECT id FROM scenes WHERE home_id != ? ORDER BY id", MINE)["id"]
    fails(
        env,
        ep,
        "create_automation",
        "is not in home",
        home=MINE,
        name="X",
        trigger_time="07:00",
        action_scene=other_scene,
    )
    out = call(env, ep, "create_automation", home=MINE, name="Window light", trigger_device=window,
               trigger_state="open", condition_mode="night", action_device=light, action_state="on")  # fmt: skip
    row = one(ep, "SELECT * FROM automations WHERE id = ?", out["id"])
    assert (row["trigger_kind"], row["trigger_value"], row["condition_mode"], row["enabled"]) == (
        "device_state", "open", "night", 1,
    )  # fmt: skip
    fails(env, ep, "create_automation", "already has an automation named", home=MINE, name="window light",
          trigger_time="07:00", action_scene=scene)  # fmt: skip
    fails(env, ep, "create_automation", "only an owner or admin", home=FRIEND, name="Mine", trigger_time="07:00",
          action_scene=scene)  # fmt: skip
    fails(env, ep, "set_automation_enabled", "already enabled", automation=out["id"], enabled=True)
    call(env, ep, "set_automation_enabled", automation=out["id"], enabled=False)
    assert one(ep, "SELECT enabled FROM automations WHERE id = ?", out["id"])["enabled"] == 0


# -- history -------------------------------------------------------------------------------------------


def test_sensor_history_and_energy_use(home):
    env, ep = home
    t = dev(ep, "Hallway thermostat")["id"]
    out = call(env, ep, "get_sensor_history", device=t, hours=6)
    assert out["metric"] == "temperature" and len(out["readings"]) == 6
    assert out["min"] <= out["average"] <= out["max"]
    fails(
        env,
        ep,
        "get_sensor_history",
        "does not report power_w; it reports: .*temperature",
        device=t,
        metric="power_w",
    )
    energy = call(env, ep, "get_energy_usage", home=MINE, period="yesterday", group_by="room")
    assert energy["total_kwh"] > 0 and energy["from"] == "2026-05-31T00:00"
    assert abs(sum(u["kwh"] for u in energy["usage"]) - energy["total_kwh"]) < 0.01
    log = call(env, ep, "get_event_log", home=MINE, kind="lock", limit=5)
    assert log["events"] and all(e["kind"] == "lock" for e in log["events"])


def test_vacation_armed_variant(make_env):
    env = make_env(DOMAIN)
    ep = env.open(variants={DOMAIN: "vacation_armed"})
    h = one(ep, "SELECT mode, alarm_state FROM homes WHERE id = ?", MINE)
    assert (h["mode"], h["alarm_state"]) == ("vacation", "armed_vacation")
    front = dev(ep, "Front door lock")
    fails(env, ep, "unlock_door", "vacation mode, so unlocking", device=front["id"])
    call(env, ep, "disarm_alarm", home=MINE, code=alarm_code(ep, MINE))
