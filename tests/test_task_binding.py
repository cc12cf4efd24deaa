"""Task-bound env sessions and the SSE endpoint, on the real server with real MCP clients.

A session bound to a generated task must list exactly that task's tools (distractors in, hidden
tools out, stripped enums stripped), refuse the tools it does not offer, and run in the task's own
world, so its state hash equals the same calls made in process on a ``TaskEpisode``. A task the
server cannot provide is refused whole with an error that says why. The lean path must give bound
sessions the same bytes as the full stack.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import subprocess

import httpx
import pytest
from fastmcp import Client
from fastmcp.client.transports import SSETransport, StreamableHttpTransport
from mcp.shared.exceptions import MCPError

from contract.task import Task
from querygen.generate import GenConfig, Generator
from querygen.out.export import write_dataset
from rewards.replay import EnvPool
from rollout.episode import TaskEpisode
from servers.registry import get_domain
from servers.serve import MCP_PATH, build_http_app
from tests.serving import REPO, running_server, serving_in_thread

GENERATED = ("banking", "issue_tracker")
V = "2026-07-28"
META = {"io.modelcontextprotocol/protocolVersion": V, "io.modelcontextprotocol/clientCapabilities": {}}


@pytest.fixture(scope="module")
def tasks(snapshot_cache) -> list[Task]:
    made, _ = Generator(
        GenConfig(domains=("banking", "issue_tracker"), n=24, seed=52, scale="small"), snapshot_cache
    ).run()
    return made


def _distracted(t: Task) -> bool:
    """Offered foreign tools with their enums stripped, and still a task with gold calls."""
    knobs = t.metadata["knobs"]
    return bool(knobs["distractors"] and knobs["enums_stripped"] and t.gold_calls())


@pytest.fixture(scope="module")
def served(tasks) -> tuple[str, ...]:
    """What the server runs: the generated domains and those of the first distracted task that
    offers an email tool (the email variant test rebinds a task touching email). Distractors come
    from any of the domains, so a fixed list would hold such a task only for a lucky seed."""
    for t in tasks:
        if _distracted(t) and "email" in t.domains:
            return tuple(dict.fromkeys([*GENERATED, *t.domains]))
    raise AssertionError(
        "seed 52 gives no distracted task offering an email tool any more; pick another seed"
    )


def _pick(tasks: list[Task], served: tuple[str, ...], what: str, is_served: bool = True) -> Task:
    for t in tasks:
        if is_served != set(t.domains).issubset(served):
            continue
        if (what == "distractors" and _distracted(t)) or (
            what == "hidden" and t.metadata["knobs"]["hidden_tool"]
        ):
            return t
        if what == "writes" and t.expected_diff:
            return t
        if what == "any":
            return t
    raise AssertionError(f"seed 52 gives no {what} task any more; pick another seed")


@pytest.fixture(scope="module")
def picked(tasks, served) -> dict[str, Task]:
    return {
        "distractors": _pick(tasks, served, "distractors"),  # distractors from other domains, enums stripped
        "hidden": _pick(tasks, served, "hidden"),  # a clarify task whose needed tool is withheld
        "unserved": _pick(tasks, served, "any", is_served=False),  # needs a domain the server does not run
    }


@pytest.fixture(scope="module")
def dataset(tasks, tmp_path_factory):
    out = tmp_path_factory.mktemp("dataset")
    write_dataset(out, tasks, ["jsonl"])
    return out


@pytest.fixture(scope="module")
def server(snapshot_cache, dataset, served):
    args = ("--domains", ",".join(served), "--scale", "small", "--tasks", str(dataset))
    with running_server(snapshot_cache.root.parent, *args) as base:
        yield base


@pytest.fixture(scope="module")
def pool(snapshot_cache) -> EnvPool:
    return EnvPool(snapshot_cache)


def names(tools) -> list[str]:
    return [t["function"]["name"] for t in tools]


def bind(base: str, sid: str, body) -> httpx.Response:
    content = body if isinstance(body, bytes) else json.dumps(body).encode()
    return httpx.post(f"{base}/admin/sessions/{sid}/bind", content=content, timeout=60)


def client(base: str, headers: dict[str, str], sse: bool = False) -> Client:
    transport = SSETransport(base + "/sse", headers=headers) if sse else None
    return Client(transport or StreamableHttpTransport(base + "/mcp", headers=headers))


async def listed(base: str, headers: dict[str, str], sse: bool = False) -> list:
    async with client(base, headers, sse) as c:
        return list(await c.list_tools())


# -- what a bound session lists ------------------------------------------------------------------


@pytest.mark.parametrize("which", ["distractors", "hidden"])
def test_a_bound_session_lists_exactly_the_tasks_tools(server, picked, which):
    task = picked[which]
    r = bind(server, f"list-{which}", task.model_dump(mode="json"))
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["task"] == task.id and out["tools"] == names(task.tools)
    assert {d: s["sha256"] for d, s in out["snapshot"].items()} == {
        s.domain: s.sha256 for s in task.snapshots
    }
    tools = asyncio.run(listed(server, {"X-Env-Session": f"list-{which}"}))
    assert [t.name for t in tools] == names(task.tools)
    for got, offered in zip(tools, task.tools, strict=True):
        assert got.description == offered["function"]["description"]
        assert got.input_schema == offered["function"]["parameters"]
    served = {t["function"]["name"]: t for t in httpx.get(server + "/admin/tools").json()["tools"]}
    if which == "distractors":
        assert set(task.metadata["knobs"]["distractors"]) <= {t.name for t in tools}
        stripped = [t for t in task.tools if t != served[t["function"]["name"]]]
        assert stripped and all("enum" not in json.dumps(t) for t in stripped)
        assert any("enum" in json.dumps(served[t["function"]["name"]]) for t in stripped)
    else:
        assert task.metadata["knobs"]["hidden_tool"] not in {t.name for t in tools}
    state = httpx.get(f"{server}/admin/sessions/list-{which}/state").json()
    assert set(state["domains"]) == set(task.domains) and state["task"] == task.id  # distractors' too
    unbound = asyncio.run(listed(server, {"X-Env-Session": "never-bound"}))
    assert len(unbound) == len(served) > len(tools)


def test_calls_outside_the_offered_set_are_refused(server, picked):
    task = picked["hidden"]
    sid = "refuse-calls"
    assert bind(server, sid, task.model_dump(mode="json")).status_code == 200
    hidden = task.metadata["knobs"]["hidden_tool"]
    offered = set(names(task.tools))
    other = next(  # a served tool the task does not offer
        n
        for n in names(httpx.get(server + "/admin/tools").json()["tools"])
        if n.startswith(("banking_", "issue_tracker_")) and n not in offered and n != hidden
    )

    async def run():
        async with client(server, {"X-Env-Session": sid}) as c:
            return [
                await c.call_tool(n, {}, raise_on_error=False) for n in (hidden, other, "crm_create_deal")
            ]

    for res, name in zip(asyncio.run(run()), (hidden, other, "crm_create_deal"), strict=True):
        text = res.content[0].text
        assert res.is_error and f"unknown tool {name!r}" in text and "offered: " in text, text
        assert task.id in text and names(task.tools)[0] in text
    assert httpx.get(f"{server}/admin/sessions/{sid}/state").json()["calls"] == 0


# -- the bound world -------------------------------------------------------------------------------


def _gold_over_mcp(base: str, sid: str, task: Task, headers: dict[str, str] | None = None) -> list[bool]:
    async def run():
        async with client(base, {"X-Env-Session": sid, **(headers or {})}) as c:
            out = []
            for call in task.gold_calls():
                res = await c.call_tool(call.name, call.arguments, raise_on_error=False)
                out.append(not res.is_error)
            return out

    return asyncio.run(run())


def _in_process(task: Task, pool: EnvPool) -> tuple[str, str]:
    """(pristine hash, hash after the gold calls) of the task's world, in process."""
    with TaskEpisode(task, pool) as ep:
        before = ep.state_hash()
        for call in task.gold_calls():
            ep.call(call.name, call.arguments)
        return before, ep.state_hash()


def test_calls_on_a_bound_session_change_the_tasks_world(server, tasks, served, pool):
    task = _pick(tasks, served, "writes")
    sid = "world-1"
    assert bind(server, sid, task.model_dump(mode="json")).status_code == 200
    assert all(_gold_over_mcp(server, sid, task))
    domains = ",".join(task.domains)
    state = httpx.get(f"{server}/admin/sessions/{sid}/state", params={"domains": domains}).json()
    before, after = _in_process(task, pool)
    assert state["task"] == task.id and state["hash"] == after == task.expected_state_hash
    assert set(state["domains"]) == set(task.domains)  # the episode is the task's world, nothing more
    row = {"id": task.id, "ground_truth": task.model_dump_json()}  # a dataset row binds too
    again = bind(server, sid, row)
    assert again.status_code == 200 and again.json()["hash"] != state["hash"]  # a fresh episode
    fresh = httpx.get(f"{server}/admin/sessions/{sid}/state", params={"domains": domains}).json()
    assert fresh["hash"] == before and fresh["calls"] == 0
    httpx.post(f"{server}/admin/sessions/{sid}/reset")
    assert all(_gold_over_mcp(server, sid, task))  # a reset keeps the binding and its world
    assert (
        httpx.get(f"{server}/admin/sessions/{sid}/state", params={"domains": domains}).json()["hash"] == after
    )


def test_a_task_at_another_scale_gets_its_own_world(server, tasks, pool, snapshot_cache):
    """The server runs small; the task names the medium banking world, built on demand."""
    base = next(t for t in tasks if t.domains == ["banking"] and not t.metadata["knobs"]["enums_stripped"])
    medium = get_domain("banking").snapshot(0, "medium", snapshot_cache)
    task = Task.model_validate(
        {**base.model_dump(mode="json"), "id": base.id + "-medium", "snapshots": [medium.identity()]}
    )
    sid = "medium-1"
    r = bind(server, sid, task.model_dump(mode="json"))
    assert r.status_code == 200, r.text
    assert r.json()["snapshot"]["banking"] == {**medium.identity()}
    calls = [("banking_deposit", {"account": "ACC-000042", "amount": 17.5})]  # ACC-000042 is medium only

    async def run():
        async with client(server, {"X-Env-Session": sid}) as c:
            return [await c.call_tool(n, a, raise_on_error=False) for n, a in calls]

    assert not any(r.is_error for r in asyncio.run(run()))
    with TaskEpisode(task, pool) as ep:
        for n, a in calls:
            assert ep.call(n, a).ok
        expected = ep.state_hash()
    state = httpx.get(f"{server}/admin/sessions/{sid}/state", params={"domains": "banking"}).json()
    assert state["hash"] == expected and state["snapshot"]["banking"]["scale"] == "medium"
    reset = httpx.post(f"{server}/admin/sessions/{sid}/reset").json()
    assert reset["snapshot"]["banking"] == medium.identity()  # back to the task's world, not the server's
    other = httpx.post(f"{server}/admin/sessions/{sid}/reset", json={"variants": {"email": "logged_out"}})
    assert other.status_code == 400 and "not part of task" in other.json()["error"]


def test_a_task_in_a_variant_and_with_setup_calls(server, tasks, served, pool, snapshot_cache):
    task = _pick(tasks, served, "writes")
    body = task.model_dump(mode="json")
    first = task.gold_calls()[0]
    body["setup"] = [{"name": first.name, "arguments": first.arguments}]  # a turn-level task's earlier turn
    r = bind(server, "setup-1", body)
    assert r.status_code == 200, r.text
    with TaskEpisode(task, pool) as ep:
        assert ep.call(first.name, first.arguments).ok
        after_setup = ep.state_hash()
    domains = {"domains": ",".join(task.domains)}
    state = httpx.get(f"{server}/admin/sessions/setup-1/state", params=domains).json()
    assert state["hash"] == after_setup and state["calls"] == 0
    httpx.post(f"{server}/admin/sessions/setup-1/reset")
    assert httpx.get(f"{server}/admin/sessions/setup-1/state", params=domains).json()["hash"] == after_setup
    body["setup"] = [{"name": first.name, "arguments": {}}]
    failing = bind(server, "setup-2", body)
    assert failing.status_code == 422 and "setup call" in failing.json()["error"]
    assert httpx.get(f"{server}/admin/sessions/setup-2/state").status_code == 404

    email = next(t for t in tasks if "email" in t.domains and set(t.domains) <= set(served))
    logged_out = get_domain("email").snapshot(0, "small", snapshot_cache, variant="logged_out")
    body = email.model_dump(mode="json")
    body["snapshots"] = [logged_out.identity() if s["domain"] == "email" else s for s in body["snapshots"]]
    r = bind(server, "variant-1", body)
    assert r.status_code == 200 and r.json()["snapshot"]["email"]["variant"] == "logged_out", r.text
    base = httpx.post(f"{server}/admin/sessions/variant-1/reset", json={"variants": {"email": None}}).json()
    assert "variant" not in base["snapshot"]["email"]
    state = httpx.get(f"{server}/admin/sessions/variant-1/state").json()
    assert state["task"] == email.id


# -- refusals ----------------------------------------------------------------------------------


def _broken(task: Task, case: str):
    body = task.model_dump(mode="json")
    if case == "unknown variant":
        body["snapshots"][0]["variant"] = "nope"
    elif case == "sha mismatch":
        body["snapshots"][0]["sha256"] = "0" * 64
    elif case == "unknown tool":
        body["tools"].append({"type": "function", "function": {"name": "banking_teleport", "parameters": {}}})
    elif case == "no snapshots":
        body["snapshots"] = []
    elif case == "not json":
        return b"{not json"
    elif case == "bad tools":
        body["tools"] = [{"function": {"description": "no name"}}]
    elif case == "row without a task":
        return {"id": task.id, "ground_truth": "[1, 2]"}
    return body


REFUSALS = {
    # the served list is the generated domains and a distracted task's: banking is among them
    "unserved domain": (422, ["does not serve", "served: ", "banking"]),
    "unknown variant": (422, ["no variant 'nope'", "its variants"]),
    "sha mismatch": (422, ["rebuilds here to sha256", "000000000000"]),
    "unknown tool": (422, ["banking_teleport"]),
    "no snapshots": (422, ["names no snapshots"]),
    "not json": (400, ["not a task"]),
    "bad tools": (400, ["tools.0.function.name"]),
    "row without a task": (400, ["not a task"]),
}


@pytest.mark.parametrize("case", sorted(REFUSALS))
def test_a_task_the_server_cannot_provide_is_refused_whole(server, picked, case):
    task = picked["unserved"] if case == "unserved domain" else picked["distractors"]
    status, phrases = REFUSALS[case]
    fresh = f"refused-{case.replace(' ', '-')}"
    r = bind(server, fresh, _broken(task, case))
    assert r.status_code == status, r.text
    error = r.json()["error"]
    assert all(p in error for p in phrases), error
    if case == "sha mismatch":
        real = task.snapshots[0]
        assert real.domain in error and real.sha256[:12] in error
    assert httpx.get(f"{server}/admin/sessions/{fresh}/state").status_code == 404  # nothing created
    held = "refused-holds"
    good = bind(server, held, picked["hidden"].model_dump(mode="json")).json()
    assert bind(server, held, _broken(task, case)).status_code == status
    state = httpx.get(f"{server}/admin/sessions/{held}/state").json()
    assert state["task"] == picked["hidden"].id and state["hash"] == good["hash"]  # still the old binding


# -- the X-Env-Task header -------------------------------------------------------------------------


def test_the_task_header_binds_a_session_on_first_use(server, tasks, served, pool):
    task = _pick(tasks, served, "writes")
    sid = "header-1"
    head = {"X-Env-Task": task.id}
    assert [t.name for t in asyncio.run(listed(server, head))] == names(task.tools)  # no session needed
    assert all(_gold_over_mcp(server, sid, task, head))
    state = httpx.get(
        f"{server}/admin/sessions/{sid}/state", params={"domains": ",".join(task.domains)}
    ).json()
    assert state["task"] == task.id and state["hash"] == _in_process(task, pool)[1]
    listing = asyncio.run(listed(server, {"X-Env-Session": sid}))  # bound now, header or not
    assert [t.name for t in listing] == names(task.tools)
    over_sse = asyncio.run(listed(server, {"X-Env-Session": "header-sse", **head}, sse=True))
    assert [t.name for t in over_sse] == names(task.tools)

    async def refusals():
        async with client(server, {"X-Env-Session": "header-2", "X-Env-Task": "tg-nope"}) as c:
            unknown = await c.call_tool(
                "banking_get_balance", {"account": "ACC-000001"}, raise_on_error=False
            )
            with pytest.raises(MCPError) as listing_error:
                await c.list_tools()
        other = next(t for t in tasks if t.id != task.id and set(t.domains) <= set(served))
        async with client(server, {"X-Env-Session": sid, "X-Env-Task": other.id}) as c:
            rebound = await c.call_tool(
                "banking_get_balance", {"account": "ACC-000001"}, raise_on_error=False
            )
        return unknown, str(listing_error.value), rebound

    unknown, listing_error, rebound = asyncio.run(refusals())
    assert unknown.is_error and "unknown task 'tg-nope'" in unknown.content[0].text
    assert "tg-nope" in listing_error and "--tasks" in listing_error
    assert rebound.is_error and f"bound to task {task.id}" in rebound.content[0].text
    assert httpx.get(f"{server}/admin/sessions/header-2/state").status_code == 404
    assert httpx.get(server + "/health").json()["tasks"] == len(tasks)


MCP1_PYTHON = REPO / ".venv-mcp1" / "bin" / "python"
MCP1_SCRIPT = """
import asyncio, json, sys
from mcp import ClientSession
from mcp.client.streamable_http import streamablehttp_client

async def main(url, task):
    headers = {"X-Env-Task": task}
    async with streamablehttp_client(url, headers=headers) as (r, w, _), ClientSession(r, w) as s:
        await s.initialize()
        tools = await s.list_tools()
        bad = await s.call_tool("crm_create_deal", {})
        print(json.dumps({"tools": [t.name for t in tools.tools], "bad": bad.content[0].text}))

asyncio.run(main(sys.argv[1], sys.argv[2]))
"""


@pytest.mark.skipif(not MCP1_PYTHON.exists(), reason="`make test` creates .venv-mcp1 with the mcp 1.x SDK")
def test_a_handshake_era_client_binds_by_header(server, picked):
    task = picked["distractors"]
    out = subprocess.run(
        [str(MCP1_PYTHON), "-c", MCP1_SCRIPT, server + "/mcp", task.id],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    seen = json.loads(out.stdout.strip().splitlines()[-1])
    assert seen["tools"] == names(task.tools) and "unknown tool 'crm_create_deal'" in seen["bad"]


# -- SSE ---------------------------------------------------------------------------------------


def test_sse_clients_get_private_env_sessions(server):
    account = {"account": "ACC-000001"}

    async def run():
        async with client(server, {}, sse=True) as a, client(server, {}, sse=True) as b:
            start = (await a.call_tool("banking_get_balance", account)).structured_content["balance"]
            await a.call_tool("banking_deposit", {**account, "amount": 40})
            seen_a = (await a.call_tool("banking_get_balance", account)).structured_content["balance"]
            seen_b = (await b.call_tool("banking_get_balance", account)).structured_content["balance"]
        async with client(server, {"X-Env-Session": "sse-named"}, sse=True) as c:
            await c.call_tool("banking_deposit", {**account, "amount": 2})
        return start, seen_a, seen_b

    start, seen_a, seen_b = asyncio.run(run())
    assert round(seen_a - start, 2) == 40 and seen_b == start
    named = httpx.get(f"{server}/admin/sessions/sse-named/state").json()
    assert named["calls"] == 1
    ids = httpx.get(f"{server}/admin/sessions").json()["ids"]
    assert sum(i.startswith("mcp:") for i in ids) >= 2  # each handshake is its own episode
    assert httpx.get(server + "/sse", headers={"Host": "attacker.example"}).status_code == 421
    refused = httpx.post(server + "/messages/?session_id=x", headers={"Origin": "http://attacker.example"})
    assert refused.status_code == 403


# -- the lean path ---------------------------------------------------------------------------------


def _raw(port: int, body: dict, headers: dict[str, str]) -> tuple[int, list, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("POST", MCP_PATH, json.dumps(body).encode(), headers)
    r = conn.getresponse()
    out = r.status, [(k.lower(), v) for k, v in r.getheaders() if k.lower() != "date"], r.read()
    conn.close()
    return out


def test_the_lean_path_answers_bound_sessions_as_the_stack_does(make_env, picked, served):
    task = picked["distractors"]
    env = make_env(",".join(served))
    lean_app = build_http_app(env)
    full_app = build_http_app(make_env(",".join(served)), lean=False)
    offered = task.gold_calls()[0]
    unoffered = next(
        t.qualified_name for t in env.visible_tools() if t.qualified_name not in names(task.tools)
    )
    with serving_in_thread(lean_app) as lean_port, serving_in_thread(full_app) as full_port:
        for port in (lean_port, full_port):
            r = bind(f"http://127.0.0.1:{port}", "lean-1", task.model_dump(mode="json"))
            assert r.status_code == 200, r.text

        def same(method: str, params: dict, session: str = "lean-1") -> bool:
            """Both servers answer alike; whether the lean layer answered itself."""
            body = {"jsonrpc": "2.0", "id": 7, "method": method, "params": {"_meta": META, **params}}
            headers = {
                "Content-Type": "application/json",
                "Accept": "application/json, text/event-stream",
                "MCP-Protocol-Version": V,
                "Mcp-Method": method,
                "X-Env-Session": session,
            }
            if "name" in params:
                headers["Mcp-Name"] = params["name"]
            before = lean_app.served
            lean, full = _raw(lean_port, body, headers), _raw(full_port, body, headers)
            assert lean == full, f"{method} {params}:\n{lean}\n{full}"
            return lean_app.served > before

        call = {"name": offered.name, "arguments": offered.arguments}
        assert same("tools/call", call)  # an offered tool of a bound session: answered lean
        assert not same("tools/list", {})  # a task's listing comes from the stack
        assert not same("tools/call", {"name": unoffered, "arguments": {}})  # the stack words the refusal
        assert same("tools/call", call, session="unbound")  # unbound sessions are as before
        same("tools/list", {}, session="unbound")  # the first unbound listing may be captured
        assert same("tools/list", {}, session="unbound")
