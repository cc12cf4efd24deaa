"""A stateless gateway: any request, from any client, forwarded to the shard that owns its env session.

The env session is resolved exactly as a server resolves it (the ``X-Env-Session`` header, the
``env_session`` URL parameter, ``_meta.env_session``, a handshake-era ``Mcp-Session-Id``), and the
request's bytes go to its owner (:func:`servers.scale.owner.owner`) unchanged, so every answer,
error and header is the shard's own. Requests that name no env session (``initialize``, a listing, the
operator API's tool list) go to the next shard in turn. ``GET /admin/sessions`` and ``/health`` ask
every shard and add the answers up. A shard that does not answer is reported in words, naming the
env session and what to do, and the gateway keeps serving the other shards. A fork
(``POST /admin/sessions/<id>/fork``) whose new id another shard owns is the one request the
gateway does more than forward: it carries the episode's bytes from the source's shard to the
target's (:meth:`Gateway._fork_across`).

``/admin`` is checked here before it is forwarded, because a shard behind a gateway sees only the
gateway: its loopback ``Host`` rule would let any network client that sends ``Host: 127.0.0.1``
through. With an admin token the gateway requires it; without one it serves ``/admin`` only to
clients whose own address is loopback, whatever their ``Host`` header says.
"""

from __future__ import annotations

import asyncio
import ipaddress
import itertools
import json
import re
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

from servers.auth import bearer_matches
from servers.ids import VALID_ID
from servers.scale import jsonrpc
from servers.scale.owner import owner
from servers.scale.upstream import Answer, ShardDown, Upstream

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]

MAX_BODY = 16 * 1024 * 1024  # past the shards' own limits, so their 413 is the one a client sees
SHARD_QUERY = "tg_shard"  # added to an SSE stream's message endpoint: which shard holds the stream
_SESSION_ROUTE = re.compile(
    r"^/admin/sessions/(?P<sid>.+?)(?P<op>/(?:state|diff|reset|bind|fork|export|import))?$"
)
_SUFFIX_METHODS = {
    **{"/state": "GET", "/diff": "GET", "/reset": "POST", "/bind": "POST"},
    **{"/fork": "POST", "/export": "GET", "/import": "POST"},
}
_JSON = [(b"content-type", b"application/json")]
# hop-by-hop headers, and the framing the gateway redoes: the body is already read whole, so an
# ``Expect: 100-continue`` must not make the shard send an interim answer
_NOT_FORWARDED = frozenset(
    {b"connection", b"keep-alive", b"transfer-encoding", b"content-length", b"te", b"upgrade", b"expect"}
)
LOST_SESSION_CODE = -32001  # JSON-RPC error code of a call whose shard is not answering
EPISODE_MEDIA_TYPE = b"application/vnd.toolground.episode"  # state.transfer.MEDIA_TYPE


class Gateway:
    """ASGI app forwarding to ``shards`` (addresses in shard order: index i owns hash % n == i)."""

    def __init__(
        self,
        shards: Sequence[str],
        *,
        index: int = 0,
        admin_token: str | None = None,
        supervisor_state: Path | None = None,
    ) -> None:
        if not shards:
            raise ValueError("a gateway needs at least one shard address")
        self.admin_token = admin_token
        self.supervisor_state = supervisor_state  # what ``serve --workers`` says of each child
        self.upstreams = [Upstream(url, i) for i, url in enumerate(shards)]
        self.tag = (b"x-toolground-gateway", str(index).encode())  # which gateway answered
        self._turn = itertools.count()
        self.forwarded = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            await self._http(scope, receive, send)
        elif scope["type"] == "lifespan":
            await self._lifespan(receive, send)

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                for up in self.upstreams:
                    up.close()
                await send({"type": "lifespan.shutdown.complete"})
                return

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        body = await _read_body(receive)
        if body is None:
            return await _reply(send, 413, {"error": f"request body over {MAX_BODY // 2**20} MiB"})
        path, method = scope["path"], scope["method"]
        if path.startswith("/admin") and (refusal := self._admin_refusal(scope)) is not None:
            return await _reply(send, *refusal)
        if path == "/health" and method == "GET":
            return await self._health(scope, send)
        if path == "/admin/sessions" and method == "GET":
            return await self._sessions(scope, body, send)
        sid, shard = self._route(scope, body)
        if method == "POST" and path.startswith("/admin/sessions/") and path.endswith("/fork"):
            target = _fork_target(body)
            if target is not None and owner(target, len(self.upstreams)) != shard:
                return await self._fork_across(scope, send, sid, shard, target)
        try:
            answer = await self.upstreams[shard].exchange(_head(scope, len(body)), body)
        except ShardDown as exc:
            return await self._down(scope, body, send, sid, exc)
        self.forwarded += 1
        await self._relay(answer, send, sse_shard=shard if path.endswith("/sse") else None)

    def _admin_refusal(self, scope: Scope) -> tuple[int, dict[str, str]] | None:
        """(status, body) refusing this ``/admin`` request, or None to forward it."""
        if self.admin_token is not None:
            given = dict(scope["headers"]).get(b"authorization", b"")
            if bearer_matches(given.decode("latin-1"), self.admin_token):
                return None
            return 401, {
                "error": "admin API needs 'Authorization: Bearer <token>' with the server's admin token"
            }
        client = scope.get("client")
        if client is None or is_loopback(client[0]):  # None: a Unix socket, this machine
            return None
        return 403, {
            "error": f"the /admin API of a gateway without an admin token answers only clients on this "
            f"machine, and {client[0]} is not one (a Host header does not make it one); start the "
            "gateway with --admin-token (or TOOLGROUND_ADMIN_TOKEN) and send 'Authorization: Bearer <token>'"
        }

    # -- routing ------------------------------------------------------------------------------

    def _route(self, scope: Scope, body: bytes) -> tuple[str | None, int]:
        """(the env session, if any, and the shard to ask)."""
        n = len(self.upstreams)
        sid = self.env_session_of(scope, body)
        if sid is not None:
            return sid, owner(sid, n)
        pinned = _query(scope, SHARD_QUERY)
        if pinned is not None and pinned.isdigit() and int(pinned) < n:
            return None, int(pinned)  # an SSE stream's messages, opened without an env session
        return None, next(self._turn) % n

    def env_session_of(self, scope: Scope, body: bytes) -> str | None:
        """The env session a server would take this request to be about, as the id it keys."""
        path = scope["path"]
        if path.startswith("/admin/sessions/"):
            m = _SESSION_ROUTE.match(path)
            if m is None:
                return None
            op = m["op"]
            if op is not None and _SUFFIX_METHODS[op] == scope["method"]:
                return m["sid"]
            return path[len("/admin/sessions/") :]  # a DELETE (or a method the route refuses)
        headers = scope["headers"]
        mcp_session = env_header = None
        for k, v in headers:
            if k == b"mcp-session-id":
                mcp_session = v.decode("latin-1")
            elif k == b"x-env-session":
                env_header = v.decode("latin-1")
        if mcp_session and mcp_session.startswith("shard"):
            return "mcp:" + mcp_session  # the MCP session lives where it was opened
        if env_header:
            return env_header
        if (query := _query(scope, "env_session")) is not None and query:
            return query
        if (meta := _meta_env_session(body)) is not None:
            return meta
        if mcp_session:
            return "mcp:" + mcp_session
        return None

    # -- answering ----------------------------------------------------------------------------

    async def _relay(self, answer: Answer, send: Send, *, sse_shard: int | None) -> None:
        """Send the shard's answer on; a stream the shard breaks off (it died) ends cleanly.

        (Only streams can break off here: the shards answer MCP POSTs with JSON, and a body of
        known length cut short is a :class:`ShardDown` the caller words. An SSE stream has no
        request to answer with an error, so it just ends, as when the server closes it.)"""
        headers = [*answer.headers, self.tag]
        if answer.body is not None:
            await send({"type": "http.response.start", "status": answer.status, "headers": headers})
            await send({"type": "http.response.body", "body": answer.body})
            return
        headers = [(k, v) for k, v in headers if k != b"content-length"]
        await send({"type": "http.response.start", "status": answer.status, "headers": headers})
        pending = sse_shard is not None and answer.status == 200
        buffered = b""
        try:
            async for chunk in answer.stream():
                if pending:  # the stream's first event names its message endpoint: pin it to this shard
                    buffered += chunk
                    if b"\n\n" not in buffered.replace(b"\r\n", b"\n"):
                        continue
                    chunk, buffered, pending = _pin_endpoint(buffered, sse_shard), b"", False
                await send({"type": "http.response.body", "body": chunk, "more_body": True})
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError):
            buffered = b""  # the shard died mid-stream; a half event is not passed on
        await send({"type": "http.response.body", "body": buffered, "more_body": False})

    async def _fork_across(self, scope: Scope, send: Send, sid: str | None, shard: int, target: str) -> None:
        """A fork whose target id another shard owns: the source's shard exports the episode as
        bytes (``GET .../export``), the target's shard imports them (``POST <target>/import``), and
        the client gets the import's answer, the same JSON a fork within one shard gives. Errors
        of either step (unknown source, live target, a shard down) are passed on as they are."""
        source_path = _raw_path(scope)[: -len(b"/fork")]
        to_shard = owner(target, len(self.upstreams))
        try:
            exported = await self.upstreams[shard].exchange(
                _head(scope, 0, path=source_path + b"/export", method=b"GET"), b""
            )
            if exported.status != 200 or exported.body is None:
                return await self._relay(exported, send, sse_shard=None)
            head = _head(
                scope,
                len(exported.body),
                path=f"/admin/sessions/{target}/import".encode(),
                content_type=EPISODE_MEDIA_TYPE,
            )
            answer = await self.upstreams[to_shard].exchange(head, exported.body)
        except ShardDown as exc:
            return await self._down(scope, b"", send, target if exc.index == to_shard else sid, exc)
        self.forwarded += 2
        await self._relay(answer, send, sse_shard=None)

    async def _down(self, scope: Scope, body: bytes, send: Send, sid: str | None, exc: ShardDown) -> None:
        n = len(self.upstreams)
        if sid is not None:
            message = (
                f"env session {sid!r} is unavailable: it lives on shard {exc.index} of {n}, which is not "
                f"answering ({exc.reason}). If the shard died, the episode died with it; once the shard "
                "is back, start the episode again (POST /admin/sessions/<id>/reset or /bind, or a new "
                "env-session id). Sessions on the other shards are unaffected."
            )
        else:
            message = f"shard {exc.index} of {n} is not answering ({exc.reason}); try again"
        rpc_id = jsonrpc.rpc_id(body) if scope["path"] in ("/mcp", "/mcp/") else None
        if rpc_id is not None:  # an MCP client shows a JSON-RPC error's message as it is
            error = {"code": LOST_SESSION_CODE, "message": message, "data": {"shard": exc.index}}
            return await _reply(send, 200, {"jsonrpc": "2.0", "id": rpc_id, "error": error})
        await _reply(send, 503, {"error": message, "shard": exc.index})

    async def _ask_all(self, scope: Scope, path: bytes) -> list[tuple[int, Answer | ShardDown]]:
        head = _head(scope, 0, path=path, method=b"GET")

        async def ask(up: Upstream) -> Answer | ShardDown:
            try:
                answer = await up.exchange(head, b"")
            except ShardDown as exc:
                return exc
            if answer.body is None:  # not expected of these routes; drain it rather than hang
                try:
                    answer.body = b"".join([c async for c in answer.stream()])
                except (ConnectionError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError):
                    return ShardDown(up.index, up.url, "the connection dropped mid-answer")
            return answer

        answers = await asyncio.gather(*(ask(up) for up in self.upstreams))
        return list(enumerate(answers))

    async def _health(self, scope: Scope, send: Send) -> None:
        """Every shard's health added up: 200 only when every shard answers, 503 otherwise (a load
        balancer's "not healthy"), with each shard's ``state``: ``up``; ``starting`` or ``backing
        off`` (with its ``restart`` facts) when the supervisor is bringing it back; ``down``."""
        shards, merged = [], {}
        supervised = self._supervised()
        for i, answer in await self._ask_all(scope, b"/health"):
            row: dict[str, Any] = {"index": i, "address": self.upstreams[i].url}
            if isinstance(answer, ShardDown) or answer.status != 200:
                row.update(up=False, error=str(answer) if isinstance(answer, ShardDown) else answer.status)
                restart = supervised.get(f"shard {i}")
                if isinstance(restart, dict):
                    row.update(state="backing off" if restart.get("state") == "backing off" else "starting")
                    row["restart"] = restart
                else:
                    row["state"] = "down"
            else:
                data = json.loads(answer.body or b"{}")
                row.update(up=True, state="up", sessions=data.get("sessions", 0), shard=data.get("shard"))
                merged = merged or data
            shards.append(row)
        up = sum(r["up"] for r in shards)
        out = {
            **{k: v for k, v in merged.items() if k not in ("sessions", "shard")},
            "status": "ok" if up == len(shards) else ("degraded" if up else "down"),
            "sessions": sum(r.get("sessions", 0) for r in shards),
            "shards": shards,
        }
        await _reply(send, 200 if up == len(shards) else 503, out)

    def _supervised(self) -> dict[str, Any]:
        """The supervisor's state file (child name -> state), or {} without one."""
        if self.supervisor_state is None:
            return {}
        try:
            data = json.loads(self.supervisor_state.read_text())
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    async def _sessions(self, scope: Scope, body: bytes, send: Send) -> None:
        """Every shard's env-session list added up; an auth refusal is passed on as the shard gave it."""
        rows, ids, totals = [], [], {}
        for i, answer in await self._ask_all(scope, _raw_path(scope)):
            if isinstance(answer, ShardDown):
                rows.append({"index": i, "up": False, "error": str(answer)})
                continue
            if answer.status != 200:
                return await self._relay(answer, send, sse_shard=None)
            data = json.loads(answer.body or b"{}")
            ids.extend(data.pop("ids", []))
            for key in ("count", "max_sessions", "forked_databases", "memory_bytes", "evicted_now"):
                totals[key] = totals.get(key, 0) + data.get(key, 0)
            totals.setdefault("idle_ttl_seconds", data.get("idle_ttl_seconds"))
            rows.append({"index": i, "up": True, **data})
        await _reply(send, 200, {**totals, "ids": sorted(ids)[:1000], "shards": rows})


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a name or address, IPv4-mapped IPv6 too) is this machine's loopback."""
    if host == "localhost":
        return True
    try:
        address = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    mapped = getattr(address, "ipv4_mapped", None)
    return (mapped or address).is_loopback


def _head(
    scope: Scope,
    length: int,
    *,
    path: bytes | None = None,
    method: bytes | None = None,
    content_type: bytes | None = None,
) -> bytes:
    """The request line and headers to send on, hop-by-hop headers replaced by our own framing
    (and the content type by ``content_type``, when given)."""
    target = path if path is not None else _raw_path(scope)
    if path is None and scope.get("query_string"):
        target += b"?" + scope["query_string"]
    lines = [(method or scope["method"].encode()) + b" " + target + b" HTTP/1.1"]
    for k, v in scope["headers"]:
        if k not in _NOT_FORWARDED and not (content_type is not None and k == b"content-type"):
            lines.append(k + b": " + v)
    if content_type is not None:
        lines.append(b"content-type: " + content_type)
    lines.append(b"content-length: " + str(length).encode())
    return b"\r\n".join(lines) + b"\r\n\r\n"


def _raw_path(scope: Scope) -> bytes:
    return scope.get("raw_path") or scope["path"].encode()


def _query(scope: Scope, key: str) -> str | None:
    raw = scope.get("query_string", b"")
    if not raw or key.encode() not in raw:
        return None
    found = None
    for k, v in parse_qsl(raw.decode("latin-1"), keep_blank_values=True):
        if k == key:
            found = v  # the last one, as Starlette reads it
    return found


def _fork_target(body: bytes) -> str | None:
    """A fork body's valid ``"to"`` id; None for anything else (the source's shard answers it)."""
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        return None
    target = data.get("to") if isinstance(data, dict) else None
    return target if isinstance(target, str) and VALID_ID.match(target) else None


def _meta_env_session(body: bytes) -> str | None:
    if b"env_session" not in body:
        return None
    try:
        meta = json.loads(body).get("params", {}).get("_meta", {})
    except (ValueError, AttributeError, RecursionError):
        return None
    value = meta.get("env_session") if isinstance(meta, dict) else None
    return str(value) if value else None


def _pin_endpoint(event: bytes, shard: int) -> bytes:
    """``data: /messages/?session_id=...`` -> the same with ``&tg_shard=<shard>``."""
    lines = event.split(b"\n")
    for i, line in enumerate(lines):
        if line.startswith(b"data:") and b"session_id=" in line:
            end = b"\r" if line.endswith(b"\r") else b""
            lines[i] = line.rstrip(b"\r") + f"&{SHARD_QUERY}={shard}".encode() + end
            break
    return b"\n".join(lines)


async def _read_body(receive: Receive) -> bytes | None:
    chunks, size = [], 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return b"".join(chunks)
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > MAX_BODY:
            return None
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)


async def _reply(send: Send, status: int, payload: dict[str, Any]) -> None:
    body = json.dumps(payload).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [*_JSON, (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})
