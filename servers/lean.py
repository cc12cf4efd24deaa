"""The hot path: ``tools/call`` and ``tools/list`` answered without the MCP stack, byte for byte as it would.

A trainer's rollouts spend their time in two methods. Through fastmcp and the SDK each call costs
~1.2 ms of server CPU for a tool that runs in ~25 µs (``../shared/reference/serving-measurements.md``).
This ASGI layer sits in front of the full app and answers the common case itself: a 2026-era
single-exchange POST (no handshake, no ``Mcp-Session-Id``) whose envelope passes the SDK's own
ladder (:func:`classify_inbound_request`, its request models, the Accept and Content-Type
rules; a repeated header of any name is left to the stack) behind the same Host/Origin guard. Everything else (initialize and the handshake era,
notifications, other methods, SSE-only clients, ``Mcp-Param-*`` headers, any request the ladder
would refuse, an unknown tool, a missing env session) goes to the full stack unchanged, so every
error and every other method stays exactly the SDK's.

Task-bound env sessions (:mod:`servers.binding`): their calls of offered tools are answered here as
any other call (the stack would run the same tool in the same episode); their listings, a call
of a tool their task does not offer and the first call an ``X-Env-Task`` header binds go to the
stack, whose binding middleware is the one place that knows tasks. Until something is bound
the common case pays one header lookup and one attribute test for this (~0.15 µs measured);
after that one weak-map lookup more (~0.7 µs in all), against ~200 µs for the lean call.

What it answers it answers as the stack does: the same result keys in the same order, the server
stamp, the same ``json.dumps`` of the envelope, the same headers. ``tools/list`` is captured from
the full stack on first use and replayed with the request's id. ``tests/test_lean_path.py`` sends
the same requests to both and compares the bytes.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Mapping
from typing import Any
from urllib.parse import parse_qsl

from fastmcp.server.http import HostOriginGuardMiddleware
from mcp.shared.inbound import MODERN_PROTOCOL_VERSIONS, InboundLadderRejection, classify_inbound_request
from mcp_types import SERVER_INFO_META_KEY
from mcp_types.methods import validate_client_request
from pydantic import ValidationError

from servers.binding import TASK_HEADER, Binder
from servers.inbound import MAX_BODY, InboundGuard, replay_body
from servers.kit import ToolError
from servers.mcp_server import ENV_HEADER, ENV_QUERY, client_may_name
from servers.runtime import Environment
from state import EpisodeUnavailable

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

HOT_METHODS = frozenset({b"tools/call", b"tools/list"})
_ENVELOPE_KEYS = frozenset({"jsonrpc", "id", "method", "params"})
_CALL_PARAMS = frozenset({"name", "arguments", "_meta"})
_META_KEYS = frozenset(
    {
        "io.modelcontextprotocol/protocolVersion",
        "io.modelcontextprotocol/clientCapabilities",
        "io.modelcontextprotocol/clientInfo",
        "io.modelcontextprotocol/logLevel",  # nothing is logged to a JSON-response client
        "progressToken",  # nor is progress reported; the tools run in microseconds
        "env_session",
    }
)
_PER_REQUEST = ("env_session", "progressToken")  # left out of the validation cache's key
_HEADERS = [(b"content-type", b"application/json")]


class _Fallback(Exception):
    """This request is not the common case: let the full stack answer it."""


def _accepts_json(accept: str) -> bool:
    """The SDK's Accept rule (``check_accept_headers``) for a JSON-response server."""
    types = [t.strip().split(";")[0].strip().lower() for t in accept.split(",")]
    return any(t in ("*/*", "application/json", "application/*") for t in types)


class LeanMcp:
    """ASGI app: the hot methods answered here, everything else by ``full``.

    Every request first passes an :class:`~servers.inbound.InboundGuard` (``body_timeout`` seconds for
    its body; None: the guard's default), so the lean layer and the stack behind it both see header
    values trimmed and a body that arrived whole: an over-limit Content-Length is a 413 at once and a
    body that stalls a 408, never a connection held open."""

    def __init__(
        self,
        env: Environment,
        full: ASGIApp,
        *,
        path: str,
        server_info: dict[str, Any],
        allowed_hosts: list[str],
        allowed_origins: list[str],
        binder: Binder | None = None,
        body_timeout: float | None = None,
        limit_for: Callable[[Scope], int | None] | None = None,
    ) -> None:
        self.env = env
        self.binder = binder
        self.full = full
        self.path = path
        self.server_info = json.dumps(server_info, separators=(",", ":"))
        self.tools = {
            t.qualified_name for t in env.visible_tools() if not _declares_headers(t.input_schema())
        }
        self._guard = HostOriginGuardMiddleware(
            self._passed_guard, allowed_hosts=allowed_hosts, allowed_origins=allowed_origins, mode="strict"
        )
        self._trusted: set[tuple[Any, ...]] = set()  # (Host, Origin, server, scheme) the guard let through
        self._listings: dict[str, bytes] = {}  # protocol version -> tools/list body after '"result":'
        self._meta_ok: list[tuple[str, dict[str, Any], bool]] = []
        self.served = 0  # requests answered here (tests read it to prove the path was taken)
        self._inbound = InboundGuard(self._route, body_timeout=body_timeout, limit_for=limit_for)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self._inbound(scope, receive, send)

    async def _route(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] == "http"
            and scope["method"] == "POST"
            and scope["path"] == self.path
            and self._hot(scope["headers"])
        ):
            await self._guarded(scope, receive, send)
        else:
            await self.full(scope, receive, send)

    async def _guarded(self, scope: Scope, receive: Receive, send: Send) -> None:
        """The Host/Origin guard of the full app, remembered: its verdict depends only on the key."""
        if _guard_key(scope) in self._trusted:
            await self._answer(scope, receive, send)
        else:
            await self._guard(scope, receive, send)

    async def _passed_guard(self, scope: Scope, receive: Receive, send: Send) -> None:
        if len(self._trusted) < 256:
            self._trusted.add(_guard_key(scope))
        await self._answer(scope, receive, send)

    @staticmethod
    def _hot(headers: list[tuple[bytes, bytes]]) -> bool:
        version = method = False
        for k, v in headers:
            if k == b"mcp-protocol-version":
                version = v.decode("latin-1") in MODERN_PROTOCOL_VERSIONS
            elif k == b"mcp-method":
                method = v in HOT_METHODS
        return version and method

    async def _answer(self, scope: Scope, receive: Receive, send: Send) -> None:
        body, complete = await _read_body(receive)
        if not complete:  # too large, or the client left: the stack's answer, from what was read
            return await self.full(scope, replay_body(body, receive, more=True), send)
        try:
            out = self._respond(scope, body)
        except _Fallback:
            return await self.full(scope, replay_body(body, receive), send)
        if out is None:  # a tools/list not captured yet
            return await self._capture_listing(scope, body, receive, send)
        self.served += 1
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [(b"content-length", str(len(out)).encode()), *_HEADERS],
            }
        )
        await send({"type": "http.response.body", "body": out})

    def _respond(self, scope: Scope, body: bytes) -> bytes | None:
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        if len(headers) != len(scope["headers"]):
            raise _Fallback  # a repeated header: which copy counts is the stack's rule
        if not headers.get("content-type", "").lower().startswith("application/json"):
            raise _Fallback
        if not _accepts_json(headers.get("accept", "")) or any(k.startswith("mcp-param-") for k in headers):
            raise _Fallback
        try:
            req = json.loads(body)
        except (ValueError, RecursionError):
            raise _Fallback from None
        if not isinstance(req, dict) or not _ENVELOPE_KEYS.issuperset(req) or req.get("jsonrpc") != "2.0":
            raise _Fallback
        rid, params = req.get("id"), req.get("params")
        if isinstance(rid, bool) or not isinstance(rid, (int, str)) or not isinstance(params, dict):
            raise _Fallback
        verdict = classify_inbound_request(req, headers=headers)
        if isinstance(verdict, InboundLadderRejection):
            raise _Fallback
        meta = params["_meta"]
        if not self._valid_meta(req["method"], verdict.protocol_version, meta):
            raise _Fallback
        head = b'{"jsonrpc":"2.0","id":' + json.dumps(rid).encode() + b',"result":'
        if req["method"] == "tools/list":
            if set(params) != {"_meta"}:
                raise _Fallback  # a cursor, or anything the listing might read
            if self.binder is not None and self._bound_listing(scope, headers, meta):
                raise _Fallback  # a task's listing: the stack's binding middleware builds it
            listing = self._listings.get(verdict.protocol_version)
            return None if listing is None else head + listing
        return head + self._call(scope, headers, params, meta).encode()

    def _valid_meta(self, method: str, version: str, meta: dict[str, Any]) -> bool:
        """Whether the SDK's request model accepts this ``_meta`` (cached: clients repeat theirs)."""
        if not _META_KEYS.issuperset(meta):
            return False
        token = meta.get("progressToken")
        if token is not None and (isinstance(token, bool) or not isinstance(token, (int, str))):
            return False
        stable = {k: v for k, v in meta.items() if k not in _PER_REQUEST}
        ok = next((verdict for m, s, verdict in self._meta_ok if m == method and s == stable), None)
        if ok is None:
            stand_in: dict[str, Any] = {"_meta": stable}
            if method == "tools/call":
                stand_in.update(name="x", arguments={})
            try:
                validate_client_request(method, version, stand_in)
                ok = True
            except ValidationError:
                ok = False
            if (
                len(self._meta_ok) < 16
            ):  # clients send one or two kinds of _meta; others are checked each time
                self._meta_ok.append((method, stable, ok))
        return ok

    def _bound_listing(self, scope: Scope, headers: Mapping[str, str], meta: dict[str, Any]) -> bool:
        """Whether this listing is a task's (an X-Env-Task header, or a bound caller)."""
        if headers.get(TASK_HEADER):
            return True
        if not self.binder.active:  # nothing was ever bound: the listing is everyone's
            return False
        sid = _env_session_or_none(scope, headers, meta)
        return sid is not None and self.binder.bound(sid) is not None

    def _call(self, scope: Scope, headers: Mapping[str, str], params: dict[str, Any], meta: dict) -> str:
        name, arguments = params.get("name"), params.get("arguments", {})
        if not _CALL_PARAMS.issuperset(params) or name not in self.tools:
            raise _Fallback  # unknown or hidden tools: the stack words that error
        if arguments is None:
            arguments = {}
        if not isinstance(arguments, dict):
            raise _Fallback
        sid = _env_session(scope, headers, meta)
        binder = self.binder
        if binder is not None:
            task = headers.get(TASK_HEADER)
            if task and getattr(binder.bound(sid), "task_id", None) != task:
                raise _Fallback  # the first call of an env session the header binds: the stack binds it
        try:
            episode = self.env.store.get(sid)
        except EpisodeUnavailable:  # full, owned by another shard, or lost: the stack words it
            raise _Fallback from None
        if binder is not None and binder.active:
            binding = binder.bindings.get(episode)
            if binding is not None and name not in binding.offered:
                raise _Fallback  # the stack words the refusal
        episode.touch()
        try:
            value = self.env.invoke(episode, name, arguments)
        except ToolError as exc:
            return (
                '{"content":[{"text":' + json.dumps(str(exc)) + ',"type":"text"}],"isError":true,'
                '"resultType":"complete","_meta":{"' + SERVER_INFO_META_KEY + '":' + self.server_info + "}}}"
            )
        # anything else escaping a tool rolled its savepoint back: the stack re-runs it and masks it
        structured = value if isinstance(value, dict) else {"result": value}
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)
        return (
            '{"content":[{"text":' + json.dumps(text) + ',"type":"text"}],"isError":false,'
            '"resultType":"complete","structuredContent":'
            + _dump(structured)
            + ',"_meta":{"'
            + SERVER_INFO_META_KEY
            + '":'
            + self.server_info
            + "}}}"
        )

    async def _capture_listing(self, scope: Scope, body: bytes, receive: Receive, send: Send) -> None:
        """Answer through the stack, and keep its listing when it is the plain 200 JSON one."""
        parts: list[bytes] = []
        status: list[int] = []

        async def keep(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                status.append(message["status"])
            elif message["type"] == "http.response.body":
                parts.append(message.get("body", b""))
            await send(message)

        await self.full(scope, replay_body(body, receive), keep)
        req = json.loads(body)
        head = b'{"jsonrpc":"2.0","id":' + json.dumps(req["id"]).encode() + b',"result":'
        out = b"".join(parts)
        if status == [200] and out.startswith(head) and b'"error"' not in out[: len(head) + 2]:
            version = req["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"]
            self._listings[version] = out[len(head) :]


def _guard_key(scope: Scope) -> tuple[Any, ...]:
    host = origin = None
    for k, v in scope["headers"]:
        if k == b"host":
            host = v
        elif k == b"origin":
            origin = v
    return host, origin, scope.get("server"), scope.get("scheme")


def _dump(value: Any) -> str:
    """The envelope's JSON (the SDK's ``json.dumps``); a value JSON cannot hold is written as text
    rather than failing after the tool has already changed the state."""
    try:
        return json.dumps(value, separators=(",", ":"))
    except (TypeError, ValueError):
        return json.dumps(value, separators=(",", ":"), default=str)


def _env_session(scope: Scope, headers: Mapping[str, str], meta: dict[str, Any]) -> str:
    """The env session the stack would pick (header, URL parameter, ``_meta``), or fall back."""
    value = _env_session_or_none(scope, headers, meta)
    if value is None:
        raise _Fallback  # missing or invalid: the stack's error names every way to send one
    return value


def _env_session_or_none(scope: Scope, headers: Mapping[str, str], meta: dict[str, Any]) -> str | None:
    value = headers.get(ENV_HEADER)
    if not value:
        value = _query_value(scope.get("query_string", b""))
    if not value:
        value = meta.get("env_session")
        value = str(value) if value else None
    if not value or not client_may_name(value):
        return None  # the stack's error says what is wrong with it
    return value


def _query_value(query: bytes) -> str | None:
    if not query:
        return None
    found = None
    for key, value in parse_qsl(query.decode("latin-1"), keep_blank_values=True):
        if key == ENV_QUERY:
            found = value  # the last one, as Starlette's QueryParams.get reads it
    return found


def _declares_headers(schema: dict[str, Any]) -> bool:
    """A tool whose schema maps parameters to ``Mcp-Param-*`` headers is left to the stack."""
    return "x-mcp-header" in json.dumps(schema)


async def _read_body(receive: Receive) -> tuple[bytes, bool]:
    """(what was read, whether that is the whole body); stops past :data:`MAX_BODY`.

    Behind the :class:`InboundGuard` the body comes whole and within the limit; this stays so the
    layer is sound on its own (what is not whole goes to the stack, which answers it)."""
    chunks, size = [], 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return b"".join(chunks), False
        chunk = message.get("body", b"")
        size += len(chunk)
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks), True
        if size > MAX_BODY:
            return b"".join(chunks), False
