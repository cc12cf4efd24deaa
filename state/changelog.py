"""Which rows a fork has touched, recorded by triggers that ship inside the snapshot.

Every snapshot carries an empty ``_tg_changes`` table and, per table, three
triggers that record each inserted, updated or deleted primary key once. They
are installed after the seed fill, so a fork is a bare ``deserialize()`` and the
changelog travels with the bytes: checkpoints and restores need nothing extra.
The diff and the content hash then look only at touched rows instead of
scanning whole tables. Bookkeeping tables (``_tg_*``) are not content: hashes,
diffs and discovery tools skip them.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from state.hashing import CHANGES, columns, user_tables

BATCH = 4  # touched keys of one table from which both sides are read in one statement each


def primary_key(conn: sqlite3.Connection, table: str, schema: str = "main") -> list[str]:
    info = conn.execute(f'PRAGMA {schema}.table_info("{table}")').fetchall()
    pk = [r[1] for r in sorted((r for r in info if r[5]), key=lambda r: r[5])]
    return pk or ["rowid"]


def install(conn: sqlite3.Connection) -> None:
    """Create the change table and one trigger per table and operation (at build time)."""
    conn.execute(
        f"CREATE TABLE IF NOT EXISTS {CHANGES} (tbl TEXT NOT NULL, pk TEXT NOT NULL, PRIMARY KEY (tbl, pk))"
    )
    for table in user_tables(conn):
        cols = primary_key(conn, table)

        def key(ref: str, cols: list[str] = cols) -> str:
            return "json_array(" + ", ".join(f'{ref}."{c}"' for c in cols) + ")"

        log = f"INSERT OR IGNORE INTO {CHANGES} VALUES ('{table}', {{}});"
        changed_key = " OR ".join(f'OLD."{c}" IS NOT NEW."{c}"' for c in cols)
        # A primary-key change touches a second row; folded into the update trigger, because
        # every trigger adds to the schema each fork parses on its first statement.
        rekey = f"INSERT OR IGNORE INTO {CHANGES} SELECT '{table}', {key('OLD')} WHERE {changed_key};"
        triggers = {
            "insert": ("INSERT", log.format(key("NEW"))),
            "update": ("UPDATE", log.format(key("NEW")) + " " + rekey),
            "delete": ("DELETE", log.format(key("OLD"))),
        }
        for name, (event, body) in triggers.items():
            conn.execute(
                f'CREATE TRIGGER IF NOT EXISTS "_tg_{name}_{table}" AFTER {event} ON "{table}" BEGIN {body} END'
            )


def installed(conn: sqlite3.Connection) -> bool:
    return conn.execute("SELECT 1 FROM sqlite_master WHERE name = ?", (CHANGES,)).fetchone() is not None


def touched(conn: sqlite3.Connection) -> dict[str, list[list[Any]]]:
    """Touched primary keys per table (possibly including rows changed back)."""
    out: dict[str, list[list[Any]]] = {}
    for tbl, pk in conn.execute(f"SELECT tbl, pk FROM main.{CHANGES} ORDER BY tbl, pk"):
        out.setdefault(tbl, []).append(json.loads(pk))
    return out


def export(conn: sqlite3.Connection) -> list[tuple[str, str]]:
    return conn.execute(f"SELECT tbl, pk FROM main.{CHANGES}").fetchall()


def pk_string(key: list[Any]) -> str:
    """A primary key as diffs write it (:attr:`CellChange.pk`): the value of a one-column key, else JSON."""
    return str(key[0]) if len(key) == 1 else json.dumps(key)


def touched_since(conn: sqlite3.Connection, after: int) -> tuple[int, list[tuple[str, str]]]:
    """The change table's highest rowid seen, and the (table, pk) rows recorded after rowid ``after``.

    Read after each call, this says which rows that call touched. The change table is a rowid table
    filled with ``INSERT OR IGNORE`` on (table, pk), so a row appears once, with the rowid of the
    first write to it: it is attributed to the first call that touched it, and a later call that
    writes the same row again reports nothing for it. Rowids only grow while rows are only added (a
    savepoint rolled back takes its rows, and their rowids, with it), so ``after`` must come from an
    earlier read of the same run; start from 0 on a fresh fork, whose change table is empty.
    ``pk`` is in :func:`pk_string` form, so it can be looked up in a diff.
    """
    rows = conn.execute(
        f"SELECT rowid, tbl, pk FROM main.{CHANGES} WHERE rowid > ? ORDER BY rowid", (after,)
    ).fetchall()
    if not rows:
        return after, []
    return rows[-1][0], [(tbl, pk_string(json.loads(pk))) for _, tbl, pk in rows]


@dataclass(frozen=True, slots=True)  # slots: a tar archive's diff makes thousands of these
class CellChange:
    """One changed cell. Inserted rows have ``old`` None, deleted rows ``new`` None."""

    table: str
    pk: str
    column: str
    old: Any
    new: Any
    op: str  # insert | update | delete

    def as_dict(self) -> dict[str, Any]:
        return {
            "table": self.table,
            "pk": self.pk,
            "column": self.column,
            "old": self.old,
            "new": self.new,
            "op": self.op,
        }


def fetch_row(conn: sqlite3.Connection, table: str, pk: list[str], key: list[Any]) -> tuple | None:
    where = " AND ".join(f'"{c}" = ?' for c in pk)
    return conn.execute(f'SELECT * FROM "{table}" WHERE {where}', key).fetchone()


Layout = Mapping[str, tuple[list[str], list[str]]]  # table -> (primary-key columns, all columns)


def layout_of(conn: sqlite3.Connection) -> dict[str, tuple[list[str], list[str]]]:
    return {t: (primary_key(conn, t), columns(conn, t)) for t in user_tables(conn)}


def touched_rows(
    conn: sqlite3.Connection,
    base: sqlite3.Connection,
    layout: Layout | None = None,
    known: dict[tuple[str, tuple[Any, ...]], tuple | None] | None = None,
) -> Iterator[tuple[str, list[str], list[Any], tuple | None, tuple | None]]:
    """(table, columns, key, old row, new row) for every touched key.

    Old rows come from ``base``, a separate connection holding the snapshot, so
    this works inside an open transaction or savepoint (an ATTACH would not).
    ``layout`` (from :func:`layout_of`) saves re-reading the schema on hot paths.
    ``known`` remembers old rows by (table, key) across calls: the snapshot never changes, and
    the same touched rows are hashed after every control run of a task.
    """
    for table, keys in touched(conn).items():
        pk, cols = layout[table] if layout is not None else (primary_key(conn, table), columns(conn, table))
        olds = (
            _fetch(base, table, pk, cols, keys) if known is None else _old(base, table, pk, cols, keys, known)
        )
        for key, old, new in zip(keys, olds, _fetch(conn, table, pk, cols, keys), strict=True):
            yield table, cols, key, old, new


def _fetch(
    conn: sqlite3.Connection, table: str, pk: list[str], cols: list[str], keys: list[list[Any]]
) -> list[tuple | None]:
    """The rows of ``keys`` (None where absent), in one statement when there are many."""
    if len(keys) >= BATCH and len(pk) == 1 and pk[0] in cols:
        found = _rows_by_key(conn, table, pk[0], cols.index(pk[0]), keys)
        return [found.get(key[0]) for key in keys]
    return [fetch_row(conn, table, pk, key) for key in keys]


def _old(
    base: sqlite3.Connection,
    table: str,
    pk: list[str],
    cols: list[str],
    keys: list[list[Any]],
    known: dict[tuple[str, tuple[Any, ...]], tuple | None],
) -> list[tuple | None]:
    missing = [key for key in keys if (table, tuple(key)) not in known]
    for key, row in zip(missing, _fetch(base, table, pk, cols, missing) if missing else [], strict=True):
        known[(table, tuple(key))] = row
    return [known[(table, tuple(key))] for key in keys]


def _rows_by_key(
    conn: sqlite3.Connection, table: str, pk: str, at: int, keys: list[list[Any]]
) -> dict[Any, tuple]:
    """The rows of ``keys`` (one-column keys) by key value: one statement where a write that
    touched many rows (an archive's members) cost two per row."""
    rows = conn.execute(
        f'SELECT * FROM "{table}" WHERE "{pk}" IN (SELECT value FROM json_each(?))',
        (json.dumps([k[0] for k in keys]),),
    ).fetchall()
    return {r[at]: r for r in rows}


def diff_rows(
    conn: sqlite3.Connection,
    base: sqlite3.Connection,
    layout: Layout | None = None,
    known: dict[tuple[str, tuple[Any, ...]], tuple | None] | None = None,
) -> list[CellChange]:
    """Cell-level changes of the touched rows between the snapshot (``base``) and ``conn``."""
    changes: list[CellChange] = []
    for table, cols, key, old, new in touched_rows(conn, base, layout, known):
        if old == new:
            continue
        pk = pk_string(key)
        op = "insert" if old is None else "delete" if new is None else "update"
        for i, col in enumerate(cols):
            before = None if old is None else old[i]
            after = None if new is None else new[i]
            if op == "update" and before == after:
                continue
            changes.append(CellChange(table, pk, col, before, after, op))
    return changes


_Row = tuple[str, str, str]  # (domain, table, pk)


def _rows(cells: list[dict[str, Any]]) -> dict[_Row, tuple[str, dict[str, dict[str, Any]]]]:
    out: dict[_Row, tuple[str, dict[str, dict[str, Any]]]] = {}
    for c in cells:
        key = (c.get("domain", ""), c["table"], c["pk"])
        out.setdefault(key, (c["op"], {}))[1][c["column"]] = c
    return out


def relative_diff(before: list[dict[str, Any]], after: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The changes from the state ``before`` describes to the one ``after`` describes, both diffs
    against the same snapshot (``Episode.diff()`` dicts).

    A turn-level task starts from the state its earlier turns left, and what it is judged on is
    what its own calls change from there: a row the earlier turns inserted and this turn updates
    is an update, one they inserted and this turn deletes is a delete, and a cell this turn puts
    back to the snapshot's value is a change too. Rows keep every column a diff knew of them."""
    pre, post = _rows(before), _rows(after)
    out: list[dict[str, Any]] = []
    for key in sorted(pre.keys() | post.keys()):
        b_op, b_cells = pre.get(key, ("", {}))
        a_op, a_cells = post.get(key, ("", {}))
        in_snapshot = (a_op or b_op) != "insert"
        was = b_op != "delete" if b_op else in_snapshot
        now = a_op != "delete" if a_op else in_snapshot
        if not was and not now:
            continue
        op = "update" if was and now else "insert" if now else "delete"
        for col in sorted(b_cells.keys() | a_cells.keys()):
            snap = (a_cells.get(col) or b_cells[col])["old"]
            old = b_cells[col]["new"] if col in b_cells else snap
            new = a_cells[col]["new"] if col in a_cells else snap
            if op == "update" and old == new:
                continue
            domain, table, pk = key
            cell = {"table": table, "pk": pk, "column": col, "old": old if was else None}
            cell.update(new=new if now else None, op=op)
            out.append({"domain": domain, **cell} if domain else cell)
    return out
