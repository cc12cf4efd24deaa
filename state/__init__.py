"""Snapshots and per-episode forks of SQLite state. Knows nothing about domains or tools.

The words, bottom up: a :class:`Snapshot` is one domain's seeded database as bytes; a :class:`Fork`
is one private copy of it; an :class:`Episode` is one rollout's forks (a fork per domain); the
:class:`EpisodeStore` keeps episodes under env-session ids, the ids clients send. See
docs/architecture.md for the glossary."""

from state.changelog import CellChange
from state.fork import Checkpoint, Fork
from state.hashing import content_hash
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
    EpisodeExpired,
    EpisodeStore,
    EpisodeUnavailable,
    NotHeld,
    SessionLive,
    StoreFull,
    combine_hashes,
)

__all__ = [
    "SCALES",
    "CellChange",
    "Checkpoint",
    "Custodian",
    "Episode",
    "EpisodeExpired",
    "EpisodeStore",
    "EpisodeUnavailable",
    "Fork",
    "NotHeld",
    "SessionLive",
    "Snapshot",
    "SnapshotCache",
    "SnapshotError",
    "StoreFull",
    "build_snapshot",
    "check_scale",
    "combine_hashes",
    "derive_snapshot",
    "content_hash",
    "write_snapshot",
]
