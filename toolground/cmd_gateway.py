"""``toolground gateway``: a stateless front end forwarding each request to the shard that owns it."""

from __future__ import annotations

import argparse
import os
import socket
import sys
from pathlib import Path

from servers.inbound import InboundGuard
from servers.scale.gateway import Gateway, is_loopback
from servers.scale.sockets import KEEP_ALIVE, inherited_listener, serve_on
from toolground.errors import UsageError
from toolground.io_stack import fast_io


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("gateway", help="forward MCP and /admin requests to the shards of a scaled-out server")
    p.add_argument(
        "--shards",
        required=True,
        help="comma list of shard addresses in shard order (http://HOST:PORT or unix:/PATH); "
        "shard i must be started with --shard i/COUNT",
    )
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument(
        "--fd", type=int, help="serve on this inherited listening socket (what serve --workers passes)"
    )
    p.add_argument("--index", type=int, default=0, help="this gateway's number, sent as X-Toolground-Gateway")
    p.add_argument(
        "--admin-token",
        default=os.environ.get("TOOLGROUND_ADMIN_TOKEN"),
        help="bearer token the gateway requires for /admin (or TOOLGROUND_ADMIN_TOKEN); required off "
        "loopback. Without it /admin answers only clients whose address is loopback",
    )
    p.add_argument(
        "--supervisor-state",
        type=Path,
        help="the supervisor's state file, read for /health (what serve --workers passes)",
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    shards = [s.strip() for s in args.shards.split(",") if s.strip()]
    try:
        # header values trimmed and bodies bounded here too, as in serve (servers/inbound.py)
        app = InboundGuard(
            Gateway(
                shards,
                index=args.index,
                admin_token=args.admin_token or None,
                supervisor_state=args.supervisor_state,
            )
        )
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    io = fast_io()
    if args.fd is not None:
        listener = inherited_listener(args.fd)
        _check_exposure(listener.getsockname()[0] if listener.family != socket.AF_UNIX else "localhost", args)
        serve_on(app, listener, **io)
        return 0
    if not 0 < args.port < 65536:
        raise UsageError(f"--port must be 1-65535, got {args.port}")
    _check_exposure(args.host, args)
    import uvicorn

    print(f"gateway on http://{args.host}:{args.port} for {len(shards)} shards", file=sys.stderr, flush=True)
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        log_level="warning",
        timeout_keep_alive=KEEP_ALIVE,
        access_log=False,
        proxy_headers=False,
        **io,
    )
    return 0


def _check_exposure(host: str, args: argparse.Namespace) -> None:
    """As ``serve``: listening beyond this machine needs an admin token, or /admin would be open to it."""
    if not is_loopback(host) and not args.admin_token:
        raise UsageError(
            f"listening on {host} exposes the /admin API of every shard beyond this machine; "
            "set --admin-token or TOOLGROUND_ADMIN_TOKEN (clients then send 'Authorization: Bearer <token>')"
        )
