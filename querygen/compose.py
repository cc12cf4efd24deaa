"""Composing one candidate task: chain, gold execution, turns, text, offered tools.

Three shapes come out of here: ``tool`` tasks (1-4 user turns over one evolving state, the last
turn possibly referring to what an earlier one created), ``clarify`` tasks (a required value is
left out, the right move is to ask, and the next user turn supplies it), and ``abstain`` tasks
(irrelevant requests, or a needed tool hidden). Each is a finished :class:`Task` awaiting the
gates.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from querygen.gold import GoldBuilder, IdIndex, Step, dependencies
from querygen.graph import ChainSampler, DependencyGraph
from querygen.knobs import Offer, ToolOffer, out_of_scope
from querygen.phrasing import (
    CLARIFY_QUESTIONS,
    CLARIFY_REPLIES,
    IRRELEVANT_ANSWER,
    MISSING_TOOL_ANSWER,
    MISSING_TOOL_CLARIFY,
    Persona,
)
from querygen.probe import StateProbe
from querygen.render import Renderer, human, noun
from querygen.sampler import tables_of
from querygen.task import GoldCall, Task, Turn
from querygen.values import ValueMaker
from servers.kit import Domain
from state import Episode


@dataclass
class DomainKit:
    """Everything composed per domain once: graph, chains, builders, renderer."""

    domain: Domain
    graph: DependencyGraph
    chains: ChainSampler
    builder: GoldBuilder
    renderer: Renderer
    values: ValueMaker


@dataclass
class Shape:
    """Random choices made before execution."""

    level: str
    length: int
    turns: int


def _pick(rng: random.Random, weights: dict[Any, float]) -> Any:
    return rng.choices(list(weights), weights=list(weights.values()))[0]


def _split(rng: random.Random, length: int, turns: int) -> list[int]:
    """Turn index of each step: ``turns`` contiguous non-empty segments."""
    cuts = sorted(rng.sample(range(1, length), turns - 1)) if turns > 1 else []
    out, t = [], 0
    for j in range(length):
        if t < len(cuts) and j == cuts[t]:
            t += 1
        out.append(t)
    return out


class Composer:
    """Builds candidate tasks; ``probe`` supplies hashes, ``offer`` the offered tools."""

    def __init__(self, kits: dict[str, DomainKit], offer: ToolOffer, probe: StateProbe, ids: IdIndex) -> None:
        self.kits = kits
        self.offerer = offer
        self.probe = probe
        self.ids = ids

    # -- tool and clarify tasks ------------------------------------------------------------------
    def tool_task(
        self, ep: Episode, domain: str, shape: Shape, rng: random.Random, start: str | None = None
    ) -> Task | None:
        """``start`` forces the first tool (a variant's ``first``: log in before anything else)."""
        kit = self.kits[domain]
        chain = kit.chains.sample(rng, shape.length, start=start)
        turns = min(shape.turns, len(chain), 3 if shape.level == "missing_required" else 4)
        steps = kit.builder.build(ep, chain, _split(rng, len(chain), turns), rng, shape.level)
        if not steps:
            return None
        hashes = self.probe.session_hashes(ep, [domain])
        diff = self.probe.diff(ep, [domain])
        created = {c["pk"] for c in diff if c["op"] == "insert"} | self._created(domain, steps, diff)
        persona = kit.renderer.persona(rng)
        owner = self._owner(domain, steps)
        gap = self._gap(kit, steps, rng) if shape.level == "missing_required" else None
        level = shape.level if gap else ("complete" if shape.level == "missing_required" else shape.level)
        texts, anchors = self._render(kit, steps, created, rng, level, persona, owner, gap)
        if gap and any(gap[2].lower() in t.lower() for t in texts):
            return None  # the "missing" value is still said somewhere; not a real clarification
        turn_list = self._turns(kit, steps, texts, gap, rng)
        offer = self.offerer.offer(domain, rng)
        return self._task(
            domain,
            "clarify" if gap else "tool",
            turn_list,
            dependencies(steps, self.ids),
            offer,
            hashes,
            diff,
            {
                "chain": [s.name for s in steps],
                "chain_length": len(steps),
                "info_level": level,
                "persona": persona.name,
                "anchors": anchors if not gap else [*anchors[: gap[3] + 1], [gap[2]], *anchors[gap[3] + 1 :]],
                "dataflow": [
                    {"from": o.source, "to": j, "param": k}
                    for j, s in enumerate(steps)
                    for k, o in s.origin.items()
                    if o.kind == "flow"
                ],
                **({"missing": {"call": gap[0], "param": gap[1]}} if gap else {}),
            },
        )

    def _created(self, domain: str, steps: list[Step], diff: list[dict[str, Any]]) -> set[str]:
        """Ids the task made that the final diff no longer shows (created, then deleted)."""
        deleted = {c["pk"] for c in diff if c["op"] == "delete"}
        inserted = {c["pk"] for c in diff if c["op"] == "insert"}
        conn = self.probe.fingerprint(domain).conn
        tables = {t.__tablename__ for t in tables_of(self.kits[domain].domain)}
        out = set()
        for s in steps:
            if not s.spec.writes:
                continue
            for table, found in s.produced(self.ids).items():
                for v in found:
                    if table not in tables or v in inserted or v in deleted:
                        continue
                    if conn.execute(f'SELECT 1 FROM "{table}" WHERE id = ?', (v,)).fetchone() is None:
                        out.add(v)
        return out

    def _owner(self, domain: str, steps: list[Step]) -> str | None:
        """The name of the person the story is about, when a step takes them by their own noun."""
        kit = self.kits[domain]
        for s in steps:
            if (
                s.spec.read_only
                and s.spec.returns
                and any(p.ref and p.ref.table_name == s.spec.returns for p in s.spec.params)
            ):
                continue  # "This is Ann. Who is CUS-7?" would ask about oneself
            for p in s.spec.params:
                cols = kit.builder.rel.columns[p.ref.table_name] if p.ref else []
                if (
                    p.ref
                    and p.name in s.args
                    and p.name == noun(p.ref.table)
                    and {"name", "email"} <= set(cols)
                ):
                    if kit.builder.rel.fk_columns.get(p.ref.table_name):
                        continue  # a person is a root row with a name and an email
                    row = kit.builder.sampler.row(
                        self.probe.fingerprint(domain).conn, p.ref.table_name, s.args[p.name]
                    )
                    if row and isinstance(row.get("name"), str):
                        return row["name"]
        return None

    def _gap(self, kit: DomainKit, steps: list[Step], rng: random.Random) -> tuple[int, str, str, int] | None:
        """(step, param, surface, turn): a required user-given value of a turn's first call to leave out."""
        firsts = [j for j, s in enumerate(steps) if j == 0 or steps[j - 1].turn != s.turn]
        for j in firsts:
            s = steps[j]
            options = [
                p
                for p in s.spec.params
                if p.required and p.name in s.args and s.origin[p.name].kind == "user" and not p.enum
            ]
            if options:
                p = rng.choice(options)
                surface = kit.renderer.surface(s.spec, p, s.args[p.name], random.Random(0))
                return j, p.name, surface, s.turn
        return None

    def _render(
        self,
        kit: DomainKit,
        steps: list[Step],
        created: set[str],
        rng: random.Random,
        level: str,
        persona: Persona,
        owner: str | None,
        gap: tuple[int, str, str, int] | None,
    ) -> tuple[list[str], list[list[str]]]:
        r = kit.renderer
        n_turns = steps[-1].turn + 1
        sentences: list[list[str]] = [[] for _ in range(n_turns)]
        anchors: list[list[str]] = [[] for _ in range(n_turns)]
        for j, s in enumerate(steps):
            phrases: dict[str, str] = {}
            for k, o in s.origin.items():
                if o.kind == "flow" and o.source is not None:
                    phrase = self._flow_phrase(kit, s, k, steps[o.source], created, rng, level)
                    if phrase is not None:
                        phrases[k] = phrase
            if gap and gap[0] == j:
                p = next(q for q in s.spec.params if q.name == gap[1])
                phrases[gap[1]] = r.vague(p)
            text, found = r.sentence(s, phrases, rng, level)
            sentences[s.turn].append(text)
            anchors[s.turn].extend(found)
        texts = [
            r.turn(sents, rng, level, persona if t == 0 else None, owner) for t, sents in enumerate(sentences)
        ]
        return texts, anchors

    def _flow_phrase(
        self,
        kit: DomainKit,
        step: Step,
        param: str,
        producer: Step,
        created: set[str],
        rng: random.Random,
        level: str,
    ) -> str | None:
        """A referring phrase for a value from an earlier output (None = write the id itself)."""
        value = step.args[param]
        p = next(q for q in step.spec.params if q.name == param)
        if isinstance(value, list) or p.ref.path:
            return None  # lists and paths are written out: the user read them in the earlier answer
        known = value not in created or producer.turn < step.turn
        if known and rng.random() < (0.5 if level == "minimal" else 0.25):
            return None
        phrase = kit.renderer.refer(
            value, p.ref.table_name, producer, producer.turn == step.turn, value in created, rng
        )
        if phrase is None and not known:
            phrase = f"the new {noun(p.ref.table)}"
        return phrase

    def _turns(
        self, kit: DomainKit, steps: list[Step], texts: list[str], gap: tuple | None, rng: random.Random
    ) -> list[Turn]:
        out = []
        for t, text in enumerate(texts):
            calls = [GoldCall(name=s.name, arguments=s.args, result=s.result) for s in steps if s.turn == t]
            if gap and gap[3] == t:
                what = human(gap[1])
                out.append(Turn(user=text, calls=[], answer=rng.choice(CLARIFY_QUESTIONS).format(what=what)))
                text = rng.choice(CLARIFY_REPLIES).format(what=what, value=gap[2])
            out.append(Turn(user=text, calls=calls))
        return out

    # -- abstain tasks ------------------------------------------------------------------------------
    def missing_function_task(self, ep: Episode, domain: str, rng: random.Random) -> Task | None:
        kit = self.kits[domain]
        options = self.offerer.hideable(domain)
        if not options:
            return None
        hidden = kit.chains.pick_tool(rng, options)
        steps = kit.builder.build(ep, [hidden], [0], rng, "complete")
        if not steps:
            return None
        text, anchors = kit.renderer.sentence(steps[0], {}, rng, "complete")
        action = kit.graph.specs[hidden].description.split(".")[0].rstrip()
        action = action[:1].lower() + action[1:]
        clarify = self.offerer.substitute_exists(domain, hidden)
        answer = (MISSING_TOOL_CLARIFY if clarify else MISSING_TOOL_ANSWER).format(action=action)
        offer = self.offerer.offer(domain, rng, hide=hidden)
        turns = [Turn(user=text, calls=[], answer=answer)]
        meta = {
            "chain": [hidden],
            "chain_length": 0,
            "info_level": "complete",
            "anchors": [anchors],
            "unserved_call": {"name": hidden, "arguments": steps[0].args},
        }
        return self._task(domain, "clarify" if clarify else "abstain", turns, [], offer, {}, [], meta)

    def irrelevance_task(self, domain: str, rng: random.Random) -> Task:
        offer = self.offerer.offer(domain, rng, distract=False)
        text = out_of_scope(rng, self.kits[domain].values.fake, offer.schemas)
        turns = [Turn(user=text, calls=[], answer=IRRELEVANT_ANSWER)]
        meta = {"chain": [], "chain_length": 0, "info_level": "complete", "anchors": [[]], "irrelevant": True}
        return self._task(domain, "abstain", turns, [], offer, {}, [], meta)

    # -- assembly -----------------------------------------------------------------------------------
    def _task(
        self,
        domain: str,
        kind: str,
        turns: list[Turn],
        deps: list[tuple[int, int]],
        offer: Offer,
        hashes: dict[str, str],
        diff: list[dict[str, Any]],
        meta: dict[str, Any],
    ) -> Task:
        domains = [domain, *[d for d in offer.distractor_domains if d != domain]]
        snaps = [self.probe.snapshots[d].identity() for d in domains]
        kit = self.kits[domain]
        system = (
            f"You are an assistant for {kit.domain.description.rstrip('.')}. Use the tools to act for the user. "
            f"Today is {kit.renderer.today.strftime('%A, %B %-d, %Y')}. If information you need is missing, ask; "
            "if no tool can do what is asked, say so."
        )
        metadata = {**meta, "turns": len(turns), "knobs": offer.knobs(), "system_prompt": system}
        metadata["reference_date"] = kit.renderer.today.isoformat()
        return Task(
            id="pending",
            domains=domains,
            snapshots=snaps,
            kind=kind,
            turns=turns,
            dependencies=deps,
            tools=offer.schemas,
            expected_state_hash=self.probe.combine(hashes, domains),
            expected_diff=diff,
            metadata=metadata,
        )
