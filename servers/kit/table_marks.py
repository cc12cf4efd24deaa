"""What a table declares about itself beyond its columns, as validated class keywords.

A domain writes ``class Card(bank.Table, prefix="CRD", hidden=("pin",))``. These marks used to be
free-form dunders (``__prefix__ = "CRD"``) read back with ``getattr(..., default)``, so a misspelt
one silently did nothing; as keywords, an unknown name, a wrong type or a column the table does not
have fails when the class is defined, with a message that names the table and what is allowed.

Everything (the kit, the generator) reads them with :func:`marks`. A class body that still
*declares* a dunder mark (``__prefix__ = "CRD"``) is refused, so an old spelling cannot be silently
ignored.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from servers.kit.world import Person

_PREFIX = re.compile(r"[A-Z]{2,5}")
# what a ``people=`` mapping may show: the shared world's person fields and derived names
PERSON_ATTRIBUTES = frozenset(
    {f.name for f in dataclasses.fields(Person)}
    | {n for n, v in vars(Person).items() if isinstance(v, property)}
)


@dataclass(frozen=True)
class Marks:
    """The marks of one table (every field has the default an unmarked table gets).

    Attributes:
        prefix: ids are ``PREFIX-000001`` (2-5 capital letters); none means the table is keyed by
            what users say (a ticker, an airport code) and should give an ``example``.
        noun: how messages name one row ("budget member"); by default the singular table name.
        example: a key shown in descriptions ("AAPL") for a table without a prefix.
        hidden: columns no tool output shows (PINs, passwords).
        search: the text columns ``search_records`` matches (default: every plain text column).
        people: which columns show a world person, as {person attribute: column}.
        append_only: rows are added, never changed or deleted (a ledger, a message log) ...
        mutable: ... except these flag columns (a message's ``deleted`` tombstone).
        internal: the service's own bookkeeping; no discovery tool lists it.
        render: ``render(db, key)`` writes a row's key the way a user would type it (a path
            relative to the working directory); :class:`~servers.kit.types.PathRef` needs it.
    """

    prefix: str | None = None
    noun: str | None = None
    example: str | None = None
    hidden: tuple[str, ...] = ()
    search: tuple[str, ...] | None = None
    people: Mapping[str, str] | None = None
    append_only: bool = False
    mutable: tuple[str, ...] = ()
    internal: bool = False
    render: Callable[[Any, str], str] | None = None


NAMES = tuple(f.name for f in dataclasses.fields(Marks))
_UNMARKED = Marks()
_DUNDERS = {name: f"__{name}__" for name in NAMES}  # the old spellings, refused in a class body


def marks(table: Any) -> Marks:
    """The marks ``table`` was declared with (a table name string or an unmarked class: none)."""
    return getattr(table, "_marks", _UNMARKED) if not isinstance(table, str) else _UNMARKED


def declare(cls: type, keywords: Mapping[str, Any]) -> Marks:
    """Check the keywords of a table class before SQLAlchemy maps it, and refuse dunder marks."""
    where = f"table class {cls.__name__}"
    old = sorted(n for n, dunder in _DUNDERS.items() if dunder in vars(cls))
    if old:
        spelled = ", ".join(f"{n}=..." for n in old)
        raise TypeError(f"{where}: declare {spelled} as class keywords, not as __{old[0]}__ attributes")
    unknown = sorted(set(keywords) - set(NAMES))
    if unknown:
        raise TypeError(
            f"{where}: unknown table keyword(s) {', '.join(unknown)}; allowed: {', '.join(NAMES)}"
        )
    values = {name: _checked(where, name, value) for name, value in keywords.items()}
    declared = Marks(**values)
    if declared.mutable and not declared.append_only:
        raise TypeError(f"{where}: mutable= names the flag columns of an append_only=True table")
    return declared


def install(cls: Any, declared: Marks) -> None:
    """Check the column names the marks mention (the table is mapped now), then attach them."""
    columns = {c.name for c in cls.__table__.columns}
    where = f"table {cls.__tablename__!r}"
    people = dict(declared.people or {})
    for name, named in (
        ("hidden", declared.hidden),
        ("search", declared.search or ()),
        ("mutable", declared.mutable),
        ("people", people.values()),
    ):
        missing = sorted(set(named) - columns)
        if missing:
            raise TypeError(
                f"{where}: {name}= names unknown columns {missing}; its columns: {sorted(columns)}"
            )
    strangers = sorted(set(people) - PERSON_ATTRIBUTES)
    if strangers:
        allowed = ", ".join(sorted(PERSON_ATTRIBUTES))
        raise TypeError(f"{where}: people= maps unknown person attributes {strangers}; allowed: {allowed}")
    cls._marks = declared


def _checked(where: str, name: str, value: Any) -> Any:
    """One keyword's value in its stored form, or a TypeError saying what the keyword takes."""
    if name == "prefix":
        if not (isinstance(value, str) and _PREFIX.fullmatch(value)):
            raise TypeError(f"{where}: prefix={value!r}; use 2-5 capital letters, e.g. prefix='ACC'")
        return value
    if name in ("noun", "example"):
        if not (isinstance(value, str) and value.strip()):
            raise TypeError(f"{where}: {name}={value!r}; use a non-empty string")
        return value
    if name in ("hidden", "search", "mutable"):
        # a bare string is the usual slip: hidden=("pin") is "pin", which would hide p, i and n
        if isinstance(value, str) or not all(isinstance(v, str) for v in value):
            raise TypeError(f"{where}: {name}={value!r}; use a tuple of column names, e.g. ('pin',)")
        return tuple(value)
    if name in ("append_only", "internal"):
        if not isinstance(value, bool):
            raise TypeError(f"{where}: {name}={value!r}; use True or False")
        return value
    if name == "people":
        if not isinstance(value, Mapping) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in value.items()
        ):
            raise TypeError(f"{where}: people={value!r}; use a dict of person attribute to column")
        return dict(value)
    if not callable(value):  # render
        raise TypeError(f"{where}: render={value!r}; use a function render(db, key) -> str")
    return value
