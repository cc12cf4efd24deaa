"""A written policy's refusal, said the way the conversation says things.

A rule explains a breach in its own terms ("patient PAT-001430 is a minor", "booked at
2026-05-31T09:59:00", "reason airline_cancelled"): good for a log, not for a caller. In a domain
that declares its language, the reference answer says the rows the calls showed by their declared
names ("the in-person visit on Monday, June 1 at 10:10 am"), leaves out an id nobody could know,
keeps one a person holds (a booking code), says days in words and stored codes as words.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from querygen.plan.step import Step
from querygen.text.render import shown_row
from querygen.text.voice import Voice

_INTERNAL_ID = re.compile(r"\b[A-Z]{2,4}-\d{6}\b")
_UNNAMED = "\x00"  # an id no one can say: left out with its parentheses
_NAMED = "\x01"  # a declared name: the table's noun just before it goes ("appointment the visit on ...")
_RULE = " Our policy (rule "


def in_our_words(
    text: str, voice: Voice, table_of: Callable[[str], str | None], steps: Sequence[Step]
) -> str:
    """``text`` (a refusal: the breach, then the rule) with the breach said in words."""
    why, sep, rule = text.partition(_RULE)
    why = _INTERNAL_ID.sub(
        lambda m: _name(m.group(), voice, table_of(m.group()), steps), voice.days_in_words(why)
    )
    why = re.sub(rf"\s*\({_UNNAMED}(?:, [^)]*)?\)|\({_UNNAMED}\)|{_UNNAMED},? ?", "", why)
    why = re.sub(rf"\b[a-z]+ {_NAMED}((?:the|my|your) )", r"\1", why).replace(_NAMED, "")
    # amounts as people write them: "50.00" -> "$50", "53.50" -> "$53.50" (these rules state only money so)
    why = re.sub(
        r"(?<![\w.$])(\d+)\.(\d\d)(?![\d%])", lambda m: f"${m[1]}" if m[2] == "00" else f"${m[1]}.{m[2]}", why
    )
    # stored codes as words ("airline_cancelled", "basic_economy"), never inside a path or a file name
    why = re.sub(r"(?<!\S)([a-z]+(?:_[a-z]+)+)(?=[,;.)]?(?:\s|$))", lambda m: m[1].replace("_", " "), why)
    # a noun left without its id: "user is a regular member" -> "the user is ..."
    why = re.sub(
        r"\b(user|patient|customer|member|provider|reservation) (?=[,:;)]|is |has |was |\.)", r"the \1 ", why
    )
    return f"{why.strip()}{sep}{rule}" if sep else why.strip()


def _name(key: str, voice: Voice, table: str | None, steps: Sequence[Step]) -> str:
    """How the answer says the row ``key``: kept when people hold it, its declared name when a call
    showed it, else nothing."""
    if table is None or voice.holds(table):
        return key
    for s in steps:
        found = shown_row(s.result, key)
        named = voice.name_row(table, found[0], [found[0]], mine=False) if found is not None else None
        if named is not None:
            return _NAMED + named[0]
    return _UNNAMED
