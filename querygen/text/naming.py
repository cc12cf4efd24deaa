"""Who the task is about, and how each entity of a call is named in the user's words.

A task is one actor's story: the first row that belongs to a person fixes the actor, and every
later pick of a row somebody owns is one of the actor's (their accounts, their orders), so a chain
never jumps to a stranger. Each entity argument the user must supply is then named the way the
actor knows it (:mod:`querygen.text.refer`): themself as "me"/"my" (identified once by their email and
found with the domain's lookup), their rows by a telling attribute resolved with a real lookup
call that precedes the call needing it, or, when no lookup resolves it uniquely, by its id.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from typing import Any

from querygen.plan.ids import IdIndex
from querygen.plan.memo import PristineReads
from querygen.plan.sampler import LiveSampler, Relations
from querygen.plan.seen import path_in_view, shown_strings
from querygen.plan.step import MAX_CALLS, Draft, Origin, Scene, Step
from querygen.text.refer import CARRIED, Lookup, Reference, Resolver, first_person
from querygen.text.voice import listing
from servers.kit import RefInfo, ToolSpec, marks
from servers.kit.language import USER
from servers.runtime import Environment

NATURAL = {"complete": 0.95, "missing_required": 0.95, "minimal": 0.9}
ACTOR_SLOTS = ("customer", "user", "reporter", "author", "owner", "holder", "member")


@dataclass
class _Asking:
    """The lookups planned for one call: the draft, the lookups chosen so far (``pre``, run on the
    fork and inserted before the call), the ids the conversation has found (with the call that
    found each), and the nested lookups of the reference being planned (``via``)."""

    draft: Draft
    pre: list[Step] = field(default_factory=list)
    known: dict[Any, int] = field(default_factory=dict)
    via: list[Reference] = field(default_factory=list)

    @property
    def steps(self) -> list[Step]:
        return self.draft.steps

    def budget(self) -> int:
        """Lookups that still fit before the call, within the longest chain."""
        return MAX_CALLS - len(self.draft.steps) - len(self.pre) - 1


class Namer:
    """Fixes the actor and plans the lookups behind natural references, for one domain."""

    def __init__(
        self,
        env: Environment,
        resolver: Resolver,
        rel: Relations,
        sampler: LiveSampler,
        ids: IdIndex,
        reads: PristineReads | None = None,
    ) -> None:
        self.env = env
        self.call = (reads or env).call  # most lookups are tried on an untouched fork, and dropped
        self.resolver = resolver
        self.rel = rel
        self.sampler = sampler
        self.ids = ids
        self.person = resolver.person

    # -- the actor ---------------------------------------------------------------------------
    def scene(self) -> Scene:
        return Scene()

    def is_actor_slot(self, param: str, table: str) -> bool:
        """The parameter names the person speaking: a usual name for it, or one the domain's
        language declares (a payments merchant is ``merchant``)."""
        voice = self.resolver.voice
        return table == self.person and (param in ACTOR_SLOTS or (voice is not None and voice.speaker(param)))

    def signed_in(self, conn: sqlite3.Connection, table: str) -> Any:
        """The key of the row of ``table`` that is signed in on this episode (the marketplace
        user speaking), or None: a request never asks about the speaker as a third person."""
        acting = self.resolver.acting
        if acting is None or acting.table is None or acting.table.__tablename__ != table:
            return None
        row = conn.execute(f'SELECT "{acting.column}" FROM sessions LIMIT 1').fetchone()
        return row[0] if row else None

    def _roles(self, draft: Draft) -> frozenset[str] | None:
        """Who is speaking in this draft: the roles every request of it may be asked by (None
        when the domain declares no roles)."""
        language = self.resolver.voice.lang if self.resolver.voice is not None else None
        if language is None:
            return None
        out: frozenset[str] | None = None
        for s in draft.steps:
            roles = language.roles_of(s.spec.name) if s.role == "ask" else None
            if roles is not None:
                out = roles if out is None else out & roles
        return out

    def _may_ask(self, spec: ToolSpec, speaker: frozenset[str] | None) -> bool:
        """A lookup the speaker would make: one of their own tools, or a generic record tool."""
        language = self.resolver.voice.lang if self.resolver.voice is not None else None
        roles = language.roles_of(spec.name) if language is not None else None
        return roles is None or speaker is None or bool(roles & speaker)

    def asked_by_user(self, spec: ToolSpec) -> bool:
        """The service's usual user asks for this tool (not staff, not a dispatcher): its rows
        may be "mine" and their owner the one speaking."""
        language = self.resolver.voice.lang if self.resolver.voice is not None else None
        roles = language.roles_of(spec.name) if language is not None else None
        return roles is None or USER in roles

    def owned(self, table: str) -> bool:
        """Rows of ``table`` belong to a person (an account, an order): the actor's, once there is one."""
        return self.resolver.owned(table)

    def ownership(self, table: str, scene: Scene) -> str | None:
        """SQL over ``table``: rows related to the actor (None when anything goes)."""
        if scene.actor is None or not self.resolver.owned(table):
            return None
        actor = scene.actor.replace("'", "''")
        conds = []
        for path in self.rel.paths(table, self.person):
            conds.append(self.rel.condition(table, path, 1).replace("?", f"'{actor}'"))
        return " OR ".join(f"({c})" for c in conds) or None

    def adopt(self, conn: sqlite3.Connection, table: str, key: Any, scene: Scene) -> None:
        """The first owned row picked makes its owner the actor."""
        if scene.actor is not None or self.person is None:
            return
        owner = key if table == self.person else self._owner_of(conn, table, key)
        if owner is not None:
            scene.actor = owner
            row = self.sampler.row(conn, self.person, owner) or {}
            scene.name = row.get("name") if isinstance(row.get("name"), str) else None

    def _owner_of(self, conn: sqlite3.Connection, table: str, key: Any) -> Any:
        for path in self.rel.paths(table, self.person):
            if not path or any(h.direction != "up" for h in path):
                continue
            value = key
            for hop in path:
                value = self.sampler.cell(conn, hop.table, value, hop.column)
                if value is None:
                    break
            if value is not None:
                return value
        return None

    def observe(self, step: Step, index: int, scene: Scene) -> None:
        """A call the user asked for that found a person ("find the customer with email ...")
        makes them the actor if there is none yet, and is where the agent learnt their id."""
        if self.person is None or step.spec.returns != self.person or not isinstance(step.result, dict):
            return
        key = step.result.get("id")
        if key is None or key in step.args.values():
            return
        if scene.actor is None:
            scene.actor = key
            scene.name = step.result.get("name") if isinstance(step.result.get("name"), str) else None
        if key == scene.actor and scene.found_at is None:
            scene.found_at = index

    # -- naming the entities of one call -----------------------------------------------------
    def name_args(self, draft: Draft, step: Step) -> list[Step] | None:
        """Decide ``step.refs`` and run the lookups they need; returns the lookups to insert
        before ``step`` (their indices follow ``draft.steps``), or None if the call cannot be said."""
        a = _Asking(draft, known=self._known(draft.steps))
        for p in step.spec.params:
            if not p.ref or p.name not in step.args:
                continue
            if not self._name_one(a, step, p.name, p.ref):
                return None
        return a.pre

    def _name_one(self, a: _Asking, step: Step, param: str, ref: RefInfo) -> bool:
        """How the user names one entity argument (``ref`` its declared reference); False when
        the draft would jump to a row the conversation never met."""
        steps, scene = a.steps, a.draft.scene
        value, table = step.keys.get(param, step.args[param]), ref.table_name
        voice = self.resolver.voice
        said = self._carried_or_listed(step, param, table, value, steps)
        if said is not None:
            return said
        if ref.many or ref.path or marks(ref.table).prefix is None:
            kind = "path" if ref.path else "id" if ref.many else "name"
            known_path = self._path_known(steps, value, step.args[param])
            if kind == "path" and not known_path and self._met_table(steps, table):
                return False  # a file far from the ones the session works on
            if kind == "id" and self._stranger(steps, value, a.known):
                return False  # a list of ids the conversation never met
            if kind == "name" and self._stranger(steps, value, a.known) and self._met_table(steps, table):
                return False  # a second symbol out of nowhere; a first one is the user's topic
            if kind == "id" and voice is not None and not voice.holds(table):
                return False  # a list of internal ids no person could recite
            if kind == "id" and voice is not None and isinstance(value, list):
                said = [voice.held(table, v, self.sampler.row(a.draft.reading, table, v)) for v in value]
                if not all(said):
                    return False
                step.refs[param] = Reference("listed", value, listing(said), listing(said))
                return True  # "flight TW518 on Friday, July 17 and flight NX8957 on ..."
            step.refs[param] = Reference(kind, value)
            return True
        if table == self.person and value == scene.actor:
            return self._name_actor(a, step, param)
        if voice is not None and voice.speaker(param) and "{" + param + "}" not in (step.template or ""):
            return False  # "show my accounts" said of somebody else's accounts
        if step.origin[param].kind == "flow":
            step.refs[param] = Reference("flow", value)
            return True
        again = self._said_before(steps, value)
        if again is not None:  # the user named it already: the same words, no new lookup
            step.refs[param] = again
            if again.resolver is not None:
                step.origin[param] = Origin("flow", again.resolver)
            return True
        budget = a.budget()
        found = None
        if budget > 0 and a.draft.rng.random() < NATURAL.get(a.draft.level, 0.9):
            found = self._resolve(a, table, value, budget)
        if found is None and self._stranger(steps, value, a.known):
            return False
        if found is None:
            held = (
                voice.held(table, value, self.sampler.row(a.draft.reading, table, value)) if voice else None
            )
            if voice is not None and held is None:
                return False  # an internal id no person holds: the request cannot be said
            step.refs[param] = Reference("id", value, held)
            return True
        step.refs[param] = found
        step.origin[param] = Origin("flow", found.resolver)
        return True

    def _carried_or_listed(
        self, step: Step, param: str, table: str, value: Any, steps: list[Step]
    ) -> bool | None:
        """A token the agent carries (said by nobody; only a call of the task can hand it over), or
        a list said by the rows an earlier result showed it in; None when neither applies."""
        voice = self.resolver.voice
        if voice is None:
            return None
        if voice.passed(param):
            if step.origin[param].kind != "flow":
                return False  # a token no call of the task handed over: nobody could say it
            step.refs[param] = Reference("flow", value)
            step.silent.add(param)
            return True
        ref = next((p.ref for p in step.spec.params if p.name == param), None)
        if ref is not None and ref.many and isinstance(value, list):
            listed = voice.name_list(step.spec, param, table, value, steps)
            if listed is not None:  # "the TW518 flight leaving at 6:40 am", "the GAMB buy and the WOLL buy"
                phrase, source = listed
                step.refs[param] = Reference("listed", value, phrase, phrase)
                step.origin[param] = Origin("flow", source)
                return True
        return None

    def _met_table(self, steps: list[Step], table: str) -> bool:
        """The conversation has already dealt with rows of ``table``."""
        for s in steps:
            if s.produced(self.ids).get(table) or any(
                p.ref and p.ref.table_name == table and p.name in s.args for p in s.spec.params
            ):
                return True
        return False

    @staticmethod
    def _path_known(steps: list[Step], key: Any, path: Any) -> bool:
        """A path an earlier call took (the same node) or showed (an ``ls`` entry)."""
        return any(key in s.keys.values() for s in steps) or path_in_view(path, shown_strings(steps))

    @staticmethod
    def _stranger(steps: list[Step], value: Any, known: dict[Any, int]) -> bool:
        """A later call about a row the conversation never met (and no lookup finds): the story
        would jump to something unrelated, so this draft is not taken."""
        values = value if isinstance(value, list) else [value]
        if not steps:
            return False
        said = {v for s in steps for v in s.keys.values()} | {
            v for s in steps for a in s.args.values() for v in (a if isinstance(a, list) else [a])
        }
        return not any(v in known or v in said for v in values)

    @staticmethod
    def _said_before(steps: list[Step], value: Any) -> Reference | None:
        for s in reversed(steps):
            for ref in s.refs.values():
                if ref.kind == "attribute" and ref.target == value:
                    return ref
                if ref.kind == "id" and value in (
                    ref.target if isinstance(ref.target, list) else [ref.target]
                ):
                    return Reference("id", value)
        return None

    def _known(self, steps: list[Step]) -> dict[Any, int]:
        """Ids the conversation has found so far, with the call that found them."""
        out: dict[Any, int] = {}
        for i, s in enumerate(steps):
            for vs in s.produced(self.ids).values():
                for v in vs:
                    out.setdefault(v, i)
        return out

    def _name_actor(self, a: _Asking, step: Step, param: str) -> bool:
        """ "Me": the call takes the actor, found once from what they said about themself; False
        when only an internal customer number would identify them in a declared domain."""
        scene = a.draft.scene
        if scene.found_at is None:
            budget = a.budget()
            found = self._lookup_person(a, scene.actor, budget) if budget > 0 else None
            if found is not None:
                scene.found_at = found.resolver
                scene.said.update(found.columns or {found.column: found.value})
        text = first_person(step.template, param) if step.template else None
        if text is not None:
            step.template = text
            step.silent.add(param)
        elif step.template and "{" + param + "}" in step.template:
            return False  # "Who is Tyler Alvarez?" asked by Tyler Alvarez
        phrase = None if text is not None else scene.name or None
        step.refs[param] = Reference("self", scene.actor, phrase, phrase)
        if scene.found_at is not None:
            step.origin[param] = Origin("flow", scene.found_at)
            return True
        voice = self.resolver.voice
        if voice is not None and voice.held(self.person, scene.actor) is None:
            return False  # nobody knows their internal customer number
        scene.said["id"] = scene.actor  # no lookup finds them: they give their customer number
        step.origin[param] = Origin("user")
        return True

    def _lookup_person(self, a: _Asking, key: Any, budget: int) -> Reference | None:
        row = self.sampler.row(a.draft.reading, self.person, key) or {}
        for lk in self.resolver.person_lookups(row, a.draft.rng):
            ref = self._run(a, lk, key, {}, mine=False)
            if ref is not None:
                return ref
        return None

    def _resolve(self, a: _Asking, table: str, key: Any, budget: int, depth: int = 2) -> Reference | None:
        """A lookup (and the lookups it needs) that names row ``key`` uniquely, run on the fork."""
        row = self.sampler.row(a.draft.reading, table, key)
        if row is None:
            return None
        mine = self.resolver.owned(table) and a.draft.scene.actor is not None
        speaker = self._roles(a.draft)
        for lk in self.resolver.lookups(table, row):
            if not self._may_ask(lk.spec, speaker):
                continue  # a kitchen finds an order in its own queue, not in a customer's history
            mark = len(a.pre)
            origins: dict[str, Origin] = {}
            ok = True
            outer, a.via = a.via, []
            for param, value in lk.inputs.items():
                src = self._input(a, lk, param, value, budget, depth)
                if src is None:
                    ok = False
                    break
                origins[param] = src
            via, a.via = a.via, outer
            if ok and len(a.pre) + 1 <= budget:
                ref = self._run(a, lk, key, origins, mine)
                if ref is not None and self._say_within(ref, table, via):
                    return ref
            del a.pre[mark:]
        return None

    def _say_within(self, ref: Reference, table: str, via: list[Reference]) -> bool:
        """Say the rows the lookup went through ("Jon Reese at "Design review"", "my Visa ending
        3366 on my checking account"): the fallback joins them with "of", a declared domain with
        its table's ``within`` form; without one, a row found through another the user never
        named cannot be said (False)."""
        voice = self.resolver.voice
        if not via:
            return True
        names = voice.names(table) if voice is not None else None
        if voice is not None and (names is None or names.within is None):
            return False
        for owner in via:
            if names is not None and names.within is not None:
                ref.phrase = names.within.replace("{row}", ref.phrase or "").replace(
                    "{owner}", owner.phrase or ""
                )
            else:
                ref.phrase = f"{ref.phrase} of {owner.phrase}"
            ref.bare = None
        return True

    def _input(
        self, a: _Asking, lk: Lookup, param: str, value: Any, budget: int, depth: int
    ) -> Origin | None:
        """Where a lookup's own entity argument comes from: found already, the actor, or a lookup."""
        if value is CARRIED:  # the latest value of its table the task's calls handed over
            table = next(p.ref.table_name for p in lk.spec.params if p.name == param)
            for i, s in reversed(list(enumerate([*a.steps, *a.pre]))):
                made = s.produced(self.ids).get(table)
                if made:
                    lk.inputs[param] = made[-1]
                    return Origin("flow", i)
            return None
        if value in a.known:
            return Origin("flow", a.known[value])
        for i, s in enumerate(a.pre):
            if value in {v for vs in s.produced(self.ids).values() for v in vs}:
                return Origin("flow", len(a.steps) + i)
        table = next(p.ref.table_name for p in lk.spec.params if p.name == param)
        voice = self.resolver.voice
        if voice is not None and voice.held(table, value) is not None:
            return Origin("user")  # the order number the user quotes: no lookup finds it for them
        scene = a.draft.scene
        if table == self.person and value == scene.actor:
            if scene.found_at is None:
                found = self._lookup_person(a, value, budget - 1)
                if found is None:
                    return None
                scene.found_at = found.resolver
                scene.said.update(found.columns or {found.column: found.value})
            return Origin("flow", scene.found_at)
        if depth <= 1:
            return None
        found = self._resolve(a, table, value, budget - 1, depth - 1)
        if found is None:
            return None
        a.via.append(found)  # the user must say it too: "the alert ... of my vehicle ..."
        return Origin("flow", found.resolver)

    def _run(
        self, a: _Asking, lk: Lookup, key: Any, origins: dict[str, Origin], mine: bool
    ) -> Reference | None:
        """Execute the lookup; keep it if its result names ``key`` by one attribute. The same
        lookup already made, with nothing written since, is read again instead of repeated (two
        accounts named from one list of them)."""
        steps, pre = a.steps, a.pre
        args = {**lk.args, **lk.inputs}
        ordered = {p.name: args[p.name] for p in lk.spec.params if p.name in args}
        made = _made_since_last_write([*steps, *pre], lk.spec, ordered)
        if made is not None:
            ref = self.resolver.name_in(lk, [*steps, *pre][made].result, key, mine)
            if ref is not None:
                ref.resolver = made
            return ref
        res = self.call(a.draft.ep, lk.spec.qualified_name, ordered)
        if not res.ok:
            return None
        ref = self.resolver.name_in(lk, res.value, key, mine)
        if ref is None:
            return None
        step = Step(lk.spec, -1, None, ordered, role="resolve", ok=True, result=res.value)
        step.origin = {k: origins.get(k, Origin("user")) for k in ordered}
        ref.resolver = len(steps) + len(pre)
        pre.append(step)
        return ref


def _made_since_last_write(calls: list[Step], spec: Any, args: dict[str, Any]) -> int | None:
    """The index of an identical read among ``calls`` that no later write could have changed."""
    for j in range(len(calls) - 1, -1, -1):
        if calls[j].spec is spec and calls[j].args == args:
            return j
        if calls[j].spec.writes:
            return None
    return None
