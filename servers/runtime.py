"""An environment: some domains at a seed and scale, their snapshots, and live episodes.

This is the in-process door. The MCP server, the query generator and the
reward all call tools through :meth:`Environment.call`, which validates
arguments with the tool's own model and runs the tool atomically in the
episode's fork of its domain. Tool names are always ``<domain>_<tool>`` so a
task written against one server configuration means the same in any other.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from servers.kit import Domain, ToolCrash, ToolError, ToolSpec
from servers.registry import get_domain, parse_domains
from state import Episode, EpisodeStore, Fork, Snapshot, SnapshotCache, check_scale


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
    """Domains + seed + scale: the tools, the snapshots, and the episode store."""

    def __init__(
        self,
        domains: str | Iterable[str | Domain] = "all",
        *,
        seed: int = 0,
        scale: str = "medium",
        cache: SnapshotCache | None = None,
        max_sessions: int = 10_000,
        idle_ttl: float = 1800.0,
        variants: Mapping[str, str] | None = None,
        lax_arguments: bool = False,
    ) -> None:
        if isinstance(domains, str):
            self.domains = parse_domains(domains)
        else:
            self.domains = [get_domain(d) if isinstance(d, str) else d for d in domains]
        self.variants = dict(sorted((variants or {}).items()))
        self._by_name = {d.name: d for d in self.domains}
        for name, variant in self.variants.items():
            self.check_variant(name, variant)
        self.seed = seed
        self.scale = check_scale(scale)
        self.lax_arguments = lax_arguments  # coerce "5" and true to numbers, as pydantic's lax mode does
        self.cache = cache
        self.tools: dict[str, ToolSpec] = {}
        for d in self.domains:
            for spec in d.tools.values():
                self.tools[spec.qualified_name] = spec
        self._snapshots: dict[str, Snapshot] | None = None
        self._now: dict[str, str] = {}
        self.store = EpisodeStore(self.snapshots, max_sessions=max_sessions, idle_ttl=idle_ttl)

    def snapshots(self) -> dict[str, Snapshot]:
        """Built (or loaded from the cache) on first use, then shared by every episode.

        A domain given a variant at construction starts every episode in that variant."""
        if self._snapshots is None:
            self._snapshots = {d.name: self.snapshot(d.name, self.variants.get(d.name)) for d in self.domains}
        return self._snapshots

    def check_variant(self, domain: str, variant: str | None) -> None:
        """Raise ToolError naming what exists when the domain or its variant is unknown."""
        d = self._by_name.get(domain)
        if d is None:
            raise ToolError(f"domain {domain!r} is not served here; served: {', '.join(self._by_name)}")
        if variant is not None and variant not in d.variants:
            allowed = ", ".join(sorted(d.variants)) or "none"
            raise ToolError(f"domain {domain!r} has no variant {variant!r}; its variants: {allowed}")

    def snapshot(
        self, domain: str, variant: str | None = None, *, seed: int | None = None, scale: str | None = None
    ) -> Snapshot:
        """One domain's snapshot at this seed and scale (or the ones given), or one of its variants.

        Another seed or scale is what a task generated elsewhere may name; it is built (or loaded
        from the cache) on demand, so the caller must compare its sha256 with what it expects."""
        self.check_variant(domain, variant)
        seed = self.seed if seed is None else seed
        scale = self.scale if scale is None else check_scale(scale)
        return self._by_name[domain].snapshot(seed, scale, self.cache, variant=variant)

    def open(self, variants: Mapping[str, str] | None = None) -> Episode:
        """A private episode that is not kept in the store (for in-process use).

        ``variants`` starts some domains in a named initial state (``{"trading": "market_closed"}``)."""
        snaps = dict(self.snapshots())
        for name, variant in (variants or {}).items():
            snaps[name] = self.snapshot(name, variant)
        return Episode(snaps)

    def reset(self, episode: Episode, variants: Mapping[str, str | None] | None = None) -> None:
        """Back to the snapshots; domains named in ``variants`` restart in that variant (None: the base)."""
        snaps = {}
        for name, variant in (variants or {}).items():
            episode.fork(name)
            snaps[name] = self.snapshot(name, variant)
        episode.reset(snaps)

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
        args = spec.validate(arguments, strict=not self.lax_arguments)
        fork = episode.fork(spec.domain)
        episode.calls += 1
        now = self._reference_moment(fork)
        return fork.run(lambda conn: spec.run(conn, args, now), writes=not spec.read_only)

    def reference_moment(self, fork: Fork) -> str:
        """The snapshot's "now", as the tools running on ``fork`` see it."""
        return self._reference_moment(fork)

    def _reference_moment(self, fork: Fork) -> str:
        """The snapshot's "now" (a variant may move it), read once per snapshot, not once per call."""
        key = fork.snapshot.sha256
        now = self._now.get(key)
        if now is None:
            with fork.reading() as conn:  # no tool writes _meta, so any fork of it agrees
                now = self._now[key] = conn.execute("SELECT value FROM _meta WHERE key = 'now'").fetchone()[0]
        return now

    def call(self, episode: Episode, name: str, arguments: Any) -> CallResult:
        """Like :meth:`invoke` but never raises for a failed call."""
        try:
            return CallResult(name, arguments, True, self.invoke(episode, name, arguments))
        except ToolError as exc:
            return CallResult(name, arguments, False, error=str(exc), crashed=isinstance(exc, ToolCrash))
