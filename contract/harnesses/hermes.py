"""The ``hermes`` harness (Qwen2.5/Hermes): tools inside ``<tools></tools>`` in the system message,
calls as ``<tool_call>`` blocks in the assistant text, results as ``<tool_response>`` blocks."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from contract.harnesses.base import (
    Message,
    Parsed,
    ParsedCall,
    SystemCache,
    arguments_text,
    drop_thinking,
    function_of,
    loads_strict,
    prose,
    read_arguments,
    text_of,
)
from contract.harnesses.openai import OpenAIHarness

_CALL_BLOCK = re.compile(r"<tool_call>(.*?)(</tool_call>|\Z)", re.S)

HERMES_TOOLS = """# Tools

You can call functions to act for the user. Their signatures are inside <tools></tools>, one JSON \
object per line:
<tools>
{tools}
</tools>

To call a function, write one block per call, with the arguments as a JSON object:
<tool_call>
{{"name": "<function name>", "arguments": {{<arguments>}}}}
</tool_call>
You may write several blocks in one message. Each result comes back inside \
<tool_response></tool_response>. When you need no more calls, reply to the user in plain text."""


class HermesHarness:
    """Tools and calls live in the text (Qwen2.5 / Hermes style); no ``tools`` parameter is sent."""

    name = "hermes"

    def request(self, system: str, tools: list[dict[str, Any]], history: list[Message]) -> dict[str, Any]:
        messages = [{"role": "system", "content": _HERMES_SYSTEM(system, tools)}]
        pending: list[str] = []  # consecutive tool results go out as one user message
        for m in history:
            if m.get("role") == "tool":
                pending.append(f"<tool_response>\n{text_of(m.get('content'))}\n</tool_response>")
                continue
            if pending:
                messages.append({"role": "user", "content": "\n".join(pending)})
                pending = []
            messages.append(_hermes_assistant(m) if m.get("role") == "assistant" else dict(m))
        if pending:
            messages.append({"role": "user", "content": "\n".join(pending)})
        return {"messages": messages}

    def parse(self, message: Message, step: int) -> Parsed:
        content = drop_thinking(text_of(message.get("content")))
        blocks = list(_CALL_BLOCK.finditer(content))
        if not blocks and message.get("tool_calls"):  # a server that parsed the blocks itself
            return OpenAIHarness().parse(message, step)
        between = [content[a:b] for a, b in _gaps(blocks, len(content))]
        text = prose("\n".join(t for p in between if (t := p.replace("</tool_call>", "").strip())))
        read = [c for b in blocks for c in _hermes_block(b.group(1), closed=bool(b.group(2)))]
        calls = [ParsedCall(f"call_{step}_{i}", *c) for i, c in enumerate(read)]
        return Parsed(text, calls)


def _hermes_system(system: str, tools: list[dict[str, Any]]) -> str:
    """The system message with the tool list appended (full OpenAI schemas, one per line)."""
    if not tools:
        return system
    lines = "\n".join(json.dumps(t, ensure_ascii=False) for t in tools)
    return f"{system}\n\n{HERMES_TOOLS.format(tools=lines)}"


_HERMES_SYSTEM = SystemCache(_hermes_system)


def _hermes_assistant(m: Message) -> Message:
    """Prose first, then one ``<tool_call>`` block per call."""
    parts = [c] if (c := text_of(m.get("content")).strip()) else []
    parts += [
        f"<tool_call>\n{_hermes_body(function_of(tc))}\n</tool_call>" for tc in m.get("tool_calls") or []
    ]
    return {"role": "assistant", "content": "\n".join(parts)}


def _hermes_body(fn: Message) -> str:
    """The block's JSON, the arguments spliced in as written; a call recorded without a name was an
    unreadable block, whose raw text is shown back as it was."""
    name, args = fn.get("name"), arguments_text(fn)
    if not isinstance(name, str) or not name:
        return args
    return f'{{"name": {json.dumps(name, ensure_ascii=False)}, "arguments": {args}}}'


def _gaps(blocks: list[re.Match[str]], end: int) -> Iterator[tuple[int, int]]:
    start = 0
    for b in blocks:
        yield start, b.start()
        start = b.end()
    yield start, end


CallFields = tuple[str, dict[str, Any] | None, str, str | None]


def _hermes_block(body: str, closed: bool) -> list[CallFields]:
    """A block's calls (a JSON object, or a list of them as some models write); anything else is one
    unreadable call that keeps the block's text."""
    raw = body.strip()
    if not raw:
        return [("", None, raw, "the <tool_call> block is empty.")]
    value, why = loads_strict(raw)
    if why is not None:
        unclosed = "is not closed with </tool_call> and " if not closed else ""
        return [("", None, raw, f"the <tool_call> block {unclosed}is not valid JSON ({why}).")]
    items = value if isinstance(value, list) and value else [value]
    return [_hermes_item(item, raw) for item in items]


def _hermes_item(item: Any, raw: str) -> CallFields:
    fn = item.get("function", item) if isinstance(item, dict) else None
    name = fn.get("name") if isinstance(fn, dict) else None
    if not isinstance(fn, dict) or not isinstance(name, str) or not name:
        error = 'the <tool_call> block needs {"name": "<tool>", "arguments": {...}} with a string name.'
        return ("", None, raw, error)
    args = fn.get("arguments", fn.get("parameters"))
    return (name, *read_arguments(args, name))
