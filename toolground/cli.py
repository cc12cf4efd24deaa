"""The ``toolground`` command: a thin front door over the packages.

Each subcommand lives in its own module exposing ``register(subparsers)``;
this file only lists them. Errors a user can fix end with a one-line message
and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from toolground.errors import UsageError

COMMANDS = (
    "toolground.cmd_serve",
    "toolground.cmd_gateway",
    "toolground.cmd_snapshot",
    "toolground.cmd_score",
    "toolground.cmd_reward_serve",
    "toolground.cmd_generate",
    "toolground.cmd_report",
    "toolground.cmd_eval",
    "toolground.cmd_verl_tools",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="toolground", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in COMMANDS:
        importlib.import_module(module).register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.run(args) or 0)
    except UsageError as exc:
        print(f"toolground {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
