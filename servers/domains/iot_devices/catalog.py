"""Fixed facts the seed draws from: room plans, device makes and models, names of things."""

from __future__ import annotations

# (manufacturer, model) per kind; lights carry (min K, max K, colour) in LIGHT_MODELS instead
MODELS: dict[str, tuple[tuple[str, str], ...]] = {
    "switch": (("Lutron", "Caseta Smart Switch"), ("Leviton", "Decora Smart Switch")),
    "plug": (("TP-Link", "Kasa KP125"), ("Eve", "Energy"), ("Meross", "MSS110")),
    "fan": (("Dyson", "Pure Cool TP07"), ("Vornado", "Smart 633DC"), ("Hunter", "SIMPLEconnect")),
    "appliance": (("Coway", "Airmega 250"), ("LG", "PuriCare Dehumidifier"), ("Bosch", "800 Series Dishwasher")),
    "camera": (("Ring", "Indoor Cam"), ("Arlo", "Pro 4"), ("Wyze", "Cam v3"), ("Google", "Nest Cam")),
    "tv": (("Samsung", "QN90C"), ("LG", "OLED C3"), ("Sony", "Bravia X90L")),
    "speaker": (("Sonos", "One"), ("Amazon", "Echo 4th Gen"), ("Google", "Nest Audio")),
    "thermostat": (("ecobee", "Smart Thermostat Premium"), ("Google", "Nest Learning Thermostat"),
                   ("Honeywell", "T9 Smart Thermostat")),
    "lock": (("August", "Wi-Fi Smart Lock"), ("Yale", "Assure Lock 2"), ("Schlage", "Encode Plus")),
    "blinds": (("IKEA", "FYRTUR"), ("Lutron", "Serena Shades"), ("SwitchBot", "Blind Tilt")),
    "garage_door": (("Chamberlain", "myQ Smart Garage"), ("Genie", "Aladdin Connect")),
    "vacuum": (("iRobot", "Roomba j7+"), ("Roborock", "S8 Pro"), ("Eufy", "RoboVac X8")),
    "alarm_panel": (("Ring", "Alarm Keypad"), ("SimpliSafe", "Keypad"), ("Abode", "Keypad")),
    "contact_sensor": (("Aqara", "Door and Window Sensor"), ("Ring", "Contact Sensor")),
    "motion_sensor": (("Philips Hue", "Motion Sensor"), ("Aqara", "Motion Sensor P1")),
    "temp_sensor": (("Aqara", "Temperature and Humidity Sensor"), ("SwitchBot", "Meter Plus")),
    "leak_sensor": (("Moen", "Flo Smart Water Detector"), ("Aqara", "Water Leak Sensor")),
    "smoke_detector": (("Google", "Nest Protect"), ("First Alert", "Onelink Safe & Sound")),
}  # fmt: skip
LIGHT_MODELS: tuple[tuple[str, str, int, int, bool], ...] = (
    ("Philips Hue", "White and Color Ambiance A19", 2000, 6500, True),
    ("Philips Hue", "White Ambiance BR30", 2200, 6500, False),
    ("IKEA", "TRADFRI White Spectrum", 2200, 4000, False),
    ("LIFX", "Color A19", 1500, 9000, True),
    ("Sengled", "Smart LED Soft White", 2700, 2700, False),
)
BATTERY_KINDS = ("lock", "contact_sensor", "motion_sensor", "temp_sensor", "leak_sensor", "smoke_detector")
HVAC_SETS = ("off,heat,cool,heat_cool,auto", "off,heat,cool,heat_cool", "off,heat,cool,auto,fan_only,dry")
SPEAKER_SOURCES = "Spotify,TuneIn,Bluetooth,AirPlay"
TV_SOURCES = "Live TV,HDMI 1,HDMI 2,Netflix,YouTube"
VACUUM_FAULTS = ("main brush stuck", "wheel blocked", "dustbin missing")

# Rooms every home has, then rooms some homes have, in the order they are added.
CORE_ROOMS = ("Entryway", "Hallway", "Living room", "Kitchen", "Primary bedroom", "Bathroom")
EXTRA_ROOMS = (
    "Office", "Garage", "Dining room", "Basement", "Bedroom 2", "Laundry room", "Guest room",
    "Patio", "Nursery", "Bedroom 3",
)  # fmt: skip
FLOORS = {"Basement": -1, "Primary bedroom": 1, "Bedroom 2": 1, "Bedroom 3": 1, "Nursery": 1, "Guest room": 1}

# room -> [(kind, device name after the room name, chance)]
ROOM_DEVICES: dict[str, tuple[tuple[str, str, float], ...]] = {
    "Entryway": (("lock", "Front door lock", 1), ("contact_sensor", "Front door sensor", 1),
                 ("camera", "Front door camera", 0.8), ("light", "Entryway light", 1),
                 ("switch", "Porch light", 0.7)),
    "Hallway": (("alarm_panel", "Hallway keypad", 1), ("thermostat", "Hallway thermostat", 1),
                ("motion_sensor", "Hallway motion sensor", 1), ("smoke_detector", "Hallway smoke alarm", 1),
                ("light", "Hallway light", 1)),
    "Living room": (("light", "Living room ceiling light", 1), ("light", "Living room floor lamp", 0.8),
                    ("tv", "Living room TV", 0.9), ("speaker", "Living room speaker", 0.7),
                    ("blinds", "Living room blinds", 0.7), ("contact_sensor", "Living room window", 1),
                    ("temp_sensor", "Living room climate sensor", 0.8), ("vacuum", "Robot vacuum", 0.7),
                    ("fan", "Living room fan", 0.4)),
    "Kitchen": (("light", "Kitchen ceiling light", 1), ("light", "Kitchen pendants", 0.6),
                ("leak_sensor", "Kitchen sink leak sensor", 0.8), ("plug", "Coffee maker plug", 0.7),
                ("appliance", "Dishwasher", 0.5), ("speaker", "Kitchen speaker", 0.4)),
    "Primary bedroom": (("light", "Primary bedroom light", 1), ("light", "Bedside lamp", 0.7),
                        ("thermostat", "Upstairs thermostat", 1), ("blinds", "Primary bedroom blinds", 0.7),
                        ("contact_sensor", "Primary bedroom window", 1), ("fan", "Primary bedroom fan", 0.5),
                        ("temp_sensor", "Primary bedroom climate sensor", 0.6)),
    "Bathroom": (("light", "Bathroom light", 1), ("switch", "Bathroom exhaust fan", 0.7),
                 ("leak_sensor", "Bathroom leak sensor", 0.6)),
    "Office": (("light", "Office light", 1), ("plug", "Desk lamp plug", 0.7),
               ("appliance", "Office air purifier", 0.5), ("contact_sensor", "Office window", 0.8),
               ("speaker", "Office speaker", 0.4)),
    "Garage": (("garage_door", "Garage door", 1), ("light", "Garage light", 1),
               ("lock", "Garage entry lock", 0.8), ("contact_sensor", "Garage entry sensor", 0.8),
               ("camera", "Garage camera", 0.5), ("plug", "EV charger plug", 0.3)),
    "Dining room": (("light", "Dining room chandelier", 1), ("contact_sensor", "Dining room window", 0.7)),
    "Basement": (("light", "Basement light", 1), ("appliance", "Basement dehumidifier", 0.6),
                 ("leak_sensor", "Basement leak sensor", 0.9), ("thermostat", "Basement thermostat", 0.6)),
    "Bedroom 2": (("light", "Bedroom 2 light", 1), ("contact_sensor", "Bedroom 2 window", 0.8),
                  ("blinds", "Bedroom 2 blinds", 0.5), ("fan", "Bedroom 2 fan", 0.4)),
    "Laundry room": (("light", "Laundry light", 1), ("plug", "Washer plug", 0.7),
                     ("leak_sensor", "Laundry leak sensor", 0.8), ("lock", "Side door lock", 0.7),
                     ("contact_sensor", "Side door sensor", 0.7)),
    "Guest room": (("light", "Guest room light", 1), ("thermostat", "Guest room thermostat", 0.6),
                   ("blinds", "Guest room blinds", 0.5), ("contact_sensor", "Guest room window", 0.7)),
    "Patio": (("switch", "Patio string lights", 1), ("lock", "Back door lock", 0.8),
              ("contact_sensor", "Back door sensor", 0.8), ("camera", "Backyard camera", 0.6)),
    "Nursery": (("light", "Nursery light", 1), ("temp_sensor", "Nursery climate sensor", 1),
                ("camera", "Nursery camera", 0.7)),
    "Bedroom 3": (("light", "Bedroom 3 light", 1), ("contact_sensor", "Bedroom 3 window", 0.7)),
}  # fmt: skip
# which door sensor a lock reports through
DOOR_SENSORS = {
    "Front door lock": "Front door sensor",
    "Garage entry lock": "Garage entry sensor",
    "Back door lock": "Back door sensor",
    "Side door lock": "Side door sensor",
}
HOME_KINDS = ("loft", "bungalow", "flat", "cottage", "townhouse", "cabin", "duplex")
SCENE_NAMES = (
    "Good morning", "Movie night", "Dinner", "Bedtime", "Away", "Reading", "Wake up", "Relax",
    "Party", "Focus", "Cleaning", "Welcome home",
)  # fmt: skip
CODE_LABELS = (
    "Cleaner", "Dog walker", "Babysitter", "Guest", "Plumber", "Neighbor", "Airbnb guest",
    "Contractor", "Family", "Housesitter",
)  # fmt: skip
