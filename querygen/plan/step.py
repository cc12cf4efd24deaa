"""The draft's data: the steps of a task being planned, its actor, and what drafting shares.

A :class:`Step` is one gold call with where each argument came from; :class:`Scene` is who the
task is about; :class:`Draft` is the one task's draft in progress that every choice of an
argument reads (the fork, the steps kept so far, the random stream). They live apart from the
code that fills them (:mod:`querygen.plan.gold`, :mod:`querygen.plan.arguments`) so that the text
stage, which names the entities of a step (:mod:`querygen.text.naming`), reads the data without
importing the executor, and the executor reaches the namer only through :class:`Naming`.
"""

from __future__ import annotations

import json
import random
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from querygen.plan.ids import IdIndex
from querygen.plan.policy_gate import PolicyMark
from servers.kit import ToolSpec
from state import Episode

MAX_CALLS = 6  # the paper's longest chain: lookups and a policy's remedies count too


@dataclass
class Origin:
    """Where an argument value came from: the user (``user``) or call ``source``'s output (``flow``)."""

    kind: str
    source: int | None = None


@dataclass
class Step:
    """One gold call of a draft: its arguments, where each came from, how the user names it, and
    (once it ran) its result."""

    spec: ToolSpec
    turn: int
    template: str | None
    args: dict[str, Any] = field(default_factory=dict)
    origin: dict[str, Origin] = field(default_factory=dict)
    keys: dict[str, Any] = field(default_factory=dict)  # the row key behind each path argument
    # "resolve": a lookup the agent needs to resolve the user's words; "check": a read that shows
    # the facts a policy rule judges the next write by (before it is made, or refused)
    role: str = "ask"
    refs: dict[str, Any] = field(default_factory=dict)  # param -> refer.Reference (how it is named)
    silent: set[str] = field(default_factory=set)  # params the template already says (as "my")
    ok: bool = False
    result: Any = None
    error: str | None = None
    policy: list[PolicyMark] = field(default_factory=list)  # what the written policy said of it
    # the compliant call the agent offers instead of this one (a rule's offer), made after a yes
    instead: Step | None = None
    offered: bool = False  # this call is such an offer: it answers the user's yes, not a request
    _ids: dict[str, list[str]] | None = None

    @property
    def forbidden(self) -> bool:
        """The policy forbids this call as asked: the user asks for it, the gold refuses it or
        offers :attr:`instead` (it never ran)."""
        return any(m.kind in ("forbidden", "alternative") for m in self.policy)

    @property
    def name(self) -> str:
        return self.spec.qualified_name

    def produced(self, index: IdIndex) -> dict[str, list[str]]:
        """Ids in this step's result, by table (computed once)."""
        if self._ids is None:
            self._ids = index.ids_in(self.result, self.spec.domain)
        return self._ids


@dataclass
class Scene:
    """The actor of one task and what the user has said about themself."""

    actor: str | None = None
    found_at: int | None = None  # the gold call that found the actor's id (their email lookup)
    name: str | None = None
    said: dict[str, str] = field(default_factory=dict)  # column -> value the intro must state

    def copy(self) -> Scene:
        """What a draft that is dropped must not leave behind (cheaper than a deepcopy per draft)."""
        return replace(self, said=dict(self.said))


@dataclass
class Draft:
    """One task's draft in progress: what choosing any argument of any of its calls reads.

    ``conn`` and ``attempt`` change per try of a call (a read-only connection to the fork while
    the call is drafted; the retry number, which rotates the sampler's picks); ``scene`` is put
    back to a copy when a try is dropped."""

    ep: Episode
    rng: random.Random
    level: str  # information level: complete, minimal or missing_required
    scene: Scene
    steps: list[Step] = field(default_factory=list)  # the calls kept so far
    context: dict[str, list[str]] = field(default_factory=dict)  # the story's entities, by table
    conn: sqlite3.Connection | None = None
    attempt: int = 0

    @property
    def reading(self) -> sqlite3.Connection:
        """The fork's connection of the call being drafted (only set while one is)."""
        if self.conn is None:
            raise RuntimeError("no call is being drafted: the draft has no open connection")
        return self.conn


class Naming(Protocol):
    """What the gold builder asks of the namer (:class:`querygen.text.naming.Namer`): who the
    task is about, and the lookups that let the user name a call's entities in their own words."""

    person: str | None

    def scene(self) -> Scene: ...

    def is_actor_slot(self, param: str, table: str) -> bool: ...

    def owned(self, table: str) -> bool: ...

    def ownership(self, table: str, scene: Scene) -> str | None: ...

    def adopt(self, conn: sqlite3.Connection, table: str, key: Any, scene: Scene) -> None: ...

    def observe(self, step: Step, index: int, scene: Scene) -> None: ...

    def name_args(self, draft: Draft, step: Step) -> list[Step] | None: ...


def canonical(value: Any) -> str:
    """A JSON text that is equal exactly when two tool results are equal."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def dependencies(steps: Sequence[Step], ids: IdIndex) -> list[tuple[int, int]]:
    """Which gold call must precede which: dataflow, plus write/read order on shared entities."""
    edges: set[tuple[int, int]] = set()
    touched = []
    for s in steps:
        ents = {v for vs in ids.ids_in(s.args, s.spec.domain).values() for v in vs}
        ents |= set(s.keys.values())  # the rows behind path arguments
        ents |= {v for vs in s.produced(ids).values() for v in vs}
        tables = set(s.spec.consumes) | set(s.spec.writes) | set(s.spec.needs)
        if s.spec.returns:
            tables.add(s.spec.returns)
        touched.append((ents, tables))
    for j, s in enumerate(steps):
        for o in s.origin.values():
            if o.kind == "flow" and o.source is not None:
                edges.add((o.source, j))
        for i in range(j):
            a, b = steps[i].spec, s.spec
            if not (a.writes or b.writes):
                continue
            shares = touched[i][0] & touched[j][0] and touched[i][1] & touched[j][1]
            if shares or set(a.writes) & set(b.needs):
                edges.add((i, j))
    return sorted(edges)
