"""Reward service latency under concurrent clients: p50/p99 of ``POST /score``, side by side.

    .venv/bin/python bench/bench_reward_latency.py                          # this checkout only
    .venv/bin/python bench/bench_reward_latency.py --repo before=/path/to/old/checkout --repo after=.

Each ``--repo LABEL=PATH`` is a checkout whose ``toolground reward-serve`` is started on a free
127.0.0.1 port (``--threads 4``, one process, the same snapshot cache for all, warmed first so no
world is built while timing). ``--clients`` concurrent clients (asyncio, one keep-alive connection
each) then send ``--requests`` ``POST /score`` each: 8 banking tasks (seed 0, small; 4 reads, 4
transfers) scored with ``prove+outcome``, so every request replays its calls on the snapshot. The
checkouts take turns for ``--rounds`` rounds, in reverse order every other round (the machine
is shared: interleaving spreads the noise over all of them); the table gives each round and the pooled percentiles.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from rewards.build import task_from_calls  # noqa: E402
from servers.runtime import Environment  # noqa: E402
from state import SnapshotCache  # noqa: E402

HEADERS = {"content-type": "application/json"}


def make_bodies(cache: Path) -> list[bytes]:
    """8 /score bodies on banking seed 0 small: gold trajectories, 4 reads and 4 transfers."""
    env = Environment("banking", seed=0, scale="small", cache=SnapshotCache(cache))
    ep = env.open()
    rows = env.invoke(ep, "banking_list_records", {"table": "accounts", "field": "status", "value": "open"})
    funded = [a["id"] for a in rows["rows"] if a["balance"] > 50]
    plans: list[list[tuple[str, dict[str, Any]]]] = []
    for limit in (1, 2, 3, 5):
        plans.append([("banking_list_records", {"table": "accounts", "limit": limit})])
    for i in range(4):
        src, dst = funded[i], funded[i + 1]
        plans.append([("banking_transfer", {"source": src, "target": dst, "amount": 5.0 + i})])
    bodies = []
    for i, calls in enumerate(plans):
        task = task_from_calls(env, [(f"task {i}", calls)], task_id=f"lat{i}").model_dump(mode="json")
        traj = [{"name": n, "arguments": a} for n, a in calls]
        bodies.append(json.dumps({"task": task, "trajectory": traj, "config": "prove+outcome"}).encode())
    return bodies


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(repo: Path, cache: Path, threads: int) -> tuple[subprocess.Popen, str]:
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(repo), "TOOLGROUND_CACHE": str(cache)}
    cmd = [sys.executable, "-m", "toolground", "reward-serve", "--port", str(port), "--threads", str(threads)]
    proc = subprocess.Popen(cmd, cwd=repo, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        if proc.poll() is not None:
            raise RuntimeError(f"reward-serve in {repo} exited: {proc.stderr.read().decode()[-2000:]}")
        try:
            if httpx.get(base + "/health", timeout=2).status_code == 200:
                return proc, base
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline:
            proc.kill()
            raise RuntimeError(f"reward-serve in {repo} did not come up")
        time.sleep(0.1)


async def load(base: str, bodies: list[bytes], clients: int, requests: int) -> tuple[list[float], float]:
    """``clients`` concurrent clients, ``requests`` each; per-request seconds and the wall time."""
    latencies: list[float] = []

    async def client(k: int) -> None:
        async with httpx.AsyncClient(base_url=base, timeout=120) as c:
            for j in range(requests):
                body = bodies[(k + j) % len(bodies)]
                t0 = time.perf_counter()
                r = await c.post("/score", content=body, headers=HEADERS)
                latencies.append(time.perf_counter() - t0)
                if r.status_code != 200:
                    raise RuntimeError(f"{r.status_code}: {r.text[:300]}")

    t0 = time.perf_counter()
    await asyncio.gather(*(client(k) for k in range(clients)))
    return latencies, time.perf_counter() - t0


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def run(args: argparse.Namespace) -> None:
    repos = [tuple(r.split("=", 1)) if "=" in r else (r, r) for r in (args.repo or [f"this={REPO}"])]
    cache = Path(tempfile.mkdtemp(prefix="bench-reward-latency-"))
    bodies = make_bodies(cache)
    rows: dict[str, list[float]] = {label: [] for label, _ in repos}
    print(
        "| round | checkout | requests | p50 ms | p99 ms | mean ms | requests/s |\n|---|---|---|---|---|---|---|"
    )
    for rnd in range(1, args.rounds + 1):
        for label, path in repos if rnd % 2 else repos[::-1]:  # alternate who goes first
            proc, base = start(Path(path).resolve(), cache, args.threads)
            try:
                # warm, one client first: a checkout before ca2a1e3 races a domain's first readers
                asyncio.run(load(base, bodies, 1, len(bodies)))
                asyncio.run(load(base, bodies, 8, 4))  # worlds loaded, forks made, code paths hot
                lat, wall = asyncio.run(load(base, bodies, args.clients, args.requests))
            finally:
                proc.terminate()
                proc.wait(timeout=20)
            rows[label] += lat
            ms = [x * 1000 for x in lat]
            print(
                f"| {rnd} | {label} | {len(ms)} | {pct(ms, 50):.1f} | {pct(ms, 99):.1f} | "
                f"{statistics.fmean(ms):.1f} | {len(ms) / wall:.0f} |",
                flush=True,
            )
    print("\npooled over the rounds:\n\n| checkout | requests | p50 ms | p99 ms |\n|---|---|---|---|")
    for label, lat in rows.items():
        ms = [x * 1000 for x in lat]
        print(f"| {label} | {len(ms)} | {pct(ms, 50):.1f} | {pct(ms, 99):.1f} |")


def guard_overhead(n: int = 50_000) -> None:
    """This checkout's Host/Origin guard (rewards.http_guard) per request, on a no-op ASGI app: the
    cost the guard adds to every request, free of the shared machine's scheduling noise."""
    from rewards.http_guard import HostOriginGuard

    async def noop(scope: Any, receive: Any, send: Any) -> None:
        return None

    guard = HostOriginGuard(noop)
    headers = [(b"host", b"127.0.0.1:8100"), (b"content-type", b"application/json")]
    scope = {"type": "http", "method": "POST", "path": "/score", "headers": headers}
    scope["server"], scope["scheme"] = ("127.0.0.1", 8100), "http"

    async def loop(app: Any) -> float:
        t0 = time.perf_counter()
        for _ in range(n):
            await app(dict(scope), None, None)
        return (time.perf_counter() - t0) / n

    bare, guarded = (
        min(asyncio.run(loop(noop)) for _ in range(5)),
        min(asyncio.run(loop(guard)) for _ in range(5)),
    )
    print(f"Host/Origin guard: {(guarded - bare) * 1e6:.1f} µs a request (best of 5 x {n:,})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repo", action="append", help="LABEL=PATH of a checkout to start (repeatable)")
    ap.add_argument("--clients", type=int, default=64)
    ap.add_argument("--requests", type=int, default=20, help="requests per client")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--threads", type=int, default=4, help="reward-serve --threads")
    ap.add_argument("--guard-overhead", action="store_true", help="only time the Host/Origin guard")
    args = ap.parse_args()
    if args.guard_overhead:
        guard_overhead()
    else:
        run(args)


if __name__ == "__main__":
    main()
