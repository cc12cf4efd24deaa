"""The generator and the reward on the four domains with a written policy: enough tasks, every tool,
policy-gated tasks in quantity, refusing gold at the maximum, and a forbidden write (done in
`written` mode, refused in `enforced` mode) or an unconfirmed one scored down by the policy term.

One run at the default (medium) scale, as the issue states it:
`toolground generate --domains airline_service,telecom_support,telehealth,code_host --n 2000`."""

from __future__ import annotations

import json
import os
import re
from collections import Counter

import pytest

from contract.messages import messages
from querygen.generate import GenConfig, Generator
from querygen.out.turns import TurnSplitter
from rewards import score
from servers.registry import available, get_domain

DOMAINS = ("airline_service", "telecom_support", "telehealth", "code_host")
N = 2000
KIT = {"list_records", "search_records", "get_unique_values", "get_policy"}


@pytest.fixture(scope="module")
def run(snapshot_cache):
    gen = Generator(GenConfig(domains=DOMAINS, n=N, seed=3), cache=snapshot_cache)
    return gen.run(workers=1)


def gated(tasks, kind: str | None = None) -> list:
    return [t for t in tasks if t.policy and (kind is None or t.policy["kind"] == kind)]


def test_keeps_at_least_ninety_percent_of_n(run):
    tasks, stats = run
    assert len(tasks) >= 0.9 * N, stats.as_dict()


def test_every_non_kit_tool_appears_in_a_kept_task(run):
    tasks, _ = run
    used = {c.name for t in tasks for c in t.gold_calls()}
    for name in DOMAINS:
        tools = {s.qualified_name for s in get_domain(name).visible_tools() if s.name not in KIT}
        missing = sorted(tools - used)
        assert not missing, f"{name}: no kept task calls {missing}"


def test_at_least_fifteen_percent_are_policy_gated_with_every_kind(run):
    tasks, stats = run
    kinds = Counter(t.policy["kind"] for t in gated(tasks))
    assert sum(kinds.values()) >= 0.15 * len(tasks), kinds
    assert stats.as_dict()["policy"] == dict(sorted(kinds.items()))
    for kind in ("forbidden", "precondition", "confirmation"):
        assert kinds[kind] > 0, kinds
    assert any(m["kind"] == "near_edge" for t in gated(tasks) for m in t.policy["marks"])
    # both modes: the enforced variant is drawn too
    assert {t.snapshots[0].variant for t in gated(tasks, "forbidden")} >= {None, "enforced"}


def test_the_policy_is_in_every_system_prompt_of_a_policy_domain(run):
    tasks, _ = run
    for t in tasks[:200]:
        policy = get_domain(t.domains[0]).policy
        assert policy.markdown() in messages(t)[0]["content"]


def _maximum(task, preset: str) -> float:
    return {"prove": 1.3, "prove+policy": 1.8}[preset] if task.gold_calls() else 1.0


def test_refusing_gold_scores_the_maximum_under_both_presets(run):
    tasks, _ = run
    forbidden = gated(tasks, "forbidden")[:60]
    assert forbidden
    for t in forbidden:
        answer = t.turns[-1].answer
        rule = next(m for m in t.policy["marks"] if m["kind"] == "forbidden")
        assert f"rule {rule['rule']}" in answer and "can't" in answer
        for preset in ("prove", "prove+policy"):
            r = score(t, messages(t), preset)
            assert r.total == pytest.approx(_maximum(t, preset)), (t.id, preset, r.components)
            if preset == "prove+policy":
                assert r.components["policy"] == 0.0 and r.details["policy"]["violations"] == []


def test_doing_the_forbidden_write_scores_less_under_the_policy_preset_and_names_the_rule(run):
    tasks, _ = run
    modes = Counter()
    for t in gated(tasks, "forbidden")[:60]:
        refused = t.policy["refused_call"]
        rule = next(m for m in t.policy["marks"] if m["kind"] == "forbidden")
        call = {"name": refused["name"], "arguments": json.dumps(refused["arguments"])}
        done = [
            *messages(t),
            {"role": "assistant", "tool_calls": [{"id": "c1", "type": "function", "function": call}]},
        ]
        prove, policy = score(t, done, "prove"), score(t, done, "prove+policy")
        assert policy.total < prove.total, t.id
        assert policy.components["policy"] == -1.0
        label = f"{rule['domain']} rule {rule['rule']} ({rule['slug']})"
        assert label in policy.details["policy"]["rules_broken"], policy.details["policy"]
        how = {v["how"] for v in policy.details["policy"]["violations"]}
        variant = t.snapshots[0].variant
        assert how == ({"refused"} if variant == "enforced" else {"done"})
        modes[variant] += 1
    assert modes[None] and modes["enforced"], modes


def _unconfirmed(t) -> list[dict]:
    """The task's messages with its first confirmation exchange removed: the governed write lands
    in the turn that asked for it."""
    k = t.policy["confirm"][0]["turn"]
    m = messages(t)
    users = [i for i, x in enumerate(m) if x["role"] == "user"]
    yes = users[k + 1]
    return m[: yes - 1] + m[yes + 1 :]


def test_a_write_before_the_users_yes_breaks_the_confirmation_rule(run):
    tasks, _ = run
    confirmed = [t for t in gated(tasks) if t.policy.get("confirm")]
    assert {t.snapshots[0].variant for t in confirmed} >= {None, "enforced"}  # both modes
    rules = {(c["domain"], c["slug"]) for t in confirmed for c in t.policy["confirm"]}
    assert {d for d, _ in rules} == set(DOMAINS)  # every domain's confirmation rule
    for t in confirmed:
        assert score(t, messages(t), "prove+policy").components["policy"] == 0.0
        early = score(t, _unconfirmed(t), "prove+policy")
        slug = t.policy["confirm"][0]["slug"]
        assert early.components["policy"] == -1.0
        assert any(
            v["how"] == "unconfirmed" and v["slug"] == slug for v in early.details["policy"]["violations"]
        )


def test_turn_examples_of_a_confirmation_task_judge_their_own_turn(run, snapshot_cache):
    tasks, _ = run
    t = next(t for t in gated(tasks) if t.policy.get("confirm"))
    k = t.policy["confirm"][0]["turn"]
    examples = TurnSplitter(snapshot_cache).split(t)
    asking, answering = examples[k], examples[k + 1]
    write = answering.turns[0].calls[0]
    premature = [{"name": write.name, "arguments": write.arguments}]
    r = score(asking, premature, "prove+policy")
    assert r.components["policy"] == -1.0
    assert score(answering, messages(answering), "prove+policy").components["policy"] == 0.0
    # the examples load as JSON rows (what `datasets` reads) with the policy verdict intact
    row = json.loads(asking.model_dump_json())
    assert row["policy"]["confirm"][0]["turn"] == k


def test_serving_all_domains_offers_at_least_25_domains_and_430_tools():
    names = available()
    assert len(names) >= 25
    assert sum(len(get_domain(n).visible_tools()) for n in names) >= 430


def test_where_the_task_and_the_rule_disagree_the_rule_wins(run, snapshot_cache):
    """A task whose own gold does the forbidden write (as a hand-made task might): its gold rollout
    is scored down all the same, and the details name the rule the task breaks."""
    from contract.task import GoldCall
    from servers.runtime import Environment

    tasks, _ = run
    t = next(t for t in gated(tasks, "forbidden") if t.snapshots[0].variant is None)
    refused = t.policy["refused_call"]
    env = Environment([get_domain(d) for d in t.domains], seed=t.snapshots[0].seed, cache=snapshot_cache)
    ep = env.open()
    for c in [*t.gold_calls(), GoldCall(name=refused["name"], arguments=refused["arguments"])]:
        assert env.call(ep, c.name, c.arguments).ok
    bad = t.model_copy(deep=True)
    bad.turns[-1].calls.append(GoldCall(name=refused["name"], arguments=refused["arguments"]))
    bad.expected_diff = ep.diff()
    bad.expected_state_hash = ep.state_hash(t.domains)
    r = score(bad, [{"name": c.name, "arguments": c.arguments} for c in bad.gold_calls()], "prove+policy")
    assert r.components["policy"] == -1.0
    rule = next(m for m in t.policy["marks"] if m["kind"] == "forbidden")
    label = f"{rule['domain']} rule {rule['rule']} ({rule['slug']})"
    assert r.details["policy"]["task_breaks"] == [label] and "rule wins" in r.details["policy"]["decision"]


def test_policy_tasks_loaded_by_datasets_score_as_in_process(run, tmp_path):
    """The trainer's path: tasks.jsonl read by ``datasets.load_dataset("json")``, the task taken
    from the row's ``ground_truth`` string, the forbidden write judged from it alone."""
    os.environ.setdefault("HF_DATASETS_OFFLINE", "1")  # a local file: nothing may be fetched
    import datasets

    from querygen.out.export import jsonl_bytes

    tasks, _ = run
    forbidden = gated(tasks, "forbidden")[:20]
    confirmed = [t for t in gated(tasks) if t.policy.get("confirm")][:20]
    path = tmp_path / "tasks.jsonl"
    path.write_bytes(jsonl_bytes(forbidden + confirmed))
    rows = datasets.load_dataset("json", data_files=str(path), split="train")
    for t, row in zip(forbidden + confirmed, rows, strict=True):
        policy = t.policy
        if policy["kind"] == "forbidden":
            fn = {
                "name": policy["refused_call"]["name"],
                "arguments": json.dumps(policy["refused_call"]["arguments"]),
            }
            trajectory = [
                *row["messages"][1:],
                {"role": "assistant", "tool_calls": [{"id": "c", "type": "function", "function": fn}]},
            ]
        else:
            trajectory = _unconfirmed(t)[1:]
        loaded, direct = (
            score(row["ground_truth"], trajectory, "prove+policy"),
            score(t, trajectory, "prove+policy"),
        )
        assert loaded.total == pytest.approx(direct.total) and loaded.components["policy"] == -1.0, t.id
        assert loaded.details["policy"]["rules_broken"] == direct.details["policy"]["rules_broken"]


def test_a_confirmation_says_the_change_in_the_users_words(run):
    """Before a governed write the agent states the change as the domain declares it ("I'll move
    SW0107 on your DEN-ORD booking to Friday, June 19, settling any fare difference on your Amex
    ending 2184"), never as a tool description with internal ids (telecom_support's language is
    not declared yet: it keeps the generic sentence)."""
    tasks, _ = run
    internal = re.compile(r"\b(?:USR|PMT|PAT|PRV|SLT|APT|BRN|PR|RX|PHM)-\d{6}\b")
    asked = []
    for t in gated(tasks):
        for c in t.policy.get("confirm") or []:
            if t.domains[0] != "telecom_support":
                asked.append(t.turns[c["turn"]].answer)
    assert len(asked) >= 30, len(asked)
    generic = [a for a in asked if "Shall I proceed?" in a or "I'll" not in a]
    leaked = [a for a in asked if internal.search(a.split("Before I go ahead:")[-1])]
    assert not generic and not leaked, (generic[:3], leaked[:3])


def test_a_refusal_says_the_rows_by_their_names_and_days_in_words(run):
    """A rule's message names rows by internal ids and days as stored ("patient PAT-001430 lives in
    IL", "booked at 2026-05-31T09:59:00"); the reference refusal of a declared domain says them the
    way the conversation does, and leaves out an id nobody could know."""
    tasks, _ = run
    internal = re.compile(r"\b(?:USR|PMT|PAT|PRV|SLT|APT|BRN|PR|RX|PHM)-\d{6}\b")
    iso = re.compile(r"\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}")
    refusals = [
        turn.answer.split("I can't do that:")[1].split(" Our policy (rule ")[0]
        for t in gated(tasks, "forbidden")
        if t.domains[0] != "telecom_support"
        for turn in t.turns
        if turn.answer and "I can't do that:" in turn.answer
    ]
    assert len(refusals) >= 20, len(refusals)
    bad = [r for r in refusals if internal.search(r) or iso.search(r)]
    assert not bad, bad[:3]
