"""What an eval run did, in figures: read ``results.jsonl``, summarize it, print it, write its page.

``toolground eval`` writes one JSON row per task (status, score, per-call labels, the messages).
This module turns those rows into the figures a researcher compares runs by: mean reward,
success rate, calls per task against the gold calls, and how the calls went wrong (redundant,
invalid, harmful), overall and per domain, kind, chain length and harness. Errored rows (the
transport, the model or the task failed, so there is no trajectory to judge) are counted but
kept out of every mean, so a flaky endpoint shows as errors rather than as a bad model.
The HTML page itself is drawn by :mod:`rollout.report_page`.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypedDict

from rich.console import Console
from rich.table import Table

RESULTS_FILE = "results.jsonl"
STATUSES = ("ok", "step_limit", "transport_error", "model_error", "task_error")
ERRORED = frozenset({"transport_error", "model_error", "task_error"})
LABELS = ("matched", "out_of_order", "invalid", "redundant", "harmful", "unneeded")
BAD_LABELS = ("redundant", "invalid", "harmful")
GROUPS = ("domain", "kind", "chain_length", "harness")
_KIND_ORDER = {"tool": 0, "clarify": 1, "abstain": 2}
_REQUIRED = {"task_id": str, "status": str, "domains": list, "kind": str}

Row = Mapping[str, Any]


class Figures(TypedDict):
    """The figures of one set of rows; a mean is None when no row gives it a value."""

    n: int
    errored: int
    step_limit: int
    mean_reward: float | None
    max_reward: float | None
    success_rate: float | None
    success_n: int
    repeats: int
    pass_hat_k: float | None
    calls_per_task: float | None
    gold_per_task: float | None
    calls: int
    shares: dict[str, float | None]
    prompt_tokens: int
    completion_tokens: int


# -- reading ---------------------------------------------------------------------------------------
def results_path(path: Path) -> Path:
    """The results file itself: ``path``, or ``path/results.jsonl`` when given the run's folder."""
    path = Path(path)
    return path / RESULTS_FILE if path.is_dir() else path


def _check_row(row: Any, where: str) -> dict[str, Any]:
    """The row, or a ValueError saying where and what is wrong: a summary built on a half-read
    file would be silently wrong, so a bad line stops the report."""
    if not isinstance(row, dict):
        raise ValueError(f"{where}: expected a JSON object, got {type(row).__name__}")
    for key, kind in _REQUIRED.items():
        if not isinstance(row.get(key), kind):
            raise ValueError(f"{where}: {key!r} missing or not a {kind.__name__}")
    if row["status"] not in STATUSES:
        raise ValueError(f"{where}: unknown status {row['status']!r} (expected one of {', '.join(STATUSES)})")
    return row


def load_results(path: Path) -> list[dict[str, Any]]:
    """The rows of a ``results.jsonl`` (or of the folder holding one); blank lines are skipped.

    A line that is not a JSON object with the keys the report needs raises ``ValueError`` naming
    the file and the 1-based line number, so the producer's bug can be found at once."""
    file = results_path(path)
    rows = []
    with file.open(encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            if not line.strip():
                continue
            where = f"{file}:{lineno}"
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ValueError(f"{where}: not valid JSON ({exc.msg} at column {exc.colno})") from None
            rows.append(_check_row(row, where))
    return rows


def _file_label(path: Path) -> str:
    """The name that tells runs apart on disk: the run folder for ``<dir>/results.jsonl``."""
    path = Path(path)
    if path.is_dir() or path.name == RESULTS_FILE:
        return (path if path.is_dir() else path.parent).resolve().name or str(path)
    return path.stem


def run_name(path: Path, rows: Sequence[Row], taken: Collection[str] = ()) -> str:
    """A label for a run, ``<model>@<harness>``; when that label is already ``taken`` (two runs of
    the same model and harness, e.g. two presets) the file's name is added, then a counter."""
    models = sorted({str(r.get("model") or "?") for r in rows})
    harnesses = sorted({str(r.get("harness") or "?") for r in rows})
    name = f"{'+'.join(models)}@{'+'.join(harnesses)}" if rows else _file_label(path)
    if name in taken:
        name = f"{name} ({_file_label(path)})"
    base, i = name, 2
    while name in taken:
        name, i = f"{base} #{i}", i + 1
    return name


def load_runs(paths: Iterable[Path]) -> dict[str, list[dict[str, Any]]]:
    """Each results file read and named (names unique, in the order given): the input of
    :func:`rollout.report_page.write_page`."""
    runs: dict[str, list[dict[str, Any]]] = {}
    for path in paths:
        rows = load_results(path)
        runs[run_name(path, rows, runs)] = rows
    return runs


# -- figures ---------------------------------------------------------------------------------------
def _mean(values: Iterable[float]) -> float | None:
    values = list(values)
    return sum(values) / len(values) if values else None


def success_of(row: Row) -> bool | None:
    """The row's verdict (:mod:`rollout.success`); a row written before verdicts existed falls
    back to its state match, which is what "success" meant then."""
    value = row["success"] if "success" in row else row.get("state_match")
    return None if value is None else bool(value)


def max_reward(rows: Sequence[Row]) -> float | None:
    """The best total a task can reach under the rows' preset (None when the rows mix presets or
    name one this version does not know)."""
    from rewards.config import get_config
    from rewards.errors import RewardInputError

    presets = {str(r.get("preset") or "prove") for r in rows}
    if len(presets) != 1:
        return None
    try:
        return get_config(presets.pop()).max_total
    except RewardInputError:
        return None


def by_task(rows: Sequence[Row]) -> dict[str, list[bool]]:
    """Each task's verdicts over its repeats (rows with no verdict left out)."""
    out: dict[str, list[bool]] = {}
    for r in rows:
        verdict = success_of(r) if r["status"] not in ERRORED else None
        out.setdefault(str(r["task_id"]), [])
        if verdict is not None:
            out[str(r["task_id"])].append(verdict)
    return out


def _pass_hat_k(rows: Sequence[Row]) -> tuple[int, float | None]:
    """(k, pass^k): the repeats per task and the share of tasks every repeat of which succeeded
    (over the tasks judged k times)."""
    k = max(Counter(str(r["task_id"]) for r in rows).values(), default=0)
    full = [v for v in by_task(rows).values() if len(v) == k]
    return k, _mean(float(all(v)) for v in full)


def figures(rows: Sequence[Row]) -> Figures:
    """The figures of ``rows``. Means are over the rows that did not error; the label shares are
    of all labelled calls of those rows (each call has one label, so the shares sum to one). With
    repeats, the success rate is pass@1 (every row counts once) and ``pass_hat_k`` pass^k."""
    judged = [r for r in rows if r["status"] not in ERRORED]
    counts = dict.fromkeys(LABELS, 0)
    for r in judged:
        for label, n in (r.get("label_counts") or {}).items():
            counts[label] = counts.get(label, 0) + int(n)
    calls = sum(counts.values())
    matches = [v for v in map(success_of, judged) if v is not None]
    usage = [r.get("usage") or {} for r in rows]
    k, hat = _pass_hat_k(rows)
    return Figures(
        n=len(rows),
        errored=len(rows) - len(judged),
        step_limit=sum(r["status"] == "step_limit" for r in rows),
        mean_reward=_mean(float(r["score"]) for r in judged if r.get("score") is not None),
        max_reward=max_reward(rows),
        success_rate=_mean(float(m) for m in matches),
        success_n=len(matches),
        repeats=k,
        pass_hat_k=hat,
        calls_per_task=_mean(int(r.get("n_calls") or 0) for r in judged),
        gold_per_task=_mean(int(r.get("n_gold") or 0) for r in judged),
        calls=calls,
        shares={k: (v / calls if calls else None) for k, v in counts.items()},
        prompt_tokens=sum(int(u.get("prompt_tokens") or 0) for u in usage),
        completion_tokens=sum(int(u.get("completion_tokens") or 0) for u in usage),
    )


def _keys(row: Row, group: str) -> list[str]:
    """The group keys a row counts under: every one of its domains, else a single value."""
    if group == "domain":  # the task's own domains (older rows: every domain it named)
        own = row.get("own_domains")
        return [str(d) for d in (own if isinstance(own, list) else row["domains"])] or ["?"]
    return [str(row.get(group, "?"))]


def _order(group: str, key: str) -> tuple[int, float, str]:
    """Chain lengths in numeric order and kinds as tool, clarify, abstain; the rest by name."""
    if group == "chain_length" and key.lstrip("-").isdigit():
        return (0, float(key), "")
    return (_KIND_ORDER.get(key, 9) if group == "kind" else 0, 0.0, key)


def summarize(rows: Sequence[Row]) -> dict[str, Any]:
    """``{"overall": Figures, "by": {group: {key: Figures}}}`` for the groups domain, kind,
    chain_length and harness. A task under two domains counts under both (its domains' figures
    can add up to more than the overall ones), once overall."""
    by: dict[str, dict[str, Figures]] = {}
    for group in GROUPS:
        members: dict[str, list[Row]] = {}
        for r in rows:
            for key in dict.fromkeys(_keys(r, group)):
                members.setdefault(key, []).append(r)
        by[group] = {k: figures(members[k]) for k in sorted(members, key=lambda k: _order(group, k))}
    return {"overall": figures(rows), "by": by}


# -- text ------------------------------------------------------------------------------------------
def fmt(value: float | None, kind: str = "num") -> str:
    """A figure as shown in tables: ``pct`` as a percentage, ``num`` to three places, None as a dash."""
    if value is None:
        return "–"
    return f"{value:.1%}" if kind == "pct" else f"{value:.3f}"


def calls_text(f: Figures) -> str:
    """Calls per task against the gold calls per task, e.g. ``3.2 / 2.8``."""
    if f["calls_per_task"] is None or f["gold_per_task"] is None:
        return "–"
    return f"{f['calls_per_task']:.2f} / {f['gold_per_task']:.2f}"


def _between(interval: tuple[float, float] | None, kind: str) -> str:
    return "" if interval is None else f" [{fmt(interval[0], kind)}, {fmt(interval[1], kind)}]"


def success_text(f: Figures, ci: tuple[float, float] | None = None) -> str:
    """Success (pass@1), its interval when given, and pass^k when tasks were repeated."""
    text = f"success {fmt(f['success_rate'], 'pct')}{_between(ci, 'pct')} of {f['success_n']}"
    if f.get("repeats", 1) > 1:
        text += f" (pass@1 over {f['repeats']} repeats; pass^{f['repeats']} {fmt(f['pass_hat_k'], 'pct')})"
    return text


def _count(f: Figures) -> str:
    k = f.get("repeats", 1)
    return f"{f['n']} tasks" if k <= 1 else f"{f['n']} episodes ({-(-f['n'] // k)} tasks x {k})"


def overall_line(f: Figures, ci: Mapping[str, Any] | None = None) -> str:
    """One line with every headline figure of a run; ``ci`` adds intervals
    (:func:`rollout.report_stats.intervals`)."""
    ci = ci or {}
    bad = " ".join(f"{k} {fmt(f['shares'][k], 'pct')}" for k in BAD_LABELS)
    best = f.get("max_reward")
    return (
        f"{_count(f)}, {f['errored']} errored, {f['step_limit']} at the step limit | "
        f"reward {fmt(f['mean_reward'])}{_between(ci.get('reward'), 'num')}"
        f"{'' if best is None else f' / {best:.3f}'} | "
        f"{success_text(f, ci.get('success'))} | "
        f"calls/gold per task {calls_text(f)} | {bad} | "
        f"tokens {f['prompt_tokens']:,} in, {f['completion_tokens']:,} out"
    )


TABLE_COLUMNS = ("n", "errored", "step limit", "reward", "success", "calls / gold", *BAD_LABELS)


def table_cells(f: Figures) -> list[str]:
    """A group's row in the order of :data:`TABLE_COLUMNS` (shared by the console and the page)."""
    return [
        str(f["n"]),
        str(f["errored"]),
        str(f["step_limit"]),
        fmt(f["mean_reward"]),
        fmt(f["success_rate"], "pct"),
        calls_text(f),
        *(fmt(f["shares"][k], "pct") for k in BAD_LABELS),
    ]


LOG_WIDTH = 250


def console_for(file: Any = None) -> Console:
    """A console for the summary: a terminal's own width, or, when the output is a file or a pipe
    (a logged run), one wide enough that no table is cut to 80 columns."""
    probe = Console(file=file)
    return probe if probe.is_terminal else Console(file=file, width=LOG_WIDTH)


def print_summary(summary: Mapping[str, Any], console: Console, ci: Mapping[str, Any] | None = None) -> None:
    """The overall line (with intervals when ``ci`` is given), then one compact table per group
    that has more than one key (a group with a single key only repeats the overall line)."""
    console.print(overall_line(summary["overall"], ci), soft_wrap=True)
    for group, table in summary["by"].items():
        if len(table) < 2:
            continue
        t = Table(title=f"by {group.replace('_', ' ')}", title_justify="left", padding=(0, 1))
        t.add_column(group.replace("_", " "))
        for col in TABLE_COLUMNS:
            t.add_column(col, justify="right")
        for key, f in table.items():
            t.add_row(key, *table_cells(f))
        console.print(t)
