"""The operator API under ``/admin``: inspect, reset and release episodes.

These routes are for the trainer or evaluator that owns the rollouts, never
for the policy, which is why they are plain HTTP and not MCP tools. When a
token is configured every request must carry ``Authorization: Bearer <token>`` (the scheme in
any case, as RFC 9110 11.1 has it: ``bearer`` passes too).
"""

from __future__ import annotations

import asyncio
import json
import re
import resource
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from servers.auth import bearer_matches
from servers.binding import Binder, BindRefused, parse_task
from servers.forking import Brancher, ForkRefused, fork_target
from servers.ids import ID_RULE, VALID_ID
from servers.kit import ToolError
from servers.runtime import Environment
from state import EpisodeUnavailable, NotHeld, combine_hashes
from state.transfer import MEDIA_TYPE, ImageError

Handler = Callable[[Request], Awaitable[Response]]
IMPORT_ROUTE = re.compile(r"^/admin/sessions/.+/import$")
IMAGE_MAX_BODY = 512 * 2**20  # an episode's bytes: every domain it wrote, each a whole database


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def _variants_in(request: Request) -> dict[str, str | None] | Response:
    """The ``variants`` of a reset request's JSON body (an empty body means none)."""
    body = await request.body()
    if not body.strip():
        return {}
    try:
        data = json.loads(body)
    except ValueError:
        return _error(400, 'reset body must be JSON: {"variants": {"<domain>": "<variant>" or null}}')
    variants = data.get("variants", {}) if isinstance(data, dict) else None
    if not isinstance(variants, dict) or not all(
        isinstance(k, str) and (v is None or isinstance(v, str)) for k, v in variants.items()
    ):
        return _error(400, '"variants" must map domain names to a variant name or null')
    return variants


class AdminApi:
    """The operator routes of one environment's episode store (and its task bindings): a method
    per route, each guarded by the admin token and the store's refusals."""

    def __init__(self, env: Environment, token: str | None, binder: Binder | None = None) -> None:
        self.env, self.token, self.binder = env, token, binder or Binder(env)
        self.brancher = Brancher(env, self.binder)

    def routes(self) -> list[Route]:
        g = self.guarded
        return [
            Route("/admin/sessions", g(self.list_sessions), methods=["GET"]),
            Route("/admin/sessions/{sid:path}/state", g(self.state), methods=["GET"]),
            Route("/admin/sessions/{sid:path}/diff", g(self.diff), methods=["GET"]),
            Route("/admin/sessions/{sid:path}/reset", g(self.reset), methods=["POST"]),
            Route("/admin/sessions/{sid:path}/bind", g(self.bind), methods=["POST"]),
            Route("/admin/sessions/{sid:path}/fork", g(self.fork), methods=["POST"]),
            Route("/admin/sessions/{sid:path}/export", g(self.export), methods=["GET"]),
            Route("/admin/sessions/{sid:path}/import", g(self.import_), methods=["POST"]),
            Route("/admin/sessions/{sid:path}", g(self.release), methods=["DELETE"]),
            Route("/admin/tools", g(self.tools), methods=["GET"]),
            Route("/admin/snapshots", g(self.snapshots), methods=["GET"]),
        ]

    def guarded(self, fn: Handler) -> Handler:
        """``fn`` behind the bearer token, with the store's refusals as 404 / 503 JSON errors."""

        async def handler(request: Request) -> Response:
            if self.token is not None and not bearer_matches(
                request.headers.get("authorization", ""), self.token
            ):
                return _error(
                    401,
                    "admin API needs 'Authorization: Bearer <token>' with the server's admin token "
                    "(the scheme in any case)",
                )
            try:
                return await fn(request)
            except NotHeld as exc:
                return _error(404, str(exc))
            except (ForkRefused, BindRefused) as exc:
                return _error(exc.status, str(exc))
            except ImageError as exc:
                return _error(400, str(exc))
            except EpisodeUnavailable as exc:  # full, owned by another shard, or lost in a restart
                return _error(exc.status, str(exc))

        return handler

    def episode(self, request: Request):
        return self.env.store.get(request.path_params["sid"], create=False)

    async def list_sessions(self, request: Request) -> Response:
        store = self.env.store
        evicted = store.evict_idle()
        stats = store.stats()
        stats["evicted_now"] = evicted
        stats["process_max_rss_bytes"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
        stats["ids"] = store.ids()[:1000]
        return JSONResponse(stats)

    async def state(self, request: Request) -> Response:
        """``?domains=a,b`` hashes only those domains: compare it with a task's expected_state_hash."""
        ep = self.episode(request)
        hashes = ep.domain_hashes()
        wanted = [d.strip() for d in request.query_params.get("domains", "").split(",") if d.strip()]
        unknown = sorted(set(wanted) - set(hashes))
        if unknown:
            return _error(400, f"domains {unknown} are not served here; served: {sorted(hashes)}")
        out = {
            "id": request.path_params["sid"],
            "hash": combine_hashes({n: hashes[n] for n in wanted} if wanted else hashes),
            "domains": hashes,
            "snapshot": ep.identity(),
            "calls": ep.calls,
        }
        bound = self.binder.binding(ep)
        if bound is not None:
            out["task"] = bound.task_id
        return JSONResponse(out)

    async def diff(self, request: Request) -> Response:
        changes = self.episode(request).diff()
        return JSONResponse({"id": request.path_params["sid"], "count": len(changes), "changes": changes})

    async def reset(self, request: Request) -> Response:
        """Body (optional): ``{"variants": {"trading": "market_closed"}}``; null restores the base.

        An id that has no episode yet gets one, so an evaluator can start an episode in a variant
        before its first call; nothing is created when the body is refused."""
        variants = await _variants_in(request)
        if isinstance(variants, Response):
            return variants
        try:
            for domain, variant in variants.items():
                self.env.check_variant(domain, variant)
            ep = self.env.store.get(request.path_params["sid"], renew=True)
            self.binder.reset(ep, variants)
        except ToolError as exc:
            return _error(400, str(exc))
        except EpisodeUnavailable as exc:
            return _error(exc.status, str(exc))
        sid = request.path_params["sid"]
        return JSONResponse({"id": sid, "reset": True, "hash": ep.state_hash(), "snapshot": ep.identity()})

    async def bind(self, request: Request) -> Response:
        """Body: a task, or a dataset row whose ``ground_truth`` is one. The env session (created if
        new, its episode replaced if not) lists the task's tools and runs in the task's world."""
        sid = request.path_params["sid"]
        if not VALID_ID.match(sid):
            return _error(400, ID_RULE)
        try:
            binding = await self.binder.prepare_async(parse_task(await request.body()))
            ep = self.binder.install(sid, binding)
        except BindRefused as exc:
            return _error(exc.status, str(exc))
        except EpisodeUnavailable as exc:
            return _error(exc.status, str(exc))
        return JSONResponse(self.binder.describe(sid, ep, binding))

    async def fork(self, request: Request) -> Response:
        """Body ``{"to": "<new id>"}``: the new env session is a copy of this one as it is now (its
        writes, task binding, variants and call count); the two then diverge. 404 unknown source,
        409 live target, 400 bad body or id."""
        target = fork_target(await request.body())
        return JSONResponse(self.brancher.fork(request.path_params["sid"], target))

    async def export(self, request: Request) -> Response:
        """The env session as bytes (``state/transfer.py``): what a gateway carries to the shard
        that owns a fork's target; ``import`` on any server with the same snapshots takes it."""
        body = self.brancher.export(request.path_params["sid"])
        return Response(body, media_type=MEDIA_TYPE)

    async def import_(self, request: Request) -> Response:
        """Body: an episode's bytes from ``export``; this id becomes that episode (409 if live)."""
        body = await request.body()
        out: dict[str, Any] = await asyncio.to_thread(
            self.brancher.import_image, request.path_params["sid"], body
        )
        return JSONResponse(out)

    async def release(self, request: Request) -> Response:
        sid = request.path_params["sid"]
        if not self.env.store.release(sid):
            return _error(404, f"no env session {sid!r}")
        return JSONResponse({"id": sid, "released": True})

    async def tools(self, request: Request) -> Response:
        return JSONResponse({"tools": self.env.openai_tools()})

    async def snapshots(self, request: Request) -> Response:
        """The worlds served (compare with a task's ``snapshots``) and each domain's named variants."""
        env = self.env
        return JSONResponse(
            {
                "snapshots": {name: snap.identity() for name, snap in sorted(env.snapshots().items())},
                "variants": {d.name: sorted(d.variants) for d in env.domains},
            }
        )


def image_body_limit(token: str | None) -> Callable[[dict[str, Any]], int | None]:
    """The body limit of requests that carry an episode's bytes (``POST .../import``), which
    outgrow the 4 MiB every other request has: only with the admin token, when one is set, so an
    unauthenticated client cannot make a server read 512 MiB before refusing it. For
    :class:`~servers.inbound.InboundGuard`'s ``limit_for``."""

    def limit(scope: dict[str, Any]) -> int | None:
        if scope.get("method") != "POST" or not IMPORT_ROUTE.match(scope.get("path", "")):
            return None
        if token is not None:
            given = next((v for k, v in scope.get("headers", ()) if k == b"authorization"), b"")
            if not bearer_matches(given.decode("latin-1"), token):
                return None
        return IMAGE_MAX_BODY

    return limit


def admin_routes(env: Environment, token: str | None, binder: Binder | None = None) -> list[Route]:
    """Routes bound to one environment's episode store (and its task bindings)."""
    return AdminApi(env, token, binder).routes()
