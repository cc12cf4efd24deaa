"""``toolground generate`` / ``report``: same arguments -> same bytes, trainer-ready files, clear errors."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import contract.messages
from contract.task import Task
from querygen.generate import GenConfig, Generator
from querygen.plan.step import canonical
from servers.registry import available
from toolground import cli

DOMAINS = ",".join(available())


@pytest.fixture(autouse=True)
def only_our_commands(monkeypatch, snapshot_cache):
    monkeypatch.setattr(
        cli, "COMMANDS", {"generate": "toolground.cmd_generate", "report": "toolground.cmd_report"}
    )
    monkeypatch.setenv("TOOLGROUND_CACHE", str(Path(snapshot_cache.root).parent))


def _generate(out: Path, *extra: str, n: int = 40) -> int:
    argv = [
        "generate",
        "--domains",
        DOMAINS,
        "--n",
        str(n),
        "--seed",
        "3",
        "--scale",
        "small",
        "--out",
        str(out),
    ]
    return cli.main([*argv, "--quiet", *extra])


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def dataset(tmp_path_factory, snapshot_cache):
    out = tmp_path_factory.mktemp("ds") / "out"
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(
            cli, "COMMANDS", {"generate": "toolground.cmd_generate", "report": "toolground.cmd_report"}
        )
        mp.setenv("TOOLGROUND_CACHE", str(Path(snapshot_cache.root).parent))
        assert _generate(out, "--format", "jsonl,parquet,hf") == 0
    return out


def test_same_arguments_give_identical_bytes(dataset, tmp_path):
    again = tmp_path / "again"
    assert _generate(again, "--format", "jsonl,parquet,hf") == 0
    first, second = _files(dataset), _files(again)
    assert set(first) >= {"tasks.jsonl", "train.parquet", "stats.json", "hf/README.md"}
    assert first == second
    assert not [p for p in again.rglob("*.tmp")]


def test_worker_processes_do_not_change_the_output(snapshot_cache):
    cfg = GenConfig(domains=tuple(available()), n=24, seed=9, scale="small")
    one = Generator(cfg, cache=snapshot_cache).run(workers=1)[0]
    two = Generator(cfg, cache=snapshot_cache).run(workers=2)[0]
    assert canonical([t.model_dump(mode="json") for t in one]) == canonical(
        [t.model_dump(mode="json") for t in two]
    )


def test_parquet_has_the_verl_schema(dataset):
    table = pq.read_table(dataset / "train.parquet")
    schema = table.schema
    assert schema.field("data_source").type == pa.string()
    assert schema.field("ability").type == pa.string()
    prompt = schema.field("prompt").type
    assert pa.types.is_list(prompt) and {f.name for f in prompt.value_type} == {"role", "content"}
    rm = schema.field("reward_model").type
    assert {f.name for f in rm} == {"style", "ground_truth"}
    extra = schema.field("extra_info").type
    assert {"index", "task_id", "snapshots", "tools", "interaction_kwargs"} <= {f.name for f in extra}
    rows = table.to_pylist()
    assert len(rows) == 40
    for i, row in enumerate(rows):
        task = Task.model_validate_json(row["reward_model"]["ground_truth"])
        assert row["extra_info"]["task_id"] == task.id and row["extra_info"]["index"] == i
        assert (
            row["data_source"] == f"toolground/{task.domains[0]}" and row["reward_model"]["style"] == "rule"
        )
        assert [m["role"] for m in row["prompt"]] == ["system", "user"]
        assert row["prompt"][1]["content"] == task.turns[0].user
        assert row["extra_info"]["interaction_kwargs"]["turns"] == [t.user for t in task.turns[1:]]
        assert json.loads(row["extra_info"]["tools"]) == task.tools
        assert row["extra_info"]["snapshots"] == [s.model_dump() for s in task.snapshots]
    hf = pq.read_table(dataset / "hf" / "data" / "train-00000-of-00001.parquet")
    assert hf.equals(table)
    assert "data/train-*.parquet" in (dataset / "hf" / "README.md").read_text()


def test_jsonl_rows_are_chat_conversations_with_ground_truth(dataset):
    lines = (dataset / "tasks.jsonl").read_text().splitlines()
    assert len(lines) == 40
    for line in lines:
        row = json.loads(line)
        task = Task.model_validate_json(row["ground_truth"])
        assert row["id"] == task.id and row["tools"] == task.tools
        msgs = row["messages"]
        assert msgs[0]["role"] == "system"
        assert [m["content"] for m in msgs if m["role"] == "user"] == [t.user for t in task.turns]
        calls = [
            tc for m in msgs if m["role"] == "assistant" and m.get("tool_calls") for tc in m["tool_calls"]
        ]
        assert [(c["function"]["name"], json.loads(c["function"]["arguments"])) for c in calls] == [
            (g.name, g.arguments) for g in task.gold_calls()
        ]
        answered = [m["tool_call_id"] for m in msgs if m["role"] == "tool"]
        assert answered == [c["id"] for c in calls]


def test_ground_truth_is_what_the_reward_reads(dataset):
    tasks = pytest.importorskip("rewards.tasks")
    for line in (dataset / "tasks.jsonl").read_text().splitlines()[:20]:
        text = json.loads(line)["ground_truth"]
        prepared = tasks.prepare_task(text)
        assert len(prepared.gold) == sum(len(t["calls"]) for t in json.loads(text)["turns"])


def test_stats_and_graphs_are_written(dataset):
    stats = json.loads((dataset / "stats.json").read_text())
    assert stats["stats"]["kept"] == 40 and set(stats["graphs"]) == set(available())
    for d in available():
        assert (dataset / "graphs" / f"{d}.dot").read_text().startswith("digraph")
        assert json.loads((dataset / "graphs" / f"{d}.json").read_text())["domain"] == d


def test_report_is_a_self_contained_html_page(dataset, capsys):
    assert cli.main(["report", str(dataset)]) == 0
    page = (dataset / "report.html").read_text()
    for needle in (
        "<svg",
        "chain length",
        "user turns per task",
        "gold calls per task",
        "rejections per gate",
    ):
        assert needle in page
    assert (
        "tool calls - " in page
        and "<script" not in page
        and "http://" not in page.replace("http://www.w3.org", "")
    )


def test_report_of_a_folder_without_tasks_is_a_usage_error(tmp_path, capsys):
    assert cli.main(["report", str(tmp_path)]) == 2
    assert "no tasks.jsonl" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--domains", "atlantis"], "unknown domain"),
        (["--n", "0"], "--n must be at least 1"),
        (["--format", "xml"], "unknown --format"),
        (["--distractors", "1.5"], "within 0..1"),
        (["--sweep-rate", "-0.1"], "sweep rate must be within 0..1, got -0.1"),
        (["--llm-url", "http://127.0.0.1:9"], "go together"),
    ],
)
def test_bad_arguments_exit_2_and_write_nothing(tmp_path, capsys, args, message):
    out = tmp_path / "out"
    argv = ["generate", "--n", "5", "--scale", "small", "--out", str(out), "--quiet", *args]
    assert cli.main(argv) == 2
    assert message in capsys.readouterr().err
    assert not out.exists()


def test_unwritable_output_is_reported(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    assert _generate(blocker / "out", n=5) == 2
    assert "cannot write to --out" in capsys.readouterr().err
    assert blocker.read_text() == "not a directory"


def test_unreachable_llm_endpoint_fails_before_anything_is_written(tmp_path, capsys):
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()  # nothing listens here now
    out = tmp_path / "out"
    assert _generate(out, "--llm-url", f"http://127.0.0.1:{port}/v1", "--llm-model", "m", n=5) == 2
    assert "cannot reach the LLM endpoint" in capsys.readouterr().err
    assert not out.exists()


def test_an_interrupted_run_leaves_no_file(tmp_path, monkeypatch, capsys):
    def boom(*a, **k):
        raise KeyboardInterrupt

    out = tmp_path / "out"
    monkeypatch.setattr(Generator, "run", boom)
    assert _generate(out, n=5) == 130
    assert not out.exists()
    existing = tmp_path / "existing"
    existing.mkdir()
    (existing / "tasks.jsonl").write_text("old\n")
    assert _generate(existing, n=5) == 130
    assert _files(existing) == {"tasks.jsonl": b"old\n"}


def test_a_failed_write_leaves_no_partial_file(tmp_path, monkeypatch):
    def fail(*a, **k):
        raise OSError("disk full")

    monkeypatch.setattr(contract.messages.os, "replace", fail)
    with pytest.raises(OSError):
        contract.messages.atomic_write(tmp_path / "x.jsonl", b"data")
    assert list(tmp_path.iterdir()) == []


def test_the_closing_line_gives_the_rate_after_start_up_too(tmp_path, capsys):
    from querygen.out.console import print_summary

    stats = {"kept": 100, "requested": 100, "attempts": 120, "rejected": {}, "per_domain": {}, "per_kind": {}}
    print_summary({"stats": stats}, 10.0, [], tmp_path, startup=5.0)
    first = capsys.readouterr().out.splitlines()[0]
    assert "10.0s (10 validated tasks/s; 20/s after 5.0s of start-up)" in first
    print_summary({"stats": stats}, 10.0, [], tmp_path)  # no start-up measured: one rate only
    assert "(10 validated tasks/s)" in capsys.readouterr().out.splitlines()[0]
