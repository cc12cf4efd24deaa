"""Keep-alive HTTP/1.1 connections from a gateway to one shard, over TCP or a Unix socket.

A gateway forwards a request it has already read whole (MCP requests are small JSON) and relays
the answer: a body of known length in one piece, a chunked one (an SSE stream) chunk by chunk as
it arrives. Only a connection reused from the pool is retried, and only when it fails before any
byte of an answer (the shard had closed it idle); a fresh connection that fails means the shard is
down, which the gateway reports in words instead of retrying a call that may have run.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

_MAX_HEAD = 64 * 1024
_HOP_BY_HOP = frozenset({b"connection", b"keep-alive", b"transfer-encoding", b"te", b"upgrade", b"trailer"})
_NO_BODY = frozenset({204, 304})
CONNECT_TIMEOUT = 5.0

Connection = tuple[asyncio.StreamReader, asyncio.StreamWriter]


class _Stale(Exception):
    """The connection was closed before a byte of the answer came back."""


class ShardDown(Exception):
    """The shard refused the connection, or dropped it before answering."""

    def __init__(self, index: int, url: str, reason: str) -> None:
        super().__init__(f"shard {index} ({url}) is not answering: {reason}")
        self.index, self.url, self.reason = index, url, reason


@dataclass
class Answer:
    """A shard's answer: status, headers fit to relay, and the body whole or as a stream."""

    status: int
    headers: list[tuple[bytes, bytes]]
    body: bytes | None  # None: read it from ``stream()``
    _stream: AsyncIterator[bytes] | None = None

    def stream(self) -> AsyncIterator[bytes]:
        assert self._stream is not None
        return self._stream


@dataclass
class Upstream:
    """Pooled connections to one shard: ``http://host:port`` or ``unix:/path/to.sock``."""

    url: str
    index: int
    max_idle: int = 128
    _idle: deque[Connection] = field(default_factory=deque, init=False)

    def __post_init__(self) -> None:
        if self.url.startswith("unix:"):
            self.path: str | None = self.url[len("unix:") :]
            self.host, self.port = "", 0
        else:
            rest = self.url.removeprefix("http://").rstrip("/")
            host, _, port = rest.rpartition(":")
            if not host or not port.isdigit():
                raise ValueError(f"a shard address is http://HOST:PORT or unix:/PATH, got {self.url!r}")
            self.path, self.host, self.port = None, host.strip("[]"), int(port)

    async def exchange(self, head: bytes, body: bytes) -> Answer:
        """Send one request (``head`` ends with the blank line) and read the answer's head."""
        while self._idle:
            conn = self._idle.pop()
            try:
                return await self._on(conn, head, body)
            except _Stale:
                conn[1].close()  # closed while idle: the shard never saw this request
            except (ConnectionError, asyncio.IncompleteReadError) as exc:
                conn[1].close()
                raise ShardDown(
                    self.index, self.url, f"the connection dropped mid-answer ({_reason(exc)})"
                ) from None
        try:
            conn = await asyncio.wait_for(self._connect(), CONNECT_TIMEOUT)
        except (TimeoutError, OSError) as exc:
            raise ShardDown(self.index, self.url, _reason(exc)) from None
        try:
            return await self._on(conn, head, body)
        except (_Stale, ConnectionError, asyncio.IncompleteReadError) as exc:
            conn[1].close()
            raise ShardDown(
                self.index, self.url, f"the connection dropped before an answer ({_reason(exc)})"
            ) from None

    async def _connect(self) -> Connection:
        if self.path is not None:
            return await asyncio.open_unix_connection(self.path, limit=_MAX_HEAD)
        return await asyncio.open_connection(self.host, self.port, limit=_MAX_HEAD)

    async def _on(self, conn: Connection, head: bytes, body: bytes) -> Answer:
        reader, writer = conn
        try:
            writer.write(head + body)
            await writer.drain()
            raw = await reader.readuntil(b"\r\n\r\n")
        except asyncio.IncompleteReadError as exc:
            if exc.partial:
                raise
            raise _Stale("closed before answering") from None
        except ConnectionError as exc:
            raise _Stale(str(exc)) from None
        status, headers, length, chunked, close = _parse_head(raw)
        if status in _NO_BODY or length == 0:
            self._keep(conn, close)
            return Answer(status, headers, b"")
        if length is not None:
            data = await reader.readexactly(length)
            self._keep(conn, close)
            return Answer(status, headers, data)
        stream = self._chunks(conn, close) if chunked else self._until_close(conn)
        return Answer(status, headers, None, stream)

    async def _chunks(self, conn: Connection, close: bool) -> AsyncIterator[bytes]:
        reader, writer = conn
        done = False
        try:
            while True:
                size = int((await reader.readuntil(b"\r\n")).split(b";")[0].strip(), 16)
                if size == 0:
                    while (await reader.readuntil(b"\r\n")) != b"\r\n":
                        pass  # trailers
                    done = True
                    break
                chunk = await reader.readexactly(size + 2)
                yield chunk[:-2]
        finally:
            if done:
                self._keep(conn, close)
            else:  # the client left mid-stream, or the shard broke off: this connection is spent
                writer.close()

    async def _until_close(self, conn: Connection) -> AsyncIterator[bytes]:
        reader, writer = conn
        try:
            while chunk := await reader.read(65536):
                yield chunk
        finally:
            writer.close()

    def _keep(self, conn: Connection, close: bool) -> None:
        if close or len(self._idle) >= self.max_idle or conn[0].at_eof():
            conn[1].close()
        else:
            self._idle.append(conn)

    def close(self) -> None:
        while self._idle:
            self._idle.pop()[1].close()


def _parse_head(raw: bytes) -> tuple[int, list[tuple[bytes, bytes]], int | None, bool, bool]:
    """(status, relayable headers, Content-Length, chunked?, connection: close?)."""
    lines = raw[:-4].split(b"\r\n")
    parts = lines[0].split(b" ", 2)
    if len(parts) < 2 or not parts[0].startswith(b"HTTP/1.") or not parts[1].isdigit():
        raise ConnectionResetError(f"not an HTTP/1.1 answer: {lines[0][:80]!r}")
    headers: list[tuple[bytes, bytes]] = []
    length, chunked, close = None, False, parts[0] == b"HTTP/1.0"
    for line in lines[1:]:
        name, _, value = line.partition(b":")
        name, value = name.strip().lower(), value.strip()
        if name == b"content-length":
            length = int(value)
        elif name == b"transfer-encoding":
            chunked = b"chunked" in value.lower()
        elif name == b"connection":
            close = b"close" in value.lower()
        if name not in _HOP_BY_HOP:
            headers.append((name, value))
    return int(parts[1]), headers, length, chunked, close


def _reason(exc: BaseException) -> str:
    if isinstance(exc, TimeoutError):
        return f"no connection within {CONNECT_TIMEOUT:g} s"
    if isinstance(exc, ConnectionRefusedError | FileNotFoundError):
        return "connection refused"
    return str(exc) or type(exc).__name__
