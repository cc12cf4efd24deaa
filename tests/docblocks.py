"""The fenced code blocks of the README and docs/, with the marks that say how a test treats them.

A block is run unless the HTML comment right above its fence (invisible on GitHub) says otherwise:

    <!-- docs-test: not run: REASON -->      checked only: bash -n and every `toolground ...` line
                                             parsed by the real argument parser; python compiled
    <!-- docs-test: synopsis -->             a usage synopsis ([--option]): bash -n only
    <!-- docs-test: serve ARGS -->           run while `toolground serve ARGS` listens; the block's
                                             port 8000 is that server's free port
    <!-- docs-test: output -->               (a text block) the first lines the previous block's
                                             last command prints
    <!-- docs-test: sample -->               (a json block) a task of the previous output's dataset

Blocks whose info string is empty, ``text`` or ``mermaid`` are diagrams or output and run nothing;
``json`` blocks must parse.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

from tests.serving import REPO

KINDS = ("not run", "synopsis", "serve", "output", "sample", "domains")
MARK = re.compile(r"^<!--\s*docs-test:\s*(?P<body>.*?)\s*-->\s*$")
FENCE = re.compile(r"^(?P<indent> {0,3})```(?P<info>[\w+-]*)\s*$")
INERT = ("", "text", "mermaid")  # nothing to run: diagrams, output, layouts


@dataclass
class Block:
    """One fenced block: where it is, its info string, its text and its docs-test mark."""

    path: Path
    line: int  # 1-based line of the opening fence
    lang: str
    text: str
    mark: str = ""  # one of KINDS, or "" (run it)
    arg: str = ""  # the mark's argument: a reason, or serve's arguments
    end: int = 0  # 1-based line of the closing fence
    lines: list[str] = field(default_factory=list)

    @property
    def where(self) -> str:
        return f"{self.path.relative_to(REPO)}:{self.line}"


def documents() -> list[Path]:
    """The pages whose blocks are run: the README and every page of docs/."""
    return [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]


def blocks(path: Path) -> list[Block]:
    """The fenced blocks of ``path`` in order, each with the mark on the line above its fence."""
    lines = path.read_text().splitlines()
    found: list[Block] = []
    i = 0
    while i < len(lines):
        opening = FENCE.match(lines[i])
        if not opening:
            i += 1
            continue
        end = next((j for j in range(i + 1, len(lines)) if lines[j].strip() == "```"), None)
        if end is None:
            raise ValueError(f"{path}:{i + 1}: a fence that never closes")
        body = lines[i + 1 : end]
        block = Block(path, i + 1, opening["info"], "\n".join(body) + "\n", end=end + 1, lines=body)
        above = lines[i - 1] if i else ""
        if mark := MARK.match(above):
            block.mark, block.arg = read_mark(mark["body"], f"{path}:{i}")
        found.append(block)
        i = end + 1
    return found


def read_mark(body: str, where: str) -> tuple[str, str]:
    """(kind, argument) of a mark's text: ``not run: REASON``, ``serve --domains banking``, ..."""
    kind = next((k for k in KINDS if body == k or body.startswith((k + ":", k + " "))), None)
    if kind is None:
        raise ValueError(f"{where}: unknown docs-test mark {body!r}; known: {', '.join(KINDS)}")
    return kind, body[len(kind) :].lstrip(":").strip()


def shell_commands(text: str) -> list[list[str]]:
    """The simple commands of a bash block as argument lists: continuations joined, comments
    dropped, lines split at ``&&``, ``||``, ``;``, ``|`` and ``&``."""
    joined = re.sub(r"\\\n", " ", text)
    commands = []
    for line in joined.splitlines():
        words = shlex.split(line, comments=True)
        current: list[str] = []
        for word in words:
            if word in ("&&", "||", ";", "|", "&"):
                commands.append(current)
                current = []
            elif word.endswith(("&", ";")) and word not in ("&", ";"):
                current.append(word.rstrip("&;"))
                commands.append(current)
                current = []
            else:
                current.append(word)
        commands.append(current)
    return [c for c in commands if c]


def toolground_commands(text: str) -> list[list[str]]:
    """The ``toolground ...`` commands of a bash block (after any ``VAR=value`` prefixes)."""
    found = []
    for command in shell_commands(text):
        words = [w for w in command if not re.match(r"^[A-Z_]+=", w)] if command else []
        if words and words[0] == "toolground":
            found.append(words[1:])
    return found
