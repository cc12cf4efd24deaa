"""What the inbound guard (:mod:`servers.inbound`) adds to every request: µs of CPU, in process.

    .venv/bin/python bench/bench_inbound.py            # 5 rounds of 100,000 requests each way
    .venv/bin/python bench/bench_inbound.py --quick    # 1 round of 20,000

The same ASGI request (the headers and ~250-byte body of a lean ``tools/call``, the body already
received, as a keep-alive client's usually is) goes to a no-op app directly and through
:class:`InboundGuard`, on uvloop where installed; the difference of the medians is the guard's
cost. A second pair pads one header value, which takes the trimming branch too. No sockets: the
figure is the guard alone, to set beside the lean path's ~200 µs per call (BENCHMARKS.md).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from servers.inbound import InboundGuard

V = "2026-07-28"
META = {"io.modelcontextprotocol/protocolVersion": V, "io.modelcontextprotocol/clientCapabilities": {}}
BODY = json.dumps(
    {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": "banking_get_balance", "arguments": {"account": "ACC-000001"}, "_meta": META},
    }
).encode()


def _scope(pad: bool) -> dict:
    headers = [
        (b"host", b"127.0.0.1:8000"),
        (b"content-type", b"application/json"),
        (b"accept", b"application/json, text/event-stream"),
        (b"mcp-protocol-version", V.encode()),
        (b"mcp-method", b"tools/call"),
        (b"mcp-name", b"banking_get_balance " if pad else b"banking_get_balance"),
        (b"x-env-session", b"s1"),
        (b"content-length", str(len(BODY)).encode()),
    ]
    return {"type": "http", "method": "POST", "path": "/mcp", "headers": headers}


async def _app(scope, receive, send) -> None:
    await receive()  # the body, as the lean layer reads it


async def _receive() -> dict:
    return {"type": "http.request", "body": BODY, "more_body": False}


async def _send(message) -> None:
    pass


async def _per_request(app, scope: dict, n: int) -> float:
    start = time.perf_counter()
    for _ in range(n):
        await app(scope, _receive, _send)
    return (time.perf_counter() - start) / n * 1e6


async def main(rounds: int, n: int) -> None:
    guard = InboundGuard(_app)
    rows: dict[str, list[float]] = {"bare": [], "guard": [], "bare, padded": [], "guard, padded": []}
    for _ in range(rounds):
        for pad in (False, True):
            suffix = ", padded" if pad else ""
            rows["bare" + suffix].append(await _per_request(_app, _scope(pad), n))
            rows["guard" + suffix].append(await _per_request(guard, _scope(pad), n))
    med = {k: statistics.median(v) for k, v in rows.items()}
    for k, v in med.items():
        print(f"{k:<15} {v:6.2f} µs/request")
    print(
        f"guard adds      {med['guard'] - med['bare']:6.2f} µs/request ({med['guard, padded'] - med['bare, padded']:.2f} with a padded header)"
    )


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    rounds, n = (1, 20_000) if args.quick else (5, 100_000)
    try:
        import uvloop

        uvloop.run(main(rounds, n))
    except ImportError:
        asyncio.run(main(rounds, n))
