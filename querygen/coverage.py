"""Every tool in the dataset: a pass that fills the gaps, and a sweep that takes the tools in turn.

Chains are walks on the dependency graph whose weights are flattened so that tools appear about
equally often in the *drafts* (:mod:`querygen.plan.graph`). What the gates keep is another matter. A
tool whose call needs a state few rows are in (a gear change needs the foot on the brake), a write
the written policy refuses most of the time (insurance is sold only with a booking), or a sink that
every write leads to in the graph but few chains reach: each stays rare, or absent, at any ``n``.
Two mechanisms make a dataset call every tool:

* **the coverage pass** (on by default): once ``n`` tasks are kept, each tool no kept task calls
  gets attempts of its own, and the first kept task that calls it takes the place of the latest
  task whose tools other tasks still call (of the same domain and kind where there is one), so
  the count stays ``n`` and no other tool drops out. With fewer than ``n`` tasks kept it is added
  instead. It costs little, because few tools are still missing after the walks;
* **the sweep** (off by default, ``sweep_rate``): a share of the attempts goes through the next
  tool of a fixed, shuffled order of all the selected domains' own tools, so each round of
  ``len(tools) / sweep_rate`` attempts drafts every tool at least once (several drafts when the
  first stops before it, some of them after a call that may set its state up). It flattens the
  spread of tools, but a sweep attempt drafts more often and is never a cheap abstention, so it
  is opt-in (the measured cost is in BENCHMARKS.md).

Both depend only on the seed and on the tasks kept before them, so the output stays the same for
any number of workers. The discovery tools (``list_records`` ...) every domain shares are not
counted: they are everywhere already.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Protocol

from contract.task import Task
from querygen.compose import DomainKit
from querygen.gates import Validator
from querygen.stats import GenStats
from servers.kit.discovery import DISCOVERY_TOOLS

COVER_TRIES = 30  # attempts the pass makes at one missing tool before it reports it uncovered
COVER_SHARE = 0.1  # the pass makes at most this share of n attempts (COVER_LEAST at least)
COVER_LEAST = 50


class Covering(Protocol):
    """What the pass asks of the generator (:class:`querygen.generate.Generator`, which calls
    the pass and passes itself in): its domains' kits, its gates, and attempts at one tool."""

    kits: dict[str, DomainKit]
    validator: Validator

    def cover_attempt(self, tool: str, i: int) -> tuple[Task | None, str | None, str, str]: ...


def own_tools(kits: dict[str, DomainKit]) -> list[str]:
    """The selected domains' own tools (qualified names), in graph order."""
    return [
        t for kit in kits.values() for t in kit.graph.tools if kit.graph.specs[t].name not in DISCOVERY_TOOLS
    ]


def sweep_order(kits: dict[str, DomainKit], seed: int) -> list[str]:
    """Every own tool, shuffled so that a partial round still reaches every domain."""
    tools = own_tools(kits)
    random.Random(f"sweep:{seed}").shuffle(tools)
    return tools


def called(task: Task) -> set[str]:
    return {c.name for c in task.gold_calls()}


@dataclass
class Coverage:
    """What the coverage pass found and did; ``uncovered`` tools no attempt could keep a task for."""

    tools: int
    missing: list[str] = field(default_factory=list)  # before the pass
    covered: list[str] = field(default_factory=list)
    attempts: int = 0

    @property
    def uncovered(self) -> list[str]:
        return [t for t in self.missing if t not in self.covered]

    def as_dict(self) -> dict[str, Any]:
        return {
            "tools": self.tools,
            "called": self.tools - len(self.uncovered),
            "missing_before_pass": self.missing,
            "covered_by_pass": self.covered,
            "uncovered": self.uncovered,
            "pass_attempts": self.attempts,
        }


def fill_gaps(gen: Covering, tasks: list[Task], stats: GenStats) -> Coverage:
    """Give every tool no task in ``tasks`` calls a task of its own (in place; see the module).

    The pass's attempts are its own (``Coverage.attempts``), not in ``stats.attempts``, whose
    per-gate rejections add up to them; a task it adds to a short dataset counts as one."""
    tools = own_tools(gen.kits)
    counts: Counter[str] = Counter(t for task in tasks for t in called(task))
    report = Coverage(len(tools), [t for t in tools if not counts[t]])
    placed: set[int] = set()  # where the pass put its tasks: never made room again
    budget = max(COVER_LEAST, int(COVER_SHARE * stats.requested))
    for tool in report.missing:
        if counts[tool]:
            report.covered.append(tool)  # a task kept for an earlier tool calls this one too
            continue
        for i in range(COVER_TRIES):
            if report.attempts >= budget:
                return report
            if len(tasks) >= stats.requested and _removable(tasks, counts, placed, None, None) is None:
                return report  # every kept task holds some tool's only call: nothing can make room
            task, gate, domain, kind = gen.cover_attempt(tool, i)
            report.attempts += 1
            if task is None or gate or tool not in called(task) or not gen.validator.admit(task):
                continue
            placed.add(_place(tasks, counts, placed, task, domain, stats))
            report.covered.append(tool)
            break
    return report


def _place(
    tasks: list[Task], counts: Counter[str], placed: set[int], task: Task, domain: str, stats: GenStats
) -> int:
    """Put ``task`` in, in place of a task the others can spare once there are ``n``; its index."""
    counts.update(called(task))
    if len(tasks) < stats.requested:
        tasks.append(task)
        stats.count(domain, task.kind, None)
        return len(tasks) - 1
    for want in ((domain, task.kind), (domain, None), (None, None)):
        j = _removable(tasks, counts, placed, *want)
        if j is not None:
            break
    assert j is not None  # checked before the attempt, and the new task only adds calls
    old = tasks[j]
    counts.subtract(called(old))
    stats.swap(old.domains[0], old.kind, domain, task.kind)
    tasks[j] = task
    return j


def _removable(
    tasks: list[Task], counts: Counter[str], placed: set[int], domain: str | None, kind: str | None
) -> int | None:
    """The latest task (of ``domain`` and ``kind`` when given) with gold calls, every one of whose
    tools another task calls too; abstentions are left alone (they keep the abstain share)."""
    for j in range(len(tasks) - 1, -1, -1):
        t = tasks[j]
        if j in placed or t.kind == "abstain":
            continue
        if (domain and t.domains[0] != domain) or (kind and t.kind != kind):
            continue
        tools = called(t)
        if tools and all(counts[x] >= 2 for x in tools):
            return j
    return None
