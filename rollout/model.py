"""Talking to any OpenAI-compatible chat-completions endpoint (vLLM, SGLang, llama.cpp, hosted APIs).

Only the transport is retried: a refused connection, a timeout, a 429 or a 5xx are tried again
with exponential backoff, because they say nothing about the model. Whatever the model writes
(however broken) is returned as it is and scored; a 4xx other than 429 is the request's fault
and is reported at once.
"""

from __future__ import annotations

import asyncio
import json
import urllib.request
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import httpx

from rollout.http11 import Broken, Http11

RETRIED_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504})


class TransportFailure(Exception):
    """The endpoint could not be reached or kept failing after every retry."""


class ModelRefused(Exception):
    """The endpoint answered, but not with a completion (a 4xx, or a body without a message)."""


@dataclass
class Completion:
    message: dict[str, Any]
    usage: dict[str, int]
    attempts: int = 1


@dataclass
class ModelClient:
    """One endpoint and model; ``params`` are sent with every request (temperature, max_tokens...).

    A plain-http endpoint without a proxy is reached through :class:`rollout.http11.Http11`
    (a fraction of httpx's CPU per request); https and proxied endpoints through httpx.
    """

    base_url: str
    model: str
    api_key: str | None = None
    timeout: float = 120.0
    retries: int = 4
    backoff: float = 0.5
    params: dict[str, Any] = field(default_factory=dict)
    transport: str = "auto"  # "httpx" forces httpx for plain http too
    _http: httpx.AsyncClient | None = field(default=None, init=False, repr=False)
    _lean: Http11 | None = field(default=None, init=False, repr=False)

    @property
    def url(self) -> str:
        base = self.base_url.rstrip("/")
        return base if base.endswith("/chat/completions") else base + "/chat/completions"

    def _headers(self) -> dict[str, str]:
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        return headers

    async def _post(self, body: bytes) -> tuple[int, bytes]:
        parts = urlsplit(self.url)
        lean = self.transport == "auto" and parts.scheme == "http"
        if lean and parts.hostname and not _proxied(parts.hostname):
            if self._lean is None:
                self._lean = Http11(parts.hostname, parts.port or 80, timeout=self.timeout)
            path = parts.path + (f"?{parts.query}" if parts.query else "")
            reply = await self._lean.post(path or "/", body, self._headers())
            return reply.status, reply.body
        if self._http is None:
            limits = httpx.Limits(max_connections=256, max_keepalive_connections=64)
            self._http = httpx.AsyncClient(timeout=self.timeout, limits=limits)
        resp = await self._http.post(self.url, content=body, headers=self._headers())
        return resp.status_code, resp.content

    async def complete(self, body: dict[str, Any]) -> Completion:
        """One completion for ``body`` (messages, maybe tools); the first choice's message."""
        payload = json.dumps({"model": self.model, **self.params, **body}, ensure_ascii=False).encode()
        last = "no attempt made"
        for attempt in range(self.retries + 1):
            if attempt:
                await asyncio.sleep(self.backoff * 2 ** (attempt - 1))
            try:
                status, data = await self._post(payload)
            except (httpx.TransportError, OSError, TimeoutError, Broken, asyncio.IncompleteReadError) as exc:
                last = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
                continue
            if status in RETRIED_STATUS:
                last = f"HTTP {status}: {data[:200].decode(errors='replace')}"
                continue
            return _completion(status, data, attempt + 1)
        raise TransportFailure(f"{self.url} failed {self.retries + 1} times; last: {last}")

    async def aclose(self) -> None:
        if self._http is not None:
            await self._http.aclose()
            self._http = None
        if self._lean is not None:
            await self._lean.aclose()
            self._lean = None


def _proxied(host: str) -> bool:
    """An http proxy is configured for this host (then httpx, which honours it, is used)."""
    proxies = urllib.request.getproxies()
    return "http" in proxies and not urllib.request.proxy_bypass(host)


def _completion(status: int, data: bytes, attempts: int) -> Completion:
    text = data[:300].decode(errors="replace")
    if status >= 400:
        raise ModelRefused(f"HTTP {status} from the model endpoint: {text}")
    try:
        reply = json.loads(data)
        message = reply["choices"][0]["message"]
    except (ValueError, KeyError, IndexError, TypeError):
        raise ModelRefused(f"the endpoint answered without choices[0].message: {text}") from None
    if not isinstance(message, dict):
        raise ModelRefused("choices[0].message is not an object")
    usage = reply.get("usage") if isinstance(reply.get("usage"), dict) else {}
    return Completion(
        message,
        {k: int(usage.get(k) or 0) for k in ("prompt_tokens", "completion_tokens")},
        attempts,
    )
