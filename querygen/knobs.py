"""Robustness knobs (paper §3.2 step 4): what the agent is offered, and tasks no tool can serve.

* distractors: 3-8 tools of *other* domains join the offered set (40%), in shuffled order, so the
  agent must tell tools apart; their domains join the task so a call to one still executes;
* enum stripping: enum lists are removed from every offered schema (30%); the value must then be
  read from the description and the user's words;
* irrelevance: a request none of the offered tools can serve (5%) -> an ``abstain`` task;
* missing function: after chain selection one needed write tool is hidden (10% by default; the
  paper gives no rate) -> ``abstain``, or ``clarify`` when another offered tool writes the same
  tables (the agent should ask before substituting it).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from faker import Faker

from querygen.text.phrasing import FOODS, OUT_OF_SCOPE
from servers.kit import Domain, ToolSpec

_CITIES = ("Lisbon", "Osaka", "Nairobi", "Denver", "Tallinn", "Cusco", "Adelaide", "Bergen")
_COUNTRIES = ("Portugal", "Kenya", "Chile", "Mongolia", "Iceland", "Vietnam")
_WORDS = ("penguin", "autumn", "bicycle", "lighthouse", "cactus", "thunderstorm")


@dataclass(frozen=True)
class KnobRates:
    """Per-task probabilities; the defaults are the paper's (missing function: ours)."""

    distractors: float = 0.4
    distractor_min: int = 3
    distractor_max: int = 8
    strip_enums: float = 0.3
    irrelevance: float = 0.05
    missing_function: float = 0.10

    def check(self) -> None:
        for name in ("distractors", "strip_enums", "irrelevance", "missing_function"):
            rate = getattr(self, name)
            if not 0.0 <= rate <= 1.0:
                raise ValueError(f"knob rate {name} must be within 0..1, got {rate}")
        if self.irrelevance + self.missing_function > 1.0:
            raise ValueError("irrelevance + missing_function rates must not exceed 1")
        if not 1 <= self.distractor_min <= self.distractor_max:
            raise ValueError("need 1 <= distractor_min <= distractor_max")


@dataclass
class Offer:
    """The tools a task offers and how they were chosen."""

    schemas: list[dict[str, Any]]
    distractors: list[str] = field(default_factory=list)
    distractor_domains: list[str] = field(default_factory=list)
    enums_stripped: bool = False
    hidden: str | None = None

    def knobs(self) -> dict[str, Any]:
        return {
            "distractors": self.distractors,
            "enums_stripped": self.enums_stripped,
            "hidden_tool": self.hidden,
        }


class ToolOffer:
    """Builds offered tool sets from the task's domain and every other known domain."""

    def __init__(self, domains: Sequence[Domain], rates: KnobRates) -> None:
        self.rates = rates
        self.by_domain = {d.name: d.visible_tools() for d in domains}
        self._tools = {t.qualified_name: t for tools in self.by_domain.values() for t in tools}
        self._schemas: dict[tuple[str, bool], dict[str, Any]] = {}

    def schema(self, tool: ToolSpec, strip: bool) -> dict[str, Any]:
        """OpenAI schema of a tool, built once (tasks share the dict; exports serialise it)."""
        key = (tool.qualified_name, strip)
        if key not in self._schemas:
            self._schemas[key] = tool.openai_schema(strip_enums=strip)
        return self._schemas[key]

    def offer(
        self, domain: str, rng: random.Random, *, hide: str | None = None, distract: bool = True
    ) -> Offer:
        own = [t for t in self.by_domain[domain] if t.qualified_name != hide]
        strip = rng.random() < self.rates.strip_enums
        extra: list[ToolSpec] = []
        if distract and rng.random() < self.rates.distractors:
            pool = [t for d, tools in self.by_domain.items() if d != domain for t in tools]
            if pool:
                k = rng.randint(self.rates.distractor_min, self.rates.distractor_max)
                extra = rng.sample(pool, min(k, len(pool)))
        tools = own + extra
        if extra:
            rng.shuffle(tools)
        return Offer(
            schemas=[self.schema(t, strip) for t in tools],
            distractors=[t.qualified_name for t in extra],
            distractor_domains=sorted({t.domain for t in extra}),
            enums_stripped=strip,
            hidden=hide,
        )

    def refs(self, schemas: list[dict[str, Any]]) -> list[tuple[str, bool] | dict[str, Any]]:
        """Each schema as ``(tool, enums stripped)`` when it is this offer's own, else itself.

        A worker process sends these instead of ~30 schemas per task, and the parent rebuilds
        the list from its shared objects (:meth:`expand`): less to pickle, nothing to compare
        there, and 13K tasks share one copy of each schema."""
        out: list[tuple[str, bool] | dict[str, Any]] = []
        for s in schemas:
            name = s.get("function", {}).get("name", "")
            tool = self._tools.get(name)
            if tool is None:
                out.append(s)
                continue
            strip = not any("enum" in p for p in s["function"]["parameters"].get("properties", {}).values())
            out.append((name, strip) if self.schema(tool, strip) == s else s)
        return out

    def expand(self, refs: list[tuple[str, bool] | dict[str, Any]]) -> list[dict[str, Any]]:
        """The schemas :meth:`refs` stands for, as this offer's shared objects."""
        return [r if isinstance(r, dict) else self.schema(self._tools[r[0]], r[1]) for r in refs]

    def hideable(self, domain: str) -> list[str]:
        """Write tools: hiding one leaves a request no read-only discovery tool can stand in for."""
        return [t.qualified_name for t in self.by_domain[domain] if t.writes]

    def substitute_exists(self, domain: str, hidden: str) -> bool:
        """Does another offered tool write one of the hidden tool's tables?"""
        tools = {t.qualified_name: t for t in self.by_domain[domain]}
        gone = set(tools[hidden].writes)
        return any(gone & set(t.writes) for name, t in tools.items() if name != hidden)


# words that show an offered service covers a topic although it never says the topic's own word
_COVERS = {
    "stock": ("stock", "share", "quote", "price", "instrument", "trading"),
    "flight": ("flight", "airline", "airport", "booking"),
    "weather": ("weather", "forecast"),
    "translate": ("translat",),
}


def out_of_scope(rng: random.Random, fake: Faker, offered: Sequence[dict[str, Any]]) -> str:
    """A request whose topic no offered tool's name or description mentions."""
    blob = " ".join(
        (s["function"]["name"] + " " + s["function"].get("description", "")).lower() for s in offered
    )
    options = [
        text for topic, text in OUT_OF_SCOPE if not any(w in blob for w in _COVERS.get(topic, (topic,)))
    ]
    template = rng.choice(options or [OUT_OF_SCOPE[0][1]])
    cities = rng.sample(_CITIES, 2)
    return template.format(
        city=cities[0],
        city2=cities[1],
        country=rng.choice(_COUNTRIES),
        word=rng.choice(_WORDS),
        phrase=" ".join(fake.words(3)),
        food=rng.choice(FOODS),
        n=rng.randint(3, 250),
        address=f"{rng.randint(2, 99)} {rng.choice(_WORDS)} street",
        company=rng.choice(_CITIES) + "corp",
    )
