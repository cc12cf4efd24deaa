"""``toolground eval`` end to end against a local OpenAI-compatible server playing fixed policies.

The endpoint is a real HTTP server on 127.0.0.1 (``rollout.scripted.scripted_app``); the model
client, harness renderers and parsers, the episode forks and the reward all run as a user would
run them. The scores must order as the reward promises, the per-call labels must be the expected
ones, and broken output or a broken server must end up in the results, never in a traceback.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from contract.messages import messages
from querygen.generate import GenConfig, Generator
from querygen.out.export import write_dataset
from querygen.out.turns import turn_examples
from rewards import score
from rewards.replay import EnvPool
from rewards.terms import budget
from rollout.mcp_session import McpSessions
from rollout.model import ModelClient
from rollout.run import RESULTS, EvalSpec, load_tasks, run_eval
from rollout.scripted import ScriptedPolicy, scripted_app
from tests.serving import REPO, running_server, server_env, serving_in_thread

HARNESSES = ("openai", "hermes", "react")
FAILED = ("transport_error", "model_error", "task_error")


@pytest.fixture(scope="module")
def tasks(snapshot_cache):
    made, _ = Generator(
        GenConfig(domains=("banking", "issue_tracker"), n=24, seed=11, scale="small"), snapshot_cache
    ).run()
    firsts = [t.turns[0].user for t in made]
    assert len(set(firsts)) == len(firsts), "the scripted server tells tasks apart by their first message"
    return made


@pytest.fixture(scope="module")
def endpoint(tasks):
    with serving_in_thread(scripted_app(tasks, stall_seconds=3.0)) as port:
        yield f"http://127.0.0.1:{port}/v1"


@pytest.fixture(scope="module")
def pool(snapshot_cache):
    return EnvPool(snapshot_cache)


def evaluate(tasks, endpoint, pool, out: Path, model: str, *, harness="openai", preset="prove", **client):
    spec = EvalSpec(list(tasks), out, harness=harness, preset=preset, concurrency=4, max_steps=16, pool=pool)
    policy = ModelClient(endpoint, f"{model}@{harness}", **{"retries": 2, "backoff": 0.01, **client})

    async def main():
        try:
            return await run_eval(spec, policy)
        finally:
            await policy.aclose()

    rows = asyncio.run(main())
    assert [r["task_id"] for r in rows] == [t.id for t in tasks]
    return {r["task_id"]: r for r in rows}


def tool_tasks(tasks):
    return [t for t in tasks if t.gold_calls()]


@pytest.mark.parametrize("harness", HARNESSES)
def test_scores_order_as_the_reward_promises(tasks, endpoint, pool, tmp_path, harness):
    runs = {
        b: evaluate(tasks, endpoint, pool, tmp_path / b, b, harness=harness)
        for b in ("gold", "redundant", "wrong_args", "no_tools", "malformed")
    }
    for task in tasks:
        gold = runs["gold"][task.id]
        assert gold["status"] == "ok", gold["error"]
        reference = score(task, messages(task)).total  # the generator's own reference conversation
        assert gold["score"] == pytest.approx(reference), task.id
        if task.expected_state_hash is not None:
            assert gold["state_match"] is True, task.id
        for b in ("redundant", "wrong_args", "no_tools", "malformed"):
            row = runs[b][task.id]
            assert row["status"] in ("ok", "step_limit") and row["score"] <= gold["score"] + 1e-9, (
                b,
                task.id,
            )
    for task in tool_tasks(tasks):
        gold = runs["gold"][task.id]
        assert {lab["label"] for lab in gold["labels"]} == {"matched"}, gold["labels"]
        assert [lab["gold"] for lab in gold["labels"]] == list(range(len(task.gold_calls())))
        wrong, silent, broken = (runs[b][task.id] for b in ("wrong_args", "no_tools", "malformed"))
        assert wrong["score"] < gold["score"]
        assert not any(
            lab["label"] == "matched" and lab["arg_match"] == 1.0
            for lab in wrong["labels"]
            if task.gold_calls()[lab["gold"]].arguments
        )
        assert silent["n_calls"] == 0 and silent["score"] == 0.0
        assert broken["labels"][0]["label"] == "invalid" and broken["score"] < gold["score"]
        assert [lab["label"] for lab in broken["labels"][1:]] == ["matched"] * len(task.gold_calls())


@pytest.mark.parametrize("harness", HARNESSES)
def test_redundant_calls_cost_under_prove_and_not_under_recall(tasks, endpoint, pool, tmp_path, harness):
    prove = evaluate(tasks, endpoint, pool, tmp_path / "p", "redundant", harness=harness)
    gold = evaluate(tasks, endpoint, pool, tmp_path / "g", "gold", harness=harness)
    recall = evaluate(tasks, endpoint, pool, tmp_path / "r", "redundant", harness=harness, preset="recall")
    recall_gold = evaluate(tasks, endpoint, pool, tmp_path / "rg", "gold", harness=harness, preset="recall")
    padded = [t for t in tool_tasks(tasks) if prove[t.id]["n_calls"] > gold[t.id]["n_calls"]]
    past = [t for t in padded if prove[t.id]["n_calls"] > budget(len(t.gold_calls()), 0.5)]
    assert len(padded) >= 3 and len(past) >= 2, "the fixture needs tasks with a read call to repeat"
    for t in padded:
        if prove[t.id]["n_calls"] <= budget(len(t.gold_calls()), 0.5):
            assert prove[t.id]["score"] == pytest.approx(gold[t.id]["score"]), "within budget: no cost"
            continue
        assert prove[t.id]["score"] < gold[t.id]["score"], t.id
        assert recall[t.id]["score"] == pytest.approx(recall_gold[t.id]["score"]), t.id
        extra = prove[t.id]["n_calls"] - gold[t.id]["n_calls"]
        assert prove[t.id]["label_counts"]["redundant"] == extra
        assert prove[t.id]["label_counts"]["matched"] == len(t.gold_calls())


@pytest.mark.parametrize("harness", HARNESSES)
def test_transport_failures_are_retried_then_reported_per_task(tasks, endpoint, pool, tmp_path, harness):
    flaky = evaluate(tasks, endpoint, pool, tmp_path / "f", "flaky-gold", harness=harness)
    gold = evaluate(tasks, endpoint, pool, tmp_path / "g", "gold", harness=harness)
    assert {k: v["score"] for k, v in flaky.items()} == {k: v["score"] for k, v in gold.items()}
    down = evaluate(tasks, endpoint, pool, tmp_path / "e", "error", harness=harness)
    assert {r["status"] for r in down.values()} == {"transport_error"}
    assert all("HTTP 500" in r["error"] and r["score"] is None for r in down.values())
    stalled = evaluate(
        tasks[:3], endpoint, pool, tmp_path / "s", "stall", harness=harness, timeout=0.3, retries=1
    )
    assert {r["status"] for r in stalled.values()} == {"transport_error"}
    assert all("Timeout" in r["error"] for r in stalled.values())


def _write_tasks(tasks, folder: Path) -> Path:
    write_dataset(folder, tasks, ["jsonl"])
    return folder


def _eval_cli(tmp_path: Path, *args: str, cache: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "toolground", "eval", "--quiet", *args],
        env=server_env(cache),
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_an_interrupted_run_resumes_to_the_same_file(tasks, endpoint, snapshot_cache, tmp_path):
    data = _write_tasks(tasks, tmp_path / "ds")
    common = ["--tasks", str(data), "--base-url", endpoint, "--model", "gold", "--concurrency", "2"]
    whole = _eval_cli(tmp_path, *common, "--out", str(tmp_path / "whole"), cache=snapshot_cache.root.parent)
    assert whole.wait(180) == 0, whole.stderr.read()
    cut = _eval_cli(tmp_path, *common, "--out", str(tmp_path / "cut"), cache=snapshot_cache.root.parent)
    journal = tmp_path / "cut" / "results.partial.jsonl"
    deadline = time.monotonic() + 120
    while not (journal.exists() and len(journal.read_text().splitlines()) >= 5):
        assert cut.poll() is None and time.monotonic() < deadline, "the run ended before it could be cut"
        time.sleep(0.01)
    os.kill(cut.pid, signal.SIGKILL)
    cut.wait()
    assert not (tmp_path / "cut" / RESULTS).exists()
    kept = len(journal.read_text().splitlines())
    assert 5 <= kept < len(tasks)
    again = _eval_cli(
        tmp_path, *common, "--out", str(tmp_path / "cut"), "--resume", cache=snapshot_cache.root.parent
    )
    out, err = again.communicate(timeout=180)
    assert again.returncode == 0, err
    assert (tmp_path / "cut" / RESULTS).read_bytes() == (tmp_path / "whole" / RESULTS).read_bytes()
    assert not journal.exists() and (tmp_path / "cut" / "report.html").exists()


def test_cli_refuses_bad_requests_with_a_clear_message(tasks, endpoint, snapshot_cache, tmp_path):
    data = _write_tasks(tasks[:2], tmp_path / "ds")
    cases = {
        ("--tasks", str(data), "--base-url", endpoint): "--model",
        ("--tasks", str(data), "--base-url", endpoint, "--model", "m", "--harness", "xml"): "openai",
        ("--tasks", str(data), "--base-url", endpoint, "--model", "m", "--preset", "nope"): "prove",
        ("--tasks", str(tmp_path / "none"), "--base-url", endpoint, "--model", "m"): "no tasks at",
        ("--tasks", str(data), "--base-url", "localhost:1", "--model", "m"): "http",
        ("--tasks", str(data), "--base-url", endpoint, "--model", "m", "--concurrency", "0"): "--concurrency",
    }
    for args, needle in cases.items():
        proc = _eval_cli(tmp_path, *args, "--out", str(tmp_path / "o"), cache=snapshot_cache.root.parent)
        _, err = proc.communicate(timeout=60)
        assert proc.returncode == 2 and needle in err and "Traceback" not in err, (args, err)


def test_tasks_file_with_a_bad_line_names_it(tmp_path):
    path = tmp_path / "t.jsonl"
    path.write_text('{"ground_truth": "{}"}\n')
    with pytest.raises(ValueError, match=r"t\.jsonl:1"):
        load_tasks(path)


async def _over_mcp(spec: EvalSpec, endpoint: str, base: str, tasks=None):
    # tasks the module's endpoint does not know are played in process
    policy = ModelClient(endpoint, "gold@openai", retries=1) if tasks is None else ScriptedPolicy(tasks)
    try:
        return await run_eval(spec, policy, McpSessions(f"{base}/mcp", run_id="t"))
    finally:
        await policy.aclose()


def test_tools_run_on_a_served_world_and_a_different_world_is_refused(
    tasks, endpoint, snapshot_cache, tmp_path
):
    cache = snapshot_cache.root.parent
    local = evaluate(tasks, endpoint, EnvPool(snapshot_cache), tmp_path / "local", "gold")
    worlds = ",".join(sorted({s.domain for t in tasks for s in t.snapshots}))
    with running_server(cache, "--domains", worlds, "--scale", "small") as base:
        spec = EvalSpec(
            list(tasks), tmp_path / "mcp", concurrency=4, pool=EnvPool(snapshot_cache), preset="prove"
        )
        served = {r["task_id"]: r for r in asyncio.run(_over_mcp(spec, endpoint, base))}
        later = [t for t in turn_examples(tasks, snapshot_cache) if t.setup][:4]  # setup runs on the server
        assert later, "the fixture needs a multi-turn task"
        spec = EvalSpec(later, tmp_path / "turns", concurrency=2, pool=EnvPool(snapshot_cache))
        turned = asyncio.run(_over_mcp(spec, endpoint, base, tasks=later))
    assert all(r["status"] == "ok" and r["state_match"] for r in turned), [r["error"] for r in turned]
    assert [r["error"] for r in served.values() if r["status"] != "ok"] == []
    assert {k: (v["score"], v["state_match"], v["labels"]) for k, v in served.items()} == {
        k: (v["score"], v["state_match"], v["labels"]) for k, v in local.items()
    }
    own = [t for t in tool_tasks(tasks) if {s.domain for s in t.snapshots} == {"banking"}][:2]
    foreign = [t for t in tasks if len(t.snapshots) > 2][:1]
    assert own and foreign
    # a server at another scale builds each task's own world on demand; a domain it does not
    # serve is refused before the model is asked anything
    with running_server(cache, "--domains", "banking", "--scale", "medium") as base:
        spec = EvalSpec(
            own + foreign, tmp_path / "other", concurrency=2, pool=EnvPool(snapshot_cache), preset="prove"
        )
        rows = asyncio.run(_over_mcp(spec, endpoint, base))
    assert [(r["score"], r["state_match"]) for r in rows[:2]] == [
        (local[t.id]["score"], local[t.id]["state_match"]) for t in own
    ]
    assert rows[2]["status"] == "task_error" and rows[2]["steps"] == 0
    assert "does not serve" in rows[2]["error"] and "--domains" in rows[2]["error"]
