"""Issue tracker: teams keep projects, the members of a project file and work on
issues, plan them into sprints, discuss them in comments, watch them and mark
which issues block which.

Every issue follows one workflow. These are the only moves allowed:

    backlog      -> todo, cancelled
    todo         -> in_progress, backlog, cancelled
    in_progress  -> in_review, todo
    in_review    -> done, in_progress
    done         -> reopened
    reopened     -> in_progress, todo
    cancelled    -> backlog

Rules the tracker enforces: only active members of a project may report,
be assigned or comment on its issues; an issue needs an assignee to go (and
stay) in progress, and cannot be done while an issue blocking it is still
open (neither done nor cancelled); blocker links may not form a cycle. A
project has at most one active sprint; a sprint starts only from planned and
with issues in it, and completing it sends its unfinished issues back to the
project backlog (their status is kept). Only open issues of the sprint's own
project join a sprint, never a completed one. Archived projects are read-only.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated, Literal

from pydantic import Field
from sqlalchemy import ForeignKey, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from servers.kit import Db, Domain, Limit, LongText, Ref, Seeder, ShortText, ToolError

issue_tracker = Domain(
    "issue_tracker",
    "Issue tracker: projects and members, issues with a workflow, sprints, comments, watchers and blockers.",
)

IssueStatus = Literal["backlog", "todo", "in_progress", "in_review", "done", "reopened", "cancelled"]
IssueKind = Literal["bug", "feature", "task"]
Priority = Literal["low", "medium", "high", "urgent"]

TRANSITIONS: dict[str, tuple[str, ...]] = {
    "backlog": ("todo", "cancelled"),
    "todo": ("in_progress", "backlog", "cancelled"),
    "in_progress": ("in_review", "todo"),
    "in_review": ("done", "in_progress"),
    "done": ("reopened",),
    "reopened": ("in_progress", "todo"),
    "cancelled": ("backlog",),
}
RESOLVED = ("done", "cancelled")
# Ref conditions: the issue's project is not archived / the user is active and in some project.
EDITABLE = "project_id IN (SELECT id FROM projects WHERE status = 'active')"
MEMBER = "active = 1 AND id IN (SELECT user_id FROM project_members)"
# (project_id, user_id) of the members who may leave a project: not its lead, no open issue there
MAY_LEAVE = (
    "SELECT m.project_id, m.user_id FROM project_members m JOIN projects p ON p.id = m.project_id "
    "WHERE m.user_id != p.lead_id AND NOT EXISTS (SELECT 1 FROM issues i WHERE i.project_id = m.project_id "
    "AND i.assignee_id = m.user_id AND i.status NOT IN ('done', 'cancelled'))"
)

Title = Annotated[
    ShortText,
    Field(
        description="A one-line summary.",
        examples=["Login page crashes on Safari", "Add CSV export to reports", "Upgrade Postgres to 16"],
    ),
]
Description = Annotated[
    LongText,
    Field(
        description="Details, e.g. steps to reproduce.",
        examples=[
            "Steps: open the login page in Safari 17 and submit the form. Expected: dashboard. Actual: crash.",
            "Finance wants to download the monthly report as CSV to reconcile it in Excel.",
        ],
    ),
]
CommentBody = Annotated[
    LongText,
    Field(examples=["I can reproduce this on staging.", "Fixed in the latest build, please verify."]),
]
SprintName = Annotated[
    ShortText, Field(description="Unique in the project.", examples=["Sprint 14", "Q3 release"])
]
SprintGoal = Annotated[ShortText, Field(examples=["Ship the new checkout flow", "Fix the top crash reports"])]
Labels = Annotated[
    str,
    Field(
        max_length=200,
        examples=["bug, frontend", "backend, performance", "security", ""],
        description="Comma-separated labels that replace the current ones; an empty string clears them.",
    ),
]
ProjectKey = Annotated[
    str,
    Field(
        pattern=r"^[A-Z][A-Z0-9]{1,9}$",
        description="Unique uppercase key.",
        examples=["WEB", "PAY", "MOBILE"],
    ),
]
ProjectName = Annotated[ShortText, Field(examples=["Mobile App", "Payments Platform", "Design System"])]
SprintDays = Annotated[int, Field(ge=7, le=28, description="Sprint length in days (7-28).")]


class User(
    issue_tracker.Table, prefix="USR", people={"name": "name", "email": "email", "username": "username"}
):
    """A tracker account: one person of the shared world (USR-000001 is the persona)."""

    __tablename__ = "users"
    id: Mapped[str] = mapped_column(primary_key=True)
    name: Mapped[str]
    email: Mapped[str] = mapped_column(unique=True)
    username: Mapped[str] = mapped_column(unique=True)
    title: Mapped[str]
    active: Mapped[bool]
    joined_on: Mapped[str]


class Project(issue_tracker.Table, prefix="PRJ"):
    __tablename__ = "projects"
    id: Mapped[str] = mapped_column(primary_key=True)
    key: Mapped[str] = mapped_column(unique=True)
    name: Mapped[str]
    description: Mapped[str]
    lead_id: Mapped[str] = mapped_column(ForeignKey("users.id"))
    status: Mapped[str]  # active | archived
    created_on: Mapped[str]


class ProjectMember(issue_tracker.Table, prefix="MEM", noun="project membership"):
    __tablename__ = "project_members"
    __table_args__ = (UniqueConstraint("project_id", "user_id"),)
    id: Mapped[str] = mapped_column(primary_key=True)
    project_id: Mapped[str] = mapped_column(ForeignKey("projects.id"), index=True)
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"), index=True)
    added_on: Mapped[str]


class Sprint(issue_tracker.Table, prefix="SPR"):
    __tablename__ = "sprints"
    id: Mapped[str] = mapped_column(primary_key=True)
    project_id: Mapped[str] = mapped_column(ForeignKey("projects.id"), index=True)
    name: Mapped[str]
    goal: Mapped[str]
    status: Mapped[str]  # planned | active | completed
    start_date: Mapped[str | None]
    end_date: Mapped[str | None]
    completed_on: Mapped[str | None]


class Issue(issue_tracker.Table, prefix="ISS"):
    __tablename__ = "issues"
    id: Mapped[str] = mapped_column(primary_key=True)
    project_id: Mapped[str] = mapped_column(ForeignKey("projects.id"), index=True)
    title: Mapped[str]
    description: Mapped[str]
    kind: Mapped[str]
    priority: Mapped[str]
    status: Mapped[str] = mapped_column(index=True)
    labels: Mapped[str]
    reporter_id: Mapped[str] = mapped_column(ForeignKey("users.id"))
    assignee_id: Mapped[str | None] = mapped_column(ForeignKey("users.id"), index=True)
    sprint_id: Mapped[str | None] = mapped_column(ForeignKey("sprints.id"), index=True)
    created_at: Mapped[str]
    updated_at: Mapped[str]
    resolved_at: Mapped[str | None]


class IssueEvent(issue_tracker.Table, prefix="EVT", noun="status change"):
    """One move of an issue through the workflow."""

    __tablename__ = "issue_events"
    id: Mapped[str] = mapped_column(primary_key=True)
    issue_id: Mapped[str] = mapped_column(ForeignKey("issues.id"), index=True)
    from_status: Mapped[str]
    to_status: Mapped[str]
    at: Mapped[str]


class Comment(issue_tracker.Table, prefix="CMT"):
    __tablename__ = "comments"
    id: Mapped[str] = mapped_column(primary_key=True)
    issue_id: Mapped[str] = mapped_column(ForeignKey("issues.id"), index=True)
    author_id: Mapped[str] = mapped_column(ForeignKey("users.id"))
    body: Mapped[str]
    created_at: Mapped[str]


class Watcher(issue_tracker.Table, prefix="WCH", noun="watch"):
    __tablename__ = "watchers"
    __table_args__ = (UniqueConstraint("issue_id", "user_id"),)
    id: Mapped[str] = mapped_column(primary_key=True)
    issue_id: Mapped[str] = mapped_column(ForeignKey("issues.id"), index=True)
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"), index=True)
    since: Mapped[str]


class IssueLink(issue_tracker.Table, prefix="LNK", noun="issue link"):
    """``blocker_id`` blocks ``blocked_id``: the blocked issue cannot be done before it."""

    __tablename__ = "issue_links"
    __table_args__ = (UniqueConstraint("blocker_id", "blocked_id"),)
    id: Mapped[str] = mapped_column(primary_key=True)
    blocker_id: Mapped[str] = mapped_column(ForeignKey("issues.id"), index=True)
    blocked_id: Mapped[str] = mapped_column(ForeignKey("issues.id"), index=True)
    created_at: Mapped[str]


# -- seed data ----------------------------------------------------------------------

AREAS = ["login page", "checkout flow", "search results", "dashboard", "settings screen", "file upload"]
AREAS += ["invoice PDF", "password reset email", "notifications panel", "user profile", "admin console"]
SYMPTOMS = ["crashes", "times out", "shows a blank screen", "loses unsaved changes", "returns a 500 error"]
SYMPTOMS += ["is very slow", "ignores the user's locale", "shows the wrong totals"]
PLATFORMS = ["Safari", "Firefox", "Android", "iOS", "Windows", "staging", "large accounts", "slow networks"]
FEATURES = ["CSV export", "dark mode", "SSO login", "bulk edit", "keyboard shortcuts", "an audit log"]
FEATURES += ["saved filters", "two-factor authentication", "email digests", "drag-and-drop upload"]
CHORES = ["Upgrade Postgres to 16", "Refactor the auth middleware", "Speed up the CI pipeline"]
CHORES += ["Document the public API", "Remove stale feature flags", "Migrate logging to OpenTelemetry"]
CHORES += ["Write tests for the billing service", "Rotate the staging TLS certificates"]
LABELS = {
    "bug": ["bug", "frontend", "backend", "regression", "mobile", "security", "performance"],
    "feature": ["frontend", "backend", "ux", "customer-request", "mobile", "api"],
    "task": ["tech-debt", "infra", "docs", "ci", "backend", "security"],
}
COMMENTS = ["I can reproduce this on staging.", "Looks like a regression from the last release."]
COMMENTS += ["Fixed in the latest build, please verify.", "Can we get a screenshot?", "Blocked on design."]
COMMENTS += ["PR is up for review.", "Moving this to the next sprint.", "The customer asked again."]
COMMENTS += ["Pairing on this tomorrow.", "Added logs, will check after the deploy.", "+1, seeing it too."]
TEAMS = ["Atlas", "Nova", "Orion", "Apollo", "Zephyr", "Lumen", "Falcon", "Cobalt", "Sierra", "Quartz"]
TEAMS += ["Harbor", "Ember", "Polaris", "Vertex", "Tundra", "Summit", "Beacon", "Cascade", "Delta", "Indigo"]
PRODUCTS = ["Web App", "Mobile App", "Payments", "Search", "Data Platform", "Growth", "Infrastructure"]
PRODUCTS += ["Design System", "Billing", "Identity", "Analytics", "Notifications", "Admin Portal"]
GOALS = ["Ship the new checkout flow", "Fix the top crash reports", "Finish the SSO rollout"]
GOALS += ["Polish onboarding", "Cut p95 latency in half", "Pay down tech debt", "Prepare the Q3 release"]
JOBS = ["Software Engineer", "Senior Engineer", "Product Manager", "Designer", "QA Engineer", "SRE"]
FLOW = ["backlog", "todo", "in_progress", "in_review", "done", "reopened"]  # the seeded path to each status


def _new(rows: list[dict], prefix: str, **values: object) -> dict:
    """Append a row with the next id of its table."""
    rows.append(row := {"id": f"{prefix}-{len(rows) + 1:06d}", **values})
    return row


def _issue_text(s: Seeder, kind: str) -> tuple[str, str]:
    area = s.pick(AREAS)
    if kind == "bug":
        what, where = s.pick(SYMPTOMS), s.pick(PLATFORMS)
        return f"{area.capitalize()} {what} on {where}", f"Support reports that the {area} {what} on {where}."
    if kind == "feature":
        feature = s.pick(FEATURES)
        return f"Add {feature} to the {area}", f"Customers keep asking for {feature} in the {area}."
    chore = s.pick(CHORES)
    return chore, f"{chore}. Estimated at {s.rng.randint(1, 8)} days of work."


@issue_tracker.seed
def fill(s: Seeder) -> None:
    # Users are the first people of the shared world; the persona (USR-000001) is active and a
    # member of the first projects, so "my issues" always has something in it.
    world = s.world
    users: list[dict] = []
    for p in world.pick_people(min(s.count(small=30, medium=300, large=5000), len(world.people))):
        _new(users, "USR", name=p.name, email=p.email, username=p.username, title=s.pick(JOBS))
        users[-1].update(active=p is world.persona or s.chance(0.93), joined_on=s.day_offset(-1500, -60))
    combos = [(t, p) for p in PRODUCTS for t in TEAMS]
    s.rng.shuffle(combos)
    projects, members, sprints, crews = [], [], [], {}
    for i in range(s.count(small=4, medium=30, large=600)):
        (team, product), cycle = combos[i % len(combos)], i // len(combos)
        suffix = str(cycle + 1) if cycle else ""
        crew = [users[j]["id"] for j in s.rng.sample(range(len(users)), s.rng.randint(5, 12))]
        if i < 3 and users[0]["id"] not in crew:
            crew.append(users[0]["id"])
        archived = i % 7 == 2
        p = _new(projects, "PRJ", key=team[:3].upper() + product[:2].upper() + suffix)
        p.update(name=f"{team} {product} {suffix}".strip(), description=f"The {team} team's {product} work.")
        p.update(
            lead_id=crew[0], status="archived" if archived else "active", created_on=s.day_offset(-900, -200)
        )
        crews[p["id"]] = crew
        for u in crew:
            _new(members, "MEM", project_id=p["id"], user_id=u, added_on=s.day_offset(-200, -30))
        n_done = s.rng.randint(*s.count(small=(1, 2), medium=(2, 4), large=(2, 5)))
        plan = ["completed"] * n_done
        if not archived:  # most live projects run a sprint now; every one has something planned
            plan += (["active"] if i % 4 != 3 else []) + ["planned"] * (1 + (i % 3 == 0))
        for n, status in enumerate(plan, start=1):
            start = s.now - timedelta(days=6 + 14 * max(0, n_done - n + 1))
            began, ended = start.date().isoformat(), (start + timedelta(days=14)).date().isoformat()
            sp = _new(sprints, "SPR", project_id=p["id"], name=f"{p['key']} Sprint {n}", goal=s.pick(GOALS))
            dated = status != "planned"  # planned sprints get their dates when they start
            sp.update(status=status, start_date=began if dated else None, end_date=ended if dated else None)
            sp["completed_on"] = ended if status == "completed" else None
    s.add(User, users)
    s.add(Project, projects)
    s.add(ProjectMember, members)
    s.add(Sprint, sprints)
    _seed_issues(s, projects, crews, sprints)


def _blocking_links(s: Seeder, mine: list[dict], links: list[dict]) -> None:
    """Some unresolved issues of one project wait on another of its issues (never both ways)."""
    seen: set[tuple[str, str]] = set()
    for blocked in mine:  # a resolved issue never waits on an open one
        if blocked["status"] in RESOLVED or not s.chance(s.count(small=0.3, medium=0.12, large=0.08)):
            continue
        blocker = s.pick(mine)
        if blocker is blocked or {(blocker["id"], blocked["id"]), (blocked["id"], blocker["id"])} & seen:
            continue
        seen.add((blocker["id"], blocked["id"]))
        ids = {"blocker_id": blocker["id"], "blocked_id": blocked["id"]}
        _new(links, "LNK", **ids, created_at=blocked["created_at"])


def _seed_issues(s: Seeder, projects: list[dict], crews: dict, sprints: list[dict]) -> None:
    per_project = s.count(small=14, medium=40, large=100)
    of: dict[tuple[str, str], list[str]] = {}
    for sp in sprints:
        of.setdefault((sp["project_id"], sp["status"]), []).append(sp["id"])
    issues, events, comments, watchers, links = [], [], [], [], []
    loose = (
        ["backlog"] * 9 + ["todo"] * 4 + ["in_progress"] * 2 + ["in_review", "reopened", "done", "cancelled"]
    )
    for p in projects:
        pid, crew, first = p["id"], crews[p["id"]], len(issues)
        active, planned, completed = (of.get((pid, k), []) for k in ("active", "planned", "completed"))
        for _ in range(per_project + s.rng.randint(-per_project // 4, per_project // 4)):
            roll, sprint = s.rng.random(), None
            if p["status"] == "archived":
                status = s.pick(["done"] * 5 + ["cancelled", "backlog"])
                sprint = s.pick(completed) if status != "backlog" and s.chance(0.7) else None
            elif active and roll < 0.3:
                sprint, status = active[0], s.pick(["todo", "in_progress", "in_review", "done", "reopened"])
            elif planned and roll < 0.45:
                sprint, status = s.pick(planned), s.pick(["todo", "todo", "backlog"])
            elif completed and roll < 0.65:
                sprint, status = s.pick(completed), "done" if s.chance(0.9) else "cancelled"
            else:
                status = s.pick(loose)
            kind = s.pick(["bug", "bug", "feature", "task"])
            title, description = _issue_text(s, kind)
            worked = status in ("in_progress", "in_review", "done", "reopened")
            assignee, reporter = s.pick(crew) if worked or s.chance(0.45) else None, s.pick(crew)
            created = at = s.now - timedelta(days=s.rng.randint(20, 300), minutes=s.rng.randint(0, 1440))
            iid = f"ISS-{len(issues) + 1:06d}"
            path = ["backlog", "cancelled"] if status == "cancelled" else FLOW[: FLOW.index(status) + 1]
            for before, after in zip(path, path[1:], strict=False):
                at += timedelta(hours=s.rng.randint(2, 90))
                _new(events, "EVT", issue_id=iid, from_status=before, to_status=after, at=at.isoformat())
            stamp = at.isoformat()
            i = _new(issues, "ISS", project_id=pid, title=title, description=description, kind=kind)
            i.update(priority=s.pick(["low", "medium", "medium", "high", "urgent"]), status=status)
            i.update(labels=", ".join(sorted(s.rng.sample(LABELS[kind], s.rng.randint(0, 2)))))
            i.update(
                reporter_id=reporter, assignee_id=assignee, sprint_id=sprint, created_at=created.isoformat()
            )
            i.update(updated_at=stamp, resolved_at=stamp if status in RESOLVED else None)
            for u in dict.fromkeys([reporter, assignee, *s.rng.sample(crew, s.rng.randint(0, 2))]):
                if u:
                    _new(watchers, "WCH", issue_id=iid, user_id=u, since=stamp)
            for _ in range(s.rng.choice((0, 0, 1, 1, 2, 3))):
                when = (created + timedelta(hours=s.rng.randint(1, 400))).isoformat()
                body, by = s.pick(COMMENTS), s.pick(crew)
                _new(comments, "CMT", issue_id=iid, author_id=by, body=body, created_at=when)
        _blocking_links(s, issues[first:], links)
    for table, rows in ((Issue, issues), (IssueEvent, events), (Comment, comments), (Watcher, watchers)):
        s.add(table, rows)
    s.add(IssueLink, links)


# -- rules shared by several tools ---------------------------------------------------


def _open_project(db: Db, project_id: str) -> dict:
    """A project that may still change: archived projects are read-only."""
    p = db.get(Project, project_id)
    if p["status"] == "archived":
        raise ToolError(
            f"project {project_id} ({p['name']}) is archived and read-only: its issues, sprints, members "
            "and comments can no longer change"
        )
    return p


def _open_issue(db: Db, issue_id: str) -> dict:
    issue = db.get(Issue, issue_id)
    _open_project(db, issue["project_id"])
    return issue


def _require_member(db: Db, project_id: str, user_id: str, role: str) -> dict:
    """The user exists, is active and belongs to the project."""
    user = db.get(User, user_id)
    if not user["active"]:
        raise ToolError(f"user {user_id} ({user['name']}) is deactivated and cannot be the {role}")
    if not db.scalar(
        "SELECT 1 FROM project_members WHERE project_id = ? AND user_id = ?", project_id, user_id
    ):
        crew = [
            r["user_id"]
            for r in db.all("SELECT user_id FROM project_members WHERE project_id = ?", project_id)
        ]
        shown = ", ".join(crew[:12]) + (", ..." if len(crew) > 12 else "")
        raise ToolError(
            f"user {user_id} ({user['name']}) is not a member of project {project_id}; the {role} must be "
            f"one of its members ({shown}) - add them with add_project_member first"
        )
    return user


def _touch(db: Db, issue_id: str, **values: object) -> dict:
    return db.update(Issue, issue_id, **values, updated_at=db.stamp())


def _watch(db: Db, issue_id: str, user_id: str) -> dict:
    row = db.one("SELECT * FROM watchers WHERE issue_id = ? AND user_id = ?", issue_id, user_id)
    return row or db.insert(Watcher, issue_id=issue_id, user_id=user_id, since=db.stamp())


def _linked(db: Db, issue_id: str, side: str) -> list[dict]:
    """Issues blocking this one (side='blocked') or blocked by it (side='blocker'), with the link id."""
    other = "blocker" if side == "blocked" else "blocked"
    return db.all(
        f"SELECT l.id AS link_id, i.id, i.title, i.status FROM issue_links l JOIN issues i "
        f"ON i.id = l.{other}_id WHERE l.{side}_id = ? ORDER BY l.id",
        issue_id,
    )


# -- users and projects -----------------------------------------------------------------


@issue_tracker.tool(returns=User, says=["who is {user}?", "which projects is {user} on?"])
def get_user(db: Db, user: Ref[User]) -> dict:
    """A user's profile and the projects they are a member of."""
    u = db.get(User, user)
    u["projects"] = db.all(
        "SELECT p.id, p.key, p.name, p.status FROM project_members m JOIN projects p ON p.id = m.project_id "
        "WHERE m.user_id = ? ORDER BY p.id",
        user,
    )
    return u


@issue_tracker.tool(returns=Project, says=["show me project {project}", "who works on {project}?"])
def get_project(db: Db, project: Ref[Project]) -> dict:
    """A project with its members, its sprints and how many issues it has in each status."""
    p = db.get(Project, project)
    p["members"] = db.all(
        "SELECT u.id, u.name, u.username, u.title, u.active FROM project_members m "
        "JOIN users u ON u.id = m.user_id WHERE m.project_id = ? ORDER BY m.id",
        project,
    )
    p["sprints"] = db.all("SELECT * FROM sprints WHERE project_id = ? ORDER BY id", project)
    counts = db.all("SELECT status, count(*) AS n FROM issues WHERE project_id = ? GROUP BY status", project)
    p["issue_counts"] = {r["status"]: r["n"] for r in counts}
    return p


@issue_tracker.tool(
    writes=[Project, ProjectMember],
    returns=Project,
    says=[
        "create a project {name} with key {key}, led by {lead}",
        "set up project '{name}' ({key}) for {lead}",
    ],
)
def create_project(db: Db, key: ProjectKey, name: ProjectName, lead: Ref[User, "active = 1"]) -> dict:
    """Create a project led by an active user, who becomes its first member. Keys are unique."""
    u = db.get(User, lead)
    if not u["active"]:
        raise ToolError(f"user {lead} ({u['name']}) is deactivated and cannot lead a project")
    if taken := db.one("SELECT id FROM projects WHERE key = ?", key):
        raise ToolError(f"the key {key} is already used by project {taken['id']}; pick another key")
    today = db.today.isoformat()
    p = db.insert(
        Project, key=key, name=name, description="", lead_id=lead, status="active", created_on=today
    )
    db.insert(ProjectMember, project_id=p["id"], user_id=lead, added_on=today)
    return p


@issue_tracker.tool(
    writes=[Project],
    returns=Project,
    destructive=True,
    idempotent=True,
    says=["archive project {project}", "we're done with {project}, please archive it"],
)
def archive_project(
    db: Db,
    project: Ref[
        Project, "status = 'active' AND id NOT IN (SELECT project_id FROM sprints WHERE status = 'active')"
    ],
) -> dict:
    """Archive a project: it becomes read-only. Its active sprint must be completed first."""
    _open_project(db, project)
    if sprint := db.one("SELECT id FROM sprints WHERE project_id = ? AND status = 'active'", project):
        raise ToolError(
            f"project {project} still has active sprint {sprint['id']}; complete it before archiving"
        )
    return db.update(Project, project, status="archived")


@issue_tracker.tool(
    writes=[ProjectMember],
    returns=ProjectMember,
    says=["add {user} to project {project}", "give {user} access to {project}"],
)
def add_project_member(
    db: Db,
    project: Ref[Project, "status = 'active'"],
    user: Ref[
        User, "active = 1 AND id NOT IN (SELECT user_id FROM project_members WHERE project_id = :project)"
    ],
) -> dict:
    """Make an active user a member of a project, so they can report, be assigned and comment."""
    _open_project(db, project)
    u = db.get(User, user)
    if not u["active"]:
        raise ToolError(f"user {user} ({u['name']}) is deactivated; only active users can join projects")
    if db.scalar("SELECT 1 FROM project_members WHERE project_id = ? AND user_id = ?", project, user):
        raise ToolError(f"user {user} is already a member of project {project}")
    return db.insert(ProjectMember, project_id=project, user_id=user, added_on=db.today.isoformat())


@issue_tracker.tool(
    writes=[ProjectMember],
    destructive=True,
    idempotent=True,
    says=["remove {user} from project {project}", "take {user} off the {project} team"],
)
def remove_project_member(
    db: Db,
    project: Ref[Project, f"status = 'active' AND id IN (SELECT project_id FROM ({MAY_LEAVE}))"],
    user: Ref[User, f"id IN (SELECT user_id FROM ({MAY_LEAVE}) WHERE project_id = :project)"],
) -> dict:
    """Remove a member from a project. Not its lead, and not while they are assigned open issues there."""
    p = _open_project(db, project)
    m = db.one("SELECT id FROM project_members WHERE project_id = ? AND user_id = ?", project, user)
    if m is None:
        raise ToolError(f"user {user} is not a member of project {project}")
    if p["lead_id"] == user:
        raise ToolError(f"user {user} leads project {project}; the project lead cannot be removed")
    held = db.all(
        "SELECT id FROM issues WHERE project_id = ? AND assignee_id = ? AND status NOT IN ('done', 'cancelled')",
        project,
        user,
    )
    if held:
        raise ToolError(
            f"user {user} is still assigned {len(held)} open issue(s) in {project} "
            f"({', '.join(r['id'] for r in held[:10])}); reassign or unassign them first"
        )
    db.delete(ProjectMember, m["id"])
    return {"removed": user, "project": project}


# -- issues ---------------------------------------------------------------------------


@issue_tracker.tool(
    writes=[Issue, Watcher],
    returns=Issue,
    says=[
        "file a {kind} in {project} as {reporter}: {title}",
        "{reporter} wants a {priority} priority issue '{title}' in {project}, assigned to {assignee}",
    ],
)
def create_issue(
    db: Db,
    project: Ref[Project, "status = 'active'"],
    reporter: Ref[User, MEMBER],
    title: Title,
    kind: IssueKind = "task",
    priority: Priority = "medium",
    description: Description | None = None,
    assignee: Ref[User, MEMBER] | None = None,
) -> dict:
    """Create an issue in a project's backlog. The reporter (and the assignee, if any) watch it.

    Args:
        reporter: The project member filing it.
        assignee: A project member to assign it to right away.
    """
    _open_project(db, project)
    _require_member(db, project, reporter, "reporter")
    if assignee is not None:
        _require_member(db, project, assignee, "assignee")
    issue = db.insert(
        Issue,
        project_id=project,
        title=title,
        description=description or "",
        kind=kind,
        priority=priority,
        status="backlog",
        labels="",
        reporter_id=reporter,
        assignee_id=assignee,
        sprint_id=None,
        created_at=db.stamp(),
        updated_at=db.stamp(),
        resolved_at=None,
    )
    for u in dict.fromkeys(x for x in (reporter, assignee) if x):
        _watch(db, issue["id"], u)
    return issue


@issue_tracker.tool(returns=Issue, says=["show me issue {issue}", "what's the status of {issue}?"])
def get_issue(db: Db, issue: Ref[Issue]) -> dict:
    """An issue with its blockers, what it blocks, its watchers, its status history and allowed next moves."""
    i = db.get(Issue, issue)
    i["blocked_by"], i["blocks"] = _linked(db, issue, "blocked"), _linked(db, issue, "blocker")
    watchers = db.all("SELECT user_id FROM watchers WHERE issue_id = ? ORDER BY id", issue)
    i["watchers"] = [r["user_id"] for r in watchers]
    i["comment_count"] = db.scalar("SELECT count(*) FROM comments WHERE issue_id = ?", issue)
    i["history"] = db.all("SELECT * FROM issue_events WHERE issue_id = ? ORDER BY at, id", issue)
    i["allowed_transitions"] = list(TRANSITIONS[i["status"]])
    return i


@issue_tracker.tool(
    writes=[Issue],
    returns=Issue,
    idempotent=True,
    says=["rename {issue} to '{title}'", "set the priority of {issue} to {priority}"],
)
def update_issue(
    db: Db,
    issue: Ref[Issue, EDITABLE],
    title: Title | None = None,
    description: Description | None = None,
    priority: Priority | None = None,
) -> dict:
    """Change an issue's title, description and/or priority (give at least one)."""
    _open_issue(db, issue)
    given = {"title": title, "description": description, "priority": priority}
    if not (changes := {k: v for k, v in given.items() if v is not None}):
        raise ToolError("nothing to change: give a new title, description or priority")
    return _touch(db, issue, **changes)


@issue_tracker.tool(
    writes=[Issue, Watcher],
    returns=Issue,
    idempotent=True,
    says=["assign {issue} to {assignee}", "have {assignee} take over {issue}"],
)
def assign_issue(db: Db, issue: Ref[Issue, EDITABLE], assignee: Ref[User, MEMBER]) -> dict:
    """Assign an issue to an active member of its project; the assignee starts watching it."""
    i = _open_issue(db, issue)
    _require_member(db, i["project_id"], assignee, "assignee")
    _watch(db, issue, assignee)
    return _touch(db, issue, assignee_id=assignee) if i["assignee_id"] != assignee else i


@issue_tracker.tool(
    writes=[Issue],
    returns=Issue,
    idempotent=True,
    says=["unassign {issue}", "nobody is working on {issue} anymore, clear the assignee"],
)
def unassign_issue(
    db: Db, issue: Ref[Issue, "assignee_id IS NOT NULL AND status != 'in_progress' AND " + EDITABLE]
) -> dict:
    """Clear an issue's assignee. An issue in progress must keep one (move it back to todo first)."""
    i = _open_issue(db, issue)
    if i["status"] == "in_progress":
        raise ToolError(f"issue {issue} is in progress and must keep an assignee; move it back to todo first")
    return _touch(db, issue, assignee_id=None) if i["assignee_id"] else i


@issue_tracker.tool(
    writes=[Issue],
    returns=Issue,
    idempotent=True,
    says=["label {issue} with {labels}", "set the labels of {issue} to {labels}"],
)
def set_labels(db: Db, issue: Ref[Issue, EDITABLE], labels: Labels) -> dict:
    """Replace an issue's labels: at most 6, each letters, digits and dashes (stored lowercase)."""
    _open_issue(db, issue)
    names = sorted({x.strip().lower() for x in labels.split(",") if x.strip()})
    if bad := [x for x in names if not (x.replace("-", "").isalnum() and x.isascii() and len(x) <= 24)]:
        raise ToolError(
            f"invalid label(s) {', '.join(bad)}: use letters, digits and dashes, up to 24 characters"
        )
    if len(names) > 6:
        raise ToolError(f"an issue can carry at most 6 labels, {len(names)} were given")
    return _touch(db, issue, labels=", ".join(names))


@issue_tracker.tool(
    writes=[Issue, IssueEvent],
    returns=Issue,
    says=["move {issue} to {to_status}", "set the status of {issue} to {to_status}"],
)
def transition_issue(db: Db, issue: Ref[Issue, EDITABLE], to_status: IssueStatus) -> dict:
    """Move an issue through the workflow.

    Allowed moves: backlog -> todo/cancelled; todo -> in_progress/backlog/cancelled; in_progress ->
    in_review/todo; in_review -> done/in_progress; done -> reopened; reopened -> in_progress/todo;
    cancelled -> backlog. Going in progress needs an assignee; done needs every blocker done or cancelled.
    """
    i = _open_issue(db, issue)
    current, allowed = i["status"], TRANSITIONS[i["status"]]
    if to_status not in allowed:
        raise ToolError(
            f"issue {issue} cannot move from {current} to {to_status}; from {current} it can only move to "
            f"{', '.join(allowed)}"
        )
    if to_status == "in_progress" and not i["assignee_id"]:
        raise ToolError(f"issue {issue} has no assignee; assign it to a project member before starting work")
    waiting = [
        f"{b['id']} ({b['status']})" for b in _linked(db, issue, "blocked") if b["status"] not in RESOLVED
    ]
    if to_status == "done" and waiting:
        raise ToolError(
            f"issue {issue} cannot be done while it is blocked by open issues: {', '.join(waiting)}; "
            "finish, cancel or unlink them first"
        )
    changes: dict = {"status": to_status, "resolved_at": db.stamp() if to_status in RESOLVED else None}
    if (
        to_status not in RESOLVED
        and i["sprint_id"]
        and db.get(Sprint, i["sprint_id"])["status"] == "completed"
    ):
        changes["sprint_id"] = None  # reopening an issue of a finished sprint puts it back in the backlog
    db.insert(IssueEvent, issue_id=issue, from_status=current, to_status=to_status, at=db.stamp())
    return _touch(db, issue, **changes)


@issue_tracker.tool(
    returns=Issue,
    says=[
        "what is {assignee} working on?",
        "list the {status} issues in {project}",
        "find issues about '{text}'",
    ],
)
def search_issues(
    db: Db,
    project: Ref[Project] | None = None,
    status: IssueStatus | None = None,
    assignee: Ref[User] | None = None,
    sprint: Ref[Sprint] | None = None,
    priority: Priority | None = None,
    label: ShortText | None = None,
    text: ShortText | None = None,
    unassigned: bool = False,
    limit: Limit = 20,
) -> dict:
    """Find issues matching every filter given, most recently updated first.

    Args:
        label: Only issues carrying this label, e.g. frontend.
        text: Words the title or description contains.
        unassigned: Only issues nobody is assigned to.
    """
    filters = {"project_id": project, "status": status, "assignee_id": assignee, "sprint_id": sprint}
    filters["priority"] = priority
    conds = [f"{column} = ?" for column, value in filters.items() if value is not None]
    params: list = [value for value in filters.values() if value is not None]
    if label:
        conds.append("(', ' || labels || ', ') LIKE ?")
        params.append(f"%, {label.strip().lower()}, %")
    if text:
        conds.append("(title LIKE ? OR description LIKE ?)")
        params += [f"%{text}%"] * 2
    if unassigned:
        conds.append("assignee_id IS NULL")
    where = "WHERE " + " AND ".join(conds) if conds else ""
    rows = db.all(
        "SELECT id, project_id, title, kind, priority, status, labels, assignee_id, sprint_id, updated_at "
        f"FROM issues {where} ORDER BY updated_at DESC, id DESC LIMIT ?",
        *params,
        limit,
    )
    return {"total": db.scalar(f"SELECT count(*) FROM issues {where}", *params), "issues": rows}


# -- sprints ---------------------------------------------------------------------------


@issue_tracker.tool(returns=Sprint, says=["show me sprint {sprint}", "how is sprint {sprint} going?"])
def get_sprint(db: Db, sprint: Ref[Sprint]) -> dict:
    """A sprint, its issues, and how many of them are in each status."""
    sp = db.get(Sprint, sprint)
    sp["issues"] = db.all(
        "SELECT id, title, status, priority, assignee_id FROM issues WHERE sprint_id = ? ORDER BY id", sprint
    )
    counts = db.all("SELECT status, count(*) AS n FROM issues WHERE sprint_id = ? GROUP BY status", sprint)
    sp["status_counts"] = {r["status"]: r["n"] for r in counts}
    return sp


@issue_tracker.tool(
    writes=[Sprint],
    returns=Sprint,
    says=[
        "plan a new sprint '{name}' in {project}",
        "create a sprint called '{name}' for {project} with the goal '{goal}'",
    ],
)
def create_sprint(
    db: Db, project: Ref[Project, "status = 'active'"], name: SprintName, goal: SprintGoal | None = None
) -> dict:
    """Plan a new sprint in a project; it starts out planned, with no issues and no dates. Names are unique."""
    _open_project(db, project)
    if db.scalar("SELECT 1 FROM sprints WHERE project_id = ? AND lower(name) = lower(?)", project, name):
        raise ToolError(f"project {project} already has a sprint named {name!r}; pick another name")
    undated = {"start_date": None, "end_date": None, "completed_on": None}
    return db.insert(Sprint, project_id=project, name=name, goal=goal or "", status="planned", **undated)


@issue_tracker.tool(
    writes=[Sprint],
    returns=Sprint,
    needs=[Issue],
    says=["start sprint {sprint}", "kick off sprint {sprint} for {days} days"],
)
def start_sprint(
    db: Db,
    sprint: Ref[
        Sprint,
        "status = 'planned' AND id IN (SELECT sprint_id FROM issues) "
        "AND project_id NOT IN (SELECT project_id FROM sprints WHERE status = 'active')",
    ],
    days: SprintDays = 14,
) -> dict:
    """Start a planned sprint today. It needs issues, and its project may have only one active sprint."""
    sp = db.get(Sprint, sprint)
    _open_project(db, sp["project_id"])
    if sp["status"] != "planned":
        raise ToolError(f"sprint {sprint} is {sp['status']}; only planned sprints can be started")
    if running := db.one(
        "SELECT id, name FROM sprints WHERE project_id = ? AND status = 'active'", sp["project_id"]
    ):
        raise ToolError(
            f"project {sp['project_id']} already has an active sprint, {running['id']} ({running['name']}); "
            "complete it before starting another"
        )
    if not db.scalar("SELECT count(*) FROM issues WHERE sprint_id = ?", sprint):
        raise ToolError(
            f"sprint {sprint} has no issues; add some with add_issue_to_sprint before starting it"
        )
    end = (db.today + timedelta(days=days)).isoformat()
    return db.update(Sprint, sprint, status="active", start_date=db.today.isoformat(), end_date=end)


@issue_tracker.tool(
    writes=[Sprint, Issue],
    returns=Sprint,
    destructive=True,
    says=["complete sprint {sprint}", "close out sprint {sprint}, we're done with it"],
)
def complete_sprint(db: Db, sprint: Ref[Sprint, "status = 'active'"]) -> dict:
    """Complete the active sprint. Its unfinished issues leave it and go back to the project backlog."""
    sp = db.get(Sprint, sprint)
    _open_project(db, sp["project_id"])
    if sp["status"] != "active":
        raise ToolError(f"sprint {sprint} is {sp['status']}; only the active sprint can be completed")
    left = db.all("SELECT id FROM issues WHERE sprint_id = ? AND status NOT IN ('done', 'cancelled')", sprint)
    for row in left:
        _touch(db, row["id"], sprint_id=None)
    done = db.update(Sprint, sprint, status="completed", completed_on=db.today.isoformat())
    return {**done, "returned_to_backlog": [r["id"] for r in left]}


@issue_tracker.tool(
    writes=[Issue],
    returns=Issue,
    idempotent=True,
    says=["add {issue} to sprint {sprint}", "pull {issue} into sprint {sprint}"],
)
def add_issue_to_sprint(
    db: Db,
    issue: Ref[Issue, "sprint_id IS NULL AND status NOT IN ('done', 'cancelled') AND " + EDITABLE],
    sprint: Ref[Sprint, "status IN ('planned', 'active')"],
) -> dict:
    """Put an open issue into a planned or the active sprint of its own project (moving it from any other)."""
    i = _open_issue(db, issue)
    sp = db.get(Sprint, sprint)
    if sp["project_id"] != i["project_id"]:
        raise ToolError(
            f"sprint {sprint} belongs to project {sp['project_id']} but issue {issue} to {i['project_id']}; "
            "an issue can only join a sprint of its own project"
        )
    if sp["status"] == "completed":
        raise ToolError(
            f"sprint {sprint} is completed; add the issue to a planned or the active sprint instead"
        )
    if i["status"] in RESOLVED:
        raise ToolError(f"issue {issue} is {i['status']}; only open issues can be planned into a sprint")
    return _touch(db, issue, sprint_id=sprint) if i["sprint_id"] != sprint else i


@issue_tracker.tool(
    writes=[Issue],
    returns=Issue,
    idempotent=True,
    says=["take {issue} out of its sprint", "move {issue} back to the backlog"],
)
def remove_issue_from_sprint(
    db: Db, issue: Ref[Issue, "sprint_id IN (SELECT id FROM sprints WHERE status != 'completed')"]
) -> dict:
    """Take an issue out of its planned or active sprint, back to the project backlog."""
    i = _open_issue(db, issue)
    if i["sprint_id"] is None:
        raise ToolError(f"issue {issue} is not in any sprint")
    if db.get(Sprint, i["sprint_id"])["status"] == "completed":
        raise ToolError(
            f"issue {issue} belongs to completed sprint {i['sprint_id']}; completed sprints cannot change"
        )
    return _touch(db, issue, sprint_id=None)


# -- comments and watchers ----------------------------------------------------------------


@issue_tracker.tool(
    writes=[Comment],
    returns=Comment,
    says=[
        "comment on {issue} as {author}: {body}",
        "{author} wants to add a note to {issue} saying '{body}'",
    ],
)
def add_comment(db: Db, issue: Ref[Issue, EDITABLE], author: Ref[User, MEMBER], body: CommentBody) -> dict:
    """Add a comment to an issue. Only active members of the issue's project can comment.

    Args:
        author: The project member writing the comment.
    """
    i = _open_issue(db, issue)
    _require_member(db, i["project_id"], author, "comment author")
    return db.insert(Comment, issue_id=issue, author_id=author, body=body, created_at=db.stamp())


@issue_tracker.tool(
    returns=Comment, says=["show the comments on {issue}", "what have people said on {issue}?"]
)
def list_comments(db: Db, issue: Ref[Issue], limit: Limit = 20) -> dict:
    """An issue's comments, oldest first."""
    db.get(Issue, issue)
    rows = db.all(
        "SELECT c.*, u.name AS author_name FROM comments c JOIN users u ON u.id = c.author_id "
        "WHERE c.issue_id = ? ORDER BY c.created_at, c.id LIMIT ?",
        issue,
        limit,
    )
    return {"issue": issue, "comments": rows}


@issue_tracker.tool(
    writes=[Watcher],
    returns=Watcher,
    idempotent=True,
    says=["let {user} watch {issue}", "subscribe {user} to updates on {issue}"],
)
def watch_issue(db: Db, issue: Ref[Issue, EDITABLE], user: Ref[User, "active = 1"]) -> dict:
    """Subscribe an active user to an issue's updates (watching twice changes nothing)."""
    _open_issue(db, issue)
    u = db.get(User, user)
    if not u["active"]:
        raise ToolError(f"user {user} ({u['name']}) is deactivated and cannot watch issues")
    return _watch(db, issue, user)


@issue_tracker.tool(
    writes=[Watcher],
    idempotent=True,
    says=["stop {user} from watching {issue}", "unsubscribe {user} from {issue}"],
)
def unwatch_issue(
    db: Db,
    issue: Ref[Issue, "id IN (SELECT issue_id FROM watchers)"],
    user: Ref[User, "id IN (SELECT user_id FROM watchers)"],
) -> dict:
    """Unsubscribe a user from an issue."""
    db.get(Issue, issue)
    if (w := db.one("SELECT id FROM watchers WHERE issue_id = ? AND user_id = ?", issue, user)) is None:
        raise ToolError(f"user {user} is not watching issue {issue}")
    db.delete(Watcher, w["id"])
    return {"issue": issue, "unwatched": user}


# -- blockers --------------------------------------------------------------------------


@issue_tracker.tool(
    writes=[IssueLink],
    returns=IssueLink,
    says=["{blocker} blocks {blocked}", "mark {blocked} as blocked by {blocker}"],
)
def link_issues(
    db: Db, blocker: Ref[Issue], blocked: Ref[Issue, "status NOT IN ('done', 'cancelled') AND " + EDITABLE]
) -> dict:
    """Record that one issue blocks another: the blocked issue cannot be done until the blocker is resolved.

    Args:
        blocker: The issue that has to be finished first.
        blocked: The open issue that waits for it.
    """
    if blocker == blocked:
        raise ToolError("an issue cannot block itself; give two different issues")
    db.get(Issue, blocker)
    if (b := _open_issue(db, blocked))["status"] in RESOLVED:
        raise ToolError(f"issue {blocked} is already {b['status']}; reopen it before adding blockers")
    if db.scalar("SELECT 1 FROM issue_links WHERE blocker_id = ? AND blocked_id = ?", blocker, blocked):
        raise ToolError(f"{blocker} already blocks {blocked}")
    cycle = db.scalar(
        "WITH RECURSIVE down(id) AS (SELECT ? UNION SELECT l.blocked_id FROM issue_links l "
        "JOIN down ON l.blocker_id = down.id) SELECT 1 FROM down WHERE id = ?",
        blocked,
        blocker,
    )
    if cycle:
        raise ToolError(
            f"{blocked} already blocks {blocker} (directly or through others); the link would be a cycle"
        )
    return db.insert(IssueLink, blocker_id=blocker, blocked_id=blocked, created_at=db.stamp())


@issue_tracker.tool(
    writes=[IssueLink],
    destructive=True,
    idempotent=True,
    says=["remove the blocker link {link}", "{link} was a mistake, delete that link"],
)
def unlink_issues(db: Db, link: Ref[IssueLink]) -> dict:
    """Delete a blocker link between two issues (get_issue shows the link ids)."""
    row = db.get(IssueLink, link)
    _open_issue(db, row["blocked_id"])
    db.delete(IssueLink, link)
    return {"removed": link, "blocker": row["blocker_id"], "blocked": row["blocked_id"]}


# the words its users speak and its assistant answers with (read by the task generator)
from servers.domains.issue_tracker import language as _language  # noqa: E402,F401
