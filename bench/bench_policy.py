"""Policy domains: how many generated tasks a written policy gates, and what the policy term costs.

Run:  .venv/bin/python bench/bench_policy.py [--n 600] [--seed 3] [--repeat 3]

Generates ``--n`` tasks of the four policy domains (one process), then scores every task's gold
trajectory and, for forbidden tasks, the trajectory that does the forbidden write, under
``prove+outcome`` and ``prove+policy`` side by side in the same process (rounds alternate; the best
round of each is kept). Both presets replay the calls; the policy term adds reading the breach
rows and the refusals off that replay, which is what the ratio shows.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from contract.messages import messages
from querygen.generate import GenConfig, Generator
from rewards import score

DOMAINS = ("airline_service", "telecom_support", "telehealth", "code_host")


def trajectories(tasks: list) -> list[tuple[object, list[dict]]]:
    """(task, messages) pairs: every gold rollout, and each forbidden task done anyway."""
    out = [(t, messages(t)) for t in tasks]
    for t in tasks:
        policy = t.policy or {}
        if policy.get("kind") == "forbidden":
            call = policy["refused_call"]
            fn = {"name": call["name"], "arguments": json.dumps(call["arguments"])}
            done = {"role": "assistant", "tool_calls": [{"id": "c1", "type": "function", "function": fn}]}
            out.append((t, [*messages(t), done]))
    return out


def timed(pairs: list, preset: str) -> tuple[float, list[float]]:
    start = time.perf_counter()
    totals = [score(t, m, preset).total for t, m in pairs]
    return (time.perf_counter() - start) / len(pairs) * 1000, totals


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=600)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    start = time.perf_counter()
    tasks, stats = Generator(GenConfig(domains=DOMAINS, n=args.n, seed=args.seed)).run(workers=1)
    gen_s = time.perf_counter() - start
    kinds = Counter((t.policy or {}).get("kind") or "none" for t in tasks)
    pairs = trajectories(tasks)
    timed(pairs[:50], "prove+policy")  # warm the replay pool
    best: dict[str, float] = {}
    for _ in range(args.repeat):
        for preset in ("prove+outcome", "prove+policy"):
            ms, _ = timed(pairs, preset)
            best[preset] = min(best.get(preset, ms), ms)
    _, outcome = timed(pairs, "prove+outcome")
    _, policy = timed(pairs, "prove+policy")
    forbidden = [
        (o, p) for (t, m), o, p in zip(pairs, outcome, policy, strict=True) if len(m) > len(messages(t))
    ]
    gated = sum(v for k, v in kinds.items() if k != "none")
    print(
        f"{len(tasks)} kept of {stats.attempts} attempts in {gen_s:.1f} s ({len(tasks) / gen_s:.0f} tasks/s)"
    )
    print(
        f"policy-gated {gated} ({gated / len(tasks):.0%}): "
        + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items()))
    )
    print()
    print("| preset | ms per scored trajectory (best of rounds) | / prove+outcome |")
    print("|---|---:|---:|")
    for preset in ("prove+outcome", "prove+policy"):
        print(f"| {preset} | {best[preset]:.2f} | {best[preset] / best['prove+outcome']:.2f}x |")
    if forbidden:
        lower = sum(p < o for o, p in forbidden)
        mean_o = sum(o for o, _ in forbidden) / len(forbidden)
        mean_p = sum(p for _, p in forbidden) / len(forbidden)
        print()
        print(
            f"forbidden write done anyway ({len(forbidden)} trajectories): mean prove+outcome {mean_o:.3f}, "
            f"prove+policy {mean_p:.3f}; lower under prove+policy in {lower} of {len(forbidden)}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
