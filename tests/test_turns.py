"""Turn-level examples and the SFT chat view, loaded the way trainers load them.

Each user turn of a multi-turn task becomes a task of its own: its prompt holds the earlier turns,
its episode starts from the state their gold calls left, and it is judged on its own turn. The
checks go through the real ``datasets`` loader, the reward, an in-process episode and the eval
loop, so a turn example that only round-trips through our own code cannot pass.
"""

from __future__ import annotations

import asyncio
import json

import datasets
import pytest

from contract.messages import messages, prompt
from contract.task import Task
from querygen.generate import GenConfig, Generator
from querygen.out.export import write_dataset
from rewards import score
from rewards.replay import EnvPool
from rollout.episode import TaskEpisode
from rollout.run import EvalSpec, load_tasks, run_eval
from rollout.scripted import ScriptedPolicy
from state.changelog import relative_diff


@pytest.fixture(scope="module")
def exported(snapshot_cache, tmp_path_factory):
    made, _ = Generator(
        GenConfig(domains=("banking", "issue_tracker"), n=40, seed=23, scale="small"), snapshot_cache
    ).run()
    out = tmp_path_factory.mktemp("turns")
    write_dataset(out, made, ["jsonl", "chat", "turns", "parquet"], cache=snapshot_cache)
    turns = load_tasks(out / "turns.jsonl")
    assert sum(len(t.turns) > 1 for t in made) >= 5, "the fixture needs multi-turn tasks"
    return made, turns, out


def _own(task: Task) -> list[dict]:
    """The turn's reference messages without the earlier turns: what a policy would produce."""
    return [{"role": "system", "content": "s"}, *messages(task)[1 + len(task.history) :]]


def test_every_user_turn_becomes_an_example_that_starts_where_the_last_one_ended(exported):
    made, turns, _ = exported
    by_task: dict[str, list[Task]] = {}
    for t in turns:
        by_task.setdefault(t.metadata.get("task_id", t.id), []).append(t)
    assert len(turns) == sum(len(t.turns) for t in made)
    for task in made:
        examples = by_task[task.id]
        if len(task.turns) == 1:
            assert examples == [task]
            continue
        assert [e.id for e in examples] == [f"{task.id}-t{k}" for k in range(len(task.turns))]
        assert examples[-1].expected_state_hash == task.expected_state_hash
        flat = task.gold_calls()
        for k, ex in enumerate(examples):
            before = sum(len(t.calls) for t in task.turns[:k])
            assert [c.name for c in ex.setup] == [c.name for c in flat[:before]]
            assert ex.turns == [task.turns[k]]
            shown = prompt(ex)
            assert shown[-1] == {"role": "user", "content": task.turns[k].user}
            assert [m["content"] for m in shown if m["role"] == "user"] == [
                t.user for t in task.turns[: k + 1]
            ]


def test_gold_of_each_turn_scores_the_maximum_and_reaches_the_expected_state(exported, snapshot_cache):
    _, turns, _ = exported
    pool = EnvPool(snapshot_cache)
    later = [t for t in turns if t.setup]
    assert later, "no turn example with earlier turns"
    outcome_max = 0
    for t in turns:
        best = 1.0 if not t.gold_calls() else 1.3
        assert score(t, _own(t), "prove", pool=pool).total == pytest.approx(best), t.id
        full = score(t, _own(t), "prove+outcome", pool=pool)
        outcome_max += full.components.get("outcome") in (None, 1.0)
        with TaskEpisode(t, pool=pool) as ep:
            assert all(ep.call(c.name, c.arguments).ok for c in t.gold_calls())
            assert ep.state_matches() is True and ep.diff() == t.expected_diff, t.id
    assert outcome_max >= 0.95 * len(turns)


def test_asking_on_a_clarify_turn_earns_the_maximum(exported, snapshot_cache):
    _, turns, _ = exported
    pool = EnvPool(snapshot_cache)
    asks = [t for t in turns if t.kind == "clarify" and not t.gold_calls()]
    assert asks, "the fixture needs a clarify task"
    for t in asks:
        question = [{"role": "assistant", "content": t.turns[0].answer or "Which account?"}]
        assert score(t, question, "prove", pool=pool).total == 1.0
        guess = [{"name": n, "arguments": {}} for n in [t.tools[0]["function"]["name"]]]
        assert score(t, guess, "prove", pool=pool).total == 0.0


def test_turn_examples_run_through_the_eval_loop_under_every_harness(exported, snapshot_cache, tmp_path):
    _, turns, _ = exported
    pool = EnvPool(snapshot_cache)
    later = [t for t in turns if t.setup][:12]
    for harness in ("openai", "hermes", "react"):
        spec = EvalSpec(later, tmp_path / harness, harness=harness, pool=pool)
        rows = asyncio.run(run_eval(spec, ScriptedPolicy(later, "gold", harness)))
        assert all(r["status"] == "ok" and r["state_match"] for r in rows), harness
        assert all(set(r["label_counts"]) and r["label_counts"]["matched"] == r["n_gold"] for r in rows)


def test_load_dataset_keeps_the_turn_ground_truth(exported, snapshot_cache):
    _, turns, out = exported
    rows = datasets.load_dataset("json", data_files=str(out / "turns.jsonl"), split="train")
    pool = EnvPool(snapshot_cache)
    by_id = {t.id: t for t in turns}
    for row in rows:
        task = Task.model_validate_json(row["ground_truth"])
        assert task == by_id[row["id"]]
        assert row["prompt"] == prompt(task, object_arguments=True)  # what a GRPO rollout starts from
        calls = [c for m in row["prompt"] for c in m.get("tool_calls") or []]
        assert all(isinstance(c["function"]["arguments"], dict) for c in calls)
    assert load_tasks(out)  # the folder still reads as the whole-task dataset
    first = next(t for t in turns if t.setup)
    assert score(first, _own(first), "prove", pool=pool).total == pytest.approx(1.3)


def test_the_chat_view_keeps_arguments_as_objects_through_datasets(exported):
    made, _, out = exported
    lines = [json.loads(x) for x in (out / "chat.jsonl").read_text().splitlines()]
    gold = {t.id: [c.arguments for c in t.gold_calls()] for t in made}
    rows = datasets.load_dataset("json", data_files=str(out / "chat.jsonl"), split="train")
    for line, row in zip(lines, rows, strict=True):
        written = [c["function"]["arguments"] for m in line["messages"] for c in m.get("tool_calls") or []]
        loaded = [c["function"]["arguments"] for m in row["messages"] for c in m.get("tool_calls") or []]
        assert written == loaded == gold[line["id"]]
        assert all(isinstance(a, dict) for a in loaded)
    # the trap the docstring warns about: built from the rows without use_json, Arrow unifies
    # every call's arguments into one struct and fills the keys a call did not pass with nulls
    plain = datasets.Dataset.from_list(lines)
    filled = [
        c["function"]["arguments"] for r in plain for m in r["messages"] for c in m.get("tool_calls") or []
    ]
    assert any(None in a.values() for a in filled)
    kept = datasets.Dataset.from_list(lines, on_mixed_types="use_json")
    assert [
        c["function"]["arguments"] for r in kept for m in r["messages"] for c in m.get("tool_calls") or []
    ] == [a for line in lines for a in gold[line["id"]]]


def test_relative_diff_reads_changes_from_the_state_the_setup_left():
    def cell(pk, col, old, new, op, table="t"):
        return {"domain": "d", "table": table, "pk": pk, "column": col, "old": old, "new": new, "op": op}

    inserted = [cell("1", "id", None, 1, "insert"), cell("1", "x", None, 5, "insert")]
    updated = [cell("1", "id", None, 1, "insert"), cell("1", "x", None, 7, "insert")]
    assert relative_diff(inserted, updated) == [cell("1", "x", 5, 7, "update")]
    assert relative_diff(inserted, []) == [
        cell("1", "id", 1, None, "delete"),
        cell("1", "x", 5, None, "delete"),
    ]
    moved = [cell("9", "bal", 10, 20, "update", "a")]
    assert relative_diff(moved, []) == [cell("9", "bal", 20, 10, "update", "a")]  # put back: a change too
    assert relative_diff(moved, moved) == [] and relative_diff([], moved) == moved


def test_the_verl_rows_of_turn_examples_show_earlier_turns_as_hermes_text(exported):
    _, turns, out = exported
    rows = datasets.load_dataset("parquet", data_files=str(out / "turns.parquet"), split="train")
    by_id = {t.id: t for t in turns}
    seen = 0
    for row in rows:
        task = Task.model_validate_json(row["reward_model"]["ground_truth"])
        assert task == by_id[row["extra_info"]["task_id"]]
        shown = row["prompt"]
        assert shown[-1] == {"role": "user", "content": task.turns[0].user}
        calls = [c for c in task.setup]
        text = "\n".join(m["content"] for m in shown)
        for call in calls:
            assert f'"name": "{call.name}"' in text and "<tool_call>" in text and "<tool_response>" in text
        seen += bool(calls)
    assert seen
