"""Forking an env session over HTTP, beside opening a fresh one, on ``serve --workers 2``.

    .venv/bin/python bench/bench_fork_http.py               # banking / medium, 100 rounds

One ``toolground serve --domains banking --scale medium --workers 2`` (two shards behind two
gateways), a source env session with ``--writes`` deposits. Each row ends with the new session
having made one write (a deposit), so each pays the copy of its database:

- fresh session: ``POST /admin/sessions/<new>/reset`` + the first write (the copy of the snapshot);
- fork, same shard: ``POST /admin/sessions/<source>/fork`` to an id the source's shard owns + the
  first write (the branch deserializes the source's bytes);
- fork, across shards: the same to an id the other shard owns (the gateway carries the episode's
  bytes: export, import with its schema check, then the write).

Rounds interleave the three; every new session is released after its row (untimed). Times are
wall-clock per row on one keep-alive connection, client included.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from servers.scale.owner import owner  # noqa: E402
from tests.serving import running_server, tool_call_body  # noqa: E402

HEADERS = {
    "Content-Type": "application/json",
    "Accept": "application/json, text/event-stream",
    "MCP-Protocol-Version": "2026-07-28",
    "Mcp-Method": "tools/call",
}


def deposit(client: httpx.Client, sid: str, amount: float) -> None:
    body = tool_call_body("banking_deposit", {"account": "ACC-000001", "amount": amount})
    headers = {**HEADERS, "Mcp-Name": "banking_deposit", "X-Env-Session": sid}
    r = client.post("/mcp", content=body, headers=headers)
    assert r.status_code == 200 and "result" in r.json(), r.text


def run(base: str, rounds: int, writes: int) -> dict[str, list[float]]:
    client = httpx.Client(base_url=base, timeout=60)
    source = next(f"src-{i}" for i in range(100) if owner(f"src-{i}", 2) == 0)
    for _ in range(writes):
        deposit(client, source, 1.0)
    names = {
        "fresh session (reset + first write)": None,
        "fork, same shard (fork + first write)": 0,
        "fork, across shards (fork + first write)": 1,
    }
    times: dict[str, list[float]] = {name: [] for name in names}
    for k in range(rounds):
        for name, shard in names.items():
            sid = next(
                f"r{k}-{shard}-{i}" for i in range(1000) if owner(f"r{k}-{shard}-{i}", 2) == (shard or 0)
            )
            t = time.perf_counter()
            if shard is None:
                r = client.post(f"/admin/sessions/{sid}/reset")
            else:
                r = client.post(f"/admin/sessions/{source}/fork", json={"to": sid})
            assert r.status_code == 200, r.text
            deposit(client, sid, 2.0)
            times[name].append(time.perf_counter() - t)
            client.delete(f"/admin/sessions/{sid}")
    client.close()
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=100)
    ap.add_argument("--writes", type=int, default=50, help="deposits on the source before the forks")
    ap.add_argument(
        "--cache", default=os.environ.get("TOOLGROUND_CACHE", str(Path.home() / ".cache" / "toolground"))
    )
    args = ap.parse_args()
    serve = ("--domains", "banking", "--scale", "medium", "--workers", "2")
    with running_server(Path(args.cache), *serve, timeout=300) as base:
        times = run(base, args.rounds, args.writes)
    fresh = statistics.median(next(iter(times.values())))
    print(
        f"banking / medium, {args.writes} deposits on the source, serve --workers 2, {args.rounds} rounds\n"
    )
    print("| method | p50 ms | p95 ms | p50 / fresh session |\n|---|---:|---:|---:|")
    for name, xs in times.items():
        xs = sorted(xs)
        p95 = xs[min(len(xs) - 1, round(0.95 * (len(xs) - 1)))]
        med = statistics.median(xs)
        print(f"| {name} | {med * 1e3:.2f} | {p95 * 1e3:.2f} | {med / fresh:.2f}x |")
    print(json.dumps({k: round(statistics.median(v) * 1e3, 3) for k, v in times.items()}))


if __name__ == "__main__":
    main()
