"""Episodes over their whole life: fork, write, checkpoint, restore, reset, evict, release.

RL training opens and drops episodes by the thousand, so the store must give
memory back when they go, evict the ones trainers forget, refuse cleanly when
full, and the state hash every reward relies on must depend on rows alone:
not on insertion order, page layout, or whether it was computed incrementally.
Snapshots must be reproducible bit for bit in a fresh process, or tasks that
pin a snapshot's sha256 could not be replayed anywhere else.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import gc
import json
import os
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from servers.registry import available
from state import EpisodeStore, Fork, Snapshot, StoreFull, content_hash
from state.changelog import primary_key
from state.hashing import user_tables

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def env(make_env):
    return make_env("banking")


@pytest.fixture(scope="module")
def snap(env) -> Snapshot:
    return env.snapshots()["banking"]


def bump(fork: Fork, account: str = "ACC-000001", amount: float = 1.0) -> None:
    """One small write, enough to make the fork copy the snapshot."""
    fork.run(
        lambda c: c.execute("UPDATE accounts SET balance = balance + ? WHERE id = ?", (amount, account)),
        writes=True,
    )


def rss_bytes() -> int:
    gc.collect()
    with contextlib.suppress(OSError, AttributeError):  # glibc: give freed heap back to the OS
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


# -- memory -------------------------------------------------------------------------------


@pytest.mark.slow
def test_5000_copied_episodes_opened_and_released_give_memory_back(env, snap) -> None:
    store = EpisodeStore(env.snapshots, max_sessions=200)
    batch = 100  # live at once, like a trainer's rollout group

    def round_trip(start: int) -> None:
        ids = [f"ep-{start + i}" for i in range(batch)]
        for sid in ids:
            bump(store.get(sid).fork("banking"))
        assert store.stats()["forked_databases"] == batch
        assert store.stats()["memory_bytes"] >= batch * snap.size  # each really holds a private copy
        for sid in ids:
            assert store.release(sid)

    round_trip(0)  # warm the allocator and SQLite's caches before the baseline
    baseline = rss_bytes()
    for k in range(1, 50):
        round_trip(k * batch)
    growth = rss_bytes() - baseline
    assert len(store) == 0 and store.stats()["memory_bytes"] == 0
    # 5,000 forks of ~140 KB each went through: 700 MB if any were kept
    assert growth < 20 * 2**20, f"RSS grew by {growth / 2**20:.1f} MiB over 4,900 released episodes"


def test_a_released_episode_drops_its_fork(env) -> None:
    store = EpisodeStore(env.snapshots)
    ep = store.get("x")
    fork = ep.fork("banking")
    bump(fork)
    assert fork.copied and ep.memory_bytes() > 0
    assert store.release("x")
    assert not fork.copied and ep.memory_bytes() == 0


# -- TTL, size limit, release -------------------------------------------------------------


def test_idle_ttl_evicts_with_the_injected_clock(env) -> None:
    t = [0.0]
    store = EpisodeStore(env.snapshots, idle_ttl=10, clock=lambda: t[0])
    a, b = store.get("a"), store.get("b")
    bump(b.fork("banking"))
    t[0] = 5.0
    store.get("a")  # a is used again; b is not
    a.touch()  # what the MCP tool does on every call: must follow the store's clock too
    t[0] = 12.0
    assert store.evict_idle() == 1
    assert "a" in store and "b" not in store
    assert not b.fork("banking").copied, "an evicted episode keeps its fork"
    t[0] = 15.0
    assert store.evict_idle() == 0  # a idle for exactly 10 s: not yet
    t[0] = 15.5
    store.get("c")  # creating an episode evicts the stale ones first
    assert store.ids() == ["c"]
    t[0] = 100.0
    assert store.stats()["count"] == 1 and store.evict_idle() == 1 and len(store) == 0


def test_full_store_refuses_with_a_clear_message_and_recovers(env) -> None:
    t = [0.0]
    store = EpisodeStore(env.snapshots, max_sessions=3, idle_ttl=60, clock=lambda: t[0])
    for i in range(3):
        store.get(f"s{i}")
    with pytest.raises(StoreFull, match="full") as info:
        store.get("s3")
    assert "3 live sessions" in str(info.value) and "release" in str(info.value)
    assert store.get("s1") is store.get("s1")  # live sessions are still served when full
    assert store.release("s0")
    store.get("s3")
    t[0] = 61.0  # everything idle past the TTL: a new episode makes room by eviction
    store.get("fresh")
    assert store.ids() == ["fresh"]


def test_full_store_over_mcp_is_a_tool_error_naming_full(make_env) -> None:
    from fastmcp import Client

    from servers.mcp_server import build_mcp

    env = make_env("banking", max_sessions=2)
    mcp = build_mcp(env)
    args = {"account": "ACC-000001"}

    async def call(client: Client, sid: str):
        return await client.call_tool(
            "banking_get_balance", args, raise_on_error=False, meta={"env_session": sid}
        )

    async def scenario() -> None:
        async with Client(mcp) as client:
            assert not (await call(client, "A")).is_error
            assert not (await call(client, "B")).is_error
            res = await call(client, "C")
            text = "".join(getattr(c, "text", "") for c in res.content)
            assert res.is_error and "full" in text and "release" in text, text
            assert not (await call(client, "A")).is_error  # existing sessions keep working
            assert env.store.release("A")
            assert not (await call(client, "C")).is_error

    asyncio.run(scenario())
    assert env.store.ids() == ["B", "C"]


def test_release_of_unknown_or_released_id_returns_false(env) -> None:
    store = EpisodeStore(env.snapshots)
    assert store.release("never-opened") is False
    store.get("once")
    assert store.release("once") is True
    assert store.release("once") is False


# -- checkpoint, restore, reset -------------------------------------------------------------


def test_checkpoint_restore_and_reset_round_trip_the_state_hash(env, snap) -> None:
    ep = env.open()
    h0 = ep.state_hash()
    assert h0 == env.open().state_hash()
    start = ep.checkpoint()  # before any write: nothing is copied
    env.invoke(ep, "banking_deposit", {"account": "ACC-000001", "amount": 10.0})
    h1, d1 = ep.state_hash(), ep.diff()
    middle = ep.checkpoint()
    env.invoke(ep, "banking_update_phone", {"customer": "CUS-000002", "phone": "+1-555-000-0000"})
    env.invoke(ep, "banking_deposit", {"account": "ACC-000001", "amount": 5.0})
    h2 = ep.state_hash()
    assert len({h0, h1, h2}) == 3

    ep.restore(middle)
    assert ep.state_hash() == h1 and ep.diff() == d1
    env.invoke(ep, "banking_update_phone", {"customer": "CUS-000003", "phone": "+1-555-000-0001"})
    fork = ep.fork("banking")
    assert fork.content_hash() == fork.full_content_hash()  # the changelog came back too

    other = env.open()  # a checkpoint moves between episodes of the same snapshot
    other.restore(middle)
    assert other.state_hash() == h1

    ep.restore(start)
    assert ep.state_hash() == h0 and ep.diff() == [] and not fork.copied
    env.invoke(ep, "banking_deposit", {"account": "ACC-000001", "amount": 10.0})
    assert ep.state_hash() == h1  # the same call on the same start gives the same state
    ep.reset()
    assert ep.state_hash() == h0 and fork.content_hash() == snap.logical_hash
    assert ep.diff() == [] and not fork.copied


# -- the content hash -------------------------------------------------------------------------

ROWS = [(f"K-{i:03d}", i * 1.5, f"note {i}" if i % 3 else None) for i in range(60)]
OTHER = [(i, "x" * (i % 7)) for i in range(1, 40)]


def _db(rows: list[tuple], other: list[tuple], *, churn: bool = False, vacuum: bool = False):
    conn = sqlite3.connect(":memory:", isolation_level=None)
    conn.execute("CREATE TABLE t (id TEXT PRIMARY KEY, v REAL, note TEXT)")
    conn.execute("CREATE TABLE u (k INTEGER PRIMARY KEY, s TEXT)")
    if churn:  # rows that come and go leave free pages and a different b-tree shape behind
        conn.executemany("INSERT INTO t VALUES (?, ?, ?)", [(f"Z-{i}", 0.0, "z" * 300) for i in range(300)])
    conn.executemany("INSERT INTO t VALUES (?, ?, ?)", rows)
    conn.executemany("INSERT INTO u VALUES (?, ?)", other)
    if churn:
        conn.execute("DELETE FROM t WHERE id LIKE 'Z-%'")
    if vacuum:
        conn.execute("VACUUM")
    return conn


def test_content_hash_sees_rows_not_order_or_pages() -> None:
    base = _db(ROWS, OTHER)
    shuffled = _db(ROWS[::-1], OTHER[::-1])
    churned = _db(ROWS[1::2] + ROWS[::2], OTHER, churn=True)
    vacuumed = _db(ROWS[::-1], OTHER, churn=True, vacuum=True)
    expected = content_hash(base)
    for conn in (shuffled, churned, vacuumed):
        assert content_hash(conn) == expected
    assert len({c.serialize() for c in (base, churned, vacuumed)}) == 3  # the pages really differ

    changed = _db([ROWS[0][:2] + ("other note",), *ROWS[1:]], OTHER)
    swapped = _db(
        [(ROWS[0][0], ROWS[1][1], ROWS[0][2]), (ROWS[1][0], ROWS[0][1], ROWS[1][2]), *ROWS[2:]], OTHER
    )
    fewer = _db(ROWS[:-1], OTHER)
    moved = _db(ROWS, [*OTHER[:-1], (OTHER[-1][0] + 1000, OTHER[-1][1])])  # same values, another key
    hashes = {content_hash(c) for c in (base, changed, swapped, fewer, moved)}
    assert len(hashes) == 5


def test_snapshot_hash_survives_reinsert_in_reverse_and_vacuum(snap) -> None:
    conn = sqlite3.connect(":memory:", isolation_level=None)
    conn.deserialize(snap.data)
    rows = conn.execute("SELECT * FROM entries").fetchall()
    conn.execute("DELETE FROM entries")
    marks = ", ".join("?" * len(rows[0]))
    conn.executemany(f"INSERT INTO entries VALUES ({marks})", rows[::-1])
    conn.execute("VACUUM")
    assert conn.serialize() != snap.data
    assert content_hash(conn) == snap.logical_hash


# -- incremental hash and diff against a brute-force comparison ------------------------------


def _changed_keys(fork: Fork) -> set[tuple[str, str]]:
    """Every (table, key) whose row differs from the snapshot, by comparing whole tables."""
    base = fork.snapshot.connect()
    out: set[tuple[str, str]] = set()
    with fork.reading() as conn:
        for table in user_tables(conn):
            cols = primary_key(conn, table)

            def rows(c: sqlite3.Connection, table: str = table, cols: list[str] = cols) -> dict:
                key_cols = ", ".join(f'"{k}"' for k in cols)
                data = c.execute(f'SELECT {key_cols}, * FROM "{table}"').fetchall()
                return {r[: len(cols)]: r[len(cols) :] for r in data}

            before, after = rows(base), rows(conn)
            for key in before.keys() | after.keys():
                if before.get(key) != after.get(key):
                    out.add((table, str(key[0]) if len(key) == 1 else json.dumps(list(key))))
    base.close()
    return out


class Boom(Exception):
    pass


def _op(kind: str, i: int, x: float) -> Callable[[sqlite3.Connection], None]:
    acc = f"ACC-{1 + i % 30:06d}"
    txn = f"TXN-{1 + i % 120:06d}"

    def run(c: sqlite3.Connection) -> None:
        if kind == "balance":
            c.execute("UPDATE accounts SET balance = balance + ? WHERE id = ?", (x, acc))
        elif kind == "back":  # change a row and change it back in one step
            c.execute("UPDATE accounts SET nickname = nickname || '!' WHERE id = ?", (acc,))
            c.execute(
                "UPDATE accounts SET nickname = substr(nickname, 1, length(nickname) - 1) WHERE id = ?",
                (acc,),
            )
        elif kind == "insert":
            c.execute(
                "INSERT OR REPLACE INTO entries VALUES (?, ?, 'deposit', ?, ?, 'fuzz', NULL, '2026-06-01T09:00:00')",
                (f"TXN-9{i:05d}", acc, x, x),
            )
        elif kind == "delete":
            c.execute("DELETE FROM entries WHERE id = ?", (txn,))
        elif kind == "rekey":  # a primary-key change touches the old key and the new one
            c.execute("UPDATE entries SET id = ? WHERE id = ?", (f"TXN-8{i:05d}", txn))
        elif kind == "meta":
            c.execute("UPDATE _meta SET value = value || 'x' WHERE key = 'scale'")
        elif kind == "fail":  # a write that changes rows, then raises: all of it rolls back
            c.execute("UPDATE accounts SET balance = -1 WHERE id = ?", (acc,))
            c.execute("DELETE FROM entries WHERE id = ?", (txn,))
            raise Boom

    return run


OPS = st.lists(
    st.tuples(
        st.sampled_from(["balance", "back", "insert", "delete", "rekey", "meta", "fail", "checkpoint"]),
        st.integers(0, 400),
        st.sampled_from([0.0, 1.0, -2.5, 1e9]),
    ),
    max_size=25,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ops=OPS)
def test_incremental_hash_and_diff_match_a_full_comparison(snap, ops) -> None:
    fork = Fork(snap)
    for kind, i, x in ops:
        if kind == "checkpoint":
            fork.restore(fork.checkpoint())
            continue
        with contextlib.suppress(Boom):
            fork.run(_op(kind, i, x), writes=True)
    assert fork.content_hash() == fork.full_content_hash()
    expected = _changed_keys(fork)
    assert {(c.table, c.pk) for c in fork.diff()} == expected
    assert (fork.content_hash() == snap.logical_hash) == (not expected)
    with fork.reading() as conn:
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
    fork.close()


# -- snapshot determinism ------------------------------------------------------------------------

_PRINT_HASHES = """
import json
from servers.registry import available, get_domain
out = {}
for name in available():
    snap = get_domain(name).snapshot(seed=0, scale="small")
    out[name] = [snap.sha256, snap.logical_hash]
print(json.dumps(out))
"""


def test_snapshots_are_identical_in_two_fresh_processes(tmp_path, make_env) -> None:
    procs = []
    for hash_seed in ("1", "2"):  # different set/dict hashing: iteration-order bugs show up
        cache = tmp_path / f"cache-{hash_seed}"
        cache.mkdir()
        env = {
            **os.environ,
            "TOOLGROUND_CACHE": str(cache),
            "PYTHONHASHSEED": hash_seed,
            "PYTHONPATH": str(REPO),
            "FASTMCP_SHOW_SERVER_BANNER": "false",
            "FASTMCP_CHECK_FOR_UPDATES": "off",
        }
        cmd = [sys.executable, "-c", _PRINT_HASHES]
        procs.append(
            (cache, subprocess.Popen(cmd, env=env, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE))
        )
    results = []
    for cache, proc in procs:
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err.decode()[-2000:]
        results.append(json.loads(out.decode().strip().splitlines()[-1]))
        assert list((cache / "snapshots").glob("*.sqlite")), "the fresh process should have built and cached"
    first, second = results
    assert set(first) == set(available())
    assert first == second
    for name, (sha, logical) in first.items():  # and the same as this process built
        here = make_env(name).snapshots()[name]
        assert (here.sha256, here.logical_hash) == (sha, logical), name


def test_an_expired_id_is_refused_until_renewed_or_released(env) -> None:
    from state import EpisodeExpired

    t = [0.0]
    store = EpisodeStore(env.snapshots, idle_ttl=10, clock=lambda: t[0], remember_expired=2)
    a = store.get("a")
    bump(a.fork("banking"))
    store.get("b"), store.get("c")
    t[0] = 11.0
    with pytest.raises(
        EpisodeExpired, match="env session 'a' expired after 10 s idle; reset or bind it again"
    ):
        store.get("a")  # found stale on its own next use, not only by an eviction sweep
    assert store.evict_idle() == 2  # b and c; with room for 2, "a" is forgotten first
    assert store.stats()["expired_remembered"] == 2
    fresh = store.get("a")  # forgotten: a plain first use again
    assert not fresh.fork("banking").copied
    with pytest.raises(EpisodeExpired):
        store.get("b", create=False)
    assert store.get("b", renew=True) is not None and store.get("b") is not None  # a reset renews it
    assert store.release("c") and store.get("c") is not None  # a release forgets it
