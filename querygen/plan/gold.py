"""Gold execution: a tool chain becomes real calls, run one by one on a live fork.

Each step's entity arguments come, in order of preference, from an earlier call's *output*
(recorded as a dataflow edge, so the later call depends on the earlier one) or from the live
sampler, related to the entities the task already involves. Other arguments come from
:mod:`querygen.plan.values`. A call that fails on the live state (insufficient funds, a frozen
account) is retried with fresh arguments a few times; a chain whose step cannot be satisfied is
cut there. Every kept step has really run, so its result is the result the task stores.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from querygen.plan.graph import DependencyGraph
from querygen.plan.ids import IdIndex
from querygen.plan.policy_gate import PolicyGate
from querygen.plan.sampler import LiveSampler, Relations
from querygen.plan.seen import path_in_view, shown_strings
from querygen.plan.values import ValueMaker, list_length
from servers.kit import Domain, ToolSpec
from servers.runtime import CallResult, Environment
from state import Episode

if TYPE_CHECKING:
    from querygen.plan.memo import PristineReads

RETRIES = 4
MAX_CALLS = 6  # the paper's longest chain: lookups and a policy's remedies count too
PATH_TRIES = 2  # picks tried for a path the conversation has shown


@dataclass
class Origin:
    """Where an argument value came from: the user (``user``) or call ``source``'s output (``flow``)."""

    kind: str
    source: int | None = None


@dataclass
class Step:
    spec: ToolSpec
    turn: int
    template: str | None
    args: dict[str, Any] = field(default_factory=dict)
    origin: dict[str, Origin] = field(default_factory=dict)
    keys: dict[str, Any] = field(default_factory=dict)  # the row key behind each path argument
    # "resolve": a lookup the agent needs to resolve the user's words; "check": the read that shows
    # a policy rule applies before a refusal
    role: str = "ask"
    refs: dict[str, Any] = field(default_factory=dict)  # param -> refer.Reference (how it is named)
    silent: set[str] = field(default_factory=set)  # params the template already says (as "my")
    ok: bool = False
    result: Any = None
    error: str | None = None
    policy: list[Any] = field(default_factory=list)  # policy_gate.PolicyMark: what the policy said of it
    _ids: dict[str, list[str]] | None = None

    @property
    def forbidden(self) -> bool:
        """The policy forbids this call: the user asks for it, the gold refuses (it never ran)."""
        return any(m.kind == "forbidden" for m in self.policy)

    @property
    def name(self) -> str:
        return self.spec.qualified_name

    def produced(self, index: IdIndex) -> dict[str, list[str]]:
        """Ids in this step's result, by table (computed once)."""
        if self._ids is None:
            self._ids = index.ids_in(self.result, self.spec.domain)
        return self._ids


def run_calls(
    env: Environment, ep: Episode, calls: Sequence[tuple[str, Mapping[str, Any]]]
) -> list[CallResult]:
    """Run calls in order on an episode (the replay primitive shared by gates and tests)."""
    return [env.call(ep, name, dict(args)) for name, args in calls]


def canonical(value: Any) -> str:
    """A JSON text that is equal exactly when two tool results are equal."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


class GoldBuilder:
    """Turns a chain into executed steps on a live episode."""

    def __init__(
        self,
        env: Environment,
        domain: Domain,
        graph: DependencyGraph,
        relations: Relations,
        sampler: LiveSampler,
        values: ValueMaker,
        ids: IdIndex,
        namer: Any = None,
        reads: PristineReads | None = None,
    ) -> None:
        self.namer = namer  # naming.Namer: actor and natural references (None: ids, any owner)
        self.scene: Any = None
        self.env = env
        self.call = (reads or env).call  # drafting's calls; a read of an untouched fork may be remembered
        self.domain = domain
        self.graph = graph
        self.rel = relations
        self.sampler = sampler
        self.values = values
        self.ids = ids
        policy = domain.policy
        self.gate = PolicyGate(env, domain.name, policy) if policy is not None else None
        # a read that shows a row (get_reservation): what the agent checks before refusing
        self._readers: dict[str, ToolSpec] = {}
        for spec in graph.specs.values():
            refs = [p for p in spec.params if p.ref and not p.ref.many]
            required = [p for p in spec.params if p.required]
            if (
                spec.read_only
                and len(refs) == 1
                and required == refs
                and refs[0].ref.table_name == spec.returns
            ):
                self._readers.setdefault(spec.returns, spec)

    def build(
        self, ep: Episode, chain: Sequence[str], turn_of: Sequence[int], rng: random.Random, level: str
    ) -> list[Step]:
        """Execute the chain; returns the steps that succeeded (a prefix of the chain, with the
        lookups its references need inserted before the calls that use them)."""
        steps: list[Step] = []
        context: dict[str, list[str]] = {}
        session = ep.session(self.domain.name)
        self.scene = scene = self.namer.scene() if self.namer is not None else None
        limit = MAX_CALLS if self.namer is not None else len(chain)
        for j, name in enumerate(chain):
            if len(steps) >= limit:
                break
            spec = self.graph.specs[name]
            template = self._template(spec, rng, level)
            screening = None
            for attempt in range(RETRIES):
                saved = scene.copy() if scene is not None else None
                with session.reading() as conn, self.sampler.steady():  # a draft only reads
                    step = self._draft(
                        conn, spec, j, turn_of[j], template, steps, rng, context, attempt, level
                    )
                    pre = self._name(ep, conn, step, steps, rng, level) if step is not None else []
                if step is None:
                    break
                if pre is None:
                    self.scene = scene = saved
                    continue
                if self.gate and spec.guards and len(steps) + len(pre) + 2 > MAX_CALLS:
                    return steps  # no room left for a remedy (or the check before a refusal)
                screening = self.gate.screen(ep, spec, step.args) if self.gate and spec.guards else None
                if screening is not None and len(steps) + len(pre) + len(screening.remedies) + 1 > MAX_CALLS:
                    return self._abandon(steps, screening)
                if screening is not None and (screening.failed or screening.forbidden):
                    if screening.failed:
                        return self._abandon(steps, screening)
                    step.policy = screening.marks
                    for s in pre:
                        s.turn = step.turn
                    return [
                        *steps,
                        *pre,
                        *self._remedied(screening, step),
                        *self._check(ep, step, steps),
                        step,
                    ]
                noop_able = spec.writes and spec.idempotent and self.namer is not None  # set_x, chgrp
                before = session.content_hash() if noop_able else None
                res = self.call(ep, name, step.args)
                step.ok, step.result, step.error = res.ok, res.value, res.error
                if res.ok and before is not None and session.content_hash() == before:
                    step.ok = False  # a write that changed nothing (chgrp to the current group)
                if screening is not None:
                    step.policy = screening.marks
                    if screening.remedies and not step.ok:
                        return self._abandon(steps, screening)
                if step.ok:
                    break
                self.scene = scene = saved
            if step is None or not step.ok or pre is None:
                return steps
            for s in pre:
                s.turn = step.turn
            steps.extend(pre)
            if screening is not None:
                steps.extend(self._remedied(screening, step))
            steps.append(step)
            if self.namer is not None:
                self.namer.observe(step, len(steps) - 1, scene)
            self._remember(context, step)
        return steps

    @staticmethod
    def _abandon(steps: list[Step], screening: Any) -> list[Step]:
        """Where the chain stops after a remedy ran: a remedy changed the episode, so the prefix
        alone would not explain its state; nothing is kept then (the attempt's trial rolls back)."""
        return [] if screening.remedies else steps

    def _remedied(self, screening: Any, step: Step) -> list[Step]:
        """The remedy calls the policy gate ran (verify the caller), as steps the user asks for."""
        out = []
        for spec, args, res in screening.remedies:
            template = min(spec.says, key=len) if spec.says else None
            origin = {k: Origin("user") for k in args}
            out.append(Step(spec, step.turn, template, args, origin, ok=True, result=res.value))
        return out

    def _check(self, ep: Episode, step: Step, steps: list[Step]) -> list[Step]:
        """The read an agent makes before refusing a forbidden call: the row the rule is about
        (none when the conversation has just read it)."""
        ref = next((p for p in step.spec.params if p.ref and not p.ref.many and p.name in step.args), None)
        reader = self._readers.get(ref.ref.table_name) if ref is not None else None
        if reader is None:
            return []
        param = next(p.name for p in reader.params if p.ref)
        args = {param: step.args[ref.name]}
        if any(s.spec is reader and s.args == args for s in steps):
            return []
        res = self.call(ep, reader.qualified_name, args)
        if not res.ok:
            return []
        return [
            Step(
                reader,
                step.turn,
                None,
                args,
                {param: step.origin.get(ref.name, Origin("user"))},  # a lookup's find feeds it too
                role="check",
                ok=True,
                result=res.value,
            )
        ]

    def _name(
        self, ep: Episode, conn: Any, step: Step, steps: list[Step], rng: random.Random, level: str
    ) -> list[Step] | None:
        if self.namer is None:
            return []
        return self.namer.name_args(ep, conn, step, steps, self.scene, rng, level)

    def _template(self, spec: ToolSpec, rng: random.Random, level: str) -> str | None:
        if not spec.says:
            return None
        if level == "minimal":
            return min(spec.says, key=len)
        return rng.choice(list(spec.says))

    def _wanted(self, spec: ToolSpec, template: str | None, rng: random.Random, level: str) -> list[str]:
        """Required params, optional ones the template names, and (complete level) a few extras."""
        slots = set(re.findall(r"\{(\w+)\}", template or ""))
        out = []
        for p in spec.params:
            if p.required or p.name in slots or (level == "complete" and not template and rng.random() < 0.2):
                out.append(p.name)
        return out

    def _draft(
        self,
        conn: Any,
        spec: ToolSpec,
        j: int,
        turn: int,
        template: str | None,
        steps: list[Step],
        rng: random.Random,
        context: dict[str, list[str]],
        attempt: int,
        level: str,
    ) -> Step | None:
        """Arguments for one call, or None when some entity argument has no valid row at all, or the
        state the call needs (a pushed directory to pop) does not hold."""
        if spec.preconditions and not spec.ready(conn):
            return None
        step = Step(spec, turn, template)
        wanted = self._wanted(spec, template, rng, level)
        for p in self.values.fill_order(spec):
            if p.name not in wanted:
                continue
            if p.ref and p.ref.many:
                keys = self._many(conn, spec, p, step, steps, rng, context, attempt)
                if not keys:
                    return None
                step.args[p.name] = keys
                step.origin[p.name] = self._seen_in(keys[0], p.ref.table_name, steps)
            elif p.ref:
                found = self._one(conn, spec, p, step, j, steps, rng, context, attempt)
                if found is None:
                    return None
                value, step.origin[p.name] = found
                step.args[p.name] = p.ref.render(conn, value)
                if p.ref.path:
                    step.keys[p.name] = value
            else:
                near = self._call_context(spec, self._ref_keys(step), context)
                value = self.values.fill(spec, p, step.args, conn, rng, context=near, attempt=attempt)
                step.args[p.name], step.origin[p.name] = value, Origin("user")
        step.args = {p.name: step.args[p.name] for p in spec.params if p.name in step.args}
        return step

    def _one(
        self,
        conn: Any,
        spec: ToolSpec,
        p: Any,
        step: Step,
        j: int,
        steps: list[Step],
        rng: random.Random,
        context: dict[str, list[str]],
        attempt: int,
    ) -> tuple[str, Origin] | None:
        """The row key for one entity argument: from an earlier output (dataflow) if one holds a valid
        row, else sampled near the story; None when no row satisfies the condition."""
        table = p.ref.table_name
        exclude = [k for q, k in self._ref_keys(step).items() if _ref_table(spec, q) == table]
        where = p.ref.condition(self._ref_keys(step))  # bound to the call's earlier entities
        scene, namer = self.scene, self.namer
        # a condition that ties the row to the call's other entities (a user not yet in :project, a
        # product :customer received) already says whose it is: not the actor's, not "mine"
        actor_slot = namer is not None and namer.is_actor_slot(p.name, table) and not p.ref.binds
        if actor_slot and scene.actor is not None:
            if scene.actor in exclude or not self.sampler.satisfying(conn, table, [scene.actor], where):
                return None  # this call cannot be made for the actor: the story stops here
            return scene.actor, self._seen_in(scene.actor, table, steps)
        if p.ref.path and namer is not None and steps:
            shown = self._shown_path(conn, p, table, where, steps, rng, exclude, attempt, context, spec, step)
            if shown is not None:
                return shown, Origin("user")
        got = self._flow(conn, spec, p.name, table, where, j, steps, exclude, rng)
        if got is not None:  # a path is the user's own name for their file, found or not
            return got[1], Origin("user") if p.ref.path else Origin("flow", got[0])
        seen = [v for s in steps for v in s.produced(self.ids).get(table, [])] if namer is not None else []
        if seen and rng.random() < 0.8:
            # the story's own rows first: the symbol just quoted, the card just listed
            again = self.sampler.satisfying(
                conn, table, [v for v in dict.fromkeys(seen) if v not in exclude], where
            )
            if again:
                value = rng.choice(again)
                return value, self._seen_in(value, table, steps)
        mine = namer.ownership(table, scene) if namer is not None and not p.ref.binds else None
        if mine:
            where = f"({where}) AND ({mine})" if where else mine
        near = self._call_context(spec, self._ref_keys(step), context)
        value = self.sampler.pick(conn, table, where, rng, context=near, exclude=exclude, rotate=attempt)
        if value is None:
            return None
        if namer is not None and (namer.resolver.owned(table) or actor_slot):
            namer.adopt(conn, table, value, scene)
        return value, Origin("user") if p.ref.path else self._seen_in(value, table, steps)

    def _shown_path(
        self,
        conn: Any,
        p: Any,
        table: str,
        where: str | None,
        steps: list[Step],
        rng: random.Random,
        exclude: list[Any],
        attempt: int,
        context: dict[str, list[str]],
        spec: ToolSpec,
        step: Step,
    ) -> Any:
        """A file the conversation already met: one an earlier call took, or showed by its path
        (``ls``, ``find``), so a session stays in one corner of the tree."""
        earlier = [k for s in steps for k in s.keys.values() if k not in exclude]
        if earlier and rng.random() < 0.5:
            ok = self.sampler.satisfying(conn, table, list(dict.fromkeys(earlier)), where)
            if ok:
                return rng.choice(ok)
        shown = shown_strings(steps)
        near = self._call_context(spec, self._ref_keys(step), context)
        for _ in range(PATH_TRIES):
            key = self.sampler.pick(conn, table, where, rng, context=near, exclude=exclude, rotate=attempt)
            if key is None:
                return None
            if key in earlier or path_in_view(p.ref.render(conn, key), shown):
                return key
        return None

    @staticmethod
    def _ref_keys(step: Step) -> dict[str, Any]:
        """The call's entity arguments as row keys (a path argument stands for its node's key)."""
        return {q: step.keys.get(q, v) for q, v in step.args.items()}

    def _many(
        self,
        conn: Any,
        spec: ToolSpec,
        p: Any,
        step: Step,
        steps: list[Step],
        rng: random.Random,
        context: dict[str, list[str]],
        attempt: int,
    ) -> list[str]:
        """Distinct rows for a list-of-ids parameter: a list an earlier turn's answer showed (the
        legs of a flight option), else one to three rows related to the story so far."""
        table, where = p.ref.table_name, p.ref.condition(self._ref_keys(step))
        want = list_length(p, rng)
        sizes = (p.constraints.get("minItems") or 1, p.constraints.get("maxItems") or 50)
        shown = self._shown_list(conn, spec, table, where, step, steps, want, sizes, rng)
        if shown:
            return shown
        near = self._call_context(spec, self._ref_keys(step), context)
        out: list[str] = []
        for _ in range(want):
            value = self.sampler.pick(conn, table, where, rng, context=near, exclude=out, rotate=attempt)
            if value is None:
                break
            out.append(value)
        return out if len(out) >= sizes[0] else []

    def _shown_list(
        self,
        conn: Any,
        spec: ToolSpec,
        table: str,
        where: str | None,
        step: Step,
        steps: list[Step],
        want: int,
        sizes: tuple[int, int],
        rng: random.Random,
    ) -> list[str]:
        """Ids for a list parameter from the latest earlier turn's output that holds valid ones: a
        list it showed as one (an option's flights) or ``want`` of the rows it listed. Only earlier
        turns: a list the user has not read yet cannot be said without quoting it."""
        for i in range(len(steps) - 1, -1, -1):
            if steps[i].turn >= step.turn:
                continue
            found = self.sampler.satisfying(conn, table, steps[i].produced(self.ids).get(table, []), where)
            if not found:
                continue
            lo, hi = sizes
            lists = [
                v
                for v in self.ids.id_lists_in(steps[i].result, table, spec.domain)
                if lo <= len(v) <= hi and set(v) <= set(found)
            ]
            edges = self.graph.edges_from(steps[i].name, spec.qualified_name)
            explicit = any(e.kind == "explicit" for e in edges)
            if rng.random() >= (0.95 if explicit or self.namer is not None else 0.5):
                return []
            if lists:
                return list(rng.choice(lists))
            picked = rng.sample(found, min(want, len(found), hi))
            return sorted(picked, key=found.index) if len(picked) >= lo else []
        return []

    @staticmethod
    def _call_context(
        spec: ToolSpec, args: dict[str, Any], context: dict[str, list[str]]
    ) -> dict[str, list[str]]:
        """Entities of this call first (a reporter related to *this* project), then the story's."""
        near: dict[str, list[str]] = {}
        for q, v in args.items():
            table = _ref_table(spec, q)
            if table:
                near.setdefault(table, []).extend(v if isinstance(v, list) else [v])
        if not near:
            return context
        for table, ids in context.items():
            near.setdefault(table, []).extend(i for i in ids if i not in near[table])
        return near

    def _flow(
        self,
        conn: Any,
        spec: ToolSpec,
        param: str,
        table: str,
        where: str | None,
        j: int,
        steps: list[Step],
        exclude: list[Any],
        rng: random.Random,
    ) -> tuple[int, str] | None:
        """An id from the most recent earlier output that holds a valid one, with its step index."""
        for i in range(j - 1, -1, -1):
            found = [v for v in steps[i].produced(self.ids).get(table, []) if v not in exclude]
            found = self.sampler.satisfying(conn, table, found, where)
            if not found:
                continue
            explicit = any(
                e.kind == "explicit" for e in self.graph.edges_from(steps[i].name, spec.qualified_name)
            )
            if rng.random() < (0.95 if explicit or self.namer is not None else 0.5):
                value = rng.choice(found)
                source = _source(value, table, steps, i)
                return (source.source, value) if source.kind == "flow" else None
            return None
        return None

    def _seen_in(self, value: str, table: str, steps: list[Step]) -> Origin:
        """A sampled id an earlier call showed is dataflow all the same: the user learnt it there."""
        for i in range(len(steps) - 1, -1, -1):
            if value in steps[i].produced(self.ids).get(table, []):
                return _source(value, table, steps, i)
        return Origin("user")

    def _remember(self, context: dict[str, list[str]], step: Step) -> None:
        for q, v in self._ref_keys(step).items():
            table = _ref_table(step.spec, q)
            if table:
                for key in v if isinstance(v, list) else [v]:
                    context.setdefault(table, []).append(key)
        for table, found in step.produced(self.ids).items():
            if len(found) <= 3:
                for v in found:
                    if v not in context.setdefault(table, []):
                        context[table].append(v)


def _source(value: Any, table: str, steps: list[Step], i: int) -> Origin:
    """Where the agent learnt ``value``, which call ``i`` shows: there, unless call ``i`` only echoes
    its own argument (get_issue(ISS-1) shows ISS-1): then wherever that argument came from."""
    for s in steps[: i + 1]:  # the user said it already (by value, or naming the row with it)
        for ref in s.refs.values():
            said = (
                [ref.value] if ref.kind == "attribute" else [] if ref.kind in ("flow", "self") else ref.target
            )
            if value in (said if isinstance(said, list) else [said]):
                return Origin("user")
    step = steps[i]
    for q, v in step.args.items():
        key = step.keys.get(q, v)
        if key == value or (isinstance(key, list) and value in key):
            return step.origin.get(q, Origin("user"))
    return Origin("flow", i)


def _ref_table(spec: ToolSpec, param: str) -> str | None:
    for p in spec.params:
        if p.name == param and p.ref:
            return p.ref.table_name
    return None


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
