"""A multi-user POSIX-like file system driven through a shell session.

The agent works in a shell logged in as the persona (the Unix user named like the persona's
handle, home ``/home/<username>``). The ``sessions`` row is that shell: acting user, working
directory, previous directory (``cd -``), directory stack (``pushd``/``popd``) and umask. Every
path argument may be absolute (``/srv/shared``), start at a home (``~/notes.txt``,
``~dana/shared``) or be relative to the working directory (``Projects/app/README.md``, ``..``);
outputs write paths the same way, relative to the working directory when they are inside it.

Reference moment 2026-06-01 09:00; new and touched files get that modification time.

Rules (kernel semantics, checked for the acting user; root bypasses permission bits but never a
read-only volume):

- search (``x``) on every directory of a path; ``r`` to list a directory or read a file; ``w`` to
  change a file; ``w`` + ``x`` on the parent to create, remove or rename an entry; in a sticky
  directory (``/tmp``) only the entry's owner, the directory's owner or root may remove or rename it;
- ``chmod`` by the owner or root, ``chown`` by root only, ``chgrp`` by the owner to one of their groups;
- new files get ``0666 & ~umask``, new directories ``0777 & ~umask``, owned by the acting user and
  their primary group, or the parent's group (and setgid bit, for directories) under a setgid
  parent (``/srv/shared``);
- ``/mnt/archive`` is a read-only volume; ``/mnt/usb`` is a 64 MB stick that is nearly full, and a
  write that does not fit fails with "No space left on device" and changes nothing;
- symlinks are followed (8 hops at most); a dangling one is "No such file or directory";
- every command fails as a whole before writing anything (no half-done ``rm -r`` or ``cp -r``).

Reads never change anything (no access times, no history).
"""

from __future__ import annotations

import difflib
import fnmatch
import hashlib
import json
import re
from datetime import timedelta
from typing import Annotated, Any, Literal

from pydantic import Field
from sqlalchemy import ForeignKey, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from servers.domains import _posix as P
from servers.domains._posix import FsError, worded
from servers.kit import Db, Domain, Offset, PageSize, PathRef, Ref, Seeder, Sensitive, ShortText, ToolError

filesystem = Domain(
    "filesystem",
    "A multi-user Unix-like file system used through a shell: cd, ls, cat, grep, find, mv, cp, rm, chmod, tar.",
)


# -- tables ---------------------------------------------------------------------------------------


class Group(filesystem.Table):
    """A Unix group, keyed by its name."""

    __tablename__ = "groups"
    __example__ = "staff"
    id: Mapped[str] = mapped_column(primary_key=True)
    gid: Mapped[int] = mapped_column(unique=True)


class User(filesystem.Table):
    """A Unix account, keyed by its user name (the world person's username)."""

    __tablename__ = "users"
    __example__ = "dwhitfield"
    __hidden__ = ("password",)
    __people__ = {"username": "id", "name": "full_name"}
    id: Mapped[str] = mapped_column(primary_key=True)
    full_name: Mapped[str]
    uid: Mapped[int] = mapped_column(unique=True)
    group_id: Mapped[str] = mapped_column(ForeignKey("groups.id"))
    home: Mapped[str]
    shell: Mapped[str]
    is_root: Mapped[bool]
    password: Mapped[str]


class GroupMember(filesystem.Table):
    __tablename__ = "group_members"
    __prefix__ = "GMB"
    __noun__ = "group membership"
    id: Mapped[str] = mapped_column(primary_key=True)
    group_id: Mapped[str] = mapped_column(ForeignKey("groups.id"), index=True)
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"), index=True)


class Volume(filesystem.Table):
    """A mounted file system; its used space is the sum of its nodes' sizes."""

    __tablename__ = "volumes"
    __prefix__ = "VOL"
    id: Mapped[str] = mapped_column(primary_key=True)
    mount_path: Mapped[str] = mapped_column(unique=True)
    device: Mapped[str]
    fstype: Mapped[str]
    capacity_kb: Mapped[int]
    read_only: Mapped[bool]


class Node(filesystem.Table):
    """A file, directory or symbolic link. ``mode`` holds the octal bits (0o2775 = setgid rwxrwxr-x)."""

    __tablename__ = "nodes"
    __prefix__ = "NOD"
    __noun__ = "file"
    __table_args__ = (UniqueConstraint("parent_id", "name"),)
    id: Mapped[str] = mapped_column(primary_key=True)
    parent_id: Mapped[str | None] = mapped_column(ForeignKey("nodes.id"))
    name: Mapped[str]
    kind: Mapped[str]  # file / dir / symlink
    owner_id: Mapped[str] = mapped_column(ForeignKey("users.id"), index=True)
    group_id: Mapped[str] = mapped_column(ForeignKey("groups.id"))
    mode: Mapped[int]
    size_bytes: Mapped[int]
    content: Mapped[str | None]  # text; for binary files an opaque fingerprint of the bytes
    is_binary: Mapped[bool]
    target: Mapped[str | None]  # symlinks: the path they point to, as written
    mtime: Mapped[str]
    volume_id: Mapped[str] = mapped_column(ForeignKey("volumes.id"), index=True)

    @staticmethod
    def __render__(db: Db, key: str) -> str:
        """The path the current shell would type for this node (relative under the cwd, ~/ under home)."""
        return P.display(P.actor(db), P.abspath(db, key))


class ArchiveMember(filesystem.Table):
    """One entry stored in a ``.tar`` file."""

    __tablename__ = "archive_members"
    __prefix__ = "ARM"
    id: Mapped[str] = mapped_column(primary_key=True)
    archive_id: Mapped[str] = mapped_column(ForeignKey("nodes.id"), index=True)
    rel_path: Mapped[str]
    kind: Mapped[str]
    mode: Mapped[int]
    size_bytes: Mapped[int]
    content: Mapped[str | None]
    is_binary: Mapped[bool]
    target: Mapped[str | None]
    mtime: Mapped[str]


class Session(filesystem.Table):
    """The shell: who is acting, where, and with which umask. Directory ids are plain node ids."""

    __tablename__ = "sessions"
    __prefix__ = "SES"
    id: Mapped[str] = mapped_column(primary_key=True)
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"))
    cwd_id: Mapped[str]
    oldpwd_id: Mapped[str | None]
    dir_stack: Mapped[str]  # comma-separated node ids, top of the stack first
    umask: Mapped[int]


# -- what good arguments look like (sampler conditions) ----------------------------------------------

_ME = "(SELECT user_id FROM sessions)"
_HERE = (
    "id IN (WITH RECURSIVE t(id) AS (SELECT cwd_id FROM sessions UNION ALL "
    "SELECT n.id FROM nodes n JOIN t ON n.parent_id = t.id) SELECT id FROM t)"
)
MINE_HERE = f"(owner_id = {_ME} OR {_ME} = 'root') AND {_HERE}"  # root may act on anything
TEXT = f"kind = 'file' AND is_binary = 0 AND (mode & 256) != 0 AND {MINE_HERE}"
WRITABLE_TEXT = f"kind = 'file' AND is_binary = 0 AND (mode & 384) = 384 AND {MINE_HERE}"
CSV = f"{TEXT} AND name LIKE '%.csv'"
READABLE = f"kind = 'file' AND (mode & 256) != 0 AND {MINE_HERE}"
DIR = f"kind = 'dir' AND (mode & 448) = 448 AND {MINE_HERE}"
SUBDIR = f"{DIR} AND id != (SELECT cwd_id FROM sessions)"
EMPTY_DIR = f"{SUBDIR} AND NOT EXISTS (SELECT 1 FROM nodes c WHERE c.parent_id = nodes.id)"
ENTRY = f"kind IN ('file', 'symlink') AND {MINE_HERE}"
MOVABLE = f"kind IN ('file', 'dir', 'symlink') AND id != (SELECT cwd_id FROM sessions) AND {MINE_HERE}"
LINK = f"kind = 'symlink' AND {MINE_HERE}"
ARCHIVE = f"id IN (SELECT archive_id FROM archive_members) AND (mode & 256) != 0 AND {MINE_HERE}"

NewPath = Annotated[
    str,
    Field(
        min_length=1,
        max_length=4096,
        description="A path that need not exist yet: absolute, from home (~/...) or relative to the working directory.",
        examples=["notes/todo.txt", "~/Documents/summary.md", "backup", "../archive"],
    ),
]
SourcePath = Annotated[str, Field(min_length=1, max_length=4096)]
Text = Annotated[str, Field(max_length=100_000, examples=["meeting moved to 3pm", "TODO: update README"])]
Mode = Annotated[
    str,
    Field(
        pattern=r"^([0-7]{3,4}|[ugoa]*([+=-][rwxXst]*)+(,[ugoa]*([+=-][rwxXst]*)+)*)$",
        max_length=40,
        description="Octal (640, 2775) or symbolic (u+x, go-w, a=r, u=rw,go=r).",
        examples=["644", "600", "u+x", "go-w"],
    ),
]
Umask = Annotated[str, Field(pattern=r"^0?[0-7]{3}$", max_length=4, examples=["022", "077", "027"])]
Lines = Annotated[int, Field(ge=1, le=1000, description="Number of lines (1-1000).")]


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


def _markdown(s: Seeder, title: str, n: int) -> str:
    rng = s.rng
    lines = [f"# {title}", ""]
    for _ in range(n):
        if rng.random() < 0.3:
            lines += ["", f"## {rng.choice(_TOPICS).capitalize()}", ""]
        lines.append(
            f"- {rng.choice(_VERBS)} the {rng.choice(_WORDS)} {rng.choice(_WORDS)} before {s.fake.month_name()}"
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
    # Documents: v1/v2 report pairs for diff, meeting notes, budgets
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
    # Notes
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
    # Photos (binary) and Downloads
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


@filesystem.seed
def fill(s: Seeder) -> None:
    people = s.world.pick_people(8)
    users = [p.username for p in people]
    groups = {"root": 0, "adm": 4, "shadow": 42, "staff": 50, "users": 100, "developers": 1100}
    for i, u in enumerate(users):
        groups[u] = 1000 + i
    s.add(Group, ({"id": g, "gid": gid} for g, gid in sorted(groups.items(), key=lambda kv: kv[1])))
    user_rows = [
        {
            "id": "root",
            "full_name": "root",
            "uid": 0,
            "group_id": "root",
            "home": "/root",
            "shell": "/bin/bash",
            "is_root": True,
            "password": "toor-" + s.fake.password(length=8, special_chars=False),
        }
    ]
    for i, p in enumerate(people):
        user_rows.append(
            {
                "id": p.username,
                "full_name": p.name,
                "uid": 1000 + i,
                "group_id": p.username,
                "home": f"/home/{p.username}",
                "shell": "/bin/bash",
                "is_root": False,
                "password": s.fake.password(length=10, special_chars=False),
            }
        )
    s.add(User, user_rows)
    persona = users[0]
    membership = {
        "staff": [users[0], users[1], users[2], users[4]],
        "developers": [users[0], users[2], users[3], users[6]],
        "adm": ["root", users[4]],
        "users": users,
    }
    s.add(
        GroupMember,
        (
            {"id": f"GMB-{i:06d}", "group_id": g, "user_id": u}
            for i, (g, u) in enumerate(((g, u) for g in sorted(membership) for u in membership[g]), 1)
        ),
    )
    s.add(
        Volume,
        [
            {
                "id": ROOT_VOL,
                "mount_path": "/",
                "device": "/dev/sda1",
                "fstype": "ext4",
                "capacity_kb": 50 * 1024 * 1024,
                "read_only": False,
            },
            {
                "id": ARCHIVE_VOL,
                "mount_path": "/mnt/archive",
                "device": "/dev/sdb1",
                "fstype": "ext4",
                "capacity_kb": 20 * 1024 * 1024,
                "read_only": True,
            },
            {
                "id": USB_VOL,
                "mount_path": "/mnt/usb",
                "device": "/dev/sdc1",
                "fstype": "vfat",
                "capacity_kb": 64 * 1024,
                "read_only": False,
            },
        ],
    )
    primary = {"root": "root", **{u: u for u in users}}
    t = _Tree(s, primary)
    t.add("/", "dir", "root", 0o755)
    for d in ("/home", "/etc", "/var", "/var/log", "/srv", "/opt", "/opt/data", "/mnt"):
        t.dir(d, "root")
    t.dir("/root", "root", 0o700)
    t.file("/root/notes.txt", "root", "rotate backups monthly\nkernel upgrade scheduled\n", 0o600)
    t.file("/root/.bashrc", "root", "export PS1='# '\n", 0o600)

    # homes: the persona's is the big one; two others are private, one has a group-readable ~/shared
    for i, p in enumerate(people):
        me = i == 0
        _home(
            s,
            t,
            p.username,
            p.name,
            projects=s.count(1, 12, 90) if me else s.count(0, 3, 80),
            modules=s.count(4, 110, 150) if me else s.count(4, 20, 150),
            notes=s.count(8, 230, 600) if me else s.count(2, 40, 200),
            private=i in (3, 5),
            persona=me,
        )
    owner_shared = users[1]
    t.dir(f"/home/{owner_shared}/shared", owner_shared, 0o750, group="staff")
    for i in range(s.count(3, 8, 40)):
        t.file(
            f"/home/{owner_shared}/shared/plan-{i}.md",
            owner_shared,
            _markdown(s, "Team plan", 6),
            0o640,
            group="staff",
        )

    # /etc
    passwd = "".join(
        f"{u['id']}:x:{u['uid']}:{groups[u['group_id']]}:{u['full_name']}:{u['home']}:{u['shell']}\n"
        for u in user_rows
    )
    etc = {
        "hostname": "workstation\n",
        "hosts": "127.0.0.1 localhost\n127.0.1.1 workstation\n10.0.0.12 db.internal\n10.0.0.20 files.internal\n",
        "passwd": passwd,
        "group": "".join(
            f"{g}:x:{gid}:{','.join(membership.get(g, []))}\n" for g, gid in sorted(groups.items())
        ),
        "fstab": "/dev/sda1 / ext4 defaults 0 1\n/dev/sdb1 /mnt/archive ext4 ro 0 2\n/dev/sdc1 /mnt/usb vfat user 0 0\n",
        "resolv.conf": "nameserver 10.0.0.2\nsearch internal\n",
        "timezone": "America/Los_Angeles\n",
        "motd": "Welcome to workstation. Backups run nightly at 02:00.\n",
        "app.yaml": "server:\n  port: 8080\n  workers: 4\ndatabase:\n  host: db.internal\n  pool: 10\nlogging:\n  level: INFO\n",
        "logrotate.conf": "weekly\nrotate 4\ncreate\ncompress\n",
    }
    for name, text in etc.items():
        t.file(f"/etc/{name}", "root", text)
    t.file(
        "/etc/shadow",
        "root",
        "".join(f"{u['id']}:$6$hash:19000:0:99999:7:::\n" for u in user_rows),
        0o640,
        group="shadow",
    )
    t.file("/etc/sudoers", "root", "root ALL=(ALL) ALL\n%adm ALL=(ALL) ALL\n", 0o440)
    t.dir("/etc/ssh", "root")
    t.file("/etc/ssh/sshd_config", "root", "PermitRootLogin no\nPasswordAuthentication no\n", 0o600)
    t.dir("/etc/nginx", "root")
    t.dir("/etc/nginx/sites-available", "root")
    t.dir("/etc/nginx/sites-enabled", "root")
    t.file(
        "/etc/nginx/nginx.conf",
        "root",
        "worker_processes auto;\nevents { worker_connections 1024; }\nhttp { include sites-enabled/*; }\n",
    )
    for site in ("default", "api.conf", "shop.conf"):
        t.file(
            f"/etc/nginx/sites-available/{site}",
            "root",
            f"server {{\n  listen 80;\n  server_name {site.split('.')[0]}.internal;\n  location / {{ proxy_pass http://127.0.0.1:8080; }}\n}}\n",
        )
    t.link("/etc/nginx/sites-enabled/api.conf", "root", "../sites-available/api.conf")
    t.dir("/etc/cron.d", "root")
    t.file("/etc/cron.d/backup", "root", "0 2 * * * root /usr/local/bin/backup --to /mnt/usb\n")

    # /var/log
    lines = s.count(200, 3000, 3000)
    t.file("/var/log/app.log", "root", _log(s, lines), mtime=s.now.isoformat(timespec="seconds"))
    t.file("/var/log/app.log.1", "root", _log(s, lines // 6, days=10))
    t.file(
        "/var/log/access.log",
        "root",
        "".join(
            f'10.0.0.{s.rng.randint(2, 250)} - - [{(s.now - timedelta(minutes=k * 3)).isoformat()}] "GET /{s.rng.choice(_WORDS)} HTTP/1.1" {s.rng.choice([200] * 8 + [404, 500])} {s.rng.randint(200, 9000)}\n'
            for k in range(s.count(100, 2000, 2000))
        ),
    )
    t.file("/var/log/syslog", "root", _log(s, s.count(100, 1500, 1500)), 0o640, group="adm")
    t.file(
        "/var/log/auth.log",
        "root",
        "".join(f"session opened for user {s.rng.choice(users)}\n" for _ in range(s.count(20, 500, 500))),
        0o640,
        group="adm",
    )
    t.link("/var/log/latest.log", "root", "app.log")
    t.dir("/var/log/nginx", "root")
    t.file("/var/log/nginx/error.log", "root", _log(s, s.count(20, 300, 300)))

    # /srv/shared: setgid team directory of group staff
    t.dir("/srv/shared", "root", 0o2775, group="staff")
    staff = membership["staff"]
    for sub in ("docs", "templates", "reports", "team-notes"):
        t.dir(f"/srv/shared/{sub}", s.pick(staff), 0o2775, group="staff")
        for i in range(s.count(2, 10, 100)):
            t.file(
                f"/srv/shared/{sub}/{s.rng.choice(_TOPICS)}-{i}.md",
                s.pick(staff),
                _markdown(s, sub, 6),
                0o664,
                group="staff",
            )
    t.tar("/srv/shared/templates.tar", "root", "/srv/shared/templates", "templates")

    # /tmp: sticky, entries of many users
    t.dir("/tmp", "root", 0o1777)
    for i in range(s.count(24, 40, 300)):
        owner = s.pick(users[1:] + ["root"]) if s.chance(0.75) else persona
        kind = s.rng.choice(["log", "tmp", "txt"])
        t.file(
            f"/tmp/{s.rng.choice(['build', 'session', 'upload', 'scratch'])}-{i}.{kind}",
            owner,
            _log(s, 5, days=1),
            s.pick([0o644, 0o600, 0o664]),
        )
    t.dir(f"/tmp/{persona}-work", persona, 0o700)
    t.file(f"/tmp/{persona}-work/draft.txt", persona, "half-finished draft\n")

    # /opt/data: CSV datasets with duplicates and unsorted rows
    t.file("/opt/data/README.md", "root", "Datasets refreshed weekly. CSVs have a header row.\n")
    for i in range(s.count(10, 16, 200)):
        kind = ("sales", "people", "services")[i % 3]
        t.file(f"/opt/data/{kind}-{i:02d}.csv", "root", _csv(s, kind, s.count(30, 120, 60)))

    # /mnt/archive: read-only volume with old projects; /mnt/usb: a nearly full stick
    t.dir("/mnt/archive", "root", volume=ARCHIVE_VOL)
    t.dir("/mnt/archive/old-projects", "root")
    for i in range(s.count(1, 4, 40)):
        _project(
            s, t, f"/mnt/archive/old-projects/legacy-{s.rng.choice(_WORDS)}-{i}", persona, s.count(4, 10, 40)
        )
    first_old = next(
        p for p in t.ids if p.startswith("/mnt/archive/old-projects/legacy-") and p.count("/") == 4
    )
    t.tar("/mnt/archive/old-projects-2023.tar", "root", first_old, first_old.rsplit("/", 1)[1])
    t.dir("/mnt/usb", persona, volume=USB_VOL)
    t.dir("/mnt/usb/backups", persona)
    target = int(64 * 1024 * 1024 * 0.95)
    used, k = 2 * P.DIR_SIZE, 0
    while used < target - 3_000_000:
        size = min(s.rng.randint(1_500_000, 6_000_000), target - used)
        t.blob(f"/mnt/usb/backups/photos-{k:03d}.zip", persona, size)
        used, k = used + size, k + 1
    t.blob(f"/mnt/usb/backups/photos-{k:03d}.zip", persona, max(1, target - used - 200))
    t.file("/mnt/usb/backups/README.txt", persona, "Copies of ~/Photos. Keep free space above 2 MB.\n")

    s.add(Node, t.rows)
    s.add(ArchiveMember, ({"id": f"ARM-{i:06d}", **m} for i, m in enumerate(t.members, 1)))
    s.add(
        Session,
        [
            {
                "id": "SES-000001",
                "user_id": persona,
                "cwd_id": t.ids[f"/home/{persona}"],
                "oldpwd_id": None,
                "dir_stack": "",
                "umask": 0o022,
            }
        ],
    )


@filesystem.variant("in_project")
def in_project(db: Db) -> None:
    """The shell starts inside one of the persona's projects (``pushd ~/current`` from home, so
    ``popd`` goes back)."""
    home = db.scalar("SELECT home FROM users WHERE id = (SELECT user_id FROM sessions)")
    a = P.actor(db)
    project = P.resolve(db, a, home + "/current")
    db.set_session(cwd_id=project["id"], oldpwd_id=a.cwd_id, dir_stack=a.cwd_id)


@filesystem.variant("root_shell")
def root_shell(db: Db) -> None:
    """The shell is a root shell (after su), still in the persona's home."""
    db.set_session(user_id="root")


# -- helpers shared by the tools ------------------------------------------------------------------


def _abs(db: Db, n: dict[str, Any]) -> str:
    return P.abspath(db, n["id"])


def _kind(n: dict[str, Any]) -> str:
    return {"dir": "directory", "symlink": "symbolic link"}.get(n["kind"], "regular file")


def _entry(a: P.Actor, n: dict[str, Any], path: str, long: bool) -> dict[str, Any]:
    out: dict[str, Any] = {"name": n["name"] or "/", "path": P.display(a, path), "type": n["kind"]}
    if long:
        out.update(
            permissions=P.mode_string(n["kind"], n["mode"]),
            owner=n["owner_id"],
            group=n["group_id"],
            size=n["size_bytes"],
            modified=n["mtime"],
        )
        if n["kind"] == "symlink":
            out["target"] = n["target"]
    return out


def _read(db: Db, a: P.Actor, path: str, cmd: str, *, text: bool = True) -> dict[str, Any]:
    """A file the actor may read (following symlinks); ``text`` refuses binary files."""
    with worded(cmd + ": {path}: {reason}"):
        n = P.resolve(db, a, path)
        if n["kind"] == "dir":
            raise FsError(path, P.EISDIR)
        if not P.may(a, n, P.R):
            raise FsError(path, P.EACCES)
    if text and n["is_binary"]:
        raise ToolError(
            f"{cmd}: {path}: binary file ({n['size_bytes']} bytes); use file, wc (mode c) or md5sum"
        )
    return n


def _new_mode(a: P.Actor, kind: str) -> int:
    return (0o777 if kind == "dir" else 0o666) & ~a.umask


def _may_create(db: Db, a: P.Actor, parent: dict[str, Any], path: str) -> None:
    P.writable_volume(db, parent, path)
    if not P.may(a, parent, P.W | P.X):
        raise FsError(path, P.EACCES)


def _may_unlink(db: Db, a: P.Actor, parent: dict[str, Any], entry: dict[str, Any], path: str) -> None:
    if P.mount_point(db, entry):
        raise FsError(path, P.EBUSY)
    P.writable_volume(db, parent, path)
    if not P.may(a, parent, P.W | P.X):
        raise FsError(path, P.EACCES)
    if P.sticky_blocks(a, parent, entry):
        raise FsError(path, P.EPERM)


def _insert(
    db: Db, a: P.Actor, parent: dict[str, Any], name: str, kind: str, **values: Any
) -> dict[str, Any]:
    """Create an entry owned by the actor; under a setgid parent it takes the parent's group."""
    group = a.group
    mode = values.pop("mode", None)
    mode = _new_mode(a, kind) if mode is None else mode
    if parent["mode"] & P.SETGID:
        group = parent["group_id"]
        if kind == "dir":
            mode |= P.SETGID
    row = {
        "parent_id": parent["id"],
        "name": name,
        "kind": kind,
        "owner_id": a.user,
        "group_id": group,
        "mode": mode,
        "size_bytes": P.DIR_SIZE if kind == "dir" else 0,
        "content": None,
        "is_binary": False,
        "target": None,
        "mtime": db.stamp(),
        "volume_id": parent["volume_id"],
    }
    row.update(values)
    return db.insert(Node, **row)


def _drop_members(db: Db, node_ids: list[str]) -> None:
    for i in range(0, len(node_ids), 500):
        chunk = node_ids[i : i + 500]
        marks = ",".join("?" * len(chunk))
        db.execute(f"DELETE FROM archive_members WHERE archive_id IN ({marks})", *chunk)


def _delete(db: Db, node_ids: list[str]) -> None:
    _drop_members(db, node_ids)
    # One statement: foreign keys are checked at its end, so children and parents go together.
    db.execute("DELETE FROM nodes WHERE id IN (SELECT value FROM json_each(?))", json.dumps(node_ids))


def _cd(db: Db, a: P.Actor, path: str, cmd: str) -> dict[str, Any]:
    with worded(cmd + ": {path}: {reason}"):
        n = P.resolve(db, a, path)
        if n["kind"] != "dir":
            raise FsError(path, P.ENOTDIR)
        if not P.may(a, n, P.X):
            raise FsError(path, P.EACCES)
    return n


def _tilde(a: P.Actor, path: str) -> str:
    """Paths the way bash's dirs prints them: the home directory abbreviated to ~."""
    if path == a.home or path.startswith(a.home + "/"):
        return "~" + path[len(a.home) :]
    return path


def _stack(db: Db) -> list[str]:
    raw = db.session()["dir_stack"]
    return [x for x in raw.split(",") if x] if raw else []


def _dest(
    db: Db, a: P.Actor, src: dict[str, Any], destination: str
) -> tuple[dict[str, Any], str, dict[str, Any] | None, str]:
    """Where mv/cp/ln put ``src``: inside ``destination`` if it is a directory, else at that path.

    Returns the parent directory, the new name, what exists there now and the new absolute path."""
    try:
        d = P.resolve(db, a, destination)
    except FsError:
        d = None
    if d is not None and d["kind"] == "dir":
        if not P.may(a, d, P.X):
            raise FsError(destination, P.EACCES)
        parent, name = d, src["name"]
        existing = P.child(db, d["id"], name)
    else:
        parent, name, existing = P.resolve_new(db, a, destination)
    return parent, name, existing, P.join(_abs(db, parent), name)


def _inside(db: Db, maybe_child: dict[str, Any], ancestor: dict[str, Any]) -> bool:
    cur: dict[str, Any] | None = maybe_child
    while cur is not None:
        if cur["id"] == ancestor["id"]:
            return True
        cur = P.node(db, cur["parent_id"])
    return False


# -- the shell ----------------------------------------------------------------------------------


@filesystem.tool(says=["where am I?", "what is the current directory?", "print the working directory"])
def pwd(db: Db) -> dict:
    """Print the absolute path of the working directory."""
    a = P.actor(db)
    if a.cwd is None:
        raise ToolError(
            "pwd: error retrieving current directory: No such file or directory (it was removed; cd elsewhere)"
        )
    return {"cwd": a.cwd}


@filesystem.tool(
    writes=[Session],
    returns=Node,
    idempotent=True,
    says=["go to {path}", "cd into {path}", "change directory to {path}", "open the folder {path}"],
)
def cd(db: Db, path: PathRef[Node, SUBDIR] | None = None) -> dict:
    """Change the working directory. Relative paths start at the current directory.

    Accepts absolute paths, ``..`` and ``.``, multi-level paths (``Projects/app/src``), ``~``,
    ``~user`` and ``-`` (the previous directory). Symlinks are followed and the new directory is
    the physical one. Without a path, go home.

    Args:
        path: The directory to enter; omit it to go to your home directory.
    """
    a = P.actor(db)
    if path == "-":
        old = db.session()["oldpwd_id"]
        if not old:
            raise ToolError("cd: OLDPWD not set")
        if P.node(db, old) is None:
            raise ToolError("cd: -: No such file or directory (the previous directory was removed)")
        path = P.abspath(db, old)
    n = _cd(db, a, path or a.home, "cd")
    db.set_session(cwd_id=n["id"], oldpwd_id=a.cwd_id)
    return {"cwd": _abs(db, n), "previous": a.cwd}


@filesystem.tool(
    writes=[Session],
    returns=Node,
    says=["pushd {path}", "switch to {path} but remember where I am now"],
)
def pushd(db: Db, path: PathRef[Node, SUBDIR]) -> dict:
    """Change to a directory and push the current one on the directory stack (see popd, dirs).

    Args:
        path: The directory to enter.
    """
    a = P.actor(db)
    n = _cd(db, a, path, "pushd")
    stack = [a.cwd_id, *_stack(db)]
    if len(stack) > 20:
        raise ToolError("pushd: directory stack full (20 entries); popd first")
    db.set_session(cwd_id=n["id"], oldpwd_id=a.cwd_id, dir_stack=",".join(stack))
    return {"cwd": _abs(db, n), "stack": [_tilde(a, P.abspath(db, i)) for i in stack if P.node(db, i)]}


@filesystem.tool(writes=[Session], returns=Node, says=["popd", "go back to the directory I pushed"])
def popd(db: Db) -> dict:
    """Pop the top of the directory stack and change to it."""
    a = P.actor(db)
    stack = _stack(db)
    if not stack:
        raise ToolError("popd: directory stack empty")
    top = P.node(db, stack[0])
    if top is None:
        raise ToolError("popd: the directory on top of the stack was removed: No such file or directory")
    n = _cd(db, a, P.abspath(db, top["id"]), "popd")
    db.set_session(cwd_id=n["id"], oldpwd_id=a.cwd_id, dir_stack=",".join(stack[1:]))
    return {"cwd": _abs(db, n), "stack": [_tilde(a, P.abspath(db, i)) for i in stack[1:] if P.node(db, i)]}


@filesystem.tool(says=["show the directory stack", "what directories have I pushed?"])
def dirs(db: Db) -> dict:
    """Show the directory stack: the working directory first, then the pushed directories."""
    a = P.actor(db)
    shown = [a.cwd or "(removed)"] + [P.abspath(db, i) if P.node(db, i) else "(removed)" for i in _stack(db)]
    return {"stack": [_tilde(a, p) for p in shown]}


def _identity(db: Db, user: dict[str, Any]) -> dict:
    groups = db.all(
        "SELECT g.id AS name, g.gid FROM groups g WHERE g.id = ? OR g.id IN "
        "(SELECT group_id FROM group_members WHERE user_id = ?) ORDER BY g.gid",
        user["group_id"],
        user["id"],
    )
    gid = db.scalar("SELECT gid FROM groups WHERE id = ?", user["group_id"])
    return {"user": user["id"], "uid": user["uid"], "group": user["group_id"], "gid": gid, "groups": groups}


@filesystem.tool(returns=User, says=["who am I logged in as?", "whoami", "what's my user and umask?"])
def whoami(db: Db) -> dict:
    """The acting user: name, uid, groups, home, umask and working directory."""
    a = P.actor(db)
    u = db.get(User, a.user)
    return {**_identity(db, u), "home": u["home"], "umask": f"{a.umask:04o}", "cwd": a.cwd}


@filesystem.tool(
    name="id", returns=User, says=["what groups is {user} in?", "show the uid and groups of {user}"]
)
def id_(db: Db, user: Ref[User] | None = None) -> dict:
    """The uid, primary group and groups of a user (the acting user by default).

    Args:
        user: A user name, e.g. root; omit it for yourself.
    """
    name = user or P.actor(db).user
    u = db.find(User, name)
    if u is None:
        raise ToolError(f"id: '{name}': no such user")
    return _identity(db, u)


@filesystem.tool(
    writes=[Session],
    returns=User,
    idempotent=True,
    says=["switch to user {user} with password {password}", "su {user}, the password is {password}"],
)
def su(
    db: Db, user: Ref[User], password: Annotated[str, Sensitive(), Field(max_length=200)] | None = None
) -> dict:
    """Switch the acting user. Root needs no password; everyone else must give the target's password.

    The working directory stays where it is.

    Args:
        user: The user name to become, e.g. root.
        password: That user's password.
    """
    a = P.actor(db)
    u = db.find(User, user)
    if u is None:
        raise ToolError(f"su: user {user} does not exist")
    if not a.root and password != u["password"]:
        raise ToolError("su: Authentication failure")
    db.set_session(user_id=u["id"])
    return {**_identity(db, u), "home": u["home"]}


@filesystem.tool(
    writes=[Session],
    idempotent=True,
    says=["set my umask to {mask}", "make new files private with umask {mask}"],
)
def umask(db: Db, mask: Umask) -> dict:
    """Set the file creation mask: new files get 666 and new directories 777 minus these bits.

    Args:
        mask: Three octal digits, e.g. 022 (files rw-r--r--) or 077 (private).
    """
    value = int(mask, 8)
    db.set_session(umask=value)
    return {
        "umask": f"{value:04o}",
        "new_files": P.mode_string("file", 0o666 & ~value),
        "new_directories": P.mode_string("dir", 0o777 & ~value),
    }


# -- looking around ------------------------------------------------------------------------------


@filesystem.tool(
    returns=Node,
    says=[
        "list the files in {path}",
        "what's in {path}?",
        "ls",
        "show everything in {path} including hidden files",
    ],
)
def ls(
    db: Db,
    path: PathRef[Node, DIR] | None = None,
    all: bool = False,
    long: bool = False,
    sort: Literal["name", "size", "mtime"] = "name",
    reverse: bool = False,
    limit: PageSize = 50,
    offset: Offset = 0,
) -> dict:
    """List a directory (the working directory by default), or describe one file.

    Args:
        path: The directory or file; relative paths start at the working directory.
        all: Include hidden entries (names starting with a dot).
        long: Also show permissions, owner, group, size and modification time.
        sort: Order by name, size (largest first) or mtime (newest first).
        reverse: Reverse the order.
        limit: Entries per page.
        offset: Entries to skip, for paging.
    """
    a = P.actor(db)
    shown = path or "."
    with worded("ls: cannot access '{path}': {reason}"):
        n = P.resolve(db, a, shown)
    here = _abs(db, n)
    if n["kind"] != "dir":
        return {
            "path": P.display(a, here),
            "entries": [_entry(a, n, here, long)],
            "total": 1,
            "truncated": False,
        }
    if not P.may(a, n, P.R):
        raise ToolError(f"ls: cannot open directory '{shown}': Permission denied")
    order = {"name": "name", "size": "size_bytes DESC, name", "mtime": "mtime DESC, name"}[sort]
    if reverse:
        order = {"name": "name DESC", "size": "size_bytes, name DESC", "mtime": "mtime, name DESC"}[sort]
    hidden = "" if all else "AND name NOT LIKE '.%'"
    sql = f"SELECT * FROM nodes WHERE parent_id = ? {hidden} ORDER BY {order}"
    total = db.scalar(f"SELECT count(*) FROM nodes WHERE parent_id = ? {hidden}", n["id"])
    rows = db.all(f"{sql} LIMIT ? OFFSET ?", n["id"], limit, offset)
    return {
        "path": P.display(a, here),
        "entries": [_entry(a, r, P.join(here, r["name"]), long) for r in rows],
        "total": total,
        "offset": offset,
        "truncated": offset + len(rows) < total,
    }


@filesystem.tool(
    returns=Node,
    says=["show the tree of {path}", "draw the folder structure under {path} {depth} levels deep"],
)
def tree(
    db: Db,
    path: PathRef[Node, DIR] | None = None,
    depth: Annotated[int, Field(ge=1, le=5)] = 2,
    all: bool = False,
) -> dict:
    """Show a directory and its contents as an indented tree (at most 500 lines).

    Args:
        path: The top directory (default: the working directory).
        depth: How many levels to descend (1-5).
        all: Include hidden entries.
    """
    a = P.actor(db)
    shown = path or "."
    with worded("tree: {path}: {reason}"):
        n = P.resolve(db, a, shown)
        if n["kind"] != "dir":
            raise FsError(shown, P.ENOTDIR)
    items, denied = P.walk(db, a, n, _abs(db, n), max_depth=depth, hidden=all)
    lines = [shown]
    for row, p, d in items[1:]:
        suffix = f" -> {row['target']}" if row["kind"] == "symlink" else ("/" if row["kind"] == "dir" else "")
        err = "  [error opening dir]" if p in denied else ""
        lines.append("    " * (d - 1) + "|-- " + row["name"] + suffix + err)
    dirs_n = sum(1 for r, _, d in items[1:] if r["kind"] == "dir")
    return {
        "tree": "\n".join(lines[:500]),
        "directories": dirs_n,
        "files": len(items) - 1 - dirs_n,
        "truncated": len(lines) > 500,
    }


@filesystem.tool(
    returns=Node,
    says=["show the details of {path}", "who owns {path} and what are its permissions?", "stat {path}"],
)
def stat(db: Db, path: PathRef[Node, MINE_HERE], follow: bool = False) -> dict:
    """Type, size, permissions (octal and rwx), owner, group, modification time and link target.

    Args:
        path: The file, directory or symlink.
        follow: Describe what a symlink points to instead of the link itself.
    """
    a = P.actor(db)
    with worded("stat: cannot stat '{path}': {reason}"):
        n = P.resolve(db, a, path, follow=follow)
    v = P.volume(db, n["volume_id"])
    out = {
        "path": P.display(a, _abs(db, n)),
        "type": _kind(n),
        "size": n["size_bytes"],
        "mode": P.octal(n["mode"]),
        "permissions": P.mode_string(n["kind"], n["mode"]),
        "owner": n["owner_id"],
        "uid": db.scalar("SELECT uid FROM users WHERE id = ?", n["owner_id"]),
        "group": n["group_id"],
        "gid": db.scalar("SELECT gid FROM groups WHERE id = ?", n["group_id"]),
        "modified": n["mtime"],
        "mount": v["mount_path"],
    }
    if n["kind"] == "symlink":
        out["target"] = n["target"]
    return out


@filesystem.tool(
    returns=Node, says=["what is the full path of {path}?", "resolve {path} to an absolute path"]
)
def realpath(db: Db, path: PathRef[Node, MINE_HERE]) -> dict:
    """The absolute path with every symlink, ``.`` and ``..`` resolved.

    Args:
        path: Any existing path.
    """
    a = P.actor(db)
    with worded("realpath: {path}: {reason}"):
        n = P.resolve(db, a, path)
    return {"path": path, "realpath": _abs(db, n)}


@filesystem.tool(returns=Node, says=["where does the link {path} point?", "readlink {path}"])
def readlink(db: Db, path: PathRef[Node, LINK]) -> dict:
    """The target a symbolic link points to, exactly as stored (it may dangle).

    Args:
        path: The symbolic link.
    """
    a = P.actor(db)
    with worded("readlink: {path}: {reason}"):
        n = P.resolve(db, a, path, follow=False)
    if n["kind"] != "symlink":
        raise ToolError(f"readlink: {path}: Invalid argument (not a symbolic link)")
    return {"path": path, "target": n["target"]}


@filesystem.tool(says=["how much space does {path} take?", "disk usage of {path} in human-readable form"])
def du(
    db: Db,
    path: PathRef[Node, DIR] | None = None,
    human_readable: bool = False,
    max_depth: Annotated[int, Field(ge=0, le=5)] = 0,
) -> dict:
    """Disk usage (apparent size in bytes) of a file or directory tree, with per-directory totals.

    Args:
        path: What to measure (default: the working directory).
        human_readable: Sizes like 4.0K, 12M instead of bytes.
        max_depth: Also list subdirectories down to this depth (0: only the total).
    """
    a = P.actor(db)
    shown = path or "."
    with worded("du: cannot access '{path}': {reason}"):
        n = P.resolve(db, a, shown)
    top = _abs(db, n)
    items, denied = P.walk(db, a, n, top)
    totals: dict[str, int] = {}
    for row, p, _ in items:
        totals[p] = totals.get(p, 0) + row["size_bytes"]
        parent = p
        while parent != top:
            parent = parent.rsplit("/", 1)[0] or "/"
            totals[parent] = totals.get(parent, 0) + row["size_bytes"]
    fmt = P.human if human_readable else (lambda x: x)
    entries = [
        {"path": P.display(a, p), "size": fmt(totals[p])}
        for row, p, d in items
        if row["kind"] == "dir" and 0 < d <= max_depth
    ]
    return {
        "path": shown,
        "total": fmt(totals[top]),
        "entries": entries[:200],
        "errors": [f"du: cannot read directory '{P.display(a, p)}': Permission denied" for p in denied][:50],
    }


@filesystem.tool(says=["how much free space is left on the disks?", "is the USB stick full?", "df -h"])
def df(db: Db, human_readable: bool = True) -> dict:
    """Capacity, used and free space of every mounted volume.

    Args:
        human_readable: Sizes like 61M instead of kilobytes.
    """
    out = []
    for v in db.all("SELECT * FROM volumes ORDER BY mount_path"):
        cap, used = v["capacity_kb"] * 1024, P.used_bytes(db, v["id"])
        fmt = P.human if human_readable else (lambda x: -(-x // 1024))
        out.append(
            {
                "filesystem": v["device"],
                "mounted_on": v["mount_path"],
                "type": v["fstype"],
                "size": fmt(cap),
                "used": fmt(used),
                "available": fmt(max(0, cap - used)),
                "use_percent": round(100 * used / cap) if cap else 0,
                "read_only": bool(v["read_only"]),
            }
        )
    return {"units": "human" if human_readable else "KB", "volumes": out}


_BINARY_TYPES = {
    "jpg": "JPEG image data",
    "jpeg": "JPEG image data",
    "png": "PNG image data",
    "pdf": "PDF document, version 1.7",
    "zip": "Zip archive data, at least v2.0 to extract",
    "img": "DOS/MBR boot sector",
    "gz": "gzip compressed data",
}


@filesystem.tool(says=["what kind of file is {path}?", "is {path} text or binary?"])
def file(db: Db, path: PathRef[Node, MINE_HERE]) -> dict:
    """Guess a file's type: directory, symlink, empty, text (Python, CSV, ...), tar archive, image, data.

    Args:
        path: The file to inspect.
    """
    a = P.actor(db)
    with worded("file: {path}: {reason}"):
        n = P.resolve(db, a, path, follow=False)
    ext = n["name"].rsplit(".", 1)[-1].lower() if "." in n["name"] else ""
    if n["kind"] == "dir":
        kind = "directory"
    elif n["kind"] == "symlink":
        kind = f"symbolic link to {n['target']}"
    elif not P.may(a, n, P.R):
        kind = "regular file, no read permission"
    elif n["size_bytes"] == 0:
        kind = "empty"
    elif n["is_binary"]:
        if db.scalar("SELECT 1 FROM archive_members WHERE archive_id = ? LIMIT 1", n["id"]):
            kind = "POSIX tar archive (GNU)"
        else:
            kind = _BINARY_TYPES.get(ext, "data")
    else:
        body = n["content"] or ""
        charset = "ASCII text" if body.isascii() else "Unicode text, UTF-8 text"
        kind = {
            "py": f"Python script, {charset}",
            "sh": f"POSIX shell script, {charset} executable",
            "csv": f"CSV {charset}",
            "json": "JSON text data",
        }.get(ext, charset)
    return {"path": path, "type": kind}


# -- reading files -----------------------------------------------------------------------------


@filesystem.tool(
    returns=Node, says=["show me {path}", "what does {path} say?", "cat {path}", "read the file {path}"]
)
def cat(db: Db, path: PathRef[Node, TEXT]) -> dict:
    """The contents of a text file (cut at 8,000 characters; use head/tail or grep for the rest).

    Args:
        path: The file to print.
    """
    a = P.actor(db)
    n = _read(db, a, path, "cat")
    return {"path": path, **db.clip(n["content"] or "", hint="use head, tail or grep")}


def _lines(n: dict[str, Any]) -> list[str]:
    return (n["content"] or "").splitlines()


@filesystem.tool(says=["show the first {lines} lines of {path}", "head {path}"])
def head(db: Db, path: PathRef[Node, TEXT], lines: Lines = 10) -> dict:
    """The first lines of a text file.

    Args:
        path: The file.
        lines: How many lines (default 10).
    """
    n = _read(db, P.actor(db), path, "head")
    body = _lines(n)
    return {"path": path, "lines": len(body[:lines]), **db.clip("\n".join(body[:lines]))}


@filesystem.tool(
    says=["show the last {lines} lines of {path}", "tail {path}", "what are the latest entries in {path}?"]
)
def tail(db: Db, path: PathRef[Node, TEXT], lines: Lines = 10) -> dict:
    """The last lines of a text file (log files end with the newest entries).

    Args:
        path: The file.
        lines: How many lines (default 10).
    """
    n = _read(db, P.actor(db), path, "tail")
    body = _lines(n)
    part = body[-lines:]
    return {
        "path": path,
        "lines": len(part),
        "first_line": len(body) - len(part) + 1,
        **db.clip("\n".join(part)),
    }


@filesystem.tool(says=["how many lines are in {path}?", "count the words in {path}", "wc {path}"])
def wc(db: Db, path: PathRef[Node, READABLE], mode: Literal["l", "w", "c", "all"] = "all") -> dict:
    """Count lines, words and bytes of a file (binary files: bytes only).

    Args:
        path: The file.
        mode: l (lines), w (words), c (bytes) or all.
    """
    n = _read(db, P.actor(db), path, "wc", text=False)
    if n["is_binary"] and mode in ("l", "w", "all"):
        if mode != "all":
            raise ToolError(f"wc: {path}: binary file; only the byte count (mode c) is available")
        return {"path": path, "bytes": n["size_bytes"]}
    body = n["content"] or ""
    counts = {"lines": body.count("\n"), "words": len(body.split()), "bytes": n["size_bytes"]}
    keep = {"l": ["lines"], "w": ["words"], "c": ["bytes"], "all": list(counts)}[mode]
    return {"path": path, **{k: counts[k] for k in keep}}


@filesystem.tool(
    returns=Node,
    says=[
        "find the lines with '{pattern}' in {path}",
        "grep for {pattern} in {path}",
        "search {path} recursively for '{pattern}'",
    ],
)
def grep(
    db: Db,
    pattern: ShortText,
    path: PathRef[Node, TEXT],
    recursive: bool = False,
    ignore_case: bool = False,
    fixed_string: bool = False,
    count_only: bool = False,
    limit: PageSize = 50,
) -> dict:
    """Lines matching a regular expression (or a literal string), with file paths and line numbers.

    Args:
        pattern: A Python regular expression, or plain text with fixed_string.
        path: A file, or a directory with recursive.
        recursive: Search every readable file below a directory.
        ignore_case: Match regardless of case.
        fixed_string: Treat the pattern as literal text.
        count_only: Only the number of matching lines per file.
        limit: Maximum matching lines to return.
    """
    a = P.actor(db)
    try:
        rx = re.compile(re.escape(pattern) if fixed_string else pattern, re.IGNORECASE if ignore_case else 0)
    except re.error as exc:
        raise ToolError(f"grep: invalid regular expression {pattern!r}: {exc}") from None
    with worded("grep: {path}: {reason}"):
        n = P.resolve(db, a, path)
    if n["kind"] == "dir":
        if not recursive:
            raise ToolError(f"grep: {path}: Is a directory (use recursive to search inside)")
        items, denied = P.walk(db, a, n, _abs(db, n), content=True)
        files = [(r, p) for r, p, _ in items if r["kind"] == "file"]
    else:
        n = _read(db, a, path, "grep", text=False)
        files, denied = [(n, _abs(db, n))], []
    matches, counts, errors, total = [], [], [], 0
    for r, p in files:
        shown = P.display(a, p)
        if not P.may(a, r, P.R):
            errors.append(f"grep: {shown}: Permission denied")
            continue
        if r["is_binary"]:
            continue
        hits = 0
        for i, line in enumerate((r["content"] or "").splitlines(), 1):
            if rx.search(line):
                hits += 1
                total += 1
                if not count_only and len(matches) < limit:
                    matches.append({"path": shown, "line": i, "text": line[:500]})
        if count_only and hits:
            counts.append({"path": shown, "count": hits})
    errors += [f"grep: {P.display(a, p)}: Permission denied" for p in denied]
    out: dict[str, Any] = {"pattern": pattern, "total": total}
    if count_only:
        out["counts"] = counts[:limit]
        out["truncated"] = len(counts) > limit
    else:
        out["matches"] = matches
        out["truncated"] = total > len(matches)
    if errors:
        out["errors"] = errors[:20]
    return out


@filesystem.tool(
    returns=Node,
    says=[
        "find all files named {name} under {path}",
        "find directories in {path}",
        "which files in {path} are bigger than {min_size} bytes?",
    ],
)
def find(
    db: Db,
    path: PathRef[Node, DIR] | None = None,
    name: Annotated[str, Field(min_length=1, max_length=200, examples=["*.py", "README*", "*.csv"])]
    | None = None,
    type: Literal["f", "d", "l"] | None = None,
    min_size: Annotated[int, Field(ge=0)] | None = None,
    max_size: Annotated[int, Field(ge=0)] | None = None,
    modified_within_days: Annotated[int, Field(ge=1, le=3650)] | None = None,
    owner: Ref[User] | None = None,
    limit: PageSize = 50,
    offset: Offset = 0,
) -> dict:
    """Search a directory tree (the working directory by default) by name, type, size, age and owner.

    Args:
        path: Where to start.
        name: A shell glob for the entry name, e.g. *.py or report-??.md.
        type: f (files), d (directories) or l (symlinks).
        min_size: At least this many bytes.
        max_size: At most this many bytes.
        modified_within_days: Changed in the last N days.
        owner: Only entries owned by this user name.
        limit: Results per page.
        offset: Results to skip, for paging.
    """
    a = P.actor(db)
    shown = path or "."
    with worded("find: '{path}': {reason}"):
        n = P.resolve(db, a, shown)
    since = (db.now - timedelta(days=modified_within_days)).isoformat() if modified_within_days else None
    kinds = {"f": "file", "d": "dir", "l": "symlink"}
    items, denied = P.walk(db, a, n, _abs(db, n))
    found = [
        (r, p)
        for r, p, _ in items
        if (name is None or fnmatch.fnmatchcase(r["name"] or "/", name))
        and (type is None or r["kind"] == kinds[type])
        and (min_size is None or r["size_bytes"] >= min_size)
        and (max_size is None or r["size_bytes"] <= max_size)
        and (since is None or r["mtime"] >= since)
        and (owner is None or r["owner_id"] == owner)
    ]
    page = found[offset : offset + limit]
    out: dict[str, Any] = {
        "entries": [
            {
                "path": P.display(a, p),
                "name": r["name"],
                "type": r["kind"],
                "size": r["size_bytes"],
                "modified": r["mtime"],
            }
            for r, p in page
        ],
        "total": len(found),
        "offset": offset,
        "truncated": offset + len(page) < len(found),
    }
    if denied:
        out["errors"] = [f"find: '{P.display(a, p)}': Permission denied" for p in denied[:20]]
    return out


@filesystem.tool(says=["compare {path_a} and {path_b}", "what changed between {path_a} and {path_b}?"])
def diff(db: Db, path_a: PathRef[Node, TEXT], path_b: PathRef[Node, TEXT]) -> dict:
    """Line differences between two files, as a unified diff.

    Args:
        path_a: The original file.
        path_b: The changed file.
    """
    a = P.actor(db)
    x = _read(db, a, path_a, "diff", text=False)
    y = _read(db, a, path_b, "diff", text=False)
    if x["is_binary"] or y["is_binary"]:
        same = x["content"] == y["content"]
        return {"identical": same, "diff": "" if same else f"Binary files {path_a} and {path_b} differ"}
    lines = list(difflib.unified_diff(_lines(x), _lines(y), fromfile=path_a, tofile=path_b, lineterm=""))
    return {"identical": not lines, **db.clip("\n".join(lines))}


@filesystem.tool(
    says=[
        "sort the lines of {path}",
        "sort {path} by column {field} numerically",
        "sorted unique lines of {path}",
    ]
)
def sort(
    db: Db,
    path: PathRef[Node, CSV],
    reverse: bool = False,
    numeric: bool = False,
    unique: bool = False,
    field: Annotated[int, Field(ge=1, le=50)] | None = None,
    delimiter: Literal[",", ";", "|", "tab", "space"] = ",",
    header: bool = False,
) -> dict:
    """The lines of a text file, sorted (the file itself is not changed).

    Args:
        path: The file.
        reverse: Largest first.
        numeric: Compare as numbers (non-numbers count as 0).
        unique: Drop repeated lines.
        field: Sort by this 1-based column instead of the whole line.
        delimiter: What separates columns when field is given.
        header: Keep the first line (a CSV header) on top.
    """
    n = _read(db, P.actor(db), path, "sort")
    body = _lines(n)
    top, body = (body[:1], body[1:]) if header else ([], body)
    sep = {"tab": "\t", "space": " "}.get(delimiter, delimiter)

    def key(line: str) -> Any:
        value = line
        if field is not None:
            parts = line.split(sep)
            value = parts[field - 1] if field <= len(parts) else ""
        if numeric:
            try:
                return (float(value.strip()), line)
            except ValueError:
                return (0.0, line)
        return (value, line)

    if unique:
        body = list(dict.fromkeys(body))
    body.sort(key=key, reverse=reverse)
    return {"path": path, "lines": len(top) + len(body), **db.clip("\n".join(top + body))}


@filesystem.tool(says=["remove adjacent duplicate lines from {path}", "count repeated lines in {path}"])
def uniq(db: Db, path: PathRef[Node, TEXT], count: bool = False) -> dict:
    """Collapse runs of identical adjacent lines (sort first to catch all duplicates).

    Args:
        path: The file.
        count: Prefix each line with how many times it repeated.
    """
    n = _read(db, P.actor(db), path, "uniq")
    runs: list[list[Any]] = []
    for line in _lines(n):
        if runs and runs[-1][1] == line:
            runs[-1][0] += 1
        else:
            runs.append([1, line])
    text = "\n".join(f"{c:7d} {line}" if count else line for c, line in runs)
    return {"path": path, "lines": len(runs), **db.clip(text)}


@filesystem.tool(says=["what is the md5 checksum of {path}?", "md5sum {path}"])
def md5sum(db: Db, path: PathRef[Node, READABLE]) -> dict:
    """The MD5 checksum of a file's bytes (equal files have equal sums).

    Args:
        path: The file.
    """
    n = _read(db, P.actor(db), path, "md5sum", text=False)
    return {"path": path, "md5": hashlib.md5((n["content"] or "").encode("utf-8")).hexdigest()}


# -- changing files ------------------------------------------------------------------------------


@filesystem.tool(writes=[Node], returns=Node, says=["create an empty file {path}", "touch {path}"])
def touch(db: Db, path: NewPath) -> dict:
    """Create an empty file, or set an existing one's modification time to now.

    Args:
        path: The file to create or touch.
    """
    a = P.actor(db)
    with worded("touch: cannot touch '{path}': {reason}"):
        parent, name, existing = P.resolve_new(db, a, path)
        if existing is not None and existing["kind"] == "symlink":
            existing = P.resolve(db, a, path)
        if existing is not None:
            P.writable_volume(db, existing, path)
            if not (existing["owner_id"] == a.user or P.may(a, existing, P.W)):
                raise FsError(path, P.EACCES)
            db.update(Node, existing["id"], mtime=db.stamp())
            return {"path": path, "created": False, "modified": db.stamp()}
        _may_create(db, a, parent, path)
    n = _insert(db, a, parent, name, "file", content="")
    return {
        "path": path,
        "created": True,
        "permissions": P.mode_string("file", n["mode"]),
        "modified": n["mtime"],
    }


@filesystem.tool(
    writes=[Node],
    returns=Node,
    says=["make a folder called {path}", "create the directory {path}", "mkdir -p {path}"],
)
def mkdir(db: Db, path: NewPath, parents: bool = False) -> dict:
    """Create a directory (mode 777 minus the umask).

    Args:
        path: The directory to create.
        parents: Also create missing parent directories, and do not fail if it already exists.
    """
    a = P.actor(db)
    template = "mkdir: cannot create directory '{path}': {reason}"
    if not parents:
        with worded(template):
            parent, name, existing = P.resolve_new(db, a, path)
            if existing is not None:
                raise FsError(path, P.EEXIST)
            _may_create(db, a, parent, path)
            P.check_space(db, parent["volume_id"], P.DIR_SIZE, path)
        n = _insert(db, a, parent, name, "dir")
        return {"created": [path], "permissions": P.mode_string("dir", n["mode"])}
    # mkdir -p: find the deepest existing prefix, then create the rest
    with worded(template):
        base = P.resolve(db, a, "/" if path.startswith("/") else ".")
        parts = path.split("/")
        missing: list[str] = []
        for i, comp in enumerate(parts):
            if comp in ("", "."):
                continue
            if missing:
                if comp == "..":
                    raise FsError(path, P.ENOENT)
                P.check_name(path, comp)
                missing.append(comp)
                continue
            prefix = "/".join(parts[: i + 1])
            try:
                n = P.resolve(db, a, prefix)
            except FsError as exc:
                if exc.reason != P.ENOENT or comp == "..":
                    raise FsError(prefix, exc.reason) from None
                P.check_name(path, comp)
                missing = [comp]
                continue
            if n["kind"] != "dir":
                raise FsError(prefix, P.ENOTDIR if any(parts[i + 1 :]) else P.EEXIST)
            base = n
        if missing:
            _may_create(db, a, base, path)
            P.check_space(db, base["volume_id"], P.DIR_SIZE * len(missing), path)
    created, cur_dir, where = [], base, _abs(db, base)
    for k, comp in enumerate(missing):
        last = k == len(missing) - 1
        # intermediate directories stay usable (u+wx) whatever the umask, as POSIX says
        cur_dir = _insert(db, a, cur_dir, comp, "dir", mode=None if last else _new_mode(a, "dir") | 0o300)
        where = P.join(where, comp)
        created.append(P.display(a, where))
    return {"created": created, "existed": not created}


@filesystem.tool(
    writes=[Node, ArchiveMember],
    returns=Node,
    says=[
        "write '{text}' to {path}",
        "append '{text}' to {path}",
        "say {text}",
        "add the line '{text}' at the end of {path}",
    ],
)
def echo(db: Db, text: Text, path: PathRef[Node, WRITABLE_TEXT] | None = None, append: bool = False) -> dict:
    """Print text, or write it to a file followed by a newline (like ``echo text > path`` or ``>> path``).

    The file is created if it does not exist; otherwise it is overwritten, or appended to with append.

    Args:
        text: The text (up to 100,000 characters).
        path: The file to write; omit it to just print the text.
        append: Add to the end of the file instead of replacing it.
    """
    if path is None:
        return {"output": text}
    a = P.actor(db)
    data = text + "\n"
    with worded("echo: {path}: {reason}"):
        parent, name, existing = P.resolve_new(db, a, path)
        if existing is not None and existing["kind"] == "symlink":
            existing = P.resolve(db, a, path)
        if existing is not None:
            if existing["kind"] == "dir":
                raise FsError(path, P.EISDIR)
            P.writable_volume(db, existing, path)
            if not P.may(a, existing, P.W):
                raise FsError(path, P.EACCES)
            if append and existing["is_binary"]:
                raise ToolError(f"echo: {path}: is a binary file; appending text to it is not supported")
            body = (existing["content"] or "") + data if append else data
            size = len(body.encode())
            P.check_space(db, existing["volume_id"], size - existing["size_bytes"], path)
            _drop_members(db, [existing["id"]])
            db.update(Node, existing["id"], content=body, size_bytes=size, is_binary=False, mtime=db.stamp())
            return {"path": path, "created": False, "bytes_written": len(data.encode()), "size": size}
        _may_create(db, a, parent, path)
        P.check_space(db, parent["volume_id"], len(data.encode()), path)
    n = _insert(db, a, parent, name, "file", content=data, size_bytes=len(data.encode()))
    return {"path": path, "created": True, "bytes_written": n["size_bytes"], "size": n["size_bytes"]}


@filesystem.tool(
    writes=[Node],
    returns=Node,
    says=["replace '{old}' with '{new}' in {path}", "in {path} change {old} to {new}"],
)
def replace_in_file(
    db: Db,
    path: PathRef[Node, WRITABLE_TEXT],
    old: Annotated[str, Field(min_length=1, max_length=4000, examples=["TODO", "debug: true", "v1"])],
    new: Annotated[str, Field(max_length=4000, examples=["DONE", "debug: false", "v2"])],
    count: Annotated[int, Field(ge=1, le=10_000)] | None = None,
) -> dict:
    """Replace literal text in a file (like ``sed -i 's/old/new/g'`` without regular expressions).

    Args:
        path: The text file to edit.
        old: The exact text to find.
        new: What to put instead (may be empty to delete).
        count: Replace only the first N occurrences (default: all).
    """
    a = P.actor(db)
    n = _read(db, a, path, "replace_in_file")
    with worded("replace_in_file: {path}: {reason}"):
        P.writable_volume(db, n, path)
        if not P.may(a, n, P.W):
            raise FsError(path, P.EACCES)
    body = n["content"] or ""
    found = body.count(old)
    if not found:
        raise ToolError(f"replace_in_file: {old!r} does not occur in {path}; nothing was changed")
    done = min(found, count) if count else found
    body = body.replace(old, new, done)
    size = len(body.encode())
    with worded("replace_in_file: {path}: {reason}"):
        P.check_space(db, n["volume_id"], size - n["size_bytes"], path)
    db.update(Node, n["id"], content=body, size_bytes=size, mtime=db.stamp())
    return {"path": path, "replacements": done, "size": size}


@filesystem.tool(
    writes=[Node, ArchiveMember],
    destructive=True,
    says=["delete {path}", "remove the file {path}", "delete the folder {path} and everything in it"],
)
def rm(db: Db, path: PathRef[Node, ENTRY], recursive: bool = False, force: bool = False) -> dict:
    """Remove a file or symlink, or a whole directory tree with recursive. A symlink is removed, not its target.

    The whole removal is checked first: if any part of a tree cannot be removed, nothing is.

    Args:
        path: What to remove.
        recursive: Required to remove directories and their contents.
        force: Do not fail when the path does not exist.
    """
    a = P.actor(db)
    template = "rm: cannot remove '{path}': {reason}"
    if path.rstrip("/").rsplit("/", 1)[-1] in (".", ".."):
        raise ToolError(f"rm: refusing to remove '.' or '..' directory: skipping '{path}'")
    try:
        n = P.resolve(db, a, path, follow=False)
    except FsError as exc:
        if force and exc.reason == P.ENOENT:
            return {"removed": [], "count": 0}
        raise ToolError(template.format(path=path, reason=exc.reason)) from None
    if n["parent_id"] is None:
        raise ToolError("rm: it is dangerous to operate recursively on '/'; refusing")
    if n["kind"] == "dir" and not recursive:
        raise ToolError(
            f"rm: cannot remove '{path}': Is a directory (use recursive, or rmdir if it is empty)"
        )
    with worded(template):
        _may_unlink(db, a, P.node(db, n["parent_id"]), n, path)
    ids = [n["id"]]
    if n["kind"] == "dir":
        items, denied = P.walk(db, a, n, _abs(db, n))
        if denied:
            raise ToolError(
                template.format(path=P.display(a, denied[0]), reason=P.EACCES) + "; nothing was removed"
            )
        rows = {r["id"]: r for r, _, _ in items}
        for r, p, _ in items[1:]:
            parent = rows[r["parent_id"]]
            if r["volume_id"] != parent["volume_id"]:
                raise ToolError(
                    template.format(path=P.display(a, p), reason=P.EBUSY) + "; nothing was removed"
                )
            if not P.may(a, parent, P.W | P.X) or P.sticky_blocks(a, parent, r):
                raise ToolError(
                    template.format(path=P.display(a, p), reason=P.EACCES) + "; nothing was removed"
                )
        ids = [r["id"] for r, _, _ in items]
    _delete(db, ids)
    return {"removed": path, "count": len(ids)}


@filesystem.tool(writes=[Node], destructive=True, says=["remove the empty folder {path}", "rmdir {path}"])
def rmdir(db: Db, path: PathRef[Node, EMPTY_DIR]) -> dict:
    """Remove an empty directory.

    Args:
        path: The directory; it must be empty.
    """
    a = P.actor(db)
    template = "rmdir: failed to remove '{path}': {reason}"
    if path.rstrip("/").rsplit("/", 1)[-1] in (".", ".."):
        raise ToolError(template.format(path=path, reason=P.EINVAL))
    with worded(template):
        n = P.resolve(db, a, path.rstrip("/") or "/", follow=False)
        if n["kind"] != "dir":
            raise FsError(path, P.ENOTDIR)
        if n["parent_id"] is None:
            raise FsError(path, P.EBUSY)
        if db.scalar("SELECT 1 FROM nodes WHERE parent_id = ? LIMIT 1", n["id"]):
            raise FsError(path, P.ENOTEMPTY)
        _may_unlink(db, a, P.node(db, n["parent_id"]), n, path)
    _delete(db, [n["id"]])
    return {"removed": path}


@filesystem.tool(
    writes=[Node, ArchiveMember],
    returns=Node,
    says=[
        "move {source} to {destination}",
        "rename {source} to {destination}",
        "put {source} into {destination}",
    ],
)
def mv(db: Db, source: PathRef[Node, MOVABLE], destination: NewPath, no_clobber: bool = False) -> dict:
    """Move or rename a file, directory or symlink.

    If the destination is an existing directory, the source moves inside it. An existing file at
    the destination is replaced unless no_clobber; a directory may only replace an empty directory.
    Between volumes the data is copied, so free space and read-only volumes matter.

    Args:
        source: What to move.
        destination: The new path, or an existing directory to move into.
        no_clobber: Never replace an existing entry (then nothing happens).
    """
    a = P.actor(db)
    with worded("mv: cannot stat '{path}': {reason}"):
        src = P.resolve(db, a, source, follow=False)
    if src["parent_id"] is None:
        raise ToolError(f"mv: cannot move '{source}': Device or resource busy")
    template = f"mv: cannot move '{source}' to '{{path}}': {{reason}}"
    with worded(template):
        parent, name, existing, new_abs = _dest(db, a, src, destination)
        shown = P.display(a, new_abs)
        if existing is not None and existing["id"] == src["id"]:
            raise ToolError(f"mv: '{source}' and '{destination}' are the same file")
        if src["kind"] == "dir" and _inside(db, parent, src):
            raise ToolError(f"mv: cannot move '{source}' to a subdirectory of itself, '{shown}'")
        src_parent = P.node(db, src["parent_id"])
        _may_unlink(db, a, src_parent, src, shown)
        _may_create(db, a, parent, shown)
        if existing is not None:
            if no_clobber:
                return {
                    "moved": False,
                    "source": source,
                    "destination": shown,
                    "reason": "destination exists",
                }
            if existing["kind"] == "dir" and src["kind"] != "dir":
                raise ToolError(f"mv: cannot overwrite directory '{shown}' with non-directory")
            if existing["kind"] != "dir" and src["kind"] == "dir":
                raise ToolError(f"mv: cannot overwrite non-directory '{shown}' with directory '{source}'")
            if existing["kind"] == "dir" and db.scalar(
                "SELECT 1 FROM nodes WHERE parent_id = ? LIMIT 1", existing["id"]
            ):
                raise FsError(shown, P.ENOTEMPTY)
            if P.sticky_blocks(a, parent, existing):
                raise FsError(shown, P.EPERM)
        moved_ids = [src["id"]]
        if parent["volume_id"] != src["volume_id"]:
            items, _ = P.walk(db, a, src, _abs(db, src))
            moved_ids = [r["id"] for r, _, _ in items if r["volume_id"] == src["volume_id"]]
            size = sum(r["size_bytes"] for r, _, _ in items)
            P.check_space(db, parent["volume_id"], size - (existing["size_bytes"] if existing else 0), shown)
    if existing is not None:
        _delete(db, [existing["id"]])
    db.update(Node, src["id"], parent_id=parent["id"], name=name)
    if parent["volume_id"] != src["volume_id"]:
        db.execute(
            "UPDATE nodes SET volume_id = ? WHERE id IN (SELECT value FROM json_each(?))",
            parent["volume_id"],
            json.dumps(moved_ids),
        )
    return {"moved": True, "source": source, "destination": shown}


def _copy_plan(
    db: Db,
    a: P.Actor,
    src: dict[str, Any],
    src_path: str,
    parent: dict[str, Any] | None,
    name: str,
    dest_path: str,
    no_clobber: bool,
    plan: list[tuple[Any, ...]],
) -> int:
    """Check one entry of a copy and queue its operations; returns the bytes it adds.

    ``parent`` is None inside a directory that the copy itself creates (nothing can clash there)."""
    shown = P.display(a, dest_path)
    existing = P.child(db, parent["id"], name) if parent else None
    if src["kind"] == "file" and not P.may(a, src, P.R):
        raise ToolError(f"cp: cannot open '{P.display(a, src_path)}' for reading: Permission denied")
    if src["kind"] == "dir" and not P.may(a, src, P.R | P.X):
        raise ToolError(f"cp: cannot access '{P.display(a, src_path)}': Permission denied")
    if existing is not None:
        if existing["kind"] == "dir" and src["kind"] != "dir":
            raise ToolError(f"cp: cannot overwrite directory '{shown}' with non-directory")
        if existing["kind"] != "dir" and src["kind"] == "dir":
            raise ToolError(
                f"cp: cannot overwrite non-directory '{shown}' with directory '{P.display(a, src_path)}'"
            )
    grow = 0
    if existing is not None and existing["kind"] == "dir":
        plan.append(("into", existing, src))
    elif existing is not None:
        if no_clobber:
            return 0
        with worded("cp: cannot create regular file '{path}': {reason}"):
            P.writable_volume(db, existing, shown)
            if not P.may(a, existing, P.W):
                raise FsError(shown, P.EACCES)
        plan.append(("overwrite", existing, src))
        return src["size_bytes"] - existing["size_bytes"]
    else:
        if parent is not None:
            what = "directory" if src["kind"] == "dir" else "regular file"
            with worded(f"cp: cannot create {what} '{{path}}': {{reason}}"):
                _may_create(db, a, parent, shown)
        plan.append(("create", parent, name, src))
        grow += src["size_bytes"]
    if src["kind"] == "dir":
        target = existing if existing is not None and existing["kind"] == "dir" else None
        for c in P.children(db, src["id"]):
            grow += _copy_plan(
                db,
                a,
                c,
                P.join(src_path, c["name"]),
                target,
                c["name"],
                P.join(dest_path, c["name"]),
                no_clobber,
                plan,
            )
        plan.append(("end",))
    return grow


def _copy_values(
    db: Db, a: P.Actor, src: dict[str, Any], parent_group: str | None, preserve: bool
) -> dict[str, Any]:
    values: dict[str, Any] = {
        "mode": src["mode"]
        if preserve
        else (src["mode"] & 0o777 & ~a.umask if src["kind"] != "symlink" else 0o777),
        "size_bytes": src["size_bytes"],
        "content": src["content"],
        "is_binary": src["is_binary"],
        "target": src["target"],
    }
    if preserve:
        values["mtime"] = src["mtime"]
        if a.root:
            values["owner_id"] = src["owner_id"]
        if a.root or src["group_id"] in a.groups:
            values["group_id"] = src["group_id"]
    return values


def _copy_members(db: Db, src_id: str, dst_id: str) -> None:
    db.execute(
        "INSERT INTO archive_members (id, archive_id, rel_path, kind, mode, size_bytes, content, is_binary, target, mtime) "
        "SELECT printf('ARM-%06d', (SELECT coalesce(max(CAST(substr(id, 5) AS INTEGER)), 0) FROM archive_members) "
        "+ row_number() OVER (ORDER BY id)), ?, rel_path, kind, mode, size_bytes, content, is_binary, target, mtime "
        "FROM archive_members WHERE archive_id = ? ORDER BY id",
        dst_id,
        src_id,
    )


@filesystem.tool(
    writes=[Node, ArchiveMember],
    returns=Node,
    says=[
        "copy {source} to {destination}",
        "make a copy of {source} called {destination}",
        "copy the folder {source} into {destination}",
    ],
)
def cp(
    db: Db,
    source: PathRef[Node, READABLE],
    destination: NewPath,
    recursive: bool = False,
    preserve: bool = False,
    no_clobber: bool = False,
) -> dict:
    """Copy a file, or a directory tree with recursive.

    If the destination is an existing directory the copy goes inside it. Copies belong to you and
    get the source's mode minus the umask and the current time, unless preserve. An existing file
    is overwritten unless no_clobber. Symlinks inside a copied tree are copied as symlinks.

    Args:
        source: What to copy (a symlink is followed).
        destination: The new path, or an existing directory to copy into.
        recursive: Required to copy directories.
        preserve: Keep mode, modification time (and owner and group when allowed).
        no_clobber: Never overwrite existing files.
    """
    a = P.actor(db)
    with worded("cp: cannot stat '{path}': {reason}"):
        src = P.resolve(db, a, source)
    if src["kind"] == "dir" and not recursive:
        raise ToolError(f"cp: -r not specified; omitting directory '{source}'")
    with worded("cp: cannot create regular file '{path}': {reason}"):
        parent, name, existing, new_abs = _dest(db, a, src, destination)
    shown = P.display(a, new_abs)
    if existing is not None and existing["id"] == src["id"]:
        raise ToolError(f"cp: '{source}' and '{destination}' are the same file")
    if src["kind"] == "dir" and _inside(db, parent, src):
        raise ToolError(f"cp: cannot copy a directory, '{source}', into itself, '{shown}'")
    plan: list[tuple[Any, ...]] = []
    grow = _copy_plan(db, a, src, _abs(db, src), parent, name, new_abs, no_clobber, plan)
    with worded("cp: error writing '{path}': {reason}"):
        P.check_space(db, parent["volume_id"], grow, shown)
    # apply: a stack of the directories being filled ("create"/"into" of a dir pushes, "end" pops)
    stack: list[dict[str, Any]] = [parent]
    copied = 0
    for op in plan:
        if op[0] == "end":
            stack.pop()
            continue
        if op[0] == "into":
            stack.append(op[1])
            continue
        if op[0] == "overwrite":
            dst, s = op[1], op[2]
            values = {
                "content": s["content"],
                "size_bytes": s["size_bytes"],
                "is_binary": s["is_binary"],
                "mtime": s["mtime"] if preserve else db.stamp(),
            }
            if preserve:
                values["mode"] = s["mode"]
            db.update(Node, dst["id"], **values)
            _drop_members(db, [dst["id"]])
            _copy_members(db, s["id"], dst["id"])
            copied += 1
            continue
        _, _, cname, s = op
        where = stack[-1]
        new = _insert(db, a, where, cname, s["kind"], **_copy_values(db, a, s, None, preserve))
        _copy_members(db, s["id"], new["id"])
        copied += 1
        if s["kind"] == "dir":
            stack.append(new)
    return {"copied": source, "to": shown, "entries": copied}


@filesystem.tool(
    writes=[Node],
    returns=Node,
    says=["make a shortcut {link_path} pointing to {target}", "create a symlink {link_path} to {target}"],
)
def ln(db: Db, target: PathRef[Node, MINE_HERE], link_path: NewPath) -> dict:
    """Create a symbolic link at link_path pointing to target (stored as written, so it may dangle).

    A relative target is resolved from the link's directory when the link is used.

    Args:
        target: What the link points to.
        link_path: Where to create the link (an existing directory: inside it, named like the target).
    """
    a = P.actor(db)
    with worded("ln: failed to create symbolic link '{path}': {reason}"):
        try:
            d = P.resolve(db, a, link_path)
        except FsError:
            d = None
        if d is not None and d["kind"] == "dir":
            base = target.rstrip("/").rsplit("/", 1)[-1] or "root"
            parent, name = d, base
            P.check_name(link_path, name)
            existing = P.child(db, d["id"], name)
            where = P.join(_abs(db, d), name)
        else:
            parent, name, existing = P.resolve_new(db, a, link_path)
            where = P.join(_abs(db, parent), name)
        if existing is not None:
            raise FsError(P.display(a, where), P.EEXIST)
        _may_create(db, a, parent, P.display(a, where))
    _insert(db, a, parent, name, "symlink", mode=0o777, target=target, size_bytes=len(target.encode()))
    return {"link": P.display(a, where), "target": target}


def _targets(
    db: Db, a: P.Actor, n: dict[str, Any], path: str, recursive: bool, cmd: str
) -> list[tuple[dict[str, Any], str]]:
    """The node and, with recursive, every node below it except symlinks (chmod -R does not follow them)."""
    if not recursive or n["kind"] != "dir":
        return [(n, path)]
    items, denied = P.walk(db, a, n, _abs(db, n))
    if denied:
        raise ToolError(
            f"{cmd}: cannot read directory '{P.display(a, denied[0])}': Permission denied; nothing was changed"
        )
    return [(r, P.display(a, p)) for r, p, _ in items if r["kind"] != "symlink" or r["id"] == n["id"]]


@filesystem.tool(
    writes=[Node],
    returns=Node,
    idempotent=True,
    says=["make {path} executable", "change the permissions of {path} to {mode}", "chmod {mode} {path}"],
)
def chmod(db: Db, path: PathRef[Node, MINE_HERE], mode: Mode, recursive: bool = False) -> dict:
    """Change permission bits. Only the owner or root may; symlinks are followed.

    Args:
        path: The file or directory.
        mode: Octal (644, 600, 2775) or symbolic (u+x, go-w, a=r, u=rw,go=).
        recursive: Also change everything below a directory.
    """
    a = P.actor(db)
    with worded("chmod: cannot access '{path}': {reason}"):
        n = P.resolve(db, a, path)
    changes = []
    for r, shown in _targets(db, a, n, path, recursive, "chmod"):
        if not (a.root or r["owner_id"] == a.user):
            raise ToolError(
                f"chmod: changing permissions of '{shown}': Operation not permitted (owner is {r['owner_id']})"
            )
        with worded("chmod: changing permissions of '{path}': {reason}"):
            P.writable_volume(db, r, shown)
        try:
            new = P.parse_mode(mode, r["mode"], r["kind"] == "dir")
        except ValueError:
            raise ToolError(f"chmod: invalid mode: '{mode}'") from None
        changes.append((r, new))
    for r, new in changes:
        if new != r["mode"]:
            db.update(Node, r["id"], mode=new)
    return {
        "path": path,
        "mode": P.octal(changes[0][1]),
        "permissions": P.mode_string(n["kind"], changes[0][1]),
        "changed": sum(1 for r, m in changes if m != r["mode"]),
    }


@filesystem.tool(
    writes=[Node],
    returns=Node,
    idempotent=True,
    says=["give {path} to {owner}", "make {owner} the owner of {path}", "chown {owner} {path}"],
)
def chown(
    db: Db,
    path: PathRef[Node, MINE_HERE],
    owner: Ref[User],
    group: Ref[Group] | None = None,
    recursive: bool = False,
) -> dict:
    """Change the owner (and optionally the group) of a file. Only root may do this.

    Args:
        path: The file or directory.
        owner: The new owner's user name.
        group: A new group as well.
        recursive: Also change everything below a directory.
    """
    a = P.actor(db)
    if db.find(User, owner) is None:
        raise ToolError(f"chown: invalid user: '{owner}'")
    if group is not None and db.find(Group, group) is None:
        raise ToolError(f"chown: invalid group: '{owner}:{group}'")
    with worded("chown: cannot access '{path}': {reason}"):
        n = P.resolve(db, a, path)
    targets = _targets(db, a, n, path, recursive, "chown")
    for r, shown in targets:
        if not a.root:
            raise ToolError(
                f"chown: changing ownership of '{shown}': Operation not permitted (only root can give files away)"
            )
        with worded("chown: changing ownership of '{path}': {reason}"):
            P.writable_volume(db, r, shown)
    for r, _ in targets:
        db.update(Node, r["id"], owner_id=owner, group_id=group or r["group_id"])
    return {"path": path, "owner": owner, "group": group or n["group_id"], "changed": len(targets)}


@filesystem.tool(
    writes=[Node],
    returns=Node,
    idempotent=True,
    says=["change the group of {path} to {group}", "share {path} with the {group} group"],
)
def chgrp(db: Db, path: PathRef[Node, MINE_HERE], group: Ref[Group], recursive: bool = False) -> dict:
    """Change the group of a file. The owner may pick any group they belong to; root any group.

    Args:
        path: The file or directory.
        group: The group name, e.g. staff.
        recursive: Also change everything below a directory.
    """
    a = P.actor(db)
    if db.find(Group, group) is None:
        raise ToolError(f"chgrp: invalid group: '{group}'")
    with worded("chgrp: cannot access '{path}': {reason}"):
        n = P.resolve(db, a, path)
    targets = _targets(db, a, n, path, recursive, "chgrp")
    for r, shown in targets:
        if not a.root and (r["owner_id"] != a.user or group not in a.groups):
            why = f"you are not in group {group}" if r["owner_id"] == a.user else f"owner is {r['owner_id']}"
            raise ToolError(f"chgrp: changing group of '{shown}': Operation not permitted ({why})")
        with worded("chgrp: changing group of '{path}': {reason}"):
            P.writable_volume(db, r, shown)
    for r, _ in targets:
        db.update(Node, r["id"], group_id=group)
    return {"path": path, "group": group, "changed": len(targets)}


# -- archives -------------------------------------------------------------------------------------


def _member_prefix(a: P.Actor, source: str, abs_path: str) -> str:
    """The member name tar stores for a source: as given when relative, else the absolute path without '/'."""
    parts = [c for c in source.split("/") if c and c != "."]
    if source.startswith(("/", "~")) or ".." in parts:
        return abs_path.lstrip("/")
    return "/".join(parts)


@filesystem.tool(
    writes=[Node, ArchiveMember],
    returns=Node,
    says=["pack {sources} into {archive_path}", "make a tar archive {archive_path} of {sources}"],
)
def tar_create(
    db: Db,
    archive_path: NewPath,
    sources: Annotated[
        list[SourcePath], Field(min_length=1, max_length=20, examples=[["Notes", "Documents/reports"]])
    ],
) -> dict:
    """Pack files and directories into a .tar archive (like ``tar -cf archive_path sources...``).

    Member names keep relative source paths as given; absolute ones lose their leading '/'.
    Symlinks are stored as links. An existing archive file is replaced.

    Args:
        archive_path: The archive to write, e.g. backup.tar.
        sources: Paths to pack.
    """
    a = P.actor(db)
    with worded("tar: {path}: Cannot open: {reason}"):
        parent, name, existing = P.resolve_new(db, a, archive_path)
        if existing is not None and existing["kind"] == "symlink":
            existing = P.resolve(db, a, archive_path)
        if existing is not None:
            if existing["kind"] == "dir":
                raise FsError(archive_path, P.EISDIR)
            P.writable_volume(db, existing, archive_path)
            if not P.may(a, existing, P.W):
                raise FsError(archive_path, P.EACCES)
        else:
            _may_create(db, a, parent, archive_path)
    members: list[dict[str, Any]] = []
    seen: set[str] = set()
    for source in sources:
        with worded("tar: {path}: Cannot stat: {reason}"):
            top = P.resolve(db, a, source, follow=False)
        items, denied = P.walk(db, a, top, _abs(db, top), content=True)
        if denied:
            raise ToolError(
                f"tar: {P.display(a, denied[0])}: Cannot open: Permission denied; no archive was written"
            )
        prefix = _member_prefix(a, source, _abs(db, top))
        base = len(_abs(db, top))
        for r, p, _ in items:
            if existing is not None and r["id"] == existing["id"]:
                continue
            if r["kind"] == "file" and not P.may(a, r, P.R):
                raise ToolError(
                    f"tar: {P.display(a, p)}: Cannot open: Permission denied; no archive was written"
                )
            rel = (prefix + p[base:]).lstrip("/") if prefix else p[base:].lstrip("/")
            if not rel or rel in seen:
                continue
            seen.add(rel)
            members.append(
                {k: r[k] for k in ("kind", "mode", "size_bytes", "content", "is_binary", "target", "mtime")}
                | {"rel_path": rel}
            )
    if not members:
        raise ToolError("tar: nothing to archive (the sources are empty)")
    size = _tar_size([m["size_bytes"] for m in members])
    digest = hashlib.md5("".join(f"{m['rel_path']}{m['content']}" for m in members).encode()).hexdigest()
    with worded("tar: {path}: Wrote only part of the archive: {reason}"):
        P.check_space(
            db, parent["volume_id"], size - (existing["size_bytes"] if existing else 0), archive_path
        )
    if existing is not None:
        _drop_members(db, [existing["id"]])
        node_id = existing["id"]
        db.update(Node, node_id, content=f"tar:{digest}", size_bytes=size, is_binary=True, mtime=db.stamp())
    else:
        node_id = _insert(
            db, a, parent, name, "file", content=f"tar:{digest}", size_bytes=size, is_binary=True
        )["id"]
    for m in members:
        db.add(ArchiveMember, archive_id=node_id, **m)
    return {
        "archive": archive_path,
        "count": len(members),
        "size": size,
        "members": [m["rel_path"] for m in members[:100]],
    }


@filesystem.tool(
    writes=[Node, ArchiveMember],
    returns=Node,
    says=["unpack {archive_path}", "extract {archive_path} into {destination}"],
)
def tar_extract(
    db: Db,
    archive_path: PathRef[Node, ARCHIVE],
    destination: PathRef[Node, DIR] | None = None,
    overwrite: bool = False,
) -> dict:
    """Unpack a .tar archive into a directory (the working directory by default).

    Existing files with the same names are a conflict unless overwrite; existing directories are
    merged. Extracted entries belong to you and get their stored mode minus the umask.

    Args:
        archive_path: The .tar file.
        destination: The directory to unpack into.
        overwrite: Replace existing files.
    """
    a = P.actor(db)
    arc = _read(db, a, archive_path, "tar", text=False)
    members = db.all("SELECT * FROM archive_members WHERE archive_id = ? ORDER BY id", arc["id"])
    if not members:
        raise ToolError(f"tar: {archive_path}: This does not look like a tar archive")
    shown_dest = destination or "."
    with worded("tar: {path}: Cannot open: {reason}"):
        dest = P.resolve(db, a, shown_dest)
        if dest["kind"] != "dir":
            raise FsError(shown_dest, P.ENOTDIR)
        if not P.may(a, dest, P.X):
            raise FsError(shown_dest, P.EACCES)
    dest_abs = _abs(db, dest)
    # plan: planned[rel] = existing row, or "new" for entries this extraction creates
    planned: dict[str, Any] = {"": dest}
    ops: list[tuple[str, str, dict[str, Any], Any]] = []
    grow = 0
    for m in members:
        parts = [c for c in m["rel_path"].split("/") if c and c != "."]
        if not parts or ".." in parts:
            continue
        for depth in range(1, len(parts) + 1):
            rel = "/".join(parts[:depth])
            if rel in planned:
                continue
            is_last = depth == len(parts)
            kind = m["kind"] if is_last else "dir"
            where = planned["/".join(parts[: depth - 1])]
            shown = P.display(a, P.join(dest_abs, rel))
            existing = P.child(db, where["id"], parts[depth - 1]) if where != "new" else None
            if existing is not None:
                if existing["kind"] == "dir" and kind == "dir":
                    planned[rel] = existing
                    continue
                if existing["kind"] == "dir" or kind == "dir" or not overwrite:
                    reason = P.EISDIR if existing["kind"] == "dir" else P.EEXIST
                    raise ToolError(f"tar: {shown}: Cannot open: {reason}; nothing was extracted")
                with worded("tar: {path}: Cannot open: {reason}"):
                    _may_unlink(db, a, where, existing, shown)  # tar unlinks the old file, then creates
                ops.append(("overwrite", rel, m, existing))
                planned[rel] = existing
                grow += m["size_bytes"] - existing["size_bytes"]
                continue
            if where != "new":
                with worded("tar: {path}: Cannot open: {reason}"):
                    _may_create(db, a, where, shown)
            ops.append(("create", rel, m if is_last else {"kind": "dir", "mode": 0o777}, None))
            planned[rel] = "new"
            grow += m["size_bytes"] if is_last else P.DIR_SIZE
    with worded("tar: {path}: Cannot write: {reason}"):
        P.check_space(db, dest["volume_id"], grow, shown_dest)
    made: dict[str, dict[str, Any]] = {"": dest}
    shown_paths = []
    for op, rel, m, existing in ops:
        parent_rel, _, base = rel.rpartition("/")
        parent = made.get(parent_rel) or planned[parent_rel]
        if op == "overwrite":
            db.update(
                Node,
                existing["id"],
                owner_id=a.user,
                mode=m["mode"] & 0o777 & ~a.umask,
                content=m["content"],
                size_bytes=m["size_bytes"],
                is_binary=m["is_binary"],
                mtime=m["mtime"],
            )
            made[rel] = existing
        else:
            values: dict[str, Any] = {
                "mode": (m["mode"] & 0o777 & ~a.umask) if m["kind"] != "symlink" else 0o777
            }
            if "content" in m:
                values.update(
                    content=m["content"],
                    size_bytes=m["size_bytes"],
                    is_binary=m["is_binary"],
                    target=m["target"],
                    mtime=m["mtime"],
                )
            made[rel] = _insert(db, a, parent, base, m["kind"], **values)
        shown_paths.append(P.display(a, P.join(dest_abs, rel)))
    return {
        "archive": archive_path,
        "into": P.display(a, dest_abs),
        "extracted": len(ops),
        "entries": shown_paths[:100],
    }
