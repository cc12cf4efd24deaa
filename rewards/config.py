"""Reward configuration: the paper's weights and knobs, and every open-point switch, as presets.

A config is validated once (pydantic, unknown keys refused) and then only read, so the
hot path never touches pydantic. Five presets exist:

* ``prove`` — the paper exactly (Eq. 5 weights 0.5/0.5/0.15/0.2/0.1, alpha = beta = 0.5), the default.
* ``prove+outcome`` — the same plus the state-outcome term (weight ``w_out`` = 0.5).
* ``prove+policy`` — ``prove+outcome`` plus the policy term (``w_pol`` = 1): breaking a rule of a
  domain's written policy costs the episode 1, whatever else it got right.
* ``recall`` — coverage alone: the recall baseline the paper argues against.
* ``prove+paths`` — ``prove+policy`` whose call matching pays every right path (``rewards/paths.py``):
  a lookup matched by any read that found the same row, writes that reach the expected state
  counted as the gold's. The preset to train with; ``prove`` stays the paper's exact matching.

Anything else is a preset plus overrides, e.g. ``{"preset": "prove", "efficiency_clip": -1}``.
Every weight and knob is a finite number within +-``BOUND`` (1e6; ``answer_facts`` at most 1000), so
no config can make a total overflow to infinity.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from rewards.errors import ConfigError

# Every number of a config is bounded, not only finite: two weights of 1e308 are finite each but
# sum to infinity, and beta = 1e308 overflows the call budget. With |value| <= 1e6 and trajectories
# capped by the request body, every total stays a finite float (|total| well under 1e30).
BOUND = 1e6
MAX_FACTS = 1000


class RewardConfig(BaseModel):
    """Weights and switches of the reward; see ``docs/reward.md`` for why each default is what it is."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)

    preset: str = Field("prove", description="the preset these values started from (informational)")
    w_val: float = Field(0.5, ge=-BOUND, le=BOUND, description="weight of graduated validity")
    w_cov: float = Field(0.5, ge=-BOUND, le=BOUND, description="weight of dependency-aware coverage (Eq. 1)")
    w_eff: float = Field(
        0.15, ge=-BOUND, le=BOUND, description="weight of the adaptive efficiency penalty (Eq. 2)"
    )
    w_name: float = Field(0.2, ge=-BOUND, le=BOUND, description="weight of tool-name precision (Eq. 3)")
    w_arg: float = Field(0.1, ge=-BOUND, le=BOUND, description="weight of argument-value matching (Eq. 4)")
    w_out: float = Field(
        0.0, ge=-BOUND, le=BOUND, description="weight of the state-outcome term (not in the paper)"
    )
    w_pol: float = Field(
        0.0,
        ge=0,
        le=BOUND,
        description="weight of the policy term: cost of breaking a written policy rule (not in the paper)",
    )
    alpha: float = Field(0.5, ge=0, le=BOUND, description="efficiency penalty strength")
    beta: float = Field(0.5, ge=0, le=BOUND, description="slack fraction of the call budget")
    efficiency_clip: float | None = Field(
        None, ge=-BOUND, le=0, description="lower bound for R_eff (None: unbounded, as in the paper)"
    )
    validity_mode: Literal["gated", "independent"] = Field(
        "gated", description="gated: a level counts only if the levels below it pass"
    )
    exec_unknown: Literal["pass", "fail"] = Field(
        "pass", description="level 3 when neither tool results nor a snapshot can tell: pass = schema-valid"
    )
    exec_check: Literal["replay", "trajectory"] = Field(
        "replay",
        description="level 3 of a call whose result reads as a success: replay = confirmed on the task's "
        "snapshot (however the trainer wrote the result), trajectory = taken as written (no replay)",
    )
    prereq_unmatched: Literal["fail", "pass"] = Field(
        "fail", description="o(g) when a prerequisite of g is unmatched"
    )
    order_by: Literal["position", "step"] = Field(
        "position", description="Eq. 1 order: output position (paper) or assistant message (step)"
    )
    arg_normalize: bool = Field(
        False, description="compare argument values after normalisation (case, whitespace, numeric strings)"
    )
    abstain_reward: float = Field(
        1.0, ge=-BOUND, le=BOUND, description="reward of a correct abstention (G empty, no call)"
    )
    replay: Literal["auto", "never"] = Field(
        "auto", description="auto: replay on the task's snapshot when a weighted term needs it"
    )
    collateral_penalty: float = Field(
        0.5, ge=0, le=BOUND, description="outcome penalty per collateral row, relative to the gold rows"
    )
    answer_facts: int = Field(
        3, ge=1, le=MAX_FACTS, description="facts a read-only answer must carry for full credit"
    )
    paths: bool = Field(
        False,
        description="credit any right path: a lookup matched by any read that found the same row, writes "
        "that reach the expected state counted as the gold's (rewards/paths.py)",
    )

    @property
    def max_total(self) -> float:
        """The best total a non-abstention trajectory can reach (used to scale 0-1 scores)."""
        return self.w_val + self.w_cov + self.w_name + self.w_arg + max(self.w_out, 0.0)


PRESETS: dict[str, RewardConfig] = {
    "prove": RewardConfig(preset="prove"),
    "prove+outcome": RewardConfig(preset="prove+outcome", w_out=0.5),
    "prove+policy": RewardConfig(preset="prove+policy", w_out=0.5, w_pol=1.0),
    "recall": RewardConfig(preset="recall", w_val=0.0, w_cov=1.0, w_eff=0.0, w_name=0.0, w_arg=0.0),
    "prove+paths": RewardConfig(preset="prove+paths", w_out=0.5, w_pol=1.0, paths=True),
}
DEFAULT_PRESET = "prove"


def get_config(spec: RewardConfig | str | dict[str, Any] | None = None) -> RewardConfig:
    """Resolve ``None`` / a preset name / a dict of overrides / a config into a config.

    Presets are shared objects, so resolving a name costs a dict lookup.
    """
    if spec is None:
        return PRESETS[DEFAULT_PRESET]
    if isinstance(spec, RewardConfig):
        return spec
    if isinstance(spec, str):
        try:
            return PRESETS[spec]
        except KeyError:
            alias = spec.strip().lower().replace(" ", "+").replace("_", "+").replace("-", "+")
            if alias in PRESETS:  # "prove+outcome" arrives as "prove outcome" in a query string
                return PRESETS[alias]
            raise ConfigError(
                f"unknown preset {spec!r}; presets: {', '.join(PRESETS)}",
                [{"loc": ["config"], "msg": f"unknown preset {spec!r}"}],
            ) from None
    if not isinstance(spec, dict):
        raise ConfigError(
            f"config must be a preset name or an object, got {type(spec).__name__}",
            [{"loc": ["config"], "msg": "expected a string or an object"}],
        )
    base = get_config(spec.get("preset", DEFAULT_PRESET))
    try:
        return RewardConfig.model_validate({**base.model_dump(), **spec})
    except ValidationError as exc:
        err = ConfigError.from_validation("invalid reward config", exc, ["config"])
        for d in err.detail:
            d["msg"] = _with_range(d)
        first = err.detail[0]
        where = ".".join(str(x) for x in first["loc"])
        raise ConfigError(f"invalid reward config: {where}: {first['msg']}", err.detail) from None


def _with_range(detail: dict[str, Any]) -> str:
    """A bound error says the whole range allowed, not only the side that was crossed."""
    field = RewardConfig.model_fields.get(str(detail["loc"][-1]))
    if field is None or detail.get("type") not in ("less_than_equal", "greater_than_equal"):
        return str(detail["msg"])
    lo = next((m.ge for m in field.metadata if getattr(m, "ge", None) is not None), None)
    hi = next((m.le for m in field.metadata if getattr(m, "le", None) is not None), None)
    return f"out of range; allowed: at least {lo:g} and at most {hi:g}"
