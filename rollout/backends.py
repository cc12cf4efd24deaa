"""Where an episode's tool calls run: in this process (the default) or on a running MCP server.

Both give the model the same thing: only the task's offered tools, a JSON result per call, and
``{"error": ...}`` for every failure. The MCP backend gives each episode its own env session (sent
as ``_meta.env_session``) bound to the task through the operator API, so the server runs the
task's own world (built on demand, checked against its sha256, with the task's setup applied) or
refuses it up front; it then reads the final state hash over the task's own domains, checks the
session's world once more, and releases the session.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
from typing import Any, Protocol
from urllib.parse import urlsplit

import httpx

from contract.messages import dumps
from contract.task import Task
from rewards.replay import EnvPool
from rollout.episode import TaskEpisode, ToolOutcome, error_content, unknown_tool


class BackendError(Exception):
    """The backend cannot run this task (a world the server does not serve, an unreachable server)."""


class EpisodeBackend(Protocol):
    async def call(self, name: str, arguments: dict[str, Any]) -> ToolOutcome: ...
    async def final_hash(self) -> str | None: ...
    async def close(self) -> None: ...


class Backends(Protocol):
    async def open(self, task: Task) -> EpisodeBackend: ...
    async def aclose(self) -> None: ...


class InProcessEpisode:
    def __init__(self, episode: TaskEpisode) -> None:
        self.episode = episode

    async def call(self, name: str, arguments: dict[str, Any]) -> ToolOutcome:
        return self.episode.call(name, arguments)  # microseconds to a few ms: no thread hop needed

    async def final_hash(self) -> str | None:
        return self.episode.state_hash()

    async def close(self) -> None:
        self.episode.close()


class InProcess:
    """Private forks in this process, from a pool shared by every episode of the run."""

    def __init__(self, pool: EnvPool | None = None) -> None:
        self.pool = pool or EnvPool()

    async def open(self, task: Task) -> InProcessEpisode:
        try:
            return InProcessEpisode(TaskEpisode(task, pool=self.pool))
        except ValueError as exc:  # the reward's TaskError and SnapshotMismatch are ValueErrors too
            raise BackendError(str(exc)) from None

    async def aclose(self) -> None:
        return None


class McpEpisode:
    def __init__(self, owner: McpServer, task: Task, sid: str) -> None:
        self.owner, self.task, self.sid = owner, task, sid
        self.offered = frozenset(t["function"]["name"] for t in task.tools if "function" in t)

    async def call(self, name: str, arguments: dict[str, Any]) -> ToolOutcome:
        refusal = unknown_tool(name, self.offered)
        if refusal is not None:
            return ToolOutcome(False, error_content(refusal), error=refusal)
        client = await self.owner.client()
        res = await client.call_tool(name, arguments, raise_on_error=False, meta={"env_session": self.sid})
        text = "".join(getattr(c, "text", "") for c in res.content)
        if res.is_error:
            return ToolOutcome(False, error_content(text), error=text)
        value = res.structured_content if res.structured_content is not None else _json_or_text(text)
        if isinstance(value, dict) and set(value) == {"result"}:  # fastmcp wraps non-object results
            value = value["result"]
        return ToolOutcome(True, dumps(value), value=value)

    async def final_hash(self) -> str | None:
        state = await self.owner.admin(
            "GET", f"/admin/sessions/{self.sid}/state", domains=",".join(self.task.domains)
        )
        self.owner.check_world(self.task, state.get("snapshot", {}))
        return state["hash"]

    async def close(self) -> None:
        await self.owner.admin("DELETE", f"/admin/sessions/{self.sid}", missing_ok=True)


class McpServer:
    """A running ``toolground serve`` reached at its streamable-HTTP URL (``.../mcp``)."""

    def __init__(self, url: str, run_id: str, admin_token: str | None = None) -> None:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise BackendError(
                f"--mcp-url must be an http(s) URL such as http://127.0.0.1:8000/mcp, got {url!r}"
            )
        self.url = url
        self.admin_base = f"{parts.scheme}://{parts.netloc}"
        self.run_id = run_id
        headers = {"Authorization": f"Bearer {admin_token}"} if admin_token else {}
        self._http = httpx.AsyncClient(base_url=self.admin_base, headers=headers, timeout=30.0)
        self._client: Any = None
        self._connecting = asyncio.Lock()
        self._ids = itertools.count()

    async def client(self) -> Any:
        """One MCP client for the run, connected once however many episodes ask at the same time."""
        if self._client is None:
            async with self._connecting:
                if self._client is None:
                    from fastmcp import Client
                    from fastmcp.client.transports import StreamableHttpTransport

                    client = Client(StreamableHttpTransport(self.url))
                    await client.__aenter__()
                    self._client = client
        return self._client

    async def open(self, task: Task) -> McpEpisode:
        """A fresh env session bound to the task (``POST /admin/sessions/{id}/bind``): the server
        builds the task's world if it runs another seed or scale, checks its sha256, applies the
        task's setup, and refuses a world it cannot provide before the model is asked anything."""
        episode = McpEpisode(self, task, f"eval-{self.run_id}-{os.getpid()}-{next(self._ids)}")
        await self.admin("POST", f"/admin/sessions/{episode.sid}/bind", body=task.model_dump(mode="json"))
        return episode

    async def admin(
        self, method: str, path: str, *, missing_ok: bool = False, body: Any = None, **params: str
    ) -> dict[str, Any]:
        try:
            resp = await self._http.request(method, path, params=params or None, json=body)
        except httpx.TransportError as exc:
            raise BackendError(f"operator API at {self.admin_base} unreachable: {exc}") from None
        if resp.status_code == 404 and missing_ok:
            return {}
        if resp.status_code >= 400:
            raise BackendError(f"{method} {path}: HTTP {resp.status_code}: {_error_text(resp)}")
        return resp.json()

    @staticmethod
    def check_world(task: Task, served: dict[str, Any]) -> None:
        """Refuse a result from a world other than the task's (a server at another scale or seed)."""
        for snap in task.snapshots:
            got = served.get(snap.domain)
            if got is None:
                raise BackendError(
                    f"the server does not serve domain {snap.domain!r} that task {task.id} needs"
                )
            if got.get("sha256") != snap.sha256:
                raise BackendError(
                    f"the server's {snap.domain} world is seed {got.get('seed')} {got.get('scale')} "
                    f"(sha256 {str(got.get('sha256'))[:12]}…) but task {task.id} was generated on seed "
                    f"{snap.seed} {snap.scale} (sha256 {snap.sha256[:12]}…); serve it with "
                    f"--scale {snap.scale} --seed {snap.seed}"
                )

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.__aexit__(None, None, None)
        await self._http.aclose()


def _error_text(resp: httpx.Response) -> str:
    """The server's own explanation (``{"error": ...}``), else the start of the body."""
    try:
        return str(resp.json()["error"])
    except (ValueError, KeyError, TypeError):
        return resp.text[:300]


def _json_or_text(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text
