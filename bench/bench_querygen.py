"""Query generator benchmark: validated tasks per second offline, and grounded vs ungrounded failures.

Run:  .venv/bin/python bench/bench_querygen.py [--n 2000] [--scale medium] [--workers 1,2] [--repeats 3]

It prints a markdown table for BENCHMARKS.md:

* throughput — kept (fully validated) tasks per wall-clock second of ``Generator.run`` (the
  snapshot cache is warm; start-up is reported separately), median of ``--repeats`` runs, for
  each worker count; plus tasks per CPU-second of the parent for the single-process run, which
  is less sensitive to other load on the machine;
* failure share — an ungrounded baseline (same chains and templates, arguments from Faker without
  reading state) executes its gold calls on a fork; the share of its tasks with a failing call is
  shown next to ours, measured by replaying every kept task's gold calls on a brand-new fork.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

# this checkout's code, not whichever one the virtualenv installed
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.baseline import run_baseline
from querygen.generate import GenConfig, Generator
from servers.registry import available


def throughput(cfg: GenConfig, workers: int, repeats: int) -> dict[str, float]:
    walls, cpus, inits = [], [], []
    for _ in range(repeats):
        t0 = time.perf_counter()
        gen = Generator(cfg)
        inits.append(time.perf_counter() - t0)
        t1, c1 = time.perf_counter(), time.process_time()
        tasks, _ = gen.run(workers=workers)
        walls.append(len(tasks) / (time.perf_counter() - t1))
        cpus.append(len(tasks) / max(time.process_time() - c1, 1e-9))
    return {
        "wall": statistics.median(walls),
        "cpu": statistics.median(cpus),
        "init": statistics.median(inits),
    }


def grounded_failures(cfg: GenConfig) -> tuple[int, int]:
    """(tasks with a failing gold call, tasks) for our generator, replayed on brand-new forks."""
    gen = Generator(cfg)
    tasks, _ = gen.run()
    failed = 0
    for task in tasks:
        ep = gen.env.open()
        failed += any(not gen.env.call(ep, c.name, c.arguments).ok for c in task.gold_calls())
        ep.close()
    return failed, len(tasks)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=2000)
    ap.add_argument("--scale", default="medium")
    ap.add_argument("--domains", default=",".join(available()))
    ap.add_argument("--workers", default="1,2")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--baseline-n", type=int, default=2000)
    args = ap.parse_args()
    cfg = GenConfig(domains=tuple(args.domains.split(",")), n=args.n, seed=1, scale=args.scale)
    Generator(cfg)  # build or load the snapshots once, so runs measure generation only
    load = os.getloadavg()[0]
    print(f"machine: {os.cpu_count()} cores, load average {load:.2f} at start; domains {args.domains}, "
          f"scale {args.scale}, n={args.n}\n")  # fmt: skip
    print("| workers | validated tasks/s (wall) | tasks per CPU-second (parent) | start-up s | 13.5K tasks |")
    print("|---|---|---|---|---|")
    for w in [int(x) for x in args.workers.split(",")]:
        r = throughput(cfg, w, args.repeats)
        eta = 13_500 / r["wall"]
        cpu = f"{r['cpu']:.0f}" if w == 1 else "n/a (work is in the workers)"
        print(f"| {w} | {r['wall']:.0f} | {cpu} | {r['init']:.1f} | {eta:.0f} s |")
    report = run_baseline(Generator(cfg), args.baseline_n, seed=1)
    failed, total = grounded_failures(
        GenConfig(domains=cfg.domains, n=min(args.n, 2000), seed=2, scale=args.scale)
    )
    print("\n| generator | tasks | tasks with a failing gold call | share |")
    print("|---|---|---|---|")
    print(
        f"| ungrounded baseline (Faker arguments) | {report.tasks} | {report.failed_tasks} | {report.failure_share:.1%} |"
    )
    print(f"| toolground (live-state grounded) | {total} | {failed} | {failed / max(total, 1):.1%} |")
    print(
        f"\nbaseline failing calls: {report.failed_calls}/{report.calls}; top errors: {report.as_dict()['top_errors']}"
    )
    print(f"load average at end: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
