"""The kit's newer declarations: arrays, date-times, natural keys, paths, session row, variants,
append-only tables, paging. A small purpose-built domain exercises each one."""

from __future__ import annotations

import asyncio
import json
from typing import Literal

import httpx
import pytest
from fastmcp import Client
from fastmcp.client.transports import StreamableHttpTransport
from sqlalchemy import ForeignKey
from sqlalchemy.orm import Mapped, mapped_column

from servers.kit import (
    Day,
    Db,
    Domain,
    EmailList,
    IdList,
    Moment,
    PathRef,
    Ref,
    Seeder,
    ShortText,
    Tags,
    ToolError,
)
from servers.runtime import Environment
from state import combine_hashes
from tests.serving import running_server
from tests.test_fuzz_tools import check_append_only

demo = Domain("kitdemo", "A tiny service that uses every kit declaration.")


class Ticker(demo.Table, example="ACME"):
    __tablename__ = "tickers"
    id: Mapped[str] = mapped_column(primary_key=True)
    price: Mapped[float]


def folder_path(db: Db, key: str) -> str:
    return db.get("folders", key)["name"] + "/"


class Folder(demo.Table, prefix="FLD", render=folder_path):
    __tablename__ = "folders"
    id: Mapped[str] = mapped_column(primary_key=True)
    name: Mapped[str]


class Event(demo.Table, prefix="EVT", append_only=True, mutable=("hidden",)):
    __tablename__ = "events"
    id: Mapped[str] = mapped_column(primary_key=True)
    ticker_id: Mapped[str] = mapped_column(ForeignKey("tickers.id"))
    note: Mapped[str]
    hidden: Mapped[bool]


# the acting user is a name the service does not keep rows for
Session = demo.acting(
    None, "user", login="login", signed_out=True, foreign_key=False, columns={"token": str}, hidden=("token",)
)


@demo.seed
def fill(s: Seeder) -> None:
    s.add(Ticker, [{"id": t, "price": 10.0 + i} for i, t in enumerate(("ACME", "BOLT", "CRUX"))])
    s.add(Folder, [{"id": "FLD-000001", "name": "docs"}])
    s.add(Event, [{"id": "EVT-000001", "ticker_id": "ACME", "note": "listed", "hidden": False}])
    s.add(Session, [{"id": "SES-000001", "user": s.world.persona.username, "token": "secret"}])


@demo.variant("logged_out", first="login")
def logged_out(db: Db) -> None:
    """Nobody is logged in."""
    db.set_acting(user=None)


@demo.tool(writes=[Session], idempotent=True, says=["log me in as {user}"])
def login(db: Db, user: ShortText) -> dict:
    """Log in."""
    return {"user": db.set_acting(user=user)["user"]}


@demo.tool(returns=Ticker, says=["quote {symbols}"])
def quote(
    db: Db,
    symbols: IdList[Ticker],
    at: Moment | None = None,
    on: Day | None = None,
    tags: Tags = (),
    to: EmailList | None = None,
    sides: list[Literal["bid", "ask"]] | None = None,
    folder: PathRef[Folder] | None = None,
) -> dict:
    """Quote some tickers."""
    db.actor_id()  # the standard error when nobody is signed in
    rows = [db.get(Ticker, s) for s in symbols]
    return {"quotes": rows, "at": at, "tags": list(tags), "to": to, "sides": sides, "folder": folder}


@demo.tool(writes=[Event], says=["hide event {event}"])
def hide_event(db: Db, event: Ref[Event]) -> dict:
    """Hide an event (a flag: the row stays)."""
    db.get(Event, event)
    return db.update(Event, event, hidden=True)


@demo.tool(writes=[Event], says=["reword event {event}"])
def reword_event(db: Db, event: Ref[Event], note: ShortText) -> dict:
    """A tool that breaks the append-only rule on purpose."""
    db.get(Event, event)
    return db.update(Event, event, note=note)


@demo.tool(returns=Event, says=["list events"])
def list_events(db: Db, limit: int = 2, offset: int = 0) -> dict:
    """Events, paged."""
    return db.page("SELECT * FROM events ORDER BY id", limit=limit, offset=offset, key="events")


@pytest.fixture
def env(snapshot_cache) -> Environment:
    return Environment([demo], scale="small", cache=snapshot_cache)


def test_array_parameters_are_flat_json_arrays_with_item_schemas():
    schema = demo.tools["quote"].input_schema()
    props = schema["properties"]
    assert props["symbols"]["type"] == "array" and props["symbols"]["items"]["type"] == "string"
    assert props["symbols"]["minItems"] == 1 and "ACME" in props["symbols"]["description"]
    assert props["sides"]["items"]["enum"] == ["bid", "ask"]
    assert "pattern" in props["to"]["items"] and props["tags"]["default"] == []
    text = json.dumps(schema)
    assert (
        "anyOf" not in text
        and "$ref" not in text
        and '"object"' not in text.replace('"type": "object"', "", 1)
    )
    stripped = demo.tools["quote"].input_schema(strip_enums=True)["properties"]["sides"]
    assert "enum" not in stripped["items"]


def test_arrays_are_checked_strictly(env):
    ep = env.open()
    ok = env.call(ep, "kitdemo_quote", {"symbols": ["ACME", "BOLT"], "sides": ["bid"], "tags": ["q2"]})
    assert ok.ok and [q["id"] for q in ok.value["quotes"]] == ["ACME", "BOLT"]
    for bad, says in [
        ({"symbols": "ACME"}, 'symbols must be an array, got "ACME" (a string)'),
        ({"symbols": []}, "at least 1"),
        ({"symbols": ["ACME", "ACME"]}, "listed twice"),
        ({"symbols": [7]}, "symbols[0] must be a string, got 7 (a number)"),
        ({"symbols": ["ACME"], "sides": ["middle"]}, "bid"),
        ({"symbols": ["ACME"], "to": ["not-an-email"]}, "pattern"),
        ({"symbols": ["ACME"], "tags": ["Has Space"]}, "pattern"),
    ]:
        res = env.call(ep, "kitdemo_quote", bad)
        assert not res.ok and says in res.error, (bad, res.error)


def test_dates_and_moments_must_be_real(env):
    ep = env.open()
    good = env.call(ep, "kitdemo_quote", {"symbols": ["ACME"], "at": "2026-06-02T14:30", "on": "2028-02-29"})
    assert good.ok
    for field, value in [("at", "2026-02-30T10:00"), ("at", "2026-06-02 14:30"), ("on", "2026-13-01")]:
        res = env.call(ep, "kitdemo_quote", {"symbols": ["ACME"], field: value})
        assert not res.ok and value in res.error


def test_natural_keys_path_refs_and_list_declarations():
    params = {p.name: p for p in demo.tools["quote"].params}
    assert params["symbols"].ref.natural and params["symbols"].ref.many
    assert params["folder"].ref.path and not params["folder"].ref.natural
    assert "sessions" in demo.tools["quote"].needs  # a path resolves against the session
    with pytest.raises(TypeError, match="render="):
        PathRef[Ticker]


def test_unbounded_list_elements_are_refused_at_declaration():
    scratch = Domain("scratch", "x")

    def bad(db: Db, xs: list[str]) -> dict:
        """Unbounded list elements."""
        return {}

    with pytest.raises(TypeError, match="max_length"):
        scratch.tool()(bad)


def test_session_row_is_per_episode_and_secrets_stay_hidden(env):
    a, b = env.open(), env.open()
    env.invoke(a, "kitdemo_login", {"user": "someone"})
    assert env.invoke(b, "kitdemo_list_records", {"table": "sessions"})["rows"][0]["user"] != "someone"
    row = env.invoke(a, "kitdemo_list_records", {"table": "sessions"})["rows"][0]
    assert row["user"] == "someone" and "token" not in row


def test_variant_is_its_own_snapshot_and_reset_moves_between_them(env):
    ep = env.open({"kitdemo": "logged_out"})
    ident = ep.identity()["kitdemo"]
    assert ident["variant"] == "logged_out" and ident["sha256"] != env.snapshot("kitdemo").sha256
    assert ep.diff() == []  # the patch is the variant's content, not a change the episode made
    with pytest.raises(ToolError, match="^nobody is signed in; call login first$"):
        env.invoke(ep, "kitdemo_quote", {"symbols": ["ACME"]})
    env.reset(ep, {"kitdemo": None})
    assert "variant" not in ep.identity()["kitdemo"]
    assert env.call(ep, "kitdemo_quote", {"symbols": ["ACME"]}).ok
    env.reset(ep, {"kitdemo": "logged_out"})
    assert ep.identity()["kitdemo"]["variant"] == "logged_out"
    with pytest.raises(ToolError, match="no variant 'nope'.*logged_out"):
        env.open({"kitdemo": "nope"})
    again = Environment([demo], scale="small", cache=env.cache).snapshot("kitdemo", "logged_out")
    assert again.sha256 == ident["sha256"]  # deterministic


def test_append_only_check_catches_a_tool_that_rewrites_history(env):
    append_only = demo.append_only()
    assert append_only == {"events": frozenset({"hidden"})}
    ep = env.open()
    env.invoke(ep, "kitdemo_hide_event", {"event": "EVT-000001"})
    check_append_only(ep.fork("kitdemo").diff(), append_only, "hide")  # a flag column: allowed
    env.invoke(ep, "kitdemo_reword_event", {"event": "EVT-000001", "note": "rewritten"})
    with pytest.raises(AssertionError, match=r"events\.note"):
        check_append_only(ep.fork("kitdemo").diff(), append_only, "reword")


def test_paging_reports_total_and_truncation(env):
    ep = env.open()
    page = env.invoke(ep, "kitdemo_list_events", {"limit": 1})
    assert page["total"] == 1 and page["truncated"] is False and len(page["events"]) == 1
    assert Db.clip("x" * 9000)["truncated"] is True and len(Db.clip("x" * 9000)["text"]) == 8000
    assert Db.clip("short") == {"text": "short", "truncated": False}


def test_admin_reset_into_a_variant_over_http(tmp_path):
    with running_server(tmp_path / "cache", "--domains", "trading,vehicle", "--scale", "small") as base:
        sid = "variant-probe"

        async def status() -> dict:
            transport = StreamableHttpTransport(f"{base}/mcp", headers={"X-Env-Session": sid})
            async with Client(transport) as client:
                res = await client.call_tool("trading_get_market_status", {}, raise_on_error=False)
                return json.loads(res.content[0].text)

        asyncio.run(status())  # the first call opens the env session on the base snapshot
        state = httpx.get(f"{base}/admin/sessions/{sid}/state").json()
        only = httpx.get(f"{base}/admin/sessions/{sid}/state", params={"domains": "trading"}).json()
        assert set(state["domains"]) == {"trading", "vehicle"} and only["hash"] != state["hash"]
        assert only["hash"] == combine_hashes({"trading": state["domains"]["trading"]})  # a task's own hash
        unknown = httpx.get(f"{base}/admin/sessions/{sid}/state", params={"domains": "nope"})
        assert unknown.status_code == 400 and "trading" in unknown.json()["error"]
        r = httpx.post(f"{base}/admin/sessions/{sid}/reset", json={"variants": {"trading": "market_closed"}})
        assert r.status_code == 200 and r.json()["snapshot"]["trading"]["variant"] == "market_closed"
        bad = httpx.post(f"{base}/admin/sessions/{sid}/reset", json={"variants": {"trading": "nope"}})
        assert bad.status_code == 400 and "market_closed" in bad.json()["error"]
        junk = httpx.post(f"{base}/admin/sessions/{sid}/reset", content=b"{not json")
        assert junk.status_code == 400 and "variants" in junk.json()["error"]
        closed = asyncio.run(status())  # the agent's next call sees the variant's state
        back = httpx.post(f"{base}/admin/sessions/{sid}/reset", json={"variants": {"trading": None}})
        assert "variant" not in back.json()["snapshot"]["trading"]
        assert asyncio.run(status()) != closed
        fresh = httpx.post(
            f"{base}/admin/sessions/new-one/reset", json={"variants": {"trading": "market_closed"}}
        )
        assert fresh.status_code == 200 and fresh.json()["snapshot"]["trading"]["variant"] == "market_closed"
        refused = httpx.post(f"{base}/admin/sessions/never/reset", json={"variants": {"trading": "nope"}})
        assert (
            refused.status_code == 400 and httpx.get(f"{base}/admin/sessions/never/state").status_code == 404
        )
        served = httpx.get(f"{base}/admin/snapshots").json()
        assert (
            set(served["snapshots"]) == {"trading", "vehicle"}
            and served["snapshots"]["trading"]["scale"] == "small"
        )
        assert served["snapshots"]["trading"]["sha256"] == state["snapshot"]["trading"]["sha256"]
        assert "market_closed" in served["variants"]["trading"]


def test_a_page_counts_without_its_order_but_keeps_an_order_that_binds_values():
    import sqlite3

    from servers.kit import Db

    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE t (id TEXT PRIMARY KEY, owner TEXT, n INT)")
    conn.executemany(
        "INSERT INTO t VALUES (?, ?, ?)", [(f"T{i}", "me" if i % 3 else "you", i) for i in range(10)]
    )
    db = Db(conn)
    plain = db.page("SELECT * FROM t WHERE n >= ? ORDER BY n DESC", 2, limit=3)
    assert plain["total"] == 8 and [r["n"] for r in plain["items"]] == [9, 8, 7] and plain["truncated"]
    bound = db.page("SELECT * FROM t WHERE n < ? ORDER BY owner != ?, n", 9, "you", limit=4)
    assert bound["total"] == 9 and [r["owner"] for r in bound["items"]] == ["you", "you", "you", "me"]
    nested = db.page("SELECT * FROM t WHERE id IN (SELECT id FROM t ORDER BY n LIMIT 4) ORDER BY n", limit=2)
    assert nested["total"] == 4  # the subquery keeps its ORDER BY ... LIMIT


def test_list_records_total_is_the_count_on_every_page(make_env):
    """The total is counted only when the page cannot tell it; it must be the same either way."""
    env = make_env("banking")
    ep = env.open()
    with ep.fork("banking").reading() as conn:
        count = conn.execute("SELECT count(*) FROM accounts").fetchone()[0]
        mine = conn.execute("SELECT count(*) FROM accounts WHERE status = 'open'").fetchone()[0]
    assert count > 20
    for args, expected in [
        ({}, count),  # a full page
        ({"offset": count - 3}, count),  # a short last page
        ({"offset": count}, count),  # past the end: an empty page says nothing, so it is counted
        ({"offset": count + 50}, count),
        ({"field": "status", "value": "open", "limit": 100}, mine),
        ({"field": "status", "value": "no such status"}, 0),
    ]:
        page = env.invoke(ep, "banking_list_records", {"table": "accounts", **args})
        assert page["total"] == expected, args


@pytest.mark.parametrize("limit", [1, 7, 20, 100])
def test_db_page_total_and_truncated_are_the_same_on_every_page(limit):
    """The total is counted only when the page cannot tell it (full, or empty past the start)."""
    import sqlite3

    from servers.kit.db import Db

    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, k TEXT)")
    conn.executemany("INSERT INTO t VALUES (?, ?)", [(i, "ab"[i % 2]) for i in range(1, 24)])
    db = Db(conn)
    for where, n in (("1", 23), ("k = 'a'", 11), ("k = 'z'", 0)):
        for offset in (0, 5, 11, 12, 22, 23, 40):
            page = db.page(f"SELECT * FROM t WHERE {where} ORDER BY id", limit=limit, offset=offset)
            shown = len(page["items"])
            assert page["total"] == n, (where, offset)
            assert shown == max(0, min(limit, n - offset))
            assert page["truncated"] == (offset + shown < n)
