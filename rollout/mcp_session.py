"""Tool sessions on a running ``toolground serve``: one env session per rollout, bound to its task.

:class:`McpSessions` is the factory (one per server and run). Each :class:`McpSession` is an env
session (sent as ``_meta.env_session``) bound through the operator API, so the server runs the
task's own world (built on demand, checked against its sha256, setup applied) or refuses it
before the model is asked anything; its state hash is read over the task's own domains, the
served world checked against the task's each time.

The MCP client is async and connected once per factory, on the factory's own event-loop thread:
the synchronous face (TRL, SkyRL) waits on that thread, the async face (eval, verl) awaits it
from any other loop. A session is deleted on ``close``, on ``reset`` (the next rollout gets a
fresh one) and, as neither TRL nor verl has a teardown hook, by a ``weakref.finalize`` when the
object goes or the interpreter exits: it holds only the admin client and the id, and deletes
synchronously (a finalizer cannot await, and may run on any thread).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import os
import threading
import uuid
import weakref
from collections.abc import Coroutine
from typing import Any, TypeVar
from urllib.parse import urlsplit

from contract.messages import dumps
from contract.task import Task
from rollout.admin_client import AdminClient
from rollout.episode import ToolOutcome, error_content, refusal
from rollout.session import SessionError

log = logging.getLogger(__name__)
T = TypeVar("T")


class McpSessions:
    """A ``toolground serve`` at ``url`` (``http://host:port/mcp``): one env session per task.

    Session ids are ``eval-<run_id>-<pid>-<n>``; ``timeout`` bounds each synchronous wait."""

    def __init__(
        self, url: str, *, run_id: str | None = None, admin_token: str | None = None, timeout: float = 120.0
    ) -> None:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise SessionError(
                f"--mcp-url must be an http(s) URL such as http://127.0.0.1:8000/mcp, got {url!r}"
            )
        self.url, self.timeout, self.run_id = url, timeout, run_id or uuid.uuid4().hex[:8]
        self.admin = AdminClient(f"{parts.scheme}://{parts.netloc}", admin_token)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._starting = threading.Lock()
        self._client: Any = None
        self._connecting: asyncio.Lock | None = None
        self._ids = itertools.count()
        self._held: weakref.WeakSet[McpSession] = weakref.WeakSet()

    def new_sid(self) -> str:
        return f"eval-{self.run_id}-{os.getpid()}-{next(self._ids)}"

    def __call__(self, task: Task) -> McpSession:
        """A fresh env session bound to the task (``POST /admin/sessions/{id}/bind``)."""
        sid = self.new_sid()
        self.admin.bind(sid, task)
        return McpSession(self, task, sid)

    async def aopen(self, task: Task) -> McpSession:
        sid = self.new_sid()
        await self.arun(self.admin.abind(sid, task))
        return McpSession(self, task, sid)

    def live_sessions(self) -> list[str]:
        """Ids of the server sessions this factory's sessions hold now."""
        return [s.sid for s in list(self._held) if s.live]

    def _submit(self, coro: Coroutine[Any, Any, T]) -> Any:
        """Run ``coro`` on the factory's loop thread (started on first use)."""
        with self._starting:
            if self._loop is None:
                self._loop = asyncio.new_event_loop()
                self._thread = threading.Thread(
                    target=self._loop.run_forever, name="toolground-mcp", daemon=True
                )
                self._thread.start()
        return asyncio.run_coroutine_threadsafe(coro, self._loop)

    def run(self, coro: Coroutine[Any, Any, T]) -> T:
        """The synchronous face: wait for ``coro`` on the factory's loop."""
        return self._submit(coro).result(self.timeout)

    async def arun(self, coro: Coroutine[Any, Any, T]) -> T:
        """The async face: await ``coro`` on the factory's loop from the caller's loop."""
        return await asyncio.wrap_future(self._submit(coro))

    async def client(self) -> Any:
        """The MCP client (on the factory's loop), connected once however many sessions ask."""
        self._connecting = self._connecting or asyncio.Lock()
        async with self._connecting:
            if self._client is None:
                from fastmcp import Client
                from fastmcp.client.transports import StreamableHttpTransport

                client = Client(StreamableHttpTransport(self.url))
                await client.__aenter__()
                self._client = client
        return self._client

    async def _aclose_clients(self) -> None:
        if self._client is not None:
            await self._client.__aexit__(None, None, None)
            self._client = None
        await self.admin.aclose()

    def close(self) -> None:
        """Delete every session still held, then close the clients and stop the loop thread."""
        for session in list(self._held):
            session.close()
        if self._loop is not None and self._thread is not None:
            try:
                self.run(self._aclose_clients())
            finally:
                self._loop.call_soon_threadsafe(self._loop.stop)
                self._thread.join(5)
                self._loop = self._thread = None
        self.admin.close()


class McpSession:
    """One rollout's env session on the server (see the module docstring)."""

    def __init__(self, owner: McpSessions, task: Task, sid: str) -> None:
        self.owner, self.task, self.sid, self.calls = owner, task, sid, 0
        self.offered = frozenset(t["function"]["name"] for t in task.tools if "function" in t)
        self._release = weakref.finalize(self, _release_quietly, owner.admin, sid)
        owner._held.add(self)

    @property
    def live(self) -> bool:
        """Bound on the server, not yet deleted."""
        return self._release.alive

    def call(self, name: str, arguments: Any) -> ToolOutcome:
        return self._refused(name, arguments) or self.owner.run(self._call(self.sid, name, arguments))

    async def acall(self, name: str, arguments: Any) -> ToolOutcome:
        return self._refused(name, arguments) or await self.owner.arun(self._call(self.sid, name, arguments))

    def _refused(self, name: str, arguments: Any) -> ToolOutcome | None:
        refused = refusal(name, arguments, self.offered)
        if refused is None:
            self.calls += 1
        return refused

    async def _call(self, sid: str, name: str, arguments: dict[str, Any]) -> ToolOutcome:
        client = await self.owner.client()
        res = await client.call_tool(name, arguments, raise_on_error=False, meta={"env_session": sid})
        text = "".join(getattr(c, "text", "") for c in res.content)
        if res.is_error:
            return ToolOutcome(False, error_content(text), error=text)
        value = res.structured_content if res.structured_content is not None else _json_or_text(text)
        if isinstance(value, dict) and set(value) == {"result"}:  # fastmcp wraps non-object results
            value = value["result"]
        return ToolOutcome(True, dumps(value), value=value)

    def state_hash(self) -> str:
        """The session's state hash over the task's domains, read from the server."""
        return self._checked(self.owner.admin.state(self.sid, self.task.domains))

    async def astate_hash(self) -> str:
        return self._checked(await self.owner.arun(self.owner.admin.astate(self.sid, self.task.domains)))

    def _checked(self, state: dict[str, Any]) -> str:
        _check_world(self.task, state.get("snapshot", {}))
        return state["hash"]

    def state_matches(self) -> bool | None:
        expected = self.task.expected_state_hash
        return None if expected is None else self.state_hash() == expected

    def reset(self) -> None:
        """A new env session for the next rollout: the previous one is deleted first."""
        self.close()
        self.sid, self.calls = self.owner.new_sid(), 0
        self.owner.admin.bind(self.sid, self.task)
        self._release = weakref.finalize(self, _release_quietly, self.owner.admin, self.sid)

    def fork(self) -> McpSession:
        """A new env session on the server that is a copy of this one as it is now (state, task
        binding, call count); the two diverge from here (``POST /admin/sessions/{id}/fork``)."""
        sid = self.owner.new_sid()
        self.owner.admin.fork(self.sid, sid)
        twin = McpSession(self.owner, self.task, sid)
        twin.calls = self.calls
        return twin

    async def afork(self) -> McpSession:
        sid = self.owner.new_sid()
        await self.owner.arun(self.owner.admin.afork(self.sid, sid))
        twin = McpSession(self.owner, self.task, sid)
        twin.calls = self.calls
        return twin

    def close(self) -> None:
        self._release()

    async def aclose(self) -> None:
        if self._release.detach() is not None:
            await self.owner.arun(self.owner.admin.arelease(self.sid))


def _check_world(task: Task, served: dict[str, Any]) -> None:
    """Refuse a result from a world other than the task's (a server at another scale or seed)."""
    for snap in task.snapshots:
        got = served.get(snap.domain)
        if got is None:
            raise SessionError(f"the server does not serve domain {snap.domain!r} that task {task.id} needs")
        if got.get("sha256") != snap.sha256:
            raise SessionError(
                f"the server's {snap.domain} world is seed {got.get('seed')} {got.get('scale')} "
                f"(sha256 {str(got.get('sha256'))[:12]}…) but task {task.id} was generated on seed "
                f"{snap.seed} {snap.scale} (sha256 {snap.sha256[:12]}…); serve it with "
                f"--scale {snap.scale} --seed {snap.seed}"
            )


def _release_quietly(admin: AdminClient, sid: str) -> None:
    """Delete one env session (the finalizer). A server that is gone took its sessions with it;
    one out of reach frees them at its idle TTL."""
    try:
        admin.release(sid)
    except SessionError as exc:
        log.warning("could not release env session %s: %s", sid, exc)


def _json_or_text(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text
