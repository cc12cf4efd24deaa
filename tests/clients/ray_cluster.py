"""Drive ``toolground serve --ray`` from outside and print one JSON line of what was seen.

Run by ``tests/test_scale_ray.py`` in ``.venv-ray`` (Ray installed), with ``TOOLGROUND_CACHE`` set
to a private folder. It starts a local Ray through ``serve --ray`` (4 shard actors, 2 gateway
processes), joins that Ray to look the actors up by name, drives 256 concurrent env sessions, one
session through both gateways, then kills one shard actor's process and follows Ray's restart of
it. Every process the server started must be gone once it is stopped.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx

from servers.runtime import Environment
from servers.scale.on_ray import NAMESPACE, RAY_ON_LOOPBACK, actor_name
from servers.scale.owner import owner
from state import SnapshotCache
from tests.serving import random_banking_calls, running_server
from tests.test_scale_out import CLUSTER, replay_hash, rpc

SHARDS, VICTIM = 4, 1
ray: Any = None  # imported by join(), once the server's Ray (and its token) exists


def join(layout: dict) -> None:
    """Connect to the Ray ``serve --ray`` started: on loopback, with the token it made."""
    global ray
    os.environ.update({RAY_ON_LOOPBACK: "0", "RAY_AUTH_MODE": "token"})
    os.environ["RAY_AUTH_TOKEN_PATH"] = layout["ray_auth_token_path"]
    import ray as ray_module

    ray = ray_module
    ray.init(address=layout["ray_address"], namespace=NAMESPACE, logging_level="ERROR")


def concurrent_sessions(base: str, env: Environment) -> dict:
    """256 sessions of 6 random banking calls at once; each final state against its serial replay."""
    rng = random.Random(16)
    plans = {f"ray-{i}": random_banking_calls(rng, 6) for i in range(256)}
    gateways: Counter[str] = Counter()
    failures: list[str] = []

    async def drive(client: httpx.AsyncClient, sid: str, calls) -> None:
        for rid, (name, args) in enumerate(calls):
            body, headers = rpc(name, args, sid, rid)
            r = await client.post(base + "/mcp", content=body, headers=headers)
            if r.status_code != 200 or "result" not in r.json():
                failures.append(f"{sid}: {r.status_code} {r.text[:200]}")
            gateways[r.headers.get("x-toolground-gateway", "?")] += 1

    async def run() -> None:
        # 8 pools of 8 connections, not one of 64: httpcore's pool does work per waiting request for
        # every request it hands out, which made one 64-connection pool cost ~20 ms of CPU a call.
        # New connections for each call (no keep-alive) land on both gateways.
        limits = httpx.Limits(max_connections=8, max_keepalive_connections=0)
        clients = [httpx.AsyncClient(limits=limits, timeout=60) for _ in range(8)]
        try:
            await asyncio.gather(
                *(drive(clients[i % 8], sid, calls) for i, (sid, calls) in enumerate(plans.items()))
            )
        finally:
            await asyncio.gather(*(c.aclose() for c in clients))

    started = time.monotonic()
    asyncio.run(run())
    seconds = time.monotonic() - started
    with httpx.Client(base_url=base, timeout=30) as admin:
        listing = admin.get("/admin/sessions").json()
        hashes = {sid: admin.get(f"/admin/sessions/{sid}/state").json()["hash"] for sid in plans}
    return {
        "sessions": len(plans),
        "seconds": round(seconds, 2),
        "failures": failures[:5],
        "gateways": dict(gateways),
        "mismatched": [sid for sid, calls in plans.items() if hashes[sid] != replay_hash(env, calls)],
        "distinct_hashes": len(set(hashes.values())),
        "listed": sorted(set(plans) - set(listing["ids"]))[:5],
        "per_shard": {str(s["index"]): s["count"] for s in listing["shards"]},
        "owned": {str(k): v for k, v in sorted(Counter(owner(sid, SHARDS) for sid in plans).items())},
        "kept_hashes": {sid: hashes[sid] for sid in plans if owner(sid, SHARDS) != VICTIM},
    }


def either_gateway(base: str) -> dict:
    """One session's deposits through whichever gateway the kernel picks: one balance, counting up."""
    sid, seen = "ray-both-gateways", {}
    with httpx.Client(limits=httpx.Limits(max_keepalive_connections=0), timeout=30) as client:
        for i in range(60):
            body, headers = rpc("banking_deposit", {"account": "ACC-000002", "amount": 1}, sid, i)
            r = client.post(base + "/mcp", content=body, headers=headers)
            seen.setdefault(r.headers["x-toolground-gateway"], []).append(
                r.json()["result"]["structuredContent"]["balance"]
            )
            if len(seen) == 2 and i >= 3:
                break
    balances = sorted(b for run in seen.values() for b in run)
    steps = {round(b - a, 2) for a, b in zip(balances, balances[1:], strict=False)}
    return {"gateways": sorted(seen), "calls": len(balances), "steps": sorted(steps)}


def named_actors(base: str) -> dict:
    """The shard actors by name in the server's Ray, and each one's process the one /health names."""
    health = httpx.get(base + "/health", timeout=30).json()
    pids = {}
    for k in range(SHARDS):
        pids[str(k)] = [actor_pid(k), health["shards"][k]["shard"]["pid"]]
    return {"pids": pids, "addresses": [s["address"] for s in health["shards"]]}


def actor_pid(k: int, wait: float = 30.0) -> int:
    """The pid of shard actor ``k``'s process, once Ray counts it restarted: its server answers
    (which /health saw) a moment before its constructor returns."""
    actor = ray.get_actor(actor_name(k), namespace=NAMESPACE)
    deadline = time.monotonic() + wait
    while True:
        try:
            return ray.get(actor.pid.remote(), timeout=wait)
        except ray.exceptions.ActorUnavailableError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def kill_a_shard(base: str, kept_hashes: dict[str, str]) -> dict:
    """SIGKILL shard VICTIM's actor process: its sessions fail by name, the others keep their state;
    Ray restarts it on its old address, its sessions answer "was lost", and a reset revives one."""
    out: dict = {}
    with httpx.Client(timeout=30) as client:

        def call(sid: str, name: str = "banking_deposit", args: dict | None = None) -> dict:
            body, headers = rpc(name, args or {"account": "ACC-000003", "amount": 2}, sid)
            return client.post(base + "/mcp", content=body, headers=headers).json()

        sids = [f"ray-k-{i}" for i in range(24)]
        assert all("result" in call(sid) for sid in sids)
        lost = [s for s in sids if owner(s, SHARDS) == VICTIM]
        kept = [s for s in sids if owner(s, SHARDS) != VICTIM]
        before = client.get(base + "/health").json()["shards"][VICTIM]
        held = client.get(base + "/admin/sessions").json()["shards"][VICTIM]["count"]
        os.kill(before["shard"]["pid"], signal.SIGKILL)
        killed = time.monotonic()
        down = call(lost[0])
        out["down_error"] = down.get("error")
        admin = client.get(f"{base}/admin/sessions/{lost[0]}/state")
        out["down_admin"] = [admin.status_code, admin.json().get("error", "")]
        out["kept_ok"] = [
            call(s, "banking_get_balance", {"account": "ACC-000003"})["result"]["isError"] is False
            for s in kept
        ]
        out["kept_state"] = [
            client.get(f"{base}/admin/sessions/{sid}/state").json()["hash"] == h
            for sid, h in list(kept_hashes.items())[:40]
        ]
        out["status_while_down"] = client.get(base + "/health").json()["status"]
        deadline = time.monotonic() + 60
        while (health := client.get(base + "/health").json())["status"] != "ok":
            if time.monotonic() > deadline:
                out["restarted"] = False
                return out
            time.sleep(0.2)
        out["restarted"] = True
        out["restart_seconds"] = round(time.monotonic() - killed, 2)
        after = health["shards"][VICTIM]
        out["same_address"] = after["address"] == before["address"]
        out["new_pid"] = after["shard"]["pid"] != before["shard"]["pid"]
        out["actor_pid_is_new_pid"] = actor_pid(VICTIM) == after["shard"]["pid"]
        again = call(lost[0])["result"]
        out["lost_text"] = again["content"][0]["text"] if again["isError"] else ""
        out["lost_admin"] = client.get(f"{base}/admin/sessions/{lost[0]}/state").status_code
        out["reset"] = client.post(f"{base}/admin/sessions/{lost[0]}/reset").status_code
        out["after_reset_ok"] = call(lost[0])["result"]["isError"] is False
        out["lost_sessions"] = client.get(base + "/health").json()["shards"][VICTIM]["shard"]["lost_sessions"]
        out["held_when_killed"] = held
        out["lost_id"] = lost[0]
    return out


def descendants(root: int) -> set[int]:
    """Every process below ``root`` (by parent pid, read from /proc)."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(stat.parent.name)] = int(fields[1])
    found, frontier = set(), {root}
    while frontier:
        frontier = {pid for pid, ppid in parents.items() if ppid in frontier} - found
        found |= frontier
    return found


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _published(path: Path, timeout: float = 15.0) -> Path:
    """The layout file: the gateways answer /health a moment before the supervisor writes it."""
    deadline = time.monotonic() + timeout
    while not path.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    return path


def main() -> int:
    cache = Path(os.environ["TOOLGROUND_CACHE"])
    env = Environment("banking", scale="small", cache=SnapshotCache(cache))
    findings: dict = {}
    with tempfile.TemporaryDirectory(prefix="tg-ray-") as tmp:
        run_dir = Path(tmp) / "run"
        started = time.monotonic()
        with running_server(cache, *CLUSTER, "--ray", "--run-dir", str(run_dir), timeout=240) as base:
            findings["start_seconds"] = round(time.monotonic() - started, 2)
            layout = json.loads(_published(run_dir / "layout.json").read_text())
            findings["layout"] = {k: layout[k] for k in ("actors", "namespace", "shards", "ray_address")}
            join(layout)
            try:
                findings["actors"] = named_actors(base)
                load = concurrent_sessions(base, env)
                findings["load"] = {k: v for k, v in load.items() if k != "kept_hashes"}
                findings["either_gateway"] = either_gateway(base)
                findings["kill"] = kill_a_shard(base, load["kept_hashes"])
            finally:
                ray.shutdown()
            started_by_server = descendants(os.getpid())
            stopping = time.monotonic()
        deadline = time.monotonic() + 30
        while (left := [p for p in started_by_server if alive(p)]) and time.monotonic() < deadline:
            time.sleep(0.2)
        findings["stop_seconds"] = round(time.monotonic() - stopping, 2)
        findings["processes"] = len(started_by_server)
        findings["left_running"] = left
    print(json.dumps(findings))
    return 0


if __name__ == "__main__":
    sys.exit(main())
