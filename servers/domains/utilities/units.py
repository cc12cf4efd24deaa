"""Unit conversion within one dimension, reading each unit's factor from the ``units`` table."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from servers.domains.utilities.model import Dimension, Number, Unit, clean, unit_param, utilities
from servers.kit import Db, Offset, PageSize, ToolError

QUANTITIES = [1, 2, 5, 10, 12, 20, 25, 26.2, 37, 50, 72, 98.6, 100, 150, 180, 250, 500, 1000, 1.5,
              3.75, 0.5, 42, 68, 5280, 350, 64, 16, 8, 750, 3]  # fmt: skip
Quantity = Annotated[Number, Field(description="The quantity to convert.", examples=QUANTITIES)]
FromUnit = unit_param("The unit the value is in, e.g. km.")
# the generator picks a target of the same dimension; the tool refuses any other
ToUnit = unit_param(
    "The unit to convert to, of the same dimension, e.g. mi.",
    "dimension = (SELECT s.dimension FROM units s WHERE s.id = :from_unit) AND id != :from_unit",
)
ABSOLUTE_ZERO = 0.0  # kelvin: the base unit of temperature


def _unit(db: Db, symbol: str) -> dict:
    row = db.find(Unit, symbol)
    if row is None:  # the schema's enum and the table agree; this guards a broken snapshot
        known = ", ".join(r["id"] for r in db.all("SELECT id FROM units ORDER BY dimension, factor"))
        raise ToolError(f"unknown unit {symbol!r}; known units: {known}")
    return row


def _same_dimension(db: Db, dimension: str, besides: str) -> str:
    sql = "SELECT id FROM units WHERE dimension = ? AND id != ? ORDER BY factor, id"
    rows = db.all(sql, dimension, besides)
    return ", ".join(r["id"] for r in rows)


@utilities.tool(
    says=[
        "convert {value} {from_unit} to {to_unit}",
        "{value} {from_unit} is how much in {to_unit}?",
        "what is {value} {from_unit} in {to_unit}?",
    ]
)
def convert_units(db: Db, value: Quantity, from_unit: FromUnit, to_unit: ToUnit) -> dict:
    """Convert a value between two units of the same dimension (length, mass, temperature,
    volume, speed or data size). Currency is not supported.

    Args:
        value: The quantity to convert.
        from_unit: The unit the value is in
        to_unit: The unit to convert to, of the same dimension
    """
    source, target = _unit(db, from_unit), _unit(db, to_unit)
    if source["dimension"] != target["dimension"]:
        raise ToolError(
            f"cannot convert {from_unit} ({source['dimension'].replace('_', ' ')}) to {to_unit} "
            f"({target['dimension'].replace('_', ' ')}); {from_unit} converts to "
            f"{_same_dimension(db, source['dimension'], from_unit)}"
        )
    base = value * source["factor"] + source["offset"]
    if source["dimension"] == "temperature" and base < ABSOLUTE_ZERO - 1e-9:
        zero = (ABSOLUTE_ZERO - source["offset"]) / source["factor"]
        raise ToolError(f"{value:g} {from_unit} is below absolute zero ({clean(zero):g} {from_unit})")
    converted = (base - target["offset"]) / target["factor"]
    return {
        "value": clean(converted),
        "unit": to_unit,
        "from": {"value": value, "unit": from_unit},
        "dimension": source["dimension"],
    }


# Not ``returns=Unit``: a listing would then feed the converter, and the generator would ask for
# "the unit whose name is US pint" instead of "pt". Users name units by their symbols.
@utilities.tool(
    says=[
        "which {dimension} units can you convert between?",
        "list the units you know",
        "what units of {dimension} do you support?",
    ],
)
def list_units(db: Db, dimension: Dimension | None = None, limit: PageSize = 50, offset: Offset = 0) -> dict:
    """The units the converter knows, with their dimension, system and factor to the dimension's
    base unit (base = value x factor + offset), optionally of one dimension.

    Args:
        dimension: Only units of this dimension.
        limit: Maximum number of units (1-100, default 50).
        offset: Units to skip, for paging.
    """
    where, params = ("WHERE dimension = ?", (dimension,)) if dimension else ("", ())
    sql = f"SELECT * FROM units {where} ORDER BY dimension, factor, id"
    return db.page(sql, *params, limit=limit, offset=offset, key="units")
