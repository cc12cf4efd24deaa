"""Scale-out under abuse (issue 37, items 10-13), through real shards and gateways on 127.0.0.1.

A shard that keeps dying is restarted with backoff and ``/health`` says so with its status code;
a gateway refuses to listen off loopback without a token and never serves ``/admin`` to a network
client because of its ``Host`` header; a handshake-era client whose shard restarted hears "was
lost"; a shard dying mid-stream does not crash the gateway's answer; and an env session derived
from an MCP session id cannot be opened by another client through ``X-Env-Session``.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from servers.scale.gateway import Gateway
from servers.scale.owner import owner
from tests.serving import REPO, free_port, run_cli, server_env
from tests.test_scale_out import rpc

MCP1 = next(
    (p for p in (REPO / ".venv-mcp1/bin/python", Path("/work/main/.venv-mcp1/bin/python")) if p.exists()),
    None,
)
SMALL = ("--domains", "banking", "--scale", "small")
HANDSHAKE = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}


@dataclass
class Cluster:
    base: str
    run_dir: Path
    log: Path
    proc: subprocess.Popen

    def health(self) -> httpx.Response:
        return httpx.get(self.base + "/health", timeout=10)

    def shard_pid(self, k: int) -> int:
        return self.health().json()["shards"][k]["shard"]["pid"]

    def wait_all_up(self, timeout: float = 40) -> None:
        deadline = time.monotonic() + timeout
        while self.health().json()["status"] != "ok":
            assert time.monotonic() < deadline, f"not every shard is back:\n{self.log.read_text()[-3000:]}"
            time.sleep(0.1)


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    return tmp_path_factory.mktemp("hold-cache")


@contextmanager
def scaled(tmp_path: Path, cache: Path, *extra: str, workers: int = 2) -> Iterator[Cluster]:
    """``serve --workers`` with its output (the supervisor's and every child's) in a file."""
    port, run_dir, log = free_port(), tmp_path / "run", tmp_path / "cluster.log"
    cmd = [sys.executable, "-m", "toolground", "serve", "--port", str(port), *SMALL]
    cmd += ["--workers", str(workers), "--gateways", "1", "--run-dir", str(run_dir), *extra]
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, env=server_env(cache), stdout=out, stderr=subprocess.STDOUT, cwd=REPO)
    cluster = Cluster(f"http://127.0.0.1:{port}", run_dir, log, proc)
    try:
        deadline = time.monotonic() + 120
        while not (run_dir / "layout.json").exists() or not _answers(cluster.base):
            assert proc.poll() is None, log.read_text()
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.1)
        yield cluster
    finally:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()


def _answers(base: str) -> bool:
    try:
        return httpx.get(base + "/health", timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


def _network_address() -> str | None:
    """This machine's address on its first non-loopback interface, if it has one."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("10.255.255.255", 9))  # no packet is sent: this only picks the route
        except OSError:
            return None
        addr = s.getsockname()[0]
    return None if addr.startswith("127.") or addr == "0.0.0.0" else addr


# -- item 10: a shard that keeps dying -----------------------------------------------------------


def test_a_shard_that_keeps_dying_is_restarted_with_backoff_and_health_says_so(tmp_path, cache):
    with scaled(tmp_path, cache) as cluster:
        sid = next(f"kd-{i}" for i in range(50) if owner(f"kd-{i}", 2) == 1)
        with httpx.Client(timeout=30) as client:
            body, headers = rpc("banking_deposit", {"account": "ACC-000003", "amount": 2}, sid)
            assert "result" in client.post(cluster.base + "/mcp", content=body, headers=headers).json()
        backing_off = None
        for _ in range(1, 9):  # past the old limit of 5 restarts in 60 s
            os.kill(cluster.shard_pid(1), signal.SIGKILL)
            deadline = time.monotonic() + 5
            while (health := cluster.health()).json()["shards"][1]["up"]:
                assert time.monotonic() < deadline
                time.sleep(0.05)
            # a load balancer reads the status: not every shard answers, so not 200
            assert health.status_code == 503 and health.json()["status"] == "degraded", health.text
            deadline = time.monotonic() + 40
            while not (row := health.json()["shards"][1])["up"]:  # until the supervisor brings it back
                assert row["state"] in ("starting", "backing off"), row
                if row["state"] == "backing off":
                    backing_off = row
                assert time.monotonic() < deadline, f"not restarted:\n{cluster.log.read_text()[-3000:]}"
                time.sleep(0.1)
                health = cluster.health()
        assert backing_off is not None, "eight deaths in a row were all restarted at once"
        assert backing_off["restart"]["exits_in_a_row"] >= 6 and backing_off["restart"]["next_start_in_s"] > 0
        ok = cluster.health()
        assert ok.status_code == 200 and ok.json()["shards"][1]["state"] == "up"
        log = cluster.log.read_text()
        assert "not restarting it" not in log and "restarting it in" in log, log[-2000:]
        with httpx.Client(timeout=30) as client:  # the lost episode can be started again
            assert client.post(f"{cluster.base}/admin/sessions/{sid}/reset").status_code == 200


# -- item 11: a gateway off loopback ------------------------------------------------------------


def test_a_gateway_refuses_to_listen_off_loopback_without_a_token(tmp_path, monkeypatch):
    monkeypatch.delenv("TOOLGROUND_ADMIN_TOKEN", raising=False)
    out = run_cli(tmp_path, "gateway", "--host", "0.0.0.0", "--shards", "unix:/nowhere.sock", timeout=20)
    assert out.returncode == 2, out.stderr
    assert "0.0.0.0" in out.stderr and "--admin-token" in out.stderr and "Traceback" not in out.stderr


@contextmanager
def lone_shard(tmp_path: Path, cache: Path) -> Iterator[str]:
    """Shard 0 of 1 on a Unix socket, started without an admin token."""
    sock = tmp_path / "shard-0.sock"
    cmd = [sys.executable, "-m", "toolground", "serve", *SMALL, "--shard", "0/1", "--uds", str(sock)]
    env = {k: v for k, v in server_env(cache).items() if k != "TOOLGROUND_ADMIN_TOKEN"}
    proc = subprocess.Popen(cmd, env=env, cwd=REPO)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with httpx.Client(transport=httpx.HTTPTransport(uds=str(sock))) as c:
                    if c.get("http://localhost/health").status_code == 200:
                        break
            except httpx.HTTPError:
                pass
            assert proc.poll() is None and time.monotonic() < deadline
            time.sleep(0.1)
        yield f"unix:{sock}"
    finally:
        proc.terminate()
        proc.wait(15)


def _all_interfaces() -> socket.socket:
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("0.0.0.0", 0))
    listener.listen(64)
    return listener


@contextmanager
def gateway_on_all_interfaces(shard: str, cache: Path, *args: str) -> Iterator[int]:
    """``toolground gateway`` on a socket bound to 0.0.0.0 and handed down as ``--fd`` (as
    ``serve --workers`` does); yields the port."""
    listener = _all_interfaces()
    port = listener.getsockname()[1]
    cmd = [sys.executable, "-m", "toolground", "gateway", "--shards", shard, "--fd", str(listener.fileno())]
    env = {k: v for k, v in server_env(cache).items() if k != "TOOLGROUND_ADMIN_TOKEN"}
    proc = subprocess.Popen([*cmd, *args], env=env, cwd=REPO, pass_fds=(listener.fileno(),))
    try:
        deadline = time.monotonic() + 30
        while not _answers(f"http://127.0.0.1:{port}"):
            assert proc.poll() is None and time.monotonic() < deadline
            time.sleep(0.1)
        yield port
    finally:
        proc.terminate()
        proc.wait(15)
        listener.close()


def test_a_gateway_never_serves_admin_to_a_network_client_for_its_host_header(tmp_path, cache):
    addr = _network_address()
    if addr is None:
        pytest.skip("this machine has no non-loopback address to be a network client from")
    local = {"Host": "127.0.0.1"}
    with lone_shard(tmp_path, cache) as shard:
        listener = _all_interfaces()  # what serve --workers hands its gateways: no token, no start
        cmd = [
            sys.executable,
            "-m",
            "toolground",
            "gateway",
            "--shards",
            shard,
            "--fd",
            str(listener.fileno()),
        ]
        env = {k: v for k, v in server_env(cache).items() if k != "TOOLGROUND_ADMIN_TOKEN"}
        out = subprocess.run(
            cmd, env=env, cwd=REPO, pass_fds=(listener.fileno(),), capture_output=True, timeout=20
        )
        listener.close()
        assert out.returncode == 2 and b"--admin-token" in out.stderr, out.stderr

        with gateway_on_all_interfaces(shard, cache, "--admin-token", "g4te") as port:
            bare = httpx.get(f"http://{addr}:{port}/admin/sessions", headers=local, timeout=10)
            assert bare.status_code == 401 and "Bearer" in bare.json()["error"]
            token = {**local, "Authorization": "bearer g4te"}  # the scheme is case-insensitive
            assert httpx.get(f"http://{addr}:{port}/admin/sessions", headers=token).status_code == 200
            body, headers = rpc("banking_get_balance", {"account": "ACC-000001"}, "net-1")
            call = httpx.post(f"http://{addr}:{port}/mcp", content=body, headers={**headers, **local})
            assert call.status_code == 200 and "result" in call.json()  # MCP itself needs no token

        # the gateway app itself, built without a token and put on every interface by hand
        with serving_on_all_interfaces(Gateway([shard])) as port:
            remote = httpx.get(f"http://{addr}:{port}/admin/sessions", headers=local, timeout=10)
            assert remote.status_code == 403, remote.text
            assert "--admin-token" in remote.json()["error"] and addr in remote.json()["error"]
            assert httpx.get(f"http://127.0.0.1:{port}/admin/sessions", timeout=10).status_code == 200


@contextmanager
def serving_on_all_interfaces(app) -> Iterator[int]:
    import threading

    import uvicorn

    listener = _all_interfaces()
    server = uvicorn.Server(uvicorn.Config(app, log_level="error", lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    try:
        yield listener.getsockname()[1]
    finally:
        server.should_exit = True
        thread.join(10)
        listener.close()


# -- item 12: handshake-era clients and streams across a shard death ---------------------------


def test_a_handshake_era_client_hears_was_lost_after_its_shard_restarts(tmp_path, cache):
    if MCP1 is None:
        pytest.skip("the mcp 1.x venv is made by `make test`")
    with scaled(tmp_path, cache) as cluster:
        client = subprocess.Popen(
            [str(MCP1), str(REPO / "tests/clients/mcp1_after_restart.py"), cluster.base + "/mcp"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            first = json.loads(client.stdout.readline() or "{}")
            assert first.get("session", "").startswith("shard"), client.stderr.read()[-2000:]
            shard = int(first["session"][len("shard") : first["session"].index(".")])
            os.kill(cluster.shard_pid(shard), signal.SIGKILL)
            time.sleep(0.3)
            cluster.wait_all_up()
            out, err = client.communicate("go\n", timeout=60)
        finally:
            client.kill()
        seen = json.loads(out.strip().splitlines()[-1])
        words = seen.get("error") or seen.get("text", "")
        assert "was lost" in words and f"mcp:{first['session']}" in words, (seen, err[-2000:])
        assert "initialize" in words  # what to do: a new MCP session
        log = cluster.log.read_text()
        assert "Traceback" not in log and "Exception in ASGI application" not in log, log[-3000:]


def test_a_shard_dying_mid_stream_ends_the_stream_without_a_gateway_traceback(tmp_path, cache):
    with scaled(tmp_path, cache) as cluster:
        with httpx.Client(timeout=30) as client:
            with client.stream("GET", cluster.base + "/sse") as stream:
                lines = stream.iter_lines()
                endpoint = next(line for line in lines if line.startswith("data:"))
                shard = int(endpoint.rsplit("tg_shard=", 1)[1])
                os.kill(cluster.shard_pid(shard), signal.SIGKILL)
                rest = list(lines)  # ends cleanly: no "incomplete chunked read"
            assert all("Traceback" not in line for line in rest)
        cluster.wait_all_up()
        time.sleep(0.5)
        log = cluster.log.read_text()
        assert "Traceback" not in log and "Exception in ASGI application" not in log, log[-3000:]


# -- item 13: MCP session ids are not env-session names ----------------------------------------


def _handshake(base: str) -> tuple[str, dict[str, str]]:
    """A 2025-era session opened by hand through the gateway: (its Mcp-Session-Id, headers to use)."""
    init = {
        "jsonrpc": "2.0",
        "id": 0,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "a", "version": "1"},
        },
    }
    r = httpx.post(base + "/mcp", json=init, headers=HANDSHAKE, timeout=30)
    sid = r.headers["mcp-session-id"]
    headers = {**HANDSHAKE, "Mcp-Session-Id": sid, "MCP-Protocol-Version": "2025-06-18"}
    note = {"jsonrpc": "2.0", "method": "notifications/initialized"}
    assert httpx.post(base + "/mcp", json=note, headers=headers, timeout=30).status_code == 202
    return sid, headers


def test_another_client_cannot_open_an_mcp_sessions_env_session_by_name(tmp_path, cache):
    with scaled(tmp_path, cache) as cluster:
        victim, headers = _handshake(cluster.base)
        deposit = {"name": "banking_deposit", "arguments": {"account": "ACC-000001", "amount": 500}}
        r = httpx.post(
            cluster.base + "/mcp",
            json={"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": deposit},
            headers=headers,
            timeout=30,
        )
        assert r.json()["result"]["isError"] is False, r.text
        theirs = f"mcp:{victim}"
        assert httpx.get(f"{cluster.base}/admin/sessions/{theirs}/state").json()["calls"] == 1
        for how in ("header", "query", "meta"):
            body, hdrs = rpc("banking_deposit", {"account": "ACC-000001", "amount": 1}, theirs)
            url = cluster.base + "/mcp"
            if how != "header":
                hdrs.pop("X-Env-Session")
            if how == "query":
                url += f"?env_session={theirs}"
            if how == "meta":
                sent = json.loads(body)
                sent["params"]["_meta"]["env_session"] = theirs
                body = json.dumps(sent).encode()
            got = httpx.post(url, content=body, headers=hdrs, timeout=30).json()
            text = json.dumps(got)
            assert "result" not in got or got["result"]["isError"], (how, got)
            assert "'mcp:'" in text and "reserved" in text, (how, got)
        # the victim's world saw one call: none of the three reached it
        assert httpx.get(f"{cluster.base}/admin/sessions/{theirs}/state").json()["calls"] == 1
