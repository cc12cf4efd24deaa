"""CRM rules: ownership and territories, contacts and merging, lead qualification and conversion,
deal stages (requirements, wins, losses, reopening), activities and tasks. Each refused call names
its values and changes nothing; each success changes exactly the rows it should."""

from __future__ import annotations

import pytest

from servers.domains.crm import rules as R
from servers.kit import world
from servers.registry import get_domain
from tests.domain_helpers import DomainCalls, changes

DOMAIN = "crm"
calls = DomainCalls(DOMAIN)
call, fails, rows, one = calls.call, calls.fails, calls.rows, calls.one
DISCOVERY = {"list_records", "search_records", "get_unique_values"}
PERSONA = "USR-000001"
TEAM = "(SELECT id FROM users WHERE territory_id = 'west')"
OTHERS = "(SELECT id FROM users WHERE territory_id != 'west')"


@pytest.fixture
def crm(make_env):
    env = make_env(DOMAIN)
    return env, env.open()


def tables(ep) -> set[str]:
    return {c["table"] for c in ep.diff()}


def inserted(ep, table: str) -> list[str]:
    return sorted({c["pk"] for c in ep.diff() if c["table"] == table and c["op"] == "insert"})


def open_deal(ep, where: str = "1") -> dict:
    return one(
        ep, f"SELECT * FROM deals WHERE status = 'open' AND owner_id IN {TEAM} AND ({where}) ORDER BY id"
    )


# -- catalogue, seed and the persona ------------------------------------------------------------------


def test_enough_tools_each_with_two_ways_to_ask():
    domain = get_domain(DOMAIN)
    own = [t for name, t in domain.tools.items() if name not in DISCOVERY and not t.hidden]
    assert len(own) >= 21
    assert all(len(t.says) >= 2 for t in own), [t.name for t in own if len(t.says) < 2]
    assert domain.append_only() == {"stage_history": frozenset()}
    assert domain.tools["merge_contacts"].annotations()["destructiveHint"]
    assert domain.tools["convert_lead"].annotations()["destructiveHint"]
    assert domain.tools["complete_task"].annotations()["idempotentHint"]
    assert domain.tools["create_task"].params[1].constraints["pattern"].startswith("^[0-9]{4}")


def test_sampler_pools_at_medium(medium):
    def count(sql: str) -> int:
        return medium.execute(sql).fetchone()[0]

    assert count("SELECT count(*) FROM leads WHERE status = 'qualified'") >= 150
    assert count(f"SELECT count(*) FROM leads WHERE {R.QUALIFIED_LEAD}") >= 50
    assert count(f"SELECT count(*) FROM deals WHERE {R.OPEN_DEAL}") >= 300
    pairs = "SELECT count(*) FROM contacts c JOIN contacts d ON d.name = c.name AND d.id > c.id"
    assert count(pairs) >= 80
    assert count(f"SELECT count(*) FROM contacts WHERE {R.ORIGINAL}") >= 20
    overdue_deals = count("SELECT count(*) FROM deals WHERE status = 'open' AND close_date < '2026-06-01'")
    overdue_tasks = count(
        "SELECT count(*) FROM activities WHERE kind = 'task' AND done = 0 AND due_on < '2026-06-01'"
    )
    assert overdue_deals + overdue_tasks >= 200
    assert count(f"SELECT count(*) FROM deals WHERE {R.OTHER_TEAMS}") >= 100
    assert count(f"SELECT count(*) FROM activities WHERE {R.OPEN_TASK} AND owner_id = '{PERSONA}'") >= 20
    assert count("SELECT count(*) FROM contacts WHERE do_not_contact = 1") > 0
    assert count("SELECT count(*) FROM deals WHERE status = 'open' AND amount = 0") > 0
    assert count("SELECT count(*) FROM stage_history") >= 4000
    assert count("SELECT count(*) FROM activities") == 20_000
    assert count("SELECT count(*) FROM users WHERE active = 0 AND territory_id = 'west'") == 1


def test_persona_manages_team_west_and_is_the_world_persona(medium):
    p = world(0, "medium").persona
    user = medium.execute(
        "SELECT name, email, role, territory_id FROM users WHERE id = ?", (PERSONA,)
    ).fetchone()
    assert user == (p.name, p.email, "manager", "west")
    assert medium.execute("SELECT user_id FROM sessions").fetchone() == (PERSONA,)
    internal = medium.execute(
        "SELECT a.type FROM contacts c JOIN accounts a ON a.id = c.account_id WHERE c.email = ?", (p.email,)
    ).fetchone()
    assert internal == ("internal",)
    reps = medium.execute(
        "SELECT count(*) FROM users WHERE manager_id = ? AND role = 'rep'", (PERSONA,)
    ).fetchone()
    assert reps == (8,)


def test_editable_condition_is_what_the_tools_allow(crm):
    env, ep = crm
    editable = {r["id"] for r in rows(ep, f"SELECT id FROM deals WHERE {R.EDITABLE}")}
    team = {r["id"] for r in rows(ep, f"SELECT id FROM deals WHERE owner_id IN {TEAM}")}
    assert editable == team
    assert {r["id"] for r in rows(ep, f"SELECT id FROM users WHERE {R.ASSIGNABLE}")} == {
        r["id"] for r in rows(ep, "SELECT id FROM users WHERE territory_id = 'west' AND active = 1")
    }


# -- ownership and territories ------------------------------------------------------------------------


def test_other_teams_records_cannot_be_changed(crm):
    env, ep = crm
    deal = one(
        ep,
        f"SELECT d.*, u.name AS owner FROM deals d JOIN users u ON u.id = d.owner_id WHERE d.status = 'open' AND d.owner_id IN {OTHERS} ORDER BY d.id",
    )
    msg = fails(env, ep, "update_deal", "is owned by", deal=deal["id"], amount=1234.0)
    assert deal["id"] in msg and deal["owner"] in msg and "team west" in msg
    lead = one(ep, f"SELECT * FROM leads WHERE status = 'working' AND owner_id IN {OTHERS} ORDER BY id")
    fails(env, ep, "update_lead", lead["owner_id"], lead=lead["id"], score=90)


def test_assignment_needs_an_active_teammate(crm):
    env, ep = crm
    deal = open_deal(ep)
    inactive = one(ep, "SELECT * FROM users WHERE territory_id = 'west' AND active = 0")
    msg = fails(env, ep, "update_deal", "is inactive", deal=deal["id"], owner=inactive["id"])
    assert inactive["name"] in msg
    outsider = one(ep, "SELECT * FROM users WHERE territory_id = 'central' AND active = 1 AND role = 'rep'")
    msg = fails(env, ep, "update_deal", "within your team", deal=deal["id"], owner=outsider["id"])
    assert "team central" in msg and outsider["id"] in msg
    rep = one(
        ep,
        "SELECT * FROM users WHERE territory_id = 'west' AND active = 1 AND role = 'rep' AND id != ?",
        deal["owner_id"],
    )
    call(env, ep, "update_deal", deal=deal["id"], owner=rep["id"])
    assert {k[2] for k in changes(ep)} == {"owner_id", "last_activity_at"} and tables(ep) == {"deals"}


def test_account_owner_and_no_op_updates(crm):
    env, ep = crm
    account = one(ep, f"SELECT * FROM accounts WHERE type != 'internal' AND owner_id IN {TEAM} ORDER BY id")
    fails(env, ep, "update_account", "already has tier", account=account["id"], tier=account["tier"])
    fails(env, ep, "update_account", "give at least one field", account=account["id"])
    internal = one(ep, "SELECT * FROM accounts WHERE type = 'internal'")
    fails(env, ep, "update_account", "owned by|internal", account=internal["id"], tier="smb")
    got = call(env, ep, "update_account", account=account["id"], employees=4321)
    assert got["employees"] == 4321 and set(changes(ep)) == {("accounts", account["id"], "employees")}


def test_leads_belong_to_the_team_of_their_territory(crm):
    env, ep = crm
    args = dict(
        first_name="Ana", last_name="Silva", email="Ana.Silva@brightwater.example", company_name="Brightwater"
    )
    msg = fails(
        env, ep, "create_lead", "belongs to territory international", **args, source="web", city="Tokyo"
    )
    assert "Tokyo" in msg and PERSONA in msg
    lead = call(env, ep, "create_lead", **args, source="referral", city="Seattle")
    assert (
        lead["status"] == "new" and lead["score"] == 40 and lead["email"] == "ana.silva@brightwater.example"
    )
    assert inserted(ep, "leads") == [lead["id"]] and tables(ep) == {"leads"}
    fails(env, ep, "create_lead", "already tracks", **args, source="web")


# -- contacts -------------------------------------------------------------------------------------------


def test_contact_email_is_unique_and_account_follows_the_domain(crm):
    env, ep = crm
    taken = one(ep, "SELECT * FROM contacts WHERE account_id IS NOT NULL ORDER BY id LIMIT 1 OFFSET 3")
    msg = fails(
        env,
        ep,
        "create_contact",
        "merge instead",
        first_name="X",
        last_name="Y",
        email=taken["email"].upper(),
    )
    assert taken["id"] in msg
    account = one(ep, "SELECT * FROM accounts WHERE type != 'internal' ORDER BY id")
    got = call(
        env, ep, "create_contact", first_name="Noor", last_name="Haddad", email=f"noor.h@{account['domain']}"
    )
    assert (
        got["account_id"] == account["id"] and got["owner_id"] == PERSONA and got["lifecycle_stage"] == "lead"
    )
    assert got["do_not_contact"] is False and inserted(ep, "contacts") == [got["id"]]


def test_lifecycle_only_moves_forward(crm):
    env, ep = crm
    c = one(ep, f"SELECT * FROM contacts WHERE {R.MY_CONTACT} AND lifecycle_stage = 'customer' ORDER BY id")
    msg = fails(env, ep, "update_contact", "only move forward", contact=c["id"], lifecycle_stage="mql")
    assert "evangelist, other" in msg
    call(env, ep, "update_contact", contact=c["id"], lifecycle_stage="evangelist", title="CFO")
    assert set(changes(ep)) == {("contacts", c["id"], "lifecycle_stage"), ("contacts", c["id"], "title")}


def test_do_not_contact_blocks_calls_and_emails_only(crm):
    env, ep = crm
    c = one(ep, f"SELECT * FROM contacts WHERE {R.MY_CONTACT} AND do_not_contact = 0 ORDER BY id")
    call(env, ep, "update_contact", contact=c["id"], do_not_contact=True)
    msg = fails(
        env, ep, "log_activity", "asked not to be contacted", kind="call", subject="Pricing", contact=c["id"]
    )
    assert c["id"] in msg
    note = call(env, ep, "log_activity", kind="note", subject="Opted out by phone", contact=c["id"])
    assert note["account_id"] == c["account_id"] and note["owner_id"] == PERSONA and note["done"] is False
    fails(env, ep, "log_activity", "say what the activity is about", kind="note", subject="x")


def test_activity_records_must_belong_together(crm):
    env, ep = crm
    deal = open_deal(ep)
    stranger = one(
        ep,
        "SELECT * FROM contacts WHERE do_not_contact = 0 AND account_id != ? ORDER BY id",
        deal["account_id"],
    )
    fails(
        env,
        ep,
        "log_activity",
        "do not belong together",
        kind="meeting",
        subject="x",
        contact=stranger["id"],
        deal=deal["id"],
    )
    act = call(env, ep, "log_activity", kind="meeting", subject="Demo", deal=deal["id"])
    assert act["account_id"] == deal["account_id"]
    assert ("deals", deal["id"], "last_activity_at") in changes(ep) and tables(ep) == {"activities", "deals"}


def test_merge_contacts(crm):
    env, ep = crm
    keep = one(ep, f"SELECT * FROM contacts WHERE {R.ORIGINAL} ORDER BY id")
    drop = one(ep, "SELECT * FROM contacts WHERE name = ? AND id > ? ORDER BY id", keep["name"], keep["id"])
    fails(env, ep, "merge_contacts", "into itself", primary=keep["id"], duplicate=keep["id"])
    other = one(ep, f"SELECT * FROM contacts WHERE {R.MY_CONTACT} AND name != ? ORDER BY id", keep["name"])
    msg = fails(
        env,
        ep,
        "merge_contacts",
        "do not look like the same person",
        primary=keep["id"],
        duplicate=other["id"],
    )
    assert keep["email"] in msg and other["email"] in msg
    acts = {r["id"] for r in rows(ep, "SELECT id FROM activities WHERE contact_id = ?", drop["id"])}
    call(env, ep, "merge_contacts", primary=keep["id"], duplicate=drop["id"])
    assert not rows(ep, "SELECT id FROM contacts WHERE id = ?", drop["id"])
    moved = {r["id"] for r in rows(ep, "SELECT id FROM activities WHERE contact_id = ?", keep["id"])}
    assert acts <= moved
    assert not rows(ep, "SELECT id FROM deal_contacts WHERE contact_id = ?", drop["id"])
    assert any(c["op"] == "delete" and c["pk"] == drop["id"] for c in ep.diff())
    merged = one(ep, "SELECT * FROM contacts WHERE id = ?", keep["id"])
    assert merged["do_not_contact"] == (keep["do_not_contact"] or drop["do_not_contact"])


# -- leads ----------------------------------------------------------------------------------------------


def test_lead_status_moves_and_unqualified_needs_a_reason(crm):
    env, ep = crm
    lead = one(ep, f"SELECT * FROM leads WHERE status = 'working' AND {R.EDITABLE} ORDER BY id")
    msg = fails(
        env, ep, "update_lead", "can move to nurturing, qualified, unqualified", lead=lead["id"], status="new"
    )
    assert lead["id"] in msg
    fails(env, ep, "update_lead", "needs a reason", lead=lead["id"], status="unqualified")
    call(env, ep, "update_lead", lead=lead["id"], status="unqualified", note="no budget this year")
    got = one(ep, "SELECT * FROM leads WHERE id = ?", lead["id"])
    assert got["status"] == "unqualified" and got["unqualified_reason"] == "no budget this year"
    assert tables(ep) == {"leads", "activities"}
    note = one(ep, "SELECT * FROM activities WHERE id = ?", inserted(ep, "activities")[0])
    assert note["lead_id"] == lead["id"] and note["kind"] == "note"


def test_converted_leads_are_read_only_and_convert_once(crm):
    env, ep = crm
    done = one(ep, f"SELECT * FROM leads WHERE status = 'converted' AND {R.EDITABLE} ORDER BY id")
    msg = fails(env, ep, "update_lead", "converted leads are read-only", lead=done["id"], score=10)
    assert done["converted_contact_id"] in msg
    msg = fails(env, ep, "convert_lead", "a lead converts once", lead=done["id"])
    assert done["converted_account_id"] in msg
    working = one(ep, f"SELECT * FROM leads WHERE status = 'working' AND {R.EDITABLE} ORDER BY id")
    fails(env, ep, "convert_lead", "only qualified leads", lead=working["id"])


def test_convert_a_stranger_creates_account_contact_and_deal(crm):
    env, ep = crm
    lead = call(
        env,
        ep,
        "create_lead",
        first_name="Li",
        last_name="Wei",
        email="li.wei@kestrelfoods.example",
        company_name="Kestrel Foods",
        source="event",
        city="Portland",
    )
    call(env, ep, "update_lead", lead=lead["id"], status="qualified")
    fails(
        env,
        ep,
        "convert_lead",
        "only apply when a deal is created",
        lead=lead["id"],
        create_deal=False,
        amount=500.0,
    )
    got = call(env, ep, "convert_lead", lead=lead["id"], deal_name="Kestrel pilot", amount=8000.0)
    assert got["status"] == "converted" and got["account"]["created"] and got["contact"]["created"]
    account = one(ep, "SELECT * FROM accounts WHERE id = ?", got["account"]["id"])
    assert (account["domain"], account["territory_id"], account["type"]) == (
        "kestrelfoods.example",
        "west",
        "prospect",
    )
    deal = one(ep, "SELECT * FROM deals WHERE id = ?", got["deal"]["id"])
    assert (deal["stage_id"], deal["amount"], deal["close_date"]) == ("prospecting", 8000.0, "2026-07-01")
    assert deal["primary_contact_id"] == got["contact"]["id"]
    contact = one(ep, "SELECT * FROM contacts WHERE id = ?", got["contact"]["id"])
    assert contact["lifecycle_stage"] == "opportunity"
    assert tables(ep) == {"leads", "accounts", "contacts", "deals", "deal_contacts", "stage_history"}
    fails(env, ep, "convert_lead", "converts once", lead=lead["id"])


def test_convert_reuses_the_contact_with_the_email(crm):
    env, ep = crm
    contact = one(
        ep,
        f"SELECT * FROM contacts WHERE {R.MY_CONTACT} AND email LIKE '%.%@%' AND email NOT IN "
        "(SELECT email FROM leads WHERE status NOT IN ('converted', 'unqualified')) ORDER BY id",
    )
    lead = call(
        env,
        ep,
        "create_lead",
        first_name=contact["first_name"],
        last_name=contact["last_name"],
        email=contact["email"],
        company_name="Somewhere",
        source="web",
        city="Portland",
    )
    call(env, ep, "update_lead", lead=lead["id"], status="qualified")
    got = call(env, ep, "convert_lead", lead=lead["id"])
    assert got["contact"] == {"id": contact["id"], "name": contact["name"], "created": False}
    assert got["account"] == {"id": contact["account_id"], "name": got["account"]["name"], "created": False}
    assert got["deal"] is None and inserted(ep, "contacts") == [] and inserted(ep, "accounts") == []
    assert tables(ep) <= {"leads", "contacts"}


# -- deals ----------------------------------------------------------------------------------------------


def test_create_deal_rules(crm):
    env, ep = crm
    account = one(ep, f"SELECT * FROM accounts WHERE type != 'internal' AND owner_id IN {TEAM} ORDER BY id")
    internal = one(ep, "SELECT id FROM accounts WHERE type = 'internal'")["id"]
    base = dict(name="Pilot", amount=5000.0, close_date="2026-07-15")
    fails(env, ep, "create_deal", "internal", **base, account=internal)
    fails(
        env,
        ep,
        "create_deal",
        "is in the past; today is 2026-06-01",
        **{**base, "close_date": "2026-05-30"},
        account=account["id"],
    )
    fails(
        env,
        ep,
        "create_deal",
        "belongs to pipeline sales, not renewals",
        **base,
        account=account["id"],
        pipeline="renewals",
        stage="proposal",
    )
    fails(env, ep, "create_deal", "starts in an open stage", **base, account=account["id"], stage="won")
    msg = fails(
        env, ep, "create_deal", "needs a primary contact", **base, account=account["id"], stage="negotiation"
    )
    assert "negotiation (Negotiation)" in msg
    stranger = one(ep, "SELECT * FROM contacts WHERE account_id != ? ORDER BY id", account["id"])
    fails(
        env,
        ep,
        "create_deal",
        f"works at account {stranger['account_id']}",
        **base,
        account=account["id"],
        primary_contact=stranger["id"],
    )
    other = one(ep, f"SELECT id FROM accounts WHERE type != 'internal' AND owner_id IN {OTHERS} ORDER BY id")[
        "id"
    ]
    fails(env, ep, "create_deal", "is owned by", **base, account=other)
    deal = call(env, ep, "create_deal", **base, account=account["id"], stage="discovery")
    assert (deal["pipeline_id"], deal["status"], deal["owner_id"]) == ("sales", "open", PERSONA)
    history = one(ep, "SELECT * FROM stage_history WHERE deal_id = ?", deal["id"])
    assert history["from_stage_id"] is None and history["to_stage_id"] == "discovery"


def test_stage_moves_stay_in_the_pipeline_and_win_only_late(crm):
    env, ep = crm
    early = open_deal(
        ep, "pipeline_id = 'sales' AND stage_id IN ('prospecting', 'qualification', 'discovery')"
    )
    msg = fails(env, ep, "move_deal_stage", "belongs to pipeline renewals", deal=early["id"], stage="renewed")
    assert "prospecting, qualification, discovery" in msg
    fails(env, ep, "move_deal_stage", "already in stage", deal=early["id"], stage=early["stage_id"])
    msg = fails(
        env,
        ep,
        "move_deal_stage",
        "can be won only from proposal, negotiation, contracting",
        deal=early["id"],
        stage="won",
    )
    assert early["id"] in msg
    fails(env, ep, "move_deal_stage", "needs a lost_reason", deal=early["id"], stage="lost")
    fails(
        env,
        ep,
        "move_deal_stage",
        "applies only to a lost stage",
        deal=early["id"],
        stage="proposal",
        lost_reason="timing",
    )


def test_winning_needs_amount_and_contact_and_updates_account_and_contact(crm):
    env, ep = crm
    deal = open_deal(ep, "stage_id = 'proposal' OR stage_id = 'contracting' OR stage_id = 'quoted'")
    won = "won" if deal["pipeline_id"] == "sales" else "renewed"
    call(env, ep, "move_deal_stage", deal=deal["id"], stage=won)
    got = one(ep, "SELECT * FROM deals WHERE id = ?", deal["id"])
    assert (got["status"], got["close_date"], got["closed_at"]) == (
        "won",
        "2026-06-01",
        "2026-06-01T09:00:00",
    )
    assert one(ep, "SELECT type FROM accounts WHERE id = ?", deal["account_id"])["type"] in (
        "customer",
        "partner",
    )
    assert one(ep, "SELECT lifecycle_stage FROM contacts WHERE id = ?", got["primary_contact_id"])[
        "lifecycle_stage"
    ] in ("customer", "evangelist", "other")
    assert len(inserted(ep, "stage_history")) == 1
    fails(env, ep, "update_deal", "is closed", deal=deal["id"], amount=99.0)
    fails(
        env,
        ep,
        "move_deal_stage",
        "reopen it to an open stage first",
        deal=deal["id"],
        stage=R_LOST[deal["pipeline_id"]],
        lost_reason="other",
    )


R_LOST = {"sales": "lost", "renewals": "churned"}


def test_amount_zero_deal_cannot_reach_proposal(crm):
    env, ep = crm
    lead = call(
        env,
        ep,
        "create_lead",
        first_name="Sam",
        last_name="Ortiz",
        email="sam.ortiz@northwind.example",
        company_name="Northwind",
        source="web",
        city="Seattle",
    )
    call(env, ep, "update_lead", lead=lead["id"], status="qualified")
    deal = call(env, ep, "convert_lead", lead=lead["id"], create_deal=True)["deal"]
    msg = fails(env, ep, "move_deal_stage", "needs an amount above 0", deal=deal["id"], stage="proposal")
    assert "(it is 0.00)" in msg
    call(env, ep, "update_deal", deal=deal["id"], amount=15000.0)
    call(env, ep, "move_deal_stage", deal=deal["id"], stage="proposal")


def test_lost_then_reopened_by_the_manager(crm):
    env, ep = crm
    deal = open_deal(ep, "pipeline_id = 'sales'")
    call(env, ep, "move_deal_stage", deal=deal["id"], stage="lost", lost_reason="competitor")
    lost = one(ep, "SELECT * FROM deals WHERE id = ?", deal["id"])
    assert (lost["status"], lost["lost_reason"]) == ("lost", "competitor")
    call(env, ep, "move_deal_stage", deal=deal["id"], stage="qualification")
    back = one(ep, "SELECT * FROM deals WHERE id = ?", deal["id"])
    assert (back["status"], back["lost_reason"], back["closed_at"]) == ("open", None, None)
    assert back["close_date"] >= "2026-06-01"
    moves = rows(
        ep,
        "SELECT from_stage_id, to_stage_id FROM stage_history WHERE deal_id = ? ORDER BY id DESC LIMIT 2",
        deal["id"],
    )
    assert moves == [
        {"from_stage_id": "lost", "to_stage_id": "qualification"},
        {"from_stage_id": deal["stage_id"], "to_stage_id": "lost"},
    ]


def test_reps_cannot_reopen_or_touch_teammates_records(crm):
    env, ep = crm
    rep = one(
        ep, "SELECT * FROM users WHERE territory_id = 'west' AND active = 1 AND role = 'rep' ORDER BY id"
    )
    closed = one(ep, "SELECT * FROM deals WHERE status != 'open' AND owner_id = ? ORDER BY id", rep["id"])
    peer = one(
        ep,
        f"SELECT * FROM deals WHERE status = 'open' AND owner_id IN {TEAM} AND owner_id != ? ORDER BY id",
        rep["id"],
    )
    with ep.fork(DOMAIN).writing() as conn:  # the rep signs in instead of the persona
        conn.execute("UPDATE sessions SET user_id = ?", (rep["id"],))
    msg = fails(
        env,
        ep,
        "move_deal_stage",
        "only a manager can reopen",
        deal=closed["id"],
        stage="proposal" if closed["pipeline_id"] == "sales" else "upcoming",
    )
    assert closed["id"] in msg
    msg = fails(env, ep, "update_deal", "may only change records you own", deal=peer["id"], amount=100.0)
    assert rep["name"] in msg
    fails(env, ep, "create_task", "reps cannot assign", subject="x", due_day="2026-06-02", owner=PERSONA)
    assert {r["id"] for r in rows(ep, f"SELECT id FROM deals WHERE {R.EDITABLE}")} == {
        r["id"] for r in rows(ep, "SELECT id FROM deals WHERE owner_id = ?", rep["id"])
    }


def test_add_contact_to_deal(crm):
    env, ep = crm
    deal = open_deal(ep, "primary_contact_id IS NOT NULL")
    fails(
        env,
        ep,
        "add_contact_to_deal",
        "already on deal",
        deal=deal["id"],
        contact=deal["primary_contact_id"],
        role="user",
    )
    stranger = one(ep, "SELECT * FROM contacts WHERE account_id != ? ORDER BY id", deal["account_id"])
    fails(
        env,
        ep,
        "add_contact_to_deal",
        f"not at {deal['account_id']}",
        deal=deal["id"],
        contact=stranger["id"],
        role="user",
    )
    peer = rows(
        ep,
        "SELECT id FROM contacts WHERE account_id = ? AND id NOT IN (SELECT contact_id FROM deal_contacts WHERE deal_id = ?)",
        deal["account_id"],
        deal["id"],
    )
    if peer:
        got = call(env, ep, "add_contact_to_deal", deal=deal["id"], contact=peer[0]["id"], role="champion")
        assert got["role"] == "champion" and tables(ep) == {"deal_contacts"}


def test_pipeline_summary_weights_amounts_by_probability(crm):
    env, ep = crm
    got = call(env, ep, "get_pipeline_summary", pipeline="sales", team="west")
    want = one(
        ep,
        "SELECT sum(d.amount * s.probability) AS w FROM deals d JOIN stages s ON s.id = d.stage_id "
        f"WHERE d.pipeline_id = 'sales' AND d.status = 'open' AND d.owner_id IN {TEAM}",
    )["w"]
    assert got["weighted_forecast"] == pytest.approx(want, abs=0.05)
    assert [s["stage"] for s in got["stages"]][:3] == ["prospecting", "qualification", "discovery"]


# -- tasks ----------------------------------------------------------------------------------------------


def test_task_rules(crm):
    env, ep = crm
    fails(env, ep, "create_task", "is in the past", subject="Call back", due_day="2026-05-31")
    inactive = one(ep, "SELECT id FROM users WHERE territory_id = 'west' AND active = 0")["id"]
    fails(env, ep, "create_task", "is inactive", subject="Call back", due_day="2026-06-03", owner=inactive)
    rep = one(
        ep, "SELECT id FROM users WHERE territory_id = 'west' AND active = 1 AND role = 'rep' ORDER BY id"
    )["id"]
    task = call(env, ep, "create_task", subject="Call back", due_day="2026-06-03", owner=rep)
    assert (task["kind"], task["due_on"], task["owner_id"], task["done"]) == (
        "task",
        "2026-06-03",
        rep,
        False,
    )
    done = call(env, ep, "complete_task", task=task["id"])
    assert done["done"] is True and done["completed_at"] == "2026-06-01T09:00:00"
    fails(env, ep, "complete_task", "already completed", task=task["id"])
    other = one(
        ep, f"SELECT id FROM activities WHERE kind = 'task' AND done = 0 AND owner_id IN {OTHERS} ORDER BY id"
    )["id"]
    fails(env, ep, "complete_task", "only they, their manager or an admin", task=other)
    call_row = one(ep, "SELECT id FROM activities WHERE kind = 'call' ORDER BY id")["id"]
    fails(env, ep, "complete_task", "not a task", task=call_row)
    mine = call(env, ep, "list_tasks", overdue_only=True)
    assert all(t["overdue"] and t["owner_id"] == PERSONA for t in mine["tasks"])


def test_new_lead_takes_its_company_and_city_from_the_email_domain(crm):
    env, ep = crm
    account = one(ep, "SELECT * FROM accounts WHERE territory_id = 'west' AND type != 'internal' ORDER BY id")
    lead = call(
        env,
        ep,
        "create_lead",
        first_name="Noor",
        last_name="Haddad",
        email=f"info@{account['domain']}",
        source="partner",
    )
    assert (lead["company_name"], lead["city"], lead["score"]) == (account["name"], account["city"], 35)
    fresh = call(
        env,
        ep,
        "create_lead",
        first_name="Li",
        last_name="Wei",
        email="hello@kestrelfoods.example",
        source="web",
    )
    assert (fresh["company_name"], fresh["city"]) == ("Kestrelfoods", "Portland")
