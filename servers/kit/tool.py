"""A tool is a typed function; this module derives everything else from it.

From one signature we build the pydantic model that validates arguments, the
flat JSON schema agents see (primitive types and enums only, no ``anyOf`` or
``$ref``, because verl rejects them), the MCP annotations, and the entity
declarations the query generator reads. The MCP tool and the in-process call
both go through :meth:`ToolSpec.invoke`, so they validate identically.
"""

from __future__ import annotations

import enum
import inspect
import re
import sqlite3
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal, get_args, get_origin

from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model
from pydantic.fields import FieldInfo

from servers.kit import policy as policies
from servers.kit.acting import SESSION_TABLE
from servers.kit.db import Db, noun, singular
from servers.kit.errors import ToolCrash, ToolError
from servers.kit.strict import type_problems
from servers.kit.types import RefInfo, Sensitive, bound_names, example_key

_JSON_TYPES = {str: "string", int: "integer", float: "number", bool: "boolean"}
_DEFAULT_MAX_LEN = 4000


@dataclass(frozen=True)
class Param:
    """One agent-visible parameter, as the generator and the schema see it."""

    name: str
    json_type: str
    required: bool
    description: str
    enum: tuple[Any, ...] | None = None
    ref: RefInfo | None = None
    sensitive: bool = False
    default: Any = None
    constraints: dict[str, Any] = field(default_factory=dict)
    examples: tuple[Any, ...] = ()
    items: dict[str, Any] | None = None  # arrays: the schema of one element (type, enum, pattern...)

    @property
    def is_list(self) -> bool:
        return self.json_type == "array"

    def element(self) -> Param:
        """One item of an array parameter as a scalar parameter of its own (``recipients`` ->
        ``recipient``), so whoever makes values for scalars makes them for list items too."""
        items = self.items or {"type": "string"}
        return Param(
            name=singular(self.name),
            json_type=items["type"],
            required=True,
            description=self.description,
            enum=tuple(items["enum"]) if "enum" in items else None,
            constraints={k: v for k, v in items.items() if k not in ("type", "enum")},
        )


def _unwrap_optional(annotation: Any) -> Any:
    origin = get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in get_args(annotation) if a is not type(None)]
        if len(args) == 1:
            return args[0]
    return annotation


def _split_annotated(annotation: Any) -> tuple[Any, list[Any]]:
    metadata: list[Any] = []
    while get_origin(annotation) is typing.Annotated:
        base, *meta = get_args(annotation)
        metadata = [*meta, *metadata]
        annotation = base
    return annotation, metadata


def _scalar(name: str, base: Any) -> tuple[str, tuple[Any, ...] | None]:
    """The JSON type (and enum members) of a flat scalar annotation."""
    if get_origin(base) is Literal:
        values = tuple(get_args(base))
        return _JSON_TYPES[type(values[0])], values
    if isinstance(base, type) and issubclass(base, enum.Enum):
        values = tuple(m.value for m in base)
        return _JSON_TYPES[type(values[0])], values
    if base in _JSON_TYPES:
        return _JSON_TYPES[base], None
    raise TypeError(
        f"parameter {name!r}: type {base!r} is not flat (use str, int, float, bool, Literal, "
        "or a list of one of them)"
    )


def _constraints(info: list[FieldInfo], *, array: bool = False) -> dict[str, Any]:
    """JSON-schema keywords from pydantic field metadata (lengths of an array are item counts)."""
    names = [
        ("min_length", "minItems" if array else "minLength"),
        ("max_length", "maxItems" if array else "maxLength"),
        ("pattern", "pattern"),
        ("ge", "minimum"),
        ("le", "maximum"),
        ("gt", "exclusiveMinimum"),
        ("lt", "exclusiveMaximum"),
    ]
    out: dict[str, Any] = {}
    for fi in info:
        for meta in fi.metadata:
            for key, schema_key in names:
                value = getattr(meta, key, None)
                if value is not None:
                    out[schema_key] = value
    return out


def _items_schema(name: str, element: Any) -> dict[str, Any]:
    """The ``items`` of an array parameter: a flat scalar with its own constraints, never an object."""
    base, metadata = _split_annotated(_unwrap_optional(element))
    json_type, enum_values = _scalar(name, base)
    info = [m for m in metadata if isinstance(m, FieldInfo)]
    items: dict[str, Any] = {"type": json_type}
    if enum_values is not None:
        items["enum"] = list(enum_values)
    items.update(_constraints(info))
    if json_type == "string" and enum_values is None and "maxLength" not in items:
        raise TypeError(f"parameter {name!r}: list elements need a max_length (e.g. list[ShortText])")
    return items


def _param_from(name: str, annotation: Any, default: Any, doc: str) -> Param:
    base, metadata = _split_annotated(_unwrap_optional(annotation))
    base, more = _split_annotated(_unwrap_optional(base))
    metadata += more
    items: dict[str, Any] | None = None
    enum_values: tuple[Any, ...] | None = None
    if get_origin(base) is list:
        (element,) = get_args(base) or (str,)
        json_type, items = "array", _items_schema(name, element)
    else:
        json_type, enum_values = _scalar(name, base)
    ref = next((m for m in metadata if isinstance(m, RefInfo)), None)
    info = [m for m in metadata if isinstance(m, FieldInfo)]
    description = doc or next((fi.description for fi in info if fi.description), "") or ""
    if ref is not None and doc:
        description = f"{doc} ({_ref_hint(ref)})"
    examples = tuple(x for fi in info for x in (fi.examples or ()))
    constraints = _constraints(info, array=items is not None)
    if json_type == "string" and enum_values is None:
        constraints.setdefault("maxLength", _DEFAULT_MAX_LEN)
    if items is not None:
        constraints.setdefault("maxItems", 100)
    required = default is inspect.Parameter.empty
    return Param(
        name=name,
        json_type=json_type,
        required=required,
        description=description,
        enum=enum_values,
        ref=ref,
        sensitive=any(isinstance(m, Sensitive) for m in metadata),
        default=None if required else default,
        constraints=constraints,
        examples=examples,
        items=items,
    )


def _ref_hint(ref: RefInfo) -> str:
    if ref.path:
        return "a path; relative paths start at the working directory"
    what = "ids" if ref.many else ("symbol" if ref.natural else "id")
    return f"{noun(ref.table)} {what}, e.g. {example_key(ref.table)}"


def _doc_sections(doc: str) -> tuple[str, dict[str, str]]:
    """Split a docstring into its summary and its ``Args:`` descriptions."""
    summary_lines, args, current = [], {}, None
    in_args = False
    for line in inspect.cleandoc(doc or "").splitlines():
        if line.strip() in ("Args:", "Arguments:", "Parameters:"):
            in_args = True
            continue
        if in_args:
            m = re.match(r"^\s+(\w+)\s*(?:\([^)]*\))?:\s*(.*)$", line)
            if m:
                current = m.group(1)
                args[current] = m.group(2).strip()
            elif line.strip() and current and line.startswith(" "):
                args[current] += " " + line.strip()
            elif not line.strip():
                continue
            else:
                in_args = False
        if not in_args:
            summary_lines.append(line)
    return "\n".join(summary_lines).strip(), args


def _format_validation(tool: str, exc: ValidationError, allowed: list[str]) -> str:
    parts = []
    for err in exc.errors(include_url=False):
        loc = ".".join(str(x) for x in err["loc"]) or "arguments"
        if err["type"] == "extra_forbidden":
            parts.append(f"unexpected argument {loc!r}")
        elif err["type"] == "missing":
            parts.append(f"missing required argument {loc!r}")
        else:
            shown = repr(err.get("input"))
            shown = shown if len(shown) <= 60 else shown[:57] + "..."
            parts.append(f"{loc}: {err['msg']} (got {shown})")
    return (
        f"invalid arguments for {tool}: "
        + "; ".join(parts)
        + f". Allowed arguments: {', '.join(allowed) or 'none'}."
    )


@dataclass
class ToolSpec:
    """Everything known about one tool of a domain."""

    domain: str
    name: str
    fn: Callable[..., Any]
    description: str
    params: list[Param]
    writes: tuple[str, ...]
    returns: str | None
    needs: tuple[str, ...]
    says: tuple[str, ...]
    destructive: bool
    idempotent: bool
    hidden: bool
    model: type[BaseModel]
    # (table, SQL condition): a row of the table must satisfy it before the call makes sense
    # ("the directory stack is not empty"), a state no parameter names
    preconditions: tuple[tuple[str, str], ...] = ()
    # the policy rules a call must pass (set when the domain's tools are first read: rules may be
    # declared after the tools they govern)
    guards: tuple[Any, ...] = ()

    @property
    def qualified_name(self) -> str:
        return f"{self.domain}_{self.name}"

    @property
    def read_only(self) -> bool:
        return not self.writes

    @property
    def consumes(self) -> tuple[str, ...]:
        """Tables whose ids this tool takes (explicit dependency edges end here)."""
        return tuple(dict.fromkeys(p.ref.table_name for p in self.params if p.ref))

    def ready(self, conn: sqlite3.Connection) -> bool:
        """Every precondition holds on ``conn`` right now."""
        return all(
            conn.execute(f'SELECT 1 FROM "{table}" WHERE {cond} LIMIT 1').fetchone() is not None
            for table, cond in self.preconditions
        )

    def input_schema(self, *, strip_enums: bool = False) -> dict[str, Any]:
        props: dict[str, Any] = {}
        for p in self.params:
            prop: dict[str, Any] = {"type": p.json_type}
            if p.description:
                prop["description"] = p.description
            if p.enum is not None:
                if strip_enums:
                    prop["description"] = (
                        prop.get("description", "") + " (one of a fixed set of values)"
                    ).strip()
                else:
                    prop["enum"] = list(p.enum)
            if p.items is not None:
                prop["items"] = dict(p.items)
                if strip_enums and "enum" in prop["items"]:
                    del prop["items"]["enum"]
                    prop["description"] = (prop.get("description", "") + " (each one of a fixed set)").strip()
            if not p.required and p.default is not None:
                prop["default"] = list(p.default) if isinstance(p.default, tuple) else p.default
            prop.update(p.constraints)
            props[p.name] = prop
        return {
            "type": "object",
            "properties": props,
            "required": [p.name for p in self.params if p.required],
            "additionalProperties": False,
        }

    def openai_schema(self, *, qualified: bool = True, strip_enums: bool = False) -> dict[str, Any]:
        return {
            "type": "function",
            "function": {
                "name": self.qualified_name if qualified else self.name,
                "description": self.description,
                "parameters": self.input_schema(strip_enums=strip_enums),
            },
        }

    def annotations(self) -> dict[str, Any]:
        """MCP tool annotations, set from what the tool really does."""
        return {
            "title": self.name.replace("_", " ").capitalize(),
            "readOnlyHint": self.read_only,
            "destructiveHint": (not self.read_only) and self.destructive,
            "idempotentHint": self.read_only or self.idempotent,
            "openWorldHint": False,
        }

    def validate(self, arguments: Any, *, strict: bool = True) -> dict[str, Any]:
        """The arguments as the tool function takes them, or a ToolError naming every problem.

        ``strict`` (the default) refuses values of the wrong JSON type instead of coercing them
        (:mod:`servers.kit.strict`)."""
        if arguments is None:
            arguments = {}
        if not isinstance(arguments, dict):
            raise ToolError(
                f"arguments for {self.qualified_name} must be a JSON object, got {type(arguments).__name__}"
            )
        wrong = type_problems(self.params, arguments) if strict else []
        if wrong:
            allowed = ", ".join(p.name for p in self.params) or "none"
            raise ToolError(
                f"invalid arguments for {self.qualified_name}: {'; '.join(wrong)}. Allowed arguments: {allowed}."
            )
        try:
            parsed = self.model.model_validate(arguments)
        except ValidationError as exc:
            raise ToolError(
                _format_validation(self.qualified_name, exc, [p.name for p in self.params])
            ) from None
        return {p.name: getattr(parsed, p.name) for p in self.params}

    def run(self, conn: sqlite3.Connection, arguments: dict[str, Any], now: str | None = None) -> Any:
        """Run on a connection with already-validated arguments; ``now`` is the snapshot's reference
        moment when the caller knows it (otherwise ``db.now`` reads it from the snapshot's ``_meta``)."""
        db = Db(conn, now, self.domain)
        try:
            if not self.guards:
                return self.fn(db, **arguments)
            breaches = policies.judge(self.guards, db, self.name, arguments)
            result = self.fn(db, **arguments)
            policies.log_breaches(db, self.name, breaches)
            return result
        except ToolError:
            raise
        except sqlite3.IntegrityError as exc:
            raise ToolError(f"{self.qualified_name} would break a data rule: {exc}") from None
        except Exception as exc:  # a bug in the tool: the agent still gets an error, tests can tell
            raise ToolCrash(
                f"{self.qualified_name} failed unexpectedly ({type(exc).__name__}: {exc}); nothing was changed"
            ) from exc


def build_spec(
    domain: str,
    fn: Callable[..., Any],
    *,
    writes: tuple[Any, ...],
    returns: Any,
    needs: tuple[Any, ...],
    says: tuple[str, ...],
    destructive: bool,
    idempotent: bool,
    hidden: bool,
    name: str | None = None,
    preconditions: tuple[tuple[Any, str], ...] = (),
) -> ToolSpec:
    summary, arg_docs = _doc_sections(fn.__doc__ or "")
    if not summary:
        raise TypeError(f"tool {fn.__name__} needs a docstring: it is the description agents read")
    params, fields = _parameters(fn, arg_docs)
    tool_name = name or fn.__name__
    _check_bindings(f"{domain}_{tool_name}", params, preconditions)
    model = create_model(
        f"{domain}_{tool_name}_args",
        __config__=ConfigDict(extra="forbid", allow_inf_nan=False),
        **fields,
    )

    def table_name(t: Any) -> str:
        return t if isinstance(t, str) else t.__tablename__

    return ToolSpec(
        domain=domain,
        name=tool_name,
        fn=fn,
        description=summary,
        params=params,
        writes=tuple(table_name(t) for t in writes),
        returns=table_name(returns) if returns is not None else None,
        needs=_needs(params, tuple(table_name(t) for t in needs)),
        says=tuple(says),
        destructive=destructive,
        idempotent=idempotent,
        hidden=hidden,
        model=model,
        preconditions=tuple((table_name(t), cond) for t, cond in preconditions),
    )


def _parameters(fn: Callable[..., Any], arg_docs: dict[str, str]) -> tuple[list[Param], dict[str, Any]]:
    """A tool's parameters (after the Db handle) as declared, and the validation model's fields: a
    free-text string with no length limit of its own gets the default one."""
    hints = typing.get_type_hints(fn, include_extras=True)
    params: list[Param] = []
    fields: dict[str, Any] = {}
    for pname, p in list(inspect.signature(fn).parameters.items())[1:]:
        annotation = hints[pname]
        param = _param_from(pname, annotation, p.default, arg_docs.get(pname, ""))
        params.append(param)
        if (
            param.json_type == "string"
            and param.enum is None
            and "maxLength" not in _constraints_in(annotation)
        ):
            annotation = typing.Annotated[annotation, Field(max_length=_DEFAULT_MAX_LEN)]
        fields[pname] = (annotation, ... if param.required else p.default)
    return params, fields


def _check_bindings(tool: str, params: list[Param], preconditions: tuple[tuple[Any, str], ...]) -> None:
    """A Ref condition may name (``:customer``) only a required id parameter declared before it,
    which is picked first and has one value; a precondition names none (no call is drafted yet)."""
    for i, p in enumerate(params):
        for name in p.ref.binds if p.ref else ():
            q = next((q for q in params[:i] if q.name == name), None)
            if q is None or q.ref is None or q.ref.path or q.ref.many or not q.required:
                raise TypeError(
                    f"tool {tool}: the condition of {p.name!r} names :{name}, which is not a required "
                    "id parameter declared before it"
                )
    for table, cond in preconditions:
        if bound_names(cond):
            raise TypeError(f"tool {tool}: the precondition on {table} names parameters: {cond}")


def _needs(params: list[Param], declared: tuple[str, ...]) -> tuple[str, ...]:
    """A path argument resolves against the session's working directory, so a tool that takes one
    needs the session row: that is the dependency between ``cd`` and every later relative path."""
    if any(p.ref and p.ref.path for p in params) and SESSION_TABLE not in declared:
        return (*declared, SESSION_TABLE)
    return declared


def _constraints_in(annotation: Any) -> dict[str, Any]:
    _, metadata = _split_annotated(_unwrap_optional(annotation))
    out: dict[str, Any] = {}
    for fi in metadata:
        if isinstance(fi, FieldInfo):
            for meta in fi.metadata:
                if getattr(meta, "max_length", None) is not None:
                    out["maxLength"] = meta.max_length
    return out
