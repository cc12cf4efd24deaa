"""tar archives: create and extract."""

from __future__ import annotations

import hashlib
from typing import Annotated, Any

from pydantic import Field

from servers.domains.filesystem import posix as P
from servers.domains.filesystem.content import _tar_size
from servers.domains.filesystem.model import (
    ARCHIVE,
    DIR,
    ArchiveMember,
    NewPath,
    Node,
    SourcePath,
    filesystem,
)
from servers.domains.filesystem.posix import FsError, worded
from servers.domains.filesystem.rules import (
    NewEntries,
    _abs,
    _add_members,
    _drop_members,
    _insert,
    _may_create,
    _may_unlink,
    _read,
)
from servers.kit import Db, PathRef, ToolError

# -- archives -------------------------------------------------------------------------------------


def _member_prefix(a: P.Actor, source: str, abs_path: str) -> str:
    """The member name tar stores for a source: as given when relative, else the absolute path without '/'."""
    parts = [c for c in source.split("/") if c and c != "."]
    if source.startswith(("/", "~")) or ".." in parts:
        return abs_path.lstrip("/")
    return "/".join(parts)


def _archive_target(db: Db, a: P.Actor, archive_path: str) -> tuple[dict, str, dict | None]:
    """The archive's parent directory, name and existing file (if any), checked writable by ``a``."""
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
    return parent, name, existing


def _collect_members(db: Db, a: P.Actor, sources: list[str], existing: dict | None) -> list[dict[str, Any]]:
    """The member rows for every entry under ``sources`` (the archive itself skipped, each name once).

    Any entry ``a`` may not read stops the whole archive: tar writes nothing half-readable.
    """
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
    return members


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
    parent, name, existing = _archive_target(db, a, archive_path)
    members = _collect_members(db, a, sources, existing)
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
    _add_members(db, node_id, members)
    return {
        "archive": archive_path,
        "count": len(members),
        "size": size,
        "members": [m["rel_path"] for m in members[:100]],
    }


def _plan_extraction(
    db: Db, a: P.Actor, members: list[dict], dest: dict, dest_abs: str, overwrite: bool
) -> tuple[dict[str, Any], list[tuple[str, str, dict[str, Any], Any]], int]:
    """Check every member against what is on disk before anything is written.

    Returns ``planned`` (each relative path's existing row, or "new" for entries this extraction
    creates), the operations to run in order, and the bytes the volume grows by. A conflict raises
    here, so a refused extraction leaves the disk untouched.
    """
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
    return planned, ops, grow


def _extract(
    db: Db,
    a: P.Actor,
    ops: list[tuple[str, str, dict[str, Any], Any]],
    planned: dict[str, Any],
    dest: dict,
    dest_abs: str,
) -> list[str]:
    """Run the planned operations (overwrite in place, or create) and return the paths as shown."""
    made: dict[str, dict[str, Any]] = {"": dest}
    created = NewEntries(db, a)
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
            made[rel] = created.add(parent, base, m["kind"], **values)
        shown_paths.append(P.display(a, P.join(dest_abs, rel)))
    created.write()
    return shown_paths


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
    planned, ops, grow = _plan_extraction(db, a, members, dest, dest_abs, overwrite)
    with worded("tar: {path}: Cannot write: {reason}"):
        P.check_space(db, dest["volume_id"], grow, shown_dest)
    shown_paths = _extract(db, a, ops, planned, dest, dest_abs)
    return {
        "archive": archive_path,
        "into": P.display(a, dest_abs),
        "extracted": len(ops),
        "entries": shown_paths[:100],
    }
