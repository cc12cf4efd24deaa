"""The file system's tables (users, groups, volumes, nodes, archives, the shell session) and the sampler's conditions."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field
from sqlalchemy import ForeignKey, Index, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from servers.domains.filesystem import posix as P
from servers.kit import Db, Domain

filesystem = Domain(
    "filesystem",
    "A multi-user Unix-like file system used through a shell: cd, ls, cat, grep, find, mv, cp, rm, chmod, tar.",
)


# -- tables ---------------------------------------------------------------------------------------


class Group(filesystem.Table, example="staff"):
    """A Unix group, keyed by its name."""

    __tablename__ = "groups"
    id: Mapped[str] = mapped_column(primary_key=True)
    gid: Mapped[int] = mapped_column(unique=True)


class User(
    filesystem.Table,
    example="dwhitfield",
    hidden=("password",),
    people={"username": "id", "name": "full_name"},
):
    """A Unix account, keyed by its user name (the world person's username)."""

    __tablename__ = "users"
    id: Mapped[str] = mapped_column(primary_key=True)
    full_name: Mapped[str]
    uid: Mapped[int] = mapped_column(unique=True)
    group_id: Mapped[str] = mapped_column(ForeignKey("groups.id"))
    home: Mapped[str]
    shell: Mapped[str]
    is_root: Mapped[bool]
    password: Mapped[str]


class GroupMember(filesystem.Table, prefix="GMB", noun="group membership"):
    __tablename__ = "group_members"
    id: Mapped[str] = mapped_column(primary_key=True)
    group_id: Mapped[str] = mapped_column(ForeignKey("groups.id"), index=True)
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"), index=True)


class Volume(filesystem.Table, prefix="VOL"):
    """A mounted file system; its used space is the sum of its nodes' sizes."""

    __tablename__ = "volumes"
    id: Mapped[str] = mapped_column(primary_key=True)
    mount_path: Mapped[str] = mapped_column(unique=True)
    device: Mapped[str]
    fstype: Mapped[str]
    capacity_kb: Mapped[int]
    read_only: Mapped[bool]


def shown_path(db: Db, key: str) -> str:
    """The path the current shell would type for node ``key`` (relative under the cwd, ~/ under home)."""
    return P.display(P.actor(db), P.abspath(db, key))


class Node(
    filesystem.Table,
    prefix="NOD",
    noun="file",
    # search_records matches what a file is called and holds; the stored path would make every
    # entry under ~/Projects a hit for "Projects" (find and grep are the tools for paths)
    search=("name", "kind", "content", "target", "mtime"),
    render=shown_path,
):
    """A file, directory or symbolic link. ``mode`` holds the octal bits (0o2775 = setgid rwxrwxr-x).

    ``path`` is the absolute path, kept by the POSIX engine on every create and move (like a
    ``locate`` database that is never stale), so "under this directory" is a range on one index
    instead of a walk down the tree."""

    __tablename__ = "nodes"
    __table_args__ = (
        UniqueConstraint("parent_id", "name"),
        # "under a directory" is a range on path, "a user's files" one on owner_id; the columns the
        # sampler's conditions test ride along, so counting a home directory never reads the
        # (content-heavy) rows, and so does every column but content, so walking a tree (find,
        # du, tree, tar) reads the index alone
        Index(
            "ix_nodes_path",
            *("path", "kind", "owner_id", "group_id", "mode", "is_binary", "id"),
            *("parent_id", "name", "size_bytes", "target", "mtime", "volume_id"),
        ),
        Index("ix_nodes_owner", "owner_id", "path", "kind", "group_id", "mode", "is_binary", "id"),
        Index("ix_nodes_volume", "volume_id", "size_bytes"),  # a volume's used space without reading rows
    )
    id: Mapped[str] = mapped_column(primary_key=True)
    parent_id: Mapped[str | None] = mapped_column(ForeignKey("nodes.id"))
    name: Mapped[str]
    path: Mapped[str]  # "/" for the root, else "/a/b" (no trailing slash)
    kind: Mapped[str]  # file / dir / symlink
    owner_id: Mapped[str] = mapped_column(ForeignKey("users.id"))
    group_id: Mapped[str] = mapped_column(ForeignKey("groups.id"))
    mode: Mapped[int]
    size_bytes: Mapped[int]
    content: Mapped[str | None]  # text; for binary files an opaque fingerprint of the bytes
    is_binary: Mapped[bool]
    target: Mapped[str | None]  # symlinks: the path they point to, as written
    mtime: Mapped[str]
    volume_id: Mapped[str] = mapped_column(ForeignKey("volumes.id"))


class ArchiveMember(filesystem.Table, prefix="ARM"):
    """One entry stored in a ``.tar`` file."""

    __tablename__ = "archive_members"
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


# The shell: who is acting, where, and with which umask. Directory ids are plain node ids.
# dir_stack: comma-separated node ids, top of the stack first
Session = filesystem.acting(
    User, "user_id", columns={"cwd_id": str, "oldpwd_id": str | None, "dir_stack": str, "umask": int}
)


# -- what good arguments look like (sampler conditions) ----------------------------------------------

_ME = "(SELECT user_id FROM sessions)"
_CWD = "(SELECT cwd_id FROM sessions)"
# the working directory and everything below it (nothing once the directory was removed)
_HERE = f"(id = {_CWD} OR {P.under(f'(SELECT path FROM nodes WHERE id = {_CWD})')})"
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
