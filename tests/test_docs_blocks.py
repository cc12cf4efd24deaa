"""Every fenced code block of README.md and docs/*.md works as pasted (issue 36).

Each block runs the way a reader would run it, from a scratch folder that holds links to the
repository's top-level entries (so ``examples/...`` resolves) with ``toolground`` and ``python`` on
PATH, and ``pip install`` a no-op (the test runs in the venv that install makes):
bash blocks under ``bash -e``, python blocks as scripts, json blocks parsed. A block that needs a
server says so (``<!-- docs-test: serve ARGS -->``): the test starts it on a free port and the
block's port 8000 becomes that port; any other fixed port a block uses is mapped to a free one too.
A block that cannot run here (a GPU training command, a server that never exits, minutes of
benchmark) is marked ``not run`` with its reason and still checked: ``bash -n``, every
``toolground`` command line parsed by the real parser, python compiled. The marks are described in
:mod:`tests.docblocks`.

The quickstart's "you should see" block is the first lines its last command prints. When eval's
output changes on purpose, regenerate it (and the sample task after it) with
``TOOLGROUND_UPDATE_DOCS=1 pytest tests/test_docs_blocks.py -k README``, and read the diff.
"""

from __future__ import annotations

import ast
import json
import os
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.docblocks import INERT, Block, blocks, documents, toolground_commands
from tests.serving import REPO, free_port, running_server
from toolground.cli import build_parser

ALL = [b for doc in documents() for b in blocks(doc)]
UPDATE = os.environ.get("TOOLGROUND_UPDATE_DOCS") == "1"
COMMAND_MARK = "@@docs-test-command@@"
PORT = re.compile(r"(?<=127\.0\.0\.1:)(\d{4,5})\b|(?<=localhost:)(\d{4,5})\b|(?<=--port )(\d{4,5})\b")


@dataclass
class Ran:
    """What running a block gave: its exit status, its output split per top-level command."""

    returncode: int
    stdout: str
    stderr: str
    folder: Path

    def last_command_output(self) -> list[str]:
        return [line.rstrip() for line in self.stdout.split(COMMAND_MARK + "\n")[-1].splitlines()]


def _shims(root: Path) -> Path:
    """A bin folder: ``toolground`` and ``python`` of this interpreter, ``pip install`` a no-op."""
    bin_ = root / "bin"
    bin_.mkdir(exist_ok=True)
    scripts = {
        "toolground": f'#!/bin/sh\nexec "{sys.executable}" -m toolground "$@"\n',
        "python": f'#!/bin/sh\nexec "{sys.executable}" "$@"\n',
        "pip": '#!/bin/sh\n[ "$1" = install ] && exit 0\necho "docs test: only pip install is shimmed" >&2\nexit 1\n',
    }
    for name, text in scripts.items():
        (bin_ / name).write_text(text)
        (bin_ / name).chmod(0o755)
    return bin_


def _folder(root: Path) -> Path:
    """A scratch folder where the repository's top-level entries resolve, as in a clone."""
    folder = root / "work"
    folder.mkdir(parents=True)
    for entry in REPO.iterdir():
        if not entry.name.startswith(".") and entry.name not in ("data", "build"):
            (folder / entry.name).symlink_to(entry)
    return folder


class Runner:
    """Runs blocks, each once, sharing a snapshot cache; remembers what each gave."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.bin = _shims(root)
        self.cache = root / "cache"
        self.done: dict[str, Ran] = {}

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("TOOLGROUND_")}
        env.update(
            PATH=f"{self.bin}:{env.get('PATH', '')}",
            PYTHONPATH=str(REPO),
            TOOLGROUND_CACHE=str(self.cache),
            FASTMCP_SHOW_SERVER_BANNER="false",
            FASTMCP_CHECK_FOR_UPDATES="off",
        )
        return env

    def run(self, block: Block) -> Ran:
        if block.where not in self.done:
            with ExitStack() as stack:
                ports = {8000: stack.enter_context(self._server(block.arg))} if block.mark == "serve" else {}
                self.done[block.where] = self._execute(block, ports)
        return self.done[block.where]

    @contextmanager
    def _server(self, args: str) -> Iterator[int]:
        with running_server(self.cache, *args.split(), timeout=180) as base:
            yield int(base.rsplit(":", 1)[1])

    def _execute(self, block: Block, ports: dict[int, int]) -> Ran:
        def port(match: re.Match) -> str:
            documented = int(next(g for g in match.groups() if g))
            return str(ports.setdefault(documented, free_port()))

        text = PORT.sub(port, block.text)
        folder = _folder(self.root / re.sub(r"\W", "_", block.where))
        if block.lang == "python":
            argv = [sys.executable, "-c", text]
        else:
            argv = ["bash", "-e", "-c", f"trap 'echo {COMMAND_MARK}' DEBUG\n{text}"]
        out, err = folder.parent / "stdout", folder.parent / "stderr"
        with out.open("w") as stdout, err.open("w") as stderr:  # files: a `server &` keeps no pipe open
            proc = subprocess.Popen(
                argv, cwd=folder, env=self.env(), text=True, start_new_session=True, stdout=stdout, stderr=stderr
            )  # fmt: skip
            try:
                proc.wait(timeout=300)
            finally:
                with suppress(ProcessLookupError):  # what the block left in the background goes too
                    os.killpg(proc.pid, signal.SIGTERM)
        return Ran(proc.returncode, out.read_text(), err.read_text(), folder)


@pytest.fixture(scope="module")
def runner(tmp_path_factory: pytest.TempPathFactory) -> Runner:
    return Runner(tmp_path_factory.mktemp("docs"))


def _runnable(block: Block) -> bool:
    return block.lang not in (*INERT, "json") and block.mark in ("", "serve")


def _previous_runnable(block: Block) -> Block:
    earlier = [b for b in ALL if b.path == block.path and b.line < block.line and _runnable(b)]
    assert earlier, f"{block.where}: a {block.mark} block with no runnable block before it"
    return earlier[-1]


def _check_only(block: Block) -> None:
    """A block that is not run: it parses, and its toolground command lines parse too."""
    assert block.arg or block.mark == "synopsis", f"{block.where}: say why the block is not run"
    if block.lang == "python":
        ast.parse(block.text, filename=block.where)
        return
    if block.lang in ("bash", "sh", "console"):
        done = subprocess.run(["bash", "-n", "-c", block.text], capture_output=True, text=True)
        assert done.returncode == 0, f"{block.where}: {done.stderr}"
    if block.mark == "not run":
        for argv in toolground_commands(block.text):
            if "..." in argv:
                continue
            try:
                build_parser(argv[0] if argv else None).parse_args(argv)
            except SystemExit as exc:
                raise AssertionError(f"{block.where}: `toolground {' '.join(argv)}` does not parse") from exc


def _rewrite(block: Block, new_lines: list[str]) -> None:
    """Update mode: the block's body becomes ``new_lines`` (found again by its place among the
    page's blocks, since an earlier rewrite may have moved it)."""
    place = [b.line for b in ALL if b.path == block.path].index(block.line)
    now = blocks(block.path)[place]
    lines = block.path.read_text().splitlines(keepends=True)
    lines[now.line : now.end - 1] = [line + "\n" for line in new_lines]
    block.path.write_text("".join(lines))


def _check_output(block: Block, runner: Runner) -> None:
    ran = runner.run(_previous_runnable(block))
    assert ran.returncode == 0, f"{block.where}: the command before failed:\n{ran.stderr[-3000:]}"
    shown = ran.last_command_output()[: max(len(block.lines), 1)]
    assert any(shown), f"{block.where}: the command before printed nothing"
    if UPDATE and shown != block.lines:
        _rewrite(block, shown)
        return
    assert shown == [line.rstrip() for line in block.lines], (
        f"{block.where}: the output shown is not what the command printed; the command printed\n"
        + "\n".join(shown)
        + "\n(regenerate: TOOLGROUND_UPDATE_DOCS=1 pytest tests/test_docs_blocks.py -k README)"
    )


def _sample_view(task: dict) -> dict:
    """What the README shows of a task: its id, kind, and each turn's words and gold calls."""
    turns = [
        {"user": t["user"], "calls": [{"name": c["name"], "arguments": c["arguments"]} for c in t["calls"]]}
        | ({"answer": t["answer"]} if t.get("answer") else {})
        for t in task["turns"]
    ]
    return {"id": task["id"], "kind": task["kind"], "turns": turns}


def _check_sample(block: Block, runner: Runner) -> None:
    ran = runner.run(_previous_runnable(block))
    rows = (ran.folder / "data" / "tasks.jsonl").read_text().splitlines()
    tasks = {t["id"]: t for t in (json.loads(json.loads(r)["ground_truth"]) for r in rows)}
    shown = json.loads(block.text)
    if UPDATE and shown["id"] not in tasks:
        multi_turn = [i for i, t in tasks.items() if t["kind"] == "tool" and len(t["turns"]) > 1]
        shown["id"] = min(multi_turn, key=lambda i: len(json.dumps(_sample_view(tasks[i]))))
    assert shown["id"] in tasks, f"{block.where}: task {shown['id']} is not in the quickstart's dataset"
    real = _sample_view(tasks[shown["id"]])
    if UPDATE and shown != real:
        _rewrite(block, json.dumps(real, indent=2).splitlines())
        return
    assert shown == real, (
        f"{block.where}: the sample differs from the generated task:\n{json.dumps(real, indent=2)}"
    )


@pytest.mark.parametrize("block", ALL, ids=[b.where for b in ALL])
def test_block_works_as_pasted(block: Block, runner: Runner) -> None:
    if block.mark == "output":
        _check_output(block, runner)
    elif block.mark == "sample":
        _check_sample(block, runner)
    elif block.lang == "json":
        json.loads(block.text)
    elif block.lang in INERT:
        assert not block.mark, f"{block.where}: a {block.lang or 'plain'} block runs nothing; drop its mark"
    elif block.mark in ("not run", "synopsis"):
        _check_only(block)
    else:
        assert block.lang in ("bash", "python"), f"{block.where}: cannot run a {block.lang} block; mark it"
        ran = runner.run(block)
        assert ran.returncode == 0, (
            f"{block.where} failed ({ran.returncode}):\n{ran.stdout[-3000:]}\n{ran.stderr[-3000:]}"
        )


def test_every_page_has_blocks_and_marks_are_few() -> None:
    """The scan sees the pages (a moved docs folder would pass vacuously) and most blocks run."""
    assert {b.path.name for b in ALL} >= {"README.md", "querygen.md", "reward.md"}
    ran = [b for b in ALL if _runnable(b)]
    assert len(ran) >= 8, [b.where for b in ran]


def test_readme_domain_table_is_the_registry() -> None:
    """The README's domain ids and tool counts, each group's sum and the total are the registry's
    (the agent-visible tools of every domain), so the first screen cannot drift from the code."""
    from servers.registry import parse_domains

    text = (REPO / "README.md").read_text()
    table = text.split("<!-- docs-test: domains -->", 1)[1].strip().split("\n\n", 1)[0]
    real = {d.name: len(d.visible_tools()) for d in parse_domains("all")}
    shown = {name: int(n) for name, n in re.findall(r"`(\w+)` (\d+)", table)}
    assert shown == real
    for row in table.splitlines()[2:-1]:  # each group's row: "| label (SUM) | `id` n · ... |"
        names = re.findall(r"`(\w+)` \d+", row)
        assert f"({sum(real[n] for n in names)})" in row, row
    assert f"**{len(real)} domains, {sum(real.values())} tools**" in table.splitlines()[-1]
    assert f"{len(real)} domains, {sum(real.values())} agent tools" in text, "the prose says the same total"
