"""Filesystem's rules: POSIX failures really happen and change nothing; successes change exactly the right rows."""

from __future__ import annotations

import pytest

from servers.kit import Db, marks, world
from servers.registry import get_domain
from tests.domain_helpers import DomainCalls

DOMAIN = "filesystem"
calls = DomainCalls(DOMAIN)
call, fails, rows, one = calls.call, calls.fails, calls.rows, calls.one
DISCOVERY = {"list_records", "search_records", "get_unique_values"}
PEOPLE = world(0, "small").pick_people(8)
ME = PEOPLE[0].username
HOME = f"/home/{ME}"
PRIVATE = PEOPLE[3].username  # homes 3 and 5 are mode 0700


@pytest.fixture
def fs(make_env):
    env = make_env("filesystem")
    return env, env.open()


def node(ep, path: str) -> dict:
    """The row at an absolute path (walked by name from /)."""
    cur = rows(ep, "SELECT * FROM nodes WHERE parent_id IS NULL")[0]
    for name in [p for p in path.split("/") if p]:
        found = rows(ep, "SELECT * FROM nodes WHERE parent_id = ? AND name = ?", cur["id"], name)
        assert found, f"{path}: no {name!r}"
        cur = found[0]
    return cur


def tables(ep) -> set[tuple[str, str]]:
    return {(c["table"], c["op"]) for c in ep.diff()}


def first_project(ep) -> str:
    return node(ep, f"{HOME}/current")["target"]


# -- the catalogue ------------------------------------------------------------------------------


def test_enough_tools_and_the_shell_state_writers():
    domain = get_domain("filesystem")
    own = [t for name, t in domain.tools.items() if name not in DISCOVERY]
    assert len(own) >= 41
    assert all(len(t.says) >= 2 for t in own if t.name not in ("popd",))
    session_writers = {t.name for t in own if "sessions" in t.writes}
    assert session_writers == {"cd", "pushd", "popd", "su", "umask"}
    assert all(t.read_only for t in own if t.name in ("ls", "cat", "grep", "find", "stat", "du", "tree"))


def test_medium_snapshot_has_the_sampler_pools(medium):
    from servers.domains.filesystem import model as F

    def count(sql: str) -> int:
        return medium.execute(sql).fetchone()[0]

    assert 3000 <= count("SELECT count(*) FROM nodes") <= 6000
    assert count(f"SELECT count(*) FROM nodes WHERE {F.TEXT}") >= 1500  # readable text under the cwd
    assert count(f"SELECT count(*) FROM nodes WHERE {F.DIR}") >= 200  # directories the persona may write
    private = [PEOPLE[3].username, PEOPLE[5].username]
    # files in the two 0700 homes, and root's files that others may not read
    denied = count(
        f"SELECT count(*) FROM nodes WHERE kind = 'file' AND ((owner_id IN ('{private[0]}', '{private[1]}') "
        "AND parent_id NOT IN (SELECT id FROM nodes WHERE name = 'tmp')) OR (owner_id = 'root' AND (mode & 4) = 0))"
    )
    assert denied >= 50
    tmp = "(SELECT id FROM nodes WHERE name = 'tmp' AND parent_id = 'NOD-000001')"
    assert count(f"SELECT count(*) FROM nodes WHERE parent_id = {tmp} AND owner_id != '{ME}'") >= 20
    assert (
        count(
            "SELECT count(*) FROM nodes p WHERE kind = 'dir' AND EXISTS (SELECT 1 FROM nodes c WHERE c.parent_id = p.id)"
        )
        >= 30
    )
    assert count("SELECT count(*) FROM nodes WHERE name LIKE '%.csv'") >= 10
    assert count("SELECT count(*) FROM nodes WHERE kind = 'symlink'") >= 4
    assert count("SELECT count(DISTINCT archive_id) FROM archive_members") >= 3


def test_persona_is_the_acting_unix_user(fs):
    env, ep = fs
    persona = world(0, "small").persona
    me = call(env, ep, "whoami")
    assert me["user"] == persona.username and me["home"] == HOME and me["umask"] == "0022"
    row = rows(ep, "SELECT * FROM users WHERE id = ?", persona.username)[0]
    assert row["full_name"] == persona.name
    assert call(env, ep, "pwd") == {"cwd": HOME}


def test_paths_render_relative_to_the_working_directory(fs):
    env, ep = fs
    from servers.domains.filesystem.model import Node

    project = first_project(ep)
    readme = node(ep, f"{HOME}/{project}/README.md")
    with ep.fork("filesystem").reading() as conn:
        assert marks(Node).render(Db(conn), readme["id"]) == f"{project}/README.md"
        assert marks(Node).render(Db(conn), node(ep, "/etc/hosts")["id"]) == "/etc/hosts"
    call(env, ep, "cd", path=project)
    with ep.fork("filesystem").reading() as conn:
        assert marks(Node).render(Db(conn), readme["id"]) == "README.md"
        assert marks(Node).render(Db(conn), node(ep, f"{HOME}/Notes/todo.txt")["id"]) == "~/Notes/todo.txt"
    listing = call(env, ep, "ls", path="src")
    assert all(e["path"].startswith("src/") for e in listing["entries"])


# -- the shell ------------------------------------------------------------------------------------


def test_cd_chain_with_relative_paths_dash_and_tilde(fs):
    env, ep = fs
    project = first_project(ep)
    call(env, ep, "cd", path="Projects")
    call(env, ep, "cd", path=project.split("/")[1] + "/src")
    assert call(env, ep, "pwd")["cwd"] == f"{HOME}/{project}/src"
    assert call(env, ep, "cd", path="../..")["cwd"] == f"{HOME}/Projects"
    assert call(env, ep, "cd", path="-")["cwd"] == f"{HOME}/{project}/src"
    assert call(env, ep, "cd", path="/")["cwd"] == "/"
    assert call(env, ep, "cd", path="../..")["cwd"] == "/"  # .. at / stays at /
    assert call(env, ep, "cd")["cwd"] == HOME
    assert call(env, ep, "cd", path="current")["cwd"] == f"{HOME}/{project}"  # symlink followed
    assert call(env, ep, "cd", path=f"~{PEOPLE[1].username}")["cwd"] == f"/home/{PEOPLE[1].username}"
    assert [c["table"] for c in ep.diff()] == ["sessions", "sessions"]


def test_cd_failures(fs):
    env, ep = fs
    fails(env, ep, "cd", "cd: nowhere: No such file or directory", path="nowhere")
    fails(env, ep, "cd", "cd: Notes/todo.txt: Not a directory", path="Notes/todo.txt")
    fails(env, ep, "cd", f"cd: /home/{PRIVATE}: Permission denied", path=f"/home/{PRIVATE}")
    fails(env, ep, "cd", "Too many levels of symbolic links", path="loop-a")
    fails(env, ep, "cd", "OLDPWD not set", path="-")
    fails(env, ep, "cd", "Not a directory", path="Notes/todo.txt/")


def test_pushd_popd_and_dirs(fs):
    env, ep = fs
    call(env, ep, "pushd", path="Notes")
    call(env, ep, "pushd", path="/etc")
    assert call(env, ep, "dirs")["stack"] == ["/etc", "~/Notes", "~"]
    assert call(env, ep, "popd")["cwd"] == f"{HOME}/Notes"
    assert call(env, ep, "popd")["cwd"] == HOME
    fails(env, ep, "popd", "directory stack empty")


def test_su_needs_the_password_unless_root(fs):
    env, ep = fs
    target = PEOPLE[1].username
    password = rows(ep, "SELECT password FROM users WHERE id = ?", target)[0]["password"]
    fails(env, ep, "su", "Authentication failure", user=target, password="wrong-password")
    fails(env, ep, "su", "Authentication failure", user="root")
    fails(env, ep, "su", "does not exist", user="nobody")
    out = call(env, ep, "su", user=target, password=password)
    assert out["user"] == target and call(env, ep, "pwd")["cwd"] == HOME  # cwd unchanged
    assert [(c["table"], c["column"]) for c in ep.diff()] == [("sessions", "user_id")]


def test_root_switches_down_without_password(make_env):
    env = make_env("filesystem")
    ep = env.open({"filesystem": "root_shell"})
    assert call(env, ep, "whoami")["uid"] == 0
    assert call(env, ep, "su", user=ME)["user"] == ME


def test_in_project_variant_starts_inside_the_project(make_env):
    env = make_env("filesystem")
    ep = env.open({"filesystem": "in_project"})
    project = first_project(ep)
    assert call(env, ep, "pwd")["cwd"] == f"{HOME}/{project}"
    assert call(env, ep, "cat", path="README.md")["text"].startswith("# ")


def test_umask_shapes_new_files_and_directories(fs):
    env, ep = fs
    call(env, ep, "umask", mask="027")
    call(env, ep, "touch", path="new.txt")
    call(env, ep, "mkdir", path="newdir")
    assert node(ep, f"{HOME}/new.txt")["mode"] == 0o640
    assert node(ep, f"{HOME}/newdir")["mode"] == 0o750
    assert node(ep, f"{HOME}/new.txt")["owner_id"] == ME


# -- reading ------------------------------------------------------------------------------------


def test_reads_check_permissions_and_kinds(fs):
    env, ep = fs
    fails(env, ep, "cat", "cat: /etc/shadow: Permission denied", path="/etc/shadow")
    fails(env, ep, "cat", "cat: Notes: Is a directory", path="Notes")
    fails(env, ep, "cat", "No such file or directory", path="Notes/old-draft.md")  # dangling link
    fails(env, ep, "cat", "Too many levels of symbolic links", path="loop-a")
    fails(env, ep, "ls", "ls: cannot open directory '/root': Permission denied", path="/root")
    fails(
        env,
        ep,
        "ls",
        f"ls: cannot access '/home/{PRIVATE}/Notes': Permission denied",
        path=f"/home/{PRIVATE}/Notes",
    )
    fails(env, ep, "cat", "File name too long", path="x" * 300)
    photo = rows(ep, "SELECT * FROM nodes WHERE name LIKE 'IMG_%' AND owner_id = ? LIMIT 1", ME)[0]
    path = call(env, ep, "find", path="Photos", name=photo["name"])["entries"][0]["path"]
    fails(env, ep, "cat", "binary file", path=path)
    assert call(env, ep, "wc", path=path, mode="c")["bytes"] == photo["size_bytes"]
    assert len(call(env, ep, "md5sum", path=path)["md5"]) == 32
    assert call(env, ep, "file", path=path)["type"] == "JPEG image data"
    assert ep.diff() == []


def test_log_reading_tools(fs):
    env, ep = fs
    tail = call(env, ep, "tail", path="/var/log/latest.log", lines=5)
    assert tail["lines"] == 5 and tail["text"].count("\n") == 4
    errors = call(env, ep, "grep", pattern="ERROR", path="/var/log/app.log", count_only=True)
    wc = call(env, ep, "wc", path="/var/log/app.log", mode="l")
    assert 0 < errors["total"] < wc["lines"]
    found = call(env, ep, "grep", pattern="error", path="/var/log", recursive=True, ignore_case=True, limit=5)
    assert len(found["matches"]) == 5 and found["truncated"]
    fails(env, ep, "grep", "Is a directory", pattern="x", path="/var/log")
    fails(env, ep, "grep", "invalid regular expression", pattern="(", path="/var/log/app.log")
    assert ep.diff() == []


def test_find_sort_uniq_diff(fs):
    env, ep = fs
    csvs = call(env, ep, "find", path="/opt/data", name="*.csv", type="f")
    assert csvs["total"] >= 10
    sample = csvs["entries"][0]["path"]
    sorted_ = call(env, ep, "sort", path=sample, header=True, unique=True)["text"].splitlines()
    assert sorted_[0].count(",") >= 2 and sorted_[1:] == sorted(set(sorted_[1:]))
    assert call(env, ep, "uniq", path=sample)["lines"] <= call(env, ep, "wc", path=sample, mode="l")["lines"]
    v1 = call(env, ep, "find", path="Documents/reports", name="*-v1.md")["entries"][0]["path"]
    out = call(env, ep, "diff", path_a=v1, path_b=v1.replace("-v1", "-v2"))
    assert not out["identical"] and "+- revised" in out["text"]
    assert call(env, ep, "diff", path_a=v1, path_b=v1)["identical"]
    denied = call(env, ep, "find", path="/home", name="*.md")
    assert any("Permission denied" in e for e in denied["errors"])


# -- creating and changing ---------------------------------------------------------------------


def test_echo_creates_overwrites_and_appends(fs):
    env, ep = fs
    call(env, ep, "echo", text="first", path="log.txt")
    call(env, ep, "echo", text="second", path="log.txt", append=True)
    assert call(env, ep, "cat", path="log.txt")["text"] == "first\nsecond\n"
    call(env, ep, "echo", text="only", path="log.txt")
    assert node(ep, f"{HOME}/log.txt")["content"] == "only\n"
    assert tables(ep) == {("nodes", "insert")}
    fails(
        env, ep, "echo", "echo: Notes/read-only.txt: Permission denied", text="x", path="Notes/read-only.txt"
    )
    fails(env, ep, "echo", "Is a directory", text="x", path="Notes")
    fails(env, ep, "echo", "echo: /etc/motd: Permission denied", text="x", path="/etc/motd")
    assert call(env, ep, "echo", text="just print") == {"output": "just print"}


def test_setgid_directory_gives_new_entries_its_group(fs):
    env, ep = fs
    call(env, ep, "mkdir", path="/srv/shared/docs/q3")
    call(env, ep, "touch", path="/srv/shared/docs/q3/plan.md")
    d, f = node(ep, "/srv/shared/docs/q3"), node(ep, "/srv/shared/docs/q3/plan.md")
    assert d["group_id"] == f["group_id"] == "staff"
    assert d["mode"] & 0o2000 and d["owner_id"] == ME


def test_mkdir_rules(fs):
    env, ep = fs
    fails(env, ep, "mkdir", "mkdir: cannot create directory 'Notes': File exists", path="Notes")
    fails(env, ep, "mkdir", "No such file or directory", path="x/y/z")
    fails(env, ep, "mkdir", "Permission denied", path="/etc/newdir")
    fails(env, ep, "mkdir", "Read-only file system", path="/mnt/archive/new")
    out = call(env, ep, "mkdir", path="x/y/z", parents=True)
    assert out["created"] == ["x", "x/y", "x/y/z"]
    assert call(env, ep, "mkdir", path="x/y", parents=True)["existed"]


def test_touch_existing_needs_write_or_ownership(fs):
    env, ep = fs
    fails(env, ep, "touch", "touch: cannot touch '/etc/hosts': Permission denied", path="/etc/hosts")
    call(env, ep, "touch", path="Notes/read-only.txt")  # owner may touch a 0444 file
    assert [(c["column"], c["new"]) for c in ep.diff()] == [("mtime", "2026-06-01T09:00:00")]


def test_replace_in_file(fs):
    env, ep = fs
    project = first_project(ep)
    out = call(
        env, ep, "replace_in_file", path=f"{project}/config.yaml", old="debug: false", new="debug: true"
    )
    assert out["replacements"] == 1
    assert "debug: true" in node(ep, f"{HOME}/{project}/config.yaml")["content"]
    fails(env, ep, "replace_in_file", "does not occur", path=f"{project}/config.yaml", old="nope", new="x")


def test_capacity_of_the_usb_stick(fs):
    env, ep = fs
    fails(env, ep, "cp", "No space left on device", source="Photos", destination="/mnt/usb", recursive=True)
    big = rows(
        ep, "SELECT * FROM nodes WHERE owner_id = ? AND name LIKE 'IMG_%' ORDER BY size_bytes DESC", ME
    )[0]
    assert big["size_bytes"] > 3_400_000
    path = call(env, ep, "find", path="Photos", name=big["name"])["entries"][0]["path"]
    fails(
        env,
        ep,
        "cp",
        "cp: error writing '/mnt/usb/backups/IMG_.*No space left on device",
        source=path,
        destination="/mnt/usb/backups",
    )
    call(env, ep, "cp", source="Notes/todo.txt", destination="/mnt/usb/backups")
    assert node(ep, "/mnt/usb/backups/todo.txt")["volume_id"] == "VOL-000003"
    usb = next(
        v for v in call(env, ep, "df", human_readable=False)["volumes"] if v["mounted_on"] == "/mnt/usb"
    )
    assert usb["use_percent"] >= 90


def test_read_only_archive_volume(fs):
    env, ep = fs
    old = call(env, ep, "ls", path="/mnt/archive/old-projects")["entries"][0]["path"]
    fails(env, ep, "rm", "Read-only file system", path=old, recursive=True)
    fails(env, ep, "touch", "Read-only file system", path="/mnt/archive/x")
    call(env, ep, "cp", source=old, destination="restored", recursive=True)  # reading is fine
    assert node(ep, f"{HOME}/restored")["volume_id"] == "VOL-000001"


# -- mv / cp / rm ---------------------------------------------------------------------------------


def test_mv_rules(fs):
    env, ep = fs
    call(env, ep, "mkdir", path="box/inner", parents=True)
    call(env, ep, "echo", text="a", path="a.txt")
    call(env, ep, "echo", text="b", path="b.txt")
    fails(
        env, ep, "mv", "cannot move 'box' to a subdirectory of itself", source="box", destination="box/inner"
    )
    fails(env, ep, "mv", "are the same file", source="a.txt", destination="./a.txt")
    fails(env, ep, "mv", "cannot overwrite non-directory", source="box", destination="a.txt")
    call(env, ep, "mkdir", path="box/Notes")
    call(env, ep, "touch", path="box/Notes/keep.txt")
    fails(
        env,
        ep,
        "mv",
        "mv: cannot move 'Notes' to 'box/Notes': Directory not empty",
        source="Notes",
        destination="box",
    )
    fails(env, ep, "mv", "cannot stat 'nothing'", source="nothing", destination="box")
    fails(
        env,
        ep,
        "mv",
        "mv: cannot move 'a.txt' to '/etc/a.txt': Permission denied",
        source="a.txt",
        destination="/etc",
    )
    out = call(env, ep, "mv", source="a.txt", destination="b.txt", no_clobber=True)
    assert out["moved"] is False
    call(env, ep, "mv", source="a.txt", destination="b.txt")  # replaces b.txt
    assert node(ep, f"{HOME}/b.txt")["content"] == "a\n"
    assert call(env, ep, "mv", source="b.txt", destination="box")["destination"] == "box/b.txt"
    call(env, ep, "mkdir", path="empty")
    call(env, ep, "mv", source="box/inner", destination="empty")
    assert node(ep, f"{HOME}/empty/inner")["kind"] == "dir"


def test_mv_from_sticky_tmp(fs):
    env, ep = fs
    tmp = node(ep, "/tmp")
    others = rows(
        ep, "SELECT name FROM nodes WHERE parent_id = ? AND owner_id != ? ORDER BY name", tmp["id"], ME
    )
    mine = rows(
        ep, "SELECT name FROM nodes WHERE parent_id = ? AND owner_id = ? AND kind = 'file'", tmp["id"], ME
    )
    target = f"/tmp/{others[0]['name']}"
    fails(env, ep, "rm", f"rm: cannot remove '{target}': Operation not permitted", path=target)
    fails(env, ep, "mv", "Operation not permitted", source=target, destination="~")
    call(env, ep, "rm", path=f"/tmp/{mine[0]['name']}")
    assert tables(ep) == {("nodes", "delete")}


def test_cp_rules(fs):
    env, ep = fs
    fails(env, ep, "cp", "-r not specified; omitting directory 'Notes'", source="Notes", destination="n2")
    fails(
        env,
        ep,
        "cp",
        "cannot copy a directory, 'Notes', into itself",
        source="Notes",
        destination="Notes/ideas",
        recursive=True,
    )
    fails(env, ep, "cp", "are the same file", source="Notes/todo.txt", destination="Notes")
    fails(env, ep, "cp", "Permission denied", source="/etc/shadow", destination="shadow")
    call(env, ep, "chmod", path="Notes/todo.txt", mode="640")
    call(env, ep, "cp", source="Notes/todo.txt", destination="t1.txt")
    call(env, ep, "cp", source="Notes/todo.txt", destination="t2.txt", preserve=True)
    src, t1, t2 = node(ep, f"{HOME}/Notes/todo.txt"), node(ep, f"{HOME}/t1.txt"), node(ep, f"{HOME}/t2.txt")
    assert t1["content"] == src["content"] and t1["mtime"] == "2026-06-01T09:00:00" and t1["mode"] == 0o640
    assert t2["mtime"] == src["mtime"]
    n = call(env, ep, "cp", source="Notes", destination="n2", recursive=True)["entries"]
    assert (
        n
        == len(
            [
                r
                for r in rows(
                    ep, "SELECT id FROM nodes WHERE owner_id = ? AND mtime = ?", ME, "2026-06-01T09:00:00"
                )
            ]
        )
        - 1
    )
    assert node(ep, f"{HOME}/n2/old-draft.md")["kind"] == "symlink"


def test_rm_and_rmdir_rules(fs):
    env, ep = fs
    fails(env, ep, "rm", "rm: cannot remove 'Notes': Is a directory", path="Notes")
    fails(env, ep, "rm", "dangerous", path="/", recursive=True)
    fails(env, ep, "rm", "Device or resource busy", path="/mnt/usb", recursive=True)
    fails(env, ep, "rm", "No such file or directory", path="ghost.txt")
    assert call(env, ep, "rm", path="ghost.txt", force=True)["count"] == 0
    fails(env, ep, "rmdir", "rmdir: failed to remove 'Notes': Directory not empty", path="Notes")
    fails(env, ep, "rmdir", "Not a directory", path="current")
    call(env, ep, "rmdir", path="Documents/empty-folder")
    call(env, ep, "rm", path="current")  # removes the link, not the project
    assert node(ep, f"{HOME}/Projects")["kind"] == "dir"
    before = len(rows(ep, "SELECT id FROM nodes"))
    out = call(env, ep, "rm", path="Notes", recursive=True)
    assert len(rows(ep, "SELECT id FROM nodes")) == before - out["count"]
    assert tables(ep) == {("nodes", "delete")}


def test_rm_recursive_is_all_or_nothing(fs):
    env, ep = fs
    call(env, ep, "mkdir", path="keep/locked", parents=True)
    call(env, ep, "touch", path="keep/locked/f.txt")
    call(env, ep, "chmod", path="keep/locked", mode="500")
    fails(env, ep, "rm", "Permission denied; nothing was removed", path="keep", recursive=True)


# -- permissions ---------------------------------------------------------------------------------


def test_chmod_chown_chgrp_rules(fs):
    env, ep = fs
    fails(
        env,
        ep,
        "chmod",
        "chmod: changing permissions of '/etc/hosts': Operation not permitted",
        path="/etc/hosts",
        mode="777",
    )
    fails(env, ep, "chown", "Operation not permitted", path="Notes/todo.txt", owner="root")
    fails(env, ep, "chown", "invalid user", path="Notes/todo.txt", owner="nobody")
    fails(env, ep, "chgrp", "Operation not permitted", path="Notes/todo.txt", group="adm")
    out = call(env, ep, "chmod", path="Notes/todo.txt", mode="u+x,go-r")
    assert out["permissions"] == "-rwx------"
    call(env, ep, "chgrp", path="Notes/todo.txt", group="staff")
    assert node(ep, f"{HOME}/Notes/todo.txt")["group_id"] == "staff"
    call(env, ep, "chmod", path="Notes", mode="750", recursive=True)
    assert {
        r["mode"]
        for r in rows(
            ep,
            "SELECT mode FROM nodes WHERE parent_id = ? AND kind != 'symlink'",
            node(ep, f"{HOME}/Notes")["id"],
        )
    } == {0o750}


def test_root_may_chown_but_not_write_a_read_only_volume(make_env):
    env = make_env("filesystem")
    ep = env.open({"filesystem": "root_shell"})
    call(env, ep, "chown", path="Notes/todo.txt", owner=PEOPLE[1].username, group="staff")
    row = node(ep, f"{HOME}/Notes/todo.txt")
    assert (row["owner_id"], row["group_id"]) == (PEOPLE[1].username, "staff")
    assert call(env, ep, "cat", path="/etc/shadow")["text"]
    fails(env, ep, "touch", "Read-only file system", path="/mnt/archive/x")


# -- links and archives ------------------------------------------------------------------------


def test_ln_and_readlink(fs):
    env, ep = fs
    call(env, ep, "ln", target="Notes/todo.txt", link_path="todo")
    assert call(env, ep, "readlink", path="todo")["target"] == "Notes/todo.txt"
    assert call(env, ep, "realpath", path="todo")["realpath"] == f"{HOME}/Notes/todo.txt"
    fails(env, ep, "ln", "File exists", target="Notes/todo.txt", link_path="todo")
    fails(env, ep, "readlink", "Invalid argument", path="Notes/todo.txt")


def test_tar_create_and_extract(fs):
    env, ep = fs
    out = call(
        env, ep, "tar_create", archive_path="notes.tar", sources=["Notes", "Documents/budget-2026.csv"]
    )
    assert "Notes/todo.txt" in out["members"] and "Documents/budget-2026.csv" in out["members"]
    assert call(env, ep, "file", path="notes.tar")["type"].startswith("POSIX tar archive")
    call(env, ep, "mkdir", path="restore")
    got = call(env, ep, "tar_extract", archive_path="notes.tar", destination="restore")
    assert got["extracted"] == out["count"] + 1  # plus the Documents directory it needs
    assert (
        node(ep, f"{HOME}/restore/Notes/todo.txt")["content"] == node(ep, f"{HOME}/Notes/todo.txt")["content"]
    )
    fails(
        env,
        ep,
        "tar_extract",
        "File exists; nothing was extracted",
        archive_path="notes.tar",
        destination="restore",
    )
    call(env, ep, "tar_extract", archive_path="notes.tar", destination="restore", overwrite=True)
    fails(env, ep, "tar_extract", "does not look like a tar archive", archive_path="Notes/todo.txt")
    fails(env, ep, "tar_create", "Cannot open: Permission denied", archive_path="x.tar", sources=["/root"])
    assert {t for t, _ in tables(ep)} == {"nodes", "archive_members"}


# -- stored paths -------------------------------------------------------------------------------

_TREE_PATHS = (
    "WITH RECURSIVE t(id, p) AS (SELECT id, '/' FROM nodes WHERE parent_id IS NULL UNION ALL"
    " SELECT n.id, CASE t.p WHEN '/' THEN '/' || n.name ELSE t.p || '/' || n.name END"
    " FROM nodes n JOIN t ON n.parent_id = t.id) SELECT id, p FROM t"
)


def _stale_paths(ep) -> list[tuple[str, str, str]]:
    """Nodes whose stored path differs from the one their parent chain spells."""
    stored = {r["id"]: r["path"] for r in rows(ep, "SELECT id, path FROM nodes")}
    walked = {r["id"]: r["p"] for r in rows(ep, _TREE_PATHS)}
    assert walked.keys() == stored.keys()  # every node hangs off the root
    return [(i, stored[i], walked[i]) for i in stored if stored[i] != walked[i]]


def test_stored_paths_follow_every_create_move_copy_and_extract(fs):
    env, ep = fs
    assert _stale_paths(ep) == []
    call(env, ep, "mkdir", path="a/b/c", parents=True)
    call(env, ep, "echo", text="x", path="a/b/c/x.txt")
    call(env, ep, "mv", source="a", destination="Notes")  # into an existing directory
    call(env, ep, "mv", source="Notes/a/b", destination="renamed")  # a rename to a new name
    call(env, ep, "mv", source="Notes", destination="/tmp")  # a big subtree, under the root volume
    call(env, ep, "cp", source="renamed", destination="copy", recursive=True)
    call(env, ep, "tar_create", archive_path="r.tar", sources=["renamed"])
    call(env, ep, "mkdir", path="out")
    call(env, ep, "tar_extract", archive_path="r.tar", destination="out")
    call(env, ep, "mv", source="/mnt/usb/backups/README.txt", destination="readme-from-usb.txt")
    call(env, ep, "rm", path="copy", recursive=True)
    assert _stale_paths(ep) == []
    assert node(ep, "/tmp/Notes/todo.txt")["path"] == "/tmp/Notes/todo.txt"
    assert node(ep, f"{HOME}/out/renamed/c/x.txt")["content"] == "x\n"


def test_under_the_working_directory_is_the_subtree_of_the_cwd(fs):
    """MINE_HERE picks exactly the persona's nodes at or below the cwd, wherever the cwd is."""
    from servers.domains.filesystem.model import MINE_HERE

    env, ep = fs
    subtree = (
        "WITH RECURSIVE t(id) AS (SELECT cwd_id FROM sessions UNION ALL"
        " SELECT n.id FROM nodes n JOIN t ON n.parent_id = t.id)"
        " SELECT id FROM nodes WHERE id IN (SELECT id FROM t) AND owner_id = (SELECT user_id FROM sessions)"
    )
    project = first_project(ep)
    for where in (HOME, f"{HOME}/{project}", f"{HOME}/{project}/src", "/tmp", "/"):
        call(env, ep, "cd", path=where)
        got = {r["id"] for r in rows(ep, f"SELECT id FROM nodes WHERE {MINE_HERE}")}
        assert got and got == {r["id"] for r in rows(ep, subtree)}, where
    call(env, ep, "mkdir", path=f"{HOME}/gone")
    call(env, ep, "cd", path=f"{HOME}/gone")
    call(env, ep, "rmdir", path=f"{HOME}/gone")
    assert rows(ep, f"SELECT id FROM nodes WHERE {MINE_HERE}") == []  # a removed cwd has nothing under it


def test_the_fill_never_reads_the_wall_clock(tmp_path, monkeypatch):
    """Faker dates default to 'up to now': a fill that used one would build other bytes tomorrow,
    and tasks made on one build would not replay on the next."""
    from faker.providers.date_time import Provider

    from state import SnapshotCache

    def clock(*args, **kwargs):
        raise AssertionError("the filesystem fill asked Faker for a date relative to now")

    monkeypatch.setattr(Provider, "unix_time", clock)
    snap = get_domain("filesystem").snapshot(0, "small", SnapshotCache(tmp_path))
    assert snap.sha256
