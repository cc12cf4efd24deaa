"""Harnesses: a task rendered for openai, hermes and react reads back to the same calls; model output
that breaks the protocol is read as marked calls, never an exception; ``generate --harness``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from contract.harnesses import HARNESSES, Parsed, ParsedCall, get_harness, render_task, sft_row
from contract.messages import messages
from contract.task import Task
from querygen.generate import GenConfig, Generator
from rewards.parse import parse_trajectory
from toolground import cli

NAMES = ("openai", "hermes", "react")


@pytest.fixture(scope="module")
def tasks(snapshot_cache) -> list[Task]:
    made, _ = Generator(GenConfig(domains=("banking",), n=20, seed=4, scale="small"), snapshot_cache).run()
    return made


def _canonical_calls(task: Task) -> list[tuple[str, dict[str, Any]]]:
    return [
        (tc["function"]["name"], json.loads(tc["function"]["arguments"]))
        for m in messages(task)
        if m["role"] == "assistant"
        for tc in m.get("tool_calls") or []
    ]


def _answers(task: Task) -> list[str]:
    return [m["content"] for m in messages(task) if m["role"] == "assistant" and not m.get("tool_calls")]


def _read_back(task: Task, name: str) -> list[Parsed]:
    harness = get_harness(name)
    rendered = render_task(task, harness)
    return [harness.parse(m, step) for step, m in enumerate(x for x in rendered if x["role"] == "assistant")]


# -- round trip ------------------------------------------------------------------------------------
def test_the_tasks_exercise_parallel_calls_and_several_turns(tasks):
    steps = [len(m.get("tool_calls") or []) for t in tasks for m in messages(t) if m["role"] == "assistant"]
    assert max(steps) >= 2, "no parallel step: the grouping tests would prove nothing"
    assert any(len(t.turns) > 1 for t in tasks) and any(t.kind != "tool" for t in tasks)


@pytest.mark.parametrize("name", NAMES)
def test_every_harness_reads_back_the_calls_and_answers_it_rendered(tasks, name):
    for task in tasks:
        parsed = _read_back(task, name)
        calls = [c for p in parsed for c in p.calls]
        assert [(c.name, c.arguments) for c in calls] == _canonical_calls(task), (name, task.id)
        assert all(c.error is None for c in calls)
        assert [json.loads(c.raw_arguments) for c in calls] == [a for _, a in _canonical_calls(task)]
        assert [p.text for p in parsed if not p.calls] == _answers(task)


@pytest.mark.parametrize("name", ("openai", "hermes"))
def test_parallel_calls_stay_in_one_message(tasks, name):
    for task in tasks:
        canonical = [m for m in messages(task) if m["role"] == "assistant"]
        parsed = _read_back(task, name)
        assert [len(p.calls) for p in parsed] == [len(m.get("tool_calls") or []) for m in canonical]


def test_react_sends_one_action_per_message_each_followed_by_its_observation(tasks):
    for task in tasks:
        rendered = render_task(task, HARNESSES["react"])[1:]
        results = [m["content"] for m in messages(task) if m["role"] == "tool"]
        observed = [m["content"].removeprefix("Observation: ") for m in rendered if m["role"] == "user"]
        assert [o for o in observed if o in results] == results
        for m, nxt in zip(rendered, rendered[1:], strict=False):
            if m["role"] == "assistant" and "Action:" in m["content"]:
                assert m["content"].count("Action:") == 1
                assert nxt["content"].startswith("Observation: ")


def test_parsed_messages_rebuild_a_history_that_renders_the_same(tasks):
    """A rollout records ``Parsed.message()``; rendering that history again gives the same wire text."""
    for name in NAMES:
        harness = get_harness(name)
        for task in tasks[:8]:
            canonical = messages(task)
            rebuilt: list[dict[str, Any]] = []
            for step, m in enumerate(canonical[1:]):
                if m["role"] != "assistant":
                    rebuilt.append(dict(m))
                    continue
                wire = harness.request("s", task.tools, [m])["messages"][1:]
                got = harness.parse(wire[0], step).message()
                ids = [tc["id"] for tc in m.get("tool_calls") or []]
                for tc, cid in zip(got.get("tool_calls", []), ids, strict=True):
                    tc["id"] = cid  # hermes/react calls carry no id; the rollout names them
                rebuilt.append(got)
            expected = harness.request("s", task.tools, canonical[1:])
            assert harness.request("s", task.tools, rebuilt) == expected, (name, task.id)


def test_the_reward_parser_reads_the_hermes_rendering_as_the_same_calls(tasks):
    for task in tasks:
        rendered = render_task(task, HARNESSES["hermes"])
        traj = parse_trajectory(rendered[1:])
        assert [(c.name, c.args) for c in traj.calls] == _canonical_calls(task)
        steps = [
            k for k, m in enumerate(x for x in messages(task) if x.get("tool_calls")) for _ in m["tool_calls"]
        ]
        assert [c.step - traj.calls[0].step for c in traj.calls] == steps  # parallel calls share a step
        assert all(c.exec_ok is not None for c in traj.calls)  # every result reached its call
        assert traj.answer == _answers(task)[-1]


# -- requests ---------------------------------------------------------------------------------------
def test_requests_put_the_tools_where_each_protocol_expects_them(tasks):
    task = next(t for t in tasks if any(len(m.get("tool_calls") or []) > 1 for m in messages(t)))
    canonical = messages(task)
    openai = HARNESSES["openai"].request(canonical[0]["content"], task.tools, canonical[1:])
    assert openai["tools"] == task.tools and openai["messages"] == canonical
    names = [s["function"]["name"] for s in task.tools]
    for name in ("hermes", "react"):
        body = HARNESSES[name].request(canonical[0]["content"], task.tools, canonical[1:])
        assert set(body) == {"messages"}
        system = body["messages"][0]["content"]
        assert system.startswith(canonical[0]["content"]) and all(n in system for n in names)
        assert {m["role"] for m in body["messages"]} == {"system", "user", "assistant"}
    hermes = render_task(task, HARNESSES["hermes"])
    listed = hermes[0]["content"].split("<tools>\n", 1)[1].split("\n</tools>", 1)[0].splitlines()
    assert [json.loads(line) for line in listed] == task.tools
    steps = [len(m["tool_calls"]) for m in canonical if m.get("tool_calls")]
    batches = [m["content"].count("<tool_response>") for m in hermes[1:] if "<tool_response>" in m["content"]]
    assert batches == steps  # each step's results come back as one user message


def test_react_pairs_results_with_calls_by_id_in_any_order():
    calls = [
        {"id": "a", "type": "function", "function": {"name": "first", "arguments": '{"x":1}'}},
        {"id": "b", "type": "function", "function": {"name": "second", "arguments": "{}"}},
    ]
    history = [
        {"role": "user", "content": "go"},
        {"role": "assistant", "content": "Both at once.", "tool_calls": calls},
        {"role": "tool", "tool_call_id": "b", "content": "B"},
        {"role": "tool", "tool_call_id": "a", "content": '{"error": "no such x"}'},
    ]
    out = HARNESSES["react"].request("s", [], history)["messages"][2:]
    assert [m["content"] for m in out] == [
        'Thought: Both at once.\nAction: first\nAction Input: {"x":1}',
        'Observation: {"error": "no such x"}',
        "Action: second\nAction Input: {}",
        "Observation: B",
    ]
    hermes = HARNESSES["hermes"].request("s", [], history)["messages"]
    assert hermes[-1] == {
        "role": "user",
        "content": '<tool_response>\nB\n</tool_response>\n<tool_response>\n{"error": "no such x"}\n</tool_response>',
    }
    assert HARNESSES["hermes"].parse(hermes[2], 1).text == "Both at once."


# -- what models get wrong --------------------------------------------------------------------------
def _one(name: str, content: str, **extra: Any) -> ParsedCall:
    parsed = HARNESSES[name].parse({"role": "assistant", "content": content, **extra}, 3)
    assert len(parsed.calls) == 1, parsed
    return parsed.calls[0]


def _marked(call: ParsedCall) -> None:
    assert call.error and call.error.endswith(".") and "\n" not in call.error
    assert call.name == "" or call.arguments is None


def test_hermes_broken_blocks_become_marked_calls():
    broken = _one("hermes", '<tool_call>\n{"name": "pay", "arguments": {"amount": 5,}}\n</tool_call>')
    _marked(broken)
    assert broken.name == "" and broken.raw_arguments == '{"name": "pay", "arguments": {"amount": 5,}}'
    assert "not valid JSON" in broken.error and broken.id == "call_3_0"
    cut = _one("hermes", 'Paying.\n<tool_call>\n{"name": "pay", "argu')
    _marked(cut)
    assert "not closed" in cut.error
    nameless = _one("hermes", '<tool_call>{"arguments": {"a": 1}}</tool_call>')
    _marked(nameless)
    assert "name" in nameless.error
    listed = _one("hermes", '<tool_call>{"name": "pay", "arguments": [1, 2]}</tool_call>')
    _marked(listed)
    assert listed.name == "pay" and "JSON object" in listed.error
    _marked(_one("hermes", "<tool_call>\n\n</tool_call>"))
    _marked(_one("hermes", '<tool_call>{"name": "pay", "arguments": {"a": NaN}}</tool_call>'))


def test_hermes_reads_what_servers_and_models_really_send():
    stopped = _one(
        "hermes", '<tool_call>\n{"name": "pay", "arguments": {"amount": 5}}\n'
    )  # stop="</tool_call>"
    assert (stopped.name, stopped.arguments, stopped.error) == ("pay", {"amount": 5}, None)
    encoded = _one("hermes", '<tool_call>{"name": "pay", "arguments": "{\\"amount\\": 5}"}</tool_call>')
    assert encoded.arguments == {"amount": 5} and encoded.error is None
    bare = _one("hermes", '<tool_call>{"name": "ping"}</tool_call>')
    assert bare.arguments == {} and bare.raw_arguments == "{}"
    parsed = HARNESSES["hermes"].parse(
        {
            "role": "assistant",
            "content": '<think>maybe <tool_call>{"name": "drop_all"}</tool_call>?</think>Checking both.\n'
            '<tool_call>{"name": "a", "arguments": {}}</tool_call>\n'
            '<tool_call>[{"name": "b", "arguments": {"x": 1}}, {"name": "c"}]</tool_call> then done',
        },
        0,
    )
    assert [(c.id, c.name) for c in parsed.calls] == [("call_0_0", "a"), ("call_0_1", "b"), ("call_0_2", "c")]
    assert parsed.text == "Checking both.\nthen done"
    structured = HARNESSES["hermes"].parse(
        {"content": None, "tool_calls": [{"id": "x1", "function": {"name": "a", "arguments": "{}"}}]}, 0
    )
    assert [(c.id, c.name, c.arguments) for c in structured.calls] == [("x1", "a", {})]


def test_react_broken_actions_become_marked_calls():
    listed = _one("react", "Thought: pay\nAction: pay\nAction Input: [1, 2]")
    _marked(listed)
    assert listed.name == "pay" and listed.raw_arguments == "[1, 2]" and "JSON object" in listed.error
    broken = _one("react", 'Action: pay\nAction Input: {"amount": }')
    _marked(broken)
    assert (
        broken.name == "pay" and broken.raw_arguments == '{"amount": }' and "not valid JSON" in broken.error
    )
    _marked(_one("react", 'Action:\nAction Input: {"a": 1}'))
    orphan = _one("react", 'Thought: hm\nAction Input: {"a": 1}')
    _marked(orphan)
    assert "Action line" in orphan.error


def test_react_reads_what_models_really_write():
    bare = _one("react", "Thought: list them\nAction: `list_accounts`")
    assert (bare.name, bare.arguments, bare.raw_arguments, bare.error) == ("list_accounts", {}, "{}", None)
    fenced = _one("react", 'action: pay\naction input: ```json\n{"amount": 5}\n```')
    assert (fenced.name, fenced.arguments, fenced.error) == ("pay", {"amount": 5}, None)
    parsed = HARNESSES["react"].parse(
        {
            "content": 'Thought: two things\nAction: a\nAction Input: {"x": 1}\nAction: b\nAction Input: {}\n'
            'Observation: {"made": "up"}\nAction: c\nAction Input: {}'
        },
        2,
    )
    assert parsed.text == "two things"
    assert [(c.id, c.name, c.error is None) for c in parsed.calls] == [
        ("call_2_0", "a", True),
        ("call_2_1", "b", False),
    ]
    assert "one Action per message" in (parsed.calls[1].error or "")
    final = HARNESSES["react"].parse({"content": "Thought: done\nFinal Answer: It is $5.\nBye."}, 0)
    assert (final.text, final.calls) == ("It is $5.\nBye.", [])
    plain = HARNESSES["react"].parse({"content": "  Your balance is $5.  "}, 0)
    assert (plain.text, plain.calls) == ("Your balance is $5.", [])
    assert HARNESSES["react"].parse({"content": "Final Answer:"}, 0).text is None


def test_openai_arguments_that_are_not_an_object_are_marked():
    def call(arguments: Any, **fn: Any) -> ParsedCall:
        tc = {"id": "abc", "type": "function", "function": {"name": "pay", "arguments": arguments, **fn}}
        return _one("openai", "", tool_calls=[tc])

    broken = call("{'amount': 5}")
    _marked(broken)
    assert (broken.id, broken.name, broken.raw_arguments) == ("abc", "pay", "{'amount': 5}")
    _marked(call("[1]"))
    _marked(call(7))
    assert call({"amount": 5}).raw_arguments == '{"amount":5}'
    assert (call("").arguments, call(None).arguments, call("").raw_arguments) == ({}, {}, "{}")
    _marked(call("{}", name=None))
    parsed = HARNESSES["openai"].parse(
        {"content": " hi ", "tool_calls": [{"function": {"name": "a"}}, "junk"]}, 4
    )
    assert parsed.text == "hi" and [c.id for c in parsed.calls] == ["call_4_0", "call_4_1"]
    _marked(parsed.calls[1])
    _marked(_one("openai", "", tool_calls={"name": "a"}))


@pytest.mark.parametrize("name", NAMES)
def test_no_output_makes_a_parser_raise(tasks, name):
    """Every prefix of real rendered turns (a reply cut off by max_tokens) and odd contents parse."""
    harness = HARNESSES[name]
    wire = [m for t in tasks[:6] for m in render_task(t, HARNESSES[name]) if m["role"] == "assistant"]
    odd: list[dict[str, Any]] = [
        {"content": None},
        {"content": [{"type": "text", "text": "<tool_call>{"}, {"type": "image"}]},
        {"content": 5},
        {"content": "<tool_call>" + "[" * 100_000},
        {"content": "Action: a\nAction Input: " + "[" * 100_000},
        {"content": "</tool_call></think>Observation: x\nFinal Answer"},
        {"content": "", "tool_calls": [None, {"function": "x"}, {"function": {"name": 3, "arguments": {}}}]},
    ]
    for m in wire + odd:
        text = m.get("content") if isinstance(m.get("content"), str) else None
        prefixes = [text[:k] for k in range(0, len(text), 7)] if text and len(text) < 2000 else []
        for variant in [m, *({"role": "assistant", "content": p} for p in prefixes)]:
            parsed = harness.parse(variant, 1)
            assert isinstance(parsed, Parsed)
            for c in parsed.calls:
                assert c.error is not None or (c.name and c.arguments is not None)


BROKEN = {
    "openai": [
        {"content": None, "tool_calls": [{"id": "q", "function": {"name": "pay", "arguments": "{'a': 1}"}}]}
    ],
    "hermes": [
        {"content": '<tool_call>\n{"name": "pay", "arguments": {"a": 1,}}\n</tool_call>'},
        {"content": '<tool_call>{"arguments": {"a": 1}}</tool_call>'},
        {"content": '<tool_call>{"name": "pay", "arguments": [1]}</tool_call>'},
    ],
    "react": [
        {"content": 'Action: pay\nAction Input: {"a": }'},
        {"content": "Thought: t\nAction: pay\nAction Input: [1]"},
    ],
}


@pytest.mark.parametrize("name", NAMES)
def test_a_broken_call_recorded_in_the_history_is_shown_back_as_the_model_wrote_it(name):
    harness = HARNESSES[name]
    for message in BROKEN[name]:
        first = harness.parse({"role": "assistant", **message}, 1)
        assert first.calls and all(c.error for c in first.calls)
        wire = harness.request("s", [], [first.message()])["messages"][1]
        again = harness.parse(wire, 1)
        assert again.calls == first.calls and again.text == first.text


def test_an_unknown_harness_is_named_with_the_allowed_ones():
    with pytest.raises(ValueError, match=r"'klingon'.*openai, hermes, react"):
        get_harness("klingon")


# -- export ---------------------------------------------------------------------------------------
@pytest.fixture
def our_commands(monkeypatch, snapshot_cache):
    monkeypatch.setattr(cli, "COMMANDS", {"generate": "toolground.cmd_generate"})
    monkeypatch.setenv("TOOLGROUND_CACHE", str(Path(snapshot_cache.root).parent))


def _generate(out: Path, *extra: str) -> int:
    argv = ["generate", "--domains", "banking", "--n", "6", "--seed", "2", "--scale", "small"]
    return cli.main([*argv, "--out", str(out), "--quiet", *extra])


def test_generate_writes_one_sft_file_per_harness(our_commands, tmp_path):
    out = tmp_path / "out"
    assert _generate(out, "--harness", "react,openai,hermes") == 0
    rows = [json.loads(line) for line in (out / "tasks.jsonl").read_text().splitlines()]
    tasks = [Task.model_validate_json(r["ground_truth"]) for r in rows]
    for name in NAMES:
        sft = [json.loads(line) for line in (out / f"sft-{name}.jsonl").read_text().splitlines()]
        assert [r["id"] for r in sft] == [t.id for t in tasks]
        assert [r["messages"] for r in sft] == [render_task(t, HARNESSES[name]) for t in tasks]
        assert sft == [sft_row(t, HARNESSES[name]) for t in tasks]
        assert all(
            set(r) == ({"id", "messages", "tools"} if name == "openai" else {"id", "messages"}) for r in sft
        )
    assert json.loads((out / "stats.json").read_text())["harnesses"] == ["react", "openai", "hermes"]
    plain = tmp_path / "plain"
    assert _generate(plain) == 0
    assert not list(plain.glob("sft-*"))


def test_an_unknown_harness_exits_2_and_writes_nothing(our_commands, tmp_path, capsys):
    out = tmp_path / "out"
    assert _generate(out, "--harness", "openai,klingon") == 2
    err = capsys.readouterr().err
    assert "unknown --harness klingon" in err and "openai, hermes, react" in err
    assert not out.exists()
