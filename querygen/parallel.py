"""Attempts spread over worker processes, consumed in attempt order, so output bytes never change.

An attempt depends only on the configuration and its index (see :mod:`querygen.generate`), so
workers can compute attempts ``k..k+15`` in any order while the parent reads outcomes strictly in
index order, deduplicates and counts them. Whatever worker count is used, the kept tasks are the
same. On Linux workers are forked from the parent's ready generator; elsewhere they are spawned
and each builds its own from the on-disk snapshot cache, with the factory the generator gives
(:meth:`Attempting.rebuild`): this module never imports :mod:`querygen.generate`, which calls it.
"""

from __future__ import annotations

import gc
import multiprocessing as mp
import sys
from collections import deque
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Protocol

from contract.task import Task
from querygen.gates import Dedup
from querygen.knobs import ToolOffer
from state import SnapshotCache

Outcome = tuple[Any, str | None, str, str, Any, Any]  # task, gate, domain, kind, dedup keys, tools


class Attempting(Protocol):
    """What the workers ask of the generator (:class:`querygen.generate.Generator`)."""

    cache: SnapshotCache | None
    offer: ToolOffer

    def attempt(self, k: int, keep_rejected: bool = False) -> tuple[Task | None, str | None, str, str]: ...

    def rebuild(self) -> Callable[[SnapshotCache | None], Attempting]:
        """A picklable factory that builds the same generator over a snapshot cache (spawned workers)."""
        ...


CHUNK = 16
# Linux forks workers from the parent's generator. Its SQLite databases are private in-memory
# copies with no files behind them, and a child touches only its own copy (never the console or a
# lock the parent's progress thread may hold), so it is as good as a generator the child built
# itself, and 2-3 s sooner. Elsewhere fork is unsafe (macOS system libraries), so workers are
# spawned and build their own from the snapshot cache.
FORK = sys.platform.startswith("linux")
_WORKER: Attempting | None = None


def _init(make: Callable[[SnapshotCache | None], Attempting], cache_root: str | None) -> None:
    global _WORKER
    _WORKER = make(SnapshotCache(cache_root) if cache_root else None)


def _outcome(gen: Attempting, k: int) -> Outcome:
    """An attempt plus its dedup keys, so the parent only looks them up; the offered tools
    travel as references to the schemas the parent already holds (``ToolOffer.refs``)."""
    task, gate, domain, kind = gen.attempt(k)
    if task is None:
        return task, gate, domain, kind, None, None
    keys, tools = Dedup.keys(task), gen.offer.refs(task.tools)
    task.tools = []
    return task, gate, domain, kind, keys, tools


def _work(span: tuple[int, int]) -> list[Outcome]:
    assert _WORKER is not None
    return [_outcome(_WORKER, k) for k in range(*span)]


def cache_root(cache: SnapshotCache | None) -> str | None:
    """The directory a worker needs to open the same snapshot cache."""
    return None if cache is None else str(Path(cache.root).parent)


def outcomes(gen: Attempting, workers: int) -> Iterator[Outcome]:
    """Outcomes of attempts 0, 1, 2, ... in order; stop iterating (close) to stop the workers.

    The generator's ~250k long-lived objects are kept out of the garbage collector's sight
    meanwhile: a full collection walked all of them (~150 ms, several times a run) and, in a
    forked worker, copied every page it touched."""
    gc.freeze()
    try:
        yield from _outcomes(gen, workers)
    finally:
        gc.unfreeze()


def _outcomes(gen: Attempting, workers: int) -> Iterator[Outcome]:
    if workers <= 1:
        k = 0
        while True:
            yield _outcome(gen, k)
            k += 1
    global _WORKER
    if FORK:  # workers start as copies of this warm generator: no import, no init, no warm-up
        _WORKER = gen
        pool = mp.get_context("fork").Pool(workers)
    else:
        pool = mp.get_context("spawn").Pool(workers, _init, (gen.rebuild(), cache_root(gen.cache)))
    try:
        window: deque[Any] = deque()
        start = 0
        while True:
            while len(window) < workers * 4:
                window.append(pool.apply_async(_work, ((start, start + CHUNK),)))
                start += CHUNK
            yield from window.popleft().get()
    finally:
        pool.terminate()
        pool.join()
        if FORK:
            _WORKER = None
