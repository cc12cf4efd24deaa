"""The outcome term (beyond the paper): did the calls leave the world the way gold left it?

Write tasks: the replayed diff is compared with ``task.expected_diff`` cell by cell, where a cell
is (domain, table, primary key, column) -> new value. Precision and recall over changed cells give
an F1; rows touched outside the gold diff ("collateral") cost ``collateral_penalty`` times their
number relative to the gold rows (capped at 1):

    outcome = F1(P, R) - collateral_penalty * min(1, collateral_rows / max(1, gold_rows))

Inserted rows get their ids from the database (the next free id), so the same rows inserted in
another order get other ids. Inserted rows are therefore matched by content, not by id: within a
(domain, table), each expected row is paired with the unpaired actual row sharing most cells, and
any value that is the id of a row inserted in the same diff (its own id, or a reference such as an
entry's ``transfer_id``) is compared as "some new row" rather than by its literal id. An unpaired
actual inserted row is collateral; a paired row with wrong cells only loses those cells. Updates
and deletes of existing rows keep their real keys. Any path reaching the gold cells scores 1.

Read-only tasks (empty expected diff): the final answer must carry the facts the gold calls
returned — scalar values from the result of the final turn's last gold call (the final answer
answers the last request), except values the gold arguments already contain (the model could echo
them from the question); ``contract.task.result_facts`` defines them for both packages. When the
task's reference answer states some of them, those are the facts asked for (the balance, not the
account's kind and status beside it), and only they count. Full credit for
``answer_facts`` (default 3) of them, or all when there are fewer; numbers match in any common
formatting (``1,234.5`` = ``1234.50``), a stored day in words too (``2026-06-04`` = "June 4"), strings
case-insensitively. Writing anything on a read-only
task is collateral.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from contract.task import result_facts, states_day, states_number, written_numbers
from rewards.config import RewardConfig
from rewards.tasks import PreparedTask
from rewards.values import cell_equal

_NEW = "\x00<new row>"


@dataclass(slots=True)
class Canon:
    """A diff in comparable form."""

    updates: dict[tuple[str, str, str, str], tuple[str, Any]] = field(default_factory=dict)
    update_rows: set[tuple[str, str, str]] = field(default_factory=set)
    inserts: dict[tuple[str, str], list[dict[str, Any]]] = field(default_factory=dict)

    @property
    def cells(self) -> int:
        return len(self.updates) + sum(len(r) for rows in self.inserts.values() for r in rows)

    @property
    def rows(self) -> int:
        return len(self.update_rows) + sum(len(rows) for rows in self.inserts.values())


Row = tuple[str, str, str]  # (domain, table, primary key as the diff writes it)


def plain_rows(
    cells: list[dict[str, Any]] | tuple[dict[str, Any], ...],
) -> tuple[dict[Row, dict[str, tuple[str, Any]]], dict[Row, dict[str, Any]]]:
    """A cell diff grouped by row: updated or deleted rows (column -> (op, new value)) and inserted
    rows (column -> new value), with the id of any row inserted in the same diff read as "a new row"."""
    inserted: dict[Row, dict[str, Any]] = {}
    for c in cells:
        if c.get("op") == "insert":
            inserted.setdefault((c.get("domain", ""), c["table"], str(c["pk"])), {})[c["column"]] = c.get(
                "new"
            )
    new_ids = {(d, pk) for d, _, pk in inserted}

    def plain(domain: str, value: Any) -> Any:
        return _NEW if isinstance(value, str) and (domain, value) in new_ids else value

    updated: dict[Row, dict[str, tuple[str, Any]]] = {}
    for c in cells:
        if c.get("op") == "insert":
            continue
        d = c.get("domain", "")
        row = updated.setdefault((d, c["table"], str(c["pk"])), {})
        row[c["column"]] = (c.get("op", "update"), plain(d, c.get("new")))
    plain_inserted = {
        (d, t, pk): {col: _NEW if str(v) == pk else plain(d, v) for col, v in row.items()}
        for (d, t, pk), row in inserted.items()
    }
    return updated, plain_inserted


def canonical(cells: list[dict[str, Any]] | tuple[dict[str, Any], ...]) -> Canon:
    """Split a cell diff into keyed updates/deletes and id-free inserted rows."""
    canon = Canon()
    updated, inserted = plain_rows(cells)
    for (d, t, pk), row in updated.items():
        canon.update_rows.add((d, t, pk))
        for col, value in row.items():
            canon.updates[(d, t, pk, col)] = value
    for (d, t, _), row in inserted.items():
        canon.inserts.setdefault((d, t), []).append(row)
    return canon


def _row_hits(a: dict[str, Any], b: dict[str, Any]) -> int:
    return sum(1 for col, v in a.items() if col in b and cell_equal(b[col], v))


def compare(expected: Canon, actual: Canon) -> dict[str, Any]:
    """Cell precision/recall and collateral rows of ``actual`` against ``expected``."""
    matched = 0
    for key, (op, new) in expected.updates.items():
        got = actual.updates.get(key)
        if got is not None and got[0] == op and cell_equal(got[1], new):
            matched += 1
    unpaired = 0
    for dt, rows in actual.inserts.items():
        free = list(rows)
        for want in expected.inserts.get(dt, ()):
            best, best_hits = -1, 0
            for i, row in enumerate(free):
                hits = _row_hits(want, row)
                if hits > best_hits:
                    best, best_hits = i, hits
            if best >= 0:
                matched += best_hits
                free.pop(best)
        unpaired += len(free)
    collateral = len(actual.update_rows - expected.update_rows) + unpaired
    exp_cells, act_cells = expected.cells, actual.cells
    recall = matched / exp_cells if exp_cells else 1.0
    precision = matched / act_cells if act_cells else (1.0 if not exp_cells else 0.0)
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {
        "precision": precision,
        "recall": recall,
        "f1": f1,
        "matched_cells": matched,
        "expected_cells": exp_cells,
        "actual_cells": act_cells,
        "collateral_rows": collateral,
        "gold_rows": expected.rows,
    }


def expected_canon(task: PreparedTask) -> Canon:
    canon = task.cache.get("expected_canon")
    if canon is None:
        canon = task.cache["expected_canon"] = canonical(task.expected_diff)
    return canon


# -- read-only tasks: facts in the answer ----------------------------------------------


def _words(text: str) -> str:
    """Casefolded, with stored codes read as words: "gift_card" and "gift card" are one fact."""
    return text.casefold().replace("_", " ")


def gold_facts(results: list[Any], gold_args: list[dict[str, Any]]) -> list[Any]:
    """Scalar facts from gold results, minus values the gold arguments already state (casefolded)."""
    return [f.casefold() if isinstance(f, str) else f for f in result_facts(results, gold_args)]


def asked_facts(facts: list[Any], reference: str | None) -> list[Any]:
    """The facts the reference answer states, when it states any: an assistant is asked for a
    balance, not for the account's status and kind beside it (all the facts otherwise)."""
    if not reference:
        return facts
    text, numbers = _words(reference), written_numbers(reference)
    stated = [f for f in facts if _stated(f, text, numbers)]
    return stated or facts


def _stated(fact: Any, text: str, numbers: list[tuple[float, int]]) -> bool:
    """A fact in an answer: a number in any common writing, a day in words or as stored, a string."""
    if isinstance(fact, float):
        return states_number(fact, numbers) or (fact == 0 and _NONE.search(text) is not None)
    return _words(fact) in text or states_day(fact, text)


_NONE = re.compile(r"\b(?:nothing|none|no|empty|zero)\b")  # "There's nothing in your cart" states a 0


def facts_score(facts: list[Any], answer: str | None, needed: int) -> tuple[float, int]:
    """Fraction of the needed facts found in the answer (and how many were found)."""
    if not answer:
        return 0.0, 0
    if not facts:
        return 1.0, 0
    text = _words(answer)
    numbers = written_numbers(answer)
    need = min(needed, len(facts))
    found = 0
    for fact in facts:
        found += _stated(fact, text, numbers)
        if found >= need:
            break
    return min(1.0, found / need), found


def outcome_term(
    task: PreparedTask,
    diff: list[dict[str, Any]],
    answer: str | None,
    gold_results: list[Any],
    cfg: RewardConfig,
) -> tuple[float, dict[str, Any]]:
    """The outcome value and its explanation, for a write or a read-only task."""
    actual = canonical(diff)
    if task.writes:
        cmp = compare(expected_canon(task), actual)
        penalty = cfg.collateral_penalty * min(1.0, cmp["collateral_rows"] / max(1, cmp["gold_rows"]))
        return cmp["f1"] - penalty, {"kind": "state", **cmp, "penalty": penalty}
    facts = task.cache.get("facts")
    if facts is None:
        # What the user asked last: the final answer reports the last call of the final turn (none
        # when that turn makes no call: a refused request's answer is the refusal, judged by policy).
        # Only a call the user asked for is a request: a lookup that resolves their words ("resolve")
        # or a read a policy rule asks for ("check") is the agent's own look, and a turn whose
        # request was refused has none (tasks without recorded roles count every call as asked).
        final = task.final_turn if task.final_turn is not None else task.gold[-1].turn
        roles = task.roles or ("ask",) * len(task.gold)
        last = [i for i, g in enumerate(task.gold) if g.turn == final and roles[i] == "ask"][-1:]
        facts = task.cache["facts"] = asked_facts(
            gold_facts([gold_results[i] for i in last], [task.gold[i].args for i in range(len(task.gold))]),
            task.reference_answer,
        )
    value, found = facts_score(facts, answer, cfg.answer_facts)
    collateral = actual.rows
    penalty = cfg.collateral_penalty * min(1.0, collateral)
    return value - penalty, {
        "kind": "answer",
        "facts": len(facts),
        "facts_found": found,
        "collateral_rows": collateral,
        "penalty": penalty,
    }
