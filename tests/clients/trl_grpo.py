"""GRPO on toolground tasks with the real TRL: tool calls run on private forks during rollouts.

Usage: python trl_grpo.py DATA_DIR WORK_DIR [--mcp URL]  (run by tests/test_train_trl.py under
.venv-train). Prints one JSON line of facts the test asserts on.

1. Two GRPO steps with ``rollout.trl.environments`` (in process) and ``env_reward``.
2. With ``--mcp``: one step against ``toolground serve``; the script exits without closing that
   set, so the test sees whether the finalizers released the server sessions.
3. The chat-template check: ``chat.jsonl`` and ``tasks.jsonl`` rendered through TRL's Qwen2.5
   template.

The policy test double: the tiny model cannot write a tool call, so ``ScriptedGenerate`` replaces
``model.generate`` (the only thing replaced). For rows whose first user message belongs to a
planned task it returns the plan's next assistant message as tokens: the task's reference
messages, or for one of the two rollouts of some groups a deliberately failing call first (so the
group's rewards differ and the loss has a gradient); other rows are sampled from the model, cut at
``SAMPLED_TOKENS``. Everything else is TRL's:
parsing the ``<tool_call>`` blocks, running them in the environments, the tool-result suffix,
regeneration, the reward and the GRPO loss on those tokens.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from pathlib import Path
from typing import Any

STARTED = time.perf_counter()
os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent))

from trl_tiny import tiny_model, tiny_tokenizer, tool_call_text, training_texts  # noqa: E402

from contract import load_task  # noqa: E402
from contract.messages import messages  # noqa: E402
from contract.task import Task  # noqa: E402
from rewards.config import get_config  # noqa: E402
from rewards.score import score  # noqa: E402
from rollout.episode import error_content  # noqa: E402
from rollout.trl import Environments, env_reward, environments  # noqa: E402

PRESET = "prove+outcome"
END = "<|im_end|>"
MAX_COMPLETION = 640  # the longest planned rollout here, its tool results included, is ~450 tokens
SAMPLED_TOKENS = 96  # sampled rows are cut short: the untrained model only writes noise


# -- the scripted policy -------------------------------------------------------------------------


def turn0_steps(task: Task) -> list[dict[str, Any]]:
    """The reference assistant messages of the first turn (what TRL can show: one user turn)."""
    out: list[dict[str, Any]] = []
    for m in messages(task)[2:]:
        if m["role"] == "user":
            break
        if m["role"] == "assistant":
            out.append(m)
    return out


def step_text(message: dict[str, Any]) -> str:
    calls = message.get("tool_calls") or []
    if not calls:
        return str(message.get("content") or "") + END
    parts = [tool_call_text(c["function"]["name"], json.loads(c["function"]["arguments"])) for c in calls]
    return "\n".join(parts) + END


def plan(task: Task, kind: str) -> list[str]:
    """What the policy writes, message by message: ``gold``, a first call whose values are wrong
    (the environment answers ``{"error": ...}``), or a tool that does not exist (TRL itself fails it
    and writes its own error format), each followed by the gold messages."""
    gold = [step_text(m) for m in turn0_steps(task)]
    if kind == "bad_args":
        first = task.turns[0].calls[0]
        wrong = {k: f"WRONG-{v}" if isinstance(v, str) else v for k, v in first.arguments.items()}
        return [tool_call_text(first.name, wrong) + END, *gold]
    if kind == "unknown_tool":
        return [tool_call_text("banking_teleport_funds", {"account": "ACC-000001"}) + END, *gold]
    return gold


Plans = dict[str, tuple[Task, list[list[str]]]]  # first user message -> (task, alternative plans)


class ScriptedGenerate:
    """Stands in for ``model.generate``: planned rows get their next planned message as tokens.

    A task may have several alternative plans: the k-th row of a call showing a task's first
    prompt follows alternative k (the generations of one GRPO group), and later calls follow the
    alternative whose earlier messages the prompt holds."""

    def __init__(self, model: Any, tokenizer: Any, plans: Plans) -> None:
        self.original = model.generate
        self.tokenizer = tokenizer
        self.plans = plans
        self.calls = 0
        self.prompts: list[tuple[Task, str]] = []  # the prompts TRL rendered, for the schema check

    def _planned(self, text: str, starts: dict[str, int]) -> tuple[Task, str] | None:
        head = text.split("<|im_start|>user\n", 1)
        if len(head) < 2:
            return None
        user = head[1].split(END, 1)[0]
        got = self.plans.get(user)
        if got is None:
            return None
        task, alternatives = got
        done = text.count("<|im_start|>assistant") - 1  # the generation prompt opens one more
        if done == 0:
            k = starts[user] = starts.get(user, -1) + 1
            chosen = alternatives[k % len(alternatives)]
        else:
            chosen = next((a for a in alternatives if all(m in text for m in a[:done])), alternatives[0])
        return task, chosen[min(done, len(chosen) - 1)]

    def __call__(self, input_ids: Any = None, attention_mask: Any = None, **kwargs: Any) -> Any:
        import torch

        self.calls += 1
        tok = self.tokenizer
        rows: dict[int, list[int]] = {}
        sampled = []
        starts: dict[str, int] = {}
        for i in range(input_ids.size(0)):
            text = tok.decode(input_ids[i][attention_mask[i].bool()].tolist())
            got = self._planned(text, starts)
            if got is None:
                sampled.append(i)
                continue
            self.prompts.append((got[0], text))
            rows[i] = tok.encode(got[1], add_special_tokens=False)
        width = input_ids.size(1)
        if sampled:
            index = torch.tensor(sampled)
            kwargs = {**kwargs, "max_new_tokens": SAMPLED_TOKENS}
            out = self.original(input_ids=input_ids[index], attention_mask=attention_mask[index], **kwargs)
            for j, i in enumerate(sampled):
                rows[i] = out[j, width:].tolist()
        longest = max(len(r) for r in rows.values())
        pad = tok.pad_token_id
        full = [input_ids[i].tolist() + rows[i] + [pad] * (longest - len(rows[i])) for i in sorted(rows)]
        return torch.tensor(full, dtype=input_ids.dtype, device=input_ids.device)


# -- picking rows --------------------------------------------------------------------------------


def pick(tasks: list[Task]) -> dict[str, Task]:
    """Tasks by role: single-turn tool tasks on banking alone for the plans, any others sampled."""
    single = [t for t in tasks if t.kind == "tool" and len(t.turns) == 1 and t.turns[0].calls]
    banking = [t for t in single if {s.domain for s in t.snapshots} == {"banking"}]
    writes = [t for t in banking if t.writes]
    roles = {"gold_write": writes[0], "bad_args": writes[1], "unknown_tool": writes[2]}
    used = {t.id for t in roles.values()}
    roles["sampled"] = next(t for t in tasks if t.id not in used)
    return roles


def ordered(envs: Environments, roles: dict[str, Task], order: list[str]) -> Any:
    index = {load_task(row).id: i for i, row in enumerate(envs.dataset)}
    return envs.dataset.select([index[roles[r].id] for r in order])


# -- training ------------------------------------------------------------------------------------


def trainer_for(
    envs: Environments, train: Any, tok: Any, work: Path, steps: int, batch: int, records: list[Any]
) -> Any:
    from trl import GRPOConfig, GRPOTrainer

    reward = env_reward(PRESET)

    def recorded(**kwargs: Any) -> list[float]:
        totals = reward(**kwargs)
        for s, completion in zip(reward.last_results, kwargs["completions"], strict=True):
            records.append((s, completion))
        return totals

    recorded.__name__ = reward.__name__
    args = GRPOConfig(
        output_dir=str(work / "out"),
        per_device_train_batch_size=batch,
        num_generations=2,
        max_completion_length=MAX_COMPLETION,
        max_steps=steps,
        learning_rate=1e-4,
        logging_steps=1,
        report_to="none",
        save_strategy="no",
        use_cpu=True,
        bf16=False,
        gradient_checkpointing=False,  # a 200K-parameter model: recomputing costs more than it saves
        shuffle_dataset=False,
        disable_tqdm=True,
        seed=0,
    )
    model = tiny_model(tok)
    trainer = GRPOTrainer(
        model=model,
        args=args,
        processing_class=tok,
        train_dataset=train,
        environment_factory=envs.factory,
        reward_funcs=[recorded],
    )
    return trainer


def rollout_facts(records: list[Any], kinds: dict[str, str]) -> list[dict[str, Any]]:
    cfg = get_config(PRESET)
    out = []
    for s, completion in records:
        tool_texts = [m.get("content") for m in completion if m.get("role") == "tool"]
        out.append(
            {
                "task_id": s.task_id,
                "kind": kinds.get(s.task_id, "?"),
                "total": s.total,
                "top": cfg.abstain_reward if "abstention" in s.result.components else cfg.max_total,
                "validity": s.result.components.get("validity"),
                "outcome": s.outcome,
                "state_matches": s.state_matches,
                "calls": s.calls,
                "failed": s.failed,
                "tool_messages": len(tool_texts),
                "trl_error_format": any(str(t).startswith("{'error'") for t in tool_texts),
                "json_error_format": any(str(t).startswith('{"error"') for t in tool_texts),
            }
        )
    return out


def schema_facts(scripted: ScriptedGenerate) -> dict[str, Any]:
    """Every prompt TRL rendered shows each offered schema exactly as the task carries it."""
    checked = exact = 0
    for task, text in scripted.prompts:
        # the list itself: "<tools>\n" first opens it (the template names the tags before that)
        shown = text.split("<tools>\n", 1)[1].split("\n</tools>", 1)[0] if "<tools>\n" in text else ""
        lines = [x for x in shown.split("\n") if x.strip()]
        want = {json.dumps(t, ensure_ascii=False) for t in task.tools}
        checked += 1
        exact += int(set(lines) == want and len(lines) == len(want))
    return {"prompts_checked": checked, "prompts_exact": exact}


def lost_keys(envs: Environments) -> int:
    """What transformers' get_json_schema would have shown instead (the keys it drops)."""
    from transformers.utils import get_json_schema

    def keys(node: Any) -> int:
        if isinstance(node, dict):
            return len(node) + sum(keys(v) for v in node.values())
        if isinstance(node, list):
            return sum(keys(v) for v in node)
        return 0

    cls = next(iter(envs.factory.values()))
    lost = 0
    for tool in cls.tools:
        derived = get_json_schema(getattr(cls, tool["function"]["name"]))
        lost += keys(tool["function"]["parameters"]) - keys(derived["function"]["parameters"])
    return lost


def run_inproc(data: Path, work: Path, tok: Any, roles: dict[str, Task]) -> dict[str, Any]:
    from datasets import load_dataset

    envs = environments(load_dataset(str(data / "hf"), split="train"))
    order = ["gold_write", "bad_args", "unknown_tool", "sampled"]  # 2 steps of 2 prompts x 2 generations
    train = ordered(envs, roles, order)
    records: list[Any] = []
    trainer = trainer_for(envs, train, tok, work, steps=2, batch=4, records=records)
    kinds = {roles[r].id: r for r in order}
    # a failing rollout and a gold one in the same group: their rewards differ, so the loss has a gradient
    plans: Plans = {
        t.turns[0].user: (
            t,
            [plan(t, k), plan(t, "gold")] if k in ("bad_args", "unknown_tool") else [plan(t, k)],
        )
        for k, t in roles.items()
        if k != "sampled"
    }
    scripted = ScriptedGenerate(trainer.model, tok, plans)
    trainer.model.generate = scripted
    trainer.train()
    logs = [
        {
            k: v
            for k, v in entry.items()
            if k.startswith(("tools/", "toolground/", "reward", "loss", "grad_norm"))
        }
        for entry in trainer.state.log_history
    ]
    return {
        "steps": trainer.state.global_step,
        "classes": len(envs.factory),
        "instances": len(envs.instances),
        "calls": envs.counters.calls,
        "failed": envs.counters.failed,
        "rollouts": envs.counters.rollouts,
        "scripted_generate_calls": scripted.calls,
        "schemas": schema_facts(scripted),
        "derived_schema_lost_keys": lost_keys(envs),
        "per_rollout": rollout_facts(records, kinds),
        "log": logs,
    }


def formats_facts(task: Task) -> dict[str, float | None]:
    """Validity of the gold completion when its first result is fine, TRL's repr of an error, or ours."""
    completion: list[dict[str, Any]] = []
    for m in messages(task)[2:]:
        if m["role"] == "user":
            break
        if m["role"] == "assistant" and m.get("tool_calls"):
            calls = [
                {
                    "type": "function",
                    "function": {
                        "name": c["function"]["name"],
                        "arguments": json.loads(c["function"]["arguments"]),
                    },
                }
                for c in m["tool_calls"]
            ]
            completion.append({"role": "assistant", "content": "", "tool_calls": calls})
        elif m["role"] == "tool":
            completion.append({"role": "tool", "name": "?", "content": m["content"]})
        else:
            completion.append({"role": "assistant", "content": m["content"]})
    first = next(i for i, m in enumerate(completion) if m["role"] == "tool")
    out = {}
    for label, content in (
        ("ok", completion[first]["content"]),
        ("trl_repr", str({"error": "insufficient funds"})),
        ("json_error", error_content("insufficient funds")),
    ):
        variant = [dict(m) for m in completion]
        variant[first]["content"] = content
        out[label] = score(task, variant, PRESET).components.get("validity")
    return out


def run_mcp(url: str, data: Path, work: Path, tok: Any, roles: dict[str, Task]) -> dict[str, Any]:
    import httpx
    from datasets import load_dataset

    envs = environments(load_dataset(str(data / "hf"), split="train"), backend=url)
    train = ordered(envs, roles, ["gold_write"])
    records: list[Any] = []
    trainer = trainer_for(envs, train, tok, work / "mcp", steps=1, batch=2, records=records)
    plans: Plans = {
        roles["gold_write"].turns[0].user: (roles["gold_write"], [plan(roles["gold_write"], "gold")])
    }
    trainer.model.generate = ScriptedGenerate(trainer.model, tok, plans)
    trainer.train()
    base = url.rsplit("/mcp", 1)[0]
    ours = envs.sessions.live_sessions()  # type: ignore[attr-defined]
    served = httpx.get(f"{base}/admin/sessions").json()["ids"]
    # one more reset of a used instance: its previous session must go
    used = next(e for e in envs.instances if e.session is not None and e.session.live)
    old = used.session.sid
    used.reset(**next(row for row in train if load_task(row).id == used.task.id))
    after = httpx.get(f"{base}/admin/sessions").json()["ids"]
    # Environments.close() deletes what its instances hold (a second, small set: the first one is
    # left to the finalizers at exit)
    spare = environments([dict(train[0])], backend=url)
    env = next(iter(spare.factory.values()))()
    env.reset(**spare.dataset[0])
    held = env.session.sid
    opened = held in httpx.get(f"{base}/admin/sessions").json()["ids"]
    spare.close()
    closed = held not in httpx.get(f"{base}/admin/sessions").json()["ids"]
    return {
        "steps": trainer.state.global_step,
        "calls": envs.counters.calls,
        "live_sessions": ours,
        "served_sessions": served,
        "released_on_reset": old in served and old not in after,
        "released_on_close": opened and closed,
        "per_rollout": rollout_facts(records, {roles["gold_write"].id: "gold_write"}),
        "session_prefix": f"eval-{envs.sessions.run_id}-",  # type: ignore[attr-defined]
    }


# -- the chat-template check ---------------------------------------------------------------------

_BLOCK = re.compile(r"<tool_call>\n(.*?)\n</tool_call>", re.S)


def render_blocks(tok: Any, rows: list[dict[str, Any]]) -> list[str]:
    blocks: list[str] = []
    for row in rows:
        text = tok.apply_chat_template(row["messages"], tools=row["tools"], tokenize=False)
        conversation = text.split(END, 1)[1]  # past the system turn and the template's call example
        blocks += _BLOCK.findall(conversation)
    return blocks


def chat_facts(tok: Any, data: Path) -> dict[str, Any]:
    def rows(name: str) -> list[dict[str, Any]]:
        return [json.loads(x) for x in (data / name).read_text().splitlines() if x.strip()]

    def facts(blocks: list[str]) -> dict[str, Any]:
        decoded = [json.loads(b) for b in blocks]
        return {
            "blocks": len(blocks),
            "object_arguments": sum('"arguments": {' in b for b in blocks),
            "string_arguments": sum('"arguments": "' in b for b in blocks),
            "double_encoded": sum('"arguments": "{\\"' in b for b in blocks),
            "decoded_dicts": sum(isinstance(d.get("arguments"), dict) for d in decoded),
        }

    return {
        "chat": facts(render_blocks(tok, rows("chat.jsonl"))),
        "tasks": facts(render_blocks(tok, rows("tasks.jsonl"))),
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("data", type=Path)
    ap.add_argument("work", type=Path)
    ap.add_argument("--mcp", default=None)
    args = ap.parse_args()
    seconds: dict[str, float] = {"imports": round(time.perf_counter() - STARTED, 2)}
    clock = time.perf_counter()

    def lap(name: str) -> None:
        nonlocal clock
        now = time.perf_counter()
        seconds[name] = round(now - clock, 2)
        clock = now

    lines = (args.data / "tasks.jsonl").read_text().splitlines()
    tasks = [load_task(json.loads(x)) for x in lines if x.strip()]
    tok = tiny_tokenizer(training_texts(json.loads(x) for x in lines if x.strip()))
    roles = pick(tasks)
    lap("tokenizer_and_trl_import")
    report: dict[str, Any] = {"roles": {k: t.id for k, t in roles.items()}, "seconds": seconds}
    report["chat"] = chat_facts(tok, args.data)
    report["formats"] = formats_facts(roles["gold_write"])
    lap("checks")
    report["inproc"] = run_inproc(args.data, args.work, tok, roles)
    lap("inproc")
    if args.mcp:
        report["mcp"] = run_mcp(args.mcp, args.data, args.work, tok, roles)
        lap("mcp")
    print(json.dumps(report, default=str))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
