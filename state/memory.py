"""Giving freed episode memory back to the operating system.

A forked episode is a private in-memory SQLite database. When a burst of concurrent episodes is
released, glibc keeps the freed pages in its per-thread arenas for reuse: measured, a server that
served 256 env sessions kept ~580 MiB more RSS afterwards. That is not a leak (it levels off), but a
long training run pays it, and a host packing several servers runs out. ``malloc_trim`` returns
free pages of every arena; it costs milliseconds on a large heap, so the store calls it when a
release leaves it empty or has freed a lot since the last trim, never on every release.

Those two triggers alone left up to ``TRIM_EVERY_BYTES`` untrimmed after a burst whenever anything
else stayed live (the store never empties on a shared server), and the byte count is only the
SQLite pages: the heap a burst leaves behind is larger. So a release that does not trim arms a
timer, and the heap is trimmed once the releases have been quiet for ``TRIM_QUIET_SECONDS``: memory
comes back seconds after a burst ends, whatever else is live, at one trim per burst.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import os
import threading
import time

TRIM_EVERY_BYTES = 64 << 20  # freed since the last trim
TRIM_QUIET_SECONDS = 2.0  # after the last release that did not trim: trim what it left


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
    """Counts freed bytes and trims when the store empties, enough has been freed, or the releases
    have been quiet for ``quiet_seconds`` since one that did not trim."""

    def __init__(
        self, every_bytes: int = TRIM_EVERY_BYTES, quiet_seconds: float = TRIM_QUIET_SECONDS
    ) -> None:
        self.every_bytes = every_bytes
        self.quiet_seconds = quiet_seconds
        self.late_trims = 0  # trims the quiet timer made (for tests and the curious)
        self._freed = 0
        self._last = 0.0
        self._timer: threading.Timer | None = None
        self._lock = threading.Lock()

    def freed(self, nbytes: int, *, store_empty: bool) -> bool:
        """Record a release; True when this one triggered a trim (else the quiet timer will)."""
        with self._lock:
            self._freed += nbytes
            self._last = time.monotonic()
            if not (store_empty and self._freed) and self._freed < self.every_bytes:
                if self._timer is None and self._freed:
                    self._arm_locked(self.quiet_seconds)
                return False
            self._freed = 0
        return trim()

    def _arm_locked(self, delay: float) -> None:
        self._timer = threading.Timer(delay, self._quiet)
        self._timer.daemon = True
        self._timer.start()

    def _quiet(self) -> None:
        """The timer: trim if no release came for ``quiet_seconds``, else wait for the quiet."""
        with self._lock:
            self._timer = None
            if not self._freed:
                return  # a release trimmed since
            wait = self._last + self.quiet_seconds - time.monotonic()
            if wait > 0:
                self._arm_locked(wait)
                return
            self._freed = 0
        if trim():
            self.late_trims += 1
