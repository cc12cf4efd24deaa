"""Written policies: numbered rules a service states, checks it can run, and two ways to hold them.

Most simulated services enforce their rules inside the tools. A customer-service desk works
the other way: the agent is handed a policy ("basic economy reservations cannot be changed",
"verify the caller's identity first") and the system does whatever it is asked. A domain
declares such a policy once::

    airline.policy_document("# Airline service policy\\n\\nYou are an agent of ...", mode="written")

    @airline.rule("basic-economy", tools=["change_reservation_flights", "change_reservation_cabin"])
    def basic_economy_is_final(db: Db, tool: str, args: dict) -> str | None:
        \"\"\"Basic economy reservations cannot be modified.\"\"\"
        r = db.get(Reservation, args["reservation_id"])
        return f"reservation {r['id']} is basic economy" if r["cabin"] == "basic_economy" else None

The rule's docstring is its text in the policy document (numbered in declaration order); its
function says why one call would break it, or ``None``. A :class:`Near` verdict allows the call
but marks it as close to the rule's edge (booked 23 h ago against a 24 h window), which the
query generator uses for near-edge tasks. A precondition rule ("verify the caller first") also
names its ``remedy``: the call that would make the breached call compliant
(``("verify_user", {"user_id": ..., "email": ...})``), which the generator puts before it.

A rule may also name the ``reads`` that show its facts (the reservation, the customer's bills):
the generator's gold makes them before a governed call, or before refusing one, so a refusal
cites only what the conversation has seen. And it may name an ``offer``: the compliant call the
agent proposes instead of a breaching one (the same change with the late fee charged, the most
a cap allows), made only after the user says yes; a rule with an offer is never simply refused.

A snapshot holds the policy in one of two modes (``_meta.policy_mode``; the domain's default,
and a variant for the other):

* ``enforced`` — a call a rule forbids is refused with a :class:`PolicyRefusal` naming the rule,
  and nothing changes;
* ``written`` — the call runs, and the breach is logged in the ``policy_breach`` table inside
  the call's own transaction, so the final state of the episode says which rules were broken.

Confirmation rules ("obtain an explicit yes before any change") concern the conversation, not
one call; they have no check here and are judged by the reward from the turn each call was
made in.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from servers.kit.db import Db
from servers.kit.errors import ToolError

POLICY_MODES = ("enforced", "written")
MODE_KEY = "policy_mode"
BREACH_TABLE = "policy_breach"

Check = Callable[[Db, str, dict[str, Any]], "str | None"]
# the call (a tool of the same domain, its arguments) that makes a breached call compliant
Remedy = Callable[[Db, str, dict[str, Any]], "tuple[str, dict[str, Any]] | None"]
# the reads (tool, arguments) whose results show the facts a rule judges one call by
Reads = Callable[[Db, str, dict[str, Any]], "list[tuple[str, dict[str, Any]]]"]


class Near(str):
    """An allowed call close to a rule's edge; the text says how close ("booked 23 h ago")."""


class PolicyRefusal(ToolError):
    """A call an enforced policy forbids: the error names the rule's number and slug."""

    def __init__(self, message: str, rule: Rule) -> None:
        super().__init__(message)
        self.rule = rule


@dataclass(frozen=True)
class Rule:
    """One numbered rule of a policy."""

    number: int
    slug: str
    text: str
    tools: tuple[str, ...]
    check: Check | None = None
    # conversation rules: a call to one of ``tools`` needs an explicit yes from the user first
    confirm: bool = False
    # precondition rules ("verify the caller first"): the call that satisfies the rule
    remedy: Remedy | None = None
    # the reads that establish the rule's facts: what a careful agent looks at before it acts or refuses
    reads: Reads | None = None
    # what the agent may offer instead of a breaching call, with the user's yes: the same tool with
    # amended arguments (the late fee charged) or another call that meets the goal within the rule
    offer: Remedy | None = None

    @property
    def label(self) -> str:
        return f"rule {self.number} ({self.slug})"

    def verdict(self, db: Db, tool: str, args: dict[str, Any]) -> str | None:
        """Why this call breaks the rule (a plain string), a :class:`Near` if it is allowed but
        close to the edge, or ``None``."""
        if self.check is None or tool not in self.tools:
            return None
        return self.check(db, tool, args)

    def as_dict(self) -> dict[str, Any]:
        return {"number": self.number, "slug": self.slug, "text": self.text, "tools": list(self.tools)}


@dataclass
class Policy:
    """A domain's policy document: a markdown preamble, then its numbered rules."""

    domain: str
    preamble: str
    mode: str
    rules: list[Rule] = field(default_factory=list)

    @property
    def title(self) -> str:
        first = self.preamble.strip().splitlines()[0] if self.preamble.strip() else ""
        return first.lstrip("# ").strip() or f"{self.domain} policy"

    def markdown(self) -> str:
        """The document agents read: the preamble, then ``1. text`` per rule."""
        lines = [self.preamble.strip(), "", "## Rules", ""]
        lines += [f"{r.number}. {r.text}" for r in self.rules]
        return "\n".join(lines).strip() + "\n"

    def rule(self, key: int | str) -> Rule:
        for r in self.rules:
            if key in (r.number, r.slug):
                return r
        raise KeyError(
            f"{self.domain} policy has no rule {key!r}; rules: {', '.join(r.slug for r in self.rules)}"
        )

    def guards(self, tool: str) -> tuple[Rule, ...]:
        """The checked rules a call to ``tool`` must pass."""
        return tuple(r for r in self.rules if r.check is not None and tool in r.tools)

    def confirmations(self) -> tuple[Rule, ...]:
        return tuple(r for r in self.rules if r.confirm)

    def verdicts(self, db: Db, tool: str, args: dict[str, Any]) -> list[tuple[Rule, str]]:
        """Every rule's verdict on one call that has one (breaches and :class:`Near` marks)."""
        out = []
        for r in self.guards(tool):
            why = r.verdict(db, tool, args)
            if why:
                out.append((r, why))
        return out

    def add(
        self,
        slug: str,
        text: str,
        tools: Iterable[str],
        check: Check | None = None,
        confirm: bool = False,
        remedy: Remedy | None = None,
        reads: Reads | None = None,
        offer: Remedy | None = None,
    ) -> Rule:
        if not re.fullmatch(r"[a-z][a-z0-9-]{0,39}", slug):
            raise ValueError(f"rule slug {slug!r}: use lowercase letters, digits and hyphens")
        if any(r.slug == slug for r in self.rules):
            raise ValueError(f"{self.domain} policy already has a rule {slug!r}")
        tools = tuple(tools)
        if not tools:
            raise ValueError(f"rule {slug}: name the tools it governs")
        if not text:
            raise TypeError(f"rule {slug}: the rule needs its text (the function's docstring)")
        rule = Rule(len(self.rules) + 1, slug, text, tools, check, confirm, remedy, reads, offer)
        self.rules.append(rule)
        return rule


def rule_text(fn: Callable[..., Any]) -> str:
    return " ".join(inspect.cleandoc(fn.__doc__ or "").split())


def mode_of(db: Db) -> str:
    """The snapshot's policy mode (``written`` when a snapshot predates policies)."""
    return db.scalar("SELECT value FROM _meta WHERE key = ?", MODE_KEY) or "written"


def refusal(rule: Rule, why: str) -> str:
    return f"Refused by policy {rule.label}: {why}. The rule: {rule.text}"


def judge(guards: tuple[Rule, ...], db: Db, tool: str, args: dict[str, Any]) -> list[tuple[Rule, str]]:
    """The breaches of one call before it runs: raises :class:`PolicyRefusal` in enforced mode,
    returns them (to be logged once the call has succeeded) in written mode."""
    breaches = []
    for r in guards:
        why = r.verdict(db, tool, args)
        if why and not isinstance(why, Near):
            breaches.append((r, str(why)))
    if breaches and mode_of(db) == "enforced":
        first, why = breaches[0]
        raise PolicyRefusal(refusal(first, why), first)
    return breaches


def log_breaches(db: Db, tool: str, breaches: list[tuple[Rule, str]]) -> None:
    for r, why in breaches:
        last = db.scalar(f'SELECT max(id) FROM "{BREACH_TABLE}"')
        number = int(last.rsplit("-", 1)[1]) + 1 if last else 1
        db.execute(
            f'INSERT INTO "{BREACH_TABLE}" (id, rule, slug, tool, detail) VALUES (?, ?, ?, ?, ?)',
            f"PB-{number:05d}",
            r.number,
            r.slug,
            tool,
            why,
        )
