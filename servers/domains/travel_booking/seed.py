"""The seed (travelers, tokens, cards, budgets, trips, tickets) and the ``token_expired`` variant."""

from __future__ import annotations

from datetime import datetime, timedelta

from servers.domains.travel_booking.model import (
    CABINS,
    AccessToken,
    Budget,
    PaymentMethod,
    Session,
    SupportTicket,
    Traveler,
    travel_booking,
)
from servers.domains.travel_booking.persona_trips import seed_persona_trips
from servers.domains.travel_booking.seed_catalog import seed_flights, seed_hotels, seed_places
from servers.domains.travel_booking.seed_trips import Plan, Trips
from servers.kit import Db, Seeder, geo

BRANDS = {"Visa": ("4", 16), "Mastercard": ("5", 16), "Amex": ("37", 15), "Discover": ("6011", 16)}
PERSONA_TOKEN_ISSUED = "2026-06-01T15:30:00"
SUBJECTS = (
    ("Refund status", "I cancelled a booking and have not seen the refund on my card yet."),
    ("Name correction", "The name on one of my tickets is misspelled; can someone fix it?"),
    ("Baggage question", "How many checked bags does my fare include?"),
    ("Schedule change", "My flight time changed; what are my options?"),
    ("Invoice copy", "Please send me an itemised invoice for my last trip."),
    ("Seat request", "We would like to sit together on our next flight."),
)


def luhn_digit(body: str) -> str:
    """The check digit that makes ``body + digit`` pass the Luhn test."""
    total = 0
    for i, c in enumerate(reversed(body)):
        d = int(c) * (2 if i % 2 == 0 else 1)
        total += d - 9 if d > 9 else d
    return str((10 - total % 10) % 10)


def card_number(s: Seeder, brand: str) -> str:
    prefix, length = BRANDS[brand]
    body = prefix + "".join(str(s.rng.randrange(10)) for _ in range(length - len(prefix) - 1))
    return body + luhn_digit(body)


@travel_booking.seed
def fill(s: Seeder) -> None:
    airports = seed_places(s)
    flights, dates = seed_flights(s, airports)
    hotels, rooms = seed_hotels(s)
    travelers = _seed_travelers(s)
    cards = _seed_cards(s, travelers)
    _seed_tokens(s, travelers)
    _seed_budgets(s, travelers)
    trips = Trips(s, airports, {h["id"]: h for h in hotels}, cards)
    seed_persona_trips(s, trips, travelers[0], flights, dates, rooms)
    _seed_trips(s, trips, travelers, flights, dates, rooms, hotels)
    trips.insert()
    _seed_tickets(s, travelers, trips.rows["itineraries"])
    s.add(
        Session,
        [
            dict(
                id="SES-000001",
                traveler_id=travelers[0]["id"],
                access_token=travelers[0]["_token"],
                logged_in_at=PERSONA_TOKEN_ISSUED,
            )
        ],
    )


def _seed_travelers(s: Seeder) -> list[dict]:
    n = s.count(small=60, medium=1000, large=10_000)
    out = []
    for i, p in enumerate(s.world.pick_people(n)):
        country = geo.city(p.city).country
        soon = i > 0 and s.chance(0.02)
        expiry = s.now.date() + timedelta(days=s.rng.randint(20, 150) if soon else s.rng.randint(400, 3500))
        out.append(
            dict(
                id=f"TRV-{i + 1:06d}",
                name=p.name,
                first_name=p.first_name,
                last_name=p.last_name,
                email=p.email,
                dob=p.birthday,
                home_city=p.city,
                membership="gold" if i == 0 else s.rng.choices(("regular", "silver", "gold"), (6, 3, 1))[0],
                status="locked" if i == 2 or (i > 2 and s.chance(0.02)) else "active",
                passport_number=f"{country[0]}{s.rng.randint(10_000_000, 99_999_999)}",
                passport_country=country,
                passport_expiry=expiry.isoformat(),
                password=s.fake.password(length=12, special_chars=False),
            )
        )
    s.add(Traveler, out)
    return out


def _card(s: Seeder, t: dict, n: int, kind: str, brand: str, *, expired: bool = False, **over) -> dict:
    pan = (
        card_number(s, brand)
        if kind == "credit_card"
        else "".join(str(s.rng.randrange(10)) for _ in range(16))
    )
    last4 = pan[-4:]
    label = {"credit_card": brand, "gift_card": "Gift card", "travel_certificate": "Travel certificate"}[kind]
    year = s.rng.randint(2024, 2026) if expired else s.rng.randint(2026, 2031)
    month = s.rng.randint(1, 5) if expired and year == 2026 else s.rng.randint(7 if year == 2026 else 1, 12)
    limit = float(s.rng.choice(range(3000, 20001, 500))) if kind == "credit_card" else None
    row = dict(
        id=f"PMT-{n:06d}",
        traveler_id=t["id"],
        kind=kind,
        nickname=f"{label} ending {last4}",
        brand=brand if kind == "credit_card" else label,
        last4=last4,
        holder_name=t["name"],
        expiry=f"{year}-{month:02d}",
        credit_limit=limit,
        balance=s.money(0, limit * 0.4) if limit else s.money(50, 600),
        status="expired" if expired else "active",
        pan=pan,
        added_at=(s.now - timedelta(days=s.rng.randint(30, 900))).isoformat(timespec="seconds"),
    )
    row.update(over)
    return row


def _seed_cards(s: Seeder, travelers: list[dict]) -> dict[str, list[dict]]:
    rows: list[dict] = []
    persona = travelers[0]
    for kind, brand, over in (
        ("credit_card", "Visa", dict(credit_limit=12000.0, balance=1850.0)),
        ("credit_card", "Mastercard", dict(credit_limit=8000.0, balance=3100.0)),
        ("gift_card", "Gift card", dict(balance=400.0)),
    ):
        rows.append(_card(s, persona, len(rows) + 1, kind, brand, **over))
    rows.append(_card(s, persona, len(rows) + 1, "credit_card", "Amex", expired=True))
    for t in travelers[1:]:
        for k in range(s.rng.choices((1, 2, 3, 4), (35, 35, 20, 10))[0]):
            kind = (
                "credit_card"
                if k == 0
                else s.rng.choices(("credit_card", "gift_card", "travel_certificate"), (7, 2, 1))[0]
            )
            rows.append(
                _card(s, t, len(rows) + 1, kind, s.pick(list(BRANDS)), expired=k > 0 and s.chance(0.05))
            )
    s.add(PaymentMethod, rows)
    out: dict[str, list[dict]] = {t["id"]: [] for t in travelers}
    for r in rows:
        out[r["traveler_id"]].append(r)
    return out


def _token(s: Seeder) -> str:
    return f"tk_{s.rng.getrandbits(80):020x}"


def _seed_tokens(s: Seeder, travelers: list[dict]) -> None:
    """Each traveler's series of tokens: an old expired one for some, then three not yet issued;
    the persona holds a live read_write token issued half an hour ago (the session's)."""
    rows = []
    for t in travelers:
        first = 0
        if t is travelers[0]:
            t["_token"] = _token(s)
            end = datetime.fromisoformat(PERSONA_TOKEN_ISSUED) + timedelta(hours=24)
            rows.append(
                dict(
                    id=t["_token"],
                    traveler_id=t["id"],
                    seq=0,
                    scope="read_write",
                    status="active",
                    issued_at=PERSONA_TOKEN_ISSUED,
                    expires_at=end.isoformat(timespec="seconds"),
                    refresh_token=f"rt_{s.rng.getrandbits(96):024x}",
                )
            )
            first = 1
        elif s.chance(0.25):
            issued = s.now - timedelta(days=s.rng.randint(2, 60), hours=s.rng.randint(0, 23))
            rows.append(
                dict(
                    id=_token(s),
                    traveler_id=t["id"],
                    seq=0,
                    scope=s.pick(["read", "read_write"]),
                    status="expired",
                    issued_at=issued.isoformat(timespec="seconds"),
                    expires_at=(issued + timedelta(hours=24)).isoformat(timespec="seconds"),
                    refresh_token=f"rt_{s.rng.getrandbits(96):024x}",
                )
            )
            first = 1
        for seq in range(first, first + 3):
            rows.append(
                dict(
                    id=_token(s),
                    traveler_id=t["id"],
                    seq=seq,
                    scope=None,
                    status="unissued",
                    issued_at=None,
                    expires_at=None,
                    refresh_token=f"rt_{s.rng.getrandbits(96):024x}",
                )
            )
    s.add(AccessToken, rows)


def _seed_budgets(s: Seeder, travelers: list[dict]) -> None:
    rows = []
    for t in travelers:
        if t is travelers[0] or s.chance(0.35):
            limit = 8000.0 if t is travelers[0] else float(s.rng.choice(range(1500, 8001, 100)))
            rows.append(
                dict(
                    id=f"BGT-{len(rows) + 1:06d}",
                    traveler_id=t["id"],
                    trip_limit=limit,
                    updated_at=s.moment_offset(-120, -1),
                )
            )
    s.add(Budget, rows)


def _seed_trips(s, trips: Trips, travelers, flights, dates, rooms, hotels) -> None:
    by_key = {(d["flight_id"], d["day"]): d for d in dates}
    by_route: dict[tuple[str, str], list[dict]] = {}
    for f in flights:
        by_route.setdefault((f["origin"], f["destination"]), []).append(f)
    rooms_by_city: dict[str, list[dict]] = {}
    city_of = {h["id"]: h["city"] for h in hotels}
    for r in rooms:
        rooms_by_city.setdefault(city_of[r["hotel_id"]], []).append(r)
    n = s.count(small=150, medium=2500, large=15_000)
    others = travelers[1:]  # the persona's trips are fixed (persona_trips)
    for _ in range(n):
        plan = _plan(s, trips, s.pick(others), flights, by_key, by_route, rooms_by_city)
        if plan is not None:
            trips.add(plan)
    for _ in range(s.count(small=15, medium=650, large=2500)):
        status = s.rng.choices(("active", "completed", "cancelled"), (5, 4, 1))[0]
        room = s.pick(rooms)
        day = s.day_offset(3, 60) if status != "completed" else s.day_offset(-40, -5)
        created = s.now - timedelta(days=s.rng.randint(2, 60))
        trips.add(
            Plan(
                s.pick(others),
                [],
                None,
                min(room["capacity"], s.rng.randint(1, 2)),
                created,
                status,
                stay=(room, day, s.rng.randint(1, 5)),
            )
        )


def _plan(s, trips: Trips, t: dict, flights, by_key, by_route, rooms_by_city) -> Plan | None:
    status = s.rng.choices(("active", "completed", "cancelled"), (50, 35, 15))[0]
    f = s.pick(flights)
    lo, hi = {"active": (2, 65), "completed": (-14, -6), "cancelled": (-10, 60)}[status]
    out = _date_near(s, by_key, f, s.rng.randint(lo, hi))
    if out is None:
        return None
    legs = [out]
    back_routes = by_route.get((f["destination"], f["origin"]), [])
    if back_routes and s.chance(0.55):
        gap = s.rng.randint(2, 10) if status != "completed" else s.rng.randint(2, 4)
        back = _date_near(s, by_key, s.pick(back_routes), _offset(s, out["day"]) + gap)
        if (
            back is not None
            and back["departs_utc"] > out["arrives_utc"]
            and (status != "completed" or back["arrives_utc"] < s.now.isoformat())
        ):
            legs.append(back)
    if status == "active" and any(leg["status"] in ("departed", "landed") for leg in legs):
        return None
    cabin = s.rng.choices(CABINS, (20, 65, 15))[0]
    pax = s.rng.choices((1, 2, 3), (60, 28, 12))[0]
    departs = datetime.fromisoformat(out["departs_utc"])
    if status == "active" and s.chance(0.1):
        created = s.now - timedelta(hours=s.rng.randint(1, 23))
    else:
        created = min(s.now - timedelta(days=2), departs - timedelta(days=s.rng.randint(5, 50)))
    plan = Plan(t, legs, cabin, pax, created, status, insured=s.chance(0.3), bags=s.rng.randint(0, pax * 2))
    city = trips.airports[f["destination"]]["city"]
    fits = [r for r in rooms_by_city.get(city, []) if r["capacity"] >= pax]
    if fits and s.chance(0.4):
        nights = (
            max(1, _offset(s, legs[-1]["day"]) - _offset(s, out["day"]))
            if len(legs) > 1
            else s.rng.randint(2, 5)
        )
        plan.stay = (s.pick(fits), out["arrives_at"][:10], min(nights, 30))
    return plan


def _offset(s: Seeder, day: str) -> int:
    return (datetime.fromisoformat(day).date() - s.now.date()).days


def _date_near(s: Seeder, by_key, f: dict, offset: int) -> dict | None:
    """The flight's first operating date on or after ``offset`` days from today (within a week)."""
    for k in range(7):
        day = (s.now.date() + timedelta(days=offset + k)).isoformat()
        d = by_key.get((f["id"], day))
        if d is not None:
            return d
    return None


def _seed_tickets(s: Seeder, travelers: list[dict], itineraries: list[dict]) -> None:
    by_traveler: dict[str, list[str]] = {}
    for it in itineraries:
        by_traveler.setdefault(it["traveler_id"], []).append(it["id"])
    rows = []
    for i in range(s.count(small=20, medium=300, large=3000)):
        t = travelers[0] if i == 0 else s.pick(travelers)
        subject, message = s.pick(list(SUBJECTS))
        trips = by_traveler.get(t["id"], [])
        rows.append(
            dict(
                id=f"SUP-{i + 1:06d}",
                traveler_id=t["id"],
                itinerary_id=s.pick(trips) if trips and s.chance(0.7) else None,
                subject=subject,
                message=message,
                status="open" if s.chance(0.4) else "closed",
                created_at=s.moment_offset(-90, -1),
            )
        )
    s.add(SupportTicket, rows)


# -- variants -------------------------------------------------------------------------------------


@travel_booking.variant("token_expired", first="authenticate")
def token_expired(db: Db) -> None:
    """The session's access token expired an hour ago: every account tool refuses until the
    traveler authenticates again."""
    token = db.acting()["access_token"]
    db.execute(
        "UPDATE access_tokens SET status = 'expired', issued_at = '2026-05-31T15:00:00', "
        "expires_at = '2026-06-01T15:00:00' WHERE id = ?",
        token,
    )
    db.set_acting(logged_in_at="2026-05-31T15:00:00")
