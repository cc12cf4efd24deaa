"""How values are said: money in its currency, days and moments in words, clock times,
durations, measures, counts, lists and the user's words said back in the second person.

These are the small pieces every answer and request is made of; :mod:`querygen.text.voice` puts
them into a domain's declared templates. Each takes a stored value and gives the words a person
writes, or raises :class:`Unsaid` when the value cannot be said that way.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from datetime import date
from typing import Any

from querygen.text.dates import clock_words

_ISO_DAY = re.compile(r"(?<![\d-])(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}):(\d{2}))?")


class Unsaid(Exception):
    """A slot of a template has no value here: the next template is tried."""


# how an amount in a currency is written; an unknown currency is written after the amount
SYMBOLS = {"usd": "$", "gbp": "£", "eur": "€", "cad": "CA$", "aud": "A$", "jpy": "¥", "chf": "CHF "}


def money(value: Any, currency: str = "usd") -> str:
    """``3753.77`` -> "$3,753.77"; whole amounts without cents ("$200"); ``currency="gbp"`` ->
    "£3,753.77", an unknown one after the amount ("3,753.77 SEK")."""
    v = float(value)
    sign = "-" if v < 0 else ""
    v = abs(v)
    digits = f"{v:,.0f}" if round(v, 2) == int(v) else f"{v:,.2f}"
    symbol = SYMBOLS.get(currency.lower())
    return f"{sign}{symbol}{digits}" if symbol is not None else f"{sign}{digits} {currency.upper()}"


def month_words(value: Any, today: date) -> str:
    """A stored month ("2026-05") as people say it: "May", or "May 2025" in another year."""
    m = re.fullmatch(r"(\d{4})-(\d{2})", str(value))
    if m is None:
        raise Unsaid(value)
    name = date(int(m.group(1)), int(m.group(2)), 1).strftime("%B")
    return name if int(m.group(1)) == today.year else f"{name} {m.group(1)}"


_CLOCK = r"(\d{1,2}):(\d{2})(?::\d{2})?"
_CLOCK_IN_TEXT = r"(?<![\d:T])([01]?\d|2[0-3]):([0-5]\d)(?![\d:])"


def clock(value: Any) -> str:
    """A stored time of day ("09:00", "21:30") in words: "9 am", "9:30 pm"; opening hours
    ("08:00-21:00") as "8 am to 9 pm"; the times inside a sentence ("open until 5 pm")."""
    text = str(value)
    if m := re.fullmatch(_CLOCK, text):
        return clock_words(int(m.group(1)), int(m.group(2)))
    if re.fullmatch(r"0?0:00\s*[-–]\s*24:00", text):
        return "open all day"
    if m := re.fullmatch(rf"{_CLOCK}\s*[-–]\s*{_CLOCK}", text):
        opens, closes = (
            clock_words(int(m.group(1)), int(m.group(2))),
            clock_words(int(m.group(3)), int(m.group(4))),
        )
        return f"{opens} to {closes}"
    # a sentence with times in it ("open until 17:00"): each time in words
    said, n = re.subn(_CLOCK_IN_TEXT, lambda m: clock_words(int(m[1]), int(m[2])), text)
    return said.replace("-", " to ") if n and re.fullmatch(r"[\w: ]+-[\w: ]+", said) else said


def minutes(value: Any) -> str:
    """A duration in minutes as people say it: "7 minutes", "1 hour 20 minutes", "about 41 hours"."""
    total = round(float(value))
    if total < 1:
        return "under a minute"
    if total < 60:
        return f"{total} minute{'s' if total != 1 else ''}"
    hours, rest = divmod(total, 60)
    if hours >= 10:
        return f"about {round(total / 60)} hours"
    said = f"{hours} hour{'s' if hours != 1 else ''}"
    return said if rest == 0 else f"{said} {rest} minute{'s' if rest != 1 else ''}"


def about(value: Any) -> str:
    """A measured quantity to the precision people say it: "2,135", "21.4", "2.13", "0.44"."""
    v = float(value)
    if abs(v) >= 100:
        return f"{round(v):,}"
    if abs(v) >= 10:
        return f"{v:.1f}".rstrip("0").rstrip(".")
    return number(round(v, 2))


def number(value: Any) -> str:
    """A stored number as people write it: ``12.0`` -> "12", ``4.5`` -> "4.5"."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and not value.is_integer():
        # two decimals, or two significant digits below 0.1 ("0.044 mi", not "0.04 mi")
        places = 2 if abs(value) >= 0.1 else min(10, 1 - math.floor(math.log10(abs(value))))
        return f"{value:,.{places}f}".rstrip("0").rstrip(".")
    if isinstance(value, int | float):
        return f"{int(value):,}" if abs(value) >= 10000 else str(int(value))  # "1,881,060"
    return str(value)


def exact(value: Any) -> str:
    """A number with every decimal it carries, for an answer whose precision was asked for
    ("rounded to 3 places": "3.142", where :func:`number` would say "3.14")."""
    if isinstance(value, float) and not value.is_integer():
        text = f"{value:.6f}".rstrip("0").rstrip(".")  # 16.766667, not 16.7666666667
        whole, _, frac = text.partition(".")
        return f"{int(whole):,}.{frac}" if abs(value) >= 10000 else text
    return number(value)


def day(value: Any, today: date) -> str:
    """A stored day or moment as its day: "Tuesday, June 2" (with the year when not this one);
    a local time a service writes around it ("Mon 2026-06-01 09:00 PDT") is read the same way."""
    m = _ISO_DAY.search(str(value))
    if m is None:
        raise Unsaid(value)
    d = date.fromisoformat(m.group(1))
    text = f"{d.strftime('%A')}, {d.strftime('%B')} {d.day}"
    return text if d.year == today.year else f"{text}, {d.year}"


def when(value: Any, today: date) -> str:
    """A stored moment in words: "Tuesday, June 2 at 3 pm"."""
    m = _ISO_DAY.search(str(value))
    if m is None:
        raise Unsaid(value)
    text = day(value, today)
    return text if m.group(2) is None else f"{text} at {clock_words(int(m.group(2)), int(m.group(3)))}"


def plural(noun: str) -> str:
    if noun.endswith("y") and not noun.endswith(("ay", "ey", "oy", "uy")):
        return noun[:-1] + "ies"
    return noun + ("es" if noun.endswith(("s", "x", "ch", "sh")) else "s")


def listing(items: Sequence[str], more: int = 0) -> str:
    """``a``, ``a and b``, ``a, b and c``, ``a, b, c and 4 more``; items with their own commas
    ("Lucky Cat, 12 Elm St"; not "Standup (Tuesday, June 2)") joined by semicolons: ``a; b; and c``."""
    items = [*items, f"{more} more"] if more else list(items)
    if len(items) < 2:
        return "".join(items)
    own_commas = any("," in re.sub(r"\([^)]*\)", "", i) for i in items)
    sep, last = ("; ", "; and ") if own_commas else (", ", " and ")
    return sep.join(items[:-1]) + last + items[-1]


_SECOND_PERSON = (
    (r"\bmy\b", "your"),
    (r"\bMy\b", "Your"),
    (r"\bmine\b", "yours"),
    (r"\bme\b", "you"),
    (r"\bI'm\b", "you're"),
    (r"\bI am\b", "you are"),
    (r"\bI was\b", "you were"),
    (r"\bI've\b", "you've"),
    (r"\bI'd\b", "you'd"),
    (r"\bI'll\b", "you'll"),
    (r"\bI\b", "you"),
    (r"\bthe same\b", "that"),
)


# "{@assignee} has ..." with the speaker as assignee: "you have", not "you has"
VERB = {"has": "have", "is": "are", "was": "were", "doesn't": "don't", "does": "do"}
AGREE = re.compile(r"\b([Yy]ou)\x00 (has|is|was|doesn't|does)\b")  # \x00 marks a said-back {@param}


def second_person(phrase: str) -> str:
    """The user's words for a thing as the assistant says them back: "my card" -> "your card";
    words inside quotes are someone's text and stay as written."""
    parts = re.split(r'("[^"]*")', phrase)
    for k in range(0, len(parts), 2):
        for pattern, repl in _SECOND_PERSON:
            parts[k] = re.sub(pattern, repl, parts[k])
    return "".join(parts)


def lower(value: Any) -> str:
    """A name stored capitalised, said inside a sentence: "the living room speaker" (an acronym
    like "TV stand" keeps its case)."""
    text = str(value)
    return text if text[1:2].isupper() else text[:1].lower() + text[1:]


def unsigned(value: Any) -> str:
    """A number without its sign: "39 days" between two dates, whichever came first."""
    return number(abs(value)) if isinstance(value, int | float) else str(value).lstrip("-")
