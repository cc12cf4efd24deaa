"""An episode as bytes: how a branch moves from one server process to another.

A fork of an env session lands in the shard that owns the new id, which need not be the source's
shard. The source packs the episode (:func:`pack`), the gateway carries the bytes, and the target
unpacks them (:func:`unpack`) and rebuilds the episode over its own copies of the same snapshots,
each domain's bytes checked against its snapshot's schema (:func:`open_image`) before it is used.
The format is small enough to read by eye:

    toolground-episode/1\\n
    <length of the header in bytes, decimal>\\n
    <the header: JSON>
    <each written domain's serialized database, one after another, in the header's order>

The header is ``{"source": id, "calls": n, "domains": [{"snapshot": identity, "size": n | null}],
"extra": {...}}``. A domain the episode never wrote has size null and sends no bytes (its snapshot
is the state); ``extra`` is what the server layer adds (a task binding), opaque here.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from typing import Any

from state.fork import SharedReader
from state.snapshot import Snapshot
from state.store import Episode

MEDIA_TYPE = "application/vnd.toolground.episode"
MAGIC = b"toolground-episode/1\n"
_MAX_HEADER = 16 * 2**20  # tool schemas of a bound task ride in the header; far below this


class ImageError(ValueError):
    """The bytes are not an episode this server can take; the message says what was wrong."""


@dataclass(frozen=True)
class EpisodeImage:
    """An unpacked episode: per domain its snapshot identity and its bytes (None: the snapshot)."""

    source: str
    calls: int
    snapshots: dict[str, dict[str, Any]]
    images: dict[str, bytes | None]
    extra: dict[str, Any] = field(default_factory=dict)


def pack(episode: Episode, source: str, extra: dict[str, Any] | None = None) -> bytes:
    """``episode`` as it is now, in the format above."""
    with episode.lock:
        blobs = {name: f.serialize() if f.copied else None for name, f in sorted(episode.forks.items())}
        calls = episode.calls
    domains = [
        {"snapshot": episode.snapshots[name].identity(), "size": None if blob is None else len(blob)}
        for name, blob in blobs.items()
    ]
    header = json.dumps(
        {"source": source, "calls": calls, "domains": domains, "extra": extra or {}}, separators=(",", ":")
    ).encode()
    return b"".join([MAGIC, str(len(header)).encode(), b"\n", header, *(b for b in blobs.values() if b)])


def unpack(body: bytes) -> EpisodeImage:
    """The episode ``body`` holds; ImageError naming what does not fit the format."""
    if not body.startswith(MAGIC):
        raise ImageError(f"not an episode image: it must start with {MAGIC!r} ({MEDIA_TYPE})")
    end = body.find(b"\n", len(MAGIC), len(MAGIC) + 12)
    length = body[len(MAGIC) : end]
    if end < 0 or not length.isdigit() or int(length) > _MAX_HEADER:
        raise ImageError("episode image: the line after the first must be the header's length in bytes")
    start = end + 1 + int(length)
    try:
        header = json.loads(body[end + 1 : start])
    except ValueError:
        raise ImageError("episode image: the header is not JSON") from None
    source, calls, domains, extra = _header_fields(header)
    snapshots: dict[str, dict[str, Any]] = {}
    images: dict[str, bytes | None] = {}
    for entry in domains:
        identity, size = entry["snapshot"], entry["size"]
        snapshots[identity["domain"]] = identity
        images[identity["domain"]] = None if size is None else body[start : start + size]
        start += size or 0
    if start != len(body):
        raise ImageError(
            f"episode image: the header's sizes add up to {start} bytes, the body has {len(body)}"
        )
    return EpisodeImage(source, calls, snapshots, images, extra)


def _header_fields(header: Any) -> tuple[str, int, list[dict[str, Any]], dict[str, Any]]:
    """(source, calls, domains, extra) of a header, each checked; ImageError otherwise."""
    if not isinstance(header, dict):
        raise ImageError("episode image: the header must be a JSON object")
    source, calls, domains, extra = (header.get(k) for k in ("source", "calls", "domains", "extra"))
    if not isinstance(source, str) or not isinstance(calls, int) or calls < 0 or not isinstance(extra, dict):
        raise ImageError(
            'episode image: the header needs "source" (a string), "calls" (>= 0) and "extra" ({})'
        )
    if not isinstance(domains, list) or not domains or not all(_domain_entry(d) for d in domains):
        raise ImageError(
            'episode image: "domains" must list {"snapshot": {"domain", "seed", "scale", "sha256"}, '
            '"size": bytes or null} for each domain'
        )
    if len({d["snapshot"]["domain"] for d in domains}) != len(domains):
        raise ImageError("episode image: a domain is listed twice")
    return source, calls, domains, extra


def _domain_entry(entry: Any) -> bool:
    if not isinstance(entry, dict) or not isinstance(entry.get("snapshot"), dict):
        return False
    snap, size = entry["snapshot"], entry.get("size")
    typed = {"domain": str, "seed": int, "scale": str, "sha256": str}
    return all(isinstance(snap.get(k), t) for k, t in typed.items()) and (
        size is None or (isinstance(size, int) and size > 0)
    )


def open_image(snapshot: Snapshot, image: bytes) -> sqlite3.Connection:
    """A connection to ``image``, ready to be a fork of ``snapshot`` (:meth:`Fork.of_state`); ImageError
    unless it is a database with the snapshot's schema (its tables, indexes and changelog triggers,
    statement for statement), which a fork of it always has."""
    conn = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
    try:
        conn.deserialize(image)
        got = conn.execute(_SCHEMA).fetchall()
    except sqlite3.DatabaseError as exc:
        conn.close()
        raise ImageError(f"episode image: the {snapshot.domain} bytes are not a database ({exc})") from None
    reader = SharedReader.of(snapshot)
    with reader.lock:
        want = reader.conn.execute(_SCHEMA).fetchall()
    if got != want:
        conn.close()
        raise ImageError(
            f"episode image: the {snapshot.domain} bytes do not have the schema of its snapshot "
            f"{snapshot.sha256[:12]}…, so they are not a fork of it"
        )
    conn.execute("PRAGMA foreign_keys = ON")
    return conn


_SCHEMA = "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name"
