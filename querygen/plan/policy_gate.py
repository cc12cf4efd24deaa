"""Policy-gated tasks: what a domain's written policy makes of one drafted write.

Before the gold builder runs a write that a policy rule governs, the rules judge it on the live
state of the episode:

* a **precondition** rule it breaks but names a remedy for (verify the caller first) gets the
  remedy run just before it, as a gold call of its own: the task teaches the habit;
* a rule it breaks that names an **offer** (the same change with the late fee, the most a cap
  allows) makes it an **alternative**: the agent reads what shows the rule applies, explains, and
  proposes the compliant call; the user's yes is a turn of its own and the offered call answers it;
* a rule it breaks with neither makes it **forbidden**: the call is not run, the user still
  asks for it, and the right answer reads what shows the rule applies, then refuses and explains;
* a :class:`~servers.kit.policy.Near` verdict (booked 23 h ago, the window is 24 h) lets it run
  and marks the task **near_edge**: the same request a little further on would be refused;
* a write a **confirmation** rule governs splits its turn: the agent states the change and asks,
  the user says yes in a turn of their own, and only then is the write a gold call.

Every rule that judges the call and declares its ``reads`` has those reads made first (the facts
the decision rests on, unless the conversation already read them), allowed or not: a gold that
acts, or refuses, on facts no call showed would teach guessing.

The marks go into the task's ``Task.policy`` so datasets can be filtered by them and the
reward's policy term knows which rules the task is about.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from servers.kit import Db, Near, ToolSpec
from servers.kit.policy import MODE_KEY, Policy, Rule
from servers.runtime import CallResult, Environment
from state import Episode

MAX_REMEDIES = 3


class _Undo(Exception):
    """Raised to roll a trial call back."""


@dataclass
class PolicyMark:
    """What one rule said of one call: ``forbidden``, ``alternative`` (an offer made instead),
    ``precondition`` (remedied) or ``near_edge``."""

    kind: str
    rule: Rule
    why: str

    def as_dict(self, domain: str) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "domain": domain,
            "rule": self.rule.number,
            "slug": self.rule.slug,
            "why": self.why,
        }


@dataclass
class Screening:
    """The remedies run (tool, arguments, result) and the marks, for one drafted call."""

    remedies: list[tuple[ToolSpec, dict[str, Any], CallResult]] = field(default_factory=list)
    marks: list[PolicyMark] = field(default_factory=list)
    failed: bool = False  # a remedy itself failed: the call cannot be made compliant here
    reads: list[tuple[ToolSpec, dict[str, Any]]] = field(default_factory=list)  # the rules' facts
    offered: tuple[ToolSpec, dict[str, Any]] | None = None  # the compliant call proposed instead

    @property
    def forbidden(self) -> PolicyMark | None:
        """The mark that keeps the asked call from being made as asked (refused, or offered instead)."""
        return next((m for m in self.marks if m.kind in ("forbidden", "alternative")), None)


class PolicyGate:
    """Judges drafted writes of one domain against its policy, running remedies on the episode."""

    def __init__(self, env: Environment, domain: str, policy: Policy) -> None:
        self.env = env
        self.domain = domain
        self.policy = policy

    def screen(self, ep: Episode, spec: ToolSpec, args: dict[str, Any]) -> Screening:
        out = Screening()
        fork = ep.fork(self.domain)
        now = self.env.reference_moment(fork)
        for _ in range(MAX_REMEDIES + 1):
            with fork.reading() as conn:
                db = Db(conn, now)
                verdicts = self.policy.verdicts(db, spec.name, args)
                breaches = [(r, w) for r, w in verdicts if not isinstance(w, Near)]
                fixable = next(((r, w) for r, w in breaches if r.remedy is not None), None)
                fix = fixable[0].remedy(db, spec.name, args) if fixable else None
            if fix is None or len(out.remedies) == MAX_REMEDIES:
                break
            rspec = self.env.tools[f"{self.domain}_{fix[0]}"]
            res = self.env.call(ep, rspec.qualified_name, dict(fix[1]))
            if not res.ok:
                out.failed = True
                return out
            out.remedies.append((rspec, dict(fix[1]), res))
            out.marks.append(PolicyMark("precondition", fixable[0], str(fixable[1])))
        with fork.reading() as conn:
            db = Db(conn, now)
            out.reads = self._reads(db, spec, args)
            out.offered = self._offer(db, spec, args, breaches)
        kind = "alternative" if out.offered is not None else "forbidden"
        out.marks += [PolicyMark(kind, r, str(w)) for r, w in breaches]
        out.marks += [PolicyMark("near_edge", r, str(w)) for r, w in verdicts if isinstance(w, Near)]
        if breaches and not self.would_run(ep, spec, args):
            out.failed = True  # the service itself would refuse it: no lesson about the policy
        return out

    def _reads(self, db: Db, spec: ToolSpec, args: dict[str, Any]) -> list[tuple[ToolSpec, dict[str, Any]]]:
        """The reads every checked rule of the call declares, each once, in rule order."""
        out: list[tuple[ToolSpec, dict[str, Any]]] = []
        for rule in self.policy.guards(spec.name):
            for tool, args_ in rule.reads(db, spec.name, args) if rule.reads is not None else ():
                rspec = self.env.tools[f"{self.domain}_{tool}"]
                if not any(s is rspec and a == args_ for s, a in out):
                    out.append((rspec, dict(args_)))
        return out

    def _offer(
        self, db: Db, spec: ToolSpec, args: dict[str, Any], breaches: list[tuple[Rule, str]]
    ) -> tuple[ToolSpec, dict[str, Any]] | None:
        """The compliant call to propose: only when every breach is one rule's, that rule names an
        offer, and the offered call itself breaks no rule."""
        if len({r.slug for r, _ in breaches}) != 1 or breaches[0][0].offer is None:
            return None
        made = breaches[0][0].offer(db, spec.name, args)
        if made is None:
            return None
        tool, offered = made
        if any(not isinstance(w, Near) for _, w in self.policy.verdicts(db, tool, offered)):
            return None
        return self.env.tools[f"{self.domain}_{tool}"], dict(offered)

    def would_run(self, ep: Episode, spec: ToolSpec, args: dict[str, Any]) -> bool:
        """Whether a forbidden call succeeds when only the policy stands in its way: run in
        ``written`` mode inside a savepoint that is rolled back. A request the service refuses on
        its own (more bags than any cabin takes) would teach nothing about the policy."""
        fork = ep.fork(self.domain)
        try:
            with fork.writing() as conn:
                conn.execute("UPDATE _meta SET value = 'written' WHERE key = ?", (MODE_KEY,))
                ok = self.env.call(ep, spec.qualified_name, dict(args)).ok
                raise _Undo
        except _Undo:
            pass
        return ok


# the first that applies names the task
KINDS = ("insisting", "forbidden", "alternative", "precondition", "confirmation", "near_edge")


def policy_meta(
    domain: str, marks: list[PolicyMark], confirms: list[dict[str, Any]] = (), insist: int | None = None
) -> dict[str, Any] | None:
    """``Task.policy``: the gating kind, every mark, the turns that wait for a yes, and the turn
    where the user insists after a refusal."""
    if not marks and not confirms:
        return None
    kinds = (
        [m.kind for m in marks] + (["confirmation"] if confirms else []) + (["insisting"] if insist else [])
    )
    meta: dict[str, Any] = {"kind": min(kinds, key=KINDS.index), "marks": [m.as_dict(domain) for m in marks]}
    if confirms:
        meta["confirm"] = list(confirms)
    if insist is not None:
        meta["insist"] = {"turn": insist}
    return meta


YES = ("Yes, please go ahead.", "Yes, that's right, go ahead.", "Yes, do it.", "Correct, please proceed.")


def confirmation_rules(domain: Any) -> dict[str, Rule]:
    """Qualified tool name -> the confirmation rule that governs it (empty without a policy)."""
    if domain.policy is None:
        return {}
    out: dict[str, Rule] = {}
    for rule in domain.policy.confirmations():
        for t in rule.tools:
            out.setdefault(f"{domain.name}_{t}", rule)
    return out


def confirm_mark(domain: Any, rule: Rule, turn: int) -> dict[str, Any]:
    """One ``Task.policy["confirm"]`` entry: in user turn ``turn`` the rule's tools wait for a yes."""
    tools = sorted(f"{domain.name}_{t}" for t in rule.tools)
    return {"turn": turn, "domain": domain.name, "rule": rule.number, "slug": rule.slug, "tools": tools}


def offer_mark(domain: Any, mark: PolicyMark, offered: Any, turn: int) -> dict[str, Any]:
    """A ``Task.policy["confirm"]`` entry for an offer: in user turn ``turn`` the agent proposes
    the compliant call, which waits for the user's yes like any confirmed change."""
    rule = mark.rule
    return {
        "turn": turn,
        "domain": domain.name,
        "rule": rule.number,
        "slug": rule.slug,
        "tools": [offered.name],
    }


def describe(spec: ToolSpec, arguments: dict[str, Any]) -> str:
    """The change in words the user can check: "I will cancel reservation ZFA04Y".

    Built from the tool's name and the call's values, not its description: a description's words
    copied into a reply are what the wording gate rejects as no person's speech."""
    head = spec.name.replace("_", " ")
    parts = []
    for key, value in arguments.items():
        if value in (None, "", [], {}):
            continue
        label = key.removesuffix("_id").replace("_", " ")
        shown = ", ".join(map(str, value)) if isinstance(value, list) else str(value)
        parts.append(shown if label in head else f"{label} {shown}")
    return f"I will {head} " + ", ".join(parts) if parts else f"I will {head}"
