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

COMMANDS = {  # name -> the module that registers it
    "serve": "toolground.cmd_serve",
    "gateway": "toolground.cmd_gateway",
    "snapshot": "toolground.cmd_snapshot",
    "score": "toolground.cmd_score",
    "reward-serve": "toolground.cmd_reward_serve",
    "generate": "toolground.cmd_generate",
    "report": "toolground.cmd_report",
    "eval": "toolground.cmd_eval",
    "verl-tools": "toolground.cmd_verl_tools",
}


class ShowDefaults(argparse.HelpFormatter):
    """Help that states each option's default ("--n N  number of tasks to keep (default: 100)"),
    so nothing a command does unasked is hidden; options without one (None, off) say nothing."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        default = action.default
        if (
            "%(default)" in text
            or default in (None, False, "", argparse.SUPPRESS)
            or not action.option_strings
        ):
            return text
        return f"{text} (default: %(default)s)"


def _show_defaults(parser: argparse.ArgumentParser) -> None:
    """Every subcommand's parser (and theirs: ``snapshot build``) with :class:`ShowDefaults`."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for child in action.choices.values():
                child.formatter_class = ShowDefaults
                _show_defaults(child)


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """Every subcommand's parser, or only the one named ``only``.

    Importing a subcommand imports what it runs (fastmcp, the domains...). A gateway or a reward
    worker that ``serve --workers`` starts and restarts should not pay for all of them: with
    ``only``, its start-up takes a fraction of the time."""
    parser = argparse.ArgumentParser(prog="toolground", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, module in COMMANDS.items():
        if only is None or name == only:
            importlib.import_module(module).register(sub)
    _show_defaults(parser)
    return parser


def main(argv: list[str] | None = None) -> int:
    given = sys.argv[1:] if argv is None else argv
    parser = build_parser(given[0] if given and given[0] in COMMANDS else None)
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
