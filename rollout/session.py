"""Where a rollout's tool calls run: one ``ToolSession`` protocol, and the factory that opens them.

A session is one task's world for one rollout: only the task's offered tools, a JSON result per
call with ``{"error": ...}`` for every failure, its state hash over the task's own domains. Two
implementations give the same results: :class:`rollout.episode.TaskEpisode`, private forks in this
process (microseconds per call), and :class:`rollout.mcp_session.McpSession`, an env session on a
running ``toolground serve`` bound to the task. Each has a synchronous face (TRL and SkyRL call tools
synchronously) and an async one (the eval loop and verl run on event loops).

Adapters never build sessions themselves: they take :class:`Sessions`, a factory from a task to
its session (``sessions(task)``, or ``await sessions.aopen(task)`` on an event loop). A task the
factory cannot run (no snapshot, other bytes, a world the server does not serve, a server out of
reach) raises :class:`SessionError` before the model is asked anything.
"""

from __future__ import annotations

from typing import Any, Protocol

from contract.task import Task
from rewards.replay import EnvPool, default_pool
from rollout.episode import TaskEpisode, ToolOutcome


class SessionError(Exception):
    """The session cannot run its task here (a world that is not served, an unreachable server)."""


class ToolSession(Protocol):
    """One rollout of one task: its tools, called synchronously or awaited, and its state."""

    task: Task
    calls: int  # calls that reached a tool (refused ones, unknown tool or bad arguments, excluded)

    def call(self, name: str, arguments: Any) -> ToolOutcome: ...
    async def acall(self, name: str, arguments: Any) -> ToolOutcome: ...
    def state_hash(self) -> str | None: ...  # comparable with task.expected_state_hash
    async def astate_hash(self) -> str | None: ...
    def state_matches(self) -> bool | None: ...  # None when the task records no expected state
    def reset(self) -> None: ...  # back to the task's world (its setup applied), for the next rollout
    def close(self) -> None: ...
    async def aclose(self) -> None: ...


class Sessions(Protocol):
    """Opens one session per task; ``close`` frees what the factory holds when the run ends."""

    def __call__(self, task: Task) -> ToolSession: ...
    async def aopen(self, task: Task) -> ToolSession: ...
    def close(self) -> None: ...


class InProcess:
    """Sessions on private forks in this process, every one from one pool (snapshots built once)."""

    def __init__(self, pool: EnvPool | None = None) -> None:
        self.pool = pool if pool is not None else default_pool()

    def __call__(self, task: Task) -> TaskEpisode:
        try:
            return TaskEpisode(task, pool=self.pool)
        except ValueError as exc:  # the reward's TaskError and SnapshotMismatch are ValueErrors too
            raise SessionError(str(exc)) from None

    async def aopen(self, task: Task) -> TaskEpisode:
        """The same, on an event loop: forking takes microseconds, so there is no thread hop (only
        a pool's first build of a snapshot holds the loop, as any in-process work would)."""
        return self(task)

    def close(self) -> None:
        return None
