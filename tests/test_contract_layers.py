"""The floors hold: nothing below the generator imports it, and the contract stands on nothing.

Every module of ``servers/``, ``rewards/``, ``rollout/``, ``contract/`` and ``state/`` is parsed
with ``ast`` (not imported), so an import inside a function counts as much as one at the top:
a function-level import is how an upward arrow hides. A failure names the module and line.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
UPPER = ("querygen", "servers", "rewards", "rollout", "toolground")
# package -> the packages it must not import
FORBIDDEN = {
    "servers": ("querygen",),
    "rewards": ("querygen",),
    "rollout": ("querygen",),
    "contract": UPPER + ("state",),
    "state": UPPER + ("contract",),
}


def imported(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, top-level package) of every import in the tree, at any depth; relative imports skipped."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, alias.name.split(".")[0]) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.append((node.lineno, node.module.split(".")[0]))
    return out


def violations(package: str) -> list[str]:
    banned = FORBIDDEN[package]
    found = []
    for path in sorted((REPO / package).rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for line, top in imported(tree):
            if top in banned:
                found.append(f"{path.relative_to(REPO)}:{line} imports {top}")
    return found


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_no_import_runs_up_a_floor(package):
    assert (REPO / package).is_dir()
    found = violations(package)
    assert not found, f"{package} must not import {', '.join(FORBIDDEN[package])}:\n" + "\n".join(found)


def test_a_function_level_import_is_found():
    """The walk sees imports at every depth, the way a hidden upward arrow would be written."""
    source = "import json\n\ndef f():\n    from querygen.out.export import write_dataset\n    import querygen.gold\n"
    assert imported(ast.parse(source)) == [(1, "json"), (4, "querygen"), (5, "querygen")]
