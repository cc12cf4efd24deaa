"""``toolground reward-serve --workers N`` and ``--ray``: the reward service past one process.

Real processes on 127.0.0.1: two worker processes behind one port score real tasks (outcome
replays included) exactly as in-process ``score`` does, both answer, bad bytes stay a JSON 4xx, a
killed worker is started again and SIGTERM takes every worker down. In ``.venv-ray``,
``tests/clients/reward_ray.py`` deploys two Ray Serve replicas and is held to the same answers.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from rewards import EnvPool, score
from rewards.build import task_from_calls
from tests.domain_helpers import funded_accounts, transfer
from tests.serving import REPO, free_port, server_env
from tests.test_reward_service import GOOD, MINI, post
from toolground.cli import main

RAY_PYTHON = REPO / ".venv-ray" / "bin" / "python"
RAY_SCRIPT = REPO / "tests" / "clients" / "reward_ray.py"
needs_ray = pytest.mark.skipif(
    not RAY_PYTHON.exists(), reason="`make test` creates .venv-ray with ray[serve] 2.60.0"
)


@contextmanager
def reward_server(cache: Path, *args: str, timeout: float = 60.0) -> Iterator[tuple[subprocess.Popen, str]]:
    """``toolground reward-serve ARGS`` on a free loopback port; yields the process and base URL."""
    port = free_port()
    cmd = [sys.executable, "-m", "toolground", "reward-serve", "--port", str(port), *args]
    proc = subprocess.Popen(
        cmd, env=server_env(cache), cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + timeout
        while True:
            assert proc.poll() is None, proc.stderr.read().decode()
            try:
                if httpx.get(base + "/health", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "reward-serve did not come up"
            time.sleep(0.1)
        yield proc, base
    finally:
        if proc.poll() is None:
            proc.terminate()
            proc.wait(timeout=20)


def worker_pids(base: str, want: int = 2, tries: int = 200) -> set[int]:
    """The pids answering /health, each asked over a new connection, until ``want`` show."""
    seen: set[int] = set()
    for _ in range(tries):
        seen.add(httpx.get(base + "/health", timeout=10).json()["pid"])  # no client: a fresh connection
        if len(seen) >= want:
            break
    return seen


def parent_pid(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("PPid:"):
            return int(line.split()[1])
    raise AssertionError(f"no PPid for {pid}")


def as_call(name: str, arguments: dict) -> dict:
    return {"name": name, "arguments": arguments}


@pytest.fixture(scope="module")
def scoring(make_env, snapshot_cache):
    """Requests over a real banking task (outcome replay included) and what in-process score says."""
    env = make_env("banking")
    pool = EnvPool()
    pool.add(env)
    src, dst = funded_accounts(env)[:2]
    gold = transfer(src, dst, 5.0)
    task = task_from_calls(env, [("send 5", [gold])], task_id="scale").model_dump(mode="json")
    good, wrong = [as_call(*gold)], [as_call(*transfer(src, dst, 7.0))]
    singles = [
        {"task": task, "trajectory": good, "config": "prove+outcome"},
        {"task": task, "trajectory": wrong, "config": "prove+outcome"},
        {"task": MINI, "trajectory": GOOD},
        {"task": MINI, "trajectory": GOOD[:1], "config": "recall"},
    ]
    trajs = [good, wrong, [], good + wrong]
    batch = {
        "tasks": [task],
        "items": [{"task_index": 0, "trajectory": t} for t in trajs] + [{"task": MINI, "trajectory": GOOD}],
        "config": "prove+outcome",
    }

    def expect(task, trajectory, config):
        return json.loads(json.dumps(score(task, trajectory, config, pool=pool).as_dict()))

    want_single = [expect(b["task"], b["trajectory"], b.get("config")) for b in singles]
    want_batch = [expect(task, t, "prove+outcome") for t in trajs] + [expect(MINI, GOOD, "prove+outcome")]
    assert want_single[0]["components"]["outcome"] == 1.0 and want_single[1]["components"]["outcome"] < 1
    cache = snapshot_cache.root.parent  # the workers rebuild nothing: same snapshots, same sha256
    return cache, singles, batch, want_single, want_batch


@pytest.fixture(scope="module")
def two_workers(scoring):
    with reward_server(scoring[0], "--workers", "2", "--threads", "2") as (proc, base):
        yield proc, base


def test_two_workers_score_exactly_like_in_process(scoring, two_workers):
    _, singles, batch, want_single, want_batch = scoring
    _, base = two_workers
    for body, want in zip(singles, want_single, strict=True):
        with httpx.Client(base_url=base, timeout=60) as client:  # a new connection, any worker
            r = post(client, "/score", body)
        assert r.status_code == 200, r.text
        assert r.json() == want
    with httpx.Client(base_url=base, timeout=60) as client:
        r = post(client, "/score/batch", batch)
    assert r.status_code == 200, r.text
    assert r.json() == {"results": want_batch, "errors": 0}


def test_both_worker_processes_answer(two_workers):
    proc, base = two_workers
    pids = worker_pids(base)
    assert len(pids) == 2 and proc.pid not in pids
    assert {parent_pid(p) for p in pids} == {proc.pid}  # the supervisor's own children


def test_bad_json_is_still_a_json_4xx(two_workers):
    _, base = two_workers
    for _ in range(6):  # over fresh connections, so both workers are asked
        with httpx.Client(base_url=base, timeout=30) as client:
            r = post(client, "/score", b"{not json")
            assert r.status_code == 400 and "malformed JSON" in r.json()["error"]
            r = post(client, "/score/batch", {"items": []})
            assert r.status_code == 422 and "items" in r.json()["error"]
            assert "Traceback" not in r.text


def test_a_killed_worker_is_started_again_and_sigterm_stops_them_all(scoring):
    with reward_server(scoring[0], "--workers", "2") as (proc, base):
        before = worker_pids(base)
        victim = min(before)
        os.kill(victim, signal.SIGKILL)
        deadline = time.monotonic() + 60
        while not (now := worker_pids(base, tries=20)) - before:  # the survivor answers meanwhile
            assert time.monotonic() < deadline, "the killed worker was not restarted"
            time.sleep(0.2)
        pids = worker_pids(base, tries=40) | now
        assert victim not in pids and len(pids) == 2 and proc.poll() is None
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=20) == 0
        assert "exited (status -9); restarting it" in proc.stderr.read().decode()
    for pid in pids:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
    with pytest.raises(httpx.ConnectError):
        httpx.get(base + "/health", timeout=2)


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["--workers", "0"], "--workers >= 1"),
        (["--threads", "0"], "--threads"),
        (["--max-body-mb", "0"], "--max-body-mb"),
        (["--ray-address", "auto"], "need --ray"),
        (["--route-prefix", "/r"], "need --ray"),
        (["--ray", "--route-prefix", "r"], "must start with '/'"),
        (["--port", "70000"], "--port"),
        (["--preset", "greedy", "--workers", "2"], "unknown preset"),
    ],
)
def test_bad_options_are_one_line_usage_errors(capsys, argv, needle):
    assert main(["reward-serve", *argv]) == 2
    err = capsys.readouterr().err
    assert needle in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_a_busy_port_is_a_usage_error(capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["reward-serve", "--workers", "2", "--port", str(port)]) == 2
    err = capsys.readouterr().err
    assert f"cannot listen on 127.0.0.1:{port}" in err and len(err.strip().splitlines()) == 1


def test_ray_without_ray_says_what_to_install(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` raises ImportError, installed or not
    assert main(["reward-serve", "--ray", "--workers", "2"]) == 2
    err = capsys.readouterr().err
    assert "pip install 'toolground[ray]'" in err and len(err.strip().splitlines()) == 1


@needs_ray
def test_ray_serve_replicas_score_like_in_process(scoring, tmp_path):
    cache, singles, batch, want_single, want_batch = scoring
    requests, out = tmp_path / "requests.json", tmp_path / "out.json"
    requests.write_text(json.dumps({"score": singles, "batch": batch}))
    env = server_env(cache)
    ray_tmp = tempfile.mkdtemp(prefix="tgray-", dir="/tmp")  # short: Ray's socket paths live under it
    env.update(RAY_TMPDIR=ray_tmp, RAY_USAGE_STATS_ENABLED="0")
    proc = subprocess.Popen(
        [str(RAY_PYTHON), str(RAY_SCRIPT), str(requests), str(out)],
        env=env,
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        log, _ = proc.communicate(timeout=300)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        raise
    finally:
        subprocess.run(["rm", "-rf", ray_tmp], check=False)
    assert proc.returncode == 0, log.decode()[-4000:]
    got = json.loads(out.read_text())
    assert [s for s, _ in got["score"]] == [200] * len(singles)
    assert [body for _, body in got["score"]] == want_single
    assert got["batch"] == [200, {"results": want_batch, "errors": 0}]
    status, err = got["bad_json"]
    assert status == 400 and "malformed JSON" in err["error"]
    assert len(set(got["pids"])) == 2, got["pids"]  # two replicas, two processes
    assert got["url"].endswith("/reward") and got["ray_still_initialized"] is False
    print(
        f"ray: deploy {got['deploy_s']:.1f} s, requests {got['requests_s']:.1f} s, shutdown {got['shutdown_s']:.1f} s"
    )


def test_the_serve_config_builder_names_unknown_arguments():
    from rewards.ray_serve import app_builder

    with pytest.raises(ValueError, match="unknown argument"):
        app_builder({"replicas": 2, "workers": 3})  # --workers is the CLI's word; Serve configs say replicas
