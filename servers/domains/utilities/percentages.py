"""Percentages: a percent of a value, the change between two values, a price after a discount."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from typing import Annotated

from pydantic import Field

from servers.domains.utilities.model import Number, clean, utilities
from servers.kit import Db, Money, ToolError

VALUES = [80, 120, 64.5, 250, 1200, 45, 19.99, 3500, 86, 150, 2400, 37.8, 999, 60, 48, 5000]
OLD = [80, 120, 250, 1500, 42, 64.5, 300, 18, 95, 2000, 1.25, 12, 640, 75]
NEW = [100, 96, 310, 1350, 57, 71, 240, 27, 88, 2600, 1.4, 9, 720, 60]
PRICES = [49.99, 120, 19.99, 85, 250, 12.5, 64, 899, 34.95, 150, 9.99, 1299, 72.4, 18]
PERCENTS = [5, 10, 12.5, 15, 18, 20, 25, 30, 33, 40, 50, 60, 75, 8.25, 2.5]
Percent = Annotated[
    float, Field(ge=-1_000_000, le=1_000_000, description="A percentage, e.g. 15 for 15%.", examples=PERCENTS)
]
DiscountPercent = Annotated[
    float,
    Field(
        ge=0, le=100, description="The discount in percent, 0-100, e.g. 20 for 20% off.", examples=PERCENTS
    ),
]


@utilities.tool(
    says=[
        "what is {percent}% of {value}?",
        "work out {percent} percent of {value}",
        "how much is {percent}% of {value}?",
    ]
)
def percent_of(db: Db, percent: Percent, value: Annotated[Number, Field(examples=VALUES)]) -> dict:
    """A percentage of a value: percent_of(15, 80) is 12.

    Args:
        percent: The percentage, e.g. 15 for 15%.
        value: The value to take it of.
    """
    return {"value": clean(value * percent / 100), "percent": percent, "of": value}


@utilities.tool(
    says=[
        "what's the percent change from {old_value} to {new_value}?",
        "it went from {old_value} to {new_value}; by what percentage is that?",
        "by how many percent did {old_value} change when it became {new_value}?",
    ]
)
def percent_change(
    db: Db,
    old_value: Annotated[Number, Field(examples=OLD)],
    new_value: Annotated[Number, Field(examples=NEW)],
) -> dict:
    """The percent change from an old value to a new one (negative for a decrease), measured
    against the old value's size: 80 to 100 is +25%, 100 to 80 is -20%.

    Args:
        old_value: The value before.
        new_value: The value after.
    """
    if old_value == 0:
        raise ToolError(
            f"the percent change from 0 to {new_value:g} is undefined (division by zero); "
            "old_value must be nonzero"
        )
    change = (new_value - old_value) / abs(old_value) * 100
    return {
        "value": clean(change),
        "unit": "%",
        "difference": clean(new_value - old_value),
        "direction": "increase" if change > 0 else "decrease" if change < 0 else "no change",
    }


@utilities.tool(
    says=[
        "what does a {price} item cost after {percent}% off?",
        "apply a {percent}% discount to {price}",
        "how much would I pay for something priced {price} with {percent} percent off?",
    ]
)
def apply_discount(db: Db, price: Annotated[Money, Field(examples=PRICES)], percent: DiscountPercent) -> dict:
    """A price after a percent discount, and how much the discount saves, both in cents.

    Args:
        price: The price before the discount.
        percent: The discount in percent, 0-100.
    """
    cents = Decimal("0.01")
    saved = (Decimal(repr(price)) * Decimal(repr(percent)) / 100).quantize(cents, ROUND_HALF_UP)
    final = Decimal(repr(price)).quantize(cents, ROUND_HALF_UP) - saved  # half a cent rounds up
    return {"value": float(final), "saved": float(saved), "original": price, "percent": percent}
