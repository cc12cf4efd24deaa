"""Run in ``.venv-ray`` by tests/test_reward_scale.py: the reward service as a Ray Serve deployment.

``python reward_ray.py REQUESTS.json OUT.json``: deploys 2 replicas on a private local Ray with
:func:`rewards.ray_serve.deploy`, POSTs every request in REQUESTS.json (``{"score": [body, ...],
"batch": body}``) over HTTP, asks ``/health`` over fresh connections which replica answered, sends
one body that is not JSON, then shuts Serve and Ray down. OUT.json holds what came back and how
long each step took; the test compares the scores with in-process ``score``. Only the standard
library is used for HTTP, since the Ray venv need not have httpx.
"""

from __future__ import annotations

import json
import socket
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from rewards import ray_serve

PREFIX = "/reward"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def post(url: str, body: bytes) -> tuple[int, Any]:
    req = urllib.request.Request(url, data=body, headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status, json.load(r)
    except urllib.error.HTTPError as exc:
        return exc.code, json.load(exc)


def health_pids(url: str, tries: int = 60) -> list[int]:
    """Replica pids seen over fresh connections (urllib opens one per request), until two show."""
    seen: list[int] = []
    for _ in range(tries):
        with urllib.request.urlopen(url + "/health", timeout=30) as r:
            seen.append(json.load(r)["pid"])
        if len(set(seen)) >= 2:
            break
    return seen


def main(requests_path: str, out_path: str) -> int:
    requests = json.loads(Path(requests_path).read_text())
    out: dict[str, Any] = {}
    t0 = time.monotonic()
    deployed = ray_serve.deploy(2, port=free_port(), route_prefix=PREFIX, workers=2)
    out["deploy_s"] = time.monotonic() - t0
    out["url"] = deployed.url
    try:
        out["score"] = [post(deployed.url + "/score", json.dumps(b).encode()) for b in requests["score"]]
        out["batch"] = post(deployed.url + "/score/batch", json.dumps(requests["batch"]).encode())
        out["bad_json"] = post(deployed.url + "/score", b"{not json")
        out["pids"] = health_pids(deployed.url)
        out["requests_s"] = time.monotonic() - t0 - out["deploy_s"]
    finally:
        t1 = time.monotonic()
        deployed.close()
        out["shutdown_s"] = time.monotonic() - t1
    import ray

    out["ray_still_initialized"] = ray.is_initialized()
    Path(out_path).write_text(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
