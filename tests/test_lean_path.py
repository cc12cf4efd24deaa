"""The lean path answers exactly as the full MCP stack: same status, headers and bytes, call for call.

Two real servers on 127.0.0.1 over the same snapshots, one with the lean layer and one the plain
fastmcp app, get the same raw HTTP requests in the same order (each on its own env sessions, so
their states move in step). Every reply is compared byte for byte (the Date header aside), and the
lean server's counter proves which requests it answered itself and which it left to the stack.
"""

from __future__ import annotations

import asyncio
import http.client
import json

import pytest
from fastmcp import Client
from fastmcp.client.transports import StreamableHttpTransport

from servers.serve import MCP_PATH, build_http_app
from tests.serving import serving_in_thread

V = "2026-07-28"
META = {"io.modelcontextprotocol/protocolVersion": V, "io.modelcontextprotocol/clientCapabilities": {}}
DOMAINS = "banking,email,calendar,maps,payments"


@pytest.fixture(scope="module")
def pair(make_env):
    lean_app = build_http_app(make_env(DOMAINS))
    full_app = build_http_app(make_env(DOMAINS), lean=False)
    with serving_in_thread(lean_app) as lean_port, serving_in_thread(full_app) as full_port:
        yield lean_app, lean_port, full_port


def _raw(port: int, body: bytes, headers: dict[str, str], path: str = MCP_PATH) -> tuple[int, list, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("POST", path, body, headers)
    r = conn.getresponse()
    out = r.status, [(k.lower(), v) for k, v in r.getheaders() if k.lower() != "date"], r.read()
    conn.close()
    return out


def _headers(
    method: str, name: str | None = None, session: str | None = "s1", **extra: str
) -> dict[str, str]:
    h = {
        "Content-Type": "application/json",
        "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": V,
        "Mcp-Method": method,
    }
    if name is not None:
        h["Mcp-Name"] = name
    if session is not None:
        h["X-Env-Session"] = session
    h.update(extra)
    return h


def call(name: str, arguments, rid=1, meta=None, **headers) -> tuple[bytes, dict[str, str]]:
    params = {"name": name, "_meta": meta or dict(META)}
    if arguments is not ...:
        params["arguments"] = arguments
    body = {"jsonrpc": "2.0", "id": rid, "method": "tools/call", "params": params}
    return json.dumps(body).encode(), _headers("tools/call", name, **headers)


def same(pair, body: bytes, headers: dict[str, str], path: str = MCP_PATH) -> tuple[bool, bytes]:
    """Send to both; assert identical replies; return (answered by the lean layer, the body)."""
    app, lean_port, full_port = pair
    before = app.served
    lean = _raw(lean_port, body, headers, path)
    full = _raw(full_port, body, headers, path)
    assert lean == full, f"lean path differs from the stack for {body[:200]!r}:\n{lean}\n{full}"
    return app.served > before, lean[2]


def test_reads_writes_and_tool_errors_are_byte_identical_and_answered_lean(pair):
    rows = json.loads(same(pair, *call("banking_list_records", {"table": "accounts", "limit": 3}))[1])
    account = rows["result"]["structuredContent"]["rows"][0]["id"]
    cases = [
        call("banking_get_balance", {"account": account}, rid="req-é"),
        call("banking_deposit", {"account": account, "amount": 12.5}, rid=2**40),
        call("banking_get_balance", {"account": account}),  # the deposit is visible in both
        call("banking_get_balance", {"account": "ACC-999999"}),  # a tool error
        call("banking_deposit", {"account": account, "amount": True}),  # strict types
        call("banking_deposit", {"account": account, "amount": "5"}),
        call("banking_deposit", {"account": account, "amount": " 7 "}),
        call("banking_get_balance", {}),  # missing argument
        call("banking_get_balance", {"account": account, "extra": 1}),
        call("banking_update_phone", {"customer": "CUS-000001", "phone": "☎ +1 555 0100 «x»"}),
        call("email_list_labels", None),
        call("email_list_labels", ...),
        call("banking_get_balance", {"account": account}, session=None, **{"X-Env-Session": "s2"}),
        # what fastmcp's Client puts in _meta besides the envelope
        call("banking_get_balance", {"account": account}, meta=dict(META, progressToken=7, **{LOG: "debug"})),
    ]
    for body, headers in cases:
        lean, _ = same(pair, body, headers)
        assert lean, f"expected the lean path to answer {body[:120]!r}"


def test_every_domains_records_read_the_same_through_both(pair, make_env):
    env = make_env(DOMAINS)
    for domain in env.domains:
        spec = env.tools[f"{domain.name}_list_records"]
        for table in spec.input_schema()["properties"]["table"]["enum"]:
            lean, _ = same(pair, *call(spec.qualified_name, {"table": table, "limit": 5}, session="sweep"))
            assert lean


def test_env_session_from_query_and_meta(pair):
    body, headers = call("banking_list_records", {"table": "customers", "limit": 1}, session=None)
    assert same(pair, body, headers, path=MCP_PATH + "?env_session=q1")[0]
    meta = dict(META, env_session="m1")
    body, headers = call("banking_list_records", {"table": "customers", "limit": 1}, session=None, meta=meta)
    assert same(pair, body, headers)[0]


@pytest.mark.parametrize(
    "case",
    [
        "unknown tool",
        "hidden tool",
        "no env session",
        "bad env session",
        "name mismatch",
        "method mismatch",
        "version mismatch",
        "no meta",
        "bad capabilities",
        "bad progress token",
        "arguments not an object",
        "notification",
        "batch",
        "malformed",
        "text/plain",
        "sse only",
        "foreign origin",
        "foreign host",
        "param header",
        "repeated header",
    ],
)
def test_requests_the_stack_must_answer_are_left_to_it(pair, case):
    body, headers = call("banking_get_balance", {"account": "ACC-000001"})
    if case == "unknown tool":
        body, headers = call("banking_nope", {})
    elif case == "hidden tool":
        body, headers = call("banking_audit_ledger", {})
    elif case == "no env session":
        body, headers = call("banking_get_balance", {"account": "ACC-000001"}, session=None)
    elif case == "bad env session":
        headers["X-Env-Session"] = "a b"
    elif case == "name mismatch":
        headers["Mcp-Name"] = "banking_deposit"
    elif case == "method mismatch":
        headers["Mcp-Method"] = "tools/list"
    elif case == "version mismatch":
        body, headers = call("banking_get_balance", {}, meta=dict(META, **{META_V: "2025-11-25"}))
    elif case == "no meta":
        body = json.dumps(
            {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "banking_get_balance"}}
        ).encode()
    elif case == "bad capabilities":
        body, headers = call("banking_get_balance", {}, meta=dict(META, **{META_CAPS: {"roots": 5}}))
    elif case == "bad progress token":
        body, headers = call("banking_get_balance", {}, meta=dict(META, progressToken=True))
    elif case == "arguments not an object":
        body, headers = call("banking_get_balance", [1, 2])
    elif case == "notification":
        body = json.dumps({"jsonrpc": "2.0", "method": "tools/call", "params": {"_meta": META}}).encode()
    elif case == "batch":
        body = b"[" + body + b"]"
    elif case == "malformed":
        body = body[:-3]
    elif case == "text/plain":
        headers["Content-Type"] = "text/plain"
    elif case == "sse only":
        headers["Accept"] = "text/event-stream"
    elif case == "foreign origin":
        headers["Origin"] = "https://evil.example"
    elif case == "foreign host":
        headers["Host"] = "evil.example"
    elif case == "param header":
        headers["Mcp-Param-Account"] = "ACC-000001"
    lean, _ = (
        same(pair, body, headers)
        if case != "repeated header"
        else (_repeated_header(pair, body, headers), None)
    )
    assert not lean


META_V = "io.modelcontextprotocol/protocolVersion"
META_CAPS = "io.modelcontextprotocol/clientCapabilities"
LOG = "io.modelcontextprotocol/logLevel"


def _repeated_header(pair, body: bytes, headers: dict[str, str]) -> bool:
    app, lean_port, full_port = pair
    before = app.served
    replies = []
    for port in (lean_port, full_port):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.putrequest("POST", MCP_PATH)
        for k, v in headers.items():
            conn.putheader(k, v)
        conn.putheader("X-Env-Session", "second")
        conn.putheader("Content-Length", str(len(body)))
        conn.endheaders(body)
        r = conn.getresponse()
        replies.append((r.status, [(k, v) for k, v in r.getheaders() if k.lower() != "date"], r.read()))
        conn.close()
    assert replies[0] == replies[1]
    return app.served > before


def test_tools_list_is_the_stacks_listing_with_the_callers_id(pair):
    def listing(rid):
        body = {"jsonrpc": "2.0", "id": rid, "method": "tools/list", "params": {"_meta": META}}
        return json.dumps(body).encode(), _headers("tools/list", session=None)

    same(pair, *listing(1))  # the first one may be captured from the stack
    lean, out = same(pair, *listing("second"))
    assert lean and json.loads(out)["id"] == "second"
    body = {"jsonrpc": "2.0", "id": 3, "method": "tools/list", "params": {"_meta": META, "cursor": "x"}}
    assert not same(pair, json.dumps(body).encode(), _headers("tools/list", session=None))[0]


def test_fastmcp_client_is_served_by_the_lean_path(pair):
    app, lean_port, _ = pair
    before = app.served

    async def session() -> tuple[int, float]:
        url = f"http://127.0.0.1:{lean_port}{MCP_PATH}"
        transport = StreamableHttpTransport(url, headers={"X-Env-Session": "client-1"})
        async with Client(transport) as client:
            tools = await client.list_tools()
            rows = await client.call_tool("banking_list_records", {"table": "accounts", "limit": 1})
            account = rows.structured_content["rows"][0]["id"]
            await client.call_tool("banking_deposit", {"account": account, "amount": 3.0})
            got = await client.call_tool("banking_get_balance", {"account": account})
            return len(tools), got.structured_content["balance"]

    n_tools, balance = asyncio.run(session())
    assert n_tools > 100 and balance > 0
    assert app.served - before >= 3  # the three calls, at least
