"""Runs under the official mcp 1.x SDK (its own venv): the client most trainers ship today.

Usage: python mcp1_client.py URL  -> prints one JSON line with what it saw.
"""

import asyncio
import json
import sys

from mcp import ClientSession
from mcp.client.streamable_http import streamablehttp_client


async def session_run(url: str, headers: dict) -> dict:
    async with (
        streamablehttp_client(url, headers=headers) as (read, write, get_sid),
        ClientSession(read, write) as s,
    ):
        init = await s.initialize()
        tools = await s.list_tools()
        dep = await s.call_tool("banking_deposit", {"account": "ACC-000001", "amount": 11})
        bal = await s.call_tool("banking_get_balance", {"account": "ACC-000001"})
        bad = await s.call_tool("banking_get_balance", {"account": "nope"})
        return {
            "protocol": init.protocolVersion,
            "session": get_sid(),
            "tools": len(tools.tools),
            "deposit_error": dep.isError,
            "balance": bal.structuredContent["balance"],
            "bad_error": bad.isError,
            "bad_text": bad.content[0].text,
        }


async def main(url: str) -> None:
    with_header = await session_run(url, {"X-Env-Session": "mcp1-a"})
    legacy_a = await session_run(url, {})
    legacy_b = await session_run(url, {})
    print(json.dumps({"header": with_header, "legacy_a": legacy_a, "legacy_b": legacy_b}))


asyncio.run(main(sys.argv[1]))
