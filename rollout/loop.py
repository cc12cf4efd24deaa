"""One multi-turn episode of a model on a task: the rollout loop every eval and trainer runs.

The conversation is kept in canonical OpenAI form whatever the harness: the harness renders it
into its wire format for each request and parses the model's reply back. So the scores of
different harnesses are computed from the same kind of trajectory, and a malformed reply is a
call the reward sees as invalid (with an error result the model can react to), never a crash.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from contract.harnesses import Harness
from contract.task import Task
from rewards.config import RewardConfig, get_config
from rewards.replay import EnvPool
from rewards.score import score
from rollout.episode import error_content
from rollout.model import Completion, ModelRefused, TransportFailure
from rollout.session import SessionError, ToolSession
from rollout.success import judge

LABELS = ("matched", "out_of_order", "invalid", "redundant", "harmful", "unneeded")


class Policy:
    """Anything that answers a chat-completions body with an assistant message (a ModelClient)."""

    async def complete(self, body: dict[str, Any]) -> Completion:  # pragma: no cover - protocol
        raise NotImplementedError


@dataclass
class Rollout:
    """What happened in one episode, before scoring."""

    history: list[dict[str, Any]] = field(default_factory=list)
    status: str = "ok"
    error: str | None = None
    steps: int = 0
    usage: dict[str, int] = field(default_factory=lambda: {"prompt_tokens": 0, "completion_tokens": 0})


async def _turn(
    task: Task, harness: Harness, policy: Policy, session: ToolSession, out: Rollout, max_steps: int
) -> bool:
    """Run the current user turn to the model's answer; False when the step limit cut it short."""
    system = task.system_prompt
    for _ in range(max_steps):
        completion = await policy.complete(harness.request(system, task.tools, out.history))
        out.steps += 1
        for k, v in completion.usage.items():
            out.usage[k] = out.usage.get(k, 0) + v
        parsed = harness.parse(completion.message, out.steps)
        out.history.append(parsed.message())
        if not parsed.calls:
            return True
        for c in parsed.calls:
            if c.error is not None or c.arguments is None or not c.name:
                content = error_content(f"the tool call could not be read: {c.error or 'no tool name'}")
            else:
                content = (await session.acall(c.name, c.arguments)).content
            out.history.append({"role": "tool", "tool_call_id": c.id, "content": content})
    return False


async def roll_out(
    task: Task, harness: Harness, policy: Policy, session: ToolSession, *, max_steps: int = 10
) -> Rollout:
    """Every user turn in order, each answered by the model within ``max_steps`` requests."""
    out = Rollout(history=list(task.history))  # a turn-level task shows its earlier turns first
    try:
        for turn in task.turns:
            out.history.append({"role": "user", "content": turn.user})
            if not await _turn(task, harness, policy, session, out, max_steps):
                out.status, out.error = "step_limit", f"no answer within {max_steps} steps of a turn"
                break
    except TransportFailure as exc:
        out.status, out.error = "transport_error", str(exc)
    except ModelRefused as exc:
        out.status, out.error = "model_error", str(exc)
    except SessionError as exc:
        out.status, out.error = "task_error", str(exc)
    return out


async def evaluate(
    task: Task,
    harness: Harness,
    policy: Policy,
    session: ToolSession,
    *,
    preset: RewardConfig | str,
    pool: EnvPool,
    max_steps: int = 10,
) -> dict[str, Any]:
    """Roll out, read the final state, score: one results row (no timings, so reruns compare equal)."""
    out = await roll_out(task, harness, policy, session, max_steps=max_steps)
    final: str | None = None
    try:
        final = await session.astate_hash()
    except SessionError as exc:
        out.status, out.error = "task_error", str(exc)
    finally:
        await session.aclose()
    row = _row_head(task, harness, policy, preset, out)
    if out.status in ("ok", "step_limit"):
        own = out.history[len(task.history) :]  # the earlier turns are context, not the model's
        messages = [{"role": "system", "content": task.system_prompt}, *own]
        result = score(task, messages, preset, pool=pool)
        details = result.details
        counts = details.get("label_counts") or {}
        row.update(
            score=result.total,
            components=result.components,
            labels=details.get("calls", []),
            label_counts={k: int(counts.get(k, 0)) for k in LABELS},
            n_calls=int(details.get("n_calls", 0)),
            state_match=_state_match(task, final),
        )
        needed = get_config(preset).answer_facts
        row.update(judge(task, own, out.status, row["state_match"], needed))
    return row


def refused(
    task: Task, harness: Harness, policy: Policy, preset: RewardConfig | str, error: str
) -> dict[str, Any]:
    """The row of a task that could not be run at all (its world is not available)."""
    return _row_head(task, harness, policy, preset, Rollout(status="task_error", error=error))


def _state_match(task: Task, final: str | None) -> bool | None:
    if task.expected_state_hash is None:
        return None
    if final is None:  # nothing reached the world: it is still the snapshot
        return not task.expected_diff
    return final == task.expected_state_hash


def own_domains(task: Task) -> list[str]:
    """The task's own domains: its domains less those only its distractor tools come from (a task
    offered three banking tools beside its issue tracker is an issue-tracker task)."""
    knobs = task.metadata.get("knobs") if isinstance(task.metadata.get("knobs"), dict) else {}
    distractors = [str(n) for n in knobs.get("distractors") or ()]
    used = {c.name for c in (*task.setup, *task.gold_calls())}

    def of(names: Any) -> set[str]:
        return {d for d in task.domains for n in names if n.startswith(d + "_")}

    foreign = of(distractors) - of(used)
    if task.domains and task.domains[0] in foreign:  # the generator lists the task's domain first
        foreign.discard(task.domains[0])
    return [d for d in task.domains if d not in foreign] or list(task.domains)


def _row_head(task: Task, harness: Harness, policy: Policy, preset: Any, out: Rollout) -> dict[str, Any]:
    return {
        "task_id": task.id,
        "domains": list(task.domains),
        "own_domains": own_domains(task),
        "kind": task.kind,
        "chain_length": len(task.gold_calls()),
        "n_turns": len(task.turns),
        "harness": harness.name,
        "model": getattr(policy, "model", type(policy).__name__),
        "preset": preset if isinstance(preset, str) else preset.preset,
        "status": out.status,
        "error": out.error,
        "score": None,
        "components": None,
        "labels": [],
        "label_counts": dict.fromkeys(LABELS, 0),
        "n_calls": sum(len(m.get("tool_calls") or []) for m in out.history),
        "n_gold": len(task.gold_calls()),
        "state_match": None,
        "success": None,
        "checks": [],
        "steps": out.steps,
        "usage": out.usage,
        "messages": [{"role": "system", "content": task.system_prompt}, *out.history],
    }
