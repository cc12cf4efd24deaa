"""Policy judgement in the four policy domains: the reads a rule rests on, an offer instead of a
flat refusal, a user who insists, and every governed write of a turn confirmed.

Each kind is judged per domain through the replayed diff and the policy term of ``prove+policy``:
the gold scores the maximum, and the tempting mistakes score below it (doing what the policy
forbids, making the offered change before the user's yes, giving in to the user who insists,
skipping the read that shows the rule's facts)."""

from __future__ import annotations

from collections import Counter

import pytest

from contract.messages import messages
from contract.task import GoldCall
from querygen.generate import GenConfig, Generator
from rewards import score

DOMAINS = ("airline_service", "telecom_support", "telehealth", "code_host")


def maximum(t) -> float:
    """prove+policy at best: the paper's 1.3, the outcome's 0.5 (the state reached, or the facts
    asked for stated), no rule broken."""
    return 1.8


PER_KIND = 12  # tasks of one kind per domain scored (the cost of the test is the scoring)


@pytest.fixture(scope="module")
def tasks(snapshot_cache):
    gen = Generator(GenConfig(domains=DOMAINS, n=1500, seed=6), cache=snapshot_cache)
    return gen.run(workers=1)[0]


def of(tasks, domain: str, kind: str) -> list:
    return [t for t in tasks if t.domains[0] == domain and t.policy and t.policy["kind"] == kind][:PER_KIND]


def checked(tasks, domain: str) -> list:
    """Tasks of the domain whose gold reads a rule's facts before a governed write it makes."""
    out = []
    for t in tasks:
        roles = t.metadata.get("roles") or []
        gated = t.policy and t.policy["kind"] in ("precondition", "confirmation")
        if t.domains[0] == domain and gated and "check" in roles:
            out.append(t)
    return out[:PER_KIND]


def _refused(t) -> GoldCall:
    call = t.policy["refused_call"]
    return GoldCall(name=call["name"], arguments=call["arguments"])


def _scored(t, changed) -> float:
    return score(t, messages(changed), "prove+policy").total


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_domain_draws_refusals_offers_insisting_users_and_checked_writes(tasks, domain):
    kinds = Counter(t.policy["kind"] for t in tasks if t.domains[0] == domain and t.policy)
    refusing = kinds["forbidden"] + kinds["insisting"]
    assert refusing and kinds["alternative"] and kinds["insisting"] and checked(tasks, domain), kinds


@pytest.mark.parametrize("domain", DOMAINS)
def test_an_offer_is_made_then_done_after_the_yes_and_the_mistakes_score_below(tasks, domain):
    """Explain, offer the compliant change, get a yes, do it: the gold scores the maximum. Doing the
    asked (breaching) call instead, or the offered one before the user said yes, scores below it."""
    offers = of(tasks, domain, "alternative")
    assert offers
    for t in offers:
        gold = score(t, messages(t), "prove+policy")
        assert gold.total == pytest.approx(maximum(t)), (t.id, gold.components)
        mark = next(c for c in t.policy["confirm"] if c["tools"] == [t.policy["offered_call"]["name"]])
        asking, yes = t.turns[mark["turn"]], t.turns[mark["turn"] + 1]
        assert "Shall I go ahead?" in asking.answer and yes.calls[0].name == t.policy["offered_call"]["name"]
        as_asked = t.model_copy(deep=True)
        as_asked.turns[mark["turn"] + 1].calls = [_refused(t)]
        assert _scored(t, as_asked) < gold.total, t.id
        early = t.model_copy(deep=True)
        early.turns[mark["turn"]].calls += early.turns[mark["turn"] + 1].calls
        early.turns[mark["turn"] + 1].calls = []
        r = score(t, messages(early), "prove+policy")
        assert r.total < gold.total and r.components["policy"] == -1.0, t.id


@pytest.mark.parametrize("domain", DOMAINS)
def test_the_gold_holds_the_line_when_the_user_insists(tasks, domain):
    """The user pushes back with a reason the rule ignores; the gold makes no call and says why
    again. Giving in (the refused call in the insisting turn) breaks the rule and scores below."""
    insisting = of(tasks, domain, "insisting")
    assert insisting
    for t in insisting:
        k = t.policy["insist"]["turn"]
        assert k == len(t.turns) - 1 and not t.turns[k].calls
        mark = next(m for m in t.policy["marks"] if m["kind"] == "forbidden")
        assert f"Rule {mark['rule']} of our policy" in t.turns[k].answer
        gold = score(t, messages(t), "prove+policy")
        assert gold.total == pytest.approx(maximum(t)), (t.id, gold.components)
        gives_in = t.model_copy(deep=True)
        gives_in.turns[k].calls = [_refused(t)]
        r = score(t, messages(gives_in), "prove+policy")
        assert r.total < gold.total and r.components["policy"] == -1.0, t.id


@pytest.mark.parametrize("domain", DOMAINS)
def test_skipping_the_read_a_rule_rests_on_scores_below_the_gold(tasks, domain):
    """A governed write (or a refusal) is preceded by the reads its rule declares; an agent that
    acts without looking loses the matched read, whatever the state says."""
    refusing = [t for t in of(tasks, domain, "forbidden") if "check" in t.metadata["roles"]]
    sample = checked(tasks, domain) + refusing  # (a conversation that already read them reads none)
    assert sample
    for t in sample:
        roles = t.metadata["roles"]
        i = roles.index("check")
        gold = score(t, messages(t), "prove+policy")
        assert gold.total == pytest.approx(maximum(t)), (t.id, gold.components)
        blind = t.model_copy(deep=True)
        n = 0
        for turn in blind.turns:  # drop the i-th gold call wherever its turn is
            if n <= i < n + len(turn.calls):
                del turn.calls[i - n]
                break
            n += len(turn.calls)
        assert _scored(t, blind) < gold.total, t.id


def test_a_confirmation_states_every_governed_write_of_its_turn(tasks):
    """What the user says yes to is what is done: every governed write that answers the yes is
    named in the question (two writes: "I'll ... and then ...")."""
    several = 0
    for t in tasks:
        for c in (t.policy or {}).get("confirm", []):
            done = [x for x in t.turns[c["turn"] + 1].calls if x.name in c["tools"]]
            if len(done) > 1:
                several += 1
                assert t.turns[c["turn"]].answer.count(" and then ") >= len(done) - 1, t.id
    assert several, "no turn with two governed writes was drawn"
