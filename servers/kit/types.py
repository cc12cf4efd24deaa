"""Parameter types a tool signature can use.

They are ordinary ``Annotated`` types, so pydantic validates them and the kit
reads their markers: ``Ref`` says "an id of a row of this table" (which is
where the dependency graph and the sampler come from), ``Sensitive`` marks a
value that must be traceable to the user (a PIN), and the constrained aliases
give every domain the same money, date and text rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import AfterValidator, Field

from servers.kit.db import noun


@dataclass(frozen=True)
class RefInfo:
    """Marker: the parameter holds the primary key of a row of ``table``.

    ``where`` is an SQL condition over that table which a good value satisfies
    (for the sampler: "an open account with money in it"); the tool still
    checks it and raises a clear error when it does not hold.
    """

    table: Any
    where: str | None = None

    @property
    def table_name(self) -> str:
        return self.table.__tablename__


class Ref:
    """``Ref[Account]`` or ``Ref[Account, "status = 'open'"]``: an entity id parameter."""

    def __class_getitem__(cls, item: Any) -> Any:
        table, where = item if isinstance(item, tuple) else (item, None)
        prefix = getattr(table, "__prefix__", "ID")
        desc = f"Id of the {noun(table)}, e.g. {prefix}-000001."
        return Annotated[str, RefInfo(table, where), Field(min_length=1, max_length=64, description=desc)]


@dataclass(frozen=True)
class Sensitive:
    """Marker: a secret the agent may only use if the user or a tool output gave it."""


def _cents(value: float) -> float:
    if abs(round(value, 2) - value) > 1e-9:
        raise ValueError(f"amount {value} has more than two decimal places")
    return round(value, 2)


Money = Annotated[
    float,
    Field(gt=0, le=1_000_000_000, description="Amount in dollars, e.g. 25.50."),
    AfterValidator(_cents),
]
Quantity = Annotated[int, Field(ge=1, le=1000, description="Number of units.")]
Limit = Annotated[int, Field(ge=1, le=100, description="Maximum number of results (1-100).")]
Day = Annotated[
    str,
    Field(pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$", description="A calendar date, YYYY-MM-DD.", max_length=10),
]
# [0-9], not \d: pydantic's regex engine counts other scripts' digits as \d.
Month = Annotated[
    str, Field(pattern=r"^[0-9]{4}-(0[1-9]|1[0-2])$", description="A month, YYYY-MM.", max_length=7)
]
ShortText = Annotated[str, Field(min_length=1, max_length=200)]
LongText = Annotated[str, Field(min_length=1, max_length=4000)]
Pin = Annotated[
    str,
    Sensitive(),
    Field(
        pattern=r"^[0-9]{4}$", description="The 4-digit PIN the customer gave.", min_length=4, max_length=4
    ),
]
