"""Forks: private, resettable copies of one snapshot.

A fork copies nothing until its first write. Until then its reads go to one
read-only connection shared by every fork of the same snapshot, so an
episode that only looks around costs no memory and no copy. The first write
``deserialize()``s the snapshot into a private connection (a memcpy).

A fork can itself be copied as it is now (:meth:`Fork.clone`, an episode branched mid-way): the
copy holds the source's serialized bytes and deserializes them on its first use, so branching
costs one ``serialize()`` and the branch, like a fresh fork, pays its memcpy when it is used.

Every operation runs inside a SAVEPOINT: if it raises, the savepoint is rolled
back and the database is exactly as before, byte for byte.
"""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

from state import changelog
from state.changelog import CellChange
from state.hashing import MODULUS, content_hash, row_digest, table_entry, table_sum, user_tables
from state.snapshot import Snapshot

T = TypeVar("T")
REMEMBERED = 200_000  # snapshot rows a shared reader keeps for hashing and diffing forks


class SharedReader:
    """One read-only connection per snapshot, shared by its forks.

    It serves reads of forks that have not written yet, the old rows a diff
    compares against, and the per-table digest sums a fork's hash starts from.
    """

    _readers: dict[str, SharedReader] = {}
    _guard = threading.Lock()

    def __init__(self, snapshot: Snapshot) -> None:
        self.snapshot = snapshot
        self.conn = snapshot.connect()
        self.conn.execute("PRAGMA query_only = ON")
        self.lock = threading.RLock()
        self.tables = user_tables(self.conn)
        self.sorted_tables = sorted(self.tables)
        self.layout = changelog.layout_of(self.conn)
        self.columns = {t: cols for t, (_, cols) in self.layout.items()}
        self._sums: dict[str, int] = {}
        self._entries: dict[str, bytes] = {}
        # snapshot rows a fork touched, and their digests, by (table, key): hashed again after
        # every run of a task's calls, and they never change (bounded; see ``remembered``)
        self.old_rows: dict[tuple[str, tuple[Any, ...]], tuple | None] = {}
        self.old_digests: dict[tuple[str, tuple[Any, ...]], int] = {}

    def remembered(self) -> dict[tuple[str, tuple[Any, ...]], tuple | None]:
        """The old-row memory, emptied first when it has grown past ``REMEMBERED`` rows."""
        if len(self.old_rows) > REMEMBERED:
            self.old_rows.clear()
            self.old_digests.clear()
        return self.old_rows

    def old_digest(self, table: str, key: list[Any], row: tuple | None) -> int:
        if row is None:
            return 0
        slot = (table, tuple(key))
        digest = self.old_digests.get(slot)
        if digest is None:
            digest = self.old_digests[slot] = row_digest(row)
        return digest

    @classmethod
    def of(cls, snapshot: Snapshot) -> SharedReader:
        reader = cls._readers.get(snapshot.sha256)
        if reader is None:
            with cls._guard:
                reader = cls._readers.get(snapshot.sha256)
                if reader is None:
                    reader = cls._readers[snapshot.sha256] = cls(snapshot)
        return reader

    def table_sum(self, table: str) -> int:
        with self.lock:
            if table not in self._sums:
                known = self.snapshot.sums
                self._sums[table] = (
                    known[table][1] if known and table in known else table_sum(self.conn, table)
                )
            return self._sums[table]

    def hash_with(self, changed: dict[str, int]) -> str:
        """:func:`~state.hashing.combine` of the snapshot's table sums with ``changed`` ones replaced.

        The same entries ``combine`` hashes, but an untouched table's entry is encoded once per
        snapshot: a fork's hash is asked for after every gold run and control, and re-encoding
        thirty tables' column lists each time was most of its cost."""
        h = hashlib.sha256()
        for t in self.sorted_tables:
            if t in changed:
                h.update(table_entry(t, self.columns[t], changed[t]))
            else:
                entry = self._entries.get(t)
                if entry is None:
                    entry = self._entries[t] = table_entry(t, self.columns[t], self.table_sum(t))
                h.update(entry)
        return h.hexdigest()


@dataclass(frozen=True)
class Checkpoint:
    """A fork's state at one moment: its bytes, changelog included (None = the snapshot)."""

    data: bytes | None


class Fork:
    """A private copy of one domain's snapshot with atomic operations, reset and diff.

    One per domain of an :class:`~state.store.Episode`; it is the only thing in this package
    that holds a SQLite connection of its own."""

    def __init__(self, snapshot: Snapshot) -> None:
        self.snapshot = snapshot
        self.lock = threading.RLock()
        self._conn: sqlite3.Connection | None = None
        self._image: bytes | None = None  # a clone's bytes, deserialized on its first use
        self._shared: bytes | None = None  # this fork's bytes as its clones got them, until next used
        self._savepoints = 0

    # -- forking ---------------------------------------------------------
    @property
    def copied(self) -> bool:
        """Whether the fork has a state of its own (made by the first write, or given by a clone)."""
        return self._conn is not None or self._image is not None

    def _copy(self, data: bytes | None = None) -> sqlite3.Connection:
        conn = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
        conn.deserialize(data if data is not None else self.snapshot.data)
        conn.execute("PRAGMA foreign_keys = ON")
        return conn

    def _own(self) -> sqlite3.Connection:
        if self._conn is None:
            self._conn = self._copy(self._image)
            self._image = None
        return self._conn

    def clone(self) -> Fork:
        """An independent copy of this fork as it is now; the two diverge from here.

        Unwritten, the copy is one more lazy fork of the snapshot; written, it holds this fork's
        serialized bytes (changelog included) until its first use deserializes them. Clones made
        before this fork is used again share one ``serialize()``, which this fork keeps until then."""
        twin = Fork(self.snapshot)
        with self.lock:
            if self._conn is None:
                twin._image = self._image
            else:  # K branches of one state share one serialize() (a tree's fan-out)
                if self._shared is None:
                    self._shared = self._conn.serialize()
                twin._image = self._shared
        return twin

    @classmethod
    def of_state(cls, snapshot: Snapshot, state: bytes | sqlite3.Connection | None) -> Fork:
        """A fork of ``snapshot`` whose state is ``state``: a serialized fork of it (deserialized
        on first use), an open connection to one (kept), or None (the snapshot itself). The caller
        vouches that it is a fork of this snapshot (:func:`state.transfer.open_image` checks bytes
        that came from elsewhere)."""
        fork = cls(snapshot)
        if isinstance(state, sqlite3.Connection):
            fork._conn = state
        else:
            fork._image = state
        return fork

    # -- running operations ----------------------------------------------
    @contextmanager
    def reading(self) -> Iterator[sqlite3.Connection]:
        """A connection to read from: the shared snapshot until the first write."""
        with self.lock:
            if self.copied:
                self._shared = None  # cautious: only writes should change it, but a read sees it
                yield self._own()
                return
            reader = SharedReader.of(self.snapshot)
            with reader.lock:
                yield reader.conn

    @contextmanager
    def writing(self) -> Iterator[sqlite3.Connection]:
        """A private connection inside a savepoint; rolled back if the block raises."""
        with self.lock:
            conn = self._own()
            self._shared = None
            name = f"op{self._savepoints}"
            self._savepoints += 1
            conn.execute(f"SAVEPOINT {name}")
            try:
                yield conn
            except BaseException:
                conn.execute(f"ROLLBACK TO {name}")
                conn.execute(f"RELEASE {name}")
                raise
            else:
                conn.execute(f"RELEASE {name}")
            finally:
                self._savepoints -= 1

    def run(self, fn: Callable[[sqlite3.Connection], T], *, writes: bool) -> T:
        """Run ``fn`` atomically on this fork's state."""
        if writes:
            with self.writing() as conn:
                return fn(conn)
        with self.reading() as conn:
            return fn(conn)

    # -- lifecycle ---------------------------------------------------------
    def reset(self) -> None:
        """Back to the snapshot; the private copy is simply dropped."""
        with self.lock:
            self.close()

    def checkpoint(self) -> Checkpoint:
        with self.lock:
            if self._conn is None:
                return Checkpoint(self._image)
            return Checkpoint(self._conn.serialize())

    def restore(self, cp: Checkpoint) -> None:
        with self.lock:
            self.close()
            if cp.data is not None:
                self._conn = self._copy(cp.data)

    def close(self) -> None:
        with self.lock:
            self._image = self._shared = None
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def memory_bytes(self) -> int:
        """Bytes held privately by this fork (0 until its first write)."""
        with self.lock:
            if self._conn is None:
                return len(self._image or b"")
            pages = self._conn.execute("PRAGMA page_count").fetchone()[0]
            size = self._conn.execute("PRAGMA page_size").fetchone()[0]
            return int(pages * size)

    def serialize(self) -> bytes:
        with self.lock:
            if self._conn is None:
                return self._image if self._image is not None else self.snapshot.data
            return self._conn.serialize()

    # -- observing ---------------------------------------------------------
    def content_hash(self) -> str:
        """Row-level hash, updated from the touched rows only; works inside a savepoint."""
        with self.lock:
            if not self.copied:
                return self.snapshot.logical_hash
            conn = self._own()
            reader = SharedReader.of(self.snapshot)
            with reader.lock:
                sums: dict[str, int] = {}
                known = reader.remembered()
                for table, _, key, old, new in changelog.touched_rows(
                    conn, reader.conn, reader.layout, known
                ):
                    if old != new:
                        delta = (row_digest(new) if new else 0) - reader.old_digest(table, key, old)
                        sums[table] = (sums.get(table, reader.table_sum(table)) + delta) % MODULUS
                return reader.hash_with(sums)

    def full_content_hash(self) -> str:
        """The same hash computed by scanning every table (for verification)."""
        with self.reading() as conn:
            return content_hash(conn)

    def diff(self) -> list[CellChange]:
        """Cell-level changes against the snapshot, sorted by table, key, column."""
        with self.lock:
            if not self.copied:
                return []
            conn = self._own()
            reader = SharedReader.of(self.snapshot)
            with reader.lock:
                changes = changelog.diff_rows(conn, reader.conn, reader.layout, reader.remembered())
            return sorted(changes, key=lambda c: (c.table, c.pk, c.column))
