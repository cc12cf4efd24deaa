"""The handle a tool receives: a few plain operations over its session's SQLite.

Tools run in tens of microseconds, so this stays a thin layer over
``sqlite3`` rather than an ORM session. Every value goes in as a bound
parameter; table and column names come only from the domain's own classes.
New ids are derived from the data (the highest existing id plus one) and
"now" is the snapshot's reference date, so replaying the same calls on the
same snapshot always produces the same rows.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable
from datetime import date, datetime
from typing import Any

from servers.kit.acting import SESSION_TABLE, Acting, declared
from servers.kit.errors import ToolError
from servers.kit.table_marks import marks

ID_WIDTH = 6
TEXT_LIMIT = 8000  # long text outputs are cut here (see ``Db.clip``)


def _names(cursor: sqlite3.Cursor) -> list[str]:
    return [d[0] for d in cursor.description or ()]


def format_id(prefix: str, number: int) -> str:
    return f"{prefix}-{number:0{ID_WIDTH}d}"


def _table(t: Any) -> str:
    return t if isinstance(t, str) else t.__tablename__


def singular(word: str) -> str:
    """categories -> category, addresses -> address, accounts -> account."""
    if word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith(("sses", "xes", "ches", "shes")):
        return word[:-2]
    return word[:-1] if word.endswith("s") else word


def noun(t: Any) -> str:
    """How messages name one row of a table (the table's ``noun=`` overrides)."""
    return marks(t).noun or singular(_table(t)).replace("_", " ")


class Db:
    """Query helpers bound to one connection (a session fork or the shared reader)."""

    __slots__ = ("_acting", "_domain", "_now", "conn")

    def __init__(self, conn: sqlite3.Connection, now: str | None = None, domain: str | None = None) -> None:
        self.conn = conn
        self._now = now
        self._domain = domain  # whose acting declaration applies (read from ``_meta`` when not given)
        self._acting: Acting | None = None

    # -- reading -------------------------------------------------------------
    # Rows become dicts here rather than in a row factory, which re-read the cursor's column
    # names for every row: tools turn tens of thousands of rows into dicts per generated batch.
    def all(self, sql: str, *params: Any) -> list[dict[str, Any]]:
        cur = self.conn.execute(sql, params)
        names = _names(cur)
        return [dict(zip(names, row, strict=True)) for row in cur.fetchall()]

    def one(self, sql: str, *params: Any) -> dict[str, Any] | None:
        cur = self.conn.execute(sql, params)
        row = cur.fetchone()
        return None if row is None else dict(zip(_names(cur), row, strict=True))

    def scalar(self, sql: str, *params: Any) -> Any:
        row = self.conn.execute(sql, params).fetchone()
        return None if row is None else row[0]

    def find(self, table: Any, id: str) -> dict[str, Any] | None:
        return self.one(f'SELECT * FROM "{_table(table)}" WHERE id = ?', id)

    def get(self, table: Any, id: str) -> dict[str, Any]:
        """The row with this id, or a ToolError naming the missing entity."""
        row = self.find(table, id)
        if row is None:
            raise ToolError(f"{noun(table)} {id!r} does not exist")
        return row

    # -- writing -------------------------------------------------------------
    def next_id(self, table: Any) -> str:
        # Every id of a table carries its prefix and a fixed-width number, so the
        # primary-key index answers max(id) without a scan.
        prefix = marks(table).prefix
        if prefix is None:
            raise TypeError(f"{_table(table)} declares no prefix=, so the kit cannot make its ids")
        last = self.scalar(f'SELECT max(id) FROM "{_table(table)}"')
        number = int(last.rsplit("-", 1)[1]) + 1 if last else 1
        return format_id(prefix, number)

    def add(self, table: Any, **values: Any) -> str:
        """Insert a row and return its id (no read-back: for rows nobody shows)."""
        if "id" not in values:
            values = {"id": self.next_id(table), **values}
        cols = ", ".join(f'"{c}"' for c in values)
        marks = ", ".join("?" for _ in values)
        self.conn.execute(f'INSERT INTO "{_table(table)}" ({cols}) VALUES ({marks})', tuple(values.values()))
        return values["id"]

    def insert(self, table: Any, **values: Any) -> dict[str, Any]:
        """Insert a row and return it as stored (defaults included)."""
        return self.get(table, self.add(table, **values))

    def update(self, table: Any, id: str, **values: Any) -> dict[str, Any]:
        sets = ", ".join(f'"{c}" = ?' for c in values)
        cur = self.conn.execute(f'UPDATE "{_table(table)}" SET {sets} WHERE id = ?', (*values.values(), id))
        if cur.rowcount == 0:
            raise ToolError(f"{noun(table)} {id!r} does not exist")
        return self.get(table, id)

    def delete(self, table: Any, id: str) -> None:
        cur = self.conn.execute(f'DELETE FROM "{_table(table)}" WHERE id = ?', (id,))
        if cur.rowcount == 0:
            raise ToolError(f"{noun(table)} {id!r} does not exist")

    def execute(self, sql: str, *params: Any) -> int:
        return self.conn.execute(sql, params).rowcount

    # -- who is acting -------------------------------------------------------
    def actor(self) -> dict[str, Any]:
        """The acting user's row (the domain's ``acting`` table), or the one standard ToolError
        saying nobody is signed in and what to do about it."""
        acting = self._declared()
        if acting.table is None:
            raise TypeError(f"{acting.domain}'s actors are not rows of a table: ask db.actor_id()")
        return self.get(acting.table, self.actor_id())

    def actor_id(self) -> Any:
        """The acting user's key, or the standard ToolError (see :meth:`actor`)."""
        acting = self._declared()
        key = self.acting()[acting.column]
        if key is None:
            raise acting.nobody()
        return key

    def acting(self) -> dict[str, Any]:
        """The episode's whole acting row: who acts (``None`` when signed out) and what else the
        domain keeps per episode (a working directory, a token, when they signed in).

        Each env session is a private fork, so this one row is per episode for free."""
        row = self.one(f'SELECT * FROM "{SESSION_TABLE}" ORDER BY id LIMIT 1')
        if row is None:
            raise ToolError("this service has no acting row; the snapshot is broken")
        return row

    def set_acting(self, **values: Any) -> dict[str, Any]:
        """Change fields of the acting row (sign in or out, change directory) and return it."""
        return self.update(SESSION_TABLE, self.acting()["id"], **values)

    def _declared(self) -> Acting:
        # A tool's handle knows its domain; any other reads the snapshot's ``_meta`` once.
        if self._acting is None:
            domain = self._domain or self.scalar("SELECT value FROM _meta WHERE key = 'domain'")
            self._acting = declared(domain)
        return self._acting

    # -- output size --------------------------------------------------------
    def page(
        self,
        sql: str,
        *params: Any,
        limit: int = 20,
        offset: int = 0,
        key: str = "items",
        count: str | None = None,
    ) -> dict[str, Any]:
        """One page of a query's rows: ``{key: rows, "total", "offset", "limit", "truncated"}``.

        Every list tool pages the same way, so an agent learns once that ``truncated`` means
        "call again with a larger offset". ``count``: a cheaper query with the same parameters
        that counts the same rows (over an index, without the listed columns), for when the total
        must be counted (see :meth:`paged`)."""
        rows = self.all(f"{sql} LIMIT ? OFFSET ?", *params, limit + 1, offset)
        counted = count or f"SELECT count(*) FROM ({_unordered(sql)})"
        return self.paged(
            rows, limit=limit, offset=offset, key=key, count=lambda: self.scalar(counted, *params)
        )

    @staticmethod
    def paged(
        rows: list[dict[str, Any]], *, limit: int, offset: int, key: str, count: Callable[[], int]
    ) -> dict[str, Any]:
        """The page of ``rows``, read with one row more than ``limit`` so it shows whether more follow.

        A page that is not full is the last one, so it tells the total; only a page with more
        after it (or an empty one past the start) calls ``count``, which reruns the whole query."""
        total = offset + len(rows) if len(rows) <= limit and (rows or not offset) else count()
        rows = rows[:limit]
        return {
            key: rows,
            "total": total,
            "offset": offset,
            "limit": limit,
            "truncated": offset + len(rows) < total,
        }

    @staticmethod
    def clip(text: str, limit: int = TEXT_LIMIT, hint: str = "read it in parts") -> dict[str, Any]:
        """Long text cut at ``limit`` characters, saying so: ``{"text", "truncated", "hint"?}``."""
        if len(text) <= limit:
            return {"text": text, "truncated": False}
        return {"text": text[:limit], "truncated": True, "hint": f"{len(text)} characters; {hint}"}

    # -- time ----------------------------------------------------------------
    @property
    def now(self) -> datetime:
        """The snapshot's reference moment; tools never read the wall clock."""
        if self._now is None:
            self._now = self.scalar("SELECT value FROM _meta WHERE key = 'now'")
        return datetime.fromisoformat(self._now)

    @property
    def today(self) -> date:
        return self.now.date()

    def stamp(self) -> str:
        """The timestamp a new row gets: the reference moment (order comes from ids)."""
        return self.now.isoformat(timespec="seconds")


_TRAILING_ORDER = re.compile(r"\s+ORDER\s+BY\s+[^()]*$", re.IGNORECASE)


def _unordered(sql: str) -> str:
    """The query without its final ORDER BY: a count does not depend on order, and SQLite would
    otherwise sort every matching row just to count them (10 ms a page on a 5,000-message inbox).
    Only a trailing clause outside parentheses is dropped, so subqueries keep theirs, and only one
    without placeholders, so the count binds the same parameters as the page."""
    m = _TRAILING_ORDER.search(sql)
    return sql if m is None or "?" in m.group() else sql[: m.start()]
