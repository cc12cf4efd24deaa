"""verl 0.9.1 multi-turn tools on toolground tasks: a ``BaseTool``, an agent loop, the tool YAML, a reward.

What verl 0.9.1 does (read from ``verl/experimental/agent_loop/tool_agent_loop.py``,
``verl/tools/`` and ``verl/experimental/reward_loop/``), and what follows for toolground:

* ``ToolAgentLoop._call_tool`` runs ``create`` / ``execute`` / ``release`` around **every call**,
  not once per trajectory, and has no end-of-trajectory hook. So a trajectory's env session lives
  in :data:`SESSIONS`, keyed on ``agent_data.request_id`` (``execute`` receives the ``AgentData``),
  and is freed by ``weakref.finalize(agent_data, ...)`` when verl drops the ``AgentData`` at the
  end of the rollout. ``release`` frees nothing.
* The tool reaches the row's task through ``agent_data.tools_kwargs`` (verl copies
  ``extra_info.tools_kwargs`` there, per trajectory): ``tools_kwargs["toolground"]["task"]``.
  :class:`ToolgroundAgentLoop` puts the row's own ground truth there, so the parquet
  ``toolground generate`` writes needs no extra column; each call then runs in the trajectory's
  :class:`~rollout.session.ToolSession` on the task's own world (its snapshots, offered tools), in
  the worker (``backend: inproc``) or on a ``toolground serve`` (``mcp``).
* ``extra_info.tool_selection`` picks tools **by name from the global YAML**, and a tool's
  name is both what the model sees and what its calls are looked up by, so a registry cannot hold
  two schemas of one name: a row's enum-stripped (or otherwise varied) schemas would be replaced
  by the global ones. :class:`ToolgroundAgentLoop` (a ``ToolAgentLoop`` registered under the
  same name ``tool_agent`` through ``agent_loop_config_path``) shows the model the row's exact
  offered schemas instead: every constraint kept (verl's ``OpenAIFunctionPropertySchema`` keeps
  only type/description/enum), still executed by the tools the YAML registers. It also marks
  verl's own refusals (unknown tool, arguments that are not JSON) as ``{"error": ...}``.
* ``agent_data.extra_fields`` reach the reward: the reward loop merges them into ``extra_info``
  (``NaiveRewardManager``'s ``tool_extra_fields``). The tool records the episode's state hash
  there after each call, so :func:`compute_score` judges success by the state the trajectory
  actually left, not only by replaying its text.

verl is imported lazily (``ToolgroundTool`` and ``ToolgroundAgentLoop`` are built on first
access), so this module imports without verl; the YAML exporter and the reward need no verl.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import os
import uuid
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from contract.load import load_task_cached
from contract.task import Task
from rollout.episode import ToolOutcome, error_content, unknown_tool
from rollout.session import InProcess, SessionError, Sessions, ToolSession

log = logging.getLogger(__name__)

TASK_KEY = "toolground"  # agent_data.tools_kwargs[TASK_KEY] = {"task": <the row's ground truth>}
HASH_FIELD = "toolground_state_hash"  # agent_data.extra_fields -> the reward's extra_info
CALLS_FIELD = "toolground_calls"
TOOL_CLASS = "rollout.verl.ToolgroundTool"
LOOP_CLASS = "rollout.verl.ToolgroundAgentLoop"
AGENT_NAME = "tool_agent"  # what toolground's parquet rows name; the loop config overrides it


# -- the task a trajectory runs --------------------------------------------------------------------


def bound_task(tools_kwargs: Any) -> Any | None:
    """The ground truth bound to a trajectory (``tools_kwargs["toolground"]["task"]``), or None."""
    entry = tools_kwargs.get(TASK_KEY) if isinstance(tools_kwargs, dict) else None
    return entry.get("task") if isinstance(entry, dict) else None


# -- env sessions: one per trajectory ----------------------------------------------------------------


@dataclass(frozen=True)
class Backend:
    """Where the calls run: ``inproc`` (default; ``cache`` = snapshot cache folder) or ``mcp``
    (``mcp_url`` = a ``toolground serve`` at the tasks' seed and scale; ``admin_token_env`` names
    the variable holding its admin token). Read from the tool YAML's ``config``."""

    kind: str = "inproc"
    mcp_url: str | None = None
    admin_token_env: str | None = None
    cache: str | None = None

    @classmethod
    def from_config(cls, config: dict[str, Any] | None) -> Backend:
        cfg = config or {}
        kind = str(cfg.get("backend") or ("mcp" if cfg.get("mcp_url") else "inproc"))
        if kind not in ("inproc", "mcp"):
            raise ValueError(f"toolground tool backend must be 'inproc' or 'mcp', got {kind!r}")
        if kind == "mcp" and not cfg.get("mcp_url"):
            raise ValueError("the mcp backend needs mcp_url, e.g. http://127.0.0.1:8000/mcp")
        return cls(kind, cfg.get("mcp_url"), cfg.get("admin_token_env"), cfg.get("cache"))


@functools.lru_cache(maxsize=8)
def _pool(cache: str | None) -> Any:
    from rewards.replay import EnvPool, default_pool

    if cache is None:
        return default_pool()
    from state import SnapshotCache

    return EnvPool(SnapshotCache(Path(cache)))


_FACTORIES: dict[Backend, Sessions] = {}


def sessions_for(backend: Backend) -> Sessions:
    """This process's session factory for ``backend``, made once (an MCP one connects one client,
    on its own loop thread, however many trajectories and event loops use it)."""
    if backend not in _FACTORIES:
        if backend.kind == "inproc":
            _FACTORIES[backend] = InProcess(_pool(backend.cache))
        else:
            from rollout.mcp_session import McpSessions  # the MCP client: only for this backend

            assert backend.mcp_url is not None
            token = os.environ.get(backend.admin_token_env) if backend.admin_token_env else None
            _FACTORIES[backend] = McpSessions(
                backend.mcp_url, run_id=f"verl-{os.getpid()}", admin_token=token
            )
    return _FACTORIES[backend]


class TrajectorySessions:
    """This process's live env sessions, one per trajectory, keyed on verl's ``request_id``.

    ``bind`` opens the session at a trajectory's first call and ties its life to the owner (the
    ``AgentData``) with ``weakref.finalize``; parallel calls of one step share the opening."""

    def __init__(self) -> None:
        self._live: dict[str, asyncio.Future[ToolSession]] = {}

    async def bind(self, owner: object, request_id: str, task: Task, sessions: Sessions) -> ToolSession:
        opening = self._live.get(request_id)
        if opening is None:
            opening = self._live[request_id] = asyncio.ensure_future(sessions.aopen(task))
            weakref.finalize(owner, self.release, request_id)
        try:
            return await asyncio.shield(opening)
        except BaseException:
            if opening.done():
                self._live.pop(request_id, None)
            raise

    def get(self, request_id: str) -> ToolSession | None:
        opening = self._live.get(request_id)
        if opening is None or not opening.done() or opening.cancelled() or opening.exception():
            return None
        return opening.result()

    def release(self, request_id: str) -> bool:
        """Close and forget one trajectory's session (idempotent)."""
        opening = self._live.pop(request_id, None)
        if opening is None:
            return False
        if not opening.done():
            opening.cancel()
        elif not opening.cancelled() and opening.exception() is None:
            opening.result().close()
        return True

    def __len__(self) -> int:
        return len(self._live)

    def ids(self) -> list[str]:
        return list(self._live)


SESSIONS = TrajectorySessions()


async def run_call(
    agent_data: Any, name: str, arguments: Any, sessions: Sessions, store: TrajectorySessions = SESSIONS
) -> ToolOutcome:
    """One call of the trajectory ``agent_data`` belongs to, on its session (opened by ``sessions``
    at the trajectory's first call).

    Records the episode's state hash and call count in ``agent_data.extra_fields`` (they reach
    the reward's ``extra_info``)."""
    ground_truth = bound_task(getattr(agent_data, "tools_kwargs", None))
    if ground_truth is None:
        msg = (
            "no toolground task is bound to this trajectory: use rollout.verl's agent loop "
            "(toolground verl-tools writes its config) or give the row extra_info.tools_kwargs."
            "toolground.task"
        )
        return ToolOutcome(False, error_content(msg), error=msg)
    try:
        session = await store.bind(
            agent_data, agent_data.request_id, load_task_cached(ground_truth), sessions
        )
    except (ValueError, SessionError) as exc:  # no snapshot, other bytes, a server without that world
        return ToolOutcome(False, error_content(str(exc)), error=str(exc))
    outcome = await session.acall(name, arguments)
    try:  # in process: a hash of the task's domains (~0.3 ms); over MCP: one operator API read
        agent_data.extra_fields[HASH_FIELD] = await session.astate_hash()
    except (ValueError, SessionError) as exc:  # the reward then falls back to the replay alone
        log.warning("no final state hash for %s: %s", agent_data.request_id, exc)
        agent_data.extra_fields[HASH_FIELD] = None
    agent_data.extra_fields[CALLS_FIELD] = session.calls
    return outcome


# -- verl classes, built on first access (so this module imports without verl) ----------------------


def _tool_class() -> type:
    from verl.tools.base_tool import BaseTool
    from verl.tools.schemas import ToolResponse

    class ToolgroundTool(BaseTool):  # type: ignore[misc]
        """One toolground tool as a verl ``BaseTool``; its calls run on the trajectory's episode.

        verl makes one instance per YAML entry and calls ``create``/``execute``/``release``
        around every single call, so the instance holds no episode: ``execute`` finds the
        trajectory's session through ``agent_data`` (see :func:`run_call`)."""

        def __init__(self, config: dict[str, Any], tool_schema: Any) -> None:
            self.config = config
            self.tool_schema = tool_schema  # verl's base __init__ prints every schema; 500 tools is noise
            self.name = tool_schema.function.name
            self.backend = Backend.from_config(config)

        async def create(self, instance_id: str | None = None, **kwargs: Any) -> tuple[str, Any]:
            return instance_id or uuid.uuid4().hex, ToolResponse()

        async def execute(
            self, instance_id: str, parameters: dict[str, Any], **kwargs: Any
        ) -> tuple[Any, float, dict[str, Any]]:
            agent_data = kwargs.get("agent_data")
            if agent_data is None:
                msg = "verl passed no agent_data, so the call cannot find its trajectory (verl >= 0.9 does)"
                return ToolResponse(text=error_content(msg)), 0.0, {"ok": False}
            outcome = await run_call(agent_data, self.name, parameters, sessions_for(self.backend))
            return ToolResponse(text=outcome.content), 0.0, {"ok": outcome.ok}

        async def release(self, instance_id: str, **kwargs: Any) -> None:
            """Per call: nothing to free (the session outlives the call; see ``TrajectorySessions``)."""

    ToolgroundTool.__module__ = __name__
    return ToolgroundTool


def _loop_class() -> type:
    from verl.experimental.agent_loop.tool_agent_loop import ToolAgentLoop
    from verl.tools.schemas import ToolResponse

    class ToolgroundAgentLoop(ToolAgentLoop):  # type: ignore[misc]
        """verl's ``ToolAgentLoop`` with each row's task bound and its exact tool schemas shown.

        Registered under ``tool_agent`` (the rows' ``agent_name``) by the agent-loop YAML that
        ``toolground verl-tools`` writes. Everything else is verl's loop unchanged."""

        async def run(self, sampling_params: dict[str, Any], **kwargs: Any) -> Any:
            tools_kwargs = dict(kwargs.get("tools_kwargs") or {})
            if bound_task(tools_kwargs) is None:
                truth = (kwargs.get("reward_model") or {}).get("ground_truth")
                if truth is not None:
                    tools_kwargs[TASK_KEY] = {**(tools_kwargs.get(TASK_KEY) or {}), "task": truth}
            kwargs["tools_kwargs"] = tools_kwargs
            self._check_selection(kwargs.get("extra_info") or {})
            output = await super().run(sampling_params, **kwargs)
            output.extra_fields.setdefault(CALLS_FIELD, 0)
            output.extra_fields.setdefault(HASH_FIELD, None)
            return output

        def _check_selection(self, extra_info: dict[str, Any]) -> None:
            missing = [n for n in extra_info.get("tool_selection") or () if n not in self.tools]
            if missing:
                raise ValueError(
                    f"row offers tools the tool YAML does not register: {missing[:5]}"
                    f"{' ...' if len(missing) > 5 else ''}; regenerate it with "
                    "`toolground verl-tools --tasks <this dataset>`"
                )

        async def _handle_pending_state(self, agent_data: Any, sampling_params: dict[str, Any]) -> Any:
            truth = bound_task(agent_data.tools_kwargs)
            if truth is not None:
                offered = load_task_cached(truth).tools
                active = getattr(agent_data, "_active_tools", self.tools)
                # the row's exact schemas, for the tools verl will execute (all of them, checked above)
                agent_data._active_tool_schemas = [
                    s for s in offered if s.get("function", {}).get("name") in active
                ]
            return await super()._handle_pending_state(agent_data, sampling_params)

        async def _call_tool(self, tool_call: Any, tools_kwargs: dict[str, Any], agent_data: Any) -> Any:
            active = getattr(agent_data, "_active_tools", self.tools)
            refusal = unknown_tool(tool_call.name, frozenset(active))
            if refusal is None:
                try:
                    json.loads(tool_call.arguments)
                except (ValueError, TypeError) as exc:
                    refusal = f"arguments of {tool_call.name} are not valid JSON: {exc}"
            if refusal is not None:  # verl's own messages carry no error marker
                return ToolResponse(text=error_content(refusal)), 0.0, {}
            return await super()._call_tool(tool_call, tools_kwargs, agent_data)

    ToolgroundAgentLoop.__module__ = __name__
    return ToolgroundAgentLoop


_BUILT: dict[str, Any] = {}


def __getattr__(name: str) -> Any:
    """``ToolgroundTool`` / ``ToolgroundAgentLoop``: built (and verl imported) on first access."""
    makers = {"ToolgroundTool": _tool_class, "ToolgroundAgentLoop": _loop_class}
    if name not in makers:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    if name not in _BUILT:
        _BUILT[name] = makers[name]()
        _BUILT[name].__qualname__ = name
    return _BUILT[name]


# -- the reward -------------------------------------------------------------------------------------


def compute_score(
    data_source: str | None,
    solution_str: str,
    ground_truth: Any,
    extra_info: dict[str, Any] | None = None,
    **kwargs: Any,
) -> dict[str, float]:
    """verl's ``compute_score`` (``custom_reward_function.path=pkg://rollout.verl``).

    ``rewards.adapters.compute_score`` (the response text replayed on the task's snapshot), plus
    what the trajectory's own episode left behind, which verl hands over in ``extra_info`` (the
    tool's ``extra_fields``): ``state_checked`` (1 when that final state hash arrived and the task
    has an expected one) and ``state_match`` (1 when they are equal). For a write task the
    episode's final state decides success: a trajectory that left the expected state gets the full
    outcome; one that did not keeps the replay's partial credit, and a replay claiming full success
    for a state the episode never reached (calls verl cut or refused) gets 0 (``state_disagrees``).
    ``state_outcome=False`` in ``reward_kwargs`` keeps the replay's outcome as it is. Same keys
    every time.
    """
    from rewards.adapters import compute_score as replay_score
    from rewards.adapters import prepared as prepared_task
    from rewards.config import get_config

    extra = extra_info or {}
    out = replay_score(data_source, solution_str, ground_truth, extra, **kwargs)
    task = prepared_task(ground_truth)
    live, expected = extra.get(HASH_FIELD), task.expected_state_hash
    checked = isinstance(live, str) and expected is not None
    match = checked and live == expected
    out["state_checked"], out["state_match"], out["state_disagrees"] = float(checked), float(match), 0.0
    if checked and task.writes and out["outcome_available"] and kwargs.get("state_outcome", True):
        old = out["outcome"]
        new = 1.0 if match else (0.0 if old >= 1.0 else old)
        if new != old:
            cfg = get_config(kwargs.get("config", kwargs.get("preset", extra.get("reward_config"))))
            out["outcome"], out["score"] = new, out["score"] + cfg.w_out * (new - old)
            out["state_disagrees"] = 1.0
    return out


# -- verl's tool YAML and the agent-loop YAML for a dataset ------------------------------------------
