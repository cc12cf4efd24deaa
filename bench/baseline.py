"""The ungrounded baseline: same chains and templates, arguments invented without reading state.

This is what a generator blind to the live world produces (the paper's "account #12345"
problem): entity ids in the declared format with Faker numbers, secrets and strings from Faker,
every argument fixed before anything runs (so no call can use an earlier output). Its gold calls
are then executed on a fork, and the share of tasks with at least one failing call is measured
next to ours.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from querygen.generate import Generator, _weighted


@dataclass
class BaselineReport:
    tasks: int = 0
    failed_tasks: int = 0
    calls: int = 0
    failed_calls: int = 0
    errors: Counter[str] = field(default_factory=Counter)

    @property
    def failure_share(self) -> float:
        return self.failed_tasks / self.tasks if self.tasks else 0.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "tasks": self.tasks,
            "failed_tasks": self.failed_tasks,
            "failure_share": round(self.failure_share, 4),
            "calls": self.calls,
            "failed_calls": self.failed_calls,
            "top_errors": dict(self.errors.most_common(5)),
        }


def ungrounded_calls(gen: Generator, domain: str, rng: random.Random) -> list[tuple[str, dict[str, Any]]]:
    """A chain's calls with arguments from Faker alone (the state is never read)."""
    kit = gen.kits[domain]
    chain = kit.chains.sample(rng, _weighted(rng, gen.config.chain_lengths))
    calls = []
    for name in chain:
        spec = kit.graph.specs[name]
        args: dict[str, Any] = {}
        for p in kit.values.fill_order(spec):
            if not p.required and rng.random() > 0.2:
                continue
            if p.ref:
                args[p.name] = kit.values.fake_ref(p, rng)
            else:
                args[p.name] = kit.values.fill(spec, p, args, None, rng)
        calls.append((name, {p.name: args[p.name] for p in spec.params if p.name in args}))
    return calls


def run_baseline(gen: Generator, n: int, seed: int = 0) -> BaselineReport:
    """Generate ``n`` ungrounded tasks and execute their gold calls on a rolled-back fork."""
    report = BaselineReport()
    for k in range(n):
        rng = random.Random(f"baseline:{seed}:{k}")
        domain = rng.choice(gen.selected)
        gen.kits[domain].values.reseed(rng.getrandbits(48))
        calls = ungrounded_calls(gen, domain, rng)
        failed = False
        with gen.sandbox.trial([domain]) as ep:
            for name, args in calls:
                res = gen.env.call(ep, name, args)
                report.calls += 1
                if not res.ok:
                    failed = True
                    report.failed_calls += 1
                    report.errors[_kind(res.error or "")] += 1
        report.tasks += 1
        report.failed_tasks += failed
    return report


def _kind(error: str) -> str:
    """A short error class for the summary, e.g. 'does not exist'."""
    for marker in ("does not exist", "insufficient funds", "invalid arguments", "not correct", "is frozen"):
        if marker in error:
            return marker
    return error.split(":")[0][:40]
