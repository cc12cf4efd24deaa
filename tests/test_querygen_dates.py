"""Relative dates in user turns: every phrase names exactly the gold call's day.

The resolver below is written the way a reader (or an agent told today's date) would read the
phrases, independently of how querygen writes them; a phrase it cannot read back to the same day
is a task no agent can get right.
"""

from __future__ import annotations

import random
import re
from datetime import date, timedelta

import pytest

from querygen.text.dates import clock_words, day_words, say_date, stands_alone

WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september"]
MONTHS += ["october", "november", "december"]


def read_day(phrase: str, today: date) -> date:
    """What a person who knows today's date understands by ``phrase``."""
    text = phrase.lower().strip()
    fixed = {"today": 0, "tomorrow": 1, "yesterday": -1}
    if text in fixed:
        return today + timedelta(days=fixed[text])
    monday = today - timedelta(days=today.weekday())
    if m := re.fullmatch(r"this (\w+)", text):
        return monday + timedelta(days=WEEKDAYS.index(m[1]))
    if m := re.fullmatch(r"(\w+) next week", text):
        return monday + timedelta(days=7 + WEEKDAYS.index(m[1]))
    if m := re.fullmatch(r"(\w+) last week", text):
        return monday + timedelta(days=-7 + WEEKDAYS.index(m[1]))
    if m := re.fullmatch(r"last (\w+)", text):  # the most recent one before today
        back = (today.weekday() - WEEKDAYS.index(m[1])) % 7 or 7
        return today - timedelta(days=back)
    if m := re.fullmatch(r"(?:(\w+), )?(\w+) (\d+)(?:, (\d{4}))?", text):
        day = date(int(m[4] or today.year), MONTHS.index(m[2]) + 1, int(m[3]))
        assert m[1] is None or day.strftime("%A").lower() == m[1], f"{phrase}: wrong weekday"
        return day
    raise AssertionError(f"cannot read {phrase!r}")


@pytest.mark.parametrize(
    "today",
    [date(2026, 6, 1), date(2026, 5, 29), date(2026, 12, 30), date(2026, 3, 4)],
    ids=["monday-ref", "friday-month-end", "year-end", "wednesday"],
)
def test_every_phrase_reads_back_to_its_day(today):
    for offset in range(-45, 75):
        day = today + timedelta(days=offset)
        for seed in range(6):
            phrase = day_words(day, today, random.Random(seed))
            assert read_day(phrase, today) == day, (today, day, phrase)


def test_the_phrases_people_use_near_the_reference_day():
    today = date(2026, 6, 1)  # a Monday
    assert day_words(date(2026, 6, 2), today, random.Random(0)) == "tomorrow"
    assert day_words(date(2026, 5, 31), today, random.Random(0)) == "yesterday"
    said = {day_words(date(2026, 6, 4), today, random.Random(s)) for s in range(30)}
    assert said == {"this Thursday", "Thursday, June 4"}
    said = {day_words(date(2026, 6, 9), today, random.Random(s)) for s in range(30)}
    assert "Tuesday next week" in said and "next Tuesday" not in said  # "next Tuesday" is ambiguous
    assert day_words(date(2027, 1, 5), today, random.Random(0)) == "January 5, 2027"


def test_across_a_month_end_the_week_words_still_land():
    friday = date(2026, 5, 29)
    assert read_day("Tuesday next week", friday) == date(2026, 6, 2)
    said = {day_words(date(2026, 6, 2), friday, random.Random(s)) for s in range(30)}
    assert said <= {"Tuesday next week", "Tuesday, June 2"}


def test_moments_say_the_day_and_the_clock():
    today = date(2026, 6, 1)
    assert say_date("2026-06-02T14:30", today, random.Random(0)) == "tomorrow at 2:30 pm"
    assert clock_words(9, 0) == "9 am" and clock_words(12, 0) == "noon" and clock_words(0, 15) == "12:15 am"
    assert say_date("2026-02-30", today, random.Random(0)) is None  # not a real day: left as written
    assert say_date("2026-06-02T14:30:00Z", today, random.Random(0)) is None  # an instant with a zone
    assert say_date("SPR-000148", today, random.Random(0)) is None


def test_words_that_take_no_preposition():
    assert stands_alone("tomorrow at 9 am") and stands_alone("last Friday") and stands_alone("this Thursday")
    assert not stands_alone("Thursday, June 4") and not stands_alone("June 23")


def test_reads_ask_about_days_ahead_too_but_filters_look_back():
    from types import SimpleNamespace

    from querygen.plan.values import _looks_ahead

    read, write = SimpleNamespace(writes=()), SimpleNamespace(writes=("events",))
    rng = random.Random(0)
    assert all(_looks_ahead(write, "start", rng) for _ in range(20))
    assert not any(_looks_ahead(read, name, rng) for name in ("since_day", "placed_after", "before"))
    plain = [_looks_ahead(read, "day", rng) for _ in range(200)]
    assert 60 < sum(plain) < 140  # "what do I have on ..." is ahead about half the time


@pytest.mark.parametrize(
    ("opening", "closing"),
    [("start", "end"), ("start_day", "end_day"), ("date_from", "date_to"), ("since", "until")],
)
def test_a_range_is_asked_forwards_from_its_opening_day(opening: str, closing: str) -> None:
    """ "The working days from June 17 to April 17" is no question a person asks: a range's end is
    drawn after its start, as a day or a moment like the start."""
    from querygen.plan.values import _after, _range_start

    rng = random.Random(3)
    for start in ("2026-06-17", "2026-04-02T09:30"):
        assert _range_start(closing, {opening: start}) == start
        ends = [_after(start, rng, moment="T" in start) for _ in range(50)]
        assert all(e > start and ("T" in e) == ("T" in start) for e in ends)
    assert _range_start(closing, {}) is None and _range_start("trend", {"strend": "2026-06-01"}) is None
