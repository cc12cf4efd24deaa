"""Fixed policies that play known tasks: a perfect agent, a wasteful one, a broken one.

They answer chat-completions requests exactly as a served model would, in any harness's wire
format, so the eval loop, the harness parsers and the reward can be checked end to end (the
scores must order as the reward promises) and the loop's own overhead measured with a policy
that costs nothing. ``scripted_app`` serves them as an OpenAI-compatible endpoint on which the
model name picks the behaviour and harness (``gold@hermes``), with failure modes of a real server:
``error`` (always HTTP 500), ``flaky-<behaviour>`` (the first request of each conversation fails)
and ``stall`` (answers after the client has given up).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterable
from typing import Any

from contract.harnesses import get_harness
from contract.task import GoldCall, Task
from rollout.model import Completion
from servers.registry import get_domain

BEHAVIOURS = ("gold", "redundant", "wrong_args", "no_tools", "malformed", "junk")
REFUSAL = "I can't do that with the tools I have."


def _read_only_tools(task: Task) -> set[str]:
    """Qualified names of the read-only tools of every domain the task's world holds."""
    names = {s.domain for s in task.snapshots} | set(task.domains)
    return {spec.qualified_name for n in names for spec in get_domain(n).tools.values() if spec.read_only}


def _wrong(value: Any) -> Any:
    if isinstance(value, bool):
        return not value
    if isinstance(value, int | float):
        return value + 7
    if isinstance(value, str):
        return "WRONG-" + value
    return value


def _call(call: GoldCall, behaviour: str) -> dict[str, Any]:
    args = call.arguments
    if behaviour == "junk":  # the right tool, nonsense arguments: calls that cannot do the task
        return {"name": call.name, "arguments": {"junk": "?"}}
    if behaviour == "wrong_args":
        args = {k: _wrong(v) for k, v in args.items()}
    return {"name": call.name, "arguments": args}


def script(task: Task, behaviour: str) -> list[dict[str, Any]]:
    """The canonical assistant messages the policy sends, in order, one tool call per message."""
    if behaviour not in BEHAVIOURS:
        raise ValueError(f"unknown behaviour {behaviour!r}; behaviours: {', '.join(BEHAVIOURS)}")
    out: list[dict[str, Any]] = []
    read_only = _read_only_tools(task)
    for t, turn in enumerate(task.turns):
        calls = [] if behaviour == "no_tools" else [_call(c, behaviour) for c in turn.calls]
        if behaviour == "redundant":
            reads = [c for c in turn.calls if c.name in read_only]
            calls += [_call(reads[-1], "gold")] * ((len(turn.calls) + 1) // 2 + 1) if reads else []
        if behaviour == "malformed" and t == 0:
            name = turn.calls[0].name if turn.calls else "lookup"
            out.append(_message(t, -1, {"name": name, "arguments": '{"broken": '}))
        if behaviour == "junk" and not calls and task.tools:  # junk even where nothing is to be done
            calls = [{"name": task.tools[0]["function"]["name"], "arguments": {"junk": "?"}}]
        out.extend(_message(t, i, c) for i, c in enumerate(calls))
        answer = REFUSAL if behaviour == "no_tools" else (turn.answer or "Done.")
        out.append({"role": "assistant", "content": "Done." if behaviour == "junk" else answer})
    return out


def _message(turn: int, i: int, call: dict[str, Any]) -> dict[str, Any]:
    args = call["arguments"]
    return {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": f"call_s{turn}_{i + 1}",
                "type": "function",
                "function": {
                    "name": call["name"],
                    "arguments": args if isinstance(args, str) else json.dumps(args),
                },
            }
        ],
    }


def _opener(task: Task) -> str:
    """The first user message of the conversation the task is shown in."""
    first = next((m["content"] for m in task.history if m.get("role") == "user"), None)
    return first if isinstance(first, str) else task.turns[0].user


class ScriptedPolicy:
    """Answers for known tasks, recognised by their first user message."""

    def __init__(self, tasks: Iterable[Task], behaviour: str = "gold", harness: str = "openai") -> None:
        self.tasks = {(_opener(t), t.turns[0].user): t for t in tasks}
        self.behaviour = behaviour
        self.harness = get_harness(harness)
        self.model = f"scripted:{behaviour}"
        self._scripts: dict[str, tuple[int, list[dict[str, Any]]]] = {}

    def task_of(self, messages: list[dict[str, Any]]) -> Task | None:
        """The known task this conversation plays, if any."""
        users = [m.get("content") for m in messages if m.get("role") == "user"]
        # (the conversation's first message, the latest one that opens a known task): a turn-level
        # example's prompt holds the earlier turns too, and follow-ups ("Remove the new payee.")
        # recur across tasks while first messages do not
        first = users[0] if users else None
        return next((self.tasks[(first, u)] for u in reversed(users) if (first, u) in self.tasks), None)

    def reply(self, messages: list[dict[str, Any]]) -> dict[str, Any]:
        """The wire-format assistant message that comes next in this conversation."""
        task = self.task_of(messages)
        if task is None:
            return {"role": "assistant", "content": "I don't know this conversation."}
        if task.id not in self._scripts:
            shown = self.harness.request("", [], task.history)["messages"]  # earlier turns, as sent
            earlier = sum(1 for m in shown if m.get("role") == "assistant")
            self._scripts[task.id] = (earlier, [self._wire(m) for m in script(task, self.behaviour)])
        earlier, steps = self._scripts[task.id]
        done = sum(1 for m in messages if m.get("role") == "assistant") - earlier
        return steps[min(done, len(steps) - 1)]

    def _wire(self, canonical: dict[str, Any]) -> dict[str, Any]:
        """One scripted message as this harness's model would write it (rendered by the harness)."""
        if self.harness.name == "openai":
            return canonical
        return self.harness.request("", [], [canonical])["messages"][-1]

    async def complete(self, body: dict[str, Any]) -> Completion:
        return Completion(self.reply(body["messages"]), {"prompt_tokens": 0, "completion_tokens": 0})

    async def aclose(self) -> None:
        """Nothing to release (a served model's client closes its connections here)."""


def scripted_app(tasks: list[Task], *, stall_seconds: float = 5.0) -> Any:
    """An OpenAI-compatible endpoint playing :class:`ScriptedPolicy` (``model``: ``behaviour@harness``)."""
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    policies: dict[tuple[str, str], ScriptedPolicy] = {}
    seen: set[str] = set()

    async def completions(request: Request) -> JSONResponse:
        body = await request.json()
        behaviour, _, harness = str(body.get("model", "gold")).partition("@")
        if behaviour == "error":
            return JSONResponse({"error": {"message": "internal error"}}, status_code=500)
        if behaviour == "stall":
            await asyncio.sleep(stall_seconds)
            behaviour = "gold"
        if behaviour.startswith("flaky-"):
            behaviour = behaviour.removeprefix("flaky-")
            key = json.dumps(body["messages"], sort_keys=True)
            if key not in seen:
                seen.add(key)
                return JSONResponse({"error": {"message": "overloaded"}}, status_code=503)
        key = (behaviour, harness or "openai")
        if key not in policies:
            try:
                policies[key] = ScriptedPolicy(tasks, *key)
            except ValueError as exc:
                return JSONResponse({"error": {"message": str(exc)}}, status_code=400)
        message = policies[key].reply(body["messages"])
        usage = {"prompt_tokens": len(json.dumps(body["messages"])) // 4, "completion_tokens": 10}
        return JSONResponse(
            {
                "id": "cmpl",
                "object": "chat.completion",
                "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
                "usage": usage,
            }
        )

    return Starlette(routes=[Route("/v1/chat/completions", completions, methods=["POST"])])


def main(argv: list[str] | None = None) -> None:
    """``python -m rollout.scripted TASKS --port P``: serve the scripted policies on 127.0.0.1."""
    import argparse
    from pathlib import Path

    import uvicorn

    from rollout.run import load_tasks

    ap = argparse.ArgumentParser(prog="python -m rollout.scripted", description=main.__doc__)
    ap.add_argument("tasks", type=Path, help="dataset folder or .jsonl of tasks")
    ap.add_argument("--port", type=int, default=8011)
    args = ap.parse_args(argv)
    app = scripted_app(load_tasks(args.tasks))
    uvicorn.run(app, host="127.0.0.1", port=args.port, log_level="warning")


if __name__ == "__main__":
    main()
