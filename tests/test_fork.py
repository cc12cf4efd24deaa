"""Forking an episode mid-way: in process (``Fork.clone``, ``Episode.clone``, ``TaskEpisode.fork``)
and over HTTP (``POST /admin/sessions/{id}/fork``), on one server and through ``serve --workers 2``
gateways, where a fork whose new id another shard owns carries the episode's bytes across.

Every branch must end where a serial replay of its own calls from the fork point ends, whatever
its siblings did: 64 branches of one task episode in process, eight over HTTP through the
gateways. Every refusal is checked by status and words.
"""

from __future__ import annotations

import asyncio
import json
import random

import httpx
import pytest
from fastmcp import Client
from fastmcp.client.transports import StreamableHttpTransport

from rewards.replay import EnvPool
from rollout.admin_client import AdminClient
from rollout.conversation import Conversation
from rollout.episode import TaskEpisode
from rollout.session import SessionError
from servers.admin import IMAGE_MAX_BODY, image_body_limit
from servers.binding import Binder
from servers.forking import Brancher
from servers.runtime import Environment
from servers.scale.owner import owner
from servers.scale.shard import NotOwned, ShardCustodian
from servers.serve import build_http_app
from state import EpisodeStore, Fork, SessionLive, StoreFull
from state.transfer import ImageError, open_image, pack, unpack
from tests.serving import random_banking_calls, running_server, serving_in_thread

TOKEN = "fork-test-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


@pytest.fixture(scope="module")
def task(snapshot_cache):
    """A generated banking task that writes, offering every banking tool (so random calls run)."""
    from querygen.generate import GenConfig, Generator
    from querygen.knobs import KnobRates

    cfg = GenConfig(domains=("banking",), n=8, seed=3, scale="small", rates=KnobRates(distractors=0.0))
    made, _ = Generator(cfg, snapshot_cache).run()
    chosen = next(t for t in made if t.writes and t.expected_state_hash and len(t.turns) == 1)
    tools = Environment("banking", scale="small", cache=snapshot_cache).openai_tools()
    return chosen.model_copy(update={"tools": tools})


def serial_hash(task, pool: EnvPool, calls) -> str:
    ep = TaskEpisode(task, pool=pool)
    for name, args in calls:
        ep.call(name, args)
    return ep.state_hash()


# -- in process ---------------------------------------------------------------------------------


def test_a_cloned_fork_is_lazy_independent_and_keeps_the_changelog(make_env):
    env = make_env("banking")
    ep = env.open()
    env.invoke(ep, "banking_deposit", {"account": "ACC-000001", "amount": 5})
    parent = ep.fork("banking")
    twin = parent.clone()
    assert twin.copied and twin._conn is None  # the bytes wait for the branch's first use
    assert twin.memory_bytes() == parent.memory_bytes() > 0
    assert twin.content_hash() == parent.content_hash() and twin.diff() == parent.diff()
    twin.run(lambda c: c.execute("UPDATE accounts SET balance = 0 WHERE id = 'ACC-000002'"), writes=True)
    assert twin.content_hash() != parent.content_hash()
    before = {c.pk for c in parent.diff()}
    assert "ACC-000001" in before and "ACC-000002" not in before
    assert {c.pk for c in twin.diff()} == before | {"ACC-000002"}  # the changelog came along
    assert twin.full_content_hash() == twin.content_hash()
    unwritten = Fork(parent.snapshot).clone()
    assert not unwritten.copied and unwritten.memory_bytes() == 0
    grandchild = parent.clone().clone()  # a clone of a clone not yet used shares its bytes
    assert grandchild.content_hash() == parent.content_hash()


def test_branches_of_one_state_share_one_serialization_until_the_source_moves(make_env):
    env = make_env("banking")
    ep = env.open()
    env.invoke(ep, "banking_deposit", {"account": "ACC-000001", "amount": 5})
    source = ep.fork("banking")
    a, b = source.clone(), source.clone()
    assert a._image is b._image  # one serialize() for the fan-out
    env.invoke(ep, "banking_deposit", {"account": "ACC-000001", "amount": 7})
    c = source.clone()
    assert c._image is not a._image and c.content_hash() == source.content_hash() != a.content_hash()
    a.run(lambda conn: conn.execute("UPDATE accounts SET balance = 1 WHERE id = 'ACC-000003'"), writes=True)
    assert b.content_hash() == b.full_content_hash() != a.content_hash()  # b never saw a's write


def test_episode_clone_keeps_variants_and_calls(make_env):
    env = make_env("banking")
    ep = env.open()
    env.invoke(ep, "banking_deposit", {"account": "ACC-000001", "amount": 5})
    twin, hashes = ep.clone_hashed()
    assert twin.calls == ep.calls == 1 and twin.identity() == ep.identity()
    assert hashes == ep.domain_hashes() == twin.domain_hashes()
    env.invoke(twin, "banking_withdraw", {"account": "ACC-000001", "amount": 5})
    assert twin.calls == 2 and ep.calls == 1 and twin.state_hash() != ep.state_hash()


def test_task_episode_fork_64_ways_each_branch_equals_its_serial_replay(task, snapshot_cache):
    pool = EnvPool(snapshot_cache)
    rng = random.Random(35)
    prefix = random_banking_calls(rng, 6)
    root = TaskEpisode(task, pool=pool)
    for name, args in prefix:
        root.call(name, args)
    root_hash, root_calls = root.state_hash(), root.calls
    branches = [root.fork() for _ in range(64)]
    plans = [random_banking_calls(rng, rng.randint(1, 6)) for _ in branches]
    for i in rng.sample(range(64), 64):  # interleaved, so a shared byte would show
        for name, args in plans[i]:
            branches[i].call(name, args)
    assert root.state_hash() == root_hash and root.calls == root_calls  # the root never moved
    finals = []
    for branch, plan in zip(branches, plans, strict=True):
        assert branch.state_hash() == serial_hash(task, pool, prefix + plan)
        assert branch.calls == root_calls + len(plan)
        finals.append(branch.state_hash())
    assert len(set(finals)) > 48  # the branches really diverged
    for branch in branches:
        branch.close()


def test_a_forked_conversation_keeps_its_turn_and_history(task, snapshot_cache):
    conv = Conversation(TaskEpisode(task, pool=EnvPool(snapshot_cache)))
    call = {"id": "c1", "type": "function", "function": {"name": "banking_deposit", "arguments": "{}"}}
    call["function"]["arguments"] = json.dumps({"account": "ACC-000001", "amount": 3})
    conv.step({"role": "assistant", "content": None, "tool_calls": [call]})
    branch = conv.fork()
    assert branch.turn == conv.turn and branch.history == conv.history and branch.history is not conv.history
    assert branch.session.state_hash() == conv.session.state_hash()
    branch.step({"role": "assistant", "content": "done"})
    assert branch.done and not conv.done and len(conv.history) == 2


def test_store_adopt_refuses_a_live_target_and_renews_an_expired_one(make_env):
    clock = [0.0]
    env = make_env("banking")
    store = EpisodeStore(env.snapshots, max_sessions=2, idle_ttl=10, clock=lambda: clock[0])
    store.get("a")
    with pytest.raises(SessionLive, match="'a' is live"):
        store.adopt("a", env.open())
    clock[0] = 11.0  # "a" sat idle past the TTL: it is no longer live, and a fork may take its id
    store.adopt("a", env.open())
    store.adopt("b", env.open())
    with pytest.raises(StoreFull):
        store.adopt("c", env.open())


def test_a_shard_refuses_a_fork_into_another_shards_id(make_env):
    env = make_env("banking")
    env.store.custodian = ShardCustodian(0, 2)
    [src, mine] = _ids(0, "own", 2)
    [theirs] = _ids(1, "own", 1)
    env.store.get(src)
    brancher = Brancher(env, Binder(env))
    with pytest.raises(NotOwned, match="belongs to shard 1 of 2"):
        brancher.fork(src, theirs)
    assert brancher.fork(src, mine)["from"] == src and theirs not in env.store


def test_episode_bytes_round_trip_and_foreign_bytes_are_refused(make_env):
    env = make_env("banking,email")
    ep = env.open()
    env.invoke(ep, "banking_deposit", {"account": "ACC-000001", "amount": 5})
    image = unpack(pack(ep, "src", {"note": 1}))
    assert image.source == "src" and image.calls == 1 and image.extra == {"note": 1}
    assert image.images["email"] is None and image.images["banking"] == ep.fork("banking").serialize()
    banking, email = env.snapshots()["banking"], env.snapshots()["email"]
    opened = open_image(banking, image.images["banking"])
    moved = Fork.of_state(banking, opened)
    assert (
        moved.content_hash() == ep.fork("banking").content_hash()
        and moved.diff() == ep.fork("banking").diff()
    )
    with pytest.raises(ImageError, match="do not have the schema"):
        open_image(banking, email.data)  # a database, but not a fork of this snapshot
    with pytest.raises(ImageError, match="not a database"):
        open_image(banking, b"\0" * 4096)
    good = pack(ep, "src")
    bad = [b"", good[:30], good.replace(b'"calls":1', b'"calls":-1'), good + b"x"]
    for body in bad:
        with pytest.raises(ImageError, match="episode image"):
            unpack(body)


def test_image_body_limit_needs_the_token():
    def scope(path: str, auth: bytes | None = None, method: str = "POST") -> dict:
        headers = [(b"authorization", auth)] if auth else []
        return {"method": method, "path": path, "headers": headers}

    limit = image_body_limit(TOKEN)
    assert limit(scope("/admin/sessions/x/import", f"Bearer {TOKEN}".encode())) == IMAGE_MAX_BODY
    assert limit(scope("/admin/sessions/x/import", b"Bearer nope")) is None
    assert limit(scope("/admin/sessions/x/import")) is None
    assert limit(scope("/admin/sessions/x/bind", f"Bearer {TOKEN}".encode())) is None
    assert image_body_limit(None)(scope("/admin/sessions/x/import")) == IMAGE_MAX_BODY
    assert image_body_limit(None)(scope("/admin/sessions/x/import", method="GET")) is None


# -- one server, over HTTP ----------------------------------------------------------------------


async def _mcp_calls(url: str, sid: str, calls) -> list:
    async with Client(StreamableHttpTransport(url, headers={"X-Env-Session": sid})) as client:
        out = []
        for name, args in calls:
            res = await client.call_tool(name, args, raise_on_error=False)
            out.append(res.structured_content if not res.is_error else "error")
        return out


def test_fork_over_http_with_an_mcp_client_and_every_refusal(make_env, task):
    env = make_env("banking")
    with serving_in_thread(build_http_app(env, admin_token=TOKEN)) as port:
        base = f"http://127.0.0.1:{port}"
        admin = httpx.Client(base_url=base, headers=AUTH, timeout=30)
        prefix = [("banking_deposit", {"account": "ACC-000001", "amount": 11})]
        asyncio.run(_mcp_calls(base + "/mcp", "root", prefix))
        forked = admin.post("/admin/sessions/root/fork", json={"to": "left"}).json()
        assert forked["from"] == "root" and forked["calls"] == 1
        assert forked["hash"] == admin.get("/admin/sessions/root/state").json()["hash"]
        left = [("banking_withdraw", {"account": "ACC-000001", "amount": 4})]
        seen = asyncio.run(_mcp_calls(base + "/mcp", "left", left))
        root_balance = asyncio.run(
            _mcp_calls(base + "/mcp", "root", [("banking_get_balance", {"account": "ACC-000001"})])
        )
        assert round(root_balance[0]["balance"] - seen[0]["balance"], 2) == 4.0
        replay = env.open()
        for name, args in prefix + left:
            env.call(replay, name, args)
        assert admin.get("/admin/sessions/left/state").json()["hash"] == replay.state_hash()

        refusals = {
            ("root", None): (400, "fork body must be JSON"),
            ("root", b"[1]"): (400, "fork body must be JSON"),
            ("root", b'{"to": "two words"}'): (400, "1-128 characters"),
            ("root", b'{"to": "left"}'): (409, "'left' is live"),
            ("root", b'{"to": "root"}'): (409, "'root' is live"),
            ("ghost", b'{"to": "new"}'): (404, "no env session 'ghost'"),
        }
        for (sid, body), (status, words) in refusals.items():
            r = admin.post(f"/admin/sessions/{sid}/fork", content=body)
            assert (r.status_code, words in r.json()["error"]) == (status, True), r.text
        r = httpx.post(f"{base}/admin/sessions/root/fork", json={"to": "x"})
        assert r.status_code == 401 and "Bearer" in r.json()["error"]
        assert "x" not in env.store and "new" not in env.store

        # a task-bound session forks with its binding: the branch lists the task's tools only
        bound = AdminClient(base, TOKEN)
        bound.bind("task-root", task.model_copy(update={"tools": task.tools[:2]}))
        out = bound.fork("task-root", "task-branch")
        assert out["task"] == task.id
        names = asyncio.run(_list_tools(base + "/mcp", "task-branch"))
        assert names == sorted(t["function"]["name"] for t in task.tools[:2])
        with pytest.raises(SessionError, match="HTTP 409"):
            bound.fork("task-root", "task-branch")
        bound.close()


def test_an_mcp_session_forks_into_a_session_of_its_own(make_env, task, snapshot_cache):
    from rollout.mcp_session import McpSessions

    env = make_env("banking")
    with serving_in_thread(build_http_app(env, admin_token=TOKEN)) as port:
        sessions = McpSessions(f"http://127.0.0.1:{port}/mcp", run_id="fork", admin_token=TOKEN)
        try:
            root = sessions(task)
            root.call("banking_deposit", {"account": "ACC-000001", "amount": 9})
            branch = root.fork()
            assert branch.sid != root.sid and branch.calls == root.calls == 1
            assert branch.state_hash() == root.state_hash()
            branch.call("banking_withdraw", {"account": "ACC-000001", "amount": 9})
            pool = EnvPool(snapshot_cache)
            deposit = [("banking_deposit", {"account": "ACC-000001", "amount": 9})]
            assert root.state_hash() == serial_hash(task, pool, deposit)
            assert branch.state_hash() == serial_hash(
                task, pool, [*deposit, ("banking_withdraw", {"account": "ACC-000001", "amount": 9})]
            )
            branch.close()
            assert branch.sid not in env.store and root.sid in env.store
        finally:
            sessions.close()


async def _list_tools(url: str, sid: str) -> list[str]:
    async with Client(StreamableHttpTransport(url, headers={"X-Env-Session": sid})) as client:
        return sorted(t.name for t in await client.list_tools())


def test_import_takes_bodies_over_4_mib_only_with_the_token(make_env):
    env = make_env("banking")
    with serving_in_thread(build_http_app(env, admin_token=TOKEN)) as port:
        base = f"http://127.0.0.1:{port}"
        big = b"toolground-episode/1\n2\n{}" + b"\0" * (5 * 2**20)
        r = httpx.post(f"{base}/admin/sessions/imp/import", content=big, headers=AUTH, timeout=30)
        assert r.status_code == 400 and "header needs" in r.json()["error"]  # read whole, then refused
        r = httpx.post(f"{base}/admin/sessions/imp/import", content=big, timeout=30)
        assert r.status_code == 413
        r = httpx.post(f"{base}/admin/sessions/imp/bind", content=big, headers=AUTH, timeout=30)
        assert r.status_code == 413  # only an episode's bytes get the larger limit


# -- two shards behind gateways -----------------------------------------------------------------


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    cache = tmp_path_factory.mktemp("fork-cluster")
    args = ("--domains", "banking", "--scale", "small", "--workers", "2", "--admin-token", TOKEN)
    with running_server(cache, *args, timeout=120) as base:
        yield base


def _ids(shard: int, prefix: str, n: int) -> list[str]:
    found = (f"{prefix}-{i}" for i in range(10_000))
    return [sid for sid in found if owner(sid, 2) == shard][:n]


def _shard_counts(admin: httpx.Client) -> dict[int, int]:
    return {s["index"]: s["count"] for s in admin.get("/admin/sessions").json()["shards"]}


def test_fan_out_through_the_gateways_lands_in_each_targets_shard(cluster, make_env):
    env = make_env("banking")
    admin = httpx.Client(base_url=cluster, headers=AUTH, timeout=60)
    [root] = _ids(0, "fan-root", 1)
    targets = _ids(0, "fan-b", 4) + _ids(1, "fan-b", 4)  # four beside the root, four across
    rng = random.Random(7)
    prefix = random_banking_calls(rng, 5)
    asyncio.run(_mcp_calls(cluster + "/mcp", root, prefix))
    root_hash = admin.get(f"/admin/sessions/{root}/state").json()["hash"]
    counts = _shard_counts(admin)
    plans = {}
    for target in targets:
        out = admin.post(f"/admin/sessions/{root}/fork", json={"to": target})
        assert out.status_code == 200, out.text
        assert out.json()["hash"] == root_hash and out.json()["calls"] == 5
        plans[target] = random_banking_calls(rng, rng.randint(1, 4))
    for target, plan in plans.items():
        asyncio.run(_mcp_calls(cluster + "/mcp", target, plan))
    assert _shard_counts(admin) == {0: counts[0] + 4, 1: counts[1] + 4}  # each in its own shard
    for target, plan in plans.items():
        replay = env.open()
        for name, args in prefix + plan:
            env.call(replay, name, args)
        state = admin.get(f"/admin/sessions/{target}/state").json()
        assert state["hash"] == replay.state_hash() and state["calls"] == 5 + len(plan), target
    assert admin.get(f"/admin/sessions/{root}/state").json()["hash"] == root_hash


def test_cross_shard_refusals_and_a_bound_session(cluster, task):
    admin = httpx.Client(base_url=cluster, headers=AUTH, timeout=60)
    [src, live] = _ids(0, "x-src", 2)
    [far] = _ids(1, "x-far", 1)
    [ghost] = _ids(0, "x-ghost", 1)
    asyncio.run(
        _mcp_calls(cluster + "/mcp", src, [("banking_deposit", {"account": "ACC-000003", "amount": 2})])
    )
    asyncio.run(_mcp_calls(cluster + "/mcp", far, [("banking_get_balance", {"account": "ACC-000003"})]))
    cases = {
        (ghost, json.dumps({"to": _ids(1, "x-new", 1)[0]})): (404, f"no env session {ghost!r}"),
        (src, json.dumps({"to": far})): (409, f"{far!r} is live"),
        (src, "not json"): (400, "fork body must be JSON"),
        (src, json.dumps({"to": "a b"})): (400, "1-128 characters"),
    }
    for (sid, body), (status, words) in cases.items():
        r = admin.post(f"/admin/sessions/{sid}/fork", content=body)
        assert r.status_code == status and words in r.json()["error"], r.text
    r = httpx.post(f"{cluster}/admin/sessions/{src}/fork", json={"to": _ids(1, "x-t", 1)[0]}, timeout=30)
    assert r.status_code == 401
    r = admin.post(f"/admin/sessions/{src}/fork", json={"to": live})  # same shard, a new id
    assert r.status_code == 200

    client = AdminClient(cluster, TOKEN)
    [bound_src] = _ids(0, "x-bound", 1)
    [bound_far] = _ids(1, "x-bound-far", 1)
    client.bind(bound_src, task)
    out = client.fork(bound_src, bound_far)
    assert out["task"] == task.id and out["from"] == bound_src
    assert client.state(bound_far)["task"] == task.id
    names = asyncio.run(_list_tools(cluster + "/mcp", bound_far))
    assert names == sorted(t["function"]["name"] for t in task.tools)
    client.close()
