"""The tool dependency graph of a domain, derived from declarations instead of asked of an LLM.

The paper classifies every tool pair with an LLM (explicit, implicit, none). Our tools already say
what they take and give, so the edges follow mechanically and the same declarations always give
the same graph:

* **explicit** A -> B: A returns rows of a table whose ids B takes as a ``Ref`` parameter
  (``list_accounts`` -> ``transfer``);
* **implicit** A -> B: A writes a table B needs without taking its id (item in cart before
  checkout), or A writes a table whose rows B only accepts under a condition (``freeze_account``
  -> ``unfreeze_account``): A can establish B's precondition.

Chains are walks on this graph. Their start and step weights are flattened so every tool is
visited about equally often, otherwise hub tools would fill the dataset and rare ones never appear.
A tool with a precondition (``popd`` needs a pushed directory) starts a chain only where the
starting state meets it; elsewhere an earlier call of the chain has to establish it. A variant's
state that meets one (a root shell for ``chown``) often starts its chains there.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any, Literal

from servers.kit import Domain, ToolSpec

EdgeKind = Literal["explicit", "implicit"]
VARIANT_SHOWS = 0.5  # share of a variant's chains that start at a tool only a state like it allows


@dataclass(frozen=True)
class Edge:
    source: str
    target: str
    kind: EdgeKind
    table: str
    via: str  # "returns->ref", "writes->needs" or "writes->condition"
    params: tuple[str, ...] = ()


def _edges_between(a: ToolSpec, b: ToolSpec) -> list[Edge]:
    out: list[Edge] = []
    if a.returns and a.returns in b.consumes:
        params = tuple(p.name for p in b.params if p.ref and p.ref.table_name == a.returns)
        out.append(Edge(a.qualified_name, b.qualified_name, "explicit", a.returns, "returns->ref", params))
    for table in a.writes:
        if table in b.needs:
            out.append(Edge(a.qualified_name, b.qualified_name, "implicit", table, "writes->needs"))
        elif any(p.ref and p.ref.table_name == table and p.ref.where for p in b.params):
            params = tuple(p.name for p in b.params if p.ref and p.ref.table_name == table and p.ref.where)
            out.append(
                Edge(a.qualified_name, b.qualified_name, "implicit", table, "writes->condition", params)
            )
    return out


class DependencyGraph:
    """Visible tools of one domain and the edges between them."""

    def __init__(self, domain: Domain) -> None:
        self.domain = domain.name
        self.specs: dict[str, ToolSpec] = {t.qualified_name: t for t in domain.visible_tools()}
        self.tools: list[str] = list(self.specs)
        self.edges: list[Edge] = [
            e
            for a in self.specs.values()
            for b in self.specs.values()
            if a is not b
            for e in _edges_between(a, b)
        ]
        self._by_pair: dict[tuple[str, str], list[Edge]] = {}
        for e in self.edges:
            self._by_pair.setdefault((e.source, e.target), []).append(e)
        self.succ: dict[str, list[str]] = {t: [] for t in self.tools}
        self.pred: dict[str, list[str]] = {t: [] for t in self.tools}
        for e in self.edges:
            if e.target not in self.succ[e.source]:
                self.succ[e.source].append(e.target)
                self.pred[e.target].append(e.source)

    def edges_from(self, source: str, target: str) -> list[Edge]:
        return self._by_pair.get((source, target), [])

    def stats(self) -> dict[str, Any]:
        """Counts a researcher checks: size, edge kinds, degrees, isolated tools."""
        kinds = Counter(e.kind for e in self.edges)
        vias = Counter(e.via for e in self.edges)
        n = len(self.tools)
        pairs = sum(len(s) for s in self.succ.values())
        isolated = [t for t in self.tools if not self.succ[t] and not self.pred[t]]
        writes = sum(1 for s in self.specs.values() if s.writes)
        return {
            "domain": self.domain,
            "tools": n,
            "write_tools": writes,
            "read_tools": n - writes,
            "edges": len(self.edges),
            "connected_pairs": pairs,
            "explicit": kinds.get("explicit", 0),
            "implicit": kinds.get("implicit", 0),
            "by_rule": dict(sorted(vias.items())),
            "density": round(pairs / (n * (n - 1)), 4) if n > 1 else 0.0,
            "sources": sorted(t for t in self.tools if not self.pred[t] and self.succ[t]),
            "sinks": sorted(t for t in self.tools if self.pred[t] and not self.succ[t]),
            "isolated": sorted(isolated),
            "max_out_degree": max((len(s) for s in self.succ.values()), default=0),
            "max_in_degree": max((len(p) for p in self.pred.values()), default=0),
        }

    def to_json(self) -> dict[str, Any]:
        nodes = [
            {
                "name": name,
                "writes": list(s.writes),
                "returns": s.returns,
                "consumes": list(s.consumes),
                "needs": list(s.needs),
            }
            for name, s in self.specs.items()
        ]
        edges = [{**asdict(e), "params": list(e.params)} for e in self.edges]
        return {"domain": self.domain, "nodes": nodes, "edges": edges, "stats": self.stats()}

    def to_json_text(self) -> str:
        return json.dumps(self.to_json(), indent=2, sort_keys=False) + "\n"

    def to_dot(self) -> str:
        """Graphviz: write tools are boxes, implicit edges dashed, labels name the table."""
        lines = [f'digraph "{self.domain}" {{', "  rankdir=LR;", '  node [fontname="Helvetica"];']
        for name, s in self.specs.items():
            shape = "box" if s.writes else "ellipse"
            lines.append(f'  "{name}" [shape={shape}, label="{s.name}"];')
        for e in self.edges:
            style = "solid" if e.kind == "explicit" else "dashed"
            lines.append(f'  "{e.source}" -> "{e.target}" [style={style}, label="{e.table}"];')
        lines.append("}")
        return "\n".join(lines) + "\n"


class ChainSampler:
    """Walks of a requested length, with weights flattened towards equal tool coverage."""

    def __init__(
        self,
        graph: DependencyGraph,
        lengths: dict[int, float] | None = None,
        *,
        seed: int = 0,
        rounds: int = 3,
        walks: int = 300,
        roles: Mapping[str, frozenset[str] | None] | None = None,
    ) -> None:
        self.graph = graph
        # who asks for each tool (the domain's language): a chain keeps to one role
        self.roles = {t: r for t, r in (roles or {}).items() if r is not None}
        self.weight: dict[str, float] = {t: 1.0 for t in graph.tools}
        self.linked = [t for t in graph.tools if graph.succ[t] or graph.pred[t]] or graph.tools
        self.conditional = frozenset(t for t in graph.tools if graph.specs[t].preconditions)
        lengths = lengths or {n: 1.0 for n in range(1, 6)}
        sizes, odds = list(lengths), list(lengths.values())
        rng = random.Random(f"flatten:{graph.domain}:{seed}")
        for _ in range(rounds):
            seen: Counter[str] = Counter()
            for _ in range(walks):
                seen.update(self.sample(rng, rng.choices(sizes, odds)[0]))
            mean = sum(seen.values()) / max(len(graph.tools), 1)
            for t in graph.tools:
                self.weight[t] *= min(4.0, max(0.25, mean / max(seen[t], 1)))

    def ready_in(self, conn: Any) -> frozenset[str]:
        """The tools with preconditions that the state on ``conn`` meets."""
        return frozenset(t for t in self.conditional if self.graph.specs[t].ready(conn))

    def _pick(self, rng: random.Random, options: list[str]) -> str:
        return rng.choices(options, weights=[self.weight[t] for t in options])[0]

    def sample(
        self,
        rng: random.Random,
        length: int,
        *,
        tries: int = 4,
        start: str | None = None,
        through: str | None = None,
        lead: bool = False,
        ready: frozenset[str] = frozenset(),
        variant: bool = False,
    ) -> list[str]:
        """A chain of at most ``length`` distinct tools along graph edges (shorter at dead ends).

        ``start`` is the first call; ``through`` is a call the chain must make, reached from the
        tools before it like any other, and with ``lead`` never first (the coverage sweep's tool:
        ``add_reservation_insurance`` right after ``book_reservation``). ``ready``: the tools with preconditions that the starting state
        meets; the others never come first. In a ``variant``'s state, a chain often starts at one
        of them (what the variant makes possible)."""
        best: list[str] = []
        if start is None and ready and variant and rng.random() < VARIANT_SHOWS:
            start = self._pick(rng, sorted(ready))
        unready = self.conditional - ready
        pool = self.graph.tools if length == 1 else self.linked
        starts = [t for t in pool if t not in unready] or pool
        for _ in range(tries):
            chain = [start or through or self._pick(rng, starts)]
            while len(chain) < length:
                fwd = [t for t in self.graph.succ[chain[-1]] if t not in chain and self._same_role(t, chain)]
                # a forced start (the tool a variant's user needs first) stays the first call
                back = (
                    []
                    if start
                    else [
                        t
                        for t in self.graph.pred[chain[0]]
                        if t not in chain and t not in unready and self._same_role(t, chain)
                    ]
                )
                if start and chain == [start] and variant:
                    # a variant's forced start (sign in first): the user then goes on with what
                    # they came for, a walk of its own, not only the tools taking its output
                    fwd = [t for t in starts if t not in chain and self._same_role(t, chain)] or fwd
                if not fwd and not back:
                    break
                setup = chain[0] == through and (lead or through in unready)  # not first
                if fwd and not setup and (not back or rng.random() < 0.75):
                    ahead = sum(self.weight[t] for t in fwd)
                    if ahead < 1.0 and rng.random() >= ahead:
                        break  # only over-visited sinks ahead (a tool every write leads to): stop here
                    chain.append(self._pick(rng, fwd))
                elif rng.random() < sum(self.weight[t] for t in back):
                    chain.insert(0, self._pick(rng, back))
                else:  # the only way back is a hub every chain would start with (authenticate)
                    break
            if len(chain) > len(best):
                best = chain
            if len(best) >= length:
                break
        return best

    def _same_role(self, tool: str, chain: list[str]) -> bool:
        """``tool`` may be asked by the person who asked for every tool of ``chain`` (a customer's
        chain never goes on to pause the restaurant)."""
        mine = self.roles.get(tool)
        if mine is None:
            return True
        for t in chain:
            theirs = self.roles.get(t)
            if theirs is not None:
                mine = mine & theirs
                if not mine:
                    return False
        return True

    def pick_tool(self, rng: random.Random, options: list[str]) -> str:
        """One tool among ``options``, rare ones favoured the same way chains favour them."""
        return self._pick(rng, options)


def roles_of(domain: Domain, graph: DependencyGraph) -> dict[str, frozenset[str] | None]:
    """Who asks for each tool of the graph, as the domain's language declares it (empty while the
    domain declares none: every chain is one user's)."""
    language = domain.language
    if language is None:
        return {}
    return {name: language.roles_of(spec.name) for name, spec in graph.specs.items()}
