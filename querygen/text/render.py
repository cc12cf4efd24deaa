"""Rendering user turns from the tools' own utterance templates, without an LLM.

Each step is one sentence from one of its tool's ``says`` templates. A value the user knows is
written out (ids, amounts, names); a value that comes from an earlier tool output is referred to
the way a person would ("that account", "the new payee", "the account whose kind is savings"), so
the agent has to make the earlier call to resolve it. Personas, connectors and relative dates
(the domain's reference date) give variety. Every value surface the gold calls need is returned
as an *anchor*: a paraphrase must keep them all.

Information levels (the paper's 60/20/20): ``complete`` says everything, with persona and
optional details; ``minimal`` says only what is needed in the shortest phrasing; for
``missing_required`` one value is left vague, which turns the task into a clarification.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from querygen.plan.ids import IdIndex
from querygen.plan.sampler import tables_of
from querygen.plan.step import Step
from querygen.text.dates import DATE_IN_TEXT, is_date, say_date, stands_alone
from querygen.text.phrasing import (
    ACTION_CLOSERS,
    CONNECTORS,
    MINIMAL_CONNECTORS,
    OPENER_RATE,
    PERSONAS,
    Persona,
)
from querygen.text.voice import money, month_words, number, voice_of
from servers.kit import Domain, Param, ToolSpec, marks

_MONEY_WORDS = ("amount", "price", "total", "cost", "budget", "sum", "fee", "balance")
_SLOT = re.compile(r"\{(\w+)\}")


@dataclass
class RenderedTurn:
    text: str
    anchors: list[str] = field(default_factory=list)


def human(name: str) -> str:
    return name.removesuffix("_id").replace("_", " ")


def noun(table: Any) -> str:
    declared = marks(table).noun
    if declared:
        return declared
    name = table.__tablename__
    if name.endswith("ies"):
        return name[:-3] + "y"
    if name.endswith(("ses", "xes")):
        return name[:-2]
    return name.removesuffix("s")


def is_money(p: Param) -> bool:
    return p.json_type == "number" and any(w in p.name.lower() for w in _MONEY_WORDS)


class Renderer:
    """Template text for the steps of one task."""

    def __init__(self, domain: Domain, ids: IdIndex) -> None:
        self.domain = domain
        self.ids = ids
        self.tables = {t.__tablename__: t for t in tables_of(domain)}
        self.today = datetime.fromisoformat(domain.now).date()
        self.voice = voice_of(domain, self.today)  # None while the domain declares no language

    # -- values -----------------------------------------------------------------------------------
    def surface(self, spec: ToolSpec, p: Param, value: Any, rng: random.Random, after: str = "") -> str:
        """How a user writes this value; ``after`` is the template text following the slot."""
        words = self.voice.value_words(spec, p.name, value) if self.voice is not None else None
        if words is not None:
            return words  # "waiting to be let in", from the very value the call passes
        if isinstance(value, bool):
            return "yes" if value else "no"
        if p.ref is not None and p.ref.path and value in (".", "./"):
            return "the current folder"  # nobody says "show everything in ."
        if isinstance(value, list):  # "Ana Lopez, born April 12, 1990": no stored date in a user's words
            return _and([self._element(spec, p, v) for v in value])
        if is_money(p) and isinstance(value, int | float):
            said = money(value)
            return said[1:] if after.lstrip().lower().startswith(("dollar", "usd")) else said
        if isinstance(value, str) and p.enum is not None:
            return human(value) if "_" in value and not p.ref else value
        if (
            isinstance(value, str)
            and re.fullmatch(r"\d{4}-\d{2}", value)
            and ("month" in p.name or "expir" in p.name)
        ):
            return self._month_words(value, rng)
        dated = isinstance(value, str) and p.constraints.get("pattern") and is_date(value) and not p.sensitive
        if dated:
            return say_date(value, self.today, rng) or value  # "tomorrow at 2:30 pm", not 2026-06-02T14:30
        return str(value)

    def _element(self, spec: ToolSpec, p: Param, value: Any) -> str:
        """One element of a list argument: its declared words ("invoice.payment_failed" as
        developers write it), an enum value in words, else the value with its dates said."""
        words = self.voice.tool_words(spec, p.name, value) if self.voice is not None else None
        if words is not None:
            return words
        return human(str(value)) if p.items and p.items.get("enum") else _dates_said(str(value))

    def _month_words(self, value: str, rng: random.Random) -> str:
        y, m = int(value[:4]), int(value[5:])
        if (y, m) == (self.today.year, self.today.month) and rng.random() < 0.4:
            return "this month"
        prev = (self.today.year, self.today.month - 1) if self.today.month > 1 else (self.today.year - 1, 12)
        if (y, m) == prev and rng.random() < 0.4:
            return "last month"
        return date(y, m, 1).strftime("%B" if y == self.today.year else "%B %Y")

    def vague(self, p: Param, template: str | None = None) -> str:
        """What a user says instead of a value they forgot to give ("my account", "money")."""
        if p.ref:
            owned = _owned(p.ref.table)
            n = noun(p.ref.table)
            names = self.voice.names(p.ref.table_name) if self.voice is not None else None
            if names is not None and names.called:
                return names.called  # "move my flight", not "move my segment"
            if self.voice is None:
                return f"{'my' if owned else 'the'} {n}"
            # "freeze my account", but "remove the payee from my payees" and "switch to the user"
            if owned and not (template and re.search(rf"\bmy {re.escape(n)}", template, flags=re.I)):
                return f"my {n}"
            return f"the {n}"  # "list the staff of the store": the user forgot which, the agent asks
        return "money" if self.voice is None else ""  # "pay Dana from my checking account"

    # -- referring to earlier outputs ------------------------------------------------------------
    def refer(
        self,
        value: str,
        table: str,
        producer: Step,
        same_turn: bool,
        created: bool,
        rng: random.Random,
        adjacent: bool = True,
    ) -> str | None:
        """A phrase for an id taken from ``producer``'s output, or None if only the id would be clear.

        "that account" only for the one id the previous request showed (``adjacent``); "the new payee" for one it
        created; "the reporter of that issue" for one it showed under a telling key; "the product
        whose brand is Acme" to pick one row out of a list."""
        n = noun(self.tables[table])
        found = producer.produced(self.ids).get(table, [])
        if found == [value] and not created and adjacent:
            return f"that {n}"
        if created and found == [value]:
            return f"the {n} I just created" if not same_turn and rng.random() < 0.5 else f"the new {n}"
        role = self._role(value, n, producer)
        if role is not None or self.voice is None:
            return role  # no "the product whose brand is Acme": a domain without words drops it
        rows = rows_with_id(producer.result, value)
        if rows is None:
            return None
        named = self.voice.name_row(table, rows[0], rows[1], _owned(self.tables[table]))
        return named[0] if named is not None else None

    def _role(self, value: str, n: str, producer: Step) -> str | None:
        result = producer.result
        if not isinstance(result, dict) or list(result.values()).count(value) != 1:
            return None
        key = next(k for k, v in result.items() if v == value)
        if key == "id":
            return None
        owner = noun(self.tables[producer.spec.returns]) if producer.spec.returns in self.tables else "result"
        role = human(key)
        if role.rsplit(" ", 1)[-1] in _NOT_NOUNS:
            return None  # "requested_by", "from": no one says "the requested by of that transfer"
        if role == n and owner == n:
            return f"that {n}"  # {"event": id} of the event just made: not "the event of that event"
        return f"the {n} of that {owner}" if role == n else f"the {role} of that {owner}"

    def said(self, step: Step, before: Sequence[Step]) -> dict[str, str]:
        """The words the user's request used for each argument, for an answer to say back: the
        speaker is "me"; a row the user called "that account" is named by its declared form where
        an earlier result shows it ("your savings account"); a flag or state by its words."""
        out: dict[str, str] = {}
        for p in step.spec.params:
            if p.name not in step.args:
                continue
            value, ref = step.args[p.name], step.refs.get(p.name)
            if ref is not None and ref.kind == "self":
                out[p.name] = "me"
            elif ref is not None and ref.phrase:
                quoted = self.voice is not None and p.ref is not None and self.voice.holds(p.ref.table_name)
                # a number the user quoted ("purchase order ROR-000205") is said back as they said it
                keep = quoted and isinstance(value, str) and value in ref.phrase
                better = self._named_in(p, value, before) if ref.kind == "flow" and not keep else None
                out[p.name] = better or ref.phrase
            elif ref is not None and ref.kind in ("name", "id") and isinstance(value, str):
                words = self.voice.value_words(step.spec, p.name, value) if self.voice is not None else None
                out[p.name] = (
                    words or value
                )  # "@jadams" as the user typed it, "fl oz" for floz, "the West team"
            elif self.voice is not None and (words := self.voice.value_words(step.spec, p.name, value)):
                out[p.name] = words
            elif isinstance(value, str) and _MONTH.fullmatch(value) and self.voice is not None:
                out[p.name] = month_words(value, self.voice.today)  # "May", not "2026-05"
            elif isinstance(value, str) and p.ref is None:
                out[p.name] = value
            elif isinstance(value, int | float) and not isinstance(value, bool) and p.ref is None:
                out[p.name] = number(value)  # "the last 10"
        return out

    def _named_in(self, p: Param, value: Any, before: Sequence[Step]) -> str | None:
        """A declared name for the row ``value`` from the latest earlier result that lists it."""
        if self.voice is None or p.ref is None or p.ref.path:
            return None
        table = p.ref.table_name
        mine = table in self.tables and _owned(self.tables[table])
        for s in reversed(before):
            rows = shown_row(s.result, value)
            if rows is not None:
                named = self.voice.name_row(table, rows[0], rows[1], mine)
                if named is not None:
                    return named[0]
        return None

    # -- sentences -------------------------------------------------------------------------------
    def sentence(
        self, step: Step, phrases: dict[str, str], rng: random.Random, level: str
    ) -> tuple[str, list[str]]:
        """One step as a sentence; ``phrases`` maps params to ready-made surfaces (refs, vague)."""
        spec, anchors = step.spec, []
        template = step.template or self._generic(spec, step.args)
        params = {p.name: p for p in spec.params}
        used = set(_SLOT.findall(template))
        pieces = _SLOT.split(template)
        out = []
        for k, piece in enumerate(pieces):
            if k % 2 == 0:
                out.append(piece)
                continue
            p = params[piece]
            if piece in phrases:
                out[-1], drop_det = _strip_noun(out[-1], p)
                phrase = phrases[piece]
                if not phrase:  # an amount left out: "change my budget", not "change my budget to"
                    out[-1] = re.sub(r"\b(?:to|of|by|for|at)\s*$", "", out[-1])
                    after = pieces[k + 1].lstrip() if k + 1 < len(pieces) else ""
                    if after[:1].lower() in tuple("aeiou"):  # "a {price} item": "an item"
                        out[-1] = re.sub(r"\b([Aa])(\s*)$", r"\1n\2", out[-1])
                ref = step.refs.get(piece)
                if ref is not None and ref.bare and out[-1].rstrip().lower().endswith("how many"):
                    phrase = ref.bare  # "how many Kestrel Green Tea", not "how many the product ..."
                out.append(phrase.split(" ", 1)[1] if drop_det and " " in phrase else phrase)
                if is_money(p) and k + 1 < len(pieces):  # "put {amount} dollars in": "put money in"
                    pieces[k + 1] = re.sub(r"^\s*(dollars|usd)\b", "", pieces[k + 1], flags=re.I)
                continue
            text = self.surface(
                spec, p, step.args.get(piece), rng, pieces[k + 1] if k + 1 < len(pieces) else ""
            )
            if stands_alone(text):  # "what do I have tomorrow", not "on tomorrow"; not "in last month"
                out[-1] = re.sub(r"\b(on|in|for the day of)\s+$", "", out[-1], flags=re.I)
            anchors.append(text)
            out.append(text)
        extras = []
        for name, value in step.args.items():
            if name in used or name in step.silent:
                continue
            text = phrases.get(name) or self.surface(spec, params[name], value, rng)
            if name not in phrases:
                anchors.append(text)
            extras.append(f"{human(name)}: {text}")
        body = re.sub(r"\s+([.,?!;])(?=\s|$)", r"\1", re.sub(r"\s{2,}", " ", "".join(out))).strip()
        end = "?" if body.endswith("?") else "."
        body = body.rstrip("?.! ")
        if extras:
            body += " (" + ", ".join(extras) + ")"
        # a sentence opening on a value ("notes.md is ...") keeps its case, but not on a phrase
        # ("the $66 offer from bwatkins ...": "The $66 offer ...")
        if pieces[0].strip() or re.match(r"(the|my|a|an|that|this|our|your) ", body):
            body = body[:1].upper() + body[1:]
        return body + end, anchors

    def _generic(self, spec: ToolSpec, args: dict[str, Any]) -> str:
        action = spec.description.split(".")[0].rstrip()
        slots = ", ".join(f"{human(n)} {{{n}}}" for n in args)
        return f"{action[:1].lower()}{action[1:]}" + (f": {slots}" if slots else "")

    def turn(
        self,
        sentences: Sequence[str],
        rng: random.Random,
        level: str,
        persona: Persona | None,
        who: str | None,
        acts: bool = True,
    ) -> str:
        """Join a turn's sentences, with the persona's opener, intro and closer on complete turns;
        ``who`` is the speaker as the lookups need them ("Ann Lee (ann@x.test)"), always said."""
        parts = []
        for k, s in enumerate(sentences):
            if k == 0:
                parts.append(s)
                continue
            conn = rng.choice(MINIMAL_CONNECTORS if level == "minimal" else CONNECTORS)
            parts.append(f"{conn} {_decapitalise(s)}")
        text = " ".join(parts)
        if persona is not None and level == "complete":
            intro = rng.choice(persona.intros).format(name=who) if who and persona.intros else ""
            opener = rng.choice(persona.openers) if rng.random() < OPENER_RATE else ""
            if intro.startswith(("Hi", "Hello")):
                opener = ""  # one greeting: not "Hey, hope you're well. Hi, it's ..."
            # "Let me know once it's done" closes a request to act, not a question
            closers = persona.closers if acts else [c for c in persona.closers if c not in ACTION_CLOSERS]
            closer = rng.choice(closers) if closers and rng.random() < OPENER_RATE else ""
            text = " ".join(x for x in (opener, intro, text, closer) if x)
        elif who:
            text = f"I'm {who}. {text}"
        return text

    def persona(self, rng: random.Random) -> Persona:
        return rng.choice(PERSONAS)


def _owned(table: Any) -> bool:
    """Rows that hang off another (accounts, cards) are "my ..." to the user; roots (customers) are not."""
    return bool(table.__table__.foreign_keys)


def _dates_said(text: str) -> str:
    """Stored days inside a value a user types, said as a person writes them ("April 12, 1990")."""
    return DATE_IN_TEXT.sub(
        lambda m: date(int(m.group(1)), int(m.group(2)), int(m.group(3))).strftime("%B %-d, %Y"), text
    )


def _and(words: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``: how people list a few things."""
    words = list(words)
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


_NOT_NOUNS = (
    "by",
    "from",
    "to",
    "for",
    "of",
    "at",
    "with",
    "on",
)  # the last word of a key that names no role
_MONTH = re.compile(r"\d{4}-(0[1-9]|1[0-2])")


def _decapitalise(sentence: str) -> str:
    """Lower-case a sentence's first letter unless it is "I", an acronym or a name ("Donna Drake
    approved it": two capitalised words)."""
    first, _, rest = sentence.partition(" ")
    if first in ("I", "I'd", "I'm", "I've", "I'll") or (len(first) > 1 and first[1].isupper()):
        return sentence
    if first[:1].isupper() and rest[:1].isupper() and not re.match(r"I\b", rest):
        return sentence  # "Donna Drake approved it", but "do I have ..." is no name
    if re.match(r"[\"'~/.]", first) or re.search(r"[/@\d]|\.\w", first):
        return sentence  # a path, a file name, a quote: the user's own spelling
    return sentence[:1].lower() + sentence[1:]


_DETERMINERS = ("my", "the", "this", "a", "our")
_PREPOSITIONS = ("to", "from", "for", "in", "on", "at", "with", "by", "of", "into")


def _strip_noun(before: str, p: Param) -> tuple[str, bool]:
    """Make room for a referring phrase in place of a slot.

    'close account {account}' + 'that account' -> 'close that account'; 'I lost my card {card}'
    -> 'I lost that card'. When a determiner and an adjective stay behind ('delete the saved
    payee {payee}'), the second value says the phrase should drop its own determiner.
    """
    words = [human(p.name)] if human(p.name) not in _PREPOSITIONS else []  # "forward it to {to}" keeps "to"
    if p.ref:
        words.append(noun(p.ref.table))
    words.sort(key=len, reverse=True)  # 'cart item' before 'item'
    stripped = before.rstrip()
    for w in words:
        if stripped.lower().endswith(" " + w) or stripped.lower() == w:
            stripped = stripped[: -len(w)].rstrip()
            break
    else:
        return before, False
    tail = stripped.split(" ")
    if tail and tail[-1].lower() in _DETERMINERS:
        return " ".join(tail[:-1]) + (" " if len(tail) > 1 else ""), False
    if len(tail) >= 2 and tail[-2].lower() in _DETERMINERS:
        return stripped + " ", True
    return stripped + " ", False


def shown_row(result: Any, value: str) -> tuple[dict, list[dict]] | None:
    """The row ``value`` as a result shows it, with the rows beside it: the result itself when it
    is that row, else a row of one of its lists."""
    if isinstance(result, dict) and result.get("id") == value:
        return result, [result]
    return rows_with_id(result, value)


def rows_with_id(result: Any, value: str) -> tuple[dict, list[dict]] | None:
    """The row with ``id == value`` inside a list of rows in ``result``, with its siblings."""
    if isinstance(result, dict):
        for v in result.values():
            found = rows_with_id(v, value)
            if found:
                return found
    elif isinstance(result, list):
        rows = [r for r in result if isinstance(r, dict)]
        for r in rows:
            if r.get("id") == value:
                return r, rows
        for r in rows:  # a subcategory listed inside its category's row
            found = rows_with_id(r, value)
            if found:
                return found
    return None
