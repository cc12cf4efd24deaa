"""An eval run: many episodes at once, a journal that survives interruption, one results file.

Each finished task is appended to ``results.partial.jsonl`` as one line, in one write, so a run
killed at any moment loses at most the episodes in flight. ``--resume`` reads that journal, skips
the tasks it holds (retrying those that ended on a transport error) and runs the rest. When every
task is done the rows are written to ``results.jsonl`` in task order, atomically, and the journal
is removed: an interrupted and resumed run ends with the same file as an uninterrupted one.
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import contract.load
from contract.harnesses import get_harness
from contract.messages import atomic_write
from contract.task import Task
from rewards.config import get_config
from rewards.replay import EnvPool
from rollout.loop import Policy, evaluate, refused
from rollout.session import InProcess, SessionError, Sessions

RESULTS = "results.jsonl"
JOURNAL = "results.partial.jsonl"
RETRIED_ON_RESUME = frozenset({"transport_error"})
DEFAULT_PRESET = "prove+paths"  # the training recipes' preset: a model is judged as it was trained
Key = tuple[str, int]  # (task id, repeat)


@dataclass
class EvalSpec:
    """What to run: the tasks, under which harness and preset, how wide, and where to write."""

    tasks: list[Task]
    out: Path
    harness: str = "openai"
    preset: str = DEFAULT_PRESET
    concurrency: int = 8
    max_steps: int = 10
    resume: bool = False
    repeats: int = 1  # episodes per task (pass@1 and pass^k)
    pool: EnvPool = field(default_factory=EnvPool)


def load_tasks(path: Path, limit: int | None = None) -> list[Task]:
    """Tasks from a dataset folder or a ``.jsonl`` of rows or Tasks (:func:`contract.load.load_tasks`),
    each with its own id, the first ``limit`` of them when given."""
    tasks = contract.load.load_tasks(path)
    ids = [t.id for t in tasks]
    if len(set(ids)) != len(ids):
        raise ValueError(f"{path}: task ids repeat; each task must have its own id")
    return tasks[:limit] if limit else tasks


def key_of(row: dict[str, Any]) -> Key:
    """A row's place in the run: its task and repeat (rows written before repeats: repeat 0)."""
    return str(row["task_id"]), int(row.get("repeat") or 0)


def journal_rows(out: Path) -> list[dict[str, Any]]:
    """Every row the journal of an unfinished run holds, errored ones too (for a summary of
    what an interrupted run did)."""
    path = out / JOURNAL
    if not path.exists():
        return []
    rows = []
    for line in path.read_text().splitlines():
        try:
            row = json.loads(line)
        except ValueError:
            continue
        if isinstance(row, dict) and "task_id" in row:
            rows.append(row)
    return rows


def read_journal(out: Path) -> dict[Key, dict[str, Any]]:
    """Rows already finished, by (task id, repeat) (a line cut off by an interruption is ignored)."""
    done: dict[Key, dict[str, Any]] = {}
    for name in (RESULTS, JOURNAL):
        path = out / name
        if not path.exists():
            continue
        for line in path.read_text().splitlines():
            try:
                row = json.loads(line)
            except ValueError:
                continue
            if isinstance(row, dict) and "task_id" in row:
                done[key_of(row)] = row
    return {k: v for k, v in done.items() if v.get("status") not in RETRIED_ON_RESUME}


class Journal:
    """Append-only, one ``write`` per row, so concurrent episodes never interleave their lines."""

    def __init__(self, path: Path) -> None:
        self.fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)

    def add(self, row: dict[str, Any]) -> None:
        os.write(self.fd, (json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n").encode())

    def close(self) -> None:
        os.close(self.fd)


async def run_eval(
    spec: EvalSpec,
    policy: Policy,
    sessions: Sessions | None = None,
    progress: Callable[[dict[str, Any]], None] | None = None,
) -> list[dict[str, Any]]:
    """Run every task not yet done; return all rows in task order (also in ``results.jsonl``).

    ``sessions``: where the tools run (default: in this process, on ``spec.pool``); closed at the end."""
    harness = get_harness(spec.harness)
    cfg = get_config(spec.preset)
    spec.out.mkdir(parents=True, exist_ok=True)
    if not spec.resume:
        for name in (RESULTS, JOURNAL):
            (spec.out / name).unlink(missing_ok=True)
    done = read_journal(spec.out) if spec.resume else {}
    keys = [(t, r) for t in spec.tasks for r in range(max(1, spec.repeats))]
    todo = [(t, r) for t, r in keys if (t.id, r) not in done]
    sessions = sessions or InProcess(spec.pool)
    journal = Journal(spec.out / JOURNAL)
    gate = asyncio.Semaphore(max(1, spec.concurrency))

    async def one(task: Task, repeat: int) -> None:
        async with gate:
            try:
                session = await sessions.aopen(task)
            except SessionError as exc:  # refused before the model is asked anything
                row = refused(task, harness, policy, cfg, str(exc))
            else:
                row = await evaluate(
                    task, harness, policy, session, preset=cfg, pool=spec.pool, max_steps=spec.max_steps
                )
        row["preset"] = spec.preset
        row["repeat"] = repeat
        journal.add(row)
        done[task.id, repeat] = row
        if progress is not None:
            progress(row)

    try:
        async with asyncio.TaskGroup() as group:  # one failure cancels the rest before the journal closes
            for t, r in todo:
                group.create_task(one(t, r))
    finally:
        journal.close()
        sessions.close()
    rows = [done[t.id, r] for t, r in keys if (t.id, r) in done]
    write_results(spec.out, rows)
    return rows


def write_results(out: Path, rows: Sequence[dict[str, Any]]) -> Path:
    """The final file in task order, atomically; the journal goes once it is safely there."""
    data = b"".join((json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n").encode() for r in rows)
    path = atomic_write(out / RESULTS, data)
    (out / JOURNAL).unlink(missing_ok=True)
    return path
