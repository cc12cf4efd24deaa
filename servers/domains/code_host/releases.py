"""Releases: a semver tag, unique in its repository, on the head commit of a branch."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from servers.domains.code_host import git
from servers.domains.code_host.model import Branch, Release, Repo, code_host
from servers.domains.code_host.rules import LIVE_REPO, MAINTAINED_REPO, SAME_REPO, SEMVER, repo_for
from servers.kit import Db, Offset, PageSize, Ref, ToolError

Tag = Annotated[
    str,
    Field(
        min_length=1,
        max_length=40,
        description="A semver tag, e.g. v4.1.0 or v4.1.0-rc.1.",
        examples=["v4.0.0", "v4.1.0", "v5.0.0", "v4.0.0-rc.1"],
    ),  # fmt: skip
]
ReleaseName = Annotated[str, Field(max_length=120, examples=["June release", "Spring cleanup", "Hotfix"])]
Notes = Annotated[
    str, Field(max_length=4000, examples=["Bug fixes and performance work.", "See the changelog."])
]


@code_host.tool(returns=Release, says=["what releases does {repo} have?", "list the releases of {repo}"])
def list_releases(db: Db, repo: Ref[Repo, LIVE_REPO], limit: PageSize = 20, offset: Offset = 0) -> dict:
    """A repository's releases, newest first."""
    repo_for(db, repo)
    out = db.page(
        "SELECT r.id, r.tag, r.name, r.target_branch, c.sha AS commit_sha, r.prerelease, r.created_at "
        "FROM releases r JOIN commits c ON c.id = r.commit_id WHERE r.repo_id = ? ORDER BY r.created_at DESC, r.id DESC",
        repo,
        limit=limit,
        offset=offset,
        key="releases",
    )
    for r in out["releases"]:
        r["prerelease"] = bool(r["prerelease"])
    return out


@code_host.tool(
    writes=[Release],
    returns=Release,
    says=[
        "cut release {tag} of {repo}",
        "publish {tag} for {repo} from {target}",
        "tag {repo} as {tag} and call it '{name}'",
    ],
)
def create_release(
    db: Db,
    repo: Ref[Repo, MAINTAINED_REPO],
    tag: Tag,
    target: Ref[Branch, SAME_REPO] | None = None,
    name: ReleaseName | None = None,
    notes: Notes = "",
    prerelease: bool = False,
) -> dict:
    """Publish a release of a repository. It tags the head commit of ``target`` (the default
    branch unless given) and needs maintain or admin permission; tags are semver, unique within
    the repository.

    Args:
        tag: The new tag.
        target: The branch whose head is released.
        name: The release title (the tag by default).
        prerelease: Mark it as a pre-release.
    """
    row = repo_for(db, repo, "maintain", "publish releases")
    if not SEMVER.match(tag):
        raise ToolError(
            f"tag {tag!r} is not a semantic version; use vMAJOR.MINOR.PATCH such as v4.1.0 (optionally -rc.1)"
        )
    taken = db.one("SELECT * FROM releases WHERE repo_id = ? AND tag = ?", repo, tag)
    if taken:
        raise ToolError(
            f"tag {tag} already exists in {repo} (release {taken['id']} of {taken['created_at'][:10]})"
        )
    branch = db.get(Branch, target) if target else git.branch_named(db, repo, row["default_branch"])
    if branch["repo_id"] != repo:
        raise ToolError(
            f"branch {branch['name']} ({branch['id']}) belongs to {branch['repo_id']}, not {repo}"
        )
    release = db.insert(Release, repo_id=repo, tag=tag, name=name or tag, target_branch=branch["name"],
                        commit_id=branch["head_commit_id"], notes=notes, prerelease=prerelease,
                        author_id=db.actor()["id"], created_at=db.stamp())  # fmt: skip
    return {
        **release,
        "prerelease": bool(release["prerelease"]),
        "commit_sha": git.commit_of_head(db, branch)["sha"],
    }
