"""All-domain generation throughput with the default workers, beside a baseline checkout.

Run:  .venv/bin/python bench/bench_throughput.py [--n 5000] [--rounds 2] [--ref /path/to/old/checkout]

Each measurement is ``toolground generate --domains all --n N`` minus the file writing: a fresh
process builds the ``Generator`` (start-up: imports, snapshots, every domain's kit), then runs it
with the workers the CLI picks by default. Printed per run: start-up seconds, generation seconds
(first attempt to the N-th kept task), validated tasks/s of generation alone and end to end, and
CPU ms per kept task (parent and workers). ``--ref`` runs the same child in another checkout
(e.g. a ``git worktree`` of an older commit), alternating round by round with this tree so both
see the same machine load; the last column divides each run's generation rate by the mean of
the baseline's.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

CHILD = r"""
import json, os, resource, sys, time
t0 = time.perf_counter()
sys.path.insert(0, os.getcwd())
from querygen.generate import GenConfig, Generator
n, seed = int(sys.argv[1]), int(sys.argv[2])
gen = Generator(GenConfig(domains=("all",), n=n, seed=seed))
t1 = time.perf_counter()
workers = min(2, os.cpu_count() or 1) if n >= 1000 else 1  # the CLI's default
tasks, stats = gen.run(workers=workers)
t2 = time.perf_counter()
me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
cpu = me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime
print(json.dumps({"kept": len(tasks), "attempts": stats.attempts, "startup": t1 - t0,
                  "generation": t2 - t1, "cpu": cpu, "workers": workers}))
"""


def measure(tree: Path, n: int, seed: int) -> dict[str, float]:
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(n), str(seed)],
        cwd=tree,
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(tree)},
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--ref", type=Path, help="a checkout to compare with (run alternately)")
    args = ap.parse_args()
    trees = [("this tree", REPO)] + ([("ref " + args.ref.name, args.ref.resolve())] if args.ref else [])
    print(f"machine: {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}; all domains, n={args.n}\n")
    runs: list[tuple[str, int, dict[str, float]]] = []
    for r in range(1, args.rounds + 1):
        for label, tree in trees if r % 2 else trees[::-1]:
            runs.append((label, r, measure(tree, args.n, args.seed)))
    rate = {label: [m["kept"] / m["generation"] for lab, _, m in runs if lab == label] for label, _ in trees}
    base = statistics.mean(rate[trees[-1][0]])
    print(
        "| tree | round | workers | start-up s | generation s | tasks/s (generation) "
        "| tasks/s (end to end) | CPU ms per kept task (all processes, start-up too) | kept / attempts | vs baseline |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for label, r, m in runs:
        gen_rate = m["kept"] / m["generation"]
        e2e = m["kept"] / (m["startup"] + m["generation"])
        print(
            f"| {label} | {r} | {m['workers']} | {m['startup']:.1f} | {m['generation']:.1f} | {gen_rate:.0f} "
            f"| {e2e:.0f} | {m['cpu'] / m['kept'] * 1000:.1f} | {m['kept']} / {m['attempts']} "
            f"| {gen_rate / base:.2f}x |"
        )
    print(f"\nload at end: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
