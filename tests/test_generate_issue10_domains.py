"""The generator on calendar, video_meeting, maps and food_delivery: enough tasks, every tool,
relative dates that name the gold call's day, and gold rollouts that score the preset maximum.

One run at the default (medium) scale, as a user would start it."""

from __future__ import annotations

import json
import re
from datetime import date

import pytest

from contract.messages import messages
from querygen.generate import GenConfig, Generator
from querygen.text.dates import DAY_RE, MOMENT_RE
from rewards import score
from servers.registry import get_domain
from tests.test_querygen_dates import read_day

DOMAINS = ("calendar", "video_meeting", "maps", "food_delivery")
N = 2000  # the issue's own run: `toolground generate --domains <these four> --n 2000`
DISCOVERY = {"list_records", "search_records", "get_unique_values"}
_WEEKDAY = r"(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)"
_MONTH = r"(?:January|February|March|April|May|June|July|August|September|October|November|December)"
# the shapes querygen.text.dates writes, read back by the independent reader of test_querygen_dates
PHRASE = re.compile(
    rf"\b(today|tomorrow|yesterday|(?:this|last) {_WEEKDAY}|{_WEEKDAY} (?:next|last) week"
    rf"|(?:{_WEEKDAY}, )?{_MONTH} \d{{1,2}}(?:, \d{{4}})?)\b"
)


@pytest.fixture(scope="module")
def run(snapshot_cache):
    gen = Generator(GenConfig(domains=DOMAINS, n=N, seed=3), cache=snapshot_cache)
    return gen.run(workers=1)


def test_keeps_at_least_ninety_percent_of_n(run):
    tasks, stats = run
    assert len(tasks) >= 0.9 * N, stats.as_dict()


def test_every_non_discovery_tool_appears_in_a_kept_task(run):
    tasks, _ = run
    used = {c.name for t in tasks for c in t.gold_calls()}
    for name in DOMAINS:
        tools = {s.qualified_name for s in get_domain(name).visible_tools() if s.name not in DISCOVERY}
        missing = sorted(tools - used)
        assert not missing, f"{name}: no kept task calls {missing}"


def _said_days(text: str, today: date) -> set[date]:
    return {read_day(m.group(1), today) for m in PHRASE.finditer(text)}


def test_relative_dates_name_the_day_the_gold_call_uses(run):
    """Every date the user gave in words reads back, against the task's reference day, to the
    day the gold call passes; a date a tool result showed is dataflow, not the user's words."""
    tasks, _ = run
    checked = 0
    for t in tasks:
        today = date.fromisoformat(t.metadata["reference_date"])
        said, seen, words = set(), "", ""
        for turn in t.turns:
            said |= _said_days(turn.user, today)  # an earlier turn's "tomorrow" still holds
            words += turn.user
            for call in turn.calls:
                for value in _date_values(call.arguments):
                    if value in words or value[:10] in seen:
                        continue
                    assert date.fromisoformat(value[:10]) in said, (t.id, value, turn.user)
                    checked += 1
                seen += json.dumps(call.result, default=str)
    assert checked >= 50, checked


def _date_values(arguments: dict) -> list[str]:
    out = []
    for v in arguments.values():
        for x in v if isinstance(v, list) else [v]:
            if isinstance(x, str) and (DAY_RE.match(x) or MOMENT_RE.match(x)):
                out.append(x)
    return out


@pytest.mark.parametrize("preset", ["prove", "prove+outcome"])
def test_gold_rollouts_score_the_preset_maximum(run, preset):
    tasks, _ = run
    for task in tasks[::5]:
        result = score(task, messages(task)[1:], preset)
        if task.kind == "abstain" or not task.gold_calls():
            assert result.total == pytest.approx(1.0), (task.id, result.components)
            continue
        best = 1.3 + (0.5 if preset == "prove+outcome" else 0.0)
        assert result.total == pytest.approx(best), (task.id, task.kind, result.components)
