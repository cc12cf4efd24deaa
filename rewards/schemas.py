"""Tool schemas reduced to what validity level 2 checks: required keys and JSON types.

Level 2 of graduated validity is "all required parameters are present with compatible JSON
types". A schema is parsed once per task into a :class:`ToolSchema` whose ``check`` is a few
dict lookups, because it runs for every call of every trajectory.

Type rules (documented decisions):

* JSON has one number type: an integral float (``5.0``) is a compatible ``integer``, any int is
  a compatible ``number``; a bool is never a number.
* No coercion: ``"10"`` is not a compatible ``integer`` even if a server would coerce it.
* ``null`` for an optional parameter is the same as leaving it out; for a required one it needs
  ``"null"`` among the declared types.
* Undeclared keys fail only when the schema says ``additionalProperties: false`` (ours do).
* A property without a usable ``type`` accepts anything.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from rewards.errors import TaskError

_MISSING = object()


@dataclass(frozen=True, slots=True)
class ToolSchema:
    """Required keys, per-property JSON types (None = any) and whether extra keys are refused."""

    name: str
    required: tuple[str, ...]
    props: dict[str, frozenset[str] | None]
    closed: bool

    def check(self, args: dict[str, Any]) -> bool:
        """True when the arguments pass validity level 2."""
        required = self.required
        for key in required:
            if key not in args:
                return False
        props = self.props
        for key, value in args.items():
            types = props.get(key, _MISSING)
            if types is _MISSING:
                if self.closed:
                    return False
                continue
            if types is None or (value is None and key not in required):
                continue
            if not json_type_ok(value, types):
                return False
        return True


def json_type_ok(value: Any, types: frozenset[str]) -> bool:
    """Is ``value`` an instance of one of the JSON Schema type names in ``types``?"""
    if value is None:
        return "null" in types
    if value is True or value is False:
        return "boolean" in types
    if isinstance(value, int):
        return "integer" in types or "number" in types
    if isinstance(value, float):
        return "number" in types or ("integer" in types and value.is_integer())
    if isinstance(value, str):
        return "string" in types
    if isinstance(value, list):
        return "array" in types
    if isinstance(value, dict):
        return "object" in types
    return False


def _prop_types(prop: Any) -> frozenset[str] | None:
    if not isinstance(prop, dict):
        return None
    t = prop.get("type")
    if isinstance(t, str):
        return frozenset((t,))
    if isinstance(t, list) and t and all(isinstance(x, str) for x in t):
        return frozenset(t)
    for key in ("anyOf", "oneOf"):
        options = prop.get(key)
        if isinstance(options, list) and options:
            parts = [_prop_types(o) for o in options]
            if all(p is not None for p in parts):
                return frozenset().union(*parts)  # type: ignore[arg-type]
    return None


def schema_from_parameters(name: str, params: dict[str, Any]) -> ToolSchema:
    """A JSON Schema object (OpenAI ``parameters`` / MCP ``inputSchema``) -> ToolSchema."""
    props = params.get("properties") or {}
    required = params.get("required") or []
    if not isinstance(props, dict) or not isinstance(required, list):
        raise ValueError("'properties' must be an object and 'required' a list")
    return ToolSchema(
        name=name,
        required=tuple(str(r) for r in required),
        props={str(k): _prop_types(v) for k, v in props.items()},
        closed=params.get("additionalProperties") is False,
    )


class LazySchemas:
    """Tool name -> ToolSchema, built on first use: a task offers dozens of tools, a rollout calls a few."""

    __slots__ = ("_built", "_raw")

    def __init__(self, raw: dict[str, dict[str, Any]]) -> None:
        self._raw = raw
        self._built: dict[str, ToolSchema] = {}

    def get(self, name: str) -> ToolSchema | None:
        schema = self._built.get(name)
        if schema is None:
            params = self._raw.get(name)
            if params is None:
                return None
            schema = self._built[name] = schema_from_parameters(name, params)
        return schema

    def __contains__(self, name: object) -> bool:
        return name in self._raw

    def __len__(self) -> int:
        return len(self._raw)


def schemas_from_openai(tools: list[Any], loc: list[Any]) -> LazySchemas:
    """OpenAI function schemas (``{"type": "function", "function": {...}}``, bare, or MCP-style).

    The shape is checked now (so a bad schema is the task's error, reported up front); the
    per-property type sets are built lazily.
    """
    raw: dict[str, dict[str, Any]] = {}
    for i, tool in enumerate(tools):
        fn = tool.get("function", tool) if isinstance(tool, dict) else None
        name = fn.get("name") if isinstance(fn, dict) else None
        if not isinstance(name, str) or not name:
            raise TaskError(
                f"tool schema {i} has no function name",
                [{"loc": [*loc, i], "msg": "expected {'type': 'function', 'function': {'name': ...}}"}],
            )
        params = fn.get("parameters", fn.get("inputSchema")) or {}
        problem = None
        if not isinstance(params, dict):
            problem = "'parameters' must be an object"
        elif not isinstance(params.get("properties") or {}, dict) or not isinstance(
            params.get("required") or [], list
        ):
            problem = "'properties' must be an object and 'required' a list"
        if problem:
            raise TaskError(
                f"tool schema {i} ({name}): {problem}",
                [{"loc": [*loc, i, "function", "parameters"], "msg": problem}],
            )
        raw.setdefault(name, params)
    return LazySchemas(raw)


@functools.lru_cache(maxsize=64)
def _domain_schemas(domains: tuple[str, ...]) -> dict[str, ToolSchema]:
    from servers.registry import UnknownDomain, get_domain

    out: dict[str, ToolSchema] = {}
    for name in domains:
        try:
            domain = get_domain(name)
        except UnknownDomain as exc:
            raise TaskError(str(exc), [{"loc": ["task", "domains"], "msg": str(exc)}]) from None
        for spec in domain.visible_tools():
            out[spec.qualified_name] = schema_from_parameters(spec.qualified_name, spec.input_schema())
    return out


def schemas_from_domains(domains: list[str]) -> dict[str, ToolSchema]:
    """Every visible tool of the task's domains (used when a task lists no tools)."""
    return _domain_schemas(tuple(domains))


def _value_type(value: Any) -> str | None:
    if value is None:
        return None
    if value is True or value is False:
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def schemas_from_gold(calls: list[tuple[str, dict[str, Any]]]) -> dict[str, ToolSchema]:
    """No schema at all: the gold calls are the only evidence of which tools exist.

    Known tools are the gold tool names; a key is required when every gold call of that tool
    has it; its types are those of the gold values (any number for a number); extra keys are
    allowed because nothing says they are not.
    """
    keys: dict[str, list[set[str]]] = {}
    types: dict[str, dict[str, set[str] | None]] = {}
    for name, args in calls:
        keys.setdefault(name, []).append(set(args))
        slot = types.setdefault(name, {})
        for k, v in args.items():
            t = _value_type(v)
            if t is None or slot.get(k, set()) is None:
                slot[k] = None
            else:
                slot.setdefault(k, set()).add(t)  # type: ignore[union-attr]
    out = {}
    for name, key_sets in keys.items():
        required = set.intersection(*key_sets) if key_sets else set()
        props = {k: (frozenset(v) if v is not None else None) for k, v in types[name].items()}
        out[name] = ToolSchema(name, tuple(sorted(required)), props, closed=False)
    return out
