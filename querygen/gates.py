"""Validation gates: programmatic proof that a task is valid, each with its own rejection counter.

A task is kept only if every gate passes. Gates read the finished :class:`Task` (not the
generator's internals), so a task from anywhere can be checked, and the tests feed each gate a
purpose-built bad task.

* ``provenance`` — a sensitive argument (PIN, password, token) appears in the user's words up to
  that turn or in an earlier tool output;
* ``grounding`` — every entity id, email and capitalised name in the user text exists in the
  snapshot, was shown by an earlier turn's tool output, or is new data the user supplies to a
  write;
* ``noop`` — a task that writes must not already be satisfied by the initial state;
* ``near_miss`` — changing one gold argument must change a call's result or the final state;
  otherwise the argument is not load-bearing (or no alternative value exists) and the task is
  rejected;
* ``replay`` — the gold calls on a fresh fork all succeed and reproduce every stored result, the
  final-state hash and the diff. ``replay="sandbox"`` (the default) replays on the generator's
  fork rolled back to the snapshot — the same bytes as a new fork, without its 3 ms setup — and
  every ``audit_every``-th attempt that passes is also replayed on a brand-new ``env.open()`` fork checked
  with the state package's own ``Episode.state_hash()`` and ``diff()``; ``replay="fresh"`` does
  the latter for every task;
* ``necessity`` — every gold call is needed: dropping it breaks a later call's dataflow, loses a
  fact the answer states, or changes a later result or the final state
  (:mod:`querygen.plan.necessity`);
* ``dedup`` — identical user text, or a gold-call multiset (name + arguments) with Jaccard
  similarity >= 0.70 to a kept task.
"""

from __future__ import annotations

import math
import random
import re
from collections import Counter
from collections.abc import Callable
from typing import Any

from contract.task import Task
from querygen.plan.gold import run_calls
from querygen.plan.near_miss import NO_VALUE, alternative
from querygen.plan.necessity import Necessity
from querygen.plan.probe import Sandbox, StateProbe
from querygen.plan.sampler import LiveSampler
from querygen.plan.step import canonical
from servers.runtime import Environment
from state.hashing import user_tables

GATES = ("provenance", "grounding", "noop", "near_miss", "replay", "necessity", "dedup")
_ID = re.compile(r"\b[A-Z][A-Z0-9]{1,7}-\d{3,}\b")
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_NAME = re.compile(r"\b[A-Z][a-z]+(?:[ '-][A-Z][a-z]+)+\b")
_SENTENCE_START = re.compile(r"(?:^|[.!?:;(]\s*)$")


class Lexicon:
    """Everything a snapshot can be said to contain, for grounding checks."""

    def __init__(self, conn: Any, tables: dict[str, Any]) -> None:
        self.conn = conn
        self.tables = tables  # prefix -> (table name, pk column)
        texts = []
        for name in user_tables(conn):
            cols = [
                r[1]
                for r in conn.execute(f'PRAGMA table_info("{name}")')
                if (r[2] or "").upper() in ("VARCHAR", "TEXT", "")
            ]
            for col in cols:  # joined by SQLite: one string per column instead of a row per value
                (joined,) = conn.execute(
                    f'SELECT group_concat(v, char(10)) FROM (SELECT DISTINCT "{col}" AS v FROM "{name}" '
                    f'WHERE "{col}" IS NOT NULL)'
                ).fetchone()
                if joined:
                    texts.append(joined)
        self.blob = "\n".join(texts).lower()
        self._texts: dict[str, bool] = {}

    def has_id(self, value: str) -> bool:
        prefix = value.split("-", 1)[0]
        if prefix not in self.tables:
            return False
        table, pk = self.tables[prefix]
        return self.conn.execute(f'SELECT 1 FROM "{table}" WHERE "{pk}" = ?', (value,)).fetchone() is not None

    def has_text(self, value: str) -> bool:
        """Whether any text cell contains ``value`` (case-insensitively). A search of the whole
        blob takes up to a millisecond and the same names come back task after task, so each
        answer is kept (the blob never changes)."""
        known = self._texts.get(value)
        if known is None:
            known = self._texts[value] = value.lower() in self.blob
        return known


def _calls_key(task: Task) -> str:
    return canonical([[c.name, c.arguments] for c in task.gold_calls()])


class Dedup:
    """Exact-text and call-multiset Jaccard duplicate detection over kept tasks.

    Two multisets of sizes a <= b have Jaccard at most a / b, so only kept tasks whose call count
    is within the threshold's size band are compared: the index is keyed by (call, size)."""

    def __init__(self, threshold: float = 0.70) -> None:
        self.threshold = threshold
        self.texts: set[str] = set()
        self.sets: list[Counter[str]] = []
        self.index: dict[tuple[str, int], list[int]] = {}

    @staticmethod
    def keys(task: Task) -> tuple[str, Counter[str]]:
        text = " ".join(" ".join(t.user.lower().split()) for t in task.turns)
        calls = Counter(f"{c.name}|{canonical(c.arguments)}" for c in task.gold_calls())
        return text, calls

    def _sizes(self, n: int) -> range:
        lo = max(1, math.ceil(n * self.threshold - 1e-9))
        hi = math.floor(n / self.threshold + 1e-9) if self.threshold > 0 else n * 100
        return range(lo, hi + 1)

    def duplicate(self, task: Task, keys: tuple[str, Counter[str]] | None = None) -> str | None:
        text, calls = keys or self.keys(task)
        if text in self.texts:
            return "identical text"
        size = sum(calls.values())
        candidates = sorted({i for k in calls for s in self._sizes(size) for i in self.index.get((k, s), [])})
        for i in candidates:
            other = self.sets[i]
            inter = sum(min(c, other.get(k, 0)) for k, c in calls.items())
            union = size + sum(other.values()) - inter
            if union and inter / union >= self.threshold:
                return f"calls similar to kept task #{i}"
        return None

    def add(self, task: Task, keys: tuple[str, Counter[str]] | None = None) -> None:
        text, calls = keys or self.keys(task)
        self.texts.add(text)
        size = sum(calls.values())
        for k in calls:
            self.index.setdefault((k, size), []).append(len(self.sets))
        self.sets.append(calls)


class Validator:
    """Runs the gates on finished tasks and counts rejections per gate."""

    def __init__(
        self,
        env: Environment,
        probe: StateProbe,
        sandbox: Sandbox,
        lexicons: dict[str, Lexicon],
        samplers: dict[str, LiveSampler],
        threshold: float = 0.70,
        replay: str = "sandbox",
    ) -> None:
        self.env = env
        self.probe = probe
        self.sandbox = sandbox
        self.lexicons = lexicons
        self.samplers = samplers
        self.dedup = Dedup(threshold)
        self.replay_mode = replay
        self.rejected: Counter[str] = Counter({g: 0 for g in GATES})
        self.needed = Necessity(env, probe, sandbox)

    def check(self, task: Task, rng: random.Random) -> str | None:
        """The first gate the task fails (counted), or None; dedup is :meth:`admit`'s job.

        In sandbox mode the near-miss and necessity controls branch off the replay run in nested
        savepoints, so the calls before a branch run once for all three gates. The perturbation is
        drawn from the task's own calls (not ``rng``), so re-checking a kept task gives the same
        verdict: a gate is a property of the task, not of the attempt that made it."""
        rng = random.Random(_calls_key(task))
        for gate in ("provenance", "grounding", "noop"):
            if not getattr(self, gate)(task):
                return self._reject(gate)
        needed = None  # the necessity candidates a replay walk found needed (None: walk for them)
        if self.replay_mode == "fresh":
            if not self.near_miss(task, rng):
                return self._reject("near_miss")
            if not self.audit(task):
                return self._reject("replay")
        else:
            near_ok, replay_ok, needed = self._replay_with_near_miss(task, self._perturbation(task, rng))
            if not near_ok:
                return self._reject("near_miss")
            if not replay_ok:
                return self._reject("replay")
        return self._reject("necessity") if self.needed.unneeded(task, needed) else None

    def _reject(self, gate: str) -> str:
        self.rejected[gate] += 1
        return gate

    def admit(self, task: Task, keys: tuple[str, Counter[str]] | None = None) -> bool:
        """Keep the task unless it duplicates a kept one (then count a ``dedup`` rejection).

        ``keys`` are :meth:`Dedup.keys`, precomputed where the task was made (a worker)."""
        keys = keys or Dedup.keys(task)
        if self.dedup.duplicate(task, keys):
            self.rejected["dedup"] += 1
            return False
        self.dedup.add(task, keys)
        return True

    # -- the gates -----------------------------------------------------------------------------
    def provenance(self, task: Task) -> bool:
        said, shown = "", []
        for turn in task.turns:
            said += "\n" + turn.user
            for call in turn.calls:
                spec = self.env.tools.get(call.name)
                for p in spec.params if spec else []:
                    if p.sensitive and p.name in call.arguments:
                        value = str(call.arguments[p.name])
                        if value not in said and not any(value in canonical(r) for r in shown):
                            return False
                shown.append(call.result)
        return True

    def grounding(self, task: Task) -> bool:
        lex = self.lexicons[task.domains[0]]
        earlier: list[Any] = []  # results of the turns before the current one

        def new_data() -> str:
            """Values the user supplies to a write (a new payee's name) exist nowhere yet."""
            calls = [(c.name, c.arguments) for c in task.gold_calls()]
            unserved = task.metadata.get("unserved_call")  # the request a hidden tool would serve
            if unserved:
                calls.append((unserved["name"], unserved["arguments"]))
            return canonical([a for name, a in calls if self.env.tools[name].writes]).lower()

        for turn in task.turns:
            text = turn.user
            for m in _ID.findall(text):
                if not lex.has_id(m) and m not in canonical(earlier):
                    return False
            for m in _EMAIL.findall(text):
                if not lex.has_text(m) and m.lower() not in new_data() + canonical(earlier).lower():
                    return False
            for m in _NAME.finditer(text):
                if not self._known_name(m, lex, new_data, lambda: canonical(earlier)):
                    return False
            earlier.extend(c.result for c in turn.calls)
        return True

    @staticmethod
    def _known_name(m: re.Match, lex: Lexicon, new_data: Callable[[], str], shown: Callable[[], str]) -> bool:
        name = m.group(0)
        candidates = [name]
        if _SENTENCE_START.search(m.string[: m.start()]):
            # "Pay Ann Lee": the first word may be capitalised only because it starts a sentence
            candidates.append(name.split(" ", 1)[1] if " " in name else "")
        for c in candidates:
            if not c or not re.search(r"[ '-]", c):
                return True  # a single capitalised word is not checked as a name
            if lex.has_text(c) or c.lower() in new_data() or c.lower() in shown().lower():
                return True
            if all(f'"{w}"' in new_data() for w in c.lower().split()):
                return True  # "correct it to Anna Pratt": a first and a last name the write takes apart
        return False

    def noop(self, task: Task) -> bool:
        if not any(self.env.tools[c.name].writes for c in task.gold_calls()):
            return True
        initial = self.probe.combine({}, task.domains)
        return bool(task.expected_diff) and task.expected_state_hash != initial

    def near_miss(self, task: Task, rng: random.Random, choice: tuple[int, str] | None = None) -> bool:
        """Perturb one argument (``choice`` = (call index, param) or a seeded pick) and rerun."""
        perturbation = self._perturbation(task, rng, choice)
        if perturbation is None:
            return True
        if perturbation[2] is NO_VALUE:
            return False
        with self.sandbox.trial(self._touched(task)) as ep:
            return self._differs(ep, task, perturbation)

    def _perturbation(
        self, task: Task, rng: random.Random, choice: tuple[int, str] | None = None
    ) -> tuple[int, str, Any] | None:
        """(call index, param, other value): the near-miss to try; None if no call has arguments."""
        calls = task.gold_calls()
        slots = [(i, k) for i, c in enumerate(calls) for k in c.arguments]
        if not slots:
            return None
        i, param = choice or rng.choice(slots)
        return i, param, self._alternative(task, calls[i].name, param, calls[i].arguments, rng)

    def _touched(self, task: Task) -> list[str]:
        """The domains whose sessions the task's gold calls can change."""
        return sorted({self.env.tools[c.name].domain for c in task.gold_calls()})

    def _differs(self, ep: Any, task: Task, perturbation: tuple[int, str, Any]) -> bool:
        """Run the gold calls from the perturbed one on: does any result or the final state change?"""
        calls = task.gold_calls()
        i, param, other = perturbation
        for j in range(i, len(calls)):
            args = dict(calls[j].arguments)
            if j == i:
                args[param] = other
            res = self.env.call(ep, calls[j].name, args)
            if not res.ok or res.value != calls[j].result:
                return True
        return self.probe.state_hash(ep, task.domains) != task.expected_state_hash

    def _replay_with_near_miss(
        self, task: Task, perturbation: tuple[int, str, Any] | None
    ) -> tuple[bool, bool, set[int]]:
        """(near-miss passed, replay passed, the necessity candidates found needed) from one run
        of the gold calls on the rolled-back fork.

        Both controls branch off this walk in nested savepoints (rolled back): the near-miss at
        the perturbed call, and the necessity check at each candidate write (the rest run without
        it), so the calls before a branch run once for all three gates."""
        calls = task.gold_calls()
        if perturbation is not None and perturbation[2] is NO_VALUE:
            return False, True, set()
        near_ok = perturbation is None
        candidates = set(self.needed.candidates(task))
        needed: set[int] = set()
        touched = self._touched(task)
        with self.sandbox.trial(touched) as ep:
            for j, call in enumerate(calls):
                if perturbation is not None and j == perturbation[0]:
                    with self.sandbox.trial(touched):
                        near_ok = self._differs(ep, task, perturbation)
                if j in candidates:
                    with self.sandbox.trial(touched):
                        if self.needed.rest_differs(ep, task, j):
                            needed.add(j)
                res = self.env.call(ep, call.name, call.arguments)
                if not res.ok or res.value != call.result:
                    return near_ok, False, needed
            if self.probe.state_hash(ep, task.domains) != task.expected_state_hash:
                return near_ok, False, needed
            return near_ok, self.probe.diff(ep, task.domains) == task.expected_diff, needed

    def _alternative(
        self, task: Task, name: str, param: str, args: dict[str, Any], rng: random.Random
    ) -> Any:
        spec = self.env.tools[name]
        p = next(q for q in spec.params if q.name == param)
        if not p.ref:
            return alternative(p, args[param], rng)
        conn = self.probe.fingerprint(spec.domain).conn
        sampler = self.samplers[spec.domain]
        current = args[param]
        taken = list(current) if isinstance(current, list) else [current]
        # another row that suits the rest of the call (a product *this* customer received), else any row
        for where in (p.ref.condition(args), None):
            value = sampler.pick(conn, p.ref.table_name, where, rng, exclude=taken)
            if value is None:
                continue
            if p.ref.path:  # another real row, named the way the snapshot's session would write it
                value = p.ref.render(conn, value)
                if value == current:
                    continue
            return [*current[:-1], value] if isinstance(current, list) else value
        return NO_VALUE

    def replay(self, task: Task) -> bool:
        """The replay gate alone (``check`` runs it fused with the near-miss control)."""
        if self.replay_mode == "fresh":
            return self.audit(task)
        calls = task.gold_calls()
        if not calls:
            return True
        with self.sandbox.trial(self._touched(task)) as ep:
            for call in calls:
                res = self.env.call(ep, call.name, call.arguments)
                if not res.ok or res.value != call.result:
                    return False
            if self.probe.state_hash(ep, task.domains) != task.expected_state_hash:
                return False
            return self.probe.diff(ep, task.domains) == task.expected_diff

    def audit(self, task: Task) -> bool:
        """Replay on a brand-new fork of exactly the task's domains, checked by ``state`` itself."""
        calls = task.gold_calls()
        if not calls:
            return True
        env = Environment(
            [d for d in self.env.domains if d.name in task.domains],
            seed=self.env.seed,
            scale=self.env.scale,
            cache=self.env.cache,
            variants=task.variants(),
        )
        ep = env.open()
        try:
            results = run_calls(env, ep, [(c.name, c.arguments) for c in calls])
            if any(not r.ok or r.value != c.result for r, c in zip(results, calls, strict=True)):
                return False
            return ep.state_hash() == task.expected_state_hash and ep.diff() == task.expected_diff
        finally:
            ep.close()
