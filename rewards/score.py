"""The public scoring API: ``score(task, trajectory, config) -> RewardResult``.

The fast path (paper terms on a prepared task, trajectory carrying its tool results) is plain
dict and list work. Replay on the task's snapshot happens only when a weighted term needs it:
validity level 3 for calls whose outcome the trajectory does not show, and the outcome term.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from rewards.config import RewardConfig, get_config
from rewards.credit import credit_details
from rewards.errors import RewardInputError
from rewards.outcome import outcome_term
from rewards.parse import PredCall, Trajectory, parse_trajectory
from rewards.paths import path_terms
from rewards.policy_term import applies as policy_applies
from rewards.policy_term import policy_term
from rewards.replay import EnvPool, ReplayResult, default_pool
from rewards.tasks import PreparedTask, prepare_task
from rewards.terms import Explanation, explain, paper_terms, weighted_total

COMPONENTS = ("validity", "coverage", "efficiency", "name", "arg", "outcome", "policy")


class RewardResult:
    """The total, every component (``outcome`` None when not computed) and the alignment behind them.

    ``details`` is built on first access from the raw alignment, and the per-call credit labels
    (``rewards.credit``) with it, replaying the calls then if scoring did not; trainers that only
    read numbers never pay for either.
    """

    __slots__ = ("_credit", "_details", "_extra", "_raw", "components", "preset", "task_id", "total")

    def __init__(
        self,
        total: float,
        components: dict[str, float | None],
        details: dict[str, Any] | None = None,
        preset: str = "prove",
        task_id: str | None = None,
        raw: Explanation | None = None,
        credit: Callable[[], dict[str, Any]] | None = None,
    ) -> None:
        self.total = total
        self.components = components
        self.preset = preset
        self.task_id = task_id
        self._raw = raw
        self._credit = credit
        self._extra = details or {}
        lazy = raw is not None or credit is not None
        self._details: dict[str, Any] | None = None if lazy else self._extra

    @property
    def details(self) -> dict[str, Any]:
        if self._details is None:
            terms = explain(self._raw) if self._raw is not None else {}
            labels = self._credit() if self._credit is not None else {}
            self._details = {**terms, **self._extra, **labels}
            self._credit = None  # drop what it held (the calls, the replay)
        return self._details

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled with its details built (the lazy labels hold a replay pool, which has locks)."""
        return (RewardResult, (self.total, self.components, self.details, self.preset, self.task_id))

    def __repr__(self) -> str:
        return f"RewardResult(total={self.total!r}, components={self.components!r}, preset={self.preset!r})"

    def as_dict(self) -> dict[str, Any]:
        return {
            "task_id": self.task_id,
            "preset": self.preset,
            "total": self.total,
            "components": dict(self.components),
            "details": self.details,
        }

    def flat(self) -> dict[str, float]:
        """Numbers only, same keys every time (for trainer logs): outcome 0.0 when absent."""
        out = {"score": self.total}
        for k in COMPONENTS:
            v = self.components.get(k)
            out[k] = 0.0 if v is None else float(v)
        out["abstention"] = float(self.components.get("abstention") or 0.0)
        out["outcome_available"] = 0.0 if self.components.get("outcome") is None else 1.0
        out["policy_available"] = 0.0 if self.components.get("policy") is None else 1.0
        return out


def score(
    task: Any,
    trajectory: Any,
    config: RewardConfig | str | dict[str, Any] | None = None,
    *,
    pool: EnvPool | None = None,
) -> RewardResult:
    """Score one trajectory. ``task``: Task, task dict, minimal task, JSON string or PreparedTask."""
    return score_prepared(prepare_task(task), parse_trajectory(trajectory), get_config(config), pool)


def score_group(
    task: Any,
    trajectories: Iterable[Any],
    config: RewardConfig | str | dict[str, Any] | None = None,
    *,
    pool: EnvPool | None = None,
) -> list[RewardResult]:
    """Score many trajectories of one task (a GRPO group), preparing the task once."""
    prepared, cfg = prepare_task(task), get_config(config)
    return [score_prepared(prepared, parse_trajectory(t), cfg, pool) for t in trajectories]


def _abstain(task: PreparedTask, traj: Trajectory, cfg: RewardConfig, pool: EnvPool | None) -> RewardResult:
    n = len(traj.calls)
    value = cfg.abstain_reward if n == 0 else 0.0
    comps: dict[str, float | None] = dict.fromkeys(COMPONENTS[:-2], 0.0)
    comps["outcome"] = None
    comps["abstention"] = value
    details: dict[str, Any] = {
        "n_calls": n,
        "n_gold": 0,
        "rule": "abstention: reward only when no tool is called",
    }
    status = [c.exec_ok for c in traj.calls]
    replay = None
    if n and cfg.w_pol and cfg.replay == "auto" and policy_applies(task):
        # refusing a forbidden request with no call is an abstention; doing it anyway breaks the rule
        replay = (
            (pool if pool is not None else default_pool())
            .replayer(task.snapshots)
            .run(((c.name, c.args) for c in traj.calls), task.setup)
        )
        comps["policy"], details["policy"] = policy_term(task, replay, traj.calls)
        value += cfg.w_pol * comps["policy"]
    credit = _credit(task, traj.calls, status, [], None, cfg, replay, pool)
    return RewardResult(value, comps, details, cfg.preset, task.id, credit=credit)


def _gold_results(task: PreparedTask, rep_pool: EnvPool) -> list[Any]:
    """Results the gold calls returned: from the task, else by replaying gold once."""
    results = task.cache.get("gold_results")
    if results is None:
        if all(g.result is not None for g in task.gold):
            results = [g.result for g in task.gold]
        else:
            run = rep_pool.replayer(task.snapshots).run(((g.name, g.args) for g in task.gold), task.setup)
            results = [
                g.result if g.result is not None else v for g, v in zip(task.gold, run.values, strict=True)
            ]
        task.cache["gold_results"] = results
    return results


def score_prepared(
    task: PreparedTask, traj: Trajectory, cfg: RewardConfig, pool: EnvPool | None = None
) -> RewardResult:
    """Score a parsed trajectory against a prepared task (the hot path)."""
    if task.abstain:
        return _abstain(task, traj, cfg, pool)
    calls = traj.calls
    status: list[bool | None] = [c.exec_ok for c in calls]
    can_replay = task.replayable and cfg.replay == "auto"
    # a result that reads as a success is only text: replay confirms it (a failure marker stands)
    confirm = can_replay and cfg.exec_check == "replay" and True in status
    unknown = None in status
    need_l3 = bool(cfg.w_val) and (unknown or confirm)
    need_out = (bool(cfg.w_out) or cfg.paths) and task.replayable
    need_pol = bool(cfg.w_pol) and policy_applies(task)
    replay: ReplayResult | None = None
    rep_pool = pool if pool is not None else default_pool()
    if can_replay and (need_l3 or need_out or need_pol):
        replay = rep_pool.replayer(task.snapshots).run(((c.name, c.args) for c in calls), task.setup)
        if need_l3:
            status = [
                r if s is None or (s and confirm) else s for s, r in zip(status, replay.status, strict=True)
            ]
    components, raw = paper_terms(task, calls, status, cfg)
    details: dict[str, Any] = {
        "level3_source": _level3_source(calls, replay is not None and need_l3, unknown or confirm)
    }
    out: float | None = None
    if replay is not None and need_out:
        gold_results = [] if task.writes else _gold_results(task, rep_pool)
        out, details["outcome"] = outcome_term(task, replay.diff, traj.answer, gold_results, cfg)
    components["outcome"] = out  # type: ignore[assignment]
    if cfg.paths and replay is not None:
        reached = out is not None and task.writes and out >= 1.0 - 1e-9
        step = cfg.order_by == "step"
        details["paths"] = path_terms(task, calls, components, raw, replay, reached, order_by_step=step)
    if need_pol:  # a policy task says whether it was checked; other tasks carry no policy key
        pol: float | None = None
        if replay is not None:
            pol, details["policy"] = policy_term(task, replay, calls)
        components["policy"] = pol  # type: ignore[assignment]
    total = weighted_total(components, cfg)  # type: ignore[arg-type]
    pairs, budget = raw[5], raw[2]  # Explanation: (n, n_gt, budget, excess, levels, pairs)
    credit = _credit(task, calls, status, pairs, budget, cfg, replay, pool)
    return RewardResult(total, components, details, cfg.preset, task.id, raw, credit)  # type: ignore[arg-type]


def _credit(
    task: PreparedTask,
    calls: list[PredCall],
    status: list[bool | None],
    pairs: Sequence[tuple[int, int, bool, float]],
    budget: int | None,
    cfg: RewardConfig,
    replay: ReplayResult | None,
    pool: EnvPool | None,
) -> Callable[[], dict[str, Any]]:
    """The per-call labels, built when details are first read: from the replay scoring made, else
    from one made then (same pool), else without harm (no snapshot, or ``replay="never"``)."""

    def build() -> dict[str, Any]:
        rep, note = (replay, None) if replay is not None else _replay_for_credit(task, calls, cfg, pool)
        return credit_details(task, calls, status, pairs, budget, cfg, rep, note)

    return build


def _replay_for_credit(
    task: PreparedTask, calls: list[PredCall], cfg: RewardConfig, pool: EnvPool | None
) -> tuple[ReplayResult | None, str | None]:
    if not task.replayable:
        return None, "the task has no snapshot to replay the calls on, so harm is not checked"
    if cfg.replay == "never":
        return None, "replay is off (replay='never'), so harm is not checked"
    if not calls:
        return ReplayResult([], [], [], []), None
    try:
        replayer = (pool if pool is not None else default_pool()).replayer(task.snapshots)
        return replayer.run(((c.name, c.args) for c in calls), task.setup), None
    except RewardInputError as exc:  # the score stands without replay; the labels just lack harm
        return None, f"replay failed, so harm is not checked: {exc.message}"


def _level3_source(calls: list[Any], replayed: bool, unknown: bool) -> str:
    if not calls:
        return "none"
    if not unknown:
        return "trajectory"
    some_known = any(c.exec_ok is not None for c in calls)
    source = "replay" if replayed else "assumed"
    return f"trajectory+{source}" if some_known else source
