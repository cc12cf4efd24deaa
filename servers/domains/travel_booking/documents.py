"""Travel documents: the checks a traveler's passport and age must pass for a trip."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Annotated

from pydantic import Field

from servers.domains.travel_booking.model import PASSPORT_MARGIN_DAYS, Itinerary, Traveler, travel_booking
from servers.domains.travel_booking.rules import ME_SQL, _age
from servers.kit import Db, Ref, ToolError

Dob = Annotated[
    str,
    Field(
        pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$",
        max_length=10,
        examples=["1985-04-12", "1990-11-03", "2010-06-21", "1978-01-30", "2001-09-15"],
    ),
]
PassportNumber = Annotated[
    str,
    Field(
        pattern=r"^[A-Z0-9]{6,9}$", max_length=9, examples=["X48213977", "P1234567", "K9081726", "C55501288"]
    ),
]
Country = Annotated[str, Field(pattern=r"^[A-Z]{2}$", max_length=2, examples=["US", "CA", "GB", "DE", "JP"])]
PersonName = Annotated[str, Field(min_length=3, max_length=80, pattern=r"^\S+( \S+)+$")]
Expiry = Annotated[
    str,
    Field(
        pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$",
        max_length=10,
        examples=["2026-09-30", "2027-03-15", "2029-08-01", "2031-05-20"],
    ),
]


@travel_booking.tool(
    returns=Traveler,
    says=[
        "check the documents of {name} for itinerary {itinerary}: born {dob}, passport {passport_number} from {passport_country}, valid to {passport_expiry}",
        "is passport {passport_number} ({passport_country}, expires {passport_expiry}) good enough for {name}, born {dob}?",
    ],
)
def verify_traveler(
    db: Db,
    name: PersonName,
    dob: Dob,
    passport_number: PassportNumber,
    passport_country: Country,
    passport_expiry: Expiry,
    itinerary: Ref[Itinerary, f"traveler_id = {ME_SQL} AND status = 'active' AND trip_type != 'hotel_only'"]
    | None = None,
) -> dict:
    """Check a traveler's documents: age, passport format, a passport valid six months past the
    last flight for trips abroad, and (with an itinerary) that the name is on the booking.

    Args:
        name: Full name as on the passport, given names first.
        dob: Date of birth, YYYY-MM-DD.
        passport_number: The passport number.
        passport_country: The passport's country, two-letter code.
        passport_expiry: The passport's expiry date.
        itinerary: The signed-in traveler's itinerary to check against.
    """
    today = db.today
    first, _, last = name.strip().rpartition(" ")
    checks = []
    for value, what in ((dob, "date of birth"), (passport_expiry, "passport expiry")):
        try:
            date.fromisoformat(value)
        except ValueError:
            raise ToolError(f"{what} {value} is not a real date") from None
    age = _age(dob, today)
    checks.append({"check": "adult", "ok": age >= 18, "detail": f"{age} years old"})
    checks.append(
        {
            "check": "passport_valid_today",
            "ok": passport_expiry > today.isoformat(),
            "detail": f"expires {passport_expiry}",
        }
    )
    if itinerary is not None:
        checks += _trip_checks(db, itinerary, first, last, passport_country, passport_expiry)
    return {
        "traveler": name,
        "passport": passport_number[-4:].rjust(len(passport_number), "*"),
        "verified": all(c["ok"] for c in checks),
        "checks": checks,
    }


def _trip_checks(db: Db, itinerary: str, first: str, last: str, country: str, expiry: str) -> list[dict]:
    session = db.acting()
    trip = db.get(Itinerary, itinerary)
    if trip["traveler_id"] != session["traveler_id"]:
        raise ToolError(f"itinerary {itinerary} does not belong to the signed-in traveler")
    legs = db.all(
        "SELECT d.day, a.country AS o, b.country AS d FROM segments s JOIN flight_dates d ON d.id = s.flight_date_id "
        "JOIN flights f ON f.id = d.flight_id JOIN airports a ON a.id = f.origin JOIN airports b ON b.id = f.destination "
        "WHERE s.itinerary_id = ? AND s.status != 'cancelled' ORDER BY s.position",
        itinerary,
    )
    names = db.all("SELECT first_name, last_name FROM passengers WHERE itinerary_id = ?", itinerary)
    on_board = any(
        p["first_name"].casefold() == first.casefold() and p["last_name"].casefold() == last.casefold()
        for p in names
    )
    out = [
        {
            "check": "on_itinerary",
            "ok": on_board,
            "detail": f"{'listed' if on_board else 'not listed'} on {itinerary} ({trip['code']})",
        }
    ]
    abroad = any(leg["o"] != country or leg["d"] != country for leg in legs)
    if legs and abroad:
        need = (date.fromisoformat(legs[-1]["day"]) + timedelta(days=PASSPORT_MARGIN_DAYS)).isoformat()
        out.append(
            {
                "check": "passport_six_months",
                "ok": expiry >= need,
                "detail": f"international trip: must be valid until {need}, expires {expiry}",
            }
        )
    return out
