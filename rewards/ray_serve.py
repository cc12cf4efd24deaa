"""The reward service as a Ray Serve deployment, for trainers that already run on Ray.

verl, OpenRLHF and SkyRL run on Ray; there the reward service can be N Serve replicas of the same
Starlette app behind Ray's HTTP proxy. It holds no state, so any replica serves any request and
Serve spreads them. ``toolground reward-serve --ray --workers N`` calls :func:`deploy`; a Serve
config file (``serve deploy``, KubeRay) can name :func:`app_builder` instead::

    applications:
      - name: toolground-reward
        route_prefix: /
        import_path: rewards.ray_serve:app_builder
        args: {replicas: 2, preset: prove}

Each replica builds its app itself (``__serve_build_asgi_app__``, from the plain settings handed to
the constructor), so Ray pickles a dict and never the app: Starlette apps, their thread limiter and
the replay pool's locks need not pickle. Ray is imported only inside these functions, so
``rewards`` works without it.
"""

from __future__ import annotations

import logging
import math
import os
from dataclasses import dataclass
from typing import Any

from starlette.applications import Starlette

from rewards.service import MAX_BODY, create_app

APP_NAME = "toolground-reward"
INSTALL = "pip install 'toolground[ray]'"


class RayUnavailable(RuntimeError):
    """Ray Serve cannot be used here (not installed, or no cluster at the address); says what to do."""


def _ray() -> tuple[Any, Any]:
    try:
        import ray
        from ray import serve
    except ImportError:
        raise RayUnavailable(f"--ray needs Ray Serve, which is not installed: {INSTALL}") from None
    return ray, serve


def build_app(**settings: Any) -> Starlette:
    """What every replica serves: exactly ``reward-serve``'s app, from the same settings
    (:func:`rewards.service.create_app`'s keywords; ``workers``: scoring threads)."""
    return create_app(**settings)


def reward_application(replicas: int = 1, *, num_cpus: float = 1.0, **settings: Any) -> Any:
    """The bound Serve application: ``replicas`` copies, each reserving ``num_cpus`` (scoring is
    CPU-bound, so one core each is the honest default; 0 lets them share a node's claimed CPUs)."""
    _, serve = _ray()

    @serve.deployment(name="RewardService", num_replicas=replicas, ray_actor_options={"num_cpus": num_cpus})
    @serve.ingress()
    class RewardService:
        def __init__(self, settings: dict[str, Any]) -> None:
            self.settings = settings

        def __serve_build_asgi_app__(self) -> Starlette:
            return build_app(**self.settings)

    return RewardService.bind(settings)


def app_builder(args: dict[str, Any]) -> Any:
    """Ray Serve's application-builder hook: ``serve run rewards.ray_serve:app_builder replicas=2``.

    Keys (all optional): ``replicas``, ``preset``, ``max_body_mb``, ``threads``, ``num_cpus``."""
    known = {"replicas", "preset", "max_body_mb", "threads", "num_cpus"}
    unknown = sorted(set(args) - known)
    if unknown:
        raise ValueError(f"unknown argument(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}")
    return reward_application(
        int(args.get("replicas", 1)),
        num_cpus=float(args.get("num_cpus", 1.0)),
        max_body=int(float(args.get("max_body_mb", MAX_BODY / 2**20)) * 2**20),
        default_preset=str(args.get("preset", "prove")),
        workers=int(args.get("threads", 4)),
    )


@dataclass
class Deployed:
    """A running deployment; :meth:`close` undoes what :func:`deploy` did, and no more."""

    url: str
    joined_ray: bool  # deploy called ray.init (else the caller had already)
    local_ray: bool  # ...and that started a private local cluster

    def close(self) -> None:
        """Delete the app; on a local Ray deploy started, stop Serve and Ray too. A cluster that was
        joined keeps running (other apps may use its Serve), this process only disconnects."""
        ray, serve = _ray()
        if self.local_ray:
            serve.shutdown()
        else:
            serve.delete(APP_NAME)
        if self.joined_ray:
            ray.shutdown()


def deploy(
    replicas: int,
    *,
    host: str = "127.0.0.1",
    port: int = 8100,
    route_prefix: str = "/",
    address: str | None = None,
    num_cpus: float = 1.0,
    log_level: str = "warning",
    **settings: Any,
) -> Deployed:
    """Deploy ``replicas`` reward replicas and return once all answer. ``address``: a Ray cluster
    to join (``auto`` for the one on this machine); None starts a private local Ray with at least
    enough logical CPUs for the replicas. ``settings`` are :func:`build_app`'s.

    Serve's HTTP host and port are cluster-wide and fixed by whoever started Serve first: on a
    cluster already running Serve, ``host``/``port`` are those of that Serve."""
    ray, serve = _ray()
    level = getattr(logging, log_level.upper(), logging.WARNING)
    logging.getLogger("ray.serve").setLevel(level)  # the driver's "Started Serve ..." lines
    joined = not ray.is_initialized()
    if joined:
        extra: dict[str, Any] = {}
        if address is None:
            extra["num_cpus"] = max(os.cpu_count() or 1, math.ceil(replicas * num_cpus))
        try:
            ray.init(address=address or "local", include_dashboard=False, logging_level=level, **extra)
        except ConnectionError as exc:
            raise RayUnavailable(f"cannot join the Ray cluster at {address}: {exc}") from None
    logs = {"log_level": logging.getLevelName(level), "enable_access_log": level <= logging.INFO}
    serve.start(http_options={"host": host, "port": port}, logging_config=logs)
    app = reward_application(replicas, num_cpus=num_cpus, **settings)
    serve.run(app, name=APP_NAME, route_prefix=route_prefix, logging_config=logs)
    url = f"http://{host}:{port}{route_prefix.rstrip('/')}"
    return Deployed(url=url, joined_ray=joined, local_ray=joined and address is None)
