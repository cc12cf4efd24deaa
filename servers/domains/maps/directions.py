"""Routes, trip ordering, distance matrices and places along a route."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from servers.domains.maps.model import MAX_MATRIX_CELLS, MAX_STOPS, Category, Mode, Place, maps
from servers.domains.maps.routing import best_order, leg, steps
from servers.domains.maps.rules import (
    OPEN_SQL,
    OPERATIONAL,
    Point,
    Waypoint,
    place_summary,
    resolve,
)
from servers.kit import Db, IdList, ToolError

Stops = IdList[Place, OPERATIONAL]


def _route_summary(a: Point, b: Point, mode: str, r: dict[str, Any]) -> dict[str, Any]:
    out = {
        "origin": a.as_dict(),
        "destination": b.as_dict(),
        "mode": mode,
        "distance_km": r["distance_km"],
        "distance_mi": r["distance_mi"],
        "duration_min": r["duration_min"],
    }
    if r["link"] is not None:
        out.update(via=r["link"]["name"], toll=bool(r["link"]["toll"]), ferry=r["link"]["kind"] == "ferry")
    return out


def _distinct(a: Point, b: Point) -> None:
    if (a.lat, a.lon) == (b.lat, b.lon):
        raise ToolError(f"origin and destination are the same point ({a.label}); nothing to route")


@maps.tool(
    says=[
        "how long does it take to drive from {origin} to {destination}?",
        "give me {mode} directions from {origin} to {destination}",
        "how far is {destination} from {origin} by {mode}?",
        "route me from {origin} to {destination} avoiding tolls",
    ],
)
def get_route(
    db: Db,
    origin: Waypoint,
    destination: Waypoint,
    mode: Mode = "driving",
    avoid_tolls: bool = False,
    avoid_highways: bool = False,
) -> dict:
    """Distance, duration and turn-by-turn steps between two locations.

    Between cities a route takes the road link joining them: none across road networks, none on
    a closed link, a car ferry only when driving, no toll road with avoid_tolls; avoid_highways
    drives the local roads beside the highway (same distance, 40 km/h). Walking routes over
    100 km are refused.

    Args:
        origin: Where to start: a place id, a street address, a saved label ('home') or 'lat,lon'.
        destination: Where to go, in any of the same forms.
        mode: driving, walking or cycling.
        avoid_tolls: Refuse toll roads (driving).
        avoid_highways: Keep off highways (driving).
    """
    a, b = resolve(db, origin), resolve(db, destination)
    _distinct(a, b)
    r = leg(db, a, b, mode, avoid_tolls=avoid_tolls, avoid_highways=avoid_highways)
    return {**_route_summary(a, b, mode, r), "steps": steps(a, b, r)}


@maps.tool(
    says=[
        "what's the best order to visit {stops} starting from {origin}?",
        "plan a {mode} trip from {origin} through {stops} and back",
    ],
)
def optimize_trip(
    db: Db, origin: Waypoint, stops: Stops, return_to_origin: bool = False, mode: Mode = "driving"
) -> dict:
    """The visiting order of up to 10 stops that takes the least time from origin (and back to it
    if return_to_origin), with each leg's distance and duration.

    Args:
        origin: Where the trip starts: a place id, address, saved label or 'lat,lon'.
        stops: The places to visit, in any order (1-10).
        return_to_origin: End the trip back at the origin.
        mode: driving, walking or cycling.
    """
    if len(stops) > MAX_STOPS:
        raise ToolError(f"{len(stops)} stops is over the limit of {MAX_STOPS} for one trip; split it in two")
    start = resolve(db, origin)
    points = [start] + [resolve(db, s) for s in stops]
    for p in points[1:]:
        _distinct(start, p)
    legs: dict[tuple[int, int], dict] = {}
    n = len(points)
    for i in range(n):
        for j in range(n):
            if i != j and (j != 0 or return_to_origin):
                legs[(i, j)] = leg(db, points[i], points[j], mode)
    cost = [[legs[(i, j)]["duration_min"] if (i, j) in legs else 0.0 for j in range(n)] for i in range(n)]
    order, _ = best_order(cost, return_to_origin)
    path = [0, *order, *([0] if return_to_origin else [])]
    out_legs = []
    for x, y in zip(path, path[1:], strict=False):
        r = legs[(x, y)]
        out_legs.append(
            {
                "from": points[x].label,
                "to": points[y].label,
                "distance_km": r["distance_km"],
                "duration_min": r["duration_min"],
            }
        )
    names = [points[k].label for k in order]
    return {
        "legs": out_legs,
        "first_stop": names[0],
        "last_stop": names[-1],
        "total_distance_km": round(sum(x["distance_km"] for x in out_legs), 2),
        "total_duration_min": round(sum(x["duration_min"] for x in out_legs), 1),
        "origin": start.as_dict(),
        "mode": mode,
        "return_to_origin": return_to_origin,
        "order": [stops[k - 1] for k in order],
        "stops": [points[k].as_dict() for k in order],
    }


@maps.tool(
    says=[
        "how long does it take to get from each of {origins} to each of {destinations} by {mode}?",
        "compare the {mode} times from {origins} to {destinations}",
    ],
)
def distance_matrix(db: Db, origins: Stops, destinations: Stops, mode: Mode = "driving") -> dict:
    """Distances and durations from every origin to every destination (at most 100 cells). A pair
    with no route is a NO_ROUTE cell saying why, not a failure of the whole matrix.

    Args:
        origins: Where from: place ids (or addresses, saved labels, 'lat,lon').
        destinations: Where to, in the same forms.
        mode: driving, walking or cycling.
    """
    cells = len(origins) * len(destinations)
    if cells > MAX_MATRIX_CELLS:
        raise ToolError(
            f"{len(origins)} origins x {len(destinations)} destinations = {cells} cells, over the limit of "
            f"{MAX_MATRIX_CELLS}; split the request"
        )
    froms = [resolve(db, o) for o in origins]
    tos = [resolve(db, d) for d in destinations]
    out = []
    for a in froms:
        for b in tos:
            cell = {"origin": a.label, "destination": b.label}
            if (a.lat, a.lon) == (b.lat, b.lon):
                out.append({**cell, "status": "OK", "distance_km": 0.0, "duration_min": 0.0})
                continue
            try:
                r = leg(db, a, b, mode)
            except ToolError as exc:
                out.append({**cell, "status": "NO_ROUTE", "reason": str(exc)})
                continue
            out.append(
                {**cell, "status": "OK", "distance_km": r["distance_km"], "duration_min": r["duration_min"]}
            )
    return {"cells": out, "mode": mode, "origin_count": len(froms), "destination_count": len(tos)}


def _candidates_near(
    db: Db, a: Point, b: Point, category: str, max_detour_m: int, open_now: bool
) -> list[dict]:
    """Operational places of the category in the box around both ends, widened so that any place
    within the detour limit is inside it (a cheap filter before routing to each)."""
    pad = max_detour_m / 1000 / 1.3 / 111 + 0.01
    box = [
        min(a.lat, b.lat) - pad,
        max(a.lat, b.lat) + pad,
        min(a.lon, b.lon) - pad * 1.5,
        max(a.lon, b.lon) + pad * 1.5,
    ]
    cond = f" AND {OPEN_SQL}" if open_now else ""
    rows = db.all(
        f"SELECT id, name, lat, lon, city_id FROM places WHERE category = ? AND {OPERATIONAL}{cond} AND lat BETWEEN ? AND ? "
        "AND lon BETWEEN ? AND ? ORDER BY id",
        category,
        *box,
    )
    return rows


def _stops_within(
    db: Db,
    rows: list[dict],
    names: dict[str, str],
    a: Point,
    b: Point,
    mode: str,
    direct: dict,
    max_detour_m: int,
) -> list[tuple]:
    """(detour m, id, place, first leg, extra minutes) per place within the detour limit, smallest
    detour first; a place no route reaches is skipped."""
    found = []
    for p in rows:
        stop = Point(p["name"], p["lat"], p["lon"], names[p["city_id"]], "place", p["id"])
        try:
            first, second = leg(db, a, stop, mode), leg(db, stop, b, mode)
        except ToolError:
            continue
        detour = round((first["distance_km"] + second["distance_km"] - direct["distance_km"]) * 1000)
        if detour <= max_detour_m:
            extra = round(first["duration_min"] + second["duration_min"] - direct["duration_min"], 1)
            found.append((detour, p["id"], p, first, extra))
    found.sort(key=lambda x: (x[0], x[1]))
    return found


@maps.tool(
    returns=Place,
    says=[
        "find a {category} along the way from {origin} to {destination}",
        "is there a {category} on my route from {origin} to {destination} within a {max_detour_m} meter detour?",
    ],
)
def find_along_route(
    db: Db,
    origin: Waypoint,
    destination: Waypoint,
    category: Category,
    max_detour_m: Annotated[
        int, Field(ge=0, le=20_000, examples=[500, 1000, 1500, 2000, 3000, 5000])
    ] = 2_000,
    mode: Mode = "driving",
    open_now: bool = False,
    limit: Annotated[int, Field(ge=1, le=20)] = 5,
) -> dict:
    """Places of a category that a route passes close to: the extra distance of stopping there
    (origin -> place -> destination, minus the direct route) is at most max_detour_m.

    Args:
        origin: Where the route starts: a place id, address, saved label or 'lat,lon'.
        destination: Where it ends.
        category: The kind of place to stop at.
        max_detour_m: The longest acceptable detour in metres (0-20,000, default 2,000).
        mode: driving, walking or cycling.
        open_now: Only places open right now (Monday 09:00 local time).
        limit: How many places, smallest detour first (1-20).
    """
    a, b = resolve(db, origin), resolve(db, destination)
    _distinct(a, b)
    direct = leg(db, a, b, mode)
    rows = _candidates_near(db, a, b, category, max_detour_m, open_now)
    names = {r["id"]: r["name"] for r in db.all("SELECT id, name FROM cities")}
    found = _stops_within(db, rows, names, a, b, mode, direct, max_detour_m)
    places = [
        {
            **place_summary(db.get(Place, p["id"]), names[p["city_id"]]),
            "detour_m": d,
            "extra_min": extra,
            "from_origin_km": f["distance_km"],
        }
        for d, _, p, f, extra in found[:limit]
    ]
    return {
        "route_distance_km": direct["distance_km"],
        "route_duration_min": direct["duration_min"],
        "route": _route_summary(a, b, mode, direct),
        "category": category,
        "max_detour_m": max_detour_m,
        "total": len(found),
        "places": places,
    }
