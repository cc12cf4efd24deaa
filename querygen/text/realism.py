"""Realism detectors: what makes a generated task read unlike a person and an agent at work.

Each detector is a pure function of a finished :class:`~contract.task.Task` (plus the tool specs
where it needs schemas or descriptions) and returns its findings, small JSON-ready dicts that say
where and what, so the report can count them and show examples. They define "realistic":

* :func:`leaks` - the user already says a value the agent is supposed to discover;
* :func:`unseen_ids` - the user quotes an id that only ever appeared in a tool result;
* :func:`ambiguous` - "my checking account" when the lookup shows two of them;
* :func:`~querygen.text.realism_text.garbled` - sentences with machinery or broken grammar in them;
* :func:`invalid_values` - gold arguments outside their schema, or dates no calendar has;
* :func:`coherence` - calls that have nothing to do with what came before;
* :func:`reference_kinds` - how entities are referred to (raw ids versus natural references).

Metadata the generator may not have written (older tasks) counts as "nothing recorded": a
detector never fails on a missing key, it just has nothing to check.
"""

from __future__ import annotations

import functools
import json
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from datetime import date, datetime
from typing import Any

import jsonschema

from contract.messages import messages
from contract.task import Task
from querygen.plan.seen import path_in_view
from querygen.text.realism_text import GarbleRules, garble_rules, garbled, mentions
from servers.kit import ToolSpec
from servers.registry import UnknownDomain, get_domain

ID_RE = re.compile(r"\b[A-Z][A-Z0-9]{1,7}-\d{3,}\b")
_DATE_RE = re.compile(r"(?<![0-9])[0-9]{4}-[0-9]{2}-[0-9]{2}(?:T[0-9]{2}:[0-9]{2}(?::[0-9]{2})?)?(?![0-9])")
DEFECTS = ("leaks", "unseen_ids", "ambiguous", "garbled", "invalid_values")
MAX_EXAMPLES = 5


# -- shared views of a task -------------------------------------------------------------------------
def call_turns(task: Task) -> list[int]:
    """The turn index of each gold call (indexed like ``task.gold_calls()``)."""
    return [t for t, turn in enumerate(task.turns) for _ in turn.calls]


def visible_answers(task: Task) -> list[str]:
    """The assistant's final message of each turn as the conversation shows it: the written
    answer, or (older tasks) the summary the export writes in its place."""
    shown = [
        m["content"] for m in messages(task) if m["role"] == "assistant" and m.get("content") is not None
    ]
    if len(shown) != len(task.turns):  # not one closing message per turn: trust only what is written
        return [turn.answer or "" for turn in task.turns]
    return [str(s) for s in shown]


def _elements(value: Any) -> list[Any]:
    return list(value) if isinstance(value, list | tuple) else [value]


def _leaves(value: Any) -> Iterable[Any]:
    if isinstance(value, dict):
        for v in value.values():
            yield from _leaves(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from _leaves(v)
    elif value is not None:
        yield value


def _key(value: Any) -> Any:
    """One comparable form: numbers as floats, strings casefolded."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float):
        return float(value)
    text = str(value).strip()
    try:
        return float(text)
    except ValueError:
        return text.casefold()


def _references(task: Task) -> list[dict[str, Any]]:
    refs = task.metadata.get("references")
    return [r for r in refs if isinstance(r, dict)] if isinstance(refs, list) else []


# -- 1. leaks ---------------------------------------------------------------------------------------
def leaks(task: Task) -> list[dict[str, Any]]:
    """Dataflow edges whose value the user had already said by the discovering call's turn.

    If the user wrote CUS-000124 the agent has nothing to discover: the earlier lookup is then
    busywork and the dependency the task claims to test does not exist."""
    calls, turns = task.gold_calls(), call_turns(task)
    out = []
    for edge in task.metadata.get("dataflow") or []:
        try:
            i, j, param = int(edge["from"]), int(edge["to"]), str(edge["param"])
        except (KeyError, TypeError, ValueError):
            continue
        if not (0 <= i < len(calls) and 0 <= j < len(calls)) or param not in calls[j].arguments:
            continue
        said = " \n ".join(turn.user for turn in task.turns[: turns[i] + 1])
        for value in _elements(calls[j].arguments[param]):
            if mentions(said, value):
                out.append({"from": i, "to": j, "param": param, "value": value, "turn": turns[i]})
    return out


# -- 2. ids the user cannot know -------------------------------------------------------------------
def unseen_ids(task: Task) -> list[dict[str, Any]]:
    """Ids the user quotes in a turn that earlier turns showed only inside tool results.

    The user sees the assistant's answers, never the raw results: an id that was never in a
    visible message is one the user could not have known."""
    names = {
        str(r["target"])
        for r in _references(task)
        if r.get("kind") == "name" and isinstance(r.get("target"), str)
    }
    answers = visible_answers(task)
    out = []
    results = ""
    for t, turn in enumerate(task.turns):
        if t:
            seen = " \n ".join([u.user for u in task.turns[:t]] + answers[:t])
            said = set(ID_RE.findall(turn.user)) | {n for n in names if mentions(turn.user, n)}
            for value in sorted(said):
                if mentions(results, value) and not mentions(seen, value):
                    out.append({"turn": t, "id": value})
        results += " \n " + " \n ".join(json.dumps(c.result, ensure_ascii=False) for c in turn.calls)
    return out


# -- 3. ambiguous references ------------------------------------------------------------------------
def _rows_with(value: Any, column: str) -> Iterable[dict[str, Any]]:
    if isinstance(value, dict):
        if column in value:
            yield value
        for v in value.values():
            yield from _rows_with(v, column)
    elif isinstance(value, list):
        for v in value:
            yield from _rows_with(v, column)


def _row_is(row: dict[str, Any], target: Any) -> bool:
    if "id" in row and _key(row["id"]) == _key(target):
        return True
    if "id" in row and not any(k.endswith("_id") and _key(v) == _key(target) for k, v in row.items()):
        return False  # (a nested row may carry its own key beside the id it shows: a link's link_id)
    return any(_key(v) == _key(target) for v in row.values() if not isinstance(v, dict | list))


def _ambiguity(task: Task, ref: dict[str, Any]) -> list[str]:
    """Why one attribute reference does not single out its row (empty: it does)."""
    calls, turns = task.gold_calls(), call_turns(task)
    try:
        j, i = int(ref["call"]), int(ref["resolver"])
        column, value = str(ref["column"]), ref["value"]
    except (KeyError, TypeError, ValueError):
        return ["incomplete record (call, resolver, column, value)"]
    if not (0 <= i < len(calls) and 0 <= j < len(calls)):
        return ["resolver or call out of range"]
    columns = ref.get("columns") if isinstance(ref.get("columns"), dict) else {column: value}
    rows = [
        r
        for r in _rows_with(calls[i].result, next(iter(columns), column))
        if all(_key(r.get(c)) == _key(v) for c, v in columns.items())
    ]
    why = []
    if len(rows) != 1:
        why.append(f"{len(rows)} rows of call {i}'s result have {columns}")
    elif not _row_is(rows[0], ref.get("target")):
        why.append(f"the row with {column} = {value} is {rows[0].get('id')}, not {ref.get('target')}")
    said = " \n ".join(turn.user for turn in task.turns[: turns[j] + 1])
    if not mentions(said, value):
        why.append(f"the user never says {value!r}")
    return why


def ambiguous(task: Task) -> list[dict[str, Any]]:
    """Attribute references that do not name exactly one row the user described."""
    out = []
    for ref in _references(task):
        if ref.get("kind") == "attribute" and (why := _ambiguity(task, ref)):
            out.append(
                {
                    "call": ref.get("call"),
                    "param": ref.get("param"),
                    "target": ref.get("target"),
                    "reasons": why,
                }
            )
    return out


# -- 5. invalid values ------------------------------------------------------------------------------
def _bad_dates(value: Any) -> list[str]:
    """Date-shaped strings that name no real day or time (2309-35-65, 2026-02-30, 25:00)."""
    out = []
    for leaf in _leaves(value):
        for m in _DATE_RE.finditer(leaf) if isinstance(leaf, str) else ():
            try:
                (datetime.fromisoformat if "T" in m.group() else date.fromisoformat)(m.group())
            except ValueError:
                out.append(f"{m.group()} is not a real date")
    return out


@functools.lru_cache(maxsize=4096)
def _validator(schema_json: str) -> jsonschema.protocols.Validator:
    return jsonschema.Draft202012Validator(json.loads(schema_json))


def _schema_errors(schema: dict[str, Any], value: Any) -> list[str]:
    validator = _validator(json.dumps(schema, sort_keys=True))
    return [e.message for e in validator.iter_errors(value)]


def invalid_values(task: Task, specs: Mapping[str, ToolSpec]) -> list[dict[str, Any]]:
    """Gold arguments outside their parameter's JSON schema (type, enum, pattern, bounds,
    lengths, items), missing required ones, and dates that do not exist. Tools the specs do
    not know are skipped: there is nothing to check them against."""
    out = []
    for j, call in enumerate(task.gold_calls()):
        spec = specs.get(call.name)
        if spec is None:
            continue
        schema = spec.input_schema()
        props = schema["properties"]
        for name in schema["required"]:
            if name not in call.arguments:
                out.append(
                    {"call": j, "tool": call.name, "param": name, "errors": ["missing required argument"]}
                )
        for name, value in call.arguments.items():
            errors = _schema_errors(props[name], value) if name in props else ["not a parameter of the tool"]
            errors += _bad_dates(value)
            if errors:
                out.append({"call": j, "tool": call.name, "param": name, "value": value, "errors": errors})
    return out


# -- 6. coherence -----------------------------------------------------------------------------------
def _entity_values(task: Task, j: int, refs: list[dict[str, Any]] | None) -> list[Any]:
    args = task.gold_calls()[j].arguments
    if refs is not None:  # the row's key and the argument that names it (a path names a node)
        mine = [r for r in refs if r.get("call") == j]
        return [
            v for r in mine for v in _elements(r.get("target")) + _elements(args.get(str(r.get("param"))))
        ]
    return [m for leaf in _leaves(args) if isinstance(leaf, str) for m in ID_RE.findall(leaf)]


def coherence(task: Task) -> tuple[int, int]:
    """(coherent steps, steps) over the gold calls after the first.

    A step is coherent when it works on something the task already touched: one of its entity
    values was in an earlier call's arguments or result, or is the acting user; a call with no
    entity argument is coherent by default; a path is when the user can name it without a lookup
    (``refer.path_in_view``: a name in the current folder, or under a folder already shown). Two
    unrelated customers in one task are not."""
    calls = task.gold_calls()
    refs = _references(task) if "references" in task.metadata else None
    actor = task.metadata.get("actor")
    actor_id = _key(actor["id"]) if isinstance(actor, dict) and actor.get("id") is not None else None
    seen: set[Any] = set()
    shown: set[str] = set()
    coherent = 0
    for j, call in enumerate(calls):
        if j:
            values = {_key(v) for v in _entity_values(task, j, refs) if v is not None}
            paths = [
                call.arguments.get(str(r.get("param")))
                for r in refs or []
                if r.get("call") == j and r.get("kind") == "path"
            ]
            first = not any(r.get("kind") == "path" and r.get("call", j) < j for r in refs or [])
            in_view = bool(paths) and (first or all(path_in_view(x, shown) for x in paths))
            coherent += not values or bool(values & seen) or actor_id in values or in_view
        seen |= {_key(v) for v in _leaves([call.arguments, call.result])}
        shown |= {v for v in _leaves([call.arguments, call.result]) if isinstance(v, str)}
    return coherent, max(0, len(calls) - 1)


# -- 7. reference kinds -----------------------------------------------------------------------------
def reference_kinds(task: Task) -> Counter[str]:
    """How the task's entity arguments are referred to: id, attribute, flow, self, name, path."""
    return Counter(str(r.get("kind")) for r in _references(task))


def natural_share(tasks: Iterable[Task]) -> float | None:
    """Share of references that are not raw ids, over tasks whose user says everything
    (``info_level`` complete); None when those tasks record no references."""
    kinds: Counter[str] = Counter()
    for t in tasks:
        if t.metadata.get("info_level") == "complete":
            kinds += reference_kinds(t)
    total = sum(kinds.values())
    return (total - kinds["id"]) / total if total else None


# -- 8. everything ----------------------------------------------------------------------------------
def task_figures(
    task: Task, specs: Mapping[str, ToolSpec], rules: GarbleRules | None = None
) -> dict[str, Any]:
    """Every detector's findings for one task (what the samples page shows next to it)."""
    return {
        "leaks": leaks(task),
        "unseen_ids": unseen_ids(task),
        "ambiguous": ambiguous(task),
        "garbled": garbled(task, specs, rules),
        "invalid_values": invalid_values(task, specs),
        "coherence": coherence(task),
    }


def measure(tasks: Sequence[Task], specs: Mapping[str, ToolSpec]) -> dict[str, Any]:
    """All realism figures over a dataset, with up to five examples of each defect."""
    counts: Counter[str] = Counter()
    affected: Counter[str] = Counter()
    examples: dict[str, list[dict[str, Any]]] = {d: [] for d in DEFECTS}
    rules: dict[tuple[str, ...], GarbleRules] = {}
    coherent = steps = dropped = 0
    for task in tasks:
        key = tuple(sorted(task.domains))
        if key not in rules:
            rules[key] = garble_rules(specs, key)
        figures = task_figures(task, specs, rules[key])
        for d in DEFECTS:
            counts[d] += len(figures[d])
            affected[d] += bool(figures[d])
            room = MAX_EXAMPLES - len(examples[d])
            examples[d] += [{"task": task.id, "finding": f} for f in figures[d][: max(0, room)]]
        coherent += figures["coherence"][0]
        steps += figures["coherence"][1]
        necessity = task.metadata.get("necessity")
        if isinstance(necessity, dict) and isinstance(necessity.get("dropped"), int):
            dropped += necessity["dropped"]
    complete = [t for t in tasks if t.metadata.get("info_level") == "complete"]
    kinds: Counter[str] = sum((reference_kinds(t) for t in complete), Counter())
    return {
        "tasks": len(tasks),
        **{d: counts[d] for d in DEFECTS},
        "tasks_with": {d: affected[d] for d in DEFECTS},
        "coherent_steps": coherent,
        "steps": steps,
        "coherence": coherent / steps if steps else None,
        "reference_kinds": dict(sorted(kinds.items())),
        "natural_share": natural_share(complete),
        "necessity_dropped": dropped,
        "examples": examples,
    }


def specs_for(domains: Iterable[str]) -> dict[str, ToolSpec]:
    """Every tool (hidden ones included) of the named domains the registry knows, by qualified
    name, like ``Environment.tools``; domains this checkout does not have are skipped."""
    out: dict[str, ToolSpec] = {}
    for name in dict.fromkeys(domains):
        try:
            domain = get_domain(name)
        except UnknownDomain:
            continue
        out.update({s.qualified_name: s for s in domain.tools.values()})
    return out
