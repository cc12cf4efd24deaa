"""The reward as an HTTP service (Starlette + uvicorn): ``toolground reward-serve``.

Routes: ``POST /score`` ``{"task", "trajectory", "config"?}``; ``POST /score/batch``
``{"items": [{"task" | "task_index", "trajectory", "config"?}], "tasks"?: [...], "config"?}`` (a
GRPO group can send its task once in ``tasks`` and point at it by index); ``POST /openrlhf`` in
OpenRLHF's shape ``{"query", "prompts", "labels"}`` -> ``{"rewards", "scores", "extra_logs"}``
(preset from ``?preset=``; ``?credit=1`` adds the ``calls_<label>`` counts to ``extra_logs``);
``GET /health`` (with the answering process's ``pid``). Every result of ``/score`` and ``/score/batch`` carries its details, the per-call
credit labels included (``details["calls"]``, ``"label_counts"``, ``"harm_checked"``).

Bad input is always a JSON 4xx ``{"error": "...", "detail": [{"loc", "msg"}]}``: 400 for bytes that
are not JSON (NaN and Infinity included), 413 past the body limit, 415 for a POST whose
Content-Type is not JSON, 421/403 for a Host/Origin outside ``serve``'s rules
(:mod:`rewards.http_guard`), 422 for JSON of the wrong shape (unknown fields, arguments that are
not objects, bad dependency indices, config numbers out of range...). In a batch a bad item
gets its own error and the rest are scored. Nothing returns a traceback; scoring runs in a
bounded thread pool so replay never blocks the event loop.
"""

from __future__ import annotations

import functools
import json
import math
import os
from collections.abc import Sequence
from typing import Any

import anyio
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from rewards import __version__
from rewards.adapters import openrlhf_scores
from rewards.config import PRESETS, RewardConfig, get_config
from rewards.errors import RewardInputError
from rewards.http_guard import HostOriginGuard
from rewards.parse import parse_trajectory
from rewards.replay import EnvPool
from rewards.score import score_prepared
from rewards.tasks import PreparedTask, prepare_task
from rewards.worlds import DEFAULT_MAX_WORLD_BYTES, DEFAULT_MAX_WORLDS, World

MAX_BODY = 8 * 1024 * 1024
MAX_ITEMS = 10_000

Spec = str | dict[str, Any] | None


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)


class ScoreRequest(_Strict):
    task: dict[str, Any] | str
    trajectory: list[Any] | dict[str, Any] | str
    config: Spec = None


class BatchRequest(_Strict):
    items: list[Any] = Field(min_length=1, max_length=MAX_ITEMS)
    tasks: list[Any] = Field(default_factory=list)
    config: Spec = None


class OpenRLHFRequest(_Strict):
    query: list[str] = Field(min_length=1, max_length=MAX_ITEMS)
    prompts: list[str] | None = None
    labels: list[dict[str, Any] | str]


class ApiError(Exception):
    def __init__(self, status: int, error: str, detail: list[dict[str, Any]] | None = None) -> None:
        super().__init__(error)
        self.status, self.error, self.detail = status, error, detail or []


def _error(status: int, error: str, detail: list[dict[str, Any]] | None = None) -> JSONResponse:
    return JSONResponse({"error": error, "detail": detail or []}, status_code=status)


def _reject_constant(name: str) -> Any:
    raise ApiError(400, f"{name} is not allowed: JSON numbers must be finite", [{"loc": [], "msg": name}])


def _finite_float(text: str) -> float:
    value = float(text)
    if math.isinf(value):  # 1e400 parses to inf
        raise ApiError(400, f"number {text[:40]} is out of range: JSON numbers must be finite")
    return value


def _is_json_type(value: str | None) -> bool:
    """``application/json`` or ``application/<x>+json``, with any parameters (``; charset=utf-8``)."""
    kind = (value or "").split(";", 1)[0].strip().lower()
    return kind == "application/json" or (kind.startswith("application/") and kind.endswith("+json"))


async def _read_json(request: Request, limit: int) -> Any:
    """The body as JSON, refusing oversize bodies before reading them when the length is declared.

    The content type must say JSON: a web page can send ``text/plain`` (or a form) cross-origin
    without a CORS preflight, so accepting it would let any page the user opens post here."""
    ctype = request.headers.get("content-type")
    if not _is_json_type(ctype):
        got = repr(ctype[:60]) if ctype is not None else "none"
        raise ApiError(
            415,
            f"Content-Type must be application/json, got {got}",
            [{"loc": ["header", "content-type"], "msg": "not application/json"}],
        )
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise ApiError(413, f"request body of {int(declared):,} bytes exceeds the {limit:,}-byte limit")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise ApiError(413, f"request body exceeds the {limit:,}-byte limit")
    if not body:
        raise ApiError(400, "empty request body; send a JSON object")
    try:
        return json.loads(bytes(body), parse_constant=_reject_constant, parse_float=_finite_float)
    except ApiError:
        raise
    except RecursionError:
        raise ApiError(400, "JSON nested too deeply") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise ApiError(400, f"malformed JSON: {exc}", [{"loc": [], "msg": str(exc)}]) from None


def _validate(model: type[BaseModel], data: Any, loc: list[Any] | None = None) -> Any:
    if not isinstance(data, dict):
        raise ApiError(
            422,
            f"expected a JSON object, got {type(data).__name__}",
            [{"loc": loc or [], "msg": "not an object"}],
        )
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        err = RewardInputError.from_validation("invalid request", exc, loc or [])
        raise ApiError(422, err.message, err.detail) from None


def _flag(value: str | None, name: str) -> bool:
    """A query-string switch: absent, 0/false/no/off or 1/true/yes/on."""
    if value is None:
        return False
    text = value.strip().lower()
    if text in ("1", "true", "yes", "on"):
        return True
    if text in ("", "0", "false", "no", "off"):
        return False
    raise ApiError(
        422, f"?{name}= must be 1 or 0 (true/false), got {value[:40]!r}", [{"loc": ["query", name]}]
    )


def _input_error(exc: RewardInputError, prefix: list[Any]) -> dict[str, Any]:
    return {"error": exc.message, "detail": [{**d, "loc": [*prefix, *d.get("loc", [])]} for d in exc.detail]}


_ITEM_KEYS = frozenset(("task", "task_index", "trajectory", "config"))


def _batch_item_fields(i: int, raw: Any) -> dict[str, Any]:
    """Check one batch item by hand (pydantic would copy every trajectory; this runs per rollout)."""
    loc: list[Any] = ["items", i]
    if not isinstance(raw, dict):
        raise ApiError(422, f"items[{i}]: expected a JSON object, got {type(raw).__name__}", [{"loc": loc}])
    unknown = sorted(set(raw) - _ITEM_KEYS)
    if unknown:
        raise ApiError(
            422,
            f"items[{i}]: unknown field(s) {', '.join(map(repr, unknown))}",
            [{"loc": [*loc, unknown[0]]}],
        )
    if "trajectory" not in raw:
        raise ApiError(422, f"items[{i}]: 'trajectory' is required", [{"loc": [*loc, "trajectory"]}])
    if ("task" in raw) == ("task_index" in raw):
        raise ApiError(422, f"items[{i}]: give exactly one of 'task' and 'task_index'", [{"loc": loc}])
    k = raw.get("task_index")
    if "task_index" in raw and (type(k) is not int or k < 0):
        raise ApiError(
            422, f"items[{i}]: task_index must be a non-negative integer", [{"loc": [*loc, "task_index"]}]
        )
    return raw


def _finite(result: dict[str, Any], loc: list[Any]) -> dict[str, Any]:
    """The result, or an error if a number in it is not finite (JSON cannot carry it).

    The config's bounds keep totals finite; this is the guard that a bad item still fails alone."""
    numbers = [result.get("total"), *result.get("components", {}).values()]
    if all(v is None or math.isfinite(v) for v in numbers):
        return result
    raise ApiError(
        422,
        "the score is not a finite number; lower the config's weights",
        [{"loc": loc, "msg": "score overflowed"}],
    )


class RewardService:
    """State shared by the routes: limits, the default preset, the replay pool and the thread limiter."""

    def __init__(self, *, max_body: int, default_preset: str, pool: EnvPool, workers: int) -> None:
        self.max_body = max_body
        self.default = get_config(default_preset)
        self.pool = pool
        self.limiter = anyio.CapacityLimiter(max(1, workers))

    def config(self, *specs: Spec) -> RewardConfig:
        for spec in specs:
            if spec is not None:
                return get_config(spec)
        return self.default

    def _score_one(self, req: ScoreRequest) -> dict[str, Any]:
        cfg = self.config(req.config)
        result = score_prepared(prepare_task(req.task), parse_trajectory(req.trajectory), cfg, self.pool)
        return _finite(result.as_dict(), ["config"])

    def _score_batch(self, req: BatchRequest) -> dict[str, Any]:
        shared: dict[int, PreparedTask | RewardInputError] = {}
        results: list[dict[str, Any]] = []
        for i, raw in enumerate(req.items):
            try:
                results.append(self._batch_item(i, raw, req, shared))
            except ApiError as exc:
                results.append({"error": exc.error, "detail": exc.detail})
            except RewardInputError as exc:
                results.append(_input_error(exc, ["items", i]))
        errors = sum(1 for r in results if "error" in r)
        return {"results": results, "errors": errors}

    def _batch_item(self, i: int, raw: Any, req: BatchRequest, shared: dict[int, Any]) -> dict[str, Any]:
        item = _batch_item_fields(i, raw)
        if "task_index" in item:
            task = self._shared_task(i, item["task_index"], req, shared)
        else:
            task = prepare_task(item["task"])
        cfg = self.config(item.get("config"), req.config)
        result = score_prepared(task, parse_trajectory(item["trajectory"]), cfg, self.pool)
        return _finite(result.as_dict(), ["items", i, "config"])

    @staticmethod
    def _shared_task(i: int, k: int, req: BatchRequest, shared: dict[int, Any]) -> PreparedTask:
        """Tasks sent once per batch are prepared once; a bad one fails only the items using it."""
        if k >= len(req.tasks):
            raise ApiError(
                422,
                f"items[{i}].task_index {k} is past the {len(req.tasks)} shared tasks",
                [{"loc": ["items", i, "task_index"]}],
            )
        if k not in shared:
            try:
                shared[k] = prepare_task(req.tasks[k])
            except RewardInputError as exc:
                shared[k] = exc
        task = shared[k]
        if isinstance(task, RewardInputError):
            raise task
        return task

    async def run(self, fn: Any, *args: Any) -> Any:
        return await anyio.to_thread.run_sync(fn, *args, limiter=self.limiter)

    # -- routes -------------------------------------------------------------------------
    async def score(self, request: Request) -> JSONResponse:
        req = _validate(ScoreRequest, await _read_json(request, self.max_body))
        return JSONResponse(await self.run(self._score_one, req))

    async def batch(self, request: Request) -> JSONResponse:
        req = _validate(BatchRequest, await _read_json(request, self.max_body))
        if req.config is not None:
            get_config(req.config)  # a bad batch-wide config is the whole request's fault
        return JSONResponse(await self.run(self._score_batch, req))

    async def openrlhf(self, request: Request) -> JSONResponse:
        req = _validate(OpenRLHFRequest, await _read_json(request, self.max_body))
        n = len(req.query)
        if len(req.labels) != n or (req.prompts is not None and len(req.prompts) != n):
            raise ApiError(422, f"query, prompts and labels must have the same length (query has {n})")
        cfg = self.config(request.query_params.get("preset"))
        credit = _flag(request.query_params.get("credit"), "credit")
        scores = functools.partial(openrlhf_scores, credit=credit, pool=self.pool)
        return JSONResponse(await self.run(scores, req.query, req.prompts, req.labels, cfg))

    async def health(self, request: Request) -> JSONResponse:
        return JSONResponse(
            {
                "status": "ok",
                "version": __version__,
                "default_preset": self.default.preset,
                "presets": {name: cfg.model_dump() for name, cfg in PRESETS.items()},
                "max_body_bytes": self.max_body,
                "pid": os.getpid(),  # which worker process answered (reward-serve --workers N, Ray replicas)
                "worlds": self.pool.world_health(),
            }
        )


def _guard(handler: Any) -> Any:
    async def endpoint(request: Request) -> JSONResponse:
        try:
            return await handler(request)
        except ApiError as exc:
            return _error(exc.status, exc.error, exc.detail)
        except RewardInputError as exc:
            return JSONResponse(_input_error(exc, []), status_code=422)
        except Exception as exc:  # never a traceback on the wire
            return _error(500, "internal error while scoring", [{"msg": type(exc).__name__}])

    return endpoint


async def _http_error(request: Request, exc: Exception) -> JSONResponse:
    status = getattr(exc, "status_code", 500)
    return _error(status, str(getattr(exc, "detail", "error")))


async def _server_error(request: Request, exc: Exception) -> JSONResponse:
    return _error(500, "internal error", [{"msg": type(exc).__name__}])


def create_app(
    *,
    max_body: int = MAX_BODY,
    default_preset: str = "prove",
    pool: EnvPool | None = None,
    workers: int = 4,
    allowed_hosts: Sequence[str] = (),
    worlds: Sequence[World] = (),
    build: bool = True,
    max_worlds: int = DEFAULT_MAX_WORLDS,
    max_world_mb: float = DEFAULT_MAX_WORLD_BYTES / 2**20,
) -> Starlette:
    """The Starlette app; ``pool`` lets tests and embedders reuse Environments they already built.

    ``allowed_hosts``: Host header values accepted beside the loopback names (``--allowed-host``).
    Without ``pool`` the app makes its own: ``worlds`` (domains, seed, scale) are built at once and
    always served; others are built when a task names them, at most ``max_worlds`` of them in
    ``max_world_mb`` MiB, unless ``build`` is False (:mod:`rewards.worlds`)."""
    if pool is None:
        pool = EnvPool(max_worlds=max_worlds, max_world_bytes=int(max_world_mb * 2**20), build=build)
        for domains, seed, scale in worlds:
            pool.preload(domains, seed, scale)
    svc = RewardService(max_body=max_body, default_preset=default_preset, pool=pool, workers=workers)
    routes = [
        Route("/score", _guard(svc.score), methods=["POST"]),
        Route("/score/batch", _guard(svc.batch), methods=["POST"]),
        Route("/openrlhf", _guard(svc.openrlhf), methods=["POST"]),
        Route("/health", _guard(svc.health), methods=["GET"]),
    ]
    return Starlette(
        routes=routes,
        exception_handlers={HTTPException: _http_error, Exception: _server_error},
        middleware=[Middleware(HostOriginGuard, allowed_hosts=list(allowed_hosts))],
    )
