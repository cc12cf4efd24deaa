"""Trajectory shapes: chat messages, plain calls, and tool calls embedded in model text."""

from __future__ import annotations

import pytest

from rewards import TrajectoryError, parse_trajectory
from rewards.parse import result_failed


def names(traj) -> list[str]:
    return [c.name for c in traj.calls]


def test_openai_messages_with_ids_steps_and_results():
    msgs = [
        {"role": "system", "content": "be brief"},
        {"role": "user", "content": "hi"},
        {
            "role": "assistant",
            "content": "let me look",
            "tool_calls": [
                {"id": "x", "type": "function", "function": {"name": "a", "arguments": '{"k": 1}'}},
                {"id": "y", "type": "function", "function": {"name": "b", "arguments": {"k": 2}}},
            ],
        },
        {"role": "tool", "tool_call_id": "y", "content": "Error: b failed"},
        {"role": "tool", "tool_call_id": "x", "content": [{"type": "text", "text": '{"v": 1}'}]},
        {"role": "assistant", "content": "All done: v is 1."},
    ]
    t = parse_trajectory(msgs)
    assert names(t) == ["a", "b"] and [c.step for c in t.calls] == [1, 1]
    assert [c.exec_ok for c in t.calls] == [True, False]
    assert t.calls[0].args == {"k": 1} and t.answer == "All done: v is 1."


def test_results_without_ids_are_assigned_in_order():
    msgs = [
        {"role": "assistant", "tool_calls": [{"function": {"name": "a", "arguments": "{}"}}]},
        {"role": "tool", "content": '{"ok": false, "error": "nope"}'},
        {"role": "assistant", "tool_calls": [{"function": {"name": "b", "arguments": ""}}]},
    ]
    t = parse_trajectory(msgs)
    assert [c.exec_ok for c in t.calls] == [False, None] and [c.step for c in t.calls] == [1, 2]
    assert t.calls[1].args == {} and t.answer is None


@pytest.mark.parametrize(
    ("content", "message", "failed"),
    [
        ('{"balance": 10, "ok": true}', {}, False),
        ('{"ok": false, "error": "x"}', {}, True),
        ('{"isError": true, "content": []}', {}, True),
        ('{"error": "account frozen"}', {}, True),
        ('{"error": null, "value": 1}', {}, False),
        ('{"rows": [{"error": "nested is data"}]}', {}, False),
        ("Error executing tool transfer: insufficient funds", {}, True),
        ("Traceback (most recent call last)", {}, True),
        ("The balance is 10", {}, False),
        ("fine", {"is_error": True}, True),
        ("fine", {"ok": False}, True),
        # TRL writes a tool's exception as a Python dict repr, not JSON
        (str({"error": "account ACC-000009 is frozen"}), {}, True),
        (str({"ok": False, "reason": "limit"}), {}, True),
        (str({"rows": [{"error": "nested is data"}]}), {}, False),
        (str({"error": None, "value": 1}), {}, False),
        ("{'balance': 10, 'note': \"it's fine\"}", {}, False),
        ("{'error': unbalanced", {}, False),
    ],
)
def test_tool_result_failure_detection(content, message, failed):
    assert result_failed(content, message) is failed


def test_hermes_qwen_text_with_responses_steps_and_answer():
    text = (
        "<think>I should look up the user first.</think>"
        '<tool_call>\n{"name": "get_user", "arguments": {"user": "U1"}}\n</tool_call>\n'
        '<tool_call>{"name": "list", "arguments": "{\\"user\\": \\"U1\\"}"}</tool_call><|im_end|>\n'
        '<|im_start|>user\n<tool_response>{"id": "U1"}</tool_response>\n'
        "<tool_response>Error: list failed</tool_response><|im_end|>\n<|im_start|>assistant\n"
        '<tool_call>{"name": "refund", "arguments": {"order": "O1"}}</tool_call><|im_end|>'
        '<|im_start|>user\n<tool_response>{"ok": true}</tool_response><|im_end|>\n'
        "<|im_start|>assistant\nRefunded order O1.<|im_end|>"
    )
    t = parse_trajectory(text)
    assert names(t) == ["get_user", "list", "refund"]
    assert [c.step for c in t.calls] == [1, 1, 2]
    assert [c.exec_ok for c in t.calls] == [True, False, True]
    assert t.calls[1].args == {"user": "U1"} and t.answer == "Refunded order O1."


def test_malformed_and_truncated_blocks_are_invalid_calls_not_errors():
    t = parse_trajectory('<tool_call>{"name": "a", "arguments": {</tool_call><tool_call>{"name": "b"')
    assert names(t) == ["", ""] and all(c.args is None for c in t.calls)
    t = parse_trajectory('<tool_call>{"name": "a", "arguments": {"x": NaN}}</tool_call>')
    assert names(t) == [""]
    t = parse_trajectory('<tool_call>{"name": "a", "arguments": "not json"}</tool_call>')
    assert names(t) == ["a"] and t.calls[0].args is None


@pytest.mark.parametrize(
    ("text", "expected", "answer"),
    [
        ('{"name": "a", "arguments": {"x": 1}}', ["a"], None),
        ('[{"name": "a", "arguments": {}}, {"name": "b", "parameters": {}}]', ["a", "b"], None),
        ('```json\n{"name": "a", "arguments": {}}\n```', ["a"], None),
        (
            '{"role": "assistant", "content": "ok", "tool_calls": [{"function": {"name": "a", "arguments": "{}"}}]}',
            ["a"],
            "ok",
        ),
        ('[TOOL_CALLS][{"name": "a", "arguments": {"x": 1}}]', ["a"], None),
        ("The answer is 42.", [], "The answer is 42."),
        ('{"answer": 42}', [], '{"answer": 42}'),
    ],
)
def test_openai_json_and_other_text_forms(text, expected, answer):
    t = parse_trajectory(text)
    assert names(t) == expected and t.answer == answer


def test_embedded_calls_inside_assistant_messages():
    msgs = [
        {"role": "assistant", "content": '<tool_call>{"name": "a", "arguments": {}}</tool_call>'},
        {"role": "user", "content": "<tool_response>Error: no</tool_response>"},
        {"role": "assistant", "content": "Sorry, that failed."},
    ]
    t = parse_trajectory(msgs)
    assert names(t) == ["a"] and t.calls[0].exec_ok is False and t.answer == "Sorry, that failed."


def test_plain_lists_call_results_and_answer_objects():
    rows = [
        {"name": "a", "arguments": {"x": 1}, "ok": True, "value": 3},
        {"name": "b", "arguments": {}, "ok": False, "error": "boom"},
        {"type": "function", "function": {"name": "c", "arguments": '{"y": 2}'}},
    ]
    t = parse_trajectory(rows)
    assert names(t) == ["a", "b", "c"] and [c.step for c in t.calls] == [1, 2, 3]
    assert [c.exec_ok for c in t.calls] == [True, False, None] and t.calls[2].args == {"y": 2}
    t = parse_trajectory({"calls": rows[:1], "answer": "three"})
    assert t.answer == "three" and names(t) == ["a"]
    assert names(parse_trajectory({"messages": [{"role": "user", "content": "x"}]})) == []


@pytest.mark.parametrize(
    ("bad", "needle"),
    [
        ([{"name": "a", "arguments": 5}], "arguments must be an object"),
        ([{"name": "a", "arguments": [1]}], "arguments must be an object"),
        ([{"arguments": {}}], "string 'name'"),
        ([{"name": 3}], "string 'name'"),
        ([{"role": "assistant", "tool_calls": "a"}], "tool_calls must be a list"),
        ([{"role": "assistant", "tool_calls": [{"function": {"name": "a", "arguments": 1.5}}]}], "arguments"),
        ([{"role": "user"}, 7], "must be an object"),
        ({"steps": []}, "'messages' or 'calls'"),
        (42, "got int"),
    ],
)
def test_structural_mistakes_raise_with_a_location(bad, needle):
    with pytest.raises(TrajectoryError) as err:
        parse_trajectory(bad)
    assert needle in str(err.value) and err.value.detail[0]["loc"][0] == "trajectory"
