"""Which shard owns an env session: one pure function that gateways and shards agree on.

Ownership is a hash of the id, so it needs no table and survives any gateway restart. The one
exception is a handshake-era MCP session: its id is minted by whichever shard answered
``initialize`` (before any gateway could know it), so shards mint ids that name themselves
(``shard2.<32 hex>``) and the owner of such an id is the shard it names.
"""

from __future__ import annotations

import hashlib
import re
import uuid
from collections.abc import Callable

_TAGGED = re.compile(r"^(?:mcp:)?shard(\d{1,4})\.[0-9a-f]{32}$")


def owner(env_id: str, shards: int) -> int:
    """The index (0..shards-1) of the shard that holds ``env_id``."""
    tagged = _TAGGED.match(env_id)
    if tagged is not None and int(tagged[1]) < shards:
        return int(tagged[1])
    digest = hashlib.blake2b(env_id.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") % shards


def mcp_session_tag(index: int) -> str:
    """What shard ``index`` puts before the MCP session ids it mints (``"shard2."``).

    The shard's server is built with it (``build_http_app(..., session_tag=...)``), which tags an
    SSE connection's uuid with it where its env-session id is formed."""
    return f"shard{index}."


def session_id_minter(index: int) -> Callable[[], str]:
    """New MCP session ids for shard ``index``: ``owner`` sends them back to it."""
    tag = mcp_session_tag(index)

    def mint() -> str:
        return f"{tag}{uuid.uuid4().hex}"

    return mint


def parse_shard(spec: str) -> tuple[int, int]:
    """``"2/4"`` -> (2, 4); ValueError naming the accepted form otherwise."""
    index, sep, count = spec.partition("/")
    if not sep or not index.isdigit() or not count.isdigit() or not 0 <= int(index) < int(count):
        raise ValueError(f"--shard takes INDEX/COUNT with 0 <= INDEX < COUNT (e.g. 0/4), got {spec!r}")
    return int(index), int(count)
