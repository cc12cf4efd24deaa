"""The eval's lean HTTP/1.1 client against raw servers that answer the ways real servers do.

Each server is a few lines of asyncio on 127.0.0.1 writing exact bytes: a chunked body, a
body that runs to the end of the connection, a server that drops idle keep-alive connections,
one that answers garbage, one that never answers. The client must read each correctly or fail
with a transport error the model client retries, never hang or mix answers up.
"""

from __future__ import annotations

import asyncio
import json

import pytest

from rollout.http11 import Broken, Http11
from rollout.model import ModelClient, TransportFailure

OK = json.dumps({"choices": [{"message": {"role": "assistant", "content": "hi"}}]}).encode()


async def _serve(answer, *, close_after: int | None = None):
    """A server on a free port; ``answer(head, body) -> response bytes | None`` (None: stall)."""
    served = {"requests": 0, "connections": 0}

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        served["connections"] += 1
        handled = 0
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = int(
                    next(h for h in head.split(b"\r\n") if h.lower().startswith(b"content-length")).split(
                        b":"
                    )[1]
                )
                body = await reader.readexactly(length)
                served["requests"] += 1
                reply = answer(head, body)
                if reply is None:
                    await asyncio.sleep(30)
                writer.write(reply)
                await writer.drain()
                handled += 1
                if close_after is not None and handled >= close_after:
                    break
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    return server, server.sockets[0].getsockname()[1], served


def _fixed(body: bytes, extra: str = "") -> bytes:
    return (
        f"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {len(body)}\r\n{extra}\r\n".encode()
        + body
    )


def run(coro):
    return asyncio.run(coro)


def test_keep_alive_reuses_one_connection_and_answers_stay_in_order():
    async def main():
        server, port, served = await _serve(lambda head, body: _fixed(body))  # echoes the request body
        client = Http11("127.0.0.1", port)
        got = [await client.post("/v1/chat/completions", f'{{"n": {i}}}'.encode(), {}) for i in range(20)]
        await client.aclose()
        server.close()
        return got, served

    got, served = run(main())
    assert [json.loads(r.body)["n"] for r in got] == list(range(20)) and {r.status for r in got} == {200}
    assert served["connections"] == 1


def test_chunked_and_read_to_close_bodies():
    chunked = (
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\n\r\n"
    )
    to_close = b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nuntil the end"

    async def main():
        s1, p1, _ = await _serve(lambda head, body: chunked)
        s2, p2, served2 = await _serve(lambda head, body: to_close, close_after=1)
        a = await Http11("127.0.0.1", p1).post("/", b"{}", {})
        c2 = Http11("127.0.0.1", p2)
        b = [await c2.post("/", b"{}", {}) for _ in range(2)]
        s1.close()
        s2.close()
        return a, b, served2

    a, b, served2 = run(main())
    assert a.body == b"hello world"
    assert [r.body for r in b] == [b"until the end"] * 2 and served2["connections"] == 2


def test_a_connection_dropped_while_idle_is_replaced_without_an_error():
    async def main():
        server, port, served = await _serve(lambda head, body: _fixed(OK), close_after=1)
        client = Http11("127.0.0.1", port)
        first = await client.post("/", b"{}", {})
        await asyncio.sleep(0.05)  # the server has closed the kept connection by now
        second = await client.post("/", b"{}", {})
        server.close()
        return first, second, served

    first, second, served = run(main())
    assert first.body == second.body == OK and served["connections"] == 2


def test_garbage_and_silence_are_transport_failures_the_client_retries():
    async def main():
        s1, p1, served1 = await _serve(lambda head, body: b"SMTP ready\r\n\r\n")
        s2, p2, served2 = await _serve(lambda head, body: None)
        with pytest.raises(Broken, match="status line"):
            await Http11("127.0.0.1", p1).post("/", b"{}", {})
        garbage = ModelClient(f"http://127.0.0.1:{p1}/v1", "m", retries=2, backoff=0.01)
        with pytest.raises(TransportFailure, match="failed 3 times.*Broken"):
            await garbage.complete({"messages": []})
        silent = ModelClient(f"http://127.0.0.1:{p2}/v1", "m", retries=1, backoff=0.01, timeout=0.2)
        with pytest.raises(TransportFailure, match="TimeoutError"):
            await silent.complete({"messages": []})
        await garbage.aclose()
        await silent.aclose()
        s1.close()
        s2.close()
        return served1, served2

    served1, served2 = run(main())
    assert served1["requests"] == 4 and served2["requests"] == 2


def test_the_model_client_sends_the_model_params_and_key():
    seen = []

    def answer(head: bytes, body: bytes) -> bytes:
        assert b"\r\nauthorization: bearer k\r\n" in head.lower()
        seen.append(json.loads(body))
        return _fixed(OK)

    async def main():
        server, port, _ = await _serve(answer)
        client = ModelClient(f"http://127.0.0.1:{port}/v1", "tiny", api_key="k", params={"temperature": 0.0})
        done = await client.complete({"messages": [{"role": "user", "content": "hé"}]})
        await client.aclose()
        server.close()
        return done

    done = run(main())
    assert done.message["content"] == "hi"
    assert seen == [{"model": "tiny", "temperature": 0.0, "messages": [{"role": "user", "content": "hé"}]}]
