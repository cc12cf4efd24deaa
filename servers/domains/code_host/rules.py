"""Who may do what (permission levels, archived repositories) and the SQL conditions the sampler
uses to pick arguments the tools will accept; they follow the tools' own checks."""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import Field

from servers.domains.code_host.model import PERMISSIONS, Branch, PullRequest, Repo
from servers.kit import Db, ToolError

ME = "(SELECT user_id FROM sessions)"


def _repos(levels: tuple[str, ...], live: bool = True) -> str:
    cond = ", ".join(f"'{p}'" for p in levels)
    archived = " AND c.repo_id IN (SELECT id FROM repos WHERE archived = 0)" if live else ""
    return f"(SELECT c.repo_id FROM collaborators c WHERE c.user_id = {ME} AND c.permission IN ({cond}){archived})"


READ_REPOS = _repos(PERMISSIONS, live=False)
LIVE_REPOS = _repos(PERMISSIONS)
VISIBLE_REPOS = f"(SELECT id FROM repos WHERE id IN {READ_REPOS} OR visibility = 'public')"
WRITE = ("write", "maintain", "admin")
MAINTAIN = ("maintain", "admin")
WRITE_REPOS = _repos(WRITE)
MAINTAIN_REPOS = _repos(MAINTAIN)


def holds(levels: tuple[str, ...], column: str) -> str:
    """SQL: ``column`` names a repository, not archived, on which the signed-in user holds one of
    ``levels``. The same rows as ``column IN`` the lists above, but correlated: a sampler query
    that weighs a few rows looks each one's collaborator row up, instead of first listing every
    repository the user may touch (which SQLite redoes on every query)."""
    cond = ", ".join(f"'{p}'" for p in levels)
    return (
        "EXISTS (SELECT 1 FROM collaborators c JOIN repos r ON r.id = c.repo_id "
        f"WHERE c.repo_id = {column} AND c.user_id = {ME} AND c.permission IN ({cond}) AND r.archived = 0)"
    )


DEFAULT = "(SELECT r.default_branch FROM repos r WHERE r.id = branches.repo_id)"
OPEN_PR_FROM = (
    "EXISTS (SELECT 1 FROM pull_requests p WHERE p.repo_id = branches.repo_id "
    "AND p.head_branch = branches.name AND p.state IN ('open', 'draft'))"
)
OPEN_PR_INTO = (
    "EXISTS (SELECT 1 FROM pull_requests p WHERE p.repo_id = branches.repo_id "
    "AND p.base_branch = branches.name AND p.state IN ('open', 'draft'))"
)
MERGED_FROM = (
    "EXISTS (SELECT 1 FROM pull_requests p WHERE p.repo_id = branches.repo_id "
    "AND p.head_branch = branches.name AND p.state = 'merged')"
)

LIVE_REPO = holds(PERMISSIONS, "repos.id")
WRITABLE_REPO = holds(WRITE, "repos.id")
MAINTAINED_REPO = holds(MAINTAIN, "repos.id")
SAME_REPO = "repo_id = :repo"
READABLE_BRANCH = holds(PERMISSIONS, "branches.repo_id")
PUSHABLE_BRANCH = f"{holds(WRITE, 'branches.repo_id')} AND protected = 0"
DELETABLE_BRANCH = f"{PUSHABLE_BRANCH} AND name != {DEFAULT} AND NOT {OPEN_PR_INTO}"
FREE_HEAD = f"{PUSHABLE_BRANCH} AND name != {DEFAULT} AND NOT {OPEN_PR_FROM} AND NOT {MERGED_FROM}"
BASE_FOR_HEAD = (
    "repo_id = (SELECT b.repo_id FROM branches b WHERE b.id = :head) AND id != :head "
    f"AND (name = {DEFAULT} OR protected = 1)"
)
HEAD_FILE = "commit_id = (SELECT head_commit_id FROM branches WHERE id = :branch)"
PR_FILE = "commit_id = (SELECT head_commit_id FROM pull_requests WHERE id = :pull_request)"
PROTECTABLE_BRANCH = holds(MAINTAIN, "branches.repo_id")
PR_WRITABLE = holds(WRITE, "pull_requests.repo_id")
LIVE_PR = f"state IN ('open', 'draft') AND {PR_WRITABLE}"
MERGEABLE_PR = f"state = 'open' AND mergeable_state IN ('clean', 'unstable') AND {PR_WRITABLE}"
BEHIND_PR = f"state IN ('open', 'draft') AND behind_by > 0 AND mergeable_state != 'dirty' AND {PR_WRITABLE}"
REVIEWABLE_PR = f"state = 'open' AND author_id != {ME} AND {holds(PERMISSIONS, 'pull_requests.repo_id')}"
REVIEWER_FOR_PR = (
    "id IN (SELECT c.user_id FROM collaborators c WHERE c.repo_id = "
    "(SELECT p.repo_id FROM pull_requests p WHERE p.id = :pull_request)) "
    "AND id != (SELECT p.author_id FROM pull_requests p WHERE p.id = :pull_request)"
)
RERUNNABLE_CHECK = (
    f"status IN ('failure', 'neutral', 'skipped') AND {holds(WRITE, 'check_runs.repo_id')} "
    "AND commit_id IN (SELECT head_commit_id FROM branches)"
)

BRANCH_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._/-]{0,99}$")
SEMVER = re.compile(r"^v?(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z.-]+)?$")
TICKET = re.compile(r"\b[A-Z][A-Z0-9]{1,9}-[0-9]{1,6}\b")

BranchName = Annotated[
    str,
    Field(
        min_length=1,
        max_length=100,
        description="A branch name, e.g. feature/audit-log-export.",
        examples=[
            "feature/audit-log-export",
            "fix/session-timeout",
            "chore/bump-deps-june",
            "hotfix/cache-headers",
        ],
    ),
]
Labels = Annotated[
    str,
    Field(
        max_length=200,
        description="Comma-separated label names, e.g. bug,needs-docs.",
        examples=["needs-docs", "bug", "hold", "ready-for-qa"],
    ),
]


# -- who is acting -----------------------------------------------------------------------------------


def permission(db: Db, repo_id: str, user_id: str) -> str | None:
    return db.scalar(
        "SELECT permission FROM collaborators WHERE repo_id = ? AND user_id = ?", repo_id, user_id
    )


def repo_for(db: Db, repo_id: str, need: str = "read", doing: str = "change it") -> dict:
    """The repository, if the signed-in user may ``doing`` with permission ``need``; archived
    repositories are read-only for everyone."""
    repo = db.find(Repo, repo_id)
    user = db.actor()
    have = permission(db, repo_id, user["id"]) if repo else None
    if repo is None or (have is None and repo["visibility"] != "public"):
        raise ToolError(f"repository {repo_id!r} not found (or you have no access to it)")
    if need != "read" and repo["archived"]:
        raise ToolError(f"repository {repo_id} is archived and read-only; it cannot {doing}")
    if PERMISSIONS.index(have or "read") < PERMISSIONS.index(need):
        raise ToolError(
            f"you ({user['login']}) have {have or 'read'} permission on {repo_id}; "
            f"to {doing} you need {need} or higher"
        )
    return repo


def branch_for(db: Db, branch_id: str, need: str = "read", doing: str = "change it") -> tuple[dict, dict]:
    branch = db.get(Branch, branch_id)
    return branch, repo_for(db, branch["repo_id"], need, doing)


def pr_for(db: Db, pr_id: str, need: str = "read", doing: str = "change it") -> tuple[dict, dict]:
    pr = db.get(PullRequest, pr_id)
    return pr, repo_for(db, pr["repo_id"], need, doing)


def live_pr(pr: dict, doing: str) -> None:
    if pr["state"] in ("merged", "closed"):
        when = pr["merged_at"] if pr["state"] == "merged" else pr["closed_at"]
        raise ToolError(f"pull request {label(pr)} is {pr['state']} (since {when[:10]}); it cannot {doing}")


def label(pr: dict) -> str:
    return f"#{pr['number']} ({pr['id']}, {pr['repo_id']})"


def split(csv: str | None) -> list[str]:
    return [x.strip() for x in (csv or "").split(",") if x.strip()]


def valid_branch_name(name: str) -> str:
    if not BRANCH_NAME.match(name) or ".." in name or name.endswith(("/", ".lock", ".")) or "//" in name:
        raise ToolError(
            f"{name!r} is not a valid branch name: use letters, digits, '.', '_', '-' and '/' "
            "(no '..', '//', or trailing '/')"
        )
    return name
