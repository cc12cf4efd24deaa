"""One session protocol, two places to run: ``rollout.session`` in process and ``rollout.mcp_session``.

The same task's gold calls are made on a session in this process and on an env session of a
real ``toolground serve``, through both faces (``call`` / ``acall``); every result, refusal,
state hash and expectation check must agree, ``reset`` must return to the task's world, and a
server session must be gone once closed. The operator API client is driven route by route, and
the conversation layer SkyRL uses is checked over both sessions against the reward of the
reference conversation.
"""

from __future__ import annotations

import asyncio
import json
from itertools import takewhile

import httpx
import pytest

from contract.messages import messages
from rewards import score
from rewards.replay import EnvPool
from rollout.admin_client import AdminClient
from rollout.conversation import Conversation
from rollout.mcp_session import McpSessions
from rollout.session import InProcess, SessionError
from tests.serving import free_port, running_server


@pytest.fixture(scope="module")
def tasks(snapshot_cache):
    from querygen.generate import GenConfig, Generator
    from querygen.knobs import KnobRates

    cfg = GenConfig(domains=("banking",), n=8, seed=3, scale="small", rates=KnobRates(distractors=0.0))
    made, _ = Generator(cfg, snapshot_cache).run()
    return made


@pytest.fixture(scope="module")
def writing(tasks):
    return next(t for t in tasks if t.writes and t.expected_state_hash and len(t.turns) == 1)


@pytest.fixture(scope="module")
def base(snapshot_cache):
    with running_server(snapshot_cache.root.parent, "--domains", "banking", "--scale", "small") as url:
        yield url


@pytest.fixture(scope="module")
def factories(snapshot_cache, base):
    mcp = McpSessions(f"{base}/mcp", run_id="sessions-test")
    yield {"inproc": InProcess(EnvPool(snapshot_cache)), "mcp": mcp}
    mcp.close()


def served_ids(base: str) -> list[str]:
    return httpx.get(f"{base}/admin/sessions").json()["ids"]


def play(session, task) -> list[str]:
    """The task's gold calls, then two refusals every session gives alike; what the model saw."""
    seen = [session.call(c.name, c.arguments).content for c in task.gold_calls()]
    seen.append(session.call("banking_launch_rocket", {}).content)
    seen.append(session.call(task.gold_calls()[0].name, "not an object").content)
    return seen


def test_both_sessions_give_the_same_results_hashes_and_refusals(factories, writing):
    runs = {}
    for kind, sessions in factories.items():
        session = sessions(writing)
        start = session.state_hash()
        seen = play(session, writing)
        runs[kind] = (start, seen, session.state_hash(), session.state_matches(), session.calls)
        session.close()
    assert runs["inproc"] == runs["mcp"]
    start, seen, end, matches, calls = runs["mcp"]
    assert matches is True and end == writing.expected_state_hash != start
    assert calls == len(writing.gold_calls())  # the refused calls never reached a tool
    assert "unknown tool" in json.loads(seen[-2])["error"]
    assert json.loads(seen[-1]) == {"error": "arguments must be a JSON object"}


def test_the_async_face_agrees_with_the_sync_one(factories, writing, base):
    async def play_async(sessions):
        session = await sessions.aopen(writing)
        seen = [(await session.acall(c.name, c.arguments)).content for c in writing.gold_calls()]
        final = await session.astate_hash()
        await session.aclose()
        return seen, final, getattr(session, "sid", None)

    with factories["inproc"](writing) as session:
        sync_seen = [session.call(c.name, c.arguments).content for c in writing.gold_calls()]
    for kind, sessions in factories.items():
        seen, final, sid = asyncio.run(play_async(sessions))
        assert seen == sync_seen and final == writing.expected_state_hash, kind
        assert sid is None or sid not in served_ids(base)  # aclose released it


def test_reset_returns_to_the_task_s_world_and_a_closed_server_session_is_gone(factories, writing, base):
    for kind, sessions in factories.items():
        session = sessions(writing)
        start = session.state_hash()
        play(session, writing)
        first = getattr(session, "sid", None)
        session.reset()
        assert session.state_hash() == start and session.calls == 0, kind
        if kind == "mcp":  # a fresh env session for the next rollout, the previous one deleted
            held = served_ids(base)
            assert session.sid != first and session.sid in held and first not in held
            assert sessions.live_sessions() == [session.sid]
            session.close()
            assert session.sid not in served_ids(base) and not session.live
        else:
            session.close()


def test_a_task_that_cannot_run_is_refused_before_anything_is_asked(factories, writing, snapshot_cache):
    no_world = writing.model_copy(update={"snapshots": []})
    with pytest.raises(SessionError, match="names no snapshots"):
        factories["inproc"](no_world)
    foreign = writing.model_copy(
        update={"snapshots": [s.model_copy(update={"domain": "crm"}) for s in writing.snapshots]}
    )
    with pytest.raises(SessionError, match="HTTP 4"):
        factories["mcp"](foreign)
    with pytest.raises(SessionError, match="must be an http"):
        McpSessions("127.0.0.1:8000/mcp")
    with pytest.raises(SessionError, match="unreachable"):
        McpSessions(f"http://127.0.0.1:{free_port()}/mcp")(writing)


def test_admin_client_drives_every_operator_route(factories, base, writing):
    admin = AdminClient(base)
    bound = admin.bind("admin-test", writing)
    assert bound["id"] == "admin-test" and bound["task"] == writing.id
    assert admin.release("admin-test") is True and admin.release("admin-test") is False
    session = factories["mcp"](writing)  # calls made over MCP, read through the operator API
    sid, domains = session.sid, writing.domains
    start = admin.state(sid, domains)["hash"]
    play(session, writing)
    assert admin.state(sid, domains)["hash"] == writing.expected_state_hash != start
    assert admin.diff(sid)["count"] > 0
    assert admin.reset(sid)["reset"] is True and admin.state(sid, domains)["hash"] == start

    async def async_faces():
        for c in writing.gold_calls():
            await session.acall(c.name, c.arguments)
        changed = (await admin.astate(sid, domains))["hash"], (await admin.adiff(sid))["count"]
        reset = (await admin.areset(sid))["reset"], (await admin.astate(sid, domains))["hash"]
        bound = (await admin.abind("admin-test-2", writing))["task"]
        released = await admin.arelease("admin-test-2"), await admin.arelease("admin-test-2")
        await admin.aclose()
        return changed, reset, bound, released

    changed, reset, bound, released = asyncio.run(async_faces())
    assert changed[0] == writing.expected_state_hash and changed[1] > 0
    assert reset == (True, start) and bound == writing.id and released == (True, False)
    assert admin.release(sid) is True
    session.close()  # the server no longer holds it: nothing to fail
    with pytest.raises(SessionError, match=r"POST /admin/sessions/x/bind: HTTP 400"):
        admin.bind("x", {"not": "a task"})
    admin.close()


def test_a_conversation_over_either_session_scores_as_its_reference(factories, tasks):
    """SkyRL's layer: the reference assistant messages stepped through, on both sessions."""
    task = next(t for t in tasks if t.gold_calls() and t.writes)
    reference = messages(task)
    expected = score(task, reference, "prove+outcome").total
    for kind, sessions in factories.items():
        talk = Conversation(sessions(task))
        assert talk.user_message() == task.turns[0].user
        for i, m in enumerate(reference):
            if m["role"] != "assistant":
                continue
            following = talk.step(m)  # the tool results of its calls, or the next user turn
            assert following == list(takewhile(lambda n: n["role"] != "assistant", reference[i + 1 :])), (
                kind,
                i,
            )
        assert talk.done and talk.session.state_matches() is True, kind
        assert talk.score(preset="prove+outcome").total == pytest.approx(expected), kind
        unreadable = talk.step({"role": "assistant", "tool_calls": [{"id": "c", "function": {"name": 3}}]})
        assert "needs a name" in json.loads(unreadable[0]["content"])["error"]
        talk.session.close()
