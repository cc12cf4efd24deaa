"""Every generated task replays exactly on a fresh fork, across all available domains and knobs."""

from __future__ import annotations

from collections import Counter

import pytest

from querygen.generate import GenConfig, Generator
from querygen.knobs import KnobRates
from servers.registry import available
from servers.runtime import Environment

N_TASKS = 240


@pytest.fixture(scope="module")
def generated(snapshot_cache):
    rates = KnobRates(distractors=0.5, strip_enums=0.5, irrelevance=0.08, missing_function=0.12)
    cfg = GenConfig(
        domains=tuple(available()), n=N_TASKS, seed=11, scale="small", rates=rates, audit_every=60
    )
    gen = Generator(cfg, cache=snapshot_cache)
    tasks, stats = gen.run()
    return gen, tasks, stats


def _fresh(task, cache) -> Environment:
    """A new environment over exactly the task's worlds, as a reward service would build it."""
    snap = task.snapshots[0]
    return Environment(
        ",".join(task.domains), seed=snap.seed, scale=snap.scale, cache=cache, variants=task.variants()
    )


def test_every_task_replays_on_a_fresh_fork(generated, snapshot_cache):
    _, tasks, _ = generated
    assert len(tasks) == N_TASKS
    envs: dict[tuple[str, ...], Environment] = {}
    for task in tasks:
        key = (tuple(task.domains), tuple(sorted(task.variants().items())))
        env = envs.setdefault(key, _fresh(task, snapshot_cache))
        assert [s.sha256 for s in task.snapshots] == [env.snapshots()[d].sha256 for d in task.domains]
        ep = env.open()
        for call in task.gold_calls():
            res = env.call(ep, call.name, call.arguments)
            assert res.ok, (task.id, call.name, res.error)
            assert res.value == call.result, (task.id, call.name)
        assert ep.state_hash() == task.expected_state_hash, task.id
        assert ep.diff() == task.expected_diff, task.id
        ep.close()


def test_all_kinds_levels_and_knobs_appear(generated):
    _, tasks, _ = generated
    kinds = Counter(t.kind for t in tasks)
    assert set(kinds) == {"tool", "clarify", "abstain"}
    levels = Counter(t.metadata["info_level"] for t in tasks if t.kind != "abstain")
    assert {"complete", "minimal", "missing_required"} <= set(levels)
    assert {t.domains[0] for t in tasks} == set(available())
    knobs = [t.metadata["knobs"] for t in tasks]
    assert any(k["enums_stripped"] for k in knobs)
    assert any(k["hidden_tool"] for k in knobs)
    assert any(t.metadata.get("irrelevant") for t in tasks)
    if len(available()) > 1:
        assert any(k["distractors"] for k in knobs)


def test_task_shape_is_consistent(generated):
    gen, tasks, _ = generated
    for t in tasks:
        offered = {s["function"]["name"] for s in t.tools}
        calls = t.gold_calls()
        policy = t.policy or {}
        asking = {c["turn"] for c in policy.get("confirm", [])}  # turns that stop to ask for a yes
        insist = {policy["insist"]["turn"]} if policy.get("insist") else set()  # the user insists
        refused = policy.get("refused_call") and not policy.get("offered_call")
        refusing = ({len(t.turns) - 1 - len(insist)} | insist) if refused else set()
        assert 1 <= len(t.turns) <= 4 + len(asking) + len(insist)
        assert all(c.name in offered for c in calls), t.id
        assert all(0 <= i < j < len(calls) for i, j in t.dependencies), t.id
        knobs = t.metadata["knobs"]
        if knobs["enums_stripped"]:
            assert all(
                "enum" not in p for s in t.tools for p in s["function"]["parameters"]["properties"].values()
            )
        if knobs["hidden_tool"]:
            assert knobs["hidden_tool"] not in offered and not calls
        for name in knobs["distractors"]:
            assert name in offered and not name.startswith(t.domains[0] + "_")
            assert gen.env.tools[name].domain in t.domains
        if t.kind == "abstain":
            assert not calls and t.turns[0].answer
        if t.kind == "tool":
            assert 1 <= t.metadata["chain_length"] <= 6
            assert all(turn.calls for k, turn in enumerate(t.turns) if k not in asking | refusing), t.id


def test_clarify_tasks_ask_first_and_get_the_value_next(generated):
    _, tasks, _ = generated
    gaps = [t for t in tasks if t.kind == "clarify" and "missing" in t.metadata]
    assert gaps
    for t in gaps:
        k = next(i for i, turn in enumerate(t.turns) if not turn.calls)
        asked, answered = t.turns[k], t.turns[k + 1]
        missing = t.metadata["missing"]
        value = t.gold_calls()[missing["call"]].arguments[missing["param"]]
        assert t.gold_calls()[missing["call"]] in answered.calls
        assert asked.answer and str(value).lower() not in asked.user.lower()


def test_multi_turn_tasks_refer_to_what_earlier_turns_created(generated):
    _, tasks, _ = generated
    multi = [t for t in tasks if len(t.turns) > 1]
    assert len(multi) > N_TASKS // 5
    cross_turn = 0
    for t in multi:
        created_by_turn = {}
        for k, turn in enumerate(t.turns):
            for c in turn.calls:
                for arg in c.arguments.values():
                    if isinstance(arg, str) and arg in created_by_turn and created_by_turn[arg] < k:
                        cross_turn += 1
            for c in turn.calls:
                if isinstance(c.result, dict) and isinstance(c.result.get("id"), str):
                    created_by_turn.setdefault(c.result["id"], k)
    assert cross_turn > 0


def test_chain_lengths_span_one_to_six(generated):
    _, tasks, _ = generated
    lengths = {t.metadata["chain_length"] for t in tasks if t.kind == "tool"}
    assert 1 in lengths and max(lengths) >= 4


def test_stats_account_for_every_attempt(generated):
    _, tasks, stats = generated
    d = stats.as_dict()
    assert d["kept"] == len(tasks)
    assert d["kept"] + sum(d["rejected"].values()) == d["attempts"]
    assert sum(v["kept"] for v in d["per_domain"].values()) == len(tasks)
    assert sum(v["kept"] for v in d["per_kind"].values()) == len(tasks)
