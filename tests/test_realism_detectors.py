"""Realism detectors: each one finds its defect in a purpose-built bad task and stays quiet on the
good version of the same task; all of them run on real generated tasks and on old metadata."""

from __future__ import annotations

from collections import Counter

import pytest

from contract.task import GoldCall, Task, Turn
from querygen.generate import GenConfig, Generator
from querygen.text.realism import (
    ambiguous,
    coherence,
    invalid_values,
    leaks,
    measure,
    natural_share,
    reference_kinds,
    specs_for,
    unseen_ids,
)
from querygen.text.realism_text import garble_rules, garbled, mentions

DOMAINS = ["banking", "shopping", "issue_tracker"]


@pytest.fixture(scope="module")
def specs():
    return specs_for(DOMAINS)


def make(turns: list[Turn], domains: list[str] | None = None, **metadata) -> Task:
    return Task(id="tg-test", domains=domains or DOMAINS, turns=turns, metadata=metadata)


def call(tool: str, result=None, /, **arguments) -> GoldCall:
    return GoldCall(name=tool, arguments=arguments, result=result)


# -- leaks ----------------------------------------------------------------------------------------
CUSTOMER = {"id": "CUS-000124", "name": "James Key", "email": "james.key124@mail.test"}


def _cart_task(second: str) -> Task:
    text = (
        f"Find the customer with email james.key124@mail.test. Next, clear everything out of {second} cart."
    )
    calls = [
        call("shopping_find_customer_by_email", CUSTOMER, email="james.key124@mail.test"),
        call("shopping_empty_cart", {"customer": "CUS-000124", "removed": 2}, customer="CUS-000124"),
    ]
    return make(
        [Turn(user=text, calls=calls)], ["shopping"], dataflow=[{"from": 0, "to": 1, "param": "customer"}]
    )


def test_a_value_the_user_already_said_is_a_leak():
    found = leaks(_cart_task("CUS-000124's"))
    assert found == [{"from": 0, "to": 1, "param": "customer", "value": "CUS-000124", "turn": 0}]


def test_a_value_the_agent_must_discover_is_no_leak():
    assert leaks(_cart_task("that customer's")) == []


def test_leaks_compare_whole_tokens_case_insensitively():
    assert leaks(_cart_task("CUS-0001240's")) == []  # a longer id is another id
    assert leaks(_cart_task("cus-000124's")) != []
    assert not mentions("ACC-00012 and ACC-0001-b", "ACC-0001")
    assert mentions("pay from (acc-0001).", "ACC-0001")


def test_a_leak_in_a_later_turn_is_judged_by_what_was_said_up_to_the_discovering_turn():
    first = Turn(
        user="Find the customer with email james.key124@mail.test.", calls=[_cart_task("x").turns[0].calls[0]]
    )
    second = Turn(user="Now empty CUS-000124's cart.", calls=[_cart_task("x").turns[0].calls[1]])
    task = make([first, second], ["shopping"], dataflow=[{"from": 0, "to": 1, "param": "customer"}])
    assert leaks(task) == []  # said only after the lookup: the user may have learnt it from the answer


def test_list_arguments_are_checked_element_by_element():
    t = make(
        [
            Turn(
                user="Which tags exist? Then tag ISS-000001 with TAG-000002 and TAG-000003.",
                calls=[
                    call("x_list_tags", {"tags": ["TAG-000002", "TAG-000003"]}),
                    call("x_tag", None, tags=["TAG-000002", "TAG-000003"]),
                ],
            )
        ],
        dataflow=[{"from": 0, "to": 1, "param": "tags"}],
    )
    assert [f["value"] for f in leaks(t)] == ["TAG-000002", "TAG-000003"]


# -- unseen ids -----------------------------------------------------------------------------------
SPRINT = {"id": "SPR-000148", "project_id": "PRJ-000007", "status": "planned", "name": "Tundra Design System"}


def _sprint_task(answer: str) -> Task:
    create = call("issue_tracker_create_sprint", SPRINT, project="PRJ-000007", name="Tundra Design System")
    get = call("issue_tracker_get_sprint", SPRINT, sprint="SPR-000148")
    return make(
        [
            Turn(
                user="Plan a new sprint 'Tundra Design System' in project TUNDE.",
                calls=[create],
                answer=answer,
            ),
            Turn(user="How is sprint SPR-000148 going?", calls=[get], answer="It is planned."),
        ],
        ["issue_tracker"],
    )


def test_an_id_only_a_tool_result_held_is_unseen():
    task = _sprint_task("Done. Here is what I found: planned; TUNDE; Tundra Design System.")
    assert unseen_ids(task) == [{"turn": 1, "id": "SPR-000148"}]


def test_an_id_the_answer_showed_is_seen():
    assert unseen_ids(_sprint_task("Done: sprint SPR-000148 is planned.")) == []


def test_a_name_reference_counts_as_an_id_the_user_must_have_seen():
    quote = {"symbol": "HUGH", "price": 12.5}
    task = make(
        [
            Turn(
                user="Which stock moved most today?",
                calls=[call("trading_top_movers", [quote])],
                answer="Prices moved a lot.",
            ),
            Turn(user="Buy 3 HUGH.", calls=[call("trading_buy", {}, symbol="HUGH", qty=3)]),
        ],
        ["trading"],
        references=[{"call": 1, "param": "symbol", "target": "HUGH", "kind": "name", "text": "HUGH"}],
    )
    assert unseen_ids(task) == [{"turn": 1, "id": "HUGH"}]


# -- ambiguous references -------------------------------------------------------------------------
ACCOUNTS = {
    "customer": "CUS-000001",
    "accounts": [
        {"id": "ACC-000001", "kind": "checking", "nickname": "Main"},
        {"id": "ACC-000002", "kind": "checking", "nickname": "Bills"},
        {"id": "ACC-000003", "kind": "savings", "nickname": "Holiday fund"},
    ],
}


def _transfer_task(source: dict, target: dict) -> Task:
    text = "Please move $40 from my checking account to my savings account."
    calls = [
        call("banking_list_accounts", ACCOUNTS, customer="CUS-000001"),
        call(
            "banking_transfer",
            {"id": "TRF-000009"},
            source=source["target"],
            target=target["target"],
            amount=40.0,
        ),
    ]
    refs = [
        {"call": 0, "param": "customer", "target": "CUS-000001", "kind": "self", "text": "my"},
        {"call": 1, "param": "source", "kind": "attribute", "resolver": 0, "column": "kind", **source},
        {"call": 1, "param": "target", "kind": "attribute", "resolver": 0, "column": "kind", **target},
    ]
    return make([Turn(user=text, calls=calls)], ["banking"], references=refs, info_level="complete")


def test_my_checking_account_is_ambiguous_when_there_are_two():
    task = _transfer_task(
        {"target": "ACC-000001", "value": "checking", "text": "my checking account"},
        {"target": "ACC-000003", "value": "Savings", "text": "my savings account"},
    )
    (found,) = ambiguous(task)
    assert found["param"] == "source" and "2 rows" in found["reasons"][0]


def test_a_reference_to_the_wrong_row_or_to_a_value_never_said_is_ambiguous():
    task = _transfer_task(
        {"target": "ACC-000002", "column": "nickname", "value": "Main", "text": "main"},
        {"target": "ACC-000003", "column": "nickname", "value": "Holiday fund", "text": "my savings"},
    )
    source, target = ambiguous(task)
    assert "is ACC-000001, not ACC-000002" in source["reasons"][0]
    assert target["reasons"] == ["the user never says 'Holiday fund'"]


def test_a_unique_said_attribute_is_not_ambiguous_and_numbers_compare_as_numbers():
    rows = {"rows": [{"id": "PRD-000001", "stars": 4}, {"id": "PRD-000002", "stars": 5}]}
    task = make(
        [
            Turn(
                user="Show the product rated 5.",
                calls=[call("x_list", rows), call("x_get", {}, product="PRD-000002")],
            )
        ],
        references=[
            {
                "call": 1,
                "param": "product",
                "target": "PRD-000002",
                "kind": "attribute",
                "resolver": 0,
                "column": "stars",
                "value": 5.0,
            }
        ],
    )
    assert ambiguous(task) == []


# -- garbled sentences ----------------------------------------------------------------------------
def _said(specs, text: str) -> list[dict]:
    return garbled(make([Turn(user=text)]), specs)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        (
            "I can't replace an issue's labels: at most 6, each letters, digits and dashes (stored lowercase) "
            "directly with the tools I have",
            "tool description",
        ),
        ("Put some money dollars in account ACC-000436", "some money"),
        ("Create a project the name with key MOBILE", "placeholder: the name with"),
        ("What network values are there among cards.", "values are there among"),
        ("How many the product whose name is Kestrel Premium Green Tea are in stock?", "How many the"),
        ("Send the the money to ACC-000001.", "doubled word"),
        ("Send it to to ACC-000001.", "doubled word"),
        ("Show a the card.", "article before article"),
        ("Block the my card.", "article before article"),
        ("Open an account for CUS-000001 .", "space before punctuation"),
        ("Show account ACC-000001 , please.", "space before punctuation"),
        ("Show the account () now.", "empty parenthesis"),
        ("Deposit {amount} into ACC-000001.", "brace"),
        ("Set the memo to None.", "literal"),
        ("The nickname is null.", "literal"),
        ("Amount: N/A.", "literal"),
        ("Please use <account_id> here.", "markup"),
        ("Call banking_transfer for me.", "tool name: banking_transfer"),
        ("Run list_accounts for CUS-000001.", "tool name: list_accounts"),
        (
            "Save a new payee Julie Thompson, the account number at Union Trust.",
            "placeholder: the account number at",
        ),
    ],
)
def test_garbled_sentences_are_found(specs, text, reason):
    (found,) = _said(specs, text)
    assert any(reason in r for r in found["reasons"]), found
    assert found["turn"] == 0 and found["role"] == "user"


def test_a_parameter_description_and_its_first_clause_are_found(specs):
    desc = next(p.description for p in specs["issue_tracker_set_labels"].params if p.name == "labels")
    clause = desc.split(";")[0]
    assert len(clause.split()) >= 4
    for text in (f"Set labels on ISS-000001: {desc}", f"Give ISS-000001 {clause.lower()} bug, ui."):
        (found,) = _said(specs, text)
        assert any(r.startswith("parameter description") for r in found["reasons"])


@pytest.mark.parametrize(
    "text",
    [
        "Please move $40 from my checking account to my savings account.",
        "Which orders did I place since May 3?",
        "Find the customer with email james.key124@mail.test.",
        "None of my cards work since Monday, can you check them?",
        "I can't remove a saved payee directly with the tools I have.",
        "Resolve .ssh to an absolute path, then show ~/notes.txt.",
        "Pay $0.50 to PAY-000001 (my landlord) today.",
        "Is there a payee called Anna at First National?",
    ],
)
def test_clean_sentences_are_not_flagged(specs, text):
    assert _said(specs, text) == []


def test_garbled_reports_the_sentence_and_reads_answers_too(specs):
    task = make(
        [Turn(user="Show ACC-000001. Then send it to to ACC-000002.", answer="Done . It went through.")]
    )
    found = garbled(task, specs)
    assert [(f["role"], f["sentence"]) for f in found] == [
        ("user", "Then send it to to ACC-000002."),
        ("assistant", "Done . It went through."),
    ]


def test_only_the_task_domains_tools_count(specs):
    rules = garble_rules(specs, ["banking"])
    assert "banking_transfer" in rules.tool_names and "issue_tracker_set_labels" not in rules.tool_names
    assert garbled(make([Turn(user="Call set_labels now.")], ["banking"]), specs, rules) == []


# -- invalid values -------------------------------------------------------------------------------
def test_values_outside_the_schema_or_the_calendar_are_invalid(specs):
    calls = [
        call("shopping_list_orders", {}, customer="CUS-000001", placed_since="2309-35-65"),
        call("shopping_list_orders", {}, customer="CUS-000001", status="lost"),
        call("shopping_list_orders", {}, customer="CUS-000001", limit=500),
        call(
            "banking_transfer",
            {},
            source="ACC-000001",
            target="ACC-000002",
            amount=5.0,
            memo="rent 2026-02-30",
        ),
        call("banking_transfer", {}, source="ACC-000001", amount=5.0, fee=1),
    ]
    found = invalid_values(make([Turn(user="x", calls=calls)]), specs)
    by_call = {(f["call"], f["param"]): f["errors"] for f in found}
    assert by_call[(0, "placed_since")] == ["2309-35-65 is not a real date"]
    assert "is not one of" in by_call[(1, "status")][0]
    assert "greater than the maximum" in by_call[(2, "limit")][0]
    assert by_call[(3, "memo")] == ["2026-02-30 is not a real date"]
    assert by_call[(4, "target")] == ["missing required argument"]
    assert by_call[(4, "fee")] == ["not a parameter of the tool"]
    assert len(found) == 6


def test_valid_values_and_unknown_tools_give_nothing(specs):
    calls = [
        call(
            "shopping_list_orders",
            {},
            customer="CUS-000001",
            status="shipped",
            placed_since="2026-05-03",
            limit=5,
        ),
        call("atlantis_dive", {}, depth=-5),
    ]
    assert invalid_values(make([Turn(user="x", calls=calls)]), specs) == []


# -- coherence ------------------------------------------------------------------------------------
def test_two_unrelated_customers_are_incoherent():
    calls = [
        call("banking_get_customer", {"id": "CUS-000001", "name": "A"}, customer="CUS-000001"),
        call("banking_get_customer", {"id": "CUS-000002", "name": "B"}, customer="CUS-000002"),
    ]
    assert coherence(make([Turn(user="x", calls=calls)])) == (0, 1)


def test_a_call_on_an_earlier_result_or_on_the_actor_is_coherent():
    calls = [
        call("banking_find_customer_by_email", CUSTOMER, email="james.key124@mail.test"),
        call("banking_list_accounts", ACCOUNTS, customer="CUS-000124"),
        call("banking_get_customer", {"id": "CUS-000777"}, customer="CUS-000777"),
        call("banking_list_customers", {"rows": []}),
    ]
    assert coherence(make([Turn(user="x", calls=calls)])) == (2, 3)
    assert coherence(
        make([Turn(user="x", calls=calls)], actor={"table": "customers", "id": "CUS-000777"})
    ) == (3, 3)


def test_recorded_references_decide_the_entity_values():
    calls = [
        call("banking_get_customer", CUSTOMER, customer="CUS-000124"),
        call("banking_deposit", {}, account="ACC-000009", amount=5.0),
    ]
    refs = [{"call": 1, "param": "account", "target": "CUS-000124", "kind": "flow"}]
    assert coherence(make([Turn(user="x", calls=calls)], references=refs)) == (1, 1)
    assert coherence(make([Turn(user="x", calls=calls)])) == (0, 1)  # no record: the ids in the arguments
    assert coherence(make([Turn(user="x", calls=calls)], references=[])) == (1, 1)  # recorded: no entities


def test_a_path_reference_is_coherent_by_the_path_it_passes():
    calls = [
        call("filesystem_tar_create", {"archive": "backup"}, archive_path="backup", sources=["Notes"]),
        call("filesystem_tree", {"tree": "Notes"}, path="Notes"),
    ]
    refs = [{"call": 1, "param": "path", "target": "NOD-000024", "kind": "path", "text": None}]
    assert coherence(make([Turn(user="x", calls=calls)], ["filesystem"], references=refs)) == (1, 1)


# -- reference kinds and the whole ----------------------------------------------------------------
def test_reference_kinds_and_the_natural_share_of_complete_tasks():
    good = _transfer_task(
        {"target": "ACC-000001", "value": "checking"}, {"target": "ACC-000003", "value": "savings"}
    )
    raw = make(
        [Turn(user="x")],
        references=[{"call": 0, "param": "a", "target": "ACC-1", "kind": "id"}],
        info_level="complete",
    )
    vague = make(
        [Turn(user="x")],
        references=[{"call": 0, "param": "a", "target": "ACC-1", "kind": "id"}] * 5,
        info_level="minimal",
    )
    assert reference_kinds(good) == Counter({"attribute": 2, "self": 1})
    assert natural_share([good, raw, vague]) == 0.75
    assert natural_share([vague]) is None


def test_old_tasks_without_metadata_do_not_crash(specs):
    task = make(
        [
            Turn(
                user="Send $5 from ACC-000001 to ACC-000002.",
                calls=[call("banking_transfer", None, source="ACC-000001", target="ACC-000002", amount=5.0)],
            )
        ]
    )
    broken = make(
        [Turn(user="x")],
        dataflow=[{"from": 9, "to": 0}, "junk"],
        references=[{"kind": "attribute"}],
        actor="me",
    )
    for t in (task, broken):
        assert leaks(t) == [] and unseen_ids(t) == [] and invalid_values(t, specs) == []
        assert reference_kinds(t) in (Counter(), Counter({"attribute": 1}))
    assert ambiguous(broken)[0]["reasons"] == ["incomplete record (call, resolver, column, value)"]


def test_measure_counts_defects_and_keeps_examples(specs):
    bad = _cart_task("CUS-000124's")
    bad.metadata["necessity"] = {"dropped": 2}
    tasks = [
        bad,
        _cart_task("that customer's"),
        _sprint_task("Done: planned."),
        make([Turn(user="How many the cards?")]),
    ]
    m = measure(tasks, specs)
    assert (m["tasks"], m["leaks"], m["unseen_ids"], m["garbled"], m["invalid_values"]) == (4, 1, 1, 1, 0)
    assert m["tasks_with"]["leaks"] == 1 and m["necessity_dropped"] == 2
    assert m["coherent_steps"] == 3 and m["steps"] == 3 and m["coherence"] == 1.0
    assert m["examples"]["leaks"] == [{"task": "tg-test", "finding": leaks(bad)[0]}]
    assert measure([], specs)["coherence"] is None


# -- real generated tasks -------------------------------------------------------------------------
@pytest.fixture(scope="module")
def generated(snapshot_cache):
    tasks, _ = Generator(
        GenConfig(domains=("banking",), n=20, seed=1, scale="small"), cache=snapshot_cache
    ).run()
    return tasks


def test_every_detector_runs_on_generated_tasks(generated):
    specs = specs_for({d for t in generated for d in t.domains})
    assert len(generated) == 20
    for t in generated:
        for found in (leaks(t), unseen_ids(t), ambiguous(t), garbled(t, specs), invalid_values(t, specs)):
            assert isinstance(found, list)
        coherent, steps = coherence(t)
        assert 0 <= coherent <= steps == max(0, len(t.gold_calls()) - 1)
        assert isinstance(reference_kinds(t), Counter)
    m = measure(generated, specs)
    assert m["tasks"] == 20 and set(m["examples"]) == {
        "leaks",
        "unseen_ids",
        "ambiguous",
        "garbled",
        "invalid_values",
    }


def test_an_enum_value_written_as_words_is_the_same_mention():
    """ "my needs response dispute" names the ``needs_response`` status: the ambiguity and leak
    checks must see it, or every task naming such a status is misjudged."""
    assert mentions("Show my needs response disputes", "needs_response")
    assert mentions("status needs_response", "needs_response")
    assert not mentions("it needs a response", "needs_response")
