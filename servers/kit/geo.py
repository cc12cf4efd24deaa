"""The shared geography: fifteen real cities, each with a synthetic street grid.

City coordinates, time zones and airport codes are real (approximate city centres), so distances
between cities and local times are right. Streets inside a city are invented but laid out as a
grid with fixed spacing, which makes every address geocode to one point and every pair of points
have a distance: maps, food delivery, vehicle navigation and travel all answer from here, so they
agree with each other.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

STREET_NAMES = (
    "Elm St",
    "Oak Ave",
    "Maple Dr",
    "Cedar Ln",
    "Pine St",
    "Birch Rd",
    "Willow Way",
    "Lakeview Blvd",
    "Harbor St",
    "Mill Rd",
    "Park Ave",
    "Grant St",
)
HOUSES_PER_STREET = 400
STREET_SPACING_DEG = 0.004  # ~450 m between parallel streets
HOUSE_SPACING_DEG = 0.00006  # ~5-7 m between house numbers
ROAD_FACTOR = 1.3  # road distance over straight-line distance inside a city grid
SPEED_KMH = {"driving": 40.0, "cycling": 15.0, "walking": 4.8, "transit": 24.0}


@dataclass(frozen=True)
class City:
    name: str
    region: str
    country: str
    lat: float
    lon: float
    timezone: str
    airport: str
    postal_prefix: str


CITIES: tuple[City, ...] = (
    City("Portland", "OR", "US", 45.5152, -122.6784, "America/Los_Angeles", "PDX", "972"),
    City("Seattle", "WA", "US", 47.6062, -122.3321, "America/Los_Angeles", "SEA", "981"),
    City("San Francisco", "CA", "US", 37.7749, -122.4194, "America/Los_Angeles", "SFO", "941"),
    City("Los Angeles", "CA", "US", 34.0522, -118.2437, "America/Los_Angeles", "LAX", "900"),
    City("Denver", "CO", "US", 39.7392, -104.9903, "America/Denver", "DEN", "802"),
    City("Austin", "TX", "US", 30.2672, -97.7431, "America/Chicago", "AUS", "787"),
    City("Chicago", "IL", "US", 41.8781, -87.6298, "America/Chicago", "ORD", "606"),
    City("Atlanta", "GA", "US", 33.7490, -84.3880, "America/New_York", "ATL", "303"),
    City("Boston", "MA", "US", 42.3601, -71.0589, "America/New_York", "BOS", "021"),
    City("New York", "NY", "US", 40.7128, -74.0060, "America/New_York", "JFK", "100"),
    City("Miami", "FL", "US", 25.7617, -80.1918, "America/New_York", "MIA", "331"),
    City("Toronto", "ON", "CA", 43.6532, -79.3832, "America/Toronto", "YYZ", "M5V"),
    City("London", "ENG", "GB", 51.5074, -0.1278, "Europe/London", "LHR", "EC1"),
    City("Berlin", "BE", "DE", 52.5200, 13.4050, "Europe/Berlin", "BER", "101"),
    City("Tokyo", "13", "JP", 35.6762, 139.6503, "Asia/Tokyo", "HND", "100-"),
)
_BY_NAME = {c.name.casefold(): c for c in CITIES}


@dataclass(frozen=True)
class Address:
    """A street address on a city's grid, with the point it geocodes to."""

    number: int
    street: str
    city: str
    postal_code: str
    lat: float
    lon: float

    @property
    def line(self) -> str:
        return f"{self.number} {self.street}, {self.city}"

    def as_dict(self) -> dict[str, object]:
        return {
            "address": self.line,
            "postal_code": self.postal_code,
            "lat": self.lat,
            "lon": self.lon,
        }


def city(name: str) -> City:
    """A city by name (case-insensitive); KeyError names the cities that exist."""
    try:
        return _BY_NAME[name.casefold()]
    except KeyError:
        raise KeyError(f"unknown city {name!r}; known: {', '.join(c.name for c in CITIES)}") from None


def address(city_name: str, street_index: int, number: int) -> Address:
    """The address ``number`` on the city's ``street_index``-th street."""
    c = city(city_name)
    street_index %= len(STREET_NAMES)
    number = max(1, min(HOUSES_PER_STREET, number))
    half = len(STREET_NAMES) / 2
    lat = round(c.lat + (street_index - half) * STREET_SPACING_DEG, 6)
    lon = round(c.lon + (number - HOUSES_PER_STREET / 2) * HOUSE_SPACING_DEG, 6)
    block = number // 100
    # five digits in the US (prefix, street, block), the prefix and block elsewhere
    postal = (
        f"{c.postal_prefix}{street_index % 10}{block}" if c.country == "US" else f"{c.postal_prefix}{block}"
    )
    return Address(number, STREET_NAMES[street_index], c.name, postal, lat, lon)


_ADDRESS = re.compile(r"^\s*(\d{1,4})\s+(.+?)\s*,\s*(.+?)\s*$")


def geocode(text: str) -> Address | None:
    """``"14 Elm St, Portland"`` -> its Address; None if the street or city is not on the map."""
    m = _ADDRESS.match(text)
    if not m:
        return None
    number, street, city_name = int(m.group(1)), m.group(2).casefold(), m.group(3).casefold()
    names = [s.casefold() for s in STREET_NAMES]
    if street not in names or city_name not in _BY_NAME or not 1 <= number <= HOUSES_PER_STREET:
        return None
    return address(_BY_NAME[city_name].name, names.index(street), number)


def reverse_geocode(lat: float, lon: float) -> Address:
    """The grid address nearest to a point (in the nearest city)."""
    c = min(CITIES, key=lambda c: haversine_km(lat, lon, c.lat, c.lon))
    half = len(STREET_NAMES) / 2
    street = round((lat - c.lat) / STREET_SPACING_DEG + half)
    number = round((lon - c.lon) / HOUSE_SPACING_DEG + HOUSES_PER_STREET / 2)
    return address(c.name, max(0, min(len(STREET_NAMES) - 1, street)), number)


def haversine_km(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """Great-circle distance in kilometres."""
    r = 6371.0088
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * r * math.asin(math.sqrt(a))


def route(lat1: float, lon1: float, lat2: float, lon2: float, mode: str = "driving") -> dict[str, float]:
    """Road distance and travel time between two points for a mode of transport.

    Inside a city the grid makes roads ~30% longer than the straight line; between cities the
    straight line is stretched the same way, which is close enough for "can I get there on this
    charge" and "how long is the drive"."""
    if mode not in SPEED_KMH:
        raise KeyError(f"unknown mode {mode!r}; allowed: {', '.join(SPEED_KMH)}")
    km = round(haversine_km(lat1, lon1, lat2, lon2) * ROAD_FACTOR, 2)
    speed = SPEED_KMH[mode] if km < 60 or mode != "driving" else 90.0  # highway between cities
    return {"distance_km": km, "duration_min": round(km / speed * 60, 1)}
