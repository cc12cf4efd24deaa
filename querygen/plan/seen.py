"""What a conversation has shown so far: the strings its calls took and returned.

A user can only name what they know; for files that is a name in the folder they are in, or a
path under a folder the conversation has listed. The generator draws paths with this rule and the
realism detectors judge them with it, so both sides share this one definition.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def shown_strings(steps: Iterable[Any]) -> set[str]:
    """Every string the calls so far took or returned (paths, names) at any depth."""
    out: set[str] = set()

    def walk(v: Any) -> None:
        if isinstance(v, dict):
            for x in v.values():
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)
        elif isinstance(v, str):
            out.add(v)

    for s in steps:
        walk(s.args)
        walk(s.result)
    return out


def path_in_view(path: Any, shown: set[str]) -> bool:
    """A path the user can name without a lookup: a name in the current folder ("notes.txt", "."),
    or a path in the same corner of the tree as one the conversation showed (the same project
    folder: the first two components, or the same parent folder for a shallow path)."""
    if not isinstance(path, str):
        return False
    if "/" not in path.strip("/") and not path.startswith(("/", "~")):
        return True
    return _area(path) in {_area(s) for s in shown if "/" in s} or path in shown


def _area(path: str) -> str:
    parts = path.removeprefix("~/").rstrip("/").split("/")
    return "/".join(parts[: max(1, min(2, len(parts) - 1))])
