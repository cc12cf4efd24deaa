"""Memory returned after a burst: server RSS before, at the peak of and after 256 released sessions.

Run:  .venv/bin/python bench/bench_memory.py [--sessions 256] [--clients 32] [--rounds 2] [--scale medium]
          [--calls 4] [--live 0,1] [--settle 60] [--trim off,on]

Two servers per round, one with ``TOOLGROUND_MALLOC_TRIM=0`` (glibc keeps freed arena pages, the
behaviour before) and one with the default trim policy, alternated so machine load hits both.
Each burst opens ``--sessions`` env sessions (``--clients`` at a time), makes three deposits and
one read in each, holds them all, then releases them through ``DELETE /admin/sessions/<id>``.
The calls/s column is the burst's throughput, so a trim that cost time would show there.

``--live 0,1`` runs each configuration without and with one unrelated env session that stays open
through the burst (opened before the baseline): a store that never empties is the case a trim on
"store empty" misses. RSS is read 0.5 s after the last release and again ``--settle`` s after it.
``--calls`` is the tool calls per session (deposits, then a read every fourth call). ``--bursts``
runs that many bursts one after another on the same server; the live sessions call along with each.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from fastmcp import Client
from fastmcp.client.transports import StreamableHttpTransport

REPO = Path(__file__).resolve().parent.parent
MIB = 1 << 20


def rss(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError("no VmRSS")


def start(cache: str, scale: str, trim: bool) -> tuple[subprocess.Popen, str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = dict(os.environ, TOOLGROUND_CACHE=cache, TOOLGROUND_MALLOC_TRIM="1" if trim else "0")
    env.update(FASTMCP_SHOW_SERVER_BANNER="false", FASTMCP_CHECK_FOR_UPDATES="off", PYTHONPATH=str(REPO))
    cmd = [sys.executable, "-m", "toolground", "serve", "--port", str(port), "--domains", "banking"]
    proc = subprocess.Popen([*cmd, "--scale", scale], env=env, cwd=REPO, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        try:
            if httpx.get(base + "/health", timeout=1).status_code == 200:
                return proc, base
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.kill()
    raise RuntimeError("server did not start")


async def burst(url: str, ids: list[str], clients: int, calls: int = 4) -> int:
    gate = asyncio.Semaphore(clients)

    async def one(sid: str) -> int:
        transport = StreamableHttpTransport(url, headers={"X-Env-Session": sid})
        async with gate, Client(transport, timeout=120) as client:
            for k in range(calls):
                account = f"ACC-{k % 8 + 1:06d}"
                if k % 4 == 3:
                    await client.call_tool("banking_list_transactions", {"account": account})
                else:
                    await client.call_tool("banking_deposit", {"account": account, "amount": 10.0})
            return calls

    return sum(await asyncio.gather(*(one(sid) for sid in ids)))


def measure(
    cache: str,
    scale: str,
    trim: bool,
    sessions: int,
    clients: int,
    *,
    calls: int,
    live: int,
    settle: float,
    bursts: int = 1,
) -> dict[str, float]:
    proc, base = start(cache, scale, trim)
    try:
        warm = [f"warm-{i}" for i in range(clients)]
        asyncio.run(burst(base + "/mcp", warm, clients, calls))
        with httpx.Client(base_url=base) as http:
            for sid in warm:
                http.delete(f"/admin/sessions/{sid}")
            asyncio.run(burst(base + "/mcp", [f"live-{i}" for i in range(live)], clients, calls))
            baseline = rss(proc.pid)
            peak, rate = 0, 0.0
            for b in range(bursts):  # the live sessions keep calling during each burst
                ids = [f"burst{b}-{i}" for i in range(sessions)]
                everyone = ids + [f"live-{i}" for i in range(live)]
                t0 = time.perf_counter()
                done = asyncio.run(burst(base + "/mcp", everyone, clients, calls))
                rate = done / (time.perf_counter() - t0)
                peak = max(peak, rss(proc.pid))
                for sid in ids:
                    http.delete(f"/admin/sessions/{sid}")
            released = time.monotonic()
            time.sleep(0.5)
            after = rss(proc.pid)
            time.sleep(max(0.0, settle - (time.monotonic() - released)))
            settled = rss(proc.pid)
        return {
            "baseline": baseline / MIB,
            "peak": peak / MIB,
            "after": after / MIB,
            "settled": settled / MIB,
            "calls_s": rate,
        }
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sessions", type=int, default=256)
    ap.add_argument("--clients", type=int, default=32)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--scale", default="medium")
    ap.add_argument("--calls", type=int, default=4, help="tool calls per session")
    ap.add_argument("--live", default="0", help="comma list: unrelated sessions open through the burst")
    ap.add_argument(
        "--settle", type=float, default=60.0, help="seconds after the release of the last reading"
    )
    ap.add_argument(
        "--bursts", type=int, default=1, help="bursts per server (peak: the highest; after: the last)"
    )
    ap.add_argument("--trim", default="off,on", help="comma list of trim settings to run (off, on)")
    args = ap.parse_args()
    cache = os.environ.get("TOOLGROUND_CACHE") or tempfile.mkdtemp(prefix="tg-bench-mem-")
    s = f"{args.settle:g} s"
    print(
        f"| round | trim | live | baseline MiB | peak MiB | 0.5 s after release MiB | {s} after MiB "
        f"| kept at {s} MiB | calls/s |"
    )
    print("|---:|---|---:|---:|---:|---:|---:|---:|---:|")
    for r in range(1, args.rounds + 1):
        for trim in [t == "on" for t in args.trim.split(",")]:
            for live in [int(n) for n in args.live.split(",")]:
                m = measure(
                    cache,
                    args.scale,
                    trim,
                    args.sessions,
                    args.clients,
                    calls=args.calls,
                    live=live,
                    settle=args.settle,
                    bursts=args.bursts,
                )
                print(
                    f"| {r} | {'on' if trim else 'off'} | {live} | {m['baseline']:.0f} | {m['peak']:.0f} "
                    f"| {m['after']:.0f} | {m['settled']:.0f} | {m['settled'] - m['baseline']:+.0f} "
                    f"| {m['calls_s']:.0f} |",
                    flush=True,
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
