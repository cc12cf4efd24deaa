"""Written policies in the kit: the document, both modes, breaches logged in the state, refusals
that change nothing, and the policy as an MCP resource. A small purpose-built desk exercises it."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta

import pytest
from fastmcp import Client
from fastmcp.client.transports import StreamableHttpTransport
from sqlalchemy.orm import Mapped, mapped_column

from servers.kit import Db, Domain, Near, Ref, Seeder, ToolError
from servers.kit.policy import PolicyRefusal
from servers.runtime import Environment
from servers.serve import build_http_app
from tests.serving import serving_in_thread

desk = Domain("policydemo", "A ticket desk whose rules are written down.", now="2026-06-01T09:00:00")
desk.policy_document(
    """
    # Ticket desk policy

    You help members change and refund their tickets.
    """,
    mode="written",
)


class Member(desk.Table, prefix="MEM"):
    __tablename__ = "members"
    id: Mapped[str] = mapped_column(primary_key=True)
    name: Mapped[str]
    tier: Mapped[str]


class Ticket(desk.Table, prefix="TIX"):
    __tablename__ = "tickets"
    id: Mapped[str] = mapped_column(primary_key=True)
    member_id: Mapped[str]
    fare: Mapped[str]
    booked_at: Mapped[str]
    status: Mapped[str]


# who the caller has been verified as (nobody at the start)
Desk = desk.acting(Member, "verified", login="verify_member", signed_out=True, foreign_key=False)


@desk.seed
def fill(s: Seeder) -> None:
    s.add(Member, [{"id": "MEM-000001", "name": "Ada", "tier": "gold"}])
    s.add(
        Ticket,
        [
            {
                "id": "TIX-000001",
                "member_id": "MEM-000001",
                "fare": "basic",
                "booked_at": "2026-05-31T08:00:00",
                "status": "open",
            },
            {
                "id": "TIX-000002",
                "member_id": "MEM-000001",
                "fare": "flex",
                "booked_at": "2026-05-31T10:00:00",
                "status": "open",
            },
        ],
    )
    s.add(Desk, [{"id": "SES-000001", "verified": None}])


def verify_owner(db: Db, tool: str, args: dict) -> tuple[str, dict]:
    member = db.get(Member, db.get(Ticket, args["ticket"])["member_id"])
    return "verify_member", {"member": member["id"], "name": member["name"]}


@desk.rule("verify-first", tools=["refund_ticket", "change_fare"], remedy=verify_owner)
def verified_first(db: Db, tool: str, args: dict) -> str | None:
    """Verify the member's identity before changing anything on their behalf."""
    member = db.get(Ticket, args["ticket"])["member_id"]
    if db.acting()["verified"] != member:
        return f"member {member} has not been verified in this conversation"
    return None


@desk.rule("basic-is-final", tools=["change_fare"])
def basic_is_final(db: Db, tool: str, args: dict) -> str | None:
    """Basic fares cannot be changed."""
    t = db.get(Ticket, args["ticket"])
    return f"ticket {t['id']} is a basic fare" if t["fare"] == "basic" else None


@desk.rule("refund-window", tools=["refund_ticket"])
def refund_window(db: Db, tool: str, args: dict) -> str | None:
    """Refunds only within 24 hours of booking."""
    t = db.get(Ticket, args["ticket"])
    age = db.now - datetime.fromisoformat(t["booked_at"])
    hours = age.total_seconds() / 3600
    if age > timedelta(hours=24):
        return f"ticket {t['id']} was booked {hours:.0f} h ago"
    return Near(f"booked {hours:.0f} h ago") if hours >= 20 else None


desk.confirmation(
    "confirm", "List the change and get an explicit yes before making it.", tools=["refund_ticket"]
)


@desk.tool(writes=[Desk], says=["I am {member}"], idempotent=True)
def verify_member(db: Db, member: Ref[Member], name: str) -> dict:
    """Verify a member by id and name."""
    if db.get(Member, member)["name"] != name:
        raise ToolError("the name does not match")
    return db.set_acting(verified=member)


@desk.tool(writes=[Ticket], says=["refund {ticket}"], destructive=True)
def refund_ticket(db: Db, ticket: Ref[Ticket]) -> dict:
    """Refund a ticket."""
    return db.update(Ticket, ticket, status="refunded")


@desk.tool(writes=[Ticket], says=["make {ticket} {fare}"])
def change_fare(db: Db, ticket: Ref[Ticket], fare: str) -> dict:
    """Change a ticket's fare."""
    return db.update(Ticket, ticket, fare=fare)


@pytest.fixture
def env(snapshot_cache) -> Environment:
    return Environment([desk], scale="small", cache=snapshot_cache)


def breaches(env: Environment, ep) -> list[tuple[int, str, str]]:
    with ep.fork("policydemo").reading() as conn:
        return [tuple(r) for r in conn.execute("SELECT rule, slug, tool FROM policy_breach ORDER BY id")]


def test_the_document_numbers_the_rules_in_declaration_order():
    text = desk.policy.markdown()
    assert text.startswith("# Ticket desk policy")
    assert "1. Verify the member's identity" in text and "2. Basic fares cannot be changed." in text
    assert "4. List the change and get an explicit yes" in text
    assert [r.slug for r in desk.policy.confirmations()] == ["confirm"]
    assert desk.policy.rule(2).slug == "basic-is-final" and desk.policy.rule("confirm").number == 4
    with pytest.raises(KeyError, match="rules: verify-first"):
        desk.policy.rule("nope")


def test_get_policy_is_a_read_tool_with_the_mode(env):
    assert "policy_breach" not in desk.tools["list_records"].input_schema()["properties"]["table"]["enum"]
    assert desk.tools["get_policy"].read_only
    ep = env.open()
    out = env.call(ep, "policydemo_get_policy", {})
    assert out.ok and out.value["mode"] == "written" and out.value["rules"][1]["slug"] == "basic-is-final"
    enforced = env.open({"policydemo": "enforced"})
    assert env.call(enforced, "policydemo_get_policy", {}).value["mode"] == "enforced"


@pytest.mark.parametrize("mode", ["written", "enforced"])
def test_each_rule_catches_a_violating_call_and_passes_a_compliant_one(env, mode):
    variants = {"policydemo": "enforced"} if mode == "enforced" else None
    # violations: no verification; a basic fare; a refund past the window
    cases = [
        ("policydemo_refund_ticket", {"ticket": "TIX-000002"}, False, "verify-first"),
        ("policydemo_change_fare", {"ticket": "TIX-000001", "fare": "flex"}, True, "basic-is-final"),
        ("policydemo_refund_ticket", {"ticket": "TIX-000001"}, True, "refund-window"),
    ]
    for tool, args, verify, slug in cases:
        ep = env.open(variants)
        if verify:
            assert env.call(ep, "policydemo_verify_member", {"member": "MEM-000001", "name": "Ada"}).ok
        out = env.call(ep, tool, args)
        if mode == "enforced":
            assert not out.ok and f"({slug})" in out.error and "Refused by policy rule" in out.error
            assert breaches(env, ep) == []
        else:
            assert out.ok, out.error
            assert [b[1] for b in breaches(env, ep)] == [slug]
    # compliant: verified, a flex fare, inside the window (near its edge: allowed)
    ep = env.open(variants)
    assert env.call(ep, "policydemo_verify_member", {"member": "MEM-000001", "name": "Ada"}).ok
    assert env.call(ep, "policydemo_change_fare", {"ticket": "TIX-000002", "fare": "plus"}).ok
    assert env.call(ep, "policydemo_refund_ticket", {"ticket": "TIX-000002"}).ok
    assert breaches(env, ep) == []


def test_a_refusal_changes_nothing_and_a_breach_lands_in_the_diff(env):
    enforced = env.open({"policydemo": "enforced"})
    before = enforced.state_hash(["policydemo"])
    with pytest.raises(PolicyRefusal) as caught:
        env.invoke(enforced, "policydemo_change_fare", {"ticket": "TIX-000001", "fare": "flex"})
    assert caught.value.rule.slug == "verify-first" and enforced.state_hash(["policydemo"]) == before
    written = env.open()
    assert env.call(written, "policydemo_refund_ticket", {"ticket": "TIX-000002"}).ok
    tables = {c["table"] for c in written.diff()}
    assert tables == {"tickets", "policy_breach"}


def test_near_verdicts_are_reported_but_allowed(env):
    ep = env.open()
    with ep.fork("policydemo").reading() as conn:
        verdicts = desk.policy.verdicts(Db(conn, desk.now), "refund_ticket", {"ticket": "TIX-000002"})
    kinds = {r.slug: isinstance(why, Near) for r, why in verdicts}
    assert kinds == {"verify-first": False, "refund-window": True}
    rule = desk.policy.rule("verify-first")
    with ep.fork("policydemo").reading() as conn:
        fix = rule.remedy(Db(conn, desk.now), "refund_ticket", {"ticket": "TIX-000002"})
    assert fix == ("verify_member", {"member": "MEM-000001", "name": "Ada"})
    assert env.call(ep, "policydemo_" + fix[0], fix[1]).ok
    with ep.fork("policydemo").reading() as conn:
        after = desk.policy.verdicts(Db(conn, desk.now), "refund_ticket", {"ticket": "TIX-000002"})
    assert [r.slug for r, _ in after] == ["refund-window"]


def test_rules_must_name_real_write_tools():
    bad = Domain("policybad", "x")
    bad.policy_document("# P")

    class Thing(bad.Table, prefix="THG"):
        __tablename__ = "things"
        id: Mapped[str] = mapped_column(primary_key=True)

    @bad.rule("r", tools=["nope"])
    def r(db, tool, args):
        """A rule."""

    with pytest.raises(ValueError, match="governs unknown tools"):
        bad.tools  # noqa: B018
    with pytest.raises(ValueError, match="mode 'lax'"):
        Domain("p2", "x").policy_document("# P", mode="lax")


def test_the_policy_is_an_mcp_resource_and_tool(env):
    with serving_in_thread(build_http_app(env)) as port:

        async def go():
            async with Client(
                StreamableHttpTransport(f"http://127.0.0.1:{port}/mcp", headers={"X-Env-Session": "p1"})
            ) as client:
                resources = {str(r.uri): r for r in await client.list_resources()}
                assert "policy://policydemo" in resources
                text = (await client.read_resource("policy://policydemo"))[0].text
                assert "2. Basic fares cannot be changed." in text
                out = await client.call_tool("policydemo_get_policy", {})
                assert out.structured_content["mode"] == "written"
                refused = await client.call_tool(
                    "policydemo_refund_ticket", {"ticket": "TIX-000001"}, raise_on_error=False
                )
                assert not refused.is_error  # written mode: the service does what it is asked

        asyncio.run(go())
