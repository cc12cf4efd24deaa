"""Build a scoreable Task from known-good calls on an Environment (tests, benchmarks, outside data).

The query generator makes tasks at scale; this is the small door for someone who already has the
calls: they are run on a fresh fork so the task records exactly what they returned, the diff they
left and the resulting state hash, which is what the outcome term compares against.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from contract.task import GoldCall, SnapshotRef, Task, TaskKind, Turn
from rewards.errors import TaskError
from servers.runtime import Environment


def task_from_calls(
    env: Environment,
    turns: Sequence[tuple[str, Sequence[tuple[str, dict[str, Any]]]]],
    *,
    task_id: str,
    dependencies: Sequence[tuple[int, int]] = (),
    kind: TaskKind = "tool",
    offer_all_tools: bool = True,
) -> Task:
    """``turns`` is ``[(user message, [(tool name, arguments), ...]), ...]``; every call must succeed."""
    episode = env.open()
    built: list[Turn] = []
    for user, calls in turns:
        gold = []
        for name, args in calls:
            r = env.call(episode, name, args)
            if not r.ok:
                raise TaskError(f"gold call {name}({args}) failed: {r.error}")
            gold.append(GoldCall(name=name, arguments=dict(args), result=r.value))
        built.append(Turn(user=user, calls=gold))
    snaps = env.snapshots()
    task = Task(
        id=task_id,
        domains=[d.name for d in env.domains],
        snapshots=[SnapshotRef(**snaps[d.name].identity()) for d in env.domains],  # type: ignore[arg-type]
        kind=kind,
        turns=built,
        dependencies=list(dependencies),
        tools=env.openai_tools() if offer_all_tools else [],
        expected_state_hash=episode.state_hash(),
        expected_diff=episode.diff(),
    )
    episode.close()
    return task
