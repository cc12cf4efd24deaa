"""A task-bound episode: one task's own world and its offered tools, in process.

Opening an episode from a task gives exactly what the task was generated against: the
snapshots it names (domain, seed, scale, variant), rebuilt and checked byte for byte against the
task's sha256 (a different world is refused, never silently used), and only the tools the task
offers (distractors included, hidden tools refused as unknown). Every tool result is a JSON
text whose failures are always an object with an ``error`` key, so no reader has to guess from
how an error happened to be stringified. The final state is compared with the task's expected
state over the task's own domains. The user turns and the score of a conversation are
:mod:`rollout.conversation`'s, over this episode or a server's (:mod:`rollout.session`).
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from typing import Any

from contract.load import load_task
from contract.messages import dumps
from contract.task import Task
from rewards.replay import EnvPool, default_pool
from rewards.tasks import prepare_task
from servers.kit import ToolError
from state.changelog import relative_diff


@dataclass(frozen=True, slots=True)
class ToolOutcome:
    """What one call returned, as the model sees it (``content``) and as data."""

    ok: bool
    content: str
    value: Any = None
    error: str | None = None


def error_content(message: str) -> str:
    """The one shape a failed call's result takes everywhere: ``{"error": "..."}``."""
    return json.dumps({"error": message}, ensure_ascii=False)


def unknown_tool(name: str, offered: frozenset[str]) -> str | None:
    """The refusal for a tool the task does not offer (None when it does), with near names."""
    if name in offered:
        return None
    close = sorted(n for n in offered if name and (name in n or n.endswith("_" + name)))[:5]
    hint = f" Did you mean: {', '.join(close)}?" if close else f" {len(offered)} tools are offered."
    return f"unknown tool {name!r}.{hint}"


def refusal(name: str, arguments: Any, offered: frozenset[str]) -> ToolOutcome | None:
    """The outcome of a call refused before it reaches a tool (None when it may run): a tool the
    task does not offer, or arguments that are not one JSON object. Every session refuses alike."""
    message = unknown_tool(name, offered)
    if message is None and not isinstance(arguments, dict):
        message = "arguments must be a JSON object"
    return None if message is None else ToolOutcome(False, error_content(message), error=message)


@dataclass
class TaskEpisode:
    """One task's world in this process: ``call`` its offered tools, read its state, ``reset``.

    The in-process :class:`rollout.session.ToolSession` (a :class:`rollout.conversation.Conversation`
    adds the user turns and the score). ``pool`` holds the rebuilt, verified environments;
    episodes of one pool share snapshots and each has private forks, so many can run side by side
    in threads.
    """

    task: Task
    pool: EnvPool = field(default_factory=default_pool)
    calls: int = 0

    def __post_init__(self) -> None:
        self.task = load_task(self.task)  # a Task, its dict or JSON text, or a dataset row
        if not self.task.snapshots:
            raise ValueError(f"task {self.task.id} names no snapshots, so it has no world to run in")
        prepared = prepare_task(self.task)
        self.env = self.pool.replayer(prepared.snapshots).env  # raises SnapshotMismatch on other bytes
        self.tools: list[dict[str, Any]] = list(self.task.tools)
        self.offered = frozenset(t["function"]["name"] for t in self.tools if "function" in t)
        self._episode = self.env.open()
        self._base = self._apply_setup()

    def _apply_setup(self) -> list[dict[str, Any]]:
        """A turn-level task starts where its earlier turns left the world; the diff it is judged
        on starts there too."""
        for call in self.task.setup:
            try:
                self.env.invoke(self._episode, call.name, call.arguments)
            except ToolError as exc:
                raise ValueError(f"task {self.task.id}: setup call {call.name} failed: {exc}") from None
        return self._episode.diff() if self.task.setup else []

    # -- acting -----------------------------------------------------------------------------------

    def call(self, name: str, arguments: Any) -> ToolOutcome:
        """Run one call in this episode's fork; a tool the task does not offer is an unknown tool."""
        refused = refusal(name, arguments, self.offered)
        if refused is not None:
            return refused
        self.calls += 1
        try:
            value = self.env.invoke(self._episode, name, arguments)
        except ToolError as exc:
            return ToolOutcome(False, error_content(str(exc)), error=str(exc))
        return ToolOutcome(True, dumps(value), value=value)

    async def acall(self, name: str, arguments: Any) -> ToolOutcome:
        return self.call(name, arguments)  # microseconds to a few ms: no thread hop needed

    # -- judging ----------------------------------------------------------------------------------

    def state_hash(self) -> str:
        """The hash over the task's own domains, comparable with ``task.expected_state_hash``."""
        return self._episode.state_hash(self.task.domains)

    async def astate_hash(self) -> str:
        return self.state_hash()

    def domain_hashes(self) -> dict[str, str]:
        return {d: h for d, h in self._episode.domain_hashes().items() if d in self.task.domains}

    def diff(self) -> list[dict[str, Any]]:
        """The task's own changes: against the snapshot, or the state its setup left."""
        now = self._episode.diff()
        changes = relative_diff(self._base, now) if self.task.setup else now
        return [c for c in changes if c["domain"] in self.task.domains]

    def state_matches(self) -> bool | None:
        """Final state equals the task's expected one (None when the task records no expectation)."""
        if self.task.expected_state_hash is None:
            return None
        return self.state_hash() == self.task.expected_state_hash

    def reset(self) -> None:
        """Back to the task's snapshots (and its setup)."""
        self.env.reset(self._episode)
        self._base = self._apply_setup()
        self.calls = 0

    def fork(self) -> TaskEpisode:
        """An independent episode of the same task as this one is now: every domain's state (the
        writes so far), the call count and the setup's diff it is judged from; the two diverge from
        here. A written domain costs a ``serialize()`` now and its memcpy on the branch's first use;
        the snapshots and the pool's environment are shared. For tree rollouts and per-turn
        counterfactuals: run a prefix once, fork K times, continue each branch its own way."""
        twin = copy.copy(self)  # every attribute shared (task, pool, env, offered) but these:
        twin.tools = list(self.tools)
        twin._episode = self._episode.clone()
        twin._base = list(self._base)
        return twin

    def close(self) -> None:
        self._episode.close()

    async def aclose(self) -> None:
        self.close()

    def __enter__(self) -> TaskEpisode:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
