"""The generator on travel_booking, social_media, team_chat and email: enough tasks, every tool,
access tokens threaded from ``authenticate`` into later calls, logged-out starts that log in first,
and gold rollouts that score the preset maximum.

One run at the default (medium) scale, as a user would start it."""

from __future__ import annotations

from collections import Counter

import pytest

from contract.messages import messages
from querygen.generate import GenConfig, Generator
from rewards import score
from servers.registry import get_domain

DOMAINS = ("travel_booking", "social_media", "team_chat", "email")
N = 2000  # the issue's own run: `toolground generate --domains <these four> --n 2000`
DISCOVERY = {"list_records", "search_records", "get_unique_values"}


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


def test_the_token_authenticate_returns_is_the_one_later_calls_pass(run):
    tasks, _ = run
    threaded = 0
    for t in tasks:
        calls = t.gold_calls()
        for i, c in enumerate(calls):
            if c.name != "travel_booking_authenticate" or not isinstance(c.result, dict):
                continue
            token = c.result.get("access_token")
            later = [d for d in calls[i + 1 :] if d.arguments.get("access_token") is not None]
            if later:
                assert all(d.arguments["access_token"] == token for d in later), t.id
                threaded += 1
    assert threaded >= 20, threaded


def test_logged_out_starts_log_in_first(run):
    tasks, _ = run
    started = Counter()
    for t in tasks:
        for domain, variant in t.variants().items():
            started[f"{domain}.{variant}"] += 1
            first = get_domain(domain).variants[variant].first
            if first and t.kind == "tool" and t.gold_calls():
                assert t.gold_calls()[0].name == f"{domain}_{first}", t.id
    for key in (
        "travel_booking.token_expired",
        "social_media.logged_out",
        "team_chat.logged_out",
        "email.logged_out",
    ):
        assert started[key] >= 5, started


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
