"""The necessity control: every gold call must be needed, or the reward pays for waste.

The coverage term rewards an agent for each gold call it makes, so a gold call an efficient agent
would skip teaches the opposite of what the reward is for. A call is needed when dropping it would

* break a later call's dataflow (a later call uses a value only this call found),
* lose a fact the turn's answer states (a lookup the user asked for, reported in the answer;
  an empty result the answer reports as "there are none" counts), or
* change what the rest does: a later call fails or returns something else, or the final state
  differs (a write that an identical later write overwrites, or a no-op reassignment, is not).

Writes are checked by replaying the task without the call on the rolled-back sandbox fork; the
calls before it are shared by all the checks (nested savepoints).
"""

from __future__ import annotations

import re
from typing import Any

from contract.task import Task, result_facts, states_number, written_numbers
from querygen.plan.probe import Sandbox, StateProbe
from servers.runtime import Environment


def states_fact(result: Any, given: list[dict[str, Any]], answer: str | None) -> bool:
    """The answer reports this result: one of its facts, or that it found nothing."""
    if not answer:
        return False
    facts = result_facts([result], given)
    if not facts or (_empty(result) and re.search(r"\bno\b|\bnothing\b", answer, re.I)):
        return True  # nothing beyond what the user said, or "there are none"
    text = answer.casefold().replace("_", " ")
    numbers = written_numbers(answer)
    for fact in facts:
        if isinstance(fact, float):
            if states_number(fact, numbers):
                return True
        elif fact.casefold().replace("_", " ") in text:
            return True
    return False


def _empty(result: Any) -> bool:
    """A lookup that found nothing: an empty list, or a page of rows with none on it."""
    if isinstance(result, list):
        return not result
    if isinstance(result, dict):
        lists = [v for v in result.values() if isinstance(v, list)]
        return bool(lists) and not any(lists)
    return result is None


class Necessity:
    """Finds gold calls a task could drop; ``unneeded`` lists their indices."""

    def __init__(self, env: Environment, probe: StateProbe, sandbox: Sandbox) -> None:
        self.env = env
        self.probe = probe
        self.sandbox = sandbox

    def candidates(self, task: Task) -> list[int]:
        """The writes whose necessity a replay must test: those no later call's dataflow needs."""
        feeds = {int(d["from"]) for d in task.metadata.get("dataflow", [])}
        return [
            i for i, c in enumerate(task.gold_calls()) if i not in feeds and self.env.tools[c.name].writes
        ]

    def unneeded(self, task: Task, needed: set[int] | None = None) -> list[int]:
        """Indices of gold calls the task could drop. ``needed``: the :meth:`candidates` a walk of
        the gold already found needed (the replay gate's walk tests them on its way)."""
        calls = task.gold_calls()
        feeds = {int(d["from"]) for d in task.metadata.get("dataflow", [])}
        roles = task.metadata.get("roles") or ["ask"] * len(calls)
        answers = [t.answer for t in task.turns for _ in t.calls]
        given = [c.arguments for c in calls]
        if needed is None:
            needed = self._needed_writes(task, self.candidates(task))
        out = []
        for i, call in enumerate(calls):
            if i in feeds:
                continue
            if self.env.tools[call.name].writes:
                if i not in needed:
                    out.append(i)
            elif roles[i] == "check":
                continue  # a read a policy rule asks for before its write (or its refusal)
            elif roles[i] != "ask" or not states_fact(call.result, given, answers[i]):
                out.append(i)
        return out

    def _needed_writes(self, task: Task, writes: list[int]) -> set[int]:
        """The writes among ``writes`` without which the rest of the task goes differently.

        One pass over the gold calls on the rolled-back fork: before each candidate write, a nested
        savepoint runs the calls after it, then is rolled back, so the shared prefix runs once."""
        if not writes:
            return set()
        calls = task.gold_calls()
        touched = sorted({self.env.tools[c.name].domain for c in calls})
        needed: set[int] = set()
        with self.sandbox.trial(touched) as ep:
            for j, call in enumerate(calls):
                if j in writes:
                    with self.sandbox.trial(touched):
                        if self.rest_differs(ep, task, j):
                            needed.add(j)
                if not self.env.call(ep, call.name, call.arguments).ok:
                    return needed | {i for i in writes if i > j}  # the gold itself broke here
        return needed

    def rest_differs(self, ep: Any, task: Task, drop: int) -> bool:
        """Do the calls after ``drop``, run without it, fail, return otherwise or end elsewhere?"""
        calls = task.gold_calls()
        for call in calls[drop + 1 :]:
            res = self.env.call(ep, call.name, call.arguments)
            if not res.ok or res.value != call.result:
                return True
        return self.probe.state_hash(ep, task.domains) != task.expected_state_hash
