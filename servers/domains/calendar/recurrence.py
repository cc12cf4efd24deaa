"""Recurrence rules: the RFC 5545 RRULE subset the calendar accepts, and their expansion.

Pure functions, no database: ``parse`` reads a rule, ``expand`` lists a series' start times as
wall times in the series' zone, ``between`` keeps the ones that overlap a UTC window. Expanding
in wall time is what keeps a 10:00 meeting at 10:00 across a daylight-saving change while its UTC
time moves by an hour, and what skips the 31st in months that have no 31st (RFC 5545: invalid
dates are ignored, never moved).

Supported: ``FREQ`` DAILY/WEEKLY/MONTHLY/YEARLY, ``INTERVAL`` (1-99), ``BYDAY`` (MO..SU; with
MONTHLY also an ordinal, ``1MO`` first Monday, ``-1FR`` last Friday), ``BYMONTHDAY`` (1..31 or
-31..-1 counting from the month's end; not with WEEKLY), and ``COUNT`` (1-730) or ``UNTIL``
(``YYYYMMDD``, inclusive, or ``YYYYMMDDTHHMMSSZ``), never both. The first occurrence is the
series' start, which must be one of the rule's days. Every series ends after 730 occurrences.
"""

from __future__ import annotations

import calendar as _months
import functools
import threading
from bisect import bisect_left
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta

from servers.domains.calendar.clock import to_utc

CAP = 730  # occurrences a series may have (an open-ended one stops here)
MAX_PERIODS = 20_000
SLACK = timedelta(
    hours=15
)  # the widest gap between a wall time and UTC  # days, weeks, months or years looked at before giving up
FREQS = ("DAILY", "WEEKLY", "MONTHLY", "YEARLY")
DAYS = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")
DAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
PARTS = ("FREQ", "INTERVAL", "BYDAY", "BYMONTHDAY", "COUNT", "UNTIL", "WKST")
ORDINALS = {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth", -1: "last", -2: "second to last"}


class RuleError(ValueError):
    """A rule outside the supported subset, or one that does not fit its series' start."""


@dataclass(frozen=True)
class Rule:
    freq: str
    interval: int = 1
    byday: tuple[tuple[int | None, int], ...] = ()  # (ordinal or None, weekday 0=Monday)
    bymonthday: tuple[int, ...] = ()
    count: int | None = None
    until: str | None = None  # YYYYMMDD or YYYYMMDDTHHMMSSZ, as written

    @property
    def text(self) -> str:
        """The canonical RRULE text (parts in a fixed order)."""
        parts = [f"FREQ={self.freq}"]
        if self.interval != 1:
            parts.append(f"INTERVAL={self.interval}")
        if self.byday:
            parts.append("BYDAY=" + ",".join(f"{n or ''}{DAYS[d]}" for n, d in self.byday))
        if self.bymonthday:
            parts.append("BYMONTHDAY=" + ",".join(str(d) for d in self.bymonthday))
        if self.count is not None:
            parts.append(f"COUNT={self.count}")
        if self.until is not None:
            parts.append(f"UNTIL={self.until}")
        return ";".join(parts)

    def until_utc(self) -> datetime | None:
        if self.until and self.until.endswith("Z"):
            return datetime.strptime(self.until, "%Y%m%dT%H%M%SZ")
        return None

    def until_day(self) -> date | None:
        if self.until and not self.until.endswith("Z"):
            return datetime.strptime(self.until, "%Y%m%d").date()
        return None


# -- reading a rule ------------------------------------------------------------------------------


@functools.lru_cache(maxsize=4096)
def parse(text: str) -> Rule:
    """A rule from its RRULE text (an ``RRULE:`` prefix is allowed); RuleError says what is wrong."""
    body = text.strip().removeprefix("RRULE:")
    values: dict[str, str] = {}
    for part in filter(None, body.split(";")):
        key, sep, value = part.partition("=")
        key = key.strip().upper()
        if not sep or not value.strip():
            raise RuleError(f"rule part {part!r} needs the form NAME=VALUE")
        if key not in PARTS:
            raise RuleError(f"rule part {key} is not supported; supported: {', '.join(PARTS[:-1])}")
        if key in values:
            raise RuleError(f"rule part {key} is given twice")
        values[key] = value.strip().upper()
    freq = values.get("FREQ")
    if freq not in FREQS:
        raise RuleError(f"FREQ must be one of {', '.join(FREQS)} (got {freq or 'nothing'})")
    if values.get("WKST", "MO") != "MO":
        raise RuleError("only WKST=MO (weeks start on Monday) is supported")
    if "COUNT" in values and "UNTIL" in values:
        raise RuleError("a rule may have COUNT or UNTIL, not both (RFC 5545)")
    rule = Rule(
        freq=freq,
        interval=_number(values, "INTERVAL", 1, 99) or 1,
        byday=_byday(values.get("BYDAY"), freq),
        bymonthday=_bymonthday(values.get("BYMONTHDAY"), freq),
        count=_number(values, "COUNT", 1, CAP),
        until=_until(values.get("UNTIL")),
    )
    return rule


def _number(values: dict[str, str], key: str, low: int, high: int) -> int | None:
    if key not in values:
        return None
    raw = values[key]
    if not raw.isdigit() or not low <= int(raw) <= high:
        raise RuleError(f"{key} must be a whole number from {low} to {high} (got {raw})")
    return int(raw)


def _byday(raw: str | None, freq: str) -> tuple[tuple[int | None, int], ...]:
    if raw is None:
        return ()
    if freq == "YEARLY":
        raise RuleError("BYDAY is not supported with FREQ=YEARLY; use MONTHLY with INTERVAL=12")
    out: list[tuple[int | None, int]] = []
    for token in raw.split(","):
        token = token.strip()
        day, ordinal = token[-2:], token[:-2]
        if day not in DAYS or (ordinal and not _is_int(ordinal)):
            raise RuleError(f"BYDAY value {token!r} is not a weekday (MO, TU, WE, TH, FR, SA, SU)")
        n = int(ordinal) if ordinal else None
        if n is not None and (freq != "MONTHLY" or not (1 <= abs(n) <= 5)):
            raise RuleError(f"BYDAY {token}: an ordinal (1 to 5, or -1 to -5) only goes with FREQ=MONTHLY")
        if (n, DAYS.index(day)) in out:
            raise RuleError(f"BYDAY lists {token} twice")
        out.append((n, DAYS.index(day)))
    return tuple(sorted(out, key=lambda x: (x[1], x[0] or 0)))


def _bymonthday(raw: str | None, freq: str) -> tuple[int, ...]:
    if raw is None:
        return ()
    if freq == "WEEKLY":
        raise RuleError("BYMONTHDAY cannot be used with FREQ=WEEKLY (RFC 5545)")
    out: list[int] = []
    for token in raw.split(","):
        token = token.strip()
        if not _is_int(token) or not (1 <= abs(int(token)) <= 31):
            raise RuleError(f"BYMONTHDAY value {token!r} must be 1 to 31 or -31 to -1")
        if int(token) in out:
            raise RuleError(f"BYMONTHDAY lists {token} twice")
        out.append(int(token))
    return tuple(sorted(out))


def _until(raw: str | None) -> str | None:
    if raw is None:
        return None
    for fmt in ("%Y%m%d", "%Y%m%dT%H%M%SZ"):
        try:
            datetime.strptime(raw, fmt)
            return raw
        except ValueError:
            continue
    raise RuleError(f"UNTIL must be a date YYYYMMDD or a UTC time YYYYMMDDTHHMMSSZ (got {raw})")


def _is_int(text: str) -> bool:
    return text.lstrip("+-").isdigit() and text.count("-") + text.count("+") <= 1


# -- expanding -----------------------------------------------------------------------------------


def _month_day(year: int, month: int, day: int) -> date | None:
    """Day ``day`` of a month (negative: from its end), or None if the month has no such day."""
    last = _months.monthrange(year, month)[1]
    n = day if day > 0 else last + day + 1
    return date(year, month, n) if 1 <= n <= last else None


def _nth_weekday(year: int, month: int, n: int, weekday: int) -> date | None:
    days = [d for d in _month_dates(year, month) if d.weekday() == weekday]
    k = n - 1 if n > 0 else len(days) + n
    return days[k] if 0 <= k < len(days) else None


def _month_dates(year: int, month: int) -> list[date]:
    return [date(year, month, d) for d in range(1, _months.monthrange(year, month)[1] + 1)]


def _fits_filters(rule: Rule, d: date) -> bool:
    """The BYDAY/BYMONTHDAY limits a DAILY rule applies to each day."""
    if rule.byday and d.weekday() not in {w for _, w in rule.byday}:
        return False
    if rule.bymonthday:
        return any(_month_day(d.year, d.month, md) == d for md in rule.bymonthday)
    return True


def _period_days(rule: Rule, start: date, k: int) -> list[date]:
    """Candidate days of period ``k`` (the k-th day, week, month or year counted by INTERVAL)."""
    step = k * rule.interval
    if rule.freq == "DAILY":
        d = start + timedelta(days=step)
        return [d] if _fits_filters(rule, d) else []
    if rule.freq == "WEEKLY":
        monday = start - timedelta(days=start.weekday()) + timedelta(weeks=step)
        weekdays = sorted({w for _, w in rule.byday}) or [start.weekday()]
        return [monday + timedelta(days=w) for w in weekdays]
    if rule.freq == "MONTHLY":
        index = start.month - 1 + step
        return _monthly_days(rule, start, start.year + index // 12, index % 12 + 1)
    year = start.year + step
    days = rule.bymonthday or (start.day,)
    found = [_month_day(year, start.month, md) for md in days]
    return sorted(d for d in found if d is not None)


def _monthly_days(rule: Rule, start: date, year: int, month: int) -> list[date]:
    by_date = {d for md in rule.bymonthday if (d := _month_day(year, month, md)) is not None}
    by_weekday: set[date] = set()
    for n, w in rule.byday:
        if n is None:
            by_weekday |= {d for d in _month_dates(year, month) if d.weekday() == w}
        elif (d := _nth_weekday(year, month, n, w)) is not None:
            by_weekday.add(d)
    if rule.bymonthday and rule.byday:
        days = by_date & by_weekday
    elif rule.bymonthday or rule.byday:
        days = by_date | by_weekday
    else:
        own = _month_day(year, month, start.day)
        days = {own} if own is not None else set()
    return sorted(days)


def _ender(rule: Rule, tz: str) -> Callable[[datetime], bool]:
    """The test "is this occurrence past UNTIL", with UNTIL read once."""
    day = rule.until_day()
    if day is not None:
        return lambda local: local.date() > day
    until = rule.until_utc()
    if until is None:
        return lambda local: False
    return lambda local: to_utc(local, tz) > until


def expand(rule: Rule, start: datetime, tz: str, *, cap: int = CAP) -> Iterator[datetime]:
    """The series' occurrence start times, as wall times in ``tz``, in order, from ``start``."""
    limit = min(cap, rule.count or cap)
    ended = _ender(rule, tz)
    made = 0
    for k in range(MAX_PERIODS):
        for d in _period_days(rule, start.date(), k):
            local = datetime.combine(d, start.time())
            if local < start:
                continue
            if ended(local):
                return
            yield local
            made += 1
            if made >= limit:
                return


class _Walk:
    """One series' occurrence starts (what :func:`expand` yields), walked once per process and
    only as far as some question has needed. Free/busy and conflict checks ask about the weeks
    after "now" for the same few hundred series again and again, and a series that began in
    January would otherwise be stepped through its spring occurrences on every one of them."""

    def __init__(self, rule: Rule, start: datetime, tz: str) -> None:
        self.found: list[datetime] = []
        self._rest = expand(rule, start, tz)
        self._done = False
        self._lock = threading.Lock()  # tools may run on several threads of one server

    def at(self, i: int) -> datetime | None:
        """The ``i``-th occurrence start, or None when the series has fewer."""
        found = self.found
        if i < len(found):
            return found[i]
        with self._lock:
            while len(found) <= i and not self._done:
                try:
                    found.append(next(self._rest))
                except StopIteration:
                    self._done = True
        return found[i] if i < len(found) else None

    def first_ending_at_or_after(self, early: datetime, duration: timedelta) -> int:
        """The index of the first occurrence with ``start + duration >= early`` (starts never
        decrease, so the ones before it all end earlier)."""
        while (not self.found or self.found[-1] + duration < early) and self.at(len(self.found)) is not None:
            pass
        return bisect_left(self.found, early, key=lambda local: local + duration)


_WALKS: dict[tuple[Rule, datetime, str], _Walk] = {}
_MAX_WALKS = 4096  # series remembered per process (a walk holds at most CAP starts, most a few dozen)


def _walk(rule: Rule, start: datetime, tz: str) -> _Walk:
    key = (rule, start, tz)
    walk = _WALKS.get(key)
    if walk is None:
        if len(_WALKS) >= _MAX_WALKS:
            _WALKS.clear()
        walk = _WALKS[key] = _Walk(rule, start, tz)
    return walk


def between(
    rule: Rule, start: datetime, tz: str, duration: timedelta, lo_utc: datetime, hi_utc: datetime
) -> list[datetime]:
    """Occurrence starts (wall time in ``tz``) whose [start, start + duration) overlaps the UTC
    window [lo_utc, hi_utc). The duration is wall-clock: a 10:00-11:00 meeting stays 10:00-11:00."""
    out = []
    # wall time is within 15 hours of UTC anywhere, so most occurrences are placed without a
    # zone lookup: only those near the window are converted
    early, late = lo_utc - SLACK, hi_utc + SLACK
    walk = _walk(rule, start, tz)
    try:
        i = walk.first_ending_at_or_after(early, duration)
        while (local := walk.at(i)) is not None:
            i += 1
            if local > late:
                break
            s = to_utc(local, tz)
            if s >= hi_utc:
                break
            if to_utc(local + duration, tz) > lo_utc:
                out.append(local)
    except Exception:
        # a rule whose dates run off the calendar: forget the walk, so the next question
        # fails the same way instead of seeing a series that simply ended
        _WALKS.pop((rule, start, tz), None)
        raise
    return out


def last(rule: Rule, start: datetime, tz: str) -> datetime | None:
    """The series' final occurrence start (every series ends by the cap)."""
    final = None
    for final in expand(rule, start, tz):  # noqa: B007 - the loop variable is the answer
        pass
    return final


def count_before(rule: Rule, start: datetime, tz: str, local: datetime) -> int:
    n = 0
    for occ in expand(rule, start, tz):
        if occ >= local:
            break
        n += 1
    return n


# -- checking and changing a rule against its start ----------------------------------------------


def check_start(rule: Rule, start: datetime, tz: str) -> None:
    """The start must be the first occurrence (RFC 5545 asks for DTSTART to fit the rule)."""
    first = next(expand(rule, start, tz), None)
    if first != start:
        wanted = describe(rule)
        raise RuleError(
            f"the start {start.strftime('%Y-%m-%d')} ({DAY_NAMES[start.weekday()]}) is not an occurrence "
            f"of the rule {rule.text} ({wanted}); start the series on one of its days"
            + (f" (its first would be {first.strftime('%Y-%m-%d')})" if first else "")
        )


def rebase(rule: Rule, old: datetime, new: datetime, tz: str) -> Rule:
    """The rule for a series whose start moves from ``old`` to ``new``: a single BYDAY weekday or
    BYMONTHDAY follows the new date; anything else must already fit it."""
    if new.date() == old.date():
        return rule
    moved = rule
    if len(rule.byday) == 1:
        n, _ = rule.byday[0]
        if n is None:
            moved = replace(moved, byday=((None, new.weekday()),))
        else:
            nth = (
                (new.day - 1) // 7 + 1
                if n > 0
                else -(((_months.monthrange(new.year, new.month)[1] - new.day) // 7) + 1)
            )
            moved = replace(moved, byday=((nth, new.weekday()),))
    if len(rule.bymonthday) == 1 and not rule.byday:
        moved = replace(
            moved,
            bymonthday=(
                new.day
                if rule.bymonthday[0] > 0
                else new.day - _months.monthrange(new.year, new.month)[1] - 1,
            ),
        )
    check_start(moved, new, tz)
    return moved


def ending_before(rule: Rule, start: datetime, tz: str, local: datetime) -> Rule:
    """The rule cut so that its last occurrence is the one before ``local`` (this-and-following)."""
    if rule.count is not None:
        return replace(rule, count=count_before(rule, start, tz, local))
    return replace(rule, until=(local.date() - timedelta(days=1)).strftime("%Y%m%d"))


def remaining(rule: Rule, start: datetime, tz: str, local: datetime) -> Rule:
    """The rule of a new series continuing this one from occurrence ``local`` on."""
    if rule.count is not None:
        return replace(rule, count=rule.count - count_before(rule, start, tz, local))
    return rule


def describe(rule: Rule) -> str:
    """In words: "every 2 weeks on Tuesday and Thursday, 10 times"."""
    unit = {"DAILY": "day", "WEEKLY": "week", "MONTHLY": "month", "YEARLY": "year"}[rule.freq]
    text = f"every {unit}" if rule.interval == 1 else f"every {rule.interval} {unit}s"
    days = []
    for n, w in rule.byday:
        days.append(f"the {ORDINALS.get(n, f'{n}th')} {DAY_NAMES[w]}" if n else DAY_NAMES[w])
    if rule.bymonthday:
        days.append("day " + ", ".join(str(d) if d > 0 else f"{d} (from the end)" for d in rule.bymonthday))
    if days:
        text += " on " + (", ".join(days[:-1]) + " and " + days[-1] if len(days) > 1 else days[0])
    if rule.count:
        text += f", {rule.count} times"
    if rule.until_day():
        text += f", until {rule.until_day().isoformat()}"
    elif rule.until_utc():
        text += f", until {rule.until_utc().strftime('%Y-%m-%dT%H:%M')}Z"
    return text
