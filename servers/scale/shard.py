"""One shard of a scaled-out server: the env sessions it owns, and the ones a restart lost.

A shard is a plain ``toolground serve`` whose episode store has a :class:`ShardCustodian`: it
refuses env-session ids another shard owns (so a misrouted request can never split one episode's
state over two processes) and keeps a journal of the ids it holds. When a shard process dies its
episodes die with it; the one that replaces it reads the journal and answers a call for any of
those ids with an error saying the env session was lost, instead of quietly forking a fresh world
under the old name. A reset, a bind or a release of the id starts it afresh.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from servers.scale import jsonrpc
from servers.scale.owner import mcp_session_tag, owner, session_id_minter
from state import EpisodeUnavailable

COMPACT_AFTER = 10_000  # journal lines beyond what the live ids need before it is rewritten


class NotOwned(EpisodeUnavailable):
    status = 421  # Misdirected Request: this server is not the one for it


class EpisodeLost(EpisodeUnavailable):
    status = 410  # Gone


class ShardCustodian:
    """Ownership and the lost-episode journal of shard ``index`` of ``count``.

    The store calls it under its own lock, so it keeps no lock of its own. The journal is one
    line per event (``+id`` opened, ``-id`` closed) appended with ``os.write``: the bytes are in the
    kernel before the call returns, so a killed process loses none of them."""

    def __init__(self, index: int, count: int, journal: Path | None = None) -> None:
        self.index, self.count = index, count
        self.journal = journal
        self.live: set[str] = set()
        self.lost: set[str] = set()
        self.started = time.strftime("%Y-%m-%d %H:%M:%S")
        self._fd: int | None = None
        self._lines = 0
        if journal is not None:
            self.lost = _held_at_exit(journal)
            self._rewrite()

    def admit(self, env_id: str, *, renew: bool) -> None:
        shard = owner(env_id, self.count)
        if shard != self.index:
            raise NotOwned(
                f"env session {env_id!r} belongs to shard {shard} of {self.count}, not to this one "
                f"(shard {self.index}); send its requests through a gateway, which routes by the id"
            )
        if env_id not in self.lost:
            return
        if not renew:
            raise EpisodeLost(
                f"env session {env_id!r} was lost: the process of shard {self.index} died and was "
                f"restarted at {self.started}, and the episode's state died with it. Start the episode "
                f"again: POST /admin/sessions/{env_id}/reset (or /bind) gives it a fresh fork of the "
                "snapshot; or use a new env-session id"
            )
        self.lost.discard(env_id)

    def opened(self, env_id: str) -> None:
        self.live.add(env_id)
        self._log("+", env_id)

    def closed(self, env_id: str) -> bool:
        known = env_id in self.live or env_id in self.lost
        self.live.discard(env_id)
        self.lost.discard(env_id)
        if known:
            self._log("-", env_id)
        return known

    def lost_mcp_session(self, mcp_session_id: str) -> str | None:
        """What to tell a handshake-era client whose MCP session (and so its env session
        ``mcp:<id>``) died with this shard's previous process; None if it was not lost here."""
        env_id = "mcp:" + mcp_session_id
        if env_id not in self.lost:
            return None
        return (
            f"env session {env_id!r} was lost: the process of shard {self.index} died and was restarted "
            f"at {self.started}, and the episode's state and its MCP session died with it. Start the "
            "episode again in a new MCP session (initialize again) and replay the task from its first "
            "turn; an env session the client names itself (X-Env-Session) can instead be reset in place"
        )

    @property
    def session_tag(self) -> str:
        """What this shard's MCP session ids start with: its server is built with it, so that the
        env-session id of an SSE connection names this shard too (``build_http_app(session_tag=)``)."""
        return mcp_session_tag(self.index)

    def describe(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "count": self.count,
            "pid": os.getpid(),
            "lost_sessions": len(self.lost),
            "since": self.started,
        }

    def _log(self, op: str, env_id: str) -> None:
        if self._fd is None:
            return
        os.write(self._fd, f"{op}{env_id}\n".encode())
        self._lines += 1
        if self._lines > len(self.live) + len(self.lost) + COMPACT_AFTER:
            self._rewrite()

    def _rewrite(self) -> None:
        """The journal as the ids held now (live and lost), written aside and renamed over it."""
        assert self.journal is not None
        held = sorted(self.live | self.lost)
        tmp = self.journal.with_name(self.journal.name + ".tmp")
        tmp.write_text("".join(f"+{i}\n" for i in held))
        os.replace(tmp, self.journal)
        if self._fd is not None:
            os.close(self._fd)
        self._fd = os.open(self.journal, os.O_WRONLY | os.O_APPEND)
        self._lines = len(held)


def _held_at_exit(journal: Path) -> set[str]:
    """The ids a journal says were open when its writer stopped (a torn last line is ignored)."""
    try:
        text = journal.read_text()
    except FileNotFoundError:
        return set()
    held: set[str] = set()
    for line in text.split("\n")[:-1]:
        if line.startswith("+"):
            held.add(line[1:])
        elif line.startswith("-"):
            held.discard(line[1:])
    return held


def mint_mcp_session_ids(index: int) -> None:
    """Make this process mint handshake-era MCP session ids that name shard ``index``.

    The SDK's session manager draws them from ``uuid4().hex`` and offers no hook, so its module's
    ``uuid4`` is replaced by one whose ``hex`` is ``shard<index>.<32 hex>``; a gateway then sends
    every later request of that MCP session back here (``tests/test_scale_out.py`` drives an mcp
    1.x client through two gateways to prove it). An SSE connection's session id is a uuid the
    SDK makes elsewhere; its env-session id is tagged the same way where it is formed, by the
    server built with the custodian's :attr:`ShardCustodian.session_tag`."""
    from mcp.server import streamable_http_manager

    mint = session_id_minter(index)

    class _ShardUuid:
        def __init__(self) -> None:
            self.hex = mint()

    streamable_http_manager.uuid4 = _ShardUuid


Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]
LOST_SESSION_CODE = -32001  # as a gateway's "unavailable": the client's episode is gone


class LostMcpSessions:
    """ASGI layer of a restarted shard: requests of the handshake-era MCP sessions it lost.

    The SDK knows nothing of an MCP session minted by the previous process, so it would answer
    "Session not found" (which an mcp 1.x client turns into "Session terminated") before any tool
    could say the episode was lost. This answers them first, from the journal: a request gets a
    JSON-RPC error saying the env session was lost and what to do; a DELETE (the client closing
    the session) forgets the id. Anything else passes through untouched."""

    def __init__(
        self, app: Callable[..., Awaitable[None]], custodian: ShardCustodian, release: Callable[[str], bool]
    ) -> None:
        self.app, self.custodian, self.release = app, custodian, release

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        message = None
        if scope["type"] == "http" and self.custodian.lost:  # empty unless this process was restarted
            sid = next((v for k, v in scope["headers"] if k == b"mcp-session-id"), None)
            if sid is not None:
                message = self.custodian.lost_mcp_session(sid.decode("latin-1"))
        if message is None:
            return await self.app(scope, receive, send)
        if scope["method"] == "DELETE":
            self.release("mcp:" + sid.decode("latin-1"))
            return await _answer(send, 200, b"")
        rpc_id = None
        if scope["method"] == "POST":
            rpc_id = jsonrpc.rpc_id(await _body(receive))
        error = {"code": LOST_SESSION_CODE, "message": message, "data": {"shard": self.custodian.index}}
        payload = json.dumps({"jsonrpc": "2.0", "id": rpc_id, "error": error}).encode()
        # a request gets its error as a JSON-RPC answer (a 404 would become "Session terminated")
        await _answer(send, 200 if rpc_id is not None else 404, payload)


async def _body(receive: Receive) -> bytes:
    chunks = []
    while True:
        message = await receive()
        chunks.append(message.get("body", b""))
        if message["type"] != "http.request" or not message.get("more_body", False):
            return b"".join(chunks)


async def _answer(send: Send, status: int, body: bytes) -> None:
    headers = [(b"content-length", str(len(body)).encode())]
    if body:
        headers.append((b"content-type", b"application/json"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
