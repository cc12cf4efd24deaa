"""Writing a dataset: JSONL, verl-ready parquet, a Hugging Face ``datasets`` folder; all atomic.

* ``tasks.jsonl`` — one task per line: ``messages`` (the OpenAI chat conversation the gold calls
  imply: system, user, assistant ``tool_calls``, ``tool`` results, assistant reply, per turn),
  ``tools`` (the offered OpenAI function schemas) and ``ground_truth`` (the Task the reward reads,
  as a JSON string so that ``datasets`` cannot retype its values);
* ``train.parquet`` — verl's row shape: ``data_source``, ``prompt`` (system + first user turn),
  ``ability``, ``reward_model`` {``style``, ``ground_truth`` as a JSON string}, ``extra_info``
  (task id, snapshots, offered tools, later user turns for a multi-turn interaction) and
  ``agent_name``;
* ``hf/`` — the same parquet under ``data/`` plus a dataset card, loadable with
  ``datasets.load_dataset(path)``;
* ``chat.jsonl`` — ``messages`` with tool-call arguments as objects, and ``tools``: the SFT view a
  Hugging Face chat template renders without encoding the arguments twice;
* ``turns.jsonl`` — the ``tasks.jsonl`` rows of the turn-level examples (``querygen.turns``): every
  user turn of a multi-turn task as its own task, its prompt holding the earlier turns; with
  ``parquet`` or ``hf`` also ``turns.parquet``, their verl rows.

Every file goes to a temporary name in its target directory and is renamed into place, so an
interrupted run never leaves half a file. Nothing here reads the clock: same tasks, same bytes.
"""

from __future__ import annotations

import io
import json
import os
import tempfile
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from querygen.task import Task, result_facts
from state import SnapshotCache

FORMATS = ("jsonl", "parquet", "hf", "chat", "turns")
ABILITY = "tool_use"


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _file_mode() -> int:
    """Ordinary permissions (0666 less the umask), not mkstemp's private 0600."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def atomic_write(path: Path, data: bytes | Iterable[bytes]) -> Path:
    """Write (bytes, or chunks streamed as they come) via a temporary file in the same directory,
    then ``os.replace`` it into place."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            if isinstance(data, bytes):
                fh.write(data)
            else:
                for chunk in data:
                    fh.write(chunk)
        os.chmod(tmp, _file_mode())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def probe_writable(out: Path) -> bool:
    """Fail early (OSError) if ``out`` cannot hold files; returns whether the directory was created."""
    if out.exists() and not out.is_dir():
        raise NotADirectoryError(f"{out} exists and is not a directory")
    created = not out.exists()
    out.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=out, prefix=".probe.", suffix=".tmp")
    os.close(fd)
    Path(tmp).unlink()
    return created


# -- conversations ---------------------------------------------------------------------------------
def system_prompt(task: Task) -> str:
    return str(task.metadata.get("system_prompt", "You are a helpful assistant with tools."))


def history(task: Task) -> list[dict[str, Any]]:
    """The conversation before the task's first turn: empty, except for a turn-level example
    (``querygen.turns``), whose earlier turns are part of what the model is shown."""
    return list(task.metadata.get("history") or [])


def messages(task: Task, *, object_arguments: bool = False) -> list[dict[str, Any]]:
    """The full reference conversation in OpenAI chat format.

    Tool-call arguments are JSON strings as the OpenAI API writes them; ``object_arguments``
    gives objects instead, the shape Hugging Face chat templates expect (a template encodes a
    string a second time, so SFT on it would teach the model to write a string)."""
    out: list[dict[str, Any]] = [{"role": "system", "content": system_prompt(task)}, *history(task)]
    first = 0  # index of this turn's first call in the flattened gold list
    for t, turn in enumerate(task.turns):
        out.append({"role": "user", "content": turn.user})
        for step in _steps(task, first, len(turn.calls)):
            ids = [f"call_{t}_{i - first}" for i in step]
            calls = [turn.calls[i - first] for i in step]
            out.append(
                {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {
                            "id": cid,
                            "type": "function",
                            "function": {
                                "name": c.name,
                                "arguments": dict(c.arguments) if object_arguments else dumps(c.arguments),
                            },
                        }
                        for cid, c in zip(ids, calls, strict=True)
                    ],
                }
            )
            out.extend(
                {"role": "tool", "tool_call_id": cid, "content": dumps(c.result)}
                for cid, c in zip(ids, calls, strict=True)
            )
        first += len(turn.calls)
        out.append({"role": "assistant", "content": turn.answer or _summary(task, turn.calls)})
    return out


def _steps(task: Task, first: int, count: int) -> list[list[int]]:
    """Group a turn's calls into assistant steps: a call waits for the step after its prerequisites.

    Independent calls go out together as parallel calls; a call that needs an earlier call's
    output starts a new step, as a real model must (it cannot use a result it has not seen)."""
    needs: dict[int, set[int]] = {}
    for i, j in task.dependencies:
        needs.setdefault(j, set()).add(i)
    steps: list[list[int]] = []
    for i in range(first, first + count):
        if not steps or needs.get(i, set()) & set(steps[-1]):
            steps.append([i])
        else:
            steps[-1].append(i)
    return steps


def _plain(fact: Any) -> str:
    if isinstance(fact, float):
        return str(int(fact)) if fact.is_integer() else str(fact)
    return str(fact)


def _summary(task: Task, calls: Sequence[Any]) -> str:
    """A reference answer that states what the calls found, as a good assistant would.

    The last call's facts come first (the reward's outcome term checks the final answer for
    them); values the user already gave anywhere in the task are not news and are left out."""
    if not calls:
        return "Done."
    given = [c.arguments for c in task.gold_calls()]
    last = result_facts([calls[-1].result], given)[:6]
    rest = [f for f in result_facts([c.result for c in calls[:-1]], given) if f not in last][:2]
    shown = "; ".join(_plain(f) for f in last + rest)
    return f"Done. Here is what I found: {shown}." if shown else "Done."


def prompt(task: Task, *, object_arguments: bool = False) -> list[dict[str, Any]]:
    """What an RL rollout starts from: the system message, the earlier turns of a turn-level
    example, and the first user turn (``object_arguments`` as in :func:`messages`)."""
    earlier = history(task)
    if object_arguments:
        earlier = [_with_object_arguments(m) for m in earlier]
    return [
        {"role": "system", "content": system_prompt(task)},
        *earlier,
        {"role": "user", "content": task.turns[0].user},
    ]


def text_prompt(task: Task) -> list[dict[str, str]]:
    """:func:`prompt` as role/content messages only (verl's parquet rows): earlier turns' calls
    and results are written the way a Hermes/Qwen chat template shows them, ``<tool_call>``
    blocks in the assistant's text and ``<tool_response>`` blocks in a user message."""
    from querygen.harnesses import HARNESSES  # it renders conversations from this module

    earlier = HARNESSES["hermes"].request("", [], history(task))["messages"][1:]
    return [
        {"role": "system", "content": system_prompt(task)},
        *({"role": m["role"], "content": str(m.get("content") or "")} for m in earlier),
        {"role": "user", "content": task.turns[0].user},
    ]


def _with_object_arguments(message: dict[str, Any]) -> dict[str, Any]:
    calls = message.get("tool_calls")
    if not calls:
        return message
    decoded = [
        {**c, "function": {**c["function"], "arguments": json.loads(c["function"]["arguments"])}}
        if isinstance(c["function"].get("arguments"), str)
        else c
        for c in calls
    ]
    return {**message, "tool_calls": decoded}


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


def jsonl_lines(tasks: Iterable[Task], enc: TaskJson | None = None) -> Iterator[bytes]:
    """One encoded line per task (streamed: a 13K-task file is ~0.5 GB)."""
    enc = enc or TaskJson()
    for t in tasks:
        tools = enc.tools(t)
        head = f'{{"id":{dumps(t.id)},"messages":{dumps(messages(t))},"tools":{tools},'
        # the Task as a JSON string, as in the parquet: read as an object, `datasets` unifies each
        # field's type across rows and turns a PIN like "0978" in one row's diff into 978
        yield f'{head}"ground_truth":{dumps(enc.ground_truth(t, tools))}}}\n'.encode()


def turn_lines(tasks: Iterable[Task], enc: TaskJson | None = None) -> Iterator[bytes]:
    """``turns.jsonl``: the ``tasks.jsonl`` row of each turn-level example, plus ``prompt`` (system,
    earlier turns with object arguments, the turn's user message): what GRPO-style trainers start a
    rollout from, ready for a chat template."""
    enc = enc or TaskJson()
    for t in tasks:
        line = next(jsonl_lines([t], enc))
        yield b'{"prompt":' + dumps(prompt(t, object_arguments=True)).encode() + b"," + line[1:]


def chat_lines(tasks: Iterable[Task], enc: TaskJson | None = None) -> Iterator[bytes]:
    """``chat.jsonl``: ``{"id", "messages", "tools"}`` per task, tool-call arguments as objects, for
    SFT through a Hugging Face chat template. ``datasets.load_dataset("json", ...)`` (5.x) reads
    the messages as ``Json`` values and keeps every call's arguments as written; a Dataset built
    from the rows needs ``Dataset.from_list(rows, on_mixed_types="use_json")``, or Arrow unifies
    the arguments of all rows into one struct and fills the keys a call did not pass with nulls."""
    enc = enc or TaskJson()
    for t in tasks:
        body = dumps(messages(t, object_arguments=True))
        yield f'{{"id":{dumps(t.id)},"messages":{body},"tools":{enc.tools(t)}}}\n'.encode()


def jsonl_bytes(tasks: Iterable[Task], enc: TaskJson | None = None) -> bytes:
    return b"".join(jsonl_lines(tasks, enc))


# -- parquet (verl) ----------------------------------------------------------------------------------
def _schema() -> Any:
    import pyarrow as pa

    message = pa.struct([("role", pa.string()), ("content", pa.string())])
    snapshot = pa.struct(
        [
            ("domain", pa.string()),
            ("seed", pa.int64()),
            ("scale", pa.string()),
            ("sha256", pa.string()),
            ("variant", pa.string()),
        ]
    )
    extra = pa.struct(
        [
            ("split", pa.string()),
            ("index", pa.int64()),
            ("task_id", pa.string()),
            ("kind", pa.string()),
            ("domains", pa.list_(pa.string())),
            ("snapshots", pa.list_(snapshot)),
            ("tools", pa.string()),
            ("tool_selection", pa.list_(pa.string())),
            ("need_tools_kwargs", pa.bool_()),
            ("interaction_kwargs", pa.struct([("name", pa.string()), ("turns", pa.list_(pa.string()))])),
        ]
    )
    return pa.schema(
        [
            ("data_source", pa.string()),
            ("prompt", pa.list_(message)),
            ("ability", pa.string()),
            ("reward_model", pa.struct([("style", pa.string()), ("ground_truth", pa.string())])),
            ("extra_info", extra),
            ("agent_name", pa.string()),
        ]
    )


def verl_row(task: Task, index: int, split: str = "train", enc: TaskJson | None = None) -> dict[str, Any]:
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


def parquet_bytes(tasks: Sequence[Task], enc: TaskJson | None = None) -> bytes:
    """The verl dataset as parquet bytes (needs pyarrow: ``pip install pyarrow``)."""
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError as exc:  # pragma: no cover - pyarrow is in the export extra
        raise RuntimeError("parquet export needs pyarrow (pip install 'toolground[export]')") from exc
    enc = enc or TaskJson()
    table = pa.Table.from_pylist([verl_row(t, i, enc=enc) for i, t in enumerate(tasks)], schema=_schema())
    sink = io.BytesIO()
    pq.write_table(table, sink, compression="zstd")
    return sink.getvalue()


def hf_card(n: int) -> bytes:
    card = f"""---
configs:
- config_name: default
  data_files:
  - split: train
    path: data/train-*.parquet
task_categories:
- reinforcement-learning
tags:
- tool-use
- toolground
---
# toolground tasks

{n} state-grounded tool-use tasks in verl's row format (`prompt`, `reward_model.ground_truth`,
`extra_info`). Load with `datasets.load_dataset("<this folder>")`.
"""
    return card.encode()


def write_dataset(
    out: Path,
    tasks: Sequence[Task],
    formats: Sequence[str],
    extra_files: dict[str, bytes | Iterable[bytes]] | None = None,
    cache: SnapshotCache | None = None,
) -> list[Path]:
    """Write every requested format plus ``extra_files`` (relative path -> bytes, or chunks streamed
    as they come), each atomically. ``turns`` replays each multi-turn task on its world (``cache``)
    to split it into turn-level examples (``querygen.turns``), written as ``turns.jsonl``."""
    files: dict[str, bytes | Iterable[bytes]] = dict(extra_files or {})
    enc = TaskJson()
    if "chat" in formats:
        files["chat.jsonl"] = chat_lines(tasks, enc)
    if "turns" in formats:
        from querygen.turns import turn_examples  # it renders conversations with this module

        examples = list(turn_examples(tasks, cache))
        files["turns.jsonl"] = turn_lines(examples, enc)
        if {"parquet", "hf"} & set(formats):
            files["turns.parquet"] = parquet_bytes(examples, enc)
    parquet = parquet_bytes(tasks, enc) if {"parquet", "hf"} & set(formats) else b""
    if "jsonl" in formats:
        files["tasks.jsonl"] = jsonl_lines(tasks, enc)
    if "parquet" in formats:
        files["train.parquet"] = parquet
    if "hf" in formats:
        files["hf/data/train-00000-of-00001.parquet"] = parquet
        files["hf/README.md"] = hf_card(len(tasks))
    return [atomic_write(out / rel, data) for rel, data in sorted(files.items())]


def _task(ground_truth: Any) -> Task:
    """A row's ground truth: a JSON string (what this version writes) or an object (older files)."""
    if isinstance(ground_truth, str):
        return Task.model_validate_json(ground_truth)
    return Task.model_validate(ground_truth)


def read_tasks(out: Path) -> list[Task]:
    """Tasks back from a dataset folder (``tasks.jsonl``, else ``train.parquet`` or ``hf/``)."""
    if (out / "tasks.jsonl").exists():
        lines = (out / "tasks.jsonl").read_text().splitlines()
        return [_task(json.loads(x)["ground_truth"]) for x in lines if x.strip()]
    for rel in ("train.parquet", "hf/data/train-00000-of-00001.parquet"):
        if (out / rel).exists():
            import pyarrow.parquet as pq

            rows = pq.read_table(out / rel, columns=["reward_model"]).to_pylist()
            return [Task.model_validate_json(r["reward_model"]["ground_truth"]) for r in rows]
    raise FileNotFoundError(f"{out} holds no tasks.jsonl, train.parquet or hf/ dataset")
