"""The outcome term on real banking state: alternative paths, wrong calls, collateral writes, answers."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from rewards import EnvPool, SnapshotMismatch, prepare_task, score
from rewards.build import task_from_calls
from tests.domain_helpers import funded_accounts, transfer

OUT = "prove+outcome"


@pytest.fixture(scope="module")
def bank(make_env):
    env = make_env("banking")
    pool = EnvPool()
    pool.add(env)
    return env, pool, funded_accounts(env)


def as_calls(pairs) -> list[dict]:
    return [{"name": n, "arguments": a} for n, a in pairs]


def test_gold_gets_full_outcome_credit(bank):
    env, pool, (a, b, *_) = bank
    gold = [("banking_get_balance", {"account": a}), transfer(a, b, 10.0)]
    task = task_from_calls(env, [("send 10", gold)], task_id="w1", dependencies=[(0, 1)])
    r = score(task, as_calls(gold), OUT, pool=pool)
    assert r.components["outcome"] == 1.0 and r.total == pytest.approx(1.8)
    assert r.details["outcome"]["collateral_rows"] == 0 and r.details["outcome"]["gold_rows"] == 5
    # the same task as plain JSON (a dataset row) scores the same
    again = score(task.model_dump(mode="json"), as_calls(gold), OUT, pool=pool)
    assert again.total == r.total


def test_alternative_path_to_the_gold_state_gets_full_outcome_credit(bank):
    env, pool, (a, b, c, d, *_) = bank
    gold = [transfer(a, b, 10.0), transfer(c, d, 20.0)]
    task = task_from_calls(env, [("two transfers", gold)], task_id="w2")
    # a detour that leaves no trace: freeze and unfreeze the source first
    detour = [("banking_freeze_account", {"account": a}), ("banking_unfreeze_account", {"account": a}), *gold]
    r = score(task, as_calls(detour), OUT, pool=pool)
    assert r.components["outcome"] == 1.0 and r.components["coverage"] == 1.0
    # the other order: every inserted transfer/entry gets a different id, same content
    swapped = score(task, as_calls(gold[::-1]), OUT, pool=pool)
    assert swapped.components["outcome"] == 1.0
    assert swapped.details["outcome"]["matched_cells"] == swapped.details["outcome"]["expected_cells"]


def test_an_executable_but_wrong_call_loses_outcome_credit(bank):
    env, pool, (a, b, c, *_) = bank
    gold = [transfer(a, b, 10.0)]
    task = task_from_calls(env, [("send 10", gold)], task_id="w3")
    wrong_target = score(task, as_calls([transfer(a, c, 10.0)]), OUT, pool=pool)
    wrong_amount = score(task, as_calls([transfer(a, b, 12.0)]), OUT, pool=pool)
    for r in (wrong_target, wrong_amount):
        assert r.components["validity"] == 1.0  # the paper's validity cannot tell
        assert r.components["outcome"] < 0.85
    nothing = score(task, [], OUT, pool=pool)
    assert nothing.components["outcome"] == 0.0


def test_collateral_writes_are_penalised(bank):
    env, pool, (a, b, c, *_) = bank
    gold = [transfer(a, b, 10.0)]
    task = task_from_calls(env, [("send 10", gold)], task_id="w4")
    clean = score(task, as_calls(gold), OUT, pool=pool)
    messy = score(task, as_calls([*gold, ("banking_freeze_account", {"account": c})]), OUT, pool=pool)
    assert messy.details["outcome"]["collateral_rows"] == 1
    assert messy.details["outcome"]["penalty"] == pytest.approx(0.5 * 1 / 5)  # 5 gold rows
    assert messy.components["outcome"] < clean.components["outcome"] - 0.1
    twice = score(task, as_calls(gold * 2), OUT, pool=pool)
    assert twice.components["outcome"] < clean.components["outcome"]


def test_read_only_task_wants_the_facts_in_the_answer(bank):
    env, pool, (a, *_) = bank
    gold = [("banking_get_balance", {"account": a})]
    task = task_from_calls(env, [("how much is in my account?", gold)], task_id="r1")
    balance = task.turns[0].calls[0].result["balance"]
    said = (
        f"{a} holds ${balance:,.2f}; the account is open and it is a {task.turns[0].calls[0].result['kind']}."
    )
    good = score(task, {"calls": as_calls(gold), "answer": said}, OUT, pool=pool)
    assert good.components["outcome"] == 1.0 and good.details["outcome"]["facts_found"] == 3
    vague = score(task, {"calls": as_calls(gold), "answer": "Done."}, OUT, pool=pool)
    assert vague.components["outcome"] == 0.0
    silent = score(task, as_calls(gold), OUT, pool=pool)
    assert silent.components["outcome"] == 0.0
    meddling = score(
        task,
        {"calls": as_calls([*gold, ("banking_freeze_account", {"account": a})]), "answer": said},
        OUT,
        pool=pool,
    )
    assert meddling.components["outcome"] == pytest.approx(0.5)


def test_level_three_comes_from_replay_unless_a_result_marks_a_failure(bank):
    env, pool, (a, b, *_) = bank
    gold = [transfer(a, b, 10.0)]
    task = task_from_calls(env, [("send 10", gold)], task_id="w5")
    broke = as_calls([transfer(a, b, 10_000_000.0), *gold])
    r = score(task, broke, "prove", pool=pool)
    assert r.details["validity_levels"] == [2, 3] and r.details["level3_source"] == "replay"
    assert r.components["outcome"] is None  # not weighted in the paper preset, so not computed
    # a result that reads as a success is only text: the replay shows the transfer failed
    told = [{**broke[0], "ok": True}, broke[1]]
    confirmed = score(task, told, "prove", pool=pool)
    assert confirmed.details["validity_levels"] == [2, 3]
    assert confirmed.details["level3_source"] == "trajectory+replay"
    # taken as written when asked to (no replay), and a failure the trajectory reports stands
    fast = {"preset": "prove", "exec_check": "trajectory"}
    assert score(task, told, fast, pool=pool).details["validity_levels"] == [3, 3]
    failed = [broke[0], {**broke[1], "ok": False}]
    assert score(task, failed, "prove", pool=pool).details["validity_levels"] == [2, 2]


def test_replays_are_isolated_and_thread_safe(bank):
    env, pool, (a, b, c, *_) = bank
    gold = [transfer(a, b, 10.0)]
    task = prepare_task(task_from_calls(env, [("send 10", gold)], task_id="w6"))
    trajs = [
        as_calls(gold),
        as_calls([transfer(a, c, 10.0)]),
        as_calls([("banking_close_account", {"account": a})]),
    ]
    first = [score(task, t, OUT, pool=pool).total for t in trajs]
    with ThreadPoolExecutor(4) as ex:
        again = list(ex.map(lambda t: score(task, t, OUT, pool=pool).total, trajs * 8))
    assert again == first * 8
    assert env.open().diff() == []


def test_snapshot_mismatch_is_a_clear_error(bank):
    env, pool, (a, *_) = bank
    task = task_from_calls(env, [("balance", [("banking_get_balance", {"account": a})])], task_id="r2")
    data = task.model_dump(mode="json")
    data["snapshots"][0]["sha256"] = "0" * 64
    with pytest.raises(SnapshotMismatch, match="rebuilds to sha256"):
        score(data, [], OUT, pool=pool)
    data["snapshots"][0]["scale"] = "gigantic"
    with pytest.raises(Exception, match="unknown scale"):
        score(data, [], OUT, pool=EnvPool())


def test_minimal_tasks_have_no_outcome_term():
    r = score({"gold_calls": [{"name": "f", "arguments": {}}]}, [{"name": "f", "arguments": {}}], OUT)
    assert r.components["outcome"] is None and r.total == pytest.approx(1.3)


def test_outcome_preset_keeps_the_monotonicity_guarantees(bank):
    env, pool, (a, b, c, *_) = bank
    gold = [("banking_get_balance", {"account": a}), transfer(a, b, 10.0)]
    task = prepare_task(task_from_calls(env, [("send 10", gold)], task_id="w7", dependencies=[(0, 1)]))
    best = score(task, as_calls(gold), OUT, pool=pool).total
    previous = best
    for k in range(1, 6):  # redundant reads before the transfer: budget 3 allows one
        value = score(task, as_calls([gold[0]] * (k + 1) + gold[1:]), OUT, pool=pool).total
        assert value <= previous and (value < best if k > 1 else value == best)
        previous = value
    worse = [
        gold[:1],  # drop the transfer
        [gold[0], transfer(a, c, 10.0)],  # wrong value
        [gold[0], ("banking_deposit", {"account": b, "amount": 10.0})],  # wrong tool
        gold[::-1],  # dependency order broken
    ]
    assert all(score(task, as_calls(w), OUT, pool=pool).total < best for w in worse)
