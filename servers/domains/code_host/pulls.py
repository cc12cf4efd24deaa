"""Pull requests: listing, opening, reading (with what a merge still needs), editing, closing,
bringing the head up to date with its base, and merging by merge commit, squash or rebase."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from servers.domains.code_host import git
from servers.domains.code_host.model import (
    Branch,
    CheckRun,
    Commit,
    File,
    MergeMethod,
    PrState,
    PullRequest,
    Repo,
    User,
    code_host,
)
from servers.domains.code_host.rules import (
    BASE_FOR_HEAD,
    BEHIND_PR,
    FREE_HEAD,
    LIVE_PR,
    LIVE_REPO,
    MERGEABLE_PR,
    VISIBLE_REPOS,
    Labels,
    branch_for,
    label,
    live_pr,
    pr_for,
    repo_for,
    split,
)
from servers.kit import Db, Offset, PageSize, Ref, ToolError

Title = Annotated[
    str,
    Field(
        min_length=1,
        max_length=200,
        examples=["Raise the upstream timeout", "Fix the session timeout", "Add audit log export"],
    ),
]
Body = Annotated[str, Field(max_length=4000, examples=["Fixes the flaky retry path. Tested locally."])]
Sha = Annotated[
    str,
    Field(
        min_length=7,
        max_length=40,
        pattern=r"^[0-9a-f]{7,40}$",
        description="A commit sha (7-40 hex digits).",
    ),
]
SUMMARY = (
    "SELECT id, number, repo_id, title, state, author_id, base_branch, head_branch, labels, mergeable_state, "
    "behind_by, created_at FROM pull_requests"
)


def present(db: Db, pull_request: dict) -> dict:
    author = db.get(User, pull_request["author_id"])
    return {**pull_request, "labels": split(pull_request["labels"]), "author": author["login"],
            "head_sha": db.get(Commit, pull_request["head_commit_id"])["sha"]}  # fmt: skip


@code_host.tool(
    returns=PullRequest,
    says=[
        "what pull requests are open in {repo}?",
        "list the pull requests opened by {opened_by}",
        "show PRs labelled {label} in {repo}",
    ],
)
def list_pull_requests(
    db: Db,
    repo: Ref[Repo, LIVE_REPO] | None = None,
    state: PrState | None = None,
    opened_by: Ref[User] | None = None,
    label: Annotated[str, Field(max_length=40, examples=["hold", "bug", "dependencies"])] | None = None,
    limit: PageSize = 20,
    offset: Offset = 0,
) -> dict:
    """Pull requests in repositories you can see, newest first.

    Args:
        repo: Only this repository's.
        state: draft, open, merged or closed (default: draft and open).
        opened_by: Only those this user opened.
        label: Only those carrying this label.
    """
    conds = [f"repo_id IN {VISIBLE_REPOS}"]
    params: list = []
    if repo:
        repo_for(db, repo)
        conds.append("repo_id = ?")
        params.append(repo)
    conds.append("state = ?" if state else "state IN ('open', 'draft')")
    params += [state] if state else []
    if opened_by:
        conds.append("author_id = ?")
        params.append(opened_by)
    if label:
        conds.append("(',' || labels || ',') LIKE ?")
        params.append(f"%,{label},%")
    out = db.page(f"{SUMMARY} WHERE {' AND '.join(conds)} ORDER BY created_at DESC, id", *params,
                  limit=limit, offset=offset, key="pull_requests")  # fmt: skip
    for p in out["pull_requests"]:
        p["labels"] = split(p["labels"])
    return out


@code_host.tool(
    returns=PullRequest,
    says=[
        "show me pull request {pull_request}",
        "can {pull_request} be merged yet?",
        "what is blocking {pull_request}?",
    ],
)
def get_pull_request(db: Db, pull_request: Ref[PullRequest]) -> dict:
    """A pull request with its reviews, requested reviewers, checks on the head commit, the files
    it changes, and what a merge still needs (``blockers`` empty means the host would merge it)."""
    row, _ = pr_for(db, pull_request)
    out = present(db, row)
    out["reviews"] = db.all(
        "SELECT r.id, u.login AS reviewer, r.reviewer_id, r.state, r.body, r.submitted_at FROM reviews r "
        "JOIN users u ON u.id = r.reviewer_id WHERE r.pr_id = ? ORDER BY r.id",
        pull_request,
    )
    out["requested_reviewers"] = [r["login"] for r in db.all(
        "SELECT u.login FROM review_requests q JOIN users u ON u.id = q.user_id WHERE q.pr_id = ? ORDER BY q.id", pull_request
    )]  # fmt: skip
    out["checks"] = git.checks_on(db, row["head_commit_id"])
    if row["state"] in ("open", "draft"):
        base = git.branch_named(db, row["repo_id"], row["base_branch"])
        g = git.gates(db, row)
        mb = git.merge_base(db, base["head_commit_id"], row["head_commit_id"]) if base else None
        out["files_changed"] = git.changed(
            git.tree(db, mb) if mb else {}, git.tree(db, row["head_commit_id"])
        )
        out["merge"] = dict(g)
        if row["state"] == "draft":
            out["merge"]["blockers"] = ["the pull request is a draft", *g["blockers"]]
    return out


@code_host.tool(
    writes=[PullRequest],
    returns=PullRequest,
    says=[
        "open a pull request from {head} into {base} titled '{title}'",
        "propose merging {head} into {base}: {title}",
    ],
)
def create_pull_request(
    db: Db,
    head: Ref[Branch, FREE_HEAD],
    base: Ref[Branch, BASE_FOR_HEAD],
    title: Title,
    body: Body = "",
    draft: bool = False,
) -> dict:
    """Open a pull request to merge branch ``head`` into ``base`` (same repository).

    Args:
        head: The branch with the changes.
        base: The branch to merge into, usually the default branch.
        draft: Open it as a draft (not ready for review or merge).
    """
    h, repo = branch_for(db, head, "write", "open pull requests")
    b = db.get(Branch, base)
    if b["repo_id"] != h["repo_id"]:
        raise ToolError(f"base {b['name']} is in {b['repo_id']} but head {h['name']} is in {h['repo_id']}")
    if b["id"] == h["id"]:
        raise ToolError(f"head and base are the same branch ({h['name']})")
    dup = db.one(
        "SELECT * FROM pull_requests WHERE repo_id = ? AND head_branch = ? AND base_branch = ? AND state IN ('open', 'draft')",
        repo["id"], h["name"], b["name"],
    )  # fmt: skip
    if dup:
        raise ToolError(f"a pull request from {h['name']} into {b['name']} is already open: {label(dup)}")
    cmp = git.compare(db, b["head_commit_id"], h["head_commit_id"])
    if not cmp["ahead_by"]:
        raise ToolError(f"there are no commits on {h['name']} that {b['name']} lacks; nothing to merge")
    number = db.scalar("SELECT coalesce(max(number), 0) + 1 FROM pull_requests WHERE repo_id = ?", repo["id"])
    pull_request = db.insert(
        PullRequest, repo_id=repo["id"], number=number, title=title, body=body, author_id=db.actor()["id"],
        base_branch=b["name"], head_branch=h["name"], head_commit_id=h["head_commit_id"],
        state="draft" if draft else "open", labels="", mergeable_state="blocked", behind_by=0,
        created_at=db.stamp(), updated_at=db.stamp(), merged_at=None, merged_by=None, merge_commit_id=None, closed_at=None,
    )  # fmt: skip
    git.refresh(db, repo["id"])
    return present(db, db.get(PullRequest, pull_request["id"]))


@code_host.tool(
    writes=[PullRequest],
    returns=PullRequest,
    says=[
        "rename {pull_request} to '{title}'",
        "add the label {add_labels} to {pull_request}",
        "take the {remove_labels} label off {pull_request}",
    ],
)
def update_pull_request(
    db: Db,
    pull_request: Ref[PullRequest, LIVE_PR],
    title: Title | None = None,
    body: Body | None = None,
    draft: bool | None = None,
    add_labels: Labels | None = None,
    remove_labels: Labels | None = None,
) -> dict:
    """Edit an open or draft pull request: title, description, draft or ready, labels.

    Args:
        draft: true turns it into a draft, false marks it ready for review.
        add_labels: Labels to add.
        remove_labels: Labels to remove.
    """
    row, repo = pr_for(db, pull_request, "write", "edit pull requests")
    live_pr(row, "be edited")
    labels = split(row["labels"])
    for name in split(remove_labels):
        if name not in labels:
            raise ToolError(f"{label(row)} has no label {name!r}; its labels: {', '.join(labels) or 'none'}")
        labels.remove(name)
    labels += [n for n in split(add_labels) if n not in labels]
    changes = {"title": title, "body": body, "labels": ",".join(labels)}
    if draft is not None:
        changes["state"] = "draft" if draft else "open"
    real = {k: v for k, v in changes.items() if v is not None and row[k] != v}
    if not real:
        raise ToolError(f"nothing to change on {label(row)}: it already has the given values")
    db.update(PullRequest, pull_request, **real, updated_at=db.stamp())
    git.refresh(db, repo["id"])
    return present(db, db.get(PullRequest, pull_request))


@code_host.tool(
    writes=[PullRequest],
    returns=PullRequest,
    says=["close {pull_request} without merging", "close pull request {pull_request}, we won't do this"],
    destructive=True,
)
def close_pull_request(db: Db, pull_request: Ref[PullRequest, LIVE_PR]) -> dict:
    """Close an open or draft pull request without merging it (its branch stays)."""
    row, _ = pr_for(db, pull_request, "write", "close pull requests")
    live_pr(row, "be closed")
    db.update(
        PullRequest,
        pull_request,
        state="closed",
        mergeable_state="closed",
        closed_at=db.stamp(),
        updated_at=db.stamp(),
    )
    return present(db, db.get(PullRequest, pull_request))


@code_host.tool(
    writes=[Commit, File, CheckRun, Branch, PullRequest],
    returns=PullRequest,
    says=[
        "update the branch of {pull_request} with its base",
        "bring {pull_request} up to date with its base branch",
    ],
)
def update_branch(db: Db, pull_request: Ref[PullRequest, BEHIND_PR]) -> dict:
    """Merge the base branch's latest commits into the pull request's head branch (GitHub's
    "Update branch"). Refused when the two conflict: that needs resolving by hand."""
    row, repo = pr_for(db, pull_request, "write", "update branches")
    live_pr(row, "be updated")
    base = git.branch_named(db, repo["id"], row["base_branch"])
    head = git.branch_named(db, repo["id"], row["head_branch"])
    if row["behind_by"] == 0 or not git.only_in(db, base["head_commit_id"], head["head_commit_id"]):
        raise ToolError(f"{label(row)} is already up to date with {row['base_branch']}")
    if head["protected"]:
        raise ToolError(f"head branch {head['name']} is protected and takes no direct commits")
    merged, conflicts = git.three_way(db, head["head_commit_id"], base["head_commit_id"])
    if conflicts:
        raise ToolError(
            f"{row['head_branch']} and {row['base_branch']} conflict in {', '.join(conflicts)}; resolve the conflicts locally"
        )
    message = f"Merge branch '{row['base_branch']}' into {row['head_branch']}"
    commit = git.new_commit(
        db, repo["id"], head["head_commit_id"], merged, message, db.actor()["id"], base["head_commit_id"]
    )
    git.move_branch(db, head, commit["id"])
    git.refresh(db, repo["id"])
    return present(db, db.get(PullRequest, pull_request))


@code_host.tool(
    writes=[Commit, File, CheckRun, Branch, PullRequest],
    returns=PullRequest,
    says=[
        "merge {pull_request}",
        "merge pull request {pull_request} using {method}",
        "go ahead and merge {pull_request}",
    ],
)
def merge_pull_request(
    db: Db,
    pull_request: Ref[PullRequest, MERGEABLE_PR],
    method: MergeMethod | None = None,
    expected_head_sha: Sha | None = None,
    delete_branch: bool = False,
) -> dict:
    """Merge an open pull request into its base. The host refuses drafts, conflicts, required
    checks not passing on the head commit, missing approvals (from reviewers with write access
    other than the author), and a head behind its base when protection requires it up to date.

    Args:
        method: merge (a merge commit), squash (one commit) or rebase (the commits replayed);
            the repository's first allowed method by default.
        expected_head_sha: Merge only if the head commit is still this one.
        delete_branch: Delete the head branch after merging.
    """
    row, repo = pr_for(db, pull_request, "write", "merge pull requests")
    live_pr(row, "be merged")
    allowed = split(repo["merge_methods"])
    method = method or allowed[0]
    if method not in allowed:
        raise ToolError(f"{repo['id']} does not allow {method} merges; allowed: {', '.join(allowed)}")
    if row["state"] == "draft":
        raise ToolError(f"{label(row)} is a draft; mark it ready for review before merging")
    head_sha = db.get(Commit, row["head_commit_id"])["sha"]
    if expected_head_sha and not head_sha.startswith(expected_head_sha):
        raise ToolError(
            f"the head of {label(row)} is now {head_sha[:7]}, not {expected_head_sha[:7]}; review the new commits first"
        )
    g = git.gates(db, row)
    if g["blockers"]:
        raise ToolError(
            f"{label(row)} cannot be merged into {row['base_branch']}: {'; '.join(g['blockers'])}"
        )
    base = git.branch_named(db, repo["id"], row["base_branch"])
    head = git.branch_named(db, repo["id"], row["head_branch"])
    merged, _ = git.three_way(db, base["head_commit_id"], head["head_commit_id"])
    actor = db.actor()["id"]
    tip = _land(db, repo["id"], row, method, base, head, merged, actor)
    git.move_branch(db, base, tip["id"])
    db.update(PullRequest, pull_request, state="merged", mergeable_state="merged", merged_at=db.stamp(), merged_by=actor,
              merge_commit_id=tip["id"], closed_at=db.stamp(), updated_at=db.stamp(), behind_by=0)  # fmt: skip
    if delete_branch and not head["protected"] and head["name"] != repo["default_branch"]:
        db.delete(Branch, head["id"])
        for other in db.all(
            "SELECT id FROM pull_requests WHERE repo_id = ? AND head_branch = ? AND state IN ('open', 'draft')",
            repo["id"],
            head["name"],
        ):
            db.update(
                PullRequest, other["id"], state="closed", mergeable_state="closed", closed_at=db.stamp()
            )
    git.refresh(db, repo["id"])
    return {
        **present(db, db.get(PullRequest, pull_request)),
        "merge_sha": tip["sha"],
        "method": method,
        "branch_deleted": delete_branch,
    }


def _land(
    db: Db, repo_id: str, pull_request: dict, method: str, base: dict, head: dict, merged: dict, actor: str
) -> dict:
    """The commit(s) a merge adds to the base branch; returns the new tip."""
    if method == "merge":
        message = f"Merge pull request #{pull_request['number']} from {pull_request['head_branch']}"
        return git.new_commit(
            db, repo_id, base["head_commit_id"], merged, message, actor, head["head_commit_id"]
        )
    if method == "squash":
        return git.new_commit(
            db,
            repo_id,
            base["head_commit_id"],
            merged,
            f"{pull_request['title']} (#{pull_request['number']})",
            actor,
        )
    # rebase: each commit of the head (merge commits dropped) replayed on the base, ending at the merged tree
    own = [c for c in git.only_in(db, head["head_commit_id"], base["head_commit_id"])
           if db.get(Commit, c)["second_parent_id"] is None]  # fmt: skip
    if not own:
        return git.new_commit(
            db,
            repo_id,
            base["head_commit_id"],
            merged,
            f"{pull_request['title']} (#{pull_request['number']})",
            actor,
        )
    files, tip = git.tree(db, base["head_commit_id"]), db.get(Commit, base["head_commit_id"])
    for i, cid in enumerate(own):
        c = db.get(Commit, cid)
        before, after = git.tree(db, c["parent_id"]), git.tree(db, cid)
        for path in git.changed(before, after):
            if path in after:
                files[path] = after[path]
            else:
                files.pop(path, None)
        step = merged if i == len(own) - 1 else files
        tip = git.new_commit(db, repo_id, tip["id"], dict(step), c["message"], c["author_id"])
    return tip
