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

One module per protocol (``openai``, ``hermes``, ``react``), each holding its rendering beside its
parser (they are inverses and are checked against each other); ``base`` holds what they share, and
this module the registry and the dataset views built on it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from contract.harnesses.base import Harness, Message, Parsed, ParsedCall, compact_json, text_of
from contract.harnesses.hermes import HermesHarness
from contract.harnesses.openai import OpenAIHarness
from contract.harnesses.react import ReActHarness
from contract.messages import messages
from contract.task import Task

__all__ = [
    "HARNESSES",
    "Harness",
    "HermesHarness",
    "OpenAIHarness",
    "Parsed",
    "ParsedCall",
    "ReActHarness",
    "get_harness",
    "render_task",
    "sft_lines",
    "sft_row",
    "text_of",
    "text_prompt",
]

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
        yield (compact_json(sft_row(t, harness)) + "\n").encode()
