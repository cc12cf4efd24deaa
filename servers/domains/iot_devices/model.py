"""The smart-home service's tables and fixed facts: device kinds, what each kind supports, limits."""

from __future__ import annotations

from typing import Literal

from sqlalchemy import ForeignKey, Index, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from servers.kit import Domain

iot_devices = Domain(
    "iot_devices",
    "Smart homes: rooms, lights, thermostats, locks, cameras, sensors, blinds and appliances, "
    "with scenes, automations, an alarm and guest lock codes.",
    now="2026-06-01T16:00:00",  # UTC: Monday 09:00 in Portland, where the persona lives
)

HomeMode = Literal["home", "away", "night", "vacation"]
MODES: tuple[str, ...] = ("home", "away", "night", "vacation")
MANAGERS = ("owner", "admin")
GUEST_KINDS = ("light", "fan", "tv", "speaker")  # what a guest may operate
SENSOR_KINDS = ("contact_sensor", "motion_sensor", "temp_sensor", "leak_sensor", "smoke_detector")
SWITCHABLE = ("light", "switch", "plug", "fan", "appliance", "camera", "tv", "speaker")
SCENE_KINDS = ("light", "switch", "plug", "fan", "appliance", "thermostat", "blinds", "speaker", "tv")
ENERGY_KINDS = ("plug", "appliance", "tv")  # devices that meter their power draw
MOTOR_KINDS = ("lock", "blinds", "garage_door")  # need MIN_BATTERY to move when battery powered

# Every action a tool can take on a device, by kind; a tool refuses a kind not listed here.
CAPABILITIES: dict[str, tuple[str, ...]] = {
    "light": ("turn_on", "turn_off", "set_light"),
    "switch": ("turn_on", "turn_off"),
    "plug": ("turn_on", "turn_off"),
    "fan": ("turn_on", "turn_off", "set_fan"),
    "appliance": ("turn_on", "turn_off"),
    "camera": ("turn_on", "turn_off"),
    "tv": ("turn_on", "turn_off", "control_media"),
    "speaker": ("turn_on", "turn_off", "control_media"),
    "thermostat": ("set_thermostat",),
    "lock": ("lock_door", "unlock_door", "add_lock_code"),
    "blinds": ("set_cover_position",),
    "garage_door": ("set_cover_position",),
    "vacuum": ("control_vacuum",),
    "alarm_panel": ("arm_alarm", "disarm_alarm"),
    "contact_sensor": (),
    "motion_sensor": (),
    "temp_sensor": (),
    "leak_sensor": (),
    "smoke_detector": (),
}
KINDS: tuple[str, ...] = tuple(CAPABILITIES)
DeviceKind = Literal[
    "light",
    "switch",
    "plug",
    "fan",
    "appliance",
    "camera",
    "tv",
    "speaker",
    "thermostat",
    "lock",
    "blinds",
    "garage_door",
    "vacuum",
    "alarm_panel",
    "contact_sensor",
    "motion_sensor",
    "temp_sensor",
    "leak_sensor",
    "smoke_detector",
]
# what a device-state automation trigger may wait for, by kind
TRIGGER_STATES: dict[str, tuple[str, ...]] = {
    "contact_sensor": ("open", "closed"),
    "motion_sensor": ("detected", "clear"),
    "leak_sensor": ("wet", "dry"),
    "smoke_detector": ("smoke", "clear"),
    "lock": ("locked", "unlocked"),
    "garage_door": ("open", "closed"),
}
THRESHOLD_KINDS = ("temp_sensor", "thermostat")
HVAC_MODES = ("off", "heat", "cool", "heat_cool", "auto", "dry", "fan_only")
ECO_HEAT_MAX = 18.0  # vacation mode: heating targets at most this
ECO_COOL_MIN = 27.0  # vacation mode: cooling targets at least this
MIN_GAP = 1.5  # heat_cool: target_high - target_low at least this
MIN_BATTERY = 10  # motorised battery devices refuse to move below this
VACUUM_MIN_BATTERY = 20
MAX_CODES_PER_LOCK = 20
MAX_SCENES = 50
MAX_AUTOMATIONS = 50
COLORS = ("red", "orange", "yellow", "green", "blue", "purple", "pink", "white")
Color = Literal["red", "orange", "yellow", "green", "blue", "purple", "pink", "white"]
METRICS = ("temperature", "humidity", "power_w", "motion", "contact", "leak", "battery")
Metric = Literal["temperature", "humidity", "power_w", "motion", "contact", "leak", "battery"]


def kind_label(kind: str) -> str:
    """'contact_sensor' -> 'contact sensor', for messages."""
    return kind.replace("_", " ")


class User(
    iot_devices.Table,
    prefix="USR",
    people={"name": "name", "email": "email", "phone": "phone", "city": "city"},
):
    """A person with an account on the smart-home service (a world person)."""

    __tablename__ = "users"
    id: Mapped[str] = mapped_column(primary_key=True)
    person_id: Mapped[int] = mapped_column(unique=True)
    name: Mapped[str]
    email: Mapped[str] = mapped_column(unique=True)
    phone: Mapped[str]
    city: Mapped[str]


# Who is signed in to the app in this episode.
Session = iot_devices.acting(User, "user_id")


class Home(iot_devices.Table, prefix="HOM", hidden=("alarm_code",)):
    __tablename__ = "homes"
    id: Mapped[str] = mapped_column(primary_key=True)
    name: Mapped[str]
    address: Mapped[str]
    city: Mapped[str]
    timezone: Mapped[str]
    mode: Mapped[str]  # home | away | night | vacation
    alarm_state: Mapped[str]  # disarmed | armed_home | armed_away | armed_night | armed_vacation | triggered
    alarm_code: Mapped[str]
    alarm_changed_at: Mapped[str]


class Resident(iot_devices.Table, prefix="RES"):
    """A user's membership of a home, with the role that decides what they may do there."""

    __tablename__ = "residents"
    __table_args__ = (
        UniqueConstraint("home_id", "user_id"),
        Index("ix_residents_user", "user_id", "role", "home_id"),
    )
    id: Mapped[str] = mapped_column(primary_key=True)
    home_id: Mapped[str] = mapped_column(ForeignKey("homes.id"), index=True)
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"))
    role: Mapped[str]  # owner | admin | member | guest
    since: Mapped[str]


class Room(iot_devices.Table, prefix="ROM"):
    __tablename__ = "rooms"
    __table_args__ = (UniqueConstraint("home_id", "name"),)
    id: Mapped[str] = mapped_column(primary_key=True)
    home_id: Mapped[str] = mapped_column(ForeignKey("homes.id"), index=True)
    name: Mapped[str]
    floor: Mapped[int]


class Device(iot_devices.Table, prefix="DEV", hidden=("owner_code",)):
    """One device; columns a kind does not use are NULL (a lock has no brightness)."""

    __tablename__ = "devices"
    __table_args__ = (
        UniqueConstraint("home_id", "name"),
        # the sampler's conditions are "a device of these kinds, in this state, in one of my homes":
        # both indexes cover them, so counting candidates never reads the wide device rows
        Index("ix_devices_home_kind", "home_id", "kind", "online", "state"),
        Index("ix_devices_kind", "kind", "online", "state", "home_id", "battery_pct"),
    )
    id: Mapped[str] = mapped_column(primary_key=True)
    home_id: Mapped[str] = mapped_column(ForeignKey("homes.id"))
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id"), index=True)
    name: Mapped[str]
    kind: Mapped[str]
    manufacturer: Mapped[str]
    model: Mapped[str]
    online: Mapped[bool]
    battery_pct: Mapped[int | None]  # NULL: mains powered
    power_w: Mapped[float | None]  # current draw, metering devices only
    state: Mapped[str]
    brightness_pct: Mapped[int | None]
    color_temp_k: Mapped[int | None]
    min_color_temp_k: Mapped[int | None]
    max_color_temp_k: Mapped[int | None]
    color: Mapped[str | None]
    supports_color: Mapped[bool | None]
    target_temp: Mapped[float | None]
    target_low: Mapped[float | None]
    target_high: Mapped[float | None]
    current_temp: Mapped[float | None]
    humidity_pct: Mapped[int | None]
    hvac_mode: Mapped[str | None]
    hvac_modes: Mapped[str | None]  # comma list
    min_temp: Mapped[float | None]
    max_temp: Mapped[float | None]
    fan_pct: Mapped[int | None]
    oscillating: Mapped[bool | None]  # NULL: the fan cannot oscillate
    position_pct: Mapped[int | None]
    volume_pct: Mapped[int | None]
    playback: Mapped[str | None]  # playing | paused | stopped
    source: Mapped[str | None]
    sources: Mapped[str | None]  # comma list
    lock_code_required: Mapped[bool | None]
    owner_code: Mapped[str | None]  # the lock's owner PIN
    # indexed: the sampler relates devices through their door sensor, and deleting a device checks it
    door_sensor_id: Mapped[str | None] = mapped_column(ForeignKey("devices.id"), index=True)
    fault: Mapped[str | None]  # vacuum error text
    last_changed_at: Mapped[str]


class Reading(iot_devices.Table, prefix="RDG", append_only=True):
    """One sensor or meter sample (local time of the home); only ever appended."""

    __tablename__ = "readings"
    __table_args__ = (Index("ix_readings_device", "device_id", "metric", "at"),)
    id: Mapped[str] = mapped_column(primary_key=True)
    device_id: Mapped[str] = mapped_column(ForeignKey("devices.id"))
    metric: Mapped[str]
    value: Mapped[float]
    at: Mapped[str]


class Scene(iot_devices.Table, prefix="SCN"):
    __tablename__ = "scenes"
    __table_args__ = (UniqueConstraint("home_id", "name"),)
    id: Mapped[str] = mapped_column(primary_key=True)
    home_id: Mapped[str] = mapped_column(ForeignKey("homes.id"), index=True)
    name: Mapped[str]
    created_at: Mapped[str]
    last_activated_at: Mapped[str | None]


class SceneAction(iot_devices.Table, prefix="SCA", noun="scene action"):
    """What a scene sets one device to."""

    __tablename__ = "scene_actions"
    id: Mapped[str] = mapped_column(primary_key=True)
    scene_id: Mapped[str] = mapped_column(ForeignKey("scenes.id"), index=True)
    device_id: Mapped[str] = mapped_column(ForeignKey("devices.id"))
    state: Mapped[str]
    brightness_pct: Mapped[int | None]
    target_temp: Mapped[float | None]
    position_pct: Mapped[int | None]
    volume_pct: Mapped[int | None]


class Automation(iot_devices.Table, prefix="AUT"):
    """When a trigger fires (and the optional home-mode condition holds), run a scene or set a device."""

    __tablename__ = "automations"
    __table_args__ = (UniqueConstraint("home_id", "name"),)
    id: Mapped[str] = mapped_column(primary_key=True)
    home_id: Mapped[str] = mapped_column(ForeignKey("homes.id"), index=True)
    name: Mapped[str]
    trigger_kind: Mapped[str]  # time | device_state | threshold | mode_change
    trigger_device_id: Mapped[str | None] = mapped_column(ForeignKey("devices.id"))
    trigger_value: Mapped[str | None]  # a state, "above 26" / "below 18", or a mode
    trigger_time: Mapped[str | None]  # HH:MM, local
    condition_mode: Mapped[str | None]  # only while the home is in this mode
    action_scene_id: Mapped[str | None] = mapped_column(ForeignKey("scenes.id"))
    action_device_id: Mapped[str | None] = mapped_column(ForeignKey("devices.id"))
    action_state: Mapped[str | None]  # on | off | locked | ...
    enabled: Mapped[bool]
    created_at: Mapped[str]
    last_run_at: Mapped[str | None]


class LockCode(iot_devices.Table, prefix="LKC", noun="lock code", hidden=("code",)):
    """A PIN that opens one lock, within a time window (local time of the home)."""

    __tablename__ = "lock_codes"
    id: Mapped[str] = mapped_column(primary_key=True)
    device_id: Mapped[str] = mapped_column(ForeignKey("devices.id"), index=True)
    label: Mapped[str]
    code: Mapped[str]
    valid_from: Mapped[str]
    valid_until: Mapped[str]
    enabled: Mapped[bool]
    created_at: Mapped[str]


class EventLog(iot_devices.Table, prefix="EVL", noun="event", append_only=True):
    """One thing that happened in a home: an actuation, a mode or alarm change, a code change."""

    __tablename__ = "event_log"
    __table_args__ = (Index("ix_event_log_home", "home_id", "at"),)
    id: Mapped[str] = mapped_column(primary_key=True)
    home_id: Mapped[str] = mapped_column(ForeignKey("homes.id"))
    device_id: Mapped[str | None] = mapped_column(ForeignKey("devices.id"), index=True)
    user_id: Mapped[str | None] = mapped_column(ForeignKey("users.id"))
    kind: Mapped[str]  # actuation | mode | alarm | lock | scene | automation | code | sensor
    message: Mapped[str]
    at: Mapped[str]
