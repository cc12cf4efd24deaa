"""What the scale-out layers read of a JSON-RPC request body without parsing it further."""

from __future__ import annotations

import json


def rpc_id(body: bytes) -> int | str | None:
    """The request's ``id``, so an error made in front of the MCP stack answers the same request;
    None for a notification, a batch or a body that is not a JSON object."""
    try:
        rid = json.loads(body).get("id")
    except (ValueError, AttributeError, RecursionError):
        return None
    return rid if isinstance(rid, int | str) and not isinstance(rid, bool) else None
