"""A TRL rollout on a running ``toolground serve``: one env session per rollout.

Sessions are opened through :mod:`rollout.backends`, which binds each one to its task on the
server (the task's own world, variants and setup, or a refusal before the model is asked
anything), and driven on a private event loop thread: the MCP client is async, and TRL calls
these tools synchronously (a tool that is a schema dict must be a plain callable, see
:mod:`rollout.trl_tools`).

TRL has no teardown hook, so every server session carries a ``weakref.finalize`` that deletes it
(``DELETE /admin/sessions/{sid}``) when its session object goes (the next reset, or its
environment instance being dropped) or the interpreter exits (finalizers run at exit);
``McpRuntime.close()`` does the same on demand.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import uuid
import weakref
from collections.abc import Coroutine
from typing import Any, TypeVar

import httpx

from contract.task import Task
from rewards.replay import EnvPool, default_pool
from rollout.backends import McpServer
from rollout.episode import ToolOutcome, error_content

T = TypeVar("T")


class _LoopThread:
    """An asyncio loop on a daemon thread: the MCP client is async, TRL's tool calls are not."""

    def __init__(self, timeout: float) -> None:
        self.timeout = timeout
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="toolground-trl-mcp", daemon=True)
        self.thread.start()

    def run(self, coro: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(self.timeout)

    def stop(self) -> None:
        if self.loop.is_running():
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(5)


def _delete_session(admin_base: str, headers: dict[str, str], sid: str) -> None:
    """Delete one server session (a finalizer: it must not hold the session object)."""
    with contextlib.suppress(httpx.HTTPError):  # the server is gone, and its sessions with it
        httpx.delete(f"{admin_base}/admin/sessions/{sid}", headers=headers, timeout=10.0)


class McpRuntime:
    """A ``toolground serve`` at ``url`` (``http://host:port/mcp``): one env session per rollout."""

    def __init__(
        self,
        url: str,
        *,
        admin_token: str | None = None,
        pool: EnvPool | None = None,
        timeout: float = 120.0,
    ) -> None:
        self.pool = pool or default_pool()
        self.server = McpServer(url, f"trl-{uuid.uuid4().hex[:8]}", admin_token)
        self.headers = {"Authorization": f"Bearer {admin_token}"} if admin_token else {}
        self._loop = _LoopThread(timeout)
        self._sessions: weakref.WeakSet[McpSession] = weakref.WeakSet()

    def run(self, coro: Coroutine[Any, Any, T]) -> T:
        return self._loop.run(coro)

    def open(self, task: Task) -> McpSession:
        session = McpSession(self, task)
        self._sessions.add(session)
        return session

    def live_sessions(self) -> list[str]:
        """Ids of the server sessions this runtime holds now."""
        return [s.sid for s in list(self._sessions) if s.live]

    def close(self) -> None:
        """Delete every session still held, then stop the client."""
        for session in list(self._sessions):
            session.close()
        try:
            self.run(self.server.aclose())
        finally:
            self._loop.stop()


class McpSession:
    """One rollout on the server: a fresh env session per ``reset``, the previous one deleted."""

    def __init__(self, runtime: McpRuntime, task: Task) -> None:
        self.runtime, self.task = runtime, task
        self._start()

    def _start(self) -> None:
        self.episode = self.runtime.run(self.runtime.server.open(self.task))
        self._release = weakref.finalize(
            self, _delete_session, self.runtime.server.admin_base, self.runtime.headers, self.episode.sid
        )

    @property
    def sid(self) -> str:
        return self.episode.sid

    @property
    def live(self) -> bool:
        """Held, not yet deleted."""
        return self._release.alive

    def call(self, name: str, arguments: Any) -> ToolOutcome:
        if not isinstance(arguments, dict):
            message = "arguments must be a JSON object"
            return ToolOutcome(False, error_content(message), error=message)
        return self.runtime.run(self.episode.call(name, arguments))

    def state_hash(self) -> str | None:
        """The session's state hash over the task's domains, read from the server."""
        return self.runtime.run(self.episode.final_hash())

    def state_matches(self) -> bool | None:
        if self.task.expected_state_hash is None:
            return None
        return self.state_hash() == self.task.expected_state_hash

    def reset(self) -> None:
        """A new session for the next rollout: the previous one is deleted first."""
        self._release()
        self._start()

    def close(self) -> None:
        self._release()
