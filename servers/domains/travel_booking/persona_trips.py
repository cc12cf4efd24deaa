"""The persona's own trips, fixed so every rule has a case on the signed-in account.

Six active itineraries: a Denver round trip with a refundable hotel, a basic-economy hop to San
Francisco, a New York trip booked five hours ago (free cancellation, insurance still on offer),
an insured business round trip to London with a non-refundable hotel, an insured Austin trip for
two, and a hotel-only weekend in Seattle; then two completed trips and a cancelled one."""

from __future__ import annotations

from datetime import timedelta

from servers.domains.travel_booking.seed_trips import Plan, Trips
from servers.kit import Seeder

# destination, outbound day, return day (None: one way), cabin, passengers, booked days ago
# (hours when < 1), insured, status, hotel nights (0: none), refundable hotel
PERSONA_TRIPS = (
    ("DEN", 12, 16, "economy", 1, 20, False, "active", 4, True),
    ("SFO", 5, None, "basic_economy", 1, 9, False, "active", 0, False),
    ("JFK", 30, None, "economy", 2, 5 / 24, False, "active", 0, False),
    ("LHR", 40, 50, "business", 1, 15, True, "active", 10, False),
    ("AUS", 20, 23, "economy", 2, 30, True, "active", 0, False),
    ("SEA", -10, None, "economy", 1, 40, False, "completed", 0, False),
    ("SFO", -12, -8, "economy", 1, 45, False, "completed", 0, False),
    ("DEN", 25, None, "economy", 1, 12, False, "cancelled", 0, False),
)


def _date(dates_by_route: dict, origin: str, dest: str, offset: int, s: Seeder) -> dict:
    """A scheduled (or, in the past, landed) date of the route on or soon after ``offset``."""
    want = "landed" if offset < 0 else "scheduled"
    for k in range(10):
        day = (s.now.date() + timedelta(days=offset + k)).isoformat()
        for d in dates_by_route.get((origin, dest, day), []):
            if d["status"] == want:
                return d
    raise RuntimeError(f"no {want} flight {origin}->{dest} near day {offset}: the fixed routes are missing")


def seed_persona_trips(s: Seeder, trips: Trips, persona: dict, flights, dates, rooms) -> None:
    route = {f["id"]: (f["origin"], f["destination"]) for f in flights}
    by_route: dict[tuple[str, str, str], list[dict]] = {}
    for d in dates:
        o, t = route[d["flight_id"]]
        by_route.setdefault((o, t, d["day"]), []).append(d)
    for dest, out, back, cabin, pax, ago, insured, status, nights, refundable in PERSONA_TRIPS:
        legs = [_date(by_route, "PDX", dest, out, s)]
        if back is not None:
            legs.append(_date(by_route, dest, "PDX", back, s))
        plan = Plan(persona, legs, cabin, pax, s.now - timedelta(days=ago), status, insured=insured, bags=pax)
        if nights:
            city = trips.airports[dest]["city"]
            here = [r for r in rooms if trips.hotels[r["hotel_id"]]["city"] == city and r["capacity"] >= pax]
            fits = [r for r in here if bool(r["refundable"]) == refundable] or here
            if fits:
                plan.stay = (fits[0], legs[0]["arrives_at"][:10], nights)
        trips.add(plan)
    seattle = [r for r in rooms if trips.hotels[r["hotel_id"]]["city"] == "Seattle" and r["capacity"] >= 2]
    seattle.sort(key=lambda r: not r["refundable"])
    day = (s.now.date() + timedelta(days=7)).isoformat()
    trips.add(Plan(persona, [], None, 2, s.now - timedelta(days=3), "active", stay=(seattle[0], day, 2)))
