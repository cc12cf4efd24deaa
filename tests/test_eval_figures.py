"""``toolground eval``'s figures mean what they say: doing nothing, calling junk and guessing score
below gold, on a mixed task set, run through the real command against an OpenAI-compatible server
written here (on 127.0.0.1); and the run's edges: repeats, the endpoint check, the exit code when
the model is never reached, and the summary on Ctrl-C."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from contract.messages import messages
from querygen.generate import GenConfig, Generator
from querygen.out.export import write_dataset
from rollout.baselines import RandomPolicy
from rollout.report import load_results, summarize
from rollout.scripted import ScriptedPolicy
from rollout.success import judge
from tests.serving import REPO, free_port, server_env, serving_in_thread

POLICIES = ("gold", "noop", "junk", "random")


@pytest.fixture(scope="module")
def tasks(snapshot_cache):
    made, _ = Generator(
        GenConfig(domains=("banking", "issue_tracker"), n=30, seed=11, scale="small"), snapshot_cache
    ).run()
    kinds = {t.kind for t in made}
    assert {"tool", "clarify", "abstain"} <= kinds, kinds
    assert any(len(t.turns) > 1 for t in made), "the set needs multi-turn tasks"
    assert any(t.gold_calls() and not t.expected_diff for t in made), "the set needs read-only tasks"
    return made


def fake_server(tasks: list[Any], delay: float = 0.0) -> Starlette:
    """An OpenAI-compatible endpoint; the model name picks the policy (``slow`` is gold after a
    pause, ``down`` always fails with HTTP 500)."""
    policies = {
        "gold": ScriptedPolicy(tasks, "gold"),
        "noop": ScriptedPolicy(tasks, "no_tools"),
        "junk": ScriptedPolicy(tasks, "junk"),
        "random": RandomPolicy(tasks, seed=3),
    }

    async def completions(request: Request) -> JSONResponse:
        body = await request.json()
        name = body["model"]
        if name == "down":
            return JSONResponse({"error": {"message": "internal error"}}, status_code=500)
        if name == "slow":
            await asyncio.sleep(delay)
        message = policies.get(name, policies["gold"]).reply(body["messages"])
        return JSONResponse(
            {"choices": [{"index": 0, "message": message, "finish_reason": "stop"}], "usage": {}}
        )

    async def models(request: Request) -> JSONResponse:
        return JSONResponse({"object": "list", "data": [{"id": p} for p in policies]})

    return Starlette(
        routes=[Route("/v1/chat/completions", completions, methods=["POST"]), Route("/v1/models", models)]
    )


@pytest.fixture(scope="module")
def endpoint(tasks):
    with serving_in_thread(fake_server(tasks, delay=0.4)) as port:
        yield f"http://127.0.0.1:{port}/v1"


@pytest.fixture(scope="module")
def dataset(tasks, tmp_path_factory):
    folder = tmp_path_factory.mktemp("ds")
    write_dataset(folder, tasks, ["jsonl"])
    return folder


def cli(cache: Path, *args: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "toolground", "eval", "--quiet", *args],
        env=server_env(cache),
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def by_id(rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {r["task_id"]: r for r in rows}


@pytest.fixture(scope="module")
def runs(dataset, endpoint, snapshot_cache, tmp_path_factory):
    """Each policy's rows, run through ``toolground eval``, and the in-process baselines' rows."""
    out = tmp_path_factory.mktemp("runs")
    cache = snapshot_cache.root.parent
    procs = {
        p: cli(
            cache,
            "--tasks",
            str(dataset),
            "--base-url",
            endpoint,
            "--model",
            p,
            "--baselines",
            "none",
            "--out",
            str(out / p),
            "--concurrency",
            "4",
        )  # fmt: skip
        for p in POLICIES
    }
    procs["baselines"] = cli(cache, "--tasks", str(dataset), "--out", str(out / "b"))
    for name, proc in procs.items():
        stdout, stderr = proc.communicate(timeout=300)
        assert proc.returncode == 0, (name, stderr)
    got = {p: load_results(out / p) for p in POLICIES}
    got.update(
        {f"baseline:{b}": load_results(out / "b" / "baselines" / b) for b in ("gold", "noop", "random")}
    )
    return got


def test_gold_beats_junk_random_and_doing_nothing(tasks, runs):
    figures = {p: summarize(rows)["overall"] for p, rows in runs.items()}
    gold = figures["gold"]
    assert gold["success_rate"] == 1.0 and gold["errored"] == 0
    for other in ("noop", "junk", "random"):
        assert gold["success_rate"] > figures[other]["success_rate"], other
        assert gold["mean_reward"] > figures[other]["mean_reward"], other
    assert gold["max_reward"] == pytest.approx(1.8)  # prove+paths, the default preset


def test_doing_nothing_never_succeeds_on_a_tool_task_nor_beats_gold(tasks, runs):
    gold, noop = by_id(runs["gold"]), by_id(runs["noop"])
    for t in tasks:
        if t.gold_calls():
            assert noop[t.id]["success"] is False, (t.id, noop[t.id]["checks"])
        assert gold[t.id]["success"] is True, (t.id, gold[t.id]["checks"])
        assert noop[t.id]["success"] <= gold[t.id]["success"]
        if t.kind == "abstain":
            assert noop[t.id]["success"] is True  # saying no to an out-of-scope request is right
    read_only = [t for t in tasks if t.gold_calls() and not t.expected_diff]
    # the untouched world is the expected one there: state alone would have called these successes
    assert all(noop[t.id]["state_match"] is True for t in read_only)
    for group in ("kind", "domain"):
        g, n = summarize(runs["gold"])["by"][group], summarize(runs["noop"])["by"][group]
        assert all(n[k]["success_rate"] <= g[k]["success_rate"] for k in g), group


def test_baselines_in_process_match_the_served_policies(runs):
    for name in ("gold", "noop"):
        served, local = by_id(runs[name]), by_id(runs[f"baseline:{name}"])
        assert {k: (v["score"], v["success"]) for k, v in served.items()} == {
            k: (v["score"], v["success"]) for k, v in local.items()
        }
    assert all(r["model"] == "baseline:random" for r in runs["baseline:random"])


def test_domain_tables_count_the_tasks_own_domain_only(tasks, runs):
    assert any(len(t.domains) > 2 for t in tasks), "the set needs tasks offered distractor tools"
    assert set(summarize(runs["gold"])["by"]["domain"]) == {"banking", "issue_tracker"}


def test_repeats_give_pass_at_1_and_pass_hat_k_and_compare_shows_intervals(
    dataset, endpoint, snapshot_cache, tmp_path
):
    cache = snapshot_cache.root.parent
    common = ["--tasks", str(dataset), "--base-url", endpoint, "--limit", "6", "--baselines", "none"]
    printed = {}
    for model in ("gold", "random"):
        proc = cli(cache, *common, "--model", model, "--repeats", "3", "--out", str(tmp_path / model))
        printed[model], err = proc.communicate(timeout=180)
        assert proc.returncode == 0, err
    rows = load_results(tmp_path / "gold")
    assert len(rows) == 18 and sorted({r["repeat"] for r in rows}) == [0, 1, 2]
    f = summarize(rows)["overall"]
    assert f["repeats"] == 3 and f["pass_hat_k"] == 1.0 and "pass^3 100.0%" in printed["gold"]
    assert "18 episodes (6 tasks x 3)" in printed["gold"]
    old = tmp_path / "old.jsonl"  # a results file from before verdicts, repeats and own domains
    keep = ("success", "checks", "repeat", "own_domains")
    old.write_text(
        "".join(
            json.dumps({k: v for k, v in r.items() if k not in keep}) + "\n" for r in rows if r["repeat"] == 0
        )
    )
    proc = cli(cache, "--compare", str(tmp_path / "gold"), str(tmp_path / "random"), str(old),
               "--out", str(tmp_path / "cmp"))  # fmt: skip
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    assert out.count(" | success ") == 3 and "bootstrap" in out
    assert len(re.findall(r"reward -?\d\.\d{3} \[-?\d\.\d{3}, \d\.\d{3}\] / 1\.800", out)) == 3
    assert "success 100.0% [100.0%, 100.0%] of 18 (pass@1 over 3 repeats; pass^3 100.0%)" in out
    assert "success 100.0% [100.0%, 100.0%] of 6" in out  # the old file: success read from state_match
    assert "…" not in out and "harmful ┃" in out  # logged (a pipe): the tables are not cut to 80 columns


def test_a_dead_endpoint_is_named_before_any_work(dataset, snapshot_cache, tmp_path):
    url = f"http://127.0.0.1:{free_port()}/v1"
    proc = cli(snapshot_cache.root.parent, "--tasks", str(dataset), "--base-url", url, "--model", "m",
               "--out", str(tmp_path / "o"))  # fmt: skip
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 2 and url in err and "does not answer" in err and "Traceback" not in err
    assert not (tmp_path / "o").exists()


def test_exit_1_when_no_episode_reached_the_model(dataset, endpoint, snapshot_cache, tmp_path):
    proc = cli(snapshot_cache.root.parent, "--tasks", str(dataset), "--base-url", endpoint, "--model", "down",
               "--retries", "0", "--limit", "4", "--baselines", "none", "--out", str(tmp_path / "o"))  # fmt: skip
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 1, err
    assert "no episode got an answer from the model" in err and endpoint in err
    assert {r["status"] for r in load_results(tmp_path / "o")} == {"transport_error"}


def test_ctrl_c_prints_the_summary_and_keeps_the_journal(dataset, endpoint, snapshot_cache, tmp_path):
    cache = snapshot_cache.root.parent
    args = ["--tasks", str(dataset), "--base-url", endpoint, "--model", "slow", "--concurrency", "1",
            "--baselines", "none", "--out", str(tmp_path / "o")]  # fmt: skip
    proc = cli(cache, *args)
    journal = tmp_path / "o" / "results.partial.jsonl"
    deadline = time.monotonic() + 120
    while not (journal.exists() and len(journal.read_text().splitlines()) >= 2):
        assert proc.poll() is None and time.monotonic() < deadline, "the run ended before Ctrl-C"
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    kept = len(journal.read_text().splitlines())
    assert 2 <= kept < 30 and "Traceback" not in err
    assert f"{kept} tasks, 0 errored" in out and "--resume" in err
    again = cli(cache, *args, "--resume", "--concurrency", "8")
    out, err = again.communicate(timeout=300)
    assert again.returncode == 0, err
    assert len(load_results(tmp_path / "o")) == 30 and not journal.exists()


def _own(task) -> list[dict[str, Any]]:
    """The reference conversation after the system prompt and the task's earlier turns."""
    return messages(task)[1 + len(task.history) :]


def test_a_read_only_answer_must_carry_the_facts_asked_and_come_from_a_call(tasks):
    read_only = [t for t in tasks if t.gold_calls() and not t.expected_diff and t.kind == "tool"]
    facts = [
        t
        for t in read_only
        if any(c["check"] == "facts" and c["facts"] for c in judge(t, _own(t), "ok", True)["checks"])
    ]
    assert facts, "the set needs a read-only task whose answer states facts"
    for t in facts:
        own = _own(t)
        assert judge(t, own, "ok", True)["success"] is True
        vague = [*own[:-1], {"role": "assistant", "content": "I looked it up for you."}]
        failed = [c for c in judge(t, vague, "ok", True)["checks"] if not c["passed"]]
        assert [c["check"] for c in failed] == ["facts"] and failed[0]["found"] < failed[0]["needed"]
        told = [m for m in own if m["role"] in ("user", "assistant") and not m.get("tool_calls")]
        verdict = judge(t, told, "ok", True)  # the right words without a call: made up, not looked up
        assert verdict["success"] is False
        assert judge(t, own, "step_limit", True)["success"] is False
        assert judge(t, own, "transport_error", None) == {"success": None, "checks": []}


def test_a_clarify_turn_must_ask_and_an_abstain_task_must_not_call(tasks):
    clarify = next(t for t in tasks if t.kind == "clarify" and not t.turns[0].calls)
    own = _own(clarify)
    assert judge(clarify, own, "ok", True)["success"] is True
    first_answer = next(i for i, m in enumerate(own) if m["role"] == "assistant")
    flat = [*own[:first_answer], {"role": "assistant", "content": "OK."}, *own[first_answer + 1 :]]
    assert judge(clarify, flat, "ok", True)["success"] is False
    abstain = next(t for t in tasks if t.kind == "abstain")
    assert judge(abstain, _own(abstain), "ok", True)["success"] is True
    tool = abstain.tools[0]["function"]["name"]
    called = [_own(abstain)[0], {"role": "assistant", "content": None, "tool_calls": [
        {"id": "c", "type": "function", "function": {"name": tool, "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "c", "content": "{}"}, _own(abstain)[-1]]  # fmt: skip
    assert [c["check"] for c in judge(abstain, called, "ok", True)["checks"] if not c["passed"]] == [
        "no_call"
    ]


def test_eval_and_the_training_recipe_share_one_default_preset():
    from rollout.run import DEFAULT_PRESET
    from toolground.cmd_eval import EVAL_PRESET

    recipe = (REPO / "examples" / "train_trl.py").read_text()
    assert EVAL_PRESET == DEFAULT_PRESET == "prove+paths"
    assert f'env_reward("{EVAL_PRESET}")' in recipe
