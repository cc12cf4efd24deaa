"""The utilities desk's one table, the units it converts between, and the value types its tools
share (lists of numbers, plain numbers, how results are written)."""

from __future__ import annotations

import math
import random
from typing import Annotated, Literal

from pydantic import Field
from sqlalchemy.orm import Mapped, mapped_column

from servers.kit import Domain
from servers.kit.types import RefInfo

utilities = Domain(
    "utilities",
    "Calculator utilities: sums, means, medians and standard deviations of lists, arithmetic "
    "expressions, percentages and discounts, rounding, unit conversion, and date arithmetic "
    "(days between dates, business days, shifting a date, weekdays).",
    now="2026-06-01T09:00:00",
)

Dimension = Literal["length", "mass", "temperature", "volume", "speed", "data_size"]
DIMENSIONS: tuple[str, ...] = Dimension.__args__
BASE_UNIT = {
    "length": "m",
    "mass": "kg",
    "temperature": "K",
    "volume": "l",
    "speed": "m/s",
    "data_size": "B",
}

# symbol, name, dimension, system, factor, offset: base = value * factor + offset
UNITS: tuple[tuple[str, str, str, str, float, float], ...] = (
    ("mm", "millimeter", "length", "metric", 0.001, 0.0),
    ("cm", "centimeter", "length", "metric", 0.01, 0.0),
    ("m", "meter", "length", "metric", 1.0, 0.0),
    ("km", "kilometer", "length", "metric", 1000.0, 0.0),
    ("in", "inch", "length", "imperial", 0.0254, 0.0),
    ("ft", "foot", "length", "imperial", 0.3048, 0.0),
    ("yd", "yard", "length", "imperial", 0.9144, 0.0),
    ("mi", "mile", "length", "imperial", 1609.344, 0.0),
    ("nmi", "nautical mile", "length", "nautical", 1852.0, 0.0),
    ("mg", "milligram", "mass", "metric", 0.000001, 0.0),
    ("g", "gram", "mass", "metric", 0.001, 0.0),
    ("kg", "kilogram", "mass", "metric", 1.0, 0.0),
    ("t", "metric ton", "mass", "metric", 1000.0, 0.0),
    ("oz", "ounce", "mass", "imperial", 0.028349523125, 0.0),
    ("lb", "pound", "mass", "imperial", 0.45359237, 0.0),
    ("st", "stone", "mass", "imperial", 6.35029318, 0.0),
    ("C", "degree Celsius", "temperature", "metric", 1.0, 273.15),
    ("F", "degree Fahrenheit", "temperature", "imperial", 5 / 9, 459.67 * 5 / 9),
    ("K", "kelvin", "temperature", "SI", 1.0, 0.0),
    ("ml", "milliliter", "volume", "metric", 0.001, 0.0),
    ("l", "liter", "volume", "metric", 1.0, 0.0),
    ("m3", "cubic meter", "volume", "metric", 1000.0, 0.0),
    ("tsp", "US teaspoon", "volume", "US customary", 0.00492892159375, 0.0),
    ("tbsp", "US tablespoon", "volume", "US customary", 0.01478676478125, 0.0),
    ("floz", "US fluid ounce", "volume", "US customary", 0.0295735295625, 0.0),
    ("cup", "US cup", "volume", "US customary", 0.2365882365, 0.0),
    ("pt", "US pint", "volume", "US customary", 0.473176473, 0.0),
    ("qt", "US quart", "volume", "US customary", 0.946352946, 0.0),
    ("gal", "US gallon", "volume", "US customary", 3.785411784, 0.0),
    ("m/s", "meter per second", "speed", "SI", 1.0, 0.0),
    ("km/h", "kilometer per hour", "speed", "metric", 1 / 3.6, 0.0),
    ("mph", "mile per hour", "speed", "imperial", 0.44704, 0.0),
    ("kn", "knot", "speed", "nautical", 1852 / 3600, 0.0),
    ("ft/s", "foot per second", "speed", "imperial", 0.3048, 0.0),
    ("bit", "bit", "data_size", "SI", 0.125, 0.0),
    ("B", "byte", "data_size", "SI", 1.0, 0.0),
    ("KB", "kilobyte", "data_size", "decimal", 1e3, 0.0),
    ("MB", "megabyte", "data_size", "decimal", 1e6, 0.0),
    ("GB", "gigabyte", "data_size", "decimal", 1e9, 0.0),
    ("TB", "terabyte", "data_size", "decimal", 1e12, 0.0),
    ("KiB", "kibibyte", "data_size", "binary", 1024.0, 0.0),
    ("MiB", "mebibyte", "data_size", "binary", 1024.0**2, 0.0),
    ("GiB", "gibibyte", "data_size", "binary", 1024.0**3, 0.0),
    ("TiB", "tebibyte", "data_size", "binary", 1024.0**4, 0.0),
)
SYMBOLS: tuple[str, ...] = tuple(u[0] for u in UNITS)


class Unit(utilities.Table, example="km", noun="unit"):
    """A unit the converter knows: its dimension and how to reach the dimension's base unit
    (base = value x factor + offset; the offset is nonzero only for Celsius and Fahrenheit)."""

    __tablename__ = "units"
    id: Mapped[str] = mapped_column(primary_key=True)  # the symbol users write: km, lb, GiB
    name: Mapped[str]
    dimension: Mapped[str] = mapped_column(index=True)
    system: Mapped[str]
    factor: Mapped[float]
    offset: Mapped[float]
    base_unit: Mapped[str]


# A unit parameter: the schema lists the symbols (an enum), the generator picks a real row of
# ``units`` (a Ref), so a target unit can be tied to the source unit's dimension.
def unit_param(description: str, where: str | None = None) -> object:
    return Annotated[Literal[SYMBOLS], RefInfo(Unit, where), Field(description=description)]  # type: ignore[valid-type]


LIMIT = 1e12  # the largest magnitude a number argument may have
Number = Annotated[float, Field(ge=-LIMIT, le=LIMIT)]


def _pools(seed: int) -> list[list[float]]:
    """Lists a person might ask about: scores, prices, times, temperatures, step counts."""
    rng = random.Random(seed)
    shapes = (
        lambda: rng.randint(55, 100),
        lambda: round(rng.uniform(2, 90), 2),
        lambda: round(rng.uniform(10, 45), 1),
        lambda: rng.randint(3000, 15000),
        lambda: rng.randint(1, 30),
        lambda: round(rng.uniform(-5, 35), 1),
    )
    out = []
    for i in range(60):
        draw = shapes[i % len(shapes)]
        drawn = (draw() for _ in range(rng.randint(3, 7)))
        out.append([int(x) if float(x).is_integer() else x for x in drawn])  # "21", not "21.0"
    return out


NUMBER_LISTS = _pools(2026)
Numbers = Annotated[
    list[Number],
    Field(
        min_length=1,
        max_length=100,
        description="The numbers, 1-100 of them, e.g. [12, 18.5, 22].",
        examples=NUMBER_LISTS,
    ),
]


def clean(x: float | int) -> float | int:
    """A result as it is shown: 12 significant digits (0.1 + 0.2 is 0.3), no negative zero."""
    if isinstance(x, int):
        return x
    if not math.isfinite(x):
        raise ValueError(f"{x} is not a finite number")
    y = float(f"{x:.12g}")
    return 0.0 if y == 0 else y
