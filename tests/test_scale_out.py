"""``toolground serve --workers N``: hash-owned shards behind stateless gateways, on 127.0.0.1.

Real processes and real clients: 256 concurrent env sessions through two gateways into four
shards, each ending in the state its serial replay ends in; one session seen through both
gateways; handshake-era mcp 1.x sessions routed back to the shard that minted them; a killed
shard failing only its own sessions, with errors that name them, and coming back knowing which
sessions it lost.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import subprocess
import time
from collections import Counter
from pathlib import Path

import httpx
import pytest
from fastmcp import Client
from fastmcp.client.transports import SSETransport, StreamableHttpTransport

from servers.runtime import Environment
from servers.scale.owner import mcp_session_tag, owner, parse_shard, session_id_minter
from servers.scale.shard import EpisodeLost, NotOwned, ShardCustodian
from servers.serve import build_http_app
from state import EpisodeStore
from tests.serving import REPO, random_banking_calls, run_cli, running_server, serving_in_thread

V = "2026-07-28"
META = {"io.modelcontextprotocol/protocolVersion": V, "io.modelcontextprotocol/clientCapabilities": {}}
BANKING_TOOLS = len(Environment("banking").visible_tools())
CLUSTER = ("--domains", "banking", "--scale", "small", "--workers", "4", "--gateways", "2")


def rpc(name: str, arguments: dict, sid: str, rid: int = 1) -> tuple[bytes, dict[str, str]]:
    """A 2026-era ``tools/call`` POST: no handshake, the env session in a header."""
    body = {
        "jsonrpc": "2.0",
        "id": rid,
        "method": "tools/call",
        "params": {"name": name, "arguments": arguments, "_meta": META},
    }
    headers = {
        "Content-Type": "application/json",
        "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": V,
        "Mcp-Method": "tools/call",
        "Mcp-Name": name,
        "X-Env-Session": sid,
    }
    return json.dumps(body).encode(), headers


def replay_hash(env: Environment, calls) -> str:
    ep = env.open()
    for name, args in calls:
        env.call(ep, name, args)
    return ep.state_hash()


# -- ownership and the journal, in-process -------------------------------------------------------


def test_owner_is_stable_spread_and_honours_shard_minted_ids():
    ids = [f"rollout-{i}" for i in range(4000)]
    spread = Counter(owner(i, 4) for i in ids)
    assert set(spread) == {0, 1, 2, 3} and min(spread.values()) > 900  # ~1000 each
    assert [owner(i, 4) for i in ids[:8]] == [owner(i, 4) for i in ids[:8]]
    assert owner("rollout-0", 4) == 2 and owner("rollout-7", 4) == 1  # fixed: gateways of any version agree
    minted = session_id_minter(2)()
    assert owner(minted, 4) == 2 and owner("mcp:" + minted, 4) == 2
    assert owner(minted.replace("shard2", "shard9"), 4) in range(4)  # a tag past the count is just hashed
    assert parse_shard("3/4") == (3, 4)
    for bad in ("4/4", "x/2", "1", "-1/3"):
        with pytest.raises(ValueError, match="INDEX/COUNT"):
            parse_shard(bad)


def test_custodian_refuses_other_shards_ids_and_remembers_lost_ones(tmp_path, snapshot_cache):
    env = Environment("banking", scale="small", cache=snapshot_cache)
    journal = tmp_path / "shard-1.journal"
    mine = [i for i in (f"s{k}" for k in range(40)) if owner(i, 3) == 1]
    theirs = next(i for i in (f"s{k}" for k in range(40)) if owner(i, 3) != 1)
    store = EpisodeStore(env.snapshots, custodian=ShardCustodian(1, 3, journal))
    for sid in mine[:3]:
        store.get(sid)
    with pytest.raises(NotOwned, match=f"belongs to shard {owner(theirs, 3)} of 3"):
        store.get(theirs)
    assert store.release(mine[2])
    journal.write_text(journal.read_text() + "+torn")  # a line the dead writer never finished

    reborn = EpisodeStore(env.snapshots, custodian=ShardCustodian(1, 3, journal))
    for sid in mine[:2]:  # held when the process died: lost, not silently fresh
        with pytest.raises(EpisodeLost, match="was lost"):
            reborn.get(sid)
    assert reborn.get(mine[2]) is not None  # released before the crash: a new session as usual
    assert reborn.get(mine[0], renew=True) is not None  # a reset starts it afresh
    assert reborn.release(mine[1])  # releasing a lost id forgets it
    assert reborn.get(mine[1]) is not None
    assert ShardCustodian(1, 3, journal).lost == {mine[0], mine[1], mine[2]}


def test_the_shard_tag_belongs_to_the_server_it_was_built_with(snapshot_cache):
    """Two servers in one process: the one built with a shard's tag names that shard in the
    env-session id of an SSE connection (so a gateway finds it), the other does not."""
    assert ShardCustodian(3, 4).session_tag == mcp_session_tag(3) == "shard3."
    assert session_id_minter(3)().startswith(mcp_session_tag(3))
    tagged = Environment("banking", scale="small", cache=snapshot_cache)
    lone = Environment("banking", scale="small", cache=snapshot_cache)

    async def call_over_sse(port: int) -> None:
        async with Client(SSETransport(f"http://127.0.0.1:{port}/sse")) as c:
            await c.call_tool("banking_get_balance", {"account": "ACC-000001"})

    with (
        serving_in_thread(build_http_app(tagged, session_tag=mcp_session_tag(3))) as tagged_port,
        serving_in_thread(build_http_app(lone)) as lone_port,
    ):
        asyncio.run(call_over_sse(tagged_port))
        asyncio.run(call_over_sse(lone_port))
    [tagged_id], [lone_id] = tagged.store.ids(), lone.store.ids()
    assert tagged_id.startswith("mcp:shard3.") and owner(tagged_id, 4) == 3, tagged_id
    assert lone_id.startswith("mcp:") and not lone_id.startswith("mcp:shard"), lone_id


# -- a four-shard cluster behind two gateways ---------------------------------------------------


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    return tmp_path_factory.mktemp("scale-cache")


@pytest.fixture(scope="module")
def cluster(cache):
    with running_server(cache, *CLUSTER, timeout=120) as base:
        yield base


def test_256_concurrent_sessions_through_two_gateways_match_their_serial_replay(cluster, snapshot_cache):
    rng = random.Random(16)
    plans = {f"scale-{i}": random_banking_calls(rng, 6) for i in range(256)}
    gateways: Counter[str] = Counter()

    async def drive(client: httpx.AsyncClient, sid: str, calls) -> None:
        for rid, (name, args) in enumerate(calls):
            body, headers = rpc(name, args, sid, rid)
            r = await client.post(cluster + "/mcp", content=body, headers=headers)
            assert r.status_code == 200 and "result" in r.json(), r.text
            gateways[r.headers["x-toolground-gateway"]] += 1

    async def run() -> None:
        # 8 pools of 8 connections: one pool of 64 costs httpx ~20 ms of CPU per request, so the
        # client, not the servers, would set the pace. Half the pools open a connection per request,
        # so the kernel hands connections to both gateways however busy either is.
        clients = [
            httpx.AsyncClient(
                limits=httpx.Limits(max_connections=8, max_keepalive_connections=8 * (i % 2)), timeout=60
            )
            for i in range(8)
        ]
        try:
            await asyncio.gather(
                *(drive(clients[i % 8], sid, plan) for i, (sid, plan) in enumerate(plans.items()))
            )
        finally:
            for client in clients:
                await client.aclose()

    asyncio.run(run())
    assert set(gateways) == {"0", "1"}, gateways
    admin = httpx.Client(
        base_url=cluster, timeout=30
    )  # one client: httpx.get() builds an SSL context each time
    listing = admin.get("/admin/sessions").json()
    per_shard = {s["index"]: s["count"] for s in listing["shards"]}
    expected = Counter(owner(sid, 4) for sid in plans)
    assert all(per_shard[k] >= expected[k] for k in range(4)) and min(expected.values()) > 40
    assert set(plans) <= set(listing["ids"]) and listing["count"] >= 256
    hashes, env = set(), Environment("banking", scale="small", cache=snapshot_cache)
    for sid, calls in plans.items():
        state = admin.get(f"/admin/sessions/{sid}/state").json()
        assert state["hash"] == replay_hash(env, calls), sid
        hashes.add(state["hash"])
    assert len(hashes) > 240  # the sessions really diverged


def test_one_session_through_either_gateway_is_one_state(cluster):
    sid, seen = "both-gateways", {}
    with httpx.Client(limits=httpx.Limits(max_keepalive_connections=0), timeout=30) as client:
        for i in range(60):
            body, headers = rpc("banking_deposit", {"account": "ACC-000002", "amount": 1}, sid, i)
            r = client.post(cluster + "/mcp", content=body, headers=headers)
            seen.setdefault(r.headers["x-toolground-gateway"], []).append(
                r.json()["result"]["structuredContent"]["balance"]
            )
            if len(seen) == 2 and i >= 3:
                break
    assert set(seen) == {"0", "1"}, "the kernel never handed a connection to the second gateway"
    balances = sorted(b for run in seen.values() for b in run)
    assert all(round(b - a, 2) == 1.0 for a, b in zip(balances, balances[1:], strict=False))  # one counter


def test_fastmcp_and_mcp1_clients_through_the_gateways(cluster):
    async def fastmcp_run():
        async with Client(StreamableHttpTransport(cluster + "/mcp", headers={"X-Env-Session": "fm-1"})) as c:
            tools = await c.list_tools()
            await c.call_tool("banking_deposit", {"account": "ACC-000001", "amount": 7})
        async with Client(cluster + "/mcp") as c:
            meta = await c.call_tool(
                "banking_get_balance", {"account": "ACC-000001"}, meta={"env_session": "fm-1"}
            )
        async with Client(cluster + "/mcp?env_session=fm-1") as c:
            query = await c.call_tool("banking_get_balance", {"account": "ACC-000001"})
        return len(tools), meta.structured_content, query.structured_content

    n_tools, by_meta, by_query = asyncio.run(fastmcp_run())
    assert n_tools == BANKING_TOOLS and by_meta == by_query
    mcp1 = REPO / ".venv-mcp1" / "bin" / "python"
    if not mcp1.exists():
        pytest.skip("the mcp 1.x venv is made by `make test`")
    out = subprocess.run(
        [str(mcp1), str(REPO / "tests" / "clients" / "mcp1_client.py"), cluster + "/mcp"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    seen = json.loads(out.stdout)
    for run in ("legacy_a", "legacy_b", "header"):
        assert seen[run]["session"].startswith("shard") and not seen[run]["deposit_error"], seen[run]
    # each handshake session is its own world: both saw the snapshot's balance plus their own 11
    assert seen["legacy_a"]["balance"] == seen["legacy_b"]["balance"] == seen["header"]["balance"]
    listing = httpx.get(cluster + "/admin/sessions").json()
    for run in ("legacy_a", "legacy_b"):
        sid = "mcp:" + seen[run]["session"]
        assert sid in listing["ids"]
        state = httpx.get(f"{cluster}/admin/sessions/{sid}/state")
        assert state.status_code == 200 and state.json()["calls"] == 3


def test_a_shard_reached_directly_refuses_ids_it_does_not_own(cluster):
    health = httpx.get(cluster + "/health").json()
    assert health["status"] == "ok" and len(health["shards"]) == 4 and health["tools"] == BANKING_TOOLS
    path = health["shards"][0]["address"].removeprefix("unix:")
    foreign = next(f"x{i}" for i in range(100) if owner(f"x{i}", 4) != 0)
    with httpx.Client(transport=httpx.HTTPTransport(uds=path)) as direct:
        r = direct.post(f"http://localhost/admin/sessions/{foreign}/reset")
    assert r.status_code == 421 and f"belongs to shard {owner(foreign, 4)}" in r.json()["error"]


# -- losing a shard -------------------------------------------------------------------------------


def test_killing_a_shard_fails_only_its_sessions_with_errors_that_name_them(tmp_path, cache):
    token = {"Authorization": "Bearer k1ll"}
    args = (*CLUSTER, "--run-dir", str(tmp_path / "run"), "--admin-token", "k1ll")
    with running_server(cache, *args, timeout=120) as base:
        sids = [f"k-{i}" for i in range(24)]
        refused = httpx.get(base + "/admin/sessions")  # the shards check the token; the gateway passes it on
        assert refused.status_code == 401 and "Bearer" in refused.json()["error"]
        assert httpx.get(f"{base}/admin/sessions/{sids[0]}/state").status_code == 401
        with httpx.Client(timeout=30, headers=token) as client:

            def call(sid, name="banking_deposit", args=None):
                body, headers = rpc(name, args or {"account": "ACC-000003", "amount": 2}, sid)
                return client.post(base + "/mcp", content=body, headers=headers).json()

            for sid in sids:
                assert "result" in call(sid)
            health = client.get(base + "/health").json()
            victim, health_pid = 1, health["shards"][1]["shard"]["pid"]
            os.kill(health_pid, signal.SIGKILL)
            time.sleep(0.3)
            lost = [s for s in sids if owner(s, 4) == victim]
            kept = [s for s in sids if owner(s, 4) != victim]
            assert lost and kept
            for sid in kept:  # the other shards keep serving, state intact
                assert (
                    call(sid, "banking_get_balance", {"account": "ACC-000003"})["result"]["isError"] is False
                )
            down = call(lost[0])
            assert down["error"]["code"] == -32001 and f"env session '{lost[0]}'" in down["error"]["message"]
            assert "shard 1 of 4" in down["error"]["message"]
            admin = client.get(f"{base}/admin/sessions/{lost[0]}/state")
            assert admin.status_code == 503 and lost[0] in admin.json()["error"]
            assert client.get(base + "/health").json()["status"] in ("degraded", "ok")

            deadline = time.monotonic() + 60
            while client.get(base + "/health").json()["status"] != "ok":  # the supervisor restarts it
                assert time.monotonic() < deadline, "shard 1 was not restarted"
                time.sleep(0.2)
            again = call(lost[0])["result"]
            assert again["isError"] and "was lost" in again["content"][0]["text"]
            assert client.get(f"{base}/admin/sessions/{lost[0]}/state").status_code == 410
            assert client.post(f"{base}/admin/sessions/{lost[0]}/reset").status_code == 200
            assert call(lost[0])["result"]["isError"] is False  # a fresh episode after the reset
            assert client.get(base + "/health").json()["shards"][1]["shard"]["lost_sessions"] == len(lost) - 1


def test_scaled_serve_refuses_bad_layouts(tmp_path):
    for args, words in (
        (("--workers", "0"), "--workers and --gateways must be >= 1"),
        (("--workers", "2", "--transport", "stdio"), "stdio is one process"),
        (("--ray-address", "ray://x:10001"), "--ray-address needs --ray"),
        (("--shard", "4/4"), "INDEX/COUNT"),
        (("--journal", str(tmp_path / "j")), "use them with --shard"),
    ):
        out = run_cli(tmp_path, "serve", "--domains", "banking", *args)
        assert out.returncode == 2 and words in out.stderr, (args, out.stderr)
    out = run_cli(tmp_path, "gateway", "--shards", "nowhere")
    assert out.returncode == 2 and "http://HOST:PORT or unix:/PATH" in out.stderr


@pytest.mark.parametrize("how", ["SIGTERM", "SIGKILL"])
def test_stopping_the_supervisor_stops_every_process(tmp_path, cache, how):
    port_dir = tmp_path / "run"
    with running_server(cache, *CLUSTER, "--run-dir", str(port_dir), timeout=120):
        layout = json.loads((port_dir / "layout.json").read_text())
        pids = list(layout["pids"].values())
        assert len(pids) == 6
        if how == "SIGKILL":  # no chance to clean up: the children's parent-death signal must do it
            supervisor = int(Path(f"/proc/{pids[0]}/stat").read_text().rsplit(")", 1)[1].split()[1])
            os.kill(supervisor, signal.SIGKILL)
    deadline = time.monotonic() + 15
    while any(_alive(p) for p in pids):
        assert time.monotonic() < deadline, [p for p in pids if _alive(p)]
        time.sleep(0.1)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie (exited, not yet reaped by its dead parent) counts as gone
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except OSError:
        return False


def test_sse_clients_through_the_gateways_keep_private_sessions(cluster):
    account = {"account": "ACC-000001"}

    async def run():
        async with Client(SSETransport(cluster + "/sse")) as a, Client(SSETransport(cluster + "/sse")) as b:
            start = (await a.call_tool("banking_get_balance", account)).structured_content["balance"]
            await a.call_tool("banking_deposit", {**account, "amount": 40})
            seen_a = (await a.call_tool("banking_get_balance", account)).structured_content["balance"]
            seen_b = (await b.call_tool("banking_get_balance", account)).structured_content["balance"]
        async with Client(SSETransport(cluster + "/sse", headers={"X-Env-Session": "sse-named"})) as c:
            await c.call_tool("banking_deposit", {**account, "amount": 2})
        return start, seen_a, seen_b

    start, seen_a, seen_b = asyncio.run(run())
    assert round(seen_a - start, 2) == 40 and seen_b == start
    with httpx.Client(base_url=cluster) as admin:
        assert admin.get("/admin/sessions/sse-named/state").json()["calls"] == 1
        sse_ids = [i for i in admin.get("/admin/sessions").json()["ids"] if i.startswith("mcp:shard")]
        assert len(sse_ids) >= 2
        for sid in sse_ids:  # each names the shard holding it, and the gateway finds it there
            assert admin.get(f"/admin/sessions/{sid}/state").status_code == 200
