"""The operator API of a running ``toolground serve`` (``servers/admin.py``), as one client.

A trainer or an evaluator binds an env session to a task, reads its state or diff, resets and
releases it through these routes, never the policy (they are plain HTTP, not MCP tools). Each
operation has a synchronous face (``bind``: trainers that call tools synchronously, finalizers,
which cannot await) and an async one (``abind``: event loops). A failure is a
:class:`~rollout.session.SessionError` with the server's own explanation; releasing a session the
server no longer holds is not one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import httpx

from contract.task import Task
from rollout.session import SessionError

# method, path under /admin/sessions/{sid}; the routes of servers/admin.py, written once
ROUTES = {
    "bind": ("POST", "/bind"),
    "state": ("GET", "/state"),
    "diff": ("GET", "/diff"),
    "reset": ("POST", "/reset"),
    "release": ("DELETE", ""),
    "fork": ("POST", "/fork"),
}
Variants = Mapping[str, str | None]


def _task_body(task: Task | Mapping[str, Any]) -> Any:
    return task.model_dump(mode="json") if isinstance(task, Task) else dict(task)


def _state_params(domains: Sequence[str] | None) -> dict[str, str] | None:
    return {"domains": ",".join(domains)} if domains else None


def _reset_body(variants: Variants | None) -> Any:
    return None if variants is None else {"variants": dict(variants)}


class AdminClient:
    """The ``/admin`` routes of one server (``base_url`` like ``http://127.0.0.1:8000``). Its HTTP
    clients are made on first use; the async one belongs to the loop that first awaits it."""

    def __init__(self, base_url: str, token: str | None = None, timeout: float = 30.0) -> None:
        self.base_url = base_url.rstrip("/")
        self.headers = {"Authorization": f"Bearer {token}"} if token else {}
        self.timeout = timeout
        self._sync: httpx.Client | None = None
        self._async: httpx.AsyncClient | None = None

    def bind(self, sid: str, task: Task | Mapping[str, Any]) -> dict[str, Any]:
        """Bind env session ``sid`` (made if new) to the task: the server runs the task's own world
        (built on demand, checked against its sha256, setup applied) or refuses it."""
        return self._send("bind", sid, body=_task_body(task))

    async def abind(self, sid: str, task: Task | Mapping[str, Any]) -> dict[str, Any]:
        return await self._asend("bind", sid, body=_task_body(task))

    def state(self, sid: str, domains: Sequence[str] | None = None) -> dict[str, Any]:
        """``hash`` (over ``domains`` only, when given), per-domain hashes, the ``snapshot``
        identities the session runs and its call count."""
        return self._send("state", sid, params=_state_params(domains))

    async def astate(self, sid: str, domains: Sequence[str] | None = None) -> dict[str, Any]:
        return await self._asend("state", sid, params=_state_params(domains))

    def diff(self, sid: str) -> dict[str, Any]:
        """The rows the session changed against its snapshot (``count``, ``changes``)."""
        return self._send("diff", sid)

    async def adiff(self, sid: str) -> dict[str, Any]:
        return await self._asend("diff", sid)

    def reset(self, sid: str, variants: Variants | None = None) -> dict[str, Any]:
        """Back to the snapshot (a bound session: its task's world), optionally in named variants."""
        return self._send("reset", sid, body=_reset_body(variants))

    async def areset(self, sid: str, variants: Variants | None = None) -> dict[str, Any]:
        return await self._asend("reset", sid, body=_reset_body(variants))

    def fork(self, sid: str, to: str) -> dict[str, Any]:
        """Env session ``to`` becomes a copy of ``sid`` as it is now (state, task binding, call
        count); the two then diverge. Through a gateway the copy lands in ``to``'s shard."""
        return self._send("fork", sid, body={"to": to})

    async def afork(self, sid: str, to: str) -> dict[str, Any]:
        return await self._asend("fork", sid, body={"to": to})

    def release(self, sid: str) -> bool:
        """Free the session; False when the server held none under that id."""
        return bool(self._send("release", sid))

    async def arelease(self, sid: str) -> bool:
        return bool(await self._asend("release", sid))

    def _send(self, op: str, sid: str, *, params: Any = None, body: Any = None) -> dict[str, Any]:
        if self._sync is None:
            self._sync = httpx.Client(base_url=self.base_url, headers=self.headers, timeout=self.timeout)
        method, path = _route(op, sid)
        try:
            return _answer(op, method, path, self._sync.request(method, path, params=params, json=body))
        except httpx.TransportError as exc:
            raise SessionError(f"operator API at {self.base_url} unreachable: {exc}") from None

    async def _asend(self, op: str, sid: str, *, params: Any = None, body: Any = None) -> dict[str, Any]:
        if self._async is None:
            self._async = httpx.AsyncClient(
                base_url=self.base_url, headers=self.headers, timeout=self.timeout
            )
        method, path = _route(op, sid)
        try:
            resp = await self._async.request(method, path, params=params, json=body)
        except httpx.TransportError as exc:
            raise SessionError(f"operator API at {self.base_url} unreachable: {exc}") from None
        return _answer(op, method, path, resp)

    def close(self) -> None:
        if self._sync is not None:
            self._sync.close()
            self._sync = None

    async def aclose(self) -> None:
        if self._async is not None:
            await self._async.aclose()
            self._async = None


def _route(op: str, sid: str) -> tuple[str, str]:
    method, tail = ROUTES[op]
    return method, f"/admin/sessions/{sid}{tail}"


def _answer(op: str, method: str, path: str, resp: httpx.Response) -> dict[str, Any]:
    if resp.status_code == 404 and op == "release":  # already gone: what release wanted
        return {}
    if resp.status_code >= 400:
        raise SessionError(f"{method} {path}: HTTP {resp.status_code}: {_error_text(resp)}")
    return resp.json()


def _error_text(resp: httpx.Response) -> str:
    """The server's own explanation (``{"error": ...}``), else the start of the body."""
    try:
        return str(resp.json()["error"])
    except (ValueError, KeyError, TypeError):
        return resp.text[:300]
