"""The reward: PROVE's five programmatic terms, an optional state-outcome term, and trainer adapters.

``score(task, trajectory, config)`` returns a :class:`RewardResult` with the total, every
component and the alignment behind them. Tasks are generator Tasks or minimal
``{"gold_calls", "tools"?, "dependencies"?}`` dicts; trajectories are OpenAI chat messages, plain
``{name, arguments}`` lists or raw model text. Presets: ``prove`` (paper-exact, default),
``prove+outcome`` and ``recall`` (coverage only, the baseline the paper argues against).

Module map: ``config`` presets, ``errors`` input errors, ``tasks`` task normalisation, ``schemas``
level-2 checks, ``parse`` trajectories, ``terms`` Eqs. 1-5 and the alignment, ``values`` value
equality, ``replay`` snapshot replay, ``outcome`` the outcome term, ``credit`` per-call labels, ``score`` the API, ``build``
tasks from known-good calls, ``service`` the HTTP app, ``adapters`` verl / TRL / OpenRLHF.

Every decision on a point the paper leaves open is listed in ``rewards.terms`` (paper terms),
``rewards.outcome`` (outcome term), ``rewards.parse`` (trajectory shapes) and ``docs/reward.md``.
"""

from rewards.config import PRESETS, RewardConfig, get_config
from rewards.errors import ConfigError, RewardInputError, SnapshotMismatch, TaskError, TrajectoryError
from rewards.parse import parse_trajectory
from rewards.replay import EnvPool, default_pool
from rewards.score import RewardResult, score, score_group, score_prepared
from rewards.tasks import PreparedTask, prepare_task

__version__ = "0.1.0"

__all__ = [
    "PRESETS",
    "ConfigError",
    "EnvPool",
    "PreparedTask",
    "RewardConfig",
    "RewardInputError",
    "RewardResult",
    "SnapshotMismatch",
    "TaskError",
    "TrajectoryError",
    "__version__",
    "default_pool",
    "get_config",
    "parse_trajectory",
    "prepare_task",
    "score",
    "score_group",
    "score_prepared",
]
