"""Snapshots: a domain's seeded database, frozen as bytes.

A snapshot is the unit everything else forks from. It is built once from a
schema and a seeded fill, ``serialize()``d, and identified by the sha256 of
those bytes, so the same (domain, seed, scale) is the same file on every
machine that runs the same SQLite and pinned Faker. Built snapshots are cached
on disk as ordinary ``.sqlite`` files anyone can open with ``sqlite3``.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sqlite3
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from state import changelog
from state.hashing import CHANGES, combine, table_sums

Sums = dict[str, tuple[list[str], int]]  # table -> (columns, multiset digest of its rows)

SCALES = ("small", "medium", "large")

# The fill receives a plain connection and writes the seeded rows; the schema
# step creates tables. Both are supplied by the caller (the domain kit), which
# keeps this package free of any knowledge about domains.
SchemaFn = Callable[[sqlite3.Connection], None]
FillFn = Callable[[sqlite3.Connection, int, str], None]
PatchFn = Callable[[sqlite3.Connection], None]


class SnapshotError(ValueError):
    """A snapshot could not be built or loaded; the message says why."""


@dataclass(frozen=True)
class Snapshot:
    """Immutable database bytes plus the identity that produced them."""

    domain: str
    seed: int
    scale: str
    data: bytes = field(repr=False)
    sha256: str = ""
    logical_hash: str = ""
    variant: str | None = None  # a named initial-state patch over the base snapshot
    # Per-table digests the logical hash combines; forks update them from touched rows only.
    sums: Sums | None = field(default=None, repr=False, compare=False)

    @property
    def size(self) -> int:
        return len(self.data)

    def identity(self) -> dict[str, object]:
        """What a task records to say which world it was generated in."""
        out: dict[str, object] = {
            "domain": self.domain,
            "seed": self.seed,
            "scale": self.scale,
            "sha256": self.sha256,
        }
        if self.variant is not None:
            out["variant"] = self.variant
        return out

    def connect(self) -> sqlite3.Connection:
        """A fresh private in-memory copy of the snapshot (a fork)."""
        conn = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
        conn.deserialize(self.data)
        conn.execute("PRAGMA foreign_keys = ON")
        return conn


def check_scale(scale: str) -> str:
    if scale not in SCALES:
        raise SnapshotError(f"unknown scale {scale!r}; allowed: {', '.join(SCALES)}")
    return scale


def build_snapshot(domain: str, seed: int, scale: str, schema: SchemaFn, fill: FillFn) -> Snapshot:
    """Create the schema, run the seeded fill, and freeze the result.

    The database is vacuumed before serialising so the bytes depend only on the
    content inserted, not on the free pages the fill happened to leave behind.
    """
    check_scale(scale)
    conn = sqlite3.connect(":memory:", isolation_level=None)
    try:
        conn.execute("PRAGMA foreign_keys = ON")
        schema(conn)
        conn.execute("BEGIN")
        fill(conn, seed, scale)
        conn.execute("COMMIT")
        problems = conn.execute("PRAGMA foreign_key_check").fetchall()
        if problems:
            raise SnapshotError(f"seed data of {domain!r} violates foreign keys: {problems[:5]}")
        changelog.install(conn)
        conn.execute("VACUUM")
        data = conn.serialize()
        sums = table_sums(conn)
    finally:
        conn.close()
    return Snapshot(domain, seed, scale, data, hashlib.sha256(data).hexdigest(), combine(sums), sums=sums)


def derive_snapshot(base: Snapshot, variant: str, patch: PatchFn) -> Snapshot:
    """``base`` with a named patch applied (logged out, market closed), frozen like any snapshot.

    The patch runs on a private copy; its changes are then part of the new snapshot's content,
    not changes an episode made, so the changelog is emptied before freezing. Diffs and hashes of
    an episode that starts from the variant are therefore relative to the variant."""
    conn = base.connect()
    try:
        conn.execute("BEGIN")
        patch(conn)
        conn.execute(f"DELETE FROM {CHANGES}")
        conn.execute("COMMIT")
        problems = conn.execute("PRAGMA foreign_key_check").fetchall()
        if problems:
            raise SnapshotError(
                f"variant {variant!r} of {base.domain!r} violates foreign keys: {problems[:5]}"
            )
        conn.execute("VACUUM")
        data = conn.serialize()
        sums = table_sums(conn)
    finally:
        conn.close()
    sha = hashlib.sha256(data).hexdigest()
    return Snapshot(base.domain, base.seed, base.scale, data, sha, combine(sums), variant, sums)


def load_snapshot(path: Path, domain: str, seed: int, scale: str, variant: str | None = None) -> Snapshot:
    """Read a snapshot file written by :func:`write_snapshot`.

    The table digests come from the file written beside it when that file names these exact
    bytes (their sha256); otherwise they are computed by a scan, as for a file made elsewhere."""
    data = Path(path).read_bytes()
    sha = hashlib.sha256(data).hexdigest()
    conn = sqlite3.connect(":memory:")
    try:
        conn.deserialize(data)
        sums = _read_sums(path, sha)
        scanned = sums is None
        # digests beside the file that name these very bytes were written when they were built or
        # last checked, so only other bytes are checked again (12 ms a snapshot, 25 per start-up)
        ok = conn.execute("PRAGMA quick_check").fetchone()[0] if scanned else "ok"
        if ok != "ok":
            raise SnapshotError(f"snapshot file {path} is corrupt: {ok}")
        if not changelog.installed(conn):
            raise SnapshotError(f"{path} has no change-tracking triggers; rebuild it with this version")
        if sums is None:
            sums = table_sums(conn)
    except sqlite3.DatabaseError as exc:
        raise SnapshotError(f"{path} is not a SQLite snapshot: {exc}") from exc
    finally:
        conn.close()
    snap = Snapshot(domain, seed, scale, data, sha, combine(sums), variant, sums)
    if scanned:
        with contextlib.suppress(OSError):  # next time the digests are read, not scanned
            _write_sums(snap, path)
    return snap


def _sums_path(path: Path) -> Path:
    return Path(path).with_name(Path(path).name + ".sums.json")


def _read_sums(path: Path, sha: str) -> Sums | None:
    try:
        doc = json.loads(_sums_path(path).read_text())
        if doc.get("sha256") != sha:
            return None
        return {t: (list(cols), int(total)) for t, (cols, total) in doc["tables"].items()}
    except (OSError, ValueError, KeyError, TypeError):
        return None  # missing, stale or unreadable: scan instead


def _write_sums(snapshot: Snapshot, path: Path) -> None:
    if snapshot.sums is None:
        return
    doc = {"sha256": snapshot.sha256, "tables": {t: [c, str(v)] for t, (c, v) in snapshot.sums.items()}}
    _atomic_write(_sums_path(path), json.dumps(doc, sort_keys=True).encode())


def write_snapshot(snapshot: Snapshot, path: Path) -> Path:
    """Write atomically: a reader never sees half a snapshot file. Its table digests go beside it."""
    path = Path(path)
    _atomic_write(path, snapshot.data)
    _write_sums(snapshot, path)
    return path


def _atomic_write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.chmod(tmp, 0o644)  # an ordinary file anyone may open, not a private temp file
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


class SnapshotCache:
    """Built snapshots on disk, keyed by domain, seed, scale and schema version.

    The schema fingerprint is part of the key so editing a domain's tables or
    seed code never serves a stale file.
    """

    def __init__(self, root: Path | str | None = None) -> None:
        default = os.environ.get("TOOLGROUND_CACHE", Path.home() / ".cache" / "toolground")
        self.root = Path(root if root is not None else default) / "snapshots"
        self._memory: dict[tuple[str, int, str, str], Snapshot] = {}

    def path_for(self, domain: str, seed: int, scale: str, version: str) -> Path:
        return self.root / f"{domain}-seed{seed}-{scale}-{version}.sqlite"

    def get(
        self, domain: str, seed: int, scale: str, version: str, schema: SchemaFn, fill: FillFn
    ) -> Snapshot:
        key = (domain, seed, scale, version)
        if key in self._memory:
            return self._memory[key]
        path = self.path_for(domain, seed, scale, version)
        snap = None
        if path.exists():
            try:
                snap = load_snapshot(path, domain, seed, scale)
            except SnapshotError:
                snap = None  # a corrupt cache entry is rebuilt, never served
        if snap is None:
            snap = build_snapshot(domain, seed, scale, schema, fill)
            with contextlib.suppress(OSError):  # a read-only cache only costs a rebuild next time
                write_snapshot(snap, path)
        self._memory[key] = snap
        return snap

    def forget(self, domain: str, seed: int, scale: str, variant: str | None = None) -> None:
        """Drop a world from memory (the file on disk stays): a long-lived process that built it on
        demand gives the bytes back; the next :meth:`get` reads the file again."""
        for key, snap in list(self._memory.items()):
            if (snap.domain, snap.seed, snap.scale, snap.variant) == (domain, seed, scale, variant):
                del self._memory[key]

    def variant(self, base: Snapshot, version: str, name: str, patch: PatchFn) -> Snapshot:
        """A variant of a cached snapshot, derived once and cached on disk like its base (deriving
        costs a copy, a vacuum and a scan, which every worker process would otherwise repeat)."""
        key = (base.domain, base.seed, base.scale, f"{version}:{name}")
        if key in self._memory:
            return self._memory[key]
        path = self.path_for(base.domain, base.seed, base.scale, f"{version}-{name}")
        snap = None
        if path.exists():
            try:
                snap = load_snapshot(path, base.domain, base.seed, base.scale, variant=name)
            except SnapshotError:
                snap = None
        if snap is None:
            snap = derive_snapshot(base, name, patch)
            with contextlib.suppress(OSError):
                write_snapshot(snap, path)
        self._memory[key] = snap
        return snap
