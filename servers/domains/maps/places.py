"""Finding places and reading about them: search, details with opening hours, reviews."""

from __future__ import annotations

import math
import re
from typing import Annotated, Any

from pydantic import Field

from servers.domains.maps.lookup import CityName, _known_city
from servers.domains.maps.model import DEFAULT_RADIUS_M, MAX_RADIUS_M, Category, Place, Review, Sort, maps
from servers.domains.maps.rules import (
    ME,
    OPEN_SQL,
    AnyPlace,
    Location,
    Point,
    city_name,
    hours,
    place_summary,
    resolve,
    status_now,
    utc_offset,
)
from servers.domains.maps.rules import (
    open_now as is_open_now,
)
from servers.kit import Db, Offset, PageSize, ShortText, ToolError, geo

SearchText = Annotated[
    ShortText,
    Field(
        description="Words to look for in place names, categories and cuisines, e.g. 'sushi'.",
        examples=[
            "coffee",
            "sushi",
            "pharmacy",
            "pizza",
            "ramen",
            "tacos",
            "bakery",
            "ev charging",
            "park",
            "tires",
        ],
    ),
]
Radius = Annotated[
    int,
    Field(
        ge=1,
        description=f"Search radius in metres around near, at most {MAX_RADIUS_M:,}.",
        examples=[500, 1000, 1500, 2000, 3000, 5000, 10_000],
    ),
]
_STOP = {"a", "an", "the", "near", "in", "me", "my", "and", "of", "for", "to", "at", "place", "places"}
NARROW = "id, name, lat, lon, rating, review_count, prominence"


def _word_sql(words: list[str]) -> tuple[str, list[Any]]:
    """Every word must start one of the place's search terms.

    The longest word (the likeliest to be rare) lists its places from the term index and each
    other word is looked up among those places' own terms (the place and term index): listing
    every place of a common word ("st", "center": 1,700 terms) for each word cost a millisecond
    per search. Which word leads changes only the plan, never the places found."""
    order = sorted(words, key=len, reverse=True)
    parts, params = [], []
    for k, w in enumerate(order):
        if k == 0:
            parts.append("id IN (SELECT place_id FROM place_terms WHERE term >= ? AND term < ?)")
        else:
            parts.append(
                "EXISTS (SELECT 1 FROM place_terms t WHERE t.place_id = places.id AND t.term >= ? AND t.term < ?)"
            )
        params += [w, w + "\uffff"]
    return " AND ".join(parts), params


def _words(query: str) -> list[str]:
    words = [w for w in re.findall(r"[a-z0-9'&]+", query.casefold()) if w not in _STOP]
    if not words:
        raise ToolError(f"query {query!r} has no words to search for; try a name, a category or a cuisine")
    return words


def _box(center: Point, radius_m: int) -> tuple[str, list[float]]:
    dlat = radius_m / 111_200
    dlon = radius_m / (111_320 * max(0.1, math.cos(math.radians(center.lat))))
    return "lat BETWEEN ? AND ? AND lon BETWEEN ? AND ?", [
        center.lat - dlat,
        center.lat + dlat,
        center.lon - dlon,
        center.lon + dlon,
    ]


def _check_search(
    query: str | None,
    category: str | None,
    near: str | None,
    city: str | None,
    radius_m: int | None,
    sort: str,
) -> None:
    if not (query or category or near or city):
        raise ToolError("nothing to search for: give a query, a category, near (a location) or a city")
    if radius_m is not None and radius_m > MAX_RADIUS_M:
        raise ToolError(
            f"radius_m {radius_m:,} is over the limit of {MAX_RADIUS_M:,} m; search a smaller area"
        )
    if radius_m is not None and near is None:
        raise ToolError(
            f"radius_m {radius_m:,} needs a centre: give near (a place, address, label or 'lat,lon')"
        )
    if sort == "distance" and (near is None or not (query or category)):
        missing = "near (where to measure from)" if near is None else "a query or a category"
        raise ToolError(f"sort=distance ranks places by distance from near and needs {missing}")


def _matching_page(
    db: Db,
    where: str,
    params: list,
    query: str | None,
    center: Point | None,
    radius_m: int | None,
    sort: str,
    limit: int,
    offset: int,
) -> tuple[int, list[tuple[dict, int | None]], int | None]:
    """The total of matches, one page of (place, distance or None), and the radius searched
    (None without a centre)."""
    radius = None
    if center is None:
        total, rows = _ordered_page(db, where, params, query, sort, limit, offset)
        shown = [(r, None) for r in rows]
    else:
        # sort=distance ignores the radius: it ranks everything within the 50 km search limit
        radius = MAX_RADIUS_M if sort == "distance" else (radius_m or DEFAULT_RADIUS_M)
        box, more = _box(center, radius)
        rows = db.all(f"SELECT {NARROW} FROM places WHERE {where} AND {box}", *params, *more)
        found = _rank(rows, query, center, radius, sort)
        total, shown = len(found), _full(db, found[offset : offset + limit])
    return total, shown, radius


def _listed(p: dict, city: str, dist: int | None) -> dict:
    """A place as a search lists it, with its distance when there was a centre."""
    item = place_summary(p, city)
    if dist is not None:
        item["distance_m"] = dist
    return item


@maps.tool(
    returns=Place,
    says=[
        "find {category} places near {near}",
        "search for {query} near {near}",
        "is there a {category} open now within {radius_m} meters of {near}?",
        "show me the best rated {query} in {city}",
        "list {category} places around {near} sorted by {sort}",
    ],
)
def search_places(
    db: Db,
    query: SearchText | None = None,
    category: Category | None = None,
    near: Location | None = None,
    city: CityName | None = None,
    radius_m: Radius | None = None,
    open_now: bool = False,
    min_rating: Annotated[float, Field(ge=1, le=5, examples=[3.5, 4.0, 4.2, 4.5])] | None = None,
    max_price_level: Annotated[int, Field(ge=1, le=4)] | None = None,
    sort: Sort = "relevance",
    include_closed: bool = False,
    limit: PageSize = 20,
    offset: Offset = 0,
) -> dict:
    """Find places by words, category, area and filters.

    Around near, places within radius_m (default 5,000 m, at most 50,000) count; sort=distance
    needs near plus a query or category and ignores the radius (nearest first, within 50 km). Open
    now means open on Monday 09:00 local time. Permanently closed places are left out unless
    include_closed. Price levels run 1 ($) to 4 ($$$$).

    Args:
        query: Words to match.
        category: A kind of place.
        near: Centre of the search.
        city: Only places in this city.
        radius_m: Radius around near in metres.
        open_now: Only places open right now.
        min_rating: Only places rated at least this (1-5).
        max_price_level: Only priced places at or below this level (1-4).
        sort: relevance (best match, then prominence), distance or rating.
        include_closed: Also list permanently closed places.
    """
    _check_search(query, category, near, city, radius_m, sort)
    center = resolve(db, near) if near else None
    filters = (
        ("category = ?", category),
        ("city_id = (SELECT id FROM cities WHERE name = ?)", _known_city(city).name if city else None),
        ("rating >= ?", min_rating),
        ("price_level IS NOT NULL AND price_level <= ?", max_price_level),
    )
    where, params = _conditions(query, filters, open_now, include_closed)
    total, shown, radius = _matching_page(db, where, params, query, center, radius_m, sort, limit, offset)
    names = {r["id"]: r["name"] for r in db.all("SELECT id, name FROM cities")}
    page = [_listed(p, names[p["city_id"]], dist) for p, dist in shown]
    # the centre and the counts come first: they are what an answer says when nothing matched
    out: dict[str, Any] = {"places": page}
    if center is not None:
        shown_radius = None if sort == "distance" else radius
        out.update(center=center.label, city=center.city, radius_m=shown_radius)
    out.update(total=total, limit=limit, sort=sort, offset=offset, truncated=offset + len(page) < total)
    if center is not None:
        out["near"] = center.as_dict()
    if center is not None and sort == "distance" and radius_m is not None:
        out["note"] = f"radius_m {radius_m:,} ignored: sort=distance ranks by distance without a radius"
    return out


def _conditions(
    query: str | None, filters: tuple, open_now: bool, include_closed: bool
) -> tuple[str, list[Any]]:
    where, params = ["1"], []
    if query:
        sql, more = _word_sql(_words(query))
        where.append(sql)
        params += more
    for cond, value in filters:
        if value is not None:
            where.append(cond)
            params.append(value)
    if open_now:
        where.append(OPEN_SQL)
    if not include_closed:
        where.append("business_status != 'closed_permanently'")
    return " AND ".join(where), params


def _ordered_page(
    db: Db, where: str, params: list[Any], query: str | None, sort: str, limit: int, offset: int
) -> tuple[int, list[dict]]:
    """Without a centre the database ranks and pages: exact name, name containing the query,
    then prominence (rating weighted by the number of reviews) -- or by rating."""
    total = db.scalar(f"SELECT count(*) FROM places WHERE {where}", *params)
    phrase = (query or "").strip().casefold()
    if sort == "rating":
        order, extra = "rating DESC, review_count DESC, id", []
    else:
        order, extra = (
            "lower(name) = ? DESC, instr(lower(name), ?) > 0 DESC, prominence DESC, id",
            [phrase, phrase],
        )
    rows = db.all(
        f"SELECT * FROM places WHERE {where} ORDER BY {order} LIMIT ? OFFSET ?",
        *params,
        *extra,
        limit,
        offset,
    )
    return total, rows


def _full(db: Db, found: list[tuple[dict, int | None]]) -> list[tuple[dict, int | None]]:
    ids = [p["id"] for p, _ in found]
    rows = {
        r["id"]: r for r in db.all(f"SELECT * FROM places WHERE id IN ({', '.join('?' * len(ids))})", *ids)
    }
    return [(rows[p["id"]], dist) for p, dist in found]


def _rank(rows: list[dict], query: str | None, center: Point | None, radius: int | None, sort: str) -> list:
    out = []
    for p in rows:
        dist = None
        if center is not None:
            dist = round(geo.haversine_km(center.lat, center.lon, p["lat"], p["lon"]) * 1000)
            if radius is not None and dist > radius:
                continue
        out.append((p, dist))
    phrase = (query or "").strip().casefold()

    def relevance(item: tuple) -> tuple:
        p = item[0]
        name = p["name"].casefold()
        match = 0 if phrase and name == phrase else 1 if phrase and phrase in name else 2
        return (match, -p["prominence"], p["id"])

    if sort == "distance":
        out.sort(key=lambda x: (x[1], x[0]["id"]))
    elif sort == "rating":
        out.sort(key=lambda x: (-x[0]["rating"], -x[0]["review_count"], x[0]["id"]))
    else:
        out.sort(key=relevance)
    return out


@maps.tool(
    returns=Place,
    says=[
        "tell me about {place}",
        "is {place} open right now?",
        "what are the opening hours of {place}?",
        "what's the phone number and rating of {place}?",
    ],
)
def get_place(db: Db, place: AnyPlace) -> dict:
    """A place's details: address, phone, rating, price level, hours for each weekday and whether
    it is open now (Monday 09:00 local time), plus where you saved or listed it.

    Args:
        place: The place.
    """
    p = db.get(Place, place)
    city = city_name(db, p["city_id"])
    tz = geo.city(city).timezone
    out = {
        **place_summary(p, city),
        "lat": p["lat"],
        "lon": p["lon"],
        "phone": p["phone"],
        "accessible": bool(p["accessible"]),
        "hours": hours(p),
        "open_now": is_open_now(p),
        "status_now": status_now(p),
        "timezone": tz,
        "utc_offset": utc_offset(tz),
    }
    out["saved_as"] = [
        r["label"]
        for r in db.all(f"SELECT label FROM saved_places WHERE user_id = {ME} AND place_id = ?", place)
    ]
    out["in_lists"] = [
        r["name"]
        for r in db.all(
            f"SELECT l.name FROM list_items i JOIN lists l ON l.id = i.list_id WHERE l.user_id = {ME} "
            "AND i.place_id = ? ORDER BY l.id",
            place,
        )
    ]
    return out


@maps.tool(
    returns=Review,
    says=["what do people say about {place}?", "show me the latest {limit} reviews of {place}"],
)
def get_place_reviews(db: Db, place: AnyPlace, limit: PageSize = 10, offset: Offset = 0) -> dict:
    """Recent reviews of a place, newest first, with its overall rating.

    Args:
        place: The place.
        limit: How many reviews (1-100, default 10).
    """
    p = db.get(Place, place)
    page = db.page(
        "SELECT id, author, rating, text, at FROM reviews WHERE place_id = ? ORDER BY at DESC, id DESC",
        place,
        limit=limit,
        offset=offset,
        key="reviews",
    )
    return {
        "place": place,
        "name": p["name"],
        "rating": p["rating"],
        "review_count": p["review_count"],
        **page,
    }
