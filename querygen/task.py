"""The Task contract: what the generator writes and the reward reads.

One task is one training example: the world it happens in (snapshot
identities), what the user says turn by turn, the gold calls that answer each
turn with the results they returned, which gold call must precede which, the
tools offered to the agent, and the state the gold calls leave behind.
Everything is plain JSON so a dataset row can carry it.
"""

from __future__ import annotations

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
    expected_diff: list[dict[str, Any]] = Field(default_factory=list)
    metadata: dict[str, Any] = Field(default_factory=dict)

    def gold_calls(self) -> list[GoldCall]:
        """All gold calls in order, flattened over turns (dependency indices refer to this list)."""
        return [c for t in self.turns for c in t.calls]

    @property
    def writes(self) -> bool:
        return bool(self.expected_diff)
