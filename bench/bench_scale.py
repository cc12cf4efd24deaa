"""Calls/s and server CPU per call with 1, 2 and 4 shards behind gateways, beside one plain process.

    .venv/bin/python bench/bench_scale.py                 # local engine (processes), ~3 minutes
    .venv-ray/bin/python bench/bench_scale.py --ray       # the same, plus the Ray engine's rows

Layouts, each started, measured and stopped in turn, over the same banking snapshot (medium):

- ``single``: ``toolground serve`` as one process, no gateway: the baseline;
- ``local-N``: ``serve --workers N`` (N shard processes on Unix sockets, ``--gateways`` processes
  in front); ``local-1`` is one shard behind one gateway, so beside ``single`` it is the price of
  the gateway hop alone;
- ``ray-N``: ``serve --ray --workers N`` (shards as Ray actors, the same gateways), with ``--ray``.

For each: 32 concurrent clients (a keep-alive connection and an env session each) calling a write
tool, and one client alone for latency. CPU is read from ``/proc/PID/stat`` of every server process
(shards and gateways) over the batch, so "server µs per call" is what the layout costs a machine,
whatever the two cores of this VM allow in wall time. Rounds rotate the order of layouts.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))
os.environ.setdefault("FASTMCP_SHOW_SERVER_BANNER", "false")
os.environ.setdefault("FASTMCP_CHECK_FOR_UPDATES", "off")

from bench_serve import client, cpu_ticks  # noqa: E402

from servers.runtime import Environment  # noqa: E402
from servers.scale.local import LocalCluster  # noqa: E402
from tests.serving import free_port  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK")
SERVE_ARGS = ["--domains", "banking", "--scale", "medium"]


@contextmanager
def single() -> Iterator[tuple[int, list[int], list[int]]]:
    """One ``toolground serve`` process: (port, server pids, gateway pids)."""
    import subprocess

    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "toolground", "serve", *SERVE_ARGS, "--port", str(port)],
        stderr=subprocess.DEVNULL,
    )
    try:
        _wait(port)
        yield port, [proc.pid], []
    finally:
        proc.terminate()
        proc.wait(10)


@contextmanager
def cluster(shards: int, gateways: int, *, ray: bool) -> Iterator[tuple[int, list[int], list[int]]]:
    port = free_port()
    run_dir = Path(tempfile.mkdtemp(prefix="bench-scale-"))
    if ray:
        from servers.scale.on_ray import RayCluster
        from toolground.cmd_serve import shard_app
        from toolground.io_stack import fast_io

        c = RayCluster(
            shards, gateways, "127.0.0.1", port, SERVE_ARGS, run_dir, build=shard_app, io=fast_io()
        )
    else:
        c = LocalCluster(shards, gateways, "127.0.0.1", port, SERVE_ARGS, run_dir)
    c.start()
    try:
        _wait(port)
        health = _get(port, "/health")
        shard_pids = [s["shard"]["pid"] for s in health["shards"]]
        gateway_pids = [pid for name, pid in c.describe()["pids"].items() if name.startswith("gateway")]
        yield port, shard_pids + gateway_pids, gateway_pids
    finally:
        c.stop()


def _wait(port: int, timeout: float = 300) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if _get(port, "/health").get("status") == "ok":
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"nothing healthy on port {port}")


def _get(port: int, path: str) -> dict:
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", path)
        return json.loads(conn.getresponse().read())
    finally:
        conn.close()


def measure(
    port: int, pids: list[int], gateway_pids: list[int], clients: int, calls: int, tag: str
) -> dict[str, float]:
    latencies: list[float] = []

    async def run(n: int, size: int) -> None:
        await asyncio.gather(*(client(port, "write", f"{tag}-{i}", size, latencies) for i in range(n)))

    asyncio.run(run(clients, 5))  # sessions fork, connections open
    latencies.clear()
    before = {p: cpu_ticks(p) for p in pids}
    t0 = time.perf_counter()
    asyncio.run(run(clients, calls))
    wall = time.perf_counter() - t0
    used = {p: (cpu_ticks(p) - before[p]) / TICK for p in pids}
    total = clients * calls
    latencies.clear()
    asyncio.run(run(1, 400))
    return {
        "calls_s": total / wall,
        "server_us": 1e6 * sum(used.values()) / total,
        "gateway_us": 1e6 * sum(used[p] for p in gateway_pids) / total,
        "p50_ms": 1e3 * statistics.median(latencies),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ray", action="store_true", help="add the Ray engine's rows (needs toolground[ray])")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--calls", type=int, default=120, help="calls per client per batch (32 clients)")
    args = ap.parse_args()
    try:
        import uvloop

        asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    except ImportError:
        pass
    Environment("banking", scale="medium").snapshots()  # built once, before the layouts load it
    layouts = {"single": lambda: single()}
    for n in (1, 2, 4):
        layouts[f"local-{n}"] = lambda n=n: cluster(n, 1 if n == 1 else 2, ray=False)
    if args.ray:
        for n in (1, 2, 4):
            layouts[f"ray-{n}"] = lambda n=n: cluster(n, 1 if n == 1 else 2, ray=True)
    names = list(layouts)
    results: dict[str, list[dict[str, float]]] = {}
    for r in range(args.rounds):
        for name in names[r % len(names) :] + names[: r % len(names)]:
            with layouts[name]() as (port, pids, gateway_pids):
                results.setdefault(name, []).append(
                    measure(port, pids, gateway_pids, 32, args.calls, f"r{r}{name}")
                )
            print(f"round {r + 1}: {name} done", file=sys.stderr, flush=True)
    report(results)


def report(results: dict[str, list[dict[str, float]]]) -> None:
    med = {
        name: {k: statistics.median(run[k] for run in runs) for k in runs[0]}
        for name, runs in results.items()
    }
    base = med["single"]
    print(
        f"machine: {os.cpu_count()} cores; banking medium; 32 clients x write calls; medians of {len(results['single'])} rounds\n"
    )
    print(
        "| layout | shards | calls/s | vs single | server CPU µs/call | of which gateways | p50 ms, 1 client |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, m in med.items():
        shards = 1 if name == "single" else int(name.rsplit("-", 1)[1])
        print(
            f"| {name} | {shards} | {m['calls_s']:.0f} | {m['calls_s'] / base['calls_s']:.2f}x | {m['server_us']:.0f} "
            f"| {m['gateway_us']:.0f} | {m['p50_ms']:.2f} |"
        )
    hop = med["local-1"]
    print(
        f"\ngateway hop: +{hop['server_us'] - base['server_us']:.0f} µs of server CPU per call "
        f"({hop['gateway_us']:.0f} µs in the gateway), +{hop['p50_ms'] - base['p50_ms']:.2f} ms latency for one client"
    )


if __name__ == "__main__":
    main()
