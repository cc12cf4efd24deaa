"""Date arithmetic relative to the reference moment: days and business days between dates, a date
shifted by days, weeks or months, and the weekday of a date ("today" where a date is left out)."""

from __future__ import annotations

import calendar
from datetime import date, timedelta
from typing import Annotated, Literal

from pydantic import Field

from servers.domains.utilities.model import utilities
from servers.kit import Day, Db, ToolError

Span = Literal["days", "weeks", "months"]
Side = Literal["after", "before"]
Amount = Annotated[
    int,
    Field(
        ge=1,
        le=10_000,
        description="How many days, weeks or months, 1-10000.",
        examples=[2, 3, 4, 6, 10, 14, 21, 30, 45, 90, 100],
    ),
]
# dates more than a month from the reference day, so a request names them by date, not weekday
FAR_DAYS = [
    "2026-07-04", "2026-08-21", "2026-09-15", "2026-10-31", "2026-11-26", "2026-12-25",
    "2027-01-01", "2027-02-14", "2027-03-17", "2027-05-30", "2026-01-15", "2026-03-08",
    "2025-12-31", "2025-07-04", "2028-02-29",
]  # fmt: skip
WeekdayDay = Annotated[Day, Field(examples=FAR_DAYS)]
WEEKDAYS = tuple(calendar.day_name)


def _day(value: str | None, db: Db) -> date:
    return date.fromisoformat(value) if value else db.today


def _weekdays_from(start: date, days: int) -> int:
    """Monday-Friday dates among the ``days`` dates starting at ``start``."""
    weeks, rest = divmod(days, 7)
    return weeks * 5 + sum(1 for i in range(rest) if (start.weekday() + i) % 7 < 5)


@utilities.tool(
    says=[
        "how many days are there between {start} and {end}?",
        "how many days is it from {start} to {end}?",
        "how many days is {start} from today?",
    ]
)
def days_between(db: Db, start: Day, end: Day | None = None) -> dict:
    """The number of days from one date to another: positive when end is later, negative when it
    is earlier.

    Args:
        start: The first date.
        end: The second date; today if left out.
    """
    first, second = date.fromisoformat(start), _day(end, db)
    days = (second - first).days
    return {
        "value": days,
        "unit": "days",
        "start": start,
        "end": second.isoformat(),
        "weeks": round(days / 7, 2),
    }


@utilities.tool(
    says=[
        "how many business days are there between {start} and {end}?",
        "how many working days from {start} to {end}?",
    ]
)
def business_days_between(db: Db, start: Day, end: Day) -> dict:
    """Business days (Monday to Friday; public holidays are not known) from start up to but not
    including end; negative when end is earlier than start.

    Args:
        start: The first date (counted if it is a weekday).
        end: The date the count stops at (not counted).
    """
    first, second = date.fromisoformat(start), date.fromisoformat(end)
    low, high = sorted((first, second))
    count = _weekdays_from(low, (high - low).days)
    return {
        "value": count if second >= first else -count,
        "unit": "business days",
        "start": start,
        "end": end,
        "calendar_days": (second - first).days,
    }


def _add_months(day: date, months: int) -> tuple[date, bool]:
    """``day`` moved by ``months``, kept to the month's last day when it has fewer days."""
    year, month = divmod(day.month - 1 + months, 12)
    year += day.year
    if not 1 <= year <= 9999:
        raise OverflowError
    last = calendar.monthrange(year, month + 1)[1]
    return date(year, month + 1, min(day.day, last)), day.day > last


@utilities.tool(
    says=[
        "what's the date {amount} {unit} {direction} {date}?",
        "what date is it {amount} {unit} from today?",
        "add {amount} {unit} to {date}",
    ]
)
def shift_date(
    db: Db, amount: Amount, unit: Span, direction: Side = "after", date: Day | None = None
) -> dict:
    """A date moved by a number of days, weeks or months. Moving by months keeps the day of the
    month; when the target month is shorter it stops at its last day (Jan 31 + 1 month = Feb 28
    or 29) and says so with clamped.

    Args:
        amount: How many units to move by.
        unit: days, weeks or months.
        direction: after (later) or before (earlier).
        date: The date to start from; today if left out.
    """
    origin = _day(date, db)
    sign = 1 if direction == "after" else -1
    clamped = False
    try:
        if unit == "months":
            result, clamped = _add_months(origin, sign * amount)
        else:
            result = origin + timedelta(days=sign * amount * (7 if unit == "weeks" else 1))
    except OverflowError:
        raise ToolError(
            f"{amount} {unit} {direction} {origin.isoformat()} falls outside the calendar (years 1-9999)"
        ) from None
    return {
        "value": result.isoformat(),
        "weekday": WEEKDAYS[result.weekday()],
        "from": origin.isoformat(),
        "clamped": clamped,
    }


@utilities.tool(
    says=[
        "what day of the week is {date}?",
        "which weekday does {date} fall on?",
        "what day is it today?",
    ]
)
def weekday_of(db: Db, date: WeekdayDay | None = None) -> dict:
    """The weekday of a date, its ISO week and day of the year; today's if no date is given.

    Args:
        date: The date; today if left out.
    """
    day = _day(date, db)
    return {
        "date": day.isoformat(),
        "weekday": WEEKDAYS[day.weekday()],
        "is_weekend": day.weekday() >= 5,
        "iso_week": day.isocalendar()[1],
        "day_of_year": day.timetuple().tm_yday,
        "is_today": day == db.today,
    }
