"""The reward service, started for real with uvicorn on 127.0.0.1, fed good and bad requests."""

from __future__ import annotations

import json

import httpx
import pytest

from rewards import EnvPool
from rewards.build import task_from_calls
from rewards.service import create_app
from tests.serving import serving_in_thread

MINI = {
    "gold_calls": [{"name": "f", "arguments": {"x": 1}}, {"name": "g", "arguments": {}}],
    "dependencies": [[0, 1]],
}
GOOD = [{"name": "f", "arguments": {"x": 1}}, {"name": "g", "arguments": {}}]


@pytest.fixture(scope="module")
def service(make_env):
    env = make_env("banking")
    pool = EnvPool()
    pool.add(env)
    app = create_app(pool=pool, max_body=1 << 20, workers=2)
    with (
        serving_in_thread(app, lifespan="off") as port,
        httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client,
    ):
        yield client, env


def post(client, path: str, body, **kw) -> httpx.Response:
    content = body if isinstance(body, bytes | str) else json.dumps(body)
    return client.post(path, content=content, headers={"content-type": "application/json"}, **kw)


def test_health_reports_version_and_presets(service):
    client, _ = service
    r = client.get("/health")
    assert r.status_code == 200
    body = r.json()
    assert (
        body["status"] == "ok"
        and body["version"]
        and set(body["presets"]) == {"prove", "prove+outcome", "prove+policy", "prove+paths", "recall"}
    )
    assert body["presets"]["prove"]["w_val"] == 0.5


def test_score_minimal_task_and_a_real_task_with_outcome(service):
    client, env = service
    r = post(client, "/score", {"task": MINI, "trajectory": GOOD})
    assert r.status_code == 200 and r.json()["total"] == pytest.approx(1.3)
    assert r.json()["details"]["alignment"][1] == {"gold": 1, "pred": 1, "order_ok": True, "arg_match": 1.0}
    ep = env.open()
    acc = env.invoke(ep, "banking_list_records", {"table": "accounts", "field": "status", "value": "open"})[
        "rows"
    ]
    src, dst = [a["id"] for a in acc if a["balance"] > 50][:2]
    gold = [("banking_transfer", {"source": src, "target": dst, "amount": 5.0})]
    task = task_from_calls(env, [("send 5", gold)], task_id="svc").model_dump(mode="json")
    traj = [{"name": n, "arguments": a} for n, a in gold]
    r = post(client, "/score", {"task": task, "trajectory": traj, "config": "prove+outcome"})
    assert r.status_code == 200, r.text
    assert r.json()["components"]["outcome"] == 1.0 and r.json()["preset"] == "prove+outcome"


@pytest.mark.parametrize(
    ("body", "status", "needle"),
    [
        (b"{not json", 400, "malformed JSON"),
        (b"", 400, "empty request body"),
        (b'{"task": {"gold_calls": []}, "trajectory": [], "x": NaN}', 400, "NaN"),
        (
            b'{"task": {"gold_calls": [{"name": "f", "arguments": {"x": Infinity}}]}, "trajectory": []}',
            400,
            "Infinity",
        ),
        (b"\xff\xfe\x00garbage", 400, "malformed JSON"),
        (b'{"task": {"gold_calls": []}, "trajectory": [], "config": {"alpha": 1e400}}', 400, "out of range"),
        ({"task": MINI, "trajectory": '<tool_call>{"name": "f", "arguments": ' + "[" * 50000}, 200, "total"),
        (b"[" * 100_000 + b"]" * 100_000, 400, "nested too deeply"),
        ([1, 2], 422, "expected a JSON object"),
        ({"task": MINI, "trajectory": GOOD, "surprise": 1}, 422, "surprise"),
        ({"trajectory": GOOD}, 422, "task"),
        ({"task": {**MINI, "extra": 1}, "trajectory": GOOD}, 422, "extra"),
        ({"task": {"gold_calls": [{"name": "f", "arguments": "x=1"}]}, "trajectory": []}, 422, "arguments"),
        ({"task": MINI, "trajectory": [{"name": "f", "arguments": [1]}]}, 422, "arguments must be an object"),
        ({"task": {**MINI, "dependencies": [[0, 9]]}, "trajectory": []}, 422, "dependency 0"),
        ({"task": MINI, "trajectory": GOOD, "config": "greedy"}, 422, "unknown preset"),
        ({"task": MINI, "trajectory": GOOD, "config": {"alpha": -1}}, 422, "alpha"),
        ({"task": MINI, "trajectory": 5}, 422, "trajectory"),
    ],
)
def test_bad_input_is_a_4xx_json_error_naming_the_problem(service, body, status, needle):
    client, _ = service
    r = post(client, "/score", body)
    assert r.status_code == status, r.text
    err = r.json()
    if status == 200:  # what the model wrote is scored, however broken
        assert needle in err and err["details"]["validity_levels"] == [0]
        return
    assert needle in err["error"] + json.dumps(err["detail"]) and isinstance(err["detail"], list)
    assert "Traceback" not in r.text


def test_oversized_bodies_are_refused_with_413(service):
    client, _ = service
    big = {"task": MINI, "trajectory": [{"name": "f", "arguments": {"pad": "x" * (2 << 20)}}]}
    r = post(client, "/score", big)
    assert r.status_code == 413 and "limit" in r.json()["error"]

    def chunks():  # no content-length: the limit is enforced while streaming
        yield b'{"task": {"gold_calls": []}, "trajectory": "'
        for _ in range(40):
            yield b"y" * 65536
        yield b'"}'

    r = client.post("/score", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413


def test_unknown_routes_and_methods_are_json_errors(service):
    client, _ = service
    assert client.get("/score").status_code == 405 and "error" in client.get("/score").json()
    assert client.get("/nope").status_code == 404 and "error" in client.get("/nope").json()


def test_batch_scores_good_items_and_reports_bad_ones(service):
    client, _ = service
    body = {
        "tasks": [MINI, {"gold_calls": "oops"}],
        "items": [
            {"task_index": 0, "trajectory": GOOD},
            {"task_index": 0, "trajectory": GOOD[:1]},
            {"task": MINI, "trajectory": [{"name": "f", "arguments": 3}]},
            {"task_index": 1, "trajectory": GOOD},
            {"task_index": 7, "trajectory": GOOD},
            {"task": MINI, "task_index": 0, "trajectory": GOOD},
            {"task": MINI, "trajectory": GOOD, "bogus": True},
            "not an object",
            {"task": MINI, "trajectory": GOOD, "config": "recall"},
        ],
    }
    r = post(client, "/score/batch", body)
    assert r.status_code == 200, r.text
    res = r.json()["results"]
    assert res[0]["total"] == pytest.approx(1.3) and res[1]["total"] < res[0]["total"]
    assert "arguments must be an object" in res[2]["error"]
    assert "gold_calls" in res[3]["error"]
    assert "task_index 7" in res[4]["error"]
    assert "exactly one" in res[5]["error"]
    assert "bogus" in res[6]["error"]
    assert "expected a JSON object" in res[7]["error"]
    assert res[8]["preset"] == "recall" and res[8]["total"] == 1.0
    assert r.json()["errors"] == 6


@pytest.mark.parametrize(
    ("body", "needle"),
    [
        ({"items": []}, "items"),
        ({"items": {"a": 1}}, "items"),
        ({"items": [{"task": MINI, "trajectory": GOOD}], "config": "nope"}, "unknown preset"),
        ({"items": [{"task": MINI, "trajectory": GOOD}], "extra": 1}, "extra"),
    ],
)
def test_batch_level_problems_fail_the_request(service, body, needle):
    client, _ = service
    r = post(client, "/score/batch", body)
    assert r.status_code == 422 and needle in r.json()["error"] + json.dumps(r.json()["detail"])


def test_openrlhf_endpoint_speaks_openrlhf(service):
    client, _ = service
    prompt = "<|im_start|>system\nTools: <tool_call>{example}</tool_call><|im_end|>\n<|im_start|>assistant\n"
    response = (
        '<tool_call>{"name": "f", "arguments": {"x": 1}}</tool_call><|im_end|>\n<|im_start|>user\n'
        "<tool_response>{}</tool_response><|im_end|>\n<|im_start|>assistant\n"
        '<tool_call>{"name": "g", "arguments": {}}</tool_call><|im_end|>'
    )
    body = {
        "query": [prompt + response, prompt + "no tools needed"],
        "prompts": [prompt, prompt],
        "labels": [json.dumps(MINI), MINI],
    }
    r = post(client, "/openrlhf?preset=prove+outcome", body)
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["rewards"][0] == pytest.approx(1.3) and out["rewards"][1] == 0.0
    assert out["scores"][0] == 1.0 and set(out["extra_logs"]) >= {
        "validity",
        "coverage",
        "efficiency",
        "name",
        "arg",
    }
    assert all(len(v) == 2 for v in out["extra_logs"].values())
    bad = post(client, "/openrlhf", {"query": ["a"], "prompts": ["a"], "labels": ['{"gold_calls": 5}']})
    assert bad.status_code == 422 and "labels[0]" in bad.json()["error"]
    short = post(client, "/openrlhf", {"query": ["a", "b"], "prompts": ["a"], "labels": [MINI, MINI]})
    assert short.status_code == 422 and "same length" in short.json()["error"]


def _deep(depth: int) -> str:
    return "[" * depth + "1" + "]" * depth


def _call(args: str) -> str:
    return '{"name": "f", "arguments": ' + args + "}"


@pytest.mark.parametrize("depth", [1_000, 100_000])
@pytest.mark.parametrize("route", ["/score", "/score/batch", "/openrlhf"])
def test_deeply_nested_arguments_are_a_400_on_every_route(service, route, depth):
    client, _ = service
    call = _call('{"x": ' + _deep(depth) + "}")
    task = '{"gold_calls": [' + call + "]}"
    item = '{"task": ' + task + ', "trajectory": [' + call + "]}"
    body = {
        "/score": item,
        "/score/batch": '{"items": [' + item + "]}",
        "/openrlhf": '{"query": ["q"], "prompts": [""], "labels": [' + task + "]}",
    }[route]
    r = post(client, route, body)
    assert r.status_code == 400 and r.json()["error"] == "JSON nested too deeply", r.text


@pytest.mark.parametrize("depth", [400, 700, 950])
def test_nesting_the_parser_accepts_is_scored_without_recursion(service, depth):
    """Below the JSON parser's limit the comparison itself must not recurse (it used to answer 500)."""
    client, _ = service

    def body(gold: str, sent: str, config: str) -> str:
        task = '{"gold_calls": [' + _call(gold) + "]}"
        return '{"task": ' + task + ', "trajectory": [' + _call(sent) + '], "config": ' + config + "}"

    args = '{"x": ' + _deep(depth) + "}"
    for config in ('"prove"', '{"arg_normalize": true}'):
        r = post(client, "/score", body(args, args, config))
        assert r.status_code == 200 and r.json()["components"]["arg"] == 1.0, r.text
    r = post(client, "/score", body(args, args.replace("1", "2"), '"prove"'))
    assert r.status_code == 200 and r.json()["components"]["arg"] < 1.0, r.text


def test_a_deep_tool_call_inside_model_text_scores_zero_not_an_error(service):
    """In /openrlhf the calls are text the model wrote: one too deep to parse is an invalid call."""
    client, _ = service
    query = "<tool_call>" + _call('{"x": ' + _deep(100_000) + "}") + "</tool_call>"
    r = post(client, "/openrlhf", {"query": [query], "prompts": [""], "labels": [MINI]})
    assert r.status_code == 200 and r.json()["rewards"] == [0.0], r.text
