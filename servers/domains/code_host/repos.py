"""Repositories and branches: finding them, creating and deleting branches, branch protection."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from servers.domains.code_host import git
from servers.domains.code_host.model import Branch, Protection, PullRequest, Repo, code_host
from servers.domains.code_host.rules import (
    DELETABLE_BRANCH,
    LIVE_REPO,
    PROTECTABLE_BRANCH,
    READ_REPOS,
    SAME_REPO,
    WRITABLE_REPO,
    BranchName,
    branch_for,
    label,
    permission,
    repo_for,
    split,
    valid_branch_name,
)
from servers.kit import Db, Offset, PageSize, Ref, ToolError

Approvals = Annotated[int, Field(ge=0, le=6, description="Approving reviews a merge needs (0-6).")]
Reason = Annotated[
    str,
    Field(
        min_length=1,
        max_length=200,
        description="Why the protection changes (kept in the audit log).",
        examples=[
            "OPS-2291 hotfix window approved",
            "tighten review rules",
            "SEC-118 audit follow-up",
            "temporary: release crunch",
        ],  # fmt: skip
    ),
]
CheckList = Annotated[
    str,
    Field(
        max_length=200,
        description="Comma-separated check names, e.g. build,test.",
        examples=["build,test", "build,test,lint", "test"],
    ),
]
VISIBLE = f"(id IN {READ_REPOS} OR visibility = 'public')"


def present_repo(db: Db, repo: dict) -> dict:
    user = db.actor()
    return {
        **repo,
        "archived": bool(repo["archived"]),
        "merge_methods": split(repo["merge_methods"]),
        "check_names": split(repo["check_names"]),
        "your_permission": permission(db, repo["id"], user["id"]) or "read",
    }


@code_host.tool(
    returns=Repo,
    says=[
        "which repositories can I work on?",
        "list the repos of {owner}",
        "find repositories matching {query}",
    ],
)
def list_repos(
    db: Db,
    owner: Annotated[str, Field(max_length=60)] | None = None,
    query: Annotated[str, Field(max_length=60)] | None = None,
    include_archived: bool = False,
    limit: PageSize = 20,
    offset: Offset = 0,
) -> dict:
    """Repositories you can see, with your permission on each, by name.

    Args:
        owner: Only repositories of this organisation.
        query: Only repositories whose name or description contains this text.
        include_archived: Include archived (read-only) repositories.
    """
    conds, params = [VISIBLE], []
    if owner:
        conds.append("owner = ?")
        params.append(owner)
    if query:
        conds.append("(name LIKE ? OR description LIKE ?)")
        params += [f"%{query}%", f"%{query}%"]
    if not include_archived:
        conds.append("archived = 0")
    out = db.page(
        "SELECT id, name, owner, description, visibility, default_branch, archived, "
        f"(SELECT permission FROM collaborators c WHERE c.repo_id = repos.id AND c.user_id = (SELECT user_id FROM sessions)) AS your_permission "
        f"FROM repos WHERE {' AND '.join(conds)} ORDER BY id",
        *params,
        limit=limit,
        offset=offset,
        key="repos",
    )
    for r in out["repos"]:
        r["archived"] = bool(r["archived"])
        r["your_permission"] = r["your_permission"] or "read"
    return out


@code_host.tool(returns=Repo, says=["show me the repo {repo}", "what is the default branch of {repo}?"])
def get_repo(db: Db, repo: Ref[Repo]) -> dict:
    """A repository: default branch, visibility, archived, merge methods, CI checks, merge freeze,
    your permission, its protected branches and counts of open pull requests and branches."""
    row = repo_for(db, repo)
    protected = db.all(
        "SELECT b.name, p.required_approvals, p.required_checks, p.require_up_to_date, p.allow_force_push "
        "FROM branches b JOIN branch_protections p ON p.branch_id = b.id WHERE b.repo_id = ? ORDER BY b.name",
        repo,
    )
    for p in protected:
        p["required_checks"] = split(p["required_checks"])
        p["require_up_to_date"], p["allow_force_push"] = (
            bool(p["require_up_to_date"]),
            bool(p["allow_force_push"]),
        )
    return {
        **present_repo(db, row),
        "protected_branches": protected,
        "open_pull_requests": db.scalar(
            "SELECT count(*) FROM pull_requests WHERE repo_id = ? AND state IN ('open', 'draft')", repo
        ),
        "branches": db.scalar("SELECT count(*) FROM branches WHERE repo_id = ?", repo),
    }


@code_host.tool(
    returns=Branch,
    says=["what branches does {repo} have?", "list the protected branches of {repo}"],
)
def list_branches(
    db: Db,
    repo: Ref[Repo, LIVE_REPO],
    protected_only: bool = False,
    limit: PageSize = 20,
    offset: Offset = 0,
) -> dict:
    """A repository's branches with their head commit and whether they are protected.

    Args:
        protected_only: Only protected branches.
    """
    repo_for(db, repo)
    extra = " AND b.protected = 1" if protected_only else ""
    out = db.page(
        "SELECT b.id, b.name, b.protected, c.sha AS head_sha, c.message AS head_message, c.created_at AS head_date "
        f"FROM branches b JOIN commits c ON c.id = b.head_commit_id WHERE b.repo_id = ?{extra} ORDER BY b.name",
        repo,
        limit=limit,
        offset=offset,
        key="branches",
    )
    for b in out["branches"]:
        b["protected"] = bool(b["protected"])
    return out


@code_host.tool(
    writes=[Branch],
    returns=Branch,
    says=["create a branch {name} in {repo}", "start a new branch {name} off {source} in {repo}"],
)
def create_branch(
    db: Db, repo: Ref[Repo, WRITABLE_REPO], name: BranchName, source: Ref[Branch, SAME_REPO] | None = None
) -> dict:
    """Create a branch pointing at the head of ``source`` (the default branch unless given).

    Args:
        name: The new branch's name.
        source: The branch to start from.
    """
    row = repo_for(db, repo, "write", "create branches")
    valid_branch_name(name)
    if git.branch_named(db, repo, name):
        raise ToolError(f"branch {name!r} already exists in {repo}")
    src = db.get(Branch, source) if source else git.branch_named(db, repo, row["default_branch"])
    if src["repo_id"] != repo:
        raise ToolError(f"branch {src['name']} ({src['id']}) belongs to {src['repo_id']}, not {repo}")
    branch = db.insert(
        Branch,
        repo_id=repo,
        name=name,
        head_commit_id=src["head_commit_id"],
        protected=False,
        created_by=db.actor()["id"],
    )
    return {
        **branch,
        "protected": False,
        "from": src["name"],
        "head_sha": git.commit_of_head(db, branch)["sha"],
    }


@code_host.tool(
    writes=[Branch, PullRequest],
    says=["delete the branch {branch}", "remove branch {branch}, we are done with it"],
    destructive=True,
)
def delete_branch(db: Db, branch: Ref[Branch, DELETABLE_BRANCH]) -> dict:
    """Delete a branch. The default branch, protected branches and the base of open pull requests
    cannot be deleted; open pull requests *from* the branch are closed with it."""
    row, repo = branch_for(db, branch, "write", "delete branches")
    if row["name"] == repo["default_branch"]:
        raise ToolError(f"{row['name']} is the default branch of {repo['id']} and cannot be deleted")
    if row["protected"]:
        raise ToolError(
            f"branch {row['name']} of {repo['id']} is protected; protected branches cannot be deleted"
        )
    into = db.all(
        "SELECT * FROM pull_requests WHERE repo_id = ? AND base_branch = ? AND state IN ('open', 'draft') ORDER BY number",
        repo["id"],
        row["name"],
    )
    if into:
        raise ToolError(
            f"branch {row['name']} is the base of {len(into)} open pull request(s) "
            f"({', '.join(label(p) for p in into)}); retarget or close them first"
        )
    closed = []
    for pr in db.all(
        "SELECT * FROM pull_requests WHERE repo_id = ? AND head_branch = ? AND state IN ('open', 'draft')",
        repo["id"],
        row["name"],
    ):
        db.update(
            PullRequest,
            pr["id"],
            state="closed",
            mergeable_state="closed",
            closed_at=db.stamp(),
            updated_at=db.stamp(),
        )
        closed.append(pr["id"])
    db.delete(Branch, branch)
    return {"deleted": row["name"], "repo": repo["id"], "closed_pull_requests": closed}


@code_host.tool(
    writes=[Protection, Branch, PullRequest],
    returns=Protection,
    says=[
        "require {required_approvals} approvals on {branch}",
        "protect branch {branch}: checks {required_checks} must pass; reason: {reason}",
        "change the protection of {branch} to {required_approvals} approvals because {reason}",
    ],
    idempotent=True,
)
def set_branch_protection(
    db: Db,
    branch: Ref[Branch, PROTECTABLE_BRANCH],
    reason: Reason,
    required_approvals: Approvals | None = None,
    required_checks: CheckList | None = None,
    require_up_to_date: bool | None = None,
    allow_force_push: bool | None = None,
) -> dict:
    """Protect a branch or change its protection (maintain or admin permission). Fields left out
    keep their current value (new protection: 1 approval, the build and test checks).

    Args:
        reason: Why, for the audit log.
        required_approvals: Approving reviews a merge needs.
        required_checks: Checks that must pass on the head commit (names the repository's CI runs).
        require_up_to_date: The head branch must contain the base branch's latest commit.
        allow_force_push: Allow force pushes to the branch.
    """
    row, repo = branch_for(db, branch, "maintain", "change branch protection")
    known = split(repo["check_names"])
    old = db.one("SELECT * FROM branch_protections WHERE branch_id = ?", branch)
    if required_checks is not None:
        unknown = [c for c in split(required_checks) if c not in known]
        if unknown:
            raise ToolError(
                f"{repo['id']} runs no check named {', '.join(unknown)}; its checks: {', '.join(known)}"
            )
        required_checks = ",".join(split(required_checks))
    base = old or {"required_approvals": 1, "required_checks": ",".join(c for c in ("build", "test") if c in known),
                   "require_up_to_date": False, "allow_force_push": False}  # fmt: skip
    values = {
        "required_approvals": base["required_approvals"]
        if required_approvals is None
        else required_approvals,
        "required_checks": base["required_checks"] if required_checks is None else required_checks,
        "require_up_to_date": bool(
            base["require_up_to_date"] if require_up_to_date is None else require_up_to_date
        ),
        "allow_force_push": bool(base["allow_force_push"] if allow_force_push is None else allow_force_push),
    }
    stamp = {"updated_by": db.actor()["id"], "updated_at": db.stamp(), "reason": reason}
    if old:
        if all(old[k] == v for k, v in values.items()):
            return present_protection(old, row)
        rule = db.update(Protection, old["id"], **values, **stamp)
    else:
        rule = db.insert(Protection, branch_id=branch, **values, **stamp)
        db.update(Branch, branch, protected=True)
    git.refresh(db, repo["id"])
    return present_protection(rule, row)


def present_protection(rule: dict, branch: dict) -> dict:
    return {
        **rule,
        "branch": branch["name"],
        "repo": branch["repo_id"],
        "required_checks": split(rule["required_checks"]),
        "require_up_to_date": bool(rule["require_up_to_date"]),
        "allow_force_push": bool(rule["allow_force_push"]),
    }
