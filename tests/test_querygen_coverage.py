"""The coverage sweep and pass: every own tool is called, the count stays n, the stats still add
up, any worker count gives the same tasks, and a conversation never repeats an unchanged read."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from querygen.coverage import own_tools, sweep_order
from querygen.generate import GenConfig, Generator
from querygen.plan.graph import ChainSampler, DependencyGraph
from servers.registry import get_domain
from toolground import cli

DOMAINS = ("banking", "vehicle", "payments")
N = 300


def _run(snapshot_cache, workers: int = 1, **kw):
    gen = Generator(GenConfig(domains=DOMAINS, n=N, seed=5, **kw), cache=snapshot_cache)
    tasks, stats = gen.run(workers=workers)
    return gen, tasks, stats


@pytest.fixture(scope="module")
def covered(snapshot_cache):
    return _run(snapshot_cache)


def _called(tasks) -> set[str]:
    return {c.name for t in tasks for c in t.gold_calls()}


def test_every_own_tool_is_called_and_the_count_stays_n(covered):
    gen, tasks, stats = covered
    assert len(tasks) == N
    assert set(own_tools(gen.kits)) <= _called(tasks), stats.coverage
    assert stats.coverage["uncovered"] == [] and stats.coverage["called"] == stats.coverage["tools"]


def test_without_the_pass_and_sweep_tools_go_missing(snapshot_cache, covered):
    gen, _, _ = covered
    _, tasks, stats = _run(snapshot_cache, sweep_rate=0.0, cover=False)
    assert stats.coverage is None
    assert set(own_tools(gen.kits)) - _called(tasks)  # what the sweep and the pass are for


def test_stats_still_account_for_every_attempt_and_task(covered):
    _, tasks, stats = covered
    d = stats.as_dict()
    assert d["kept"] == len(tasks)
    assert d["kept"] + sum(d["rejected"].values()) == d["attempts"]
    assert sum(v["kept"] for v in d["per_domain"].values()) == len(tasks)
    assert Counter(t.domains[0] for t in tasks) == {
        k: v["kept"] for k, v in d["per_domain"].items() if v["kept"]
    }
    assert sum(d["policy"].values()) == sum(1 for t in tasks if t.policy)


def test_two_workers_give_the_same_tasks(snapshot_cache, covered):
    _, tasks, _ = covered
    _, again, _ = _run(snapshot_cache, workers=2)
    assert [t.id for t in again] == [t.id for t in tasks]


def test_the_sweep_takes_every_tool_in_turn(snapshot_cache):
    gen = Generator(GenConfig(domains=DOMAINS, n=N, seed=5, sweep_rate=0.25), cache=snapshot_cache)
    order = sweep_order(gen.kits, gen.config.seed)
    assert sorted(order) == sorted(own_tools(gen.kits)) and len(set(order)) == len(order)
    turns = [gen._sweep_tool(k) for k in range(4 * len(order))]
    swept = [t for t in turns if t is not None]
    assert len(swept) == len(order)  # a quarter of the attempts
    assert Counter(swept) == Counter(order)
    assert {t.split("_")[0] for t in swept[:12]} != {swept[0].split("_")[0]}  # domains mixed


def test_a_chain_through_a_tool_calls_it_and_after_another_with_lead():
    graph = DependencyGraph(get_domain("vehicle"))
    chains = ChainSampler(graph, seed=1)
    rng = random.Random(3)
    tool = "vehicle_shift_gear"
    for _ in range(50):
        chain = chains.sample(rng, 3, through=tool)
        assert tool in chain
        led = chains.sample(rng, 3, through=tool, lead=True)
        assert tool in led and led[0] != tool


def test_no_turn_repeats_a_read_nothing_changed(covered):
    """Two references named from one lookup (both accounts from one account list) share it."""
    gen, tasks, _ = covered
    for t in tasks:
        for turn in t.turns:
            seen: set[tuple[str, str]] = set()
            for c in turn.calls:
                if gen.env.tools[c.name].writes:
                    seen = set()
                    continue
                key = (c.name, repr(sorted(c.arguments.items())))
                assert key not in seen, (t.id, c.name, c.arguments)
                seen.add(key)


def test_the_cli_sweep_rate_reaches_the_run_and_every_tool_is_still_called(tmp_path):
    out = tmp_path / "swept"
    argv = ["generate", "--domains", "vehicle", "--n", "120", "--scale", "small", "--seed", "3"]
    assert cli.main([*argv, "--sweep-rate", "0.25", "--out", str(out), "--quiet"]) == 0
    written = json.loads((out / "stats.json").read_text())
    assert written["config"]["sweep_rate"] == 0.25
    cover = written["stats"]["coverage"]
    assert cover["uncovered"] == [] and cover["called"] == cover["tools"]
