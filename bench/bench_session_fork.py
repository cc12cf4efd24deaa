"""Session fork benchmark: branching a medium env session that has written, beside opening a fresh one.

    .venv/bin/python bench/bench_session_fork.py                       # banking,email,airline_service / medium
    .venv/bin/python bench/bench_session_fork.py --domains banking --n 200

The session: one episode over ``--domains`` at ``--scale``, ``--writes`` rows written in each
domain (a changelog of that many keys per domain). Every row ends "ready to serve the next call
in every written domain" (one write there, then a read), so they compare like for like:

- fresh session: ``Episode(snapshots)`` + its first write per domain (each a copy of the snapshot),
  what a new env session costs to reach the same point; the baseline.
- fork (in process): ``Episode.clone()`` + the branch's first write per domain (the serialized
  bytes of the source deserialized): ``POST .../fork`` within one server, ``TaskEpisode.fork()``.
- fork, clone only: ``Episode.clone()`` alone (a ``serialize()`` per written domain); what the
  fork route spends before answering, the branch paying its memcpy on first use.
- another fork of the same state: the second and later branches of one state (a tree's fan-out)
  share the first one's ``serialize()``, so each costs its memcpy on first use only.

The source writes a row in each domain before every "fork" row's run (untimed), so those rows pay
their ``serialize()``; the fan-out row does not.
- fork across shards: ``pack`` on the source, ``unpack`` + ``open_image`` (deserialize, schema check) + ``Episode.of_states``
  + first write per domain on the target; what the two shards spend (the gateway's hop and the
  HTTP exchanges are not in it).

Memory per fork: the RSS growth of ``--live`` branches held at once, each used (one write per
domain), divided by their number; and of as many branches of one state not yet used (they share
one serialized copy of it).
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import gc
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from servers.runtime import Environment  # noqa: E402
from state import Episode, SnapshotCache  # noqa: E402
from state.transfer import open_image, pack, unpack  # noqa: E402


def rss() -> int:
    gc.collect()
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


Plan = dict[str, tuple[str, list[Any]]]  # domain -> (an UPDATE of one row by key, keys to write)


def write_plan(episode: Episode, n: int) -> Plan:
    """Per domain, ``n`` keys of its largest table and an ``UPDATE ... SET <pk> = <pk>`` of one: the
    changelog records each row written, the content stays (the copy costs the same whatever the rows
    hold). Read once, before anything is timed."""
    plan = {}
    for domain, fork in episode.forks.items():
        with fork.reading() as conn:
            names = conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\'"
            )
            tables = [r[0] for r in names]
            table = max(tables, key=lambda t: conn.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0])
            pk = next(r[1] for r in conn.execute(f'PRAGMA table_info("{table}")') if r[5] == 1)
            keys = [r[0] for r in conn.execute(f'SELECT "{pk}" FROM "{table}" LIMIT ?', (n,))]
        plan[domain] = (f'UPDATE "{table}" SET "{pk}" = "{pk}" WHERE "{pk}" = ?', keys)
    return plan


def write(episode: Episode, plan: Plan, *, rows: int | None = None) -> None:
    for domain, (sql, keys) in plan.items():
        chosen = keys if rows is None else keys[-rows:]
        episode.fork(domain).run(lambda c, s=sql, k=chosen: c.executemany(s, [(x,) for x in k]), writes=True)


def ready(episode: Episode, plan: Plan) -> Episode:
    """One write and one read in each domain: the episode serves its next call anywhere."""
    write(episode, plan, rows=1)
    for domain in plan:
        with episode.fork(domain).reading() as conn:
            conn.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchone()
    return episode


Method = Callable[[], Episode] | tuple[Callable[[], None], Callable[[], Episode]]  # fn, or (setup, fn)


def interleaved(methods: dict[str, Method], n: int) -> dict[str, list[float]]:
    """Seconds per call of each method, run in turn round after round (so a busy moment of a
    shared machine falls on every method alike); a method's setup runs untimed before it, and its
    result is closed untimed after it."""
    out: dict[str, list[float]] = {name: [] for name in methods}
    for _ in range(n):
        for name, method in methods.items():
            setup, fn = method if isinstance(method, tuple) else (None, method)
            if setup is not None:
                setup()
            gc.disable()
            t = time.perf_counter()
            result = fn()
            out[name].append(time.perf_counter() - t)
            gc.enable()
            result.close()
    return out


def measure(env: Environment, writes: int, n: int, live: int) -> dict[str, Any]:
    domains = [d.name for d in env.domains]
    snaps = env.snapshots()
    source = env.open()
    plan = write_plan(source, writes)
    write(source, plan)
    size = sum(source.fork(d).memory_bytes() for d in domains)

    def across() -> Episode:
        image = unpack(pack(source, "src"))
        states = {name: blob and open_image(snaps[name], blob) for name, blob in image.images.items()}
        return ready(Episode.of_states(snaps, states, image.calls), plan)

    def moved() -> None:  # the source writes again: its next fork serializes anew
        write(source, plan, rows=1)

    rows = interleaved(
        {
            "fresh session (first write per domain)": lambda: ready(Episode(snaps), plan),
            "fork in process (clone + first write per domain)": (moved, lambda: ready(source.clone(), plan)),
            "fork, clone only (answer before first use)": (moved, source.clone),
            "another fork of the same state (fan-out)": lambda: ready(source.clone(), plan),
            "fork across shards (pack, check, unpack, first write)": across,
        },
        n,
    )
    before = rss()
    used = [ready(source.clone(), plan) for _ in range(live)]
    per_used = (rss() - before) / live
    for ep in used:
        ep.close()
    del used
    write(source, plan, rows=1)
    before = rss()
    pending = [source.clone() for _ in range(live)]
    per_pending = (rss() - before) / live
    del pending
    return {
        "domains": domains,
        "bytes": size,
        "times": rows,
        "per_used": per_used,
        "per_pending": per_pending,
    }


def report(r: dict[str, Any], scale: str, writes: int) -> str:
    base = statistics.median(next(iter(r["times"].values())))
    lines = [
        f"**{', '.join(r['domains'])} / {scale}**, {writes} rows written per domain "
        f"(the session's private databases: {r['bytes'] / 2**20:.2f} MiB)",
        "",
        "| method | n | p50 ms | p95 ms | p50 / fresh session |",
        "|---|---:|---:|---:|---:|",
    ]
    for name, xs in r["times"].items():
        xs = sorted(xs)
        p95 = xs[min(len(xs) - 1, round(0.95 * (len(xs) - 1)))]
        med = statistics.median(xs)
        lines.append(f"| {name} | {len(xs)} | {med * 1e3:.3f} | {p95 * 1e3:.3f} | {med / base:.2f}x |")
    lines += [
        "",
        f"Memory per fork: {r['per_used'] / 2**20:.2f} MiB RSS once used (one write per domain), "
        f"{r['per_pending'] / 2**20:.2f} MiB before its first use (branches of one state share its serialized bytes).",
    ]
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--domains", default="banking,email,airline_service")
    ap.add_argument("--scale", default="medium")
    ap.add_argument("--writes", type=int, default=50, help="rows written per domain before the fork")
    ap.add_argument("--n", type=int, default=100, help="repeats per timed row")
    ap.add_argument("--live", type=int, default=40, help="branches held at once for the memory figure")
    ap.add_argument(
        "--cache", default=None, help="snapshot cache (default: $TOOLGROUND_CACHE or ~/.cache/toolground)"
    )
    args = ap.parse_args()
    env = Environment(args.domains, scale=args.scale, cache=SnapshotCache(args.cache))
    print(report(measure(env, args.writes, args.n, args.live), args.scale, args.writes))


if __name__ == "__main__":
    main()
