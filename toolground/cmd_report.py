"""``toolground report DIR``: a self-contained HTML page about a generated dataset."""

from __future__ import annotations

import argparse
from pathlib import Path

from toolground.cli import UsageError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "report", help="write an HTML report (plots, coverage, rejections) for a dataset folder"
    )
    p.add_argument("dir", type=Path, help="folder written by 'toolground generate'")
    p.add_argument("--out", type=Path, help="HTML file to write (default: DIR/report.html)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from querygen.export import atomic_write
    from querygen.report import render_report

    if not args.dir.is_dir():
        raise UsageError(f"{args.dir} is not a directory")
    try:
        page = render_report(args.dir)
    except FileNotFoundError as exc:
        raise UsageError(str(exc)) from None
    except ValueError as exc:
        raise UsageError(f"{args.dir} does not hold a readable toolground dataset: {exc}") from None
    out = args.out or args.dir / "report.html"
    try:
        atomic_write(out, page.encode())
    except OSError as exc:
        raise UsageError(f"cannot write {out}: {exc.strerror or exc}") from None
    print(f"wrote {out} ({len(page):,} bytes)")
    return 0
