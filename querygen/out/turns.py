"""Turn-level examples: each user turn of a multi-turn task becomes its own task.

Single-turn trainers (TRL's GRPO, verl without an interaction) show the model only a task's first
user message, so a two-turn task teaches its first turn alone, and the best first answer to a
clarify task (the question) scores nothing against the whole task's gold. A turn-level example
holds the earlier turns in its prompt (``Task.history``: their user messages, gold calls,
results and answers), starts its episode from the state those calls left (``setup``), and is
judged on its own turn only: its gold calls, the changes they make on top of that state, and the
state hash they end in. On a clarify turn the gold makes no call, so asking earns the maximum.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from contract.messages import messages
from contract.task import GoldCall, Task
from servers.kit import ToolError
from servers.registry import get_domain
from servers.runtime import Environment
from state import SnapshotCache
from state.changelog import relative_diff


class TurnSplitter:
    """Splits tasks, replaying each one's gold calls on its own world to fix the expected state."""

    def __init__(self, cache: SnapshotCache | None = None) -> None:
        self.cache = cache
        self._envs: dict[tuple[Any, ...], Environment] = {}

    def env(self, task: Task) -> Environment:
        snaps = task.snapshots
        key = (
            tuple(sorted(s.domain for s in snaps)),
            snaps[0].seed,
            snaps[0].scale,
            tuple(sorted(task.variants().items())),
        )
        env = self._envs.get(key)
        if env is None:
            env = self._envs[key] = Environment(
                [get_domain(d) for d in key[0]],
                seed=key[1],
                scale=key[2],
                cache=self.cache,
                variants=dict(key[3]),
            )
        return env

    def split(self, task: Task) -> list[Task]:
        """One task per user turn (a single-turn task is returned as it is)."""
        if len(task.turns) < 2 or not task.snapshots:
            return [task]
        env = self.env(task)
        episode = env.open()
        try:
            return list(self._examples(task, env, episode))
        finally:
            episode.close()

    def _examples(self, task: Task, env: Environment, episode: Any) -> Iterator[Task]:
        conversation = messages(task)
        users = [i for i, m in enumerate(conversation) if m["role"] == "user"]
        first = 0  # the turn's first call in the flattened gold list
        setup: list[GoldCall] = []
        for k, turn in enumerate(task.turns):
            before = episode.diff()
            for call in turn.calls:
                _apply(env, episode, call, task.id)
            n = len(turn.calls)
            yield task.model_copy(
                update={
                    "id": f"{task.id}-t{k}",
                    "kind": _kind(task, k, turn.calls),
                    "turns": [turn],
                    "dependencies": [
                        (i - first, j - first) for i, j in task.dependencies if first <= i and j < first + n
                    ],
                    "expected_state_hash": episode.state_hash(task.domains),
                    "expected_diff": [
                        c for c in relative_diff(before, episode.diff()) if c["domain"] in task.domains
                    ],
                    "metadata": {
                        **task.metadata,
                        "task_id": task.id,
                        "turn": k,
                        "turns_in_task": len(task.turns),
                    },
                    "setup": list(setup),
                    "history": conversation[1 : users[k]],
                },
                deep=True,
            )
            setup.extend(turn.calls)
            first += n


def _apply(env: Environment, episode: Any, call: GoldCall, task_id: str) -> None:
    try:
        env.invoke(episode, call.name, call.arguments)
    except ToolError as exc:
        raise ValueError(f"task {task_id}: gold call {call.name} no longer replays: {exc}") from None


def _kind(task: Task, k: int, calls: list[GoldCall]) -> str:
    """A turn with gold calls is a tool turn; one without is the task's own kind on its first turn
    (a clarify task's question, an abstention) and a clarification later."""
    if calls:
        return "tool"
    return task.kind if k == 0 else "clarify"


def turn_examples(tasks: Iterable[Task], cache: SnapshotCache | None = None) -> Iterator[Task]:
    """Every task's turn-level examples, in task order."""
    splitter = TurnSplitter(cache)
    for task in tasks:
        yield from splitter.split(task)
