"""The seeded catalogue: airports, routes flown on a 90-day window, hotels and their rooms."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from servers.domains.travel_booking.model import (
    Airport,
    Currency,
    Flight,
    FlightDate,
    Hotel,
    RoomType,
)
from servers.domains.travel_booking.places import (
    AIRLINES,
    AIRPORTS,
    CURRENCIES,
    HOTEL_KINDS,
    HOTEL_WORDS,
    HUBS,
    ROOM_TYPES,
    TOWNS,
)
from servers.kit import Seeder, geo

FIRST_DAY, LAST_DAY = -14, 75  # flight dates exist from two weeks ago to eleven weeks ahead
UTC = ZoneInfo("UTC")
# Routes every scale has, so the persona (Portland) can fly to the places its trips go.
FIXED_ROUTES = (
    ("PDX", "DEN"),
    ("PDX", "SFO"),
    ("PDX", "JFK"),
    ("PDX", "LHR"),
    ("PDX", "AUS"),
    ("PDX", "SEA"),
)


def _utc(moment: datetime, tz: str) -> datetime:
    return moment.replace(tzinfo=ZoneInfo(tz)).astimezone(UTC).replace(tzinfo=None)


def _local(utc: datetime, tz: str) -> datetime:
    return utc.replace(tzinfo=UTC).astimezone(ZoneInfo(tz)).replace(tzinfo=None)


def _iso(moment: datetime) -> str:
    return moment.isoformat(timespec="seconds")


def seed_places(s: Seeder) -> dict[str, dict]:
    airports = [
        dict(zip(("id", "name", "city", "country", "timezone", "lat", "lon"), a, strict=True))
        for a in AIRPORTS
    ]
    for a in airports:  # two decimals (~1 km): what answers quote back
        a["lat"], a["lon"] = round(a["lat"], 2), round(a["lon"], 2)
    s.add(Airport, airports)
    s.add(Currency, [dict(id=c, name=n, per_usd=r) for c, n, r in CURRENCIES])
    return {a["id"]: a for a in airports}


def _route_pairs(s: Seeder, n_pairs: int) -> list[tuple[str, str]]:
    codes = [a[0] for a in AIRPORTS]
    pairs = list(FIXED_ROUTES)
    while len(pairs) < n_pairs:
        a = s.pick(codes[:HUBS]) if s.chance(0.75) else s.pick(codes)
        b = s.pick(codes[:HUBS]) if s.chance(0.5) else s.pick(codes)
        if a != b:
            pairs.append((a, b))
    return pairs


def _flight(s: Seeder, number: str, origin: dict, dest: dict) -> dict:
    km = geo.haversine_km(origin["lat"], origin["lon"], dest["lat"], dest["lon"])
    daily = s.chance(0.75)
    days = "1234567" if daily else "".join(sorted(s.rng.sample("1234567", s.rng.randint(4, 6))))
    small = km < 1200 and s.chance(0.4)
    return {
        "id": number,
        "airline": dict(AIRLINES)[number[:2]],
        "origin": origin["id"],
        "destination": dest["id"],
        "departs_local": f"{s.rng.randint(6, 21):02d}:{s.rng.choice(range(0, 60, 5)):02d}",
        "duration_min": int(km / 820 * 60 + 35),
        "days_of_week": days,
        "seats_basic": 18 if small else 30,
        "seats_economy": 70 if small else 126,
        "seats_business": 8 if small else 20,
        "_km": km,
    }


def seed_flights(s: Seeder, airports: dict[str, dict]) -> tuple[list[dict], list[dict]]:
    """Routes in both directions, then every operating day of each in the window."""
    n_pairs = s.count(small=40, medium=200, large=500)
    flights, taken = [], set()
    for a, b in _route_pairs(s, n_pairs):
        for o, d in ((a, b), (b, a)):
            code = s.pick([c for c, _ in AIRLINES])
            number = f"{code}{s.rng.randint(100, 9999)}"
            while number in taken:
                number = f"{code}{s.rng.randint(100, 9999)}"
            taken.add(number)
            flights.append(_flight(s, number, airports[o], airports[d]))
    by_number = {f["id"]: f for f in flights}
    dates = []
    for f in flights:
        dates.extend(_dates_of(s, f, airports))
    number_dates(dates)
    s.add(Flight, [{k: v for k, v in f.items() if not k.startswith("_")} for f in flights])
    s.add(FlightDate, dates)
    for d in dates:  # after the insert: the trip planner reads the route off each date
        f = by_number[d["flight_id"]]
        d["_origin"], d["_destination"] = f["origin"], f["destination"]
    return flights, dates


def _dates_of(s: Seeder, f: dict, airports: dict[str, dict]) -> list[dict]:
    out = []
    base = 49 + 0.09 * f["_km"]
    hh, mm = (int(x) for x in f["departs_local"].split(":"))
    o_tz, d_tz = airports[f["origin"]]["timezone"], airports[f["destination"]]["timezone"]
    for offset in range(FIRST_DAY, LAST_DAY + 1):
        day = s.now.date() + timedelta(days=offset)
        if str(day.isoweekday()) not in f["days_of_week"]:
            continue
        dep_local = datetime(day.year, day.month, day.day, hh, mm)
        dep = _utc(dep_local, o_tz)
        arr = dep + timedelta(minutes=f["duration_min"])
        out.append(_date_row(s, f, day, dep_local, dep, arr, _local(arr, d_tz), base, offset))
    return out


def _date_row(s, f, day: date, dep_local, dep, arr, arr_local, base: float, offset: int) -> dict:
    if arr < s.now:
        status = "cancelled" if s.chance(0.02) else "landed"
    elif dep < s.now:
        status = "departed"
    else:
        r = s.rng.random()
        status = "cancelled" if r < 0.02 else "delayed" if r < 0.07 else "scheduled"
    surge = 1 + max(0, 14 - offset) / 28 if offset >= 0 else 1.0
    economy = round(base * surge * s.rng.uniform(0.85, 1.2), 2)

    def left(cap: int) -> int:
        return 0 if s.chance(0.05) else s.rng.randint(1, cap)

    return {
        "flight_id": f["id"],
        "day": day.isoformat(),
        "departs_at": _iso(dep_local),
        "arrives_at": _iso(arr_local),
        "departs_utc": _iso(dep),
        "arrives_utc": _iso(arr),
        "status": status,
        "seats_left_basic": left(f["seats_basic"]),
        "seats_left_economy": left(f["seats_economy"]),
        "seats_left_business": left(f["seats_business"]),
        "price_basic": round(economy * 0.72, 2),
        "price_economy": economy,
        "price_business": round(economy * 3.1, 2),
    }


def number_dates(dates: list[dict]) -> None:
    """Flight dates get ids in insertion order (FDT-000001 ...), as the database numbers them."""
    for i, d in enumerate(dates, 1):
        d["id"] = f"FDT-{i:06d}"


def hotel_cities() -> list[tuple[str, str, float, float]]:
    """(city, country, lat, lon): the world's cities, 18 more airport cities and the towns."""
    out = [(c.name, c.country, c.lat, c.lon) for c in geo.CITIES]
    seen = {c[0] for c in out}
    for a in AIRPORTS:
        if a[2] not in seen and len(out) < 33:
            out.append((a[2], a[3], a[5], a[6]))
            seen.add(a[2])
    return out + list(TOWNS)  # every town find_nearest_airport knows has a hotel


def seed_hotels(s: Seeder) -> tuple[list[dict], list[dict]]:
    cities = hotel_cities()
    n = s.count(small=60, medium=300, large=1200)
    hotels, rooms, names = [], [], set()
    for i in range(n):
        city = cities[i % len(cities)][0]
        name = f"{s.pick(list(HOTEL_WORDS))} {city} {s.pick(list(HOTEL_KINDS))}"
        if name in names:
            name = f"{name} {i // len(cities) + 1}"
        names.add(name)
        street, number = s.rng.randrange(len(geo.STREET_NAMES)), s.rng.randint(1, geo.HOUSES_PER_STREET)
        line = f"{number} {geo.STREET_NAMES[street]}, {city}"  # on the world's grid where the city has one
        stars = s.rng.choice((2, 3, 3, 4, 4, 5))
        hid = f"HTL-{i + 1:06d}"
        hotels.append(
            dict(
                id=hid,
                name=name,
                city=city,
                address=line,
                stars=stars,
                rating=round(min(5.0, stars * 0.8 + s.rng.uniform(0.6, 1.6)), 1),
            )
        )
        for kind, cap, factor in s.rng.sample(ROOM_TYPES, s.rng.randint(3, 5)):
            rooms.append(
                dict(
                    id=f"RTY-{len(rooms) + 1:06d}",
                    hotel_id=hid,
                    name=kind,
                    capacity=cap,
                    total_rooms=s.rng.randint(4, 30),
                    nightly_price=round((45 + stars * 38) * factor * s.rng.uniform(0.85, 1.2), 2),
                    refundable=s.chance(0.7),
                )
            )
    s.add(Hotel, hotels)
    s.add(RoomType, rooms)
    return hotels, rooms
