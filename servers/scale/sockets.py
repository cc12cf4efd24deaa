"""Listening sockets for shards and gateways, and uvicorn serving on one we made.

uvicorn's own ``uds=`` refuses a socket file left by a process that died (a restarted shard
always finds one) and makes it world-writable; its ``fd=`` assumes a Unix socket. So the socket
is made here and handed to uvicorn as it is.
"""

from __future__ import annotations

import os
import socket
from pathlib import Path
from typing import Any

KEEP_ALIVE = 75.0  # seconds a gateway's idle connection to a shard stays open (uvicorn's default: 5)


def unix_listener(path: Path) -> socket.socket:
    """A listening Unix socket at ``path`` (a stale file from a dead process is replaced), owner-only."""
    path.unlink(missing_ok=True)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.bind(str(path))
    os.chmod(path, 0o600)
    sock.listen(2048)
    return sock


def inherited_listener(fd: int) -> socket.socket:
    """The listening socket a supervisor passed down (family and type read from the descriptor)."""
    return socket.socket(fileno=fd)


def serve_on(app: Any, sock: socket.socket, *, log_level: str = "warning", **io: str) -> None:
    """uvicorn on ``sock``; ``io`` picks its loop and HTTP parser (``loop=``, ``http=``)."""
    import uvicorn

    config = uvicorn.Config(
        app, log_level=log_level, timeout_keep_alive=KEEP_ALIVE, access_log=False, proxy_headers=False, **io
    )
    uvicorn.Server(config).run(sockets=[sock])
