"""How a domain's users speak and what its assistant says back: the language a domain declares.

The generator writes training text from these declarations, never from column names. A domain
says, in its own module:

* how a person **names a row** of each table ("my checking account", 'the "Q3 launch" sprint'),
  and which ids a person really holds (an order number, a confirmation code) as opposed to the
  internal ones that must never appear in a user's words;
* how a person **says a state or a filter** ("frozen", "still needs approval"), per value of a
  column or of a tool's parameter; the words are always produced from the value, so the words
  and the gold call cannot disagree;
* per tool, **how a user asks** for it (several phrasings, in the voice of that service's user,
  some with a reason), **how an assistant reports** its result (the facts asked for, plainly),
  and, where a user types free text (a nickname, a comment), **what they would type**.

Templates are checked when declared: a request's ``{slot}`` must be a parameter of the tool and
every required parameter must be said (the speaker's own id excepted: "my accounts"); an answer's
slots use the grammar below. What the slots turn into (money, dates, the phrase the user used) is
the generator's business (``querygen.text.voice``); this module only records and checks.

Answer template slots (a tool's ``tells``; the first template whose every slot has a value wins,
so a later one is the fallback for an empty list or a missing field):

    {field}                a field of the result (dotted for nested: ``{account.balance}``), else an argument
    {field:money}          "$1,234.50"
    {field:exact}          a number with every decimal it has ("3.142"; plain numbers keep two)
    {field:abs}            a number without its sign ("39 days" between two dates either way round)
    {field:amount}         money without its sign ("$32.62" for an outflow stored as -32.62)
    {field:month}          "May" for 2026-05 ("May 2025" in another year)
    {field:clock}          "9 am" for 09:00, "9:30 pm" for 21:30, "8 am to 9 pm" for 08:00-21:00
    {field:minutes}        a duration: "7 minutes", "1 hour 20 minutes", "about 41 hours"
    {field:about}          a measure to the precision people say: "2,135", "21.4", "2.13"
    {field:lower}          a name stored capitalised, said mid-sentence: "living room speaker"
    (money is written in the result's own ``currency`` when it has one: "£9,087.50")
    {field:day}            "Tuesday, June 2"        {field:when}  "Tuesday, June 2 at 3 pm"
    {field:state}          the declared words for that value of the column (``states``)
    {rows:count(noun)}     "3 payees" / "1 payee"   (``noun`` singular; plural made for you)
    {rows:list(column)}    "Lambert Labs, Glen Atkinson and 2 more" (no repeats; a paged result's ``total`` counts)
    {rows:list(a, b:when)} "Team lunch (Tuesday, June 2 at 11 am), Standup (...) and 3 more"
    {rows:list(a, b:count=busy block)}  "Dana Lee (2 busy blocks), ..." (b a list in each row)
    {rows:shown(column)}   as list, but "and N more" counts only the page's rows ("the last 10 ...")
    {rows:sum(column)}     a money total of one column of the rows
    {rows.0.text}          a field of the first row of a list
    {flag:yes} {flag:no}   write nothing, and hold the template only when the field is true (yes) or
                           false, empty or missing (no): "You already had a DM open.{already_open:yes}"
    {@param}               the words the user used for that argument, in the second person

A list argument is said by the rows an earlier result showed it in: each element by its table's
forms ("the GAMB buy and the WOLL buy"), or, with ``tool(..., lists={param: form})``, by the one
result row that carries the whole list under the parameter's name ("the TW518 flight leaving at
6:40 am" for an option's ``flight_dates``).
                           ("your checking account" for "my checking account")
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from servers.kit.table_marks import marks

if TYPE_CHECKING:
    from servers.kit.domain import Domain

SLOT = re.compile(r"\{(@?[\w.]+)(?::(\w+)(?:\(([\w ,:=]*)\))?)?\}")
FILTERS = {
    "money": False,
    "exact": False,
    "abs": False,
    "amount": False,
    "month": False,
    "clock": False,
    "minutes": False,
    "about": False,
    "lower": False,
    "day": False,
    "when": False,
    "state": False,
    "count": True,
    "list": True,
    "sum": True,
    "shown": True,
    "yes": False,
    "no": False,
}
USER = "user"  # the role of a service's usual user: the speaker, who owns "my" rows
MIN_ASKS = 5  # phrasings a tool with arguments declares (fewer only with ``one_form``)


class LanguageError(ValueError):
    """A language declaration that cannot be right: names what is wrong and what is allowed."""


@dataclass(frozen=True)
class Names:
    """How people name the rows of one table.

    ``forms`` are templates over the row's columns, in the speaker's voice ("my {kind} account");
    one is usable for a row when the values it shows single that row out of the rows the agent
    will see. ``held`` is how a person quotes a row they really hold: its id ("order {id}") or the
    columns that are its natural key ("flight {flight_id} on {day:day}"); None means the id is
    internal and the row is never named from the user's own knowledge."""

    table: str
    forms: tuple[str, ...]
    held: str | None = None
    # read tools that show this table's rows nested in another row: tool -> (field, id key, the
    # row's column holding the tool's argument), e.g. {"get_order": ("items", "id", "order_id")}
    found_in: Mapping[str, tuple[str, str, str]] = field(default_factory=dict)
    # how a row is said together with the row it was found through: "{row} at {owner}"
    within: str | None = None
    # what a person calls such a row when they do not say which ("my flight", "a stock")
    called: str | None = None


@dataclass(frozen=True)
class Asks:
    """How a user asks for one tool and how the assistant reports what it did."""

    tool: str
    phrasings: tuple[str, ...]
    tells: tuple[str, ...]
    words: Mapping[str, Mapping[Any, str]] = field(default_factory=dict)
    one_form: str = ""  # why this request has fewer than MIN_ASKS forms
    values: Mapping[str, tuple[Any, ...]] = field(default_factory=dict)  # what users type for free text
    # a list argument said by the result row that carries it: {"flight_dates": "the {flights} flight ..."}
    lists: Mapping[str, str] = field(default_factory=dict)
    # who asks for it: the service's usual user (USER), or other roles ("staff", "dispatch")
    by: frozenset[str] = frozenset({"user"})
    # what the agent says it is about to do when a written policy wants the user's yes first:
    # clauses over the arguments ("move {@appointment} to {@slot}"), first resolvable wins
    confirms: tuple[str, ...] = ()


class Language:
    """The language of one domain; made once in the domain's module, read by the generator.

    ``speaker`` names the parameters that mean the person speaking (``customer`` in a bank): a
    request may leave them unsaid ("show my accounts"), and a task only uses such a phrasing when
    the call is made for the speaker. ``passed`` names values no user says: the agent carries them
    from an earlier call of the task (an access token from signing in); a draft whose value has no
    such call is not drawn."""

    def __init__(self, domain: Domain, *, speaker: Iterable[str] = (), passed: Iterable[str] = ()) -> None:
        self.domain = domain
        self.speaker = tuple(speaker)
        self.passed = tuple(passed)  # values the agent carries from an earlier call (a session token)
        self.tables: dict[str, Names] = {}
        self.states: dict[tuple[str, str], dict[Any, str]] = {}
        self.tools: dict[str, Asks] = {}
        domain.language = self

    # -- tables ---------------------------------------------------------------------------------
    def names(
        self,
        table: Any,
        *forms: str,
        held: str | None = None,
        shown: Iterable[str] = (),
        found_in: Mapping[str, tuple[str, str, str]] | None = None,
        within: str | None = None,
        called: str | None = None,
    ) -> None:
        """Declare how people name rows of ``table`` (see :class:`Names`). ``shown`` are fields the
        domain's tools show beside the table's own columns (a cart line's ``product_name``), which a
        form may use; a form needing one is only used where the lookup's rows carry it.
        ``found_in`` names the reads that show the rows nested in another row (an order's lines in
        ``get_order``), so an agent, and the generator, can look them up there. ``within`` says a
        row together with the row an agent must find first ("{row} at {owner}": "Jon Reese at the
        "Design review" meeting"); without it such a row is only named once its owner came up.
        ``called`` is what a person calls such a row without saying which ("my flight", "a stock"),
        for a request that leaves it out to be asked for."""
        name, columns = table.__tablename__, _columns(table) | set(shown)
        for tool, where in (found_in or {}).items():
            if tool not in self.domain._tools or len(where) != 3 or where[2] not in columns:
                raise LanguageError(
                    f"{self.domain.name}.{name} found_in {tool!r}: {where!r} must be a read tool of the domain "
                    "and (field, id key, column of this table holding the tool's argument)"
                )
        if not forms and held is None:
            raise LanguageError(f"{self.domain.name}.{name}: give at least one form or a held id")
        for form in (*forms, *([held] if held else [])):
            for slot, filt, _ in _slots(form, f"{self.domain.name}.{name} form {form!r}"):
                if slot not in columns:
                    raise LanguageError(
                        f"{self.domain.name}.{name} form {form!r}: {{{slot}}} is not a column; "
                        f"columns are {sorted(columns)}"
                    )
                if filt not in (None, "money", "day", "when", "state"):
                    raise LanguageError(
                        f"{self.domain.name}.{name} form {form!r}: filter {filt!r} not allowed here"
                    )
        if held is not None and not SLOT.search(held):
            raise LanguageError(
                f"{self.domain.name}.{name}: held={held!r} must quote the id ({{id}}) or the columns a person "
                "holds ('flight {flight_id} on {day:day}')"
            )
        if within is not None and ("{row}" not in within or "{owner}" not in within):
            raise LanguageError(
                f"{self.domain.name}.{name}: within={within!r} must say {{row}} and {{owner}}"
            )
        self.tables[name] = Names(name, tuple(forms), held, dict(found_in or {}), within, called)

    def state(self, table: Any, column: str, **words: str) -> None:
        """Declare how people say the values of one column ("frozen", "waiting to be let in")."""
        name = table.__tablename__
        if column not in _columns(table):
            raise LanguageError(f"{self.domain.name}.{name}: no column {column!r} to say states of")
        for value, said in words.items():
            if not isinstance(said, str) or not said.strip():
                raise LanguageError(
                    f"{self.domain.name}.{name}.{column}={value!r}: words must be a non-empty string"
                )
        self.states[(name, column)] = dict(words)

    # -- tools ----------------------------------------------------------------------------------
    def tool(
        self,
        name: str,
        *,
        asks: Iterable[str],
        tells: Iterable[str],
        words: Mapping[str, Mapping[Any, str]] | None = None,
        one_form: str = "",
        values: Mapping[str, Iterable[Any]] | None = None,
        lists: Mapping[str, str] | None = None,
        by: str | Iterable[str] = USER,
        confirms: Iterable[str] = (),
    ) -> None:
        """Declare one tool's requests and answers (see the module docstring for the grammar).

        ``by`` is who asks for it: the service's usual user (``"user"``, the speaker), or another
        role ("staff" pausing a restaurant, "dispatch" assigning a courier), or several. A task
        keeps to one role, and a role other than the user never speaks as the owner of the rows
        it acts on (a kitchen declines "the order placed at 12:10", not "my order").

        ``confirms`` are what the agent says it is about to do when the domain's written policy wants
        the user's yes first ("cancel {@reservation} and refund it to {@payment_method}"), filled
        from the arguments only (the call has not run), first resolvable wins."""
        spec = self.domain._tools.get(name)
        where = f"{self.domain.name}.{name}"
        if spec is None:
            raise LanguageError(
                f"{where}: the domain has no tool {name!r}; tools are {sorted(self.domain._tools)}"
            )
        asks, tells = tuple(asks), tuple(tells)
        params = {p.name: p for p in spec.params}
        if not asks or not tells:
            raise LanguageError(f"{where}: declare at least one request (asks) and one answer (tells)")
        said = [p for p in spec.params if p.name not in self.speaker and p.name not in self.passed]
        if said and len(asks) < MIN_ASKS and not one_form:
            raise LanguageError(
                f"{where}: {len(asks)} request phrasings; a tool with arguments needs {MIN_ASKS} "
                "(or one_form='why the request has only one form')"
            )
        for text in asks:
            self._check_request(where, text, spec.params)
        for text in (*tells, *confirms):
            _check_answer(where, text, params)
        for param, said_words in (words or {}).items():
            _check_words(where, param, said_words, params)
        for param, options in (values or {}).items():
            if param not in params or params[param].ref is not None or not tuple(options):
                raise LanguageError(
                    f"{where}: values for {param!r} must be a non-empty list for a plain parameter"
                )
        for param, form in (lists or {}).items():
            if param not in params or not params[param].is_list:
                raise LanguageError(f"{where}: lists= names {param!r}, which is no list parameter")
            _slots(form, f"{where} list form {form!r}")
        roles = frozenset([by] if isinstance(by, str) else by)
        if not roles or not all(isinstance(r, str) and r.isidentifier() for r in roles):
            raise LanguageError(f"{where}: by={by!r} must name one role or several (words like 'staff')")
        kept = {k: tuple(v) for k, v in (values or {}).items()}
        self.tools[name] = Asks(
            name, asks, tells, dict(words or {}), one_form, kept, dict(lists or {}), roles, tuple(confirms)
        )

    def _check_request(self, where: str, text: str, params: list[Any]) -> None:
        """A request names only parameters, and every required one but the speaker."""
        slots = {s for s, _, _ in _slots(text, f"{where} request {text!r}")}
        names = {p.name for p in params}
        if slots - names:
            raise LanguageError(
                f"{where} request {text!r}: no parameter {sorted(slots - names)}; parameters are {sorted(names)}"
            )
        unsaid = (*self.speaker, *self.passed)
        missing = [p.name for p in params if p.required and p.name not in slots and p.name not in unsaid]
        if missing:
            raise LanguageError(f"{where} request {text!r}: leaves out the required {missing}")

    # -- reading --------------------------------------------------------------------------------
    def roles_of(self, tool: str) -> frozenset[str] | None:
        """Who asks for ``tool`` (None for a tool no one asks for by name: the discovery tools)."""
        declared = self.tools.get(tool)
        return declared.by if declared is not None else None

    def words_for(self, table: str | None, column: str, value: Any) -> str | None:
        """The declared words for a column's value, if any."""
        if table is None:
            return None
        return self.states.get((table, column), {}).get(value if not isinstance(value, bool) else str(value))


def _check_answer(where: str, text: str, params: Mapping[str, Any]) -> None:
    """An answer's slots: a ``@param`` names a parameter; a filter is known and gets its argument."""
    for slot, filt, arg in _slots(text, f"{where} answer {text!r}"):
        if slot.startswith("@") and slot[1:] not in params:
            raise LanguageError(f"{where} answer {text!r}: {{{slot}}} names no parameter")
        if filt is not None and filt not in FILTERS:
            raise LanguageError(f"{where} answer {text!r}: unknown filter {filt!r}; known: {sorted(FILTERS)}")
        if filt is not None and FILTERS[filt] != bool(arg):
            raise LanguageError(
                f"{where} answer {text!r}: {filt} {'needs' if FILTERS[filt] else 'takes no'} (argument)"
            )


def _check_words(where: str, param: str, said: Mapping[Any, str], params: Mapping[str, Any]) -> None:
    """Words are given for a parameter's own values (its enum, or true/false)."""
    p = params.get(param)
    if p is None:
        raise LanguageError(f"{where}: words for {param!r}, which is no parameter")
    allowed = set(p.enum or ()) | ({True, False} if p.json_type == "boolean" else set())
    if p.items and p.items.get("enum"):
        allowed |= set(p.items["enum"])
    bad = [v for v in said if allowed and v not in allowed]
    if bad:
        raise LanguageError(f"{where}: words for {param}={bad}; its values are {sorted(map(str, allowed))}")
    if not all(isinstance(w, str) and w.strip() for w in said.values()):
        raise LanguageError(f"{where}: words for {param} must be non-empty strings")


def _columns(table: Any) -> set[str]:
    return {c.name for c in table.__table__.columns} - set(marks(table).hidden or ())


def _slots(text: str, where: str) -> list[tuple[str, str | None, str | None]]:
    """The slots of a template as (name, filter, argument); a malformed brace is an error."""
    try:
        parsed = list(string.Formatter().parse(text))
    except ValueError as e:
        raise LanguageError(f"{where}: {e}") from None
    out = []
    for _, fld, spec, _ in parsed:
        if fld is None:
            continue
        whole = "{" + fld + (":" + spec if spec else "") + "}"
        m = SLOT.fullmatch(whole)
        if m is None:
            raise LanguageError(
                f"{where}: slot {whole} is not {{name}}, {{name:filter}} or {{name:filter(arg)}}"
            )
        out.append((m.group(1), m.group(2), m.group(3)))
    return out
