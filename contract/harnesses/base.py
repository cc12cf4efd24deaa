"""What every harness shares: the parsed call, the Harness protocol, and how model text and
arguments are read (never raising: what the model wrote is kept, with a one-sentence error)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

Message = dict[str, Any]


@dataclass(frozen=True, slots=True)
class ParsedCall:
    """One call read from a model's message; ``error`` says why it could not be read (None if fine)."""

    id: str  # the model's call id (openai), else f"call_{step}_{i}"
    name: str  # "" when the call could not be read
    arguments: dict[str, Any] | None  # None when not a JSON object
    raw_arguments: str  # what the model wrote for the arguments (JSON text, or the raw broken text)
    error: str | None  # why it could not be read, in one sentence for the model (None when fine)

    def tool_call(self) -> Message:
        """The canonical OpenAI tool call, so a rollout records what the model wrote in any protocol."""
        return {
            "id": self.id,
            "type": "function",
            "function": {"name": self.name, "arguments": self.raw_arguments},
        }


@dataclass(frozen=True, slots=True)
class Parsed:
    """A model's message read back: its prose without the protocol's markup, and its calls."""

    text: str | None  # the assistant's prose with the protocol's markup removed (None if empty)
    calls: list[ParsedCall]

    def message(self) -> Message:
        """The canonical assistant message, to append to the history every harness renders from."""
        out: Message = {"role": "assistant", "content": self.text}
        if self.calls:
            out["tool_calls"] = [c.tool_call() for c in self.calls]
        return out


class Harness(Protocol):
    name: str

    def request(self, system: str, tools: list[dict[str, Any]], history: list[Message]) -> dict[str, Any]:
        """The chat-completions body pieces: ``messages`` (system first), plus ``tools`` if the
        protocol passes them as a parameter."""
        ...

    def parse(self, message: Message, step: int) -> Parsed:
        """An assistant message (``content``, maybe ``tool_calls``) back into prose and calls."""
        ...


# -- shared reading ---------------------------------------------------------------------------------
def compact_json(value: Any) -> str:
    """Compact JSON, as the export writes arguments (so parsed arguments re-render byte-equal)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


_DECODER = json.JSONDecoder(parse_constant=_reject_constant)


def loads_strict(text: str) -> tuple[Any, str | None]:
    """The JSON value of the whole text, or (None, why): NaN/Infinity and trailing text are refused,
    as the reward's parser refuses them, so both sides agree on what is a readable call."""
    text = text.strip()
    try:
        value, end = _DECODER.raw_decode(text)
    except json.JSONDecodeError as exc:
        return None, f"{exc.msg} at character {exc.pos}"
    except ValueError as exc:  # NaN or Infinity
        return None, str(exc)
    except RecursionError:  # a model can nest brackets deeper than Python recurses
        return None, "nested too deeply"
    if end != len(text):
        return None, f"unexpected text after the JSON at character {end}"
    return value, None


def _kind(value: Any) -> str:
    return {list: "a list", str: "a string", bool: "a boolean", int: "a number", float: "a number"}.get(
        type(value), "null" if value is None else type(value).__name__
    )


def read_arguments(raw: Any, name: str) -> tuple[dict[str, Any] | None, str, str | None]:
    """(arguments, their text, error) from what a model gave: an object, a JSON string, or nothing.

    No arguments at all is ``{}`` (a tool without parameters); a string that is not a JSON object
    keeps its text so the model can be shown what it wrote."""
    what = f"the arguments of {name}" if name else "the arguments"
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return {}, "{}", None
    if isinstance(raw, dict):
        return raw, compact_json(raw), None
    if not isinstance(raw, str):
        return None, compact_json(raw), f"{what} must be a JSON object, not {_kind(raw)}."
    value, why = loads_strict(raw)
    if why is not None:
        return None, raw, f"{what} are not valid JSON ({why}); write them as one JSON object."
    if not isinstance(value, dict):
        return None, raw, f"{what} must be a JSON object, not {_kind(value)}."
    return value, raw, None


def text_of(content: Any) -> str:
    """OpenAI content: a string, or a list of parts whose text parts are joined (the reward reads
    message content through this too)."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(p["text"] for p in content if isinstance(p, dict) and isinstance(p.get("text"), str))
    return str(content)


def prose(text: str) -> str | None:
    text = text.strip()
    return text or None


_THINK = re.compile(r"<think>.*?(?:</think>|\Z)", re.S)


def drop_thinking(text: str) -> str:
    """Reasoning is not the reply: a ``<think>`` block (or everything before a lone ``</think>``, when
    the template opened the block in the prompt) is removed, as the reward's parser removes it, so a
    call a model only considered is never run."""
    text = _THINK.sub("", text)
    _, closed, after = text.rpartition("</think>")
    return after if closed else text


def arguments_text(fn: Message) -> str:
    """A canonical call's arguments as text: the JSON string (or broken text) as written, ``{}`` if none."""
    raw = fn.get("arguments")
    if raw is None:
        return "{}"
    text = raw if isinstance(raw, str) else compact_json(raw)
    return text if text.strip() else "{}"


def function_of(tc: Any) -> Message:
    fn = tc.get("function") if isinstance(tc, dict) else None
    return fn if isinstance(fn, dict) else {}


class SystemCache:
    """The rendered system message per tool list: rendering a task's schemas costs about a
    millisecond and an episode sends the same list at every step. Keyed by the list's identity
    (checked, so a reused id never hits), so tool lists are treated as immutable once rendered."""

    def __init__(self, render: Callable[[str, list[dict[str, Any]]], str], size: int = 512) -> None:
        self.render = render
        self.size = size
        self.entries: dict[int, tuple[list[dict[str, Any]], str, str]] = {}

    def __call__(self, system: str, tools: list[dict[str, Any]]) -> str:
        hit = self.entries.get(id(tools))
        if hit is not None and hit[0] is tools and hit[1] == system:
            return hit[2]
        text = self.render(system, tools)
        if len(self.entries) >= self.size:
            self.entries.pop(next(iter(self.entries)), None)
        self.entries[id(tools)] = (tools, system, text)
        return text
