"""Where a TRL rollout's tool calls run: the session protocol, and the in-process runtime.

TRL calls environment tools synchronously from its generation loop, one rollout after another,
so every runtime offers the same small synchronous session: ``call``, ``state_hash``,
``state_matches``, ``reset`` and ``close``. :class:`rollout.episode.TaskEpisode` already is one
(its own forks of the task's snapshots); :mod:`rollout.trl_mcp` has the server one (imported
only for an MCP backend: it needs httpx).
"""

from __future__ import annotations

from typing import Any, Protocol

from contract.task import Task
from rewards.replay import EnvPool
from rollout.episode import TaskEpisode, ToolOutcome


class Session(Protocol):
    """One rollout's world: what a TRL environment instance needs from a backend."""

    task: Task

    def call(self, name: str, arguments: Any) -> ToolOutcome: ...
    def state_hash(self) -> str | None: ...
    def state_matches(self) -> bool | None: ...
    def reset(self) -> None: ...
    def close(self) -> None: ...


class Runtime(Protocol):
    """Opens sessions; ``pool`` is where the reward replays calls (the task's snapshots, locally)."""

    pool: EnvPool

    def open(self, task: Task) -> Session: ...
    def close(self) -> None: ...


class InProcess:
    """Private forks in this process, every episode from one pool (snapshots built once)."""

    def __init__(self, pool: EnvPool | None = None) -> None:
        self.pool = pool or EnvPool()

    def open(self, task: Task) -> TaskEpisode:
        return TaskEpisode(task, pool=self.pool)

    def close(self) -> None:
        return None
