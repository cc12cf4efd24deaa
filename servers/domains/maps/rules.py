"""Rules the map tools share: what "open now" means, how a location an agent names is resolved,
and the sampler's conditions (the same SQL the tools check)."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from datetime import datetime
from typing import Annotated, Any
from zoneinfo import ZoneInfo

from pydantic import Field

from servers.domains.maps.model import (
    DAY_NAMES,
    NEAR_CITY_KM,
    REF_TIME,
    REF_WEEKDAY,
    WEEKDAYS,
    ListItem,
    Place,
    PlaceList,
    SavedPlace,
)
from servers.kit import Db, Ref, ShortText, ToolError, geo

# -- Ref conditions: the sampler's picks -----------------------------------------------------------

ME = "(SELECT user_id FROM sessions)"
MY_SAVED = f"user_id = {ME}"
MY_LISTS = f"user_id = {ME}"
# The unary plus keeps SQLite off the status index: 96% of places are operational, and walking that
# index in id order (a nearby search, a pick related to one address) read every place instead of
# the category's or the address's few (10x on the sampler's and the route tools' queries).
OPERATIONAL = "+business_status = 'operational'"
NOT_GONE = "business_status != 'closed_permanently'"
# the shift "HH:MM-HH:MM" covering Monday 09:00 (shifts past midnight end before they start)
OPEN_SQL = (
    f"({OPERATIONAL} AND hours_mon != 'closed' AND ("
    f"(substr(hours_mon, 1, 5) <= substr(hours_mon, 7, 5) AND substr(hours_mon, 1, 5) <= '{REF_TIME}' "
    f"AND '{REF_TIME}' < substr(hours_mon, 7, 5)) OR "
    f"(substr(hours_mon, 1, 5) > substr(hours_mon, 7, 5) AND substr(hours_mon, 1, 5) <= '{REF_TIME}') OR "
    f"(substr(hours_sun, 1, 5) > substr(hours_sun, 7, 5) AND hours_sun != 'closed' "
    f"AND '{REF_TIME}' < substr(hours_sun, 7, 5))))"
)

AnyPlace = Ref[Place]
LivePlace = Ref[Place, NOT_GONE]
# a place of the user's own city they have not saved yet (what people save: their neighbourhood)
HOME_CITY = f"(SELECT c.id FROM cities c JOIN users u ON u.home_city = c.name WHERE u.id = {ME})"
Savable = Ref[
    Place,
    f"{OPERATIONAL} AND city_id = {HOME_CITY} AND id NOT IN (SELECT place_id FROM saved_places "
    f"WHERE {MY_SAVED} AND place_id IS NOT NULL)",
]
MySaved = Ref[SavedPlace, MY_SAVED]
MyList = Ref[PlaceList, MY_LISTS]
MyFilledList = Ref[
    PlaceList, f"{MY_LISTS} AND EXISTS (SELECT 1 FROM list_items i WHERE i.list_id = lists.id)"
]
ListedPlace = Ref[
    Place,
    f"id IN (SELECT i.place_id FROM list_items i JOIN lists l ON l.id = i.list_id WHERE l.{MY_LISTS})",
]
# a place to travel from or to: the tools also take an address, a saved label or "lat,lon"
Waypoint = Ref[Place, OPERATIONAL]
_ = ListItem  # the table the list conditions read

ADDRESS_EXAMPLES = [
    "337 Harbor St, Portland",
    "14 Elm St, Portland",
    "120 Oak Ave, Portland",
    "250 Maple Dr, Portland",
    "48 Park Ave, Portland",
    "310 Grant St, Portland",
    "230 Oak Ave, Denver",
    "77 Pine St, Seattle",
    "150 Mill Rd, Chicago",
    "19 Cedar Ln, Boston",
    "205 Willow Way, San Francisco",
    "88 Lakeview Blvd, Austin",
]
POINT_EXAMPLES = [
    "45.5232,-122.6702",
    "45.5152,-122.6784",
    "45.507,-122.69",
    "45.53,-122.665",
    "47.6062,-122.3321",
    "37.7749,-122.4194",
    "40.7128,-74.006",
    "41.8781,-87.6298",
    "51.5074,-0.1278",
    "35.6762,139.6503",
]
Location = Annotated[
    ShortText,
    Field(
        description="A place id (PLC-000001), a street address ('14 Elm St, Portland'), one of your "
        "saved labels ('home', 'work', ...), a city ('Seattle') or 'lat,lon' ('45.5152,-122.6784').",
        examples=["home", "work", "home", *ADDRESS_EXAMPLES[:6], "Portland", "45.5152,-122.6784"],
    ),
]
Coordinates = Annotated[
    ShortText,
    Field(
        description="A point as 'lat,lon' in decimal degrees, latitude first, e.g. '45.5152,-122.6784'.",
        examples=POINT_EXAMPLES,
    ),
]


# -- hours --------------------------------------------------------------------------------------


def shift(text: str) -> tuple[str, str] | None:
    return None if text == "closed" else (text[:5], text[6:11])


def open_at(place: dict, weekday: int, hhmm: str) -> bool:
    """Open at a local weekday (0 = Monday) and time, counting shifts that run past midnight."""
    if place["business_status"] != "operational":
        return False
    today = shift(place[f"hours_{WEEKDAYS[weekday % 7]}"])
    if today and (today[0] <= hhmm < today[1] or (today[1] < today[0] and hhmm >= today[0])):
        return True
    before = shift(place[f"hours_{WEEKDAYS[(weekday - 1) % 7]}"])
    return bool(before and before[1] < before[0] and hhmm < before[1])


def open_now(place: dict) -> bool:
    """Open at the reference moment: Monday 09:00 on the place's own city clock."""
    return open_at(place, REF_WEEKDAY, REF_TIME)


def status_now(place: dict) -> str:
    """'open until 15:00', 'closed, opens at 11:00', 'closed all day Monday', 'permanently closed'."""
    status = place["business_status"]
    if status != "operational":
        return status.replace("_", " ")
    today = shift(place["hours_mon"])
    if open_now(place):
        if today and today[0] <= REF_TIME:
            return "open 24 hours" if today == ("00:00", "24:00") else f"open until {today[1]}"
        return f"open until {shift(place['hours_sun'])[1]}"
    if today is None:
        return "closed all day Monday"
    if today[0] > REF_TIME:
        return f"closed, opens at {today[0]}"
    return "closed for the rest of the day"


def hours(place: dict) -> dict[str, str]:
    return {day: place[f"hours_{short}"] for day, short in zip(DAY_NAMES, WEEKDAYS, strict=True)}


@functools.cache
def utc_offset(timezone: str) -> str:
    """The zone's UTC offset at the reference date (zoneinfo: daylight saving time included)."""
    local = datetime(2026, 6, 1, 9, 0, tzinfo=ZoneInfo(timezone))
    return local.isoformat()[-6:]


# -- resolving what an agent names ---------------------------------------------------------------


@dataclass(frozen=True)
class Point:
    """A resolved location: what it was resolved as, the point, and the city it is in."""

    label: str
    lat: float
    lon: float
    city: str
    kind: str  # place | address | saved | city | coordinates
    place_id: str | None = None

    def as_dict(self) -> dict[str, Any]:
        out = {
            "resolved_as": self.kind,
            "name": self.label,
            "lat": self.lat,
            "lon": self.lon,
            "city": self.city,
        }
        if self.place_id:
            out["place_id"] = self.place_id
        return out


_COORDS = re.compile(r"^\s*(-?\d{1,3}(?:\.\d+)?)\s*,\s*(-?\d{1,3}(?:\.\d+)?)\s*$")


def coordinates(text: str) -> tuple[float, float] | None:
    """``"lat,lon"`` -> the pair, checked: a swapped ``lon,lat`` (OSRM's order) gets a hint."""
    m = _COORDS.match(text)
    if not m:
        return None
    lat, lon = float(m.group(1)), float(m.group(2))
    check_point(lat, lon)
    return lat, lon


def check_point(lat: float, lon: float) -> None:
    if abs(lat) > 90 and abs(lon) <= 90:
        raise ToolError(
            f"latitude {lat:g} is out of range (-90 to 90); '{lat:g},{lon:g}' looks like lon,lat: "
            f"write latitude first, '{lon:g},{lat:g}'"
        )
    if abs(lat) > 90 or abs(lon) > 180:
        raise ToolError(
            f"({lat:g}, {lon:g}) is not a point: latitude must be -90 to 90 and longitude -180 to 180"
        )


def city_near(lat: float, lon: float) -> str:
    """The city a point is in: the nearest one, if within ``NEAR_CITY_KM``."""
    c = min(geo.CITIES, key=lambda c: geo.haversine_km(lat, lon, c.lat, c.lon))
    km = geo.haversine_km(lat, lon, c.lat, c.lon)
    if km > NEAR_CITY_KM:
        raise ToolError(
            f"no map data at ({lat:g}, {lon:g}): the nearest covered city, {c.name}, is {km:,.0f} km away "
            f"(the map covers {', '.join(x.name for x in geo.CITIES)})"
        )
    return c.name


def place_point(place: dict, city: str) -> Point:
    return Point(
        f"{place['name']}, {place['address']}", place["lat"], place["lon"], city, "place", place["id"]
    )


def city_name(db: Db, city_id: str) -> str:
    return _city_names(db)[city_id]


def _city_names(db: Db) -> dict[str, str]:
    return {r["id"]: r["name"] for r in db.all("SELECT id, name FROM cities")}


def resolve(db: Db, text: str) -> Point:
    """A location as agents give it: a place id, 'lat,lon', a saved label, an address, a city or
    a place's exact name. Never a guess: several places of that name is an error listing them."""
    raw = text.strip()
    if not raw:
        raise ToolError("an empty location: give a place id, an address, a saved label, a city or 'lat,lon'")
    if re.fullmatch(r"(?i)plc-\d+", raw):
        place = db.get(Place, raw.upper())
        return place_point(place, city_name(db, place["city_id"]))
    pair = coordinates(raw)
    if pair is not None:
        return Point(f"{pair[0]},{pair[1]}", pair[0], pair[1], city_near(*pair), "coordinates")
    saved = saved_point(db, raw)
    if saved is not None:
        return saved
    where = geo.geocode(raw)
    if where is not None:
        return Point(where.line, where.lat, where.lon, where.city, "address")
    try:
        c = geo.city(raw)
        return Point(f"{c.name} city centre", c.lat, c.lon, c.name, "city")
    except KeyError:
        pass
    return _by_name(db, raw)


def _by_name(db: Db, raw: str) -> Point:
    found = db.all("SELECT * FROM places WHERE lower(name) = lower(?) ORDER BY id LIMIT 6", raw)
    if len(found) == 1:
        return place_point(found[0], city_name(db, found[0]["city_id"]))
    if found:
        names = _city_names(db)
        shown = "; ".join(f"{p['id']} in {names[p['city_id']]} ({p['address']})" for p in found)
        raise ToolError(f"several places are called {raw!r}: {shown}; pass the place id")
    raise ToolError(
        f"cannot find {raw!r} on the map: give a place id (PLC-...), a street address like "
        f"'14 Elm St, Portland' (house numbers 1-{geo.HOUSES_PER_STREET} on {', '.join(geo.STREET_NAMES)}), "
        "a saved label, a city or 'lat,lon'"
    )


def saved_point(db: Db, label: str) -> Point | None:
    """One of the session user's saved labels, as the point it stands for."""
    row = db.one(
        f"SELECT s.label, s.place_id, a.line, a.lat, a.lon, c.name AS city FROM saved_places s "
        f"LEFT JOIN addresses a ON a.id = s.address_id LEFT JOIN cities c ON c.id = a.city_id "
        f"WHERE s.user_id = {ME} AND lower(s.label) = lower(?)",
        label,
    )
    if row is None:
        return None
    if row["place_id"]:
        place = db.get(Place, row["place_id"])
        p = place_point(place, city_name(db, place["city_id"]))
        return Point(f"{row['label']} ({p.label})", p.lat, p.lon, p.city, "saved", p.place_id)
    return Point(f"{row['label']} ({row['line']})", row["lat"], row["lon"], row["city"], "saved")


def place_summary(place: dict, city: str) -> dict[str, Any]:
    return {
        "id": place["id"],
        "name": place["name"],
        "category": place["category"],
        "cuisine": place["cuisine"],
        "address": place["address"],
        "city": city,
        "rating": place["rating"],
        "review_count": place["review_count"],
        "price_level": place["price_level"],
        "business_status": place["business_status"],
        "open_now": open_now(place),
    }
