"""The POSIX engine of the filesystem domain: path resolution, permissions, modes and tree walks.

Pure functions over a :class:`Db` and the ``nodes`` / ``users`` / ``group_members`` / ``volumes`` /
``sessions`` tables of ``servers.domains.filesystem``. The filesystem package stays the readable
description of the service; the rules that make paths and permission bits behave like a real
kernel live here:

- resolution walks one component at a time from ``/``, the acting user's home (``~``), another
  user's home (``~name``) or the working directory; it needs search (``x``) permission on every
  directory it passes, follows intermediate symlinks (at most 8 hops), treats ``..`` at ``/`` as
  ``/`` and lets a trailing ``/`` demand a directory;
- permission checks use owner, then group, then other bits; root bypasses them but never a
  read-only volume;
- every failure is an :class:`FsError` carrying the path the user typed and a POSIX reason
  ("No such file or directory", "Permission denied", ...), which each command words its own way.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from servers.kit import Db, ToolError

ROOT_ID = "NOD-000001"
MAX_HOPS = 8
MAX_NAME = 255
MAX_PATH = 4096
R, W, X = 4, 2, 1
SETUID, SETGID, STICKY = 0o4000, 0o2000, 0o1000
DIR_SIZE = 4096

ENOENT = "No such file or directory"
ENOTDIR = "Not a directory"
EISDIR = "Is a directory"
ENOTEMPTY = "Directory not empty"
EEXIST = "File exists"
EACCES = "Permission denied"
EROFS = "Read-only file system"
ENOSPC = "No space left on device"
EPERM = "Operation not permitted"
ELOOP = "Too many levels of symbolic links"
ENAMETOOLONG = "File name too long"
EINVAL = "Invalid argument"
EBUSY = "Device or resource busy"


class FsError(ToolError):
    """A failed system call on ``path`` (as the user typed it) for a POSIX ``reason``."""

    def __init__(self, path: str, reason: str) -> None:
        self.path, self.reason = path, reason
        super().__init__(f"{path}: {reason}")


@contextmanager
def worded(template: str) -> Iterator[None]:
    """Re-word FsErrors the way a command prints them: ``"rm: cannot remove '{path}': {reason}"``."""
    try:
        yield
    except FsError as exc:
        raise ToolError(template.format(path=exc.path, reason=exc.reason)) from None


# -- who is acting --------------------------------------------------------------------------


@dataclass(frozen=True)
class Actor:
    """The session's user and shell state, read once per call."""

    user: str
    uid: int
    group: str  # primary group
    groups: frozenset[str]
    root: bool
    home: str  # absolute path
    umask: int
    cwd_id: str
    cwd: str | None  # absolute path, None when the directory was removed


def actor(db: Db) -> Actor:
    """Who is acting: every command (and every path shown back) starts here, so it is one
    statement over the session row, its user, their groups and the working directory, with no
    tree walk."""
    row = db.conn.execute(
        "SELECT s.user_id, s.umask, s.cwd_id, u.uid, u.group_id, u.is_root, u.home,"
        " (SELECT json_group_array(group_id) FROM group_members WHERE user_id = u.id),"
        " (SELECT path FROM nodes WHERE id = s.cwd_id)"  # None once the directory was removed
        " FROM (SELECT * FROM sessions ORDER BY id LIMIT 1) s JOIN users u ON u.id = s.user_id"
    ).fetchone()
    if row is None:
        return _actor_rows(db)  # no session or no such user: fail as the row-by-row reads do
    user, umask, cwd_id, uid, group, is_root, home, groups, cwd = row
    return Actor(
        user=user,
        uid=uid,
        group=group,
        groups=frozenset({*json.loads(groups), group}),
        root=bool(is_root),
        home=home,
        umask=umask,
        cwd_id=cwd_id,
        cwd=cwd,
    )


def _actor_rows(db: Db) -> Actor:
    s = db.acting()
    u = db.one("SELECT * FROM users WHERE id = ?", s["user_id"])
    groups = {r["group_id"] for r in db.all("SELECT group_id FROM group_members WHERE user_id = ?", u["id"])}
    groups.add(u["group_id"])
    return Actor(
        user=u["id"],
        uid=u["uid"],
        group=u["group_id"],
        groups=frozenset(groups),
        root=bool(u["is_root"]),
        home=u["home"],
        umask=s["umask"],
        cwd_id=s["cwd_id"],
        cwd=db.scalar("SELECT path FROM nodes WHERE id = ?", s["cwd_id"]),
    )


def may(a: Actor, n: dict[str, Any], bits: int) -> bool:
    """Whether the actor has all of ``bits`` (R|W|X) on node ``n`` (root has them all)."""
    if a.root:
        return True
    mode = n["mode"]
    if n["owner_id"] == a.user:
        perm = (mode >> 6) & 7
    elif n["group_id"] in a.groups:
        perm = (mode >> 3) & 7
    else:
        perm = mode & 7
    return perm & bits == bits


def sticky_blocks(a: Actor, parent: dict[str, Any], entry: dict[str, Any]) -> bool:
    """In a sticky directory (/tmp) only the entry's owner, the directory's owner or root may unlink it."""
    return (
        bool(parent["mode"] & STICKY) and not a.root and a.user not in (entry["owner_id"], parent["owner_id"])
    )


# -- nodes and paths --------------------------------------------------------------------------


def node(db: Db, node_id: str | None) -> dict[str, Any] | None:
    return db.one("SELECT * FROM nodes WHERE id = ?", node_id) if node_id else None


def child(db: Db, parent_id: str, name: str) -> dict[str, Any] | None:
    return db.one("SELECT * FROM nodes WHERE parent_id = ? AND name = ?", parent_id, name)


def children(db: Db, parent_id: str) -> list[dict[str, Any]]:
    return db.all("SELECT * FROM nodes WHERE parent_id = ? ORDER BY name", parent_id)


def abspath(db: Db, node_id: str) -> str:
    """The stored absolute path of a node ("/" for an id that names nothing, as before)."""
    return db.scalar("SELECT path FROM nodes WHERE id = ?", node_id) or "/"


def under(path_sql: str, column: str = "path") -> str:
    """SQL true for nodes strictly below the directory whose path ``path_sql`` yields.

    Paths below ``/a/b`` are those from ``/a/b/`` up to (not including) ``/a/b0``: ``0`` is the
    character after ``/``, so the range holds exactly the paths that start with ``/a/b/`` and the
    index on ``path`` answers it. Under the root, whose range starts at ``/``, that is every node,
    the root included."""
    prefix = f"rtrim({path_sql}, '/')"
    return f"({column} >= {prefix} || '/' AND {column} < {prefix} || '0')"


def move(db: Db, n: dict[str, Any], parent: dict[str, Any], name: str) -> None:
    """Re-link ``n`` as ``name`` in ``parent`` and rewrite the stored paths of it and its subtree
    (one range UPDATE: the subtree is exactly the paths under the old one). The caller has already
    removed an entry replaced at the destination and refused moving a directory into itself."""
    old, new = n["path"], join(parent["path"], name)
    db.execute(
        "UPDATE nodes SET parent_id = ?, name = ?, path = ? WHERE id = ?", parent["id"], name, new, n["id"]
    )
    db.execute(
        "UPDATE nodes SET path = ? || substr(path, ?) WHERE path >= ? AND path < ?",
        new,
        len(old) + 1,
        old + "/",
        old + "0",
    )


def join(parent: str, name: str) -> str:
    return f"/{name}" if parent == "/" else f"{parent}/{name}"


def display(a: Actor, path: str) -> str:
    """A path as this session would type it: relative under the cwd, ``~/...`` under home, else absolute."""
    if a.cwd and a.cwd != "/":
        if path == a.cwd:
            return "."
        if path.startswith(a.cwd + "/"):
            return path[len(a.cwd) + 1 :]
    if path == a.home:
        return "~"
    if path.startswith(a.home + "/"):
        return "~/" + path[len(a.home) + 1 :]
    return path


def check_name(path: str, name: str) -> None:
    if len(name) > MAX_NAME:
        raise FsError(path, ENAMETOOLONG)
    if "\x00" in name:
        raise FsError(path, EINVAL)


def _start(db: Db, a: Actor, path: str) -> tuple[dict[str, Any], str]:
    """The node a path starts from and the rest of the path."""
    if path.startswith("/"):
        return node(db, ROOT_ID), path
    if path.startswith("~"):
        head, _, rest = path.partition("/")
        if head == "~":
            home = a.home
        else:
            home = db.scalar("SELECT home FROM users WHERE id = ?", head[1:])
            if home is None:
                raise FsError(path, ENOENT)
        return node(db, ROOT_ID), home + ("/" + rest if rest else "")
    cwd = node(db, a.cwd_id)
    if cwd is None:
        raise FsError(path, f"{ENOENT} (the working directory was removed; cd to an absolute path)")
    return cwd, path


def resolve(db: Db, a: Actor, path: str, *, follow: bool = True) -> dict[str, Any]:
    """The node ``path`` names. ``follow=False`` returns a final symlink itself (lstat)."""
    if not path:
        raise FsError(path, ENOENT)
    if "\x00" in path:
        raise FsError(path, EINVAL)
    if len(path) > MAX_PATH:
        raise FsError(path[:60] + "...", ENAMETOOLONG)
    cur, rest = _start(db, a, path)
    trailing = rest.endswith("/") and rest.strip("/") != ""
    queue = [c for c in rest.split("/") if c and c != "."]
    queue.reverse()  # a stack: pop() takes the next component
    hops = 0
    while queue:
        name = queue.pop()
        if cur["kind"] != "dir":
            raise FsError(path, ENOTDIR)
        if not may(a, cur, X):
            raise FsError(path, EACCES)
        if name == "..":
            cur = node(db, cur["parent_id"]) or cur
            continue
        check_name(path, name)
        nxt = child(db, cur["id"], name)
        if nxt is None:
            raise FsError(path, ENOENT)
        if nxt["kind"] == "symlink" and (queue or follow or trailing):
            hops += 1
            if hops > MAX_HOPS:
                raise FsError(path, ELOOP)
            target = nxt["target"] or ""
            if target.startswith("/"):
                cur = node(db, ROOT_ID)
            queue.extend(reversed([c for c in target.split("/") if c and c != "."]))
            continue
        cur = nxt
    if trailing and cur["kind"] != "dir":
        raise FsError(path, ENOTDIR)
    return cur


def resolve_new(db: Db, a: Actor, path: str) -> tuple[dict[str, Any], str, dict[str, Any] | None]:
    """For creating ``path``: its parent directory, its last name, and what is there now (unfollowed)."""
    if not path or "\x00" in path:
        raise FsError(path, ENOENT if not path else EINVAL)
    stripped = path.rstrip("/") or "/"
    head, sep, base = stripped.rpartition("/")
    if not sep:
        head, base = ".", stripped
    elif not head:
        head = "/"
    if base in ("", ".", "..", "/") or (not sep and base.startswith("~")) or stripped == "/":
        existing = resolve(db, a, path)
        parent = node(db, existing["parent_id"]) or existing
        return parent, existing["name"], existing
    check_name(path, base)
    try:
        parent = resolve(db, a, head)
    except FsError as exc:
        raise FsError(path, exc.reason) from None
    if parent["kind"] != "dir":
        raise FsError(path, ENOTDIR)
    if not may(a, parent, X):
        raise FsError(path, EACCES)
    return parent, base, child(db, parent["id"], base)


# -- volumes -------------------------------------------------------------------------------------


def volume(db: Db, volume_id: str) -> dict[str, Any]:
    return db.one("SELECT * FROM volumes WHERE id = ?", volume_id)


def used_bytes(db: Db, volume_id: str) -> int:
    return int(db.scalar("SELECT coalesce(sum(size_bytes), 0) FROM nodes WHERE volume_id = ?", volume_id))


def writable_volume(db: Db, n: dict[str, Any], path: str) -> None:
    if volume(db, n["volume_id"])["read_only"]:
        raise FsError(path, EROFS)


def check_space(db: Db, volume_id: str, grow: int, path: str) -> None:
    """A write that adds ``grow`` bytes to a volume must fit in its capacity."""
    if grow <= 0:
        return
    v = volume(db, volume_id)
    used = used_bytes(db, volume_id)
    capacity = v["capacity_kb"] * 1024
    if used + grow > capacity:
        free = max(0, capacity - used)
        raise FsError(
            path, f"{ENOSPC} ({v['mount_path']} has {free // 1024} KB free, this needs {-(-grow // 1024)} KB)"
        )


def mount_point(db: Db, n: dict[str, Any]) -> bool:
    parent = node(db, n["parent_id"])
    return parent is None or parent["volume_id"] != n["volume_id"]


# -- walking a subtree ---------------------------------------------------------------------------

_COLUMNS = "n.id, n.parent_id, n.name, n.kind, n.owner_id, n.group_id, n.mode, n.size_bytes, n.is_binary, n.target, n.mtime, n.volume_id"


def _subtree(db: Db, top: dict[str, Any], content: bool, max_depth: int | None) -> list[dict[str, Any]]:
    """``top`` and the rows below it (to ``max_depth`` levels), each with its ``depth`` under ``top``:
    one range scan of the path index, which holds every column read here but ``content`` (a file's
    text sits before the later columns in the row, so reading those from the table would step
    through its overflow pages). ``top`` is read on its own, unless it lies in its own range (the
    root does): an OR of the two would read every row from the table. Depth counts slashes (the
    root's children have one)."""
    cols = _COLUMNS + (", n.content" if content else "")
    base = 0 if top["path"] == "/" else top["path"].count("/")
    depth = f"(length(n.path) - length(replace(n.path, '/', '')) - {base})"
    bound = f" AND {depth} <= {int(max_depth)}" if max_depth is not None else ""
    below = db.all(
        f"SELECT {cols}, CASE WHEN n.id = ? THEN 0 ELSE {depth} END AS depth FROM nodes n"
        f" WHERE {under('?', 'n.path')}{bound}",
        top["id"],
        top["path"],
        top["path"],
    )
    if any(r["id"] == top["id"] for r in below):
        return below
    return db.all(f"SELECT {cols}, 0 AS depth FROM nodes n WHERE n.id = ?", top["id"]) + below


def walk(
    db: Db,
    a: Actor,
    top: dict[str, Any],
    top_path: str,
    *,
    content: bool = False,
    max_depth: int | None = None,
    hidden: bool = True,
) -> tuple[list[tuple[dict[str, Any], str, int]], list[str]]:
    """Depth-first ``(row, absolute path, depth)`` of a subtree in name order, and the directories
    whose contents the actor may not read or search (they are listed, their children are not)."""
    rows = _subtree(db, top, content, max_depth)
    kids: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        if r["id"] != top["id"]:
            kids.setdefault(r["parent_id"], []).append(r)
    for v in kids.values():
        v.sort(key=lambda r: r["name"])
    out: list[tuple[dict[str, Any], str, int]] = []
    denied: list[str] = []
    first = next((r for r in rows if r["id"] == top["id"]), top)
    stack = [(first, top_path, 0)]
    while stack:
        row, path, depth = stack.pop()
        out.append((row, path, depth))
        if row["kind"] != "dir" or (max_depth is not None and depth >= max_depth):
            continue
        if not may(a, row, R | X):
            denied.append(path)
            continue
        below = [r for r in kids.get(row["id"], []) if hidden or not r["name"].startswith(".")]
        stack.extend((r, join(path, r["name"]), depth + 1) for r in reversed(below))
    return out, denied


# -- modes -----------------------------------------------------------------------------------------


def mode_string(kind: str, mode: int) -> str:
    """``drwxr-sr-x`` from a kind and the octal bits (with setuid/setgid/sticky)."""
    out = {"dir": "d", "symlink": "l"}.get(kind, "-")
    for shift, special, letter in ((6, SETUID, "s"), (3, SETGID, "s"), (0, STICKY, "t")):
        bits = (mode >> shift) & 7
        out += "r" if bits & 4 else "-"
        out += "w" if bits & 2 else "-"
        if mode & special:
            out += letter if bits & 1 else letter.upper()
        else:
            out += "x" if bits & 1 else "-"
    return out


def octal(mode: int) -> str:
    return f"{mode & 0o7777:04o}"


_SYMBOLIC = re.compile(r"^[ugoa]*([+=-][rwxXst]*)+$")


def parse_mode(spec: str, current: int, is_dir: bool) -> int:
    """The new mode bits of ``chmod spec``: octal (``640``, ``2775``) or symbolic (``u+x,go-w``, ``a=r``)."""
    if re.fullmatch(r"[0-7]{1,4}", spec):
        new = int(spec, 8)
        if is_dir and len(spec) < 4:
            new |= current & (SETUID | SETGID)  # GNU keeps a directory's set-id bits for short octal modes
        return new
    mode = current & 0o7777
    for clause in spec.split(","):
        if not _SYMBOLIC.match(clause):
            raise ValueError(clause)
        who = re.match(r"^[ugoa]*", clause).group(0) or "a"
        if "a" in who:
            who = "ugo"
        for op, perms in re.findall(
            r"([+=-])([rwxXst]*)", clause[len(re.match(r"^[ugoa]*", clause).group(0)) :]
        ):
            bits = 0
            for w in who:
                shift = {"u": 6, "g": 3, "o": 0}[w]
                for p in perms:
                    if p == "r":
                        bits |= 4 << shift
                    elif p == "w":
                        bits |= 2 << shift
                    elif p == "x" or (p == "X" and (is_dir or mode & 0o111)):
                        bits |= 1 << shift
                    elif p == "s" and w in "ug":
                        bits |= SETUID if w == "u" else SETGID
                    elif p == "t" and w == "o":
                        bits |= STICKY
            if op == "+":
                mode |= bits
            elif op == "-":
                mode &= ~bits
            else:
                mask = 0
                for w in who:
                    shift = {"u": 6, "g": 3, "o": 0}[w]
                    mask |= 7 << shift
                    mask |= {"u": SETUID, "g": SETGID, "o": STICKY}[w]
                mode = (mode & ~mask) | bits
    return mode


def human(size: int) -> str:
    """``du -h`` / ``df -h`` style sizes: 512, 4.0K, 1.3M, 2.1G."""
    value = float(size)
    for unit in ("", "K", "M", "G", "T"):
        if value < 1024 or unit == "T":
            if not unit:
                return str(int(value))
            return f"{value:.1f}{unit}" if value < 10 else f"{value:.0f}{unit}"
        value /= 1024
    return str(size)
