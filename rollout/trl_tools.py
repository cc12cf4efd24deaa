"""Toolground tool schemas as TRL environment methods that show the model the exact schema.

TRL (1.16) takes an environment's public methods as its tools: it lists the class's functions
(``inspect.getmembers(type(env), inspect.isfunction)``), takes ``getattr(env, name)`` of each, keys
it by ``__name__`` and calls it as ``tool(**arguments)``. It hands those same objects to
``apply_chat_template(tools=...)`` and ``parse_response(tools=...)``. Transformers (5.x) accepts a
tool there as a JSON-schema dict, used verbatim, or as a function, whose schema it re-derives from
type hints and a Google docstring (``get_json_schema``). Re-deriving loses what type hints cannot
say (``minLength``, ``maxLength``, ``minimum``, ``exclusiveMinimum``, ``pattern``,
``additionalProperties: false``: 115 keys net over the 26 banking tools) and adds ``nullable``.

Neither library has a hook to attach a schema to a function, so no patch is needed only if the
tool *is* the schema: :class:`ToolMethod` is a descriptor whose class-level value is a plain
function (so TRL's ``isfunction`` scan finds it, with a signature and docstring from the schema
for people reading it) and whose instance-level value is a :class:`BoundTool`, a ``dict`` holding
the task's exact schema that is also callable and carries ``__name__``. Transformers' documented
``isinstance(tool, dict)`` branch then renders it unchanged and types parsed arguments with it;
TRL calls it like any bound method. Nothing global is patched. This leans on TRL reading tools
by ``getattr`` on the instance, which the tests check with the real TRL by comparing the prompt
it renders with the task's schemas.
"""

from __future__ import annotations

import inspect
import keyword
from collections.abc import Callable
from typing import Any, Literal

_JSON_TYPES: dict[str, Any] = {
    "string": str,
    "integer": int,
    "number": float,
    "boolean": bool,
    "array": list,
    "object": dict,
}


def tool_name(schema: dict[str, Any]) -> str:
    """The function name of an OpenAI tool schema (``{"type": "function", "function": {...}}``)."""
    return str(schema["function"]["name"])


def _annotation(prop: dict[str, Any]) -> Any:
    """A Python type for a JSON-schema property, for the signature people read (never re-parsed)."""
    enum = prop.get("enum")
    if isinstance(enum, list) and enum and all(isinstance(v, str | int | float | bool) for v in enum):
        return Literal[tuple(enum)]
    kind = prop.get("type")
    if isinstance(kind, list):
        types = [_JSON_TYPES[k] for k in kind if k in _JSON_TYPES]
        return types[0] if len(types) == 1 else Any
    return _JSON_TYPES.get(kind, Any) if isinstance(kind, str) else Any


def _optional(ann: Any) -> Any:
    return Any if ann is Any else ann | None


def signature(schema: dict[str, Any]) -> inspect.Signature:
    """``self``, then the required parameters, then the optional ones (defaulting to None: the
    server applies its own defaults, and an argument left out is never sent).

    A property whose name is not a Python identifier cannot be a parameter; it is left to
    ``**more`` (the call still passes it through)."""
    params = schema["function"].get("parameters") or {}
    props: dict[str, Any] = params.get("properties") or {}
    required = set(params.get("required") or [])
    out = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    odd = False
    for must in (True, False):
        for name, prop in props.items():
            if (name in required) != must:
                continue
            if not name.isidentifier() or keyword.iskeyword(name):
                odd = True
                continue
            ann = _annotation(prop if isinstance(prop, dict) else {})
            kind = inspect.Parameter.KEYWORD_ONLY
            if must:
                out.append(inspect.Parameter(name, kind, annotation=ann))
            else:
                out.append(inspect.Parameter(name, kind, default=None, annotation=_optional(ann)))
    if odd:
        out.append(inspect.Parameter("more", inspect.Parameter.VAR_KEYWORD, annotation=Any))
    return inspect.Signature(out, return_annotation=str)


def docstring(schema: dict[str, Any]) -> str:
    """A Google-style docstring: the tool's description and one line per parameter."""
    fn = schema["function"]
    props: dict[str, Any] = (fn.get("parameters") or {}).get("properties") or {}
    lines = [str(fn.get("description") or f"Call {fn['name']}.").strip()]
    if props:
        lines += ["", "Args:"]
        for name, prop in props.items():
            desc = prop.get("description", "") if isinstance(prop, dict) else ""
            lines.append(f"    {name}: {desc or name}")
    lines += ["", "Returns:", "    The tool's JSON result, or a JSON object with an `error` key."]
    return "\n".join(lines)


class BoundTool(dict):  # type: ignore[type-arg]
    """One tool of one environment instance: the exact schema (as a dict) and a callable.

    Calling it runs the tool in the instance's episode and returns the JSON text the model sees;
    a failure is ``{"error": ...}`` too, never an exception (TRL would write a raised error as a
    Python repr, ``{'error': ...}``)."""

    def __init__(
        self, schema: dict[str, Any], call: Callable[[str, dict[str, Any]], str], doc: str | None = None
    ) -> None:
        super().__init__(schema)
        self.__name__ = tool_name(schema)
        self.__doc__ = doc if doc is not None else docstring(schema)
        self._call = call

    def __call__(self, **arguments: Any) -> str:
        return self._call(self.__name__, arguments)


class ToolMethod:
    """The class attribute for one tool: a function on the class, a :class:`BoundTool` on an instance."""

    def __init__(self, schema: dict[str, Any]) -> None:
        self.schema = schema
        self.function = self._function(schema)

    @staticmethod
    def _function(schema: dict[str, Any]) -> Callable[..., str]:
        name = tool_name(schema)

        def method(self: Any, /, **arguments: Any) -> str:
            return self._tool_call(name, arguments)

        sig = signature(schema)
        method.__name__ = method.__qualname__ = name
        method.__doc__ = docstring(schema)
        method.__signature__ = sig  # type: ignore[attr-defined]
        # what typing.get_type_hints reads: the schema's parameters, not the wrapper's **arguments
        method.__annotations__ = {
            p.name: p.annotation for p in sig.parameters.values() if p.annotation is not p.empty
        } | {"return": str}
        return method

    def __get__(self, instance: Any, owner: type | None = None) -> Any:
        if instance is None:
            return self.function
        return BoundTool(self.schema, instance._tool_call, self.function.__doc__)
