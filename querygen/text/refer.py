"""How a user names an entity, and the lookup an agent needs to find it.

People do not quote row ids they were never shown: they say "my checking account", "the issue
about the Safari login crash", "Latoya Morrison", and give their email when asked who they are.
This module turns such a reference into gold: a read-only tool of the domain whose live result
holds the row (``list_accounts`` for an account of the actor, ``search_issues`` with the title's
words, ``find_customer_by_email``, or the generic ``list_records`` filter every domain offers),
plus the one attribute that singles the row out *in that result* — the ambiguity check is made
on the very rows the agent will see. A reference that no lookup resolves uniquely stays a raw id.

Lookups are planned recursively (a card is found on the list of the account it belongs to, which
is found on the actor's list of accounts), within the chain's call budget.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from querygen.plan.sampler import Relations, tables_of
from querygen.text.render import noun
from querygen.text.voice import voice_of
from servers.kit import Domain, ToolSpec

# Columns a person uses to name a row, best first; the phrase each one makes.
_NAMING = ("name", "title", "nickname", "label", "subject", "email", "username", "key", "symbol", "code")
_KINDS = ("kind", "type", "status", "category", "brand", "color", "side", "plan", "tier")
_SEARCH = ("query", "text", "q", "keyword", "keywords", "search", "term")
MAX_VALUE = 48


@dataclass
class Reference:
    """How one entity argument is named in the user's words (see ``metadata["references"]``)."""

    kind: str  # id | attribute | flow | self | name | path
    target: Any
    phrase: str | None = None  # what replaces the slot ("my checking account")
    bare: str | None = None  # the value alone, for "how many {product} ..."
    resolver: int | None = None  # gold call whose result holds the row
    column: str | None = None
    value: Any = None
    columns: dict[str, Any] | None = None  # every column a declared form says, with its stored value

    def as_dict(self, call: int, param: str) -> dict[str, Any]:
        out = {"call": call, "param": param, "target": self.target, "kind": self.kind, "text": self.phrase}
        if self.kind == "attribute":
            out.update(resolver=self.resolver, column=self.column, value=self.value)
            if self.columns:
                out["columns"] = self.columns
        return out


CARRIED = object()  # a lookup argument the agent carries from an earlier call of the task (a token)


@dataclass
class Lookup:
    """A planned read call that resolves a reference: run it, then name the row in its result."""

    spec: ToolSpec
    args: dict[str, Any]
    column: str
    value: Any
    inputs: dict[str, Any] = field(default_factory=dict)  # entity args the lookup needs (param -> key)
    nested: tuple[str, str, str, str] | None = (
        None  # rows inside the result: (table, field, id key, parent column)
    )
    said: dict[str, Any] | None = None  # a person finder's words about themself (phone; name and birth date)


def person_table(domain: Domain, rel: Relations) -> str | None:
    """The table of people the services acts for: a root row with a name and an email."""
    for t in tables_of(domain):
        name = t.__tablename__
        cols = set(rel.columns[name])
        if {"name", "email"} <= cols and not rel.fk_columns.get(name):
            return name
    return None


def rows_in(result: Any) -> list[dict[str, Any]]:
    """The rows a result shows: itself if a row, else the dicts of its (first) list of rows."""
    if isinstance(result, list):
        return [r for r in result if isinstance(r, dict)]
    if isinstance(result, dict):
        if "id" in result:
            return [result]
        for v in result.values():
            if isinstance(v, list) and v and all(isinstance(r, dict) for r in v):
                return list(v)
    return []


def unique_columns(rows: Sequence[Mapping[str, Any]], key: Any, pk: str = "id") -> list[str]:
    """Naming columns of the row ``key`` whose value no other shown row shares (case-insensitive)."""
    row = next((r for r in rows if r.get(pk) == key), None)
    if row is None:
        return []
    out = []
    for col in (*_NAMING, *_KINDS):
        v = row.get(col)
        if not isinstance(v, str) or not v.strip() or len(v) > MAX_VALUE:
            continue
        same = [r for r in rows if isinstance(r.get(col), str) and r[col].casefold() == v.casefold()]
        if len(same) == 1:
            out.append(col)
    return out


def phrase(noun: str, column: str, value: str, mine: bool, person: bool) -> tuple[str, str]:
    """(phrase, bare): 'my checking account', 'the issue "Login fails"', 'Latoya Morrison'."""
    det = "my" if mine else "the"
    shown = value.replace("_", " ") if column in _KINDS else value
    if person and column == "name":
        return value, value
    if column in _KINDS or (column == "symbol" and noun != "instrument"):  # "my AAPL order"
        return f"{det} {shown} {noun}", shown
    if column in ("key", "symbol", "code", "username"):
        return f"{noun} {value}", value
    if column == "email":
        return f"the {noun} with the email {value}", value
    return f'{det} {noun} "{value}"', value


class Resolver:
    """Plans lookups for rows of one domain; ``run`` executes a read call on the episode."""

    def __init__(self, domain: Domain, specs: Mapping[str, ToolSpec], rel: Relations) -> None:
        self.rel = rel
        self.voice = voice_of(domain, datetime.fromisoformat(domain.now).date())
        self.tables = {t.__tablename__: t for t in tables_of(domain)}
        self.person = person_table(domain, rel)
        self.acting = domain.actor  # who signs in (a marketplace user), when the domain says
        self.reads: dict[str, list[ToolSpec]] = {}
        self.specs = {spec.name: spec for spec in specs.values()}
        self.discovery: ToolSpec | None = None
        for spec in specs.values():
            if spec.writes:
                continue
            if spec.name == "list_records":
                self.discovery = spec
            elif spec.returns in self.tables:
                self.reads.setdefault(spec.returns, []).append(spec)

    def owned(self, table: str) -> bool:
        """Rows that belong to somebody (an account, an order) are "my ..." to their owner."""
        return bool(self.person) and table != self.person and bool(self.rel.paths(table, self.person))

    def lookups(self, table: str, row: Mapping[str, Any]) -> list[Lookup]:
        """Candidate lookups for ``row``, domain tools first, the generic filter last."""
        out = []
        for spec in self.reads.get(table, []):
            plan = self._plan(spec, table, row)
            if plan is not None:
                out.append(plan)
        out.extend(self._nested_lookups(table, row))
        # a lookup needing nothing but the row's own words first: a search by the product's name
        # before a browse of a category the user never named
        out.sort(key=lambda lk: len(lk.inputs))
        if self.discovery is not None and table in _enum(self.discovery, "table"):
            for col in (*_NAMING, *_KINDS):
                v = row.get(col)
                if col in _enum(self.discovery, "field") and isinstance(v, str) and 0 < len(v) <= MAX_VALUE:
                    args = {"table": table, "field": col, "value": v}
                    out.append(Lookup(self.discovery, args, col, v))
        return out

    def person_lookups(self, row: Mapping[str, Any], rng: random.Random | None = None) -> list[Lookup]:
        """How the person speaking is found from what they say about themself, best first: a
        domain finder by e-mail, then finders by what else they hold (a phone number; their name
        and date of birth, secrets included since they state them), then the generic e-mail filter."""
        mail = [lk for lk in self.lookups(self.person, row) if lk.column == "email"] if self.person else []
        finders = (self._finder(spec, row) for spec in self.reads.get(self.person or "", []))
        held = [lk for lk in finders if lk is not None]
        if rng is not None and len(held) > 1:
            rng.shuffle(held)  # callers give their number or their name and birthday, either way
        domain = [lk for lk in mail if lk.spec is not self.discovery]
        return [*domain, *held, *[lk for lk in mail if lk.spec is self.discovery]]

    def _finder(self, spec: ToolSpec, row: Mapping[str, Any]) -> Lookup | None:
        """A read that finds a person by their own columns other than e-mail (``find_customer_by_phone``,
        ``find_customer_by_name`` with the date of birth), planned with the row's values."""
        required = [p for p in spec.params if p.required]
        columns = self.rel.columns[self.person or ""]
        if not required or any(p.ref or p.json_type != "string" or p.name not in columns for p in required):
            return None
        said = {p.name: row.get(p.name) for p in required}
        if "email" in said or not all(isinstance(v, str) and v for v in said.values()):
            return None
        column = next((p.name for p in required if not p.sensitive), required[0].name)
        return Lookup(spec, dict(said), column, said[column], said=said)

    def _nested_lookups(self, table: str, row: Mapping[str, Any]) -> list[Lookup]:
        """Reads the domain declares to show ``table``'s rows inside another row (an order's lines
        in ``get_order``): called with the parent the row points at."""
        names = self.voice.names(table) if self.voice is not None else None
        out = []
        for tool, (fld, pk, column) in (names.found_in if names is not None else {}).items():
            spec = self.specs.get(tool)
            parent = next((h.other for h in self.rel.hops.get(table, []) if h.column == column), None)
            by = (
                next((p for p in spec.params if p.ref and p.ref.table_name == parent), None) if spec else None
            )
            if by is None or row.get(column) is None:
                continue
            others = [p.name for p in spec.params if p.required and p is not by]
            if not all(self.voice.passed(name) for name in others):
                continue  # the read needs something the row does not give
            inputs = {by.name: row[column], **{name: CARRIED for name in others}}  # a token: the sign-in's
            out.append(Lookup(spec, {}, "", None, inputs, nested=(table, fld, pk, column)))
        return out

    def _plan(self, spec: ToolSpec, table: str, row: Mapping[str, Any]) -> Lookup | None:
        args: dict[str, Any] = {}
        inputs: dict[str, Any] = {}
        column, value = None, None
        for p in spec.params:
            if not p.required or (p.name in _SEARCH and p.json_type == "string" and not p.ref):
                continue  # optional, or the words to search by (a search tool: see below)
            if p.ref and self.voice is not None and self.voice.passed(p.name):
                inputs[p.name] = CARRIED  # the token the task's sign-in handed over
            elif p.ref and not p.ref.many and not p.ref.path:
                fk = self._fk_to(table, p.ref.table_name, p.name)
                if fk is None or row.get(fk) is None:
                    return None
                inputs[p.name] = row[fk]
            elif p.json_type == "string" and p.name in self.rel.columns[table] and not p.sensitive:
                v = row.get(p.name)
                if not isinstance(v, str) or not v:
                    return None
                args[p.name], column, value = v, p.name, v
            else:
                return None
        if column is None:  # a list tool: search by the title's words if it can, else name by a column
            search = next((p for p in spec.params if p.name in _SEARCH and p.json_type == "string"), None)
            title = next(
                (
                    c
                    for c in (*self._titles(table), "title", "name", "subject")
                    if isinstance(row.get(c), str)
                ),
                None,
            )
            own = [v for v in inputs.values() if v is not CARRIED]  # a carried token asks nothing of the row
            if search is not None and title is not None and not own:
                args[search.name], column, value = row[title], title, row[title]
            elif not inputs and any(p.required for p in spec.params):
                return None
        return Lookup(spec, args, column or "", value, inputs)

    def _titles(self, table: str) -> list[str]:
        """The columns a declared domain's forms name its rows by first (a post's ``content``)."""
        names = self.voice.names(table) if self.voice is not None else None
        out = []
        for form in names.forms if names is not None else ():
            m = re.search(r"\{(\w+)", form)
            if m and m.group(1) not in out:
                out.append(m.group(1))
        return out

    def _fk_to(self, table: str, parent: str, param: str) -> str | None:
        """The column of ``table`` that points at ``parent`` (the one named like the param first)."""
        cols = [h.column for h in self.rel.hops.get(table, []) if h.direction == "up" and h.other == parent]
        if not cols:
            return None
        return next((c for c in cols if c.removesuffix("_id") == param), cols[0])

    def name_in(self, lookup: Lookup, result: Any, key: Any, mine: bool) -> Reference | None:
        """The reference naming ``key`` within the lookup's result, if one column singles it out."""
        table = lookup.spec.returns or lookup.args.get("table")
        rows = rows_in(result)
        pk = self.rel.pk.get(table, "id")
        if lookup.nested is not None:  # an order's lines: the rows under the declared field
            table, fld, pk, column = lookup.nested
            inner = result.get(fld) if isinstance(result, dict) else None
            parent = next(iter(lookup.inputs.values()))  # each nested row belongs to the row looked up
            rows = (
                [{**r, column: parent} for r in inner if isinstance(r, dict)]
                if isinstance(inner, list)
                else []
            )
        if lookup.said is not None:  # the person speaking, found by what they said of themself
            return self._found_person(lookup, rows, key, pk)
        if self.voice is not None and table != self.person:
            ref = self._declared_name(lookup, table, rows, key, mine, pk)
            if ref is not None and ref.columns and lookup.nested is not None:
                ref.columns.pop(lookup.nested[3], None)  # the parent, said by its own number
            return ref
        cols = unique_columns(rows, key, pk)
        if lookup.column:
            cols = [c for c in cols if c == lookup.column]
        row = next((r for r in rows if r.get(pk) == key), None)
        if not cols or row is None:
            return None
        col = cols[0]
        what = noun(self.tables[table])
        text, bare = phrase(what, col, row[col], mine, table == self.person)
        return Reference("attribute", key, text, bare, column=col, value=row[col])

    @staticmethod
    def _found_person(lookup: Lookup, rows: list[dict[str, Any]], key: Any, pk: str) -> Reference | None:
        """The finder showed that one person and nobody else: they are identified by what they said."""
        if len(rows) != 1 or rows[0].get(pk) != key or lookup.said is None:
            return None
        name = rows[0].get("name") if isinstance(rows[0].get("name"), str) else None
        ref = Reference("attribute", key, name, name, column=lookup.column, value=lookup.value)
        ref.columns = dict(lookup.said)
        return ref

    def _declared_name(
        self, lookup: Lookup, table: str, rows: list[dict[str, Any]], key: Any, mine: bool, pk: str
    ) -> Reference | None:
        """The domain's own words for the row (one of its table's naming forms that fits no other
        row of the result); None when no form does, so the reference is not made."""
        row = next((r for r in rows if r.get(pk) == key), None)
        if row is None or self.voice is None:
            return None
        named = self.voice.name_row(table, row, rows, mine or table == self.person, lookup.column or None)
        if named is None:
            return None
        text, said, columns = named
        column = next(iter(columns), "")
        return Reference("attribute", key, text, said, column=column, value=said, columns=columns)


def _enum(spec: ToolSpec, param: str) -> tuple[Any, ...]:
    for p in spec.params:
        if p.name == param:
            return tuple(p.enum or ())
    return ()


_SELF_RULES: tuple[tuple[str, str], ...] = (
    (r"\b(?:customer|user|account holder) SLOT", "SLOT"),
    (r",? as SLOT", ""),
    (r"\bthe ((?:\w+ )?\w+) of SLOT", r"my \1"),
    (r"SLOT's\b", "my"),
    (r"\bdoes SLOT have\b", "do I have"),
    (r"\b(can|could|should|will) SLOT", r"\1 I"),
    (r"\bis SLOT", "am I"),
    (r"\bhas SLOT", "have I"),
    (r"\b(for|to|with|from|by) SLOT", r"\1 me"),
    (r"^SLOT (\w+?)s\b", r"I \1"),
)


def first_person(template: str, slot: str) -> str | None:
    """The template as the actor says it about themself ("list my accounts"), or None if no rule fits."""
    token = "{" + slot + "}"
    if re.search(r"\bwho is " + re.escape(token), template):
        return None
    text = template
    for pattern, repl in _SELF_RULES:
        text = re.sub(pattern.replace("SLOT", re.escape(token)), repl.replace("SLOT", token), text, count=1)
        if token not in text:
            return text
    return None
