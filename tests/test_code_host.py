"""Code host rules: permissions and archived repositories, protected and default branches, the merge
gates, reviews, checks, releases; and the team policy, each rule caught in both modes. Each refused
call names its values and changes nothing; each success changes exactly the rows it should."""

from __future__ import annotations

import pytest

from servers.domains.code_host import rules as R
from servers.kit import Db, world
from servers.registry import get_domain
from tests.domain_helpers import DomainCalls, changes

DOMAIN = "code_host"
calls = DomainCalls(DOMAIN)
call, fails, rows, one = calls.call, calls.fails, calls.rows, calls.one
KIT = {"list_records", "search_records", "get_unique_values", "get_policy"}
ME = "USR-000001"


@pytest.fixture(scope="module")
def env(make_env):
    return make_env(DOMAIN, scale="medium")


@pytest.fixture
def ep(env):
    return env.open()


def tables(ep) -> set[str]:
    return {c["table"] for c in ep.diff()}


def write_sql(ep, sql: str, *params) -> None:
    """Set up a case the seed does not hold exactly (a freeze date, a permission)."""
    with ep.fork(DOMAIN).writing() as conn:
        conn.execute(sql, params)


def verdicts(ep, tool: str, args: dict) -> set[str]:
    with ep.fork(DOMAIN).reading() as conn:
        found = get_domain(DOMAIN).policy.verdicts(Db(conn), tool, args)
    return {r.slug for r, why in found if type(why) is str}


def pick(ep, tool: str, key: str, sql: str, want: set[str], extra: dict | None = None) -> str:
    """A row of ``sql`` whose call to ``tool`` breaks exactly the rules ``want``."""
    for r in rows(ep, sql):
        if verdicts(ep, tool, {key: r["id"], **(extra or {})}) == want:
            return r["id"]
    raise AssertionError(f"no row for {tool} breaking exactly {want or 'nothing'}")


def my_perm(ep, perm: str, extra: str = "1") -> dict:
    return one(
        ep,
        "SELECT r.* FROM repos r JOIN collaborators c ON c.repo_id = r.id "
        f"WHERE c.user_id = ? AND c.permission = ? AND r.archived = 0 AND ({extra}) ORDER BY r.id",
        ME,
        perm,
    )


# -- catalogue, seed and the persona ------------------------------------------------------------------


def test_enough_tools_each_with_two_ways_to_ask():
    domain = get_domain(DOMAIN)
    own = [t for n, t in domain.tools.items() if n not in KIT and not t.hidden]
    assert len(own) >= 18
    assert all(len(t.says) >= 2 for t in own), [t.name for t in own if len(t.says) < 2]
    for name in ("delete_branch", "close_pull_request"):
        assert domain.tools[name].annotations()["destructiveHint"]
    for name in ("set_branch_protection", "request_reviewers"):
        assert domain.tools[name].annotations()["idempotentHint"]
    assert {"reviews", "review_comments"} <= set(domain.append_only())
    assert domain.policy.mode == "written" and 5 <= len(domain.policy.rules) <= 9
    assert [r.slug for r in domain.policy.confirmations()] == ["confirm-irreversible"]


def test_seed_sizes_and_sampler_pools_at_medium(medium):
    def count(sql: str) -> int:
        return medium.execute(sql).fetchone()[0]

    assert count("SELECT count(*) FROM repos") == 80
    assert 550 <= count("SELECT count(*) FROM branches") <= 750
    assert count("SELECT count(*) FROM pull_requests") >= 1000
    assert {r[0] for r in medium.execute("SELECT DISTINCT state FROM pull_requests")} == {
        "draft",
        "open",
        "merged",
        "closed",
    }
    failing = count("SELECT count(*) FROM check_runs WHERE status = 'failure'") / count(
        "SELECT count(*) FROM check_runs"
    )
    assert 0.1 <= failing <= 0.2
    protected = count(f"SELECT count(*) FROM branches WHERE protected = 1 AND name = {R.DEFAULT}")
    assert 0.45 <= protected / 80 <= 0.75
    assert count(f"SELECT count(*) FROM pull_requests WHERE {R.MERGEABLE_PR}") >= 60
    assert count(f"SELECT count(*) FROM pull_requests WHERE {R.BEHIND_PR}") >= 25
    assert count(f"SELECT count(*) FROM pull_requests WHERE {R.REVIEWABLE_PR}") >= 100
    assert count(f"SELECT count(*) FROM branches WHERE {R.DELETABLE_BRANCH}") >= 150
    assert count(f"SELECT count(*) FROM branches WHERE {R.FREE_HEAD}") >= 20
    assert count(f"SELECT count(*) FROM check_runs WHERE {R.RERUNNABLE_CHECK}") >= 100
    assert count(f"SELECT count(*) FROM repos WHERE {R.MAINTAINED_REPO}") >= 10
    assert count("SELECT count(*) FROM pull_requests WHERE mergeable_state = 'dirty'") >= 10
    # near each rule's edge: holds, freezes ending today and yesterday, migrations, own pull requests
    assert (
        count(
            "SELECT count(*) FROM pull_requests WHERE state = 'open' AND ',' || labels || ',' LIKE '%,hold,%'"
        )
        > 5
    )
    assert count("SELECT count(*) FROM repos WHERE frozen_until = '2026-06-01'") >= 1
    assert count("SELECT count(*) FROM repos WHERE frozen_until = '2026-05-31'") >= 1
    assert count(f"SELECT count(*) FROM pull_requests WHERE {R.MERGEABLE_PR} AND author_id = '{ME}'") >= 10


def test_persona_is_the_world_persona(medium):
    p = world(0, "medium").persona
    assert medium.execute("SELECT name, email, login FROM users WHERE id = ?", (ME,)).fetchone() == (
        p.name,
        p.email,
        p.username,
    )
    assert medium.execute("SELECT user_id FROM sessions").fetchone() == (ME,)


# -- permissions, archived repositories, branches ---------------------------------------------------------


def test_permission_levels_gate_writes(env, ep):
    repo = my_perm(ep, "read")
    msg = fails(env, ep, "create_branch", "read permission", repo=repo["id"], name="feature/x-1")
    assert repo["id"] in msg and "write or higher" in msg
    repo = my_perm(ep, "write")
    msg = fails(env, ep, "create_release", "need maintain", repo=repo["id"], tag="v9.0.0")
    assert repo["id"] in msg


def test_archived_repositories_are_read_only(env, ep):
    repo = one(ep, "SELECT * FROM repos WHERE archived = 1 ORDER BY id")
    write_sql(
        ep, "UPDATE collaborators SET permission = 'admin' WHERE repo_id = ? AND user_id = ?", repo["id"], ME
    )
    msg = fails(env, ep, "create_branch", "archived and read-only", repo=repo["id"], name="feature/x-1")
    assert repo["id"] in msg
    assert call(env, ep, "get_repo", repo=repo["id"])["archived"] is True


def test_create_branch_points_at_the_source_head(env, ep):
    repo = my_perm(ep, "write")
    out = call(env, ep, "create_branch", repo=repo["id"], name="feature/new-thing")
    default = one(
        ep, "SELECT * FROM branches WHERE repo_id = ? AND name = ?", repo["id"], repo["default_branch"]
    )
    assert out["head_commit_id"] == default["head_commit_id"] and tables(ep) == {"branches"}
    fails(env, ep, "create_branch", "already exists", repo=repo["id"], name="feature/new-thing")
    fails(env, ep, "create_branch", "not a valid branch name", repo=repo["id"], name="bad..name")


def test_default_and_protected_branches_cannot_be_deleted(env, ep):
    b = one(ep, f"SELECT * FROM branches WHERE {R.PUSHABLE_BRANCH} AND name = {R.DEFAULT} ORDER BY id")
    msg = fails(env, ep, "delete_branch", "default branch", branch=b["id"])
    assert b["name"] in msg and b["repo_id"] in msg
    p = one(
        ep,
        f"SELECT * FROM branches WHERE repo_id IN {R.WRITE_REPOS} AND protected = 1 AND name != {R.DEFAULT}",
    )
    assert p["name"] in fails(env, ep, "delete_branch", "is protected", branch=p["id"])


def test_deleting_a_head_branch_closes_its_open_pull_requests(env, ep):
    b = one(ep, f"SELECT * FROM branches WHERE {R.DELETABLE_BRANCH} AND {R.OPEN_PR_FROM} ORDER BY id")
    pr = one(
        ep,
        "SELECT * FROM pull_requests WHERE repo_id = ? AND head_branch = ? AND state IN ('open', 'draft')",
        b["repo_id"],
        b["name"],
    )
    out = call(env, ep, "delete_branch", branch=b["id"])
    assert out["closed_pull_requests"] == [pr["id"]]
    assert one(ep, "SELECT state FROM pull_requests WHERE id = ?", pr["id"])["state"] == "closed"
    assert tables(ep) == {"branches", "pull_requests", "policy_breach"}  # written mode: the breach is logged


def test_direct_commits_to_protected_branches_are_refused(env, ep):
    b = one(ep, f"SELECT * FROM branches WHERE repo_id IN {R.WRITE_REPOS} AND protected = 1 ORDER BY id")
    msg = fails(env, ep, "commit_file_change", "direct commits are refused", branch=b["id"], path="README.md",
                message="x", content="y")  # fmt: skip
    assert b["name"] in msg and b["repo_id"] in msg


def test_a_commit_moves_the_branch_runs_checks_and_updates_its_pull_request(env, ep):
    pr = one(ep, f"SELECT * FROM pull_requests WHERE {R.LIVE_PR} ORDER BY id")
    b = one(ep, "SELECT * FROM branches WHERE repo_id = ? AND name = ?", pr["repo_id"], pr["head_branch"])
    out = call(
        env, ep, "commit_file_change", branch=b["id"], path="docs/notes.md", message="Add notes", content="hi"
    )
    assert one(ep, "SELECT head_commit_id FROM branches WHERE id = ?", b["id"])["head_commit_id"] == out["id"]
    assert (
        one(ep, "SELECT head_commit_id FROM pull_requests WHERE id = ?", pr["id"])["head_commit_id"]
        == out["id"]
    )
    assert call(env, ep, "get_file", branch=b["id"], path="docs/notes.md")["text"] == "hi"
    checks = rows(ep, "SELECT status FROM check_runs WHERE commit_id = ?", out["id"])
    assert checks and {c["status"] for c in checks} == {"success"}
    assert tables(ep) == {"commits", "files", "check_runs", "branches", "pull_requests"}
    fails(
        env,
        ep,
        "commit_file_change",
        "nothing to commit",
        branch=b["id"],
        path="docs/notes.md",
        message="again",
        content="hi",
    )


def test_a_pull_request_needs_commits_to_merge(env, ep):
    repo = my_perm(ep, "write")
    fresh = call(env, ep, "create_branch", repo=repo["id"], name="feature/empty-one")
    default = one(
        ep, "SELECT id FROM branches WHERE repo_id = ? AND name = ?", repo["id"], repo["default_branch"]
    )
    msg = fails(
        env, ep, "create_pull_request", "no commits", head=fresh["id"], base=default["id"], title="Nothing"
    )
    assert "feature/empty-one" in msg


# -- merge gates -------------------------------------------------------------------------------------------


def test_merge_refuses_drafts_conflicts_and_unmet_protection(env, ep):
    draft = one(
        ep, f"SELECT * FROM pull_requests WHERE state = 'draft' AND repo_id IN {R.WRITE_REPOS} ORDER BY id"
    )
    assert f"#{draft['number']}" in fails(
        env, ep, "merge_pull_request", "is a draft", pull_request=draft["id"]
    )
    dirty = one(
        ep,
        f"SELECT * FROM pull_requests WHERE mergeable_state = 'dirty' AND state = 'open' AND repo_id IN {R.WRITE_REPOS} ORDER BY id",
    )
    msg = fails(env, ep, "merge_pull_request", "merge conflicts in", pull_request=dirty["id"])
    conflicts = call(env, ep, "get_pull_request", pull_request=dirty["id"])["merge"]["conflicts"]
    assert conflicts and all(path in msg for path in conflicts)
    blocked = rows(
        ep,
        f"SELECT * FROM pull_requests WHERE mergeable_state = 'blocked' AND state = 'open' AND repo_id IN {R.WRITE_REPOS} ORDER BY id",
    )
    texts = [
        fails(env, ep, "merge_pull_request", "cannot be merged", pull_request=p["id"]) for p in blocked[:30]
    ]
    assert any("required approvals" in t for t in texts)
    assert any("required checks not passing" in t for t in texts)


def test_merge_needs_an_up_to_date_head_when_protection_says_so(env, ep):
    pr = one(
        ep,
        f"SELECT * FROM pull_requests WHERE mergeable_state = 'behind' AND state = 'open' AND repo_id IN {R.WRITE_REPOS} ORDER BY id",
    )
    msg = fails(env, ep, "merge_pull_request", "must be up to date", pull_request=pr["id"])
    assert f"{pr['behind_by']} commit(s) behind {pr['base_branch']}" in msg
    out = call(env, ep, "update_branch", pull_request=pr["id"])
    assert out["behind_by"] == 0 and out["mergeable_state"] in ("clean", "unstable")


def test_merge_pins_the_head_and_allowed_methods(env, ep):
    pr = one(
        ep,
        f"SELECT * FROM pull_requests WHERE {R.MERGEABLE_PR} AND repo_id IN (SELECT id FROM repos WHERE merge_methods = 'squash') ORDER BY id",
    )
    msg = fails(
        env, ep, "merge_pull_request", "does not allow merge merges", pull_request=pr["id"], method="merge"
    )
    assert pr["repo_id"] in msg and "allowed: squash" in msg
    fails(
        env,
        ep,
        "merge_pull_request",
        "review the new commits",
        pull_request=pr["id"],
        expected_head_sha="abcdef0",
    )


def test_a_merge_lands_on_the_base_and_refreshes_the_others(env, ep):
    pr_id = pick(
        ep,
        "merge_pull_request",
        "pull_request",
        f"SELECT id FROM pull_requests WHERE {R.MERGEABLE_PR} ORDER BY id",
        set(),
    )
    pr = one(ep, "SELECT * FROM pull_requests WHERE id = ?", pr_id)
    base = one(ep, "SELECT * FROM branches WHERE repo_id = ? AND name = ?", pr["repo_id"], pr["base_branch"])
    out = call(env, ep, "merge_pull_request", pull_request=pr_id, delete_branch=True)
    assert out["state"] == "merged" and out["merged_by"] == ME and out["branch_deleted"]
    tip = one(ep, "SELECT head_commit_id FROM branches WHERE id = ?", base["id"])["head_commit_id"]
    assert tip == out["merge_commit_id"] != base["head_commit_id"]
    assert not rows(
        ep, "SELECT 1 FROM branches WHERE repo_id = ? AND name = ?", pr["repo_id"], pr["head_branch"]
    )
    assert {"pull_requests", "branches", "commits", "files", "check_runs"} <= tables(ep) <= {
        "pull_requests", "branches", "commits", "files", "check_runs"}  # fmt: skip
    assert changes(ep)[("pull_requests", pr_id, "state")]["new"] == "merged"
    fails(env, ep, "merge_pull_request", "is merged", pull_request=pr_id)


# -- reviews and checks --------------------------------------------------------------------------------


def test_authors_cannot_approve_their_own_pull_request(env, ep):
    pr = one(
        ep,
        f"SELECT * FROM pull_requests WHERE author_id = '{ME}' AND state = 'open' AND repo_id IN {R.WRITE_REPOS} ORDER BY id",
    )
    msg = fails(env, ep, "submit_review", "authors cannot approve", pull_request=pr["id"], event="approve")
    assert f"#{pr['number']}" in msg
    fails(env, ep, "submit_review", "needs a body", pull_request=pr["id"], event="comment")


def test_an_approval_from_a_writer_counts(env, ep):
    pr = one(
        ep, f"SELECT * FROM pull_requests WHERE {R.REVIEWABLE_PR} AND repo_id IN {R.WRITE_REPOS} ORDER BY id"
    )
    out = call(env, ep, "submit_review", pull_request=pr["id"], event="approve")
    assert out["state"] == "approved" and out["counts_toward_approvals"]
    assert ME in call(env, ep, "get_pull_request", pull_request=pr["id"])["merge"]["approvals"]


def test_line_comments_need_a_real_line(env, ep):
    pr = one(ep, f"SELECT * FROM pull_requests WHERE {R.LIVE_PR} ORDER BY id")
    msg = fails(
        env,
        ep,
        "add_review_comment",
        "lines at the head",
        pull_request=pr["id"],
        path="README.md",
        line=999,
        body="x",
    )
    assert "line 999" in msg
    out = call(
        env, ep, "add_review_comment", pull_request=pr["id"], path="README.md", line=2, body="Typo here."
    )
    assert out["line"] == 2 and tables(ep) == {"review_comments"}


def test_rerun_passes_flaky_checks_and_fails_real_ones(env, ep):
    with ep.fork(DOMAIN).reading() as conn:
        flaky = conn.execute(
            f"SELECT id FROM check_runs WHERE {R.RERUNNABLE_CHECK} AND status = 'failure' AND flaky = 1 ORDER BY id"
        ).fetchone()[0]
        real = conn.execute(
            f"SELECT id FROM check_runs WHERE {R.RERUNNABLE_CHECK} AND status = 'failure' AND flaky = 0 ORDER BY id"
        ).fetchone()[0]
    assert call(env, ep, "rerun_check", check=flaky)["status"] == "success"
    again = call(env, ep, "rerun_check", check=real)
    assert again["status"] == "failure" and again["attempt"] == 2 and "flaky" not in again
    running = one(
        ep, f"SELECT * FROM check_runs WHERE status = 'queued' AND repo_id IN {R.WRITE_REPOS} ORDER BY id"
    )
    assert running["name"] in fails(env, ep, "rerun_check", "still queued", check=running["id"])


# -- releases and protection ---------------------------------------------------------------------------


def test_tags_are_semver_and_unique(env, ep):
    rel = one(
        ep,
        f"SELECT * FROM releases WHERE repo_id IN (SELECT id FROM repos WHERE {R.MAINTAINED_REPO}) ORDER BY id",
    )
    msg = fails(env, ep, "create_release", "already exists", repo=rel["repo_id"], tag=rel["tag"])
    assert rel["id"] in msg and rel["tag"] in msg
    assert "release-1" in fails(
        env, ep, "create_release", "not a semantic version", repo=rel["repo_id"], tag="release-1"
    )
    out = call(env, ep, "create_release", repo=rel["repo_id"], tag="v9.0.0-rc.1", prerelease=True)
    assert (
        out["prerelease"] is True
        and out["target_branch"]
        == one(ep, "SELECT default_branch FROM repos WHERE id = ?", rel["repo_id"])["default_branch"]
    )


def test_protection_names_only_checks_the_repository_runs(env, ep):
    b = one(ep, f"SELECT * FROM branches WHERE {R.PROTECTABLE_BRANCH} AND protected = 0 ORDER BY id")
    msg = fails(
        env,
        ep,
        "set_branch_protection",
        "runs no check named deploy",
        branch=b["id"],
        reason="x",
        required_checks="build,deploy",
    )
    assert b["repo_id"] in msg
    out = call(env, ep, "set_branch_protection", branch=b["id"], reason="tighten", required_approvals=2)
    assert (
        out["required_approvals"] == 2
        and one(ep, "SELECT protected FROM branches WHERE id = ?", b["id"])["protected"] == 1
    )
    fails(
        env,
        ep,
        "commit_file_change",
        "direct commits are refused",
        branch=b["id"],
        path="README.md",
        message="m",
        content="c",
    )


# -- the team policy, in both modes ----------------------------------------------------------------------

MODES = ["written", "enforced"]


def episode(env, mode: str):
    return env.open({DOMAIN: "enforced"} if mode == "enforced" else None)


def breaches(ep) -> list[str]:
    return [r["slug"] for r in rows(ep, "SELECT slug FROM policy_breach ORDER BY id")]


def expect(env, ep, mode: str, slug: str | None, tool: str, **args) -> None:
    """A violating call (``slug``) is refused naming the rule (enforced) or runs and is logged
    (written); a compliant one (``slug`` None) runs and logs nothing."""
    before = ep.state_hash()
    out = env.call(ep, f"{DOMAIN}_{tool}", args)
    if slug is None:
        assert out.ok, out.error
        assert breaches(ep) == []
    elif mode == "enforced":
        assert not out.ok and f"({slug})" in out.error and "Refused by policy rule" in out.error
        assert ep.state_hash() == before
    else:
        assert out.ok, out.error
        assert breaches(ep) == [slug]


MERGE_RULES = [
    "hold-label",
    "merge-freeze",
    "self-merge-approval",
    "migrations-maintainer",
    "up-to-date-first",
]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("slug", MERGE_RULES)
def test_merge_rules(env, mode, slug):
    ep = episode(env, mode)
    pool = f"SELECT id FROM pull_requests WHERE {R.MERGEABLE_PR} ORDER BY id"
    expect(
        env,
        ep,
        mode,
        slug,
        "merge_pull_request",
        pull_request=pick(ep, "merge_pull_request", "pull_request", pool, {slug}),
    )
    ep = episode(env, mode)
    expect(
        env,
        ep,
        mode,
        None,
        "merge_pull_request",
        pull_request=pick(ep, "merge_pull_request", "pull_request", pool, set()),
    )


@pytest.mark.parametrize("mode", MODES)
def test_a_label_or_a_freeze_set_now_is_caught_and_a_freeze_that_ended_is_not(env, mode):
    pool = f"SELECT id FROM pull_requests WHERE {R.MERGEABLE_PR} ORDER BY id"
    ep = episode(env, mode)
    pr = pick(ep, "merge_pull_request", "pull_request", pool, set())
    call(env, ep, "update_pull_request", pull_request=pr, add_labels="do-not-merge")
    expect(env, ep, mode, "hold-label", "merge_pull_request", pull_request=pr)
    ep = episode(env, mode)
    repo = one(ep, "SELECT repo_id FROM pull_requests WHERE id = ?", pr)["repo_id"]
    write_sql(ep, "UPDATE repos SET frozen_until = '2026-06-01' WHERE id = ?", repo)
    expect(env, ep, mode, "merge-freeze", "merge_pull_request", pull_request=pr)
    ep = episode(env, mode)
    write_sql(ep, "UPDATE repos SET frozen_until = '2026-05-31' WHERE id = ?", repo)  # ended yesterday: near
    assert verdicts(ep, "merge_pull_request", {"pull_request": pr}) == set()
    expect(env, ep, mode, None, "merge_pull_request", pull_request=pr)


@pytest.mark.parametrize("mode", MODES)
def test_the_remedy_for_a_stale_head_is_updating_its_branch(env, mode):
    ep = episode(env, mode)
    pool = f"SELECT id FROM pull_requests WHERE {R.MERGEABLE_PR} ORDER BY id"
    pr = pick(ep, "merge_pull_request", "pull_request", pool, {"up-to-date-first"})
    rule = get_domain(DOMAIN).policy.rule("up-to-date-first")
    with ep.fork(DOMAIN).reading() as conn:
        tool, args = rule.remedy(Db(conn), "merge_pull_request", {"pull_request": pr})
    assert (tool, args) == ("update_branch", {"pull_request": pr})
    call(env, ep, tool, **args)
    expect(env, ep, mode, None, "merge_pull_request", pull_request=pr)


@pytest.mark.parametrize("mode", MODES)
def test_release_rule(env, mode):
    pool = f"SELECT id FROM repos WHERE {R.MAINTAINED_REPO} ORDER BY id"
    ep = episode(env, mode)
    red = pick(ep, "create_release", "repo", pool, {"release-green-default"}, {"tag": "v9.9.9"})
    expect(env, ep, mode, "release-green-default", "create_release", repo=red, tag="v9.9.9")
    ep = episode(env, mode)
    green = pick(ep, "create_release", "repo", pool, set(), {"tag": "v9.9.9"})
    other = rows(
        ep,
        "SELECT id FROM branches WHERE repo_id = ? AND name != (SELECT default_branch FROM repos WHERE id = ?)",
        green,
        green,
    )
    expect(
        env,
        ep,
        mode,
        "release-green-default",
        "create_release",
        repo=green,
        tag="v9.9.9",
        target=other[0]["id"],
    )
    ep = episode(env, mode)
    expect(env, ep, mode, None, "create_release", repo=green, tag="v9.9.9")


@pytest.mark.parametrize("mode", MODES)
def test_branch_with_an_open_pull_request_is_kept(env, mode):
    ep = episode(env, mode)
    busy = one(ep, f"SELECT id FROM branches WHERE {R.DELETABLE_BRANCH} AND {R.OPEN_PR_FROM} ORDER BY id")[
        "id"
    ]
    expect(env, ep, mode, "keep-open-pr-branches", "delete_branch", branch=busy)
    ep = episode(env, mode)
    idle = one(
        ep, f"SELECT id FROM branches WHERE {R.DELETABLE_BRANCH} AND NOT {R.OPEN_PR_FROM} ORDER BY id"
    )["id"]
    expect(env, ep, mode, None, "delete_branch", branch=idle)


@pytest.mark.parametrize("mode", MODES)
def test_lowering_protection_needs_an_admin_and_a_ticket(env, mode):
    def protected(perm: str) -> dict:
        return one(
            ep,
            "SELECT b.*, p.required_approvals FROM branches b JOIN branch_protections p ON p.branch_id = b.id "
            "JOIN collaborators c ON c.repo_id = b.repo_id AND c.user_id = ? JOIN repos r ON r.id = b.repo_id "
            "WHERE c.permission = ? AND r.archived = 0 AND p.required_approvals > 0 ORDER BY b.id",
            ME,
            perm,
        )

    ep = episode(env, mode)
    b = protected("maintain")
    expect(
        env,
        ep,
        mode,
        "protection-override",
        "set_branch_protection",
        branch=b["id"],
        required_approvals=0,
        reason="OPS-2291 hotfix window",
    )
    ep = episode(env, mode)
    b = protected("admin")
    expect(
        env,
        ep,
        mode,
        "protection-override",
        "set_branch_protection",
        branch=b["id"],
        required_approvals=0,
        reason="release crunch",
    )
    ep = episode(env, mode)
    expect(
        env,
        ep,
        mode,
        None,
        "set_branch_protection",
        branch=b["id"],
        required_approvals=0,
        reason="OPS-2291 hotfix window",
    )
    ep = episode(env, mode)
    expect(
        env,
        ep,
        mode,
        None,
        "set_branch_protection",
        branch=b["id"],
        required_approvals=b["required_approvals"] + 1,
        reason="tighten",
    )


def test_the_policy_document_and_confirmation_rule(env, ep):
    out = call(env, ep, "get_policy")
    assert out["mode"] == "written" and out["policy"].startswith("# Engineering merge and release policy")
    assert "9. Before merging a pull request, deleting a branch or publishing a release" in out["policy"]
    rule = get_domain(DOMAIN).policy.rule("confirm-irreversible")
    assert rule.confirm and set(rule.tools) == {"merge_pull_request", "delete_branch", "create_release"}
