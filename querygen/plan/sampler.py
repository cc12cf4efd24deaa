"""The live-state sampler: real rows of the episode's current fork, never fabricated values.

Every query runs on the connection of the session being generated in, so a row written by an
earlier gold call is visible to the next pick ("open an account, then deposit into it"). Picks
prefer rows related to entities the task already mentions, found by following foreign keys up to
two hops in either direction (a card of the customer's account, another account of the same
customer), so a task reads like one user's story rather than a bag of random ids.

Randomness comes only from the caller's ``random.Random``: a pick is ``count(*)`` then
``LIMIT 1 OFFSET k`` over rows in primary-key order, so it is the same on every machine.
"""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from servers.kit import Domain, marks

MAX_HOPS = 2
RELATED_CAP = 200  # related candidates fetched per filter
PROBES = 4  # random rowids tried before counting every row that qualifies


def tables_of(domain: Domain) -> list[Any]:
    """A domain's table classes by name: ``Domain.tables`` comes from a frozenset whose order
    changes from one process to the next, and every choice made from it must not."""
    return sorted(domain.tables, key=lambda t: t.__tablename__)


@dataclass(frozen=True)
class Hop:
    """One foreign-key step: ``up`` follows ``table.column`` to its parent, ``down`` the reverse."""

    table: str
    column: str
    other: str
    other_column: str
    direction: str  # "up" | "down"


def _backtracks(first: Hop, second: Hop) -> bool:
    return first.direction == "down" and second.direction == "up" and first.other_column == second.column


class Relations:
    """Foreign-key join paths between the tables of one domain (from SQLAlchemy metadata)."""

    def __init__(self, domain: Domain) -> None:
        self.pk: dict[str, str] = {}
        self.hops: dict[str, list[Hop]] = {}
        self.hidden: dict[str, tuple[str, ...]] = {}
        self.columns: dict[str, list[str]] = {}
        self.fk_columns: dict[str, set[str]] = {}
        for t in tables_of(domain):
            name = t.__tablename__
            self.pk[name] = next(iter(t.__table__.primary_key.columns)).name
            self.hidden[name] = tuple(marks(t).hidden)
            self.columns[name] = [c.name for c in t.__table__.columns]
            self.hops.setdefault(name, [])
        for t in tables_of(domain):
            name = t.__tablename__
            self.fk_columns[name] = set()
            for fk in sorted(t.__table__.foreign_keys, key=lambda f: f.parent.name):
                parent, pcol = fk.column.table.name, fk.column.name
                self.fk_columns[name].add(fk.parent.name)
                self.hops[name].append(Hop(name, fk.parent.name, parent, pcol, "up"))
                self.hops.setdefault(parent, []).append(Hop(parent, pcol, name, fk.parent.name, "down"))
        self._paths: dict[tuple[str, str], list[tuple[Hop, ...]]] = {}

    def paths(self, start: str, goal: str) -> list[tuple[Hop, ...]]:
        """Join paths from ``start`` rows to ``goal`` rows, shortest first (0 hops if the same table)."""
        key = (start, goal)
        if key not in self._paths:
            found: list[tuple[Hop, ...]] = [()] if start == goal else []
            frontier: list[tuple[str, tuple[Hop, ...]]] = [(start, ())]
            for _ in range(MAX_HOPS):
                nxt = []
                for table, path in frontier:
                    for hop in self.hops.get(table, []):
                        if path and _backtracks(path[-1], hop):
                            continue  # down a foreign key and straight back up it: the same row
                        p = (*path, hop)
                        nxt.append((hop.other, p))
                        if hop.other == goal:
                            found.append(p)
                frontier = nxt
            self._paths[key] = found
        return self._paths[key]

    def condition(self, table: str, path: Sequence[Hop], n_ids: int) -> str:
        """SQL over ``table`` rows: related along ``path`` to one of ``n_ids`` bound ids."""
        if not path:
            return f'"{self.pk[table]}" IN ({", ".join("?" * n_ids)})'
        hop, rest = path[0], path[1:]
        inner = self.condition(hop.other, rest, n_ids)
        # Both directions read the same way because a hop stores its own side's column first.
        return f'"{hop.column}" IN (SELECT "{hop.other_column}" FROM "{hop.other}" WHERE {inner})'


class LiveSampler:
    """Picks ids and column values from a live connection, related to the story so far."""

    def __init__(self, relations: Relations, related_bias: float = 0.85) -> None:
        self.rel = relations
        self.related_bias = related_bias
        self._steady: dict[tuple[int, str, tuple[Any, ...]], list[tuple[Any, ...]]] | None = None

    @contextmanager
    def steady(self) -> Iterator[None]:
        """Inside, no connection the picks read is written, so a query asked again (a draft
        retrying its picks, a path picked until the conversation has shown it) is answered from
        the first time. Same rows, same random draws: only repeated SQL is saved."""
        outer, self._steady = self._steady, {} if self._steady is None else self._steady
        try:
            yield
        finally:
            self._steady = outer

    def _rows(self, conn: sqlite3.Connection, sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
        if self._steady is None:
            return conn.execute(sql, params).fetchall()
        key = (id(conn), sql, tuple(params))
        rows = self._steady.get(key)
        if rows is None:
            rows = self._steady[key] = conn.execute(sql, params).fetchall()
        return rows

    def _choices(
        self, table: str, context: Mapping[str, Sequence[str]], rng: random.Random
    ) -> list[tuple[str, list[Any]]]:
        """Candidate (condition, params) filters: related ones first, the unfiltered one last."""
        ranked: list[tuple[tuple[int, int], str, list[Any]]] = []
        if context and rng.random() < self.related_bias:
            for goal, ids in context.items():
                ids = list(ids)[-5:]
                if not ids or goal not in self.rel.pk:
                    continue
                for path in self.rel.paths(table, goal):
                    if not path and rng.random() < 0.5:
                        continue  # sometimes prefer a related row over the very same one
                    # shorter paths first; among equals, a shared parent (same owner) before a shared child
                    rank = (len(path), 0 if not path or path[0].direction == "up" else 1)
                    ranked.append((rank, self.rel.condition(table, path, len(ids)), ids))
            ranked.sort(key=lambda c: c[0])
        out = [(cond, ids) for _, cond, ids in ranked]
        return [*out[:4], ("1", [])]

    def pick(
        self,
        conn: sqlite3.Connection,
        table: str,
        where: str | None,
        rng: random.Random,
        *,
        context: Mapping[str, Sequence[str]] | None = None,
        exclude: Sequence[Any] = (),
        column: str | None = None,
        rotate: int = 0,
    ) -> Any:
        """One row's primary key (or ``column``) satisfying ``where``, or None if no row does.

        ``rotate`` starts from a later relation (a retry after the first related row failed a
        rule the schema does not declare, e.g. "the assignee must be a project member")."""
        pk = self.rel.pk[table]
        col = column or pk
        base = f"({where})" if where else "1"
        if exclude:
            base += f' AND "{col}" NOT IN ({", ".join("?" * len(exclude))})'
        if column:
            base += f' AND "{column}" IS NOT NULL'
        choices = self._choices(table, context or {}, rng)
        related = choices[:-1]
        if related and rotate:
            related = related[rotate % len(related) :] + related[: rotate % len(related)]
        for cond, params in related:  # related rows: few, so fetch them (bounded) and choose
            rows = self._rows(
                conn,
                f'SELECT "{col}" FROM "{table}" WHERE {base} AND {cond} ORDER BY "{pk}" LIMIT {RELATED_CAP}',
                [*exclude, *params],
            )
            if rows:
                return rows[rng.randrange(len(rows))][0]
        return self._uniform(conn, table, base, col, list(exclude), rng)

    def _uniform(
        self, conn: sqlite3.Connection, table: str, base: str, col: str, args: list[Any], rng: random.Random
    ) -> Any:
        """A row satisfying ``base``, each such row equally likely.

        Most conditions hold for most rows, so a few random rowids usually find one with a key
        lookup each; only when they miss is every row counted (which scans the whole table and
        evaluates the condition on each: 30 ms on 15,000 posts with a visibility rule)."""
        top = conn.execute(f'SELECT max(rowid) FROM "{table}"').fetchone()[0]
        probe = f'SELECT "{col}" FROM "{table}" WHERE rowid = ? AND {base}'
        for _ in range(PROBES if top else 0):  # a missing rowid is a miss, so the pick stays uniform
            row = conn.execute(probe, [rng.randint(1, top), *args]).fetchone()
            if row is not None:
                return row[0]
        count = self._rows(conn, f'SELECT count(*) FROM "{table}" WHERE {base}', args)[0][0]
        if not count:
            return None
        row = conn.execute(
            f'SELECT "{col}" FROM "{table}" WHERE {base} ORDER BY rowid LIMIT 1 OFFSET ?',
            [*args, rng.randrange(count)],
        ).fetchone()
        return row[0]

    def satisfying(
        self, conn: sqlite3.Connection, table: str, ids: Sequence[str], where: str | None
    ) -> list[str]:
        """The subset of ``ids`` (order kept) whose rows exist and satisfy ``where`` right now."""
        if not ids:
            return []
        pk = self.rel.pk[table]
        cond = f"({where}) AND " if where else ""
        rows = self._rows(
            conn,
            f'SELECT "{pk}" FROM "{table}" WHERE {cond}"{pk}" IN ({", ".join("?" * len(ids))})',
            list(ids),
        )
        ok = {r[0] for r in rows}
        return [i for i in ids if i in ok]

    def cell(self, conn: sqlite3.Connection, table: str, key: str, column: str) -> Any:
        """One cell of one row (used for hidden secrets such as a card's PIN)."""
        row = conn.execute(
            f'SELECT "{column}" FROM "{table}" WHERE "{self.rel.pk[table]}" = ?', (key,)
        ).fetchone()
        return None if row is None else row[0]

    def row(self, conn: sqlite3.Connection, table: str, key: str) -> dict[str, Any] | None:
        cur = conn.execute(f'SELECT * FROM "{table}" WHERE "{self.rel.pk[table]}" = ?', (key,))
        row = cur.fetchone()
        return None if row is None else dict(zip([d[0] for d in cur.description], row, strict=True))
