"""The filesystem's POSIX engine on its own: path resolution, permission bits, sticky directories,
volumes and modes, checked against what a Linux kernel and GNU coreutils do. The tool-level rules
(error wording, rows changed) are in test_filesystem.py; these pin the engine they stand on."""

from __future__ import annotations

from dataclasses import replace

import pytest

from servers.domains.filesystem import posix as P
from servers.kit import Db, world
from servers.registry import get_domain

PEOPLE = world(0, "small").pick_people(8)
ME = PEOPLE[0].username
HOME = f"/home/{ME}"


@pytest.fixture(scope="module")
def db(snapshot_cache):
    conn = get_domain("filesystem").snapshot(0, "small", snapshot_cache).connect()
    yield Db(conn)
    conn.close()


@pytest.fixture
def me(db) -> P.Actor:
    return P.actor(db)


def where(db: Db, a: P.Actor, path: str, **kw) -> str:
    return P.abspath(db, P.resolve(db, a, path, **kw)["id"])


def private_home(db: Db) -> str:
    return db.scalar(
        "SELECT home FROM users u JOIN nodes n ON n.name = u.id WHERE n.mode = 448 ORDER BY u.id"
    )


def reason(fn, *args, **kw) -> str:
    with pytest.raises(P.FsError) as info:
        fn(*args, **kw)
    return info.value.reason


# -- resolution ------------------------------------------------------------------------------------


def test_the_session_starts_as_the_persona_at_home(me):
    assert (me.user, me.home, me.cwd, me.root) == (ME, HOME, HOME, False)
    assert me.umask == 0o022


@pytest.mark.parametrize(
    "path,expected",
    [
        (".", HOME),
        ("Documents", f"{HOME}/Documents"),
        ("./Documents/../Notes", f"{HOME}/Notes"),
        ("~", HOME),
        ("~/Notes/", f"{HOME}/Notes"),
        (f"~{PEOPLE[1].username}", f"/home/{PEOPLE[1].username}"),
        ("/", "/"),
        ("/..", "/"),
        ("/../../etc", "/etc"),
        ("current", f"{HOME}/Projects/user-lib"),  # a symlink is followed
        ("//etc///nginx", "/etc/nginx"),
    ],
)
def test_paths_resolve_like_a_shell(db, me, path, expected):
    assert where(db, me, path) == expected


def test_lstat_keeps_a_final_symlink_but_follows_one_in_the_middle(db, me):
    link = P.resolve(db, me, "current", follow=False)
    assert link["kind"] == "symlink" and link["target"] == "Projects/user-lib"
    assert where(db, me, "current/", follow=False) == f"{HOME}/Projects/user-lib"  # trailing / follows
    assert P.resolve(db, me, "/var/log/latest.log")["name"] == "app.log"


@pytest.mark.parametrize(
    "path,why",
    [
        ("no-such-file", P.ENOENT),
        ("~nobody/x", P.ENOENT),
        ("", P.ENOENT),
        ("Notes/old-draft.md", P.ENOENT),  # dangling symlink
        ("loop-a", P.ELOOP),
        ("/etc/hosts/", P.ENOTDIR),  # a trailing / demands a directory
        ("/etc/hosts/x", P.ENOTDIR),
        ("a\x00b", P.EINVAL),
        ("x" * 300, P.ENAMETOOLONG),
        ("/" + "a/" * 2100, P.ENAMETOOLONG),
    ],
)
def test_bad_paths_fail_with_the_posix_reason(db, me, path, why):
    assert reason(P.resolve, db, me, path).startswith(why)


def test_search_permission_guards_a_private_home_but_not_from_root(db, me):
    home = private_home(db)
    assert reason(P.resolve, db, me, f"{home}/anything") == P.EACCES
    assert P.resolve(db, me, home)["kind"] == "dir"  # the directory itself can be named
    root = replace(me, user="root", root=True)
    assert P.resolve(db, root, home + "/..")["name"] == "home"


def test_resolve_new_names_the_parent_and_what_is_there(db, me):
    parent, name, existing = P.resolve_new(db, me, "Notes/new.txt")
    assert (P.abspath(db, parent["id"]), name, existing) == (f"{HOME}/Notes", "new.txt", None)
    parent, name, existing = P.resolve_new(db, me, "current")  # not followed: the link itself
    assert existing["kind"] == "symlink" and name == "current"
    assert reason(P.resolve_new, db, me, "missing/dir/new.txt") == P.ENOENT
    assert reason(P.resolve_new, db, me, f"{private_home(db)}/new.txt") == P.EACCES


def test_display_writes_paths_the_way_the_session_would(me):
    assert P.display(me, HOME) == "."
    assert P.display(me, f"{HOME}/Notes/a.txt") == "Notes/a.txt"
    assert P.display(replace(me, cwd="/etc", cwd_id="x"), f"{HOME}/Notes") == "~/Notes"
    assert P.display(me, "/etc/hosts") == "/etc/hosts"


# -- permission bits --------------------------------------------------------------------------------


def entry(owner: str, group: str, mode: int) -> dict:
    return {"owner_id": owner, "group_id": group, "mode": mode}


@pytest.mark.parametrize(
    "node,bits,allowed",
    [
        (entry(ME, "x", 0o600), P.R | P.W, True),  # owner bits
        (entry(ME, "staff", 0o060), P.R, False),  # the owner class wins even when group would allow
        (entry("other", "staff", 0o640), P.R, True),  # a supplementary group
        (entry("other", "staff", 0o640), P.W, False),
        (entry("other", "nogroup", 0o604), P.R, True),  # other bits
        (entry("other", "nogroup", 0o750), P.X, False),
    ],
)
def test_owner_then_group_then_other(me, node, bits, allowed):
    assert P.may(me, node, bits) is allowed
    assert P.may(replace(me, root=True), node, bits) is True  # root bypasses the bits


def test_sticky_directory_lets_only_owners_and_root_unlink(me):
    tmp = entry("root", "root", 0o1777)
    theirs, mine = entry("other", "users", 0o644), entry(ME, ME, 0o644)
    assert P.sticky_blocks(me, tmp, theirs) and not P.sticky_blocks(me, tmp, mine)
    assert not P.sticky_blocks(replace(me, root=True), tmp, theirs)
    assert not P.sticky_blocks(me, entry("root", "root", 0o777), theirs)  # no sticky bit, no rule


# -- volumes ---------------------------------------------------------------------------------------------


def test_read_only_and_full_volumes(db, me):
    archive = P.resolve(db, me, "/mnt/archive")
    assert reason(P.writable_volume, db, archive, "/mnt/archive/x") == P.EROFS
    usb = P.resolve(db, me, "/mnt/usb")
    assert P.mount_point(db, usb) and not P.mount_point(db, P.resolve(db, me, "/etc"))
    free = P.volume(db, usb["volume_id"])["capacity_kb"] * 1024 - P.used_bytes(db, usb["volume_id"])
    P.check_space(db, usb["volume_id"], free, "/mnt/usb/fits")  # exactly full is fine
    why = reason(P.check_space, db, usb["volume_id"], free + 1, "/mnt/usb/big")
    assert why.startswith(P.ENOSPC) and f"{free // 1024} KB free" in why


# -- modes ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "spec,current,is_dir,expected",
    [
        ("640", 0o777, False, 0o640),
        ("0755", 0o2775, True, 0o755),  # four digits clear set-id bits
        ("755", 0o2775, True, 0o2755),  # GNU keeps a directory's set-id bits for short octal
        ("u+x", 0o644, False, 0o744),
        ("go-w", 0o666, False, 0o644),
        ("a=r", 0o755, False, 0o444),
        ("u=rw,go=r", 0o700, False, 0o644),
        ("+X", 0o644, False, 0o644),  # X adds execute only to directories or already-executable files
        ("+X", 0o644, True, 0o755),
        ("g+s", 0o755, True, 0o2755),
        ("o+t", 0o777, True, 0o1777),
        ("=", 0o644, False, 0o000),
    ],
)
def test_chmod_modes_follow_gnu_chmod(spec, current, is_dir, expected):
    assert P.parse_mode(spec, current, is_dir) == expected


def test_an_invalid_symbolic_clause_is_refused():
    with pytest.raises(ValueError):
        P.parse_mode("u+x,q-w", 0o644, False)


@pytest.mark.parametrize(
    "kind,mode,shown",
    [
        ("file", 0o644, "-rw-r--r--"),
        ("dir", 0o2755, "drwxr-sr-x"),
        ("dir", 0o1777, "drwxrwxrwt"),
        ("file", 0o2644, "-rw-r-Sr--"),  # set-id without execute shows upper case
        ("symlink", 0o777, "lrwxrwxrwx"),
    ],
)
def test_mode_strings_read_like_ls_l(kind, mode, shown):
    assert P.mode_string(kind, mode) == shown
    assert P.octal(mode) == f"{mode:04o}"


@pytest.mark.parametrize(
    "size,shown", [(512, "512"), (4096, "4.0K"), (1_363_149, "1.3M"), (52 * 2**30, "52G")]
)
def test_human_sizes_read_like_du_h(size, shown):
    assert P.human(size) == shown
