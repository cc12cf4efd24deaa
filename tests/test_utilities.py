"""Utilities: every tool's numbers against values computed independently (statistics, datetime,
decimal, plain formulas), the errors naming what was wrong and what is allowed, the safe
expression evaluator refusing everything but arithmetic, read-only-ness, and the wording the
generator turns into requests."""

from __future__ import annotations

import math
import statistics
import string
from datetime import date, timedelta

import pytest

from servers.domains.utilities.model import DIMENSIONS, NUMBER_LISTS, SYMBOLS, UNITS
from servers.registry import get_domain
from tests.domain_helpers import DomainCalls

DOMAIN = "utilities"
calls = DomainCalls(DOMAIN)
call, fails, rows = calls.call, calls.fails, calls.rows
DISCOVERY = {"list_records", "search_records", "get_unique_values"}
TODAY = date(2026, 6, 1)


@pytest.fixture
def util(make_env):
    env = make_env(DOMAIN)
    return env, env.open()


def run(util, tool: str, **args):
    env, ep = util
    return call(env, ep, tool, **args)


def refused(util, tool: str, match: str, **args) -> str:
    env, ep = util
    return fails(env, ep, tool, match, **args)


# -- catalogue and seed -------------------------------------------------------------------------------


def test_catalogue_is_read_only_with_natural_requests():
    domain = get_domain(DOMAIN)
    own = [t for n, t in domain.tools.items() if n not in DISCOVERY and not t.hidden]
    assert 12 <= len(own) <= 16
    assert all(t.read_only and not t.writes for t in domain.tools.values())
    assert all(len(t.says) >= 2 for t in own), [t.name for t in own if len(t.says) < 2]
    assert domain.policy is None and domain.variants == {}
    for t in own:
        required = {p.name for p in t.params if p.required}
        for template in t.says:
            slots = {f for _, f, _, _ in string.Formatter().parse(template) if f}
            assert required <= slots, (t.name, template)  # a request names every value it needs
            # said the way a person asks, not by the tool's name ("mean" is a word, "min_max" is not)
            assert not any(w in template for w in ("call ", "utilities_")), template
            assert "_" not in t.name or t.name not in template, template
    schema = domain.tools["mean"].input_schema()["properties"]["numbers"]
    assert (schema["minItems"], schema["maxItems"], schema["items"]["type"]) == (1, 100, "number")
    units = domain.tools["convert_units"].input_schema()["properties"]
    assert units["from_unit"]["enum"] == list(SYMBOLS) == units["to_unit"]["enum"]
    assert "USD" not in SYMBOLS and "EUR" not in SYMBOLS


def test_units_table_is_the_converters_catalogue(util):
    _, ep = util
    table = rows(ep, "SELECT * FROM units ORDER BY id")
    assert len(table) == len(UNITS) == len(set(SYMBOLS))
    assert {r["dimension"] for r in table} == set(DIMENSIONS)
    base = {r["dimension"]: r["base_unit"] for r in table}
    for dim, unit in base.items():  # each base unit is itself a unit of factor 1 and no offset
        row = next(r for r in table if r["id"] == unit)
        assert (row["dimension"], row["factor"], row["offset"]) == (dim, 1.0, 0.0)
    listed = run(util, "list_units", dimension="speed")
    assert listed["total"] == 5 and {u["id"] for u in listed["units"]} == {"m/s", "km/h", "mph", "kn", "ft/s"}
    assert run(util, "list_units")["total"] == len(UNITS)


def test_seed_is_the_same_at_every_scale(medium):
    got = medium.execute("SELECT id, dimension, factor, offset FROM units ORDER BY id").fetchall()
    assert got == sorted((u[0], u[2], u[4], u[5]) for u in UNITS)


# -- lists of numbers ---------------------------------------------------------------------------------

LISTS = [[12, 18.5, 22], [88, 92, 79, 95, 85], [-3.5, 0, 4.25, 10, 10], [7], *NUMBER_LISTS[:12]]


@pytest.mark.parametrize("numbers", LISTS)
def test_statistics_match_the_statistics_module(util, numbers):
    assert run(util, "sum_numbers", numbers=numbers) == {
        "value": pytest.approx(math.fsum(numbers)),
        "count": len(numbers),
    }
    assert run(util, "mean", numbers=numbers)["value"] == pytest.approx(statistics.fmean(numbers))
    assert run(util, "median", numbers=numbers)["value"] == pytest.approx(statistics.median(numbers))
    spread = run(util, "min_max", numbers=numbers)
    assert (spread["min"], spread["max"]) == (min(numbers), max(numbers))
    assert spread["range"] == pytest.approx(max(numbers) - min(numbers))
    pop = run(util, "standard_deviation", numbers=numbers, kind="population")
    assert pop["value"] == pytest.approx(statistics.pstdev(numbers), rel=1e-11, abs=1e-12)
    if len(numbers) > 1:
        sample = run(util, "standard_deviation", numbers=numbers)
        assert sample["kind"] == "sample"
        assert sample["value"] == pytest.approx(statistics.stdev(numbers))


def test_results_are_written_to_twelve_digits(util):
    assert run(util, "sum_numbers", numbers=[0.1, 0.2])["value"] == 0.3
    assert run(util, "mean", numbers=[1, 2, 2])["value"] == 1.66666666667


def test_list_errors_name_what_is_allowed(util):
    msg = refused(util, "mean", "numbers", numbers=[])
    assert "at least 1 item" in msg
    refused(util, "sum_numbers", "at most 100 items", numbers=list(range(101)))
    refused(util, "median", "less than or equal to 1000000000000", numbers=[1, 2e12])
    refused(util, "mean", "number", numbers=[1, "two"])
    msg = refused(util, "standard_deviation", "needs at least 2 numbers, got 1", numbers=[5])
    assert "kind='population'" in msg
    assert run(util, "standard_deviation", numbers=[5], kind="population")["value"] == 0


# -- calculate ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        ("(1200 - 350) / 4", 212.5),
        ("19.99 * 3 + 4.50", 19.99 * 3 + 4.50),
        ("2 ** 10", 1024),
        ("-(3 - 5) ** 2 + +1", -4 + 1),
        ("(72 - 32) * 5 / 9", 40 * 5 / 9),
        ("1500 * 1.05 ** 3", 1500 * 1.05**3),
        ("2 ** -2", 0.25),
        ("0.1 + 0.2", 0.3),
    ],
)
def test_calculate_evaluates_arithmetic(util, expression, expected):
    got = run(util, "calculate", expression=expression)
    assert got["expression"] == expression
    assert got["value"] == pytest.approx(expected)


@pytest.mark.parametrize(
    ("expression", "match"),
    [
        ("x + 1", r"uses names \('x'\)"),
        ("__import__('os').system('true')", "uses function calls"),
        ("abs(-3)", "uses function calls"),
        ("(1).real", "uses attributes"),
        ("'ab' * 3", "contains 'ab'"),
        ("True + 1", "contains True"),
        ("[1, 2][0]", "uses subscripts"),
        ("1 < 2", "uses comparisons"),
        ("1 if 1 else 2", "uses conditional expressions"),
        ("7 % 3", "uses the operator %"),
        ("7 // 3", "uses the operator //"),
        ("~5", "uses the operator ~"),
        ("lambda: 1", "uses lambdas"),
        ("1 +", "cannot parse"),
        ("1; 2", "cannot parse"),
        ("a = 1", "cannot parse"),
        ("1 / (2 - 2)", r"division by zero in '1 / \(2 - 2\)': 1 / 0"),
        ("0 ** -1", "division by zero"),
        ("9 ** 9 ** 9", "exponent 387420489 .* too large; at most 100"),
        ("10 ** 16", "beyond the limit"),
        ("1e400", "beyond the limit"),
        ("(-8) ** 0.5", r"\(-8\) \*\* 0.5 .* has no real value"),
    ],
)
def test_calculate_refuses_everything_but_arithmetic(util, expression, match):
    msg = refused(util, "calculate", match, expression=expression)
    assert len(msg) < 300
    if match.startswith(("uses", "contains")):
        assert "only numbers, + - * / ** and parentheses are allowed" in msg


# -- percentages and rounding ------------------------------------------------------------------------


@pytest.mark.parametrize(("percent", "value"), [(15, 80), (12.5, 64.5), (200, 3), (-10, 50)])
def test_percent_of(util, percent, value):
    got = run(util, "percent_of", percent=percent, value=value)
    assert got["value"] == pytest.approx(value * percent / 100)


@pytest.mark.parametrize(
    ("old", "new", "direction"),
    [(80, 100, "increase"), (100, 80, "decrease"), (-50, -25, "increase"), (7, 7, "no change")],
)
def test_percent_change(util, old, new, direction):
    got = run(util, "percent_change", old_value=old, new_value=new)
    assert got["value"] == pytest.approx((new - old) / abs(old) * 100)
    assert (got["unit"], got["direction"], got["difference"]) == ("%", direction, new - old)


def test_percent_change_from_zero_is_refused(util):
    msg = refused(util, "percent_change", "from 0 to 3 is undefined", old_value=0, new_value=3)
    assert "division by zero" in msg and "old_value must be nonzero" in msg


@pytest.mark.parametrize(
    ("price", "percent", "saved", "final"),
    [
        (49.99, 20, 10.00, 39.99),
        (19.99, 15, 3.00, 16.99),
        (85, 0, 0, 85),
        (12.5, 100, 12.5, 0),
        (0.05, 10, 0.01, 0.04),
    ],
)
def test_apply_discount_in_cents(util, price, percent, saved, final):
    got = run(util, "apply_discount", price=price, percent=percent)
    assert (got["saved"], got["value"]) == (saved, final)
    assert got["saved"] + got["value"] == pytest.approx(price)


def test_discount_bounds(util):
    refused(util, "apply_discount", "less than or equal to 100", price=10, percent=120)
    refused(util, "apply_discount", "more than two decimal places", price=10.001, percent=5)


@pytest.mark.parametrize(
    ("value", "decimals", "direction", "expected"),
    [
        (2.5, 0, "nearest", 3),
        (-2.5, 0, "nearest", -3),
        (19.995, 2, "nearest", 20.0),
        (3.14159, 2, "nearest", 3.14),
        (1.41421, 2, "up", 1.42),
        (-1.41421, 2, "up", -1.41),
        (1.41999, 2, "down", 1.41),
        (-1.411, 2, "down", -1.42),
        (1234.5678, -2, "nearest", 1200),
        (1250, -2, "nearest", 1300),
        (7.0001, 0, "up", 8),
    ],
)
def test_round_number(util, value, decimals, direction, expected):
    got = run(util, "round_number", value=value, decimals=decimals, direction=direction)
    assert got["value"] == expected
    if direction == "up":
        assert got["value"] == math.ceil(value * 10**decimals) / 10**decimals
    if direction == "down":
        assert got["value"] == math.floor(value * 10**decimals) / 10**decimals


def test_round_defaults_to_a_whole_number(util):
    assert run(util, "round_number", value=12.345) == {"value": 12, "decimals": 0, "direction": "nearest"}
    refused(util, "round_number", "direction", value=1.5, direction="sideways")


# -- units ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "source", "target", "expected"),
    [
        (10, "km", "mi", 10 / 1.609344),
        (1, "mi", "ft", 5280),
        (12, "in", "cm", 30.48),
        (1, "nmi", "m", 1852),
        (16, "kg", "lb", 16 / 0.45359237),
        (1, "lb", "oz", 16),
        (1, "st", "lb", 14),
        (100, "C", "F", 212),
        (98.6, "F", "C", 37),
        (-40, "C", "F", -40),
        (0, "K", "C", -273.15),
        (1, "gal", "qt", 4),
        (1, "cup", "tbsp", 16),
        (1, "tbsp", "tsp", 3),
        (2, "l", "ml", 2000),
        (100, "km/h", "m/s", 100 / 3.6),
        (60, "mph", "km/h", 96.56064),
        (1, "kn", "km/h", 1.852),
        (1, "GiB", "MiB", 1024),
        (1, "GB", "MB", 1000),
        (8, "bit", "B", 1),
        (1, "TB", "GiB", 1e12 / 1024**3),
    ],
)
def test_convert_units(util, value, source, target, expected):
    got = run(util, "convert_units", value=value, from_unit=source, to_unit=target)
    assert got["value"] == pytest.approx(expected, rel=1e-9, abs=1e-9)
    assert got["unit"] == target and got["from"] == {"value": value, "unit": source}
    back = run(util, "convert_units", value=got["value"], from_unit=target, to_unit=source)
    assert back["value"] == pytest.approx(value, rel=1e-9, abs=1e-9)


def test_conversion_errors_name_the_pair_and_what_would_work(util):
    msg = refused(
        util,
        "convert_units",
        r"cannot convert km \(length\) to kg \(mass\)",
        value=5,
        from_unit="km",
        to_unit="kg",
    )
    assert "km converts to mm, cm, in, ft, yd, m, mi, nmi" in msg
    msg = refused(
        util, "convert_units", "GB .data size. to F .temperature.", value=1, from_unit="GB", to_unit="F"
    )
    assert "MiB" in msg
    refused(
        util,
        "convert_units",
        r"-500 F is below absolute zero \(-459.67 F\)",
        value=-500,
        from_unit="F",
        to_unit="C",
    )
    msg = refused(util, "convert_units", "to_unit", value=5, from_unit="USD", to_unit="EUR")
    assert "'USD'" in msg and "from_unit" in msg
    refused(util, "list_units", "dimension", dimension="currency")


# -- dates ----------------------------------------------------------------------------------------


def _weekdays_loop(start: date, end: date) -> int:
    low, high = sorted((start, end))
    n = sum(1 for i in range((high - low).days) if (low + timedelta(days=i)).weekday() < 5)
    return n if end >= start else -n


@pytest.mark.parametrize(
    ("start", "end"),
    [
        ("2026-06-01", "2026-06-15"),
        ("2026-06-06", "2026-06-08"),
        ("2026-06-05", "2026-06-06"),
        ("2026-07-15", "2026-04-12"),
        ("2026-01-01", "2026-12-31"),
        ("2024-02-27", "2024-03-04"),
        ("2026-06-03", "2026-06-03"),
    ],
)
def test_days_and_business_days(util, start, end):
    a, b = date.fromisoformat(start), date.fromisoformat(end)
    got = run(util, "days_between", start=start, end=end)
    assert got["value"] == (b - a).days and got["unit"] == "days"
    busy = run(util, "business_days_between", start=start, end=end)
    assert busy["value"] == _weekdays_loop(a, b)
    assert busy["calendar_days"] == (b - a).days


def test_business_days_of_a_known_week(util):
    # Monday June 1 up to Monday June 8: five weekdays; Saturday to Monday: none
    assert run(util, "business_days_between", start="2026-06-01", end="2026-06-08")["value"] == 5
    assert run(util, "business_days_between", start="2026-06-06", end="2026-06-08")["value"] == 0


def test_today_is_the_reference_day(util):
    got = run(util, "days_between", start="2025-12-25")
    assert got["value"] == (TODAY - date(2025, 12, 25)).days and got["end"] == "2026-06-01"
    assert run(util, "weekday_of") == {
        "date": "2026-06-01",
        "weekday": "Monday",
        "is_weekend": False,
        "iso_week": TODAY.isocalendar()[1],
        "day_of_year": 152,
        "is_today": True,
    }
    shifted = run(util, "shift_date", amount=3, unit="weeks")
    assert shifted["value"] == (TODAY + timedelta(weeks=3)).isoformat() and shifted["from"] == "2026-06-01"


@pytest.mark.parametrize("day", ["2026-07-04", "2026-12-25", "2028-02-29", "2025-07-04", "2027-01-01"])
def test_weekday_of(util, day):
    d = date.fromisoformat(day)
    got = run(util, "weekday_of", date=day)
    assert got["weekday"] == d.strftime("%A") and got["is_weekend"] == (d.weekday() >= 5)
    assert got["day_of_year"] == d.timetuple().tm_yday and not got["is_today"]


@pytest.mark.parametrize(
    ("start", "amount", "unit", "direction", "expected", "clamped"),
    [
        ("2026-06-01", 10, "days", "after", "2026-06-11", False),
        ("2026-06-01", 10, "days", "before", "2026-05-22", False),
        ("2026-06-01", 2, "weeks", "after", "2026-06-15", False),
        ("2026-01-31", 1, "months", "after", "2026-02-28", True),
        ("2028-01-31", 1, "months", "after", "2028-02-29", True),
        ("2026-03-31", 1, "months", "before", "2026-02-28", True),
        ("2026-06-15", 30, "months", "after", "2028-12-15", False),
        ("2026-06-15", 6, "months", "before", "2025-12-15", False),
    ],
)
def test_shift_date(util, start, amount, unit, direction, expected, clamped):
    got = run(util, "shift_date", date=start, amount=amount, unit=unit, direction=direction)
    assert (got["value"], got["clamped"]) == (expected, clamped)
    assert got["weekday"] == date.fromisoformat(expected).strftime("%A")
    if unit != "months":
        sign = 1 if direction == "after" else -1
        step = timedelta(days=amount * (7 if unit == "weeks" else 1))
        assert got["value"] == (date.fromisoformat(start) + sign * step).isoformat()


def test_date_errors(util):
    refused(
        util, "days_between", "2026-02-30 is not a real calendar date", start="2026-02-30", end="2026-03-01"
    )
    refused(util, "weekday_of", "pattern", date="June 5")
    msg = refused(
        util, "shift_date", "falls outside the calendar", date="9999-12-01", amount=2, unit="months"
    )
    assert "2 months after 9999-12-01" in msg and "years 1-9999" in msg
    refused(
        util,
        "shift_date",
        "outside the calendar",
        date="0001-01-05",
        amount=10,
        unit="weeks",
        direction="before",
    )
    refused(util, "shift_date", "greater than or equal to 1", amount=0, unit="days")


# -- read-only --------------------------------------------------------------------------------------

EVERY_TOOL = [
    ("sum_numbers", {"numbers": [1, 2]}),
    ("mean", {"numbers": [1, 2]}),
    ("median", {"numbers": [1, 2]}),
    ("standard_deviation", {"numbers": [1, 2]}),
    ("min_max", {"numbers": [1, 2]}),
    ("calculate", {"expression": "1 + 2"}),
    ("round_number", {"value": 1.25, "decimals": 1}),
    ("percent_of", {"percent": 10, "value": 5}),
    ("percent_change", {"old_value": 1, "new_value": 2}),
    ("apply_discount", {"price": 10, "percent": 5}),
    ("convert_units", {"value": 1, "from_unit": "m", "to_unit": "ft"}),
    ("list_units", {"dimension": "mass"}),
    ("days_between", {"start": "2026-01-01"}),
    ("business_days_between", {"start": "2026-01-01", "end": "2026-02-01"}),
    ("shift_date", {"amount": 1, "unit": "months"}),
    ("weekday_of", {"date": "2026-12-25"}),
]


def test_every_tool_leaves_the_state_alone(util):
    env, ep = util
    assert {name for name, _ in EVERY_TOOL} == {
        n for n, t in get_domain(DOMAIN).tools.items() if n not in DISCOVERY and not t.hidden
    }
    before = ep.state_hash()
    for name, args in EVERY_TOOL:
        call(env, ep, name, **args)
    assert ep.state_hash() == before and ep.diff() == []
