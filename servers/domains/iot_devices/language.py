"""How a smart-home app's resident speaks, and what its assistant tells them.

The user runs her own house, a friend's place she shares, a lake cabin she is a guest at and, as
the admin of her employer's guest homes, a long list of rentals. She names a home the way the app
lists it ("Harbor St house", "Garrett's place", "Birch Rd loft (Toronto)"), and her own three by how she relates to them ("my own home"). Devices, rooms, scenes and
automations are named inside a home: "the front door lock", "the kitchen", the "Movie night"
scene, the "Wake up at 10:30" automation; said together with the home when the conversation has
not settled on one ("the front door lock at Harbor St flat (Toronto)"). A guest code is the
code of the person it is for ("the cleaner's code"). Nobody ever says a device, room, scene or
home id. States are said as people say them: locked, open, going off, heading back to its dock.

The assistant says what the device, home or alarm is doing now, in the units people use (°C,
percent, kWh), lists by their count and a few names, and never reads out ids or stored stamps.
"""

from __future__ import annotations

from servers.domains.iot_devices import catalog
from servers.domains.iot_devices.model import (
    Automation,
    Device,
    Home,
    LockCode,
    Reading,
    Resident,
    Room,
    Scene,
    iot_devices,
)
from servers.kit import Language

say = Language(iot_devices)

# -- naming things ------------------------------------------------------------------------
# The app's names are capitalised ("Living room speaker"); people write them in lower case inside
# a sentence. A name's words are its lower-case form (the catalogue of device and room names is
# fixed), so forms and answers say "the living room speaker".
DEVICE_NAMES = sorted({label for devices in catalog.ROOM_DEVICES.values() for _, label, _ in devices})
ROOM_NAMES = (*catalog.CORE_ROOMS, *catalog.EXTRA_ROOMS)
say.state(Device, "name", **{n: n[:1].lower() + n[1:] for n in DEVICE_NAMES})
say.state(Room, "name", **{n: n[:1].lower() + n[1:] for n in ROOM_NAMES})
CODE_WORDS = {label: label if label.startswith("Airbnb") else label.lower() for label in catalog.CODE_LABELS}
say.state(LockCode, "label", **CODE_WORDS)

# how the user stands to a home (list_homes shows her role in each): her own, the friend's place
# she shares, the cabin she is a guest at; she administers too many to name one by that
say.state(
    Resident,
    "role",
    owner="my own home",
    member="the place I share with a friend",
    guest="the place where I'm a guest",
    admin="one of the homes I manage",
)
say.names(Home, "{name}", "{role:state}", shown=("role",), called="one of my homes")
say.names(Room, "the {name:state}", within="{row} at {owner}", called="a room")
say.names(Device, "the {name:state}", within="{row} at {owner}", called="a device")
say.names(Scene, 'the "{name}" scene', 'my "{name}" scene', within="{row} at {owner}", called="a scene")
say.names(Automation, 'the "{name}" automation', within="{row} at {owner}", called="an automation")
say.names(
    LockCode,
    "the {label:state}'s code that runs until {valid_until:when}",
    "the {label:state} code valid until {valid_until:when}",
    called="a guest code",
)

say.state(Home, "mode", home="home", away="away", night="night", vacation="vacation")
say.state(
    Home,
    "alarm_state",
    disarmed="disarmed",
    armed_home="armed for when you're home",
    armed_away="armed away",
    armed_night="armed for the night",
    armed_vacation="armed for vacation",
    triggered="going off",
)
say.state(
    Device,
    "state",
    on="on",
    off="off",
    locked="locked",
    unlocked="unlocked",
    jammed="jammed",
    open="open",
    closed="closed",
    clear="all clear",
    detected="seeing motion",
    dry="dry",
    wet="wet",
    smoke="detecting smoke",
    reporting="reporting",
    ready="ready",
    docked="docked",
    cleaning="cleaning",
    paused="paused",
    returning="heading back to its dock",
    error="stuck with an error",
    heat="heating",
    cool="cooling",
    heat_cool="heating and cooling",
    auto="on auto",
    fan_only="running the fan only",
    armed_home="armed for when you're home",
    armed_away="armed away",
    armed_night="armed for the night",
    armed_vacation="armed for vacation",
    triggered="going off",
)
say.state(
    Device,
    "hvac_mode",
    off="off",
    heat="heat",
    cool="cool",
    heat_cool="heat and cool",
    auto="auto",
    dry="dry",
    fan_only="fan only",
)
say.state(Device, "playback", playing="playing", paused="paused", stopped="stopped")
say.state(Device, "online", **{"True": "online", "False": "offline"})
say.state(Automation, "enabled", **{"True": "switched on", "False": "switched off"})
say.state(LockCode, "enabled", **{"True": "active", "False": "revoked"})

KINDS = {
    "light": "smart lights",
    "switch": "wall switches",
    "plug": "smart plugs",
    "fan": "fans",
    "appliance": "appliances",
    "camera": "cameras",
    "tv": "TVs",
    "speaker": "speakers",
    "thermostat": "thermostats",
    "lock": "locks",
    "blinds": "window blinds",
    "garage_door": "garage doors",
    "vacuum": "robot vacuums",
    "alarm_panel": "alarm keypads",
    "contact_sensor": "door and window sensors",
    "motion_sensor": "motion sensors",
    "temp_sensor": "temperature sensors",
    "leak_sensor": "leak sensors",
    "smoke_detector": "smoke alarms",
}
ONLINE = {True: "online", False: "offline"}
MODE = {"home": "home", "away": "away", "night": "night", "vacation": "vacation"}

# -- homes -------------------------------------------------------------------------------------
say.tool(
    "list_homes",
    asks=[
        "Which homes do I have in the app?",
        "Show me all the homes I can get into.",
        "List my homes, please.",
    ],
    one_form="the only arguments are paging, which nobody asks for",
    tells=["You have {homes:count(home)} in the app: {homes:list(name)}."],
)
_ALARM = "{name} is in {mode:state} mode and the alarm is {alarm_state:state}. "
_LOCKED, _DARK, _SHUT = "every lock is locked", "no lights are on", "Nothing is open"
say.tool(
    "get_home",
    asks=[
        "Give me a quick rundown of {home}.",
        "Is anything open or left on at {home}?",
        "I'm heading to bed; how's {home} looking?",
        "Before I leave, check {home} for me: anything unlocked or open?",
        "What's the status of {home}?",
    ],
    tells=[
        _ALARM + "Open: {open}. Unlocked: {unlocked}. Lights on: {lights_on}.",
        _ALARM + "Open: {open}. Unlocked: {unlocked}. " + _DARK.capitalize() + ".{lights_on:no}",
        _ALARM + "Open: {open}. " + _LOCKED.capitalize() + ".{unlocked:no} Lights on: {lights_on}.",
        _ALARM + "Open: {open}. " + _LOCKED.capitalize() + " and " + _DARK + ".{unlocked:no}{lights_on:no}",
        _ALARM + _SHUT + ".{open:no} Unlocked: {unlocked}. Lights on: {lights_on}.",
        _ALARM + _SHUT + ".{open:no} Unlocked: {unlocked}. " + _DARK.capitalize() + ".{lights_on:no}",
        _ALARM + _SHUT + ", " + _LOCKED + ".{open:no}{unlocked:no} Lights on: {lights_on}.",
        _ALARM + _SHUT + ", " + _LOCKED + " and " + _DARK + ".{open:no}{unlocked:no}{lights_on:no}",
    ],
)
say.tool(
    "list_rooms",
    asks=[
        "What rooms are set up at {home}?",
        "List the rooms of {home}.",
        "Which rooms does {home} have in the app?",
        "I want to rearrange things; what rooms are there at {home}?",
        "Show me the rooms at {home}.",
    ],
    tells=["{@home} has {rooms:count(room)}: {rooms:list(name)}.", "{@home} has no rooms set up."],
)
say.tool(
    "list_devices",
    asks=[
        "What devices are there at {home}?",
        "List everything that's connected at {home}.",
        "Show me the {kind} at {home}.",
        "Which {kind} do we have at {home}?",
        "What's in {room} at {home}?",
        "Which devices are in {room} at {home}? I want to set up a scene.",
        "Which devices at {home} are {online}?",
        "Something isn't responding; which devices at {home} are {online}?",
    ],
    tells=[
        "{@home} has {devices:count(device)} {@online}: {devices:list(name)}.",
        "In {@room} there are {devices:count(device)}: {devices:list(name, state)}.",
        "The {@kind} at {@home}: {devices:list(name, state)}.",
        "{@home} has {devices:count(device)}: {devices:list(name, state)}.",
        "None of the devices at {@home} are {@online}.",
        "There are no devices in {@room}.",
        "There are no {@kind} at {@home}.",
        "There are no devices at {@home}.",
    ],
    words={"kind": KINDS, "online": ONLINE},
)
say.tool(
    "get_device",
    asks=[
        "What's the status of {device}?",
        "How is {device} doing?",
        "Can you check on {device} for me?",
        "Is {device} working? Tell me what it's doing.",
        "Show me everything about {device}.",
    ],
    tells=[
        "The {name} is offline right now; it was last {state:state}.{online:no}",
        "The {name} is set to {hvac_mode:state}, keeping between {target_low}°C and {target_high}°C; "
        "it's {current_temp}°C in there.",
        "The {name} is set to {hvac_mode:state} at {target_temp}°C; it's {current_temp}°C in there.",
        "The {name} is {hvac_mode:state}; it's {current_temp}°C in there.",
        "The {name} is {state:state} at {brightness_pct}% brightness.",
        "The {name} is {state:state}, {playback:state} on {source} at {volume_pct}% volume.",
        "The {name} is {state:state}, running at {fan_pct}%.",
        "The {name}: {state:state}, at {position_pct}%.",
        "The {name} is {state:state} ({fault}).",
        "The {name} reads {current_temp}°C and {humidity_pct}% humidity.",
        "The {name} is {state:state}, with {battery_pct}% battery left.",
        "The {name} is {state:state}, drawing {power_w} W.",
        "The {name} is {state:state}.",
    ],
)
say.tool(
    "set_home_mode",
    asks=[
        "Switch {home} to {mode} mode.",
        "Put {home} in {mode} mode.",
        "Plans changed; set {home} to {mode} mode.",
        "Can you change {home} to {mode} mode?",
        "I'm not there right now, so please put {home} in {mode} mode.",
    ],
    tells=["{@home} is in {mode:state} mode now; it was in {previous_mode:state} mode."],
    words={"mode": MODE},
)
say.tool(
    "get_current_time",
    asks=[
        "What time is it at {home}?",
        "What's the local time at {home}? I don't want to call too early.",
        "What day and time is it over at {home}?",
        "Is it late at {home}? What time is it there?",
        "Tell me the time at {home}.",
    ],
    tells=["It's {local_time:when} at {@home}."],
)

# -- switching and settings --------------------------------------------------------------------
say.tool(
    "turn_on",
    asks=[
        "Turn on {device}.",
        "Switch {device} on, please.",
        "Can you power on {device}?",
        "It's getting dark, turn on {device}.",
        "I'm on my way home; switch on {device}.",
    ],
    tells=["Done, I've turned on {@device}.", "Done, the {name} is on."],
)
say.tool(
    "turn_off",
    asks=[
        "Turn off {device}.",
        "Switch {device} off, please.",
        "I think I left {device} on; turn it off.",
        "Can you shut off {device}?",
        "Nobody's using {device}, switch it off.",
    ],
    tells=["Done, I've turned off {@device}.", "Done, the {name} is off."],
)
COLORS = {c: c for c in ("red", "orange", "yellow", "green", "blue", "purple", "pink", "white")}
say.tool(
    "set_light",
    asks=[
        "Dim {device} to {brightness_pct}%.",
        "Set {device} to {brightness_pct}% brightness.",
        "Make {device} {color}.",
        "Turn {device} {color} for the party tonight.",
        "Set {device} to {color_temp_k} K, it's too harsh.",
        "Change {device} to a colour temperature of {color_temp_k} K.",
        "Make {device} {color} at {brightness_pct}% brightness.",
    ],
    tells=[
        "Done, I've made {@device} {color} at {brightness_pct}% brightness.{@color:yes}{@brightness_pct:yes}",
        "Done, I've made {@device} {color}.{@color:yes}",
        "Done, I've set {@device} to {color_temp_k} K.{@color_temp_k:yes}",
        "Done, I've set {@device} to {brightness_pct}% brightness.",
    ],
    words={"color": COLORS},
    values={"brightness_pct": (20, 30, 40, 50, 60, 75, 80, 100), "color_temp_k": (2200, 2700, 3000, 4000)},
)
HVAC = {
    "off": "off",
    "heat": "heat",
    "cool": "cool",
    "heat_cool": "heat and cool",
    "auto": "auto",
    "dry": "dry",
    "fan_only": "fan only",
}
say.tool(
    "set_thermostat",
    asks=[
        "Set {device} to {target_temp}°C.",
        "Turn {device} to {target_temp} degrees, please.",
        "Put {device} on {hvac_mode} at {target_temp}°C.",
        "Keep {device} between {target_low} and {target_high} degrees.",
        "Switch {device} to {hvac_mode}.",
        "Can you set {device} to {hvac_mode} mode?",
    ],
    tells=[
        "{@device} is set to {hvac_mode:state}, keeping between {target_low}°C and {target_high}°C; "
        "it's {current_temp}°C right now.{@target_low:yes}",
        "{@device} is set to {hvac_mode:state} at {target_temp}°C; it's {current_temp}°C right now.{@target_temp:yes}",
        "{@device} is set to {@hvac_mode} now; it's {current_temp}°C right now.",
        "{@device} is set to {hvac_mode:state}; it's {current_temp}°C right now.",
    ],
    words={"hvac_mode": HVAC},
    values={"target_temp": (19, 20, 21, 22, 23), "target_low": (18, 19, 20), "target_high": (24, 25, 26)},
)
say.tool(
    "set_fan",
    asks=[
        "Set {device} to {speed_pct}%.",
        "Run {device} at {speed_pct}% speed.",
        "It's stuffy in here, put {device} on {speed_pct}%.",
        "Turn {device} to {speed_pct}% and have it {oscillate}.",
        "Can you set {device} to {speed_pct}%?",
    ],
    tells=[
        "Done, I've set {@device} to {fan_pct}% and told it to {@oscillate}.{@oscillate:yes}",
        "Done, I've set {@device} to {fan_pct}%.",
    ],
    words={"oscillate": {True: "oscillate", False: "stop oscillating"}},
    values={"speed_pct": (33, 50, 66, 100)},
)
POSITION = {
    0: "fully closed",
    25: "a quarter open",
    50: "half open",
    75: "three-quarters open",
    100: "fully open",
}
say.tool(
    "set_cover_position",
    asks=[
        "Make {device} {position_pct}.",
        "Set {device} {position_pct}, please.",
        "From the app, please put {device} {position_pct}.",
        "Can you get {device} {position_pct}?",
        "I'd like {device} {position_pct}.",
    ],
    tells=["Done, I've moved {@device} to {@position_pct}.", "Done, {@device} is at {position_pct}% open."],
    words={"position_pct": POSITION},
    values={"position_pct": tuple(POSITION)},
)
say.tool(
    "control_media",
    asks=[
        "Please {action} the music on {device}.",
        "Please {action} {device}.",
        "Turn {device} to {volume_pct}% volume.",
        "Set {device} to {volume_pct}% volume, please.",
        "Switch {device} over to {source}.",
        "Put {source} on {device}.",
    ],
    tells=[
        "{@device} is {playback:state} now.{@action:yes}",
        "{@device} is at {volume_pct}% volume now.{@volume_pct:yes}",
        "{@device} is on {source} now.{@source:yes}",
        "{@device} is {playback:state} on {source} at {volume_pct}% volume.",
    ],
    words={"action": {"play": "play", "pause": "pause", "stop": "stop"}},
    values={
        "volume_pct": (10, 20, 30, 40, 50),
        "source": ("Spotify", "AirPlay", "Bluetooth", "Netflix", "HDMI 1", "YouTube"),
    },
)
say.tool(
    "control_vacuum",
    asks=[
        "Tell {device} to {action}.",
        "Have {device} {action}.",
        "I'm not home, so tell {device} to {action}.",
        "Can you get {device} to {action}?",
        "Please make {device} {action}.",
    ],
    tells=["{@device} is {state:state} now."],
    words={"action": {"start": "start cleaning", "pause": "pause", "return_to_dock": "go back to its dock"}},
)

# -- locks, codes and the alarm --------------------------------------------------------------
say.tool(
    "lock_door",
    asks=[
        "Lock {device}.",
        "I'm not sure I locked {device}; lock it, please.",
        "Make sure {device} is locked.",
        "Can you lock {device}? We're all out.",
        "Please lock {device} for the night.",
    ],
    tells=["{@device} is locked.", "The {name} is locked."],
)
say.tool(
    "unlock_door",
    asks=[
        "Unlock {device}.",
        "I'm at the door with my hands full, unlock {device}.",
        "Unlock {device}, the code is {code}.",
        "Let me in: unlock {device} with code {code}.",
        "Can you unlock {device}? A delivery is coming.",
        "Please unlock {device}; my code is {code}.",
    ],
    tells=["{@device} is unlocked.", "The {name} is unlocked."],
)
LABELS = (
    "Cleaner",
    "Dog walker",
    "Babysitter",
    "Plumber",
    "Neighbor",
    "Airbnb guest",
    "Contractor",
    "Housesitter",
)
say.tool(
    "add_lock_code",
    asks=[
        "Set up a code {new_code} on {device} for the {label}, good until {valid_until}.",
        "Add a guest code for the {label} to {device}: {new_code}, valid until {valid_until}.",
        "The {label} is coming; give them the code {new_code} for {device} from {valid_from} to {valid_until}.",
        "Please add the code {new_code} to {device} for our {label}, working until {valid_until}.",
        "Create a code {new_code} for the {label} on {device}, from {valid_from} until {valid_until}.",
    ],
    tells=[
        "Done: the {label:state} can open {@device} with that code from {valid_from:when} "
        "until {valid_until:when}.",
    ],
    words={"label": CODE_WORDS},
    values={"label": LABELS},
)
say.tool(
    "revoke_lock_code",
    asks=[
        "Revoke {lock_code}.",
        "The job is done, so please revoke {lock_code}.",
        "Delete {lock_code} right now.",
        "Turn off {lock_code}, they shouldn't get in anymore.",
        "Can you cancel {lock_code}?",
    ],
    tells=["{@lock_code} is revoked; it won't open the door anymore.", "That code is revoked for good."],
)
say.tool(
    "arm_alarm",
    asks=[
        "Arm the alarm at {home} in {mode} mode, the code is {code}.",
        "Set the alarm at {home} to {mode}; my code is {code}.",
        "I'm checking on things remotely. Arm {home} for {mode} with code {code}.",
        "Arm {home} for {mode} with code {code}, {bypass_open_sensors}.",
        "Please arm the alarm at {home} ({mode}), code {code}.",
    ],
    tells=[
        "The alarm at {@home} is {alarm_state:state}; it ignores what's left open: {bypassed}.",
        "The alarm at {@home} is {alarm_state:state} now.",
    ],
    words={
        "mode": MODE,
        "bypass_open_sensors": {
            True: "even if a window is still open",
            False: "but only if everything is shut",
        },
    },
)
say.tool(
    "disarm_alarm",
    asks=[
        "Disarm the alarm at {home}, the code is {code}.",
        "Turn off the alarm at {home}; my code is {code}.",
        "I'm at {home} now; disarm it with code {code}.",
        "It's just me at {home}; disarm the alarm, code {code}.",
        "Please disarm {home}, code {code}.",
    ],
    tells=["The alarm at {@home} is disarmed now."],
)

# -- history ------------------------------------------------------------------------------------
UNITS = {
    "temperature": "temperature, in °C",
    "humidity": "humidity, in percent",
    "power_w": "power draw, in watts",
    "motion": "motion (1 means motion)",
    "contact": "open and close (1 means open)",
    "leak": "leak (1 means wet)",
    "battery": "battery level, in percent",
}
say.state(Reading, "metric", **UNITS)
METRIC = {
    "temperature": "temperature",
    "humidity": "humidity",
    "power_w": "power draw",
    "motion": "motion detection",
    "contact": "open and close",
    "leak": "leak",
    "battery": "battery",
}
say.tool(
    "get_sensor_history",
    asks=[
        "What has {device} read over the last {hours} hours?",
        "Show me the {metric} history of {device} for the past {hours} hours.",
        "How has the {metric} on {device} looked today?",
        "It felt off last night; what did {device} record over the last {hours} hours?",
        "Pull up the recent readings from {device}.",
    ],
    tells=[
        "{@device} logged {readings:count(reading)} of {metric:state}, ranging from {min} to {max}, "
        "{average} on average.",
        "{@device} has no {metric:state} readings in that time.",
    ],
    words={"metric": METRIC},
    values={"hours": (3, 6, 12, 24, 48)},
)
PERIOD = {
    "today": "today",
    "yesterday": "yesterday",
    "last_24_hours": "over the last 24 hours",
    "last_72_hours": "over the last three days",
}
say.tool(
    "get_energy_usage",
    asks=[
        "How much energy did {home} use {period}?",
        "Show me the energy use at {home} {period}, broken down by {group_by}.",
        "The bill looks high; what used the most power at {home} {period}?",
        "What's been drawing power at {home} {period}, by {group_by}?",
        "How much electricity has {home} used so far today?",
    ],
    tells=[
        "{@home} used {total_kwh} kWh {@period}; the biggest users, in kWh: {usage:list(name, kwh)}.",
        "{@home} used {total_kwh} kWh today; the biggest users, in kWh: {usage:list(name, kwh)}.",
        "None of the metered devices at {@home} used any power {@period}.",
        "None of the metered devices at {@home} used any power in that time.",
    ],
    words={"period": PERIOD, "group_by": {"device": "device", "room": "room"}},
)
EVENTS = {
    "actuation": "device",
    "mode": "home mode",
    "alarm": "alarm",
    "lock": "lock",
    "scene": "scene",
    "automation": "automation",
    "code": "lock code",
    "sensor": "door, window and motion",
}
say.tool(
    "get_event_log",
    asks=[
        "What's happened at {home} recently?",
        "Show me the recent {kind} events at {home}.",
        "Who's been changing things? Show me the latest {kind} activity at {home}.",
        "Show me the history of {device} at {home}.",
        "What has {device} at {home} been doing lately? I want to see its log.",
    ],
    tells=[
        "The latest on {@device}: {events:list(message, at:when)}.",
        "The latest {@kind} events at {@home}: {events:list(message, at:when)}.",
        "{@home} has {events:count(event)} on record; the latest: {events:list(message, at:when)}.",
        "Nothing has been logged for {@device}.",
        "No {@kind} events are on record at {@home}.",
        "Nothing has been logged at {@home}.",
    ],
    words={"kind": EVENTS},
)

# -- scenes and automations ------------------------------------------------------------------
say.tool(
    "list_scenes",
    asks=[
        "What scenes do I have at {home}?",
        "List the scenes at {home} and what they do.",
        "Which scenes are set up at {home}?",
        "I forgot what I called them; what scenes are there at {home}?",
        "Show me the scenes for {home}.",
    ],
    tells=[
        "{@home} has {scenes:count(scene)}: {scenes:list(name, actions:count=device)}.",
        "{@home} has no scenes yet.",
    ],
)
_RAN = 'Done, "{name}" is on: '
say.tool(
    "activate_scene",
    asks=[
        "Activate {scene}.",
        "Run {scene}.",
        "Friends are coming over, turn on {scene}.",
        "Set the mood: run {scene}.",
        "Can you start {scene}?",
    ],
    tells=[
        _RAN + "it changed {applied:count(device)}, {unchanged:count(device)} already matched, and it "
        "skipped {skipped:list(name, reason)}.",
        _RAN + "it changed {applied:count(device)} and skipped {skipped:list(name, reason)}.",
        _RAN + "it changed {applied:count(device)}; {unchanged:count(device)} already matched.",
        _RAN + "it changed {applied:count(device)}.",
        _RAN + "everything it could set already matched; it skipped {skipped:list(name, reason)}.",
        _RAN + "everything already matched.{unchanged:yes}",
        'I ran "{name}", but it skipped {skipped:list(name, reason)}.',
    ],
)
SCENES = (
    "Evening calm",
    "Game night",
    "Breakfast",
    "Lights out",
    "Guest arrival",
    "Date night",
    "Sunday morning",
)
say.tool(
    "create_scene",
    asks=[
        'Save how {devices} are set right now as a scene called "{name}" at {home}.',
        'Create a scene "{name}" at {home} from {devices}.',
        'Save the current settings of {devices} as "{name}" at {home}; I like them this way.',
        'Make a new scene "{name}" at {home} with {devices} as they are.',
        'Add a "{name}" scene at {home} that remembers {devices}.',
    ],
    tells=['The "{name}" scene is saved with the current settings of {actions:count(device)}.'],
    values={"name": SCENES},
)
say.tool(
    "list_automations",
    asks=[
        "What automations are set up at {home}?",
        "List the automations at {home} and when they last ran.",
        "Which automations are running at {home}?",
        "Something keeps switching on by itself; what automations does {home} have?",
        "Show me the automations for {home}.",
    ],
    tells=[
        "{@home} has {automations:count(automation)}; with their last run: "
        "{automations:list(name, last_run_at:when)}.",
        "{@home} has {automations:count(automation)}: {automations:list(name)}.",
        "{@home} has no automations set up.",
    ],
)
AUTOMATIONS = ("Porch light at dusk", "Evening lights", "Morning routine", "Cool the bedroom", "Away routine")
_SET = '"{name}" is set up and switched on: '
say.tool(
    "create_automation",
    asks=[
        'Create an automation "{name}" at {home} that runs {action_scene} every day at {trigger_time}.',
        'At {home}, every day at {trigger_time}, run {action_scene}. Call it "{name}".',
        'At {home}, when {trigger_device} is {trigger_state}, turn {action_device} {action_state}; call it "{name}".',
        'Add an automation "{name}" at {home}: when {threshold_device} goes above {above} degrees, '
        "turn {action_device} {action_state}.",
        'When {home} switches to {trigger_mode} mode, run {action_scene}; name the automation "{name}".',
        'At {home}, run {action_scene} at {trigger_time} every day, but only in {condition_mode} mode. Name it "{name}".',
    ],
    tells=[
        _SET + "every day at {trigger_time} it runs {@action_scene}.",
        _SET + "when {@trigger_device} is {trigger_value}, it turns {@action_device} {action_state}.",
        _SET + "when {@threshold_device} reads {trigger_value} °C, it turns {@action_device} {action_state}.",
        _SET + "when {@home} switches to {trigger_value} mode, it runs {@action_scene}.",
        'The automation "{name}" is set up and switched on.',
    ],
    words={"trigger_mode": MODE, "condition_mode": MODE},
    values={
        "name": AUTOMATIONS,
        "trigger_state": ("open", "closed"),
        "action_state": ("on", "off"),
        "above": (24, 25, 26, 27, 28),
    },
)
say.tool(
    "set_automation_enabled",
    asks=[
        "Turn {automation} {enabled}.",
        "Switch {automation} {enabled}, please.",
        "Our routine changed; switch {automation} {enabled}.",
        "Can you turn {automation} {enabled}?",
        "I want {automation} {enabled} for now.",
    ],
    tells=["{@automation} is {enabled:state} now."],
    words={"enabled": {True: "on", False: "off"}},
)
