"""Generator -> reward: the reference conversation of every generated task earns the reward's maximum.

This is the contract between the two packages: if a gold rollout (exactly what the exported JSONL
shows) loses reward, either the generator writes tasks the reward misreads or the reward penalises
correct behaviour.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

from contract.messages import messages
from querygen.generate import GenConfig, Generator
from querygen.knobs import KnobRates
from rewards import score
from servers.registry import available
from tests.serving import run_cli


@pytest.fixture(scope="module")
def tasks(snapshot_cache):
    rates = KnobRates(distractors=0.4, strip_enums=0.3, irrelevance=0.1, missing_function=0.1)
    cfg = GenConfig(domains=tuple(available()), n=90, seed=5, scale="small", rates=rates)
    generated, _ = Generator(cfg, cache=snapshot_cache).run()
    return generated


@pytest.mark.parametrize("preset", ["prove", "prove+outcome"])
def test_gold_rollouts_score_the_maximum(tasks, preset):
    kinds = Counter()
    for task in tasks:
        rollout = messages(task)[1:]  # the system prompt is the trainer's, not the policy's
        result = score(task, rollout, preset)
        kinds[task.kind] += 1
        if task.kind == "abstain" or not task.gold_calls():
            assert result.total == pytest.approx(1.0), (task.id, result.components)
            continue
        best = 1.3 + (0.5 if preset == "prove+outcome" else 0.0)
        assert result.total == pytest.approx(best), (task.id, task.kind, result.components)
    assert kinds["tool"] > 40 and len(kinds) >= 2


def test_dependent_calls_are_not_emitted_in_parallel(tasks):
    for task in tasks:
        position: dict[int, int] = {}
        flat = 0
        for step, msg in enumerate(messages(task)):
            for _ in msg.get("tool_calls") or []:
                position[flat] = step
                flat += 1
        for i, j in task.dependencies:
            assert position[i] < position[j], (task.id, i, j)


def test_cli_generate_then_score_the_reference_rollouts(tmp_path):
    """The documented workflow: JSONL tasks from `generate`, one message list per line to `score`."""

    def cli(*args: str):
        return run_cli(tmp_path, *args)

    out = tmp_path / "data"
    gen = cli(
        "generate", "--domains", "banking", "--n", "12", "--seed", "2", "--scale", "small", "--out", str(out)
    )
    assert gen.returncode == 0, gen.stderr
    rows = [json.loads(line) for line in (out / "tasks.jsonl").read_text().splitlines()]
    traj = tmp_path / "rollouts.jsonl"
    traj.write_text("".join(json.dumps(r["messages"][1:]) + "\n" for r in rows))
    res = cli(
        "score", "--tasks", str(out / "tasks.jsonl"), "--trajectories", str(traj),
        "--out", str(tmp_path / "scores.jsonl"), "--preset", "prove+outcome", "--quiet",
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    scores = [json.loads(line) for line in (tmp_path / "scores.jsonl").read_text().splitlines()]
    assert len(scores) == 12
    for row, task in zip(scores, rows, strict=True):
        truth = json.loads(task["ground_truth"])
        best = 1.0 if not truth["turns"] or truth["kind"] == "abstain" else 1.8
        assert row["total"] == pytest.approx(best) or truth["kind"] != "tool", row
