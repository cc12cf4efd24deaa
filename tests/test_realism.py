"""Issue 8's figures on a 2,000-task run of every domain, as a user starts it (default scale,
default workers): tasks a person would write, with gold an efficient agent would make.

The detectors are :mod:`querygen.text.realism` (tested on purpose-built bad tasks in
``test_realism_detectors.py``); here they must find nothing in what the generator keeps."""

from __future__ import annotations

import random

import pytest

from contract.messages import messages
from querygen.generate import GenConfig, Generator
from querygen.text.realism import measure, specs_for
from rewards import score
from servers.registry import available

N = 2000


@pytest.fixture(scope="module")
def run(snapshot_cache):
    gen = Generator(GenConfig(domains=tuple(available()), n=N, seed=8), cache=snapshot_cache)
    tasks, stats = gen.run(workers=2)
    return gen, tasks, stats


@pytest.fixture(scope="module")
def figures(run):
    _, tasks, _ = run
    return measure(tasks, specs_for(sorted({d for t in tasks for d in t.domains})))


def test_the_run_keeps_what_was_asked(run):
    _, tasks, stats = run
    assert len(tasks) == N, stats.as_dict()
    assert {t.domains[0] for t in tasks} == set(available())


@pytest.mark.parametrize("defect", ["leaks", "unseen_ids", "ambiguous", "garbled", "invalid_values"])
def test_no_defect_survives(figures, defect):
    assert figures[defect] == 0, figures["examples"][defect]


def test_steps_stay_with_what_the_episode_knows(figures):
    assert figures["coherence"] >= 0.95, figures["coherent_steps"]


def test_people_name_things_rather_than_quote_ids(figures):
    assert figures["natural_share"] >= 0.5, figures["reference_kinds"]
    kinds = figures["reference_kinds"]
    assert kinds.get("attribute", 0) > 0 and kinds.get("self", 0) > 0


def test_lookups_resolve_references_in_the_gold(run):
    _, tasks, _ = run
    resolving = [t for t in tasks if "resolve" in t.metadata.get("roles", [])]
    assert len(resolving) > N // 5
    for t in resolving[:200]:
        roles, flows = t.metadata["roles"], {d["from"] for d in t.metadata["dataflow"]}
        for i, role in enumerate(roles):
            if role == "resolve":  # a lookup is there only because a later call uses what it found
                assert i in flows, (t.id, i)


def test_every_kept_gold_call_is_needed(run):
    gen, tasks, stats = run
    assert stats.rejected["necessity"] > 0  # the gate does reject: unneeded gold is really drawn
    for t in tasks[::5]:
        assert gen.validator_for(t).needed.unneeded(t) == [], t.id


def test_answers_are_sentences_that_name_what_later_turns_use(run):
    _, tasks, _ = run
    for t in tasks:
        for turn in t.turns:
            assert turn.answer and "Here is what I found" not in turn.answer, t.id


def test_kept_tasks_replay_on_a_fresh_fork_and_gold_scores_the_maximum(run):
    gen, tasks, _ = run
    sample = random.Random(0).sample(tasks, 60)
    for t in sample:
        assert gen.validator_for(t).audit(t), t.id
        if t.kind == "abstain" or not t.gold_calls():
            continue
        result = score(t, messages(t)[1:], "prove+outcome")
        assert result.total == pytest.approx(1.8), (t.id, result.components)
