"""The user's words for a drafted task: each turn's request, and a value left out to be asked for.

A turn's text is its calls' sentences (:class:`querygen.text.render.Renderer`) in the user's own
terms: an entity named by the attribute the namer chose ("my checking account"), a value an earlier
call found by a referring phrase ("that account", "the new payee"), the speaker introduced when a
call acts for them. A value found by a call of the same turn is never written out: when no phrase
can say it, the draft is dropped. For a clarify task one value of a turn's first call is left
vague (:class:`Gap`), and the user gives it when the assistant asks.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from querygen.plan.ids import IdIndex
from querygen.plan.step import Scene, Step
from querygen.text.phrasing import Persona
from querygen.text.render import Renderer, is_money, noun

# How an entity left out of a request may have been named, to be given when the assistant asks:
# by id, or naturally ("my checking account", a ticker); not a value found in the conversation.
ASKABLE = ("id", "attribute", "name")


@dataclass(frozen=True)
class Gap:
    """The value a clarify task leaves out of a turn's first call, and how the user gives it."""

    call: int  # the step whose argument is left out
    param: str
    surface: str  # the words the user gives when asked ("my checking account", "200")
    turn: int
    what: str  # what the assistant asks for ("account", "amount")


def find_gap(renderer: Renderer, steps: list[Step], rng: random.Random) -> Gap | None:
    """A value of a turn's first call to leave out. Only values whose absence reads naturally: an
    entity the user would name ("my account", asked back as "which account?") or an amount ("put
    money in it": "how much?")."""
    firsts = []
    for j, s in enumerate(steps):
        if s.role == "ask" and not any(steps[i].turn == s.turn and steps[i].role == "ask" for i in range(j)):
            firsts.append(j)
    for j in firsts:
        s = steps[j]
        options = [
            p
            for p in s.spec.params
            if p.required
            and p.name in s.args
            and _said_by_user(steps, s, p.name)
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
                surface = renderer.surface(s.spec, p, s.args[p.name], random.Random(0))
            what = noun(p.ref.table) if p.ref else "amount"
            return Gap(j, p.name, surface, s.turn, what)
    return None


def _said_by_user(steps: list[Step], s: Step, name: str) -> bool:
    """The user names this value (by id, or naturally with a lookup resolving it), so they can
    leave it out and give it when asked; not a value the conversation found."""
    origin, ref = s.origin[name], s.refs.get(name)
    kind = getattr(ref, "kind", "id")
    if origin.kind == "user":
        return kind in ASKABLE
    resolved = origin.kind == "flow" and steps[origin.source].role == "resolve"
    return resolved and kind == "attribute" and bool(ref.phrase)


def intro(scene: Scene) -> str | None:
    """Who is speaking, when a call takes the actor: their name, and what finds them."""
    if scene.actor is None or not (scene.said or scene.found_at is not None):
        return None
    name = scene.name or "a customer"
    if "email" in scene.said:
        return f"{name} ({scene.said['email']})"
    if "phone" in scene.said:
        return f"{name} ({scene.said['phone']})"
    if "date_of_birth" in scene.said:
        return f"{name} (born {scene.said['date_of_birth']})"
    if "id" in scene.said:
        return f"{name}, number {scene.said['id']}"
    return name


@dataclass
class Requests:
    """Writes the user turns of one drafted task: what every phrase of it reads."""

    renderer: Renderer
    ids: IdIndex
    steps: list[Step]  # every call the user asks for or the agent makes, a refused one included
    created: set[str]  # ids the task's writes made
    rng: random.Random
    level: str

    def texts(
        self, persona: Persona, scene: Scene | None, gap: Gap | None
    ) -> tuple[list[str], list[list[str]]] | None:
        """Each turn's words and the values they state (None if some call's value could only be
        said by quoting a found id)."""
        r, rng, level = self.renderer, self.rng, self.level
        n_turns = self.steps[-1].turn + 1
        sentences: list[list[str]] = [[] for _ in range(n_turns)]
        anchors: list[list[str]] = [[] for _ in range(n_turns)]
        for j, s in enumerate(self.steps):
            if s.role in ("resolve", "check"):
                continue  # the agent's own lookup: the user never asks for it
            if r.voice is not None and r.voice.asks(s.spec) is None:
                return None  # a tool the domain gives users no words for (a generic record filter)
            phrases = self._phrases(s)
            if phrases is None:
                return None
            if gap and gap.call == j:
                p = next(q for q in s.spec.params if q.name == gap.param)
                phrases[gap.param] = r.vague(p, s.template)
            text, found = r.sentence(s, phrases, rng, level)
            sentences[s.turn].append(text)
            anchors[s.turn].extend(found)
            anchors[s.turn].extend(str(ref.value) for ref in s.refs.values() if ref.kind == "attribute")
        who = intro(scene) if scene is not None else None
        acts = {s.turn for s in self.steps if s.role == "ask" and s.spec.writes}
        texts = [
            r.turn(sents, rng, level, persona if t == 0 else None, who if t == 0 else None, acts=t in acts)
            for t, sents in enumerate(sentences)
        ]
        if who and scene is not None:
            anchors[0].extend(str(v) for v in scene.said.values())
        return texts, anchors

    def _phrases(self, s: Step) -> dict[str, str] | None:
        """Ready-made words for the step's entity arguments; None when one cannot be said."""
        phrases: dict[str, str] = {}
        voice = self.renderer.voice
        for k, ref in s.refs.items():
            if ref.kind in ("attribute", "self", "listed") and ref.phrase:
                phrases[k] = ref.phrase
            elif ref.kind == "id" and voice is not None and not isinstance(ref.target, list):
                held = ref.phrase or voice.held(self._table(s, k), ref.target)
                if held is None:
                    return None  # an internal id: no person could say it
                phrases[k] = ref.phrase = held
        for k, o in s.origin.items():
            if o.kind != "flow" or o.source is None or k in phrases or k in s.silent:
                continue
            ref = s.refs.get(k)
            if ref is not None and ref.kind == "self":
                continue  # the actor, said as "me" or by name
            phrase = self._flow_phrase(s, k, self.steps[o.source])
            if phrase is False:
                return None
            if phrase is not None:
                phrases[k] = phrase
                if ref is not None:
                    ref.phrase = phrase
        return phrases

    def _flow_phrase(self, step: Step, param: str, producer: Step) -> str | None | bool:
        """A referring phrase for a value from an earlier output: None = write the value itself
        (the user read it in an earlier answer), False = it cannot be said without leaking it."""
        value = step.args[param]
        asks = [self.steps[i] for i in range(self.steps.index(step)) if self.steps[i].role == "ask"]
        adjacent = bool(asks) and _only_one_shown(asks[-1], value, self.ids)
        before = _named_before(self.steps, step, value)
        p = next(q for q in step.spec.params if q.name == param)
        earlier = producer.turn < step.turn
        if isinstance(value, list) or p.ref is None or p.ref.path:
            # paths are the user's own words for their files; a found list can only be quoted
            return None if earlier or p.ref is None or p.ref.path else False
        voice = self.renderer.voice
        held = voice.held(p.ref.table_name, value) if voice is not None else None
        if earlier and held is not None and self.rng.random() < 0.5:
            return held  # the confirmation number the assistant gave them
        if earlier and voice is None and self.rng.random() < (0.5 if self.level == "minimal" else 0.25):
            return None
        if before is not None:
            return f"that {noun(p.ref.table)}" if adjacent else before
        new = value in self.created
        phrase = self.renderer.refer(
            value, p.ref.table_name, producer, producer.turn == step.turn, new, self.rng, adjacent
        )
        if phrase is None and new:
            phrase = f"the new {noun(p.ref.table)}"
        if phrase is None:
            return None if earlier and voice is None else held if held is not None else False
        return phrase

    def _table(self, s: Step, param: str) -> str:
        p = next(q for q in s.spec.params if q.name == param)
        return p.ref.table_name if p.ref is not None else ""


def _named_before(steps: list[Step], step: Step, value: Any) -> str | None:
    """The words an earlier request of this task used for ``value`` (said the same way again)."""
    found = None
    for s in steps[: steps.index(step)]:
        ref = next((r for r in s.refs.values() if r.target == value and r.phrase), None)
        if ref is not None and not ref.phrase.startswith(RELATIVE):
            found = ref.phrase  # "that vehicle" meant the one just before; it is no name to say again
    return found


RELATIVE = ("that ", "the same ", "the new ", "the one ")


def _only_one_shown(step: Step, value: Any, ids: IdIndex) -> bool:
    """``value`` is what the previous request was about: "that account" can only mean it."""
    table = ids.table(value, step.spec.domain)
    shown = step.produced(ids).get(table, []) if table else []
    same = [
        v
        for v in step.args.values()
        if isinstance(v, str) and table and ids.table(v, step.spec.domain) == table
    ]
    if value in step.args.values():
        return same == [value]  # a transfer between two accounts: "that account" is either
    return shown == [value]
