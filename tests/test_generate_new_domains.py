"""The generator on vehicle, filesystem and trading: enough tasks, every tool, deep relative-path
chains in the file system, tasks that start from a variant, and gold rollouts that score the maximum.

One 1,500-task run at the default (medium) scale, as a user would start it."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from contract.messages import messages
from querygen.generate import GenConfig, Generator
from rewards import score
from servers.registry import get_domain

DOMAINS = ("vehicle", "filesystem", "trading")
N = 1500
DISCOVERY = {"list_records", "search_records", "get_unique_values"}


@pytest.fixture(scope="module")
def run(snapshot_cache):
    gen = Generator(GenConfig(domains=DOMAINS, n=N, seed=3), cache=snapshot_cache)
    tasks, stats = gen.run(workers=1)
    return tasks, stats


def test_keeps_at_least_ninety_percent_of_n(run):
    tasks, stats = run
    assert len(tasks) >= 0.9 * N, stats.as_dict()


def test_every_non_discovery_tool_appears_in_a_kept_task(run):
    tasks, _ = run
    used = {c.name for t in tasks for c in t.gold_calls()}
    for name in DOMAINS:
        tools = {s.qualified_name for s in get_domain(name).visible_tools() if s.name not in DISCOVERY}
        missing = sorted(tools - used)
        assert not missing, f"{name}: no kept task calls {missing}"


def _relative(path: str) -> bool:
    return not path.startswith(("/", "~"))


def test_filesystem_yields_chains_of_four_or_more_with_relative_paths(run):
    tasks, _ = run
    spec = get_domain("filesystem")
    path_params = {
        s.qualified_name: {p.name for p in s.params if p.ref is not None and p.ref.path}
        for s in spec.visible_tools()
    }
    deep = []
    for t in tasks:
        calls = t.gold_calls()
        if t.domains[0] != "filesystem" or len(calls) < 4:
            continue
        rel = [
            c.arguments[p]
            for c in calls
            for p in path_params.get(c.name, ())
            if isinstance(c.arguments.get(p), str) and _relative(c.arguments[p])
        ]
        if rel and any(c.name == "filesystem_cd" for c in calls):
            deep.append(t)
    assert len(deep) >= 5, f"only {len(deep)} filesystem tasks with >= 4 calls, a cd and relative paths"


def test_some_tasks_start_from_a_variant_and_begin_with_its_first_tool(run):
    tasks, _ = run
    started = Counter()
    for t in tasks:
        for domain, variant in t.variants().items():
            started[f"{domain}.{variant}"] += 1
            first = get_domain(domain).variants[variant].first
            if first and t.kind == "tool" and t.gold_calls():
                assert t.gold_calls()[0].name == f"{domain}_{first}", t.id
    assert started["trading.logged_out"] >= 5 and started["trading.market_closed"] >= 5, started


@pytest.mark.parametrize("preset", ["prove", "prove+outcome"])
def test_gold_rollouts_score_the_preset_maximum(run, preset):
    tasks, _ = run
    for task in tasks[::5]:
        result = score(task, messages(task)[1:], preset)
        if task.kind == "abstain" or not task.gold_calls():
            assert result.total == pytest.approx(1.0), (task.id, result.components)
            continue
        best = 1.3 + (0.5 if preset == "prove+outcome" else 0.0)
        assert result.total == pytest.approx(best), (task.id, task.kind, result.components)


def test_no_invalid_dates_in_gold_arguments(run):
    tasks, _ = run
    day = re.compile(r"^\d{4}-\d{2}-\d{2}")
    from datetime import datetime

    for t in tasks:
        for c in t.gold_calls():
            for v in c.arguments.values():
                if isinstance(v, str) and day.match(v) and len(v) in (10, 16, 19):
                    datetime.fromisoformat(v)
