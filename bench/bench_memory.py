"""Memory returned after a burst: server RSS before, at the peak of and after 256 released sessions.

Run:  .venv/bin/python bench/bench_memory.py [--sessions 256] [--clients 32] [--rounds 2] [--scale medium]

Two servers per round, one with ``TOOLGROUND_MALLOC_TRIM=0`` (glibc keeps freed arena pages, the
behaviour before) and one with the default trim policy, alternated so machine load hits both.
Each burst opens ``--sessions`` env sessions (``--clients`` at a time), makes three deposits and
one read in each, holds them all, then releases them through ``DELETE /admin/sessions/<id>``.
The calls/s column is the burst's throughput, so a trim that cost time would show there.
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


async def burst(url: str, ids: list[str], clients: int) -> int:
    gate = asyncio.Semaphore(clients)

    async def one(sid: str) -> int:
        transport = StreamableHttpTransport(url, headers={"X-Env-Session": sid})
        async with gate, Client(transport, timeout=120) as client:
            for k in range(3):
                await client.call_tool("banking_deposit", {"account": f"ACC-00000{k + 1}", "amount": 10.0})
            await client.call_tool("banking_list_transactions", {"account": "ACC-000001"})
            return 4

    return sum(await asyncio.gather(*(one(sid) for sid in ids)))


def measure(cache: str, scale: str, trim: bool, sessions: int, clients: int) -> dict[str, float]:
    proc, base = start(cache, scale, trim)
    try:
        warm = [f"warm-{i}" for i in range(clients)]
        asyncio.run(burst(base + "/mcp", warm, clients))
        with httpx.Client(base_url=base) as http:
            for sid in warm:
                http.delete(f"/admin/sessions/{sid}")
            baseline = rss(proc.pid)
            ids = [f"burst-{i}" for i in range(sessions)]
            t0 = time.perf_counter()
            calls = asyncio.run(burst(base + "/mcp", ids, clients))
            rate = calls / (time.perf_counter() - t0)
            peak = rss(proc.pid)
            for sid in ids:
                http.delete(f"/admin/sessions/{sid}")
            time.sleep(0.5)
            after = rss(proc.pid)
        return {"baseline": baseline / MIB, "peak": peak / MIB, "after": after / MIB, "calls_s": rate}
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sessions", type=int, default=256)
    ap.add_argument("--clients", type=int, default=32)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--scale", default="medium")
    args = ap.parse_args()
    cache = os.environ.get("TOOLGROUND_CACHE") or tempfile.mkdtemp(prefix="tg-bench-mem-")
    print("| round | trim | baseline MiB | peak MiB | after release MiB | kept over baseline MiB | calls/s |")
    print("|---:|---|---:|---:|---:|---:|---:|")
    for r in range(1, args.rounds + 1):
        for trim in (False, True):
            m = measure(cache, args.scale, trim, args.sessions, args.clients)
            print(
                f"| {r} | {'on' if trim else 'off'} | {m['baseline']:.0f} | {m['peak']:.0f} | {m['after']:.0f} "
                f"| {m['after'] - m['baseline']:+.0f} | {m['calls_s']:.0f} |",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
