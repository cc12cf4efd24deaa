"""Harnesses: one conversation rendered for several tool-calling protocols, and model output read back.

A model trained to call tools one way loses accuracy when it is asked another way, so evaluation
and export render the same task for each protocol a model may have learnt:

* ``openai`` — the chat-completions ``tools`` parameter and structured ``tool_calls``;
* ``hermes`` — Qwen2.5/Hermes style: the tools inside ``<tools></tools>`` in the system message,
  calls as ``<tool_call>`` blocks in the assistant text, results as ``<tool_response>`` blocks in
  one user message;
* ``react`` — plain text: ``Thought:``, ``Action:`` + ``Action Input:`` (one per message), results
  as ``Observation:`` user messages, and ``Final Answer:``.

Every harness reads the *canonical* history, OpenAI chat messages without the system message (what
a rollout records and the reward reads), so one recorded episode can be shown in any protocol.
``parse`` is the inverse of rendering an assistant turn: render the calls, parse the text, and the
same names and arguments come back. Parsing never raises: what the model wrote is kept, and a call
that cannot be read carries a one-sentence error a rollout can return as the tool result.

One module of ~580 lines on purpose: each protocol's rendering and its parser are inverses and are
checked against each other, so they are read side by side; a split by protocol is the next step.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol

from contract.messages import messages
from contract.task import Task

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
def _dumps(value: Any) -> str:
    """Compact JSON, as the export writes arguments (so parsed arguments re-render byte-equal)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


_DECODER = json.JSONDecoder(parse_constant=_reject_constant)


def _loads(text: str) -> tuple[Any, str | None]:
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


def _read_arguments(raw: Any, name: str) -> tuple[dict[str, Any] | None, str, str | None]:
    """(arguments, their text, error) from what a model gave: an object, a JSON string, or nothing.

    No arguments at all is ``{}`` (a tool without parameters); a string that is not a JSON object
    keeps its text so the model can be shown what it wrote."""
    what = f"the arguments of {name}" if name else "the arguments"
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return {}, "{}", None
    if isinstance(raw, dict):
        return raw, _dumps(raw), None
    if not isinstance(raw, str):
        return None, _dumps(raw), f"{what} must be a JSON object, not {_kind(raw)}."
    value, why = _loads(raw)
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


def _prose(text: str) -> str | None:
    text = text.strip()
    return text or None


_THINK = re.compile(r"<think>.*?(?:</think>|\Z)", re.S)


def _drop_thinking(text: str) -> str:
    """Reasoning is not the reply: a ``<think>`` block (or everything before a lone ``</think>``, when
    the template opened the block in the prompt) is removed, as the reward's parser removes it, so a
    call a model only considered is never run."""
    text = _THINK.sub("", text)
    _, closed, after = text.rpartition("</think>")
    return after if closed else text


def _arguments_text(fn: Message) -> str:
    """A canonical call's arguments as text: the JSON string (or broken text) as written, ``{}`` if none."""
    raw = fn.get("arguments")
    if raw is None:
        return "{}"
    text = raw if isinstance(raw, str) else _dumps(raw)
    return text if text.strip() else "{}"


def _function(tc: Any) -> Message:
    fn = tc.get("function") if isinstance(tc, dict) else None
    return fn if isinstance(fn, dict) else {}


# -- openai -----------------------------------------------------------------------------------------
class OpenAIHarness:
    """The chat-completions protocol itself: the canonical history is already its wire form."""

    name = "openai"

    def request(self, system: str, tools: list[dict[str, Any]], history: list[Message]) -> dict[str, Any]:
        """System first, history as is; ``tools`` is left out when empty (the API refuses ``[]``)."""
        body: dict[str, Any] = {"messages": [{"role": "system", "content": system}, *map(dict, history)]}
        if tools:
            body["tools"] = list(tools)
        return body

    def parse(self, message: Message, step: int) -> Parsed:
        text = _prose(text_of(message.get("content")))
        tcs = message.get("tool_calls")
        if not tcs:
            return Parsed(text, [])
        if not isinstance(tcs, list):
            error = "tool_calls must be a list of calls."
            return Parsed(text, [ParsedCall(f"call_{step}_0", "", None, _safe_dumps(tcs), error)])
        return Parsed(text, [_openai_call(tc, step, i) for i, tc in enumerate(tcs)])


def _safe_dumps(value: Any) -> str:
    try:
        return _dumps(value)
    except (TypeError, ValueError):
        return str(value)


def _openai_call(tc: Any, step: int, i: int) -> ParsedCall:
    """One structured call; a call id the model gave is kept so results can be matched to it."""
    cid = tc.get("id") if isinstance(tc, dict) else None
    cid = cid if isinstance(cid, str) and cid else f"call_{step}_{i}"
    fn = _function(tc) or (tc if isinstance(tc, dict) else {})
    name = fn.get("name")
    if not isinstance(name, str) or not name:
        raw = _safe_dumps(fn.get("arguments", tc))
        return ParsedCall(cid, "", None, raw, "the call has no function name saying which tool to call.")
    args, raw, error = _read_arguments(fn.get("arguments"), name)
    return ParsedCall(cid, name, args, raw, error)


# -- hermes -----------------------------------------------------------------------------------------
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


class _SystemCache:
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
        content = _drop_thinking(text_of(message.get("content")))
        blocks = list(_CALL_BLOCK.finditer(content))
        if not blocks and message.get("tool_calls"):  # a server that parsed the blocks itself
            return OpenAIHarness().parse(message, step)
        prose = [content[a:b] for a, b in _gaps(blocks, len(content))]
        text = _prose("\n".join(t for p in prose if (t := p.replace("</tool_call>", "").strip())))
        read = [c for b in blocks for c in _hermes_block(b.group(1), closed=bool(b.group(2)))]
        calls = [ParsedCall(f"call_{step}_{i}", *c) for i, c in enumerate(read)]
        return Parsed(text, calls)


def _hermes_system(system: str, tools: list[dict[str, Any]]) -> str:
    """The system message with the tool list appended (full OpenAI schemas, one per line)."""
    if not tools:
        return system
    lines = "\n".join(json.dumps(t, ensure_ascii=False) for t in tools)
    return f"{system}\n\n{HERMES_TOOLS.format(tools=lines)}"


_HERMES_SYSTEM = _SystemCache(_hermes_system)


def _hermes_assistant(m: Message) -> Message:
    """Prose first, then one ``<tool_call>`` block per call."""
    parts = [c] if (c := text_of(m.get("content")).strip()) else []
    parts += [f"<tool_call>\n{_hermes_body(_function(tc))}\n</tool_call>" for tc in m.get("tool_calls") or []]
    return {"role": "assistant", "content": "\n".join(parts)}


def _hermes_body(fn: Message) -> str:
    """The block's JSON, the arguments spliced in as written; a call recorded without a name was an
    unreadable block, whose raw text is shown back as it was."""
    name, args = fn.get("name"), _arguments_text(fn)
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
    value, why = _loads(raw)
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
    return (name, *_read_arguments(args, name))


# -- react ------------------------------------------------------------------------------------------
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
        content = _drop_thinking(text_of(message.get("content")))
        parts = _react_parts(content)
        first = next(
            (label for label, _ in parts if label in ("action", "action input", "final answer")), None
        )
        if first is None:
            return Parsed(_prose(content), [])
        if first == "final answer":
            start = next(m.end() for m in _MARKER.finditer(content) if m.group(1).lower() == "final answer")
            return Parsed(_prose(content[start:]), [])
        thought = _prose("\n".join(body for label, body in parts if label in ("", "thought") and body))
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


_REACT_SYSTEM = _SystemCache(_react_system)


def _react_step(m: Message, results: list[Message]) -> list[Message]:
    """One canonical assistant message with calls -> Action/Observation pairs, one call each; the
    message's prose is the first Thought. Results pair with calls by id, then in order."""
    calls = list(m.get("tool_calls") or [])
    paired = _pair(calls, results)
    out: list[Message] = []
    thought = text_of(m.get("content")).strip()
    for k, (tc, result) in enumerate(zip(calls, paired, strict=True)):
        fn = _function(tc)
        lines = [f"Thought: {thought}"] if thought and k == 0 else []
        lines += [f"Action: {fn.get('name') or ''}", f"Action Input: {_arguments_text(fn)}"]
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
    args, raw, error = _read_arguments(fence.group(1) if fence else given, name)
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


# -- registry and export ----------------------------------------------------------------------------
HARNESSES: dict[str, Harness] = {h.name: h for h in (OpenAIHarness(), HermesHarness(), ReActHarness())}


def get_harness(name: str) -> Harness:
    """The harness of that name; a ValueError names the unknown one and the allowed ones."""
    try:
        return HARNESSES[name]
    except KeyError:
        raise ValueError(f"unknown harness {name!r}; choose from {', '.join(HARNESSES)}") from None


def render_task(task: Task, harness: Harness) -> list[Message]:
    """The task's whole reference conversation in the harness's wire form, system message included."""
    return harness.request(*_canonical(task))["messages"]


def _canonical(task: Task) -> tuple[str, list[dict[str, Any]], list[Message]]:
    conversation = messages(task)
    return str(conversation[0]["content"]), task.tools, conversation[1:]


def text_prompt(task: Task) -> list[dict[str, str]]:
    """What a rollout starts from (:func:`contract.messages.prompt`) as role/content messages only
    (verl's parquet rows): earlier turns' calls and results are written the way a Hermes/Qwen chat
    template shows them, ``<tool_call>`` blocks in the assistant's text and ``<tool_response>``
    blocks in a user message."""
    earlier = HARNESSES["hermes"].request("", [], task.history)["messages"][1:]
    return [
        {"role": "system", "content": task.system_prompt},
        *({"role": m["role"], "content": str(m.get("content") or "")} for m in earlier),
        {"role": "user", "content": task.turns[0].user},
    ]


def sft_row(task: Task, harness: Harness) -> dict[str, Any]:
    """One training row: ``id`` and ``messages``, plus ``tools`` for a harness that sends them as a
    parameter (openai), since a row without them would not show the model its tools."""
    return {"id": task.id, **harness.request(*_canonical(task))}


def sft_lines(tasks: Iterable[Task], harness: Harness) -> Iterator[bytes]:
    """``sft-<harness>.jsonl`` lines, streamed (the file of a large run does not fit in memory twice)."""
    for t in tasks:
        yield (_dumps(sft_row(t, harness)) + "\n").encode()
