"""The generator's stages and the upper packages import one way: no circles, no stage reaching up.

Read from the source with ``ast`` (bench/import_graph.py), so an import hidden inside a function or
under ``TYPE_CHECKING`` counts too: it still says the two modules depend on each other.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from bench.import_graph import arrows, circles

REPO = Path(__file__).resolve().parents[1]
STAGES = {"plan": 0, "text": 1, "out": 2}  # querygen/<stage>/; the modules at its top come last
TOP = 3


@pytest.mark.parametrize("package", ["querygen", "rollout", "contract", "rewards", "state"])
def test_no_import_circles(package):
    found = circles(arrows(REPO / package))
    assert found == [], f"{package} has import circles: {found} (run bench/import_graph.py {package} --edges)"


def test_the_circle_finder_sees_a_circle_hidden_in_a_function(tmp_path):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from pkg.b import f\n")
    (pkg / "b.py").write_text("def f():\n    from pkg import a\n")
    assert circles(arrows(pkg)) == [["pkg.a", "pkg.b"]]


def _stage(module: str) -> int:
    parts = module.split(".")
    return STAGES.get(parts[1], TOP) if len(parts) > 2 or (len(parts) == 2 and parts[1] in STAGES) else TOP


def upward_imports(root: Path) -> list[str]:
    """Imports from a querygen stage to a later one (plan < text < out < the top modules)."""
    out = []
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        here = _stage(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.ImportFrom) and (node.module or "").startswith("querygen.")):
                continue
            if _stage(node.module) > here:
                out.append(f"{path.relative_to(root.parent)}:{node.lineno} imports {node.module}")
    return out


def test_querygen_stages_import_only_the_stages_below_them():
    assert upward_imports(REPO / "querygen") == []


def test_the_stage_check_sees_a_stage_reaching_up(tmp_path):
    plan = tmp_path / "querygen" / "plan"
    plan.mkdir(parents=True)
    (plan / "gold.py").write_text("def f():\n    from querygen.text.naming import Namer\n")
    assert upward_imports(tmp_path / "querygen") == ["querygen/plan/gold.py:2 imports querygen.text.naming"]
