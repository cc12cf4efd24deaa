"""What makes a drawn chain one person's plausible story, before any words are written.

A user message holds one goal: at most two requests (:func:`split`). A person does not make
something and take it back for no reason, act on what they just cancelled (:func:`undoes`), or ask
to see again what the assistant has just shown them (:func:`repeats`); such drafts are dropped and
counted, not reworded.
"""

from __future__ import annotations

import random
from typing import Any

from querygen.plan.step import Step
from servers.kit import Domain, ToolSpec

MAX_ASKS_PER_TURN = 2  # requests one user message makes


def carried_first(domain: Domain, specs: dict[str, ToolSpec], chain: list[str]) -> list[str]:
    """The chain with the call that hands over a carried value first (sign in before anything a
    token opens) when a tool of it needs one the chain does not make: the domain's language says
    which values no user says (``Language.passed``), so only an earlier call can supply them."""
    language = domain.language
    if language is None or not language.passed:
        return chain
    for name in chain:
        needs = [
            p.ref.table_name for p in specs[name].params if p.name in language.passed and p.ref and p.required
        ]
        for table in needs:
            made = [t for t in chain[: chain.index(name)] if specs[t].returns == table and specs[t].writes]
            makers = sorted(t for t, s in specs.items() if s.returns == table and s.writes)
            if not made and makers and makers[0] not in chain:
                return [makers[0], *chain]
    return chain


def undoes(steps: list[Step], created: set[str], diff: list[dict[str, Any]]) -> bool:
    """A request that takes back what the task itself did: a destructive call on a row the task
    created (create an event, cancel it), finishing off a row it made (add a task, complete it),
    or a second write on the row an earlier write changed
    that leaves no trace in the final state (freeze an account, unfreeze it)."""
    touched = {c["pk"] for c in diff}
    made = {c["pk"] for c in diff if c["op"] == "insert"}
    writes = [s for s in steps if s.role == "ask" and s.spec.writes]
    subjects = [_row_of(s) for s in writes]
    for k, s in enumerate(writes):
        keys = [
            s.args[p.name]
            for p in s.spec.params
            if p.ref and not p.ref.many and not p.ref.path and isinstance(s.args.get(p.name), str)
        ]
        if s.spec.destructive and any(v in created for v in keys):
            return True
        if s.spec.name.startswith(_FINISHING) and any(v in made for v in keys):
            return True  # add a follow-up task, then mark it done
        row = subjects[k]
        if row is not None and row not in touched and row in subjects[:k]:
            return True
        gone = {v for e in writes[:k] if e.spec.destructive for v in e.args.values() if isinstance(v, str)}
        if any(v in gone for v in keys):
            return True  # a reminder on the meeting just cancelled
        if any(_opposite(e, s) and any(v in e.args.values() for v in keys) for e in writes[:k]):
            return True  # start the car, then stop it; mute someone, then unmute them
    return False


def repeats(steps: list[Step]) -> bool:
    """A request to read again the very row an earlier request of the task showed, with nothing
    written in between (find my profile by email, then show my profile), or the row a create just
    made and showed (make a list, then ask what is on it)."""
    shown: set[Any] = set()
    for s in steps:
        if s.role != "ask":
            continue
        if s.spec.writes:
            shown.clear()
            if s.spec.name.startswith("create_"):  # what a create shows needs no second look
                shown.add(_row_of(s))
            continue
        row = _row_of(s)
        if row is not None and row in shown:
            return True
        if row is not None:
            shown.add(row)
    return False


# a write that finishes a row off (or runs a scene just saved from the current state): done right after
# the task made the row, it takes the request back or does nothing
_FINISHING = ("complete_", "close_", "finish_", "resolve_", "dismiss_", "archive_", "mark_done", "activate_")

_OPPOSITES = (("start", "stop"), ("add", "remove"), ("share", "revoke"), ("enable", "disable"),
              ("open", "close"), ("join", "leave"), ("press", "release"), ("arm", "disarm"),
              ("turn_on", "turn_off"))  # fmt: skip


def _opposite(a: Step, b: Step) -> bool:
    """Two requests that take each other back: ``follow``/``unfollow``, ``repost``/``undo_repost``,
    ``start_charging``/``stop_charging``, or one tool with a yes/no argument flipped."""
    x, y = a.spec.name, b.spec.name
    if x == y:
        flags = [k for k, v in a.args.items() if isinstance(v, bool) and isinstance(b.args.get(k), bool)]
        return any(a.args[k] != b.args[k] for k in flags)
    if {x, y} & {f"un{y}", f"un{x}", f"undo_{x}", f"undo_{y}"}:
        return True
    for one, other in _OPPOSITES:
        for p, q in ((one, other), (other, one)):
            if (x, y) == (p, q) or (x.startswith(p + "_") and y == q + x[len(p) :]):
                return True
    return False


def _row_of(step: Step) -> Any:
    """The id of the row a write's result shows (its ``id``), if any."""
    return step.result.get("id") if isinstance(step.result, dict) else None


def split(rng: random.Random, length: int, turns: int) -> list[int]:
    """Turn index of each step: ``turns`` contiguous non-empty segments, none longer than
    ``MAX_ASKS_PER_TURN`` when the turns allow it."""
    cuts = sorted(rng.sample(range(1, length), turns - 1)) if turns > 1 else []
    for _ in range(8):  # a few draws find a split with no turn of three requests
        sizes = [b - a for a, b in zip([0, *cuts], [*cuts, length], strict=True)]
        if max(sizes) <= MAX_ASKS_PER_TURN or turns * MAX_ASKS_PER_TURN < length:
            break
        cuts = sorted(rng.sample(range(1, length), turns - 1))
    else:  # none did: the even split
        sizes = [length // turns + (k < length % turns) for k in range(turns)]
        cuts = [sum(sizes[: k + 1]) for k in range(turns - 1)]
    out, t = [], 0
    for j in range(length):
        if t < len(cuts) and j == cuts[t]:
            t += 1
        out.append(t)
    return out
