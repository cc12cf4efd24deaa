"""Dates and times the way a person says them, relative to the task's reference day.

Nobody asks "what do I have on 2026-06-02": they say "tomorrow", "this Thursday", "Tuesday next
week" or "June 23". The system prompt tells the agent what today is, so turning the words back
into a date is part of the task, as it is for a real assistant (ToolSandbox's canonicalisation).
Every phrase here names exactly one day for a reader who knows today's date: "next Tuesday" is
avoided because people disagree on which Tuesday it means; weeks start on Monday.
"""

from __future__ import annotations

import random
import re
from datetime import date, datetime, timedelta

DAY_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
MOMENT_RE = re.compile(r"^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(:\d{2})?$")
# phrases that stand without "on": "on tomorrow" is wrong, "on Thursday, June 4" is right
_NO_ON = ("today", "tomorrow", "yesterday", "this ", "last ", "next ")


def day_words(day: date, today: date, rng: random.Random) -> str:
    """A phrase naming ``day`` unambiguously for someone who knows it is ``today``."""
    delta = (day - today).days
    weekday = day.strftime("%A")
    week = (day - timedelta(days=day.weekday()) - (today - timedelta(days=today.weekday()))).days // 7
    near = {0: "today", 1: "tomorrow", -1: "yesterday"}
    if delta in near:
        return near[delta]
    choices = []
    if week == 0 and delta > 0:
        choices.append(f"this {weekday}")
    if week == 1:
        choices.append(f"{weekday} next week")
    if -6 <= delta < 0:
        choices.append(f"last {weekday}")
    if week == -1 and delta < -6:
        choices.append(f"{weekday} last week")
    calendar = _calendar_words(day, today)
    choices.append(f"{weekday}, {calendar}" if abs(delta) <= 31 else calendar)
    return choices[0] if len(choices) > 1 and rng.random() < 0.7 else rng.choice(choices)


def _calendar_words(day: date, today: date) -> str:
    text = f"{day.strftime('%B')} {day.day}"
    return text if day.year == today.year else f"{text}, {day.year}"


def clock_words(hour: int, minute: int) -> str:
    """``14:30`` -> "2:30 pm", ``09:00`` -> "9 am", ``12:00`` -> "noon", ``00:00`` -> "midnight"."""
    if (hour, minute) == (12, 0):
        return "noon"
    if (hour, minute) in ((0, 0), (24, 0)):
        return "midnight"
    suffix = "am" if hour < 12 else "pm"
    h = hour % 12 or 12
    return f"{h} {suffix}" if minute == 0 else f"{h}:{minute:02d} {suffix}"


def say_date(value: str, today: date, rng: random.Random) -> str | None:
    """Words for a ``Day`` or ``Moment`` value, or None if the value is neither (left as written)."""
    if DAY_RE.match(value):
        try:
            return day_words(date.fromisoformat(value), today, rng)
        except ValueError:
            return None
    m = MOMENT_RE.match(value)
    if not m:
        return None
    try:
        when = datetime.fromisoformat(value)
    except ValueError:
        return None
    return f"{day_words(when.date(), today, rng)} at {clock_words(when.hour, when.minute)}"


# a date written inside a longer text ("until 2026-12-31"), not one inside a name ("2026-05-24-launch.md")
DATE_IN_TEXT = re.compile(r"(?<![\w/.-])(\d{4})-(\d{2})-(\d{2})(?:T\d{2}:\d{2}(?::\d{2})?)?(?![\w/.-])")


def is_date(value: str) -> bool:
    """Whether a string is shaped like a ``Day`` or a local ``Moment``."""
    return bool(DAY_RE.match(value) or MOMENT_RE.match(value))


def stands_alone(phrase: str) -> bool:
    """Whether the phrase takes no "on" before it ("tomorrow", "this Thursday at 2 pm")."""
    return phrase.startswith(_NO_ON)
