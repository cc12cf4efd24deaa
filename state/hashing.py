"""Content hashing that sees rows, not pages.

Two databases with the same rows must hash the same however the rows were
inserted, updated or vacuumed. Each row gets a 128-bit digest and a table's
value is the *sum* of its row digests modulo 2**128: a multiset hash, so row
order and page layout cannot matter, and a fork's hash is updated from the
rows it touched alone (subtract the old digest, add the new one) instead of
rescanning the table. The content hash is a sha256 over each table's name,
columns and sum. Bookkeeping tables (``_tg_*``) and SQLite's own are skipped.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Iterable, Mapping

# Bookkeeping tables carry this prefix; they are not part of a database's content.
BOOKKEEPING = "_tg_"
CHANGES = BOOKKEEPING + "changes"
MODULUS = 1 << 128


def user_tables(conn: sqlite3.Connection, schema: str = "main") -> list[str]:
    rows = conn.execute(
        f"SELECT name FROM {schema}.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
        f"AND substr(name, 1, {len(BOOKKEEPING)}) != '{BOOKKEEPING}' ORDER BY name"
    ).fetchall()
    return [r[0] for r in rows]


def columns(conn: sqlite3.Connection, table: str, schema: str = "main") -> list[str]:
    return [r[1] for r in conn.execute(f'PRAGMA {schema}.table_info("{table}")')]


def row_digest(row: Iterable) -> int:
    return int.from_bytes(hashlib.blake2b(repr(tuple(row)).encode(), digest_size=16).digest(), "big")


def table_sum(conn: sqlite3.Connection, table: str, schema: str = "main") -> int:
    """The multiset digest of a whole table (one full scan)."""
    return sum(row_digest(row) for row in conn.execute(f'SELECT * FROM {schema}."{table}"')) % MODULUS


def table_sums(conn: sqlite3.Connection, schema: str = "main") -> dict[str, tuple[list[str], int]]:
    """Each user table's (columns, multiset digest): what :func:`combine` hashes, kept with a
    snapshot so a fork's hash can start from it without a scan."""
    return {t: (columns(conn, t, schema), table_sum(conn, t, schema)) for t in user_tables(conn, schema)}


def table_entry(table: str, cols: list[str], total: int) -> bytes:
    """What one table adds to the content hash (:func:`combine` hashes them in table order)."""
    return repr((table, cols, total)).encode()


def combine(tables: Mapping[str, tuple[list[str], int]]) -> str:
    """The content hash from each table's (columns, sum)."""
    h = hashlib.sha256()
    for table in sorted(tables):
        h.update(table_entry(table, *tables[table]))
    return h.hexdigest()


def content_hash(conn: sqlite3.Connection, schema: str = "main") -> str:
    """Hash of every user table's rows, by full scan."""
    return combine(table_sums(conn, schema))
