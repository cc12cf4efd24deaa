"""``toolground serve --ray``: the shards as named Ray actors, the gateways as local processes.

Each shard is an actor ``toolground-shard-<k>`` in namespace ``toolground``, in a Ray worker
process of its own. It builds the very app ``toolground serve --shard k/N`` serves
(the ``build`` it is given: ``toolground.cmd_serve.shard_app``, from the same arguments a ``--workers`` shard process
gets) and serves it with uvicorn on a thread, on a TCP port of its node. The gateways are the
plain processes of :mod:`servers.scale.local`, given the shards' URLs once, at start.

Those URLs outlive a shard's death: Ray restarts a dead actor (``max_restarts``) and re-runs its
constructor, which is pinned to the node it first ran on (hard node affinity), binds the port its
first life wrote beside its journal (``shard-<k>.port``) and reads that journal, so the gateways
reach it where they always did and it answers calls for the env sessions it held with "was lost".

Ray is imported only here, and only when a cluster starts: toolground runs without it.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import signal
import socket
import sys
import threading
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from servers.scale.local import READY_TIMEOUT, Supervisor, answers, start_gateways, tcp_listener

AppBuilder = Callable[[list[str]], Any]  # shard arguments -> the ASGI app to serve
NAMESPACE = "toolground"
MAX_RESTARTS = -1  # Ray restarts a shard's process as often as it dies (one that cannot start
# again, its port taken say, prints why and stays down: the gateways report it as not answering)
# Ray binds a machine's outward address even for a local cluster (resolve_ip_for_localhost); with
# this off, the cluster ``serve --ray`` starts for itself stays on 127.0.0.1, as a local server does.
RAY_ON_LOOPBACK = "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"
SHARED_ENV = ("TOOLGROUND_", "FASTMCP_")  # the environment a shard needs, wherever its node is


def actor_name(k: int) -> str:
    return f"toolground-shard-{k}"


class ShardActor:
    """One shard: its app served by uvicorn on a thread of this actor's process.

    The constructor never raises: Ray would only report a traceback. It keeps a one-line reason
    instead, which :meth:`address` raises for the cluster to show."""

    def __init__(
        self, index: int, argv: list[str], run_dir: str, build: AppBuilder, io: dict[str, str]
    ) -> None:
        self.index, self.url, self.failure = index, "", ""
        try:
            self.url = self._serve(argv, Path(run_dir), build, io)
        except Exception as exc:  # a usage error, a port taken since: reported by address()
            self.failure = f"shard {index} did not start: {exc}"
            print(self.failure, file=sys.stderr, flush=True)

    def _serve(self, argv: list[str], run_dir: Path, build: AppBuilder, io: dict[str, str]) -> str:
        import ray

        from servers.scale.sockets import serve_on

        run_dir.mkdir(parents=True, exist_ok=True)
        host = ray.util.get_node_ip_address()
        port_file = run_dir / f"shard-{self.index}.port"
        with warnings.catch_warnings():  # Ray 2.60's own implementation calls a deprecated property
            warnings.simplefilter("ignore", DeprecationWarning)
            reborn = ray.get_runtime_context().was_current_actor_reconstructed
        sock = tcp_listener(host, int(port_file.read_text()) if reborn else 0)
        port = sock.getsockname()[1]
        if not reborn:
            _write_atomic(port_file, str(port))
        app = build([*argv, "--host", host, "--port", str(port)])
        url = f"http://{host}:{port}"
        errors: list[BaseException] = []

        def run() -> None:
            try:
                serve_on(app, sock, **io)
            except BaseException as exc:
                errors.append(exc)

        thread = threading.Thread(target=run, name=f"shard-{self.index}-uvicorn", daemon=True)
        thread.start()
        while not answers(url):
            if not thread.is_alive():
                raise RuntimeError(f"its server stopped: {errors[0] if errors else 'no reason given'}")
            time.sleep(0.02)
        return url

    def address(self) -> str:
        """The shard's URL once it answers; RuntimeError with the reason if it could not start."""
        if self.failure:
            raise RuntimeError(self.failure)
        return self.url

    def pid(self) -> int:
        return os.getpid()


@dataclass
class RayCluster:
    """Shards as named Ray actors, gateways as child processes of this one.

    ``address`` joins that Ray cluster; without it a local one is started, sized for the shards
    (one CPU each), and shut down by :meth:`stop`."""

    shards: int
    gateways: int
    host: str
    port: int
    serve_args: list[str]  # what every shard gets: domains, seed, scale, limits, flags
    run_dir: Path
    env: dict[str, str] = field(default_factory=lambda: dict(os.environ))
    address: str | None = None
    # how an actor builds its shard's app from shard arguments (the CLI's, so both engines serve
    # one and the same shard) and the uvicorn loop/parser to serve it on; passed in, so this
    # package needs nothing from the command line's
    build: AppBuilder | None = None
    io: dict[str, str] = field(default_factory=dict)
    actors: list[Any] = field(default_factory=list)
    urls: list[str] = field(default_factory=list)
    supervisor: Supervisor = field(init=False)
    _listener: Any = field(default=None, init=False)  # kept open: the gateways' socket
    token_path: Path | None = field(default=None, init=False)  # the started Ray's token, for joiners
    _ray: Any = field(default=None, init=False)

    def __post_init__(self) -> None:
        self.supervisor = Supervisor(self.env)

    def start(self) -> None:
        """Every shard actor up and answering, then the gateways; RuntimeError naming what failed."""
        if self.build is None:
            raise RuntimeError(
                "RayCluster needs build=: the function that makes a shard's app from its arguments"
            )
        self.run_dir.mkdir(parents=True, exist_ok=True)
        began = time.monotonic()
        self._connect()
        connected = time.monotonic()
        try:
            nodes = self._nodes()
            self.actors = [self._shard(k, nodes[k % len(nodes)]) for k in range(self.shards)]
            self.urls = self._wait_ready()
            print(
                f"toolground: Ray {'joined' if self.address else 'started'} in {connected - began:.1f} s, "
                f"{self.shards} shard actors answering {time.monotonic() - connected:.1f} s later",
                file=sys.stderr,
                flush=True,
            )
            self._listener = start_gateways(self.supervisor, self.urls, self.host, self.port, self.gateways)
        except RuntimeError:
            self.stop()
            raise
        (self.run_dir / "layout.json").write_text(json.dumps(self.describe(), indent=2))

    def describe(self) -> dict:
        context = self._ray.get_runtime_context() if self._ray is not None else None
        return {
            "endpoint": f"http://{self.host}:{self.port}",
            "shards": self.urls,
            "actors": [actor_name(k) for k in range(len(self.actors))],
            "namespace": NAMESPACE,
            "ray_address": context.gcs_address if context is not None else None,
            "ray_auth_token_path": str(self.token_path) if self.token_path else None,
            "pids": self.supervisor.pids(),
        }

    def watch(self, poll: float = 0.25) -> None:
        """Restart gateways that exit (Ray restarts the shards), until :meth:`stop` ends it."""
        self.supervisor.watch(poll)

    def stop(self) -> None:
        """Gateways stopped, shard actors killed for good, this process off Ray (a Ray it started, gone)."""
        self.supervisor.stop()
        ray, self._ray = self._ray, None
        if ray is None:
            return
        for actor in self.actors:
            with contextlib.suppress(Exception):  # already dead, or the cluster went first
                ray.kill(actor, no_restart=True)
        self.actors = []
        ray.shutdown()

    # -- starting -----------------------------------------------------------------------------

    def _connect(self) -> None:
        if self.address is None:  # the processes of a Ray started here inherit this environment
            os.environ.setdefault(RAY_ON_LOOPBACK, "0")  # read when ray is first imported
            os.environ.update(_shared_env(self.env))
            self.token_path = _private_token(self.run_dir)
        elif (problem := _unreachable(self.address)) is not None:
            raise RuntimeError(problem)  # ray.init would retry for minutes, printing warnings
        try:
            import ray
        except ImportError:
            raise RuntimeError("--ray needs Ray, an optional extra: pip install 'toolground[ray]'") from None
        kept = signal.getsignal(signal.SIGTERM)  # ray.init puts sys.exit(15) in its place
        options: dict[str, Any] = {"namespace": NAMESPACE, "logging_level": "WARNING"}
        if self.address is None:  # niceness 0: a shard is on every env call's path (Ray's default is 15)
            options.update(
                num_cpus=self.shards, include_dashboard=False, _system_config={"worker_niceness": 0}
            )
        try:
            ray.init(address=self.address, **options)
        except (ConnectionError, ValueError, RuntimeError) as exc:
            raise RuntimeError(f"cannot join the Ray cluster at {self.address}: {exc}") from None
        finally:
            signal.signal(signal.SIGTERM, kept)
        self._ray = ray

    def _nodes(self) -> list[str]:
        """The alive nodes with a CPU to give a shard, in a fixed order (shard k goes to k mod n)."""
        nodes = sorted(
            n["NodeID"] for n in self._ray.nodes() if n["Alive"] and n["Resources"].get("CPU", 0) >= 1
        )
        if not nodes:
            raise RuntimeError("no alive node of the Ray cluster has a CPU to give a shard")
        return nodes

    def _shard(self, k: int, node: str) -> Any:
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

        argv = [*self.serve_args, "--shard", f"{k}/{self.shards}"]
        argv += ["--journal", str(self.run_dir / f"shard-{k}.journal")]
        options: dict[str, Any] = {}
        if self.address is not None:  # a Ray we started inherited them (and so keeps its idle workers fit)
            options["runtime_env"] = {"env_vars": _shared_env(self.env)}
        actor = self._ray.remote(ShardActor).options(
            name=actor_name(k),
            namespace=NAMESPACE,
            num_cpus=1,
            max_restarts=MAX_RESTARTS,
            scheduling_strategy=NodeAffinitySchedulingStrategy(node, soft=False),  # restarts land here too
            **options,
        )
        try:
            return actor.remote(k, argv, str(self.run_dir), self.build, self.io)
        except ValueError as exc:  # the name is taken: another serve --ray on this cluster
            raise RuntimeError(
                f"cannot create actor {actor_name(k)!r} in namespace {NAMESPACE!r}: {exc}"
            ) from None

    def _wait_ready(self) -> list[str]:
        deadline = time.monotonic() + READY_TIMEOUT
        urls = []
        for k, actor in enumerate(self.actors):
            try:
                urls.append(
                    self._ray.get(actor.address.remote(), timeout=max(1.0, deadline - time.monotonic()))
                )
            except self._ray.exceptions.GetTimeoutError:
                raise RuntimeError(
                    f"shard {k} ({actor_name(k)}) did not answer within {READY_TIMEOUT:g} s"
                ) from None
            except self._ray.exceptions.RayError as exc:
                raise RuntimeError(_reason(exc)) from None
        return urls


def _private_token(run_dir: Path) -> Path | None:
    """A token of its own for the Ray about to start here, in the run folder (owner-only).

    Ray 2.60 turns token auth on for a local ``ray.init()`` and by default keeps the token in
    ``~/.ray/auth_token``, shared by every local Ray of this user: one's cleanup can lock the
    others' clients out (seen on this machine). Joiners set ``RAY_AUTH_MODE=token`` and
    ``RAY_AUTH_TOKEN_PATH`` to this file. None when the user chose Ray's auth settings already."""
    if any(name in os.environ for name in ("RAY_AUTH_MODE", "RAY_AUTH_TOKEN", "RAY_AUTH_TOKEN_PATH")):
        return None
    path = run_dir / "ray-auth-token"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as out:
        out.write(secrets.token_hex(32))
    os.environ.update(RAY_AUTH_MODE="token", RAY_AUTH_TOKEN_PATH=str(path))
    return path


def _unreachable(address: str) -> str | None:
    """Why nothing answers at a ``HOST:PORT`` Ray address, or None (other forms, e.g. ``auto`` or
    ``ray://...``, are left to Ray)."""
    host, sep, port = address.rpartition(":")
    if not sep or not port.isdigit() or "/" in address:
        return None
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=5).close()
    except OSError as exc:
        return f"nothing answers at --ray-address {address} ({exc.strerror or exc}); is a Ray head running there?"
    return None


def _shared_env(env: dict[str, str]) -> dict[str, str]:
    """What of ``env`` a shard needs on any node: toolground's and fastmcp's settings, no paths."""
    return {name: value for name, value in env.items() if name.startswith(SHARED_ENV)}


def _reason(exc: BaseException) -> str:
    """The one-line cause of a Ray error (a task's own exception, not Ray's traceback of it)."""
    cause = getattr(exc, "cause", None)
    text = str(cause if cause is not None else exc).strip()
    return text.splitlines()[-1] if text else type(exc).__name__


def _write_atomic(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text)
    os.replace(tmp, path)
