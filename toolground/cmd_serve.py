"""``toolground serve``: the simulated services over streamable HTTP (+ SSE) or stdio."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from servers.binding import load_tasks
from servers.inbound import body_timeout_setting
from servers.registry import UnknownDomain, parse_domains
from servers.runtime import Environment
from servers.scale.owner import parse_shard
from servers.scale.shard import LostMcpSessions, ShardCustodian, mint_mcp_session_ids
from servers.scale.sockets import serve_on, unix_listener
from servers.serve import MCP_PATH, SSE_PATH, build_http_app, is_loopback, run_stdio
from state import SCALES
from toolground.errors import UsageError
from toolground.extras import require
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
        "--idle-ttl",
        type=float,
        default=1800.0,
        help="seconds before an idle env session is dropped; its next call then fails until it is reset, bound or released (default 1800)",
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
        help="tasks.jsonl (or a dataset folder holding one): an X-Env-Task: <id> header binds an env session to a task",
    )
    p.add_argument(
        "--lax-arguments",
        action="store_true",
        help='coerce arguments of the wrong JSON type ("5" or true for a number) instead of refusing them',
    )
    _scale_out_arguments(p.add_argument_group("scaling out (docs/scale-out.md)"))
    p.set_defaults(run=serve)


def _scale_out_arguments(scale: argparse._ArgumentGroup) -> None:
    """Flags of a scaled-out server. ``--shard``, ``--uds`` and ``--journal`` are what ``--workers``
    passes to the shard processes it starts, so ``--help`` does not show them."""
    scale.add_argument(
        "--workers",
        type=int,
        default=1,
        help="shard processes, each owning the env sessions that hash to it, behind --gateways (default 1: one process)",
    )
    scale.add_argument(
        "--gateways",
        type=int,
        default=2,
        help="gateway processes forwarding to the shards (with --workers > 1)",
    )
    scale.add_argument(
        "--ray",
        action="store_true",
        help="run the shards as named Ray actors (pip install 'toolground[ray]')",
    )
    scale.add_argument("--ray-address", help="join this Ray cluster (default: start a local one)")
    scale.add_argument(
        "--run-dir",
        type=Path,
        help="where the shards keep their sockets and journals (default: a new temp folder)",
    )
    scale.add_argument("--shard", help=argparse.SUPPRESS)  # INDEX/COUNT of a scaled-out server
    scale.add_argument("--uds", type=Path, help=argparse.SUPPRESS)  # a Unix socket, not --host/--port
    scale.add_argument("--journal", type=Path, help=argparse.SUPPRESS)  # env sessions kept over a restart


def serve(args: argparse.Namespace) -> int:
    _check(args)
    domains = _domains(args)
    tasks = _tasks(args)
    if args.workers > 1 or args.ray:
        from toolground.cmd_scale import serve_scaled

        return serve_scaled(args, domains)
    env = _environment(args, domains)
    shard = _as_shard(args, env)
    if shard is None:
        print(
            f"building snapshots for {', '.join(d.name for d in domains)} (seed {args.seed}, {args.scale}) ...",
            file=sys.stderr,
            flush=True,
        )
    snapshots = env.snapshots()
    if shard is None:
        for name, snap in snapshots.items():
            print(f"  {name:<14} {snap.sha256[:16]}  {snap.size / 1e6:.1f} MB", file=sys.stderr)
    if args.transport == "stdio":
        run_stdio(env)
        return 0
    app = _http_app(args, env, tasks, shard)
    io = fast_io()
    if args.uds is not None:
        serve_on(app, unix_listener(args.uds), **io)
        return 0
    if tasks and shard is None:
        _warn_unserved(tasks, domains)
    if shard is None:
        base = f"http://{args.host}:{args.port}"
        print(
            f"MCP endpoint: {base}{MCP_PATH}  ({len(env.visible_tools())} tools; "
            f"{'full stack' if args.full_stack else 'lean path'}, {io['loop']} + {io['http']}); SSE: {base}{SSE_PATH}"
            + (f"; {len(tasks)} tasks for X-Env-Task" if tasks is not None else ""),
            file=sys.stderr,
            flush=True,
        )
    import uvicorn

    uvicorn.run(app, host=args.host, port=args.port, log_level="warning", **io)
    return 0


def shard_app(argv: list[str]) -> Any:
    """The ASGI app ``toolground serve ARGV`` would serve, ARGV naming a ``--shard``; built, not served.

    A Ray shard actor (:mod:`servers.scale.on_ray`) serves it on a socket of its own. Building it from
    the same arguments, through the same checks and steps as the ``--shard`` process that
    ``--workers`` starts, keeps the two engines' shards one and the same server. UsageError as the
    command line would report it."""
    parser = argparse.ArgumentParser(prog="toolground")
    register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["serve", *argv])
    _check(args)
    if not args.shard or args.transport != "http":
        raise UsageError("a shard app is served over HTTP and needs --shard INDEX/COUNT")
    env = _environment(args, _domains(args))
    shard = _as_shard(args, env)
    env.snapshots()
    return _http_app(args, env, _tasks(args), shard)


def _domains(args: argparse.Namespace) -> list:
    try:
        return parse_domains(args.domains)
    except UnknownDomain as exc:
        raise UsageError(str(exc)) from None


def _environment(args: argparse.Namespace, domains: list) -> Environment:
    return Environment(
        domains,
        seed=args.seed,
        scale=args.scale,
        max_sessions=args.max_sessions,
        idle_ttl=args.idle_ttl,
        lax_arguments=args.lax_arguments,
    )


def _http_app(
    args: argparse.Namespace, env: Environment, tasks: dict | None, shard: ShardCustodian | None
) -> Any:
    app = _plain_http_app(args, env, tasks, shard)
    return app if shard is None else LostMcpSessions(app, shard, env.store.release)


def _plain_http_app(
    args: argparse.Namespace, env: Environment, tasks: dict | None, shard: ShardCustodian | None
) -> Any:
    return build_http_app(
        env,
        admin_token=args.admin_token,
        allowed_hosts=args.allowed_host,
        stateless=args.stateless,
        lean=not args.full_stack,
        tasks=tasks,
        health_extra=shard.describe if shard is not None else None,
        session_tag=shard.session_tag if shard is not None else "",
    )


def _check(args: argparse.Namespace) -> None:
    if not 0 < args.port < 65536:
        raise UsageError(f"--port must be 1-65535, got {args.port}")
    if args.max_sessions < 1 or args.idle_ttl <= 0:
        raise UsageError("--max-sessions must be >= 1 and --idle-ttl > 0")
    if args.transport == "http" and not is_loopback(args.host) and not args.admin_token:
        raise UsageError(
            f"binding {args.host} exposes the /admin API beyond this machine; set --admin-token or TOOLGROUND_ADMIN_TOKEN"
        )
    try:
        body_timeout_setting()
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if args.workers < 1 or args.gateways < 1:
        raise UsageError(f"--workers and --gateways must be >= 1, got {args.workers} and {args.gateways}")
    scaled = args.workers > 1 or args.ray
    if scaled and args.transport != "http":
        raise UsageError("--workers and --ray serve over HTTP; stdio is one process by nature")
    if scaled and args.shard:
        raise UsageError("--shard runs one shard; --workers/--ray start the shards themselves")
    if args.ray_address and not args.ray:
        raise UsageError("--ray-address needs --ray")
    if args.ray:
        require("ray", "--ray")
    if (args.journal or args.uds) and not args.shard:
        raise UsageError("--journal and --uds are a shard's settings: use them with --shard INDEX/COUNT")


def _tasks(args: argparse.Namespace) -> dict | None:
    if args.tasks is None:
        return None
    if args.transport != "http":
        raise UsageError(
            "--tasks binds env sessions by the X-Env-Task HTTP header, so it needs --transport http"
        )
    try:
        return load_tasks(args.tasks)
    except (OSError, ValueError) as exc:
        raise UsageError(f"--tasks: {exc}") from None


def _as_shard(args: argparse.Namespace, env: Environment) -> ShardCustodian | None:
    """With ``--shard K/N``: hold only the env sessions shard K owns, and mint MCP session ids naming it."""
    if not args.shard:
        return None
    try:
        index, count = parse_shard(args.shard)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    custodian = ShardCustodian(index, count, args.journal)
    env.store.custodian = custodian
    mint_mcp_session_ids(index)
    return custodian


def _warn_unserved(tasks: dict, domains: list) -> None:
    served = {d.name for d in domains}
    unserved = sorted({d for t in tasks.values() for d in t.domains} - served)
    if unserved:
        print(
            f"warning: some of the {len(tasks)} tasks need domains not served here ({', '.join(unserved)}); "
            "binding them will be refused",
            file=sys.stderr,
        )
