"""``toolground serve --workers N``: N shard processes and G gateways on one machine, no Ray.

The supervisor builds the snapshots once (so N processes do not race to build them), starts each
shard on a Unix socket in a private run folder, waits until every one answers, then starts the
gateways on one listening socket they share (the kernel hands each new connection to one of them).
It then watches: a shard or gateway that exits is started again. A restarted shard comes back
empty; its journal makes it answer calls for the sessions it held with "this session was lost"
rather than a fresh world under an old name. Ctrl-C or SIGTERM stops everything.
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
from dataclasses import dataclass, field
from pathlib import Path

READY_TIMEOUT = 600.0  # a shard loading every domain's snapshot from the cache takes ~2-5 s
RESTART_LIMIT = 5  # restarts within RESTART_WINDOW before a child is given up on
RESTART_WINDOW = 60.0


@dataclass
class Child:
    """One supervised process and how to start it again."""

    name: str
    argv: list[str]
    pass_fds: tuple[int, ...] = ()
    proc: subprocess.Popen | None = None
    restarts: list[float] = field(default_factory=list)
    given_up: bool = False

    def start(self, env: dict[str, str]) -> None:
        self.proc = subprocess.Popen(
            self.argv, env=env, pass_fds=self.pass_fds, start_new_session=True, preexec_fn=_die_with_parent
        )

    def exited(self) -> int | None:
        return None if self.proc is None else self.proc.poll()


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
    children: list[Child] = field(default_factory=list)
    _stop: threading.Event = field(default_factory=threading.Event)

    def shard_address(self, k: int) -> str:
        return f"unix:{self.run_dir / f'shard-{k}.sock'}"

    def start(self) -> None:
        """Every shard up and answering, then the gateways; raises RuntimeError naming what failed."""
        self.run_dir.mkdir(parents=True, exist_ok=True)
        cmd = [sys.executable, "-m", "toolground"]
        for k in range(self.shards):
            sock = self.run_dir / f"shard-{k}.sock"
            argv = [*cmd, "serve", *self.serve_args, "--shard", f"{k}/{self.shards}", "--uds", str(sock)]
            argv += ["--journal", str(self.run_dir / f"shard-{k}.journal")]
            self.children.append(Child(f"shard {k}", argv))
        for child in self.children:
            child.start(self.env)
        self._wait_ready()
        listener = self._listen()
        shards = ",".join(self.shard_address(k) for k in range(self.shards))
        for g in range(self.gateways):
            argv = [*cmd, "gateway", "--shards", shards, "--fd", str(listener.fileno()), "--index", str(g)]
            child = Child(f"gateway {g}", argv, pass_fds=(listener.fileno(),))
            child.start(self.env)
            self.children.append(child)
        self._listener = listener
        (self.run_dir / "layout.json").write_text(json.dumps(self.describe(), indent=2))

    def describe(self) -> dict:
        return {
            "endpoint": f"http://{self.host}:{self.port}",
            "shards": [self.shard_address(k) for k in range(self.shards)],
            "pids": {c.name: c.proc.pid if c.proc else None for c in self.children},
        }

    def _listen(self) -> socket.socket:
        family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((self.host, self.port))
        except OSError as exc:
            self.stop()
            raise RuntimeError(f"cannot listen on {self.host}:{self.port}: {exc.strerror}") from None
        sock.listen(2048)
        sock.set_inheritable(True)
        return sock

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + READY_TIMEOUT
        waiting = {k: self.run_dir / f"shard-{k}.sock" for k in range(self.shards)}
        while waiting:
            for k, path in list(waiting.items()):
                if self.children[k].exited() is not None:
                    self.stop()
                    raise RuntimeError(
                        f"shard {k} exited with status {self.children[k].exited()} while starting"
                    )
                if path.exists() and _answers(path):
                    del waiting[k]
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"shards {sorted(waiting)} did not answer within {READY_TIMEOUT:g} s")
            time.sleep(0.05)

    def watch(self, poll: float = 0.25) -> None:
        """Restart children that exit, until :meth:`stop` (or a signal) ends it."""
        while not self._stop.wait(poll):
            for child in self.children:
                status = child.exited()
                if status is None or child.given_up:
                    continue
                now = time.monotonic()
                child.restarts = [t for t in child.restarts if now - t < RESTART_WINDOW] + [now]
                if len(child.restarts) > RESTART_LIMIT:
                    child.given_up = True
                    print(
                        f"toolground: {child.name} keeps exiting (status {status}); not restarting it",
                        file=sys.stderr,
                    )
                    continue
                lost = " its sessions are lost," if child.name.startswith("shard") else ""
                print(
                    f"toolground: {child.name} exited (status {status});{lost} restarting it",
                    file=sys.stderr,
                    flush=True,
                )
                child.start(self.env)

    def stop(self) -> None:
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


def _die_with_parent() -> None:
    """In the child: SIGTERM it when the supervisor dies, however it dies (Linux only)."""
    if sys.platform.startswith("linux"):
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def _answers(path: Path) -> bool:
    """Whether the shard behind this Unix socket answers ``GET /health`` with 200."""
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(2)
            s.connect(str(path))
            s.sendall(b"GET /health HTTP/1.1\r\nhost: localhost\r\nconnection: close\r\n\r\n")
            return s.recv(16).startswith(b"HTTP/1.1 200")
    except OSError:
        return False
