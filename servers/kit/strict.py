"""Arguments must already have the JSON type the schema declares.

Pydantic's lax mode turns ``true`` into 1.0, ``"5"`` and ``" 7 "`` into numbers: an agent that
emits the wrong type then succeeds and never learns the schema, and the reward's validity term
(which never coerces) disagrees with what the server did. So by default a call is checked against
the declared JSON types first, with the same rules as the reward: a bool is never a number, an
integral float (``5.0``) is an integer, nothing is trimmed or parsed. ``lax`` serving skips the
check for users who want the old behaviour.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

_EXPECTED = {
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "true or false",
    "array": "an array",
    "object": "an object",
}


def json_kind(value: Any) -> str:
    """The JSON type of a decoded value, as a person would name it."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    return "an object" if isinstance(value, dict) else type(value).__name__


def fits(value: Any, json_type: str) -> bool:
    """Whether a decoded JSON value has the declared type, without any coercion."""
    if json_type == "boolean":
        return isinstance(value, bool)
    if isinstance(value, bool):
        return False
    if json_type == "integer":
        return isinstance(value, int) or (isinstance(value, float) and value.is_integer())
    if json_type == "number":
        return isinstance(value, int | float)
    if json_type == "string":
        return isinstance(value, str)
    if json_type == "array":
        return isinstance(value, list)
    if json_type == "object":
        return isinstance(value, dict)
    return True  # a type the check does not know is left to the full validation


def type_problems(params: Iterable[Any], arguments: dict[str, Any]) -> list[str]:
    """One message per argument (or array element) whose JSON type is not the declared one."""
    out = []
    for p in params:
        if p.name not in arguments or (arguments[p.name] is None and not p.required):
            continue
        value = arguments[p.name]
        if not fits(value, p.json_type):
            out.append(_problem(p.name, p.json_type, value))
        elif p.json_type == "array" and p.items and "type" in p.items:
            out.extend(
                _problem(f"{p.name}[{i}]", p.items["type"], v)
                for i, v in enumerate(value)
                if not fits(v, p.items["type"])
            )
    return out


def _problem(name: str, json_type: str, value: Any) -> str:
    shown = json.dumps(value, ensure_ascii=False, default=str)
    shown = shown if len(shown) <= 60 else shown[:57] + "..."
    return f"{name} must be {_EXPECTED.get(json_type, json_type)}, got {shown} ({json_kind(value)})"
