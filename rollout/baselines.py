"""Baselines computed without a model: what a figure is worth is read against them.

* ``gold`` plays the reference calls and answers (the ceiling the reward and success can reach);
* ``noop`` never calls a tool and says it cannot help (what doing nothing earns);
* ``random`` calls one to three offered tools per turn, chosen at random (seeded per task and
  turn), with plausible arguments: an enum's value, a value of the right type seen in the
  conversation so far (an id or email the user wrote, a value a tool returned), else a small
  number or a word; it then answers with the last result it got.

They run through the same loop, sessions and reward as a served model (``toolground eval
--baselines``), on the same tasks, in the openai wire format.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterable, Sequence
from typing import Any

from contract.task import Task
from rollout.model import Completion
from rollout.scripted import ScriptedPolicy

BASELINES = ("gold", "noop", "random")
_IDS = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\b[A-Z]{2,}-\d+\b|\"([^\"]{2,80})\"")
NOT_HELPED = "I'm sorry, I can't help with that."


def _leaves(value: Any, out: list[Any]) -> None:
    if isinstance(value, dict):
        for v in value.values():
            _leaves(v, out)
    elif isinstance(value, list):
        for v in value[:20]:
            _leaves(v, out)
    elif isinstance(value, bool) or value is None:
        return
    elif isinstance(value, int | float) or (isinstance(value, str) and 0 < len(value) <= 80):
        out.append(value)


def seen_values(messages: Sequence[dict[str, Any]]) -> list[Any]:
    """Values the conversation has shown: ids, emails and quoted names in user messages, and the
    scalars of tool results."""
    out: list[Any] = []
    for m in messages:
        content = m.get("content")
        if not isinstance(content, str):
            continue
        if m.get("role") == "user":
            out.extend(g.group(1) or g.group(0) for g in _IDS.finditer(content))
        elif m.get("role") == "tool":
            try:
                _leaves(json.loads(content), out)
            except ValueError:
                continue
    return out


def plausible(schema: dict[str, Any], seen: Sequence[Any], rng: random.Random) -> Any:
    """A value a guessing agent might pass for a parameter of this JSON schema."""
    if schema.get("enum"):
        return rng.choice(schema["enum"])
    kind = schema.get("type")
    if kind == "boolean":
        return rng.random() < 0.5
    if kind in ("integer", "number"):
        numbers = [v for v in seen if isinstance(v, int | float)]
        value = rng.choice(numbers) if numbers else rng.randint(1, 10)
        return int(value) if kind == "integer" else float(value)
    if kind == "array":
        return [plausible(schema.get("items") or {"type": "string"}, seen, rng)]
    if kind == "object":
        return {}
    words = [v for v in seen if isinstance(v, str)]
    return rng.choice(words) if words else rng.choice(("all", "latest", "1"))


def random_call(tools: Sequence[dict[str, Any]], seen: Sequence[Any], rng: random.Random) -> dict[str, Any]:
    """One call of an offered tool, its required parameters filled (and some optional ones)."""
    fn = rng.choice(list(tools))["function"]
    params = fn.get("parameters") or {}
    required = set(params.get("required") or ())
    args = {
        name: plausible(schema if isinstance(schema, dict) else {}, seen, rng)
        for name, schema in (params.get("properties") or {}).items()
        if name in required or rng.random() < 0.3
    }
    return {"name": fn["name"], "arguments": args}


class RandomPolicy(ScriptedPolicy):
    """The random-call baseline; the same seed gives the same calls on the same conversation."""

    def __init__(self, tasks: Iterable[Task], seed: int = 0) -> None:
        super().__init__(tasks, "gold", "openai")
        self.model = "baseline:random"
        self.seed = seed

    def reply(self, messages: list[dict[str, Any]]) -> dict[str, Any]:
        task = self.task_of(messages)
        users = [i for i, m in enumerate(messages) if m.get("role") == "user"]
        if task is None or not users or not task.tools:
            return {"role": "assistant", "content": NOT_HELPED}
        turn = messages[users[-1] :]
        n = random.Random(f"{self.seed}:{task.id}:{len(users)}").randint(1, 3)
        made = sum(1 for m in turn if m.get("role") == "assistant")
        if made >= n:
            last = turn[-1].get("content") if turn[-1].get("role") == "tool" else None
            return {"role": "assistant", "content": f"Here is what I found: {last}" if last else "Done."}
        rng = random.Random(f"{self.seed}:{task.id}:{len(users)}:{made}")
        call = random_call(task.tools, seen_values(messages), rng)
        return {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": f"call_r{len(users)}_{made + 1}",
                    "type": "function",
                    "function": {"name": call["name"], "arguments": json.dumps(call["arguments"])},
                }
            ],
        }

    async def complete(self, body: dict[str, Any]) -> Completion:
        return Completion(self.reply(body["messages"]), {"prompt_tokens": 0, "completion_tokens": 0})


def baseline_policy(name: str, tasks: Sequence[Task], seed: int = 0) -> ScriptedPolicy:
    """The policy of a baseline by name (``gold``, ``noop`` or ``random``)."""
    if name == "gold":
        policy = ScriptedPolicy(tasks, "gold")
    elif name == "noop":
        policy = ScriptedPolicy(tasks, "no_tools")
    elif name == "random":
        return RandomPolicy(tasks, seed)
    else:
        raise ValueError(f"unknown baseline {name!r}; baselines: {', '.join(BASELINES)}")
    policy.model = f"baseline:{name}"
    return policy
