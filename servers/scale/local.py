"""``toolground serve --workers N``: N shard processes and G gateways on one machine, no Ray.

The supervisor builds the snapshots once (so N processes do not race to build them), starts each
shard on a Unix socket in a private run folder, waits until every one answers, then starts the
gateways on one listening socket they share (the kernel hands each new connection to one of them).
It then watches: a shard or gateway that exits is started again, at once the first few times in a
row and then with a backoff (1 s, doubling to 30 s), never given up on; what it is doing is in
``supervisor.json`` in the run folder, which the gateways' ``/health`` reads. A restarted shard comes back
empty; its journal makes it answer calls for the env sessions it held with "was lost"
rather than a fresh world under an old name. Ctrl-C or SIGTERM stops everything.

The gateway half (:class:`Supervisor`, :func:`start_gateways`) is shared with
:mod:`servers.scale.on_ray`, whose shards are Ray actors but whose gateways are these processes.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

READY_TIMEOUT = 600.0  # a shard loading every domain's snapshot from the cache takes ~2-5 s
QUICK_RESTARTS = 5  # exits in a row restarted at once; after that, each waits a backoff
BACKOFF_FIRST = 1.0  # seconds before the restart after QUICK_RESTARTS exits in a row, doubling ...
BACKOFF_MAX = 30.0  # ... up to this
STABLE_AFTER = 60.0  # a child that ran this long was healthy: its next exit starts a new count
STATE_FILE = "supervisor.json"
TOOLGROUND = [sys.executable, "-m", "toolground"]


@dataclass
class Child:
    """One supervised process and how to start it again."""

    name: str
    argv: list[str]
    pass_fds: tuple[int, ...] = ()
    proc: subprocess.Popen | None = None
    started_at: float = 0.0
    exits_in_a_row: int = 0  # exits each within STABLE_AFTER of its start
    last_status: int | None = None
    next_start: float | None = None  # monotonic time of the pending restart, if it exited

    def start(self, env: dict[str, str]) -> None:
        self.proc = subprocess.Popen(
            self.argv, env=env, pass_fds=self.pass_fds, start_new_session=True, preexec_fn=_die_with_parent
        )
        self.started_at, self.next_start = time.monotonic(), None

    def exited(self) -> int | None:
        return None if self.proc is None else self.proc.poll()

    def schedule_restart(self, status: int, now: float) -> float:
        """Count this exit and set when to start again; returns the delay in seconds."""
        self.exits_in_a_row = 1 if now - self.started_at >= STABLE_AFTER else self.exits_in_a_row + 1
        self.last_status = status
        delay = backoff(self.exits_in_a_row)
        self.next_start = now + delay
        return delay

    def describe(self, now: float) -> dict[str, object]:
        """This child's state as the gateways report it in ``/health``."""
        waiting = self.next_start is not None
        return {
            "state": "backing off" if waiting else "running",
            "pid": None if waiting or self.proc is None else self.proc.pid,
            "exits_in_a_row": self.exits_in_a_row,
            "last_exit_status": self.last_status,
            "next_start_in_s": round(max(0.0, self.next_start - now), 1)
            if self.next_start is not None
            else None,
        }


def backoff(exits_in_a_row: int) -> float:
    """Seconds to wait before restarting a child that exited this many times in a row."""
    if exits_in_a_row <= QUICK_RESTARTS:
        return 0.0
    return min(BACKOFF_MAX, BACKOFF_FIRST * 2 ** (exits_in_a_row - QUICK_RESTARTS - 1))


@dataclass
class Supervisor:
    """Child processes started together, each started again when it exits, stopped together."""

    env: dict[str, str]
    state_file: Path | None = None  # where the gateways read each child's state (``/health``)
    children: list[Child] = field(default_factory=list)
    _stop: threading.Event = field(default_factory=threading.Event)

    def start(self, child: Child) -> None:
        self.children.append(child)
        child.start(self.env)
        self._write_state()

    def pids(self) -> dict[str, int | None]:
        return {c.name: c.proc.pid if c.proc else None for c in self.children}

    def watch(self, poll: float = 0.25) -> None:
        """Restart children that exit (with backoff, never giving up), until :meth:`stop` ends it."""
        while not self._stop.wait(poll):
            for child in self.children:
                if self._stop.is_set():  # (a stop from a signal handler can land mid-loop)
                    break
                self._tend(child, time.monotonic())

    def _tend(self, child: Child, now: float) -> None:
        if child.next_start is not None:
            if now >= child.next_start:
                child.start(self.env)
                self._write_state()
            return
        status = child.exited()
        if status is None:
            return
        delay = child.schedule_restart(status, now)
        lost = " its sessions are lost," if child.name.startswith("shard") else ""
        when = (
            f"restarting it in {delay:g} s ({child.exits_in_a_row} exits in a row)"
            if delay
            else "restarting it"
        )
        print(f"toolground: {child.name} exited (status {status});{lost} {when}", file=sys.stderr, flush=True)
        if delay == 0:
            child.start(self.env)
        self._write_state()

    def _write_state(self) -> None:
        """Each child's state, written aside and renamed over the file (a reader never sees half)."""
        if self.state_file is None:
            return
        now = time.monotonic()
        tmp = self.state_file.with_name(self.state_file.name + ".tmp")
        tmp.write_text(json.dumps({c.name: c.describe(now) for c in self.children}))
        os.replace(tmp, self.state_file)

    def stop(self) -> None:
        """SIGTERM to every child still running, SIGKILL to any not gone within 10 s."""
        self._stop.set()
        running = [c.proc for c in self.children if c.proc is not None and c.proc.poll() is None]
        for proc in running:
            proc.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + 10
        for proc in running:
            try:
                proc.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def tcp_listener(host: str, port: int, *, inheritable: bool = False) -> socket.socket:
    """A listening TCP socket on ``host:port`` (0: any free port); OSError if it cannot bind.

    SO_REUSEADDR lets a restarted server take its port back while connections of the one that died
    are still in TIME_WAIT."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    sock.listen(2048)
    sock.set_inheritable(inheritable)
    return sock


def start_gateways(
    supervisor: Supervisor, shard_urls: Sequence[str], host: str, port: int, count: int
) -> socket.socket:
    """``count`` gateway processes for these shards, sharing one socket on ``host:port`` (returned).

    RuntimeError naming the address if it cannot be had."""
    try:
        listener = tcp_listener(host, port, inheritable=True)
    except OSError as exc:
        raise RuntimeError(f"cannot listen on {host}:{port}: {exc.strerror}") from None
    fd = str(listener.fileno())
    for g in range(count):
        argv = [*TOOLGROUND, "gateway", "--shards", ",".join(shard_urls), "--fd", fd, "--index", str(g)]
        if supervisor.state_file is not None:
            argv += ["--supervisor-state", str(supervisor.state_file)]
        supervisor.start(Child(f"gateway {g}", argv, pass_fds=(listener.fileno(),)))
    return listener


def answers(url: str, timeout: float = 2.0) -> bool:
    """Whether the server at ``url`` (``unix:/path`` or ``http://host:port``) answers ``GET /health`` with 200."""
    if url.startswith("unix:"):
        family, address = socket.AF_UNIX, url[len("unix:") :]
    else:
        host, _, port = url.removeprefix("http://").rpartition(":")
        family, address = socket.AF_INET6 if ":" in host else socket.AF_INET, (host.strip("[]"), int(port))
    try:
        with socket.socket(family, socket.SOCK_STREAM) as s:
            s.settimeout(timeout)
            s.connect(address)
            s.sendall(b"GET /health HTTP/1.1\r\nhost: localhost\r\nconnection: close\r\n\r\n")
            return s.recv(16).startswith(b"HTTP/1.1 200")
    except OSError:
        return False


@dataclass
class LocalCluster:
    """Shards and gateways as child processes of this one."""

    shards: int
    gateways: int
    host: str
    port: int
    serve_args: list[str]  # what every shard gets: domains, seed, scale, limits, flags
    run_dir: Path
    env: dict[str, str] = field(default_factory=lambda: dict(os.environ))
    supervisor: Supervisor = field(init=False)
    _listener: socket.socket | None = field(default=None, init=False)  # kept open: the gateways' socket

    def __post_init__(self) -> None:
        self.supervisor = Supervisor(self.env, state_file=self.run_dir / STATE_FILE)

    def shard_address(self, k: int) -> str:
        return f"unix:{self.run_dir / f'shard-{k}.sock'}"

    def start(self) -> None:
        """Every shard up and answering, then the gateways; raises RuntimeError naming what failed."""
        self.run_dir.mkdir(parents=True, exist_ok=True)
        for k in range(self.shards):
            argv = [*TOOLGROUND, "serve", *self.serve_args, "--shard", f"{k}/{self.shards}"]
            argv += ["--uds", str(self.run_dir / f"shard-{k}.sock")]
            argv += ["--journal", str(self.run_dir / f"shard-{k}.journal")]
            self.supervisor.start(Child(f"shard {k}", argv))
        try:
            self._wait_ready()
            urls = [self.shard_address(k) for k in range(self.shards)]
            self._listener = start_gateways(self.supervisor, urls, self.host, self.port, self.gateways)
        except RuntimeError:
            self.stop()
            raise
        (self.run_dir / "layout.json").write_text(json.dumps(self.describe(), indent=2))

    def describe(self) -> dict:
        return {
            "endpoint": f"http://{self.host}:{self.port}",
            "shards": [self.shard_address(k) for k in range(self.shards)],
            "pids": self.supervisor.pids(),
        }

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + READY_TIMEOUT
        waiting = set(range(self.shards))
        while waiting:
            for k in sorted(waiting):
                status = self.supervisor.children[k].exited()
                if status is not None:
                    raise RuntimeError(f"shard {k} exited with status {status} while starting")
                if answers(self.shard_address(k)):
                    waiting.discard(k)
            if time.monotonic() > deadline:
                raise RuntimeError(f"shards {sorted(waiting)} did not answer within {READY_TIMEOUT:g} s")
            time.sleep(0.05)

    def watch(self, poll: float = 0.25) -> None:
        """Restart shards and gateways that exit, until :meth:`stop` (or a signal) ends it."""
        self.supervisor.watch(poll)

    def stop(self) -> None:
        self.supervisor.stop()


def _die_with_parent() -> None:
    """In the child: SIGTERM it when the supervisor dies, however it dies (Linux only)."""
    if sys.platform.startswith("linux"):
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
