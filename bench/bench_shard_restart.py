"""How long a killed shard takes to come back, kill after kill (issue 37 item 10).

    .venv/bin/python bench/bench_shard_restart.py               # 9 kills in a row, ~40 s
    .venv/bin/python bench/bench_shard_restart.py --kills 12 --give-up 60

Starts ``serve --workers 2`` (banking, medium, 1 gateway) in-process as a :class:`LocalCluster`
with its supervisor watching in a thread, then SIGKILLs shard 1 as soon as it answers again, over
and over. For each kill: seconds from the kill until the gateway's ``/health`` answers 200 again,
the status codes ``/health`` gave meanwhile, and the most advanced state it reported for the shard
(``starting`` or ``backing off``). The first five exits in a row restart at once; after that the
supervisor waits 1, 2, 4 ... s (up to 30 s) before starting it, so the times grow by that.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import signal
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
os.environ.setdefault("FASTMCP_SHOW_SERVER_BANNER", "false")
os.environ.setdefault("FASTMCP_CHECK_FOR_UPDATES", "off")

from servers.runtime import Environment  # noqa: E402
from servers.scale.local import LocalCluster  # noqa: E402
from tests.serving import free_port  # noqa: E402

SERVE_ARGS = ["--domains", "banking", "--scale", "medium"]


def health(port: int) -> tuple[int, dict]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", "/health")
        r = conn.getresponse()
        return r.status, json.loads(r.read())
    finally:
        conn.close()


def one_kill(port: int, give_up: float) -> dict:
    """Kill shard 1, then poll /health every 20 ms until it is 200 again (or ``give_up`` s pass)."""
    _, before = health(port)
    os.kill(before["shards"][1]["shard"]["pid"], signal.SIGKILL)
    killed = time.monotonic()
    codes, states = set(), []
    while True:
        status, body = health(port)
        row = body["shards"][1]
        if status == 200 and row.get("up"):
            return {
                "back_after_s": round(time.monotonic() - killed, 2),
                "health_codes_while_down": sorted(codes),
                "states_while_down": list(dict.fromkeys(states)),
            }
        codes.add(status)
        states.append(str(row.get("state")))  # None on a gateway that reports no state
        if time.monotonic() - killed > give_up:
            return {"back_after_s": None, "health_codes_while_down": sorted(codes), "states_while_down": []}
        time.sleep(0.02)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kills", type=int, default=9)
    ap.add_argument("--give-up", type=float, default=60.0, help="seconds to wait for one restart")
    args = ap.parse_args()
    Environment("banking", scale="medium").snapshots()  # built once, as serve --workers does
    port = free_port()
    cluster = LocalCluster(
        2, 1, "127.0.0.1", port, SERVE_ARGS, Path(tempfile.mkdtemp(prefix="bench-restart-"))
    )
    cluster.start()
    watcher = threading.Thread(target=cluster.watch, kwargs={"poll": 0.25}, daemon=True)
    watcher.start()
    try:
        while health(port)[0] != 200:
            time.sleep(0.1)
        rows = []
        for k in range(1, args.kills + 1):
            row = {"kill": k, **one_kill(port, args.give_up)}
            rows.append(row)
            print(json.dumps(row), flush=True)
            if row["back_after_s"] is None:
                break
    finally:
        cluster.stop()
    print("\n| kill in a row | back after (s) | /health while down | states reported |")
    print("|---:|---:|---|---|")
    for r in rows:
        codes = ", ".join(map(str, r["health_codes_while_down"]))
        back = "not back" if r["back_after_s"] is None else f"{r['back_after_s']:.2f}"
        print(f"| {r['kill']} | {back} | {codes} | {', '.join(r['states_while_down'])} |")


if __name__ == "__main__":
    main()
