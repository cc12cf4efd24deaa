"""Replaying predicted calls on a fork of the task's snapshot, fast enough to do for every rollout.

An :class:`Environment` is built from the task's snapshot identities (domains through
``servers.registry``, seed and scale from the SnapshotRef), its sha256 is checked against the
task's, and it is cached per (domains, seed, scale) for the life of the process.

Each thread keeps one forked episode per environment and runs every replay inside
``BEGIN ... ROLLBACK``: the tools' own savepoints nest inside, the diff is read (by ``state``,
which works inside a transaction) before the rollback, and the rollback returns the fork and its
changelog to the snapshot exactly. That skips even the fork's memcpy and the new connection's
statement preparation for every trajectory.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from rewards.errors import SnapshotMismatch, TaskError
from rewards.tasks import SnapshotSpec
from servers.kit import ToolError
from servers.registry import UnknownDomain, get_domain
from servers.runtime import Environment
from state import Episode, SnapshotCache, changelog


@dataclass(slots=True)
class ReplayResult:
    """Per-call success, the values returned, and the cell-level diff left behind."""

    status: list[bool]
    values: list[Any]
    diff: list[dict[str, Any]]


class _World:
    """One thread's forked episode of one environment."""

    def __init__(self, env: Environment) -> None:
        self.episode: Episode = env.open()
        self.conns = {}
        for name, session in sorted(self.episode.sessions.items()):
            session.run(lambda conn: None, writes=True)  # forks: the private connection exists from now on
            with session.reading() as conn:
                self.conns[name] = conn

    def begin(self) -> None:
        for conn in self.conns.values():
            conn.execute("BEGIN")

    def rollback(self) -> None:
        for conn in self.conns.values():
            if conn.in_transaction:
                conn.execute("ROLLBACK")

    def clean(self) -> bool:
        return all(not changelog.touched(conn) for conn in self.conns.values())

    def diff(self) -> list[dict[str, Any]]:
        return self.episode.diff()


class Replayer:
    """Replays call lists on one environment; safe to use from many threads."""

    def __init__(self, env: Environment) -> None:
        self.env = env
        self._local = threading.local()

    def _world(self) -> _World:
        world = getattr(self._local, "world", None)
        if world is None:
            world = self._local.world = _World(self.env)
        return world

    def run(self, calls: Iterable[tuple[str, Any]]) -> ReplayResult:
        """Run the calls in order on a pristine fork and return what they did; the fork is then reset."""
        world = self._world()
        status: list[bool] = []
        values: list[Any] = []
        world.begin()
        try:
            for name, args in calls:
                try:
                    r = self.env.call(world.episode, name, args)
                    status.append(r.ok)
                    values.append(r.value if r.ok else r.error)
                except Exception as exc:  # a tool bug must not take the reward down; it is a failed call
                    status.append(False)
                    values.append(f"{type(exc).__name__}: {exc}")
            diff = world.diff()
        finally:
            world.rollback()
        if not world.clean():  # never expected; rebuild rather than leak state into the next rollout
            self._local.world = None
        return ReplayResult(status, values, diff)


class EnvPool:
    """Environments per (domains, seed, scale), built once and verified against the task's sha256."""

    def __init__(self, cache: SnapshotCache | None = None) -> None:
        self.cache = cache
        self._replayers: dict[tuple[tuple[str, ...], int, str, tuple[tuple[str, str], ...]], Replayer] = {}
        self._lock = threading.Lock()

    def add(self, env: Environment) -> Replayer:
        """Reuse an Environment that already exists (tests, the generator's own process)."""
        key = (tuple(sorted(d.name for d in env.domains)), env.seed, env.scale, tuple(env.variants.items()))
        env.snapshots()
        with self._lock:
            return self._replayers.setdefault(key, Replayer(env))

    def replayer(self, snapshots: tuple[SnapshotSpec, ...]) -> Replayer:
        """The replayer for a task's snapshots; raises SnapshotMismatch when the bytes differ."""
        seeds = {(s.seed, s.scale) for s in snapshots}
        if len(seeds) != 1:
            raise TaskError(
                f"all snapshots of a task must share one seed and scale, got {sorted(seeds)}",
                [{"loc": ["task", "snapshots"], "msg": "mixed seeds or scales"}],
            )
        seed, scale = seeds.pop()
        variants = tuple(sorted((s.domain, s.variant) for s in snapshots if s.variant is not None))
        key = (tuple(sorted(s.domain for s in snapshots)), seed, scale, variants)
        with self._lock:
            rep = self._replayers.get(key)
            if rep is None:
                rep = self._replayers[key] = Replayer(self._build(key))
        built = rep.env.snapshots()
        for s in snapshots:
            if built[s.domain].sha256 != s.sha256:
                what = f" variant {s.variant}" if s.variant else ""
                raise SnapshotMismatch(
                    f"snapshot {s.domain}{what} seed {s.seed} {s.scale} rebuilds to sha256 {built[s.domain].sha256[:12]}… "
                    f"but the task was generated on {s.sha256[:12]}…; the domain's schema or seed data changed "
                    "since the task was made (regenerate the tasks, or score with the matching code version)",
                    [{"loc": ["task", "snapshots"], "msg": f"sha256 mismatch for {s.domain}"}],
                )
        return rep

    def _build(self, key: tuple[tuple[str, ...], int, str, tuple[tuple[str, str], ...]]) -> Environment:
        names, seed, scale, variants = key
        try:
            env = Environment(
                [get_domain(n) for n in names],
                seed=seed,
                scale=scale,
                cache=self.cache,
                variants=dict(variants),
            )
            env.snapshots()
        except (UnknownDomain, ToolError) as exc:
            raise TaskError(str(exc), [{"loc": ["task", "snapshots"], "msg": str(exc)}]) from None
        except ValueError as exc:  # unknown scale and other SnapshotErrors
            raise TaskError(str(exc), [{"loc": ["task", "snapshots"], "msg": str(exc)}]) from None
        return env


_DEFAULT: EnvPool | None = None


def default_pool() -> EnvPool:
    """The process-wide pool (snapshots from the default toolground cache)."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = EnvPool()
    return _DEFAULT
