"""Candidate pools: the rows satisfying a sampler condition, computed once per snapshot.

Every pick of an unrelated row used to count the rows that satisfy a Ref's condition and then
read one at an offset: two scans per pick, and the generator makes thousands of picks on forks
of the same few snapshots. A fork's content is its snapshot plus exactly the rows its changelog
lists (:func:`state.origin`), so the answer computed once stays right on any fork that touched
none of the tables the condition names; when only the picked table itself was touched, the
pool is patched with those rows, read fresh; when the condition reads the session row ("files
under the working directory") and the session changed, the row is part of the pool's key.
Anything else falls back to SQL. Pools keep the
primary-key order of the SQL they replace, so every pick, and every task, is unchanged.
"""

from __future__ import annotations

import bisect
import json
import re
import sqlite3
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from typing import Any

from state import origin

CAPACITY = 512  # pools kept per sampler (least recently used dropped first)
SESSION = "sessions"  # the one-row table of who is acting: its content becomes part of the key
RELATED_SCAN = 1000  # related rows read to intersect with a pool; beyond that SQL does it
Pool = list[tuple[str, Any]]  # (primary key, value) in primary-key order


class Pools:
    """Pools of (primary key, value) per (snapshot, table, condition, column)."""

    def __init__(self, pk: dict[str, str]) -> None:
        self.pk = pk
        self._pools: OrderedDict[tuple, Pool | None] = OrderedDict()
        self._named: dict[tuple[str, str], frozenset[str]] = {}

    def candidates(self, conn: sqlite3.Connection, table: str, where: str, column: str | None) -> Pool | None:
        """The rows of ``table`` satisfying ``where`` on ``conn`` right now, or None (ask SQL)."""
        sha = origin(conn)
        if sha is None:
            return None
        touched = {r[0] for r in conn.execute("SELECT DISTINCT tbl FROM _tg_changes")}
        key: tuple = (sha, table, where, column)
        read = touched & self.named(table, where)
        if read == {SESSION} and table != SESSION:
            key += tuple(conn.execute(f"SELECT * FROM {SESSION}").fetchall())  # "files under my cwd"
        elif read:
            return None
        pool = self._pools.get(key)
        if key in self._pools:
            self._pools.move_to_end(key)
        elif table in touched:
            return None  # the fork's rows of this table are not the snapshot's: nothing to start from
        else:
            pool = self._store(key, self._read(conn, table, where, column))
        if pool is None or table not in touched:
            return pool
        return self._patched(conn, pool, table, where, column)

    def named(self, table: str, where: str) -> frozenset[str]:
        """Tables a condition reads from (any table whose name appears in it), never the picked
        table unless the condition reads it again in a subquery."""
        key = (table, where)
        if key not in self._named:
            self._named[key] = frozenset(
                t for t in self.pk if re.search(rf"(?<![\w.]){re.escape(t)}(?!\w)", where, re.IGNORECASE)
            )
        return self._named[key]

    def _store(self, key: tuple, pool: Pool | None) -> Pool | None:
        self._pools[key] = pool
        if len(self._pools) > CAPACITY:
            self._pools.popitem(last=False)
        return pool

    def _read(self, conn: sqlite3.Connection, table: str, where: str, column: str | None) -> Pool | None:
        pk = self.pk[table]
        col = column or pk
        rows = conn.execute(
            f'SELECT "{pk}", "{col}" FROM "{table}" WHERE ({where}) AND "{col}" IS NOT NULL ORDER BY "{pk}"'
        ).fetchall()
        if not all(isinstance(r[0], str) for r in rows):
            return None  # Python would not order these keys the way SQLite does
        return [(r[0], r[1]) for r in rows]

    def _patched(
        self, conn: sqlite3.Connection, pool: Pool, table: str, where: str, column: str | None
    ) -> Pool | None:
        """``pool`` with the fork's touched rows of ``table`` replaced by what they are now."""
        keys = [
            json.loads(r[0])[0] for r in conn.execute("SELECT pk FROM _tg_changes WHERE tbl = ?", (table,))
        ]
        if not all(isinstance(k, str) for k in keys):
            return None
        out = list(pool)
        for k in keys:
            i = bisect.bisect_left(out, (k,))
            if i < len(out) and out[i][0] == k:
                del out[i]
        pk = self.pk[table]
        col = column or pk
        marks = ", ".join("?" * len(keys))
        for row in conn.execute(
            f'SELECT "{pk}", "{col}" FROM "{table}" WHERE ({where}) AND "{col}" IS NOT NULL AND "{pk}" IN ({marks})',
            keys,
        ):
            bisect.insort(out, (row[0], row[1]))
        return out


def related(
    conn: sqlite3.Connection,
    pool: Pool,
    pk: str,
    table: str,
    cond: str,
    params: Sequence[Any],
    exclude: Sequence[Any],
    by_key: bool,
) -> list[Any] | None:
    """Values of the pool's rows that also satisfy ``cond`` (a relation to the story so far), in
    primary-key order, or None when the relation is too wide to read (SQL then intersects)."""
    rows = conn.execute(
        f'SELECT "{pk}" FROM "{table}" WHERE {cond} ORDER BY "{pk}" LIMIT {RELATED_SCAN}', list(params)
    ).fetchall()
    if len(rows) >= RELATED_SCAN:
        return None
    banned = set(exclude)
    out = []
    for (key,) in rows:
        i = bisect.bisect_left(pool, (key,)) if isinstance(key, str) else len(pool)
        if i < len(pool) and pool[i][0] == key:
            value = pool[i][1]
            if (key if by_key else value) not in banned:
                out.append(value)
    return out


def choose(pool: Pool, exclude: Sequence[Any], by_key: bool, k: int) -> Any:
    """The value of the ``k``-th row of ``pool`` not excluded (``exclude`` matches keys when
    ``by_key``, else values); what ``LIMIT 1 OFFSET k`` returned over the filtered rows."""
    if not exclude:
        return pool[k][1]
    if by_key:
        skip = sorted(_positions(pool, exclude))
        for p in skip:
            if p <= k:
                k += 1
            else:
                break
        return pool[k][1]
    banned = set(exclude)
    for _, value in pool:
        if value not in banned:
            if k == 0:
                return value
            k -= 1
    raise IndexError(k)


def remaining(pool: Pool, exclude: Sequence[Any], by_key: bool) -> int:
    """How many rows of ``pool`` are not excluded."""
    if not exclude:
        return len(pool)
    if by_key:
        return len(pool) - len(_positions(pool, exclude))
    banned = set(exclude)
    return sum(1 for _, v in pool if v not in banned)


def _positions(pool: Pool, keys: Iterable[Any]) -> set[int]:
    out = set()
    for key in set(keys):
        if not isinstance(key, str):
            continue
        i = bisect.bisect_left(pool, (key,))
        if i < len(pool) and pool[i][0] == key:
            out.add(i)
    return out
