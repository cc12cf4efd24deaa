"""The operator token check every door shares: a server's ``/admin`` routes and a gateway's.

Its own module, with nothing but the standard library, because a gateway routes bytes and imports
nothing of the serving stack, yet must judge a token exactly as the servers behind it do.
"""

from __future__ import annotations

import hmac


def bearer_matches(header: str, token: str) -> bool:
    """Whether an ``Authorization`` value is the bearer ``token``: the scheme compared without regard to
    case (RFC 9110 11.1) and the token in constant time, one or more spaces between them."""
    scheme, _, given = header.partition(" ")
    return scheme.lower() == "bearer" and hmac.compare_digest(given.strip(" ").encode(), token.encode())
