"""The text of the five domains that declare their language, read by machine over 2,000 tasks.

These checks describe the text; they are not what keeps bad text out (the declarations make it right,
and the generator drops only what they cannot say, counted per reason in ``stats.json``). Each check
names the task and the words that break it, so a failure reads as a reading note.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest

from contract.task import Task
from querygen.generate import GenConfig, Generator
from querygen.text.phrasing import PERSONAS
from servers.kit import marks
from servers.registry import get_domain
from tests.test_language_kit import FIVE, NINE, SEVEN

# the domains that declare their language, in the groups their issues wrote them in, and a seed
GROUPS = {"pattern": (FIVE, 4), "issue31": (SEVEN, 4), "issue32": (NINE, 4)}  # domains, seed
N = 2000
_ISO = re.compile(r"(?<![\w/.~-])\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?)?(?![\w/.-])")
_FENCED = re.compile(r"```.*?(?:```|$)", re.S)
_PAGING = re.compile(r"\b(?:total|offset|limit|next_offset|has_more)\s*[:=]?\s*\d", re.I)
# the kit's generic record tools: an agent's lookups, which no user of these domains asks for
DISCOVERY = ("list_records", "search_records", "get_unique_values")
# result keys that are words of a sentence before their value ("unpacked into Downloads", "it repeats
# every week"), not column labels
VERBS = frozenset(
    {"into", "to", "from", "repeats", "copied", "moved", "removed", "created", "deleted", "reply within"}
)
MAX_SHARE = 0.03  # of tasks one opener or closer may appear in


@pytest.fixture(scope="module", params=sorted(GROUPS))
def group(request: pytest.FixtureRequest, snapshot_cache) -> tuple[tuple[str, ...], list[Task]]:
    """(the group's domains, 2,000 tasks of them)."""
    domains, seed = GROUPS[request.param]
    return domains, Generator(GenConfig(domains=domains, n=N, seed=seed), cache=snapshot_cache).run()[0]


@pytest.fixture
def tasks(group) -> list[Task]:
    return group[1]


def _internal_ids(domain: str) -> re.Pattern[str] | None:
    """Ids of the tables whose ids no person holds, as the domain declares them."""
    d = get_domain(domain)
    prefixes = [
        marks(t).prefix
        for t in d.tables
        if marks(t).prefix
        and (
            d.language.tables.get(t.__tablename__) is None or d.language.tables[t.__tablename__].held is None
        )
    ]
    alternatives = "|".join(prefixes)
    return re.compile(rf"\b(?:{alternatives})-\d{{3,}}\b") if prefixes else None


def _held_ids(domain: str) -> re.Pattern[str]:
    """Ids a person holds (order numbers), as the domain declares them."""
    d = get_domain(domain)
    held = [
        marks(t).prefix
        for t in d.tables
        if marks(t).prefix and getattr(d.language.tables.get(t.__tablename__), "held", None)
    ]
    return re.compile(rf"\b(?:{'|'.join(held)})-\d{{3,}}\b" if held else r"(?!)")


def _prose(text: str) -> str:
    return _FENCED.sub(" ", text or "")


def _problems(tasks: list[Task], check: Any) -> list[str]:
    out = []
    for task in tasks:
        for t, turn in enumerate(task.turns):
            found = check(task, turn)
            if found:
                out.append(f"{task.id} turn {t}: {found}")
    return out


def test_the_run_has_the_size_asked_and_every_tool(group):
    domains, tasks = group
    assert len(tasks) == N
    called = {c.name for task in tasks for c in task.gold_calls()}
    missing = [
        f"{d}_{name}"
        for d in domains
        for name, spec in get_domain(d).tools.items()
        if not spec.hidden and name not in DISCOVERY and f"{d}_{name}" not in called
    ]
    assert not missing, missing


def test_no_user_says_whose_column_is(tasks):
    bad = _problems(tasks, lambda task, turn: re.search(r"\bwhose \w+(?: \w+)? is\b", turn.user))
    assert not bad, bad[:10]


def test_no_iso_timestamp_in_user_words(tasks):
    bad = _problems(tasks, lambda task, turn: _ISO.findall(turn.user))
    assert not bad, bad[:10]


def test_no_internal_id_in_user_words(tasks):
    patterns = {d: _internal_ids(d) for d in {t.domains[0] for t in tasks}}

    def check(task: Task, turn: Any) -> list[str]:
        pattern = patterns[task.domains[0]]
        return pattern.findall(turn.user) if pattern else []

    bad = _problems(tasks, check)
    assert not bad, bad[:10]


def test_no_answer_plants_an_id_for_later(tasks):
    bad = _problems(tasks, lambda task, turn: "For reference" in (turn.answer or ""))
    assert not bad, bad[:10]


def test_answers_carry_no_paging_fields_internal_ids_or_iso_times(tasks):
    patterns = {d: _internal_ids(d) for d in {t.domains[0] for t in tasks}}

    def check(task: Task, turn: Any) -> list[str]:
        text = _prose(turn.answer)
        said = " ".join(t.user for t in task.turns)
        pattern = patterns[task.domains[0]]
        internal = [i for i in (pattern.findall(text) if pattern else []) if i not in said]
        return _PAGING.findall(text) + _ISO.findall(text) + internal

    bad = _problems(tasks, check)
    assert not bad, bad[:10]


def _glued(task: Task, turn: Any) -> list[str]:
    """ "balance 3753.77", "status open": a result's column label glued to its value."""
    text = _prose(turn.answer).casefold()
    held = _held_ids(task.domains[0])
    out = []
    for call in turn.calls:
        rows = [call.result] if isinstance(call.result, dict) else []
        for row in rows:
            for key, value in row.items():
                if isinstance(value, dict | list | bool) or value in (None, "") or len(key) < 3:
                    continue
                label = key.removesuffix("_id").replace("_", " ")
                shown = str(value).casefold()
                if "/" in shown or shown.startswith("*") or held.search(str(value)) or label in VERBS:
                    continue  # "order ORD-000117", "copied notes/a.md": a noun or a verb before its value
                glued = rf"(?<!the )(?<!its )(?<!your )\b{re.escape(label.casefold())} {re.escape(shown)}"
                if label.casefold() != shown and re.search(
                    glued, text
                ):  # "the permissions -rw-r--r--" is fine
                    out.append(f"{label} {shown}")
    return out


def test_answers_glue_no_column_label_to_a_value(tasks):
    bad = _problems(tasks, _glued)
    assert not bad, bad[:10]


def test_no_opener_or_closer_in_more_than_three_percent_of_tasks(tasks):
    phrases = {p for persona in PERSONAS for p in (*persona.openers, *persona.closers) if p}
    seen: Counter[str] = Counter()
    for task in tasks:
        words = " ".join(t.user for t in task.turns)
        seen.update(p for p in phrases if p in words)
    worst = seen.most_common(3)
    assert worst and worst[0][1] <= MAX_SHARE * len(tasks), worst


def _filter_words(task: Task, turn: Any) -> list[str]:
    """Declared words of a flag or state said in a turn whose call (one the user asked for, not the
    agent's own lookup) passes another value."""
    d = get_domain(task.domains[0])
    said = turn.user.casefold()
    out = []
    roles = dict(zip([id(c) for c in task.gold_calls()], task.metadata.get("roles") or [], strict=False))
    asked = [c for c in turn.calls if roles.get(id(c), "ask") == "ask"]
    passed = set()  # the words of every value the turn's requests pass, whichever tool takes them
    for call in asked:
        declared = d.language.tools.get(call.name.removeprefix(f"{d.name}_"))
        for param, words in (declared.words if declared is not None else {}).items():
            given = call.arguments.get(param)
            for value in given if isinstance(given, list) else [given]:  # a list: each element's words
                if value in words:
                    passed.add(words[value].casefold())
    for call in asked:
        name = call.name.removeprefix(f"{d.name}_")
        declared = d.language.tools.get(name)
        if declared is None:
            continue
        for param, words in declared.words.items():
            given = call.arguments.get(param)
            chosen = given if isinstance(given, list) else [given]
            for value, phrase in words.items():
                phrase_cf = phrase.casefold()
                if len(phrase_cf) < 6 or value in chosen:
                    continue
                if any(phrase_cf in words.get(g, "").casefold() for g in chosen):
                    continue
                typed = [v.casefold() for c in asked for v in c.arguments.values() if isinstance(v, str)]
                if any(phrase_cf in p or p in phrase_cf for p in passed) or any(
                    phrase_cf in v for v in typed
                ):
                    continue  # the words of a value another request of the turn passes
                if any(phrase_cf.removesuffix("d").removesuffix("e") in c.name for c in asked):
                    continue  # the action of another request ("I want it canceled": cancel_order)
                if re.search(r"(?<!\w)" + re.escape(phrase_cf) + r"(?!\w)", said):
                    out.append(
                        f"{call.name}: says {phrase!r} ({param}={value!r}) but passes {param}={given!r}"
                    )
    return out


def test_every_filter_word_said_is_the_argument_passed(tasks):
    bad = _problems(tasks, _filter_words)
    assert not bad, bad[:10]


@pytest.mark.parametrize("name", sorted(GROUPS))
def test_drafts_dropped_by_the_text_stage_are_counted_and_few(snapshot_cache, name):
    """The generator reports how many drafts each text reason dropped; none drops a large share."""
    gen = Generator(GenConfig(domains=GROUPS[name][0], n=300, seed=5), cache=snapshot_cache)
    stats = gen.run()[1].as_dict()
    rejected = stats["rejected"]
    for reason in ("unsaid", "planted", "undo", "repeat"):
        assert reason in rejected
        assert rejected[reason] <= 0.15 * stats["attempts"], (reason, rejected[reason], stats["attempts"])
