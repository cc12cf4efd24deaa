"""Which event loop and HTTP parser the servers run on."""

from __future__ import annotations

import importlib.util


def fast_io() -> dict[str, str]:
    """uvicorn's ``loop`` and ``http`` settings: uvloop and httptools where installed (they are
    dependencies on Linux and macOS), else asyncio and h11. On this project's 2-core VM they cut a
    bare ASGI endpoint from ~250 to ~90 µs of CPU per request (BENCHMARKS.md)."""
    return {
        "loop": "uvloop" if importlib.util.find_spec("uvloop") else "asyncio",
        "http": "httptools" if importlib.util.find_spec("httptools") else "h11",
    }
