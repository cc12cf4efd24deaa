"""``toolground report DIR``: a self-contained HTML page about a generated dataset, and beside it
``samples.html``, whole sample conversations to read before training."""

from __future__ import annotations

import argparse
from pathlib import Path

from toolground.cli import UsageError
from toolground.extras import optional_imports


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "report", help="write an HTML report (plots, coverage, rejections, realism) for a dataset folder"
    )
    p.add_argument("dir", type=Path, help="folder written by 'toolground generate'")
    p.add_argument(
        "--out", type=Path, help="HTML file to write (default: DIR/report.html); samples.html goes beside it"
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from contract.messages import atomic_write
    from querygen.out.report import SAMPLES_PAGE, render_pages

    if not args.dir.is_dir():
        raise UsageError(f"{args.dir} is not a directory")
    out = args.out or args.dir / "report.html"
    samples_out = out.with_name(SAMPLES_PAGE)
    if out.name == SAMPLES_PAGE:
        raise UsageError(
            f"--out cannot be named {SAMPLES_PAGE}: the samples page is written beside the report"
        )
    try:
        with optional_imports(f"reading {args.dir} (parquet files, no tasks.jsonl)"):
            page, samples = render_pages(args.dir)
    except FileNotFoundError as exc:
        raise UsageError(str(exc)) from None
    except ValueError as exc:
        raise UsageError(f"{args.dir} does not hold a readable toolground dataset: {exc}") from None
    for path, text in ((samples_out, samples), (out, page)):
        try:
            atomic_write(path, text.encode())
        except OSError as exc:
            raise UsageError(f"cannot write {path}: {exc.strerror or exc}") from None
    print(f"wrote {out} ({len(page):,} bytes) and {samples_out} ({len(samples):,} bytes)")
    return 0
