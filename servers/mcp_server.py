"""Serving an Environment over MCP (streamable HTTP or stdio).

Each kit tool becomes one MCP tool with the kit's flat schema and truthful
annotations; calls go through :meth:`Environment.invoke`, so MCP and
in-process callers validate identically. State is keyed on an explicit
env-session id (see :func:`env_session_id`) because the sessionless MCP era
has no stable session. Operator endpoints live under ``/admin`` (see
:mod:`servers.admin`) and are never MCP tools, so a policy cannot reset or
inspect its own episode.
"""

from __future__ import annotations

import json
from typing import Any

from fastmcp import FastMCP
from fastmcp.exceptions import ToolError as McpToolError
from fastmcp.resources import TextResource
from fastmcp.server.context import Context
from fastmcp.server.dependencies import get_context, get_http_headers, get_http_request
from fastmcp.tools import Tool, ToolResult
from mcp.types import ToolAnnotations
from pydantic import PrivateAttr

from servers.ids import VALID_ID
from servers.kit import ToolError, ToolSpec
from servers.runtime import Environment
from state import Episode, EpisodeUnavailable

ENV_HEADER = "x-env-session"
ENV_QUERY = "env_session"
# the env sessions a server derives from handshake-era MCP session ids: a namespace of their own,
# which no client can name (else knowing another client's Mcp-Session-Id would open its episode)
MCP_DERIVED = "mcp:"
STDIO_ENV_SESSION = "stdio"


class NoEnvSession(McpToolError):
    pass


def _check_id(value: str, source: str) -> str:
    if not VALID_ID.match(value):
        raise NoEnvSession(
            f"invalid env session id from {source}: use 1-128 characters from letters, digits and ._:@/+=-"
        )
    if value.startswith(MCP_DERIVED):
        raise NoEnvSession(
            f"invalid env session id from {source}: the prefix 'mcp:' is reserved for the env sessions "
            "the server derives from handshake-era MCP sessions, which only their own MCP session "
            "reaches; name your env session without it"
        )
    return value


def client_may_name(value: str) -> bool:
    """Whether a client may send ``value`` as its env session (the lean path's test of it)."""
    return VALID_ID.match(value) is not None and not value.startswith(MCP_DERIVED)


def env_session_id() -> str:
    """Which episode this request belongs to.

    Order: the ``X-Env-Session`` header, the ``?env_session=`` URL parameter,
    the request's ``_meta.env_session``, then the handshake-era
    ``Mcp-Session-Id`` (an SSE connection's id carries the serving shard's
    tag, see :class:`EnvMcp`). Over stdio the process is the env session, so a
    client that sends nothing shares one episode per process.
    """
    ctx = get_context()
    try:
        request = get_http_request()
    except RuntimeError:
        request = None
    if request is not None:
        header = get_http_headers(include={ENV_HEADER}).get(ENV_HEADER)
        if header:
            return _check_id(header, "the X-Env-Session header")
        query = request.query_params.get(ENV_QUERY)
        if query:
            return _check_id(query, "the env_session URL parameter")
    rc = ctx.request_context
    meta = rc.meta if rc is not None else None
    meta_id = getattr(meta, "env_session", None) if meta is not None and not isinstance(meta, dict) else None
    if isinstance(meta, dict):
        meta_id = meta.get("env_session")
    if meta_id is None and meta is not None and hasattr(meta, "model_extra"):
        meta_id = (meta.model_extra or {}).get("env_session")
    if meta_id:
        return _check_id(str(meta_id), "_meta.env_session")
    if request is None:
        return STDIO_ENV_SESSION
    if not ctx._is_modern_protocol() and ctx.session_id:
        sid = ctx.session_id
        tag = _session_tag(ctx)
        if tag and not sid.startswith(tag):  # an SSE connection's own uuid
            sid = tag + sid.replace("-", "")
        return MCP_DERIVED + sid
    raise NoEnvSession(
        "no env session: send an X-Env-Session header, add ?env_session=<id> to the URL, "
        "or put env_session in the request _meta (a handshake-era client's Mcp-Session-Id also works)"
    )


class EnvTool(Tool):
    """One kit tool served over MCP, running in the caller's episode."""

    _env: Environment = PrivateAttr()
    _spec: ToolSpec = PrivateAttr()

    @classmethod
    def of(
        cls,
        env: Environment,
        spec: ToolSpec,
        *,
        description: str | None = None,
        parameters: dict[str, Any] | None = None,
    ) -> EnvTool:
        """The tool as served; a task-bound env session lists it with the task's own ``description`` and
        ``parameters`` (enums stripped, say), while calls still validate against the tool itself."""
        tool = cls(
            name=spec.qualified_name,
            description=spec.description if description is None else description,
            parameters=spec.input_schema() if parameters is None else parameters,
            annotations=ToolAnnotations(**spec.annotations()),
            tags={spec.domain, "read" if spec.read_only else "write"},
        )
        tool._env, tool._spec = env, spec
        return tool

    def episode(self) -> Episode:
        try:
            return self._env.store.get(env_session_id())
        except EpisodeUnavailable as exc:
            raise McpToolError(str(exc)) from None

    async def run(self, arguments: dict[str, Any]) -> ToolResult:
        episode = self.episode()
        episode.touch()
        try:
            value = self._env.invoke(episode, self._spec.qualified_name, arguments)
        except ToolError as exc:
            raise McpToolError(str(exc)) from None
        structured = value if isinstance(value, dict) else {"result": value}
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)
        return ToolResult(content=text, structured_content=structured)


class EnvMcp(FastMCP):
    """The FastMCP server of one environment, knowing the tag of the shard that runs it.

    A shard of a scaled-out server mints handshake-era MCP session ids that name it
    (``shard2.<32 hex>``, :func:`servers.scale.shard.mint_mcp_session_ids`), so that a gateway
    sends their later requests back to it. An SSE connection's session id is a uuid the SDK makes
    elsewhere, so :func:`env_session_id` puts the same tag before it. The tag belongs to the server
    object rather than the module, so two servers in one process never share it."""

    def __init__(self, *args: Any, session_tag: str = "", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.session_tag = session_tag


def _session_tag(ctx: Context) -> str:
    """The tag of the server answering this request ("" for a lone server)."""
    server = ctx.fastmcp
    return server.session_tag if isinstance(server, EnvMcp) else ""


def build_mcp(env: Environment, *, name: str = "toolground", session_tag: str = "") -> EnvMcp:
    """A FastMCP server exposing every visible tool of the environment.

    ``session_tag`` is a shard's tag (``"shard2."``, from :func:`servers.scale.shard.mcp_session_tag`);
    a lone server leaves it empty."""
    domains = ", ".join(d.name for d in env.domains)
    mcp = EnvMcp(
        name,
        session_tag=session_tag,
        instructions=(
            f"Simulated services: {domains}. Tool names are <domain>_<tool>. State is private to your env "
            "session (X-Env-Session header, ?env_session= URL parameter or _meta.env_session)."
        ),
        mask_error_details=True,
    )
    for spec in env.visible_tools():
        mcp.add_tool(EnvTool.of(env, spec))
    for d in env.domains:
        if d.policy is not None:
            mcp.add_resource(
                TextResource(
                    uri=f"policy://{d.name}",
                    name=f"{d.name} policy",
                    description=f"{d.policy.title}: the rules to follow when acting for a user "
                    f"(also the {d.name}_get_policy tool, which says whether the service enforces them)",
                    mime_type="text/markdown",
                    text=d.policy.markdown(),
                )
            )
    return mcp
