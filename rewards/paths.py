"""Any right path: the call matching of the ``prove+paths`` preset (not in the paper).

The paper matches a predicted call to a gold call by name and argument keys, so a trainer that
scores with it teaches the model the generator's path: a model that read the reservation to see
its passengers, where the gold filtered the passenger records by name, or added four to the cart
at once, where the gold added one and then set the quantity, scores below gold although a careful
agent would be glad of either. With ``paths`` on, two more things count, and nothing else moves:

* **A lookup is matched by any read that found the same thing.** A gold call whose role is
  ``resolve`` (made only to find what the user named; the generator records roles and dataflow)
  is matched by an unused predicted call that changed nothing, succeeded on replay, came before
  the call that used the value, and whose replayed result shows a value that a later gold call
  took from the lookup (the passenger's id). It counts as covered, its arguments as right, and
  its name as a gold name.
* **Writes that reach the expected state are the gold's writes.** When the replayed state equals
  the expected one (the outcome term is 1: every expected cell, no collateral row), a gold write
  left unmatched counts as covered with its arguments right: ``add_to_cart(quantity=4)`` stands
  for ``add_to_cart`` + ``update_cart_item``. A longer path still pays the efficiency term.

What stays: a failed call loses validity, calls past the budget cost efficiency, a wrong tool or a
wrong value reaches neither rule (a wrong write leaves another state; a read that did not show the
value matches no lookup), and extra calls only add to the count the terms divide by. Both rules
need a replay, so a task without a snapshot is scored exactly as under ``prove``.
"""

from __future__ import annotations

from typing import Any

from rewards.parse import PredCall
from rewards.replay import ReplayResult
from rewards.tasks import PreparedTask
from rewards.terms import Explanation

Pair = tuple[int, int, bool, float]


def path_terms(
    task: PreparedTask,
    calls: list[PredCall],
    components: dict[str, Any],
    raw: Explanation,
    replay: ReplayResult,
    reached: bool,
    order_by_step: bool = False,
) -> dict[str, Any]:
    """Coverage, name precision and argument matching again with both rules; the explanation of
    what they credited. ``reached``: the replayed state is the expected one."""
    n, n_gt = raw[0], raw[1]
    pairs = _found(task, replay, _unpair_wrong_lookups(task, replay, raw[5]))
    extra = _lookups(task, calls, replay, pairs)
    matched = {g for g, _, _, _ in pairs} | {g for g, _, _, _ in extra}
    credited = [g for g in sorted(_gold_writes(task)) if g not in matched] if reached else []
    every = _in_order(task, calls, [*pairs, *extra], step=order_by_step)
    covered = sum(ok for _, _, ok, _ in every) + len(credited)
    fracs = [f for _, _, _, f in every] + [1.0] * len(credited)
    named = {p for _, p, _, _ in extra}
    names = task.gold_names
    components["coverage"] = covered / n_gt
    components["arg"] = sum(fracs) / len(fracs) if fracs else 0.0
    components["name"] = sum(c.name in names or p in named for p, c in enumerate(calls)) / n if n else 0.0
    return {
        "lookups_matched": [{"gold": g, "pred": p} for g, p, _, _ in extra],
        "writes_credited": credited,
        "state_reached": reached,
    }


def _found(task: PreparedTask, replay: ReplayResult, pairs: list[Pair]) -> list[Pair]:
    """The pairs with a lookup matched by its own tool but other arguments (a search by email where
    the gold searched by name) given full argument credit when its result showed what was used."""
    resolved = _resolved(task)
    out = []
    for g, p, ok, frac in pairs:
        uses = resolved.get(g)
        if uses and frac < 1.0 and _read(replay, p) and any(_shows(replay.values[p], v) for _, v in uses):
            frac = 1.0
        out.append((g, p, ok, frac))
    return out


def _unpair_wrong_lookups(task: PreparedTask, replay: ReplayResult, pairs: list[Pair]) -> list[Pair]:
    """Drop a lookup's match by name that did not find what was used: the paper's alignment gives
    a gold search for one meeting the model's search for another (same tool, other words), which
    leaves the right read unmatched. Freed, each can be matched by what it really found."""
    resolved = _resolved(task)
    return [
        (g, p, ok, frac)
        for g, p, ok, frac in pairs
        if frac >= 1.0 or g not in resolved or any(_shows(replay.values[p], v) for _, v in resolved[g])
    ]


def _read(replay: ReplayResult, p: int) -> bool:
    """The call succeeded on replay and changed nothing."""
    return bool(replay.status[p]) and not replay.touched[p]


def _lookups(
    task: PreparedTask, calls: list[PredCall], replay: ReplayResult, pairs: list[Pair]
) -> list[Pair]:
    """Unmatched gold lookups, each matched by the first free read whose result showed a value a
    later gold call took from it, before the call that matched that later gold call."""
    matched = {g: p for g, p, _, _ in pairs}
    used = set(matched.values())
    out: list[Pair] = []
    for g, uses in _resolved(task).items():
        if g in matched:
            continue
        before = min((matched[j] for j, _ in uses if j in matched), default=len(calls))
        for p in range(before):
            if p in used or not _read(replay, p):
                continue
            if any(_shows(replay.values[p], value) for _, value in uses):
                out.append((g, p, True, 1.0))
                used.add(p)
                break
    return out


def _in_order(task: PreparedTask, calls: list[PredCall], pairs: list[Pair], step: bool) -> list[Pair]:
    """The pairs with Eq. 1's order judged again now that a lookup may be matched by another read:
    a call whose prerequisite lookup was unmatched was out of order; it is in order when every
    prerequisite is now matched before it."""
    rank = [c.step for c in calls] if step else list(range(1, len(calls) + 1))
    at = {g: p for g, p, _, _ in pairs}
    out = []
    for g, p, ok, frac in pairs:
        if not ok:
            pre = task.prereqs[g]
            ok = all(j in at and rank[at[j]] < rank[p] for j in pre) and bool(pre)
        out.append((g, p, ok, frac))
    return out


def _resolved(task: PreparedTask) -> dict[int, list[tuple[int, Any]]]:
    """For each gold lookup: (later gold call, value it took from the lookup)."""
    got = task.cache.get("paths_resolved")
    if got is None:
        got = {}
        if task.roles:
            for i, j, param in task.flows:
                value = task.gold[j].args.get(param)
                if (
                    task.roles[i] == "resolve"
                    and isinstance(value, str | int)
                    and not isinstance(value, bool)
                ):
                    got.setdefault(i, []).append((j, value))
        task.cache["paths_resolved"] = got
    return got


def _gold_writes(task: PreparedTask) -> frozenset[int]:
    """Gold calls whose tool changes state (read from the domains' own tool declarations)."""
    got = task.cache.get("paths_writes")
    if got is None:
        from servers.registry import UnknownDomain, get_domain

        writes: set[str] = set()
        for name in task.domains:
            try:
                domain = get_domain(name)
            except UnknownDomain:
                continue
            writes.update(spec.qualified_name for spec in domain.visible_tools() if spec.writes)
        got = task.cache["paths_writes"] = frozenset(i for i, g in enumerate(task.gold) if g.name in writes)
    return got


def _shows(result: Any, value: Any) -> bool:
    """``value`` appears somewhere in a result (a row's id in a list of rows, a nested field)."""
    if isinstance(result, dict):
        return any(_shows(v, value) for v in result.values())
    if isinstance(result, list):
        return any(_shows(v, value) for v in result)
    return result == value and type(result) is type(value)
