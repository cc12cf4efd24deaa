"""The reward service's front door: the Host/Origin rules of ``toolground serve``, as JSON errors.

A reward service usually runs on the trainer's own machine, on loopback. Without a Host check a
web page the user opens could reach it through DNS rebinding, and without an Origin check it could
post to it outright (a ``text/plain`` POST needs no CORS preflight; the JSON content type the
routes require closes that door too, see :func:`rewards.service._read_json`). The verdict is
fastmcp's own guard in strict mode, the one ``serve`` runs: loopback names (127.0.0.1, localhost,
::1) and the listening address always pass, anything else must be given with ``--allowed-host``;
an Origin passes when it is loopback (and so is the Host) or the request's own origin. Only the
refusal differs: a JSON body ``{"error", "detail"}`` like every other error of the service,
instead of the guard's plain text.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, MutableMapping, Sequence
from typing import Any

from fastmcp.server.http import HostOriginGuardMiddleware

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

_PASSED = "toolground.host_origin_passed"


async def _mark_passed(scope: Scope, receive: Receive, send: Send) -> None:
    scope[_PASSED] = True


class HostOriginGuard:
    """ASGI middleware: requests with a foreign Host (421) or Origin (403) never reach the routes."""

    def __init__(self, app: ASGIApp, *, allowed_hosts: Sequence[str] = ()) -> None:
        self.app = app
        self.allowed_hosts = list(allowed_hosts)
        self._verdict = HostOriginGuardMiddleware(
            _mark_passed, allowed_hosts=self.allowed_hosts, allowed_origins=[], mode="strict"
        )
        # The verdict depends only on (Host, Origin, listening address, scheme): passes are
        # remembered, as servers.lean does for serve (a trainer sends the same few keys throughout).
        self._trusted: set[tuple[Any, ...]] = set()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        key = _key(scope)
        if key is not None and key in self._trusted:
            await self.app(scope, receive, send)
            return
        refused: list[Message] = []

        async def keep(message: Message) -> None:
            refused.append(message)

        await self._verdict(scope, receive, keep)
        if scope.pop(_PASSED, False):
            if key is not None and len(self._trusted) < 256:
                self._trusted.add(key)
            await self.app(scope, receive, send)
            return
        status = next((m["status"] for m in refused if m["type"] == "http.response.start"), 403)
        await _send_json(send, status, self._refusal(scope, status))

    def _refusal(self, scope: Scope, status: int) -> dict[str, Any]:
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        extra = (
            f", or one given with --allowed-host ({', '.join(self.allowed_hosts)})"
            if self.allowed_hosts
            else ""
        )
        if status == 421:
            host = headers.get("host", "")[:100]
            msg = (
                f"Host header {host!r} is not allowed: the reward service answers loopback names "
                f"(127.0.0.1, localhost, ::1) and its listening address{extra}; add --allowed-host"
            )
            return {"error": msg, "detail": [{"loc": ["header", "host"], "msg": "host not allowed"}]}
        origin = headers.get("origin", "")[:100]
        msg = (
            f"Origin {origin!r} is not allowed: requests from web pages are accepted only from a "
            "loopback origin or the service's own origin"
        )
        return {"error": msg, "detail": [{"loc": ["header", "origin"], "msg": "origin not allowed"}]}


def _key(scope: Scope) -> tuple[Any, ...] | None:
    """What the guard's verdict depends on; None (no caching) when Host or Origin is repeated."""
    host: list[bytes] = []
    origin: list[bytes] = []
    for k, v in scope.get("headers", []):
        if k == b"host":
            host.append(v)
        elif k == b"origin":
            origin.append(v)
    if len(host) > 1 or len(origin) > 1:
        return None
    return (
        (host[0] if host else None),
        (origin[0] if origin else None),
        scope.get("server"),
        scope.get("scheme"),
    )


async def _send_json(send: Send, status: int, body: dict[str, Any]) -> None:
    data = json.dumps(body).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(data)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": data})
