"""Trainer adapters (verl, TRL, OpenRLHF) and the two CLI commands."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import types

import httpx
import pytest

from rewards.adapters import compute_score, make_trl_reward, reward_func
from tests.serving import REPO, free_port, server_env
from toolground.cli import main

TASK = {
    "id": "t1",
    "gold_calls": [{"name": "f", "arguments": {"x": 1}}, {"name": "g", "arguments": {"y": "a"}}],
    "dependencies": [[0, 1]],
}
TEXT_GOOD = (
    '<tool_call>{"name": "f", "arguments": {"x": 1}}</tool_call>'
    "<tool_response>{}</tool_response>"
    '<tool_call>{"name": "g", "arguments": {"y": "a"}}</tool_call>'
)


def test_verl_compute_score_returns_score_and_stable_keys():
    gt = json.dumps(TASK)
    good = compute_score(
        data_source="toolground", solution_str=TEXT_GOOD, ground_truth=gt, extra_info={"index": 0}
    )
    bad = compute_score("toolground", "I refuse.", gt)
    assert good["score"] == pytest.approx(1.3) and bad["score"] == 0.0
    assert set(good) == set(bad) and all(isinstance(v, float) for v in good.values())
    msgs = [{"role": "assistant", "tool_calls": [{"function": {"name": "f", "arguments": '{"x": 1}'}}]}]
    via_messages = compute_score("toolground", "", {"task": TASK}, {"trajectory": msgs}, preset="recall")
    assert via_messages["score"] == 0.5


def test_trl_reward_function():
    reward = make_trl_reward("prove")
    conversational = [{"role": "assistant", "content": TEXT_GOOD}]
    out = reward(
        prompts=["p", "p", "p"],
        completions=[TEXT_GOOD, conversational, "nothing"],
        task=[TASK] * 3,
        trainer_state=None,
    )
    assert out[0] == pytest.approx(1.3) and out[1] == pytest.approx(1.3) and out[2] == 0.0
    assert reward.__name__ == "toolground_prove" and len(reward.last_results) == 3
    with pytest.raises(KeyError, match="'task' column"):
        reward(prompts=["p"], completions=["x"])


def test_openrlhf_reward_func_lists_and_tensors(monkeypatch):
    prompt = "PROMPT "
    out = reward_func([prompt + TEXT_GOOD, prompt + "no"], [prompt, prompt], [json.dumps(TASK)] * 2)
    assert out["rewards"][0] == pytest.approx(1.3) and out["scores"] == [1.0, 0.0]
    fake = types.SimpleNamespace(tensor=lambda xs: ("tensor", list(xs)))
    monkeypatch.setitem(sys.modules, "torch", fake)
    out = reward_func([prompt + TEXT_GOOD], [prompt], [TASK])
    assert out["rewards"][0] == "tensor" and out["extra_logs"]["coverage"] == ("tensor", [1.0])


# -- CLI ---------------------------------------------------------------------------------


def write_jsonl(path, rows) -> str:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return str(path)


def test_score_command_writes_results_and_a_summary(tmp_path, capsys):
    tasks = write_jsonl(tmp_path / "tasks.jsonl", [TASK, {**TASK, "id": "t2"}])
    trajs = write_jsonl(
        tmp_path / "trajs.jsonl",
        [
            {"task_id": "t2", "id": "a", "trajectory": TEXT_GOOD},
            [{"name": "f", "arguments": {"x": 1}}],  # bare: pairs with task on line 2
            {"task_id": "nope", "trajectory": []},
            {"task_index": 0, "trajectory": [{"name": "f", "arguments": 7}]},
        ],
    )
    out = tmp_path / "out" / "scores.jsonl"
    code = main(["score", "--tasks", tasks, "--trajectories", trajs, "--out", str(out), "--quiet"])
    assert code == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert rows[0]["id"] == "a" and rows[0]["task_id"] == "t2" and rows[0]["total"] == pytest.approx(1.3)
    assert rows[1]["task_id"] == "t2" and rows[1]["components"]["coverage"] == 0.5
    assert "no task has id 'nope'" in rows[2]["error"] and "arguments" in rows[3]["error"]
    printed = capsys.readouterr().out
    assert "2 scored, 2 errors" in printed and "coverage" in printed


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--preset", "greedy"], "unknown preset"),
        (["--config", "[1]"], "must be a JSON object"),
        (["--tasks", "/nonexistent.jsonl"], "cannot read tasks file"),
        (["--tasks", "BADTASK"], "task 1"),
    ],
)
def test_score_command_usage_errors(tmp_path, capsys, args, needle):
    tasks = write_jsonl(tmp_path / "tasks.jsonl", [TASK])
    bad = write_jsonl(tmp_path / "bad.jsonl", [{"gold_calls": [{"name": "f", "arguments": 1}]}])
    trajs = write_jsonl(tmp_path / "trajs.jsonl", [[]])
    argv = ["score", "--tasks", tasks, "--trajectories", trajs, "--out", str(tmp_path / "o.jsonl"), *args]
    argv = [bad if a == "BADTASK" else a for a in argv]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert needle in err and "Traceback" not in err


def test_reward_serve_command_runs_a_real_service(tmp_path):
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "toolground", "reward-serve", "--port", str(port), "--preset", "recall"],
        env=server_env(tmp_path / "cache"),
        cwd=REPO,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            assert proc.poll() is None, proc.stderr.read().decode()
            try:
                if httpx.get(base + "/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "reward-serve did not come up"
            time.sleep(0.1)
        assert httpx.get(base + "/health").json()["default_preset"] == "recall"
        r = httpx.post(base + "/score", json={"task": TASK, "trajectory": TEXT_GOOD})
        assert r.status_code == 200 and r.json()["total"] == 1.0
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_reward_serve_usage_errors(capsys):
    assert main(["reward-serve", "--preset", "nope"]) == 2
    assert main(["reward-serve", "--port", "0"]) == 2
    assert "unknown preset" in capsys.readouterr().err
