"""Giving freed episode memory back to the operating system.

A forked episode is a private in-memory SQLite database. When a burst of concurrent episodes is
released, glibc keeps the freed pages in its per-thread arenas for reuse: measured, a server that
served 256 env sessions kept ~580 MiB more RSS afterwards. That is not a leak (it levels off), but a
long training run pays it, and a host packing several servers runs out. ``malloc_trim`` returns
free pages of every arena; it costs milliseconds on a large heap, so the store calls it when a
release leaves it empty or has freed a lot since the last trim, never on every release.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import os
import threading

TRIM_EVERY_BYTES = 64 << 20  # freed since the last trim


@functools.cache
def _libc_trim():
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        trim = ctypes.CDLL(name).malloc_trim
    except (OSError, AttributeError):  # not glibc (musl, macOS): nothing to trim
        return None
    trim.argtypes, trim.restype = [ctypes.c_size_t], ctypes.c_int
    return trim


def trim() -> bool:
    """Return free heap pages to the OS; False where the C library has no ``malloc_trim``, or
    ``TOOLGROUND_MALLOC_TRIM=0`` turned it off (to measure what it saves)."""
    fn = _libc_trim() if os.environ.get("TOOLGROUND_MALLOC_TRIM", "1") != "0" else None
    if fn is None:
        return False
    fn(0)
    return True


class TrimPolicy:
    """Counts freed bytes and trims when the store empties or enough has been freed."""

    def __init__(self, every_bytes: int = TRIM_EVERY_BYTES) -> None:
        self.every_bytes = every_bytes
        self._freed = 0
        self._lock = threading.Lock()

    def freed(self, nbytes: int, *, store_empty: bool) -> bool:
        """Record a release; True when this one triggered a trim."""
        with self._lock:
            self._freed += nbytes
            if not (store_empty and self._freed) and self._freed < self.every_bytes:
                return False
            self._freed = 0
        return trim()
