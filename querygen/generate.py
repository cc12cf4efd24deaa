"""The generator: attempts in a fixed order, each one composed, gated, deduplicated and counted.

Attempt ``k`` draws everything from ``random.Random(f"{seed}:{k}")`` (its own Faker seed
included) and starts from the snapshot, so an attempt's outcome depends only on the arguments
and on the tasks kept before it (dedup). The same arguments therefore give the same tasks in the
same order, on any machine, and the output files are byte-identical. Wall-clock time is measured
by the caller and never written into a task.
"""

from __future__ import annotations

import functools
import hashlib
import random
from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass, field, replace
from typing import Any

from faker import Faker

from contract.task import Task
from querygen.compose import Composer, DomainKit, Shape
from querygen.coverage import fill_gaps, sweep_order
from querygen.gates import Lexicon, Validator
from querygen.knobs import KnobRates, ToolOffer
from querygen.parallel import outcomes
from querygen.plan.gold import GoldBuilder
from querygen.plan.graph import ChainSampler, DependencyGraph, roles_of
from querygen.plan.ids import IdIndex
from querygen.plan.memo import PristineReads
from querygen.plan.probe import Sandbox, StateProbe
from querygen.plan.sampler import LiveSampler, Relations, tables_of
from querygen.plan.step import canonical
from querygen.plan.values import ValueMaker
from querygen.stats import GenStats
from querygen.text.naming import Namer
from querygen.text.realism import ambiguous, garbled, leaks, unseen_ids
from querygen.text.realism_text import GarbleRules, garble_rules
from querygen.text.refer import Resolver
from querygen.text.render import Renderer
from servers.kit import marks
from servers.registry import available, parse_domains
from servers.runtime import Environment
from state import SnapshotCache, check_scale

INFO_LEVELS = {"complete": 0.6, "missing_required": 0.2, "minimal": 0.2}
CHAIN_LENGTHS = {1: 0.10, 2: 0.25, 3: 0.25, 4: 0.20, 5: 0.15, 6: 0.05}
TURNS = {1: 0.30, 2: 0.35, 3: 0.25, 4: 0.10}
KINDS = ("tool", "clarify", "abstain")
SWEEP_DRAFTS = 4  # drafts a sweep attempt makes before it settles for one without its tool


@dataclass(frozen=True)
class GenConfig:
    """Everything that determines the output; equal configs give byte-identical datasets."""

    domains: tuple[str, ...] = ("banking",)
    n: int = 100
    seed: int = 0
    snapshot_seed: int = 0
    scale: str = "medium"
    rates: KnobRates = field(default_factory=KnobRates)
    info_levels: dict[str, float] = field(default_factory=lambda: dict(INFO_LEVELS))
    chain_lengths: dict[int, float] = field(default_factory=lambda: dict(CHAIN_LENGTHS))
    turns: dict[int, float] = field(default_factory=lambda: dict(TURNS))
    dedup_threshold: float = 0.70
    max_attempts: int | None = None
    replay: str = "sandbox"
    audit_every: int = 250
    variant_rate: float = 0.2  # share of tool tasks, in domains that declare variants, drawn in one
    # share of attempts whose chain goes through the next tool in turn: a flatter spread of tools
    # for ~20% more CPU (BENCHMARKS.md); the coverage pass alone already calls every tool
    sweep_rate: float = 0.0
    cover: bool = True  # fill in the tools no kept task calls (querygen.coverage)

    def check(self) -> None:
        """Raise ValueError with a readable message for any invalid setting."""
        if self.n < 1:
            raise ValueError(f"--n must be at least 1, got {self.n}")
        check_scale(self.scale)
        self.rates.check()
        if not set(self.chain_lengths) <= set(range(1, 7)) or not self.chain_lengths:
            raise ValueError("chain lengths must be within 1..6")
        if not set(self.turns) <= set(range(1, 5)) or not self.turns:
            raise ValueError("turn counts must be within 1..4")
        if not 0 <= self.variant_rate <= 1:
            raise ValueError(f"variant rate must be within 0..1, got {self.variant_rate}")
        if not 0 <= self.sweep_rate <= 1:
            raise ValueError(f"sweep rate must be within 0..1, got {self.sweep_rate}")
        if self.replay not in ("sandbox", "fresh"):
            raise ValueError(f"replay must be 'sandbox' or 'fresh', got {self.replay!r}")
        if set(self.info_levels) - set(INFO_LEVELS):
            raise ValueError(f"info levels must be among {', '.join(INFO_LEVELS)}")
        for table in (self.info_levels, self.chain_lengths, self.turns):
            if any(w < 0 for w in table.values()) or sum(table.values()) <= 0:
                raise ValueError("weights must be non-negative and not all zero")

    def as_dict(self) -> dict[str, Any]:
        return {
            "domains": list(self.domains),
            "n": self.n,
            "seed": self.seed,
            "snapshot_seed": self.snapshot_seed,
            "scale": self.scale,
            "rates": self.rates.__dict__,
            "info_levels": self.info_levels,
            "chain_lengths": {str(k): v for k, v in self.chain_lengths.items()},
            "turns": {str(k): v for k, v in self.turns.items()},
            "dedup_threshold": self.dedup_threshold,
            "variant_rate": self.variant_rate,
            "sweep_rate": self.sweep_rate,
            "cover": self.cover,
        }


@dataclass(frozen=True)
class Lane:
    """What composes and checks tasks over one set of starting snapshots (the base, or a variant)."""

    composer: Composer
    validator: Validator
    sandbox: Sandbox


def task_id(task: Task) -> str:
    """Content-addressed: the same task (words, calls, offered tools, world) always gets the same id."""
    body = canonical(
        [
            task.domains,
            task.kind,
            [[t.user, [[c.name, c.arguments] for c in t.calls], t.answer] for t in task.turns],
            [s["function"]["name"] for s in task.tools],
            task.metadata.get("knobs"),
            task.expected_state_hash,
            task.variants() or None,
        ]
    )
    return "tg-" + hashlib.sha256(body.encode()).hexdigest()[:16]


class Generator:
    """Holds the environment, the per-domain kits and the gates for one configuration."""

    def __init__(self, config: GenConfig, cache: SnapshotCache | None = None) -> None:
        config.check()
        self.config = config
        self.cache = cache
        selected = [d.name for d in parse_domains(list(config.domains))]
        names = selected + [d for d in available() if d not in selected]
        self.env = Environment(
            parse_domains(names), seed=config.snapshot_seed, scale=config.scale, cache=cache
        )
        self.probe = StateProbe(self.env.snapshots())
        self.sandbox = Sandbox(self.env.open())
        natural = {}
        for d in self.env.domains:
            natural[d.name] = IdIndex.natural_keys(d, self.probe.fingerprint(d.name).conn)
        self.ids = IdIndex(self.env.domains, natural)
        self.selected = selected
        self.reads = PristineReads(self.env)
        self.kits: dict[str, DomainKit] = {}
        lexicons, samplers = {}, {}
        for d in self.env.domains:
            if d.name not in selected:
                continue
            rel = Relations(d)
            sampler = LiveSampler(rel)
            graph = DependencyGraph(d)
            values = ValueMaker(d, rel, sampler, Faker("en_US"), self.probe.fingerprint(d.name).conn)
            namer = Namer(self.env, Resolver(d, graph.specs, rel), rel, sampler, self.ids, self.reads)
            builder = GoldBuilder(self.env, d, graph, sampler, values, self.ids, namer, self.reads)
            chains = ChainSampler(graph, config.chain_lengths, seed=config.seed, roles=roles_of(d, graph))
            self.kits[d.name] = DomainKit(d, graph, chains, builder, Renderer(d, self.ids), values)
            prefixes = {marks(t).prefix: (t.__tablename__, rel.pk[t.__tablename__]) for t in tables_of(d)}
            lexicons[d.name] = Lexicon(
                self.probe.fingerprint(d.name).conn, {k: v for k, v in prefixes.items() if k}
            )
            samplers[d.name] = sampler
        self.offer = ToolOffer(self.env.domains, config.rates)
        self._gates = (lexicons, samplers)
        self._base = self._lane(self.env, self.probe, self.sandbox)
        self.composer, self.validator = self._base.composer, self._base.validator
        self._lanes: dict[tuple[str, str], Lane] = {}
        self._rules: dict[tuple[str, ...], GarbleRules] = {}
        self.sweep = sweep_order(self.kits, config.seed)

    def _lane(self, env: Environment, probe: StateProbe, sandbox: Sandbox) -> Lane:
        lexicons, samplers = self._gates
        composer = Composer(self.kits, self.offer, probe, self.ids)
        validator = Validator(
            env, probe, sandbox, lexicons, samplers, self.config.dedup_threshold, self.config.replay
        )
        return Lane(composer, validator, sandbox)

    def variant_lane(self, domain: str, variant: str) -> Lane:
        """Composer, gates and sandbox over an environment whose ``domain`` starts in ``variant``
        (built on first use; the variant snapshot is derived from the cached base in milliseconds)."""
        key = (domain, variant)
        if key not in self._lanes:
            env = Environment(
                self.env.domains,
                seed=self.env.seed,
                scale=self.env.scale,
                cache=self.cache,
                variants={domain: variant},
            )
            self._lanes[key] = self._lane(env, StateProbe(env.snapshots()), Sandbox(env.open()))
        return self._lanes[key]

    def validator_for(self, task: Task) -> Validator:
        """The gates of the lane a task was drawn in (its snapshots' variant, or the base)."""
        variants = task.variants()
        if not variants:
            return self.validator
        ((domain, variant),) = variants.items()
        return self.variant_lane(domain, variant).validator

    def _pick_variant(self, domain: str, rng: random.Random) -> tuple[str | None, str | None]:
        """(variant, first tool) for a tool task, or (None, None) for the base snapshot."""
        variants = self.kits[domain].domain.variants
        if not variants or rng.random() >= self.config.variant_rate:
            return None, None
        v = variants[rng.choice(sorted(variants))]
        first = f"{domain}_{v.first}" if v.first else None
        if first is not None and first not in self.kits[domain].graph.specs:
            raise ValueError(
                f"variant {domain}.{v.name} names first={v.first!r}, which is not a visible tool"
            )
        return v.name, first

    def _misworded(self, task: Task) -> bool:
        """What a person would not say: a found value already in the user's words, an id only a
        tool result showed, an ambiguous reference, a garbled sentence (:mod:`querygen.text.realism`)."""
        key = tuple(task.domains[:1])  # the words come from the task's own domain's tools
        if key not in self._rules:
            self._rules[key] = garble_rules(self.env.tools, key)
        return bool(
            leaks(task)
            or unseen_ids(task)
            or ambiguous(task)
            or garbled(task, self.env.tools, self._rules[key])
        )

    def rebuild(self) -> Callable[[SnapshotCache | None], Generator]:
        """How a spawned worker builds the same generator (:mod:`querygen.parallel`)."""
        return functools.partial(Generator, self.config)

    def graphs(self) -> dict[str, DependencyGraph]:
        return {name: kit.graph for name, kit in self.kits.items()}

    def attempt(self, k: int, keep_rejected: bool = False) -> tuple[Task | None, str | None, str, str]:
        """(task or None, rejecting gate or None, domain, kind) for attempt ``k``; a kept task has its id.

        ``keep_rejected`` returns a rejected task too (for inspecting what a gate refused)."""
        cfg, rng = self.config, random.Random(f"{self.config.seed}:{k}")
        domain = rng.choice(self.selected)
        for kit in self.kits.values():
            kit.values.reseed(rng.getrandbits(48))
        roll = rng.random()
        lane = self._base
        task: Task | None
        through = self._sweep_tool(k)
        if through is not None:
            domain, shape = self.env.tools[through].domain, self._shape(rng)
            kind, task = shape.kind, self._through(domain, shape, through, rng)
        elif roll < cfg.rates.irrelevance:
            kind, task = "abstain", self.composer.irrelevance_task(domain, rng)
        elif roll < cfg.rates.irrelevance + cfg.rates.missing_function:
            kind = "abstain"
            with self.sandbox.trial([domain]) as ep:
                task = self.composer.missing_function_task(ep, domain, rng)
        else:
            shape = self._shape(rng)
            kind = shape.kind
            variant, first = self._pick_variant(domain, rng)
            if variant is not None:
                lane = self.variant_lane(domain, variant)
            with lane.sandbox.trial([domain]) as ep:
                task = lane.composer.tool_task(ep, domain, shape, rng, start=first)
        audit = bool(cfg.audit_every) and k % cfg.audit_every == 0
        return self._judge(task, lane, rng, domain, kind, keep_rejected, audit)

    def cover_attempt(self, tool: str, i: int) -> tuple[Task | None, str | None, str, str]:
        """Attempt ``i`` at a task that calls ``tool``, for the coverage pass
        (:mod:`querygen.coverage`); its own random stream, so the pass is as repeatable as the
        attempts before it."""
        rng = random.Random(f"{self.config.seed}:cover:{tool}:{i}")
        for kit in self.kits.values():
            kit.values.reseed(rng.getrandbits(48))
        domain, shape = self.env.tools[tool].domain, self._shape(rng)
        task = self._through(domain, shape, tool, rng)
        return self._judge(task, self._base, rng, domain, shape.kind, False, audit=i == 0)

    def _shape(self, rng: random.Random) -> Shape:
        cfg = self.config
        return Shape(
            level=_weighted(rng, cfg.info_levels),
            length=_weighted(rng, cfg.chain_lengths),
            turns=_weighted(rng, cfg.turns),
        )

    def _judge(
        self,
        task: Task | None,
        lane: Lane,
        rng: random.Random,
        domain: str,
        kind: str,
        keep_rejected: bool,
        audit: bool,
    ) -> tuple[Task | None, str | None, str, str]:
        """The gates' verdict on a draft; an audited one is also replayed on a fresh fork."""
        if task is None:
            return None, lane.composer.dropped or "sampling", domain, kind
        kind = task.kind
        if self._misworded(task):
            return (task if keep_rejected else None), "wording", domain, kind
        gate = lane.validator.check(task, rng)
        task.id = task_id(task)
        if gate is None and audit and not lane.validator.audit(task):
            raise RuntimeError(f"audit replay of task {task.id} failed on a fresh fork: a bug")
        return (None if gate and not keep_rejected else task), gate, domain, kind

    def _sweep_tool(self, k: int) -> str | None:
        """The tool attempt ``k`` must call, if it is a sweep attempt: a ``sweep_rate`` share of
        the attempts take the tools in turn, so a dataset of a few rounds calls every tool, not
        only the ones the walks reach often (a tool whose chains rarely draft, a sink every
        write leads to)."""
        rate = self.config.sweep_rate
        turn = int(k * rate)
        if not self.sweep or int((k + 1) * rate) == turn:
            return None
        return self.sweep[turn % len(self.sweep)]

    def _through(self, domain: str, shape: Shape, tool: str, rng: random.Random) -> Task | None:
        """A draft whose chain calls ``tool``; a chain that stopped before it (the call failed in
        the drawn state) is drawn again a few times, every other time after a call that may set
        the state up (a booking before its insurance), else the last draft that worked is kept."""
        kept = None
        for draft in range(SWEEP_DRAFTS):
            length = max(shape.length, 2) if draft % 2 else shape.length
            with self.sandbox.trial([domain]) as ep:
                task = self.composer.tool_task(
                    ep, domain, replace(shape, length=length), rng, through=tool, lead=draft % 2 == 1
                )
            if task is not None and tool in task.metadata["chain"]:
                return task
            kept = task or kept
        return kept

    def run(
        self, progress: Callable[[int, int], None] | None = None, workers: int = 1
    ) -> tuple[list[Task], GenStats]:
        """Attempt until ``n`` tasks are kept (or the attempt budget is spent); same result for any ``workers``."""
        cfg = self.config
        budget = cfg.max_attempts or 20 * cfg.n + 200
        stats = GenStats(requested=cfg.n)
        tasks: list[Task] = []
        with closing(outcomes(self, workers)) as stream:
            for task, gate, domain, kind, keys, tools in stream:
                if task is not None:
                    task.tools = self.offer.expand(tools)
                if task is not None and not self.validator.admit(task, keys):
                    task, gate = None, "dedup"
                stats.count(domain, kind, gate)
                if task is not None:
                    tasks.append(task)
                if progress:
                    progress(len(tasks), stats.attempts)
                if len(tasks) >= cfg.n or stats.attempts >= budget:
                    break
        if cfg.cover:
            stats.coverage = fill_gaps(self, tasks, stats).as_dict()
        stats.policy.update(t.policy["kind"] for t in tasks if t.policy)
        return tasks, stats


def _weighted(rng: random.Random, weights: dict[Any, float]) -> Any:
    keys = list(weights)
    return rng.choices(keys, weights=[weights[x] for x in keys])[0]
