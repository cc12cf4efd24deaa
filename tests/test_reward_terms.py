"""Each paper equation on hand-computed cases, and every open-point decision pinned by a test."""

from __future__ import annotations

import json
import math

import pytest

from rewards import ConfigError, TaskError, get_config, score, score_group
from rewards.terms import budget


def fn(name: str, props: dict, required: list[str]) -> dict:
    return {
        "type": "function",
        "function": {
            "name": name,
            "description": name,
            "parameters": {
                "type": "object",
                "properties": props,
                "required": required,
                "additionalProperties": False,
            },
        },
    }


TOOLS = [
    fn("get_user", {"user": {"type": "string"}}, ["user"]),
    fn("list_orders", {"user": {"type": "string"}, "limit": {"type": "integer"}}, ["user"]),
    fn(
        "refund",
        {"order": {"type": "string"}, "amount": {"type": "number"}, "note": {"type": "string"}},
        ["order", "amount"],
    ),
]
GOLD = [
    {"name": "get_user", "arguments": {"user": "U1"}},
    {"name": "list_orders", "arguments": {"user": "U1"}},
    {"name": "refund", "arguments": {"order": "O1", "amount": 5.0}},
]
TASK = {"id": "t", "gold_calls": GOLD, "tools": TOOLS, "dependencies": [[0, 1], [1, 2]]}


def call(name: str, **args) -> dict:
    return {"name": name, "arguments": args}


def assistant(*calls: tuple[str, dict], ids: list[str] | None = None) -> dict:
    ids = ids or [f"c{i}" for i in range(len(calls))]
    return {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {"id": i, "type": "function", "function": {"name": n, "arguments": json.dumps(a)}}
            for i, (n, a) in zip(ids, calls, strict=True)
        ],
    }


def tool(call_id: str, content: str) -> dict:
    return {"role": "tool", "tool_call_id": call_id, "content": content}


def test_gold_scores_the_paper_maximum():
    r = score(TASK, GOLD)
    assert r.components == {
        "validity": 1.0,
        "coverage": 1.0,
        "efficiency": 0.0,
        "name": 1.0,
        "arg": 1.0,
        "outcome": None,
    }
    assert r.total == pytest.approx(1.3)
    assert [a["pred"] for a in r.details["alignment"]] == [0, 1, 2]
    assert r.details["budget"] == 5 and r.details["excess"] == 0


# -- validity ------------------------------------------------------------------------------


def test_a_call_that_raised_in_trl_loses_validity():
    """TRL puts ``str({"error": ...})`` in the tool message when the tool raised: a failed call."""
    ok = [assistant(("get_user", {"user": "U1"}), ids=["a"]), tool("a", '{"id": "U1", "name": "Ann"}')]
    raised = [assistant(("get_user", {"user": "U1"}), ids=["a"]), tool("a", str({"error": "U1 is locked"}))]
    good, bad = score(TASK, ok), score(TASK, raised)
    assert good.details["validity_levels"] == [3] and bad.details["validity_levels"] == [2]
    assert bad.components["validity"] < good.components["validity"]


def test_graduated_validity_levels_from_tool_results():
    msgs = [
        {"role": "user", "content": "help"},
        assistant(("nope", {"user": "U1"}), ids=["a"]),
        tool("a", "Error: unknown tool"),
        assistant(("get_user", {"user": 5}), ids=["b"]),
        tool("b", "Error: invalid arguments"),
        assistant(("get_user", {"user": "U9"}), ids=["c"]),
        tool("c", '{"ok": false, "error": "customer U9 does not exist"}'),
        assistant(("get_user", {"user": "U1"}), ids=["d"]),
        tool("d", '{"id": "U1", "name": "Ann"}'),
    ]
    r = score(TASK, msgs)
    assert r.details["validity_levels"] == [0, 1, 2, 3]
    assert r.components["validity"] == pytest.approx(6 / 12)
    assert r.details["level3_source"] == "trajectory"


def test_gated_versus_independent_levels():
    # The server coerced "5" -> 5 and succeeded, but level 2 (JSON types) fails.
    msgs = [assistant(("list_orders", {"user": "U1", "limit": "5"}), ids=["a"]), tool("a", '{"orders": []}')]
    gated = score(TASK, msgs)
    independent = score(TASK, msgs, {"validity_mode": "independent"})
    assert gated.components["validity"] == pytest.approx(1 / 3)
    assert independent.components["validity"] == pytest.approx(2 / 3)


@pytest.mark.parametrize(
    ("args", "ok"),
    [
        ({"user": "U1", "limit": 5}, True),
        ({"user": "U1", "limit": 5.0}, True),  # JSON has one number type
        ({"user": "U1", "limit": 5.5}, False),
        ({"user": "U1", "limit": "5"}, False),  # no coercion
        ({"user": "U1", "limit": True}, False),  # a bool is not a number
        ({"user": "U1", "limit": None}, True),  # null optional == omitted
        ({"user": None}, False),  # null required is missing
        ({"limit": 5}, False),  # required key missing
        ({"user": "U1", "extra": 1}, False),  # additionalProperties: false
    ],
)
def test_level_two_type_rules(args, ok):
    r = score(TASK, [call("list_orders", **args)])
    assert r.details["validity_levels"] == [3 if ok else 1]


def test_level_three_without_evidence_is_credited_only_when_schema_valid():
    calls = [call("get_user", user="U1"), call("get_user", user=7)]
    assumed = score(TASK, calls)
    assert assumed.details["validity_levels"] == [3, 1] and assumed.details["level3_source"] == "assumed"
    withheld = score(TASK, calls, {"exec_unknown": "fail"})
    assert withheld.details["validity_levels"] == [2, 1]


def test_arguments_that_are_not_an_object_fail_level_two_but_still_count():
    msgs = [{"role": "assistant", "tool_calls": [{"function": {"name": "get_user", "arguments": "[1, 2]"}}]}]
    r = score(TASK, msgs)
    assert r.details["validity_levels"] == [1] and r.details["n_calls"] == 1
    assert r.details["alignment"] == []


def test_without_tool_schemas_the_gold_calls_define_them():
    task = {"gold_calls": [call("a", x=1, y="s"), call("a", x=2)]}
    r = score(task, [call("a", x=3), call("a", y="only"), call("b", x=1), call("a", x="str")])
    assert r.details["validity_levels"] == [3, 1, 0, 1]


# -- coverage (Eq. 1) ------------------------------------------------------------------------


def test_coverage_enforces_dependency_order():
    r = score(TASK, [call("list_orders", user="U1"), call("get_user", user="U1"), GOLD[2]])
    by_gold = {a["gold"]: a for a in r.details["alignment"]}
    assert by_gold[1]["order_ok"] is False and by_gold[2]["order_ok"] is True
    assert r.components["coverage"] == pytest.approx(2 / 3)


def test_unmatched_prerequisite_breaks_the_dependent_unless_configured():
    calls = [GOLD[0], GOLD[2]]
    assert score(TASK, calls).components["coverage"] == pytest.approx(1 / 3)
    assert score(TASK, calls, {"prereq_unmatched": "pass"}).components["coverage"] == pytest.approx(2 / 3)


def test_a_match_needs_every_gold_argument_key():
    missing = score(TASK, [*GOLD[:2], call("refund", order="O1")])
    assert missing.details["unmatched_gold"] == [2]
    extra = score(TASK, [*GOLD[:2], call("refund", order="O1", amount=5.0, note="sorry")])
    assert extra.components["coverage"] == 1.0 and extra.components["arg"] == 1.0


def test_parallel_calls_are_ordered_by_position_or_optionally_by_step():
    msgs = [
        assistant(("get_user", {"user": "U1"}), ("list_orders", {"user": "U1"})),
        tool("c0", "{}"),
        tool("c1", "{}"),
        assistant(("refund", {"order": "O1", "amount": 5.0}), ids=["c2"]),
        tool("c2", "{}"),
    ]
    assert score(TASK, msgs).components["coverage"] == 1.0  # the paper: positions in the output
    by_step = {"order_by": "step"}  # list_orders was emitted before get_user's result existed
    assert score(TASK, msgs, by_step).components["coverage"] == pytest.approx(2 / 3)
    independent = {"gold_calls": GOLD[:2], "tools": TOOLS}  # no edge: parallel is fine either way
    assert score(independent, msgs[:3], by_step).components["coverage"] == 1.0


def test_alignment_prefers_order_then_values_then_position():
    calls = [call("get_user", user="U2"), call("get_user", user="U1"), *GOLD[1:]]
    r = score(TASK, calls)
    assert r.details["alignment"][0] == {"gold": 0, "pred": 1, "order_ok": True, "arg_match": 1.0}
    assert r.components["coverage"] == 1.0


# -- efficiency (Eq. 2) ----------------------------------------------------------------------


def test_worked_example_four_call_task_has_budget_six():
    assert budget(4, 0.5) == 6
    gold = [call("t", i=i) for i in range(4)]
    task = {"gold_calls": gold}
    for extra, expected in [(0, 0.0), (2, 0.0), (3, -0.5 / 6), (4, -1 / 6), (5, -0.25)]:
        r = score(task, gold + [call("t", i=99)] * extra)
        assert r.details["budget"] == 6
        assert r.components["efficiency"] == pytest.approx(expected)


@pytest.mark.parametrize(
    ("n_gt", "extra", "expected"),
    [(1, 2, -0.25), (1, 5, -1.0), (2, 2, -1 / 6), (3, 3, -0.1), (5, 4, -0.0625), (5, 3, 0.0)],
)
def test_efficiency_table(n_gt, extra, expected):
    gold = [call("t", i=i) for i in range(n_gt)]
    r = score({"gold_calls": gold}, gold + [call("t", i=-1)] * extra)
    assert r.components["efficiency"] == pytest.approx(expected)


def test_budget_is_not_fooled_by_float_rounding_and_clipping_bounds_the_penalty():
    assert budget(10, 0.1) == 11 and budget(3, 0.0) == 3 and budget(1, 0.5) == 2
    gold = [call("t")]
    spam = gold + [call("t")] * 20
    assert score({"gold_calls": gold}, spam).components["efficiency"] == pytest.approx(-0.5 * 19 / 2)
    clipped = score({"gold_calls": gold}, spam, {"efficiency_clip": -1.0})
    assert clipped.components["efficiency"] == -1.0


# -- name precision (Eq. 3) and argument values (Eq. 4) -------------------------------------


def test_name_precision_counts_gold_named_calls_over_all_calls():
    r = score(TASK, [GOLD[0], call("nope"), call("get_user", user="x"), GOLD[1]])
    assert r.components["name"] == pytest.approx(3 / 4)


def test_argument_values_average_over_aligned_pairs():
    r = score(TASK, [GOLD[0], GOLD[1], call("refund", order="O1", amount=6)])
    assert r.components["arg"] == pytest.approx((1 + 1 + 0.5) / 3)
    no_args = {"gold_calls": [call("ping")]}
    assert score(no_args, [call("ping", verbose=True)]).components["arg"] == 1.0


@pytest.mark.parametrize(
    ("gold", "pred", "exact", "normalized"),
    [
        ("Alice Smith", "alice  smith ", 0.0, 1.0),
        (5, "5", 0.0, 1.0),
        (10, 10.0, 1.0, 1.0),
        (True, 1, 0.0, 0.0),
        (True, "true", 0.0, 1.0),
        (0.1 + 0.2, 0.3, 0.0, 1.0),
        (["a", "B"], ["A", "b"], 0.0, 1.0),
        ("x", "y", 0.0, 0.0),
    ],
)
def test_value_normalisation(gold, pred, exact, normalized):
    task = {"gold_calls": [call("f", v=gold)]}
    assert score(task, [call("f", v=pred)]).components["arg"] == exact
    assert score(task, [call("f", v=pred)], {"arg_normalize": True}).components["arg"] == normalized


# -- abstention, no calls, total --------------------------------------------------------------


def test_abstention_rule():
    task = {"gold_calls": [], "tools": TOOLS}
    right = score(task, [{"role": "assistant", "content": "I can't do that with these tools."}])
    assert right.total == 1.0 and right.components["abstention"] == 1.0
    wrong = score(task, [GOLD[0]])
    assert wrong.total == 0.0 and wrong.components["abstention"] == 0.0


def test_clarify_task_without_gold_calls_follows_the_abstention_rule():
    task = {"id": "c", "domains": [], "kind": "clarify", "turns": [{"user": "pay my bill", "calls": []}]}
    assert score(task, []).total == 1.0
    assert score(task, [call("pay")]).total == 0.0


def test_no_calls_on_a_tool_task_scores_zero():
    r = score(TASK, [])
    assert r.total == 0.0 and all(v == 0.0 for k, v in r.components.items() if k != "outcome")


def test_total_is_equation_five():
    calls = [GOLD[0], call("nope"), call("list_orders", user="U2"), call("refund", order="O1", amount=5.0)]
    r = score(TASK, calls)
    val = (3 + 0 + 3 + 3) / 12
    cov = 3 / 3
    arg = (1 + 0 + 1) / 3
    name = 3 / 4
    assert r.components["validity"] == pytest.approx(val)
    assert r.components["arg"] == pytest.approx(arg)
    assert r.total == pytest.approx(0.5 * val + 0.5 * cov + 0.15 * 0.0 + 0.2 * name + 0.1 * arg)


def test_recall_preset_is_coverage_alone():
    spam = [*GOLD, *([call("nope")] * 20)]
    r = score(TASK, spam, "recall")
    assert r.total == r.components["coverage"] == 1.0


# -- inputs and configs ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("task", "needle"),
    [
        ({"gold_calls": GOLD, "dependencies": [[0, 5]]}, "dependency 0"),
        ({"gold_calls": GOLD, "dependencies": [[0, 1], [1, 0]]}, "cycle"),
        ({"gold_calls": GOLD, "surprise": 1}, "surprise"),
        ({"gold_calls": [{"name": "f", "arguments": [1]}]}, "gold_calls.0.arguments"),
        ({"gold_calls": [], "kind": "abstain", "tools": [{"nothing": 1}]}, "no function name"),
        ({"calls": []}, "'turns'"),
        ("{not json", "not valid JSON"),
    ],
)
def test_bad_tasks_name_the_problem(task, needle):
    with pytest.raises(TaskError, match=None) as err:
        score(task, [])
    assert needle in str(err.value)


def test_configs_presets_and_overrides():
    assert get_config("prove outcome").w_out == 0.5  # '+' decoded as space in a query string
    assert get_config({"preset": "recall", "w_name": 0.3}).w_name == 0.3
    with pytest.raises(ConfigError, match="unknown preset"):
        get_config("greedy")
    with pytest.raises(ConfigError, match="bogus"):
        get_config({"bogus": 1})
    with pytest.raises(ConfigError):
        get_config({"alpha": math.nan})
    assert get_config().max_total == pytest.approx(1.3)


def test_clarify_task_with_gold_calls_in_a_later_turn_is_scored_as_a_tool_task():
    task = {
        "id": "c2",
        "domains": [],
        "kind": "clarify",
        "turns": [
            {"user": "pay my bill", "calls": [], "answer": "Which bill?"},
            {"user": "the phone bill", "calls": [{"name": "pay", "arguments": {"bill": "phone"}}]},
        ],
    }
    assert score(task, [call("pay", bill="phone")]).total == pytest.approx(1.3)
    assert score(task, []).total == 0.0


def test_score_group_prepares_the_task_once_for_many_trajectories():
    results = score_group(TASK, [GOLD, GOLD[:1], []], "prove")
    assert [round(r.total, 3) for r in results] == [1.3, round(score(TASK, GOLD[:1]).total, 3), 0.0]
    assert results[0].task_id == "t" and results[0].flat()["score"] == results[0].total
