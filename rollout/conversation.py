"""A task's conversation over a tool session: the model's messages in, what it sees next out.

The Gym-style face of an episode, for trainers that hand over one assistant message at a time
(SkyRL): tool calls run on the session, an answer without calls moves to the next user turn, and
the whole conversation is scored at the end. It holds only the turn and the history, so it runs
the same over a session in this process and over one on a server.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from contract.task import Task
from rewards.config import RewardConfig
from rewards.replay import EnvPool
from rewards.score import RewardResult, score
from rollout.episode import ToolOutcome, error_content
from rollout.session import ToolSession


@dataclass
class Conversation:
    """``step`` the model's assistant messages through the task's turns, then ``score``.

    ``pool`` is where the reward replays the calls (the task's snapshots, locally); None is the
    process-wide one."""

    session: ToolSession
    pool: EnvPool | None = None
    turn: int = 0
    history: list[dict[str, Any]] = field(default_factory=list)

    @property
    def task(self) -> Task:
        return self.session.task

    @property
    def system(self) -> str:
        return self.task.system_prompt

    @property
    def done(self) -> bool:
        return self.turn >= len(self.task.turns)

    def user_message(self) -> str | None:
        """The current turn's user text (None once every turn has been answered)."""
        return None if self.done else self.task.turns[self.turn].user

    def answer(self, text: str | None = None) -> str | None:
        """The model answered the current turn: return the next user message, or None when done."""
        if not self.done:
            self.turn += 1
        return self.user_message()

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

    def fork(self) -> Conversation:
        """The same conversation on a fork of its session (same turn, same history so far); the
        two continue independently. The session must fork (:meth:`rollout.episode.TaskEpisode.fork`,
        :meth:`rollout.mcp_session.McpSession.fork`)."""
        fork = getattr(self.session, "fork", None)
        if fork is None:
            raise TypeError(f"{type(self.session).__name__} sessions cannot fork")
        return Conversation(fork(), self.pool, self.turn, [dict(m) for m in self.history])

    def _run(self, tool_call: dict[str, Any]) -> dict[str, Any]:
        fn = tool_call.get("function") or {}
        name, args = fn.get("name"), _arguments(fn.get("arguments"))
        if not isinstance(name, str) or args is None:
            message = "the tool call needs a name and arguments that are one JSON object"
            outcome = ToolOutcome(False, error_content(message), error=message)
        else:
            outcome = self.session.call(name, args)
        return {"role": "tool", "tool_call_id": tool_call.get("id"), "content": outcome.content}

    def score(
        self, trajectory: Any = None, preset: RewardConfig | str | dict[str, Any] | None = None
    ) -> RewardResult:
        """The reward of a trajectory of this task, by default the one ``step`` recorded."""
        if trajectory is None:
            first = [{"role": "system", "content": self.system}]
            first.append({"role": "user", "content": self.task.turns[0].user})
            trajectory = first + self.history
        return score(self.task, trajectory, preset, pool=self.pool)


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
