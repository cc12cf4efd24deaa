"""verl's tool YAML, agent-loop YAML and recommended settings for a toolground dataset.

verl registers tools by name from one global YAML, so each name gets the schema variant that keeps
the most enum lists (the rows' own schemas reach the model through ``ToolgroundAgentLoop``); the
settings are measured on the dataset itself (the longest gold result, the widest gold step, the
most tool rounds) so that verl's defaults (256-character results, one call per step) cut nothing.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from contract.messages import dumps, messages
from contract.task import Task
from rollout.verl import AGENT_NAME, LOOP_CLASS, TOOL_CLASS, Backend


def _enum_count(value: Any) -> int:
    if isinstance(value, dict):
        return ("enum" in value) + sum(_enum_count(v) for v in value.values())
    if isinstance(value, list):
        return sum(_enum_count(v) for v in value)
    return 0


def global_schemas(tasks: Iterable[Task]) -> list[dict[str, Any]]:
    """One schema per tool name the tasks offer (the fullest variant: most enum lists kept).

    verl registers tools by name; the model is shown each row's own variant by
    :class:`ToolgroundAgentLoop`, so these only serve plain ``ToolAgentLoop`` users and verl's
    schema check."""
    best: dict[str, dict[str, Any]] = {}
    for task in tasks:
        for schema in task.tools:
            name = schema.get("function", {}).get("name")
            if name and (name not in best or _enum_count(schema) > _enum_count(best[name])):
                best[name] = schema
    return [best[n] for n in sorted(best)]


def _no_interpolation(value: Any) -> Any:
    """OmegaConf (verl's YAML loader) resolves ``${...}`` in strings; escape it in descriptions."""
    if isinstance(value, str):
        return value.replace("${", "\\${")
    if isinstance(value, dict):
        return {k: _no_interpolation(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_no_interpolation(v) for v in value]
    return value


def tool_config(tasks: Iterable[Task], backend: Backend | None = None) -> dict[str, Any]:
    """verl's ``tool_config_path`` content: ``{"tools": [{class_name, config, tool_schema}, ...]}``."""
    b = backend or Backend()
    config: dict[str, Any] = {"type": "native", "backend": b.kind}
    optional = {"mcp_url": b.mcp_url, "admin_token_env": b.admin_token_env, "cache": b.cache}
    config.update({k: v for k, v in optional.items() if v})
    return {
        "tools": [
            {"class_name": TOOL_CLASS, "config": dict(config), "tool_schema": _no_interpolation(s)}
            for s in global_schemas(tasks)
        ]
    }


def agent_loop_config() -> list[dict[str, Any]]:
    """verl's ``agent_loop_config_path`` content: the rows' ``tool_agent`` runs our loop."""
    return [{"name": AGENT_NAME, "_target_": LOOP_CLASS}]


def _round_up(n: int, step: int = 1024) -> int:
    return max(step, int(math.ceil(n / step)) * step)


def recommended_settings(tasks: Iterable[Task]) -> dict[str, int]:
    """``multi_turn`` settings the gold trajectories fit in: the longest gold result (verl cuts by
    characters; defaults 256), the most calls in one gold step (verl runs only the first
    ``max_parallel_calls``; default 1) and the most tool rounds and replies in one task."""
    longest = widest = rounds = 0
    for task in tasks:
        for call in task.gold_calls():
            longest = max(longest, len(dumps(call.result)))
        steps = [len(m["tool_calls"]) for m in messages(task) if m.get("tool_calls")]
        widest = max([widest, *steps])
        rounds = max(rounds, len(steps))
    return {
        "max_tool_response_length": _round_up(int(longest * 1.1) + 1),
        "max_parallel_calls": max(1, widest),
        "max_user_turns": max(1, rounds),
        "max_assistant_turns": rounds + 1,
        "longest_gold_result": longest,
    }


def yaml_text(value: Any, header: str = "") -> str:
    """YAML without a YAML library: JSON is YAML (1.2, and what PyYAML/OmegaConf read)."""
    lines = "".join(f"# {line}\n" if line else "#\n" for line in header.splitlines())
    return lines + json.dumps(value, indent=2, ensure_ascii=False) + "\n"


def config_snippet(tool_yaml: Path, loop_yaml: Path, settings: dict[str, int]) -> str:
    """The verl overrides to train on the dataset these files were written for."""
    rollout = "actor_rollout_ref.rollout"
    mt = f"{rollout}.multi_turn"
    return "\n".join(
        [
            f"{mt}.enable=True",
            f"{mt}.format=hermes",
            f"{mt}.tool_config_path={tool_yaml}",
            f"{rollout}.agent.agent_loop_config_path={loop_yaml}",
            f"{mt}.max_tool_response_length={settings['max_tool_response_length']}",
            f"{mt}.max_parallel_calls={settings['max_parallel_calls']}",
            f"{mt}.max_user_turns={settings['max_user_turns']}",
            f"{mt}.max_assistant_turns={settings['max_assistant_turns']}",
            "reward.custom_reward_function.path=pkg://rollout.verl",
            "reward.custom_reward_function.name=compute_score",
            "+reward.custom_reward_function.reward_kwargs.preset=prove+outcome",
        ]
    )


def write_verl_config(
    tasks: list[Task], out: Path, loop_out: Path | None = None, backend: Backend | None = None
) -> tuple[Path, Path, dict[str, int]]:
    """Write the tool YAML to ``out`` and the agent-loop YAML beside it; return both and the settings."""
    from contract.messages import atomic_write

    loop_out = loop_out or out.with_name("agent_loop.yaml")
    settings = recommended_settings(tasks)
    head = f"verl tool config for {len(tasks)} toolground tasks (toolground verl-tools)"
    tools = tool_config(tasks, backend)
    atomic_write(out, yaml_text(tools, f"{head}: {len(tools['tools'])} tools").encode())
    loop_head = "verl agent loops: the rows' tool_agent runs toolground's loop (exact schemas per row)"
    atomic_write(loop_out, yaml_text(agent_loop_config(), loop_head).encode())
    return out, loop_out, settings
