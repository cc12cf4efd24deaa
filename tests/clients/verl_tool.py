"""Runs under verl 0.9.1 (``.venv-verl``): toolground's verl tool, loop and reward through verl's own code.

Usage: python verl_tool.py DATASET_DIR TOOLS_YAML LOOP_YAML WORKDIR [MCP_URL]
  -> prints one JSON line with what it saw (the test asserts on it).

No GPU and no model: a byte-level tokenizer with a small chat template of our own, and a scripted
"LLM server" that answers with each task's gold tool calls in Hermes ``<tool_call>`` text. The
rest is verl's: its tool-config loader, ``AgentLoopWorker.generate_sequences`` over verl's
``RLHFDataset`` rows (the agent-loop registry from ``agent_loop_config_path``, the tool parser,
``_call_tool``, continuous-token merging, padding) and the ``RewardLoopWorker`` with
``NaiveRewardManager`` and the custom reward function loaded from the config.
"""

from __future__ import annotations

import asyncio
import gc
import json
import sys
from pathlib import Path
from typing import Any

TEMPLATE = (
    "{%- if tools %}<|im_start|>tools\n{% for t in tools %}{{ t | tojson }}\n{% endfor %}<|im_end|>\n{% endif -%}"
    "{%- for m in messages -%}"
    "{%- if m.role == 'tool' -%}"
    "<|im_start|>user\n<tool_response>\n{{ m.content }}\n</tool_response><|im_end|>\n"
    "{%- else -%}"
    "<|im_start|>{{ m.role }}\n{% if m.content is string %}{{ m.content }}{% endif %}"
    "{%- for c in m.tool_calls or [] %}<tool_call>\n"
    '{"name": {{ c.function.name | tojson }}, "arguments": {{ c.function.arguments | tojson }}}'
    "\n</tool_call>{% endfor %}<|im_end|>\n"
    "{%- endif -%}"
    "{%- endfor -%}"
    "{%- if add_generation_prompt %}<|im_start|>assistant\n{% endif -%}"
)


def tiny_model(folder: Path) -> Path:
    """A tokenizer (bytes only: every text round-trips) and a model config, no weights."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers
    from transformers import PreTrainedTokenizerFast

    alphabet = sorted(pre_tokenizers.ByteLevel.alphabet())
    core = Tokenizer(models.BPE(vocab={ch: i for i, ch in enumerate(alphabet)}, merges=[]))
    core.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)
    core.decoder = decoders.ByteLevel()
    tok = PreTrainedTokenizerFast(tokenizer_object=core, eos_token="</s>", pad_token="<pad>")
    tok.chat_template = TEMPLATE
    folder.mkdir(parents=True, exist_ok=True)
    tok.save_pretrained(folder)
    config = {
        "architectures": ["GPT2LMHeadModel"],
        "model_type": "gpt2",
        "vocab_size": len(tok),
        "n_embd": 8,
        "n_layer": 1,
        "n_head": 1,
        "n_positions": 1 << 20,
    }
    (folder / "config.json").write_text(json.dumps(config))
    return folder


def gold_steps(task: Any) -> list[str]:
    """What the scripted model says in the first user turn: each gold step, then the answer."""
    from contract.messages import messages

    out: list[str] = []
    for m in messages(task)[2:]:
        if m["role"] == "user":
            break
        if m["role"] != "assistant":
            continue
        if m.get("tool_calls"):
            blocks = [
                json.dumps(
                    {"name": c["function"]["name"], "arguments": json.loads(c["function"]["arguments"])}
                )
                for c in m["tool_calls"]
            ]
            out.append("".join(f"<tool_call>\n{b}\n</tool_call>" for b in blocks) + "<|im_end|>\n")
        else:
            out.append(f"{m['content']}<|im_end|>\n")
            break
    return out


def first_turn(task: Any) -> list[dict[str, Any]]:
    """The gold conversation up to the second user message (what one verl rollout can hold)."""
    from contract.messages import messages

    conv = messages(task)
    cut = next((i for i, m in enumerate(conv) if i > 1 and m["role"] == "user"), len(conv))
    return conv[:cut]


class ScriptedServer:
    """verl's ``LLMServerClient`` contract (``generate``) answering with a task's gold steps."""

    def __init__(self, tokenizer: Any, scripts: dict[str, list[str]]) -> None:
        self.tokenizer, self.scripts, self.turn = tokenizer, scripts, {}
        self.prompts: dict[str, str] = {}

    async def generate(
        self, request_id: str, *, prompt_ids: list[int], sampling_params: Any, **kw: Any
    ) -> Any:
        from verl.workers.rollout.replica import TokenOutput

        text = self.tokenizer.decode(prompt_ids)
        user = text.split("<|im_start|>user\n", 1)[1].split("<|im_end|>", 1)[0]
        self.prompts.setdefault(user, text)
        n = self.turn[request_id] = self.turn.get(request_id, -1) + 1
        steps = self.scripts[user]
        reply = steps[n] if n < len(steps) else "Done.<|im_end|>\n"
        return TokenOutput(
            token_ids=self.tokenizer.encode(reply, add_special_tokens=False), stop_reason="completed"
        )


class _Remote:
    def __init__(self, fn: Any) -> None:
        self.fn = fn

    def remote(self, *args: Any, **kwargs: Any) -> Any:
        return self.fn(*args, **kwargs)


class InProcessHandle:
    """A Ray actor handle's ``.compute_score.remote(data)`` for a RewardLoopWorker in this process."""

    def __init__(self, worker: Any) -> None:
        self.compute_score = _Remote(worker.compute_score)


def verl_config(model: Path, tools_yaml: Path, loop_yaml: Path, parquet: Path) -> Any:
    import verl
    from omegaconf import OmegaConf

    base = Path(verl.__file__).parent / "trainer" / "config" / "_generated_ppo_trainer.yaml"
    cfg = OmegaConf.load(base)
    OmegaConf.set_struct(cfg, False)
    cfg.data.train_files = str(parquet)
    cfg.data.max_prompt_length = 200_000
    cfg.data.max_response_length = 200_000
    cfg.data.dataloader_num_workers = 0
    cfg.actor_rollout_ref.model.path = str(model)
    ro = cfg.actor_rollout_ref.rollout
    ro.name = "vllm"
    ro.agent.agent_loop_config_path = str(loop_yaml)
    mt = ro.multi_turn
    mt.enable, mt.format, mt.tool_config_path = True, "hermes", str(tools_yaml)
    mt.max_parallel_calls, mt.max_tool_response_length = 3, 16384
    mt.max_user_turns, mt.max_assistant_turns = 8, 9
    cfg.reward.custom_reward_function.path = "pkg://rollout.verl"
    cfg.reward.custom_reward_function.name = "compute_score"
    cfg.reward.custom_reward_function.reward_kwargs = {"preset": "prove+outcome"}
    return cfg


def agent_data(request_id: str, task_json: str) -> Any:
    from verl.experimental.agent_loop.tool_agent_loop import AgentData

    return AgentData(
        messages=[],
        image_data=None,
        video_data=None,
        audio_data=None,
        mm_processor_kwargs=None,
        metrics={},
        request_id=request_id,
        tools_kwargs={"toolground": {"task": task_json}},
    )


async def call_like_verl(tool: Any, args: dict[str, Any], data: Any) -> str:
    """What ``ToolAgentLoop._call_tool`` does for a BaseTool: create, execute, release, per call."""
    instance_id, _ = await tool.create(create_kwargs={})
    try:
        response, _, _ = await tool.execute(instance_id, args, agent_data=data)
    finally:
        await tool.release(instance_id)
    return response.text


async def lifecycle(tools: dict[str, Any], task_json: str) -> dict[str, Any]:
    """Private state, state kept across calls, marked errors, sessions freed with the AgentData."""
    from rollout.verl import CALLS_FIELD, HASH_FIELD, SESSIONS

    acct = {"account": "ACC-000001"}
    a, b = agent_data("traj-a", task_json), agent_data("traj-b", task_json)
    start = json.loads(await call_like_verl(tools["banking_get_balance"], acct, a))["balance"]
    await call_like_verl(tools["banking_deposit"], {**acct, "amount": 7}, a)
    await call_like_verl(tools["banking_deposit"], {**acct, "amount": 5}, a)
    a_after = json.loads(await call_like_verl(tools["banking_get_balance"], acct, a))["balance"]
    b_after = json.loads(await call_like_verl(tools["banking_get_balance"], acct, b))["balance"]
    error = json.loads(await call_like_verl(tools["banking_get_balance"], {"account": "ACC-999999"}, a))
    wrong_type = json.loads(await call_like_verl(tools["banking_deposit"], {**acct, "amount": "7"}, a))
    live_before = len(SESSIONS)
    fields = {"a_calls": a.extra_fields[CALLS_FIELD], "a_hash": a.extra_fields[HASH_FIELD]}
    fields["b_hash"] = b.extra_fields[HASH_FIELD]
    del a, b
    gc.collect()
    return {
        "start": start,
        "a_after": a_after,
        "b_after": b_after,
        "error": error,
        "wrong_type": wrong_type,
        "live_before": live_before,
        "live_after": len(SESSIONS),
        **fields,
    }


async def full_loop(cfg: Any, model: Path, tasks: list[Any], parquet: Path) -> dict[str, Any]:
    """verl's worker over verl's dataset rows with a scripted server, rewards by verl's reward loop."""
    from torch.utils.data import DataLoader
    from transformers import AutoTokenizer
    from verl import DataProto
    from verl.experimental.agent_loop.agent_loop import AgentLoopWorker
    from verl.experimental.reward_loop.reward_loop import RewardLoopWorker
    from verl.utils.dataset.rl_dataset import RLHFDataset, collate_fn

    from rollout.conversation import Conversation
    from rollout.episode import TaskEpisode
    from rollout.verl import SESSIONS

    tokenizer = AutoTokenizer.from_pretrained(model)
    scripts = {t.turns[0].user: gold_steps(t) for t in tasks}
    server = ScriptedServer(tokenizer, scripts)
    rewards = RewardLoopWorker(cfg)
    worker = AgentLoopWorker(cfg, server, reward_loop_worker_handles=[InProcessHandle(rewards)])
    dataset = RLHFDataset(data_files=str(parquet), tokenizer=tokenizer, config=cfg.data)
    batch = next(iter(DataLoader(dataset, batch_size=len(dataset), collate_fn=collate_fn, shuffle=False)))
    data = DataProto.from_single_dict(batch)
    out = await worker.generate_sequences(data)

    from omegaconf import OmegaConf

    listed = OmegaConf.to_container(OmegaConf.load(cfg.actor_rollout_ref.rollout.multi_turn.tool_config_path))
    registered = {e["tool_schema"]["function"]["name"]: e["tool_schema"] for e in listed["tools"]}
    by_id = {t.id: t for t in tasks}
    rows = []
    scores = out.batch["rm_scores"].sum(dim=-1).tolist()
    for i, extra in enumerate(data.non_tensor_batch["extra_info"]):
        task = by_id[extra["task_id"]]
        shown_text = server.prompts[task.turns[0].user]
        shown_block = shown_text.split("<|im_start|>tools\n", 1)[1].split("<|im_end|>", 1)[0]
        shown = [json.loads(line) for line in shown_block.splitlines() if line.strip()]
        with TaskEpisode(task) as episode:
            inproc = Conversation(episode).score(first_turn(task), "prove+outcome").total
        rows.append(
            {
                "task_id": task.id,
                "kind": task.kind,
                "turns": len(task.turns),
                "writes": task.writes,
                "verl_score": scores[i],
                "inproc_score": inproc,
                "state_match": float(out.non_tensor_batch["state_match"][i]),
                "state_checked": float(out.non_tensor_batch["state_checked"][i]),
                "shown_equals_offered": shown == task.tools,
                "differs_from_yaml": any(registered[s["function"]["name"]] != s for s in task.tools),
                "offered_names": [s["function"]["name"] for s in task.tools],
                "shown_names": [s["function"]["name"] for s in shown],
                "calls": out.non_tensor_batch["toolground_calls"][i],
            }
        )
    gc.collect()
    return {"rows": rows, "live_after": len(SESSIONS)}


async def loop_refusals(cfg: Any, model: Path, task: Any) -> list[Any]:
    """Our loop marks verl's own refusals (unknown tool, non-JSON arguments) as errors."""
    from transformers import AutoTokenizer
    from verl.experimental.agent_loop.agent_loop import DictConfigWrap, ToolListWrap
    from verl.experimental.agent_loop.tool_parser import FunctionCall
    from verl.tools.tool_registry import initialize_tools_from_config
    from verl.utils.dataset.rl_dataset import RLHFDataset

    from rollout.verl import ToolgroundAgentLoop

    tokenizer = AutoTokenizer.from_pretrained(model)
    tools = initialize_tools_from_config(cfg.actor_rollout_ref.rollout.multi_turn.tool_config_path)
    loop = ToolgroundAgentLoop(
        trainer_config=DictConfigWrap(cfg),
        server_manager=None,
        tokenizer=tokenizer,
        processor=None,
        dataset_cls=RLHFDataset,
        data_config=DictConfigWrap(cfg.data),
        tools=ToolListWrap(tools),
    )
    data = agent_data("traj-r", task.model_dump_json())
    calls = [
        FunctionCall(name="banking_launch_rocket", arguments="{}"),
        FunctionCall(name="banking_get_balance", arguments="{not json"),
    ]
    return [json.loads((await loop._call_tool(c, {}, data))[0].text) for c in calls]


async def mcp_sessions(url: str, tools_by_name: dict[str, Any], task_json: str) -> dict[str, Any]:
    """The MCP backend: two trajectories, two env sessions on the server, both deleted afterwards."""
    import httpx

    from rollout.verl import Backend, ToolgroundTool

    base = url.rsplit("/mcp", 1)[0]
    schema = tools_by_name["banking_deposit"].tool_schema
    deposit = ToolgroundTool({"type": "native", "backend": "mcp", "mcp_url": url}, schema)
    balance = ToolgroundTool(
        {"type": "native", "mcp_url": url}, tools_by_name["banking_get_balance"].tool_schema
    )
    assert deposit.backend == Backend("mcp", url)
    acct = {"account": "ACC-000001"}
    a, b = agent_data("mcp-a", task_json), agent_data("mcp-b", task_json)
    await call_like_verl(deposit, {**acct, "amount": 9}, a)
    a_bal = json.loads(await call_like_verl(balance, acct, a))["balance"]
    b_bal = json.loads(await call_like_verl(balance, acct, b))["balance"]
    err = json.loads(await call_like_verl(balance, {"account": "ACC-999999"}, b))
    during = httpx.get(f"{base}/admin/sessions").json()["count"]
    del a, b
    gc.collect()
    after = httpx.get(f"{base}/admin/sessions").json()["count"]
    return {"a": a_bal, "b": b_bal, "error": err, "during": during, "after": after}


async def main(dataset: Path, tools_yaml: Path, loop_yaml: Path, work: Path, mcp_url: str | None) -> None:
    from verl.tools.tool_registry import initialize_tools_from_config

    from contract.load import load_tasks
    from rollout.verl import ToolgroundTool

    tasks = load_tasks(dataset)
    model = tiny_model(work / "model")
    cfg = verl_config(model, tools_yaml, loop_yaml, dataset / "train.parquet")
    tools = initialize_tools_from_config(str(tools_yaml))
    by_name = {t.name: t for t in tools}
    writes = next(t for t in tasks if t.domains == ["banking"] and t.snapshots)
    task_json = writes.model_dump_json()
    report: dict[str, Any] = {
        "loaded": len(tools),
        "all_ours": all(isinstance(t, ToolgroundTool) for t in tools),
        "lifecycle": await lifecycle(by_name, task_json),
        "refusals": await loop_refusals(cfg, model, writes),
        "loop": await full_loop(cfg, model, tasks, dataset / "train.parquet"),
    }
    if mcp_url:
        report["mcp"] = await mcp_sessions(mcp_url, by_name, task_json)
    print(json.dumps(report))


if __name__ == "__main__":
    args = sys.argv[1:]
    asyncio.run(
        main(Path(args[0]), Path(args[1]), Path(args[2]), Path(args[3]), args[4] if len(args) > 4 else None)
    )
