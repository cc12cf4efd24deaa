"""What a declared policy adds to its domain: the breach log table, the guards, ``get_policy``.

Kept apart from :mod:`servers.kit.policy` (the rules themselves) because these pieces reach into
the domain's table registry and tool list, which the rules never need.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from sqlalchemy.orm import Mapped, mapped_column

from servers.kit.db import Db
from servers.kit.policy import BREACH_TABLE, Policy, mode_of


def add_breach_table(base: Any) -> type:
    """The ``policy_breach`` log of a written-mode episode: one row per rule a call broke.

    Internal (no discovery tool lists it) and append-only; the reward reads it from the diff."""

    class PolicyBreach(base, prefix="PB", internal=True, append_only=True):
        __tablename__ = BREACH_TABLE

        id: Mapped[str] = mapped_column(primary_key=True)
        rule: Mapped[int]
        slug: Mapped[str]
        tool: Mapped[str]
        detail: Mapped[str]

    return PolicyBreach


def attach_policy(domain: Any, policy: Policy) -> None:
    """Give every governed tool its guards and the domain a ``get_policy`` tool."""
    tools = domain._tools
    for rule in policy.rules:
        unknown = [t for t in rule.tools if t not in tools]
        if unknown:
            raise ValueError(
                f"{domain.name} policy {rule.label} governs unknown tools {unknown}; tools: {', '.join(sorted(tools))}"
            )
        readers = [t for t in rule.tools if rule.check is not None and tools[t].read_only]
        if readers:
            raise ValueError(
                f"{domain.name} policy {rule.label} checks read-only tools {readers}: a breach is logged "
                "in the call's own write, so a checked rule governs write tools only"
            )
    for name, spec in list(tools.items()):
        guards = policy.guards(name)
        if guards:  # a written-mode breach is logged by the call itself: the log is one of its writes
            writes = spec.writes if BREACH_TABLE in spec.writes else (*spec.writes, BREACH_TABLE)
            tools[name] = dataclasses.replace(spec, guards=guards, writes=writes)

    def get_policy(db: Db) -> dict:
        """The service's written policy: the numbered rules to follow when acting for a user."""
        return {
            "title": policy.title,
            "mode": mode_of(db),
            "policy": policy.markdown(),
            "rules": [r.as_dict() for r in policy.rules],
        }

    get_policy.__annotations__ = {"db": Db, "return": dict}
    domain.tool(says=("what is the policy here?", "show me the service policy"), idempotent=True)(get_policy)
