"""The real server on 127.0.0.1 with real MCP clients: isolation, eras, stdio, the admin API."""

from __future__ import annotations

import asyncio
import random
import sys

import httpx
import pytest
from fastmcp import Client
from fastmcp.client.transports import StdioTransport, StreamableHttpTransport

from servers.runtime import Environment
from tests.serving import REPO, random_banking_calls, running_server, server_env


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    return tmp_path_factory.mktemp("served-cache")


@pytest.fixture(scope="module")
def server(cache):
    with running_server(cache, "--domains", "banking", "--scale", "small", "--max-sessions", "200") as base:
        yield base


def replay_hash(snapshot_cache, calls) -> str:
    env = Environment("banking", scale="small", cache=snapshot_cache)
    ep = env.open()
    for name, args in calls:
        env.call(ep, name, args)
    return ep.state_hash()


async def _drive(url: str, sid: str, calls) -> list[bool]:
    oks = []
    async with Client(StreamableHttpTransport(url, headers={"X-Env-Session": sid})) as client:
        for name, args in calls:
            res = await client.call_tool(name, args, raise_on_error=False)
            oks.append(not res.is_error)
    return oks


def test_64_concurrent_sessions_match_their_serial_replay(server, snapshot_cache):
    rng = random.Random(7)
    plans = {f"iso-{i}": random_banking_calls(rng, 12) for i in range(64)}

    async def all_sessions():
        return await asyncio.gather(*(_drive(server + "/mcp", sid, calls) for sid, calls in plans.items()))

    results = asyncio.run(all_sessions())
    assert any(all(r) for r in results) and any(not all(r) for r in results), (
        "expect both successes and failures"
    )
    hashes = set()
    for sid, calls in plans.items():
        state = httpx.get(f"{server}/admin/sessions/{sid}/state").json()
        assert state["hash"] == replay_hash(snapshot_cache, calls), sid
        hashes.add(state["hash"])
    assert len(hashes) > 60  # the sessions really diverged


def test_both_protocol_eras_and_all_id_sources(server):
    url = server + "/mcp"

    async def run():
        async with Client(StreamableHttpTransport(url, headers={"X-Env-Session": "era-a"})) as c:
            await c.call_tool("banking_deposit", {"account": "ACC-000001", "amount": 3})
        async with Client(url + "?env_session=era-a") as c:  # modern era, id in the URL
            via_query = (
                await c.call_tool("banking_get_balance", {"account": "ACC-000001"})
            ).structured_content
        async with Client(url, mode="legacy") as c:  # handshake era: id from Mcp-Session-Id
            legacy = (await c.call_tool("banking_get_balance", {"account": "ACC-000001"})).structured_content
        async with Client(url) as c:
            by_meta = await c.call_tool(
                "banking_get_balance", {"account": "ACC-000001"}, meta={"env_session": "era-a"}
            )
            missing = await c.call_tool(
                "banking_get_balance", {"account": "ACC-000001"}, raise_on_error=False
            )
        return via_query, legacy, by_meta.structured_content, missing

    via_query, legacy, by_meta, missing = asyncio.run(run())
    assert via_query == by_meta
    assert round(via_query["balance"] - legacy["balance"], 2) == 3.0
    assert missing.is_error and "X-Env-Session" in missing.content[0].text


def test_admin_api_reset_diff_release(server):
    sid = "adm-1"

    async def write():
        async with Client(StreamableHttpTransport(server + "/mcp", headers={"X-Env-Session": sid})) as c:
            await c.call_tool("banking_freeze_account", {"account": "ACC-000001"})

    asyncio.run(write())
    before = httpx.get(f"{server}/admin/sessions/{sid}/state").json()
    assert before["snapshot"]["banking"]["scale"] == "small"
    diff = httpx.get(f"{server}/admin/sessions/{sid}/diff").json()
    assert [(c["table"], c["column"], c["new"]) for c in diff["changes"]] == [
        ("accounts", "status", "frozen")
    ]
    after = httpx.post(f"{server}/admin/sessions/{sid}/reset").json()
    assert after["hash"] != before["hash"]
    assert httpx.get(f"{server}/admin/sessions/{sid}/diff").json()["changes"] == []
    listing = httpx.get(f"{server}/admin/sessions").json()
    assert sid in listing["ids"] and listing["count"] >= 1 and "memory_bytes" in listing
    assert httpx.delete(f"{server}/admin/sessions/{sid}").json()["released"] is True
    gone = httpx.get(f"{server}/admin/sessions/{sid}/state")
    assert gone.status_code == 404 and "no env session" in gone.json()["error"]


def test_admin_is_not_an_mcp_tool_and_host_is_checked(server):
    async def names():
        async with Client(StreamableHttpTransport(server + "/mcp", headers={"X-Env-Session": "n"})) as c:
            return [t.name for t in await c.list_tools()]

    tool_names = asyncio.run(names())
    assert all(n.startswith("banking_") for n in tool_names)
    assert not any(w in n for n in tool_names for w in ("reset", "diff", "snapshot", "release"))
    assert httpx.get(server + "/health", headers={"Host": "attacker.example"}).status_code == 421
    assert (
        httpx.get(server + "/admin/sessions", headers={"Origin": "http://attacker.example"}).status_code
        == 403
    )


def test_admin_token_is_enforced(cache):
    with running_server(cache, "--domains", "banking", "--scale", "small", "--admin-token", "s3cret") as base:
        assert httpx.get(base + "/admin/sessions").status_code == 401
        ok = httpx.get(base + "/admin/sessions", headers={"Authorization": "Bearer s3cret"})
        assert ok.status_code == 200 and ok.json()["count"] == 0


def test_stdio_sessions_are_isolated_and_replayable(cache, snapshot_cache):
    rng = random.Random(3)
    plans = {f"st-{i}": random_banking_calls(rng, 10) for i in range(4)}
    transport = StdioTransport(
        command=sys.executable,
        args=[
            "-m",
            "toolground",
            "serve",
            "--transport",
            "stdio",
            "--domains",
            "banking",
            "--scale",
            "small",
        ],
        env=server_env(cache),
        cwd=str(REPO),
    )

    async def run():
        async with Client(transport) as c:
            for step in range(10):  # interleave the sessions call by call
                for sid, calls in plans.items():
                    name, args = calls[step]
                    await c.call_tool(name, args, raise_on_error=False, meta={"env_session": sid})
            out = {}
            for sid in plans:
                res = await c.call_tool(
                    "banking_list_records", {"table": "accounts", "limit": 8}, meta={"env_session": sid}
                )
                out[sid] = res.structured_content["rows"]
            return out

    rows = asyncio.run(run())
    for sid, calls in plans.items():
        env = Environment("banking", scale="small", cache=snapshot_cache)
        ep = env.open()
        for name, args in calls:
            env.call(ep, name, args)
        assert rows[sid] == env.invoke(ep, "banking_list_records", {"table": "accounts", "limit": 8})["rows"]


MCP1_PYTHON = REPO / ".venv-mcp1" / "bin" / "python"


@pytest.mark.skipif(not MCP1_PYTHON.exists(), reason="`make test` creates .venv-mcp1 with the mcp 1.x SDK")
def test_official_mcp_1x_client_session(server):
    import json
    import subprocess

    out = subprocess.run(
        [str(MCP1_PYTHON), str(REPO / "tests" / "clients" / "mcp1_client.py"), server + "/mcp"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    seen = json.loads(out.stdout.strip().splitlines()[-1])
    for run in seen.values():
        assert run["protocol"] == "2025-11-25" and run["tools"] > 20
        assert (
            run["deposit_error"] is False and run["bad_error"] is True and "does not exist" in run["bad_text"]
        )
    # Two handshake sessions without a header are two episodes; each saw only its own deposit.
    assert seen["legacy_a"]["session"] != seen["legacy_b"]["session"]
    assert seen["legacy_a"]["balance"] == seen["legacy_b"]["balance"]
