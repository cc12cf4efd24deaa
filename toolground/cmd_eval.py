"""``toolground eval``: a model on an OpenAI-compatible endpoint, run through the tasks and scored.

Every episode runs the task's own world on a private fork (in this process, or on a running
server with ``--mcp-url``), under one harness (how tools are shown to the model and how its calls
are read back). The run journals each finished task, so ``--resume`` continues an interrupted
run; it ends with ``results.jsonl``, a summary table and ``report.html``. Beside the model, the
same tasks are played by baselines that need no model (gold, no-op, random calls), so every figure
is read against what doing it right, doing nothing and guessing earn. ``--compare`` puts earlier
results files side by side instead, with intervals.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from toolground.errors import UsageError
from toolground.extras import optional_imports

EVAL_PRESET = "prove+paths"  # the training recipes' preset (README, examples/train_trl.py)
BASELINES = ("gold", "noop", "random")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("eval", help="evaluate a model served behind an OpenAI-compatible API on tasks")
    p.add_argument("--tasks", type=Path, help="dataset folder or .jsonl of tasks (from toolground generate)")
    p.add_argument("--base-url", help="OpenAI-compatible endpoint, e.g. http://127.0.0.1:8000/v1")
    p.add_argument("--model", help="model name sent to the endpoint")
    p.add_argument("--api-key-env", help="environment variable holding the API key")
    p.add_argument(
        "--preset",
        default=EVAL_PRESET,
        help="reward preset: prove+paths (the training recipes'), prove, prove+outcome, prove+policy or recall",
    )
    p.add_argument("--repeats", type=int, default=1, help="episodes per task: pass@1 and pass^k")
    p.add_argument(
        "--baselines",
        default=",".join(BASELINES),
        help="baselines played on the same tasks without a model (gold, noop, random; comma list, or "
        "none); without --base-url and --model only they run",
    )
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


def baselines(args: argparse.Namespace) -> list[str]:
    """The baselines asked for, checked."""
    names = [] if args.baselines.strip() == "none" else [b.strip() for b in args.baselines.split(",")]
    wrong = [b for b in names if b not in BASELINES]
    if wrong:
        raise UsageError(
            f"--baselines: unknown {', '.join(map(repr, wrong))}; allowed: gold, noop, random, none"
        )
    return list(dict.fromkeys(names))


def _check(args: argparse.Namespace) -> None:
    model_run = bool(args.base_url or args.model)
    need = ("tasks", "base_url", "model") if model_run or not baselines(args) else ("tasks",)
    missing = [f"--{k.replace('_', '-')}" for k in need if not getattr(args, k)]
    if missing:
        raise UsageError(f"{', '.join(missing)} required (or --compare RESULTS...)")
    for name in ("concurrency", "max_steps", "repeats"):
        if getattr(args, name) < 1:
            raise UsageError(f"--{name.replace('_', '-')} must be at least 1, got {getattr(args, name)}")
    if args.limit is not None and args.limit < 1:
        raise UsageError(f"--limit must be at least 1, got {args.limit}")
    if args.retries < 0 or args.timeout <= 0:
        raise UsageError("--retries must be 0 or more and --timeout above 0")
    if model_run and not args.base_url.startswith(("http://", "https://")):
        raise UsageError(f"--base-url must be an http(s) URL, got {args.base_url!r}")
    for flag in ("api_key_env", "admin_token_env"):
        var = getattr(args, flag)
        if var and var not in os.environ:
            raise UsageError(f"--{flag.replace('_', '-')} names {var}, which is not set")


def _compare(paths: list[Path], out: Path) -> int:
    from rollout.report import console_for, load_results, print_summary, run_name, summarize
    from rollout.report_page import write_page
    from rollout.report_stats import intervals

    runs: dict[str, list[dict[str, Any]]] = {}
    for path in paths:
        try:
            rows = load_results(path)
        except (OSError, ValueError) as exc:
            raise UsageError(str(exc)) from None
        runs[run_name(path, rows, taken=set(runs))] = rows
    console = console_for()
    for name, rows in runs.items():
        console.print(f"[bold]{name}[/]")
        print_summary(summarize(rows), console, intervals(rows))
    console.print(
        "(intervals: 95%, a bootstrap over tasks, a task's repeats resampled together)", markup=False
    )
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
    from toolground.eval_run import check_endpoint, execute

    tasks = _tasks(args)
    if args.base_url:
        check_endpoint(args.base_url, os.environ[args.api_key_env] if args.api_key_env else None)
        policy, sessions = _model(args), _sessions(args)
    else:
        policy = sessions = None
    return execute(args, tasks, policy, sessions, baselines(args))


def _tasks(args: argparse.Namespace) -> list[Any]:
    from rollout.run import load_tasks

    try:
        with optional_imports(f"--tasks {args.tasks} (parquet files, no tasks.jsonl)"):
            tasks = load_tasks(args.tasks, args.limit)
    except (OSError, ValueError) as exc:
        raise UsageError(str(exc)) from None
    if not tasks:
        raise UsageError(f"{args.tasks} holds no tasks")
    return tasks


def _model(args: argparse.Namespace) -> Any:
    from rollout.model import ModelClient

    params: dict[str, Any] = {"temperature": args.temperature}
    if args.max_tokens:
        params["max_tokens"] = args.max_tokens
    key = os.environ[args.api_key_env] if args.api_key_env else None
    return ModelClient(
        args.base_url, args.model, key, args.timeout, args.retries, params=params, transport=args.http_client
    )


def _sessions(args: argparse.Namespace) -> Any:
    if not args.mcp_url:
        return None
    from rollout.mcp_session import McpSessions  # the MCP client: only for this backend
    from rollout.session import SessionError

    token = os.environ[args.admin_token_env] if args.admin_token_env else None
    try:
        return McpSessions(args.mcp_url, run_id=str(os.getpid()), admin_token=token)
    except SessionError as exc:
        raise UsageError(str(exc)) from None
