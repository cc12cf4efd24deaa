"""Arguments of the wrong JSON type are refused, by default, in process and over MCP.

An agent that sends ``"amount": true`` or ``"5"`` must be told, or it never learns the schema;
and the reward's validity term must agree with what the server accepted.
"""

from __future__ import annotations

import asyncio

import pytest
from fastmcp import Client
from fastmcp.client.transports import StreamableHttpTransport

from rewards.schemas import schema_from_parameters
from servers.kit import ToolError
from tests.serving import running_server

WRONG_NUMBERS = [True, False, "5", " 7 ", "5.0", None, [5], {"v": 5}]


@pytest.mark.parametrize("amount", WRONG_NUMBERS, ids=repr)
def test_a_number_parameter_refuses_other_types_and_changes_nothing(make_env, amount):
    env = make_env()
    ep = env.open()
    before = ep.state_hash()
    with pytest.raises(ToolError) as err:
        env.invoke(ep, "banking_deposit", {"account": "ACC-000001", "amount": amount})
    message = str(err.value)
    assert "amount must be a number" in message and "got" in message, message
    assert ep.state_hash() == before


def test_the_message_names_parameter_expected_type_and_value(make_env):
    env = make_env()
    with pytest.raises(ToolError) as err:
        env.invoke(env.open(), "banking_deposit", {"account": "ACC-000001", "amount": " 7 "})
    assert str(err.value).startswith(
        'invalid arguments for banking_deposit: amount must be a number, got " 7 "'
    )
    assert "(a string)" in str(err.value) and "Allowed arguments: account, amount" in str(err.value)


def test_integral_floats_are_integers_and_ints_are_numbers(make_env):
    env = make_env()
    ep = env.open()
    page = env.invoke(ep, "banking_list_transactions", {"account": "ACC-000001", "limit": 5.0})
    assert len(page["entries"]) == 5
    with pytest.raises(ToolError, match=r"limit must be an integer, got 5\.5"):
        env.invoke(ep, "banking_list_transactions", {"account": "ACC-000001", "limit": 5.5})
    assert env.invoke(ep, "banking_deposit", {"account": "ACC-000001", "amount": 5})["deposited"] == 5


def test_list_elements_are_checked_one_by_one(make_env):
    env = make_env("email")
    spec = next(s for s in env.visible_tools() if any(p.is_list and p.items for p in s.params))
    p = next(p for p in spec.params if p.is_list and p.items)
    wrong = 7 if p.items.get("type") == "string" else "seven"
    with pytest.raises(ToolError, match=rf"{p.name}\[1\] must be"):
        spec.validate({p.name: [p.examples[0] if p.examples else "x", wrong]})


def test_lax_arguments_coerce_as_before(make_env):
    env = make_env(lax_arguments=True)
    ep = env.open()
    assert env.invoke(ep, "banking_deposit", {"account": "ACC-000001", "amount": "5"})["deposited"] == 5.0
    assert env.invoke(ep, "banking_deposit", {"account": "ACC-000001", "amount": True})["deposited"] == 1.0


@pytest.mark.parametrize("value", [*WRONG_NUMBERS, 5, 5.0, 12.5, 0.01], ids=repr)
def test_the_reward_validity_check_agrees_with_the_server(make_env, value):
    """Level 2 of graduated validity says "valid" exactly when the server would run the call."""
    env = make_env()
    spec = env.tools["banking_deposit"]
    args = {"account": "ACC-000001", "amount": value}
    reward_ok = schema_from_parameters(spec.qualified_name, spec.input_schema()).check(args)
    try:
        env.invoke(env.open(), spec.qualified_name, args)
        server_ok = True
    except ToolError:
        server_ok = False
    assert reward_ok == server_ok, (value, reward_ok, server_ok)


async def _deposit(url: str, amount) -> tuple[bool, str]:
    async with Client(StreamableHttpTransport(url, headers={"X-Env-Session": "strict-1"})) as client:
        res = await client.call_tool(
            "banking_deposit", {"account": "ACC-000001", "amount": amount}, raise_on_error=False
        )
        return res.is_error, res.content[0].text


@pytest.mark.parametrize("lax", [False, True], ids=["strict", "lax"])
def test_served_calls_follow_the_switch(tmp_path, lax):
    flags = ["--domains", "banking", "--scale", "small", *(["--lax-arguments"] if lax else [])]
    with running_server(tmp_path / "cache", *flags) as base:
        is_error, text = asyncio.run(_deposit(base + "/mcp", "5"))
    if lax:
        assert not is_error and '"deposited":5.0' in text
    else:
        assert is_error and 'amount must be a number, got "5" (a string)' in text
