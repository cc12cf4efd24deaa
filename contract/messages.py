"""How a model sees a task: the reference conversation, the prompt a rollout starts from, and the
byte-level helpers every writer of task files shares (compact JSON, atomic writes).

The generator's export, the rollouts, the eval loop and the reports all render a task through
these functions, so a conversation looks the same wherever it is shown. Nothing here reads the
clock or a random source: the same task always gives the same messages and the same bytes.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from contract.task import Task, result_facts


def dumps(value: Any) -> str:
    """Compact JSON, non-ASCII kept: the one encoding of every task file and tool result."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _file_mode() -> int:
    """Ordinary permissions (0666 less the umask), not mkstemp's private 0600."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def atomic_write(path: Path, data: bytes | Iterable[bytes]) -> Path:
    """Write (bytes, or chunks streamed as they come) via a temporary file in the same directory,
    then ``os.replace`` it into place, so an interrupted run never leaves half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            if isinstance(data, bytes):
                fh.write(data)
            else:
                for chunk in data:
                    fh.write(chunk)
        os.chmod(tmp, _file_mode())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


# -- conversations ---------------------------------------------------------------------------------
def messages(task: Task, *, object_arguments: bool = False) -> list[dict[str, Any]]:
    """The full reference conversation in OpenAI chat format.

    Tool-call arguments are JSON strings as the OpenAI API writes them; ``object_arguments``
    gives objects instead, the shape Hugging Face chat templates expect (a template encodes a
    string a second time, so SFT on it would teach the model to write a string)."""
    out: list[dict[str, Any]] = [{"role": "system", "content": task.system_prompt}, *task.history]
    first = 0  # index of this turn's first call in the flattened gold list
    for t, turn in enumerate(task.turns):
        out.append({"role": "user", "content": turn.user})
        for step in _steps(task, first, len(turn.calls)):
            ids = [f"call_{t}_{i - first}" for i in step]
            calls = [turn.calls[i - first] for i in step]
            out.append(
                {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {
                            "id": cid,
                            "type": "function",
                            "function": {
                                "name": c.name,
                                "arguments": dict(c.arguments) if object_arguments else dumps(c.arguments),
                            },
                        }
                        for cid, c in zip(ids, calls, strict=True)
                    ],
                }
            )
            out.extend(
                {"role": "tool", "tool_call_id": cid, "content": dumps(c.result)}
                for cid, c in zip(ids, calls, strict=True)
            )
        first += len(turn.calls)
        out.append({"role": "assistant", "content": turn.answer or _summary(task, turn.calls)})
    return out


def _steps(task: Task, first: int, count: int) -> list[list[int]]:
    """Group a turn's calls into assistant steps: a call waits for the step after its prerequisites.

    Independent calls go out together as parallel calls; a call that needs an earlier call's
    output starts a new step, as a real model must (it cannot use a result it has not seen)."""
    needs: dict[int, set[int]] = {}
    for i, j in task.dependencies:
        needs.setdefault(j, set()).add(i)
    steps: list[list[int]] = []
    for i in range(first, first + count):
        if not steps or needs.get(i, set()) & set(steps[-1]):
            steps.append([i])
        else:
            steps[-1].append(i)
    return steps


def _plain(fact: Any) -> str:
    if isinstance(fact, float):
        return str(int(fact)) if fact.is_integer() else str(fact)
    return str(fact)


def _summary(task: Task, calls: Sequence[Any]) -> str:
    """A reference answer that states what the calls found, as a good assistant would.

    The last call's facts come first (the reward's outcome term checks the final answer for
    them); values the user already gave anywhere in the task are not news and are left out."""
    if not calls:
        return "Done."
    given = [c.arguments for c in task.gold_calls()]
    last = result_facts([calls[-1].result], given)[:6]
    rest = [f for f in result_facts([c.result for c in calls[:-1]], given) if f not in last][:2]
    shown = "; ".join(_plain(f) for f in last + rest)
    return f"Done. Here is what I found: {shown}." if shown else "Done."


def prompt(task: Task, *, object_arguments: bool = False) -> list[dict[str, Any]]:
    """What an RL rollout starts from: the system message, the earlier turns of a turn-level
    example, and the first user turn (``object_arguments`` as in :func:`messages`)."""
    earlier = task.history
    if object_arguments:
        earlier = [_with_object_arguments(m) for m in earlier]
    return [
        {"role": "system", "content": task.system_prompt},
        *earlier,
        {"role": "user", "content": task.turns[0].user},
    ]


def _with_object_arguments(message: dict[str, Any]) -> dict[str, Any]:
    calls = message.get("tool_calls")
    if not calls:
        return message
    decoded = [
        {**c, "function": {**c["function"], "arguments": json.loads(c["function"]["arguments"])}}
        if isinstance(c["function"].get("arguments"), str)
        else c
        for c in calls
    ]
    return {**message, "tool_calls": decoded}
