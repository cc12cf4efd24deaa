"""Task preparation: a Task, or a minimal task from elsewhere, becomes one PreparedTask.

Everything that does not depend on the trajectory is computed here once (gold names and key
sets, dependency lists, a topological order, parsed tool schemas), so scoring a GRPO group of
trajectories against the same task pays for it once. Reading the task is not done here: every
shape :func:`contract.load.load_task` accepts is accepted (a Task, its dict or JSON text, a
dataset row, ``{"task": ...}``), plus two of the reward's own:

* a minimal task ``{"gold_calls": [{"name", "arguments"}], "tools"?: [...], "dependencies"?: [[i, j]],
  "id"?: str, "kind"?: "tool"|"clarify"|"abstain"}`` — gold calls from any dataset, no snapshot,
  so no outcome term and no replay (in the same wrappers as a Task);
* an already prepared task.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from contract.load import TaskShapeError, load_task, unwrap
from contract.task import GoldCall, SnapshotRef, Task, TaskKind, Turn
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
    """Gold calls (+ optional tool schemas and dependency edges) from any dataset: the input shape
    only; it is scored as the one Task it stands for (:meth:`task`)."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)
    id: str | None = None
    kind: TaskKind | None = None
    gold_calls: list[_MinimalCall]
    tools: list[dict[str, Any]] = Field(default_factory=list)
    dependencies: list[tuple[int, int]] = Field(default_factory=list)

    def task(self) -> Task:
        """The Task this stands for: one unworded turn holding every call, no world, no domains."""
        calls = [GoldCall(name=c.name, arguments=c.arguments) for c in self.gold_calls]
        return Task(
            id=self.id or "",
            domains=[],
            kind=self.kind or ("tool" if calls else "abstain"),
            turns=[Turn(user="", calls=calls)],
            dependencies=self.dependencies,
            tools=self.tools,
        )


@dataclass(frozen=True, slots=True)
class GoldSpec:
    """One gold call as the terms read it."""

    name: str
    args: dict[str, Any]
    keys: frozenset[str]
    result: Any = None
    turn: int = 0
    last_in_turn: bool = False


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
    snapshots: tuple[SnapshotRef, ...] = ()
    expected_diff: tuple[dict[str, Any], ...] = ()
    expected_state_hash: str | None = None
    source: str = "minimal"
    setup: tuple[tuple[str, dict[str, Any]], ...] = ()  # applied before every replay, never scored
    # confirmation rules in force: (user turn, or -1 for every call, "domain rule N (slug)", tools)
    confirm: tuple[tuple[int, str, frozenset[str]], ...] = ()
    final_turn: int | None = None  # the last user turn (None: the last gold call's)
    reference_answer: str | None = (
        None  # the final turn's reference answer: the facts it states are the ones asked
    )
    # why each gold call is made ("ask": the user asked; "resolve": to find what the user named) and
    # which argument of a later gold call took a value from an earlier one: (from, to, parameter)
    roles: tuple[str, ...] = ()
    flows: tuple[tuple[int, int, str], ...] = ()
    domains: tuple[str, ...] = ()
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
    """Prepare any accepted task shape; raises :class:`TaskError` naming what is wrong."""
    if isinstance(task, PreparedTask):
        return task
    try:
        body = unwrap(task)
        if isinstance(body, dict) and "gold_calls" in body and "turns" not in body:
            return _from_minimal(_minimal(body))
        return _from_task(load_task(body))
    except TaskShapeError as exc:
        also = " (or 'gold_calls': a minimal task)" if exc.message.startswith("not a task") else ""
        raise TaskError(exc.message + also, [{**d, "loc": ["task", *d["loc"]]} for d in exc.detail]) from None


def _minimal(body: dict[str, Any]) -> MinimalTask:
    try:
        return MinimalTask.model_validate(body)
    except ValidationError as exc:
        raise TaskError.from_validation("invalid minimal task", exc, ["task"]) from None


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
            snapshots=tuple(task.snapshots),
            expected_diff=tuple(task.expected_diff),
            expected_state_hash=task.expected_state_hash,
            source="task",
            setup=tuple((c.name, dict(c.arguments)) for c in task.setup),
            confirm=_confirmations(task),
            final_turn=len(task.turns) - 1,
            reference_answer=task.turns[-1].answer if task.turns else None,
            roles=_roles(task, len(gold)),
            flows=_flows(task, len(gold)),
            domains=tuple(task.domains),
        ),
        task.dependencies,
    )


def _confirmations(task: Task) -> tuple[tuple[int, str, frozenset[str]], ...]:
    """The task's confirmation turns (``Task.policy["confirm"]``). A turn-level example is the
    one turn it holds (``metadata`` names which): where that turn is one to confirm in, every
    call of it counts (-1)."""
    policy = task.policy
    if not isinstance(policy, dict) or not isinstance(policy.get("confirm"), list):
        return ()
    own = task.metadata.get("turn") if "turns_in_task" in task.metadata else None
    out = []
    for c in policy["confirm"]:
        label = f"{c['domain']} rule {c['rule']} ({c['slug']})"
        if own is None:
            out.append((int(c["turn"]), label, frozenset(c["tools"])))
        elif own == c["turn"]:
            out.append((-1, label, frozenset(c["tools"])))
    return tuple(out)


def _roles(task: Task, n: int) -> tuple[str, ...]:
    """Each gold call's role as the generator recorded it (``metadata.roles``), if it did."""
    roles = task.metadata.get("roles")
    if isinstance(roles, list) and len(roles) == n and all(isinstance(r, str) for r in roles):
        return tuple(roles)
    return ()


def _flows(task: Task, n: int) -> tuple[tuple[int, int, str], ...]:
    """The gold dataflow (``metadata.dataflow``): a later call's argument taken from an earlier result."""
    out = []
    for f in task.metadata.get("dataflow") or ():
        if isinstance(f, dict) and isinstance(f.get("param"), str):
            i, j = f.get("from"), f.get("to")
            if isinstance(i, int) and isinstance(j, int) and 0 <= i < j < n:
                out.append((i, j, f["param"]))
    return tuple(out)


def _from_minimal(task: MinimalTask) -> PreparedTask:
    """A minimal task is prepared as the Task it stands for, keeping its own identity: no id unless
    given, and no last user turn (its calls form no conversation)."""
    prepared = _from_task(task.task())
    return dataclasses.replace(prepared, id=task.id, source="minimal", final_turn=None)


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
