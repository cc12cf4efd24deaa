"""The ``openai`` harness: the chat-completions ``tools`` parameter and structured ``tool_calls``."""

from __future__ import annotations

from typing import Any

from contract.harnesses.base import (
    Message,
    Parsed,
    ParsedCall,
    compact_json,
    function_of,
    prose,
    read_arguments,
    text_of,
)


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
        text = prose(text_of(message.get("content")))
        tcs = message.get("tool_calls")
        if not tcs:
            return Parsed(text, [])
        if not isinstance(tcs, list):
            error = "tool_calls must be a list of calls."
            return Parsed(text, [ParsedCall(f"call_{step}_0", "", None, _safe_dumps(tcs), error)])
        return Parsed(text, [_openai_call(tc, step, i) for i, tc in enumerate(tcs)])


def _safe_dumps(value: Any) -> str:
    try:
        return compact_json(value)
    except (TypeError, ValueError):
        return str(value)


def _openai_call(tc: Any, step: int, i: int) -> ParsedCall:
    """One structured call; a call id the model gave is kept so results can be matched to it."""
    cid = tc.get("id") if isinstance(tc, dict) else None
    cid = cid if isinstance(cid, str) and cid else f"call_{step}_{i}"
    fn = function_of(tc) or (tc if isinstance(tc, dict) else {})
    name = fn.get("name")
    if not isinstance(name, str) or not name:
        raw = _safe_dumps(fn.get("arguments", tc))
        return ParsedCall(cid, "", None, raw, "the call has no function name saying which tool to call.")
    args, raw, error = read_arguments(fn.get("arguments"), name)
    return ParsedCall(cid, name, args, raw, error)
