"""Signing in (as the persona or as anyone else whose password the user gives) and finding people."""

from __future__ import annotations

from servers.domains.team_chat.model import Member, MemberQuery, Password, Session, UserName, team_chat
from servers.domains.team_chat.rules import _handle, _public
from servers.kit import Db, Offset, PageSize, ToolError


@team_chat.tool(
    writes=[Session],
    returns=Member,
    says=[
        "sign me in to chat as {username}, my password is {password}",
        "log in to the workspace as {username} with password {password}",
    ],
)
def login(db: Db, username: UserName, password: Password) -> dict:
    """Sign in as a workspace member; every other tool then acts as them. Switches member if
    someone is already signed in.

    Args:
        username: The member's user name (sgould) or handle (@sgould).
        password: The member's password.
    """
    row = db.find(Member, _handle(username))
    if row is None or row["password"] != password:
        raise ToolError(f"invalid_auth: wrong user name or password for {username!r}")
    if row["status"] != "active":
        raise ToolError(f"account_inactive: {row['id']} is deactivated and can no longer sign in")
    db.set_acting(member_id=row["id"], signed_in_at=db.stamp())
    return {"signed_in": True, **_public(row)}


@team_chat.tool(
    returns=Member,
    says=[
        "find the member called {query} in the workspace",
        "who in chat matches {query}?",
        "look up {query} in the workspace directory",
    ],
)
def find_members(
    db: Db,
    query: MemberQuery,
    include_deactivated: bool = False,
    limit: PageSize = 20,
    offset: Offset = 0,
) -> dict:
    """Find workspace members by part of their name, handle, email or job title; gives the
    handles other tools take.

    Args:
        query: Part of a name ("Dana", "Whitfield"), a handle, an email or a title.
        include_deactivated: Also list deactivated members.
    """
    db.actor()
    needle = f"%{query.strip().lower().removeprefix('@')}%"
    where = "(lower(real_name) LIKE ? OR id LIKE ? OR lower(email) LIKE ? OR lower(title) LIKE ?)"
    if not include_deactivated:
        where += " AND status = 'active'"
    page = db.page(
        f"SELECT * FROM members WHERE {where} ORDER BY real_name, id",
        needle,
        needle,
        needle,
        needle,
        limit=limit,
        offset=offset,
        key="members",
    )
    page["members"] = [_public(r) for r in page["members"]]
    return page
