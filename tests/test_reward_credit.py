"""Per-call credit labels on real banking tasks: each label, its precedence, harm from replay, HTTP."""

from __future__ import annotations

import json
import pickle
import sqlite3

import httpx
import pytest

from rewards import EnvPool, prepare_task, score
from rewards.adapters import compute_score, reward_func
from rewards.build import task_from_calls
from rewards.credit import LABELS
from rewards.service import create_app
from state import changelog
from tests.domain_helpers import funded_accounts, transfer
from tests.serving import serving_in_thread

OUT = "prove+outcome"


class CountingPool(EnvPool):
    """An EnvPool that counts the trajectories it replays."""

    def __init__(self) -> None:
        super().__init__()
        self.runs = 0

    def replayer(self, snapshots):
        rep = super().replayer(snapshots)
        pool, run = self, rep.run

        class Counted:
            env = rep.env

            def run(self, calls, setup=()):
                pool.runs += 1
                return run(calls, setup)

        return Counted()


@pytest.fixture(scope="module")
def bank(make_env):
    env = make_env("banking")
    pool = CountingPool()
    pool.add(env)
    return env, pool, funded_accounts(env)


def balance(account: str) -> tuple[str, dict]:
    return ("banking_get_balance", {"account": account})


def as_calls(pairs) -> list[dict]:
    return [{"name": n, "arguments": a} for n, a in pairs]


def labels(result) -> list[str]:
    return [c["label"] for c in result.details["calls"]]


@pytest.fixture(scope="module")
def send(bank):
    """Read the balance, then send 10: the transfer depends on the read."""
    env, pool, (a, b, *_) = bank
    gold = [balance(a), transfer(a, b, 10.0)]
    task = prepare_task(task_from_calls(env, [("send 10", gold)], task_id="c1", dependencies=[(0, 1)]))
    return task, gold


def test_touched_since_attributes_rows_to_the_first_call_in_the_diffs_pk_form():
    conn = sqlite3.connect(":memory:", isolation_level=None)
    conn.execute("CREATE TABLE seats (flight TEXT, seat INTEGER, who TEXT, PRIMARY KEY (flight, seat))")
    conn.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
    conn.execute("INSERT INTO seats VALUES ('F1', 1, NULL), ('F1', 2, NULL)")
    base = sqlite3.connect(":memory:")
    changelog.install(conn)
    conn.execute("BEGIN")
    after, first = changelog.touched_since(conn, 0)
    assert (after, first) == (0, [])
    conn.execute("UPDATE seats SET who = 'ann' WHERE seat = 1")
    conn.execute("INSERT INTO notes (text) VALUES ('hi')")
    after, first = changelog.touched_since(conn, after)
    assert first == [("seats", '["F1", 1]'), ("notes", "1")]
    conn.execute("UPDATE seats SET who = 'bob' WHERE seat = 1")  # already touched: not reported again
    conn.execute("UPDATE seats SET who = 'cy' WHERE seat = 2")
    after2, second = changelog.touched_since(conn, after)
    assert second == [("seats", '["F1", 2]')] and after2 > after
    assert changelog.touched_since(conn, after2) == (after2, [])
    # the same pk strings the diff writes
    base.execute("CREATE TABLE seats (flight TEXT, seat INTEGER, who TEXT, PRIMARY KEY (flight, seat))")
    base.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
    base.execute("INSERT INTO seats VALUES ('F1', 1, NULL), ('F1', 2, NULL)")
    diff_pks = {(c.table, c.pk) for c in changelog.diff_rows(conn, base)}
    assert diff_pks == set(first + second)


def test_replay_reports_the_rows_each_successful_write_touched_first(bank):
    env, pool, (a, b, *_) = bank
    rep = pool.replayer(prepare_task(task_from_calls(env, [("x", [balance(a)])], task_id="c0")).snapshots)
    run = rep.run(
        [
            balance(a),
            ("banking_withdraw", {"account": a, "amount": 5.0}),
            ("banking_withdraw", {"account": a, "amount": 1e12}),  # fails: nothing recorded
            ("banking_withdraw", {"account": a, "amount": 6.0}),  # the account row is the first call's
        ]
    )
    assert run.status == [True, True, False, True]
    assert run.touched[0] == [] and run.touched[2] == []
    assert ("banking", "accounts", a) in run.touched[1] and ("banking", "accounts", a) not in run.touched[3]
    entries = [pk for d, t, pk in run.touched[1] + run.touched[3] if t == "entries"]
    assert len(entries) == 2 and all(any(c["pk"] == pk for c in run.diff) for pk in entries)


def test_the_gold_trajectory_is_all_matched(bank, send):
    _, pool, _ = bank
    task, gold = send
    r = score(task, as_calls(gold), OUT, pool=pool)
    calls = r.details["calls"]
    assert [{k: v for k, v in c.items() if k != "reason"} for c in calls] == [
        {"index": 0, "name": "banking_get_balance", "label": "matched", "gold": 0, "arg_match": 1.0},
        {"index": 1, "name": "banking_transfer", "label": "matched", "gold": 1, "arg_match": 1.0},
    ]
    assert calls[1]["reason"] == "aligned to gold call 1, argument values 1.00"
    assert r.details["label_counts"] == {**dict.fromkeys(LABELS, 0), "matched": 2}
    assert r.details["harm_checked"] is True and "harm_note" not in r.details


def test_a_repeated_read_is_redundant(bank, send):
    _, pool, _ = bank
    task, gold = send
    r = score(task, as_calls([gold[0], gold[0], gold[1]]), OUT, pool=pool)
    assert labels(r) == ["matched", "redundant", "matched"]
    assert r.details["calls"][1]["gold"] is None and "repeats" in r.details["calls"][1]["reason"]
    # a repeated write is a repeat too, but it also wrote rows the gold does not: harm comes first
    again = ("banking_transfer", {**gold[1][1], "amount": 10})
    twice = score(task, as_calls([*gold, again]), OUT, pool=pool)
    assert labels(twice) == ["matched", "matched", "harmful"]
    assert "banking.transfers[" in twice.details["calls"][2]["reason"]


def test_calls_past_the_budget_are_redundant(bank, send):
    _, pool, (a, b, c, d, *_) = bank
    task, gold = send  # 2 gold calls: budget B = 3
    r = score(task, as_calls([*gold, balance(b), balance(c), balance(d)]), OUT, pool=pool)
    assert r.details["budget"] == 3
    assert labels(r) == ["matched", "matched", "unneeded", "redundant", "redundant"]
    assert "budget of 3" in r.details["calls"][3]["reason"]


def test_invalid_calls_say_why(bank, send):
    _, pool, (a, *_) = bank
    task, gold = send
    traj = [
        *as_calls(gold),
        {"name": "banking_teleport", "arguments": {}},
        {"name": "banking_get_balance", "arguments": "account=ACC"},  # not a JSON object
        {"name": "banking_get_balance", "arguments": {}},
        {"name": "banking_get_balance", "arguments": {"account": 7}},
        {"name": "banking_withdraw", "arguments": {"account": a, "amount": 1e12}},  # fails on replay
    ]
    r = score(task, traj, OUT, pool=pool)
    calls = r.details["calls"]
    assert labels(r)[:2] == ["matched", "matched"] and set(labels(r)[2:]) == {"invalid"}
    assert [c["reason"] for c in calls[2:]] == [
        "unknown tool 'banking_teleport'",
        "arguments are not a JSON object",
        "missing required argument(s) 'account'",
        "argument 'account' is not of type string",
        "execution failed",
    ]
    assert r.details["validity_levels"][2:] == [0, 1, 1, 1, 2]  # the same verdicts as validity
    # a failure the trajectory's own tool result reports is invalid too, without replay
    msgs = [
        {
            "role": "assistant",
            "tool_calls": [{"id": "1", "function": {"name": gold[0][0], "arguments": gold[0][1]}}],
        },
        {"role": "tool", "tool_call_id": "1", "content": "Error: service unavailable"},
    ]
    told = score(task, {"messages": msgs}, "prove", pool=pool)
    assert told.details["calls"][0]["label"] == "invalid" and told.details["calls"][0]["gold"] == 0


def test_a_write_with_the_wrong_amount_is_harmful(bank):
    env, pool, (a, b, *_) = bank
    gold = [("banking_withdraw", {"account": a, "amount": 50.0})]
    task = prepare_task(task_from_calls(env, [("withdraw 50", gold)], task_id="c2"))
    wrong = score(task, as_calls([("banking_withdraw", {"account": a, "amount": 500.0})]), OUT, pool=pool)
    (call,) = wrong.details["calls"]
    assert call["label"] == "harmful" and call["gold"] == 0 and call["arg_match"] == 0.5
    assert f"banking.accounts[{a}]" in call["reason"]
    assert wrong.details["label_counts"] == {**dict.fromkeys(LABELS, 0), "harmful": 1}
    # the wrong withdrawal, then the right one: the right one is aligned (all values) and matched; the
    # wrong one touched the account first and left it 500 short, so it is harmful
    both = score(
        task, as_calls([("banking_withdraw", {"account": a, "amount": 500.0}), *gold]), OUT, pool=pool
    )
    assert labels(both) == ["harmful", "matched"] and both.details["calls"][1]["gold"] == 0
    # a transfer of another amount
    send = prepare_task(task_from_calls(env, [("send 10", [transfer(a, b, 10.0)])], task_id="c3"))
    r = score(send, as_calls([transfer(a, b, 12.0)]), OUT, pool=pool)
    assert labels(r) == ["harmful"] and r.details["label_counts"]["harmful"] == 1


def test_an_extra_write_that_changes_state_is_harmful_but_a_detour_that_leaves_no_trace_is_not(bank):
    env, pool, (a, b, c, *_) = bank
    gold = [transfer(a, b, 10.0)]
    task = prepare_task(task_from_calls(env, [("send 10", gold)], task_id="c4"))
    messy = score(task, as_calls([*gold, ("banking_freeze_account", {"account": c})]), OUT, pool=pool)
    assert labels(messy) == ["matched", "harmful"]
    assert f"banking.accounts[{c}]" in messy.details["calls"][1]["reason"]
    # freeze and unfreeze the source first: the account ends as the gold leaves it
    detour = [("banking_freeze_account", {"account": a}), ("banking_unfreeze_account", {"account": a}), *gold]
    r = score(task, as_calls(detour), OUT, pool=pool)
    assert r.components["outcome"] == 1.0 and labels(r) == ["unneeded", "unneeded", "matched"]
    # the same on an account the gold never touches: changed back, so no harm either
    aside = [("banking_freeze_account", {"account": c}), ("banking_unfreeze_account", {"account": c}), *gold]
    assert labels(score(task, as_calls(aside), OUT, pool=pool)) == ["unneeded", "unneeded", "matched"]


def test_a_dependent_call_before_its_prerequisite_is_out_of_order(bank, send):
    _, pool, _ = bank
    task, gold = send
    r = score(task, as_calls(gold[::-1]), OUT, pool=pool)
    assert labels(r) == ["out_of_order", "matched"]
    first = r.details["calls"][0]
    assert first["gold"] == 1 and first["arg_match"] == 1.0 and "gold call 0" in first["reason"]


def test_labels_are_lazy_and_reuse_the_replay_scoring_made(bank, send):
    env, pool, (a, b, c, *_) = bank
    task, gold = send
    freeze = ("banking_freeze_account", {"account": c})
    told = [{**x, "ok": True} for x in as_calls([*gold, freeze])]  # results known: "prove" needs no replay
    before = pool.runs
    fast = {"preset": "prove", "exec_check": "trajectory"}  # results taken as written: no replay
    r = score(task, told, fast, pool=pool)
    assert pool.runs == before  # the numbers did not need a replay, so none was made
    assert r.details["level3_source"] == "trajectory"
    assert pool.runs == before + 1  # reading the details replayed once, for the labels
    assert labels(r) == ["matched", "matched", "harmful"] and r.details["harm_checked"] is True
    assert r.details is r.details and pool.runs == before + 1  # built once
    lazy = score(task, told, fast, pool=pool)
    assert pickle.loads(pickle.dumps(lazy)).details["calls"] == r.details["calls"]  # pickling builds them
    eager = score(task, as_calls([*gold, freeze]), OUT, pool=pool)  # the outcome term replays
    assert pool.runs == before + 3
    assert labels(eager) == labels(r) and pool.runs == before + 3
    confirmed = score(task, told, "prove", pool=pool)  # the default confirms successes by replay
    assert pool.runs == before + 4 and labels(confirmed) == labels(r) and pool.runs == before + 4
    off = score(task, told, {"preset": "prove", "replay": "never"}, pool=pool)
    assert labels(off) == ["matched", "matched", "unneeded"] and off.details["harm_checked"] is False
    assert "replay" in off.details["harm_note"] and pool.runs == before + 4


def test_abstention_calls_are_unneeded_unless_invalid_harmful_or_repeated(bank):
    env, pool, (a, b, *_) = bank
    task = prepare_task(
        task_from_calls(env, [("what is a routing number?", [])], task_id="c5", kind="abstain")
    )
    traj = as_calls([balance(a), balance(b), balance(a), ("banking_freeze_account", {"account": b})])
    r = score(task, traj, OUT, pool=pool)
    assert r.total == 0.0
    assert labels(r) == ["unneeded", "unneeded", "redundant", "harmful"]  # no budget rule: B would be 0
    assert score(task, [], OUT, pool=pool).details["calls"] == []


def test_a_minimal_task_cannot_check_harm():
    task = {"gold_calls": [{"name": "pay", "arguments": {"amount": 5}}]}
    r = score(
        task, [{"name": "pay", "arguments": {"amount": 500}}, {"name": "pay", "arguments": {"amount": 7}}]
    )
    assert r.details["harm_checked"] is False and "no snapshot" in r.details["harm_note"]
    assert labels(r) == ["matched", "unneeded"] and r.details["calls"][0]["arg_match"] == 0.0
    # 5 and 5.0 are one JSON value, so the second call repeats the first; True is not a number
    again = score(task, [{"name": "pay", "arguments": {"amount": v}} for v in (5, 5.0, True)])
    assert labels(again) == ["matched", "redundant", "invalid"]


MINI = {
    "gold_calls": [{"name": "f", "arguments": {"x": 1}}, {"name": "g", "arguments": {"y": "a"}}],
    "dependencies": [[0, 1]],
}


def tool_text(calls: list[dict]) -> str:
    return "".join(f"<tool_call>{json.dumps(c)}</tool_call>" for c in calls)


def test_adapters_add_label_counts_only_when_asked():
    text = tool_text([{"name": "f", "arguments": {"x": 1}}, {"name": "g", "arguments": {"y": "a"}}] * 2)
    gt = json.dumps(MINI)
    plain = compute_score("toolground", text, gt)
    counted = compute_score("toolground", text, gt, credit=True)
    assert not any(k.startswith("calls_") for k in plain) and plain["score"] == counted["score"]
    assert {k: v for k, v in counted.items() if k.startswith("calls_")} == {
        **{f"calls_{x}": 0.0 for x in LABELS},
        "calls_matched": 2.0,
        "calls_redundant": 2.0,
    }
    assert set(compute_score("toolground", "no", gt, credit=True)) == set(counted)  # same keys every time
    out = reward_func([text, "no"], ["", ""], [gt, gt], credit=True)
    assert out["extra_logs"]["calls_matched"] == [2.0, 0.0] and out["extra_logs"]["calls_redundant"] == [
        2.0,
        0.0,
    ]
    assert "calls_matched" not in reward_func([text], [""], [gt])["extra_logs"]


@pytest.fixture(scope="module")
def service(bank):
    _, pool, _ = bank
    app = create_app(pool=pool, max_body=1 << 20, workers=2)
    with (
        serving_in_thread(app, lifespan="off") as port,
        httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client,
    ):
        yield client


def test_the_service_returns_the_labels(bank, send, service):
    env, _, (a, b, c, *_) = bank
    _, gold = send
    task = task_from_calls(env, [("send 10", gold)], task_id="c6", dependencies=[(0, 1)]).model_dump(
        mode="json"
    )
    traj = as_calls([*gold, ("banking_freeze_account", {"account": c})])
    r = service.post("/score", json={"task": task, "trajectory": traj, "config": "prove"})
    assert r.status_code == 200, r.text
    details = r.json()["details"]
    assert [x["label"] for x in details["calls"]] == ["matched", "matched", "harmful"]
    assert details["label_counts"]["harmful"] == 1 and details["harm_checked"] is True
    batch = service.post(
        "/score/batch",
        json={"tasks": [task], "items": [{"task_index": 0, "trajectory": traj[:2] + traj[:1]}]},
    )
    assert batch.status_code == 200, batch.text
    assert [x["label"] for x in batch.json()["results"][0]["details"]["calls"]] == [
        "matched",
        "matched",
        "redundant",
    ]
    # /openrlhf scores on the process's default pool, so a minimal task here (no snapshot to build)
    text = tool_text(
        [{"name": "g", "arguments": {"y": "a"}}, {"name": "f", "arguments": {"x": 1}}, {"name": "h"}]
    )
    body = {"query": [text], "prompts": [""], "labels": [MINI]}
    logs = service.post("/openrlhf?credit=1", json=body).json()["extra_logs"]
    assert (
        logs["calls_out_of_order"] == [1.0]
        and logs["calls_matched"] == [1.0]
        and logs["calls_invalid"] == [1.0]
    )
    assert "calls_matched" not in service.post("/openrlhf", json=body).json()["extra_logs"]
    assert service.post("/openrlhf?credit=maybe", json=body).status_code == 422
