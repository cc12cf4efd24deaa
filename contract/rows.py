"""The dataset rows a task travels in, as trainers read them.

``toolground generate`` writes these rows (:mod:`querygen.out.export`) and the TRL adapter builds
them from Tasks it is handed (:mod:`rollout.trl`), so the row shape is defined once, here, below
both. :func:`contract.load.load_task` reads every one of them back.
"""

from __future__ import annotations

from typing import Any

from contract.harnesses import text_prompt
from contract.messages import dumps
from contract.task import Task

ABILITY = "tool_use"


class TaskJson:
    """JSON texts of tasks, each offered tool schema serialised once.

    The same ~30 schemas recur in every task and make up most of its bytes, so their JSON is
    cached (by name, with an equality check) and spliced into the task's JSON. The result is
    byte-identical to ``dumps(task.model_dump(mode="json"))``."""

    def __init__(self) -> None:
        self._schemas: dict[str, list[tuple[dict[str, Any], str]]] = {}

    def tools(self, task: Task) -> str:
        parts = []
        for schema in task.tools:
            variants = self._schemas.setdefault(str(schema.get("function", {}).get("name")), [])
            text = next((t for d, t in variants if d == schema), None)
            if text is None:
                text = dumps(schema)
                variants.append((schema, text))
            parts.append(text)
        return "[" + ",".join(parts) + "]"

    def ground_truth(self, task: Task, tools: str) -> str:
        body = task.model_dump(mode="json", exclude={"tools"})
        fields = [f"{dumps(k)}:{tools if k == 'tools' else dumps(body[k])}" for k in Task.model_fields]
        return "{" + ",".join(fields) + "}"


def verl_row(task: Task, index: int, split: str = "train", enc: TaskJson | None = None) -> dict[str, Any]:
    """verl's row (``train.parquet``, ``hf/``): the prompt as text messages, the task as
    ``reward_model.ground_truth`` (JSON text), and what verl's tool agent loop reads in ``extra_info``."""
    enc = enc or TaskJson()
    tools = enc.tools(task)
    return {
        "data_source": f"toolground/{task.domains[0]}",
        "prompt": text_prompt(task),
        "ability": ABILITY,
        "reward_model": {"style": "rule", "ground_truth": enc.ground_truth(task, tools)},
        "extra_info": {
            "split": split,
            "index": index,
            "task_id": task.id,
            "kind": task.kind,
            "domains": list(task.domains),
            "snapshots": [s.model_dump() for s in task.snapshots],
            "tools": tools,
            "tool_selection": [s["function"]["name"] for s in task.tools],
            "need_tools_kwargs": False,
            "interaction_kwargs": {"name": "toolground_user", "turns": [t.user for t in task.turns[1:]]},
        },
        "agent_name": "tool_agent",
    }
