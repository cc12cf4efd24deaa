"""The Task contract: what the generator writes and the reward reads.

One task is one training example: the world it happens in (snapshot
identities), what the user says turn by turn, the gold calls that answer each
turn with the results they returned, which gold call must precede which, the
tools offered to the agent, and the state the gold calls leave behind.
Everything is plain JSON so a dataset row can carry it.
"""

from __future__ import annotations

import math
import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

TaskKind = Literal["tool", "clarify", "abstain"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class GoldCall(_Strict):
    """One expected tool call, with what it returned when the generator ran it."""

    name: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    result: Any = None
    ok: bool = True


class Turn(_Strict):
    """A user message and the calls that answer it (none for clarify/abstain turns)."""

    user: str
    calls: list[GoldCall] = Field(default_factory=list)
    answer: str | None = None


class SnapshotRef(_Strict):
    """Which world: the same four values always rebuild the same bytes."""

    domain: str
    seed: int
    scale: str
    sha256: str
    variant: str | None = None  # a named initial state of the domain (logged out, market closed)


class Task(_Strict):
    id: str
    domains: list[str]
    snapshots: list[SnapshotRef] = Field(default_factory=list)
    kind: TaskKind = "tool"
    turns: list[Turn]
    dependencies: list[tuple[int, int]] = Field(
        default_factory=list,
        description="(i, j): gold call i (flattened over turns) must precede gold call j",
    )
    tools: list[dict[str, Any]] = Field(default_factory=list, description="OpenAI function schemas offered")
    expected_state_hash: str | None = None
    expected_diff: list[dict[str, Any]] = Field(
        default_factory=list, description="cell changes the task's own calls make, on top of ``setup``"
    )
    metadata: dict[str, Any] = Field(default_factory=dict)
    setup: list[GoldCall] = Field(
        default_factory=list,
        description="calls applied to the world before the episode starts and never scored: the earlier "
        "turns of a turn-level example, so its episode begins in the state they left",
    )

    def variants(self) -> dict[str, str]:
        """Domains that start in a named initial state, with that state's name."""
        return {s.domain: s.variant for s in self.snapshots if s.variant is not None}

    def gold_calls(self) -> list[GoldCall]:
        """All gold calls in order, flattened over turns (dependency indices refer to this list)."""
        return [c for t in self.turns for c in t.calls]

    @property
    def writes(self) -> bool:
        return bool(self.expected_diff)


# -- what a correct answer to a read-only request states ------------------------------------------

MAX_FACTS = 50


def _leaves(value: Any, out: list[Any]) -> None:
    if len(out) >= MAX_FACTS:
        return
    if isinstance(value, dict):
        for v in value.values():
            _leaves(v, out)
    elif isinstance(value, list):
        for v in value:
            _leaves(v, out)
    elif value is None or isinstance(value, bool):
        return
    elif isinstance(value, int | float):
        out.append(float(value))
    elif isinstance(value, str) and 3 <= len(value.strip()) <= 80:
        out.append(value.strip())


def result_facts(results: list[Any], arguments: list[dict[str, Any]]) -> list[Any]:
    """Scalar facts in the gold results that the request did not already state, in result order.

    The generator writes reference answers from these and the reward's outcome term checks an
    agent's answer for them, so both sides of the contract share this one definition. Numbers are
    floats; strings keep their case (compare them case-insensitively).
    """
    given: list[Any] = []
    for args in arguments:
        _leaves(args, given)
    given_keys = {g.casefold() if isinstance(g, str) else g for g in given}
    leaves: list[Any] = []
    for r in results:
        _leaves(r, leaves)
    out: list[Any] = []
    seen: set[Any] = set()
    for fact in leaves:
        key = fact.casefold() if isinstance(fact, str) else fact
        if key not in given_keys and key not in seen:
            seen.add(key)
            out.append(fact)
    return out


_NUMBER = re.compile(r"-?\d[\d,]*(?:\.\d+)?")


def written_numbers(text: str) -> list[tuple[float, int]]:
    """Every number a text writes, with how many decimals it was written with."""
    out = []
    for m in _NUMBER.findall(text):
        plain = m.replace(",", "")
        try:
            out.append((float(plain), len(plain.split(".", 1)[1]) if "." in plain else 0))
        except ValueError:
            continue
    return out


def states_number(fact: float, written: list[tuple[float, int]]) -> bool:
    """The text states this number: exactly, or rounded to the decimals it was written with
    (a mean of 34.316... reported as 34.32, as a person reports it)."""
    for value, decimals in written:
        if math.isclose(fact, value, rel_tol=1e-9, abs_tol=1e-6):
            return True
        if decimals and math.isclose(round(fact, decimals), value, abs_tol=10 ** -(decimals + 3)):
            return True
    return False
