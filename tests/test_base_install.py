"""``pip install toolground`` with no extra runs every subcommand (CI's base-install step).

``.venv-base`` (``make test`` builds it) holds pyproject's core dependencies at the pinned versions
and nothing else. The module builds a wheel from a copy of the tree under test and installs it there
with ``--no-deps``, so what runs is this code as pip would install it, never a stale install, and
``pip check`` proves the core dependencies are all the wheel needs. Every command then runs as that
venv's ``toolground`` from an empty temporary folder with no PYTHONPATH: a module the wheel lacks,
or an import of a package only an extra brings, fails here although the editable ``.venv`` (which
has the extras) would hide it. Each command runs once on a tiny world (banking, small scale): serve
and the gateway answer a tool call, generate -> score -> report, eval against a fake
OpenAI-compatible endpoint defined below, verl-tools writes its YAML, snapshot build, reward-serve
answers; an option that needs an extra fails with one line naming it.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
import yaml

from rewards.config import get_config
from tests.image import source_packages
from tests.serving import REPO, free_port
from toolground.cli import COMMANDS

BASE = REPO / ".venv-base"
PYTHON = BASE / "bin" / "python"
pytestmark = pytest.mark.skipif(
    not PYTHON.exists(), reason="`make test` creates .venv-base (the core dependencies, no extra)"
)
OPTIONAL = ("pyarrow", "ray", "datasets", "trl", "verl", "pytest", "hypothesis")  # extras' packages
WORLD = ("--domains", "banking", "--scale", "small")
MCP_ERA = "2026-07-28"  # the MCP protocol version without sessions (tests/test_scale_out.py)
BEST = get_config("prove").max_total  # what a gold trajectory earns (the tiny world's tasks all call tools)


class Base:
    """The base venv's ``toolground``, run from ``work`` with a private snapshot cache."""

    def __init__(self, root: Path) -> None:
        self.work = root / "work"
        self.work.mkdir()
        self.env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        self.env.update(
            TOOLGROUND_CACHE=str(root / "cache"),
            FASTMCP_SHOW_SERVER_BANNER="false",
            FASTMCP_CHECK_FOR_UPDATES="off",
        )
        self.exe = str(BASE / "bin" / "toolground")

    def run(self, *args: str, timeout: float = 240) -> subprocess.CompletedProcess:
        return subprocess.run(
            [self.exe, *args], capture_output=True, text=True, env=self.env, cwd=self.work, timeout=timeout
        )

    def ok(self, *args: str) -> str:
        done = self.run(*args)
        assert done.returncode == 0, f"toolground {' '.join(args)}:\n{done.stderr[-3000:]}"
        return done.stdout

    @contextmanager
    def serving(self, *args: str, timeout: float = 120) -> Iterator[str]:
        """``toolground ARGS --port P`` in the background until its /health answers; its base URL."""
        port = free_port()
        proc = subprocess.Popen(
            [self.exe, *args, "--port", str(port)],
            env=self.env,
            cwd=self.work,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + timeout
            while True:
                assert proc.poll() is None, (
                    f"toolground {args[0]} exited early:\n{proc.stderr.read()[-3000:]}"
                )
                try:
                    with urllib.request.urlopen(base + "/health", timeout=2) as answer:
                        if answer.status == 200:
                            break
                except OSError:
                    pass
                assert time.monotonic() < deadline, f"toolground {args[0]} did not answer in {timeout:.0f} s"
                time.sleep(0.2)
            yield base
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def _pip(*args: str) -> str:
    done = subprocess.run([str(PYTHON), "-m", "pip", *args], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"pip {' '.join(args)}:\n{done.stdout[-2000:]}{done.stderr[-2000:]}"
    return done.stdout


@pytest.fixture(scope="module")
def tg(tmp_path_factory) -> Base:
    """A wheel of this tree installed in .venv-base (built from a copy, so no build/ or egg-info
    lands in the repository, and only what the copied packages and pyproject make it holds)."""
    root = tmp_path_factory.mktemp("base")
    src = root / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(REPO / name, src / name)
    for package in source_packages():
        shutil.copytree(REPO / package, src / package, ignore=shutil.ignore_patterns("__pycache__"))
    _pip("wheel", "--quiet", "--no-deps", "--wheel-dir", str(root / "wheel"), str(src))
    (wheel,) = (root / "wheel").glob("toolground-*.whl")
    _pip("install", "--quiet", "--no-deps", "--force-reinstall", str(wheel))
    return Base(root)


def test_the_venv_holds_the_wheel_its_dependencies_and_no_extra(tg):
    _pip("check")  # every requirement of the wheel installed, at versions its ranges accept
    probe = "import importlib.util as u, json, " + ", ".join(sorted(source_packages())) + "\n"
    probe += "print(json.dumps({'files': {m.__name__: m.__file__ for m in ("
    probe += ", ".join(sorted(source_packages())) + ")}, 'optional': [n for n in "
    probe += f"{OPTIONAL!r} if u.find_spec(n)]}}))"
    done = subprocess.run([str(PYTHON), "-c", probe], capture_output=True, text=True, env=tg.env, cwd=tg.work)
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout)
    site = str(BASE / "lib")
    assert all(f.startswith(site) for f in found["files"].values()), found["files"]
    assert found["optional"] == [], "the base venv holds packages only an extra should bring"


def test_every_command_parses_and_shows_its_help(tg):
    listing = tg.ok("--help")
    for name in COMMANDS:
        assert name in listing
        assert "usage: toolground " + name in tg.ok(name, "--help")
    assert "--domain" in tg.ok("snapshot", "build", "--help")


def test_snapshot_build_writes_the_file_whose_sha256_it_prints(tg):
    out = tg.work / "banking.sqlite"
    printed = tg.ok("snapshot", "build", "--domain", "banking", "--scale", "small", "--out", str(out))
    assert printed.split()[0] == hashlib.sha256(out.read_bytes()).hexdigest()
    with sqlite3.connect(out) as db:
        assert db.execute("select count(*) from accounts").fetchone()[0] > 0


@pytest.fixture(scope="module")
def dataset(tg) -> Path:
    out = tg.work / "ds"
    tg.ok("generate", *WORLD, "--n", "6", "--seed", "3", "--out", str(out), "--quiet")
    return out


def _tasks(dataset: Path) -> list[dict[str, Any]]:
    rows = [json.loads(line) for line in (dataset / "tasks.jsonl").read_text().splitlines() if line.strip()]
    return [json.loads(r["ground_truth"]) for r in rows]


def test_generate_then_score_then_report(tg, dataset):
    tasks = _tasks(dataset)
    assert len(tasks) == 6
    gold = [[c for turn in t["turns"] for c in turn["calls"]] for t in tasks]
    trajectories = tg.work / "gold.jsonl"
    trajectories.write_text(
        "".join(
            json.dumps({"task_id": t["id"], "trajectory": g}) + "\n" for t, g in zip(tasks, gold, strict=True)
        )
    )
    scores = tg.work / "scores.jsonl"
    args = ("--tasks", str(dataset / "tasks.jsonl"), "--trajectories", str(trajectories), "--quiet")
    tg.ok("score", *args, "--out", str(scores))
    rows = [json.loads(line) for line in scores.read_text().splitlines()]
    assert [r.get("error") for r in rows] == [None] * 6
    assert [r["total"] for r in rows] == [BEST] * 6, "the gold calls earn the whole reward"
    tg.ok("report", str(dataset))
    page = (dataset / "report.html").read_text()
    assert all(t["id"] in (dataset / "samples.html").read_text() for t in tasks)
    assert "<html" in page.lower()


class FakeModel(BaseHTTPRequestHandler):
    """An OpenAI-compatible chat-completions endpoint that plays the tasks' gold: for the user's
    latest turn it sends the turn's gold calls one per reply, then the turn's answer."""

    protocol_version = "HTTP/1.1"  # keep-alive, as the eval client's own HTTP/1.1 transport expects
    turns: dict[tuple[str, str], dict[str, Any]] = {}  # (first user message, this one) -> the turn
    requests = 0

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).requests += 1
        said = [m["content"] for m in body["messages"] if m["role"] == "user"]
        turn = self.turns.get((said[0], said[-1]))
        last_user = max(i for i, m in enumerate(body["messages"]) if m["role"] == "user")
        made = sum(bool(m.get("tool_calls")) for m in body["messages"][last_user:])
        message: dict[str, Any] = {"role": "assistant", "content": None}
        if turn is not None and made < len(turn["calls"]):
            call = turn["calls"][made]
            function = {"name": call["name"], "arguments": json.dumps(call["arguments"])}
            message["tool_calls"] = [{"id": f"call_{made}", "type": "function", "function": function}]
        else:
            message["content"] = (turn or {}).get("answer") or "Done."
        reply = {
            "id": f"fake-{self.requests}",
            "object": "chat.completion",
            "model": body["model"],
            "choices": [
                {
                    "index": 0,
                    "message": message,
                    "finish_reason": "tool_calls" if "tool_calls" in message else "stop",
                }
            ],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
        }
        data = json.dumps(reply).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: Any) -> None:  # no request log on stderr
        pass


@contextmanager
def fake_model(tasks: list[dict[str, Any]]) -> Iterator[str]:
    FakeModel.turns = {(t["turns"][0]["user"], turn["user"]): turn for t in tasks for turn in t["turns"]}
    FakeModel.requests = 0
    server = ThreadingHTTPServer(("127.0.0.1", 0), FakeModel)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    finally:
        server.shutdown()
        server.server_close()


def test_eval_runs_the_tasks_against_an_openai_compatible_endpoint(tg, dataset):
    tasks = _tasks(dataset)
    out = tg.work / "eval"
    with fake_model(tasks) as url:
        tg.ok(
            "eval",
            "--tasks",
            str(dataset),
            "--base-url",
            url,
            "--model",
            "gold",
            "--out",
            str(out),
            "--quiet",
        )
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert sorted(r["task_id"] for r in rows) == sorted(t["id"] for t in tasks)
    assert {r["status"] for r in rows} == {"ok"}
    for row in rows:  # the gold played over HTTP: every call matched, the world left as expected
        assert row["label_counts"]["matched"] == row["n_gold"] > 0 and row["state_match"], row["task_id"]
        assert row["score"] > 0
    assert FakeModel.requests >= sum(len(t["turns"]) for t in tasks)
    assert (out / "report.html").exists()


def test_verl_tools_writes_verls_yaml(tg, dataset):
    out = tg.work / "verl" / "tools.yaml"
    tg.ok("verl-tools", "--tasks", str(dataset), "--out", str(out))
    listed = {tool["tool_schema"]["function"]["name"] for tool in yaml.safe_load(out.read_text())["tools"]}
    offered = {s["function"]["name"] for t in _tasks(dataset) for s in t["tools"]}
    assert offered <= listed
    assert yaml.safe_load((out.parent / "agent_loop.yaml").read_text())


def _rpc(url: str, name: str, arguments: dict[str, Any], session: str) -> dict[str, Any]:
    """A plain JSON POST of an MCP ``tools/call``: the current protocol era, with no handshake, the
    protocol version in ``_meta`` and a header, and the env session in ``X-Env-Session``."""
    meta = {
        "io.modelcontextprotocol/protocolVersion": MCP_ERA,
        "io.modelcontextprotocol/clientCapabilities": {},
    }
    params = {"name": name, "arguments": arguments, "_meta": meta}
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params}).encode()
    headers = {
        "Content-Type": "application/json",
        "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": MCP_ERA,
        "Mcp-Method": "tools/call",
        "Mcp-Name": name,
        "X-Env-Session": session,
    }
    with urllib.request.urlopen(
        urllib.request.Request(url, body, headers, method="POST"), timeout=30
    ) as answer:
        text = answer.read().decode()
    if text.startswith(("event:", "data:")):  # an SSE frame: the JSON-RPC message is its data line
        text = next(line[5:] for line in text.splitlines() if line.startswith("data:"))
    return json.loads(text)


def test_serve_and_a_gateway_in_front_of_it_answer_tool_calls(tg):
    with tg.serving("serve", *WORLD) as server:
        direct = _rpc(server + "/mcp", "banking_deposit", {"account": "ACC-000001", "amount": 25.0}, "base-1")
        assert not direct["result"].get("isError"), direct
        with tg.serving("gateway", "--shards", server) as gateway:
            through = _rpc(gateway + "/mcp", "banking_get_balance", {"account": "ACC-000001"}, "base-1")
    assert not through["result"].get("isError"), through
    deposited = direct["result"]["structuredContent"]
    balance = through["result"]["structuredContent"]
    assert balance["balance"] == deposited["balance"], "the gateway reached the same env session"


def test_reward_serve_scores_a_trajectory(tg):
    task = {
        "gold_calls": [{"name": "f", "arguments": {"x": 1}}, {"name": "g", "arguments": {}}],
        "dependencies": [[0, 1]],
    }
    with tg.serving("reward-serve") as url:
        body = json.dumps({"task": task, "trajectory": task["gold_calls"]}).encode()
        request = urllib.request.Request(
            url + "/score", body, {"Content-Type": "application/json"}, method="POST"
        )
        with urllib.request.urlopen(request, timeout=30) as answer:
            scored = json.loads(answer.read())
    assert scored["total"] == BEST, scored


@pytest.mark.parametrize(
    ("args", "extra"),
    [
        (("generate", *WORLD, "--n", "2", "--format", "jsonl,parquet", "--out", "p"), "export"),
        (("report", "parquet-only"), "export"),
        (
            ("eval", "--tasks", "parquet-only", "--base-url", "http://127.0.0.1:9/v1", "--model", "m"),
            "export",
        ),
        (("verl-tools", "--tasks", "parquet-only", "--out", "t.yaml"), "export"),
        (("serve", *WORLD, "--ray"), "ray"),
        (("reward-serve", "--ray"), "ray"),
    ],
)
def test_an_option_needing_an_extra_names_it_in_one_line(tg, args, extra):
    folder = tg.work / "parquet-only"  # a dataset written with --format parquet: no tasks.jsonl
    folder.mkdir(exist_ok=True)
    (folder / "train.parquet").write_bytes(b"PAR1")
    done = tg.run(*args, timeout=120)
    assert done.returncode == 2, done.stderr[-3000:]
    assert done.stderr.strip().endswith(f"pip install 'toolground[{extra}]'"), done.stderr[-3000:]
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr[-3000:]
    assert not (tg.work / "p").exists(), "generate stopped before any work, leaving no output folder"
