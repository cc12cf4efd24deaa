"""A domain's declared language, put to work: the words of requests, names and answers.

The domain declares (``servers.kit.language``) how its users name rows, say states and ask for
each tool, and how an assistant reports each tool's result; this module turns those declarations
and a call's real arguments and result into text. Values are written the way people write them:
money with its currency ("$3,753.77"), days and times in words ("Tuesday, June 2 at 3 pm"),
stored codes by their declared words ("waiting to be let in"), never an ISO timestamp.

A domain without a declared language has no :class:`Voice` (``voice_of`` gives None) and stays on
the generic fallback of ``render`` and ``answers``.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Callable, Mapping, Sequence
from datetime import date
from typing import Any

from querygen.text.dates import DATE_IN_TEXT
from querygen.text.said import (
    AGREE,
    VERB,
    Unsaid,
    about,
    clock,
    day,
    exact,
    listing,
    lower,
    minutes,
    money,
    month_words,
    number,
    plural,
    second_person,
    unsigned,
    when,
)
from servers.kit import Domain, ToolSpec
from servers.kit.language import SLOT, Language, Names

MAX_LISTED = 3  # items of a list an answer names before "and N more"


def voice_of(domain: Domain, today: date) -> Voice | None:
    """The domain's voice, or None while it has no declared language."""
    lang = getattr(domain, "language", None)
    return Voice(lang, today) if lang is not None else None


def pick(options: Sequence[Any], key: Any) -> Any:
    """One of ``options``, the same every run for the same ``key`` (no process-salted hash)."""
    return options[zlib.crc32(str(key).encode()) % len(options)]


class Voice:
    """One domain's declared language, with the values of one task's reference day."""

    def __init__(self, language: Language, today: date) -> None:
        self.lang = language
        self.today = today
        self.currency = "usd"  # of the result being told: a London merchant's balance is in pounds
        # the filters that say one value on its own ({x:money}, {x:day} ...); they read the
        # currency of whatever is being said when they run
        self._said_as: dict[str, Callable[[Any], str]] = {
            "money": lambda v: money(v, self.currency),
            "amount": lambda v: money(abs(float(v)), self.currency),  # an outflow -32.62: "$32.62"
            "month": lambda v: month_words(v, self.today),
            "clock": clock,
            "lower": lower,
            "minutes": minutes,
            "about": about,
            "exact": exact,
            "abs": unsigned,
            "day": lambda v: day(v, self.today),
            "when": lambda v: when(v, self.today),
        }

    # -- requests -------------------------------------------------------------------------------
    def asks(self, spec: ToolSpec) -> tuple[str, ...] | None:
        declared = self.lang.tools.get(spec.name)
        return declared.phrasings if declared is not None else None

    def speaker(self, param: str) -> bool:
        return param in self.lang.speaker

    def passed(self, param: str) -> bool:
        """A value the agent carries from an earlier call (a token), never in a user's words."""
        return param in self.lang.passed

    def tool_words(self, spec: ToolSpec, param: str, value: Any) -> str | None:
        """The words the tool's own declaration gives this value of a parameter ("fl oz" for floz)."""
        declared = self.lang.tools.get(spec.name)
        if declared is not None and param in declared.words and not isinstance(value, list | dict):
            return declared.words[param].get(value)
        return None

    def value_words(self, spec: ToolSpec, param: str, value: Any) -> str | None:
        """The declared words for a parameter's value (its own words, else its column's states)."""
        if (words := self.tool_words(spec, param, value)) is not None:
            return words
        if isinstance(value, str | bool):
            return self.lang.words_for(spec.returns, param, value)
        return None

    # -- naming rows ----------------------------------------------------------------------------
    def names(self, table: str) -> Names | None:
        return self.lang.tables.get(table)

    def holds(self, table: str) -> bool:
        """People hold rows of ``table`` (an order number, a flight by number and day)."""
        names = self.lang.tables.get(table)
        return names is not None and names.held is not None

    def held(self, table: str, key: Any, row: Mapping[str, Any] | None = None) -> str | None:
        """How the user quotes a row they hold ("order ORD-000048", "flight TW518 on Friday,
        July 17"), or None if its id is internal (or its held columns need a ``row`` not given)."""
        names = self.lang.tables.get(table)
        if names is None or names.held is None:
            return None
        if [m.group(1) for m in SLOT.finditer(names.held)] == ["id"]:
            return names.held.replace("{id}", str(key))
        return self._try_fill(table, names.held, row) if row is not None else None

    def name_row(
        self,
        table: str,
        row: Mapping[str, Any],
        rows: Sequence[Mapping[str, Any]],
        mine: bool,
        column: str | None = None,
    ) -> tuple[str, str, dict[str, Any]] | None:
        """(phrase, the first value as said, {column: value}) naming ``row`` so that no other of
        ``rows`` reads the same (two orders of the same day are both "my order from Tuesday").

        ``column`` is the one a lookup filtered on: it must be the form's first column. A form in
        the speaker's voice ("my ...") names only the speaker's own rows."""
        names = self.lang.tables.get(table)
        if names is None:
            return None
        self.currency = _currency(row)
        usable = []
        for form in names.forms:
            slots = [(m.group(1), m.group(2)) for m in SLOT.finditer(form)]
            cols = [c for c, _ in slots]
            if column is not None and cols[:1] != [column]:
                continue
            if form.lower().startswith("my ") and not mine:
                continue
            if any(row.get(c) in (None, "") for c in cols):
                continue
            said = self._said(table, slots, row)
            if said is None:
                continue
            fits = [r for r in rows if self._said(table, slots, r) == said]
            if len(fits) == 1:
                usable.append((form, slots, said))
        if not usable:
            return None
        form, slots, said = pick(usable, row.get("id", form))
        text = self.fill_row(table, form, row)
        first = self._format(row.get(slots[0][0]), slots[0][1], None, table, slots[0][0]) if slots else text
        return text, first, {c: row.get(c) for c, _ in slots}

    def _said(
        self, table: str, slots: list[tuple[str, str | None]], row: Mapping[str, Any]
    ) -> tuple[str, ...] | None:
        try:
            return tuple(self._format(row.get(c), f, None, table, c).casefold() for c, f in slots)
        except (Unsaid, ValueError):
            return None

    def name_list(
        self, spec: ToolSpec, param: str, table: str, value: list[Any], steps: Sequence[Any]
    ) -> tuple[str, int] | None:
        """(phrase, index of the earlier call that showed it) for a list argument: the row of an
        earlier result that carries the whole list under the parameter's name, said by the tool's
        declared form for it ("the TW518 flight leaving at 6:40 am"); else each element said by its
        table's forms among the rows that showed it ("the GAMB buy and the WOLL buy")."""
        declared = self.lang.tools.get(spec.name)
        form = declared.lists.get(param) if declared is not None else None
        for i in range(len(steps) - 1, -1, -1):
            result = steps[i].result
            if form is not None:
                for rows in _row_lists(result):
                    holder = [r for r in rows if r.get(param) == value]
                    if len(holder) == 1:
                        said = self._try_fill(table, form, holder[0])
                        others = [self._try_fill(table, form, r) for r in rows if r is not holder[0]]
                        if said is not None and said not in others:
                            return said, i
            for rows in _row_lists(result):
                picked = [next((r for r in rows if r.get("id") == v), None) for v in value]
                if value and all(r is not None for r in picked):
                    names = [self.name_row(table, r, rows, True) for r in picked]
                    if all(n is not None for n in names):
                        return listing([n[0] for n in names]), i
        return None

    def _try_fill(self, table: str, form: str, row: Mapping[str, Any]) -> str | None:
        try:
            return self.fill_row(table, form, row)
        except (Unsaid, ValueError):
            return None

    def fill_row(self, table: str, form: str, row: Mapping[str, Any]) -> str:
        """A naming form filled from a row, values as people say them."""
        self.currency = _currency(row)

        def one(m: re.Match[str]) -> str:
            col, filt = m.group(1), m.group(2)
            return self._format(row.get(col), filt, None, table, col)

        return SLOT.sub(one, form)

    # -- answers --------------------------------------------------------------------------------
    def tell(
        self, spec: ToolSpec, result: Any, args: Mapping[str, Any], said: Mapping[str, str]
    ) -> str | None:
        """The declared answer for one call: the first template whose every slot has a value."""
        declared = self.lang.tools.get(spec.name)
        if declared is None:
            return None
        self.currency = _currency(result)
        for template in declared.tells:
            try:
                return self._fill(template, spec, result, args, said)
            except Unsaid:
                continue
        return None

    def confirm(self, spec: ToolSpec, args: Mapping[str, Any], said: Mapping[str, str]) -> str | None:
        """The declared clause for a write about to be confirmed ("move your knee pain visit on
        Monday to the opening on Tuesday, June 2 at 8:30 am"), from its arguments alone."""
        declared = self.lang.tools.get(spec.name)
        for template in declared.confirms if declared is not None else ():
            try:
                text = self._fill(template, spec, {}, args, said)
            except Unsaid:
                continue
            return text[:1].lower() + text[1:]
        return None

    def _fill(
        self, template: str, spec: ToolSpec, result: Any, args: Mapping[str, Any], said: Mapping[str, str]
    ) -> str:
        def one(m: re.Match[str]) -> str:
            name, filt, arg = m.group(1), m.group(2), m.group(3)
            if name.startswith("@"):
                words = said.get(name[1:])
                if filt in ("yes", "no"):  # {@handle:no}: the user named nobody
                    return self._format(words, filt, None, spec.returns, name[1:])
                if words is None:
                    raise Unsaid(name)
                return (
                    re.sub(r"\b([Yy]ou)$", "\\1\x00", second_person(words))  # "you" may be the subject
                    if filt is None
                    else self._format(args.get(name[1:]), filt, arg, spec.returns, name[1:])
                )
            value = _lookup(result, args, name)
            return self._format(value, filt, arg, spec.returns, name.rsplit(".", 1)[-1], _total(result))

        text = AGREE.sub(lambda m: f"{m.group(1)} {VERB[m.group(2)]}", SLOT.sub(one, template)).replace(
            "\x00", ""
        )
        opening = SLOT.match(template)
        if opening is not None and not opening.group(1).startswith("@"):
            return text  # a value opens the answer ("notes.md is ..."): it keeps its own case
        return text[:1].upper() + text[1:]

    def _format(
        self,
        value: Any,
        filt: str | None,
        arg: str | None,
        table: str | None,
        col: str,
        total: int | None = None,
    ) -> str:
        if filt in ("yes", "no"):  # a condition, not a value: the template holds only when it does
            if bool(value) == (filt == "yes"):
                return ""
            raise Unsaid(col)
        if value is None or value == "" or value == []:
            raise Unsaid(col)
        if filt in self._said_as:
            return self._said_as[filt](value)
        if filt == "state":
            return (
                self.lang.words_for(table, col, value)
                or self._any_state(col, value)
                or str(value).replace("_", " ")
            )
        if filt == "count" and isinstance(value, int) and not isinstance(value, bool):
            return self._rows([], "count", arg or "", table, value)  # {lines:count(line)}: "1 line"
        if filt in ("count", "list", "sum", "shown"):
            rows = value if isinstance(value, list) else None
            if rows is None:
                raise Unsaid(col)
            if filt == "shown":  # the rows this page holds, whatever the total ("the last 10")
                return self._rows(rows, "list", arg or "", table, None)
            return self._rows(rows, filt, arg or "", table, total)
        if isinstance(value, list) and value and all(isinstance(v, str | int | float) for v in value):
            return listing([number(v) for v in value])  # "TW518 and NX8957"
        if isinstance(value, dict | list):
            raise Unsaid(col)
        if isinstance(value, str) and "/" in value:
            return value  # a path keeps every character
        if isinstance(value, str):
            return self.lang.words_for(table, col, value) or DATE_IN_TEXT.sub(
                lambda m: self._day_in_text(m.group()), value
            )
        return number(value)

    def days_in_words(self, text: str) -> str:
        """A sentence with its stored days and moments said in words ("booked at 2026-05-30T08:00"
        -> "booked at Saturday, May 30 at 8 am")."""
        return DATE_IN_TEXT.sub(lambda m: self._day_in_text(m.group()), text)

    def _day_in_text(self, iso: str) -> str:
        try:
            return when(iso, self.today) if "T" in iso else day(iso, self.today)
        except (Unsaid, ValueError):
            return iso

    def _any_state(self, col: str, value: Any) -> str | None:
        for (_, column), words in self.lang.states.items():
            if column == col and value in words:
                return words[value]
        return None

    def _rows(self, rows: list[Any], filt: str, arg: str, table: str | None, total: int | None) -> str:
        """count / list / sum over a list of rows; ``total`` is the result's own count when it
        shows one page of more rows than it lists."""
        n = max(len(rows), total or 0)
        if filt == "count":
            return f"no {plural(arg)}" if n == 0 else f"1 {arg}" if n == 1 else f"{n} {plural(arg)}"
        if not rows:
            raise Unsaid(arg)
        if filt == "sum":
            return money(sum(float(r.get(arg) or 0) for r in rows if isinstance(r, dict)), self.currency)
        values = list(dict.fromkeys(v for r in rows if (v := self._item(r, arg, table))))
        if not values:
            raise Unsaid(arg)
        shown = values[:MAX_LISTED] if len(values) > MAX_LISTED + 1 else values
        more = n - len(shown)  # everything not named: the rest of the page and of a paged total
        return listing(shown, more)

    def _item(self, row: Any, spec: str, table: str | None) -> str:
        """One row of a list as said: ``title`` -> "Team lunch"; ``title, start:when`` -> "Team
        lunch (Tuesday, June 2 at 11 am)"; an empty first value -> ""."""
        if not isinstance(row, dict):
            return number(row) if row not in (None, "") else ""
        parts = []
        for k, piece in enumerate(p.strip() for p in spec.split(",")):
            col, _, filt = piece.partition(":")
            v = row.get(col)
            if filt.startswith("count=") and isinstance(v, list):  # "busy:count=busy block"
                parts.append(self._rows(v, "count", filt.removeprefix("count="), table, None))
                continue
            if v in (None, ""):
                if k == 0:
                    return ""
                continue
            try:
                parts.append(
                    self._format(v, filt or ("state" if self._any_state(col, v) else None), None, table, col)
                )
            except Unsaid:
                if k == 0:
                    return ""
        if not parts:
            return ""
        return parts[0] + (f" ({', '.join(parts[1:])})" if len(parts) > 1 else "")


def _row_lists(value: Any) -> list[list[dict[str, Any]]]:
    """Every list of rows inside a result (its top level first)."""
    out: list[list[dict[str, Any]]] = []
    if isinstance(value, list):
        rows = [r for r in value if isinstance(r, dict)]
        if rows:
            out.append(rows)
        for r in rows:
            out.extend(_row_lists(r))
    elif isinstance(value, dict):
        for v in value.values():
            out.extend(_row_lists(v))
    return out


def _total(result: Any) -> int | None:
    """A paged result's own count of everything that matched (``total``), if it gives one."""
    if (
        isinstance(result, dict)
        and isinstance(result.get("total"), int)
        and not isinstance(result["total"], bool)
    ):
        return result["total"]
    return None


def _lookup(result: Any, args: Mapping[str, Any], path: str) -> Any:
    """A field of the result (dotted for nested; ``rows`` is its list of rows), else an argument."""
    node: Any = result
    for part in path.split("."):
        if part == "rows" and isinstance(node, dict) and "rows" not in node:
            lists = [v for v in node.values() if isinstance(v, list)]
            node = lists[0] if lists else None
        elif part == "rows" and isinstance(node, list):
            continue
        elif isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]  # {messages.0.text}: the first row of a list
        else:
            node = None
            break
    if node is None and "." not in path and path in args:
        return args[path]
    return node


def _currency(result: Any) -> str:
    """The currency a result's amounts are in: its own ``currency`` field, else its rows'."""
    if isinstance(result, dict):
        if isinstance(result.get("currency"), str):
            return result["currency"]
        for v in result.values():
            if isinstance(v, list) and v and isinstance(v[0], dict) and isinstance(v[0].get("currency"), str):
                return v[0]["currency"]
    return "usd"
