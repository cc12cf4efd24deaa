"""Seeded source trees and history: each repository's starting files (small text files), the
commits its default branch has taken since, and the commits of its feature branches.

Conflicts are file-level, so a branch that edits a file the default branch also changed after the
branch forked cannot be merged until someone resolves it; forks from older commits are behind."""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, field

STEMS = (
    "payments", "billing", "auth", "search", "checkout", "inventory", "notifications", "analytics",
    "gateway", "catalog", "shipping", "ledger", "reports", "identity", "scheduler", "media", "pricing",
    "orders", "support", "onboarding", "metrics", "feature-flags", "audit", "docs", "design-system",
    "mobile", "webhooks", "infra", "data-pipeline", "ranking",
)  # fmt: skip
KINDS = ("api", "service", "worker", "web", "sdk", "cli")
CHANGES = (
    ("retry", "Retry transient failures"),
    ("timeout", "Raise the upstream timeout"),
    ("cache", "Cache lookups for 60 seconds"),
    ("metrics", "Emit request metrics"),
    ("pagination", "Page large result sets"),
    ("validation", "Validate inputs earlier"),
    ("logging", "Structured logging for handlers"),
    ("rate-limit", "Rate-limit noisy clients"),
    ("cleanup", "Remove dead code"),
    ("typing", "Add type hints"),
    ("export", "Export results as CSV"),
    ("audit-trail", "Record an audit trail"),
)
KIND_PREFIX = (("feature", 0.5), ("fix", 0.3), ("chore", 0.12), ("docs", 0.08))


def sha_of(*parts: object) -> str:
    return hashlib.sha1("\0".join(map(str, parts)).encode()).hexdigest()


def base_files(repo: str, stem: str, migrations: bool) -> dict[str, str]:
    """A repository's first tree: every file at least ten lines, so line comments have room.

    Long because it is one literal: the full text of each file of a new repository's first tree.
    """
    mod = stem.replace("-", "_")
    files = {
        "README.md": "\n".join(
            [
                f"# {repo}",
                "",
                f"The {stem} component.",
                "",
                "## Development",
                "",
                "    make test",
                "",
                "## Ownership",
                "",
                "See CODEOWNERS.",
            ]  # fmt: skip
        ),
        "CHANGELOG.md": "\n".join(
            ["# Changelog", "", "## Unreleased", ""] + [f"- entry {i}" for i in range(1, 8)]
        ),
        f"src/{mod}/core.py": "\n".join(
            [f'"""Core of {stem}."""', "", "", "def handle(request):"]
            + [f"    step_{i} = request.get('step_{i}')" for i in range(1, 7)]
            + ["    return request", ""]
        ),
        f"src/{mod}/config.py": "\n".join(
            [
                f'"""Settings of {stem}."""',
                "",
                "TIMEOUT_S = 10",
                "RETRIES = 2",
                "CACHE_TTL_S = 0",
                "PAGE_SIZE = 50",
                "LOG_LEVEL = 'info'",
                "REGION = 'us-west-2'",
                "FEATURE_FLAGS = {}",
                "",
            ]  # fmt: skip
        ),
        "tests/test_core.py": "\n".join(
            [f"from {mod}.core import handle", "", ""]
            + [f"def test_step_{i}():\n    assert handle({{'step_{i}': 1}})" for i in range(1, 5)]
            + [""]
        ),
        ".github/workflows/ci.yml": "\n".join(
            [
                "name: ci",
                "on: [push, pull_request]",
                "jobs:",
                "  build:",
                "    runs-on: ubuntu-latest",
                "    steps:",
                "      - uses: actions/checkout@v4",
                "      - run: make build",
                "      - run: make test",
                "      - run: make lint",
                "",
            ]  # fmt: skip
        ),
    }
    if migrations:
        files["migrations/0001_init.sql"] = "\n".join(
            [
                f"-- {stem} schema",
                "CREATE TABLE items (",
                "  id TEXT PRIMARY KEY,",
                "  name TEXT NOT NULL,",
                "  created_at TEXT NOT NULL",
                ");",
                "",
                "CREATE INDEX items_name ON items (name);",
                "",
                "-- end",
                "",
            ]  # fmt: skip
        )
    return files


def edit(content: str, note: str, rng: random.Random) -> str:
    """The file with one line rewritten (never the first, which names the file)."""
    lines = content.split("\n")
    k = rng.randrange(1, max(2, len(lines) - 1))
    lines[k] = f"{lines[k]}  # {note}" if lines[k].strip() else f"# {note}"
    return "\n".join(lines)


@dataclass
class History:
    """The commits of one repository, built in memory and stored in bulk by the seed."""

    repo: str
    commits: list[dict] = field(default_factory=list)
    trees: dict[str, dict[str, str]] = field(default_factory=dict)

    def add(
        self, cid: str, parent: str | None, files: dict[str, str], message: str, author: str, when: str
    ) -> str:
        self.commits.append(
            {
                "id": cid,
                "repo_id": self.repo,
                "sha": sha_of(self.repo, cid, parent, message),
                "parent_id": parent,
                "second_parent_id": None,
                "message": message,
                "author_id": author,
                "created_at": when,
            }
        )
        self.trees[cid] = dict(files)
        return cid


def default_edit_target(files: dict[str, str], rng: random.Random) -> str:
    """What the default branch's later commits touch: mostly the changelog and the core module."""
    core = next(p for p in files if p.endswith("core.py"))
    config = next(p for p in files if p.endswith("config.py"))
    return rng.choices(["CHANGELOG.md", core, config, "README.md"], [0.3, 0.3, 0.25, 0.15])[0]


def branch_edit_target(files: dict[str, str], mod: str, migrations: bool, rng: random.Random, n: int) -> str:
    """What a feature branch commit touches: code, tests, sometimes config, changelog or a new migration."""
    core = f"src/{mod}/core.py"
    options = [(core, 0.3), (f"src/{mod}/feature_{n}.py", 0.2), ("tests/test_core.py", 0.25)]
    options += [(f"src/{mod}/config.py", 0.1), ("CHANGELOG.md", 0.05)]
    if migrations:
        options.append((f"migrations/{n + 1:04d}_change.sql", 0.12))
    paths, weights = zip(*options, strict=True)
    return rng.choices(paths, weights)[0]


def new_file(path: str, note: str) -> str:
    if path.endswith(".sql"):
        body = ["ALTER TABLE items ADD COLUMN note TEXT;", "UPDATE items SET note = '';"]
    else:
        body = ["def run(request):", "    return request"]
    return "\n".join([f"-- {note}" if path.endswith(".sql") else f'"""{note}."""', ""] + body + [""] * 7)
