"""The eval report (``rollout.report``): figures from purpose-built result rows, the console
summary, the run and comparison pages, and reading ``results.jsonl``."""

from __future__ import annotations

import html
import io
import json
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from rollout.report import (
    LABELS,
    load_results,
    load_runs,
    print_summary,
    run_name,
    summarize,
)
from rollout.report_page import write_page


def row(
    task_id: str = "t",
    *,
    domains: tuple[str, ...] = ("banking",),
    kind: str = "tool",
    chain: int = 2,
    status: str = "ok",
    score: float | None = 1.0,
    state_match: bool | None = True,
    counts: dict[str, int] | None = None,
    n_gold: int = 2,
    model: str = "m-a",
    harness: str = "openai",
) -> dict[str, Any]:
    """A results.jsonl row as ``toolground eval`` writes it; n_calls and labels follow ``counts``."""
    counts = {**dict.fromkeys(LABELS, 0), **(counts if counts is not None else {"matched": 2})}
    labels = [
        {"index": i, "name": "banking_get", "label": lab, "gold": i, "arg_match": 1.0, "reason": "r"}
        for i, lab in enumerate(lab for lab, n in counts.items() for _ in range(n))
    ]
    return {
        "task_id": task_id,
        "domains": list(domains),
        "kind": kind,
        "chain_length": chain,
        "n_turns": 1,
        "harness": harness,
        "model": model,
        "preset": "prove",
        "status": status,
        "error": "boom" if status.endswith("_error") else None,
        "score": score,
        "components": None,
        "labels": labels,
        "label_counts": counts,
        "n_calls": len(labels),
        "n_gold": n_gold,
        "state_match": state_match,
        "steps": 3,
        "usage": {"prompt_tokens": 100, "completion_tokens": 10},
        "messages": [
            {"role": "system", "content": "You are a helpful assistant. " * 100},
            {"role": "user", "content": f"please do {task_id} <now> & then"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "c1",
                        "type": "function",
                        "function": {"name": "banking_get", "arguments": '{"a": 1}'},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": "c1", "content": '{"ok": true}'},
            {"role": "assistant", "content": "done"},
        ],
    }


def write_jsonl(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


# -- figures ---------------------------------------------------------------------------------------
def test_means_leave_out_errored_rows_but_count_them():
    rows = [
        row("a", score=1.0),
        row("b", score=0.5, state_match=False),
        row("c", status="transport_error", score=0.0, state_match=False, counts={"redundant": 9}),
        row("d", status="model_error", score=None, state_match=None),
    ]
    f = summarize(rows)["overall"]
    assert f["n"] == 4 and f["errored"] == 2
    assert f["mean_reward"] == pytest.approx(0.75)
    assert f["success_rate"] == pytest.approx(0.5) and f["success_n"] == 2
    assert f["calls"] == 4 and f["shares"]["redundant"] == 0  # the errored row's calls are left out
    assert f["prompt_tokens"] == 400  # tokens are spent by every row, errored or not


def test_success_rate_ignores_unchecked_rows_and_a_step_limit_row_is_judged():
    rows = [
        row("a", state_match=True),
        row("b", state_match=None, score=0.2),
        row("c", state_match=False, status="step_limit", score=0.0),
    ]
    f = summarize(rows)["overall"]
    assert f["success_rate"] == pytest.approx(0.5) and f["success_n"] == 2
    assert f["step_limit"] == 1 and f["errored"] == 0
    assert f["mean_reward"] == pytest.approx(0.4)


def test_label_shares_calls_and_gold_per_task():
    rows = [
        row("a", counts={"matched": 3, "redundant": 1}, n_gold=3),
        row("b", counts={"matched": 4, "invalid": 1, "harmful": 1}, n_gold=5),
    ]
    f = summarize(rows)["overall"]
    assert f["calls"] == 10
    assert f["shares"]["matched"] == pytest.approx(0.7)
    assert f["shares"]["redundant"] == pytest.approx(0.1)
    assert f["shares"]["invalid"] == pytest.approx(0.1)
    assert f["shares"]["harmful"] == pytest.approx(0.1)
    assert f["calls_per_task"] == pytest.approx(5.0) and f["gold_per_task"] == pytest.approx(4.0)
    assert sum(f["shares"].values()) == pytest.approx(1.0)


def test_no_calls_and_no_scores_give_none_not_zero():
    f = summarize([row("a", counts={}, score=None, state_match=None)])["overall"]
    assert f["calls"] == 0 and all(v is None for v in f["shares"].values())
    assert f["mean_reward"] is None and f["success_rate"] is None


def test_groups_a_task_under_two_domains_counts_in_both():
    rows = [
        row("a", domains=("banking", "shopping"), score=1.0, kind="tool", chain=3),
        row("b", domains=("banking",), score=0.0, kind="abstain", chain=0, harness="react"),
        row("c", domains=("shopping",), score=0.5, kind="clarify", chain=12),
    ]
    s = summarize(rows)
    assert s["overall"]["n"] == 3
    dom = s["by"]["domain"]
    assert dom["banking"]["n"] == 2 and dom["shopping"]["n"] == 2
    assert dom["banking"]["mean_reward"] == pytest.approx(0.5)
    assert dom["shopping"]["mean_reward"] == pytest.approx(0.75)
    assert list(s["by"]["kind"]) == ["tool", "clarify", "abstain"]
    assert list(s["by"]["chain_length"]) == ["0", "3", "12"]  # numeric order, not text order
    assert s["by"]["harness"]["react"]["n"] == 1 and s["by"]["harness"]["openai"]["n"] == 2


def test_print_summary_is_an_overall_line_and_tables():
    rows = [row("a", domains=("banking",)), row("b", domains=("shopping",), score=0.0, state_match=False)]
    console = Console(file=io.StringIO(), width=160, color_system=None)
    print_summary(summarize(rows), console)
    out = console.file.getvalue()
    assert "2 tasks, 0 errored" in out and "reward 0.500" in out and "success 50.0% of 2" in out
    assert "by domain" in out and "shopping" in out
    assert "by harness" not in out  # one harness: the table would only repeat the overall line


# -- the page --------------------------------------------------------------------------------------
VOID = {"meta", "br", "hr", "img", "input", "link"}


class _Balanced(HTMLParser):
    """Fails on a closing tag that does not close the innermost open element."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []

    def handle_starttag(self, tag: str, attrs: Any) -> None:
        if tag not in VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        assert self.stack and self.stack[-1] == tag, f"</{tag}> closes {self.stack[-1:]}"
        self.stack.pop()


def assert_well_formed(page: str) -> list[ET.Element]:
    parser = _Balanced()
    parser.feed(page)
    parser.close()
    assert parser.stack == []
    svgs = [ET.fromstring(s) for s in re.findall(r"<svg\b.*?</svg>", page, flags=re.S)]
    for svg in svgs:
        for rect in svg.iter("{http://www.w3.org/2000/svg}rect"):
            assert float(rect.get("width")) >= 0
    assert "<script" not in page and "http://" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "")
    return svgs


def sample_rows(model: str, harness: str, scores: list[float | None]) -> list[dict[str, Any]]:
    kinds = ["tool", "clarify", "abstain", "tool"]
    return [
        row(
            f"t{i}",
            domains=("banking",) if i % 2 else ("banking", "shopping"),
            kind=kinds[i % 4],
            chain=i % 3,
            score=s,
            state_match=None if s is None else s > 0.5,
            counts={"matched": 2, "redundant": i % 2, "harmful": int(i == 2)},
            model=model,
            harness=harness,
            status="step_limit" if i == 3 else "ok",
        )
        for i, s in enumerate(scores)
    ]


def test_run_page_is_well_formed_and_self_contained(tmp_path):
    rows = [*sample_rows("m-a", "openai", [1.0, 0.5, -0.4, 0.0, None]), row("t9", status="task_error")]
    out = write_page({"m-a@openai": rows}, tmp_path / "report.html")
    page = out.read_text()
    svgs = assert_well_formed(page)
    assert len(svgs) >= 5  # reward per domain and per chain length, two label charts, a histogram
    assert "toolground eval report" in page and "m-a@openai" in page
    for needle in ("mean reward per domain", "mean reward per chain length", "call labels per run",
                   "reward distribution", "By domain", "By kind", "Sample trajectories"):  # fmt: skip
        assert needle in page
    assert html.escape("please do t2 <now> & then") in page  # messages are shown, escaped
    assert "banking_get" in page and "boom" in page  # a call, and an errored task's error


def test_comparison_page_puts_both_runs_side_by_side_with_deltas(tmp_path):
    a = sample_rows("m-a", "openai", [0.5, 0.5, 0.5, 0.5])
    b = sample_rows("m-b", "hermes", [0.8, 0.8, 0.8, 0.8])
    page = write_page({"m-a@openai": a, "m-b@hermes": b}, tmp_path / "cmp.html").read_text()
    assert_well_formed(page)
    assert "toolground eval comparison" in page
    assert page.count("m-a@openai") > 3 and page.count("m-b@hermes") > 3
    assert "(+0.300)" in page  # mean reward of B against A, overall and per group
    assert "(+0 pp)" not in page and "(+0.0 pp)" in page  # equal shares still show as a difference
    assert "By harness" in page  # the two runs' harnesses make a group worth a table


def test_write_page_is_atomic_and_leaves_no_temp_file(tmp_path):
    target = tmp_path / "report.html"
    target.write_text("old")
    write_page({"r": sample_rows("m", "react", [1.0])}, target)
    assert [p.name for p in tmp_path.iterdir()] == ["report.html"]
    assert target.read_text().startswith("<!doctype html>")
    with pytest.raises(ValueError):
        write_page({}, target)


# -- reading ---------------------------------------------------------------------------------------
def test_load_results_reads_a_file_or_its_folder_and_skips_blank_lines(tmp_path):
    rows = [row("a"), row("b")]
    path = write_jsonl(tmp_path / "results.jsonl", rows)
    path.write_text(path.read_text() + "\n\n")
    assert load_results(path) == rows
    assert load_results(tmp_path) == rows


@pytest.mark.parametrize(
    "bad, message",
    [("{not json", "not valid JSON"), ("[1, 2]", "expected a JSON object"), ('{"task_id": "x"}', "'status'")],
)
def test_a_bad_line_names_the_file_and_line(tmp_path, bad, message):
    path = tmp_path / "results.jsonl"
    path.write_text(json.dumps(row("a")) + "\n" + bad + "\n")
    with pytest.raises(ValueError, match=re.escape(f"{path}:2: ") + ".*" + re.escape(message)):
        load_results(path)


def test_an_unknown_status_is_refused(tmp_path):
    path = write_jsonl(tmp_path / "results.jsonl", [row("a", status="weird")])
    with pytest.raises(ValueError, match=r"results\.jsonl:1: unknown status 'weird'"):
        load_results(path)


def test_run_names_are_model_at_harness_and_collisions_take_the_file_name(tmp_path):
    rows = [row("a", model="qwen", harness="hermes")]
    assert run_name(tmp_path / "x" / "results.jsonl", rows) == "qwen@hermes"
    assert run_name(tmp_path / "x" / "results.jsonl", []) == "x"
    for d in ("run1", "run2"):
        (tmp_path / d).mkdir()
        write_jsonl(tmp_path / d / "results.jsonl", rows)
    other = write_jsonl(tmp_path / "other.jsonl", [row("a", model="llama")])
    runs = load_runs([tmp_path / "run1", tmp_path / "run2" / "results.jsonl", other])
    assert list(runs) == ["qwen@hermes", "qwen@hermes (run2)", "llama@openai"]
    assert run_name(other, rows, {"qwen@hermes", "qwen@hermes (other)"}) == "qwen@hermes (other) #2"
