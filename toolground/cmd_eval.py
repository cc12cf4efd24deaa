"""``toolground eval``: a model on an OpenAI-compatible endpoint, run through the tasks and scored.

Every episode runs the task's own world on a private fork (in this process, or on a running
server with ``--mcp-url``), under one harness (how tools are shown to the model and how its calls
are read back). The run journals each finished task, so ``--resume`` continues an interrupted
run; it ends with ``results.jsonl``, a summary table and ``report.html``. ``--compare`` puts
earlier results files side by side instead.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from pathlib import Path
from typing import Any

from toolground.errors import UsageError
from toolground.extras import optional_imports


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("eval", help="evaluate a model served behind an OpenAI-compatible API on tasks")
    p.add_argument("--tasks", type=Path, help="dataset folder or .jsonl of tasks (from toolground generate)")
    p.add_argument("--base-url", help="OpenAI-compatible endpoint, e.g. http://127.0.0.1:8000/v1")
    p.add_argument("--model", help="model name sent to the endpoint")
    p.add_argument("--api-key-env", help="environment variable holding the API key")
    p.add_argument("--preset", default="prove", help="reward preset: prove, prove+outcome or recall")
    p.add_argument("--concurrency", type=int, default=8, help="episodes in flight at once")
    p.add_argument("--max-steps", type=int, default=10, help="model requests allowed per user turn")
    p.add_argument(
        "--harness", default="openai", help="openai (tools parameter), hermes (<tool_call>) or react"
    )
    p.add_argument(
        "--out", type=Path, default=Path("eval-out"), help="where results.jsonl and report.html go"
    )
    p.add_argument("--limit", type=int, help="only the first N tasks")
    p.add_argument("--resume", action="store_true", help="continue the run already in --out")
    p.add_argument(
        "--mcp-url", help="run tools on a running toolground server (.../mcp) instead of in process"
    )
    p.add_argument("--admin-token-env", help="environment variable holding that server's admin token")
    p.add_argument("--timeout", type=float, default=120.0, help="seconds per model request")
    p.add_argument("--retries", type=int, default=4, help="retries of a failed request (transport only)")
    p.add_argument(
        "--http-client",
        choices=("auto", "httpx"),
        default="auto",
        help="auto: a lean HTTP/1.1 client for plain-http endpoints, httpx otherwise",
    )
    p.add_argument("--temperature", type=float, default=0.0)
    p.add_argument("--max-tokens", type=int, help="max_tokens sent with each request")
    p.add_argument("--compare", type=Path, nargs="+", metavar="RESULTS", help="compare results files instead")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(run=run)


def _check(args: argparse.Namespace) -> None:
    missing = [f"--{k.replace('_', '-')}" for k in ("tasks", "base_url", "model") if not getattr(args, k)]
    if missing:
        raise UsageError(f"{', '.join(missing)} required (or --compare RESULTS...)")
    for name in ("concurrency", "max_steps"):
        if getattr(args, name) < 1:
            raise UsageError(f"--{name.replace('_', '-')} must be at least 1, got {getattr(args, name)}")
    if args.limit is not None and args.limit < 1:
        raise UsageError(f"--limit must be at least 1, got {args.limit}")
    if args.retries < 0 or args.timeout <= 0:
        raise UsageError("--retries must be 0 or more and --timeout above 0")
    if not args.base_url.startswith(("http://", "https://")):
        raise UsageError(f"--base-url must be an http(s) URL, got {args.base_url!r}")
    for flag in ("api_key_env", "admin_token_env"):
        var = getattr(args, flag)
        if var and var not in os.environ:
            raise UsageError(f"--{flag.replace('_', '-')} names {var}, which is not set")


def _compare(paths: list[Path], out: Path) -> int:
    from rich.console import Console

    from rollout.report import load_results, print_summary, run_name, summarize
    from rollout.report_page import write_page

    runs: dict[str, list[dict[str, Any]]] = {}
    for path in paths:
        try:
            rows = load_results(path)
        except (OSError, ValueError) as exc:
            raise UsageError(str(exc)) from None
        runs[run_name(path, rows, taken=set(runs))] = rows
    console = Console()
    for name, rows in runs.items():
        console.print(f"[bold]{name}[/]")
        print_summary(summarize(rows), console)
    page = write_page(runs, out / "compare.html")
    console.print(f"wrote {page}")
    return 0


def run(args: argparse.Namespace) -> int:
    if args.compare:
        args.out.mkdir(parents=True, exist_ok=True)
        return _compare(args.compare, args.out)
    _check(args)
    from contract.harnesses import get_harness
    from rewards.config import get_config
    from rewards.errors import RewardInputError

    try:
        get_harness(args.harness)
        get_config(args.preset)
    except (ValueError, RewardInputError) as exc:
        raise UsageError(str(exc)) from None
    spec, policy, sessions = _build(args)
    return _execute(args, spec, policy, sessions)


def _build(args: argparse.Namespace) -> tuple[Any, Any, Any]:
    from rollout.model import ModelClient
    from rollout.run import EvalSpec, load_tasks
    from rollout.session import SessionError

    try:
        with optional_imports(f"--tasks {args.tasks} (parquet files, no tasks.jsonl)"):
            tasks = load_tasks(args.tasks, args.limit)
    except (OSError, ValueError) as exc:
        raise UsageError(str(exc)) from None
    if not tasks:
        raise UsageError(f"{args.tasks} holds no tasks")
    spec = EvalSpec(tasks, args.out, args.harness, args.preset, args.concurrency, args.max_steps, args.resume)
    params: dict[str, Any] = {"temperature": args.temperature}
    if args.max_tokens:
        params["max_tokens"] = args.max_tokens
    key = os.environ[args.api_key_env] if args.api_key_env else None
    policy = ModelClient(
        args.base_url, args.model, key, args.timeout, args.retries, params=params, transport=args.http_client
    )
    sessions = None
    if args.mcp_url:
        from rollout.mcp_session import McpSessions  # the MCP client: only for this backend

        token = os.environ[args.admin_token_env] if args.admin_token_env else None
        try:
            sessions = McpSessions(args.mcp_url, run_id=str(os.getpid()), admin_token=token)
        except SessionError as exc:
            raise UsageError(str(exc)) from None
    return spec, policy, sessions


def _execute(args: argparse.Namespace, spec: Any, policy: Any, sessions: Any) -> int:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from rollout.report import print_summary, summarize
    from rollout.report_page import write_page
    from rollout.run import read_journal, run_eval

    try:
        spec.out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"cannot write to --out {spec.out}: {exc}") from None
    done = len(read_journal(spec.out)) if spec.resume else 0
    console = Console(file=sys.stderr)
    bar = Progress(
        TextColumn("[bold]evaluating"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        disable=args.quiet or not console.is_terminal,
    )
    started = time.perf_counter()
    with bar:
        job = bar.add_task("eval", total=len(spec.tasks), completed=min(done, len(spec.tasks)))

        async def main() -> list[dict[str, Any]]:
            try:
                return await run_eval(spec, policy, sessions, progress=lambda row: bar.advance(job))
            finally:
                await policy.aclose()

        rows = asyncio.run(main())
    elapsed = time.perf_counter() - started
    out = Console()
    print_summary(summarize(rows), out)
    page = write_page({f"{args.model}@{args.harness}": rows}, spec.out / "report.html")
    failed = sum(r["status"] in ("transport_error", "model_error", "task_error") for r in rows)
    out.print(
        f"{len(rows)} tasks in {elapsed:.1f} s ({failed} failed to run); wrote {spec.out / 'results.jsonl'}, {page}"
    )
    return 0
