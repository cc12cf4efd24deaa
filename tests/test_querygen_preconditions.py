"""Tools whose arguments must relate to each other, or that need a state no argument names.

``write_review`` takes a product *this* customer received, ``add_project_member`` a user who is
not yet in *this* project: a Ref condition names the earlier parameter (``:customer``) and every
reader of conditions binds it to the value the call already holds. ``popd`` needs a pushed
directory and ``chown`` a root shell: a declared precondition keeps such a tool from starting a
chain where the state does not meet it, and a variant whose state does often starts with it.
Each tool below once never reached a kept task; forced into a chain, it now makes one that every
gate accepts.
"""

from __future__ import annotations

import random
from collections import Counter
from unittest import mock

import pytest
from sqlalchemy import ForeignKey
from sqlalchemy.orm import Mapped, mapped_column

from querygen.compose import Shape
from querygen.generate import GenConfig, Generator
from querygen.plan.graph import ChainSampler, DependencyGraph
from querygen.plan.near_miss import NO_VALUE
from querygen.plan.step import Draft
from servers.kit import Db, Domain, Ref
from servers.kit.types import bind, bound_names
from servers.registry import get_domain

DOMAINS = ("shopping", "issue_tracker", "filesystem", "social_media", "travel_booking")


@pytest.fixture(scope="module")
def gen(snapshot_cache):
    return Generator(GenConfig(domains=DOMAINS, n=10, seed=0, scale="small"), cache=snapshot_cache)


def _kept(gen, domain: str, chain: list[str], target: str, *, tries: int = 12, turns: int = 1, lane=None):
    """The first task (over ``tries`` seeds) made from exactly ``chain`` that calls ``target`` and
    passes the wording check and every gate, or None."""
    lane = lane or gen._base
    kit = gen.kits[domain]
    names = [f"{domain}_{t}" for t in chain]
    for k in range(tries):
        rng = random.Random(f"forced:{target}:{k}")
        forced = mock.patch.object(kit.chains, "sample", lambda *a, **kw: list(names))
        with forced, lane.sandbox.trial([domain]) as ep:
            task = lane.composer.tool_task(ep, domain, Shape("complete", len(names), turns), rng)
        if task is None or f"{domain}_{target}" not in {c.name for c in task.gold_calls()}:
            continue
        if not gen._misworded(task) and lane.validator.check(task, rng) is None:
            return task
    return None


def _calls(task, name: str):
    return [c for c in task.gold_calls() if c.name == name]


# -- the kit: conditions that name an earlier parameter, preconditions ---------------------------


def test_bind_writes_literals_and_leaves_quoted_text_alone():
    sql = "customer_id = :customer AND note != 'a:customer' AND n > :n AND flag = :on"
    assert bound_names(sql) == ("customer", "n", "on")
    assert bind(sql, {"customer": "O'Neil", "n": 3, "on": True}) == (
        "customer_id = 'O''Neil' AND note != 'a:customer' AND n > 3 AND flag = 1"
    )
    assert bind("status = 'open'", {}) == "status = 'open'"
    with pytest.raises(KeyError):
        bind("id = :missing", {})


kitdemo = Domain("bindingdemo", "Owners and their pets.")


class Owner(kitdemo.Table, prefix="OWN"):
    __tablename__ = "owners"
    id: Mapped[str] = mapped_column(primary_key=True)
    name: Mapped[str]


class Pet(kitdemo.Table, prefix="PET"):
    __tablename__ = "pets"
    id: Mapped[str] = mapped_column(primary_key=True)
    owner_id: Mapped[str] = mapped_column(ForeignKey("owners.id"))


def test_a_condition_may_name_only_an_earlier_required_id_parameter():
    @kitdemo.tool(says=["walk {pet} of {owner}"])
    def walk(db: Db, owner: Ref[Owner], pet: Ref[Pet, "owner_id = :owner"]) -> dict:
        """Walk a pet of its owner."""
        return {}

    spec = kitdemo.tools["walk"]
    assert spec.params[1].ref.binds == ("owner",)
    assert spec.params[1].ref.condition({"owner": "OWN-000001"}) == "owner_id = 'OWN-000001'"

    def later(db: Db, pet: Ref[Pet, "owner_id = :owner"], owner: Ref[Owner]) -> dict:
        """Named before it is declared."""
        return {}

    def optional(db: Db, owner: Ref[Owner] | None = None, pet: Ref[Pet, "owner_id = :owner"] = "") -> dict:
        """Named but maybe absent."""
        return {}

    def unknown(db: Db, pet: Ref[Pet, "owner_id = :nobody"]) -> dict:
        """Names no parameter."""
        return {}

    for fn in (later, optional, unknown):
        with pytest.raises(TypeError, match="names :"):
            kitdemo.tool(says=["x"], name=fn.__name__)(fn)


def test_needs_with_a_condition_is_a_precondition():
    @kitdemo.tool(needs={Pet: "owner_id IS NOT NULL"}, says=["feed everyone"])
    def feed(db: Db) -> dict:
        """Feed every pet."""
        return {}

    spec = kitdemo.tools["feed"]
    assert spec.needs == ("pets",) and spec.preconditions == (("pets", "owner_id IS NOT NULL"),)
    with pytest.raises(TypeError, match="precondition"):

        @kitdemo.tool(needs={Pet: "owner_id = :owner"}, says=["x"])
        def bad(db: Db, owner: Ref[Owner]) -> dict:
            """A precondition cannot name parameters."""
            return {}


def test_popd_and_chown_declare_what_they_need(small_fs):
    tools = get_domain("filesystem").tools
    assert not tools["popd"].ready(small_fs)  # the seeded shell has pushed nothing
    assert not tools["chown"].ready(small_fs)  # nor is it root
    assert tools["pwd"].ready(small_fs)


@pytest.fixture(scope="module")
def small_fs(snapshot_cache):
    conn = get_domain("filesystem").snapshot(0, "small", snapshot_cache).connect()
    yield conn
    conn.close()


# -- chains, the sampler and the near-miss control ----------------------------------------------


def test_a_tool_with_an_unmet_precondition_never_starts_a_chain():
    graph = DependencyGraph(get_domain("filesystem"))
    chains = ChainSampler(graph, seed=0)
    assert {"filesystem_popd", "filesystem_chown"} <= chains.conditional
    rng = random.Random(0)
    firsts = {chains.sample(rng, rng.choice([1, 2, 3]))[0] for _ in range(3000)}
    assert not firsts & chains.conditional
    ready = frozenset({"filesystem_popd"})
    firsts = {chains.sample(rng, 1, ready=ready)[0] for _ in range(3000)}
    assert "filesystem_popd" in firsts and "filesystem_chown" not in firsts


def test_the_sampler_picks_the_product_this_customer_received(gen):
    """Every drafted review names a product its customer received and has not reviewed yet."""
    builder = gen.kits["shopping"].builder
    spec = builder.graph.specs["shopping_write_review"]
    conn = gen.probe.fingerprint("shopping").conn
    seen = set()
    for k in range(20):
        draft = Draft(gen.sandbox.episode, random.Random(k), "complete", builder.namer.scene(), conn=conn)
        step = builder.drafter.draft(draft, spec, 0, 0, None)
        assert step is not None
        customer, product = step.args["customer"], step.args["product"]
        received = conn.execute(
            "SELECT count(*) FROM order_items i JOIN orders o ON o.id = i.order_id "
            "WHERE o.customer_id = ? AND i.product_id = ? AND o.status = 'delivered'",
            (customer, product),
        ).fetchone()[0]
        reviewed = conn.execute(
            "SELECT count(*) FROM reviews WHERE customer_id = ? AND product_id = ?", (customer, product)
        ).fetchone()[0]
        assert received and not reviewed, (customer, product)
        seen.add(customer)
    assert len(seen) > 5


def test_the_sampler_picks_a_user_who_is_not_yet_a_member(gen):
    builder = gen.kits["issue_tracker"].builder
    spec = builder.graph.specs["issue_tracker_add_project_member"]
    conn = gen.probe.fingerprint("issue_tracker").conn
    for k in range(20):
        draft = Draft(gen.sandbox.episode, random.Random(k), "complete", builder.namer.scene(), conn=conn)
        step = builder.drafter.draft(draft, spec, 0, 0, None)
        assert step is not None
        member = conn.execute(
            "SELECT 1 FROM project_members WHERE project_id = ? AND user_id = ?",
            (step.args["project"], step.args["user"]),
        ).fetchone()
        assert member is None, step.args


def test_near_miss_alternatives_keep_the_relation(gen):
    """The near-miss control swaps the product for another one *this* customer may review."""
    conn = gen.probe.fingerprint("shopping").conn
    customer, product, others = conn.execute(
        "SELECT o.customer_id, min(i.product_id), count(DISTINCT i.product_id) FROM orders o "
        "JOIN order_items i ON i.order_id = o.id WHERE o.status = 'delivered' AND NOT EXISTS "
        "(SELECT 1 FROM reviews r WHERE r.customer_id = o.customer_id AND r.product_id = i.product_id) "
        "GROUP BY o.customer_id HAVING count(DISTINCT i.product_id) > 1 ORDER BY o.customer_id LIMIT 1"
    ).fetchone()
    assert others > 1
    args = {"customer": customer, "product": product, "rating": 5, "title": "Great value"}
    for k in range(10):
        other = gen.validator._alternative(None, "shopping_write_review", "product", args, random.Random(k))
        assert other is not NO_VALUE and other != product
        ok = conn.execute(
            "SELECT count(*) FROM order_items i JOIN orders o ON o.id = i.order_id "
            "WHERE o.customer_id = ? AND i.product_id = ? AND o.status = 'delivered'",
            (customer, other),
        ).fetchone()[0]
        assert ok, other


def test_a_later_turn_quotes_only_what_an_answer_stated(gen):
    """book_flight after search_flights (in an earlier turn) books a shown option: the user names it
    by what the assistant's answer said ("the TW518 flight leaving ..."). Every flight number a
    later turn says was in an earlier answer, no answer is patched with "For reference: ...", and
    drafts that could only quote something unsaid are dropped as "planted" instead."""
    domain, lane = "travel_booking", gen._base
    kit = gen.kits[domain]
    names = [f"{domain}_authenticate", f"{domain}_search_flights", f"{domain}_book_flight"]
    kept, reasons = 0, Counter()
    for k in range(40):
        rng = random.Random(f"forced:book_flight:{k}")
        forced = mock.patch.object(kit.chains, "sample", lambda *a, **kw: list(names))
        with forced, lane.sandbox.trial([domain]) as ep:
            task = lane.composer.tool_task(ep, domain, Shape("complete", 3, 2), rng)
        if task is None:
            reasons[lane.composer.dropped or "sampling"] += 1
            continue
        assert not any("For reference" in t.answer for t in task.turns)
        booked = [c for c in task.gold_calls() if c.name == f"{domain}_book_flight"]
        if not booked:
            continue
        kept += 1
        shown = " ".join(t.answer for t in task.turns)
        for option in (c.result for c in task.gold_calls() if c.name == f"{domain}_search_flights"):
            for o in option["options"]:
                if o["flight_dates"] == booked[0].arguments["flight_dates"]:
                    assert all(f in shown for f in o["flights"]), (task.id, o["flights"])
    assert kept > 0, reasons


# -- forced into a chain, each tool makes a task every gate keeps --------------------------------


@pytest.mark.parametrize(
    ("domain", "chain", "target"),
    [
        ("shopping", ["write_review"], "write_review"),
        ("shopping", ["find_customer_by_email", "write_review"], "write_review"),
        ("shopping", ["search_products", "add_to_cart"], "add_to_cart"),
        ("shopping", ["write_review", "add_to_cart"], "add_to_cart"),
        ("issue_tracker", ["add_project_member"], "add_project_member"),
        ("issue_tracker", ["get_project", "add_project_member"], "add_project_member"),
        ("issue_tracker", ["remove_project_member"], "remove_project_member"),
        ("social_media", ["unblock_account"], "unblock_account"),
        ("social_media", ["unblock_account", "follow_account"], "unblock_account"),
        ("filesystem", ["pushd", "popd"], "popd"),
    ],
)
def test_forced_chain_makes_a_kept_task(gen, domain, chain, target):
    assert _kept(gen, domain, chain, target) is not None


def test_lifting_a_block_leads_on_to_what_it_allows():
    """unblock_account names the account it unblocked, so a chain can go on to follow it."""
    graph = DependencyGraph(get_domain("social_media"))
    assert "social_media_follow_account" in graph.succ["social_media_unblock_account"]


def test_popd_alone_is_cut_where_nothing_was_pushed(gen):
    kit = gen.kits["filesystem"]
    with gen.sandbox.trial(["filesystem"]) as ep:
        steps = kit.builder.build(ep, ["filesystem_popd"], [0], random.Random(0), "complete")
    assert steps == []


def test_variants_start_with_what_their_state_allows(gen):
    """In a root shell chown can run, in a shell with a pushed directory popd can."""
    root = gen.variant_lane("filesystem", "root_shell")
    assert root.composer.ready("filesystem") == {"filesystem_chown"}
    assert gen._base.composer.ready("filesystem") == frozenset()
    assert _kept(gen, "filesystem", ["chown"], "chown", lane=root) is not None
    pushed = gen.variant_lane("filesystem", "in_project")
    assert pushed.composer.ready("filesystem") == {"filesystem_popd"}
    assert _kept(gen, "filesystem", ["popd"], "popd", lane=pushed) is not None


# -- the generator on its own ------------------------------------------------------------------

TARGETS = {
    "shopping": ("write_review", "add_to_cart"),
    "issue_tracker": ("add_project_member", "remove_project_member"),
    "filesystem": ("popd", "chown"),
    "social_media": ("unblock_account",),
    "travel_booking": ("book_flight",),
}


@pytest.mark.parametrize("domain", sorted(TARGETS))
def test_the_generator_keeps_tasks_calling_them(domain, snapshot_cache):
    n = 150
    tasks, stats = Generator(
        GenConfig(domains=(domain,), n=n, seed=0, scale="small"), cache=snapshot_cache
    ).run()
    assert len(tasks) == n, stats.as_dict()
    used = {c.name for t in tasks for c in t.gold_calls()}
    assert not {f"{domain}_{t}" for t in TARGETS[domain]} - used
