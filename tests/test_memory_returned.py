"""After a burst of concurrent sessions is released, the server's RSS comes back to its baseline."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from fastmcp import Client
from fastmcp.client.transports import StreamableHttpTransport

from state.memory import TrimPolicy, trim
from tests.serving import REPO, free_port, server_env

SESSIONS = 256
MIB = 1 << 20


def rss(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


async def _burst(url: str, ids: list[str], clients: int = 32) -> None:
    """Every id becomes a live env session with writes; 32 clients at a time, and the sessions stay
    open in the store until released, so all of them are held at once."""
    gate = asyncio.Semaphore(clients)

    async def one(sid: str) -> None:
        async with (
            gate,
            Client(StreamableHttpTransport(url, headers={"X-Env-Session": sid}), timeout=60) as client,
        ):
            for k in range(3):
                await client.call_tool("banking_deposit", {"account": f"ACC-00000{k + 1}", "amount": 10.0})
            await client.call_tool("banking_list_transactions", {"account": "ACC-000001"})

    await asyncio.gather(*(one(sid) for sid in ids))


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads RSS from /proc")
def test_rss_returns_near_baseline_after_256_sessions_are_released(tmp_path):
    port = free_port()
    cmd = [sys.executable, "-m", "toolground", "serve", "--port", str(port), "--domains", "banking"]
    proc = subprocess.Popen(
        cmd,
        env=server_env(tmp_path / "cache"),
        cwd=REPO,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            assert proc.poll() is None, "server exited"
            try:
                if httpx.get(base + "/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "server did not start"
            time.sleep(0.2)
        warm = [f"warm-{i}" for i in range(8)]  # load every code path before the baseline
        asyncio.run(_burst(base + "/mcp", warm))
        for sid in warm:
            httpx.delete(f"{base}/admin/sessions/{sid}")
        baseline = rss(proc.pid)
        ids = [f"burst-{i}" for i in range(SESSIONS)]
        asyncio.run(_burst(base + "/mcp", ids))
        peak = rss(proc.pid)
        assert httpx.get(base + "/admin/sessions").json()["count"] == SESSIONS
        with httpx.Client(base_url=base) as client:
            for sid in ids:
                assert client.delete(f"/admin/sessions/{sid}").status_code == 200
        after = rss(proc.pid)
        assert peak - baseline > 64 * MIB, "the burst should have grown the heap, or the test shows nothing"
        assert after - baseline < 64 * MIB, (baseline // MIB, peak // MIB, after // MIB)
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_trim_policy_trims_when_the_store_empties_or_enough_was_freed():
    policy = TrimPolicy(every_bytes=100)
    available = trim()  # False off glibc: then the policy can never report a trim
    assert policy.freed(10, store_empty=False) is False
    assert policy.freed(10, store_empty=True) is available
    assert policy.freed(60, store_empty=False) is False
    assert policy.freed(60, store_empty=False) is available  # 120 bytes since the last trim
    assert policy.freed(0, store_empty=True) is False  # nothing freed since: nothing to trim
