"""Running ``toolground eval``: the endpoint checked first, the model's episodes and the baselines'
played with a progress bar, and what was done summarized even when the run is cut short.

Split from :mod:`toolground.cmd_eval` (the arguments) so each holds one concern. Ctrl-C stops the
episodes in flight, keeps the journal (``--resume`` continues from it) and prints the summary of
the episodes that finished; a run in which no episode ever got an answer from the model exits 1,
so a pipeline does not take a dead endpoint for a bad model.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path
from typing import Any

from toolground.errors import UsageError

INTERRUPTED = 130
NO_MODEL = 1
REACHED = ("ok", "step_limit")


def check_endpoint(base_url: str, api_key: str | None = None, timeout: float = 10.0) -> None:
    """Fail before any work when nothing answers at ``base_url``: any HTTP answer to ``GET
    {base_url}/models`` (even a 404) shows a server is there; a refused connection or a timeout
    does not."""
    import httpx

    url = base_url.rstrip("/") + "/models"
    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    try:
        httpx.get(url, headers=headers, timeout=timeout)
    except httpx.HTTPError as exc:
        why = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
        raise UsageError(
            f"the model endpoint {base_url} does not answer ({why}); start the server or fix --base-url "
            "(nothing was run)"
        ) from None


def _play(
    spec: Any, policy: Any, sessions: Any, quiet: bool, label: str
) -> tuple[list[dict[str, Any]], bool]:
    """One policy over the spec's tasks: (rows, interrupted). On Ctrl-C the rows are those the
    journal holds, which stays for ``--resume``."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from rollout.run import journal_rows, read_journal, run_eval

    try:
        spec.out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"cannot write to --out {spec.out}: {exc}") from None
    total = len(spec.tasks) * spec.repeats
    done = len(read_journal(spec.out)) if spec.resume else 0
    console = Console(file=sys.stderr)
    columns = (TextColumn(f"[bold]{label}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    bar = Progress(*columns, console=console, disable=quiet or not console.is_terminal)
    try:
        with bar:
            job = bar.add_task(label, total=total, completed=min(done, total))

            async def main() -> list[dict[str, Any]]:
                try:
                    return await run_eval(spec, policy, sessions, progress=lambda row: bar.advance(job))
                finally:
                    await policy.aclose()

            return asyncio.run(main()), False
    except KeyboardInterrupt:
        return journal_rows(spec.out), True


def _specs(args: argparse.Namespace, tasks: list[Any], names: list[str]) -> dict[str, Any]:
    """The model's run (when there is a model) and each baseline's, sharing one pool of worlds."""
    from rollout.run import EvalSpec

    def spec(out: Path, harness: str, repeats: int) -> Any:
        return EvalSpec(
            tasks, out, harness, args.preset, args.concurrency, args.max_steps, args.resume, repeats
        )

    specs: dict[str, Any] = {}
    if args.model:
        specs[f"{args.model}@{args.harness}"] = spec(args.out, args.harness, args.repeats)
    for name in names:  # deterministic policies: one episode per task says all
        specs[f"baseline:{name}"] = spec(args.out / "baselines" / name, "openai", 1)
    pool = next(iter(specs.values())).pool
    for s in specs.values():
        s.pool = pool
    return specs


def execute(args: argparse.Namespace, tasks: list[Any], policy: Any, sessions: Any, names: list[str]) -> int:
    """Play the model (if any), then each baseline; print the summary and write the page."""
    from rollout.baselines import baseline_policy

    runs: dict[str, list[dict[str, Any]]] = {}
    started = time.perf_counter()
    stopped = False
    for name, spec in _specs(args, tasks, names).items():
        is_model = not name.startswith("baseline:")
        who = policy if is_model else baseline_policy(name.removeprefix("baseline:"), tasks)
        label = "evaluating" if is_model else name
        runs[name], stopped = _play(spec, who, sessions if is_model else None, args.quiet, label)
        if stopped:
            break
    return _report(args, runs, time.perf_counter() - started, stopped)


def _report(
    args: argparse.Namespace, runs: dict[str, list[dict[str, Any]]], elapsed: float, stopped: bool
) -> int:
    from rollout.report import console_for, overall_line, print_summary, summarize
    from rollout.report_page import write_page

    out = console_for()
    first, *others = runs
    print_summary(summarize(runs[first]), out)
    if others:
        out.print("baselines on the same tasks (no model):")
        for name in others:
            out.print(f"  {name}: {overall_line(summarize(runs[name])['overall'])}", soft_wrap=True)
    shown = {k: v for k, v in runs.items() if v}
    page = write_page(shown, args.out / "report.html") if shown else None
    rows = runs[first]
    failed = sum(r["status"] not in REACHED for r in rows)
    where = args.out / "results.jsonl" if args.model else args.out / "baselines"
    out.print(f"{len(rows)} episodes in {elapsed:.1f} s ({failed} failed to run); wrote {where}, {page}")
    if stopped:
        cut = list(runs)[-1]
        print(
            f"toolground eval: interrupted during {cut}; its {len(runs[cut])} finished episodes are kept in "
            "the journal (results.partial.jsonl): rerun the same command with --resume to finish",
            file=sys.stderr,
        )
        return INTERRUPTED
    if args.model and rows and not any(r["status"] in REACHED for r in rows):
        print(
            f"toolground eval: error: no episode got an answer from the model at {args.base_url} "
            f"({failed} of {len(rows)} failed; see the 'error' of each row in results.jsonl)",
            file=sys.stderr,
        )
        return NO_MODEL
    return 0
