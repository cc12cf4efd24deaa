"""What the eval loop itself costs per episode, beside doing the same work without it.

    .venv/bin/python bench/bench_eval.py            # 300 tasks of all domains, 3 rounds
    .venv/bin/python bench/bench_eval.py --quick    # 120 tasks, 1 round

The policy is instant (``rollout.scripted.ScriptedPolicy`` playing the gold calls), so every
second measured is the harness's: rendering the request, parsing the reply, running the calls on a
private fork, scoring with per-call labels. Side by side in one process, alternating each round:

- ``direct``: the floor — for each task open a TaskEpisode, make the gold calls, score the
  reference conversation and read its labels. No model protocol at all.
- ``loop/<harness>``: ``rollout.run.run_eval`` with the in-process policy under each harness.
- ``http/openai``: the same loop talking to the scripted policy served by uvicorn in another
  process on 127.0.0.1 (what a local vLLM adds beyond its own compute: the HTTP round trip per
  step, both ends' JSON included), through our HTTP/1.1 client and (``http+httpx``) through httpx.

Printed: episodes/s, ms per episode and per model step, and the ratio to ``direct``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from contract.messages import messages  # noqa: E402
from querygen.generate import GenConfig, Generator  # noqa: E402
from querygen.out.export import write_dataset  # noqa: E402
from rewards import score  # noqa: E402
from rewards.replay import EnvPool  # noqa: E402
from rollout.episode import TaskEpisode  # noqa: E402
from rollout.model import ModelClient  # noqa: E402
from rollout.run import EvalSpec, run_eval  # noqa: E402
from rollout.scripted import ScriptedPolicy  # noqa: E402
from servers.registry import parse_domains  # noqa: E402
from tests.serving import free_port  # noqa: E402


def direct(tasks, pool: EnvPool) -> None:
    for task in tasks:
        with TaskEpisode(task, pool=pool) as ep:
            for call in task.gold_calls():
                ep.call(call.name, call.arguments)
            ep.state_matches()
            score(task, messages(task), pool=pool).details  # noqa: B018 - the labels are part of the work


def loop(tasks, pool: EnvPool, harness: str, policy) -> int:
    with tempfile.TemporaryDirectory() as out:
        spec = EvalSpec(tasks, Path(out), harness=harness, concurrency=8, pool=pool)
        rows = asyncio.run(run_eval(spec, policy))
    assert all(r["status"] == "ok" for r in rows), {r["status"] for r in rows}
    return sum(r["steps"] for r in rows)


def http_loop(tasks, pool: EnvPool, url: str, transport: str = "auto") -> int:
    policy = ModelClient(url, "gold@openai", transport=transport)

    async def main() -> int:
        try:
            with tempfile.TemporaryDirectory() as out:
                rows = await run_eval(EvalSpec(tasks, Path(out), concurrency=8, pool=pool), policy)
            return sum(r["steps"] for r in rows)
        finally:
            await policy.aclose()

    return asyncio.run(main())


@contextmanager
def scripted_server(tasks, folder: Path) -> Iterator[str]:
    """The scripted policy served by uvicorn in its own process (as a local vLLM would be)."""
    write_dataset(folder, tasks, ["jsonl"])
    port = free_port()
    cmd = [sys.executable, "-m", "rollout.scripted", str(folder), "--port", str(port)]
    proc = subprocess.Popen(cmd, cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)})
    url = f"http://127.0.0.1:{port}/v1"
    try:
        for _ in range(300):
            try:
                httpx.post(url + "/chat/completions", json={"messages": []}, timeout=1.0)
                break
            except httpx.TransportError:
                time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        proc.wait(10)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    n, rounds = (120, 1) if args.quick else (300, 3)
    names = tuple(d.name for d in parse_domains("all"))
    tasks, _ = Generator(GenConfig(domains=names, n=n, seed=21, scale="small")).run()
    pool = EnvPool()
    direct(tasks, pool)  # warm: snapshots loaded, environments verified
    times: dict[str, list[float]] = {}
    steps: dict[str, int] = {}
    with tempfile.TemporaryDirectory() as data, scripted_server(tasks, Path(data)) as url:
        runs = {
            "direct": lambda: direct(tasks, pool),
            **{
                f"loop/{h}": (lambda h=h: loop(tasks, pool, h, ScriptedPolicy(tasks, "gold", h)))
                for h in ("openai", "hermes", "react")
            },
            "http/openai": lambda: http_loop(tasks, pool, url),
            "http+httpx": lambda: http_loop(tasks, pool, url, "httpx"),
        }
        for r in range(rounds):
            order = list(runs) if r % 2 == 0 else list(reversed(runs))
            for name in order:
                t = time.perf_counter()
                got = runs[name]()
                times.setdefault(name, []).append(time.perf_counter() - t)
                if isinstance(got, int):
                    steps[name] = got
    base = statistics.median(times["direct"])
    print(
        f"{len(tasks)} tasks of {len(names)} domains, {sum(len(t.gold_calls()) for t in tasks)} gold calls, {rounds} rounds (medians)"
    )
    print(f"{'run':14s} {'episodes/s':>10s} {'ms/episode':>10s} {'ms/step':>8s} {'x direct':>8s}")
    for name, ts in times.items():
        med = statistics.median(ts)
        per_step = f"{1000 * med / steps[name]:8.2f}" if name in steps else f"{'-':>8s}"
        print(
            f"{name:14s} {len(tasks) / med:10.1f} {1000 * med / len(tasks):10.2f} {per_step} {med / base:8.2f}"
        )


if __name__ == "__main__":
    main()
