"""Each validation gate rejects a purpose-built bad task, and its counter shows it."""

from __future__ import annotations

import random

import pytest

from contract.task import GoldCall, Task, Turn
from querygen.gates import GATES, Dedup
from querygen.generate import GenConfig, Generator
from querygen.plan.near_miss import NO_VALUE, alternative
from querygen.plan.step import canonical
from servers.kit import marks
from servers.registry import available


@pytest.fixture(scope="module")
def gen(snapshot_cache):
    return Generator(GenConfig(domains=tuple(available()), n=60, seed=5, scale="small"), cache=snapshot_cache)


@pytest.fixture(scope="module")
def kept(gen):
    tasks, _ = gen.run()
    return tasks


def _copy(task: Task) -> Task:
    return Task.model_validate(task.model_dump(mode="json"))


def _fresh_counts(gen) -> None:
    for g in GATES:
        gen.validator.rejected[g] = 0


def _executed(gen, domain: str, calls: list[tuple[str, dict]], text: str) -> Task:
    """A task whose gold calls really ran on a fork (results, hash and diff filled in)."""
    with gen.sandbox.trial() as ep:
        results = [gen.env.call(ep, name, args) for name, args in calls]
        assert all(r.ok for r in results), [r.error for r in results]
        expected = gen.probe.state_hash(ep, [domain])
        diff = gen.probe.diff(ep, [domain])
    gold = [GoldCall(name=n, arguments=a, result=r.value) for (n, a), r in zip(calls, results, strict=True)]
    return Task(
        id="t",
        domains=[domain],
        snapshots=[gen.probe.snapshots[domain].identity()],
        turns=[Turn(user=text, calls=gold)],
        tools=[t.openai_schema() for t in gen.kits[domain].graph.specs.values()],
        expected_state_hash=expected,
        expected_diff=diff,
        metadata={"anchors": [[]]},
    )


def test_generated_tasks_pass_every_gate(gen, kept):
    _fresh_counts(gen)
    rng = random.Random(0)
    for task in kept[:40]:
        assert gen.validator_for(task).check(_copy(task), rng) is None, task.id
    assert sum(gen.validator.rejected.values()) == 0


def test_noop_gate_rejects_an_already_satisfied_write(gen, kept):
    _fresh_counts(gen)
    writes = [t for t in kept if t.expected_diff]
    assert writes
    bad = _copy(writes[0])
    bad.expected_state_hash = gen.probe.combine({}, bad.domains)  # the final state is the initial one
    bad.expected_diff = []
    assert gen.validator.check(bad, random.Random(0)) == "noop"
    assert gen.validator.rejected["noop"] == 1


@pytest.mark.skipif("banking" not in available(), reason="needs the banking domain")
def test_noop_gate_rejects_setting_a_value_it_already_has(gen):
    _fresh_counts(gen)
    conn = gen.probe.fingerprint("banking").conn
    cid, phone = conn.execute("SELECT id, phone FROM customers ORDER BY id LIMIT 1").fetchone()
    task = _executed(
        gen,
        "banking",
        [("banking_update_phone", {"customer": cid, "phone": phone})],
        f"Set {cid}'s phone to {phone}.",
    )
    assert task.expected_diff == []
    assert gen.validator.check(task, random.Random(0)) == "noop"
    assert gen.validator.rejected["noop"] == 1


def test_near_miss_gate_rejects_when_no_alternative_value_exists(gen, kept, monkeypatch):
    _fresh_counts(gen)
    task = next(t for t in kept if any(c.arguments for c in t.gold_calls()))
    monkeypatch.setattr(gen.validator, "_alternative", lambda *a, **k: NO_VALUE)
    assert gen.validator.check(_copy(task), random.Random(0)) == "near_miss"
    assert gen.validator.rejected["near_miss"] == 1


@pytest.mark.skipif("banking" not in available(), reason="needs the banking domain")
def test_near_miss_gate_rejects_an_argument_that_changes_nothing(gen):
    conn = gen.probe.fingerprint("banking").conn
    acc = conn.execute(
        "SELECT account_id FROM entries GROUP BY account_id HAVING count(*) < 40 ORDER BY account_id LIMIT 1"
    ).fetchone()[0]
    task = _executed(
        gen,
        "banking",
        [("banking_list_transactions", {"account": acc, "limit": 50})],
        f"Show 50 lines of {acc}.",
    )
    # limit 50 -> 51 on an account with fewer lines: same answer, same state: not load-bearing
    assert gen.validator.near_miss(task, random.Random(0), choice=(0, "limit")) is False
    # the account itself is load-bearing
    assert gen.validator.near_miss(task, random.Random(0), choice=(0, "account")) is True


def test_grounding_gate_rejects_fabricated_entities(gen, kept):
    task = next(t for t in kept if t.kind == "tool")
    domain = task.domains[0]
    prefix = next(marks(t).prefix for t in gen.kits[domain].domain.tables if marks(t).prefix)
    for fabricated in (
        f"{prefix}-999999",
        "Zebulon Quackenbush",
        "nobody.at.all@nowhere.invalid",
        "QQQ-123456",
    ):
        _fresh_counts(gen)
        bad = _copy(task)
        bad.turns[0].user += f" Also check {fabricated}."
        assert gen.validator.check(bad, random.Random(0)) == "grounding", fabricated
        assert gen.validator.rejected["grounding"] == 1
    assert gen.validator.grounding(_copy(task))


def _sensitive_step(gen):
    for name, kit in gen.kits.items():
        for spec in kit.graph.specs.values():
            if any(p.sensitive for p in spec.params):
                with gen.sandbox.trial() as ep:
                    steps = kit.builder.build(ep, [spec.qualified_name], [0], random.Random(3), "complete")
                if steps and steps[-1].name == spec.qualified_name:
                    return name, steps[-1]  # after the lookups that found what the user named
    return None


def test_provenance_gate_rejects_an_unprovenanced_secret(gen):
    found = _sensitive_step(gen)
    if found is None:
        pytest.skip("no available domain has a sensitive parameter")
    domain, step = found
    secrets = [str(step.args[p.name]) for p in step.spec.params if p.sensitive]
    said = " ".join(f"{k} {v}" for k, v in step.args.items())
    good = _executed(gen, domain, [(step.name, step.args)], f"Please do it: {said}.")
    assert gen.validator.provenance(good)
    bad = _copy(good)
    for s in secrets:
        bad.turns[0].user = bad.turns[0].user.replace(s, "my usual one")
    _fresh_counts(gen)
    assert gen.validator.check(bad, random.Random(0)) == "provenance"
    assert gen.validator.rejected["provenance"] == 1


def test_replay_gate_rejects_a_wrong_stored_result(gen, kept):
    _fresh_counts(gen)
    task = _copy(next(t for t in kept if t.gold_calls() and t.expected_diff))
    task.turns[-1].calls[-1].result = {"tampered": True}
    # the near-miss control may already notice; check the replay gate itself and its counter
    assert gen.validator.replay(task) is False
    monkey = gen.validator.near_miss
    gen.validator.near_miss = lambda *a, **k: True
    try:
        assert gen.validator.check(task, random.Random(0)) == "replay"
    finally:
        gen.validator.near_miss = monkey
    assert gen.validator.rejected["replay"] == 1
    assert gen.validator.audit(task) is False


def test_dedup_rejects_identical_and_near_identical_tasks(gen, kept):
    _fresh_counts(gen)
    gen.validator.dedup = Dedup(0.70)
    multi = next(t for t in kept if len(t.gold_calls()) >= 4)
    assert gen.validator.admit(_copy(multi))
    assert not gen.validator.admit(_copy(multi))  # the same task again
    near = _copy(multi)
    near.turns[0].user = "Something worded differently entirely."
    near.turns[-1].calls = (
        near.turns[-1].calls[:-1] if len(near.turns[-1].calls) > 1 else near.turns[-1].calls
    )
    assert not gen.validator.admit(near)  # >= 0.70 of the same calls
    assert gen.validator.rejected["dedup"] == 2
    other = next(
        t
        for t in kept
        if canonical([c.name for c in t.gold_calls()]) != canonical([c.name for c in multi.gold_calls()])
    )
    assert gen.validator.admit(_copy(other))


def test_a_list_argument_has_a_near_miss_with_one_element_swapped(gen):
    """A list parameter can be perturbed too (before, the near-miss gate refused every task whose
    chosen argument was a list)."""
    specs = [s for kit in gen.kits.values() for s in kit.graph.specs.values()]
    found = [(s, p) for s in specs for p in s.params if p.is_list and p.items and p.items.get("enum")]
    if not found:
        pytest.skip("no domain here has an enum list parameter")
    spec, p = found[0]
    current = list(p.items["enum"][:1])
    other = alternative(p, current, random.Random(0))
    assert isinstance(other, list) and len(other) == 1 and other != current
    assert other[0] in p.items["enum"]
