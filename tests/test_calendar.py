"""Calendar's rules: recurrence expansion (month ends, daylight saving), time zones, series
exceptions, permissions, rooms, free/busy, reminders and sharing. Each refused call names its
values and changes nothing; each success changes exactly its rows."""

from __future__ import annotations

from datetime import datetime

import pytest

from servers.domains.calendar import recurrence
from servers.domains.calendar.clock import ClockError, parse_moment, to_utc
from servers.domains.calendar.rules import MINE_TO_EDIT, PENDING
from servers.kit import world
from servers.registry import get_domain
from tests.domain_helpers import DomainCalls, changes

DOMAIN = "calendar"
calls = DomainCalls(DOMAIN)
call, fails, rows, one = calls.call, calls.fails, calls.rows, calls.one
DISCOVERY = {"list_records", "search_records", "get_unique_values"}
LA = "America/Los_Angeles"


@pytest.fixture
def cal(make_env):
    env = make_env(DOMAIN)
    return env, env.open()


def me(ep) -> str:
    return one(ep, "SELECT user_id FROM sessions")["user_id"]


def titled(ep, title: str) -> dict:
    return one(ep, "SELECT * FROM events WHERE title = ? AND series_id IS NULL ORDER BY id", title)


def tables(ep) -> set[str]:
    return {c["table"] for c in ep.diff()}


def inserted(ep, table: str) -> set[str]:
    return {c["pk"] for c in ep.diff() if c["table"] == table and c["op"] == "insert"}


def starts(rule: str, start: datetime, tz: str = LA, n: int = 10) -> list[str]:
    return [
        d.isoformat(timespec="minutes") for d in recurrence.expand(recurrence.parse(rule), start, tz, cap=n)
    ]


# -- recurrence, without the database ------------------------------------------------------------


def test_monthly_on_the_31st_skips_months_without_one():
    got = starts("FREQ=MONTHLY;BYMONTHDAY=31;COUNT=5", datetime(2026, 5, 31, 10))
    assert got == [
        "2026-05-31T10:00",
        "2026-07-31T10:00",
        "2026-08-31T10:00",
        "2026-10-31T10:00",
        "2026-12-31T10:00",
    ]
    last = starts("FREQ=MONTHLY;BYMONTHDAY=-1;COUNT=3", datetime(2026, 1, 31, 9))
    assert last == ["2026-01-31T09:00", "2026-02-28T09:00", "2026-03-31T09:00"]


def test_weekly_series_crosses_the_may_june_month_end():
    got = starts("FREQ=WEEKLY;BYDAY=TU,TH;UNTIL=20260609", datetime(2026, 5, 26, 11))
    assert got == [
        "2026-05-26T11:00",
        "2026-05-28T11:00",
        "2026-06-02T11:00",
        "2026-06-04T11:00",
        "2026-06-09T11:00",
    ]
    every_other = starts("FREQ=WEEKLY;INTERVAL=2;COUNT=3", datetime(2026, 5, 20, 9))
    assert every_other == ["2026-05-20T09:00", "2026-06-03T09:00", "2026-06-17T09:00"]


def test_daylight_saving_keeps_the_wall_time_and_moves_utc():
    rule = recurrence.parse("FREQ=WEEKLY;COUNT=3")
    la = list(recurrence.expand(rule, datetime(2026, 10, 25, 10), LA))
    assert [d.strftime("%H:%M") for d in la] == ["10:00", "10:00", "10:00"]
    assert [to_utc(d, LA).strftime("%m-%d %H:%M") for d in la] == [
        "10-25 17:00",
        "11-01 18:00",
        "11-08 18:00",
    ]
    london = list(recurrence.expand(rule, datetime(2026, 10, 18, 10), "Europe/London"))
    assert [to_utc(d, "Europe/London").strftime("%m-%d %H:%M") for d in london] == [
        "10-18 09:00",
        "10-25 10:00",
        "11-01 10:00",
    ]
    window = recurrence.between(
        rule, datetime(2026, 10, 25, 10), LA, datetime(2026, 10, 25, 11) - datetime(2026, 10, 25, 10),
        datetime(2026, 11, 1, 17, 30), datetime(2026, 11, 1, 19),
    )  # fmt: skip
    assert window == [datetime(2026, 11, 1, 10)]  # 18:00-19:00 UTC after the change


def test_monthly_ordinal_weekdays_interval_and_until():
    assert starts("FREQ=MONTHLY;BYDAY=-1FR;COUNT=3", datetime(2026, 5, 29, 9))[1:] == [
        "2026-06-26T09:00",
        "2026-07-31T09:00",
    ]
    assert starts("FREQ=MONTHLY;BYDAY=1MO;UNTIL=20260901", datetime(2026, 6, 1, 13)) == [
        "2026-06-01T13:00",
        "2026-07-06T13:00",
        "2026-08-03T13:00",
    ]
    assert starts("FREQ=DAILY;INTERVAL=3;COUNT=3", datetime(2026, 5, 30, 8)) == [
        "2026-05-30T08:00",
        "2026-06-02T08:00",
        "2026-06-05T08:00",
    ]
    assert starts("FREQ=YEARLY;COUNT=3", datetime(2028, 2, 29, 0)) == [
        "2028-02-29T00:00",
        "2032-02-29T00:00",
        "2036-02-29T00:00",
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("FREQ=WEEKLY;COUNT=3;UNTIL=20260701", "COUNT or UNTIL, not both"),
        ("FREQ=WEEKLY;BYMONTHDAY=3", "BYMONTHDAY cannot be used with FREQ=WEEKLY"),
        ("FREQ=WEEKLY;BYDAY=2TU", "ordinal .* only goes with FREQ=MONTHLY"),
        ("FREQ=HOURLY", "FREQ must be one of DAILY, WEEKLY, MONTHLY, YEARLY"),
        ("FREQ=DAILY;BYHOUR=9", "BYHOUR is not supported"),
        ("FREQ=DAILY;COUNT=731", "COUNT must be a whole number from 1 to 730"),
        ("FREQ=MONTHLY;BYMONTHDAY=32", "BYMONTHDAY value '32'"),
    ],
)
def test_rules_outside_the_subset_are_refused(text, message):
    with pytest.raises(recurrence.RuleError, match=message):
        recurrence.parse(text)


def test_splitting_a_counted_series_keeps_the_total():
    rule, start = recurrence.parse("FREQ=WEEKLY;BYDAY=FR;COUNT=12"), datetime(2026, 4, 17, 16)
    cut = datetime(2026, 6, 5, 16)
    before, after = recurrence.ending_before(rule, start, LA, cut), recurrence.remaining(rule, start, LA, cut)
    assert (before.count, after.count) == (7, 5)
    assert recurrence.rebase(after, cut, datetime(2026, 6, 4, 16), LA).text == "FREQ=WEEKLY;BYDAY=TH;COUNT=5"
    with pytest.raises(recurrence.RuleError, match=r"2026-06-02 \(Tuesday\) is not an occurrence"):
        recurrence.check_start(recurrence.parse("FREQ=WEEKLY;BYDAY=MO,WE"), datetime(2026, 6, 2, 9), LA)


def test_wall_times_that_do_not_exist_and_offsets():
    with pytest.raises(ClockError, match="2026-03-08T02:30 does not exist in America/Los_Angeles"):
        parse_moment("2026-03-08T02:30", LA)
    assert parse_moment("2026-06-02T17:00Z", LA) == datetime(2026, 6, 2, 10)
    assert parse_moment("2026-06-02T18:00+01:00", LA) == datetime(2026, 6, 2, 10)


# -- the catalogue, the seed and the persona's week -------------------------------------------------


def test_twenty_tools_each_with_two_ways_to_ask():
    domain = get_domain(DOMAIN)
    own = [t for name, t in domain.tools.items() if name not in DISCOVERY]
    assert len(own) == 20
    assert all(len(t.says) >= 2 for t in own), [t.name for t in own if len(t.says) < 2]
    for name in ("cancel_event", "remove_attendee", "remove_reminder", "unshare_calendar"):
        assert domain.tools[name].annotations()["destructiveHint"], name
    assert domain.tools["list_events"].annotations()["readOnlyHint"]
    assert not domain.tools["create_event"].annotations()["idempotentHint"]


def test_sampler_pools_at_medium(medium):
    def count(sql: str) -> int:
        return medium.execute(sql).fetchone()[0]

    assert count(f"SELECT count(*) FROM events WHERE {MINE_TO_EDIT} AND rrule IS NULL") >= 150
    assert count(f"SELECT count(*) FROM events WHERE {PENDING}") >= 40
    series = medium.execute(
        "SELECT rrule, start_local, timezone FROM events WHERE rrule IS NOT NULL AND status != 'cancelled' "
        "AND id IN (SELECT event_id FROM attendees WHERE user_id = (SELECT user_id FROM sessions))"
    ).fetchall()
    upcoming = sum(
        len(recurrence.between(recurrence.parse(r), datetime.fromisoformat(s), tz, datetime.min - datetime.min,
                               datetime(2026, 6, 1, 16), datetime(2026, 8, 31)))
        for r, s, tz in series
    )  # fmt: skip
    assert upcoming >= 200
    booked = medium.execute(
        "SELECT count(DISTINCT a.room_id) FROM attendees a JOIN events e ON e.id = a.event_id WHERE a.room_id IS NOT NULL "
        "AND e.status != 'cancelled' AND e.start_utc < '2026-06-02T19:00:00' AND e.end_utc > '2026-06-02T17:00:00'"
    ).fetchone()[0]
    assert count("SELECT count(*) FROM rooms") - booked >= 30
    assert count("SELECT count(*) FROM events WHERE series_id IS NOT NULL") >= 100
    assert count("SELECT count(*) FROM users WHERE is_external = 1") == 50


def test_the_persona_and_her_week(cal):
    env, ep = cal
    p = world(0, "small").persona
    assert (
        one(ep, "SELECT * FROM users WHERE id = ?", me(ep))["name"]
        == p.name
        == one(ep, "SELECT name FROM users ORDER BY person_id")["name"]
    )
    now = call(env, ep, "get_current_time")
    assert (now["local_time"], now["weekday"], now["timezone"], now["utc"]) == (
        "2026-06-01T09:00",
        "Monday",
        LA,
        "2026-06-01T16:00Z",
    )
    week = call(env, ep, "list_events", start_day="2026-06-01", end_day="2026-06-07", limit=100)["events"]
    assert 18 <= len(week) <= 25
    overlaps = sum(
        1
        for i, a in enumerate(week)
        for b in week[i + 1 :]
        if a["start"] < b["end"] and b["start"] < a["end"]
    )
    assert overlaps >= 3
    answers = [e["my_response"] for e in week]
    assert answers.count("needs_action") >= 10 and "tentative" in answers
    declined = call(env, ep, "list_events", start_day="2026-06-03", include_declined=True)["events"]
    assert "declined" in [e["my_response"] for e in declined]
    one_on_one = next(e for e in week if e["title"].startswith("1:1"))
    assert (one_on_one["start"], one_on_one["id"] != one_on_one["event"]) == ("2026-06-04T15:00", True)
    assert not [
        e
        for e in call(env, ep, "list_events", start_day="2026-06-03")["events"]
        if e["title"].startswith("1:1")
    ]


def test_next_tuesday_afternoon_is_a_day_window_in_local_time(cal):
    env, ep = cal
    got = call(env, ep, "list_events", start_day="2026-06-02", part_of_day="afternoon")
    titles = [e["title"] for e in got["events"]]
    assert "Budget planning" in titles and "Interview: Senior Engineer" in titles
    assert "Design review: onboarding flow" not in titles  # 10:00, the morning
    budget = next(e for e in got["events"] if e["title"] == "Budget planning")
    assert (budget["start"], budget["start_utc"], budget["my_response"]) == (
        "2026-06-02T13:00",
        "2026-06-02T20:00Z",
        "tentative",
    )
    assert (got["window_start"], got["timezone"]) == ("2026-06-02T00:00", LA)
    fails(
        env,
        ep,
        "list_events",
        "end_day 2026-06-01 is before start_day 2026-06-02",
        start_day="2026-06-02",
        end_day="2026-06-01",
    )
    fails(env, ep, "list_events", "at most 62 days", start_day="2026-06-01", end_day="2026-09-01")


def test_an_attendee_in_another_zone_sees_the_same_moment_in_their_time(cal):
    env, ep = cal
    sync = titled(ep, "Product sync")
    organizer = one(ep, "SELECT * FROM users WHERE id = ?", sync["organizer_id"])
    assert organizer["timezone"] != LA and sync["timezone"] == organizer["timezone"]
    got = call(env, ep, "get_event", event=sync["id"], occurrence="2026-06-04")
    local = to_utc(datetime.fromisoformat(got["start"]), LA)
    assert (
        got["start_utc"] == local.strftime("%Y-%m-%dT%H:%MZ")
        and got["event_timezone"] == organizer["timezone"]
    )
    from servers.domains.calendar.clock import to_local

    assert got["local_in_event_zone"] == to_local(local, organizer["timezone"]).strftime("%Y-%m-%dT%H:%M")
    made = call(
        env,
        ep,
        "create_event",
        title="London sync",
        start="2026-06-09T10:00",
        timezone="Europe/London",
        duration_min=30,
    )
    assert (made["start"], made["start_utc"], made["event_timezone"]) == (
        "2026-06-09T02:00",
        "2026-06-09T09:00Z",
        "Europe/London",
    )
    found = call(
        env,
        ep,
        "find_meeting_time",
        emails=[organizer["id"]],
        duration_min=30,
        start_day="2026-06-08",
        within_working_hours=False,
    )
    slot = found["slots"][0]
    theirs = next(t for t in slot["local_times"] if t.startswith(organizer["id"]))
    assert (
        theirs.endswith(organizer["timezone"])
        and to_local(to_utc(datetime.fromisoformat(slot["start"]), LA), organizer["timezone"]).strftime(
            "%Y-%m-%dT%H:%M"
        )
        in theirs
    )


# -- creating -------------------------------------------------------------------------------------


def test_create_event_rules(cal):
    env, ep = cal
    fails(
        env,
        ep,
        "create_event",
        r"starts 2026-05-29T10:00 .* past events cannot be changed",
        title="X",
        start="2026-05-29T10:00",
    )
    fails(
        env,
        ep,
        "create_event",
        "the end 2026-06-03T09:00 must be after the start 2026-06-03T10:00",
        title="X",
        start="2026-06-03T10:00",
        end="2026-06-03T09:00",
    )
    fails(
        env,
        ep,
        "create_event",
        r"at most 24 hours \(got 26.0\)",
        title="X",
        start="2026-06-03T10:00",
        end="2026-06-04T12:00",
    )
    fails(
        env,
        ep,
        "create_event",
        "disagree",
        title="X",
        start="2026-06-03T10:00",
        end="2026-06-03T11:00",
        duration_min=30,
    )
    fails(
        env,
        ep,
        "create_event",
        r"2026-06-03 \(Wednesday\) is not an occurrence of the rule FREQ=WEEKLY;BYDAY=MO",
        title="X",
        start="2026-06-03T10:00",
        rrule="FREQ=WEEKLY;BYDAY=MO",
    )
    fails(
        env,
        ep,
        "create_event",
        "COUNT or UNTIL, not both",
        title="X",
        start="2026-06-03T10:00",
        rrule="FREQ=DAILY;COUNT=2;UNTIL=20260610",
    )
    reader = one(
        ep,
        "SELECT c.id, c.name FROM calendar_access a JOIN calendars c ON c.id = a.calendar_id WHERE a.user_id = ? AND a.role = 'reader' ORDER BY c.id",
        me(ep),
    )
    fails(
        env,
        ep,
        "create_event",
        f"role reader on calendar {reader['id']}",
        title="X",
        start="2026-06-03T10:00",
        calendar=reader["id"],
    )
    room_cal = one(ep, "SELECT calendar_id FROM rooms ORDER BY id")["calendar_id"]
    fails(
        env,
        ep,
        "create_event",
        "rooms cannot organise events",
        title="X",
        start="2026-06-03T10:00",
        calendar=room_cal,
    )
    fails(
        env, ep, "create_event", "leave yourself out", title="X", start="2026-06-03T10:00", attendees=[me(ep)]
    )
    address = one(ep, "SELECT resource_address FROM rooms ORDER BY id")["resource_address"]
    fails(
        env,
        ep,
        "create_event",
        f"{address} is a room",
        title="X",
        start="2026-06-03T10:00",
        attendees=[address],
    )


def test_create_returns_conflicts_and_writes_exactly_its_rows(cal):
    env, ep = cal
    guest = one(
        ep,
        "SELECT id FROM users WHERE is_external = 0 AND id != ? ORDER BY person_id LIMIT 1 OFFSET 2",
        me(ep),
    )["id"]
    got = call(env, ep, "create_event", title="Planning", start="2026-06-02T10:15", duration_min=30,
               attendees=[guest, "someone@elsewhere.example"], rrule="FREQ=DAILY;COUNT=2")  # fmt: skip
    assert got["repeats"] == "every day, 2 times" and got["attendees"] == 2
    mine = [c for c in got["conflicts"] if c["email"] == me(ep)]
    assert {"Design review: onboarding flow", "Customer call"} & {
        c["title"].split(":")[0] if c["title"].startswith("Customer") else c["title"] for c in mine
    }
    assert all(c["title"] == "busy" for c in got["conflicts"] if c["email"] != me(ep))
    assert tables(ep) == {"events", "attendees"} and inserted(ep, "events") == {got["event"]}
    guests = rows(
        ep,
        "SELECT email, user_id, response, is_organizer FROM attendees WHERE event_id = ? ORDER BY id",
        got["event"],
    )
    assert [(g["response"], g["is_organizer"]) for g in guests] == [
        ("accepted", 1),
        ("needs_action", 0),
        ("needs_action", 0),
    ]
    assert guests[2]["user_id"] is None  # outside the directory: allowed, stays needs_action
    row = one(ep, "SELECT * FROM events WHERE id = ?", got["event"])
    assert (row["start_utc"], row["last_end_utc"], row["rrule"]) == (
        "2026-06-02T17:15:00",
        "2026-06-03T17:45:00",
        "FREQ=DAILY;COUNT=2",
    )


def test_rooms_decline_when_taken_or_too_small(cal):
    env, ep = cal
    retro = titled(ep, "Sprint retro")
    room = one(
        ep, "SELECT r.* FROM attendees a JOIN rooms r ON r.id = a.room_id WHERE a.event_id = ?", retro["id"]
    )
    fails(env, ep, "create_event", rf"room {room['id']} \({room['name']}\) declined: it is booked 2026-06-03T11:00-12:00 by 'Sprint retro'",
          title="X", start="2026-06-03T11:30", room=room["id"])  # fmt: skip
    small = one(ep, "SELECT * FROM rooms WHERE capacity = 2 ORDER BY id")
    people = rows(
        ep, "SELECT id FROM users WHERE is_external = 0 AND id != ? ORDER BY person_id LIMIT 3", me(ep)
    )
    fails(env, ep, "create_event", f"room {small['id']} .* holds 2 people; this event has 4", title="X",
          start="2026-06-20T11:30", room=small["id"], attendees=[p["id"] for p in people])  # fmt: skip
    mine = one(
        ep,
        f"SELECT * FROM events WHERE {MINE_TO_EDIT} AND rrule IS NULL AND title = 'Vendor call: ' || substr(title, 14)",
    )
    fails(
        env,
        ep,
        "book_room",
        rf"room {room['id']} .* declined",
        event=titled(ep, "Sprint retro")["id"],
        room=room["id"],
    ) if False else None
    free = one(ep, "SELECT * FROM rooms WHERE capacity >= 4 AND id != ? ORDER BY id", room["id"])
    got = call(env, ep, "book_room", event=mine["id"], room=free["id"])
    assert got["room"] == free["id"] and tables(ep) == {"attendees", "events"}
    fails(env, ep, "book_room", f"already has room {free['id']}", event=mine["id"], room=room["id"])


# -- changing and cancelling: this, following, all --------------------------------------------------


def test_changing_one_occurrence_writes_an_exception(cal):
    env, ep = cal
    standup = titled(ep, "Team standup")
    got = call(
        env, ep, "update_event", event=standup["id"], occurrence="2026-06-03", start="2026-06-03T11:00"
    )
    assert (got["series"], got["start"], got["end"]) == (
        standup["id"],
        "2026-06-03T11:00",
        "2026-06-03T11:15",
    )
    ex = one(ep, "SELECT * FROM events WHERE id = ?", got["event"])
    assert (ex["series_id"], ex["original_start"], ex["rrule"]) == (
        standup["id"],
        "2026-06-03T09:30:00",
        None,
    )
    assert inserted(ep, "events") == {ex["id"]} and tables(ep) == {"events", "attendees"}
    assert not [
        c for c in ep.diff() if c["table"] == "events" and c["pk"] == standup["id"]
    ]  # the series is as it was
    n = len(rows(ep, "SELECT id FROM attendees WHERE event_id = ?", standup["id"]))
    assert len(inserted(ep, "attendees")) == n  # the guests came with the copy
    day = [
        e
        for e in call(env, ep, "list_events", start_day="2026-06-03")["events"]
        if e["event"] == standup["id"]
    ]
    assert [(e["id"], e["start"]) for e in day] == [(ex["id"], "2026-06-03T11:00")]
    fails(
        env,
        ep,
        "update_event",
        r"has no occurrence on 2026-06-06; nearby occurrences: 2026-06-03, 2026-06-04, 2026-06-05, 2026-06-08",
        event=standup["id"],
        occurrence="2026-06-06",
        title="Y",
    )
    fails(env, ep, "update_event", "nothing to change", event=standup["id"])


def test_this_and_following_splits_the_series(cal):
    env, ep = cal
    standup = titled(ep, "Team standup")
    got = call(
        env,
        ep,
        "update_event",
        event=standup["id"],
        occurrence="2026-06-08",
        scope="following",
        start="2026-06-08T10:00",
    )
    master = one(ep, "SELECT * FROM events WHERE id = ?", standup["id"])
    new = one(ep, "SELECT * FROM events WHERE id = ?", got["event"])
    assert master["rrule"] == "FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR;UNTIL=20260607"
    assert (new["start_local"], new["rrule"], new["series_id"]) == (
        "2026-06-08T10:00:00",
        "FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR",
        None,
    )
    week = call(env, ep, "list_events", start_day="2026-06-05", end_day="2026-06-09", limit=100)["events"]
    assert [e["start"][11:] for e in week if e["title"] == "Team standup"] == ["09:30", "10:00", "10:00"]
    reminders = rows(ep, "SELECT minutes_before FROM reminders WHERE event_id = ?", new["id"])
    assert reminders == [{"minutes_before": 10}]


def test_a_whole_series_changes_only_before_it_starts(cal):
    env, ep = cal
    standup = titled(ep, "Team standup")
    fails(
        env,
        ep,
        "update_event",
        f"series {standup['id']} 'Team standup' started on 2026-03-02; past occurrences",
        event=standup["id"],
        scope="all",
        title="Daily",
    )
    fails(env, ep, "cancel_event", "use scope 'following'", event=standup["id"], scope="all")
    crit = titled(ep, "Design crit")
    got = call(env, ep, "update_event", event=crit["id"], scope="all", start="2026-06-18T15:00")
    row = one(ep, "SELECT * FROM events WHERE id = ?", crit["id"])
    assert (row["start_local"], row["rrule"], got["repeats"]) == (
        "2026-06-18T15:00:00",
        "FREQ=WEEKLY;BYDAY=TH;UNTIL=20260929",
        "every week on Thursday, until 2026-09-29",
    )
    assert inserted(ep, "events") == set()


def test_cancelling_one_following_or_all(cal):
    env, ep = cal
    standup = titled(ep, "Team standup")
    one_day = call(env, ep, "cancel_event", event=standup["id"], occurrence="2026-06-04")
    assert (
        one_day["status"] == "cancelled"
        and one(ep, "SELECT status FROM events WHERE id = ?", one_day["event"])["status"] == "cancelled"
    )
    assert not [
        e
        for e in call(env, ep, "list_events", start_day="2026-06-04")["events"]
        if e["event"] == standup["id"]
    ]
    call(env, ep, "cancel_event", event=standup["id"], occurrence="2026-06-03", scope="following")
    assert one(ep, "SELECT rrule FROM events WHERE id = ?", standup["id"])["rrule"].endswith("UNTIL=20260602")
    assert one(ep, "SELECT status FROM events WHERE id = ?", one_day["event"])["status"] == "cancelled"
    crit = titled(ep, "Design crit")
    call(env, ep, "cancel_event", event=crit["id"], scope="all")
    assert one(ep, "SELECT status FROM events WHERE id = ?", crit["id"])["status"] == "cancelled"
    fails(env, ep, "cancel_event", f"event {crit['id']} 'Design crit' is cancelled", event=crit["id"])
    past = one(
        ep,
        "SELECT * FROM events WHERE organizer_id = ? AND rrule IS NULL AND series_id IS NULL AND status = 'confirmed' AND start_utc < '2026-05-30' ORDER BY id",
        me(ep),
    )
    fails(env, ep, "cancel_event", f"event {past['id']} .* past events cannot be changed", event=past["id"])


def test_guests_cannot_edit_and_are_told_to_decline(cal):
    env, ep = cal
    review = titled(ep, "Q3 roadmap review")
    msg = fails(
        env,
        ep,
        "cancel_event",
        rf"only the organizer \({review['organizer_id']}\) or an owner or writer",
        event=review["id"],
    )
    assert "as a guest you can only respond" in msg
    fails(env, ep, "update_event", "only the organizer", event=review["id"], title="Mine now")


# -- guests and answers ---------------------------------------------------------------------------


def test_inviting_and_uninviting(cal):
    env, ep = cal
    retro = titled(ep, "Sprint retro")
    present = rows(
        ep,
        "SELECT email FROM attendees WHERE event_id = ? AND is_organizer = 0 AND room_id IS NULL ORDER BY id",
        retro["id"],
    )
    fails(
        env,
        ep,
        "add_attendees",
        f"already invited to {retro['id']} 'Sprint retro': {present[0]['email']}",
        event=retro["id"],
        attendees=[present[0]["email"]],
    )
    fails(env, ep, "remove_attendee", f"{me(ep)} organises {retro['id']}", event=retro["id"], email=me(ep))
    fails(
        env,
        ep,
        "remove_attendee",
        "nobody@nowhere.example is not on",
        event=retro["id"],
        email="nobody@nowhere.example",
    )
    got = call(
        env, ep, "add_attendees", event=retro["id"], attendees=["guest@partner.example"], optional=True
    )
    assert got["added"] == ["guest@partner.example"] and tables(ep) == {"attendees"}
    added = one(
        ep, "SELECT * FROM attendees WHERE event_id = ? AND email = 'guest@partner.example'", retro["id"]
    )
    assert (added["response"], added["optional"], added["user_id"]) == ("needs_action", 1, None)
    call(env, ep, "remove_attendee", event=retro["id"], email=present[0]["email"])
    assert not rows(
        ep, "SELECT id FROM attendees WHERE event_id = ? AND email = ?", retro["id"], present[0]["email"]
    )


def test_answering_invitations(cal):
    env, ep = cal
    review = titled(ep, "Q3 roadmap review")
    got = call(
        env,
        ep,
        "respond_to_invitation",
        event=review["id"],
        response="accepted",
        comment="I'll join by video",
    )
    assert got["response"] == "accepted" and tables(ep) == {"attendees"}
    mine = one(
        ep, "SELECT response, comment FROM attendees WHERE event_id = ? AND user_id = ?", review["id"], me(ep)
    )
    assert mine == {"response": "accepted", "comment": "I'll join by video"}
    assert any(c["title"] == "Vendor call" or c["title"].startswith("Vendor call") for c in got["conflicts"])
    fails(
        env,
        ep,
        "respond_to_invitation",
        f"already accepted {review['id']}",
        event=review["id"],
        response="accepted",
    )
    retro = titled(ep, "Sprint retro")
    fails(
        env,
        ep,
        "respond_to_invitation",
        "the organizer's answer is always accepted",
        event=retro["id"],
        response="declined",
    )
    sync = titled(ep, "Product sync")
    one_day = call(
        env, ep, "respond_to_invitation", event=sync["id"], response="declined", occurrence="2026-06-04"
    )
    assert one_day["event"] != sync["id"] and one_day["series"] == sync["id"]
    assert (
        one(ep, "SELECT response FROM attendees WHERE event_id = ? AND user_id = ?", sync["id"], me(ep))[
            "response"
        ]
        == "accepted"
    )
    assert (
        one(
            ep, "SELECT response FROM attendees WHERE event_id = ? AND user_id = ?", one_day["event"], me(ep)
        )["response"]
        == "declined"
    )
    ended = one(
        ep,
        "SELECT e.id FROM events e JOIN attendees a ON a.event_id = e.id WHERE a.user_id = ? AND a.is_organizer = 0 AND e.rrule IS NULL AND e.status != 'cancelled' AND e.last_end_utc < '2026-05-30' ORDER BY e.id",
        me(ep),
    )
    fails(
        env,
        ep,
        "respond_to_invitation",
        f"event {ended['id']} .* ended at 2026-0.*; ended events cannot be answered",
        event=ended["id"],
        response="tentative",
    )


# -- free/busy and meeting times --------------------------------------------------------------------


def test_free_busy_refuses_outsiders_and_ignores_declined_events(cal):
    env, ep = cal
    outside = one(ep, "SELECT id FROM users WHERE is_external = 1 ORDER BY id")["id"]
    fails(env, ep, "get_free_busy", f"external .*: {outside}", emails=[outside], start="2026-06-02T08:00")
    fails(
        env,
        ep,
        "get_free_busy",
        "not in the directory: x@y.example",
        emails=["x@y.example"],
        start="2026-06-02T08:00",
    )
    fails(
        env,
        ep,
        "get_free_busy",
        "must be after start",
        emails=[me(ep)],
        start="2026-06-02T08:00",
        end="2026-06-02T07:00",
    )
    got = call(env, ep, "get_free_busy", emails=[me(ep)], start="2026-06-03T08:00", end="2026-06-03T18:00")
    busy = [(b["start"][11:], b["end"][11:]) for b in got["people"][0]["busy"]]
    assert ("13:00", "13:45") not in busy  # Security training, declined
    assert ("09:00", "10:00") in busy and (
        "11:00",
        "12:00",
    ) in busy  # the stand-up inside the deep dive merges
    assert got["people"][0]["working_hours"] == "09:00-17:00 America/Los_Angeles (09:00-17:00 yours)"


def test_find_meeting_time_avoids_busy_blocks_and_keeps_working_hours(cal):
    env, ep = cal
    colleague = one(
        ep,
        "SELECT * FROM users WHERE is_external = 0 AND id != ? AND timezone = ? ORDER BY person_id",
        me(ep),
        LA,
    )
    got = call(
        env,
        ep,
        "find_meeting_time",
        emails=[colleague["id"]],
        duration_min=60,
        start_day="2026-06-02",
        end_day="2026-06-02",
    )
    spans = call(env, ep, "get_free_busy", emails=[me(ep), colleague["id"]], start="2026-06-02T00:00")[
        "people"
    ]
    for slot in got["slots"]:
        assert slot["start"][11:] >= "09:00" and slot["end"][11:] <= "17:00"
        for person in spans:
            assert all(b["end"] <= slot["start"] or b["start"] >= slot["end"] for b in person["busy"]), slot
    assert got["found"] == len(got["slots"]) and got["slots"]


# -- reminders and sharing --------------------------------------------------------------------------


def test_reminders(cal):
    env, ep = cal
    standup = titled(ep, "Team standup")
    fails(
        env,
        ep,
        "set_reminder",
        f"already have a popup reminder 10 minutes before {standup['id']}",
        event=standup["id"],
        minutes_before=10,
    )
    got = call(env, ep, "set_reminder", event=standup["id"], minutes_before=30, method="email")
    assert (got["next_fires_at"], got["next_fires_at_utc"]) == ("2026-06-01T09:00", "2026-06-01T16:00Z")
    assert inserted(ep, "reminders") == {got["id"]} and tables(ep) == {"reminders"}
    for minutes in (1, 2, 3):
        call(env, ep, "set_reminder", event=standup["id"], minutes_before=minutes)
    fails(
        env,
        ep,
        "set_reminder",
        "already has 5 of your reminders; the limit is 5",
        event=standup["id"],
        minutes_before=45,
    )
    training = titled(ep, "Security training")
    fails(env, ep, "set_reminder", "was declined by you", event=training["id"], minutes_before=10)
    other = one(ep, "SELECT id FROM reminders WHERE user_id != ? ORDER BY id", me(ep))["id"]
    fails(env, ep, "remove_reminder", f"reminder {other} belongs to", reminder=other)
    call(env, ep, "remove_reminder", reminder=got["id"])
    assert not rows(ep, "SELECT id FROM reminders WHERE id = ?", got["id"])


def test_sharing_calendars(cal):
    env, ep = cal
    mine = one(ep, "SELECT * FROM calendars WHERE owner_id = ? AND kind = 'primary'", me(ep))
    theirs = one(
        ep,
        "SELECT c.* FROM calendar_access a JOIN calendars c ON c.id = a.calendar_id WHERE a.user_id = ? AND a.role = 'reader' AND c.kind = 'primary'",
        me(ep),
    )
    person = one(
        ep,
        "SELECT id FROM users WHERE is_external = 0 AND id != ? AND id NOT IN (SELECT user_id FROM calendar_access WHERE calendar_id = ?) ORDER BY person_id",
        me(ep),
        mine["id"],
    )["id"]
    fails(
        env,
        ep,
        "share_calendar",
        f"calendar {theirs['id']} .* only an owner can change .* \\(your role: reader\\)",
        calendar=theirs["id"],
        email=person,
        role="reader",
    )
    fails(
        env,
        ep,
        "share_calendar",
        "cannot give yourself a role",
        calendar=mine["id"],
        email=me(ep),
        role="reader",
    )
    fails(
        env,
        ep,
        "share_calendar",
        "x@y.example is not in the directory",
        calendar=mine["id"],
        email="x@y.example",
        role="reader",
    )
    got = call(env, ep, "share_calendar", calendar=mine["id"], email=person, role="free_busy")
    assert got["previous_role"] is None and inserted(ep, "calendar_access") == {got["access"]}
    fails(
        env,
        ep,
        "share_calendar",
        f"{person} already has role free_busy",
        calendar=mine["id"],
        email=person,
        role="free_busy",
    )
    again = call(env, ep, "share_calendar", calendar=mine["id"], email=person, role="writer")
    assert (
        again["previous_role"] == "free_busy"
        and one(ep, "SELECT role FROM calendar_access WHERE id = ?", got["access"])["role"] == "writer"
    )
    call(env, ep, "unshare_calendar", calendar=mine["id"], email=person)
    fails(
        env,
        ep,
        "unshare_calendar",
        f"{person} has no access to {mine['id']}",
        calendar=mine["id"],
        email=person,
    )
    fails(env, ep, "unshare_calendar", "cannot remove your own access", calendar=mine["id"], email=me(ep))


def test_create_calendar(cal):
    env, ep = cal
    fails(env, ep, "create_calendar", "already have a calendar named 'personal'", name="personal")
    got = call(env, ep, "create_calendar", name="Gym", timezone="Europe/Berlin")
    assert (got["kind"], got["timezone"], got["role"]) == ("secondary", "Europe/Berlin", "owner")
    assert tables(ep) == {"calendars", "calendar_access"}
    assert {c["table"]: c["op"] for c in changes(ep).values()} == {
        "calendars": "insert",
        "calendar_access": "insert",
    }
