"""The ``react`` harness: plain text ``Thought:`` / ``Action:`` + ``Action Input:`` (one per message),
results as ``Observation:`` user messages, and ``Final Answer:``."""

from __future__ import annotations

import json
import re
from typing import Any

from contract.harnesses.base import (
    Message,
    Parsed,
    ParsedCall,
    SystemCache,
    arguments_text,
    drop_thinking,
    function_of,
    prose,
    read_arguments,
    text_of,
)

REACT_FORMAT = """Work in this format:

Thought: your reasoning about what to do next
Action: the name of one tool from the list
Action Input: the tool's arguments as one JSON object

Then stop: the tool's result comes back as "Observation: ..." in the next message. Write one \
Action per message. When you can reply to the user (with the answer, a question, or why it cannot \
be done), write:

Thought: your reasoning
Final Answer: your reply to the user"""

_MARKER = re.compile(
    r"^[ \t]*(thought|action input|action|final answer|observation)[ \t]*:[ \t]*", re.M | re.I
)
_FENCE = re.compile(r"^```(?:json)?\s*(.*?)\s*```$", re.S)


class ReActHarness:
    """A text protocol any instruction model can follow: one Action per message, results as
    Observations. Parallel calls of the canonical history go out one per assistant message, each
    followed by its own Observation, as a model under this protocol would have made them."""

    name = "react"

    def request(self, system: str, tools: list[dict[str, Any]], history: list[Message]) -> dict[str, Any]:
        messages = [{"role": "system", "content": _REACT_SYSTEM(system, tools)}]
        i = 0
        while i < len(history):
            m = history[i]
            role = m.get("role")
            if role == "assistant" and m.get("tool_calls"):
                j = i + 1
                while j < len(history) and history[j].get("role") == "tool":
                    j += 1
                messages.extend(_react_step(m, history[i + 1 : j]))
                i = j
                continue
            if role == "tool":  # a result with no call before it: still shown
                messages.append(_observation(m))
            elif role == "assistant":
                messages.append(
                    {"role": "assistant", "content": f"Final Answer: {text_of(m.get('content'))}"}
                )
            else:
                messages.append(dict(m))
            i += 1
        return {"messages": messages}

    def parse(self, message: Message, step: int) -> Parsed:
        content = drop_thinking(text_of(message.get("content")))
        parts = _react_parts(content)
        first = next(
            (label for label, _ in parts if label in ("action", "action input", "final answer")), None
        )
        if first is None:
            return Parsed(prose(content), [])
        if first == "final answer":
            start = next(m.end() for m in _MARKER.finditer(content) if m.group(1).lower() == "final answer")
            return Parsed(prose(content[start:]), [])
        thought = prose("\n".join(body for label, body in parts if label in ("", "thought") and body))
        return Parsed(thought, _react_calls(parts, step))


def _react_system(system: str, tools: list[dict[str, Any]]) -> str:
    """The system message, each tool as name, description and JSON parameters, then the format."""
    lines = []
    for t in tools:
        fn = t.get("function", t)
        params = json.dumps(fn.get("parameters", {"type": "object", "properties": {}}), ensure_ascii=False)
        lines.append(f"- {fn.get('name')}: {fn.get('description', '').strip()}\n  Parameters: {params}")
    listed = "\n".join(lines) if lines else "(none)"
    return f"{system}\n\nYou can use these tools:\n\n{listed}\n\n{REACT_FORMAT}"


_REACT_SYSTEM = SystemCache(_react_system)


def _react_step(m: Message, results: list[Message]) -> list[Message]:
    """One canonical assistant message with calls -> Action/Observation pairs, one call each; the
    message's prose is the first Thought. Results pair with calls by id, then in order."""
    calls = list(m.get("tool_calls") or [])
    paired = _pair(calls, results)
    out: list[Message] = []
    thought = text_of(m.get("content")).strip()
    for k, (tc, result) in enumerate(zip(calls, paired, strict=True)):
        fn = function_of(tc)
        lines = [f"Thought: {thought}"] if thought and k == 0 else []
        lines += [f"Action: {fn.get('name') or ''}", f"Action Input: {arguments_text(fn)}"]
        out.append({"role": "assistant", "content": "\n".join(lines)})
        if result is not None:
            out.append(_observation(result))
    out.extend(_observation(r) for r in results if not any(r is p for p in paired))
    return out


def _pair(calls: list[Any], results: list[Message]) -> list[Message | None]:
    free = list(results)
    paired: list[Message | None] = []
    for tc in calls:
        cid = tc.get("id") if isinstance(tc, dict) else None
        hit = next((r for r in free if cid is not None and r.get("tool_call_id") == cid), None)
        if hit is not None:
            free.remove(hit)
        paired.append(hit)
    known = {tc.get("id") for tc in calls if isinstance(tc, dict)}
    for k, hit in enumerate(paired):  # results whose id matches no call answer the rest in order
        if hit is None:
            spare = next((r for r in free if r.get("tool_call_id") not in known), None)
            if spare is not None:
                free.remove(spare)
                paired[k] = spare
    return paired


def _observation(m: Message) -> Message:
    return {"role": "user", "content": f"Observation: {text_of(m.get('content'))}"}


def _react_parts(content: str) -> list[tuple[str, str]]:
    """(marker, text) pairs in order, the text before any marker under ""; reading stops at an
    Observation: a model that goes on past its Action is inventing the tool's result."""
    found = list(_MARKER.finditer(content))
    parts = [("", content[: found[0].start()].strip() if found else content.strip())]
    for k, m in enumerate(found):
        label = m.group(1).lower()
        if label == "observation":
            break
        end = found[k + 1].start() if k + 1 < len(found) else len(content)
        parts.append((label, content[m.end() : end].strip()))
    return parts


def _react_calls(parts: list[tuple[str, str]], step: int) -> list[ParsedCall]:
    """The Action (with the Action Input that follows it) is the call; a further Action in the same
    message is kept with an error, so the model learns it was not run rather than seeing it vanish."""
    calls: list[ParsedCall] = []
    k = 0
    while k < len(parts):
        label, body = parts[k]
        if label not in ("action", "action input"):
            k += 1
            continue
        name, given = "", body
        if label == "action":
            name = _action_name(body)
            nxt = parts[k + 1] if k + 1 < len(parts) else None
            given, k = (nxt[1], k + 1) if nxt is not None and nxt[0] == "action input" else ("", k)
        calls.append(_react_call(f"call_{step}_{len(calls)}", name, given, label, bool(calls)))
        k += 1
    return calls


def _react_call(cid: str, name: str, given: str, label: str, extra: bool) -> ParsedCall:
    fence = _FENCE.match(given)
    args, raw, error = read_arguments(fence.group(1) if fence else given, name)
    if label == "action input":
        error = "an Action Input must follow an Action line naming the tool."
        return ParsedCall(cid, "", None, raw, error)
    if not name:
        return ParsedCall(cid, "", None, raw, "the Action line names no tool.")
    if extra and error is None:
        error = "only one Action per message is run; send this one after the first one's Observation."
    return ParsedCall(cid, name, args, raw, error)


def _action_name(body: str) -> str:
    """The tool name on the Action line, without the quotes or backticks models put around it."""
    line = body.split("\n", 1)[0].strip()
    return line.strip("`'\"[]() ")
