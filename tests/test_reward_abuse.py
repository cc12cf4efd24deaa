"""The reward service under abuse (issue 37, items 4-6), through a real uvicorn on 127.0.0.1.

4. configs whose weights overflow are a 422 naming the field; in a batch only that item fails;
5. worlds built on demand are capped (count and bytes, least recently used dropped), a sha256
   that cannot match is refused before anything is built, and ``no-build`` serves only the
   worlds the service started with;
6. the Host/Origin rules of ``toolground serve``, and a JSON content type on every POST;

plus a fuzz of the config and batch shapes: whatever is sent, the answer is a score or a JSON
4xx, never a 500.
"""

from __future__ import annotations

import json
import math

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rewards import EnvPool
from rewards.build import task_from_calls
from rewards.service import create_app
from servers.runtime import Environment
from state import SnapshotCache
from tests.serving import serving_in_thread
from tests.test_reward_service import GOOD, MINI, post


@pytest.fixture(scope="module")
def client():
    app = create_app(pool=EnvPool(), max_body=1 << 20, workers=2)
    with (
        serving_in_thread(app, lifespan="off") as port,
        httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as c,
    ):
        yield c


# -- item 4: weights that overflow ------------------------------------------------------------------

HUGE = [
    ({"w_val": 1e308, "w_cov": 1e308}, "w_val"),
    ({"w_cov": -1e308}, "w_cov"),
    ({"beta": 1e308}, "beta"),
    ({"alpha": 1e300}, "alpha"),
    ({"abstain_reward": 1e308}, "abstain_reward"),
    ({"efficiency_clip": -1e308}, "efficiency_clip"),
    ({"collateral_penalty": 1e308}, "collateral_penalty"),
    ({"answer_facts": 10**30}, "answer_facts"),
]


@pytest.mark.parametrize(("config", "field"), HUGE)
def test_a_config_past_the_bounds_is_a_422_naming_the_field(client, config, field):
    r = post(client, "/score", {"task": MINI, "trajectory": GOOD, "config": config})
    assert r.status_code == 422, r.text
    err = r.json()
    assert field in err["error"] and "allowed: at least" in err["error"], err
    assert any(d["loc"][:2] == ["config", field] for d in err["detail"]), err


def test_weights_inside_the_bounds_still_score(client):
    config = {"w_val": 1e6, "w_cov": 1e6, "w_name": 1e6, "w_arg": 1e6, "alpha": 1e6, "beta": 1e6}
    r = post(client, "/score", {"task": MINI, "trajectory": GOOD, "config": config})
    assert r.status_code == 200, r.text
    assert r.json()["total"] == pytest.approx(4e6)


def test_one_overflowing_item_fails_alone_in_a_batch(client):
    body = {
        "items": [
            {"task": MINI, "trajectory": GOOD},
            {"task": MINI, "trajectory": GOOD, "config": {"w_val": 1e308, "w_cov": 1e308}},
            {"task": MINI, "trajectory": GOOD, "config": "recall"},
        ]
    }
    r = post(client, "/score/batch", body)
    assert r.status_code == 200, r.text
    res = r.json()["results"]
    assert res[0]["total"] == pytest.approx(1.3) and res[2]["total"] == 1.0
    assert "w_val" in res[1]["error"] and res[1]["detail"][0]["loc"][:3] == ["items", 1, "config"]
    assert r.json()["errors"] == 1


def test_an_overflowing_batch_wide_config_is_the_whole_requests_422(client):
    body = {"items": [{"task": MINI, "trajectory": GOOD}], "config": {"beta": 1e308}}
    r = post(client, "/score/batch", body)
    assert r.status_code == 422 and "beta" in r.json()["error"], r.text


# -- item 6: Host/Origin and content type ---------------------------------------------------------


@pytest.mark.parametrize(
    ("headers", "status", "needle"),
    [
        ({"host": "evil.example"}, 421, "Host"),
        ({"origin": "http://evil.example"}, 403, "Origin"),
        ({"host": "127.0.0.1", "origin": "https://attacker.test:8100"}, 403, "Origin"),
    ],
)
def test_foreign_host_or_origin_is_refused_as_serve_does(client, headers, status, needle):
    for method, path in (("POST", "/score"), ("POST", "/score/batch"), ("GET", "/health")):
        body = json.dumps({"task": MINI, "trajectory": GOOD}) if method == "POST" else None
        h = {"content-type": "application/json", **headers}
        r = client.request(method, path, content=body, headers=h)
        assert r.status_code == status, (path, r.text)
        assert needle in r.json()["error"], r.text


def test_loopback_origins_and_hosts_pass(client):
    for headers in ({"origin": "http://localhost:3000"}, {"host": "localhost"}, {"host": "[::1]:8100"}):
        h = {"content-type": "application/json", **headers}
        r = client.post("/score", content=json.dumps({"task": MINI, "trajectory": GOOD}), headers=h)
        assert r.status_code == 200, (headers, r.text)


def test_a_remembered_pass_lets_no_other_host_or_origin_through(client):
    body = json.dumps({"task": MINI, "trajectory": GOOD})
    ok = {"content-type": "application/json", "host": "localhost:8100", "origin": "http://localhost:3000"}
    for _ in range(3):  # the pass is remembered from here on
        assert client.post("/score", content=body, headers=ok).status_code == 200
    assert (
        client.post("/score", content=body, headers={**ok, "origin": "http://evil.example"}).status_code
        == 403
    )
    assert client.post("/score", content=body, headers={**ok, "host": "evil.example"}).status_code == 421


@pytest.mark.parametrize(
    "ctype", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data", None]
)
@pytest.mark.parametrize("path", ["/score", "/score/batch", "/openrlhf"])
def test_a_post_that_is_not_json_typed_is_a_415(client, ctype, path):
    body = json.dumps({"task": MINI, "trajectory": GOOD}).encode()
    headers = {} if ctype is None else {"content-type": ctype}
    r = client.post(path, content=body, headers=headers)
    assert r.status_code == 415, r.text
    assert "application/json" in r.json()["error"]


def test_json_content_types_with_parameters_are_accepted(client):
    body = json.dumps({"task": MINI, "trajectory": GOOD})
    for ctype in ("application/json; charset=utf-8", "Application/JSON"):
        r = client.post("/score", content=body, headers={"content-type": ctype})
        assert r.status_code == 200, (ctype, r.text)


# -- item 5: worlds built on demand ---------------------------------------------------------------


@pytest.fixture(scope="module")
def worlds(tmp_path_factory):
    """Tasks on banking small seeds 0-3, made in a cache of their own; and a fresh cache to serve from."""
    made = SnapshotCache(tmp_path_factory.mktemp("made"))
    tasks = {}
    for seed in range(4):
        env = Environment("banking", seed=seed, scale="small", cache=made)
        gold = [("banking_list_records", {"table": "accounts", "limit": 1})]
        tasks[seed] = task_from_calls(env, [("list", gold)], task_id=f"s{seed}").model_dump(mode="json")
    return tasks, tmp_path_factory


def _served(tmp_path_factory, **pool_kw):
    cache = SnapshotCache(tmp_path_factory.mktemp("served"))
    pool = EnvPool(cache, **pool_kw)
    return pool, cache


def _traj(task):
    return [{"name": c["name"], "arguments": c["arguments"]} for c in task["turns"][0]["calls"]]


def _score(c, task, config="prove+outcome"):
    return post(c, "/score", {"task": task, "trajectory": _traj(task), "config": config})


def test_on_demand_worlds_are_capped_least_recently_used_first(worlds):
    tasks, tmp = worlds
    pool, _ = _served(tmp, max_worlds=2)
    app = create_app(pool=pool, workers=1)
    with (
        serving_in_thread(app, lifespan="off") as port,
        httpx.Client(base_url=f"http://127.0.0.1:{port}") as c,
    ):
        for seed in (0, 1, 0, 2, 3):
            r = _score(c, tasks[seed])
            assert r.status_code == 200 and r.json()["details"]["level3_source"] == "replay", r.text
            w = c.get("/health").json()["worlds"]
            assert w["on_demand"] <= 2 and w["max_worlds"] == 2, w
        w = c.get("/health").json()["worlds"]
        assert sorted(w["on_demand_worlds"]) == ["banking:2:small", "banking:3:small"], w
        assert w["built"] == 4, w  # seed 0 was reused while it was among the two kept


def test_on_demand_worlds_are_capped_by_bytes(worlds):
    tasks, tmp = worlds
    pool, _ = _served(tmp, max_world_bytes=1)  # smaller than any world: nothing is kept
    app = create_app(pool=pool, workers=1)
    with (
        serving_in_thread(app, lifespan="off") as port,
        httpx.Client(base_url=f"http://127.0.0.1:{port}") as c,
    ):
        r = _score(c, tasks[1])
        assert r.status_code == 422, r.text
        assert "max-world-mb" in r.json()["error"] and "banking:1:small" in r.json()["error"]
        assert c.get("/health").json()["worlds"]["on_demand_bytes"] == 0


@pytest.mark.parametrize("sha", ["not-a-sha", "ab" * 31, "AB" * 32 + "x"])
def test_a_sha256_that_cannot_match_is_refused_before_building(worlds, sha):
    tasks, tmp = worlds
    pool, cache = _served(tmp)
    task = json.loads(json.dumps(tasks[2]))
    task["snapshots"][0]["sha256"] = sha
    app = create_app(pool=pool, workers=1)
    with (
        serving_in_thread(app, lifespan="off") as port,
        httpx.Client(base_url=f"http://127.0.0.1:{port}") as c,
    ):
        r = _score(c, task)
        assert r.status_code == 422 and "sha256" in r.json()["error"], r.text
        assert "64 hex" in r.json()["error"]
    assert not list(cache.root.glob("banking-seed2-*")) if cache.root.exists() else True
    assert len(pool) == 0


def test_a_sha256_known_not_to_match_is_refused_without_rebuilding(worlds):
    tasks, tmp = worlds
    pool, _ = _served(tmp, max_worlds=1)
    app = create_app(pool=pool, workers=1)
    wrong = json.loads(json.dumps(tasks[1]))
    wrong["snapshots"][0]["sha256"] = "0" * 64
    with (
        serving_in_thread(app, lifespan="off") as port,
        httpx.Client(base_url=f"http://127.0.0.1:{port}") as c,
    ):
        assert _score(c, tasks[1]).status_code == 200
        assert _score(c, tasks[2]).status_code == 200  # seed 1 is dropped (one world kept)
        built = c.get("/health").json()["worlds"]["built"]
        r = _score(c, wrong)
        assert r.status_code == 422 and "sha256" in r.json()["error"], r.text
        assert c.get("/health").json()["worlds"]["built"] == built  # seed 1 was not built again


def test_no_build_serves_only_the_worlds_it_started_with(worlds, make_env):
    tasks, tmp = worlds
    pool, _ = _served(tmp, build=False)
    started = Environment("banking", seed=0, scale="small", cache=pool.cache)
    pool.add(started)
    app = create_app(pool=pool, workers=1)
    with (
        serving_in_thread(app, lifespan="off") as port,
        httpx.Client(base_url=f"http://127.0.0.1:{port}") as c,
    ):
        assert _score(c, tasks[0]).status_code == 200
        r = _score(c, tasks[3])
        assert r.status_code == 422, r.text
        err = r.json()["error"]
        assert "banking:3:small" in err and "--no-build" in err and "banking:0:small" in err
        w = c.get("/health").json()["worlds"]
        assert w["build"] is False and w["built"] == 0 and w["started"] == ["banking:0:small"]


# -- fuzz: config and batch shapes ----------------------------------------------------------------

NUMBERS = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False),
    st.integers(min_value=-(10**40), max_value=10**40),
    st.sampled_from([0, -0.0, 1e-320, 1e308, -1e308, 2**63, -(2**63)]),
)
FIELDS = st.sampled_from(
    [
        "w_val",
        "w_cov",
        "w_eff",
        "w_name",
        "w_arg",
        "w_out",
        "w_pol",
        "alpha",
        "beta",
        "efficiency_clip",
        "abstain_reward",
        "collateral_penalty",
        "answer_facts",
        "preset",
        "validity_mode",
        "bogus",
    ]
)
VALUES = st.one_of(
    NUMBERS, st.none(), st.booleans(), st.text(max_size=8), st.lists(st.integers(), max_size=2)
)
CONFIGS = st.one_of(
    st.none(),
    st.sampled_from(["prove", "recall", "prove+outcome", "nope", ""]),
    st.dictionaries(FIELDS, VALUES, max_size=4),
    NUMBERS,
    st.lists(st.integers(), max_size=2),
)
ITEMS = st.one_of(
    st.fixed_dictionaries({"task": st.just(MINI), "trajectory": st.just(GOOD)}, optional={"config": CONFIGS}),
    st.fixed_dictionaries({"task_index": st.integers(-2, 3), "trajectory": st.just(GOOD)}),
    st.dictionaries(st.sampled_from(["task", "task_index", "trajectory", "config", "x"]), VALUES, max_size=3),
    VALUES,
)
RAW_NUMBERS = st.sampled_from(["NaN", "Infinity", "-Infinity", "1e400", "-1e400", "1e-400", "0.1e309"])


def _ok_or_json_4xx(r: httpx.Response) -> None:
    assert r.status_code == 200 or 400 <= r.status_code < 500, r.text
    body = r.json()
    if r.status_code != 200:
        assert isinstance(body["error"], str) and body["error"] and isinstance(body["detail"], list)
    assert "Traceback" not in r.text


def _all_finite(value) -> bool:
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, dict):
        return all(_all_finite(v) for v in value.values())
    if isinstance(value, list):
        return all(_all_finite(v) for v in value)
    return True


FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@FUZZ
@given(config=CONFIGS)
def test_fuzz_score_config(client, config):
    r = post(client, "/score", {"task": MINI, "trajectory": GOOD, "config": config})
    _ok_or_json_4xx(r)
    if r.status_code == 200:
        assert _all_finite(r.json())


@FUZZ
@given(items=st.lists(ITEMS, min_size=1, max_size=5), config=CONFIGS, ntasks=st.integers(0, 2))
def test_fuzz_batch_shapes(client, items, config, ntasks):
    body = {"items": items, "tasks": [MINI] * ntasks, "config": config}
    r = post(client, "/score/batch", body)
    _ok_or_json_4xx(r)
    if r.status_code == 200:
        res = r.json()["results"]
        assert len(res) == len(items) and r.json()["errors"] == sum("error" in x for x in res)
        assert all("error" in x or math.isfinite(x["total"]) for x in res)


@FUZZ
@given(field=FIELDS, raw=RAW_NUMBERS, where=st.sampled_from(["score", "item", "batch"]))
def test_fuzz_non_finite_json_text_in_configs(client, field, raw, where):
    cfg = '{"' + field + '": ' + raw + "}"
    item = '{"task": ' + json.dumps(MINI) + ', "trajectory": ' + json.dumps(GOOD)
    body = {
        "score": item + ', "config": ' + cfg + "}",
        "item": '{"items": [' + item + ', "config": ' + cfg + "}]}",
        "batch": '{"items": [' + item + "}], " + '"config": ' + cfg + "}",
    }[where]
    r = post(client, "/score/batch" if where != "score" else "/score", body)
    _ok_or_json_4xx(r)
    if raw not in ("1e-400", "0.1e309"):  # 0.0 and 1e308: finite numbers (1e308 is past the bounds)
        assert r.status_code == 400, r.text


def test_reward_serve_no_build_cli_serves_only_its_worlds(worlds, tmp_path):
    """``reward-serve --world banking:0:small --no-build``: the real CLI process, on loopback."""
    from tests.test_reward_scale import reward_server

    tasks, _ = worlds
    args = ("--world", "banking:0:small", "--no-build", "--allowed-host", "reward.internal")
    with reward_server(tmp_path, *args) as (_, base), httpx.Client(base_url=base, timeout=60) as c:
        assert _score(c, tasks[0]).status_code == 200
        r = _score(c, tasks[1])
        assert r.status_code == 422 and "--no-build" in r.json()["error"], r.text
        health = c.get("/health").json()["worlds"]
        assert health["started"] == ["banking:0:small"] and health["build"] is False
        assert c.get("/health", headers={"host": "reward.internal"}).status_code == 200
        assert c.get("/health", headers={"host": "other.internal"}).status_code == 421


def test_concurrent_first_requests_to_a_fresh_service_all_score(worlds, tmp_path):
    """16 clients at once on a just-started service: the first readers of a domain's tools must not
    race its finalization (found benchmarking 64 clients: 'banking already has a tool named
    list_records', or an Environment without the discovery tools)."""
    import concurrent.futures

    from tests.test_reward_scale import reward_server

    tasks, _ = worlds
    with reward_server(tmp_path, "--threads", "8") as (_, base):

        def one(k: int) -> httpx.Response:
            with httpx.Client(base_url=base, timeout=60) as c:
                return _score(c, tasks[0])

        with concurrent.futures.ThreadPoolExecutor(16) as ex:
            answers = list(ex.map(one, range(16)))
    for r in answers:
        assert r.status_code == 200 and r.json()["details"]["level3_source"] == "replay", r.text
