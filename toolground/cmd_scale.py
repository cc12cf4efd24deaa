"""``toolground serve --workers N`` / ``--ray``: the scaled-out layout, started and watched."""

from __future__ import annotations

import argparse
import math
import os
import shutil
import signal
import sys
import tempfile
from pathlib import Path

from servers.runtime import Environment
from toolground.errors import UsageError


def shard_arguments(args: argparse.Namespace, shards: int) -> list[str]:
    """The ``serve`` arguments every shard gets: the same world and rules as a single server.

    ``--max-sessions`` is the server's total, so each shard holds its share (rounded up)."""
    out = ["--domains", args.domains, "--seed", str(args.seed), "--scale", args.scale]
    out += ["--max-sessions", str(math.ceil(args.max_sessions / shards)), "--idle-ttl", str(args.idle_ttl)]
    for host in args.allowed_host:
        out += ["--allowed-host", host]
    if args.tasks is not None:
        out += ["--tasks", str(args.tasks)]
    out += [
        flag
        for flag, on in (
            ("--stateless", args.stateless),
            ("--full-stack", args.full_stack),
            ("--lax-arguments", args.lax_arguments),
        )
        if on
    ]
    return out


def serve_scaled(args: argparse.Namespace, domains: list) -> int:
    env = os.environ.copy()
    if args.admin_token:
        env["TOOLGROUND_ADMIN_TOKEN"] = args.admin_token  # not on the command line, where ps shows it
    print(
        f"building snapshots for {', '.join(d.name for d in domains)} (seed {args.seed}, {args.scale}) ...",
        file=sys.stderr,
        flush=True,
    )
    Environment(domains, seed=args.seed, scale=args.scale).snapshots()  # cached once, so shards only load
    run_dir = args.run_dir or Path(tempfile.mkdtemp(prefix="toolground-"))
    shards = args.workers
    serve_args = shard_arguments(args, shards)
    if args.ray:
        from servers.scale.on_ray import RayCluster
        from toolground.cmd_serve import shard_app
        from toolground.io_stack import fast_io

        cluster = RayCluster(
            shards,
            args.gateways,
            args.host,
            args.port,
            serve_args,
            run_dir,
            env=env,
            address=args.ray_address,
            build=shard_app,
            io=fast_io(),
        )
    else:
        from servers.scale.local import LocalCluster

        cluster = LocalCluster(shards, args.gateways, args.host, args.port, serve_args, run_dir, env=env)
    signal.signal(signal.SIGTERM, lambda *_: cluster.stop())
    try:
        cluster.start()
    except RuntimeError as exc:
        raise UsageError(str(exc)) from None
    engine = "Ray actors" if args.ray else "processes"
    print(
        f"MCP endpoint: http://{args.host}:{args.port}/mcp  ({shards} shards as {engine}, {args.gateways} gateways; run folder {run_dir})",
        file=sys.stderr,
        flush=True,
    )
    try:
        cluster.watch()
    except KeyboardInterrupt:
        pass
    finally:
        cluster.stop()
        if args.run_dir is None:  # a temp folder of sockets and journals nothing reads once all stopped
            shutil.rmtree(run_dir, ignore_errors=True)
    return 0
