"""Packaging that CI cannot run (no Docker engine here): check it against the real CLI instead."""

from __future__ import annotations

import yaml

from tests.image import image_packages, source_packages, wheel_packages
from tests.serving import REPO
from toolground.cli import build_parser


def test_compose_services_run_commands_the_cli_accepts():
    compose = yaml.safe_load((REPO / "docker-compose.yml").read_text())
    services = {n: s for n, s in compose["services"].items() if "profiles" not in s}  # the default pair
    assert set(services) == {"mcp", "reward"}  # the scaled profile: tests/test_compose.py
    parser = build_parser()
    for name, service in services.items():
        command = service["command"]
        assert command[0] == "toolground", name
        args = parser.parse_args(command[1:])  # exits (fails the test) on an unknown flag
        assert args.host == "0.0.0.0"
        published = service["ports"][0]
        assert published.startswith("127.0.0.1:") and published.endswith(f":{args.port}"), name
    assert "TOOLGROUND_ADMIN_TOKEN" in services["mcp"]["environment"]


def test_every_package_is_in_the_wheel_and_the_image():
    """A package the wheel lacks is missing after ``pip install toolground``; one the image lacks,
    in the containers. Both are read from the files that decide them, so a new package (contract/)
    needs no edit here: it fails until pyproject's packages.find includes it."""
    assert {
        "state",
        "contract",
        "servers",
        "querygen",
        "rewards",
        "rollout",
        "toolground",
    } <= source_packages()
    assert wheel_packages() == source_packages(), "pyproject.toml's packages.find misses a package"
    assert image_packages() == wheel_packages(), "the Dockerfile (or .dockerignore) leaves a package out"


def test_the_image_readers_notice_a_package_left_out(monkeypatch):
    """The check above must be able to fail: leave rollout out of the build context, then copy
    packages one by one as the Dockerfile once did."""
    from tests import image

    assert "rollout" in image.image_packages()
    monkeypatch.setattr(image, "dockerignored", lambda name: name == "rollout")
    assert "rollout" not in image.image_packages()
    monkeypatch.undo()
    monkeypatch.setattr(image, "DOCKERFILE", image.DOCKERFILE.replace("COPY . .", "COPY servers ./servers"))
    assert image.image_packages() == {"servers"}
