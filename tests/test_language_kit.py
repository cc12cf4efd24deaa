"""A domain's language: declarations checked when made, and values said the way people write them.

The declarations (``servers.kit.language``) must refuse what cannot be right at import, naming what
is wrong and what is allowed; the five pattern domains must declare every tool a user asks for and
a name for every row a request refers to; and the voice (``querygen.text.voice``) must turn values
into money, days, counts and lists as an assistant writes them.
"""

import types
from datetime import date

import pytest
from sqlalchemy.orm import Mapped, mapped_column

from querygen.text.voice import Voice, money, second_person, when
from servers.kit import Db, Domain, Language, LanguageError, Ref
from servers.registry import available, get_domain

FIVE = ("banking", "shopping", "issue_tracker", "calendar", "filesystem")
SEVEN = ("vehicle", "trading", "travel_booking", "social_media", "team_chat", "email", "video_meeting")
NINE = (
    "maps",
    "food_delivery",
    "iot_devices",
    "retail_chain",
    "payments",
    "crm",
    "budget",
    "marketplace",
    "utilities",
)
# the written-policy domains (issue 33)
POLICY = ("airline_service", "code_host", "telehealth", "telecom_support")
DISCOVERY = ("list_records", "search_records", "get_unique_values")


@pytest.fixture
def shop() -> tuple[Domain, type, Language]:
    """A one-table domain with one tool, its language not yet declared."""
    d = Domain("langtest", "A test shop.")
    namespace = {
        "__tablename__": "orders",
        "__annotations__": {"id": Mapped[str], "status": Mapped[str], "total": Mapped[float]},
        "id": mapped_column(primary_key=True),
    }
    order = types.new_class("Order", (d.Table,), {"prefix": "ORD"}, lambda ns: ns.update(namespace))

    @d.tool(returns=order)
    def cancel_order(db: Db, order: Ref[order], reason: str, refund: bool = True) -> dict:
        """Cancel an order."""
        return {}

    return d, order, Language(d, speaker=("customer",))


ASKS = [f"Cancel {{order}}, {why}: {{reason}}." for why in ("please", "now", "today", "sorry", "thanks")]


@pytest.mark.parametrize(
    ("declared", "message"),
    [
        ({"asks": ["Cancel {order} now."] * 5}, r"leaves out the required \['reason'\]"),
        ({"asks": [*ASKS[:4], "Cancel {ordr}: {reason}."]}, r"no parameter \['ordr'\]; parameters are"),
        ({"asks": ASKS[:2]}, r"2 request phrasings; a tool with arguments needs 5"),
        ({"tells": ["{total:cash}"]}, r"unknown filter 'cash'; known: \["),
        ({"tells": ["{rows:count}"]}, r"count needs \(argument\)"),
        ({"tells": ["{@ordr} is cancelled."]}, r"\{@ordr\} names no parameter"),
        ({"confirms": ["cancel {@ordr}"]}, r"\{@ordr\} names no parameter"),
        ({"confirms": ["refund {total:cash}"]}, r"unknown filter 'cash'"),
        ({"words": {"refund": {"maybe": "perhaps"}}}, r"words for refund=\['maybe'\]; its values are"),
        ({"values": {"order": ["ORD-1"]}}, r"values for 'order' must be a non-empty list for a plain"),
        ({"name": "refund_order"}, r"the domain has no tool 'refund_order'; tools are \['cancel_order'\]"),
    ],
)
def test_a_wrong_tool_declaration_fails_naming_what_is_allowed(shop, declared: dict, message: str) -> None:
    _, _, say = shop
    kwargs = {"asks": ASKS, "tells": ["Cancelled."], **declared}
    name = kwargs.pop("name", "cancel_order")
    with pytest.raises(LanguageError, match=message):
        say.tool(name, **kwargs)
    assert name not in say.tools


def test_one_form_lets_a_request_with_one_way_of_saying_it_through(shop) -> None:
    _, _, say = shop
    say.tool("cancel_order", asks=ASKS[:1], tells=["Cancelled."], one_form="a test: only one way")
    assert say.tools["cancel_order"].phrasings == tuple(ASKS[:1])


@pytest.mark.parametrize(
    ("forms", "keywords", "message"),
    [
        (("my order of {item}",), {}, r"\{item\} is not a column; columns are \['id', 'status', 'total'\]"),
        (("my {status} order",), {"held": "order number"}, r"held='order number' must quote the id"),
        ((), {}, r"give at least one form or a held id"),
        (("my {total:when} order",), {}, None),
        (("my {total:count} order",), {}, r"filter 'count' not allowed here"),
        (("the {name} order",), {"shown": ("name",)}, None),
        (("my {status} order",), {"found_in": {"get_order": ("items", "id", "id")}}, r"must be a read tool"),
    ],
)
def test_a_wrong_name_declaration_fails_and_a_right_one_is_kept(shop, forms, keywords, message) -> None:
    _, order, say = shop
    if message is None:
        say.names(order, *forms, **keywords)
        assert say.tables["orders"].forms == forms
        return
    with pytest.raises(LanguageError, match=message):
        say.names(order, *forms, **keywords)


def test_state_words_must_name_a_column_and_say_something(shop) -> None:
    _, order, say = shop
    with pytest.raises(LanguageError, match=r"no column 'stage' to say states of"):
        say.state(order, "stage", shipped="on the way")
    with pytest.raises(LanguageError, match=r"words must be a non-empty string"):
        say.state(order, "status", shipped=" ")
    say.state(order, "status", shipped="on the way")
    assert say.words_for("orders", "status", "shipped") == "on the way"


def test_no_domain_speaks_through_the_generic_fallback() -> None:
    """A domain without a declared language gets "whose <column> is" requests and field-dump
    answers: every domain declares its own (the last, telecom_support, in issue 33)."""
    assert [d for d in available() if get_domain(d).language is None] == []
    assert sorted(FIVE + SEVEN + NINE + POLICY) == sorted(available())


@pytest.mark.parametrize("name", FIVE + SEVEN + NINE + POLICY)
def test_a_pattern_domain_declares_every_tool_and_names_every_row_a_request_needs(name: str) -> None:
    """Every tool a user may ask for has requests and answers; every table a parameter refers to
    has forms or a held id, so no draft of these domains falls back to quoting an internal id."""
    d = get_domain(name)
    lang = d.language
    assert lang is not None
    asked = [t for t, spec in d.tools.items() if not spec.hidden and t not in DISCOVERY]
    assert sorted(set(asked) - set(lang.tools)) == []
    for t in asked:
        declared = lang.tools[t]
        said = [p for p in d.tools[t].params if p.name not in lang.speaker]
        assert len(declared.phrasings) >= 5 or not said or declared.one_form, t
    referred = {p.ref.table_name for t in asked for p in d.tools[t].params if p.ref and not p.ref.path}
    unnamed = [t for t in referred if t not in lang.tables and t != "sessions"]
    assert unnamed == [], unnamed


def test_values_are_written_as_people_write_them() -> None:
    voice = Voice(get_domain("banking").language, date(2026, 6, 1))
    assert money(3753.77) == "$3,753.77" and money(200.0) == "$200" and money(-12.5) == "-$12.50"
    assert when("2026-06-02T15:30", date(2026, 6, 1)) == "Tuesday, June 2 at 3:30 pm"
    assert when("2027-01-05T09:00", date(2026, 6, 1)) == "Tuesday, January 5, 2027 at 9 am"
    rows = [{"name": n} for n in ("Ann", "Bo", "Ann", "Cy", "Di", "Ed")]
    assert voice._rows(rows, "list", "name", None, None) == "Ann, Bo, Cy and 3 more"  # repeats count
    assert voice._rows(rows[:2], "count", "payee", None, 57) == "57 payees"
    assert voice._rows([], "count", "payee", None, None) == "no payees"
    assert second_person("my checking account") == "your checking account"
    assert (
        voice._format("repeats until 2026-12-31", None, None, None, "repeats")
        == "repeats until Thursday, December 31"
    )
    assert (
        voice._format("Documents/2026-05-24-launch.md", None, None, None, "path")
        == "Documents/2026-05-24-launch.md"
    )


def test_an_answer_falls_back_when_a_list_is_empty_and_agrees_with_you() -> None:
    d = get_domain("banking")
    voice = Voice(d.language, date(2026, 6, 1))
    spec = d.tools["list_payees"]
    assert voice.tell(spec, {"payees": []}, {}, {}) == "You have no payees saved."
    two = {"payees": [{"name": "Lambert Labs"}, {"name": "Glen Atkinson"}]}
    assert voice.tell(spec, two, {}, {}) == "You have 2 payees saved: Lambert Labs and Glen Atkinson."
    balance = voice.tell(d.tools["get_balance"], {"balance": 3753.77}, {}, {"account": "my checking account"})
    assert balance == "Your checking account has $3,753.77."
