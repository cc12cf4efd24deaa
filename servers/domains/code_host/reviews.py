"""Code review and CI: asking for reviewers, submitting reviews, line comments, check runs and
re-running a check (a flaky failure passes on its second attempt; a real one fails again)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from servers.domains.code_host import git
from servers.domains.code_host.model import (
    REVIEW_STATE,
    Branch,
    CheckRun,
    File,
    PullRequest,
    Review,
    ReviewComment,
    ReviewEvent,
    ReviewRequest,
    User,
    code_host,
)
from servers.domains.code_host.rules import (
    LIVE_PR,
    PR_FILE,
    READABLE_BRANCH,
    RERUNNABLE_CHECK,
    REVIEWABLE_PR,
    REVIEWER_FOR_PR,
    branch_for,
    label,
    live_pr,
    permission,
    pr_for,
    repo_for,
)
from servers.kit import Db, IdList, PathRef, Ref, ToolError

ReviewBody = Annotated[
    str,
    Field(
        max_length=4000,
        examples=["LGTM", "Please add a test for the timeout path.", "Looks good, one nit inline."],
    ),
]
CommentBody = Annotated[
    str,
    Field(
        min_length=1,
        max_length=2000,
        examples=["Could this be a constant?", "Typo here.", "Why is this needed?"],
    ),
]
Line = Annotated[
    int, Field(ge=1, le=10_000, description="Line number in the file (1-based).", examples=[1, 2, 3, 5, 8])
]
PrPath = Annotated[
    PathRef[File, PR_FILE],
    Field(description="A file path of the pull request's head commit, e.g. README.md."),
]


@code_host.tool(
    writes=[ReviewRequest],
    returns=ReviewRequest,
    says=["ask {reviewers} to review {pull_request}", "request a review of {pull_request} from {reviewers}"],
    idempotent=True,
)
def request_reviewers(
    db: Db, pull_request: Ref[PullRequest, LIVE_PR], reviewers: IdList[User, REVIEWER_FOR_PR]
) -> dict:
    """Ask people with access to the repository to review a pull request (not its author)."""
    row, repo = pr_for(db, pull_request, "write", "request reviews")
    live_pr(row, "get reviewers")
    for uid in reviewers:
        user = db.get(User, uid)
        if uid == row["author_id"]:
            raise ToolError(f"{user['login']} opened {label(row)} and cannot be asked to review it")
        if permission(db, repo["id"], uid) is None:
            raise ToolError(f"{user['login']} ({uid}) has no access to {repo['id']} and cannot review")
    added = []
    for uid in reviewers:
        if not db.one("SELECT 1 FROM review_requests WHERE pr_id = ? AND user_id = ?", pull_request, uid):
            db.add(
                ReviewRequest,
                pr_id=pull_request,
                user_id=uid,
                requested_by=db.actor()["id"],
                requested_at=db.stamp(),
            )
            added.append(uid)
    requested = db.all(
        "SELECT u.id, u.login FROM review_requests q JOIN users u ON u.id = q.user_id WHERE q.pr_id = ? ORDER BY q.id",
        pull_request,
    )
    return {"pull_request": pull_request, "added": added, "requested_reviewers": requested}


@code_host.tool(
    writes=[Review, ReviewRequest, PullRequest],
    returns=Review,
    says=[
        "review {pull_request}: {event}, with the note '{body}'",
        "submit my review of {pull_request} ({event}): {body}",
    ],
)
def submit_review(
    db: Db, pull_request: Ref[PullRequest, REVIEWABLE_PR], event: ReviewEvent, body: ReviewBody = ""
) -> dict:
    """Review an open pull request as yourself: approve, request changes (say what) or comment.
    Nobody can approve or request changes on their own pull request.

    Args:
        event: approve, request_changes or comment.
        body: The review text (needed to request changes or to comment).
    """
    row, repo = pr_for(db, pull_request, "read", "take reviews")
    if repo["archived"]:
        raise ToolError(f"repository {repo['id']} is archived and read-only")
    live_pr(row, "be reviewed")
    user = db.actor()
    if row["state"] == "draft" and event != "comment":
        raise ToolError(f"{label(row)} is a draft; only comments are possible until it is ready for review")
    if row["author_id"] == user["id"] and event != "comment":
        raise ToolError(
            f"you opened {label(row)}; authors cannot approve or request changes on their own pull request"
        )
    if event != "approve" and not body.strip():
        raise ToolError(f"a review that does not approve needs a body saying what to change or ask ({event})")
    review = db.insert(Review, pr_id=pull_request, reviewer_id=user["id"], state=REVIEW_STATE[event], body=body,
                       commit_id=row["head_commit_id"], submitted_at=db.stamp())  # fmt: skip
    db.execute("DELETE FROM review_requests WHERE pr_id = ? AND user_id = ?", pull_request, user["id"])
    git.refresh(db, repo["id"])
    counts = permission(db, repo["id"], user["id"]) in ("write", "maintain", "admin")
    return {**review, "counts_toward_approvals": event == "approve" and counts}


@code_host.tool(
    writes=[ReviewComment],
    returns=ReviewComment,
    says=[
        "comment on line {line} of {path} in {pull_request}: {body}",
        "add a review comment to {pull_request} at {path} line {line}: '{body}'",
    ],
)
def add_review_comment(
    db: Db, pull_request: Ref[PullRequest, LIVE_PR], path: PrPath, line: Line, body: CommentBody
) -> dict:
    """Comment on one line of a file in the pull request's head commit."""
    row, repo = pr_for(db, pull_request, "read", "take comments")
    if repo["archived"]:
        raise ToolError(f"repository {repo['id']} is archived and read-only")
    live_pr(row, "take comments")
    f = git.file_at(db, row["head_commit_id"], path.strip("/"))
    lines = f["content"].count("\n") + 1
    if line > lines:
        raise ToolError(
            f"{f['path']} has {lines} lines at the head of {label(row)}; line {line} does not exist"
        )
    return db.insert(ReviewComment, pr_id=pull_request, author_id=db.actor()["id"], path=f["path"], line=line, body=body,
                     commit_id=row["head_commit_id"], created_at=db.stamp())  # fmt: skip


@code_host.tool(
    returns=CheckRun,
    says=["are the checks on {pull_request} passing?", "show the CI status of branch {branch}"],
)
def list_checks(
    db: Db,
    pull_request: Ref[PullRequest, "state IN ('open', 'draft')"] | None = None,
    branch: Ref[Branch, READABLE_BRANCH] | None = None,
) -> dict:
    """The check runs on the head commit of a pull request or of a branch (give one of them)."""
    if (pull_request is None) == (branch is None):
        raise ToolError("give either pull_request or branch (one of them) to see its checks")
    if pull_request:
        row, _ = pr_for(db, pull_request)
        commit, where = row["head_commit_id"], f"pull request {label(row)}"
    else:
        b, _ = branch_for(db, branch)
        commit, where = b["head_commit_id"], f"branch {b['name']} of {b['repo_id']}"
    checks = git.checks_on(db, commit)
    passing = all(c["status"] in ("success", "neutral", "skipped") for c in checks)
    return {"of": where, "head_sha": db.scalar("SELECT sha FROM commits WHERE id = ?", commit), "checks": checks,
            "all_passing": bool(checks) and passing}  # fmt: skip


@code_host.tool(
    writes=[CheckRun, PullRequest],
    returns=CheckRun,
    says=["re-run the check {check}", "rerun the failed {check} check"],
)
def rerun_check(db: Db, check: Ref[CheckRun, RERUNNABLE_CHECK]) -> dict:
    """Run a finished check again on the same commit; it completes at once (flaky failures pass,
    genuine ones fail again). Checks still queued or running cannot be re-run."""
    row = db.get(CheckRun, check)
    repo = repo_for(db, row["repo_id"], "write", "re-run checks")
    if row["status"] in ("queued", "in_progress"):
        raise ToolError(f"check {row['name']} ({check}) is still {row['status']}; wait for it to finish")
    status = "failure" if row["status"] == "failure" and not row["flaky"] else "success"
    summary = (
        f"{row['name']} failed again: 2 errors"
        if status == "failure"
        else f"{row['name']} passed on attempt {row['attempt'] + 1}"
    )
    out = db.update(CheckRun, check, status=status, attempt=row["attempt"] + 1, summary=summary, flaky=False,
                    completed_at=db.stamp())  # fmt: skip
    git.refresh(db, repo["id"])
    out.pop("flaky")
    return out
