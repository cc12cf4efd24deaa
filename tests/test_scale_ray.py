"""``toolground serve --ray``: shards as named Ray actors behind the gateways, on 127.0.0.1.

``tests/clients/ray_cluster.py`` runs in ``.venv-ray`` (``make test`` creates it with Ray 2.60):
it starts ``serve --ray`` with a local Ray, and checks from outside what ``tests/test_scale_out.py``
checks of ``--workers``: 256 concurrent sessions through two gateways into four shards, each
ending in its serial replay's state; one session through either gateway; a killed shard failing
only its own sessions, by name. Here the shards are actors found by name, and it is Ray that
restarts the killed one, on the same address, knowing which sessions it lost. The server's
processes (Ray's own included) must all be gone once it stops.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess

import pytest

from tests.serving import REPO, run_cli, server_env

RAY_PYTHON = REPO / ".venv-ray" / "bin" / "python"
SCRIPT = REPO / "tests" / "clients" / "ray_cluster.py"
SHARDS = 4


@pytest.fixture(scope="module")
def seen(tmp_path_factory):
    if not RAY_PYTHON.exists():
        pytest.skip("`make test` creates .venv-ray with Ray 2.60 (uv pip install -e '.[ray]')")
    cache = tmp_path_factory.mktemp("ray-cache")
    env = server_env(cache) | {"RAY_USAGE_STATS_ENABLED": "0"}
    res = subprocess.run(
        [str(RAY_PYTHON), str(SCRIPT)], capture_output=True, text=True, env=env, cwd=REPO, timeout=400
    )
    assert res.returncode == 0, res.stderr[-4000:]
    return json.loads(res.stdout.strip().splitlines()[-1])


def test_shards_are_named_actors_serving_where_the_gateways_send(seen):
    layout, actors = seen["layout"], seen["actors"]
    assert layout["namespace"] == "toolground"
    assert layout["actors"] == [f"toolground-shard-{k}" for k in range(SHARDS)]
    assert layout["ray_address"].startswith("127.0.0.1:")  # a local Ray stays on loopback
    assert all(url.startswith("http://127.0.0.1:") for url in layout["shards"])
    assert actors["addresses"] == layout["shards"]
    for k, (actor_pid, health_pid) in actors["pids"].items():
        assert actor_pid == health_pid, k  # the named actor is the process /health reports


def test_256_concurrent_sessions_match_their_serial_replay(seen):
    load = seen["load"]
    assert load["sessions"] == 256 and not load["failures"], load["failures"]
    assert set(load["gateways"]) == {"0", "1"}, load["gateways"]
    assert load["mismatched"] == [] and load["distinct_hashes"] > 240
    assert load["listed"] == []  # every session in the gateways' merged listing
    assert min(load["owned"].values()) > 40
    assert all(load["per_shard"][k] >= n for k, n in load["owned"].items())


def test_one_session_through_either_gateway_is_one_state(seen):
    both = seen["either_gateway"]
    assert both["gateways"] == ["0", "1"] and both["steps"] == [1.0]  # one balance, one deposit a step


def test_killing_a_shard_fails_only_its_sessions_and_ray_brings_it_back(seen):
    kill = seen["kill"]
    sid = kill["lost_id"]
    down = kill["down_error"]
    assert down["code"] == -32001 and f"env session {sid!r}" in down["message"]
    assert (
        "shard 1 of 4" in down["message"] and "Sessions on the other shards are unaffected" in down["message"]
    )
    assert kill["down_admin"][0] == 503 and sid in kill["down_admin"][1]
    assert kill["kept_ok"] and all(kill["kept_ok"])  # the other shards keep serving
    assert kill["kept_state"] and all(kill["kept_state"])  # with their sessions' state intact
    assert kill["status_while_down"] == "degraded"
    assert kill["restarted"], "Ray did not restart shard 1 within 60 s"
    assert kill["same_address"] and kill["new_pid"] and kill["actor_pid_is_new_pid"]
    assert f"env session {sid!r} was lost" in kill["lost_text"] and "shard 1 died" in kill["lost_text"]
    assert kill["lost_admin"] == 410 and kill["reset"] == 200 and kill["after_reset_ok"]
    assert kill["lost_sessions"] == kill["held_when_killed"] - 1  # the journal knew every one; one reset


def test_stopping_the_server_leaves_no_ray_process_behind(seen):
    assert seen["processes"] >= 2 + SHARDS + 2  # serve, Ray's gcs and raylet, the actors, the gateways
    assert seen["left_running"] == []


def test_ray_flag_without_ray_installed_names_the_extra(tmp_path):
    if importlib.util.find_spec("ray") is not None:
        pytest.skip("Ray is installed in this venv")
    out = run_cli(tmp_path, "serve", "--ray", "--domains", "banking", "--scale", "small")
    assert out.returncode == 2 and "pip install 'toolground[ray]'" in out.stderr, out.stderr
    assert "Traceback" not in out.stderr
