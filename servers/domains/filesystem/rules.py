"""What several commands share: path checks, creating and unlinking entries, directory-stack and destination handling."""

from __future__ import annotations

import json
from typing import Any

from servers.domains.filesystem import posix as P
from servers.domains.filesystem.model import ArchiveMember, Node
from servers.domains.filesystem.posix import FsError, worded
from servers.kit import Db, ToolError, marks

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


def _new_row(
    a: P.Actor, parent: dict[str, Any], name: str, kind: str, values: dict[str, Any], now: str
) -> dict:
    """A new entry's row: owned by the actor; under a setgid parent it takes the parent's group."""
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
        "path": P.join(parent["path"], name),
        "kind": kind,
        "owner_id": a.user,
        "group_id": group,
        "mode": mode,
        "size_bytes": P.DIR_SIZE if kind == "dir" else 0,
        "content": None,
        "is_binary": False,
        "target": None,
        "mtime": now,
        "volume_id": parent["volume_id"],
    }
    row.update(values)
    return row


_NODE_COLUMNS = tuple(c.name for c in Node.__table__.columns)


class NewEntries:
    """The entries one command creates, numbered on from the highest node id exactly as one insert
    at a time would number them, and written in one statement (extracting a project's tar makes
    hundreds). A parent may be an entry of the same batch; ``write`` stores them parents first."""

    def __init__(self, db: Db, a: P.Actor) -> None:
        last = db.scalar("SELECT max(id) FROM nodes")
        self.db, self.a = db, a
        self.first = int(last.rsplit("-", 1)[1]) + 1 if last else 1
        self.rows: list[tuple[Any, ...]] = []

    def add(self, parent: dict[str, Any], name: str, kind: str, **values: Any) -> dict[str, Any]:
        """The new entry's row as SQLite will hand it back (table order, booleans as 0/1)."""
        row = _new_row(self.a, parent, name, kind, values, self.db.stamp())
        row["id"] = f"{marks(Node).prefix}-{self.first + len(self.rows):06d}"
        stored = {c: int(row[c]) if isinstance(row[c], bool) else row[c] for c in _NODE_COLUMNS}
        self.rows.append(tuple(stored.values()))
        return stored

    def write(self) -> None:
        cols = ", ".join(_NODE_COLUMNS)
        self.db.conn.executemany(
            f"INSERT INTO nodes ({cols}) VALUES ({', '.join('?' * len(_NODE_COLUMNS))})",
            self.rows,
        )


def _insert(
    db: Db, a: P.Actor, parent: dict[str, Any], name: str, kind: str, **values: Any
) -> dict[str, Any]:
    """Create one entry (see :class:`NewEntries`) and return its row."""
    batch = NewEntries(db, a)
    row = batch.add(parent, name, kind, **values)
    batch.write()
    return row


_MEMBER_COLUMNS = ("rel_path", "kind", "mode", "size_bytes", "content", "is_binary", "target", "mtime")


def _add_members(db: Db, archive_id: str, members: list[dict[str, Any]]) -> None:
    """Store an archive's members in one statement (a project's tar has hundreds), numbered on from
    the highest member id exactly as one insert per member would number them."""
    last = db.scalar("SELECT max(id) FROM archive_members")
    first = int(last.rsplit("-", 1)[1]) + 1 if last else 1
    cols = ", ".join(("id", "archive_id", *_MEMBER_COLUMNS))
    db.conn.executemany(
        f"INSERT INTO archive_members ({cols}) VALUES ({', '.join('?' * (len(_MEMBER_COLUMNS) + 2))})",
        [
            (f"{marks(ArchiveMember).prefix}-{first + i:06d}", archive_id, *(m[c] for c in _MEMBER_COLUMNS))
            for i, m in enumerate(members)
        ],
    )


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
    raw = db.acting()["dir_stack"]
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


def _inside(maybe_child: dict[str, Any], ancestor: dict[str, Any]) -> bool:
    """Whether ``maybe_child`` is ``ancestor`` or lies below it (by their stored paths)."""
    top = ancestor["path"]
    return maybe_child["path"] == top or maybe_child["path"].startswith(top.rstrip("/") + "/")
