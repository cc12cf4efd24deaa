"""The version-control engine under the tools: trees, ancestry, three-way merges, new commits,
CI runs on them, and the merge gates of a pull request (kept current in ``mergeable_state``).

A commit's tree is its ``files`` rows (path -> content); history is the parent links. Commits are
never changed once written, so a ``History`` reads the links reachable from a commit in one
recursive query and walks them in memory, nearest first; one refresh shares it across all the
pull requests of a repository."""

from __future__ import annotations

import hashlib
from collections import deque
from typing import Any

from servers.domains.code_host.model import PASSING, Branch, CheckRun, Commit, File, PullRequest
from servers.kit import Db, ToolError

Tree = dict[str, str]  # path -> content


def blob_sha(content: str) -> str:
    return hashlib.sha1(f"blob {len(content)}\0{content}".encode()).hexdigest()


def tree(db: Db, commit_id: str) -> Tree:
    return {
        r["path"]: r["content"]
        for r in db.all("SELECT path, content FROM files WHERE commit_id = ?", commit_id)
    }


def _reachable(start: str) -> str:
    """SQL for every commit reachable from the ``start`` query's, with its parent links (a
    missing commit has no row)."""
    return f"""
WITH RECURSIVE reach(id) AS (
    {start}
    UNION SELECT c.parent_id FROM commits c JOIN reach ON c.id = reach.id WHERE c.parent_id IS NOT NULL
    UNION SELECT c.second_parent_id FROM commits c JOIN reach ON c.id = reach.id
        WHERE c.second_parent_id IS NOT NULL
)
SELECT c.id, c.parent_id, c.second_parent_id FROM commits c JOIN reach ON c.id = reach.id
"""


REACHABLE = _reachable("SELECT ?")
REACHABLE_FROM_BRANCHES = _reachable("SELECT head_commit_id FROM branches WHERE repo_id = ?")


class History:
    """Ancestry and trees of the commits one call looks at, each read from the database once.

    Only valid while no commit is added: build one per question, or per refresh (which only
    rewrites pull requests)."""

    def __init__(self, db: Db) -> None:
        self.db = db
        self._parents: dict[str, tuple[str | None, str | None]] = {}
        self._lines: dict[str, list[str]] = {}
        self._trees: dict[str, Tree] = {}

    @classmethod
    def of_repo(cls, db: Db, repo_id: str) -> History:
        """The history behind every branch of the repository, read in one query (a refresh
        weighs all its pull requests, whose heads and bases are branches)."""
        history = cls(db)
        history._read(REACHABLE_FROM_BRANCHES, repo_id)
        return history

    def _read(self, sql: str, key: str) -> None:
        for cid, first, second in self.db.conn.execute(sql, (key,)):
            self._parents[cid] = (first, second)

    def ancestors(self, commit_id: str) -> list[str]:
        """The commit and everything it descends from, nearest first (breadth-first, first parent
        before second)."""
        if commit_id not in self._lines:
            if commit_id not in self._parents:  # else its ancestors were read with it
                self._read(REACHABLE, commit_id)
            seen, order, todo = {commit_id}, [commit_id], deque([commit_id])
            while todo:
                for parent in self._parents.get(todo.popleft(), ()):
                    if parent and parent not in seen:
                        seen.add(parent)
                        order.append(parent)
                        todo.append(parent)
            self._lines[commit_id] = order
        return self._lines[commit_id]

    def merge_base(self, base_head: str, head: str) -> str | None:
        ours = set(self.ancestors(base_head))
        return next((c for c in self.ancestors(head) if c in ours), None)

    def only_in(self, head: str, base_head: str) -> list[str]:
        """Commits reachable from ``head`` but not from ``base_head``, oldest first."""
        theirs = set(self.ancestors(base_head))
        return sorted(c for c in self.ancestors(head) if c not in theirs)

    def tree(self, commit_id: str) -> Tree:
        if commit_id not in self._trees:
            self._trees[commit_id] = tree(self.db, commit_id)
        return self._trees[commit_id]

    def three_way(self, base_head: str, head: str) -> tuple[Tree, list[str]]:
        """The tree merging ``head`` into ``base_head``, and the paths both sides changed differently."""
        mb = self.merge_base(base_head, head)
        old = self.tree(mb) if mb else {}
        ours, theirs = self.tree(base_head), self.tree(head)
        merged: Tree = {}
        conflicts = []
        for path in sorted(old.keys() | ours.keys() | theirs.keys()):
            o, b, h = old.get(path), ours.get(path), theirs.get(path)
            if b == h or h == o:
                result = b
            elif b == o:
                result = h
            else:
                conflicts.append(path)
                continue
            if result is not None:
                merged[path] = result
        return merged, conflicts


def ancestors(db: Db, commit_id: str) -> list[str]:
    """The commit and everything it descends from, nearest first."""
    return History(db).ancestors(commit_id)


def merge_base(db: Db, base_head: str, head: str) -> str | None:
    return History(db).merge_base(base_head, head)


def only_in(db: Db, head: str, base_head: str) -> list[str]:
    """Commits reachable from ``head`` but not from ``base_head``, oldest first."""
    return History(db).only_in(head, base_head)


def changed(before: Tree, after: Tree) -> list[str]:
    return sorted(p for p in before.keys() | after.keys() if before.get(p) != after.get(p))


def three_way(db: Db, base_head: str, head: str) -> tuple[Tree, list[str]]:
    """The tree merging ``head`` into ``base_head``, and the paths both sides changed differently."""
    return History(db).three_way(base_head, head)


def compare(db: Db, base_head: str, head: str) -> dict[str, Any]:
    """What ``head`` adds over ``base_head``: commit counts, files changed, conflicting files."""
    h = History(db)
    mb = h.merge_base(base_head, head)
    _, conflicts = h.three_way(base_head, head)
    return {
        "ahead_by": len(h.only_in(head, base_head)),
        "behind_by": len(h.only_in(base_head, head)),
        "files_changed": changed(h.tree(mb) if mb else {}, h.tree(head)),
        "conflicting_files": conflicts,
        "merge_base_sha": db.get(Commit, mb)["sha"] if mb else None,
    }


def new_commit(
    db: Db,
    repo_id: str,
    parent: str | None,
    files: Tree,
    message: str,
    author: str,
    second_parent: str | None = None,
) -> dict:
    """Store a commit with its whole tree and run the repository's checks on it."""
    cid = db.next_id(Commit)
    digest = hashlib.sha1(
        f"{repo_id}\0{cid}\0{parent}\0{second_parent}\0{message}\0{sorted(files.items())}".encode()
    ).hexdigest()
    db.add(
        Commit,
        id=cid,
        repo_id=repo_id,
        sha=digest,
        parent_id=parent,
        second_parent_id=second_parent,
        message=message,
        author_id=author,
        created_at=db.stamp(),
    )
    first = int(db.next_id(File).rsplit("-", 1)[1])
    db.conn.executemany(
        "INSERT INTO files (id, commit_id, path, blob_sha, content) VALUES (?, ?, ?, ?, ?)",
        [(f"FIL-{first + i:06d}", cid, p, blob_sha(c), c) for i, (p, c) in enumerate(sorted(files.items()))],
    )
    run_checks(db, repo_id, cid)
    return db.get(Commit, cid)


def run_checks(db: Db, repo_id: str, commit_id: str) -> None:
    """CI runs every configured check at push time; a fresh commit of this service passes them."""
    names = db.scalar("SELECT check_names FROM repos WHERE id = ?", repo_id)
    for name in [n for n in names.split(",") if n]:
        db.add(
            CheckRun,
            repo_id=repo_id,
            commit_id=commit_id,
            name=name,
            status="success",
            attempt=1,
            summary=f"{name} passed",
            flaky=False,
            completed_at=db.stamp(),
        )


def branch_named(db: Db, repo_id: str, name: str) -> dict | None:
    return db.one("SELECT * FROM branches WHERE repo_id = ? AND name = ?", repo_id, name)


def move_branch(db: Db, branch: dict, commit_id: str) -> None:
    db.update(Branch, branch["id"], head_commit_id=commit_id)


# -- merge gates -------------------------------------------------------------------------------------


def verdicts(db: Db, pr: dict) -> dict[str, str]:
    """Each reviewer's standing verdict: their latest approve or request-changes review."""
    out: dict[str, str] = {}
    for r in db.all(
        "SELECT reviewer_id, state FROM reviews WHERE pr_id = ? AND state != 'commented' ORDER BY id",
        pr["id"],
    ):
        out[r["reviewer_id"]] = r["state"]
    return out


def approvers(db: Db, pr: dict, levels: tuple[str, ...] = ("write", "maintain", "admin")) -> list[str]:
    """Users other than the author whose standing verdict is an approval and who hold ``levels``."""
    ok = {
        r["user_id"]
        for r in db.all(
            f"SELECT user_id FROM collaborators WHERE repo_id = ? AND permission IN ({','.join('?' * len(levels))})",
            pr["repo_id"],
            *levels,
        )
    }
    return sorted(
        u for u, s in verdicts(db, pr).items() if s == "approved" and u != pr["author_id"] and u in ok
    )


def checks_on(db: Db, commit_id: str) -> list[dict]:
    return db.all(
        "SELECT id, name, status, attempt, summary FROM check_runs WHERE commit_id = ? ORDER BY name",
        commit_id,
    )


def protection_of(db: Db, repo_id: str, branch_name: str) -> dict | None:
    return db.one(
        "SELECT p.* FROM branch_protections p JOIN branches b ON b.id = p.branch_id "
        "WHERE b.repo_id = ? AND b.name = ?",
        repo_id,
        branch_name,
    )


def gates(db: Db, pr: dict, history: History | None = None) -> dict[str, Any]:
    """Everything a merge of ``pr`` depends on, and the blockers (empty when it can be merged)."""
    history = history or History(db)
    base = branch_named(db, pr["repo_id"], pr["base_branch"])
    head = branch_named(db, pr["repo_id"], pr["head_branch"])
    if base is None or head is None:
        gone = pr["base_branch"] if base is None else pr["head_branch"]
        return {"blockers": [f"branch {gone} no longer exists"], "behind_by": 0, "conflicts": []}
    _, conflicts = history.three_way(base["head_commit_id"], head["head_commit_id"])
    behind = len(history.only_in(base["head_commit_id"], head["head_commit_id"]))
    rule = protection_of(db, pr["repo_id"], pr["base_branch"])
    checks = checks_on(db, head["head_commit_id"])
    status = {c["name"]: c["status"] for c in checks}
    required = [n for n in (rule["required_checks"].split(",") if rule else []) if n]
    failing_required = [f"{n} ({status.get(n, 'missing')})" for n in required if status.get(n) not in PASSING]
    failing_other = [
        f"{c['name']} ({c['status']})"
        for c in checks
        if c["name"] not in required and c["status"] not in PASSING
    ]
    approved = approvers(db, pr)
    need = rule["required_approvals"] if rule else 0
    changes = sorted(u for u, s in verdicts(db, pr).items() if s == "changes_requested")
    blockers = []
    if conflicts:
        blockers.append(f"merge conflicts in {', '.join(conflicts)}")
    if failing_required:
        blockers.append(f"required checks not passing on the head commit: {', '.join(failing_required)}")
    if len(approved) < need:
        blockers.append(f"{len(approved)} of {need} required approvals from reviewers with write access")
    if need and changes:
        blockers.append(f"changes requested by {', '.join(changes)}")
    if rule and rule["require_up_to_date"] and behind:
        blockers.append(
            f"head branch is {behind} commit(s) behind {pr['base_branch']} and must be up to date"
        )
    return {
        "blockers": blockers,
        "conflicts": conflicts,
        "behind_by": behind,
        "required_approvals": need,
        "approvals": approved,
        "changes_requested_by": changes,
        "required_checks": required,
        "failing_checks": failing_required + failing_other,
        "protected_base": rule is not None,
    }


def state_of(db: Db, pr: dict, g: dict[str, Any]) -> str:
    if pr["state"] in ("merged", "closed", "draft"):
        return pr["state"]
    if g["conflicts"]:
        return "dirty"
    if any("behind" in b for b in g["blockers"]) and len(g["blockers"]) == 1:
        return "behind"
    if g["blockers"]:
        return "blocked"
    return "unstable" if g["failing_checks"] else "clean"


def refresh(db: Db, repo_id: str) -> None:
    """Recompute head commit, ``behind_by`` and ``mergeable_state`` of the repository's live pull requests."""
    history = History.of_repo(db, repo_id)
    for pr in db.all("SELECT * FROM pull_requests WHERE repo_id = ? AND state IN ('open', 'draft')", repo_id):
        head = branch_named(db, repo_id, pr["head_branch"])
        if head is not None and head["head_commit_id"] != pr["head_commit_id"]:
            pr["head_commit_id"] = head["head_commit_id"]
            db.update(PullRequest, pr["id"], head_commit_id=pr["head_commit_id"], updated_at=db.stamp())
        g = gates(db, pr, history)
        values = {"mergeable_state": state_of(db, pr, g), "behind_by": g["behind_by"]}
        if any(pr[k] != v for k, v in values.items()):
            db.update(PullRequest, pr["id"], **values)


def commit_of_head(db: Db, branch: dict) -> dict:
    return db.get(Commit, branch["head_commit_id"])


def file_at(db: Db, commit_id: str, path: str) -> dict:
    row = db.one("SELECT * FROM files WHERE commit_id = ? AND path = ?", commit_id, path)
    if row is None:
        paths = [
            r["path"] for r in db.all("SELECT path FROM files WHERE commit_id = ? ORDER BY path", commit_id)
        ]
        sha = db.get(Commit, commit_id)["sha"][:7]
        raise ToolError(f"no file {path!r} at commit {sha}; files there: {', '.join(paths)}")
    return row
