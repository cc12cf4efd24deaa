"""Hashes and diffs of the generator's episodes, plus a rollback sandbox.

The generator needs an episode's final-state hash and row diff for every
candidate task and every control run, often inside the savepoint the sandbox
keeps open. ``state`` computes both incrementally from the rows a fork touched
and without ATTACH, so this module only restricts them to a task's domains.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator, Mapping
from contextlib import ExitStack, contextmanager
from typing import Any

from state import Episode, Snapshot, combine_hashes
from state.fork import SharedReader


class SnapshotView:
    """A read-only connection to one snapshot, for sampling entities as they were at the start.

    It is the snapshot's :class:`~state.fork.SharedReader` connection (query-only, the same
    bytes), which the episodes' unwritten forks read from anyway: a private copy per view cost
    a deserialize of every snapshot, and another of each in every variant lane."""

    def __init__(self, snapshot: Snapshot) -> None:
        self.snapshot = snapshot
        self.conn: sqlite3.Connection = SharedReader.of(snapshot).conn


class StateProbe:
    """Hashes and diffs of episodes over any subset of an environment's domains."""

    def __init__(self, snapshots: Mapping[str, Snapshot]) -> None:
        self.snapshots = dict(snapshots)
        self._views: dict[str, SnapshotView] = {}

    def fingerprint(self, domain: str) -> SnapshotView:
        view = self._views.get(domain)
        if view is None:
            view = self._views[domain] = SnapshotView(self.snapshots[domain])
        return view

    def fork_hashes(self, ep: Episode, domains: list[str]) -> dict[str, str]:
        """Per-domain content hashes (the snapshot's own hash for a domain never written)."""
        return {name: ep.fork(name).content_hash() for name in domains}

    def combine(self, hashes: Mapping[str, str], domains: list[str]) -> str:
        """``Episode.state_hash()`` of an episode over ``domains`` whose other forks are untouched."""
        return combine_hashes({name: hashes.get(name, self.snapshots[name].logical_hash) for name in domains})

    def state_hash(self, ep: Episode, domains: list[str]) -> str:
        return self.combine(self.fork_hashes(ep, domains), domains)

    def diff(self, ep: Episode, domains: list[str]) -> list[dict[str, Any]]:
        """``Episode.diff()`` restricted to ``domains``; works inside an open savepoint."""
        return [
            # CellChange.as_dict's keys after the domain, built in one dict (diffs run to thousands of cells)
            {
                "domain": name,
                "table": c.table,
                "pk": c.pk,
                "column": c.column,
                "old": c.old,
                "new": c.new,
                "op": c.op,
            }
            for name in sorted(domains)
            for c in ep.fork(name).diff()
        ]


class _Undo(Exception):
    pass


class Sandbox:
    """One long-lived fork per domain whose every use is rolled back to the snapshot.

    Rolling a savepoint back costs microseconds and restores the snapshot's exact bytes,
    changelog included. Drafts and near-miss controls run here; the replay gate still uses a
    brand-new fork.
    """

    def __init__(self, episode: Episode) -> None:
        self.episode = episode

    @contextmanager
    def trial(self, domains: Iterable[str] | None = None) -> Iterator[Episode]:
        """Everything done to ``domains``' forks (default: all) inside is rolled back.

        Callers name the domains their calls touch: each savepoint costs SQL statements, and a
        task's gold calls only ever touch its own domain."""
        names = sorted(self.episode.forks if domains is None else set(domains))
        try:
            with ExitStack() as stack:
                for name in names:
                    stack.enter_context(self.episode.forks[name].writing())
                yield self.episode
                raise _Undo
        except _Undo:
            pass
