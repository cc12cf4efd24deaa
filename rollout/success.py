"""Did an episode succeed? The eval's headline figure, defined so that doing nothing never passes.

The final state equal to the expected one is not enough: the untouched world is the expected one
on every read-only, clarify and abstain task, so a policy that never calls a tool would pass them
all. A task succeeds only when every check that applies to it passes:

* ``state``: the final state hash over the task's own domains is the expected one (when the task
  records one);
* ``facts`` (each read-only turn: gold calls, none of which writes): the model made at least one
  call in that turn, and its answer to the turn carries the facts asked for. The facts are those
  the reward's outcome term checks (:mod:`rewards.outcome`): the scalar values the turn's last gold
  call returned that the request did not already state, narrowed to those the turn's reference
  answer states; ``answer_facts`` of them (the preset's, 3 by default), or all when fewer, must be
  found, numbers in any common writing, days in words, strings case-insensitively;
* ``asked`` (each clarify turn: a clarify task's turn without gold calls): the answer asks a
  question (it holds a "?");
* ``no_call`` (an abstain task): the model called no tool at all;
* ``finished``: the episode reached the model's answer to its last turn (not the step limit).

An errored row (the model or the world could not be reached) has no verdict (None), and neither
has a task without any check to apply (no expected state, no read-only, clarify or abstain turn).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from contract.task import Task, Turn
from rewards.outcome import asked_facts, facts_score, gold_facts
from servers.registry import UnknownDomain, get_domain

Message = dict[str, Any]


@lru_cache(maxsize=64)
def _read_only_names(domains: tuple[str, ...]) -> frozenset[str]:
    """Qualified names of the read-only tools of these domains (an unknown domain has none)."""
    names: set[str] = set()
    for d in domains:
        try:
            tools = get_domain(d).tools.values()
        except UnknownDomain:
            continue
        names.update(spec.qualified_name for spec in tools if spec.read_only)
    return frozenset(names)


def turn_segments(own: Sequence[Message]) -> list[list[Message]]:
    """The model's conversation split at each user message: one list per user turn reached, each
    starting with that turn's user message."""
    segments: list[list[Message]] = []
    for m in own:
        if m.get("role") == "user":
            segments.append([m])
        elif segments:
            segments[-1].append(m)
    return segments


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # content parts
        return " ".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return ""


def _answer(segment: Sequence[Message]) -> str:
    """The model's answer to a turn: its last assistant message's text."""
    said = [_text(m.get("content")) for m in segment if m.get("role") == "assistant"]
    return said[-1] if said else ""


def _calls(segment: Sequence[Message]) -> int:
    return sum(len(m.get("tool_calls") or []) for m in segment if m.get("role") == "assistant")


def _facts_check(task: Task, turn: Turn, segment: Sequence[Message], needed: int) -> dict[str, Any]:
    """A read-only turn: the model looked something up and its answer states what was asked."""
    args = [c.arguments for c in task.setup] + [c.arguments for c in task.gold_calls()]
    facts = asked_facts(gold_facts([turn.calls[-1].result], args), turn.answer)
    answer = _answer(segment)
    value, found = facts_score(facts, answer, needed)
    calls = _calls(segment)
    return {
        "check": "facts",
        "passed": calls > 0 and value >= 1.0,
        "calls": calls,
        "facts": len(facts),
        "found": found,
        "needed": min(needed, len(facts)),
    }


def _turn_checks(task: Task, segments: Sequence[Sequence[Message]], needed: int) -> list[dict[str, Any]]:
    reads = _read_only_names(tuple(task.domains))
    out: list[dict[str, Any]] = []
    for i, turn in enumerate(task.turns):
        segment = segments[i] if i < len(segments) else []
        if task.kind == "clarify" and not turn.calls:
            out.append({"turn": i, "check": "asked", "passed": "?" in _answer(segment)})
        elif turn.calls and all(c.name in reads for c in turn.calls):
            out.append({"turn": i, **_facts_check(task, turn, segment, needed)})
    return out


def judge(
    task: Task, own: Sequence[Message], status: str, state_match: bool | None, answer_facts: int = 3
) -> dict[str, Any]:
    """``{"success": bool | None, "checks": [...]}`` for an episode's own messages (after the task's
    history), its status and its state match; every check says whether it ``passed``."""
    if status not in ("ok", "step_limit"):
        return {"success": None, "checks": []}
    checks: list[dict[str, Any]] = []
    if state_match is not None:
        checks.append({"check": "state", "passed": bool(state_match)})
    if task.kind == "abstain":
        calls = _calls(own)
        checks.append({"check": "no_call", "passed": calls == 0, "calls": calls})
    checks.extend(_turn_checks(task, turn_segments(own), answer_facts))
    if not checks:
        return {"success": None, "checks": []}
    checks.append({"check": "finished", "passed": status == "ok"})
    return {"success": all(c["passed"] for c in checks), "checks": checks}
