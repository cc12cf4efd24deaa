"""The search language of ``search_messages``: Gmail-style operators turned into SQL over one
mailbox. Every part becomes a bound parameter; an operator or value the service does not know
is an error that lists what it does know."""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Any

from servers.domains.email.rules import find_label
from servers.kit import Db, ToolError

OPERATORS = (
    "from",
    "to",
    "subject",
    "label",
    "in",
    "is",
    "has",
    "before",
    "after",
    "newer_than",
    "older_than",
)
IS_VALUES = {"unread": "UNREAD", "starred": "STARRED", "important": "IMPORTANT", "read": None}
_TOKEN = re.compile(r'(-?)(?:(\w+):("[^"]*"|\S+)|"([^"]*)"|(\S+))')
_AGE = re.compile(r"^(\d{1,4})([dwmy])$")
_DAYS = {"d": 1, "w": 7, "m": 30, "y": 365}


def _like(text: str) -> str:
    return "%" + text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


def _day(value: str, op: str) -> str:
    try:
        return date.fromisoformat(value.replace("/", "-")).isoformat()
    except ValueError:
        raise ToolError(f"{op}:{value} is not a date; write it as YYYY-MM-DD, e.g. {op}:2026-05-01") from None


def _age(db: Db, value: str, op: str) -> str:
    m = _AGE.match(value)
    if not m:
        raise ToolError(f"{op}:{value} is not an age; write a number and d, w, m or y, e.g. {op}:7d")
    days = int(m.group(1)) * _DAYS[m.group(2)]
    return (db.now - timedelta(days=days)).isoformat(timespec="seconds")


def _has_label(label_id: str) -> str:
    return "id IN (SELECT message_id FROM message_labels WHERE label_id = ?)", label_id


class Query:
    """SQL conditions (AND-ed) and their parameters, built up one search term at a time."""

    def __init__(self, db: Db, mbx: dict) -> None:
        self.db, self.mbx = db, mbx
        self.where: list[str] = ["mailbox_id = ?"]
        self.params: list[Any] = [mbx["id"]]
        self.everywhere = False  # a label:/in: term for TRASH or SPAM lifts the default exclusion

    def add(self, sql: str, *params: Any, negate: bool = False) -> None:
        self.where.append(f"NOT ({sql})" if negate else f"({sql})")
        self.params.extend(params)

    def text(self, value: str, negate: bool) -> None:
        cond = " OR ".join(f"{c} LIKE ? ESCAPE '\\'" for c in ("subject", "body", "from_name", "from_addr"))
        self.add(cond, *[_like(value)] * 4, negate=negate)

    def label(self, value: str, negate: bool) -> None:
        if value.lower() in ("anywhere", "all"):
            self.everywhere = True
            return
        row = find_label(self.db, self.mbx, value)
        if row["name"] in ("TRASH", "SPAM") and not negate:
            self.everywhere = True
        self.add(*_has_label(row["id"]), negate=negate)

    def operator(self, op: str, value: str, negate: bool) -> None:
        op = op.lower()
        if op == "from":
            self.add(
                "from_addr LIKE ? ESCAPE '\\' OR from_name LIKE ? ESCAPE '\\'",
                _like(value),
                _like(value),
                negate=negate,
            )
        elif op == "to":
            self.add(
                "to_addrs LIKE ? ESCAPE '\\' OR cc_addrs LIKE ? ESCAPE '\\' OR bcc_addrs LIKE ? ESCAPE '\\'",
                *[_like(value)] * 3,
                negate=negate,
            )
        elif op == "subject":
            self.add("subject LIKE ? ESCAPE '\\'", _like(value), negate=negate)
        elif op in ("label", "in"):
            self.label(value, negate)
        elif op == "is":
            self.flag(value, negate)
        elif op == "has":
            if value.lower() not in ("attachment", "attachments"):
                raise ToolError(f"has:{value} is not supported; use has:attachment")
            self.add("id IN (SELECT message_id FROM attachments)", negate=negate)
        elif op in ("before", "after"):
            day = _day(value, op)
            self.add("sent_at < ?" if op == "before" else "sent_at >= ?", day, negate=negate)
        elif op in ("newer_than", "older_than"):
            since = _age(self.db, value, op)
            self.add("sent_at >= ?" if op == "newer_than" else "sent_at < ?", since, negate=negate)
        else:
            raise ToolError(
                f"unknown search operator {op}:; supported: {', '.join(o + ':' for o in OPERATORS)}"
            )

    def flag(self, value: str, negate: bool) -> None:
        key = value.lower()
        if key not in IS_VALUES:
            raise ToolError(
                f"is:{value} is not supported; use is:unread, is:read, is:starred or is:important"
            )
        if key == "read":
            self.flag("unread", not negate)
            return
        row = find_label(self.db, self.mbx, IS_VALUES[key])
        self.add(*_has_label(row["id"]), negate=negate)

    def parse(self, query: str) -> None:
        for m in _TOKEN.finditer(query):
            negate, op, value, phrase, word = (
                m.group(1) == "-",
                m.group(2),
                m.group(3),
                m.group(4),
                m.group(5),
            )
            if op is not None and op.lower() in OPERATORS:
                self.operator(op, value.strip('"'), negate)
            elif op is not None and op.isalpha() and not value.startswith("/"):
                raise ToolError(
                    f"unknown search operator {op}:; supported: {', '.join(o + ':' for o in OPERATORS)} "
                    "(put text with a colon in quotes)"
                )
            elif op is not None:
                self.text(f"{op}:{value}", negate)  # a URL or a time such as 10:30 is text
            elif phrase is not None:
                if phrase.strip():
                    self.text(phrase, negate)
            elif word:
                self.text(word, negate)

    def sql(self) -> tuple[str, list[Any]]:
        where, params = list(self.where), list(self.params)
        if not self.everywhere:
            # one list of the hidden messages, so each candidate is looked up once, not twice
            hidden = [find_label(self.db, self.mbx, name)["id"] for name in ("TRASH", "SPAM")]
            where.append("id NOT IN (SELECT message_id FROM message_labels WHERE label_id IN (?, ?))")
            params.extend(hidden)
        return " AND ".join(where), params
