"""Looking around: ls, tree, stat, realpath, readlink, du, df, file."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from servers.domains.filesystem import posix as P
from servers.domains.filesystem.model import DIR, LINK, MINE_HERE, Node, filesystem
from servers.domains.filesystem.posix import FsError, worded
from servers.domains.filesystem.rules import _abs, _entry, _kind
from servers.kit import Db, Offset, PageSize, PathRef, ToolError

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
