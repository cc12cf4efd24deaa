"""Every domain in one run: tools, rows per scale, snapshot size, fork latency, memory per session,
generation rate; then the all-domain generation run (``--n`` tasks, default workers) and its tool coverage.

    .venv/bin/python bench/bench_domains.py                      # all scales; large builds take a while
    .venv/bin/python bench/bench_domains.py --scales small,medium --n-domain 200 --n 2000

Per domain, at medium unless said: agent tools (discovery tools apart), rows of every scale, snapshot
bytes, p50 of a fork (new session + first write + a read, as ``bench_fork.py``), the SQLite
pages a live fork holds (32 of them, one write each), and generation in one process (``Generator`` for that
domain alone, start-up excluded): kept tasks per second, CPU ms per kept task, kept / attempts.
The last part is what ``toolground generate --domains all --n N`` does, timed from the first
attempt to the last kept task (start-up apart), with the list of tools no kept task calls.
Results also go to ``bench/results/domains.json``.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from rich.progress import Progress  # noqa: E402

from querygen.generate import GenConfig, Generator  # noqa: E402
from servers.kit import Domain  # noqa: E402
from servers.registry import available, get_domain  # noqa: E402
from state import Fork, SnapshotCache  # noqa: E402
from state.hashing import user_tables  # noqa: E402

DISCOVERY = {"list_records", "search_records", "get_unique_values"}


def rows_and_size(domain: Domain, scale: str, root: Path | None) -> tuple[int, int]:
    cache = SnapshotCache(root)  # a private cache: its in-memory copy goes when this returns
    snap = domain.snapshot(0, scale, cache)
    conn = snap.connect()
    rows = sum(conn.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0] for t in user_tables(conn))
    conn.close()
    return rows, snap.size


def fork_and_memory(domain: Domain, forks: int = 60, live: int = 32) -> tuple[float, float]:
    """(fork p50 ms, bytes of SQLite pages a live fork holds) at medium.

    Pages, not an RSS delta: in a process that has already built and freed twenty snapshots, new
    forks land in memory the allocator kept, so RSS often does not move at all."""
    snap = domain.snapshot(0, "medium")
    conn = snap.connect()
    table = next(
        t for t in user_tables(conn) if t != "_meta" and conn.execute(f'SELECT 1 FROM "{t}"').fetchone()
    )
    conn.close()
    touch = f'UPDATE "{table}" SET rowid = rowid WHERE rowid = (SELECT min(rowid) FROM "{table}")'
    read = f'SELECT * FROM "{table}" LIMIT 1'

    def fork() -> Fork:
        s = Fork(snap)
        s.run(lambda c: c.execute(touch), writes=True)
        s.run(lambda c: c.execute(read).fetchone(), writes=False)
        return s

    fork().close()
    sessions = [fork() for _ in range(live)]
    per_session = sum(s.memory_bytes() for s in sessions) / live
    for s in sessions:
        s.close()
    times = []
    for _ in range(forks):
        t = time.perf_counter()
        s = fork()
        times.append(time.perf_counter() - t)
        s.close()
    return 1e3 * statistics.median(times), per_session


def generation(domain: str, n: int, seed: int) -> dict[str, float]:
    gen = Generator(GenConfig(domains=(domain,), n=n, seed=seed))
    wall, cpu = time.perf_counter(), time.process_time()
    tasks, stats = gen.run(workers=1)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return {
        "rate": len(tasks) / wall,
        "cpu_ms": 1e3 * cpu / max(1, len(tasks)),
        "kept": len(tasks),
        "attempts": stats.attempts,
    }


def all_domains(n: int, seed: int) -> dict[str, Any]:
    """The issue's run: every domain, ``n`` tasks, the CLI's default worker count."""
    workers = 2 if n >= 1000 and (os.cpu_count() or 1) >= 2 else 1
    gen = Generator(GenConfig(domains=tuple(available()), n=n, seed=seed))
    wall, cpu = time.perf_counter(), time.process_time()
    tasks, stats = gen.run(workers=workers)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    used = {c.name for t in tasks for c in t.gold_calls()}
    tools = {
        s.qualified_name
        for d in available()
        for s in get_domain(d).visible_tools()
        if s.name not in DISCOVERY
    }
    return {
        "n": n,
        "workers": workers,
        "kept": len(tasks),
        "attempts": stats.attempts,
        "seconds": wall,
        "rate": len(tasks) / wall,
        "parent_cpu_s": cpu,
        "tools": len(tools),
        "unused_tools": sorted(tools - used),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scales", default="small,medium,large")
    ap.add_argument("--n-domain", type=int, default=300, help="tasks per domain for the per-domain rate")
    ap.add_argument("--n", type=int, default=5000, help="tasks of the all-domain run (0: skip it)")
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--domains", default="all", help="comma list for the per-domain rows (default: all)")
    args = ap.parse_args()
    names = available() if args.domains == "all" else args.domains.split(",")
    scales = args.scales.split(",")
    root = Path(os.environ["TOOLGROUND_CACHE"]) if os.environ.get("TOOLGROUND_CACHE") else None
    out: list[dict[str, Any]] = []
    with Progress() as progress:
        job = progress.add_task("domains", total=len(names))
        for name in names:
            d = get_domain(name)
            progress.update(job, description=f"{name}: snapshots")
            sizes = {s: rows_and_size(d, s, root) for s in scales}
            progress.update(job, description=f"{name}: forks")
            fork_ms, per_session = fork_and_memory(d)
            progress.update(job, description=f"{name}: generation")
            gen = generation(name, args.n_domain, args.seed)
            tools = [s for s in d.visible_tools() if s.name not in DISCOVERY]
            out.append(
                {
                    "domain": name,
                    "tools": len(tools),
                    "rows": {s: r for s, (r, _) in sizes.items()},
                    "bytes": {s: b for s, (_, b) in sizes.items()},
                    "fork_p50_ms": fork_ms,
                    "bytes_per_session": per_session,
                    **gen,
                }
            )
            gc.collect()
            progress.advance(job)
    whole = all_domains(args.n, args.seed) if args.n else None
    (REPO / "bench" / "results").mkdir(exist_ok=True)
    (REPO / "bench" / "results" / "domains.json").write_text(
        json.dumps({"domains": out, "all": whole}, indent=1)
    )
    print(report(out, scales, whole))


def report(out: list[dict[str, Any]], scales: list[str], whole: dict[str, Any] | None) -> str:
    head = " / ".join(scales)
    lines = [
        f"| domain | tools | rows {head} | snapshot MB {head} | fork p50 ms | MiB per session (SQLite pages) | "
        "tasks/s (1 process) | CPU ms per kept task | kept / attempts |",
        "|---|---:|---|---|---:|---:|---:|---:|---:|",
    ]
    for r in out:
        rows = " / ".join(f"{r['rows'][s]:,}" for s in scales)
        mb = " / ".join(f"{r['bytes'][s] / 1e6:.1f}" for s in scales)
        lines.append(
            f"| {r['domain']} | {r['tools']} | {rows} | {mb} | {r['fork_p50_ms']:.2f} | "
            f"{r['bytes_per_session'] / 2**20:.2f} | {r['rate']:.0f} | {r['cpu_ms']:.1f} | {r['kept']} / {r['attempts']} |"
        )
    total = sum(r["tools"] for r in out)
    mean_cpu = statistics.mean(r["cpu_ms"] for r in out)
    lines.append(f"| **all {len(out)}** | **{total}** | | | | | | mean {mean_cpu:.1f} | |")
    if whole:
        lines += [
            "",
            f"All domains, `--n {whole['n']}`, {whole['workers']} workers: {whole['kept']:,} kept of "
            f"{whole['attempts']:,} attempts in {whole['seconds']:.1f} s = **{whole['rate']:.0f} validated tasks/s** "
            f"(start-up excluded); {whole['tools'] - len(whole['unused_tools'])} of {whole['tools']} tools "
            f"called by a kept task; unused: {', '.join(whole['unused_tools']) or 'none'}.",
        ]
    return "\n".join(lines)


if __name__ == "__main__":
    main()
