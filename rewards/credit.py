"""Per-call credit labels: which predicted calls earned the reward and which cost it.

Why: every term of the reward is a sum over the whole trajectory, so a trainer that wants to
credit or blame single actions (SCRIBE's and CAST's action-level supervision) cannot recover from
the total which call was the wrong one. The labels name it, one per predicted call in emission
order, from facts the reward already has: validity levels, the gold alignment, the efficiency
budget, and (when the calls were replayed on the task's snapshot) the rows each call touched first.

The first label that applies wins:

1. ``invalid`` — validity level below 3: unknown tool, arguments that are not an object or do not
   fit the schema, or an execution that failed (or that nothing observed, with
   ``exec_unknown="fail"``).
2. ``harmful`` — a successful write that first touched a row whose final state is not the one the
   expected diff has, unless the call is aligned to a gold call with every argument value right.
   Rows are (domain, table, pk); updated and deleted rows compare their cells (column -> op, new
   value) by key, inserted rows by content (their ids come from the database, as in the outcome
   term). A row belongs to the first call that touched it (``state.changelog.touched_since``), so
   a later call that rewrites a row an earlier call touched is not blamed for it.
3. ``matched`` / ``out_of_order`` — aligned to gold call ``gold`` with its dependency order kept
   or broken (the coverage term's o(g)); ``arg_match`` is the alignment's value fraction.
4. ``redundant`` — not aligned, and a repeat of an earlier call (same name, JSON-equal arguments)
   or at a 0-based position at or past the efficiency budget B. Abstention tasks have no budget
   (B = 0 would make every call redundant), so only repeats are redundant there.
5. ``unneeded`` — anything else: a valid call the gold does not make.

Without a replay (no snapshot, ``replay="never"``) harm cannot be established: no call is
``harmful`` and the details say ``harm_checked: false``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rewards.config import RewardConfig
from rewards.outcome import Row, plain_rows
from rewards.parse import PredCall
from rewards.replay import ReplayResult
from rewards.schemas import ToolSchema, json_type_ok
from rewards.tasks import PreparedTask
from rewards.values import cell_equal, json_equal

LABELS = ("invalid", "harmful", "matched", "out_of_order", "redundant", "unneeded")

Pair = tuple[int, int, bool, float]  # (gold index, call index, order ok, argument-value fraction)


def credit_details(
    task: PreparedTask,
    calls: Sequence[PredCall],
    status: Sequence[bool | None],
    pairs: Sequence[Pair],
    budget: int | None,
    cfg: RewardConfig,
    replay: ReplayResult | None,
    why_unchecked: str | None = None,
) -> dict[str, Any]:
    """``{"calls", "label_counts", "harm_checked"}`` (+ ``"harm_note"`` when harm was not checked).

    Level 3 reads ``status`` (the trajectory's tool results), else the replay's, else
    ``exec_unknown``. ``budget`` None turns the budget rule off (abstention).
    """
    harm = None
    if replay is not None:
        status = [s if s is not None else r for s, r in zip(status, replay.status, strict=True)]
        harm = unexpected_rows(task, replay.diff, replay.touched)
    labels = label_calls(task, calls, status, pairs, budget, harm, cfg)
    counts = dict.fromkeys(LABELS, 0)
    for entry in labels:
        counts[entry["label"]] += 1
    out: dict[str, Any] = {"calls": labels, "label_counts": counts, "harm_checked": harm is not None}
    if harm is None:
        out["harm_note"] = why_unchecked or "the calls were not replayed, so harm is not checked"
    return out


def label_calls(
    task: PreparedTask,
    calls: Sequence[PredCall],
    status: Sequence[bool | None],
    pairs: Sequence[Pair],
    budget: int | None,
    harm: Sequence[Sequence[Row]] | None,
    cfg: RewardConfig,
) -> list[dict[str, Any]]:
    """One ``{"index", "name", "label", "gold", "arg_match", "reason"}`` per call, in emission order."""
    aligned = {p: (g, ok, frac) for g, p, ok, frac in pairs}
    position = {g: p for g, p, _, _ in pairs}
    assume = cfg.exec_unknown == "pass"
    earlier: dict[Any, list[Any]] = {}
    out = []
    for i, call in enumerate(calls):
        g, ok, frac = aligned.get(i, (None, None, None))
        same = earlier.setdefault((call.name, _bucket(call.args)), [])
        repeat = any(json_equal(call.args, a) for a in same)
        same.append(call.args)
        problem = invalid_reason(task.schemas.get(call.name), call, status[i], assume)
        bad_rows = harm[i] if harm is not None else ()
        if problem:
            label, reason = "invalid", problem
        elif bad_rows and not (g is not None and frac == 1.0):
            label, reason = "harmful", f"first changed {_rows_text(bad_rows)} away from the expected state"
            if g is not None:
                reason += f" (aligned to gold call {g} with argument values {frac:.2f})"
        elif g is not None:
            label = "matched" if ok else "out_of_order"
            reason = f"aligned to gold call {g}, argument values {frac:.2f}"
            if not ok:
                reason += "; " + _order_problem(task, calls, g, i, position, cfg)
        elif repeat:
            label, reason = "redundant", "repeats an earlier call with the same name and arguments"
        elif budget is not None and i >= budget:
            label, reason = "redundant", f"past the budget of {budget} calls (position {i})"
        else:
            label = "unneeded"
            reason = "the task needs no tool call" if task.abstain else "aligned to no gold call"
        out.append(
            {"index": i, "name": call.name, "label": label, "gold": g, "arg_match": frac, "reason": reason}
        )
    return out


def _bucket(args: dict[str, Any] | None) -> frozenset[tuple[str, Any]] | None:
    """A key that JSON-equal arguments always share, so repeats are found without comparing every
    pair (a model may send thousands of calls): numbers by hash (10 and 10.0 agree), bools apart."""
    if args is None:
        return None
    return frozenset((k, _coarse(v)) for k, v in args.items())


def _coarse(v: Any) -> tuple[Any, ...]:
    if v is True or v is False:
        return ("b", v)
    if isinstance(v, int | float):
        return ("n", hash(v))
    if isinstance(v, str):
        return ("s", v)
    return ("z",) if v is None else ("x",)  # nested values: compared in full within the bucket


def invalid_reason(schema: ToolSchema | None, call: PredCall, ran: bool | None, assume: bool) -> str | None:
    """Why the call is below validity level 3, or None when it passes all three levels."""
    if schema is None:
        return f"unknown tool {call.name!r}"
    if call.args is None:
        return "arguments are not a JSON object"
    problem = _schema_problem(schema, call.args)
    if problem:
        return problem
    if ran is False:
        return "execution failed"
    if ran is None and not assume:
        return "execution not observed (exec_unknown='fail')"
    return None


def _schema_problem(schema: ToolSchema, args: dict[str, Any]) -> str | None:
    """What :meth:`ToolSchema.check` refuses, in words."""
    missing = [k for k in schema.required if k not in args]
    if missing:
        return "missing required argument(s) " + ", ".join(map(repr, missing))
    for key, value in args.items():
        if key not in schema.props:
            if schema.closed:
                return f"undeclared argument {key!r}"
            continue
        types = schema.props[key]
        if types is None or (value is None and key not in schema.required):
            continue
        if not json_type_ok(value, types):
            return f"argument {key!r} is not of type {'/'.join(sorted(types))}"
    return None


def _order_problem(
    task: PreparedTask, calls: Sequence[PredCall], g: int, p: int, position: dict[int, int], cfg: RewardConfig
) -> str:
    """Which prerequisite of gold call ``g`` breaks the order of call ``p``."""
    step = cfg.order_by == "step"
    rank = calls[p].step if step else p
    for j in task.prereqs[g]:
        pj = position.get(j)
        if pj is None:
            if cfg.prereq_unmatched == "fail":
                return f"its prerequisite, gold call {j}, is never matched"
        elif (calls[pj].step if step else pj) >= rank:
            where = "step" if step else "position"
            return f"its prerequisite, gold call {j}, is matched by call {pj}, not at an earlier {where}"
    return "its dependency order is broken"


def unexpected_rows(
    task: PreparedTask, diff: list[dict[str, Any]], touched: Sequence[Sequence[Row]]
) -> list[list[Row]]:
    """Per call, the rows it touched first whose final state differs from the expected diff's."""
    expected = task.cache.get("expected_rows")
    if expected is None:
        expected = task.cache["expected_rows"] = plain_rows(task.expected_diff)
    want_updated, want_inserted = expected
    updated, inserted = plain_rows(diff)
    good_inserts = _inserts_as_expected(want_inserted, inserted)
    out = []
    for rows in touched:
        bad = []
        for row in rows:
            if row in inserted:
                wrong = row not in good_inserts
            else:
                wrong = not _same_cells(updated.get(row), want_updated.get(row))
            if wrong:
                bad.append(row)
        out.append(bad)
    return out


def _inserts_as_expected(want: dict[Row, dict[str, Any]], got: dict[Row, dict[str, Any]]) -> set[Row]:
    """Inserted rows paired, one to one, with an expected inserted row of the same table and cells."""
    free: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for (d, t, _), cells in want.items():
        free.setdefault((d, t), []).append(cells)
    good = set()
    for row, cells in got.items():
        candidates = free.get(row[:2], [])
        for k, expected in enumerate(candidates):
            if _same_cells(cells, expected):
                good.add(row)
                candidates.pop(k)
                break
    return good


def _same_cells(a: dict[str, Any] | None, b: dict[str, Any] | None) -> bool:
    """Both rows unchanged, or the same columns with equal values (ops included when present)."""
    if a is None or b is None:
        return a is b
    if a.keys() != b.keys():
        return False
    for col, x in a.items():
        y = b[col]
        if isinstance(x, tuple):  # (op, new value) of an updated or deleted row
            if x[0] != y[0] or not cell_equal(x[1], y[1]):
                return False
        elif not cell_equal(x, y):
            return False
    return True


def _rows_text(rows: Sequence[Row], limit: int = 3) -> str:
    shown = ", ".join(f"{d}.{t}[{pk}]" for d, t, pk in rows[:limit])
    more = f" and {len(rows) - limit} more" if len(rows) > limit else ""
    return f"row{'s' if len(rows) > 1 else ''} {shown}{more}"
