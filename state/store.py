"""Episodes and the store that keeps them alive.

An episode is what one agent rollout owns: one fork per domain it can touch,
all from the same set of snapshots. The store maps env-session ids (the id a
client sends, nothing more) to episodes, evicts idle ones after a TTL, refuses
new ones when full, and releases them on request. MCP has no session-end hook,
so the TTL is what keeps abandoned rollouts from holding memory forever.

An evicted id is remembered: its next use is refused with :class:`EpisodeExpired` until the client
resets, binds or releases it, because quietly forking a fresh world under the old id would let a
rollout that merely paused carry on (and be rewarded) in a world it never built.
"""

from __future__ import annotations

import hashlib
import sqlite3
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from state.fork import Checkpoint, Fork
from state.memory import TrimPolicy
from state.snapshot import Snapshot


class EpisodeUnavailable(RuntimeError):
    """The store will not hand out an episode for this env session; the message says why and what to do.

    ``status`` is the HTTP status an operator API answers with."""

    status = 503


class StoreFull(EpisodeUnavailable):
    """No room for another episode; the message says how to make room."""


class EpisodeExpired(EpisodeUnavailable):
    """The env session sat idle past the TTL and its episode was dropped; a reset or bind renews it."""

    status = 410  # Gone


class SessionLive(EpisodeUnavailable):
    """A fork or an import named a target env session that already holds an episode."""

    status = 409  # Conflict


EXPIRED_REMEMBERED = 100_000  # evicted ids kept for their refusal (~100 bytes each); oldest go first


class Custodian(Protocol):
    """Who may hold which env sessions' episodes, told of every episode that opens or closes.

    A store on its own holds any id. A shard of a scaled-out server holds only the ids it owns,
    and remembers across a restart which ids it held (so a call for one of them says it was lost
    instead of silently starting from the snapshot). The store consults it only for ids it does
    not hold, so calls in a live episode pay nothing."""

    def admit(self, env_id: str, *, renew: bool) -> None:
        """Raise EpisodeUnavailable if ``env_id`` may not get a new episode here.

        ``renew`` is an explicit fresh start (a reset or a bind), which a lost id may take."""

    def opened(self, env_id: str) -> None: ...

    def closed(self, env_id: str) -> bool:
        """``env_id`` is gone (released, evicted, or a lost id released); whether it was known."""


class NotHeld(KeyError):
    """The store holds no episode under that env-session id, or the episode no fork of that domain."""

    def __str__(self) -> str:  # KeyError quotes its argument; keep the message readable
        return str(self.args[0])


def combine_hashes(hashes: Mapping[str, str]) -> str:
    """The state hash of some domains from their content hashes: the one definition that episodes,
    the generator's expected hashes and the operator API share."""
    h = hashlib.sha256()
    for name in sorted(hashes):
        h.update(name.encode())
        h.update(hashes[name].encode())
    return h.hexdigest()


class Episode:
    """One rollout's private world: a fork per domain, kept by the store under an env-session id."""

    def __init__(
        self, snapshots: Mapping[str, Snapshot], *, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.snapshots = dict(snapshots)
        self.forks = {name: Fork(snap) for name, snap in self.snapshots.items()}
        self.lock = threading.RLock()
        self.clock = clock  # the store's clock, so touch() and the idle TTL agree
        self.created = self.last_used = clock()
        self.calls = 0

    def fork(self, domain: str) -> Fork:
        try:
            return self.forks[domain]
        except KeyError:
            raise NotHeld(f"domain {domain!r} is not served here; served: {sorted(self.forks)}") from None

    def touch(self) -> None:
        self.last_used = self.clock()

    def state_hash(self, domains: Iterable[str] | None = None) -> str:
        """One hash over the content hashes of ``domains`` (default: every domain of the episode).

        A task's ``expected_state_hash`` covers the task's own domains, so a server running more
        domains is compared with ``state_hash(task.domains)``."""
        names = sorted(self.forks if domains is None else set(domains))
        return combine_hashes({name: self.fork(name).content_hash() for name in names})

    def domain_hashes(self) -> dict[str, str]:
        """Each domain's content hash (``combine_hashes`` of a subset is that subset's state hash)."""
        return {name: f.content_hash() for name, f in sorted(self.forks.items())}

    def diff(self) -> list[dict[str, Any]]:
        out = []
        for name in sorted(self.forks):
            out.extend({"domain": name, **c.as_dict()} for c in self.forks[name].diff())
        return out

    def reset(self, snapshots: Mapping[str, Snapshot] | None = None) -> None:
        """Back to the snapshots; ``snapshots`` swaps some domains onto others (their variants)."""
        with self.lock:
            for name, snap in (snapshots or {}).items():
                self.fork(name).close()
                self.snapshots[name] = snap
                self.forks[name] = Fork(snap)
            for f in self.forks.values():
                f.reset()
            self.calls = 0

    def clone(self) -> Episode:
        """An independent copy of this episode as it is now (every domain's state, its writes so
        far, the call count); the two diverge from here. Unwritten domains stay lazy forks of their
        snapshots; a written one's copy costs a ``serialize()`` now and its memcpy on first use."""
        return self._clone(None)

    def clone_hashed(self) -> tuple[Episode, dict[str, str]]:
        """A :meth:`clone` and the content hash of each domain the two share at that moment (each
        read under the same lock as its copy, so a call landing meanwhile cannot split them)."""
        hashes: dict[str, str] = {}
        return self._clone(hashes), hashes

    def _clone(self, hashes: dict[str, str] | None) -> Episode:
        with self.lock:
            twin = Episode(self.snapshots, clock=self.clock)
            for name, f in self.forks.items():
                with f.lock:
                    twin.forks[name] = f.clone()
                    if hashes is not None:
                        hashes[name] = f.content_hash()
            twin.calls = self.calls
        return twin

    @classmethod
    def of_states(
        cls,
        snapshots: Mapping[str, Snapshot],
        states: Mapping[str, bytes | sqlite3.Connection | None],
        calls: int = 0,
    ) -> Episode:
        """An episode over ``snapshots`` whose domains hold ``states`` (see :meth:`Fork.of_state`;
        a domain not named: its snapshot as it is): an episode moved from another process."""
        episode = cls(snapshots)
        episode.forks = {name: Fork.of_state(snap, states.get(name)) for name, snap in snapshots.items()}
        episode.calls = calls
        return episode

    def checkpoint(self) -> dict[str, Checkpoint]:
        with self.lock:
            return {name: f.checkpoint() for name, f in self.forks.items()}

    def restore(self, cp: Mapping[str, Checkpoint]) -> None:
        with self.lock:
            for name, point in cp.items():
                self.fork(name).restore(point)

    def memory_bytes(self) -> int:
        return sum(f.memory_bytes() for f in self.forks.values())

    def close(self) -> None:
        for f in self.forks.values():
            f.close()

    def identity(self) -> dict[str, Any]:
        return {name: snap.identity() for name, snap in sorted(self.snapshots.items())}


@dataclass
class EpisodeStore:
    """Env-session id -> episode, with an idle TTL and a size limit.

    ``max_sessions`` counts env sessions that hold an episode (the CLI's ``--max-sessions``)."""

    snapshots: Callable[[], Mapping[str, Snapshot]]
    max_sessions: int = 10_000
    idle_ttl: float = 1800.0
    clock: Callable[[], float] = time.monotonic
    _episodes: dict[str, Episode] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _trim: TrimPolicy = field(default_factory=TrimPolicy)
    custodian: Custodian | None = None
    remember_expired: int = EXPIRED_REMEMBERED
    _expired: OrderedDict[str, None] = field(default_factory=OrderedDict)

    def get(self, env_id: str, *, create: bool = True, renew: bool = False) -> Episode:
        """The episode for ``env_id``, forked on first use.

        ``renew`` says the caller starts it afresh anyway (a reset), which a custodian may allow
        where it refuses a plain first use, and which an expired id needs."""
        with self._lock:
            now = self.clock()
            ep = self._live_or_admit_locked(env_id, renew, now)
            if ep is not None:
                ep.last_used = now
                return ep
            if not create:
                raise NotHeld(f"no env session {env_id!r}")
            self._make_room_locked()
            ep = self._episodes[env_id] = Episode(self.snapshots(), clock=self.clock)
            if self.custodian is not None:
                self.custodian.opened(env_id)
            return ep

    def put(self, env_id: str, episode: Episode, *, renew: bool = True) -> None:
        """Keep ``episode`` under ``env_id``, closing the one it replaces.

        A task-bound env session's episode forks the task's snapshots, which need not be the
        server's, so it cannot come from ``get``; the size limit and idle eviction still apply.
        An explicit bind is a fresh start (``renew``), which a custodian may allow for a lost id."""
        with self._lock:
            now = self.clock()
            old = self._live_or_admit_locked(env_id, renew, now)
            if old is None:
                self._make_room_locked()
            episode.clock = self.clock
            episode.last_used = now
            self._episodes[env_id] = episode
            if old is None and self.custodian is not None:
                self.custodian.opened(env_id)
        if old is not None and old is not episode:
            self._close(old)

    def adopt(self, env_id: str, episode: Episode) -> None:
        """Keep ``episode`` under ``env_id``, which must hold no live episode (a fork's target).

        Raises :class:`SessionLive` (409) when it does; an id that expired, or was lost in a
        shard's restart, starts afresh as it would with a bind. The check and the put are one step
        under the store's lock, so two forks to one target cannot both land."""
        with self._lock:
            now = self.clock()
            live = self._episodes.get(env_id)
            if live is not None and self._idle(live, now):
                self._expire_locked(env_id)
                live = None
            if live is not None:
                raise SessionLive(
                    f"env session {env_id!r} is live; fork into a new id, or release it first "
                    f"(DELETE /admin/sessions/{env_id})"
                )
            self._live_or_admit_locked(env_id, True, now)
            self._make_room_locked()
            episode.clock = self.clock
            episode.last_used = now
            self._episodes[env_id] = episode
            if self.custodian is not None:
                self.custodian.opened(env_id)

    def _live_or_admit_locked(self, env_id: str, renew: bool, now: float) -> Episode | None:
        """``env_id``'s live episode; else (it never had one, or it sat idle past the TTL and is
        dropped now) None, once the id may start one: not expired unless ``renew``, and admitted
        by the custodian."""
        ep = self._episodes.get(env_id)
        if ep is not None and not renew and self._idle(ep, now):
            self._expire_locked(env_id)
            ep = None
        if ep is None:
            self._admit_expired_locked(env_id, renew=renew)
            if self.custodian is not None:
                self.custodian.admit(env_id, renew=renew)
        return ep

    def _make_room_locked(self) -> None:
        self._evict_locked()
        if len(self._episodes) >= self.max_sessions:
            raise StoreFull(
                f"env session store is full ({self.max_sessions} live sessions); release finished "
                f"sessions (DELETE /admin/sessions/<id>) or wait for the {self.idle_ttl:g}s idle TTL"
            )

    def release(self, env_id: str) -> bool:
        """Drop ``env_id``'s episode, or forget that it expired; whether the id was known."""
        with self._lock:
            ep = self._episodes.pop(env_id, None)
            known = self.custodian.closed(env_id) if self.custodian is not None else False
            if env_id in self._expired:
                del self._expired[env_id]
                known = True
        if ep is None:
            return known
        self._close(ep)
        return True

    def _close(self, ep: Episode) -> None:
        """Close a released episode and let the trim policy count what it held."""
        size = ep.memory_bytes()
        ep.close()
        self._trim.freed(size, store_empty=not self._episodes)

    def evict_idle(self) -> int:
        with self._lock:
            return self._evict_locked()

    def _evict_locked(self) -> int:
        now = self.clock()
        stale = [k for k, ep in self._episodes.items() if self._idle(ep, now)]
        for k in stale:
            self._expire_locked(k)
        return len(stale)

    def _idle(self, ep: Episode, now: float) -> bool:
        return now - ep.last_used > self.idle_ttl

    def _expire_locked(self, env_id: str) -> None:
        """Drop an idle episode and remember the id, so its next use is refused, not re-forked."""
        self._close(self._episodes.pop(env_id))
        if self.custodian is not None:
            self.custodian.closed(env_id)
        self._expired[env_id] = None
        self._expired.move_to_end(env_id)
        while len(self._expired) > self.remember_expired:
            self._expired.popitem(last=False)

    def _admit_expired_locked(self, env_id: str, *, renew: bool) -> None:
        """Refuse an expired id unless the caller starts it afresh (a reset or a bind)."""
        if env_id not in self._expired:
            return
        if not renew:
            raise EpisodeExpired(
                f"env session {env_id!r} expired after {self.idle_ttl:g} s idle; reset or bind it again "
                f"(POST /admin/sessions/{env_id}/reset or /bind), or release it (DELETE "
                f"/admin/sessions/{env_id}) and the next call starts afresh. The state it had is gone; "
                "serve with a longer --idle-ttl if rollouts pause longer"
            )
        del self._expired[env_id]

    def __len__(self) -> int:
        return len(self._episodes)

    def __contains__(self, env_id: str) -> bool:
        return env_id in self._episodes

    def ids(self) -> list[str]:
        with self._lock:
            return sorted(self._episodes)

    def stats(self) -> dict[str, Any]:
        with self._lock:
            eps = list(self._episodes.values())
        forked = sum(1 for ep in eps for f in ep.forks.values() if f.copied)
        return {
            "count": len(eps),
            "max_sessions": self.max_sessions,
            "idle_ttl_seconds": self.idle_ttl,
            "expired_remembered": len(self._expired),
            "forked_databases": forked,
            "memory_bytes": sum(ep.memory_bytes() for ep in eps),
        }
