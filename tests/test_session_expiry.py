"""An env session evicted after its idle TTL says so, instead of coming back as a fresh world.

Issue 37, item 2: a rollout that paused past the idle TTL kept calling and got the snapshot's state
with no error, so its reward was computed on a world it never built. Through a real ``toolground
serve --idle-ttl 1`` on 127.0.0.1: after the TTL, every call fails with "env session 'X' expired
after 1 s idle; reset or bind it again" (the lean path and the stack alike) until the client resets
it, binds it, or releases it; an id evicted by another session's arrival is refused the same way.
"""

from __future__ import annotations

import time

import httpx

from tests.serving import post_tool_call, running_server, tool_call_body

TTL = 1.0
EXPIRED = "env session '{sid}' expired after 1 s idle; reset or bind it again"


def _call(base: str, sid: str, name: str, arguments: dict) -> tuple[bool, str]:
    """(is an error, text) of one tool call on env session ``sid``."""
    reply = post_tool_call(base, name, tool_call_body(name, arguments), sid)
    result = reply["result"]
    return bool(result.get("isError")), result["content"][0]["text"]


def _deposit(base: str, sid: str) -> tuple[bool, str]:
    return _call(base, sid, "banking_deposit", {"account": "ACC-000001", "amount": 25.5})


def _balance(base: str, sid: str) -> tuple[bool, str]:
    return _call(base, sid, "banking_get_balance", {"account": "ACC-000001"})


def _refused_twice(base: str, sid: str) -> None:
    """Refused, and again: the error is not a one-off before a silent fresh world."""
    for _ in range(2):
        failed, text = _balance(base, sid)
        assert failed and EXPIRED.format(sid=sid) in text, text


def test_an_idle_evicted_session_fails_clearly_until_reset_bind_or_release(tmp_path):
    args = ("--domains", "banking", "--scale", "small", "--idle-ttl", str(TTL))
    with running_server(tmp_path / "cache", *args) as base:
        fresh = httpx.post(f"{base}/admin/sessions/fresh-ref/reset").json()["hash"]
        for sid in ("paused", "evicted", "released"):
            assert _deposit(base, sid)[0] is False
        time.sleep(TTL + 0.5)
        _refused_twice(base, "paused")  # found stale on its own next call
        assert _deposit(base, "newcomer")[0] is False  # opening a session drops the stale ones
        listed = httpx.get(f"{base}/admin/sessions").json()
        assert "evicted" not in listed["ids"] and listed["idle_ttl_seconds"] == TTL
        _refused_twice(base, "evicted")
        for sid in ("paused", "evicted"):
            state = httpx.get(f"{base}/admin/sessions/{sid}/state")
            assert state.status_code == 410 and EXPIRED.format(sid=sid) in state.json()["error"]
        reset = httpx.post(f"{base}/admin/sessions/paused/reset")
        assert reset.status_code == 200 and reset.json()["hash"] == fresh  # a fresh world, asked for
        assert _balance(base, "paused")[0] is False
        assert httpx.delete(f"{base}/admin/sessions/released").status_code == 200
        assert _balance(base, "released")[0] is False  # a released id starts afresh on its next use
        assert _balance(base, "evicted")[0] is True  # still refused: nobody reset it
