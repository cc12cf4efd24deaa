"""How a connected car's driver speaks, and what its assistant tells them.

A driver names a car the way the app shows it or the way they talk about it at home: "my Model Y",
"the Outback", "Dana's RAV4", and, as a fleet manager, by the fleet number painted on the car
("Harvey #0652"). Nobody recites a VIN or the service's internal car number. States are said as a
driver says them: asleep, plugged in, in park, the parking brake set. The assistant answers with
the readings asked for, in the car's own units, and nothing else.
"""

from __future__ import annotations

from servers.domains.vehicle.model import Alert, CommandLog, Vehicle, VehicleAccess, vehicle
from servers.kit import Language

say = Language(vehicle)

# -- naming things ------------------------------------------------------------------------
# The agent finds a personal car on ``list_vehicles`` (which shows the driver's role for each car)
# and a fleet car by its nickname, so every form a fleet car can take starts with the nickname. "The
# Model Y" alone would also fit the one row a nickname search shows, and then name a fleet car
# like the driver's own: the model is said with the driver's role ("the Outback I own"), which
# only the driver's own list of cars shows.
say.names(
    Vehicle,
    "{nickname}",
    "{nickname} (the {color} {model})",
    "the {model} I {role:state}",
    "the {make} {model} I {role:state}",
    shown=("role",),
    called="one of the cars",
)
# An alert is one car's: "the service due alert" names nothing without its car, and the car a
# lookup went through is not said with a declared name. ``list_alerts`` shows each alert with its
# car's id only, so these forms need the car's nickname beside it (``shown``); until a read shows
# it, an alert is named only as "that alert", right after the user saw it listed.
say.names(
    Alert, "the {code} alert on {nickname}", "the alert on {nickname} saying {message}", shown=("nickname",)
)

say.state(Vehicle, "connectivity", online="online", asleep="asleep", offline="offline")
say.state(
    Vehicle,
    "charging",
    disconnected="unplugged",
    plugged="plugged in but not charging",
    charging="charging",
    complete="done charging",
)
say.state(Vehicle, "ignition", off="off", accessory="in accessory mode", running="running")
say.state(Vehicle, "gear", P="park", R="reverse", N="neutral", D="drive")
say.state(Vehicle, "powertrain", ice="gas", ev="electric", hybrid="plug-in hybrid")
say.state(Vehicle, "climate_on", **{"True": "on", "False": "off"})
say.state(Vehicle, "parking_brake", **{"True": "set", "False": "released"})
say.state(Vehicle, "trunk_open", **{"True": "open", "False": "closed"})
say.state(Vehicle, "valet_mode", **{"True": "on", "False": "off"})
# as a driver says what a key lets them do with a car: "the Outback I own", "the RAV4 I drive"
say.state(VehicleAccess, "role", owner="own", fleet_manager="manage", driver="drive")
say.state(
    Alert,
    "code",
    SERVICE_DUE="service due",
    SOFTWARE_UPDATE="software update",
    WASHER_FLUID_LOW="washer fluid",
    TIRE_ROTATION_DUE="tire rotation",
    LOW_FUEL="low fuel",
    LOW_BATTERY="low battery",
    DOOR_AJAR="door ajar",
    LOW_TIRE_FL="low front left tire",
    LOW_TIRE_FR="low front right tire",
    LOW_TIRE_RL="low rear left tire",
    LOW_TIRE_RR="low rear right tire",
)
say.state(
    CommandLog,
    "command",
    wake_vehicle="woke it up",
    lock_doors="locked doors",
    unlock_doors="unlocked doors",
    press_brake_pedal="pressed the brake",
    release_brake_pedal="released the brake",
    set_parking_brake="set or released the parking brake",
    start_engine="started it",
    stop_engine="switched it off",
    shift_gear="changed gear",
    set_climate="changed the climate",
    set_seat_heater="set a seat heater",
    set_headlights="set the headlights",
    set_cruise_control="set cruise control",
    set_navigation="set a destination",
    refuel="refuelled",
    start_charging="started charging",
    stop_charging="stopped charging",
    set_charge_limit="changed the charge limit",
    set_valet_mode="switched valet mode",
    share_digital_key="shared a key",
    revoke_digital_key="revoked a key",
)

ON_OFF = {True: "on", False: "off"}
AMOUNTS = (5, 8, 10, 15, 20)
DOORS = (["all"], ["all"], ["all"], ["driver", "passenger"], ["rear_left", "rear_right"])
PLACES = (
    "Seattle",
    "Portland",
    "Denver",
    "Chicago",
    "Boston",
    "San Francisco",
    "Toronto",
    "London",
    "Berlin",
    "14 Elm St, Portland",
    "230 Oak Ave, Denver",
    "88 Harbor St, Seattle",
    "17 Park Ave, Chicago",
    "52 Maple Dr, Austin",
    "301 Cedar Ln, Boston",
    "9 Mill Rd, London",
)

# -- cars and their status ------------------------------------------------------------------
say.tool(
    "list_vehicles",
    asks=[
        "What cars do I have?",
        "Show me my cars.",
        "List {scope}.",
        "Which of {scope} are {connectivity} right now?",
        "Show me {scope} that are {connectivity}.",
        "Which of my cars are {connectivity}?",
        "I'm checking on everything before the weekend; list {scope}.",
    ],
    tells=[
        "{vehicles:count(car)} {@connectivity}: {vehicles:list(nickname)}.",
        "You have {vehicles:count(car)}: {vehicles:list(nickname, connectivity)}.",
        "None of those cars are {@connectivity} right now.",
        "There are no cars there.",
    ],
    words={
        "scope": {
            "personal": "my own cars",
            "fleet": "the fleet cars",
            "all": "all my cars and the fleet's",
        }
    },
)
# distinct from the words of the other tools' requests ("the climate in ...", "the tire pressures")
SECTION = {
    "all": "full status",
    "doors": "doors",
    "energy": "range",
    "climate": "cabin climate",
    "tires": "tire readings",
    "engine": "engine and gear",
    "brakes": "brakes",
    "lights": "lights",
    "location": "location",
    "navigation": "navigation route",
}
_DOORS = (
    "the driver's door is {doors.doors.driver}, the passenger's {doors.doors.passenger}, "
    "and the rear doors are {doors.doors.rear_left} (left) and {doors.doors.rear_right} (right)"
)
say.tool(
    "get_vehicle_status",
    asks=[
        "What's the status of {vehicle}?",
        "How's {vehicle} doing?",
        "Give me a full rundown on {vehicle}.",
        "Check the {section} on {vehicle}.",
        "Can you pull up the {section} for {vehicle}?",
        "Before I head out, show me the {section} of {vehicle}.",
    ],
    tells=[
        # everything: the car's state, its energy, its doors and where it is
        "{nickname} is {connectivity} at {location.address}, with {energy.battery_pct}% charge and "
        "{energy.fuel_pct}% fuel, about {energy.range} {energy.range_unit} of range; " + _DOORS + ".",
        "{nickname} is {connectivity} at {location.address}, at {energy.battery_pct}% with about "
        "{energy.range} {energy.range_unit} of range; " + _DOORS + ".",
        "{nickname} is {connectivity} at {location.address}, with {energy.fuel_pct}% fuel, about "
        "{energy.range} {energy.range_unit} of range; " + _DOORS + ".",
        # one section
        "On {nickname}, " + _DOORS + "; the trunk is {doors.trunk_open:state}.",
        "{nickname} has {energy.battery_pct}% charge and {energy.fuel_pct}% fuel, about "
        "{energy.range} {energy.range_unit} of range.",
        "{nickname} is at {energy.battery_pct}% ({energy.charging}), with about {energy.range} "
        "{energy.range_unit} of range.",
        "{nickname} has {energy.fuel_pct}% fuel, about {energy.range} {energy.range_unit} of range.",
        "The climate in {nickname} is {climate.climate_on:state}, set to {climate.target_temperature}"
        "{climate.temperature_unit}; it's {climate.cabin_temperature}{climate.temperature_unit} inside.",
        "The tires on {nickname} read {tires.pressures.front_left} front left, {tires.pressures.front_right} "
        "front right, {tires.pressures.rear_left} rear left and {tires.pressures.rear_right} rear right "
        "({tires.pressure_unit}); {tires.recommended} is recommended.",
        "{nickname} is {engine.ignition} in {engine.gear}, at {engine.speed} {engine.speed_unit}, with "
        "{engine.odometer} {engine.odometer_unit} on the odometer.",
        "The brake pedal of {nickname} is at {brakes.brake_pedal_pct}% and the parking brake is "
        "{brakes.parking_brake:state}.",
        "The headlights of {nickname} are set to {lights.headlights}.",
        "{nickname} is at {location.address}.",
        "{nickname} is navigating to {navigation.destination}.",
        "{nickname} has no destination set.",
    ],
    words={"section": SECTION},
)
say.tool(
    "wake_vehicle",
    asks=[
        "Wake up {vehicle}, please.",
        "Can you wake {vehicle}? I want to warm it up.",
        "Please wake {vehicle} up.",
        "I think {vehicle} is asleep, can you wake it?",
        "Wake {vehicle}, I'm heading out soon.",
    ],
    tells=["{@vehicle} is awake and online now."],
)

# -- doors, brakes, engine, gears -------------------------------------------------------------
say.tool(
    "lock_doors",
    asks=[
        "Lock {doors} doors on {vehicle}.",
        "Can you lock {doors} doors of {vehicle}? I forgot when I got out.",
        "Please lock {doors} doors on {vehicle}.",
        "I'm not sure I locked {vehicle}; lock {doors} doors.",
        "Lock up {vehicle}, {doors} doors.",
    ],
    tells=[
        "Done, every door of {@vehicle} is locked now.{all_locked:yes}",
        "Done. On {@vehicle} " + _DOORS.replace("doors.doors.", "doors.") + ".",
    ],
    values={"doors": DOORS},
)
say.tool(
    "unlock_doors",
    asks=[
        "Unlock {doors} doors on {vehicle}.",
        "I'm at {vehicle} with my hands full, unlock {doors} doors.",
        "Can you unlock {doors} doors of {vehicle}? Someone needs to grab something from it.",
        "Please unlock {doors} doors on {vehicle}.",
        "Let me into {vehicle}: unlock {doors} doors.",
    ],
    tells=["Done. On {@vehicle} " + _DOORS.replace("doors.doors.", "doors.") + "."],
    values={"doors": DOORS},
)
say.tool(
    "press_brake_pedal",
    asks=[
        "Press the brake pedal all the way down on {vehicle}.",
        "I'm about to start {vehicle}, press the brake fully.",
        "Hold the brake on {vehicle} at {position_pct}%.",
        "Press the brake on {vehicle} to {position_pct}%.",
        "Put the brake pedal of {vehicle} down to {position_pct}%, please.",
    ],
    tells=["The brake pedal of {@vehicle} is held at {brake_pedal_pct}%."],
    values={"position_pct": (50, 60, 75, 100)},
)
say.tool(
    "release_brake_pedal",
    asks=[
        "Let go of the brake on {vehicle}.",
        "Take the foot off the brake in {vehicle}.",
        "Please let the brake pedal of {vehicle} up.",
        "Stop pressing the brake in {vehicle}.",
        "Lift off the brake in {vehicle}, it doesn't need to be held.",
    ],
    tells=["The brake pedal of {@vehicle} is released."],
)
say.tool(
    "set_parking_brake",
    asks=[
        "Please {engage} the parking brake on {vehicle}.",
        "Can you {engage} the handbrake on {vehicle}?",
        "I'd like to {engage} the parking brake of {vehicle}.",
        "The parking brake on {vehicle}: please {engage} it.",
        "Could you {engage} the parking brake in {vehicle} for me?",
    ],
    tells=["The parking brake of {@vehicle} is {parking_brake:state} now."],
    words={"engage": {True: "set", False: "release"}},
)
say.tool(
    "start_engine",
    asks=[
        "Start {vehicle}.",
        "Start the engine on {vehicle}, I want it warm before I leave.",
        "Can you start {vehicle} remotely?",
        "Please turn on {vehicle}.",
        "Fire up {vehicle}, I'm heading out in five minutes.",
    ],
    tells=["{@vehicle} is started and running; it's in {gear:state}."],
)
say.tool(
    "stop_engine",
    asks=[
        "Turn off {vehicle}.",
        "Stop the engine on {vehicle}.",
        "Shut {vehicle} off, I'm done with it.",
        "Can you switch off {vehicle}? I left it running.",
        "Please switch {vehicle} off.",
    ],
    tells=["{@vehicle} is switched off."],
)
say.tool(
    "shift_gear",
    asks=[
        "Put {vehicle} in {gear}.",
        "Shift {vehicle} into {gear}.",
        "Can you move {vehicle} to {gear}?",
        "Switch {vehicle} into {gear}, please.",
        "Please put {vehicle} into {gear}.",
    ],
    tells=["{@vehicle} is in {gear:state} now."],
    words={"gear": {"P": "park", "R": "reverse", "N": "neutral", "D": "drive"}},
)

# -- comfort -----------------------------------------------------------------------------------
say.tool(
    "set_climate",
    asks=[
        "Turn the climate {on} in {vehicle}.",
        "Switch the climate in {vehicle} {on}, please.",
        "Set {vehicle} to {temperature} degrees.",
        "Make it {temperature} degrees in {vehicle} before I get there.",
        "Set the temperature in {vehicle} to {temperature} degrees {unit}.",
        "Put the climate in {vehicle} on {mode}.",
        "Set the fan in {vehicle} to {fan_pct}%.",
    ],
    tells=[
        "The climate in {@vehicle} is {climate_on:state}, set to {target_temperature}{temperature_unit} "
        "in {ac_mode} mode with the fan at {fan_pct}%; it's {cabin_temperature}{temperature_unit} "
        "inside right now."
    ],
    words={
        "on": ON_OFF,
        "unit": {"celsius": "Celsius", "fahrenheit": "Fahrenheit"},
        "mode": {"auto": "auto", "cool": "cool", "heat": "heat", "defrost": "defrost"},
    },
    values={"temperature": (20, 21, 22, 68, 70, 72), "fan_pct": (30, 50, 70, 100)},
)
say.tool(
    "set_seat_heater",
    asks=[
        "Set the {seat} seat heater in {vehicle} to {level}.",
        "Turn the {seat} seat heater in {vehicle} to {level}.",
        "It's cold out, put the {seat} seat heat in {vehicle} to {level}.",
        "Can you set the {seat} seat heater of {vehicle} to {level}?",
        "Please switch the {seat} seat heater in {vehicle} to {level}.",
    ],
    tells=["The {@seat} seat heater in {@vehicle} is set to {@level}."],
    words={
        "seat": {"driver": "driver's", "passenger": "front passenger"},
        "level": {0: "off", 1: "low", 2: "medium", 3: "high"},
    },
)
say.tool(
    "set_headlights",
    asks=[
        "Set the headlights on {vehicle} to {mode}.",
        "Can you switch the headlights of {vehicle} to {mode}?",
        "Headlights of {vehicle} to {mode}, please.",
        "Please change the headlights in {vehicle} to {mode}.",
        "I want the headlights of {vehicle} set to {mode}.",
    ],
    tells=["The headlights of {@vehicle} are set to {headlights} now."],
    words={"mode": {"off": "off", "on": "on", "auto": "auto"}},
)
# Turning cruise off would need phrasings without a speed, and a phrasing cannot pin ``activate``:
# "turn off cruise at 55" would be said; so users here only set it (see the report of issue 31).
say.tool(
    "set_cruise_control",
    asks=[
        "Turn cruise control {activate} in {vehicle} at {speed}.",
        "Switch cruise {activate} in {vehicle}, {speed} please.",
        "Can you turn cruise {activate} in {vehicle}? Set it to {speed}.",
        "I'm on the highway, turn cruise {activate} in {vehicle} at {speed}.",
        "Turn cruise control {activate} in {vehicle} at {speed} and keep {follow_distance_m} meters "
        "behind the car ahead.",
    ],
    tells=[
        "Cruise control in {@vehicle} is on at {cruise_speed} {speed_unit}, keeping {follow_distance_m} m "
        "behind the car ahead.",
        "Cruise control in {@vehicle} is off.",
    ],
    words={"activate": ON_OFF},
    values={
        "activate": (True,),
        "speed": (30, 40, 45, 55, 60, 65, 70),
        "follow_distance_m": (40, 50, 60, 80),
    },
)


# -- navigation and trips --------------------------------------------------------------------------
say.tool(
    "set_navigation",
    asks=[
        "Navigate {vehicle} to {destination}.",
        "Send {destination} to the navigation in {vehicle}.",
        "Set the destination in {vehicle} to {destination}, I'm driving there later.",
        "I'm heading to {destination}; can you put it into the navigation of {vehicle}?",
        "Route {vehicle} to {destination}.",
    ],
    tells=[
        "{@vehicle} is navigating to {destination}: {distance} {distance_unit} away, with about "
        "{range} {distance_unit} of range on board."
    ],
    values={"destination": PLACES},
)
say.tool(
    "estimate_trip",
    asks=[
        "Can {vehicle} make it to {destination} on what it has left?",
        "How far is {destination} for {vehicle}, and does it have the range?",
        "I want to drive {vehicle} to {destination} without stopping; is there enough range?",
        "Can {vehicle} do {distance} {unit} without charging or filling up?",
        "Is there enough in {vehicle} for a {distance} {unit} drive?",
    ],
    tells=[
        "{destination} is {distance} {distance_unit} away, and {@vehicle} has about {range} "
        "{distance_unit} of range.",
        "{@vehicle} has about {range} {distance_unit} of range for that {distance} {distance_unit} drive.",
    ],
    words={"unit": {"km": "km", "miles": "miles"}},
    values={"destination": PLACES, "distance": (10, 25, 40, 60, 100, 150, 250)},
)
say.tool(
    "list_trips",
    asks=[
        "Where has {vehicle} been driven lately?",
        "Show me the recent trips of {vehicle}.",
        "What trips has {vehicle} made recently?",
        "Show me the last {limit} trips of {vehicle}.",
        "I'm doing my mileage log, list the trips {vehicle} made.",
    ],
    tells=[
        "{@vehicle} has {trips:count(trip)} on record; the latest went to "
        "{trips:list(to_address, started_at:day)}.",
        "There are no trips on record for {@vehicle}.",
    ],
    values={"limit": (3, 5, 10)},
)

# -- fuel and charging ---------------------------------------------------------------------------
say.tool(
    "refuel",
    asks=[
        "Fill up {vehicle}.",
        "Top off the tank in {vehicle}, it's running low.",
        "Add {amount} {unit} of fuel to {vehicle}.",
        "Put {amount} {unit} in {vehicle}.",
        "Please fill the tank of {vehicle}.",
    ],
    tells=[
        "{@vehicle} got {added} {added_unit} of fuel; the tank is {fuel_pct}% full, good for about {range} "
        "{range_unit}."
    ],
    # words for the amount, or it reads as money ("$5 liters")
    words={"unit": {"liters": "liters", "gallons": "gallons"}, "amount": {n: str(n) for n in AMOUNTS}},
    values={"amount": AMOUNTS},
)
say.tool(
    "start_charging",
    asks=[
        "Start charging {vehicle}.",
        "It's plugged in, so start charging {vehicle}.",
        "Can you start charging {vehicle}? I need it tomorrow morning.",
        "Please begin charging {vehicle}.",
        "Kick off a charge on {vehicle}.",
    ],
    tells=["{@vehicle} is charging now, from {battery_pct}% up to its {charge_limit_pct}% limit."],
)
say.tool(
    "stop_charging",
    asks=[
        "Stop charging {vehicle}.",
        "That's enough charge for {vehicle}, stop it.",
        "Can you stop the charge on {vehicle}?",
        "Please end the charging session of {vehicle}.",
        "Stop charging {vehicle}, I need to leave now.",
    ],
    tells=["{@vehicle} stopped charging at {battery_pct}%; it's still plugged in."],
)
say.tool(
    "set_charge_limit",
    asks=[
        "Set the charge limit on {vehicle} to {percent}%.",
        "Only charge {vehicle} to {percent}%.",
        "I've got a long drive coming up, let {vehicle} charge to {percent}%.",
        "Cap charging on {vehicle} at {percent}%.",
        "Can you change the charge limit of {vehicle} to {percent}%?",
    ],
    tells=["{@vehicle} will charge up to {charge_limit_pct}% now; it's at {battery_pct}%."],
    values={"percent": (60, 70, 80, 85, 90, 100)},
)

# -- tires and service -----------------------------------------------------------------------------
_PRESSURES = (
    "{pressures.front_left} front left, {pressures.front_right} front right, {pressures.rear_left} rear "
    "left and {pressures.rear_right} rear right ({pressure_unit}), with {recommended} recommended"
)
say.tool(
    "check_tire_pressure",
    asks=[
        "Check the tire pressure on {vehicle}.",
        "Are the tires on {vehicle} OK?",
        "The dashboard of {vehicle} showed a tire light, can you check the pressures?",
        "What are the tire pressures on {vehicle}?",
        "Before my trip, check the tires of {vehicle}.",
    ],
    tells=[
        "{@vehicle} has {low_tires:count(low tire)}: the tires read " + _PRESSURES + ".",
        "The tires on {@vehicle} look fine: " + _PRESSURES + ".",
    ],
)
say.tool(
    "find_service_center",
    asks=[
        "Find {service} near {vehicle}.",
        "I need {service} close to where {vehicle} is parked.",
        "Is there {service} near {vehicle}?",
        "Can you find {service} near {vehicle}? Something's not right with it.",
        "Show me {limit} options for {service} near {vehicle}.",
    ],
    tells=["Nearest first: {centers:list(name, address)}."],
    words={
        "service": {
            "tires": "a tire shop",
            "battery": "an EV battery shop",
            "general": "a mechanic",
            "glass": "an auto glass shop",
        }
    },
    values={"limit": (2, 3, 5)},
)
say.tool(
    "list_alerts",
    asks=[
        "What alerts does {vehicle} have?",
        "Any warnings on {vehicle}?",
        "Is {vehicle} warning about anything?",
        "Show me the alerts on {vehicle}, {include_cleared}.",
        "A light came on in {vehicle}; what alerts does it show, {include_cleared}?",
    ],
    tells=[
        "{@vehicle} has {alerts:count(alert)}: {alerts:list(message, at:day)}.",
        "{@vehicle} has no alerts right now.",
    ],
    words={"include_cleared": {True: "including the cleared ones", False: "only the active ones"}},
)
say.tool(
    "clear_alert",
    asks=[
        "Dismiss {alert}.",
        "Clear {alert}, I already took care of it.",
        "Please clear {alert}.",
        "You can dismiss {alert}, it's handled.",
        "Get rid of {alert}, that's been dealt with.",
    ],
    tells=["The {code} alert is cleared."],
)

# -- valet and keys ---------------------------------------------------------------------------------
say.tool(
    "set_valet_mode",
    asks=[
        "Switch valet mode {on} for {vehicle}; the PIN is {pin}.",
        "Valet mode {on} for {vehicle}, please, PIN {pin}.",
        "Please turn valet mode {on} for {vehicle} with PIN {pin}.",
        "Set valet mode to {on} for {vehicle}, PIN {pin}.",
        "Use PIN {pin} to switch valet mode {on} for {vehicle}.",
    ],
    tells=["Valet mode is {valet_mode:state} for {@vehicle}."],
    words={"on": ON_OFF},
)
say.tool(
    "list_digital_keys",
    asks=[
        "Who has a key to {vehicle}?",
        "Who can drive {vehicle}?",
        "List the people with keys to {vehicle}.",
        "I'm reviewing access; who has keys to {vehicle}?",
        "Show me who's got a digital key for {vehicle}.",
    ],
    tells=["{@vehicle} has {keys:count(key holder)}: {keys:list(name, email)}."],
)
say.tool(
    "share_digital_key",
    asks=[
        "Give {email} a key to {vehicle}.",
        "Share {vehicle} with {email}, they're borrowing it this week.",
        "Let {email} drive {vehicle}.",
        "Send a digital key for {vehicle} to {email}.",
        "Add {email} as a driver on {vehicle}.",
    ],
    tells=["{name} ({email}) now has a driver's key to {@vehicle}."],
)
say.tool(
    "revoke_digital_key",
    asks=[
        "Take away {email}'s key to {vehicle}.",
        "Revoke the key {email} has for {vehicle}.",
        "Please remove {email} as a driver of {vehicle}, they don't need it anymore.",
        "Remove {email}'s access to {vehicle}.",
        "Cancel the digital key for {email} on {vehicle}.",
    ],
    tells=["{name} no longer has a key to {@vehicle}."],
)
say.tool(
    "list_commands",
    asks=[
        "What commands were sent to {vehicle}?",
        "Show me the command history of {vehicle}.",
        "What's been done to {vehicle} from the app lately?",
        "Someone changed things on {vehicle}; show me the recent commands.",
        "Show me the last {limit} commands sent to {vehicle}.",
    ],
    tells=[
        "{@vehicle} has {commands:count(command)} on record; most recently: "
        "{commands:list(command, at:when)}.",
        "No commands have been sent to {@vehicle}.",
    ],
    values={"limit": (3, 5, 10)},
)
