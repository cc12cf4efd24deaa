"""The import circles of a package: which of its modules import each other, round and round.

Run:  .venv/bin/python bench/import_graph.py querygen [--edges]

Python accepts a circle as long as no module needs the other's names while it is still being
imported, which is why circles are usually "fixed" with an import inside a function or under
``TYPE_CHECKING``. Both still say the two modules depend on each other, so this tool reads every
import statement of the package's source (with :mod:`ast`, nothing is imported or run):
top-level ones, ones inside functions and ones under ``if TYPE_CHECKING:``, and lists

* each circle: a strongly connected group of modules, with one closed path through it and every
  arrow inside the group (``file:line``, and the kind of import when it is not a plain top-level
  one);
* with ``--edges``, every arrow between the package's modules.

It exits with status 1 when there is a circle, so a check can run it. A package's ``__init__``
imported implicitly on the way to a submodule is not an arrow (toolground's are empty).
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Arrow:
    """One import statement of ``source`` naming ``target`` (both dotted module names)."""

    source: str
    target: str
    path: str
    line: int
    kind: str  # "top", "function" or "type-checking"

    def where(self) -> str:
        tag = "" if self.kind == "top" else f" ({self.kind})"
        return f"{self.path}:{self.line}{tag}"


def modules(root: Path) -> dict[str, Path]:
    """Dotted name -> file for every module of the package at ``root`` (a directory)."""
    if not (root / "__init__.py").is_file():
        raise SystemExit(f"{root} is not a package: it has no __init__.py")
    base = root.resolve().parent
    out = {}
    for path in sorted(root.resolve().rglob("*.py")):
        parts = list(path.relative_to(base).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.Module) -> Iterator[tuple[ast.Import | ast.ImportFrom, str]]:
    """Every import statement with its kind, walking into functions, classes and ``if`` blocks."""

    def walk(nodes: list[ast.stmt], kind: str) -> Iterator[tuple[ast.Import | ast.ImportFrom, str]]:
        for node in nodes:
            if isinstance(node, ast.Import | ast.ImportFrom):
                yield node, kind
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                yield from walk(node.body, "function")
            elif isinstance(node, ast.If) and _is_type_checking(node.test):
                yield from walk(node.body, "type-checking")
                yield from walk(node.orelse, kind)
            else:
                for field in ("body", "orelse", "finalbody", "handlers"):
                    inner = getattr(node, field, None)
                    if isinstance(inner, list):
                        yield from walk(
                            [n for n in inner if isinstance(n, ast.stmt | ast.excepthandler)], kind
                        )

    yield from walk(tree.body, "top")


def _targets(node: ast.Import | ast.ImportFrom, here: str, is_package: bool, known: set[str]) -> list[str]:
    """The package modules an import statement names (``from a import b`` names ``a.b`` if it is a module)."""
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        if node.level:
            parts = here.split(".") if is_package else here.split(".")[:-1]
            parts = parts[: len(parts) - (node.level - 1)]
            stem = ".".join(parts + ([node.module] if node.module else []))
        else:
            stem = node.module or ""
        names = [f"{stem}.{alias.name}" if f"{stem}.{alias.name}" in known else stem for alias in node.names]
    out = []
    for name in names:
        while name and name not in known:  # `import a.b.c` where only a.b is a module of ours
            name = name.rpartition(".")[0]
        if name and name != here and name not in out:
            out.append(name)
    return out


def arrows(root: Path) -> list[Arrow]:
    """Every import between two modules of the package at ``root``."""
    mods = modules(root)
    known = set(mods)
    base = root.resolve().parent
    out = []
    for name, path in mods.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node, kind in _imports(tree):
            for target in _targets(node, name, path.name == "__init__.py", known):
                out.append(Arrow(name, target, str(path.relative_to(base)), node.lineno, kind))
    return out


def circles(edges: list[Arrow]) -> list[list[str]]:
    """Strongly connected groups of two or more modules (Tarjan's algorithm), sorted."""
    graph: dict[str, set[str]] = {}
    for a in edges:
        graph.setdefault(a.source, set()).add(a.target)
        graph.setdefault(a.target, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    groups: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10 * len(graph) + 100))
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(groups)


def closed_path(group: list[str], edges: list[Arrow]) -> list[str]:
    """One path from the group's first module back to itself, through the group only."""
    inside = set(group)
    nxt: dict[str, list[str]] = {}
    for a in edges:
        if a.source in inside and a.target in inside:
            nxt.setdefault(a.source, []).append(a.target)
    start = group[0]
    seen = {start: [start]}
    frontier = [start]
    while frontier:  # breadth first: the shortest way round
        more = []
        for v in frontier:
            for w in sorted(set(nxt.get(v, []))):
                if w == start:
                    return [*seen[v], start]
                if w not in seen:
                    seen[w] = [*seen[v], w]
                    more.append(w)
        frontier = more
    return group


def report(root: Path, show_edges: bool) -> tuple[str, int]:
    """The printed report and the number of circles."""
    edges = arrows(root)
    groups = circles(edges)
    lines = [f"{root.name}: {len(modules(root))} modules, {len(edges)} import arrows, {len(groups)} circles"]
    for group in groups:
        lines.append("")
        lines.append("circle: " + " -> ".join(closed_path(group, edges)))
        for a in edges:
            if a.source in group and a.target in group:
                lines.append(f"  {a.source} -> {a.target}   {a.where()}")
    if show_edges:
        lines.append("")
        lines.extend(f"{a.source} -> {a.target}   {a.where()}" for a in edges)
    return "\n".join(lines), len(groups)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("package", type=Path, help="the package's directory, e.g. querygen")
    parser.add_argument("--edges", action="store_true", help="also list every arrow")
    args = parser.parse_args(argv)
    text, count = report(args.package, args.edges)
    print(text)
    return 1 if count else 0


if __name__ == "__main__":
    raise SystemExit(main())
