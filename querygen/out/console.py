"""Console output of ``toolground generate``: a progress bar and the closing summary tables.

Timing lives only here (on the console), never in the files, which must not change between
runs with the same arguments.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

GATE_ORDER = (
    "sampling",
    "unsaid",
    "planted",
    "undo",
    "repeat",
    "wording",
    "provenance",
    "grounding",
    "noop",
    "near_miss",
    "replay",
    "necessity",
    "dedup",
)


@contextmanager
def progress_bar(total: int, *, quiet: bool = False) -> Iterator[Callable[[int, int], None]]:
    """Yields ``tick(kept, attempts)``; draws nothing when quiet or not on a terminal."""
    console = Console(file=sys.stderr)
    if quiet or not console.is_terminal:
        yield lambda kept, attempts: None
        return
    progress = Progress(
        TextColumn("[bold]generating"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[attempts]} attempts"),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    )
    with progress:
        job = progress.add_task("generate", total=total, attempts=0)

        def tick(kept: int, attempts: int) -> None:
            if attempts % 8 == 0 or kept >= total:
                progress.update(job, completed=kept, attempts=attempts)

        yield tick


def _table(title: str, rows: dict[str, Any], reasons: list[str]) -> Table:
    table = Table(title=title, title_justify="left")
    table.add_column(title.split()[-1].rstrip("s") if rows else "")
    table.add_column("kept", justify="right")
    for r in reasons:
        table.add_column(r, justify="right")
    for key, value in rows.items():
        table.add_row(key, str(value["kept"]), *(str(value["rejected"].get(r, 0)) for r in reasons))
    return table


def print_summary(
    summary: dict[str, Any], elapsed: float, written: list[Path], out: Path, startup: float = 0.0
) -> None:
    """Kept and rejected tasks per gate, per domain and per kind, then where the files are.

    ``elapsed`` includes the ``startup`` (loading snapshots, building every domain's kit), which
    does not grow with ``--n``; the rate after it is what a longer run approaches."""
    console = Console(file=sys.stdout, width=120)
    stats = summary["stats"]
    rate = stats["kept"] / elapsed if elapsed > 0 else 0.0
    after = elapsed - startup
    steady = (
        f"; {stats['kept'] / after:.0f}/s after {startup:.1f}s of start-up" if 0 < startup < elapsed else ""
    )
    console.print(
        f"[bold]kept {stats['kept']}[/] of {stats['requested']} requested in {stats['attempts']} attempts, "
        f"{elapsed:.1f}s ({rate:.0f} validated tasks/s{steady})"
    )
    gates = Table(title="rejections per gate", title_justify="left")
    for g in GATE_ORDER:
        gates.add_column(g, justify="right")
    gates.add_row(*(str(stats["rejected"].get(g, 0)) for g in GATE_ORDER))
    console.print(gates)
    console.print(_table("per domain", stats["per_domain"], list(GATE_ORDER)))
    console.print(_table("per kind", stats["per_kind"], list(GATE_ORDER)))
    gated = stats.get("policy") or {}
    if gated:
        share = sum(gated.values()) / max(1, stats["kept"])
        kinds = ", ".join(f"{k} {v}" for k, v in gated.items())
        console.print(f"policy-gated: {sum(gated.values())} of {stats['kept']} kept ({share:.0%}): {kinds}")
    cover = stats.get("coverage")
    if cover:
        console.print(_coverage_line(cover))
    if summary.get("paraphrase") is not None:
        console.print(f"paraphrase: {summary['paraphrase']}")
    shown = ", ".join(str(p.relative_to(out)) for p in written if "graphs/" not in str(p.relative_to(out)))
    console.print(f"wrote {out}: {shown} (+ graphs/)")


def _coverage_line(cover: dict) -> str:
    """How many of the domains' own tools the kept tasks call, and what the coverage pass did."""
    line = f"tools called: {cover['called']} of {cover['tools']}"
    if cover["covered_by_pass"]:
        line += f" ({len(cover['covered_by_pass'])} filled in by the coverage pass)"
    if cover["uncovered"]:
        line += "; no kept task calls " + ", ".join(cover["uncovered"])
    return line
