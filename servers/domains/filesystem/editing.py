"""Creating, changing and removing files: touch, mkdir, echo, replace_in_file, rm, rmdir, mv."""

from __future__ import annotations

import json
from typing import Annotated

from pydantic import Field

from servers.domains.filesystem import posix as P
from servers.domains.filesystem.model import (
    EMPTY_DIR,
    ENTRY,
    MOVABLE,
    WRITABLE_TEXT,
    ArchiveMember,
    NewPath,
    Node,
    Text,
    filesystem,
)
from servers.domains.filesystem.posix import FsError, worded
from servers.domains.filesystem.rules import (
    _abs,
    _delete,
    _dest,
    _drop_members,
    _insert,
    _inside,
    _may_create,
    _may_unlink,
    _new_mode,
    _read,
)
from servers.kit import Db, PathRef, ToolError

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


def _check_replaceable(
    db: Db, a: P.Actor, src: dict, source: str, parent: dict, existing: dict, shown: str
) -> None:
    """``src`` may take the place of ``existing``: same kind, an empty directory, no sticky bit in the way."""
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
        if src["kind"] == "dir" and _inside(parent, src):
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
            _check_replaceable(db, a, src, source, parent, existing, shown)
        moved_ids = [src["id"]]
        if parent["volume_id"] != src["volume_id"]:
            items, _ = P.walk(db, a, src, _abs(db, src))
            moved_ids = [r["id"] for r, _, _ in items if r["volume_id"] == src["volume_id"]]
            size = sum(r["size_bytes"] for r, _, _ in items)
            P.check_space(db, parent["volume_id"], size - (existing["size_bytes"] if existing else 0), shown)
    if existing is not None:
        _delete(db, [existing["id"]])
    P.move(db, src, parent, name)
    if parent["volume_id"] != src["volume_id"]:
        db.execute(
            "UPDATE nodes SET volume_id = ? WHERE id IN (SELECT value FROM json_each(?))",
            parent["volume_id"],
            json.dumps(moved_ids),
        )
    return {"moved": True, "source": source, "destination": shown}
