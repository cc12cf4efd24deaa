"""docker-compose.yml and the Dockerfile, checked against toolground itself (no Docker engine here).

Every service's command must parse with the CLI's own parser; the scaled profile must be the layout
``serve --workers 4 --gateways 2`` would run (shard k started as ``--shard k/4``, the gateways listing
the shard services in index order, one count everywhere, the same world in every shard, Host names
the gateways are reached by accepted); and the image must carry every package and distribution the
commands import.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tomllib
from importlib import metadata

import pytest
import yaml
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from servers.scale.owner import parse_shard
from tests.image import image_extras, image_packages, source_packages
from tests.serving import REPO
from toolground.cli import build_parser
from toolground.cmd_scale import shard_arguments

COMPOSE = yaml.safe_load((REPO / "docker-compose.yml").read_text())
SERVICES: dict[str, dict] = COMPOSE["services"]
DOCKERFILE = (REPO / "Dockerfile").read_text()


def parsed(name: str) -> argparse.Namespace:
    command = SERVICES[name]["command"]
    assert command[0] == "toolground", name
    return build_parser().parse_args(command[1:])  # an unknown flag exits: the test fails


def in_profile(profile: str | None) -> list[str]:
    return [
        n
        for n, s in SERVICES.items()
        if (profile in s.get("profiles", [])) or (profile is None and not s.get("profiles"))
    ]


SCALED = in_profile("scaled")
SHARDS = sorted(
    (n for n in SCALED if parsed(n).command == "serve"), key=lambda n: parse_shard(parsed(n).shard)
)
GATEWAYS = [n for n in SCALED if parsed(n).command == "gateway"]


@pytest.mark.parametrize("name", list(SERVICES))
def test_every_command_parses_and_serves_on_its_published_port(name):
    args = parsed(name)
    assert args.host == "0.0.0.0", name  # inside the container; published on loopback below
    service = SERVICES[name]
    health = " ".join(service["healthcheck"]["test"])
    assert f"http://localhost:{args.port}/health" in health, name
    for published in service.get("ports", []):
        assert re.fullmatch(rf"127\.0\.0\.1:\d+:{args.port}", published), (name, published)
    if args.command == "serve":  # 0.0.0.0 exposes /admin: serve refuses to start without a token
        assert "TOOLGROUND_ADMIN_TOKEN" in service["environment"], name


def test_the_default_pair_is_unchanged_and_the_scaled_layout_is_a_profile():
    assert in_profile(None) == ["mcp", "reward"]
    assert parsed("mcp").command == "serve" and parsed("mcp").workers == 1 and parsed("mcp").shard is None
    assert parsed("reward").command == "reward-serve" and parsed("reward").workers == 1
    assert len(SHARDS) == 4 and len(GATEWAYS) == 2 and set(SCALED) == {*SHARDS, *GATEWAYS, "reward-scaled"}
    reward = parsed("reward-scaled")
    assert reward.command == "reward-serve" and reward.workers == 2 and not reward.ray
    ports = [p.rsplit(":", 1)[0] for s in SERVICES.values() for p in s.get("ports", [])]
    assert len(ports) == len(set(ports)), f"two services publish the same host port: {ports}"


def test_shards_are_numbered_once_each_with_one_count():
    specs = [parse_shard(parsed(n).shard) for n in SHARDS]
    counts = {count for _, count in specs}
    assert counts == {len(SHARDS)}, f"--shard counts {counts} for {len(SHARDS)} shard services"
    assert [index for index, _ in specs] == list(range(len(SHARDS)))


def test_gateways_list_the_shard_services_in_index_order():
    for name in GATEWAYS:
        args = parsed(name)
        urls = args.shards.split(",")
        want = [f"http://{shard}:{parsed(shard).port}" for shard in SHARDS]  # service name = DNS name
        assert urls == want, name
        assert set(SERVICES[name]["depends_on"]) == set(SHARDS), name
        assert all(SERVICES[name]["depends_on"][s]["condition"] == "service_healthy" for s in SHARDS)
    assert sorted(parsed(n).index for n in GATEWAYS) == list(range(len(GATEWAYS)))


def test_every_shard_serves_the_world_serve_workers_would_give_it():
    """Same domains, seed, scale and limits as ``serve --workers N`` hands its shards, and the Host
    names clients reach the gateways by (the gateways forward the Host header as it came)."""
    single = build_parser().parse_args(["serve", "--domains", "all", "--workers", str(len(SHARDS))])
    want = build_parser().parse_args(["serve", *shard_arguments(single, len(SHARDS))])
    for name in SHARDS:
        args = parsed(name)
        for key in (
            "domains",
            "seed",
            "scale",
            "max_sessions",
            "idle_ttl",
            "stateless",
            "full_stack",
            "tasks",
        ):
            assert getattr(args, key) == getattr(want, key), (name, key)
        assert {*GATEWAYS, "localhost"} <= set(args.allowed_host), name
        assert args.journal is not None and args.uds is None, name


def test_the_image_is_built_whichever_services_are_started():
    images = {s.get("image") for s in SERVICES.values()}
    assert images == {"toolground:latest"}
    # `docker compose --profile scaled up gateway0 gateway1 reward-scaled` starts no default service
    assert any("build" in SERVICES[n] for n in SHARDS), "a shard must build the image the others use"
    assert "build" in SERVICES["mcp"]


def _installed_closure(requirements: list[str]) -> set[str]:
    """Every distribution pip installs for these requirements (markers and extras followed)."""
    seen: set[str] = set()
    todo = [(Requirement(r), "") for r in requirements]
    while todo:
        req, extra = todo.pop()
        if req.marker is not None and not req.marker.evaluate({"extra": extra}):
            continue
        name = canonicalize_name(req.name)
        key = f"{name}[{','.join(sorted(req.extras))}]"
        if key in seen:
            continue
        seen.add(key)
        for sub in metadata.requires(name) or []:
            for wanted in ("", *req.extras):
                todo.append((Requirement(sub), wanted))
    return {k.split("[")[0] for k in seen}


def test_the_dockerfile_installs_what_the_commands_import():
    extras = image_extras()
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    installed = _installed_closure(
        [*project["dependencies"], *(r for e in extras for r in project["optional-dependencies"][e])]
    )
    # what serve --shard, gateway and reward-serve --workers load, lazy imports included
    probe = """
import sys
started = set(sys.modules)  # the interpreter's own (and .pth files'): not what the commands need
import json, sysconfig
import toolground.cli, servers.serve, servers.scale.gateway, servers.scale.local, servers.scale.shard
import servers.scale.sockets, rewards.service, uvicorn, uvicorn.loops.uvloop, uvicorn.protocols.http.httptools_impl
toolground.cli.build_parser()
site = (sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"])
files = {m.split(".")[0]: getattr(mod, "__file__", None) or "" for m, mod in sys.modules.items() if m not in started}
print(json.dumps({
    "repo": sorted(m for m, f in files.items() if f.startswith(sys.argv[1]) and not f.startswith(site)),
    "site": sorted(m for m, f in files.items() if f.startswith(site) and not m.startswith("__editable__")),
}))
"""
    run = [sys.executable, "-c", probe, str(REPO) + "/"]
    found = json.loads(subprocess.run(run, capture_output=True, text=True, cwd=REPO, check=True).stdout)
    assert {"servers", "rewards", "toolground", "state"} <= set(found["repo"]) <= source_packages()
    for package in found["repo"]:
        assert package in image_packages(), f"the image lacks the {package} package"
    owners = metadata.packages_distributions()
    missing = {
        m: owners.get(m)
        for m in found["site"]
        if not {canonicalize_name(d) for d in owners.get(m, [])} & installed
    }
    assert not missing, f"imported but not installed by the Dockerfile's pip install: {missing}"


def test_the_image_prebuilds_every_domains_snapshot():
    """A shard or the reward service would otherwise build the missing snapshots at every start."""
    assert "Environment(parse_domains('all')).snapshots()" in DOCKERFILE.replace("\\\n", "")
    assert "ENV TOOLGROUND_CACHE=/data" in DOCKERFILE
