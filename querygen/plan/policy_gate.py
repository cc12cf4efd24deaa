"""Policy-gated tasks: what a domain's written policy makes of one drafted write.

Before the gold builder runs a write that a policy rule governs, the rules judge it on the live
state of the episode:

* a **precondition** rule it breaks but names a remedy for (verify the caller first) gets the
  remedy run just before it, as a gold call of its own: the task teaches the habit;
* a rule it breaks without a remedy makes it **forbidden**: the call is not run, the user still
  asks for it, and the right answer reads what shows the rule applies, then refuses and explains;
* a :class:`~servers.kit.policy.Near` verdict (booked 23 h ago, the window is 24 h) lets it run
  and marks the task **near_edge**: the same request a little further on would be refused;
* a write a **confirmation** rule governs splits its turn: the agent states the change and asks,
  the user says yes in a turn of their own, and only then is the write a gold call.

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
    """What one rule said of one call: ``forbidden``, ``precondition`` (remedied) or ``near_edge``."""

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

    @property
    def forbidden(self) -> PolicyMark | None:
        return next((m for m in self.marks if m.kind == "forbidden"), None)


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
        out.marks += [PolicyMark("forbidden", r, str(w)) for r, w in breaches]
        out.marks += [PolicyMark("near_edge", r, str(w)) for r, w in verdicts if isinstance(w, Near)]
        if breaches and not self.would_run(ep, spec, args):
            out.failed = True  # the service itself would refuse it: no lesson about the policy
        return out

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


def refusal(mark: PolicyMark) -> str:
    """The reference answer's refusal: what is wrong, and the rule that says so."""
    why = mark.why.rstrip(".")
    return f"I can't do that: {why}. Our policy (rule {mark.rule.number}) says: {mark.rule.text}"


KINDS = ("forbidden", "precondition", "confirmation", "near_edge")  # the first that applies names the task


def policy_meta(
    domain: str, marks: list[PolicyMark], confirms: list[dict[str, Any]] = ()
) -> dict[str, Any] | None:
    """``Task.policy``: the gating kind, every mark, and the confirmation turns."""
    if not marks and not confirms:
        return None
    kinds = [m.kind for m in marks] + (["confirmation"] if confirms else [])
    meta: dict[str, Any] = {"kind": min(kinds, key=KINDS.index), "marks": [m.as_dict(domain) for m in marks]}
    if confirms:
        meta["confirm"] = list(confirms)
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
