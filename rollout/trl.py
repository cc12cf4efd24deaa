"""TRL GRPO on toolground tasks, with tool calls run against each task's own world.

    envs = environments(load_dataset("out/hf", split="train"))          # or backend="http://host:port/mcp"
    trainer = GRPOTrainer(model=..., train_dataset=envs.dataset,
                          environment_factory=envs.factory, reward_funcs=env_reward("prove+outcome"))

What TRL 1.16 asks of an environment, and how toolground meets it:

* **Tools per class, tasks differ.** TRL fixes an environment's tools by its class, while every
  task offers its own set (distractors from other domains, hidden tools left out, enums
  stripped). ``environments`` makes one class per distinct offered set and routes each row to it
  through TRL's dict ``environment_factory`` and an ``environment`` column.
* **The exact schemas.** Each tool is a method built from the task's schema, and the model is
  shown that schema byte for byte, not one re-derived from type hints (see
  :mod:`rollout.trl_tools` for how, without patching TRL or transformers).
* **Errors as JSON.** A failed call returns ``{"error": ...}`` as text; tools never raise, since
  TRL writes a raised error as ``str(dict)``, a Python repr.
* **Per-rollout reset.** TRL pools instances and calls ``reset(**row)`` before each rollout: the
  instance binds to the row's task, reusing (resetting) its episode when the task repeats, as it
  does within a GRPO group. Nothing is appended to the prompt.
* **Backends.** In process (default): a :class:`rollout.episode.TaskEpisode` on private forks. Or
  ``backend="http://host:port/mcp"``: an env session per rollout on ``toolground serve``, deleted
  on the next reset, on ``Environments.close()``, and (TRL has no teardown hook) by a finalizer
  when the instance is dropped or the interpreter exits.
* **Reward from the live environment.** TRL 1.16 passes the rollouts' environment instances to
  every reward function as ``environments=`` (``GRPOTrainer._calculate_rewards``). :func:`env_reward`
  reads them: each completion is scored against the task its instance ran, and the instance's
  live final state is compared with the task's expected state; for a write task it decides the
  outcome term, as in the verl adapter. ``examples/train_trl.py`` uses it. No
  ``get_reward`` is defined: TRL would add it as an extra reward source, weight 1, that cannot
  see the completion (the final answer the outcome term reads for read-only tasks).

TRL shows the first user turn only; a multi-turn task's later turns never reach the model, so train on
single-turn tasks.
"""

from __future__ import annotations

import hashlib
import json
import uuid
import weakref
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from contract.load import load_task_cached
from contract.messages import prompt
from contract.rows import verl_row
from contract.task import Task
from rewards.config import RewardConfig, get_config
from rewards.parse import parse_trajectory
from rewards.replay import EnvPool, default_pool
from rewards.score import RewardResult, score_prepared
from rewards.tasks import PreparedTask, prepare_task
from rollout.episode import error_content
from rollout.session import InProcess, Sessions, ToolSession
from rollout.trl_tools import ToolMethod, tool_name

COLUMN = "environment"  # the column TRL's dict environment_factory routes rows by
RESERVED = frozenset({"reset", "get_reward"})  # names TRL gives a meaning of its own


# -- rows and tasks -------------------------------------------------------------------------------


def tool_set_key(tools: Sequence[dict[str, Any]]) -> str:
    """One key per set of schemas as the model sees them: TRL lists an environment's methods by
    name, so the order of the set does not matter, but every byte of each schema does."""
    ordered = sorted(tools, key=tool_name)
    return hashlib.sha256(json.dumps(ordered, ensure_ascii=False).encode()).hexdigest()[:12]


# -- the environment ------------------------------------------------------------------------------


@dataclass
class Counters:
    """Totals over every instance of one ``environments()`` call (instances reset their own)."""

    rollouts: int = 0
    calls: int = 0
    failed: int = 0


class TrlEnvironment:
    """Base of the generated environment classes.

    TRL makes every public function of the class a tool, so this class has only ``reset``,
    private methods and properties; the tools are :class:`rollout.trl_tools.ToolMethod` attributes
    of the subclass."""

    tools: ClassVar[list[dict[str, Any]]] = []  # the offered schemas, exactly as the tasks carry them
    _key: ClassVar[str] = ""
    _sessions: ClassVar[Sessions]
    _pool: ClassVar[EnvPool]  # where the reward replays calls (the task's snapshots, locally)
    _counters: ClassVar[Counters]
    _instances: ClassVar[weakref.WeakSet[TrlEnvironment]]

    def __init__(self) -> None:
        self._session: ToolSession | None = None
        self._prepared: PreparedTask | None = None
        self._calls = self._failed = 0
        self._instances.add(self)

    def reset(self, **row: Any) -> None:
        """Bind to the row's task in its own world, back at its start; TRL calls this per rollout."""
        task = load_task_cached(row)
        if _key_of(task) != self._key:
            raise ValueError(
                f"task {task.id} offers other tools than environment {type(self).__name__}: "
                f"route rows with the dataset `environments()` returned"
            )
        session = self._session
        if session is not None and session.task.id == task.id:
            session.reset()
        else:
            if session is not None:
                session.close()
            self._session = self._sessions(task)
            self._prepared = prepare_task(task)
        self._calls = self._failed = 0
        self._counters.rollouts += 1

    def _tool_call(self, name: str, arguments: dict[str, Any]) -> str:
        """Run one call; the model sees the JSON result or ``{"error": ...}``, never an exception."""
        if self._session is None:
            return error_content("the environment has no task yet: TRL calls reset(**row) first")
        outcome = self._session.call(name, arguments)
        self._calls += 1
        self._counters.calls += 1
        if not outcome.ok:
            self._failed += 1
            self._counters.failed += 1
        return outcome.content

    def _score(self, completion: Any, cfg: RewardConfig, state_outcome: bool = True) -> RolloutScore:
        """The completion against this instance's task, and the live state it left."""
        if self._session is None or self._prepared is None:
            raise RuntimeError("score a rollout after TRL has reset its environment to a task")
        trajectory = parse_trajectory(_trajectory(completion))
        result = score_prepared(self._prepared, trajectory, cfg, self._pool)
        task, match = self._session.task, self._session.state_matches()
        total, outcome = result.total, result.components.get("outcome")
        if state_outcome and match is not None and task.writes and outcome is not None:
            total, outcome = live_outcome(result.total, outcome, match, cfg)
        return RolloutScore(task.id, result, total, outcome, match, self._calls, self._failed)

    @property
    def session(self) -> ToolSession | None:
        """The current rollout's world (``state_hash()``, ``state_matches()``, ``call()``)."""
        return self._session

    @property
    def task(self) -> Task | None:
        return None if self._session is None else self._session.task

    @property
    def calls(self) -> int:
        """Calls made since the last reset (failed ones included)."""
        return self._calls

    @property
    def failed(self) -> int:
        return self._failed


_KEYS: dict[str, str] = {}


def _key_of(task: Task) -> str:
    """The task's tool-set key, computed once per task id (a pool instance meets the same tasks)."""
    key = _KEYS.get(task.id)
    if key is None:
        key = _KEYS[task.id] = tool_set_key(task.tools)
    return key


def environment_class(
    tools: Sequence[dict[str, Any]],
    sessions: Sessions,
    pool: EnvPool,
    counters: Counters | None = None,
    instances: weakref.WeakSet[TrlEnvironment] | None = None,
) -> type[TrlEnvironment]:
    """A TRL environment class offering exactly these tool schemas (one method each)."""
    key = tool_set_key(tools)
    attrs: dict[str, Any] = {}
    taken = set(dir(TrlEnvironment)) | RESERVED
    for schema in tools:
        name = tool_name(schema)
        if name in taken or name.startswith("_"):
            raise ValueError(f"tool {name!r} cannot be a TRL environment method (the name is taken)")
        attrs[name] = ToolMethod(schema)
    attrs.update(
        tools=list(tools),
        _key=key,
        _sessions=sessions,
        _pool=pool,
        _counters=counters or Counters(),
        _instances=instances if instances is not None else weakref.WeakSet(),
        __doc__=f"A toolground task environment offering {len(tools)} tools (set {key}).",
    )
    return type(f"ToolgroundEnv_{key}", (TrlEnvironment,), attrs)


# -- the dataset ----------------------------------------------------------------------------------


@dataclass
class Environments:
    """What ``GRPOTrainer`` takes: ``factory`` (``environment_factory``) and ``dataset``
    (``train_dataset``, the input with its ``environment`` column)."""

    factory: dict[str, type[TrlEnvironment]]
    dataset: Any
    sessions: Sessions
    pool: EnvPool
    counters: Counters = field(default_factory=Counters)
    _instances: weakref.WeakSet[TrlEnvironment] = field(default_factory=weakref.WeakSet)

    @property
    def instances(self) -> list[TrlEnvironment]:
        """Every environment instance TRL has made and still holds."""
        return list(self._instances)

    def close(self) -> None:
        """Release every session (on a server: delete it) and the factory's connections."""
        for env in self.instances:
            if env.session is not None:
                env.session.close()
        self.sessions.close()


def _is_hf_dataset(data: Any) -> bool:
    return hasattr(data, "column_names") and hasattr(data, "add_column")


def _tasks_and_rows(data: Any) -> tuple[list[Task], Any]:
    """Each row's task, and the rows as TRL will read them: Tasks become ``hf/``-shaped rows, and
    rows without a ``prompt`` (``tasks.jsonl`` rows) get the task's own."""
    if _is_hf_dataset(data):
        column = next((c for c in ("reward_model", "ground_truth", "task") if c in data.column_names), None)
        if column is None:
            raise ValueError(
                "the dataset has no reward_model, ground_truth or task column to read tasks from"
            )
        tasks = [load_task_cached({column: value}) for value in data[column]]
        if "prompt" not in data.column_names:
            data = data.add_column("prompt", [prompt(t) for t in tasks])
        return tasks, data
    rows = list(data)
    if rows and isinstance(rows[0], Task):
        return rows, [verl_row(t, i) for i, t in enumerate(rows)]
    tasks = [load_task_cached(r) for r in rows]
    return tasks, [{"prompt": prompt(t), **r} for r, t in zip(rows, tasks, strict=True)]


def _with_column(rows: Any, names: list[str]) -> Any:
    if _is_hf_dataset(rows):
        if COLUMN in rows.column_names:
            rows = rows.remove_columns(COLUMN)
        return rows.add_column(COLUMN, names)
    return [{**row, COLUMN: name} for row, name in zip(rows, names, strict=True)]


def environments(
    dataset: Iterable[Any],
    backend: str = "inproc",
    *,
    admin_token: str | None = None,
    pool: EnvPool | None = None,
) -> Environments:
    """The environment factory and the routed dataset for ``GRPOTrainer``.

    ``dataset``: a ``datasets.Dataset`` (``load_dataset("out/hf")``), or a list of rows or Tasks
    (Tasks become ``hf/``-shaped rows). ``backend``: ``"inproc"``, or the streamable-HTTP URL of a
    ``toolground serve`` over the tasks' domains at their seed and scale (``admin_token`` if it
    has one). ``pool``: the :class:`rewards.replay.EnvPool` episodes and the reward's replays use.
    """
    tasks, rows = _tasks_and_rows(dataset)
    sessions: Sessions
    if backend in ("inproc", "in-process", "", None):
        pool = pool if pool is not None else EnvPool()
        sessions = InProcess(pool)
    elif backend.startswith(("http://", "https://")):
        from rollout.mcp_session import McpSessions  # the MCP client: only for this backend

        pool = pool if pool is not None else default_pool()
        sessions = McpSessions(backend, run_id=f"trl-{uuid.uuid4().hex[:8]}", admin_token=admin_token)
    else:
        raise ValueError(f"backend must be 'inproc' or an http(s) URL ending in /mcp, got {backend!r}")
    envs = Environments({}, None, sessions, pool)
    names: list[str] = []
    for task in tasks:
        name = f"toolground-{_key_of(task)}"
        if name not in envs.factory:
            envs.factory[name] = environment_class(task.tools, sessions, pool, envs.counters, envs._instances)
        names.append(name)
    envs.dataset = _with_column(rows, names)
    return envs


# -- the reward -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RolloutScore:
    """One rollout's reward (``total``), the score of its completion alone (``result``), the live
    state check and the instance's call counts."""

    task_id: str
    result: RewardResult
    total: float
    outcome: float | None
    state_matches: bool | None  # live final state == task.expected_state_hash (None: no expectation)
    calls: int
    failed: int


def live_outcome(total: float, outcome: float, match: bool, cfg: RewardConfig) -> tuple[float, float]:
    """For a write task the world the rollout really left decides success, as in the verl adapter:
    the expected state reached is the full outcome; not reached keeps the replay's partial credit,
    and a replay claiming full success for a state never reached (calls TRL refused or cut) gets 0."""
    new = 1.0 if match else (0.0 if outcome >= 1.0 else outcome)
    return total + cfg.w_out * (new - outcome), new


def _trajectory(completion: Any) -> Any:
    """TRL completions: a list of messages (conversational datasets) or text."""
    return completion if isinstance(completion, str | list | dict) else str(completion)


def env_reward(
    config: RewardConfig | str | dict[str, Any] | None = "prove+outcome", *, state_outcome: bool = True
) -> Callable[..., list[float]]:
    """A GRPO reward reading the environment instances TRL passes (``environments=``).

    Each completion is scored against the task its own instance ran (no task column needed), its
    calls replayed on the task's snapshot; the instance's live final state is then checked against
    the task's expected state and, for a write task, decides the outcome term (:func:`live_outcome`;
    ``state_outcome=False`` keeps the replay's). TRL logs
    ``toolground/state_match`` (share of rollouts whose world ended as expected) and
    ``toolground/failed_calls`` (per rollout; TRL's own ``tools/failure_frequency`` counts raised
    errors only, and these tools never raise). The last batch stays on the function as
    ``last_results`` (:class:`RolloutScore` each)."""
    cfg = get_config(config)

    def toolground_env_reward(
        prompts: Any = None,
        completions: Any = None,
        environments: Sequence[TrlEnvironment] | None = None,
        log_metric: Callable[[str, float], None] | None = None,
        **kwargs: Any,
    ) -> list[float]:
        if environments is None:
            raise TypeError(
                "env_reward scores the environments TRL passes with environment_factory; "
                "without one, use rewards.adapters.make_trl_reward"
            )
        pairs = zip(completions or [], environments, strict=True)
        scores = [env._score(c, cfg, state_outcome) for c, env in pairs]
        toolground_env_reward.last_results = scores  # type: ignore[attr-defined]
        if log_metric is not None and scores:
            known = [s.state_matches for s in scores if s.state_matches is not None]
            if known:
                log_metric("toolground/state_match", sum(known) / len(known))
            log_metric("toolground/failed_calls", sum(s.failed for s in scores) / len(scores))
        return [s.total for s in scores]

    toolground_env_reward.__name__ = f"toolground_env_{cfg.preset.replace('+', '_')}"
    toolground_env_reward.last_results = []  # type: ignore[attr-defined]
    return toolground_env_reward
