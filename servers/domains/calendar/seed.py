"""The seeded organisation: a directory of the persona's circle (the last ones external), their
calendars and who shares what, rooms in three buildings, then months of events (see
``seed_events``) and the persona's own week (``seed_persona``)."""

from __future__ import annotations

from servers.domains.calendar.book import SEEDED_AT, Book
from servers.domains.calendar.model import Calendar, CalendarAccess, Room, Session, User, calendar
from servers.domains.calendar.seed_events import seed_events
from servers.domains.calendar.seed_persona import seed_persona
from servers.kit import Seeder

HOURS = (("09:00", "17:00"),) * 4 + (("08:00", "16:00"), ("10:00", "18:00"), ("08:30", "17:30"))
TEAM_CALENDARS = (
    "Engineering on-call",
    "Product launches",
    "Design reviews",
    "Marketing campaigns",
    "All hands",
    "Hiring",
    "Support rotation",
    "Offsites and travel",
)
BUILDINGS = ("Harbor Building", "Cedar Hall", "Foundry")
ROOM_NAMES = (
    "Hood", "Rainier", "Shasta", "Baker", "Adams", "Jefferson", "Olympus", "Whitney", "Denali", "Sierra",
    "Cascade", "Columbia", "Willamette", "Tahoe", "Crater", "Sequoia", "Yosemite", "Zion", "Glacier", "Teton",
)  # fmt: skip
CAPACITIES = (2, 4, 4, 6, 6, 8, 8, 10, 12, 16, 20, 30)


@calendar.seed
def fill(s: Seeder) -> None:
    users = _seed_users(s)
    cals = _seed_calendars(s, users)
    _seed_access(s, users, cals)
    rooms = _seed_rooms(s, users[0])
    book = Book(s, {u["id"]: u for u in users}, rooms)
    seed_persona(s, book, users, cals)
    seed_events(s, book, users, cals)
    book.write()
    s.add(Session, [{"id": "SES-000001", "user_id": users[0]["id"]}])


def _seed_users(s: Seeder) -> list[dict]:
    """The persona, then her circle: colleagues first; the last sixth are external contacts."""
    n = s.count(small=40, medium=300, large=2500)
    outside = s.count(small=6, medium=50, large=400)
    people = [s.world.persona, *s.world.circle(s.world.persona, n - 1)]
    rows = []
    for i, p in enumerate(people):
        start, end = HOURS[0] if i == 0 else s.pick(list(HOURS))
        rows.append(
            {
                "id": p.email,
                "email": p.email,
                "name": p.name,
                "person_id": p.index,
                "title": p.title,
                "city": p.city,
                "timezone": p.timezone,
                "work_start": start,
                "work_end": end,
                "is_external": i >= n - outside,
            }
        )
    s.add(User, rows)
    return rows


def _seed_calendars(s: Seeder, users: list[dict]) -> dict[str, list[dict]]:
    """Primary calendars of members, the persona's two secondary ones and the team calendars."""
    out: dict[str, list[dict]] = {"primary": [], "secondary": [], "team": []}
    rows: list[dict] = []

    def add(kind: str, owner: str | None, name: str, tz: str, description: str = "") -> dict:
        row = {
            "id": f"CAL-{len(rows) + 1:06d}",
            "owner_id": owner,
            "name": name,
            "description": description,
            "timezone": tz,
            "kind": kind,
            "created_at": SEEDED_AT,
        }
        rows.append(row)
        out.setdefault(kind, []).append(row)
        return row

    members = [u for u in users if not u["is_external"]]
    for u in members:
        add("primary", u["id"], u["name"], u["timezone"])
    me = users[0]
    add("secondary", me["id"], "Personal", me["timezone"], "Appointments, family and errands")
    add("secondary", me["id"], "Running club", me["timezone"], "Group runs and races")
    teams = s.count(small=4, medium=8, large=40)
    for k in range(teams):
        owner = members[1 + (k * 7) % (len(members) - 1)]
        name = TEAM_CALENDARS[k % len(TEAM_CALENDARS)]
        name = name if k < len(TEAM_CALENDARS) else f"{name} {k // len(TEAM_CALENDARS) + 1}"
        add("team", owner["id"], name, owner["timezone"], f"Shared calendar: {name.lower()}")
    s.add(Calendar, rows)
    return out


def _seed_access(s: Seeder, users: list[dict], cals: dict[str, list[dict]]) -> None:
    """Owners, the persona's shares both ways, team members and colleagues' shares."""
    rows: list[dict] = []
    seen: set[tuple[str, str]] = set()

    def grant(cal: dict, user: str, role: str) -> None:
        if (cal["id"], user) in seen:
            return
        seen.add((cal["id"], user))
        rows.append(
            {
                "id": f"ACL-{len(rows) + 1:06d}",
                "calendar_id": cal["id"],
                "user_id": user,
                "role": role,
                "granted_at": SEEDED_AT,
            }
        )

    for kind in ("primary", "secondary", "team"):
        for cal in cals[kind]:
            grant(cal, cal["owner_id"], "owner")
    me = users[0]["id"]
    members = [u["id"] for u in users if not u["is_external"]]
    mine = cals["primary"][0]
    for k, (user, role) in enumerate(zip(members[1:4], ("reader", "writer", "free_busy"), strict=True)):
        grant(mine if k < 3 else cals["secondary"][0], user, role)
    grant(cals["secondary"][0], members[4], "reader")
    for k, team in enumerate(cals["team"][:6]):
        grant(team, me, "writer" if k % 2 == 0 else "reader")
    for k, cal in enumerate(cals["primary"][1:21]):
        grant(cal, me, "reader" if k % 2 == 0 else "free_busy")
    for team in cals["team"]:
        for user in s.rng.sample(members[1:], min(len(members) - 1, s.count(6, 25, 60))):
            grant(team, user, s.pick(["reader", "reader", "writer"]))
    for cal in cals["primary"][1:]:
        for user in s.rng.sample(members, 2):
            if user != cal["owner_id"]:
                grant(cal, user, s.pick(["free_busy", "reader"]))
    s.add(CalendarAccess, rows)


def _seed_rooms(s: Seeder, me: dict) -> list[dict]:
    """Rooms in three buildings, each with its resource calendar."""
    n = s.count(small=12, medium=40, large=120)
    domain = me["email"].split("@", 1)[1]
    rooms, cals = [], []
    first_cal = s.conn.execute("SELECT count(*) FROM calendars").fetchone()[0] + 1
    for i in range(n):
        building = BUILDINGS[i % len(BUILDINGS)]
        floor = 1 + (i // len(BUILDINGS)) % 6
        base = ROOM_NAMES[i % len(ROOM_NAMES)]
        name = base if i < len(ROOM_NAMES) else f"{base} {i // len(ROOM_NAMES) + 1}"
        cal = f"CAL-{first_cal + i:06d}"
        cals.append(
            {
                "id": cal,
                "owner_id": None,
                "name": f"Room {name}",
                "description": f"{building}, floor {floor}",
                "timezone": me["timezone"],
                "kind": "resource",
                "created_at": SEEDED_AT,
            }
        )
        slug = name.lower().replace(" ", "-")
        rooms.append(
            {
                "id": f"ROM-{i + 1:06d}",
                "name": name,
                "building": building,
                "floor": floor,
                "capacity": CAPACITIES[(i * 5) % len(CAPACITIES)],
                "has_video": i % 4 != 3,
                "resource_address": f"{slug}@rooms.{domain}",
                "calendar_id": cal,
            }
        )
    s.add(Calendar, cals)
    s.add(Room, rooms)
    return rooms
