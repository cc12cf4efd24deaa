"""Wall time and UTC: the conversions every calendar answer needs, with no database.

Events keep their wall time in their own zone (a 10:00 London series stays at 10:00 when the
clocks change) and a UTC copy for comparing across zones; the person asking sees both. Times are
naive ``datetime`` values: a wall time is read in the zone given beside it, a UTC time is UTC.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from functools import cache, lru_cache
from zoneinfo import ZoneInfo

MINUTE = "%Y-%m-%dT%H:%M"


class ClockError(ValueError):
    """A wall time that does not exist or is ambiguous in its zone, or an unreadable moment."""


@cache
def zone(name: str) -> ZoneInfo:
    return ZoneInfo(name)


@lru_cache(maxsize=1 << 16)
def to_utc(local: datetime, tz: str) -> datetime:
    """The UTC moment of wall time ``local`` in ``tz`` (the earlier one when clocks go back).

    Remembered: the same series' occurrences are placed on the time line for every free/busy
    and conflict question, and a zone lookup costs far more than the cache."""
    aware = local.replace(tzinfo=zone(tz), fold=0)
    return aware.astimezone(UTC).replace(tzinfo=None)


def to_local(utc: datetime, tz: str) -> datetime:
    """The wall time in ``tz`` at UTC moment ``utc``."""
    return utc.replace(tzinfo=UTC).astimezone(zone(tz)).replace(tzinfo=None)


def exists(local: datetime, tz: str) -> bool:
    """False for wall times skipped when clocks go forward (02:30 on a spring-forward night)."""
    return to_local(to_utc(local, tz), tz) == local


def offset(local: datetime, tz: str) -> str:
    """The zone's UTC offset at that wall time, as ``-07:00``."""
    delta = local.replace(tzinfo=zone(tz), fold=0).utcoffset() or timedelta(0)
    minutes = int(delta.total_seconds() // 60)
    sign = "-" if minutes < 0 else "+"
    return f"{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


def parse_moment(text: str, tz: str) -> datetime:
    """A ``Moment`` argument as wall time in ``tz``: written in ``tz`` unless it carries an
    offset (``Z``, ``+01:00``), in which case it is converted. Refuses wall times that do not
    exist in ``tz``."""
    try:
        value = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise ClockError(f"{text} is not a date and time (YYYY-MM-DDTHH:MM)") from None
    if value.tzinfo is not None:
        utc = value.astimezone(UTC).replace(tzinfo=None)
        return to_local(utc, tz).replace(second=0, microsecond=0)
    value = value.replace(second=0, microsecond=0)
    if not exists(value, tz):
        raise ClockError(
            f"{value.strftime(MINUTE)} does not exist in {tz}: the clocks jump forward that night"
        )
    return value


def show(local: datetime) -> str:
    return local.strftime(MINUTE)


def show_utc(utc: datetime) -> str:
    return utc.strftime(MINUTE) + "Z"


def stored(value: datetime) -> str:
    """How a time is stored: ISO to the second, naive."""
    return value.isoformat(timespec="seconds")


def parse_stored(text: str) -> datetime:
    return datetime.fromisoformat(text)
