"""Utilities: a stateless calculator desk for the steps between two calls of other services
(the shape of BFCL's MathAPI and the ``calculate`` tool of tau2-bench's airline and retail desks,
and ToolSandbox's timestamp helpers).

Acting model: nobody is acting. No tool needs an identity and no tool changes anything; every
answer is a pure function of its arguments, the ``units`` table and the reference moment.

Reference moment: Monday 2026-06-01 09:00. It is "today" wherever a date is left out (the days
since a date, the date three weeks from now, today's weekday); nothing else reads a clock.

What the tools compute, each refusing with an error that names the bad value and what is allowed:

* Lists of numbers (1-100 of them, each within +-1e12): sum, mean, median, standard deviation
  (sample by default, which needs two numbers; or population), minimum and maximum with the range.
* ``calculate``: one arithmetic expression of numbers, + - * / **, unary signs and parentheses,
  parsed with ``ast`` and evaluated node by node; names, calls, attributes, comparisons and every
  other construct are refused, as are division by zero, exponents beyond 100 and any value past
  1e15 on the way.
* Percentages: a percent of a value, the percent change between two values (from zero it is
  undefined), a price after a percent discount (0-100 %, money rounded to cents).
* Rounding to a number of decimals (negative: tens, hundreds) to the nearest (halves away from
  zero, as people round), up or down.
* Unit conversion within one dimension (length, mass, temperature, volume, speed, data size),
  reading each unit's factor and offset to the dimension's base unit from the ``units`` table;
  a pair of different dimensions is refused with the units the target could be, a temperature
  below absolute zero is refused. Currency is not a unit here: exchange rates are not stateless.
* Dates: signed days between two dates, business days (Monday-Friday, no holidays) in the
  half-open range [start, end), a date shifted by days, weeks or months (a month shift that
  lands past the month's end keeps to its last day, and says so), and the weekday of a date.
  Dates are real calendar days in years 1-9999.

Results are small objects (``{"value": 12.5, "count": 4}``, ``{"value": 3.107, "unit": "mi"}``);
floats are given to 12 significant digits, so 0.1 + 0.2 is 0.3.
"""

from servers.domains.utilities import dates, numbers, percentages, seed, units
from servers.domains.utilities.model import utilities

# the modules that declare the domain; its tools are shown to agents in this order
utilities.include(seed, numbers, percentages, units, dates)

__all__ = ["utilities"]

# the words people ask the desk with and its answers (read by the task generator)
from servers.domains.utilities import language as _language  # noqa: E402,F401
