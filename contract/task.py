"""The Task contract: what the generator writes and the reward, the servers and the rollouts read.

One task is one training example: the world it happens in (snapshot
identities), what the user says turn by turn, the gold calls that answer each
turn with the results they returned, which gold call must precede which, the
tools offered to the agent, what else the model is shown (the system prompt,
earlier turns, the domain's policy verdict) and the state the gold calls leave
behind. Everything is plain JSON so a dataset row can carry it.

This module sits on the bottom floor beside ``state``: it imports pydantic and
the standard library only, so every package above may read a task without
standing on the generator.

Format note: before this version ``system_prompt``, ``history`` and ``policy``
lived inside ``metadata``. A task written that way still validates for one
release: the keys are moved onto the typed fields and a DeprecationWarning says
so (:func:`Task._promote_legacy_metadata`). Regenerate such datasets.
"""

from __future__ import annotations

import math
import re
import warnings
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

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


DEFAULT_SYSTEM_PROMPT = "You are a helpful assistant with tools."
SHOWN_FIELDS = ("system_prompt", "history", "policy")  # once metadata keys, now typed fields


class Task(_Strict):
    """One training example; see the module docstring. ``metadata`` holds diagnostics only (chain,
    anchors, roles, dataflow, knobs, ...): nothing a model is shown and nothing a score needs."""

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
    system_prompt: str = Field(
        default=DEFAULT_SYSTEM_PROMPT, description="the system message the model is shown"
    )
    history: list[dict[str, Any]] = Field(
        default_factory=list,
        description="OpenAI chat messages shown before the first turn: the earlier turns of a turn-level "
        "example (their user messages, gold calls, results and answers); empty otherwise",
    )
    policy: dict[str, Any] | None = Field(
        default=None,
        description="what the domain's written policy made of the task (``kind``, ``marks``, the "
        "confirmation turns ``confirm``, a ``refused_call``); None when no rule touched it",
    )

    @model_validator(mode="before")
    @classmethod
    def _promote_legacy_metadata(cls, data: Any) -> Any:
        """Tasks written before the shown fields were typed kept them in ``metadata``: move them
        onto the fields (for one release; such files warn, regenerate them). A task that has a key
        both as a field and in its metadata is refused rather than guessed at."""
        if not isinstance(data, dict) or not isinstance(data.get("metadata"), dict):
            return data
        legacy = [k for k in SHOWN_FIELDS if k in data["metadata"]]
        if not legacy:
            return data
        both = [k for k in legacy if k in data]
        if both:
            raise ValueError(
                f"{', '.join(both)} given both as a field and in metadata; keep the field (metadata "
                "holds diagnostics only)"
            )
        warnings.warn(
            f"task {data.get('id')!r} keeps {', '.join(legacy)} in metadata, the format before typed "
            "fields; it is read for one more release: regenerate the dataset",
            DeprecationWarning,
            stacklevel=2,
        )
        metadata = {k: v for k, v in data["metadata"].items() if k not in legacy}
        moved = {k: data["metadata"][k] for k in legacy}
        if "history" in moved and moved["history"] is None:
            moved["history"] = []
        return {**data, **moved, "metadata": metadata}

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
_ISO_DAY = re.compile(
    r"^(\d{4})-(\d{2})-(\d{2})(?:[T ]\d{2}:\d{2}(?::\d{2})?)?Z?$", re.I
)  # facts come casefolded
_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september",
           "october", "november", "december")  # fmt: skip


def states_day(fact: str, text: str) -> bool:
    """A stored day or moment said in words: "2026-06-04T00:00" is stated by "June 4" (any
    weekday, time or year beside it), as an assistant writes dates for people. ``text`` casefolded."""
    m = _ISO_DAY.match(fact)
    if m is None or not 1 <= int(m.group(2)) <= 12:
        return False
    said = f"{_MONTHS[int(m.group(2)) - 1]} {int(m.group(3))}"
    return re.search(rf"\b{said}\b", text) is not None


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
