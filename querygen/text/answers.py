"""Reference answers: what a good assistant says after a turn's calls, in sentences.

A reference answer is read by people (the sample page, a researcher before training) and scored
by the reward (the outcome term looks for the facts of the turn's last call), so it must do both:
state the facts the user asked for, each with the name of what it is ("the balance is 1204.5"),
never a bare list of values; name the ids a later turn of the same conversation uses (the user can
only quote what they were shown); and say plainly when a lookup found nothing. Lookups the agent
made only to resolve the user's words ("my savings account") are not reported: the user did not
ask for them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from contract.task import result_facts

MAX_ROWS = 4  # rows of a list result described one by one
LAST_FACTS = 5  # labelled facts stated for the turn's last request
OTHER_FACTS = 2  # and for each earlier request of the turn
_SKIP_KEYS = ("id",)


@dataclass(frozen=True)
class Reported:
    """One call as the answer sees it: what it returned and how to name its rows."""

    result: Any
    noun: str  # "account": the kind of row the tool returns
    writes: bool
    created: bool  # the call made a new row (its id is news)
    ask: bool = True  # False for a lookup that only resolved the user's words
    changed: frozenset[str] = frozenset()  # columns the task changed on the returned row
    key: Any = None  # the returned row's id when the result names it otherwise ({"vehicle": ...})
    told: str | None = None  # the domain's declared answer for this call, when it has one


def _norm(key: str) -> str:
    return key.removesuffix("_id")


def _label(key: str) -> str:
    return key.removesuffix("_id").replace("_", " ")


def _plain(value: Any) -> str:
    if isinstance(value, str):
        if re.fullmatch(r"[a-z]+(?:_[a-z]+)+", value):
            return value.replace("_", " ")  # a stored code ("transfer_out"), said in words
        return value.rstrip(". ")
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else f"{value:.2f}".rstrip("0").rstrip(".")
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _labelled(row: Mapping[str, Any], wanted: set[Any], limit: int) -> list[str]:
    """``col value`` pairs of a row for the facts in ``wanted`` (casefolded strings / floats).

    A fact already shown is not shown again ("total 0, offset 0" states one fact, not two), so
    the ``limit`` pairs state as many of the facts a reader, and the outcome term, looks for."""
    out: list[str] = []
    shown: set[Any] = set()
    for key, value in row.items():
        if len(out) >= limit or key in _SKIP_KEYS or isinstance(value, dict | list) or value is None:
            continue
        if isinstance(value, int) and value in (0, 1) and _flag(key):
            continue  # a SQLite flag ("verified 1") says nothing a person would read
        fact = float(value) if isinstance(value, int | float) and not isinstance(value, bool) else value
        fact = fact.casefold() if isinstance(fact, str) else fact
        if fact in wanted and fact not in shown:
            shown.add(fact)
            out.append(_pair(key, value))
    return out


def _pair(key: str, value: Any) -> str:
    label, shown = _label(key), _plain(value)
    return label if label.casefold() == shown.casefold() else f"{label} {shown}"


_FLAGS = ("active", "verified", "enabled", "default", "archived", "deleted", "locked", "blocked", "online")


def _flag(key: str) -> bool:
    return key.startswith(("is_", "has_", "can_")) or key in _FLAGS


def _and(parts: Sequence[str]) -> str:
    parts = list(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else "".join(parts)


def _plural(noun: str) -> str:
    if noun.endswith("y") and not noun.endswith(("ay", "ey", "oy")):
        return noun[:-1] + "ies"
    return noun + ("es" if noun.endswith(("s", "x", "ch", "sh")) else "s")


def _facts(result: Any, given: list[dict[str, Any]], limit: int) -> set[Any]:
    facts = result_facts([result], given)[:limit]
    return {f.casefold() if isinstance(f, str) else f for f in facts}


def _row_words(row: Mapping[str, Any], noun: str, wanted: set[Any], limit: int) -> str:
    pairs = _labelled(row, wanted, limit)
    name = f"{noun} {row['id']}" if "id" in row else noun
    return f"{name} ({', '.join(pairs)})" if pairs else name


def _rows_sentence(rows: list[Any], r: Reported, wanted: set[Any], must: set[str], limit: int) -> str:
    if not rows:
        return f"There are no {_plural(r.noun)} to show."
    dicts = [x for x in rows if isinstance(x, dict)]
    if len(dicts) != len(rows):  # a list of plain values
        shown = [_plain(x) for x in rows[:8]]
        return f"I found {len(rows)}: {_and(shown)}."
    picked = dicts[:MAX_ROWS] + [d for d in dicts[MAX_ROWS:] if str(d.get("id")) in must]
    per_row = max(1, limit // max(1, len(picked))) + 1
    described = [_row_words(d, r.noun, wanted, per_row) for d in picked]
    head = f"I found {len(rows)} {r.noun if len(rows) == 1 else _plural(r.noun)}"
    more = f", and {len(dicts) - len(picked)} more" if len(dicts) > len(picked) else ""
    return f"{head}: {'; '.join(described)}{more}."


def _changes(row: Mapping[str, Any], changed: frozenset[str]) -> list[str]:
    """What a write did to the row, in its own words: "status frozen", "no assignee"."""
    out = []
    for key, value in row.items():
        if _norm(key) not in changed or key in _SKIP_KEYS or isinstance(value, dict | list):
            continue
        out.append(f"no {_label(key)}" if value is None or value == "" else _pair(key, value))
    return out


def _row_sentence(row: Mapping[str, Any], r: Reported, wanted: set[Any], limit: int) -> str:
    nested = [(k, v) for k, v in row.items() if isinstance(v, list)]
    pairs = _labelled(row, wanted, limit)
    if r.writes and not r.created:
        pairs = _changes(row, r.changed) or pairs[:2]
    key = row.get("id", r.key)
    subject = f"the {r.noun} {key}" if key is not None else f"the {r.noun}"
    if r.created:
        text = f"I created {subject}" + (f" with {_and(pairs)}" if pairs else "")
    elif r.writes:
        text = f"Done: {subject} now has {_and(pairs)}" if pairs else f"Done: {subject} is updated"
    else:
        text = f"{subject[:1].upper()}{subject[1:]} has {_and(pairs)}" if pairs else f"I found {subject}"
    extra = ""
    for key, rows in nested[:1]:
        dicts = [x for x in rows if isinstance(x, dict)]
        what = _label(key)
        if dicts:
            inner = [_row_words(d, _singular(what), wanted, 2) for d in dicts[:MAX_ROWS]]
            more = "" if len(rows) <= MAX_ROWS else f", and {len(rows) - MAX_ROWS} more"
            extra = f" {what[:1].upper()}{what[1:]} ({len(rows)}): {'; '.join(inner)}{more}."
        elif not rows:
            extra = f" It has no {what}."
    return text + "." + extra


def _singular(noun: str) -> str:
    if noun.endswith("ies"):
        return noun[:-3] + "y"
    return noun[:-1] if noun.endswith("s") and not noun.endswith("ss") else noun


def _sentence(r: Reported, given: list[dict[str, Any]], must: set[str], limit: int) -> str:
    wanted = _facts(r.result, given, limit * 3)
    result = r.result
    if result is None:
        return "Done." if r.writes else "There is nothing to show."
    if isinstance(result, list):
        return _rows_sentence(result, r, wanted, must, limit)
    if isinstance(result, dict):
        lists = [(k, v) for k, v in result.items() if isinstance(v, list)]
        if "id" not in result and r.key is None and len(lists) == 1:  # {"accounts": [...], "count": 3}
            key, rows = lists[0]
            page = Reported(r.result, _singular(_label(key)), r.writes, r.created, r.ask, r.changed)
            text = _rows_sentence(rows, page, wanted, must, limit)
            totals = _labelled({k: v for k, v in result.items() if k != key}, wanted, 3)
            return f"{text[:-1]} ({', '.join(totals)})." if totals else text
        return _row_sentence(result, r, wanted, limit)
    return f"The answer is {_plain(result)}."


def answer(calls: Sequence[Reported], given: list[dict[str, Any]], must: set[str]) -> str:
    """The turn's answer: one sentence per request, the last one (what the reward checks) fullest.

    ``given`` are all the task's gold arguments (facts the user already stated are not news);
    ``must`` are ids a later user turn quotes: each is named somewhere in the answer."""
    asked = [r for r in calls if r.ask] or list(calls[-1:])
    if not asked:
        return "Done."
    parts = [r.told or _sentence(r, given, must, OTHER_FACTS) for r in asked[:-1]]
    parts.append(asked[-1].told or _sentence(asked[-1], given, must, LAST_FACTS))
    return ("\n\n" if any("```" in p for p in parts) else " ").join(parts)
