"""``toolground snapshot build``: write a domain's snapshot file and print its sha256."""

from __future__ import annotations

import argparse
from pathlib import Path

from servers.registry import UnknownDomain, get_domain
from state import SCALES, write_snapshot
from toolground.errors import UsageError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("snapshot", help="build snapshot files")
    snap_sub = p.add_subparsers(dest="action", required=True)
    b = snap_sub.add_parser("build", help="build one domain's snapshot and write it as a .sqlite file")
    b.add_argument("--domain", required=True)
    b.add_argument("--seed", type=int, default=0)
    b.add_argument("--scale", choices=SCALES, default="medium")
    b.add_argument("--out", type=Path, required=True, help="file to write (an ordinary SQLite database)")
    b.set_defaults(run=build)


def build(args: argparse.Namespace) -> int:
    try:
        domain = get_domain(args.domain)
    except UnknownDomain as exc:
        raise UsageError(str(exc)) from None
    if args.out.exists() and args.out.is_dir():
        raise UsageError(
            f"--out {args.out} is a directory; give a file path such as {args.out}/snapshot.sqlite"
        )
    snap = domain.snapshot(args.seed, args.scale)
    try:
        write_snapshot(snap, args.out)
    except OSError as exc:
        raise UsageError(f"cannot write {args.out}: {exc.strerror or exc}") from None
    print(f"{snap.sha256}  {args.out}  ({args.domain}, seed {args.seed}, {args.scale}, {snap.size:,} bytes)")
    return 0
