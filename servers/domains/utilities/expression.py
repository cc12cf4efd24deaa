"""A safe evaluator for one arithmetic expression: numbers, + - * / **, unary signs and
parentheses, nothing else. The text is parsed with ``ast`` and each node is evaluated here, so no
name, call, attribute, subscript or comprehension can ever run; sizes are bounded on the way so a
short text cannot ask for a huge power."""

from __future__ import annotations

import ast
import math
import operator
from collections.abc import Callable

from servers.kit import ToolError

MAX_MAGNITUDE = 1e15  # no literal, intermediate or final value may exceed this
MAX_EXPONENT = 100
ALLOWED = "numbers, + - * / ** and parentheses"

_BINARY: dict[type, tuple[str, Callable[[float, float], float]]] = {
    ast.Add: ("+", operator.add),
    ast.Sub: ("-", operator.sub),
    ast.Mult: ("*", operator.mul),
    ast.Div: ("/", operator.truediv),
    ast.Pow: ("**", operator.pow),
}
_UNARY = {ast.UAdd: operator.pos, ast.USub: operator.neg}
_OTHER_OPERATORS = {
    ast.Mod: "%",
    ast.FloorDiv: "//",
    ast.MatMult: "@",
    ast.BitAnd: "&",
    ast.BitOr: "|",
    ast.BitXor: "^",
    ast.LShift: "<<",
    ast.RShift: ">>",
    ast.Not: "not",
    ast.Invert: "~",
}
# what a refused construct is called in the error
_NAMES = {
    ast.Name: "names",
    ast.Call: "function calls",
    ast.Attribute: "attributes",
    ast.Subscript: "subscripts",
    ast.Compare: "comparisons",
    ast.BoolOp: "and/or",
    ast.Lambda: "lambdas",
    ast.IfExp: "conditional expressions",
    ast.List: "lists",
    ast.Tuple: "tuples",
    ast.Dict: "dicts",
    ast.Set: "sets",
    ast.JoinedStr: "f-strings",
}


def evaluate(text: str) -> float | int:
    """The value of ``text``, or a ToolError naming what is wrong with it."""
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        raise ToolError(f"cannot parse {text!r}: write one arithmetic expression of {ALLOWED}") from None
    try:
        return _eval(tree.body, text)
    except RecursionError:
        raise ToolError(f"{text!r} is nested too deeply") from None


def _eval(node: ast.AST, text: str) -> float | int:
    if isinstance(node, ast.Constant):
        value = node.value
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ToolError(f"{text!r} contains {value!r}; only {ALLOWED} are allowed")
        return _bounded(value, text)
    if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
        return _UNARY[type(node.op)](_eval(node.operand, text))
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        symbol, apply = _BINARY[type(node.op)]
        left, right = _eval(node.left, text), _eval(node.right, text)
        if symbol == "/" and right == 0:
            raise ToolError(f"division by zero in {text!r}: {_show(left)} / 0")
        if symbol == "**":
            return _power(left, right, text)
        return _bounded(apply(left, right), text)
    if isinstance(node, ast.BinOp | ast.UnaryOp):
        symbol = _OTHER_OPERATORS.get(type(node.op), type(node.op).__name__)
        raise ToolError(f"{text!r} uses the operator {symbol}; only {ALLOWED} are allowed")
    what = _NAMES.get(type(node), type(node).__name__)
    detail = f" ({node.id!r})" if isinstance(node, ast.Name) else ""
    raise ToolError(f"{text!r} uses {what}{detail}; only {ALLOWED} are allowed")


def _power(base: float, exponent: float, text: str) -> float | int:
    if abs(exponent) > MAX_EXPONENT:
        raise ToolError(f"exponent {_show(exponent)} in {text!r} is too large; at most {MAX_EXPONENT}")
    if base == 0 and exponent < 0:
        raise ToolError(f"division by zero in {text!r}: 0 ** {_show(exponent)}")
    if base < 0 and not float(exponent).is_integer():
        raise ToolError(f"({_show(base)}) ** {_show(exponent)} in {text!r} has no real value")
    try:
        value = base**exponent
    except OverflowError:
        raise ToolError(f"{_show(base)} ** {_show(exponent)} in {text!r} exceeds {MAX_MAGNITUDE:g}") from None
    return _bounded(value, text)


def _bounded(value: float | int, text: str) -> float | int:
    if isinstance(value, float) and not math.isfinite(value) or abs(value) > MAX_MAGNITUDE:
        raise ToolError(f"{text!r} reaches {_show(value)}, beyond the limit of +-{MAX_MAGNITUDE:g}")
    return value


def _show(x: float | int) -> str:
    if isinstance(x, int) and abs(x) > MAX_MAGNITUDE:
        return f"{'-' if x < 0 else ''}about 1e{len(str(abs(x))) - 1}"  # too big for a float
    return f"{x:g}" if isinstance(x, float) else str(x)
