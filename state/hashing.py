"""Content hashing that sees rows, not pages.

Two databases with the same rows must hash the same however the rows were
inserted, updated or vacuumed, so the hash is built from per-row digests that
are sorted before being combined. SQLite's own tables are skipped.
"""

from __future__ import annotations

import hashlib
import sqlite3

# Bookkeeping tables carry this prefix; they are not part of a database's content.
BOOKKEEPING = "_tg_"
CHANGES = BOOKKEEPING + "changes"


def user_tables(conn: sqlite3.Connection, schema: str = "main") -> list[str]:
    rows = conn.execute(
        f"SELECT name FROM {schema}.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
        f"AND substr(name, 1, {len(BOOKKEEPING)}) != '{BOOKKEEPING}' ORDER BY name"
    ).fetchall()
    return [r[0] for r in rows]


def _row_digest(row: tuple) -> bytes:
    return hashlib.blake2b(repr(row).encode(), digest_size=16).digest()


def table_hash(conn: sqlite3.Connection, table: str, schema: str = "main") -> str:
    cols = [r[1] for r in conn.execute(f'PRAGMA {schema}.table_info("{table}")')]
    digests = sorted(_row_digest(row) for row in conn.execute(f'SELECT * FROM {schema}."{table}"'))
    h = hashlib.sha256()
    h.update(repr((table, cols)).encode())
    for d in digests:
        h.update(d)
    return h.hexdigest()


def content_hash(conn: sqlite3.Connection, schema: str = "main") -> str:
    """sha256 over every user table's sorted row digests."""
    h = hashlib.sha256()
    for table in user_tables(conn, schema):
        h.update(table.encode())
        h.update(table_hash(conn, table, schema).encode())
    return h.hexdigest()
