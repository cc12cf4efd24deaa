"""Errors a caller can fix: each names the problem and where it is (``loc``), never a traceback.

The service turns them into 422 responses with the same ``detail`` list, the CLI into exit
status 2, and the Python API simply raises them.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError


class RewardInputError(ValueError):
    """Bad input to the reward: a malformed task, trajectory or config."""

    def __init__(self, message: str, detail: list[dict[str, Any]] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.detail = detail or [{"loc": [], "msg": message}]

    @classmethod
    def from_validation(cls, message: str, exc: ValidationError, prefix: list[Any]) -> RewardInputError:
        """Keep pydantic's locations and messages, drop its URLs and echoed inputs."""
        detail = [
            {"loc": [*prefix, *err["loc"]], "msg": err["msg"], "type": err["type"]}
            for err in exc.errors(include_url=False, include_input=False, include_context=False)
        ]
        first = detail[0] if detail else {"loc": prefix, "msg": message}
        where = ".".join(str(x) for x in first["loc"])
        return cls(f"{message}: {where}: {first['msg']}", detail)


class TaskError(RewardInputError):
    """The task cannot be scored against (bad shape, bad dependency indices, unknown domain)."""


class TrajectoryError(RewardInputError):
    """The trajectory does not follow any accepted shape (the caller's structure, not the model's output)."""


class ConfigError(RewardInputError):
    """Unknown preset or invalid override."""


class SnapshotMismatch(TaskError):
    """The snapshot rebuilt from (domain, seed, scale) is not the one the task was generated on."""
