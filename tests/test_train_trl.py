"""GRPO with the real TRL (1.16, CPU torch) on toolground environments, in a second venv.

``tests/clients/trl_grpo.py`` runs under ``.venv-train`` on 8 generated banking tasks with a tiny
model built on the spot (no download): two GRPO steps in process, one over MCP against a
``toolground serve`` started here, and the HF chat-template check. It prints the facts; the
assertions are here.

The policy is a test double in one place: the tiny model cannot write a tool call, so the
script's ``ScriptedGenerate`` replaces ``model.generate``. For the planned rows (gold calls, a
call with wrong values, a call to a tool that does not exist) it returns the task's next
reference assistant message as tokens; the other rows are sampled from the model. TRL does the
rest unchanged: parsing, running the calls in the environments, tool results, regeneration,
reward and loss.
"""

from __future__ import annotations

import json
import subprocess
import sys

import httpx
import pytest

from tests.serving import REPO, running_server, server_env

TRAIN_PYTHON = REPO / ".venv-train" / "bin" / "python"
SCRIPT = REPO / "tests" / "clients" / "trl_grpo.py"

needs_train_venv = pytest.mark.skipif(
    not TRAIN_PYTHON.exists(),
    reason="`make test` creates .venv-train (TRL 1.16, CPU torch); `make .venv-train/.installed` alone",
)


def run_trl(root) -> dict:
    """Generate the tasks, serve them, run the script under .venv-train; its facts plus the
    server's sessions after the script exited."""
    cache, data = root / "cache", root / "data"
    generate = [sys.executable, "-m", "toolground", "generate", "--domains", "banking", "--n", "8"]
    generate += [
        "--seed",
        "19",
        "--scale",
        "small",
        "--distractors",
        "0",
    ]  # banking alone: one world to build
    generate += ["--format", "jsonl,hf,chat", "--quiet", "--out", str(data)]
    made = subprocess.run(
        generate, env=server_env(cache), cwd=REPO, capture_output=True, text=True, timeout=300
    )
    assert made.returncode == 0, made.stderr[-2000:]
    env = server_env(cache) | {
        "HF_HUB_OFFLINE": "1",  # nothing is downloaded: the model and tokenizer are built locally
        "HF_DATASETS_OFFLINE": "1",
        "HF_HOME": str(root / "hf"),
        "TRANSFORMERS_VERBOSITY": "error",
        "TOKENIZERS_PARALLELISM": "false",
    }
    with running_server(cache, "--domains", "banking", "--scale", "small") as base:
        run = subprocess.run(
            [str(TRAIN_PYTHON), str(SCRIPT), str(data), str(root / "work"), "--mcp", base + "/mcp"],
            env=env,
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert run.returncode == 0, run.stderr[-4000:]
        out = json.loads(run.stdout.strip().splitlines()[-1])
        out["served_after_exit"] = httpx.get(base + "/admin/sessions").json()["ids"]
    return out


@needs_train_venv
def test_grpo_with_trl_runs_tool_calls_on_private_forks(tmp_path):
    """One run (about a minute), so one test: xdist would start it once per worker otherwise."""
    facts = run_trl(tmp_path)
    check_two_grpo_steps_ran_tool_calls_in_the_environments(facts)
    check_a_complete_gold_rollout_ends_in_the_expected_state_with_the_top_reward(facts)
    check_a_failed_call_loses_validity_in_trl_s_error_format_and_in_ours(facts)
    check_the_model_is_shown_each_task_s_exact_schemas(facts)
    check_over_mcp_sessions_run_the_calls_and_are_released(facts)
    check_chat_rows_render_arguments_as_objects_and_tasks_rows_double_encode(facts)


def rollouts(section: dict, kind: str) -> list[dict]:
    got = [r for r in section["per_rollout"] if r["kind"] == kind]
    assert got, f"no {kind} rollout in {[r['kind'] for r in section['per_rollout']]}"
    return got


def check_two_grpo_steps_ran_tool_calls_in_the_environments(facts):
    run = facts["inproc"]
    assert run["steps"] == 2 and run["scripted_generate_calls"] > 0
    assert run["calls"] >= 10 and run["rollouts"] == 8  # 4 prompts x 2 generations
    assert run["classes"] >= 2  # enum-stripped schemas are another tool set, so another class
    assert run["instances"] >= 2  # TRL pooled and reused them across the two steps
    assert any(entry.get("tools/call_frequency", 0) > 0 for entry in run["log"])
    assert any("toolground/state_match" in entry for entry in run["log"])


def check_a_complete_gold_rollout_ends_in_the_expected_state_with_the_top_reward(facts):
    for r in rollouts(facts["inproc"], "gold_write"):
        assert r["state_matches"] is True and r["failed"] == 0 and r["calls"] >= 2
        assert r["total"] == pytest.approx(r["top"])


def check_a_failed_call_loses_validity_in_trl_s_error_format_and_in_ours(facts):
    scored = facts["formats"]  # the gold completion with its first tool result swapped
    assert scored["ok"] == 1.0
    assert scored["trl_repr"] < 1.0 and scored["json_error"] < 1.0
    # in the loop, each of these groups has one failing rollout and one gold one
    bad = rollouts(facts["inproc"], "bad_args")  # the environment answered {"error": ...}
    failing = [r for r in bad if r["json_error_format"]]
    assert len(failing) == 1 and failing[0]["failed"] == 1 and failing[0]["validity"] < 1.0
    unknown = rollouts(facts["inproc"], "unknown_tool")  # TRL failed it itself: {'error': ...}
    failing += [r for r in unknown if r["trl_error_format"]]
    assert len(failing) == 2 and failing[1]["validity"] < 1.0
    for r in bad + unknown:
        if r not in failing:
            assert (
                r["validity"] == 1.0 and r["state_matches"] is True and r["total"] == pytest.approx(r["top"])
            )
    # different rewards within those groups: the GRPO loss had a gradient in both steps
    norms = [entry["grad_norm"] for entry in facts["inproc"]["log"] if "grad_norm" in entry]
    assert len(norms) == 2 and min(norms) > 0


def check_the_model_is_shown_each_task_s_exact_schemas(facts):
    shown = facts["inproc"]["schemas"]
    assert shown["prompts_checked"] > 0 and shown["prompts_exact"] == shown["prompts_checked"]
    assert facts["inproc"]["derived_schema_lost_keys"] > 50  # what type hints would have lost


def check_over_mcp_sessions_run_the_calls_and_are_released(facts):
    run = facts["mcp"]
    assert run["steps"] == 1 and run["calls"] > 0
    for r in rollouts(run, "gold_write"):
        assert r["state_matches"] is True  # the server session's own state hash
        assert r["total"] == pytest.approx(r["top"])
    assert run["live_sessions"] and set(run["live_sessions"]) <= set(run["served_sessions"])
    assert run["released_on_reset"] and run["released_on_close"]
    leftover = [sid for sid in facts["served_after_exit"] if sid.startswith(run["session_prefix"])]
    assert leftover == [], "TRL has no teardown hook: the finalizers must delete the sessions at exit"


def check_chat_rows_render_arguments_as_objects_and_tasks_rows_double_encode(facts):
    chat, tasks = facts["chat"]["chat"], facts["chat"]["tasks"]
    assert chat["blocks"] > 0
    assert (
        chat["object_arguments"] == chat["decoded_dicts"] == chat["blocks"] and chat["string_arguments"] == 0
    )
    assert tasks["blocks"] == chat["blocks"] and tasks["double_encoded"] == tasks["blocks"]


# -- the adapter itself, without TRL (main venv) -----------------------------------------------


@pytest.fixture(scope="module")
def small_tasks(snapshot_cache):
    from querygen.generate import GenConfig, Generator

    made, _ = Generator(GenConfig(domains=("banking",), n=8, seed=1, scale="small"), snapshot_cache).run()
    return made


@pytest.fixture(scope="module")
def pool(snapshot_cache):
    from rewards.replay import EnvPool

    return EnvPool(snapshot_cache)


def single_write(tasks):
    return next(t for t in tasks if t.kind == "tool" and len(t.turns) == 1 and t.writes)


def gold_completion(env, task):
    """Run the task's first-turn gold calls on ``env`` as TRL would, and return TRL's completion
    (a turn-level task's earlier turns are its prompt, so they are skipped)."""
    from contract.messages import messages

    out = []
    for m in messages(task)[2 + len(task.history) :]:
        if m["role"] == "user":
            break
        if m["role"] != "assistant":
            continue
        calls = [
            (c["function"]["name"], json.loads(c["function"]["arguments"])) for c in m.get("tool_calls") or []
        ]
        if not calls:
            out.append({"role": "assistant", "content": m["content"]})
            continue
        out.append(
            {
                "role": "assistant",
                "content": "",
                "tool_calls": [
                    {"type": "function", "function": {"name": n, "arguments": a}} for n, a in calls
                ],
            }
        )
        out += [{"role": "tool", "name": n, "content": getattr(env, n)(**a)} for n, a in calls]
    return out


def test_one_class_per_tool_set_whose_tools_are_the_tasks_exact_schemas(small_tasks, pool):
    import inspect

    from rollout.trl import environments, tool_set_key

    envs = environments(small_tasks, pool=pool)
    assert len(envs.factory) == len({tool_set_key(t.tools) for t in small_tasks}) >= 2
    for row, task in zip(envs.dataset, small_tasks, strict=True):
        cls = envs.factory[row["environment"]]
        assert row["prompt"][-1]["content"] == task.turns[0].user
        public = {n for n, _ in inspect.getmembers(cls, inspect.isfunction) if not n.startswith("_")}
        assert public == {t["function"]["name"] for t in task.tools} | {"reset"}  # what TRL takes as tools
        env = cls()
        for schema in task.tools:
            shown = getattr(env, schema["function"]["name"])  # what TRL hands the chat template
            assert isinstance(shown, dict) and json.dumps(shown) == json.dumps(schema) and callable(shown)


def test_reset_binds_the_row_s_task_and_every_failure_is_a_json_error(small_tasks, pool):
    from rollout.trl import environments

    envs = environments(small_tasks, pool=pool)
    task = single_write(small_tasks)
    row = next(r for r, t in zip(envs.dataset, small_tasks, strict=True) if t.id == task.id)
    env = envs.factory[row["environment"]]()
    assert json.loads(env.banking_get_balance(account="ACC-000001"))["error"]  # no task yet
    env.reset(**row)
    start = env.session.state_hash()
    gold_completion(env, task)
    assert env.session.state_matches() is True and env.failed == 0
    for result in (
        env.banking_get_balance(account="ACC-999999"),  # the tool's own refusal
        env.banking_get_balance(account="ACC-000001", colour="blue"),  # an argument it does not take
        env.banking_get_balance(),  # a missing one
    ):
        assert set(json.loads(result)) == {"error"}
    episode = env.session
    env.reset(**row)  # the next rollout of the same task: same episode, back at the start
    assert env.session is episode and env.session.state_hash() == start and env.calls == 0
    other = next(r for r in envs.dataset if r["environment"] != row["environment"])
    with pytest.raises(ValueError, match="offers other tools"):
        env.reset(**other)
    assert envs.counters.failed == 3 and envs.counters.calls == 3 + len(task.gold_calls())


def test_env_reward_scores_each_instance_s_task_and_trusts_its_live_state(small_tasks, pool):
    from rewards.config import get_config
    from rollout.trl import env_reward, environments

    envs = environments(small_tasks, pool=pool)
    task = single_write(small_tasks)
    row = next(r for r, t in zip(envs.dataset, small_tasks, strict=True) if t.id == task.id)
    env = envs.factory[row["environment"]]()
    env.reset(**row)
    completion = gold_completion(env, task)
    reward, cfg = env_reward("prove+outcome"), get_config("prove+outcome")
    logged = {}
    assert reward(completions=[completion], environments=[env], log_metric=logged.__setitem__) == [
        cfg.max_total
    ]
    assert logged["toolground/state_match"] == 1.0 and reward.last_results[0].state_matches is True
    env.reset(**row)  # the same completion, but this rollout's world never saw the calls
    (total,) = reward(completions=[completion], environments=[env])
    assert reward.last_results[0].result.total == cfg.max_total  # the replay alone would say success
    assert total == pytest.approx(cfg.max_total - cfg.w_out)  # the live state says otherwise
    with pytest.raises(TypeError, match="environment_factory"):
        reward(completions=[completion])


def test_turn_level_rows_train_each_turn_from_the_state_the_earlier_turns_left(
    snapshot_cache, pool, tmp_path
):
    """``--format turns`` rows (verl's parquet shape, earlier turns in the prompt) through the
    adapter: each instance starts in the state the earlier turns' calls left, and the gold of the
    turn alone reaches the expected state with the top reward."""
    import datasets

    from contract import load_task
    from querygen.generate import GenConfig, Generator
    from querygen.out.export import write_dataset
    from rewards.config import get_config
    from rollout.trl import env_reward, environments

    made, _ = Generator(GenConfig(domains=("banking",), n=30, seed=5, scale="small"), snapshot_cache).run()
    write_dataset(tmp_path, made, ["turns", "parquet"], cache=snapshot_cache)
    rows = datasets.load_dataset("parquet", data_files=str(tmp_path / "turns.parquet"), split="train")
    envs = environments(rows, pool=pool)
    later = [r for r in envs.dataset if load_task(r).setup and load_task(r).gold_calls()]
    assert later, "the fixture needs multi-turn tasks"
    reward, top = env_reward("prove+outcome"), get_config("prove+outcome").max_total
    for row in later:
        task = load_task(row)
        env = envs.factory[row["environment"]]()
        env.reset(**row)
        assert row["prompt"][-1]["content"] == task.turns[0].user and len(row["prompt"]) > 2
        completion = gold_completion(env, task)
        assert env.session.state_matches() is True, task.id
        (total,) = reward(completions=[completion], environments=[env])
        scored = reward.last_results[0].result.components
        assert scored["validity"] == scored["coverage"] == scored["arg"] == 1.0, task.id
        if task.writes:  # the live state decides the outcome: reached, so the top reward
            assert total == pytest.approx(top), task.id
    assert any(load_task(r).writes for r in later)
