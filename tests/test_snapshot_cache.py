"""The snapshot cache keeps each snapshot's table digests beside it, so a process that loads a
snapshot (every generator worker) starts hashing forks without scanning tables; digests that
do not belong to the file's bytes are never trusted. Variants are cached on disk like bases."""

from __future__ import annotations

import json

import pytest

from servers.registry import get_domain
from state import SnapshotCache, SnapshotError
from state.hashing import content_hash, table_sums
from state.snapshot import load_snapshot


def _files(cache: SnapshotCache) -> list[str]:
    return sorted(p.name for p in cache.root.iterdir())


def test_digests_are_written_beside_the_snapshot_and_match_a_scan(tmp_path):
    cache = SnapshotCache(tmp_path)
    built = get_domain("banking").snapshot(0, "small", cache)
    sidecars = [n for n in _files(cache) if n.endswith(".sums.json")]
    assert len(sidecars) == 1
    conn = built.connect()
    assert built.sums == table_sums(conn) and built.logical_hash == content_hash(conn)
    again = get_domain("banking").snapshot(0, "small", SnapshotCache(tmp_path))  # a new process
    assert (again.sha256, again.logical_hash, again.sums) == (built.sha256, built.logical_hash, built.sums)


def test_digests_of_other_bytes_are_ignored_and_rewritten(tmp_path):
    cache = SnapshotCache(tmp_path)
    built = get_domain("banking").snapshot(0, "small", cache)
    [path] = [p for p in cache.root.iterdir() if p.suffix == ".sqlite"]
    sidecar = path.with_name(path.name + ".sums.json")
    doc = json.loads(sidecar.read_text())
    table = sorted(doc["tables"])[0]
    doc["tables"][table][1] = "12345"  # digests that belong to some other file
    doc["sha256"] = "0" * 64
    sidecar.write_text(json.dumps(doc))
    loaded = load_snapshot(path, "banking", 0, "small")
    assert loaded.logical_hash == built.logical_hash and loaded.sums[table] == built.sums[table]
    assert json.loads(sidecar.read_text())["sha256"] == built.sha256  # the scan's digests replaced them


def test_a_variant_is_cached_on_disk_and_loads_as_the_same_snapshot(tmp_path):
    trading = get_domain("trading")
    first = trading.snapshot(0, "small", SnapshotCache(tmp_path), variant="logged_out")
    names = _files(SnapshotCache(tmp_path))
    assert any(n.endswith("-logged_out.sqlite") for n in names), names
    second = trading.snapshot(0, "small", SnapshotCache(tmp_path), variant="logged_out")
    assert (second.sha256, second.logical_hash, second.variant) == (
        first.sha256,
        first.logical_hash,
        "logged_out",
    )
    assert second.logical_hash == content_hash(second.connect())


def test_a_damaged_file_is_refused_even_with_its_digests_beside_it(tmp_path):
    """The integrity check is skipped only for the very bytes the digests name; a damaged file
    has other bytes, so it is checked and refused with the file named."""
    cache = SnapshotCache(tmp_path)
    get_domain("banking").snapshot(0, "small", cache)
    [path] = [p for p in cache.root.iterdir() if p.suffix == ".sqlite"]
    load_snapshot(path, "banking", 0, "small")  # intact, digests match: loads
    data = bytearray(path.read_bytes())
    page = 4096
    data[3 * page : 3 * page + 64] = b"\xff" * 64  # garble an inner b-tree page
    path.write_bytes(bytes(data))
    with pytest.raises(SnapshotError, match=str(path.name)):
        load_snapshot(path, "banking", 0, "small")
