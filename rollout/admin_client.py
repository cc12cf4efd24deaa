"""The operator API of a running ``toolground serve`` (``servers/admin.py``), as one client.

A trainer or an evaluator binds an env session to a task, reads its state hash or diff, resets it
and releases it through these routes; the policy never sees them (they are plain HTTP, not MCP
tools). The paths are written here once. Every operation has a synchronous face (``bind``), for
trainers that call tools synchronously and for finalizers, which cannot await, and an async one
(``abind``) for event loops. A failure is a :class:`~rollout.session.SessionError` carrying the
server's own explanation; releasing a session the server no longer holds is not a failure.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import httpx

from querygen.task import Task
from rollout.session import SessionError

SESSIONS_PATH = "/admin/sessions"


@dataclass(frozen=True, slots=True)
class _Request:
    method: str
    path: str
    params: dict[str, str] | None = None
    body: Any = None
    missing_ok: bool = False  # a 404 answers {} instead of failing


def _session_path(sid: str, action: str = "") -> str:
    return f"{SESSIONS_PATH}/{sid}/{action}" if action else f"{SESSIONS_PATH}/{sid}"


def _bind(sid: str, task: Task | Mapping[str, Any]) -> _Request:
    body = task.model_dump(mode="json") if isinstance(task, Task) else dict(task)
    return _Request("POST", _session_path(sid, "bind"), body=body)


def _state(sid: str, domains: Sequence[str] | None) -> _Request:
    params = {"domains": ",".join(domains)} if domains else None
    return _Request("GET", _session_path(sid, "state"), params=params)


def _diff(sid: str) -> _Request:
    return _Request("GET", _session_path(sid, "diff"))


def _reset(sid: str, variants: Mapping[str, str | None] | None) -> _Request:
    body = {"variants": dict(variants)} if variants is not None else None
    return _Request("POST", _session_path(sid, "reset"), body=body)


def _release(sid: str) -> _Request:
    return _Request("DELETE", _session_path(sid), missing_ok=True)


class AdminClient:
    """The ``/admin`` routes of one server (``base_url`` like ``http://127.0.0.1:8000``).

    The HTTP clients are made on first use: the synchronous one in whatever thread calls, the
    async one on the event loop that first awaits (use one loop per client)."""

    def __init__(self, base_url: str, token: str | None = None, timeout: float = 30.0) -> None:
        self.base_url = base_url.rstrip("/")
        self.headers = {"Authorization": f"Bearer {token}"} if token else {}
        self.timeout = timeout
        self._sync: httpx.Client | None = None
        self._async: httpx.AsyncClient | None = None

    # -- the operations, each with its two faces ------------------------------------------------

    def bind(self, sid: str, task: Task | Mapping[str, Any]) -> dict[str, Any]:
        """Bind env session ``sid`` (created if new) to the task: the server runs the task's own
        world (built on demand, checked against its sha256, setup applied) or refuses it."""
        return self._send(_bind(sid, task))

    async def abind(self, sid: str, task: Task | Mapping[str, Any]) -> dict[str, Any]:
        return await self._asend(_bind(sid, task))

    def state(self, sid: str, domains: Sequence[str] | None = None) -> dict[str, Any]:
        """The session's state: ``hash`` (over ``domains`` only, when given), per-domain hashes,
        the ``snapshot`` identities it runs and its call count."""
        return self._send(_state(sid, domains))

    async def astate(self, sid: str, domains: Sequence[str] | None = None) -> dict[str, Any]:
        return await self._asend(_state(sid, domains))

    def diff(self, sid: str) -> dict[str, Any]:
        """The rows the session changed against its snapshot (``count``, ``changes``)."""
        return self._send(_diff(sid))

    async def adiff(self, sid: str) -> dict[str, Any]:
        return await self._asend(_diff(sid))

    def reset(self, sid: str, variants: Mapping[str, str | None] | None = None) -> dict[str, Any]:
        """Back to the snapshot (a bound session: its task's world), optionally in named variants."""
        return self._send(_reset(sid, variants))

    async def areset(self, sid: str, variants: Mapping[str, str | None] | None = None) -> dict[str, Any]:
        return await self._asend(_reset(sid, variants))

    def release(self, sid: str) -> bool:
        """Free the session; False when the server held none under that id."""
        return bool(self._send(_release(sid)))

    async def arelease(self, sid: str) -> bool:
        return bool(await self._asend(_release(sid)))

    # -- transport ------------------------------------------------------------------------------

    def _send(self, req: _Request) -> dict[str, Any]:
        if self._sync is None:
            self._sync = httpx.Client(base_url=self.base_url, headers=self.headers, timeout=self.timeout)
        try:
            resp = self._sync.request(req.method, req.path, params=req.params, json=req.body)
        except httpx.TransportError as exc:
            raise self._unreachable(exc) from None
        return self._answer(req, resp)

    async def _asend(self, req: _Request) -> dict[str, Any]:
        if self._async is None:
            self._async = httpx.AsyncClient(
                base_url=self.base_url, headers=self.headers, timeout=self.timeout
            )
        try:
            resp = await self._async.request(req.method, req.path, params=req.params, json=req.body)
        except httpx.TransportError as exc:
            raise self._unreachable(exc) from None
        return self._answer(req, resp)

    def _unreachable(self, exc: Exception) -> SessionError:
        return SessionError(f"operator API at {self.base_url} unreachable: {exc}")

    @staticmethod
    def _answer(req: _Request, resp: httpx.Response) -> dict[str, Any]:
        if resp.status_code == 404 and req.missing_ok:
            return {}
        if resp.status_code >= 400:
            raise SessionError(f"{req.method} {req.path}: HTTP {resp.status_code}: {_error_text(resp)}")
        return resp.json()

    def close(self) -> None:
        """Close the synchronous client (the async one closes with :meth:`aclose`, on its loop)."""
        if self._sync is not None:
            self._sync.close()
            self._sync = None

    async def aclose(self) -> None:
        if self._async is not None:
            await self._async.aclose()
            self._async = None


def _error_text(resp: httpx.Response) -> str:
    """The server's own explanation (``{"error": ...}``), else the start of the body."""
    try:
        return str(resp.json()["error"])
    except (ValueError, KeyError, TypeError):
        return resp.text[:300]
