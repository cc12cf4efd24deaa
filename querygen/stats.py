"""What a generator run counts: kept tasks and rejections, per gate, per domain and per kind.

Its own module because both the run (:mod:`querygen.generate`) and the coverage pass
(:mod:`querygen.coverage`) count into it, and the pass must not import the run.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from querygen.gates import GATES

# drafts the text stage did not make: some call could only be said by an internal id or a found
# value (unsaid), a later turn would quote an id no answer gave (planted), a request undid another
# (undo) or read again what an earlier one showed (repeat)
TEXT_DROPS = ("unsaid", "planted", "undo", "repeat")


@dataclass
class GenStats:
    """Kept tasks and rejections, per gate, per domain and per kind."""

    requested: int
    attempts: int = 0
    kept: int = 0
    rejected: Counter[str] = field(default_factory=Counter)
    per_domain: dict[str, dict[str, Counter[str]]] = field(default_factory=dict)
    per_kind: dict[str, dict[str, Counter[str]]] = field(default_factory=dict)
    # kept tasks a written policy gates, by kind (forbidden, precondition, confirmation, near_edge)
    policy: Counter[str] = field(default_factory=Counter)
    coverage: dict[str, Any] | None = None  # what the coverage pass did (querygen.coverage)

    def count(self, domain: str, kind: str, reason: str | None) -> None:
        self.attempts += 1
        for table, key in ((self.per_domain, domain), (self.per_kind, kind)):
            slot = table.setdefault(key, {"kept": Counter(), "rejected": Counter()})
            if reason is None:
                slot["kept"]["tasks"] += 1
            else:
                slot["rejected"][reason] += 1
        if reason is None:
            self.kept += 1
        else:
            self.rejected[reason] += 1

    def swap(self, old_domain: str, old_kind: str, domain: str, kind: str) -> None:
        """A kept task gave its place to another (the coverage pass): the counts follow."""
        for table, gone, new in ((self.per_domain, old_domain, domain), (self.per_kind, old_kind, kind)):
            table[gone]["kept"]["tasks"] -= 1
            slot = table.setdefault(new, {"kept": Counter(), "rejected": Counter()})
            slot["kept"]["tasks"] += 1

    def as_dict(self) -> dict[str, Any]:
        def flat(table: dict[str, dict[str, Counter[str]]]) -> dict[str, Any]:
            return {
                k: {"kept": v["kept"]["tasks"], "rejected": dict(sorted(v["rejected"].items()))}
                for k, v in sorted(table.items())
            }

        reasons = {g: self.rejected.get(g, 0) for g in ("sampling", *TEXT_DROPS, "wording", *GATES)}
        return {
            "requested": self.requested,
            "kept": self.kept,
            "attempts": self.attempts,
            "rejected": reasons,
            "per_domain": flat(self.per_domain),
            "per_kind": flat(self.per_kind),
            "policy": dict(sorted(self.policy.items())),
            **({"coverage": self.coverage} if self.coverage is not None else {}),
        }
