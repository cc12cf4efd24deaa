"""Files and commits: reading a file on a branch, committing a change to one, comparing branches."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from servers.domains.code_host import git
from servers.domains.code_host.model import Branch, CheckRun, Commit, File, PullRequest, code_host
from servers.domains.code_host.rules import HEAD_FILE, PUSHABLE_BRANCH, READABLE_BRANCH, branch_for
from servers.kit import Db, PathRef, Ref, ToolError

RepoPath = Annotated[
    PathRef[File, HEAD_FILE],
    Field(description="A file path inside the repository, e.g. src/app/config.py (no leading slash)."),
]
Content = Annotated[
    str,
    Field(
        max_length=20_000,
        description="The file's complete new content.",
        examples=["TIMEOUT_S = 30", "# Changelog - fix the session timeout", "RETRIES = 3"],
    ),
]
Message = Annotated[
    str,
    Field(
        min_length=1,
        max_length=200,
        description="The commit message.",
        examples=["Raise the timeout to 30 s", "Update the changelog", "Fix typo in README"],
    ),
]


@code_host.tool(
    returns=File,
    says=["show me {path} on branch {branch}", "what does {path} contain on {branch}?"],
)
def get_file(db: Db, branch: Ref[Branch, READABLE_BRANCH], path: RepoPath) -> dict:
    """A file's content at the head of a branch, with its blob sha and the head commit's sha."""
    row, _ = branch_for(db, branch)
    f = git.file_at(db, row["head_commit_id"], path.strip("/"))
    lines = f["content"].count("\n") + 1
    return {
        "path": f["path"],
        "branch": row["name"],
        "commit_sha": db.get(Commit, row["head_commit_id"])["sha"],
        "blob_sha": f["blob_sha"],
        "lines": lines,
        **db.clip(f["content"], hint="the file is longer; ask for a smaller part"),
    }


@code_host.tool(
    writes=[Commit, File, CheckRun, Branch, PullRequest],
    returns=Commit,
    says=[
        "set {path} on {branch} to '{content}' with the commit message '{message}'",
        "commit '{content}' as the new content of {path} on {branch}; message: {message}",
    ],
)
def commit_file_change(
    db: Db,
    branch: Ref[Branch, PUSHABLE_BRANCH],
    path: RepoPath,
    message: Message,
    content: Content | None = None,
    delete: bool = False,
) -> dict:
    """Commit one file change to a branch: create or replace the file with ``content``, or delete
    it. Protected branches take no direct commits (open a pull request instead). The repository's
    checks run on the new commit.

    Args:
        content: The new content (leave out when deleting).
        delete: Delete the file instead.
    """
    row, repo = branch_for(db, branch, "write", "take commits")
    if row["protected"]:
        raise ToolError(
            f"branch {row['name']} of {repo['id']} is protected: direct commits are refused; "
            "commit to another branch and open a pull request"
        )
    path = path.strip().strip("/")
    if not path or ".." in path.split("/") or "//" in path:
        raise ToolError(f"{path!r} is not a valid path inside the repository")
    files = git.tree(db, row["head_commit_id"])
    if delete:
        if content is not None:
            raise ToolError("give either content or delete=true, not both")
        if path not in files:
            git.file_at(db, row["head_commit_id"], path)
        files.pop(path)
    else:
        if content is None:
            raise ToolError(f"give the new content of {path} (or delete=true to remove it)")
        if files.get(path) == content:
            raise ToolError(f"{path} on {row['name']} already has exactly this content; nothing to commit")
        files[path] = content
    commit = git.new_commit(db, repo["id"], row["head_commit_id"], files, message, db.actor()["id"])
    git.move_branch(db, row, commit["id"])
    git.refresh(db, repo["id"])
    return {**commit, "branch": row["name"], "path": path, "deleted": delete}


@code_host.tool(
    says=[
        "compare {head} with {base}",
        "how far is {head} behind {base}?",
        "does {head} conflict with {base}?",
    ],
)
def compare_branches(
    db: Db,
    base: Ref[Branch, READABLE_BRANCH],
    head: Ref[Branch, "repo_id = (SELECT b.repo_id FROM branches b WHERE b.id = :base) AND id != :base"],
) -> dict:
    """What ``head`` has that ``base`` lacks and the reverse: commits ahead and behind, the files
    ``head`` changed since they split, and the files that would conflict in a merge."""
    b, _ = branch_for(db, base)
    h = db.get(Branch, head)
    if h["repo_id"] != b["repo_id"]:
        raise ToolError(
            f"branches {b['name']} ({b['repo_id']}) and {h['name']} ({h['repo_id']}) are in different repositories"
        )
    out = git.compare(db, b["head_commit_id"], h["head_commit_id"])
    return {
        "base": b["name"],
        "head": h["name"],
        "repo": b["repo_id"],
        **out,
        "mergeable": not out["conflicting_files"],
    }
