"""Shared fixtures: snapshots are built once per test process into a temporary cache."""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("FASTMCP_SHOW_SERVER_BANNER", "false")
os.environ.setdefault("FASTMCP_CHECK_FOR_UPDATES", "off")

from servers.runtime import Environment
from state import SnapshotCache


@pytest.fixture(scope="session")
def snapshot_cache(tmp_path_factory: pytest.TempPathFactory) -> SnapshotCache:
    return SnapshotCache(tmp_path_factory.mktemp("cache"))


@pytest.fixture(scope="session")
def make_env(snapshot_cache: SnapshotCache):
    """make_env("banking", scale="small", seed=0) -> Environment, snapshots cached per process."""

    def make(domains: str = "banking", *, scale: str = "small", seed: int = 0, **kw) -> Environment:
        return Environment(domains, seed=seed, scale=scale, cache=snapshot_cache, **kw)

    return make


@pytest.fixture(scope="module")
def medium(request: pytest.FixtureRequest, snapshot_cache: SnapshotCache):
    """A read-only connection to the medium snapshot of the test module's ``DOMAIN``."""
    from servers.registry import get_domain

    conn = get_domain(request.module.DOMAIN).snapshot(0, "medium", snapshot_cache).connect()
    yield conn
    conn.close()
