"""The seeded homes: users, residents, rooms and devices in every situation; the variant."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from servers.domains.iot_devices import catalog
from servers.domains.iot_devices.model import (
    Device,
    Home,
    Resident,
    Room,
    Session,
    User,
    iot_devices,
)
from servers.domains.iot_devices.seed_history import seed_history
from servers.kit import Db, Person, Seeder, geo
from servers.kit.db import format_id

UTC = ZoneInfo("UTC")


def _local(s: Seeder, tz: str) -> datetime:
    return s.now.replace(tzinfo=UTC).astimezone(ZoneInfo(tz)).replace(tzinfo=None)


def _code(s: Seeder, digits: int) -> str:
    """A PIN nobody would guess (no repeated or running digits)."""
    while True:
        code = "".join(str(s.rng.randrange(10)) for _ in range(digits))
        steps = {int(b) - int(a) for a, b in zip(code, code[1:], strict=False)}
        if len(set(code)) > 2 and steps not in ({1}, {-1}, {0}):
            return code


@iot_devices.seed
def fill(s: Seeder) -> None:
    persona = s.world.persona
    n_homes = s.count(small=12, medium=150, large=500)
    circle = s.world.circle(persona, 40)
    people = [persona, *circle, *s.world.pick_people(n_homes * 3, offset=200)]
    people = list({p.index: p for p in people}.values())
    users = [
        {
            "id": format_id("USR", i + 1),
            "person_id": p.index,
            "name": p.name,
            "email": p.email,
            "phone": p.phone,
            "city": p.city,
        }
        for i, p in enumerate(people)
    ]
    s.add(User, users)
    s.add(Session, [{"id": "SES-000001", "user_id": users[0]["id"]}])
    homes, residents = _seed_homes(s, people, users, n_homes)
    s.add(Home, homes)
    s.add(Resident, residents)
    rooms, devices = _seed_rooms_and_devices(s, homes)
    s.add(Room, rooms)
    # a lock points at its door sensor, which may come later in the list: link them once both exist
    s.add(Device, [{**d, "door_sensor_id": None} for d in devices])
    s.conn.executemany(
        "UPDATE devices SET door_sensor_id = ? WHERE id = ?",
        [(d["door_sensor_id"], d["id"]) for d in devices if d["door_sensor_id"]],
    )
    seed_history(s, homes, rooms, devices, residents)


def _home_row(s: Seeder, n: int, name: str, where: geo.Address) -> dict:
    tz = geo.city(where.city).timezone
    return {
        "id": format_id("HOM", n),
        "name": name,
        "address": where.line,
        "city": where.city,
        "timezone": tz,
        "mode": "home",
        "alarm_state": "disarmed",
        "alarm_code": _code(s, s.pick([4, 4, 6])),
        "alarm_changed_at": (_local(s, tz) - timedelta(hours=s.rng.randint(2, 60))).isoformat(),
    }


def _seed_homes(s: Seeder, people: list[Person], users: list[dict], n: int) -> tuple[list[dict], list[dict]]:
    """The persona owns HOM-000001, is a member of HOM-000002 and a guest of HOM-000003, and as
    the admin of her employer's guest homes reaches most of the rest; the last tenth are strangers'."""
    persona, owner2, owner3 = people[0], people[1], people[2]
    uid = {p.index: u["id"] for p, u in zip(people, users, strict=True)}
    homes = [
        _home_row(s, 1, f"{persona.home.street} house", persona.home),
        _home_row(s, 2, f"{owner2.first_name}'s place", owner2.home),
        _home_row(s, 3, f"{owner3.first_name}'s lake cabin", owner3.home),
    ]
    homes[1].update(mode="vacation", alarm_state="armed_vacation")  # the friend is away for the summer
    residents: list[dict] = []

    def resident(home: dict, person: Person, role: str) -> None:
        residents.append(
            {
                "id": format_id("RES", len(residents) + 1),
                "home_id": home["id"],
                "user_id": uid[person.index],
                "role": role,
                "since": s.day_offset(-1500, -20),
            }
        )

    circle = people[1:41]
    resident(homes[0], persona, "owner")
    for p in circle[3 : 3 + s.rng.randint(1, 3)]:
        resident(homes[0], p, s.pick(["member", "member", "guest"]))
    resident(homes[1], owner2, "owner")
    resident(homes[1], persona, "member")
    resident(homes[2], owner3, "owner")
    resident(homes[2], persona, "guest")
    managed_until = max(4, int(n * 0.9))
    others = people[41:]
    employer = s.world.employer(persona).name.split()[0]
    names: set[str] = {h["name"] for h in homes}
    for k in range(4, n + 1):
        owner = others[(k * 3) % len(others)]
        city = s.pick(geo.CITIES) if k <= managed_until else geo.city(owner.city)
        where = geo.address(city.name, s.rng.randrange(len(geo.STREET_NAMES)), s.rng.randint(1, 400))
        name = f"{where.street} {s.pick(catalog.HOME_KINDS)} ({city.name})"
        if name in names:
            name = f"{where.number} {name}"
        names.add(name)
        home = _home_row(s, k, name, where)
        homes.append(home)
        resident(home, owner, "owner")
        if k <= managed_until:
            resident(home, persona, "admin")
        for p in s.rng.sample(others, s.rng.randint(1, 3)):
            if p.index != owner.index:
                resident(home, p, s.pick(["admin", "member", "member", "guest"]))
        _home_state(s, home, k, employer)
    return homes, residents


def _home_state(s: Seeder, home: dict, k: int, employer: str) -> None:
    """Some homes are away or on vacation (alarm armed to match); one alarm is going off."""
    roll = s.rng.random()
    if k == 5:
        home["alarm_state"] = "triggered"
    elif roll < 0.12:
        home["mode"], home["alarm_state"] = "away", "armed_away"
    elif roll < 0.17:
        home["mode"], home["alarm_state"] = "vacation", "armed_vacation"
    elif roll < 0.20:
        home["mode"] = "away"
    elif roll < 0.23:
        home["alarm_state"] = "armed_home"


def _device(s: Seeder, n: int, home: dict, room: dict, kind: str, name: str, now: str) -> dict:
    row = dict.fromkeys(c.name for c in Device.__table__.columns)
    row.update(id=format_id("DEV", n), home_id=home["id"], room_id=room["id"], name=name, kind=kind)
    changed = datetime.fromisoformat(now) - timedelta(minutes=s.rng.randint(20, 7 * 1440))
    row.update(online=True, state="off", last_changed_at=changed.isoformat(timespec="seconds"))
    if kind == "light":
        make, model, lo, hi, color = s.pick(catalog.LIGHT_MODELS)
        on = s.chance(0.3)
        row.update(manufacturer=make, model=model, state="on" if on else "off", supports_color=color)
        row.update(brightness_pct=s.pick([40, 60, 80, 100]) if on else 0, color_temp_k=min(hi, max(lo, 2700)))
        row.update(min_color_temp_k=lo, max_color_temp_k=hi, color=None)
    else:
        row["manufacturer"], row["model"] = s.pick(catalog.MODELS[kind])
    if kind in catalog.BATTERY_KINDS or (kind == "blinds" and s.chance(0.5)) or kind == "vacuum":
        row["battery_pct"] = s.rng.randint(8, 19) if s.chance(0.1) else s.rng.randint(35, 100)
    _kind_state(s, row, kind)
    if s.chance(0.05):
        row["online"] = False
    return row


def _kind_state(s: Seeder, row: dict, kind: str) -> None:
    if kind in ("switch", "plug", "appliance", "fan", "camera", "tv", "speaker"):
        row["state"] = "on" if s.chance(0.4 if kind != "camera" else 0.8) else "off"
    if kind in ("plug", "appliance", "tv"):
        row["power_w"] = round(s.rng.uniform(20, 400), 1) if row["state"] == "on" else 0.4
    if kind == "fan":
        row.update(fan_pct=s.pick([33, 66, 100]) if row["state"] == "on" else 0)
        row["oscillating"] = s.chance(0.3) if s.chance(0.6) else None
    elif kind in ("tv", "speaker"):
        sources = catalog.TV_SOURCES if kind == "tv" else catalog.SPEAKER_SOURCES
        on = row["state"] == "on"
        row.update(sources=sources, source=sources.split(",")[0], volume_pct=s.pick([15, 25, 35, 50]))
        row["playback"] = s.pick(["playing", "paused"]) if on else "stopped"
    elif kind == "thermostat":
        modes = s.pick(catalog.HVAC_SETS)
        mode = s.pick(["heat", "cool", "heat_cool", "auto", "off"])
        row.update(hvac_modes=modes, hvac_mode=mode, state=mode, min_temp=7.0, max_temp=35.0)
        row.update(current_temp=round(s.rng.uniform(18, 25), 1), humidity_pct=s.rng.randint(30, 60))
        if mode == "heat_cool":
            row.update(target_low=20.0, target_high=24.0)
        elif mode != "off":
            row["target_temp"] = float(s.pick([19, 20, 21, 21.5, 22, 23, 24]))
    elif kind == "lock":
        row["state"] = "unlocked" if s.chance(0.3) else "locked"
        row.update(lock_code_required=s.chance(0.5), owner_code=_code(s, 6))
    elif kind == "contact_sensor":
        row["state"] = "closed"
    elif kind in ("motion_sensor", "smoke_detector"):
        row["state"] = "clear"
    elif kind == "leak_sensor":
        row["state"] = "dry"
    elif kind == "temp_sensor":
        row.update(state="reporting", current_temp=round(s.rng.uniform(17, 26), 1))
        row["humidity_pct"] = s.rng.randint(30, 65)
    elif kind in ("blinds", "garage_door"):
        row["position_pct"] = s.pick([0, 0, 50, 100]) if kind == "blinds" else 0
        row["state"] = "open" if row["position_pct"] else "closed"
    elif kind == "vacuum":
        row["state"] = "error" if s.chance(0.1) else s.pick(["docked", "docked", "cleaning", "paused"])
        row["fault"] = s.pick(catalog.VACUUM_FAULTS) if row["state"] == "error" else None
    elif kind == "alarm_panel":
        row["state"] = "ready"


def _seed_rooms_and_devices(s: Seeder, homes: list[dict]) -> tuple[list[dict], list[dict]]:
    rooms: list[dict] = []
    devices: list[dict] = []
    for home in homes:
        now = _local(s, home["timezone"]).isoformat(timespec="seconds")
        extra = s.rng.sample(catalog.EXTRA_ROOMS, s.rng.randint(0, 6))
        if home["id"] == "HOM-000001":
            extra = ["Office", "Garage", "Patio", "Basement"]
        mine = []
        for name in [*catalog.CORE_ROOMS, *[r for r in catalog.EXTRA_ROOMS if r in extra]]:
            room = {"id": format_id("ROM", len(rooms) + 1), "home_id": home["id"], "name": name}
            room["floor"] = catalog.FLOORS.get(name, 0)
            rooms.append(room)
            for kind, label, p in catalog.ROOM_DEVICES[name]:
                if p >= 1 or s.chance(p) or home["id"] == "HOM-000001":
                    mine.append(_device(s, len(devices) + len(mine) + 1, home, room, kind, label, now))
        by_name = {d["name"]: d for d in mine}
        for lock, sensor in catalog.DOOR_SENSORS.items():
            if lock in by_name and sensor in by_name:
                by_name[lock]["door_sensor_id"] = by_name[sensor]["id"]
        _home_devices(s, home, mine, by_name)
        devices.extend(mine)
    _pinned(devices)
    return rooms, devices


def _home_devices(s: Seeder, home: dict, mine: list[dict], by_name: dict[str, dict]) -> None:
    """Contact sensors and the alarm panel agree with the home's mode and alarm."""
    panel = by_name["Hallway keypad"]
    panel["state"] = home["alarm_state"] if home["alarm_state"] != "disarmed" else "ready"
    panel["online"] = True if home["alarm_state"] != "disarmed" else panel["online"]
    windows = [d for d in mine if d["kind"] == "contact_sensor"]
    armed = home["alarm_state"] in ("armed_away", "armed_vacation")
    if not armed and s.chance(0.35):
        s.pick(windows)["state"] = "open"
    if home["mode"] in ("away", "vacation"):
        for d in mine:
            if d["kind"] == "lock" and d["state"] == "unlocked":
                d["state"] = "locked"
            if d["kind"] == "garage_door":
                d.update(position_pct=0, state="closed")
        for d in windows:
            d["state"] = "closed"
    if home["mode"] == "vacation":
        for d in mine:
            if d["kind"] == "thermostat" and d["hvac_mode"] != "off":
                d.update(hvac_mode="heat", state="heat", target_temp=16.0, target_low=None, target_high=None)


def _pinned(devices: list[dict]) -> None:
    """The persona's own home tells the stories the tests and tasks need; two locks are jammed."""
    home = [d for d in devices if d["home_id"] == "HOM-000001"]
    by = {d["name"]: d for d in home}
    by["Front door lock"].update(state="unlocked", lock_code_required=False, battery_pct=80, online=True)
    by["Front door sensor"].update(state="closed", online=True, battery_pct=90)
    by["Back door lock"].update(state="unlocked", battery_pct=6, online=True, lock_code_required=True)
    by["Back door sensor"].update(state="closed", online=True, battery_pct=70)
    by["Garage entry lock"].update(state="unlocked", lock_code_required=True, battery_pct=55, online=True)
    by["Garage entry sensor"].update(state="open", online=True, battery_pct=60)
    by["Living room window"].update(state="open", online=True)
    by["Hallway keypad"].update(online=True, state="ready")
    by["Porch light"].update(online=False, state="off")
    for d in home:
        if d["kind"] == "contact_sensor" and d["name"] not in ("Living room window", "Garage entry sensor"):
            d["state"] = "closed"
    by["Hallway thermostat"].update(online=True, hvac_mode="heat", state="heat", target_temp=21.0)
    by["Hallway thermostat"].update(
        hvac_modes="off,heat,cool,heat_cool,auto", target_low=None, target_high=None
    )
    by["Living room ceiling light"].update(online=True, state="off", brightness_pct=0)
    by["Living room floor lamp"].update(online=True, supports_color=True, min_color_temp_k=2000)
    by["Living room floor lamp"].update(max_color_temp_k=6500, manufacturer="Philips Hue")
    by["Living room floor lamp"].update(model="White and Color Ambiance A19")
    by["Kitchen ceiling light"].update(online=True, supports_color=False, min_color_temp_k=2700)
    by["Kitchen ceiling light"].update(max_color_temp_k=2700, color_temp_k=2700, manufacturer="Sengled")
    by["Kitchen ceiling light"].update(model="Smart LED Soft White")
    by["Robot vacuum"].update(online=True, state="docked", battery_pct=90, fault=None)
    by["Living room TV"].update(online=True, state="off", playback="stopped")
    by["Living room blinds"].update(online=True, battery_pct=5, position_pct=0, state="closed")
    by["Garage door"].update(online=True, position_pct=0, state="closed")
    jammed = [d for d in devices if d["kind"] == "lock" and d["home_id"] not in ("HOM-000001",)]
    for d in jammed[3:5]:
        d.update(state="jammed", online=True)


# -- variants -------------------------------------------------------------------------------------


@iot_devices.variant("vacation_armed", first="disarm_alarm")
def vacation_armed(db: Db) -> None:
    """The persona's own home is in vacation mode with the alarm armed (vacation): thermostats take
    eco targets only, the garage door stays shut and unlocking needs a code until she disarms."""
    db.execute(
        "UPDATE homes SET mode = 'vacation', alarm_state = 'armed_vacation', "
        "alarm_changed_at = '2026-05-29T18:00:00' WHERE id = 'HOM-000001'"
    )
    db.execute("UPDATE devices SET state = 'closed' WHERE home_id = 'HOM-000001' AND kind = 'contact_sensor'")
    db.execute(
        "UPDATE devices SET state = 'locked' WHERE home_id = 'HOM-000001' AND kind = 'lock' "
        "AND state = 'unlocked'"
    )
    db.execute(
        "UPDATE devices SET state = 'armed_vacation' WHERE home_id = 'HOM-000001' AND kind = 'alarm_panel'"
    )
