"""Arithmetic over lists of numbers, one arithmetic expression, and rounding."""

from __future__ import annotations

import math
from decimal import ROUND_CEILING, ROUND_FLOOR, ROUND_HALF_UP, Decimal
from typing import Annotated, Literal

from pydantic import Field

from servers.domains.utilities.expression import evaluate
from servers.domains.utilities.model import Numbers, clean, utilities
from servers.kit import Db, ToolError

Expression = Annotated[
    str,
    Field(
        min_length=1,
        max_length=200,
        description="One arithmetic expression: numbers, + - * / ** and parentheses, e.g. (1200 - 350) / 4.",
        examples=[
            "(1200 - 350) / 4",
            "19.99 * 3 + 4.50",
            "2 ** 10",
            "(72 - 32) * 5 / 9",
            "1500 * 1.05 ** 3",
            "365 * 24",
            "(84 + 91 + 77) / 3",
            "250 / 0.8",
            "12.5 * 8 - 20",
            "100 - 100 * 0.15",
            "3.5 * 2 + 1.25 * 4",
            "(45 + 55) * 1.2",
            "7 * 86400",
            "640 / 16 / 4",
            "(18.75 + 22.40 + 9.15) / 3",
            "1024 * 1024 * 5",
            "(3 + 4) ** 2",
            "980 - 3 * 112.5",
            "0.3 * 260 + 40",
            "2500 / 12",
        ],
    ),
]
Kind = Literal["sample", "population"]
Direction = Literal["nearest", "up", "down"]
Decimals = Annotated[
    int,
    Field(
        ge=-6,
        le=10,
        description="Decimal places to keep (0 = whole number, -2 = hundreds).",
        examples=[0, 1, 2, 2, 3],
    ),
]
RoundValue = Annotated[
    float,
    Field(
        ge=-1e12,
        le=1e12,
        description="The number to round.",
        examples=[
            3.14159,
            2.71828,
            1234.5678,
            19.995,
            0.6667,
            45.455,
            7.125,
            88.8888,
            1.41421,
            1099.5,
            -3.75,
            12.345,
            0.0481,
            256.789,
            63.5,
            9.99,
        ],
    ),
]
_ROUNDING = {"nearest": ROUND_HALF_UP, "up": ROUND_CEILING, "down": ROUND_FLOOR}


def _sum(numbers: list[float]) -> float:
    return math.fsum(numbers)


@utilities.tool(
    says=[
        "what do {numbers} add up to?",
        "add up {numbers}",
        "what's the total of {numbers}?",
    ]
)
def sum_numbers(db: Db, numbers: Numbers) -> dict:
    """Add up a list of numbers.

    Args:
        numbers: The numbers to add.
    """
    return {"value": clean(_sum(numbers)), "count": len(numbers)}


@utilities.tool(
    says=[
        "what's the average of {numbers}?",
        "compute the mean of {numbers}",
        "I have {numbers}; what do they average out to?",
    ]
)
def mean(db: Db, numbers: Numbers) -> dict:
    """The arithmetic mean (average) of a list of numbers.

    Args:
        numbers: The numbers to average.
    """
    return {"value": clean(_sum(numbers) / len(numbers)), "count": len(numbers)}


@utilities.tool(
    says=[
        "what's the median of {numbers}?",
        "find the middle value of {numbers}",
    ]
)
def median(db: Db, numbers: Numbers) -> dict:
    """The median of a list of numbers: the middle one once sorted, or the mean of the two middle
    ones when there is an even count.

    Args:
        numbers: The numbers.
    """
    ordered = sorted(numbers)
    n, half = len(ordered), len(ordered) // 2
    value = ordered[half] if n % 2 else (ordered[half - 1] + ordered[half]) / 2
    return {"value": clean(value), "count": n}


@utilities.tool(
    says=[
        "what's the standard deviation of {numbers}?",
        "how spread out are {numbers}? Give me the standard deviation",
        "compute the {kind} standard deviation of {numbers}",
    ]
)
def standard_deviation(db: Db, numbers: Numbers, kind: Kind = "sample") -> dict:
    """The standard deviation of a list of numbers, with the mean it is measured from.

    Args:
        numbers: The numbers.
        kind: sample (divides by n - 1; needs at least two numbers) or population (divides by n).
    """
    n = len(numbers)
    if kind == "sample" and n < 2:
        raise ToolError(
            f"the sample standard deviation needs at least 2 numbers, got {n} ({numbers[0]:g}); "
            "use kind='population' for a single number"
        )
    m = _sum(numbers) / n
    variance = math.fsum((x - m) ** 2 for x in numbers) / (n - 1 if kind == "sample" else n)
    return {"value": clean(math.sqrt(variance)), "mean": clean(m), "kind": kind, "count": n}


@utilities.tool(
    says=[
        "what are the highest and lowest of {numbers}?",
        "what's the range of {numbers}?",
        "find the smallest and largest of {numbers}",
    ]
)
def min_max(db: Db, numbers: Numbers) -> dict:
    """The smallest and largest of a list of numbers and the range between them.

    Args:
        numbers: The numbers.
    """
    low, high = min(numbers), max(numbers)
    return {"min": clean(low), "max": clean(high), "range": clean(high - low), "count": len(numbers)}


@utilities.tool(
    says=[
        "what is {expression}?",
        "calculate {expression} for me",
        "can you work out {expression}?",
    ]
)
def calculate(db: Db, expression: Expression) -> dict:
    """Evaluate one arithmetic expression of numbers with + - * / ** and parentheses (no names,
    functions or other syntax).

    Args:
        expression: The expression, e.g. (1200 - 350) / 4.
    """
    return {"expression": expression, "value": clean(evaluate(expression))}


@utilities.tool(
    says=[
        "round {value} to {decimals} decimal places",
        "round {value} to {decimals} decimals ({direction})",
        "round {value} to the nearest whole number",
    ]
)
def round_number(db: Db, value: RoundValue, decimals: Decimals = 0, direction: Direction = "nearest") -> dict:
    """Round a number to a number of decimal places: to the nearest (halves away from zero, so
    2.5 becomes 3), always up (toward +infinity) or always down (toward -infinity).

    Args:
        value: The number to round.
        decimals: Decimal places to keep; 0 gives a whole number, -1 tens, -2 hundreds.
        direction: nearest, up or down.
    """
    step = Decimal(1).scaleb(-decimals)
    rounded = Decimal(repr(value)).quantize(step, rounding=_ROUNDING[direction])
    out = float(rounded) if decimals > 0 else int(rounded)
    return {"value": clean(out), "decimals": decimals, "direction": direction}
