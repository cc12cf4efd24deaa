"""The ``prove+paths`` preset pays every right path, and takes nothing else from the paper's terms.

The right alternatives are not hand-picked: for generated tasks of every domain, each lookup the
gold makes only to find what the user named is swapped for another read the generator itself
could have used for that row, replayed to check it really shows the row; each such trajectory
must score the gold's total under ``prove+paths`` (and below it under ``prove``, whose matching
stays the paper's). A shorter write path to the same state (add three to the cart at once instead
of add, then set the quantity) scores the gold's total too. Wrong calls still score below gold.
"""

from __future__ import annotations

import pytest

from querygen.generate import GenConfig, Generator
from querygen.plan.graph import DependencyGraph
from querygen.plan.sampler import Relations
from querygen.text.refer import Resolver, rows_in
from rewards import EnvPool, prepare_task, score
from rewards.build import task_from_calls
from rewards.paths import _shows
from rewards.replay import default_pool
from servers.registry import available, get_domain

PATHS = "prove+paths"


def _calls(pairs) -> list[dict]:
    return [{"name": n, "arguments": a} for n, a in pairs]


def _other_reads(task, resolvers) -> list[tuple[list[dict], str]]:
    """Trajectories of ``task``'s gold with one lookup swapped for another read that shows the row
    the lookup found (the tool of the lookup and of the read used nowhere else in the gold, so the
    paper's alignment by name is not what decides), with the swapped read's tool."""
    gold, roles = task.gold_calls(), task.metadata.get("roles") or []
    if len(roles) != len(gold):
        return []
    domain = task.domains[0]
    resolver, specs = resolvers[domain]
    prepared, out = prepare_task(task), []
    for flow in task.metadata.get("dataflow") or []:
        i, j, param = flow["from"], flow["to"], flow["param"]
        spec = specs.get(gold[j].name)
        p = next((q for q in spec.params if q.name == param), None) if spec else None
        value = gold[j].arguments.get(param)
        if roles[i] != "resolve" or p is None or p.ref is None:
            continue
        row = next((r for r in rows_in(gold[i].result) if r.get("id") == value), None)
        for lk in resolver.lookups(p.ref.table_name, row) if row else []:
            name = f"{domain}_{lk.spec.name}"
            others = {c.name for k, c in enumerate(gold) if k != i}
            if (
                lk.inputs
                or (name, lk.args) == (gold[i].name, gold[i].arguments)
                or {name, gold[i].name} & others
            ):
                continue
            seen = default_pool().replayer(prepared.snapshots).run([(name, lk.args)], prepared.setup)
            if seen.status[0] and _shows(seen.values[0], value):
                calls = _calls((c.name, c.arguments) for c in gold)
                calls[i] = {"name": name, "arguments": lk.args}
                out.append((calls, name))
                break
    return out


@pytest.fixture(scope="module")
def alternatives(snapshot_cache) -> list[tuple[object, list[dict], str]]:
    """(task, a right alternative trajectory, the read swapped in) over every domain."""
    domains = tuple(available())
    tasks = Generator(GenConfig(domains=domains, n=600, seed=3), cache=snapshot_cache).run()[0]
    resolvers = {}
    for d in domains:
        dom = get_domain(d)
        graph = DependencyGraph(dom)
        resolvers[d] = (Resolver(dom, graph.specs, Relations(dom)), graph.specs)
    return [(t, calls, name) for t in tasks for calls, name in _other_reads(t, resolvers)]


def test_another_read_that_found_the_row_scores_the_gold_total(alternatives):
    domains = {t.domains[0] for t, _, _ in alternatives}
    assert len(alternatives) >= 30 and len(domains) >= 10, (len(alternatives), sorted(domains))
    below_under_prove = 0
    for task, calls, name in alternatives:
        gold = _calls((c.name, c.arguments) for c in task.gold_calls())
        best = score(task, gold, PATHS)
        got = score(task, calls, PATHS)
        assert got.total == pytest.approx(best.total), (task.id, name, got.components, got.details["paths"])
        assert got.details["paths"]["lookups_matched"] or got.components["arg"] == 1.0, task.id
        below_under_prove += score(task, calls, "prove").total < score(task, gold, "prove").total - 1e-9
    assert below_under_prove == len(alternatives)  # the paper's matching stays exact


@pytest.fixture(scope="module")
def cart(make_env):
    """A shopping world, a customer and a product to buy (most are limited to 3 an order), and the cart line a first add makes."""
    env = make_env("shopping")
    pool = EnvPool()
    pool.add(env)
    ep = env.open()
    customer = env.invoke(ep, "shopping_list_records", {"table": "customers", "limit": 1})["rows"][0]["id"]
    found = env.invoke(ep, "shopping_search_products", {"query": "tent"})
    product = next(p["id"] for p in rows_in(found) if p.get("stock", 1) >= 3)
    line = env.invoke(ep, "shopping_add_to_cart", {"customer": customer, "product": product})
    return env, pool, customer, product, (line.get("line") or line)["id"]


def test_a_shorter_write_path_to_the_same_state_scores_the_gold_total(cart):
    env, pool, customer, product, line = cart
    add = ("shopping_add_to_cart", {"customer": customer, "product": product})
    gold = [add, ("shopping_update_cart_quantity", {"item": line, "quantity": 3})]
    task = task_from_calls(env, [("three of the tent, please", gold)], task_id="cart4", dependencies=[(0, 1)])
    at_once = [("shopping_add_to_cart", {"customer": customer, "product": product, "quantity": 3})]
    best = score(task, _calls(gold), PATHS, pool=pool)
    got = score(task, _calls(at_once), PATHS, pool=pool)
    assert got.components["outcome"] == 1.0 and got.details["paths"]["writes_credited"] == [1]
    assert got.total == pytest.approx(best.total)
    assert (
        score(task, _calls(at_once), "prove", pool=pool).total
        < score(task, _calls(gold), "prove", pool=pool).total
    )
    # two, not three: another state, so nothing is credited and it scores below the gold
    three = [("shopping_add_to_cart", {"customer": customer, "product": product, "quantity": 2})]
    wrong = score(task, _calls(three), PATHS, pool=pool)
    assert wrong.details["paths"]["writes_credited"] == [] and wrong.total < best.total


def test_the_paper_terms_still_bite_under_the_new_preset(alternatives):
    """A failed call, calls past the budget, a wrong value, a wrong tool: each below the gold."""
    task = next(t for t, _, _ in alternatives if prepare_task(t).writes)
    gold = _calls((c.name, c.arguments) for c in task.gold_calls())
    best = score(task, gold, PATHS).total
    failed = [*gold[:-1], {"name": gold[-1]["name"], "arguments": {}}]
    redundant = [*gold, *[gold[0]] * 6]
    k, v = next(iter(gold[-1]["arguments"].items()))
    wrong_value = [
        *gold[:-1],
        {"name": gold[-1]["name"], "arguments": {**gold[-1]["arguments"], k: f"{v}-x"}},
    ]
    wrong_tool = [*gold[:-1], {"name": task.tools[0]["function"]["name"], "arguments": gold[-1]["arguments"]}]
    for name, calls in [
        ("failed", failed),
        ("redundant", redundant),
        ("value", wrong_value),
        ("tool", wrong_tool),
    ]:
        assert score(task, calls, PATHS).total < best - 1e-9, name
    # verbosity stays monotone: each extra call past the budget costs more
    totals = [score(task, [*gold, *[gold[0]] * k], PATHS).total for k in range(0, 10, 2)]
    assert totals == sorted(totals, reverse=True) and totals[-1] < totals[0]
