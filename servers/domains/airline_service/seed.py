"""The seeded network and members: the shared world's 15 airports, a hub-and-spoke schedule
(three departures a day on each route), every flight on every date of a 60-day window (20 days
back, 40 ahead at medium) with its status, seats and fares, and the members with their saved
payment methods. Reservations come from :mod:`seed_reservations`."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any

from servers.domains.airline_service.model import (
    Airport,
    Flight,
    FlightDate,
    PaymentMethod,
    Session,
    User,
    airline_service,
)
from servers.domains.airline_service.seed_reservations import fill_reservations
from servers.kit import Seeder
from servers.kit.geo import CITIES, haversine_km

HUBS = ("DEN", "ORD", "ATL", "JFK")
SLOTS = ((6, 9), (11, 14), (17, 21))  # morning, midday and evening departure windows
BRANDS = ("Visa", "Mastercard", "Amex")


def _airports() -> dict[str, Any]:
    return {c.airport: c for c in CITIES}


def routes(n: int) -> list[tuple[str, str]]:
    """``n`` directed routes: hub to hub first, then each city to its two nearest hubs, then
    direct city pairs by distance, so every scale has hubs and connections."""
    ap = _airports()
    out: list[tuple[str, str]] = [(a, b) for a in HUBS for b in HUBS if a != b]
    spokes = [c for c in ap if c not in HUBS]
    for code in spokes:
        near = sorted(HUBS, key=lambda h: haversine_km(ap[code].lat, ap[code].lon, ap[h].lat, ap[h].lon))
        for hub in near[:2]:
            out += [(code, hub), (hub, code)]
    pairs = sorted(
        ((a, b) for i, a in enumerate(spokes) for b in spokes[i + 1 :]),
        key=lambda p: (haversine_km(ap[p[0]].lat, ap[p[0]].lon, ap[p[1]].lat, ap[p[1]].lon), p),
    )
    for a, b in pairs:
        out += [(a, b), (b, a)]
    return out[:n]


def _distance(a: str, b: str) -> float:
    ap = _airports()
    return haversine_km(ap[a].lat, ap[a].lon, ap[b].lat, ap[b].lon)


def fill_network(s: Seeder) -> list[dict[str, Any]]:
    """Airports and the schedule; returns the flight rows."""
    s.add(
        Airport,
        [{"id": c.airport, "city": c.name, "country": c.country, "timezone": c.timezone} for c in CITIES],
    )
    flights = []
    for i, (a, b) in enumerate(routes(s.count(20, 100, 100))):
        km = _distance(a, b)
        minutes = int(round((km / 820 * 60 + 35) / 5) * 5)
        for k, (lo, hi) in enumerate(SLOTS):
            hour, minute = s.rng.randint(lo, hi - 1), s.rng.choice((0, 10, 20, 30, 40, 50))
            flights.append(
                {
                    "id": f"SW{((i * 3 + k) * 7) % 9000 + 100:04d}",
                    "origin": a,
                    "destination": b,
                    "departs": f"{hour:02d}:{minute:02d}",
                    "duration_min": minutes,
                    "aircraft": "A321neo" if km < 3000 else "B787-9" if km < 9000 else "A350-900",
                }
            )
    s.add(Flight, flights)
    return flights


def _status(s: Seeder, dep: datetime, arr: datetime) -> tuple[str, int]:
    """The status a flight has at the reference moment, with its delay in minutes."""
    rng, now = s.rng, s.now
    if arr <= now:
        roll = rng.random()
        if roll < 0.03:
            return "cancelled", 0
        delay = rng.randint(180, 320) if roll < 0.07 else rng.randint(10, 170) if roll < 0.2 else 0
        return "landed", delay
    if dep <= now:
        return "departed", rng.choice((0, 0, 15, 40))
    roll = rng.random()
    soon = dep - now <= timedelta(days=3)
    if roll < (0.03 if soon else 0.01):
        return "cancelled", 0
    if soon and roll < 0.10:
        return "delayed", rng.choice((30, 60, 95, 150, 175, 180, 190, 205, 240, 300))
    return "scheduled", 0


def fill_flight_dates(s: Seeder, flights: list[dict[str, Any]]) -> list[dict[str, Any]]:
    back, ahead = s.count(7, 20, 20), s.count(23, 40, 40)
    rows: list[dict[str, Any]] = []
    days = [s.now.date() + timedelta(days=d) for d in range(-back, ahead)]
    for f in flights:
        km = _distance(f["origin"], f["destination"])
        base = 80 + km * 0.08
        hh, mm = (int(x) for x in f["departs"].split(":"))
        for day in days:
            dep = datetime(day.year, day.month, day.day, hh, mm)
            arr = dep + timedelta(minutes=f["duration_min"])
            status, delay = _status(s, dep, arr)
            eco = round(base * s.rng.uniform(0.8, 1.35))
            rows.append(
                {
                    "id": "",
                    "flight_number": f["id"],
                    "date": day.isoformat(),
                    "origin": f["origin"],
                    "destination": f["destination"],
                    "departs_at": dep.isoformat(timespec="seconds"),
                    "arrives_at": arr.isoformat(timespec="seconds"),
                    "status": status,
                    "delay_min": delay,
                    "seats_basic_economy": s.rng.randint(0, 9),
                    "seats_economy": 0 if s.chance(0.04) else s.rng.randint(1, 40),
                    "seats_business": s.rng.randint(0, 12),
                    "price_basic_economy": float(round(eco * 0.72)),
                    "price_economy": float(eco),
                    "price_business": float(round(eco * 3.1)),
                }
            )
    rows.sort(key=lambda r: (r["date"], r["departs_at"], r["flight_number"]))
    for i, r in enumerate(rows, 1):
        r["id"] = f"FLD-{i:06d}"
    s.add(FlightDate, rows)
    return rows


def fill_users(s: Seeder) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Members (world people by index; the persona first) and their saved payment methods."""
    people = s.world.pick_people(s.count(40, 500, 5000))
    users, methods = [], []
    for i, p in enumerate(people, 1):
        tier = "gold" if i == 1 else s.rng.choices(("regular", "silver", "gold"), (50, 30, 20))[0]
        since = date(2012, 1, 1) + timedelta(days=s.rng.randint(0, 5000))
        users.append(
            {
                "id": f"USR-{i:06d}",
                "name": p.name,
                "first_name": p.first_name,
                "last_name": p.last_name,
                "email": p.email,
                "phone": p.phone,
                "city": p.city,
                "dob": p.birthday,
                "membership": tier,
                "member_since": since.isoformat(),
            }
        )
        kinds = ["credit_card"] * (2 if s.chance(0.3) else 1)
        kinds += ["gift_card"] if s.chance(0.45) else []
        kinds += ["certificate"] if s.chance(0.3) else []
        for kind in kinds:
            digits = f"{s.rng.randint(0, 9999):04d}"
            label = {
                "credit_card": f"{s.pick(BRANDS)} ending {digits}",
                "gift_card": f"Gift card {digits}",
                "certificate": f"Certificate {digits}",
            }[kind]
            balance = None
            if kind == "gift_card":
                balance = float(s.rng.randint(4, 60) * 10)
            elif kind == "certificate":
                balance = float(s.rng.choice((50, 100, 150, 200, 250)))
            methods.append(
                {
                    "id": f"PMT-{len(methods) + 1:06d}",
                    "user_id": f"USR-{i:06d}",
                    "kind": kind,
                    "label": label,
                    "balance": balance,
                    "status": "active",
                    "added_at": (since + timedelta(days=s.rng.randint(0, 300))).isoformat(),
                }
            )
    s.add(User, users)
    s.add(PaymentMethod, methods)
    return users, methods


@airline_service.seed
def fill(s: Seeder) -> None:
    flights = fill_network(s)
    dates = fill_flight_dates(s, flights)
    users, methods = fill_users(s)
    fill_reservations(s, users, methods, dates)
    s.add(Session, [{"id": "SES-000001", "verified_user_id": None, "verified_at": None}])
