"""The code stays in small pieces (issue 29): short modules, and long functions only with a reason.

A module outside ``servers/domains`` over 520 lines holds more than one idea and is hard to review;
the domains are exempt because one domain's tools and seed naturally share a module. A function
whose code (its own docstring not counted: a tool's ``Args:`` list is what agents read, not code)
runs over 60 lines anywhere in the packages must say in its docstring why it is long ("Long
because ..."), so the next reader knows the length was a choice and not drift. Each failure names the file,
the line and the function, so the fix starts at the right place.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("state", "contract", "servers", "querygen", "rewards", "rollout", "toolground")
MAX_MODULE_LINES = 520
MAX_FUNCTION_LINES = 60
REASON = "Long because"


def _modules() -> list[Path]:
    return sorted(p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py"))


def long_modules(paths: list[Path], limit: int = MAX_MODULE_LINES) -> list[str]:
    """``file: N lines`` for each module outside servers/domains over ``limit`` lines."""
    found = []
    for p in paths:
        rel = p.relative_to(ROOT).as_posix() if p.is_relative_to(ROOT) else str(p)
        if rel.startswith("servers/domains/"):
            continue
        n = len(p.read_text().splitlines())
        if n > limit:
            found.append(f"{rel}: {n} lines (limit {limit})")
    return found


def code_lines(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """The function's lines, signature included, less its own docstring."""
    n = node.end_lineno - node.lineno + 1
    first = node.body[0]
    if (
        isinstance(first, ast.Expr)
        and isinstance(first.value, ast.Constant)
        and isinstance(first.value.value, str)
    ):
        n -= first.end_lineno - first.lineno + 1
    return n


def unexplained_long_functions(paths: list[Path], limit: int = MAX_FUNCTION_LINES) -> list[str]:
    """``file:line name (N lines)`` for each function over ``limit`` lines whose docstring gives no reason."""
    found = []
    for p in paths:
        rel = p.relative_to(ROOT).as_posix() if p.is_relative_to(ROOT) else str(p)
        for node in ast.walk(ast.parse(p.read_text(), filename=str(p))):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            n = code_lines(node)
            if n <= limit or REASON in (ast.get_docstring(node) or ""):
                continue
            found.append(
                f"{rel}:{node.lineno} {node.name} ({n} lines of code, no '{REASON}' in its docstring)"
            )
    return found


def test_no_module_outside_the_domains_is_over_the_limit() -> None:
    found = long_modules(_modules())
    assert not found, "split these modules (one idea each):\n" + "\n".join(found)


def test_every_long_function_says_why_it_is_long() -> None:
    found = unexplained_long_functions(_modules())
    assert not found, f"split these functions or add '{REASON} ...' to their docstring:\n" + "\n".join(found)


def test_the_checks_catch_what_they_look_for(tmp_path: Path) -> None:
    body = "\n".join(f"    x = {i}" for i in range(MAX_FUNCTION_LINES))
    bad = tmp_path / "bad.py"
    bad.write_text(f'def long_one():\n    """No reason."""\n{body}\n')
    good = tmp_path / "good.py"
    good.write_text(f'def long_one():\n    """Long because it is a test."""\n{body}\n')
    assert unexplained_long_functions([bad]) == [
        f"{bad}:1 long_one ({MAX_FUNCTION_LINES + 1} lines of code, no '{REASON}' in its docstring)"
    ]
    assert unexplained_long_functions([good]) == []
    documented = tmp_path / "documented.py"  # long only by its docstring: not long code
    args = "\n".join(f"        p{i}: parameter {i}." for i in range(MAX_FUNCTION_LINES))
    documented.write_text(f'def short_one():\n    """Summary.\n\n    Args:\n{args}\n    """\n    return 1\n')
    assert unexplained_long_functions([documented]) == []
    big = tmp_path / "big.py"
    big.write_text("x = 1\n" * (MAX_MODULE_LINES + 1))
    assert long_modules([big]) == [f"{big}: {MAX_MODULE_LINES + 1} lines (limit {MAX_MODULE_LINES})"]
    big.write_text("x = 1\n" * MAX_MODULE_LINES)
    assert long_modules([big]) == []
