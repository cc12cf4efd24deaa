"""Seeded reservations, placed near the policy's edges on purpose.

About a third break no rule whatever is asked of them; the rest sit near an edge: booked 20-24 h
ago (still free to cancel) or 24-28 h ago (just too late), basic economy (no changes), a flown
outbound (only the return can change), a flight the airline cancelled or delayed (cancellable,
compensable), a certificate already issued (no second one). Each reservation is paid by one of
its member's credit cards; a few were cancelled earlier and refunded."""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime, timedelta
from typing import Any

from servers.domains.airline_service.model import (
    BAG_PRICE,
    COMPENSATION_PER_PASSENGER,
    FREE_BAGS,
    INSURANCE_PER_PASSENGER,
    MIN_CONNECTION_MIN,
    Certificate,
    Passenger,
    Payment,
    PaymentMethod,
    Reservation,
    ReservationFlight,
)
from servers.kit import Seeder

PROFILES = (("future", 62), ("partly_flown", 13), ("flown", 10), ("disrupted", 15))
CABIN_WEIGHTS = (("basic_economy", 30), ("economy", 50), ("business", 20))
HUBS = ("DEN", "ORD", "ATL", "JFK")


def _choice(s: Seeder, weighted: tuple[tuple[str, int], ...]) -> str:
    return s.rng.choices([w[0] for w in weighted], [w[1] for w in weighted])[0]


class Network:
    """Flight-date rows indexed for building itineraries."""

    def __init__(self, dates: list[dict[str, Any]], now: datetime) -> None:
        self.now = now.isoformat(timespec="seconds")
        self.by_origin: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
        for fd in dates:
            self.by_origin[(fd["origin"], fd["date"])].append(fd)
        self.future = [fd for fd in dates if fd["status"] == "scheduled" and fd["departs_at"] > self.now]
        self.past = [fd for fd in dates if fd["status"] == "landed" and fd["date"] < self.now[:10]]
        soon = (now + timedelta(days=3)).date().isoformat()
        self.disrupted = [
            fd
            for fd in dates
            if (fd["status"] == "cancelled" or fd["delay_min"] >= 150)
            and (now - timedelta(days=5)).date().isoformat() <= fd["date"] <= soon
        ]

    def onward(self, s: Seeder, leg: dict[str, Any], to: str | None, days: int) -> dict[str, Any] | None:
        """A flight from where ``leg`` lands: a connection the same day (``days`` 0) or a return
        ``days`` later, to ``to`` if given."""
        land = datetime.fromisoformat(leg["arrives_at"])
        day = (land + timedelta(days=days)).date().isoformat()
        earliest = (land + timedelta(minutes=MIN_CONNECTION_MIN)).isoformat(timespec="seconds")
        latest = (land + timedelta(hours=6)).isoformat(timespec="seconds")
        options = [
            fd
            for fd in self.by_origin.get((leg["destination"], day), [])
            if (fd["destination"] == to if to else fd["destination"] != leg["origin"])
            and fd["status"] != "cancelled"
            and fd["departs_at"] >= earliest
            and (days or fd["departs_at"] <= latest)
        ]
        return s.pick(options) if options else None


def _itinerary(s: Seeder, net: Network, profile: str) -> list[dict[str, Any]] | None:
    """The flights of one reservation for its profile, in travel order."""
    if profile == "flown":
        first = s.pick(net.past)
    elif profile == "disrupted":
        first = s.pick(net.disrupted)
    elif profile == "partly_flown":
        first = s.pick(net.past[-len(net.past) // 3 :])
    else:
        first = s.pick(net.future)
    out = [first]
    if first["destination"] in HUBS and s.chance(0.25):
        nxt = net.onward(s, first, None, 0)
        if nxt is not None and nxt["destination"] != first["origin"]:
            out.append(nxt)
    if profile == "partly_flown" or s.chance(0.5):
        back = net.onward(s, out[-1], out[-1]["origin"], s.rng.randint(2, 9))
        if back is None:
            return None if profile == "partly_flown" else out
        if profile == "partly_flown" and back["departs_at"] <= net.now:
            return None
        out.append(back)
    return out


def _created(s: Seeder, first_departure: str, near: bool) -> datetime:
    """When it was booked: for a future trip, often just inside or outside the 24-hour window."""
    dep = datetime.fromisoformat(first_departure)
    if near and dep > s.now:
        roll = s.rng.random()
        if roll < 0.18:
            return s.now - timedelta(minutes=s.rng.randint(30, 20 * 60 - 1))
        if roll < 0.36:
            return s.now - timedelta(minutes=s.rng.randint(20 * 60 + 5, 24 * 60 - 5))
        if roll < 0.54:
            return s.now - timedelta(minutes=s.rng.randint(24 * 60 + 5, 28 * 60))
    latest = min(dep - timedelta(days=1), s.now - timedelta(days=2))
    return latest - timedelta(minutes=s.rng.randint(0, 60 * 24 * 50))


def _passengers(s: Seeder, user: dict[str, Any], n: int) -> list[tuple[str, str, str]]:
    out = [(user["first_name"], user["last_name"], user["dob"])] if s.chance(0.85) else []
    while len(out) < n:
        last = user["last_name"] if s.chance(0.6) else s.fake.last_name()
        born = (datetime(1950, 1, 1) + timedelta(days=s.rng.randint(0, 365 * 70))).date().isoformat()
        out.append((s.fake.first_name(), last, born))
    return out


def fill_reservations(
    s: Seeder, users: list[dict[str, Any]], methods: list[dict[str, Any]], dates: list[dict[str, Any]]
) -> None:
    net = Network(dates, s.now)
    cards: dict[str, list[str]] = defaultdict(list)
    for m in methods:
        if m["kind"] == "credit_card":
            cards[m["user_id"]].append(m["id"])
    res_rows, legs, pax, pays, certs, new_methods = [], [], [], [], [], []
    target = s.count(150, 2000, 50_000)
    while len(res_rows) < target:
        profile = _choice(s, PROFILES)
        flights = _itinerary(s, net, profile)
        if flights is None:
            continue
        rid = f"RES-{len(res_rows) + 1:06d}"
        user = users[0] if len(res_rows) < 4 else s.pick(users)
        cabin = _choice(s, CABIN_WEIGHTS)
        n = s.rng.choices((1, 2, 3, 4, 5), (50, 25, 12, 7, 6))[0]
        created = _created(s, flights[0]["departs_at"], near=profile in ("future", "disrupted"))
        free = FREE_BAGS[user["membership"]][cabin] * n
        bags = s.rng.randint(0, free + 2)
        insured = s.chance(0.3)
        cancelled = profile == "future" and s.chance(0.07)
        trip = {"cabin": cabin, "passenger_count": n, "total_bags": bags, "paid_bags": max(0, bags - free)}
        res_rows.append(_reservation(rid, user["id"], flights, trip, insured, created, cancelled))
        total = 0.0
        for pos, fd in enumerate(flights, 1):
            price = fd[f"price_{cabin}"]
            total += price * n
            legs.append({"reservation_id": rid, "flight_date_id": fd["id"], "position": pos, "cabin": cabin, "price": price})  # fmt: skip
        for first, last, born in _passengers(s, user, n):
            row = {"reservation_id": rid, "name": f"{first} {last}", "first_name": first, "last_name": last}
            pax.append({**row, "dob": born})
        total += INSURANCE_PER_PASSENGER * n * insured + BAG_PRICE * max(0, bags - free)
        card = s.pick(cards[user["id"]])
        stamp = created.isoformat(timespec="seconds")
        pays.append(_pay(rid, card, "charge", total, "booking", stamp))
        if cancelled:
            pays.append(_pay(rid, card, "refund", total, "cancellation", res_rows[-1]["cancelled_at"]))
        if profile == "disrupted" and _compensated(flights[0]) and s.chance(0.3):
            pmid = f"PMT-{len(methods) + len(new_methods) + 1:06d}"
            method, cert = _certificate(s, user["id"], rid, flights[0], n, pmid, len(certs) + 1)
            new_methods.append(method)
            certs.append(cert)
    s.add(Reservation, res_rows)
    s.add(PaymentMethod, new_methods)
    s.add(ReservationFlight, _numbered("RSF", legs))
    s.add(Passenger, _numbered("PAX", pax))
    s.add(Payment, _numbered("PAY", pays))
    s.add(Certificate, _numbered("CRT", certs))


def _reservation(
    rid: str, user_id: str, flights: list[dict[str, Any]], trip: dict[str, Any], insured: bool,
    created: datetime, cancelled: bool,
) -> dict[str, Any]:  # fmt: skip
    round_trip = flights[-1]["destination"] == flights[0]["origin"]
    turn = flights[len(flights) // 2 - 1] if round_trip else flights[-1]
    gone = (created + timedelta(hours=3)).isoformat(timespec="seconds") if cancelled else None
    return {
        "id": rid,
        "user_id": user_id,
        "origin": flights[0]["origin"],
        "destination": turn["destination"],
        "trip_type": "round_trip" if round_trip else "one_way",
        **trip,
        "insurance": insured,
        "status": "cancelled" if cancelled else "active",
        "created_at": created.isoformat(timespec="seconds"),
        "cancelled_at": gone,
        "cancel_reason": "change_of_plans" if cancelled else None,
    }


def _compensated(fd: dict[str, Any]) -> bool:
    return fd["status"] == "cancelled" or fd["delay_min"] >= 180


def _certificate(
    s: Seeder, user_id: str, rid: str, hit: dict[str, Any], n: int, pmid: str, number: int
) -> tuple[dict[str, Any], dict[str, Any]]:
    """A certificate issued this morning for a disrupted flight, and the payment method it became."""
    amount = COMPENSATION_PER_PASSENGER["cancelled" if hit["status"] == "cancelled" else "delayed"] * n
    method = {
        "id": pmid,
        "user_id": user_id,
        "kind": "certificate",
        "label": f"Certificate {number:04d}",
        "balance": amount,
        "status": "active",
        "added_at": s.now.date().isoformat(),
    }
    cert = {
        "user_id": user_id,
        "reservation_id": rid,
        "flight_date_id": hit["id"],
        "payment_method_id": pmid,
        "amount": amount,
        "issued_at": (s.now - timedelta(hours=2)).isoformat(timespec="seconds"),
    }
    return method, cert


def _pay(rid: str, pmid: str, kind: str, amount: float, memo: str, at: str) -> dict[str, Any]:
    return {
        "reservation_id": rid,
        "payment_method_id": pmid,
        "kind": kind,
        "amount": round(amount, 2),
        "memo": memo,
        "created_at": at,
    }


def _numbered(prefix: str, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{"id": f"{prefix}-{i:06d}", **r} for i, r in enumerate(rows, 1)]
