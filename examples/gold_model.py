"""A scripted "model" that plays each task's gold calls, served as an OpenAI-compatible endpoint.

It exists so ``toolground eval`` can be tried end to end on a laptop, without a GPU or an API key:

    toolground generate --domains banking --n 20 --scale small --out data/ --quiet
    python examples/gold_model.py data/ --port 8011 &
    toolground eval --tasks data/ --base-url http://127.0.0.1:8011/v1 --model gold --out eval-gold/

Each request's conversation names its task (by its first user message) and its turn (by the latest
user message). The reply is the turn's next gold call not yet made, one per reply, then the turn's
reference answer. What ``eval`` reports for it is what a model that does exactly the right thing
earns: the ceiling a real model's figures are read against. Standard library only.
"""

from __future__ import annotations

import argparse
import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

Turns = dict[tuple[str, str], dict[str, Any]]  # (first user message, latest one) -> the gold turn


def gold_turns(dataset: Path) -> Turns:
    """Every turn of every task in a ``toolground generate`` folder (its ``tasks.jsonl``)."""
    turns: Turns = {}
    for line in (dataset / "tasks.jsonl").read_text().splitlines():
        if line.strip():
            task = json.loads(json.loads(line)["ground_truth"])
            for turn in task["turns"]:
                turns[(task["turns"][0]["user"], turn["user"])] = turn
    return turns


def reply(turns: Turns, messages: list[dict[str, Any]]) -> dict[str, Any]:
    """The assistant message the gold plays next in this conversation."""
    said = [m["content"] for m in messages if m["role"] == "user"]
    turn = turns.get((said[0], said[-1])) if said else None
    last_user = max((i for i, m in enumerate(messages) if m["role"] == "user"), default=0)
    made = sum(len(m.get("tool_calls") or []) for m in messages[last_user:])
    if turn is not None and made < len(turn["calls"]):
        call = turn["calls"][made]
        function = {"name": call["name"], "arguments": json.dumps(call["arguments"])}
        return {"role": "assistant", "content": None, "tool_calls": [{"id": f"call_{made}", "type": "function", "function": function}]}  # fmt: skip
    return {"role": "assistant", "content": (turn or {}).get("answer") or "Done."}


def handler(turns: Turns) -> type[BaseHTTPRequestHandler]:
    """A request handler answering ``POST /v1/chat/completions`` from ``turns``."""

    class Gold(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive, as eval's HTTP/1.1 client expects

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
            message = reply(turns, body.get("messages", []))
            finish = "tool_calls" if "tool_calls" in message else "stop"
            answer = {
                "id": "gold",
                "object": "chat.completion",
                "model": body.get("model", "gold"),
                "choices": [{"index": 0, "message": message, "finish_reason": finish}],
                "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0},
            }
            data = json.dumps(answer).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: Any) -> None:  # no request log
            pass

    return Gold


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("data", type=Path, help="a `toolground generate` output folder (with tasks.jsonl)")
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=8011)
    args = ap.parse_args()
    if not (args.data / "tasks.jsonl").is_file():
        sys.exit(f"{args.data}/tasks.jsonl not found: generate with --format jsonl (the default)")
    server = ThreadingHTTPServer((args.host, args.port), handler(gold_turns(args.data)))
    print(f"gold model on http://{args.host}:{args.port}/v1", file=sys.stderr, flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
