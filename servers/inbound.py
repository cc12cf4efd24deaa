"""What every HTTP request passes before an app sees it: header values trimmed, the body bounded.

uvicorn reads a request body as the app asks for it and has no timeout for it: a client that
declares 100 MB and sends 10 bytes, or stops half-way, or drips a byte a second, holds its
connection (and, behind a gateway, the gateway's) for as long as it likes. :class:`InboundGuard`
reads the body first, under one deadline for the whole of it (:data:`BODY_TIMEOUT` seconds, or
``TOOLGROUND_BODY_TIMEOUT``) and one size limit (:data:`MAX_BODY`, the MCP SDK's own), and hands
the app the body whole. A declared length over the limit is refused at once (413), a body that
does not arrive in time when the deadline passes (408); both as JSON naming the limit, with the
connection closed, since the rest of that body is never read.

Header values are trimmed of spaces and tabs at both ends, as RFC 9110 (5.5) has a recipient do:
httptools, uvicorn's fast parser, keeps trailing whitespace, so ``Mcp-Name: tool `` failed the
SDK's exact comparison with the body's ``tool`` (the MCP conformance suite's
``http-header-validation``) and ``X-Env-Session: a `` named another env session than ``a``.

The serving app (:func:`servers.serve.build_http_app`, the lean layer in front of the MCP stack)
and the scale-out gateway both sit behind it, so the MCP stack, SSE messages, ``/admin`` and every
other route get the same treatment.
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Awaitable, Callable
from typing import Any

from mcp.server.transport_security import DEFAULT_MAX_REQUEST_BODY_SIZE

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

MAX_BODY = DEFAULT_MAX_REQUEST_BODY_SIZE  # 4 MiB: the SDK's limit for MCP messages, here for every route
BODY_TIMEOUT = 10.0  # seconds for a whole request body; MCP bodies are small JSON
TIMEOUT_ENV = "TOOLGROUND_BODY_TIMEOUT"


def body_timeout_setting(value: float | None = None) -> float:
    """``value``, else ``$TOOLGROUND_BODY_TIMEOUT``, else :data:`BODY_TIMEOUT`; ValueError naming the
    rule when it is not a positive number of seconds."""
    raw: Any = value if value is not None else os.environ.get(TIMEOUT_ENV, BODY_TIMEOUT)
    try:
        seconds = float(raw)
    except (TypeError, ValueError):
        seconds = float("nan")
    if not 0 < seconds < float("inf"):
        raise ValueError(
            f"{TIMEOUT_ENV} (the request body timeout) must be a positive number of seconds, got {raw!r}"
        )
    return seconds


class InboundGuard:
    """ASGI middleware: trims header values and reads the body under a deadline and a size limit."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        max_body: int = MAX_BODY,
        body_timeout: float | None = None,
        limit_for: Callable[[Scope], int | None] | None = None,
    ) -> None:
        self.app = app
        self.max_body = max_body
        self.limit_for = limit_for  # a larger limit for some requests (an episode's bytes), else None
        self.body_timeout = body_timeout_setting(body_timeout)
        self._tick = min(0.5, self.body_timeout / 4)  # how late past its deadline a read may be cut
        self._reading: dict[asyncio.Task, float] = {}  # body reads in progress -> their deadline
        self._expired: set[asyncio.Task] = set()  # those cancelled for it
        self._sweep: asyncio.TimerHandle | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        declared: bytes | None = None
        chunked = padded = False
        for k, v in scope["headers"]:
            if v.strip(b" \t") is not v:  # the same object when there is nothing to trim
                padded = True
            if k == b"content-length":
                declared = v
            elif k == b"transfer-encoding":
                chunked = True
        if padded:
            scope = {**scope, "headers": [(k, v.strip(b" \t")) for k, v in scope["headers"]]}
        length, limit = None, self.max_body
        if not chunked:
            length = int(declared) if declared is not None and declared.isdigit() else 0
            if length > limit and self.limit_for is not None:  # asked only of bodies past the limit
                limit = self.limit_for(scope) or limit
            if length > limit:
                return await refuse(
                    send, 413, f"request body of {length} bytes (Content-Length) {_over(limit)}"
                )
            if length == 0:  # no body: nothing to wait for (the parser refuses a malformed length)
                return await self.app(scope, receive, send)
        elif self.limit_for is not None:
            limit = self.limit_for(scope) or limit
        chunks: list[bytes] = []
        try:
            state = await self._read(receive, chunks, limit)
        except TimeoutError:
            return await refuse(send, 408, self._late(chunks, length))
        if state == "whole":
            await self.app(scope, replay_body(b"".join(chunks), receive), send)
        elif state == "over":
            await refuse(send, 413, f"chunked request body {_over(limit)}")
        # "gone": the client left before its body was complete; nobody to answer

    def _late(self, chunks: list[bytes], length: int | None) -> str:
        got = sum(map(len, chunks))
        came = f"{got} of {length} bytes" if length is not None else f"{got} bytes of a chunked body"
        return (
            f"request body did not arrive within {self.body_timeout:g} s ({came} came); "
            f"send the whole body at once (the limit is {TIMEOUT_ENV} on the server)"
        )

    async def _read(self, receive: Receive, chunks: list[bytes], limit: int) -> str:
        """The body into ``chunks``: "whole", "over" (past the limit) or "gone" (the client left);
        TimeoutError past the deadline.

        Not ``asyncio.timeout``: its timer costs ~10 µs a request (bench/bench_inbound.py), 5 % of
        a lean call, to guard reads that nearly always finish at once. Reads in progress are kept
        here instead, and one sweep a tick (while any are) cancels those past their deadline."""
        task = asyncio.current_task()
        loop = asyncio.get_running_loop()
        if task is not None:  # always, under an ASGI server
            self._reading[task] = loop.time() + self.body_timeout
            if self._sweep is None:
                self._sweep = loop.call_later(self._tick, self._expire, loop)
        size = 0
        try:
            while True:
                message = await receive()
                if message["type"] != "http.request":
                    return "gone"
                chunk = message.get("body", b"")
                size += len(chunk)
                if size > limit:
                    return "over"
                chunks.append(chunk)
                if not message.get("more_body", False):
                    return "whole"
        except asyncio.CancelledError:
            if task not in self._expired:
                raise  # someone else's cancellation (shutdown): not ours to turn into an answer
            self._expired.discard(task)
            task.uncancel()
            raise TimeoutError from None
        finally:
            self._reading.pop(task, None)

    def _expire(self, loop: asyncio.AbstractEventLoop) -> None:
        """The sweep: cancel the reads past their deadline; come back while any read is in progress."""
        now = loop.time()
        for task, deadline in list(self._reading.items()):
            if deadline <= now and task not in self._expired:
                self._expired.add(task)
                task.cancel()
        self._sweep = loop.call_later(self._tick, self._expire, loop) if self._reading else None


def _over(limit: int) -> str:
    return f"is over the limit of {limit} bytes ({limit / 2**20:g} MiB)"


async def refuse(send: Send, status: int, message: str) -> None:
    """A JSON error, closing the connection (the rest of the body is never read)."""
    body = json.dumps({"error": message}).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"),
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def replay_body(body: bytes, receive: Receive, *, more: bool = False) -> Receive:
    """A receive that yields the body already read (``more``: the client may still send), then
    whatever the client sends next (a disconnect, for streams). Every layer that reads a body before
    the app behind it (this guard, the lean path) hands it on with this."""
    sent = False

    async def again() -> dict[str, Any]:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": more}
        return await receive()

    return again
