"""Message search with Slack-like filters: ``in:#channel``, ``from:@handle``, ``before:``, ``after:``."""

from __future__ import annotations

from servers.domains.team_chat.model import Message, SearchQuery, team_chat
from servers.domains.team_chat.rules import _channel, _member, _parse_day, _show_messages
from servers.kit import Db, Offset, PageSize, ToolError

CURRENT = "CASE WHEN m.edited_at IS NULL THEN m.text ELSE coalesce((SELECT e.new_text FROM message_edits e WHERE e.message_id = m.id ORDER BY e.id DESC LIMIT 1), m.text) END"


def _parse(db: Db, me: dict, query: str) -> tuple[list[str], list]:
    """SQL conditions and parameters for a search query's filters and words."""
    where, params, words = [], [], []
    for token in query.split():
        key, _, value = token.partition(":")
        key = key.lower()
        if value and key == "in":
            ch = _channel(db, me, value)
            where.append("m.channel_id = ?")
            params.append(ch["id"])
        elif value and key == "from":
            where.append("m.author_id = ?")
            params.append(_member(db, value)["id"])
        elif value and key in ("before", "after"):
            day = _parse_day(value, f"{key}:")
            where.append("m.created_at < ?" if key == "before" else "m.created_at > ?")
            params.append(day if key == "before" else f"{day}T99")
        else:
            words.append(token.lower())
    if not words and not where:
        raise ToolError(f"invalid_search: {query!r} has no words or filters to search for")
    for w in words:
        # LIKE folds ASCII case as lower() does, so an unedited message whose own text lacks the
        # word is out before the latest edit is looked up (most messages were never edited)
        where.append(f"(m.text LIKE ? OR m.edited_at IS NOT NULL) AND lower({CURRENT}) LIKE ?")
        params.extend([f"%{w}%", f"%{w}%"])
    return where, params


@team_chat.tool(
    returns=Message,
    says=[
        "search chat for '{query}'",
        "find messages about {query}",
        "look for the last {limit} messages mentioning {query}",
    ],
)
def search_messages(db: Db, query: SearchQuery, limit: PageSize = 20, offset: Offset = 0) -> dict:
    """Search the messages you can see (public channels, and private channels and DMs you are
    in), newest first. Every word must appear; filters narrow it: ``in:#design``, ``in:CHN-000042``,
    ``from:@dwhitfield``, ``before:2026-05-20`` (earlier days), ``after:2026-05-01`` (later days).

    Args:
        query: Words and filters, e.g. "deploy in:#engineering from:@dwhitfield after:2026-05-01".
    """
    me = db.actor()
    where, params = _parse(db, me, query)
    visible = (
        "EXISTS (SELECT 1 FROM channels c WHERE c.id = m.channel_id AND ((c.kind = 'channel' AND "
        "c.is_private = 0) OR EXISTS (SELECT 1 FROM memberships s WHERE s.channel_id = c.id AND s.member_id = ?)))"
    )
    # Every search reads all 30,000 messages, so the page and its total come from one scan (a window
    # count rides along each row); only a page past the end needs counting on its own.
    matching = f"FROM messages m WHERE m.deleted = 0 AND {' AND '.join(where)} AND {visible}"
    rows = db.all(
        f"SELECT m.*, count(*) OVER () AS _total {matching} "
        "ORDER BY m.created_at DESC, m.id DESC LIMIT ? OFFSET ?",
        *params,
        me["id"],
        limit,
        offset,
    )
    total = rows[0]["_total"] if rows else db.scalar(f"SELECT count(*) {matching}", *params, me["id"])
    names = {}
    for row in rows:
        del row["_total"]
        if row["channel_id"] not in names:
            names[row["channel_id"]] = db.scalar("SELECT name FROM channels WHERE id = ?", row["channel_id"])
    return {
        "messages": [
            {**shown, "channel_name": names[shown["channel"]]} for shown in _show_messages(db, rows)
        ],
        "total": total,
        "offset": offset,
        "limit": limit,
        "truncated": offset + len(rows) < total,
        "query": query,
    }
