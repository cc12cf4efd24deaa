"""The code host's tables: people and the session, repositories and who may do what in them,
commits as whole-tree snapshots, branches and their protection, pull requests with reviews and
comments, check runs per commit, and releases."""

from __future__ import annotations

from typing import Literal

from sqlalchemy import ForeignKey, Index, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from servers.kit import Db, Domain

code_host = Domain(
    "code_host",
    "Git hosting: repositories, branches, commits, pull requests, reviews, check runs, branch "
    "protection and releases, acted on by a signed-in developer with per-repository permissions.",
)

Permission = Literal["read", "write", "maintain", "admin"]
PERMISSIONS: tuple[str, ...] = ("read", "write", "maintain", "admin")
PrState = Literal["draft", "open", "merged", "closed"]
ReviewEvent = Literal["approve", "request_changes", "comment"]
REVIEW_STATE = {"approve": "approved", "request_changes": "changes_requested", "comment": "commented"}
CheckStatus = Literal["queued", "in_progress", "success", "failure", "neutral", "skipped"]
PASSING = ("success", "neutral", "skipped")
MergeMethod = Literal["merge", "squash", "rebase"]
# GitHub's vocabulary for whether a pull request can be merged right now
MERGE_STATES = ("clean", "unstable", "blocked", "behind", "dirty", "draft", "closed", "merged")
HOLD_LABELS = ("do-not-merge", "hold")


class User(code_host.Table, prefix="USR", people={"name": "name", "email": "email"}):
    """A developer account: one person of the shared world (USR-000001 is the persona)."""

    __tablename__ = "users"
    id: Mapped[str] = mapped_column(primary_key=True)
    person_id: Mapped[int] = mapped_column(unique=True)
    login: Mapped[str] = mapped_column(unique=True)
    name: Mapped[str]
    email: Mapped[str] = mapped_column(unique=True)


# Who is signed in to the code host in this episode.
Session = code_host.acting(User, "user_id")


class Repo(code_host.Table, example="corvid/payments-api", noun="repository"):
    """A repository, named ``owner/name`` the way people say it."""

    __tablename__ = "repos"
    id: Mapped[str] = mapped_column(primary_key=True)  # owner/name
    owner: Mapped[str] = mapped_column(index=True)
    name: Mapped[str]
    description: Mapped[str]
    visibility: Mapped[str]  # public / private / internal
    default_branch: Mapped[str]
    archived: Mapped[bool]
    merge_methods: Mapped[str]  # comma list of the allowed methods: merge, squash, rebase
    check_names: Mapped[str]  # comma list of the checks CI runs on every commit
    frozen_until: Mapped[str | None]  # a merge freeze the team declared (policy), last frozen day
    created_at: Mapped[str]


class Collaborator(code_host.Table, prefix="COL"):
    """A user's permission on a repository (read < write < maintain < admin)."""

    __tablename__ = "collaborators"
    __table_args__ = (UniqueConstraint("repo_id", "user_id"),)
    id: Mapped[str] = mapped_column(primary_key=True)
    repo_id: Mapped[str] = mapped_column(ForeignKey("repos.id"), index=True)
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"), index=True)
    permission: Mapped[str]


class Commit(code_host.Table, prefix="CMT"):
    """A commit: a message, its parents, and (in ``files``) the whole tree it snapshots."""

    __tablename__ = "commits"
    id: Mapped[str] = mapped_column(primary_key=True)
    repo_id: Mapped[str] = mapped_column(ForeignKey("repos.id"), index=True)
    sha: Mapped[str] = mapped_column(unique=True)
    parent_id: Mapped[str | None] = mapped_column(ForeignKey("commits.id"))
    second_parent_id: Mapped[str | None] = mapped_column(ForeignKey("commits.id"))
    message: Mapped[str]
    author_id: Mapped[str] = mapped_column(ForeignKey("users.id"), index=True)
    created_at: Mapped[str]


def file_path(db: Db, key: str) -> str:
    """A file is named by its path inside the repository."""
    return db.get("files", key)["path"]


class File(code_host.Table, prefix="FIL", render=file_path):
    """One file of one commit's tree: its path, content hash and (small, text) content."""

    __tablename__ = "files"
    __table_args__ = (UniqueConstraint("commit_id", "path"),)
    id: Mapped[str] = mapped_column(primary_key=True)
    commit_id: Mapped[str] = mapped_column(ForeignKey("commits.id"))
    path: Mapped[str]
    blob_sha: Mapped[str]
    content: Mapped[str]


class Branch(code_host.Table, prefix="BRN", noun="branch"):
    """A branch: a name in a repository pointing at its head commit."""

    __tablename__ = "branches"
    __table_args__ = (UniqueConstraint("repo_id", "name"),)
    id: Mapped[str] = mapped_column(primary_key=True)
    repo_id: Mapped[str] = mapped_column(ForeignKey("repos.id"))
    name: Mapped[str]
    head_commit_id: Mapped[str] = mapped_column(ForeignKey("commits.id"), index=True)
    protected: Mapped[bool]
    created_by: Mapped[str] = mapped_column(ForeignKey("users.id"), index=True)


class Protection(code_host.Table, prefix="BPR", noun="branch protection"):
    """Branch protection: what a merge into the branch needs, and no direct pushes."""

    __tablename__ = "branch_protections"
    id: Mapped[str] = mapped_column(primary_key=True)
    branch_id: Mapped[str] = mapped_column(ForeignKey("branches.id"), unique=True)
    required_approvals: Mapped[int]
    required_checks: Mapped[str]  # comma list of check names
    require_up_to_date: Mapped[bool]
    allow_force_push: Mapped[bool]
    updated_by: Mapped[str] = mapped_column(ForeignKey("users.id"))
    updated_at: Mapped[str]
    reason: Mapped[str | None]


class PullRequest(code_host.Table, prefix="PR", noun="pull request"):
    """A pull request from a head branch into a base branch (branches are named, since a head
    branch is often deleted once merged). ``mergeable_state`` is kept current by every call."""

    __tablename__ = "pull_requests"
    __table_args__ = (
        UniqueConstraint("repo_id", "number"),
        Index("ix_pull_requests_state", "state", "repo_id"),
    )
    id: Mapped[str] = mapped_column(primary_key=True)
    repo_id: Mapped[str] = mapped_column(ForeignKey("repos.id"))
    number: Mapped[int]
    title: Mapped[str]
    body: Mapped[str]
    author_id: Mapped[str] = mapped_column(ForeignKey("users.id"), index=True)
    base_branch: Mapped[str]
    head_branch: Mapped[str]
    head_commit_id: Mapped[str] = mapped_column(ForeignKey("commits.id"), index=True)
    state: Mapped[str]  # draft / open / merged / closed
    labels: Mapped[str]  # comma list
    mergeable_state: Mapped[str]  # clean / unstable / blocked / behind / dirty / draft / closed / merged
    behind_by: Mapped[int]
    created_at: Mapped[str]
    updated_at: Mapped[str]
    merged_at: Mapped[str | None]
    merged_by: Mapped[str | None] = mapped_column(ForeignKey("users.id"), index=True)
    merge_commit_id: Mapped[str | None] = mapped_column(ForeignKey("commits.id"), index=True)
    closed_at: Mapped[str | None]


class ReviewRequest(code_host.Table, prefix="RRQ"):
    """A reviewer asked to look at a pull request."""

    __tablename__ = "review_requests"
    __table_args__ = (UniqueConstraint("pr_id", "user_id"),)
    id: Mapped[str] = mapped_column(primary_key=True)
    pr_id: Mapped[str] = mapped_column(ForeignKey("pull_requests.id"), index=True)
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"), index=True)
    requested_by: Mapped[str] = mapped_column(ForeignKey("users.id"), index=True)
    requested_at: Mapped[str]


class Review(code_host.Table, prefix="REV", append_only=True):
    """A submitted review; a reviewer's latest approve / request-changes verdict is the one that counts."""

    __tablename__ = "reviews"
    id: Mapped[str] = mapped_column(primary_key=True)
    pr_id: Mapped[str] = mapped_column(ForeignKey("pull_requests.id"), index=True)
    reviewer_id: Mapped[str] = mapped_column(ForeignKey("users.id"), index=True)
    state: Mapped[str]  # approved / changes_requested / commented
    body: Mapped[str]
    commit_id: Mapped[str] = mapped_column(ForeignKey("commits.id"))
    submitted_at: Mapped[str]


class ReviewComment(code_host.Table, prefix="RCM", append_only=True):
    """A comment on one line of one file of a pull request's head commit."""

    __tablename__ = "review_comments"
    id: Mapped[str] = mapped_column(primary_key=True)
    pr_id: Mapped[str] = mapped_column(ForeignKey("pull_requests.id"), index=True)
    author_id: Mapped[str] = mapped_column(ForeignKey("users.id"), index=True)
    path: Mapped[str]
    line: Mapped[int]
    body: Mapped[str]
    commit_id: Mapped[str] = mapped_column(ForeignKey("commits.id"))
    created_at: Mapped[str]


class CheckRun(code_host.Table, prefix="CHK", noun="check run", hidden=("flaky",)):
    """One CI check on one commit; ``flaky`` (hidden) says whether running it again would pass."""

    __tablename__ = "check_runs"
    __table_args__ = (UniqueConstraint("commit_id", "name"),)
    id: Mapped[str] = mapped_column(primary_key=True)
    repo_id: Mapped[str] = mapped_column(ForeignKey("repos.id"))
    commit_id: Mapped[str] = mapped_column(ForeignKey("commits.id"))
    name: Mapped[str]
    status: Mapped[str] = mapped_column(
        index=True
    )  # queued / in_progress / success / failure / neutral / skipped
    attempt: Mapped[int]
    summary: Mapped[str]
    flaky: Mapped[bool]
    completed_at: Mapped[str | None]


class Release(code_host.Table, prefix="RLS"):
    """A published release: a semver tag on a commit of one branch."""

    __tablename__ = "releases"
    __table_args__ = (UniqueConstraint("repo_id", "tag"),)
    id: Mapped[str] = mapped_column(primary_key=True)
    repo_id: Mapped[str] = mapped_column(ForeignKey("repos.id"))
    tag: Mapped[str]
    name: Mapped[str]
    target_branch: Mapped[str]
    commit_id: Mapped[str] = mapped_column(ForeignKey("commits.id"))
    notes: Mapped[str]
    prerelease: Mapped[bool]
    author_id: Mapped[str] = mapped_column(ForeignKey("users.id"))
    created_at: Mapped[str]
