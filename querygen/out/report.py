"""A self-contained HTML page describing a generated dataset, for a researcher to check before training.

It reads the dataset folder (``tasks.jsonl`` or the parquet files, plus ``stats.json`` and
``graphs/``) and draws its own SVG bar charts inline: no JavaScript, no network, no extra
dependency. What it shows: task kinds and information levels, chain lengths, user turns and gold
calls per task, tool coverage per domain (unused tools called out), knob usage, the dependency
graph statistics, rejections per gate, the realism figures of :mod:`querygen.text.realism` (leaks,
unseen ids, ambiguous references, garbled sentences, invalid values, coherence, how entities are
referred to) and a few sample tasks. A second page, ``samples.html``, shows about thirty whole
conversations, picked to cover every domain, kind and information level, for a person to read.
"""

from __future__ import annotations

import html
import json
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from contract.load import load_tasks
from contract.messages import messages
from contract.page import CSS, RESULT_CHARS, bar_chart, message_html
from contract.task import Task
from querygen.text.realism import DEFECTS, measure, specs_for, task_figures
from servers.kit import ToolSpec
from servers.registry import UnknownDomain, get_domain

SAMPLES_PAGE = "samples.html"
N_SAMPLES = 30
_DEFECT_LABELS = {
    "leaks": "leaks (user already says a value to discover)",
    "unseen_ids": "unseen ids (only ever in a tool result)",
    "ambiguous": "ambiguous references",
    "garbled": "garbled sentences",
    "invalid_values": "invalid argument values",
}


def _hist(values: Sequence[int]) -> list[tuple[str, float]]:
    counts = Counter(values)
    return [(str(k), counts[k]) for k in sorted(counts)]


def _tools_by_domain(folder: Path, domains: Sequence[str]) -> dict[str, list[str]]:
    """Every visible tool per domain, from the saved graphs (else the registry)."""
    out: dict[str, list[str]] = {}
    for d in domains:
        path = folder / "graphs" / f"{d}.json"
        if path.exists():
            out[d] = [n["name"] for n in json.loads(path.read_text())["nodes"]]
            continue
        try:
            out[d] = [t.qualified_name for t in get_domain(d).visible_tools()]
        except UnknownDomain:  # a dataset from a checkout with other domains: no coverage to show
            out[d] = []
    return out


def _coverage(tasks: Sequence[Task], folder: Path) -> str:
    domains = sorted({t.domains[0] for t in tasks})
    used: Counter[str] = Counter(c.name for t in tasks for c in t.gold_calls())
    blocks = []
    for d, tools in _tools_by_domain(folder, domains).items():
        items = sorted(((n.removeprefix(d + "_"), used[n]) for n in tools), key=lambda x: -x[1])
        unused = [n for n, v in items if v == 0]
        covered = len(tools) - len(unused)
        note = f"<p>{covered}/{len(tools)} tools used"
        if unused:
            note += f'; <span class="warn">never called: {html.escape(", ".join(unused))}</span>'
        blocks.append(f'<div class="card">{bar_chart(f"tool calls - {d}", items)}{note}</p></div>')
    return '<div class="grid">' + "".join(blocks) + "</div>"


def _kv_table(rows: dict[str, Any]) -> str:
    body = "".join(
        f"<tr><td>{html.escape(str(k))}</td><td>{html.escape(str(v))}</td></tr>" for k, v in rows.items()
    )
    return f"<table>{body}</table>"


def _graph_table(graphs: dict[str, Any]) -> str:
    if not graphs:
        return "<p>no graph statistics saved</p>"
    cols = ["tools", "write_tools", "edges", "explicit", "implicit", "density", "max_out_degree"]
    head = "<tr><th>domain</th>" + "".join(f"<th>{c}</th>" for c in cols) + "<th>isolated</th></tr>"
    rows = "".join(
        f"<tr><td>{html.escape(d)}</td>"
        + "".join(f"<td>{g.get(c, '')}</td>" for c in cols)
        + f"<td>{len(g.get('isolated', []))}</td></tr>"
        for d, g in graphs.items()
    )
    return f"<table>{head}{rows}</table>"


def _samples(tasks: Sequence[Task], k: int = 6) -> str:
    picked: list[Task] = []
    for kind in ("tool", "clarify", "abstain"):
        picked += [t for t in tasks if t.kind == kind][:2]
    out = []
    for t in picked[:k]:
        turns = "".join(
            f"<li><b>user:</b> {html.escape(turn.user)}"
            + "".join(
                f"<br><code>{html.escape(c.name)}({html.escape(json.dumps(c.arguments))})</code>"
                for c in turn.calls
            )
            + (f"<br><i>{html.escape(turn.answer)}</i>" if turn.answer else "")
            + "</li>"
            for turn in t.turns
        )
        out.append(
            f'<div class="task card"><b>{html.escape(t.id)}</b> ({t.kind}, {html.escape(", ".join(t.domains))})<ol>{turns}</ol></div>'
        )
    return "".join(out)


def _specs(tasks: Sequence[Task]) -> dict[str, ToolSpec]:
    return specs_for(sorted({d for t in tasks for d in t.domains}))


def _share(value: float | None) -> str:
    return "n/a (nothing recorded)" if value is None else f"{value:.1%}"


def _example_list(examples: dict[str, list[dict[str, Any]]]) -> str:
    blocks = []
    for d in DEFECTS:
        items = "".join(
            f"<li><code>{html.escape(e['task'])}</code> {html.escape(json.dumps(e['finding'], ensure_ascii=False))}</li>"
            for e in examples.get(d, [])
        )
        blocks.append(
            f"<h3>{html.escape(_DEFECT_LABELS[d])}</h3>" + (f"<ul>{items}</ul>" if items else "<p>none</p>")
        )
    return "".join(blocks)


def _realism(figures: dict[str, Any]) -> str:
    """The realism section: the figures, two charts, and examples of each defect."""
    rows: dict[str, Any] = {"tasks": figures["tasks"]}
    for d in DEFECTS:
        rows[_DEFECT_LABELS[d]] = f"{figures[d]} in {figures['tasks_with'][d]} tasks"
    rows["coherent steps"] = (
        f"{figures['coherent_steps']}/{figures['steps']} ({_share(figures['coherence'])})"
    )
    rows["natural references (complete tasks)"] = _share(figures["natural_share"])
    rows["calls dropped as unnecessary"] = figures["necessity_dropped"]
    kinds = list(figures["reference_kinds"].items())
    charts = [
        bar_chart("reference kinds (complete tasks)", kinds, color="#5a9b5a")
        if kinds
        else "<p>no references recorded</p>",
        bar_chart("defects", [(d, figures[d]) for d in DEFECTS], color="#b55a5a"),
    ]
    return (
        f"<p>Whole conversations to read: <a href='{SAMPLES_PAGE}'>{SAMPLES_PAGE}</a></p>{_kv_table(rows)}"
        f"<div class='grid'>{''.join(f'<div class=card>{c}</div>' for c in charts)}</div>"
        f"<h3>Examples</h3>{_example_list(figures['examples'])}"
    )


def render_report(folder: Path) -> str:
    """The HTML page for one dataset folder."""
    return render_pages(folder)[0]


def render_pages(folder: Path) -> tuple[str, str]:
    """The report page and the samples page of one dataset folder (the tasks are read once)."""
    tasks = load_tasks(folder)
    specs = _specs(tasks)
    return _report_page(folder, tasks, specs), samples_page(tasks, specs, title=folder.resolve().name)


def _report_page(folder: Path, tasks: Sequence[Task], specs: dict[str, ToolSpec]) -> str:
    stats_path = folder / "stats.json"
    summary = json.loads(stats_path.read_text()) if stats_path.exists() else {}
    stats = summary.get("stats", {})
    meta = [t.metadata for t in tasks]
    knobs = Counter()
    for m in meta:
        k = m.get("knobs", {})
        knobs["distractors offered"] += bool(k.get("distractors"))
        knobs["enums stripped"] += bool(k.get("enums_stripped"))
        knobs["tool hidden"] += bool(k.get("hidden_tool"))
        knobs["irrelevant request"] += bool(m.get("irrelevant"))
        knobs["paraphrased"] += any((m.get("paraphrase") or {}).get("accepted", []))
    charts = [
        bar_chart("task kinds", sorted(Counter(t.kind for t in tasks).items())),
        bar_chart("information levels", sorted(Counter(m.get("info_level", "?") for m in meta).items())),
        bar_chart(
            "chain length (tool tasks)",
            _hist([m.get("chain_length", 0) for m in meta if m.get("chain_length")]),
        ),
        bar_chart("user turns per task", _hist([len(t.turns) for t in tasks])),
        bar_chart("gold calls per task", _hist([len(t.gold_calls()) for t in tasks])),
        bar_chart("tasks per domain", sorted(Counter(t.domains[0] for t in tasks).items())),
        bar_chart("knobs", list(knobs.items()), color="#7a5ab5"),
        bar_chart("rejections per gate", list(stats.get("rejected", {}).items()), color="#b55a5a"),
    ]
    writes = sum(1 for t in tasks if t.expected_diff)
    headline = {
        "tasks": len(tasks),
        "attempts": stats.get("attempts", "?"),
        "tasks that change state": writes,
        "multi-turn tasks": sum(1 for t in tasks if len(t.turns) > 1),
        "tasks with dataflow between calls": sum(1 for m in meta if m.get("dataflow")),
        "configuration": json.dumps(summary.get("config", {}), sort_keys=True)[:400],
    }
    return (
        f"<!doctype html><html><head><meta charset='utf-8'><title>toolground dataset report</title>"
        f"<style>{CSS}</style></head><body><h1>toolground dataset report</h1>"
        f"<p>{html.escape(str(folder.resolve().name))}</p>{_kv_table(headline)}"
        f"<h2>Shape</h2><div class='grid'>{''.join(f'<div class=card>{c}</div>' for c in charts)}</div>"
        f"<h2>Tool coverage per domain</h2>{_coverage(tasks, folder)}"
        f"<h2>Dependency graphs</h2>{_graph_table(summary.get('graphs', {}))}"
        f"<h2>Realism</h2>{_realism(measure(tasks, specs))}"
        f"<h2>Sample tasks</h2>{_samples(tasks)}</body></html>\n"
    )


# -- the samples page ---------------------------------------------------------------------------------
def _facets(t: Task) -> tuple[str, str, str]:
    return (t.domains[0] if t.domains else "?", t.kind, str(t.metadata.get("info_level", "?")))


def pick_samples(tasks: Sequence[Task], k: int = N_SAMPLES) -> list[Task]:
    """Up to ``k`` tasks, same tasks same picks: first, in dataset order, each task that shows a
    domain, a kind or an information level not shown yet (so every one is covered); then one of
    each (domain, kind, level) combination in turn, round after round."""
    picked: list[Task] = []
    shown: set[tuple[int, str]] = set()
    for t in tasks:
        facets = set(enumerate(_facets(t)))
        if facets - shown and len(picked) < k:
            picked.append(t)
            shown |= facets
    chosen = {id(t) for t in picked}
    groups: dict[tuple[str, str, str], list[Task]] = {}
    for t in tasks:
        if id(t) not in chosen:
            groups.setdefault(_facets(t), []).append(t)
    queues = [groups[key] for key in sorted(groups)]
    for depth in range(max((len(q) for q in queues), default=0)):
        for q in queues:
            if depth < len(q) and len(picked) < k:
                picked.append(q[depth])
    return picked


def _figures_note(figures: dict[str, Any]) -> str:
    lines = [
        f"{_DEFECT_LABELS[d]}: {html.escape(json.dumps(figures[d], ensure_ascii=False))}"
        for d in DEFECTS
        if figures[d]
    ]
    coherent, steps = figures["coherence"]
    if coherent < steps:
        lines.append(f"coherent steps: {coherent}/{steps}")
    return f"<div class='figures'>{'<br>'.join(lines)}</div>" if lines else ""


def _sample(task: Task, specs: dict[str, ToolSpec]) -> str:
    head = (
        f"<b>{html.escape(task.id)}</b> ({task.kind}, {html.escape(str(task.metadata.get('info_level', '?')))}, "
        f"{html.escape(', '.join(task.domains))})"
    )
    body = "".join(message_html(m) for m in messages(task))
    return f"<div class='task card'>{head}{_figures_note(task_figures(task, specs))}{body}</div>"


def samples_page(tasks: Sequence[Task], specs: dict[str, ToolSpec], *, title: str = "") -> str:
    """About thirty whole conversations as the trainer will see them, with each one's defects."""
    picked = pick_samples(tasks)
    return (
        f"<!doctype html><html><head><meta charset='utf-8'><title>toolground sample conversations</title>"
        f"<style>{CSS}</style></head><body><h1>toolground sample conversations</h1>"
        f"<p>{html.escape(title)}: {len(picked)} of {len(tasks)} tasks, covering every domain, kind and "
        f"information level. Tool results are cut to {RESULT_CHARS} characters.</p>"
        f"{''.join(_sample(t, specs) for t in picked)}</body></html>\n"
    )
