"""The HTML page of one eval run, or of several side by side: tables, inline SVG charts, trajectories.

Self-contained like the dataset report of :mod:`querygen.out.report`, with the same bar chart,
stylesheet and message rendering (:mod:`contract.page`): no JavaScript, no network, one file to send around. With
several runs every table and chart puts them next to each other and each figure of a later run
carries its difference from the first run, so "did B beat A, and where" is read off directly.
Mean rewards can be negative (the efficiency term is unbounded below), so their charts are drawn
from a zero axis here rather than with the dataset report's counts-only bar chart.
"""

from __future__ import annotations

import html
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from contract.messages import atomic_write
from contract.page import CSS, bar_chart, message_html
from rollout.report import (
    BAD_LABELS,
    ERRORED,
    GROUPS,
    LABELS,
    STATUSES,
    TABLE_COLUMNS,
    Figures,
    Row,
    fmt,
    overall_line,
    summarize,
    table_cells,
)

PALETTE = ("#4a78b5", "#d08a3a", "#5a9b5a", "#7a5ab5", "#b55a5a", "#3a9b9b", "#9b9b3a", "#b55a9b")
LABEL_COLORS = dict(
    zip(LABELS, ("#5a9b5a", "#a8c66c", "#b55a5a", "#d08a3a", "#7a2a2a", "#aaaaaa"), strict=True)
)
N_TRAJECTORIES = 6
N_BINS = 10
SYSTEM_CHARS = 600
_EXTRA_CSS = (
    ".delta{color:#666;font-size:.8em}.runs>.card{flex:1 1 320px;min-width:0}"
    ".msg{overflow-wrap:anywhere}td.key{vertical-align:top;font-weight:bold}"
)
_BAR, _GAP, _LABEL_W = 12, 8, 150


def _color(i: int) -> str:
    return PALETTE[i % len(PALETTE)]


def _svg_open(title: str, width: int, height: int) -> str:
    t = html.escape(title)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img" '
        f'aria-label="{t}"><text x="0" y="16" font-size="13" font-weight="bold">{t}</text>'
    )


def _legend(names: Sequence[str], colors: Sequence[str], y: int) -> str:
    """One line per name (run names are long): a coloured square and the name."""
    return "".join(
        f'<rect x="0" y="{y + 14 * i}" width="10" height="10" fill="{c}"/>'
        f'<text x="14" y="{y + 14 * i + 9}" font-size="11">{html.escape(n[:60])}</text>'
        for i, (n, c) in enumerate(zip(names, colors, strict=True))
    )


def grouped_bar_chart(
    title: str,
    groups: Sequence[str],
    series: Sequence[tuple[str, Sequence[float | None]]],
    *,
    width: int = 520,
) -> str:
    """Horizontal bars, one per series within each group, drawn from a zero axis so negative
    means show as bars to the left; a missing value is written "n/a"."""
    legend_h = 14 * len(series) if len(series) > 1 else 0
    top = 26 + legend_h
    group_h = len(series) * (_BAR + 2) + _GAP
    height = top + len(groups) * group_h
    values = [v for _, vs in series for v in vs if v is not None]
    lo, hi = min([0.0, *values]), max([0.0, *values])
    plot_w = width - _LABEL_W - 60
    scale = plot_w / ((hi - lo) or 1)
    x0 = _LABEL_W + (0 - lo) * scale
    parts = [_svg_open(title, width, height)]
    if legend_h:
        parts.append(_legend([n for n, _ in series], [_color(i) for i in range(len(series))], 24))
    for g, group in enumerate(groups):
        y = top + g * group_h
        parts.append(
            f'<text x="{_LABEL_W - 6}" y="{y + 10}" font-size="11" text-anchor="end">{html.escape(group[:24])}</text>'
        )
        for s, (_, vs) in enumerate(series):
            v, yy = vs[g], y + s * (_BAR + 2)
            if v is None:
                parts.append(f'<text x="{x0 + 4:.1f}" y="{yy + 10}" font-size="10" fill="#888">n/a</text>')
                continue
            xv = x0 + v * scale
            parts.append(
                f'<rect x="{min(x0, xv):.1f}" y="{yy}" width="{abs(xv - x0):.1f}" height="{_BAR}" fill="{_color(s)}"/>'
                f'<text x="{max(x0, xv) + 4:.1f}" y="{yy + 10}" font-size="10">{v:.3f}</text>'
            )
    parts.append(f'<line x1="{x0:.1f}" y1="{top - 2}" x2="{x0:.1f}" y2="{height}" stroke="#999"/></svg>')
    return "".join(parts)


def stacked_bar_chart(
    title: str, rows: Sequence[tuple[str, Mapping[str, float | None]]], *, width: int = 520
) -> str:
    """One bar per row split into the label shares (they sum to one); a row without calls is
    written "no calls". Each segment carries its share as an SVG tooltip and, when wide enough,
    as text."""
    legend_h = 14 * len(LABELS)
    top = 26 + legend_h
    height = top + len(rows) * (_BAR + 8)
    plot_w = width - _LABEL_W - 10
    parts = [_svg_open(title, width, height), _legend(LABELS, list(LABEL_COLORS.values()), 24)]
    for i, (label, shares) in enumerate(rows):
        y = top + i * (_BAR + 8)
        parts.append(
            f'<text x="{_LABEL_W - 6}" y="{y + 10}" font-size="11" text-anchor="end">{html.escape(label[:24])}</text>'
        )
        if all(v is None for v in shares.values()):
            parts.append(f'<text x="{_LABEL_W}" y="{y + 10}" font-size="10" fill="#888">no calls</text>')
            continue
        x = float(_LABEL_W)
        for name in LABELS:
            w = (shares.get(name) or 0.0) * plot_w
            if w <= 0:
                continue
            share = f"{shares[name]:.1%}"
            parts.append(
                f'<rect x="{x:.1f}" y="{y}" width="{w:.1f}" height="{_BAR}" fill="{LABEL_COLORS[name]}">'
                f"<title>{html.escape(label)}: {name} {share}</title></rect>"
            )
            if w > 34:
                parts.append(f'<text x="{x + 2:.1f}" y="{y + 10}" font-size="9" fill="#fff">{share}</text>')
            x += w
    parts.append("</svg>")
    return "".join(parts)


# -- tables ----------------------------------------------------------------------------------------
def _delta(a: float | None, b: float | None, kind: str) -> str:
    if a is None or b is None:
        return ""
    d = a - b
    return {"int": f"{int(d):+d}", "pct": f"{d * 100:+.1f} pp"}.get(kind, f"{d:+.3f}")


def deltas(f: Figures, base: Figures) -> list[str]:
    """The difference of each table column from the first run's figures ("" where it says
    nothing: the task count, or a figure one of the two lacks)."""
    return [
        "",
        _delta(f["errored"], base["errored"], "int"),
        _delta(f["step_limit"], base["step_limit"], "int"),
        _delta(f["mean_reward"], base["mean_reward"], "num"),
        _delta(f["success_rate"], base["success_rate"], "pct"),
        _delta(f["calls_per_task"], base["calls_per_task"], "num"),
        *(_delta(f["shares"][k], base["shares"][k], "pct") for k in BAD_LABELS),
    ]


def _cells(f: Figures, base: Figures | None) -> str:
    marks = deltas(f, base) if base is not None else [""] * len(TABLE_COLUMNS)
    return "".join(
        f"<td>{html.escape(v)}" + (f" <span class='delta'>({html.escape(d)})</span>" if d else "") + "</td>"
        for v, d in zip(table_cells(f), marks, strict=True)
    )


def _head(*first: str) -> str:
    return "<tr>" + "".join(f"<th>{html.escape(c)}</th>" for c in (*first, *TABLE_COLUMNS)) + "</tr>"


def overall_table(summaries: Mapping[str, Mapping[str, Any]]) -> str:
    """One row per run, each later run with its deltas against the first."""
    base = next(iter(summaries.values()))["overall"]
    rows = "".join(
        f"<tr><td>{html.escape(name)}</td>{_cells(s['overall'], base if i else None)}</tr>"
        for i, (name, s) in enumerate(summaries.items())
    )
    return f"<table>{_head('run')}{rows}</table>"


def group_keys(summaries: Mapping[str, Mapping[str, Any]], group: str) -> list[str]:
    """The keys of a group over all runs, in the first run's order, then any the others add."""
    keys: dict[str, None] = {}
    for s in summaries.values():
        keys.update(dict.fromkeys(s["by"][group]))
    return list(keys)


def group_table(summaries: Mapping[str, Mapping[str, Any]], group: str) -> str:
    """Per key, one row per run (the runs next to each other), deltas against the first run."""
    names = list(summaries)
    first = summaries[names[0]]["by"][group]
    if len(names) == 1:
        body = "".join(f"<tr><td>{html.escape(k)}</td>{_cells(f, None)}</tr>" for k, f in first.items())
        return f"<table>{_head(group.replace('_', ' '))}{body}</table>"
    body = []
    for key in group_keys(summaries, group):
        present = [(n, summaries[n]["by"][group][key]) for n in names if key in summaries[n]["by"][group]]
        for j, (name, f) in enumerate(present):
            cell = f"<td class='key' rowspan='{len(present)}'>{html.escape(key)}</td>" if j == 0 else ""
            base = first.get(key) if name != names[0] else None
            body.append(f"<tr>{cell}<td>{html.escape(name)}</td>{_cells(f, base)}</tr>")
    return f"<table>{_head(group.replace('_', ' '), 'run')}{''.join(body)}</table>"


def _runs_table(results: Mapping[str, Sequence[Row]]) -> str:
    def values(rows: Sequence[Row], key: str) -> str:
        return html.escape(", ".join(sorted({str(r.get(key) or "?") for r in rows})))

    body = "".join(
        f"<tr><td>{html.escape(name)}</td><td>{values(rows, 'model')}</td><td>{values(rows, 'harness')}</td>"
        f"<td>{values(rows, 'preset')}</td><td>{len(rows)}</td></tr>"
        for name, rows in results.items()
    )
    return f"<table><tr><th>run</th><th>model</th><th>harness</th><th>preset</th><th>tasks</th></tr>{body}</table>"


# -- charts ----------------------------------------------------------------------------------------
def reward_chart(summaries: Mapping[str, Mapping[str, Any]], group: str) -> str:
    """Mean reward per key of ``group``, one bar per run."""
    keys = group_keys(summaries, group)
    series = [
        (name, [s["by"][group][k]["mean_reward"] if k in s["by"][group] else None for k in keys])
        for name, s in summaries.items()
    ]
    return grouped_bar_chart(f"mean reward per {group.replace('_', ' ')}", keys, series)


def label_charts(summaries: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """The call labels' shares: per run overall, then per domain (and run, when several)."""
    several = len(summaries) > 1
    per_domain = [
        (f"{k} · {name}" if several else k, s["by"]["domain"][k]["shares"])
        for k in group_keys(summaries, "domain")
        for name, s in summaries.items()
        if k in s["by"]["domain"]
    ]
    return [
        stacked_bar_chart("call labels per run", [(n, s["overall"]["shares"]) for n, s in summaries.items()]),
        stacked_bar_chart("call labels per domain", per_domain),
    ]


def _scores(rows: Sequence[Row]) -> list[float]:
    return [float(r["score"]) for r in rows if r["status"] not in ERRORED and r.get("score") is not None]


def histograms(results: Mapping[str, Sequence[Row]]) -> list[str]:
    """The reward distribution of each run over the same bins (so the runs compare bin by bin)."""
    every = [s for rows in results.values() for s in _scores(rows)]
    if not every:
        return ["<p>no scored tasks</p>"]
    lo, hi = min(every), max(every)
    step = (hi - lo) / N_BINS
    edges = [(lo + i * step, lo + (i + 1) * step) for i in range(N_BINS)] if step else [(lo, hi)]
    out = []
    for i, (name, rows) in enumerate(results.items()):
        counts = [0] * len(edges)
        for s in _scores(rows):
            counts[min(int((s - lo) / step), N_BINS - 1) if step else 0] += 1
        items = [
            (f"{a:.2f} to {b:.2f}" if step else f"{a:g}", c) for (a, b), c in zip(edges, counts, strict=True)
        ]
        out.append(bar_chart(f"reward distribution · {name}", items, color=_color(i)))
    return out


# -- trajectories ----------------------------------------------------------------------------------
def _pick(rows: Sequence[Row], k: int) -> list[str]:
    """Task ids worth reading: one per failure status, the worst and the best score, one per
    kind, then the lowest scores (a failing trajectory teaches more than a passing one)."""
    scored = sorted((r for r in rows if r.get("score") is not None), key=lambda r: float(r["score"]))
    candidates = [next((r for r in rows if r["status"] == st), None) for st in STATUSES[1:]]
    candidates += scored[:1] + scored[-1:]
    candidates += [
        next((r for r in rows if r.get("kind") == kind), None) for kind in ("tool", "clarify", "abstain")
    ]
    ids = dict.fromkeys(str(r["task_id"]) for r in [*candidates, *scored, *rows] if r is not None)
    return list(ids)[:k]


def pick_trajectories(results: Mapping[str, Sequence[Row]], k: int = N_TRAJECTORIES) -> list[str]:
    """With one run, :func:`_pick`; with several, first the tasks the runs scored most apart."""
    runs = list(results.values())
    if len(runs) == 1:
        return _pick(runs[0], k)
    by_task: dict[str, list[float]] = {}
    for rows in runs:
        for r in rows:
            if r.get("score") is not None:
                by_task.setdefault(str(r["task_id"]), []).append(float(r["score"]))
    spread = sorted(
        (t for t, s in by_task.items() if len(s) > 1), key=lambda t: -(max(by_task[t]) - min(by_task[t]))
    )
    return list(dict.fromkeys([*spread[: k // 2], *_pick(runs[0], k)]))[:k]


def _arguments(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _render_message(m: Mapping[str, Any]) -> str:
    """A message as the dataset report shows it; a long system prompt is cut, tool-call
    arguments given as objects are written as JSON, and a message of another shape is shown raw
    rather than breaking the page."""
    m = dict(m)
    if m.get("role") == "system" and len(str(m.get("content") or "")) > SYSTEM_CHARS:
        m["content"] = str(m["content"])[:SYSTEM_CHARS] + " ..."
    try:
        if m.get("tool_calls"):
            m["tool_calls"] = [
                {**c, "function": {**c["function"], "arguments": _arguments(c["function"].get("arguments"))}}
                for c in m["tool_calls"]
            ]
        return message_html(m)
    except (KeyError, TypeError, AttributeError):
        return f"<div class='msg'>{html.escape(json.dumps(m, ensure_ascii=False, default=str))}</div>"


def _labels_table(labels: Sequence[Mapping[str, Any]]) -> str:
    if not labels:
        return "<p>no calls</p>"
    cols = ("index", "name", "label", "gold", "arg_match", "reason")
    head = "".join(f"<th>{c}</th>" for c in cols)
    body = "".join(
        "<tr>"
        + "".join(f"<td>{html.escape('' if x.get(c) is None else str(x.get(c)))}</td>" for c in cols)
        + "</tr>"
        for x in labels
    )
    return f"<table><tr>{head}</tr>{body}</table>"


def trajectory(name: str, row: Row) -> str:
    """One run's attempt at a task: status, score, the call labels and the whole conversation."""
    score = fmt(None if row.get("score") is None else float(row["score"]))
    error = f"<p class='warn'>{html.escape(str(row['error']))}</p>" if row.get("error") else ""
    msgs = row.get("messages") or []
    return (
        f"<div class='card task'><b>{html.escape(name)}</b>: {html.escape(str(row['status']))}, score {score}, "
        f"state match {html.escape(str(row.get('state_match')))}, {html.escape(str(row.get('kind')))}, "
        f"{html.escape(', '.join(map(str, row['domains'])))}{error}{_labels_table(row.get('labels') or [])}"
        f"<details open><summary>{len(msgs)} messages</summary>{''.join(_render_message(m) for m in msgs)}"
        "</details></div>"
    )


def trajectories(results: Mapping[str, Sequence[Row]]) -> str:
    """The picked tasks, each with every run's attempt next to the others."""
    index = {name: {str(r["task_id"]): r for r in reversed(rows)} for name, rows in results.items()}
    blocks = []
    for task_id in pick_trajectories(results):
        cards = "".join(trajectory(n, idx[task_id]) for n, idx in index.items() if task_id in idx)
        blocks.append(f"<h3>{html.escape(task_id)}</h3><div class='grid runs'>{cards}</div>")
    return "".join(blocks) or "<p>no tasks</p>"


def render_page(results: Mapping[str, Sequence[Row]], summaries: Mapping[str, Mapping[str, Any]]) -> str:
    """The whole page: runs, overall figures, charts, a table per group, sample trajectories."""
    names = list(results)
    title = "toolground eval report" if len(names) == 1 else "toolground eval comparison"
    intro = (
        f"<p>{html.escape(names[0])}: {html.escape(overall_line(summaries[names[0]]['overall']))}</p>"
        if len(names) == 1
        else f"<p>{len(names)} runs; deltas (in brackets) are against the first, {html.escape(names[0])}.</p>"
    )
    charts = [
        reward_chart(summaries, "domain"),
        reward_chart(summaries, "chain_length"),
        *label_charts(summaries),
        *histograms(results),
    ]
    groups = "".join(
        f"<h2>By {g.replace('_', ' ')}</h2>{group_table(summaries, g)}"
        for g in GROUPS
        if len(group_keys(summaries, g)) > 1
    )
    return (
        f"<!doctype html><html><head><meta charset='utf-8'><title>{title}</title>"
        f"<style>{CSS}{_EXTRA_CSS}</style></head><body><h1>{title}</h1>{intro}"
        f"<h2>Runs</h2>{_runs_table(results)}<h2>Overall</h2>{overall_table(summaries)}"
        "<p>Means leave out errored tasks (transport, model or task errors), which are counted. "
        "Success is the share of tasks whose final state matched the gold one, among those checked. "
        "Call shares are of all labelled calls.</p>"
        f"<h2>Charts</h2><div class='grid'>{''.join(f'<div class=card>{c}</div>' for c in charts)}</div>"
        f"{groups}<h2>Sample trajectories</h2>{trajectories(results)}</body></html>\n"
    )


def write_page(results: Mapping[str, Sequence[Row]], path: Path) -> Path:
    """Write the run's page (one run) or the comparison page (several, deltas against the first)
    to ``path`` atomically: a temporary file in the same folder replaced into place, so a reader
    never sees half a page."""
    if not results:
        raise ValueError("no runs to report")
    summaries = {name: summarize(rows) for name, rows in results.items()}
    return atomic_write(Path(path), render_page(results, summaries).encode("utf-8"))
