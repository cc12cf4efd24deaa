"""SkyRL (``skyrl-gym``) text environment on toolground tasks: ``BaseTextEnv`` over a task episode.

SkyRL's generator hands an environment the model's raw text (``step(action: str)``) and wants
back the next messages, a reward and whether the episode ended (``BaseTextEnvStepOutput``). One
environment is made per trajectory from the dataset row (``extras``), so it owns one
:class:`~rollout.conversation.Conversation` over the row's task session (in process unless
``register`` is given another session factory): the task's world, its offered tools, its later
user turns. The model speaks Hermes (``<tool_call>{...}</tool_call>``, tool results back as
``<tool_response>`` blocks in a user message, failures as ``{"error": ...}``); an answer without
calls moves to the next user turn, and the last one ends the episode with the reward of the whole
conversation (``Conversation.score``, preset from the env config).

``skyrl_gym`` is imported lazily (``ToolgroundEnv`` is built on first access), so this module
imports without it. ``register()`` makes ``env_class: toolground`` rows use it.
"""

from __future__ import annotations

from typing import Any

from contract.harnesses import HermesHarness, text_of
from contract.load import load_task_cached
from rollout.conversation import Conversation
from rollout.session import InProcess, Sessions

ENV_ID = "toolground"
DEFAULT_MAX_TURNS = 16  # model replies allowed per episode (gold tasks need at most 7 per turn)


def ground_truth_of(extras: dict[str, Any]) -> Any:
    """The row's task: SkyRL's ``reward_spec.ground_truth``, the verl parquet's ``reward_model``,
    or ``ground_truth`` / ``task`` at the top."""
    for key in ("reward_spec", "reward_model"):
        spec = extras.get(key)
        if isinstance(spec, dict) and spec.get("ground_truth") is not None:
            return spec["ground_truth"]
    for key in ("ground_truth", "task"):
        if extras.get(key) is not None:
            return extras[key]
    raise ValueError("the row carries no toolground task (reward_spec.ground_truth)")


def _setting(env_config: Any, name: str, default: Any) -> Any:
    if env_config is None:
        return default
    if isinstance(env_config, dict):
        return env_config.get(name, default)
    return getattr(env_config, name, default)


def _env_class() -> type:
    from skyrl_gym.envs.base_text_env import BaseTextEnv, BaseTextEnvStepOutput

    class ToolgroundEnv(BaseTextEnv):  # type: ignore[misc]
        """One toolground task as a SkyRL text environment (``env_config``: ``preset``,
        ``max_turns``; ``extras``: the dataset row; ``sessions``: where the tools run, from
        :func:`register`)."""

        def __init__(
            self,
            env_config: Any = None,
            extras: dict[str, Any] | None = None,
            sessions: Sessions | None = None,
        ) -> None:
            super().__init__()
            row = extras or {}
            self.episode = Conversation((sessions or InProcess())(load_task_cached(ground_truth_of(row))))
            self.harness = HermesHarness()
            self.preset = _setting(env_config, "preset", "prove+outcome")
            self.max_turns = int(row.get("max_turns") or _setting(env_config, "max_turns", DEFAULT_MAX_TURNS))
            self.result: Any = None

        def init(self, prompt: Any) -> tuple[list[dict[str, Any]], dict[str, Any]]:
            """The task's own prompt, its exact offered tools in the system message (Hermes)."""
            first = [{"role": "user", "content": self.episode.user_message()}]
            messages = self.harness.request(self.episode.system, self.episode.task.tools, first)["messages"]
            return messages, {"task_id": self.episode.task.id}

        def step(self, action: str) -> Any:
            self.turns += 1
            message = self.harness.parse({"role": "assistant", "content": action}, self.turns).message()
            following = self.episode.step(message)
            calls = bool(message.get("tool_calls"))
            done = self.episode.done or self.turns >= self.max_turns
            if done:
                self.result = self.episode.score(preset=self.preset)
                return BaseTextEnvStepOutput(
                    observations=[], reward=self.result.total, done=True, metadata=self.get_metrics()
                )
            if calls:  # every result in one user message, as Hermes templates render them
                blocks = [f"<tool_response>\n{text_of(m['content'])}\n</tool_response>" for m in following]
                following = [{"role": "user", "content": "\n".join(blocks)}]
            return BaseTextEnvStepOutput(observations=following, reward=0.0, done=False, metadata={})

        def get_metrics(self) -> dict[str, Any]:
            out: dict[str, Any] = {"calls": self.episode.session.calls, "turns": self.turns}
            match = self.episode.session.state_matches()
            out["state_match"] = None if match is None else float(match)
            if self.result is not None:
                out.update(self.result.flat())
            return out

        def close(self) -> None:
            self.episode.session.close()

    ToolgroundEnv.__module__ = __name__
    ToolgroundEnv.__qualname__ = "ToolgroundEnv"
    return ToolgroundEnv


def register(env_id: str = ENV_ID, sessions: Sessions | None = None) -> None:
    """Make ``skyrl_gym.make(env_id, env_config=..., extras=row)`` build a :class:`ToolgroundEnv`
    whose tools run on ``sessions`` (default: in this process; e.g. ``McpSessions(url)``)."""
    import skyrl_gym

    if env_id not in skyrl_gym.registry:
        kwargs = {} if sessions is None else {"sessions": sessions}
        skyrl_gym.register(id=env_id, entry_point=f"{__name__}:ToolgroundEnv", kwargs=kwargs)


_BUILT: dict[str, type] = {}


def __getattr__(name: str) -> Any:
    if name != "ToolgroundEnv":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    if name not in _BUILT:
        _BUILT[name] = _env_class()
    return _BUILT[name]
