"""verl 0.9.1 integration through verl's own code, in its own venv (``.venv-verl``, made by ``make test``).

``tests/clients/verl_tool.py`` runs there on real generated tasks: the exported YAML loaded by
verl's tool loader, our ``BaseTool`` driven as ``ToolAgentLoop._call_tool`` drives it (create /
execute / release per call), and verl's ``AgentLoopWorker`` over verl's ``RLHFDataset`` rows with
a scripted LLM server, rewarded by verl's ``RewardLoopWorker`` + ``NaiveRewardManager`` with
``rollout.verl.compute_score`` loaded from the config. The module-level tests need no verl.
"""

from __future__ import annotations

import json
import subprocess

import pytest
import yaml

from contract.load import load_tasks
from rewards.config import get_config
from rollout.verl import HASH_FIELD, compute_score
from rollout.verl_config import agent_loop_config, global_schemas, recommended_settings, tool_config
from tests.serving import REPO, run_cli, running_server, server_env
from toolground.cli import main

VERL_PYTHON = REPO / ".venv-verl" / "bin" / "python"
SCRIPT = REPO / "tests" / "clients" / "verl_tool.py"
needs_verl = pytest.mark.skipif(
    not VERL_PYTHON.exists(), reason="`make test` creates .venv-verl with verl 0.9.1 (uv pip install)"
)


@pytest.fixture(scope="module")
def dataset(tmp_path_factory):
    root = tmp_path_factory.mktemp("verl")
    out = root / "data"
    args = ["--domains", "banking", "--n", "16", "--seed", "1", "--scale", "small", "--quiet"]
    res = run_cli(
        root, "generate", *args, "--strip-enums", "0.4", "--out", str(out), "--format", "jsonl,parquet"
    )
    assert res.returncode == 0, res.stderr[-2000:]
    return root, out


def test_exported_yaml_per_dataset(dataset, capsys):
    root, out = dataset
    tools_yaml = root / "cfg" / "tools.yaml"
    assert main(["verl-tools", "--tasks", str(out), "--out", str(tools_yaml)]) == 0
    printed = capsys.readouterr().out
    tasks = load_tasks(out)
    listed = yaml.safe_load(tools_yaml.read_text())  # YAML (written as JSON, which YAML reads)
    names = sorted({s["function"]["name"] for t in tasks for s in t.tools})
    assert [e["tool_schema"]["function"]["name"] for e in listed["tools"]] == names
    assert {e["class_name"] for e in listed["tools"]} == {"rollout.verl.ToolgroundTool"}
    assert listed == tool_config(tasks)
    assert yaml.safe_load((root / "cfg" / "agent_loop.yaml").read_text()) == agent_loop_config()
    settings = recommended_settings(tasks)
    assert f"multi_turn.max_parallel_calls={settings['max_parallel_calls']}" in printed
    assert "custom_reward_function.path=pkg://rollout.verl" in printed
    longest = max(len(json.dumps(c.result, separators=(",", ":"))) for t in tasks for c in t.gold_calls())
    assert settings["longest_gold_result"] == longest <= settings["max_tool_response_length"]
    # the YAML keeps the fullest variant of each name; stripped variants exist in the rows
    full = {s["function"]["name"]: s for s in global_schemas(tasks)}
    assert any(s != full[s["function"]["name"]] for t in tasks for s in t.tools), "expect stripped enums"


def test_verl_tools_refuses_a_missing_dataset(tmp_path, capsys):
    assert main(["verl-tools", "--tasks", str(tmp_path / "nope"), "--out", str(tmp_path / "t.yaml")]) == 2
    assert "no tasks at" in capsys.readouterr().err


def test_compute_score_takes_success_from_the_episode_state(dataset):
    _, out = dataset
    tasks = [t for t in load_tasks(out) if t.writes and t.expected_state_hash]
    task = tasks[0]
    gt = task.model_dump_json()
    # no calls in the text: the replay says the state was not reached
    plain = compute_score("toolground/banking", "I did it.", gt, {}, preset="prove+outcome")
    assert plain["state_checked"] == 0.0 and plain["outcome"] < 1.0
    # the episode reports the expected final state: success, by the live state
    live = compute_score(
        "toolground/banking", "I did it.", gt, {HASH_FIELD: task.expected_state_hash}, preset="prove+outcome"
    )
    assert live["state_checked"] == live["state_match"] == live["outcome"] == 1.0
    w_out = get_config("prove+outcome").w_out
    assert live["score"] == pytest.approx(plain["score"] + w_out * (1.0 - plain["outcome"]))
    assert set(live) == set(plain)
    kept = compute_score(
        "toolground/banking",
        "I did it.",
        gt,
        {HASH_FIELD: task.expected_state_hash},
        preset="prove+outcome",
        state_outcome=False,
    )
    assert kept["score"] == plain["score"] and kept["state_match"] == 1.0


@needs_verl
def test_verl_runs_our_tool_loop_and_reward(dataset):
    root, out = dataset
    cfg = root / "cfg"
    if not (cfg / "tools.yaml").exists():
        assert main(["verl-tools", "--tasks", str(out), "--out", str(cfg / "tools.yaml")]) == 0
    cache = root / "cache"
    with running_server(cache, "--domains", "banking", "--scale", "small") as base:
        res = subprocess.run(
            [str(VERL_PYTHON), str(SCRIPT), str(out), str(cfg / "tools.yaml"), str(cfg / "agent_loop.yaml")]
            + [str(root / "work"), base + "/mcp"],
            capture_output=True,
            text=True,
            env=server_env(cache),
            cwd=root,
            timeout=600,
        )
    assert res.returncode == 0, res.stderr[-4000:]
    seen = json.loads(res.stdout.strip().splitlines()[-1])
    tasks = load_tasks(out)
    assert seen["loaded"] == len({s["function"]["name"] for t in tasks for s in t.tools})
    assert seen["all_ours"]

    life = seen["lifecycle"]  # a deposit of 7 and one of 5 in trajectory A, nothing in B
    assert life["a_after"] == pytest.approx(life["start"] + 12)  # calls accumulate across cycles
    assert life["b_after"] == pytest.approx(life["start"])  # B never sees A's deposits
    assert "does not exist" in life["error"]["error"]
    assert "must be a number" in life["wrong_type"]["error"]
    assert life["a_calls"] == 6 and life["a_hash"] != life["b_hash"]
    assert life["live_before"] == 2 and life["live_after"] == 0  # freed with the AgentData

    unknown, not_json = seen["refusals"]
    assert "unknown tool" in unknown["error"] and "not valid JSON" in not_json["error"]

    rows = seen["loop"]["rows"]
    assert len(rows) == len(tasks) and seen["loop"]["live_after"] == 0
    assert all(r["shown_equals_offered"] for r in rows)
    assert any(r["differs_from_yaml"] for r in rows), "a row whose schemas differ from the global YAML"
    for r in rows:
        assert r["verl_score"] == pytest.approx(r["inproc_score"], abs=1e-5), r["task_id"]
    complete = [r for r in rows if r["kind"] == "tool" and r["turns"] == 1]
    assert complete and all(r["state_checked"] == r["state_match"] == 1.0 for r in complete)
    assert all(r["verl_score"] == pytest.approx(1.8, abs=1e-5) for r in complete)

    mcp = seen["mcp"]
    assert mcp["a"] == pytest.approx(mcp["b"] + 9) and "does not exist" in mcp["error"]["error"]
    assert mcp["during"] == 2 and mcp["after"] == 0


@needs_verl
def test_skyrl_text_env_replays_the_reference_conversation(dataset):
    root, out = dataset
    res = subprocess.run(
        [str(VERL_PYTHON), str(REPO / "tests" / "clients" / "verl_skyrl.py"), str(out)],
        capture_output=True,
        text=True,
        env=server_env(root / "cache"),
        cwd=root,
        timeout=300,
    )
    if res.returncode != 0 and "No module named 'skyrl_gym'" in res.stderr:
        pytest.skip("skyrl-gym is not in .venv-verl (rebuild it: rm -r .venv-verl && make test)")
    assert res.returncode == 0, res.stderr[-4000:]
    seen = json.loads(res.stdout.strip().splitlines()[-1])
    rows = seen["rows"]
    assert len(rows) == 16 and any(r["turns"] > 1 for r in rows)
    for r in rows:  # SkyRL's BaseTextEnv, the task's own prompt, every observation as in the reference
        assert r["base"] and r["prompt_is_reference"] and r["observations_are_reference"], r["task_id"]
        assert r["done"] and r["reward"] == pytest.approx(r["inproc"]), r["task_id"]
    assert all(r["state_match"] == 1.0 for r in rows if r["kind"] == "tool")  # later turns too
    assert "does not exist" in seen["bad"][0]["content"] and '{"error"' in seen["junk"][0]["content"]
    assert seen["done"] is False


def test_a_failed_call_in_verl_s_result_format_loses_validity(dataset):
    """verl's response text (Qwen chat format, results as ``<tool_response>`` blocks): a call the
    episode failed, written the way the tool and the loop return it, costs validity level 3,
    whether the reward replays the calls or takes the results as written."""
    _, out = dataset
    task = next(t for t in load_tasks(out) if t.kind == "tool" and len(t.turns) == 1 and t.writes)
    gold = task.gold_calls()
    blocks = "".join(
        f'<tool_call>\n{{"name": "{c.name}", "arguments": {json.dumps(c.arguments)}}}\n</tool_call>'
        for c in gold
    )

    def text(first_result: str) -> str:
        results = [first_result, *(json.dumps(c.result) for c in gold[1:])]
        shown = "\n".join(f"<tool_response>\n{r}\n</tool_response>" for r in results)
        return (
            f"{blocks}<|im_end|>\n<|im_start|>user\n{shown}<|im_end|>\n<|im_start|>assistant\nDone.<|im_end|>"
        )

    truth = json.dumps(task.model_dump(mode="json"))
    ok = text(json.dumps(gold[0].result))
    failed = text(
        json.dumps({"error": f"unknown tool {gold[0].name!r}"})
    )  # verl's refusal, as our loop marks it
    for preset in ({"preset": "prove"}, {"preset": "prove", "exec_check": "trajectory"}):
        kwargs = {"config": preset}
        good = compute_score("toolground/banking", ok, truth, {}, **kwargs)
        bad = compute_score("toolground/banking", failed, truth, {}, **kwargs)
        assert good["validity"] == 1.0 and bad["validity"] < 1.0, preset
        assert bad["score"] < good["score"]
