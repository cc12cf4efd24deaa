"""The shell session: pwd, cd, the directory stack, who am I, su, umask."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from servers.domains.filesystem import posix as P
from servers.domains.filesystem.model import SUBDIR, Node, Session, Umask, User, filesystem
from servers.domains.filesystem.rules import _abs, _cd, _stack, _tilde
from servers.kit import Db, PathRef, Ref, Sensitive, ToolError

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
        old = db.acting()["oldpwd_id"]
        if not old:
            raise ToolError("cd: OLDPWD not set")
        if P.node(db, old) is None:
            raise ToolError("cd: -: No such file or directory (the previous directory was removed)")
        path = P.abspath(db, old)
    n = _cd(db, a, path or a.home, "cd")
    db.set_acting(cwd_id=n["id"], oldpwd_id=a.cwd_id)
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
    db.set_acting(cwd_id=n["id"], oldpwd_id=a.cwd_id, dir_stack=",".join(stack))
    return {"cwd": _abs(db, n), "stack": [_tilde(a, P.abspath(db, i)) for i in stack if P.node(db, i)]}


@filesystem.tool(
    writes=[Session],
    returns=Node,
    needs={Session: "dir_stack != ''"},
    says=["popd", "go back to the directory I pushed"],
)
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
    db.set_acting(cwd_id=n["id"], oldpwd_id=a.cwd_id, dir_stack=",".join(stack[1:]))
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
    db.set_acting(user_id=u["id"])
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
    db.set_acting(umask=value)
    return {
        "umask": f"{value:04o}",
        "new_files": P.mode_string("file", 0o666 & ~value),
        "new_directories": P.mode_string("dir", 0o777 & ~value),
    }
