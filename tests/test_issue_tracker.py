"""Issue tracker business rules: failures really happen and change nothing; successes change exactly the right rows."""

from __future__ import annotations

import pytest

from servers.registry import get_domain
from tests.domain_helpers import DomainCalls

DOMAIN = "issue_tracker"
calls = DomainCalls(DOMAIN)
call, fails = calls.call, calls.fails
DISCOVERY = {"list_records", "search_records", "get_unique_values"}


@pytest.fixture
def it(make_env):
    env = make_env("issue_tracker")
    return env, env.open()


def q(ep, sql, *params):
    with ep.fork("issue_tracker").reading() as conn:
        return conn.execute(sql, params).fetchall()


def one(ep, sql, *params):
    rows = q(ep, sql, *params)
    assert rows, f"no seeded row for: {sql}"
    return rows[0]


def changed(ep):
    return {(c["table"], c["column"]) for c in ep.diff()}


ACTIVE_ISSUE = "SELECT i.id FROM issues i JOIN projects p ON p.id = i.project_id AND p.status = 'active' "


# -- declarations ----------------------------------------------------------------------


def test_at_least_twenty_tools_each_with_two_utterances():
    domain = get_domain("issue_tracker")
    own = [t for name, t in domain.tools.items() if name not in DISCOVERY]
    assert len(own) >= 20
    for spec in own:
        assert len(spec.says) >= 2, spec.name
        assert spec.returns or spec.writes, spec.name


def test_medium_covers_every_status_and_sprint_situation(medium):
    statuses = {r[0] for r in medium.execute("SELECT DISTINCT status FROM issues")}
    assert statuses == {"backlog", "todo", "in_progress", "in_review", "done", "reopened", "cancelled"}
    assert {r[0] for r in medium.execute("SELECT DISTINCT status FROM sprints")} == {
        "planned",
        "active",
        "completed",
    }
    no_active = medium.execute(
        "SELECT count(*) FROM projects WHERE status = 'active' AND id NOT IN "
        "(SELECT project_id FROM sprints WHERE status = 'active')"
    ).fetchone()[0]
    assert no_active > 0
    assert medium.execute("PRAGMA foreign_key_check").fetchall() == []


# -- workflow --------------------------------------------------------------------------


def test_transition_outside_the_workflow_names_the_allowed_moves(it):
    env, ep = it
    (issue,) = one(ep, ACTIVE_ISSUE + "WHERE i.status = 'backlog'")
    msg = fails(
        env, ep, "transition_issue", "from backlog it can only move to", issue=issue, to_status="done"
    )
    assert "todo, cancelled" in msg
    assert ep.diff() == []


def test_transition_changes_status_and_records_the_event(it):
    env, ep = it
    (issue,) = one(ep, ACTIVE_ISSUE + "WHERE i.status = 'todo' AND i.assignee_id IS NOT NULL")
    out = call(env, ep, "transition_issue", issue=issue, to_status="in_progress")
    assert out["status"] == "in_progress" and out["updated_at"] == "2026-06-01T09:00:00"
    assert {(c["table"], c["pk"], c["column"]) for c in ep.diff() if c["op"] == "update"} == {
        ("issues", issue, "status"),
        ("issues", issue, "updated_at"),
    }
    events = [c for c in ep.diff() if c["table"] == "issue_events"]
    assert {c["op"] for c in events} == {"insert"} and len({c["pk"] for c in events}) == 1
    new = {c["column"]: c["new"] for c in events}
    assert new["from_status"] == "todo" and new["to_status"] == "in_progress" and new["issue_id"] == issue


def test_starting_work_needs_an_assignee(it):
    env, ep = it
    (issue,) = one(ep, ACTIVE_ISSUE + "WHERE i.status = 'todo' AND i.assignee_id IS NULL")
    fails(env, ep, "transition_issue", "no assignee", issue=issue, to_status="in_progress")
    assert ep.diff() == []


def test_done_is_refused_while_a_blocker_is_open_then_allowed_once_unlinked(it):
    env, ep = it
    issue, project = one(
        ep, ACTIVE_ISSUE.replace("i.id", "i.id, i.project_id") + "WHERE i.status = 'in_review'"
    )
    for (link,) in q(ep, "SELECT id FROM issue_links WHERE blocked_id = ?", issue):
        call(env, ep, "unlink_issues", link=link)
    (blocker,) = one(
        ep, "SELECT id FROM issues WHERE project_id = ? AND status = 'todo' AND id != ?", project, issue
    )
    link = call(env, ep, "link_issues", blocker=blocker, blocked=issue)
    assert link["id"].startswith("LNK-") and link["created_at"] == "2026-06-01T09:00:00"
    msg = fails(env, ep, "transition_issue", "blocked by open issues", issue=issue, to_status="done")
    assert blocker in msg
    call(env, ep, "unlink_issues", link=link["id"])
    done = call(env, ep, "transition_issue", issue=issue, to_status="done")
    assert done["status"] == "done" and done["resolved_at"] == "2026-06-01T09:00:00"


def test_blocker_links_cannot_form_a_cycle_or_point_to_themselves(it):
    env, ep = it
    a, b, c = (
        r[0] for r in q(ep, ACTIVE_ISSUE + "WHERE i.status IN ('todo', 'backlog') ORDER BY i.id LIMIT 3")
    )
    call(env, ep, "link_issues", blocker=a, blocked=b)
    call(env, ep, "link_issues", blocker=b, blocked=c)
    fails(env, ep, "link_issues", "cycle", blocker=c, blocked=a)
    fails(env, ep, "link_issues", "cannot block itself", blocker=a, blocked=a)
    fails(env, ep, "link_issues", "already blocks", blocker=a, blocked=b)


def test_reopening_an_issue_of_a_completed_sprint_returns_it_to_the_backlog(it):
    env, ep = it
    (issue,) = one(
        ep,
        ACTIVE_ISSUE
        + "JOIN sprints s ON s.id = i.sprint_id AND s.status = 'completed' WHERE i.status = 'done'",
    )
    out = call(env, ep, "transition_issue", issue=issue, to_status="reopened")
    assert out["sprint_id"] is None and out["resolved_at"] is None
    assert {"status", "sprint_id", "resolved_at", "updated_at"} <= {
        c["column"] for c in ep.diff() if c["table"] == "issues"
    }


# -- assignment, labels, edits ------------------------------------------------------------


def test_assignee_must_be_a_project_member(it):
    env, ep = it
    issue, project = one(ep, ACTIVE_ISSUE.replace("i.id", "i.id, i.project_id") + "WHERE i.status = 'todo'")
    (outsider,) = one(
        ep,
        "SELECT id FROM users WHERE active = 1 AND id NOT IN "
        "(SELECT user_id FROM project_members WHERE project_id = ?)",
        project,
    )
    fails(env, ep, "assign_issue", "not a member of project", issue=issue, assignee=outsider)
    assert ep.diff() == []
    call(env, ep, "add_project_member", project=project, user=outsider)
    out = call(env, ep, "assign_issue", issue=issue, assignee=outsider)
    assert out["assignee_id"] == outsider
    assert changed(ep) >= {("issues", "assignee_id"), ("project_members", "user_id"), ("watchers", "user_id")}
    assert {c["table"] for c in ep.diff()} == {"issues", "project_members", "watchers"}


def test_unassign_clears_the_assignee_but_not_while_in_progress(it):
    env, ep = it
    (busy,) = one(ep, ACTIVE_ISSUE + "WHERE i.status = 'in_progress'")
    fails(env, ep, "unassign_issue", "must keep an assignee", issue=busy)
    (issue,) = one(ep, ACTIVE_ISSUE + "WHERE i.status = 'todo' AND i.assignee_id IS NOT NULL")
    call(env, ep, "unassign_issue", issue=issue)
    assert changed(ep) == {("issues", "assignee_id"), ("issues", "updated_at")}


def test_set_labels_normalises_and_rejects_bad_labels(it):
    env, ep = it
    (issue,) = one(ep, ACTIVE_ISSUE + "WHERE i.status = 'todo'")
    fails(env, ep, "set_labels", "invalid label", issue=issue, labels="ok, not valid!")
    fails(env, ep, "set_labels", "at most 6", issue=issue, labels="a,b,c,d,e,f,g")
    out = call(env, ep, "set_labels", issue=issue, labels="Frontend, bug , frontend")
    assert out["labels"] == "bug, frontend"
    assert changed(ep) <= {("issues", "labels"), ("issues", "updated_at")}


def test_update_issue_needs_a_change_and_only_touches_what_is_given(it):
    env, ep = it
    (issue,) = one(ep, ACTIVE_ISSUE + "WHERE i.priority != 'urgent'")
    fails(env, ep, "update_issue", "nothing to change", issue=issue)
    call(env, ep, "update_issue", issue=issue, priority="urgent")
    assert changed(ep) == {("issues", "priority"), ("issues", "updated_at")}


def test_create_issue_is_deterministic_and_watched_by_reporter_and_assignee(it):
    env, ep = it
    project, a, b = one(
        ep,
        "SELECT p.id, m1.user_id, m2.user_id FROM projects p "
        "JOIN project_members m1 ON m1.project_id = p.id JOIN users u1 ON u1.id = m1.user_id AND u1.active "
        "JOIN project_members m2 ON m2.project_id = p.id AND m2.user_id > m1.user_id "
        "JOIN users u2 ON u2.id = m2.user_id AND u2.active WHERE p.status = 'active'",
    )
    (last,) = one(ep, "SELECT max(id) FROM issues")
    out = call(env, ep, "create_issue", project=project, reporter=a, title="Add CSV export", assignee=b)
    assert out["id"] == f"ISS-{int(last[4:]) + 1:06d}" and out["status"] == "backlog"
    assert out["created_at"] == "2026-06-01T09:00:00"
    assert {c["table"] for c in ep.diff()} == {"issues", "watchers"}
    watchers = {c["new"] for c in ep.diff() if c["table"] == "watchers" and c["column"] == "user_id"}
    assert watchers == {a, b}


def test_watching_twice_changes_nothing_more(it):
    env, ep = it
    (issue,) = one(ep, ACTIVE_ISSUE + "WHERE i.status = 'todo'")
    (user,) = one(
        ep,
        "SELECT id FROM users WHERE active = 1 AND id NOT IN (SELECT user_id FROM watchers "
        "WHERE issue_id = ?)",
        issue,
    )
    call(env, ep, "watch_issue", issue=issue, user=user)
    first = ep.diff()
    call(env, ep, "watch_issue", issue=issue, user=user)
    assert ep.diff() == first and {c["table"] for c in first} == {"watchers"}
    call(env, ep, "unwatch_issue", issue=issue, user=user)
    assert ep.diff() == []
    fails(env, ep, "unwatch_issue", "not watching", issue=issue, user=user)


# -- archived projects and membership -----------------------------------------------------


def test_archived_projects_are_read_only(it):
    env, ep = it
    issue, author = one(
        ep,
        "SELECT i.id, m.user_id FROM issues i JOIN projects p ON p.id = i.project_id AND p.status = 'archived' "
        "JOIN project_members m ON m.project_id = p.id",
    )
    fails(env, ep, "add_comment", "archived", issue=issue, author=author, body="Any news?")
    fails(env, ep, "transition_issue", "archived", issue=issue, to_status="reopened")
    (project,) = one(ep, "SELECT id FROM projects WHERE status = 'archived'")
    fails(env, ep, "create_sprint", "archived", project=project, name="Sprint 99")
    assert ep.diff() == []


def test_comment_author_must_be_a_member_and_comment_is_listed(it):
    env, ep = it
    issue, project = one(ep, ACTIVE_ISSUE.replace("i.id", "i.id, i.project_id") + "WHERE i.status = 'todo'")
    (outsider,) = one(
        ep,
        "SELECT id FROM users WHERE active = 1 AND id NOT IN "
        "(SELECT user_id FROM project_members WHERE project_id = ?)",
        project,
    )
    fails(env, ep, "add_comment", "not a member", issue=issue, author=outsider, body="hi")
    (member,) = one(
        ep,
        "SELECT m.user_id FROM project_members m JOIN users u ON u.id = m.user_id AND u.active "
        "WHERE m.project_id = ?",
        project,
    )
    c = call(env, ep, "add_comment", issue=issue, author=member, body="I can reproduce this on staging.")
    assert {x["table"] for x in ep.diff()} == {"comments"}
    listed = call(env, ep, "list_comments", issue=issue, limit=100)["comments"]
    assert listed[-1]["id"] == c["id"]


def test_lead_and_busy_members_cannot_be_removed(it):
    env, ep = it
    project, lead = one(ep, "SELECT id, lead_id FROM projects WHERE status = 'active'")
    fails(env, ep, "remove_project_member", "lead cannot be removed", project=project, user=lead)
    project, busy = one(
        ep,
        "SELECT i.project_id, i.assignee_id FROM issues i JOIN projects p ON p.id = i.project_id "
        "AND p.status = 'active' WHERE i.status = 'in_progress' AND i.assignee_id != p.lead_id",
    )
    fails(env, ep, "remove_project_member", "still assigned", project=project, user=busy)
    assert ep.diff() == []


def test_archive_needs_no_active_sprint(it):
    env, ep = it
    (busy,) = one(ep, "SELECT project_id FROM sprints WHERE status = 'active'")
    fails(env, ep, "archive_project", "active sprint", project=busy)
    (idle,) = one(
        ep,
        "SELECT id FROM projects WHERE status = 'active' AND id NOT IN "
        "(SELECT project_id FROM sprints WHERE status = 'active')",
    )
    call(env, ep, "archive_project", project=idle)
    assert changed(ep) == {("projects", "status")}


# -- sprints ---------------------------------------------------------------------------


def test_only_one_active_sprint_per_project(it):
    env, ep = it
    (sprint,) = one(
        ep,
        "SELECT id FROM sprints WHERE status = 'planned' AND id IN (SELECT sprint_id FROM issues) "
        "AND project_id IN (SELECT project_id FROM sprints WHERE status = 'active')",
    )
    fails(env, ep, "start_sprint", "already has an active sprint", sprint=sprint)
    assert ep.diff() == []


def test_complete_sends_unfinished_issues_back_then_next_sprint_starts(it):
    env, ep = it
    active, project = one(ep, "SELECT id, project_id FROM sprints WHERE status = 'active'")
    unfinished = {
        r[0]
        for r in q(
            ep, "SELECT id FROM issues WHERE sprint_id = ? AND status NOT IN ('done', 'cancelled')", active
        )
    }
    finished = {r[0] for r in q(ep, "SELECT id FROM issues WHERE sprint_id = ? AND status = 'done'", active)}
    assert unfinished
    out = call(env, ep, "complete_sprint", sprint=active)
    assert set(out["returned_to_backlog"]) == unfinished and out["status"] == "completed"
    moved = {c["pk"] for c in ep.diff() if c["table"] == "issues" and c["column"] == "sprint_id"}
    assert moved == unfinished and not moved & finished
    assert changed(ep) == {
        ("sprints", "status"),
        ("sprints", "completed_on"),
        ("issues", "sprint_id"),
        ("issues", "updated_at"),
    }
    fails(env, ep, "complete_sprint", "only the active sprint", sprint=active)
    fails(env, ep, "start_sprint", "only planned sprints", sprint=active)
    fails(env, ep, "add_issue_to_sprint", "completed", issue=sorted(unfinished)[0], sprint=active)
    (planned,) = one(
        ep,
        "SELECT id FROM sprints WHERE project_id = ? AND status = 'planned' AND id IN "
        "(SELECT sprint_id FROM issues)",
        project,
    )
    started = call(env, ep, "start_sprint", sprint=planned, days=7)
    assert started["status"] == "active" and (started["start_date"], started["end_date"]) == (
        "2026-06-01",
        "2026-06-08",
    )


def test_a_sprint_without_issues_cannot_start(it):
    env, ep = it
    (project,) = one(
        ep,
        "SELECT id FROM projects WHERE status = 'active' AND id NOT IN "
        "(SELECT project_id FROM sprints WHERE status = 'active')",
    )
    sprint = call(env, ep, "create_sprint", project=project, name="Checkout hardening", goal="Fix crashes")
    assert sprint["status"] == "planned" and sprint["start_date"] is None
    fails(env, ep, "create_sprint", "already has a sprint named", project=project, name="checkout HARDENING")
    fails(env, ep, "start_sprint", "has no issues", sprint=sprint["id"])


def test_sprint_membership_rules(it):
    env, ep = it
    issue, project = one(
        ep,
        ACTIVE_ISSUE.replace("i.id", "i.id, i.project_id")
        + "WHERE i.sprint_id IS NULL AND i.status IN ('todo', 'backlog')",
    )
    (foreign,) = one(ep, "SELECT id FROM sprints WHERE status = 'planned' AND project_id != ?", project)
    fails(env, ep, "add_issue_to_sprint", "its own project", issue=issue, sprint=foreign)
    (own,) = one(ep, "SELECT id FROM sprints WHERE status = 'planned' AND project_id = ?", project)
    call(env, ep, "add_issue_to_sprint", issue=issue, sprint=own)
    assert changed(ep) == {("issues", "sprint_id"), ("issues", "updated_at")}
    call(env, ep, "remove_issue_from_sprint", issue=issue)
    assert changed(ep) == {("issues", "updated_at")}
    (resolved,) = one(ep, ACTIVE_ISSUE + "WHERE i.status = 'done' AND i.project_id = ?", project)
    fails(env, ep, "add_issue_to_sprint", "only open issues", issue=resolved, sprint=own)


def test_unknown_ids_are_explained(it):
    env, ep = it
    fails(env, ep, "get_issue", "does not exist", issue="ISS-999999")
    fails(env, ep, "assign_issue", "does not exist", issue="ISS-999999", assignee="USR-000001")


def test_users_are_world_people_and_the_persona_works_here(it):
    from servers.kit.world import world

    env, ep = it
    w = world(0, "small")
    me = call(env, ep, "get_user", user="USR-000001")
    p = w.persona
    assert (me["name"], me["email"], me["username"], me["active"]) == (p.name, p.email, p.username, True)
    assert {"PRJ-000001", "PRJ-000002", "PRJ-000003"} <= {x["id"] for x in me["projects"]}
    users = q(ep, "SELECT name, email, username FROM users ORDER BY id")
    assert users == [(u.name, u.email, u.username) for u in w.pick_people(len(users))]
