"""Trajectories in, a flat list of predicted calls out (plus tool outcomes and the final answer).

Accepted shapes, all of them everywhere:

* OpenAI chat messages: assistant ``tool_calls`` (arguments as a JSON string or an object),
  ``tool`` results matched by ``tool_call_id`` (else in order); assistant text that embeds
  ``<tool_call>{...}</tool_call>`` blocks (Qwen/Hermes) when no ``tool_calls`` are given;
  ``<tool_response>`` blocks inside user messages;
* a plain list of ``{"name", "arguments"}`` calls (or ``{"function": {...}}`` items);
* ``{"calls": [...], "answer": "..."}`` or ``{"messages": [...]}``;
* raw model text (verl's ``solution_str``): ``<tool_call>`` blocks, ``[TOOL_CALLS]`` lists, or a JSON
  object/list in OpenAI or ``{name, arguments}`` form.

What the model produced is scored, never rejected: a call whose arguments do not decode to an
object is kept with ``args=None`` (it fails validity level 2), and a ``<tool_call>`` block that is
not JSON becomes a call with an empty name (validity 0, counted in the budget). Only a caller's
structural mistakes (a message that is not an object, structured ``arguments`` that are neither
an object nor a string, a call without a string name) raise :class:`TrajectoryError`.

Steps: calls of one assistant message share a step; each plain-list call is its own step. Eq. 1
compares output positions by default; ``order_by="step"`` compares steps instead.
"""

from __future__ import annotations

import ast
import json
import re
from typing import Any

from contract.harnesses import text_of
from rewards.errors import TrajectoryError


class PredCall:
    """One predicted call: name, arguments (None if not an object), step and execution outcome."""

    __slots__ = ("args", "exec_ok", "name", "step", "turn")

    def __init__(
        self, name: str, args: dict[str, Any] | None, step: int, exec_ok: bool | None = None, turn: int = 0
    ) -> None:
        self.name = name
        self.args = args
        self.step = step
        self.exec_ok = exec_ok
        self.turn = turn  # the user turn it answers (0-based; 0 when the trajectory has no user messages)

    def __repr__(self) -> str:
        return f"PredCall({self.name!r}, {self.args!r}, step={self.step}, exec_ok={self.exec_ok})"


class Trajectory:
    """The parsed trajectory: calls in emission order, the final answer text, and result evidence."""

    __slots__ = ("answer", "calls")

    def __init__(self, calls: list[PredCall], answer: str | None = None) -> None:
        self.calls = calls
        self.answer = answer


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


_DECODER = json.JSONDecoder(parse_constant=_reject_constant)
_scan = _DECODER.scan_once


def _decode(text: str) -> Any:
    """``json.loads`` without its Python-level wrapper (this runs for every argument string)."""
    text = text.strip()
    try:
        value, end = _scan(text, 0)
    except StopIteration as exc:
        raise ValueError(f"not JSON at {exc.value}") from None
    except RecursionError:  # a model can nest brackets as deep as it likes
        raise ValueError("JSON nested too deeply") from None
    if end != len(text):
        raise ValueError(f"extra data at {end}")
    return value


def decode_args(raw: Any, loc: list[Any]) -> dict[str, Any] | None:
    """Structured arguments: an object, or a JSON string the model wrote (None if it is not an object)."""
    if isinstance(raw, dict):
        return raw
    if raw is None:
        return {}
    if isinstance(raw, str):
        if not raw.strip():
            return {}
        try:
            value = _decode(raw)
        except ValueError:
            return None
        return value if isinstance(value, dict) else None
    raise TrajectoryError(
        f"{_where(loc)}: arguments must be an object or a JSON string, got {type(raw).__name__}",
        [{"loc": loc, "msg": "arguments must be an object or a JSON-encoded object"}],
    )


def _where(loc: list[Any]) -> str:
    return "trajectory" + "".join(f"[{x!r}]" for x in loc[1:])


def _structured_call(item: Any, step: int, loc: tuple[Any, ...]) -> PredCall:
    """A caller-structured call (``loc`` is only expanded into a path when something is wrong)."""
    if type(item) is not dict and not isinstance(item, dict):
        raise TrajectoryError(
            f"{_where(list(loc))}: a call must be an object, got {type(item).__name__}",
            [{"loc": list(loc), "msg": "expected an object"}],
        )
    fn = item.get("function")
    if fn is not None and isinstance(fn, dict):
        item, loc = fn, (*loc, "function")
    name = item.get("name")
    if type(name) is not str:
        raise TrajectoryError(
            f"{_where(list(loc))}: a call needs a string 'name'",
            [{"loc": [*loc, "name"], "msg": "expected a string"}],
        )
    raw = item.get("arguments")
    if raw is None:
        raw = item.get("parameters")
    if type(raw) is dict:
        return PredCall(name, raw, step)
    return PredCall(name, decode_args(raw, [*loc, "arguments"]), step)


# -- chat messages ------------------------------------------------------------------


_ERROR_PREFIXES = ("error", "tool error", "exception", "traceback")


def result_failed(content: Any, message: dict[str, Any] | None = None) -> bool:
    """Did a tool result report failure?

    Yes when the message carries ``is_error``/``isError`` true or ``ok`` false, when its content is
    a JSON object with ``isError`` true, ``ok`` false or a non-null ``error`` and no ``value``/
    ``result``, or when the text starts with "Error"/"Exception"/"Traceback".
    """
    if (
        message is not None
        and ("is_error" in message or "isError" in message or "ok" in message)
        and (message.get("is_error") is True or message.get("isError") is True or message.get("ok") is False)
    ):
        return True
    text = content.lstrip() if type(content) is str else text_of(content).lstrip()
    if text[:1] == "{":
        if not (
            (("'ok'" in text or '"ok"' in text) and ("false" in text or "False" in text))
            or (("isError" in text or "is_error" in text) and ("true" in text or "True" in text))
            or '"error"' in text
            or "'error'" in text
        ):
            return False  # no failure marker can be in there: skip decoding (results can be large)
        try:
            obj = _decode(text)
        except ValueError:
            obj = _python_literal(text)
        if isinstance(obj, dict):
            if obj.get("isError") is True or obj.get("is_error") is True or obj.get("ok") is False:
                return True
            return obj.get("error") not in (None, "", False) and "value" not in obj and "result" not in obj
    return text[:16].lower().startswith(_ERROR_PREFIXES)


def _python_literal(text: str) -> Any:
    """A dict written the way Python prints one: TRL puts ``str({"error": ...})`` in the tool
    message when a tool raises, so a JSON-only reading would count that failure as a success."""
    if len(text) > 100_000:
        return None
    try:
        return ast.literal_eval(text)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None


def _assign(calls: list[PredCall], by_id: dict[str, PredCall], ref: Any, failed: bool) -> None:
    """Give a tool result to the call it answers: by id when known, else the first call without one."""
    call = by_id.pop(ref, None) if type(ref) is str else None
    if call is None:
        call = next((c for c in calls if c.exec_ok is None), None)
    if call is not None:
        call.exec_ok = not failed


def parse_messages(messages: list[Any], loc: list[Any]) -> Trajectory:
    """OpenAI chat messages -> calls (one step per assistant message), outcomes and the final answer."""
    calls: list[PredCall] = []
    by_id: dict[str, PredCall] = {}
    answer: str | None = None
    step = 0
    users = 0  # user messages so far: a call made after the k-th answers turn k-1
    for i, m in enumerate(messages):
        if type(m) is not dict:
            raise TrajectoryError(
                f"{_where([*loc, i])}: a message must be an object, got {type(m).__name__}",
                [{"loc": [*loc, i], "msg": "expected an object"}],
            )
        role = m.get("role")
        if role == "assistant":
            tcs = m.get("tool_calls")
            start = len(calls)
            if tcs:
                step = _assistant_calls(tcs, step + 1, calls, by_id, (*loc, i))
                answer = None
            else:
                text = text_of(m.get("content"))
                if "<tool_call>" in text or "[TOOL_CALLS]" in text:
                    sub = parse_text(text, first_step=step + 1)
                    step = max([step + 1, *(c.step for c in sub.calls)])
                    calls.extend(sub.calls)
                    answer = sub.answer
                else:
                    answer = text.strip() or None
            for c in calls[start:]:
                c.turn = max(0, users - 1)
        elif role == "tool" or role == "function":
            _assign(calls, by_id, m.get("tool_call_id"), result_failed(m.get("content"), m))
        elif role == "user":
            text = text_of(m.get("content"))
            if "<tool_response>" in text:  # tool results sent as a user message: no new turn
                for body in _RESPONSE.findall(text):
                    _assign(calls, by_id, None, result_failed(body))
            else:
                users += 1
        elif type(role) is not str:
            raise TrajectoryError(
                f"{_where([*loc, i])}: a message needs a string 'role'",
                [{"loc": [*loc, i, "role"], "msg": "expected a string"}],
            )
    return Trajectory(calls, answer)


def _assistant_calls(
    tcs: Any, step: int, calls: list[PredCall], by_id: dict[str, PredCall], loc: tuple[Any, ...]
) -> int:
    """The structured ``tool_calls`` of one assistant message, all in one step."""
    if type(tcs) is not list:
        raise TrajectoryError(
            f"{_where(list(loc))}: tool_calls must be a list",
            [{"loc": [*loc, "tool_calls"], "msg": "expected a list"}],
        )
    for k, tc in enumerate(tcs):
        call = _structured_call(tc, step, (*loc, "tool_calls", k))
        calls.append(call)
        tid = tc.get("id")
        if type(tid) is str:
            by_id[tid] = call
    return step


# -- raw text -------------------------------------------------------------------------

_BLOCK = re.compile(r"<tool_call>(.*?)(?:</tool_call>|\Z)|<tool_response>(.*?)(?:</tool_response>|\Z)", re.S)
_RESPONSE = re.compile(r"<tool_response>(.*?)(?:</tool_response>|\Z)", re.S)
_THINK = re.compile(r"<think>.*?(?:</think>|\Z)", re.S)
_SPECIAL = re.compile(r"<\|[^|>]{1,40}\|>(?:assistant|user|system|tool)?|</s>|<s>")
_FENCE = re.compile(r"^```(?:json)?\s*(.*?)\s*```$", re.S)


def _calls_from_json(value: Any, step: int) -> list[PredCall]:
    """Model-written JSON for one block: an object or a list of them; junk becomes an invalid call."""
    items = value if isinstance(value, list) else [value]
    out = []
    for item in items:
        fn = item.get("function", item) if isinstance(item, dict) else None
        name = fn.get("name") if isinstance(fn, dict) else None
        if not isinstance(name, str):
            out.append(PredCall("", None, step))
            continue
        out.append(PredCall(name, _model_args(fn.get("arguments", fn.get("parameters"))), step))
    return out


def _model_args(raw: Any) -> dict[str, Any] | None:
    """Arguments the model wrote in text: anything but an object (or a JSON-encoded one) is None."""
    if raw is None:
        return {}
    if isinstance(raw, str):
        try:
            raw = _decode(raw) if raw.strip() else {}
        except ValueError:
            return None
    return raw if isinstance(raw, dict) else None


def _clean(text: str) -> str | None:
    text = _SPECIAL.sub("", text).strip()
    return text or None


def parse_text(text: str, first_step: int = 1) -> Trajectory:
    """Tool calls embedded in model text; the text after the last block is the answer."""
    text = _THINK.sub("", text)
    if "<tool_call>" in text:
        return _parse_tagged(text, first_step)
    if "[TOOL_CALLS]" in text:
        head, _, tail = text.partition("[TOOL_CALLS]")
        try:
            value, end = json.JSONDecoder(parse_constant=_reject_constant).raw_decode(tail.lstrip())
        except ValueError:
            return Trajectory([PredCall("", None, first_step)], _clean(head))
        rest = tail.lstrip()[end:]
        return Trajectory(_calls_from_json(value, first_step), _clean(rest))
    return _parse_json_text(text, first_step)


def _parse_tagged(text: str, first_step: int) -> Trajectory:
    calls: list[PredCall] = []
    step, seen_response, tail_start = first_step, False, 0
    for m in _BLOCK.finditer(text):
        call_body, response_body = m.group(1), m.group(2)
        if call_body is not None:
            if seen_response:
                step, seen_response = step + 1, False
            try:
                value = _decode(call_body.strip())
            except ValueError:
                value = None
            calls.extend(_calls_from_json(value, step))
        else:
            seen_response = True
            _assign(calls, {}, None, result_failed(response_body))
        tail_start = m.end()
    return Trajectory(calls, _clean(text[tail_start:]))


def _parse_json_text(text: str, step: int) -> Trajectory:
    body = text.strip()
    fence = _FENCE.match(body)
    if fence:
        body = fence.group(1)
    if body[:1] not in ("{", "["):
        return Trajectory([], _clean(text))
    try:
        value = _decode(body)
    except ValueError:
        return Trajectory([], _clean(text))
    if isinstance(value, dict) and "tool_calls" in value and isinstance(value["tool_calls"], list):
        calls = _calls_from_json(value["tool_calls"], step)
        return Trajectory(calls, _clean(text_of(value.get("content"))))
    items = value if isinstance(value, list) else [value]
    if items and all(isinstance(x, dict) and ("name" in x or "function" in x) for x in items):
        return Trajectory(_calls_from_json(items, step), None)
    return Trajectory([], _clean(text))


# -- entry point ------------------------------------------------------------------------


def parse_trajectory(obj: Any) -> Trajectory:
    """Any accepted trajectory shape -> :class:`Trajectory`; raises TrajectoryError on structure."""
    if isinstance(obj, Trajectory):
        return obj
    if isinstance(obj, str):
        return parse_text(obj)
    if isinstance(obj, dict):
        if isinstance(obj.get("messages"), list):
            return parse_messages(obj["messages"], ["trajectory", "messages"])
        if isinstance(obj.get("calls"), list):
            answer = obj.get("answer")
            traj = _parse_calls(obj["calls"], ["trajectory", "calls"])
            traj.answer = answer if isinstance(answer, str) else None
            return traj
        raise TrajectoryError(
            "a trajectory object needs 'messages' or 'calls' (a list)",
            [{"loc": ["trajectory"], "msg": "expected 'messages' or 'calls'"}],
        )
    if not isinstance(obj, list):
        raise TrajectoryError(
            f"a trajectory must be a list of messages or calls, an object or a string; got {type(obj).__name__}",
            [{"loc": ["trajectory"], "msg": "unsupported trajectory type"}],
        )
    if obj and isinstance(obj[0], dict) and "role" in obj[0]:
        return parse_messages(obj, ["trajectory"])
    return _parse_calls(obj, ["trajectory"])


def _parse_calls(items: list[Any], loc: list[Any]) -> Trajectory:
    calls = []
    for i, item in enumerate(items):
        call = _structured_call(item, i + 1, (*loc, i))
        if isinstance(item, dict):  # CallResult.as_dict() rows carry their outcome
            ok = item.get("ok")
            if isinstance(ok, bool):
                call.exec_ok = ok
            elif item.get("error") not in (None, ""):
                call.exec_ok = False
        calls.append(call)
    return Trajectory(calls, None)
