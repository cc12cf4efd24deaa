"""Trainer adapters: plain functions with verl's, TRL's and OpenRLHF's calling conventions.

None of them imports its trainer. Ground truth travels as the task itself (a Task or a minimal
task, as an object or a JSON string); a task given as a string is prepared once and cached, so a
GRPO group of 16 rollouts pays for the task once.

* verl: ``reward.custom_reward_function.path=<file importing compute_score>`` and
  ``name=compute_score``. Returns ``{"score": total, <component>: value, ...}`` with the same keys
  every time (verl turns extra keys into ``reward_extra_info``).
* TRL: ``GRPOTrainer(reward_funcs=make_trl_reward("prove"), ...)`` with a dataset column ``task``.
* OpenRLHF: ``--reward.remote_url http://host:8100/openrlhf`` (the service), or a ``.py`` file that
  does ``from rewards.adapters import reward_func``.

Per-call credit labels (``rewards.credit``) cost a look at the details (and a replay when scoring
did not make one), so they are opt-in with ``credit=True``: verl (``reward_kwargs``) and OpenRLHF
then also get one number per label, ``calls_<label>`` (how many calls carry it), every time. Both
take statistics of every extra key per sample (verl's validation metrics, OpenRLHF's logs), which
a list per sample would break, so the per-call list itself stays in ``RewardResult.details["calls"]``
(TRL's ``last_results``, the service's ``/score`` and ``/score/batch``).
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import Any

from rewards.config import RewardConfig, get_config
from rewards.credit import LABELS
from rewards.errors import RewardInputError
from rewards.parse import parse_trajectory
from rewards.replay import EnvPool
from rewards.score import RewardResult, score_prepared
from rewards.tasks import PreparedTask, prepare_task

ConfigSpec = RewardConfig | str | dict[str, Any] | None


@functools.lru_cache(maxsize=4096)
def _prepared_from_text(text: str) -> PreparedTask:
    return prepare_task(text)


def prepared(ground_truth: Any) -> PreparedTask:
    """The task a ground truth carries (any shape :func:`rewards.tasks.prepare_task` reads), prepared;
    one that arrives as JSON text is prepared once and cached (a GRPO group repeats it)."""
    if isinstance(ground_truth, str):
        return _prepared_from_text(ground_truth)
    return prepare_task(ground_truth)


def unit_score(result: RewardResult, cfg: RewardConfig) -> float:
    """The total mapped to [0, 1] (OpenRLHF uses this for dynamic filtering)."""
    if "abstention" in result.components:
        top = cfg.abstain_reward
    else:  # the best this task allows: no outcome term without a snapshot
        top = cfg.max_total - (max(cfg.w_out, 0.0) if result.components.get("outcome") is None else 0.0)
    return min(1.0, max(0.0, result.total / top)) if top > 0 else 0.0


def label_logs(result: RewardResult) -> dict[str, float]:
    """How many calls carry each credit label, as ``calls_<label>`` numbers (all six, every time)."""
    counts = result.details["label_counts"]
    return {f"calls_{label}": float(counts[label]) for label in LABELS}


# -- verl ------------------------------------------------------------------------------


def compute_score(
    data_source: str | None,
    solution_str: str,
    ground_truth: Any,
    extra_info: dict[str, Any] | None = None,
    **kwargs: Any,
) -> dict[str, float]:
    """verl's ``compute_score``: the response text (or ``extra_info["trajectory"]``) against the task.

    The config comes from ``reward_kwargs`` (``config=`` or ``preset=``) or ``extra_info["reward_config"]``;
    ``credit=True`` in ``reward_kwargs`` adds the ``calls_<label>`` counts (a per-sample switch would
    give samples of one batch different keys, which verl cannot collate).
    """
    extra = extra_info or {}
    spec = kwargs.get("config", kwargs.get("preset", extra.get("reward_config")))
    cfg = get_config(spec)
    trajectory = extra.get("trajectory") or solution_str  # verl's solution_str holds the whole rollout
    result = score_prepared(prepared(ground_truth), parse_trajectory(trajectory), cfg)
    out = result.flat()
    if kwargs.get("credit"):
        out.update(label_logs(result))
    return out


# -- TRL -------------------------------------------------------------------------------


def _completion_trajectory(completion: Any) -> Any:
    """TRL completions are text, or (conversational) a list of messages."""
    if (
        isinstance(completion, list)
        and completion
        and isinstance(completion[0], dict)
        and "role" in completion[0]
    ):
        return completion
    return completion if isinstance(completion, str | list | dict) else str(completion)


def make_trl_reward(config: ConfigSpec = None, *, task_column: str = "task") -> Callable[..., list[float]]:
    """A ``GRPOTrainer`` reward function reading each row's task from ``task_column``.

    The last batch's full results are kept on the function as ``last_results`` for custom logging.
    """
    cfg = get_config(config)

    def toolground_reward(prompts: Any = None, completions: Any = None, **kwargs: Any) -> list[float]:
        tasks = kwargs.get(task_column)
        if tasks is None:
            raise KeyError(f"the dataset needs a {task_column!r} column holding each row's task")
        results = [
            score_prepared(prepared(t), parse_trajectory(_completion_trajectory(c)), cfg)
            for t, c in zip(tasks, completions or [], strict=True)
        ]
        toolground_reward.last_results = results  # type: ignore[attr-defined]
        return [r.total for r in results]

    toolground_reward.__name__ = f"toolground_{cfg.preset.replace('+', '_')}"
    toolground_reward.last_results = []  # type: ignore[attr-defined]
    return toolground_reward


# -- OpenRLHF --------------------------------------------------------------------------


def response_of(query: str, prompt: str | None) -> str:
    """OpenRLHF sends prompt + response; the response is what follows the prompt.

    When the prompt is not an exact prefix (a tokenizer round trip changed whitespace), the
    longest common prefix is cut instead, so tool-call examples in the prompt are never scored.
    """
    if not prompt:
        return query
    if query.startswith(prompt):
        return query[len(prompt) :]
    n = 0
    for a, b in zip(query, prompt, strict=False):
        if a != b:
            break
        n += 1
    return query[n:]


def openrlhf_scores(
    queries: list[str],
    prompts: list[str] | None,
    labels: list[Any],
    config: ConfigSpec = None,
    *,
    credit: bool = False,
    pool: EnvPool | None = None,
) -> dict[str, Any]:
    """OpenRLHF's remote-RM contract with plain lists: ``{"rewards", "scores", "extra_logs"}``.

    ``credit`` adds the ``calls_<label>`` counts to ``extra_logs``; ``pool`` is where replays run
    (the reward service's own, with its world caps; default: the process-wide pool)."""
    cfg = get_config(config)
    prompts = prompts if prompts is not None else [""] * len(queries)
    rewards: list[float] = []
    scores: list[float] = []
    logs: dict[str, list[float]] = {}
    for i, (query, prompt, label) in enumerate(zip(queries, prompts, labels, strict=True)):
        try:
            task = prepared(label)
        except RewardInputError as exc:
            raise type(exc)(
                f"labels[{i}]: {exc.message}",
                [{**d, "loc": ["labels", i, *d.get("loc", [])[1:]]} for d in exc.detail],
            ) from None
        result = score_prepared(task, parse_trajectory(response_of(query, prompt)), cfg, pool)
        rewards.append(result.total)
        scores.append(unit_score(result, cfg))
        numbers = result.flat()
        if credit:
            numbers.update(label_logs(result))
        for k, v in numbers.items():
            if k != "score":
                logs.setdefault(k, []).append(v)
    return {"rewards": rewards, "scores": scores, "extra_logs": logs}


def reward_func(queries: Any, prompts: Any, labels: Any, **kwargs: Any) -> dict[str, Any]:
    """OpenRLHF ``--reward.remote_url file.py`` entry point (tensors if torch is already loaded).

    ``config=`` and ``credit=`` as for :func:`openrlhf_scores` (bind them with ``functools.partial``)."""
    out = openrlhf_scores(
        list(queries),
        list(prompts) if prompts is not None else None,
        list(labels),
        kwargs.get("config"),
        credit=bool(kwargs.get("credit")),
    )
    torch = sys.modules.get("torch")
    if torch is not None:
        out = {
            "rewards": torch.tensor(out["rewards"]),
            "scores": torch.tensor(out["scores"]),
            "extra_logs": {k: torch.tensor(v) for k, v in out["extra_logs"].items()},
        }
    return out
