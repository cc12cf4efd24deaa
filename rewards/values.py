"""When two JSON values are "the same" (Eq. 4's ``c.args[k] = g.args[k]``, outcome cells, answer facts).

Exact mode (the ``prove`` default) is JSON equality: JSON has one number type, so ``10`` equals
``10.0``, but a bool is not a number, ``"10"`` is not ``10`` and case matters. Normalised mode
(``arg_normalize=True``) also treats as equal: strings that differ only in case or surrounding /
repeated whitespace, numeric strings and numbers of the same value, ``"true"``/``"false"`` and
bools, and numbers within a relative tolerance of 1e-6 — recursively in lists and objects.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

_NUM = (int, float)


def json_equal(a: Any, b: Any) -> bool:
    """Strict JSON equality (numbers by value, bools apart from numbers)."""
    return _equal(a, b, _json_scalar_equal)


def _json_scalar_equal(a: Any, b: Any) -> bool:
    ta, tb = type(a), type(b)
    if ta is tb:
        return a == b
    return ta in _NUM and tb in _NUM and a == b


def _equal(a: Any, b: Any, scalar: Callable[[Any, Any], bool]) -> bool:
    """Structural equality with ``scalar`` at the leaves, walked with an explicit stack.

    An agent may send arguments nested thousands deep; recursion would end in RecursionError
    (a 500 from the reward service, a crashed reward function in a trainer), so no call here
    recurses."""
    stack = [(a, b)]
    while stack:
        x, y = stack.pop()
        if isinstance(x, dict) and isinstance(y, dict):
            if x.keys() != y.keys():
                return False
            stack.extend((x[k], y[k]) for k in x)
        elif isinstance(x, list) and isinstance(y, list):
            if len(x) != len(y):
                return False
            stack.extend(zip(x, y, strict=True))
        elif isinstance(x, dict | list) or isinstance(y, dict | list) or not scalar(x, y):
            return False
    return True


def _norm_scalar(v: Any) -> Any:
    if isinstance(v, str):
        s = " ".join(v.split()).casefold()
        if s in ("true", "false"):
            return s == "true"
        try:
            return float(s.replace(",", "")) if s and (s[0].isdigit() or s[0] in "+-.") else s
        except ValueError:
            return s
    if isinstance(v, bool) or v is None:
        return v
    if isinstance(v, _NUM):
        return float(v)
    return v


def loose_equal(a: Any, b: Any) -> bool:
    """Equality after normalisation (see the module docstring)."""
    return _equal(a, b, _loose_scalar_equal)


def _loose_scalar_equal(a: Any, b: Any) -> bool:
    x, y = _norm_scalar(a), _norm_scalar(b)
    if type(x) is float and type(y) is float:
        return math.isclose(x, y, rel_tol=1e-6, abs_tol=1e-9)
    return type(x) is type(y) and x == y


def cell_equal(a: Any, b: Any) -> bool:
    """Database cells: exact, except floats within 1e-9 (SQLite REAL arithmetic)."""
    if type(a) is float or type(b) is float:
        return isinstance(a, _NUM) and isinstance(b, _NUM) and math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)
    return a == b and type(a) is type(b)
