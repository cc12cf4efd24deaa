"""A small keep-alive HTTP/1.1 client for POSTing JSON to a plain-http endpoint (a local vLLM).

httpx spends 3-8 ms of CPU per request in this loop (its connection pool re-checks every
connection through anyio on each request; measured in ``bench/bench_eval.py``), which at a few
hundred requests per second makes the evaluator, not the model, the bottleneck. Talking to a local
server needs far less: one write per request, a status line, headers, a body by Content-Length or
chunks. Anything else (https, proxies, redirects) goes through httpx.
"""

from __future__ import annotations

import asyncio
from collections import deque
from dataclasses import dataclass, field

_MAX_HEADER = 64 * 1024


class Broken(Exception):
    """The connection failed or the answer was not HTTP/1.1 as expected (the transport's fault)."""


@dataclass
class Reply:
    status: int
    body: bytes


@dataclass
class Http11:
    """Pooled connections to one ``host:port``; safe for many concurrent requests on one loop."""

    host: str
    port: int
    timeout: float = 120.0
    max_idle: int = 64
    _idle: deque[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = field(default_factory=deque, init=False)

    async def post(self, path: str, body: bytes, headers: dict[str, str]) -> Reply:
        """POST ``body``; a reused connection the server had closed is retried once on a new one."""
        head = [f"POST {path} HTTP/1.1", f"Host: {self.host}:{self.port}", f"Content-Length: {len(body)}"]
        head += [f"{k}: {v}" for k, v in headers.items()]
        request = ("\r\n".join(head) + "\r\n\r\n").encode() + body
        async with asyncio.timeout(self.timeout):
            while self._idle:
                conn = self._idle.pop()
                try:
                    return await self._exchange(conn, request)
                except (Broken, OSError, asyncio.IncompleteReadError):
                    continue  # went stale while idle: try the next one, then a fresh one
            conn = await asyncio.open_connection(self.host, self.port)
            try:
                return await self._exchange(conn, request)
            except asyncio.IncompleteReadError as exc:
                raise Broken(f"connection closed after {len(exc.partial)} bytes of the answer") from None

    async def _exchange(
        self, conn: tuple[asyncio.StreamReader, asyncio.StreamWriter], request: bytes
    ) -> Reply:
        reader, writer = conn
        try:
            writer.write(request)
            await writer.drain()
            status, headers = await _head(reader)
            body = await _body(reader, headers)
        except BaseException:
            writer.close()
            raise
        if headers.get("connection", "").lower() == "close" or len(self._idle) >= self.max_idle:
            writer.close()
        else:
            self._idle.append(conn)
        return Reply(status, body)

    async def aclose(self) -> None:
        while self._idle:
            _, writer = self._idle.pop()
            writer.close()


async def _head(reader: asyncio.StreamReader) -> tuple[int, dict[str, str]]:
    try:
        raw = await reader.readuntil(b"\r\n\r\n")
    except asyncio.LimitOverrunError:
        raise Broken("response headers too long") from None
    if len(raw) > _MAX_HEADER:
        raise Broken("response headers too long")
    lines = raw.decode("latin-1").split("\r\n")
    parts = lines[0].split(" ", 2)
    if len(parts) < 2 or not parts[0].startswith("HTTP/1.") or not parts[1].isdigit():
        raise Broken(f"not an HTTP/1.1 status line: {lines[0][:80]!r}")
    headers: dict[str, str] = {}
    for line in lines[1:]:
        name, sep, value = line.partition(":")
        if sep:
            headers[name.strip().lower()] = value.strip()
    return int(parts[1]), headers


async def _body(reader: asyncio.StreamReader, headers: dict[str, str]) -> bytes:
    if "chunked" in headers.get("transfer-encoding", "").lower():
        chunks = []
        while True:
            size_line = await reader.readuntil(b"\r\n")
            try:
                size = int(size_line.split(b";", 1)[0].strip(), 16)
            except ValueError:
                raise Broken(f"bad chunk size {size_line[:20]!r}") from None
            if size == 0:
                while (await reader.readuntil(b"\r\n")) != b"\r\n":  # trailers
                    pass
                return b"".join(chunks)
            chunks.append(await reader.readexactly(size))
            await reader.readexactly(2)
    length = headers.get("content-length")
    if length is not None:
        if not length.isdigit():
            raise Broken(f"bad Content-Length {length!r}")
        return await reader.readexactly(int(length))
    headers["connection"] = "close"  # the body runs to the end of the connection
    return await reader.read()
