"""``toolground score``: score a file of trajectories against a file of tasks.

Tasks: JSONL (or a JSON list) of generator Tasks, minimal tasks, or the dataset rows
``toolground generate`` writes (their ``ground_truth`` is the task). Trajectories: JSONL (or a JSON
list) whose items are either ``{"task_id" | "task_index", "trajectory", "id"?, "config"?}`` or a bare
trajectory, paired with the task on the same line. Output: one JSON line per trajectory with the
total, every component and the alignment (or the error that item had). A summary table follows.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from toolground.errors import UsageError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("score", help="score trajectories against tasks with the reward")
    p.add_argument("--tasks", type=Path, required=True, help="JSONL or JSON list of tasks")
    p.add_argument("--trajectories", type=Path, required=True, help="JSONL or JSON list of trajectories")
    p.add_argument("--out", type=Path, required=True, help="JSONL file to write the results to")
    p.add_argument("--preset", default="prove", help="prove (default), prove+outcome or recall")
    p.add_argument("--config", default=None, help="JSON overrides, e.g. '{\"efficiency_clip\": -1}'")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(run=run)


def _load(path: Path, what: str) -> list[Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot read {what} file {path}: {exc.strerror or exc}") from None
    lines = [line for line in text.splitlines() if line.strip()]
    if text.lstrip().startswith("[") and len(lines) > 1:
        # A JSON list spread over lines, or JSONL whose rows are lists (message lists): the
        # whole text parses only in the first case.
        try:
            return json.loads(text)
        except ValueError:
            pass
    elif text.lstrip().startswith("[") and lines:
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise UsageError(f"{path} is not valid JSON: {exc}") from None
        # one line holding a list: a list of trajectories, unless it is one message list
        return [data] if data and all(isinstance(m, dict) and "role" in m for m in data) else data
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        if line.strip():
            try:
                out.append(json.loads(line))
            except ValueError as exc:
                raise UsageError(f"{path} line {n} is not valid JSON: {exc}") from None
    return out


def _config(args: argparse.Namespace) -> Any:
    from rewards import RewardInputError, get_config

    spec: dict[str, Any] = {"preset": args.preset}
    if args.config:
        try:
            extra = json.loads(args.config)
        except ValueError as exc:
            raise UsageError(f"--config is not valid JSON: {exc}") from None
        if not isinstance(extra, dict):
            raise UsageError("--config must be a JSON object")
        spec.update(extra)
    try:
        return get_config(spec)
    except RewardInputError as exc:
        raise UsageError(exc.message) from None


def _prepare_all(raw_tasks: list[Any]) -> tuple[list[Any], dict[str, int]]:
    from rewards import RewardInputError, prepare_task

    tasks, by_id = [], {}
    for i, raw in enumerate(raw_tasks):
        try:
            task = prepare_task(raw)
        except RewardInputError as exc:
            raise UsageError(f"task {i + 1}: {exc.message}") from None
        if task.id is not None:
            by_id[task.id] = i
        tasks.append(task)
    return tasks, by_id


def _pick(item: Any, line: int, tasks: list[Any], by_id: dict[str, int]) -> tuple[Any, Any, Any]:
    """(task, trajectory, per-item config) for one trajectories-file item."""
    if isinstance(item, dict) and "trajectory" in item:
        if "task_id" in item:
            if item["task_id"] not in by_id:
                raise KeyError(f"no task has id {item['task_id']!r}")
            return tasks[by_id[item["task_id"]]], item["trajectory"], item.get("config")
        k = item.get("task_index", line)
        if not isinstance(k, int) or not 0 <= k < len(tasks):
            raise KeyError(f"task_index {k!r} is not in 0..{len(tasks) - 1}")
        return tasks[k], item["trajectory"], item.get("config")
    if line >= len(tasks):
        raise KeyError(f"line {line + 1} has no task on the same line (there are {len(tasks)} tasks)")
    return tasks[line], item, None


def _score_all(
    tasks: list[Any], by_id: dict[str, int], items: list[Any], cfg: Any, quiet: bool
) -> list[dict]:
    from rich.progress import Progress

    from rewards import RewardInputError, get_config, parse_trajectory, score_prepared

    rows: list[dict] = []
    with Progress(disable=quiet, transient=True) as progress:
        bar = progress.add_task("scoring", total=len(items))
        for line, item in enumerate(items):
            row: dict[str, Any] = {"line": line + 1}
            if isinstance(item, dict) and "id" in item and "trajectory" in item:
                row["id"] = item["id"]
            try:
                task, traj, spec = _pick(item, line, tasks, by_id)
                item_cfg = cfg if spec is None else get_config(spec)
                row.update(score_prepared(task, parse_trajectory(traj), item_cfg).as_dict())
            except KeyError as exc:
                row.update(error=str(exc.args[0]), detail=[])
            except RewardInputError as exc:
                row.update(error=exc.message, detail=exc.detail)
            rows.append(row)
            progress.advance(bar)
    return rows


def _summary(rows: list[dict], preset: str) -> None:
    from rich.console import Console
    from rich.table import Table

    ok = [r for r in rows if "error" not in r]
    table = Table(title=f"reward ({preset}): {len(ok)} scored, {len(rows) - len(ok)} errors")
    table.add_column("term")
    table.add_column("mean", justify="right")
    table.add_column("min", justify="right")
    table.add_column("max", justify="right")
    table.add_column("n", justify="right")
    names = ["total", "validity", "coverage", "efficiency", "name", "arg", "outcome", "abstention"]
    tool = [r for r in ok if "abstention" not in r["components"]]  # abstentions report the terms as 0
    for name in names:
        rows_for = ok if name in ("total", "abstention") else tool
        vals = [r["total"] if name == "total" else r["components"].get(name) for r in rows_for]
        vals = [v for v in vals if v is not None]
        if vals:
            table.add_row(
                name, f"{sum(vals) / len(vals):.4f}", f"{min(vals):.4f}", f"{max(vals):.4f}", str(len(vals))
            )
    Console(file=sys.stdout).print(table)


def run(args: argparse.Namespace) -> int:
    cfg = _config(args)
    tasks, by_id = _prepare_all(_load(args.tasks, "tasks"))
    items = _load(args.trajectories, "trajectories")
    if args.out.exists() and args.out.is_dir():
        raise UsageError(f"--out {args.out} is a directory; give a file path")
    rows = _score_all(tasks, by_id, items, cfg, args.quiet)
    try:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        with args.out.open("w", encoding="utf-8") as fh:
            for row in rows:
                fh.write(json.dumps(row) + "\n")
    except OSError as exc:
        raise UsageError(f"cannot write {args.out}: {exc.strerror or exc}") from None
    _summary(rows, cfg.preset)
    return 0
