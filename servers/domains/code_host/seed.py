"""The seeded code host: the persona and the developers she works with (shared world people),
repositories of her employer and two open-source organisations, with history, branches, pull
requests in every state, reviews, check runs (about 15% failing), protection on 60% of default
branches, releases, and rows near each policy rule's edge (hold labels, merge freezes ending
today or yesterday, self-authored pull requests, migrations, branches behind their base)."""

from __future__ import annotations

from datetime import timedelta

from servers.domains.code_host import git
from servers.domains.code_host.model import (
    Branch,
    CheckRun,
    Collaborator,
    Commit,
    File,
    Protection,
    PullRequest,
    Release,
    Repo,
    Review,
    ReviewComment,
    ReviewRequest,
    Session,
    User,
    code_host,
)
from servers.domains.code_host.seed_code import (
    CHANGES,
    KIND_PREFIX,
    KINDS,
    STEMS,
    History,
    base_files,
    branch_edit_target,
    default_edit_target,
    edit,
    new_file,
)
from servers.kit import Db, Seeder, marks

LABELS = ("bug", "enhancement", "dependencies", "docs", "needs-docs", "ready-for-qa")
CHECKS_BASE = ("build", "test", "lint")
FEATURE_CHECKS = (
    ("success", 0.78),
    ("failure", 0.16),
    ("queued", 0.025),
    ("in_progress", 0.015),
    ("neutral", 0.01),
    ("skipped", 0.01),
)
DEFAULT_CHECKS = (("success", 0.9), ("failure", 0.07), ("in_progress", 0.03))
FREEZES = (-2, -1, -1, 0, 0, 1, 3, 10)  # days from today of a frozen repo's last frozen day


class Rows:
    """Every table's rows of the build, with per-prefix id counters."""

    def __init__(self) -> None:
        self.by_table: dict[type, list[dict]] = {}
        self.counters: dict[str, int] = {}
        self.checked: set[str] = set()  # commits whose checks have run

    def next(self, table: type) -> str:
        n = self.counters.get(marks(table).prefix, 0) + 1
        self.counters[marks(table).prefix] = n
        return f"{marks(table).prefix}-{n:06d}"

    def add(self, table: type, **row) -> dict:
        row = {"id": self.next(table), **row} if "id" not in row else row
        self.by_table.setdefault(table, []).append(row)
        return row


@code_host.seed
def fill(s: Seeder) -> None:
    w = s.world
    people = [w.persona, *w.circle(w.persona, 44)]
    users = [
        {
            "id": f"USR-{i + 1:06d}",
            "person_id": p.index,
            "login": p.username,
            "name": p.name,
            "email": p.email,
        }
        for i, p in enumerate(people)
    ]
    s.add(User, users)
    s.add(Session, [{"id": "SES-000001", "user_id": "USR-000001"}])
    employer = w.employer(w.persona).domain.split(".")[0]
    others = [c.domain.split(".")[0] for c in w.companies if c.domain.split(".")[0] != employer][:2]
    rows = Rows()
    names = _repo_names(s, s.count(12, 80, 1500))
    for k, name in enumerate(names):
        owner = employer if k % 4 != 3 else others[k % 2]
        _repository(s, rows, f"{owner}/{name}", owner, name, [u["id"] for u in users])
    order = (Repo, Collaborator, Commit, File, Branch, Protection, PullRequest, ReviewRequest, Review)
    for table in (*order, ReviewComment, CheckRun, Release):
        s.add(table, rows.by_table.get(table, []))
    db = Db(s.conn, s.now.isoformat())
    for repo in rows.by_table[Repo]:
        git.refresh(db, repo["id"])


def _repo_names(s: Seeder, n: int) -> list[str]:
    combos = [f"{stem}-{kind}" for stem in STEMS for kind in KINDS]
    s.rng.shuffle(combos)
    return [
        combos[i] if i < len(combos) else f"{combos[i % len(combos)]}-{i // len(combos)}" for i in range(n)
    ]


def _when(s: Seeder, days_ago: float) -> str:
    return (s.now - timedelta(days=days_ago)).isoformat(timespec="seconds")


def _repository(s: Seeder, rows: Rows, rid: str, owner: str, name: str, users: list[str]) -> None:
    rng = s.rng
    stem = next(st for st in STEMS if name.startswith(st))
    migrations = rng.random() < 0.4
    checks = list(CHECKS_BASE) + (["security-scan"] if rng.random() < 0.3 else [])
    default = rng.choices(["main", "master", "develop"], [0.85, 0.1, 0.05])[0]
    freeze = rng.choice(FREEZES) if rng.random() < 0.14 else None
    rows.add(
        Repo,
        id=rid,
        owner=owner,
        name=name,
        description=f"The {stem} {name.split('-')[-1]} of {owner}.",
        visibility=rng.choices(["private", "internal", "public"], [0.6, 0.2, 0.2])[0],
        default_branch=default,
        archived=rng.random() < 0.07,
        merge_methods=rng.choices(["merge,squash,rebase", "squash", "merge,squash"], [0.6, 0.25, 0.15])[0],
        check_names=",".join(checks),
        frozen_until=(s.now.date() + timedelta(days=freeze)).isoformat() if freeze is not None else None,
        created_at=_when(s, rng.randint(200, 1200)),
    )
    mine = rng.choices(["admin", "maintain", "write", "read"], [0.15, 0.2, 0.45, 0.2])[0]
    team = rng.sample(users[1:], rng.randint(5, 8))
    perms = {users[0]: mine, team[0]: rng.choice(["maintain", "admin"])}
    for u in team[1:]:
        perms[u] = rng.choices(["write", "read", "maintain"], [0.7, 0.15, 0.15])[0]
    for u, p in perms.items():
        rows.add(Collaborator, repo_id=rid, user_id=u, permission=p)
    writers = [u for u, p in perms.items() if p != "read"]
    h = _history(s, rows, rid, stem, migrations, writers)
    default_head = h.commits[-1]["id"]
    _branch(
        s, rows, rid, default, default_head, checks, DEFAULT_CHECKS, writers[0], protect=rng.random() < 0.6
    )
    bases = [default]
    if rng.random() < 0.25:
        fork = h.commits[max(0, len(h.commits) - 3)]["id"]
        _branch(
            s, rows, rid, "release/1.x", fork, checks, DEFAULT_CHECKS, writers[0], protect=True, release=True
        )
        bases.append("release/1.x")
    taken = _leftovers(s, rows, rid, h, checks, writers)
    _features(s, rows, h, rid, stem, migrations, checks, perms, bases, taken)
    _abandoned(s, rows, rid, h, writers)
    _releases(s, rows, rid, default, h, writers)
    _store(rows, h)


def _history(s: Seeder, rows: Rows, rid: str, stem: str, migrations: bool, writers: list[str]) -> History:
    """The default branch: an initial commit, then one squash-merged pull request per commit."""
    rng = s.rng
    h = History(rid)
    files = base_files(rid, stem, migrations)
    n = rng.randint(5, 10)
    parent = h.add(rows.next(Commit), None, files, "Initial commit", writers[0], _when(s, 90))
    for i in range(1, n + 1):
        files = dict(files)
        target = default_edit_target(files, rng)
        slug, text = rng.choice(CHANGES)
        files[target] = edit(files[target], f"{slug} {i}", rng)
        author = rng.choice(writers)
        when = _when(s, 3 * (n - i) + rng.random() * 2 + 1)
        number = len([r for r in rows.by_table.get(PullRequest, []) if r["repo_id"] == rid]) + 1
        parent = h.add(rows.next(Commit), parent, files, f"{text} (#{number})", author, when)
        _pr(
            rows,
            rid,
            number,
            text,
            author,
            f"{_prefix(s)}/{slug}-{i}",
            parent,
            "merged",
            when,
            merged_by=writers[0],
        )
    return h


def _prefix(s: Seeder) -> str:
    kinds, weights = zip(*KIND_PREFIX, strict=True)
    return s.rng.choices(kinds, weights)[0]


def _pr(rows: Rows, rid: str, number: int, title: str, author: str, head: str, commit: str, state: str, when: str, *,
        base: str = "", merged_by: str | None = None, labels: str = "") -> dict:  # fmt: skip
    closed = state in ("merged", "closed")
    return rows.add(
        PullRequest,
        repo_id=rid,
        number=number,
        title=title,
        body=f"{title}.\n\nTested locally; see the checks.",
        author_id=author,
        base_branch=base or "__default__",
        head_branch=head,
        head_commit_id=commit,
        state=state,
        labels=labels,
        mergeable_state=state if closed else "blocked",
        behind_by=0,
        created_at=when,
        updated_at=when,
        merged_at=when if state == "merged" else None,
        merged_by=merged_by if state == "merged" else None,
        merge_commit_id=commit if state == "merged" else None,
        closed_at=when if closed else None,
    )


def _branch(s, rows, rid, name, head, checks, dist, by, *, protect=False, release=False) -> dict:
    row = rows.add(Branch, repo_id=rid, name=name, head_commit_id=head, protected=protect, created_by=by)
    _checks(s, rows, rid, head, checks, dist)
    if protect:
        rng = s.rng
        rows.add(
            Protection,
            branch_id=row["id"],
            required_approvals=1 if release else rng.choices([0, 1, 2], [0.12, 0.6, 0.28])[0],
            required_checks="build,test"
            if release
            else rng.choice(["build,test", "build,test,lint", "test", ""]),
            require_up_to_date=False if release else rng.random() < 0.3,
            allow_force_push=False if release else rng.random() < 0.05,
            updated_by=by,
            updated_at=_when(s, rng.randint(10, 300)),
            reason=None,
        )
    return row


def _checks(s: Seeder, rows: Rows, rid: str, commit: str, checks: list[str], dist) -> None:
    if commit in rows.checked:
        return
    rows.checked.add(commit)
    states, weights = zip(*dist, strict=True)
    for name in checks:
        status = s.rng.choices(states, weights)[0]
        done = status not in ("queued", "in_progress")
        rows.add(
            CheckRun,
            repo_id=rid,
            commit_id=commit,
            name=name,
            status=status,
            attempt=1,
            summary={"failure": f"{name} failed: 2 errors", "success": f"{name} passed"}.get(
                status, f"{name} {status}"
            ),
            flaky=status == "failure" and s.rng.random() < 0.6,
            completed_at=_when(s, s.rng.random()) if done else None,
        )


def _features(s, rows, h, rid, stem, migrations, checks, perms, bases, taken) -> None:
    """Feature branches forked from recent default commits, most with an open or draft pull request."""
    rng = s.rng
    mod = stem.replace("-", "_")
    writers = [u for u, p in perms.items() if p != "read"]
    others = [u for u in perms if u != "USR-000001"]
    tips = [c["id"] for c in h.commits]
    for n in range(rng.randint(3, 7)):
        back = rng.choices([0, 1, 2, 3], [0.8, 0.1, 0.06, 0.04])[0]
        fork = tips[max(0, len(tips) - 1 - back)]
        files, parent = dict(h.trees[fork]), fork
        slug, text = rng.choice(CHANGES)
        prefix = _prefix(s)
        name = f"{prefix}/{slug}"
        while name in taken:
            name = f"{prefix}/{slug}-{len(taken) + 2}"
        taken.add(name)
        author = "USR-000001" if "USR-000001" in writers and rng.random() < 0.22 else rng.choice(writers)
        for k in range(rng.choices([1, 2, 3], [0.5, 0.35, 0.15])[0]):
            path = branch_edit_target(files, mod, migrations, rng, n + 2)
            files[path] = edit(files[path], f"{slug} {k}", rng) if path in files else new_file(path, text)
            when = _when(s, rng.random() * 12)
            parent = h.add(rows.next(Commit), parent, files, f"{text}: step {k + 1}", author, when)
        _branch(s, rows, rid, name, parent, checks, FEATURE_CHECKS, author)
        fate = rng.random()
        if fate > 0.92:
            continue  # a branch nobody opened a pull request for yet
        number = len([r for r in rows.by_table[PullRequest] if r["repo_id"] == rid]) + 1
        when = _when(s, rng.random() * 10)
        base = bases[-1] if len(bases) > 1 and rng.random() < 0.12 else bases[0]
        title = f"{text} in {stem}"
        if fate > 0.85:
            _pr(rows, rid, number, title, author, name, parent, "closed", when, base=base)
            continue
        labels = _labels(rng)
        pr = _pr(rows, rid, number, title, author, name, parent, "draft" if fate > 0.7 else "open", when,
                 base=base, labels=labels)  # fmt: skip
        _reviews(s, rows, pr, [u for u in perms if u != author], others)


def _leftovers(
    s: Seeder, rows: Rows, rid: str, h: History, checks: list[str], writers: list[str]
) -> set[str]:
    """Head branches of recent merged pull requests that nobody deleted (they point into history)."""
    merged = [p for p in rows.by_table[PullRequest] if p["repo_id"] == rid and p["state"] == "merged"]
    for pr in s.rng.sample(merged[-4:], min(len(merged[-4:]), s.rng.randint(1, 3))):
        _branch(
            s, rows, rid, pr["head_branch"], pr["head_commit_id"], checks, DEFAULT_CHECKS, pr["author_id"]
        )
    return {p["head_branch"] for p in merged}


def _abandoned(s: Seeder, rows: Rows, rid: str, h: History, writers: list[str]) -> None:
    """Pull requests closed without merging whose branches are gone."""
    for k in range(s.rng.randint(1, 4)):
        number = len([r for r in rows.by_table[PullRequest] if r["repo_id"] == rid]) + 1
        slug, text = s.rng.choice(CHANGES)
        commit = s.rng.choice(h.commits[1:])["id"]
        when = _when(s, s.rng.randint(5, 80))
        _pr(
            rows,
            rid,
            number,
            f"Try: {text.lower()}",
            s.rng.choice(writers),
            f"spike/{slug}-{k + 1}",
            commit,
            "closed",
            when,
        )


def _labels(rng) -> str:
    roll = rng.random()
    if roll < 0.08:
        return rng.choice(["hold", "do-not-merge", "hold,bug"])
    if roll < 0.55:
        return ""
    return ",".join(rng.sample(LABELS, rng.randint(1, 2)))


def _reviews(s: Seeder, rows: Rows, pr: dict, reviewers: list[str], others: list[str]) -> None:
    rng = s.rng
    picked = rng.sample(reviewers, min(len(reviewers), rng.choices([0, 1, 2, 3], [0.25, 0.4, 0.25, 0.1])[0]))
    for u in picked:
        state = rng.choices(["approved", "changes_requested", "commented"], [0.6, 0.13, 0.27])[0]
        body = {"approved": "LGTM", "changes_requested": "Please add a test for the error path."}.get(
            state, "Looks reasonable, one question inline."
        )
        rows.add(Review, pr_id=pr["id"], reviewer_id=u, state=state, body=body, commit_id=pr["head_commit_id"],
                 submitted_at=pr["created_at"])  # fmt: skip
    waiting = [u for u in reviewers if u not in picked]
    if waiting and rng.random() < 0.5:
        for u in rng.sample(waiting, min(len(waiting), rng.randint(1, 2))):
            rows.add(
                ReviewRequest,
                pr_id=pr["id"],
                user_id=u,
                requested_by=pr["author_id"],
                requested_at=pr["created_at"],
            )
    if picked and rng.random() < 0.3:
        rows.add(ReviewComment, pr_id=pr["id"], author_id=picked[0], path="README.md", line=rng.randint(1, 8),
                 body="Could this mention the new behaviour?", commit_id=pr["head_commit_id"], created_at=pr["created_at"])  # fmt: skip


def _releases(s: Seeder, rows: Rows, rid: str, default: str, h: History, writers: list[str]) -> None:
    rng = s.rng
    major, minor = rng.randint(0, 3), rng.randint(0, 4)
    for i in range(rng.randint(0, 4)):
        minor += 1
        commit = h.commits[min(len(h.commits) - 1, 1 + 2 * i)]
        rows.add(
            Release,
            repo_id=rid,
            tag=f"v{major}.{minor}.0",
            name=f"{major}.{minor}.0",
            target_branch=default,
            commit_id=commit["id"],
            notes=f"Release {major}.{minor}.0.",
            prerelease=False,
            author_id=rng.choice(writers),
            created_at=commit["created_at"],
        )


def _store(rows: Rows, h: History) -> None:
    """The repository's commits and their trees; pull requests learn their base branch name."""
    default = next(r for r in rows.by_table[Repo] if r["id"] == h.repo)["default_branch"]
    for pr in rows.by_table[PullRequest]:
        if pr["repo_id"] == h.repo and pr["base_branch"] == "__default__":
            pr["base_branch"] = default
    for c in h.commits:
        rows.by_table.setdefault(Commit, []).append(c)
        for path, content in sorted(h.trees[c["id"]].items()):
            rows.add(File, commit_id=c["id"], path=path, blob_sha=git.blob_sha(content), content=content)
