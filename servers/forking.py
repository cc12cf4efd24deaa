"""Branching env sessions: fork one into a new id, or carry it to another process as bytes.

``POST /admin/sessions/{id}/fork`` with ``{"to": "<new id>"}`` gives the new env session a copy of
every domain's state of the source (its writes so far included), the same task binding, variants
and call count; the two then diverge. In one process that is :meth:`Brancher.fork`: a copy per
written domain, no bytes on the wire. Behind a gateway the new id may belong to another shard;
then the gateway asks the source's shard for the episode as bytes (``GET .../export``,
:meth:`Brancher.export`) and hands them to the target's shard (``POST .../import``,
:meth:`Brancher.import_image`), which rebuilds it over its own copies of the same snapshots, each
checked by sha256 and each domain's bytes by schema, and binds it to the same task (re-prepared
there from the task's view the bytes carry). Either way the answer is the same JSON.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import ValidationError

from contract.task import GoldCall, SnapshotRef
from servers.binding import BindableTask, Binder, Binding, BindRefused
from servers.ids import ID_RULE, VALID_ID
from servers.kit import ToolError
from servers.runtime import Environment
from state import Episode, Snapshot, SnapshotError, combine_hashes
from state.transfer import EpisodeImage, ImageError, open_image, pack, unpack


class ForkRefused(ValueError):
    """A fork or an import the server will not do as asked; ``status`` is the HTTP answer."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


FORK_BODY = 'fork body must be JSON: {"to": "<new env session id>"}'


def fork_target(body: bytes) -> str:
    """The ``to`` of a fork request's body; ForkRefused(400) saying what a body must be."""
    try:
        data = json.loads(body) if body.strip() else None
    except ValueError:
        raise ForkRefused(FORK_BODY) from None
    target = data.get("to") if isinstance(data, dict) else None
    if not isinstance(target, str):
        raise ForkRefused(FORK_BODY)
    if not VALID_ID.match(target):
        raise ForkRefused(f'"to": {ID_RULE}, got {target[:140]!r}')
    return target


def task_view_json(task: BindableTask) -> dict[str, Any]:
    """What an episode's bytes carry of its task: the view a server binds (no gold, no turns)."""
    return {
        "id": task.id,
        "domains": list(task.domains),
        "snapshots": [s.model_dump(mode="json") for s in task.snapshots],
        "tools": list(task.tools),
        "setup": [c.model_dump(mode="json") for c in task.setup],
    }


def task_view_of(data: Any) -> BindableTask:
    """The inverse of :func:`task_view_json`; ImageError when ``data`` is not one."""
    try:
        view = BindableTask(
            str(data["id"]),
            tuple(str(d) for d in data["domains"]),
            tuple(SnapshotRef.model_validate(s) for s in data["snapshots"]),
            tuple(dict(t) for t in data["tools"]),
            tuple(GoldCall.model_validate(c) for c in data["setup"]),
        )
    except (KeyError, TypeError, ValueError, ValidationError):
        raise ImageError(
            'episode image: "extra.task" is not a task view (id, domains, snapshots, tools, setup)'
        ) from None
    view.offered()
    return view


class Brancher:
    """Forks, exports and imports of one environment's env sessions (and their task bindings)."""

    def __init__(self, env: Environment, binder: Binder) -> None:
        self.env, self.binder = env, binder

    def fork(self, source: str, target: str) -> dict[str, Any]:
        """``target`` becomes a copy of ``source`` as it is now. Raises NotHeld (404) for an
        unknown source, SessionLive (409) for a live target, EpisodeUnavailable for the rest."""
        episode = self.env.store.get(source, create=False)
        twin, hashes = episode.clone_hashed()
        binding = self.binder.binding(episode)
        self._keep(target, twin, binding)
        return self.describe(target, source, twin, binding, hashes)

    def export(self, source: str) -> bytes:
        """``source``'s episode as bytes (:mod:`state.transfer`), its task's view in ``extra``."""
        episode = self.env.store.get(source, create=False)
        binding = self.binder.binding(episode)
        extra = {}
        if binding is not None and binding.task is not None:
            extra["task"] = task_view_json(binding.task)
        return pack(episode, source, extra)

    def import_image(self, target: str, body: bytes) -> dict[str, Any]:
        """``target`` becomes the episode ``body`` holds (blocking: a snapshot may need building).

        ImageError (400) for bytes that are not an episode, ForkRefused (422) for a world this
        server cannot provide, BindRefused for a task it cannot bind, SessionLive (409)."""
        if not VALID_ID.match(target):
            raise ForkRefused(f"the target id: {ID_RULE}")
        image = unpack(body)
        snapshots = {name: self._snapshot(name, ident) for name, ident in image.snapshots.items()}
        binding = self._binding(image, snapshots)
        states: dict[str, Any] = {}
        try:
            for name, blob in image.images.items():
                states[name] = None if blob is None else open_image(snapshots[name], blob)
        except ImageError:
            for conn in states.values():
                if conn is not None:
                    conn.close()
            raise
        twin = Episode.of_states(snapshots, states, image.calls)
        self._keep(target, twin, binding)
        return self.describe(target, image.source, twin, binding, twin.domain_hashes())

    def _keep(self, target: str, twin: Episode, binding: Binding | None) -> None:
        self.binder.adopt(twin, binding)  # bound before the store has it: no request sees it unbound
        try:
            self.env.store.adopt(target, twin)
        except Exception:
            twin.close()
            raise

    def _snapshot(self, domain: str, ident: dict[str, Any]) -> Snapshot:
        variant = ident.get("variant")
        try:
            snap = self.env.snapshot(domain, variant, seed=ident["seed"], scale=ident["scale"])
        except (ToolError, SnapshotError) as exc:
            raise ForkRefused(f"episode image: {exc}", 422) from None
        if snap.sha256 != ident["sha256"]:
            raise ForkRefused(
                f"episode image: snapshot {domain} (seed {ident['seed']}, {ident['scale']}) rebuilds here "
                f"to sha256 {snap.sha256[:12]}… but the episode ran on {ident['sha256'][:12]}…; the two "
                "servers run different code or data",
                422,
            )
        return snap

    def _binding(self, image: EpisodeImage, snapshots: dict[str, Snapshot]) -> Binding | None:
        task = image.extra.get("task")
        if task is None:
            return None
        binding = self.binder.prepare(task_view_of(task))
        if {n: s.sha256 for n, s in binding.snapshots.items()} != {n: s.sha256 for n, s in snapshots.items()}:
            raise ForkRefused(
                f"episode image: its domains are not the world of its task {binding.task_id}", 422
            )
        return binding

    def describe(
        self, target: str, source: str, twin: Episode, binding: Binding | None, hashes: dict[str, str]
    ) -> dict[str, Any]:
        """The answer to a fork or an import: the new session and the state it starts in."""
        out = {
            "id": target,
            "from": source,
            "hash": combine_hashes(hashes),
            "domains": hashes,
            "calls": twin.calls,
            "snapshot": twin.identity(),
        }
        if binding is not None:
            out["task"] = binding.task_id
        return out


__all__ = ["BindRefused", "Brancher", "ForkRefused", "ImageError", "fork_target"]
