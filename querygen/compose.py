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

from querygen.knobs import Offer, ToolOffer, out_of_scope
from querygen.plan.gold import GoldBuilder
from querygen.plan.graph import ChainSampler, DependencyGraph
from querygen.plan.ids import IdIndex
from querygen.plan.policy_gate import YES, confirm_mark, confirmation_rules, describe, policy_meta, refusal
from querygen.plan.probe import StateProbe
from querygen.plan.sampler import tables_of
from querygen.plan.step import Step, dependencies
from querygen.plan.values import ValueMaker
from querygen.task import GoldCall, Task, Turn
from querygen.text.answers import Reported, answer
from querygen.text.paraphrase import keeps_values
from querygen.text.phrasing import (
    CLARIFY_QUESTIONS,
    CLARIFY_REPLIES,
    IRRELEVANT_ANSWER,
    MISSING_TOOL_ANSWER,
    MISSING_TOOL_CLARIFY,
    Persona,
)
from querygen.text.render import Renderer, is_money, noun
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


def _named_before(steps: list[Step], step: Step, value: Any) -> str | None:
    """The words an earlier request of this task used for ``value`` (said the same way again)."""
    found = None
    for s in steps[: steps.index(step)]:
        ref = next((r for r in s.refs.values() if r.target == value and r.phrase), None)
        found = ref.phrase if ref is not None else found
    return found


def _only_one_shown(step: Step, value: Any, ids: IdIndex) -> bool:
    """``value`` is what the previous request was about: "that account" can only mean it."""
    table = ids.table(value, step.spec.domain)
    shown = step.produced(ids).get(table, []) if table else []
    return value in step.args.values() or shown == [value]


def _gold(steps: list[Step]) -> list[GoldCall]:
    return [GoldCall(name=s.name, arguments=s.args, result=s.result) for s in steps]


def _forbidding(step: Step) -> Any:
    return next(m for m in step.policy if m.kind == "forbidden")


def _first_clause(description: str) -> str:
    """What a tool does, as a verb phrase: its description up to the first clause break
    (the rest states constraints, which no assistant reads out: "within its daily limit")."""
    action = re.split(r"[.,;:(]| - ", description, maxsplit=1)[0].strip()
    return action[:1].lower() + action[1:]


def _split(rng: random.Random, length: int, turns: int) -> list[int]:
    """Turn index of each step: ``turns`` contiguous non-empty segments."""
    cuts = sorted(rng.sample(range(1, length), turns - 1)) if turns > 1 else []
    out, t = [], 0
    for j in range(length):
        if t < len(cuts) and j == cuts[t]:
            t += 1
        out.append(t)
    return out


# How an entity left out of a request may have been named, to be given when the assistant asks:
# by id, or naturally ("my checking account", a ticker); not a value found in the conversation.
ASKABLE = ("id", "attribute", "name")


class Composer:
    """Builds candidate tasks; ``probe`` supplies hashes, ``offer`` the offered tools."""

    def __init__(self, kits: dict[str, DomainKit], offer: ToolOffer, probe: StateProbe, ids: IdIndex) -> None:
        self.kits = kits
        self.offerer = offer
        self.probe = probe
        self.ids = ids
        self._ready: dict[str, frozenset[str]] = {}

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
        kit = self.kits[domain]
        variant = self.probe.snapshots[domain].variant is not None
        ready = self.ready(domain)
        chain = kit.chains.sample(
            rng, shape.length, start=start, through=through, lead=lead, ready=ready, variant=variant
        )
        turns = min(shape.turns, len(chain), 3 if shape.level == "missing_required" else 4)
        asked = kit.builder.build(ep, chain, _split(rng, len(chain), turns), rng, shape.level)
        if not asked:
            return None
        # a forbidden request (only ever the last) is said by the user but is no gold call
        steps = [s for s in asked if not s.forbidden]
        hashes = self.probe.session_hashes(ep, [domain])
        diff = self.probe.diff(ep, [domain])
        created = {c["pk"] for c in diff if c["op"] == "insert"} | self._created(domain, steps, diff)
        persona = kit.renderer.persona(rng)
        scene = kit.builder.scene
        refused = len(steps) < len(asked)
        gap = self._gap(kit, steps, rng) if shape.level == "missing_required" and not refused else None
        level = shape.level if gap else ("complete" if shape.level == "missing_required" else shape.level)
        rendered = self._render(kit, asked, created, rng, level, persona, scene, gap)
        if rendered is None:
            return None  # a value found by one call could only be said by quoting it: a leak
        texts, anchors = rendered
        # a turn's anchors are the values its text states: the one left out for a clarification
        # (or a value only an earlier turn said) is no anchor a paraphrase could keep
        anchors = [
            [a for a in turn if keeps_values(text, [a])] for text, turn in zip(texts, anchors, strict=True)
        ]
        if gap and any(gap[2].lower() in t.lower() for t in texts):
            return None  # the "missing" value is still said somewhere; not a real clarification
        turn_list, confirms = self._turns(kit, asked, texts, gap, created, diff, rng)
        if gap:
            anchors = [*anchors[: gap[3] + 1], [gap[2]], *anchors[gap[3] + 1 :]]
        for c in confirms:  # the yes turn states no value
            anchors.insert(c["turn"] + 1, [])
        offer = self.offerer.offer(domain, rng)
        actor = {"table": kit.builder.namer.person, "id": scene.actor} if scene and scene.actor else None
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
                **({"missing": {"call": gap[0], "param": gap[1]}} if gap else {}),
                **self._policy(domain, asked, confirms),
            },
        )

    @staticmethod
    def _policy(domain: str, asked: list[Step], confirms: list[dict[str, Any]]) -> dict[str, Any]:
        """``policy``: what the domain's written policy made of the task (forbidden, a precondition,
        near a rule's edge, a confirmation turn), and the request it refuses."""
        meta = policy_meta(domain, [m for s in asked for m in s.policy], confirms)
        if meta is None:
            return {}
        refused = next((s for s in asked if s.forbidden), None)
        if refused is not None:
            meta["refused_call"] = {"name": refused.name, "arguments": refused.args}
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

    def _gap(
        self, kit: DomainKit, steps: list[Step], rng: random.Random
    ) -> tuple[int, str, str, int, str] | None:
        """(step, param, surface, turn, what): a value of a turn's first call to leave out.

        Only values whose absence reads naturally: an entity the user would name ("my account",
        asked back as "which account?") or an amount ("put money in it": "how much?")."""
        firsts = []
        for j, s in enumerate(steps):
            if s.role == "ask" and not any(
                steps[i].turn == s.turn and steps[i].role == "ask" for i in range(j)
            ):
                firsts.append(j)
        for j in firsts:
            s = steps[j]
            options = [
                p
                for p in s.spec.params
                if p.required
                and p.name in s.args
                and self._said_by_user(steps, s, p.name)
                and not p.enum
                and not p.is_list
                and ((p.ref and not p.ref.path) or is_money(p))
            ]
            if options:
                p = rng.choice(options)
                ref = s.refs.get(p.name)
                if ref is not None and ref.kind != "id" and ref.phrase:
                    surface = ref.phrase  # "which account?" - "my checking account"
                else:
                    surface = kit.renderer.surface(s.spec, p, s.args[p.name], random.Random(0))
                what = noun(p.ref.table) if p.ref else "amount"
                return j, p.name, surface, s.turn, what
        return None

    @staticmethod
    def _said_by_user(steps: list[Step], s: Step, name: str) -> bool:
        """The user names this value (by id, or naturally with a lookup resolving it), so they can
        leave it out and give it when asked; not a value the conversation found."""
        origin, ref = s.origin[name], s.refs.get(name)
        kind = getattr(ref, "kind", "id")
        if origin.kind == "user":
            return kind in ASKABLE
        resolved = origin.kind == "flow" and steps[origin.source].role == "resolve"
        return resolved and kind == "attribute" and bool(ref.phrase)

    def _render(
        self,
        kit: DomainKit,
        steps: list[Step],
        created: set[str],
        rng: random.Random,
        level: str,
        persona: Persona,
        scene: Any,
        gap: tuple[int, str, str, int, str] | None,
    ) -> tuple[list[str], list[list[str]]] | None:
        """Each turn's words (None if some call's value could only be said by quoting a found id)."""
        r = kit.renderer
        n_turns = steps[-1].turn + 1
        sentences: list[list[str]] = [[] for _ in range(n_turns)]
        anchors: list[list[str]] = [[] for _ in range(n_turns)]
        for j, s in enumerate(steps):
            if s.role in ("resolve", "check"):
                continue  # the agent's own lookup: the user never asks for it
            phrases = self._phrases(kit, s, steps, created, rng, level)
            if phrases is None:
                return None
            if gap and gap[0] == j:
                p = next(q for q in s.spec.params if q.name == gap[1])
                phrases[gap[1]] = r.vague(p)
            text, found = r.sentence(s, phrases, rng, level)
            sentences[s.turn].append(text)
            anchors[s.turn].extend(found)
            anchors[s.turn].extend(str(ref.value) for ref in s.refs.values() if ref.kind == "attribute")
        intro = self._intro(scene) if scene is not None else None
        texts = [
            r.turn(sents, rng, level, persona if t == 0 else None, intro if t == 0 else None)
            for t, sents in enumerate(sentences)
        ]
        if intro:
            anchors[0].extend(str(v) for v in scene.said.values())
        return texts, anchors

    @staticmethod
    def _intro(scene: Any) -> str | None:
        """Who is speaking, when a call takes the actor: their name, and what finds them."""
        if scene.actor is None or not (scene.said or scene.found_at is not None):
            return None
        name = scene.name or "a customer"
        if "email" in scene.said:
            return f"{name} ({scene.said['email']})"
        if "id" in scene.said:
            return f"{name}, number {scene.said['id']}"
        return name

    def _phrases(
        self, kit: DomainKit, s: Step, steps: list[Step], created: set[str], rng: random.Random, level: str
    ) -> dict[str, str] | None:
        """Ready-made words for the step's entity arguments; None when one cannot be said."""
        phrases: dict[str, str] = {}
        for k, ref in s.refs.items():
            if ref.kind in ("attribute", "self") and ref.phrase:
                phrases[k] = ref.phrase
        for k, o in s.origin.items():
            if o.kind != "flow" or o.source is None or k in phrases or k in s.silent:
                continue
            ref = s.refs.get(k)
            if ref is not None and ref.kind == "self":
                continue  # the actor, said as "me" or by name
            asks = [steps[i] for i in range(steps.index(s)) if steps[i].role == "ask"]
            adjacent = bool(asks) and _only_one_shown(asks[-1], s.args[k], self.ids)
            before = _named_before(steps, s, s.args[k])
            phrase = self._flow_phrase(kit, s, k, steps[o.source], created, rng, level, adjacent, before)
            if phrase is False:
                return None
            if phrase is not None:
                phrases[k] = phrase
                if ref is not None:
                    ref.phrase = phrase
        return phrases

    def _flow_phrase(
        self,
        kit: DomainKit,
        step: Step,
        param: str,
        producer: Step,
        created: set[str],
        rng: random.Random,
        level: str,
        adjacent: bool,
        before: str | None,
    ) -> str | None | bool:
        """A referring phrase for a value from an earlier output: None = write the value itself
        (the user read it in an earlier answer), False = it cannot be said without leaking it."""
        value = step.args[param]
        p = next(q for q in step.spec.params if q.name == param)
        earlier = producer.turn < step.turn
        if isinstance(value, list) or p.ref is None or p.ref.path:
            # paths are the user's own words for their files; a found list can only be quoted
            return None if earlier or p.ref is None or p.ref.path else False
        if earlier and rng.random() < (0.5 if level == "minimal" else 0.25):
            return None
        if before is not None:
            return f"that {noun(p.ref.table)}" if adjacent else before
        phrase = kit.renderer.refer(
            value, p.ref.table_name, producer, producer.turn == step.turn, value in created, rng, adjacent
        )
        if phrase is None and value in created:
            phrase = f"the new {noun(p.ref.table)}"
        if phrase is None:
            return None if earlier else False
        return phrase

    def _turns(
        self,
        kit: DomainKit,
        steps: list[Step],
        texts: list[str],
        gap: tuple | None,
        created: set[str],
        diff: list[dict[str, Any]],
        rng: random.Random,
    ) -> tuple[list[Turn], list[dict[str, Any]]]:
        """The turns, and the confirmation splits made (``metadata.policy.confirm``): a turn whose
        calls reach a write a confirmation rule governs stops before it, states the change and asks;
        the user's yes is a turn of its own, and the write and what follows answer it."""
        out: list[Turn] = []
        confirms: list[dict[str, Any]] = []
        given = [s.args for s in steps]
        gated = confirmation_rules(kit.domain)
        for t, text in enumerate(texts):
            refused = next((s for s in steps if s.turn == t and s.forbidden), None)
            mine = [s for s in steps if s.turn == t and not s.forbidden]
            if gap and gap[3] == t:
                what = gap[4]
                out.append(Turn(user=text, calls=[], answer=rng.choice(CLARIFY_QUESTIONS).format(what=what)))
                text = rng.choice(CLARIFY_REPLIES).format(what=what, value=gap[2])
            quoted = self._quoted_later(mine, texts[t + 1 :])
            reported = [self._reported(kit, s, created - self._seen_before(steps, s), diff) for s in mine]
            k = next((i for i, s in enumerate(mine) if s.name in gated), None)
            if k is not None:
                rule, s = gated[mine[k].name], mine[k]
                before = answer(reported[:k], given, set()) if k else ""
                ask = f"Before I go ahead: {describe(s.spec, s.args)}. Shall I proceed?"
                out.append(Turn(user=text, calls=_gold(mine[:k]), answer=f"{before} {ask}".strip()))
                confirms.append(confirm_mark(kit.domain, rule, len(out) - 1))
                mine, reported, text = mine[k:], reported[k:], rng.choice(YES)
            said = answer(reported, given, quoted) if mine else ""
            if refused is not None:
                said = f"{said} {refusal(_forbidding(refused))}".strip()
            out.append(Turn(user=text, calls=_gold(mine), answer=said or "Done."))
        return out, confirms

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
        self, kit: DomainKit, step: Step, created: set[str], diff: list[dict[str, Any]]
    ) -> Reported:
        table = kit.renderer.tables.get(step.spec.returns or "")
        key = self._subject(step)
        new = key is not None and key in created
        changed = frozenset(
            c["column"].removesuffix("_id") for c in diff if c["pk"] == key and c["op"] == "update"
        )
        return Reported(
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
        who = self._intro(kit.builder.scene) if kit.builder.scene is not None else None
        if who:
            text = f"I'm {who}. {text}"
        action = _first_clause(kit.graph.specs[hidden].description)
        clarify = self.offerer.substitute_exists(domain, hidden)
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
