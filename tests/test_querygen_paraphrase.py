"""Optional LLM paraphrase: kept when it keeps every needed value, template text otherwise."""

from __future__ import annotations

import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from contract.load import load_tasks
from querygen.text.paraphrase import ParaphraseError, Paraphraser, keeps_values
from servers.registry import available
from toolground import cli

GOOD_PREFIX = "Could you please take care of this: "


def _server(mode: str) -> ThreadingHTTPServer:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            text = body["messages"][-1]["content"]
            # "lossy" drops every digit, so ids and amounts are lost
            out = GOOD_PREFIX + text[:1].lower() + text[1:] if mode == "good" else re.sub(r"\d", "", text)
            payload = json.dumps({"choices": [{"message": {"role": "assistant", "content": out}}]}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, *args) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


@pytest.fixture(params=["good", "lossy"])
def endpoint(request):
    server = _server(request.param)
    yield request.param, f"http://127.0.0.1:{server.server_address[1]}/v1"
    server.shutdown()


def test_paraphrase_is_kept_only_when_values_survive(endpoint, tmp_path, monkeypatch, snapshot_cache, capsys):
    mode, url = endpoint
    monkeypatch.setattr(cli, "COMMANDS", {"generate": "toolground.cmd_generate"})
    monkeypatch.setenv("TOOLGROUND_CACHE", str(Path(snapshot_cache.root).parent))
    out = tmp_path / "out"
    argv = ["generate", "--domains", ",".join(available()), "--n", "20", "--seed", "4", "--scale", "small"]
    assert cli.main([*argv, "--out", str(out), "--quiet", "--llm-url", url, "--llm-model", "fake"]) == 0
    tasks = load_tasks(out)
    stats = json.loads((out / "stats.json").read_text())["paraphrase"]
    with_values = [t for t in tasks if any(t.metadata["anchors"][k] for k in range(len(t.turns)))]
    assert with_values
    for t in tasks:
        meta = t.metadata["paraphrase"]
        assert meta["model"] == "fake" and len(meta["accepted"]) == len(t.turns)
        for k, turn in enumerate(t.turns):
            if meta["accepted"][k]:
                assert keeps_values(turn.user, t.metadata["anchors"][k])
    if mode == "good":
        assert stats.get("accepted", 0) > 0 and stats.get("lost_value", 0) == 0
        assert all(turn.user.startswith(GOOD_PREFIX) for t in tasks for turn in t.turns)
    else:
        assert stats.get("lost_value", 0) > 0
        for t in with_values:
            for k, turn in enumerate(t.turns):
                if any(re.search(r"\d", a) for a in t.metadata["anchors"][k]):
                    assert not t.metadata["paraphrase"]["accepted"][k]
                    assert re.search(r"\d", turn.user), "the template text was kept"


def test_keeps_values_compares_numbers_as_numbers():
    assert keeps_values("Send 25 dollars to ACC-000001", ["$25.00", "ACC-000001"])
    assert keeps_values("move $1,250.50 now", ["$1250.5"])
    assert not keeps_values("send some money to ACC-000001", ["$25", "ACC-000001"])
    assert not keeps_values("send 25 dollars", ["ACC-000001"])
    assert keeps_values("set it to In Progress", ["in_progress"])


def test_unreachable_endpoint_is_a_clear_error():
    with pytest.raises(ParaphraseError, match="cannot reach the LLM endpoint"):
        Paraphraser("http://127.0.0.1:9/v1", "m", timeout=2).ping()
