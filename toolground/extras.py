"""Optional dependencies: which extra of toolground brings each, and the error when one is missing.

``pip install toolground`` runs every command; a few options need a package that only an extra
installs (parquet needs pyarrow, ``--ray`` needs Ray). A command that takes such an option checks
for the package before any work starts and, if it is missing, stops with one line naming the
extra to install, instead of a ModuleNotFoundError from deep inside a run that had already begun.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from contextlib import contextmanager

from toolground.errors import UsageError

EXTRAS = {  # importable name -> the extra of pyproject.toml that installs it
    "pyarrow": "export",
    "ray": "ray",
}


def missing(module: str, needed_for: str) -> str:
    """The message for ``module`` not installed when ``needed_for`` needs it."""
    if module not in EXTRAS:
        raise ValueError(f"{module!r} is no optional dependency of toolground; known: {', '.join(EXTRAS)}")
    return f"{needed_for} needs {module}, which is not installed: pip install 'toolground[{EXTRAS[module]}]'"


def require(module: str, needed_for: str) -> None:
    """UsageError unless ``module`` (an optional dependency) can be imported."""
    if importlib.util.find_spec(module) is None:
        raise UsageError(missing(module, needed_for))


@contextmanager
def optional_imports(needed_for: str) -> Iterator[None]:
    """Turn a missing optional dependency met inside the block into that UsageError.

    For reads whose need shows only in the data (a dataset folder holding parquet files and no
    ``tasks.jsonl``): the reader imports pyarrow when it gets there, and the command says what to
    install. Any other missing module is a broken install and stays a traceback."""
    try:
        yield
    except ModuleNotFoundError as exc:
        top = (exc.name or "").partition(".")[0]
        if top not in EXTRAS:
            raise
        raise UsageError(missing(top, needed_for)) from None
