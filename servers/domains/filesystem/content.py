"""What seeded files contain: code, notes, CSV data sets, logs, and the tree builder that lays them out."""

from __future__ import annotations

import hashlib
from datetime import timedelta
from typing import Any

from servers.domains.filesystem import posix as P
from servers.kit import Seeder

# -- seed -------------------------------------------------------------------------------------------

ROOT_VOL, ARCHIVE_VOL, USB_VOL = "VOL-000001", "VOL-000002", "VOL-000003"
_WORDS = [
    "config",
    "cache",
    "order",
    "invoice",
    "report",
    "session",
    "token",
    "event",
    "metric",
    "payload",
    "user",
    "record",
    "queue",
    "batch",
    "export",
    "import",
    "schema",
    "client",
    "server",
    "route",
    "handler",
    "parser",
    "loader",
    "budget",
    "forecast",
    "summary",
]
_VERBS = [
    "load",
    "parse",
    "save",
    "render",
    "fetch",
    "sync",
    "build",
    "validate",
    "merge",
    "export",
    "compute",
    "format",
]
_TOPICS = [
    "roadmap",
    "budget",
    "hiring",
    "launch",
    "migration",
    "onboarding",
    "security",
    "review",
    "retro",
    "planning",
    "vendor",
    "pricing",
]
_LEVELS = ("INFO",) * 16 + ("WARN",) * 3 + ("ERROR",)
_COMPONENTS = ("api", "worker", "db", "auth", "scheduler", "cache", "mailer")
_MESSAGES = {
    "INFO": (
        "request served path=/{w}/{n} status=200 ms={ms}",
        "job {w}-{n} finished in {ms}ms",
        "user login ok uid={n}",
    ),
    "WARN": ("slow query on {w} took {ms}ms", "retrying {w} upload attempt={d}", "disk usage at {d}0%"),
    "ERROR": (
        "failed to {v} {w}: timeout after {ms}ms",
        "connection refused by {w}-db:5432",
        "unhandled exception in {w}",
    ),
}


class _Tree:
    """Collects node rows by absolute path so the seed reads like a directory listing."""

    def __init__(self, s: Seeder, groups: dict[str, str]) -> None:
        self.s, self.groups = s, groups
        self.rows: list[dict[str, Any]] = []
        self.ids: dict[str, str] = {}
        self.vol: dict[str, str] = {}
        self.members: list[dict[str, Any]] = []

    def add(
        self,
        path: str,
        kind: str,
        owner: str,
        mode: int,
        *,
        group: str | None = None,
        content: str | None = None,
        size: int | None = None,
        binary: bool = False,
        target: str | None = None,
        mtime: str | None = None,
        volume: str | None = None,
    ) -> str:
        parent, _, name = path.rpartition("/")
        parent = parent or "/"
        if path == "/":
            parent_id, name = None, ""
        else:
            parent_id = self.ids[parent]
        if size is None:
            size = {"dir": P.DIR_SIZE, "symlink": len(target or "")}.get(kind, len((content or "").encode()))
        nid = f"NOD-{len(self.rows) + 1:06d}"
        volume = volume or self.vol.get(parent, ROOT_VOL)
        self.rows.append(
            {
                "id": nid,
                "parent_id": parent_id,
                "name": name,
                "path": path,
                "kind": kind,
                "owner_id": owner,
                "group_id": group or self.groups[owner],
                "mode": mode,
                "size_bytes": size,
                "content": content,
                "is_binary": binary,
                "target": target,
                "mtime": mtime or self.s.moment_offset(-400, -1),
                "volume_id": volume,
            }
        )
        self.ids[path], self.vol[path] = nid, volume
        return nid

    def dir(self, path: str, owner: str, mode: int = 0o755, **kw: Any) -> str:
        if path in self.ids:
            return self.ids[path]
        return self.add(path, "dir", owner, mode, **kw)

    def file(self, path: str, owner: str, content: str, mode: int = 0o644, **kw: Any) -> str:
        return self.add(path, "file", owner, mode, content=content, **kw)

    def blob(self, path: str, owner: str, size: int, mode: int = 0o644, **kw: Any) -> str:
        token = f"binary:{path.rsplit('.', 1)[-1]}:{self.s.rng.getrandbits(64):016x}"
        return self.add(path, "file", owner, mode, content=token, size=size, binary=True, **kw)

    def link(self, path: str, owner: str, target: str) -> str:
        return self.add(path, "symlink", owner, 0o777, target=target)

    def tar(self, path: str, owner: str, source: str, prefix: str) -> None:
        """A .tar file packing the already-built subtree at ``source`` under member names ``prefix/...``."""
        start = len(self.members)
        for p, nid in sorted(self.ids.items()):
            if p != source and not p.startswith(source + "/"):
                continue
            row = self.rows[int(nid.split("-")[1]) - 1]
            self.members.append(
                {
                    "rel_path": prefix + p[len(source) :],
                    "kind": row["kind"],
                    "mode": row["mode"],
                    "size_bytes": row["size_bytes"],
                    "content": row["content"],
                    "is_binary": row["is_binary"],
                    "target": row["target"],
                    "mtime": row["mtime"],
                }
            )
        fresh = self.members[start:]
        size = _tar_size([m["size_bytes"] for m in fresh])
        digest = hashlib.md5("".join(m["rel_path"] for m in fresh).encode()).hexdigest()
        aid = self.add(path, "file", owner, 0o644, content=f"tar:{digest}", size=size, binary=True)
        for m in fresh:
            m["archive_id"] = aid


def _tar_size(sizes: list[int]) -> int:
    raw = sum(512 + -(-s // 512) * 512 for s in sizes) + 1024
    return -(-raw // 10240) * 10240


def _python(s: Seeder, project: str, module: str) -> str:
    rng = s.rng
    funcs = []
    for _ in range(rng.randint(1, 3)):
        v, w = rng.choice(_VERBS), rng.choice(_WORDS)
        funcs.append(
            f"def {v}_{w}(path, *, strict=False):\n"
            f'    """{v.capitalize()} the {w} stored at path."""\n'
            f"    data = _read(path)\n"
            f"    if strict and not data:\n"
            f'        raise ValueError("empty {w}")\n'
            f"    return [line.strip() for line in data if line]  # TODO: {rng.choice(_TOPICS)}\n"
        )
    return (
        f'"""{module} helpers for {project}."""\n\nimport json\nfrom pathlib import Path\n\n\n'
        "def _read(path):\n    return Path(path).read_text().splitlines()\n\n\n" + "\n\n".join(funcs)
    )


# Faker's month_name() draws a date up to *now*, so the text changed with the wall clock and two
# builds of one snapshot could differ; a month drawn from the seeded generator cannot.
_MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]


def _markdown(s: Seeder, title: str, n: int) -> str:
    rng = s.rng
    lines = [f"# {title}", ""]
    for _ in range(n):
        if rng.random() < 0.3:
            lines += ["", f"## {rng.choice(_TOPICS).capitalize()}", ""]
        lines.append(
            f"- {rng.choice(_VERBS)} the {rng.choice(_WORDS)} {rng.choice(_WORDS)} before {s.fake.random_element(_MONTHS)}"
        )
    return "\n".join(lines) + "\n"


def _csv(s: Seeder, kind: str, n: int) -> str:
    rng = s.rng
    if kind == "sales":
        rows = [
            f"2026-{rng.randint(1, 5):02d}-{rng.randint(1, 28):02d},{rng.choice(_WORDS)},{rng.randint(1, 40)},{rng.randint(5, 900)}.{rng.randint(0, 99):02d}"
            for _ in range(n)
        ]
        header = "date,product,quantity,amount"
    elif kind == "people":
        rows = [
            f"{s.fake.first_name()},{s.fake.last_name()},{s.fake.city()},{rng.randint(18, 80)}"
            for _ in range(n)
        ]
        header = "first_name,last_name,city,age"
    else:
        rows = [
            f"{rng.choice(_COMPONENTS)},{rng.randint(1, 500)},{rng.choice(['ok', 'degraded', 'down'])}"
            for _ in range(n)
        ]
        header = "service,latency_ms,status"
    rows += [rng.choice(rows) for _ in range(max(2, n // 8))]  # duplicates for uniq / sort -u
    rng.shuffle(rows)
    return header + "\n" + "\n".join(rows) + "\n"


def _log(s: Seeder, n: int, days: int = 3) -> str:
    rng = s.rng
    t = s.now - timedelta(days=days)
    step = days * 86400 / max(n, 1)
    out = []
    for i in range(n):
        level = rng.choice(_LEVELS)
        msg = rng.choice(_MESSAGES[level]).format(
            w=rng.choice(_WORDS),
            n=rng.randint(1, 9999),
            ms=rng.randint(3, 9000),
            d=rng.randint(1, 9),
            v=rng.choice(_VERBS),
        )
        stamp = (t + timedelta(seconds=int(i * step))).isoformat(timespec="seconds")
        out.append(f"{stamp} {level} [{rng.choice(_COMPONENTS)}] {msg}")
    return "\n".join(out) + "\n"


def _project(s: Seeder, t: _Tree, root: str, owner: str, modules: int) -> None:
    name = root.rsplit("/", 1)[1]
    pkg = name.replace("-", "_")
    t.dir(root, owner)
    t.file(f"{root}/README.md", owner, _markdown(s, f"{name}", 8))
    t.file(
        f"{root}/config.yaml",
        owner,
        f"name: {name}\nversion: 0.{s.rng.randint(1, 9)}.0\nport: {s.rng.randint(3000, 9000)}\ndebug: false\n",
    )
    t.file(
        f"{root}/.env",
        owner,
        f"DATABASE_URL=postgres://{owner}@localhost/{pkg}\nSECRET_KEY={s.rng.getrandbits(64):016x}\n",
        0o600,
    )
    t.file(f"{root}/.gitignore", owner, "__pycache__/\n*.pyc\n.env\ndist/\n")
    t.file(f"{root}/requirements.txt", owner, "requests==2.32.3\npyyaml==6.0.2\npytest==8.3.3\n")
    dirs = [
        f"src/{pkg}",
        f"src/{pkg}/core",
        f"src/{pkg}/core/models",
        f"src/{pkg}/api",
        f"src/{pkg}/api/handlers",
        f"src/{pkg}/api/handlers/v1",
        f"src/{pkg}/utils",
        f"src/{pkg}/utils/text",
        "tests",
        "tests/unit",
        "tests/integration",
        "docs",
        "docs/guides",
        "scripts",
        "data",
    ]
    t.dir(f"{root}/src", owner)
    for d in dirs:
        t.dir(f"{root}/{d}", owner)
    t.file(f"{root}/src/{pkg}/__init__.py", owner, f'"""{name}."""\n__version__ = "0.1.0"\n')
    used: set[str] = set()
    for _ in range(modules):
        d = s.rng.choice(dirs)
        if d.startswith("docs"):
            fname = f"{s.rng.choice(_TOPICS)}.md"
            content = _markdown(s, fname[:-3].capitalize(), 5)
        elif d == "data":
            fname = f"{s.rng.choice(_WORDS)}.csv"
            content = _csv(s, s.rng.choice(["sales", "services"]), 12)
        elif d == "scripts":
            fname = f"{s.rng.choice(_VERBS)}.sh"
            content = f"#!/bin/sh\nset -e\npython -m {pkg} {s.rng.choice(_VERBS)}\n"
        else:
            prefix = "test_" if d.startswith("tests") else ""
            fname = f"{prefix}{s.rng.choice(_WORDS)}.py"
            content = _python(s, name, fname[:-3])
        path = f"{root}/{d}/{fname}"
        if path in used:
            continue
        used.add(path)
        t.file(path, owner, content, 0o755 if fname.endswith(".sh") else 0o644)


def _documents(s: Seeder, t: _Tree, h: str, user: str, notes: int) -> None:
    """Documents: v1/v2 report pairs for diff, meeting notes, a budget."""
    t.dir(f"{h}/Documents/reports", user)
    t.dir(f"{h}/Documents/meetings", user)
    for i in range(max(2, notes // 8)):
        base = _markdown(s, f"Quarterly report {2025 + i % 2} Q{i % 4 + 1}", 10)
        lines = base.splitlines()
        for _ in range(3):
            lines[s.rng.randrange(2, len(lines))] = (
                f"- revised: {s.rng.choice(_VERBS)} {s.rng.choice(_WORDS)} ({s.rng.randint(2, 40)}%)"
            )
        stem = f"{h}/Documents/reports/q{i % 4 + 1}-{2025 + i % 2}-{i}"
        t.file(f"{stem}-v1.md", user, base)
        t.file(f"{stem}-v2.md", user, "\n".join(lines) + "\n")
    for i in range(max(3, notes // 3)):
        day = s.day_offset(-300, -1)
        topic = s.rng.choice(_TOPICS)
        people = ", ".join(p.name for p in s.world.pick_people(3, offset=s.rng.randrange(1, 60)))
        t.file(
            f"{h}/Documents/meetings/{day}-{topic}-{i}.md",
            user,
            f"# {topic.capitalize()} sync, {day}\nAttendees: {people}\n\n" + _markdown(s, "Notes", 6),
        )
    t.file(f"{h}/Documents/budget-2026.csv", user, _csv(s, "sales", 20))


def _notes(s: Seeder, t: _Tree, h: str, user: str, notes: int) -> None:
    """Notes: loose notes and ideas/journal folders, and a todo list."""
    t.dir(f"{h}/Notes/ideas", user)
    t.dir(f"{h}/Notes/journal", user)
    for i in range(notes):
        folder = s.rng.choice(["", "/ideas", "/journal"])
        ext = s.rng.choice(["md", "txt"])
        t.file(
            f"{h}/Notes{folder}/{s.rng.choice(_TOPICS)}-{i}.{ext}",
            user,
            _markdown(s, "Notes", s.rng.randint(3, 12)),
        )
    t.file(
        f"{h}/Notes/todo.txt",
        user,
        "".join(f"[ ] {s.rng.choice(_VERBS)} {s.rng.choice(_WORDS)}\n" for _ in range(12)),
    )


def _photos_and_downloads(s: Seeder, t: _Tree, h: str, user: str, notes: int) -> None:
    """Photo albums (binary) and a Downloads folder of PDFs, zips and CSVs."""
    for album in range(max(1, notes // 30)):
        a = f"{h}/Photos/{2025 + album % 2}-{s.rng.choice(['summer', 'winter', 'trip', 'family', 'birthday'])}-{album}"
        t.dir(a, user)
        for _ in range(s.rng.randint(4, 10)):
            t.blob(f"{a}/IMG_{s.rng.randint(1000, 9999)}.jpg", user, s.rng.randint(200_000, 6_000_000))
    for i in range(max(4, notes // 5)):
        kind = s.rng.choice(["pdf", "zip", "csv", "pdf"])
        stem = s.rng.choice(
            ["invoice-2026-05", "statement-april", "boarding-pass", "contract-draft", "export", "photos"]
        )
        path = f"{h}/Downloads/{stem}-{i}.{kind}"
        if kind == "csv":
            t.file(path, user, _csv(s, s.rng.choice(["sales", "people"]), 25))
        else:
            t.blob(path, user, s.rng.randint(20_000, 3_000_000))


def _home(
    s: Seeder,
    t: _Tree,
    user: str,
    full_name: str,
    *,
    projects: int,
    modules: int,
    notes: int,
    private: bool,
    persona: bool,
) -> None:
    h = f"/home/{user}"
    t.dir(h, user, 0o700 if private else 0o755)
    t.file(f"{h}/.bashrc", user, "export EDITOR=vim\nalias ll='ls -l'\nexport PATH=$HOME/bin:$PATH\n")
    t.file(f"{h}/.profile", user, "[ -f ~/.bashrc ] && . ~/.bashrc\n")
    t.file(f"{h}/.gitconfig", user, f"[user]\n\tname = {full_name}\n\temail = {user}@example.org\n")
    t.dir(f"{h}/.ssh", user, 0o700)
    t.file(
        f"{h}/.ssh/id_ed25519",
        user,
        f"-----BEGIN OPENSSH PRIVATE KEY-----\n{s.rng.getrandbits(128):032x}\n-----END OPENSSH PRIVATE KEY-----\n",
        0o600,
    )
    t.file(
        f"{h}/.ssh/id_ed25519.pub",
        user,
        f"ssh-ed25519 AAAAC3{s.rng.getrandbits(96):024x} {user}@workstation\n",
    )
    for sub in ("Documents", "Projects", "Photos", "Downloads", "Notes"):
        t.dir(f"{h}/{sub}", user)
    names = []
    for i in range(projects):
        pname = f"{s.rng.choice(_WORDS)}-{s.rng.choice(['app', 'service', 'tool', 'api', 'lib', 'bot'])}"
        if pname in names:
            pname = f"{pname}{i}"
        names.append(pname)
        _project(s, t, f"{h}/Projects/{pname}", user, modules)
    _documents(s, t, h, user, notes)
    _notes(s, t, h, user, notes)
    _photos_and_downloads(s, t, h, user, notes)
    if names:
        first = f"{h}/Projects/{names[0]}"
        t.link(f"{h}/current", user, f"Projects/{names[0]}")
        if persona:
            t.tar(f"{h}/Downloads/{names[0]}-backup.tar", user, first, names[0])
    if persona:
        t.link(f"{h}/Notes/old-draft.md", user, "../Documents/drafts/gone.md")  # dangling
        t.link(f"{h}/loop-a", user, "loop-b")
        t.link(f"{h}/loop-b", user, "loop-a")
        for empty in ("Documents/empty-folder", "Photos/to-sort", "Downloads/unsorted"):
            t.dir(f"{h}/{empty}", user)
        t.file(f"{h}/Notes/read-only.txt", user, "Do not edit: signed copy.\n", 0o444)
