"""Copies, links and ownership: cp, ln, chmod, chown, chgrp."""

from __future__ import annotations

from typing import Any

from servers.domains.filesystem import posix as P
from servers.domains.filesystem.model import (
    MINE_HERE,
    READABLE,
    ArchiveMember,
    Group,
    Mode,
    NewPath,
    Node,
    Session,
    User,
    filesystem,
)
from servers.domains.filesystem.posix import FsError, worded
from servers.domains.filesystem.rules import _abs, _dest, _drop_members, _insert, _inside, _may_create
from servers.kit import Db, PathRef, Ref, ToolError


def _check_copyable(
    a: P.Actor, src: dict[str, Any], src_path: str, existing: dict[str, Any] | None, shown: str
) -> None:
    """Refuse a source ``a`` may not read, and a file/directory clash with what is already there."""
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
    _check_copyable(a, src, src_path, existing, shown)
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


def _apply_copy(
    db: Db, a: P.Actor, plan: list[tuple[Any, ...]], parent: dict[str, Any], preserve: bool
) -> int:
    """Run a checked copy plan under ``parent``; returns how many entries were written."""
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
    return copied


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
    if src["kind"] == "dir" and _inside(parent, src):
        raise ToolError(f"cp: cannot copy a directory, '{source}', into itself, '{shown}'")
    plan: list[tuple[Any, ...]] = []
    grow = _copy_plan(db, a, src, _abs(db, src), parent, name, new_abs, no_clobber, plan)
    with worded("cp: error writing '{path}': {reason}"):
        P.check_space(db, parent["volume_id"], grow, shown)
    copied = _apply_copy(db, a, plan, parent, preserve)
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
    needs={Session: "user_id = 'root'"},
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
