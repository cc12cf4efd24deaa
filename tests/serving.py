"""Helpers for tests that run the real server: start it, wait for it, drive sessions."""

from __future__ import annotations

import http.client
import json
import os
import random
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

PROTOCOL = "2026-07-28"  # stateless MCP: a tools/call needs no handshake
META = {"io.modelcontextprotocol/protocolVersion": PROTOCOL, "io.modelcontextprotocol/clientCapabilities": {}}

REPO = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def serving_in_thread(app, *, lifespan: str = "auto", timeout: float = 30.0) -> Iterator[int]:
    """uvicorn serving ``app`` on a free loopback port in a daemon thread; yields the port."""
    import threading

    import uvicorn

    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error", lifespan=lifespan)
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + timeout
    while not server.started:
        if time.monotonic() > deadline:
            raise RuntimeError("server did not start in time")
        time.sleep(0.05)
    try:
        yield port
    finally:
        server.should_exit = True
        thread.join(10)


def server_env(cache: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        TOOLGROUND_CACHE=str(cache),
        FASTMCP_SHOW_SERVER_BANNER="false",
        FASTMCP_CHECK_FOR_UPDATES="off",
        PYTHONPATH=str(REPO),
    )
    return env


def run_cli(tmp_path: Path, *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    """``python -m toolground ARGS`` with a private snapshot cache under ``tmp_path``."""
    return subprocess.run(
        [sys.executable, "-m", "toolground", *args],
        capture_output=True,
        text=True,
        env=server_env(tmp_path / "cache"),
        cwd=REPO,
        timeout=timeout,
    )


@contextmanager
def running_server(cache: Path, *args: str, timeout: float = 60.0) -> Iterator[str]:
    """``toolground serve`` in a subprocess on a free loopback port; yields its base URL."""
    port = free_port()
    cmd = [sys.executable, "-m", "toolground", "serve", "--port", str(port), *args]
    proc = subprocess.Popen(
        cmd, env=server_env(cache), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=REPO
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + timeout
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"server exited early:\n{proc.stdout.read().decode()}")
            try:
                if httpx.get(base + "/health", timeout=1.0).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("server did not come up in time")
            time.sleep(0.2)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


def random_banking_calls(rng: random.Random, n: int) -> list[tuple[str, dict]]:
    """A mix of writes (some of which fail on purpose) over a few accounts."""
    accounts = [f"ACC-{i:06d}" for i in range(1, 9)]
    calls: list[tuple[str, dict]] = []
    for _ in range(n):
        kind = rng.choice(["deposit", "withdraw", "transfer", "freeze", "unfreeze", "phone", "read"])
        a, b = rng.sample(accounts, 2)
        amount = round(rng.uniform(1, 400), 2)
        if kind == "deposit":
            calls.append(("banking_deposit", {"account": a, "amount": amount}))
        elif kind == "withdraw":
            calls.append(("banking_withdraw", {"account": a, "amount": amount}))
        elif kind == "transfer":
            calls.append(("banking_transfer", {"source": a, "target": b, "amount": amount, "memo": "t"}))
        elif kind == "freeze":
            calls.append(("banking_freeze_account", {"account": a}))
        elif kind == "unfreeze":
            calls.append(("banking_unfreeze_account", {"account": a}))
        elif kind == "phone":
            calls.append(
                ("banking_update_phone", {"customer": f"CUS-{rng.randint(1, 5):06d}", "phone": str(amount)})
            )
        else:
            calls.append(("banking_get_balance", {"account": a}))
    return calls


def post_tool_call(base: str, name: str, body: bytes, sid: str) -> dict[str, Any]:
    """One raw stateless MCP ``tools/call`` (the body exactly as given, so ``NaN`` can be sent as
    JSON text) on env session ``sid``; the JSON-RPC reply."""
    host, port = base.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=30)
    headers = {
        "Content-Type": "application/json",
        "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": PROTOCOL,
        "Mcp-Method": "tools/call",
        "Mcp-Name": name,
        "X-Env-Session": sid,
    }
    conn.request("POST", "/mcp", body, headers)
    r = conn.getresponse()
    status, text = r.status, r.read().decode()
    conn.close()
    assert status == 200, (status, text)
    assert "Traceback" not in text
    if not text.startswith("{"):  # an event stream: the reply is its data line
        text = next(line[5:] for line in text.splitlines() if line.startswith("data:"))
    return json.loads(text)


def tool_call_body(name: str, arguments: dict[str, Any]) -> bytes:
    params = {"name": name, "arguments": arguments, "_meta": META}
    return json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params}).encode()
