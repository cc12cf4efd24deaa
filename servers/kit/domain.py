"""A domain: tables, a seeded fill and tools, declared in one file.

``Domain`` is the only thing a domain file needs from the kit::

    banking = Domain("banking", "Retail bank ...")

    class Account(banking.Table, prefix="ACC"): ...   # SQLAlchemy declarative, marks as keywords

    @banking.seed
    def fill(s: Seeder) -> None: ...           # deterministic for a seed

    @banking.tool(writes=[Transfer, Account], returns=Transfer, says=[...])
    def transfer(db, source: Ref[Account, "status = 'open'"], ...) -> dict: ...

A service someone signs in to says who acts (``Session = mail.acting(Mailbox, "mailbox_id")``,
see :mod:`servers.kit.acting`), and a package domain lists its tool modules in the order agents see
their tools (``calendar.include(viewing, scheduling, ...)``). Everything else (snapshots, MCP tools,
OpenAI schemas, the dependency graph) is derived from these declarations.
"""

from __future__ import annotations

import hashlib
import inspect
import re
import sqlite3
import string
import sys
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from sqlalchemy import create_engine
from sqlalchemy.orm import DeclarativeBase
from sqlalchemy.pool import StaticPool
from sqlalchemy.schema import CreateIndex, CreateTable

from servers.kit import geo as geo_module
from servers.kit import table_marks
from servers.kit import world as world_module
from servers.kit.acting import Acting, session_table
from servers.kit.db import Db
from servers.kit.language import Language
from servers.kit.policy import MODE_KEY, POLICY_MODES, Check, Policy, Reads, Remedy, rule_text
from servers.kit.policy_tools import add_breach_table, attach_policy
from servers.kit.seeding import Seeder
from servers.kit.tool import ToolSpec, build_spec
from state import Snapshot, SnapshotCache, build_snapshot

_FINALIZING = threading.RLock()  # re-entrant: finalization itself reads .tools

KIT_VERSION = "6"


class Domain:
    """The declarations of one simulated service."""

    def __init__(self, name: str, description: str, *, now: str = "2026-06-01T09:00:00") -> None:
        self.name = name
        self.description = description
        self.now = now

        class Table(DeclarativeBase):
            """The domain's table base: ``class Card(Table, prefix="CRD", hidden=("pin",))``; the
            keywords are :class:`~servers.kit.table_marks.Marks` fields, checked when the class is made."""

            def __init_subclass__(cls, **keywords: Any) -> None:
                declared = table_marks.declare(cls, keywords)
                super().__init_subclass__()
                table_marks.install(cls, declared)

        self.Table = Table
        self.actor: Acting | None = None
        self._included: tuple[str, ...] = ()
        self._tools: dict[str, ToolSpec] = {}
        self._seed: Callable[[Seeder], None] | None = None
        self._finalized = False
        self._tools_ready = False  # set once finalization is complete (another thread may be in it)
        self.variants: dict[str, Variant] = {}
        self._version: str | None = None
        self.policy: Policy | None = None
        self.language: Language | None = None  # set by servers.kit.language.Language(domain)

    # -- declarations -----------------------------------------------------------
    def acting(
        self,
        actor: Any,
        column: str,
        *,
        login: str | None = None,
        signed_out: bool = False,
        key: type = str,
        foreign_key: bool = True,
        columns: Mapping[str, Any] | None = None,
        hidden: Iterable[str] = (),
        internal: bool = False,
    ) -> type:
        """Declare who signs in, and get the ``sessions`` table the kit makes for it.

        Args:
            actor: the table whose row acts (``User``), or ``None`` when actors are not rows
                of this service (a world person's index: then give ``key`` and no foreign key).
            column: the session row's column naming the actor (``user_id``).
            login: the tool that signs someone in; the "nobody is signed in" error tells the
                agent to call it. ``None``: the service has no login, every episode is signed in.
            signed_out: the column may be empty, meaning nobody is signed in yet (a
                ``logged_out`` variant, a caller not yet verified).
            key: the Python type of the actor's key.
            foreign_key: the column references ``actor``'s ``id``.
            columns: more per-episode state kept on the row, {name: Python type}, in order
                (``{"logged_in_at": str | None}``, a shell's working directory).
            hidden, internal: the table's marks (a token no tool shows; no discovery tool lists it).

        Tools read the row with ``db.actor()`` / ``db.actor_id()`` (the standard error when
        nobody acts) and ``db.acting()`` / ``db.set_acting(...)`` for the whole row."""
        if self.actor is not None:
            raise ValueError(f"{self.name} already declares who acts ({self.actor.column})")
        if login is not None and not login.isidentifier():
            raise ValueError(f"acting login={login!r}: name the domain's login tool")
        declared = Acting(self.name, actor, column, login)
        caller = sys._getframe(1).f_globals.get("__name__", __name__)  # the table's module: model.py
        table = session_table(
            self.Table,
            declared,
            module=caller,
            key=key,
            signed_out=signed_out,
            foreign_key=foreign_key,
            columns=columns,
            hidden=tuple(hidden),
            internal=internal,
        )
        self.actor, self._version = declared, None
        return table

    def include(self, *modules: ModuleType) -> None:
        """Say which modules hold the domain's tools, in the order agents are shown them.

        Importing a module registers its tools; the order they are listed in comes from here,
        not from the order of imports, so ``__init__.py`` imports them like any other module.
        Every tool of the domain must come from a listed module (checked when tools are read)."""
        if self._finalized:
            raise ValueError(f"{self.name}.include(...) must come before the tools are first read")
        names = tuple(m.__name__ for m in modules)
        repeated = sorted({n for n in names if names.count(n) > 1})
        if repeated:
            raise ValueError(f"{self.name}.include lists {', '.join(repeated)} twice")
        self._included = (*self._included, *names)

    def seed(self, fn: Callable[[Seeder], None]) -> Callable[[Seeder], None]:
        self._seed, self._version = fn, None
        return fn

    def variant(
        self, name: str, *, first: str | None = None
    ) -> Callable[[Callable[[Db], None]], Callable[[Db], None]]:
        """Register a named initial state: a small patch applied to the snapshot before an episode.

        The function's docstring says what the variant is ("nobody is logged in"); ``first``
        names the tool a user in that state would need first (``login``), which the generator
        puts at the start of tasks drawn in the variant. A task records its variant beside its
        snapshot, and ``/admin`` can reset a session into one.
        """
        if not re.fullmatch(r"[a-z][a-z0-9_]{0,39}", name):
            raise ValueError(f"variant name {name!r}: use lowercase letters, digits and underscores")

        def register(fn: Callable[[Db], None]) -> Callable[[Db], None]:
            if name in self.variants:
                raise ValueError(f"{self.name} already has a variant named {name!r}")
            doc = inspect.cleandoc(fn.__doc__ or "").split("\n")[0]
            if not doc:
                raise TypeError(f"variant {name}: the function needs a docstring saying what it sets up")
            self.variants[name], self._version = Variant(name, doc, fn, first), None
            return fn

        return register

    def policy_document(self, preamble: str, *, mode: str = "written") -> Policy:
        """Declare a written policy: ``preamble`` is its markdown opening (a ``# Title`` line
        first), the rules follow from :meth:`rule` and :meth:`confirmation`.

        ``mode`` is the base snapshot's mode; the other one becomes a variant of the same name
        (``enforced`` or ``written``), so a task, a reset or ``/admin`` can pick either. See
        :mod:`servers.kit.policy`."""
        if self.policy is not None:
            raise ValueError(f"{self.name} already declares a policy")
        if mode not in POLICY_MODES:
            raise ValueError(f"policy mode {mode!r}: use one of {', '.join(POLICY_MODES)}")
        self.policy = Policy(self.name, inspect.cleandoc(preamble), mode)
        other = next(m for m in POLICY_MODES if m != mode)
        add_breach_table(self.Table)

        def switch(db: Db) -> None:
            db.execute("UPDATE _meta SET value = ? WHERE key = ?", other, MODE_KEY)

        switch.__doc__ = f"the policy is {other}: " + (
            "the service refuses what a rule forbids" if other == "enforced" else "the agent must keep it"
        )
        self.variant(other)(switch)
        self._version = None
        return self.policy

    def rule(
        self,
        slug: str,
        *,
        tools: Iterable[str],
        remedy: Remedy | None = None,
        reads: Reads | None = None,
        offer: Remedy | None = None,
    ) -> Callable[[Check], Check]:
        """Register a checked rule; the function's docstring is the rule's text, its result why a
        call breaks it (or ``None``, or a :class:`~servers.kit.policy.Near`). ``remedy`` gives,
        for a precondition rule, the call that would make a breached call compliant; ``reads``
        the lookups that show the facts the check judges; ``offer`` the compliant call to propose
        instead of a breaching one (see :mod:`servers.kit.policy`)."""

        def register(fn: Check) -> Check:
            policy = self._require_policy(slug)
            policy.add(slug, rule_text(fn), tools, fn, remedy=remedy, reads=reads, offer=offer)
            self._version = None
            return fn

        return register

    def confirmation(self, slug: str, text: str, *, tools: Iterable[str]) -> None:
        """Register a conversation rule: the user must say yes before any of ``tools`` is called."""
        self._require_policy(slug).add(slug, " ".join(text.split()), tools, None, confirm=True)
        self._version = None

    def _require_policy(self, slug: str) -> Policy:
        if self.policy is None:
            raise ValueError(f"rule {slug}: declare {self.name}.policy_document(...) before its rules")
        if self._finalized:
            raise ValueError(f"rule {slug}: rules must be declared before the tools are first read")
        return self.policy

    def tool(
        self,
        *,
        writes: Iterable[Any] = (),
        returns: Any = None,
        needs: Iterable[Any] | Mapping[Any, str | None] = (),
        says: Iterable[str] = (),
        destructive: bool = False,
        idempotent: bool = False,
        hidden: bool = False,
        name: str | None = None,
    ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Register a tool.

        Args:
            writes: tables the tool changes; none means read-only.
            returns: the table whose rows (or row) the tool hands back, which
                makes it a producer of that entity for later calls.
            needs: tables that must hold a suitable row first although no id
                of theirs is passed (checkout needs cart items); a mapping gives
                a table the SQL condition such a row meets (``{Session:
                "dir_stack != ''"}``: popd needs something pushed).
            says: what a user would say to ask for it, with ``{param}`` slots.
            destructive: the change cannot be undone by another call (delete, cancel).
            idempotent: calling twice with the same arguments changes nothing more.
            hidden: a helper the agent never sees.
        """

        pairs = list(needs.items()) if isinstance(needs, Mapping) else [(t, None) for t in needs]

        def register(fn: Callable[..., Any]) -> Callable[..., Any]:
            spec = build_spec(
                self.name,
                fn,
                writes=tuple(writes),
                returns=returns,
                needs=tuple(t for t, _ in pairs),
                preconditions=tuple((t, cond) for t, cond in pairs if cond),
                says=tuple(says),
                destructive=destructive,
                idempotent=idempotent,
                hidden=hidden,
                name=name,
            )
            if spec.name in self._tools:
                raise ValueError(f"{self.name} already has a tool named {spec.name!r}")
            for template in spec.says:
                _check_template(spec, template)
            self._tools[spec.name], self._version = spec, None
            return fn

        return register

    # -- derived ------------------------------------------------------------------
    @property
    def tables(self) -> list[Any]:
        """Table classes sorted by table name (the registry is a set: its order varies by process)."""
        return sorted((m.class_ for m in self.Table.registry.mappers), key=lambda t: t.__tablename__)

    def table(self, name: str) -> Any:
        for t in self.tables:
            if t.__tablename__ == name:
                return t
        raise KeyError(f"{self.name} has no table {name!r}")

    @property
    def tools(self) -> dict[str, ToolSpec]:
        if not self._tools_ready:
            with _FINALIZING:  # the reward service's threads read a new domain's tools at once
                if not self._finalized:
                    from servers.kit.discovery import add_discovery_tools

                    self._order_included()  # both raise before sealing, so a second read raises again
                    self._check_login()
                    self._finalized = True
                    add_discovery_tools(self)
                    if self.policy is not None:
                        attach_policy(self, self.policy)
                    self._tools_ready = True
        return self._tools

    def _order_included(self) -> None:
        """Put the tools in the order of :meth:`include` (declaration order inside a module)."""
        if not self._included:
            return
        rank = {name: i for i, name in enumerate(self._included)}
        strays = sorted({s.fn.__module__ for s in self._tools.values()} - set(rank))
        if strays:
            raise ValueError(
                f"{self.name} has tools in {', '.join(strays)}, which {self.name}.include(...) does not list"
            )
        ordered = sorted(
            enumerate(self._tools.items()), key=lambda item: (rank[item[1][1].fn.__module__], item[0])
        )
        self._tools = {name: spec for _, (name, spec) in ordered}

    def _check_login(self) -> None:
        login = self.actor.login if self.actor else None
        if login is not None and login not in self._tools:
            raise ValueError(f"{self.name}.acting(login={login!r}) names no tool of {self.name}")

    def append_only(self) -> dict[str, frozenset[str]]:
        """Tables marked ``append_only=True``, each with the flag columns tools may still change
        (``mutable=``, e.g. a message's ``deleted`` tombstone or an alert's ``cleared``)."""
        return {
            t.__tablename__: frozenset(table_marks.marks(t).mutable)
            for t in self.tables
            if table_marks.marks(t).append_only
        }

    def visible_tools(self) -> list[ToolSpec]:
        return [t for t in self.tools.values() if not t.hidden]

    @property
    def version(self) -> str:
        """Changes whenever any module of the domain (tables, seed, variants, tools: one file or a
        package of them), the shared world or the kit's storage format changes. Read once per
        process: every episode that opens a variant asks for it."""
        if self._version is not None:
            return self._version
        names = {t.__module__ for t in self.tables}
        names |= {f.__module__ for f in (self._seed, *(v.apply for v in self.variants.values())) if f}
        names |= {s.fn.__module__ for s in self.tools.values()}
        # a package's helper modules (seed text, an engine the tools call) are the domain too
        packages = {sys.modules[n].__package__ for n in names if n in sys.modules}
        packages -= {"servers.domains", "servers.kit", "", None}
        names |= {n for n in sys.modules if any(n.startswith(f"{p}.") for p in packages)}
        names = {n for n in names if not n.endswith(".language")}  # words change no state
        sources = [inspect.getsource(sys.modules[n]) for n in sorted(names) if n in sys.modules]
        shared = [inspect.getsource(m) for m in (world_module, geo_module)]  # every fill reads them
        self._version = hashlib.sha256("".join([KIT_VERSION, *sources, *shared]).encode()).hexdigest()[:12]
        return self._version

    # -- building state -----------------------------------------------------------------
    def create_schema(self, conn: sqlite3.Connection) -> None:
        # Not ``metadata.create_all``: it walks each table's indexes as a set, so the
        # order they land in sqlite_master (and the snapshot's bytes and sha256)
        # changed from one process to the next. Tables in dependency order, then
        # indexes by name, give the same file every time.
        engine = create_engine("sqlite://", creator=lambda: conn, poolclass=StaticPool)
        tables = self.Table.metadata.sorted_tables
        with engine.begin() as c:
            for table in tables:
                c.execute(CreateTable(table))
            for table in tables:
                for index in sorted(table.indexes, key=lambda i: str(i.name)):
                    c.execute(CreateIndex(index))
        conn.execute("CREATE TABLE IF NOT EXISTS _meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")

    def fill(self, conn: sqlite3.Connection, seed: int, scale: str) -> None:
        if self._seed is None:
            raise ValueError(f"domain {self.name} declares no @seed function")
        meta = {"domain": self.name, "seed": str(seed), "scale": scale, "now": self.now}
        if self.policy is not None:
            meta[MODE_KEY] = self.policy.mode
        conn.executemany("INSERT INTO _meta (key, value) VALUES (?, ?)", sorted(meta.items()))
        self._seed(Seeder(conn, seed, scale, self.now))

    def build(self, seed: int = 0, scale: str = "medium") -> Snapshot:
        return build_snapshot(self.name, seed, scale, self.create_schema, self.fill)

    def snapshot(
        self,
        seed: int = 0,
        scale: str = "medium",
        cache: SnapshotCache | None = None,
        variant: str | None = None,
    ) -> Snapshot:
        """The seeded snapshot, or one of its declared variants."""
        cache = cache or default_cache()
        base = cache.get(self.name, seed, scale, self.version, self.create_schema, self.fill)
        if variant is None:
            return base
        v = self.variants.get(variant)
        if v is None:
            allowed = ", ".join(sorted(self.variants)) or "none"
            raise KeyError(f"{self.name} has no variant {variant!r}; its variants: {allowed}")
        return cache.variant(base, self.version, variant, lambda conn: v.apply(Db(conn)))


@dataclass(frozen=True)
class Variant:
    """A named initial state of a domain (see :meth:`Domain.variant`)."""

    name: str
    description: str
    apply: Callable[[Db], None]
    first: str | None = None


_CACHE: SnapshotCache | None = None


def default_cache() -> SnapshotCache:
    global _CACHE
    if _CACHE is None:
        _CACHE = SnapshotCache()
    return _CACHE


def _check_template(spec: ToolSpec, template: str) -> None:
    names = {p.name for p in spec.params}
    for _, field, _, _ in string.Formatter().parse(template):
        if field and field not in names:
            raise ValueError(f"{spec.qualified_name}: template {template!r} uses unknown slot {{{field}}}")
