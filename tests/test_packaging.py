"""Packaging that CI cannot run (no Docker engine here): check it against the real CLI instead."""

from __future__ import annotations

import yaml

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


def test_dockerfile_copies_every_package():
    dockerfile = (REPO / "Dockerfile").read_text()
    for package in ("state", "contract", "servers", "querygen", "rewards", "toolground"):
        assert f"COPY {package} ./{package}" in dockerfile
