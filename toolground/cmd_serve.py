"""``toolground serve``: the simulated services over streamable HTTP (+ SSE) or stdio."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from servers.binding import load_tasks
from servers.registry import UnknownDomain, parse_domains
from servers.runtime import Environment
from servers.serve import MCP_PATH, SSE_PATH, build_http_app, is_loopback, run_stdio
from state import SCALES
from toolground.errors import UsageError
from toolground.io_stack import fast_io


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("serve", help="serve domains as a stateful MCP server")
    p.add_argument("--domains", default="all", help="comma list of domains, or 'all' (default)")
    p.add_argument("--transport", choices=["http", "stdio"], default="http")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--scale", choices=SCALES, default="medium")
    p.add_argument("--max-sessions", type=int, default=10_000)
    p.add_argument(
        "--idle-ttl", type=float, default=1800.0, help="seconds before an idle env session is dropped"
    )
    p.add_argument(
        "--admin-token",
        default=os.environ.get("TOOLGROUND_ADMIN_TOKEN"),
        help="bearer token for /admin (or TOOLGROUND_ADMIN_TOKEN); required off loopback",
    )
    p.add_argument("--allowed-host", action="append", default=[], help="extra Host header value to accept")
    p.add_argument(
        "--stateless", action="store_true", help="no MCP handshake sessions (for multi-worker setups)"
    )
    p.add_argument(
        "--full-stack",
        action="store_true",
        help="answer tools/call and tools/list through the whole fastmcp stack too (no lean path)",
    )
    p.add_argument(
        "--tasks",
        type=Path,
        help="tasks.jsonl (or a dataset folder holding one): an X-Env-Task: <id> header binds a session to a task",
    )
    p.add_argument(
        "--lax-arguments",
        action="store_true",
        help='coerce arguments of the wrong JSON type ("5" or true for a number) instead of refusing them',
    )
    p.set_defaults(run=serve)


def serve(args: argparse.Namespace) -> int:
    if not 0 < args.port < 65536:
        raise UsageError(f"--port must be 1-65535, got {args.port}")
    if args.max_sessions < 1 or args.idle_ttl <= 0:
        raise UsageError("--max-sessions must be >= 1 and --idle-ttl > 0")
    if args.transport == "http" and not is_loopback(args.host) and not args.admin_token:
        raise UsageError(
            f"binding {args.host} exposes the /admin API beyond this machine; set --admin-token or TOOLGROUND_ADMIN_TOKEN"
        )
    try:
        domains = parse_domains(args.domains)
    except UnknownDomain as exc:
        raise UsageError(str(exc)) from None
    tasks = None
    if args.tasks is not None:
        if args.transport != "http":
            raise UsageError(
                "--tasks binds sessions by the X-Env-Task HTTP header, so it needs --transport http"
            )
        try:
            tasks = load_tasks(args.tasks)
        except (OSError, ValueError) as exc:
            raise UsageError(f"--tasks: {exc}") from None
    env = Environment(
        domains,
        seed=args.seed,
        scale=args.scale,
        max_sessions=args.max_sessions,
        idle_ttl=args.idle_ttl,
        lax_arguments=args.lax_arguments,
    )
    print(
        f"building snapshots for {', '.join(d.name for d in domains)} (seed {args.seed}, {args.scale}) ...",
        file=sys.stderr,
        flush=True,
    )
    for name, snap in env.snapshots().items():
        print(f"  {name:<14} {snap.sha256[:16]}  {snap.size / 1e6:.1f} MB", file=sys.stderr)
    if args.transport == "stdio":
        run_stdio(env)
        return 0
    import uvicorn

    app = build_http_app(
        env,
        admin_token=args.admin_token,
        allowed_hosts=args.allowed_host,
        stateless=args.stateless,
        lean=not args.full_stack,
        tasks=tasks,
    )
    io = fast_io()
    if tasks:
        served = {d.name for d in domains}
        unserved = sorted({d for t in tasks.values() for d in t.domains} - served)
        if unserved:
            print(
                f"warning: some of the {len(tasks)} tasks need domains not served here ({', '.join(unserved)}); "
                "binding them will be refused",
                file=sys.stderr,
            )
    base = f"http://{args.host}:{args.port}"
    print(
        f"MCP endpoint: {base}{MCP_PATH}  ({len(env.visible_tools())} tools; "
        f"{'full stack' if args.full_stack else 'lean path'}, {io['loop']} + {io['http']}); SSE: {base}{SSE_PATH}"
        + (f"; {len(tasks)} tasks for X-Env-Task" if tasks is not None else ""),
        file=sys.stderr,
        flush=True,
    )
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning", **io)
    return 0
