"""``toolground verl-tools``: verl's tool YAML (and agent-loop YAML) for a generated dataset.

verl registers tools once per worker from ``multi_turn.tool_config_path`` and the rows pick them
by name; this writes one entry per tool the dataset offers (``rollout.verl.ToolgroundTool``, so
each call runs on the trajectory's own task world), an agent-loop file that makes the rows'
``tool_agent`` show each row its exact schemas, and prints the verl overrides, with
``multi_turn`` limits measured on the dataset's gold trajectories. Needs no verl.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from toolground.errors import UsageError
from toolground.extras import optional_imports


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("verl-tools", help="write verl's tool YAML and agent-loop YAML for a dataset")
    p.add_argument("--tasks", type=Path, required=True, help="dataset folder or .jsonl (toolground generate)")
    p.add_argument("--out", type=Path, required=True, help="tool YAML to write (tool_config_path)")
    p.add_argument(
        "--agent-loop-out", type=Path, help="agent-loop YAML to write (default: agent_loop.yaml beside --out)"
    )
    p.add_argument(
        "--mcp-url", help="run the calls on a toolground serve (.../mcp) instead of in the rollout worker"
    )
    p.add_argument("--admin-token-env", help="environment variable holding that server's admin token")
    p.add_argument("--cache", help="snapshot cache folder for in-process calls (default: toolground's)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from rollout.run import load_tasks
    from rollout.verl import Backend
    from rollout.verl_config import config_snippet, write_verl_config

    try:
        with optional_imports(f"--tasks {args.tasks} (parquet files, no tasks.jsonl)"):
            tasks = load_tasks(args.tasks)
    except (OSError, ValueError) as exc:
        raise UsageError(str(exc)) from None
    if not tasks:
        raise UsageError(f"{args.tasks} holds no tasks")
    backend = Backend("mcp" if args.mcp_url else "inproc", args.mcp_url, args.admin_token_env, args.cache)
    if args.mcp_url and not args.mcp_url.startswith(("http://", "https://")):
        raise UsageError(
            f"--mcp-url must be an http(s) URL such as http://127.0.0.1:8000/mcp, got {args.mcp_url!r}"
        )
    try:
        tools, loops, settings = write_verl_config(tasks, args.out, args.agent_loop_out, backend)
    except OSError as exc:
        raise UsageError(f"cannot write {exc.filename or args.out}: {exc.strerror or exc}") from None
    print(f"wrote {tools} and {loops} for {len(tasks)} tasks")
    print(f"longest gold tool result: {settings['longest_gold_result']} characters")
    print("verl overrides:")
    print(config_snippet(tools.resolve(), loops.resolve(), settings))
    return 0
