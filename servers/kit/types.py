"""Parameter types a tool signature can use.

They are ordinary ``Annotated`` types, so pydantic validates them and the kit
reads their markers: ``Ref`` says "an id of a row of this table" (which is
where the dependency graph and the sampler come from), ``Sensitive`` marks a
value that must be traceable to the user (a PIN), and the constrained aliases
give every domain the same money, date and text rules.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date, datetime
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, Field

from servers.kit import geo
from servers.kit.db import noun
from servers.kit.table_marks import marks


@dataclass(frozen=True)
class RefInfo:
    """Marker: the parameter holds the primary key of a row of ``table``.

    ``where`` is an SQL condition over that table which a good value satisfies
    (for the sampler: "an open account with money in it"); the tool still
    checks it and raises a clear error when it does not hold. It may name an
    earlier id parameter of the same tool as ``:customer`` ("a product *this*
    customer received"): :meth:`condition` binds it to the value that call holds.
    """

    table: Any
    where: str | None = None
    path: bool = False  # the value is a path naming the row (filesystem), not its key
    many: bool = False  # a list of keys (``IdList``)

    @property
    def table_name(self) -> str:
        return self.table.__tablename__

    @property
    def binds(self) -> tuple[str, ...]:
        """The parameters ``where`` names (``:customer``), in order of first mention."""
        return bound_names(self.where)

    def condition(self, args: Mapping[str, Any]) -> str | None:
        """``where`` for one call: each ``:param`` replaced by the value ``args`` hold for it."""
        return bind(self.where, args)

    @property
    def natural(self) -> bool:
        """Keyed by what users say (a ticker, an airport code), not by a ``PREFIX-000001`` id."""
        return marks(self.table).prefix is None

    def render(self, conn: Any, key: str) -> str:
        """The argument value that names row ``key``: the key itself, or (paths) the table's
        ``render(db, key)``, which writes it the way a user in the current session would."""
        if not self.path:
            return key
        from servers.kit.db import Db

        return marks(self.table).render(Db(conn), key)


# a quoted SQL literal (kept as it is) or a named parameter such as :customer
_NAMED = re.compile(r"'(?:[^']|'')*'|(?<![\w:]):([A-Za-z_]\w*)")


def bound_names(sql: str | None) -> tuple[str, ...]:
    """The ``:name`` parameters an SQL condition mentions outside string literals."""
    if not sql or ":" not in sql:
        return ()
    return tuple(dict.fromkeys(m.group(1) for m in _NAMED.finditer(sql) if m.group(1)))


def sql_literal(value: Any) -> str:
    """``value`` written as an SQL literal (strings quoted, booleans as 1 and 0)."""
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return "'" + value.replace("'", "''") + "'"
    raise TypeError(f"cannot bind {value!r} into an SQL condition")


def bind(sql: str | None, args: Mapping[str, Any]) -> str | None:
    """``sql`` with every ``:name`` replaced by ``args[name]`` as a literal (KeyError if one is missing)."""
    if not sql or ":" not in sql:
        return sql
    return _NAMED.sub(lambda m: m.group(0) if m.group(1) is None else sql_literal(args[m.group(1)]), sql)


def example_key(table: Any) -> str:
    """What a key of ``table`` looks like, for descriptions: ``ACC-000001`` or its ``example=``."""
    table_marks = marks(table)
    if table_marks.example is not None:
        return table_marks.example
    return f"{table_marks.prefix or 'ID'}-000001"


class Ref:
    """``Ref[Account]`` or ``Ref[Account, "status = 'open'"]``: an entity id parameter.

    A table keyed by a natural key (no ``prefix=``, an ``example=`` such as ``"AAPL"``)
    works the same way: the parameter then takes the symbol, code or handle users say."""

    def __class_getitem__(cls, item: Any) -> Any:
        table, where = item if isinstance(item, tuple) else (item, None)
        what = "Symbol" if marks(table).prefix is None else "Id"
        desc = f"{what} of the {noun(table)}, e.g. {example_key(table)}."
        return Annotated[str, RefInfo(table, where), Field(min_length=1, max_length=64, description=desc)]


class PathRef:
    """``PathRef[Node, "kind = 'dir'"]``: a path that names a row of a tree table.

    Agents pass paths (absolute, ``~``-relative or relative to the session's working directory);
    the generator picks a real row that satisfies the condition and writes its path with the
    table's ``render(db, key)``, which is what makes relative paths come out of the sampler."""

    def __class_getitem__(cls, item: Any) -> Any:
        table, where = item if isinstance(item, tuple) else (item, None)
        if marks(table).render is None:
            raise TypeError(f"PathRef[{table.__name__}]: the table needs a render=(db, key) function")
        desc = "A path, absolute (/srv/data), from home (~/notes.txt) or relative to the working directory."
        return Annotated[
            str, RefInfo(table, where, path=True), Field(min_length=1, max_length=4096, description=desc)
        ]


class IdList:
    """``IdList[Tag]``: a JSON array of ids (or natural keys) of one table, 1-50 of them, no repeats."""

    def __class_getitem__(cls, item: Any) -> Any:
        table, where = item if isinstance(item, tuple) else (item, None)
        desc = f'A list of {noun(table)} ids, e.g. ["{example_key(table)}"].'
        element = Annotated[str, Field(min_length=1, max_length=64)]
        return Annotated[
            list[element],
            RefInfo(table, where, many=True),
            Field(min_length=1, max_length=50, description=desc),
            AfterValidator(_no_repeats),
        ]


def _no_repeats(values: list[Any]) -> list[Any]:
    seen: set[Any] = set()
    for v in values:
        if v in seen:
            raise ValueError(f"{v!r} is listed twice")
        seen.add(v)
    return values


@dataclass(frozen=True)
class Sensitive:
    """Marker: a secret the agent may only use if the user or a tool output gave it."""


# How far a value may sit from its nearest cent and still count as that cent: the rounding noise of
# float arithmetic on cents (12.34 - 0.01 is 12.329999999999998), a few units in the last place.
# Relative, so 1e-300 is not "close to 0.00" and 10.0000001 is not "close to 10.00".
CENT_NOISE = 1e-14


def whole_cents(value: float) -> float:
    """The money rule every money parameter shares: a whole number of cents, returned rounded to them.

    A value closer to another cent than float noise explains (0.001, 25.505, 1e-300) is refused, never
    rounded: rounding 1e-300 to 0.00 wrote zero-amount ledger rows that the caller never asked for.
    The range (positive, a maximum) is the Field's; this only refuses what is between two cents."""
    cents = round(value, 2)
    if not math.isfinite(value) or not math.isclose(value, cents, rel_tol=CENT_NOISE, abs_tol=0.0):
        raise ValueError(
            f"amount {value!r} has more than two decimal places: money is a whole number of cents, "
            "in dollars with at most two decimal places, e.g. 25.50"
        )
    return cents + 0.0  # -0.0 -> 0.0


Money = Annotated[
    float,
    Field(gt=0, le=1_000_000_000, description="Amount in dollars, e.g. 25.50."),
    AfterValidator(whole_cents),
]
Quantity = Annotated[int, Field(ge=1, le=1000, description="Number of units.")]
Limit = Annotated[int, Field(ge=1, le=100, description="Maximum number of results (1-100).")]


def _real(parse: Callable[[str], Any], what: str) -> AfterValidator:
    """The pattern says the shape; this says the day exists (no 2026-02-30, no 25:00)."""

    def check(value: str) -> str:
        try:
            parse(value)
        except ValueError:
            raise ValueError(f"{value} is not a real {what}") from None
        return value

    return AfterValidator(check)


Day = Annotated[
    str,
    Field(pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$", description="A calendar date, YYYY-MM-DD.", max_length=10),
    _real(date.fromisoformat, "calendar date"),
]
# Local wall-clock time of the acting user unless an offset is given.
Moment = Annotated[
    str,
    Field(
        pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}(:[0-9]{2})?(Z|[+-][0-9]{2}:[0-9]{2})?$",
        description="A date and time, YYYY-MM-DDTHH:MM (local time), e.g. 2026-06-02T14:30.",
        max_length=25,
    ),
    _real(datetime.fromisoformat, "date and time"),
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

_EMAIL = r"^[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9.-]{1,190}\.[A-Za-z]{2,24}$"
Email = Annotated[str, Field(pattern=_EMAIL, max_length=254, description="An email address.")]
EmailList = Annotated[
    list[Email],
    Field(min_length=1, max_length=50, description='Email addresses, e.g. ["dana@corvid.example"].'),
    AfterValidator(_no_repeats),
]
Tags = Annotated[
    list[Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]{0,29}$", max_length=30)]],
    Field(max_length=10, description="Tags: lowercase letters, digits and dashes, up to 10."),
    AfterValidator(_no_repeats),
]
Offset = Annotated[int, Field(ge=0, le=10_000_000, description="Rows to skip, for paging.")]
PageSize = Annotated[int, Field(ge=1, le=100, description="Maximum number of results (1-100, default 20).")]

# -- shared vocabulary ------------------------------------------------------------------------------
# Every domain draws on one world (servers.kit.world): the same cities, their time zones, one week.
# Typed here once, so a domain that takes a city or a zone offers exactly the world's.
CITY_NAMES: tuple[str, ...] = tuple(c.name for c in geo.CITIES)
City = Literal[CITY_NAMES]  # a city of the shared world, in geo.CITIES order
TIME_ZONES: tuple[str, ...] = tuple(sorted({c.timezone for c in geo.CITIES} | {"UTC"}))
TimeZone = Literal[TIME_ZONES]  # the IANA zones of the world's cities, and UTC
WEEKDAYS: tuple[str, ...] = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
Weekday = Literal[WEEKDAYS]  # Monday first, as date.weekday() counts
