"""Put an Environment on the wire: the HTTP app (MCP + /admin + /health) and stdio."""

from __future__ import annotations

import ipaddress
from collections.abc import Sequence

from starlette.requests import Request
from starlette.responses import JSONResponse

from servers.admin import admin_routes
from servers.lean import LeanMcp
from servers.mcp_server import build_mcp
from servers.runtime import Environment

MCP_PATH = "/mcp"


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
):
    """The ASGI app: ``/mcp``, ``/admin/...`` and ``/health``.

    Host and Origin headers are checked on every route (DNS-rebinding
    protection): loopback names always pass, anything else must be listed.
    ``lean`` answers 2026-era ``tools/call`` and ``tools/list`` in front of the
    MCP stack (:mod:`servers.lean`); ``lean=False`` is the plain fastmcp path.
    """
    mcp = build_mcp(env)
    for route in admin_routes(env, admin_token):
        mcp.custom_route(route.path, methods=sorted(route.methods - {"HEAD"}))(route.endpoint)

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
            }
        )

    full = mcp.http_app(
        path=MCP_PATH,
        json_response=True,
        stateless_http=stateless,
        host_origin_protection=True,
        allowed_hosts=list(allowed_hosts or []),
        allowed_origins=list(allowed_origins or []),
    )
    if not lean:
        return full
    return LeanMcp(
        env,
        full,
        path=MCP_PATH,
        server_info=mcp._mcp_server.server_info_stamp,
        allowed_hosts=list(allowed_hosts or []),
        allowed_origins=list(allowed_origins or []),
    )


def run_stdio(env: Environment) -> None:
    env.snapshots()
    build_mcp(env).run(transport="stdio", show_banner=False)
