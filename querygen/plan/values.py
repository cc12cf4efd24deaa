"""Argument values for parameters that are not entity references.

Order of preference, from most to least grounded: a secret read from the referenced row's hidden
column (a card's PIN); the declared ``examples``; an enum member (discovery tools' table/field
selectors are chosen so the pair exists); a value read from the live state when the tool *looks
something up* by it (an email, a search word); a fresh value in the shape of existing ones when
the tool *writes* it (a new phone number); then name heuristics and Faker. Numbers stay inside the
declared constraints, and money prefers small amounts that shrink on each retry, because a failed
gold call is retried against the live fork (rejection sampling).

With ``grounded=False`` nothing is read from the state: that is the ungrounded baseline.
"""

from __future__ import annotations

import random
import re
import sqlite3
import string
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from faker import Faker

from querygen.plan.sampler import LiveSampler, Relations, tables_of
from servers.kit import Domain, Param, ToolSpec, marks
from servers.kit.discovery import text_columns, visible_columns

_FAKER_BY_NAME = {
    "email": "email",
    "phone": "phone_number",
    "city": "city",
    "address": "street_address",
    "street": "street_address",
    "company": "company",
    "url": "url",
    "website": "url",
    "username": "user_name",
    "first_name": "first_name",
    "last_name": "last_name",
    "name": "name",
    "color": "color_name",
}
_TEXT_WORDS = ("memo", "note", "description", "comment", "reason", "message", "title", "summary", "body")
_SEARCH_WORDS = ("query", "text", "q", "keyword", "keywords", "search", "term", "terms")
# Date and date-time parameters are recognised by their pattern (``Day``, ``Moment``), whether it is
# written with \d or [0-9]; their values are always real dates near the reference moment.
_DAY_PATTERN = re.compile(r"(\\d|\[0-9\])\{4\}-(\\d|\[0-9\])\{2\}-(\\d|\[0-9\])\{2\}")
_MOMENT_PATTERN = re.compile(_DAY_PATTERN.pattern + r"T")
_ISO_DAY_VALUE = re.compile(r"\d{4}-\d{2}-\d{2}")
_WHOLE_AMOUNTS = (5, 10, 15, 20, 25, 30, 40, 50, 60, 75, 80, 100, 120, 150, 200, 250)


_BACKWARD = ("since", "after", "before", "until", "from", "placed", "sent", "created")


def _looks_ahead(spec: ToolSpec, name: str, rng: random.Random) -> bool:
    """Whether a date for this parameter should be in the future: a write schedules ahead, a
    filter like "since" looks back, and a plain day a read asks about ("what do I have on ...")
    is as often ahead as behind."""
    if spec.writes:
        return True
    if any(word in name for word in _BACKWARD):
        return False
    return rng.random() < 0.5


# the end of a date range and its opening: a person asks "from June 3 to June 20", never backwards
_RANGE_ENDS = {"end": "start", "to": "from", "until": "since", "before": "after"}


def _range_start(name: str, args: Mapping[str, Any]) -> str | None:
    """The date already chosen for the opening of the range ``name`` closes ("end_day" after
    "start_day", "date_to" after "date_from"), or None."""
    for end, start in _RANGE_ENDS.items():
        if end in name.split("_"):
            value = args.get(name.replace(end, start, 1))
            if isinstance(value, str) and _ISO_DAY_VALUE.match(value):
                return value
    return None


def _after(opening: str, rng: random.Random, *, moment: bool) -> str:
    """A day (or the same kind of moment) 1-45 days after ``opening``."""
    start = datetime.fromisoformat(opening)
    later = start + timedelta(days=rng.randint(1, 45))
    return later.isoformat(timespec="minutes") if moment else later.date().isoformat()


def sample_pattern(pattern: str, rng: random.Random) -> str | None:
    """A string matching a simple regex (anchors, classes, escapes, ``{n}``/``{n,m}``), else None."""
    body = pattern.removeprefix("^").removesuffix("$")
    classes = {"\\d": string.digits, "[0-9]": string.digits, "[A-Z]": string.ascii_uppercase}
    classes["[a-z]"] = string.ascii_lowercase
    tokens = re.findall(r"(\\d|\[0-9\]|\[A-Z\]|\[a-z\]|\\.|[^\\\[\]{}()|*+?.])(\{\d+(?:,\d+)?\})?", body)
    if "".join(t + q for t, q in tokens) != body:
        return None
    out = []
    for token, quant in tokens:
        lo = hi = 1
        if quant:
            parts = quant[1:-1].split(",")
            lo, hi = int(parts[0]), int(parts[-1])
        pool = classes.get(token, token[-1])
        out.extend(rng.choice(pool) for _ in range(rng.randint(lo, hi)))
    return "".join(out)


def _weak_secret(value: str) -> bool:
    digits = [int(c) for c in value if c.isdigit()]
    if len(set(value)) == 1:
        return True
    steps = {b - a for a, b in zip(digits, digits[1:], strict=False)}
    return len(digits) == len(value) and len(steps) == 1 and steps <= {1, -1}


def _reshape(value: str, rng: random.Random) -> str:
    """A new value shaped like an existing one: digits and letters replaced, punctuation and a
    leading '+country' code kept."""
    keep = re.match(r"^\+\d+", value)
    out = [keep.group(0)] if keep else []
    for c in value[len(out[0]) if out else 0 :]:
        if c.isdigit():
            out.append(rng.choice(string.digits))
        elif c.isupper():
            out.append(rng.choice(string.ascii_uppercase))
        elif c.islower():
            out.append(rng.choice(string.ascii_lowercase))
        else:
            out.append(c)
    return "".join(out)


def _secret_columns(hidden: Sequence[str], param: str) -> list[str]:
    """Hidden columns a secret parameter confirms: ``pin`` for ``pin``, ``pin`` for ``current_pin``."""
    return [h for h in hidden if h == param or h in param]


def list_length(p: Param, rng: random.Random) -> int:
    """How many items a request names: one to three, within the parameter's own bounds."""
    low = int(p.constraints.get("minItems", 1)) or 1
    return rng.randint(low, max(low, min(int(p.constraints.get("maxItems", 3)), 3)))


class ValueMaker:
    """Fills one parameter at a time, given the call's arguments chosen so far."""

    def __init__(
        self,
        domain: Domain,
        relations: Relations,
        sampler: LiveSampler,
        fake: Faker,
        snapshot_conn: sqlite3.Connection | None = None,
    ) -> None:
        self.domain = domain
        self.snapshot_conn = snapshot_conn  # column statistics come from the snapshot, never a fork
        self.rel = relations
        self.sampler = sampler
        self._fake = fake
        self._seed: int | None = None
        self.now = datetime.fromisoformat(domain.now)
        self.tables = {t.__tablename__: t for t in tables_of(domain)}
        self.visible = {name: visible_columns(t) for name, t in self.tables.items()}
        self.text = {name: text_columns(t) for name, t in self.tables.items()}
        self._distinct: dict[tuple[str, str], int] = {}
        self._order: dict[str, list[Param]] = {}

    def reseed(self, seed: int) -> None:
        """Seed the Faker before its next use: every attempt reseeds all domains' (so none carries
        state from an earlier attempt) but uses one or two, and seeding one costs 10 µs."""
        self._seed = seed

    @property
    def fake(self) -> Faker:
        if self._seed is not None:
            self._fake.seed_instance(self._seed)
            self._seed = None
        return self._fake

    # -- classification -------------------------------------------------------------------------
    def table_selector(self, p: Param) -> bool:
        return bool(p.enum) and len(p.enum) > 1 and set(p.enum) <= set(self.tables)

    def field_selector(self, p: Param) -> bool:
        cols = {c for cs in self.visible.values() for c in cs}
        return bool(p.enum) and not self.table_selector(p) and set(p.enum) <= cols

    def selected_table(self, spec: ToolSpec, args: Mapping[str, Any]) -> str | None:
        for p in spec.params:
            if self.table_selector(p) and p.name in args:
                return args[p.name]
        return None

    def fill_order(self, spec: ToolSpec) -> list[Param]:
        """Refs first, then table selectors, field selectors, then the rest (they may depend on them)."""
        if spec.qualified_name in self._order:
            return self._order[spec.qualified_name]

        def rank(p: Param) -> int:
            if p.ref:
                return 0
            if self.table_selector(p):
                return 1
            if self.field_selector(p):
                return 2
            return 4 if p.sensitive else 3

        self._order[spec.qualified_name] = sorted(spec.params, key=rank)
        return self._order[spec.qualified_name]

    # -- filling ------------------------------------------------------------------------------
    def fill(
        self,
        spec: ToolSpec,
        p: Param,
        args: Mapping[str, Any],
        conn: sqlite3.Connection | None,
        rng: random.Random,
        *,
        context: Mapping[str, Sequence[str]] | None = None,
        attempt: int = 0,
    ) -> Any:
        """A value for ``p`` (not a Ref); ``conn`` None means ungrounded: never read the state."""
        if p.sensitive:
            return self.secret(spec, p, args, conn, rng)
        language = self.domain.language
        said = language.tools.get(spec.name) if language is not None else None
        if said is not None and p.name in said.values:  # what this service's users really type
            return rng.choice(list(said.values[p.name]))
        if p.examples:
            value = rng.choice(list(p.examples))
            return list(value) if isinstance(value, list | tuple) and p.is_list else value
        if p.is_list:
            return self._list(spec, p, args, conn, rng, context or {})
        if p.enum:
            return self._enum(spec, p, args, conn, rng)
        if p.json_type == "boolean":
            return rng.random() < 0.5
        if p.json_type == "integer":
            return self._integer(p, rng)
        if p.json_type == "number":
            return self._number(p, rng, attempt)
        return self._string(spec, p, args, conn, rng, context or {})

    def fake_ref(self, p: Param, rng: random.Random) -> str:
        """An id in the declared format with a Faker number: what a generator blind to state writes."""
        prefix = (marks(p.ref.table).prefix or "ID") if p.ref else "ID"
        return f"{prefix}-{self.fake.random_int(1, 999):06d}"

    def secret(
        self,
        spec: ToolSpec,
        p: Param,
        args: Mapping[str, Any],
        conn: sqlite3.Connection | None,
        rng: random.Random,
    ) -> Any:
        """The referenced row's hidden secret if this parameter confirms one, else a fresh strong one."""
        if conn is not None and not p.name.startswith("new_"):
            for q in spec.params:
                if not (q.ref and q.name in args):
                    continue
                table = q.ref.table_name
                hidden = self.rel.hidden.get(table, ())
                match = _secret_columns(hidden, p.name) or (list(hidden) if len(hidden) == 1 else [])
                if match:
                    value = self.sampler.cell(conn, table, args[q.name], match[0])
                    if value is not None:
                        return str(value) if p.json_type == "string" else value
            found = self._secret_by_sibling(p, args, conn)
            if found is not None:
                return found
        taken = {v for k, v in args.items() if k != p.name}
        for _ in range(20):
            pattern = p.constraints.get("pattern")
            value = sample_pattern(pattern, rng) if pattern else None
            if value is None:
                value = self.fake.password(length=12, special_chars=False)
            if not _weak_secret(value) and value not in taken:
                return value
        return value

    def _secret_by_sibling(self, p: Param, args: Mapping[str, Any], conn: sqlite3.Connection) -> str | None:
        """``login(username, password)``: the hidden secret of the row another argument names
        (a table with a hidden column like ``password`` and a visible one like ``username``)."""
        for table, hidden in self.rel.hidden.items():
            match = _secret_columns(hidden, p.name)
            if not match:
                continue
            for other, value in args.items():
                if other == p.name or other not in self.rel.columns[table] or not isinstance(value, str):
                    continue
                row = conn.execute(
                    f'SELECT "{match[0]}" FROM "{table}" WHERE "{other}" = ? LIMIT 1', (value,)
                ).fetchone()
                if row is not None and row[0] is not None:
                    return str(row[0])
        return None

    def _enum(
        self,
        spec: ToolSpec,
        p: Param,
        args: Mapping[str, Any],
        conn: sqlite3.Connection | None,
        rng: random.Random,
    ) -> Any:
        options = list(p.enum or ())
        table = self.selected_table(spec, args)
        if self.field_selector(p) and table:
            cols = [c for c in self.visible[table] if c in options]
            preferred = [c for c in cols if c != self.rel.pk[table] and self._categorical(conn, table, c)]
            options = preferred or cols or options
        return rng.choice(options)

    def _categorical(self, conn: sqlite3.Connection | None, table: str, column: str) -> bool:
        """Few distinct values or a foreign key: good for filters and unique-value questions."""
        if column in self.rel.fk_columns.get(table, set()):
            return True
        return 1 < self._cardinality(conn, table, column) <= 12

    def _cardinality(self, conn: sqlite3.Connection | None, table: str, column: str) -> int:
        """Distinct values in the *snapshot* (cached), so no attempt's writes leak into another's."""
        key = (table, column)
        if key not in self._distinct:
            if self.snapshot_conn is None or conn is None:
                return 0
            sql = f'SELECT count(DISTINCT "{column}") FROM "{table}"'
            self._distinct[key] = self.snapshot_conn.execute(sql).fetchone()[0]
        return self._distinct[key]

    def _integer(self, p: Param, rng: random.Random) -> int:
        lo = int(p.constraints.get("minimum", p.constraints.get("exclusiveMinimum", 0) + 1))
        hi = int(p.constraints.get("maximum", p.constraints.get("exclusiveMaximum", lo + 50) - 1))
        name = p.name.lower()
        if any(w in name for w in ("limit", "count", "top", "size")):
            value = rng.choice((3, 5, 5, 10, 10, 20))
        elif any(w in name for w in ("quantity", "qty", "units")):
            value = rng.randint(1, 4)
        elif name == "offset":
            value = 0
        else:
            value = rng.randint(lo, min(hi, lo + 9))
        return max(lo, min(hi, value))

    def _number(self, p: Param, rng: random.Random, attempt: int) -> float:
        lo = float(p.constraints.get("minimum", p.constraints.get("exclusiveMinimum", 0.0)))
        hi = float(p.constraints.get("maximum", p.constraints.get("exclusiveMaximum", 1e9)))
        value = float(rng.choice(_WHOLE_AMOUNTS)) if rng.random() < 0.5 else round(rng.uniform(1, 200), 2)
        value = round(value / (2**attempt), 2)
        if value <= lo or value > hi:
            value = round(min(hi, max(lo + 1.0, 1.0)), 2)
        return value

    def _string(
        self,
        spec: ToolSpec,
        p: Param,
        args: Mapping[str, Any],
        conn: sqlite3.Connection | None,
        rng: random.Random,
        context: Mapping[str, Sequence[str]],
    ) -> str:
        name = p.name.lower()
        table = self.selected_table(spec, args)
        if not table and not spec.writes and name in _SEARCH_WORDS and spec.returns in self.text:
            table, name = spec.returns, "query"  # a search tool: look for a word its rows contain
        if conn is not None and table and name in ("value", "query"):
            found = self._from_selected(spec, args, table, name, conn, rng, context)
            if found is not None:
                return found
        pattern = p.constraints.get("pattern")
        if name == "month" or "month" in p.description.lower() and "YYYY-MM" in p.description:
            return self._month(rng)
        if pattern and _DAY_PATTERN.search(pattern) and (opening := _range_start(name, args)):
            return _after(opening, rng, moment=bool(_MOMENT_PATTERN.search(pattern)))
        if pattern and _MOMENT_PATTERN.search(pattern):
            return self._moment(rng, future=_looks_ahead(spec, p.name, rng))
        if pattern and _DAY_PATTERN.search(pattern):
            return self._day(rng, future=_looks_ahead(spec, p.name, rng))
        if conn is not None:
            found = self._from_column(spec, p, conn, rng, context)
            if found is not None:
                return found
        if pattern:
            value = sample_pattern(pattern, rng)
            if value is not None:
                return value
        return self._fake_text(p, rng)

    def _from_selected(
        self,
        spec: ToolSpec,
        args: Mapping[str, Any],
        table: str,
        name: str,
        conn: sqlite3.Connection,
        rng: random.Random,
        context: Mapping[str, Sequence[str]],
    ) -> str | None:
        """Discovery-style tools: a real value of the chosen field, or a real word to search for."""
        field = next((args[q.name] for q in spec.params if self.field_selector(q) and q.name in args), None)
        words = [c for c in self.text[table] if c not in self.rel.fk_columns.get(table, set())]
        column = field if name == "value" else (rng.choice(words) if words else None)
        if not column:
            return None
        value = self.sampler.pick(conn, table, None, rng, context=context, column=column)
        for _ in range(3):  # a stored code ("set_climate") is not what a person types
            if not (isinstance(value, str) and re.fullmatch(r"[a-z]+(?:_[a-z]+)+", value)):
                break
            value = self.sampler.pick(conn, table, None, rng, context=context, column=column)
        if value is None:
            return None
        if name == "query":  # a word people would type: letters, not an id or a date
            words = re.findall(r"[A-Za-z][A-Za-z'-]{2,}", str(value))
            return rng.choice(words) if words else str(value)[:20]
        return str(value)

    def _from_column(
        self,
        spec: ToolSpec,
        p: Param,
        conn: sqlite3.Connection,
        rng: random.Random,
        context: Mapping[str, Sequence[str]],
    ) -> str | None:
        """Lookups read a real value of the same-named column; writes invent one shaped like them."""
        tables = [t for t, cols in self.visible.items() if p.name in cols]
        if not tables:
            return None
        table = spec.returns if spec.returns in tables else tables[0]
        existing = self.sampler.pick(conn, table, None, rng, context=context, column=p.name)
        if existing is None or not isinstance(existing, str):
            return None
        if (
            not spec.writes
            or self._categorical(conn, table, p.name)
            or self._names_a_row(spec, table, p.name)
        ):
            return existing
        faker_name = _FAKER_BY_NAME.get(p.name.lower())
        if faker_name and faker_name != "phone_number":
            return str(getattr(self.fake, faker_name)())
        return _reshape(existing, rng)

    def _names_a_row(self, spec: ToolSpec, table: str, column: str) -> bool:
        """A write tool given a unique attribute of a table it does not write (a driver's email
        for ``share_digital_key``) is naming an existing row, not inventing a value."""
        if table in spec.writes:
            return False
        col = self.tables[table].__table__.columns.get(column)
        return col is not None and bool(col.unique)

    def _fake_text(self, p: Param, rng: random.Random) -> str:
        name = p.name.lower()
        limit = int(p.constraints.get("maxLength", 200))
        faker_name = next((f for k, f in _FAKER_BY_NAME.items() if k in name), None)
        if faker_name:
            value = str(getattr(self.fake, faker_name)())
        elif any(w in name for w in _TEXT_WORDS):
            value = self.fake.sentence(nb_words=rng.randint(2, 5)).rstrip(".")
        elif "nickname" in name or "label" in name or "alias" in name:
            value = f"{self.fake.word().capitalize()} {rng.choice(('fund', 'pot', 'reserve', 'budget'))}"
        else:
            value = self.fake.word()
        return value[:limit]

    def _month(self, rng: random.Random) -> str:
        y, m = self.now.year, self.now.month - rng.randint(0, 3)
        while m < 1:
            y, m = y - 1, m + 12
        return f"{y:04d}-{m:02d}"

    def _day(self, rng: random.Random, *, future: bool) -> str:
        delta = rng.randint(1, 60) if future else -rng.randint(0, 60)
        return (self.now + timedelta(days=delta)).date().isoformat()

    def _moment(self, rng: random.Random, *, future: bool) -> str:
        """A whole or half hour in working hours, within two weeks of the reference moment."""
        days = rng.randint(1, 14) if future else -rng.randint(0, 14)
        day = (self.now + timedelta(days=days)).date()
        return f"{day.isoformat()}T{rng.randint(8, 18):02d}:{rng.choice((0, 30)):02d}"

    # -- arrays ---------------------------------------------------------------------------------
    def _list(
        self,
        spec: ToolSpec,
        p: Param,
        args: Mapping[str, Any],
        conn: sqlite3.Connection | None,
        rng: random.Random,
        context: Mapping[str, Sequence[str]],
    ) -> list[Any]:
        """One to three distinct elements, each as a scalar of the item schema would be filled."""
        items = p.items or {"type": "string"}
        n = list_length(p, rng)
        if items.get("enum"):
            options = list(items["enum"])
            return rng.sample(options, min(n, len(options)))
        element = p.element()
        out: list[Any] = []
        for _ in range(4 * n):
            v = self.fill(spec, element, args, conn, rng, context=context)
            if v not in out:
                out.append(v)
            if len(out) >= n:
                break
        return out
