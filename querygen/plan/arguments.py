"""Arguments for one call of a draft, chosen on the live fork.

Each entity argument comes, in order of preference, from a row the actor is the story of, a path
the conversation has shown, an earlier call's *output* (recorded as a dataflow edge, so the later
call depends on the earlier one), a row an earlier call showed, or the live sampler, related to
the entities the task already involves. Other arguments come from :mod:`querygen.plan.values`.
"""

from __future__ import annotations

import re
from typing import Any

from querygen.plan.ids import IdIndex
from querygen.plan.sampler import LiveSampler
from querygen.plan.seen import path_in_view, shown_strings
from querygen.plan.step import Draft, Naming, Origin, Step
from querygen.plan.values import ValueMaker, list_length
from servers.kit import Param, ToolSpec

PATH_TRIES = 2  # picks tried for a path the conversation has shown


class ArgumentDrafter:
    """Chooses the arguments of one call of a draft (reading only: nothing runs here)."""

    def __init__(self, sampler: LiveSampler, values: ValueMaker, ids: IdIndex, namer: Naming) -> None:
        self.sampler = sampler
        self.values = values
        self.ids = ids
        self.namer = namer

    def draft(self, d: Draft, spec: ToolSpec, j: int, turn: int, template: str | None) -> Step | None:
        """Arguments for call ``j`` of the chain, or None when some entity argument has no valid
        row at all, or the state the call needs (a pushed directory to pop) does not hold."""
        conn = d.reading
        if spec.preconditions and not spec.ready(conn):
            return None
        step = Step(spec, turn, template)
        wanted = self._wanted(spec, template, d)
        for p in self.values.fill_order(spec):
            if p.name not in wanted:
                continue
            if p.ref and p.ref.many:
                keys = self._many(d, p, step)
                if not keys:
                    return None
                step.args[p.name] = keys
                step.origin[p.name] = self.seen_in(keys[0], p.ref.table_name, d.steps)
            elif p.ref:
                found = self._one(d, p, step, j)
                if found is None:
                    return None
                value, step.origin[p.name] = found
                step.args[p.name] = p.ref.render(conn, value)
                if p.ref.path:
                    step.keys[p.name] = value
            else:
                near = _call_context(spec, ref_keys(step), d.context)
                value = self.values.fill(spec, p, step.args, conn, d.rng, context=near, attempt=d.attempt)
                step.args[p.name], step.origin[p.name] = value, Origin("user")
        step.args = {p.name: step.args[p.name] for p in spec.params if p.name in step.args}
        return step

    @staticmethod
    def _wanted(spec: ToolSpec, template: str | None, d: Draft) -> list[str]:
        """Required params, optional ones the template names, and (complete level) a few extras."""
        slots = set(re.findall(r"\{(\w+)\}", template or ""))
        out = []
        for p in spec.params:
            if (
                p.required
                or p.name in slots
                or (d.level == "complete" and not template and d.rng.random() < 0.2)
            ):
                out.append(p.name)
        return out

    def _one(self, d: Draft, p: Param, step: Step, j: int) -> tuple[str, Origin] | None:
        """The row key for one entity argument: from an earlier output (dataflow) if one holds a
        valid row, else sampled near the story; None when no row satisfies the condition."""
        conn, spec, steps, rng, scene, namer = d.reading, step.spec, d.steps, d.rng, d.scene, self.namer
        table = p.ref.table_name
        exclude = [k for q, k in ref_keys(step).items() if _ref_table(spec, q) == table]
        me = namer.signed_in(conn, table)
        if me is not None:
            exclude.append(me)  # "that user", "the buyer of that order": never the speaker
        where = p.ref.condition(ref_keys(step))  # bound to the call's earlier entities
        # a condition that ties the row to the call's other entities (a user not yet in :project, a
        # product :customer received) already says whose it is: not the actor's, not "mine"
        actor_slot = namer.is_actor_slot(p.name, table) and not p.ref.binds
        if actor_slot and scene.actor is not None:
            if scene.actor in exclude or not self.sampler.satisfying(conn, table, [scene.actor], where):
                return None  # this call cannot be made for the actor: the story stops here
            return scene.actor, self.seen_in(scene.actor, table, steps)
        if p.ref.path and steps:
            shown = self._shown_path(d, p, step, where, exclude)
            if shown is not None:
                return shown, Origin("user")
        again = self._again(d, table, where, exclude)
        if again is not None:
            return again, self.seen_in(again, table, steps)
        got = self._flow(d, p, step, where, j, exclude)
        if got is not None:  # a path is the user's own name for their file, found or not
            return got[1], Origin("user") if p.ref.path else Origin("flow", got[0])
        seen = [v for s in steps for v in s.produced(self.ids).get(table, [])]
        if seen and rng.random() < 0.8:
            # the story's own rows first: the symbol just quoted, the card just listed
            again = self.sampler.satisfying(
                conn, table, [v for v in dict.fromkeys(seen) if v not in exclude], where
            )
            if again:
                value = rng.choice(again)
                return value, self.seen_in(value, table, steps)
        user = namer.asked_by_user(spec)  # staff acting on a customer's order are not its owner
        mine = namer.ownership(table, scene) if not p.ref.binds and user else None
        if mine:
            where = f"({where}) AND ({mine})" if where else mine
        near = _call_context(spec, ref_keys(step), d.context)
        value = self.sampler.pick(conn, table, where, rng, context=near, exclude=exclude, rotate=d.attempt)
        if value is None:
            return None
        if user and (namer.owned(table) or actor_slot):
            namer.adopt(conn, table, value, scene)
        return value, Origin("user") if p.ref.path else self.seen_in(value, table, steps)

    def _again(self, d: Draft, table: str, where: str | None, exclude: list[Any]) -> Any:
        """Most of the time, a row an earlier request of the story acted on or asked about: one
        person's morning stays in one budget, one home, one store, rather than hopping to another
        of the many a lookup lists."""
        used = [
            k
            for s in d.steps
            for q, k in ref_keys(s).items()
            if isinstance(k, str) and k not in exclude and _ref_table(s.spec, q) == table
        ]
        if not used or d.rng.random() >= STAY:
            return None
        again = self.sampler.satisfying(d.reading, table, list(dict.fromkeys(used)), where)
        return d.rng.choice(again) if again else None

    def _shown_path(self, d: Draft, p: Param, step: Step, where: str | None, exclude: list[Any]) -> Any:
        """A file the conversation already met: one an earlier call took, or showed by its path
        (``ls``, ``find``), so a session stays in one corner of the tree."""
        conn, rng, table = d.reading, d.rng, p.ref.table_name
        earlier = [k for s in d.steps for k in s.keys.values() if k not in exclude]
        if earlier and rng.random() < 0.5:
            ok = self.sampler.satisfying(conn, table, list(dict.fromkeys(earlier)), where)
            if ok:
                return rng.choice(ok)
        shown = shown_strings(d.steps)
        near = _call_context(step.spec, ref_keys(step), d.context)
        for _ in range(PATH_TRIES):
            key = self.sampler.pick(conn, table, where, rng, context=near, exclude=exclude, rotate=d.attempt)
            if key is None:
                return None
            if key in earlier or path_in_view(p.ref.render(conn, key), shown):
                return key
        return None

    def _many(self, d: Draft, p: Param, step: Step) -> list[str]:
        """Distinct rows for a list-of-ids parameter: a list an earlier turn's answer showed (the
        legs of a flight option), else one to three rows related to the story so far."""
        table, where = p.ref.table_name, p.ref.condition(ref_keys(step))
        # rows another list argument of the call already holds (a distance matrix's origins are
        # not also its destinations)
        taken = [
            v
            for q, vs in step.args.items()
            if isinstance(vs, list) and _ref_table(step.spec, q) == table
            for v in vs
        ]
        want = list_length(p, d.rng)
        sizes = (p.constraints.get("minItems") or 1, p.constraints.get("maxItems") or 50)
        shown = self._shown_list(d, step, table, where, want, sizes)
        if shown and not set(shown) & set(taken):
            return shown
        near = _call_context(step.spec, ref_keys(step), d.context)
        out: list[str] = []
        for _ in range(want):
            value = self.sampler.pick(
                d.reading, table, where, d.rng, context=near, exclude=[*out, *taken], rotate=d.attempt
            )
            if value is None:
                break
            out.append(value)
        return out if len(out) >= sizes[0] else []

    def _shown_list(
        self, d: Draft, step: Step, table: str, where: str | None, want: int, sizes: tuple[int, int]
    ) -> list[str]:
        """Ids for a list parameter from the latest earlier turn's output that holds valid ones: a
        list it showed as one (an option's flights) or ``want`` of the rows it listed. Only earlier
        turns: a list the user has not read yet cannot be said without quoting it."""
        steps, rng, spec = d.steps, d.rng, step.spec
        for i in range(len(steps) - 1, -1, -1):
            if steps[i].turn >= step.turn:
                continue
            found = self.sampler.satisfying(
                d.reading, table, steps[i].produced(self.ids).get(table, []), where
            )
            if not found:
                continue
            lo, hi = sizes
            lists = [
                v
                for v in self.ids.id_lists_in(steps[i].result, table, spec.domain)
                if lo <= len(v) <= hi and set(v) <= set(found)
            ]
            if rng.random() >= 0.95:
                return []
            if lists:
                return list(rng.choice(lists))
            picked = rng.sample(found, min(want, len(found), hi))
            return sorted(picked, key=found.index) if len(picked) >= lo else []
        return []

    def _flow(
        self, d: Draft, p: Param, step: Step, where: str | None, j: int, exclude: list[Any]
    ) -> tuple[int, str] | None:
        """An id from the most recent earlier output that holds a valid one, with its step index
        (``j`` is the call's place in the chain)."""
        table, steps = p.ref.table_name, d.steps
        for i in range(j - 1, -1, -1):
            found = [v for v in steps[i].produced(self.ids).get(table, []) if v not in exclude]
            found = self.sampler.satisfying(d.reading, table, found, where)
            if not found:
                continue
            if d.rng.random() < 0.95:
                value = d.rng.choice(found)
                source = _source(value, table, steps, i)
                return (source.source, value) if source.kind == "flow" else None
            return None
        return None

    def seen_in(self, value: str, table: str, steps: list[Step]) -> Origin:
        """A sampled id an earlier call showed is dataflow all the same: the user learnt it there."""
        for i in range(len(steps) - 1, -1, -1):
            if value in steps[i].produced(self.ids).get(table, []):
                return _source(value, table, steps, i)
        return Origin("user")

    def remember(self, context: dict[str, list[str]], step: Step) -> None:
        """Add a kept call's entities, and the few rows its result showed, to the story's."""
        for q, v in ref_keys(step).items():
            table = _ref_table(step.spec, q)
            if table:
                for key in v if isinstance(v, list) else [v]:
                    context.setdefault(table, []).append(key)
        for table, found in step.produced(self.ids).items():
            if len(found) <= 3:
                for v in found:
                    if v not in context.setdefault(table, []):
                        context[table].append(v)


STAY = 0.8  # the share of requests about a kind of row that stay with the story's own row of it


def ref_keys(step: Step) -> dict[str, Any]:
    """The call's entity arguments as row keys (a path argument stands for its node's key)."""
    return {q: step.keys.get(q, v) for q, v in step.args.items()}


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
