"""Generation rate per domain: validated tasks per second of one domain at a time, side by side.

Run:  .venv/bin/python bench/bench_generate_per_domain.py [--n 400] [--scale medium] [--domains all] [--repeat 1]

Each domain gets its own ``Generator`` (single process, warm snapshot cache, start-up excluded) so
the rows compare domains under the same machine load; banking is the baseline the ratio column
divides by. Rejections are per gate, as ``toolground generate`` counts them. On a shared machine
``--repeat 3`` runs every domain three times, round after round, and keeps each one's best rate
(a run is deterministic, so only the wall time differs between repeats).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from querygen.generate import GenConfig, Generator
from servers.registry import parse_domains


def rate(domain: str, n: int, scale: str, seed: int) -> tuple[float, int, int, dict[str, int], float]:
    """(tasks/s of wall time, kept, attempts, rejections, CPU ms per kept task)."""
    gen = Generator(GenConfig(domains=(domain,), n=n, seed=seed, scale=scale))
    start, cpu = time.perf_counter(), time.process_time()
    tasks, stats = gen.run(workers=1)
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    rejected = {k: v for k, v in stats.as_dict()["rejected"].items() if v}
    return len(tasks) / wall, len(tasks), stats.attempts, rejected, cpu / len(tasks) * 1000


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=400)
    ap.add_argument("--scale", default="medium")
    ap.add_argument("--domains", default="all")
    ap.add_argument("--repeat", type=int, default=1, help="runs per domain; the best rate is shown")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    names = [d.name for d in parse_domains(args.domains)]
    best_of = f", best of {args.repeat}" if args.repeat > 1 else ""
    print(
        f"machine: {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}; scale {args.scale}, n={args.n}{best_of}\n"
    )
    best: dict[str, tuple[float, int, int, dict[str, int], float]] = {}
    for _ in range(args.repeat):
        for name in names:
            run = rate(name, args.n, args.scale, args.seed)
            if name not in best or run[0] > best[name][0]:
                best[name] = run
    # CPU per kept task moves less than wall time when other jobs share the machine
    print(
        "| domain | validated tasks/s (1 process) | / banking | CPU ms per kept task | kept / attempts | rejections |"
    )
    print("|---|---:|---:|---:|---:|---|")
    base = None
    for name in names:
        tps, kept, attempts, rejected, cpu_ms = best[name]
        base = base or (tps if name == "banking" else None)
        ratio = f"{tps / base:.2f}x" if base else "n/a"
        shown = ", ".join(f"{k} {v}" for k, v in rejected.items())
        print(f"| {name} | {tps:.0f} | {ratio} | {cpu_ms:.1f} | {kept} / {attempts} | {shown} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
