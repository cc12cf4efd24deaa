"""Money amounts are whole numbers of cents: anything else is refused with the rule, state untouched.

Issue 37, item 1: ``banking_deposit {"amount": 1e-300}`` passed the money check (a 1e-9 tolerance
rounded it to 0.00) and wrote a 0.00 ledger row. Two layers of test:

- through a real ``toolground serve`` on 127.0.0.1, the reproduction's tools get amounts sent as
  raw JSON text (``1e-300``, ``NaN``, ``Infinity``...), each refused as an MCP tool error that names
  the parameter, with the env session's state hash unchanged;
- in process, every money parameter of every domain (found by name, so a new one is covered as soon
  as it exists) is swept with tiny, negative, huge, many-decimal and non-finite values.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

import httpx
import pytest

from servers.kit import Param, ToolSpec
from servers.registry import available, get_domain
from tests.serving import META, post_tool_call, running_server
from tests.test_fuzz_tools import Pools, check_call, first_value

# what a careless or hostile client sends as an amount, as JSON text
BAD_AMOUNT_TEXT = [
    "1e-300",
    "5e-324",
    "0.001",
    "0.004",
    "0.005",
    "0.009",
    "25.505",
    "10.0000001",
    "0.3000000000001",
    "-5",
    "-0.01",
    "0",
    "1e300",
    "1e10",
    "NaN",
    "Infinity",
    "-Infinity",
]
# the tools of the reproduction and a valid argument object for each, the amount left to fill in
REPRO = {
    "banking_deposit": {"account": "ACC-000001"},
    "banking_withdraw": {"account": "ACC-000001"},
    "banking_transfer": {"source": "ACC-000001", "target": "ACC-000002", "memo": "t"},
    "trading_deposit_funds": {},
    "trading_withdraw_funds": {},
}

# number parameters named like money that are not money
NOT_MONEY = {"vehicle_refuel.amount"}  # litres or gallons of fuel
MONEY_NAME = re.compile(r"amount|price|cost|tip|fee|budget|balance|credit")


def _call_text(name: str, args: dict[str, Any], amount_text: str) -> bytes:
    """A tools/call body whose ``amount`` is the given JSON text, spliced in verbatim."""
    params = {"name": name, "arguments": {**args, "amount": "@AMOUNT@"}, "_meta": META}
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params})
    return body.replace('"@AMOUNT@"', amount_text).encode()


def test_sub_cent_and_non_finite_amounts_are_refused_by_a_real_server(tmp_path):
    with running_server(tmp_path / "cache", "--domains", "banking,trading", "--scale", "small") as base:
        sid = "money-probe"
        good = post_tool_call(
            base, "banking_deposit", _call_text("banking_deposit", REPRO["banking_deposit"], "25.50"), sid
        )
        assert not good["result"].get("isError"), good
        before = httpx.get(f"{base}/admin/sessions/{sid}/state").json()["hash"]
        for name, args in REPRO.items():
            for text in BAD_AMOUNT_TEXT:
                reply = post_tool_call(base, name, _call_text(name, args, text), sid)
                assert "result" in reply, (name, text, reply)
                shown = reply["result"]["content"][0]["text"]
                assert reply["result"].get("isError") is True, f"{name} amount={text} passed: {shown}"
                assert "amount" in shown and "Traceback" not in shown, shown
        after = httpx.get(f"{base}/admin/sessions/{sid}/state").json()["hash"]
        assert after == before, "a refused amount changed the env session's state"
        cents = post_tool_call(
            base, "trading_deposit_funds", _call_text("trading_deposit_funds", {}, "0.01"), sid
        )
        assert not cents["result"].get("isError"), cents  # one cent is the smallest amount, and allowed


def _money_params() -> list[Any]:
    out = []
    for domain in available():
        for spec in get_domain(domain).visible_tools():
            for p in spec.params:
                kind = p.items.get("type") if p.is_list and p.items else p.json_type
                key = f"{spec.qualified_name}.{p.name}"
                if kind == "number" and MONEY_NAME.search(p.name) and key not in NOT_MONEY:
                    out.append(pytest.param(domain, spec.qualified_name, p.name, id=key))
    return out


MONEY_PARAMS = _money_params()


def _bad_values(p: Param) -> list[float]:
    """Tiny, many-decimal, huge and non-finite values; negatives and zero where the range excludes them."""
    c = p.constraints if not p.is_list else p.element().constraints
    bad = [1e-300, 5e-324, 0.001, 0.005, 0.009, 25.505, 10.0000001, 1 / 3, 1e300, 1e16, math.nan, math.inf]
    bad.append(-math.inf)
    low = c.get("minimum", c.get("exclusiveMinimum", 0))
    if low >= 0:
        bad += [-5.0, -0.01, -1e-300]
    if c.get("exclusiveMinimum", None) == 0:
        bad.append(0.0)
    return bad


def test_every_money_parameter_is_found():
    """The sweep below covers the money parameters of the reproduction and of every domain shape."""
    found = {p.id for p in MONEY_PARAMS}
    for key in [
        "banking_deposit.amount",
        "trading_deposit_funds.amount",
        "crm_create_deal.amount",
        "payments_add_invoice_line.unit_amount",
        "budget_split_transaction.amounts",
        "budget_reconcile_account.statement_balance",
        "food_delivery_place_order.tip",
        "marketplace_create_listing.shipping_cost",
        "telecom_support_apply_goodwill_credit.amount",
        "travel_booking_set_budget_limit.budget",
    ]:
        assert key in found, key


@pytest.mark.parametrize(("domain", "tool", "param"), MONEY_PARAMS)
def test_every_money_parameter_refuses_what_is_not_whole_cents(domain, tool, param, make_env) -> None:
    env = make_env(domain)
    episode = env.open()
    spec: ToolSpec = env.spec(tool)
    pools = Pools(episode, domain)
    p = next(q for q in spec.params if q.name == param)
    base = {q.name: first_value(q, pools) for q in spec.params if q.required}
    for value in _bad_values(p):
        args = {**base, param: [value, 1.0] if p.is_list else value}
        result = check_call(env, episode, spec, args)  # no crash, and a refusal leaves state as it was
        assert not result.ok, f"{tool}({param}={value!r}) was accepted: {result.value!r:.300}"
        assert param in result.error, f"{tool}({param}={value!r}): the error does not name it: {result.error}"


def test_whole_cents_takes_float_noise_but_never_a_fraction_of_a_cent():
    from servers.kit import whole_cents

    assert whole_cents(0.1 + 0.2) == 0.3  # 0.30000000000000004: arithmetic noise, not a choice
    assert whole_cents(999_999_999.99) == 999_999_999.99 and whole_cents(-12.5) == -12.5
    for value in (1e-300, 0.005, 999_999_999.994, 0.3000000000001, math.nan, math.inf):
        with pytest.raises(
            ValueError, match="more than two decimal places: money is a whole number of cents"
        ):
            whole_cents(value)
