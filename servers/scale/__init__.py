"""Serving past one process: env sessions owned by shards, reached through stateless gateways.

A shard is an ordinary ``toolground serve`` process (lean path, ``/admin``, task binding, all of
it) that holds only the env sessions it owns, chosen by a stable hash of the env-session id
(:mod:`servers.scale.owner`). A gateway (:mod:`servers.scale.gateway`) resolves the id of each
request exactly as a server does and forwards the bytes to the owner, so any gateway serves any
request and nothing but the shards holds state. :mod:`servers.scale.local` runs N shards and G
gateways on one machine (``toolground serve --workers N``); :mod:`servers.scale.on_ray` runs the
shards as named Ray actors (``toolground serve --ray``).
"""
