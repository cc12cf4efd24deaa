"""A task-bound episode: one task's own world, its offered tools and its user turns, in process.

Opening an episode from a task gives exactly what the task was generated against: the
snapshots it names (domain, seed, scale, variant), rebuilt and checked byte for byte against the
task's sha256 (a different world is refused, never silently used), and only the tools the task
offers (distractors included, hidden tools refused as unknown). Every tool result is a JSON
text whose failures are always an object with an ``error`` key, so no reader has to guess from
how an error happened to be stringified. The next user turn arrives when the model answers, and
the final state is compared with the task's expected state over the task's own domains.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from contract.load import load_task
from contract.messages import dumps, prompt
from contract.task import Task
from rewards.config import RewardConfig
from rewards.replay import EnvPool, default_pool
from rewards.score import RewardResult, score
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


@dataclass
class TaskEpisode:
    """One rollout of one task: ``call`` tools, ``answer`` to get the next user turn, then ``score``.

    ``pool`` holds the rebuilt, verified environments; episodes of one pool share snapshots and
    each has private forks, so many can run side by side in threads.
    """

    task: Task
    pool: EnvPool = field(default_factory=default_pool)
    turn: int = 0
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
        self.history: list[dict[str, Any]] = []

    def _apply_setup(self) -> list[dict[str, Any]]:
        """A turn-level task starts where its earlier turns left the world; the diff it is judged
        on starts there too."""
        for call in self.task.setup:
            try:
                self.env.invoke(self._episode, call.name, call.arguments)
            except ToolError as exc:
                raise ValueError(f"task {self.task.id}: setup call {call.name} failed: {exc}") from None
        return self._episode.diff() if self.task.setup else []

    # -- what the model sees ----------------------------------------------------------------------

    @property
    def system(self) -> str:
        return self.task.system_prompt

    @property
    def done(self) -> bool:
        return self.turn >= len(self.task.turns)

    def user_message(self) -> str | None:
        """The current turn's user text (None once every turn has been answered)."""
        return None if self.done else self.task.turns[self.turn].user

    def prompt(self) -> list[dict[str, Any]]:
        """What a rollout starts from: the system message, any earlier turns a turn-level task
        carries, and the first user turn."""
        return prompt(self.task)

    # -- acting -----------------------------------------------------------------------------------

    def call(self, name: str, arguments: Any) -> ToolOutcome:
        """Run one call in this episode's fork; a tool the task does not offer is an unknown tool."""
        refusal = unknown_tool(name, self.offered)
        if refusal is not None:
            return self._failed(refusal)
        if not isinstance(arguments, dict):
            return self._failed("arguments must be a JSON object")
        self.calls += 1
        try:
            value = self.env.invoke(self._episode, name, arguments)
        except ToolError as exc:
            return self._failed(str(exc))
        return ToolOutcome(True, dumps(value), value=value)

    def _failed(self, message: str) -> ToolOutcome:
        return ToolOutcome(False, error_content(message), error=message)

    def answer(self, text: str | None = None) -> str | None:
        """The model answered the current turn: return the next user message, or None when done."""
        if not self.done:
            self.turn += 1
        return self.user_message()

    # -- judging ----------------------------------------------------------------------------------

    def state_hash(self) -> str:
        """The hash over the task's own domains, comparable with ``task.expected_state_hash``."""
        return self._episode.state_hash(self.task.domains)

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

    def score(
        self, trajectory: Any = None, preset: RewardConfig | str | dict[str, Any] | None = None
    ) -> RewardResult:
        """The reward of a trajectory of this task, by default the one ``step`` recorded (the
        replay runs on the pool's own forks)."""
        if trajectory is None:
            first = [{"role": "system", "content": self.system}]
            first.append({"role": "user", "content": self.task.turns[0].user})
            trajectory = first + self.history
        return score(self.task, trajectory, preset, pool=self.pool)

    def reset(self) -> None:
        """Back to the task's snapshots (and its setup) and its first turn."""
        self.env.reset(self._episode)
        self._base = self._apply_setup()
        self.turn = self.calls = 0
        self.history = []

    # -- the Gym-style loop -----------------------------------------------------------------------

    def step(self, message: dict[str, Any]) -> list[dict[str, Any]]:
        """Take the model's assistant message; return what it sees next.

        With ``tool_calls`` (arguments a JSON string or an object), each call runs and the next
        messages are its ``tool`` results; without, the turn is answered and the next message is
        the next user turn, or nothing once ``done``. The conversation is kept in ``history``
        (``score()`` without a trajectory scores it)."""
        self.history.append(message)
        calls = message.get("tool_calls") or []
        if calls:
            out = [self._run(c) for c in calls]
        else:
            following = self.answer(message.get("content"))
            out = [] if following is None else [{"role": "user", "content": following}]
        self.history.extend(out)
        return out

    def _run(self, tool_call: dict[str, Any]) -> dict[str, Any]:
        fn = tool_call.get("function") or {}
        name, args = fn.get("name"), _arguments(fn.get("arguments"))
        if not isinstance(name, str) or args is None:
            outcome = self._failed("the tool call needs a name and arguments that are one JSON object")
        else:
            outcome = self.call(name, args)
        return {"role": "tool", "tool_call_id": tool_call.get("id"), "content": outcome.content}

    def close(self) -> None:
        self._episode.close()

    def __enter__(self) -> TaskEpisode:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _arguments(raw: Any) -> dict[str, Any] | None:
    """Arguments as a model writes them: an object, a JSON string of one, or nothing."""
    if isinstance(raw, dict):
        return raw
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return {}
    try:
        value = json.loads(raw) if isinstance(raw, str) else None
    except ValueError:
        return None
    return value if isinstance(value, dict) else None
