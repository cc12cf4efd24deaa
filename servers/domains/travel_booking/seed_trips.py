"""Seeded trips: itineraries with segments, passengers, bags, stays and their charges."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, timedelta

from servers.domains.travel_booking.model import (
    BAG_PRICE,
    FREE_BAGS,
    INSURANCE_PER_PASSENGER,
    Bag,
    Charge,
    Itinerary,
    Passenger,
    Segment,
    Stay,
)
from servers.domains.travel_booking.rules import segment_label, ticket_number
from servers.kit import Seeder, marks

CODE_CHARS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
PRICE = {"basic_economy": "price_basic", "economy": "price_economy", "business": "price_business"}


def _iso(moment: datetime) -> str:
    return moment.isoformat(timespec="seconds")


def _short(day: str) -> str:
    return date.fromisoformat(day).strftime("%b %-d")


@dataclass
class Plan:
    """One trip to seed: who, which flight dates, cabin, passengers, when booked, and its fate."""

    traveler: dict
    legs: list[dict]
    cabin: str | None
    pax: int
    created: datetime
    status: str
    insured: bool = False
    stay: tuple[dict, str, int] | None = None  # room type, check-in day, nights
    bags: int = 0


@dataclass
class Trips:
    """Collects the rows of every seeded trip, then inserts them table by table."""

    s: Seeder
    airports: dict[str, dict]
    hotels: dict[str, dict]
    cards: dict[str, list[dict]]
    rows: dict[str, list[dict]] = field(default_factory=dict)
    codes: set[str] = field(default_factory=set)

    def _add(self, table: type, row: dict) -> str:
        out = self.rows.setdefault(table.__tablename__, [])
        row = {"id": f"{marks(table).prefix}-{len(out) + 1:06d}", **row}
        if table is Passenger:
            row["code"] = ticket_number(row["id"])
        out.append(row)
        return row["id"]

    def _code(self) -> str:
        while True:
            code = "".join(self.s.rng.choice(CODE_CHARS) for _ in range(6))
            if code not in self.codes:
                self.codes.add(code)
                return code

    def _title(self, plan: Plan) -> str:
        if not plan.legs:
            room, day, _ = plan.stay
            return f"{self.hotels[room['hotel_id']]['city']} stay, {_short(day)}"
        first, last = plan.legs[0], plan.legs[-1]
        o, d = self.airports[first["_origin"]]["city"], self.airports[first["_destination"]]["city"]
        back = " and back" if last["_destination"] == first["_origin"] and len(plan.legs) > 1 else ""
        return f"{o} to {d}{back}, {_short(first['day'])}"

    def add(self, plan: Plan) -> str:
        t, s = plan.traveler, self.s
        fare = round(sum(leg[PRICE[plan.cabin]] * plan.pax for leg in plan.legs), 2) if plan.legs else 0.0
        free = FREE_BAGS[t["membership"]][plan.cabin] * plan.pax if plan.legs else 0
        paid_bags = max(0, plan.bags - free)
        extras = round(paid_bags * BAG_PRICE + (INSURANCE_PER_PASSENGER * plan.pax if plan.insured else 0), 2)
        room_total = 0.0
        if plan.stay:
            room_total = round(plan.stay[0]["nightly_price"] * plan.stay[2], 2)
        kind = "hotel_only" if not plan.legs else "round_trip" if self._round(plan) else "one_way"
        cancelled = plan.status == "cancelled"
        refund = round((fare + extras + room_total) * s.rng.choice((0.0, 1.0)), 2) if cancelled else 0.0
        trip = self._add(
            Itinerary,
            dict(
                traveler_id=t["id"],
                code=self._code(),
                title=self._title(plan),
                status=plan.status,
                trip_type=kind,
                cabin=plan.cabin,
                passengers=plan.pax,
                insurance=plan.insured,
                fare_paid=fare,
                extras_paid=extras,
                total_paid=round(fare + extras + room_total - refund, 2),
                created_at=_iso(plan.created),
                cancelled_at=_iso(plan.created + timedelta(days=1)) if cancelled else None,
                cancel_reason=s.pick(["change_of_plans", "health", "personal"]) if cancelled else None,
            ),
        )
        self._legs(trip, plan)
        self._people(trip, plan)
        if plan.legs:
            self._add(Bag, dict(itinerary_id=trip, count=plan.bags, free_count=free, paid_count=paid_bags))
        if plan.stay:
            self._stay(trip, plan, room_total)
        self._ledger(trip, plan, fare + extras + room_total, refund)
        return trip

    @staticmethod
    def _round(plan: Plan) -> bool:
        return len(plan.legs) > 1 and plan.legs[-1]["_destination"] == plan.legs[0]["_origin"]

    def _legs(self, trip: str, plan: Plan) -> None:
        status = {"active": "booked", "completed": "flown", "cancelled": "cancelled"}[plan.status]
        code = self.rows["itineraries"][-1]["code"]
        for i, leg in enumerate(plan.legs):
            self._add(
                Segment,
                dict(
                    itinerary_id=trip,
                    label=segment_label(leg["flight_id"], leg["day"], code),
                    flight_date_id=leg["id"],
                    position=i + 1,
                    cabin=plan.cabin,
                    price=round(leg[PRICE[plan.cabin]] * plan.pax, 2),
                    status=status,
                ),
            )

    def _people(self, trip: str, plan: Plan) -> None:
        t, s = plan.traveler, self.s
        self._add(
            Passenger,
            dict(itinerary_id=trip, first_name=t["first_name"], last_name=t["last_name"], dob=t["dob"]),
        )
        for _ in range(plan.pax - 1):
            self._add(
                Passenger,
                dict(
                    itinerary_id=trip,
                    first_name=s.fake.first_name(),
                    last_name=t["last_name"],
                    dob=(date(1960, 1, 1) + timedelta(days=s.rng.randint(0, 365 * 60))).isoformat(),
                ),
            )

    def _stay(self, trip: str, plan: Plan, total: float) -> None:
        room, day, nights = plan.stay
        out = (date.fromisoformat(day) + timedelta(days=nights)).isoformat()
        status = {"active": "booked", "completed": "completed", "cancelled": "cancelled"}[plan.status]
        self._add(
            Stay,
            dict(
                itinerary_id=trip,
                hotel_id=room["hotel_id"],
                room_type_id=room["id"],
                check_in=day,
                check_out=out,
                guests=min(plan.pax, room["capacity"]),
                nightly_price=room["nightly_price"],
                total_paid=total,
                refundable=room["refundable"],
                status=status,
            ),
        )

    def _ledger(self, trip: str, plan: Plan, total: float, refund: float) -> None:
        cards = [c for c in self.cards[plan.traveler["id"]] if c["kind"] == "credit_card"] or self.cards[
            plan.traveler["id"]
        ]
        card = cards[0]
        what = "Booking" if plan.legs else "Hotel booking"
        self._add(
            Charge,
            dict(
                itinerary_id=trip,
                payment_method_id=card["id"],
                kind="charge",
                amount=round(total, 2),
                description=f"{what} {self.rows['itineraries'][-1]['code']}",
                at=_iso(plan.created),
            ),
        )
        if refund:
            self._add(
                Charge,
                dict(
                    itinerary_id=trip,
                    payment_method_id=card["id"],
                    kind="refund",
                    amount=-refund,
                    description="Cancellation refund",
                    at=_iso(plan.created + timedelta(days=1)),
                ),
            )

    def insert(self) -> None:
        for table in (Itinerary, Segment, Passenger, Bag, Stay, Charge):
            self.s.add(table, self.rows.get(table.__tablename__, []))
