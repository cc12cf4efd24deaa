"""The replay pool stays bounded whatever distractor domains a batch's tasks carry.

A task's environment holds its distractor domains too. Forking every domain of every
combination was what grew an xdist worker past 17 GB on the twenty-domain suite; these tests
pin the bounded behaviour: forks per thread are per snapshot and only for domains a call
reaches, environments are dropped least-recently-used, and no replay sees another's writes.
"""

from __future__ import annotations

import threading

import pytest

from rewards import EnvPool

DISTRACTORS = ["email", "filesystem", "social_media", "travel_booking", "calendar"]


@pytest.fixture(scope="module")
def accounts(make_env) -> list[str]:
    env = make_env("banking")
    rows = env.invoke(
        env.open(),
        "banking_list_records",
        {"table": "accounts", "field": "status", "value": "open", "limit": 50},
    )["rows"]
    return [r["id"] for r in rows if r["balance"] >= 100][:2]


def transfer_and_read(src: str, dst: str) -> list[tuple[str, dict]]:
    return [
        ("banking_get_balance", {"account": src}),
        ("banking_transfer", {"source": src, "target": dst, "amount": 25.0}),
        ("banking_get_balance", {"account": src}),
    ]


def test_only_the_domains_a_call_reaches_are_forked_once_per_thread(make_env, accounts):
    src, dst = accounts
    pool = EnvPool()
    results = []
    for other in DISTRACTORS:
        rep = pool.add(make_env(f"banking,{other}"))
        results.append(rep.run(transfer_and_read(src, dst)))
    # five environments, one fork: banking's, shared by all of them; no distractor was forked
    assert len(pool) == len(DISTRACTORS)
    assert [s.snapshot.domain for s in pool.forks().forks.values()] == ["banking"]
    # every replay started from the snapshot: the same balances and the same diff each time
    first = results[0]
    assert all(r.status == [True, True, True] for r in results)
    assert first.values[2]["balance"] == pytest.approx(first.values[0]["balance"] - 25.0)
    for r in results[1:]:
        assert r.values == first.values and r.diff == first.diff
    assert {c["domain"] for c in first.diff} == {"banking"}


def test_a_tool_of_a_domain_the_task_does_not_serve_fails_and_forks_nothing(make_env, accounts):
    pool = EnvPool()
    rep = pool.add(make_env("banking"))
    r = rep.run([("email_list_labels", {})])
    assert r.status == [False] and "unknown tool" in r.values[0]
    assert len(pool.forks().forks) == 0


def test_environments_and_forks_are_dropped_least_recently_used(make_env, accounts):
    src, dst = accounts
    pool = EnvPool(max_envs=2, forks_per_thread=1)
    reps = [pool.add(make_env(f"banking,{other}")) for other in DISTRACTORS[:4]]
    assert len(pool) == 2
    # a write in banking, then a read in email: one fork kept (email's), banking's closed
    before = reps[-1].run(transfer_and_read(src, dst))
    read = pool.add(make_env("email")).run([("email_list_labels", {})])
    assert read.status == [True]
    assert [s.snapshot.domain for s in pool.forks().forks.values()] == ["email"]
    # an evicted environment still works for a caller holding it: banking forks again, from
    # the snapshot, and agrees with the first replay
    again = reps[-1].run(transfer_and_read(src, dst))
    assert again.values == before.values and again.diff == before.diff


def test_threads_replay_on_their_own_forks(make_env, accounts):
    src, dst = accounts
    pool = EnvPool()
    rep = pool.add(make_env("banking,email"))
    seen: dict[int, tuple] = {}

    def work(i: int) -> None:
        outs = [rep.run(transfer_and_read(src, dst)) for _ in range(20)]
        seen[i] = (outs, id(next(iter(pool.forks().forks.values()))))

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    runs = [r for outs, _ in seen.values() for r in outs]
    assert len(runs) == 80 and all(r.values == runs[0].values and r.diff == runs[0].diff for r in runs)
    assert len({fork for _, fork in seen.values()}) == 4  # one private fork per thread
