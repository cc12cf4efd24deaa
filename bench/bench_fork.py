"""Fork benchmark: how fast an episode gets its private world, next to the ways other systems reset.

    .venv/bin/python bench/bench_fork.py                    # banking, every scale
    .venv/bin/python bench/bench_fork.py --quick            # small + medium, fewer repeats
    .venv/bin/python bench/bench_fork.py --domains all      # every available domain

Every method ends with the same point query, so each row is "ready to serve the first call":

- toolground fork: ``Fork(snapshot)`` + first write (deserialize, changelog triggers, savepoint).
- lazy read-only episode: ``Fork(snapshot)`` + one read (served by the shared read-only connection).
- deserialize only: ``Snapshot.connect()``, the bare SQLite memcpy without the changelog.
- file copy: ``shutil.copyfile`` of the snapshot file + ``sqlite3.connect`` (one file per episode).
- rebuild from seed: ``domain.build`` (schema + Faker fill + VACUUM), what a seed-only reset costs.
- JSON load / deepcopy: an in-memory Python world (tau-bench style): ``json.loads`` of a dump of the
  same rows, or ``copy.deepcopy`` of the already-loaded rows.

Memory per live fork is the RSS delta of N copied forks (one write each) divided by N.
Numbers are medians/p95 of repeated runs in this one process; ratios are baseline p50 / fork p50.
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import ctypes
import gc
import json
import os
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from servers.kit import Domain  # noqa: E402
from servers.registry import available, get_domain  # noqa: E402
from state import Fork, Snapshot, SnapshotCache  # noqa: E402

# repeats per scale: (fast methods, JSON/deepcopy, rebuild, live sessions for memory)
REPEATS = {
    "small": (400, 20, 5, 300),
    "medium": (300, 10, 3, 150),
    "large": (60, 3, 1, 12),
}
QUICK = {
    "small": (150, 5, 2, 100),
    "medium": (100, 3, 1, 50),
    "large": (20, 1, 0, 5),
}


def timed(fn: Callable[[], Any], n: int, cleanup: Callable[[Any], None] | None = None) -> list[float]:
    """Seconds per call of ``fn``; ``cleanup`` runs on its result outside the timed region."""
    out = []
    for _ in range(n):
        gc.disable()
        t = time.perf_counter()
        result = fn()
        out.append(time.perf_counter() - t)
        gc.enable()
        if cleanup is not None:
            cleanup(result)
    return out


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(q * (len(xs) - 1)))]


def rss() -> int:
    """Resident bytes, after handing freed heap back to the OS so earlier phases do not hide growth."""
    gc.collect()
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def point_query(domain: Domain, snap: Snapshot) -> tuple[str, str]:
    """A primary-key read on the domain's first table, and an id that exists."""
    conn = snap.connect()
    try:
        table = sorted(t.__tablename__ for t in domain.tables)[0]
        key = conn.execute(f'SELECT min(id) FROM "{table}"').fetchone()[0]
    finally:
        conn.close()
    return f'SELECT * FROM "{table}" WHERE id = ?', key


def dump_rows(snap: Snapshot) -> dict[str, list[dict[str, Any]]]:
    conn = snap.connect()
    conn.row_factory = sqlite3.Row
    try:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        return {t: [dict(r) for r in conn.execute(f'SELECT * FROM "{t}"')] for t in tables}
    finally:
        conn.close()


def python_world(snap: Snapshot, n: int) -> dict[str, list[float]]:
    """The same rows as a JSON dump and as Python dicts (freed before the memory measurement)."""
    data = dump_rows(snap)
    text = json.dumps(data)
    return {
        "JSON load": timed(lambda: json.loads(text), n),
        "deepcopy of loaded rows": timed(lambda: copy.deepcopy(data), n),
    }


def bench_scale(domain: Domain, scale: str, cache: SnapshotCache, quick: bool) -> dict[str, Any]:
    n_fast, n_json, n_rebuild, n_live = (QUICK if quick else REPEATS)[scale]
    t0 = time.perf_counter()
    snap = domain.snapshot(seed=0, scale=scale, cache=cache)
    build_note = time.perf_counter() - t0
    path = cache.path_for(domain.name, 0, scale, domain.version)
    sql, key = point_query(domain, snap)
    touch = sql.replace("SELECT * FROM", "UPDATE").replace(" WHERE", " SET id = id WHERE")
    rows: dict[str, list[float]] = {}

    def fork() -> Fork:
        s = Fork(snap)
        s.run(lambda c: c.execute(touch, (key,)), writes=True)
        s.run(lambda c: c.execute(sql, (key,)).fetchone(), writes=False)
        return s

    def lazy() -> Fork:
        s = Fork(snap)
        s.run(lambda c: c.execute(sql, (key,)).fetchone(), writes=False)
        return s

    def deserialize() -> sqlite3.Connection:
        c = snap.connect()
        c.execute(sql, (key,)).fetchone()
        return c

    tmpdir = Path(tempfile.mkdtemp(prefix="forkbench-"))
    counter = iter(range(10**9))

    def file_copy() -> tuple[sqlite3.Connection, Path]:
        target = tmpdir / f"ep{next(counter)}.sqlite"
        shutil.copyfile(path, target)
        c = sqlite3.connect(target)
        c.execute(sql, (key,)).fetchone()
        return c, target

    def drop_file(r: tuple[sqlite3.Connection, Path]) -> None:
        r[0].close()
        r[1].unlink()

    # memory first, before the timing loops leave freed heap behind for the forks to reuse:
    # N live copied forks, one write each
    before = rss()
    live = [fork() for _ in range(n_live)]
    per_session = (rss() - before) / n_live
    private = sum(s.memory_bytes() for s in live) / n_live
    for s in live:
        s.close()
    del live

    rows["toolground fork (first write)"] = timed(fork, n_fast, Fork.close)
    rows["lazy read-only episode"] = timed(lazy, n_fast, Fork.close)
    rows["deserialize only"] = timed(deserialize, n_fast, sqlite3.Connection.close)
    rows["file copy + connect"] = timed(file_copy, min(n_fast, 200), drop_file)
    shutil.rmtree(tmpdir, ignore_errors=True)

    rows.update(python_world(snap, n_json))
    if n_rebuild:

        def rebuild() -> sqlite3.Connection:
            c = domain.build(seed=0, scale=scale).connect()
            c.execute(sql, (key,)).fetchone()
            return c

        rows["rebuild from seed"] = timed(rebuild, n_rebuild, sqlite3.Connection.close)

    return {
        "domain": domain.name,
        "scale": scale,
        "size": snap.size,
        "snapshot_seconds": build_note,
        "times": rows,
        "rss_per_session": per_session,
        "pages_per_session": private,
    }


def ms(x: float) -> str:
    x *= 1000
    return f"{x:.3f}" if x < 10 else f"{x:,.1f}" if x < 1000 else f"{x:,.0f}"


def report(results: list[dict[str, Any]]) -> str:
    lines = []
    for r in results:
        fork = statistics.median(r["times"]["toolground fork (first write)"])
        lines += [
            f"**{r['domain']} / {r['scale']}** (snapshot {r['size'] / 2**20:.2f} MiB)",
            "",
            "| method | n | p50 ms | p95 ms | p50 / toolground fork |",
            "|---|---:|---:|---:|---:|",
        ]
        for name, xs in r["times"].items():
            ratio = statistics.median(xs) / fork
            shown = f"{ratio:,.0f}x" if ratio >= 10 else f"{ratio:.2f}x"
            lines.append(
                f"| {name} | {len(xs)} | {ms(statistics.median(xs))} | {ms(pct(xs, 0.95))} | {shown} |"
            )
        lines.append("")
    lines += [
        "| domain / scale | snapshot MiB | RSS per live forked session MiB | SQLite pages per session MiB |",
        "|---|---:|---:|---:|",
    ]
    for r in results:
        lines.append(
            f"| {r['domain']} / {r['scale']} | {r['size'] / 2**20:.2f} | {r['rss_per_session'] / 2**20:.2f} "
            f"| {r['pages_per_session'] / 2**20:.2f} |"
        )
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small and medium only, fewer repeats")
    ap.add_argument("--domains", default="banking", help="comma list or 'all' (default: banking)")
    ap.add_argument("--scales", default=None, help="comma list (default: all; --quick: small,medium)")
    ap.add_argument("--cache", default=str(REPO / ".cache"), help="snapshot cache directory")
    args = ap.parse_args()
    names = available() if args.domains == "all" else [d.strip() for d in args.domains.split(",")]
    scales = args.scales.split(",") if args.scales else (["small", "medium"] if args.quick else list(REPEATS))
    cache = SnapshotCache(args.cache)
    results = []
    for name in names:
        domain = get_domain(name)
        for scale in scales:
            print(f"... {name} / {scale}", file=sys.stderr, flush=True)
            results.append(bench_scale(domain, scale, cache, args.quick))
    print(report(results))


if __name__ == "__main__":
    main()
