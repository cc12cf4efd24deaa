"""Geocoding, reverse geocoding and time zones."""

from __future__ import annotations

import re
from typing import Annotated, Any

from pydantic import Field

from servers.domains.maps.model import REF_TIME, Address, maps
from servers.domains.maps.rules import (
    ADDRESS_EXAMPLES,
    Coordinates,
    Waypoint,
    city_near,
    coordinates,
    resolve,
    utc_offset,
)
from servers.kit import Db, ShortText, ToolError, geo

CityName = Annotated[
    ShortText,
    Field(
        description="Limit results to this city, e.g. 'Portland'.", examples=["Portland", "Seattle", "Denver"]
    ),
]
GeocodeQuery = Annotated[
    ShortText,
    Field(
        description="A street address ('14 Elm St, Portland' or '14 Elm St' with city), a city, or a place name.",
        examples=[*ADDRESS_EXAMPLES, "14 Elm St", "Seattle", "Boston"],
    ),
]
_STREET_ONLY = re.compile(r"^\s*(\d{1,4})\s+([A-Za-z .]+?)\s*$")


def _address_result(db: Db, a: geo.Address, confidence: float) -> dict[str, Any]:
    row = db.one("SELECT id FROM addresses WHERE line = ?", a.line)
    here = db.all("SELECT id, name, category FROM places WHERE address = ? ORDER BY id", a.line)
    return {
        "type": "street_address",
        "address_id": row["id"] if row else None,
        **a.as_dict(),
        "city": a.city,
        "confidence": confidence,
        "places_here": here,
    }


def _known_city(name: str | None) -> geo.City | None:
    if name is None:
        return None
    try:
        return geo.city(name.strip())
    except KeyError:
        raise ToolError(
            f"unknown city {name!r}; the map covers {', '.join(c.name for c in geo.CITIES)}"
        ) from None


@maps.tool(
    returns=Address,
    says=[
        "what are the coordinates of {query}?",
        "geocode {query} for me",
        "find {query} in {city} on the map",
    ],
)
def geocode(db: Db, query: GeocodeQuery, city: CityName | None = None) -> dict:
    """Turn an address, city or place name into points: candidates with lat/lon, postal code and
    confidence. A street address without a city that exists in several cities returns every one
    of them with status AMBIGUOUS (pass city to pick); nothing matching is an error, never a guess.

    Args:
        query: What to find.
        city: Only results in this city.
    """
    where = _known_city(city)
    text = query.strip()
    if where is not None and "," not in text and _STREET_ONLY.match(text):
        text = f"{text}, {where.name}"
    found = geo.geocode(text)
    if found is not None:
        if where is not None and found.city != where.name:
            raise ToolError(f"ZERO_RESULTS: {query!r} is in {found.city}, not in {where.name}")
        return {"status": "OK", "query": query, "results": [_address_result(db, found, 1.0)]}
    m = _STREET_ONLY.match(text)
    if m and where is None:
        matches = [geo.geocode(f"{m.group(1)} {m.group(2)}, {c.name}") for c in geo.CITIES]
        matches = [a for a in matches if a is not None]
        if matches:
            return {
                "status": "AMBIGUOUS",
                "query": query,
                "hint": f"{query!r} exists in {len(matches)} cities; pass city to choose one",
                "results": [_address_result(db, a, round(1 / len(matches), 2)) for a in matches],
            }
    try:
        c = geo.city(text)
        return {"status": "OK", "query": query, "results": [_city_result(c)]}
    except KeyError:
        pass
    return _places_named(db, query, where)


def _city_result(c: geo.City) -> dict[str, Any]:
    return {
        "type": "locality",
        "address": f"{c.name}, {c.region}, {c.country}",
        "lat": c.lat,
        "lon": c.lon,
        "city": c.name,
        "timezone": c.timezone,
        "confidence": 0.8,
    }


def _places_named(db: Db, query: str, where: geo.City | None) -> dict:
    sql = (
        "SELECT p.id, p.name, p.category, p.address, p.address_id, p.lat, p.lon, c.name AS city FROM places p "
        "JOIN cities c ON c.id = p.city_id WHERE lower(p.name) LIKE '%' || lower(?) || '%'"
    )
    params: list[Any] = [query.strip()]
    if where is not None:
        sql += " AND c.name = ?"
        params.append(where.name)
    rows = db.all(sql + " ORDER BY lower(p.name) != lower(?), p.id LIMIT 10", *params, query.strip())
    if not rows:
        scope = f" in {where.name}" if where else ""
        raise ToolError(
            f"ZERO_RESULTS: no address or place matches {query!r}{scope}; addresses look like "
            f"'14 Elm St, Portland' (house numbers 1-{geo.HOUSES_PER_STREET} on {', '.join(geo.STREET_NAMES)})"
        )
    exact = [r for r in rows if r["name"].casefold() == query.strip().casefold()]
    for r in rows:
        r.update(type="establishment", place_id=r.pop("id"), confidence=0.9 if r in exact else 0.6)
    status = "OK" if len(exact) == 1 or (len(rows) == 1) else "AMBIGUOUS"
    return {"status": status, "query": query, "results": rows}


@maps.tool(
    returns=Address,
    says=["what address is at {location}?", "which street is at the coordinates {location}?"],
)
def reverse_geocode(db: Db, location: Coordinates) -> dict:
    """The street address nearest to a point given as 'lat,lon' (latitude first).

    Args:
        location: The point, e.g. '45.5152,-122.6784'.
    """
    pair = coordinates(location)
    if pair is None:
        raise ToolError(f"{location!r} is not 'lat,lon' in decimal degrees, e.g. '45.5152,-122.6784'")
    lat, lon = pair
    city_near(lat, lon)
    a = geo.reverse_geocode(lat, lon)
    out = _address_result(db, a, 1.0)
    distance = round(geo.haversine_km(lat, lon, a.lat, a.lon) * 1000)
    return {"status": "OK", **out, "distance_m": distance, "query_lat": lat, "query_lon": lon}


@maps.tool(
    says=["what time zone is {location} in?", "what's the local time at {location}?"],
)
def get_timezone(db: Db, location: Waypoint) -> dict:
    """The time zone, UTC offset and local time at a place, address, saved label, city or 'lat,lon'.

    Every city's clock reads the reference moment, Monday 2026-06-01 09:00 local time.

    Args:
        location: Where: a place id, a street address, a saved label ('home'), a city or 'lat,lon'.
    """
    point = resolve(db, location)
    c = geo.city(point.city)
    offset = utc_offset(c.timezone)
    return {
        "location": point.as_dict(),
        "timezone": c.timezone,
        "utc_offset": offset,
        "local_time": f"2026-06-01T{REF_TIME}{offset}",
        "weekday": "Monday",
    }
