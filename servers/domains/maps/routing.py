"""Routes between two resolved points: which road links allow them, the distance and duration
(always ``servers.kit.geo.route``, so vehicle and delivery estimates agree), and a step list
synthesized from the city grid.

The grid of ``servers.kit.geo`` has east-west streets (``STREET_NAMES``, one every 0.004° of
latitude) with house numbers growing eastwards; the map adds five north-south cross streets at
house numbers 0, 100, 200, 300 and 400 (``CROSS_STREETS``), which is all a step list needs.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

from servers.domains.maps.model import LOCAL_ROAD_KMH, MAX_WALK_KM
from servers.domains.maps.rules import Point
from servers.kit import Db, ToolError, geo

CROSS_STREETS = ("Front Ave", "2nd Ave", "3rd Ave", "4th Ave", "5th Ave")
KM_PER_MI = 1.609344


def link_between(db: Db, a: str, b: str) -> dict | None:
    """The road link between two cities (either direction), or None if no road joins them."""
    return db.one(
        "SELECT l.* FROM road_links l JOIN cities x ON x.id = l.from_city_id JOIN cities y ON y.id = l.to_city_id "
        "WHERE (x.name = ? AND y.name = ?) OR (x.name = ? AND y.name = ?)",
        a,
        b,
        b,
        a,
    )


def _network(db: Db, city: str) -> str:
    return db.scalar("SELECT road_network FROM cities WHERE name = ?", city)


def check_link(db: Db, a: Point, b: Point, mode: str, avoid_tolls: bool) -> dict | None:
    """The link a route between two cities takes, or a ToolError saying why there is none."""
    if a.city == b.city:
        return None
    link = link_between(db, a.city, b.city)
    where = f"no {mode} route between {a.label} ({a.city}) and {b.label} ({b.city})"
    if link is None:
        raise ToolError(
            f"{where}: {a.city} is on the {_network(db, a.city)} road network and {b.city} on the "
            f"{_network(db, b.city)} one, and no road joins them"
        )
    if link["closed"]:
        raise ToolError(
            f"{where}: {link['name']} is closed ({link['closure_note']}) and no other road joins them"
        )
    if link["kind"] == "ferry" and mode != "driving":
        raise ToolError(f"{where}: the only link, {link['name']}, is a car ferry; only driving routes use it")
    if link["toll"] and avoid_tolls and mode == "driving":
        raise ToolError(
            f"{where} avoiding tolls: the only road, {link['name']}, is a toll road; drop avoid_tolls"
        )
    return link


def leg(
    db: Db, a: Point, b: Point, mode: str, *, avoid_tolls: bool = False, avoid_highways: bool = False
) -> dict[str, Any]:
    """Distance and duration between two points, or a ToolError when the map has no such route."""
    link = check_link(db, a, b, mode, avoid_tolls)
    out = geo.route(a.lat, a.lon, b.lat, b.lon, mode)
    km = out["distance_km"]
    if mode == "walking" and km > MAX_WALK_KM:
        raise ToolError(
            f"a walking route from {a.label} to {b.label} would be {km:,.1f} km, over the {MAX_WALK_KM:.0f} km "
            "limit for walking; try cycling or driving"
        )
    minutes = out["duration_min"]
    if link is not None and mode == "driving" and avoid_highways:
        minutes = round(km / LOCAL_ROAD_KMH * 60, 1)  # the local roads beside the highway
    return {
        "distance_km": km,
        "distance_mi": round(km / KM_PER_MI, 2),
        "duration_min": minutes,
        "link": link,
    }


# -- steps ---------------------------------------------------------------------------------------


def _grid(p: Point) -> tuple[int, float, str]:
    """(street index, house position, street name) of the grid address nearest the point."""
    c = geo.city(p.city)
    half = len(geo.STREET_NAMES) / 2
    street = max(0, min(len(geo.STREET_NAMES) - 1, round((p.lat - c.lat) / geo.STREET_SPACING_DEG + half)))
    number = (p.lon - c.lon) / geo.HOUSE_SPACING_DEG + geo.HOUSES_PER_STREET / 2
    return street, max(0.0, min(float(geo.HOUSES_PER_STREET), number)), geo.STREET_NAMES[street]


def _turn(heading: str, to: str) -> str:
    left = {("east", "north"), ("north", "west"), ("west", "south"), ("south", "east")}
    return "left" if (heading, to) in left else "right"


def city_steps(a: Point, b: Point) -> list[tuple[str, float]]:
    """(instruction, grid length) pairs from a to b inside one city: along a's street to a cross
    street, along it to b's street, then along b's street."""
    sa, na, name_a = _grid(a)
    sb, nb, name_b = _grid(b)
    lat = math.radians(geo.city(a.city).lat)
    house = geo.HOUSE_SPACING_DEG * 111.32 * math.cos(lat)
    block = geo.STREET_SPACING_DEG * 111.2
    if sa == sb:
        heading = "east" if nb >= na else "west"
        return [(f"Head {heading} on {name_a}", abs(nb - na) * house)]
    k = min(
        range(len(CROSS_STREETS)), key=lambda k: (abs(na - 100 * k) + abs(100 * k - nb), abs(na - 100 * k))
    )
    x = 100 * k
    first = "east" if x >= na else "west"
    up = "north" if sb > sa else "south"
    last = "east" if nb >= x else "west"
    steps = []
    if abs(x - na) > 0:
        steps.append((f"Head {first} on {name_a} toward {CROSS_STREETS[k]}", abs(x - na) * house))
        steps.append((f"Turn {_turn(first, up)} onto {CROSS_STREETS[k]}", abs(sb - sa) * block))
    else:
        steps.append((f"Head {up} on {CROSS_STREETS[k]}", abs(sb - sa) * block))
    if abs(nb - x) > 0:
        steps.append((f"Turn {_turn(up, last)} onto {name_b}", abs(nb - x) * house))
    return steps


def _between_cities(a: Point, b: Point, link: dict) -> list[tuple[str, float]]:
    ca, cb = geo.city(a.city), geo.city(b.city)
    bearing = _compass(ca.lat, ca.lon, cb.lat, cb.lon)
    take = "Take the car ferry" if link["kind"] == "ferry" else "Follow"
    return [
        (f"Head to {link['name']} in {a.city}", geo.haversine_km(a.lat, a.lon, ca.lat, ca.lon)),
        (
            f"{take} {link['name']} {bearing} toward {b.city}",
            geo.haversine_km(ca.lat, ca.lon, cb.lat, cb.lon),
        ),
        (f"Exit into {b.city} and drive on to {b.label}", geo.haversine_km(cb.lat, cb.lon, b.lat, b.lon)),
    ]


def _compass(lat1: float, lon1: float, lat2: float, lon2: float) -> str:
    north, east = lat2 - lat1, (lon2 - lon1) * math.cos(math.radians((lat1 + lat2) / 2))
    if abs(north) >= abs(east):
        return "north" if north > 0 else "south"
    return "east" if east > 0 else "west"


def steps(a: Point, b: Point, route: dict[str, Any]) -> list[dict[str, Any]]:
    """The step list, its lengths scaled so they add up to the route's distance and duration."""
    parts = city_steps(a, b) if route["link"] is None else _between_cities(a, b, route["link"])
    parts = [p for p in parts if p[1] > 0] or [(f"Head to {b.label}", 1.0)]
    total = sum(length for _, length in parts)
    out, km_left, min_left = [], route["distance_km"], route["duration_min"]
    for i, (text, length) in enumerate(parts):
        last = i == len(parts) - 1
        km = round(km_left if last else route["distance_km"] * length / total, 2)
        minutes = round(min_left if last else route["duration_min"] * length / total, 1)
        km_left, min_left = round(km_left - km, 2), round(min_left - minutes, 1)
        out.append(
            {
                "step": i + 1,
                "instruction": f"{text} for {km:g} km",
                "distance_km": km,
                "duration_min": minutes,
            }
        )
    out.append(
        {"step": len(out) + 1, "instruction": f"Arrive at {b.label}", "distance_km": 0.0, "duration_min": 0.0}
    )
    return out


# -- trips ---------------------------------------------------------------------------------------


def best_order(cost: list[list[float]], back: bool) -> tuple[list[int], float]:
    """The visiting order of stops 1..n from 0 that minimizes total cost (Held-Karp; ties go to
    the order that comes first), returning to 0 if ``back``."""
    n = len(cost) - 1
    if n <= 7:  # few stops: every order, first-found wins ties
        best: tuple[float, list[int]] | None = None
        for perm in itertools.permutations(range(1, n + 1)):
            path = [0, *perm, *([0] if back else [])]
            total = sum(cost[x][y] for x, y in itertools.pairwise(path))
            if best is None or total < best[0] - 1e-9:
                best = (total, list(perm))
        return best[1], best[0]
    dp: dict[tuple[int, int], tuple[float, list[int]]] = {}
    for j in range(1, n + 1):
        dp[(1 << j, j)] = (cost[0][j], [j])
    for size in range(2, n + 1):
        for subset in itertools.combinations(range(1, n + 1), size):
            mask = sum(1 << j for j in subset)
            for j in subset:
                prev = mask ^ (1 << j)
                options = [(dp[(prev, i)][0] + cost[i][j], dp[(prev, i)][1] + [j]) for i in subset if i != j]
                dp[(mask, j)] = min(options, key=lambda o: (round(o[0], 6), o[1]))
    full = sum(1 << j for j in range(1, n + 1))
    ends = [(dp[(full, j)][0] + (cost[j][0] if back else 0.0), dp[(full, j)][1]) for j in range(1, n + 1)]
    total, order = min(ends, key=lambda o: (round(o[0], 6), o[1]))
    return order, total
