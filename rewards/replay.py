"""Replaying predicted calls on a fork of the task's snapshot, fast enough to do for every rollout.

An :class:`Environment` is built from the task's snapshot identities (domains through
``servers.registry``, seed and scale from the SnapshotRef), its sha256 is checked against the
task's, and it is kept per (domains, seed, scale, variants), least recently used dropped first.

Each thread keeps one fork per snapshot it has replayed a call in (whatever environment the
call came through) and runs every replay inside
``BEGIN ... ROLLBACK``: the tools' own savepoints nest inside, the diff is read (by ``state``,
which works inside a transaction) before the rollback, and the rollback returns the fork and its
changelog to the snapshot exactly. That skips even the fork's memcpy and the new connection's
statement preparation for every trajectory.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from contract.task import SnapshotRef
from rewards.errors import TaskError
from rewards.worlds import (
    DEFAULT_MAX_WORLD_BYTES,
    DEFAULT_MAX_WORLDS,
    Ident,
    WorldBudget,
    WorldsTooBig,
    ident_of,
    mismatch,
)
from servers.kit import ToolError, ToolSpec
from servers.kit.domain import default_cache
from servers.registry import UnknownDomain, get_domain
from servers.runtime import Environment
from state import Episode, Fork, Snapshot, SnapshotCache, changelog


@dataclass(slots=True)
class ReplayResult:
    """Per-call success, the values returned, the cell-level diff left behind, and which rows each
    call touched first: ``touched[i]`` holds (domain, table, pk) with pk as the diff writes it, empty
    for read-only tools and failed calls (see :func:`state.changelog.touched_since`)."""

    status: list[bool]
    values: list[Any]
    diff: list[dict[str, Any]]
    touched: list[list[tuple[str, str, str]]] = field(default_factory=list)


class _Forks:
    """One thread's forks, one per snapshot, shared by every environment's replays.

    A task's environment names its distractor domains too, so keying forks by environment would
    fork every domain of every combination a batch holds (GBs over twenty domains). Keyed by
    snapshot, a thread holds at most one private copy of each world it has replayed a call in,
    and the least recently used are dropped past ``limit``.
    """

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.forks: OrderedDict[str, Fork] = OrderedDict()
        self.epoch = 0  # the pool's drop epoch this thread's forks were last checked against

    def fork(self, snapshot: Snapshot) -> Fork:
        fork = self.forks.get(snapshot.sha256)
        if fork is None:
            fork = Fork(snapshot)
            fork.run(lambda conn: None, writes=True)  # copies: the private connection exists from now on
            self.forks[snapshot.sha256] = fork
            while len(self.forks) > self.limit:
                self.forks.popitem(last=False)[1].close()
        else:
            self.forks.move_to_end(snapshot.sha256)
        return fork

    def discard(self, snapshot: Snapshot) -> None:
        fork = self.forks.pop(snapshot.sha256, None)
        if fork is not None:
            fork.close()


class Replayer:
    """Replays call lists on one environment; safe to use from many threads."""

    def __init__(self, env: Environment, forks: Callable[[], _Forks]) -> None:
        self.env = env
        self._forks = forks

    def run(self, calls: Iterable[tuple[str, Any]], setup: Iterable[tuple[str, Any]] = ()) -> ReplayResult:
        """Run the calls in order on a pristine fork and return what they did; the fork is then reset.

        ``setup`` calls (a turn-level task's earlier turns) run first and are not reported: the
        status, values and touched rows are the calls', and the diff is what the calls changed
        on top of the state the setup left (``state.changelog.relative_diff``)."""
        forks = self._forks()
        episode = Episode({})  # only the domains a call reaches get a (thread-private) fork
        status: list[bool] = []
        values: list[Any] = []
        touched: list[list[tuple[str, str, str]]] = []
        seen: dict[str, int] = {}  # domain -> the change table's last rowid read (forks start empty)
        try:
            base = self._setup(episode, forks, setup, seen)
            for name, args in calls:
                spec = self._enter(episode, forks, name)
                ok, value = self._call(episode, name, args)
                status.append(ok)
                values.append(value)
                if ok and spec is not None and not spec.read_only:
                    touched.append(self._touched(episode.forks[spec.domain], spec.domain, seen))
                else:
                    touched.append([])
            diff = episode.diff() if base is None else changelog.relative_diff(base, episode.diff())
        finally:
            self._rollback(episode, forks)
        return ReplayResult(status, values, diff, touched)

    def _setup(
        self, episode: Episode, forks: _Forks, setup: Iterable[tuple[str, Any]], seen: dict[str, int]
    ) -> list[dict[str, Any]] | None:
        """Apply the setup calls; the diff they leave (None when there were none)."""
        ran = False
        for name, args in setup:
            ran = True
            self._enter(episode, forks, name)
            ok, value = self._call(episode, name, args)
            if not ok:
                raise TaskError(
                    f"setup call {name} failed on the task's snapshot: {value}",
                    [{"loc": ["task", "setup"], "msg": f"{name} failed"}],
                )
        if not ran:
            return None
        for domain, fork in episode.forks.items():
            self._touched(fork, domain, seen)  # later calls are credited only with rows they touch
        return episode.diff()

    def _enter(self, episode: Episode, forks: _Forks, name: Any) -> ToolSpec | None:
        """The call's tool, with this thread's fork of its domain opened inside a transaction."""
        spec = self.env.tools.get(name) if isinstance(name, str) else None
        if spec is not None and spec.domain not in episode.forks:
            fork = forks.fork(self.env.snapshots()[spec.domain])
            with fork.reading() as conn:
                conn.execute("BEGIN")
            episode.forks[spec.domain] = fork
        return spec

    def _call(self, episode: Episode, name: Any, args: Any) -> tuple[bool, Any]:
        try:
            r = self.env.call(episode, name, args)
            return r.ok, (r.value if r.ok else r.error)
        except Exception as exc:  # a tool bug must not take the reward down; it is a failed call
            return False, f"{type(exc).__name__}: {exc}"

    def _rollback(self, episode: Episode, forks: _Forks) -> None:
        snapshots = self.env.snapshots()
        for domain, fork in episode.forks.items():
            with fork.reading() as conn:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                dirty = changelog.touched(conn)
            if dirty:  # never expected; drop the fork rather than leak state into the next rollout
                forks.discard(snapshots[domain])

    @staticmethod
    def _touched(fork: Fork, domain: str, seen: dict[str, int]) -> list[tuple[str, str, str]]:
        """The rows the call just made touched first (one small query on the change table)."""
        with fork.reading() as conn:
            seen[domain], keys = changelog.touched_since(conn, seen.get(domain, 0))
        return [(domain, table, pk) for table, pk in keys]


_Key = tuple[tuple[str, ...], int, str, tuple[tuple[str, str], ...]]


def _idents(key: _Key) -> set[Ident]:
    names, seed, scale, variants = key
    by_domain = dict(variants)
    return {(name, seed, scale, by_domain.get(name)) for name in names}


class EnvPool:
    """Environments per (domains, seed, scale), built once and verified against the task's sha256.

    An environment is light (its snapshots are the cache's, shared); the forks replays run on are
    per thread and per snapshot (see :class:`_Forks`). Both are bounded, and so are the worlds
    (snapshots) tasks make the pool build: ``max_worlds`` and ``max_world_bytes`` cap the ones it
    did not start with (least recently used dropped first), a sha256 that cannot match is refused
    before building, and ``build=False`` serves only the worlds of Environments given to
    :meth:`add` (:mod:`rewards.worlds`). A long-lived reward service scoring tasks over ever new
    seeds and distractor combinations so stays at a bounded size.
    """

    def __init__(
        self,
        cache: SnapshotCache | None = None,
        *,
        max_envs: int = 256,
        forks_per_thread: int = 24,
        max_worlds: int = DEFAULT_MAX_WORLDS,
        max_world_bytes: int = DEFAULT_MAX_WORLD_BYTES,
        build: bool = True,
    ) -> None:
        self.cache = cache
        self.max_envs = max_envs
        self.forks_per_thread = forks_per_thread
        self.worlds = WorldBudget(max_worlds=max_worlds, max_bytes=max_world_bytes, build=build)
        self._replayers: OrderedDict[_Key, Replayer] = OrderedDict()
        self._lock = threading.Lock()
        self._local = threading.local()
        self._dropped: set[str] = set()  # sha256s of dropped worlds whose forks threads must close
        self._epoch = 0  # bumped on every drop, so threads look at _dropped only after one

    def forks(self) -> _Forks:
        """This thread's forks, less those of worlds dropped since the thread last looked."""
        forks = getattr(self._local, "forks", None)
        if forks is None:
            forks = self._local.forks = _Forks(self.forks_per_thread)
        if forks.epoch != self._epoch:
            for sha in [s for s in forks.forks if s in self._dropped]:
                forks.forks.pop(sha).close()
            forks.epoch = self._epoch
        return forks

    def __len__(self) -> int:
        return len(self._replayers)

    def _keep(self, key: _Key, make: Callable[[], Environment]) -> Replayer:
        with self._lock:
            rep = self._replayers.get(key)
            if rep is not None:
                self._replayers.move_to_end(key)
                return rep
        rep = Replayer(make(), self.forks)  # built outside the lock: a first snapshot build takes seconds
        with self._lock:
            rep = self._replayers.setdefault(key, rep)
            self._replayers.move_to_end(key)
            while len(self._replayers) > self.max_envs:
                self._replayers.popitem(last=False)
        return rep

    def add(self, env: Environment) -> Replayer:
        """Reuse an Environment that already exists (tests, the generator's own process); its
        worlds are started ones: served with ``build=False`` and never dropped."""
        key = (tuple(sorted(d.name for d in env.domains)), env.seed, env.scale, tuple(env.variants.items()))
        snaps = env.snapshots()
        with self._lock:
            self.worlds.start(snaps.values())
        return self._keep(key, lambda: env)

    def preload(self, domains: Sequence[str], seed: int, scale: str) -> Replayer:
        """Build (or load from the cache) a world at start-up (``reward-serve --world``)."""
        names = tuple(sorted(domains))
        return self.add(self._build((names, seed, scale, ())))

    def replayer(self, snapshots: tuple[SnapshotRef, ...]) -> Replayer:
        """The replayer for a task's snapshots; raises SnapshotMismatch when the bytes differ, and
        TaskError when the worlds cannot be served (see :mod:`rewards.worlds`)."""
        seeds = {(s.seed, s.scale) for s in snapshots}
        if len(seeds) != 1:
            raise TaskError(
                f"all snapshots of a task must share one seed and scale, got {sorted(seeds)}",
                [{"loc": ["task", "snapshots"], "msg": "mixed seeds or scales"}],
            )
        with self._lock:
            self.worlds.check(snapshots)
        seed, scale = seeds.pop()
        variants = tuple(sorted((s.domain, s.variant) for s in snapshots if s.variant is not None))
        key = (tuple(sorted(s.domain for s in snapshots)), seed, scale, variants)
        rep = self._keep(key, lambda: self._build(key))
        built = rep.env.snapshots()
        with self._lock:
            self.worlds.record(built.values())
            self._dropped.difference_update(snap.sha256 for snap in built.values())
            try:
                self._drop(self.worlds.use(built.values()))
            except WorldsTooBig as exc:
                self._drop(exc.dropped)
                raise
        for s in snapshots:
            if built[s.domain].sha256 != s.sha256:
                raise mismatch(s, built[s.domain].sha256)
        return rep

    def world_health(self) -> dict[str, Any]:
        """The worlds held, for ``/health``: started, on demand (with bytes) and the caps."""
        with self._lock:
            return self.worlds.health()

    def _drop(self, idents: list[Ident]) -> None:
        """Forget dropped worlds: their environments, the cache's copy, and (lazily) the forks.

        Called with the lock held."""
        if not idents:
            return
        gone = set(idents)
        for key in [k for k in self._replayers if gone & _idents(k)]:
            snaps = self._replayers.pop(key).env.snapshots()
            for snap in snaps.values():
                if ident_of(snap) in gone:
                    self._dropped.add(snap.sha256)
        cache = self.cache or default_cache()
        held = self.worlds.started.keys() | self.worlds.on_demand.keys()
        for domain, seed, scale, variant in gone:
            cache.forget(domain, seed, scale, variant)
            if variant is not None and (domain, seed, scale, None) not in held:
                cache.forget(domain, seed, scale)  # the base a variant is derived from came in with it
        self._epoch += 1

    def _build(self, key: _Key) -> Environment:
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
