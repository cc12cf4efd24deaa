"""Near-miss alternatives: a different, well-typed value for one argument of a gold call.

The near-miss gate (:mod:`querygen.gates`) changes one argument of a task and checks that the
calls' results or the final state change with it, so that every argument is load-bearing. The
value it swaps in must still be one the tool accepts (an enum member, a number inside the bounds,
a string of the declared pattern), or the gate would only prove that bad input fails.
"""

from __future__ import annotations

import random
from typing import Any

from querygen.plan.values import sample_pattern
from servers.kit import Param

NO_VALUE = object()  # no alternative exists: the gate rejects the task


def alternative(p: Param, current: Any, rng: random.Random) -> Any:
    """A different, well-typed value for ``p`` (``NO_VALUE`` if none exists)."""
    if p.is_list:
        return _other_list(p, current, rng)
    if p.enum:
        others = [v for v in p.enum if v != current]
        return rng.choice(others) if others else NO_VALUE
    if isinstance(current, bool):
        return not current
    if isinstance(current, int):
        hi = p.constraints.get("maximum", current + 1)
        return current + 1 if current + 1 <= hi else current - 1
    if isinstance(current, float):
        hi = p.constraints.get("maximum", current + 1)
        return round(current + 1.0, 2) if current + 1 <= hi else round(current / 2, 2)
    if isinstance(current, str):
        if p.constraints.get("pattern"):
            for _ in range(20):
                value = sample_pattern(p.constraints["pattern"], rng)
                if value is not None and value != current:
                    return value
        return current[:-1] + ("x" if not current.endswith("x") else "y") if current else "x"
    return NO_VALUE


def _other_list(p: Param, current: Any, rng: random.Random) -> Any:
    """The list with one element swapped for a different value not already in it."""
    if not isinstance(current, list) or not current:
        return NO_VALUE
    k = rng.randrange(len(current))
    element = p.element()
    for _ in range(5):
        other = alternative(element, current[k], rng)
        if other is NO_VALUE:
            return NO_VALUE
        if other not in current:
            return [*current[:k], other, *current[k + 1 :]]
    return NO_VALUE
