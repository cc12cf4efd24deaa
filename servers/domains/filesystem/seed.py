"""The seeded machine: users and homes, system directories, volumes, links; and its initial-state variants."""

from __future__ import annotations

from datetime import timedelta

from servers.domains.filesystem import posix as P
from servers.domains.filesystem.content import (
    _TOPICS,
    _WORDS,
    ARCHIVE_VOL,
    ROOT_VOL,
    USB_VOL,
    _csv,
    _home,
    _log,
    _markdown,
    _project,
    _Tree,
)
from servers.domains.filesystem.model import (
    ArchiveMember,
    Group,
    GroupMember,
    Node,
    Session,
    User,
    Volume,
    filesystem,
)
from servers.kit import Db, Seeder


@filesystem.seed
def fill(s: Seeder) -> None:
    """Eight world people (the persona first) and root on a three-volume machine, laid out part by
    part in a fixed order (each part draws from the same seeded generators, so the order matters)."""
    people = s.world.pick_people(8)
    users = [p.username for p in people]
    groups, user_rows, membership = _accounts(s, people, users)
    _volumes(s)
    t = _Tree(s, {"root": "root", **{u: u for u in users}})
    _system(t)
    _homes(s, t, people, users)
    _etc(t, groups, user_rows, membership)
    _var_log(s, t, users)
    _srv_shared(s, t, membership["staff"])
    _tmp(s, t, users)
    _opt_data(s, t)
    _mounts(s, t, users[0])
    s.add(Node, t.rows)
    s.add(ArchiveMember, ({"id": f"ARM-{i:06d}", **m} for i, m in enumerate(t.members, 1)))
    s.add(
        Session,
        [
            {
                "id": "SES-000001",
                "user_id": users[0],
                "cwd_id": t.ids[f"/home/{users[0]}"],
                "oldpwd_id": None,
                "dir_stack": "",
                "umask": 0o022,
            }
        ],
    )


def _accounts(
    s: Seeder, people: list, users: list[str]
) -> tuple[dict[str, int], list[dict], dict[str, list[str]]]:
    """Groups, users (root and the eight people) and who belongs to which group."""
    groups = {"root": 0, "adm": 4, "shadow": 42, "staff": 50, "users": 100, "developers": 1100}
    for i, u in enumerate(users):
        groups[u] = 1000 + i
    s.add(Group, ({"id": g, "gid": gid} for g, gid in sorted(groups.items(), key=lambda kv: kv[1])))
    user_rows = [
        {
            "id": "root",
            "full_name": "root",
            "uid": 0,
            "group_id": "root",
            "home": "/root",
            "shell": "/bin/bash",
            "is_root": True,
            "password": "toor-" + s.fake.password(length=8, special_chars=False),
        }
    ]
    for i, p in enumerate(people):
        user_rows.append(
            {
                "id": p.username,
                "full_name": p.name,
                "uid": 1000 + i,
                "group_id": p.username,
                "home": f"/home/{p.username}",
                "shell": "/bin/bash",
                "is_root": False,
                "password": s.fake.password(length=10, special_chars=False),
            }
        )
    s.add(User, user_rows)
    membership = {
        "staff": [users[0], users[1], users[2], users[4]],
        "developers": [users[0], users[2], users[3], users[6]],
        "adm": ["root", users[4]],
        "users": users,
    }
    s.add(
        GroupMember,
        (
            {"id": f"GMB-{i:06d}", "group_id": g, "user_id": u}
            for i, (g, u) in enumerate(((g, u) for g in sorted(membership) for u in membership[g]), 1)
        ),
    )
    return groups, user_rows, membership


def _volumes(s: Seeder) -> None:
    """The root disk, a read-only archive disk and a small USB stick."""
    s.add(
        Volume,
        [
            {
                "id": ROOT_VOL,
                "mount_path": "/",
                "device": "/dev/sda1",
                "fstype": "ext4",
                "capacity_kb": 50 * 1024 * 1024,
                "read_only": False,
            },
            {
                "id": ARCHIVE_VOL,
                "mount_path": "/mnt/archive",
                "device": "/dev/sdb1",
                "fstype": "ext4",
                "capacity_kb": 20 * 1024 * 1024,
                "read_only": True,
            },
            {
                "id": USB_VOL,
                "mount_path": "/mnt/usb",
                "device": "/dev/sdc1",
                "fstype": "vfat",
                "capacity_kb": 64 * 1024,
                "read_only": False,
            },
        ],
    )


def _system(t: _Tree) -> None:
    """The top of the tree and root's home."""
    t.add("/", "dir", "root", 0o755)
    for d in ("/home", "/etc", "/var", "/var/log", "/srv", "/opt", "/opt/data", "/mnt"):
        t.dir(d, "root")
    t.dir("/root", "root", 0o700)
    t.file("/root/notes.txt", "root", "rotate backups monthly\nkernel upgrade scheduled\n", 0o600)
    t.file("/root/.bashrc", "root", "export PS1='# '\n", 0o600)


def _homes(s: Seeder, t: _Tree, people: list, users: list[str]) -> None:
    """Homes: the persona's is the big one; two others are private, one has a group-readable ~/shared."""
    for i, p in enumerate(people):
        me = i == 0
        _home(
            s,
            t,
            p.username,
            p.name,
            projects=s.count(1, 12, 90) if me else s.count(0, 3, 80),
            modules=s.count(4, 110, 150) if me else s.count(4, 20, 150),
            notes=s.count(8, 230, 600) if me else s.count(2, 40, 200),
            private=i in (3, 5),
            persona=me,
        )
    owner_shared = users[1]
    t.dir(f"/home/{owner_shared}/shared", owner_shared, 0o750, group="staff")
    for i in range(s.count(3, 8, 40)):
        t.file(
            f"/home/{owner_shared}/shared/plan-{i}.md",
            owner_shared,
            _markdown(s, "Team plan", 6),
            0o640,
            group="staff",
        )


def _etc(t: _Tree, groups: dict[str, int], user_rows: list[dict], membership: dict[str, list[str]]) -> None:
    """/etc: host files, passwd/group/shadow that agree with the users table, ssh, nginx, cron."""
    passwd = "".join(
        f"{u['id']}:x:{u['uid']}:{groups[u['group_id']]}:{u['full_name']}:{u['home']}:{u['shell']}\n"
        for u in user_rows
    )
    etc = {
        "hostname": "workstation\n",
        "hosts": "127.0.0.1 localhost\n127.0.1.1 workstation\n10.0.0.12 db.internal\n10.0.0.20 files.internal\n",
        "passwd": passwd,
        "group": "".join(
            f"{g}:x:{gid}:{','.join(membership.get(g, []))}\n" for g, gid in sorted(groups.items())
        ),
        "fstab": "/dev/sda1 / ext4 defaults 0 1\n/dev/sdb1 /mnt/archive ext4 ro 0 2\n/dev/sdc1 /mnt/usb vfat user 0 0\n",
        "resolv.conf": "nameserver 10.0.0.2\nsearch internal\n",
        "timezone": "America/Los_Angeles\n",
        "motd": "Welcome to workstation. Backups run nightly at 02:00.\n",
        "app.yaml": "server:\n  port: 8080\n  workers: 4\ndatabase:\n  host: db.internal\n  pool: 10\nlogging:\n  level: INFO\n",
        "logrotate.conf": "weekly\nrotate 4\ncreate\ncompress\n",
    }
    for name, text in etc.items():
        t.file(f"/etc/{name}", "root", text)
    t.file(
        "/etc/shadow",
        "root",
        "".join(f"{u['id']}:$6$hash:19000:0:99999:7:::\n" for u in user_rows),
        0o640,
        group="shadow",
    )
    t.file("/etc/sudoers", "root", "root ALL=(ALL) ALL\n%adm ALL=(ALL) ALL\n", 0o440)
    t.dir("/etc/ssh", "root")
    t.file("/etc/ssh/sshd_config", "root", "PermitRootLogin no\nPasswordAuthentication no\n", 0o600)
    t.dir("/etc/nginx", "root")
    t.dir("/etc/nginx/sites-available", "root")
    t.dir("/etc/nginx/sites-enabled", "root")
    t.file(
        "/etc/nginx/nginx.conf",
        "root",
        "worker_processes auto;\nevents { worker_connections 1024; }\nhttp { include sites-enabled/*; }\n",
    )
    for site in ("default", "api.conf", "shop.conf"):
        t.file(
            f"/etc/nginx/sites-available/{site}",
            "root",
            f"server {{\n  listen 80;\n  server_name {site.split('.')[0]}.internal;\n  location / {{ proxy_pass http://127.0.0.1:8080; }}\n}}\n",
        )
    t.link("/etc/nginx/sites-enabled/api.conf", "root", "../sites-available/api.conf")
    t.dir("/etc/cron.d", "root")
    t.file("/etc/cron.d/backup", "root", "0 2 * * * root /usr/local/bin/backup --to /mnt/usb\n")


def _var_log(s: Seeder, t: _Tree, users: list[str]) -> None:
    """/var/log: timestamped application, access, system and auth logs, and a latest.log link."""
    lines = s.count(200, 3000, 3000)
    t.file("/var/log/app.log", "root", _log(s, lines), mtime=s.now.isoformat(timespec="seconds"))
    t.file("/var/log/app.log.1", "root", _log(s, lines // 6, days=10))
    t.file(
        "/var/log/access.log",
        "root",
        "".join(
            f'10.0.0.{s.rng.randint(2, 250)} - - [{(s.now - timedelta(minutes=k * 3)).isoformat()}] "GET /{s.rng.choice(_WORDS)} HTTP/1.1" {s.rng.choice([200] * 8 + [404, 500])} {s.rng.randint(200, 9000)}\n'
            for k in range(s.count(100, 2000, 2000))
        ),
    )
    t.file("/var/log/syslog", "root", _log(s, s.count(100, 1500, 1500)), 0o640, group="adm")
    t.file(
        "/var/log/auth.log",
        "root",
        "".join(f"session opened for user {s.rng.choice(users)}\n" for _ in range(s.count(20, 500, 500))),
        0o640,
        group="adm",
    )
    t.link("/var/log/latest.log", "root", "app.log")
    t.dir("/var/log/nginx", "root")
    t.file("/var/log/nginx/error.log", "root", _log(s, s.count(20, 300, 300)))


def _srv_shared(s: Seeder, t: _Tree, staff: list[str]) -> None:
    """/srv/shared: a setgid team directory of group staff."""
    t.dir("/srv/shared", "root", 0o2775, group="staff")
    for sub in ("docs", "templates", "reports", "team-notes"):
        t.dir(f"/srv/shared/{sub}", s.pick(staff), 0o2775, group="staff")
        for i in range(s.count(2, 10, 100)):
            t.file(
                f"/srv/shared/{sub}/{s.rng.choice(_TOPICS)}-{i}.md",
                s.pick(staff),
                _markdown(s, sub, 6),
                0o664,
                group="staff",
            )
    t.tar("/srv/shared/templates.tar", "root", "/srv/shared/templates", "templates")


def _tmp(s: Seeder, t: _Tree, users: list[str]) -> None:
    """/tmp: sticky, with entries of many users."""
    persona = users[0]
    t.dir("/tmp", "root", 0o1777)
    for i in range(s.count(24, 40, 300)):
        owner = s.pick(users[1:] + ["root"]) if s.chance(0.75) else persona
        kind = s.rng.choice(["log", "tmp", "txt"])
        t.file(
            f"/tmp/{s.rng.choice(['build', 'session', 'upload', 'scratch'])}-{i}.{kind}",
            owner,
            _log(s, 5, days=1),
            s.pick([0o644, 0o600, 0o664]),
        )
    t.dir(f"/tmp/{persona}-work", persona, 0o700)
    t.file(f"/tmp/{persona}-work/draft.txt", persona, "half-finished draft\n")


def _opt_data(s: Seeder, t: _Tree) -> None:
    """/opt/data: CSV datasets with duplicates and unsorted rows."""
    t.file("/opt/data/README.md", "root", "Datasets refreshed weekly. CSVs have a header row.\n")
    for i in range(s.count(10, 16, 200)):
        kind = ("sales", "people", "services")[i % 3]
        t.file(f"/opt/data/{kind}-{i:02d}.csv", "root", _csv(s, kind, s.count(30, 120, 60)))


def _mounts(s: Seeder, t: _Tree, persona: str) -> None:
    """/mnt/archive: a read-only volume of old projects; /mnt/usb: a nearly full stick."""
    t.dir("/mnt/archive", "root", volume=ARCHIVE_VOL)
    t.dir("/mnt/archive/old-projects", "root")
    for i in range(s.count(1, 4, 40)):
        _project(
            s, t, f"/mnt/archive/old-projects/legacy-{s.rng.choice(_WORDS)}-{i}", persona, s.count(4, 10, 40)
        )
    first_old = next(
        p for p in t.ids if p.startswith("/mnt/archive/old-projects/legacy-") and p.count("/") == 4
    )
    t.tar("/mnt/archive/old-projects-2023.tar", "root", first_old, first_old.rsplit("/", 1)[1])
    t.dir("/mnt/usb", persona, volume=USB_VOL)
    t.dir("/mnt/usb/backups", persona)
    target = int(64 * 1024 * 1024 * 0.95)
    used, k = 2 * P.DIR_SIZE, 0
    while used < target - 3_000_000:
        size = min(s.rng.randint(1_500_000, 6_000_000), target - used)
        t.blob(f"/mnt/usb/backups/photos-{k:03d}.zip", persona, size)
        used, k = used + size, k + 1
    t.blob(f"/mnt/usb/backups/photos-{k:03d}.zip", persona, max(1, target - used - 200))
    t.file("/mnt/usb/backups/README.txt", persona, "Copies of ~/Photos. Keep free space above 2 MB.\n")


@filesystem.variant("in_project")
def in_project(db: Db) -> None:
    """The shell starts inside one of the persona's projects (``pushd ~/current`` from home, so
    ``popd`` goes back)."""
    home = db.scalar("SELECT home FROM users WHERE id = (SELECT user_id FROM sessions)")
    a = P.actor(db)
    project = P.resolve(db, a, home + "/current")
    db.set_acting(cwd_id=project["id"], oldpwd_id=a.cwd_id, dir_stack=a.cwd_id)


@filesystem.variant("root_shell")
def root_shell(db: Db) -> None:
    """The shell is a root shell (after su), still in the persona's home."""
    db.set_acting(user_id="root")
