"""Candidate pools are only a shortcut: on every fork state they list exactly the rows SQL finds,
and a generator run with them writes the same tasks, byte for byte, as one that asks SQL."""

from __future__ import annotations

import json
import random

import pytest

from querygen import pools
from querygen.generate import GenConfig, Generator
from querygen.sampler import Relations
from servers.registry import get_domain


def _sql(conn, table: str, where: str) -> list[tuple]:
    return conn.execute(f'SELECT id, id FROM "{table}" WHERE ({where}) ORDER BY id').fetchall()


@pytest.fixture
def banking(make_env):
    env = make_env("banking")
    return env, pools.Pools(Relations(get_domain("banking")).pk), env.open()


def test_a_pool_follows_writes_to_the_picked_table_and_refuses_other_written_tables(banking):
    env, pool, ep = banking
    where = "status = 'open' AND balance > 100"
    session = ep.session("banking")
    with session.reading() as conn:
        first = pool.candidates(conn, "accounts", where, None)
        assert first == [tuple(r) for r in _sql(conn, "accounts", where)] and len(first) > 3
        customer = conn.execute("SELECT id FROM customers WHERE verified = 1 ORDER BY id").fetchone()[0]
    gone = first[1][0]
    assert env.call(ep, "banking_freeze_account", {"account": gone}).ok
    opened = env.call(ep, "banking_open_account", {"customer": customer, "kind": "savings"})
    assert opened.ok, opened.error
    new = opened.value["id"]
    assert env.call(ep, "banking_deposit", {"account": new, "amount": 500}).ok
    with session.reading() as conn:
        now = pool.candidates(conn, "accounts", where, None)
        assert now == [tuple(r) for r in _sql(conn, "accounts", where)]
        assert gone not in {k for k, _ in now} and new in {k for k, _ in now}
        # transactions were written too: a condition that reads them cannot be answered from the pool
        assert pool.candidates(conn, "accounts", "id IN (SELECT account_id FROM transactions)", None) is None


def test_the_condition_names_the_tables_it_reads():
    p = pools.Pools({"nodes": "id", "sessions": "id", "users": "id"})
    assert p.named("nodes", "kind = 'dir' AND owner_id = (SELECT user_id FROM sessions)") == {"sessions"}
    assert p.named("nodes", "parent_id IN (SELECT id FROM nodes WHERE kind = 'dir')") == {"nodes"}
    assert p.named("nodes", "n.users_count > 0") == frozenset()  # a column named after a table is not it


@pytest.mark.parametrize("by_key", [True, False])
def test_choose_returns_what_offset_over_the_filtered_rows_would(by_key):
    pool = [(f"K-{i:03d}", f"v{i % 7}") for i in range(40)]
    rng = random.Random(5)
    for _ in range(200):
        exclude = rng.sample([k if by_key else v for k, v in pool], rng.randrange(0, 6))
        kept = [v for k, v in pool if (k if by_key else v) not in set(exclude)]
        assert pools.remaining(pool, exclude, by_key) == len(kept)
        k = rng.randrange(len(kept))
        assert pools.choose(pool, exclude, by_key, k) == kept[k]


def _dump(tasks) -> str:
    return json.dumps([t.model_dump(mode="json") for t in tasks], sort_keys=True)


def test_generation_is_the_same_with_and_without_pools(snapshot_cache, monkeypatch):
    config = GenConfig(domains=("banking", "trading", "filesystem"), n=90, seed=4, scale="small")
    with_pools, _ = Generator(config, cache=snapshot_cache).run(workers=1)
    monkeypatch.setattr(pools.Pools, "candidates", lambda *a, **k: None)
    without, _ = Generator(config, cache=snapshot_cache).run(workers=1)
    assert len(with_pools) >= 60
    assert _dump(with_pools) == _dump(without)
