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
* ``turns.jsonl`` — the ``tasks.jsonl`` rows of the turn-level examples (``querygen.out.turns``): every
  user turn of a multi-turn task as its own task, its prompt holding the earlier turns; with
  ``parquet`` or ``hf`` also ``turns.parquet``, their verl rows.

Every file goes to a temporary name in its target directory and is renamed into place, so an
interrupted run never leaves half a file. Nothing here reads the clock: same tasks, same bytes.
How a task becomes messages, and reading these files back, belong to the contract
(:mod:`contract.messages`, :func:`contract.load.load_tasks`): the readers sit below the generator.
"""

from __future__ import annotations

import io
import os
import tempfile
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from contract.messages import atomic_write, dumps, messages, prompt
from contract.rows import TaskJson, verl_row
from contract.task import Task
from querygen.out.turns import turn_examples
from state import SnapshotCache

FORMATS = ("jsonl", "parquet", "hf", "chat", "turns")


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
    to split it into turn-level examples (``querygen.out.turns``), written as ``turns.jsonl``."""
    files: dict[str, bytes | Iterable[bytes]] = dict(extra_files or {})
    enc = TaskJson()
    if "chat" in formats:
        files["chat.jsonl"] = chat_lines(tasks, enc)
    if "turns" in formats:
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
