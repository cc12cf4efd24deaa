"""What a careless or hostile client sends before any tool runs: bodies that never arrive, padded
header values, a lowercase auth scheme. Through real servers on 127.0.0.1, over raw sockets.

Three servers, each a real ``toolground`` process with a 1 s body timeout
(``TOOLGROUND_BODY_TIMEOUT``): the lean path, the plain MCP stack (``--full-stack``), and a gateway in
front of one shard. A body declared over the limit is refused at once (413); a body that never
comes, stalls half-way or drips in a byte at a time is refused when the timeout runs out (408) and
its connection closed; both as JSON naming the limit. Every wait in here is bounded, so a server
that holds a connection fails the test instead of hanging it.
"""

from __future__ import annotations

import asyncio
import json
import random
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from servers.inbound import InboundGuard
from tests.serving import REPO, free_port, run_cli, server_env

V = "2026-07-28"
META = {"io.modelcontextprotocol/protocolVersion": V, "io.modelcontextprotocol/clientCapabilities": {}}
TOKEN = "s3cret"
BODY_TIMEOUT = 1.0
SLACK = 4.0  # seconds past the timeout an answer may take on a busy 2-core machine
LIMIT = 4 * 1024 * 1024
SMALL = ("--domains", "banking", "--scale", "small")


@contextmanager
def _process(cache: Path, log: Path, argv: list[str], health: str) -> Iterator[subprocess.Popen]:
    env = server_env(cache)
    env.update(TOOLGROUND_BODY_TIMEOUT=str(BODY_TIMEOUT), TOOLGROUND_ADMIN_TOKEN=TOKEN)
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "toolground", *argv],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            cwd=REPO,
        )
    try:
        deadline = time.monotonic() + 90
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"{argv} exited early:\n{log.read_text()}")
            try:
                if httpx.get(health, timeout=1.0).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"{argv} did not come up in time:\n{log.read_text()}")
            time.sleep(0.2)
        yield proc
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


@dataclass
class Server:
    name: str
    port: int
    log: Path


@pytest.fixture(scope="module", params=["lean", "full", "gateway"])
def server(request, tmp_path_factory) -> Iterator[Server]:
    """A server of each kind, with an admin token and the short body timeout."""
    tmp = tmp_path_factory.mktemp(f"inbound-{request.param}")
    cache, port = tmp / "cache", free_port()
    if request.param != "gateway":
        flags = ["--full-stack"] if request.param == "full" else []
        argv = ["serve", *SMALL, "--port", str(port), *flags]
        with _process(cache, tmp / "serve.log", argv, f"http://127.0.0.1:{port}/health"):
            yield Server(request.param, port, tmp / "serve.log")
        return
    shard_port = free_port()
    shard = ["serve", *SMALL, "--port", str(shard_port), "--shard", "0/1"]
    gateway = ["gateway", "--shards", f"http://127.0.0.1:{shard_port}", "--port", str(port)]
    with (
        _process(cache, tmp / "shard.log", shard, f"http://127.0.0.1:{shard_port}/health"),
        _process(cache, tmp / "gateway.log", gateway, f"http://127.0.0.1:{port}/health"),
    ):
        yield Server("gateway", port, tmp / "gateway.log")
    assert "Traceback" not in (tmp / "shard.log").read_text()


def _no_traceback(server: Server) -> None:
    assert "Traceback" not in server.log.read_text(), server.log.read_text()[-3000:]


# -- raw HTTP ---------------------------------------------------------------------------------------


def _call(name: str = "banking_get_balance", arguments: dict | None = None) -> bytes:
    params = {"name": name, "arguments": arguments or {"account": "ACC-000001"}, "_meta": META}
    return json.dumps({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": params}).encode()


def _head(
    port: int,
    path: str = "/mcp",
    *,
    length: int | None,
    name: str = "banking_get_balance",
    session: str = "inbound-1",
) -> bytes:
    """A 2026-era ``tools/call`` request head; ``length`` None frames the body as chunked."""
    lines = [
        f"POST {path} HTTP/1.1",
        f"Host: 127.0.0.1:{port}",
        "Content-Type: application/json",
        "Accept: application/json, text/event-stream",
        f"MCP-Protocol-Version: {V}",
        "Mcp-Method: tools/call",
        f"Mcp-Name: {name}",
        f"X-Env-Session: {session}",
        f"Authorization: Bearer {TOKEN}",
    ]
    lines.append("Transfer-Encoding: chunked" if length is None else f"Content-Length: {length}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def _chunk(data: bytes) -> bytes:
    return b"%x\r\n" % len(data) + data + b"\r\n"


@dataclass
class Reply:
    seconds: float
    status: int | None  # None: no answer in the time allowed
    body: bytes
    closed: bool  # the server closed the connection after answering

    def json(self) -> dict:
        return json.loads(self.body)


def exchange(port: int, head: bytes, parts: list[bytes | float] = (), wait: float = 8.0) -> Reply:
    """Send ``head`` then ``parts`` (bytes are sent, a float is a pause), then read one answer.

    Sending stops quietly if the server has already answered and closed; reading stops after
    ``wait`` seconds in all, so a server that holds the connection gives ``status=None``."""
    start = time.monotonic()
    sock = socket.create_connection(("127.0.0.1", port), timeout=wait)
    try:
        try:
            sock.sendall(head)
            for part in parts:
                if isinstance(part, float):
                    time.sleep(part)
                else:
                    sock.sendall(part)
        except OSError:
            pass  # answered and closed mid-send: read what it said
        return _read_reply(sock, start, wait)
    finally:
        sock.close()


def _read_reply(sock: socket.socket, start: float, wait: float) -> Reply:
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = _recv(sock, start, wait)
        if not chunk:
            return Reply(time.monotonic() - start, None, data, chunk == b"")
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    fields = dict(line.split(b":", 1) for line in head.split(b"\r\n")[1:])
    fields = {k.strip().lower(): v.strip() for k, v in fields.items()}
    length = int(fields.get(b"content-length", b"0"))
    while len(body) < length:
        chunk = _recv(sock, start, wait)
        if not chunk:
            break
        body += chunk
    seconds = time.monotonic() - start
    closed = _recv(sock, start, min(wait, seconds + 2.0)) == b""
    return Reply(seconds, status, body, closed)


def _recv(sock: socket.socket, start: float, wait: float) -> bytes | None:
    """Bytes, b"" when the server closed, None when ``wait`` (from ``start``) ran out."""
    left = wait - (time.monotonic() - start)
    if left <= 0:
        return None
    sock.settimeout(left)
    try:
        return sock.recv(65536)
    except TimeoutError:
        return None
    except ConnectionResetError:
        return b""


def _assert_refused(reply: Reply, status: int, *words: str) -> None:
    assert reply.status == status, f"wanted {status} in bounded time, got {reply}"
    error = reply.json()["error"]
    assert all(w in error for w in words), error


# -- item 7: bodies that never arrive -----------------------------------------------------------------


def test_an_over_limit_content_length_is_refused_at_once(server):
    reply = exchange(server.port, _head(server.port, length=100_000_000), [b"0123456789"], wait=3.0)
    assert reply.seconds < 2.0, reply
    _assert_refused(reply, 413, "100000000", str(LIMIT))
    assert reply.closed  # the rest of that body is not read: the connection is not reusable


def test_a_body_that_stalls_is_refused_when_the_timeout_runs_out(server):
    body = _call()
    reply = exchange(server.port, _head(server.port, length=len(body)), [body[:20]])
    assert BODY_TIMEOUT - 0.2 < reply.seconds < BODY_TIMEOUT + SLACK, reply
    _assert_refused(reply, 408, f"{BODY_TIMEOUT:g} s", f"20 of {len(body)} bytes")
    assert reply.closed


def test_a_body_dripped_a_byte_at_a_time_is_bounded_by_the_timeout_too(server):
    body = _call()
    drip: list[bytes | float] = []
    for i in range(len(body)):  # ~25 s to send whole: far past the timeout
        drip += [body[i : i + 1], 0.1]
    reply = exchange(server.port, _head(server.port, length=len(body)), drip[:60])
    assert reply.seconds < BODY_TIMEOUT + SLACK, reply
    _assert_refused(reply, 408, f"{BODY_TIMEOUT:g} s")


def test_stalled_bodies_fuzz(server):
    """Random routes, framings and stall points, all at once: each stalled one is refused in bounded
    time, each complete one answered as usual, and an ordinary call meanwhile is not held up."""
    rng = random.Random(37)
    body = _call()
    routes = [
        "/mcp",
        "/mcp?env_session=inbound-2",
        "/messages/?session_id=" + "ab" * 16,
        "/admin/sessions/inbound-3/reset",
        "/admin/sessions/inbound-3/bind",
        "/no/such/route",
    ]
    cases = []
    for _ in range(24):
        path, chunked = rng.choice(routes), rng.random() < 0.4
        cut = rng.choice([0, 1, len(body) // 2, len(body) - 1, len(body)])
        head = _head(server.port, path, length=None if chunked else len(body))
        if chunked:
            parts: list[bytes | float] = [_chunk(body[:cut])] if cut else []
            if cut == len(body):
                parts.append(b"0\r\n\r\n")
        else:
            parts = [body[:cut]]
        cases.append((path, chunked, cut == len(body), head, parts))

    with ThreadPoolExecutor(len(cases) + 1) as pool:
        futures = [pool.submit(exchange, server.port, c[3], c[4]) for c in cases]
        time.sleep(0.2)  # every stalled connection is open: an ordinary call still goes through at once
        ordinary = _call()
        quick = exchange(server.port, _head(server.port, length=len(ordinary)) + ordinary, wait=5.0)
        replies = [f.result() for f in futures]
    assert quick.status == 200 and "result" in quick.json() and quick.seconds < BODY_TIMEOUT, quick
    for (path, chunked, complete, _, _), reply in zip(cases, replies, strict=True):
        shown = f"{path} chunked={chunked} complete={complete}: {reply}"
        assert reply.status is not None and reply.seconds < BODY_TIMEOUT + SLACK, shown
        if complete:
            assert reply.status != 408, shown
        else:
            assert reply.status == 408 and "did not arrive" in reply.json()["error"], shown
            assert reply.closed, shown
    assert httpx.get(f"http://127.0.0.1:{server.port}/health", timeout=5).status_code == 200
    _no_traceback(server)


# -- item 8: Mcp-Name with surrounding whitespace ----------------------------------------------------


@pytest.mark.parametrize(
    "padded", [" banking_get_balance", "banking_get_balance ", "\tbanking_get_balance\t"]
)
def test_a_padded_mcp_name_is_accepted(server, padded):
    body = _call()
    reply = exchange(server.port, _head(server.port, length=len(body), name=padded) + body, wait=5.0)
    assert reply.status == 200, reply
    result = reply.json()["result"]
    assert result["isError"] is False and result["structuredContent"]["account"] == "ACC-000001"


def test_a_padded_env_session_header_names_the_same_env_session(server):
    body = _call("banking_deposit", {"account": "ACC-000002", "amount": 5})
    head = _head(server.port, length=len(body), name="banking_deposit ", session="pad-1 \t")
    assert exchange(server.port, head + body, wait=5.0).json()["result"]["isError"] is False
    state = httpx.get(
        f"http://127.0.0.1:{server.port}/admin/sessions/pad-1/state",
        headers={"Authorization": f"Bearer {TOKEN}"},
        timeout=5,
    )
    assert state.status_code == 200 and state.json()["calls"] == 1


# -- item 9: the auth scheme is case-insensitive ------------------------------------------------------


@pytest.mark.parametrize("scheme", ["bearer", "BEARER", "Bearer", "bEaReR"])
def test_the_bearer_scheme_is_case_insensitive(server, scheme):
    r = httpx.get(
        f"http://127.0.0.1:{server.port}/admin/sessions",
        headers={"Authorization": f"{scheme} {TOKEN}"},
        timeout=5,
    )
    assert r.status_code == 200 and "count" in r.json(), r.text


@pytest.mark.parametrize("given", [f"bearer {TOKEN}x", f"Basic {TOKEN}", TOKEN, "bearer", ""])
def test_a_wrong_token_or_scheme_is_still_refused_with_the_rule(server, given):
    r = httpx.get(
        f"http://127.0.0.1:{server.port}/admin/sessions", headers={"Authorization": given}, timeout=5
    )
    assert r.status_code == 401 and "Authorization: Bearer <token>" in r.json()["error"]


@pytest.mark.parametrize("value", ["abc", "0", "-1", "inf", "nan"])
def test_a_bad_body_timeout_is_a_usage_error_naming_the_rule(tmp_path, monkeypatch, value):
    monkeypatch.setenv("TOOLGROUND_BODY_TIMEOUT", value)
    for argv in (
        ["serve", *SMALL, "--port", "1"],
        ["gateway", "--shards", "http://127.0.0.1:1", "--port", "1"],
    ):
        res = run_cli(tmp_path, *argv, timeout=60)
        assert res.returncode == 2 and "Traceback" not in res.stderr, res.stderr
        assert "TOOLGROUND_BODY_TIMEOUT" in res.stderr and "positive number of seconds" in res.stderr


def _collect(into: list[dict]):
    async def send(message: dict) -> None:
        into.append(message)

    return send


def test_only_the_guards_own_cancellation_becomes_a_408():
    """A shutdown cancelling a request mid-body is not answered as a late body: it propagates."""

    async def main() -> tuple[list[dict], list[dict]]:
        never = asyncio.Event()

        async def receive() -> dict:
            await never.wait()
            return {}

        async def app(scope, receive, send) -> None:
            raise AssertionError("the app must not see a body that never came")

        scope = {"type": "http", "headers": [(b"content-length", b"10")]}
        shutdown: list[dict] = []
        guard = InboundGuard(app, body_timeout=30)
        task = asyncio.create_task(guard(scope, receive, _collect(shutdown)))
        await asyncio.sleep(0.05)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert not guard._reading and not guard._expired
        late: list[dict] = []
        await InboundGuard(app, body_timeout=0.1)(scope, receive, _collect(late))
        return shutdown, late

    shutdown, late = asyncio.run(main())
    assert shutdown == [] and late[0]["status"] == 408
