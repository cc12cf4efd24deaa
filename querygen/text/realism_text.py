"""Sentence checks for realism: does a user turn or an answer read like a person wrote it?

A generated sentence goes wrong in a few recognisable ways: the generator's machinery shows
through (a tool name, a parameter's or a tool's description copied into the request, a
placeholder such as ``{amount}`` or ``None`` left unfilled), or a template was filled so that the
grammar breaks ("a the", "How many the ...", "the the", a space before a full stop). Each of
those is a pattern here; :func:`garbled` reports every sentence that shows one, with the
reasons, so a person can see why.

Also the token matcher the other detectors share: an id must match as a whole token, never
inside a longer id ("ACC-0001" is not in "ACC-00012").
"""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from contract.task import Task
from servers.kit import ToolSpec
from servers.kit.db import noun

# A token boundary: not inside a word, and not glued to one by "-", "/" or "." ("ACC-0001-x").
_LEFT = r"(?<!\w)(?<!\w[-/.])"
_RIGHT = r"(?!\w)(?![-/.]\w)"
MAX_SENTENCE = 240  # a finding quotes at most this much (an answer may quote a whole file)


@functools.lru_cache(maxsize=8192)
def token_pattern(value: str) -> re.Pattern[str]:
    """A case-insensitive whole-token pattern for ``value`` (inner whitespace may vary)."""
    body = r"\s+".join(re.escape(part) for part in value.split())
    return re.compile(_LEFT + body + _RIGHT, re.IGNORECASE)


def surfaces(value: Any) -> list[str]:
    """How a scalar value can be written in text: ``20.0`` is "20" or "20.00", ``"x"`` is "x"."""
    if value is None or isinstance(value, bool):
        return []
    if isinstance(value, float):
        plain = str(int(value)) if value.is_integer() else repr(value)
        return list(dict.fromkeys([plain, f"{value:.2f}"]))
    text = str(value).strip()
    if "_" in text and not text.startswith("_"):  # an enum value a sentence writes as words
        return [text, text.replace("_", " ")]
    return [text] if text else []


def mentions(text: str, value: Any) -> bool:
    """Whether ``text`` holds ``value`` as a whole token, case-insensitively.

    Most values asked about are not in the text at all; a plain substring test of the value's
    first word says so without compiling a pattern (a compile per new value was 3% of a run)."""
    low = text.lower()
    for s in surfaces(value):
        first = s.split(None, 1)[0].lower()
        if first in low and token_pattern(s).search(text):
            return True
    return False


# -- fixed shapes -----------------------------------------------------------------------------------
_DETERMINERS = r"(?:a|an|the)\s+(?:a|an|the|my|your|our|their)"
_SHAPES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("placeholder: brace", re.compile(r"[{}]")),
    ("placeholder: 'some money'", re.compile(r"\bsome money\b", re.IGNORECASE)),
    # "None of my cards work" is English, not a Python None left in a template.
    ("placeholder: literal", re.compile(r"(?<![\w/])(?:None(?! of\b)|null|undefined|N/A)(?![\w/])")),
    ("placeholder: markup", re.compile(r"<[A-Za-z/!][^<>]{0,80}>")),
    ("article before article", re.compile(rf"\b{_DETERMINERS}\b", re.IGNORECASE)),
    ("'How many the'", re.compile(r"\bhow many (?:the|a|an)\b", re.IGNORECASE)),
    ("'values are there among'", re.compile(r"\bvalues are there among\b", re.IGNORECASE)),
    # "that that" and "had had" are English; any other word twice in a row is a template seam.
    ("doubled word", re.compile(r"\b(?!(?:that|had)\b)(?P<word>[A-Za-z]+)\s+(?P=word)\b", re.IGNORECASE)),
    # " ." before a space or the end, not a dotfile (".ssh") or a decimal (".5").
    ("space before punctuation", re.compile(r"\s[.,](?=\s|$)")),
    ("empty parenthesis", re.compile(r"\(\s*\)")),
)
# All of them in one pattern: it matches exactly where one of them would, and almost no text has
# any, so one pass says so instead of ten.
_ANY_SHAPE = re.compile(
    "|".join(f"(?i:{p.pattern})" if p.flags & re.IGNORECASE else f"(?:{p.pattern})" for _, p in _SHAPES)
)


@dataclass(frozen=True)
class GarbleRules:
    """The domain-specific patterns of :func:`garbled`, built once per set of domains."""

    tool_names: frozenset[str]  # lowercased: qualified names and bare names with an underscore
    phrases: tuple[str, ...]  # lowercased parameter descriptions and their first clauses, >= 4 words
    tool_phrases: tuple[str, ...]  # lowercased sentences of tool descriptions, >= 4 words
    the_with: tuple[str, ...]  # lowercased "the <param> with" (and template seams) of value parameters


def _words(text: str) -> int:
    return len(text.split())


def _clean(text: str) -> str:
    return " ".join(text.split()).strip().rstrip(".").strip()


def _param_phrases(spec: ToolSpec) -> set[str]:
    """Each parameter description, and its first clause (up to ``:``, ``,``, ``;`` or ``(``),
    of 4 words or more: text no user would type."""
    out: set[str] = set()
    for p in spec.params:
        for text in (p.description, re.split(r"[:,;(]", p.description, maxsplit=1)[0]):
            if _words(_clean(text)) >= 4:
                out.add(_clean(text).lower())
    return out


def _tool_phrases(spec: ToolSpec) -> set[str]:
    """Each sentence of the tool's description of 4 words or more."""
    parts = (_clean(x) for x in re.split(r"(?<=[.!?])\s+|\n+", spec.description))
    return {x.lower() for x in parts if _words(x) >= 4}


def _slot_phrases(spec: ToolSpec, values: set[str]) -> set[str]:
    """A slot filled with "the <param>": "the <param> with" and "the <param> <the template's next
    word>" ("create a project {name} with key" -> "the name with", "{account_number} at" -> "the
    account number at"), for value parameters (``values``) only."""
    out = {f"the {_human(p)} with" for p in spec.params if p.name in values}
    for template in spec.says:
        for m in re.finditer(r"\{(\w+)\}\s+([A-Za-z]+)", template):
            if m.group(1) in values:
                out.add(f"the {m.group(1).removesuffix('_id').replace('_', ' ')} {m.group(2)}".lower())
    return out


def _human(p: Any) -> str:
    return str(p.name).removesuffix("_id").replace("_", " ").lower()


def garble_rules(specs: Mapping[str, ToolSpec], domains: Iterable[str]) -> GarbleRules:
    """The rules for a task of ``domains``: every tool of those domains, hidden ones included.

    "the <param> with" is left out where it is English: for entity parameters ("the customer
    with email x") and where a tool's own template says it ("find the lines with '{pattern}'")."""
    wanted = set(domains)
    mine = [s for s in specs.values() if s.domain in wanted]
    names = {s.qualified_name.lower() for s in mine} | {s.name.lower() for s in mine if "_" in s.name}
    entity_nouns = {noun(p.ref.table).lower() for s in mine for p in s.params if p.ref is not None}
    templates = " | ".join(t.lower() for s in mine for t in s.says)
    phrases: set[str] = set()
    tool_phrases: set[str] = set()
    slots: set[str] = set()
    for s in mine:
        phrases |= _param_phrases(s)
        tool_phrases |= _tool_phrases(s)
        values = {p.name for p in s.params if p.ref is None and _human(p) not in entity_nouns}
        slots |= {x for x in _slot_phrases(s, values) if x not in templates}
    return GarbleRules(
        frozenset(names), tuple(sorted(phrases)), tuple(sorted(tool_phrases)), tuple(sorted(slots))
    )


def _phrase_hits(
    low: str, phrases: Iterable[str], reason: str, *, copied: bool = False, words: set[str] | None = None
) -> list[tuple[int, str]]:
    """Where ``phrases`` occur as whole words. ``copied``: only where the text shows it was pasted
    from documentation, i.e. the phrase has clause punctuation (a person says "I can't remove a
    saved payee", not "..., or a whole directory tree with recursive") or a colon follows it (the
    "<description>: <param> <value>" shape of a request spelled out from a schema)."""
    hits = []
    by_word, always = _by_first_word(tuple(phrases))
    words = set(_WORD.findall(low)) if words is None else words
    picked = sorted([*(x for w in words for x in by_word.get(w, ())), *always])
    for _, phrase in picked:  # only phrases whose first word the text has, in their own order
        if phrase not in low:  # fast filter; the pattern then insists on whole words
            continue
        for m in token_pattern(phrase).finditer(low):
            if not copied or re.search(r"[:;,(]", phrase) or low[m.end() :].lstrip().startswith(":"):
                hits.append((m.start(), f"{reason}: {phrase}"))
                break
    return hits


_WORD = re.compile(r"\w+")


@functools.lru_cache(maxsize=64)
def _by_first_word(
    phrases: tuple[str, ...],
) -> tuple[dict[str, list[tuple[int, str]]], list[tuple[int, str]]]:
    """Phrases by their first word, where it is a plain word (a whole-word match of the phrase
    needs that word in the text), and the rest; each with its place in ``phrases``. A domain has
    hundreds of phrases and a text a few dozen words."""
    by_word: dict[str, list[tuple[int, str]]] = {}
    always: list[tuple[int, str]] = []
    for i, phrase in enumerate(phrases):
        first = phrase.split(None, 1)[0] if phrase.strip() else ""
        if _WORD.fullmatch(first):
            by_word.setdefault(first, []).append((i, phrase))
        else:
            always.append((i, phrase))
    return by_word, always


def _hits(text: str, rules: GarbleRules) -> list[tuple[int, str]]:
    """(position, reason) of every defect in one normalised text."""
    low = text.lower()
    hits = []
    if _ANY_SHAPE.search(text):
        hits = [(m.start(), reason) for reason, pat in _SHAPES for m in pat.finditer(text)]
    found = list(_WORD.finditer(low))
    hits += [(m.start(), f"tool name: {m.group()}") for m in found if m.group() in rules.tool_names]
    words = {m.group() for m in found}
    hits += _phrase_hits(low, rules.phrases, "parameter description", words=words)
    hits += _phrase_hits(low, rules.tool_phrases, "tool description", copied=True, words=words)
    hits += _phrase_hits(low, rules.the_with, "placeholder", words=words)
    return hits


def _sentence_starts(text: str) -> list[int]:
    return [0] + [m.end() for m in re.finditer(r"(?<=\S[.!?])\s+", text)]


def garbled_text(text: str, rules: GarbleRules) -> list[tuple[str, list[str]]]:
    """(sentence, reasons) for every sentence of ``text`` that shows a defect."""
    text = " ".join(text.split())
    starts = _sentence_starts(text)
    found: dict[int, list[str]] = {}
    for pos, reason in sorted(_hits(text, rules)):
        reasons = found.setdefault(bisect.bisect_right(starts, pos) - 1, [])
        if reason not in reasons:
            reasons.append(reason)
    out = []
    for i, reasons in sorted(found.items()):
        end = starts[i + 1] if i + 1 < len(starts) else len(text)
        out.append((text[starts[i] : end].strip(), reasons))
    return out


_FENCED = re.compile(r"```.*?(?:```|$)", re.S)  # a file's text quoted in an answer: data, not language


def garbled(
    task: Task, specs: Mapping[str, ToolSpec], rules: GarbleRules | None = None
) -> list[dict[str, Any]]:
    """Sentences of the user turns and the written answers that no person would write.

    Answers are the ones the generator wrote (``turn.answer``); the export's fallback summary of
    result values is data, not language, and is not judged here."""
    rules = rules or garble_rules(specs, task.domains)
    out: list[dict[str, Any]] = []
    for t, turn in enumerate(task.turns):
        for role, text in (("user", turn.user), ("assistant", turn.answer)):
            for sentence, reasons in garbled_text(_FENCED.sub(" ", text or ""), rules):
                shown = sentence if len(sentence) <= MAX_SENTENCE else sentence[: MAX_SENTENCE - 3] + "..."
                out.append({"turn": t, "role": role, "sentence": shown, "reasons": reasons})
    return out
