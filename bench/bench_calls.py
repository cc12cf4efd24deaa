"""Call benchmark: a tool call in-process, over in-memory MCP and over HTTP, next to a trivial echo tool.

    .venv/bin/python bench/bench_calls.py            # banking, medium scale
    .venv/bin/python bench/bench_calls.py --quick    # fewer calls

In-process: ``Environment.invoke`` of a point read (``banking_get_balance``) and a write
(``banking_deposit``), next to the bare SQLite statement the read runs.

MCP: an ``echo`` tool is added (here only) to the FastMCP server ``build_mcp(env)`` builds. It has
the same flat schema and returns its arguments without validation, a session or SQLite, so
real / echo is what toolground's layer (argument validation, env-session lookup, fork, SQL, JSON)
adds on top of fastmcp. Calls alternate real and echo so drift hits both. Over HTTP the server runs
in a subprocess (uvicorn on 127.0.0.1, ``build_http_app``); 32 concurrent env sessions, each its
own ``X-Env-Session`` header, run the same number of calls per tool.
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
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
os.environ.setdefault("FASTMCP_SHOW_SERVER_BANNER", "false")
os.environ.setdefault("FASTMCP_CHECK_FOR_UPDATES", "off")

from fastmcp import FastMCP  # noqa: E402
from fastmcp.tools import Tool, ToolResult  # noqa: E402

from servers.mcp_server import build_mcp  # noqa: E402
from servers.runtime import Environment  # noqa: E402
from state import SnapshotCache  # noqa: E402

READ = ("banking_get_balance", {"account": "ACC-000001"})
WRITE = ("banking_deposit", {"account": "ACC-000001", "amount": 1.25})
ECHO_READ = ("echo", READ[1])
ECHO_WRITE = ("echo", WRITE[1])


class EchoTool(Tool):
    """Returns its arguments: fastmcp's own cost for a tool call, with nothing of toolground."""

    async def run(self, arguments: dict[str, Any]) -> ToolResult:
        return ToolResult(content=json.dumps(arguments, separators=(",", ":")), structured_content=arguments)


def add_echo(mcp: FastMCP) -> FastMCP:
    mcp.add_tool(
        EchoTool(
            name="echo",
            description="Echo the arguments.",
            parameters={
                "type": "object",
                "properties": {"account": {"type": "string"}, "amount": {"type": "number"}},
                "additionalProperties": False,
            },
        )
    )
    return mcp


def environment(scale: str, cache: str) -> Environment:
    return Environment("banking", seed=0, scale=scale, cache=SnapshotCache(cache))


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(q * (len(xs) - 1)))]


def us(x: float) -> str:
    return f"{x * 1e6:,.1f}"


def ms(x: float) -> str:
    return f"{x * 1e3:.2f}"


# -- in-process ---------------------------------------------------------------------------


def in_process(env: Environment, n: int) -> dict[str, list[float]]:
    ep = env.open()
    out: dict[str, list[float]] = {"sqlite point read (bare)": [], READ[0]: [], WRITE[0]: []}
    env.invoke(ep, *WRITE)  # fork first, so the read below runs on the private copy like the write
    with ep.fork("banking").reading() as conn:
        stmt = "SELECT * FROM accounts WHERE id = ?"
        for _ in range(n):
            t = time.perf_counter()
            conn.execute(stmt, ("ACC-000001",)).fetchone()
            out["sqlite point read (bare)"].append(time.perf_counter() - t)
    for _ in range(n):
        t = time.perf_counter()
        env.invoke(ep, *READ)
        t2 = time.perf_counter()
        env.invoke(ep, *WRITE)
        t3 = time.perf_counter()
        out[READ[0]].append(t2 - t)
        out[WRITE[0]].append(t3 - t2)
    return out


# -- MCP ------------------------------------------------------------------------------------


async def alternate(
    pairs: list[tuple[str, Callable[[], Awaitable[Any]]]], n: int, out: dict[str, list[float]]
) -> None:
    for _ in range(n):
        for label, call in pairs:
            t = time.perf_counter()
            res = await call()
            out.setdefault(label, []).append(time.perf_counter() - t)
            assert not res.is_error, res


async def in_memory(env: Environment, n: int) -> dict[str, list[float]]:
    from fastmcp import Client

    mcp = add_echo(build_mcp(env))
    out: dict[str, list[float]] = {}
    meta = {"env_session": "bench"}
    async with Client(mcp) as c:

        def call(name: str, args: dict) -> Callable[[], Awaitable[Any]]:
            return lambda: c.call_tool(name, args, meta=meta, raise_on_error=False)

        await alternate([("echo", call(*ECHO_READ)), (READ[0], call(*READ))], 20, {})  # warm-up
        await alternate(
            [
                ("echo", call(*ECHO_READ)),
                (READ[0], call(*READ)),
                ("echo", call(*ECHO_WRITE)),
                (WRITE[0], call(*WRITE)),
            ],
            n,
            out,
        )
    return out


def serve(port: int, scale: str, cache: str) -> None:
    """Subprocess entry: the real HTTP app plus the echo tool."""
    import uvicorn

    import servers.serve as serving

    build = serving.build_mcp
    serving.build_mcp = lambda env, **kw: add_echo(build(env, **kw))
    env = environment(scale, cache)
    env.snapshots()
    app = serving.build_http_app(env)
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", access_log=False)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def over_http(url: str, sessions: int, per_session: int, n_seq: int) -> dict[str, Any]:
    from fastmcp import Client
    from fastmcp.client.transports import StreamableHttpTransport

    def client(sid: str) -> Client:
        return Client(StreamableHttpTransport(url, headers={"X-Env-Session": sid}))

    seq: dict[str, list[float]] = {}
    async with client("seq") as c:
        pairs = [
            ("echo", lambda: c.call_tool(*ECHO_READ, raise_on_error=False)),
            (READ[0], lambda: c.call_tool(*READ, raise_on_error=False)),
            ("echo", lambda: c.call_tool(*ECHO_WRITE, raise_on_error=False)),
            (WRITE[0], lambda: c.call_tool(*WRITE, raise_on_error=False)),
        ]
        await alternate(pairs[:2], 20, {})
        await alternate(pairs, n_seq, seq)

    clients = [client(f"conc-{i}") for i in range(sessions)]
    for c in clients:
        await c.__aenter__()
    conc: dict[str, dict[str, Any]] = {}
    try:
        # unmeasured: the client's first-call tools/list and each session's fork on its first write
        await asyncio.gather(
            *(c.call_tool(*call, raise_on_error=False) for c in clients for call in (ECHO_READ, WRITE))
        )
        for rnd in range(2):  # two rounds in alternating order, so warm-up and drift hit every tool
            order = [ECHO_READ, READ, WRITE] if rnd == 0 else [WRITE, READ, ECHO_READ]
            for name, args in order:
                lat: list[float] = []

                async def run(c: Client, name: str = name, args: dict = args, lat: list[float] = lat) -> None:
                    for _ in range(per_session):
                        t = time.perf_counter()
                        res = await c.call_tool(name, args, raise_on_error=False)
                        lat.append(time.perf_counter() - t)
                        assert not res.is_error, res

                t0 = time.perf_counter()
                await asyncio.gather(*(run(c) for c in clients))
                wall = time.perf_counter() - t0
                entry = conc.setdefault(name, {"lat": [], "calls": 0, "wall": 0.0})
                entry["lat"] += lat
                entry["calls"] += len(lat)
                entry["wall"] += wall
    finally:
        for c in clients:
            await c.__aexit__(None, None, None)
    return {"sequential": seq, "concurrent": conc}


def start_server(scale: str, cache: str) -> tuple[subprocess.Popen, str]:
    import httpx

    port = free_port()
    cmd = [sys.executable, __file__, "--serve", str(port), "--scale", scale, "--cache", cache]
    proc = subprocess.Popen(cmd, cwd=REPO)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while True:
        if proc.poll() is not None:
            raise RuntimeError("benchmark server exited early")
        try:
            if httpx.get(base + "/health", timeout=1.0).status_code == 200:
                return proc, base + "/mcp"
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline:
            proc.kill()
            raise RuntimeError("benchmark server did not start")
        time.sleep(0.2)


# -- report ------------------------------------------------------------------------------------


def table(
    rows: dict[str, list[float]], unit: Callable[[float], str], head: str, base: str | None
) -> list[str]:
    lines = [f"| call | n | p50 {head} | p95 {head} | p50 / {base or '-'} |", "|---|---:|---:|---:|---:|"]
    ref = statistics.median(rows[base]) if base else None
    for name, xs in rows.items():
        ratio = f"{statistics.median(xs) / ref:.2f}x" if ref else "-"
        lines.append(
            f"| {name} | {len(xs)} | {unit(statistics.median(xs))} | {unit(pct(xs, 0.95))} | {ratio} |"
        )
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--scale", default="medium")
    ap.add_argument("--cache", default=str(REPO / ".cache"))
    ap.add_argument("--sessions", type=int, default=32)
    ap.add_argument("--serve", type=int, default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.serve is not None:
        serve(args.serve, args.scale, args.cache)
        return
    n_direct, n_mem, n_seq, per_session = (2000, 150, 60, 6) if args.quick else (10000, 500, 200, 15)

    env = environment(args.scale, args.cache)
    env.snapshots()
    print(f"... in-process ({n_direct} calls each)", file=sys.stderr, flush=True)
    direct = in_process(env, n_direct)
    print(f"... in-memory MCP ({n_mem} calls each)", file=sys.stderr, flush=True)
    memory = asyncio.run(in_memory(env, n_mem))
    print(f"... HTTP: {args.sessions} sessions x {per_session} calls per tool", file=sys.stderr, flush=True)
    proc, url = start_server(args.scale, args.cache)
    try:
        http = asyncio.run(over_http(url, args.sessions, per_session, n_seq))
    finally:
        proc.terminate()
        proc.wait(timeout=10)

    out = [f"banking / {args.scale}, seed 0", "", "In-process (`Environment.invoke`), microseconds:", ""]
    out += table(direct, us, "µs", "sqlite point read (bare)")
    out += ["", "In-memory MCP (`fastmcp.Client(build_mcp(env))`, `_meta.env_session`), milliseconds:", ""]
    out += table(memory, ms, "ms", "echo")
    out += ["", "HTTP, one session, sequential (uvicorn subprocess, `X-Env-Session`), milliseconds:", ""]
    out += table(http["sequential"], ms, "ms", "echo")
    out += [
        "",
        f"HTTP, {args.sessions} concurrent sessions x {2 * per_session} calls per tool:",
        "",
        "| tool | calls | calls/s | p50 ms | p95 ms | p50 / echo | calls/s echo / tool |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    conc = http["concurrent"]
    echo_p50 = statistics.median(conc["echo"]["lat"])
    echo_rate = conc["echo"]["calls"] / conc["echo"]["wall"]
    for name, e in conc.items():
        rate = e["calls"] / e["wall"]
        p50 = statistics.median(e["lat"])
        out.append(
            f"| {name} | {e['calls']} | {rate:.0f} | {ms(p50)} | {ms(pct(e['lat'], 0.95))} "
            f"| {p50 / echo_p50:.2f}x | {echo_rate / rate:.2f}x |"
        )
    print("\n".join(out))


if __name__ == "__main__":
    main()
