"""Server CPU per MCP ``tools/call`` and calls/s: the lean path beside the ASGI floor and the full stack.

    .venv/bin/python bench/bench_serve.py            # 3 rounds, ~3 minutes
    .venv/bin/python bench/bench_serve.py --quick    # 1 round, fewer calls

Four servers run side by side, each in its own process on 127.0.0.1 over the same snapshots
(banking at medium plus a one-tool ``bench`` domain whose ``echo`` returns its text):

- ``floor``: a bare ASGI callable on uvloop + httptools that parses the JSON-RPC body, picks the
  episode named by ``X-Env-Session`` and makes the same ``Environment.invoke`` call. No MCP at all:
  what any Python HTTP endpoint in front of the environment costs.
- ``lean``: ``toolground serve``'s app (``build_http_app``), uvloop + httptools.
- ``stack+fast``: the same app with ``lean=False`` (the full fastmcp stack), uvloop + httptools.
- ``stack``: the full stack on asyncio + h11, what ``toolground serve`` ran before the lean path.

The client is a raw-socket asyncio one (prebuilt request bytes, one keep-alive connection per
client) whose own CPU per call is printed too. Server CPU comes from ``/proc/PID/stat`` (10 ms ticks)
over each batch; servers take turns in a rotating order each round, and the medians are printed.
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
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
os.environ.setdefault("FASTMCP_SHOW_SERVER_BANNER", "false")
os.environ.setdefault("FASTMCP_CHECK_FOR_UPDATES", "off")

V = "2026-07-28"
META = {"io.modelcontextprotocol/protocolVersion": V, "io.modelcontextprotocol/clientCapabilities": {}}
TOOLS = {
    "echo": ("bench_echo", {"text": "hello"}),
    "read": ("banking_get_balance", {"account": "ACC-000001"}),
    "write": ("banking_deposit", {"account": "ACC-000001", "amount": 1.25}),
}
SERVERS = ("floor", "lean", "stack+fast", "stack")
TICK = os.sysconf("SC_CLK_TCK")


from sqlalchemy.orm import Mapped, mapped_column  # noqa: E402

from servers.kit import Db, Domain, Seeder, ShortText  # noqa: E402
from servers.registry import get_domain  # noqa: E402
from servers.runtime import Environment  # noqa: E402

bench = Domain("bench", "Echo for the serving benchmark.")


class Note(bench.Table):
    __tablename__ = "notes"
    id: Mapped[str] = mapped_column(primary_key=True)
    text: Mapped[str]


@bench.seed
def fill(s: Seeder) -> None:
    s.add(Note, [{"id": "N1", "text": "x"}])


@bench.tool(says=["echo {text}"])
def echo(db: Db, text: ShortText) -> dict:
    """Return the text unchanged."""
    return {"text": text}


def bench_env() -> Environment:
    """banking at medium plus the echo domain (defined here only)."""
    env = Environment([bench, get_domain("banking")], scale="medium")
    env.snapshots()
    return env


def floor_app(env):
    """The same in-process call behind the thinnest ASGI endpoint."""

    async def app(scope, receive, send):
        if scope["type"] == "lifespan":
            while (await receive())["type"] != "lifespan.shutdown":
                await send({"type": "lifespan.startup.complete"})
            await send({"type": "lifespan.shutdown.complete"})
            return
        if scope["path"] == "/health":
            body = b'{"status":"ok"}'
        else:
            chunks = []
            while True:
                m = await receive()
                chunks.append(m.get("body", b""))
                if not m.get("more_body"):
                    break
            req = json.loads(b"".join(chunks))
            sid = next(v for k, v in scope["headers"] if k == b"x-env-session").decode()
            params = req["params"]
            value = env.invoke(env.store.get(sid), params["name"], params.get("arguments") or {})
            text = json.dumps(value, separators=(",", ":"))
            result = {
                "content": [{"text": text, "type": "text"}],
                "isError": False,
                "structuredContent": value,
            }
            body = json.dumps(
                {"jsonrpc": "2.0", "id": req["id"], "result": result}, separators=(",", ":")
            ).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [
                    (b"content-length", str(len(body)).encode()),
                    (b"content-type", b"application/json"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})

    return app


def serve(mode: str, port: int) -> None:
    import uvicorn

    from servers.serve import build_http_app

    env = bench_env()
    fast = {"loop": "uvloop", "http": "httptools"}
    if mode == "floor":
        app, io = floor_app(env), fast
    else:
        app = build_http_app(env, lean=mode == "lean")
        io = {"loop": "asyncio", "http": "h11"} if mode == "stack" else fast
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", access_log=False, **io)


def request_bytes(tool: str, session: str, rid: int) -> bytes:
    name, args = TOOLS[tool]
    body = json.dumps(
        {
            "jsonrpc": "2.0",
            "id": rid,
            "method": "tools/call",
            "params": {"name": name, "arguments": args, "_meta": META},
        },
        separators=(",", ":"),
    ).encode()
    head = (
        f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: {V}\r\nMcp-Method: tools/call\r\n"
        f"Mcp-Name: {name}\r\nX-Env-Session: {session}\r\nContent-Length: {len(body)}\r\n\r\n"
    )
    return head.encode() + body


async def client(port: int, tool: str, session: str, n: int, latencies: list[float]) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    req = request_bytes(tool, session, 1)
    try:
        for _ in range(n):
            t = time.perf_counter()
            writer.write(req)
            head = await reader.readuntil(b"\r\n\r\n")
            length = int(head.lower().split(b"content-length:")[1].split(b"\r\n")[0])
            body = await reader.readexactly(length)
            latencies.append(time.perf_counter() - t)
            if b'"isError":false' not in body:
                raise RuntimeError(f"call failed: {body[:300]!r}")
    finally:
        writer.close()


def cpu_ticks(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def batch(port: int, pid: int, tool: str, clients: int, calls: int, tag: str) -> dict[str, float]:
    latencies: list[float] = []

    async def run() -> None:
        await asyncio.gather(*(client(port, tool, f"{tag}-{i}", calls, latencies) for i in range(clients)))

    asyncio.run(run())  # warm: sessions fork, connections open
    latencies.clear()
    c0, t0, s0 = time.process_time(), time.perf_counter(), cpu_ticks(pid)
    asyncio.run(run())
    wall, server = time.perf_counter() - t0, (cpu_ticks(pid) - s0) / TICK
    total = clients * calls
    return {
        "server_us": 1e6 * server / total,
        "client_us": 1e6 * (time.process_time() - c0) / total,
        "calls_s": total / wall,
        "p50_ms": 1e3 * statistics.median(latencies),
    }


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(mode: str) -> tuple[subprocess.Popen, int]:
    port = free_port()
    proc = subprocess.Popen([sys.executable, __file__, "--serve", mode, str(port)])
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return proc, port
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise RuntimeError(f"{mode} server did not start")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--serve", nargs=2, metavar=("MODE", "PORT"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.serve:
        serve(args.serve[0], int(args.serve[1]))
        return
    try:
        import uvloop

        asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())  # the client's own cost, kept low
    except ImportError:
        pass
    rounds = 1 if args.quick else args.rounds
    sizes = {1: 300 if args.quick else 1500, 32: 20 if args.quick else 80}
    bench_env()  # build the snapshots once, before four processes want them
    procs = {mode: start(mode) for mode in SERVERS}
    results: dict[tuple[str, str, int], list[dict[str, float]]] = {}
    try:
        for r in range(rounds):
            order = SERVERS[r % len(SERVERS) :] + SERVERS[: r % len(SERVERS)]
            for tool in TOOLS:
                for clients, calls in sizes.items():
                    for mode in order:
                        proc, port = procs[mode]
                        got = batch(port, proc.pid, tool, clients, calls, f"r{r}{tool}{clients}")
                        results.setdefault((mode, tool, clients), []).append(got)
            print(f"round {r + 1}/{rounds} done", file=sys.stderr, flush=True)
    finally:
        for proc, _ in procs.values():
            proc.terminate()
            proc.wait(10)
    report(results, rounds)


def report(results: dict[tuple[str, str, int], list[dict[str, float]]], rounds: int) -> None:
    def med(mode: str, tool: str, clients: int, key: str) -> float:
        return statistics.median(x[key] for x in results[(mode, tool, clients)])

    print(f"\nmedians of {rounds} round(s); server CPU per call from /proc (10 ms ticks)\n")
    print(
        "| tool | clients | server | server CPU µs/call | x floor | calls/s | p50 ms | client CPU µs/call |"
    )
    print("|---|---:|---|---:|---:|---:|---:|---:|")
    for tool in TOOLS:
        for clients in (1, 32):
            floor = med("floor", tool, clients, "server_us")
            for mode in SERVERS:
                cpu = med(mode, tool, clients, "server_us")
                print(
                    f"| {tool} | {clients} | {mode} | {cpu:,.0f} | {cpu / floor:.2f}x | "
                    f"{med(mode, tool, clients, 'calls_s'):,.0f} | {med(mode, tool, clients, 'p50_ms'):.2f} | "
                    f"{med(mode, tool, clients, 'client_us'):,.0f} |"
                )
    print(
        "\n| tool | lean / floor (target ≤ 2x) | stack / lean (target ≥ 4x) | lean calls/s at 32 (target ≥ 2,500) |"
    )
    print("|---|---:|---:|---:|")
    for tool in TOOLS:
        lean = statistics.median(med("lean", tool, c, "server_us") for c in (1, 32))
        floor = statistics.median(med("floor", tool, c, "server_us") for c in (1, 32))
        stack = statistics.median(med("stack", tool, c, "server_us") for c in (1, 32))
        print(
            f"| {tool} | {lean / floor:.2f}x | {stack / lean:.1f}x | {med('lean', tool, 32, 'calls_s'):,.0f} |"
        )


if __name__ == "__main__":
    main()
