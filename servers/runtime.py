"""An environment: some domains at a seed and scale, their snapshots, and live episodes.

This is the in-process door. The MCP server, the query generator and the
reward all call tools through :meth:`Environment.call`, which validates
arguments with the tool's own model and runs the tool atomically in the
episode's fork of its domain. Tool names are always ``<domain>_<tool>`` so a
task written against one server configuration means the same in any other.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from servers.kit import Domain, ToolCrash, ToolError, ToolSpec
from servers.registry import get_domain, parse_domains
from state import Episode, SessionStore, Snapshot, SnapshotCache, check_scale


@dataclass(frozen=True)
class CallResult:
    """What one tool call did: a JSON-able value, or the error the agent sees."""

    name: str
    arguments: Any
    ok: bool
    value: Any = None
    error: str | None = None
    crashed: bool = False  # the tool hit a bug (ToolCrash), not a rule

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "arguments": self.arguments,
            "ok": self.ok,
            "value": self.value,
            "error": self.error,
        }


class Environment:
    """Domains + seed + scale: the tools, the snapshots, and the session store."""

    def __init__(
        self,
        domains: str | Iterable[str | Domain] = "all",
        *,
        seed: int = 0,
        scale: str = "medium",
        cache: SnapshotCache | None = None,
        max_sessions: int = 10_000,
        idle_ttl: float = 1800.0,
    ) -> None:
        if isinstance(domains, str):
            self.domains = parse_domains(domains)
        else:
            self.domains = [get_domain(d) if isinstance(d, str) else d for d in domains]
        self.seed = seed
        self.scale = check_scale(scale)
        self.cache = cache
        self.tools: dict[str, ToolSpec] = {}
        for d in self.domains:
            for spec in d.tools.values():
                self.tools[spec.qualified_name] = spec
        self._snapshots: dict[str, Snapshot] | None = None
        self.store = SessionStore(self.snapshots, max_sessions=max_sessions, idle_ttl=idle_ttl)

    def snapshots(self) -> dict[str, Snapshot]:
        """Built (or loaded from the cache) on first use, then shared by every episode."""
        if self._snapshots is None:
            self._snapshots = {d.name: d.snapshot(self.seed, self.scale, self.cache) for d in self.domains}
        return self._snapshots

    def open(self) -> Episode:
        """A private episode that is not kept in the store (for in-process use)."""
        return Episode(self.snapshots())

    def visible_tools(self) -> list[ToolSpec]:
        return [t for t in self.tools.values() if not t.hidden]

    def openai_tools(self, *, strip_enums: bool = False) -> list[dict[str, Any]]:
        return [t.openai_schema(strip_enums=strip_enums) for t in self.visible_tools()]

    def spec(self, name: str, *, include_hidden: bool = False) -> ToolSpec:
        spec = self.tools.get(name)
        if spec is None or (spec.hidden and not include_hidden):
            names = sorted(t.qualified_name for t in self.visible_tools())
            close = [n for n in names if name and (name in n or n.endswith("_" + name))][:5]
            hint = f" Did you mean: {', '.join(close)}?" if close else f" {len(names)} tools are available."
            raise ToolError(f"unknown tool {name!r}.{hint}")
        return spec

    def invoke(self, episode: Episode, name: str, arguments: Any, *, include_hidden: bool = False) -> Any:
        """Validate and run one call; raises ToolError with the agent-facing message.

        Hidden helper tools are only reachable in-process with ``include_hidden``.
        """
        spec = self.spec(name, include_hidden=include_hidden)
        args = spec.validate(arguments)
        session = episode.session(spec.domain)
        episode.calls += 1
        return session.run(lambda conn: spec.run(conn, args), writes=not spec.read_only)

    def call(self, episode: Episode, name: str, arguments: Any) -> CallResult:
        """Like :meth:`invoke` but never raises for a failed call."""
        try:
            return CallResult(name, arguments, True, self.invoke(episode, name, arguments))
        except ToolError as exc:
            return CallResult(name, arguments, False, error=str(exc), crashed=isinstance(exc, ToolCrash))
