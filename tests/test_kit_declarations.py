"""The kit's declarations fail loudly: table keywords, the acting user, explicit tool registration.

A table mark that is misspelt, mistyped or names a missing column must stop the import with a
message that says what is allowed (a dunder that silently did nothing was the old failure); the
acting user gives one standard error when nobody is signed in, here in real domains' logged-out
variants; and ``Domain.include`` decides the tool order and refuses a tool from an unlisted module.
"""

from __future__ import annotations

import sys
import types

import pytest
from sqlalchemy.orm import Mapped, mapped_column

from servers.kit import Db, Domain, ToolError, marks
from servers.registry import get_domain
from state import SnapshotCache


def _table(domain: Domain, name: str, **keywords: object) -> type:
    """Declare ``name`` with two columns and ``keywords`` on ``domain`` (the class statement itself)."""
    namespace = {
        "__tablename__": name,
        "__annotations__": {"id": Mapped[str], "pin": Mapped[str]},
        "id": mapped_column(primary_key=True),
    }
    return types.new_class(name.title(), (domain.Table,), keywords, lambda ns: ns.update(namespace))


@pytest.mark.parametrize(
    ("keywords", "message"),
    [
        ({"prefx": "CRD"}, r"unknown table keyword\(s\) prefx; allowed: prefix, noun, example, hidden"),
        ({"prefix": "crd"}, r"prefix='crd'; use 2-5 capital letters"),
        ({"hidden": "pin"}, r"hidden='pin'; use a tuple of column names"),
        ({"hidden": ("pim",)}, r"hidden= names unknown columns \['pim'\]; its columns: \['id', 'pin'\]"),
        ({"append_only": "yes"}, r"append_only='yes'; use True or False"),
        ({"mutable": ("pin",)}, r"mutable= names the flag columns of an append_only=True table"),
        ({"people": {"nickname": "pin"}}, r"people= maps unknown person attributes \['nickname'\]"),
        ({"render": "path"}, r"render='path'; use a function render\(db, key\) -> str"),
    ],
)
def test_a_bad_table_keyword_fails_when_the_class_is_made(keywords: dict, message: str) -> None:
    scratch = Domain("scratch_marks", "x")
    with pytest.raises(TypeError, match=message):
        _table(scratch, "cards", **keywords)


def test_a_dunder_mark_is_refused_and_the_keyword_named() -> None:
    scratch = Domain("scratch_dunder", "x")
    with pytest.raises(TypeError, match=r"declare prefix=\.\.\. as class keywords, not as __prefix__"):

        class Card(scratch.Table):
            __tablename__ = "cards"
            __prefix__ = "CRD"
            id: Mapped[str] = mapped_column(primary_key=True)


def test_good_keywords_are_read_back_and_unmarked_tables_get_the_defaults() -> None:
    scratch = Domain("scratch_good", "x")
    card = _table(scratch, "cards", prefix="CRD", hidden=["pin"], noun="bank card")
    plain = _table(scratch, "plain")
    assert marks(card).prefix == "CRD" and marks(card).hidden == ("pin",) and marks(card).noun == "bank card"
    assert marks(plain).prefix is None and marks(plain).hidden == () and not marks(plain).append_only
    assert marks("cards").prefix is None  # a bare table name carries no marks


@pytest.mark.parametrize(("domain", "variant"), [("social_media", "logged_out"), ("team_chat", "logged_out")])
def test_actor_raises_the_one_standard_error_in_a_logged_out_variant(
    domain: str, variant: str, snapshot_cache: SnapshotCache
) -> None:
    d = get_domain(domain)
    signed_in = Db(d.snapshot(0, "small", snapshot_cache).connect())
    assert signed_in.actor()["id"] == signed_in.actor_id()
    logged_out = Db(d.snapshot(0, "small", snapshot_cache, variant=variant).connect())
    for ask in (logged_out.actor, logged_out.actor_id):
        with pytest.raises(ToolError, match=r"^nobody is signed in; call login first$"):
            ask()
    assert logged_out.acting()[d.actor.column] is None  # the row is there, naming nobody


def test_a_service_without_login_says_its_snapshot_is_broken_and_a_tableless_actor_has_no_row(
    snapshot_cache: SnapshotCache,
) -> None:
    crm = get_domain("crm")  # its user_id is NOT NULL: the error can only come from a broken snapshot
    assert str(crm.actor.nobody()).startswith("nobody is signed in; this service has no login")
    db = Db(crm.snapshot(0, "small", snapshot_cache).connect())
    assert db.actor()["id"] == "USR-000001"
    budget = get_domain("budget")
    people = Db(budget.snapshot(0, "small", snapshot_cache).connect())
    assert isinstance(people.actor_id(), int)  # a world person's index, not a row of budget
    with pytest.raises(TypeError, match="not rows of a table: ask db.actor_id"):
        people.actor()


def test_acting_is_declared_once_and_its_login_must_be_a_tool() -> None:
    scratch = Domain("scratch_acting", "x")
    user = _table(scratch, "users", prefix="USR")
    session = scratch.acting(user, "user_id", login="sign_in", signed_out=True)
    assert [c.name for c in session.__table__.columns] == ["id", "user_id"]
    assert session.__table__.c.user_id.nullable and marks(session).prefix == "SES"
    with pytest.raises(ValueError, match="already declares who acts"):
        scratch.acting(user, "user_id")
    with pytest.raises(ValueError, match=r"acting\(login='sign_in'\) names no tool of scratch_acting"):
        list(scratch.tools)


def _module(name: str) -> types.ModuleType:
    module = types.ModuleType(name)
    sys.modules[name] = module  # a tool's module must be importable by name, as real ones are
    return module


def test_include_orders_the_tools_and_refuses_a_tool_from_an_unlisted_module() -> None:
    scratch = Domain("scratch_include", "x")
    first, second, stray = _module("scratch_first"), _module("scratch_second"), _module("scratch_stray")

    def tool(module: types.ModuleType, name: str) -> None:
        def fn(db: Db) -> dict:
            """A tool."""
            return {}

        fn.__name__, fn.__module__ = name, module.__name__
        scratch.tool(name=name)(fn)

    tool(second, "b_tool")  # registered first, as an import of ``second`` first would
    tool(first, "a_tool")
    scratch.include(first, second)
    assert [t for t in scratch.tools if not t.startswith(("list_", "search_", "get_"))] == [
        "a_tool",
        "b_tool",
    ]

    other = Domain("scratch_stray_domain", "x")
    other.include(first)
    fn = lambda db: {}  # noqa: E731
    fn.__doc__, fn.__module__, fn.__name__ = "A tool.", stray.__name__, "c_tool"
    other.tool()(fn)
    with pytest.raises(ValueError, match="has tools in scratch_stray, which scratch_stray_domain.include"):
        list(other.tools)
    with pytest.raises(ValueError, match="lists scratch_first twice"):
        Domain("scratch_twice", "x").include(first, first)
