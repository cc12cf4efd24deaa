"""Composing one candidate task: chain, gold execution, turns, text, offered tools.

Three shapes come out of here: ``tool`` tasks (1-4 user turns over one evolving state, the last
turn possibly referring to what an earlier one created), ``clarify`` tasks (a required value is
left out, the right move is to ask, and the next user turn supplies it), and ``abstain`` tasks
(irrelevant requests, or a needed tool hidden). Each is a finished :class:`Task` awaiting the
gates.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any

from contract.task import GoldCall, Task, Turn
from querygen.knobs import Offer, ToolOffer, out_of_scope
from querygen.plan.gold import GoldBuilder
from querygen.plan.graph import ChainSampler, DependencyGraph
from querygen.plan.ids import IdIndex
from querygen.plan.policy_gate import YES, confirm_mark, confirmation_rules, offer_mark, policy_meta
from querygen.plan.probe import StateProbe
from querygen.plan.sampler import tables_of
from querygen.plan.step import Scene, Step, dependencies
from querygen.plan.story import MAX_ASKS_PER_TURN, carried_first, repeats, split, undoes
from querygen.plan.values import ValueMaker
from querygen.policy_talk import INSIST, PolicyTalk
from querygen.text.answers import Reported, answer
from querygen.text.paraphrase import keeps_values
from querygen.text.phrasing import (
    CLARIFY_QUESTIONS,
    CLARIFY_REPLIES,
    DECLARED_CLARIFY,
    DECLARED_MISSING,
    IRRELEVANT_ANSWER,
    MISSING_TOOL_ANSWER,
    MISSING_TOOL_CLARIFY,
)
from querygen.text.render import Renderer, noun
from querygen.text.request import Gap, Requests, find_gap, intro
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

    @property
    def kind(self) -> str:
        """What a draft of this shape is, before drafting says otherwise."""
        return "clarify" if self.level == "missing_required" else "tool"


def _pick(rng: random.Random, weights: dict[Any, float]) -> Any:
    return rng.choices(list(weights), weights=list(weights.values()))[0]


INSISTS = 0.4  # the share of refusals (with nothing to offer) the user pushes back on


def _mark_of(step: Step) -> Any:
    return next(m for m in step.policy if m.kind in ("forbidden", "alternative"))


def _gold(steps: list[Step]) -> list[GoldCall]:
    return [GoldCall(name=s.name, arguments=s.args, result=s.result) for s in steps]


def _first_clause(description: str) -> str:
    """What a tool does, as a verb phrase: its description up to the first clause break
    (the rest states constraints, which no assistant reads out: "within its daily limit")."""
    action = re.split(r"[.;:(]| - ", description, maxsplit=1)[0].strip()
    return action[:1].lower() + action[1:]


class Composer:
    """Builds candidate tasks; ``probe`` supplies hashes, ``offer`` the offered tools."""

    def __init__(self, kits: dict[str, DomainKit], offer: ToolOffer, probe: StateProbe, ids: IdIndex) -> None:
        self.kits = kits
        self.offerer = offer
        self.probe = probe
        self.ids = ids
        self._ready: dict[str, frozenset[str]] = {}
        self.dropped: str | None = None  # why the last draft was not made (the text stage's reasons)

    def _drop(self, reason: str) -> None:
        self.dropped = reason
        return None

    def ready(self, domain: str) -> frozenset[str]:
        """Tools with preconditions this composer's starting snapshot of ``domain`` meets."""
        if domain not in self._ready:
            self._ready[domain] = self.kits[domain].chains.ready_in(self.probe.fingerprint(domain).conn)
        return self._ready[domain]

    # -- tool and clarify tasks ------------------------------------------------------------------
    def tool_task(
        self,
        ep: Episode,
        domain: str,
        shape: Shape,
        rng: random.Random,
        start: str | None = None,
        through: str | None = None,
        lead: bool = False,
    ) -> Task | None:
        """``start`` forces the first tool (a variant's ``first``: log in before anything else); a
        variant without one often starts at a tool whose precondition its state meets.
        ``through`` is a tool the chain must contain, after another with ``lead``
        (:meth:`ChainSampler.sample`)."""
        self.dropped = None
        kit = self.kits[domain]
        asked = self._asked(ep, domain, shape, rng, start, through, lead)
        if not asked:
            return None
        # a forbidden request (only ever the last) is said by the user but is no gold call; the
        # compliant call offered instead, if any, is
        steps = [s for s in asked if not s.forbidden] + [s.instead for s in asked if s.instead is not None]
        hashes = self.probe.fork_hashes(ep, [domain])
        diff = self.probe.diff(ep, [domain])
        created = {c["pk"] for c in diff if c["op"] == "insert"} | self._created(domain, steps, diff)
        implausible = "undo" if undoes(steps, created, diff) else "repeat" if repeats(steps) else None
        if implausible is not None:
            return self._drop(implausible)  # a person does not undo or re-ask what they just did
        persona = kit.renderer.persona(rng)
        scene = kit.builder.scene
        refused = len(steps) < len(asked)
        gap = (
            find_gap(kit.renderer, steps, rng) if shape.level == "missing_required" and not refused else None
        )
        level = shape.level if gap else ("complete" if shape.level == "missing_required" else shape.level)
        rendered = Requests(kit.renderer, self.ids, asked, created, rng, level).texts(persona, scene, gap)
        if rendered is None:
            return self._drop("unsaid")  # only an internal id or a found value could say some call
        texts, anchors = rendered
        # a turn's anchors are the values its text states: the one left out for a clarification
        # (or a value only an earlier turn said) is no anchor a paraphrase could keep
        anchors = [
            [a for a in turn if keeps_values(text, [a])] for text, turn in zip(texts, anchors, strict=True)
        ]
        if gap and any(gap.surface.lower() in t.lower() for t in texts):
            return None  # the "missing" value is still said somewhere; not a real clarification
        made = self._turns(kit, asked, texts, gap, created, diff, rng)
        if made is None:
            return self._drop("planted")
        turn_list, confirms, insist = made
        if gap:
            anchors = [*anchors[: gap.turn + 1], [gap.surface], *anchors[gap.turn + 1 :]]
        for c in confirms:  # the yes turn states no value
            anchors.insert(c["turn"] + 1, [])
        if insist is not None:  # nor does the user who insists
            anchors.insert(insist, [])
        offer = self.offerer.offer(domain, rng)
        meta = {
            **self._story(kit, steps, scene, level, persona.name, anchors, gap),
            **self._policy(domain, asked, confirms, insist),
        }
        kind = "clarify" if gap else "tool"
        return self._task(domain, kind, turn_list, dependencies(steps, self.ids), offer, hashes, diff, meta)

    def _asked(
        self,
        ep: Episode,
        domain: str,
        shape: Shape,
        rng: random.Random,
        start: str | None,
        through: str | None,
        lead: bool,
    ) -> list[Step]:
        """The chain drawn and run, split into turns of at most two requests each."""
        kit = self.kits[domain]
        variant = self.probe.snapshots[domain].variant is not None
        chain = kit.chains.sample(
            rng,
            shape.length,
            start=start,
            through=through,
            lead=lead,
            ready=self.ready(domain),
            variant=variant,
        )
        chain = carried_first(kit.domain, kit.graph.specs, chain)
        most = 3 if shape.level == "missing_required" else 4
        turns = min(max(shape.turns, -(-len(chain) // MAX_ASKS_PER_TURN)), len(chain), most)
        return kit.builder.build(ep, chain, split(rng, len(chain), turns), rng, shape.level)

    @staticmethod
    def _story(
        kit: DomainKit,
        steps: list[Step],
        scene: Scene | None,
        level: str,
        persona: str,
        anchors: list[list[str]],
        gap: Gap | None,
    ) -> dict[str, Any]:
        """What a tool task records about its calls and words (docs/querygen.md: chain, roles,
        dataflow, references, actor, the value a clarification leaves out)."""
        actor = {"table": kit.builder.namer.person, "id": scene.actor} if scene and scene.actor else None
        return {
            "chain": [s.name for s in steps],
            "chain_length": len(steps),
            "info_level": level,
            "persona": persona,
            "anchors": anchors,
            "dataflow": [
                {"from": o.source, "to": j, "param": k}
                for j, s in enumerate(steps)
                for k, o in s.origin.items()
                if o.kind == "flow"
            ],
            "roles": [s.role for s in steps],
            "references": [r.as_dict(j, k) for j, s in enumerate(steps) for k, r in s.refs.items()],
            **({"actor": actor} if actor else {}),
            **({"missing": {"call": gap.call, "param": gap.param}} if gap else {}),
        }

    @staticmethod
    def _policy(
        domain: str, asked: list[Step], confirms: list[dict[str, Any]], insist: int | None
    ) -> dict[str, Any]:
        """``policy``: what the domain's written policy made of the task (forbidden, an offer made
        instead, a precondition, near a rule's edge, a confirmation turn, a user who insists), the
        request it refuses and the call offered instead."""
        meta = policy_meta(domain, [m for s in asked for m in s.policy], confirms, insist)
        if meta is None:
            return {}
        refused = next((s for s in asked if s.forbidden), None)
        if refused is not None:
            meta["refused_call"] = {"name": refused.name, "arguments": refused.args}
            if refused.instead is not None:
                meta["offered_call"] = {"name": refused.instead.name, "arguments": refused.instead.args}
        return {"policy": meta}

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

    def _turns(
        self,
        kit: DomainKit,
        steps: list[Step],
        texts: list[str],
        gap: Gap | None,
        created: set[str],
        diff: list[dict[str, Any]],
        rng: random.Random,
    ) -> tuple[list[Turn], list[dict[str, Any]], int | None] | None:
        """The turns (None when a later turn would quote an id no answer gave), the turns that
        wait for a yes (``Task.policy["confirm"]``) and the turn where the user insists, if any.

        A turn whose calls reach a write a confirmation rule governs stops before it, states every
        governed change of the turn and asks; the user's yes is a turn of its own, and the writes
        and what follows answer it. A refused request is explained; where its rule offers a
        compliant change, the agent proposes it and it answers the user's yes."""
        out: list[Turn] = []
        confirms: list[dict[str, Any]] = []
        insist: int | None = None
        everything = [*steps, *(s.instead for s in steps if s.instead is not None)]
        given = [s.args for s in everything]
        gated = confirmation_rules(kit.domain)
        talk = PolicyTalk(kit.renderer, lambda key: self.ids.table(key, kit.domain.name))
        for t, text in enumerate(texts):
            refused = next((s for s in steps if s.turn == t and s.forbidden), None)
            mine = [s for s in steps if s.turn == t and not s.forbidden]
            if gap and gap.turn == t:
                text = self._clarified(out, text, gap, rng)
            quoted = self._quoted_later(mine, texts[t + 1 :])
            reported = [
                self._reported(kit, s, created - self._seen_before(everything, s), diff, everything)
                for s in mine
            ]
            k = next((i for i, s in enumerate(mine) if s.name in gated), None)
            if k is not None:
                rule = gated[mine[k].name]
                # the requests answered before the confirmation; the agent's own lookups are not news
                before = answer(reported[:k], given, set()) if any(r.ask for r in reported[:k]) else ""
                ask = talk.confirming([g for g in mine[k:] if g.name in gated], everything)
                out.append(Turn(user=text, calls=_gold(mine[:k]), answer=f"{before} {ask}".strip()))
                confirms.append(confirm_mark(kit.domain, rule, len(out) - 1))
                mine, reported, text = mine[k:], reported[k:], rng.choice(YES)
            said = answer(reported, given, quoted) if any(r.ask for r in reported) else ""
            if any(str(i) not in said for i in quoted):
                return None  # a later turn quotes an id no answer gave: it would be planted
            if refused is not None and refused.instead is not None:
                offer = talk.offering(refused, everything)
                out.append(Turn(user=text, calls=_gold(mine), answer=f"{said} {offer}".strip()))
                confirms.append(offer_mark(kit.domain, _mark_of(refused), refused.instead, len(out) - 1))
                done = self._reported(kit, refused.instead, created, diff, everything)
                text, mine, said = rng.choice(YES), [refused.instead], answer([done], given, set())
            elif refused is not None:
                said = f"{said} {talk.refusing(refused, everything)}".strip()
            out.append(Turn(user=text, calls=_gold(mine), answer=said or "Done."))
            if (
                refused is not None
                and refused.instead is None
                and t == len(texts) - 1
                and rng.random() < INSISTS
            ):
                out.append(
                    Turn(user=rng.choice(INSIST), calls=[], answer=talk.holding(refused, everything, rng))
                )
                insist = len(out) - 1
        return out, confirms, insist

    @staticmethod
    def _clarified(out: list[Turn], text: str, gap: Gap, rng: random.Random) -> str:
        """Add the turn whose answer asks for the value the request left out; the user's reply
        giving it is the text of the turn that follows."""
        out.append(Turn(user=text, calls=[], answer=rng.choice(CLARIFY_QUESTIONS).format(what=gap.what)))
        plain = gap.surface.lower().startswith(("the ", "my ", "a ", "an "))
        replies = [r for r in CLARIFY_REPLIES if not (plain and r.startswith("The {what} is"))]
        return rng.choice(replies).format(what=gap.what, value=gap.surface)

    def _seen_before(self, steps: list[Step], step: Step) -> set[str]:
        """Ids earlier calls showed (a row archived after it was created is not new again)."""
        out: set[str] = set()
        for s in steps[: steps.index(step)]:
            out.update(v for vs in s.produced(self.ids).values() for v in vs)
        return out

    def _quoted_later(self, steps: list[Step], later: list[str]) -> set[str]:
        """Ids this turn's calls showed that a later user turn quotes: the answer must name them."""
        shown = {v for s in steps for vs in s.produced(self.ids).values() for v in vs}
        words = {w.rstrip(".,;:!?'\")") for w in re.findall(r"[^\s\"'(]+", " ".join(later))}
        return {v for v in shown if str(v) in words}

    def _reported(
        self, kit: DomainKit, step: Step, created: set[str], diff: list[dict[str, Any]], steps: list[Step]
    ) -> Reported:
        table = kit.renderer.tables.get(step.spec.returns or "")
        key = self._subject(step)
        new = key is not None and key in created
        changed = frozenset(
            c["column"].removesuffix("_id") for c in diff if c["pk"] == key and c["op"] == "update"
        )
        voice = kit.renderer.voice
        told = None
        if voice is not None:
            told = voice.tell(
                step.spec, step.result, step.args, kit.renderer.said(step, steps[: steps.index(step)])
            )
        return Reported(
            told=told,
            result=step.result,
            noun=noun(table) if table is not None else "result",
            writes=bool(step.spec.writes),
            created=bool(new),
            ask=step.role == "ask",
            changed=changed,
            key=key,
        )

    def _subject(self, step: Step) -> Any:
        """The id of the row a result describes: its ``id``, or the one top-level value naming a
        row of the tool's table (``{"vehicle": "VEH-7", ...}``)."""
        if not isinstance(step.result, dict):
            return None
        if "id" in step.result:
            return step.result["id"]
        table = step.spec.returns
        if table is None:
            return None
        keys = [
            v
            for v in step.result.values()
            if isinstance(v, str) and self.ids.table(v, step.spec.domain) == table
        ]
        return keys[0] if len(keys) == 1 else None

    # -- abstain tasks ------------------------------------------------------------------------------
    def missing_function_task(self, ep: Episode, domain: str, rng: random.Random) -> Task | None:
        self.dropped = None
        kit = self.kits[domain]
        options = self.offerer.hideable(domain)
        if not options:
            return None
        hidden = kit.chains.pick_tool(rng, options)
        steps = kit.builder.build(ep, [hidden], [0], rng, "complete")
        if not steps or steps[-1].name != hidden:
            return None
        ask = steps[-1]
        phrases = {k: r.phrase for k, r in ask.refs.items() if r.kind in ("attribute", "self") and r.phrase}
        text, anchors = kit.renderer.sentence(ask, phrases, rng, "complete")
        who = intro(kit.builder.scene) if kit.builder.scene is not None else None
        if who:
            text = f"I'm {who}. {text}"
        action = _first_clause(kit.graph.specs[hidden].description)
        clarify = self.offerer.substitute_exists(domain, hidden)
        if kit.renderer.voice is not None:  # the tool's own description reads as documentation
            answer = DECLARED_CLARIFY if clarify else DECLARED_MISSING
        else:
            answer = (MISSING_TOOL_CLARIFY if clarify else MISSING_TOOL_ANSWER).format(action=action)
        offer = self.offerer.offer(domain, rng, hide=hidden)
        turns = [Turn(user=text, calls=[], answer=answer)]
        meta = {
            "chain": [hidden],
            "chain_length": 0,
            "info_level": "complete",
            "anchors": [anchors],
            "unserved_call": {"name": hidden, "arguments": ask.args},
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
        if kit.domain.policy is not None:
            system += (
                " Follow the service policy below; when it forbids a request, do not act on it: "
                "explain which rule applies.\n\n" + kit.domain.policy.markdown()
            )
        diagnostics = {k: v for k, v in meta.items() if k != "policy"}  # the policy verdict is a field
        metadata = {**diagnostics, "turns": len(turns), "knobs": offer.knobs()}
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
            system_prompt=system,
            policy=meta.get("policy"),
        )
