"""``toolground report``: the realism section and the samples page beside the report."""

from __future__ import annotations

import html
import json
from pathlib import Path

import pytest

from contract.task import Task, Turn
from querygen.generate import GenConfig, Generator
from querygen.out.export import write_dataset
from querygen.out.report import SAMPLES_PAGE, pick_samples, render_pages
from querygen.text.realism import measure, specs_for
from toolground import cli

DOMAINS = ("banking", "shopping")


@pytest.fixture(autouse=True)
def only_report(monkeypatch, snapshot_cache):
    monkeypatch.setattr(cli, "COMMANDS", {"report": "toolground.cmd_report"})
    monkeypatch.setenv("TOOLGROUND_CACHE", str(Path(snapshot_cache.root).parent))


@pytest.fixture(scope="module")
def dataset(tmp_path_factory, snapshot_cache) -> tuple[Path, list[Task]]:
    """Thirty tasks written the way ``toolground generate`` writes them."""
    gen = Generator(GenConfig(domains=DOMAINS, n=30, seed=4, scale="small"), cache=snapshot_cache)
    tasks, stats = gen.run()
    summary = {
        "config": gen.config.as_dict(),
        "stats": stats.as_dict(),
        "graphs": {n: g.stats() for n, g in gen.graphs().items()},
    }
    extra = {"stats.json": (json.dumps(summary, indent=2) + "\n").encode()}
    for name, graph in gen.graphs().items():
        extra[f"graphs/{name}.json"] = graph.to_json_text().encode()
    out = tmp_path_factory.mktemp("ds") / "out"
    write_dataset(out, tasks, ["jsonl"], extra)
    return out, tasks


def test_report_has_a_realism_section_and_writes_the_samples_page(dataset, capsys):
    out, tasks = dataset
    assert cli.main(["report", str(out)]) == 0
    page = (out / "report.html").read_text()
    samples = (out / SAMPLES_PAGE).read_text()
    assert "<h2>Realism</h2>" in page and f"href='{SAMPLES_PAGE}'" in page
    for needle in ("leaks (user already says", "unseen ids", "ambiguous references", "garbled sentences",
                   "invalid argument values", "coherent steps", "natural references", "defects", "Examples"):  # fmt: skip
        assert needle in page
    figures = measure(tasks, specs_for(DOMAINS))
    assert f"{figures['leaks']} in {figures['tasks_with']['leaks']} tasks" in page
    assert ("reference kinds (complete tasks)" in page) == bool(figures["reference_kinds"])
    picked = pick_samples(tasks)
    assert len(picked) == min(30, len(tasks))
    for t in picked:
        assert html.escape(t.id) in samples
        for turn in t.turns:
            assert html.escape(turn.user) in samples
    assert "<script" not in samples and "http://" not in samples and "system:" in samples
    assert "wrote" in capsys.readouterr().out


def test_samples_cover_every_domain_kind_and_information_level(dataset):
    _, tasks = dataset
    picked = pick_samples(tasks, k=12)
    for facet in (lambda t: t.domains[0], lambda t: t.kind, lambda t: t.metadata.get("info_level")):
        assert {facet(t) for t in picked} == {facet(t) for t in tasks}
    assert [t.id for t in pick_samples(tasks, k=12)] == [t.id for t in picked]


def test_samples_page_shows_calls_results_and_a_task_s_defects(dataset, tmp_path):
    out, tasks = dataset
    bad = Task(
        id="tg-garbled",
        domains=["banking"],
        turns=[Turn(user="How many the accounts do I have?", answer="You have two.")],
        metadata={"info_level": "complete"},
    )
    write_dataset(tmp_path, [bad, *tasks], ["jsonl"])
    _, samples = render_pages(tmp_path)
    assert "tg-garbled" in samples and "garbled sentences" in samples and "How many the" in samples
    called = next(t for t in pick_samples([bad, *tasks]) if t.gold_calls())
    c = called.gold_calls()[0]
    assert html.escape(c.name) in samples and "tool result:" in samples and "assistant calls:" in samples


def test_out_beside_the_samples_page_and_name_clash(dataset, tmp_path, capsys):
    out, _ = dataset
    target = tmp_path / "elsewhere" / "r.html"
    assert cli.main(["report", str(out), "--out", str(target)]) == 0
    assert target.exists() and (target.parent / SAMPLES_PAGE).exists()
    assert cli.main(["report", str(out), "--out", str(tmp_path / SAMPLES_PAGE)]) == 2
    assert "cannot be named" in capsys.readouterr().err


def test_unknown_domains_are_skipped_when_building_specs():
    specs = specs_for(["atlantis", "banking"])
    assert specs and all(s.domain == "banking" for s in specs.values())
    assert "banking_transfer" in specs and specs["banking_audit_ledger"].hidden  # hidden tools too
