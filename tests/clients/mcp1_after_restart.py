"""Runs under the official mcp 1.x SDK (its own venv): one handshake-era session across a shard restart.

Usage: python mcp1_after_restart.py URL. Opens an MCP session (no env session of its own, so the
server keys its state on the Mcp-Session-Id), makes one deposit and prints ``{"session": ID}``;
then waits for a line on stdin (the test kills and restarts the shard meanwhile), calls again and
prints ``{"error": ...}`` or ``{"is_error": ..., "text": ...}``.
"""

import asyncio
import json
import sys

from mcp import ClientSession, McpError
from mcp.client.streamable_http import streamablehttp_client


async def main(url: str) -> None:
    async with (
        streamablehttp_client(url, terminate_on_close=False) as (read, write, get_sid),
        ClientSession(read, write) as s,
    ):
        await s.initialize()
        await s.call_tool("banking_deposit", {"account": "ACC-000001", "amount": 5})
        print(json.dumps({"session": get_sid()}), flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
        try:
            res = await asyncio.wait_for(
                s.call_tool("banking_deposit", {"account": "ACC-000001", "amount": 5}), 30
            )
        except McpError as exc:
            print(json.dumps({"error": exc.error.message}), flush=True)
        except Exception as exc:  # what a trainer would see, whatever it is
            print(json.dumps({"error": f"{type(exc).__name__}: {exc}"}), flush=True)
        else:
            print(json.dumps({"is_error": res.isError, "text": res.content[0].text}), flush=True)


asyncio.run(main(sys.argv[1]))
