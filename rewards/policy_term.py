"""The policy term: a rule of a domain's written policy broken in the episode costs the episode.

Not in the paper. PROVE's servers enforce every rule in their tools; a written policy
(:mod:`servers.kit.policy`) is the other case, where the service does what it is asked and
compliance is the agent's job. The replay the reward already makes finds every breach:

* in ``written`` mode a breaching call runs and logs a ``policy_breach`` row inside its own
  transaction, so the breach is in the replay's diff, and the call that made it in ``touched``;
* in ``enforced`` mode the call is refused with "Refused by policy rule N (slug)": the attempt
  is the breach (the agent tried what the policy forbids), read from the replayed error;
* a confirmation rule is about the conversation: a governed write made in the user turn the task
  marks as awaiting a yes (``Task.policy["confirm"]``) breaks it, whatever the state says.

``R_pol`` is -1 when any rule was broken and 0 otherwise, weighted by ``w_pol`` (0 in ``prove``,
1 in ``prove+policy``): one broken rule takes the episode down by more than the outcome term can
give back, however well its calls matched (``docs/reward.md``). The details name every rule.

Where the rule and the task disagree (a hand-written task whose own gold breaks a rule), the rule
wins: the episode is scored down all the same, and ``task_breaks`` names the rules the task's gold
broke so the task can be fixed. The generator never writes such a task: its gold is screened.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from rewards.replay import ReplayResult
from rewards.tasks import PreparedTask
from servers.kit.policy import BREACH_TABLE
from servers.registry import UnknownDomain, get_domain

_REFUSED = re.compile(r"^Refused by policy rule (\d+) \(([a-z0-9-]+)\): (.*?)\. The rule:", re.S)


@cache
def has_policy(domain: str) -> bool:
    try:
        return get_domain(domain).policy is not None
    except UnknownDomain:
        return False


def applies(task: PreparedTask) -> bool:
    """The task lives in at least one domain with a written policy (and can be replayed)."""
    return task.replayable and any(has_policy(s.domain) for s in task.snapshots)


def _breach_rows(diff: Any) -> dict[tuple[str, str], dict[str, Any]]:
    rows: dict[tuple[str, str], dict[str, Any]] = {}
    for c in diff:
        if c.get("table") == BREACH_TABLE and c.get("op") == "insert":
            rows.setdefault((c.get("domain", ""), c["pk"]), {})[c["column"]] = c["new"]
    return rows


def _domain_of(name: Any, domains: list[str]) -> str:
    if not isinstance(name, str):
        return ""
    return max((d for d in domains if name.startswith(d + "_")), key=len, default="")


def violations(replay: ReplayResult, names: list[Any], domains: list[str]) -> list[dict[str, Any]]:
    """Every broken rule of the replayed calls, in call order: which call, which rule, why."""
    rows = _breach_rows(replay.diff)
    out: list[dict[str, Any]] = []
    for i, (ok, value) in enumerate(zip(replay.status, replay.values, strict=True)):
        if ok:
            for domain, table, pk in replay.touched[i] if i < len(replay.touched) else ():
                row = rows.pop((domain, pk), None) if table == BREACH_TABLE else None
                if row is not None:
                    out.append(
                        _violation(i, names[i], domain, row["rule"], row["slug"], row["detail"], "done")
                    )
        elif isinstance(value, str) and (m := _REFUSED.match(value)):
            domain = _domain_of(names[i], domains)
            out.append(_violation(i, names[i], domain, int(m.group(1)), m.group(2), m.group(3), "refused"))
    for (domain, _), row in sorted(rows.items()):  # a breach no call claimed (never expected)
        out.append(_violation(None, row.get("tool"), domain, row["rule"], row["slug"], row["detail"], "done"))
    return out


def _violation(
    call: int | None, tool: Any, domain: str, rule: int, slug: str, detail: str, how: str
) -> dict[str, Any]:
    return {
        "call": call,
        "tool": tool,
        "domain": domain,
        "rule": rule,
        "slug": slug,
        "detail": detail,
        "how": how,
    }


def task_breaks(task: PreparedTask) -> list[str]:
    """Rules the task's own expected changes break (``domain rule N (slug)``): a task at odds with
    the policy."""
    rows = _breach_rows(task.expected_diff)
    return sorted({f"{d} rule {r['rule']} ({r['slug']})" for (d, _), r in rows.items()})


def unconfirmed(task: PreparedTask, calls: list[Any]) -> list[dict[str, Any]]:
    """Calls to a tool a confirmation rule governs, made in the turn the user had not said yes yet."""
    out = []
    for i, c in enumerate(calls):
        for turn, label, tools in task.confirm:
            if c.name in tools and turn in (-1, c.turn):
                domain, _, rest = label.partition(" rule ")
                number, _, slug = rest.partition(" ")
                detail = "called before the user confirmed the change"
                out.append(
                    _violation(i, c.name, domain, int(number), slug.strip("()"), detail, "unconfirmed")
                )
    return out


def policy_term(task: PreparedTask, replay: ReplayResult, calls: list[Any]) -> tuple[float, dict[str, Any]]:
    """(R_pol, details): -1 when the calls broke a rule, 0 when they kept every one."""
    names = [c.name for c in calls]
    found = violations(replay, names, [s.domain for s in task.snapshots]) + unconfirmed(task, calls)
    found.sort(key=lambda v: (v["call"] is None, v["call"] or 0))
    details: dict[str, Any] = {
        "violations": found,
        "rules_broken": sorted({f"{v['domain']} rule {v['rule']} ({v['slug']})" for v in found}),
    }
    disagree = task_breaks(task)
    if disagree:
        details["task_breaks"] = disagree
        details["decision"] = (
            "the rule wins: the task's own gold breaks it, the episode is scored by the rule"
        )
    return (-1.0 if found else 0.0), details
