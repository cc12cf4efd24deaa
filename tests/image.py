"""What the wheel and the Docker image hold, read from pyproject.toml, the Dockerfile and .dockerignore.

No Docker engine runs here, so the tests check the image's definition against the project instead:
the packages setuptools puts in the wheel, the part of the tree the Dockerfile copies, and the
extras its pip install names.
"""

from __future__ import annotations

import fnmatch
import re
import tomllib

from tests.serving import REPO

DOCKERFILE = (REPO / "Dockerfile").read_text()
NOT_SHIPPED = {"tests"}  # importable from the repo, never part of the distribution


def source_packages() -> set[str]:
    """The top-level import packages in the repository (a folder holding ``__init__.py``)."""
    return {p.name for p in REPO.iterdir() if (p / "__init__.py").is_file()} - NOT_SHIPPED


def wheel_packages() -> set[str]:
    """The top-level packages pyproject's ``packages.find`` includes (its patterns match dotted names,
    so a top-level name is in when a pattern matches it)."""
    find = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]["find"]
    return {p for p in source_packages() if any(fnmatch.fnmatchcase(p, pat) for pat in find["include"])}


def dockerignored(name: str) -> bool:
    """Whether ``.dockerignore`` keeps the top-level path ``name`` out of the build context."""
    path = REPO / ".dockerignore"
    patterns = path.read_text().splitlines() if path.exists() else []
    rules = [p.strip().removeprefix("**/").rstrip("/") for p in patterns if p.strip() and p[0] not in "#!"]
    return any(fnmatch.fnmatchcase(name, rule) for rule in rules)


def image_packages() -> set[str]:
    """The top-level packages the image installs: the wheel's, when the Dockerfile builds a wheel from
    the whole build context (``COPY . .`` then ``pip wheel ... .``), less what .dockerignore drops;
    otherwise those it copies one by one (``COPY servers ./servers``) and installs with pip."""
    context = re.search(r"^COPY \. \.$", DOCKERFILE, re.M)
    wheel = re.search(r"pip wheel [^\n]* \.$", DOCKERFILE, re.M)
    copied = {p for p in source_packages() if not dockerignored(p)} if context and wheel else set()
    copied |= set(re.findall(r"^COPY (\w+) \./\1$", DOCKERFILE, re.M))
    return copied & wheel_packages()


def image_extras() -> list[str]:
    """The extras the image's pip install asks for (``"${wheel}[export]"`` or ``'.[export]'``)."""
    install = re.search(r"pip install [^\n]*(?:\$\{wheel\}|'\.)\[(?P<extras>[^\]]*)\]", DOCKERFILE)
    assert install, "the Dockerfile installs toolground with pip"
    return [e.strip() for e in install["extras"].split(",") if e.strip()]
