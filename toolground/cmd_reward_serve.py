"""``toolground reward-serve``: the reward as an HTTP service for RL trainers.

One process by default; ``--workers N`` runs N worker processes on one port; ``--ray`` deploys
``--workers`` Ray Serve replicas instead (:mod:`rewards.ray_serve`). ``--threads`` is how many
requests each process scores at once (scoring is CPU-bound Python, so threads overlap replay I/O
but not the GIL: processes are what use more cores).

Why a supervisor of ours and not uvicorn's ``workers=``: uvicorn needs an import string and
would carry the settings to its spawned workers through environment variables; here every worker
is ``toolground reward-serve --fd FD ...`` with the same, already validated command line (``ps``
shows it) and the listening socket the supervisor bound. Binding it once up front makes a busy port
a one-line error before any worker starts, lets early clients queue in the backlog while workers
import, and lets the kernel hand each new connection to whichever worker accepts it first. The
workers are watched by ``serve --workers``'s own :class:`servers.scale.local.Supervisor`: they die
with it, and one that exits is started again.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
import time
from typing import Any

from toolground.errors import UsageError
from toolground.extras import require
from toolground.io_stack import fast_io

LOG_LEVELS = ["critical", "error", "warning", "info", "debug"]


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("reward-serve", help="serve the reward over HTTP (/score, /score/batch, /openrlhf)")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8100)
    p.add_argument(
        "--allowed-host",
        action="append",
        default=[],
        help="extra Host header value to accept (loopback names always pass), as for serve",
    )
    p.add_argument("--preset", default="prove", help="default preset: prove, prove+outcome or recall")
    p.add_argument("--max-body-mb", type=float, default=8.0, help="largest request body accepted (MiB)")
    p.add_argument("--threads", type=int, default=4, help="requests each process scores at once")
    p.add_argument(
        "--world",
        action="append",
        default=[],
        metavar="DOMAINS:SEED:SCALE",
        help="build this world at start and always serve it, e.g. banking,crm:0:small (repeatable)",
    )
    p.add_argument(
        "--no-build", action="store_true", help="serve only the --world worlds; never build one a task names"
    )
    p.add_argument(
        "--max-worlds",
        type=int,
        help="worlds kept that tasks made the service build, least recently used dropped (default 32)",
    )
    p.add_argument(
        "--max-world-mb",
        type=float,
        help="memory (MiB) kept for worlds tasks made the service build (default 2048)",
    )
    p.add_argument(
        "--workers", type=int, default=1, help="worker processes sharing the port (with --ray: replicas)"
    )
    p.add_argument("--ray", action="store_true", help="deploy on Ray Serve (pip install 'toolground[ray]')")
    p.add_argument(
        "--ray-address", help="join this Ray cluster ('auto': the running one; default: a new local one)"
    )
    p.add_argument("--route-prefix", default="/", help="with --ray: the path the service is mounted on")
    p.add_argument("--log-level", default="warning", choices=LOG_LEVELS)
    p.add_argument("--fd", type=int, help=argparse.SUPPRESS)  # a worker's inherited listening socket
    p.set_defaults(run=serve)


def serve(args: argparse.Namespace) -> int:
    settings = _settings(args)
    if args.ray:
        return _serve_on_ray(args, settings)
    if args.workers > 1:
        return _supervise(args, settings)
    from rewards.service import create_app

    app = create_app(**settings)
    if args.fd is not None:
        from servers.scale.sockets import inherited_listener, serve_on

        serve_on(app, inherited_listener(args.fd), log_level=args.log_level, **fast_io())
        return 0
    import uvicorn

    _announce(args, settings, "1 process")
    uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level, **fast_io())
    return 0


def _settings(args: argparse.Namespace) -> dict[str, Any]:
    """``create_app``'s keyword arguments, or a UsageError naming the bad option."""
    from rewards import RewardInputError, get_config

    if not 0 < args.port < 65536:
        raise UsageError(f"--port must be 1-65535, got {args.port}")
    if args.max_body_mb <= 0 or args.threads < 1 or args.workers < 1:
        raise UsageError(
            f"--max-body-mb must be > 0 and --threads and --workers >= 1, got {args.max_body_mb:g}, "
            f"{args.threads} and {args.workers}"
        )
    if not args.ray and (args.ray_address or args.route_prefix != "/"):
        raise UsageError("--ray-address and --route-prefix need --ray")
    if not args.route_prefix.startswith("/"):
        raise UsageError(f"--route-prefix must start with '/', got {args.route_prefix!r}")
    if args.fd is not None and (args.ray or args.workers > 1):
        raise UsageError("--fd is one worker's socket; it does not go with --workers or --ray")
    try:
        preset = get_config(args.preset).preset
    except RewardInputError as exc:
        raise UsageError(exc.message) from None
    from rewards.worlds import DEFAULT_MAX_WORLD_BYTES, DEFAULT_MAX_WORLDS

    if args.max_worlds is None:
        args.max_worlds = DEFAULT_MAX_WORLDS
    if args.max_world_mb is None:
        args.max_world_mb = DEFAULT_MAX_WORLD_BYTES / 2**20
    if args.max_worlds < 0 or args.max_world_mb < 0:
        raise UsageError(
            f"--max-worlds and --max-world-mb must be >= 0, got {args.max_worlds} and {args.max_world_mb:g}"
        )
    if args.ray:  # after the options' own checks: a wrong option is named whether or not Ray is here
        require("ray", "--ray")
    return {
        "max_body": int(args.max_body_mb * 1024 * 1024),
        "default_preset": preset,
        "workers": args.threads,
        "allowed_hosts": list(args.allowed_host),
        "worlds": [_world(spec) for spec in args.world],
        "build": not args.no_build,
        "max_worlds": args.max_worlds,
        "max_world_mb": args.max_world_mb,
    }


def _world(spec: str) -> tuple[tuple[str, ...], int, str]:
    """One ``--world``, with its domains and scale checked (a UsageError naming what exists)."""
    from rewards.worlds import parse_world
    from servers.registry import UnknownDomain, get_domain
    from state import SCALES

    try:
        domains, seed, scale = parse_world(spec)
        for name in domains:
            get_domain(name)
    except UnknownDomain as exc:
        raise UsageError(f"--world {spec!r}: {str(exc).strip(chr(39) + chr(34))}") from None
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if scale not in SCALES:
        raise UsageError(f"--world {spec!r}: unknown scale {scale!r}; allowed: {', '.join(SCALES)}")
    return domains, seed, scale


def _announce(args: argparse.Namespace, settings: dict[str, Any], layout: str) -> None:
    print(
        f"reward service ({settings['default_preset']}) on http://{args.host}:{args.port}"
        f"  ({layout}, {args.threads} threads each)",
        file=sys.stderr,
        flush=True,
    )


def _supervise(args: argparse.Namespace, settings: dict[str, Any]) -> int:
    """``--workers N``: N ``reward-serve --fd`` children on one socket, restarted if they exit."""
    from servers.scale.local import TOOLGROUND, Child, Supervisor, tcp_listener

    try:
        listener = tcp_listener(args.host, args.port, inheritable=True)
    except OSError as exc:
        raise UsageError(f"cannot listen on {args.host}:{args.port}: {exc.strerror}") from None
    fd = listener.fileno()
    argv = [*TOOLGROUND, "reward-serve", "--preset", args.preset, "--max-body-mb", str(args.max_body_mb)]
    argv += ["--threads", str(args.threads), "--log-level", args.log_level, "--fd", str(fd)]
    for host in args.allowed_host:
        argv += ["--allowed-host", host]
    for world in args.world:
        argv += ["--world", world]
    argv += ["--max-worlds", str(args.max_worlds), "--max-world-mb", str(args.max_world_mb)]
    argv += ["--no-build"] if args.no_build else []
    workers = Supervisor(dict(os.environ))
    signal.signal(signal.SIGTERM, lambda *_: workers.stop())
    for i in range(args.workers):
        workers.start(Child(f"reward worker {i}", argv, pass_fds=(fd,)))
    _announce(args, settings, f"{args.workers} worker processes")
    try:
        workers.watch()
    except KeyboardInterrupt:
        pass
    finally:
        workers.stop()
        listener.close()
    return 0


def _serve_on_ray(args: argparse.Namespace, settings: dict[str, Any]) -> int:
    """``--ray``: deploy ``--workers`` replicas, serve until Ctrl-C or SIGTERM, then take them down."""
    from rewards import ray_serve

    try:
        started = time.monotonic()
        deployed = ray_serve.deploy(
            args.workers,
            host=args.host,
            port=args.port,
            route_prefix=args.route_prefix,
            address=args.ray_address,
            log_level=args.log_level,
            **settings,
        )
    except ray_serve.RayUnavailable as exc:
        raise UsageError(str(exc)) from None
    where = f"Ray cluster {args.ray_address}" if args.ray_address else "a local Ray"
    print(
        f"reward service ({settings['default_preset']}) on {deployed.url}  ({args.workers} Ray Serve replicas "
        f"on {where}, {args.threads} threads each; up in {time.monotonic() - started:.1f} s)",
        file=sys.stderr,
        flush=True,
    )
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    try:
        while not stop.wait(0.5):
            pass
    except KeyboardInterrupt:
        pass
    finally:
        deployed.close()
    return 0
