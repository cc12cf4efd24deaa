"""Which worlds a reward process holds, and the bounds on the ones a task made it build.

A task names its worlds by (domain, seed, scale, variant) and the sha256 they were generated
with. A world the process did not start with is built on demand (0.75 s and ~6 MB for a small
seed, ~6 s and ~100 MB of memory for a medium one), so a stream of tasks naming new seeds would
otherwise grow the process without end. :class:`WorldBudget` keeps the accounting:

* **started** worlds (those of Environments added to the pool, ``reward-serve --world``) are
  never dropped and count against no cap;
* **on-demand** worlds are capped by count and by snapshot bytes; past either cap the least
  recently used are dropped (rebuilt, or read back from the disk cache, if a task names them
  again);
* every sha256 ever seen for a world is remembered, so a task naming a sha256 that is known not
  to match is refused without building anything; one that is not 64 hex digits cannot match
  any world and is refused too;
* with ``build=False`` (``reward-serve --no-build``) only started worlds are served.

Memory counted is the snapshots' bytes; the per-thread forks replays run on add up to one copy
per scoring thread of each world in use (bounded by ``EnvPool(forks_per_thread=)``), and forks of
a dropped world are closed the next time their thread replays.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Iterable
from typing import Any

from contract.task import SnapshotRef
from rewards.errors import SnapshotMismatch, TaskError
from state import Snapshot

Ident = tuple[str, int, str, str | None]  # domain, seed, scale, variant
World = tuple[tuple[str, ...], int, str]  # what reward-serve --world names: domains, seed, scale

SHA256 = re.compile(r"[0-9a-f]{64}")
MAX_KNOWN = 100_000  # sha256s remembered (a few MB at most); the oldest are forgotten past it
DEFAULT_MAX_WORLDS = 32
DEFAULT_MAX_WORLD_BYTES = 2 << 30


def label(ident: Ident) -> str:
    """``banking:0:small`` (``:variant`` appended for a variant): how errors and /health name a world."""
    domain, seed, scale, variant = ident
    return f"{domain}:{seed}:{scale}" + (f":{variant}" if variant else "")


def parse_world(spec: str) -> World:
    """``banking,crm:0:small`` -> ((banking, crm), 0, small); ValueError naming the form allowed."""
    parts = spec.split(":")
    form = "DOMAIN[,DOMAIN...]:SEED:SCALE, e.g. banking,crm:0:small"
    if len(parts) != 3:
        raise ValueError(f"--world {spec!r}: expected {form}")
    names, seed, scale = parts
    domains = tuple(d.strip() for d in names.split(",") if d.strip())
    if not domains or not seed.strip().isdigit():
        raise ValueError(f"--world {spec!r}: expected {form} (SEED a non-negative integer)")
    return domains, int(seed), scale.strip()


def ident_of(s: SnapshotRef | Snapshot) -> Ident:
    return (s.domain, s.seed, s.scale, s.variant)


class WorldBudget:
    """The started and on-demand worlds of one pool; not thread-safe (the pool holds its lock)."""

    def __init__(self, *, max_worlds: int, max_bytes: int, build: bool) -> None:
        if max_worlds < 0 or max_bytes < 0:
            raise ValueError(f"max_worlds and max_bytes must be >= 0, got {max_worlds} and {max_bytes}")
        self.max_worlds = max_worlds
        self.max_bytes = max_bytes
        self.build = build
        self.started: dict[Ident, Snapshot] = {}
        self.on_demand: OrderedDict[Ident, Snapshot] = OrderedDict()  # least recently used first
        self.known: OrderedDict[Ident, str] = OrderedDict()  # every sha256 seen, per world
        self.loads = 0  # on-demand worlds brought into memory (built, or read from the disk cache)

    @property
    def on_demand_bytes(self) -> int:
        return sum(h.size for h in self.on_demand.values())

    def start(self, snapshots: Iterable[Snapshot]) -> None:
        """Worlds the process starts with: never dropped, never counted."""
        for snap in snapshots:
            ident = ident_of(snap)
            self.on_demand.pop(ident, None)
            self.started[ident] = snap
            self._know(ident, snap.sha256)

    def check(self, refs: Iterable[SnapshotRef]) -> None:
        """Refuse, before anything is built, a task whose worlds cannot be served as named."""
        for ref in refs:
            ident = ident_of(ref)
            if not SHA256.fullmatch(ref.sha256):
                raise TaskError(
                    f"snapshot {label(ident)}: sha256 must be 64 hex digits (lowercase), got "
                    f"{ref.sha256[:70]!r}; it cannot match any world",
                    [{"loc": ["task", "snapshots"], "msg": "malformed sha256"}],
                )
            known = self.known.get(ident)
            if known is not None and known != ref.sha256:
                raise mismatch(ref, known)
            if not self.build and ident not in self.started:
                served = ", ".join(sorted(label(i) for i in self.started)) or "none"
                raise TaskError(
                    f"world {label(ident)} is not served: this reward service was started with "
                    f"--no-build and serves only the worlds it started with ({served})",
                    [{"loc": ["task", "snapshots"], "msg": f"{label(ident)} not served"}],
                )

    def record(self, snapshots: Iterable[Snapshot]) -> None:
        """Remember the sha256s of worlds just built or loaded (whether or not the task matched)."""
        for snap in snapshots:
            self._know(ident_of(snap), snap.sha256)

    def use(self, snapshots: Iterable[Snapshot]) -> list[Ident]:
        """Mark worlds as just used; returns the on-demand worlds to drop to keep within the caps.

        Raises TaskError (after dropping them) when the worlds of this one task alone exceed a cap."""
        using: list[Ident] = []
        for snap in snapshots:
            ident = ident_of(snap)
            if ident in self.started:
                continue
            if ident in self.on_demand:
                self.on_demand.move_to_end(ident)
            else:
                self.on_demand[ident] = snap
                self.loads += 1
            using.append(ident)
        drop: list[Ident] = []
        for ident in list(self.on_demand):
            if not self._over():
                break
            if ident not in using:
                del self.on_demand[ident]
                drop.append(ident)
        if self._over():
            need = sum(self.on_demand[i].size for i in using)
            for ident in using:
                del self.on_demand[ident]
            raise _too_big(using, need, self.max_worlds, self.max_bytes, drop)
        return drop

    def health(self) -> dict[str, Any]:
        return {
            "build": self.build,
            "started": sorted(label(i) for i in self.started),
            "on_demand": len(self.on_demand),
            "on_demand_worlds": [label(i) for i in self.on_demand],
            "on_demand_bytes": self.on_demand_bytes,
            "max_worlds": self.max_worlds,
            "max_world_bytes": self.max_bytes,
            "built": self.loads,
        }

    def _over(self) -> bool:
        return len(self.on_demand) > self.max_worlds or self.on_demand_bytes > self.max_bytes

    def _know(self, ident: Ident, sha256: str) -> None:
        self.known[ident] = sha256
        self.known.move_to_end(ident)
        while len(self.known) > MAX_KNOWN:
            self.known.popitem(last=False)


class WorldsTooBig(TaskError):
    """The worlds of one task exceed the on-demand caps by themselves; carries what was dropped."""

    def __init__(self, message: str, detail: list[dict[str, Any]], dropped: list[Ident]) -> None:
        super().__init__(message, detail)
        self.dropped = dropped


def _too_big(
    using: list[Ident], need: int, max_worlds: int, max_bytes: int, drop: list[Ident]
) -> WorldsTooBig:
    names = ", ".join(label(i) for i in using)
    return WorldsTooBig(
        f"world(s) {names} need {len(using)} world(s) and {need / 2**20:.1f} MiB of memory, more than "
        f"this reward service keeps for worlds built on demand ({max_worlds} worlds, "
        f"{max_bytes / 2**20:.1f} MiB: reward-serve --max-worlds / --max-world-mb); start the service "
        "with them (--world) or raise the caps",
        [{"loc": ["task", "snapshots"], "msg": "over the on-demand world caps"}],
        [*drop, *using],
    )


def mismatch(ref: SnapshotRef, built: str) -> SnapshotMismatch:
    what = f" variant {ref.variant}" if ref.variant else ""
    return SnapshotMismatch(
        f"snapshot {ref.domain}{what} seed {ref.seed} {ref.scale} rebuilds to sha256 {built[:12]}… "
        f"but the task was generated on {ref.sha256[:12]}…; the domain's schema or seed data changed "
        "since the task was made (regenerate the tasks, or score with the matching code version)",
        [{"loc": ["task", "snapshots"], "msg": f"sha256 mismatch for {ref.domain}"}],
    )
