"""Put an Environment on the wire: the HTTP app (MCP, SSE, /admin, /health) and stdio."""

from __future__ import annotations

import ipaddress
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import fastmcp
from starlette.requests import Request
from starlette.responses import JSONResponse

from servers.admin import admin_routes, image_body_limit
from servers.binding import BindableTask, Binder, BindingMiddleware
from servers.inbound import InboundGuard
from servers.lean import ASGIApp, LeanMcp, Receive, Scope, Send
from servers.mcp_server import build_mcp
from servers.runtime import Environment

MCP_PATH = "/mcp"
SSE_PATH = "/sse"


class WithSse:
    """``/sse`` and its message endpoint from the SSE app, everything else (lifespan too) from ``main``.

    The SSE app needs no lifespan of its own: it runs the same server, whose lifespan ``main``
    already runs. Each app keeps its own Host/Origin guard."""

    def __init__(self, main: ASGIApp, sse: ASGIApp, *, sse_path: str, message_path: str) -> None:
        self.main = main
        self.sse = sse
        self.sse_path = sse_path
        self.message_path = message_path.rstrip("/")  # the stream's first event points clients here

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "") if scope["type"] == "http" else ""
        if path == self.sse_path or path == self.message_path or path.startswith(self.message_path + "/"):
            await self.sse(scope, receive, send)
        else:
            await self.main(scope, receive, send)


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def build_http_app(
    env: Environment,
    *,
    admin_token: str | None = None,
    allowed_hosts: Sequence[str] | None = None,
    allowed_origins: Sequence[str] | None = None,
    stateless: bool = False,
    lean: bool = True,
    tasks: Mapping[str, BindableTask] | None = None,
    health_extra: Callable[[], dict[str, Any]] | None = None,
    session_tag: str = "",
    body_timeout: float | None = None,
) -> Any:
    """The ASGI app: ``/mcp``, ``/sse`` (+ ``/messages/``), ``/admin/...`` and ``/health``.

    Host and Origin headers are checked on every route (DNS-rebinding protection): loopback names
    always pass, anything else must be listed. ``lean`` answers 2026-era ``tools/call`` and
    ``tools/list`` in front of the MCP stack (:mod:`servers.lean`); ``lean=False`` is the plain
    fastmcp path. ``tasks`` (by id) are what an ``X-Env-Task`` header can bind an env session to;
    ``health_extra`` adds a shard's own facts to ``/health`` under ``"shard"``, and ``session_tag`` is
    the shard's tag for the ids of SSE connections (:attr:`ShardCustodian.session_tag`; "" alone).
    Every request passes an :class:`~servers.inbound.InboundGuard` first: header values trimmed, the
    body bounded in size (4 MiB; an episode's bytes sent to ``/admin/sessions/<id>/import``
    with the admin token, 512 MiB) and time (``body_timeout`` s, default ``$TOOLGROUND_BODY_TIMEOUT`` or 10).
    """
    mcp = build_mcp(env, session_tag=session_tag)
    binder = Binder(env, tasks)
    mcp.add_middleware(BindingMiddleware(binder))
    for route in admin_routes(env, admin_token, binder):
        mcp.custom_route(route.path, methods=sorted(route.methods - {"HEAD"}))(route.endpoint)

    _add_health(mcp, env, binder, health_extra)

    guard = {
        "host_origin_protection": True,
        "allowed_hosts": list(allowed_hosts or []),
        "allowed_origins": list(allowed_origins or []),
    }
    streamable = mcp.http_app(path=MCP_PATH, json_response=True, stateless_http=stateless, **guard)
    sse = mcp.http_app(path=SSE_PATH, transport="sse", **guard)
    full = WithSse(streamable, sse, sse_path=SSE_PATH, message_path=fastmcp.settings.message_path)
    limit_for = image_body_limit(admin_token)  # an episode's bytes (a fork across shards) are larger
    if not lean:
        return InboundGuard(full, body_timeout=body_timeout, limit_for=limit_for)
    return LeanMcp(
        env,
        full,
        path=MCP_PATH,
        server_info=mcp._mcp_server.server_info_stamp,
        allowed_hosts=guard["allowed_hosts"],
        allowed_origins=guard["allowed_origins"],
        binder=binder,
        body_timeout=body_timeout,
        limit_for=limit_for,
    )


def _add_health(
    mcp: Any, env: Environment, binder: Binder, extra: Callable[[], dict[str, Any]] | None
) -> None:
    """``GET /health``: what is served and how much is live; a shard adds its own facts (``extra``)."""

    @mcp.custom_route("/health", methods=["GET"])
    async def health(request: Request) -> JSONResponse:
        return JSONResponse(
            {
                "status": "ok",
                "domains": [d.name for d in env.domains],
                "tools": len(env.visible_tools()),
                "seed": env.seed,
                "scale": env.scale,
                "sessions": len(env.store),
                "tasks": len(binder.tasks),
                **({"shard": extra()} if extra is not None else {}),
            }
        )


def run_stdio(env: Environment) -> None:
    env.snapshots()
    build_mcp(env).run(transport="stdio", show_banner=False)
