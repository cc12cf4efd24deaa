"""Compare two ``toolground generate`` output folders: task files by Task, everything else by bytes.

    python bench/compare_outputs.py OLD NEW

A task file (``tasks.jsonl``, ``turns.jsonl``, and the verl parquet files) is compared row by row:
the task each row carries is read with :func:`contract.load.load_task` on both sides, so a row is
equal when its Task is equal, whatever format version wrote it (a row from before the shown
fields were typed loads through the one-release promotion); the rest of the row (messages, tools,
prompt, extra_info, ...) must be equal as data. Every other file must be byte-identical. Prints one
line per file and exits 1 when anything differs.
"""

from __future__ import annotations

import json
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from contract.load import load_task

TASK_FILES = {"tasks.jsonl", "turns.jsonl", "train.parquet", "turns.parquet", "train-00000-of-00001.parquet"}


def _jsonl_rows(path: Path) -> Iterator[dict[str, Any]]:
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            if line.strip():
                yield json.loads(line)


def _parquet_rows(path: Path) -> Iterator[dict[str, Any]]:
    import pyarrow.parquet as pq

    yield from pq.read_table(path).to_pylist()


def _split(row: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    """(the row's Task, the row without the task's text)."""
    rest = {k: v for k, v in row.items() if k != "ground_truth"}
    if isinstance(row.get("reward_model"), dict):
        rest["reward_model"] = {k: v for k, v in row["reward_model"].items() if k != "ground_truth"}
    return load_task(row), rest


def compare_task_file(old: Path, new: Path) -> str | None:
    """None when every row carries an equal Task and equal other fields; else the first difference."""
    read = _parquet_rows if old.suffix == ".parquet" else _jsonl_rows
    n = 0
    sentinel = object()
    old_rows, new_rows = read(old), read(new)
    while True:
        a, b = next(old_rows, sentinel), next(new_rows, sentinel)
        if a is sentinel or b is sentinel:
            return None if a is b else f"row counts differ after {n} rows"
        (task_a, rest_a), (task_b, rest_b) = _split(a), _split(b)  # type: ignore[arg-type]
        if task_a != task_b:
            fields = [f for f in type(task_a).model_fields if getattr(task_a, f) != getattr(task_b, f)]
            return f"row {n} ({task_a.id}): the Task differs in {', '.join(fields)}"
        if rest_a != rest_b:
            keys = sorted(k for k in set(rest_a) | set(rest_b) if rest_a.get(k) != rest_b.get(k))
            return f"row {n} ({task_a.id}): the row differs in {', '.join(keys)}"
        n += 1


def _same_bytes(a: Path, b: Path) -> bool:
    if a.stat().st_size != b.stat().st_size:
        return False
    with a.open("rb") as fa, b.open("rb") as fb:
        while True:
            x, y = fa.read(1 << 20), fb.read(1 << 20)
            if x != y:
                return False
            if not x:
                return True


def compare(old: Path, new: Path) -> list[str]:
    """One line per file: ``same bytes``, ``same tasks``, or what differs. Lines of differences start
    with ``DIFF``."""
    rel_old = {p.relative_to(old) for p in old.rglob("*") if p.is_file()}
    rel_new = {p.relative_to(new) for p in new.rglob("*") if p.is_file()}
    out = [f"DIFF {r}: only in {old}" for r in sorted(rel_old - rel_new)]
    out += [f"DIFF {r}: only in {new}" for r in sorted(rel_new - rel_old)]
    for rel in sorted(rel_old & rel_new):
        a, b = old / rel, new / rel
        if _same_bytes(a, b):
            out.append(f"same bytes  {rel}")
        elif rel.name in TASK_FILES:
            problem = compare_task_file(a, b)
            out.append(f"same tasks  {rel} (bytes differ)" if problem is None else f"DIFF {rel}: {problem}")
        else:
            out.append(f"DIFF {rel}: bytes differ")
    return out


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    old, new = (Path(a) for a in argv)
    for folder in (old, new):
        if not folder.is_dir():
            print(f"{folder} is not a folder", file=sys.stderr)
            return 2
    with warnings.catch_warnings(record=True) as legacy:
        warnings.simplefilter("always", DeprecationWarning)
        lines = compare(old, new)
    for line in lines:
        print(line)
    diffs = sum(line.startswith("DIFF") for line in lines)
    print(
        f"{len(lines)} files: {diffs} differ; {sum(x.startswith('same tasks') for x in lines)} equal as tasks only; "
        f"{len(legacy)} rows read in the old metadata format"
    )
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
