"""Video meeting's rules: plans, scheduling, starting and ending, joining with a passcode, the waiting
room and in-meeting controls, registration, recordings and retention. Each refused call names its
values and changes nothing; each success changes exactly its rows."""

from __future__ import annotations

import re
from datetime import datetime

import pytest

from servers.domains.video_meeting import rules
from servers.kit import world
from servers.registry import get_domain
from tests.domain_helpers import DomainCalls, changes

DOMAIN = "video_meeting"
calls = DomainCalls(DOMAIN)
call, fails, rows, one = calls.call, calls.fails, calls.rows, calls.one
DISCOVERY = {"list_records", "search_records", "get_unique_values"}
ME = "USR-000001"
PLANNING, WEBINAR, OFFICE_HOURS, ONE_ON_ONE, DESIGN, INTERVIEW = (f"MTG-00000{i}" for i in range(1, 7))
STANDUP, ROADMAP, COFFEE = "MTG-000009", "MTG-000010", "MTG-000008"
VENDOR_REVIEW, PARTNER_SYNC, INDUSTRY_WEBINAR = "MTG-000016", "MTG-000017", "MTG-000018"
CHOIR_LIVE, STUDIO_LIVE, ARCH_LIVE = "MTG-000019", "MTG-000020", "MTG-000021"
ROADMAP_REC, DEMO_REC, ALLHANDS_REC, EARLY_REC, BUDGET_REC, HUDDLE_REC, ARCH_REC = (
    f"REC-0000{i:02d}" for i in range(4, 11)
)
WORK, STUDIO, CHOIR = "ACT-000001", "ACT-000002", "ACT-000003"


@pytest.fixture
def vm(make_env):
    env = make_env(DOMAIN)
    return env, env.open()


def passcode(ep, meeting: str) -> str:
    return one(ep, "SELECT passcode FROM meetings WHERE id = ?", meeting)["passcode"]


def person(ep, meeting: str, state: str, role: str = "attendee") -> str:
    return one(
        ep,
        "SELECT id FROM participants WHERE meeting_id = ? AND state = ? AND role = ? ORDER BY id",
        meeting,
        state,
        role,
    )["id"]


def tables(ep) -> set[str]:
    return {c["table"] for c in ep.diff()}


# -- catalogue, seed and the persona ------------------------------------------------------------------


def test_enough_tools_each_with_two_ways_to_ask():
    domain = get_domain(DOMAIN)
    own = [t for name, t in domain.tools.items() if name not in DISCOVERY and not t.hidden]
    assert len(own) >= 28
    assert all(len(t.says) >= 2 for t in own), [t.name for t in own if len(t.says) < 2]
    join = {p.name: p for p in domain.tools["join_meeting"].params}
    assert join["passcode"].sensitive
    for name in (
        "delete_meeting",
        "cancel_occurrence",
        "end_meeting",
        "remove_participant",
        "delete_recording",
    ):
        assert domain.tools[name].annotations()["destructiveHint"], name
    for name in ("list_meetings", "get_meeting", "list_participants", "list_recordings", "get_account"):
        assert domain.tools[name].annotations()["readOnlyHint"], name
    assert "planning_live" in domain.variants


def test_sampler_pools_at_medium(medium):
    def count(sql: str) -> int:
        return medium.execute(sql).fetchone()[0]

    waiting = "id IN (SELECT meeting_id FROM participants WHERE state = 'waiting_room')"
    assert count(f"SELECT count(*) FROM meetings WHERE {rules.LIVE} AND {waiting}") >= 100
    assert count(f"SELECT count(*) FROM meetings WHERE status = 'waiting' AND {rules.MANAGED}") >= 800
    pending = f"status = 'pending' AND meeting_id IN {rules.OPEN_REGISTRATION}"
    assert count(f"SELECT count(*) FROM registrants WHERE {pending}") >= 400
    trashed = count(f"SELECT count(*) FROM recordings WHERE status = 'trashed' AND {rules.MINE_RECORDED}")
    restorable = count(
        f"SELECT count(*) FROM recordings WHERE {rules.RestorableRecording.__metadata__[0].where}"
    )
    assert trashed >= 100 and trashed / 3 <= restorable <= trashed * 2 / 3
    assert count("SELECT count(*) FROM meetings") >= 3000
    assert count("SELECT count(*) FROM instances") >= 2500
    assert count("SELECT count(*) FROM recordings WHERE kind = 'cloud'") >= 700
    for plan in ("basic", "pro", "business"):
        assert count(f"SELECT count(*) FROM accounts WHERE plan = '{plan}'") > 0
    assert count(f"SELECT count(*) FROM meetings WHERE {rules.JoinableMeeting.__metadata__[0].where}") >= 100
    assert count("SELECT count(*) FROM recordings WHERE status = 'processing'") > 0


def test_persona_is_the_world_persona_and_administers_three_accounts(vm):
    env, ep = vm
    w = world(0, "small")
    me = one(ep, "SELECT * FROM users WHERE id = (SELECT user_id FROM sessions)")
    assert (me["id"], me["name"], me["email"], me["timezone"]) == (
        ME,
        w.persona.name,
        w.persona.email,
        "America/Los_Angeles",
    )
    admin = rows(ep, "SELECT account_id, role FROM account_admins WHERE user_id = ? ORDER BY account_id", ME)
    assert admin == [
        {"account_id": WORK, "role": "admin"},
        {"account_id": STUDIO, "role": "owner"},
        {"account_id": CHOIR, "role": "owner"},
    ]
    colleagues = {p.email for p in w.colleagues(w.persona)}
    workers = {r["email"] for r in rows(ep, "SELECT email FROM users WHERE account_id = ?", WORK)}
    assert colleagues <= workers  # the circle's colleagues come first
    now = call(env, ep, "get_current_time")
    assert now == {
        "utc": "2026-06-01T16:00:00",
        "local": "2026-06-01T09:00",
        "timezone": "America/Los_Angeles",
        "weekday": "Monday",
    }
    acct = call(env, ep, "get_account")
    assert (
        acct["plan"] == "business"
        and acct["limits"]["max_participants"] == 300
        and acct["your_role"] == "admin"
    )
    choir = call(env, ep, "get_account", account=CHOIR)
    assert choir["limits"]["max_duration_min"] == 40 and not choir["limits"]["co_hosts"]
    fails(
        env, ep, "get_account", r"neither belong to nor administer account ACT-000004", account="ACT-000004"
    )


def test_join_links_look_like_meeting_links_and_passcodes_stay_hidden(vm):
    env, ep = vm
    m = call(env, ep, "get_meeting", meeting=PLANNING)
    assert re.fullmatch(r"https://huddle\.example/j/8\d{10}", m["join_url"])
    assert m["join_url"].endswith(m["number"].replace(" ", "")) and m["passcode"] == passcode(ep, PLANNING)
    assert m["next_start_utc"] == "2026-06-01T16:00:00" and m["live"] == {"instance": None, "waiting_room": 4}
    listed = call(env, ep, "list_records", table="meetings", limit=50)
    assert listed["rows"] and all("passcode" not in r for r in listed["rows"])
    assert "passcode" not in call(env, ep, "get_meeting", meeting=PARTNER_SYNC)  # invited, not hosting
    assert passcode(ep, PLANNING) not in str(call(env, ep, "list_meetings", limit=100))


def test_list_meetings_filters(vm):
    env, ep = vm
    live = call(env, ep, "list_meetings", which="live", limit=100)
    ids = {m["id"] for m in live["meetings"]}
    assert {VENDOR_REVIEW, CHOIR_LIVE, STUDIO_LIVE, ARCH_LIVE} <= ids and all(
        m["status"] == "started" for m in live["meetings"]
    )
    found = call(env, ep, "list_meetings", query="monday PLANNING")
    assert [m["id"] for m in found["meetings"]] == [PLANNING] and found["meetings"][0]["host_name"]
    prev = call(env, ep, "list_meetings", which="previous", limit=5)
    starts = [m["start_utc"] for m in prev["meetings"]]
    assert starts == sorted(starts, reverse=True) and prev["truncated"]


# -- starting, ending, the waiting room --------------------------------------------------------------


def test_start_keeps_early_joiners_in_the_waiting_room_then_admit(vm):
    env, ep = vm
    started = call(env, ep, "start_meeting", meeting=PLANNING)
    assert started["in_meeting"] == 1 and started["waiting_room"] == 4 and started["recording"]
    inst = started["instance_id"]
    assert one(ep, "SELECT status FROM instances WHERE id = ?", inst)["status"] == "live"
    waiting = rows(
        ep,
        "SELECT id, instance_id, state FROM participants WHERE meeting_id = ? AND role = 'attendee' AND state != 'left'",
        PLANNING,
    )
    assert len(waiting) == 4 and all(
        p["instance_id"] == inst and p["state"] == "waiting_room" for p in waiting
    )
    assert tables(ep) == {"meetings", "instances", "participants", "recordings"}
    rec = one(ep, "SELECT kind, status FROM recordings WHERE id = ?", started["recording"])
    assert rec == {"kind": "cloud", "status": "recording"}  # the meeting records to the cloud automatically
    first = waiting[0]["id"]
    before = changes(ep)
    call(env, ep, "admit_participant", participant=first)
    after = changes(ep)
    new = {k: v for k, v in after.items() if k not in before or before[k] != v}
    assert {k[:2] for k in new} == {("participants", first), ("instances", inst)}
    fails(
        env,
        ep,
        "admit_participant",
        r"is not in the waiting room .* \(state: in_meeting\)",
        participant=first,
    )
    done = call(env, ep, "admit_all", meeting=PLANNING)
    assert len(done["participants"]) == 3
    fails(env, ep, "admit_all", r"nobody is waiting in the waiting room of MTG-000001", meeting=PLANNING)
    assert one(ep, "SELECT peak_participants FROM instances WHERE id = ?", inst)["peak_participants"] == 5


def test_start_rules(vm):
    env, ep = vm
    other = one(
        ep,
        "SELECT id FROM meetings WHERE status = 'waiting' AND host_id != ? AND account_id = ? ORDER BY id",
        ME,
        WORK,
    )["id"]
    fails(env, ep, "start_meeting", r"only the host of MTG-\d+ .*, .+, can start it", meeting=other)
    fails(env, ep, "start_meeting", r"Roadmap review'\) already took place and ended", meeting=ROADMAP)
    instant = call(env, ep, "start_instant_meeting", title="Launch go/no-go")
    assert instant["status"] == "started" and instant["in_meeting"] == 1 and instant["passcode"]
    fails(
        env,
        ep,
        "start_meeting",
        r"you are already hosting MTG-\d+ \('Launch go/no-go'\), which is live",
        meeting=PLANNING,
    )
    fails(env, ep, "start_instant_meeting", r"already hosting .*Launch go/no-go")


def test_end_meeting_stops_the_recording_and_everyone_leaves(vm):
    env, ep = vm
    used = one(ep, "SELECT used_storage_mb FROM accounts WHERE id = ?", WORK)["used_storage_mb"]
    began = datetime.fromisoformat(
        one(ep, "SELECT started_at FROM recordings WHERE id = ?", ARCH_REC)["started_at"]
    )
    minutes = int((datetime(2026, 6, 1, 16, 0) - began).total_seconds() // 60)
    done = call(env, ep, "end_meeting", meeting=ARCH_LIVE)  # a colleague's meeting: she is an admin
    assert done["status"] == "finished" and done["recording_id"] == ARCH_REC
    rec = one(ep, "SELECT status, duration_min, size_mb FROM recordings WHERE id = ?", ARCH_REC)
    assert (
        rec["status"] == "processing" and rec["duration_min"] == minutes and rec["size_mb"] == minutes * 4.0
    )
    # 180 days of retention on the work account
    assert call(env, ep, "get_recording", recording=ARCH_REC)["expires_on"] == "2026-11-28"
    assert (
        one(ep, "SELECT used_storage_mb FROM accounts WHERE id = ?", WORK)["used_storage_mb"]
        == used + minutes * 4.0
    )
    assert not rows(ep, "SELECT id FROM participants WHERE meeting_id = ? AND state != 'left'", ARCH_LIVE)
    fails(env, ep, "end_meeting", r"is not live \(it is finished\)", meeting=ARCH_LIVE)
    fails(
        env,
        ep,
        "end_meeting",
        r"only the host \(.+\) or an admin of account ACT-\d+ .* may end meeting MTG-000016",
        meeting=VENDOR_REVIEW,
    )


def test_ending_a_recurring_meeting_waits_for_the_next_time(vm):
    env, ep = vm
    call(env, ep, "start_meeting", meeting=PLANNING)
    assert call(env, ep, "end_meeting", meeting=PLANNING)["status"] == "waiting"
    assert call(env, ep, "get_meeting", meeting=PLANNING)["next_start_utc"] == "2026-06-08T16:00:00"


def test_planning_live_variant(make_env):
    env = make_env(DOMAIN)
    ep = env.open({DOMAIN: "planning_live"})
    m = call(env, ep, "get_meeting", meeting=PLANNING)
    assert m["status"] == "started" and m["live"]["waiting_room"] == 4 and m["live"]["in_meeting"] == 1
    fails(env, ep, "leave_meeting", r"you host MTG-000001 .*; end it for everyone", meeting=PLANNING)


# -- joining and leaving ----------------------------------------------------------------------------


def test_join_with_passcode_waits_for_the_host(vm):
    env, ep = vm
    fails(
        env,
        ep,
        "join_meeting",
        r"the passcode given for meeting MTG-000017 \('Partner sync'\) is not correct",
        meeting=PARTNER_SYNC,
        passcode="0000",
    )
    joined = call(env, ep, "join_meeting", meeting=PARTNER_SYNC, passcode=passcode(ep, PARTNER_SYNC))
    assert joined["state"] == "waiting_room" and joined["detail"] == "waiting for the host to start it"
    assert tables(ep) == {"participants"}
    p = one(ep, "SELECT * FROM participants WHERE id = ?", joined["id"])
    assert (p["user_id"], p["instance_id"], p["role"]) == (ME, None, "attendee")
    fails(
        env,
        ep,
        "join_meeting",
        r"you are already in MTG-000017 .* \(waiting room\)",
        meeting=PARTNER_SYNC,
        passcode=passcode(ep, PARTNER_SYNC),
    )
    fails(
        env,
        ep,
        "join_meeting",
        r"you host MTG-000001 .*; start it with start_meeting",
        meeting=PLANNING,
        passcode=passcode(ep, PLANNING),
    )
    fails(
        env,
        ep,
        "join_meeting",
        r"'Roadmap review'\) is finished; it cannot be joined",
        meeting=ROADMAP,
        passcode=passcode(ep, ROADMAP),
    )


def test_registration_meetings_need_an_approved_registration(vm):
    env, ep = vm
    joined = call(env, ep, "join_meeting", meeting=INDUSTRY_WEBINAR, passcode=passcode(ep, INDUSTRY_WEBINAR))
    assert joined["state"] == "waiting_room"  # approved registrant, host not there yet
    ep2 = env.open()
    reg = one(
        ep2,
        "SELECT id FROM meetings WHERE registration = 1 AND host_id != ? AND account_id = ? AND status = 'waiting' ORDER BY id",
        ME,
        WORK,
    )["id"]
    fails(
        env,
        ep2,
        "join_meeting",
        r"requires registration, and .* has no approved registration",
        meeting=reg,
        passcode=passcode(ep2, reg),
    )


def test_removed_people_cannot_come_back(vm):
    env, ep = vm
    joined = call(env, ep, "join_meeting", meeting=ARCH_LIVE, passcode=passcode(ep, ARCH_LIVE))
    assert joined["state"] == "waiting_room" and joined["detail"] == "waiting to be admitted"
    call(env, ep, "remove_participant", participant=joined["id"])
    fails(
        env,
        ep,
        "admit_participant",
        r"was removed from MTG-000021 .* cannot be admitted again",
        participant=joined["id"],
    )
    fails(
        env,
        ep,
        "join_meeting",
        r"you were removed from MTG-000021 .* cannot join it again",
        meeting=ARCH_LIVE,
        passcode=passcode(ep, ARCH_LIVE),
    )


def test_leave_a_waiting_room(vm):
    env, ep = vm
    left = call(env, ep, "leave_meeting", meeting=VENDOR_REVIEW)
    assert left["was"] == "waiting_room" and left["state"] == "left"
    assert {k[0] for k in changes(ep)} == {"participants"}
    fails(
        env,
        ep,
        "leave_meeting",
        r"you are not in MTG-000016 \('Vendor quarterly review'\)",
        meeting=VENDOR_REVIEW,
    )


# -- in-meeting controls and plans ----------------------------------------------------------------------


def test_a_basic_meeting_is_full_at_100(vm):
    env, ep = vm
    waiting = person(ep, CHOIR_LIVE, "waiting_room")
    fails(
        env,
        ep,
        "admit_participant",
        r"is full: 100 of 100 people are in it \(the basic plan's limit\)",
        participant=waiting,
    )
    fails(env, ep, "admit_all", r"is full: 100 of 100 .*; 2 more cannot be admitted", meeting=CHOIR_LIVE)
    attendee = person(ep, CHOIR_LIVE, "in_meeting")
    fails(
        env,
        ep,
        "make_co_host",
        r"co-hosts needs a pro or business plan; account ACT-000003 .* is on the basic plan",
        participant=attendee,
    )
    fails(
        env,
        ep,
        "start_recording",
        r"cloud recording needs a pro or business plan",
        meeting=CHOIR_LIVE,
        kind="cloud",
    )
    call(env, ep, "remove_participant", participant=attendee)
    assert call(env, ep, "admit_participant", participant=waiting)["state"] == "in_meeting"


def test_co_hosts_mute_and_remove(vm):
    env, ep = vm
    attendee = person(ep, ARCH_LIVE, "in_meeting")
    host = person(ep, ARCH_LIVE, "in_meeting", role="host")
    assert call(env, ep, "make_co_host", participant=attendee)["role"] == "co_host"
    fails(env, ep, "make_co_host", r"is already a co-host of MTG-000021", participant=attendee)
    fails(
        env,
        ep,
        "make_co_host",
        r"is the host of MTG-000021 .*; the host cannot be made a co-host",
        participant=host,
    )
    fails(env, ep, "remove_participant", r"is the host of MTG-000021 .* cannot be removed", participant=host)
    waiting = person(ep, ARCH_LIVE, "waiting_room")
    fails(
        env,
        ep,
        "mute_participant",
        r"is not in MTG-000021 .*\(state: waiting_room\); only people in it can be muted",
        participant=waiting,
    )
    call(env, ep, "mute_participant", participant=attendee, mute=False)
    call(env, ep, "mute_all", meeting=ARCH_LIVE)
    muted = {
        r["role"]: r["muted"]
        for r in rows(
            ep,
            "SELECT role, muted FROM participants WHERE meeting_id = ? AND state = 'in_meeting' AND role != 'attendee'",
            ARCH_LIVE,
        )
    }
    assert muted["co_host"] == 0  # hosts and co-hosts keep their microphones
    assert all(
        r["muted"]
        for r in rows(
            ep,
            "SELECT muted FROM participants WHERE meeting_id = ? AND state = 'in_meeting' AND role = 'attendee'",
            ARCH_LIVE,
        )
    )
    early = person(ep, PLANNING, "waiting_room")  # waiting for the host, who has not started yet
    fails(
        env,
        ep,
        "admit_participant",
        r"meeting MTG-000001 \('Monday planning'\) is not live \(it is waiting\)",
        participant=early,
    )


def test_recording_rules(vm):
    env, ep = vm
    fails(
        env,
        ep,
        "start_recording",
        r"MTG-000021 .* is already being recorded \(REC-000010, cloud\)",
        meeting=ARCH_LIVE,
    )
    fails(
        env,
        ep,
        "start_recording",
        r"cloud storage of account ACT-000002 .* is full: 5,120.0 of 5,120 MB used",
        meeting=STUDIO_LIVE,
    )
    local = call(env, ep, "start_recording", meeting=STUDIO_LIVE, kind="local")
    assert local["status"] == "recording" and local["kind"] == "local"
    stopped = call(env, ep, "stop_recording", meeting=STUDIO_LIVE)
    assert stopped["status"] == "available" and stopped["size_mb"] == 0.0
    fails(env, ep, "stop_recording", r"meeting MTG-000020 .* is not being recorded", meeting=STUDIO_LIVE)
    fails(
        env, ep, "start_recording", r"meeting MTG-000010 .* is not live \(it is finished\)", meeting=ROADMAP
    )


# -- scheduling and changing -------------------------------------------------------------------------


def test_schedule_rules_and_a_good_one(vm):
    env, ep = vm
    fails(
        env,
        ep,
        "schedule_meeting",
        r"start 2026-06-01T08:00 is not in the future \(it is now 2026-06-01T09:00",
        title="Early",
        start="2026-06-01T08:00",
    )
    fails(
        env,
        ep,
        "schedule_meeting",
        r"duration 10 minutes is out of range: meetings last 15-1440",
        title="Short",
        start="2026-06-02T10:00",
        duration_min=10,
    )
    choir = one(ep, "SELECT id FROM users WHERE account_id = ? AND status = 'active' ORDER BY id", CHOIR)[
        "id"
    ]
    fails(
        env, ep, "schedule_meeting",
        r"is on the basic plan: a meeting of 3 people \(the host and 2 invitees\) may last at most 40 minutes, not 60",
        title="Choir board", start="2026-06-02T19:00", duration_min=60, invitees=["a@x.example", "b@x.example"], host=choir,
    )  # fmt: skip
    fails(
        env,
        ep,
        "schedule_meeting",
        r"cloud recording needs a pro or business plan",
        title="Choir",
        start="2026-06-02T19:00",
        duration_min=30,
        auto_recording="cloud",
        host=choir,
    )
    fails(
        env,
        ep,
        "schedule_meeting",
        r"you can only schedule for users of accounts you administer",
        title="X",
        start="2026-06-02T10:00",
        host="USR-000049",
    )
    fails(
        env,
        ep,
        "schedule_meeting",
        r"a meeting with no fixed time takes no start",
        title="X",
        start="2026-06-02T10:00",
        recurrence="no_fixed_time",
    )
    m = call(
        env,
        ep,
        "schedule_meeting",
        title="Weekly sync",
        start="2026-06-03T10:00",
        duration_min=30,
        recurrence="weekly",
        invitees=["dana@corvid.example"],
    )
    assert (
        m["start_utc"] == "2026-06-03T17:00:00"
        and m["start_local"] == "2026-06-03T10:00"
        and m["kind"] == "recurring_fixed"
    )
    assert (
        m["rrule"] == "FREQ=WEEKLY"
        and re.fullmatch(r"https://huddle\.example/j/\d{11}", m["join_url"])
        and m["passcode"]
    )
    assert tables(ep) == {"meetings", "invitees"}
    assert one(ep, "SELECT name, email FROM invitees WHERE meeting_id = ?", m["id"]) == {
        "name": "dana",
        "email": "dana@corvid.example",
    }
    choir_ok = call(
        env,
        ep,
        "schedule_meeting",
        title="Choir board",
        start="2026-06-02T19:00",
        duration_min=40,
        invitees=["a@x.example", "b@x.example"],
        host=choir,
    )
    assert choir_ok["host_id"] == choir and choir_ok["account_id"] == CHOIR


def test_update_rules(vm):
    env, ep = vm
    fails(env, ep, "update_meeting", r"nothing to change", meeting=DESIGN)
    fails(env, ep, "update_meeting", r"'Roadmap review'\) already took place", meeting=ROADMAP, title="Again")
    fails(
        env,
        ep,
        "update_meeting",
        r"is live: its start and length cannot change",
        meeting=ARCH_LIVE,
        duration_min=90,
    )
    fails(
        env,
        ep,
        "update_meeting",
        r"recurring with no fixed time; it takes no start",
        meeting=COFFEE,
        start="2026-06-04T10:00",
    )
    fails(
        env,
        ep,
        "update_meeting",
        r"is already invited to MTG-000005",
        meeting=DESIGN,
        add_invitees=[one(ep, "SELECT email FROM invitees WHERE meeting_id = ?", DESIGN)["email"]],
    )
    out = call(env, ep, "update_meeting", meeting=DESIGN, title="Design crit", start="2026-06-04T11:30")
    assert out["title"] == "Design crit" and out["start_utc"] == "2026-06-04T18:30:00"
    assert {(k[0], k[2]) for k in changes(ep)} == {("meetings", "title"), ("meetings", "start_utc")}
    assert call(env, ep, "update_meeting", meeting=ARCH_LIVE, mute_on_entry=True)["mute_on_entry"] == 1


def test_delete_cancels_registrations_and_refuses_live_meetings(vm):
    env, ep = vm
    fails(
        env, ep, "delete_meeting", r"is live; end it with end_meeting before deleting it", meeting=ARCH_LIVE
    )
    out = call(env, ep, "delete_meeting", meeting=WEBINAR)
    assert out["registrations_cancelled"] == 8  # 5 pending and 3 approved; the denied one stays denied
    statuses = [
        r["status"]
        for r in rows(ep, "SELECT status FROM registrants WHERE meeting_id = ? ORDER BY id", WEBINAR)
    ]
    assert statuses == ["cancelled"] * 8 + ["denied", "cancelled"]
    fails(env, ep, "delete_meeting", r"MTG-000002 .* was deleted", meeting=WEBINAR)
    out = call(env, ep, "delete_meeting", meeting=PLANNING)
    assert out["turned_away"] == 4


def test_cancel_one_occurrence(vm):
    env, ep = vm
    fails(
        env, ep, "cancel_occurrence", r"has no occurrence on 2026-06-06", meeting=STANDUP, day="2026-06-06"
    )  # a Saturday
    fails(
        env,
        ep,
        "cancel_occurrence",
        r"2026-05-29 is in the past \(today is 2026-06-01\)",
        meeting=STANDUP,
        day="2026-05-29",
    )
    fails(
        env,
        ep,
        "cancel_occurrence",
        r"is scheduled, not a fixed-time recurring meeting",
        meeting=DESIGN,
        day="2026-06-03",
    )
    out = call(env, ep, "cancel_occurrence", meeting=ONE_ON_ONE, day="2026-06-03")  # every Wednesday
    assert out["next_start_utc"] == "2026-06-10T18:00:00"
    assert {(k[0], k[2]) for k in changes(ep)} == {("meetings", "skipped_days")}
    fails(
        env,
        ep,
        "cancel_occurrence",
        r"the 2026-06-03 occurrence of MTG-000004 .* was already cancelled",
        meeting=ONE_ON_ONE,
        day="2026-06-03",
    )


# -- registration ----------------------------------------------------------------------------------------


def test_registrant_status_changes(vm):
    env, ep = vm
    listed = call(env, ep, "list_registrants", meeting=WEBINAR, status="pending")
    assert listed["total"] == 5 and listed["approval"] == "manual"
    first = listed["registrants"][0]["id"]
    assert (
        call(env, ep, "update_registrant_status", registrant=first, action="approve")["status"] == "approved"
    )
    assert {(k[0], k[1]) for k in changes(ep)} == {("registrants", first)}
    fails(
        env,
        ep,
        "update_registrant_status",
        r"is approved; only pending registrants can be approved",
        registrant=first,
        action="approve",
    )
    denied = one(ep, "SELECT id FROM registrants WHERE meeting_id = ? AND status = 'denied'", WEBINAR)["id"]
    fails(
        env,
        ep,
        "update_registrant_status",
        r"is denied; only pending or approved registrants can be cancelled",
        registrant=denied,
        action="cancel",
    )
    assert call(env, ep, "update_registrant_status", registrant=first, action="deny")["status"] == "denied"
    fails(env, ep, "list_registrants", r"does not require registration", meeting=DESIGN)


# -- recordings --------------------------------------------------------------------------------------------


def test_trash_restore_and_delete_recordings(vm):
    env, ep = vm
    trashed = call(env, ep, "delete_recording", recording=ROADMAP_REC)
    assert trashed["status"] == "trashed" and trashed["trashed_at"] == "2026-06-01T16:00:00"
    fails(env, ep, "delete_recording", r"REC-000004 is already in the trash", recording=ROADMAP_REC)
    assert call(env, ep, "restore_recording", recording=ROADMAP_REC)["status"] == "available"
    info = call(env, ep, "get_recording", recording=DEMO_REC)
    assert (
        info["restorable"]
        and info["restorable_until"] == "2026-06-21T16:00:00"
        and info["transcript"]["status"] == "ready"
    )
    assert call(env, ep, "restore_recording", recording=DEMO_REC)["status"] == "available"
    fails(
        env,
        ep,
        "restore_recording",
        r"REC-000006 was trashed on 2026-04-17, more than 30 days ago",
        recording=ALLHANDS_REC,
    )
    fails(env, ep, "delete_recording", r"REC-000007 is still processing", recording=EARLY_REC)
    fails(
        env,
        ep,
        "delete_recording",
        r"REC-000009 is a local recording on the host's computer",
        recording=HUDDLE_REC,
    )
    used = one(ep, "SELECT used_storage_mb FROM accounts WHERE id = ?", WORK)["used_storage_mb"]
    size = one(ep, "SELECT size_mb FROM recordings WHERE id = ?", ALLHANDS_REC)["size_mb"]
    assert call(env, ep, "delete_recording", recording=ALLHANDS_REC, action="delete")["status"] == "deleted"
    assert one(ep, "SELECT used_storage_mb FROM accounts WHERE id = ?", WORK)["used_storage_mb"] == round(
        used - size, 1
    )
    fails(env, ep, "delete_recording", r"REC-000006 was permanently deleted", recording=ALLHANDS_REC)
    listed = call(
        env, ep, "list_recordings", include_trash=True, limit=100, from_day="2026-04-01", to_day="2026-04-30"
    )
    assert ALLHANDS_REC not in {r["id"] for r in listed["recordings"]}
    fails(
        env,
        ep,
        "list_recordings",
        r"from_day 2026-05-02 is after to_day 2026-05-01",
        from_day="2026-05-02",
        to_day="2026-05-01",
    )


def test_transcripts_and_retention(vm):
    env, ep = vm
    t = call(env, ep, "request_transcript", recording=BUDGET_REC, language="en-US")
    assert t["status"] == "processing" and t["recording_id"] == BUDGET_REC
    assert tables(ep) == {"transcripts"}
    fails(
        env,
        ep,
        "request_transcript",
        r"REC-000008 already has a transcript \(TRN-\d+, processing\)",
        recording=BUDGET_REC,
    )
    fails(
        env,
        ep,
        "set_recording_retention",
        r"retention of 400 days is not allowed on the pro plan: choose 30-365 days",
        account=STUDIO,
        days=400,
    )
    fails(
        env,
        ep,
        "set_recording_retention",
        r"ACT-000003 .* is on the basic plan, which has no cloud recordings",
        account=CHOIR,
        days=30,
    )
    out = call(env, ep, "set_recording_retention", account=WORK, days=90)
    assert out["recordings_affected"] > 0
    assert {(k[0], k[1]) for k in changes(ep)} == {("accounts", WORK), ("transcripts", t["id"])}
    assert call(env, ep, "get_recording", recording=ROADMAP_REC)["expires_on"] == "2026-08-26"  # May 28 + 90
    assert (
        one(ep, "SELECT recording_retention_days FROM accounts WHERE id = ?", WORK)[
            "recording_retention_days"
        ]
        == 90
    )
