"""Issue 8's figures: how realistic generated tasks are, now against a dataset made earlier.

Generates ``--n`` tasks of every domain with the current generator (default workers), measures
them with :func:`querygen.text.realism.measure`, and prints the figures beside those of ``--before``
(a dataset folder written by an older ``toolground generate``, measured by the same detectors),
plus validated tasks per second of this run.

    .venv/bin/python bench/bench_realism.py --n 2000 --seed 8 --before /tmp/old_ds
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

# this checkout's code, not whichever one the virtualenv installed (a run from an old worktree
# would otherwise measure the installed tree)
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from contract.load import load_tasks
from contract.messages import messages
from contract.task import Task
from querygen.generate import GenConfig, Generator
from querygen.text.realism import measure, specs_for
from servers.registry import available

ROWS = (
    ("leaks", "values a gold call discovers that the user already said"),
    ("unseen_ids", "user mentions of ids only a tool result showed"),
    ("ambiguous", "ambiguous references"),
    ("garbled", "sentences with a description, placeholder or tool name"),
    ("invalid_values", "invalid typed values in gold arguments"),
    ("coherence", "steps touching an entity the episode knew"),
    ("natural_share", "entity mentions by a natural attribute (complete tasks)"),
)


def figures(tasks: list[Task]) -> dict[str, Any]:
    out = measure(tasks, specs_for(sorted({d for t in tasks for d in t.domains})))
    answers = [
        m["content"]
        for task in tasks
        for m in messages(task)
        if m["role"] == "assistant" and not m.get("tool_calls") and m.get("content")
    ]
    dumps = sum(1 for a in answers if "Here is what I found" in a or a == "Done.")
    out["dump_answers"] = dumps / max(1, len(answers))
    return out


def _cell(value: Any) -> str:
    if value is None:
        return "not recorded"
    return f"{value:.1%}" if isinstance(value, float) else str(value)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=8)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--domains", default="all", help="comma list or 'all' (default: every domain)")
    ap.add_argument("--before", type=Path, help="a dataset folder made by an earlier generator")
    ap.add_argument("--save", type=Path, help="write the generated tasks here (JSONL) to look at")
    args = ap.parse_args()
    names = available() if args.domains == "all" else [d.strip() for d in args.domains.split(",")]
    gen = Generator(GenConfig(domains=tuple(names), n=args.n, seed=args.seed))
    start = time.perf_counter()
    tasks, stats = gen.run(workers=args.workers)
    took = time.perf_counter() - start
    now = figures(tasks)
    if args.save:
        args.save.write_text("".join(t.model_dump_json() + "\n" for t in tasks))
    before = figures(load_tasks(args.before)) if args.before else None
    print(
        f"{len(tasks)} tasks in {took:.1f} s: {len(tasks) / took:.0f} validated tasks/s ({args.workers} workers)"
    )
    print(f"rejections: {stats.as_dict()['rejected']}")
    head = "| figure | before | now |" if before else "| figure | now |"
    print(head)
    print("|---|---:|---:|" if before else "|---|---:|")
    for key, label in (*ROWS, ("dump_answers", "answers that dump values or say only 'Done.'")):
        cells = [_cell(before.get(key)) if before else None, _cell(now.get(key))]
        print(f"| {label} | " + " | ".join(c for c in cells if c is not None) + " |")
    print(f"reference kinds now: {now['reference_kinds']}")
    if before:
        print(f"reference kinds before: {before['reference_kinds']}")


if __name__ == "__main__":
    main()
