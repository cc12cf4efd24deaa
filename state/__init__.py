"""Snapshots and per-episode forks of SQLite state. Knows nothing about domains or tools."""

from state.changelog import CellChange
from state.hashing import content_hash
from state.session import Checkpoint, Session
from state.snapshot import (
    SCALES,
    Snapshot,
    SnapshotCache,
    SnapshotError,
    build_snapshot,
    check_scale,
    derive_snapshot,
    write_snapshot,
)
from state.store import (
    Custodian,
    Episode,
    SessionStore,
    SessionUnavailable,
    StoreFull,
    UnknownSession,
    combine_hashes,
)

__all__ = [
    "SCALES",
    "CellChange",
    "Checkpoint",
    "Custodian",
    "Episode",
    "Session",
    "SessionStore",
    "SessionUnavailable",
    "Snapshot",
    "SnapshotCache",
    "SnapshotError",
    "StoreFull",
    "UnknownSession",
    "build_snapshot",
    "check_scale",
    "combine_hashes",
    "derive_snapshot",
    "content_hash",
    "write_snapshot",
]
