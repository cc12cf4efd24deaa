"""Reading a task from whatever carries it: the one parser of task rows.

A task reaches its readers in many wrappings: the :class:`~contract.task.Task` itself, its dict,
its JSON text, a ``tasks.jsonl`` or ``turns.jsonl`` row (``ground_truth``, a JSON string, or an
object in older files), a verl/``train.parquet``/``hf/`` row (``reward_model.ground_truth``), a
TRL dataset column or verl ``tools_kwargs`` entry (``{"task": ...}``), and JSON text or bytes of
any of these. :func:`load_task` opens every one of them and validates the task strictly, so the
servers, the reward and the rollouts accept the same shapes and refuse the rest with the same
error. Tasks written before ``system_prompt``/``history``/``policy`` were typed fields still load
for one release (see :mod:`contract.task`).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from contract.task import Task

SHAPES = (
    "a Task, its dict or JSON text; a tasks.jsonl/turns.jsonl row with ground_truth (JSON text or "
    "object); a verl, train.parquet or hf/ row with reward_model.ground_truth; or {'task': <any of these>}"
)
ROW_KEYS = ("reward_model", "ground_truth", "task")  # the wrappers, outermost first
PARQUET_FILES = ("train.parquet", "hf/data/train-00000-of-00001.parquet")


class TaskShapeError(ValueError):
    """Not a task: says what was wrong and which shapes are allowed.

    ``detail`` lists each problem with its location inside the input (``loc``), so a service can
    answer with the same list a pydantic error would give."""

    def __init__(self, message: str, detail: list[dict[str, Any]] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.detail = detail or [{"loc": [], "msg": message}]


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _decoded(value: str | bytes, loc: list[Any]) -> Any:
    try:
        return json.loads(value, parse_constant=_reject_constant)
    except ValueError as exc:
        where = f" at {'.'.join(map(str, loc))}" if loc else ""
        raise TaskShapeError(
            f"task is not valid JSON{where}: {exc}", [{"loc": loc, "msg": str(exc)}]
        ) from None


def unwrap(value: Any) -> Any:
    """The task a value carries, before validation: JSON text decoded and row wrappers opened.

    Returns a :class:`Task` or a dict that is not a row wrapper (the reward reads its own minimal
    task shape from it). Raises :class:`TaskShapeError` on text that is not JSON."""
    return _unwrap(value, [])


def _unwrap(value: Any, loc: list[Any]) -> Any:
    if isinstance(value, str | bytes):
        value = _decoded(value, loc)
    inner = _inner(value)
    return value if inner is None else _unwrap(inner[0], [*loc, *inner[1]])


def _inner(value: Any) -> tuple[Any, list[str]] | None:
    """What a row wrapper holds and the keys that lead to it; None when ``value`` is no wrapper."""
    if not isinstance(value, dict) or "turns" in value or "gold_calls" in value:
        return None
    if isinstance(value.get("reward_model"), dict):
        return value["reward_model"].get("ground_truth"), ["reward_model", "ground_truth"]
    for key in ("ground_truth", "task"):
        if value.get(key) is not None:
            return value[key], [key]
    return None


def load_task(value: Any) -> Task:
    """The Task that ``value`` is or carries (any shape in :data:`SHAPES`).

    Raises :class:`TaskShapeError` naming what was wrong (bad JSON, a row without a task, the
    first fields that fail validation) and the shapes that are allowed."""
    return _validated(unwrap(value))


def _validated(body: Any) -> Task:
    if isinstance(body, Task):
        return body
    if not isinstance(body, dict):
        raise TaskShapeError(
            f"not a task: got {type(body).__name__}; expected {SHAPES}",
            [{"loc": [], "msg": f"expected an object, got {type(body).__name__}"}],
        )
    if "turns" not in body:
        keys = ", ".join(sorted(map(str, body))[:8]) or "none"
        raise TaskShapeError(
            f"not a task: an object needs 'turns' (a Task) or a row key ({', '.join(ROW_KEYS)}); it has "
            f"keys {keys}. Expected {SHAPES}",
            [{"loc": [], "msg": "missing 'turns'"}],
        )
    try:
        return Task.model_validate(body)
    except ValidationError as exc:
        raise _invalid(exc) from None


def _invalid(exc: ValidationError) -> TaskShapeError:
    """pydantic's locations and messages, without its URLs and echoed inputs."""
    detail = [
        {"loc": list(err["loc"]), "msg": err["msg"], "type": err["type"]}
        for err in exc.errors(include_url=False, include_input=False, include_context=False)
    ]
    first = detail[0]
    where = ".".join(str(x) for x in first["loc"]) or "task"
    more = f" (and {len(detail) - 1} more)" if len(detail) > 1 else ""
    return TaskShapeError(f"invalid task: {where}: {first['msg']}{more}", detail)


def load_tasks(path: Path) -> list[Task]:
    """Every task of a dataset: a folder (its ``tasks.jsonl``, else ``train.parquet`` or ``hf/``),
    a ``.jsonl`` file of rows or tasks (one per line), or a ``.parquet`` file of verl rows.

    A line that is not a task raises :class:`TaskShapeError` naming the file and line."""
    return [task for _, task in iter_tasks(path)]


def iter_tasks(path: Path) -> Iterator[tuple[str, Task]]:
    """:func:`load_tasks` one task at a time, each with where it was read (``file:line``), for a
    reader that keeps only part of each task or names the line in errors of its own."""
    if path.is_dir():
        if (path / "tasks.jsonl").is_file():
            return _jsonl(path / "tasks.jsonl")
        for rel in PARQUET_FILES:
            if (path / rel).is_file():
                return _parquet(path / rel)
        raise FileNotFoundError(f"{path} holds no tasks.jsonl, train.parquet or hf/ dataset")
    if path.is_file():
        return _parquet(path) if path.suffix == ".parquet" else _jsonl(path)
    raise FileNotFoundError(f"no tasks at {path}: give a dataset folder, a .jsonl or a .parquet file")


def _jsonl(file: Path) -> Iterator[tuple[str, Task]]:
    with file.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                yield f"{file}:{number}", load_task(line)
            except TaskShapeError as exc:
                raise TaskShapeError(f"{file}:{number}: {exc.message}", exc.detail) from None


def _parquet(file: Path) -> Iterator[tuple[str, Task]]:
    try:
        import pyarrow.parquet as pq
    except ModuleNotFoundError as exc:  # pyarrow is in the export extra; the CLI names it from ``name``
        message = "reading parquet needs pyarrow (pip install 'toolground[export]')"
        raise ModuleNotFoundError(message, name="pyarrow") from exc
    for number, row in enumerate(pq.read_table(file, columns=["reward_model"]).to_pylist()):
        try:
            yield f"{file} row {number}", load_task(row)
        except TaskShapeError as exc:
            raise TaskShapeError(f"{file} row {number}: {exc.message}", exc.detail) from None


@functools.lru_cache(maxsize=4096)
def _from_text(text: str) -> Task:
    return load_task(text)


def load_task_cached(value: Any) -> Task:
    """:func:`load_task`, reading each distinct JSON text once, also inside a row: a GRPO group of 16
    rollouts carries the same ground-truth string 16 times. The Task returned for a text is shared:
    read it only."""
    while (inner := _inner(value)) is not None:
        value = inner[0]
    if isinstance(value, bytes):
        value = value.decode()
    return _from_text(value) if isinstance(value, str) else load_task(value)
