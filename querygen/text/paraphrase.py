"""Optional LLM paraphrase of user turns through any OpenAI-compatible endpoint.

Template text is always produced first and is always valid. A paraphrase replaces it only if it
keeps every anchor (each value the gold calls need, as the template wrote it) and still passes
the grounding gate (it may not invent an id, email or name). Otherwise the template text stays
and the rejection is counted. Endpoint problems are reported before any generation starts.
"""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from contract.task import Task

INSTRUCTION = (
    "Rewrite the user's message so it sounds natural and varied, as the same person would say it. "
    "Keep the meaning and the order of the requests. Keep each of these values exactly as written: {anchors}. "
    "Do not add names, ids or details that are not in the message. Reply with the rewritten message only."
)
_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")


class ParaphraseError(RuntimeError):
    """The endpoint cannot be used; the message says why and where."""


def chat_url(url: str) -> str:
    url = url.rstrip("/")
    return url if url.endswith("/chat/completions") else url + "/chat/completions"


class Paraphraser:
    """A minimal client: one chat completion per user turn, temperature 0."""

    def __init__(self, url: str, model: str, timeout: float = 30.0, api_key: str | None = None) -> None:
        self.url = chat_url(url)
        self.model = model
        self.timeout = timeout
        self.api_key = api_key

    def _post(self, messages: list[dict[str, str]], max_tokens: int) -> str:
        body = json.dumps(
            {"model": self.model, "messages": messages, "temperature": 0, "max_tokens": max_tokens}
        ).encode()
        headers = {"Content-Type": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        req = urllib.request.Request(self.url, data=body, headers=headers, method="POST")
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as resp:
                payload = json.loads(resp.read().decode())
        except urllib.error.HTTPError as exc:
            raise ParaphraseError(f"LLM endpoint {self.url} answered HTTP {exc.code}: {exc.reason}") from None
        except urllib.error.URLError as exc:
            raise ParaphraseError(f"cannot reach the LLM endpoint {self.url}: {exc.reason}") from None
        except (TimeoutError, OSError) as exc:
            raise ParaphraseError(f"cannot reach the LLM endpoint {self.url}: {exc}") from None
        except ValueError:
            raise ParaphraseError(f"LLM endpoint {self.url} did not answer with JSON") from None
        try:
            return str(payload["choices"][0]["message"]["content"]).strip()
        except (KeyError, IndexError, TypeError):
            raise ParaphraseError(
                f"LLM endpoint {self.url} answered without choices[0].message.content"
            ) from None

    def ping(self) -> None:
        """One tiny request, so a wrong URL or model fails before generation, not after."""
        self._post([{"role": "user", "content": "Reply with OK."}], max_tokens=2)

    def rewrite(self, text: str, anchors: Sequence[str]) -> str:
        shown = ", ".join(f'"{a}"' for a in anchors) or "(none)"
        out = self._post(
            [
                {"role": "system", "content": INSTRUCTION.format(anchors=shown)},
                {"role": "user", "content": text},
            ],
            max_tokens=400,
        )
        return out.strip().strip('"').strip()


def _norm(text: str) -> str:
    return " ".join(text.lower().replace("_", " ").split())


def keeps_values(text: str, anchors: Sequence[str]) -> bool:
    """Does ``text`` still contain every anchor (numbers compared as numbers)?"""
    numbers = {float(n.replace(",", "")) for n in _NUMBER.findall(text)}
    plain = _norm(text)
    for a in anchors:
        stripped = a.strip().lstrip("$").replace(",", "")
        try:
            value = float(stripped)
        except ValueError:
            if _norm(a) not in plain:
                return False
            continue
        if value not in numbers:
            return False
    return True


def paraphrase_tasks(
    tasks: Sequence[Task],
    para: Paraphraser,
    grounded: Callable[[Task], bool],
    threads: int = 8,
) -> Counter[str]:
    """Paraphrase every user turn in place; returns counts of accepted and rejected paraphrases."""
    jobs = [(ti, k) for ti, t in enumerate(tasks) for k in range(len(t.turns))]

    def work(job: tuple[int, int]) -> str | None:
        task = tasks[job[0]]
        anchors = _anchors(task, job[1])
        try:
            return para.rewrite(task.turns[job[1]].user, anchors)
        except ParaphraseError:
            return None

    with ThreadPoolExecutor(max_workers=threads) as pool:
        results = list(pool.map(work, jobs))
    counts: Counter[str] = Counter()
    by_task: dict[int, list[tuple[int, str | None]]] = {}
    for (ti, k), out in zip(jobs, results, strict=True):
        by_task.setdefault(ti, []).append((k, out))
    for ti, outs in by_task.items():
        _apply(tasks[ti], outs, grounded, counts, para.model)
    return counts


def _anchors(task: Task, turn: int) -> list[str]:
    per_turn = task.metadata.get("anchors") or []
    return list(per_turn[turn]) if turn < len(per_turn) else []


def _apply(
    task: Task,
    outs: list[tuple[int, str | None]],
    grounded: Callable[[Task], bool],
    counts: Counter[str],
    model: str,
) -> None:
    accepted: list[bool] = []
    original = [t.user for t in task.turns]
    for k, out in outs:
        ok = False
        if out is None:
            counts["endpoint_error"] += 1
        elif not out or not keeps_values(out, _anchors(task, k)):
            counts["lost_value"] += 1
        else:
            task.turns[k].user = out
            if grounded(task):
                ok = True
                counts["accepted"] += 1
            else:
                task.turns[k].user = original[k]
                counts["ungrounded"] += 1
        accepted.append(ok)
    meta: dict[str, Any] = {"model": model, "accepted": accepted}
    if any(accepted):
        meta["template_text"] = original
    task.metadata["paraphrase"] = meta
