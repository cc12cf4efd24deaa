"""What every per-domain rule test needs: calls bound to one domain, a refused call that must leave
the episode exactly as it was, and the episode's rows and changes to check successes against."""

from __future__ import annotations

from typing import Any

import pytest

from servers.kit import Db, ToolError


class DomainCalls:
    """``call``, ``fails``, ``rows`` and ``one`` for the tools and tables of one domain."""

    def __init__(self, domain: str) -> None:
        self.domain = domain

    def call(self, env: Any, ep: Any, tool: str, **args: Any) -> Any:
        return env.invoke(ep, f"{self.domain}_{tool}", args)

    def fails(self, env: Any, ep: Any, tool: str, match: str, **args: Any) -> str:
        """The call is refused with an explained error and leaves the episode exactly as it was."""
        before_hash, before_diff = ep.state_hash(), ep.diff()
        with pytest.raises(ToolError, match=match) as info:
            self.call(env, ep, tool, **args)
        assert ep.state_hash() == before_hash
        assert ep.diff() == before_diff
        return str(info.value)

    def rows(self, ep: Any, sql: str, *params: Any) -> list[dict]:
        with ep.fork(self.domain).reading() as conn:
            return Db(conn).all(sql, *params)

    def one(self, ep: Any, sql: str, *params: Any) -> dict:
        found = self.rows(ep, sql, *params)
        assert found, f"no row for: {sql}"
        return found[0]


def changes(ep: Any) -> dict[tuple[str, str, str], dict]:
    """The episode's changed cells by (table, primary key, column)."""
    return {(c["table"], c["pk"], c["column"]): c for c in ep.diff()}


def funded_accounts(env: Any, minimum: float = 200) -> list[str]:
    """Open banking accounts holding at least ``minimum``: sources the reward tests can move money from."""
    rows = env.invoke(
        env.open(),
        "banking_list_records",
        {"table": "accounts", "field": "status", "value": "open", "limit": 100},
    )["rows"]
    return [r["id"] for r in rows if r["balance"] >= minimum]


def transfer(src: str, dst: str, amount: float) -> tuple[str, dict]:
    return ("banking_transfer", {"source": src, "target": dst, "amount": amount})
