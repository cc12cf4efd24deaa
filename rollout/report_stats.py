"""How sure a figure is: bootstrap intervals over tasks for the mean reward and the success rate.

Two runs on a few dozen tasks differ by several points by chance alone, so ``--compare`` gives each
headline figure a 95% interval. Tasks are resampled, not rows: the repeats of one task
(``--repeats``) are not independent draws, so they are kept together (a cluster bootstrap). The
resampling is seeded, so the same rows always print the same intervals.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from rollout.report import ERRORED, Row, success_of

Interval = tuple[float, float]


def _clusters(rows: Sequence[Row]) -> list[list[Row]]:
    by: dict[str, list[Row]] = {}
    for r in rows:
        if r["status"] not in ERRORED:
            by.setdefault(str(r["task_id"]), []).append(r)
    return list(by.values())


def _reward(r: Row) -> float | None:
    return None if r.get("score") is None else float(r["score"])


def _success(r: Row) -> float | None:
    v = success_of(r)
    return None if v is None else float(v)


def bootstrap(
    rows: Sequence[Row], value: Callable[[Row], float | None], n: int = 1000, seed: int = 0
) -> Interval | None:
    """The 2.5th and 97.5th percentiles of the mean of ``value`` over tasks resampled with
    replacement (each task with all its repeats); None when no row has a value."""
    tasks = [[v for v in map(value, c) if v is not None] for c in _clusters(rows)]
    tasks = [t for t in tasks if t]
    if not tasks:
        return None
    sums = [(sum(t), len(t)) for t in tasks]
    rng = random.Random(seed)
    means = []
    for _ in range(n):
        total = count = 0.0
        for _ in range(len(sums)):
            s, c = sums[rng.randrange(len(sums))]
            total += s
            count += c
        means.append(total / count)
    means.sort()
    return means[int(0.025 * (n - 1))], means[int(0.975 * (n - 1))]


def intervals(rows: Sequence[Row]) -> dict[str, Any]:
    """``{"reward": Interval | None, "success": Interval | None}`` of one run."""
    return {"reward": bootstrap(rows, _reward), "success": bootstrap(rows, _success)}
