"""Gold execution: a tool chain becomes real calls, run one by one on a live fork.

Each call's arguments are drafted on the fork's current state (:mod:`querygen.plan.arguments`),
its entities named in the user's words by the namer (the lookups that needs run first), the
written policy screens it, and then it runs. A call that fails on the live state (insufficient
funds, a frozen account) is drafted again with fresh arguments a few times; a chain whose step
cannot be satisfied is cut there. Every kept step has really run, so its result is the result the
task stores.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from querygen.plan.arguments import ArgumentDrafter
from querygen.plan.graph import DependencyGraph
from querygen.plan.ids import IdIndex
from querygen.plan.memo import PristineReads
from querygen.plan.policy_gate import PolicyGate, Screening
from querygen.plan.sampler import LiveSampler
from querygen.plan.step import MAX_CALLS, Draft, Naming, Origin, Scene, Step
from querygen.plan.values import ValueMaker
from servers.kit import Domain, ToolSpec
from servers.runtime import CallResult, Environment
from state import Episode

RETRIES = 4


def run_calls(
    env: Environment, ep: Episode, calls: Sequence[tuple[str, Mapping[str, Any]]]
) -> list[CallResult]:
    """Run calls in order on an episode (the replay primitive shared by gates and tests)."""
    return [env.call(ep, name, dict(args)) for name, args in calls]


@dataclass
class _Try:
    """How drafting one call of the chain ended: ``step`` None when it has no valid arguments;
    ``pre`` (the lookups to insert before it) None when it cannot be said; ``final`` set when
    the whole draft ends here with those steps (a refusal, or a remedy that did not help)."""

    step: Step | None
    pre: list[Step] | None = None
    screening: Screening | None = None
    final: list[Step] | None = None
    facts: list[Step] = field(default_factory=list)  # the reads the policy's rules declare
    remedied: list[Step] = field(default_factory=list)  # the remedies run, with the lookups naming them


def requests_of(domain: Domain, spec: ToolSpec) -> tuple[str, ...]:
    """How a user asks for the tool: the domain's declared phrasings, else the tool's own ``says``."""
    language = domain.language
    declared = language.tools.get(spec.name) if language is not None else None
    return declared.phrasings if declared is not None else spec.says


class GoldBuilder:
    """Turns a chain into executed steps on a live episode."""

    def __init__(
        self,
        env: Environment,
        domain: Domain,
        graph: DependencyGraph,
        sampler: LiveSampler,
        values: ValueMaker,
        ids: IdIndex,
        namer: Naming,
        reads: PristineReads | None = None,
    ) -> None:
        self.namer = namer  # the actor and the natural references (querygen.text.naming.Namer)
        self.env = env
        self.call = (reads or env).call  # drafting's calls; a read of an untouched fork may be remembered
        self.domain = domain
        self.graph = graph
        self.sampler = sampler
        self.drafter = ArgumentDrafter(sampler, values, ids, namer)
        policy = domain.policy
        self.gate = PolicyGate(env, domain.name, policy) if policy is not None else None
        self._last: Draft | None = None
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

    @property
    def scene(self) -> Scene | None:
        """The actor of the latest draft (None before the first)."""
        return self._last.scene if self._last is not None else None

    def build(
        self, ep: Episode, chain: Sequence[str], turn_of: Sequence[int], rng: random.Random, level: str
    ) -> list[Step]:
        """Execute the chain; returns the steps that succeeded (a prefix of the chain, with the
        lookups its references need inserted before the calls that use them)."""
        d = self._last = Draft(ep, rng, level, self.namer.scene())
        for j, name in enumerate(chain):
            if len(d.steps) >= MAX_CALLS:
                break
            spec = self.graph.specs[name]
            t = self._draft_call(d, spec, j, turn_of[j], self._template(spec, rng, level))
            if t.final is not None:
                return t.final
            if t.step is None or not t.step.ok or t.pre is None:
                return d.steps
            self._keep(d, t.step, t.pre, [*t.remedied, *t.facts])
        return d.steps

    def _draft_call(self, d: Draft, spec: ToolSpec, j: int, turn: int, template: str | None) -> _Try:
        """Draft call ``j`` and run it, trying fresh arguments up to ``RETRIES`` times."""
        fork = d.ep.fork(self.domain.name)
        t = _Try(None)
        for attempt in range(RETRIES):
            saved = d.scene.copy()
            d.attempt = attempt
            with fork.reading() as conn, self.sampler.steady():  # a draft only reads
                d.conn = conn
                step = self.drafter.draft(d, spec, j, turn, template)
                pre = self.namer.name_args(d, step) if step is not None else []
                d.conn = None
            t = _Try(step, pre)
            if step is None:
                break
            if pre is None:
                d.scene = saved
                continue
            t = self._screen_and_run(d, step, pre)
            if t.final is not None or step.ok:
                break
            d.scene = saved
        return t

    def _screen_and_run(self, d: Draft, step: Step, pre: list[Step]) -> _Try:
        """The policy's verdict on a drafted call, then the call itself unless the policy forbids
        it (refused, or an offer made instead)."""
        steps, spec = d.steps, step.spec
        guarded = self.gate is not None and bool(spec.guards)
        if guarded and len(steps) + len(pre) + 2 > MAX_CALLS:
            return _Try(step, pre, final=steps)  # no room left for a remedy (or the check before a refusal)
        screening = self.gate.screen(d.ep, spec, step.args) if guarded and self.gate is not None else None
        if screening is None:
            self._execute(d.ep, step)
            return _Try(step, pre)
        # the gold calls this makes: the asked call itself, or (refused) the offer made instead, if any
        last = int(screening.offered is not None) if screening.forbidden else 1
        if (
            len(steps) + len(pre) + len(screening.remedies) + len(screening.reads) + last > MAX_CALLS
            or screening.failed
        ):
            return _Try(step, pre, final=self._abandon(steps, screening))
        remedied = self._remedied(d, screening, step, [*steps, *pre])
        facts = self._facts(d.ep, screening, step, [*steps, *pre, *(remedied or [])])
        if facts is None or remedied is None:
            return _Try(step, pre, final=self._abandon(steps, screening))
        step.policy = screening.marks
        if screening.forbidden:
            return self._refuse(d, step, pre, screening, [*remedied, *facts])
        self._execute(d.ep, step)
        if screening.remedies and not step.ok:
            return _Try(step, pre, final=self._abandon(steps, screening))
        return _Try(step, pre, screening, facts=facts, remedied=remedied)

    def _refuse(
        self, d: Draft, step: Step, pre: list[Step], screening: Screening, looked: list[Step]
    ) -> _Try:
        """The draft ends at a call the policy will not let run as asked: the lookups, the remedies
        (``looked`` starts with them), the reads that show why, then the refusal, or the offer made
        instead once the user says yes."""
        for s in pre:
            s.turn = step.turn
        if not any(s.role == "check" for s in looked):
            looked = [*looked, *self._check(d.ep, step, [*d.steps, *pre, *looked])]
        if screening.offered is not None:
            ospec, oargs = screening.offered
            offered = Step(ospec, step.turn, None, oargs, {k: Origin("user") for k in oargs}, offered=True)
            offered.refs = {k: r for k, r in step.refs.items() if oargs.get(k) == step.args.get(k)}
            self._execute(d.ep, offered)
            if not offered.ok:
                return _Try(step, pre, final=self._abandon(d.steps, screening))
            step.instead = offered
        refusal = [*pre, *looked, step]
        return _Try(step, pre, final=[*d.steps, *refusal])

    def _facts(self, ep: Episode, screening: Screening, step: Step, before: list[Step]) -> list[Step] | None:
        """The reads the call's rules declare, run now (after any remedy, before the call), except
        those the conversation already made; None when one fails."""
        out = []
        for spec, args in screening.reads:
            if any(s.spec is spec and s.args == args for s in before):
                continue
            res = self.call(ep, spec.qualified_name, args)
            if not res.ok:
                return None
            # a value the call itself takes comes from where the call's did (a lookup's find)
            origin = {
                k: next(
                    (step.origin[p] for p, v in step.args.items() if v == a and p in step.origin),
                    Origin("user"),
                )
                for k, a in args.items()
            }
            out.append(Step(spec, step.turn, None, args, origin, role="check", ok=True, result=res.value))
        return out

    def _execute(self, ep: Episode, step: Step) -> None:
        """Run the call; an idempotent write that changed nothing (chgrp to the current group) fails."""
        fork, spec = ep.fork(self.domain.name), step.spec
        before = fork.content_hash() if spec.writes and spec.idempotent else None  # set_x, chgrp
        res = self.call(ep, spec.qualified_name, step.args)
        step.ok, step.result, step.error = res.ok, res.value, res.error
        if res.ok and before is not None and fork.content_hash() == before:
            step.ok = False

    def _keep(self, d: Draft, step: Step, pre: list[Step], policy: list[Step]) -> None:
        """Add a call that ran to the draft, after its lookups and what the policy made first (the
        remedies, named like requests, and the reads its rules declare)."""
        for s in pre:
            s.turn = step.turn
        d.steps.extend(pre)
        d.steps.extend(policy)
        d.steps.append(step)
        self.namer.observe(step, len(d.steps) - 1, d.scene)
        self.drafter.remember(d.context, step)

    @staticmethod
    def _abandon(steps: list[Step], screening: Screening) -> list[Step]:
        """Where the chain stops after a remedy ran: a remedy changed the episode, so the prefix
        alone would not explain its state; nothing is kept then (the attempt's trial rolls back)."""
        return [] if screening.remedies else steps

    def _remedied(self, d: Draft, screening: Screening, step: Step, before: list[Step]) -> list[Step] | None:
        """The remedy calls the policy gate ran (verify the caller), as steps the user asks for, each
        named like any request (the caller as they identify themself, found by a lookup first);
        None when one cannot be said."""
        out: list[Step] = []
        kept = d.steps
        fork = d.ep.fork(self.domain.name)
        try:
            for spec, args, res in screening.remedies:
                says = requests_of(self.domain, spec)
                template = min(says, key=len) if says else None
                origin = {k: Origin("user") for k in args}
                made = Step(spec, step.turn, template, args, origin, ok=True, result=res.value)
                d.steps = [*before, *out]
                with fork.reading() as conn, self.sampler.steady():
                    d.conn = conn
                    lookups = self.namer.name_args(d, made)
                    d.conn = None
                if lookups is None:
                    return None
                for s in lookups:
                    s.turn = step.turn
                out += [*lookups, made]
        finally:
            d.steps = kept
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

    def _template(self, spec: ToolSpec, rng: random.Random, level: str) -> str | None:
        says = requests_of(self.domain, spec)
        if not says:
            return None
        if level == "minimal":
            return min(says, key=len)
        return rng.choice(list(says))
