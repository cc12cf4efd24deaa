"""Task-bound env sessions: one env session shows one task's tools and runs in that task's world.

A task names its world (``snapshots``: domain, seed, scale, sha256, variant) and the tools it offers
the agent (a subset of its domains' tools, maybe distractors from other domains, maybe with enum
lists stripped). An agent framework connected over plain MCP sees none of that unless the server
does it: binding a session makes ``tools/list`` return exactly the task's schemas, refuses calls of
tools the task does not offer, and forks the task's own snapshots, rebuilt on demand when they are
not the ones the server started with and checked byte for byte against the task's sha256. A task
the server cannot provide is refused whole, so no session is ever half-bound or silently running
in a different world.

The task is read by the contract's one reader (:func:`contract.load.load_task`), so a server
accepts exactly the shapes a trainer or the reward does; the server then keeps only the view it
needs (:class:`BindableTask`: id, domains, snapshots, tools, setup), not the gold results and diffs,
so thousands of loaded tasks stay small. Bindings live as long as their episode (a weak map keyed
on it), so release, rebinding and the idle TTL end them with no bookkeeping of their own.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import threading
import weakref
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fastmcp.exceptions import ToolError as McpToolError
from fastmcp.server.dependencies import get_http_headers
from fastmcp.server.middleware import CallNext, Middleware, MiddlewareContext
from fastmcp.tools import Tool, ToolResult
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from contract.load import TaskShapeError, iter_tasks, load_task
from contract.task import GoldCall, SnapshotRef, Task
from servers.kit import ToolError
from servers.mcp_server import EnvTool, NoEnvSession, env_session_id
from servers.registry import DOMAINS
from servers.runtime import Environment
from state import Episode, EpisodeUnavailable, Snapshot, SnapshotError

TASK_HEADER = "x-env-task"


class BindRefused(ValueError):
    """The task cannot be provided here (``status`` 422) or the request is malformed (400)."""

    def __init__(self, message: str, status: int = 422) -> None:
        super().__init__(message)
        self.status = status


class _Loose(BaseModel):
    model_config = ConfigDict(extra="ignore")


class OfferedFunction(_Loose):
    name: str = Field(min_length=1)
    description: str = ""
    parameters: dict[str, Any] = Field(default_factory=dict)


class OfferedTool(_Loose):
    function: OfferedFunction


class _OfferedTools(_Loose):
    tools: list[OfferedTool]  # validated as a list, so an error names the tool's index


@dataclass(frozen=True, slots=True)
class BindableTask:
    """The view of a Task a server needs to provide it; the schemas are kept as the task has them."""

    id: str
    domains: tuple[str, ...]
    snapshots: tuple[SnapshotRef, ...]
    tools: tuple[dict[str, Any], ...]
    setup: tuple[GoldCall, ...] = ()  # earlier turns applied before the episode

    @classmethod
    def of(cls, task: Task) -> BindableTask:
        """The view of ``task``; BindRefused(400) when an offered tool has no function name."""
        view = cls(task.id, tuple(task.domains), tuple(task.snapshots), tuple(task.tools), tuple(task.setup))
        view.offered()
        return view

    def offered(self) -> list[OfferedFunction]:
        try:
            return [t.function for t in _OfferedTools.model_validate({"tools": self.tools}).tools]
        except ValidationError as exc:
            raise BindRefused(
                f"not a task: its offered tools do not parse ({_validation_text(exc)})", 400
            ) from None


def parse_task(data: Any) -> BindableTask:
    """What a server keeps of a task sent to it (any shape :func:`contract.load.load_task` reads);
    raises BindRefused(400) saying what was wrong and which shapes are allowed."""
    try:
        return BindableTask.of(load_task(data))
    except TaskShapeError as exc:
        raise BindRefused(f"not a task: {exc.message.removeprefix('not a task: ')}", 400) from None


def _validation_text(exc: ValidationError) -> str:
    parts = [f"{'.'.join(str(x) for x in e['loc']) or 'task'}: {e['msg']}" for e in exc.errors()[:5]]
    return "; ".join(parts)


def load_tasks(path: Path) -> dict[str, BindableTask]:
    """Tasks by id from a ``tasks.jsonl`` of dataset rows, or a dataset folder holding one (read by
    :func:`contract.load.iter_tasks`, one task at a time, so only the views stay in memory).

    Tasks of one dataset repeat the same few dozen schemas, so equal schemas are kept once."""
    tasks: dict[str, BindableTask] = {}
    schemas: dict[str, dict[str, Any]] = {}
    for where, task in iter_tasks(path):
        try:
            view = BindableTask.of(task)
        except BindRefused as exc:
            raise ValueError(f"{where}: {exc}") from None
        if view.id in tasks:
            raise ValueError(f"{where}: task id {view.id!r} appears twice")
        shared = tuple(schemas.setdefault(json.dumps(t, sort_keys=True), t) for t in view.tools)
        tasks[view.id] = dataclasses.replace(view, tools=shared)
    return tasks


@dataclass(frozen=True)
class Binding:
    """A task made ready to serve: its verified snapshots and its tools as MCP tools."""

    task_id: str
    snapshots: dict[str, Snapshot]
    offered: frozenset[str]
    tools: tuple[EnvTool, ...] = field(repr=False)
    setup: tuple[tuple[str, dict[str, Any]], ...] = ()
    task: BindableTask | None = field(default=None, repr=False, compare=False)  # what it was made from

    @property
    def names(self) -> list[str]:
        return [t.name for t in self.tools]

    def refusal(self, name: str) -> str:
        """The error for a call of a tool this task does not offer."""
        offered = ", ".join(sorted(self.offered))
        return f"unknown tool {name!r}: task {self.task_id} does not offer it; offered: {offered}"


class Binder:
    """Prepares tasks (build, verify) and binds env sessions of one environment to them."""

    def __init__(self, env: Environment, tasks: Mapping[str, BindableTask] | None = None) -> None:
        self.env = env
        self.tasks = dict(tasks or {})
        self.bindings: weakref.WeakKeyDictionary[Episode, Binding] = weakref.WeakKeyDictionary()
        self.active = False  # once anything was bound; a cheaper test than the weak map's len()
        self._prepared: OrderedDict[str, Binding] = OrderedDict()  # header route: task id -> binding
        self._build = threading.Lock()  # one snapshot build at a time; the cache memoizes them
        self._install: asyncio.Lock | None = None

    # -- reading ------------------------------------------------------------------------------

    def binding(self, episode: Episode | None) -> Binding | None:
        return None if episode is None or not self.active else self.bindings.get(episode)

    def bound(self, sid: str) -> Binding | None:
        """The binding of env session ``sid`` (None when it has no episode or is not bound)."""
        if not self.active or sid not in self.env.store:
            return None
        try:
            return self.bindings.get(self.env.store.get(sid, create=False))
        except KeyError:  # released in between
            return None

    # -- preparing ----------------------------------------------------------------------------

    def prepare(self, task: BindableTask) -> Binding:
        """Check that this server can provide ``task`` and build its world; raises BindRefused.

        Blocking (a snapshot at a new seed or scale takes up to seconds): call it off the loop."""
        served = {d.name for d in self.env.domains}
        offered = task.offered()
        specs = {}
        for fn in offered:
            spec = self.env.tools.get(fn.name)
            if spec is not None and not spec.hidden:
                specs[fn.name] = spec
        tool_domains = {s.domain for s in specs.values()}
        unknown = sorted(fn.name for fn in offered if fn.name not in specs)
        refs = {s.domain: s for s in task.snapshots}
        named = {d for d in map(_domain_of, unknown) if d is not None}  # tools of domains not served
        needed = set(task.domains) | set(refs) | tool_domains | named
        unserved = sorted(needed - served)
        if unserved:
            raise BindRefused(
                f"task {task.id} needs domains {', '.join(unserved)}, which this server does not serve "
                f"(served: {', '.join(sorted(served))}); restart it with --domains including them"
            )
        if unknown:
            raise BindRefused(f"task {task.id} offers tools this server does not have: {', '.join(unknown)}")
        if not refs:
            raise BindRefused(f"task {task.id} names no snapshots, so it has no world to run in")
        if len(refs) != len(task.snapshots):
            raise BindRefused(f"task {task.id} names a domain's snapshot twice")
        missing = sorted((set(task.domains) | tool_domains) - set(refs))
        if missing:
            raise BindRefused(f"task {task.id} names no snapshot for domains {', '.join(missing)}")
        snapshots = {name: self._snapshot(task.id, ref) for name, ref in sorted(refs.items())}
        for call in task.setup:
            if call.name not in self.env.tools or self.env.tools[call.name].domain not in refs:
                raise BindRefused(
                    f"task {task.id}'s setup calls {call.name!r}, which is not a tool of its world"
                )
        tools = tuple(
            EnvTool.of(self.env, specs[fn.name], description=fn.description, parameters=fn.parameters)
            for fn in offered
        )
        return Binding(
            task.id,
            snapshots,
            frozenset(specs),
            tools,
            tuple((c.name, dict(c.arguments)) for c in task.setup),
            task,
        )

    def _snapshot(self, task_id: str, ref: SnapshotRef) -> Snapshot:
        try:
            with self._build:
                snap = self.env.snapshot(ref.domain, ref.variant, seed=ref.seed, scale=ref.scale)
        except (ToolError, SnapshotError) as exc:  # an unknown variant or scale, named with the allowed ones
            raise BindRefused(f"task {task_id}: {exc}") from None
        if snap.sha256 != ref.sha256:
            what = f" variant {ref.variant}" if ref.variant else ""
            raise BindRefused(
                f"task {task_id}: snapshot {ref.domain}{what} (seed {ref.seed}, {ref.scale}) rebuilds here to "
                f"sha256 {snap.sha256[:12]}… but the task was generated on {ref.sha256[:12]}…; the domain's "
                "schema or seed data differ from the code that made the task (regenerate the tasks, or serve "
                "them with the matching toolground version)"
            )
        return snap

    async def prepare_async(self, task: BindableTask) -> Binding:
        return await asyncio.to_thread(self.prepare, task)

    # -- binding ------------------------------------------------------------------------------

    def install(self, sid: str, binding: Binding, *, renew: bool = True) -> Episode:
        """A fresh episode on the binding's world under ``sid``, replacing any episode it had.

        The setup calls run on the new episode before it is stored, so a failing one leaves the
        session as it was. ``renew=False`` (the header's bind on first use) leaves a session lost in
        a shard's restart lost. Raises BindRefused for a failing setup, EpisodeUnavailable when the
        store refuses the session (full, another shard's, lost)."""
        episode = Episode(binding.snapshots)
        try:
            self._apply_setup(episode, binding)
        except BindRefused:
            episode.close()
            raise
        self.bindings[episode] = binding  # before the store has it: no request sees it unbound
        self.active = True
        try:
            self.env.store.put(sid, episode, renew=renew)
        except Exception:
            self.bindings.pop(episode, None)
            episode.close()
            raise
        return episode

    def adopt(self, episode: Episode, binding: Binding | None) -> None:
        """``episode`` (a branch of a bound one, not yet in the store) is bound to ``binding`` too."""
        if binding is not None:
            self.bindings[episode] = binding
            self.active = True

    def _apply_setup(self, episode: Episode, binding: Binding) -> None:
        for name, arguments in binding.setup:
            try:
                self.env.invoke(episode, name, arguments)
            except ToolError as exc:
                raise BindRefused(
                    f"task {binding.task_id}'s setup call {name} fails on its world: {exc}"
                ) from None
        episode.calls = 0

    async def bind_to(self, sid: str, task_id: str) -> Binding:
        """The header route: bind ``sid`` to a loaded task on first use, then keep it bound.

        A session already bound to another task is refused rather than silently re-forked."""
        current = self.bound(sid)
        if current is not None and current.task_id == task_id:
            return current
        binding = await self.loaded(task_id)
        if current is not None:
            raise BindRefused(
                f"env session {sid!r} is bound to task {current.task_id}, not {task_id}; use a new env "
                f"session, or release this one first (DELETE /admin/sessions/{sid})"
            )
        if self._install is None:
            self._install = asyncio.Lock()
        async with self._install:  # two first calls of one session must not fork two worlds
            current = self.bound(sid)
            if current is None:
                self.install(sid, binding, renew=False)
            elif current.task_id != task_id:
                raise BindRefused(f"env session {sid!r} was just bound to task {current.task_id}")
        return binding

    async def loaded(self, task_id: str) -> Binding:
        """The prepared binding of a task loaded with ``--tasks`` (kept for the next sessions)."""
        binding = self._prepared.get(task_id)
        if binding is not None:
            self._prepared.move_to_end(task_id)
            return binding
        task = self.tasks.get(task_id)
        if task is None:
            loaded = f"{len(self.tasks)} tasks are loaded" if self.tasks else "no tasks are loaded"
            raise BindRefused(
                f"unknown task {task_id!r} (X-Env-Task): {loaded}; start the server with --tasks PATH "
                "holding it, or bind the session with POST /admin/sessions/<id>/bind"
            )
        binding = await self.prepare_async(task)
        self._prepared[task_id] = binding
        while len(self._prepared) > 256:
            self._prepared.popitem(last=False)
        return binding

    # -- resetting ----------------------------------------------------------------------------

    def reset(self, episode: Episode, variants: Mapping[str, str | None] | None = None) -> None:
        """Back to the episode's world: a bound one to its task's (setup re-applied), at the task's
        seed and scale, with ``variants`` swapping domains onto named initial states."""
        binding = self.binding(episode)
        if binding is None:
            self.env.reset(episode, variants)
            return
        snaps = {}
        for name, variant in (variants or {}).items():
            base = binding.snapshots.get(name)
            if base is None:
                raise ToolError(
                    f"domain {name!r} is not part of task {binding.task_id}'s world; its domains: "
                    f"{', '.join(sorted(binding.snapshots))}"
                )
            snaps[name] = self.env.snapshot(name, variant, seed=base.seed, scale=base.scale)
        episode.reset(snaps)
        try:
            self._apply_setup(episode, binding)
        except BindRefused as exc:
            raise ToolError(str(exc)) from None

    def describe(self, sid: str, episode: Episode, binding: Binding) -> dict[str, Any]:
        """What the operator API returns for a binding."""
        return {
            "id": sid,
            "task": binding.task_id,
            "snapshot": episode.identity(),
            "tools": binding.names,
            "hash": episode.state_hash(),
        }


def _domain_of(tool: str) -> str | None:
    """The domain a ``<domain>_<tool>`` name belongs to, served here or not (None: no domain)."""
    return next((d for d in DOMAINS if tool.startswith(d + "_")), None)


class BindingMiddleware(Middleware):
    """Bound sessions on the full MCP stack: the task's listing, its offered tools only.

    The ``X-Env-Task`` header binds the caller's env session on first use (listing a task's tools
    needs no session). Unbound sessions pass straight through."""

    def __init__(self, binder: Binder) -> None:
        self.binder = binder

    async def on_list_tools(self, context: MiddlewareContext, call_next: CallNext) -> Sequence[Tool]:
        binding = await self._binding(listing=True)
        return list(binding.tools) if binding is not None else await call_next(context)

    async def on_call_tool(self, context: MiddlewareContext, call_next: CallNext) -> ToolResult:
        binding = await self._binding(listing=False)
        name = context.message.name
        if binding is not None and name not in binding.offered:
            raise McpToolError(binding.refusal(name))
        return await call_next(context)

    async def _binding(self, *, listing: bool) -> Binding | None:
        task_id = get_http_headers(include={TASK_HEADER}).get(TASK_HEADER)
        try:
            sid: str | None = env_session_id()
        except NoEnvSession:
            sid = None  # a listing needs no session; a call's own run names the ways to send one
        try:
            if task_id and sid is not None:
                return await self.binder.bind_to(sid, task_id)
            if task_id and listing:
                return await self.binder.loaded(task_id)
        except (BindRefused, EpisodeUnavailable) as exc:
            if listing:
                raise MCPError(INVALID_PARAMS, str(exc)) from None
            raise McpToolError(str(exc)) from None
        return None if sid is None else self.binder.bound(sid)
