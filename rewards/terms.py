"""The paper's reward terms (PROVE §3.3, Eqs. 1-5) and the alignment behind them.

Notation: G the gold calls (flattened over turns), C the predicted calls in emission order,
N = |C|, n_gt = |G|.

* Validity: per call, three equal levels — (1) the name is in the candidate schema, (2) the
  arguments are an object with every required key and compatible JSON types (``schemas.py``),
  (3) execution succeeded. Averaged over all N calls.
* Coverage (Eq. 1): (1/|G|) sum_g m(g) o(g). A predicted call matches g only with g's name and
  all of g's argument keys; o(g) = prod over edges (j, g) of [mu(j) < mu(g)], mu = matched position.
* Efficiency (Eq. 2): -alpha * max(0, N - B) / B with B = n_gt + ceil(beta n_gt); every
  call counts, parallel ones and invalid ones included.
* Name precision (Eq. 3): |{c : c.name in names(G)}| / N.
* Argument values (Eq. 4): mean over aligned pairs of the fraction of g's keys whose values match.

Decisions on the points the paper leaves open (also in ``docs/reward.md``):

1. Validity levels are gated by default (a level counts only if those below it pass), matching
   the paper's "~0.33 right name, wrong parameters / ~0.66 failed execution"; ``validity_mode=
   "independent"`` counts each level on its own.
2. Level 3: a result the trajectory marks as failed fails; one that reads as a success (or is
   missing) is judged by replay on the task's snapshot (``exec_check="trajectory"`` takes it as
   written); with neither (a minimal task and a bare call list) it is credited exactly when
   levels 1-2 pass (``exec_unknown="pass"``) so the term stays on the paper's 0-1 scale;
   ``"fail"`` withholds it.
3. Alignment is one-to-one and greedy: gold calls in topological order each take the unused
   matching call that (a) keeps its dependency order, then (b) has the most matching argument
   values, then (c) comes first. It is deterministic and gives gold itself a perfect alignment.
4. A prerequisite that is unmatched breaks the order of its dependents (o(g) = 0), since the
   dependent cannot have used an output that never existed (``prereq_unmatched="pass"`` ignores it).
5. Order in Eq. 1 compares positions in the output sequence, as the paper defines mu, so parallel
   calls are ordered by where they appear; ``order_by="step"`` compares assistant messages
   instead, so a dependent emitted in the same message as its prerequisite (before its result
   could be seen) is out of order.
6. No calls on a tool task: validity, coverage, name precision and argument matching are 0,
   efficiency 0 (nothing over budget) — total 0, like a wrong abstention.
7. Empty alignment (M empty): R_arg = 0, so argument credit is never given without a match.
   A gold call without arguments contributes 1 to R_arg once matched.
8. Abstention (G empty, including clarify tasks whose turns carry no gold calls): the total is
   ``abstain_reward`` (1.0) for no call and 0 otherwise; the five terms are reported as 0. A
   clarify task with gold calls in later turns is a tool task over all of them (no judge reads
   the clarifying question). Multi-turn gold calls are flattened in turn order.
9. Argument values are compared exactly (JSON equality: 10 == 10.0, case-sensitive strings);
   ``arg_normalize=True`` applies the normalisation in ``values.py``.
10. R_eff is unbounded below as in the paper; ``efficiency_clip`` (e.g. -1) bounds it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from rewards.config import RewardConfig
from rewards.parse import PredCall
from rewards.tasks import PreparedTask
from rewards.values import json_equal, loose_equal

_SCALARS = (str, int, float, bool)


def validity(
    task: PreparedTask, calls: list[PredCall], status: list[bool | None], cfg: RewardConfig
) -> tuple[float, list[int]]:
    """Mean graduated validity and each call's level count (0-3) under the configured mode."""
    schemas = task.schemas
    gated = cfg.validity_mode == "gated"
    assume = cfg.exec_unknown == "pass"
    levels = []
    total = 0
    for call, ran in zip(calls, status, strict=True):
        schema = schemas.get(call.name)
        l1 = schema is not None
        l2 = l1 and call.args is not None and schema.check(call.args)  # type: ignore[union-attr]
        l3 = (l1 and l2 and assume) if ran is None else ran
        n = (0 if not l1 else 1 if not l2 else 2 if not l3 else 3) if gated else l1 + l2 + l3
        levels.append(n)
        total += n
    return (total / (3 * len(calls)) if calls else 0.0), levels


def align(task: PreparedTask, calls: list[PredCall], cfg: RewardConfig) -> list[tuple[int, int, bool, float]]:
    """Greedy one-to-one alignment: (gold index, call index, order ok, argument-value fraction).

    Calls whose arguments are not an object never match.
    """
    by_name: dict[str, list[int]] = {}
    for p, c in enumerate(calls):
        if c.args is not None:
            lst = by_name.get(c.name)
            if lst is None:
                by_name[c.name] = [p]
            else:
                lst.append(p)
    if not by_name:
        return []
    equal = loose_equal if cfg.arg_normalize else json_equal
    strict_prereq = cfg.prereq_unmatched == "fail"
    # mu(g): the matched call's position in the output (the paper), or its step (assistant message)
    rank = [c.step for c in calls] if cfg.order_by == "step" else range(1, len(calls) + 1)
    gold_all, prereqs = task.gold, task.prereqs
    used: set[int] = set()
    matched: dict[int, int] = {}
    out = []
    for g in task.order:
        gold = gold_all[g]
        cands = by_name.get(gold.name)
        if not cands:
            continue
        pre = prereqs[g]
        after, broken = _prereq_floor(pre, matched, rank, strict_prereq) if pre else (0, False)
        gkeys, gargs = gold.keys, gold.args
        n_args = len(gargs)
        best = -1
        best_ok, best_frac = False, -1.0
        for p in cands:
            if p in used:
                continue
            call = calls[p]
            args = call.args
            if not gkeys <= args.keys():  # type: ignore[union-attr]
                continue
            ok = not broken and rank[p] > after
            if n_args:
                hits = 0
                for k, v in gargs.items():
                    a = args[k]  # type: ignore[index]
                    if (type(a) is type(v) and type(a) in _SCALARS and a == v) or equal(a, v):
                        hits += 1
                frac = hits / n_args
            else:
                frac = 1.0
            if best < 0 or (ok, frac) > (best_ok, best_frac):
                best, best_ok, best_frac = p, ok, frac
        if best >= 0:
            used.add(best)
            matched[g] = best
            out.append((g, best, best_ok, best_frac))
    return out


def _prereq_floor(
    prereqs: tuple[int, ...], matched: dict[int, int], rank: Sequence[int], strict: bool
) -> tuple[int, bool]:
    """The latest rank among matched prerequisites, and whether an unmatched one breaks the order."""
    after, broken = 0, False
    for j in prereqs:
        pj = matched.get(j)
        if pj is None:
            broken = broken or strict
        elif rank[pj] > after:
            after = rank[pj]
    return after, broken


def budget(n_gt: int, beta: float) -> int:
    """B = n_gt + ceil(beta * n_gt); the epsilon keeps 0.1 * 10 from rounding up to 2."""
    return n_gt + math.ceil(beta * n_gt - 1e-9)


def efficiency(n_calls: int, n_gt: int, cfg: RewardConfig) -> tuple[float, int, int]:
    """Eq. 2, optionally clipped: (R_eff, budget, excess calls)."""
    b = budget(n_gt, cfg.beta)
    excess = max(0, n_calls - b)
    value = -cfg.alpha * excess / b if excess else 0.0
    if cfg.efficiency_clip is not None and value < cfg.efficiency_clip:
        value = cfg.efficiency_clip
    return value, b, excess


Explanation = tuple[int, int, int, int, list[int], list[tuple[int, int, bool, float]]]


def paper_terms(
    task: PreparedTask, calls: list[PredCall], status: list[bool | None], cfg: RewardConfig
) -> tuple[dict[str, float], Explanation]:
    """All five paper terms for a non-abstention task, plus the raw facts that explain them.

    The explanation stays a tuple until someone reads it (:func:`explain`): most rewards are
    consumed as numbers, and building dicts for each would cost more than the terms.
    """
    n_gt, n = len(task.gold), len(calls)
    r_val, levels = validity(task, calls, status, cfg)
    pairs = align(task, calls, cfg)
    r_eff, b, excess = efficiency(n, n_gt, cfg)
    names = task.gold_names
    components = {
        "validity": r_val,
        "coverage": sum([ok for _, _, ok, _ in pairs]) / n_gt,
        "efficiency": r_eff,
        "name": sum([c.name in names for c in calls]) / n if n else 0.0,
        "arg": sum([f for _, _, _, f in pairs]) / len(pairs) if pairs else 0.0,
    }
    return components, (n, n_gt, b, excess, levels, pairs)


def explain(raw: Explanation) -> dict[str, Any]:
    """The details of :func:`paper_terms` as JSON-able data."""
    n, n_gt, b, excess, levels, pairs = raw
    matched = {g for g, _, _, _ in pairs}
    return {
        "n_calls": n,
        "n_gold": n_gt,
        "budget": b,
        "excess": excess,
        "validity_levels": levels,
        "alignment": [{"gold": g, "pred": p, "order_ok": ok, "arg_match": f} for g, p, ok, f in pairs],
        "unmatched_gold": [g for g in range(n_gt) if g not in matched],
    }


def weighted_total(components: dict[str, float | None], cfg: RewardConfig) -> float:
    """Eq. 5 (+ w_out * outcome and w_pol * policy when those terms were computed)."""
    total = (
        cfg.w_val * components["validity"]  # type: ignore[operator]
        + cfg.w_cov * components["coverage"]  # type: ignore[operator]
        + cfg.w_eff * components["efficiency"]  # type: ignore[operator]
        + cfg.w_name * components["name"]  # type: ignore[operator]
        + cfg.w_arg * components["arg"]  # type: ignore[operator]
    )
    outcome = components.get("outcome")
    if outcome is not None and cfg.w_out:
        total += cfg.w_out * outcome
    policy = components.get("policy")
    if policy is not None and cfg.w_pol:
        total += cfg.w_pol * policy
    return total
