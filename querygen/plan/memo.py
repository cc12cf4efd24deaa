"""Read-only calls on an untouched fork, remembered per snapshot for the drafting of tasks.

Drafting a task runs many read calls on a fork that nothing has written yet: the lookups that
find an entity by a natural attribute ("the issue about the Safari crash"), most of them tried
and dropped, and the first reads of a chain. On an untouched fork such a call sees exactly the
snapshot, so its result is a function of the snapshot, the tool and its arguments; attempts of a
run ask the same ones again and again (the persona's own accounts, a table filtered by one
value). Only drafting uses this. The gates run every call for real, so a kept task's results are
still proven on a fork by the replay gate.

A fork is untouched while its change table (``state.changelog``, filled by triggers on every
write and emptied by a rollback) is empty; a write that changed a row back still counts as a
touch, which only means a call that could have been remembered runs.
"""

from __future__ import annotations

import pickle
from collections import OrderedDict
from typing import Any

from querygen.plan.step import canonical
from servers.runtime import CallResult, Environment
from state import Episode
from state.hashing import CHANGES

LIMIT = 20_000  # remembered calls per process (least recently used dropped first)


class PristineReads:
    """``Environment.call`` that answers a repeated read of an untouched fork from memory."""

    def __init__(self, env: Environment, limit: int = LIMIT) -> None:
        self.env = env
        self.limit = limit
        self._seen: OrderedDict[tuple[str, str, str], tuple[bool, bytes, str | None, bool]] = OrderedDict()
        self.hits = 0

    def call(self, ep: Episode, name: str, arguments: Any) -> CallResult:
        spec = self.env.tools.get(name)
        if spec is None or not spec.read_only or spec.domain not in ep.forks:
            return self.env.call(ep, name, arguments)
        fork = ep.fork(spec.domain)
        with fork.reading() as conn:
            if conn.execute(f"SELECT 1 FROM {CHANGES} LIMIT 1").fetchone() is not None:
                return self.env.call(ep, name, arguments)
        key = (fork.snapshot.sha256, name, canonical(arguments))
        known = self._seen.get(key)
        if known is not None:
            self._seen.move_to_end(key)
            self.hits += 1
            ok, value, error, crashed = known
            # a private copy: callers keep results in steps, and one must never alter another's
            return CallResult(name, arguments, ok, pickle.loads(value), error, crashed)
        res = self.env.call(ep, name, arguments)
        self._seen[key] = (res.ok, pickle.dumps(res.value), res.error, res.crashed)
        if len(self._seen) > self.limit:
            self._seen.popitem(last=False)
        return res
