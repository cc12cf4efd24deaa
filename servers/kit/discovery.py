"""Read-only discovery tools every domain gets: list, search, unique values.

Agents use them to look around and the query generator's sampler uses them
to find real entities. They are built from the domain's tables, so table and
field arguments are enums of what exists; secrets a table marks with
``hidden=`` (PINs, passwords) are never shown.
"""

# No ``from __future__ import annotations`` here: the tool signatures are built
# at run time and their annotations must be real objects.

from typing import Any, Literal

from servers.kit.db import Db
from servers.kit.errors import ToolError
from servers.kit.table_marks import marks
from servers.kit.types import Limit, Offset, ShortText

# the tools every domain gets; "every tool is covered" counts a domain's own tools, not these
DISCOVERY_TOOLS = ("list_records", "search_records", "get_unique_values")


def visible_columns(table: Any) -> list[str]:
    hidden = set(marks(table).hidden)
    return [c.name for c in table.__table__.columns if c.name not in hidden]


def text_columns(table: Any) -> list[str]:
    declared = marks(table).search
    if declared:
        return list(declared)
    hidden = set(marks(table).hidden)
    return [
        c.name
        for c in table.__table__.columns
        if c.name not in hidden and c.type.python_type is str and c.name != "id" and not c.foreign_keys
    ]


def _strip(table: Any, row: dict[str, Any]) -> dict[str, Any]:
    hidden = marks(table).hidden
    return {k: v for k, v in row.items() if k not in hidden}


def add_discovery_tools(domain: Any) -> None:
    """Register the three discovery tools on ``domain``, typed by its own tables and fields."""
    # an internal table (a search index the service keeps) is not a kind of record anyone asks for
    tables = {t.__tablename__: t for t in domain.tables if not marks(t).internal}
    if not tables:
        return
    fields = tuple(sorted({c for t in tables.values() for c in visible_columns(t)}))
    kinds = _Kinds(tables, Literal[tuple(sorted(tables))], Literal[fields])
    says = {
        _list_records(kinds): ("show me the {table}", "list {table} where {field} is {value}"),
        _search_records(kinds): ("find {table} matching {query}", "search {table} for {query}"),
        _get_unique_values(kinds): (
            "which {field} values appear in the {table}?",
            "how often does each {field} occur in the {table}?",
        ),
    }
    for fn, templates in says.items():
        domain.tool(says=templates, idempotent=True)(fn)


class _Kinds:
    """One domain's listable tables, and the enum types of its table and field arguments."""

    def __init__(self, tables: dict[str, Any], table_name: Any, field_name: Any) -> None:
        self.tables, self.TableName, self.FieldName = tables, table_name, field_name

    def resolve(self, table: str, field: str | None) -> Any:
        t = self.tables[table]
        if field is not None and field not in visible_columns(t):
            raise ToolError(
                f"table {table!r} has no field {field!r}; its fields are: {', '.join(visible_columns(t))}"
            )
        return t


def _list_records(kinds: _Kinds) -> Any:
    def list_records(db: Db, table, field=None, value=None, limit=20, offset=0) -> dict:
        """List rows of a table, optionally only those whose field equals a value.

        Args:
            table: Which kind of record to list.
            field: Field to filter on (with value).
            value: The value the field must equal.
            limit: Maximum number of rows to return.
            offset: Number of rows to skip, for paging.
        """
        t = kinds.resolve(table, field)
        if (field is None) != (value is None):
            raise ToolError("give both field and value to filter, or neither")
        where, params = ("", ())
        if field is not None:
            where, params = (f'WHERE "{field}" = ?', (value,))
        rows = db.all(f'SELECT * FROM "{table}" {where} ORDER BY id LIMIT ? OFFSET ?', *params, limit, offset)
        if len(rows) < limit and (rows or not offset):  # a short page is the last: it tells the total
            total = offset + len(rows)
        else:
            total = db.scalar(f'SELECT count(*) FROM "{table}" {where}', *params)
        return {"table": table, "total": total, "offset": offset, "rows": [_strip(t, r) for r in rows]}

    list_records.__annotations__ = {
        "db": Db,
        "table": kinds.TableName,
        "field": kinds.FieldName | None,
        "value": ShortText | None,
        "limit": Limit,
        "offset": Offset,
        "return": dict,
    }
    return list_records


def _search_records(kinds: _Kinds) -> Any:
    def search_records(db: Db, table, query, limit=10) -> dict:
        """Find rows of a table whose text fields contain the query (case-insensitive).

        Args:
            table: Which kind of record to search.
            query: Text to look for, e.g. part of a name or email.
            limit: Maximum number of rows to return.
        """
        t = kinds.resolve(table, None)
        cols = text_columns(t)
        if not cols:
            raise ToolError(f"table {table!r} has no text fields to search; use list_records")
        pattern = "%" + query.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        cond = " OR ".join(f"\"{c}\" LIKE ? ESCAPE '\\'" for c in cols)
        rows = db.all(
            f'SELECT * FROM "{table}" WHERE {cond} ORDER BY id LIMIT ?', *([pattern] * len(cols)), limit
        )
        return {"table": table, "query": query, "rows": [_strip(t, r) for r in rows]}

    search_records.__annotations__ = {
        "db": Db,
        "table": kinds.TableName,
        "query": ShortText,
        "limit": Limit,
        "return": dict,
    }
    return search_records


def _get_unique_values(kinds: _Kinds) -> Any:
    def get_unique_values(db: Db, table, field, limit=50) -> dict:
        """The distinct values of one field of a table, most common first, with counts.

        Args:
            table: Which kind of record.
            field: The field whose values to list.
            limit: Maximum number of values to return.
        """
        kinds.resolve(table, field)
        rows = db.all(
            f'SELECT "{field}" AS value, count(*) AS count FROM "{table}" GROUP BY "{field}" '
            f'ORDER BY count(*) DESC, "{field}" LIMIT ?',
            limit,
        )
        return {"table": table, "field": field, "values": rows}

    get_unique_values.__annotations__ = {
        "db": Db,
        "table": kinds.TableName,
        "field": kinds.FieldName,
        "limit": Limit,
        "return": dict,
    }
    return get_unique_values
