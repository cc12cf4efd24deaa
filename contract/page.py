"""The pieces every toolground HTML page shares: the stylesheet, one chat message, a bar chart.

The dataset report (:mod:`querygen.out.report`) and the eval report (:mod:`rollout.report_page`)
show the same conversations, so they draw them with the same code and look alike. The pages are
self-contained: inline CSS and SVG, no JavaScript, no network.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Helvetica,Arial,sans-serif;margin:2em auto;max-width:1100px;color:#222}
h1{font-size:1.6em}h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ddd}
.grid{display:flex;flex-wrap:wrap;gap:1.5em}.card{border:1px solid #e3e3e3;border-radius:6px;padding:.8em}
table{border-collapse:collapse;font-size:.9em}td,th{border:1px solid #ddd;padding:.25em .6em;text-align:right}
td:first-child,th:first-child{text-align:left}.warn{color:#a33}.task{font-size:.85em;margin:.6em 0}
code{background:#f5f5f5;padding:0 .2em}
.msg{margin:.3em 0;padding:.3em .6em;border-left:3px solid #ccc;white-space:pre-wrap;font-size:.85em}
.user{border-color:#4a78b5}.assistant{border-color:#5a9b5a}.tool{border-color:#aaa;color:#555}
.system{border-color:#b59a4a;color:#555}.figures{color:#a33;font-size:.85em}
"""
RESULT_CHARS = 300  # a tool result is cut to this many characters on a page


def bar_chart(
    title: str, items: Sequence[tuple[str, float]], *, width: int = 480, color: str = "#4a78b5"
) -> str:
    """A horizontal SVG bar chart with value labels."""
    bar, gap, label_w = 16, 6, 190
    height = 28 + len(items) * (bar + gap)
    top = max((v for _, v in items), default=0) or 1
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img" '
        f'aria-label="{html.escape(title)}">',
        f'<text x="0" y="16" font-size="13" font-weight="bold">{html.escape(title)}</text>',
    ]
    for i, (label, value) in enumerate(items):
        y = 26 + i * (bar + gap)
        w = (width - label_w - 60) * value / top
        shown = f"{value:g}"
        parts.append(
            f'<text x="{label_w - 6}" y="{y + 12}" font-size="11" text-anchor="end">{html.escape(str(label))[:32]}</text>'
        )
        parts.append(f'<rect x="{label_w}" y="{y}" width="{w:.1f}" height="{bar}" fill="{color}"/>')
        parts.append(f'<text x="{label_w + w + 4:.1f}" y="{y + 12}" font-size="11">{shown}</text>')
    parts.append("</svg>")
    return "".join(parts)


def message_html(m: dict[str, Any]) -> str:
    """One OpenAI chat message as a block: its role, its text or calls, a tool result cut short."""
    role = m["role"]
    if role == "tool":
        text = str(m.get("content") or "")
        text = text if len(text) <= RESULT_CHARS else text[:RESULT_CHARS] + " ..."
        return f"<div class='msg tool'><b>tool result:</b> {html.escape(text)}</div>"
    if m.get("tool_calls"):
        calls = "<br>".join(
            f"<code>{html.escape(c['function']['name'])}({html.escape(c['function']['arguments'])})</code>"
            for c in m["tool_calls"]
        )
        return f"<div class='msg assistant'><b>assistant calls:</b><br>{calls}</div>"
    return f"<div class='msg {html.escape(role)}'><b>{html.escape(role)}:</b> {html.escape(str(m.get('content') or ''))}</div>"
