"""``toolground reward-serve``: the reward as an HTTP service for RL trainers."""

from __future__ import annotations

import argparse
import sys

from toolground.errors import UsageError
from toolground.io_stack import fast_io


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("reward-serve", help="serve the reward over HTTP (/score, /score/batch, /openrlhf)")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8100)
    p.add_argument("--preset", default="prove", help="default preset: prove, prove+outcome or recall")
    p.add_argument("--max-body-mb", type=float, default=8.0, help="largest request body accepted (MiB)")
    p.add_argument("--workers", type=int, default=4, help="threads scoring and replaying at once")
    p.add_argument(
        "--log-level", default="warning", choices=["critical", "error", "warning", "info", "debug"]
    )
    p.set_defaults(run=serve)


def serve(args: argparse.Namespace) -> int:
    import uvicorn

    from rewards import RewardInputError, get_config
    from rewards.service import create_app

    if not 0 < args.port < 65536:
        raise UsageError(f"--port must be 1-65535, got {args.port}")
    if args.max_body_mb <= 0 or args.workers < 1:
        raise UsageError("--max-body-mb must be > 0 and --workers >= 1")
    try:
        preset = get_config(args.preset).preset
    except RewardInputError as exc:
        raise UsageError(exc.message) from None
    app = create_app(
        max_body=int(args.max_body_mb * 1024 * 1024), default_preset=preset, workers=args.workers
    )
    print(f"reward service ({preset}) on http://{args.host}:{args.port}", file=sys.stderr, flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level, **fast_io())
    return 0
