"""Task normalisation: a generator Task, or a minimal task from elsewhere, becomes one PreparedTask.

Everything that does not depend on the trajectory is computed here once (gold names and key
sets, dependency lists, a topological order, parsed tool schemas), so scoring a GRPO group of
trajectories against the same task pays for it once.

Accepted inputs:

* a :class:`querygen.task.Task` or a dict that validates as one (it has ``turns``);
* a minimal task ``{"gold_calls": [{"name", "arguments"}], "tools"?: [...], "dependencies"?: [[i, j]],
  "id"?: str, "kind"?: "tool"|"clarify"|"abstain"}`` — no snapshot, so no outcome term and no replay;
* a JSON string of either (verl and OpenRLHF carry ground truth as strings);
* an already prepared task.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from querygen.task import Task, TaskKind
from rewards.errors import TaskError
from rewards.schemas import (
    LazySchemas,
    ToolSchema,
    schemas_from_domains,
    schemas_from_gold,
    schemas_from_openai,
)


class _MinimalCall(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)
    name: str = Field(min_length=1)
    arguments: dict[str, Any] = Field(default_factory=dict)


class MinimalTask(BaseModel):
    """Gold calls (+ optional tool schemas and dependency edges) from any dataset."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)
    id: str | None = None
    kind: TaskKind | None = None
    gold_calls: list[_MinimalCall]
    tools: list[dict[str, Any]] = Field(default_factory=list)
    dependencies: list[tuple[int, int]] = Field(default_factory=list)


@dataclass(frozen=True, slots=True)
class GoldSpec:
    """One gold call as the terms read it."""

    name: str
    args: dict[str, Any]
    keys: frozenset[str]
    result: Any = None
    turn: int = 0
    last_in_turn: bool = False


@dataclass(frozen=True, slots=True)
class SnapshotSpec:
    domain: str
    seed: int
    scale: str
    sha256: str
    variant: str | None = None


@dataclass(slots=True)
class PreparedTask:
    """A task with everything trajectory-independent precomputed."""

    id: str | None
    kind: str
    gold: tuple[GoldSpec, ...]
    gold_names: frozenset[str]
    prereqs: tuple[tuple[int, ...], ...]
    order: tuple[int, ...]
    schemas: dict[str, ToolSchema] | LazySchemas
    schema_source: str
    snapshots: tuple[SnapshotSpec, ...] = ()
    expected_diff: tuple[dict[str, Any], ...] = ()
    expected_state_hash: str | None = None
    source: str = "minimal"
    setup: tuple[tuple[str, dict[str, Any]], ...] = ()  # applied before every replay, never scored
    # confirmation rules in force: (user turn, or -1 for every call, "domain rule N (slug)", tools)
    confirm: tuple[tuple[int, str, frozenset[str]], ...] = ()
    final_turn: int | None = None  # the last user turn (None: the last gold call's)
    cache: dict[str, Any] = field(default_factory=dict)

    @property
    def abstain(self) -> bool:
        """G is empty: the paper's abstention rule applies (clarify tasks without calls included)."""
        return not self.gold

    @property
    def replayable(self) -> bool:
        return bool(self.snapshots)

    @property
    def writes(self) -> bool:
        return bool(self.expected_diff)


def prepare_task(task: Any) -> PreparedTask:
    """Normalise any accepted task shape; raises :class:`TaskError` naming what is wrong."""
    if isinstance(task, PreparedTask):
        return task
    if isinstance(task, Task):
        return _from_task(task)
    if isinstance(task, str | bytes):
        try:
            task = json.loads(task, parse_constant=_reject_constant)
        except ValueError as exc:
            raise TaskError(f"task is not valid JSON: {exc}", [{"loc": ["task"], "msg": str(exc)}]) from None
    if not isinstance(task, dict):
        raise TaskError(
            f"task must be an object, got {type(task).__name__}",
            [{"loc": ["task"], "msg": "expected an object"}],
        )
    if "turns" in task:
        try:
            return _from_task(Task.model_validate(task))
        except ValidationError as exc:
            raise TaskError.from_validation("invalid task", exc, ["task"]) from None
    if "gold_calls" in task:
        try:
            return _from_minimal(MinimalTask.model_validate(task))
        except ValidationError as exc:
            raise TaskError.from_validation("invalid minimal task", exc, ["task"]) from None
    raise TaskError(
        "a task needs 'turns' (a toolground Task) or 'gold_calls' (a minimal task)",
        [{"loc": ["task"], "msg": "missing 'turns' or 'gold_calls'"}],
    )


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _from_task(task: Task) -> PreparedTask:
    gold: list[GoldSpec] = []
    for t_index, turn in enumerate(task.turns):
        for c_index, call in enumerate(turn.calls):
            last = c_index == len(turn.calls) - 1
            gold.append(_gold(call.name, call.arguments, call.result, t_index, last))
    if task.tools:
        schemas, source = schemas_from_openai(task.tools, ["task", "tools"]), "task"
    else:
        schemas, source = _domain_or_gold_schemas(task.domains, gold)
    snaps = tuple(SnapshotSpec(s.domain, s.seed, s.scale, s.sha256, s.variant) for s in task.snapshots)
    return _finish(
        PreparedTask(
            id=task.id,
            kind=task.kind,
            gold=tuple(gold),
            gold_names=frozenset(g.name for g in gold),
            prereqs=(),
            order=(),
            schemas=schemas,
            schema_source=source,
            snapshots=snaps,
            expected_diff=tuple(task.expected_diff),
            expected_state_hash=task.expected_state_hash,
            source="task",
            setup=tuple((c.name, dict(c.arguments)) for c in task.setup),
            confirm=_confirmations(task.metadata),
            final_turn=len(task.turns) - 1,
        ),
        task.dependencies,
    )


def _confirmations(metadata: dict[str, Any]) -> tuple[tuple[int, str, frozenset[str]], ...]:
    """The task's confirmation turns (``metadata.policy.confirm``). A turn-level example is the
    one turn it holds: where that turn is one to confirm in, every call of it counts (-1)."""
    policy = metadata.get("policy")
    if not isinstance(policy, dict) or not isinstance(policy.get("confirm"), list):
        return ()
    own = metadata.get("turn") if "turns_in_task" in metadata else None
    out = []
    for c in policy["confirm"]:
        label = f"{c['domain']} rule {c['rule']} ({c['slug']})"
        if own is None:
            out.append((int(c["turn"]), label, frozenset(c["tools"])))
        elif own == c["turn"]:
            out.append((-1, label, frozenset(c["tools"])))
    return tuple(out)


def _from_minimal(task: MinimalTask) -> PreparedTask:
    gold = [
        _gold(c.name, c.arguments, None, 0, i == len(task.gold_calls) - 1)
        for i, c in enumerate(task.gold_calls)
    ]
    if task.tools:
        schemas, source = schemas_from_openai(task.tools, ["task", "tools"]), "task"
    else:
        schemas, source = schemas_from_gold([(g.name, g.args) for g in gold]), "gold"
    prepared = PreparedTask(
        id=task.id,
        kind=task.kind or ("tool" if gold else "abstain"),
        gold=tuple(gold),
        gold_names=frozenset(g.name for g in gold),
        prereqs=(),
        order=(),
        schemas=schemas,
        schema_source=source,
    )
    return _finish(prepared, task.dependencies)


def _gold(name: str, args: dict[str, Any], result: Any, turn: int, last: bool) -> GoldSpec:
    return GoldSpec(name, dict(args), frozenset(args), result, turn, last)


def _domain_or_gold_schemas(
    domains: list[str], gold: list[GoldSpec]
) -> tuple[dict[str, ToolSchema] | LazySchemas, str]:
    """No tools listed: the domains' own visible tools, else schemas guessed from the gold calls."""
    if domains:
        return schemas_from_domains(domains), "domains"
    return schemas_from_gold([(g.name, g.args) for g in gold]), "gold"


def _finish(task: PreparedTask, edges: list[tuple[int, int]]) -> PreparedTask:
    """Check kind and dependency edges, then fill prerequisites and a topological order."""
    n = len(task.gold)
    if task.kind == "abstain" and n:
        raise TaskError(
            f"an abstain task cannot have gold calls (it has {n})",
            [{"loc": ["task", "kind"], "msg": "abstain task with gold calls"}],
        )
    prereqs: list[list[int]] = [[] for _ in range(n)]
    for e_index, (i, j) in enumerate(edges):
        if not (0 <= i < n and 0 <= j < n) or i == j:
            raise TaskError(
                f"dependency {e_index} ({i}, {j}) must join two different gold calls in 0..{n - 1}",
                [{"loc": ["task", "dependencies", e_index], "msg": "index out of range or a self-loop"}],
            )
        if i not in prereqs[j]:
            prereqs[j].append(i)
    task.prereqs = tuple(tuple(p) for p in prereqs)
    task.order = _topological(task.prereqs)
    return task


def _topological(prereqs: tuple[tuple[int, ...], ...]) -> tuple[int, ...]:
    """Kahn's algorithm, smallest index first, so gold order is kept wherever edges allow."""
    n = len(prereqs)
    missing = [len(p) for p in prereqs]
    dependents: list[list[int]] = [[] for _ in range(n)]
    for j, ps in enumerate(prereqs):
        for i in ps:
            dependents[i].append(j)
    ready = [j for j in range(n) if missing[j] == 0]
    out: list[int] = []
    while ready:
        ready.sort()
        i = ready.pop(0)
        out.append(i)
        for j in dependents[i]:
            missing[j] -= 1
            if missing[j] == 0:
                ready.append(j)
    if len(out) != n:
        stuck = sorted(set(range(n)) - set(out))
        raise TaskError(
            f"dependencies form a cycle among gold calls {stuck}",
            [{"loc": ["task", "dependencies"], "msg": f"cycle among {stuck}"}],
        )
    return tuple(out)
