"""Recognising entity ids in tool outputs, so a later call can take what an earlier one showed."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from querygen.plan.sampler import tables_of
from servers.kit import Domain, marks

_ID = re.compile(r"^([A-Z][A-Z0-9]*)-\d+$")


class IdIndex:
    """Recognises entity ids in tool outputs: by their declared table prefixes, and natural keys
    (ticker symbols, exchange codes, handles) by membership in their table's keys at the snapshot.

    Each domain has its own maps: "@sgould" is a chat member in team_chat and an account in
    social_media, and two domains may give different tables the same prefix, so a value in a
    step's output is looked up in the domain of that step's tool."""

    def __init__(
        self, domains: Sequence[Domain], natural: Mapping[str, Mapping[str, set[str]]] | None = None
    ) -> None:
        self.prefixes: dict[str, dict[str, str]] = {}
        self.naturals: dict[str, dict[str, str]] = {}
        for d in domains:
            own = self.prefixes.setdefault(d.name, {})
            for t in tables_of(d):
                prefix = marks(t).prefix
                if prefix:
                    own.setdefault(prefix, t.__tablename__)
            keys = self.naturals.setdefault(d.name, {})
            for table, values in sorted((natural or {}).get(d.name, {}).items()):
                for k in sorted(values):
                    keys.setdefault(k, table)

    @staticmethod
    def natural_keys(domain: Domain, conn: Any) -> dict[str, set[str]]:
        """Keys of a domain's natural-key tables, read from its snapshot."""
        out: dict[str, set[str]] = {}
        for t in tables_of(domain):
            if marks(t).prefix is None and marks(t).example is not None:
                name = t.__tablename__
                out[name] = {r[0] for r in conn.execute(f'SELECT id FROM "{name}"') if isinstance(r[0], str)}
        return out

    def table(self, value: Any, domain: str | None = None) -> str | None:
        """The table ``value`` is a key of in ``domain`` (None: the first domain that has it)."""
        if not isinstance(value, str):
            return None
        m = _ID.match(value)
        maps = self.prefixes if m else self.naturals
        key = m.group(1) if m else value
        if domain is not None:
            return maps.get(domain, {}).get(key)
        return next((own[key] for own in maps.values() if key in own), None)

    def ids_in(self, value: Any, domain: str | None = None) -> dict[str, list[str]]:
        """Every id in a JSON value, by table, in first-seen order."""
        out: dict[str, dict[str, None]] = {}  # an ordered set per table (results list thousands)

        def walk(v: Any) -> None:
            if isinstance(v, dict):
                for x in v.values():
                    walk(x)
            elif isinstance(v, list):
                for x in v:
                    walk(x)
            else:
                table = self.table(v, domain)
                if table:
                    out.setdefault(table, {})[v] = None

        walk(value)
        return {table: list(found) for table, found in out.items()}

    def id_lists_in(self, value: Any, table: str, domain: str | None = None) -> list[list[str]]:
        """Every list in a JSON value whose items are all distinct ids of ``table`` (the legs of one
        flight option), in first-seen order."""
        out: list[list[str]] = []

        def walk(v: Any) -> None:
            if isinstance(v, dict):
                for x in v.values():
                    walk(x)
            elif isinstance(v, list):
                if v and len(set(map(str, v))) == len(v) and all(self.table(x, domain) == table for x in v):
                    if v not in out:
                        out.append(list(v))
                    return
                for x in v:
                    walk(x)

        walk(value)
        return out
